// End-to-end tests of event traces (docs/traces.md): `--trace` on the running commands and
// `orthosim trace stats|diff|export|plot`. Every figure a trace gives is compared with what the
// run itself printed (a second implementation: the models' own counters), with the VCD of the
// same run, or with a difference injected on purpose.
#include <expat.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <tuple>

#include "tests/support/cli_process.hpp"

namespace {

using nlohmann::json;
using orthosim::testing_support::slurp;

const std::string kFig2 = std::string(ORTHOSIM_EXAMPLES_DIR) + "/fig2_sample.mcp";

class TraceCli : public orthosim::testing_support::CliTest {
 protected:
  json run_json(const std::string& args) {
    const auto r = run(args + " --json");
    EXPECT_EQ(r.exit_code, 0) << args << '\n' << r.err;
    return json::parse(r.out);
  }
  json stats(const std::string& file) { return run_json("trace stats " + file); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  void write(const std::string& name, const std::string& text) const {
    std::ofstream(dir_ / name, std::ios::binary) << text;
  }
};

/// The processors' counters the run printed, by processor name ("omp.p0").
std::map<std::string, std::uint64_t> counters(const json& run, const std::string& leaf) {
  std::map<std::string, std::uint64_t> out;
  for (const auto& [name, value] : run["stats"].items()) {
    const std::string suffix = "." + leaf;
    if (name.size() > suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
      out[name.substr(0, name.size() - suffix.size())] = value.get<std::uint64_t>();
    }
  }
  return out;
}

/// A mapped program's round trip: the event trace's figures against the run's own.
void expect_program_round_trip(const json& run, const json& st) {
  EXPECT_EQ(st["format"], "event-trace");
  EXPECT_EQ(st["cycles"], run["total_cycles"]);
  EXPECT_EQ(st["conflicts"], run["conflicts"]);
  EXPECT_EQ(st["conflict_wait_cycles"], run["conflict_wait_cycles"]);
  std::uint64_t words_moved = 0;
  for (const auto& [c, w] : counters(run, "words_moved")) {
    words_moved += w;
  }
  EXPECT_EQ(st["words"].get<std::uint64_t>(), words_moved);
  std::uint64_t accesses = 0;
  for (const auto& [c, a] : counters(run, "accesses")) {
    accesses += a;
  }
  EXPECT_EQ(st["accesses"].get<std::uint64_t>(), accesses);
  // Per step: the end cycle of each step.
  ASSERT_EQ(st["step_ends"].size(), run["steps"].size());
  for (std::size_t k = 0; k < run["steps"].size(); ++k) {
    EXPECT_EQ(st["step_ends"][k], run["steps"][k]["end_cycle"]) << "step " << k + 1;
  }
  // Per processor: compute, memory and sync cycles as the processors counted them.
  const auto compute = counters(run, "compute_cycles");
  const auto memory = counters(run, "memory_cycles");
  const auto sync = counters(run, "sync_cycles");
  ASSERT_EQ(st["processors"].size(), compute.size());
  for (const json& p : st["processors"]) {
    const std::string name = p["name"];
    EXPECT_EQ(p["compute"].get<std::uint64_t>(), compute.at(name)) << name;
    EXPECT_EQ(p["memory"].get<std::uint64_t>(), memory.at(name)) << name;
    EXPECT_EQ(p["sync"].get<std::uint64_t>(), sync.at(name)) << name;
    EXPECT_EQ(p["compute"].get<std::uint64_t>() + p["memory"].get<std::uint64_t>() +
                  p["sync"].get<std::uint64_t>() + p["message"].get<std::uint64_t>() +
                  p["idle"].get<std::uint64_t>(),
              st["cycles"].get<std::uint64_t>())
        << name;
  }
  // Bus busy cycles add up to the controllers' busy cycles.
  std::uint64_t busy = 0;
  for (const json& b : st["buses"]) {
    busy += b["busy_cycles"].get<std::uint64_t>();
  }
  std::uint64_t controller_busy = 0;
  for (const auto& [c, b] : counters(run, "busy_cycles")) {
    controller_busy += b;
  }
  EXPECT_EQ(busy, controller_busy);
}

/// What the VCD can say must agree with the event trace; what it cannot say it must list.
void expect_vcd_agrees(const json& from_trace, const json& from_vcd) {
  EXPECT_EQ(from_vcd["format"], "vcd");
  EXPECT_EQ(from_vcd["cycles"], from_trace["cycles"]);
  EXPECT_EQ(from_vcd["clock_ns"], from_trace["clock_ns"]);
  std::map<std::string, json> by_name;
  for (const json& p : from_trace["processors"]) {
    by_name[p["name"]] = p;
  }
  ASSERT_EQ(from_vcd["processors"].size(), by_name.size());
  for (const json& p : from_vcd["processors"]) {
    const json& t = by_name.at(p["name"]);
    for (const char* k : {"compute", "memory", "sync", "message", "idle"}) {
      EXPECT_EQ(p[k], t[k]) << p["name"] << ' ' << k;
    }
  }
  std::map<std::string, std::uint64_t> busy;
  for (const json& b : from_trace["buses"]) {
    busy[b["name"]] = b["busy_cycles"];
  }
  ASSERT_EQ(from_vcd["buses"].size(), busy.size());
  for (const json& b : from_vcd["buses"]) {
    EXPECT_EQ(b["busy_cycles"].get<std::uint64_t>(), busy.at(b["name"])) << b["name"];
  }
  EXPECT_FALSE(from_vcd["cannot_say"].empty());
}

TEST_F(TraceCli, OmpProgramRoundTripAndVcdAgree) {
  const json r = run_json("run " + kFig2 + " --arch omp --trace a.trace --vcd a.vcd");
  const json st = stats("a.trace");
  expect_program_round_trip(r, st);
  EXPECT_GT(st["conflicts"].get<std::uint64_t>(), 0u) << "Fig. 2 on the omp has conflicts";
  expect_vcd_agrees(st, stats("a.vcd"));
}

TEST_F(TraceCli, CrossbarProgramRoundTripAndVcdAgree) {
  const json r = run_json("run " + kFig2 + " --arch crossbar --trace c.trace --vcd c.vcd");
  ASSERT_TRUE(r["completed"].get<bool>());
  ASSERT_TRUE(r["payload_ok"].get<bool>());
  const json st = stats("c.trace");
  expect_program_round_trip(r, st);
  expect_vcd_agrees(st, stats("c.vcd"));
}

TEST_F(TraceCli, TorusTrafficRoundTrip) {
  const json r = run_json(
      "traffic --topology torus --dims 4x4 --rate 0.15 --warmup 200 --cycles 1500 --trace t.trace");
  const json st = stats("t.trace");
  const json& l = st["latency"];
  EXPECT_EQ(l["count"], r["measured_packets"]);
  EXPECT_DOUBLE_EQ(l["mean"].get<double>(), r["latency_avg"].get<double>());
  EXPECT_EQ(l["p50"], r["latency_p50"]);
  EXPECT_EQ(l["p99"], r["latency_p99"]);
  EXPECT_EQ(l["max"], r["latency_max"]);
  EXPECT_EQ(st["max_channel_contention"], r["max_channel_contention"]);
  // Every packet of the run was delivered; each of its flits crossed one link per hop.
  EXPECT_EQ(st["messages_sent"], st["messages_delivered"]);
  std::uint64_t link_flits = 0;
  std::uint64_t histogram = 0;
  for (const json& c : st["channels"]) {
    link_flits += c["flits"].get<std::uint64_t>();
  }
  for (const json& h : l["histogram"]) {
    histogram += h.get<std::uint64_t>();
  }
  EXPECT_EQ(link_flits, r["flit_hops"].get<std::uint64_t>());
  EXPECT_EQ(histogram, l["count"].get<std::uint64_t>());
}

TEST_F(TraceCli, TorusProgramRoundTrip) {
  const auto out = run("run " + kFig2 + " --arch torus --dims 2x2 --trace n.trace --json");
  ASSERT_EQ(out.exit_code, 0) << out.err;
  const json r = json::parse(out.out);
  const json st = stats("n.trace");
  EXPECT_EQ(st["cycles"], r["total_cycles"]);
  EXPECT_EQ(st["messages_delivered"], r["messages_delivered"]);
  EXPECT_EQ(st["max_channel_contention"], r["max_channel_contention"]);
  ASSERT_EQ(st["step_ends"].size(), r["steps"].size());
  for (std::size_t k = 0; k < r["steps"].size(); ++k) {
    EXPECT_EQ(st["step_ends"][k], r["steps"][k]["end_cycle"]);
  }
  std::map<std::string, std::uint64_t> packets;
  for (const json& c : r["channels"]) {
    packets[c["channel"]] = c["messages"];
  }
  for (const json& c : st["channels"]) {
    // "torus.r(1,0).x+" is the run's "n1.x+" (node 1 is x = 1, y = 0 on the 2 x 2 torus).
    const std::string name = c["name"];
    const std::string coords = name.substr(name.find('(') + 1, name.find(')') - name.find('(') - 1);
    const std::uint32_t node = static_cast<std::uint32_t>(std::stoul(coords.substr(0, 1)) +
                                                          2 * std::stoul(coords.substr(2, 1)));
    const std::string port = name.substr(name.rfind('.') + 1);
    EXPECT_EQ(c["packets"].get<std::uint64_t>(),
              packets.at("n" + std::to_string(node) + "." + port))
        << name;
  }
}

/// The event lines of a trace (those that start with their cycle), split into fields.
std::vector<std::vector<std::string>> trace_events(const std::string& trace) {
  std::vector<std::vector<std::string>> events;
  std::istringstream in(trace);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] < '0' || line[0] > '9') {
      continue;
    }
    std::istringstream fields(line);
    events.emplace_back();
    for (std::string f; fields >> f;) {
      events.back().push_back(f);
    }
  }
  return events;
}

