// The cost model of a mapped program (the project's access costs, [PH91] Fig. 5) and a
// prediction of its cycles on each configuration. The prediction is an analytic bound, not a
// simulation: it says which configuration should be fastest, and tests compare that ranking with
// the emulated one.
#pragma once

#include <vector>

#include "sw/arch/system_config.hpp"
#include "sw/core/cycle.hpp"
#include "sw/mapping/mapping.hpp"

namespace orthosim::sw {

/// One access of a mapped program: alpha + beta(l-1) + d tau l (scalar: d = l = 1;
/// interleaved: l = 1).
[[nodiscard]] Cycle access_cost(const BusTiming& timing, const MappedAccess& access);

struct ProgramCost {
  std::vector<Cycle> steps;  ///< predicted cycles of each step
  Cycle total;
};

/// Predicts each step as the longest of: a processor's own chain (compute, its writes each with
/// an activate-sync, its reads), the busiest bus (its accesses back to back, plus one
/// activate-sync), and every read's earliest end (after its writers' writes and syncs).
/// Steps are summed: the prediction ignores the overlap of consecutive steps.
[[nodiscard]] ProgramCost predict_cycles(const MappedProgram& program, const SystemConfig& config);
/// One step's part of predict_cycles.
[[nodiscard]] Cycle predict_step_cycles(const MappedStep& step, const SystemConfig& config,
                                        SyncMode sync);

}  // namespace orthosim::sw
