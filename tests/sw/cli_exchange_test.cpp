// `orthosim gen complete-exchange` and `orthosim exchange` (sw/cli/exchange_command.cpp) against
// a fake Runner: the program read back by the parser against [A2A] section 3.1's message sizes,
// the networks the command asks for, Table 1's formulas in the JSON, and bad input refused
// before anything runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "sw/cli/cli.hpp"
#include "sw/program/parser.hpp"
#include "tests/support/cli_harness.hpp"

namespace orthosim {
namespace {

using namespace cli_test;

std::uint32_t largest_words(const sw::ProgramStep& step) {
  std::uint32_t out = 0;
  for (const sw::Transfer& t : step.transfers) {
    out = std::max(out, t.words);
  }
  return out;
}

TEST(CliExchange, GenWritesA1sStepsWithSection3sMessageSizesTimesTheBlock) {
  const std::uint32_t n = 8;
  const std::uint32_t b = 3;
  const std::uint32_t r = 5;
  const Result out = run({"gen", "complete-exchange", "--torus", "8x8", "--algorithm", "a1",
                          "--block", std::to_string(b), "--rearrange-cycles", std::to_string(r)});
  ASSERT_EQ(out.code, 0) << out.err;
  const sw::McProgram p = sw::parse_program(out.out, "a1.mcp");
  EXPECT_EQ(p.nodes, n * n);
  ASSERT_EQ(p.steps.size(), n / 4 + 5);  // Table 1's start-ups
  // Stage 1: N^2/2 then N^2 blocks; stage 2 (phases 3 and 4 at N = 8): N^2 per step; stage 3:
  // N^2 - 1 (no block for oneself).
  const std::vector<std::uint32_t> blocks = {n * n / 2, n * n, n * n,    n * n,
                                             n * n,     n * n, n * n - 1};
  for (std::size_t k = 0; k < blocks.size(); ++k) {
    EXPECT_EQ(largest_words(p.steps[k]), blocks[k] * b) << "step " << k;
  }
  // Stage 1 step 1: every node trades half its blocks with its row neighbour in the cell: the
  // master P_{0,0} gathers the N^2/2 for odd rows, the slave P_{0,1} the N^2/2 - 1 for even rows
  // but itself; R cycles each. Step 2: the slaves send all they hold, nothing to gather.
  ASSERT_EQ(p.steps[0].transfers.size(), n * n);
  std::vector<std::uint64_t> compute(n * n, 0);
  for (const sw::ComputePhase& c : p.steps[0].computes) {
    compute.at(c.node) = c.cycles.count();
  }
  EXPECT_EQ(compute[0], std::uint64_t{r} * (n * n / 2));
  EXPECT_EQ(compute[1], std::uint64_t{r} * (n * n / 2 - 1));
  EXPECT_TRUE(p.steps[1].computes.empty());
  EXPECT_EQ(p.steps[1].transfers.size(), n * n / 2);  // slaves to masters only
}

TEST(CliExchange, ExchangeRunsEveryAlgorithmOnTheOnePortTorusWithTable1BesideIt) {
  FakeRunner runner;
  const std::uint64_t n = 4, b = 2, s = 30, r = 1;
  const Result out = run({"exchange", "--torus", "4x4", "--block", "2", "--startup", "30",
                          "--rearrange-cycles", "1", "--json"},
                         runner);
  ASSERT_EQ(out.code, 0) << out.err;
  ASSERT_EQ(runner.network_requests.size(), 5u);
  for (const sw::NetworkRunRequest& req : runner.network_requests) {
    EXPECT_EQ(req.config->topology, sw::Topology::torus({4, 4}));
    EXPECT_EQ(req.config->ni.ports, sw::NodePorts::One);
    EXPECT_EQ(req.config->ni.startup, s);
  }
  const nlohmann::json j = nlohmann::json::parse(out.out);
  EXPECT_EQ(j.at("command"), "exchange");
  const nlohmann::json& list = j.at("algorithms");
  ASSERT_EQ(list.size(), 5u);
  // Table 1 at N = 4 (log N = 2): A1 N/4 + 5, A(n-1) 3 log N - 1, [6] N/2 + 2 start-ups.
  const std::vector<std::string> names = {"a1", "an-1", "suh", "two-phase", "direct"};
  const std::vector<std::uint64_t> steps = {5, 5, 4, 2 * (n - 1), n * n - 1};
  const std::vector<double> table1_steps = {n / 4.0 + 5, 3 * 2 - 1, n / 2.0 + 2};
  const std::vector<double> table1_transmission = {(n * n * n + 10.0 * n * n) / 4,
                                                   2.0 * n * n * n - 2.0 * n * n,
                                                   (n * n * n + 4.0 * n * n) / 4};
  const std::vector<double> table1_rearrangement = {10.0 * n * n, 4.0 * n * n * 2 - (2 - 1),
                                                    3.0 * n * n};
  for (std::size_t k = 0; k < names.size(); ++k) {
    const nlohmann::json& a = list.at(k);
    EXPECT_EQ(a.at("algorithm"), names[k]);
    EXPECT_EQ(a.at("steps"), steps[k]) << names[k];
    EXPECT_EQ(a.at("blocks"), n * n * (n * n - 1));
    EXPECT_EQ(a.at("blocks_delivered"), n * n * (n * n - 1)) << names[k];
    EXPECT_TRUE(a.at("payload_ok").get<bool>());
    if (k < 3) {
      EXPECT_EQ(a.at("predicted_startups").get<double>(), table1_steps[k]) << names[k];
      EXPECT_EQ(a.at("predicted_cycles").get<std::uint64_t>(),
                static_cast<std::uint64_t>(table1_steps[k] * s + table1_transmission[k] * b +
                                           table1_rearrangement[k] * r))
          << names[k];
    } else {
      EXPECT_TRUE(a.at("predicted_startups").is_null());
      EXPECT_TRUE(a.at("predicted_cycles").is_null());
    }
  }
  // The direct exchange sends every block once; the two-phase one every block twice but those
  // for the sender's own row or column.
  EXPECT_EQ(list.at(4).at("blocks_sent"), n * n * (n * n - 1));
  EXPECT_EQ(list.at(3).at("blocks_sent"), n * n * (2 * n * (n - 1)));

  const Result one = run({"exchange", "--torus", "4x4", "--block", "1", "--algorithms", "suh,a1"});
  ASSERT_EQ(one.code, 0) << one.err;
  EXPECT_TRUE(contains(one.out, "suh")) << one.out;
  EXPECT_FALSE(contains(one.out, "two-phase")) << one.out;
}

// A1 on the 8 x 8 torus: the largest message of each step is N^2/2, then N^2 (five steps), then
// N^2 - 1 blocks (the gen test above): transmission is their sum. Every such message is gathered
// by a sender that keeps other blocks but in stage 1 step 2, where the slaves send all they hold.
TEST(CliExchange, TransmissionAndRearrangementAreA1sMessageSizesSummed) {
  const std::uint64_t n = 8;
  const Result out =
      run({"exchange", "--torus", "8x8", "--block", "1", "--algorithms", "a1", "--json"});
  ASSERT_EQ(out.code, 0) << out.err;
  const nlohmann::json a1 = nlohmann::json::parse(out.out).at("algorithms").at(0);
  const std::uint64_t transmission = n * n / 2 + 5 * n * n + (n * n - 1);
  EXPECT_EQ(a1.at("transmission_blocks"), transmission);
  EXPECT_EQ(a1.at("rearranged_blocks"), transmission - n * n);
}

// Each algorithm's row of the table holds the figures of its JSON object, and the fastest is the
// run of fewest cycles among those that delivered every word: here direct is the quickest but
// loses a word, a1 the slowest.
TEST(CliExchange, TheTableHoldsTheJsonsFiguresAndTheFastestDeliveredEveryWord) {
  const std::vector<std::uint64_t> cycles = {900, 700, 500};  // a1, suh, direct
  const auto script = [&](std::size_t k, sw::NetworkRunSummary& s) {
    s.cycles = sw::Cycle{cycles.at(k)};
    if (k == 2) {
      lose_a_word(s);
    }
  };
  const std::vector<std::string> args = {
      "exchange",           "--torus", "4x4",          "--block",      "2", "--startup", "30",
      "--rearrange-cycles", "1",       "--algorithms", "a1,suh,direct"};
  ScriptedRunner json_runner(script);
  std::vector<std::string> json_args = args;
  json_args.push_back("--json");
  const Result j = run(json_args, json_runner);
  EXPECT_EQ(j.code, sw::kExitRunFailed) << j.err;
  const nlohmann::json report = nlohmann::json::parse(j.out);
  EXPECT_EQ(report.at("fastest"), "suh");
  EXPECT_EQ(report.at("block_words"), 2u);
  EXPECT_EQ(report.at("startup"), 30u);
  EXPECT_EQ(report.at("rearrange_cycles"), 1u);
  EXPECT_FALSE(report.at("algorithms").at(2).at("payload_ok").get<bool>());

  ScriptedRunner text_runner(script);
  const Result t = run(args, text_runner);
  EXPECT_EQ(t.code, sw::kExitRunFailed) << t.err;
  EXPECT_TRUE(contains(t.out, "\nfastest: suh (700 cycles)\n")) << t.out;
  for (const nlohmann::json& a : report.at("algorithms")) {
    const std::string name = a.at("algorithm");
    const std::size_t at = t.out.find("\n" + name + " ");
    ASSERT_NE(at, std::string::npos) << name << "\n" << t.out;
    std::istringstream row(t.out.substr(at + 1, t.out.find('\n', at + 1) - at - 1));
    std::string shown_name, table1_startups, table1_cycles, delivered;
    std::uint64_t steps = 0, transmission = 0, link = 0, sent = 0, zero_load = 0, run_cycles = 0;
    row >> shown_name >> steps;
    if (!a.at("predicted_startups").is_null()) {
      row >> table1_startups;
      std::ostringstream predicted;
      predicted << "(" << a.at("predicted_startups").get<double>() << ")";
      EXPECT_EQ(table1_startups, predicted.str()) << name;
    }
    row >> transmission >> link >> sent >> zero_load >> run_cycles >> table1_cycles >> delivered;
    EXPECT_EQ(steps, a.at("steps")) << name;
    EXPECT_EQ(transmission, a.at("transmission_blocks")) << name;
    EXPECT_EQ(link, a.at("max_link_load")) << name;
    EXPECT_EQ(sent, a.at("blocks_sent")) << name;
    EXPECT_EQ(zero_load, a.at("zero_load_cycles")) << name;
    EXPECT_EQ(run_cycles, a.at("cycles")) << name;
    EXPECT_EQ(table1_cycles,
              a.at("predicted_cycles").is_null() ? "-" : a.at("predicted_cycles").dump())
        << name;
    EXPECT_EQ(delivered, a.at("blocks_delivered").dump() + "/" + a.at("blocks").dump() + ",")
        << name;
    EXPECT_EQ(contains(row.str(), "PAYLOAD LOST"), name == "direct") << row.str();
  }
}

// Of algorithms with the least time the first listed is the fastest, in JSON and in text; the
// JSON names the torus N x N.
TEST(CliExchange, OfEquallyFastAlgorithmsTheFirstListedIsTheFastest) {
  const auto same = [](std::size_t, sw::NetworkRunSummary& s) { s.cycles = sw::Cycle{600}; };
  for (const char* list : {"suh,a1,direct", "direct,suh"}) {
    SCOPED_TRACE(list);
    const std::string first = std::string(list).substr(0, std::string(list).find(','));
    ScriptedRunner json_runner(same);
    const Result j =
        run({"exchange", "--torus", "4x4", "--block", "2", "--algorithms", list, "--json"},
            json_runner);
    ASSERT_EQ(j.code, 0) << j.err;
    const nlohmann::json report = nlohmann::json::parse(j.out);
    EXPECT_EQ(report.at("fastest"), first);
    EXPECT_EQ(report.at("torus"), "4x4");
    ScriptedRunner text_runner(same);
    const Result t =
        run({"exchange", "--torus", "4x4", "--block", "2", "--algorithms", list}, text_runner);
    EXPECT_TRUE(contains(t.out, "\nfastest: " + first + " (600 cycles)\n")) << t.out;
  }
}

// A1's largest message on the 8 x 8 torus carries N^2 = 64 blocks and a .mcp message at most
// 2^20 words: a block of 2^20 / 64 = 16384 words is the largest taken; 0 start-up and
// rearrangement cycles are the defaults, and may be given.
TEST(CliExchange, EachOptionIsTakenAtItsBounds) {
  const Result r = run({"exchange", "--torus", "8x8", "--block", "16384", "--startup", "0",
                        "--rearrange-cycles", "0", "--algorithms", "a1", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out).at("block_words"), 16384u);
  const Result gen =
      run({"gen", "complete-exchange", "--torus", "8x8", "--algorithm", "a1", "--block", "16384"});
  ASSERT_EQ(gen.code, 0) << gen.err;
  EXPECT_EQ(largest_words(sw::parse_program(gen.out, "a1.mcp").steps.at(1)), 64u * 16384u);
}

TEST(CliExchange, BadInputIsRefusedBeforeAnythingRuns) {
  expect_refused_before_running({
      {{"exchange", "--block", "2"}, {"--torus", "required"}},
      {{"exchange", "--torus", "6x6", "--block", "2"}, {"--torus", "power of two", "6x6"}},
      {{"exchange", "--torus", "8x4", "--block", "2"}, {"--torus", "N x N"}},
      {{"exchange", "--torus", "64x64", "--block", "2"}, {"--torus", "4 to 32"}},
      {{"exchange", "--torus", "8", "--block", "2"}, {"--torus", "'8'"}},
      {{"exchange", "--torus", "2x2", "--block", "2"}, {"--torus", "4 to 32", "'2x2'"}},
      {{"exchange", "--torus", "4x4", "--block", "2", "--algorithms", ""},
       {"--algorithms", "an empty list"}},
      {{"gen", "complete-exchange", "--torus", "8x8", "--algorithm", "a1", "--block", "16385"},
       {"--block", "at most 16384 words", "64 blocks"}},
      {{"exchange", "--torus", "4x4"}, {"--block", "required"}},
      {{"exchange", "--torus", "4x4", "--block", "0"}, {"--block"}},
      {{"exchange", "--torus", "4x4", "--block", "2", "--startup", "x"}, {"--startup"}},
      {{"exchange", "--torus", "4x4", "--block", "2", "--algorithms", "a1,bogus"},
       {"--algorithms", "'bogus'", "two-phase"}},
      {{"exchange", "--torus", "4x4", "--block", "2", "--algorithms", "a1,a1"},
       {"--algorithms", "once"}},
      // Every item of the list is an algorithm: an empty one (a trailing comma) too, as
      // --rates, --sources and --collapse refuse theirs.
      {{"exchange", "--torus", "4x4", "--block", "2", "--algorithms", "a1,"},
       {"orthosim exchange: --algorithms: expected a1 | an-1 | suh | two-phase | direct, found "
        "''"}},
      {{"exchange", "--torus", "4x4", "--block", "2", "--algorithms", "a1,,suh"},
       {"--algorithms", "found ''"}},
      // A side outside 4..32 reads as the form, not as parse_count's range of digits.
      {{"exchange", "--torus", "0x0", "--block", "2"},
       {"orthosim exchange: --torus: expected N x N with N a power of two from 4 to 32, e.g. 8x8, "
        "found '0x0'"}},
      {{"exchange", "--torus", "99999999999999999999999x4", "--block", "2"},
       {"--torus: expected N x N with N a power of two", "found '99999999999999999999999x4'"}},
      {{"exchange", "--torus", "4x4", "--block", "2", "--rearrange-cycles", "-1"},
       {"--rearrange-cycles"}},
      {{"exchange", "--torus", "8x8", "--block", "1000000", "--algorithms", "a1"},
       {"--block", "at most 16384 words", "64 blocks"}},
      {{"gen", "complete-exchange", "--torus", "4x4", "--block", "2"}, {"--algorithm", "required"}},
      {{"gen", "complete-exchange", "--torus", "4x4", "--algorithm", "a2", "--block", "2"},
       {"--algorithm", "'a2'"}},
      {{"gen", "complete-exchange", "--algorithm", "a1", "--block", "2"}, {"--torus"}},
      {{"gen", "complete-exchange", "--torus", "4x4", "--algorithm", "a1"}, {"--block"}},
      {{"gen", "complete-exchange", "--torus", "4x4", "--algorithm", "a1", "--block", "2",
        "--nodes", "16"},
       {"--nodes", "complete-exchange"}},
      {{"gen", "shift", "--torus", "4x4", "--direction", "east", "--algorithm", "a1"},
       {"--algorithm", "gen shift"}},
      {{"gen", "C7", "--nodes", "4", "--block", "2"}, {"--block", "gen complete-exchange"}},
      {{"gen", "complete-exchange", "--torus", "4x4", "--algorithm", "a1", "--block", "2", "--len",
        "3"},
       {"--len", "--block"}},
  });
}

}  // namespace
}  // namespace orthosim
