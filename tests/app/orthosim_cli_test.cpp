// End-to-end: the orthosim executable as a user runs it. Exit codes, error lines, JSON fields,
// the demo's table and waveform, and byte-identical waveforms across runs (determinism). map /
// run / gen: the listings of [PH91] section 4.3 written here from the paper, the access cost
// formula, Table 1 message counts.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/cli_process.hpp"

namespace {

namespace fs = std::filesystem;

using orthosim::testing_support::expect_refused;
using orthosim::testing_support::expect_refused_with;
using orthosim::testing_support::Outcome;
using orthosim::testing_support::slurp;

class Orthosim : public orthosim::testing_support::CliTest {};

// The sanitizer build runs these tests against its own orthosim through ORTHOSIM_UNDER_TEST
// (tests/README.md, "What CI runs"): a misspelt or ignored variable would test the plain build's
// executable there without a word.
TEST(OrthosimUnderTest, IsTheEnvironmentsWhenSetElseTheOneBuiltBeside) {
  const char* before = std::getenv("ORTHOSIM_UNDER_TEST");
  const std::optional<std::string> saved =
      before != nullptr ? std::optional<std::string>(before) : std::nullopt;
  setenv("ORTHOSIM_UNDER_TEST", "/elsewhere/orthosim", 1);
  EXPECT_EQ(orthosim::testing_support::orthosim_under_test(), "/elsewhere/orthosim");
  setenv("ORTHOSIM_UNDER_TEST", "", 1);
  EXPECT_EQ(orthosim::testing_support::orthosim_under_test(), ORTHOSIM_BIN);
  unsetenv("ORTHOSIM_UNDER_TEST");
  EXPECT_EQ(orthosim::testing_support::orthosim_under_test(), ORTHOSIM_BIN);
  if (saved) {
    setenv("ORTHOSIM_UNDER_TEST", saved->c_str(), 1);
  }
}

TEST_F(Orthosim, HelpListsTheCommands) {
  const Outcome o = run("--help");
  EXPECT_EQ(o.exit_code, 0);
  EXPECT_NE(o.out.find("demo"), std::string::npos);
  EXPECT_NE(o.out.find("access"), std::string::npos);
  const Outcome a = run("access --help");
  EXPECT_EQ(a.exit_code, 0);
  EXPECT_NE(a.out.find("--alpha"), std::string::npos);
  EXPECT_NE(a.out.find("--vcd"), std::string::npos);
}

TEST_F(Orthosim, DemoRunsTheSampleProgramOnTheThreeConfigurationsAndWritesWaveforms) {
  const Outcome o = run("demo");
  ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
  EXPECT_TRUE(o.err.empty()) << o.err;
  // The omp's Step 5 of [PH91] section 4.3 C, word for word.
  EXPECT_NE(o.out.find("Step 5: C5_send((P1 -> M1,0), (P2 -> M2,0)), C5_recv(M1,0, M2,0 -> P0), "
                       "C3_send(P3 -> M3,1, M3,2), C3_recv((M3,1 -> P1), (M3,2 -> P2))"),
            std::string::npos)
      << o.out;
  for (const char* arch : {"omp", "crossbar", "bus"}) {
    EXPECT_TRUE(fs::exists(dir_ / "orthosim-demo" / (std::string(arch) + ".vcd"))) << arch;
    EXPECT_FALSE(fs::exists(dir_ / "orthosim-demo" / (std::string(arch) + ".vcd.partial")));
  }

  const Outcome j = run("demo --json --out other");
  ASSERT_EQ(j.exit_code, 0) << j.err;
  const nlohmann::json doc = nlohmann::json::parse(j.out);
  ASSERT_EQ(doc["systems"].size(), 3u);
  std::vector<std::uint64_t> cycles;
  for (const auto& s : doc["systems"]) {
    EXPECT_TRUE(s["payload_ok"].get<bool>()) << s["arch"];
    // Fig. 2: 1 + 2 + 3 + 3 + 4 node messages, every one delivered.
    EXPECT_EQ(s["messages_sent"], 13u);
    EXPECT_EQ(s["messages_delivered"], 13u);
    ASSERT_EQ(s["steps"].size(), 5u);
    std::uint64_t sum = 0;
    for (const auto& step : s["steps"]) {
      sum += step["cycles"].get<std::uint64_t>();
    }
    EXPECT_EQ(sum, s["total_cycles"].get<std::uint64_t>()) << s["arch"];
    cycles.push_back(s["total_cycles"]);
    EXPECT_TRUE(fs::exists(dir_ / "other" / (s["arch"].get<std::string>() + ".vcd")));
  }
  EXPECT_LT(cycles[0], cycles[1]);  // the omp outperforms the crossbar ...
  EXPECT_LT(cycles[1], cycles[2]);  // ... which outperforms the single bus
}

TEST_F(Orthosim, AccessJsonHasTheMeasuredAndFormulaCycles) {
  for (const char* arch : {"omp", "crossbar", "bus"}) {
    const Outcome o =
        run(std::string("access --arch ") + arch + " --n 8 --kind iwr --d 5 --l 3 --json");
    ASSERT_EQ(o.exit_code, 0) << o.err;
    const nlohmann::json j = nlohmann::json::parse(o.out);
    for (const char* field : {"cycles", "formula_cycles", "payload_ok", "conflicts"}) {
      EXPECT_TRUE(j.contains(field)) << field;
    }
    EXPECT_EQ(j["cycles"], j["formula_cycles"]) << arch;
    EXPECT_TRUE(j["payload_ok"].get<bool>());
    EXPECT_EQ(j["messages"], 8u * 5u);
  }
  const Outcome o = run("access --arch omp --n 4 --kind scalar --alpha 7 --tau 3 --json");
  ASSERT_EQ(o.exit_code, 0) << o.err;
  // Write then read back, each alpha + tau ([PH91] Fig. 5(a)).
  EXPECT_EQ(nlohmann::json::parse(o.out)["cycles"], 2u * (7 + 3));
}

// The statistics of a block workload: every P(i) writes d modules with l vectors over its own
// bus, then reads them back (docs/cli.md, access), no two on one bus, so each controller makes
// two accesses of T = alpha + beta(l-1) + d tau l cycles and d l words each, without a conflict.
TEST_F(Orthosim, AccessStatisticsCountEachAccessItsWordsAndItsCycles) {
  const std::uint64_t n = 4, d = 3, l = 5;
  const std::uint64_t t = 16 + 2 * (l - 1) + d * l;
  for (const std::string arch : {"omp", "crossbar"}) {
    const Outcome o = run("access --arch " + arch + " --n 4 --kind block --d 3 --l 5 --json");
    ASSERT_EQ(o.exit_code, 0) << arch << ": " << o.err;
    const nlohmann::json j = nlohmann::json::parse(o.out);
    EXPECT_EQ(j["cycles"], 2 * t) << arch;
    EXPECT_EQ(j["conflicts"], 0u) << arch;
    const nlohmann::json& stats = j["stats"];
    EXPECT_EQ(stats[arch + ".arbiter.grants"], 2 * n) << arch;
    for (std::uint64_t p = 0; p < n; ++p) {
      const std::string bc = arch + ".bc" + std::to_string(p) + ".";
      const std::string proc = arch + ".p" + std::to_string(p) + ".";
      EXPECT_EQ(stats[bc + "accesses"], 2u) << bc;
      EXPECT_EQ(stats[bc + "words_moved"], 2 * d * l) << bc;
      EXPECT_EQ(stats[bc + "busy_cycles"], 2 * t) << bc;
      EXPECT_EQ(stats[proc + "memory_cycles"], 2 * t) << proc;
      EXPECT_EQ(stats[proc + "compute_cycles"], 0u) << proc;
      EXPECT_EQ(stats[proc + "sync_cycles"], 0u) << proc;
    }
  }
}

TEST_F(Orthosim, BadArgumentsGiveOneErrorLineAndExitCode2) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"access --arch ring", "--arch"},
      {"access --n 4 --d 5", "--d"},
      {"access --l 0", "--l"},
      {"access --alpha -3", "--alpha"},
      {"access --gamma x", "--gamma"},
      {"access --tau 0", "--tau"},
      {"access --kind vector", "--kind"},
      {"access --kind scalar --d 2", "--d: expected d = 1 for a scalar access"},
      {"access --kind scalar --l 5", "--l: expected l = 1 for a scalar access"},
      {"access --impl fast", "--impl"},
      {"access --bogus 1", "bogus"},
      {"access --vcd /nonexistent-orthosim-dir/w.vcd", "--vcd"},
      {"frobnicate", "frobnicate"},
  };
  for (const auto& [args, mention] : cases) {
    expect_refused(run(args), mention, args);
  }
  EXPECT_FALSE(fs::exists("/nonexistent-orthosim-dir"));
}