// The send event names the sender and the destination of each message, as the program does,
// and the message's inject, eject, deliver and recv events happen at those two nodes. Each
// message of the program has its own length, so the trace's words tell which one it is.
TEST_F(TraceCli, ASendEventNamesTheSourceAndTheDestinationOfTheProgram) {
  write("p.mcp",
        "nodes 4\nstep\n  send 1 -> 0 words 1\n  send 0 -> 3 words 2\n  send 3 -> 2 words 3\n"
        "step\n  send 2 -> 1 words 4\n  send 1 -> 3 words 5\n");
  const std::map<std::string, std::pair<std::string, std::string>> program = {{"1", {"1", "0"}},
                                                                              {"2", {"0", "3"}},
                                                                              {"3", {"3", "2"}},
                                                                              {"4", {"2", "1"}},
                                                                              {"5", {"1", "3"}}};
  ASSERT_EQ(run("run p.mcp --arch mesh --dims 2x2 --trace p.trace").exit_code, 0);
  std::map<std::string, std::pair<std::string, std::string>> ends;  // message id -> (src, dst)
  std::map<std::string, std::set<std::string>> seen;                // message id -> event kinds
  for (const std::vector<std::string>& e : trace_events(slurp(dir_ / "p.trace"))) {
    if (e[1] == "send") {
      ASSERT_EQ(e.size(), 7u);
      ASSERT_TRUE(program.count(e[5])) << "a message of " << e[5] << " words";
      EXPECT_EQ(std::make_pair(e[3], e[4]), program.at(e[5])) << "send of " << e[5] << " words";
      ends[e[2]] = {e[3], e[4]};
    } else if (e[1] == "inject" || e[1] == "eject" || e[1] == "deliver" || e[1] == "recv") {
      ASSERT_TRUE(ends.count(e[2])) << e[1] << " of message " << e[2] << " before its send";
      const std::string& at = e[1] == "inject" ? ends[e[2]].first : ends[e[2]].second;
      EXPECT_EQ(e[3], at) << e[1] << " of message " << e[2];
      seen[e[2]].insert(e[1]);
    }
  }
  ASSERT_EQ(ends.size(), program.size());
  for (const auto& [message, kinds] : seen) {
    EXPECT_EQ(kinds.size(), 4u) << "message " << message;
  }

  // Synthetic traffic: the transpose sends node (x, y) to (y, x), node = x + 4 y.
  ASSERT_EQ(run("traffic --topology mesh --dims 4x4 --pattern transpose --rate 0.2 --flits 3 "
                "--warmup 0 --cycles 100 --trace t.trace")
                .exit_code,
            0);
  std::map<std::string, std::pair<std::string, std::string>> packets;
  for (const std::vector<std::string>& e : trace_events(slurp(dir_ / "t.trace"))) {
    if (e[1] == "send") {
      const std::uint64_t src = std::stoull(e[3]);
      EXPECT_EQ(e[4], std::to_string(src / 4 + 4 * (src % 4))) << "send from node " << src;
      packets[e[2]] = {e[3], e[4]};
    } else if (e[1] == "inject" || e[1] == "eject") {
      ASSERT_TRUE(packets.count(e[2])) << e[1] << " of packet " << e[2] << " before its send";
      EXPECT_EQ(e[3], e[1] == "inject" ? packets[e[2]].first : packets[e[2]].second)
          << e[1] << " of packet " << e[2];
    }
  }
  EXPECT_GT(packets.size(), 10u);
}

// Offered load is the flits of the packets created in the measurement window [W, W + C) divided
// by nodes x C: counted here from the trace's send events (the window from the run's start, each
// packet --flits flits), and compared exactly.
TEST_F(TraceCli, OfferedLoadIsTheFlitsCreatedInTheWindowOverNodesTimesTheWindow) {
  const json r = run_json("traffic --topology mesh --dims 3x3 --rate 0.2 --flits 4 --warmup 60 "
                          "--cycles 250 --trace t.trace");
  std::uint64_t start = 0;
  std::uint64_t flits = 0;
  std::uint64_t packets = 0;
  std::uint64_t outside = 0;
  for (const std::vector<std::string>& e : trace_events(slurp(dir_ / "t.trace"))) {
    const std::uint64_t at = std::stoull(e[0]);
    if (e[1] == "run") {
      start = at;
    } else if (e[1] == "send") {
      const bool in_window = at >= start + 60 && at < start + 60 + 250;
      EXPECT_EQ(e[6], in_window ? "1" : "0") << "send at cycle " << at;
      if (in_window) {
        flits += std::stoull(e[5]) + 1;
        ++packets;
      } else {
        ++outside;
      }
    }
  }
  ASSERT_GT(packets, 0u);
  ASSERT_GT(outside, 0u) << "no packet created in the warm-up";
  EXPECT_EQ(r["measured_packets"].get<std::uint64_t>(), packets);
  EXPECT_DOUBLE_EQ(r["offered"].get<double>(), static_cast<double>(flits) / (9.0 * 250.0));
}

// Accepted load is the flits ejected in the window [W, W + C) divided by nodes x C. With packets
// of one flit the trace's eject events are the flits' ejections, so the count is exact; the
// flits delivered are every ejection of the run, and the run ends at the trace's end line.
// (Longer packets eject their flits before the tail's eject event, one per cycle without
// contention but later behind a blocked worm: the trace cannot say in which cycle each went.)
TEST_F(TraceCli, AcceptedLoadIsTheFlitsEjectedInTheWindowOverNodesTimesTheWindow) {
  const json r = run_json("traffic --topology torus --dims 3x3 --rate 0.3 --flits 1 --warmup 40 "
                          "--cycles 200 --trace t.trace");
  std::uint64_t start = 0;
  std::uint64_t end = 0;
  std::uint64_t in_window = 0;
  std::uint64_t ejected = 0;
  for (const std::vector<std::string>& e : trace_events(slurp(dir_ / "t.trace"))) {
    const std::uint64_t at = std::stoull(e[0]);
    if (e[1] == "run") {
      start = at;
    } else if (e[1] == "eject") {
      ASSERT_EQ(e[4], "1");
      ++ejected;
      in_window += at >= start + 40 && at < start + 40 + 200 ? 1 : 0;
    } else if (e[1] == "end") {
      end = at;
    }
  }
  ASSERT_GT(in_window, 0u);
  ASSERT_GT(ejected, in_window) << "nothing ejected outside the window";
  EXPECT_DOUBLE_EQ(r["accepted"].get<double>(), static_cast<double>(in_window) / (9.0 * 200.0));
  EXPECT_EQ(r["flits_delivered"].get<std::uint64_t>(), ejected);
  EXPECT_EQ(r["sim_cycles"].get<std::uint64_t>(), end - start + 1);
}

