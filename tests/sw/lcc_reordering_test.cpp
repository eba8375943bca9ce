// Processor reordering of linear-complement communications ([LCC] sections 3 to 5). Oracles: the
// paper's matrices and contentions (Examples 4 and 6), e-cube paths routed and counted here on the
// relabeled nodes, the LCC between relabeled nodes read off node by node, every ordering of the
// address bits tried (the 8! of the 8-cube, the d! of small cubes), and Corollaries 1 and 2's
// formulas. Never the library's own output.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "sw/traffic/lcc.hpp"
#include "sw/traffic/lcc_reordering.hpp"
#include "tests/support/lcc_by_hand.hpp"

namespace orthosim {
namespace {

using sw::BitOrdering;
using sw::Lcc;

using lcc_test::matrix_times;

/// x' = Qx written out: bit k of x' is bit r[k] of x (Definition 8, section 5's R).
std::uint32_t permute_bits(const BitOrdering& r, std::uint32_t x) {
  std::uint32_t out = 0;
  for (std::size_t k = 0; k < r.size(); ++k) {
    if ((x >> r[k]) & 1U) {
      out |= 1U << k;
    }
  }
  return out;
}

/// The LCC between relabeled nodes read off the node map x' -> y' = Q(A(Q^-1 x') + b): its b is
/// the image of node 0, its column l the image of e_l plus b.
Lcc conjugate_by_nodes(const Lcc& l, const BitOrdering& r) {
  std::vector<std::uint32_t> back(std::size_t{1} << l.d);  // x' -> x
  for (std::uint32_t x = 0; x < back.size(); ++x) {
    back[permute_bits(r, x)] = x;
  }
  const auto image = [&](std::uint32_t x_new) {
    return permute_bits(r, matrix_times(l, back[x_new]));
  };
  Lcc out;
  out.d = l.d;
  out.b = image(0);
  out.rows.assign(l.d, 0);
  for (std::uint32_t col = 0; col < l.d; ++col) {
    const std::uint64_t column = image(1U << col) ^ out.b;
    for (std::uint32_t row = 0; row < l.d; ++row) {
      out.rows[row] |= ((column >> row) & 1U) << col;
    }
  }
  return out;
}

/// T_i measured: every message x -> Ax+b relabeled to Qx -> Q(Ax+b), routed by e-cube (the
/// differing bits corrected in increasing dimension), messages counted per directed channel; the
/// largest count per dimension.
std::vector<std::uint64_t> routed_contention(const Lcc& l, const BitOrdering& r) {
  const std::uint32_t nodes = 1U << l.d;
  std::vector<std::uint64_t> load(std::size_t{nodes} * l.d, 0);  // (node, dimension) -> paths
  for (std::uint32_t x = 0; x < nodes; ++x) {
    std::uint32_t at = permute_bits(r, x);
    const std::uint32_t to = permute_bits(r, matrix_times(l, x));
    for (std::uint32_t dim = 0; dim < l.d; ++dim) {
      if (((at ^ to) >> dim) & 1U) {
        ++load[std::size_t{at} * l.d + dim];
        at ^= 1U << dim;
      }
    }
  }
  std::vector<std::uint64_t> per_dim(l.d, 0);
  for (std::uint32_t node = 0; node < nodes; ++node) {
    for (std::uint32_t dim = 0; dim < l.d; ++dim) {
      per_dim[dim] = std::max(per_dim[dim], load[std::size_t{node} * l.d + dim]);
    }
  }
  return per_dim;
}

std::uint64_t routed_degree(const Lcc& l, const BitOrdering& r) {
  const std::vector<std::uint64_t> t = routed_contention(l, r);
  return *std::max_element(t.begin(), t.end());
}

/// QAQ^-1, Qb by index: entry (k, l) is a_{r[k], r[l]}, bit k of b is b_{r[k]}.
Lcc conjugate_by_index(const Lcc& l, const BitOrdering& r) {
  Lcc out;
  out.d = l.d;
  out.rows.assign(l.d, 0);
  for (std::uint32_t k = 0; k < l.d; ++k) {
    for (std::uint32_t c = 0; c < l.d; ++c) {
      out.rows[k] |= ((l.rows[r[k]] >> r[c]) & 1U) << c;
    }
    out.b |= ((l.b >> r[k]) & 1U) << k;
  }
  return out;
}

std::uint64_t degree_after(const Lcc& l, const BitOrdering& r) {
  return sw::contention_degree(conjugate_by_index(l, r));
}

/// Rank over GF(2) as log2 of the size of the row span, enumerated.
std::uint32_t span_rank(const std::vector<std::uint64_t>& rows, std::uint64_t row_set,
                        std::uint64_t column_set) {
  std::vector<std::uint64_t> picked;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if ((row_set >> i) & 1U) {
      picked.push_back(rows[i] & column_set);
    }
  }
  std::set<std::uint64_t> span;
  for (std::uint32_t pick = 0; pick < (1U << picked.size()); ++pick) {
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < picked.size(); ++i) {
      if ((pick >> i) & 1U) {
        v ^= picked[i];
      }
    }
    span.insert(v);
  }
  std::uint32_t rank = 0;
  while ((std::size_t{1} << rank) < span.size()) {
    ++rank;
  }
  return rank;
}