// The form of the command line itself is refused as every value is: the option, what was
// expected, what was found (Boost's own texts, "option '--n' cannot be specified more than once",
// said neither), before anything runs or any output is opened; `--=X` is no option.
TEST_F(Orthosim, AnOptionGivenTwiceOrWithoutItsValueIsRefusedSayingWhatWasExpected) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"access --n 4 --n 8 --vcd w.vcd",
       "orthosim access: --n: expected the option once, found it twice ('4' and '8')"},
      {"traffic --topology mesh --dims 4x4 --seed 1 --seed 2 --seed 1 --trace w.trace",
       "orthosim traffic: --seed: expected the option once, found it 3 times ('1', '2' and '1')"},
      {"access --json --json", "orthosim access: --json: expected the option once, found it twice"},
      {"gen C1 --nodes 4 --out w.mcp --len",
       "orthosim gen: --len: expected a value after it, found the end of the command line"},
      {"access --vcd w.vcd --json=yes",
       "orthosim access: --json: expected no value (the option is a switch), found 'yes'"},
      {"access --vcd w.vcd --alpha=",
       "orthosim access: --alpha: expected a value after '=', found nothing"},
      // Boost took `--=C1` for C1, the bare argument, and wrote the program.
      {"gen --=C1 --nodes 4 --out w.mcp",
       "orthosim gen: unknown option --=C1 (see orthosim gen --help)"},
  };
  for (const auto& [args, line] : cases) {
    expect_refused_with(run(args), line, args);
  }
  for (const char* output : {"w.vcd", "w.vcd.partial", "w.trace", "w.trace.partial", "w.mcp"}) {
    EXPECT_FALSE(fs::exists(dir_ / output)) << output;
  }
}

TEST_F(Orthosim, TheSameRunGivesByteIdenticalWaveformsAndOutput) {
  const Outcome a = run("access --arch crossbar --n 4 --kind iwr --vcd a.vcd --json");
  const Outcome b = run("access --arch crossbar --n 4 --kind iwr --vcd b.vcd --json");
  ASSERT_EQ(a.exit_code, 0) << a.err;
  ASSERT_EQ(b.exit_code, 0) << b.err;
  const std::string va = slurp(dir_ / "a.vcd");
  EXPECT_GT(va.size(), 1000u);
  EXPECT_EQ(va, slurp(dir_ / "b.vcd"));
  EXPECT_EQ(va.find("$date"), std::string::npos);
  nlohmann::json ja = nlohmann::json::parse(a.out), jb = nlohmann::json::parse(b.out);
  ja.erase("vcd");
  jb.erase("vcd");
  EXPECT_EQ(ja, jb);
}

// ---- map, run, gen -------------------------------------------------------------------------

const std::string kFig2 = ORTHOSIM_EXAMPLES_DIR "/fig2_sample.mcp";

/// The lines of `text` that start with "  Step " after the line that starts with `header`.
std::vector<std::string> step_lines_after(const std::string& text, const std::string& header) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  bool inside = false;
  while (std::getline(in, line)) {
    if (line.rfind(header, 0) == 0) {
      inside = true;
      continue;
    }
    if (inside) {
      if (line.rfind("  Step ", 0) != 0) {
        break;
      }
      out.push_back(line.substr(2));
    }
  }
  return out;
}

TEST_F(Orthosim, MapPrintsThePapersListingsOfTheSampleProgram) {
  // [PH91] section 2: the program-level operations of Fig. 2.
  const std::vector<std::string> program = {
      "Step 1: C1(N1, N0)",
      "Step 2: C2((N1, N2), (N3, N0))",
      "Step 3: C3((N0, N1), (N0, N2), (N0, N3))",
      "Step 4: C4((N0, N1), (N0, N2), (N0, N3))",
      "Step 5: C10((N1, N0), (N2, N0)), C8((N3, N1), (N3, N2))",
  };
  // [PH91] section 4.3, A: single bus multiprocessor system.
  const std::vector<std::string> bus = {
      "Step 1: C1_send(P1 -> M0), C1_recv(M0 -> P0)",
      "Step 2: C1_send(P1 -> M2), C1_send(P3 -> M0), C1_recv(M2 -> P2), C1_recv(M0 -> P0)",
      "Step 3: C3_send(P0 -> M1, M2, M3), C1_recv(M1 -> P1), C1_recv(M2 -> P2), "
      "C1_recv(M3 -> P3)",
      "Step 4: C4_send(P0 -> M1, M2, M3), C1_recv(M1 -> P1), C1_recv(M2 -> P2), "
      "C1_recv(M3 -> P3)",
      "Step 5: C1_send(P1 -> M0), C1_send(P2 -> M0), C1_recv(M0 -> P0), C1_recv(M0 -> P0), "
      "C3_send(P3 -> M1, M2), C1_recv(M1 -> P1), C1_recv(M2 -> P2)",
  };
  // B: crossbar-connected multiprocessor system.
  const std::vector<std::string> crossbar = {
      "Step 1: C1_send(P1 -> M1,0), C1_recv(M1,0 -> P0)",
      "Step 2: C2_send((P1 -> M1,2), (P3 -> M3,0)), C2_recv((M1,2 -> P2), (M3,0 -> P0))",
      "Step 3: C3_send(P0 -> M0,1, M0,2, M0,3), C1_recv(M0,1 -> P1), C1_recv(M0,2 -> P2), "
      "C1_recv(M0,3 -> P3)",
      "Step 4: C4_send(P0 -> M0,1, M0,2, M0,3), C1_recv(M0,1 -> P1), C1_recv(M0,2 -> P2), "
      "C1_recv(M0,3 -> P3)",
      "Step 5: C1_send(P1 -> M1,0), C1_send(P2 -> M2,0), C1_recv(M1,0 -> P0), "
      "C1_recv(M2,0 -> P0), C3_send(P3 -> M3,1, M3,2), C1_recv(M3,1 -> P1), C1_recv(M3,2 -> P2)",
  };
  // C: orthogonal multiprocessor system.
  const std::vector<std::string> omp = {
      "Step 1: C1_send(P1 -> M1,0), C1_recv(M1,0 -> P0)",
      "Step 2: C2_send((P1 -> M1,2), (P3 -> M3,0)), C2_recv((M1,2 -> P2), (M3,0 -> P0))",
      "Step 3: C3_send(P0 -> M0,1, M0,2, M0,3), C3_recv((M0,1 -> P1), (M0,2 -> P2), "
      "(M0,3 -> P3))",
      "Step 4: C4_send(P0 -> M0,1, M0,2, M0,3), C4_recv((M0,1 -> P1), (M0,2 -> P2), "
      "(M0,3 -> P3))",
      "Step 5: C5_send((P1 -> M1,0), (P2 -> M2,0)), C5_recv(M1,0, M2,0 -> P0), "
      "C3_send(P3 -> M3,1, M3,2), C3_recv((M3,1 -> P1), (M3,2 -> P2))",
  };
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {"bus", bus}, {"crossbar", crossbar}, {"omp", omp}};
  for (const auto& [arch, listing] : cases) {
    const Outcome o = run("map '" + kFig2 + "' --arch " + arch);
    ASSERT_EQ(o.exit_code, 0) << arch << ": " << o.err;
    EXPECT_TRUE(o.err.empty()) << o.err;
    EXPECT_EQ(step_lines_after(o.out, "communication operations"), program) << o.out;
    EXPECT_EQ(step_lines_after(o.out, "memory operations"), listing) << arch << "\n" << o.out;
  }
}

// The demo's three systems run side by side in one simulation, and each takes, step by step, the
// cycles the same program takes alone on that configuration.
TEST_F(Orthosim, TheDemosSystemsTakeTheCyclesOfSeparateRuns) {
  const Outcome demo = run("demo --json --out waves");
  ASSERT_EQ(demo.exit_code, 0) << demo.err;
  const nlohmann::json systems = nlohmann::json::parse(demo.out)["systems"];
  ASSERT_EQ(systems.size(), 3u);
  for (const nlohmann::json& s : systems) {
    const std::string arch = s["arch"];
    const Outcome alone = run("run '" + kFig2 + "' --arch " + arch + " --json");
    ASSERT_EQ(alone.exit_code, 0) << arch << ": " << alone.err;
    const nlohmann::json j = nlohmann::json::parse(alone.out);
    EXPECT_EQ(s["total_cycles"], j["total_cycles"]) << arch;
    EXPECT_EQ(s["predicted_cycles"], j["predicted_cycles"]) << arch;
    EXPECT_EQ(s["conflicts"], j["conflicts"]) << arch;
    ASSERT_EQ(s["steps"].size(), j["steps"].size()) << arch;
    for (std::size_t k = 0; k < j["steps"].size(); ++k) {
      EXPECT_EQ(s["steps"][k]["cycles"], j["steps"][k]["cycles"]) << arch << " step " << k + 1;
    }
  }
}

