#include "sw/schedule/schedule_check.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <unordered_map>

namespace orthosim::sw {
namespace {

std::string block_text(const Block& b) {
  std::string text = "block (" + std::to_string(b.origin) + ", " +
                     (b.broadcast() ? std::string("all") : std::to_string(b.destination));
  if (b.tag != 0) {
    text += ", tag " + std::to_string(b.tag);
  }
  return text + ")";
}

struct BlockHash {
  std::size_t operator()(const Block& b) const {
    std::uint64_t h = b.origin;
    h = h * 0x9E3779B97F4A7C15ULL + b.destination;
    h = h * 0x9E3779B97F4A7C15ULL + b.tag;
    return static_cast<std::size_t>(h ^ (h >> 29));
  }
};

/// Where every block of a schedule is: the one holder of a personalized block, every holder of a
/// broadcast block.
class BlockPlaces {
 public:
  BlockPlaces(const std::vector<Block>& blocks, std::uint32_t nodes) {
    index_.reserve(blocks.size());
    for (const Block& b : blocks) {
      if (!index_.emplace(b, static_cast<std::uint32_t>(blocks_.size())).second) {
        throw std::invalid_argument("check_schedule: " + block_text(b) + " listed twice");
      }
      if (b.origin >= nodes || (!b.broadcast() && b.destination >= nodes)) {
        throw std::invalid_argument("check_schedule: " + block_text(b) +
                                    " names a node outside 0.." + std::to_string(nodes - 1));
      }
      blocks_.push_back(b);
      holder_.push_back(b.origin);
      if (b.broadcast()) {
        copies_
            .emplace(static_cast<std::uint32_t>(blocks_.size() - 1),
                     std::vector<bool>(nodes, false))
            .first->second[b.origin] = true;
      }
    }
  }

  /// The block's index when `node` holds it, else none.
  [[nodiscard]] std::optional<std::uint32_t> held(const Block& b, NodeId node) const {
    const auto it = index_.find(b);
    if (it == index_.end()) {
      return std::nullopt;
    }
    const std::uint32_t i = it->second;
    if (b.broadcast()) {
      return copies_.at(i)[node] ? std::optional<std::uint32_t>(i) : std::nullopt;
    }
    return holder_[i] == node ? std::optional<std::uint32_t>(i) : std::nullopt;
  }

  void move(std::uint32_t i, NodeId to) {
    if (blocks_[i].broadcast()) {
      copies_.at(i)[to] = true;
    } else {
      holder_[i] = to;
    }
  }

  /// Blocks that are where they must be, and the first few that are not.
  template <typename Report>
  std::uint64_t delivered(Report&& not_arrived) const {
    std::uint64_t count = 0;
    for (std::uint32_t i = 0; i < blocks_.size(); ++i) {
      const Block& b = blocks_[i];
      if (b.broadcast()) {
        const std::vector<bool>& have = copies_.at(i);
        const auto missing = std::find(have.begin(), have.end(), false);
        if (missing == have.end()) {
          ++count;
        } else {
          not_arrived(block_text(b) + " never reached node " +
                      std::to_string(missing - have.begin()));
        }
      } else if (holder_[i] == b.destination) {
        ++count;
      } else {
        not_arrived(block_text(b) + " ended at node " + std::to_string(holder_[i]));
      }
    }
    return count;
  }

 private:
  std::vector<Block> blocks_;
  std::unordered_map<Block, std::uint32_t, BlockHash> index_;
  std::vector<NodeId> holder_;
  std::unordered_map<std::uint32_t, std::vector<bool>> copies_;
};

class Checker {
 public:
  explicit Checker(ScheduleCheck& out) : out_(out) {}

  void report(ViolationKind kind, std::uint32_t step, std::string what) {
    if (out_.violations.size() < ScheduleCheck::kMaxViolations) {
      out_.violations.push_back(Violation{kind, step, std::move(what)});
    } else {
      out_.truncated = true;
    }
  }