/// A random LCC; with `keep` set, some bits are left alone (row e_i, b_i = 0: never crossed).
Lcc random_lcc(std::uint32_t d, std::mt19937_64& rng, bool keep) {
  Lcc l = Lcc::random(d, rng);
  if (keep) {
    const std::uint64_t kept = rng() & rng();
    for (std::uint32_t i = 0; i < d; ++i) {
      if ((kept >> i) & 1U) {
        l.rows[i] = std::uint64_t{1} << i;
        l.b &= ~(std::uint64_t{1} << i);
      }
    }
  }
  return l;
}

/// Corollaries 1 and 2: the least T any reordering reaches, 1 for an LCP and 2^((d-1) - rank(A))
/// for an LCG; 0 when no message moves at all.
std::uint64_t corollary_minimum(const Lcc& l) {
  bool moves = l.b != 0;
  for (std::uint32_t i = 0; i < l.d; ++i) {
    moves = moves || l.rows[i] != (std::uint64_t{1} << i);
  }
  if (!moves) {
    return 0;
  }
  const std::uint32_t rank = span_rank(l.rows, (std::uint64_t{1} << l.d) - 1, ~std::uint64_t{0});
  return rank == l.d ? 1 : std::uint64_t{1} << ((l.d - 1) - rank);
}

const BitOrdering kExample4{0, 4, 2, 6, 1, 5, 3, 7};
const BitOrdering kExample6{3, 4, 0, 7, 2, 5, 1, 6};

TEST(Reordering, RankOfAnySubmatrixMatchesSpanSize) {
  std::mt19937_64 rng(3);
  for (int n = 0; n < 200; ++n) {
    const Lcc l = Lcc::random(1 + static_cast<std::uint32_t>(n % 9), rng);
    const std::uint64_t all = (std::uint64_t{1} << l.d) - 1;
    const std::uint64_t rows = rng() & all;
    const std::uint64_t columns = rng() & all;
    ASSERT_EQ(sw::gf2_rank_of(l.rows, rows, columns), span_rank(l.rows, rows, columns))
        << l.to_string() << " rows " << rows << " columns " << columns;
  }
}

