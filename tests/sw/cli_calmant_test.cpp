// `orthosim calmant` and `gen calmant` (sw/cli): a task's load and bound against [CALMANT]'s
// Theorems 1 and 3 written here, its schedule against the task's messages enumerated here by the
// standard embedding, the sweep's requests to the emulator, the generated program read back by
// the parser, and bad input refused before anything runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
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

/// The (sender, receiver) pairs of a JSON schedule's messages; fails the test where a step has a
/// node sending or receiving twice (a one-port step sends and receives one message per node).
std::multiset<std::pair<std::uint32_t, std::uint32_t>> one_port_messages(
    const nlohmann::json& schedule) {
  std::multiset<std::pair<std::uint32_t, std::uint32_t>> sent;
  for (const auto& step : schedule) {
    std::set<std::uint32_t> senders;
    std::set<std::uint32_t> receivers;
    for (const auto& m : step["messages"]) {
      EXPECT_TRUE(senders.insert(m[0].get<std::uint32_t>()).second);
      EXPECT_TRUE(receivers.insert(m[1].get<std::uint32_t>()).second);
      sent.emplace(m[0].get<std::uint32_t>(), m[1].get<std::uint32_t>());
    }
  }
  return sent;
}

TEST(CliCalmant, ATasksJsonHasTheoremThreesLoadItsBoundAndASchedulOfEveryMessage) {
  const Result r = run({"calmant", "--mesh", "16x16", "--task", "3,4", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["d"], 8u);  // 256 nodes
  EXPECT_EQ(j["c"], 2u);  // two mesh dimensions
  EXPECT_EQ(j["task"]["i"], 3u);
  EXPECT_EQ(j["task"]["M"], 4u);
  // Theorem 3: lambda_max<3,4>_2 = lambda_max<floor((3 + 1)/2), 2>_1 = Theorem 1's <2,2>.
  EXPECT_EQ(j["lambda_max"], theorem1(2, 2));
  EXPECT_EQ(j["lambda_max"], 8u);
  EXPECT_EQ(j["lower_bound"], 8u);
  EXPECT_EQ(j["steps"], 8u);  // 4.2.1 is optimal (Property 1)
  EXPECT_TRUE(j["conflict_free"]);
  ASSERT_EQ(j["schedule"].size(), 8u);
  const std::multiset<std::pair<std::uint32_t, std::uint32_t>> sent =
      one_port_messages(j["schedule"]);
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

  // --pipeline takes every divisor of --len, Q = N and N = 1 too: messages of N/Q = 1 word.
  for (const auto& [len, q] : {std::make_pair("1", "1"), std::make_pair("6", "6")}) {
    const Result whole = run({"gen", "calmant", "--line", "8", "--len", len, "--pipeline", q});
    ASSERT_EQ(whole.code, 0) << len << " " << q << ": " << whole.err;
    for (const sw::ProgramStep& s : sw::parse_program(whole.out, "whole.mcp").steps) {
      for (const sw::Transfer& t : s.transfers) {
        EXPECT_EQ(t.words, 1u) << len << " " << q;
      }
    }
  }
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

TEST(CliCalmant, SidesAndTasksAtTheirBoundsAreAcceptedAndOneBeyondRefused) {
  // M = d and i + M = d: the 3-cube's whole task <0,3>_1, Theorem 1's (2^4 - 2^0)/3 = 5.
  const Result whole = run({"calmant", "--line", "8", "--task", "0,3", "--json"});
  ASSERT_EQ(whole.code, 0) << whole.err;
  EXPECT_EQ(nlohmann::json::parse(whole.out)["lambda_max"], theorem1(0, 3));
  const Result last = run({"calmant", "--line", "8", "--task", "2,1", "--json"});
  ASSERT_EQ(last.code, 0) << last.err;
  EXPECT_EQ(nlohmann::json::parse(last.out)["lambda_max"], theorem1(2, 1));
  // 256 x 256 = 65536 nodes, the most a mesh has: the 16-cube, whose dimension 0 joins
  // neighbours (Theorem 3: lambda_max<0,1>_2 = Theorem 1's <0,1> = 1).
  const Result largest = run({"calmant", "--mesh", "256x256", "--task", "0,1", "--json"});
  ASSERT_EQ(largest.code, 0) << largest.err;
  const nlohmann::json j = nlohmann::json::parse(largest.out);
  EXPECT_EQ(j["d"], 16u);
  EXPECT_EQ(j["c"], 2u);
  EXPECT_EQ(j["lambda_max"], theorem1(0, 1));
  expect_refused_before_running({
      {{"calmant", "--mesh", "512x512", "--task", "0,1"}, {"--mesh", "65536 nodes", "'512x512'"}},
      {{"calmant", "--mesh", "64x64x64", "--task", "0,1"}, {"--mesh", "'64x64x64'"}},
      {{"calmant", "--line", "1", "--task", "0,1"}, {"--line", "'1'"}},
      {{"calmant", "--mesh", "1x1", "--task", "0,1"}, {"--mesh", "'1x1'"}},
      {{"calmant", "--line", "8", "--task", "0,4"}, {"--task", "i + M <= 3", "'0,4'"}},
      {{"calmant", "--line", "8", "--task", "3,1"}, {"--task", "'3,1'"}},
      {{"calmant", "--line", "8", "--task", "1"}, {"--task", "i,M", "'1'"}},
  });
}

// <0,4>_2 on the 4x4 mesh: Theorem 3 gives lambda_max<floor((0 + 3 mod 2)/2), ceil(4/2)>_1 =
// Theorem 1's <0,2> = 2, but a node sends M = 4 messages one at a time: LB = max(2, 4) = 4
// (Theorem 4). <0,3>_2: lambda_max = <0,2>_1 = 2, LB = 3; section 4.3 adds r = 1 (x = 3 odd and
// above lambda_max), but 4.2.3's second step of the pair stays empty and is left out: P = 3 where
// the formula says 4, and the printed rule spans 2 ceil(LB/2) = 4 steps (docs/calmant.md).
TEST(CliCalmant, TheLowerBoundIsMWhereItExceedsTheLoadAndTheStepsAreTheSchedulesNotTheFormulas) {
  const Result r = run({"calmant", "--mesh", "4x4", "--task", "0,4", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["lambda_max"], theorem1(0, 2));
  EXPECT_EQ(j["lambda_max_theorem"], theorem1(0, 2));
  EXPECT_EQ(j["lower_bound"], 4u);
  EXPECT_EQ(j["steps"], 4u);
  const Result text = run({"calmant", "--mesh", "4x4", "--task", "0,4"});
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_TRUE(contains(text.out, "  lambda_max 2 routed, 2 by Theorem 3\n")) << text.out;
  EXPECT_TRUE(contains(text.out, "LB = max(lambda_max, M) = 4\n")) << text.out;

  const Result odd = run({"calmant", "--mesh", "4x4", "--task", "0,3", "--json"});
  ASSERT_EQ(odd.code, 0) << odd.err;
  const nlohmann::json o = nlohmann::json::parse(odd.out);
  EXPECT_EQ(o["lower_bound"], 3u);
  EXPECT_EQ(o["steps"], 3u);
  EXPECT_EQ(o["steps_formula"], 4u);
  ASSERT_EQ(o["schedule"].size(), 3u);
  ASSERT_EQ(o["subtasks"].size(), 1u);
  EXPECT_EQ(o["subtasks"][0]["rule"], "4.2.3");
  EXPECT_EQ(o["subtasks"][0]["lower_bound"], 3u);
  EXPECT_EQ(o["subtasks"][0]["printed_steps"], 4u);
  EXPECT_EQ(o["subtasks"][0]["steps"], 3u);
  const Result odd_text = run({"calmant", "--mesh", "4x4", "--task", "0,3"});
  ASSERT_EQ(odd_text.code, 0) << odd_text.err;
  EXPECT_TRUE(contains(odd_text.out, "steps P = 3 (section 4.3's formula: 4)")) << odd_text.out;
  // The subtask's row: task, rule, LB, printed steps, steps.
  EXPECT_TRUE(contains(odd_text.out, "\n  <0,3>_2     4.2.3    3              4      3\n"))
      << odd_text.out;
}

// <0,3>_1 on a line of 8: section 3.2 splits it into <0,1>_1 (3.2.2, LB = Theorem 1's 1) and
// <1,2>_1 (3.2.1, LB = (2^4 - 2^2)/3 = 4), P = 5.
TEST(CliCalmant, ALinesTaskListsItsSubtasksWithTheirRulesAndBoundsInJsonAndText) {
  const Result r = run({"calmant", "--line", "8", "--task", "0,3", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["subtasks"].size(), 2u);
  EXPECT_EQ(j["subtasks"][0]["task"], "<0,1>_1");
  EXPECT_EQ(j["subtasks"][0]["rule"], "3.2.2");
  EXPECT_EQ(j["subtasks"][0]["lower_bound"], theorem1(0, 1));
  EXPECT_EQ(j["subtasks"][1]["task"], "<1,2>_1");
  EXPECT_EQ(j["subtasks"][1]["rule"], "3.2.1");
  EXPECT_EQ(j["subtasks"][1]["lower_bound"], theorem1(1, 2));
  for (const auto& subtask : j["subtasks"]) {
    EXPECT_EQ(subtask["steps"], subtask["lower_bound"]) << subtask;
    EXPECT_TRUE(subtask["printed_conflict_free"]);
    EXPECT_EQ(subtask["repair"], "none");
  }
  EXPECT_EQ(j["steps"], theorem1(0, 1) + theorem1(1, 2));
  const Result text = run({"calmant", "--line", "8", "--task", "0,3"});
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_TRUE(contains(text.out, "  lambda_max 5 routed, 5 by Theorem 1\n")) << text.out;
}

// Fig. 3 on a line of 4 (the 2-cube), <0,2>_1: one group (m mod 2^0), and in the first step of
// its pair nodes 0 and 3 (bits 0 and 1 equal) send along dimension 1, nodes 1 and 2 along 0.
TEST(CliCalmant, TheScheduleIsListedStepByStepFromOneWithEachMessagesDirection) {
  const Result r = run({"calmant", "--line", "4", "--task", "0,2", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["schedule"].size(), 2u);
  const std::vector<std::set<std::pair<std::uint32_t, std::uint32_t>>> steps = {
      {{0, 2}, {1, 0}, {2, 3}, {3, 1}}, {{0, 1}, {1, 3}, {2, 0}, {3, 2}}};
  for (std::size_t k = 0; k < 2; ++k) {
    EXPECT_EQ(j["schedule"][k]["step"], k + 1);
    std::set<std::pair<std::uint32_t, std::uint32_t>> messages;
    for (const auto& m : j["schedule"][k]["messages"]) {
      messages.emplace(m[0].get<std::uint32_t>(), m[1].get<std::uint32_t>());
    }
    EXPECT_EQ(messages, steps[k]) << "step " << k + 1;
  }
  const Result text = run({"calmant", "--line", "4", "--task", "0,2"});
  ASSERT_EQ(text.code, 0) << text.err;
  for (std::size_t k = 0; k < 2; ++k) {
    const std::string head = "\nstep " + std::to_string(k + 1) + " (";
    const std::size_t at = text.out.find(head);
    ASSERT_NE(at, std::string::npos) << text.out;
    const std::string line = text.out.substr(at + 1, text.out.find('\n', at + 1) - at - 1);
    for (const auto& [source, destination] : steps[k]) {
      EXPECT_TRUE(contains(line, " " + std::to_string(source) + "->" + std::to_string(destination)))
          << line;
    }
  }
}

// 4.2.3 with c = 3, x = 4 asks a node to send twice in a step when LB = 4 (docs/calmant.md): on
// the 4x4x4 mesh <0,4>_3's printed rule conflicts and the search reschedules it in LB = 4 steps.
TEST(CliCalmant, ASubtaskWhosePrintedRuleConflictsIsReportedWithItsRepair) {
  const Result r = run({"calmant", "--mesh", "4x4x4", "--task", "0,4", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["subtasks"].size(), 1u);
  const nlohmann::json& p = j["subtasks"][0];
  EXPECT_EQ(p["rule"], "4.2.3");
  EXPECT_EQ(p["lower_bound"], 4u);
  EXPECT_FALSE(p["printed_conflict_free"]);
  EXPECT_EQ(p["repair"], "search");
  EXPECT_EQ(p["steps"], 4u);
  EXPECT_TRUE(j["conflict_free"]);
  ASSERT_EQ(j["schedule"].size(), 4u);
  EXPECT_EQ(one_port_messages(j["schedule"]).size(), 64u * 4u);
  const Result text = run({"calmant", "--mesh", "4x4x4", "--task", "0,4"});
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_TRUE(contains(text.out, "(the printed rule conflicts: rescheduled in LB steps by search)"))
      << text.out;
}

// The pipelined 2-cube on a line of 4, N = 2. Q = 1: <0,1>_1 (one step, 1 hop) and <1,1>_1 (two
// steps, 2 hops); Q = 2 (deep): <0,1>_1, <0,2>_1 (two steps, the longest route 2 hops), <1,1>_1.
// A step costs t_s + (h + 1) delay + N/Q + 1, plus the compute C in an iteration's first step,
// and each iteration ends with a barrier of B cycles ([CALMANT] section 2.4, docs/calmant.md).
std::uint64_t line4_predicted(std::uint32_t q, std::uint64_t ts, std::uint64_t delay,
                              std::uint64_t compute, std::uint64_t barrier) {
  const std::uint64_t words = 2 / q;
  const auto step = [&](std::uint64_t hops) { return ts + (hops + 1) * delay + words + 1; };
  if (q == 1) {
    return (compute + step(1)) + (compute + step(2)) + step(2) + 2 * barrier;
  }
  return (compute + step(1)) + (compute + step(2)) + step(2) + (compute + step(2)) + step(2) +
         3 * barrier;
}

TEST(CliCalmant, TheSweepPredictsEachQsTimeFromItsStepsAndTheOptions) {
  struct Case {
    std::vector<std::string> options;
    std::uint64_t ts, delay, compute, barrier;  // as the options give them, or their defaults
  };
  for (const Case& c : std::vector<Case>{{{}, 0, 1, 0, 0},
                                         {{"--startup", "3", "--router-delay", "2", "--compute",
                                           "4", "--barrier", "5"},
                                          3,
                                          2,
                                          4,
                                          5},
                                         {{"--compute", "4"}, 0, 1, 4, 0},
                                         {{"--barrier", "5"}, 0, 1, 0, 5}}) {
    SCOPED_TRACE(joined(c.options));
    std::vector<std::string> args = {"calmant", "--line", "4", "--len", "2", "--sweep-q", "--json"};
    args.insert(args.end(), c.options.begin(), c.options.end());
    FakeRunner runner;
    const Result r = run(args, runner);
    ASSERT_EQ(r.code, sw::kExitRunFailed) << r.err;  // the fake's cycles are not the prediction
    const nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["startup"], c.ts);
    EXPECT_EQ(j["router_delay"], c.delay);
    EXPECT_EQ(j["compute"], c.compute);
    EXPECT_EQ(j["barrier"], c.barrier);
    ASSERT_EQ(j["sweep_q"].size(), 2u);
    ASSERT_EQ(runner.network_requests.size(), 2u);
    // P: 1 + 2 steps, and 1 + 2 + 2; A.3's line forms count the same (the sums of LB).
    const std::vector<std::uint64_t> steps = {3, 5};
    for (std::uint32_t k = 0; k < 2; ++k) {
      const nlohmann::json& row = j["sweep_q"][k];
      EXPECT_EQ(row["q"], k + 1);
      EXPECT_EQ(row["steps"], steps[k]);
      EXPECT_DOUBLE_EQ(row["appendix_steps"].get<double>(), static_cast<double>(steps[k]));
      EXPECT_EQ(row["predicted_cycles"],
                line4_predicted(k + 1, c.ts, c.delay, c.compute, c.barrier));
      EXPECT_EQ(runner.network_requests[k].config->router.delay, c.delay);
      EXPECT_EQ(runner.network_requests[k].config->ni.startup, c.ts);
    }
    EXPECT_EQ(j["optimal_q_predicted"], 1u);
  }
}

TEST(CliCalmant, TheSweepFailsOnAContendedStepALostWordOrAnEmulatedTimeOffItsPrediction) {
  const std::vector<std::uint64_t> predicted = {line4_predicted(1, 0, 1, 0, 0),
                                                line4_predicted(2, 0, 1, 0, 0)};
  const std::vector<std::string> args = {"calmant", "--line",    "4",     "--len",
                                         "2",       "--sweep-q", "--json"};
  // Every Q emulated in its predicted time, each step with one message per channel: exit 0.
  ScriptedRunner exact([&](std::size_t k, sw::NetworkRunSummary& s) {
    s.cycles = sw::Cycle{predicted[k]};
    s.step_max_channel_contention.assign(k == 0 ? 3 : 5, 1);
  });
  const Result ok = run(args, exact);
  ASSERT_EQ(ok.code, 0) << ok.err << ok.out;
  EXPECT_TRUE(nlohmann::json::parse(ok.out)["agree"]);

  // Q = 2's second step shares a channel: its contention is the largest of its steps'.
  ScriptedRunner contended([&](std::size_t k, sw::NetworkRunSummary& s) {
    s.cycles = sw::Cycle{predicted[k]};
    s.step_max_channel_contention =
        k == 0 ? std::vector<std::uint64_t>{1, 1, 1} : std::vector<std::uint64_t>{1, 2, 1, 1, 1};
  });
  const Result c = run(args, contended);
  EXPECT_EQ(c.code, sw::kExitRunFailed) << c.out;
  EXPECT_EQ(nlohmann::json::parse(c.out)["sweep_q"][1]["max_step_contention"], 2u);
  EXPECT_FALSE(nlohmann::json::parse(c.out)["agree"]);

  ScriptedRunner lost([&](std::size_t k, sw::NetworkRunSummary& s) {
    s.cycles = sw::Cycle{predicted[k]};
    s.step_max_channel_contention.assign(k == 0 ? 3 : 5, 1);
    if (k == 1) {
      lose_a_word(s);
    }
  });
  const Result l = run(args, lost);
  EXPECT_EQ(l.code, sw::kExitRunFailed) << l.out;
  EXPECT_FALSE(nlohmann::json::parse(l.out)["sweep_q"][1]["payload_ok"]);

  // Emulated, Q = 2 is the faster: the optimum by each is reported apart, and they disagree.
  ScriptedRunner faster([&](std::size_t k, sw::NetworkRunSummary& s) {
    s.cycles = sw::Cycle{k == 0 ? predicted[1] + 10 : predicted[1]};
  });
  const Result f = run({"calmant", "--line", "4", "--len", "2", "--sweep-q"}, faster);
  EXPECT_EQ(f.code, sw::kExitRunFailed) << f.out;
  EXPECT_TRUE(contains(f.out, "optimal Q: 1 predicted, 2 emulated (they DISAGREE)")) << f.out;
}

// Of several Q with the least time, the smallest is the optimum (the fewest, longest messages):
// the sweep's Q = 1 and 2 on a line of 4, and the complete exchange's Q = 1 and 2 there, each
// emulated in the same time.
TEST(CliCalmant, OfQsWithEqualTimesTheSmallestIsTheOptimum) {
  ScriptedRunner same([](std::size_t, sw::NetworkRunSummary& s) { s.cycles = sw::Cycle{100}; });
  const Result sweep = run({"calmant", "--line", "4", "--len", "2", "--sweep-q", "--json"}, same);
  ASSERT_EQ(same.network_requests.size(), 2u);
  EXPECT_EQ(nlohmann::json::parse(sweep.out)["optimal_q_emulated"], 1u) << sweep.out;

  ScriptedRunner all_same([](std::size_t, sw::NetworkRunSummary& s) {
    s.cycles = sw::Cycle{100};
    s.step_max_channel_contention = {1};
  });
  const Result exchange = run({"calmant", "--line", "4", "--complete-exchange", "--block", "1",
                               "--emulate", "all", "--json"},
                              all_same);
  ASSERT_EQ(all_same.network_requests.size(), 3u);  // Q = 1, Q = 2, direct
  const nlohmann::json point = nlohmann::json::parse(exchange.out)["complete_exchange"][0];
  ASSERT_EQ(point["calmant"].size(), 2u);
  EXPECT_EQ(point["calmant"][1]["emulated_cycles"], 100u);
  EXPECT_EQ(point["best_q"], 1u) << exchange.out;
  EXPECT_DOUBLE_EQ(point["speedup_over_cc_cube"].get<double>(), 1.0);
}

// The complete exchange of the 1-cube on a line of 2: one step, each node sends its 2^0 = 1 block
// over one hop: t_s + (1 + 1) delay + B + 1 = 4 cycles with B = 1, Q = 1 only; direct the same.
TEST(CliCalmant, TheCompleteExchangeFailsOnAContendedStepOrALostWordOfAnyRun) {
  const std::vector<std::string> args = {"calmant", "--line", "2",         "--complete-exchange",
                                         "--block", "1",      "--emulate", "all",
                                         "--json"};
  const auto exact = [](std::size_t, sw::NetworkRunSummary& s) {
    s.cycles = sw::Cycle{4};
    s.step_max_channel_contention = {1};
  };
  ScriptedRunner fine(exact);
  const Result ok = run(args, fine);
  ASSERT_EQ(ok.code, 0) << ok.err << ok.out;
  ASSERT_EQ(fine.network_requests.size(), 2u);  // Q = 1, then direct
  const nlohmann::json j = nlohmann::json::parse(ok.out);
  EXPECT_TRUE(j["agree"]);
  EXPECT_EQ(j["complete_exchange"][0]["calmant"][0]["predicted_cycles"], 4u);

  for (const std::size_t run_at_fault : {std::size_t{0}, std::size_t{1}}) {
    ScriptedRunner contended([&](std::size_t k, sw::NetworkRunSummary& s) {
      exact(k, s);
      if (k == run_at_fault) {
        s.step_max_channel_contention = {2};
      }
    });
    const Result c = run(args, contended);
    // The direct method's rounds may contend; CALMANT's schedule may not.
    EXPECT_EQ(c.code, run_at_fault == 0 ? sw::kExitRunFailed : sw::kExitOk) << c.out;
    ScriptedRunner lost([&](std::size_t k, sw::NetworkRunSummary& s) {
      exact(k, s);
      if (k == run_at_fault) {
        lose_a_word(s);
      }
    });
    const Result l =
        run({"calmant", "--line", "2", "--complete-exchange", "--block", "1", "--emulate", "all"},
            lost);
    EXPECT_EQ(l.code, sw::kExitRunFailed) << run_at_fault << l.out;
    EXPECT_TRUE(contains(l.out, "an emulated run lost a word or differs from its lockstep time"))
        << l.out;
  }
  // An emulated time off its prediction is the time reported, and fails the run.
  ScriptedRunner slow([&](std::size_t k, sw::NetworkRunSummary& s) {
    exact(k, s);
    s.cycles = sw::Cycle{9};
  });
  const Result s = run(args, slow);
  EXPECT_EQ(s.code, sw::kExitRunFailed) << s.out;
  EXPECT_EQ(nlohmann::json::parse(s.out)["complete_exchange"][0]["cc_cube_cycles"], 9u);
}

// 4x4, --emulate direct: the direct method's run answers 1000 cycles and the largest per-step
// contention of its rounds; the table and JSON put CALMANT's least time (its Q) beside them.
TEST(CliCalmant, TheCompleteExchangeReportsDirectsRunAndTheSpeedUpsOverEach) {
  ScriptedRunner direct([](std::size_t, sw::NetworkRunSummary& s) {
    s.cycles = sw::Cycle{1000};
    s.step_max_channel_contention = {1, 3, 2};
  });
  const Result r = run({"calmant", "--mesh", "4x4", "--complete-exchange", "--block", "2",
                        "--emulate", "direct", "--json"},
                       direct);
  ASSERT_EQ(r.code, 0) << r.err;
  ASSERT_EQ(direct.network_requests.size(), 1u);
  const nlohmann::json point = nlohmann::json::parse(r.out)["complete_exchange"][0];
  std::uint64_t least = point["calmant"][0]["predicted_cycles"];
  std::uint32_t best_q = 1;
  for (const auto& row : point["calmant"]) {
    if (row["predicted_cycles"].get<std::uint64_t>() < least) {
      least = row["predicted_cycles"];
      best_q = row["q"];
    }
  }
  EXPECT_EQ(point["best_q"], best_q);
  EXPECT_EQ(point["calmant_cycles"], least);
  EXPECT_EQ(point["direct"]["emulated_cycles"], 1000u);
  EXPECT_EQ(point["direct"]["max_step_contention"], 3u);
  EXPECT_DOUBLE_EQ(point["speedup_over_direct"].get<double>(), 1000.0 / static_cast<double>(least));
  const std::uint64_t cc_cube = point["cc_cube_cycles"];
  EXPECT_EQ(cc_cube, 2 * (2 + 8 * 2 + 1) + 4 * (3 + 8 * 2 + 1));  // as in the test above, t_s 0

  ScriptedRunner again([](std::size_t, sw::NetworkRunSummary& s) { s.cycles = sw::Cycle{1000}; });
  const Result text = run({"calmant", "--mesh", "4x4", "--complete-exchange", "--block", "2",
                           "--emulate", "direct"},
                          again);
  ASSERT_EQ(text.code, 0) << text.err;
  // The row of B = 2: B, CC-cube, direct, CALMANT (Q), over CC-cube, over direct.
  const std::size_t at = text.out.find("over direct\n");
  ASSERT_NE(at, std::string::npos) << text.out;
  std::istringstream row(text.out.substr(at + 12));
  std::uint64_t block = 0, cc = 0, direct_cycles = 0, calmant = 0;
  std::string q;
  double over_cc = 0, over_direct = 0;
  row >> block >> cc >> direct_cycles >> calmant >> q >> over_cc >> over_direct;
  EXPECT_EQ(block, 2u);
  EXPECT_EQ(cc, cc_cube);
  EXPECT_EQ(direct_cycles, 1000u);
  EXPECT_EQ(calmant, least);
  EXPECT_EQ(q, "(" + std::to_string(best_q) + ")");
  EXPECT_NEAR(over_cc, static_cast<double>(cc_cube) / static_cast<double>(least), 0.005);
  EXPECT_NEAR(over_direct, 1000.0 / static_cast<double>(least), 0.005);
}

// The complete exchange of the 2-cube on the 2x2 mesh (both dimensions one hop), blocks of 3
// words. The CC-cube: one step per dimension (<k,1>_2, LB 1), each message 2^(d-1) = 2 blocks.
// CALMANT with Q = 2 (deep, section 2.4): <0,1>_2, <0,2>_2 (4.2.2, LB = max(Theorem 3's 1, 2) =
// 2 steps) and <1,1>_2: 4 steps of one-block messages. Direct: 3 xor rounds of one block each.
TEST(CliCalmant, GenCompleteExchangeOnTheMeshWritesEachAlgorithmsStepsAndBlocks) {
  struct Case {
    std::vector<std::string> algorithm;
    std::size_t steps;
    std::uint32_t words;
  };
  for (const Case& c : std::vector<Case>{{{"--algorithm", "cc-cube"}, 2, 6},
                                         {{"--pipeline", "1"}, 2, 6},
                                         {{"--algorithm", "calmant", "--pipeline", "2"}, 4, 3},
                                         {{"--algorithm", "direct"}, 3, 3}}) {
    std::vector<std::string> args = {"gen",     "complete-exchange",
                                     "--cube",  "2",
                                     "--block", "3",
                                     "--onto",  "mesh",
                                     "--dims",  "2x2"};
    args.insert(args.end(), c.algorithm.begin(), c.algorithm.end());
    const Result r = run(args);
    ASSERT_EQ(r.code, 0) << joined(args) << r.err;
    const sw::McProgram p = sw::parse_program(r.out, "ce.mcp");
    EXPECT_EQ(p.nodes, 4u);
    ASSERT_EQ(p.steps.size(), c.steps) << joined(args);
    std::set<std::uint32_t> rounds;
    for (const sw::ProgramStep& s : p.steps) {
      std::set<std::uint32_t> senders;
      for (const sw::Transfer& t : s.transfers) {
        EXPECT_EQ(t.words, c.words) << joined(args);
        EXPECT_TRUE(senders.insert(t.source).second);
        ASSERT_EQ(t.destinations.size(), 1u);
        rounds.insert(t.source ^ t.destinations[0]);
      }
      EXPECT_EQ(s.transfers.size(), 4u) << joined(args);
    }
    // Node n of the 2x2 mesh holds process n; the CC-cube's messages cross one dimension each,
    // direct's rounds send to n xor 1, 2 and 3.
    const std::set<std::uint32_t> crossed = c.algorithm[1] == "direct"
                                                ? std::set<std::uint32_t>{1, 2, 3}
                                                : std::set<std::uint32_t>{1, 2};
    EXPECT_EQ(rounds, crossed) << joined(args);
  }
}

TEST(CliCalmant, BadInputIsRefusedBeforeAnythingRuns) {
  expect_refused_before_running({
      {{"calmant", "--task", "0,1"}, {"--mesh", "none"}},
      {{"calmant", "--mesh", "6x6", "--task", "0,1"}, {"--mesh", "power of two", "'6x6'"}},
      {{"calmant", "--mesh", "4x8", "--task", "0,1"}, {"--mesh", "'4x8'"}},
      {{"calmant", "--mesh", "16", "--task", "0,1"}, {"--mesh", "'16'"}},
      {{"calmant", "--mesh", "4x4x4x4", "--task", "0,1"}, {"--mesh", "'4x4x4x4'"}},
      {{"calmant", "--line", "12", "--task", "0,1"}, {"--line", "'12'"}},
      {{"calmant", "--line", "4x4", "--task", "0,1"}, {"--line", "'4x4'"}},
      {{"calmant", "--line", "4", "--len", "2", "--sweep-q", "--router-delay", "0"},
       {"--router-delay", "'0'"}},
      {{"calmant", "--line", "4", "--complete-exchange", "--block", "1", "--router-delay", "0"},
       {"--router-delay", "'0'"}},
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
      {{"calmant", "--mesh", "4x4", "--task", "0,1", "--startup", "3"}, {"--startup", "--task"}},
      {{"calmant", "--mesh", "4x4", "--task", "0,1", "--router-delay", "3"},
       {"--router-delay", "--task"}},
      {{"calmant", "--mesh", "4x4", "--complete-exchange", "--block", "1", "--compute", "2"},
       {"--compute", "--sweep-q", "--complete-exchange"}},
      {{"calmant", "--mesh", "4x4", "--complete-exchange", "--block", "1", "--barrier", "2"},
       {"--barrier", "--sweep-q", "--complete-exchange"}},
      {{"calmant", "--mesh", "4x4", "--len", "8", "--sweep-q", "--emulate", "all"},
       {"--emulate", "--complete-exchange", "--sweep-q"}},
      {{"calmant", "--mesh", "4x4", "--len", "0", "--sweep-q"}, {"--len"}},
      {{"calmant", "--mesh", "4x4", "--complete-exchange", "--block", "2,2"},
       {"--block", "ascending", "'2,2'"}},
      {{"gen", "calmant", "--mesh", "4x4", "--len", "8"}, {"--pipeline", "required"}},
      {{"gen", "calmant", "--mesh", "4x4", "--pipeline", "2"}, {"--len", "none"}},
      {{"gen", "calmant", "--mesh", "4x4", "--len", "0", "--pipeline", "1"}, {"--len", "'0'"}},
      {{"gen", "calmant", "--mesh", "4x4", "--len", "8", "--pipeline", "3"},
       {"--pipeline", "divisor", "8"}},
      // 7 = 3 x 2 + 1: a remainder of 1 is not a divisor either (the value quoted as every refusal
      // quotes what it found).
      {{"gen", "calmant", "--mesh", "4x4", "--len", "7", "--pipeline", "2"},
       {"--pipeline", "divisor of --len 7", "found '2'"}},
      {{"gen", "calmant", "--mesh", "4x4", "--len", "8", "--pipeline", "2", "--schedule", "x"},
       {"--schedule", "calmant or naive", "'x'"}},
      {{"gen", "calmant", "--mesh", "4x4", "--len", "8", "--pipeline", "2", "--nodes", "4"},
       {"--nodes"}},
      {{"gen", "C7", "--nodes", "4", "--mesh", "4x4"}, {"--mesh", "gen calmant"}},
      {{"gen", "complete-exchange", "--cube", "4", "--block", "1", "--onto", "torus", "--dims",
        "4x4", "--algorithm", "direct"},
       {"--onto", "mesh", "'torus'"}},
      {{"gen", "complete-exchange", "--cube", "4", "--block", "1", "--onto", "mesh", "--dims",
        "8x8", "--algorithm", "direct"},
       {"--dims", "2^4", "'8x8'"}},
      {{"gen", "complete-exchange", "--cube", "4", "--block", "1", "--onto", "mesh", "--dims",
        "4x4", "--pipeline", "16"},
       {"--pipeline", "1..8"}},
      {{"gen", "complete-exchange", "--cube", "4", "--block", "1", "--onto", "mesh", "--dims",
        "4x4", "--pipeline", "3"},
       {"--pipeline", "divisor of 2^(D-1) = 8"}},
      // 8 = 7 + 1: a remainder of 1 is not a divisor either (the value quoted as every refusal
      // quotes what it found).
      {{"gen", "complete-exchange", "--cube", "4", "--block", "1", "--onto", "mesh", "--dims",
        "4x4", "--pipeline", "7"},
       {"--pipeline", "divisor of 2^(D-1) = 8", "'7'"}},
      {{"gen", "complete-exchange", "--cube", "0", "--block", "1", "--onto", "mesh", "--dims",
        "4x4", "--pipeline", "1"},
       {"--cube: expected an integer in 1..16, found '0'"}},
      {{"gen", "complete-exchange", "--cube", "17", "--block", "1", "--onto", "mesh", "--dims",
        "4x4", "--pipeline", "1"},
       {"--cube: expected an integer in 1..16, found '17'"}},
      {{"gen", "complete-exchange", "--cube", "4", "--block", "0", "--onto", "mesh", "--dims",
        "4x4", "--pipeline", "2"},
       {"--block", "'0'"}},
      {{"gen", "complete-exchange", "--cube", "4", "--block", "1", "--onto", "mesh", "--dims",
        "4x4", "--pipeline", "2", "--torus", "4x4"},
       {"--torus", "--onto mesh"}},
      {{"gen", "complete-exchange", "--cube", "4", "--block", "1", "--onto", "mesh", "--dims",
        "4x4", "--pipeline", "2", "--rearrange-cycles", "2"},
       {"--rearrange-cycles", "--onto mesh"}},
      {{"gen", "complete-exchange", "--cube", "4", "--block", "1", "--onto", "mesh", "--dims",
        "4x4"},
       {"--pipeline", "calmant needs it"}},
      {{"gen", "complete-exchange", "--cube", "4", "--block", "1", "--onto", "mesh", "--dims",
        "4x4", "--algorithm", "direct", "--pipeline", "2"},
       {"--pipeline", "--algorithm calmant"}},
      {{"gen", "complete-exchange", "--cube", "4", "--block", "1", "--onto", "mesh", "--dims",
        "4x4", "--algorithm", "a1"},
       {"--algorithm", "calmant, cc-cube or direct", "'a1'"}},
  });
}

}  // namespace
}  // namespace orthosim