TEST_F(Orthosim, RunJsonDeliversEveryMessageAndEachAccessCostsTheFormula) {
  const std::uint64_t alpha = 10, beta = 3, tau = 2;
  std::vector<std::uint64_t> totals;
  for (const char* arch : {"omp", "crossbar", "bus"}) {
    const Outcome o =
        run("run '" + kFig2 + "' --arch " + arch + " --alpha 10 --beta 3 --tau 2 --gamma 5 --json");
    ASSERT_EQ(o.exit_code, 0) << arch << ": " << o.err;
    EXPECT_TRUE(o.err.empty()) << o.err;
    const nlohmann::json j = nlohmann::json::parse(o.out);
    EXPECT_EQ(j["command"], "run");
    EXPECT_EQ(j["arch"], arch);
    EXPECT_EQ(j["alpha"], alpha);
    EXPECT_TRUE(j["payload_ok"].get<bool>()) << arch;
    EXPECT_TRUE(j["completed"].get<bool>()) << arch;
    // Fig. 2: 1 + 2 + 3 + 3 + 4 node messages of 4 words.
    EXPECT_EQ(j["messages_sent"], 13u) << arch;
    EXPECT_EQ(j["messages_delivered"], 13u) << arch;
    EXPECT_EQ(j["words"], 13u * 4u) << arch;
    EXPECT_TRUE(j["delivery_failures"].empty());
    EXPECT_TRUE(j["blocked"].empty());
    EXPECT_TRUE(j["vcd"].is_null());
    EXPECT_EQ(j["time_ns"].get<std::uint64_t>(),
              j["total_cycles"].get<std::uint64_t>() * j["clock_ns"].get<std::uint64_t>());
    ASSERT_EQ(j["steps"].size(), 5u);
    std::uint64_t sum = 0;
    std::size_t accesses = 0;
    for (const auto& step : j["steps"]) {
      sum += step["cycles"].get<std::uint64_t>();
      EXPECT_EQ(step["end_cycle"].get<std::uint64_t>(), sum) << arch << " step " << step["step"];
      EXPECT_TRUE(step.contains("predicted_cycles"));
      for (const auto& op : step["operations"]) {
        for (const auto& a : op["accesses"]) {
          const auto d = a["d"].get<std::uint64_t>();
          const auto l = a["l"].get<std::uint64_t>();
          EXPECT_EQ(l, 4u);
          EXPECT_EQ(a["formula_cycles"].get<std::uint64_t>(), alpha + beta * (l - 1) + d * tau * l)
              << arch << " " << op["text"];
          ++accesses;
        }
      }
    }
    EXPECT_GT(accesses, 0u);
    EXPECT_EQ(sum, j["total_cycles"].get<std::uint64_t>()) << arch;
    totals.push_back(j["total_cycles"].get<std::uint64_t>());
  }
  EXPECT_LT(totals[0], totals[2]);  // the omp beats the single bus
  EXPECT_LE(totals[0], totals[1]);  // and is no slower than the crossbar
}

// The delivery check through the command line: a bit flipped on the bus (ORTHOSIM_TEST_FAULT, the
// test-only fault of docs/rtl.md, on the model alone) in any one word of Fig. 2's first message
// fails that message and no other, and the report names the word. Step 1: every node computes 20
// cycles, then P1 writes message 0 (N1 -> N0, 4 words) to M(1,0) in one block access granted at
// cycle 20; word v is on the bus from 20 + alpha + v (beta + tau) (Fig. 5(c), d = 1).
TEST_F(Orthosim, ACorruptedWordFailsItsMessageWhicheverWordItIs) {
  const std::uint64_t alpha = 16, beta = 2, tau = 1;
  for (std::uint64_t word = 0; word < 4; ++word) {
    const std::uint64_t at = 20 + alpha + word * (beta + tau);
    setenv("ORTHOSIM_TEST_FAULT", ("1:flip:" + std::to_string(at) + ":5").c_str(), 1);
    const Outcome o = run("run '" + kFig2 + "' --arch omp --json");
    unsetenv("ORTHOSIM_TEST_FAULT");
    EXPECT_EQ(o.exit_code, 1) << "word " << word << ": " << o.err;
    const nlohmann::json j = nlohmann::json::parse(o.out);
    EXPECT_TRUE(j["completed"].get<bool>());
    EXPECT_FALSE(j["payload_ok"].get<bool>()) << "word " << word;
    EXPECT_EQ(j["messages_sent"], 13u);
    EXPECT_EQ(j["messages_delivered"], 12u) << "word " << word;
    ASSERT_EQ(j["delivery_failures"].size(), 1u) << "word " << word;
    const std::string failure = j["delivery_failures"][0];
    EXPECT_EQ(failure.rfind("message 0 (P1 -> P0", 0), 0u) << failure;
    EXPECT_NE(failure.find("word " + std::to_string(word) + " at P0"), std::string::npos)
        << failure;
  }
}

// The predicted cycles of a step with activate-/wait-sync pairs (the default), at a sync cost s
// other than the default: where the chain of one processor dominates (C1 on the omp: write T,
// activate s, read T) and where one bus carries everything (C3 on the single bus: the write and
// the three reads in turn, and one activate), with T = alpha + beta(l-1) + d tau l (Fig. 5(c)).
TEST_F(Orthosim, PredictedCyclesAddTheSyncCostToTheLongerOfChainAndBusLoad) {
  const auto access = [](std::uint64_t d, std::uint64_t l) { return 16 + 2 * (l - 1) + d * l; };
  const std::uint64_t s = 5;
  ASSERT_EQ(run("gen C1 --nodes 4 --sources 2 --dests 3 --len 5 --out c1.mcp").exit_code, 0);
  ASSERT_EQ(run("gen C3 --nodes 4 --sources 1 --len 2 --out c3.mcp").exit_code, 0);
  struct Case {
    std::string args;
    std::uint64_t predicted;
  };
  const Case cases[] = {{"run c1.mcp --arch omp", access(1, 5) + s + access(1, 5)},
                        {"run c3.mcp --arch bus", access(3, 2) + 3 * access(1, 2) + s}};
  for (const Case& c : cases) {
    const Outcome o = run(c.args + " --sync-cycles " + std::to_string(s) + " --json");
    ASSERT_EQ(o.exit_code, 0) << c.args << ": " << o.err;
    const nlohmann::json j = nlohmann::json::parse(o.out);
    ASSERT_EQ(j["steps"].size(), 1u);
    EXPECT_EQ(j["steps"][0]["predicted_cycles"], c.predicted) << c.args;
    EXPECT_EQ(j["predicted_cycles"], c.predicted) << c.args;
    EXPECT_EQ(j["total_cycles"], c.predicted) << c.args;
  }
}

TEST_F(Orthosim, GeneratedProgramsRunAndDeliverTable1sMessageCounts) {
  struct Case {
    std::string gen;
    std::uint64_t messages, words;  // Table 1 totals; words = messages x --len
  };
  const std::vector<Case> cases = {
      {"C1 --nodes 4 --sources 2 --dests 3 --len 5", 1, 5},
      {"C2 --nodes 5 --seed 3", 5, 5},                            // m
      {"C3 --nodes 5 --len 3", 4, 12},                            // m - 1
      {"C5 --nodes 6 --len 2", 5, 10},                            // m - 1
      {"C7 --nodes 4 --len 2", 12, 24},                           // m (m - 1)
      {"C6 --nodes 4", 12, 12},                                   // m (m - 1)
      {"C10 --nodes 6 --sources 1,2,3 --dests 0", 3, 3},          // sr
      {"C12 --nodes 6 --sources 1,2 --dests 3,4 --len 2", 4, 8},  // sr ds
      {"many-to-many-broadcast --nodes 6 --sources 0,5 --dests 2,3", 4, 4},
  };
  int k = 0;
  for (const Case& c : cases) {
    const std::string file = "p" + std::to_string(k++) + ".mcp";
    const Outcome g = run("gen " + c.gen + " --out " + file);
    ASSERT_EQ(g.exit_code, 0) << c.gen << ": " << g.err;
    EXPECT_TRUE(g.out.empty()) << g.out;
    ASSERT_TRUE(fs::exists(dir_ / file)) << c.gen;
    EXPECT_FALSE(fs::exists(dir_ / (file + ".partial"))) << c.gen;
    // The file is what gen prints without --out.
    EXPECT_EQ(slurp(dir_ / file), run("gen " + c.gen).out) << c.gen;
    for (const char* arch : {"omp", "crossbar", "bus"}) {
      const Outcome o = run("run " + file + " --arch " + arch + " --json");
      ASSERT_EQ(o.exit_code, 0) << c.gen << " on " << arch << ": " << o.err;
      const nlohmann::json j = nlohmann::json::parse(o.out);
      EXPECT_TRUE(j["payload_ok"].get<bool>()) << c.gen << " on " << arch;
      EXPECT_EQ(j["messages_sent"], c.messages) << c.gen << " on " << arch;
      EXPECT_EQ(j["messages_delivered"], c.messages) << c.gen << " on " << arch;
      EXPECT_EQ(j["words"], c.words) << c.gen << " on " << arch;
      ASSERT_EQ(j["steps"].size(), 1u);
      EXPECT_EQ(j["steps"][0]["cycles"], j["total_cycles"]) << c.gen << " on " << arch;
    }
  }
  // Random programs, on as many processors as nodes and clustered onto fewer.
  ASSERT_EQ(run("gen random --nodes 6 --steps 4 --len 5 --seed 11 --out r.mcp").exit_code, 0);
  EXPECT_FALSE(fs::exists(dir_ / "r.mcp.partial"));
  for (const char* args :
       {"--arch omp", "--arch crossbar", "--arch bus", "--arch omp --n 3", "--arch bus --n 2"}) {
    const Outcome o = run(std::string("run r.mcp --json ") + args);
    ASSERT_EQ(o.exit_code, 0) << args << ": " << o.err;
    const nlohmann::json j = nlohmann::json::parse(o.out);
    EXPECT_TRUE(j["payload_ok"].get<bool>()) << args;
    EXPECT_GT(j["messages_sent"].get<std::uint64_t>(), 0u) << args;
    EXPECT_EQ(j["messages_sent"], j["messages_delivered"]) << args;
    EXPECT_EQ(j["steps"].size(), 4u) << args;
  }
}

