// The glue a kernel-free network test needs between a Fabric and the nodes' routed programs:
// hands the fabric's words and deliveries to a NodeProgramRunner and steps both, as Multicomputer
// does for a program (sc_models/net/multicomputer.cpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>

#include "sc_models/net/fabric.hpp"
#include "sc_models/net/node_program_runner.hpp"

namespace orthosim::testing_support {

class RunnerClient final : public sc::net::FabricClient {
 public:
  void attach(sc::net::NodeProgramRunner& runner) { runner_ = &runner; }
  sw::Word read_word(std::uint32_t message, std::uint32_t index) override {
    return runner_->read_word(message, index);
  }
  void deliver_word(std::uint32_t message, std::uint32_t index, sw::Word word) override {
    runner_->deliver_word(message, index, word);
  }
  void message_delivered(std::uint32_t message, sw::Cycle at) override {
    runner_->message_delivered(message, at);
  }

 private:
  sc::net::NodeProgramRunner* runner_ = nullptr;
};

/// The network process without the kernel: from `start`, resume the nodes due, step the network,
/// go to the next cycle either has work in; stops when neither has, or after `max_visits` visits.
inline void step_until_idle(sc::net::NodeProgramRunner& runner, sc::net::Fabric& fabric,
                            sw::Cycle start, std::uint64_t max_visits) {
  std::uint64_t visits = 0;
  for (std::optional<sw::Cycle> next = start; next && visits < max_visits; ++visits) {
    const sw::Cycle c = *next;
    runner.run_due(c);
    fabric.begin_cycle(c);
    next = fabric.next_cycle(c);
    if (const std::optional<sw::Cycle> due = runner.next_due()) {
      const sw::Cycle at = std::max(c + sw::Cycle{1}, *due);
      next = next ? std::min(*next, at) : at;
    }
  }
}

}  // namespace orthosim::testing_support