// The table of `trace stats` prints the figures of its JSON: cycles, per bus busy cycles and
// accesses, per step end and cycles, the totals; for traffic the latency summary.
TEST_F(TraceCli, StatsTextSaysWhatTheJsonSays) {
  ASSERT_EQ(run("run " + kFig2 + " --arch omp --trace a.trace").exit_code, 0);
  const json st = stats("a.trace");
  const auto text = run("trace stats a.trace");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  const auto has = [&text](const std::string& line) {
    EXPECT_NE(text.out.find(line), std::string::npos) << "no '" << line << "' in\n" << text.out;
  };
  const std::uint64_t cycles = st["cycles"];
  has("cycles " + std::to_string(cycles) + " (" + std::to_string(cycles * 50) + " ns), 1 run\n");
  EXPECT_EQ(st["clock_ns"], 50);  // the omp's default clock period
  // A bus's utilization is its busy cycles over the run's, in the JSON as a fraction and in the
  // text as a percentage to one decimal.
  const auto percent = [](double part, double whole) {
    char shown[32];
    std::snprintf(shown, sizeof shown, "%.1f%%", whole == 0 ? 0.0 : 100.0 * part / whole);
    return std::string(shown);
  };
  ASSERT_FALSE(st["buses"].empty());
  for (const json& b : st["buses"]) {
    const std::uint64_t busy = b["busy_cycles"];
    EXPECT_DOUBLE_EQ(b["utilization"].get<double>(),
                     static_cast<double>(busy) / static_cast<double>(cycles));
    char line[96];
    std::snprintf(line, sizeof line, "%-24s%12llu%9s%10llu\n", b["name"].get<std::string>().c_str(),
                  static_cast<unsigned long long>(busy),
                  percent(static_cast<double>(busy), static_cast<double>(cycles)).c_str(),
                  static_cast<unsigned long long>(b["accesses"].get<std::uint64_t>()));
    has(line);
  }
  // A processor's shares: each state's cycles over the sum of the five.
  ASSERT_FALSE(st["processors"].empty());
  for (const json& p : st["processors"]) {
    const char* states[] = {"compute", "memory", "sync", "message", "idle"};
    double total = 0;
    for (const char* state : states) {
      total += p[state].get<double>();
    }
    char line[160];
    int at = std::snprintf(line, sizeof line, "%-24s", p["name"].get<std::string>().c_str());
    for (const char* state : states) {
      at += std::snprintf(line + at, sizeof line - static_cast<std::size_t>(at), "%9s",
                          percent(p[state].get<double>(), total).c_str());
    }
    has(std::string(line) + "\n");
  }
  // The step table: a row per step, each step's cycles its end minus the previous end, then a
  // blank line (no row past the last step).
  std::uint64_t previous = 0;
  std::string step_table = "  step       end    cycles\n";
  for (std::size_t k = 0; k < st["step_ends"].size(); ++k) {
    const std::uint64_t end = st["step_ends"][k];
    char line[64];
    std::snprintf(line, sizeof line, "%6zu%10llu%10llu\n", k + 1,
                  static_cast<unsigned long long>(end),
                  static_cast<unsigned long long>(end - previous));
    step_table += line;
    previous = end;
  }
  ASSERT_GT(st["step_ends"].size(), 1u);
  has(step_table + "\n");
  has("accesses " + st["accesses"].dump() + ", words " + st["words"].dump() + ", conflicts " +
      st["conflicts"].dump() + " (" + st["conflict_wait_cycles"].dump() + " cycles waiting)\n");

  ASSERT_EQ(run("traffic --topology mesh --dims 3x3 --rate 0.1 --warmup 50 --cycles 300 "
                "--trace t.trace")
                .exit_code,
            0);
  const json traffic_stats = stats("t.trace");
  const json& l = traffic_stats["latency"];
  const auto traffic = run("trace stats t.trace");
  ASSERT_EQ(traffic.exit_code, 0) << traffic.err;
  char line[160];
  std::snprintf(line, sizeof line,
                "latency (%llu measured messages): min %llu  mean %.2f  p50 %llu"
                "  p99 %llu  max %llu\n",
                static_cast<unsigned long long>(l["count"].get<std::uint64_t>()),
                static_cast<unsigned long long>(l["min"].get<std::uint64_t>()),
                l["mean"].get<double>(),
                static_cast<unsigned long long>(l["p50"].get<std::uint64_t>()),
                static_cast<unsigned long long>(l["p99"].get<std::uint64_t>()),
                static_cast<unsigned long long>(l["max"].get<std::uint64_t>()));
  EXPECT_NE(traffic.out.find(line), std::string::npos) << line << " in\n" << traffic.out;
  // The histogram: bin k holds latencies min + k w .. min + (k + 1) w - 1, its bar 40 '#' at the
  // fullest bin.
  const std::uint64_t min = l["min"], width = l["bin_width"];
  std::uint64_t peak = 0;
  for (const json& h : l["histogram"]) {
    peak = std::max(peak, h.get<std::uint64_t>());
  }
  ASSERT_GT(l["histogram"].size(), 1u);
  std::string bins;  // every bin's line, then the busiest channels: no line past the last bin
  for (std::size_t k = 0; k < l["histogram"].size(); ++k) {
    const std::uint64_t count = l["histogram"][k], lo = min + k * width;
    char bin[96];
    std::snprintf(bin, sizeof bin, "  %8llu..%-8llu%8llu ", static_cast<unsigned long long>(lo),
                  static_cast<unsigned long long>(lo + width - 1),
                  static_cast<unsigned long long>(count));
    const std::string bin_line = bin + std::string(40 * count / peak, '#') + "\n";
    EXPECT_NE(traffic.out.find(bin_line), std::string::npos) << bin_line << " in\n" << traffic.out;
    bins += bin_line;
  }
  EXPECT_NE(traffic.out.find(bins + "busiest channels"), std::string::npos) << traffic.out;
  // The nodes of a traffic run run no program: one line says so instead of a row of 100 % idle
  // per node, and a network, which has no bus, gets no line of accesses.
  ASSERT_EQ(traffic_stats["processors"].size(), 9u);
  for (const json& p : traffic_stats["processors"]) {
    EXPECT_EQ(p["compute"].get<std::uint64_t>() + p["memory"].get<std::uint64_t>() +
                  p["sync"].get<std::uint64_t>() + p["message"].get<std::uint64_t>(),
              0u);
  }
  EXPECT_NE(traffic.out.find("1 run\n\nprocessors 9, idle throughout (no program ran)\n\n"),
            std::string::npos)
      << traffic.out;
  EXPECT_EQ(traffic.out.find("compute"), std::string::npos) << traffic.out;
  EXPECT_EQ(traffic.out.find("accesses "), std::string::npos) << traffic.out;
  // A channel's utilization is its flits over the run's cycles; the text lists the 8 busiest,
  // most flits first (ties in the JSON's order).
  const std::uint64_t traffic_cycles = traffic_stats["cycles"];
  std::vector<json> busiest(traffic_stats["channels"].begin(), traffic_stats["channels"].end());
  ASSERT_GT(busiest.size(), 8u);
  for (const json& c : busiest) {
    EXPECT_DOUBLE_EQ(c["utilization"].get<double>(),
                     c["flits"].get<double>() / static_cast<double>(traffic_cycles));
  }
  std::stable_sort(busiest.begin(), busiest.end(), [](const json& a, const json& b) {
    return a["flits"].get<std::uint64_t>() > b["flits"].get<std::uint64_t>();
  });
  busiest.resize(8);
  std::string listed = "busiest channels (flits, utilization, packets):\n";
  for (const json& c : busiest) {
    char channel[128];
    std::snprintf(channel, sizeof channel, "  %-28s%8llu%8.1f%%%8llu\n",
                  c["name"].get<std::string>().c_str(),
                  static_cast<unsigned long long>(c["flits"].get<std::uint64_t>()),
                  100.0 * c["flits"].get<double>() / static_cast<double>(traffic_cycles),
                  static_cast<unsigned long long>(c["packets"].get<std::uint64_t>()));
    listed += channel;
  }
  EXPECT_NE(traffic.out.find(listed), std::string::npos) << listed << " in\n" << traffic.out;
}

TEST_F(TraceCli, TablesWriteOneTraceForEveryRun) {
  const json t = run_json("tables --topology torus --m 16 --n 4 --l 2 --trace tab.trace");
  const json st = stats("tab.trace");
  // One run line per network, after the omp systems that run side by side from cycle 0: every
  // row's direct program, and the collectives a torus row tries (docs/tables.md): the all-to-all
  // broadcast's row-then-column gather, the all-to-all personalized's A1, [6] and two-phase.
  const std::map<std::string, std::size_t> collectives_tried = {{"all-to-all broadcast", 1},
                                                                {"all-to-all personalized", 3}};
  std::size_t networks = 0;
  for (const json& row : t["rows"]) {
    const auto tried = collectives_tried.find(row["pattern"].get<std::string>());
    networks += 1 + (tried == collectives_tried.end() ? 0 : tried->second);
  }
  EXPECT_EQ(st["runs"].get<std::size_t>(), networks);
  EXPECT_EQ(st["messages_sent"], st["messages_delivered"]);
  EXPECT_GT(st["messages_sent"].get<std::uint64_t>(), 0u);
  // Each omp system (mp<i>_omp, row i) works from 0 until its last processor finishes: the row's
  // omp cycles.
  for (std::size_t i = 0; i < t["rows"].size(); ++i) {
    const std::string prefix = "mp" + std::to_string(i) + "_omp.p";
    std::uint64_t finish = 0;
    for (const json& p : st["processors"]) {
      if (p["name"].get<std::string>().rfind(prefix, 0) == 0) {
        finish =
            std::max(finish, st["cycles"].get<std::uint64_t>() - p["idle"].get<std::uint64_t>());
      }
    }
    EXPECT_EQ(finish, t["rows"][i]["omp_cycles"].get<std::uint64_t>()) << "row " << i;
  }
}

TEST_F(TraceCli, SameRunSameBytes) {
  ASSERT_EQ(run("run " + kFig2 + " --arch omp --trace x.trace").exit_code, 0);
  ASSERT_EQ(run("run " + kFig2 + " --arch omp --trace y.trace").exit_code, 0);
  EXPECT_EQ(slurp(dir_ / "x.trace"), slurp(dir_ / "y.trace"));
  EXPECT_FALSE(std::filesystem::exists(dir_ / "x.trace.partial"));
  EXPECT_EQ(run("trace diff x.trace y.trace").exit_code, 0);
  const json d = run_json("trace diff x.trace y.trace");
  EXPECT_TRUE(d["equal"].get<bool>());
  EXPECT_EQ(d["cycles"]["difference"], 0);
  EXPECT_TRUE(d["first_divergence"].is_null());
}