 private:
  ScheduleCheck& out_;
};

}  // namespace

std::string to_string(ViolationKind kind) {
  switch (kind) {
    case ViolationKind::NodeOutOfRange:
      return "node out of range";
    case ViolationKind::SendsTwice:
      return "sends twice";
    case ViolationKind::ReceivesTwice:
      return "receives twice";
    case ViolationKind::LinkShared:
      return "link shared";
    case ViolationKind::EmptyMessage:
      return "empty message";
    case ViolationKind::BlockNotHeld:
      return "block not held";
    case ViolationKind::BlockNotArrived:
      return "block not arrived";
  }
  return "unknown";
}

std::vector<std::uint32_t> directed_link_loads(
    const Topology& net, const std::vector<std::pair<NodeId, NodeId>>& pairs) {
  const std::uint32_t ports = static_cast<std::uint32_t>(net.ports().size());
  std::vector<std::uint32_t> load(static_cast<std::size_t>(net.nodes()) * ports, 0);
  for (const auto& [source, destination] : pairs) {
    for (const auto& [node, port] : net.route(source, destination)) {
      ++load[static_cast<std::size_t>(node) * ports + net.port_index(port)];
    }
  }
  return load;
}

bool ScheduleCheck::has(ViolationKind kind) const {
  return std::any_of(violations.begin(), violations.end(),
                     [kind](const Violation& v) { return v.kind == kind; });
}

std::uint32_t ScheduleCheck::startups() const {
  return static_cast<std::uint32_t>(
      std::count_if(steps.begin(), steps.end(),
                    [](const StepFigures& s) { return s.messages > 0; }));
}

std::uint64_t ScheduleCheck::transmission_blocks() const {
  std::uint64_t sum = 0;
  for (const StepFigures& s : steps) {
    sum += s.largest_message_blocks;
  }
  return sum;
}

std::uint64_t ScheduleCheck::rearranged_blocks() const {
  std::uint64_t sum = 0;
  for (const StepFigures& s : steps) {
    sum += s.most_rearranged_blocks;
  }
  return sum;
}

ScheduleCheck check_schedule(const Topology& net, const Schedule& schedule,
                             const ScheduleRules& rules) {
  if (net.nodes() != schedule.nodes) {
    throw std::invalid_argument("check_schedule: the schedule has " +
                                std::to_string(schedule.nodes) + " nodes, the network " +
                                std::to_string(net.nodes()));
  }
  ScheduleCheck out;
  Checker check(out);
  BlockPlaces places(schedule.blocks, schedule.nodes);
  const std::uint32_t ports = static_cast<std::uint32_t>(net.ports().size());
  std::vector<std::uint32_t> sends(schedule.nodes);
  std::vector<std::uint32_t> receives(schedule.nodes);
  std::vector<std::uint32_t> link_load(static_cast<std::size_t>(schedule.nodes) * ports);
  std::vector<DirectedLink> used_links;

  for (std::uint32_t s = 0; s < schedule.steps.size(); ++s) {
    const ScheduleStep& step = schedule.steps[s];
    StepFigures figures;
    for (const LocalWork& work : step.local) {
      if (work.node >= schedule.nodes) {
        check.report(ViolationKind::NodeOutOfRange, s,
                     "local work at node " + std::to_string(work.node));
        continue;
      }
      figures.most_rearranged_blocks =
          std::max(figures.most_rearranged_blocks, work.rearranged_blocks);
    }
    std::fill(sends.begin(), sends.end(), 0);
    std::fill(receives.begin(), receives.end(), 0);
    for (const DirectedLink& l : used_links) {
      link_load[static_cast<std::size_t>(l.node) * ports + l.port] = 0;
    }
    used_links.clear();
    // What moves in this step, applied once every message has been checked against the holdings
    // at the step's start.
    std::vector<std::pair<std::uint32_t, NodeId>> moves;
    std::unordered_map<std::uint32_t, std::uint32_t> taken;  // personalized block -> message
    for (std::uint32_t m = 0; m < step.messages.size(); ++m) {
      const ScheduledMessage& msg = step.messages[m];
      const std::string name =
          "message " + std::to_string(msg.source) + " -> " + std::to_string(msg.destination);
      if (msg.source >= schedule.nodes || msg.destination >= schedule.nodes) {
        check.report(ViolationKind::NodeOutOfRange, s, name);
        continue;
      }
      if (msg.blocks.empty() || msg.source == msg.destination) {
        check.report(ViolationKind::EmptyMessage, s, name);
        continue;
      }
      ++figures.messages;
      figures.largest_message_blocks =
          std::max(figures.largest_message_blocks, static_cast<std::uint32_t>(msg.blocks.size()));
      out.blocks_sent += msg.blocks.size();
      if (++sends[msg.source] == 2 && rules.one_port) {
        check.report(ViolationKind::SendsTwice, s,
                     "node " + std::to_string(msg.source) + " sends a second message (" + name +
                         ")");
      }
      if (++receives[msg.destination] == 2 && rules.one_port) {
        check.report(ViolationKind::ReceivesTwice, s,
                     "node " + std::to_string(msg.destination) + " receives a second message (" +
                         name + ")");
      }
      for (const auto& [node, port] : net.route(msg.source, msg.destination)) {
        const std::uint32_t p = net.port_index(port);
        std::uint32_t& load = link_load[static_cast<std::size_t>(node) * ports + p];
        if (load == 0) {
          used_links.push_back(DirectedLink{node, p});
        }
        ++load;
        figures.max_link_load = std::max(figures.max_link_load, load);
        if (load == 2 && rules.exclusive_links) {
          check.report(ViolationKind::LinkShared, s,
                       "link " + net.port_name(port) + " of node " + std::to_string(node) +
                           " carries a second message (" + name + ")");
        }
      }
      for (const Block& b : msg.blocks) {
        const std::optional<std::uint32_t> i = places.held(b, msg.source);
        if (!i) {
          check.report(ViolationKind::BlockNotHeld, s,
                       name + " carries " + block_text(b) + ", which node " +
                           std::to_string(msg.source) + " does not hold");
          continue;
        }
        if (!b.broadcast() && !taken.emplace(*i, m).second) {
          check.report(ViolationKind::BlockNotHeld, s,
                       name + " carries " + block_text(b) + ", already sent in this step");
          continue;
        }
        moves.emplace_back(*i, msg.destination);
      }
    }
    for (const auto& [i, to] : moves) {
      places.move(i, to);
    }
    out.steps.push_back(figures);
  }
  const auto last = static_cast<std::uint32_t>(schedule.steps.size());
  out.blocks_delivered = places.delivered([&](std::string what) {
    check.report(ViolationKind::BlockNotArrived, last, std::move(what));
  });
  return out;
}

}  // namespace orthosim::sw
