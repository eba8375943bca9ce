// Tables and JSON of network runs and synthetic traffic.
#include "sw/cli/network_report.hpp"

#include <algorithm>
#include <iomanip>
#include <optional>
#include <sstream>

#include "sw/cli/report.hpp"

namespace orthosim::sw::cli {

namespace {
/// The routing when it is not the topology's default, which the reports name only then (so the
/// default's reports stay as they were).
std::optional<std::string> chosen_routing(const NetworkConfig& c) {
  if (c.routing.empty() || c.routing == default_routing(c.topology).name()) {
    return std::nullopt;
  }
  return c.routing;
}
}  // namespace

std::string describe(const NetworkConfig& c) {
  std::ostringstream s;
  s << c.topology.to_string() << ", " << to_string(c.router.switching) << ", "
    << to_string(c.ni.ports) << "-port, t_s " << c.ni.startup << ", " << c.router.buffer_flits
    << "-flit buffers, " << c.router.vcs << " VC" << (c.router.vcs == 1 ? "" : "s")
    << ", router delay " << c.router.delay;
  if (const std::optional<std::string> routing = chosen_routing(c)) {
    s << ", " << *routing << " routing";
  }
  if (c.ni.packet_flits != 0) {
    s << ", packets of at most " << c.ni.packet_flits << " flits";
  }
  if (c.impl.router != Impl::Model) {
    s << ", " << to_string(c.impl.router) << " routers";
  }
  if (c.impl.network_interface != Impl::Model) {
    s << ", " << to_string(c.impl.network_interface) << " interfaces";
  }
  return s.str();
}

nlohmann::json network_json(const NetworkConfig& c) {
  nlohmann::json j = {{"topology", to_string(c.topology.kind())},
                      {"network", c.topology.to_string()},
                      {"radices", c.topology.radices()},
                      {"nodes", c.topology.nodes()},
                      {"switching", to_string(c.router.switching)},
                      {"ports", to_string(c.ni.ports)},
                      {"startup", c.ni.startup},
                      {"buffers", c.router.buffer_flits},
                      {"vcs", c.router.vcs},
                      {"router_delay", c.router.delay},
                      {"packet_flits", c.ni.packet_flits},
                      {"clock_ns", c.clock_period_ns},
                      {"impl", std::string("router=") + to_string(c.impl.router) +
                                   ",ni=" + to_string(c.impl.network_interface)}};
  if (const std::optional<std::string> routing = chosen_routing(c)) {
    j["routing"] = *routing;
  }
  return j;
}

Cycle NetworkProgramRun::step_cycles(std::size_t k) const {
  const std::vector<Cycle>& ends = summary.step_ends;
  if (k >= ends.size()) {
    return Cycle{0};
  }
  const Cycle before = k == 0 ? Cycle{0} : ends[k - 1];
  return ends[k] >= before ? ends[k] - before : Cycle{0};
}

std::uint64_t NetworkProgramRun::step_contention(std::size_t k) const {
  const std::vector<std::uint64_t>& c = summary.step_max_channel_contention;
  return k < c.size() ? c[k] : 0;
}

namespace {
std::vector<ChannelSummary> busiest(const std::vector<ChannelSummary>& channels, std::size_t most) {
  std::vector<ChannelSummary> sorted = channels;
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
    return std::tie(b.messages, b.peak_flits) < std::tie(a.messages, a.peak_flits);
  });
  if (sorted.size() > most) {
    sorted.resize(most);
  }
  return sorted;
}
}  // namespace

