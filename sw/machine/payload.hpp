// Deterministic payload words. A word is a pure function of (source, destination, tag, index),
// so a receiver is checked against a recomputation, never against a stored copy.
#pragma once

#include <cstdint>

#include "sw/machine/machine_program.hpp"

namespace orthosim::sw {

/// Word `index` of the message identified by `key`.
[[nodiscard]] Word payload_word(const PayloadKey& key, std::uint32_t index);

}  // namespace orthosim::sw
