// `orthosim embed` and `orthosim gen cc-cube` (sw/cli): the metrics against [XOR]'s closed forms
// for the ring, the node map read back by run's own reader against Fig. 5, Table I with its match
// column, the three runs of --compare placed by std, xor and byweight, and bad input refused
// before anything runs.
#include <gtest/gtest.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <utility>
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
  // The map's comment says where each cube node's line is, as the lines are: after the comment,
  // line n + 2 holds cube node n's ring node (cube node 12 on ring node 8).
  const std::string text = slurp(map);
  EXPECT_EQ(text.substr(0, 2), "# ");
  EXPECT_TRUE(
      contains(text.substr(0, text.find('\n')), "cube node n runs on network node (line n + 2)"))
      << text;
  std::istringstream lines(text);
  std::string line;
  for (std::uint32_t number = 1; std::getline(lines, line); ++number) {
    if (number >= 2) {
      EXPECT_EQ(line, std::to_string(placement.at(number - 2))) << number;
    }
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
    // Each printed value stands beside its own recomputed one (they match).
    for (const char* field : {"std_min", "std_max", "xor_min", "xor_max"}) {
      EXPECT_EQ(each[std::string("paper_") + field], each[field]) << field << each.dump();
    }
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

// [XOR] Fig. 3a: byweight places the 3-cube on a line of 8 as 0 4 2 1 6 5 3 7. Its links, as
// line positions: dimension 0 (0,3) (2,6) (1,5) (4,7), dimension 1 (0,2) (3,6) (1,4) (5,7),
// dimension 2 (0,1) (3,5) (2,4) (6,7): distances 3..4, 2..3 and 1..2, dilations 1 x2, 2 x4, 3 x4,
// 4 x2 (total 30 over 12 links), and counting the positions strictly inside each link, node
// loads 0 2 3 4 4 3 2 0. Fig. 4: 4 + 3 + 2 = 9 Tc.
TEST_F(EmbedCli, ByweightOnALineOfEightHasFig3sDistancesDilationsAndLoads) {
  const std::vector<std::string> args = {"embed",  "--cube", "3",        "--onto",  "line",
                                         "--dims", "8",      "--scheme", "byweight"};
  std::vector<std::string> json_args = args;
  json_args.insert(json_args.end(), {"--loads", "--json"});
  const Result r = run(json_args);
  ASSERT_EQ(r.code, sw::kExitOk) << r.err;
  const Json j = Json::parse(r.out);
  const std::vector<std::pair<std::uint32_t, std::uint32_t>> distances = {{3, 4}, {2, 3}, {1, 2}};
  ASSERT_EQ(j["distances"].size(), 3U);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(j["distances"][i]["dimension"], i);
    EXPECT_EQ(j["distances"][i]["min"], distances[i].first) << i;
    EXPECT_EQ(j["distances"][i]["max"], distances[i].second) << i;
  }
  EXPECT_FALSE(j["constant_distances"].get<bool>());
  EXPECT_EQ(j["dilation_spectrum"], (Json{{"1", 2}, {"2", 4}, {"3", 4}, {"4", 2}}));
  EXPECT_EQ(j["longest_dilation"], 4);
  EXPECT_EQ(j["total_dilation"], 30);
  EXPECT_EQ(j["loads"], (Json{0, 2, 3, 4, 4, 3, 2, 0}));
  EXPECT_EQ(j["load_max"], 4);
  EXPECT_EQ(j["load_min"], 0);
  EXPECT_EQ(j["cc_cube_time_tc"], 9);

  const Result text = run(args);
  ASSERT_EQ(text.code, sw::kExitOk) << text.err;
  EXPECT_TRUE(contains(text.out, "distances D_i (dimension: min..max):  0: 3..4  1: 2..3  2: 1..2  "
                                 "(not constant)\n"))
      << text.out;
  EXPECT_TRUE(
      contains(text.out, "  dilation spectrum (dilation: links):  1: 2  2: 4  3: 4  4: 2\n"))
      << text.out;
  EXPECT_TRUE(contains(text.out, "longest dilation 4, total dilation 30, average dilation 2.500\n"))
      << text.out;
  EXPECT_TRUE(contains(text.out, "node loads (links routed through a node): max 4, min 0, average "
                                 "2.250\n"))
      << text.out;
  EXPECT_TRUE(contains(text.out, "CC 3-cube communication time ([XOR] IV.A): 9 Tc\n")) << text.out;
  EXPECT_FALSE(contains(text.out, "load of each network node")) << text.out;
  // Constant distances print one number each: xor on the 16-ring ([XOR] Fig. 5): 1, 2, 4, 4.
  const Result xor_text =
      run({"embed", "--cube", "4", "--onto", "ring", "--dims", "16", "--scheme", "xor"});
  ASSERT_EQ(xor_text.code, sw::kExitOk) << xor_text.err;
  EXPECT_TRUE(contains(xor_text.out, "(dimension: min..max):  0: 1  1: 2  2: 4  3: 4  (constant "
                                     "distances)\n"))
      << xor_text.out;
}

