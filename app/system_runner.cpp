// SystemC-backed Runner.
#include "app/system_runner.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "rtl/bridge/fst_trace.hpp"
#include "sc_models/multiprocessor/multiprocessor.hpp"
#include "sc_models/net/multicomputer.hpp"
#include "sw/core/diagnostic.hpp"
#include "sw/core/output_file.hpp"
#include "traces/event_trace.hpp"
#include "traces/fanout_recorder.hpp"
#include "traces/vcd_recorder.hpp"

namespace orthosim::app {

namespace {

/// Opens the output `path` of `option` as a `Writer` made from `args`, before anything is
/// elaborated, so that a bad path fails first. With `folders` (`run` and `demo`) its missing
/// folder is created first; they are removed again if the command fails.
template <class Writer, class... Args>
std::unique_ptr<Writer> open_output(const std::string& option, const std::string& path,
                                    sw::CreatedFolders* folders, Args&&... args) {
  try {
    if (folders != nullptr) {
      folders->create_folder_of(path);
    }
    return std::make_unique<Writer>(path, std::forward<Args>(args)...);
  } catch (const sw::OutputPathError& e) {
    throw sw::InputError({option}, "a writable file path", e.what());
  }
}

/// The recorders of a run with one system: its waveform, its event trace, both or neither.
class Recording {
 public:
  /// `folders`: as open_output's.
  Recording(const std::optional<std::string>& vcd_path,
            const std::optional<std::string>& trace_path, std::uint32_t clock_period_ns,
            sw::CreatedFolders* folders) {
    std::vector<traces::Recorder*> targets;
    if (vcd_path) {
      vcd_ = open_output<traces::VcdRecorder>("--vcd", *vcd_path, folders, clock_period_ns);
      targets.push_back(vcd_.get());
    }
    if (trace_path) {
      trace_ = open_output<traces::EventTraceRecorder>("--trace", *trace_path, folders,
                                                       clock_period_ns);
      targets.push_back(trace_.get());
    }
    fanout_ = std::make_unique<traces::FanoutRecorder>(std::move(targets));
  }
  traces::Recorder& recorder() { return *fanout_; }
  /// Ends the files at `end` and puts them in place.
  void finish(sw::Cycle end) {
    if (vcd_) {
      vcd_->finish(end);
    }
    if (trace_) {
      trace_->finish(end);
    }
  }

