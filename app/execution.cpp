#include "app/execution.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <utility>

#include "rtl/bridge/fst_trace.hpp"
#include "sc_models/cosim/cosim_wiring.hpp"
#include "sc_models/cosim/rtl_network.hpp"
#include "sc_models/multiprocessor/multiprocessor.hpp"
#include "sc_models/net/multicomputer.hpp"
#include "sw/core/diagnostic.hpp"
#include "sw/core/output_file.hpp"
#include "traces/event_trace.hpp"
#include "traces/fanout_recorder.hpp"
#include "traces/vcd_recorder.hpp"

namespace orthosim::app {

namespace {

/// Test-only (docs/rtl.md): ORTHOSIM_TEST_FAULT="B:flip:CYCLE:BIT" or "B:late:CYCLE" puts a
/// deliberate error into the model's side of a co-simulation; --impl cosim must catch it. Read
/// here, in the executable, not in the models. B is a number (the processor P(B) of a
/// multiprocessor, the router B of a network); on a network "ni:B:..." puts it into node B's
/// interface instead of router B; for the whole machine (processor=cosim) B may also name a block
/// of it: pB (processor P(B)), sync or arbiter.
struct TestFault {
  enum class Block : std::uint8_t { Numbered, Interface, Processor, Sync, Arbiter };
  Block kind = Block::Numbered;
  std::uint64_t block = 0;  ///< Numbered, Interface, Processor: B
  bool flip = false;        ///< else late
  std::uint64_t at = 0;
  std::uint32_t bit = 0;
  std::string text;  ///< as given, for the messages
};

/// The fault ORTHOSIM_TEST_FAULT asks for, if any; `blocks` bounds B. `machine_blocks`: whether
/// pB, sync and arbiter are accepted.
std::optional<TestFault> test_fault(std::uint64_t blocks, bool machine_blocks = false) {
  const char* spec = std::getenv("ORTHOSIM_TEST_FAULT");
  if (spec == nullptr) {
    return std::nullopt;
  }
  const std::string text = spec;
  const char* expected = machine_blocks ? "B:flip:CYCLE:BIT or B:late:CYCLE (B a processor's "
                                          "number, pB, sync or arbiter)"
                                        : "B:flip:CYCLE:BIT or B:late:CYCLE (on a network, "
                                          "ni:B:... too)";
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
  fault.text = text;
  if (parts.front() == "ni") {
    fault.kind = TestFault::Block::Interface;
    parts.erase(parts.begin());
  }
  if (parts.size() == 4 && parts[1] == "flip") {
    fault.flip = true;
    fault.bit = static_cast<std::uint32_t>(number(parts[3], 31));
  } else if (parts.size() != 3 || parts[1] != "late") {
    throw sw::InputError({"ORTHOSIM_TEST_FAULT"}, expected, "'" + text + "'");
  }
  fault.at = number(parts[2], ~std::uint64_t{0} >> 1);
  const std::string& block = parts[0];
  if (fault.kind == TestFault::Block::Interface) {
    fault.block = number(block, blocks - 1);
  } else if (machine_blocks && block == "sync" && fault.flip) {
    fault.kind = TestFault::Block::Sync;
  } else if (machine_blocks && block == "arbiter" && !fault.flip) {
    fault.kind = TestFault::Block::Arbiter;
  } else if (machine_blocks && block.size() > 1 && block[0] == 'p' && !fault.flip) {
    fault.kind = TestFault::Block::Processor;
    fault.block = number(block.substr(1), blocks - 1);
  } else {
    fault.block = number(block, blocks - 1);
  }
  return fault;
}

/// The blocks of a multiprocessor as config.impl says (model, rtl or cosim), the verilated ones'
/// signals to `fst`; when `test_fault_wanted`, ORTHOSIM_TEST_FAULT's fault: with a number B, the
/// model bus controller of P(B) gets bit BIT of the word on its bus in cycle CYCLE flipped, or
/// one cycle more in the start-up of the access granted in cycle CYCLE; with the whole machine
/// in cosim, pB:late:CYCLE shows the first activity change of P(B) at or after CYCLE one cycle
/// late, sync:flip:CYCLE:BIT flips the interrupt bus's busy flag in CYCLE, arbiter:late:CYCLE
/// shows the first grant at or after CYCLE one cycle late (all on the model's side).
std::unique_ptr<sc::BlockWiring> wiring_for(const sw::SystemConfig& config, rtl::FstTrace* fst,
                                            bool test_fault_wanted) {
  auto wiring = std::make_unique<sc::CosimWiring>(fst);
  const bool machine = config.impl.processor == sw::Impl::Cosim;
  const std::optional<TestFault> f =
      test_fault_wanted ? test_fault(config.n, machine) : std::nullopt;
  if (!f) {
    return wiring;
  }
  if (f->kind == TestFault::Block::Interface) {
    throw sw::InputError({"ORTHOSIM_TEST_FAULT"}, "B:flip:CYCLE:BIT or B:late:CYCLE",
                         "'" + f->text + "' (network interfaces belong to the networks)");
  }
  if (f->kind == TestFault::Block::Numbered) {
    sc::ModelFault fault;
    fault.kind = f->flip ? sc::ModelFault::Kind::FlipBit : sc::ModelFault::Kind::ExtraCycle;
    fault.bit = f->bit;
    fault.at = sw::Cycle{f->at};
    wiring->inject_fault(static_cast<sw::ProcId>(f->block), fault);
    return wiring;
  }
  sc::MachineFault fault;
  fault.kind = f->kind == TestFault::Block::Processor ? sc::MachineFault::Kind::LateActivity
               : f->kind == TestFault::Block::Sync    ? sc::MachineFault::Kind::FlipInterrupt
                                                      : sc::MachineFault::Kind::LateGrant;
  fault.block = static_cast<std::uint32_t>(f->block);
  fault.at = sw::Cycle{f->at};
  wiring->inject_machine_fault(fault);
  return wiring;
}

/// In a network under --impl router=cosim, the model's header departures of router B: bit BIT
/// flipped in cycle CYCLE, or the first one at or after CYCLE reported one cycle late; with
/// "ni:" under ni=cosim, the model's flits taken from node B's interface (inj_take) with bit BIT
/// flipped, or its first message start at or after CYCLE reported one cycle late.
void inject_test_fault(sc::Multicomputer& system) {
  if (const std::optional<TestFault> f = test_fault(system.config().topology.nodes())) {
    sc::net::RtlNetwork::Fault fault;
    fault.interface = f->kind == TestFault::Block::Interface;
    fault.kind = f->flip ? sc::net::RtlNetwork::Fault::Kind::FlipBit
                         : sc::net::RtlNetwork::Fault::Kind::LateHeader;
    fault.router = static_cast<std::uint32_t>(f->block);
    fault.at = sw::Cycle{f->at};
    fault.bit = f->bit;
    sc::net::inject_fault(system, fault);
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

/// Refuses a run whose estimated footprint exceeds the smallest limit given, before anything is
/// elaborated or any file opened (docs/cli.md, --memory-limit).
void check_footprint(const RunDescription& d) {
  std::uint64_t estimate = 0;
  std::optional<std::uint64_t> limit;
  const auto take = [&](std::uint64_t bytes, std::optional<std::uint64_t> own_limit) {
    estimate += bytes;
    if (own_limit) {
      limit = std::min(limit.value_or(*own_limit), *own_limit);
    }
  };
  for (const sw::SystemRun& run : d.systems) {
    take(sc::Multiprocessor::footprint(run.program, run.config), run.memory_limit);
  }
  for (const sw::NetworkRunRequest& run : d.networks) {
    take(sc::Multicomputer::footprint(run.program, run.config), run.memory_limit);
  }
  if (limit && estimate > *limit) {
    throw sw::ParameterError("memory-limit", "a run that fits in " + bytes_text(*limit),
                             "an estimated footprint of " + bytes_text(estimate) +
                                 " (docs/cli.md: fewer steps or nodes, shorter messages, or a "
                                 "larger {memory-limit})");
  }
}

/// Where one system's outputs go.
struct OutputPaths {
  std::optional<std::string> vcd;
  std::string vcd_parameter = "vcd";  ///< the parameter an unwritable path is reported against
  std::optional<std::string> trace;
  std::optional<std::string> fst;
  std::uint32_t clock_period_ns = 0;
};

/// The output files of a run, each opened once however many systems name it, before anything is
/// elaborated, so that a bad path fails first.
class OutputFiles {
 public:
  /// With `create_folders`, a missing folder of a file is created first; the folders are removed
  /// again if the command fails.
  explicit OutputFiles(bool create_folders) : create_folders_(create_folders) {}

  void open(const OutputPaths& paths) {
    if (paths.vcd) {
      open_shared(vcds_, paths.vcd_parameter, *paths.vcd, paths.clock_period_ns);
    }
    if (paths.trace) {
      open_shared(traces_, "trace", *paths.trace, paths.clock_period_ns);
    }
    if (paths.fst && !fsts_.count(*paths.fst)) {
      fsts_[*paths.fst] = open_output<rtl::FstTrace>("fst", *paths.fst);
    }
  }

  /// The recorder of a system whose files open() has opened: its waveform, its event trace,
  /// both or neither.
  traces::Recorder& recorder(const OutputPaths& paths) {
    std::vector<traces::Recorder*> targets;
    if (paths.vcd) {
      targets.push_back(vcds_.at(*paths.vcd).file.get());
    }
    if (paths.trace) {
      targets.push_back(traces_.at(*paths.trace).file.get());
    }
    recorders_.push_back(std::make_unique<traces::FanoutRecorder>(std::move(targets)));
    return *recorders_.back();
  }

  [[nodiscard]] rtl::FstTrace* fst(const std::optional<std::string>& path) const {
    return path ? fsts_.at(*path).get() : nullptr;
  }

  /// Ends the elaboration (Verilator's tracing needs it) and opens the FST files.
  void open_fst_files() {
    if (fsts_.empty()) {
      return;
    }
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    for (auto& [path, fst] : fsts_) {
      fst->open();
    }
  }

  /// Ends every file at `end` and puts it in place.
  void finish(sw::Cycle end) {
    for (auto& [path, vcd] : vcds_) {
      vcd.file->finish(end);
    }
    for (auto& [path, trace] : traces_) {
      trace.file->finish(end);
    }
    for (auto& [path, fst] : fsts_) {
      fst->close();
    }
  }

 private:
  template <class Recorder>
  struct Shared {
    std::unique_ptr<Recorder> file;
    std::uint32_t clock_period_ns = 0;  ///< cycles in the file are of this clock
  };

  /// Opens `path` as a `Writer` made from `args`, or reports the path against `parameter` (the
  /// option --vcd is "vcd").
  template <class Writer, class... Args>
  std::unique_ptr<Writer> open_output(const std::string& parameter, const std::string& path,
                                      Args&&... args) {
    try {
      if (create_folders_) {
        folders_.create_folder_of(path);
      }
      return std::make_unique<Writer>(path, std::forward<Args>(args)...);
    } catch (const sw::OutputPathError& e) {
      throw sw::ParameterError(parameter, "a writable file path", e.what());
    }
  }

  /// Opens `path` once; systems that share it must count cycles of one clock.
  template <class Recorder>
  void open_shared(std::map<std::string, Shared<Recorder>>& files, const std::string& parameter,
                   const std::string& path, std::uint32_t clock_period_ns) {
    const auto it = files.find(path);
    if (it == files.end()) {
      files[path] = {open_output<Recorder>(parameter, path, clock_period_ns), clock_period_ns};
    } else if (it->second.clock_period_ns != clock_period_ns) {
      throw sw::ParameterError(parameter, "one clock period for every system in the file",
                               std::to_string(it->second.clock_period_ns) + " ns and " +
                                   std::to_string(clock_period_ns) + " ns");
    }
  }

  bool create_folders_;
  sw::CreatedFolders folders_;  // declared before the files: outlives them
  std::map<std::string, Shared<traces::VcdRecorder>> vcds_;
  std::map<std::string, Shared<traces::EventTraceRecorder>> traces_;
  std::map<std::string, std::unique_ptr<rtl::FstTrace>> fsts_;
  std::vector<std::unique_ptr<traces::FanoutRecorder>> recorders_;
};

/// The names of the systems in the outputs (the roots of their hierarchies).
class SystemNames {
 public:
  explicit SystemNames(bool indexed) : indexed_(indexed) {}
  /// `kind`: "omp", "torus". `prefix` and `index`: "mp" and 0 make "mp0_omp" when indexed.
  std::string next(const std::string& kind, const char* prefix, std::size_t index) {
    if (indexed_) {
      return prefix + std::to_string(index) + "_" + kind;
    }
    const int seen = used_[kind]++;
    return seen == 0 ? kind : kind + std::to_string(seen);
  }

 private:
  bool indexed_;
  std::map<std::string, int> used_;
};

OutputPaths paths_of(const sw::SystemRun& run) {
  return {run.vcd_path, run.vcd_parameter, run.trace_path, run.fst_path,
          run.config->clock_period_ns};
}

OutputPaths paths_of(const sw::NetworkRunRequest& run) {
  return {run.vcd_path, "vcd", run.trace_path, run.fst_path, run.config->clock_period_ns};
}

OutputPaths paths_of(const sw::TrafficRequest& run) {
  return {std::nullopt, "vcd", run.trace_path, run.fst_path, run.config->clock_period_ns};
}

}  // namespace

RunOutcome execute(RunDescription d, sw::Progress& progress) {
  check_footprint(d);
  OutputFiles files(d.create_folders);
  for (const sw::SystemRun& run : d.systems) {
    files.open(paths_of(run));
  }
  for (const sw::NetworkRunRequest& run : d.networks) {
    files.open(paths_of(run));
  }
  if (d.traffic) {
    files.open(paths_of(*d.traffic));
  }

  // Build everything first: SystemC cannot add modules once the simulation has started.
  SystemNames names(d.indexed_names);
  std::vector<std::unique_ptr<sc::Multiprocessor>> processors;
  std::vector<sc::Multiprocessor*> side_by_side;
  std::string running;  ///< the phase of the progress line: the systems' names
  for (const sw::SystemRun& run : d.systems) {
    const OutputPaths paths = paths_of(run);
    const std::string name = names.next(sw::to_string(run.config->arch), "mp", processors.size());
    running += (running.empty() ? "running " : ", ") + name;
    processors.push_back(
        std::make_unique<sc::Multiprocessor>(name.c_str(), run.config, files.recorder(paths),
                                             wiring_for(run.config, files.fst(paths.fst),
                                                        d.test_fault)));
    side_by_side.push_back(processors.back().get());
  }
  std::vector<std::unique_ptr<sc::Multicomputer>> computers;
  const auto build_network = [&](const sw::Validated<sw::NetworkConfig>& config,
                                 const OutputPaths& paths) {
    const std::string name =
        names.next(sw::to_string(config->topology.kind()), "net", computers.size());
    computers.push_back(
        std::make_unique<sc::Multicomputer>(name.c_str(), config, files.recorder(paths),
                                            sc::net::verilated_routers(files.fst(paths.fst))));
    return computers.back().get();
  };
  for (const sw::NetworkRunRequest& run : d.networks) {
    build_network(run.config, paths_of(run));
  }
  sc::Multicomputer* traffic_network =
      d.traffic ? build_network(d.traffic->config, paths_of(*d.traffic)) : nullptr;

  // Everything that can throw comes before the first sc_start (open_fst_files runs one): an
  // exception after SystemC's coroutines ran trips AddressSanitizer's stack bookkeeping.
  if (d.test_fault) {
    for (const auto& system : computers) {
      inject_test_fault(*system);
    }
  }
  for (std::size_t i = 0; i < d.networks.size(); ++i) {
    computers[i]->validate(d.networks[i].program);
  }
  // What the verilated machine cannot hold is bad input, refused before anything runs.
  for (std::size_t i = 0; i < processors.size(); ++i) {
    if (d.systems[i].config->impl.whole_machine()) {
      processors[i]->check(d.systems[i].program);
    }
  }
  files.open_fst_files();

  // A co-simulation mismatch stops the run: the command fails with it (no exception, see above),
  // the files are not finished: the FST stays FILE.partial, the VCD and event trace are removed.
  RunOutcome out;
  bool mismatch = false;
  if (!processors.empty()) {
    for (std::size_t i = 0; i < processors.size(); ++i) {
      processors[i]->load(std::move(d.systems[i].program));
    }
    const sc::ClockDomain& clock = side_by_side.front()->clock();
    sc::run_systems(side_by_side, sw::kCycleLimit,
                    [&] { progress.report(running, clock.now().count(), 0); });
    for (const auto& system : processors) {
      out.systems.push_back(system->result());
      mismatch = mismatch || out.systems.back().mismatch.has_value();
    }
  }
  for (std::size_t i = 0; i < d.networks.size() && !mismatch; ++i) {
    computers[i]->load(std::move(d.networks[i].program));
    const sc::ClockDomain& clock = computers[i]->clock();
    const sw::Cycle begun = clock.now();
    const std::string of = sw::run_of(i, d.networks.size());
    const std::string phase =
        "running " + std::string(computers[i]->name()) + (of.empty() ? "" : " (" + of + ")");
    computers[i]->run(sw::kCycleLimit,
                      [&] { progress.report(phase, (clock.now() - begun).count(), 0); });
    out.networks.push_back(computers[i]->result());
    mismatch = out.networks.back().mismatch.has_value();
  }
  for (std::size_t i = 0; d.traffic && i < d.traffic->rates.size() && !mismatch; ++i) {
    sc::TrafficSpec spec = sc::traffic_of(d.traffic->pattern, d.traffic->config->topology);
    static_cast<sw::TrafficParameters&>(spec) = *d.traffic;
    spec.rate = d.traffic->rates[i];
    const sw::Cycle begun = traffic_network->clock().now();
    traffic_network->start_traffic(spec);
    const std::string of = sw::run_of(i, d.traffic->rates.size());
    const std::string rate = of.empty() ? "" : "rate " + of + ", ";
    traffic_network->run_traffic([&] {
      const sw::MeasuredPhase phase =
          sw::measured_phase(spec.warmup, spec.cycles,
                             (traffic_network->clock().now() - begun).count());
      progress.report(rate + phase.name, phase.done, phase.total);
    });
    out.traffic.push_back(traffic_network->traffic_result());
    mismatch = !out.traffic.back().cosim_mismatch.empty();
  }
  if (mismatch) {
    return out;
  }
  sw::Cycle end;
  for (const auto& system : processors) {
    end = std::max(end, system->end());
  }
  for (const auto& system : computers) {
    end = std::max(end, system->clock().now());
  }
  files.finish(end);
  return out;
}

}  // namespace orthosim::app
