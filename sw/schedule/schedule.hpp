// A communication schedule: a collective algorithm written out step by step, as the papers give
// theirs ([CALMANT] sections 3.2, 4.2 and 5; [A2A] sections 2.2 and 2.3). Each step lists the
// messages the nodes send, and each message the blocks it carries; the blocks are the units of
// data the algorithm routes, so that check_schedule (schedule_check.hpp) can follow every block
// from its origin to its destination and to_program (schedule_program.hpp) can turn the schedule
// into a .mcp program the emulated networks run. Free of SystemC.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "sw/core/cycle.hpp"
#include "sw/program/program.hpp"

namespace orthosim::sw {

/// One unit of data of a collective: what `origin` holds at the start for `destination`.
/// A personalized block (all-to-all personalized, a task's message) moves: a message takes it
/// away from its sender. A broadcast block (`destination == kEveryNode`) is copied: its sender
/// keeps it, and it must reach every node. `tag` tells apart blocks with the same ends (the
/// iterations of a pipelined algorithm, the pieces of one long message).
struct Block {
  static constexpr NodeId kEveryNode = std::numeric_limits<NodeId>::max();

  NodeId origin = 0;
  NodeId destination = 0;
  std::uint32_t tag = 0;

  [[nodiscard]] bool broadcast() const { return destination == kEveryNode; }
  friend bool operator==(const Block& a, const Block& b) {
    return a.origin == b.origin && a.destination == b.destination && a.tag == b.tag;
  }
  friend bool operator!=(const Block& a, const Block& b) { return !(a == b); }
  friend bool operator<(const Block& a, const Block& b) {
    return std::tie(a.origin, a.destination, a.tag) < std::tie(b.origin, b.destination, b.tag);
  }
};

/// A message of one step: `source` sends `blocks` to `destination`, as one network message
/// routed by the network's own routing (Topology::route).
struct ScheduledMessage {
  NodeId source = 0;
  NodeId destination = 0;
  std::vector<Block> blocks;
};

/// Local work of a node before it sends in a step: the blocks it rearranges in its memory
/// ([A2A] section 3's rearrangement) and any computation, in cycles.
struct LocalWork {
  NodeId node = 0;
  std::uint32_t rearranged_blocks = 0;
  Cycle compute{0};
};

/// One step: every node first does its local work, then sends; a block received in a step can be
/// sent on from the next step on.
struct ScheduleStep {
  std::string label;
  std::vector<LocalWork> local;
  std::vector<ScheduledMessage> messages;
};

/// A collective algorithm on `nodes` nodes: the blocks it must deliver (each starts at its
/// origin) and its steps.
struct Schedule {
  std::string name;
  std::uint32_t nodes = 0;
  std::vector<Block> blocks;
  std::vector<ScheduleStep> steps;
};

/// The blocks of a complete exchange (all-to-all personalized) of `nodes` nodes: (s, d) for every
/// s != d, tag 0.
[[nodiscard]] std::vector<Block> complete_exchange_blocks(std::uint32_t nodes);

/// The blocks of an all-to-all broadcast: (s, every node) for every s, tag 0.
[[nodiscard]] std::vector<Block> all_to_all_broadcast_blocks(std::uint32_t nodes);

}  // namespace orthosim::sw