nlohmann::json network_run_json(const NetworkProgramRun& r) {
  const NetworkRunSummary& s = r.summary;
  nlohmann::json j = network_json(r.config);
  j["command"] = "run";
  j["arch"] = to_string(r.config.topology.kind());
  j["program"] = r.program.name;
  j["program_nodes"] = r.program.program_nodes;
  j["completed"] = s.completed;
  j["total_cycles"] = s.cycles.count();
  j["time_ns"] = s.cycles.count() * r.config.clock_period_ns;
  j["messages_sent"] = s.delivery.messages_checked;
  j["messages_delivered"] = s.delivery.messages_checked - s.delivery.messages_failed;
  j["words"] = s.delivery.words_checked;
  j["payload_ok"] = s.payload_ok();
  j["blocked"] = s.blocked;
  j["delivery_failures"] = s.delivery.failures;
  j["max_channel_contention"] = r.summary.max_channel_contention;
  j["peak_channel_occupancy"] = r.summary.peak_channel_occupancy;
  nlohmann::json steps = nlohmann::json::array();
  for (std::size_t k = 0; k < r.program.steps; ++k) {
    steps.push_back({{"step", k + 1},
                     {"cycles", r.step_cycles(k).count()},
                     {"end_cycle", k < s.step_ends.size() ? s.step_ends[k].count() : 0},
                     {"max_channel_contention", r.step_contention(k)}});
  }
  j["lockstep"] = r.program.lockstep;
  j["steps"] = steps;
  nlohmann::json channels = nlohmann::json::array();
  for (const ChannelSummary& c : r.summary.channels) {
    channels.push_back(
        {{"channel", c.name}, {"peak_flits", c.peak_flits}, {"messages", c.messages}});
  }
  j["channels"] = channels;
  nlohmann::json stats = nlohmann::json::object();
  for (const traces::StatEntry& e : s.stats) {
    stats[e.name] = e.value;
  }
  j["stats"] = stats;
  j["vcd"] = r.vcd_path ? nlohmann::json(*r.vcd_path) : nlohmann::json();
  return j;
}

void print_network_run(const NetworkProgramRun& r, std::ostream& out) {
  const NetworkRunSummary& s = r.summary;
  out << "orthosim run: " << r.program.name << " (" << r.program.program_nodes << " nodes) on "
      << describe(r.config) << (r.program.lockstep ? ", lockstep steps" : "") << "\n\n";
  const int cycles_width = column_width(s.cycles.count(), 10);  // the total is the largest
  out << std::setw(6) << "step" << std::setw(cycles_width) << "cycles" << std::setw(12)
      << "contention" << '\n';
  for (std::size_t k = 0; k < r.program.steps; ++k) {
    out << std::setw(6) << k + 1 << std::setw(cycles_width) << r.step_cycles(k).count()
        << std::setw(12) << r.step_contention(k) << '\n';
  }
  out << std::setw(6) << "total" << std::setw(cycles_width) << s.cycles.count() << "  ("
      << s.cycles.count() * r.config.clock_period_ns << " ns)\n\n";
  out << "delivery: " << (s.payload_ok() ? "ok" : "FAILED") << ": "
      << s.delivery.messages_checked - s.delivery.messages_failed << " of "
      << s.delivery.messages_checked << " messages delivered intact (" << s.delivery.words_checked
      << " words)" << run_end_note(s) << '\n';
  out << "max channel contention: " << r.summary.max_channel_contention << " message"
      << (r.summary.max_channel_contention == 1 ? "" : "s") << " through one channel\n";
  out << "peak channel occupancy: " << r.summary.peak_channel_occupancy << " flit"
      << (r.summary.peak_channel_occupancy == 1 ? "" : "s") << " in one input buffer\n";
  const std::vector<ChannelSummary> top = busiest(r.summary.channels, 6);
  if (!top.empty() && top.front().messages > 0) {
    out << "busiest channels:";
    for (const ChannelSummary& c : top) {
      if (c.messages > 0) {
        out << "  " << c.name << " " << c.messages << " msg, peak " << c.peak_flits;
      }
    }
    out << '\n';
  }
  print_problems(s, out);
  if (r.vcd_path) {
    out << "waveform: " << *r.vcd_path << '\n';
  }
}

