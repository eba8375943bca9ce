// The .mcp program format (sw/program/parser, sw/program/format): every statement and collective
// against hand-expanded transfers, the [PH91] Fig. 2 example file, every rejection with its
// file:line:col and expected/found wording, the parse -> format -> parse round trip, and a
// fixed-seed fuzz test (token soup, random bytes, mutated programs) that only ever sees success
// or a located InputError.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "sw/core/diagnostic.hpp"
#include "sw/program/format.hpp"
#include "sw/program/parser.hpp"

namespace orthosim {
namespace {

using sw::Cycle;
using sw::InputError;
using sw::McProgram;
using sw::NodeId;
using sw::ProgramStep;
using sw::Transfer;

const std::string kFile = "t.mcp";

McProgram parse(const std::string& text) { return sw::parse_program(text, kFile); }

/// A transfer as a test writes it down: source, destinations in order, broadcast, words.
struct Tx {
  NodeId source;
  std::vector<NodeId> destinations;
  bool broadcast;
  std::uint32_t words;
};

std::string show(const Transfer& t) {
  std::ostringstream s;
  s << (t.broadcast ? "bcast " : "send ") << t.source << " ->";
  for (NodeId d : t.destinations) {
    s << " " << d;
  }
  s << " words " << t.words;
  return s.str();
}

std::string show(const Tx& t) {
  return show(Transfer{t.source, t.destinations, t.broadcast, t.words, {}});
}

::testing::AssertionResult transfers_are(const ProgramStep& step, const std::vector<Tx>& want) {
  std::vector<std::string> got_text;
  std::vector<std::string> want_text;
  for (const Transfer& t : step.transfers) {
    got_text.push_back(show(t));
  }
  for (const Tx& t : want) {
    want_text.push_back(show(t));
  }
  if (got_text == want_text) {
    return ::testing::AssertionSuccess();
  }
  std::ostringstream s;
  s << "got:";
  for (const std::string& g : got_text) {
    s << "\n  " << g;
  }
  s << "\nwant:";
  for (const std::string& w : want_text) {
    s << "\n  " << w;
  }
  return ::testing::AssertionFailure() << s.str();
}

/// The single step of a one-step program.
ProgramStep only_step(const std::string& text) {
  const McProgram p = parse(text);
  EXPECT_EQ(p.steps.size(), 1u);
  return p.steps.at(0);
}

/// Programs are equal in everything the text says: name, nodes, labels, computes and transfers
/// in order. Source locations are not compared (formatted text has its own).
::testing::AssertionResult same_program(const McProgram& a, const McProgram& b) {
  if (a.name != b.name || a.nodes != b.nodes || a.steps.size() != b.steps.size()) {
    return ::testing::AssertionFailure()
           << "name/nodes/steps: " << a.name << "/" << a.nodes << "/" << a.steps.size() << " vs "
           << b.name << "/" << b.nodes << "/" << b.steps.size();
  }
  for (std::size_t s = 0; s < a.steps.size(); ++s) {
    const ProgramStep& x = a.steps[s];
    const ProgramStep& y = b.steps[s];
    if (x.label != y.label) {
      return ::testing::AssertionFailure()
             << "step " << s << " label '" << x.label << "' vs '" << y.label << "'";
    }
    if (x.computes.size() != y.computes.size()) {
      return ::testing::AssertionFailure() << "step " << s << " compute count";
    }
    for (std::size_t c = 0; c < x.computes.size(); ++c) {
      if (x.computes[c].node != y.computes[c].node ||
          x.computes[c].cycles != y.computes[c].cycles) {
        return ::testing::AssertionFailure() << "step " << s << " compute " << c;
      }
    }
    if (x.transfers.size() != y.transfers.size()) {
      return ::testing::AssertionFailure() << "step " << s << " transfer count";
    }
    for (std::size_t t = 0; t < x.transfers.size(); ++t) {
      if (show(x.transfers[t]) != show(y.transfers[t])) {
        return ::testing::AssertionFailure()
               << "step " << s << " transfer " << t << ": " << show(x.transfers[t]) << " vs "
               << show(y.transfers[t]);
      }
    }
  }
  return ::testing::AssertionSuccess();
}

/// What parsing `text` throws, or "" if it parses.
std::string error_of(const std::string& text) {
  try {
    (void)parse(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// ---------------------------------------------------------------------------------------------
// Statements

TEST(McpParse, SendOneToOneWithLocations) {
  const McProgram p = parse("nodes 4\nstep\n  send 1 -> 0\n");
  EXPECT_EQ(p.name, "t");
  EXPECT_EQ(p.nodes, 4u);
  ASSERT_EQ(p.steps.size(), 1u);
  EXPECT_TRUE(transfers_are(p.steps[0], {{1, {0}, false, 1}}));
  EXPECT_EQ(p.steps[0].label, "");
  EXPECT_EQ(p.steps[0].where.to_string(), "t.mcp:2:1");
  EXPECT_EQ(p.steps[0].transfers[0].where.to_string(), "t.mcp:3:3");
}

TEST(McpParse, NodeListsMixNumbersNamesRangesAndAllWithoutDuplicates) {
  const ProgramStep s = only_step("nodes 8\nstep\nsend N1, n3, 1 -> 5..7, 0, all, 6\n");
  EXPECT_TRUE(transfers_are(s, {{1, {5, 6, 7, 0, 2, 3, 4}, false, 1},
                                {3, {5, 6, 7, 0, 1, 2, 4}, false, 1}}));
}

// A range's ends are inclusive, so a range of one node is that node (docs/program-format.md).
TEST(McpParse, ARangeOfOneNodeIsThatNode) {
  const ProgramStep s = only_step("nodes 4\nstep\nsend 2..2 -> 3..3\n");
  EXPECT_TRUE(transfers_are(s, {{2, {3}, false, 1}}));
}

TEST(McpParse, ManyToOneSkipsASourceWhoseOnlyDestinationIsItself) {
  const ProgramStep s = only_step("nodes 4\nstep\nsend 0..2 -> 0\n");
  EXPECT_TRUE(transfers_are(s, {{1, {0}, false, 1}, {2, {0}, false, 1}}));
}

TEST(McpParse, SendAllToAllIsPersonalizedAllToAll) {
  const ProgramStep s = only_step("nodes 3\nstep\nsend all -> all\n");
  EXPECT_TRUE(
      transfers_are(s, {{0, {1, 2}, false, 1}, {1, {0, 2}, false, 1}, {2, {0, 1}, false, 1}}));
}

TEST(McpParse, BcastIsOnePayloadPerSource) {
  const ProgramStep s = only_step("nodes 5\nstep\nbcast 3 -> 1, 2\nbcast 4, 0 -> 0..4\n");
  EXPECT_TRUE(transfers_are(
      s, {{3, {1, 2}, true, 1}, {4, {0, 1, 2, 3}, true, 1}, {0, {1, 2, 3, 4}, true, 1}}));
}

TEST(McpParse, BroadcastScatterGatherExpandAgainstAll) {
  EXPECT_TRUE(transfers_are(only_step("nodes 4\nstep\nbroadcast 2\n"), {{2, {0, 1, 3}, true, 1}}));
  EXPECT_TRUE(
      transfers_are(only_step("nodes 4\nstep\nscatter N1 words 3\n"), {{1, {0, 2, 3}, false, 3}}));
  EXPECT_TRUE(transfers_are(only_step("nodes 4\nstep\ngather 2\n"),
                            {{0, {2}, false, 1}, {1, {2}, false, 1}, {3, {2}, false, 1}}));
  // gather to two roots: every node sends to both (the roots to each other).
  EXPECT_TRUE(transfers_are(only_step("nodes 3\nstep\ngather 0, 1\n"),
                            {{0, {1}, false, 1}, {1, {0}, false, 1}, {2, {0, 1}, false, 1}}));
}

TEST(McpParse, AllgatherAndAlltoall) {
  EXPECT_TRUE(transfers_are(only_step("nodes 3\nstep\nallgather words 2\n"),
                            {{0, {1, 2}, true, 2}, {1, {0, 2}, true, 2}, {2, {0, 1}, true, 2}}));
  EXPECT_TRUE(transfers_are(only_step("nodes 2\nstep\nalltoall\n"),
                            {{0, {1}, false, 1}, {1, {0}, false, 1}}));
}

TEST(McpParse, ShiftIsAPermutationModuloNodes) {
  const std::vector<Tx> plus1 = {{0, {1}, false, 1},
                                 {1, {2}, false, 1},
                                 {2, {3}, false, 1},
                                 {3, {0}, false, 1}};
  const std::vector<Tx> minus1 = {{0, {3}, false, 1},
                                  {1, {0}, false, 1},
                                  {2, {1}, false, 1},
                                  {3, {2}, false, 1}};
  const std::vector<Tx> plus2 = {{0, {2}, false, 5},
                                 {1, {3}, false, 5},
                                 {2, {0}, false, 5},
                                 {3, {1}, false, 5}};
  EXPECT_TRUE(transfers_are(only_step("nodes 4\nstep\nshift 1\n"), plus1));
  EXPECT_TRUE(transfers_are(only_step("nodes 4\nstep\nshift 5\n"), plus1));
  EXPECT_TRUE(transfers_are(only_step("nodes 4\nstep\nshift -1\n"), minus1));
  EXPECT_TRUE(transfers_are(only_step("nodes 4\nstep\nshift -6 words 5\n"), plus2));
  EXPECT_TRUE(transfers_are(only_step("nodes 4\nstep\nshift 18446744073709551615\n"), minus1));
}

TEST(McpParse, ComputeIsOnePhasePerNode) {
  const McProgram p =
      parse("nodes 4\nstep\ncompute all 100\nstep\n  compute 3, 0..1 0\n  compute 2 "
            "1000000000000\n");
  ASSERT_EQ(p.steps.size(), 2u);
  ASSERT_EQ(p.steps[0].computes.size(), 4u);
  for (NodeId n = 0; n < 4; ++n) {
    EXPECT_EQ(p.steps[0].computes[n].node, n);
    EXPECT_EQ(p.steps[0].computes[n].cycles, Cycle{100});
    EXPECT_EQ(p.steps[0].computes[n].where.to_string(), "t.mcp:3:1");
  }
  ASSERT_EQ(p.steps[1].computes.size(), 4u);
  const std::vector<NodeId> order = {3, 0, 1, 2};
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(p.steps[1].computes[i].node, order[i]);
  }
  EXPECT_EQ(p.steps[1].computes[3].cycles, sw::kCycleLimit);
  EXPECT_TRUE(p.steps[1].transfers.empty());
}

TEST(McpParse, WordsDefaultAndPerStatement) {
  const ProgramStep s =
      only_step("nodes 4\nwords 6\nstep\nsend 1 -> 0\nsend 2 -> 0 words 1048576\n");
  EXPECT_TRUE(transfers_are(s, {{1, {0}, false, 6}, {2, {0}, false, 1048576}}));
  EXPECT_TRUE(transfers_are(only_step("nodes 4\nstep\nsend 1 -> 0\n"), {{1, {0}, false, 1}}));
}

TEST(McpParse, LabelsAreNamesOrQuotedStrings) {
  const McProgram p = parse(
      "nodes 2\nstep first\nsend 0 -> 1\nstep \"two # \\\"x\\\" \\\\ \\n\\t\\r\"\nsend 1 -> 0\n"
      "step send\nsend 0 -> 1\n");
  ASSERT_EQ(p.steps.size(), 3u);
  EXPECT_EQ(p.steps[0].label, "first");
  EXPECT_EQ(p.steps[1].label, "two # \"x\" \\ \n\t\r");
  EXPECT_EQ(p.steps[2].label, "send");
}

TEST(McpParse, CommentsBlankLinesTabsCrlfAndByteOrderMark) {
  const McProgram p = parse(
      "\xEF\xBB\xBF# header\r\n\r\n\tnodes 4 # four\r\nwords 2\r\n\r\nstep#one\r\n  send 1->0# "
      "x\r\n\t\t# only a comment\r\n   \r\nstep\tlast\r\nbcast\t3->1,2");
  ASSERT_EQ(p.steps.size(), 2u);
  EXPECT_EQ(p.steps[1].label, "last");
  EXPECT_TRUE(transfers_are(p.steps[0], {{1, {0}, false, 2}}));
  EXPECT_TRUE(transfers_are(p.steps[1], {{3, {1, 2}, true, 2}}));
  EXPECT_EQ(p.steps[0].transfers[0].where.to_string(), "t.mcp:7:3");
}

TEST(McpParse, SamePairInDifferentStepsIsFine) {
  const McProgram p = parse("nodes 2\nstep\nbcast 0 -> 1\nstep\nbcast 0 -> 1\nsend 1 -> 0\n");
  ASSERT_EQ(p.steps.size(), 2u);
  EXPECT_TRUE(transfers_are(p.steps[1], {{0, {1}, true, 1}, {1, {0}, false, 1}}));
}

TEST(McpParse, ProgramNameIsTheFileStem) {
  EXPECT_EQ(sw::parse_program("nodes 1\nstep\ncompute 0 1\n", "dir/sub/prog.v2.mcp").name,
            "prog.v2");
}

// ---------------------------------------------------------------------------------------------
// The example of [PH91] Fig. 2

TEST(McpExample, Fig2SampleIsTheFiveStepsOfThePaper) {
  const McProgram p =
      sw::read_program_file(std::string(ORTHOSIM_EXAMPLES_DIR) + "/fig2_sample.mcp");
  EXPECT_EQ(p.name, "fig2_sample");
  EXPECT_EQ(p.nodes, 4u);
  ASSERT_EQ(p.steps.size(), 5u);
  // Step 1: C1(N1, N0). Step 2: C2((N1, N2), (N3, N0)). Step 3: C3 from N0. Step 4: C4 from N0.
  // Step 5: C10((N1, N0), (N2, N0)), C8((N3, N1), (N3, N2)).
  EXPECT_TRUE(transfers_are(p.steps[0], {{1, {0}, false, 4}}));
  EXPECT_TRUE(transfers_are(p.steps[1], {{1, {2}, false, 4}, {3, {0}, false, 4}}));
  EXPECT_TRUE(transfers_are(p.steps[2], {{0, {1, 2, 3}, true, 4}}));
  EXPECT_TRUE(transfers_are(p.steps[3], {{0, {1, 2, 3}, false, 4}}));
  EXPECT_TRUE(
      transfers_are(p.steps[4], {{1, {0}, false, 4}, {2, {0}, false, 4}, {3, {1, 2}, true, 4}}));
  for (const ProgramStep& s : p.steps) {
    ASSERT_EQ(s.computes.size(), 4u);
    for (NodeId n = 0; n < 4; ++n) {
      EXPECT_EQ(s.computes[n].node, n);
      EXPECT_EQ(s.computes[n].cycles, Cycle{20});
    }
  }
  // Messages per step as Table 1 counts them: 1, 2, m-1 = 3, m-1 = 3, sr + ds = 2 + 2.
  const std::vector<std::size_t> messages = {1, 2, 3, 3, 4};
  for (std::uint32_t i = 0; i < 5; ++i) {
    EXPECT_EQ(sw::messages_of(p.steps[i], i).size(), messages[i]) << "step " << i + 1;
  }
}

TEST(McpFile, UnreadableFileIsAnInputErrorNamingThePath) {
  const std::string missing = std::string(ORTHOSIM_EXAMPLES_DIR) + "/no_such_program.mcp";
  try {
    (void)sw::read_program_file(missing);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where().file, missing);
    EXPECT_EQ(std::string(e.what()),
              missing + ": expected a readable .mcp file, found no such file");
  }
  try {
    (void)sw::read_program_file(ORTHOSIM_EXAMPLES_DIR);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("expected a readable .mcp file, found a directory"),
              std::string::npos)
        << e.what();
  }
}

// ---------------------------------------------------------------------------------------------
// Rejections

struct ErrorCase {
  const char* name;
  std::string text;
  std::string location;  ///< "line:col"
  std::string expected;  ///< text after "expected "
  std::string found;     ///< text after "found "
};

/// Names the case in test output instead of dumping its bytes.
void PrintTo(const ErrorCase& c, std::ostream* os) { *os << c.name; }

class McpError : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(McpError, IsLocatedAndSaysWhatWasExpectedAndFound) {
  const ErrorCase& c = GetParam();
  const std::string message = error_of(c.text);
  ASSERT_FALSE(message.empty()) << "accepted:\n" << c.text;
  const std::string prefix = kFile + ":" + c.location + ": expected ";
  EXPECT_EQ(message.rfind(prefix, 0), 0u) << message;
  EXPECT_NE(message.find("expected " + c.expected), std::string::npos) << message;
  EXPECT_NE(message.find(", found " + c.found), std::string::npos) << message;
}

const std::string kHead = "nodes 4\nstep\n";  // statements start on line 3

INSTANTIATE_TEST_SUITE_P(
    All, McpError,
    ::testing::Values(
        ErrorCase{"UnknownStatement", kHead + "  sned 1 -> 0\n", "3:3", "a statement (step, send",
                  "'sned'"},
        ErrorCase{"KeywordsAreLowerCase", kHead + "SEND 1 -> 0\n", "3:1", "a statement (",
                  "'SEND'"},
        ErrorCase{"StatementStartsWithANumber", kHead + "1 -> 0\n", "3:1", "a statement (", "'1'"},
        ErrorCase{"EmptyFile", "", "1:1", "'nodes' as the first statement", "end of file"},
        ErrorCase{"OnlyComments", "# nothing\n\n", "3:1", "'nodes' as the first statement",
                  "end of file"},
        ErrorCase{"MissingNodes", "step\nsend 1 -> 0\n", "1:1", "'nodes' as the first statement",
                  "'step'"},
        ErrorCase{"NodesNotFirst", "words 2\nnodes 4\n", "1:1", "'nodes' as the first statement",
                  "'words'"},
        ErrorCase{"DuplicateNodes", "nodes 4\n  nodes 4\n", "2:3", "one 'nodes' statement",
                  "a second one (the first is at 1:1)"},
        ErrorCase{"DuplicateNodesInAStep", kHead + "send 1 -> 0\nnodes 4\n", "4:1",
                  "one 'nodes' statement", "a second one (the first is at 1:1)"},
        ErrorCase{"NodesZero", "nodes 0\n", "1:7", "a node count in 1..4096", "'0'"},
        ErrorCase{"NodesTooMany", "nodes 4097\n", "1:7", "a node count in 1..4096", "'4097'"},
        ErrorCase{"NodesNegative", "nodes -4\n", "1:7", "a node count in 1..4096", "'-4'"},
        ErrorCase{"NodesMissing", "nodes\n", "1:6", "a node count in 1..4096", "end of line"},
        ErrorCase{"NodesTrailing", "nodes 4 4\n", "1:9", "end of line", "'4'"},
        ErrorCase{"WordsAfterStep", kHead + "send 1 -> 0\n words 2\n", "4:2",
                  "'words' before the first 'step'", "'words' after a step"},
        ErrorCase{"WordsTwice", "nodes 4\nwords 2\nwords 3\n", "3:1", "one 'words' statement",
                  "a second one (the first is at 2:1)"},
        ErrorCase{"WordsZero", "nodes 4\nwords 0\n", "2:7", "a message length in 1..1048576 words",
                  "'0'"},
        ErrorCase{"WordsTooLong", kHead + "send 1 -> 0 words 1048577\n", "3:19",
                  "a message length in 1..1048576 words", "'1048577'"},
        ErrorCase{"WordsNotANumber", kHead + "send 1 -> 0 words four\n", "3:19", "a message length",
                  "'four'"},
        ErrorCase{"StatementBeforeFirstStep", "nodes 4\nsend 1 -> 0\n", "2:1", "'words' or 'step'",
                  "'send' before the first step"},
        ErrorCase{"ComputeBeforeFirstStep", "nodes 4\nwords 2\ncompute all 3\n", "3:1",
                  "'words' or 'step'", "'compute' before the first step"},
        ErrorCase{"NodeOutOfRange", kHead + "send 1 -> 4\n", "3:11",
                  "a node in 0..3 (the program has 4 nodes)", "'4'"},
        ErrorCase{"NamedNodeOutOfRange", kHead + "bcast N9 -> 1\n", "3:7", "a node in 0..3",
                  "'N9'"},
        ErrorCase{"NodeOverflow", kHead + "send 99999999999999999999 -> 0\n", "3:6",
                  "a node in 0..3", "'99999999999999999999'"},
        ErrorCase{"NodeGarbage", kHead + "send 1x -> 0\n", "3:6",
                  "a node (3, N3, a range 1..3 or all)", "'1x'"},
        ErrorCase{"NodeName", kHead + "send Nx -> 0\n", "3:6", "a node (", "'Nx'"},
        ErrorCase{"NodeString", kHead + "send \"1\" -> 0\n", "3:6", "a node (",
                  "the string '\"1\"'"},
        ErrorCase{"TrailingComma", kHead + "send 1, -> 0\n", "3:9", "a node (", "'->'"},
        ErrorCase{"ReversedRange", kHead + "send 3..1 -> 0\n", "3:9", "a range end >= 3", "'1'"},
        ErrorCase{"MissingArrow", kHead + "send 1 0\n", "3:8", "',' or '->'", "'0'"},
        ErrorCase{"MissingDestination", kHead + "send 1 ->\n", "3:10", "a node (", "end of line"},
        ErrorCase{"SendToItself", kHead + "send 1 -> 1\n", "3:11",
                  "a destination other than the source", "only N1, the source itself"},
        ErrorCase{"BcastToItself", kHead + "bcast N2 -> 2, n2\n", "3:13",
                  "a destination other than the source", "only N2, the source itself"},
        ErrorCase{"AlltoallOnOneNode", "nodes 1\nstep\n alltoall\n", "3:2",
                  "a destination other than the source", "only N0, the source itself"},
        ErrorCase{"ShiftByMultipleOfNodes", kHead + "shift 8\n", "3:7",
                  "a shift amount (an integer, not a multiple of the 4 nodes)", "'8'"},
        ErrorCase{"ShiftZero", kHead + "shift -0\n", "3:7", "a shift amount", "'-0'"},
        ErrorCase{"ShiftOverflow", kHead + "shift -18446744073709551616\n", "3:7", "a shift amount",
                  "'-18446744073709551616'"},
        ErrorCase{"ShiftNotANumber", kHead + "shift all\n", "3:7", "a shift amount", "'all'"},
        ErrorCase{"ComputeOverflow", kHead + "compute 1 18446744073709551616\n", "3:11",
                  "',' or a cycle count (an integer in 0..1000000000000, the emulator's cycle "
                  "limit)",
                  "'18446744073709551616'"},
        ErrorCase{"ComputePastTheCycleLimit", kHead + "compute 1 1000000000001\n", "3:11",
                  "',' or a cycle count (an integer in 0..1000000000000, the emulator's cycle "
                  "limit)",
                  "'1000000000001'"},
        ErrorCase{"ComputeNegative", kHead + "compute 1 -5\n", "3:11", "',' or a cycle count",
                  "'-5'"},
        ErrorCase{"ComputeMissingCycles", kHead + "compute 1\n", "3:10", "',' or a cycle count",
                  "end of line"},
        ErrorCase{"TrailingGarbageAfterSend", kHead + "send 1 -> 0 foo\n", "3:13",
                  "',', 'words' or end of line", "'foo'"},
        ErrorCase{"TrailingGarbageAfterWords", kHead + "send 1 -> 0 words 2 2\n", "3:21",
                  "end of line", "'2'"},
        ErrorCase{"TrailingGarbageAfterAllgather", kHead + "allgather 3\n", "3:11",
                  "'words' or end of line", "'3'"},
        ErrorCase{"TrailingGarbageAfterCompute", kHead + "compute 1 5 ,\n", "3:13", "end of line",
                  "','"},
        ErrorCase{"TrailingGarbageAfterLabel", "nodes 4\nstep a b\n", "2:8",
                  "a label (a name or a \"quoted string\") or end of line", "'b'"},
        ErrorCase{"LabelIsANumber", "nodes 4\nstep 5\n", "2:6", "a label (", "'5'"},
        ErrorCase{"EmptyStepBeforeAnother", kHead + "step\nsend 1 -> 0\n", "3:1",
                  "a statement in the step at 2:1", "'step'"},
        ErrorCase{"EmptyLastStep", kHead + "send 1 -> 0\n\nstep last\n# bye\n", "7:1",
                  "a statement in the step at 5:1", "end of file"},
        ErrorCase{"EmptyLastStepNoNewline", kHead + "send 1 -> 0\nstep", "4:5",
                  "a statement in the step at 4:1", "end of file"},
        ErrorCase{"EmptyProgram", "nodes 4\nwords 2\n", "3:1", "'step'", "end of file"},
        ErrorCase{"PairTwice", kHead + "  send 1 -> 0\n  bcast 1 -> 2, 0\n", "4:3",
                  "at most one message N1 -> N0 in a step", "a second one (the first is at 3:3)"},
        ErrorCase{"PairTwiceThroughCollective", kHead + "send 3 -> 0\ngather 0\n", "4:1",
                  "at most one message N3 -> N0 in a step", "a second one (the first is at 3:1)"},
        ErrorCase{"PairTwiceInAShift", kHead + "compute 1 1\nsend 2 -> 3\nshift 1\n", "5:1",
                  "at most one message N2 -> N3 in a step", "a second one (the first is at 4:1)"},
        ErrorCase{"TwoBroadcastsFromOneSource", kHead + "bcast 3 -> 1\nbcast 3 -> 2\n", "4:1",
                  "at most one broadcast from N3 in a step", "a second one (the first is at 3:1)"},
        ErrorCase{"BroadcastAfterAllgather", kHead + "allgather\nbroadcast 0\n", "4:1",
                  "at most one message N0 -> N1 in a step", "a second one (the first is at 3:1)"},
        ErrorCase{"ComputeTwice", kHead + "compute 1 5\ncompute 0..2 6\n", "4:1",
                  "at most one compute for N1 in a step", "a second one (the first is at 3:1)"},
        ErrorCase{"UnterminatedLabel", "nodes 4\nstep \"abc\nsend 1 -> 0\n", "2:10",
                  "a closing '\"'", "end of line"},
        ErrorCase{"UnterminatedLabelAtEnd", "nodes 4\nstep \"ab", "2:9", "a closing '\"'",
                  "end of file"},
        ErrorCase{"BadEscape", "nodes 4\nstep \"a\\q\"\n", "2:8", "an escape", "the character 'q'"},
        // A blank after the backslash is no printable character: named as a byte.
        ErrorCase{"SpaceEscape", "nodes 4\nstep \"a\\ \"\n", "2:8", "an escape", "the byte 0x20"},
        ErrorCase{"BadCharacter", kHead + "send 1 -> 0 @\n", "3:13", "a name, a number",
                  "the character '@'"},
        // A letter beyond ASCII is UTF-8 text but no token: named by its first byte, in hex.
        ErrorCase{"LetterBeyondAscii", kHead + "send 1 -> \xc3\xa9\n", "3:11", "a name, a number",
                  "the byte 0xc3"},
        // A byte order mark is not part of the program: the columns after it are the editor's.
        ErrorCase{"AfterAByteOrderMark", "\xEF\xBB\xBFnodes x\n", "1:7", "a node count in 1..4096",
                  "'x'"},
        ErrorCase{"EscapeAtEndOfFile", "nodes 4\nstep \"ab\\", "2:9", "an escape", "end of file"},
        // Quoted whole up to 40 characters (cut with "..." beyond, McpError.LongTokensAreCut).
        ErrorCase{"FortyCharacterToken", kHead + std::string(40, 'x') + "\n", "3:1",
                  "a statement (", "'" + std::string(40, 'x') + "'"},
        // A broadcast or scatter of one node sends to no one: named at its source.
        ErrorCase{"BroadcastOnOneNode", "nodes 1\nstep\nbroadcast  0\n", "3:12",
                  "a destination other than the source", "only N0, the source itself"},
        ErrorCase{"ScatterOnOneNode", "nodes 1\nstep\nscatter N0 words 2\n", "3:9",
                  "a destination other than the source", "only N0, the source itself"},
        ErrorCase{"BadByte", kHead + "send 1 -> \xff\n", "3:11", "UTF-8 text",
                  "the byte 0xff (not UTF-8)"},
        ErrorCase{"NulByte", std::string("nodes 4\n\0", 9), "2:1", "UTF-8 text",
                  "the byte 0x00 (a control character)"},
        // Inside a label or a comment, where the lexer takes any byte, the text check finds it.
        ErrorCase{"NulInLabel", std::string("nodes 4\nstep \"a\0b\"\nsend 1 -> 0\n", 26), "2:8",
                  "UTF-8 text", "the byte 0x00 (a control character)"},
        ErrorCase{"NotUtf8InLabel", "nodes 4\nstep \"caf\xe9\"\nsend 1 -> 0\n", "2:10",
                  "UTF-8 text", "the byte 0xe9 followed by 0x22 (not UTF-8)"},
        ErrorCase{"OverlongInComment", kHead + "send 1 -> 0 # \xc0\xaf\n", "3:15", "UTF-8 text",
                  "the byte 0xc0 (not UTF-8)"},
        ErrorCase{"ControlInComment", kHead + "send 1 -> 0 # \x1b[31m\n", "3:15", "UTF-8 text",
                  "the byte 0x1b (a control character)"},
        ErrorCase{"LoneDot", kHead + "send 1.2 -> 0\n", "3:7", "a name, a number",
                  "the character '.'"}),
    [](const ::testing::TestParamInfo<ErrorCase>& param) { return std::string(param.param.name); });

TEST(McpText, ANonAsciiLabelIsKeptAndWrittenBackByTheCanonicalWriter) {
  const std::string label = "caf\xC3\xA9 \xE2\x86\x92 \xF0\x9F\x9A\x80";  // café → and U+1F680
  const McProgram p = parse("\xEF\xBB\xBFnodes 2\nstep \"" + label + "\"\nsend 0 -> 1\n");
  ASSERT_EQ(p.steps.size(), 1u);
  EXPECT_EQ(p.steps[0].label, label);
  const McProgram back = parse(sw::format_program(p));
  EXPECT_EQ(back.steps[0].label, label);
}

TEST(McpError, FirstErrorInFileOrderWins) {
  // A lexical error on line 4 must not hide the statement error on line 3.
  const std::string m = error_of(kHead + "foo\nsend @\n");
  EXPECT_EQ(m.rfind("t.mcp:3:1: expected a statement", 0), 0u) << m;
}

// Found by tests/fuzz/mcp_parser.cpp: 571 bytes of `step alltoall` on 4096 nodes took the parser
// past 2 GiB. A program expands to at most 2^24 messages and compute phases in all.
TEST(McpError, AProgramExpandsToAtMostTwoToTheTwentyFourMessagesAndPhases) {
  constexpr std::uint64_t kAllToAll = 4096u * 4095u;
  static_assert(kAllToAll + 3096 + 1000 == std::uint64_t{1} << 24);
  const std::string at_limit =
      "nodes 4096\nstep\nalltoall\nstep\ncompute 0..3095 1\ncompute 3096..4095 2\n";
  EXPECT_EQ(error_of(at_limit), "");
  EXPECT_EQ(error_of(at_limit + "step\ncompute 7 1\n"),
            "t.mcp:8:1: expected at most 16777216 messages and compute phases in a program, "
            "found 16777217 with this statement");
  EXPECT_EQ(error_of(at_limit + "step\nsend 1 -> 0\n"),
            "t.mcp:8:1: expected at most 16777216 messages and compute phases in a program, "
            "found 16777217 with this statement");
}

TEST(McpError, LongTokensAreCutShortInTheMessage) {
  const std::string m = error_of(kHead + "send " + std::string(5000, '7') + " -> 0\n");
  EXPECT_LT(m.size(), 200u) << m;
  EXPECT_NE(m.find("...'"), std::string::npos) << m;
}

// ---------------------------------------------------------------------------------------------
// Round trip

TEST(McpFormat, WritesCanonicalText) {
  const McProgram p =
      sw::parse_program("nodes 6\nwords 4\nstep \"a b\"\ncompute 0..2 7\ncompute 5 7\ncompute 4 1\n"
                        "bcast 0 -> all\nsend 2 -> 4, 3 words 1\nstep\nsend 1, 2 -> 0\n",
                        "demo.mcp");
  EXPECT_EQ(sw::format_program(p), "# demo (written by orthosim)\n"
                                   "nodes 6\n"
                                   "words 4\n"
                                   "\n"
                                   "step \"a b\"\n"
                                   "  compute 0..2, 5 7\n"
                                   "  compute 4 1\n"
                                   "  bcast 0 -> all\n"
                                   "  send 2 -> 4, 3 words 1\n"
                                   "\n"
                                   "step\n"
                                   "  send 1 -> 0\n"
                                   "  send 2 -> 0\n");
}

// The writer's choices, each written here from its rule: a program without a name is
// "program"; the default length is the most common one, the smallest on a tie, and 1 is not
// written; `all` only for two nodes or more; ranges from runs of three; a tab in a label escaped.
TEST(McpFormat, WritesTheCanonicalChoicesAtTheirEdges) {
  McProgram tie;
  tie.nodes = 2;
  tie.steps.resize(1);
  tie.steps[0].transfers = {{0, {1}, false, 1, {}}, {1, {0}, false, 2, {}}};
  EXPECT_EQ(sw::format_program(tie), "# program (written by orthosim)\n"
                                     "nodes 2\n"
                                     "\n"
                                     "step\n"
                                     "  send 0 -> 1\n"
                                     "  send 1 -> 0 words 2\n");
  McProgram runs;
  runs.name = "runs";
  runs.nodes = 6;
  runs.steps.resize(1);
  runs.steps[0].label = "x\ty";
  runs.steps[0].transfers = {{0, {2, 3}, false, 1, {}}, {1, {2, 3, 4}, false, 1, {}}};
  EXPECT_EQ(sw::format_program(runs), "# runs (written by orthosim)\n"
                                      "nodes 6\n"
                                      "\n"
                                      "step \"x\\ty\"\n"
                                      "  send 0 -> 2, 3\n"
                                      "  send 1 -> 2..4\n");
}

// A label is written bare only when it is a name: letters a-z and A-Z, digits 0-9 and '_', not
// starting with a digit; every character at the ends of these ranges is one of a name. Otherwise
// it is quoted, with a carriage return escaped as \r like the other control characters.
TEST(McpFormat, ALabelIsBareOnlyWhenItIsANameAtTheEndsOfItsCharacterRanges) {
  McProgram p;
  p.name = "labels";
  p.nodes = 2;
  for (const std::string label : {"az_AZ09", "0a", "9a", "a\rb"}) {
    sw::ProgramStep step;
    step.label = label;
    step.transfers = {{0, {1}, false, 1, {}}};
    p.steps.push_back(step);
  }
  const std::string text = sw::format_program(p);
  EXPECT_EQ(text, "# labels (written by orthosim)\n"
                  "nodes 2\n"
                  "\n"
                  "step az_AZ09\n"
                  "  send 0 -> 1\n"
                  "\n"
                  "step \"0a\"\n"
                  "  send 0 -> 1\n"
                  "\n"
                  "step \"9a\"\n"
                  "  send 0 -> 1\n"
                  "\n"
                  "step \"a\\rb\"\n"
                  "  send 0 -> 1\n");
  EXPECT_TRUE(same_program(sw::parse_program(text, "labels.mcp"), p)) << text;
}

// The name is written on the one comment line, every line break in it (a carriage return or a
// newline) as a space; `all` stands for the other nodes from two of them on: on three nodes, node
// 0's send to 1 and 2.
TEST(McpFormat, WritesTheNameOnItsCommentLineAndAllForTwoNodes) {
  McProgram p;
  p.name = "a\rb\nc";
  p.nodes = 3;
  p.steps.resize(1);
  p.steps[0].transfers = {{0, {1, 2}, false, 1, {}}};
  EXPECT_EQ(sw::format_program(p), "# a b c (written by orthosim)\n"
                                   "nodes 3\n"
                                   "\n"
                                   "step\n"
                                   "  send 0 -> all\n");
}

TEST(McpFormat, Fig2RoundTrips) {
  const McProgram p =
      sw::read_program_file(std::string(ORTHOSIM_EXAMPLES_DIR) + "/fig2_sample.mcp");
  const std::string text = sw::format_program(p);
  EXPECT_TRUE(same_program(sw::parse_program(text, "fig2_sample.mcp"), p)) << text;
  EXPECT_NE(text.find("words 4\n"), std::string::npos) << text;
  EXPECT_EQ(text.find(" words 4"), std::string::npos) << "default repeated:\n" << text;
}

/// A random program that obeys the per-step rules, with awkward labels and extreme values.
McProgram random_program(std::mt19937& rng) {
  auto pick = [&rng](std::uint32_t n) {
    return std::uniform_int_distribution<std::uint32_t>(0, n - 1)(rng);
  };
  McProgram p;
  p.name = "rt";
  p.nodes = 1 + pick(pick(4) == 0 ? 40 : 9);
  const std::uint32_t m = p.nodes;
  const std::vector<std::string> labels = {
      "", "s1", "_x", "all", "a b", "q\"uo\\te", "line\nbreak\t#", "3d", "N2"};
  const std::vector<std::uint32_t> lengths = {1, 1, 2, 4, 4, 1048576};
  const std::vector<std::uint64_t> cycles = {0, 1, 20, sw::kCycleLimit.count()};
  const std::uint32_t steps = 1 + pick(6);
  for (std::uint32_t s = 0; s < steps; ++s) {
    ProgramStep step;
    step.label = labels[pick(static_cast<std::uint32_t>(labels.size()))];
    std::vector<NodeId> order(m);
    for (NodeId n = 0; n < m; ++n) {
      order[n] = n;
    }
    std::shuffle(order.begin(), order.end(), rng);
    const std::uint32_t computing = pick(m + 1);
    for (std::uint32_t i = 0; i < computing; ++i) {
      step.computes.push_back({order[i], Cycle{cycles[pick(4)]}, {}});
    }
    std::set<std::pair<NodeId, NodeId>> used;
    std::set<NodeId> broadcasters;
    const std::uint32_t transfers = m > 1 ? pick(2 * m) : 0;
    for (std::uint32_t t = 0; t < transfers; ++t) {
      Transfer tr;
      tr.source = pick(m);
      tr.broadcast = pick(3) == 0 && broadcasters.count(tr.source) == 0;
      tr.words = lengths[pick(static_cast<std::uint32_t>(lengths.size()))];
      std::shuffle(order.begin(), order.end(), rng);
      if (pick(3) == 0) {
        std::sort(order.begin(), order.end());  // gives ranges and `all` to the writer
      }
      const std::uint32_t want = 1 + pick(m);
      for (NodeId d : order) {
        if (tr.destinations.size() < want && d != tr.source && used.count({tr.source, d}) == 0) {
          tr.destinations.push_back(d);
        }
      }
      if (tr.destinations.empty()) {
        continue;
      }
      for (NodeId d : tr.destinations) {
        used.insert({tr.source, d});
      }
      if (tr.broadcast) {
        broadcasters.insert(tr.source);
      }
      step.transfers.push_back(std::move(tr));
    }
    if (step.computes.empty() && step.transfers.empty()) {
      step.computes.push_back({pick(m), Cycle{5}, {}});
    }
    p.steps.push_back(std::move(step));
  }
  return p;
}

TEST(McpFormat, RandomProgramsRoundTrip) {
  std::mt19937 rng(20240611);
  for (int i = 0; i < 500; ++i) {
    const McProgram p = random_program(rng);
    const std::string text = sw::format_program(p);
    McProgram back;
    try {
      back = sw::parse_program(text, "rt.mcp");
    } catch (const InputError& e) {
      FAIL() << "program " << i << " rejected: " << e.what() << "\n" << text;
    }
    ASSERT_TRUE(same_program(back, p)) << "program " << i << "\n" << text;
    // Formatting is canonical: the text of the re-read program is the same text.
    ASSERT_EQ(sw::format_program(back), text);
  }
}

// ---------------------------------------------------------------------------------------------
// Fuzz: anything in, success or a located InputError out

/// The rules a parsed program must satisfy, so that "it parsed" also means "it is well formed".
::testing::AssertionResult well_formed(const McProgram& p) {
  if (p.nodes < 1 || p.nodes > sw::kMaxProgramNodes || p.steps.empty()) {
    return ::testing::AssertionFailure() << "nodes or steps";
  }
  for (const ProgramStep& s : p.steps) {
    if (s.computes.empty() && s.transfers.empty()) {
      return ::testing::AssertionFailure() << "empty step";
    }
    std::set<std::pair<NodeId, NodeId>> pairs;
    std::set<NodeId> broadcasters;
    std::set<NodeId> computing;
    for (const sw::ComputePhase& c : s.computes) {
      if (c.node >= p.nodes || !computing.insert(c.node).second) {
        return ::testing::AssertionFailure() << "compute node " << c.node;
      }
    }
    for (const Transfer& t : s.transfers) {
      if (t.source >= p.nodes || t.destinations.empty() || t.words < 1 ||
          t.words > sw::kMaxMessageWords || t.where.line < 1) {
        return ::testing::AssertionFailure() << "transfer " << show(t);
      }
      if (t.broadcast && !broadcasters.insert(t.source).second) {
        return ::testing::AssertionFailure() << "two broadcasts from " << t.source;
      }
      for (NodeId d : t.destinations) {
        if (d >= p.nodes || d == t.source || !pairs.insert({t.source, d}).second) {
          return ::testing::AssertionFailure() << "pair " << t.source << " -> " << d;
        }
      }
    }
  }
  return ::testing::AssertionSuccess();
}

/// Matches the message prefix "fz.mcp:LINE:COL: " (the regex ^fz\.mcp:([0-9]+):([0-9]+): ),
/// by hand: GCC 12's <regex> draws a false -Wmaybe-uninitialized at -O1 with sanitizers.
bool located(const std::string& what, unsigned long& line, unsigned long& column) {
  const std::string prefix = "fz.mcp:";
  if (what.rfind(prefix, 0) != 0) {
    return false;
  }
  std::size_t pos = prefix.size();
  auto number = [&](unsigned long& out, char end) {
    const std::size_t start = pos;
    while (pos < what.size() && what[pos] >= '0' && what[pos] <= '9' && pos - start < 10) {
      out = out * 10 + static_cast<unsigned long>(what[pos] - '0');
      ++pos;
    }
    if (pos == start || pos >= what.size() || what[pos] != end) {
      return false;
    }
    ++pos;
    return true;
  };
  return number(line, ':') && number(column, ':') && pos < what.size() && what[pos] == ' ';
}

class Fuzzer {
 public:
  explicit Fuzzer(std::uint32_t seed) : rng_(seed) {}

