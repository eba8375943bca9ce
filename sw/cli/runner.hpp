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
#include "sw/workload/access_workload.hpp"
#include "traces/stats.hpp"

namespace orthosim::sw {

/// The outcome of running one machine program on one system.
struct RunSummary {
  bool completed = false;
  Cycle cycles;
  std::vector<std::string> blocked;   ///< the watchdog's report when not completed
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
  SystemConfig config;
  AccessWorkload workload;
  std::optional<std::string> vcd_path;
};

struct AccessRun {
  AccessRequest request;
  Cycle formula_cycles;
  RunSummary summary;
};

/// One system of `orthosim run` or `orthosim demo`: a configuration and the machine program it
/// executes, with its own waveform file if asked.
struct SystemRun {
  SystemConfig config;
  MachineProgram program;
  std::optional<std::string> vcd_path;
  std::string vcd_option = "--vcd";  ///< the option an unwritable path is reported against
};

class Runner {
 public:
  virtual ~Runner() = default;
  /// Throws InputError / ConfigError / std::runtime_error on bad input or unwritable output.
  virtual RunSummary run_access(const AccessRequest& request) = 0;
  /// Runs every system side by side in one simulation; one summary per system, in order.
  virtual std::vector<RunSummary> run_programs(const std::vector<SystemRun>& runs) = 0;
};

}  // namespace orthosim::sw
