// The glue a kernel-free network test needs between a Fabric and the nodes' routed programs:
// hands the fabric's words and deliveries to a NodeProgramRunner, as Multicomputer does for a
// program (sc_models/net/multicomputer.cpp).
#pragma once

#include <cstdint>

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

}  // namespace orthosim::testing_support