// The totals of trace diff are a table: every row as wide as its header, so that A and B stay in
// their columns (the longest label, "network messages delivered", pushed its numbers right).
// Two traces of different step counts: a row per step of the longer, each trace's cycles only
// where it has the step, the difference only where both do; the text's table likewise.
TEST_F(TraceCli, DiffOfTracesWithDifferentStepCountsShowsEachStepOnce) {
  ASSERT_EQ(run("run " + kFig2 + " --arch omp --trace a.trace").exit_code, 0);
  ASSERT_EQ(run("gen random --nodes 4 --steps 8 --len 2 --out r.mcp").exit_code, 0);
  ASSERT_EQ(run("run r.mcp --arch omp --trace b.trace").exit_code, 0);
  const json sa = stats("a.trace");
  const json sb = stats("b.trace");
  const std::size_t na = sa["step_ends"].size();
  const std::size_t nb = sb["step_ends"].size();
  ASSERT_LT(na, nb);
  const auto step_cycles = [](const json& ends, std::size_t k) {
    return ends[k].get<std::uint64_t>() - (k == 0 ? 0 : ends[k - 1].get<std::uint64_t>());
  };
  const auto d = run("trace diff a.trace b.trace --json");
  EXPECT_EQ(d.exit_code, 1) << d.err;
  const json steps = json::parse(d.out)["steps"];
  ASSERT_EQ(steps.size(), nb);
  std::string table = "\n  step         A         B     B - A\n";
  for (std::size_t k = 0; k < nb; ++k) {
    const json& row = steps[k];
    EXPECT_EQ(row["step"], k + 1);
    EXPECT_EQ(row.contains("a"), k < na) << row.dump();
    EXPECT_EQ(row.contains("difference"), k < na) << row.dump();
    EXPECT_EQ(row["b"], step_cycles(sb["step_ends"], k));
    const std::uint64_t b = step_cycles(sb["step_ends"], k);
    char line[64];
    if (k < na) {
      const std::uint64_t a = step_cycles(sa["step_ends"], k);
      EXPECT_EQ(row["a"], a);
      EXPECT_EQ(row["difference"], static_cast<std::int64_t>(b) - static_cast<std::int64_t>(a));
      std::snprintf(line, sizeof line, "%6zu%10llu%10llu%10lld\n", k + 1,
                    static_cast<unsigned long long>(a), static_cast<unsigned long long>(b),
                    static_cast<long long>(b) - static_cast<long long>(a));
    } else {
      std::snprintf(line, sizeof line, "%6zu%10s%10llu%10s\n", k + 1, "-",
                    static_cast<unsigned long long>(b), "-");
    }
    table += line;
  }
  const auto text = run("trace diff a.trace b.trace");
  EXPECT_EQ(text.exit_code, 1) << text.err;
  EXPECT_NE(text.out.find(table + "\n"), std::string::npos) << table << "in\n" << text.out;
}

// The totals of a diff are each trace's own statistics, in JSON and in the text's columns; the
// first divergence names each file's line of it: the omp's and the bus's first events differ (the
// systems' names), on the lines where each file's events begin.
TEST_F(TraceCli, DiffTotalsAndTheFirstDivergenceAreEachTracesOwn) {
  ASSERT_EQ(run("run " + kFig2 + " --arch omp --trace a.trace").exit_code, 0);
  ASSERT_EQ(run("run " + kFig2 + " --arch bus --trace b.trace").exit_code, 0);
  const json sa = stats("a.trace");
  const json sb = stats("b.trace");
  ASSERT_NE(sa["conflicts"], sb["conflicts"]);  // the single bus waits more
  const auto d = run("trace diff a.trace b.trace --json");
  EXPECT_EQ(d.exit_code, 1) << d.err;
  const json j = json::parse(d.out);
  for (const char* total : {"accesses", "words", "conflicts", "messages_delivered"}) {
    EXPECT_EQ(j["totals"][total], json::array({sa[total], sb[total]})) << total;
  }
  // Latencies are the network's: the mesh's mean beside the omp's none.
  ASSERT_EQ(run("run " + kFig2 + " --arch mesh --dims 2x2 --trace m.trace").exit_code, 0);
  const json sm = stats("m.trace");
  ASSERT_GT(sm["latency"]["mean"].get<double>(), 0.0);
  const json mesh = json::parse(run("trace diff a.trace m.trace --json").out);
  EXPECT_DOUBLE_EQ(mesh["totals"]["latency_mean"][0].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(mesh["totals"]["latency_mean"][1].get<double>(),
                   sm["latency"]["mean"].get<double>());
  // A file's events are its lines that begin with their cycle.
  const auto event_lines = [this](const std::string& name) {
    std::istringstream in(slurp(dir_ / name));
    std::vector<std::size_t> lines;
    std::size_t number = 0;
    for (std::string line; std::getline(in, line);) {
      ++number;
      if (!line.empty() && line[0] >= '0' && line[0] <= '9') {
        lines.push_back(number);
      }
    }
    return lines;
  };
  const std::vector<std::size_t> la = event_lines("a.trace");
  const std::vector<std::size_t> lb = event_lines("b.trace");
  ASSERT_FALSE(la.empty());
  ASSERT_FALSE(lb.empty());
  ASSERT_NE(la[0], lb[0]);  // the bus declares fewer sources
  EXPECT_EQ(j["events"], json::object({{"a", la.size()}, {"b", lb.size()}}));
  EXPECT_EQ(j["first_divergence"]["event"], 0);
  EXPECT_EQ(j["first_divergence"]["line_a"], la[0]);
  EXPECT_EQ(j["first_divergence"]["line_b"], lb[0]);
  const auto text = run("trace diff a.trace b.trace");
  const auto row = [&text](const std::string& name, std::uint64_t a, std::uint64_t b) {
    char line[96];
    std::snprintf(line, sizeof line, "\n%-28s%12llu%12llu\n", name.c_str(),
                  static_cast<unsigned long long>(a), static_cast<unsigned long long>(b));
    EXPECT_NE(text.out.find(line), std::string::npos) << line << "in\n" << text.out;
  };
  row("cycles", sa["cycles"], sb["cycles"]);
  row("events", la.size(), lb.size());
  row("accesses", sa["accesses"], sb["accesses"]);
  row("words", sa["words"], sb["words"]);
  row("conflicts", sa["conflicts"], sb["conflicts"]);
  row("network messages delivered", sa["messages_delivered"], sb["messages_delivered"]);
  EXPECT_NE(text.out.find("\nfirst divergence at event 1:\n  A line " + std::to_string(la[0]) +
                          ": 0 act omp."),
            std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("\n  B line " + std::to_string(lb[0]) + ": 0 act bus."),
            std::string::npos)
      << text.out;
}

// A VCD has no access events: its buses' accesses are "-" in the text, their busy cycles read
// from the waveform.
TEST_F(TraceCli, StatsOfAWaveformLeaveTheBusesAccessesOpen) {
  ASSERT_EQ(run("run " + kFig2 + " --arch omp --vcd w.vcd").exit_code, 0);
  const json st = stats("w.vcd");
  const auto text = run("trace stats w.vcd");
  ASSERT_FALSE(st["buses"].empty());
  for (const json& b : st["buses"]) {
    char line[96];
    std::snprintf(line, sizeof line, "%-24s%12llu%9s%10s\n", b["name"].get<std::string>().c_str(),
                  static_cast<unsigned long long>(b["busy_cycles"].get<std::uint64_t>()), "", "-");
    const std::string shown = line;
    // The utilization column between the busy cycles and the dash is checked elsewhere.
    const std::size_t at = text.out.find(shown.substr(0, 36));
    ASSERT_NE(at, std::string::npos) << shown << "in\n" << text.out;
    EXPECT_EQ(text.out.substr(at + 45, 11), std::string(9, ' ') + "-\n") << text.out;
  }
}

// The busiest channels are those of the most flits, not of the most packets: on a line of 4, one
// message of 10 words from node 0 against two of 1 word from node 2.
TEST_F(TraceCli, TheBusiestChannelsAreThoseOfTheMostFlits) {
  write("lengths.mcp", "nodes 4\nstep long\n  send 0 -> 1 words 10\nstep short\n  send 2 -> 3\n"
                       "step again\n  send 2 -> 3\n");
  ASSERT_EQ(run("run lengths.mcp --arch mesh --dims 4 --trace l.trace").exit_code, 0);
  const json st = stats("l.trace");
  const json* most_flits = nullptr;
  const json* most_packets = nullptr;
  for (const json& c : st["channels"]) {
    if (most_flits == nullptr || c["flits"] > (*most_flits)["flits"]) {
      most_flits = &c;
    }
    if (most_packets == nullptr || c["packets"] > (*most_packets)["packets"]) {
      most_packets = &c;
    }
  }
  ASSERT_NE(most_flits, nullptr);
  ASSERT_NE((*most_flits)["name"], (*most_packets)["name"]);
  const auto text = run("trace stats l.trace");
  const std::size_t at = text.out.find("busiest channels (flits, utilization, packets):\n  ");
  ASSERT_NE(at, std::string::npos) << text.out;
  const std::string first = (*most_flits)["name"];
  EXPECT_EQ(text.out.substr(at + 50, first.size() + 1), first + " ") << text.out;
}

// One measured message: its bin is the fullest, a bar of 40 marks.
TEST_F(TraceCli, TheFullestLatencyBinHasFortyMarksThoughItHoldsOneMessage) {
  write("one.mcp", "nodes 2\nstep s\n  send 0 -> 1\n");
  ASSERT_EQ(run("run one.mcp --arch mesh --dims 2 --trace one.trace").exit_code, 0);
  const json st = stats("one.trace");
  ASSERT_EQ(st["latency"]["count"], 1);
  const auto text = run("trace stats one.trace");
  EXPECT_NE(text.out.find("       1 " + std::string(40, '#') + "\n"), std::string::npos)
      << text.out;
}

// A network trace whose channels are not declared still counts its messages as the network's.
TEST_F(TraceCli, StatsCountsTheNetworksMessagesWithoutItsChannels) {
  ASSERT_EQ(run("run " + kFig2 + " --arch mesh --dims 2x2 --trace m.trace").exit_code, 0);
  std::istringstream in(slurp(dir_ / "m.trace"));
  std::vector<std::string> kept;
  for (std::string line; std::getline(in, line);) {
    if (line.find(" channel ") == std::string::npos && line.find(" hop ") == std::string::npos) {
      kept.push_back(line);
    }
  }
  // The last delivery dropped too: one message sent and not delivered.
  const auto last_delivery = std::find_if(kept.rbegin(), kept.rend(), [](const std::string& line) {
    return line.find(" deliver ") != std::string::npos;
  });
  ASSERT_NE(last_delivery, kept.rend());
  kept.erase(std::next(last_delivery).base());
  std::string text_of_trace;
  for (const std::string& line : kept) {
    text_of_trace += line + "\n";
  }
  write("n.trace", text_of_trace);
  const json st = stats("n.trace");
  EXPECT_TRUE(st["channels"].empty());
  EXPECT_EQ(st["messages_sent"], 13);
  EXPECT_EQ(st["messages_delivered"], 12);
  const auto text = run("trace stats n.trace");
  EXPECT_NE(text.out.find("\nnetwork messages sent 13, delivered 12,"), std::string::npos)
      << text.out;
}

TEST_F(TraceCli, DiffTotalsKeepTheirColumns) {
  ASSERT_EQ(run("access --n 2 --trace x.trace").exit_code, 0);
  const auto d = run("trace diff x.trace x.trace");
  ASSERT_EQ(d.exit_code, 0) << d.err;
  std::istringstream in(d.out);
  std::string line;
  std::size_t header = 0;
  std::vector<std::string> rows;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(' ') != std::string::npos && line[0] == ' ' &&
        line.substr(line.find_first_not_of(' ')).rfind("A ", 0) == 0) {
      header = line.size();
    } else if (header > 0 && !line.empty()) {
      rows.push_back(line);
    }
  }
  ASSERT_GT(header, 0u) << d.out;
  ASSERT_EQ(rows.size(), 6u) << d.out;
  for (const std::string& row : rows) {
    EXPECT_EQ(row.size(), header) << row;
  }
}

