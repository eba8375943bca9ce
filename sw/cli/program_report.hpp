// What `orthosim map`, `run` and `demo` print: the mapped listings in the paper's notation, the
// per-step cycle tables, and their JSON.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "sw/cost/program_cost.hpp"
#include "sw/mapping/mapping.hpp"
#include "sw/run/runner.hpp"

namespace orthosim::sw::cli {

/// The lines `run`'s table prints for one step: each operation with its accesses' cycles, each
/// line ended by '\n' (one string per step, not per line: a large step has thousands).
using StepOperations = std::string;

/// A step's table lines. `run` keeps these instead of the mapped steps when it prints a table:
/// a large program's steps take about ten times the bytes of their lines.
[[nodiscard]] StepOperations step_operations(const MappedStep& step, const MemoryOrganization& org,
                                             const BusTiming& timing);

/// A mapped program run on one system: what was asked and what came back.
struct ProgramRun {
  const MappedProgram& mapped;
  SystemConfig config;
  ProgramCost predicted;
  RunSummary summary;
  std::optional<std::string> vcd_path;
  /// What print_run prints of each step (step_operations); run_json reads `mapped.steps`.
  std::vector<StepOperations> operations;

  /// Cycles of step k: from the end of step k-1 (or the start) to the end of step k.
  [[nodiscard]] Cycle step_cycles(std::size_t k) const;
  [[nodiscard]] std::size_t messages_delivered() const;
  /// Completed, and every message arrived intact.
  [[nodiscard]] bool ok() const;
};

[[nodiscard]] nlohmann::json mapping_json(const MappedProgram& mapped, const BusTiming& timing);
void print_mapping(const MappedProgram& mapped, std::ostream& out);

[[nodiscard]] nlohmann::json run_json(const ProgramRun& run);
/// Drops what the JSON of a step does not read (the parcels' pieces, the relay index sets, the
/// compute phases, where each transfer was written), for a caller that keeps the mapped steps
/// only to print them as JSON.
void keep_what_json_prints(MappedStep& step);
/// Writes json_text(run_json(run), 2) and a line break, one step at a time: the whole JSON is
/// never held (its tree takes several times its text, 129 MB for a 256-node, 10-step program).
void write_run_json(const ProgramRun& run, std::ostream& out);
void print_run(const ProgramRun& run, std::ostream& out);

[[nodiscard]] nlohmann::json demo_json(const std::vector<ProgramRun>& runs,
                                       const std::string& out_dir);
void print_demo(const std::vector<ProgramRun>& runs, const std::string& out_dir, std::ostream& out);

}  // namespace orthosim::sw::cli