 private:
  std::unique_ptr<traces::VcdRecorder> vcd_;
  std::unique_ptr<traces::EventTraceRecorder> trace_;
  std::unique_ptr<traces::FanoutRecorder> fanout_;
};

/// Ends the elaboration (Verilator's tracing needs it) and opens the FST files.
void open_fst_files(const std::vector<rtl::FstTrace*>& files) {
  if (files.empty()) {
    return;
  }
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  for (rtl::FstTrace* f : files) {
    f->open();
  }
}

/// Test-only (docs/rtl.md): ORTHOSIM_TEST_FAULT="B:flip:CYCLE:BIT" or "B:late:CYCLE" puts a
/// deliberate error into the model's side of a co-simulation; --impl cosim must catch it. Read
/// here, in the executable, not in the models.
struct TestFault {
  std::uint64_t block = 0;  ///< B: the processor P(B) of a multiprocessor, the router B of a network
  bool flip = false;        ///< else late
  std::uint64_t at = 0;
  std::uint32_t bit = 0;
};

/// The fault ORTHOSIM_TEST_FAULT asks for, if any; `blocks` bounds B.
std::optional<TestFault> test_fault(std::uint64_t blocks) {
  const char* spec = std::getenv("ORTHOSIM_TEST_FAULT");
  if (spec == nullptr) {
    return std::nullopt;
  }
  const std::string text = spec;
  const char* expected = "B:flip:CYCLE:BIT or B:late:CYCLE";
  std::vector<std::string> parts;
  for (std::size_t start = 0;;) {
    const std::size_t colon = text.find(':', start);
    parts.push_back(text.substr(start, colon - start));
    if (colon == std::string::npos) {
      break;
    }
    start = colon + 1;
  }
  const auto number = [&](const std::string& s, std::uint64_t max) {
    if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos || s.size() > 12 ||
        std::stoull(s) > max) {
      throw sw::InputError({"ORTHOSIM_TEST_FAULT"}, expected, "'" + text + "'");
    }
    return std::stoull(s);
  };
  TestFault fault;
  if (parts.size() == 4 && parts[1] == "flip") {
    fault.flip = true;
    fault.bit = static_cast<std::uint32_t>(number(parts[3], 31));
  } else if (parts.size() != 3 || parts[1] != "late") {
    throw sw::InputError({"ORTHOSIM_TEST_FAULT"}, expected, "'" + text + "'");
  }
  fault.at = number(parts[2], ~std::uint64_t{0} >> 1);
  fault.block = number(parts[0], blocks - 1);
  return fault;
}

/// In every multiprocessor, the model bus controller of P(B): bit BIT of the word on its bus in
/// cycle CYCLE flipped, or one cycle more in the start-up of the access granted in cycle CYCLE.
void inject_test_fault(sc::Multiprocessor& system) {
  if (const std::optional<TestFault> f = test_fault(system.config().n)) {
    sc::BusController::Fault fault;
    fault.kind = f->flip ? sc::BusController::Fault::Kind::FlipBit
                         : sc::BusController::Fault::Kind::ExtraCycle;
    fault.bit = f->bit;
    fault.at = sw::Cycle{f->at};
    system.inject_fault(static_cast<sw::ProcId>(f->block), fault);
  }
}

/// In a network under --impl router=cosim, the model's header departures of router B: bit BIT
/// flipped in cycle CYCLE, or the first one at or after CYCLE reported one cycle late.
void inject_test_fault(sc::Multicomputer& system) {
  if (const std::optional<TestFault> f = test_fault(system.config().topology.nodes())) {
    sc::net::RtlNetwork::Fault fault;
    fault.kind = f->flip ? sc::net::RtlNetwork::Fault::Kind::FlipBit
                         : sc::net::RtlNetwork::Fault::Kind::LateHeader;
    fault.router = static_cast<std::uint32_t>(f->block);
    fault.at = f->at;
    fault.bit = f->bit;
    system.inject_fault(fault);
  }
}

/// "1234567 bytes (1.2 MiB)".
std::string bytes_text(std::uint64_t bytes) {
  const char* units[] = {"KiB", "MiB", "GiB", "TiB"};
  double scaled = static_cast<double>(bytes);
  std::size_t unit = 0;
  while (unit < 3 && scaled >= 1024.0 * 1024.0) {
    scaled /= 1024.0;
    ++unit;
  }
  char text[64];
  std::snprintf(text, sizeof text, " (%.1f %s)", scaled / 1024.0, units[unit]);
  return std::to_string(bytes) + " bytes" + text;
}

/// Refuses a run whose estimated footprint exceeds the limit, before anything is elaborated or
/// any file opened (docs/cli.md, --memory-limit).
void check_footprint(std::uint64_t estimate, std::optional<std::uint64_t> limit) {
  if (limit && estimate > *limit) {
    throw sw::InputError({"--memory-limit"},
                         "a run that fits in " + bytes_text(*limit),
                         "an estimated footprint of " + bytes_text(estimate) +
                             " (docs/cli.md: fewer steps or nodes, shorter messages, or a larger "
                             "--memory-limit)");
  }
}

sw::Cycle last_end(const std::vector<sc::Multiprocessor*>& systems) {
  sw::Cycle end;
  for (const sc::Multiprocessor* s : systems) {
    end = std::max(end, s->clock().now());
  }
  return end;
}

}  // namespace

