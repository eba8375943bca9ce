// What the command line asks of the emulator, and what it gets back. sw/cli parses and prints;
// the `orthosim` executable implements Runner with the SystemC systems. Free of SystemC.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sw/arch/system_config.hpp"
#include "sw/core/cycle.hpp"
#include "sw/core/progress.hpp"
#include "sw/machine/machine_program.hpp"
#include "sw/routed/network_config.hpp"
#include "sw/routed/routed_program.hpp"
#include "sw/run/run_summary.hpp"
#include "sw/traffic/traffic_pattern.hpp"
#include "sw/traffic/traffic_point.hpp"
#include "sw/workload/access_workload.hpp"

namespace orthosim::sw {

/// One system, one workload (`orthosim access`).
struct AccessRequest {
  Validated<SystemConfig> config;
  AccessWorkload workload;
  std::optional<std::string> vcd_path;
  std::optional<std::string> trace_path =
      std::nullopt;  ///< the event trace (--trace, docs/traces.md)
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

/// Synthetic traffic at one or several offered rates (`orthosim traffic`).
struct TrafficRequest : TrafficParameters {
  Validated<NetworkConfig> config;
  TrafficPattern pattern;
  std::optional<std::string> embedding_path = std::nullopt;  ///< the node map that placed it
  std::vector<double> rates;                             ///< flits per node per cycle, one run each
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
  /// count from its own load). Systems that name the same output file share it, which needs
  /// one clock period.
  virtual MixedRunResult run_mixed(const std::vector<SystemRun>& systems,
                                   const std::vector<NetworkRunRequest>& networks) = 0;

  /// Where the runs report how far they are (the command line's progress line); until set,
  /// nowhere. `progress` must outlive the runs.
  void report_progress_to(Progress& progress) { progress_ = &progress; }

 protected:
  [[nodiscard]] Progress& progress() const { return *progress_; }

 private:
  Progress* progress_ = &no_progress();
};

}  // namespace orthosim::sw
