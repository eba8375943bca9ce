// What the command line asks of the emulator, and what it gets back. sw/cli parses and prints;
// the `orthosim` executable implements Runner with the SystemC systems. Free of SystemC.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sw/arch/system_config.hpp"
#include "sw/core/cycle.hpp"
#include "sw/workload/access_workload.hpp"
#include "traces/stats.hpp"

namespace orthosim::sw {

/// The outcome of running one machine program on one system.
struct RunSummary {
  bool completed = false;
  Cycle cycles;
  std::vector<std::string> blocked;   ///< the watchdog's report when not completed
  bool payload_ok = false;
  std::size_t messages = 0;
  std::uint64_t words = 0;
  std::vector<std::string> delivery_failures;
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

/// The same workload on several systems side by side, in one simulation (`orthosim demo`).
struct DemoRequest {
  std::vector<SystemConfig> configs;
  AccessWorkload workload;
  std::string out_dir;
  std::string vcd_path;  ///< inside out_dir
};

class Runner {
 public:
  virtual ~Runner() = default;
  /// Throws InputError / ConfigError / std::runtime_error on bad input or unwritable output.
  virtual RunSummary run_access(const AccessRequest& request) = 0;
  virtual std::vector<RunSummary> run_side_by_side(const DemoRequest& request) = 0;
};

}  // namespace orthosim::sw
