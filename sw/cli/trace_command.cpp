// `orthosim trace`: statistics, comparison, export and plots of event traces and waveforms
// (docs/traces.md), and the --trace option of the running commands.
#include <algorithm>
#include <iomanip>
#include <nlohmann/json.hpp>

#include "sw/cli/commands.hpp"
#include "sw/core/diagnostic.hpp"
#include "sw/core/json_text.hpp"
#include "sw/core/output_file.hpp"
#include "traces/event_trace_reader.hpp"
#include "traces/perfetto.hpp"
#include "traces/plot.hpp"
#include "traces/trace_diff.hpp"
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
  o.add_options()("perfetto", po::value<std::string>(),
                  "export: the Chrome/Perfetto trace-event JSON file")(
      "out", po::value<std::string>(), "plot: the folder for the SVG files (created if missing)")(
      "labels", po::value<std::string>(),
      "plot of several traffic JSONs or of calmant --complete-exchange JSONs: the curves' names, "
      "comma-separated, one per file (default: the file names)")(
      "title", po::value<std::string>(),
      "plot of several traffic JSONs or of calmant --complete-exchange JSONs: the figure's title");
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
  j["latency"] = {
      {"count", l.count}, {"min", l.min}, {"mean", l.mean},           {"p50", l.p50},
      {"p99", l.p99},     {"max", l.max}, {"bin_width", l.bin_width}, {"histogram", l.histogram}};
  j["cannot_say"] = s.cannot_say;
  return j;
}

