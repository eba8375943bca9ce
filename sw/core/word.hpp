// The data word that both machines move: a word on the multiprocessors' 32-bit buses and a flit's
// payload in the multicomputer networks.
#pragma once

#include <cstdint>

namespace orthosim::sw {

using Word = std::uint32_t;  ///< one word on a 32-bit data bus

/// The value local memory holds where nothing was ever stored; chosen so that a lost message is
/// reported rather than read as zeros that might match.
inline constexpr Word kUnwrittenWord = 0xDEADBEEFu;

}  // namespace orthosim::sw
