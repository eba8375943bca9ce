// `orthosim run` (sw/cli) against a fake Runner: the Fig. 2 program of [PH91] on a multiprocessor
// (every message, the sizes, clustering) and on a mesh, torus or hypercube (network options,
// embeddings), failures and bad input.
#include <gtest/gtest.h>

#include <cctype>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

#include "sw/cli/cli.hpp"
#include "sw/cli/program_report.hpp"
#include "sw/core/json_text.hpp"
#include "sw/cost/program_cost.hpp"
#include "sw/mapping/mapping.hpp"
#include "tests/support/cli_harness.hpp"

namespace orthosim {
namespace {

using namespace cli_test;

/// The node messages of kFig2Program (source, destination): C1(N1,N0); C2 (N1,N2),(N3,N0); C3
/// and C4 from N0 to the m-1 = 3 others; C10 (N1,N0),(N2,N0) and C8 (N3,N1),(N3,N2).
/// 1 + 2 + 3 + 3 + 4 = 13.
const std::vector<std::pair<std::uint32_t, std::uint32_t>>& fig2_messages() {
  static const std::vector<std::pair<std::uint32_t, std::uint32_t>> m = {{1, 0}, {1, 2}, {3, 0},
                                                                         {0, 1}, {0, 2}, {0, 3},
                                                                         {0, 1}, {0, 2}, {0, 3},
                                                                         {1, 0}, {2, 0}, {3, 1},
                                                                         {3, 2}};
  return m;
}

/// Runs a command that must succeed and hand the runner exactly one system.
sw::SystemRun only_system(const std::vector<std::string>& args, Result* result = nullptr) {
  FakeRunner runner;
  const Result r = run(args, runner);
  EXPECT_EQ(r.code, sw::kExitOk) << joined(args) << "\n" << r.err;
  EXPECT_EQ(r.err, "") << joined(args);
  if (result != nullptr) {
    *result = r;
  }
  EXPECT_EQ(runner.program_requests.size(), 1u) << joined(args);
  if (runner.program_requests.size() != 1 || runner.program_requests[0].size() != 1) {
    ADD_FAILURE() << joined(args) << ": not exactly one system";
    return sw::SystemRun{};
  }
  return runner.program_requests[0][0];
}

using Triple = std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>;

std::vector<Triple> manifest(const sw::MachineProgram& program) {
  std::vector<Triple> out;
  for (const sw::Message& m : program.messages) {
    out.emplace_back(m.source, m.destination, m.words);
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST_F(CliProgram, RunHandsTheRunnerOneSystemWithTheRequestedConfigAndEveryMessage) {
  std::vector<Triple> expected;
  for (const auto& [src, dst] : fig2_messages()) {
    expected.emplace_back(src, dst, 4u);
  }
  std::sort(expected.begin(), expected.end());
  for (const auto& [name, arch] : archs()) {
    Result r;
    const sw::SystemRun s = only_system({"run",
                                         fig2_,
                                         "--arch",
                                         name,
                                         "--n",
                                         "4",
                                         "--alpha",
                                         "10",
                                         "--beta",
                                         "3",
                                         "--tau",
                                         "2",
                                         "--gamma",
                                         "5",
                                         "--sync-cycles",
                                         "7",
                                         "--barrier-cycles",
                                         "3",
                                         "--clock-ns",
                                         "20",
                                         "--json"},
                                        &r);
    EXPECT_EQ(s.config->arch, arch) << name;
    EXPECT_EQ(s.config->n, 4u) << name;
    EXPECT_EQ(s.config->timing.alpha, 10u) << name;
    EXPECT_EQ(s.config->timing.beta, 3u) << name;
    EXPECT_EQ(s.config->timing.tau, 2u) << name;
    EXPECT_EQ(s.config->timing.gamma, 5u) << name;
    EXPECT_EQ(s.config->sync.activate, 7u) << name;
    EXPECT_EQ(s.config->sync.barrier, 3u) << name;
    EXPECT_EQ(s.config->clock_period_ns, 20u) << name;
    EXPECT_FALSE(s.vcd_path.has_value()) << name;
    EXPECT_EQ(s.program.arch, arch) << name;
    EXPECT_EQ(s.program.n, 4u) << name;
    EXPECT_EQ(s.program.processors.size(), 4u) << name;
    // One processor per node: the manifest is the node messages themselves.
    EXPECT_EQ(manifest(s.program), expected) << name;

    nlohmann::json j;
    ASSERT_NO_THROW(j = nlohmann::json::parse(r.out)) << r.out;
    EXPECT_EQ(j.value("command", std::string{}), "run");
    EXPECT_EQ(j.value("arch", std::string{}), name);
    EXPECT_EQ(j.value("n", 0u), 4u);
    EXPECT_EQ(j.value("alpha", 0u), 10u);
    EXPECT_EQ(j.value("messages_sent", 0u), 13u);
    EXPECT_EQ(j.value("messages_delivered", 0u), 13u);
    EXPECT_EQ(j.value("payload_ok", false), true);
    EXPECT_TRUE(j.contains("vcd") && j["vcd"].is_null());
    ASSERT_TRUE(j.contains("steps"));
    ASSERT_EQ(j["steps"].size(), 5u);
    std::size_t accesses = 0;
    for (const auto& step : j["steps"]) {
      for (const char* field : {"cycles", "end_cycle", "predicted_cycles", "listing"}) {
        EXPECT_TRUE(step.contains(field)) << field;
      }
      for (const auto& op : step["operations"]) {
        for (const auto& a : op["accesses"]) {
          ++accesses;
          EXPECT_EQ(a["formula_cycles"].get<std::uint64_t>(),
                    access_formula(10, 3, 2, a["d"].get<std::uint64_t>(),
                                   a["l"].get<std::uint64_t>()))
              << name << " " << op["text"];
        }
      }
    }
    EXPECT_GT(accesses, 0u) << name;
  }
}

TEST_F(CliProgram, RunWithFewerProcessorsThanNodesClustersButKeepsEveryMessage) {
  // Node i runs on processor floor(i n / m) (section 5): N0, N1 on P0 and N2, N3 on P1.
  const auto proc = [](std::uint32_t node) { return node * 2 / 4; };
  std::vector<Triple> expected;
  for (const auto& [src, dst] : fig2_messages()) {
    expected.emplace_back(proc(src), proc(dst), 4u);
  }
  std::sort(expected.begin(), expected.end());
  for (const auto& [name, arch] : archs()) {
    const sw::SystemRun s = only_system({"run", fig2_, "--arch", name, "--n", "2"});
    EXPECT_EQ(s.config->arch, arch);
    EXPECT_EQ(s.config->n, 2u) << name;
    EXPECT_EQ(s.program.processors.size(), 2u) << name;
    EXPECT_EQ(manifest(s.program), expected) << name;
  }
}

// --help says what --n is when it is not given: for map, run and demo one processor per node of
// the program (8 for an 8-node program), for access SystemConfig's 4. The help said "default 4"
// for all of them.
// --impl's help lists the block types of the systems the command runs: access and demo run
// multiprocessors, traffic networks, run either.
TEST_F(CliProgram, HelpOfImplListsTheBlocksOfTheCommandsSystems) {
  const auto impl_help = [this](const std::string& command) {
    const std::string help = run({command, "--help"}).out;
    const std::size_t at = help.find("  --impl ");
    std::string text = help.substr(at, help.find("  --fst ", at) - at);
    // Boost wraps the help, even inside a word: compare without the breaks and indents.
    text.erase(std::remove_if(text.begin(), text.end(),
                              [](char c) { return c == ' ' || c == '\n'; }),
               text.end());
    return text;
  };
  const std::string multiprocessor = "im=...,bus=...,memory=...,processor=...,sync=...";
  const std::string network = "router=...,ni=...";
  for (const std::string command : {"access", "demo", "traffic", "run"}) {
    const std::string text = impl_help(command);
    SCOPED_TRACE(command + ": " + text);
    EXPECT_EQ(contains(text, multiprocessor), command != "traffic");
    EXPECT_EQ(contains(text, network), command == "traffic" || command == "run");
  }
}

TEST_F(CliProgram, HelpGivesTheProcessorsDefaultEachCommandUses) {
  const std::string eight = file("eight.mcp", "nodes 8\nstep s\n  send 0 -> 7\n");
  EXPECT_EQ(only_system({"run", eight}).config->n, 8u);
  const auto n_line = [](const std::string& command) {
    const std::string help = run({command, "--help"}).out;
    const std::size_t at = help.find("  --n ");
    return at == std::string::npos ? std::string("(no --n)")
                                   : help.substr(at, help.find('\n', at) - at);
  };
  for (const std::string command : {"map", "run", "demo"}) {
    EXPECT_TRUE(contains(n_line(command), "(default: one per node of the program"))
        << command << ": " << n_line(command);
  }
  EXPECT_TRUE(contains(n_line("access"), "(default 4)")) << n_line("access");
}

TEST_F(CliProgram, RunRaisesTheSizesTheUserLeftOpenAndKeepsTheOnesFixed) {
  const sw::SystemConfig defaults;
  // 4-word messages fit the defaults, which are never lowered.
  const sw::SystemRun small = only_system({"run", fig2_});
  EXPECT_EQ(small.config->buffer_words, defaults.buffer_words);
  EXPECT_EQ(small.config->module_words, defaults.module_words);
  EXPECT_EQ(small.config->local_words, defaults.local_words);

  // One 5000-word message: longer than the default data buffer and memory module.
  ASSERT_LT(defaults.buffer_words, 5000u);
  ASSERT_LT(defaults.module_words, 5000u);
  ASSERT_GT(defaults.local_words, 2 * 5000u);
  const std::string big = file("big.mcp", "nodes 2\nstep\n  send 0 -> 1 words 5000\n");
  const sw::SystemRun b = only_system({"run", big, "--arch", "crossbar"});
  EXPECT_GE(b.config->buffer_words, 5000u);
  EXPECT_GE(b.config->module_words, 5000u);
  EXPECT_EQ(b.config->local_words, defaults.local_words);
  EXPECT_EQ(b.config->n, 2u);

  // 70000 words: longer than the default local memory too.
  ASSERT_LT(defaults.local_words, 70000u);
  const std::string huge = file("huge.mcp", "nodes 2\nstep\n  send 0 -> 1 words 70000\n");
  const sw::SystemRun h = only_system({"run", huge, "--arch", "bus"});
  EXPECT_GE(h.config->buffer_words, 70000u);
  EXPECT_GE(h.config->module_words, 70000u);
  EXPECT_GE(h.config->local_words, 70000u);

  // What the user fixes, and suffices, is kept as given.
  const sw::SystemRun fixed = only_system(
      {"run", big, "--buffer-words", "6000", "--module-words", "7000", "--local-words", "80000"});
  EXPECT_EQ(fixed.config->buffer_words, 6000u);
  EXPECT_EQ(fixed.config->module_words, 7000u);
  EXPECT_EQ(fixed.config->local_words, 80000u);

  // A 4-word message needs a 4-word buffer, no more.
  EXPECT_EQ(only_system({"run", fig2_, "--buffer-words", "4"}).config->buffer_words, 4u);
}

TEST_F(CliProgram, AFixedSizeTooSmallForTheProgramIsBadInput) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--buffer-words", "1"},
      {"--buffer-words", "3"},  // below the 4-word messages
      {"--module-words", "1"},
      {"--local-words", "1"}};
  for (const auto& [option, value] : cases) {
    for (const std::string& command : {std::string("run"), std::string("demo")}) {
      std::vector<std::string> args = {command};
      if (command == "run") {
        args.push_back(fig2_);
      }
      args.push_back(option);
      args.push_back(value);
      FakeRunner runner;
      const Result r = run(args, runner);
      EXPECT_EQ(r.code, sw::kExitBadInput) << joined(args);
      EXPECT_EQ(r.out, "") << joined(args);
      EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << joined(args) << r.err;
      EXPECT_TRUE(contains(r.err, option)) << joined(args) << ": " << r.err;
      EXPECT_TRUE(runner.program_requests.empty()) << joined(args);
    }
  }
}

TEST_F(CliProgram, BadInputOfTheProgramCommandsExitsTwoWithOneLineAndNoOutput) {
  const std::string bad_node = file("bad_node.mcp", "nodes 4\nstep\n  send 1 -> 4\n");
  const std::string typo = file("typo.mcp", "nodes 4\nstep\nsned 1 -> 0\n");
  const std::string no_step = file("no_step.mcp", "nodes 4\n");
  const std::string missing = path("missing.mcp");
  const std::string plain = file("plain", "not a folder\n");
  const std::string out_under_file = plain + "/x.mcp";
  fs::create_directories(dir_ / "a_folder");
  const std::string folder = path("a_folder");
  const std::vector<BadInput> cases = {
      {{"map"}, {"PROGRAM"}},
      {{"run"}, {"PROGRAM"}},
      {{"map", "--arch", "omp"}, {"PROGRAM"}},
      {{"map", missing}, {missing}},
      {{"run", missing, "--arch", "bus"}, {missing}},
      {{"map", folder}, {folder}},
      {{"map", bad_node, "--arch", "omp"}, {bad_node + ":3:13:"}},
      {{"run", bad_node, "--arch", "crossbar"}, {bad_node + ":3:13:"}},
      {{"map", typo}, {typo + ":3:1:", "sned"}},
      {{"run", typo}, {typo + ":3:1:", "sned"}},
      {{"run", no_step}, {no_step + ":2:1:"}},
      {{"map", fig2_, "--arch", "ring"}, {"--arch", "ring"}},
      // run takes the networks too: its refusal lists them (a misspelled `Torus` is not told
      // that only the multiprocessors run).
      {{"run", fig2_, "--arch", "ring"}, {"--arch", "omp, crossbar, bus, mesh, torus, hypercube"}},
      {{"run", fig2_, "--arch", "Torus", "--dims", "4x4"},
       {"--arch", "torus, hypercube", "'Torus'"}},
      {{"map", fig2_, "--n", "0"}, {"--n"}},
      // Says what is missing, not only the name of the other option.
      {{"map", fig2_, "--cluster", "rows"}, {"--cluster: needs --torus CxR"}},
      {{"run", fig2_, "--n", "0"}, {"--n"}},
      {{"run", fig2_, "--n", "257"}, {"--n"}},
      {{"run", fig2_, "--alpha", "-1"}, {"--alpha"}},
      {{"run", fig2_, "--tau", "0"}, {"--tau"}},
      // A size is refused as given, unit and all, and the limit in bytes.
      {{"run", fig2_, "--memory-limit", "99999999999G"},
       {"--memory-limit", "2^64 - 1 bytes", "'99999999999G'"}},
      {{"run", fig2_, "--memory-limit", "0K"}, {"--memory-limit", "'0K'"}},
      // A number past 64 bits is not told it should be ">= 0".
      {{"gen", "C3", "--nodes", "4", "--seed", "18446744073709551616"},
       {"--seed", "'18446744073709551616', more than the largest, 18446744073709551615"}},
      {{"run", fig2_, "--impl", "bus=fast"}, {"--impl", "fast"}},
      {{"map", fig2_, "--alpha", "x"}, {"--alpha", "x"}},
      {{"gen", "random", "--nodes", "4", "--steps", "2", "--sources", "1"}, {"--sources"}},
      {{"gen", "C3", "--nodes", "4", "--steps", "2"}, {"--steps"}},
      {{"gen", "C3", "--nodes", "4", "--json"}, {"json"}},
      {{"map", fig2_, "stray"}, {"'stray'", "takes one bare argument, PROGRAM;", "a second"}},
      {{"gen", "C3", "--nodes", "4", "stray"},
       {"'stray'", "orthosim gen takes one bare argument, PATTERN;", "a second bare argument"}},
      {{"gen"}, {"PATTERN"}},
      {{"gen", "C13", "--nodes", "4"}, {"PATTERN", "C13"}},
      // A misspelled pattern is named first, with every form gen writes, not the options of a
      // form the user did not mean (--nodes).
      {{"gen", "C13"}, {"PATTERN", "'C13'"}},
      {{"gen", "shfit", "--torus", "4x4", "--direction", "east"},
       {"PATTERN", "'shfit'", "shift, cc-cube, fft, complete-exchange, calmant"}},
      {{"gen", "one-to-some", "--nodes", "4"}, {"PATTERN", "one-to-some"}},
      {{"gen", "C1"}, {"--nodes"}},
      {{"gen", "random", "--steps", "3"}, {"--nodes"}},
      {{"gen", "C1", "--nodes", "0"}, {"--nodes"}},
      {{"gen", "random", "--nodes", "4"}, {"--steps"}},
      {{"gen", "random", "--nodes", "4", "--steps", "0"}, {"--steps"}},
      // C8 needs 1 < ds < m-1 destinations (Table 1): no such ds for m = 3.
      {{"gen", "C8", "--nodes", "3"}, {"--nodes"}},
      {{"gen", "C12", "--nodes", "3"}, {"--nodes"}},
      {{"gen", "C1", "--nodes", "4", "--sources", "4"}, {"--sources"}},
      {{"gen", "C1", "--nodes", "4", "--sources", "0", "--dests", "9"}, {"--dests"}},
      {{"gen", "C1", "--nodes", "4", "--sources", "x"}, {"--sources"}},
      {{"gen", "C1", "--nodes", "4", "--len", "0"}, {"--len"}},
      {{"gen", "C1", "--nodes", "4", "--out", out_under_file}, {"--out"}},
      {{"gen", "C1", "--nodes", "4", "--out", folder}, {"--out"}},
      {{"demo", "--tau", "0"}, {"--tau"}},
      {{"demo", "stray"}, {"'stray'", "orthosim demo takes no bare argument"}},
  };
  expect_refused_before_running(cases);
  EXPECT_FALSE(fs::exists(out_under_file));
  EXPECT_FALSE(fs::exists(folder + ".partial"));
  EXPECT_TRUE(fs::is_directory(folder));
  EXPECT_EQ(slurp(plain), "not a folder\n");
}

// The table and JSON of a run on a multiprocessor show the runner's figures in their places:
// the costs of the header (sync is --sync-cycles, not --barrier-cycles), each step's measured and
// predicted cycles (the steps' predictions add up to the total's, docs/cli.md), the total in ns
// at --clock-ns, and the conflicts with their waiting cycles. The runner's figures differ from
// each other, so that one shown in another's place cannot pass.
TEST_F(CliProgram, ARunsTableAndJsonShowEachFigureInItsPlace) {
  class Figures : public FakeRunner {
   public:
    std::vector<sw::RunSummary> run_programs(std::vector<sw::SystemRun> runs) override {
      std::vector<sw::RunSummary> out = FakeRunner::run_programs(std::move(runs));
      for (sw::RunSummary& s : out) {
        s.cycles = sw::Cycle{50};
        s.step_ends = {sw::Cycle{10}, sw::Cycle{25}, sw::Cycle{40}, sw::Cycle{44}, sw::Cycle{50}};
        s.conflicts = 7;
        s.conflict_wait_cycles = 11;
      }
      return out;
    }
  };
  const std::vector<std::string> args = {
      "run",           fig2_, "--arch",           "omp", "--clock-ns", "7",
      "--sync-cycles", "3",   "--barrier-cycles", "5"};
  Figures runner;
  const Result text = run(args, runner);
  std::vector<std::string> json_args = args;
  json_args.push_back("--json");
  const Result json = run(json_args, runner);
  ASSERT_EQ(json.code, sw::kExitOk) << json.err;
  const nlohmann::json j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j.value("conflicts", 0u), 7u);
  EXPECT_EQ(j.value("conflict_wait_cycles", 0u), 11u);
  EXPECT_EQ(j.value("time_ns", 0u), 350u);
  EXPECT_TRUE(contains(text.out, " sync=3 cycles, 7 ns clock,")) << text.out;
  EXPECT_TRUE(contains(text.out, "  (350 ns)\n")) << text.out;
  EXPECT_TRUE(contains(text.out, "\nconflicts: 7 (11 cycles waiting)\n")) << text.out;
  // Each step's row: its number, the measured cycles, the predicted cycles.
  const std::vector<std::uint64_t> measured = {10, 15, 15, 4, 6};
  std::vector<std::string> expected_rows;
  std::uint64_t predicted_sum = 0;
  ASSERT_EQ(j["steps"].size(), measured.size());
  for (std::size_t k = 0; k < measured.size(); ++k) {
    const std::uint64_t predicted = j["steps"][k].value("predicted_cycles", 0u);
    predicted_sum += predicted;
    expected_rows.push_back(std::to_string(k + 1) + " " + std::to_string(measured[k]) + " " +
                            std::to_string(predicted));
    EXPECT_EQ(j["steps"][k].value("cycles", 0u), measured[k]) << k;
  }
  EXPECT_EQ(predicted_sum, j.value("predicted_cycles", 0u));
  std::vector<std::string> rows;
  std::istringstream lines(text.out);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    std::string step, cycles, predicted;
    if (fields >> step >> cycles >> predicted && step.size() == 1 &&
        std::isdigit(static_cast<unsigned char>(step[0])) != 0) {
      rows.push_back(step + " " + cycles + " " + predicted);
    }
  }
  EXPECT_EQ(rows, expected_rows) << text.out;
}