void print_stats(const traces::TraceStats& s, const std::string& path, std::ostream& out) {
  out << "orthosim trace stats: " << path << " (" << s.format << ", " << s.clock_ns
      << " ns clock)\n";
  out << "cycles " << s.cycles << " (" << s.cycles * s.clock_ns << " ns), " << s.runs
      << (s.runs == 1 ? " run" : " runs") << "\n\n";
  // A traffic run's nodes run no program: a row of 100 % idle for each of them says nothing.
  const bool any_activity =
      std::any_of(s.processors.begin(), s.processors.end(), [](const traces::ProcessorShare& p) {
        return p.compute + p.memory + p.sync + p.message > 0;
      });
  if (!s.processors.empty() && !any_activity) {
    out << "processors " << s.processors.size() << ", idle throughout (no program ran)\n\n";
  } else if (!s.processors.empty()) {
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
    // A multiprocessor's accesses; a trace of a network alone has no bus to make one.
    if (!s.buses.empty() || s.accesses > 0) {
      out << "accesses " << s.accesses << ", words " << s.words << ", conflicts " << s.conflicts
          << " (" << s.conflict_wait_cycles << " cycles waiting)\n";
    }
    // The trace's message events are the networks' (send, deliver): a multiprocessor's messages
    // are its accesses above.
    if (!s.channels.empty() || s.messages_sent > 0) {
      out << "network messages sent " << s.messages_sent << ", delivered " << s.messages_delivered
          << ", max channel contention " << s.max_channel_contention << " packets\n";
    }
  }
  const traces::LatencySummary& l = s.latency;
  if (l.count > 0) {
    out << "latency (" << l.count << " measured messages): min " << l.min << "  mean " << std::fixed
        << std::setprecision(2) << l.mean << "  p50 " << l.p50 << "  p99 " << l.p99 << "  max "
        << l.max << '\n';
    std::uint64_t peak = 1;
    for (std::uint64_t c : l.histogram) {
      peak = std::max(peak, c);
    }
    for (std::size_t k = 0; k < l.histogram.size(); ++k) {
      const std::uint64_t lo = l.min + k * l.bin_width;
      out << "  " << std::setw(8) << lo << ".." << std::left << std::setw(8) << lo + l.bin_width - 1
          << std::right << std::setw(8) << l.histogram[k] << ' '
          << std::string(static_cast<std::size_t>(40 * l.histogram[k] / peak), '#') << '\n';
    }
  }
  if (!s.channels.empty()) {
    std::vector<traces::Usage> top = s.channels;
    std::stable_sort(top.begin(), top.end(), [](const traces::Usage& a, const traces::Usage& b) {
      return a.busy > b.busy;
    });
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

std::int64_t signed_difference(std::uint64_t a, std::uint64_t b) {
  return static_cast<std::int64_t>(b) - static_cast<std::int64_t>(a);
}

/// Step k's cycles: its end minus the previous step's end.
std::uint64_t step_cycles(const std::vector<std::uint64_t>& ends, std::size_t k) {
  return ends[k] - (k == 0 ? 0 : ends[k - 1]);
}

nlohmann::json diff_json(const traces::TraceDiff& d, const std::string& a, const std::string& b) {
  nlohmann::json j;
  j["command"] = "trace diff";
  j["a"] = a;
  j["b"] = b;
  j["equal"] = d.equal();
  j["cycles"] = {{"a", d.a.cycles},
                 {"b", d.b.cycles},
                 {"difference", signed_difference(d.a.cycles, d.b.cycles)}};
  j["events"] = {{"a", d.events_a}, {"b", d.events_b}};
  nlohmann::json steps = nlohmann::json::array();
  const std::size_t n = std::max(d.a.step_ends.size(), d.b.step_ends.size());
  for (std::size_t k = 0; k < n; ++k) {
    nlohmann::json row = {{"step", k + 1}};
    if (k < d.a.step_ends.size()) {
      row["a"] = step_cycles(d.a.step_ends, k);
    }
    if (k < d.b.step_ends.size()) {
      row["b"] = step_cycles(d.b.step_ends, k);
    }
    if (k < d.a.step_ends.size() && k < d.b.step_ends.size()) {
      row["difference"] =
          signed_difference(step_cycles(d.a.step_ends, k), step_cycles(d.b.step_ends, k));
    }
    steps.push_back(row);
  }
  j["steps"] = steps;
  j["totals"] = {{"accesses", {d.a.accesses, d.b.accesses}},
                 {"words", {d.a.words, d.b.words}},
                 {"conflicts", {d.a.conflicts, d.b.conflicts}},
                 {"messages_delivered", {d.a.messages_delivered, d.b.messages_delivered}},
                 {"latency_mean", {d.a.latency.mean, d.b.latency.mean}}};
  if (d.first) {
    j["first_divergence"] = {{"event", d.first->index},
                             {"line_a", d.first->line_a},
                             {"line_b", d.first->line_b},
                             {"a", d.first->event_a},
                             {"b", d.first->event_b}};
  } else {
    j["first_divergence"] = nullptr;
  }
  return j;
}

void print_diff(const traces::TraceDiff& d, const std::string& a, const std::string& b,
                std::ostream& out) {
  out << "orthosim trace diff: A = " << a << ", B = " << b << '\n';
  out << (d.equal() ? "equal: the same events in the same cycles\n" : "DIFFERENT\n");
  const std::size_t n = std::max(d.a.step_ends.size(), d.b.step_ends.size());
  if (n > 0) {
    out << '\n'
        << std::setw(6) << "step" << std::setw(10) << "A" << std::setw(10) << "B" << std::setw(10)
        << "B - A" << '\n';
    for (std::size_t k = 0; k < n; ++k) {
      const bool in_a = k < d.a.step_ends.size();
      const bool in_b = k < d.b.step_ends.size();
      out << std::setw(6) << k + 1 << std::setw(10)
          << (in_a ? std::to_string(step_cycles(d.a.step_ends, k)) : "-") << std::setw(10)
          << (in_b ? std::to_string(step_cycles(d.b.step_ends, k)) : "-") << std::setw(10)
          << (in_a && in_b ? std::to_string(signed_difference(step_cycles(d.a.step_ends, k),
                                                              step_cycles(d.b.step_ends, k)))
                           : "-")
          << '\n';
    }
  }
  // Wide enough for the longest label, "network messages delivered", so the columns stay.
  constexpr int kLabelWidth = 28;
  out << '\n'
      << std::left << std::setw(kLabelWidth) << "" << std::right << std::setw(12) << "A"
      << std::setw(12) << "B" << '\n';
  const auto row = [&out](const std::string& name, std::uint64_t x, std::uint64_t y) {
    out << std::left << std::setw(kLabelWidth) << name << std::right << std::setw(12) << x
        << std::setw(12) << y << '\n';
  };
  row("cycles", d.a.cycles, d.b.cycles);
  row("events", d.events_a, d.events_b);
  row("accesses", d.a.accesses, d.b.accesses);
  row("words", d.a.words, d.b.words);
  row("conflicts", d.a.conflicts, d.b.conflicts);
  row("network messages delivered", d.a.messages_delivered, d.b.messages_delivered);
  if (d.first) {
    out << "\nfirst divergence at event " << d.first->index + 1 << ":\n";
    out << "  A line " << d.first->line_a << ": "
        << (d.first->event_a.empty() ? "(ended)" : d.first->event_a) << '\n';
    out << "  B line " << d.first->line_b << ": "
        << (d.first->event_b.empty() ? "(ended)" : d.first->event_b) << '\n';
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
    // Keyed by the action alone: the command line's prefix already says "orthosim trace".
    const std::size_t files = args.size() - 1;
    throw InputError({args[0]}, what,
                     std::to_string(files) + (files == 1 ? " file argument" : " file arguments"));
  }
}

/// "a,b,c" -> {"a", "b", "c"}; an empty name is refused.
std::vector<std::string> split_labels(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = text.find(',', start);
    out.push_back(text.substr(start, comma == std::string::npos ? comma : comma - start));
    if (out.back().empty()) {
      throw InputError({"--labels"}, "a non-empty name per file, comma-separated",
                       "'" + text + "'");
    }
    if (comma == std::string::npos) {
      return out;
    }
    start = comma + 1;
  }
}

}  // namespace

