// `orthosim traffic` (sw/cli) against a fake Runner: the pattern, rates, packets, injection,
// window and seed in the request, and the defaults.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "sw/cli/cli.hpp"
#include "sw/pattern/pattern.hpp"
#include "tests/support/cli_harness.hpp"

namespace orthosim {
namespace {

using namespace cli_test;

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

TEST(CliTraffic, TrafficHandsTheRunnerThePatternRatesPacketsInjectionWindowAndSeed) {
  Result r;
  const sw::TrafficRequest q =
      only_traffic({"traffic",   "--topology",     "hypercube",   "--dim",        "4",
                    "--pattern", "bitrev",         "--rates",     "0.01,0.2,0.5", "--flits",
                    "8",         "--injection",    "exponential", "--warmup",     "100",
                    "--cycles",  "2000",           "--seed",      "42",           "--buffers",
                    "4",         "--router-delay", "2",           "--json"},
                   &r);
  EXPECT_EQ(q.config->topology.kind(), sw::TopologyKind::Hypercube);
  EXPECT_EQ(q.config->topology.nodes(), 16u);
  EXPECT_EQ(q.config->router.vcs, 1u);
  EXPECT_EQ(q.config->router.buffer_flits, 4u);
  EXPECT_EQ(q.config->router.delay, 2u);
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

TEST(CliTraffic, APointWithoutAnArrivedPacketShowsNoLatency) {
  // The fake runner delivers the packets of every rate above 0 (latency 12) and none at 0: the
  // table shows dashes there, not a latency of 0 cycles, and the numbers where packets arrived.
  Result r;
  only_traffic({"traffic", "--topology", "mesh", "--dims", "4x4", "--rates", "0,0.1"}, &r);
  std::istringstream lines(r.out);
  std::string line;
  std::vector<std::vector<std::string>> rows;
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    std::vector<std::string> row;
    for (std::string f; fields >> f;) {
      row.push_back(f);
    }
    if (!row.empty() && (row[0] == "0.0000" || row[0] == "0.1000")) {
      rows.push_back(row);
    }
  }
  ASSERT_EQ(rows.size(), 2u) << r.out;
  // The table says its units: the rates are not percentages, the latencies not nanoseconds.
  EXPECT_NE(r.out.find("rate, offered, accepted: flits per node per cycle; latency: cycles"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(rows[0],
            (std::vector<std::string>{"0.0000", "0.0000", "0.0000", "-", "-", "-", "-", "yes"}));
  EXPECT_EQ(rows[1], (std::vector<std::string>{"0.1000", "0.1000", "0.1000", "12.0", "12", "12",
                                               "12", "yes"}));
}

/// Gives every figure of every point a value of its own (point k: the hundreds 100 (k + 1)), so that
/// a figure shown under another's name, or left at 0, cannot pass; point 1 deadlocked, point 2
/// neither deadlocked nor sustainable.
class DistinctFigures : public FakeRunner {
 public:
  std::vector<sw::TrafficPoint> run_traffic(const sw::TrafficRequest& request) override {
    std::vector<sw::TrafficPoint> points;
    for (std::size_t k = 0; k < request.rates.size(); ++k) {
      const std::uint64_t b = 100 * (k + 1);
      sw::TrafficPoint p;
      p.rate = request.rates[k];
      p.offered = 0.25 + static_cast<double>(k);
      p.accepted = 0.125 + static_cast<double>(k);
      p.latency_avg = static_cast<double>(b) + 0.5;
      p.latency_p50 = b + 1;
      p.latency_p99 = b + 2;
      p.latency_max = b + 3;
      p.sustainable = k == 0;
      p.deadlocked = k == 1;
      p.deadlock = k == 1 ? "stuck" : "";
      p.sim_cycles = b + 4;
      p.measured_packets = b + 5;
      p.undelivered_measured = k + 1;  // fewer than measured: the point has latencies
      p.flits_delivered = b + 7;
      p.flit_hops = b + 8;
      p.words_corrupted = b + 9;
      p.max_channel_contention = b + 10;
      p.peak_channel_occupancy = static_cast<std::uint32_t>(b + 11);
      p.source_queue_start = b + 12;
      p.source_queue_end = b + 13;
      points.push_back(p);
    }
    return points;
  }
};

// docs/cli.md's table of a traffic point's JSON fields: each figure the runner measured is in the
// field of its name.
TEST(CliTraffic, EveryFigureOfAPointIsInTheFieldItsNameSays) {
  DistinctFigures runner;
  const Result r =
      run({"traffic", "--topology", "mesh", "--dims", "4x4", "--rates", "0.01,0.02", "--json"},
          runner);
  ASSERT_EQ(r.code, sw::kExitRunFailed) << r.err;  // the second point deadlocked
  const nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["points"].size(), 2u);
  for (std::size_t k = 0; k < 2; ++k) {
    const nlohmann::json& p = j["points"][k];
    const std::uint64_t b = 100 * (k + 1);
    EXPECT_DOUBLE_EQ(p.value("rate", 0.0), 0.01 * static_cast<double>(k + 1)) << k;
    EXPECT_DOUBLE_EQ(p.value("offered", 0.0), 0.25 + static_cast<double>(k)) << k;
    EXPECT_DOUBLE_EQ(p.value("accepted", 0.0), 0.125 + static_cast<double>(k)) << k;
    EXPECT_DOUBLE_EQ(p.value("latency_avg", 0.0), static_cast<double>(b) + 0.5) << k;
    EXPECT_EQ(p.value("latency_p50", 0u), b + 1) << k;
    EXPECT_EQ(p.value("latency_p99", 0u), b + 2) << k;
    EXPECT_EQ(p.value("latency_max", 0u), b + 3) << k;
    EXPECT_EQ(p.value("sustainable", k != 0), k == 0) << k;
    EXPECT_EQ(p.value("deadlocked", k != 1), k == 1) << k;
    EXPECT_EQ(p.value("deadlock", std::string("?")), k == 1 ? "stuck" : "") << k;
    EXPECT_EQ(p.value("sim_cycles", 0u), b + 4) << k;
    EXPECT_EQ(p.value("measured_packets", 0u), b + 5) << k;
    EXPECT_EQ(p.value("undelivered_measured", 0u), k + 1) << k;
    EXPECT_EQ(p.value("flits_delivered", 0u), b + 7) << k;
    EXPECT_EQ(p.value("flit_hops", 0u), b + 8) << k;
    EXPECT_EQ(p.value("words_corrupted", 0u), b + 9) << k;
    EXPECT_EQ(p.value("max_channel_contention", 0u), b + 10) << k;
    EXPECT_EQ(p.value("peak_channel_occupancy", 0u), b + 11) << k;
    EXPECT_EQ(p.value("source_queue_start", 0u), b + 12) << k;
    EXPECT_EQ(p.value("source_queue_end", 0u), b + 13) << k;
  }
}

// The table of the same points: each row's rate, offered, accepted, latencies and verdict in the
// order of its header (DEADLOCK and the watchdog's report for a deadlocked point, "no" for one
// that is only unsustainable), then the last point's flits and contention.
TEST(CliTraffic, EachRowShowsItsPointsFiguresInTheHeadersOrder) {
  DistinctFigures runner;
  const Result r =
      run({"traffic", "--topology", "mesh", "--dims", "4x4", "--rates", "0.01,0.02,0.03"}, runner);
  ASSERT_EQ(r.code, sw::kExitRunFailed) << r.err;
  std::istringstream lines(r.out);
  std::vector<std::string> rows;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    std::string first;
    fields >> first;
    if (first.rfind("0.0", 0) == 0 || first == "stuck" || first == "flits") {
      std::string row = first;
      for (std::string f; fields >> f;) {
        row += " " + f;
      }
      rows.push_back(row);
    }
  }
  EXPECT_EQ(rows, (std::vector<std::string>{
                      "0.0100 0.2500 0.1250 100.5 101 102 103 yes",
                      "0.0200 1.2500 1.1250 200.5 201 202 203 DEADLOCK",
                      "stuck",
                      "0.0300 2.2500 2.1250 300.5 301 302 303 no",
                      "flits delivered 307, max channel contention 310 messages (last point)",
                  }))
      << r.out;
}

// docs/cli.md, orthosim traffic: exit 1 if a point deadlocked or a word arrived corrupted. Here no
// point deadlocked and one word of the second arrived wrong.
TEST(CliTraffic, ACorruptedWordFailsTheRunWithoutADeadlock) {
  class Corrupting : public FakeRunner {
   public:
    std::vector<sw::TrafficPoint> run_traffic(const sw::TrafficRequest& request) override {
      std::vector<sw::TrafficPoint> points = FakeRunner::run_traffic(request);
      points.back().words_corrupted = 1;
      return points;
    }
  };
  for (const bool json : {false, true}) {
    std::vector<std::string> args = {"traffic", "--topology", "mesh",     "--dims",
                                     "4x4",     "--rates",    "0.01,0.02"};
    if (json) {
      args.push_back("--json");
    }
    Corrupting runner;
    EXPECT_EQ(run(args, runner).code, sw::kExitRunFailed) << joined(args);
    FakeRunner intact;
    EXPECT_EQ(run(args, intact).code, sw::kExitOk) << joined(args);
  }
}

// Store-and-forward holds a whole packet (header included) in a buffer: a packet of exactly the
// buffer's flits is taken, one flit more refused naming --buffers.
TEST(CliTraffic, StoreAndForwardTakesAPacketOfExactlyTheBuffersFlits) {
  const std::vector<std::string> saf = {"traffic", "--topology",  "mesh", "--dims",
                                        "4x4",     "--switching", "saf",  "--buffers",
                                        "4",       "--flits"};
  std::vector<std::string> fits = saf;
  fits.push_back("4");
  EXPECT_EQ(only_traffic(fits).flits, 4u);
  std::vector<std::string> over = saf;
  over.push_back("5");
  expect_refused_before_running({{over, {"--buffers", "5 flits"}}});
}

TEST(CliTraffic, SeedTakesEverySixtyFourBitValueAndNothingBeyond) {
  constexpr std::uint64_t kLargest = std::numeric_limits<std::uint64_t>::max();
  for (const std::uint64_t seed : {std::uint64_t{0}, kLargest / 10 + 1, kLargest - 1, kLargest}) {
    const sw::TrafficRequest q = only_traffic(
        {"traffic", "--topology", "mesh", "--dims", "2x2", "--seed", std::to_string(seed)});
    EXPECT_EQ(q.seed, seed);
  }
  // 2^64 and a number of 21 digits do not fit: refused at the option, before anything runs.
  for (const std::string seed :
       {"18446744073709551616", "99999999999999999999", "100000000000000000000"}) {
    FakeRunner runner;
    const Result r =
        run({"traffic", "--topology", "mesh", "--dims", "2x2", "--seed", seed}, runner);
    EXPECT_EQ(r.code, sw::kExitBadInput) << seed;
    EXPECT_NE(r.err.find("--seed"), std::string::npos) << r.err;
    EXPECT_TRUE(runner.traffic_requests.empty()) << seed;
  }
}

// --routing: P-cube on a hypercube reaches the network's configuration and is named in the
// reports; e-cube, the default, is named nowhere (its reports stay as they were); a mesh, a torus,
// an unknown name and the RTL router are refused at the option before anything runs.
TEST(CliTraffic, RoutingPcubeOnHypercubesOnlyAndNamedOnlyWhenNotTheDefault) {
  const std::vector<std::string> cube = {"traffic", "--topology", "hypercube",
                                         "--dim",   "3",          "--json"};
  const auto with = [&cube](std::vector<std::string> extra) {
    std::vector<std::string> args = cube;
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  };
  Result plain;
  const sw::TrafficRequest q = only_traffic(cube, &plain);
  EXPECT_EQ(q.config->routing_function().name(), "e-cube");
  EXPECT_FALSE(nlohmann::json::parse(plain.out).contains("routing"));
  for (const char* ecube : {"ecube", "e-cube"}) {
    Result r;
    (void)only_traffic(with({"--routing", ecube}), &r);
    EXPECT_EQ(r.out, plain.out) << ecube;
  }
  for (const char* pcube : {"pcube", "p-cube"}) {
    Result r;
    const sw::TrafficRequest p = only_traffic(with({"--routing", pcube}), &r);
    EXPECT_EQ(p.config->routing_function().name(), "p-cube");
    EXPECT_EQ(p.config->description()->routing().name(), "p-cube");
    EXPECT_EQ(nlohmann::json::parse(r.out).value("routing", std::string{}), "p-cube") << pcube;
  }
  Result table;
  (void)only_traffic({"traffic", "--topology", "hypercube", "--dim", "3", "--routing", "pcube"},
                     &table);
  EXPECT_NE(table.out.find("p-cube routing"), std::string::npos) << table.out;

  const std::vector<std::pair<std::vector<std::string>, std::string>> refused = {
      {{"traffic", "--topology", "mesh", "--dims", "4x4", "--routing", "pcube"}, "--routing"},
      {{"traffic", "--topology", "torus", "--dims", "4x4", "--routing", "ecube"}, "--routing"},
      // A mesh's own routing by name is no --routing either (docs/cli.md: hypercubes only).
      {{"traffic", "--topology", "mesh", "--dims", "4x4", "--routing", "dimension-order"},
       "--routing: expected no --routing on a mesh"},
      {with({"--routing", "adaptive"}), "--routing"},
      {with({"--routing", "dimension-order"}), "--routing"},
      {with({"--routing", "pcube", "--impl", "router=rtl"}), "--impl"},
      {with({"--routing", "pcube", "--impl", "cosim"}), "--impl"},
  };
  for (const auto& [args, option] : refused) {
    FakeRunner runner;
    const Result r = run(args, runner);
    EXPECT_EQ(r.code, sw::kExitBadInput) << joined(args);
    EXPECT_NE(r.err.find(option), std::string::npos) << joined(args) << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_TRUE(runner.traffic_requests.empty()) << joined(args);
  }
}

// A rate is read by the rule every integer option follows (parse_count): the characters of the
// number and nothing else, so " 0.1" is refused as --alpha " 5" is; a decimal point and an
// exponent are what a rate adds.
TEST(CliTraffic, ARateIsTheNumberAndNothingElseAsEveryNumericOption) {
  const std::vector<std::pair<std::string, double>> accepted = {{"0.1", 0.1},   {".5", 0.5},
                                                                {"2", 2.0},     {"2.", 2.0},
                                                                {"1e-3", 1e-3}, {"64", 64.0},
                                                                {"0", 0.0},     {"5E-2", 5e-2},
                                                                {"1e+1", 10.0}};
  for (const auto& [text, value] : accepted) {
    EXPECT_EQ(
        only_traffic({"traffic", "--topology", "mesh", "--dims", "4x4", "--rate", text}).rates,
        (std::vector<double>{value}))
        << text;
  }
  std::vector<BadInput> refused;
  for (const std::string text : {" 0.1", "0.1 ", "+0.1", "-0", "0x0.1p0", "inf", "nan", ".", "e3",
                                 "1e", "1e+", "0.1.2", "64.5", "1e400", ""}) {
    refused.push_back({{"traffic", "--topology", "mesh", "--dims", "4x4", "--rate", text},
                       {"orthosim traffic: --rate: expected a rate in flits per node per cycle, "
                        "0..64, found '" +
                        text + "'"}});
  }
  // A list given to --rate: the error names the sweep's option.
  for (const std::string text : {"1,5", "0.1,0.2", ","}) {
    refused.push_back({{"traffic", "--topology", "mesh", "--dims", "4x4", "--rate", text},
                       {"orthosim traffic: --rate: expected one rate (several, a "
                        "latency-throughput table: --rates R1,R2), found '" +
                        text + "'"}});
  }
  refused.push_back(
      {{"traffic", "--topology", "mesh", "--dims", "4x4", "--rates", "0.1, 0.2"},
       {"--rates: expected a rate in flits per node per cycle, 0..64, found ' 0.2'"}});
  refused.push_back({{"access", "--alpha", " 5"},
                     {"orthosim access: --alpha: expected an integer in 0..1000000, found ' 5'"}});
  expect_refused_before_running(refused);
}

// Each count at its lower bound, and a packet as long as the limit that bounds it, is taken.
TEST(CliTraffic, EachCountAtItsLowerBoundOrAtItsLimitIsTaken) {
  const sw::TrafficRequest least = only_traffic(
      {"traffic", "--topology", "mesh", "--dims", "4x4", "--flits", "1", "--warmup", "0"});
  EXPECT_EQ(least.flits, 1u);
  EXPECT_EQ(least.warmup, 0u);
  EXPECT_EQ(only_traffic({"traffic", "--topology", "mesh", "--dims", "4x4", "--flits", "5",
                          "--packet-flits", "5"})
                .flits,
            5u);
  EXPECT_EQ(only_traffic({"traffic", "--topology", "mesh", "--dims", "4x4", "--flits", "8",
                          "--switching", "saf", "--buffers", "8"})
                .flits,
            8u);
}

// A co-simulation mismatch at any rate of a sweep fails the command with the mismatch, and no
// table is printed.
TEST(CliTraffic, ACosimMismatchAtAnyRateFailsTheCommand) {
  class Mismatched : public FakeRunner {
   public:
    std::vector<sw::TrafficPoint> run_traffic(const sw::TrafficRequest& request) override {
      std::vector<sw::TrafficPoint> points = FakeRunner::run_traffic(request);
      points.at(1).cosim_mismatch = "cosim mismatch at cycle 16 in mesh.r3";
      return points;
    }
  };
  Mismatched runner;
  const Result r =
      run({"traffic", "--topology", "mesh", "--dims", "4x4", "--rates", "0.01,0.02,0.03"}, runner);
  EXPECT_EQ(r.code, sw::kExitRunFailed);
  EXPECT_EQ(r.err, "orthosim traffic: error: cosim mismatch at cycle 16 in mesh.r3\n");
  EXPECT_EQ(r.out, "");
}

TEST(CliTraffic, TrafficDefaultsAndOnePointAtTheTopLevel) {
  Result r;
  const sw::TrafficRequest q =
      only_traffic({"traffic", "--topology", "mesh", "--dims", "4x4", "--json"}, &r);
  EXPECT_EQ(q.config->topology.kind(), sw::TopologyKind::Mesh);
  EXPECT_EQ(q.config->router.vcs, 1u);
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
  const sw::TrafficRequest t =
      only_traffic({"traffic", "--topology", "torus", "--dims", "4x4", "--pattern", "transpose",
                    "--rate", "0.25", "--injection", "bernoulli"});
  EXPECT_EQ(t.config->router.vcs, 2u);
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
  EXPECT_EQ(only_traffic(
                {"traffic", "--topology", "mesh", "--dims", "4x2", "--pattern", "reverse-flip"})
                .pattern.kind,
            sw::PatternKind::ReverseFlip);
}

}  // namespace
}  // namespace orthosim

