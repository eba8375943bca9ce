// The harness of the command-line tests (tests/sw/cli_*_test.cpp): sw::run_cli against a fake
// Runner that records what it is asked and answers from the request (or, scripted, as the test
// says), the check that a bad command line is refused before anything runs, and the Fig. 2
// program of [PH91] with a fresh folder per test for program files and outputs.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "sw/cli/cli.hpp"
#include "sw/cost/access_workload_cost.hpp"

namespace orthosim::cli_test {

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
      if (rate > 0) {  // a window's packets, all of the same latency
        p.measured_packets = 100;
        p.latency_avg = 12.0;
        p.latency_p50 = p.latency_p99 = p.latency_max = 12;
      }
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

/// A fake emulator whose networks answer what the test says: each run's summary from FakeRunner,
/// then changed by `script` (the run's index among the requests, its summary).
class ScriptedRunner : public FakeRunner {
 public:
  using Script = std::function<void(std::size_t, sw::NetworkRunSummary&)>;
  explicit ScriptedRunner(Script script) : script_(std::move(script)) {}

  sw::NetworkRunSummary run_network(const sw::NetworkRunRequest& request) override {
    sw::NetworkRunSummary s = FakeRunner::run_network(request);
    script_(network_requests.size() - 1, s);
    return s;
  }

 private:
  Script script_;
};

/// A summary in which one message lost a word.
inline void lose_a_word(sw::NetworkRunSummary& s) {
  s.delivery.messages_failed = 1;
  s.delivery.failures.push_back("message 0 lost");
}

struct Result {
  int code = -1;
  std::string out;
  std::string err;
};

inline Result run(const std::vector<std::string>& args, FakeRunner& runner) {
  std::ostringstream out;
  std::ostringstream err;
  Result r;
  r.code = sw::run_cli(args, runner, out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

inline Result run(const std::vector<std::string>& args) {
  FakeRunner runner;
  return run(args, runner);
}

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

inline std::string joined(const std::vector<std::string>& args) {
  std::string s;
  for (const std::string& a : args) {
    s += a + " ";
  }
  return s;
}

struct BadInput {
  std::vector<std::string> args;
  std::vector<std::string> in_error;  ///< words the error line must contain
};

/// Each command line is refused before the runner is asked anything: exit 2, nothing on standard
/// output, one error line that contains the case's words.
inline void expect_refused_before_running(const std::vector<BadInput>& cases) {
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

namespace fs = std::filesystem;

/// The sample program of [PH91] Fig. 2 as listed in its section 2, 4-word messages.
inline constexpr const char* kFig2Program = "nodes 4\n"
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

inline const std::vector<std::pair<std::string, Arch>>& archs() {
  static const std::vector<std::pair<std::string, Arch>> a = {{"omp", Arch::Omp},
                                                              {"crossbar", Arch::Crossbar},
                                                              {"bus", Arch::Bus}};
  return a;
}

/// Block access cost, [PH91] Fig. 5(c) / Eq. 1: alpha + beta(l-1) + d tau l.
inline std::uint64_t access_formula(std::uint64_t alpha, std::uint64_t beta, std::uint64_t tau,
                                    std::uint64_t d, std::uint64_t l) {
  return alpha + beta * (l - 1) + d * tau * l;
}

inline std::string slurp(const fs::path& p) {
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

}  // namespace orthosim::cli_test
