// [PH91] section 5: Table 2, the hypercube and torus tables, Eq. (1)-(3).
#include "sw/cost/paper_tables.hpp"

#include <cmath>
#include <stdexcept>

#include "sw/cost/bus_cost.hpp"

namespace orthosim::sw::paper {

const std::vector<TablePattern>& table_patterns() {
  static const std::vector<TablePattern> rows = {TablePattern::OneToOne,
                                                 TablePattern::OneToAllBroadcast,
                                                 TablePattern::AllToAllBroadcast,
                                                 TablePattern::OneToAllPersonalized,
                                                 TablePattern::AllToAllPersonalized};
  return rows;
}

std::string to_string(TablePattern p) {
  switch (p) {
    case TablePattern::OneToOne:
      return "one-to-one";
    case TablePattern::OneToAllBroadcast:
      return "one-to-all broadcast";
    case TablePattern::AllToAllBroadcast:
      return "all-to-all broadcast";
    case TablePattern::OneToAllPersonalized:
      return "one-to-all personalized";
    case TablePattern::AllToAllPersonalized:
      return "all-to-all personalized";
  }
  return "?";
}

std::string table1_name(TablePattern p) {
  switch (p) {
    case TablePattern::OneToOne:
      return "C1";
    case TablePattern::OneToAllBroadcast:
      return "C3";
    case TablePattern::AllToAllBroadcast:
      return "C6";
    case TablePattern::OneToAllPersonalized:
      return "C4";
    case TablePattern::AllToAllPersonalized:
      return "C7";
  }
  return "?";
}

// ---- Table 2 -------------------------------------------------------------------------------

std::uint64_t table2_degree(TablePattern p, std::uint64_t n) {
  if (p == TablePattern::OneToOne) {
    return 1;
  }
  return n > 0 ? n - 1 : 0;
}

std::uint64_t table2_lambda(TablePattern p, std::uint64_t m, std::uint64_t n) {
  if (n == 0 || m % n != 0) {
    throw std::invalid_argument("table2_lambda: n must divide m");
  }
  const std::uint64_t ratio = m / n;
  switch (p) {
    case TablePattern::OneToOne:
    case TablePattern::OneToAllBroadcast:
      return 1;
    case TablePattern::AllToAllBroadcast:
    case TablePattern::OneToAllPersonalized:
      return ratio;
    case TablePattern::AllToAllPersonalized:
      return ratio * ratio;
  }
  return 1;
}

Cycle table2_cycles(TablePattern p, std::uint64_t m, std::uint64_t n, std::uint64_t l,
                    const BusTiming& timing, bool same_cluster) {
  if (p == TablePattern::OneToOne && same_cluster) {
    return Cycle{0};
  }
  return iwr_step(timing, table2_degree(p, n), table2_lambda(p, m, n) * l);
}

// ---- Eq. (1)-(3) ---------------------------------------------------------------------------

Normalization normalize(const BusTiming& timing, double k1, double k2) {
  Normalization k;
  k.k1 = k1;
  k.k2 = k2;
  const auto tau = static_cast<double>(timing.tau);
  k.k3 = (static_cast<double>(timing.alpha) - static_cast<double>(timing.beta)) / tau;
  k.delta = static_cast<double>(timing.beta) / tau;
  return k;
}

double eq1_tau_units(const Normalization& k, double d, double l) {
  return 2 * k.k3 + 2 * (d + k.delta) * l;
}

namespace {

/// Table 2's d and lambda l, for Eq. (1) in tau units.
double vectorized(TablePattern p, double m, double n, double l, const Normalization& k) {
  const double d = p == TablePattern::OneToOne ? 1.0 : n - 1;
  double lambda = 1;
  switch (p) {
    case TablePattern::OneToOne:
    case TablePattern::OneToAllBroadcast:
      break;
    case TablePattern::AllToAllBroadcast:
    case TablePattern::OneToAllPersonalized:
      lambda = m / n;
      break;
    case TablePattern::AllToAllPersonalized:
      lambda = (m / n) * (m / n);
      break;
  }
  return eq1_tau_units(k, d, lambda * l);
}

}  // namespace

// ---- The hypercube table -------------------------------------------------------------------

double hypercube_cost(TablePattern p, double m, double l, const Normalization& k) {
  const double log_m = std::log2(m);
  const double fixed = k.k1 * k.k3;
  switch (p) {
    case TablePattern::OneToOne:
      return (2 + log_m) * fixed + (2 * l / log_m) * k.k2;
    case TablePattern::OneToAllBroadcast:
      return 2 * log_m * fixed + 2 * l * k.k2;
    case TablePattern::AllToAllBroadcast:
      return 2 * log_m * fixed + 2 * l * (m / log_m) * k.k2;
    case TablePattern::OneToAllPersonalized:
      return log_m * fixed + l * m * k.k2;
    case TablePattern::AllToAllPersonalized:
      return 2 * log_m * fixed + l * m * k.k2;
  }
  return 0;
}

double hypercube_vectorized_cost(TablePattern p, double m, double n, double l,
                                 const Normalization& k) {
  return vectorized(p, m, n, l, k);
}

double hypercube_ratio(TablePattern p, double m, double n, double l, const Normalization& k) {
  return hypercube_cost(p, m, l, k) / hypercube_vectorized_cost(p, m, n, l, k);
}

// ---- The torus table -----------------------------------------------------------------------

double torus_cost(TablePattern p, double m, double l, const Normalization& k) {
  const double s = std::sqrt(m);
  const double fixed = k.k1 * k.k3;
  switch (p) {
    case TablePattern::OneToOne:
      return (s + 6) * fixed + (l / 2) * k.k2;
    case TablePattern::OneToAllBroadcast:
      return s * fixed + l * k.k2;
    case TablePattern::AllToAllBroadcast:
    case TablePattern::OneToAllPersonalized:
      return 2 * s * fixed + l * m * k.k2;
    case TablePattern::AllToAllPersonalized:
      return 2 * s * fixed + 2 * l * m * m * k.k2;
  }
  return 0;
}

double torus_vectorized_cost_as_printed(TablePattern p, double m, double n, double l,
                                        const Normalization& k) {
  const bool squared = m > n;  // the rows m = n^2; otherwise m = n
  switch (p) {
    case TablePattern::OneToOne:
      return k.k3 + (1 + k.delta) * l;
    case TablePattern::OneToAllBroadcast:
    case TablePattern::AllToAllBroadcast:
      return k.k3 + (n - 1 + k.delta) * l;
    case TablePattern::OneToAllPersonalized:
    case TablePattern::AllToAllPersonalized:
      return k.k3 + (n - 1 + k.delta) * (squared ? n : 1.0) * l;
  }
  return 0;
}

double torus_vectorized_cost(TablePattern p, double m, double n, double l, const Normalization& k) {
  return vectorized(p, m, n, l, k);
}

double torus_ratio(TablePattern p, double m, double n, double l, const Normalization& k) {
  return torus_cost(p, m, l, k) / torus_vectorized_cost(p, m, n, l, k);
}

}  // namespace orthosim::sw::paper
