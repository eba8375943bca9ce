// `orthosim trace`: statistics, comparison, export and plots of event traces and waveforms
// (docs/traces.md), and the --trace option of the running commands.
#include <iomanip>
#include <nlohmann/json.hpp>

#include "sw/cli/commands.hpp"
#include "sw/core/diagnostic.hpp"
#include "traces/trace_stats.hpp"

namespace orthosim::sw::cli {

po::options_description trace_output_option() {
  po::options_description o("Event trace");
  o.add_options()("trace", po::value<std::string>(),
                  "write the event trace of the run to this file (docs/traces.md)");
  return o;
}

std::optional<std::string> trace_path_from(const po::variables_map& vm) {
  if (!vm.count("trace")) {
    return std::nullopt;
  }
  return vm["trace"].as<std::string>();
}

po::options_description trace_options() {
  po::options_description o("orthosim trace");
  o.add_options()
      ("perfetto", po::value<std::string>(), "export: the Chrome/Perfetto trace-event JSON file")
      ("out", po::value<std::string>(), "plot: the folder for the SVG files (created if missing)");
  o.add(common_options());
  return o;
}

namespace {

std::string percent(std::uint64_t part, std::uint64_t whole) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(1)
    << (whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole)) << '%';
  return s.str();
}

double ratio(std::uint64_t part, std::uint64_t whole) {
  return whole == 0 ? 0.0 : static_cast<double>(part) / static_cast<double>(whole);
}

nlohmann::json stats_json(const traces::TraceStats& s, const std::string& path) {
  nlohmann::json j;
  j["command"] = "trace stats";
  j["file"] = path;
  j["format"] = s.format;
  j["clock_ns"] = s.clock_ns;
  j["cycles"] = s.cycles;
  j["runs"] = s.runs;
  nlohmann::json procs = nlohmann::json::array();
  for (const traces::ProcessorShare& p : s.processors) {
    procs.push_back({{"name", p.name},
                     {"compute", p.compute},
                     {"memory", p.memory},
                     {"sync", p.sync},
                     {"message", p.message},
                     {"idle", p.idle}});
  }
  j["processors"] = procs;
  nlohmann::json buses = nlohmann::json::array();
  for (const traces::Usage& b : s.buses) {
    buses.push_back({{"name", b.name},
                     {"busy_cycles", b.busy},
                     {"accesses", b.count},
                     {"utilization", ratio(b.busy, s.cycles)}});
  }
  j["buses"] = buses;
  nlohmann::json channels = nlohmann::json::array();
  for (const traces::Usage& c : s.channels) {
    channels.push_back({{"name", c.name},
                        {"flits", c.busy},
                        {"packets", c.count},
                        {"utilization", ratio(c.busy, s.cycles)}});
  }
  j["channels"] = channels;
  j["step_ends"] = s.step_ends;
  j["accesses"] = s.accesses;
  j["words"] = s.words;
  j["conflicts"] = s.conflicts;
  j["conflict_wait_cycles"] = s.conflict_wait_cycles;
  j["messages_sent"] = s.messages_sent;
  j["messages_delivered"] = s.messages_delivered;
  j["max_channel_contention"] = s.max_channel_contention;
  const traces::LatencySummary& l = s.latency;
  j["latency"] = {{"count", l.count}, {"min", l.min},     {"mean", l.mean},
                  {"p50", l.p50},     {"p99", l.p99},     {"max", l.max},
                  {"bin_width", l.bin_width}, {"histogram", l.histogram}};
  j["cannot_say"] = s.cannot_say;
  return j;
}