TEST_F(Orthosim, TheSameProgramRunGivesByteIdenticalWaveformsAndOutput) {
  const Outcome a = run("run '" + kFig2 + "' --arch omp --vcd a.vcd --json");
  const Outcome b = run("run '" + kFig2 + "' --arch omp --vcd b.vcd --json");
  ASSERT_EQ(a.exit_code, 0) << a.err;
  ASSERT_EQ(b.exit_code, 0) << b.err;
  const std::string va = slurp(dir_ / "a.vcd");
  EXPECT_GT(va.size(), 1000u);
  EXPECT_EQ(va.rfind("$", 0), 0u);  // a VCD starts with a declaration
  EXPECT_NE(va.find("$enddefinitions"), std::string::npos);
  EXPECT_EQ(va, slurp(dir_ / "b.vcd"));
  EXPECT_FALSE(fs::exists(dir_ / "a.vcd.partial"));
  nlohmann::json ja = nlohmann::json::parse(a.out), jb = nlohmann::json::parse(b.out);
  EXPECT_EQ(ja["vcd"], "a.vcd");
  ja.erase("vcd");
  jb.erase("vcd");
  EXPECT_EQ(ja, jb);
  // The table says where the waveform went.
  const Outcome t = run("run '" + kFig2 + "' --arch bus --vcd c.vcd");
  ASSERT_EQ(t.exit_code, 0) << t.err;
  EXPECT_NE(t.out.find("c.vcd"), std::string::npos) << t.out;
  EXPECT_TRUE(fs::exists(dir_ / "c.vcd"));
}

TEST_F(Orthosim, BadProgramCommandsGiveOneErrorLineAndExitCode2) {
  {
    std::ofstream(dir_ / "bad.mcp") << "nodes 4\nstep\n  send 1 -> 4\n";
    std::ofstream(dir_ / "plain") << "a file, not a folder\n";
  }
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"map", "PROGRAM"},
      {"run --arch omp", "PROGRAM"},
      {"map missing.mcp", "missing.mcp"},
      {"run missing.mcp", "missing.mcp"},
      {"map bad.mcp", "bad.mcp:3:13:"},  // the '4' of "  send 1 -> 4"
      {"run bad.mcp --arch bus", "bad.mcp:3:13:"},
      {"map '" + kFig2 + "' --arch ring", "--arch"},
      {"run '" + kFig2 + "' --arch ring", "--arch"},
      {"map '" + kFig2 + "' --n 0", "--n"},
      {"run '" + kFig2 + "' --n 0", "--n"},
      {"run '" + kFig2 + "' --buffer-words 1", "--buffer-words"},
      {"run '" + kFig2 + "' --vcd plain/w.vcd", "plain/w.vcd"},
      {"gen C13 --nodes 4", "C13"},
      {"gen C3", "--nodes"},
      {"gen random --nodes 4", "--steps"},
      {"gen C8 --nodes 3", "--nodes"},
      {"gen C1 --nodes 4 --sources 7", "--sources"},
      {"gen C1 --nodes 4 --out plain/p.mcp", "--out"},
      {"demo --n 0", "--n"},
      {"demo --out plain/waves", "plain/waves"},
  };
  for (const auto& [args, mention] : cases) {
    expect_refused(run(args), mention, args);
  }
  EXPECT_FALSE(fs::exists(dir_ / "plain" / "p.mcp.partial"));
  EXPECT_EQ(slurp(dir_ / "plain"), "a file, not a folder\n");
}

// gen refuses a program of more nodes than a .mcp program has (4096, the parser's `nodes`
// limit, docs/program-format.md) before it generates anything: it wrote such files, which every
// command then refused at their `nodes` line. 4096 nodes is written and reads back.
TEST_F(Orthosim, GenRefusesAProgramOfMoreNodesThanAProgramHoldsAndWritesNothing) {
  const std::string limit =
      "expected a program of at most 4096 nodes (the most a .mcp program has)";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"gen shift --torus 128x64 --direction east --out big.mcp",
       "orthosim gen: --torus: " + limit + ", found '128x64', 8192 nodes"},
      {"gen cc-cube --dim 13 --out big.mcp",
       "orthosim gen: --dim: " + limit + ", found '13', 8192 nodes"},
      {"gen calmant --mesh 128x128 --len 1 --pipeline 1 --out big.mcp",
       "orthosim gen: --mesh: " + limit + ", found '128x128', 16384 nodes"},
      {"gen calmant --line 8192 --len 1 --pipeline 1 --out big.mcp",
       "orthosim gen: --line: " + limit + ", found '8192', 8192 nodes"},
      {"gen complete-exchange --cube 13 --block 1 --onto mesh --dims 128x64 --out big.mcp",
       "orthosim gen: --cube: " + limit + ", found '13', 8192 nodes"},
  };
  for (const auto& [args, line] : cases) {
    const Outcome o = run(args);
    expect_refused_with(o, line, args);
    EXPECT_FALSE(fs::exists(dir_ / "big.mcp")) << args;
    EXPECT_FALSE(fs::exists(dir_ / "big.mcp.partial")) << args;
  }
  // A random program on 4096 nodes: two steps of seed 1 are more text than a program file holds
  // (64 MiB, a reader's limit); six of seed 1 hold more messages than a program expands to
  // (2^24), in broadcasts and multi-destination sends, 0.1 GB to generate (two steps of seed 7,
  // one of them an all-to-all of 4096 x 4095 single messages, took 0.9 GB, 2.5 GB under the
  // sanitizers). Both were written, and refused by every reader.
  const std::vector<std::pair<std::string, std::pair<std::string, std::uint64_t>>> large = {
      {"gen random --nodes 4096 --steps 2 --seed 1 --out big.mcp",
       {"orthosim gen: random: expected a program of at most 67108864 bytes (64 MiB), the most a "
        ".mcp file has, found ",
        std::uint64_t{64} << 20}},
      {"gen random --nodes 4096 --steps 6 --seed 1 --out big.mcp",
       {"orthosim gen: random: expected a program of at most 16777216 messages and compute "
        "phases, the most a .mcp program has, found ",
        std::uint64_t{1} << 24}},
  };
  for (const auto& [args, refusal] : large) {
    const Outcome o = run(args);
    expect_refused(o, refusal.first, args);
    ASSERT_EQ(o.err.rfind(refusal.first, 0), 0u) << o.err;
    EXPECT_GT(std::stoull(o.err.substr(refusal.first.size())), refusal.second) << o.err;
    EXPECT_FALSE(fs::exists(dir_ / "big.mcp")) << args;
    EXPECT_FALSE(fs::exists(dir_ / "big.mcp.partial")) << args;
  }
  // At the limit: the parser reads it (map then asks for processors, the program being larger
  // than the largest system, not for a smaller program).
  ASSERT_EQ(run("gen cc-cube --dim 12 --out cc.mcp").exit_code, 0);
  expect_refused(run("map cc.mcp"), "orthosim map: --n: expected a processor count: the program "
                                    "has 4096 nodes");
}

// --torus CxR and --collapse are quoted whole when a part is at fault ('4x' was refused as
// found '', '4x4x4' as found '4x4', --collapse 'x0,' as found ''), and a shift needs two nodes
// on its own ring only: a 1x4 torus shifts north (it was refused for its one column), a 4x1
// torus cannot (it was told to shift 1..0 nodes).
TEST_F(Orthosim, AGridOrListIsQuotedWholeAndAShiftNeedsTwoNodesOnItsRing) {
  const std::string grid = "expected columns x rows, e.g. 4x4, each 1..4096";
  const std::string dimensions =
      "expected hypercube dimensions separated by commas, e.g. x0,x3, each 0..31";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"map '" + kFig2 + "' --n 2 --collapse x0,",
       "orthosim map: --collapse: " + dimensions + ", found 'x0,'"},
      {"tables --topology hypercube --m 4 --n 2 --collapse x0,,x1",
       "orthosim tables: --collapse: " + dimensions + ", found 'x0,,x1'"},
      {"gen shift --torus 4x --direction east", "orthosim gen: --torus: " + grid + ", found '4x'"},
      {"gen shift --torus 4x4x4 --direction east",
       "orthosim gen: --torus: " + grid + ", found '4x4x4'"},
      {"gen shift --torus 0x4 --direction east",
       "orthosim gen: --torus: " + grid + ", found '0x4'"},
      {"map '" + kFig2 + "' --torus x4", "orthosim map: --torus: " + grid + ", found 'x4'"},
      {"run '" + kFig2 + "' --torus 2x4097", "orthosim run: --torus: " + grid + ", found '2x4097'"},
      {"gen shift --torus 4x1 --direction north",
       "orthosim gen: --torus: expected at least 2 rows for a north or south shift, found '4x1'"},
      {"gen shift --torus 1x4 --direction west",
       "orthosim gen: --torus: expected at least 2 columns for an east or west shift, found '1x4'"},
  };
  for (const auto& [args, line] : cases) {
    expect_refused_with(run(args), line, args);
  }
  // One column, four rows: node y sends to node y + 1 mod 4, four messages.
  const Outcome north = run("gen shift --torus 1x4 --direction north --out n.mcp");
  ASSERT_EQ(north.exit_code, 0) << north.err;
  const std::string text = slurp(dir_ / "n.mcp");
  EXPECT_NE(text.find("nodes 4\n"), std::string::npos) << text;
  for (const char* send : {"send 0 -> 1\n", "send 1 -> 2\n", "send 2 -> 3\n", "send 3 -> 0\n"}) {
    EXPECT_NE(text.find(send), std::string::npos) << send << " in\n" << text;
  }
  const Outcome ran = run("run n.mcp --json");
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  EXPECT_EQ(nlohmann::json::parse(ran.out)["messages_delivered"], 4);
}