TEST_F(TraceCli, DiffOfTwoConfigurationsOneCycleApart) {
  // Scalar accesses (Fig. 5(a), alpha + tau): each processor writes, then reads back, so alpha
  // 16 against alpha 17 costs one cycle more per access, two in all.
  ASSERT_EQ(run("access --kind scalar --alpha 16 --trace a16.trace").exit_code, 0);
  ASSERT_EQ(run("access --kind scalar --alpha 17 --trace a17.trace").exit_code, 0);
  const auto d = run("trace diff a16.trace a17.trace --json");
  EXPECT_EQ(d.exit_code, 1) << d.err;
  const json j = json::parse(d.out);
  EXPECT_FALSE(j["equal"].get<bool>());
  EXPECT_EQ(j["cycles"]["difference"], 2);
  const std::string a = j["first_divergence"]["a"];
  const std::string b = j["first_divergence"]["b"];
  EXPECT_NE(a.find(" acc "), std::string::npos) << a;
  EXPECT_NE(b.find(" acc "), std::string::npos) << b;
}

/// Adds one cycle to every cycle of the trace from cycle `from` on: a one-cycle delay injected
/// into the step that runs at `from`.
std::string delay_from(const std::string& trace, std::uint64_t from) {
  std::istringstream in(trace);
  std::ostringstream out;
  std::string line;
  const auto shift = [from](const std::string& t) {
    const std::uint64_t v = std::stoull(t);
    return std::to_string(v >= from ? v + 1 : v);
  };
  while (std::getline(in, line)) {
    if (line.empty() || line[0] < '0' || line[0] > '9') {
      out << line << '\n';
      continue;
    }
    std::istringstream fields(line);
    std::vector<std::string> f;
    std::string t;
    while (fields >> t) {
      f.push_back(t);
    }
    f[0] = shift(f[0]);
    if (f[1] == "acc") {
      f[2] = shift(f[2]);  // end
      f[8] = shift(f[8]);  // requested
    }
    for (std::size_t i = 0; i < f.size(); ++i) {
      out << (i > 0 ? " " : "") << f[i];
    }
    out << '\n';
  }
  return out.str();
}

TEST_F(TraceCli, DiffFindsAnInjectedOneCycleDifferenceAtItsStep) {
  const json r = run_json("run " + kFig2 + " --arch omp --trace a.trace");
  // Inside step 3: after step 2 ended, before step 3 ends.
  const std::uint64_t step2_end = r["steps"][1]["end_cycle"];
  const std::uint64_t step3_end = r["steps"][2]["end_cycle"];
  ASSERT_LT(step2_end + 1, step3_end);
  write("b.trace", delay_from(slurp(dir_ / "a.trace"), step2_end + 1));
  const auto d = run("trace diff a.trace b.trace --json");
  ASSERT_EQ(d.exit_code, 1) << d.err;
  const json j = json::parse(d.out);
  ASSERT_EQ(j["steps"].size(), r["steps"].size());
  for (std::size_t k = 0; k < j["steps"].size(); ++k) {
    EXPECT_EQ(j["steps"][k]["difference"], k == 2 ? 1 : 0) << "step " << k + 1;
  }
  EXPECT_EQ(j["cycles"]["difference"], 1);
  // The first event that moved is the first one at or after the injected cycle.
  std::istringstream in(slurp(dir_ / "a.trace"));
  std::string line;
  std::uint64_t n = 0;
  std::uint64_t expected_line = 0;
  while (std::getline(in, line)) {
    ++n;
    if (line[0] >= '0' && line[0] <= '9' && std::stoull(line) >= step2_end + 1) {
      expected_line = n;
      break;
    }
  }
  EXPECT_EQ(j["first_divergence"]["line_a"], expected_line);
  EXPECT_EQ(j["first_divergence"]["line_b"], expected_line);
  // Steps are numbered from 1; each side's cycles are its step's end minus the one before.
  std::uint64_t previous = 0;
  for (std::size_t k = 0; k < j["steps"].size(); ++k) {
    const std::uint64_t end = r["steps"][k]["end_cycle"];
    EXPECT_EQ(j["steps"][k]["step"], k + 1);
    EXPECT_EQ(j["steps"][k]["a"], end - previous) << "step " << k + 1;
    EXPECT_EQ(j["steps"][k]["b"], end - previous + (k == 2 ? 1 : 0)) << "step " << k + 1;
    previous = end;
  }
  // Text output names the step too.
  const auto text = run("trace diff a.trace b.trace");
  EXPECT_EQ(text.exit_code, 1);
  EXPECT_NE(text.out.find("first divergence"), std::string::npos);
}

// Two traces written here, of 3 and 2 events: they first differ at the second event (event 1
// counted from 0 in the JSON, event 2 in the text), on line 6 of both files.
TEST_F(TraceCli, DiffCountsEachTracesEventsAndNumbersTheFirstDivergence) {
  const std::string header =
      "orthosim-trace 1\nclock-ns 50\nsource 0 processor omp.p0\nsource 1 bus omp.rb0\n";
  write("three.trace", header + "0 act 0 compute 0\n5 act 0 idle 1\n10 end\n");
  write("two.trace", header + "0 act 0 compute 0\n10 end\n");
  const auto d = run("trace diff three.trace two.trace --json");
  EXPECT_EQ(d.exit_code, 1) << d.err;
  const json j = json::parse(d.out);
  EXPECT_EQ(j["events"]["a"], 3);
  EXPECT_EQ(j["events"]["b"], 2);
  EXPECT_EQ(j["first_divergence"]["event"], 1);
  EXPECT_EQ(j["first_divergence"]["line_a"], 6);
  EXPECT_EQ(j["first_divergence"]["line_b"], 6);
  const auto text = run("trace diff three.trace two.trace");
  EXPECT_EQ(text.exit_code, 1);
  EXPECT_NE(text.out.find("\nfirst divergence at event 2:\n  A line 6: 5 act omp.p0 idle 1\n  B "
                          "line 6: 10 end\n"),
            std::string::npos)
      << text.out;
  // The totals are each trace's own, as trace stats gives them: a program's run against an
  // access workload's.
  ASSERT_EQ(run("run " + kFig2 + " --arch torus --dims 2x2 --trace net.trace").exit_code, 0);
  ASSERT_EQ(run("access --kind scalar --trace acc.trace").exit_code, 0);
  const auto both = run("trace diff net.trace acc.trace --json");
  EXPECT_EQ(both.exit_code, 1) << both.err;
  const json totals = json::parse(both.out)["totals"];
  const json net = stats("net.trace"), acc = stats("acc.trace");
  for (const char* field : {"accesses", "words", "conflicts", "messages_delivered"}) {
    EXPECT_EQ(totals[field], json::array({net[field], acc[field]})) << field;
  }
}

