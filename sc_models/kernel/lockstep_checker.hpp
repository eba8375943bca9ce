// The co-simulation comparator (docs/architecture.md, contract "Model = RTL"): a model and its RTL twin run
// on the same stimulus and every output is compared every cycle; the first mismatch is kept with
// the cycle, the signal, both values and the block's instance name, and stops the comparison.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "sw/run/run_summary.hpp"

namespace orthosim::sc {

/// The first difference a checker keeps (the one record of it: sw/run/run_summary.hpp).
using Mismatch = sw::CosimMismatch;

class LockstepChecker {
 public:
  explicit LockstepChecker(std::string instance) : instance_(std::move(instance)) {}

  /// Compares one output in one cycle; false (and the mismatch kept) on the first difference.
  bool check(std::uint64_t cycle, const char* signal, std::uint64_t model, std::uint64_t rtl) {
    ++comparisons_;
    if (model == rtl || first_) {
      return model == rtl;
    }
    first_ = Mismatch{cycle, instance_, signal, model, rtl};
    return false;
  }

  [[nodiscard]] const std::optional<Mismatch>& first_mismatch() const { return first_; }
  [[nodiscard]] std::uint64_t comparisons() const { return comparisons_; }

 private:
  std::string instance_;
  std::optional<Mismatch> first_;
  std::uint64_t comparisons_ = 0;
};

}  // namespace orthosim::sc
