// [PH91] section 5 as an experiment (docs/tables.md): every pattern of Table 2 generated as a
// one-step program, mapped onto the OMP (IWR steps) and run there, and run natively on the
// hypercube or torus it came from, with the network's start-up and per-word time normalized to
// the OMP's costs by Eq. (2) or Eq. (3). The design and the runs live here; `orthosim tables`
// only parses its options into TablesParameters and prints the TablesRun.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sw/arch/system_config.hpp"
#include "sw/cost/paper_tables.hpp"
#include "sw/mapping/mapping.hpp"
#include "sw/routed/network_config.hpp"
#include "sw/run/runner.hpp"
#include "sw/schedule/schedule.hpp"

namespace orthosim::sw::experiments {

/// What the command line asks for, each value already checked on its own.
struct TablesParameters {
  TopologyKind topology = TopologyKind::Hypercube;
  std::uint32_t m = 0;  ///< multicomputer nodes: 2^p (hypercube), n or n^2 (torus)
  std::uint32_t n = 0;  ///< OMP processors, at most m
  std::uint32_t l = 1;  ///< words per message
  BusTiming timing;     ///< the OMP's costs
  std::uint64_t k1 = 4;
  std::optional<std::uint64_t> k2;  ///< default log2 m, rounded up
  /// Hypercube with m > n: the dimensions made intra-cluster (default the lowest p - q).
  std::optional<std::vector<std::uint32_t>> collapsed;
  NodePorts ports = NodePorts::One;
  std::optional<std::string> trace_path;  ///< one event trace of every run
};

/// The experiment's design: both machines and the normalization that ties their costs together
/// (Eq. 2 for the hypercube, Eq. 3 for the torus).
struct TablesSetup {
  TopologyKind topology = TopologyKind::Hypercube;
  std::uint32_t m = 0;  ///< multicomputer nodes
  std::uint32_t n = 0;  ///< OMP processors
  std::uint32_t l = 1;  ///< words per message
  SystemConfig omp;     ///< the OMP's costs (sizes are fitted per row)
  /// Hypercube with m > n: the dimensions made intra-cluster.
  std::vector<std::uint32_t> collapsed;
  std::string clustering;  ///< how the nodes are clustered onto the processors, in words
  std::uint64_t k1 = 4;
  std::uint64_t k2 = 1;
  paper::Normalization norm;         ///< k1, k2, k3 = (alpha - beta)/tau, delta = beta/tau
  Validated<NetworkConfig> network;  ///< its ni.startup is t_h = k1 k3 tau = k1 (alpha - beta)
  std::uint64_t flits_per_word = 1;  ///< tau_h = k2 tau cycles per word, one flit per cycle
  std::optional<std::string> trace_path;

  /// "Table 4" (hypercube) or "Table 5" (torus): the printed numbers of the paper's tables.
  [[nodiscard]] std::string paper_table() const;
};

/// One pattern: the paper's numbers and the two emulations.
struct TableRow {
  paper::TablePattern pattern = paper::TablePattern::OneToOne;
  std::uint64_t d = 1;       ///< Table 2's interleaving degree
  std::uint64_t lambda = 1;  ///< Table 2's node-congestion factor
  std::uint32_t source = 0;  ///< the one source of the one-to-one and one-to-all rows
  std::optional<std::uint32_t> destination;  ///< the one-to-one's destination
  bool same_cluster = false;                 ///< one-to-one inside one cluster: Table 2's 0
  Cycle formula;  ///< T(d, lambda l) with gamma (docs/architecture.md), or 0
  RunSummary omp;
  /// The native network running the collective a network user would: `native_algorithm` names it
  /// ("direct" where the row has none, docs/tables.md).
  NetworkRunSummary native;
  std::string native_algorithm = "direct";
  /// The same pattern with every message sent directly (a broadcast one message per receiver).
  NetworkRunSummary native_direct;
  double paper_cost = 0;        ///< the network column of the paper's table, tau units
  double paper_vectorized = 0;  ///< Eq. 1 with Table 2's d and lambda, tau units
  double paper_ratio = 0;

  /// native / omp cycles; none when the omp took 0 cycles.
  [[nodiscard]] std::optional<double> measured_ratio() const;
  /// native_direct / omp cycles; none when the omp took 0 cycles.
  [[nodiscard]] std::optional<double> direct_ratio() const;
  [[nodiscard]] bool ok() const {
    return omp.payload_ok() && native.payload_ok() && native_direct.payload_ok();
  }
};

struct TablesRun {
  TablesSetup setup;
  std::vector<TableRow> rows;

  [[nodiscard]] bool ok() const;
};

/// The design of `parameters`. Throws InputError naming the option when the machines they make
/// cannot be built (an OMP the configuration refuses, messages longer than a network message).
[[nodiscard]] TablesSetup design_tables(const TablesParameters& parameters);

/// The collectives the native network may run for `pattern` (each a schedule named by its
/// algorithm), fastest measured kept: on the torus the all-to-all broadcast by a row-then-column
/// gather and the all-to-all personalized by [A2A]'s A1, [6] and the two-phase exchange (k a
/// power of two from 4 to 32); on the hypercube the one-to-all broadcast and scatter by a binomial
/// tree from node 0, the all-to-all broadcast by recursive doubling and the all-to-all
/// personalized by the CC-cube complete exchange ([CALMANT] section 5.1, Johnsson and Ho's). None
/// for the one-to-one and the torus' one-to-all rows (sent directly).
[[nodiscard]] std::vector<std::pair<std::string, Schedule>> native_collectives(
    const TablesSetup& setup, paper::TablePattern pattern);

/// Runs every row of `setup` through `runner` (one elaboration: every multiprocessor and network
/// at once) and fills in the paper's numbers beside the measured ones. The native column runs
/// each row's collectives (native_collectives) and keeps the fastest that delivered everything.
[[nodiscard]] TablesRun run_tables(const TablesSetup& setup, Runner& runner);

}  // namespace orthosim::sw::experiments