sw::RunSummary SystemRunner::run_access(const sw::AccessRequest& request) {
  sw::MachineProgram program = sw::make_access_program(request.config, request.workload);
  Recording recording(request.vcd_path, request.trace_path, request.config.clock_period_ns,
                      nullptr);
  std::unique_ptr<rtl::FstTrace> fst =
      request.fst_path ? open_output<rtl::FstTrace>("--fst", *request.fst_path, nullptr) : nullptr;
  sc::Multiprocessor system(sw::to_string(request.config.arch).c_str(), request.config,
                            recording.recorder(), fst.get());
  open_fst_files(fst ? std::vector<rtl::FstTrace*>{fst.get()} : std::vector<rtl::FstTrace*>{});
  inject_test_fault(system);
  system.load(std::move(program));
  sc::run_systems({&system}, sw::kCycleLimit);
  const sw::RunSummary result = system.result();
  // A co-simulation mismatch stopped the run: the command fails with it (no exception: thrown
  // after SystemC's coroutines ran, it trips AddressSanitizer's stack bookkeeping), and the
  // waveform files stay FILE.partial.
  if (result.mismatch) {
    return result;
  }
  recording.finish(last_end({&system}));
  if (fst) {
    fst->close();
  }
  return result;
}

std::vector<sw::RunSummary> SystemRunner::run_programs(std::vector<sw::SystemRun> runs) {
  std::uint64_t footprint = 0;
  std::optional<std::uint64_t> limit;
  for (const sw::SystemRun& run : runs) {
    footprint += sc::Multiprocessor::footprint(run.program, run.config);
    if (run.memory_limit) {
      limit = std::min(limit.value_or(*run.memory_limit), *run.memory_limit);
    }
  }
  check_footprint(footprint, limit);
  // Every output file is opened (and its folder created) before anything is elaborated, so a
  // bad path fails first; systems that name the same file share it. The folders outlive the files.
  sw::CreatedFolders folders;
  std::map<std::string, std::unique_ptr<traces::VcdRecorder>> vcds;
  std::map<std::string, std::unique_ptr<traces::EventTraceRecorder>> trace_files;
  std::map<std::string, std::unique_ptr<rtl::FstTrace>> fsts;
  for (const sw::SystemRun& run : runs) {
    if (run.fst_path && !fsts.count(*run.fst_path)) {
      fsts[*run.fst_path] = open_output<rtl::FstTrace>("--fst", *run.fst_path, &folders);
    }
    if (run.vcd_path && !vcds.count(*run.vcd_path)) {
      vcds[*run.vcd_path] = open_output<traces::VcdRecorder>(run.vcd_option, *run.vcd_path,
                                                             &folders, run.config.clock_period_ns);
    }
    if (run.trace_path && !trace_files.count(*run.trace_path)) {
      trace_files[*run.trace_path] = open_output<traces::EventTraceRecorder>(
          "--trace", *run.trace_path, &folders, run.config.clock_period_ns);
    }
  }
  std::vector<std::unique_ptr<traces::FanoutRecorder>> recorders;
  std::vector<std::unique_ptr<sc::Multiprocessor>> systems;
  std::vector<sc::Multiprocessor*> raw;
  std::map<std::string, int> names;
  for (const sw::SystemRun& run : runs) {
    std::vector<traces::Recorder*> targets;
    if (run.vcd_path) {
      targets.push_back(vcds.at(*run.vcd_path).get());
    }
    if (run.trace_path) {
      targets.push_back(trace_files.at(*run.trace_path).get());
    }
    recorders.push_back(std::make_unique<traces::FanoutRecorder>(std::move(targets)));
    std::string name = sw::to_string(run.config.arch);
    if (names[name]++ > 0) {
      name += std::to_string(names[name] - 1);
    }
    systems.push_back(std::make_unique<sc::Multiprocessor>(
        name.c_str(), run.config, *recorders.back(),
        run.fst_path ? fsts.at(*run.fst_path).get() : nullptr));
    raw.push_back(systems.back().get());
  }
  std::vector<rtl::FstTrace*> fst_files;
  for (auto& [path, fst] : fsts) {
    fst_files.push_back(fst.get());
  }
  open_fst_files(fst_files);
  for (const auto& s : systems) {
    inject_test_fault(*s);
  }
  for (std::size_t i = 0; i < systems.size(); ++i) {
    systems[i]->load(std::move(runs[i].program));
  }
  sc::run_systems(raw, sw::kCycleLimit);
  std::vector<sw::RunSummary> results;
  for (const auto& s : systems) {
    results.push_back(s->result());
  }
  // As in run_access: a co-simulation mismatch fails the command, the files stay FILE.partial.
  if (std::any_of(results.begin(), results.end(),
                  [](const sw::RunSummary& r) { return r.mismatch.has_value(); })) {
    return results;
  }
  const sw::Cycle end = last_end(raw);
  for (auto& [path, vcd] : vcds) {
    vcd->finish(end);
  }
  for (auto& [path, trace] : trace_files) {
    trace->finish(end);
  }
  for (rtl::FstTrace* fst : fst_files) {
    fst->close();
  }
  return results;
}

