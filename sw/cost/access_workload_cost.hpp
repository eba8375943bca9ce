// Expected cycles of the `orthosim access` workloads (sw/workload/access_workload.hpp) on each
// configuration, from the protocol costs and from how each configuration serializes accesses.
#pragma once

#include "sw/arch/system_config.hpp"
#include "sw/core/cycle.hpp"
#include "sw/workload/access_workload.hpp"

namespace orthosim::sw {

/// T = cost of one access of the workload's kind (scalar, interleaved or block over d, l).
///   scalar | interleaved | block: omp, crossbar: 2T (each P(i) on its own bus, in parallel);
///                                 bus: 2nT (all 2n accesses share B0, back to back).
///   iwr: omp:      2T + gamma                      (one IWR step, Eq. 1 plus the bus switch);
///        crossbar: T + gamma + d T(1,l)            (parallel writes on n buses; each receiver
///                                                   reads d buses one after another, and in
///                                                   round k every receiver is on a different bus);
///        bus:      n T + gamma + n d T(1,l)        (every access serialized on B0).
/// Repetitions run back to back: every configuration keeps its buses exactly as busy in each
/// repetition (the omp and crossbar by symmetry, the bus because it never idles but for gamma),
/// so the total is the repetition count times one.
[[nodiscard]] Cycle access_workload_cycles(const SystemConfig& config,
                                           const AccessWorkload& workload);

}  // namespace orthosim::sw
