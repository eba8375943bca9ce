// The paper's notation for mapped steps ([PH91] section 4.3, footnote 2).
#include "sw/mapping/listing.hpp"

#include <vector>

namespace orthosim::sw {

std::string program_line(const MappedStep& step) {
  std::string line = "Step " + std::to_string(step.index + 1) + ":";
  if (step.node_patterns.empty()) {
    return line + " (no communication)";
  }
  for (std::size_t i = 0; i < step.node_patterns.size(); ++i) {
    const PatternInstance& inst = step.node_patterns[i];
    std::vector<std::string> pairs;
    for (const Transfer& t : inst.transfers) {
      for (NodeId d : t.destinations) {
        pairs.push_back("N" + std::to_string(t.source) + ", N" + std::to_string(d));
      }
    }
    std::string body = pairs.size() == 1 ? pairs.front() : "";
    for (std::size_t k = 0; pairs.size() > 1 && k < pairs.size(); ++k) {
      body += (k == 0 ? "(" : ", (") + pairs[k] + ")";
    }
    line += (i == 0 ? " " : ", ") + to_string(inst.pattern) + "(" + body + ")";
  }
  return line;
}

std::string paper_module_name(const MemoryOrganization& org, ModuleId module) {
  if (org.arch() == Arch::Bus) {
    return "M" + std::to_string(module);
  }
  return "M" + std::to_string(module / org.n()) + "," + std::to_string(module % org.n());
}

std::string access_text(const MappedStep& step, const MappedAccess& access,
                        const MemoryOrganization& org) {
  std::string modules;
  for (std::size_t i : access.parcels) {
    modules += (modules.empty() ? "" : ", ") + paper_module_name(org, step.parcels[i].mailbox);
  }
  const std::string p = "P" + std::to_string(access.processor);
  return access.direction == Direction::Write ? p + " -> " + modules : modules + " -> " + p;
}

std::string op_name(const MappedOp& op) {
  return to_string(op.pattern) + (op.direction == Direction::Write ? "_send" : "_recv");
}

std::string op_text(const MappedStep& step, const MappedOp& op, const MemoryOrganization& org) {
  if (op.accesses.size() == 1) {
    return op_name(op) + "(" + access_text(step, op.accesses.front(), org) + ")";
  }
  std::string parts;
  for (const MappedAccess& a : op.accesses) {
    parts += (parts.empty() ? "(" : ", (") + access_text(step, a, org) + ")";
  }
  return op_name(op) + "(" + parts + ")";
}

std::string listing_line(const MappedStep& step, const MemoryOrganization& org) {
  std::string line = "Step " + std::to_string(step.index + 1) + ":";
  if (step.ops.empty()) {
    return line + " (no memory operation)";
  }
  const bool phased = step.ops.back().phase > 0;
  for (std::size_t i = 0; i < step.ops.size(); ++i) {
    line += i == 0 ? " " : ", ";
    if (phased && (i == 0 || step.ops[i].phase != step.ops[i - 1].phase)) {
      line += "[IWR " + std::to_string(step.ops[i].phase + 1) + "] ";
    }
    line += op_text(step, step.ops[i], org);
  }
  return line;
}

}  // namespace orthosim::sw
