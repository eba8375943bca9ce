// What `orthosim map`, `run` and `demo` print: the mapped listings in the paper's notation, the
// per-step cycle tables, and their JSON.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "sw/run/runner.hpp"
#include "sw/cost/program_cost.hpp"
#include "sw/mapping/mapping.hpp"

namespace orthosim::sw::cli {

/// A mapped program run on one system: what was asked and what came back.
struct ProgramRun {
  const MappedProgram& mapped;
  SystemConfig config;
  ProgramCost predicted;
  RunSummary summary;
  std::optional<std::string> vcd_path;

  /// Cycles of step k: from the end of step k-1 (or the start) to the end of step k.
  [[nodiscard]] Cycle step_cycles(std::size_t k) const;
  [[nodiscard]] std::size_t messages_delivered() const;
  /// Completed, and every message arrived intact.
  [[nodiscard]] bool ok() const;
};

[[nodiscard]] nlohmann::json mapping_json(const MappedProgram& mapped, const BusTiming& timing);
void print_mapping(const MappedProgram& mapped, std::ostream& out);

[[nodiscard]] nlohmann::json run_json(const ProgramRun& run);
void print_run(const ProgramRun& run, std::ostream& out);

[[nodiscard]] nlohmann::json demo_json(const std::vector<ProgramRun>& runs,
                                       const std::string& out_dir);
void print_demo(const std::vector<ProgramRun>& runs, const std::string& out_dir,
                std::ostream& out);

}  // namespace orthosim::sw::cli