// ---- run on a mesh, torus or hypercube; traffic ---------------------------------------------

/// A network as the tests see it, written here independently of sw/topology: node numbers with
/// dimension 0 varying fastest, dimension-ordered routes (lowest dimension first; on a torus the
/// shorter way round, the positive one at exactly half a ring; e-cube on a hypercube).
struct Net {
  std::string kind;                    // mesh | torus | hypercube
  std::vector<std::uint32_t> radices;  // a hypercube: d radices of 2

  std::uint32_t nodes() const {
    std::uint32_t n = 1;
    for (std::uint32_t k : radices) {
      n *= k;
    }
    return n;
  }
  std::vector<std::uint32_t> coords(std::uint32_t node) const {
    std::vector<std::uint32_t> c;
    for (std::uint32_t k : radices) {
      c.push_back(node % k);
      node /= k;
    }
    return c;
  }
  std::uint32_t node_at(const std::vector<std::uint32_t>& c) const {
    std::uint32_t node = 0;
    for (std::size_t i = radices.size(); i-- > 0;) {
      node = node * radices[i] + c[i];
    }
    return node;
  }
  /// Manhattan distance, ring distances min(|dx|, k - |dx|), or Hamming distance.
  std::uint32_t hops(std::uint32_t a, std::uint32_t b) const {
    const std::vector<std::uint32_t> x = coords(a), y = coords(b);
    std::uint32_t h = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      const std::uint32_t d = x[i] > y[i] ? x[i] - y[i] : y[i] - x[i];
      h += kind == "torus" ? std::min(d, radices[i] - d) : d;
    }
    return h;
  }
  /// The channels of the route from a to b, named like the report: "n3.x+", "n5.d2".
  std::vector<std::string> route(std::uint32_t a, std::uint32_t b) const {
    std::vector<std::string> out;
    std::vector<std::uint32_t> at = coords(a);
    const std::vector<std::uint32_t> to = coords(b);
    for (std::size_t i = 0; i < radices.size(); ++i) {
      const std::uint32_t k = radices[i];
      while (at[i] != to[i]) {
        const std::string from = "n" + std::to_string(node_at(at)) + ".";
        if (kind == "hypercube") {
          out.push_back(from + "d" + std::to_string(i));
          at[i] = to[i];
          continue;
        }
        bool positive = to[i] > at[i];
        if (kind == "torus") {
          const std::uint32_t forward = (to[i] + k - at[i]) % k;
          positive = forward <= k - forward;
        }
        out.push_back(from + std::string(1, "xyz"[i]) + (positive ? "+" : "-"));
        at[i] = positive ? (at[i] + 1) % k : (at[i] + k - 1) % k;
      }
    }
    return out;
  }
};

/// Zero-load time of one message of `words` words (one packet of F = words + 1 flits) over h
/// links: wormhole t_s + (h+1) D + F; store-and-forward t_s + F + (h+1)(D + F - 1).
std::uint64_t zero_load(bool saf, std::uint64_t startup, std::uint64_t delay, std::uint64_t words,
                        std::uint64_t h) {
  const std::uint64_t flits = words + 1;
  return saf ? startup + flits + (h + 1) * (delay + flits - 1) : startup + (h + 1) * delay + flits;
}

std::string size_option(const Net& net) {
  if (net.kind == "hypercube") {
    return "--dim " + std::to_string(net.radices.size());
  }
  std::string dims;
  for (std::size_t i = 0; i < net.radices.size(); ++i) {
    dims += (i == 0 ? "" : "x") + std::to_string(net.radices[i]);
  }
  return "--dims " + dims;
}

/// The node messages of examples/fig2_sample.mcp (source, destination), from its listing:
/// C1(N1,N0); C2 (N1,N2),(N3,N0); C3 and C4 from N0 to the 3 others; C10 (N1,N0),(N2,N0) and
/// C8 (N3,N1),(N3,N2): 13 messages of 4 words.
const std::vector<std::pair<std::uint32_t, std::uint32_t>> kFig2Messages = {{1, 0}, {1, 2}, {3, 0},
                                                                            {0, 1}, {0, 2}, {0, 3},
                                                                            {0, 1}, {0, 2}, {0, 3},
                                                                            {1, 0}, {2, 0}, {3, 1},
                                                                            {3, 2}};

/// Messages per channel of the Fig. 2 program with program node i on network node map[i].
std::map<std::string, std::uint64_t> fig2_channel_load(const Net& net,
                                                       const std::vector<std::uint32_t>& map) {
  std::map<std::string, std::uint64_t> load;
  for (const auto& [src, dst] : kFig2Messages) {
    for (const std::string& channel : net.route(map[src], map[dst])) {
      ++load[channel];
    }
  }
  return load;
}

/// The report's channels that carried at least one message.
std::map<std::string, std::uint64_t> used_channels(const nlohmann::json& j) {
  std::map<std::string, std::uint64_t> out;
  for (const auto& c : j["channels"]) {
    if (c["messages"].get<std::uint64_t>() > 0) {
      out[c["channel"].get<std::string>()] = c["messages"].get<std::uint64_t>();
    }
  }
  return out;
}

// One message over one link with 1-flit buffers: one message went through the channel and no
// input buffer held more than its one flit; the report says so in the singular, and says where.
TEST_F(Orthosim, ANetworkRunsReportCountsItsMessagesAndFlitsInWords) {
  std::ofstream(dir_ / "one.mcp") << "nodes 2\nstep s\n  send 0 -> 1 words 3\n";
  const auto one = run("run one.mcp --arch mesh --dims 2");
  ASSERT_EQ(one.exit_code, 0) << one.err;
  EXPECT_NE(one.out.find("\nmax channel contention: 1 message through one channel\n"),
            std::string::npos)
      << one.out;
  EXPECT_NE(one.out.find("\npeak channel occupancy: 1 flit in one input buffer\n"),
            std::string::npos)
      << one.out;
  // Two messages down the same link, deeper buffers: the plural.
  std::ofstream(dir_ / "two.mcp")
      << "nodes 3\nstep s\n  send 0 -> 2 words 3\n  send 1 -> 2 words 3\n";
  const auto two = run("run two.mcp --arch mesh --dims 3 --buffers 4 --ports all");
  ASSERT_EQ(two.exit_code, 0) << two.err;
  EXPECT_NE(two.out.find("\nmax channel contention: 2 messages through one channel\n"),
            std::string::npos)
      << two.out;
  // Each step's contention is its own: on the line 0 - 1 - 2 the first step's two messages share
  // the channel 1 -> 2, the second step's one message crosses 0 -> 1 alone.
  std::ofstream(dir_ / "steps.mcp")
      << "nodes 3\nstep shared\n  send 0 -> 2\n  send 1 -> 2\nstep alone\n  send 0 -> 1\n";
  const auto steps = run("run steps.mcp --arch mesh --dims 3 --json");
  ASSERT_EQ(steps.exit_code, 0) << steps.err;
  const nlohmann::json j = nlohmann::json::parse(steps.out);
  EXPECT_EQ(j["max_channel_contention"], 2u);
  ASSERT_EQ(j["steps"].size(), 2u);
  EXPECT_EQ(j["steps"][0]["max_channel_contention"], 2u);
  EXPECT_EQ(j["steps"][1]["max_channel_contention"], 1u);
}

