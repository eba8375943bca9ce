// `orthosim embed` and `orthosim gen cc-cube` (sw/cli): the metrics against [XOR]'s closed forms
// for the ring, the node map read back by run's own reader against Fig. 5, Table I with its match
// column, the three runs of --compare placed by std, xor and byweight, and bad input refused
// before anything runs.
#include <gtest/gtest.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sw/cli/cli.hpp"
#include "sw/program/parser.hpp"
#include "sw/routed/routed_program.hpp"
#include "tests/support/cli_harness.hpp"

namespace orthosim {
namespace {

using namespace cli_test;
using Json = nlohmann::json;

class EmbedCli : public CliProgram {};

TEST_F(EmbedCli, XorOnASixteenNodeRingHasThePapersMetrics) {
  const Result r =
      run({"embed", "--cube", "4", "--onto", "ring", "--dims", "16", "--scheme", "xor", "--json"});
  ASSERT_EQ(r.code, sw::kExitOk) << r.err;
  const Json j = Json::parse(r.out);
  // [XOR] IV.B.2: 2^(d-1) = 8 links of dilation 1 and 2, 2^d = 16 of dilation 2^(d-2) = 4.
  EXPECT_EQ(j["dilation_spectrum"], (Json{{"1", 8}, {"2", 8}, {"4", 16}}));
  EXPECT_EQ(j["longest_dilation"], 4);
  EXPECT_EQ(j["total_dilation"], 8 * (3 * 4 - 1));  // 2^(d-1) (3 2^(d-2) - 1)
  EXPECT_DOUBLE_EQ(j["average_dilation"].get<double>(), 88.0 / 32.0);
  const std::vector<std::uint32_t> distance = {1, 2, 4, 4};
  ASSERT_EQ(j["distances"].size(), 4U);
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(j["distances"][i]["min"], distance[i]);
    EXPECT_EQ(j["distances"][i]["max"], distance[i]);
  }
  // Table I, 1 x 16: xor min 3, max 4; IV.F: (3 2^(d-2) - d - 1)/2 = 3.5.
  EXPECT_EQ(j["load_min"], 3);
  EXPECT_EQ(j["load_max"], 4);
  EXPECT_DOUBLE_EQ(j["load_average"].get<double>(), 3.5);
  EXPECT_EQ(j["cc_cube_time_tc"], 1 + 2 + 4 + 4);
  EXPECT_FALSE(j.contains("loads"));
}

TEST_F(EmbedCli, LoadsAndTheNodeMapThatRunReads) {
  const std::string map = path("xor16.emb");
  const Result r = run({"embed", "--cube", "4", "--onto", "ring", "--dims", "16", "--scheme", "xor",
                        "--loads", "--out", map});
  ASSERT_EQ(r.code, sw::kExitOk) << r.err;
  // [XOR] IV.E.2: 2^(d-2) - 1 = 3 from the dilation-4 links plus the std 2-cube's G_1 (0 1 1 0).
  EXPECT_TRUE(contains(r.out, "load of each network node: 3 4 4 3 3 4 4 3 3 4 4 3 3 4 4 3\n"));
  EXPECT_TRUE(contains(r.out, "CC 4-cube communication time ([XOR] IV.A): 11 Tc"));
  // Fig. 5: ring nodes 8..15 hold cube nodes 12 13 14 15 8 9 10 11.
  const std::vector<std::uint32_t> placement = sw::read_embedding_file(map, 16, 16);
  const std::vector<std::uint32_t> fig5 = {0, 1, 2, 3, 4, 5, 6, 7, 12, 13, 14, 15, 8, 9, 10, 11};
  for (std::uint32_t ring_node = 0; ring_node < 16; ++ring_node) {
    EXPECT_EQ(placement[fig5[ring_node]], ring_node);
  }
  // The standard embedding's loads on the same ring, [XOR] IV.E.1's G_i summed.
  const Result s = run({"embed", "--cube", "4", "--onto", "ring", "--dims", "16", "--scheme", "std",
                        "--loads", "--json"});
  ASSERT_EQ(s.code, sw::kExitOk) << s.err;
  const Json j = Json::parse(s.out);
  for (std::uint32_t n = 0; n < 16; ++n) {
    std::uint64_t load = 0;
    for (std::uint32_t i = 0; i < 4; ++i) {
      const std::uint32_t rest = n % (1U << i);
      load += n % (2U << i) < (1U << i) ? rest : (1U << i) - 1 - rest;
    }
    EXPECT_EQ(j["loads"][n], load) << n;
  }
}

TEST_F(EmbedCli, TableOneMatchesRowByRow) {
  const Result text = run({"embed", "--table1"});
  ASSERT_EQ(text.code, sw::kExitOk) << text.err;
  EXPECT_TRUE(contains(text.out, "every row matches the paper"));
  const Result r = run({"embed", "--table1", "--json"});
  ASSERT_EQ(r.code, sw::kExitOk) << r.err;
  const Json j = Json::parse(r.out);
  ASSERT_EQ(j["rows"].size(), 10U);
  // [XOR] Table I, 16 x 32: std 0 and 26, xor 10 and 14.
  const Json& row = j["rows"][7];
  EXPECT_EQ(row["torus"], "16x32");
  EXPECT_EQ(row["std_min"], 0);
  EXPECT_EQ(row["std_max"], 26);
  EXPECT_EQ(row["xor_min"], 10);
  EXPECT_EQ(row["xor_max"], 14);
  EXPECT_EQ(row["paper_std_max"], 26);
  EXPECT_EQ(row["paper_xor_min"], 10);
  for (const Json& each : j["rows"]) {
    EXPECT_TRUE(each["match"].get<bool>()) << each.dump();
  }
}

TEST_F(EmbedCli, CompareRunsTheCcCubeUnderStdXorAndByweight) {
  FakeRunner runner;
  const Result r = run({"embed", "--compare", "--cube", "4", "--onto", "ring", "--dims", "16",
                        "--switching", "saf", "--json"},
                       runner);
  ASSERT_EQ(r.code, sw::kExitOk) << r.err;
  ASSERT_EQ(runner.network_requests.size(), 3U);
  // The xor run places cube node n where Fig. 5 does: stage 0's message from cube node 8 to 9
  // leaves ring node 12 for ring node 13.
  const sw::NetworkRunRequest& xor_run = runner.network_requests[1];
  EXPECT_EQ(xor_run.config->router.switching, sw::Switching::StoreAndForward);
  EXPECT_EQ(xor_run.config->router.buffer_flits, 2U);  // the whole packet: 1 word + header
  bool seen = false;
  for (const sw::Message& m : xor_run.program.manifest.messages) {
    if (m.source == 12 && m.destination == 13) {
      seen = true;
    }
  }
  EXPECT_TRUE(seen);
  EXPECT_EQ(xor_run.program.manifest.messages.size(), 4U * 16U);
  const Json j = Json::parse(r.out);
  ASSERT_EQ(j["runs"].size(), 3U);
  EXPECT_EQ(j["runs"][0]["scheme"], "std");
  EXPECT_EQ(j["runs"][1]["scheme"], "xor");
  EXPECT_EQ(j["runs"][2]["scheme"], "byweight");
  // std on the ring: stages over 1, 2, 4 and 8 links, each t_s + F + (h + 1)(delay + F - 1) =
  // 0 + 2 + 2 (h + 1).
  EXPECT_EQ(j["runs"][0]["predicted_cycles"],
            (2 + 2 * 2) + (2 + 2 * 3) + (2 + 2 * 5) + (2 + 2 * 9));
  EXPECT_DOUBLE_EQ(j["std_xor_average_distance_ratio"].get<double>(), (15.0 / 4) / (11.0 / 4));
}

TEST_F(EmbedCli, GenCcCubeWritesOneStagePerDimensionWithItsComputation) {
  const Result r =
      run({"gen", "cc-cube", "--dim", "3", "--len", "2", "--compute", "5", "--dims", "2,0,1"});
  ASSERT_EQ(r.code, sw::kExitOk) << r.err;
  const sw::McProgram p = sw::parse_program(r.out, "cc.mcp");
  EXPECT_EQ(p.nodes, 8U);
  ASSERT_EQ(p.steps.size(), 3U);
  const std::vector<std::uint32_t> order = {2, 0, 1};
  for (std::size_t s = 0; s < 3; ++s) {
    ASSERT_EQ(p.steps[s].computes.size(), 8U);
    for (const sw::ComputePhase& c : p.steps[s].computes) {
      EXPECT_EQ(c.cycles, sw::Cycle{5});
    }
    ASSERT_EQ(p.steps[s].transfers.size(), 8U);
    for (const sw::Transfer& t : p.steps[s].transfers) {
      EXPECT_EQ(t.words, 2U);
      EXPECT_EQ(t.destinations, (std::vector<sw::NodeId>{t.source ^ (1U << order[s])}));
    }
  }
}

TEST_F(EmbedCli, HelpListsTheOptionsAndTheTopLevelTheCommand) {
  EXPECT_TRUE(contains(run({"--help"}).out, "  embed "));
  const Result r = run({"embed", "--help"});
  EXPECT_EQ(r.code, sw::kExitOk);
  for (const char* option :
       {"--cube", "--onto", "--dims", "--scheme", "--loads", "--out", "--table1", "--compare",
        "--len", "--compute", "--switching", "--json"}) {
    EXPECT_TRUE(contains(r.out, option)) << option;
  }
}

TEST_F(EmbedCli, GenCcCubeTakesEveryDimensionInOrderByDefault) {
  const Result r = run({"gen", "cc-cube", "--dim", "4"});
  ASSERT_EQ(r.code, sw::kExitOk) << r.err;
  const sw::McProgram p = sw::parse_program(r.out, "cc.mcp");
  EXPECT_EQ(p.nodes, 16U);
  ASSERT_EQ(p.steps.size(), 4U);
  for (std::uint32_t s = 0; s < 4; ++s) {
    EXPECT_TRUE(p.steps[s].computes.empty());
    ASSERT_EQ(p.steps[s].transfers.size(), 16U);
    for (const sw::Transfer& t : p.steps[s].transfers) {
      EXPECT_EQ(t.words, 1U);
      EXPECT_EQ(t.destinations, (std::vector<sw::NodeId>{t.source ^ (1U << s)}));
    }
  }
}

TEST_F(EmbedCli, BadInputIsRefusedNamingTheOption) {
  const std::string folder = dir_.string();
  expect_refused_before_running({
      {{"embed", "--cube", "4", "--onto", "torus", "--dims", "4x6", "--scheme", "std"},
       {"--dims", "power-of-two"}},
      {{"embed", "--cube", "5", "--onto", "torus", "--dims", "4x4", "--scheme", "std"},
       {"--cube", "16 nodes"}},
      {{"embed", "--cube", "4", "--onto", "torus", "--dims", "4x4", "--scheme", "gray"},
       {"--scheme", "'gray'"}},
      {{"embed", "--cube", "4", "--onto", "torus", "--dims", "4x4", "--scheme", "identity"},
       {"--scheme", "identity onto the torus 4x4"}},
      {{"embed", "--cube", "4", "--onto", "line", "--dims", "4x4", "--scheme", "std"},
       {"--dims", "one radix"}},
      {{"embed", "--cube", "4", "--onto", "donut", "--dims", "16", "--scheme", "std"},
       {"--onto", "'donut'"}},
      {{"embed", "--onto", "ring", "--dims", "16", "--scheme", "std"}, {"--cube", "required"}},
      {{"embed", "--cube", "4", "--onto", "ring", "--dims", "16"}, {"--scheme", "required"}},
      {{"embed", "--table1", "--cube", "4"}, {"--cube", "embed --table1"}},
      {{"embed", "--table1", "--compare"}, {"--table1", "not both"}},
      {{"embed", "--cube", "4", "--onto", "ring", "--dims", "16", "--scheme", "std", "--len", "2"},
       {"--len", "embed --compare"}},
      {{"embed", "--compare", "--cube", "4", "--onto", "ring", "--dims", "16", "--scheme", "std"},
       {"--scheme"}},
      {{"embed", "--compare", "--cube", "4", "--onto", "hypercube"}, {"--onto", "hypercube"}},
      {{"embed", "--cube", "4", "--onto", "ring", "--dims", "16", "--scheme", "std", "--out",
        folder},
       {"--out", "(a directory)"}},
      {{"gen", "cc-cube", "--len", "2"}, {"--dim", "required"}},
      {{"gen", "cc-cube", "--dim", "3", "--nodes", "8"}, {"--nodes"}},
      {{"gen", "cc-cube", "--dim", "3", "--dims", "0,3"}, {"--dims", "0..2"}},
      {{"gen", "exchange", "--nodes", "8", "--compute", "3"}, {"--compute", "gen cc-cube"}},
  });
}

}  // namespace
}  // namespace orthosim
