// The checker of a communication schedule on a network: what the papers' schedules promise
// ([CALMANT] sections 2.1 and 3.2: one-port nodes, no two messages of a step on one directed
// link; [A2A] section 2.1 likewise on the torus), and that every block ends where it must.
// Routes are the network's own (Topology::route: dimension-order on meshes and tori, e-cube on
// hypercubes), so a schedule the checker passes runs without contention on the emulated routers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sw/schedule/schedule.hpp"
#include "sw/topology/topology.hpp"

namespace orthosim::sw {

/// A directed link: the channel that leaves `node` by `port` (an index into Topology::ports()).
struct DirectedLink {
  NodeId node = 0;
  std::uint32_t port = 0;
};

/// How many of `pairs` (source, destination) route over each directed link of `net`, indexed
/// node * ports + port (a source equal to its destination uses no link). lambda of [CALMANT]
/// section 2.5 is the maximum of it over the links.
[[nodiscard]] std::vector<std::uint32_t> directed_link_loads(
    const Topology& net, const std::vector<std::pair<NodeId, NodeId>>& pairs);

/// What the checker demands of a schedule.
struct ScheduleRules {
  /// A node sends at most one message and receives at most one message per step.
  bool one_port = true;
  /// No directed link carries two messages of one step.
  bool exclusive_links = true;
};

enum class ViolationKind : std::uint8_t {
  NodeOutOfRange,   ///< a message or local work names a node the network has not
  SendsTwice,       ///< one-port: a node sends two messages in a step
  ReceivesTwice,    ///< one-port: a node receives two messages in a step
  LinkShared,       ///< two messages of a step on one directed link
  EmptyMessage,     ///< a message with no block, or to its own sender
  BlockNotHeld,     ///< a message carries a block its sender does not hold at that step
  BlockNotArrived,  ///< after the last step a block is not (everywhere) it must be
};

[[nodiscard]] std::string to_string(ViolationKind kind);

/// One broken promise, with the step (0-based; the schedule's length for a final delivery
/// check) and a sentence naming the nodes, link and block.
struct Violation {
  ViolationKind kind = ViolationKind::NodeOutOfRange;
  std::uint32_t step = 0;
  std::string what;
};

/// The figures of one step ([A2A] section 3's complexity terms per step).
struct StepFigures {
  std::uint32_t messages = 0;
  /// The largest message of the step, in blocks: its transmission term.
  std::uint32_t largest_message_blocks = 0;
  /// The most blocks any node rearranges before sending.
  std::uint32_t most_rearranged_blocks = 0;
  /// The most messages of the step on one directed link (1 when the links are exclusive).
  std::uint32_t max_link_load = 0;
};

struct ScheduleCheck {
  std::vector<StepFigures> steps;
  /// In step order; at most `ScheduleCheck::kMaxViolations` are kept (then `truncated`).
  std::vector<Violation> violations;
  bool truncated = false;
  /// Block transmissions summed over every message.
  std::uint64_t blocks_sent = 0;
  /// Blocks that ended where they must (personalized: at their destination; broadcast: at
  /// every node), out of the schedule's blocks.
  std::uint64_t blocks_delivered = 0;

  static constexpr std::size_t kMaxViolations = 64;

  [[nodiscard]] bool ok() const { return violations.empty(); }
  /// Whether a violation of `kind` was found.
  [[nodiscard]] bool has(ViolationKind kind) const;
  /// Start-ups: the steps that send anything.
  [[nodiscard]] std::uint32_t startups() const;
  /// Transmission: the largest message of each step, summed, in blocks ([A2A] section 3).
  [[nodiscard]] std::uint64_t transmission_blocks() const;
  /// Rearrangement: the most blocks a node rearranges in each step, summed.
  [[nodiscard]] std::uint64_t rearranged_blocks() const;
};

/// Runs `schedule` block by block on `net` (which must have schedule.nodes nodes; throws
/// std::invalid_argument otherwise) and reports every broken rule and the step figures.
[[nodiscard]] ScheduleCheck check_schedule(const Topology& net, const Schedule& schedule,
                                           const ScheduleRules& rules = {});

}  // namespace orthosim::sw
