// What `orthosim access` and `orthosim demo` print: human tables and JSON.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <vector>

#include "sw/cli/runner.hpp"

namespace orthosim::sw::cli {

[[nodiscard]] nlohmann::json access_json(const AccessRun& run);
void print_access(const AccessRun& run, std::ostream& out);

/// Whether a run met its contracts: it completed, every word arrived, and it took exactly the
/// formula's cycles.
[[nodiscard]] bool run_ok(const RunSummary& summary, Cycle formula_cycles);

[[nodiscard]] nlohmann::json demo_json(const DemoRequest& request, const std::vector<AccessRun>& runs);
void print_demo(const DemoRequest& request, const std::vector<AccessRun>& runs, std::ostream& out);

}  // namespace orthosim::sw::cli
