// Tables and JSON of the access and demo commands.
#include "sw/cli/report.hpp"

#include <algorithm>
#include <iomanip>
#include <sstream>

namespace orthosim::sw::cli {

namespace {

nlohmann::json summary_json(const RunSummary& s) {
  nlohmann::json j;
  j["completed"] = s.completed;
  j["cycles"] = s.cycles.count();
  j["payload_ok"] = s.payload_ok();
  j["messages"] = s.delivery.messages_checked;
  j["words"] = s.delivery.words_checked;
  j["conflicts"] = s.conflicts;
  j["conflict_wait_cycles"] = s.conflict_wait_cycles;
  j["delivery_failures"] = s.delivery.failures;
  j["blocked"] = s.blocked;
  nlohmann::json stats = nlohmann::json::object();
  for (const traces::StatEntry& e : s.stats) {
    stats[e.name] = e.value;
  }
  j["stats"] = stats;
  return j;
}

}  // namespace

nlohmann::json config_json(const SystemConfig& c) {
  return {{"arch", to_string(c.arch)},
          {"n", c.n},
          {"alpha", c.timing.alpha},
          {"beta", c.timing.beta},
          {"tau", c.timing.tau},
          {"gamma", c.timing.gamma},
          {"clock_ns", c.clock_period_ns},
          {"sync_cycles", c.sync.activate},
          {"barrier_cycles", c.sync.barrier},
          {"buffer_words", c.buffer_words},
          {"module_words", c.module_words},
          {"local_words", c.local_words}};
}

namespace {

std::string check_text(const RunSummary& s, Cycle formula) {
  if (s.cycle_limit_reached) {
    return "CYCLE LIMIT";
  }
  if (!s.completed) {
    return "DEADLOCK";
  }
  if (!s.payload_ok()) {
    return "PAYLOAD";
  }
  return s.cycles == formula ? "ok" : "CYCLES";
}

}  // namespace

void print_problems(const RunSummary& s, std::ostream& out) {
  for (const std::string& b : s.blocked) {
    out << (s.cycle_limit_reached ? "  " : "  blocked: ") << b << '\n';
  }
  for (const std::string& f : s.delivery.failures) {
    out << "  delivery: " << f << '\n';
  }
}

int column_width(std::uint64_t largest, int minimum) {
  return std::max(minimum, static_cast<int>(std::to_string(largest).size()) + 1);
}

std::string run_end_note(const RunSummary& s) {
  if (s.completed) {
    return "";
  }
  return s.cycle_limit_reached ? "; CYCLE LIMIT REACHED" : "; DEADLOCK";
}

bool run_ok(const RunSummary& s, Cycle formula_cycles) {
  return s.payload_ok() && s.cycles == formula_cycles;
}

bool report_cosim_mismatch(const std::vector<RunSummary>& summaries, const std::string& prefix,
                           std::ostream& err) {
  bool any = false;
  for (const RunSummary& s : summaries) {
    if (s.mismatch) {
      err << prefix << "error: " << s.mismatch->to_string() << '\n';
      any = true;
    }
  }
  return any;
}

nlohmann::json access_json(const AccessRun& run) {
  const SystemConfig& c = run.request.config;
  nlohmann::json j = config_json(c);
  j["command"] = "access";
  j["kind"] = to_string(run.request.workload.kind);
  j["d"] = run.request.workload.d;
  j["l"] = run.request.workload.l;
  j["repeat"] = run.request.workload.repetitions;
  j["impl"] = c.impl.to_string();
  j.update(summary_json(run.summary));
  j["formula_cycles"] = run.formula_cycles.count();
  j["time_ns"] = run.summary.cycles.count() * c.clock_period_ns;
  j["vcd"] = run.request.vcd_path ? nlohmann::json(*run.request.vcd_path) : nlohmann::json();
  return j;
}

void print_access(const AccessRun& run, std::ostream& out) {
  const SystemConfig& c = run.request.config;
  const AccessWorkload& w = run.request.workload;
  const RunSummary& s = run.summary;
  out << "orthosim access: " << to_string(w.kind) << " d=" << w.d << " l=" << w.l
      << (w.repetitions > 1 ? " x" + std::to_string(w.repetitions) : "") << " on the "
      << to_string(c.arch) << ", n=" << c.n << "  (alpha=" << c.timing.alpha
      << " beta=" << c.timing.beta << " tau=" << c.timing.tau << " gamma=" << c.timing.gamma << ", "
      << c.clock_period_ns << " ns clock)\n";
  out << "  implementation     " << c.impl.to_string() << '\n';
  out << "  cycles (measured)  " << s.cycles.count() << "   ("
      << s.cycles.count() * c.clock_period_ns << " ns)\n";
  out << "  cycles (formula)   " << run.formula_cycles.count() << '\n';
  out << "  payload            " << (s.payload_ok() ? "ok" : "FAILED") << ": "
      << s.delivery.messages_checked << " messages, " << s.delivery.words_checked
      << " words checked\n";
  out << "  conflicts          " << s.conflicts << " (" << s.conflict_wait_cycles
      << " cycles waiting)\n";
  out << "  bus words moved    " << s.bus_words_moved << '\n';
  out << "  check              " << check_text(s, run.formula_cycles) << '\n';
  print_problems(s, out);
  if (run.request.vcd_path) {
    out << "  waveform           " << *run.request.vcd_path << '\n';
  }
  if (run.request.trace_path) {
    out << "  event trace        " << *run.request.trace_path << '\n';
  }
}

}  // namespace orthosim::sw::cli
