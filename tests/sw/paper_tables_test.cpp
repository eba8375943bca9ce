// [PH91] section 5 as functions (sw/cost/paper_tables.hpp): Table 2, Eq. (1)-(3), the hypercube
// table (printed "Table 4") and the torus table (printed "Table 5"). Every expected value is
// worked out by hand here from the paper's expressions, for a few (m, n, l, k1, k2, k3, delta).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "sw/cost/bus_cost.hpp"
#include "sw/cost/paper_tables.hpp"

namespace orthosim {
namespace {

using sw::BusTiming;
using sw::paper::Normalization;
using sw::paper::TablePattern;

constexpr TablePattern kOneToOne = TablePattern::OneToOne;
constexpr TablePattern kBroadcast = TablePattern::OneToAllBroadcast;
constexpr TablePattern kAllBroadcast = TablePattern::AllToAllBroadcast;
constexpr TablePattern kScatter = TablePattern::OneToAllPersonalized;
constexpr TablePattern kAllScatter = TablePattern::AllToAllPersonalized;

/// the project's defaults: alpha 16, beta 2, tau 1, gamma 8, so k3 = 14 and delta = 2.
const BusTiming kDefaults{16, 2, 1, 8};

Normalization norm(double k1, double k2, double k3, double delta) {
  Normalization k;
  k.k1 = k1;
  k.k2 = k2;
  k.k3 = k3;
  k.delta = delta;
  return k;
}

// ---- Table 2 -------------------------------------------------------------------------------

TEST(PaperTables, RowsInTable2OrderWithTable1Names) {
  const auto& rows = sw::paper::table_patterns();
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(sw::paper::to_string(rows[0]), "one-to-one");
  EXPECT_EQ(sw::paper::to_string(rows[1]), "one-to-all broadcast");
  EXPECT_EQ(sw::paper::to_string(rows[2]), "all-to-all broadcast");
  EXPECT_EQ(sw::paper::to_string(rows[3]), "one-to-all personalized");
  EXPECT_EQ(sw::paper::to_string(rows[4]), "all-to-all personalized");
  EXPECT_EQ(sw::paper::table1_name(rows[0]), "C1");
  EXPECT_EQ(sw::paper::table1_name(rows[1]), "C3");
  EXPECT_EQ(sw::paper::table1_name(rows[2]), "C6");
  EXPECT_EQ(sw::paper::table1_name(rows[3]), "C4");
  EXPECT_EQ(sw::paper::table1_name(rows[4]), "C7");
}

TEST(PaperTables, Table2DegreeIsOneForOneToOneAndNMinusOneOtherwise) {
  EXPECT_EQ(sw::paper::table2_degree(kOneToOne, 16), 1u);
  for (TablePattern p : {kBroadcast, kAllBroadcast, kScatter, kAllScatter}) {
    EXPECT_EQ(sw::paper::table2_degree(p, 16), 15u);
    EXPECT_EQ(sw::paper::table2_degree(p, 4), 3u);
  }
}

TEST(PaperTables, Table2LambdaIsOneOrMOverNOrItsSquare) {
  // m = n: every lambda is 1.
  for (TablePattern p : sw::paper::table_patterns()) {
    EXPECT_EQ(sw::paper::table2_lambda(p, 16, 16), 1u);
  }
  // m = 64, n = 16: m/n = 4.
  EXPECT_EQ(sw::paper::table2_lambda(kOneToOne, 64, 16), 1u);
  EXPECT_EQ(sw::paper::table2_lambda(kBroadcast, 64, 16), 1u);
  EXPECT_EQ(sw::paper::table2_lambda(kAllBroadcast, 64, 16), 4u);
  EXPECT_EQ(sw::paper::table2_lambda(kScatter, 64, 16), 4u);
  EXPECT_EQ(sw::paper::table2_lambda(kAllScatter, 64, 16), 16u);
  // m = n^2 = 256: m/n = 16.
  EXPECT_EQ(sw::paper::table2_lambda(kAllBroadcast, 256, 16), 16u);
  EXPECT_EQ(sw::paper::table2_lambda(kAllScatter, 256, 16), 256u);
  EXPECT_THROW((void)sw::paper::table2_lambda(kAllScatter, 20, 16), std::invalid_argument);
}

TEST(PaperTables, Table2CyclesAreTheIwrFormulaWithGamma) {
  // m = n = 16, l = 4: T(1, 4) = 2(16 + 2*3 + 1*1*4) + 8 = 60; T(15, 4) = 2(16 + 6 + 60) + 8 = 172.
  EXPECT_EQ(sw::paper::table2_cycles(kOneToOne, 16, 16, 4, kDefaults).count(), 60u);
  for (TablePattern p : {kBroadcast, kAllBroadcast, kScatter, kAllScatter}) {
    EXPECT_EQ(sw::paper::table2_cycles(p, 16, 16, 4, kDefaults).count(), 172u);
  }
  // m = 256, n = 16, l = 1: T(1,1) = 2(16 + 0 + 1) + 8 = 42; T(15,1) = 2(16 + 15) + 8 = 70;
  // T(15,16) = 2(16 + 2*15 + 15*16) + 8 = 580; T(15,256) = 2(16 + 2*255 + 15*256) + 8 = 8740.
  EXPECT_EQ(sw::paper::table2_cycles(kOneToOne, 256, 16, 1, kDefaults).count(), 42u);
  EXPECT_EQ(sw::paper::table2_cycles(kBroadcast, 256, 16, 1, kDefaults).count(), 70u);
  EXPECT_EQ(sw::paper::table2_cycles(kAllBroadcast, 256, 16, 1, kDefaults).count(), 580u);
  EXPECT_EQ(sw::paper::table2_cycles(kScatter, 256, 16, 1, kDefaults).count(), 580u);
  EXPECT_EQ(sw::paper::table2_cycles(kAllScatter, 256, 16, 1, kDefaults).count(), 8740u);
  // Other costs: alpha 10, beta 3, tau 2, gamma 5; m = 32, n = 8, l = 3, all-to-all
  // personalized: d = 7, lambda l = 16 * 3 = 48: 2(10 + 3*47 + 7*2*48) + 5 = 2*823 + 5 = 1651.
  const BusTiming other{10, 3, 2, 5};
  EXPECT_EQ(sw::paper::table2_cycles(kAllScatter, 32, 8, 3, other).count(), 1651u);
  // One-to-one inside one cluster: 0 (Table 2, m > n).
  EXPECT_EQ(sw::paper::table2_cycles(kOneToOne, 32, 8, 3, other, true).count(), 0u);
  // Only the one-to-one row is free inside a cluster: every other row of column m > n is an IWR
  // step wherever the source sits. One-to-all broadcast, d = 7, lambda l = 3:
  // 2(10 + 3*2 + 7*2*3) + 5 = 2*58 + 5 = 121.
  EXPECT_EQ(sw::paper::table2_cycles(kBroadcast, 32, 8, 3, other, true).count(), 121u);
  EXPECT_EQ(sw::paper::table2_cycles(kAllScatter, 32, 8, 3, other, true).count(), 1651u);
}

// ---- Eq. (1)-(3) ---------------------------------------------------------------------------

TEST(PaperTables, NormalizationTakesK3AndDeltaFromTheOmpCosts) {
  const Normalization k = sw::paper::normalize(kDefaults, 4, 6);
  EXPECT_DOUBLE_EQ(k.k1, 4);
  EXPECT_DOUBLE_EQ(k.k2, 6);
  EXPECT_DOUBLE_EQ(k.k3, 14);    // (16 - 2) / 1
  EXPECT_DOUBLE_EQ(k.delta, 2);  // 2 / 1
  const Normalization h = sw::paper::normalize(BusTiming{10, 4, 4, 0}, 2, 3);
  EXPECT_DOUBLE_EQ(h.k3, 1.5);     // (10 - 4) / 4
  EXPECT_DOUBLE_EQ(h.delta, 1.0);  // 4 / 4
}

TEST(PaperTables, Eq1InTauUnitsIsTheIwrStepWithoutGamma) {
  // 2 k3 + 2 (d + delta) l = 28 + 2 * 17 * 4 = 164 = (172 - 8) / 1.
  EXPECT_DOUBLE_EQ(sw::paper::eq1_tau_units(sw::paper::normalize(kDefaults, 1, 1), 15, 4), 164);
  // alpha 20, beta 4, tau 2, gamma 0: k3 = 8, delta = 2; d = 3, l = 5: 16 + 2*5*5 = 66 tau
  // units = 132 cycles = 2(20 + 4*4 + 3*2*5).
  const BusTiming t{20, 4, 2, 0};
  EXPECT_DOUBLE_EQ(sw::paper::eq1_tau_units(sw::paper::normalize(t, 1, 1), 3, 5), 66);
  EXPECT_EQ(sw::iwr_step(t, 3, 5).count(), 132u);
}

// ---- The hypercube table (printed "Table 4") -----------------------------------------------

TEST(PaperTables, HypercubeCostsMEqualsN) {
  // m = n = 16 (log 4), l = 4, k1 = 4, k2 = 4, k3 = 14: k1 k3 = 56.
  const Normalization k = norm(4, 4, 14, 2);
  EXPECT_DOUBLE_EQ(sw::paper::hypercube_cost(kOneToOne, 16, 4, k), 6 * 56 + (8.0 / 4) * 4);
  EXPECT_DOUBLE_EQ(sw::paper::hypercube_cost(kBroadcast, 16, 4, k), 2 * 4 * 56 + 2 * 4 * 4);
  EXPECT_DOUBLE_EQ(sw::paper::hypercube_cost(kAllBroadcast, 16, 4, k),
                   2 * 4 * 56 + 2 * 4 * (16.0 / 4) * 4);
  EXPECT_DOUBLE_EQ(sw::paper::hypercube_cost(kScatter, 16, 4, k), 4 * 56 + 4 * 16 * 4);
  EXPECT_DOUBLE_EQ(sw::paper::hypercube_cost(kAllScatter, 16, 4, k), 2 * 4 * 56 + 4 * 16 * 4);
  // Vectorized, m = n: 2 k3 + 2 (1 + delta) l = 52; 2 k3 + 2 (n - 1 + delta) l = 164.
  EXPECT_DOUBLE_EQ(sw::paper::hypercube_vectorized_cost(kOneToOne, 16, 16, 4, k), 52);
  for (TablePattern p : {kBroadcast, kAllBroadcast, kScatter, kAllScatter}) {
    EXPECT_DOUBLE_EQ(sw::paper::hypercube_vectorized_cost(p, 16, 16, 4, k), 164);
  }
  EXPECT_DOUBLE_EQ(sw::paper::hypercube_ratio(kOneToOne, 16, 16, 4, k), 344.0 / 52.0);
  EXPECT_DOUBLE_EQ(sw::paper::hypercube_ratio(kAllScatter, 16, 16, 4, k), 704.0 / 164.0);
}

TEST(PaperTables, HypercubeCostsMGreaterThanN) {
  // m = 64 (log 6), n = 16, l = 2, k1 = 4, k2 = 6, k3 = 14, delta = 2.
  const Normalization k = norm(4, 6, 14, 2);
  EXPECT_DOUBLE_EQ(sw::paper::hypercube_cost(kOneToOne, 64, 2, k), 8 * 56 + (4.0 / 6) * 6);  // 452
  EXPECT_DOUBLE_EQ(sw::paper::hypercube_cost(kBroadcast, 64, 2, k), 12 * 56 + 2 * 2 * 6);    // 696
  EXPECT_DOUBLE_EQ(sw::paper::hypercube_cost(kAllBroadcast, 64, 2, k), 672 + 256);
  EXPECT_DOUBLE_EQ(sw::paper::hypercube_cost(kScatter, 64, 2, k), 6 * 56 + 2 * 64 * 6);      // 1104
  EXPECT_DOUBLE_EQ(sw::paper::hypercube_cost(kAllScatter, 64, 2, k), 12 * 56 + 2 * 64 * 6);  // 1440
  // Vectorized: 28 + 2*3*2 = 40; 28 + 2*17*2 = 96; 28 + 2*17*4*2 = 300 (twice);
  // 28 + 2*17*16*2 = 1116.
  EXPECT_DOUBLE_EQ(sw::paper::hypercube_vectorized_cost(kOneToOne, 64, 16, 2, k), 40);
  EXPECT_DOUBLE_EQ(sw::paper::hypercube_vectorized_cost(kBroadcast, 64, 16, 2, k), 96);
  EXPECT_DOUBLE_EQ(sw::paper::hypercube_vectorized_cost(kAllBroadcast, 64, 16, 2, k), 300);
  EXPECT_DOUBLE_EQ(sw::paper::hypercube_vectorized_cost(kScatter, 64, 16, 2, k), 300);
  EXPECT_DOUBLE_EQ(sw::paper::hypercube_vectorized_cost(kAllScatter, 64, 16, 2, k), 1116);
  // Non-integer constants: alpha 10, beta 4, tau 4 (k3 1.5, delta 1), k1 2, k2 3; m = 8, n = 4,
  // l = 1: (2 + 3) * 2 * 1.5 + (2/3) * 3 = 17 over 2 * 1.5 + 2 * (1 + 1) * 1 = 7.
  const Normalization h = sw::paper::normalize(BusTiming{10, 4, 4, 0}, 2, 3);
  EXPECT_DOUBLE_EQ(sw::paper::hypercube_cost(kOneToOne, 8, 1, h), 17);
  EXPECT_DOUBLE_EQ(sw::paper::hypercube_vectorized_cost(kOneToOne, 8, 4, 1, h), 7);
  EXPECT_DOUBLE_EQ(sw::paper::hypercube_ratio(kOneToOne, 8, 4, 1, h), 17.0 / 7.0);
}

TEST(PaperTables, HypercubeReductionColumnsAreTheLimits) {
  // Short messages (l -> 0): the fixed costs, e.g. ((2 + log m)/2) k1 for one-to-one and
  // (log m) k1 for the broadcasts: Theorem 2's O(log m).
  const Normalization k = norm(4, 10, 14, 2);
  EXPECT_DOUBLE_EQ(sw::paper::hypercube_ratio(kOneToOne, 256, 16, 0, k), (2 + 8) / 2.0 * 4);
  EXPECT_DOUBLE_EQ(sw::paper::hypercube_ratio(kBroadcast, 256, 16, 0, k), 8 * 4);
  EXPECT_DOUBLE_EQ(sw::paper::hypercube_ratio(kScatter, 256, 16, 0, k), 8 / 2.0 * 4);
  // Long messages: one-to-one tends to k2 / (log m (1 + delta)).
  EXPECT_NEAR(sw::paper::hypercube_ratio(kOneToOne, 256, 16, 1e9, k), 10.0 / (8 * 3), 1e-6);
  // The short-message reduction grows with m.
  double previous = 0;
  for (double m : {4.0, 16.0, 64.0, 256.0, 1024.0}) {
    const double r = sw::paper::hypercube_ratio(kOneToOne, m, m, 1, k);
    EXPECT_GT(r, previous) << "m = " << m;
    previous = r;
  }
}

// ---- The torus table (printed "Table 5") ---------------------------------------------------

TEST(PaperTables, TorusCostsMEqualsNSquared) {
  // m = n^2 = 256, n = 16, l = 1, k1 = 4, k2 = 8, k3 = 14: the rows as printed in n.
  const Normalization k = norm(4, 8, 14, 2);
  const double n = 16, l = 1, k1k3 = 56, k2 = 8;
  EXPECT_DOUBLE_EQ(sw::paper::torus_cost(kOneToOne, 256, l, k), (n + 6) * k1k3 + l / 2 * k2);
  EXPECT_DOUBLE_EQ(sw::paper::torus_cost(kBroadcast, 256, l, k), n * k1k3 + l * k2);
  EXPECT_DOUBLE_EQ(sw::paper::torus_cost(kAllBroadcast, 256, l, k), 2 * n * k1k3 + l * n * n * k2);
  EXPECT_DOUBLE_EQ(sw::paper::torus_cost(kScatter, 256, l, k), 2 * n * k1k3 + l * n * n * k2);
  EXPECT_DOUBLE_EQ(sw::paper::torus_cost(kAllScatter, 256, l, k),
                   2 * n * k1k3 + 2 * l * n * n * n * n * k2);
  EXPECT_DOUBLE_EQ(sw::paper::torus_cost(kOneToOne, 256, l, k), 1236);
  EXPECT_DOUBLE_EQ(sw::paper::torus_cost(kAllScatter, 256, l, k), 1050368);
}

TEST(PaperTables, TorusCostsMEqualsN) {
  // m = n = 16 (a 4 x 4 torus, sqrt n = 4), l = 4, k1 = 4, k2 = 4, k3 = 14: the rows in sqrt n.
  const Normalization k = norm(4, 4, 14, 2);
  const double n = 16, r = 4, l = 4, k1k3 = 56, k2 = 4;
  EXPECT_DOUBLE_EQ(sw::paper::torus_cost(kOneToOne, 16, l, k), (r + 6) * k1k3 + l / 2 * k2);  // 568
  EXPECT_DOUBLE_EQ(sw::paper::torus_cost(kBroadcast, 16, l, k), r * k1k3 + l * k2);           // 240
  EXPECT_DOUBLE_EQ(sw::paper::torus_cost(kAllBroadcast, 16, l, k), 2 * r * k1k3 + l * n * k2);
  EXPECT_DOUBLE_EQ(sw::paper::torus_cost(kScatter, 16, l, k), 2 * r * k1k3 + l * n * k2);
  EXPECT_DOUBLE_EQ(sw::paper::torus_cost(kAllScatter, 16, l, k), 2 * r * k1k3 + 2 * l * n * n * k2);
  EXPECT_DOUBLE_EQ(sw::paper::torus_cost(kAllScatter, 16, l, k), 8640);
}

TEST(PaperTables, TorusVectorizedColumnAsPrintedAndCorrected) {
  const Normalization k = norm(4, 8, 14, 2);
  // Printed, m = n^2 = 256, n = 16, l = 1: k3 + (1 + delta) l = 17; k3 + (n - 1 + delta) l = 31
  // (one-to-all and all-to-all broadcast); k3 + (n - 1 + delta) n l = 286 (both personalized).
  EXPECT_DOUBLE_EQ(sw::paper::torus_vectorized_cost_as_printed(kOneToOne, 256, 16, 1, k), 17);
  EXPECT_DOUBLE_EQ(sw::paper::torus_vectorized_cost_as_printed(kBroadcast, 256, 16, 1, k), 31);
  EXPECT_DOUBLE_EQ(sw::paper::torus_vectorized_cost_as_printed(kAllBroadcast, 256, 16, 1, k), 31);
  EXPECT_DOUBLE_EQ(sw::paper::torus_vectorized_cost_as_printed(kScatter, 256, 16, 1, k), 286);
  EXPECT_DOUBLE_EQ(sw::paper::torus_vectorized_cost_as_printed(kAllScatter, 256, 16, 1, k), 286);
  // Printed, m = n = 16, l = 4: 14 + 3*4 = 26, then 14 + 17*4 = 82 for the other four.
  EXPECT_DOUBLE_EQ(sw::paper::torus_vectorized_cost_as_printed(kOneToOne, 16, 16, 4, k), 26);
  for (TablePattern p : {kBroadcast, kAllBroadcast, kScatter, kAllScatter}) {
    EXPECT_DOUBLE_EQ(sw::paper::torus_vectorized_cost_as_printed(p, 16, 16, 4, k), 82);
  }
  // Corrected (Eq. 1 with Table 2), m = 256, n = 16, l = 1: 28 + 2*3 = 34; 28 + 2*17 = 62;
  // 28 + 2*17*16 = 572 (lambda = m/n, twice); 28 + 2*17*256 = 8732 (lambda = (m/n)^2).
  EXPECT_DOUBLE_EQ(sw::paper::torus_vectorized_cost(kOneToOne, 256, 16, 1, k), 34);
  EXPECT_DOUBLE_EQ(sw::paper::torus_vectorized_cost(kBroadcast, 256, 16, 1, k), 62);
  EXPECT_DOUBLE_EQ(sw::paper::torus_vectorized_cost(kAllBroadcast, 256, 16, 1, k), 572);
  EXPECT_DOUBLE_EQ(sw::paper::torus_vectorized_cost(kScatter, 256, 16, 1, k), 572);
  EXPECT_DOUBLE_EQ(sw::paper::torus_vectorized_cost(kAllScatter, 256, 16, 1, k), 8732);
  // Where lambda = 1 the correction is exactly Eq. 1's factor 2.
  EXPECT_DOUBLE_EQ(sw::paper::torus_vectorized_cost(kOneToOne, 256, 16, 1, k),
                   2 * sw::paper::torus_vectorized_cost_as_printed(kOneToOne, 256, 16, 1, k));
  EXPECT_DOUBLE_EQ(sw::paper::torus_vectorized_cost(kBroadcast, 16, 16, 4, k),
                   2 * sw::paper::torus_vectorized_cost_as_printed(kBroadcast, 16, 16, 4, k));
  // The ratio uses the corrected column.
  EXPECT_DOUBLE_EQ(sw::paper::torus_ratio(kOneToOne, 256, 16, 1, k), 1236.0 / 34.0);
  EXPECT_DOUBLE_EQ(sw::paper::torus_ratio(kAllScatter, 256, 16, 1, k), 1050368.0 / 8732.0);
}

TEST(PaperTables, TorusShortMessageReductionIsOrderN) {
  // l -> 0 with the corrected column: (n + 6) k1 k3 / (2 k3) = (n + 6) k1 / 2 for one-to-one,
  // half the printed (n + 6) k1; n k1 / 2 for the broadcast. Theorem 3's O(n).
  const Normalization k = norm(3, 5, 14, 2);
  EXPECT_DOUBLE_EQ(sw::paper::torus_ratio(kOneToOne, 1024, 32, 0, k), (32 + 6) * 3 / 2.0);
  EXPECT_DOUBLE_EQ(sw::paper::torus_ratio(kBroadcast, 1024, 32, 0, k), 32 * 3 / 2.0);
  EXPECT_DOUBLE_EQ(sw::paper::torus_ratio(kAllBroadcast, 1024, 32, 0, k), 2 * 32 * 3 / 2.0);
}

}  // namespace
}  // namespace orthosim
