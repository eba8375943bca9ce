// The `orthosim` command line (sw/cli) against a fake Runner: exit codes (0 ok, 1 run failed,
// 2 bad input), one-line errors that name the option, nothing on stdout after bad input, the
// per-kind defaults of d and l, and the JSON report. Expected cycles are the [PH91] section 3.1
// formulas (Fig. 5, Eq. 1) written here. map / run / gen / demo: the Fig. 2 program of [PH91]
// written here from the paper, message counts from Table 1, sizes from the messages' lengths.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

#include "sw/cli/cli.hpp"
#include "sw/cost/access_workload_cost.hpp"
#include "sw/pattern/pattern.hpp"
#include "sw/program/parser.hpp"
#include "sw/program/program.hpp"

namespace orthosim {
namespace {

using sw::Arch;
using sw::WorkloadKind;

/// Records what the command line asked for and answers with a summary built from the request.
class FakeRunner : public sw::Runner {
 public:
  enum class Outcome { Correct, PayloadLost, CyclesOff, Deadlock, Throws };

  explicit FakeRunner(Outcome outcome = Outcome::Correct) : outcome_(outcome) {}

  sw::RunSummary run_access(const sw::AccessRequest& request) override {
    access_requests.push_back(request);
    return summary(request.config, request.workload);
  }

  /// Machine programs: every message counted, marks at one cycle per step.
  std::vector<sw::RunSummary> run_programs(std::vector<sw::SystemRun> runs) override {
    program_requests.push_back(runs);
    std::vector<sw::RunSummary> out;
    for (const sw::SystemRun& run : runs) {
      sw::RunSummary s = summary(run.config, sw::AccessWorkload{});
      s.delivery.messages_checked = run.program.messages.size();
      out.push_back(s);
    }
    return out;
  }

  /// Networks: every message delivered, one cycle per step.
  sw::NetworkRunSummary run_network(const sw::NetworkRunRequest& request) override {
    network_requests.push_back(request);
    sw::NetworkRunSummary s;
    static_cast<sw::RunSummary&>(s) = summary(sw::SystemConfig{}, sw::AccessWorkload{});
    s.delivery.messages_checked = request.program.manifest.messages.size();
    for (std::uint32_t k = 0; k < request.program.steps; ++k) {
      s.step_ends.push_back(sw::Cycle{k + 1});
    }
    s.max_channel_contention = kConflicts;
    return s;
  }

  /// Traffic: accepts what is offered.
  std::vector<sw::TrafficPoint> run_traffic(const sw::TrafficRequest& request) override {
    traffic_requests.push_back(request);
    std::vector<sw::TrafficPoint> points;
    for (double rate : request.rates) {
      sw::TrafficPoint p;
      p.rate = p.offered = p.accepted = rate;
      p.sustainable = true;
      p.deadlocked = outcome_ == Outcome::Deadlock;
      points.push_back(p);
    }
    return points;
  }

  /// Tables: the multiprocessors as run_programs, then each network as run_network.
  sw::MixedRunResult run_mixed(const std::vector<sw::SystemRun>& systems,
                               const std::vector<sw::NetworkRunRequest>& networks) override {
    sw::MixedRunResult out;
    out.systems = run_programs(systems);
    for (const sw::NetworkRunRequest& request : networks) {
      out.networks.push_back(run_network(request));
    }
    return out;
  }

  std::vector<sw::AccessRequest> access_requests;
  std::vector<std::vector<sw::SystemRun>> program_requests;
  std::vector<sw::NetworkRunRequest> network_requests;
  std::vector<sw::TrafficRequest> traffic_requests;
  static constexpr std::uint64_t kConflicts = 7;

 private:
  sw::RunSummary summary(const sw::SystemConfig& c, const sw::AccessWorkload& w) const {
    if (outcome_ == Outcome::Throws) {
      throw std::runtime_error("fake runner exploded");
    }
    sw::RunSummary s;
    s.completed = outcome_ != Outcome::Deadlock;
    const sw::Cycle off{outcome_ == Outcome::CyclesOff ? 1u : 0u};
    s.cycles = sw::access_workload_cycles(c, w) + off;
    s.delivery.messages_checked = std::size_t{c.n} * w.d;
    s.delivery.words_checked = std::uint64_t{c.n} * w.d * w.l;
    s.conflicts = kConflicts;
    if (!s.completed) {
      s.blocked.push_back("P0 waits for the bus switch");
    }
    if (outcome_ == Outcome::PayloadLost) {
      s.delivery.messages_failed = 1;
      s.delivery.failures.push_back("message 0 lost");
    }
    return s;
  }

