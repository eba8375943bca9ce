// The cost tables of [PH91] section 5 as functions: Table 2 (the cost T(d, lambda l) of
// emulating a communication pattern on the OMP), the hypercube table (printed "Table 4", called
// Table 3 in the text) and the torus table (printed "Table 5", called Table 4 in the text), with
// the normalization of Eq. (2) (hypercube) and Eq. (3) (torus). `orthosim tables` prints them
// beside the emulated cycles (docs/tables.md). These are oracles: the SystemC models never call
// them.
//
// Errata of [PH91] (docs/references.md): the torus table's vectorized costs are half of Eq. 1,
// and for m = n^2 its all-to-all rows drop Table 2's (m/n) and (m/n)^2 factors. Eq. 1 and
// Table 2 are the definitions: torus_vectorized_cost() follows them,
// torus_vectorized_cost_as_printed() keeps the printed column for reference.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sw/arch/system_config.hpp"
#include "sw/core/cycle.hpp"

namespace orthosim::sw::paper {

/// The rows of Table 2 (and of the hypercube and torus tables), in the paper's order.
enum class TablePattern : std::uint8_t {
  OneToOne,              ///< Table 1's C1
  OneToAllBroadcast,     ///< C3
  AllToAllBroadcast,     ///< C6
  OneToAllPersonalized,  ///< C4
  AllToAllPersonalized,  ///< C7
};

/// The five rows in Table 2's order.
[[nodiscard]] const std::vector<TablePattern>& table_patterns();
/// "one-to-one", "one-to-all broadcast", "all-to-all broadcast", "one-to-all personalized",
/// "all-to-all personalized".
[[nodiscard]] std::string to_string(TablePattern p);
/// Table 1's name of the pattern: "C1", "C3", "C6", "C4", "C7".
[[nodiscard]] std::string table1_name(TablePattern p);

// ---- Table 2 -------------------------------------------------------------------------------

/// Table 2: the interleaving degree d of the IWR step: 1 for one-to-one, n - 1 for every other
/// row (a processor writes to or reads from the n - 1 others).
[[nodiscard]] std::uint64_t table2_degree(TablePattern p, std::uint64_t n);
/// Table 2: the node-congestion factor lambda (section 5): 1 for one-to-one and one-to-all
/// broadcast, m/n for all-to-all broadcast and one-to-all personalized, (m/n)^2 for all-to-all
/// personalized (column m > n; the column m = n is the same with m/n = 1). Requires n | m.
[[nodiscard]] std::uint64_t table2_lambda(TablePattern p, std::uint64_t m, std::uint64_t n);
/// Table 2's cost T(d, lambda l) in cycles with the project's IWR formula,
/// 2(alpha + beta(lambda l - 1) + d tau lambda l) + gamma (Eq. 1 plus the bus switch gamma);
/// 0 for a one-to-one between two nodes of one cluster (Table 2, column m > n, first row).
[[nodiscard]] Cycle table2_cycles(TablePattern p, std::uint64_t m, std::uint64_t n, std::uint64_t l,
                                  const BusTiming& timing, bool same_cluster = false);

// ---- Eq. (2) and Eq. (3) -------------------------------------------------------------------

/// The normalizing constants of Eq. (2) (hypercube: t = k3 tau, tau_h = k2 tau, t_h = k1 k3 tau)
/// and Eq. (3) (torus: t_o = k3 tau_o, tau_m = k2 tau_o, t_m = k1 k3 tau_o), plus
/// delta = beta / tau of Eq. (1).
struct Normalization {
  double k1 = 0;
  double k2 = 0;
  double k3 = 0;
  double delta = 0;
};
/// k3 and delta from the OMP's costs: Eq. (1) takes t = alpha - beta as the fixed cost, so
/// k3 = (alpha - beta) / tau; delta = beta / tau. k1 and k2 are the caller's.
[[nodiscard]] Normalization normalize(const BusTiming& timing, double k1, double k2);

/// Eq. (1) in tau units, T(d, l) / tau = 2 k3 + 2 (d + delta) l: the vectorized cost of a
/// pattern is vectorized_cost(N, table2_degree(p, n), table2_lambda(p, m, n) * l).
[[nodiscard]] double eq1_tau_units(const Normalization& k, double d, double l);

// ---- The hypercube table (printed "Table 4"; the text's "Table 3") -------------------------

/// Column "Hypercube communication cost [21] in tau units", m > n rows (the m = n rows are the
/// same expressions with m = n), log = log2:
///   one-to-one               (2 + log m) k1 k3 + (2 l / log m) k2
///   one-to-all broadcast     2 (log m) k1 k3 + 2 l k2
///   all-to-all broadcast     2 (log m) k1 k3 + 2 l (m / log m) k2
///   one-to-all personalized  (log m) k1 k3 + l m k2
///   all-to-all personalized  2 (log m) k1 k3 + l m k2
/// Requires m >= 2.
[[nodiscard]] double hypercube_cost(TablePattern p, double m, double l, const Normalization& k);
/// Column "Vectorized communication cost in tau units", m > n rows (m = n: the same with
/// m/n = 1): 2 k3 + 2 (1 + delta) l; 2 k3 + 2 (n - 1 + delta) l; 2 k3 + 2 (n - 1 + delta)(m/n) l;
/// 2 k3 + 2 (n - 1 + delta)(m/n) l; 2 k3 + 2 (n - 1 + delta)(m/n)^2 l. This is Eq. (1) with
/// Table 2's d and lambda.
[[nodiscard]] double hypercube_vectorized_cost(TablePattern p, double m, double n, double l,
                                               const Normalization& k);
/// hypercube_cost / hypercube_vectorized_cost: the reduction the table's last two columns
/// approximate (short messages: the fixed costs; long ones: the per-word costs).
[[nodiscard]] double hypercube_ratio(TablePattern p, double m, double n, double l,
                                     const Normalization& k);

// ---- The torus table (printed "Table 5"; the text's "Table 4") -----------------------------

/// Column "Torus communication cost [21] in tau units" for an s x s torus (m = s^2 nodes):
/// rows m = n^2 (s = n) and rows m = n (s = sqrt(n)) are the same expressions in s and m:
///   one-to-one               (s + 6) k1 k3 + (l / 2) k2
///   one-to-all broadcast     s k1 k3 + l k2
///   all-to-all broadcast     2 s k1 k3 + l m k2        (m = n^2: l n^2 k2; m = n: l n k2)
///   one-to-all personalized  2 s k1 k3 + l m k2
///   all-to-all personalized  2 s k1 k3 + 2 l m^2 k2    (m = n^2: 2 l n^4 k2; m = n: 2 l n^2 k2)
/// Requires m to be a perfect square >= 4.
[[nodiscard]] double torus_cost(TablePattern p, double m, double l, const Normalization& k);
/// The torus table's "Vectorized communication cost" column as printed, for m = n^2 (n = sqrt m)
/// or m = n: k3 + (1 + delta) l; k3 + (n - 1 + delta) l; k3 + (n - 1 + delta) l;
/// m = n^2: k3 + (n - 1 + delta) n l twice, m = n: k3 + (n - 1 + delta) l twice. Half of Eq. 1
/// and missing Table 2's factors (errata of [PH91], docs/references.md): not used for the ratio.
[[nodiscard]] double torus_vectorized_cost_as_printed(TablePattern p, double m, double n, double l,
                                                      const Normalization& k);
/// The corrected column: Eq. (1) with Table 2's d and lambda, as for the hypercube,
/// 2 k3 + 2 (d + delta) lambda l.
[[nodiscard]] double torus_vectorized_cost(TablePattern p, double m, double n, double l,
                                           const Normalization& k);
/// torus_cost / torus_vectorized_cost (the corrected column).
[[nodiscard]] double torus_ratio(TablePattern p, double m, double n, double l,
                                 const Normalization& k);

}  // namespace orthosim::sw::paper