TEST_F(CliProgram, RunPassesTheWaveformAndReportsFailures) {
  FakeRunner runner;
  const std::string vcd = path("w.vcd");
  const Result r = run({"run", fig2_, "--vcd", vcd, "--json"}, runner);
  ASSERT_EQ(r.code, sw::kExitOk) << r.err;
  ASSERT_EQ(runner.program_requests.size(), 1u);
  ASSERT_TRUE(runner.program_requests[0].at(0).vcd_path.has_value());
  EXPECT_EQ(*runner.program_requests[0][0].vcd_path, vcd);
  EXPECT_EQ(nlohmann::json::parse(r.out).value("vcd", std::string{}), vcd);

  for (const bool json : {false, true}) {
    std::vector<std::string> args = {"run", fig2_, "--arch", "bus"};
    if (json) {
      args.push_back("--json");
    }
    FakeRunner lost(FakeRunner::Outcome::PayloadLost);
    const Result l = run(args, lost);
    EXPECT_EQ(l.code, sw::kExitRunFailed) << json;
    FakeRunner stuck(FakeRunner::Outcome::Deadlock);
    const Result d = run(args, stuck);
    EXPECT_EQ(d.code, sw::kExitRunFailed) << json;
    if (json) {
      const nlohmann::json jl = nlohmann::json::parse(l.out);
      EXPECT_EQ(jl.value("payload_ok", true), false);
      EXPECT_EQ(jl.value("messages_delivered", 0u), 12u);  // the fake loses one of 13
      const nlohmann::json jd = nlohmann::json::parse(d.out);
      EXPECT_EQ(jd.value("completed", true), false);
      EXPECT_FALSE(jd["blocked"].empty());
    } else {
      EXPECT_TRUE(contains(l.out, "message 0 lost")) << l.out;
      EXPECT_TRUE(contains(d.out, "DEADLOCK")) << d.out;
    }
  }
  FakeRunner broken(FakeRunner::Outcome::Throws);
  const Result b = run({"run", fig2_}, broken);
  EXPECT_EQ(b.code, sw::kExitRunFailed);
  EXPECT_EQ(b.out, "");
  EXPECT_TRUE(contains(b.err, "fake runner exploded")) << b.err;
}