TEST_F(Orthosim, OneMessageOnAnIdleNetworkTakesTheZeroLoadTime) {
  struct Route {
    Net net;
    std::uint32_t src, dst;
  };
  const std::vector<Route> routes = {
      {{"mesh", {4, 4}}, 1, 14},             // (1,0) -> (2,3)
      {{"mesh", {4, 3, 2}}, 0, 23},          // (0,0,0) -> (3,2,1)
      {{"mesh", {8}}, 7, 0},                 // a line, end to end
      {{"torus", {5, 5}}, 0, 24},            // (0,0) -> (4,4): one wrap-around link per dimension
      {{"torus", {4, 4}}, 0, 10},            // (0,0) -> (2,2): exactly half of each ring
      {{"torus", {8}}, 7, 0},                // a ring: the wrap-around link
      {{"torus", {3, 3, 3}}, 1, 26},         // (1,0,0) -> (2,2,2)
      {{"hypercube", {2, 2, 2, 2}}, 3, 12},  // 0011 -> 1100
      {{"hypercube", {2, 2, 2, 2, 2, 2}}, 5, 40},  // 000101 -> 101000
      {{"hypercube", {2}}, 0, 1},
  };
  struct Params {
    std::uint64_t startup, delay, buffers, words;
    std::string extra;
  };
  const std::vector<Params> params = {
      {0, 1, 1, 5, ""},
      {7, 1, 1, 5, ""},
      {0, 3, 4, 5, ""},
      {11, 2, 2, 9, "--packet-flits 64"},  // larger than the message: still one packet
      {5, 2, 1, 3, "--ports all"},
      {0, 1, 1, 1, ""},
  };
  int file = 0;
  for (const Route& r : routes) {
    const std::uint32_t h = r.net.hops(r.src, r.dst);
    ASSERT_EQ(r.net.route(r.src, r.dst).size(), h);
    ASSERT_GT(h, 0u);
    for (const Params& p : params) {
      const std::string program = "one" + std::to_string(file++) + ".mcp";
      std::ofstream(dir_ / program) << "nodes " << r.net.nodes() << "\nstep\n  send " << r.src
                                    << " -> " << r.dst << " words " << p.words << "\n";
      for (const bool saf : {false, true}) {
        // Store-and-forward buffers must hold the whole packet.
        const std::uint64_t buffers = saf ? std::max(p.buffers, p.words + 1) : p.buffers;
        const std::string args = "run " + program + " --arch " + r.net.kind + " " +
                                 size_option(r.net) + " --startup " + std::to_string(p.startup) +
                                 " --router-delay " + std::to_string(p.delay) + " --buffers " +
                                 std::to_string(buffers) + (saf ? " --switching saf " : " ") +
                                 p.extra + " --json";
        const Outcome o = run(args);
        ASSERT_EQ(o.exit_code, 0) << args << ": " << o.err;
        const nlohmann::json j = nlohmann::json::parse(o.out);
        EXPECT_TRUE(j["payload_ok"].get<bool>()) << args;
        EXPECT_EQ(j["messages_delivered"], 1u) << args;
        EXPECT_EQ(j["total_cycles"].get<std::uint64_t>(),
                  zero_load(saf, p.startup, p.delay, p.words, h))
            << args << " (" << h << " hops)";
        // The one message crosses each channel of its route once.
        std::map<std::string, std::uint64_t> expected;
        for (const std::string& c : r.net.route(r.src, r.dst)) {
          ++expected[c];
        }
        EXPECT_EQ(used_channels(j), expected) << args;
        EXPECT_EQ(j["max_channel_contention"], 1u) << args;
      }
    }
  }
}

TEST_F(Orthosim, TheSampleProgramRunsOnEveryNetworkAndDeliversEveryMessage) {
  const std::vector<Net> nets = {{"mesh", {2, 2}}, {"torus", {2, 2}}, {"hypercube", {2, 2}}};
  struct Variant {
    std::string options;
    bool saf;
  };
  const std::vector<Variant> variants = {{"", false},
                                         {"--ports all", false},
                                         {"--switching saf --buffers 8", true}};
  for (const Net& net : nets) {
    // XY and e-cube routes of the 13 messages, counted per channel.
    const std::map<std::string, std::uint64_t> load = fig2_channel_load(net, {0, 1, 2, 3});
    std::uint64_t busiest = 0;
    for (const auto& [channel, messages] : load) {
      busiest = std::max(busiest, messages);
    }
    for (const Variant& v : variants) {
      const std::string args = "run '" + kFig2 + "' --arch " + net.kind + " " + size_option(net) +
                               " " + v.options + " --json";
      const Outcome o = run(args);
      ASSERT_EQ(o.exit_code, 0) << args << ": " << o.err;
      EXPECT_TRUE(o.err.empty()) << o.err;
      const nlohmann::json j = nlohmann::json::parse(o.out);
      EXPECT_EQ(j["command"], "run");
      EXPECT_EQ(j["arch"], net.kind);
      EXPECT_EQ(j["topology"], net.kind);
      EXPECT_EQ(j["program"], "fig2_sample");
      EXPECT_EQ(j["program_nodes"], 4u);
      EXPECT_EQ(j["nodes"], 4u);
      EXPECT_EQ(j["vcs"], net.kind == "torus" ? 2u : 1u) << args;
      EXPECT_TRUE(j["completed"].get<bool>()) << args;
      EXPECT_TRUE(j["payload_ok"].get<bool>()) << args;
      EXPECT_EQ(j["messages_sent"], 13u) << args;
      EXPECT_EQ(j["messages_delivered"], 13u) << args;
      EXPECT_EQ(j["words"], 13u * 4u) << args;
      EXPECT_TRUE(j["blocked"].empty()) << args;
      EXPECT_TRUE(j["delivery_failures"].empty()) << args;
      EXPECT_TRUE(j["vcd"].is_null());
      EXPECT_EQ(j["time_ns"].get<std::uint64_t>(),
                j["total_cycles"].get<std::uint64_t>() * j["clock_ns"].get<std::uint64_t>());
      ASSERT_EQ(j["steps"].size(), 5u);
      std::uint64_t sum = 0;
      for (const auto& step : j["steps"]) {
        sum += step["cycles"].get<std::uint64_t>();
        EXPECT_EQ(step["end_cycle"].get<std::uint64_t>(), sum) << args;
      }
      EXPECT_EQ(sum, j["total_cycles"].get<std::uint64_t>()) << args;
      // Step 1: every node computes 20 cycles, then N1 sends its one 4-word message to N0 over
      // one link on all three networks, on an idle network.
      ASSERT_EQ(net.hops(1, 0), 1u);
      EXPECT_EQ(j["steps"][0]["cycles"].get<std::uint64_t>(), 20 + zero_load(v.saf, 0, 1, 4, 1))
          << args;
      // Every message crosses the channels of its dimension-ordered route.
      EXPECT_EQ(used_channels(j), load) << args;
      EXPECT_GE(j["max_channel_contention"].get<std::uint64_t>(), 1u) << args;
      EXPECT_EQ(j["max_channel_contention"].get<std::uint64_t>(), busiest) << args;
      EXPECT_GE(j["peak_channel_occupancy"].get<std::uint64_t>(), 1u) << args;
    }
  }
}

TEST_F(Orthosim, AnEmbeddingMovesTheTrafficButDeliversTheSame) {
  std::ofstream(dir_ / "reversed.map") << "# program node i on network node 3 - i\n3, 2, 1, 0\n";
  std::ofstream(dir_ / "corners.map") << "0 3\n12 15\n";
  struct Case {
    Net net;
    std::string map_file;
    std::vector<std::uint32_t> map;
  };
  const std::vector<Case> cases = {
      {{"mesh", {2, 2}}, "reversed.map", {3, 2, 1, 0}},
      {{"hypercube", {2, 2}}, "reversed.map", {3, 2, 1, 0}},
      {{"mesh", {4, 4}}, "corners.map", {0, 3, 12, 15}},
      {{"torus", {4, 4}}, "corners.map", {0, 3, 12, 15}},
  };
  for (const Case& c : cases) {
    const std::string base =
        "run '" + kFig2 + "' --arch " + c.net.kind + " " + size_option(c.net) + " --json";
    const Outcome plain = run(base);
    const Outcome moved = run(base + " --embedding " + c.map_file);
    ASSERT_EQ(plain.exit_code, 0) << base << ": " << plain.err;
    ASSERT_EQ(moved.exit_code, 0) << base << " " << c.map_file << ": " << moved.err;
    const nlohmann::json jp = nlohmann::json::parse(plain.out);
    const nlohmann::json jm = nlohmann::json::parse(moved.out);
    for (const nlohmann::json* j : {&jp, &jm}) {
      EXPECT_TRUE((*j)["payload_ok"].get<bool>()) << base;
      EXPECT_EQ((*j)["messages_delivered"], 13u) << base;
      EXPECT_EQ((*j)["words"], 13u * 4u) << base;
    }
    const std::map<std::string, std::uint64_t> identity = fig2_channel_load(c.net, {0, 1, 2, 3});
    const std::map<std::string, std::uint64_t> mapped = fig2_channel_load(c.net, c.map);
    ASSERT_NE(identity, mapped);  // the map really moves the routes
    EXPECT_EQ(used_channels(jp), identity) << base;
    EXPECT_EQ(used_channels(jm), mapped) << base << " " << c.map_file;
  }
}

TEST_F(Orthosim, LccsRelabelingMakesTheBitReverseOfThe4CubeContentionFreeOnTheEmulatedRouters) {
  // One step in which every node x sends 8 words to its bit-reverse. On the identity placement
  // two e-cube paths share a channel ([LCC] Theorem 1: T = 2); placed by orthosim lcc's
  // relabeling none do, so the step takes the zero-load time of its longest message (4 hops:
  // 0011 -> 1100; a relabeling keeps every message's hop count).
  std::string program = "nodes 16\nwords 8\nstep bit_reverse\n";
  for (std::uint32_t x = 0; x < 16; ++x) {
    const std::uint32_t y = ((x & 1U) << 3) | ((x & 2U) << 1) | ((x & 4U) >> 1) | (x >> 3);
    if (y != x) {
      program += "  send " + std::to_string(x) + " -> " + std::to_string(y) + "\n";
    }
  }
  std::ofstream(dir_ / "bitrev.mcp") << program;
  const Outcome lcc = run("lcc --dim 4 --pattern bitrev --out bitrev.map");
  ASSERT_EQ(lcc.exit_code, 0) << lcc.err;
  const std::string base = "run bitrev.mcp --arch hypercube --dim 4 --json";
  const Outcome plain = run(base);
  const Outcome placed = run(base + " --embedding bitrev.map");
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  ASSERT_EQ(placed.exit_code, 0) << placed.err;
  const nlohmann::json jp = nlohmann::json::parse(plain.out);
  const nlohmann::json jm = nlohmann::json::parse(placed.out);
  EXPECT_EQ(jp["max_channel_contention"], 2U);
  EXPECT_EQ(jm["max_channel_contention"], 1U);
  EXPECT_TRUE(jm["payload_ok"].get<bool>());
  const auto step = [](const nlohmann::json& j) {
    return j["steps"][0]["cycles"].get<std::uint64_t>();
  };
  EXPECT_EQ(step(jm), zero_load(false, 0, 1, 8, 4));
  EXPECT_GT(step(jp), step(jm));
}