  /// Parses `text`: success must give a well-formed program, failure a located InputError.
  void check(const std::string& text) {
    ++runs;
    try {
      const McProgram p = sw::parse_program(text, "fz.mcp");
      ++accepted;
      EXPECT_TRUE(well_formed(p)) << "input:\n" << text;
    } catch (const InputError& e) {
      const std::string what = e.what();
      unsigned long line = 0;
      unsigned long column = 0;
      if (!located(what, line, column)) {
        ADD_FAILURE() << "unlocated error: " << what << "\ninput:\n" << text;
        return;
      }
      const auto lines = static_cast<unsigned long>(std::count(text.begin(), text.end(), '\n'));
      EXPECT_GE(line, 1u) << what;
      EXPECT_GE(column, 1u) << what;
      EXPECT_LE(line, lines + 1) << what << "\ninput:\n" << text;
      EXPECT_LE(column, text.size() + 1) << what;
      EXPECT_EQ(e.where().line, line);
      EXPECT_EQ(e.where().column, column);
    } catch (const std::exception& e) {
      ADD_FAILURE() << "unexpected exception: " << e.what() << "\ninput:\n" << text;
    } catch (...) {
      ADD_FAILURE() << "unexpected non-std exception\ninput:\n" << text;
    }
  }

  std::string token_soup() {
    static const std::vector<std::string> vocabulary = {"nodes",
                                                        "words",
                                                        "step",
                                                        "send",
                                                        "bcast",
                                                        "compute",
                                                        "broadcast",
                                                        "scatter",
                                                        "gather",
                                                        "allgather",
                                                        "alltoall",
                                                        "shift",
                                                        "all",
                                                        "->",
                                                        ",",
                                                        "..",
                                                        "0",
                                                        "1",
                                                        "2",
                                                        "3",
                                                        "5",
                                                        "7",
                                                        "16",
                                                        "N1",
                                                        "n2",
                                                        "N9",
                                                        "-1",
                                                        "-5",
                                                        "4097",
                                                        "1048577",
                                                        "18446744073709551616",
                                                        "\"lbl\"",
                                                        "\"a\\\"b\"",
                                                        "\"",
                                                        "#c",
                                                        "\n",
                                                        "\n",
                                                        "\n",
                                                        " ",
                                                        "\t",
                                                        "x",
                                                        "3x",
                                                        "@",
                                                        "-",
                                                        ".",
                                                        "\\",
                                                        "\r\n",
                                                        "\xC3\xA9",
                                                        "words 1048576"};
    std::string out;
    if (pick(4) != 0) {
      out += "nodes " + std::to_string(1 + pick(6)) + "\n";
      if (pick(2) == 0) {
        out += "step\n";
      }
    }
    const std::uint32_t n = pick(40);
    for (std::uint32_t i = 0; i < n; ++i) {
      out += vocabulary[pick(static_cast<std::uint32_t>(vocabulary.size()))];
      if (pick(3) != 0) {
        out += ' ';
      }
    }
    return out;
  }