sw::NetworkRunSummary SystemRunner::run_network(const sw::NetworkRunRequest& request) {
  check_footprint(sc::Multicomputer::footprint(request.program, request.config),
                  request.memory_limit);
  sw::CreatedFolders folders;  // outlives the files in them
  Recording recording(request.vcd_path, request.trace_path, request.config.clock_period_ns,
                      &folders);
  std::unique_ptr<rtl::FstTrace> fst =
      request.fst_path ? open_output<rtl::FstTrace>("--fst", *request.fst_path, &folders)
                       : nullptr;
  sc::Multicomputer system(sw::to_string(request.config.topology.kind()).c_str(), request.config,
                           recording.recorder(), fst.get());
  // Everything that can throw comes before the first sc_start (open_fst_files runs one):
  // exceptions after SystemC's coroutines ran trip AddressSanitizer (see run_access).
  inject_test_fault(system);
  try {
    system.validate(request.program);
  } catch (const sw::ConfigError& e) {
    throw sw::InputError({"--buffers"}, e.what());
  }
  open_fst_files(fst ? std::vector<rtl::FstTrace*>{fst.get()} : std::vector<rtl::FstTrace*>{});
  system.load(request.program);
  system.run(sw::kCycleLimit);
  sw::NetworkRunSummary r = system.result();
  if (r.mismatch) {
    return r;  // the output files stay FILE.partial (see run_access)
  }
  recording.finish(r.cycles);
  if (fst) {
    fst->close();
  }
  return r;
}

std::vector<sw::TrafficPoint> SystemRunner::run_traffic(const sw::TrafficRequest& request) {
  Recording recording(std::nullopt, request.trace_path, request.config.clock_period_ns, nullptr);
  std::unique_ptr<rtl::FstTrace> fst =
      request.fst_path ? open_output<rtl::FstTrace>("--fst", *request.fst_path, nullptr) : nullptr;
  sc::Multicomputer system(sw::to_string(request.config.topology.kind()).c_str(), request.config,
                           recording.recorder(), fst.get());
  inject_test_fault(system);
  open_fst_files(fst ? std::vector<rtl::FstTrace*>{fst.get()} : std::vector<rtl::FstTrace*>{});
  std::vector<sw::TrafficPoint> points;
  for (double rate : request.rates) {
    sc::TrafficSpec spec = sc::traffic_of(request.pattern, request.config.topology);
    static_cast<sw::TrafficParameters&>(spec) = request;
    spec.rate = rate;
    system.start_traffic(spec);
    sc_core::sc_start();
    points.push_back(system.traffic_result());
    if (!points.back().cosim_mismatch.empty()) {
      return points;  // the output files stay FILE.partial (see run_access)
    }
  }
  recording.finish(system.clock().now());
  if (fst) {
    fst->close();
  }
  return points;
}


