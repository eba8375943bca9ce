// The node-program runner without the SystemC kernel: the test steps it beside a Fabric as
// Multicomputer's network process does, and checks when the nodes end against the zero-load
// latency t_s + (h+1) D + F of each message and that every word reached its destination.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "sc_models/net/fabric.hpp"
#include "sc_models/net/node_program_runner.hpp"
#include "tests/support/runner_client.hpp"

namespace orthosim {
namespace {

using sw::Cycle;

using testing_support::RunnerClient;

sw::Message message(std::uint32_t id, std::uint32_t src, std::uint32_t dst, std::uint32_t words) {
  sw::Message m;
  m.id = id;
  m.source = src;
  m.destination = dst;
  m.payload = {src, dst, 0};
  m.words = words;
  m.src_address = 0;
  m.dst_address = words;  // apart from the words the node sends itself
  return m;
}

/// A line of 4 nodes with start-up t_s and router delay D.
sw::NetworkConfig line_of_four(std::uint64_t startup, std::uint32_t delay) {
  sw::NetworkConfig config;
  config.topology = sw::Topology::mesh({4});
  config.router.vcs = sw::default_vcs(config.topology);
  config.ni.startup = startup;
  config.router.delay = delay;
  return config;
}

// A ping-pong over the 3 links of a line of 4 nodes: node 0 computes, sends to node 3 and waits
// for the answer; node 3 waits, computes and answers.
TEST(NodeProgramRunnerWithoutKernel, APingPongEndsAfterTheComputesAndTwoZeroLoadLatencies) {
  constexpr std::uint32_t kWords = 4;
  constexpr std::uint64_t kCompute0 = 5;
  constexpr std::uint64_t kCompute3 = 2;
  constexpr std::uint64_t kStartup = 3;
  constexpr std::uint32_t kDelay = 2;
  const sw::NetworkConfig config = line_of_four(kStartup, kDelay);

  sw::RoutedProgram program;
  program.name = "ping-pong";
  program.network_nodes = 4;
  program.steps = 1;
  program.local_words = 2 * kWords;
  program.manifest.messages = {message(0, 0, 3, kWords), message(1, 3, 0, kWords)};
  program.ops.resize(4);
  program.ops[0] = {sw::routed::Compute{Cycle{kCompute0}}, sw::routed::Send{0},
                    sw::routed::Receive{1}, sw::routed::StepEnd{0}};
  program.ops[3] = {sw::routed::Receive{0}, sw::routed::Compute{Cycle{kCompute3}},
                    sw::routed::Send{1}, sw::routed::StepEnd{0}};

  RunnerClient client;
  sc::net::Fabric fabric(config.validated(), client);
  traces::Recorder recorder;  // disabled
  constexpr std::uint64_t kStart = 10;
  sc::net::NodeProgramRunner runner(program, Cycle{kStart}, fabric, recorder,
                                    std::vector<traces::SourceId>(4, 0));
  client.attach(runner);

  testing_support::step_until_idle(runner, fabric, Cycle{kStart}, 10'000);

  const std::uint64_t latency = kStartup + (3 + 1) * kDelay + (kWords + 1);
  EXPECT_TRUE(runner.unfinished().empty());
  EXPECT_EQ(runner.cycles(), Cycle{kCompute0 + latency + kCompute3 + latency});
  ASSERT_EQ(runner.step_ends().size(), 1u);
  EXPECT_EQ(runner.step_ends()[0], runner.cycles());
  const sw::DeliveryReport delivery = runner.check_delivery(true);
  EXPECT_EQ(delivery.messages_checked, 2u);
  EXPECT_EQ(delivery.words_checked, 2u * kWords);
  EXPECT_EQ(delivery.messages_failed, 0u);
}

// A node whose message never comes says what it waits for.
TEST(NodeProgramRunnerWithoutKernel, ANodeWaitingForAMessageNeverSentIsReportedWithItsSender) {
  sw::NetworkConfig config;
  config.topology = sw::Topology::mesh({2});
  config.router.vcs = sw::default_vcs(config.topology);
  sw::RoutedProgram program;
  program.network_nodes = 2;
  program.local_words = 2;
  program.manifest.messages = {message(0, 0, 1, 1)};
  program.ops.resize(2);
  program.ops[1] = {sw::routed::StepEnd{0}, sw::routed::Receive{0}};
  RunnerClient client;
  sc::net::Fabric fabric(config.validated(), client);
  traces::Recorder recorder;
  sc::net::NodeProgramRunner runner(program, Cycle{0}, fabric, recorder,
                                    std::vector<traces::SourceId>(2, 0));
  client.attach(runner);
  runner.run_due(Cycle{0});
  EXPECT_EQ(runner.next_due(), std::nullopt);
  EXPECT_EQ(runner.unfinished(),
            std::vector<std::string>{"node 1 at op 1: waits for message 0 from node 0"});
  EXPECT_TRUE(runner.step_ends().empty());  // only ended nodes' marks count
}

// In lockstep every step ends with a barrier of the nodes that run ops; the nodes without any
// (here 1 and 2 of a line of 4) take no part. Step 0: node 0 sends to node 3 and reaches the
// barrier at once; node 3 reaches it when the message is in, after the zero-load latency L =
// (3 + 1) D + F. Step 1: node 3 answers, node 0 has it at 2 L.
TEST(NodeProgramRunnerWithoutKernel, ALockstepBarrierWaitsOnlyForTheNodesThatRunOps) {
  constexpr std::uint32_t kWords = 3;
  constexpr std::uint32_t kDelay = 2;
  const sw::NetworkConfig config = line_of_four(0, kDelay);

  sw::RoutedProgram program;
  program.name = "lockstep ping-pong";
  program.network_nodes = 4;
  program.steps = 2;
  program.lockstep = true;
  program.local_words = 2 * kWords;
  program.manifest.messages = {message(0, 0, 3, kWords), message(1, 3, 0, kWords)};
  program.ops.resize(4);
  program.ops[0] = {sw::routed::Send{0}, sw::routed::StepEnd{0}, sw::routed::Receive{1},
                    sw::routed::StepEnd{1}};
  program.ops[3] = {sw::routed::Receive{0}, sw::routed::StepEnd{0}, sw::routed::Send{1},
                    sw::routed::StepEnd{1}};

  RunnerClient client;
  sc::net::Fabric fabric(config.validated(), client);
  traces::Recorder recorder;  // disabled
  sc::net::NodeProgramRunner runner(program, Cycle{0}, fabric, recorder,
                                    std::vector<traces::SourceId>(4, 0));
  client.attach(runner);

  testing_support::step_until_idle(runner, fabric, Cycle{0}, 10'000);

  const std::uint64_t latency = (3 + 1) * kDelay + (kWords + 1);
  EXPECT_TRUE(runner.unfinished().empty())
      << (runner.unfinished().empty() ? "" : runner.unfinished().front());
  EXPECT_EQ(runner.step_ends(), (std::vector<Cycle>{Cycle{latency}, Cycle{2 * latency}}));
  EXPECT_EQ(runner.cycles(), Cycle{2 * latency});
  EXPECT_EQ(runner.check_delivery(true).messages_failed, 0u);
}

}  // namespace
}  // namespace orthosim