CommandForm trace_form(const po::variables_map& vm) {
  const std::vector<std::string> args = arguments(vm);
  if (args.empty()) {
    return {};
  }
  const std::string& action = args[0];
  const bool known =
      action == "export" || action == "stats" || action == "diff" || action == "plot";
  return {known ? action : "", "trace " + action};
}

int run_trace(const po::variables_map& vm, Context& ctx) {
  const std::vector<std::string> args = arguments(vm);
  if (args.empty()) {
    throw InputError({"ACTION"}, "export, stats, diff or plot", "none");
  }
  const std::string action = trace_form(vm).key;
  if (action == "stats") {
    expect_files(args, 1, "one event trace or VCD file");
    const traces::TraceStats s = traces::trace_stats(args[1]);
    if (vm.count("json")) {
      ctx.out << json_text(stats_json(s, args[1]), 2) << '\n';
    } else {
      print_stats(s, args[1], ctx.out);
    }
    return kExitOk;
  }
  if (action == "export") {
    expect_files(args, 1, "one event trace file");
    if (!vm.count("perfetto")) {
      throw InputError({"--perfetto"}, "the output file (export writes trace-event JSON)", "none");
    }
    const std::string out = vm["perfetto"].as<std::string>();
    try {
      traces::export_perfetto(args[1], out);
    } catch (const OutputPathError& e) {
      throw InputError({"--perfetto"}, "a writable file path", e.what());
    }
    ctx.out << "orthosim trace export: " << args[1] << " -> " << out
            << " (open in ui.perfetto.dev or chrome://tracing)\n";
    return kExitOk;
  }
  if (action == "diff") {
    expect_files(args, 2, "two event trace files");
    const traces::TraceDiff d = traces::diff_traces(args[1], args[2]);
    if (vm.count("json")) {
      ctx.out << json_text(diff_json(d, args[1], args[2]), 2) << '\n';
    } else {
      print_diff(d, args[1], args[2], ctx.out);
    }
    return d.equal() ? kExitOk : kExitRunFailed;
  }
  if (action == "plot") {
    if (args.size() < 2) {
      expect_files(args, 1,
                   "one event trace, or one or more JSONs of orthosim traffic --rates ... --json");
    }
    const std::vector<std::string> files(args.begin() + 1, args.end());
    const bool several = files.size() > 1;
    // calmant --complete-exchange JSONs: one figure of their speed-ups, from one file or more.
    const bool exchange = traces::is_complete_exchange_json(files[0]);
    if (!several && !exchange && (vm.count("labels") || vm.count("title"))) {
      throw InputError({vm.count("labels") ? "--labels" : "--title"},
                       "several traffic JSONs (or calmant --complete-exchange JSONs) to plot in "
                       "one figure",
                       "one file");
    }
    for (const std::string& f : files) {
      if (several && traces::EventTraceReader::looks_like(f)) {
        throw InputError({f},
                         "the JSON of orthosim traffic --json (several files are plotted "
                         "as curves of one figure)",
                         "an event trace");
      }
    }
    std::vector<std::string> labels = files;
    if (vm.count("labels")) {
      labels = split_labels(vm["labels"].as<std::string>());
      if (labels.size() != files.size()) {
        throw InputError({"--labels"},
                         std::to_string(files.size()) + " names, one per file, comma-separated",
                         std::to_string(labels.size()) + " in '" + vm["labels"].as<std::string>() +
                             "'");
      }
    }
    if (!vm.count("out")) {
      throw InputError({"--out"}, "the folder for the SVG files", "none");
    }
    const std::string dir = vm["out"].as<std::string>();
    CreatedFolders folders;  // removed again if nothing is written into them
    std::vector<std::string> written;
    try {
      folders.create(dir);
      const std::string title = vm.count("title") ? vm["title"].as<std::string>() : "";
      if (exchange) {
        written = traces::plot_complete_exchange_jsons(files, labels, title, dir);
      } else if (several) {
        written = traces::plot_traffic_jsons(files, labels, title, dir);
      } else {
        written = traces::EventTraceReader::looks_like(files[0])
                      ? traces::plot_event_trace(files[0], dir)
                      : traces::plot_traffic_json(files[0], dir);
      }
    } catch (const OutputPathError& e) {
      throw InputError({"--out"}, "a writable folder", e.what());
    }
    for (const std::string& f : written) {
      ctx.out << "wrote " << f << '\n';
    }
    return kExitOk;
  }
  throw InputError({"ACTION"}, "export, stats, diff or plot", "'" + args[0] + "'");
}

}  // namespace orthosim::sw::cli