TEST(Reordering, TheoremTwoIsTheLccBetweenRelabeledNodes) {
  std::mt19937_64 rng(15);
  for (std::uint32_t d = 1; d <= 9; ++d) {
    for (int n = 0; n < 12; ++n) {
      const Lcc l = random_lcc(d, rng, n % 2 == 1);
      BitOrdering r = sw::identity_ordering(d);
      std::shuffle(r.begin(), r.end(), rng);
      SCOPED_TRACE(l.to_string());
      EXPECT_EQ(sw::reorder(l, r), conjugate_by_nodes(l, r));
      const std::vector<std::uint32_t> relabeling = sw::node_relabeling(r);
      ASSERT_EQ(relabeling.size(), std::size_t{1} << d);
      for (std::uint32_t x = 0; x < relabeling.size(); ++x) {
        ASSERT_EQ(relabeling[x], permute_bits(r, x));
        ASSERT_EQ(sw::relabel_node(r, x), permute_bits(r, x));
      }
    }
  }
  EXPECT_THROW((void)sw::reorder(Lcc::bit_reverse(3), {0, 1}), std::invalid_argument);
  EXPECT_THROW((void)sw::reorder(Lcc::bit_reverse(3), {0, 1, 1}), std::invalid_argument);
  EXPECT_THROW((void)sw::node_relabeling({0, 3, 1}), std::invalid_argument);
}

TEST(Reordering, Example4TransposeBecomesContentionFree) {
  // Example 4's new LCP: the pairs of address bits (0 1), (2 3), (4 5), (6 7) swapped.
  const Lcc expected =
      Lcc::parse("01000000/10000000/00010000/00100000/00000100/00001000/00000001/00000010,00000000",
                 8);
  EXPECT_EQ(sw::reorder(Lcc::transpose(8), kExample4), expected);
  // "T0 = T1 = ... = T7 = 2^0 = 1".
  EXPECT_EQ(routed_contention(Lcc::transpose(8), kExample4), std::vector<std::uint64_t>(8, 1));
  EXPECT_EQ(sw::contention_per_dimension(sw::reorder(Lcc::transpose(8), kExample4)),
            std::vector<std::uint64_t>(8, 1));
  // Fig. 3 run on Example 3's matrix gives Example 4's Q: the reconstruction is the paper's.
  EXPECT_EQ(sw::optimal_ordering(Lcc::transpose(8)), kExample4);
}

TEST(Reordering, Example6MakesTransposeTwoAndBitReverseOne) {
  // Example 6's two new communications: bit-reverse within each half, and the pair swaps.
  EXPECT_EQ(sw::reorder(Lcc::transpose(8), kExample6),
            Lcc::parse("00010000/00100000/01000000/10000000/00000001/00000010/00000100/00001000,"
                       "00000000",
                       8));
  EXPECT_EQ(sw::reorder(Lcc::bit_reverse(8), kExample6),
            Lcc::parse("01000000/10000000/00010000/00100000/00000100/00001000/00000001/00000010,"
                       "00000000",
                       8));
  // "the degrees of channel contention now become 2 for matrix transpose and 1 for bit-reverse".
  EXPECT_EQ(routed_degree(Lcc::transpose(8), kExample6), 2U);
  EXPECT_EQ(routed_degree(Lcc::bit_reverse(8), kExample6), 1U);
}

TEST(Reordering, AllOrderingsOfThe8CubeAgreeWithTheOptimizerAndTheProgram) {
  const std::vector<Lcc> patterns = {Lcc::transpose(8), Lcc::bit_reverse(8), Lcc::reverse_flip(8)};
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::uint64_t> least(patterns.size(), UINT64_MAX);
  std::uint64_t least_max = UINT64_MAX;
  BitOrdering r = sw::identity_ordering(8);
  std::uint64_t orderings = 0;
  std::uint64_t least_sum_at_least_max = UINT64_MAX;
  do {
    std::uint64_t worst = 0;
    std::uint64_t sum = 0;
    for (std::size_t p = 0; p < patterns.size(); ++p) {
      const std::uint64_t t = degree_after(patterns[p], r);
      least[p] = std::min(least[p], t);
      worst = std::max(worst, t);
      sum += t;
    }
    if (worst < least_max) {
      least_sum_at_least_max = UINT64_MAX;
    }
    least_max = std::min(least_max, worst);
    if (worst == least_max) {
      least_sum_at_least_max = std::min(least_sum_at_least_max, sum);
    }
    ++orderings;
  } while (std::next_permutation(r.begin(), r.end()));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  RecordProperty("exhaustive_seconds", std::to_string(seconds));
  EXPECT_EQ(orderings, 40320U);
  EXPECT_EQ(least, (std::vector<std::uint64_t>{1, 1, 1}));
  EXPECT_EQ(least_max, 2U);

  for (const Lcc& l : patterns) {
    SCOPED_TRACE(l.to_string());
    EXPECT_EQ(routed_degree(l, sw::optimal_ordering(l)), 1U);
    EXPECT_EQ(routed_degree(l, sw::joint_optimal_ordering({l})), 1U);
  }
  const BitOrdering joint = sw::joint_optimal_ordering(patterns);
  std::vector<std::uint64_t> joint_degrees;
  for (const Lcc& l : patterns) {
    joint_degrees.push_back(routed_degree(l, joint));
  }
  // Of the orderings with the least worst T (2), the least sum is 4, reached by transpose 2,
  // bit-reverse 1, reverse-flip 1 alone: section 6.1's M-G, "the degree of channel contention
  // for matrix-transpose is 2 and it is contention-free for bit-reverse and reverse-flip".
  EXPECT_EQ(least_sum_at_least_max, 4U);
  EXPECT_EQ(joint_degrees, (std::vector<std::uint64_t>{2, 1, 1}));
}

