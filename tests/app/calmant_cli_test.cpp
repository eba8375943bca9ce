// End-to-end: [CALMANT]'s programs written by `gen calmant` / `gen complete-exchange` and run on
// the emulated one-port wormhole mesh in lockstep. Oracles: every step's channel contention is 1
// (the routers' own count), the program's steps are the schedule's P (Theorem 1 on a line,
// written here), every word arrives, and `calmant --sweep-q` finds the emulated time of every Q
// equal to its prediction.
#include <gtest/gtest.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/cli_process.hpp"

namespace {

using orthosim::testing_support::Outcome;

class Calmant : public orthosim::testing_support::CliTest {};

std::uint64_t theorem1(std::uint32_t i, std::uint32_t m) {
  return m % 2 == 0 ? ((1ull << (i + m + 1)) - (1ull << (i + 1))) / 3
                    : ((1ull << (i + m + 1)) - (1ull << i)) / 3;
}

TEST_F(Calmant, TheGeneratedProgramRunsOnTheMeshWithContentionOneInEveryStep) {
  // A 4-cube on a line of 16, Q = 2 (shallow): <0,1>, <0,2>, <1,2>, <2,2>, <3,1>.
  ASSERT_EQ(run("gen calmant --line 16 --len 8 --pipeline 2 --out p.mcp").exit_code, 0);
  const Outcome o =
      run("run p.mcp --arch mesh --dims 16 --ports one --startup 15 --lockstep --json");
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const nlohmann::json j = nlohmann::json::parse(o.out);
  EXPECT_TRUE(j["payload_ok"]);
  const std::uint64_t p =
      theorem1(0, 1) + theorem1(0, 2) + theorem1(1, 2) + theorem1(2, 2) + theorem1(3, 1);
  ASSERT_EQ(j["steps"].size(), p);
  for (const auto& step : j["steps"]) {
    EXPECT_EQ(step["max_channel_contention"], 1u) << step;
  }

  // The naive program: one step per iteration, the kernel's channels carry several messages.
  ASSERT_EQ(
      run("gen calmant --line 16 --len 8 --pipeline 2 --schedule naive --out n.mcp").exit_code, 0);
  const Outcome naive =
      run("run n.mcp --arch mesh --dims 16 --ports one --startup 15 --lockstep --json");
  ASSERT_EQ(naive.exit_code, 0) << naive.err;
  const nlohmann::json n = nlohmann::json::parse(naive.out);
  ASSERT_EQ(n["steps"].size(), 5u);
  // The third iteration, <1,2>_1, loads its busiest link with Theorem 1's 4 messages.
  EXPECT_EQ(n["steps"][2]["max_channel_contention"], theorem1(1, 2));
}

TEST_F(Calmant, TheSweepsEmulatedTimesAreItsPredictionsAndTheOptimaAgree) {
  const Outcome o =
      run("calmant --mesh 4x4 --len 16 --sweep-q --startup 3 --compute 2 --barrier 5 --json");
  ASSERT_EQ(o.exit_code, 0) << o.err << o.out;
  const nlohmann::json j = nlohmann::json::parse(o.out);
  ASSERT_EQ(j["sweep_q"].size(), 5u);  // Q = 1, 2, 4, 8, 16
  for (const auto& row : j["sweep_q"]) {
    EXPECT_EQ(row["emulated_cycles"], row["predicted_cycles"]) << row;
    EXPECT_EQ(row["max_step_contention"], 1u);
  }
  EXPECT_TRUE(j["agree"]);
  EXPECT_EQ(j["optimal_q_predicted"], j["optimal_q_emulated"]);
}

TEST_F(Calmant, EveryCompleteExchangeDeliversEveryWord) {
  // Every block travels once per bit of origin xor destination by the CC-cube (sum over j of
  // popcount(j) = 4 x 8 = 32 per node), once by the direct method (15 per node).
  for (const auto& [algorithm, blocks] : std::vector<std::pair<std::string, std::uint64_t>>{
           {"calmant --pipeline 4", 32}, {"cc-cube", 32}, {"direct", 15}}) {
    ASSERT_EQ(run("gen complete-exchange --cube 4 --block 3 --onto mesh --dims 4x4 --algorithm " +
                  algorithm + " --out ce.mcp")
                  .exit_code,
              0);
    const Outcome o =
        run("run ce.mcp --arch mesh --dims 4x4 --ports one --startup 10 --lockstep --json");
    ASSERT_EQ(o.exit_code, 0) << algorithm << o.err;
    const nlohmann::json j = nlohmann::json::parse(o.out);
    EXPECT_TRUE(j["payload_ok"]);
    EXPECT_EQ(j["words"], 16u * blocks * 3u) << algorithm;
  }
}

// `calmant --complete-exchange` times CALMANT's conflict-free schedules without running them
// (lockstep_cycles): with --emulate all every Q runs too and the emulated time is the reported
// one; the direct method's time is that of `run` on `gen complete-exchange --algorithm direct`.
TEST_F(Calmant, TheCompleteExchangesReportedTimesAreTheEmulatedOnes) {
  for (const std::string mesh : {"4x4", "8x8"}) {
    const Outcome o = run("calmant --mesh " + mesh +
                          " --complete-exchange --block 1,3 --startup 40 --emulate all --json");
    ASSERT_EQ(o.exit_code, 0) << o.err << o.out;
    const nlohmann::json j = nlohmann::json::parse(o.out);
    EXPECT_TRUE(j["agree"]);
    ASSERT_EQ(j["complete_exchange"].size(), 2u);
    for (const auto& point : j["complete_exchange"]) {
      for (const auto& row : point["calmant"]) {
        EXPECT_EQ(row["emulated_cycles"], row["predicted_cycles"]) << mesh << row;
        EXPECT_EQ(row["max_step_contention"], 1u) << mesh << row;
        EXPECT_TRUE(row["payload_ok"]);
      }
      EXPECT_GT(point["direct"]["max_step_contention"], 1u);  // its rounds contend
    }
    const std::string cube = mesh == "4x4" ? "4" : "6";
    ASSERT_EQ(run("gen complete-exchange --cube " + cube + " --block 3 --onto mesh --dims " + mesh +
                  " --algorithm direct --out d.mcp")
                  .exit_code,
              0);
    const Outcome direct =
        run("run d.mcp --arch mesh --dims " + mesh + " --ports one --startup 40 --lockstep --json");
    ASSERT_EQ(direct.exit_code, 0) << direct.err;
    EXPECT_EQ(j["complete_exchange"][1]["direct"]["emulated_cycles"],
              nlohmann::json::parse(direct.out)["total_cycles"]);
  }
}

}  // namespace
