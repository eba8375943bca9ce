// The single clock domain of a system: converts cycle counts to and from SystemC time. Models
// count cycles; only this class knows the period (modeling rule 3).
#pragma once

#include <cstdint>
#include <systemc>

#include "sw/core/cycle.hpp"

namespace orthosim::sc {

using sw::Cycle;

class ClockDomain {
 public:
  explicit ClockDomain(std::uint32_t period_ns);

  /// SystemC delay of `cycles` cycles.
  [[nodiscard]] sc_core::sc_time delay(Cycle cycles) const {
    return period_ * static_cast<double>(cycles.count());
  }
  /// The current cycle. Every model event falls on a cycle boundary.
  [[nodiscard]] Cycle now() const;
  /// SystemC delay from the current time to the start of cycle `at` (zero if it has begun):
  /// callable between clock edges, e.g. in the second half of a cycle.
  [[nodiscard]] sc_core::sc_time until(Cycle at) const;
  [[nodiscard]] std::uint32_t period_ns() const { return period_ns_; }

 private:
  std::uint32_t period_ns_;
  sc_core::sc_time period_;
  // now()'s last answer: the blocks ask it many times a cycle, and a division costs tens of
  // clock cycles of the host.
  mutable std::uint64_t last_time_ = ~std::uint64_t{0};
  mutable Cycle last_cycle_;
};

/// Sets the kernel's time resolution to 1 ns (the resolution every model and, later, the
/// Verilated RTL share: toolchain fact 7) and silences the banner. Call once, first thing in sc_main.
void init_kernel();

}  // namespace orthosim::sc
