// Analytic costs of the bus access protocols of [PH91] section 3.1 (Fig. 5, Eq. 1). These are
// the oracle the emulation is tested against; the SystemC models never call them (modeling rule 4).
#pragma once

#include <cstdint>

#include "sw/arch/system_config.hpp"
#include "sw/core/cycle.hpp"

namespace orthosim::sw {

/// Scalar read or write: alpha + tau (Fig. 5(a)).
[[nodiscard]] Cycle scalar_access(const BusTiming& t);
/// Interleaved read or write over d modules: alpha + d tau (Fig. 5(b), with d <= n modules).
[[nodiscard]] Cycle interleaved_access(const BusTiming& t, std::uint64_t d);
/// Block-interleaved read or write of l vectors over d modules: alpha + beta(l-1) + d tau l
/// (Fig. 5(c)).
[[nodiscard]] Cycle block_access(const BusTiming& t, std::uint64_t d, std::uint64_t l);
/// One IWR step: 2(alpha + beta(l-1) + d tau l) + gamma. With gamma = 0 this is Eq. (1),
/// T(d,l) = 2(alpha + beta(l-1) + d tau l); docs/architecture.md adds the bus switch gamma.
[[nodiscard]] Cycle iwr_step(const BusTiming& t, std::uint64_t d, std::uint64_t l);

}  // namespace orthosim::sw
