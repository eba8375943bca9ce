// `orthosim gen` (sw/cli): every Table 1 pattern of [PH91] written as a program that parses back
// as that pattern with Table 1's message counts; random programs; --out.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "sw/cli/cli.hpp"
#include "sw/pattern/pattern.hpp"
#include "sw/program/parser.hpp"
#include "sw/program/program.hpp"
#include "tests/support/cli_harness.hpp"

namespace orthosim {
namespace {

using namespace cli_test;

/// What Table 1 says of a pattern over m nodes; sr / ds are the counts found (C8-C12).
struct Table1Row {
  bool broadcast;
  std::size_t sources, destinations, messages;
};

Table1Row table1(sw::Pattern p, std::size_t m, std::size_t sr, std::size_t ds) {
  using P = sw::Pattern;
  switch (p) {
    case P::C1:
      return {false, 1, 1, 1};
    case P::C2:
      return {false, m, m, m};
    case P::C3:
      return {true, 1, m - 1, m - 1};
    case P::C4:
      return {false, 1, m - 1, m - 1};
    case P::C5:
      return {false, m - 1, 1, m - 1};
    case P::C6:
      return {true, m, m, m * (m - 1)};
    case P::C7:
      return {false, m, m, m * (m - 1)};
    case P::C8:
      return {true, 1, ds, ds};
    case P::C9:
      return {false, 1, ds, ds};
    case P::C10:
      return {false, sr, 1, sr};
    case P::C11:
      return {true, sr, ds, sr * ds};
    case P::C12:
      return {false, sr, ds, sr * ds};
  }
  return {};
}

/// Parses what `gen` wrote and checks it is one step of pattern p with Table 1's counts.
void expect_pattern(const std::string& text, sw::Pattern p, std::uint32_t m, std::uint32_t words,
                    const std::string& what) {
  sw::McProgram program;
  ASSERT_NO_THROW(program = sw::parse_program(text, "gen.mcp")) << what << "\n" << text;
  EXPECT_EQ(program.nodes, m) << what;
  ASSERT_EQ(program.steps.size(), 1u) << what;
  const sw::ProgramStep& step = program.steps[0];
  const std::vector<sw::PatternInstance> found = sw::classify(step.transfers, m);
  ASSERT_EQ(found.size(), 1u) << what << "\n" << text;
  EXPECT_EQ(found[0].pattern, p) << what << "\n" << text;
  const std::vector<sw::NodeMessage> messages = sw::messages_of(step, 0);
  std::set<std::uint32_t> sources, destinations;
  for (const sw::NodeMessage& msg : messages) {
    sources.insert(msg.source);
    destinations.insert(msg.destination);
    EXPECT_EQ(msg.words, words) << what;
    EXPECT_NE(msg.source, msg.destination) << what;
  }
  const std::size_t sr = sources.size();
  const std::size_t ds = destinations.size();
  const Table1Row row = table1(p, m, sr, ds);
  EXPECT_EQ(sr, row.sources) << what << "\n" << text;
  EXPECT_EQ(ds, row.destinations) << what << "\n" << text;
  EXPECT_EQ(messages.size(), row.messages) << what << "\n" << text;
  for (const sw::NodeMessage& msg : messages) {
    EXPECT_EQ(msg.broadcast, row.broadcast) << what << "\n" << text;
  }
  if (p >= sw::Pattern::C8) {  // Table 1: 1 < sr, ds < m - 1
    if (p != sw::Pattern::C8 && p != sw::Pattern::C9) {
      EXPECT_GT(sr, 1u) << what;
      EXPECT_LT(sr, m - 1u) << what;
    }
    if (p != sw::Pattern::C10) {
      EXPECT_GT(ds, 1u) << what;
      EXPECT_LT(ds, m - 1u) << what;
    }
  }
}

TEST_F(CliProgram, GenWritesEachTable1PatternAndItParsesBackAsThatPattern) {
  for (int i = 1; i <= 12; ++i) {
    const auto p = static_cast<sw::Pattern>(i);
    for (std::uint32_t m : {4u, 5u, 7u}) {
      for (const std::string seed : {"1", "7", "123"}) {
        const std::vector<std::string> args = {"gen",     "C" + std::to_string(i),
                                               "--nodes", std::to_string(m),
                                               "--len",   "3",
                                               "--seed",  seed};
        FakeRunner runner;
        const Result r = run(args, runner);
        ASSERT_EQ(r.code, sw::kExitOk) << joined(args) << "\n" << r.err;
        EXPECT_EQ(r.err, "") << joined(args);
        EXPECT_TRUE(runner.program_requests.empty());
        expect_pattern(r.out, p, m, 3, joined(args));
        // The same arguments give the same program.
        EXPECT_EQ(run(args).out, r.out) << joined(args);
      }
    }
  }
}

TEST_F(CliProgram, GenAcceptsTheTable1Names) {
  const std::vector<std::pair<std::string, sw::Pattern>> names = {
      {"one-to-one", sw::Pattern::C1},
      {"permutation", sw::Pattern::C2},
      {"one-to-all-broadcast", sw::Pattern::C3},
      {"one-to-all-personalized", sw::Pattern::C4},
      {"all-to-one", sw::Pattern::C5},
      {"all-to-all-broadcast", sw::Pattern::C6},
      {"all-to-all-personalized", sw::Pattern::C7},
      {"one-to-many-broadcast", sw::Pattern::C8},
      {"one-to-many-personalized", sw::Pattern::C9},
      {"many-to-one", sw::Pattern::C10},
      {"many-to-many-broadcast", sw::Pattern::C11},
      {"many-to-many-personalized", sw::Pattern::C12}};
  for (const auto& [name, p] : names) {
    const Result r = run({"gen", name, "--nodes", "6"});
    ASSERT_EQ(r.code, sw::kExitOk) << name << "\n" << r.err;
    expect_pattern(r.out, p, 6, 1, name);
  }
}

TEST_F(CliProgram, GenUsesTheGivenSourcesAndDestinations) {
  struct Case {
    std::vector<std::string> args;
    sw::Pattern pattern;
    std::uint32_t m;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> messages;
  };
  const std::vector<Case> cases = {
      {{"gen", "C1", "--nodes", "5", "--sources", "3", "--dests", "1"},
       sw::Pattern::C1,
       5,
       {{3, 1}}},
      {{"gen", "C12", "--nodes", "6", "--sources", "1,2", "--dests", "3,4"},
       sw::Pattern::C12,
       6,
       {{1, 3}, {1, 4}, {2, 3}, {2, 4}}},
      {{"gen", "C11", "--nodes", "6", "--sources", "0,5", "--dests", "2,3"},
       sw::Pattern::C11,
       6,
       {{0, 2}, {0, 3}, {5, 2}, {5, 3}}},
      {{"gen", "C10", "--nodes", "6", "--sources", "1,2,3", "--dests", "0"},
       sw::Pattern::C10,
       6,
       {{1, 0}, {2, 0}, {3, 0}}},
      {{"gen", "C8", "--nodes", "6", "--sources", "4", "--dests", "5,1,3"},
       sw::Pattern::C8,
       6,
       {{4, 1}, {4, 3}, {4, 5}}},
      {{"gen", "C5", "--nodes", "4", "--dests", "2"}, sw::Pattern::C5, 4, {{0, 2}, {1, 2}, {3, 2}}},
  };
  for (const Case& c : cases) {
    const Result r = run(c.args);
    ASSERT_EQ(r.code, sw::kExitOk) << joined(c.args) << "\n" << r.err;
    expect_pattern(r.out, c.pattern, c.m, 1, joined(c.args));
    const sw::McProgram program = sw::parse_program(r.out, "gen.mcp");
    std::vector<std::pair<std::uint32_t, std::uint32_t>> got;
    for (const sw::NodeMessage& msg : sw::messages_of(program.steps.at(0), 0)) {
      got.emplace_back(msg.source, msg.destination);
    }
    std::sort(got.begin(), got.end());
    EXPECT_EQ(got, c.messages) << joined(c.args) << "\n" << r.out;
  }
}

TEST_F(CliProgram, GenRandomWritesValidProgramsDeterministically) {
  for (std::uint32_t m : {2u, 3u, 8u}) {
    for (std::uint32_t seed = 1; seed <= 10; ++seed) {
      const std::vector<std::string> args = {"gen",     "random",
                                             "--nodes", std::to_string(m),
                                             "--steps", "6",
                                             "--len",   "5",
                                             "--seed",  std::to_string(seed)};
      const Result r = run(args);
      ASSERT_EQ(r.code, sw::kExitOk) << joined(args) << "\n" << r.err;
      EXPECT_EQ(run(args).out, r.out) << joined(args);
      // The parser enforces the per-step rules: parsing is the validity check.
      sw::McProgram program;
      ASSERT_NO_THROW(program = sw::parse_program(r.out, "random.mcp")) << r.out;
      EXPECT_EQ(program.nodes, m);
      ASSERT_EQ(program.steps.size(), 6u) << r.out;
      for (std::uint32_t k = 0; k < 6; ++k) {
        const std::vector<sw::NodeMessage> msgs = sw::messages_of(program.steps[k], k);
        EXPECT_FALSE(msgs.empty()) << joined(args) << " step " << k + 1;
        for (const sw::NodeMessage& msg : msgs) {
          EXPECT_GE(msg.words, 1u);
          EXPECT_LE(msg.words, 5u) << joined(args);
        }
      }
    }
  }
}

TEST_F(CliProgram, GenSeedTakesEverySixtyFourBitValueAndNothingBeyond) {
  const auto gen = [](const std::string& seed) {
    return run({"gen", "random", "--nodes", "4", "--steps", "2", "--seed", seed});
  };
  const Result largest = gen("18446744073709551615");  // 2^64 - 1
  ASSERT_EQ(largest.code, sw::kExitOk) << largest.err;
  EXPECT_NO_THROW((void)sw::parse_program(largest.out, "random.mcp")) << largest.out;
  // A different seed gives a different program: the seed is taken whole, not clipped.
  EXPECT_NE(gen("18446744073709551614").out, largest.out);
  const Result beyond = gen("18446744073709551616");  // 2^64
  EXPECT_EQ(beyond.code, sw::kExitBadInput);
  EXPECT_NE(beyond.err.find("--seed"), std::string::npos) << beyond.err;
}

TEST_F(CliProgram, GenOutWritesTheSameTextToTheFileAndNothingToStdout) {
  const std::vector<std::string> args = {"gen", "C4", "--nodes", "5", "--len", "2", "--seed", "4"};
  const Result to_stdout = run(args);
  ASSERT_EQ(to_stdout.code, sw::kExitOk) << to_stdout.err;
  ASSERT_FALSE(to_stdout.out.empty());
  const std::string target = path("c4.mcp");
  for (int round = 0; round < 2; ++round) {  // the second one replaces the file
    std::vector<std::string> with_out = args;
    with_out.push_back("--out");
    with_out.push_back(target);
    const Result r = run(with_out);
    ASSERT_EQ(r.code, sw::kExitOk) << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "");
    EXPECT_EQ(slurp(target), to_stdout.out);
    EXPECT_FALSE(fs::exists(target + ".partial"));
  }
  const sw::McProgram program = sw::read_program_file(target);
  EXPECT_EQ(program.name, "c4");
  EXPECT_EQ(program.nodes, 5u);
}

// `gen fft`: [LCC] section 6.2's program with the nCUBE 2 costs, each overridden by its option;
// its step count and sizes are parallel_fft_test's, here the options that reach them.
TEST_F(CliProgram, GenFftWritesTheParallelFftWithTheMachinesOrTheGivenCosts) {
  const Result r = run({"gen", "fft", "--dim", "4", "--points", "1024"});
  ASSERT_EQ(r.code, sw::kExitOk) << r.err;
  const sw::McProgram p = sw::parse_program(r.out, "fft.mcp");
  EXPECT_EQ(p.nodes, 16u);
  ASSERT_EQ(p.steps.size(), 2u * 4u + 3u);
  // m/2^n = 64 inputs of 16 bytes a message; d = 3 local stages of 32 butterflies of 9 cycles.
  EXPECT_EQ(p.steps[0].transfers.front().words, 64u * 16u);
  EXPECT_EQ(p.steps[1].computes.front().cycles.count(), 3u * 32u * 9u);
  EXPECT_EQ(p.steps[3].computes.front().cycles.count(), 64u * 8u);
  EXPECT_NE(r.out.find("--startup 288 --clock-ns 570"), std::string::npos) << r.out;
  EXPECT_EQ(run({"gen", "fft", "--dim", "4", "--points", "1024", "--machine", "ncube2"}).out,
            r.out);
  const Result given = run({"gen", "fft", "--dim", "4", "--points", "1024", "--point-words", "2",
                            "--butterfly-cycles", "5", "--half-butterfly-cycles", "3"});
  ASSERT_EQ(given.code, sw::kExitOk) << given.err;
  const sw::McProgram q = sw::parse_program(given.out, "fft.mcp");
  EXPECT_EQ(q.steps[0].transfers.front().words, 64u * 2u);
  EXPECT_EQ(q.steps[1].computes.front().cycles.count(), 3u * 32u * 5u);
  EXPECT_EQ(q.steps[3].computes.front().cycles.count(), 64u * 3u);

  const std::vector<BadInput> cases = {
      {{"gen", "fft", "--dim", "8", "--points", "2048"},
       {"orthosim gen: --points: expected m = 2^(n+2d) points with d >= 1"}},
      {{"gen", "fft", "--dim", "1", "--points", "8"},
       {"orthosim gen: --dim: expected a hypercube dimension n from 2 to 12, found 1"}},
      {{"gen", "fft", "--points", "1024"}, {"--dim: expected a value (the option is required)"}},
      {{"gen", "fft", "--dim", "4", "--points", "1024", "--machine", "cm5"},
       {"--machine: expected ncube2 (the machine of [LCC] section 6.2), found 'cm5'"}},
      {{"gen", "fft", "--dim", "4", "--points", "1024", "--point-words", "0"},
       {"--point-words: expected an integer in 1..1048576, found '0'"}},
  };
  expect_refused_before_running(cases);
}

// gen --help's usage line shows how to call every form gen takes (gen_form): a form it leaves
// out, as it left out calmant and the complete exchange on a mesh, is one the help hides.
TEST(CliGen, TheUsageShowsEveryForm) {
  const Result r = run({"gen", "--help"});
  ASSERT_EQ(r.code, sw::kExitOk) << r.err;
  const std::string usage = r.out.substr(0, r.out.find('\n'));
  for (const char* form :
       {"PATTERN|", "random", "exchange --nodes M", "shift --torus CxR", "cc-cube --dim D",
        "fft --dim N --points M", "complete-exchange --torus NxN --algorithm A --block B",
        "complete-exchange --cube D --onto mesh --dims KxK --block B",
        "calmant --mesh KxK|--line K --len N --pipeline Q"}) {
    EXPECT_TRUE(contains(usage, form)) << form << " not in: " << usage;
  }
}

}  // namespace
// A node or dimension list that is not numbers is refused with what the list holds, not with
// the 32-bit range of its parser ("expected an integer in 0..4294967295, found 'x'"); a number out
// of the program's range is refused by the generator, which knows m and d.
// gen shift moves by one node unless --distance says otherwise; an east or west shift needs two
// columns at least.
TEST(CliGen, AShiftMovesByOneNodeByDefault) {
  const Result r = run({"gen", "shift", "--torus", "4x3", "--direction", "east"});
  ASSERT_EQ(r.code, sw::kExitOk) << r.err;
  const sw::McProgram program = sw::parse_program(r.out, "shift.mcp");
  ASSERT_EQ(program.steps.size(), 1u);
  const std::vector<sw::NodeMessage> messages = sw::messages_of(program.steps[0], 0);
  ASSERT_EQ(messages.size(), 12u);
  for (const sw::NodeMessage& m : messages) {
    const std::uint32_t x = m.source % 4;
    const std::uint32_t y = m.source / 4;
    EXPECT_EQ(m.destination, (x + 1) % 4 + 4 * y) << m.source;
  }
  expect_refused_before_running(
      {{{"gen", "shift", "--torus", "1x4", "--direction", "east"},
        {"--torus", "at least 2 columns", "'1x4'"}},
       {{"gen", "random", "--nodes", "4", "--steps", "0"}, {"--steps", "1..1000000", "'0'"}}});
}