void print_stats(const traces::TraceStats& s, const std::string& path, std::ostream& out) {
  out << "orthosim trace stats: " << path << " (" << s.format << ", " << s.clock_ns
      << " ns clock)\n";
  out << "cycles " << s.cycles << " (" << s.cycles * s.clock_ns << " ns), " << s.runs
      << (s.runs == 1 ? " run" : " runs") << "\n\n";
  if (!s.processors.empty()) {
    out << std::left << std::setw(24) << "processor" << std::right << std::setw(9) << "compute"
        << std::setw(9) << "memory" << std::setw(9) << "sync" << std::setw(9) << "message"
        << std::setw(9) << "idle" << '\n';
    for (const traces::ProcessorShare& p : s.processors) {
      const std::uint64_t total = p.compute + p.memory + p.sync + p.message + p.idle;
      out << std::left << std::setw(24) << p.name << std::right << std::setw(9)
          << percent(p.compute, total) << std::setw(9) << percent(p.memory, total) << std::setw(9)
          << percent(p.sync, total) << std::setw(9) << percent(p.message, total) << std::setw(9)
          << percent(p.idle, total) << '\n';
    }
    out << '\n';
  }
  if (!s.buses.empty()) {
    out << std::left << std::setw(24) << "bus" << std::right << std::setw(12) << "busy cycles"
        << std::setw(9) << "util" << std::setw(10) << "accesses" << '\n';
    for (const traces::Usage& b : s.buses) {
      out << std::left << std::setw(24) << b.name << std::right << std::setw(12) << b.busy
          << std::setw(9) << percent(b.busy, s.cycles) << std::setw(10)
          << (s.format == "vcd" ? std::string("-") : std::to_string(b.count)) << '\n';
    }
    out << '\n';
  }
  if (!s.step_ends.empty()) {
    out << std::setw(6) << "step" << std::setw(10) << "end" << std::setw(10) << "cycles" << '\n';
    for (std::size_t k = 0; k < s.step_ends.size(); ++k) {
      out << std::setw(6) << k + 1 << std::setw(10) << s.step_ends[k] << std::setw(10)
          << s.step_ends[k] - (k == 0 ? 0 : s.step_ends[k - 1]) << '\n';
    }
    out << '\n';
  }
  if (s.format != "vcd") {
    out << "accesses " << s.accesses << ", words " << s.words << ", conflicts " << s.conflicts
        << " (" << s.conflict_wait_cycles << " cycles waiting)\n";
    out << "messages sent " << s.messages_sent << ", delivered " << s.messages_delivered
        << ", max channel contention " << s.max_channel_contention << " packets\n";
  }
  const traces::LatencySummary& l = s.latency;
  if (l.count > 0) {
    out << "latency (" << l.count << " measured messages): min " << l.min << "  mean "
        << std::fixed << std::setprecision(2) << l.mean << "  p50 " << l.p50 << "  p99 " << l.p99
        << "  max " << l.max << '\n';
    std::uint64_t peak = 1;
    for (std::uint64_t c : l.histogram) {
      peak = std::max(peak, c);
    }
    for (std::size_t k = 0; k < l.histogram.size(); ++k) {
      const std::uint64_t lo = l.min + k * l.bin_width;
      out << "  " << std::setw(8) << lo << ".." << std::left << std::setw(8)
          << lo + l.bin_width - 1 << std::right << std::setw(8) << l.histogram[k] << ' '
          << std::string(static_cast<std::size_t>(40 * l.histogram[k] / peak), '#') << '\n';
    }
  }
  if (!s.channels.empty()) {
    std::vector<traces::Usage> top = s.channels;
    std::stable_sort(top.begin(), top.end(),
                     [](const traces::Usage& a, const traces::Usage& b) { return a.busy > b.busy; });
    top.resize(std::min<std::size_t>(top.size(), 8));
    out << "busiest channels (flits, utilization, packets):\n";
    for (const traces::Usage& c : top) {
      out << "  " << std::left << std::setw(28) << c.name << std::right << std::setw(8) << c.busy
          << std::setw(9) << percent(c.busy, s.cycles) << std::setw(8) << c.count << '\n';
    }
  }
  for (const std::string& c : s.cannot_say) {
    out << "cannot say: " << c << '\n';
  }
}

std::vector<std::string> arguments(const po::variables_map& vm) {
  if (!vm.count("args")) {
    return {};
  }
  return vm["args"].as<std::vector<std::string>>();
}

void expect_files(const std::vector<std::string>& args, std::size_t n, const std::string& what) {
  if (args.size() != n + 1) {
    throw InputError({"orthosim trace " + args[0]}, what,
                     std::to_string(args.size() - 1) + " file arguments");
  }
}

}  // namespace

int run_trace(const po::variables_map& vm, Context& ctx) {
  const std::vector<std::string> args = arguments(vm);
  if (args.empty()) {
    throw InputError({"ACTION"}, "export, stats, diff or plot", "none");
  }
  const std::string& action = args[0];
  if (action == "stats") {
    expect_files(args, 1, "one event trace or VCD file");
    const traces::TraceStats s = traces::trace_stats(args[1]);
    if (vm.count("json")) {
      ctx.out << stats_json(s, args[1]).dump(2) << '\n';
    } else {
      print_stats(s, args[1], ctx.out);
    }
    return kExitOk;
  }
  throw InputError({"ACTION"}, "export, stats, diff or plot", "'" + action + "'");
}

}  // namespace orthosim::sw::cli
