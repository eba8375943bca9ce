// End to end: the section 5 programs of [PH91] through the orthosim executable: gen exchange
// and gen shift, map's links and node assignment, run with the IWR synchronization, and the
// clustering options' errors. Expected cycles are the project's formulas written here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "tests/support/cli_process.hpp"

namespace {

using orthosim::testing_support::expect_refused;
using orthosim::testing_support::Outcome;

class Section5 : public orthosim::testing_support::CliTest {};

/// alpha + beta(l-1) + d tau l (Fig. 5(c)) with the default costs 16, 2, 1.
std::uint64_t access(std::uint64_t d, std::uint64_t l) { return 16 + 2 * (l - 1) + d * l; }
constexpr std::uint64_t kGamma = 8;

TEST_F(Section5, AFourCubeExchangeIsOneIwrStepThroughTheModulesOfFigure9) {
  ASSERT_EQ(run("gen exchange --nodes 16 --together --len 3 --out cube.mcp").exit_code, 0);
  const Outcome map = run("map cube.mcp --arch omp --json");
  ASSERT_EQ(map.exit_code, 0) << map.err;
  const nlohmann::json j = nlohmann::json::parse(map.out);
  ASSERT_EQ(j["steps"].size(), 1u);
  const nlohmann::json& links = j["steps"][0]["links"];
  ASSERT_EQ(links.size(), 64u);
  for (const auto& link : links) {
    const auto s = link["source"].get<std::uint32_t>(),
               d = link["destination"].get<std::uint32_t>();
    const std::uint32_t flipped = s ^ d;
    EXPECT_TRUE(flipped == 1 || flipped == 2 || flipped == 4 || flipped == 8);
    EXPECT_EQ(link["module"], "M" + std::to_string(s) + "," + std::to_string(d));
  }
  const Outcome r = run("run cube.mcp --arch omp --sync iwr --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json rj = nlohmann::json::parse(r.out);
  EXPECT_TRUE(rj["payload_ok"].get<bool>());
  EXPECT_EQ(rj["messages_delivered"], 64u);
  EXPECT_EQ(rj["total_cycles"], 2 * access(4, 3) + kGamma);
}

TEST_F(Section5, AnEastShiftOfATorusByColumnsTakesTwoIwrSteps) {
  for (const char* dir : {"east", "west"}) {
    ASSERT_EQ(run(std::string("gen shift --torus 4x4 --direction ") + dir +
                  " --distance 2 --len 2 --out shift.mcp")
                  .exit_code,
              0);
    const Outcome map = run("map shift.mcp --arch omp --torus 4x4");
    ASSERT_EQ(map.exit_code, 0) << map.err;
    EXPECT_NE(map.out.find("torus 4x4 by columns"), std::string::npos) << map.out;
    EXPECT_NE(map.out.find("P0: N0,N4,N8,N12"), std::string::npos) << map.out;
    EXPECT_NE(map.out.find("[IWR 2]"), std::string::npos) << map.out;
    const Outcome r = run("run shift.mcp --arch omp --torus 4x4 --sync iwr --json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_TRUE(j["payload_ok"].get<bool>()) << dir;
    EXPECT_EQ(j["messages_delivered"], 16u);
    EXPECT_EQ(j["total_cycles"], 2 * (2 * access(4, 2) + kGamma)) << dir;
  }
  // By rows, north/south cross the clusters instead.
  ASSERT_EQ(run("gen shift --torus 4x4 --direction north --distance 1 --out north.mcp").exit_code,
            0);
  const Outcome rows = run("run north.mcp --arch omp --torus 4x4 --cluster rows --sync iwr --json");
  ASSERT_EQ(rows.exit_code, 0) << rows.err;
  EXPECT_EQ(nlohmann::json::parse(rows.out)["total_cycles"], 2 * (2 * access(4, 1) + kGamma));
}

// The cost model's prediction of an IWR step includes the bus switch: the README's Fig. 11(b)
// line, an east shift by 2 of a 4 x 4 torus by columns, is two IWR steps of 2T + gamma each,
// T = alpha + beta(l-1) + d tau l with d = 4 modules and l = 1 vector, at two values of gamma.
TEST_F(Section5, ThePredictedCyclesOfAnIwrStepIncludeGamma) {
  ASSERT_EQ(run("gen shift --torus 4x4 --direction east --distance 2 --out east2.mcp").exit_code,
            0);
  for (const std::uint64_t gamma : {kGamma, std::uint64_t{13}}) {
    const Outcome r = run("run east2.mcp --arch omp --torus 4x4 --sync iwr --gamma " +
                          std::to_string(gamma) + " --json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    const std::uint64_t expected = 2 * (2 * access(4, 1) + gamma);
    ASSERT_EQ(j["steps"].size(), 1u);
    EXPECT_EQ(j["steps"][0]["predicted_cycles"], expected) << "gamma " << gamma;
    EXPECT_EQ(j["predicted_cycles"], expected) << "gamma " << gamma;
    EXPECT_EQ(j["total_cycles"], expected) << "gamma " << gamma;
  }
}

TEST_F(Section5, CollapsingTheExchangedDimensionMakesItLocal) {
  ASSERT_EQ(run("gen exchange --nodes 32 --dims 4 --len 2 --out x4.mcp").exit_code, 0);
  const Outcome collapsed = run("run x4.mcp --arch omp --n 16 --collapse x4 --json");
  ASSERT_EQ(collapsed.exit_code, 0) << collapsed.err;
  EXPECT_EQ(nlohmann::json::parse(collapsed.out)["total_cycles"], 0u);
  const Outcome automatic = run("run x4.mcp --arch omp --n 16 --collapse auto --json");
  ASSERT_EQ(automatic.exit_code, 0) << automatic.err;
  EXPECT_EQ(nlohmann::json::parse(automatic.out)["total_cycles"], 0u);
  const Outcome blocks = run("run x4.mcp --arch omp --n 16 --sync iwr --json");
  ASSERT_EQ(blocks.exit_code, 0) << blocks.err;
  // Blocks collapse x0: x4 is between clusters, 2 nodes per processor: lambda = 2.
  EXPECT_EQ(nlohmann::json::parse(blocks.out)["total_cycles"], 2 * access(1, 4) + kGamma);
}

// [PH91] section 3.1 defines the IWR step on every interleaved configuration: a block-interleaved
// write, a bus switching of gamma ("the synchronization overhead"), a block-interleaved read.
// `--sync iwr` on the crossbar and the bus is that step too: the step's processors write, meet
// in one bus switch of gamma, then read, with no activate-/wait-sync (so --sync-cycles costs
// nothing). A permutation of two 4-word messages, P1 -> P2 and P3 -> P0, with costs chosen here
// so that no two terms coincide (T1 = alpha + beta(l-1) + tau l = 10 + 3*3 + 2*4 = 27): on the
// crossbar both writes go on their own buses, then both reads: T1 + gamma + T1; on the single bus
// the two writes take it one after the other, then the two reads: 2 T1 + gamma + 2 T1.
TEST_F(Section5, IwrSynchronizationOnTheCrossbarAndTheBusIsOneBusSwitchOfGamma) {
  std::ofstream(dir_ / "perm.mcp") << "nodes 4\nwords 4\nstep perm\n  send 1 -> 2\n  send 3 -> 0\n";
  constexpr std::uint64_t kT1 = 10 + 3 * (4 - 1) + 2 * 4;
  for (const auto& [arch, accesses_per_half] :
       {std::pair<std::string, std::uint64_t>{"crossbar", 1}, {"bus", 2}}) {
    for (const std::uint64_t gamma : {7u, 40u}) {
      for (const char* sync_cycles : {"2", "50"}) {
        const std::string args =
            "run perm.mcp --arch " + arch + " --sync iwr --alpha 10 --beta 3 --tau 2 --gamma " +
            std::to_string(gamma) + " --sync-cycles " + sync_cycles + " --json";
        const Outcome r = run(args);
        ASSERT_EQ(r.exit_code, 0) << args << ": " << r.err;
        const nlohmann::json j = nlohmann::json::parse(r.out);
        EXPECT_TRUE(j["payload_ok"].get<bool>()) << args;
        EXPECT_EQ(j["total_cycles"], 2 * accesses_per_half * kT1 + gamma) << args;
        EXPECT_EQ(j["predicted_cycles"], 2 * accesses_per_half * kT1 + gamma) << args;
      }
    }
  }
}

TEST_F(Section5, BadClusteringOptionsGiveOneErrorLine) {
  ASSERT_EQ(run("gen exchange --nodes 16 --len 1 --out c.mcp").exit_code, 0);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"map c.mcp --cluster rows", "--cluster"},
      {"map c.mcp --torus 3x4", "--torus"},
      {"map c.mcp --torus 4by4", "--torus"},
      {"map c.mcp --torus 4x4 --cluster diagonal", "--cluster"},
      {"map c.mcp --torus 4x4 --n 8", "--n"},
      {"map c.mcp --n 4 --collapse x0", "--collapse"},
      {"map c.mcp --n 8 --collapse x7", "--collapse"},
      {"map c.mcp --n 6 --collapse x0", "--collapse"},
      {"map c.mcp --sync barrier", "--sync"},
      {"run c.mcp --arch mesh --dims 4x4 --torus 4x4", "--torus"},
      {"gen exchange --nodes 12", "--nodes"},
      {"gen exchange --nodes 16 --dims 4", "--dims"},
      {"gen shift --torus 4x4 --direction up", "--direction"},
      {"gen shift --torus 4x4 --direction east --distance 4", "--distance"},
      {"gen shift --direction east", "--torus"},
  };
  for (const auto& [args, mention] : cases) {
    expect_refused(run(args), mention, args);
  }
}

}  // namespace