TEST_F(TraceCli, MalformedTracesNameFileLineColumn) {
  const std::string header =
      "orthosim-trace 1\nclock-ns 50\nsource 0 processor omp.p0\nsource 1 bus omp.rb0\n";
  struct Case {
    std::string text;
    std::string where;
  };
  const std::vector<Case> cases = {
      {"orthosim-trace 2\nclock-ns 50\n", "bad.trace:1:16"},
      {"vcd\n", "bad.trace:1:1"},
      {header + "0 act 0 compute 0\n5 act 0 sleep 1\n10 end\n", "bad.trace:6:9"},
      {header + "0 act 7 compute 0\n10 end\n", "bad.trace:5:7"},
      {header + "0 act 1 compute 0\n10 end\n", "bad.trace:5:7"},
      {header + "5 act 0 compute 0\n4 act 0 idle 1\n10 end\n", "bad.trace:6:1"},
      {header + "0 act 0 compute x\n10 end\n", "bad.trace:5:17"},
      {header + "0 act 0 compute 0\n", "bad.trace:5:1"},
      {header + "0 act 0 compute 0 9\n10 end\n", "bad.trace:5:19"},
      {header + "0 jump 0\n10 end\n", "bad.trace:5:3"},
  };
  for (const Case& c : cases) {
    write("bad.trace", c.text);
    for (const char* action : {"stats", "export", "diff", "plot"}) {
      std::string args = std::string("trace ") + action + " bad.trace";
      if (std::string(action) == "export") {
        args += " --perfetto out.json";
      } else if (std::string(action) == "diff") {
        args += " bad.trace";
      } else if (std::string(action) == "plot") {
        args += " --out plots";
      }
      const auto r = run(args);
      EXPECT_EQ(r.exit_code, 2) << args << " on\n" << c.text;
      EXPECT_NE(r.err.find(c.where + ": expected"), std::string::npos)
          << args << ": " << r.err << " on\n"
          << c.text;
    }
    EXPECT_FALSE(std::filesystem::exists(dir_ / "out.json"));
  }
}

TEST_F(TraceCli, BadArgumentsAreRejected) {
  EXPECT_EQ(run("trace").exit_code, 2);
  EXPECT_EQ(run("trace frobnicate x").exit_code, 2);
  EXPECT_EQ(run("trace stats").exit_code, 2);
  // A file that is neither an event trace nor a VCD (here a program) is told both were expected.
  std::ofstream(dir_ / "p.mcp") << "# a program\nnodes 2\n";
  const auto program = run("trace stats p.mcp");
  EXPECT_EQ(program.exit_code, 2);
  EXPECT_NE(program.err.find("p.mcp:1:1: expected '$version' (a VCD) or an event trace's first "
                             "line, found '#'\n"),
            std::string::npos)
      << program.err;
  // One file too many is named as plainly as one too few.
  EXPECT_EQ(run("trace plot --out pl").err,
            "orthosim trace: plot: expected one event trace, or one or more JSONs of orthosim "
            "traffic --rates ... --json, found 0 file arguments\n");
  EXPECT_EQ(
      run("trace stats a.trace b.trace").err,
      "orthosim trace: stats: expected one event trace or VCD file, found 2 file arguments\n");
  EXPECT_EQ(run("trace diff a.trace b.trace c.trace").err,
            "orthosim trace: diff: expected two event trace files, found 3 file arguments\n");
  EXPECT_EQ(run("trace diff one").exit_code, 2);
  EXPECT_NE(
      run("trace diff one").err.find("expected two event trace files, found 1 file argument\n"),
      std::string::npos);
  const auto missing = run("trace stats nothing.trace");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("nothing.trace"), std::string::npos);
  const auto no_perfetto = run("trace export x.trace");
  EXPECT_EQ(no_perfetto.exit_code, 2);
  EXPECT_NE(no_perfetto.err.find("--perfetto"), std::string::npos) << no_perfetto.err;
  const auto no_folder = run("trace plot x.trace");
  EXPECT_EQ(no_folder.exit_code, 2);
  EXPECT_NE(no_folder.err.find("--out"), std::string::npos) << no_folder.err;
  // trace plot of a file that is plainly not JSON says what it is, not "a syntax error".
  ASSERT_EQ(run("access --n 2 --vcd w.vcd").exit_code, 0);
  std::ofstream(dir_ / "empty.json") << "";
  EXPECT_EQ(run("trace plot w.vcd --out pl").err,
            "orthosim trace: w.vcd:1:1: expected the JSON of orthosim traffic --json, found "
            "'$version', a VCD (trace stats reads waveforms; trace plot draws event traces and "
            "traffic JSONs)\n");
  EXPECT_EQ(
      run("trace plot empty.json --out pl").err,
      "orthosim trace: empty.json:1:1: expected the JSON of orthosim traffic --json, found an "
      "empty file\n");
  EXPECT_FALSE(std::filesystem::exists(dir_ / "pl"));
  const auto no_out = run("access --kind scalar --trace missing/dir/x.trace");
  EXPECT_EQ(no_out.exit_code, 2) << no_out.err;
  EXPECT_NE(no_out.err.find("--trace"), std::string::npos) << no_out.err;
}

/// Chrome trace-event format: every event has name, ph, ts, pid, tid; "X" has a non-negative dur;
/// complete events on one track nest (each is inside the previous one or starts after it ends);
/// every track that has events is named by a thread_name metadata event.
void validate_trace_events(const json& doc, std::size_t* tracks_out) {
  ASSERT_TRUE(doc.contains("traceEvents"));
  std::map<std::pair<int, int>, std::vector<std::pair<double, double>>> tracks;
  std::set<std::pair<int, int>> named;
  for (const json& e : doc["traceEvents"]) {
    for (const char* k : {"name", "ph", "ts", "pid", "tid"}) {
      ASSERT_TRUE(e.contains(k)) << k << " missing in " << e.dump();
    }
    ASSERT_TRUE(e["ts"].is_number());
    const std::pair<int, int> track{e["pid"].get<int>(), e["tid"].get<int>()};
    if (e["ph"] == "M") {
      if (e["name"] == "thread_name") {
        named.insert(track);
      }
      continue;
    }
    ASSERT_EQ(e["ph"], "X") << e.dump();
    ASSERT_TRUE(e.contains("dur") && e["dur"].is_number()) << e.dump();
    ASSERT_GE(e["dur"].get<double>(), 0.0);
    tracks[track].emplace_back(e["ts"].get<double>(),
                               e["ts"].get<double>() + e["dur"].get<double>());
  }
  constexpr double kEps = 1e-6;
  for (auto& [track, events] : tracks) {
    EXPECT_TRUE(named.count(track)) << "track " << track.first << "/" << track.second;
    std::sort(events.begin(), events.end());
    std::vector<double> open_ends;
    for (const auto& [start, end] : events) {
      while (!open_ends.empty() && open_ends.back() <= start + kEps) {
        open_ends.pop_back();
      }
      if (!open_ends.empty()) {
        EXPECT_LE(end, open_ends.back() + kEps) << "overlap on track " << track.second;
      }
      open_ends.push_back(end);
    }
  }
  *tracks_out = tracks.size();
}

TEST_F(TraceCli, PerfettoExportIsValidTraceEventJson) {
  ASSERT_EQ(run("run " + kFig2 + " --arch omp --trace a.trace").exit_code, 0);
  ASSERT_EQ(run("trace export a.trace --perfetto a.json").exit_code, 0);
  std::size_t tracks = 0;
  validate_trace_events(json::parse(slurp(dir_ / "a.json")), &tracks);
  // Four processors and the buses they used.
  EXPECT_GE(tracks, 4u + 1u);
  ASSERT_EQ(run("traffic --topology torus --dims 4x4 --rate 0.2 --warmup 100 --cycles 500 "
                "--trace t.trace")
                .exit_code,
            0);
  ASSERT_EQ(run("trace export t.trace --perfetto t.json").exit_code, 0);
  validate_trace_events(json::parse(slurp(dir_ / "t.json")), &tracks);
  EXPECT_GT(tracks, 16u) << "router port tracks";
  EXPECT_FALSE(std::filesystem::exists(dir_ / "t.json.partial"));
}

/// SVG parsed back with expat: the ids of its <g> elements and the count of each element.
struct SvgContent {
  std::set<std::string> groups;
  std::map<std::string, std::size_t> elements;
  bool ok = false;
};

SvgContent parse_svg(const std::string& text) {
  SvgContent c;
  XML_Parser p = XML_ParserCreate(nullptr);
  XML_SetUserData(p, &c);
  XML_SetStartElementHandler(p, [](void* data, const XML_Char* name, const XML_Char** attrs) {
    auto* content = static_cast<SvgContent*>(data);
    ++content->elements[name];
    if (std::string(name) == "g") {
      for (std::size_t i = 0; attrs[i] != nullptr; i += 2) {
        if (std::string(attrs[i]) == "id") {
          content->groups.insert(attrs[i + 1]);
        }
      }
    }
  });
  c.ok = XML_Parse(p, text.data(), static_cast<int>(text.size()), 1) == XML_STATUS_OK;
  XML_ParserFree(p);
  return c;
}