TEST_F(Orthosim, NetworkRunCreatesTheWaveformFolderAsOnTheMultiprocessors) {
  // docs/cli.md, orthosim run: "--vcd FILE writes a waveform; its folder is created if missing".
  const Outcome omp = run("run '" + kFig2 + "' --arch omp --vcd omp/w.vcd");
  ASSERT_EQ(omp.exit_code, 0) << omp.err;
  EXPECT_TRUE(fs::exists(dir_ / "omp" / "w.vcd"));
  const Outcome mesh = run("run '" + kFig2 + "' --arch mesh --dims 2x2 --vcd mesh/w.vcd");
  EXPECT_EQ(mesh.exit_code, 0) << mesh.err;
  EXPECT_TRUE(fs::exists(dir_ / "mesh" / "w.vcd"));
}

TEST_F(Orthosim, NetworkRunsWriteAValidWaveformAndAreDeterministic) {
  const std::string args =
      "run '" + kFig2 + "' --arch torus --dims 2x2 --buffers 2 --startup 3 --json --vcd ";
  const Outcome a = run(args + "a.vcd");
  const Outcome b = run(args + "b.vcd");
  ASSERT_EQ(a.exit_code, 0) << a.err;
  ASSERT_EQ(b.exit_code, 0) << b.err;
  const std::string va = slurp(dir_ / "a.vcd");
  EXPECT_EQ(va.rfind("$", 0), 0u);
  EXPECT_NE(va.find("$enddefinitions"), std::string::npos);
  EXPECT_EQ(va, slurp(dir_ / "b.vcd"));
  EXPECT_FALSE(fs::exists(dir_ / "a.vcd.partial"));
  nlohmann::json ja = nlohmann::json::parse(a.out), jb = nlohmann::json::parse(b.out);
  EXPECT_EQ(ja["vcd"], "a.vcd");
  EXPECT_EQ(jb["vcd"], "b.vcd");
  ja.erase("vcd");
  jb.erase("vcd");
  EXPECT_EQ(ja, jb);
  // The table says where the waveform went.
  const Outcome t = run("run '" + kFig2 + "' --arch mesh --dims 2x2 --vcd c.vcd");
  ASSERT_EQ(t.exit_code, 0) << t.err;
  EXPECT_NE(t.out.find("c.vcd"), std::string::npos) << t.out;

  if (std::system("command -v vcd2fst >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "vcd2fst (GTKWave) is not installed: the waveform was not validated";
  }
  for (const char* vcd : {"a.vcd", "c.vcd"}) {
    const std::string fst = std::string(vcd) + ".fst";
    const std::string cmd =
        "cd '" + dir_.string() + "' && vcd2fst " + vcd + " " + fst + " >conv.log 2>&1";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << vcd << ": " << slurp(dir_ / "conv.log");
    std::string log = slurp(dir_ / "conv.log");
    std::transform(log.begin(), log.end(), log.begin(),
                   [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
    EXPECT_EQ(log.find("warn"), std::string::npos) << vcd << ": " << log;
    EXPECT_EQ(log.find("error"), std::string::npos) << vcd << ": " << log;
    EXPECT_GT(fs::file_size(dir_ / fst), 0u) << vcd;
  }
}

/// [LCC] Definition 6 by brute force: the most e-cube paths of a permutation of the d-cube
/// that share one channel.
using Permutation = std::uint32_t (*)(std::uint32_t x, std::uint32_t d);

std::uint64_t ecube_contention(std::uint32_t d, Permutation perm) {
  const Net cube{"hypercube", std::vector<std::uint32_t>(d, 2)};
  std::map<std::string, std::uint64_t> load;
  std::uint64_t most = 0;
  for (std::uint32_t x = 0; x < cube.nodes(); ++x) {
    for (const std::string& c : cube.route(x, perm(x, d))) {
      most = std::max(most, ++load[c]);
    }
  }
  return most;
}

std::uint32_t bit_reverse(std::uint32_t x, std::uint32_t d) {
  std::uint32_t y = 0;
  for (std::uint32_t i = 0; i < d; ++i) {
    y |= ((x >> i) & 1U) << (d - 1 - i);
  }
  return y;
}

void expect_ordered_latencies(const nlohmann::json& p, std::uint64_t zero_load_min,
                              const std::string& what) {
  const auto p50 = p["latency_p50"].get<std::uint64_t>();
  const auto p99 = p["latency_p99"].get<std::uint64_t>();
  const auto max = p["latency_max"].get<std::uint64_t>();
  EXPECT_LE(p50, p99) << what;
  EXPECT_LE(p99, max) << what;
  EXPECT_GE(p50, zero_load_min) << what;
  EXPECT_GE(p["latency_avg"].get<double>(), static_cast<double>(zero_load_min)) << what;
  EXPECT_LE(p["latency_avg"].get<double>(), static_cast<double>(max)) << what;
}

TEST_F(Orthosim, TrafficSweepOfTheBitReversalOnThe6CubeSaturatesAsTheContentionSays) {
  const std::string args =
      "traffic --topology hypercube --dim 6 --pattern bitrev --rates 0.02,0.3 --flits 20 "
      "--warmup 500 --cycles 3000 --json";
  const Outcome o = run(args);
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_TRUE(o.err.empty()) << o.err;
  const nlohmann::json j = nlohmann::json::parse(o.out);
  EXPECT_EQ(j["command"], "traffic");
  EXPECT_EQ(j["pattern"], "bitrev");
  EXPECT_EQ(j["nodes"], 64u);
  ASSERT_TRUE(j.contains("points"));
  ASSERT_EQ(j["points"].size(), 2u);
  const nlohmann::json& low = j["points"][0];
  const nlohmann::json& high = j["points"][1];
  EXPECT_DOUBLE_EQ(low["rate"].get<double>(), 0.02);
  EXPECT_DOUBLE_EQ(high["rate"].get<double>(), 0.3);

  // A channel shared by T paths carries at most one flit per cycle: T * rate <= 1 is the most a
  // permutation can sustain ([LCC] section 6). Here T is counted path by path.
  const std::uint64_t t = ecube_contention(6, bit_reverse);
  ASSERT_GE(t, 2u);
  ASSERT_LT(0.02 * static_cast<double>(t), 1.0);
  ASSERT_GT(0.3 * static_cast<double>(t), 1.0);

  // The 8 palindromes of 6 bits map onto themselves and send nothing: 56 of 64 nodes offer.
  // Within 25%: the packet count is random (Bernoulli arrivals, about 170 packets expected,
  // a standard deviation of 13 or 8%: 25% is three of them); accepted differs from offered by
  // the packets in flight at the window's edges.
  const double expected_offer = 0.02 * 56.0 / 64.0;
  const double offered = low["offered"].get<double>();
  EXPECT_GT(offered, 0.75 * expected_offer);
  EXPECT_LT(offered, 1.25 * expected_offer);
  EXPECT_TRUE(low["sustainable"].get<bool>());
  EXPECT_NEAR(low["accepted"].get<double>(), offered, 0.1 * offered);
  EXPECT_FALSE(high["sustainable"].get<bool>());
  EXPECT_LT(high["accepted"].get<double>(), high["offered"].get<double>());
  for (const nlohmann::json* p : {&low, &high}) {
    EXPECT_FALSE((*p)["deadlocked"].get<bool>());
    EXPECT_EQ((*p)["words_corrupted"], 0u);
    EXPECT_GE((*p)["sim_cycles"].get<std::uint64_t>(), 500u + 3000u);
    // A non-palindrome differs from its reverse in pairs of bits: at least 2 hops, so at least
    // (2+1) + 20 cycles from creation to the tail's arrival.
    expect_ordered_latencies(*p, zero_load(false, 0, 1, 19, 2), args);
  }
}

TEST_F(Orthosim, TrafficReportHasEveryFieldAndDependsOnlyOnTheSeed) {
  const std::string args = "traffic --topology mesh --dims 4x4 --rate 0.05 --json";
  const Outcome a = run(args);
  const Outcome b = run(args);
  const Outcome c = run(args + " --seed 2");
  const Outcome s = run(args + " --seed 1");  // the default seed, given
  for (const Outcome* o : {&a, &b, &c, &s}) {
    ASSERT_EQ(o->exit_code, 0) << o->err;
    EXPECT_TRUE(o->err.empty()) << o->err;
  }
  const nlohmann::json j = nlohmann::json::parse(a.out);
  for (const char* field :
       {"offered",     "accepted",     "latency_avg",  "latency_p50",     "latency_p99",
        "latency_max", "sustainable",  "sim_cycles",   "flits_delivered", "max_channel_contention",
        "command",     "pattern",      "flits",        "injection",       "warmup",
        "cycles",      "seed",         "topology",     "network",         "radices",
        "nodes",       "switching",    "ports",        "startup",         "buffers",
        "vcs",         "router_delay", "packet_flits", "clock_ns"}) {
    EXPECT_TRUE(j.contains(field)) << field;
  }
  EXPECT_FALSE(j.contains("points"));
  EXPECT_EQ(j["pattern"], "uniform");
  EXPECT_EQ(j["flits"], 20u);
  EXPECT_EQ(j["warmup"], 1000u);
  EXPECT_EQ(j["cycles"], 10000u);
  EXPECT_EQ(j["seed"], 1u);
  EXPECT_EQ(j["injection"], "bernoulli");
  EXPECT_TRUE(j["sustainable"].get<bool>());
  // 16 nodes x 10000 cycles x 0.05 = 400 packets expected in the window: Bernoulli arrivals,
  // so the count is random with a standard deviation of about 20 (5%); 15% is three of them.
  // Accepted differs from offered by the packets in flight at the window's two edges, a few per
  // node at this load. (The exact values are pinned in trace_cli_test.cpp, counted from the
  // trace.)
  const double offered = j["offered"].get<double>();
  EXPECT_NEAR(offered, 0.05, 0.15 * 0.05);
  EXPECT_NEAR(j["accepted"].get<double>(), offered, 0.1 * offered);
  EXPECT_GE(j["sim_cycles"].get<std::uint64_t>(), 11000u);
  EXPECT_GE(static_cast<double>(j["flits_delivered"].get<std::uint64_t>()) + 1.0,
            j["accepted"].get<double>() * 16 * 10000);
  EXPECT_GE(j["max_channel_contention"].get<std::uint64_t>(), 1u);
  // Uniform traffic never sends to itself: at least one hop.
  expect_ordered_latencies(j, zero_load(false, 0, 1, 19, 1), args);

  EXPECT_EQ(a.out, b.out);
  EXPECT_EQ(a.out, s.out);
  EXPECT_NE(a.out, c.out);
  nlohmann::json jc = nlohmann::json::parse(c.out);
  EXPECT_EQ(jc["seed"], 2u);
  jc["seed"] = 1;
  EXPECT_NE(jc, j);  // more than the seed field differs

  // The table names the pattern and the network.
  const Outcome t =
      run("traffic --topology torus --dims 4x4 --pattern transpose --rates 0.01,0.02");
  ASSERT_EQ(t.exit_code, 0) << t.err;
  EXPECT_NE(t.out.find("transpose"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("4x4"), std::string::npos) << t.out;
}

// A radix of ten digits or more is too large, not malformed: it was refused as "expected radices
// separated by 'x'", which its value was. Nine digits are counted as nodes.
TEST_F(Orthosim, ARadixOfTooManyDigitsIsRefusedForItsSizeNotItsForm) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"traffic --topology mesh --dims 99999999999x2",
       "orthosim traffic: --dims: expected at most 65536 nodes, found a radix of 11 digits in "
       "'99999999999x2'"},
      {"run '" + kFig2 + "' --arch torus --dims 4x1234567890",
       "orthosim run: --dims: expected at most 65536 nodes, found a radix of 10 digits in "
       "'4x1234567890'"},
      {"traffic --topology mesh --dims 123456789x2",
       "orthosim traffic: --dims: expected at most 65536 nodes, found 246913578 nodes in "
       "'123456789x2'"},
  };
  for (const auto& [args, line] : cases) {
    expect_refused_with(run(args), line, args);
  }
}

// A bad rate of --rates is named in its list ('0.1,' was refused as found '' alone), and a rate
// given twice, by one spelling or two, is refused: it ran its point twice.
TEST_F(Orthosim, ARateListNamesTheBadRateInItsListAndTakesEachRateOnce) {
  const std::string traffic = "traffic --topology mesh --dims 4x4 --trace t.trace --rates ";
  const std::string rate = "orthosim traffic: --rates: expected a rate in flits per node per "
                           "cycle, 0..64, found ";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {traffic + "0.1,", rate + "'' in '0.1,'"},
      {traffic + "0.1,,0.2", rate + "'' in '0.1,,0.2'"},
      {traffic + "0.1,65", rate + "'65' in '0.1,65'"},
      {traffic + "0.1,0.2,0.1",
       "orthosim traffic: --rates: expected each rate once, found '0.1' twice in '0.1,0.2,0.1'"},
      {traffic + "1e-1,0.2,0.10",
       "orthosim traffic: --rates: expected each rate once, found '0.10' in '1e-1,0.2,0.10', the "
       "same rate as '1e-1'"},
  };
  for (const auto& [args, line] : cases) {
    const Outcome o = run(args);
    expect_refused_with(o, line, args);
    EXPECT_FALSE(fs::exists(dir_ / "t.trace")) << args;
  }
}

