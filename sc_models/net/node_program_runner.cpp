// The nodes of a multicomputer running a routed program.
#include "sc_models/net/node_program_runner.hpp"

#include <algorithm>
#include <variant>

#include "sw/machine/payload.hpp"

namespace orthosim::sc::net {

using sw::Cycle;

NodeProgramRunner::NodeProgramRunner(sw::RoutedProgram program, Cycle start, Network& network,
                                     traces::Recorder& recorder,
                                     std::vector<traces::SourceId> node_sources)
    : program_(std::move(program)),
      start_(start),
      network_(network),
      recorder_(recorder),
      node_sources_(std::move(node_sources)),
      delivered_(program_.manifest.messages.size()) {
  const std::uint32_t n = program_.network_nodes;
  delivery_.reset(program_.manifest.messages.size());
  nodes_.assign(n, NodeState{});
  for (std::uint32_t node = 0; node < n; ++node) {
    nodes_[node].finished = program_.ops[node].empty();
    nodes_[node].finish = start_;
    if (!nodes_[node].finished) {
      wake(node, start_);
      ++barrier_members_;
    }
  }
}

void NodeProgramRunner::run_due(Cycle c) {
  while (!wakes_.empty() && wakes_.top().first <= c) {
    const std::uint32_t node = wakes_.top().second;
    wakes_.pop();
    run_node(node, c);
  }
}

std::optional<Cycle> NodeProgramRunner::next_due() const {
  if (wakes_.empty()) {
    return std::nullopt;
  }
  return wakes_.top().first;
}

void NodeProgramRunner::run_node(std::uint32_t node, Cycle c) {
  NodeState& s = nodes_[node];
  const std::vector<sw::routed::Op>& ops = program_.ops[node];
  while (s.pc < ops.size()) {
    const sw::routed::Op& op = ops[s.pc];
    if (const auto* compute = std::get_if<sw::routed::Compute>(&op)) {
      ++s.pc;
      if (compute->cycles > Cycle{0}) {
        show(node, traces::Activity::Compute, c);
        wake(node, c + compute->cycles);
        return;
      }
    } else if (const auto* send = std::get_if<sw::routed::Send>(&op)) {
      const sw::Message& m = program_.manifest.messages[send->message];
      record(c, {traces::MessageEvent::Send, send->message, m.source, m.destination, m.words, 0, 0,
                 true});
      network_.submit(send->message, m.source, m.destination, m.words);
      words_in_flight_ += m.words;
      peak_words_in_flight_ = std::max(peak_words_in_flight_, words_in_flight_);
      ++s.pc;
    } else if (const auto* receive = std::get_if<sw::routed::Receive>(&op)) {
      const std::optional<Cycle>& delivered = delivered_[receive->message];
      if (!delivered || *delivered > c) {
        s.waiting_for = receive->message;
        show(node, traces::Activity::WaitMessage, c);
        return;
      }
      s.waiting_for = -1;
      record(c, {traces::MessageEvent::Receive, receive->message, node, 0, 0, 0, 0, true});
      ++s.pc;
    } else {
      const std::uint32_t step = std::get<sw::routed::StepEnd>(op).step;
      s.marks.emplace_back(step, c);
      if (recorder_.enabled()) {
        recorder_.step_mark(c, node_sources_[node], step);
      }
      ++s.pc;
      if (program_.lockstep) {
        // Every node passes every step's end (route_program), so one count serves each step in
        // turn: the last node to arrive releases the others in the same cycle.
        if (at_barrier_.size() + 1 < barrier_members_) {
          s.at_barrier = true;
          at_barrier_.push_back(node);
          show(node, traces::Activity::Barrier, c);
          return;
        }
        for (std::uint32_t other : at_barrier_) {
          nodes_[other].at_barrier = false;
          wake(other, c);
        }
        at_barrier_.clear();
      }
    }
  }
  if (!s.finished) {
    s.finished = true;
    s.finish = c;
    show(node, traces::Activity::Idle, c);
  }
}

void NodeProgramRunner::show(std::uint32_t node, traces::Activity what, Cycle c) {
  if (recorder_.enabled()) {
    recorder_.activity(c, node_sources_[node], what, static_cast<std::uint32_t>(nodes_[node].pc));
  }
}

void NodeProgramRunner::record(Cycle at, const traces::MessageTrace& m) {
  if (recorder_.enabled()) {
    recorder_.message(at, m);
  }
}

sw::Word NodeProgramRunner::read_word(std::uint32_t message, std::uint32_t index) const {
  return sw::payload_word(program_.manifest.messages[message].payload, index);
}

void NodeProgramRunner::deliver_word(std::uint32_t message, std::uint32_t index, sw::Word word) {
  delivery_.arrive(program_.manifest.messages, message, index, word);
}

void NodeProgramRunner::message_delivered(std::uint32_t message, Cycle at) {
  delivered_[message] = at;
  words_in_flight_ -= program_.manifest.messages[message].words;
  const std::uint32_t destination = program_.manifest.messages[message].destination;
  if (nodes_[destination].waiting_for == static_cast<std::int64_t>(message)) {
    wake(destination, at);
  }
}

std::vector<std::string> NodeProgramRunner::unfinished() const {
  std::vector<std::string> lines;
  for (std::uint32_t node = 0; node < nodes_.size(); ++node) {
    const NodeState& s = nodes_[node];
    if (s.finished) {
      continue;
    }
    std::string what = "node " + std::to_string(node) + " at op " + std::to_string(s.pc);
    if (s.at_barrier) {
      what += ": waits at a step's end for the other nodes (lockstep)";
    }
    if (s.waiting_for >= 0) {
      what += ": waits for message " + std::to_string(s.waiting_for) + " from node " +
              std::to_string(
                  program_.manifest.messages[static_cast<std::size_t>(s.waiting_for)].source);
    }
    lines.push_back(what);
  }
  return lines;
}

Cycle NodeProgramRunner::cycles() const {
  Cycle longest;
  for (const NodeState& s : nodes_) {
    if (s.finished) {
      longest = std::max(longest, s.finish - start_);
    }
  }
  return longest;
}

std::vector<Cycle> NodeProgramRunner::step_ends() const {
  std::vector<Cycle> ends;
  for (const NodeState& s : nodes_) {
    if (!s.finished) {
      continue;
    }
    for (const auto& [step, at] : s.marks) {
      if (step >= ends.size()) {
        ends.resize(step + 1);
      }
      ends[step] = std::max(ends[step], at - start_);
    }
  }
  return ends;
}

sw::DeliveryReport NodeProgramRunner::check_delivery(bool run_ended) const {
  return delivery_.report(program_.manifest.messages, run_ended);
}

}  // namespace orthosim::sc::net
