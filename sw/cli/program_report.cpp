// Listings, step tables and JSON of map, run and demo.
#include "sw/cli/program_report.hpp"

#include <algorithm>
#include <iomanip>
#include <sstream>
#include <string_view>

#include "sw/cli/report.hpp"
#include "sw/core/json_text.hpp"
#include "sw/mapping/listing.hpp"
#include "traces/gtkw.hpp"

namespace orthosim::sw::cli {

Cycle ProgramRun::step_cycles(std::size_t k) const {
  const std::vector<Cycle>& ends = summary.step_ends;
  if (k >= ends.size()) {
    return Cycle{0};
  }
  const Cycle before = k == 0 ? Cycle{0} : ends[k - 1];
  return ends[k] >= before ? ends[k] - before : Cycle{0};
}

std::size_t ProgramRun::messages_delivered() const {
  return summary.delivery.messages_checked - summary.delivery.messages_failed;
}

bool ProgramRun::ok() const { return summary.payload_ok(); }

namespace {

bool is_vector(const MappedOp& op) {
  for (const MappedAccess& a : op.accesses) {
    if (a.slots.size() > 1) {
      return true;
    }
  }
  return false;
}

nlohmann::json op_json(const MappedStep& step, const MappedOp& op, const MemoryOrganization& org,
                       const BusTiming& timing) {
  nlohmann::json accesses = nlohmann::json::array();
  for (const MappedAccess& a : op.accesses) {
    nlohmann::json modules = nlohmann::json::array();
    for (std::size_t i : a.parcels) {
      modules.push_back(paper_module_name(org, step.parcels[i].mailbox));
    }
    accesses.push_back({{"processor", a.processor},
                        {"bus", org.bus_name(a.bus)},
                        {"modules", modules},
                        {"mode", a.slots.size() > 1 ? "vector" : "scalar"},
                        {"d", a.slots.size()},
                        {"l", a.vectors},
                        {"address", a.address},
                        {"replicated", a.replicated},
                        {"formula_cycles", access_cost(timing, a).count()}});
  }
  return {{"name", op_name(op)},
          {"pattern", to_string(op.pattern)},
          {"direction", op.direction == Direction::Write ? "send" : "recv"},
          {"mode", is_vector(op) ? "vector" : "scalar"},
          {"text", op_text(step, op, org)},
          {"accesses", accesses}};
}

nlohmann::json patterns_json(const std::vector<Pattern>& patterns) {
  nlohmann::json j = nlohmann::json::array();
  for (Pattern p : patterns) {
    j.push_back(to_string(p));
  }
  return j;
}

nlohmann::json step_json(const MappedStep& step, const MemoryOrganization& org,
                         const BusTiming& timing) {
  std::vector<Pattern> node_patterns;
  for (const PatternInstance& i : step.node_patterns) {
    node_patterns.push_back(i.pattern);
  }
  nlohmann::json ops = nlohmann::json::array();
  for (const MappedOp& op : step.ops) {
    ops.push_back(op_json(step, op, org, timing));
  }
  nlohmann::json links = nlohmann::json::array();
  for (const Parcel& parcel : step.parcels) {
    links.push_back({{"source", parcel.source},
                     {"destination", parcel.destination},
                     {"module", paper_module_name(org, parcel.mailbox)},
                     {"words", parcel.words},
                     {"iwr", parcel.phase + 1}});
  }
  return {{"step", step.index + 1},
          {"label", step.label},
          {"links", links},
          {"patterns", patterns_json(node_patterns)},
          {"processor_patterns", patterns_json(step.processor_patterns)},
          {"program", program_line(step)},
          {"listing", listing_line(step, org)},
          {"local_copies", step.local_copies.size()},
          {"operations", ops}};
}

/// "C2_send((P1 -> M1,2), (P3 -> M3,0))  [22 22]": an operation and each access's cycles.
std::string op_with_costs(const MappedStep& step, const MappedOp& op, const MemoryOrganization& org,
                          const BusTiming& timing) {
  std::string costs;
  for (const MappedAccess& a : op.accesses) {
    costs += (costs.empty() ? "" : " ") + std::to_string(access_cost(timing, a).count());
  }
  return op_text(step, op, org) + "  [" + costs + "]";
}

std::string header(const MappedProgram& m) {
  return m.name + " (" + std::to_string(m.nodes) + " nodes) on the " + to_string(m.arch) +
         " with " + std::to_string(m.processors) + " processors";
}

std::string delivery_line(const ProgramRun& r) {
  std::ostringstream s;
  s << (r.summary.payload_ok() ? "ok" : "FAILED") << ": " << r.messages_delivered() << " of "
    << r.summary.delivery.messages_checked << " messages delivered intact ("
    << r.summary.delivery.words_checked << " words)";
  s << run_end_note(r.summary);
  return s.str();
}

}  // namespace

StepOperations step_operations(const MappedStep& step, const MemoryOrganization& org,
                               const BusTiming& timing) {
  StepOperations lines;
  for (const MappedOp& op : step.ops) {
    lines += op_with_costs(step, op, org, timing) + '\n';
  }
  lines.shrink_to_fit();
  return lines;
}

nlohmann::json mapping_json(const MappedProgram& mapped, const BusTiming& timing) {
  const MemoryOrganization org(mapped.arch, mapped.processors);
  nlohmann::json steps = nlohmann::json::array();
  for (const MappedStep& step : mapped.steps) {
    steps.push_back(step_json(step, org, timing));
  }
  return {{"program", mapped.name},
          {"arch", to_string(mapped.arch)},
          {"nodes", mapped.nodes},
          {"processors", mapped.processors},
          {"clustering", mapped.clustering},
          {"processor_of", mapped.processor_of},
          {"sync", to_string(mapped.sync)},
          {"messages", mapped.node_messages},
          {"steps", steps}};
}

void print_mapping(const MappedProgram& mapped, std::ostream& out) {
  const MemoryOrganization org(mapped.arch, mapped.processors);
  out << "orthosim map: " << header(mapped) << "\n";
  // Which node runs on which processor ([PH91] section 5's first step).
  out << "\nnodes on processors (" << mapped.clustering << "):";
  for (ProcId p = 0; p < mapped.processors; ++p) {
    std::string nodes;
    for (NodeId i = 0; i < mapped.nodes; ++i) {
      if (mapped.processor_of[i] == p) {
        nodes += (nodes.empty() ? "" : ",") + std::string("N") + std::to_string(i);
      }
    }
    out << (p % 8 == 0 ? "\n  " : "  ") << "P" << p << ": " << (nodes.empty() ? "-" : nodes);
  }
  out << "\n\ncommunication operations ([PH91] section 2):\n";
  for (const MappedStep& step : mapped.steps) {
    out << "  " << program_line(step) << '\n';
  }
  out << "\nmemory operations on the " << to_string(mapped.arch) << " ([PH91] section 4.3):\n";
  for (const MappedStep& step : mapped.steps) {
    out << "  " << listing_line(step, org);
    if (!step.local_copies.empty()) {
      out << "  + " << step.local_copies.size() << " local cop"
          << (step.local_copies.size() == 1 ? "y" : "ies");
    }
    out << '\n';
  }
  // Which module carries which link (Fig. 9: M(i, i xor 2^k) for dimension x_k).
  out << "\nlinks through memory modules:\n";
  for (const MappedStep& step : mapped.steps) {
    std::string line;
    for (const Parcel& parcel : step.parcels) {
      line += (line.empty() ? "" : ", ") + std::string("P") + std::to_string(parcel.source) +
              "->P" + std::to_string(parcel.destination) + " " +
              paper_module_name(org, parcel.mailbox) +
              (parcel.phase > 0 ? " (IWR " + std::to_string(parcel.phase + 1) + ")" : "");
    }
    out << "  Step " << step.index + 1 << ": " << (line.empty() ? "(none)" : line) << '\n';
  }
}

namespace {

/// run_json without its steps ("steps" an empty array).
nlohmann::json run_json_without_steps(const ProgramRun& r) {
  nlohmann::json j = config_json(r.config);
  j["command"] = "run";
  j["impl"] = r.config.impl.to_string();
  j["program"] = r.mapped.name;
  j["nodes"] = r.mapped.nodes;
  j["completed"] = r.summary.completed;
  j["total_cycles"] = r.summary.cycles.count();
  j["predicted_cycles"] = r.predicted.total.count();
  j["time_ns"] = r.summary.cycles.count() * r.config.clock_period_ns;
  j["messages_sent"] = r.mapped.node_messages;
  j["messages_delivered"] = r.messages_delivered();
  j["words"] = r.summary.delivery.words_checked;
  j["payload_ok"] = r.summary.payload_ok();
  j["conflicts"] = r.summary.conflicts;
  j["conflict_wait_cycles"] = r.summary.conflict_wait_cycles;
  j["blocked"] = r.summary.blocked;
  j["delivery_failures"] = r.summary.delivery.failures;
  j["steps"] = nlohmann::json::array();
  nlohmann::json stats = nlohmann::json::object();
  for (const traces::StatEntry& e : r.summary.stats) {
    stats[e.name] = e.value;
  }
  j["stats"] = stats;
  j["vcd"] = r.vcd_path ? nlohmann::json(*r.vcd_path) : nlohmann::json();
  return j;
}

/// Step k of run_json's "steps".
nlohmann::json run_step_json(const ProgramRun& r, const MemoryOrganization& org, std::size_t k) {
  nlohmann::json s = step_json(r.mapped.steps[k], org, r.config.timing);
  s["cycles"] = r.step_cycles(k).count();
  s["end_cycle"] = k < r.summary.step_ends.size() ? r.summary.step_ends[k].count() : 0;
  s["predicted_cycles"] = r.predicted.steps.at(k).count();
  return s;
}

}  // namespace

nlohmann::json run_json(const ProgramRun& r) {
  const MemoryOrganization org(r.mapped.arch, r.mapped.processors);
  nlohmann::json j = run_json_without_steps(r);
  for (std::size_t k = 0; k < r.mapped.steps.size(); ++k) {
    j["steps"].push_back(run_step_json(r, org, k));
  }
  return j;
}

void keep_what_json_prints(MappedStep& step) {
  for (Parcel& parcel : step.parcels) {
    std::vector<ParcelPiece>().swap(parcel.pieces);
  }
  for (MappedOp& op : step.ops) {
    for (MappedAccess& access : op.accesses) {
      IndexSet().swap(access.relay_index_set);
    }
  }
  std::vector<Cycle>().swap(step.compute);
  for (PatternInstance& instance : step.node_patterns) {
    for (Transfer& transfer : instance.transfers) {
      transfer.where = SourceLocation{};
    }
  }
}

void write_run_json(const ProgramRun& r, std::ostream& out) {
  const std::string text = json_text(run_json_without_steps(r), 2);
  // The steps go where json_text would print them, in its layout: an element of a top-level
  // array is indented by 4, and a string never holds a raw line break.
  const std::string empty_steps = "\n  \"steps\": []";
  const std::size_t at = text.find(empty_steps);
  if (r.mapped.steps.empty() || at == std::string::npos) {
    out << text << '\n';
    return;
  }
  const std::size_t brackets = at + empty_steps.size() - 2;
  out << text.substr(0, brackets) << "[\n";
  const MemoryOrganization org(r.mapped.arch, r.mapped.processors);
  for (std::size_t k = 0; k < r.mapped.steps.size(); ++k) {
    const std::string step = json_text(run_step_json(r, org, k), 2);
    out << (k == 0 ? "" : ",\n");
    for (std::size_t line = 0; line < step.size();) {
      const std::size_t end = std::min(step.find('\n', line), step.size() - 1) + 1;
      out << "    " << std::string_view(step).substr(line, end - line);
      line = end;
    }
  }
  out << "\n  ]" << text.substr(brackets + 2) << '\n';
}

namespace {

/// The line under a table of measured and predicted cycles: what the prediction is and why a
/// measured step can beat it or exceed it (docs/mapping.md, "Timing and the cost model"): on the
/// single bus of Fig. 2, P3 runs ahead and writes its step-2 message before P0's step-1 read.
constexpr const char* kPredictionNote =
    "predicted: each step's cost estimated alone (docs/mapping.md); processors run ahead into the "
    "next step, so a measured step can beat it, or wait for the next step's accesses on a shared "
    "bus";

}  // namespace

void print_run(const ProgramRun& r, std::ostream& out) {
  const SystemConfig& c = r.config;
  out << "orthosim run: " << header(r.mapped) << "\n  alpha=" << c.timing.alpha
      << " beta=" << c.timing.beta << " tau=" << c.timing.tau << " gamma=" << c.timing.gamma
      << " sync=" << c.sync.activate << " cycles, " << c.clock_period_ns << " ns clock, "
      << "implementation " << c.impl.to_string() << "\n\n";
  // The totals are the largest figures of their columns.
  const int cycles_width = column_width(r.summary.cycles.count(), 9);
  const int predicted_width = column_width(r.predicted.total.count(), 11);
  const std::string continuation(static_cast<std::size_t>(6 + cycles_width + predicted_width + 2),
                                 ' ');
  out << std::right << std::setw(6) << "step" << std::setw(cycles_width) << "cycles"
      << std::setw(predicted_width) << "predicted"
      << "  operations [cycles of each access: alpha + beta(l-1) + d tau l]\n";
  for (std::size_t k = 0; k < r.operations.size(); ++k) {
    const std::string_view lines = r.operations[k];
    out << std::setw(6) << k + 1 << std::setw(cycles_width) << r.step_cycles(k).count()
        << std::setw(predicted_width) << r.predicted.steps.at(k).count() << "  ";
    if (lines.empty()) {
      out << "(no memory operation)\n";
    }
    for (std::size_t start = 0; start < lines.size();) {
      const std::size_t end = lines.find('\n', start) + 1;
      out << (start == 0 ? "" : continuation) << lines.substr(start, end - start);
      start = end;
    }
  }
  out << std::setw(6) << "total" << std::setw(cycles_width) << r.summary.cycles.count()
      << std::setw(predicted_width) << r.predicted.total.count() << "  ("
      << r.summary.cycles.count() * c.clock_period_ns << " ns)\n";
  out << kPredictionNote << "\n\n";
  out << "delivery: " << delivery_line(r) << '\n';
  out << "conflicts: " << r.summary.conflicts << " (" << r.summary.conflict_wait_cycles
      << " cycles waiting)\n";
  print_problems(r.summary, out);
  if (r.vcd_path) {
    out << "waveform: " << *r.vcd_path << '\n';
  }
}

nlohmann::json demo_json(const std::vector<ProgramRun>& runs, const std::string& out_dir) {
  nlohmann::json j;
  j["command"] = "demo";
  j["program"] = runs.empty() ? "" : runs.front().mapped.name;
  j["out_dir"] = out_dir;
  nlohmann::json systems = nlohmann::json::array();
  for (const ProgramRun& r : runs) {
    systems.push_back(run_json(r));
  }
  j["systems"] = systems;
  return j;
}

void print_demo(const std::vector<ProgramRun>& runs, const std::string& out_dir,
                std::ostream& out) {
  const ProgramRun& first = runs.front();
  const SystemConfig& c = first.config;
  out << "orthosim demo: the sample program of [PH91] Fig. 2, " << first.mapped.nodes
      << " nodes on " << first.mapped.processors << " processors\n  alpha=" << c.timing.alpha
      << " beta=" << c.timing.beta << " tau=" << c.timing.tau << " gamma=" << c.timing.gamma
      << " sync=" << c.sync.activate << " cycles, " << c.clock_period_ns << " ns clock\n\n";
  out << "communication operations ([PH91] section 2):\n";
  for (const MappedStep& step : first.mapped.steps) {
    out << "  " << program_line(step) << '\n';
  }
  // The paper lists the single bus, the crossbar, then the orthogonal system (section 4.3 A-C).
  for (auto it = runs.rbegin(); it != runs.rend(); ++it) {
    const MemoryOrganization org(it->mapped.arch, it->mapped.processors);
    out << "\nmapped onto the " << to_string(it->mapped.arch) << ":\n";
    for (const MappedStep& step : it->mapped.steps) {
      out << "  " << listing_line(step, org) << '\n';
    }
  }
  out << "\ncycles per step " << std::string(8, ' ');
  for (const ProgramRun& r : runs) {
    out << std::setw(18) << to_string(r.mapped.arch);
  }
  out << "\n" << std::string(24, ' ');
  for (std::size_t i = 0; i < runs.size(); ++i) {
    out << std::setw(18) << "measured (pred.)";
  }
  out << '\n';
  const auto cell = [](Cycle measured, Cycle predicted) {
    return std::to_string(measured.count()) + " (" + std::to_string(predicted.count()) + ")";
  };
  for (std::size_t k = 0; k < first.mapped.steps.size(); ++k) {
    out << "  step " << std::left << std::setw(18) << k + 1 << std::right;
    for (const ProgramRun& r : runs) {
      out << std::setw(18) << cell(r.step_cycles(k), r.predicted.steps.at(k));
    }
    out << '\n';
  }
  out << "  " << std::left << std::setw(23) << "total" << std::right;
  for (const ProgramRun& r : runs) {
    out << std::setw(18) << cell(r.summary.cycles, r.predicted.total);
  }
  out << "\n  " << std::left << std::setw(23) << "vs omp" << std::right;
  const double omp = static_cast<double>(first.summary.cycles.count());
  for (const ProgramRun& r : runs) {
    std::ostringstream ratio;
    ratio << std::fixed << std::setprecision(2)
          << (omp > 0 ? static_cast<double>(r.summary.cycles.count()) / omp : 0.0) << "x";
    out << std::setw(18) << ratio.str();
  }
  out << "\n  " << std::left << std::setw(23) << "delivery" << std::right;
  for (const ProgramRun& r : runs) {
    out << std::setw(18)
        << (r.ok() ? "ok " + std::to_string(r.messages_delivered()) + "/" +
                         std::to_string(r.summary.delivery.messages_checked)
                   : std::string("FAILED"));
  }
  out << "\n  " << kPredictionNote << '\n';
  for (const ProgramRun& r : runs) {
    print_problems(r.summary, out);
  }
  out << "\nwaveforms in " << out_dir << "/:";
  for (const ProgramRun& r : runs) {
    out << ' ' << (r.vcd_path ? *r.vcd_path : std::string("-"));
  }
  const std::string first_vcd = first.vcd_path ? *first.vcd_path : std::string();
  out << "\n  (gtkwave " << first_vcd << ' ' << traces::gtkw_path(first_vcd) << ")\n";
}

}  // namespace orthosim::sw::cli