// A node map opened by a UTF-8 byte order mark (as some editors write it) or separated by a
// vertical tab or form feed is the map its numbers say, as a program with them is: the mark was
// refused as part of the first entry ("found '\xef\xbb\xbf3'", the mark invisible) and the
// blanks as empty entries. The mark takes no column.
TEST_F(Orthosim, ANodeMapMayOpenWithAByteOrderMarkAndUseAnyWhiteSpace) {
  {
    std::ofstream(dir_ / "plain.map") << "3 1 2 0\n";
    std::ofstream(dir_ / "bom.map") << "\xEF\xBB\xBF"
                                       "3 1 2 0\n";
    std::ofstream(dir_ / "blanks.map") << "3\v1\f2\r\n0\n";
    std::ofstream(dir_ / "bad.map") << "\xEF\xBB\xBF"
                                       "3 1 x 0\n";
  }
  const std::string mesh = "run '" + kFig2 + "' --arch mesh --dims 2x2 --json --embedding ";
  const Outcome plain = run(mesh + "plain.map");
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  for (const char* map : {"bom.map", "blanks.map"}) {
    const Outcome o = run(mesh + map);
    ASSERT_EQ(o.exit_code, 0) << map << ": " << o.err;
    EXPECT_EQ(o.out, plain.out) << map;
  }
  expect_refused(run(mesh + "bad.map"), "orthosim run: bad.map:1:5: expected a network node "
                                        "number, found 'x'");
}

TEST_F(Orthosim, BadNetworkArgumentsGiveOneErrorLineAndExitCode2) {
  {
    std::ofstream(dir_ / "x.map") << "0 1 x 3\n";
    std::ofstream(dir_ / "twice.map") << "0 1\n1 3\n";
    std::ofstream(dir_ / "short.map") << "0 1 2";
    std::ofstream(dir_ / "five.mcp") << "nodes 5\nstep\n  send 0 -> 4\n";
  }
  const std::string fig2 = "run '" + kFig2 + "' ";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {fig2 + "--arch mesh --dims 1x4", "--dims"},
      {fig2 + "--arch mesh --dims 4x4x4x4", "--dims"},
      {fig2 + "--arch hypercube --dim 11", "--dim"},
      {fig2 + "--arch hypercube --dims 4x4", "--dims"},
      {fig2 + "--arch mesh", "--dims"},
      {fig2 + "--arch mesh --dims 4x4 --switching cut", "--switching"},
      {fig2 + "--arch mesh --dims 4x4 --ports two", "--ports"},
      {fig2 + "--arch torus --dims 4x4 --vcs 3", "--vcs"},
      {fig2 + "--arch mesh --dims 4x4 --packet-flits 1", "--packet-flits"},
      {fig2 + "--arch mesh --dims 4x4 --router-delay 0", "--router-delay"},
      {fig2 + "--arch mesh --dims 4x4 --n 4", "--n"},
      {fig2 + "--arch omp --dims 4x4", "--dims"},
      {fig2 + "--arch bus --embedding x.map", "--embedding"},
      {fig2 + "--arch mesh --dims 2x2 --switching saf", "--buffers"},
      {"run five.mcp --arch mesh --dims 2x2", "--dims"},
      {fig2 + "--arch mesh --dims 2x2 --embedding x.map", "x.map:1:5:"},
      {fig2 + "--arch mesh --dims 2x2 --embedding twice.map", "twice.map:2:1:"},
      {fig2 + "--arch mesh --dims 2x2 --embedding short.map", "short.map:1:6:"},
      {fig2 + "--arch mesh --dims 2x2 --embedding missing.map", "missing.map"},
      {fig2 + "--arch mesh --dims 2x2 --vcd plain/w.vcd", "plain/w.vcd"},
      {"traffic --dims 4x4", "--topology"},
      {"traffic --topology ring --dims 4", "--topology"},
      {"traffic --topology mesh --dims 3x3 --pattern bitrev", "--pattern"},
      {"traffic --topology hypercube --dim 3 --pattern lcc:10/01,00", "--pattern"},
      {"traffic --topology mesh --dims 4x4 --rate -1", "--rate"},
      {"traffic --topology mesh --dims 4x4 --rates 0.1,x", "--rates"},
      {"traffic --topology mesh --dims 4x4 --rate 0.1 --rates 0.2,0.3", "--rates"},
      {"traffic --topology mesh --dims 4x4 --flits 0", "--flits"},
      {"traffic --topology mesh --dims 4x4 --injection poisson", "--injection"},
      {"traffic --topology torus --dims 4x4 --vcs 1", "--vcs"},
  };
  std::ofstream(dir_ / "plain") << "a file, not a folder\n";
  for (const auto& [args, mention] : cases) {
    expect_refused(run(args), mention, args);
  }
  EXPECT_EQ(slurp(dir_ / "plain"), "a file, not a folder\n");
}

}  // namespace