  std::string random_bytes() {
    std::string out;
    const std::uint32_t n = pick(80);
    for (std::uint32_t i = 0; i < n; ++i) {
      out += static_cast<char>(pick(256));
    }
    return out;
  }

  /// Deletes, inserts, duplicates or swaps characters or whitespace-separated pieces.
  std::string mutate(const std::string& valid) {
    static const std::string chars = "0123456789Nn ,.->#\"\\\n\tawsx@";
    std::string text = valid;
    const std::uint32_t edits = 1 + pick(4);
    for (std::uint32_t e = 0; e < edits; ++e) {
      if (pick(2) == 0) {
        text = mutate_characters(text, chars);
      } else {
        text = mutate_pieces(text);
      }
    }
    return text;
  }

  std::uint32_t pick(std::uint32_t n) {
    return std::uniform_int_distribution<std::uint32_t>(0, n - 1)(rng_);
  }

  int runs = 0;
  int accepted = 0;

 private:
  std::string mutate_characters(std::string text, const std::string& chars) {
    const auto size = static_cast<std::uint32_t>(text.size());
    const std::uint32_t at = size == 0 ? 0 : pick(size);
    switch (pick(4)) {
      case 0:
        if (size > 0) {
          text.erase(at, 1);
        }
        break;
      case 1:
        text.insert(text.begin() + at, chars[pick(static_cast<std::uint32_t>(chars.size()))]);
        break;
      case 2:
        if (size > 0) {
          text.insert(at, text.substr(at, 1 + pick(8)));
        }
        break;
      default:
        if (size > 1) {
          std::swap(text[at], text[pick(size)]);
        }
    }
    return text;
  }