TEST(Reordering, CorollariesOneAndTwoOnRandomMatricesOf4To10Cubes) {
  std::mt19937_64 rng(20);
  int lcps = 0;
  int lcgs_above_one = 0;  // gathers of rank below d-1, where the minimum is 2 or more
  for (std::uint32_t d = 4; d <= 10; ++d) {
    for (int n = 0; n < 16; ++n) {
      Lcc l = random_lcc(d, rng, n % 2 == 1);
      if (n % 4 == 2) {
        for (std::uint64_t& row : l.rows) {
          row &= rng();  // sparser rows, lower ranks
        }
      }
      SCOPED_TRACE(l.to_string());
      const std::uint64_t minimum = corollary_minimum(l);
      lcps += sw::gf2_rank(l.rows, d, d) == d ? 1 : 0;
      lcgs_above_one += minimum >= 2 ? 1 : 0;
      const BitOrdering r = sw::optimal_ordering(l);
      ASSERT_TRUE(sw::is_bit_ordering(r, d));
      EXPECT_EQ(routed_degree(l, r), minimum);
      EXPECT_LE(routed_degree(l, r), routed_degree(l, sw::identity_ordering(d)));
      if (d <= 6) {
        // No ordering does better: all d! of them.
        BitOrdering any = sw::identity_ordering(d);
        std::uint64_t least = UINT64_MAX;
        do {
          least = std::min(least, degree_after(l, any));
        } while (std::next_permutation(any.begin(), any.end()));
        EXPECT_EQ(least, minimum);
      }
    }
  }
  EXPECT_GT(lcps, 10);  // both kinds were drawn
  EXPECT_GT(lcgs_above_one, 10);
}

/// The least (worst, sum) of the set's contention degrees over all orderings, compared worst
/// first, against the degrees the dynamic program's ordering routes to.
void expect_the_program_takes_the_least(const std::vector<Lcc>& set) {
  const auto d = set.front().d;
  BitOrdering any = sw::identity_ordering(d);
  std::pair<std::uint64_t, std::uint64_t> least{UINT64_MAX, UINT64_MAX};
  do {
    std::pair<std::uint64_t, std::uint64_t> score{0, 0};
    for (const Lcc& l : set) {
      score.first = std::max(score.first, degree_after(l, any));
      score.second += degree_after(l, any);
    }
    least = std::min(least, score);
  } while (std::next_permutation(any.begin(), any.end()));
  const BitOrdering r = sw::joint_optimal_ordering(set);
  std::pair<std::uint64_t, std::uint64_t> found{0, 0};
  for (const Lcc& l : set) {
    found.first = std::max(found.first, routed_degree(l, r));
    found.second += routed_degree(l, r);
  }
  EXPECT_EQ(found, least) << set.front().to_string();
}

