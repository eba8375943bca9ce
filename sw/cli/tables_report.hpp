// What `orthosim tables` prints (docs/tables.md): per pattern of [PH91]'s Table 2, the paper's
// formula, the emulated OMP and native network cycles, and the measured ratio beside the paper's
// (hypercube table, printed "Table 4"; torus table, printed "Table 5").
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

#include "sw/experiments/tables.hpp"

namespace orthosim::sw::cli {

[[nodiscard]] nlohmann::json tables_json(const experiments::TablesRun& run);
void print_tables(const experiments::TablesRun& run, std::ostream& out);

}  // namespace orthosim::sw::cli