/// Runs a command that must succeed and hand the runner exactly one network run.
sw::NetworkRunRequest only_network(const std::vector<std::string>& args, Result* result = nullptr) {
  FakeRunner runner;
  const Result r = run(args, runner);
  EXPECT_EQ(r.code, sw::kExitOk) << joined(args) << "\n" << r.err;
  EXPECT_EQ(r.err, "") << joined(args);
  EXPECT_TRUE(runner.program_requests.empty()) << joined(args);
  if (result != nullptr) {
    *result = r;
  }
  if (runner.network_requests.size() != 1) {
    ADD_FAILURE() << joined(args) << ": " << runner.network_requests.size()
                  << " network runs, not one";
    return sw::NetworkRunRequest{};
  }
  return runner.network_requests.front();
}

/// Sends and receives per network node in a routed program.
struct NodeOps {
  std::vector<std::size_t> sends, receives;
};

NodeOps count_ops(const sw::RoutedProgram& p) {
  NodeOps out{std::vector<std::size_t>(p.ops.size(), 0), std::vector<std::size_t>(p.ops.size(), 0)};
  for (std::size_t node = 0; node < p.ops.size(); ++node) {
    for (const sw::routed::Op& op : p.ops[node]) {
      if (std::holds_alternative<sw::routed::Send>(op)) {
        ++out.sends[node];
      } else if (std::holds_alternative<sw::routed::Receive>(op)) {
        ++out.receives[node];
      }
    }
  }
  return out;
}

