// `orthosim access` (sw/cli) against a fake Runner: the per-kind defaults of d and l, the options
// in the request, the JSON report and the exit codes. Expected cycles are the [PH91] section 3.1
// formulas (Fig. 5, Eq. 1) written here.
#include <gtest/gtest.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sw/cli/cli.hpp"
#include "tests/support/cli_harness.hpp"

namespace orthosim {
namespace {

using namespace cli_test;

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
      EXPECT_EQ(req.config->n, n) << e.kind;
      EXPECT_EQ(to_string(req.workload.kind), e.kind);
      EXPECT_EQ(req.workload.d, e.d) << e.kind << " n=" << n;
      EXPECT_EQ(req.workload.l, e.l) << e.kind << " n=" << n;
    }
  }
}

TEST(Cli, WithoutOptionsRunsAnIwrExchangeOnTheDefaultOmp) {
  const sw::AccessRequest req = only_request({"access"});
  const sw::SystemConfig defaults;
  EXPECT_EQ(req.config->arch, Arch::Omp);
  EXPECT_EQ(req.config->n, defaults.n);
  EXPECT_EQ(req.workload.kind, WorkloadKind::Iwr);
  EXPECT_EQ(req.workload.d, defaults.n - 1);
  EXPECT_EQ(req.workload.l, 4u);
  EXPECT_EQ(req.workload.repetitions, 1u);
  EXPECT_FALSE(req.vcd_path.has_value());
}