nlohmann::json traffic_point_json(const TrafficPoint& p) {
  return {{"rate", p.rate},
          {"offered", p.offered},
          {"accepted", p.accepted},
          {"latency_avg", p.latency_avg},
          {"latency_p50", p.latency_p50},
          {"latency_p99", p.latency_p99},
          {"latency_max", p.latency_max},
          {"sustainable", p.sustainable},
          {"deadlocked", p.deadlocked},
          {"deadlock", p.deadlock},
          {"sim_cycles", p.sim_cycles},
          {"measured_packets", p.measured_packets},
          {"undelivered_measured", p.undelivered_measured},
          {"flits_delivered", p.flits_delivered},
          {"flit_hops", p.flit_hops},
          {"words_corrupted", p.words_corrupted},
          {"max_channel_contention", p.max_channel_contention},
          {"peak_channel_occupancy", p.peak_channel_occupancy},
          {"source_queue_start", p.source_queue_start},
          {"source_queue_end", p.source_queue_end}};
}

nlohmann::json traffic_json(const TrafficRequest& request, const std::vector<TrafficPoint>& points,
                            bool sweep) {
  nlohmann::json j = network_json(request.config);
  j["command"] = "traffic";
  j["pattern"] = to_string(request.pattern);
  j["flits"] = request.flits;
  j["injection"] = request.exponential ? "exponential" : "bernoulli";
  j["warmup"] = request.warmup;
  j["cycles"] = request.cycles;
  j["seed"] = request.seed;
  if (request.embedding_path) {
    j["embedding"] = *request.embedding_path;
  }
  if (const auto t = round_contention(request.pattern, request.config->topology,
                                      *request.config->description())) {
    j["round_contention"] = *t;
  }
  if (sweep) {
    nlohmann::json list = nlohmann::json::array();
    for (const TrafficPoint& p : points) {
      list.push_back(traffic_point_json(p));
    }
    j["points"] = list;
  } else {
    j.update(traffic_point_json(points.at(0)));
  }
  return j;
}

void print_traffic(const TrafficRequest& request, const std::vector<TrafficPoint>& points,
                   std::ostream& out) {
  out << "orthosim traffic: " << to_string(request.pattern) << " on " << describe(request.config)
      << "\n  " << request.flits << "-flit packets, "
      << (request.exponential ? "exponential" : "Bernoulli") << " injection, warm-up "
      << request.warmup << ", measured " << request.cycles << " cycles, seed " << request.seed
      << "\n";
  if (request.embedding_path) {
    out << "  nodes placed by " << *request.embedding_path << "\n";
  }
  if (const auto t = round_contention(request.pattern, request.config->topology,
                                      *request.config->description())) {
    out << "  one round's channel contention T = " << *t
        << " (the most messages of one round on one channel, [LCC] Theorem 1)\n";
  }
  out << "\n";
  out << std::setw(8) << "rate" << std::setw(10) << "offered" << std::setw(10) << "accepted"
      << std::setw(10) << "lat avg" << std::setw(8) << "p50" << std::setw(8) << "p99"
      << std::setw(9) << "max"
      << "  sustainable\n";
  for (const TrafficPoint& p : points) {
    out << std::fixed << std::setprecision(4) << std::setw(8) << p.rate << std::setw(10)
        << p.offered << std::setw(10) << p.accepted << std::setprecision(1);
    if (p.measured_packets > p.undelivered_measured) {
      out << std::setw(10) << p.latency_avg << std::setw(8) << p.latency_p50 << std::setw(8)
          << p.latency_p99 << std::setw(9) << p.latency_max;
    } else {  // no packet of the window arrived: no latency to show (not a latency of 0)
      out << std::setw(10) << "-" << std::setw(8) << "-" << std::setw(8) << "-" << std::setw(9)
          << "-";
    }
    out << "  " << (p.deadlocked ? "DEADLOCK" : p.sustainable ? "yes" : "no") << '\n';
    out.unsetf(std::ios::floatfield);
    if (p.deadlocked) {
      out << "    " << p.deadlock << '\n';
    }
  }
  out << "  rate, offered, accepted: flits per node per cycle; latency: cycles from a packet's "
         "creation to its tail's arrival\n";
  const TrafficPoint& last = points.back();
  out << "\nflits delivered " << last.flits_delivered << ", max channel contention "
      << last.max_channel_contention << " messages (last point)\n";
}

}  // namespace orthosim::sw::cli