  std::string mutate_pieces(const std::string& text) {
    std::vector<std::string> pieces;  // alternating runs of space and non-space
    for (char c : text) {
      const bool space = c == ' ' || c == '\n' || c == '\t';
      if (pieces.empty() || (pieces.back()[0] == ' ' || pieces.back()[0] == '\n' ||
                             pieces.back()[0] == '\t') != space) {
        pieces.emplace_back();
      }
      pieces.back() += c;
    }
    static const std::vector<std::string> inserts = {"send", "bcast", "all", "->", ",",  "..",
                                                     "step", "words", "7",   "N3", "\n", " "};
    const auto size = static_cast<std::uint32_t>(pieces.size());
    const std::uint32_t at = size == 0 ? 0 : pick(size);
    switch (pick(4)) {
      case 0:
        if (size > 0) {
          pieces.erase(pieces.begin() + at);
        }
        break;
      case 1:
        pieces.insert(pieces.begin() + at,
                      inserts[pick(static_cast<std::uint32_t>(inserts.size()))]);
        break;
      case 2:
        if (size > 0) {
          pieces.insert(pieces.begin() + at, pieces[at]);
        }
        break;
      default:
        if (size > 1) {
          std::swap(pieces[at], pieces[pick(size)]);
        }
    }
    std::string out;
    for (const std::string& p : pieces) {
      out += p;
    }
    return out;
  }

