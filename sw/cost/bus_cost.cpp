// [PH91] section 3.1 access costs.
#include "sw/cost/bus_cost.hpp"

namespace orthosim::sw {

Cycle scalar_access(const BusTiming& t) { return Cycle{t.alpha + t.tau}; }

Cycle interleaved_access(const BusTiming& t, std::uint64_t d) { return Cycle{t.alpha + d * t.tau}; }

Cycle block_access(const BusTiming& t, std::uint64_t d, std::uint64_t l) {
  return Cycle{t.alpha + t.beta * (l - 1) + d * t.tau * l};
}

Cycle iwr_step(const BusTiming& t, std::uint64_t d, std::uint64_t l) {
  return block_access(t, d, l) * 2 + Cycle{t.gamma};
}

}  // namespace orthosim::sw