// xor on the 16x16 torus: each axis is Fig. 5's 16-ring (distances 1, 2, 4, 4 through the
// wrap-around links), and [XOR] Table I gives its loads: min 6, max 8.
TEST_F(EmbedCli, XorOnATorusUsesTheWrapAroundLinksAndHasTableOnesLoads) {
  const Result r = run(
      {"embed", "--cube", "8", "--onto", "torus", "--dims", "16x16", "--scheme", "xor", "--json"});
  ASSERT_EQ(r.code, sw::kExitOk) << r.err;
  const Json j = Json::parse(r.out);
  const std::vector<std::uint32_t> distance = {1, 2, 4, 4, 1, 2, 4, 4};
  ASSERT_EQ(j["distances"].size(), 8U);
  for (std::size_t i = 0; i < 8; ++i) {
    EXPECT_EQ(j["distances"][i]["min"], distance[i]) << i;
    EXPECT_EQ(j["distances"][i]["max"], distance[i]) << i;
  }
  EXPECT_TRUE(j["constant_distances"].get<bool>());
  EXPECT_EQ(j["load_min"], 6);
  EXPECT_EQ(j["load_max"], 8);
  EXPECT_EQ(j["dims"], "16x16");
  // The largest hypercube: the identity scheme maps every link to one of its own.
  const Result cube =
      run({"embed", "--cube", "10", "--onto", "hypercube", "--scheme", "identity", "--json"});
  ASSERT_EQ(cube.code, sw::kExitOk) << cube.err;
  EXPECT_EQ(Json::parse(cube.out)["dilation_spectrum"], (Json{{"1", 10 * 512}}));
}

// The largest cube, 2^16 nodes, on the 256x256 torus by std: dimensions 0..7 on one axis and
// 8..15 on the other, D_i = 2^(i mod 8) (2^7 = 128 is half the ring either way): average
// distance 2 (2^8 - 1) / 16 and [XOR] IV.A's time 2 (2^8 - 1) Tc.
TEST_F(EmbedCli, TheSixteenCubeIsTakenOntoATorusOf65536Nodes) {
  const Result r = run({"embed", "--cube", "16", "--onto", "torus", "--dims", "256x256", "--scheme",
                        "std", "--json"});
  ASSERT_EQ(r.code, sw::kExitOk) << r.err;
  const Json j = Json::parse(r.out);
  EXPECT_EQ(j["cube"], 16);
  EXPECT_TRUE(j["constant_distances"].get<bool>());
  EXPECT_DOUBLE_EQ(j["average_dilation"].get<double>(), 2.0 * 255.0 / 16.0);
  EXPECT_EQ(j["cc_cube_time_tc"], 2 * 255);
}