// gen random's messages are 1 to 8 words long unless --len says otherwise: over 400 messages each
// length is drawn, 8 the longest.
TEST(CliGen, RandomMessagesAreUpToEightWordsByDefault) {
  const Result r = run({"gen", "random", "--nodes", "8", "--steps", "50"});
  ASSERT_EQ(r.code, sw::kExitOk) << r.err;
  const sw::McProgram program = sw::parse_program(r.out, "random.mcp");
  std::uint32_t longest = 0;
  std::size_t count = 0;
  for (std::uint32_t k = 0; k < program.steps.size(); ++k) {
    for (const sw::NodeMessage& m : sw::messages_of(program.steps[k], k)) {
      EXPECT_GE(m.words, 1u);
      longest = std::max(longest, m.words);
      ++count;
    }
  }
  ASSERT_GT(count, 100u);
  EXPECT_EQ(longest, 8u);
}

TEST(CliGen, ANodeListThatIsNotNumbersSaysWhatTheListHolds) {
  expect_refused_before_running({
      {{"gen", "C3", "--nodes", "4", "--sources", "x"},
       {"orthosim gen: --sources: expected node numbers separated by commas, e.g. 1,2,5, found "
        "'x'\n"}},
      {{"gen", "C3", "--nodes", "4", "--sources", "0,1,"},
       {"orthosim gen: --sources: expected node numbers separated by commas, e.g. 1,2,5, found "
        "'0,1,'\n"}},
      {{"gen", "C3", "--nodes", "4", "--sources", "0", "--dests", "1,,2"},
       {"orthosim gen: --dests: expected node numbers separated by commas, e.g. 1,2,5, found "
        "'1,,2'\n"}},
      {{"gen", "C3", "--nodes", "4", "--dests", "99999999999"},
       {"--dests: expected node numbers separated by commas, e.g. 1,2,5, found '99999999999'"}},
      {{"gen", "cc-cube", "--dim", "4", "--dims", "0,a"},
       {"orthosim gen: --dims: expected hypercube dimensions separated by commas, e.g. 0,1,3, "
        "found '0,a'\n"}},
      {{"gen", "C3", "--nodes", "4", "--sources", "7"},
       {"orthosim gen: --sources: expected node ids below m = 4, found N7\n"}},
      {{"gen", "cc-cube", "--dim", "4", "--dims", "7"},
       {"orthosim gen: --dims: expected dimensions 0..3, found 7\n"}},
  });
}

}  // namespace orthosim
