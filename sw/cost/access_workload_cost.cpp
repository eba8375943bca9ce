// Closed forms of the access workloads' cycles.
#include "sw/cost/access_workload_cost.hpp"

#include "sw/cost/bus_cost.hpp"

namespace orthosim::sw {

namespace {
Cycle once(const SystemConfig& config, const AccessWorkload& w) {
  const BusTiming& t = config.timing;
  const std::uint64_t n = config.n;
  Cycle one;  // T: one access of the workload's kind
  switch (w.kind) {
    case WorkloadKind::Scalar:
      one = scalar_access(t);
      break;
    case WorkloadKind::Interleaved:
      one = interleaved_access(t, w.d);
      break;
    case WorkloadKind::Block:
    case WorkloadKind::Iwr:
      one = block_access(t, w.d, w.l);
      break;
  }
  const Cycle gamma{t.gamma};
  if (w.kind != WorkloadKind::Iwr) {
    return config.arch == Arch::Bus ? one * (2 * n) : one * 2;
  }
  const Cycle single_module_read = block_access(t, 1, w.l);
  switch (config.arch) {
    case Arch::Omp:
      return iwr_step(t, w.d, w.l);
    case Arch::Crossbar:
      return one + gamma + single_module_read * w.d;
    case Arch::Bus:
      return one * n + gamma + single_module_read * (n * w.d);
  }
  return Cycle{};
}
}  // namespace

Cycle access_workload_cycles(const SystemConfig& config, const AccessWorkload& w) {
  return once(config, w) * w.repetitions;
}

}  // namespace orthosim::sw