// The runs of --compare answer 400, 300 and 350 cycles; each stage computes 5 cycles, so the
// communication is the cycles less 4 x 5. A run that loses a word fails the command.
TEST_F(EmbedCli, CompareReportsEachRunsCommunicationAndFailsOnALostWord) {
  const std::vector<std::uint64_t> cycles = {400, 300, 350};
  const std::vector<std::string> args = {"embed",     "--compare", "--cube",    "4",
                                         "--onto",    "ring",      "--dims",    "16",
                                         "--compute", "5",         "--startup", "3"};
  std::vector<std::string> json_args = args;
  json_args.push_back("--json");
  ScriptedRunner timed(
      [&](std::size_t k, sw::NetworkRunSummary& s) { s.cycles = sw::Cycle{cycles.at(k)}; });
  const Result r = run(json_args, timed);
  ASSERT_EQ(r.code, sw::kExitOk) << r.err;
  const Json j = Json::parse(r.out);
  EXPECT_EQ(j["startup"], 3);
  EXPECT_EQ(j["compute"], 5);
  ASSERT_EQ(j["runs"].size(), 3U);
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(j["runs"][k]["cycles"], cycles[k]);
    EXPECT_EQ(j["runs"][k]["communication_cycles"], cycles[k] - 4 * 5);
    EXPECT_EQ(j["runs"][k]["max_channel_contention"], FakeRunner::kConflicts);
    EXPECT_TRUE(j["runs"][k]["delivered"].get<bool>());
  }
  EXPECT_DOUBLE_EQ(j["std_xor_communication_ratio"].get<double>(), 380.0 / 280.0);
  ScriptedRunner again(
      [&](std::size_t k, sw::NetworkRunSummary& s) { s.cycles = sw::Cycle{cycles.at(k)}; });
  const Result text = run(args, again);
  ASSERT_EQ(text.code, sw::kExitOk) << text.err;
  EXPECT_TRUE(contains(text.out, "emulated communication 1.357\n")) << text.out;
  for (const Json& each : j["runs"]) {
    const std::string scheme = each["scheme"];
    const std::size_t at = text.out.find("\n  " + scheme + " ");
    ASSERT_NE(at, std::string::npos) << scheme << "\n" << text.out;
    std::istringstream row(text.out.substr(at + 3, text.out.find('\n', at + 1) - at - 3));
    std::string name, predicted, delivered;
    double distance = 0;
    std::uint64_t longest = 0, load = 0, tc = 0, emulated = 0, communication = 0;
    row >> name >> distance >> longest >> load >> tc >> predicted >> emulated >> communication >>
        delivered;
    EXPECT_NEAR(distance, each["average_dilation"].get<double>(), 0.0005) << scheme;
    EXPECT_EQ(longest, each["longest_dilation"]) << scheme;
    EXPECT_EQ(load, each["load_max"]) << scheme;
    EXPECT_EQ(tc, each["cc_cube_time_tc"]) << scheme;
    EXPECT_EQ(predicted, each["predicted_cycles"].dump()) << scheme;
    EXPECT_EQ(emulated, each["cycles"]) << scheme;
    EXPECT_EQ(communication, each["communication_cycles"]) << scheme;
    EXPECT_EQ(delivered, "yes") << scheme;
  }

  // A word lost by any of the three runs fails the comparison (the first run's as the last's).
  for (const std::size_t at_fault : {std::size_t{0}, std::size_t{2}}) {
    for (const bool json : {true, false}) {
      ScriptedRunner lost([&](std::size_t k, sw::NetworkRunSummary& s) {
        s.cycles = sw::Cycle{cycles.at(k)};
        if (k == at_fault) {
          lose_a_word(s);
        }
      });
      const Result l = run(json ? json_args : args, lost);
      EXPECT_EQ(l.code, sw::kExitRunFailed) << at_fault << l.out;
      if (json) {
        EXPECT_FALSE(Json::parse(l.out)["runs"][at_fault]["delivered"].get<bool>());
      } else {
        EXPECT_TRUE(contains(l.out, "NO\n")) << l.out;
      }
    }
  }
  // One word per exchange is singular in the text's headline, two plural.
  ScriptedRunner one_word(
      [&](std::size_t k, sw::NetworkRunSummary& s) { s.cycles = sw::Cycle{cycles.at(k)}; });
  EXPECT_TRUE(contains(run(args, one_word).out, ", 1 word per exchange,"));
  std::vector<std::string> two = args;
  two.insert(two.end(), {"--len", "2"});
  ScriptedRunner two_words(
      [&](std::size_t k, sw::NetworkRunSummary& s) { s.cycles = sw::Cycle{cycles.at(k)}; });
  EXPECT_TRUE(contains(run(two, two_words).out, ", 2 words per exchange,"));
}

