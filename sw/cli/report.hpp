// What `orthosim access` prints: a human table and JSON; the configuration's JSON and problem
// lines that every command shares.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "sw/run/runner.hpp"

namespace orthosim::sw::cli {

[[nodiscard]] nlohmann::json access_json(const AccessRun& run);
void print_access(const AccessRun& run, std::ostream& out);

/// Whether a run met its contracts: it completed, every word arrived, and it took exactly the
/// formula's cycles.
[[nodiscard]] bool run_ok(const RunSummary& summary, Cycle formula_cycles);
/// Writes the co-simulation mismatches of `summaries` to `err`, each line beginning with the
/// command's `prefix` ("orthosim access: "); true if there was one (the command then fails with
/// kExitRunFailed and prints no report of the stopped run).
bool report_cosim_mismatch(const std::vector<RunSummary>& summaries, const std::string& prefix,
                           std::ostream& err);

/// The configuration's parameters, as every command's JSON carries them.
[[nodiscard]] nlohmann::json config_json(const SystemConfig& config);
/// The watchdog's and the delivery check's lines, indented, one per problem.
void print_problems(const RunSummary& summary, std::ostream& out);
/// The width of a right-aligned table column whose largest number is `largest`: `minimum`, or
/// wider so that the number keeps a space before it.
[[nodiscard]] int column_width(std::uint64_t largest, int minimum);
/// How a run that did not complete ended, for the end of its delivery line: "; DEADLOCK" or
/// "; CYCLE LIMIT REACHED"; empty when it completed.
[[nodiscard]] std::string run_end_note(const RunSummary& summary);

}  // namespace orthosim::sw::cli
