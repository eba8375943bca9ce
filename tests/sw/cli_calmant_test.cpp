// `orthosim calmant` and `gen calmant` (sw/cli): a task's load and bound against [CALMANT]'s
// Theorems 1 and 3 written here, its schedule against the task's messages enumerated here by the
// standard embedding, the sweep's requests to the emulator, the generated program read back by
// the parser, and bad input refused before anything runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "sw/cli/cli.hpp"
#include "sw/program/parser.hpp"
#include "tests/support/cli_harness.hpp"

namespace orthosim {
namespace {

using namespace cli_test;

std::uint64_t theorem1(std::uint32_t i, std::uint32_t m) {
  return m % 2 == 0 ? ((1ull << (i + m + 1)) - (1ull << (i + 1))) / 3
                    : ((1ull << (i + m + 1)) - (1ull << i)) / 3;
}

/// The node of process n on a K x K mesh (K = 2^(d/2)): bit l of coordinate j is bit j + 2l.
std::uint32_t node_2d(std::uint32_t n, std::uint32_t d) {
  std::uint32_t x[2] = {0, 0};
  for (std::uint32_t j = 0; j < 2; ++j) {
    for (std::uint32_t l = 0; l < d / 2; ++l) {
      x[j] |= ((n >> (j + 2 * l)) & 1u) << l;
    }
  }
  return x[0] + (1u << (d / 2)) * x[1];
}

TEST(CliCalmant, ATasksJsonHasTheoremThreesLoadItsBoundAndASchedulOfEveryMessage) {
  const Result r = run({"calmant", "--mesh", "16x16", "--task", "3,4", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  // Theorem 3: lambda_max<3,4>_2 = lambda_max<floor((3 + 1)/2), 2>_1 = Theorem 1's <2,2>.
  EXPECT_EQ(j["lambda_max"], theorem1(2, 2));
  EXPECT_EQ(j["lambda_max"], 8u);
  EXPECT_EQ(j["lower_bound"], 8u);
  EXPECT_EQ(j["steps"], 8u);  // 4.2.1 is optimal (Property 1)
  EXPECT_TRUE(j["conflict_free"]);
  ASSERT_EQ(j["schedule"].size(), 8u);
  std::multiset<std::pair<std::uint32_t, std::uint32_t>> sent;
  for (const auto& step : j["schedule"]) {
    std::set<std::uint32_t> senders;
    std::set<std::uint32_t> receivers;
    for (const auto& m : step["messages"]) {
      EXPECT_TRUE(senders.insert(m[0].get<std::uint32_t>()).second);
      EXPECT_TRUE(receivers.insert(m[1].get<std::uint32_t>()).second);
      sent.emplace(m[0].get<std::uint32_t>(), m[1].get<std::uint32_t>());
    }
  }
  std::multiset<std::pair<std::uint32_t, std::uint32_t>> want;
  for (std::uint32_t n = 0; n < 256; ++n) {
    for (std::uint32_t k = 3; k < 7; ++k) {
      want.emplace(node_2d(n, 8), node_2d(n ^ (1u << k), 8));
    }
  }
  EXPECT_EQ(sent, want);
}

TEST(CliCalmant, ALinesTaskReportsTheorem1AndTheStepsInText) {
  const Result r = run({"calmant", "--line", "16", "--task", "0,3"});
  ASSERT_EQ(r.code, 0) << r.err;
  // The header names the one cube the line holds, as the sweep's and the exchange's do.
  EXPECT_TRUE(contains(r.out, "task <0,3>_1 of the 4-cube on the line 16")) << r.out;
  EXPECT_TRUE(contains(r.out, "lambda_max " + std::to_string(theorem1(0, 3)) + " routed")) << r.out;
  EXPECT_TRUE(contains(r.out, "steps P = 5")) << r.out;  // LB = lambda_max on a line
  EXPECT_TRUE(contains(r.out, "<0,1>_1")) << r.out;      // 3.2.2's subtask
  EXPECT_TRUE(contains(r.out, "step 5 (")) << r.out;
}

TEST(CliCalmant, TheSweepRunsEveryDivisorOfNInLockstepOnTheOnePortMesh) {
  FakeRunner runner;
  const Result r =
      run({"calmant", "--mesh", "4x4", "--len", "8", "--sweep-q", "--startup", "30", "--json"},
          runner);
  // The fake emulator's cycles are not the prediction: the command says so.
  EXPECT_EQ(r.code, sw::kExitRunFailed) << r.err;
  ASSERT_EQ(runner.network_requests.size(), 4u);  // Q = 1, 2, 4, 8
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_FALSE(j["agree"]);
  for (std::size_t k = 0; k < 4; ++k) {
    const sw::NetworkRunRequest& q = runner.network_requests[k];
    EXPECT_TRUE(q.program.lockstep);
    EXPECT_EQ(q.config->ni.startup, 30u);
    EXPECT_EQ(q.config->ni.ports, sw::NodePorts::One);
    EXPECT_EQ(q.config->topology, sw::Topology::mesh({4, 4}));
    EXPECT_EQ(q.program.steps, j["sweep_q"][k]["steps"].get<std::uint32_t>());
    const std::uint32_t words = 8u >> k;  // N / Q
    for (const sw::Message& m : q.program.manifest.messages) {
      EXPECT_EQ(m.words, words);
    }
    // Every node sends each of its d = 4 vectors as Q packets.
    EXPECT_EQ(q.program.manifest.messages.size(), 16u * 4u * (1u << k));
  }
}

// The complete exchange of the 4-cube on the 4x4 mesh. The original CC-cube (Q = 1) sends
// dimension i in 2^(i div 2) steps of 2^(i div 2) hops ([CALMANT] section 2.3's D_i), each
// message 2^(d-1) = 8 blocks: its time is written here per step as t_s + (h + 1) + 8B + 1.
TEST(CliCalmant, TheCompleteExchangeTimesEveryQByItsScheduleAndEmulatesTheDirectMethod) {
  FakeRunner runner;
  const Result r = run({"calmant", "--mesh", "4x4", "--complete-exchange", "--block", "2,8",
                        "--startup", "30", "--json"},
                       runner);
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["complete_exchange"].size(), 2u);
  // Only the direct method runs by default: 15 xor rounds, one block per message.
  ASSERT_EQ(runner.network_requests.size(), 2u);
  for (std::size_t k = 0; k < 2; ++k) {
    const std::uint32_t block = k == 0 ? 2 : 8;
    const nlohmann::json& point = j["complete_exchange"][k];
    EXPECT_EQ(point["block_words"], block);
    const std::uint64_t cc_cube = 2 * (30 + 2 + 8 * block + 1) + 4 * (30 + 3 + 8 * block + 1);
    EXPECT_EQ(point["cc_cube_cycles"], cc_cube);
    ASSERT_EQ(point["calmant"].size(), 4u);  // Q = 1, 2, 4, 8
    EXPECT_EQ(point["calmant"][0]["predicted_cycles"], cc_cube);
    EXPECT_EQ(point["calmant"][0]["steps"], 6u);
    std::uint64_t least = cc_cube;
    for (const auto& row : point["calmant"]) {
      least = std::min(least, row["predicted_cycles"].get<std::uint64_t>());
      EXPECT_TRUE(row["emulated_cycles"].is_null());
    }
    EXPECT_EQ(point["calmant_cycles"], least);
    EXPECT_DOUBLE_EQ(point["speedup_over_cc_cube"].get<double>(),
                     static_cast<double>(cc_cube) / static_cast<double>(least));
    const sw::NetworkRunRequest& direct = runner.network_requests[k];
    EXPECT_TRUE(direct.program.lockstep);
    EXPECT_EQ(direct.config->ni.startup, 30u);
    EXPECT_EQ(direct.config->ni.ports, sw::NodePorts::One);
    EXPECT_EQ(direct.program.steps, 15u);
    EXPECT_EQ(direct.program.manifest.messages.size(), 16u * 15u);
    for (const sw::Message& m : direct.program.manifest.messages) {
      EXPECT_EQ(m.words, block);
    }
    EXPECT_EQ(point["direct"]["steps"], 15u);
  }

  // --emulate all runs every Q too; the fake emulator's cycles are not the prediction.
  FakeRunner all;
  const Result e = run({"calmant", "--mesh", "4x4", "--complete-exchange", "--block", "2",
                        "--emulate", "all", "--json"},
                       all);
  EXPECT_EQ(e.code, sw::kExitRunFailed) << e.err;
  EXPECT_EQ(all.network_requests.size(), 5u);
  EXPECT_FALSE(nlohmann::json::parse(e.out)["agree"]);
  FakeRunner none;
  const Result n =
      run({"calmant", "--mesh", "4x4", "--complete-exchange", "--block", "2", "--emulate", "none"},
          none);
  EXPECT_EQ(n.code, 0) << n.err;
  EXPECT_TRUE(none.network_requests.empty());
  EXPECT_TRUE(contains(n.out, "direct: not run")) << n.out;
}

TEST(CliCalmant, GenCalmantWritesOneStepPerScheduleStepAndABarrierStepPerIteration) {
  const Result r = run({"gen", "calmant", "--line", "8", "--len", "6", "--pipeline", "3",
                        "--compute", "9", "--barrier", "4"});
  ASSERT_EQ(r.code, 0) << r.err;
  const sw::McProgram p = sw::parse_program(r.out, "calmant.mcp");
  EXPECT_EQ(p.nodes, 8u);
  // d = 3, Q = 3 (deep at Q = d): <0,1>, <0,2>, <0,3>, <1,2>, <2,1>; on a line P = Theorem 1.
  const std::vector<std::pair<std::uint32_t, std::uint32_t>> tasks = {
      {0, 1}, {0, 2}, {0, 3}, {1, 2}, {2, 1}};
  std::uint64_t steps = 0;
  for (const auto& [i, m] : tasks) {
    steps += theorem1(i, m);
  }
  ASSERT_EQ(p.steps.size(), steps + tasks.size());
  std::size_t messages = 0;
  std::size_t barriers = 0;
  for (const sw::ProgramStep& s : p.steps) {
    std::set<std::uint32_t> senders;
    for (const sw::Transfer& t : s.transfers) {
      EXPECT_EQ(t.words, 2u);
      EXPECT_TRUE(senders.insert(t.source).second);
      ++messages;
    }
    if (s.transfers.empty()) {
      ++barriers;
      ASSERT_EQ(s.computes.size(), 8u);
      EXPECT_EQ(s.computes[0].cycles, sw::Cycle{4});
    }
  }
  EXPECT_EQ(barriers, tasks.size());
  EXPECT_EQ(messages, 8u * 3u * 3u);

  const Result naive = run(
      {"gen", "calmant", "--line", "8", "--len", "6", "--pipeline", "3", "--schedule", "naive"});
  ASSERT_EQ(naive.code, 0) << naive.err;
  EXPECT_EQ(sw::parse_program(naive.out, "naive.mcp").steps.size(), tasks.size());
}

TEST_F(CliProgram, RunLockstepReachesTheRequestAndStepsReportTheirContention) {
  FakeRunner runner;
  const std::string path = file("lockstep.mcp", "nodes 4\nstep\n  send 0 -> 3\n");
  const Result r =
      run({"run", path, "--arch", "mesh", "--dims", "4", "--lockstep", "--json"}, runner);
  ASSERT_EQ(r.code, 0) << r.err;
  ASSERT_EQ(runner.network_requests.size(), 1u);
  EXPECT_TRUE(runner.network_requests[0].program.lockstep);
  EXPECT_TRUE(nlohmann::json::parse(r.out)["lockstep"]);
  EXPECT_TRUE(nlohmann::json::parse(r.out)["steps"][0].contains("max_channel_contention"));
  expect_refused_before_running(
      {{{"run", path, "--arch", "omp", "--lockstep"}, {"--lockstep", "mesh"}}});
}

TEST(CliCalmant, BadInputIsRefusedBeforeAnythingRuns) {
  expect_refused_before_running({
      {{"calmant", "--task", "0,1"}, {"--mesh", "none"}},
      {{"calmant", "--mesh", "6x6", "--task", "0,1"}, {"--mesh", "power of two", "'6x6'"}},
      {{"calmant", "--mesh", "4x8", "--task", "0,1"}, {"--mesh", "'4x8'"}},
      {{"calmant", "--mesh", "16", "--task", "0,1"}, {"--mesh", "'16'"}},
      {{"calmant", "--mesh", "4x4x4x4", "--task", "0,1"}, {"--mesh", "'4x4x4x4'"}},
      {{"calmant", "--line", "12", "--task", "0,1"}, {"--line", "'12'"}},
      {{"calmant", "--line", "8", "--mesh", "4x4", "--task", "0,1"}, {"--line", "--mesh"}},
      {{"calmant", "--mesh", "4x4", "--task", "3,2"}, {"--task", "i + M <= 4", "'3,2'"}},
      {{"calmant", "--mesh", "4x4", "--task", "0,0"}, {"--task", "'0,0'"}},
      {{"calmant", "--mesh", "4x4", "--task", "two"}, {"--task", "'two'"}},
      {{"calmant", "--mesh", "4x4"}, {"--task", "--sweep-q", "found none"}},
      {{"calmant", "--mesh", "4x4", "--task", "0,1", "--sweep-q"}, {"--task", "several"}},
      {{"calmant", "--mesh", "4x4", "--task", "0,1", "--len", "8"}, {"--len", "--sweep-q"}},
      {{"calmant", "--mesh", "4x4", "--sweep-q"}, {"--len", "none"}},
      {{"calmant", "--mesh", "4x4", "--complete-exchange"}, {"--block", "none"}},
      {{"calmant", "--mesh", "4x4", "--complete-exchange", "--block", "4,2"},
       {"--block", "ascending", "'4,2'"}},
      {{"calmant", "--mesh", "4x4", "--complete-exchange", "--block", "0"}, {"--block", "'0'"}},
      {{"calmant", "--mesh", "4x4", "--complete-exchange", "--block", "1,"}, {"--block", "'1,'"}},
      {{"calmant", "--mesh", "4x4", "--complete-exchange", "--block", "131073"},
       {"--block", "1..131072", "8 blocks"}},
      {{"calmant", "--mesh", "4x4", "--complete-exchange", "--block", "1", "--emulate", "x"},
       {"--emulate", "none, direct or all", "'x'"}},
      {{"calmant", "--mesh", "4x4", "--complete-exchange", "--block", "1", "--len", "8"},
       {"--len", "--sweep-q", "--complete-exchange"}},
      {{"calmant", "--mesh", "4x4", "--len", "8", "--sweep-q", "--block", "1"},
       {"--block", "--complete-exchange", "--sweep-q"}},
      {{"calmant", "--mesh", "4x4", "--task", "0,1", "--emulate", "all"}, {"--emulate", "--task"}},
      {{"calmant", "--mesh", "4x4", "--task", "0,1", "--complete-exchange"}, {"--task", "several"}},
      {{"gen", "calmant", "--mesh", "4x4", "--len", "8"}, {"--pipeline", "required"}},
      {{"gen", "calmant", "--mesh", "4x4", "--pipeline", "2"}, {"--len", "none"}},
      {{"gen", "calmant", "--mesh", "4x4", "--len", "8", "--pipeline", "3"},
       {"--pipeline", "divisor", "8"}},
      {{"gen", "calmant", "--mesh", "4x4", "--len", "8", "--pipeline", "2", "--schedule", "x"},
       {"--schedule", "calmant or naive", "'x'"}},
      {{"gen", "calmant", "--mesh", "4x4", "--len", "8", "--pipeline", "2", "--nodes", "4"},
       {"--nodes"}},
      {{"gen", "C7", "--nodes", "4", "--mesh", "4x4"}, {"--mesh", "gen calmant"}},
  });
}

}  // namespace
}  // namespace orthosim