  Outcome outcome_;
};

struct Result {
  int code = -1;
  std::string out;
  std::string err;
};

Result run(const std::vector<std::string>& args, FakeRunner& runner) {
  std::ostringstream out;
  std::ostringstream err;
  Result r;
  r.code = sw::run_cli(args, runner, out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

Result run(const std::vector<std::string>& args) {
  FakeRunner runner;
  return run(args, runner);
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::string joined(const std::vector<std::string>& args) {
  std::string s;
  for (const std::string& a : args) {
    s += a + " ";
  }
  return s;
}

// ---- help and commands --------------------------------------------------------------------

TEST(Cli, HelpListsTheCommands) {
  for (const std::string flag : {"--help", "-h", "help"}) {
    const Result r = run({flag});
    EXPECT_EQ(r.code, sw::kExitOk) << flag;
    EXPECT_TRUE(contains(r.out, "access")) << r.out;
    EXPECT_TRUE(contains(r.out, "demo")) << r.out;
    EXPECT_EQ(r.err, "") << flag;
  }
}

TEST(Cli, NoCommandIsBadInput) {
  const Result r = run({});
  EXPECT_EQ(r.code, sw::kExitBadInput);
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(contains(r.err, "access")) << r.err;
}

TEST(Cli, CommandHelpListsItsOptionsAndRunsNothing) {
  FakeRunner runner;
  const Result r = run({"access", "--help"}, runner);
  EXPECT_EQ(r.code, sw::kExitOk);
  for (const std::string option :
       {"--arch", "--kind", "--d", "--l", "--alpha", "--tau", "--json"}) {
    EXPECT_TRUE(contains(r.out, option)) << option;
  }
  EXPECT_TRUE(runner.access_requests.empty());
}

TEST(Cli, UnknownCommandIsBadInput) {
  const Result r = run({"frobnicate", "--n", "4"});
  EXPECT_EQ(r.code, sw::kExitBadInput);
  EXPECT_TRUE(contains(r.err, "frobnicate")) << r.err;
  EXPECT_EQ(r.out, "");
}

// ---- bad input ----------------------------------------------------------------------------

struct BadInput {
  std::vector<std::string> args;
  std::vector<std::string> in_error;  ///< words the error line must contain
};

/// Each command line is refused before the runner is asked anything: exit 2, nothing on standard
/// output, one error line that contains the case's words.
void expect_refused_before_running(const std::vector<BadInput>& cases) {
  for (const BadInput& c : cases) {
    FakeRunner runner;
    const Result r = run(c.args, runner);
    const std::string what = joined(c.args);
    EXPECT_EQ(r.code, sw::kExitBadInput) << what << "\n" << r.err;
    EXPECT_EQ(r.out, "") << what;
    EXPECT_TRUE(runner.access_requests.empty() && runner.program_requests.empty() &&
                runner.network_requests.empty() && runner.traffic_requests.empty())
        << what;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << what << "\n" << r.err;
    EXPECT_EQ(r.err.empty() ? ' ' : r.err.back(), '\n') << what;
    for (const std::string& word : c.in_error) {
      EXPECT_TRUE(contains(r.err, word)) << what << ": '" << word << "' not in: " << r.err;
    }
  }
}

TEST(Cli, BadInputExitsTwoWithOneLineNamingTheOptionAndNoOutput) {
  const std::vector<BadInput> cases = {
      {{"access", "--arch", "foo"}, {"--arch", "foo"}},
      {{"access", "--d", "9", "--n", "4"}, {"--d", "9"}},
      {{"access", "--kind", "block", "--d", "0"}, {"--d"}},
      {{"access", "--l", "0"}, {"--l"}},
      {{"access", "--repeat", "0"}, {"--repeat"}},
      {{"access", "--kind", "interleaved", "--l", "2"}, {"--l"}},
      {{"access", "--alpha", "-3"}, {"--alpha", "-3"}},
      {{"access", "--alpha=-3"}, {"--alpha", "-3"}},
      {{"access", "--beta", "x"}, {"--beta", "x"}},
      {{"access", "--tau", "0"}, {"--tau"}},
      {{"access", "--n", "0"}, {"--n"}},
      {{"access", "--n", "257"}, {"--n"}},
      {{"access", "--buffer-words", "0"}, {"--buffer-words"}},
      {{"access", "--kind", "vector"}, {"--kind", "vector"}},
      {{"access", "--frobnicate", "1"}, {"frobnicate"}},
      {{"access", "--impl", "fast"}, {"--impl", "fast"}},
      {{"access", "stray"}, {"positional"}},
      {{"demo", "--n", "0"}, {"--n"}},
      {{"demo", "--arch", "omp"}, {"arch"}},
  };
  expect_refused_before_running(cases);
}

// ---- what the runner is asked -------------------------------------------------------------

sw::AccessRequest only_request(const std::vector<std::string>& args) {
  FakeRunner runner;
  const Result r = run(args, runner);
  EXPECT_EQ(r.code, sw::kExitOk) << joined(args) << "\n" << r.err;
  EXPECT_EQ(r.err, "") << joined(args);
  EXPECT_EQ(runner.access_requests.size(), 1u) << joined(args);
  return runner.access_requests.empty() ? sw::AccessRequest{} : runner.access_requests.front();
}

TEST(Cli, DefaultsDependOnTheKind) {
  struct Expect {
    std::string kind;
    std::uint32_t n, d, l;
  };
  for (std::uint32_t n : {1u, 4u, 6u}) {
    const std::vector<Expect> cases = {
        {"iwr", n, n > 1 ? n - 1 : 1, 4},
        {"interleaved", n, n, 1},
        {"scalar", n, 1, 1},
        {"block", n, n, 4},
    };
    for (const Expect& e : cases) {
      const sw::AccessRequest req =
          only_request({"access", "--kind", e.kind, "--n", std::to_string(n)});
      EXPECT_EQ(req.config.n, n) << e.kind;
      EXPECT_EQ(to_string(req.workload.kind), e.kind);
      EXPECT_EQ(req.workload.d, e.d) << e.kind << " n=" << n;
      EXPECT_EQ(req.workload.l, e.l) << e.kind << " n=" << n;
    }
  }
}

TEST(Cli, WithoutOptionsRunsAnIwrExchangeOnTheDefaultOmp) {
  const sw::AccessRequest req = only_request({"access"});
  const sw::SystemConfig defaults;
  EXPECT_EQ(req.config.arch, Arch::Omp);
  EXPECT_EQ(req.config.n, defaults.n);
  EXPECT_EQ(req.workload.kind, WorkloadKind::Iwr);
  EXPECT_EQ(req.workload.d, defaults.n - 1);
  EXPECT_EQ(req.workload.l, 4u);
  EXPECT_EQ(req.workload.repetitions, 1u);
  EXPECT_FALSE(req.vcd_path.has_value());
}

TEST(Cli, OptionsReachTheRequest) {
  const sw::AccessRequest req = only_request(
      {"access", "--arch", "bus", "--n", "3", "--kind", "block", "--d", "2", "--l", "7",
       "--alpha", "0", "--beta", "11", "--tau", "5", "--gamma", "13", "--clock-ns", "20",
       "--buffer-words", "64", "--module-words", "512", "--local-words", "1024", "--vcd",
       "out.vcd", "--repeat", "3"});
  EXPECT_EQ(req.config.arch, Arch::Bus);
  EXPECT_EQ(req.config.n, 3u);
  EXPECT_EQ(req.workload.kind, WorkloadKind::Block);
  EXPECT_EQ(req.workload.d, 2u);
  EXPECT_EQ(req.workload.l, 7u);
  EXPECT_EQ(req.workload.repetitions, 3u);
  EXPECT_EQ(req.config.timing.alpha, 0u);
  EXPECT_EQ(req.config.timing.beta, 11u);
  EXPECT_EQ(req.config.timing.tau, 5u);
  EXPECT_EQ(req.config.timing.gamma, 13u);
  EXPECT_EQ(req.config.clock_period_ns, 20u);
  EXPECT_EQ(req.config.buffer_words, 64u);
  EXPECT_EQ(req.config.module_words, 512u);
  EXPECT_EQ(req.config.local_words, 1024u);
  ASSERT_TRUE(req.vcd_path.has_value());
  EXPECT_EQ(*req.vcd_path, "out.vcd");
}

// ---- JSON and exit codes ------------------------------------------------------------------

TEST(Cli, JsonReportHasTheRunAndTheFormula) {
  FakeRunner runner;
  const Result r = run({"access", "--json", "--arch", "crossbar", "--n", "3", "--kind", "block",
                        "--d", "2", "--l", "5"},
                       runner);
  ASSERT_EQ(r.code, sw::kExitOk) << r.err;
  EXPECT_EQ(r.err, "");
  nlohmann::json j;
  ASSERT_NO_THROW(j = nlohmann::json::parse(r.out)) << r.out;
  const sw::BusTiming t;  // the defaults the command line starts from
  // Block access, Fig. 5(c); a round trip on the crossbar is a write and a read on P(i)'s bus.
  const std::uint64_t block = t.alpha + t.beta * (5 - 1) + 2 * t.tau * 5;
  for (const char* field : {"cycles", "formula_cycles", "payload_ok", "conflicts", "arch", "n",
                            "d", "l", "kind"}) {
    EXPECT_TRUE(j.contains(field)) << field;
  }
  EXPECT_EQ(j.value("formula_cycles", std::uint64_t{0}), 2 * block);
  EXPECT_EQ(j.value("cycles", std::uint64_t{0}), 2 * block);
  EXPECT_EQ(j.value("payload_ok", false), true);
  EXPECT_EQ(j.value("conflicts", std::uint64_t{0}), FakeRunner::kConflicts);
  EXPECT_EQ(j.value("arch", std::string{}), "crossbar");
  EXPECT_EQ(j.value("n", 0u), 3u);
  EXPECT_EQ(j.value("d", 0u), 2u);
  EXPECT_EQ(j.value("l", 0u), 5u);
  EXPECT_EQ(j.value("kind", std::string{}), "block");
}

TEST(Cli, JsonFormulaOfAnOmpIwrStepIsEquationOnePlusGamma) {
  FakeRunner runner;
  const Result r = run({"access", "--json", "--n", "5", "--alpha", "30", "--beta", "4", "--tau",
                        "2", "--gamma", "9", "--l", "3"},
                       runner);
  ASSERT_EQ(r.code, sw::kExitOk) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  const std::uint64_t d = 4;  // iwr default: n - 1
  EXPECT_EQ(j.value("formula_cycles", std::uint64_t{0}), 2 * (30 + 4 * (3 - 1) + d * 2 * 3) + 9);
  EXPECT_EQ(j.value("kind", std::string{}), "iwr");
  EXPECT_EQ(j.value("arch", std::string{}), "omp");
}

TEST(Cli, JsonFormulaOfRepeatedRunsIsTheRepetitionCountTimesOne) {
  FakeRunner runner;
  const Result r = run({"access", "--json", "--arch", "bus", "--n", "3", "--kind", "scalar",
                        "--alpha", "10", "--tau", "2", "--repeat", "4"},
                       runner);
  ASSERT_EQ(r.code, sw::kExitOk) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  // Scalar round trip on the single bus: 2n scalar accesses of alpha + tau, four times.
  EXPECT_EQ(j.value("formula_cycles", std::uint64_t{0}), 4u * 2u * 3u * (10u + 2u));
  EXPECT_EQ(j.value("repeat", 0u), 4u);
}

TEST(Cli, TableReportShowsTheCheck) {
  FakeRunner ok_runner;
  const Result ok = run({"access", "--kind", "scalar"}, ok_runner);
  EXPECT_EQ(ok.code, sw::kExitOk);
  EXPECT_TRUE(contains(ok.out, "cycles (formula)")) << ok.out;
  const sw::BusTiming t;
  EXPECT_TRUE(contains(ok.out, std::to_string(2 * (t.alpha + t.tau)))) << ok.out;
  FakeRunner lost_runner(FakeRunner::Outcome::PayloadLost);
  const Result lost = run({"access", "--kind", "scalar"}, lost_runner);
  EXPECT_TRUE(contains(lost.out, "message 0 lost")) << lost.out;
}

TEST(Cli, RunThatMissesAContractExitsOne) {
  for (FakeRunner::Outcome outcome :
       {FakeRunner::Outcome::PayloadLost, FakeRunner::Outcome::CyclesOff,
        FakeRunner::Outcome::Deadlock}) {
    for (const bool json : {false, true}) {
      FakeRunner runner(outcome);
      std::vector<std::string> args = {"access", "--arch", "bus", "--kind", "interleaved"};
      if (json) {
        args.push_back("--json");
      }
      const Result r = run(args, runner);
      EXPECT_EQ(r.code, sw::kExitRunFailed) << static_cast<int>(outcome) << " json " << json;
      EXPECT_EQ(runner.access_requests.size(), 1u);
      if (json) {
        const nlohmann::json j = nlohmann::json::parse(r.out);
        // A run that did not complete cannot have delivered every payload.
        EXPECT_EQ(j.value("payload_ok", true), outcome == FakeRunner::Outcome::CyclesOff);
        const bool on_formula = j.value("cycles", std::uint64_t{0}) ==
                                j.value("formula_cycles", std::uint64_t{0});
        EXPECT_EQ(on_formula, outcome != FakeRunner::Outcome::CyclesOff);
      }
    }
  }
}

TEST(Cli, RunnerFailureExitsOneWithTheReason) {
  FakeRunner runner(FakeRunner::Outcome::Throws);
  const Result r = run({"access"}, runner);
  EXPECT_EQ(r.code, sw::kExitRunFailed);
  EXPECT_TRUE(contains(r.err, "fake runner exploded")) << r.err;
  EXPECT_EQ(r.out, "");
}

// ---- demo ---------------------------------------------------------------------------------

TEST(Cli, DemoRunsTheSampleProgramOnAllThreeConfigurations) {
  FakeRunner runner;
  const Result r = run({"demo", "--json", "--out", "demo-dir"}, runner);
  ASSERT_EQ(r.code, sw::kExitOk) << r.err;
  ASSERT_EQ(runner.program_requests.size(), 1u);
  const std::vector<sw::SystemRun>& runs = runner.program_requests.front();
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[0].config.arch, Arch::Omp);
  EXPECT_EQ(runs[1].config.arch, Arch::Crossbar);
  EXPECT_EQ(runs[2].config.arch, Arch::Bus);
  for (const sw::SystemRun& s : runs) {
    EXPECT_EQ(s.config.n, 4u);
    // Fig. 2: 1 + 2 + 3 + 3 + (2 + 2) node messages.
    EXPECT_EQ(s.program.messages.size(), 13u);
    ASSERT_TRUE(s.vcd_path.has_value());
    EXPECT_EQ(*s.vcd_path, "demo-dir/" + sw::to_string(s.config.arch) + ".vcd");
  }
  const nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_TRUE(j.contains("systems"));
  ASSERT_EQ(j["systems"].size(), 3u);
  EXPECT_EQ(j["systems"][1].value("arch", std::string{}), "crossbar");
  EXPECT_EQ(j["systems"][1]["steps"].size(), 5u);
}

TEST(Cli, DemoFailsWhenOneSystemLosesAWord) {
  FakeRunner runner(FakeRunner::Outcome::PayloadLost);
  const Result r = run({"demo"}, runner);
  EXPECT_EQ(r.code, sw::kExitRunFailed);
}

// ---- map, run, gen: multicomputer programs ------------------------------------------------

namespace fs = std::filesystem;

/// The sample program of [PH91] Fig. 2 as listed in its section 2, 4-word messages.
constexpr const char* kFig2Program =
    "nodes 4\n"
    "words 4\n"
    "step one_to_one\n"
    "  send 1 -> 0\n"
    "step permutation\n"
    "  send 1 -> 2\n"
    "  send 3 -> 0\n"
    "step broadcast\n"
    "  bcast 0 -> all\n"
    "step scatter\n"
    "  send 0 -> all\n"
    "step many_to_one_and_multicast\n"
    "  send 1, 2 -> 0\n"
    "  bcast 3 -> 1, 2\n";

/// Its node messages (source, destination): C1(N1,N0); C2 (N1,N2),(N3,N0); C3 and C4 from N0 to
/// the m-1 = 3 others; C10 (N1,N0),(N2,N0) and C8 (N3,N1),(N3,N2). 1 + 2 + 3 + 3 + 4 = 13.
const std::vector<std::pair<std::uint32_t, std::uint32_t>>& fig2_messages() {
  static const std::vector<std::pair<std::uint32_t, std::uint32_t>> m = {
      {1, 0}, {1, 2}, {3, 0}, {0, 1}, {0, 2}, {0, 3}, {0, 1},
      {0, 2}, {0, 3}, {1, 0}, {2, 0}, {3, 1}, {3, 2}};
  return m;
}

const std::vector<std::pair<std::string, Arch>>& archs() {
  static const std::vector<std::pair<std::string, Arch>> a = {
      {"omp", Arch::Omp}, {"crossbar", Arch::Crossbar}, {"bus", Arch::Bus}};
  return a;
}

/// Block access cost, [PH91] Fig. 5(c) / Eq. 1: alpha + beta(l-1) + d tau l.
std::uint64_t access_formula(std::uint64_t alpha, std::uint64_t beta, std::uint64_t tau,
                             std::uint64_t d, std::uint64_t l) {
  return alpha + beta * (l - 1) + d * tau * l;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// A fresh folder per test for program files and outputs.
class CliProgram : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("orthosim_cli_test_" +
            std::string(testing::UnitTest::GetInstance()->current_test_info()->name()) + "_" +
            std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    fig2_ = file("fig2_sample.mcp", kFig2Program);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  /// Writes `text` to DIR/name and returns its path.
  std::string file(const std::string& name, const std::string& text) const {
    const fs::path p = dir_ / name;
    std::ofstream out(p, std::ios::binary);
    out << text;
    return p.string();
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  fs::path dir_;
  std::string fig2_;
};

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
    const sw::SystemRun s = only_system(
        {"run", fig2_, "--arch", name, "--n", "4", "--alpha", "10", "--beta", "3", "--tau", "2",
         "--gamma", "5", "--sync-cycles", "7", "--barrier-cycles", "3", "--clock-ns", "20",
         "--json"},
        &r);
    EXPECT_EQ(s.config.arch, arch) << name;
    EXPECT_EQ(s.config.n, 4u) << name;
    EXPECT_EQ(s.config.timing.alpha, 10u) << name;
    EXPECT_EQ(s.config.timing.beta, 3u) << name;
    EXPECT_EQ(s.config.timing.tau, 2u) << name;
    EXPECT_EQ(s.config.timing.gamma, 5u) << name;
    EXPECT_EQ(s.config.sync.activate, 7u) << name;
    EXPECT_EQ(s.config.sync.barrier, 3u) << name;
    EXPECT_EQ(s.config.clock_period_ns, 20u) << name;
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
    EXPECT_EQ(s.config.arch, arch);
    EXPECT_EQ(s.config.n, 2u) << name;
    EXPECT_EQ(s.program.processors.size(), 2u) << name;
    EXPECT_EQ(manifest(s.program), expected) << name;
  }
}

TEST_F(CliProgram, RunRaisesTheSizesTheUserLeftOpenAndKeepsTheOnesFixed) {
  const sw::SystemConfig defaults;
  // 4-word messages fit the defaults, which are never lowered.
  const sw::SystemRun small = only_system({"run", fig2_});
  EXPECT_EQ(small.config.buffer_words, defaults.buffer_words);
  EXPECT_EQ(small.config.module_words, defaults.module_words);
  EXPECT_EQ(small.config.local_words, defaults.local_words);

  // One 5000-word message: longer than the default data buffer and memory module.
  ASSERT_LT(defaults.buffer_words, 5000u);
  ASSERT_LT(defaults.module_words, 5000u);
  ASSERT_GT(defaults.local_words, 2 * 5000u);
  const std::string big = file("big.mcp", "nodes 2\nstep\n  send 0 -> 1 words 5000\n");
  const sw::SystemRun b = only_system({"run", big, "--arch", "crossbar"});
  EXPECT_GE(b.config.buffer_words, 5000u);
  EXPECT_GE(b.config.module_words, 5000u);
  EXPECT_EQ(b.config.local_words, defaults.local_words);
  EXPECT_EQ(b.config.n, 2u);

  // 70000 words: longer than the default local memory too.
  ASSERT_LT(defaults.local_words, 70000u);
  const std::string huge = file("huge.mcp", "nodes 2\nstep\n  send 0 -> 1 words 70000\n");
  const sw::SystemRun h = only_system({"run", huge, "--arch", "bus"});
  EXPECT_GE(h.config.buffer_words, 70000u);
  EXPECT_GE(h.config.module_words, 70000u);
  EXPECT_GE(h.config.local_words, 70000u);

  // What the user fixes, and suffices, is kept as given.
  const sw::SystemRun fixed = only_system({"run", big, "--buffer-words", "6000", "--module-words",
                                           "7000", "--local-words", "80000"});
  EXPECT_EQ(fixed.config.buffer_words, 6000u);
  EXPECT_EQ(fixed.config.module_words, 7000u);
  EXPECT_EQ(fixed.config.local_words, 80000u);

  // A 4-word message needs a 4-word buffer, no more.
  EXPECT_EQ(only_system({"run", fig2_, "--buffer-words", "4"}).config.buffer_words, 4u);
}

TEST_F(CliProgram, AFixedSizeTooSmallForTheProgramIsBadInput) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--buffer-words", "1"}, {"--buffer-words", "3"},  // below the 4-word messages
      {"--module-words", "1"}, {"--local-words", "1"}};
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
      {{"run", fig2_, "--arch", "ring"}, {"--arch", "ring"}},
      {{"map", fig2_, "--n", "0"}, {"--n"}},
      {{"run", fig2_, "--n", "0"}, {"--n"}},
      {{"run", fig2_, "--n", "257"}, {"--n"}},
      {{"run", fig2_, "--alpha", "-1"}, {"--alpha"}},
      {{"run", fig2_, "--tau", "0"}, {"--tau"}},
      {{"run", fig2_, "--impl", "bus=fast"}, {"--impl", "fast"}},
      {{"map", fig2_, "--alpha", "x"}, {"--alpha", "x"}},
      {{"gen", "random", "--nodes", "4", "--steps", "2", "--sources", "1"}, {"--sources"}},
      {{"gen", "C3", "--nodes", "4", "--steps", "2"}, {"--steps"}},
      {{"gen", "C3", "--nodes", "4", "--json"}, {"json"}},
      {{"map", fig2_, "stray"}, {"positional"}},
      {{"gen"}, {"PATTERN"}},
      {{"gen", "C13", "--nodes", "4"}, {"PATTERN", "C13"}},
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
      {{"demo", "stray"}, {"positional"}},
  };
  expect_refused_before_running(cases);
  EXPECT_FALSE(fs::exists(out_under_file));
  EXPECT_FALSE(fs::exists(folder + ".partial"));
  EXPECT_TRUE(fs::is_directory(folder));
  EXPECT_EQ(slurp(plain), "not a folder\n");
}

// An option that does not apply to the form of the command line is refused, never ignored; an
// abbreviation is an unknown option, not Boost's guess at the option meant.
TEST_F(CliProgram, OptionsThatDoNotApplyAndAbbreviationsAreRefused) {
  const std::string perfetto = path("y.json");
  const std::vector<BadInput> cases = {
      {{"gen", "C7", "--nodes", "4", "--torus", "4x4"},
       {"orthosim gen: --torus: does not apply to gen C7 (an option of gen shift)"}},
      {{"gen", "shift", "--torus", "4x4", "--direction", "east", "--nodes", "16"},
       {"--nodes: does not apply to gen shift"}},
      {{"gen", "exchange", "--nodes", "8", "--seed", "3"},
       {"--seed: does not apply to gen exchange"}},
      {{"gen", "random", "--nodes", "4", "--steps", "2", "--together"},
       {"--together: does not apply to gen random"}},
      {{"gen", "exchange", "--nodes", "8", "--direction", "east"},
       {"--direction: does not apply to gen exchange"}},
      {{"gen", "random", "--nodes", "4", "--steps", "2", "--sources", "1"},
       {"--sources: does not apply to gen random"}},
      {{"gen", "C3", "--nodes", "4", "--steps", "2"}, {"--steps: does not apply to gen C3"}},
      {{"trace", "stats", path("x.trace"), "--perfetto", perfetto},
       {"orthosim trace: --perfetto: does not apply to trace stats (an option of trace export)"}},
      {{"trace", "export", path("x.trace"), "--perfetto", perfetto, "--json"},
       {"--json: does not apply to trace export"}},
      {{"trace", "diff", path("x.trace"), path("x.trace"), "--out", path("plots")},
       {"--out: does not apply to trace diff"}},
      {{"run", fig2_, "--dims", "4x4"}, {"--dims: does not apply to run on the omp"}},
      {{"run", fig2_, "--arch", "mesh", "--dims", "4x4", "--alpha", "3"},
       {"--alpha: does not apply to run on the mesh"}},
      {{"run", fig2_, "--impl", "im=rtl,im=model"},
       {"--impl: expected each block once, found 'im' again in 'im=rtl,im=model'"}},
      {{"run", fig2_, "--alp", "20"},
       {"orthosim run: unknown option --alp (see orthosim run --help)"}},
      {{"gen", "C1", "--node", "4"}, {"unknown option --node"}},
      {{"trace", "export", path("x.trace"), "--perf", perfetto}, {"unknown option --perf"}},
  };
  expect_refused_before_running(cases);
  EXPECT_FALSE(fs::exists(perfetto));
  EXPECT_FALSE(fs::exists(path("plots")));
}

// check_cli takes a command line through run_cli's parsing and validation and runs nothing.
TEST_F(CliProgram, CheckingACommandLineValidatesItAndRunsNothing) {
  std::ostringstream err;
  EXPECT_EQ(sw::check_cli({"run", fig2_, "--alpha", "abc"}, err), sw::kExitBadInput);
  EXPECT_EQ(err.str(), "orthosim run: --alpha: expected an integer in 0..1000000, found 'abc'\n");
  std::ostringstream accepted_err;
  const std::string vcd = path("w.vcd");
  EXPECT_EQ(sw::check_cli({"run", fig2_, "--alpha", "3", "--vcd", vcd}, accepted_err),
            sw::kExitOk);
  EXPECT_EQ(accepted_err.str(), "");
  EXPECT_FALSE(fs::exists(vcd));
}

/// Operation names of the listings of [PH91] section 4.3 A (bus), B (crossbar), C (omp).
std::vector<std::vector<std::string>> paper_op_names(Arch arch) {
  const std::vector<std::string> recv3 = {"C1_recv", "C1_recv", "C1_recv"};
  const auto with = [](std::string first, std::vector<std::string> rest) {
    rest.insert(rest.begin(), std::move(first));
    return rest;
  };
  const std::vector<std::string> step5_scalar = {"C1_send", "C1_send", "C1_recv", "C1_recv",
                                                 "C3_send", "C1_recv", "C1_recv"};
  switch (arch) {
    case Arch::Bus:
      return {{"C1_send", "C1_recv"},
              {"C1_send", "C1_send", "C1_recv", "C1_recv"},
              with("C3_send", recv3),
              with("C4_send", recv3),
              step5_scalar};
    case Arch::Crossbar:
      return {{"C1_send", "C1_recv"},
              {"C2_send", "C2_recv"},
              with("C3_send", recv3),
              with("C4_send", recv3),
              step5_scalar};
    case Arch::Omp:
      break;
  }
  return {{"C1_send", "C1_recv"},
          {"C2_send", "C2_recv"},
          {"C3_send", "C3_recv"},
          {"C4_send", "C4_recv"},
          {"C5_send", "C5_recv", "C3_send", "C3_recv"}};
}

/// "M1,2" -> {1, 2}; "M3" -> {3}.
std::vector<std::uint32_t> module_indices(const std::string& name) {
  std::vector<std::uint32_t> out;
  std::stringstream s(name.substr(1));
  std::string part;
  while (std::getline(s, part, ',')) {
    out.push_back(static_cast<std::uint32_t>(std::stoul(part)));
  }
  return out;
}

TEST_F(CliProgram, MapJsonDescribesEveryStepOperationAndAccess) {
  const std::vector<std::string> labels = {"one_to_one", "permutation", "broadcast", "scatter",
                                           "many_to_one_and_multicast"};
  // Section 2 of [PH91]: the program-level operations and patterns of Fig. 2.
  const std::vector<std::string> program_lines = {
      "Step 1: C1(N1, N0)", "Step 2: C2((N1, N2), (N3, N0))",
      "Step 3: C3((N0, N1), (N0, N2), (N0, N3))", "Step 4: C4((N0, N1), (N0, N2), (N0, N3))",
      "Step 5: C10((N1, N0), (N2, N0)), C8((N3, N1), (N3, N2))"};
  const std::vector<std::vector<std::string>> patterns = {
      {"C1"}, {"C2"}, {"C3"}, {"C4"}, {"C10", "C8"}};
  const sw::BusTiming t;  // map reports the default costs
  for (const auto& [name, arch] : archs()) {
    FakeRunner runner;
    const Result r = run({"map", fig2_, "--arch", name, "--json"}, runner);
    ASSERT_EQ(r.code, sw::kExitOk) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_TRUE(runner.program_requests.empty());  // map runs nothing
    nlohmann::json j;
    ASSERT_NO_THROW(j = nlohmann::json::parse(r.out)) << r.out;
    EXPECT_EQ(j.value("program", std::string{}), "fig2_sample");
    EXPECT_EQ(j.value("arch", std::string{}), name);
    EXPECT_EQ(j.value("nodes", 0u), 4u);
    EXPECT_EQ(j.value("processors", 0u), 4u);
    EXPECT_EQ(j.value("messages", 0u), 13u);
    ASSERT_TRUE(j.contains("steps"));
    ASSERT_EQ(j["steps"].size(), 5u);
    const auto names = paper_op_names(arch);
    std::uint64_t written = 0;
    std::uint64_t read = 0;
    for (std::size_t k = 0; k < 5; ++k) {
      const nlohmann::json& step = j["steps"][k];
      const std::string where = name + " step " + std::to_string(k + 1);
      EXPECT_EQ(step.value("step", 0u), k + 1) << where;
      EXPECT_EQ(step.value("label", std::string{}), labels[k]) << where;
      EXPECT_EQ(step.value("program", std::string{}), program_lines[k]) << where;
      EXPECT_EQ(step["patterns"].get<std::vector<std::string>>(), patterns[k]) << where;
      EXPECT_TRUE(step.contains("processor_patterns")) << where;
      EXPECT_EQ(step.value("local_copies", 99u), 0u) << where;
      const std::string listing = step.value("listing", std::string{});
      EXPECT_EQ(listing.rfind("Step " + std::to_string(k + 1) + ": ", 0), 0u) << listing;
      std::vector<std::string> op_names;
      for (const nlohmann::json& op : step["operations"]) {
        const std::string op_name = op.value("name", std::string{});
        const std::string direction = op.value("direction", std::string{});
        op_names.push_back(op_name);
        EXPECT_EQ(op_name, op.value("pattern", std::string{}) + "_" + direction) << where;
        EXPECT_TRUE(direction == "send" || direction == "recv") << where;
        const std::string text = op.value("text", std::string{});
        EXPECT_EQ(text.rfind(op_name + "(", 0), 0u) << text;
        EXPECT_TRUE(contains(listing, text)) << listing << " / " << text;
        bool any_vector = false;
        ASSERT_FALSE(op["accesses"].empty()) << where;
        for (const nlohmann::json& a : op["accesses"]) {
          const auto modules = a["modules"].get<std::vector<std::string>>();
          const auto d = a["d"].get<std::uint64_t>();
          const auto l = a["l"].get<std::uint64_t>();
          const auto p = a["processor"].get<std::uint32_t>();
          EXPECT_EQ(d, modules.size()) << text;
          EXPECT_EQ(l, 4u) << text;  // every message of Fig. 2 is 4 words here
          EXPECT_EQ(a["mode"], d > 1 ? "vector" : "scalar") << text;
          any_vector = any_vector || d > 1;
          EXPECT_EQ(a["formula_cycles"].get<std::uint64_t>(),
                    access_formula(t.alpha, t.beta, t.tau, d, l))
              << text;
          // A broadcast write replicates one data buffer (Fig. 6); a scatter does not.
          EXPECT_EQ(a["replicated"].get<bool>(), direction == "send" && op_name == "C3_send")
              << text;
          (direction == "send" ? written : read) += d;
          const std::string bus = a["bus"].get<std::string>();
          for (const std::string& m : modules) {
            const std::vector<std::uint32_t> ij = module_indices(m);
            if (arch == Arch::Bus) {
              // One bus B0 and n modules M0..M3 (Fig. 4(a)).
              EXPECT_EQ(bus, "B0") << text;
              ASSERT_EQ(ij.size(), 1u) << m;
              EXPECT_LT(ij[0], 4u) << m;
            } else if (arch == Arch::Omp) {
              // P(i) writes M(i,j) over its row bus RB(i), reads M(j,i) over its column bus
              // CB(i) (section 3.1).
              ASSERT_EQ(ij.size(), 2u) << m;
              const bool send = direction == "send";
              EXPECT_EQ(bus, (send ? "RB(" : "CB(") + std::to_string(p) + ")") << text;
              EXPECT_EQ(send ? ij[0] : ij[1], p) << text;
              EXPECT_NE(ij[0], ij[1]) << text;
            } else {
              // Crossbar: module M(i,j) of P(i)'s bank on bus B(i).
              ASSERT_EQ(ij.size(), 2u) << m;
              EXPECT_EQ(bus, "B(" + std::to_string(ij[0]) + ")") << text;
              if (direction == "send") {
                EXPECT_EQ(ij[0], p) << text;
              } else {
                EXPECT_EQ(ij[1], p) << text;
              }
            }
          }
        }
        EXPECT_EQ(op.value("mode", std::string{}), any_vector ? "vector" : "scalar") << text;
      }
      EXPECT_EQ(op_names, names[k]) << where;
    }
    // Every node message is written into one module and read from it once.
    EXPECT_EQ(written, 13u) << name;
    EXPECT_EQ(read, 13u) << name;
  }
}

TEST_F(CliProgram, MapOntoFewerProcessorsTurnsMessagesInsideAClusterIntoLocalCopies) {
  // N0, N1 on P0 and N2, N3 on P1: N1->N0 (step 1), N0->N1 (steps 3, 4), N1->N0 and N3->N2
  // (step 5) stay inside a cluster.
  const std::vector<unsigned> local = {1, 0, 1, 1, 2};
  FakeRunner runner;
  const Result r = run({"map", fig2_, "--arch", "omp", "--n", "2", "--json"}, runner);
  ASSERT_EQ(r.code, sw::kExitOk) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.value("processors", 0u), 2u);
  EXPECT_EQ(j.value("nodes", 0u), 4u);
  EXPECT_EQ(j.value("messages", 0u), 13u);
  ASSERT_EQ(j["steps"].size(), 5u);
  for (std::size_t k = 0; k < 5; ++k) {
    EXPECT_EQ(j["steps"][k].value("local_copies", 99u), local[k]) << "step " << k + 1;
  }
  EXPECT_TRUE(j["steps"][0]["operations"].empty());  // N1 -> N0 is all of step 1
}