TEST_F(EmbedCli, CompareBuildsTheNetworkOfTheOptions) {
  // Store-and-forward buffers hold the whole packet, 20 words + the header, unless --buffers
  // says otherwise.
  for (const bool buffers : {false, true}) {
    FakeRunner runner;
    std::vector<std::string> args = {"embed",     "--compare", "--cube",      "3",     "--onto",
                                     "line",      "--dims",    "8",           "--len", "20",
                                     "--compute", "0",         "--switching", "saf",   "--json"};
    if (buffers) {
      args.insert(args.end(), {"--buffers", "4"});
    }
    const Result r = run(args, runner);
    ASSERT_EQ(r.code, sw::kExitOk) << r.err;
    ASSERT_EQ(runner.network_requests.size(), 3U);
    const sw::NetworkConfig& config = *runner.network_requests[0].config;
    EXPECT_EQ(config.router.buffer_flits, buffers ? 4U : 21U);
    EXPECT_EQ(config.topology, sw::Topology::mesh({8}));
    EXPECT_EQ(config.router.vcs, 1U);  // a line is a mesh: one virtual channel by default
  }
  // A packet longer than 1024 flits gets the largest buffer a router takes, 1024 flits.
  FakeRunner long_packets;
  const Result l = run({"embed", "--compare", "--cube", "3", "--onto", "line", "--dims", "8",
                        "--len", "5000", "--switching", "saf", "--json"},
                       long_packets);
  ASSERT_EQ(l.code, sw::kExitOk) << l.err;
  ASSERT_FALSE(long_packets.network_requests.empty());
  EXPECT_EQ(long_packets.network_requests[0].config->router.buffer_flits, 1024U);
  // Stage s of the CC-cube crosses dimension s: std keeps cube node n on line node n, so the
  // first 8 messages of the program join n and n xor 1.
  FakeRunner runner;
  const Result r =
      run({"embed", "--compare", "--cube", "3", "--onto", "line", "--dims", "8"}, runner);
  ASSERT_EQ(r.code, sw::kExitOk) << r.err;
  const std::vector<sw::Message>& messages = runner.network_requests[0].program.manifest.messages;
  ASSERT_EQ(messages.size(), 3U * 8U);
  for (std::size_t k = 0; k < messages.size(); ++k) {
    EXPECT_EQ(messages[k].source ^ messages[k].destination, 1U << (k / 8)) << k;
  }
  // A message of several packets has no lone-message time: no prediction.
  FakeRunner packets;
  const Result p = run({"embed", "--compare", "--cube", "3", "--onto", "line", "--dims", "8",
                        "--len", "8", "--packet-flits", "4", "--json"},
                       packets);
  ASSERT_EQ(p.code, sw::kExitOk) << p.err;
  const Json runs = Json::parse(p.out)["runs"];
  ASSERT_FALSE(runs.empty());
  for (const Json& each : runs) {
    EXPECT_TRUE(each["predicted_cycles"].is_null()) << each.dump();
  }
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

// The largest cube a .mcp program holds, d = 12: 4096 nodes, one step per dimension of 4096
// sends, each step's first send from node 0 across its dimension. The 13-cube is refused: no
// command reads a program of 8192 nodes.
TEST_F(EmbedCli, GenCcCubeTakesTheTwelveCubeTheLargestAProgramHolds) {
  const Result refused = run({"gen", "cc-cube", "--dim", "13"});
  EXPECT_EQ(refused.code, sw::kExitBadInput);
  EXPECT_TRUE(contains(refused.err, "--dim: expected a program of at most 4096 nodes"))
      << refused.err;
  const Result r = run({"gen", "cc-cube", "--dim", "12"});
  ASSERT_EQ(r.code, sw::kExitOk) << r.err;
  EXPECT_TRUE(contains(r.out, "\nnodes 4096\n")) << r.out.substr(0, 400);
  std::size_t steps = 0;
  std::size_t sends = 0;
  for (std::size_t at = r.out.find('\n'); at != std::string::npos; at = r.out.find('\n', at + 1)) {
    if (r.out.compare(at + 1, 5, "step ") == 0) {
      const std::size_t first = r.out.find('\n', at + 1) + 1;
      EXPECT_EQ(r.out.substr(first, r.out.find('\n', first) - first),
                "  send 0 -> " + std::to_string(1U << steps));
      ++steps;
    } else if (r.out.compare(at + 1, 7, "  send ") == 0) {
      ++sends;
    }
  }
  EXPECT_EQ(steps, 12U);
  EXPECT_EQ(sends, 12U * 4096U);
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
      {{"embed", "--cube", "0", "--onto", "ring", "--dims", "16", "--scheme", "std"},
       {"--cube", "1..16", "'0'"}},
      {{"embed", "--cube", "17", "--onto", "torus", "--dims", "512x256", "--scheme", "std"},
       {"--cube", "1..16", "'17'"}},
      {{"embed", "--compare", "--cube", "4", "--onto", "ring", "--dims", "16", "--len", "0"},
       {"--len", "'0'"}},
      {{"embed", "--cube", "4", "--onto", "ring", "--dims", "16"}, {"--scheme", "required"}},
      {{"embed", "--table1", "--cube", "4"}, {"--cube", "embed --table1"}},
      {{"embed", "--table1", "--compare"}, {"--table1", "not both"}},
      {{"embed", "--cube", "4", "--onto", "ring", "--dims", "16", "--scheme", "std", "--len", "2"},
       {"--len", "embed --compare"}},
      {{"embed", "--compare", "--cube", "4", "--onto", "ring", "--dims", "16", "--scheme", "std"},
       {"--scheme"}},
      {{"embed", "--compare", "--cube", "4", "--onto", "hypercube"}, {"--onto", "hypercube"}},
      {{"embed", "--cube", "11", "--onto", "hypercube", "--scheme", "identity"},
       {"--cube", "at most 10", "11"}},
      {{"embed", "--cube", "4", "--onto", "hypercube", "--dims", "16", "--scheme", "identity"},
       {"--dims", "no --dims onto a hypercube"}},
      {{"embed", "--cube", "4", "--onto", "ring", "--dims", "4x4", "--scheme", "std"},
       {"--dims", "one radix for a ring"}},
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