TEST(Reordering, ProgramMinimizesTheWorstThenTheSumOfASetLikeAllOrderings) {
  std::mt19937_64 rng(8);
  for (std::uint32_t d = 2; d <= 6; ++d) {
    for (int n = 0; n < 10; ++n) {
      std::vector<Lcc> set;
      for (int k = 0; k <= n % 3; ++k) {
        set.push_back(random_lcc(d, rng, (n + k) % 2 == 1));
      }
      expect_the_program_takes_the_least(set);
    }
  }
  EXPECT_THROW((void)sw::joint_optimal_ordering({}), std::invalid_argument);
  EXPECT_THROW((void)sw::joint_optimal_ordering({Lcc::bit_reverse(3), Lcc::bit_reverse(4)}),
               std::invalid_argument);
  EXPECT_THROW((void)sw::joint_optimal_ordering({Lcc::bit_reverse(21)}), std::invalid_argument);
  Lcc short_of_rows = Lcc::bit_reverse(4);
  short_of_rows.rows.pop_back();
  EXPECT_THROW((void)sw::joint_optimal_ordering({Lcc::bit_reverse(4), short_of_rows}),
               std::invalid_argument);
  EXPECT_FALSE(sw::is_bit_ordering(sw::identity_ordering(33), 33));  // LCCs have 32 bits at most
}

// A dimension whose row is e_i but whose b_i is 1 is crossed by every message ([LCC] Theorem 1:
// y_i - x_i = b_i): only A(i) = e_i with b_i = 0 leaves it uncrossed. Random LCCs seldom have
// such a row; here half the rows are e_i, with b_i = 1.
TEST(Reordering, ADimensionEveryMessageFlipsCountsInTheProgram) {
  std::mt19937_64 rng(31);
  for (std::uint32_t d = 3; d <= 5; ++d) {
    for (int n = 0; n < 8; ++n) {
      Lcc flips = random_lcc(d, rng, n % 2 == 1);
      for (std::uint32_t i = n % 2; i < d; i += 2) {
        flips.rows[i] = std::uint64_t{1} << i;
        flips.b |= std::uint64_t{1} << i;
      }
      expect_the_program_takes_the_least({flips, random_lcc(d, rng, n % 2 == 0)});
    }
  }
}

// Every LCC of 1, 2 and 3 address bits (all 2^(d^2 + d) of them: A and b): the optimizer and the
// dynamic program of the LCC alone both reach Corollaries 1 and 2's minimum, counted on routed
// e-cube paths. Among them "00/10,00" (y0 = 0, y1 = x0): in the order (0, 1) column 0 of A is
// (0 1)^t, rank 1, T = 1; in the order (1, 0) it is column 1, zero, so T_1 = 2^(1-0) = 2. Only
// an ordering that starts with bit 0 is optimal.
TEST(Reordering, EveryLccOfOneToThreeBitsReachesItsCorollaryMinimum) {
  for (std::uint32_t d = 1; d <= 3; ++d) {
    const std::uint32_t entries = d * d + d;
    for (std::uint32_t draw = 0; draw < (1U << entries); ++draw) {
      Lcc l;
      l.d = d;
      for (std::uint32_t i = 0; i < d; ++i) {
        l.rows.push_back((draw >> (i * d)) & ((1U << d) - 1));
      }
      l.b = draw >> (d * d);
      SCOPED_TRACE(l.to_string());
      const std::uint64_t minimum = corollary_minimum(l);
      ASSERT_EQ(routed_degree(l, sw::optimal_ordering(l)), minimum);
      ASSERT_EQ(routed_degree(l, sw::joint_optimal_ordering({l})), minimum);
    }
  }
  const Lcc only_from_bit_0 = Lcc::parse("00/10,00", 2);
  EXPECT_EQ(routed_degree(only_from_bit_0, {0, 1}), 1U);
  EXPECT_EQ(routed_degree(only_from_bit_0, {1, 0}), 2U);
  EXPECT_EQ(sw::joint_optimal_ordering({only_from_bit_0}), (BitOrdering{0, 1}));
}

