// What `orthosim tables` prints (docs/tables.md): per pattern of [PH91]'s Table 2, the paper's
// formula, the emulated OMP and native network cycles, and the measured ratio beside the paper's
// (hypercube table, printed "Table 4"; torus table, printed "Table 5").
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "sw/arch/system_config.hpp"
#include "sw/cli/runner.hpp"
#include "sw/cost/paper_tables.hpp"
#include "sw/routed/network_config.hpp"

namespace orthosim::sw::cli {

/// The command's parameters after validation: both machines and the normalization that ties
/// their costs together (Eq. 2 for the hypercube, Eq. 3 for the torus).
struct TablesSetup {
  TopologyKind topology = TopologyKind::Hypercube;
  std::uint32_t m = 0;  ///< multicomputer nodes
  std::uint32_t n = 0;  ///< OMP processors
  std::uint32_t l = 1;  ///< words per message
  SystemConfig omp;     ///< the OMP's costs (sizes are fitted per row)
  std::string clustering;
  std::uint64_t k1 = 4;
  std::uint64_t k2 = 1;
  paper::Normalization norm;  ///< k1, k2, k3 = (alpha - beta)/tau, delta = beta/tau
  NetworkConfig network;      ///< its ni.startup is t_h = k1 k3 tau = k1 (alpha - beta)
  std::uint64_t flits_per_word = 1;  ///< tau_h = k2 tau cycles per word, one flit per cycle

  /// "Table 4" (hypercube) or "Table 5" (torus): the printed numbers of the paper's tables.
  [[nodiscard]] std::string paper_table() const;
};

/// One pattern: the paper's numbers and the two emulations.
struct TableRow {
  paper::TablePattern pattern = paper::TablePattern::OneToOne;
  std::uint64_t d = 1;        ///< Table 2's interleaving degree
  std::uint64_t lambda = 1;   ///< Table 2's node-congestion factor
  std::uint32_t source = 0;   ///< the one source of the one-to-one and one-to-all rows
  std::optional<std::uint32_t> destination;  ///< the one-to-one's destination
  bool same_cluster = false;  ///< one-to-one inside one cluster: Table 2's 0
  Cycle formula;              ///< T(d, lambda l) with gamma (docs/architecture.md), or 0
  RunSummary omp;
  NetworkRunSummary native;
  double paper_cost = 0;        ///< the network column of the paper's table, tau units
  double paper_vectorized = 0;  ///< Eq. 1 with Table 2's d and lambda, tau units
  double paper_ratio = 0;

  /// native / omp cycles; none when the omp took 0 cycles.
  [[nodiscard]] std::optional<double> measured_ratio() const;
  [[nodiscard]] bool ok() const {
    return omp.payload_ok() && native.payload_ok();
  }
};

struct TablesRun {
  TablesSetup setup;
  std::vector<TableRow> rows;

  [[nodiscard]] bool ok() const;
};

[[nodiscard]] nlohmann::json tables_json(const TablesRun& run);
void print_tables(const TablesRun& run, std::ostream& out);

}  // namespace orthosim::sw::cli