sw::MixedRunResult SystemRunner::run_mixed(const std::vector<sw::SystemRun>& systems,
                                           const std::vector<sw::NetworkRunRequest>& networks) {
  // One event trace for every system and network that asks for one (`tables --trace`). The
  // networks run after the multiprocessors, so the trace's cycles keep increasing only if they
  // all count cycles of one clock.
  std::unique_ptr<traces::EventTraceRecorder> trace;
  std::uint32_t trace_clock_ns = 0;
  const auto want_trace = [&](const std::optional<std::string>& vcd_path,
                              const std::optional<std::string>& trace_path,
                              std::uint32_t clock_ns) {
    if (vcd_path) {
      throw std::invalid_argument("run_mixed records no waveforms");
    }
    if (!trace_path) {
      return;
    }
    if (!trace) {
      trace = open_output<traces::EventTraceRecorder>("--trace", *trace_path, nullptr, clock_ns);
      trace_clock_ns = clock_ns;
    } else if (clock_ns != trace_clock_ns) {
      throw sw::InputError({"--trace"}, "one clock period for every system in the trace",
                           std::to_string(trace_clock_ns) + " ns and " +
                               std::to_string(clock_ns) + " ns");
    }
  };
  for (const sw::SystemRun& run : systems) {
    want_trace(run.vcd_path, run.trace_path, run.config.clock_period_ns);
  }
  for (const sw::NetworkRunRequest& request : networks) {
    want_trace(request.vcd_path, request.trace_path, request.config.clock_period_ns);
  }
  // Elaborate everything first: SystemC cannot add modules once the simulation has started.
  traces::Recorder silent;
  const auto recorder_for = [&](const std::optional<std::string>& trace_path) -> traces::Recorder& {
    return trace_path ? static_cast<traces::Recorder&>(*trace) : silent;
  };
  std::vector<std::unique_ptr<sc::Multiprocessor>> processors;
  std::vector<sc::Multiprocessor*> raw;
  for (std::size_t i = 0; i < systems.size(); ++i) {
    const std::string name = "mp" + std::to_string(i) + "_" + sw::to_string(systems[i].config.arch);
    processors.push_back(
        std::make_unique<sc::Multiprocessor>(name.c_str(), systems[i].config,
                                             recorder_for(systems[i].trace_path)));
    raw.push_back(processors.back().get());
  }
  std::vector<std::unique_ptr<sc::Multicomputer>> computers;
  for (std::size_t i = 0; i < networks.size(); ++i) {
    const std::string name =
        "net" + std::to_string(i) + "_" + sw::to_string(networks[i].config.topology.kind());
    computers.push_back(
        std::make_unique<sc::Multicomputer>(name.c_str(), networks[i].config,
                                            recorder_for(networks[i].trace_path)));
  }
  sw::MixedRunResult out;
  if (!processors.empty()) {
    for (std::size_t i = 0; i < processors.size(); ++i) {
      processors[i]->load(systems[i].program);
    }
    sc::run_systems(raw, sw::kCycleLimit);
    for (const auto& s : processors) {
      out.systems.push_back(s->result());
    }
  }
  for (std::size_t i = 0; i < computers.size(); ++i) {
    try {
      computers[i]->load(networks[i].program);
    } catch (const sw::ConfigError& e) {
      throw sw::InputError({"--buffers"}, e.what());
    }
    computers[i]->run(sw::kCycleLimit);
    out.networks.push_back(computers[i]->result());
  }
  if (trace) {
    sw::Cycle end = last_end(raw);
    for (const auto& c : computers) {
      end = std::max(end, c->clock().now());
    }
    trace->finish(end);
  }
  return out;
}

}  // namespace orthosim::app