// The optimizer takes only an LCC whose rows are its d, of at most 32 bits; the program LCCs of
// one d; a node relabeling lists 2^d nodes, so d below 32. Each is refused, not worked on.
TEST(Reordering, MalformedInputsAreRefused) {
  Lcc short_of_rows = Lcc::bit_reverse(4);
  short_of_rows.rows.pop_back();
  Lcc extra_row = Lcc::bit_reverse(4);
  extra_row.rows.push_back(1);
  Lcc too_wide = Lcc::identity(32);
  too_wide.d = 33;
  too_wide.rows.push_back(std::uint64_t{1} << 32);
  for (const Lcc& bad : {short_of_rows, extra_row, too_wide}) {
    EXPECT_THROW((void)sw::optimal_ordering(bad), std::invalid_argument)
        << bad.d << " bits, " << bad.rows.size() << " rows";
  }
  // Three rows, as many as the first LCC's d, but a d of 4.
  Lcc other_d = Lcc::bit_reverse(3);
  other_d.d = 4;
  EXPECT_THROW((void)sw::joint_optimal_ordering({Lcc::bit_reverse(3), other_d}),
               std::invalid_argument);
  EXPECT_THROW((void)sw::node_relabeling(sw::identity_ordering(32)), std::invalid_argument);
}

// The program takes up to max_joint_ordering_d = 20 bits. On 20 bits with the low four reversed
// (bits 0 and 3, 1 and 2 exchanged) and the others kept, an LCP, the identity numbering has
// T = 2 (T_3 = 2^(3 - rank(A_{L4,L3})): rows 0..3 restricted to columns 0..2 are e_3 (zero),
// e_2, e_1, e_0, rank 2), and the program reaches Corollary 1's T = 1.
TEST(Reordering, TheProgramOrdersTwentyBits) {
  Lcc low_reversed = Lcc::identity(sw::max_joint_ordering_d);
  std::reverse(low_reversed.rows.begin(), low_reversed.rows.begin() + 4);
  EXPECT_EQ(degree_after(low_reversed, sw::identity_ordering(20)), 2U);
  const BitOrdering r = sw::joint_optimal_ordering({low_reversed});
  ASSERT_TRUE(sw::is_bit_ordering(r, 20));
  EXPECT_EQ(degree_after(low_reversed, r), 1U);
}

// Sets of 5-bit LCCs on which the program's two objectives part, the least found by trying the
// 120 orderings. Four LCCs: the least worst T is 2 (T = 2, 2, 2, 2, sum 8), while the least sum,
// 7, has a worst of 4 (T = 1, 4, 1, 1): the worst comes first. Six LCCs, the first a gather of
// rank 1, T = 8 under every ordering (Corollary 2: 2^((5-1)-1)): the worst is 8 throughout and
// the sum decides, 22 at T = 8, 4, 2, 2, 4, 2; T = 8, 8, 2, 2, 2, 1 sums to 23 although the sum of
// its log2 T is smaller (9 against 10): the sum is of the T themselves.
TEST(Reordering, ProgramTakesTheLeastWorstFirstThenTheLeastSumOfTheTs) {
  const auto lccs = [](const std::vector<std::string>& texts) {
    std::vector<Lcc> out;
    for (const std::string& text : texts) {
      out.push_back(Lcc::parse(text, 5));
    }
    return out;
  };
  expect_the_program_takes_the_least(
      lccs({"00100/00001/10100/01100/01000,00110", "00010/00001/00000/00000/01010,01110",
            "11111/00000/10000/10011/01010,00011", "00100/10101/01001/10001/10100,00111"}));
  expect_the_program_takes_the_least(
      lccs({"10001/10001/10001/00000/00000,10100", "00000/00001/00001/00000/10011,10111",
            "00000/00000/10011/01100/11011,00011", "11101/01100/10001/10011/11101,10101",
            "11010/01010/11110/01110/01110,11111", "01000/11010/11100/10100/00100,11100"}));
}

}  // namespace
}  // namespace orthosim
