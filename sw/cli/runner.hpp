// What the command line asks of the emulator, and what it gets back. sw/cli parses and prints;
// the `orthosim` executable implements Runner with the SystemC systems. Free of SystemC.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sw/arch/system_config.hpp"
#include "sw/core/cycle.hpp"
#include "sw/machine/machine_program.hpp"
#include "sw/routed/network_config.hpp"
#include "sw/routed/routed_program.hpp"
#include "sw/traffic/traffic_pattern.hpp"
#include "sw/traffic/traffic_point.hpp"
#include "sw/workload/access_workload.hpp"
#include "traces/stats.hpp"

namespace orthosim::sw {

/// The outcome of running one machine program on one system.
struct RunSummary {
  bool completed = false;
  /// --impl cosim: the first output where model and RTL differed ("" when none); the run
  /// stopped there and its waveform files stay FILE.partial.
  std::string cosim_mismatch;
  Cycle cycles;
  std::vector<std::string> blocked;   ///< the watchdog's report when not completed
  /// Not completed because the run reached the emulator's cycle limit (sw::kCycleLimit) while
  /// still busy: neither a deadlock nor a lost message.
  bool cycle_limit_reached = false;
  bool payload_ok = false;
  std::size_t messages = 0;           ///< messages of the manifest, all checked
  std::size_t messages_failed = 0;    ///< missing, duplicated onto another's words, or corrupted
  std::uint64_t words = 0;
  std::vector<std::string> delivery_failures;
  /// Per program step (machine programs with step marks): the cycle the last processor ended it.
  std::vector<Cycle> step_ends;
  std::uint64_t conflicts = 0;
  std::uint64_t conflict_wait_cycles = 0;
  std::vector<traces::StatEntry> stats;
};

/// One system, one workload (`orthosim access`).
struct AccessRequest {
  Validated<SystemConfig> config;
  AccessWorkload workload;
  std::optional<std::string> vcd_path;
  std::optional<std::string> trace_path = std::nullopt;  ///< the event trace (--trace, docs/traces.md)
  /// The verilated blocks' FST waveform (--fst, docs/rtl.md).
  std::optional<std::string> fst_path = std::nullopt;
};

struct AccessRun {
  AccessRequest request;
  Cycle formula_cycles;
  RunSummary summary;
};

/// One system of `orthosim run` or `orthosim demo`: a configuration and the machine program it
/// executes, with its own waveform file if asked.
struct SystemRun {
  Validated<SystemConfig> config;
  MachineProgram program;
  std::optional<std::string> vcd_path;
  /// The option an unwritable path is reported against: vcd, or the demo's out.
  std::string vcd_parameter = "vcd";
  /// The event trace; systems that name the same file share it.
  std::optional<std::string> trace_path = std::nullopt;
  /// The verilated blocks' FST waveform (--fst); systems that name it share it.
  std::optional<std::string> fst_path = std::nullopt;
  /// Bytes (--memory-limit): the systems run side by side are refused before anything runs when
  /// their estimated footprint exceeds the smallest limit given (docs/cli.md).
  std::optional<std::uint64_t> memory_limit = std::nullopt;
};

/// A routed program on a network (`orthosim run --arch mesh|torus|hypercube`).
struct NetworkRunRequest {
  Validated<NetworkConfig> config;
  RoutedProgram program;
  std::optional<std::string> vcd_path;
  std::optional<std::string> trace_path = std::nullopt;
  /// The verilated routers' FST waveform (--fst, with --impl router=rtl|cosim).
  std::optional<std::string> fst_path = std::nullopt;
  /// Bytes (--memory-limit): the run is refused before anything runs when its estimated
  /// footprint exceeds it (docs/cli.md).
  std::optional<std::uint64_t> memory_limit = std::nullopt;
};

/// One router-to-router channel after a run.
struct ChannelSummary {
  std::string name;  ///< "n3.x+": the channel leaving node 3 in the positive x direction
  std::uint32_t peak_flits = 0;  ///< the most flits its input buffers held at once
  std::uint64_t messages = 0;    ///< messages routed through it
};

struct NetworkRunSummary {
  RunSummary run;
  std::uint64_t max_channel_contention = 0;
  std::uint32_t peak_channel_occupancy = 0;
  std::vector<ChannelSummary> channels;
};

/// Synthetic traffic at one or several offered rates (`orthosim traffic`).
struct TrafficRequest {
  Validated<NetworkConfig> config;
  TrafficPattern pattern;
  std::vector<double> rates;  ///< flits per node per cycle, one run each
  std::uint32_t flits = 20;
  bool exponential = false;
  std::uint64_t warmup = 1000;
  std::uint64_t cycles = 10000;
  std::uint64_t seed = 1;
  std::optional<std::string> trace_path = std::nullopt;  ///< one event trace for every rate's run
  std::optional<std::string> fst_path = std::nullopt;    ///< as NetworkRunRequest::fst_path
};

// ---- orthosim tables: multiprocessors and networks in one elaboration (begin) ----
/// The outcome of Runner::run_mixed: one summary per multiprocessor run and one per network run,
/// each in the order of the request.
struct MixedRunResult {
  std::vector<RunSummary> systems;
  std::vector<NetworkRunSummary> networks;
};
// ---- orthosim tables (end) ----

class Runner {
 public:
  virtual ~Runner() = default;
  /// Throws InputError / ConfigError / std::runtime_error on bad input or unwritable output.
  virtual RunSummary run_access(const AccessRequest& request) = 0;
  /// Runs every system side by side in one simulation; one summary per system, in order. Takes
  /// the runs by value, so that a caller who moves them in keeps no second copy of a program.
  virtual std::vector<RunSummary> run_programs(std::vector<SystemRun> runs) = 0;
  virtual NetworkRunSummary run_network(const NetworkRunRequest& request) = 0;
  virtual std::vector<TrafficPoint> run_traffic(const TrafficRequest& request) = 0;
  /// `orthosim tables`: every multiprocessor and every network built in one elaboration, then the
  /// multiprocessors run side by side and the networks one after another (each network's cycles
  /// count from its own load). No waveforms (every vcd_path must be empty); every trace_path given
  /// names one event trace for all of them, which needs one clock period.
  virtual MixedRunResult run_mixed(const std::vector<SystemRun>& systems,
                                   const std::vector<NetworkRunRequest>& networks) = 0;
};

}  // namespace orthosim::sw