  std::mt19937 rng_;
};

TEST(McpFuzz, LocationCheckRejectsUnlocatedMessages) {
  unsigned long line = 0;
  unsigned long column = 0;
  EXPECT_TRUE(located("fz.mcp:12:3: expected x, found y", line, column));
  EXPECT_EQ(line, 12u);
  EXPECT_EQ(column, 3u);
  for (const char* bad : {"fz.mcp:12: expected", "fz.mcp::3: x", "fz.mcp:1:2:x", "t.mcp:1:2: x",
                          "expected x", "fz.mcp:a:2: x"}) {
    unsigned long l = 0;
    unsigned long c = 0;
    EXPECT_FALSE(located(bad, l, c)) << bad;
  }
}

TEST(McpFuzz, AnyInputParsesOrGivesALocatedInputError) {
  Fuzzer fuzz(4004);
  for (int i = 0; i < 3000; ++i) {
    fuzz.check(fuzz.token_soup());
  }
  for (int i = 0; i < 1000; ++i) {
    fuzz.check(fuzz.random_bytes());
  }
  std::vector<std::string> valid = {
      "nodes 4\nwords 4\nstep one\n  compute all 20\n  send 1 -> 0\nstep\n  bcast 0 -> all\n"
      "  send 1, 2 -> 3 words 2\nstep \"x y\"\n  shift -1\n",
      "nodes 5\nstep\n broadcast 2\nstep\n scatter N1\n gather 1 words 9\nstep\n allgather\n"
      "step\n alltoall\n compute 0..4 3\n"};
  std::mt19937 rng(7);
  for (int i = 0; i < 20; ++i) {
    valid.push_back(sw::format_program(random_program(rng)));
  }
  const int accepted_before = fuzz.accepted;
  for (const std::string& v : valid) {
    fuzz.check(v);
  }
  const int accepted_valid = fuzz.accepted;
  EXPECT_EQ(accepted_valid - accepted_before, 22) << "an unmutated program was rejected";
  for (int i = 0; i < 4000; ++i) {
    fuzz.check(fuzz.mutate(valid[fuzz.pick(static_cast<std::uint32_t>(valid.size()))]));
  }
  EXPECT_EQ(fuzz.runs, 3000 + 1000 + 22 + 4000);
  // The generator must reach past the header: some mutants parse, most do not.
  EXPECT_GT(fuzz.accepted, accepted_valid + 100);
  EXPECT_LT(fuzz.accepted, fuzz.runs / 2);
}

}  // namespace
}  // namespace orthosim