TEST_F(TraceCli, PlotWritesWellFormedSvg) {
  ASSERT_EQ(run("run " + kFig2 + " --arch omp --trace a.trace").exit_code, 0);
  ASSERT_EQ(run("trace plot a.trace --out plots").exit_code, 0);
  const SvgContent timeline = parse_svg(slurp(dir_ / "plots" / "timeline.svg"));
  ASSERT_TRUE(timeline.ok);
  for (int p = 0; p < 4; ++p) {
    EXPECT_TRUE(timeline.groups.count("row-omp.p" + std::to_string(p))) << p;
  }
  EXPECT_TRUE(timeline.groups.count("row-omp.rb0"));
  EXPECT_GT(timeline.elements.at("rect"), 8u);

  ASSERT_EQ(run("traffic --topology torus --dims 4x4 --rate 0.2 --warmup 100 --cycles 500 "
                "--trace t.trace")
                .exit_code,
            0);
  ASSERT_EQ(run("trace plot t.trace --out net").exit_code, 0);
  const SvgContent channels = parse_svg(slurp(dir_ / "net" / "channels.svg"));
  ASSERT_TRUE(channels.ok);
  EXPECT_EQ(std::count_if(channels.groups.begin(), channels.groups.end(),
                          [](const std::string& g) { return g.rfind("router-", 0) == 0; }),
            16)
      << "one row per router";
  EXPECT_TRUE(channels.groups.count("router-torus.r(2,3)"));
  const SvgContent latency = parse_svg(slurp(dir_ / "net" / "latency.svg"));
  ASSERT_TRUE(latency.ok);
  EXPECT_TRUE(latency.groups.count("histogram"));

  const auto sweep = run("traffic --topology torus --dims 4x4 --rates 0.05,0.1,0.2 --warmup 100 "
                         "--cycles 500 --json");
  ASSERT_EQ(sweep.exit_code, 0);
  write("sweep.json", sweep.out);
  ASSERT_EQ(run("trace plot sweep.json --out curves").exit_code, 0);
  const SvgContent curve = parse_svg(slurp(dir_ / "curves" / "latency-throughput.svg"));
  ASSERT_TRUE(curve.ok);
  EXPECT_EQ(curve.elements.at("circle"), 6u) << "mean and p99 of three rates";
  EXPECT_EQ(curve.elements.at("polyline"), 2u);
}

/// The circles and texts of each <g id="curve-K"> of an SVG, read back with expat.
struct CurveContent {
  std::vector<std::pair<double, double>> circles;  ///< (cx, cy)
  std::vector<std::string> texts;
  std::size_t polylines = 0;
};

std::map<std::string, CurveContent> parse_curves(const std::string& text) {
  struct State {
    std::map<std::string, CurveContent> curves;
    std::string group;
    bool in_text = false;
  } state;
  XML_Parser p = XML_ParserCreate(nullptr);
  XML_SetUserData(p, &state);
  XML_SetElementHandler(
      p,
      [](void* data, const XML_Char* name, const XML_Char** attrs) {
        auto* s = static_cast<State*>(data);
        std::map<std::string, std::string> a;
        for (std::size_t i = 0; attrs[i] != nullptr; i += 2) {
          a[attrs[i]] = attrs[i + 1];
        }
        const std::string element = name;
        if (element == "g") {
          s->group = a["id"];
        } else if (!s->group.empty() && element == "circle") {
          s->curves[s->group].circles.emplace_back(std::stod(a["cx"]), std::stod(a["cy"]));
        } else if (!s->group.empty() && element == "polyline") {
          ++s->curves[s->group].polylines;
        } else if (!s->group.empty() && element == "text") {
          s->in_text = true;
          s->curves[s->group].texts.emplace_back();
        }
      },
      [](void* data, const XML_Char* name) {
        auto* s = static_cast<State*>(data);
        if (std::string(name) == "g") {
          s->group.clear();
        } else if (std::string(name) == "text") {
          s->in_text = false;
        }
      });
  XML_SetCharacterDataHandler(p, [](void* data, const XML_Char* chars, int len) {
    auto* s = static_cast<State*>(data);
    if (s->in_text && !s->group.empty()) {
      s->curves[s->group].texts.back().append(chars, static_cast<std::size_t>(len));
    }
  });
  EXPECT_EQ(XML_Parse(p, text.data(), static_cast<int>(text.size()), 1), XML_STATUS_OK);
  XML_ParserFree(p);
  return state.curves;
}

/// A traffic JSON with the given (accepted, mean latency) points, offered ascending.
std::string traffic_json(const std::vector<std::pair<double, double>>& points) {
  json j = {{"command", "traffic"},
            {"network", "hypercube d=8"},
            {"pattern", "transpose"},
            {"flits", 20}};
  j["points"] = json::array();
  double offered = 0;
  for (const auto& [accepted, mean] : points) {
    offered += 0.1;
    j["points"].push_back({{"offered", offered},
                           {"accepted", accepted},
                           {"latency_avg", mean},
                           {"latency_p99", 2 * mean}});
  }
  return j.dump(2);
}

// Several traffic JSONs in one figure: one group per file with one circle per rate and its
// label, the circles placed linearly in accepted throughput and logarithmically in mean latency
// (every pair of circles, across the curves, on one scale); bad input names its file.
TEST_F(TraceCli, PlotOfSeveralTrafficJsonsDrawsOneLabelledCurvePerFile) {
  const std::vector<std::vector<std::pair<double, double>>> data = {
      {{0.09, 30}, {0.11, 400}, {0.105, 9000}},
      {{0.1, 26}, {0.2, 28}, {0.3, 31}, {0.4, 35}},
      {{0.1, 27}, {0.28, 131}}};
  const std::vector<std::string> files = {"ecube.json", "ms.json", "mg.json"};
  for (std::size_t f = 0; f < files.size(); ++f) {
    write(files[f], traffic_json(data[f]));
  }
  ASSERT_EQ(run("trace plot ecube.json ms.json mg.json --labels e-cube,M-S,M-G --title Fig5 "
                "--out fig")
                .exit_code,
            0);
  const std::map<std::string, CurveContent> curves =
      parse_curves(slurp(dir_ / "fig" / "latency-throughput.svg"));
  ASSERT_EQ(curves.size(), 3u);
  const std::vector<std::string> labels = {"e-cube", "M-S", "M-G"};
  std::vector<std::pair<double, double>> drawn;  // (cx, cy) of every point, file by file
  std::vector<std::pair<double, double>> given;  // (accepted, log10 latency) of the same
  for (std::size_t f = 0; f < files.size(); ++f) {
    const std::string id = "curve-" + std::to_string(f + 1);
    ASSERT_TRUE(curves.count(id)) << id;
    const CurveContent& c = curves.at(id);
    ASSERT_EQ(c.circles.size(), data[f].size()) << id;
    EXPECT_EQ(c.polylines, 1u) << id;
    EXPECT_EQ(c.texts, std::vector<std::string>{labels[f]}) << id;
    for (std::size_t k = 0; k < data[f].size(); ++k) {
      drawn.push_back(c.circles[k]);
      given.emplace_back(data[f][k].first, std::log10(data[f][k].second));
    }
  }
  // The scales from the first point and the one farthest from it (the SVG holds 2 decimals).
  const double x_scale = (drawn[6].first - drawn[0].first) / (given[6].first - given[0].first);
  const double y_scale = (drawn[2].second - drawn[0].second) / (given[2].second - given[0].second);
  EXPECT_GT(x_scale, 0);
  EXPECT_LT(y_scale, 0) << "higher latency is drawn higher up";
  for (std::size_t k = 2; k < drawn.size(); ++k) {
    EXPECT_NEAR(drawn[k].first - drawn[0].first, x_scale * (given[k].first - given[0].first), 0.1)
        << "point " << k;
    EXPECT_NEAR(drawn[k].second - drawn[0].second, y_scale * (given[k].second - given[0].second),
                0.1)
        << "point " << k;
  }
  // Without --labels the curves are named by their files.
  ASSERT_EQ(run("trace plot ecube.json ms.json --out named").exit_code, 0);
  const auto named = parse_curves(slurp(dir_ / "named" / "latency-throughput.svg"));
  EXPECT_EQ(named.at("curve-2").texts, std::vector<std::string>{"ms.json"});

  write("broken.json", "{\n  \"command\": \"traffic\",,\n}\n");
  write("other.json", "{\"command\": \"run\"}\n");
  write("nan.json", R"({"command": "traffic", "points": [{"offered": 0.1, "accepted": "x",
    "latency_avg": 3, "latency_p99": 4}]})");
  ASSERT_EQ(run("traffic --topology hypercube --dim 2 --rate 0.1 --warmup 10 --cycles 50 --trace "
                "t.trace")
                .exit_code,
            0);
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"trace plot ecube.json broken.json mg.json --out bad", "broken.json:2:"},
      {"trace plot ecube.json other.json --out bad", "other.json:1:1: expected the output of"},
      {"trace plot nan.json ms.json --out bad", "nan.json:1:1: expected points with"},
      {"trace plot ecube.json missing.json --out bad", "missing.json"},
      {"trace plot ecube.json t.trace --out bad", "t.trace: expected the JSON of orthosim traffic"},
      {"trace plot ecube.json ms.json --labels a,b,c --out bad",
       "--labels: expected 2 names, one per file, comma-separated, found 3 in 'a,b,c'"},
      {"trace plot ecube.json ms.json mg.json --labels a,b --out bad",
       "--labels: expected 3 names, one per file, comma-separated, found 2 in 'a,b'"},
      {"trace plot ecube.json ms.json --labels a, --out bad", "--labels: expected a non-empty"},
      {"trace plot ecube.json --labels a --out bad",
       "--labels: expected several traffic JSONs (or calmant --complete-exchange JSONs) to plot in "
       "one figure"},
  };
  for (const auto& [args, error] : bad) {
    const auto r = run(args);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_NE(r.err.find(error), std::string::npos) << args << ": " << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir_ / "bad")) << args;
  }
}

/// A calmant --complete-exchange JSON: per block size (B, CC-cube, CALMANT, direct or 0 for none).
std::string exchange_json(const std::vector<std::tuple<int, double, double, double>>& points) {
  json j = {{"command", "calmant"}, {"network", "mesh 4x4"}, {"startup", 100}};
  j["complete_exchange"] = json::array();
  for (const auto& [block, cc_cube, calmant, direct] : points) {
    json p = {{"block_words", block}, {"cc_cube_cycles", cc_cube}, {"calmant_cycles", calmant}};
    p["direct"] = direct > 0 ? json{{"emulated_cycles", direct}} : json(nullptr);
    j["complete_exchange"].push_back(p);
  }
  return j.dump(2);
}

