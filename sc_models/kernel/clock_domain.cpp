// Clock domain and kernel set-up.
#include "sc_models/kernel/clock_domain.hpp"

#include <cstdlib>
#include <stdexcept>
#include <string>

namespace orthosim::sc {

ClockDomain::ClockDomain(std::uint32_t period_ns)
    : period_ns_(period_ns), period_(static_cast<double>(period_ns), sc_core::SC_NS) {
  if (period_ns == 0) {
    throw std::invalid_argument("clock period must be at least 1 ns");
  }
}

Cycle ClockDomain::now() const {
  const std::uint64_t t = sc_core::sc_time_stamp().value();
  if (t == last_time_) {
    return last_cycle_;
  }
  const std::uint64_t p = period_.value();
  if (t % p != 0) {
    throw std::logic_error("simulation time " + sc_core::sc_time_stamp().to_string() +
                           " is not on a clock edge of period " + std::to_string(period_ns_) +
                           " ns");
  }
  last_time_ = t;
  last_cycle_ = Cycle{t / p};
  return last_cycle_;
}

sc_core::sc_time ClockDomain::until(Cycle at) const {
  const sc_core::sc_time start = delay(at);
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  return start > now ? start - now : sc_core::SC_ZERO_TIME;
}

void init_kernel() {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  sc_core::sc_set_time_resolution(1, sc_core::SC_NS);
}

}  // namespace orthosim::sc