/// The Fig. 2 node messages with program node i placed on network node map[i].
std::vector<Triple> fig2_manifest_on(const std::vector<std::uint32_t>& map) {
  std::vector<Triple> out;
  for (const auto& [src, dst] : fig2_messages()) {
    out.emplace_back(map.at(src), map.at(dst), 4u);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// A run on a multiprocessor fails on a co-simulation mismatch, naming it.
TEST_F(CliProgram, AMultiprocessorRunFailsOnACosimMismatch) {
  class Mismatched : public FakeRunner {
   public:
    std::vector<sw::RunSummary> run_programs(std::vector<sw::SystemRun> runs) override {
      std::vector<sw::RunSummary> out = FakeRunner::run_programs(std::move(runs));
      out.at(0).mismatch = sw::CosimMismatch{9, "omp.bc0", "bus_data", 1, 2};
      return out;
    }
  };
  Mismatched runner;
  const Result r = run({"run", fig2_, "--arch", "omp"}, runner);
  EXPECT_EQ(r.code, sw::kExitRunFailed);
  EXPECT_EQ(r.err,
            "orthosim run: error: cosim mismatch at cycle 9 in omp.bc0: bus_data model 0x1 rtl "
            "0x2\n");
}

// A network run takes --memory-limit to the runner, and fails on a co-simulation mismatch.
TEST_F(CliProgram, ANetworkRunCarriesTheMemoryLimitAndFailsOnACosimMismatch) {
  EXPECT_EQ(only_network({"run", fig2_, "--arch", "mesh", "--dims", "2x2", "--memory-limit", "64M"})
                .memory_limit,
            std::uint64_t{64} << 20);
  ScriptedRunner mismatched([](std::size_t, sw::NetworkRunSummary& s) {
    s.mismatch = sw::CosimMismatch{16, "mesh.r1", "flit", 1, 3};
  });
  const Result r = run({"run", fig2_, "--arch", "mesh", "--dims", "2x2"}, mismatched);
  EXPECT_EQ(r.code, sw::kExitRunFailed);
  EXPECT_EQ(r.err,
            "orthosim run: error: cosim mismatch at cycle 16 in mesh.r1: flit model 0x1 rtl 0x3\n");
}

TEST_F(CliProgram, RunOnATorusHandsTheRunnerEveryNetworkOptionAndEveryNodeMessage) {
  Result r;
  const std::string vcd = path("net.vcd");
  const sw::NetworkRunRequest q = only_network({"run",
                                                fig2_,
                                                "--arch",
                                                "torus",
                                                "--dims",
                                                "4x4",
                                                "--switching",
                                                "saf",
                                                "--ports",
                                                "all",
                                                "--startup",
                                                "5",
                                                "--buffers",
                                                "8",
                                                "--vcs",
                                                "4",
                                                "--router-delay",
                                                "3",
                                                "--packet-flits",
                                                "6",
                                                "--watchdog",
                                                "500",
                                                "--clock-ns",
                                                "20",
                                                "--vcd",
                                                vcd,
                                                "--json"},
                                               &r);
  const sw::NetworkConfig& c = q.config;
  EXPECT_EQ(c.topology.kind(), sw::TopologyKind::Torus);
  EXPECT_EQ(c.topology.radices(), (std::vector<std::uint32_t>{4, 4}));
  EXPECT_EQ(c.topology.nodes(), 16u);
  EXPECT_EQ(c.router.switching, sw::Switching::StoreAndForward);
  EXPECT_EQ(c.ni.ports, sw::NodePorts::All);
  EXPECT_EQ(c.ni.startup, 5u);
  EXPECT_EQ(c.router.buffer_flits, 8u);
  EXPECT_EQ(c.router.vcs, 4u);
  EXPECT_EQ(c.router.delay, 3u);
  EXPECT_EQ(c.ni.packet_flits, 6u);
  EXPECT_EQ(c.watchdog_cycles, 500u);
  EXPECT_EQ(c.clock_period_ns, 20u);
  EXPECT_TRUE(c.router.dateline);
  ASSERT_TRUE(q.vcd_path.has_value());
  EXPECT_EQ(*q.vcd_path, vcd);

  // One manifest message per node message, on the same nodes (identity embedding).
  const sw::RoutedProgram& p = q.program;
  EXPECT_EQ(p.program_nodes, 4u);
  EXPECT_EQ(p.network_nodes, 16u);
  EXPECT_EQ(p.steps, 5u);
  EXPECT_EQ(p.manifest.messages.size(), 13u);
  EXPECT_EQ(manifest(p.manifest), fig2_manifest_on({0, 1, 2, 3}));
  ASSERT_EQ(p.ops.size(), 16u);
  const NodeOps ops = count_ops(p);
  for (std::uint32_t node = 0; node < 16; ++node) {
    std::size_t from = 0, to = 0;
    for (const auto& [src, dst] : fig2_messages()) {
      from += src == node ? 1 : 0;
      to += dst == node ? 1 : 0;
    }
    EXPECT_EQ(ops.sends[node], from) << "node " << node;
    EXPECT_EQ(ops.receives[node], to) << "node " << node;
  }

  nlohmann::json j;
  ASSERT_NO_THROW(j = nlohmann::json::parse(r.out)) << r.out;
  EXPECT_EQ(j.value("command", std::string{}), "run");
  EXPECT_EQ(j.value("arch", std::string{}), "torus");
  EXPECT_EQ(j.value("topology", std::string{}), "torus");
  EXPECT_EQ(j.value("nodes", 0u), 16u);
  EXPECT_EQ(j.value("program_nodes", 0u), 4u);
  EXPECT_EQ(j["radices"], nlohmann::json::array({4, 4}));
  EXPECT_EQ(j.value("switching", std::string{}), "saf");
  EXPECT_EQ(j.value("ports", std::string{}), "all");
  EXPECT_EQ(j.value("startup", 0u), 5u);
  EXPECT_EQ(j.value("buffers", 0u), 8u);
  EXPECT_EQ(j.value("vcs", 0u), 4u);
  EXPECT_EQ(j.value("router_delay", 0u), 3u);
  EXPECT_EQ(j.value("packet_flits", 0u), 6u);
  EXPECT_EQ(j.value("clock_ns", 0u), 20u);
  EXPECT_EQ(j.value("messages_sent", 0u), 13u);
  EXPECT_EQ(j.value("messages_delivered", 0u), 13u);
  EXPECT_EQ(j.value("payload_ok", false), true);
  EXPECT_EQ(j.value("max_channel_contention", 0u), FakeRunner::kConflicts);
  EXPECT_EQ(j.value("vcd", std::string{}), vcd);
  // The fake ends step k at cycle k: one cycle per step.
  ASSERT_EQ(j["steps"].size(), 5u);
  for (std::size_t k = 0; k < 5; ++k) {
    EXPECT_EQ(j["steps"][k].value("step", 0u), k + 1);
    EXPECT_EQ(j["steps"][k].value("cycles", 0u), 1u);
    EXPECT_EQ(j["steps"][k].value("end_cycle", 0u), k + 1);
  }
  for (const char* field :
       {"completed", "total_cycles", "time_ns", "words", "blocked", "delivery_failures",
        "peak_channel_occupancy", "channels", "stats", "program", "network"}) {
    EXPECT_TRUE(j.contains(field)) << field;
  }
}

TEST_F(CliProgram, NetworkDefaultsAreTwoVirtualChannelsOnATorusAndOneElsewhere) {
  const sw::RouterParams router;
  const sw::InterfaceParams ni;
  const sw::NetworkConfig config;
  struct Case {
    std::vector<std::string> size;
    sw::TopologyKind kind;
    std::vector<std::uint32_t> radices;
    std::uint32_t vcs;
  };
  const std::vector<Case> cases = {
      {{"--arch", "torus", "--dims", "4x4"}, sw::TopologyKind::Torus, {4, 4}, 2},
      {{"--arch", "torus", "--dims", "2x3x4"}, sw::TopologyKind::Torus, {2, 3, 4}, 2},
      {{"--arch", "mesh", "--dims", "4x4"}, sw::TopologyKind::Mesh, {4, 4}, 1},
      {{"--arch", "mesh", "--dims", "16"}, sw::TopologyKind::Mesh, {16}, 1},
      {{"--arch", "hypercube", "--dim", "3"}, sw::TopologyKind::Hypercube, {2, 2, 2}, 1},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = {"run", fig2_};
    args.insert(args.end(), c.size.begin(), c.size.end());
    const sw::NetworkConfig got = only_network(args).config;
    EXPECT_EQ(got.topology.kind(), c.kind) << joined(args);
    EXPECT_EQ(got.topology.radices(), c.radices) << joined(args);
    EXPECT_EQ(got.router.vcs, c.vcs) << joined(args);
    // Everything else is the documented default.
    EXPECT_EQ(got.router.switching, sw::Switching::Wormhole) << joined(args);
    EXPECT_EQ(got.ni.ports, sw::NodePorts::One) << joined(args);
    EXPECT_EQ(got.router.buffer_flits, router.buffer_flits) << joined(args);
    EXPECT_EQ(got.router.delay, router.delay) << joined(args);
    EXPECT_EQ(got.ni.startup, ni.startup) << joined(args);
    EXPECT_EQ(got.ni.packet_flits, 0u) << joined(args);
    EXPECT_EQ(got.watchdog_cycles, config.watchdog_cycles) << joined(args);
    EXPECT_EQ(got.clock_period_ns, config.clock_period_ns) << joined(args);
  }
  // A mesh or hypercube takes any count of virtual channels, a torus an even one.
  EXPECT_EQ(only_network({"run", fig2_, "--arch", "mesh", "--dims", "2x2", "--vcs", "3"})
                .config->router.vcs,
            3u);
  EXPECT_EQ(only_network({"run", fig2_, "--arch", "hypercube", "--dim", "2", "--vcs", "5"})
                .config->router.vcs,
            5u);
  EXPECT_EQ(only_network({"run", fig2_, "--arch", "torus", "--dims", "2x2", "--vcs", "6"})
                .config->router.vcs,
            6u);
  // store-and-forward is also accepted by its long name.
  EXPECT_EQ(only_network({"run", fig2_, "--arch", "mesh", "--dims", "2x2", "--switching",
                          "store-and-forward"})
                .config->router.switching,
            sw::Switching::StoreAndForward);
}

TEST_F(CliProgram, AnEmbeddingFilePlacesEachProgramNodeOnItsNetworkNode) {
  // Reversed on the 2x2 mesh: program node i on network node 3 - i.
  const std::string reversed = file("reversed.map", "# program node i on 3 - i\n3 2 1 0\n");
  const sw::NetworkRunRequest r =
      only_network({"run", fig2_, "--arch", "mesh", "--dims", "2x2", "--embedding", reversed});
  EXPECT_EQ(manifest(r.program.manifest), fig2_manifest_on({3, 2, 1, 0}));
  EXPECT_NE(manifest(r.program.manifest), fig2_manifest_on({0, 1, 2, 3}));

  // The four corners of a 4x4 mesh, with commas, comments and line breaks.
  const std::vector<std::uint32_t> corners = {15, 0, 12, 3};
  const std::string map = file("corners.map", "15, 0  # the far corners first\n12,\n\t3\n");
  const sw::NetworkRunRequest c =
      only_network({"run", fig2_, "--arch", "mesh", "--dims", "4x4", "--embedding", map});
  EXPECT_EQ(c.program.network_nodes, 16u);
  EXPECT_EQ(c.program.program_nodes, 4u);
  EXPECT_EQ(manifest(c.program.manifest), fig2_manifest_on(corners));
  // The sends and receives run on the mapped nodes, and nowhere else.
  const NodeOps ops = count_ops(c.program);
  ASSERT_EQ(ops.sends.size(), 16u);
  for (std::uint32_t node = 0; node < 16; ++node) {
    std::size_t from = 0, to = 0;
    for (const auto& [src, dst] : fig2_messages()) {
      from += corners[src] == node ? 1 : 0;
      to += corners[dst] == node ? 1 : 0;
    }
    EXPECT_EQ(ops.sends[node], from) << "node " << node;
    EXPECT_EQ(ops.receives[node], to) << "node " << node;
  }
}

TEST_F(CliProgram, NetworkRunsAndTrafficThatFailExitOne) {
  for (const bool json : {false, true}) {
    std::vector<std::string> args = {"run", fig2_, "--arch", "hypercube", "--dim", "2"};
    std::vector<std::string> traffic = {"traffic", "--topology", "torus", "--dims", "4x4"};
    if (json) {
      args.push_back("--json");
      traffic.push_back("--json");
    }
    FakeRunner ok;
    EXPECT_EQ(run(args, ok).code, sw::kExitOk) << joined(args);
    FakeRunner lost(FakeRunner::Outcome::PayloadLost);
    const Result l = run(args, lost);
    EXPECT_EQ(l.code, sw::kExitRunFailed) << joined(args);
    FakeRunner stuck(FakeRunner::Outcome::Deadlock);
    const Result d = run(args, stuck);
    EXPECT_EQ(d.code, sw::kExitRunFailed) << joined(args);
    FakeRunner stuck_traffic(FakeRunner::Outcome::Deadlock);
    EXPECT_EQ(run(traffic, stuck_traffic).code, sw::kExitRunFailed) << joined(traffic);
    FakeRunner ok_traffic;
    EXPECT_EQ(run(traffic, ok_traffic).code, sw::kExitOk) << joined(traffic);
    if (json) {
      EXPECT_EQ(nlohmann::json::parse(l.out).value("payload_ok", true), false);
      // The fake runner loses one of the program's messages: the others are delivered.
      EXPECT_EQ(nlohmann::json::parse(l.out).value("messages_sent", 0u), fig2_messages().size());
      EXPECT_EQ(nlohmann::json::parse(l.out).value("messages_delivered", 0u),
                fig2_messages().size() - 1);
      EXPECT_EQ(nlohmann::json::parse(d.out).value("completed", true), false);
    } else {
      EXPECT_TRUE(contains(l.out, "message 0 lost")) << l.out;
      EXPECT_TRUE(contains(d.out, "DEADLOCK")) << d.out;
    }
  }
}

// The table of a network run (docs/cli.md, "orthosim run on a mesh, torus or hypercube"): each
// step's cycles (its end less the previous step's) and its own contention, the total in cycles
// and in ns at --clock-ns, the messages delivered intact of those sent, the run's contention and
// occupancy, and the busiest channels, most messages first (ties: the higher peak first). The
// runner's figures are all different, so that one shown in another's place cannot pass.
TEST_F(CliProgram, ANetworkRunsTableShowsEachStepsCyclesAndContentionAndTheBusiestChannels) {
  class Figures : public FakeRunner {
   public:
    sw::NetworkRunSummary run_network(const sw::NetworkRunRequest& request) override {
      network_requests.push_back(request);
      sw::NetworkRunSummary s;
      s.completed = true;
      s.cycles = sw::Cycle{50};
      s.step_ends = {sw::Cycle{10}, sw::Cycle{25}, sw::Cycle{40}, sw::Cycle{44}, sw::Cycle{50}};
      s.step_max_channel_contention = {3, 1, 2, 1, 2};
      s.max_channel_contention = 3;
      s.peak_channel_occupancy = 4;
      s.channels = {{"n0.x+", 2, 1}, {"n2.y+", 1, 5}, {"n3.x-", 0, 0}, {"n1.x+", 3, 5}};
      s.delivery.messages_checked = request.program.manifest.messages.size();
      s.delivery.messages_failed = 1;
      s.delivery.words_checked = 52;
      s.delivery.failures.push_back("message 4 lost");
      return s;
    }
  };
  Figures runner;
  const Result r = run({"run", fig2_, "--arch", "mesh", "--dims", "2x2", "--startup", "5",
                        "--router-delay", "2", "--packet-flits", "9", "--clock-ns", "7"},
                       runner);
  ASSERT_EQ(r.code, sw::kExitRunFailed) << r.err;  // a message was lost
  EXPECT_TRUE(contains(r.out, ", t_s 5, ")) << r.out;
  EXPECT_TRUE(contains(r.out, ", router delay 2, packets of at most 9 flits\n")) << r.out;
  std::istringstream lines(r.out);
  std::vector<std::vector<std::string>> steps;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    std::vector<std::string> row;
    for (std::string f; fields >> f;) {
      row.push_back(f);
    }
    if (row.size() == 3 && row[0].find_first_not_of("0123456789") == std::string::npos) {
      steps.push_back(row);
    }
  }
  EXPECT_EQ(steps, (std::vector<std::vector<std::string>>{{"1", "10", "3"},
                                                          {"2", "15", "1"},
                                                          {"3", "15", "2"},
                                                          {"4", "4", "1"},
                                                          {"5", "6", "2"}}))
      << r.out;
  EXPECT_TRUE(contains(r.out, "total") && contains(r.out, " 50  (350 ns)\n")) << r.out;
  const std::size_t sent = fig2_messages().size();
  EXPECT_TRUE(contains(r.out, "delivery: FAILED: " + std::to_string(sent - 1) + " of " +
                                  std::to_string(sent) + " messages delivered intact (52 words)"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "\nmax channel contention: 3 messages through one channel\n"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "\npeak channel occupancy: 4 flits in one input buffer\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "\nbusiest channels:  n1.x+ 5 msg, peak 3  n2.y+ 5 msg, peak 1  "
                              "n0.x+ 1 msg, peak 2\n"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "  delivery: message 4 lost\n")) << r.out;
}

// The busiest-channels line names at most six channels, those with the most messages, busiest
// first; a channel no message crossed is never named. Seven channels carry 1..7 messages and one
// none: the six named are those of 7 down to 2 messages, so "c1" (1 message) and "idle" are left out.
// The run table's operations column: each operation's text, then the cycles of each of its
// accesses (the JSON's formula_cycles), one space apart, in brackets.
TEST_F(CliProgram, ARunsTableListsTheCyclesOfEachAccessOfAnOperationSpaceSeparated) {
  // [PH91] Fig. 2's steps 2 and 4 (examples/fig2_sample.mcp): operations of two and three accesses.
  const std::string sample =
      file("sample.mcp", "nodes 4\nwords 4\nstep\n  send 1 -> 2\n  send 3 -> 0\n"
                         "step\n  send 0 -> all\n");
  FakeRunner runner;
  const Result text = run({"run", sample, "--arch", "omp", "--n", "4"}, runner);
  ASSERT_EQ(text.code, 0) << text.err;
  const Result json = run({"run", sample, "--arch", "omp", "--n", "4", "--json"}, runner);
  ASSERT_EQ(json.code, 0) << json.err;
  std::size_t several = 0;  // operations of more than one access, where the separator shows
  const nlohmann::json j = nlohmann::json::parse(json.out);
  for (const nlohmann::json& step : j["steps"]) {
    for (const nlohmann::json& op : step["operations"]) {
      std::string costs;
      for (const nlohmann::json& a : op["accesses"]) {
        costs += (costs.empty() ? "" : " ") + std::to_string(a["formula_cycles"].get<int>());
      }
      several += op["accesses"].size() > 1 ? 1 : 0;
      EXPECT_TRUE(contains(text.out, op["text"].get<std::string>() + "  [" + costs + "]\n"))
          << op["text"] << "\n"
          << text.out;
    }
  }
  EXPECT_GT(several, 0u);
}

TEST_F(CliProgram, ANetworkRunNamesItsSixBusiestChannelsAndNoIdleOne) {
  class SevenBusy : public FakeRunner {
   public:
    sw::NetworkRunSummary run_network(const sw::NetworkRunRequest& request) override {
      sw::NetworkRunSummary s = FakeRunner::run_network(request);
      s.channels = {{"idle", 0, 0}};
      for (std::uint64_t m = 1; m <= 7; ++m) {
        s.channels.push_back({"c" + std::to_string(m), 1, m});
      }
      return s;
    }
  };
  SevenBusy runner;
  const Result r = run({"run", fig2_, "--arch", "mesh", "--dims", "2x2"}, runner);
  ASSERT_EQ(r.code, 0) << r.err;
  std::string expected = "\nbusiest channels:";
  for (std::uint64_t m = 7; m >= 2; --m) {
    expected += "  c" + std::to_string(m) + " " + std::to_string(m) + " msg, peak 1";
  }
  EXPECT_TRUE(contains(r.out, expected + "\n")) << r.out;
}

// A run no message crossed a channel of: the counts take the plural of zero ("0 messages",
// "0 flits") and no busiest-channels line is printed, as there is no busy channel to name.
TEST_F(CliProgram, ANetworkRunWithIdleChannelsSaysZeroInThePluralAndNamesNoBusiestChannel) {
  class Idle : public FakeRunner {
   public:
    sw::NetworkRunSummary run_network(const sw::NetworkRunRequest& request) override {
      sw::NetworkRunSummary s = FakeRunner::run_network(request);
      s.max_channel_contention = 0;
      s.peak_channel_occupancy = 0;
      s.channels = {{"n0.x+", 0, 0}, {"n1.x-", 0, 0}};
      return s;
    }
  };
  Idle runner;
  const Result r = run({"run", fig2_, "--arch", "mesh", "--dims", "2x2"}, runner);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "\nmax channel contention: 0 messages through one channel\n"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "\npeak channel occupancy: 0 flits in one input buffer\n")) << r.out;
  EXPECT_FALSE(contains(r.out, "busiest channels")) << r.out;
}