// [CALMANT] Figs. 9 and 10's picture from calmant --complete-exchange JSONs: per file a CALMANT
// curve and (when direct ran) a direct curve, the speed-up over the original CC-cube (CC-cube
// cycles over theirs) drawn linearly against the block size on a base-2 logarithmic axis.
TEST_F(TraceCli, PlotOfCompleteExchangeJsonsDrawsTheSpeedUpsOverTheCcCubeAgainstTheBlockSize) {
  // Speed-ups: CALMANT 1, 1.5, 2.5 at B = 1, 4, 16; direct 4, 2, 0.5; the second file 1.25 at 2
  // and 2 at 32 with no direct run.
  write("a.json", exchange_json({{4, 600, 400, 300}, {1, 100, 100, 25}, {16, 1000, 400, 2000}}));
  write("b.json", exchange_json({{2, 500, 400, 0}, {32, 800, 400, 0}}));
  ASSERT_EQ(run("trace plot a.json b.json --labels 4x4,8x8 --title Fig9 --out fig").exit_code, 0);
  const std::string svg = slurp(dir_ / "fig" / "speedup.svg");
  EXPECT_NE(svg.find("Fig9"), std::string::npos);
  const std::map<std::string, CurveContent> curves = parse_curves(svg);
  ASSERT_EQ(curves.size(), 3u);  // b.json has no direct curve
  EXPECT_EQ(curves.at("curve-1").texts, std::vector<std::string>{"4x4 CALMANT"});
  EXPECT_EQ(curves.at("curve-2").texts, std::vector<std::string>{"4x4 direct"});
  EXPECT_EQ(curves.at("curve-3").texts, std::vector<std::string>{"8x8 CALMANT"});
  // (log2 B, speed-up) of every circle, curve by curve, in block order.
  const std::vector<std::pair<double, double>> given = {{0, 1}, {2, 1.5}, {4, 2.5},  {0, 4},
                                                        {2, 2}, {4, 0.5}, {1, 1.25}, {5, 2}};
  std::vector<std::pair<double, double>> drawn;
  for (const char* id : {"curve-1", "curve-2", "curve-3"}) {
    EXPECT_EQ(curves.at(id).polylines, 1u);
    for (const auto& c : curves.at(id).circles) {
      drawn.push_back(c);
    }
  }
  ASSERT_EQ(drawn.size(), given.size());
  const double x_scale = (drawn[7].first - drawn[0].first) / (given[7].first - given[0].first);
  const double y_scale = (drawn[3].second - drawn[0].second) / (given[3].second - given[0].second);
  EXPECT_GT(x_scale, 0);
  EXPECT_LT(y_scale, 0) << "a higher speed-up is drawn higher up";
  for (std::size_t k = 1; k < drawn.size(); ++k) {
    EXPECT_NEAR(drawn[k].first - drawn[0].first, x_scale * (given[k].first - given[0].first), 0.1)
        << "point " << k;
    EXPECT_NEAR(drawn[k].second - drawn[0].second, y_scale * (given[k].second - given[0].second),
                0.1)
        << "point " << k;
  }
  // One file is a figure too; a file of another kind among them is named.
  ASSERT_EQ(run("trace plot b.json --title one --out single").exit_code, 0);
  EXPECT_EQ(parse_curves(slurp(dir_ / "single" / "speedup.svg")).size(), 1u);
  write("task.json", R"({"command": "calmant", "complete_exchange": [{"block_words": 0}]})");
  write("traffic.json", traffic_json({{0.1, 20}}));
  for (const auto& [args, error] : std::vector<std::pair<std::string, std::string>>{
           {"trace plot a.json task.json --out bad", "task.json:1:1: expected the output of "
                                                     "orthosim calmant --complete-exchange"},
           {"trace plot a.json traffic.json --out bad", "traffic.json:1:1: expected the output"}}) {
    const auto r = run(args);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_NE(r.err.find(error), std::string::npos) << args << ": " << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir_ / "bad")) << args;
  }
}

/// The text between "`label` " and the next '<' or ',' in `svg`: a figure of a heading.
std::string figure_after(const std::string& svg, const std::string& label) {
  const std::size_t at = svg.find(label + " ");
  if (at == std::string::npos) {
    return "(missing)";
  }
  const std::size_t begin = at + label.size() + 1;
  return svg.substr(begin, svg.find_first_of("<,", begin) - begin);
}

// A traffic trace has messages and no processor activity: instead of an empty timeline, the
// network over time. Its figures brute-forced from the trace's lines here: packets in flight at
// the end of each cycle (one column per cycle on a run this short), and the flits that crossed
// the channels per channel and cycle.
TEST_F(TraceCli, PlotOfATrafficTraceShowsTheNetworkOverTime) {
  ASSERT_EQ(run("traffic --topology mesh --dims 3x3 --rate 0.2 --warmup 40 --cycles 120 "
                "--trace t.trace")
                .exit_code,
            0);
  ASSERT_EQ(run("trace plot t.trace --out net").exit_code, 0);
  EXPECT_FALSE(std::filesystem::exists(dir_ / "net" / "timeline.svg"));
  const std::string svg = slurp(dir_ / "net" / "network.svg");
  const SvgContent content = parse_svg(svg);
  ASSERT_TRUE(content.ok);
  EXPECT_TRUE(content.groups.count("packets-in-flight"));
  EXPECT_TRUE(content.groups.count("channel-utilization"));

  std::istringstream trace(slurp(dir_ / "t.trace"));
  std::map<std::uint64_t, long> change_at;  // injections minus ejections per cycle
  std::uint64_t channels = 0, flits = 0, start = 0, end = 0;
  for (std::string line; std::getline(trace, line);) {
    std::istringstream fields(line);
    std::string first, what;
    fields >> first >> what;
    if (first == "source") {
      channels += line.find(" channel ") != std::string::npos ? 1 : 0;
      continue;
    }
    if (first.empty() || first.find_first_not_of("0123456789") != std::string::npos) {
      continue;
    }
    const std::uint64_t at = std::stoull(first);
    if (what == "run") {
      start = at;
    } else if (what == "end") {
      end = at;
    } else if (what == "inject" || what == "eject") {
      change_at[at] += what == "inject" ? 1 : -1;
    } else if (what == "hop") {
      std::uint64_t message, channel, vc, size;
      fields >> message >> channel >> vc >> size;
      flits += size;
    }
  }
  ASSERT_LT(end - start, 500u) << "one column per cycle";
  long in_flight = 0, peak = 0;
  for (const auto& [at, change] : change_at) {
    in_flight += change;
    peak = std::max(peak, in_flight);
  }
  EXPECT_EQ(in_flight, 0) << "every packet ejected";
  EXPECT_EQ(figure_after(svg, "peak"), std::to_string(peak));
  char mean[32];
  std::snprintf(mean, sizeof mean, "%.4f",
                static_cast<double>(flits) / static_cast<double>(channels * (end - start)));
  EXPECT_EQ(figure_after(svg, "mean"), mean);
}

// One prefix on a wrong count of files; a multiprocessor's trace has no network-message line (its
// messages are its accesses), a network's has.
TEST_F(TraceCli, StatsSaysOnceWhoComplainsAndCountsNetworkMessagesAsSuch) {
  const auto none = run("trace stats");
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_EQ(none.err, "orthosim trace: stats: expected one event trace or VCD file, found 0 file "
                      "arguments\n");
  ASSERT_EQ(run("run " + kFig2 + " --arch omp --trace a.trace").exit_code, 0);
  const auto omp = run("trace stats a.trace");
  ASSERT_EQ(omp.exit_code, 0) << omp.err;
  EXPECT_EQ(omp.out.find("messages sent"), std::string::npos) << omp.out;
  ASSERT_EQ(run("run " + kFig2 + " --arch mesh --dims 2x2 --trace m.trace").exit_code, 0);
  const auto mesh = run("trace stats m.trace");
  EXPECT_NE(mesh.out.find("\nnetwork messages sent 13, delivered 13,"), std::string::npos)
      << mesh.out;
}

// The channel heat map has a colour scale from 0 to the peak its heading gives.
TEST_F(TraceCli, TheChannelHeatMapHasAColourScaleUpToItsPeak) {
  ASSERT_EQ(run("traffic --topology torus --dims 3x3 --rate 0.3 --warmup 40 --cycles 100 "
                "--trace t.trace")
                .exit_code,
            0);
  ASSERT_EQ(run("trace plot t.trace --out net").exit_code, 0);
  const std::string svg = slurp(dir_ / "net" / "channels.svg");
  ASSERT_TRUE(parse_svg(svg).groups.count("colour-scale"));
  const std::string peak = figure_after(svg, "peak");
  ASSERT_NE(peak, "(missing)");
  EXPECT_NE(peak, "0.000");
  // The scale's top label and its top box: the peak, drawn in the busiest channel's colour.
  EXPECT_NE(svg.find(">" + peak + "</text>"), std::string::npos) << peak;
  EXPECT_NE(svg.find("up to " + peak + " flits/cycle"), std::string::npos);
  EXPECT_NE(svg.find("fill=\"rgb(255,0,0)\"><title>up to " + peak), std::string::npos);
}

}  // namespace
