#include "sw/schedule/schedule_program.hpp"

#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>

#include "sw/program/parser.hpp"

namespace orthosim::sw {

McProgram to_program(const Schedule& schedule, const ScheduleCosts& costs) {
  if (costs.block_words == 0) {
    throw std::invalid_argument("to_program: a block of 0 words");
  }
  McProgram program;
  program.name = schedule.name;
  program.nodes = schedule.nodes;
  for (const ScheduleStep& step : schedule.steps) {
    ProgramStep out;
    out.label = step.label;
    std::map<NodeId, std::uint64_t> cycles;  // node order, so the text is canonical
    for (const LocalWork& work : step.local) {
      cycles[work.node] += work.compute.count() + std::uint64_t{work.rearranged_blocks} *
                                                      costs.rearrange_cycles_per_block.count();
    }
    for (const auto& [node, c] : cycles) {
      if (c > 0) {
        out.computes.push_back(ComputePhase{node, Cycle{c}, {}});
      }
    }
    std::set<std::pair<NodeId, NodeId>> pairs;
    for (const ScheduledMessage& msg : step.messages) {
      if (!pairs.emplace(msg.source, msg.destination).second) {
        throw std::invalid_argument("to_program: two messages " + std::to_string(msg.source) +
                                    " -> " + std::to_string(msg.destination) + " in step '" +
                                    step.label + "'");
      }
      const std::uint64_t words = std::uint64_t{msg.blocks.size()} * costs.block_words;
      if (words == 0 || words > kMaxMessageWords) {
        throw std::invalid_argument("to_program: a message of " + std::to_string(words) +
                                    " words (1.." + std::to_string(kMaxMessageWords) +
                                    " expected) in step '" + step.label + "'");
      }
      out.transfers.push_back(
          Transfer{msg.source, {msg.destination}, false, static_cast<std::uint32_t>(words), {}});
    }
    program.steps.push_back(std::move(out));
  }
  return program;
}

}  // namespace orthosim::sw