TEST_F(CliProgram, BadInputOfTheNetworkCommandsExitsTwoWithOneLineAndNoOutput) {
  const std::string five = file("five.mcp", "nodes 5\nstep\n  send 0 -> 4\n");
  // Embedding files for the 4-node Fig. 2 program, with the position of the fault.
  const std::string letter = file("letter.map", "0 1 x 3\n");             // 1:5
  const std::string far = file("far.map", "0 1\n2 4\n");                  // 2:3 on 4 nodes
  const std::string twice = file("twice.map", "0 1\n# again\n1 3\n");     // 3:1
  const std::string few = file("few.map", "0 1 2");                       // 1:6, the end
  const std::string many = file("many.map", "0 1 2 3 4\n");               // 1:9 on 16 nodes
  const std::string negative = file("negative.map", "0 -1 2 3\n");        // 1:3
  const std::string latin1 = file("latin1.map", "0 1 # caf\xe9\n2 3\n");  // 1:10
  const auto on_mesh = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = {"run", fig2_, "--arch", "mesh", "--dims", "4x4"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  };
  const auto traffic = [](std::vector<std::string> extra) {
    std::vector<std::string> args = {"traffic", "--topology", "mesh", "--dims", "4x4"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  };
  const std::vector<BadInput> cases = {
      // sizes
      {{"run", fig2_, "--arch", "mesh", "--dims", "1x4"}, {"--dims", "1x4"}},
      {{"run", fig2_, "--arch", "mesh", "--dims", "4x4x4x4"}, {"--dims", "4x4x4x4"}},
      {{"run", fig2_, "--arch", "torus", "--dims", "4xx4"}, {"--dims", "4xx4"}},
      {{"run", fig2_, "--arch", "mesh", "--dims", "300x300"}, {"--dims"}},
      {{"run", fig2_, "--arch", "mesh"}, {"--dims"}},
      {{"run", fig2_, "--arch", "mesh", "--dim", "3"}, {"--dim"}},
      {{"run", fig2_, "--arch", "hypercube", "--dim", "11"}, {"--dim", "11"}},
      {{"run", fig2_, "--arch", "hypercube", "--dim", "0"}, {"--dim"}},
      {{"run", fig2_, "--arch", "hypercube", "--dims", "4x4"}, {"--dims"}},
      {{"run", fig2_, "--arch", "hypercube"}, {"--dim"}},
      // network options
      {on_mesh({"--switching", "cut"}), {"--switching", "cut"}},
      {on_mesh({"--ports", "two"}), {"--ports", "two"}},
      {{"run", fig2_, "--arch", "torus", "--dims", "4x4", "--vcs", "3"}, {"--vcs"}},
      {{"run", fig2_, "--arch", "torus", "--dims", "4x4", "--vcs", "1"}, {"--vcs"}},
      {on_mesh({"--vcs", "0"}), {"--vcs"}},
      {on_mesh({"--vcs", "17"}), {"--vcs"}},
      {on_mesh({"--packet-flits", "1"}), {"--packet-flits"}},
      {on_mesh({"--buffers", "0"}), {"--buffers"}},
      {on_mesh({"--router-delay", "0"}), {"--router-delay"}},
      {on_mesh({"--startup", "-1"}), {"--startup", "-1"}},
      {on_mesh({"--startup", "x"}), {"--startup", "x"}},
      {on_mesh({"--watchdog", "0"}), {"--watchdog"}},
      // the two families of options do not mix
      {on_mesh({"--n", "4"}), {"--n"}},
      {on_mesh({"--alpha", "3"}), {"--alpha"}},
      {on_mesh({"--buffer-words", "8"}), {"--buffer-words"}},
      {{"run", fig2_, "--arch", "omp", "--dims", "4x4"}, {"--dims"}},
      {{"run", fig2_, "--arch", "bus", "--dim", "2"}, {"--dim"}},
      {{"run", fig2_, "--arch", "crossbar", "--vcs", "2"}, {"--vcs"}},
      {{"run", fig2_, "--switching", "saf"}, {"--switching"}},
      {{"run", fig2_, "--arch", "omp", "--embedding", letter}, {"--embedding"}},
      // the program must fit the network
      {{"run", five, "--arch", "mesh", "--dims", "2x2"}, {"--dims"}},
      // (a hypercube's size is --dim)
      {{"run", fig2_, "--arch", "hypercube", "--dim", "1"}, {"--dim:"}},
      {{"run", "--arch", "mesh", "--dims", "4x4"}, {"PROGRAM"}},
      // embedding files
      {{"run", fig2_, "--arch", "mesh", "--dims", "2x2", "--embedding", letter},
       {letter + ":1:5:", "x"}},
      {{"run", fig2_, "--arch", "mesh", "--dims", "2x2", "--embedding", far}, {far + ":2:3:"}},
      {{"run", fig2_, "--arch", "mesh", "--dims", "2x2", "--embedding", twice}, {twice + ":3:1:"}},
      {{"run", fig2_, "--arch", "mesh", "--dims", "2x2", "--embedding", few}, {few + ":1:6:"}},
      {on_mesh({"--embedding", many}), {many + ":1:9:"}},
      {on_mesh({"--embedding", negative}), {negative + ":1:3:"}},
      {on_mesh({"--embedding", latin1}), {latin1 + ":1:10: expected UTF-8 text", "0xe9"}},
      {on_mesh({"--embedding", path("missing.map")}),
       {"missing.map: expected a readable node map file", "no such file"}},
      // traffic
      {{"traffic"}, {"--topology"}},
      {{"traffic", "--dims", "4x4"}, {"--topology"}},
      {{"traffic", "--topology", "ring", "--dims", "4"}, {"--topology", "ring"}},
      {{"traffic", "--topology", "omp", "--dims", "4"}, {"--topology", "omp"}},
      {{"traffic", "--topology", "hypercube", "--dims", "4x4"}, {"--dims"}},
      {{"traffic", "--topology", "torus", "--dims", "4x4", "--vcs", "3"}, {"--vcs"}},
      {{"traffic", "--topology", "mesh", "--dims", "3x3", "--pattern", "bitrev"}, {"--pattern"}},
      {{"traffic", "--topology", "mesh", "--dims", "4x2", "--pattern", "transpose"}, {"--pattern"}},
      {{"traffic", "--topology", "hypercube", "--dim", "3", "--pattern", "transpose"},
       {"--pattern"}},
      {{"traffic", "--topology", "hypercube", "--dim", "3", "--pattern", "lcc:10/01,00"},
       {"--pattern"}},
      {{"traffic", "--topology", "hypercube", "--dim", "3", "--pattern", "lcc:100/010/001,0000"},
       {"--pattern"}},
      {{"traffic", "--topology", "hypercube", "--dim", "3", "--pattern", "lcc:100/010/0011,000"},
       {"--pattern"}},
      {{"traffic", "--topology", "hypercube", "--dim", "3", "--pattern", "lcc:100/010/001"},
       {"--pattern"}},
      {{"traffic", "--topology", "hypercube", "--dim", "3", "--pattern", "lcc:100/010/021,000"},
       {"--pattern"}},
      {traffic({"--pattern", "hotspot"}), {"--pattern", "hotspot"}},
      {traffic({"--rate", "-1"}), {"--rate", "-1"}},
      {traffic({"--rate", "x"}), {"--rate", "x"}},
      {traffic({"--rate", "65"}), {"--rate"}},
      {traffic({"--rates", "0.1,x"}), {"--rates", "x"}},
      {traffic({"--rates", "0.1,,0.2"}), {"--rates"}},
      {traffic({"--rates", "0.1,"}), {"--rates"}},
      {traffic({"--rate", "0.1", "--rates", "0.2,0.3"}), {"--rate", "--rates"}},
      {traffic({"--flits", "0"}), {"--flits"}},
      {traffic({"--flits", "x"}), {"--flits", "x"}},
      {traffic({"--flits", "10", "--packet-flits", "5"}), {"--flits"}},
      {traffic({"--switching", "saf", "--buffers", "4"}), {"--buffers"}},
      {traffic({"--injection", "poisson"}), {"--injection", "poisson"}},
      {traffic({"--warmup", "-1"}), {"--warmup"}},
      {traffic({"--cycles", "0"}), {"--cycles"}},
      {traffic({"--seed", "x"}), {"--seed", "x"}},
      {traffic({"--n", "4"}), {"unknown option --n"}},
      {traffic({"--switching", "cut"}), {"--switching", "cut"}},
      {traffic({"stray"}), {"'stray'", "orthosim traffic takes no bare argument"}},
  };
  expect_refused_before_running(cases);
}

// run --json writes its steps one at a time (write_run_json): the bytes of the whole tree printed
// at once, for several steps (one without any memory operation, a label that is not UTF-8) and
// for none.
TEST(RunJson, StepsWrittenOneAtATimeAreTheBytesOfTheWholeTree) {
  sw::McProgram program;
  program.name = "three steps";
  program.nodes = 4;
  program.steps.resize(3);
  program.steps[0].transfers.push_back({0, {1, 2}, true, 3, {}});
  program.steps[1].label = "compute \xff only";
  program.steps[1].computes.push_back({2, sw::Cycle{7}, {}});
  program.steps[2].transfers.push_back({3, {0}, false, 2, {}});
  sw::MappedProgram mapped = sw::map_program(program, sw::Arch::Omp, 4);
  sw::SystemConfig config;
  config.n = 4;
  sw::RunSummary summary;
  summary.completed = true;
  summary.step_ends = {sw::Cycle{40}, sw::Cycle{47}, sw::Cycle{90}};
  summary.cycles = sw::Cycle{90};
  const sw::cli::ProgramRun run{
      mapped, config, sw::predict_cycles(mapped, config), summary, std::string("a.vcd"), {}};
  std::ostringstream written;
  sw::cli::write_run_json(run, written);
  EXPECT_EQ(written.str(), sw::json_text(sw::cli::run_json(run), 2) + "\n");
  // What run --json keeps of each step prints the same.
  for (sw::MappedStep& step : mapped.steps) {
    sw::cli::keep_what_json_prints(step);
  }
  std::ostringstream trimmed;
  sw::cli::write_run_json(run, trimmed);
  EXPECT_EQ(trimmed.str(), written.str());

  mapped.steps.clear();
  const sw::cli::ProgramRun empty{mapped, config, {}, {}, std::nullopt, {}};
  std::ostringstream none;
  sw::cli::write_run_json(empty, none);
  EXPECT_EQ(none.str(), sw::json_text(sw::cli::run_json(empty), 2) + "\n");
}

}  // namespace
}  // namespace orthosim
