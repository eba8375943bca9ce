// `orthosim demo` (sw/cli) against a fake Runner: the Fig. 2 program of [PH91] on the omp, the
// crossbar and the bus, with the system options passed to all three.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "sw/cli/cli.hpp"
#include "tests/support/cli_harness.hpp"

namespace orthosim {
namespace {

using namespace cli_test;

TEST(Cli, DemoRunsTheSampleProgramOnAllThreeConfigurations) {
  FakeRunner runner;
  const Result r = run({"demo", "--json", "--out", "demo-dir"}, runner);
  ASSERT_EQ(r.code, sw::kExitOk) << r.err;
  ASSERT_EQ(runner.program_requests.size(), 1u);
  const std::vector<sw::SystemRun>& runs = runner.program_requests.front();
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[0].config->arch, Arch::Omp);
  EXPECT_EQ(runs[1].config->arch, Arch::Crossbar);
  EXPECT_EQ(runs[2].config->arch, Arch::Bus);
  for (const sw::SystemRun& s : runs) {
    EXPECT_EQ(s.config->n, 4u);
    // Fig. 2: 1 + 2 + 3 + 3 + (2 + 2) node messages.
    EXPECT_EQ(s.program.messages.size(), 13u);
    ASSERT_TRUE(s.vcd_path.has_value());
    EXPECT_EQ(*s.vcd_path, "demo-dir/" + sw::to_string(s.config->arch) + ".vcd");
  }
  const nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_TRUE(j.contains("systems"));
  ASSERT_EQ(j["systems"].size(), 3u);
  EXPECT_EQ(j["systems"][1].value("arch", std::string{}), "crossbar");
  EXPECT_EQ(j["systems"][1]["steps"].size(), 5u);
}

// A word lost on any one of the three systems fails the demo.
TEST(Cli, DemoFailsOnAWordLostByAnyOneSystem) {
  class LosesOn : public FakeRunner {
   public:
    explicit LosesOn(std::size_t system) : system_(system) {}
    std::vector<sw::RunSummary> run_programs(std::vector<sw::SystemRun> runs) override {
      std::vector<sw::RunSummary> out = FakeRunner::run_programs(std::move(runs));
      out.at(system_).delivery.messages_failed = 1;
      out.at(system_).delivery.failures.push_back("message 0 lost");
      return out;
    }

   private:
    std::size_t system_;
  };
  for (std::size_t system = 0; system < 3; ++system) {
    LosesOn runner(system);
    EXPECT_EQ(run({"demo", "--out", "demo-dir"}, runner).code, sw::kExitRunFailed) << system;
  }
}

// The demo's "vs omp" row is each system's total cycles divided by the orthogonal system's (the
// first run): with totals of 40 (omp), 50 (crossbar) and 100 (bus) cycles, 40/40, 50/40 and 100/40.
TEST(Cli, DemoComparesEachSystemsCyclesWithTheOrthogonalSystems) {
  class Totals : public FakeRunner {
   public:
    std::vector<sw::RunSummary> run_programs(std::vector<sw::SystemRun> runs) override {
      std::vector<sw::RunSummary> out = FakeRunner::run_programs(std::move(runs));
      const std::uint64_t totals[] = {40, 50, 100};
      for (std::size_t k = 0; k < out.size() && k < 3; ++k) {
        out[k].cycles = sw::Cycle{totals[k]};
      }
      return out;
    }
  };
  Totals runner;
  const Result r = run({"demo", "--out", "demo-dir"}, runner);
  ASSERT_EQ(r.code, sw::kExitOk) << r.err;
  const auto row = [&r](const std::string& start) {
    std::vector<std::string> cells;
    const std::size_t at = r.out.find("\n  " + start);
    if (at != std::string::npos) {
      std::istringstream fields(r.out.substr(at, r.out.find('\n', at + 1) - at));
      for (std::string f; fields >> f;) {
        cells.push_back(f);
      }
    }
    return cells;
  };
  EXPECT_EQ(row("vs omp"), (std::vector<std::string>{"vs", "omp", "1.00x", "1.25x", "2.50x"}))
      << r.out;
  // The total row's cells are "measured (predicted)": the measured totals come first.
  const std::vector<std::string> total = row("total");
  ASSERT_EQ(total.size(), 7u) << r.out;
  EXPECT_EQ((std::vector<std::string>{total[1], total[3], total[5]}),
            (std::vector<std::string>{"40", "50", "100"}))
      << r.out;
}

TEST(Cli, DemoFailsWhenOneSystemLosesAWord) {
  FakeRunner runner(FakeRunner::Outcome::PayloadLost);
  const Result r = run({"demo"}, runner);
  EXPECT_EQ(r.code, sw::kExitRunFailed);
}

/// The line after the first line of `text` that starts with `start` (after its indentation).
std::string line_after(const std::string& text, const std::string& start) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.find_first_not_of(' ') != std::string::npos &&
        line.compare(line.find_first_not_of(' '), start.size(), start) == 0) {
      std::string next;
      std::getline(lines, next);
      return next;
    }
  }
  return "(no line starting with " + start + ")";
}

// Under each table of measured and predicted cycles, the demo's and run's, one line says what
// the prediction is and why a step can beat it or exceed it (the demo's bus step 1: 98 cycles
// for 74 predicted, its read waiting for a step-2 write), pointing at docs/mapping.md.
TEST_F(CliProgram, UnderTheCycleTablesALineExplainsThePrediction) {
  FakeRunner runner;
  const std::string expected =
      "predicted: each step's cost estimated alone (docs/mapping.md); processors run ahead into "
      "the next step, so a measured step can beat it, or wait for the next step's accesses on a "
      "shared bus";
  const Result demo = run({"demo", "--out", path("d")}, runner);
  ASSERT_EQ(demo.code, sw::kExitOk) << demo.err;
  EXPECT_EQ(line_after(demo.out, "delivery "), "  " + expected);
  const Result table = run({"run", fig2_, "--arch", "omp"}, runner);
  ASSERT_EQ(table.code, sw::kExitOk) << table.err;
  EXPECT_EQ(line_after(table.out, "total "), expected);
}

TEST_F(CliProgram, DemoPassesTheSystemOptionsToAllThreeConfigurations) {
  FakeRunner runner;
  const Result r = run({"demo", "--alpha", "10", "--beta", "3", "--tau", "2", "--gamma", "5", "--n",
                        "8", "--out", "waves"},
                       runner);
  ASSERT_EQ(r.code, sw::kExitOk) << r.err;
  EXPECT_EQ(r.err, "");
  ASSERT_EQ(runner.program_requests.size(), 1u);
  const std::vector<sw::SystemRun>& runs = runner.program_requests[0];
  ASSERT_EQ(runs.size(), 3u);
  for (const sw::SystemRun& s : runs) {
    const std::string name = sw::to_string(s.config->arch);
    EXPECT_EQ(s.config->n, 8u) << name;
    EXPECT_EQ(s.config->timing.alpha, 10u) << name;
    EXPECT_EQ(s.config->timing.beta, 3u) << name;
    EXPECT_EQ(s.config->timing.tau, 2u) << name;
    EXPECT_EQ(s.config->timing.gamma, 5u) << name;
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

}  // namespace
}  // namespace orthosim
