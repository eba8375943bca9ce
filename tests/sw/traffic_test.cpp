// Linear-complement communications and [LCC] Theorem 1, and the synthetic traffic patterns.
// Oracles: the paper's own matrices and numbers (Examples 1 and 3, sections 2.3 and 6.1), a brute
// force count of e-cube paths per channel, bit manipulation written out here, and span
// enumeration for GF(2) ranks. Never the library's own output.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>
#include <optional>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "sw/core/diagnostic.hpp"
#include "sw/topology/routing.hpp"
#include "sw/topology/topology.hpp"
#include "sw/traffic/lcc.hpp"
#include "sw/traffic/traffic_pattern.hpp"
#include "tests/support/lcc_by_hand.hpp"

namespace orthosim {
namespace {

using sw::Lcc;
using sw::PatternKind;
using sw::Port;
using sw::Topology;
using sw::TrafficPattern;

std::uint32_t reverse_bits(std::uint32_t x, std::uint32_t d) {
  std::uint32_t y = 0;
  for (std::uint32_t i = 0; i < d; ++i) {
    if ((x >> i) & 1U) {
      y |= 1U << (d - 1 - i);
    }
  }
  return y;
}

using lcc_test::matrix_times;

/// Brute force for Theorem 1: route every message x -> Ax+b (x != y) by e-cube on the d-cube and
/// count the messages on each directed channel; the largest count per dimension.
std::vector<std::uint64_t> brute_contention(const Lcc& l) {
  const Topology cube = Topology::hypercube(l.d);
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint64_t> load;  // (node, dim) -> paths
  for (std::uint32_t x = 0; x < cube.nodes(); ++x) {
    const std::uint32_t y = matrix_times(l, x);
    for (const auto& [node, port] : cube.route(x, y)) {
      ++load[{node, port.dim}];
    }
  }
  std::vector<std::uint64_t> per_dim(l.d, 0);
  for (const auto& [channel, count] : load) {
    per_dim[channel.second] = std::max(per_dim[channel.second], count);
  }
  return per_dim;
}

/// Rank over GF(2) as log2 of the size of the row span, enumerated (rows 0..r-1, columns 0..c-1).
std::uint32_t span_rank(const std::vector<std::uint64_t>& rows, std::uint32_t r, std::uint32_t c) {
  const std::uint64_t mask = (std::uint64_t{1} << c) - 1;
  std::set<std::uint64_t> span;
  for (std::uint32_t pick = 0; pick < (1U << r); ++pick) {
    std::uint64_t v = 0;
    for (std::uint32_t i = 0; i < r; ++i) {
      if ((pick >> i) & 1U) {
        v ^= rows[i] & mask;
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

template <typename F>
void expect_pattern_error(F f, const std::string& text) {
  try {
    f();
    ADD_FAILURE() << "no error; expected one about the pattern: '" << text << "'";
  } catch (const sw::ParameterError& e) {
    EXPECT_EQ(e.parameter(), "pattern") << e.what();
    EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
  }
}

TEST(Lcc, MatricesOfThePaper) {
  // Example 3's matrix-transpose and Example 1's bit-reverse on 8 bits, row i = a_{i,0..7}.
  EXPECT_EQ(Lcc::transpose(8),
            Lcc::parse("00001000/00000100/00000010/00000001/10000000/01000000/00100000/00010000,"
                       "00000000",
                       8));
  EXPECT_EQ(Lcc::bit_reverse(8),
            Lcc::parse("00000001/00000010/00000100/00001000/00010000/00100000/01000000/10000000,"
                       "00000000",
                       8));
  EXPECT_EQ(Lcc::reverse_flip(8).b, 0xFFU);
  EXPECT_EQ(Lcc::bit_reverse(3).to_string(), "001/010/100,000");
  EXPECT_THROW((void)Lcc::transpose(7), std::invalid_argument);
  EXPECT_THROW((void)Lcc::bit_reverse(0), std::invalid_argument);
}

TEST(Lcc, ApplyFollowsTheDefinition) {
  for (std::uint32_t d = 1; d <= 10; ++d) {
    const std::uint32_t mask = (1U << d) - 1;
    const Lcc rev = Lcc::bit_reverse(d);
    const Lcc flip = Lcc::reverse_flip(d);
    for (std::uint32_t x = 0; x <= mask; ++x) {
      EXPECT_EQ(rev.apply(x), reverse_bits(x, d));
      EXPECT_EQ(flip.apply(x), reverse_bits(x, d) ^ mask);
      EXPECT_EQ(Lcc::identity(d).apply(x), x);
      if (d % 2 == 0) {
        const std::uint32_t h = d / 2;
        const std::uint32_t swapped = (x >> h) | ((x & ((1U << h) - 1)) << h);
        EXPECT_EQ(Lcc::transpose(d).apply(x), swapped);
      }
    }
  }
  // Section 6.1: transpose sends (x0..x7) to (x4 x5 x6 x7 x0 x1 x2 x3): node 1 -> node 16.
  EXPECT_EQ(Lcc::transpose(8).apply(1), 16U);
  std::mt19937_64 rng(7);
  for (int n = 0; n < 50; ++n) {
    const Lcc l = Lcc::random(9, rng);
    for (std::uint32_t x = 0; x < 512; ++x) {
      ASSERT_EQ(l.apply(x), matrix_times(l, x));
    }
  }
}

TEST(Lcc, Gf2RankMatchesSpanSize) {
  std::mt19937_64 rng(11);
  for (int n = 0; n < 60; ++n) {
    const std::uint32_t d = 1 + static_cast<std::uint32_t>(n % 8);
    Lcc l = Lcc::random(d, rng);
    if (n % 3 == 0) {
      for (std::uint64_t& row : l.rows) {
        row &= rng() & rng();  // sparse rows: low ranks and zero rows
      }
    }
    for (std::uint32_t r = 0; r <= d; ++r) {
      for (std::uint32_t c = 0; c <= d; ++c) {
        ASSERT_EQ(sw::gf2_rank(l.rows, r, c), span_rank(l.rows, r, c)) << l.to_string();
      }
    }
  }
  EXPECT_EQ(Lcc::bit_reverse(8).rank(), 8U);
  EXPECT_EQ(Lcc::parse("110/110/001,000", 3).rank(), 2U);  // a gather (LCG, Definition 3)
}

// The widths at their edges: an LCC of 32 address bits (the most) is accepted and applied, a
// rank counts column 63 of a 64-column matrix, and an LCC whose rows are not d is refused
// before any is read.
TEST(Lcc, TheWidthsAtTheirEdges) {
  const Lcc wide = Lcc::identity(32);
  EXPECT_EQ(wide.apply(0xDEADBEEFu), 0xDEADBEEFu);
  EXPECT_EQ(Lcc::bit_reverse(32).apply(1u), 0x80000000u);
  EXPECT_THROW((void)Lcc::identity(33), std::invalid_argument);
  const std::vector<std::uint64_t> top = {std::uint64_t{1} << 63, 1};
  EXPECT_EQ(sw::gf2_rank(top, 1, 64), 1U);
  EXPECT_EQ(sw::gf2_rank(top, 2, 64), 2U);
  EXPECT_THROW((void)sw::gf2_rank(top, 2, 65), std::out_of_range);
  Lcc short_of_rows = Lcc::identity(3);
  short_of_rows.rows.pop_back();
  EXPECT_THROW((void)short_of_rows.apply(5), std::invalid_argument);
}

// A rank counts every row it is given: 65 rows of which only the last is nonzero have rank 1
// (a row set held as a 64-bit mask cannot name row 64), and row 63 of a 64-row matrix counts in
// both forms. A row past the matrix is refused, not read.
TEST(Lcc, RanksCountEveryRowOfATallMatrix) {
  std::vector<std::uint64_t> tall(65, 0);
  tall.back() = 1;
  EXPECT_EQ(sw::gf2_rank(tall, 65, 1), 1U);
  EXPECT_EQ(sw::gf2_rank(tall, 64, 1), 0U);
  std::vector<std::uint64_t> square(64, 0);
  square.back() = std::uint64_t{1} << 63;
  EXPECT_EQ(sw::gf2_rank(square, 64, 64), 1U);
  EXPECT_EQ(sw::gf2_rank_of(square, std::uint64_t{1} << 63, ~std::uint64_t{0}), 1U);
  const std::vector<std::uint64_t> two = {0b01, 0b10};
  EXPECT_EQ(sw::gf2_rank(two, 2, 2), 2U);
  EXPECT_THROW((void)sw::gf2_rank(two, 3, 2), std::out_of_range);
  EXPECT_THROW((void)sw::gf2_rank_of(two, 0b100, 0b11), std::out_of_range);
}

// Every constructor takes 1 to 32 address bits (a node number is 32 bits) and the transpose an
// even number of them: the halves it swaps are equal.
TEST(Lcc, ConstructorsRefuseWidthsOutside1To32AndTransposeAnOddOne) {
  std::mt19937_64 rng(3);
  for (const std::uint32_t d : {0U, 33U}) {
    EXPECT_THROW((void)Lcc::identity(d), std::invalid_argument) << d;
    EXPECT_THROW((void)Lcc::bit_reverse(d), std::invalid_argument) << d;
    EXPECT_THROW((void)Lcc::reverse_flip(d), std::invalid_argument) << d;
    EXPECT_THROW((void)Lcc::random(d, rng), std::invalid_argument) << d;
    EXPECT_THROW((void)Lcc::parse(",", d), std::invalid_argument) << d;
  }
  for (const std::uint32_t d : {0U, 1U, 3U, 5U, 7U, 31U, 33U, 34U}) {
    EXPECT_THROW((void)Lcc::transpose(d), std::invalid_argument) << d;
  }
  EXPECT_EQ(Lcc::transpose(2).apply(0b01), 0b10U);
  EXPECT_EQ(Lcc::transpose(32).apply(1), 0x10000U);
}

// Lcc::random draws every entry of A and b: over 64 draws each entry is 0 in some and 1 in
// another (a fair bit that came out the same 64 times would be a 2^-63 chance).
TEST(Lcc, RandomDrawsEveryEntryOfAAndB) {
  std::mt19937_64 rng(9);
  for (const std::uint32_t d : {1U, 2U, 7U, 32U}) {
    SCOPED_TRACE(d);
    const std::uint64_t all = (std::uint64_t{1} << d) - 1;
    std::vector<std::uint64_t> rows_or(d, 0);
    std::vector<std::uint64_t> rows_and(d, all);
    std::uint64_t b_or = 0;
    std::uint64_t b_and = all;
    for (int n = 0; n < 64; ++n) {
      const Lcc l = Lcc::random(d, rng);
      ASSERT_EQ(l.d, d);
      ASSERT_EQ(l.rows.size(), d);
      for (std::uint32_t i = 0; i < d; ++i) {
        rows_or[i] |= l.rows[i];
        rows_and[i] &= l.rows[i];
      }
      b_or |= l.b;
      b_and &= l.b;
    }
    EXPECT_EQ(rows_or, std::vector<std::uint64_t>(d, all));
    EXPECT_EQ(rows_and, std::vector<std::uint64_t>(d, 0));
    EXPECT_EQ(b_or, all);
    EXPECT_EQ(b_and, 0U);
  }
}

// A 0-cube is one node sending to itself: no channel, T = 0. An LCC whose rows are not d, or
// of more than 32 bits, is refused by Theorem 1's count as by apply, before a row is read.
TEST(Lcc, TheoremOneCountsNothingOnAZeroCubeAndRefusesMalformedLccs) {
  EXPECT_EQ(sw::contention_per_dimension(Lcc{}), std::vector<std::uint64_t>{});
  EXPECT_EQ(sw::contention_degree(Lcc{}), 0U);
  Lcc short_of_rows = Lcc::identity(3);
  short_of_rows.rows.pop_back();
  EXPECT_THROW((void)sw::contention_per_dimension(short_of_rows), std::invalid_argument);
  EXPECT_THROW((void)sw::contention_degree(short_of_rows), std::invalid_argument);
  Lcc too_wide = Lcc::identity(32);
  too_wide.d = 33;
  too_wide.rows.push_back(std::uint64_t{1} << 32);
  EXPECT_THROW((void)too_wide.apply(0), std::invalid_argument);
  EXPECT_THROW((void)sw::contention_per_dimension(too_wide), std::invalid_argument);
}

TEST(Theorem1, MatrixTransposeExample3) {
  const std::vector<std::uint64_t> expect = {1, 2, 4, 8, 8, 4, 2, 1};
  EXPECT_EQ(sw::contention_per_dimension(Lcc::transpose(8)), expect);
  EXPECT_EQ(brute_contention(Lcc::transpose(8)), expect);
  EXPECT_EQ(sw::contention_degree(Lcc::transpose(8)), 8U);
}

TEST(Theorem1, BitReverseAndReverseFlipHaveDegree8) {
  // Section 6.1: e-cube throughput stays below 1/8 because the degree of contention is 8.
  EXPECT_EQ(sw::contention_degree(Lcc::bit_reverse(8)), 8U);
  EXPECT_EQ(sw::contention_degree(Lcc::reverse_flip(8)), 8U);
  EXPECT_EQ(brute_contention(Lcc::bit_reverse(8)),
            sw::contention_per_dimension(Lcc::bit_reverse(8)));
  // Section 2.3: 8 bit-reverse paths contend for the channel ((00010000)^t, (00000000)^t), i.e.
  // from node 8 (x3 = 1) to node 0 at dimension 3.
  const Topology cube = Topology::hypercube(8);
  std::uint32_t through = 0;
  for (std::uint32_t x = 0; x < 256; ++x) {
    for (const auto& hop : cube.route(x, reverse_bits(x, 8))) {
      through += hop.first == 8 && hop.second == Port{3, true} ? 1 : 0;
    }
  }
  EXPECT_EQ(through, 8U);
}

TEST(Theorem1, DimensionNeverCrossedHasNoContention) {
  EXPECT_EQ(sw::contention_per_dimension(Lcc::identity(5)), std::vector<std::uint64_t>(5, 0));
  // Row 1 = e_1 and b_1 = 0 keep bit 1; flipping b_1 makes every message cross dimension 1.
  Lcc l = Lcc::parse("0010/0100/1000/0001,0000", 4);
  EXPECT_EQ(sw::contention_per_dimension(l)[1], 0U);
  l.b = 0b0010;
  EXPECT_EQ(sw::contention_per_dimension(l)[1], 2U);  // 2^(1 - rank(A_{L2,L1})) = 2^(1-0)
  EXPECT_EQ(brute_contention(l), sw::contention_per_dimension(l));
}

TEST(Theorem1, AgreesWithBruteForceOnRandomLccs) {
  std::mt19937_64 rng(2024);
  for (std::uint32_t d = 3; d <= 8; ++d) {
    std::vector<Lcc> cases = {Lcc::identity(d), Lcc::bit_reverse(d), Lcc::reverse_flip(d)};
    if (d % 2 == 0) {
      cases.push_back(Lcc::transpose(d));
    }
    Lcc zero = Lcc::identity(d);  // everyone sends to b: an all-to-one gather
    std::fill(zero.rows.begin(), zero.rows.end(), 0);
    zero.b = 1;
    cases.push_back(zero);
    for (int n = 0; n < 40; ++n) {
      Lcc l = Lcc::random(d, rng);
      if (n % 2 == 1) {
        for (std::uint64_t& row : l.rows) {
          row &= rng();  // lower ranks: gathers as well as permutations
        }
      }
      cases.push_back(l);
    }
    for (const Lcc& l : cases) {
      SCOPED_TRACE(l.to_string());
      const std::vector<std::uint64_t> brute = brute_contention(l);
      EXPECT_EQ(sw::contention_per_dimension(l), brute);
      EXPECT_EQ(sw::contention_degree(l), *std::max_element(brute.begin(), brute.end()));
    }
  }
}

TEST(Lcc, TextRoundTripAndErrors) {
  std::mt19937_64 rng(5);
  for (std::uint32_t d = 1; d <= 16; ++d) {
    const Lcc l = Lcc::random(d, rng);
    EXPECT_EQ(Lcc::parse(l.to_string(), d), l);
  }
  const Lcc l = Lcc::parse("011/101/110,100", 3);
  EXPECT_EQ(l.rows, (std::vector<std::uint64_t>{0b110, 0b101, 0b011}));
  EXPECT_EQ(l.b, 1U);
  expect_pattern_error([] { (void)Lcc::parse("001/010/100", 3); }, "'001/010/100'");
  expect_pattern_error([] { (void)Lcc::parse("001/010/100,000,1", 3); }, "e.g. 100/010/001,000");
  expect_pattern_error([] { (void)Lcc::parse("001/010,000", 3); }, "3 rows");
  expect_pattern_error([] { (void)Lcc::parse("001/012/100,000", 3); }, "row 1 of A");
  expect_pattern_error([] { (void)Lcc::parse("001/0100/100,000", 3); }, "'0100'");
  expect_pattern_error([] { (void)Lcc::parse("001/010/100,00", 3); }, "b as 3 bits");
}

// A bit is the character 0 or 1, nothing else (not a sign, a space or a dot, which sort below
// '0'), and "A,b" has one comma: two side by side are the form's error, not b's.
TEST(Lcc, ParseTakesOnlyZerosAndOnesAndOneComma) {
  expect_pattern_error([] { (void)Lcc::parse("0-1/010/100,000", 3); }, "row 0 of A");
  expect_pattern_error([] { (void)Lcc::parse("001/0 0/100,000", 3); }, "row 1 of A");
  expect_pattern_error([] { (void)Lcc::parse("001/010/100,0.0", 3); }, "b as 3 bits");
  expect_pattern_error([] { (void)Lcc::parse("001/010/100,,000", 3); }, "e.g. 100/010/001,000");
  expect_pattern_error([] { (void)Lcc::parse("1", 1); }, "e.g. 1,0");
  EXPECT_EQ(Lcc::parse("1,0", 1), Lcc::identity(1));
}

TEST(TrafficPattern, TransposeOnMeshSwapsCoordinates) {
  std::mt19937_64 rng(1);
  const Topology m = Topology::mesh({4, 4});
  const TrafficPattern p = sw::parse_traffic_pattern("transpose", m);
  EXPECT_EQ(p.kind, PatternKind::Transpose);
  for (std::uint32_t y = 0; y < 4; ++y) {
    for (std::uint32_t x = 0; x < 4; ++x) {
      EXPECT_EQ(sw::destination(p, m, x + 4 * y, rng), y + 4 * x);
    }
  }
  // Not only powers of two: a 3x3 torus.
  const Topology t = Topology::torus({3, 3});
  const TrafficPattern q = sw::parse_traffic_pattern("transpose", t);
  EXPECT_EQ(sw::destination(q, t, 1, rng), 3U);
  EXPECT_EQ(sw::destination(q, t, 4, rng), 4U);  // the diagonal sends to itself
}

TEST(TrafficPattern, TransposeOnHypercubeSwapsBitHalves) {
  std::mt19937_64 rng(1);
  const Topology h = Topology::hypercube(6);
  const TrafficPattern p = sw::parse_traffic_pattern("transpose", h);
  ASSERT_TRUE(p.lcc.has_value());
  for (std::uint32_t x = 0; x < 64; ++x) {
    EXPECT_EQ(sw::destination(p, h, x, rng), (x >> 3) | ((x & 7U) << 3));
  }
}

TEST(TrafficPattern, BitReverseOn16Nodes) {
  std::mt19937_64 rng(1);
  // Written out: 4-bit reversal of 0..15.
  const std::vector<std::uint32_t> expect = {0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15};
  for (const Topology& t :
       {Topology::hypercube(4), Topology::mesh({4, 4}), Topology::torus({2, 8})}) {
    SCOPED_TRACE(t.to_string());
    const TrafficPattern p = sw::parse_traffic_pattern("bitrev", t);
    EXPECT_EQ(p.kind, PatternKind::BitReverse);
    const TrafficPattern f = sw::parse_traffic_pattern("reverse-flip", t);
    for (std::uint32_t x = 0; x < 16; ++x) {
      EXPECT_EQ(sw::destination(p, t, x, rng), expect[x]);
      EXPECT_EQ(sw::destination(f, t, x, rng), 15U - expect[x]);
    }
  }
}

TEST(TrafficPattern, LccPattern) {
  std::mt19937_64 rng(1);
  const Topology h = Topology::hypercube(3);
  const TrafficPattern p = sw::parse_traffic_pattern("lcc:011/101/110,100", h);
  EXPECT_EQ(p.kind, PatternKind::Lcc);
  // y0 = x1 + x2 + 1, y1 = x0 + x2, y2 = x0 + x1, by hand for x = 0b011 (x0 = x1 = 1, x2 = 0).
  EXPECT_EQ(sw::destination(p, h, 0b011, rng), 0b010U);
  EXPECT_EQ(sw::destination(p, h, 0, rng), 1U);
  EXPECT_EQ(sw::to_string(p), "lcc:011/101/110,100");
  // The same pattern on an 8-node ring.
  const Topology r = Topology::torus({8});
  EXPECT_EQ(sw::destination(sw::parse_traffic_pattern("lcc:011/101/110,100", r), r, 3, rng), 2U);
  // A pattern made for another shape is refused.
  EXPECT_THROW((void)sw::destination(p, Topology::hypercube(4), 0, rng), std::invalid_argument);
  EXPECT_THROW((void)sw::destination(p, h, 8, rng), std::out_of_range);
}

TEST(TrafficPattern, UniformNeverSelfAndCoversAllOthers) {
  for (const Topology& t : {Topology::mesh({3, 3}), Topology::hypercube(4), Topology::torus({2})}) {
    SCOPED_TRACE(t.to_string());
    const TrafficPattern p = sw::parse_traffic_pattern("uniform", t);
    std::mt19937_64 rng(99);
    const std::uint32_t draws = 400 * (t.nodes() - 1);
    for (std::uint32_t src = 0; src < t.nodes(); ++src) {
      std::vector<std::uint32_t> count(t.nodes(), 0);
      for (std::uint32_t n = 0; n < draws; ++n) {
        const std::uint32_t dst = sw::destination(p, t, src, rng);
        ASSERT_LT(dst, t.nodes());
        ++count[dst];
      }
      EXPECT_EQ(count[src], 0U);
      for (std::uint32_t dst = 0; dst < t.nodes(); ++dst) {
        if (dst != src) {
          // Expected 400 each; a fixed seed, and 5 standard deviations would be about +-100.
          EXPECT_GT(count[dst], 280U) << src << " -> " << dst;
          EXPECT_LT(count[dst], 520U) << src << " -> " << dst;
        }
      }
    }
  }
  // Same seed, same sequence.
  const Topology t = Topology::hypercube(5);
  const TrafficPattern p = sw::parse_traffic_pattern("uniform", t);
  std::mt19937_64 a(3);
  std::mt19937_64 b(3);
  for (int n = 0; n < 100; ++n) {
    EXPECT_EQ(sw::destination(p, t, 7, a), sw::destination(p, t, 7, b));
  }
}

TEST(TrafficPattern, UniformBelowRejectsTheShortTail) {
  std::mt19937_64 rng(4);
  for (int n = 0; n < 100; ++n) {
    EXPECT_EQ(sw::uniform_below(rng, 1), 0U);
  }
  // n = 3 * 2^62: a plain x % n would map the top quarter of the draws onto [0, 2^62) and give
  // those values probability 1/2; uniform gives them 1/3. The rejection drops x < 2^64 mod n.
  const std::uint64_t n = std::uint64_t{3} << 62;
  std::uint32_t low = 0;
  for (int i = 0; i < 3000; ++i) {
    const std::uint64_t v = sw::uniform_below(rng, n);
    ASSERT_LT(v, n);
    low += v < (std::uint64_t{1} << 62) ? 1 : 0;
  }
  EXPECT_GT(low, 870U);  // 1000 expected, standard deviation about 26
  EXPECT_LT(low, 1130U);
  EXPECT_THROW((void)sw::uniform_below(rng, 0), std::invalid_argument);
}

// The rejection's boundary, one draw at a time: with n = 2^64 - r (r < 2^63), 2^64 mod n = r, so
// a first draw x is accepted (and is its own value, x < n) under n = 2^64 - x, and rejected
// under n = 2^64 - (x + 1), where the next draw y >= x + 1 is taken as y mod n.
TEST(TrafficPattern, UniformBelowRejectsExactlyTheDrawsBelowTwoToThe64ModN) {
  std::uint32_t tried = 0;
  for (std::uint64_t seed = 1; tried < 20; ++seed) {
    std::mt19937_64 draws(seed);
    const std::uint64_t x = draws();
    const std::uint64_t y = draws();
    if (x >= (std::uint64_t{1} << 63) - 1 || y < x + 1) {
      continue;  // x + 1 must stay below 2^63, and y must be accepted under the second n
    }
    ++tried;
    std::mt19937_64 accepting(seed);
    EXPECT_EQ(sw::uniform_below(accepting, 0 - x), x) << "seed " << seed;  // n = 2^64 - x
    std::mt19937_64 rejecting(seed);
    const std::uint64_t n = 0 - (x + 1);
    EXPECT_EQ(sw::uniform_below(rejecting, n), y % n) << "seed " << seed;
  }
}

TEST(TrafficPattern, UnfitTopologiesAreErrors) {
  expect_pattern_error(
      [] {
        (void)sw::parse_traffic_pattern("bitrev", Topology::mesh({3, 3}));
      },
      "power-of-two number of nodes, found 9 nodes on the mesh 3x3");
  expect_pattern_error(
      [] { (void)sw::parse_traffic_pattern("reverse-flip", Topology::torus({6})); }, "ring 6");
  expect_pattern_error(
      [] {
        (void)sw::parse_traffic_pattern("lcc:01/10,00", Topology::torus({3, 4}));
      },
      "power-of-two");
  expect_pattern_error(
      [] { (void)sw::parse_traffic_pattern("lcc:01/10,00", Topology::hypercube(3)); }, "3 rows");
  expect_pattern_error(
      [] {
        (void)sw::parse_traffic_pattern("transpose", Topology::mesh({4, 2}));
      },
      "mesh 4x2");
  expect_pattern_error([] { (void)sw::parse_traffic_pattern("transpose", Topology::mesh({4})); },
                       "line 4");
  expect_pattern_error(
      [] {
        (void)sw::parse_traffic_pattern("transpose", Topology::torus({2, 2, 2}));
      },
      "torus 2x2x2");
  expect_pattern_error([] { (void)sw::parse_traffic_pattern("transpose", Topology::hypercube(5)); },
                       "even");
  expect_pattern_error([] { (void)sw::parse_traffic_pattern("tornado", Topology::hypercube(4)); },
                       "found 'tornado'");
  expect_pattern_error([] { (void)sw::parse_traffic_pattern("lcc", Topology::hypercube(4)); },
                       "lcc:A,b");
}

/// Node x relabeled by the bit ordering r: bit k of the result is bit r[k] of x ([LCC] section 5).
std::vector<std::uint32_t> relabeling(const std::vector<std::uint32_t>& r) {
  std::vector<std::uint32_t> out(std::size_t{1} << r.size(), 0);
  for (std::uint32_t x = 0; x < out.size(); ++x) {
    for (std::size_t k = 0; k < r.size(); ++k) {
      out[x] |= ((x >> r[k]) & 1U) << k;
    }
  }
  return out;
}

/// One round routed by dimension order (the lowest differing coordinate first; on a hypercube
/// e-cube, on a mesh XY), messages counted per directed channel; the most on one.
std::uint64_t one_round_by_hand(const std::vector<std::uint32_t>& dest_of,
                                const std::vector<std::uint32_t>& radices) {
  std::map<std::tuple<std::uint32_t, std::uint32_t, bool>, std::uint64_t> load;
  std::uint64_t most = 0;
  for (std::uint32_t src = 0; src < dest_of.size(); ++src) {
    std::uint32_t at = src;
    std::uint32_t stride = 1;
    for (std::uint32_t dim = 0; dim < radices.size(); ++dim) {
      const std::uint32_t k = radices[dim];
      std::uint32_t c = (at / stride) % k;
      const std::uint32_t goal = (dest_of[src] / stride) % k;
      while (c != goal) {
        const bool up = goal > c;
        most = std::max(most, ++load[{at, dim, up}]);
        at = up ? at + stride : at - stride;
        c = up ? c + 1 : c - 1;
      }
      stride *= k;
    }
  }
  return most;
}

TEST(TrafficPattern, APlacedPatternSendsEachNodesPlacementToItsDestinationsPlacement) {
  std::mt19937_64 rng(4);
  const Topology h = Topology::hypercube(4);
  std::vector<std::uint32_t> map(16);
  std::iota(map.begin(), map.end(), 0U);
  std::shuffle(map.begin(), map.end(), rng);
  const TrafficPattern p = sw::placed(sw::parse_traffic_pattern("bitrev", h), map, h);
  for (std::uint32_t v = 0; v < 16; ++v) {
    EXPECT_EQ(sw::destination(p, h, map[v], rng), map[reverse_bits(v, 4)]) << v;
  }
  const TrafficPattern u = sw::placed(sw::parse_traffic_pattern("uniform", h), map, h);
  for (int n = 0; n < 200; ++n) {
    const auto src = static_cast<std::uint32_t>(n % 16);
    EXPECT_NE(sw::destination(u, h, src, rng), src);
  }
  std::vector<std::uint32_t> twice = map;
  twice[1] = twice[0];
  EXPECT_THROW((void)sw::placed(p, twice, h), std::invalid_argument);
  EXPECT_THROW((void)sw::placed(p, {0, 1}, h), std::invalid_argument);
}

// A node map naming the node one past the last is no permutation (its slot would be written out
// of range), and a pattern placed on one network is refused on a network of another size.
TEST(TrafficPattern, APlacementIsRefusedOutsideItsNodesAndItsNetwork) {
  const Topology h = Topology::hypercube(2);
  const TrafficPattern bitrev = sw::parse_traffic_pattern("bitrev", h);
  EXPECT_THROW((void)sw::placed(bitrev, {0, 1, 2, 4}, h), std::invalid_argument);
  EXPECT_NO_THROW((void)sw::placed(bitrev, {3, 1, 2, 0}, h));
  const TrafficPattern u = sw::placed(sw::parse_traffic_pattern("uniform", h), {3, 1, 2, 0}, h);
  std::mt19937_64 rng(1);
  EXPECT_NO_THROW((void)sw::destination(u, h, 0, rng));
  EXPECT_THROW((void)sw::destination(u, Topology::hypercube(3), 0, rng), std::invalid_argument);
}

TEST(TrafficPattern, OneRoundsContentionIsTheoremOnesTOnTheRoutes) {
  const Topology cube = Topology::hypercube(8);
  const auto ecube = sw::TopologyDescription::of(cube);  // e-cube routing
  std::mt19937_64 rng(1);
  // Section 2.3: 8 paths of each on one channel; Examples 4 and 6's reorderings.
  for (const std::string name : {"transpose", "bitrev", "reverse-flip"}) {
    EXPECT_EQ(sw::round_contention(sw::parse_traffic_pattern(name, cube), cube, *ecube), 8U);
  }
  const TrafficPattern transpose = sw::parse_traffic_pattern("transpose", cube);
  const TrafficPattern bitrev = sw::parse_traffic_pattern("bitrev", cube);
  EXPECT_EQ(sw::round_contention(sw::placed(transpose, relabeling({0, 4, 2, 6, 1, 5, 3, 7}), cube),
                                 cube, *ecube),
            1U);
  const std::vector<std::uint32_t> example6 = relabeling({3, 4, 0, 7, 2, 5, 1, 6});
  EXPECT_EQ(sw::round_contention(sw::placed(transpose, example6, cube), cube, *ecube), 2U);
  EXPECT_EQ(sw::round_contention(sw::placed(bitrev, example6, cube), cube, *ecube), 1U);
  // Random LCCs and placements on the 6-cube, and the transpose of a 4x4 mesh (XY routing).
  for (int n = 0; n < 20; ++n) {
    const Topology h = Topology::hypercube(6);
    std::vector<std::uint32_t> map(64);
    std::iota(map.begin(), map.end(), 0U);
    std::shuffle(map.begin(), map.end(), rng);
    const Lcc l = Lcc::random(6, rng);
    const TrafficPattern p =
        sw::placed(sw::parse_traffic_pattern("lcc:" + l.to_string(), h), map, h);
    std::vector<std::uint32_t> dest_of(64);
    for (std::uint32_t v = 0; v < 64; ++v) {
      dest_of[map[v]] = map[matrix_times(l, v)];
    }
    EXPECT_EQ(sw::round_contention(p, h, *sw::TopologyDescription::of(h)),
              one_round_by_hand(dest_of, {2, 2, 2, 2, 2, 2}))
        << l.to_string();
  }
  const Topology mesh = Topology::mesh({4, 4});
  std::vector<std::uint32_t> swapped(16);
  for (std::uint32_t x = 0; x < 16; ++x) {
    swapped[x] = (x / 4) + 4 * (x % 4);
  }
  EXPECT_EQ(sw::round_contention(sw::parse_traffic_pattern("transpose", mesh), mesh,
                                 *sw::TopologyDescription::of(mesh)),
            one_round_by_hand(swapped, {4, 4}));
  // A line of 8 under bit-reverse: messages leave node 3 both ways, two each.
  const Topology line = Topology::mesh({8});
  std::vector<std::uint32_t> reversed(8);
  for (std::uint32_t x = 0; x < 8; ++x) {
    reversed[x] = reverse_bits(x, 3);
  }
  EXPECT_EQ(sw::round_contention(sw::parse_traffic_pattern("bitrev", line), line,
                                 *sw::TopologyDescription::of(line)),
            one_round_by_hand(reversed, {8}));
  EXPECT_EQ(one_round_by_hand(reversed, {8}), 2U);
  EXPECT_FALSE(sw::round_contention(sw::parse_traffic_pattern("uniform", cube), cube, *ecube));
}

// Under an adaptive routing a round takes the routing's first choice: P-cube's lowest dimension
// of its phase ([LCC] section 6.1: first the bits that are 1 here and 0 at the destination, then
// those 0 here and 1 there), routed here by hand over random LCCs of the 6-cube.
TEST(TrafficPattern, OneRoundUnderPCubeTakesTheLowestDimensionOfEachPhase) {
  const Topology h = Topology::hypercube(6);
  const auto pcube = sw::TopologyDescription::of(h, sw::routing_function("p-cube"));
  std::mt19937_64 rng(7);
  for (int n = 0; n < 20; ++n) {
    const Lcc l = Lcc::random(6, rng);
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint64_t> load;  // (node, dimension)
    std::uint64_t most = 0;
    for (std::uint32_t src = 0; src < 64; ++src) {
      const std::uint32_t dest = matrix_times(l, src);
      for (std::uint32_t at = src; at != dest;) {
        const std::uint32_t clear = at & ~dest;
        const std::uint32_t phase = clear != 0 ? clear : dest & ~at;
        std::uint32_t dim = 0;
        while (((phase >> dim) & 1U) == 0) {
          ++dim;
        }
        most = std::max(most, ++load[{at, dim}]);
        at ^= 1U << dim;
      }
    }
    EXPECT_EQ(sw::round_contention(sw::parse_traffic_pattern("lcc:" + l.to_string(), h), h, *pcube),
              most)
        << l.to_string();
  }
}

TEST(TrafficPattern, ToStringRoundTrip) {
  const Topology h = Topology::hypercube(4);
  for (const std::string text :
       {"uniform", "transpose", "bitrev", "reverse-flip", "lcc:1100/0110/0011/1001,1010"}) {
    const TrafficPattern p = sw::parse_traffic_pattern(text, h);
    EXPECT_EQ(sw::to_string(p), text);
    const TrafficPattern again = sw::parse_traffic_pattern(sw::to_string(p), h);
    EXPECT_EQ(again.kind, p.kind);
    EXPECT_EQ(again.lcc, p.lcc);
  }
}

}  // namespace
}  // namespace orthosim