TEST(Cli, OptionsReachTheRequest) {
  const sw::AccessRequest req = only_request({"access",  "--arch",
                                              "bus",     "--n",
                                              "3",       "--kind",
                                              "block",   "--d",
                                              "2",       "--l",
                                              "7",       "--alpha",
                                              "0",       "--beta",
                                              "11",      "--tau",
                                              "5",       "--gamma",
                                              "13",      "--clock-ns",
                                              "20",      "--buffer-words",
                                              "64",      "--module-words",
                                              "512",     "--local-words",
                                              "1024",    "--vcd",
                                              "out.vcd", "--repeat",
                                              "3"});
  EXPECT_EQ(req.config->arch, Arch::Bus);
  EXPECT_EQ(req.config->n, 3u);
  EXPECT_EQ(req.workload.kind, WorkloadKind::Block);
  EXPECT_EQ(req.workload.d, 2u);
  EXPECT_EQ(req.workload.l, 7u);
  EXPECT_EQ(req.workload.repetitions, 3u);
  EXPECT_EQ(req.config->timing.alpha, 0u);
  EXPECT_EQ(req.config->timing.beta, 11u);
  EXPECT_EQ(req.config->timing.tau, 5u);
  EXPECT_EQ(req.config->timing.gamma, 13u);
  EXPECT_EQ(req.config->clock_period_ns, 20u);
  EXPECT_EQ(req.config->buffer_words, 64u);
  EXPECT_EQ(req.config->module_words, 512u);
  EXPECT_EQ(req.config->local_words, 1024u);
  ASSERT_TRUE(req.vcd_path.has_value());
  EXPECT_EQ(*req.vcd_path, "out.vcd");
}

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
  for (const char* field :
       {"cycles", "formula_cycles", "payload_ok", "conflicts", "arch", "n", "d", "l", "kind"}) {
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

// access's table and JSON show the runner's figures in their places: ns at --clock-ns, the
// conflicts and their waiting cycles, every cost of the system, and the check that names what
// failed (PAYLOAD for a lost word, CYCLE LIMIT for a run stopped at the limit, docs/cli.md).
TEST(Cli, AccessShowsEachFigureInItsPlaceAndNamesWhatFailed) {
  class Figures : public FakeRunner {
   public:
    explicit Figures(Outcome outcome, bool limit) : FakeRunner(outcome), limit_(limit) {}
    sw::RunSummary run_access(const sw::AccessRequest& request) override {
      sw::RunSummary s = FakeRunner::run_access(request);
      s.conflicts = 7;
      s.conflict_wait_cycles = 11;
      s.cycle_limit_reached = limit_;
      return s;
    }

   private:
    bool limit_;
  };
  const std::vector<std::string> args = {"access", "--kind",         "scalar", "--clock-ns",
                                         "7",      "--sync-cycles",  "3",      "--barrier-cycles",
                                         "5",      "--module-words", "1000",   "--local-words",
                                         "2000"};
  Figures runner(FakeRunner::Outcome::Correct, false);
  const Result text = run(args, runner);
  ASSERT_EQ(text.code, sw::kExitOk) << text.err;
  std::vector<std::string> json_args = args;
  json_args.push_back("--json");
  const Result json = run(json_args, runner);
  ASSERT_EQ(json.code, sw::kExitOk) << json.err;
  const nlohmann::json j = nlohmann::json::parse(json.out);
  const std::uint64_t cycles = j.value("cycles", std::uint64_t{0});
  EXPECT_EQ(j.value("time_ns", std::uint64_t{0}), cycles * 7);
  EXPECT_EQ(j.value("conflicts", 0u), 7u);
  EXPECT_EQ(j.value("conflict_wait_cycles", 0u), 11u);
  EXPECT_EQ(j.value("sync_cycles", 0u), 3u);
  EXPECT_EQ(j.value("barrier_cycles", 0u), 5u);
  EXPECT_EQ(j.value("module_words", 0u), 1000u);
  EXPECT_EQ(j.value("local_words", 0u), 2000u);
  EXPECT_TRUE(contains(text.out, "   (" + std::to_string(cycles * 7) + " ns)\n")) << text.out;
  EXPECT_TRUE(contains(text.out, "  conflicts          7 (11 cycles waiting)\n")) << text.out;
  EXPECT_TRUE(contains(text.out, "  check              ok\n")) << text.out;
  Figures lost(FakeRunner::Outcome::PayloadLost, false);
  EXPECT_TRUE(contains(run(args, lost).out, "  check              PAYLOAD\n"));
  Figures stopped(FakeRunner::Outcome::Deadlock, true);
  EXPECT_TRUE(contains(run(args, stopped).out, "  check              CYCLE LIMIT\n"));
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
        const bool on_formula =
            j.value("cycles", std::uint64_t{0}) == j.value("formula_cycles", std::uint64_t{0});
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

// The refusal of an --impl that is neither an implementation nor block=impl pairs shows examples
// of pairs; each runs (it showed im=rtl,bus=model, which --impl refuses: the RTL index
// manipulator needs the RTL bus controller).
TEST(Cli, TheImplPairsARefusalShowsAreAccepted) {
  const Result refused = run({"access", "--impl", "fast"});
  ASSERT_EQ(refused.code, sw::kExitBadInput);
  const std::string lead = "pairs such as ";
  const std::size_t at = refused.err.find(lead);
  ASSERT_NE(at, std::string::npos) << refused.err;
  const std::size_t start = at + lead.size();
  const std::string shown = refused.err.substr(start, refused.err.find(", found", start) - start);
  const std::size_t either = shown.find(" or ");
  ASSERT_NE(either, std::string::npos) << shown;
  const std::string multiprocessor = shown.substr(0, either);
  const std::string network = shown.substr(either + 4);
  FakeRunner runner;
  const Result access = run({"access", "--impl", multiprocessor}, runner);
  EXPECT_EQ(access.code, sw::kExitOk) << multiprocessor << ": " << access.err;
  const Result traffic =
      run({"traffic", "--topology", "mesh", "--dims", "2x2", "--impl", network}, runner);
  EXPECT_EQ(traffic.code, sw::kExitOk) << network << ": " << traffic.err;
}

// An access fails on a co-simulation mismatch, naming it on a line that names the command as
// its refusals do (it began "orthosim: error:"), and prints no result.
TEST(Cli, AnAccessFailsOnACosimMismatch) {
  class Mismatched : public FakeRunner {
   public:
    sw::RunSummary run_access(const sw::AccessRequest& request) override {
      sw::RunSummary s = FakeRunner::run_access(request);
      s.mismatch = sw::CosimMismatch{9, "omp.bc0", "bus_data", 1, 2};
      return s;
    }
  };
  Mismatched runner;
  const Result r = run({"access", "--json"}, runner);
  EXPECT_EQ(r.code, sw::kExitRunFailed);
  EXPECT_EQ(r.err,
            "orthosim access: error: cosim mismatch at cycle 9 in omp.bc0: bus_data model 0x1 rtl "
            "0x2\n");
  EXPECT_EQ(r.out, "");
}

}  // namespace
}  // namespace orthosim
