// Analytic cost of mapped programs (see the header).
#include "sw/cost/program_cost.hpp"

#include <algorithm>
#include <map>

#include "sw/cost/bus_cost.hpp"

namespace orthosim::sw {

Cycle access_cost(const BusTiming& timing, const MappedAccess& access) {
  return block_access(timing, access.slots.size(), access.vectors);
}

Cycle predict_step_cycles(const MappedStep& step, const SystemConfig& config, SyncMode sync) {
  const MemoryOrganization org = config.organization();
  const bool pairs = sync == SyncMode::Pairs;
  const Cycle activate{pairs ? config.sync.activate : 0};
  std::vector<Cycle> chain = step.compute;
  std::map<std::uint32_t, Cycle> bus_load;
  // Per parcel: when its writer has written it and raised the sync.
  std::vector<Cycle> written(step.parcels.size());
  std::uint32_t phases = 1;
  for (const MappedOp& op : step.ops) {
    phases = std::max(phases, op.phase + 1);
  }
  for (std::uint32_t phase = 0; phase < phases; ++phase) {
    for (const MappedOp& op : step.ops) {
      for (const MappedAccess& a : op.accesses) {
        if (a.direction != Direction::Write || op.phase != phase) {
          continue;
        }
        const Cycle cost = access_cost(config.timing, a);
        chain[a.processor] += cost + activate;
        bus_load[org.bus_index(a.bus)] += cost;
        for (std::size_t i : a.parcels) {
          written[i] = chain[a.processor];
        }
      }
    }
    if (!pairs) {
      // The bus switch: the phase's processors meet after their writes, gamma later all read.
      std::vector<ProcId> members;
      Cycle last;
      for (const MappedOp& op : step.ops) {
        for (const MappedAccess& a : op.accesses) {
          if (op.phase == phase) {
            members.push_back(a.processor);
            last = std::max(last, chain[a.processor]);
          }
        }
      }
      for (ProcId p : members) {
        chain[p] = last + Cycle{config.timing.gamma};
      }
      std::fill(written.begin(), written.end(), Cycle{0});
    }
    for (const MappedOp& op : step.ops) {
      for (const MappedAccess& a : op.accesses) {
        if (a.direction != Direction::Read || op.phase != phase) {
          continue;
        }
        const Cycle cost = access_cost(config.timing, a);
        Cycle ready = chain[a.processor];
        for (std::size_t i : a.parcels) {
          ready = std::max(ready, written[i]);
        }
        chain[a.processor] = ready + cost;
        bus_load[org.bus_index(a.bus)] += cost;
      }
    }
  }
  Cycle longest;
  for (Cycle c : chain) {
    longest = std::max(longest, c);
  }
  for (const auto& [bus, load] : bus_load) {
    longest = std::max(longest, load + (pairs ? activate : Cycle{config.timing.gamma}));
  }
  return longest;
}

ProgramCost predict_cycles(const MappedProgram& program, const SystemConfig& config) {
  ProgramCost cost;
  for (const MappedStep& step : program.steps) {
    cost.steps.push_back(predict_step_cycles(step, config, program.sync));
    cost.total += cost.steps.back();
  }
  return cost;
}

}  // namespace orthosim::sw
