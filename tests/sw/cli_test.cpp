// The `orthosim` command line (sw/cli) against a fake Runner: exit codes (0 ok, 1 run failed,
// 2 bad input), one-line errors that name the option, nothing on stdout after bad input, the
// per-kind defaults of d and l, and the JSON report. Expected cycles are the seed 004 section 3.1
// formulas (Fig. 5, Eq. 1) written here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "sw/cli/cli.hpp"
#include "sw/cost/access_workload_cost.hpp"

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
  std::vector<sw::RunSummary> run_programs(const std::vector<sw::SystemRun>& runs) override {
    program_requests.push_back(runs);
    std::vector<sw::RunSummary> out;
    for (const sw::SystemRun& run : runs) {
      sw::RunSummary s = summary(run.config, sw::AccessWorkload{});
      s.messages = run.program.messages.size();
      s.messages_failed = s.payload_ok ? 0 : 1;
      out.push_back(s);
    }
    return out;
  }

  std::vector<sw::AccessRequest> access_requests;
  std::vector<std::vector<sw::SystemRun>> program_requests;
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
    s.payload_ok = outcome_ != Outcome::PayloadLost;
    s.messages = std::size_t{c.n} * w.d;
    s.words = std::uint64_t{c.n} * w.d * w.l;
    s.conflicts = kConflicts;
    if (!s.completed) {
      s.blocked.push_back("P0 waits for the bus switch");
    }
    if (!s.payload_ok) {
      s.delivery_failures.push_back("message 0 lost");
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
      {{"access", "--impl", "rtl"}, {"--impl", "rtl"}},
      {{"access", "stray"}, {"positional"}},
      {{"demo", "--n", "0"}, {"--n"}},
      {{"demo", "--arch", "omp"}, {"arch"}},
  };
  for (const BadInput& c : cases) {
    FakeRunner runner;
    const Result r = run(c.args, runner);
    const std::string what = joined(c.args);
    EXPECT_EQ(r.code, sw::kExitBadInput) << what << "\n" << r.err;
    EXPECT_EQ(r.out, "") << what;
    EXPECT_TRUE(runner.access_requests.empty()) << what;
    EXPECT_TRUE(runner.program_requests.empty()) << what;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << what << "\n" << r.err;
    EXPECT_EQ(r.err.empty() ? ' ' : r.err.back(), '\n') << what;
    for (const std::string& word : c.in_error) {
      EXPECT_TRUE(contains(r.err, word)) << what << ": '" << word << "' not in: " << r.err;
    }
  }
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
        EXPECT_EQ(j.value("payload_ok", true), outcome != FakeRunner::Outcome::PayloadLost);
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

}  // namespace
}  // namespace orthosim
