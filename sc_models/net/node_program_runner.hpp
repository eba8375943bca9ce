// The nodes of a multicomputer running a routed program (sw/routed/routed_program.hpp): each node
// computes, hands its messages to the network, waits for the messages it receives and passes its
// step marks. The words are generated from their message when sent and checked when they arrive:
// no local memory holds them. Plain C++: the Multicomputer's network process resumes the nodes that are due in
// each cycle it steps (run_due) and hands the network's deliveries here; a test can drive it
// beside a Fabric without the SystemC kernel.
#pragma once

#include <cstdint>
#include <optional>
#include <queue>
#include <string>
#include <utility>
#include <vector>

#include "sc_models/net/network.hpp"
#include "sw/core/cycle.hpp"
#include "sw/machine/delivery_check.hpp"
#include "sw/routed/routed_program.hpp"
#include "traces/recorder.hpp"

namespace orthosim::sc::net {

class NodeProgramRunner {
 public:
  /// Runs `program` (its network nodes are `network`'s) from cycle `start` on: every node with
  /// ops is due then. The node's
  /// activities, messages and step marks go to `recorder` as `node_sources[node]`.
  NodeProgramRunner(sw::RoutedProgram program, sw::Cycle start, Network& network,
                    traces::Recorder& recorder, std::vector<traces::SourceId> node_sources);

  [[nodiscard]] const sw::RoutedProgram& program() const { return program_; }
  /// Resumes, in cycle c, every node due by then (in the order of their due cycles, ties to the
  /// lower node), each until it computes, waits for a message or ends.
  void run_due(sw::Cycle c);
  /// The earliest cycle a node is due, if any is.
  [[nodiscard]] std::optional<sw::Cycle> next_due() const;

  /// The network's client side (FabricClient): a sender's word, a word arriving at the
  /// destination (checked), the whole message visible from cycle `at`.
  [[nodiscard]] sw::Word read_word(std::uint32_t message, std::uint32_t index) const;
  void deliver_word(std::uint32_t message, std::uint32_t index, sw::Word word);
  void message_delivered(std::uint32_t message, sw::Cycle at);

  /// One line per node that has not ended: where it stopped and what it waits for.
  [[nodiscard]] std::vector<std::string> unfinished() const;
  /// From the start to the last ended node's end.
  [[nodiscard]] sw::Cycle cycles() const;
  /// Per step: when the last ended node passed its mark (from the start).
  [[nodiscard]] std::vector<sw::Cycle> step_ends() const;
  /// The manifest's words checked as they arrived.
  [[nodiscard]] sw::DeliveryReport check_delivery(bool run_ended) const;
  /// The most payload words in flight at once (sent, not yet delivered): the only payload a run
  /// holds.
  [[nodiscard]] std::uint64_t peak_words_in_flight() const { return peak_words_in_flight_; }

 private:
  struct NodeState {
    std::size_t pc = 0;
    bool finished = true;
    sw::Cycle finish;
    std::int64_t waiting_for = -1;  ///< the message a Receive waits for
    bool at_barrier = false;        ///< lockstep: passed its step's end, waits for the other nodes
    std::vector<std::pair<std::uint32_t, sw::Cycle>> marks;  ///< (step, cycle)
  };

  void run_node(std::uint32_t node, sw::Cycle c);
  void wake(std::uint32_t node, sw::Cycle at) { wakes_.push({at, node}); }
  void show(std::uint32_t node, traces::Activity what, sw::Cycle c);
  void record(sw::Cycle at, const traces::MessageTrace& m);

  const sw::RoutedProgram program_;
  const sw::Cycle start_;
  Network& network_;
  traces::Recorder& recorder_;
  const std::vector<traces::SourceId> node_sources_;
  std::vector<NodeState> nodes_;
  sw::ArrivalCheck delivery_;
  std::uint64_t words_in_flight_ = 0;
  std::uint64_t peak_words_in_flight_ = 0;
  /// Per message: the cycle it became visible at its destination, once it has.
  std::vector<std::optional<sw::Cycle>> delivered_;
  /// Lockstep: the nodes waiting at the end of the current step, and how many take part.
  std::vector<std::uint32_t> at_barrier_;
  std::uint32_t barrier_members_ = 0;
  /// (cycle, node) min-heap of nodes to resume.
  std::priority_queue<std::pair<sw::Cycle, std::uint32_t>,
                      std::vector<std::pair<sw::Cycle, std::uint32_t>>, std::greater<>>
      wakes_;
};

}  // namespace orthosim::sc::net