namespace orthosim {
namespace {

using namespace cli_test;

TEST_F(CliProgram, TrafficEmbeddingPlacesThePatternAndJsonReportsOneRoundsContention) {
  // Bit-reverse on the 4-cube: one round has 2 messages on its busiest channel under e-cube;
  // placed by orthosim lcc's relabeling, 1.
  const std::string map = path("bitrev.map");
  ASSERT_EQ(run({"lcc", "--dim", "4", "--pattern", "bitrev", "--out", map}).code, sw::kExitOk);
  std::vector<std::uint32_t> entries;
  {
    std::istringstream lines(slurp(map));
    std::string line;
    while (std::getline(lines, line)) {
      if (!line.empty() && line[0] != '#') {
        entries.push_back(static_cast<std::uint32_t>(std::stoul(line)));
      }
    }
  }
  ASSERT_EQ(entries.size(), 16U);
  for (const bool placed : {false, true}) {
    std::vector<std::string> args = {"traffic", "--topology", "hypercube", "--dim",
                                     "4",       "--pattern",  "bitrev",    "--json"};
    if (placed) {
      args.insert(args.end(), {"--embedding", map});
    }
    Result r;
    const sw::TrafficRequest q = only_traffic(args, &r);
    std::mt19937_64 rng(1);
    for (std::uint32_t v = 0; v < 16; ++v) {
      std::uint32_t reversed = 0;
      for (std::uint32_t i = 0; i < 4; ++i) {
        reversed |= ((v >> i) & 1U) << (3 - i);
      }
      const std::uint32_t at = placed ? entries[v] : v;
      EXPECT_EQ(sw::destination(q.pattern, q.config->topology, at, rng),
                placed ? entries[reversed] : reversed)
          << v;
    }
    const nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j.value("round_contention", 0U), placed ? 1U : 2U);
    EXPECT_EQ(j.contains("embedding"), placed);
  }
  Result uniform;
  (void)only_traffic({"traffic", "--topology", "hypercube", "--dim", "4", "--json"}, &uniform);
  EXPECT_FALSE(nlohmann::json::parse(uniform.out).contains("round_contention"));

