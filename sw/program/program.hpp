// The multicomputer program: what a user writes once (in the .mcp text format, docs/program-format.md)
// and maps onto a shared-memory multiprocessor or runs on a network. A program is a sequence of
// steps over m nodes; in each step nodes compute, then send messages, and every message is
// received by its destination in the same step (unblocked send, blocked receive: [PH91]
// section 2). Free of SystemC.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sw/core/cycle.hpp"
#include "sw/core/diagnostic.hpp"
#include "sw/machine/machine_program.hpp"

namespace orthosim::sw {

using NodeId = std::uint32_t;

/// One transfer after expansion of its statement: `source` sends `words` words to each of
/// `destinations`. Personalized: a distinct message per destination. Broadcast: one payload
/// replicated to every destination (broadcast to all, or multicast to some).
struct Transfer {
  NodeId source = 0;
  std::vector<NodeId> destinations;  ///< distinct, never the source, in the order written
  bool broadcast = false;
  std::uint32_t words = 1;
  SourceLocation where;  ///< the statement it came from
};

/// A node computes for `cycles` cycles at the start of a step, before it sends.
struct ComputePhase {
  NodeId node = 0;
  Cycle cycles;
  SourceLocation where;
};

struct ProgramStep {
  std::string label;  ///< optional, from `step LABEL`
  SourceLocation where;
  std::vector<ComputePhase> computes;
  /// In statement order. Within one step a (source, destination) pair carries at most one
  /// message and a source makes at most one broadcast ([PH91] Theorem 1, property 1).
  std::vector<Transfer> transfers;
};

struct McProgram {
  std::string name;         ///< the file name, or the generator's name
  std::uint32_t nodes = 0;  ///< m
  std::vector<ProgramStep> steps;
};

/// One node-level message: the unit the delivery check counts.
struct NodeMessage {
  NodeId source = 0;
  NodeId destination = 0;
  std::uint32_t words = 0;
  bool broadcast = false;
  std::uint32_t step = 0;      ///< index of the step in the program
  std::uint32_t transfer = 0;  ///< index of its transfer in the step
};

/// The messages of one step, transfer by transfer and destination by destination.
[[nodiscard]] std::vector<NodeMessage> messages_of(const ProgramStep& step,
                                                   std::uint32_t step_index);

/// The payload of a message: a pure function of (source, destination, step); a broadcast payload
/// is the same for all its destinations (destination = PayloadKey::kBroadcast). Word w of the
/// message is payload_word(payload_key(m), w).
[[nodiscard]] PayloadKey payload_key(const NodeMessage& m);

/// The delivery-manifest entry of node message `m` once it runs on `from` and `to` (processors or
/// network nodes), with its source and destination regions in their local memories.
[[nodiscard]] Message manifest_entry(const NodeMessage& m, std::uint32_t id, ProcId from, ProcId to,
                                     std::uint32_t src_address, std::uint32_t dst_address);

}  // namespace orthosim::sw