/// What Table 1 says of a pattern over m nodes; sr / ds are the counts found (C8-C12).
struct Table1Row {
  bool broadcast;
  std::size_t sources, destinations, messages;
};

Table1Row table1(sw::Pattern p, std::size_t m, std::size_t sr, std::size_t ds) {
  using P = sw::Pattern;
  switch (p) {
    case P::C1: return {false, 1, 1, 1};
    case P::C2: return {false, m, m, m};
    case P::C3: return {true, 1, m - 1, m - 1};
    case P::C4: return {false, 1, m - 1, m - 1};
    case P::C5: return {false, m - 1, 1, m - 1};
    case P::C6: return {true, m, m, m * (m - 1)};
    case P::C7: return {false, m, m, m * (m - 1)};
    case P::C8: return {true, 1, ds, ds};
    case P::C9: return {false, 1, ds, ds};
    case P::C10: return {false, sr, 1, sr};
    case P::C11: return {true, sr, ds, sr * ds};
    case P::C12: return {false, sr, ds, sr * ds};
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
        const std::vector<std::string> args = {"gen", "C" + std::to_string(i), "--nodes",
                                               std::to_string(m), "--len", "3", "--seed", seed};
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
      {{"gen", "C1", "--nodes", "5", "--sources", "3", "--dests", "1"}, sw::Pattern::C1, 5,
       {{3, 1}}},
      {{"gen", "C12", "--nodes", "6", "--sources", "1,2", "--dests", "3,4"}, sw::Pattern::C12, 6,
       {{1, 3}, {1, 4}, {2, 3}, {2, 4}}},
      {{"gen", "C11", "--nodes", "6", "--sources", "0,5", "--dests", "2,3"}, sw::Pattern::C11, 6,
       {{0, 2}, {0, 3}, {5, 2}, {5, 3}}},
      {{"gen", "C10", "--nodes", "6", "--sources", "1,2,3", "--dests", "0"}, sw::Pattern::C10, 6,
       {{1, 0}, {2, 0}, {3, 0}}},
      {{"gen", "C8", "--nodes", "6", "--sources", "4", "--dests", "5,1,3"}, sw::Pattern::C8, 6,
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
      const std::vector<std::string> args = {"gen",     "random",          "--nodes",
                                             std::to_string(m), "--steps", "6",
                                             "--len",   "5",               "--seed",
                                             std::to_string(seed)};
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

TEST_F(CliProgram, DemoPassesTheSystemOptionsToAllThreeConfigurations) {
  FakeRunner runner;
  const Result r = run({"demo", "--alpha", "10", "--beta", "3", "--tau", "2", "--gamma", "5",
                        "--n", "8", "--out", "waves"},
                       runner);
  ASSERT_EQ(r.code, sw::kExitOk) << r.err;
  EXPECT_EQ(r.err, "");
  ASSERT_EQ(runner.program_requests.size(), 1u);
  const std::vector<sw::SystemRun>& runs = runner.program_requests[0];
  ASSERT_EQ(runs.size(), 3u);
  for (const sw::SystemRun& s : runs) {
    const std::string name = sw::to_string(s.config.arch);
    EXPECT_EQ(s.config.n, 8u) << name;
    EXPECT_EQ(s.config.timing.alpha, 10u) << name;
    EXPECT_EQ(s.config.timing.beta, 3u) << name;
    EXPECT_EQ(s.config.timing.tau, 2u) << name;
    EXPECT_EQ(s.config.timing.gamma, 5u) << name;
    EXPECT_EQ(s.program.messages.size(), 13u) << name;
    ASSERT_TRUE(s.vcd_path.has_value());
    EXPECT_EQ(*s.vcd_path, "waves/" + name + ".vcd");
  }
  // The table names the three configurations and the paper's omp Step 2, with node i on
  // processor floor(i n / m) = 2i of the 8 (section 5 clustering, m < n here).
  for (const char* word : {"omp", "crossbar", "bus",
                           "Step 2: C2_send((P2 -> M2,4), (P6 -> M6,0)), "
                           "C2_recv((M2,4 -> P4), (M6,0 -> P0))"}) {
    EXPECT_TRUE(contains(r.out, word)) << word << "\n" << r.out;
  }
}

TEST_F(CliProgram, HelpOfTheProgramCommandsListsTheirOptions) {
  const Result top = run({"--help"});
  for (const char* command : {"map", "run", "gen", "demo"}) {
    EXPECT_TRUE(contains(top.out, std::string("  ") + command + " ")) << command;
  }
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {"map", {"--arch", "--n", "--json"}},
      {"run", {"--arch", "--n", "--alpha", "--beta", "--tau", "--gamma", "--sync-cycles",
               "--buffer-words", "--module-words", "--local-words", "--vcd", "--json"}},
      {"gen", {"--nodes", "--sources", "--dests", "--len", "--steps", "--seed", "--out"}},
      {"demo", {"--out", "--alpha", "--json"}},
  };
  for (const auto& [command, options] : cases) {
    FakeRunner runner;
    const Result r = run({command, "--help"}, runner);
    EXPECT_EQ(r.code, sw::kExitOk) << command;
    EXPECT_EQ(r.err, "") << command;
    EXPECT_TRUE(runner.program_requests.empty()) << command;
    for (const std::string& option : options) {
      EXPECT_TRUE(contains(r.out, option)) << command << " " << option;
    }
  }
}


// ---- run on a mesh, torus or hypercube; traffic ---------------------------------------------

/// Runs a command that must succeed and hand the runner exactly one network run.
sw::NetworkRunRequest only_network(const std::vector<std::string>& args,
                                   Result* result = nullptr) {
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

/// Runs a command that must succeed and hand the runner exactly one traffic request.
sw::TrafficRequest only_traffic(const std::vector<std::string>& args, Result* result = nullptr) {
  FakeRunner runner;
  const Result r = run(args, runner);
  EXPECT_EQ(r.code, sw::kExitOk) << joined(args) << "\n" << r.err;
  EXPECT_EQ(r.err, "") << joined(args);
  if (result != nullptr) {
    *result = r;
  }
  if (runner.traffic_requests.size() != 1) {
    ADD_FAILURE() << joined(args) << ": " << runner.traffic_requests.size()
                  << " traffic requests, not one";
    return sw::TrafficRequest{};
  }
  return runner.traffic_requests.front();
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

TEST_F(CliProgram, RunOnATorusHandsTheRunnerEveryNetworkOptionAndEveryNodeMessage) {
  Result r;
  const std::string vcd = path("net.vcd");
  const sw::NetworkRunRequest q = only_network(
      {"run", fig2_, "--arch", "torus", "--dims", "4x4", "--switching", "saf", "--ports", "all",
       "--startup", "5", "--buffers", "8", "--vcs", "4", "--router-delay", "3", "--packet-flits",
       "6", "--watchdog", "500", "--clock-ns", "20", "--vcd", vcd, "--json"},
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
  for (const char* field : {"completed", "total_cycles", "time_ns", "words", "blocked",
                            "delivery_failures", "peak_channel_occupancy", "channels", "stats",
                            "program", "network"}) {
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
                .config.router.vcs,
            3u);
  EXPECT_EQ(only_network({"run", fig2_, "--arch", "hypercube", "--dim", "2", "--vcs", "5"})
                .config.router.vcs,
            5u);
  EXPECT_EQ(only_network({"run", fig2_, "--arch", "torus", "--dims", "2x2", "--vcs", "6"})
                .config.router.vcs,
            6u);
  // store-and-forward is also accepted by its long name.
  EXPECT_EQ(only_network({"run", fig2_, "--arch", "mesh", "--dims", "2x2", "--switching",
                          "store-and-forward"})
                .config.router.switching,
            sw::Switching::StoreAndForward);
}

TEST_F(CliProgram, AnEmbeddingFilePlacesEachProgramNodeOnItsNetworkNode) {
  // Reversed on the 2x2 mesh: program node i on network node 3 - i.
  const std::string reversed = file("reversed.map", "# program node i on 3 - i\n3 2 1 0\n");
  const sw::NetworkRunRequest r = only_network(
      {"run", fig2_, "--arch", "mesh", "--dims", "2x2", "--embedding", reversed});
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

TEST(CliTraffic, TrafficHandsTheRunnerThePatternRatesPacketsInjectionWindowAndSeed) {
  Result r;
  const sw::TrafficRequest q = only_traffic(
      {"traffic", "--topology", "hypercube", "--dim", "4", "--pattern", "bitrev", "--rates",
       "0.01,0.2,0.5", "--flits", "8", "--injection", "exponential", "--warmup", "100",
       "--cycles", "2000", "--seed", "42", "--buffers", "4", "--router-delay", "2", "--json"},
      &r);
  EXPECT_EQ(q.config.topology.kind(), sw::TopologyKind::Hypercube);
  EXPECT_EQ(q.config.topology.nodes(), 16u);
  EXPECT_EQ(q.config.router.vcs, 1u);
  EXPECT_EQ(q.config.router.buffer_flits, 4u);
  EXPECT_EQ(q.config.router.delay, 2u);
  EXPECT_EQ(q.pattern.kind, sw::PatternKind::BitReverse);
  ASSERT_TRUE(q.pattern.lcc.has_value());
  // Bit-reverse on 4 address bits, written out here: bit i of x goes to bit 3 - i.
  for (std::uint32_t x = 0; x < 16; ++x) {
    std::uint32_t y = 0;
    for (std::uint32_t i = 0; i < 4; ++i) {
      y |= ((x >> i) & 1U) << (3 - i);
    }
    EXPECT_EQ(q.pattern.lcc->apply(x), y) << x;
  }
  EXPECT_EQ(q.rates, (std::vector<double>{0.01, 0.2, 0.5}));
  EXPECT_EQ(q.flits, 8u);
  EXPECT_TRUE(q.exponential);
  EXPECT_EQ(q.warmup, 100u);
  EXPECT_EQ(q.cycles, 2000u);
  EXPECT_EQ(q.seed, 42u);

  nlohmann::json j;
  ASSERT_NO_THROW(j = nlohmann::json::parse(r.out)) << r.out;
  EXPECT_EQ(j.value("command", std::string{}), "traffic");
  EXPECT_EQ(j.value("topology", std::string{}), "hypercube");
  EXPECT_EQ(j.value("pattern", std::string{}), "bitrev");
  EXPECT_EQ(j.value("flits", 0u), 8u);
  EXPECT_EQ(j.value("injection", std::string{}), "exponential");
  EXPECT_EQ(j.value("seed", 0u), 42u);
  ASSERT_TRUE(j.contains("points"));
  ASSERT_EQ(j["points"].size(), 3u);
  EXPECT_DOUBLE_EQ(j["points"][1].value("rate", 0.0), 0.2);
  EXPECT_FALSE(j.contains("offered"));  // a sweep reports per point
}

TEST(CliTraffic, TrafficDefaultsAndOnePointAtTheTopLevel) {
  Result r;
  const sw::TrafficRequest q =
      only_traffic({"traffic", "--topology", "mesh", "--dims", "4x4", "--json"}, &r);
  EXPECT_EQ(q.config.topology.kind(), sw::TopologyKind::Mesh);
  EXPECT_EQ(q.config.router.vcs, 1u);
  EXPECT_EQ(q.pattern.kind, sw::PatternKind::Uniform);
  EXPECT_EQ(q.rates, (std::vector<double>{0.1}));
  EXPECT_EQ(q.flits, 20u);
  EXPECT_FALSE(q.exponential);
  EXPECT_EQ(q.warmup, 1000u);
  EXPECT_EQ(q.cycles, 10000u);
  EXPECT_EQ(q.seed, 1u);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_FALSE(j.contains("points"));
  EXPECT_DOUBLE_EQ(j.value("offered", 0.0), 0.1);
  EXPECT_EQ(j.value("injection", std::string{}), "bernoulli");
  for (const char* field :
       {"offered", "accepted", "latency_avg", "latency_p50", "latency_p99", "latency_max",
        "sustainable", "sim_cycles", "flits_delivered", "max_channel_contention"}) {
    EXPECT_TRUE(j.contains(field)) << field;
  }

  // A torus gets its two dateline virtual channels; --rate sets the one rate.
  const sw::TrafficRequest t = only_traffic(
      {"traffic", "--topology", "torus", "--dims", "4x4", "--pattern", "transpose", "--rate",
       "0.25", "--injection", "bernoulli"});
  EXPECT_EQ(t.config.router.vcs, 2u);
  EXPECT_EQ(t.pattern.kind, sw::PatternKind::Transpose);
  EXPECT_EQ(t.rates, (std::vector<double>{0.25}));
  EXPECT_FALSE(t.exponential);

  // lcc:A,b: row i of A gives y_i; here y0 = x0 ^ 1, y1 = x2, y2 = x1.
  const sw::TrafficRequest l = only_traffic(
      {"traffic", "--topology", "hypercube", "--dim", "3", "--pattern", "lcc:100/001/010,100"});
  EXPECT_EQ(l.pattern.kind, sw::PatternKind::Lcc);
  ASSERT_TRUE(l.pattern.lcc.has_value());
  for (std::uint32_t x = 0; x < 8; ++x) {
    const std::uint32_t y = ((x & 1U) ^ 1U) | (((x >> 2) & 1U) << 1) | (((x >> 1) & 1U) << 2);
    EXPECT_EQ(l.pattern.lcc->apply(x), y) << x;
  }
  // reverse-flip and bitrev fit a mesh of 2^d nodes too.
  EXPECT_EQ(only_traffic({"traffic", "--topology", "mesh", "--dims", "4x2", "--pattern",
                          "reverse-flip"})
                .pattern.kind,
            sw::PatternKind::ReverseFlip);
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
      EXPECT_EQ(nlohmann::json::parse(d.out).value("completed", true), false);
    } else {
      EXPECT_TRUE(contains(l.out, "message 0 lost")) << l.out;
      EXPECT_TRUE(contains(d.out, "DEADLOCK")) << d.out;
    }
  }
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
      {{"run", fig2_, "--arch", "mesh", "--dims", "2x2", "--embedding", twice},
       {twice + ":3:1:"}},
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
      {{"traffic", "--topology", "mesh", "--dims", "4x2", "--pattern", "transpose"},
       {"--pattern"}},
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
      {traffic({"stray"}), {"positional"}},
  };
  expect_refused_before_running(cases);
}

TEST_F(CliProgram, HelpOfTheNetworkCommandsListsTheirOptions) {
  const Result top = run({"--help"});
  EXPECT_TRUE(contains(top.out, "  traffic ")) << top.out;
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {"run", {"--dims", "--dim", "--switching", "--ports", "--startup", "--buffers", "--vcs",
               "--router-delay", "--packet-flits", "--watchdog", "--embedding", "mesh", "torus",
               "hypercube"}},
      {"traffic", {"--topology", "--pattern", "--rate", "--rates", "--flits", "--injection",
                   "--warmup", "--cycles", "--seed", "--dims", "--dim", "--vcs", "--json"}},
  };
  for (const auto& [command, options] : cases) {
    FakeRunner runner;
    const Result r = run({command, "--help"}, runner);
    EXPECT_EQ(r.code, sw::kExitOk) << command;
    EXPECT_EQ(r.err, "") << command;
    EXPECT_TRUE(runner.network_requests.empty() && runner.traffic_requests.empty()) << command;
    for (const std::string& option : options) {
      EXPECT_TRUE(contains(r.out, option)) << command << " " << option;
    }
  }
}

TEST_F(CliProgram, EveryOutputOptionIsCheckedBeforeTheRunnerIsCalled) {
  // The fake runner opens no file: only the command line's own check can refuse these.
  fs::create_directories(dir_ / "adir");
  std::ofstream(dir_ / "adir" / "keep") << "kept\n";
  const std::string folder = path("adir");
  const std::string plain = file("plain", "not a folder\n");
  const std::vector<BadInput> cases = {
      {{"access", "--vcd", folder}, {"--vcd: expected a writable file path", "(a directory)"}},
      {{"access", "--trace", folder}, {"--trace: expected a writable file path", "(a directory)"}},
      {{"access", "--impl", "rtl", "--fst", folder}, {"--fst:", "(a directory)"}},
      {{"run", fig2_, "--vcd", ""}, {"--vcd:", "'' (an empty path)"}},
      {{"run", fig2_, "--arch", "mesh", "--dims", "2x2", "--trace", folder}, {"--trace:"}},
      {{"traffic", "--topology", "mesh", "--dims", "2x2", "--trace", folder}, {"--trace:"}},
      {{"tables", "--topology", "hypercube", "--m", "8", "--n", "4", "--trace", folder},
       {"--trace:"}},
      {{"demo", "--trace", folder}, {"--trace:", "(a directory)"}},
      {{"demo", "--out", plain}, {"--out: expected a writable folder", "is a regular file"}},
      {{"access", "--vcd", plain + "/w.vcd"}, {"--vcd:", "is a regular file, not a folder"}},
      {{"access", "--vcd", path("missing/w.vcd")}, {"--vcd:", "does not exist"}},
  };
  expect_refused_before_running(cases);
  EXPECT_EQ(slurp(path("adir/keep")), "kept\n");
  EXPECT_EQ(slurp(plain), "not a folder\n");
  EXPECT_FALSE(fs::exists(path("missing")));
  // run and demo create a missing folder: not refused there.
  FakeRunner runner;
  EXPECT_EQ(run({"run", fig2_, "--vcd", path("new/w.vcd")}, runner).code, sw::kExitOk);
  EXPECT_EQ(runner.program_requests.size(), 1u);
}

}  // namespace
}  // namespace orthosim