  // The map places the pattern's nodes (traffic runs no program): its count names them.
  const std::string short_map = file("short.map", "0 1 2\n");
  const std::string twice = file("twice.map", "0 0\n");
  expect_refused_before_running({
      {{"traffic", "--topology", "hypercube", "--dim", "4", "--pattern", "bitrev", "--embedding",
        short_map},
       {"short.map:2:1: expected 16 entries, one per pattern node, found 3"}},
      {{"traffic", "--topology", "hypercube", "--dim", "1", "--embedding", twice},
       {"twice.map:1:3", "not used yet"}},
      {{"traffic", "--topology", "hypercube", "--dim", "4", "--embedding", path("none.map")},
       {"none.map"}},
  });
}

// A network's verilated blocks are its routers and interfaces (docs/cli.md, --impl): each block
// type of the multiprocessors is refused on a network, naming --impl and the text given.
TEST(CliTraffic, EveryMultiprocessorBlockTypeIsRefusedOnANetwork) {
  std::vector<BadInput> refused;
  for (const std::string block : {"im", "bus", "memory", "processor", "sync", "interconnect"}) {
    refused.push_back(
        {{"traffic", "--topology", "mesh", "--dims", "4x4", "--impl", block + "=rtl"},
         {"--impl: expected model, rtl, cosim or router=...,ni=...", "'" + block + "=rtl'"}});
  }
  expect_refused_before_running(refused);
}

}  // namespace
}  // namespace orthosim
