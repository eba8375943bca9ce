// Hypercube embeddings and their metrics against [XOR]'s closed forms, figures and Table I and
// [CALMANT] section 2.3, written here from the papers; Theorem 10 for d = 3 by exhausting the
// embeddings of the 3-cube onto the 8-node ring.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "sw/core/diagnostic.hpp"
#include "sw/embedding/embedding.hpp"
#include "sw/embedding/embedding_metrics.hpp"
#include "sw/topology/topology.hpp"

namespace orthosim {
namespace {

using sw::EmbeddingScheme;
using sw::Topology;

std::uint32_t bit(std::uint32_t v, std::uint32_t i) { return (v >> i) & 1U; }

/// Every way to cut d bits into `axes` fields of at least one bit each, axis 0 first.
void splits(std::uint32_t d, std::uint32_t axes, std::vector<std::uint32_t>& prefix,
            std::vector<std::vector<std::uint32_t>>& out) {
  if (axes == 1) {
    if (d >= 1) {
      prefix.push_back(d);
      out.push_back(prefix);
      prefix.pop_back();
    }
    return;
  }
  for (std::uint32_t b = 1; b + axes - 1 <= d; ++b) {
    prefix.push_back(b);
    splits(d - b, axes - 1, prefix, out);
    prefix.pop_back();
  }
}

std::vector<std::uint32_t> radices_of(const std::vector<std::uint32_t>& bits) {
  std::vector<std::uint32_t> k;
  for (std::uint32_t b : bits) {
    k.push_back(1U << b);
  }
  return k;
}

sw::EmbeddingMetrics metrics(const Topology& t, EmbeddingScheme s) {
  std::uint32_t d = 0;
  while ((1U << d) < t.nodes()) {
    ++d;
  }
  return sw::embedding_metrics(t, sw::embed_hypercube(d, t, s));
}

TEST(Embedding, EverySchemeIsABijectionForEverySizeUpTo4096Nodes) {
  for (std::uint32_t d = 1; d <= 12; ++d) {
    for (std::uint32_t axes = 1; axes <= 3; ++axes) {
      std::vector<std::vector<std::uint32_t>> shapes;
      std::vector<std::uint32_t> prefix;
      splits(d, axes, prefix, shapes);
      for (const auto& bits : shapes) {
        const Topology mesh = Topology::mesh(radices_of(bits));
        for (EmbeddingScheme s : {EmbeddingScheme::Std, EmbeddingScheme::StdInterleaved,
                                  EmbeddingScheme::Xor, EmbeddingScheme::Byweight}) {
          const std::vector<std::uint32_t> place = sw::embed_hypercube(d, mesh, s);
          ASSERT_EQ(place.size(), mesh.nodes());
          std::vector<bool> hit(mesh.nodes(), false);
          for (std::uint32_t v : place) {
            ASSERT_LT(v, mesh.nodes()) << mesh.to_string() << " " << sw::to_string(s);
            ASSERT_FALSE(hit[v]) << mesh.to_string() << " " << sw::to_string(s);
            hit[v] = true;
          }
        }
      }
    }
  }
  for (std::uint32_t d = 1; d <= Topology::max_hypercube_dim; ++d) {
    const std::vector<std::uint32_t> place =
        sw::embed_hypercube(d, Topology::hypercube(d), EmbeddingScheme::Identity);
    for (std::uint32_t n = 0; n < place.size(); ++n) {
      ASSERT_EQ(place[n], n);
    }
  }
}

TEST(Embedding, StdIsXorIIcsCoordinatesAndXorIsSectionIIIsBitRule) {
  // [XOR] II.C: p_i = (n mod k1..ki) div k1..k(i-1); III.B: in field j, bit d_j - 2 is the xor of
  // the field's two top bits.
  const std::vector<std::uint32_t> bits = {2, 3, 3};
  const Topology t = Topology::torus(radices_of(bits));
  const auto std_place = sw::embed_hypercube(8, t, EmbeddingScheme::Std);
  const auto xor_place = sw::embed_hypercube(8, t, EmbeddingScheme::Xor);
  for (std::uint32_t n = 0; n < 256; ++n) {
    std::vector<std::uint32_t> p(3);
    std::vector<std::uint32_t> m(3);
    std::uint32_t below = 1;
    std::uint32_t first = 0;  // K_j
    for (std::uint32_t j = 0; j < 3; ++j) {
      const std::uint32_t k = 1U << bits[j];
      p[j] = (n % (below * k)) / below;
      below *= k;
      for (std::uint32_t i = 0; i < bits[j]; ++i) {
        const std::uint32_t b = i == bits[j] - 2
                                    ? bit(n, first + bits[j] - 1) ^ bit(n, first + bits[j] - 2)
                                    : bit(n, first + i);
        m[j] |= b << i;
      }
      first += bits[j];
    }
    EXPECT_EQ(std_place[n], t.node_at(p)) << n;
    EXPECT_EQ(xor_place[n], t.node_at(m)) << n;
  }
}

TEST(Embedding, FiguresOfTheXorPaper) {
  const auto ring_order = [](std::uint32_t d, EmbeddingScheme s) {
    const auto place = sw::embed_hypercube(d, Topology::torus({1U << d}), s);
    std::vector<std::uint32_t> at(place.size());
    for (std::uint32_t n = 0; n < place.size(); ++n) {
      at[place[n]] = n;
    }
    return at;
  };
  // Fig. 5: the xor embedding of a 4-cube onto a ring, the cube node on each ring node.
  EXPECT_EQ(ring_order(4, EmbeddingScheme::Xor),
            (std::vector<std::uint32_t>{0, 1, 2, 3, 4, 5, 6, 7, 12, 13, 14, 15, 8, 9, 10, 11}));
  // Fig. 4(a): std 0 1 2 ... 7 and byweight 0 4 2 1 6 5 3 7 on a line.
  EXPECT_EQ(ring_order(3, EmbeddingScheme::Std),
            (std::vector<std::uint32_t>{0, 1, 2, 3, 4, 5, 6, 7}));
  const auto line = sw::embed_hypercube(3, Topology::mesh({8}), EmbeddingScheme::Byweight);
  std::vector<std::uint32_t> on_line(8);
  for (std::uint32_t n = 0; n < 8; ++n) {
    on_line[line[n]] = n;
  }
  EXPECT_EQ(on_line, (std::vector<std::uint32_t>{0, 4, 2, 1, 6, 5, 3, 7}));
  // Fig. 2(b): the std 4-cube on a (4, 4) mesh, rows from the bottom: 0 1 2 3 / 4 5 6 7 / ...
  const auto grid = sw::embed_hypercube(4, Topology::mesh({4, 4}), EmbeddingScheme::Std);
  for (std::uint32_t n = 0; n < 16; ++n) {
    EXPECT_EQ(grid[n], (n / 4) * 4 + n % 4);
  }
}

TEST(Embedding, StdInterleavedIsCalmantSection23) {
  // [CALMANT] 2.3: m_(j,l) = n_(j + l c); dimension i on axis i mod c, D_i = 2^(floor(i / c)) on
  // a mesh (eq. 2).
  for (const std::vector<std::uint32_t>& bits :
       {std::vector<std::uint32_t>{2, 2}, {3, 3}, {2, 2, 2}, {3, 3, 3}}) {
    const auto c = static_cast<std::uint32_t>(bits.size());
    const std::uint32_t d = bits[0] * c;
    const Topology mesh = Topology::mesh(radices_of(bits));
    const auto place = sw::embed_hypercube(d, mesh, EmbeddingScheme::StdInterleaved);
    for (std::uint32_t n = 0; n < mesh.nodes(); ++n) {
      std::vector<std::uint32_t> m(c);
      for (std::uint32_t j = 0; j < c; ++j) {
        for (std::uint32_t l = 0; l < bits[j]; ++l) {
          m[j] |= bit(n, j + l * c) << l;
        }
      }
      ASSERT_EQ(place[n], mesh.node_at(m)) << n;
    }
    const sw::EmbeddingMetrics got = sw::embedding_metrics(mesh, place);
    for (std::uint32_t i = 0; i < d; ++i) {
      EXPECT_EQ(got.distance_min(i), 1U << (i / c)) << mesh.to_string() << " dim " << i;
      EXPECT_EQ(got.distance_max(i), 1U << (i / c)) << mesh.to_string() << " dim " << i;
    }
  }
}

// Axes of 1, 2 and 3 bits (a 2 x 4 x 8 mesh): dimensions 0, 1, 2 go to x, y, z; x is then full,
// so 3 goes to y and 4 to z; x and y are full, so 5 goes to z: x = n0, y = n1 + 2 n3,
// z = n2 + 2 n4 + 4 n5.
TEST(Embedding, StdInterleavedDealsToTheNextAxisWithAFreeBit) {
  const Topology mesh = Topology::mesh({2, 4, 8});
  const auto place = sw::embed_hypercube(6, mesh, EmbeddingScheme::StdInterleaved);
  for (std::uint32_t n = 0; n < 64; ++n) {
    const std::vector<std::uint32_t> xyz = {bit(n, 0), bit(n, 1) + 2 * bit(n, 3),
                                            bit(n, 2) + 2 * bit(n, 4) + 4 * bit(n, 5)};
    EXPECT_EQ(place[n], mesh.node_at(xyz)) << n;
  }
}

TEST(Embedding, RingSpectraLongestTotalAndAverageLoadFromXorSectionIV) {
  for (std::uint32_t d = 3; d <= 10; ++d) {
    const Topology ring = Topology::torus({1U << d});
    const std::uint64_t half = 1ULL << (d - 1);
    // IV.B.1: 2^(d-1) links of dilation 2^i, i < d.
    std::map<std::uint32_t, std::uint64_t> std_spectrum;
    for (std::uint32_t i = 0; i < d; ++i) {
      std_spectrum[1U << i] = half;
    }
    // IV.B.2: 2^(d-1) links of dilation 2^i for i <= d-3 and 2^d of dilation 2^(d-2).
    std::map<std::uint32_t, std::uint64_t> xor_spectrum;
    for (std::uint32_t i = 0; i + 3 <= d; ++i) {
      xor_spectrum[1U << i] = half;
    }
    xor_spectrum[1U << (d - 2)] = 1ULL << d;
    const sw::EmbeddingMetrics s = metrics(ring, EmbeddingScheme::Std);
    const sw::EmbeddingMetrics x = metrics(ring, EmbeddingScheme::Xor);
    EXPECT_EQ(s.dilation_spectrum, std_spectrum) << d;
    EXPECT_EQ(x.dilation_spectrum, xor_spectrum) << d;
    // IV.C: longest 2^(d-1) and 2^(d-2); IV.D: total 2^(d-1)(2^d - 1) and 2^(d-1)(3 2^(d-2) - 1).
    EXPECT_EQ(s.longest_dilation, 1U << (d - 1));
    EXPECT_EQ(x.longest_dilation, 1U << (d - 2));
    EXPECT_EQ(s.total_dilation, half * ((1ULL << d) - 1));
    EXPECT_EQ(x.total_dilation, half * (3 * (1ULL << (d - 2)) - 1));
    // IV.F: average load (2^d - d - 1)/2 and (3 2^(d-2) - d - 1)/2.
    EXPECT_DOUBLE_EQ(s.load_average, (std::pow(2.0, d) - d - 1) / 2);
    EXPECT_DOUBLE_EQ(x.load_average, (3 * std::pow(2.0, d - 2) - d - 1) / 2);
    // Both have constant distances ([XOR] II.C, III); IV.A: T = sum of D_i Tc.
    EXPECT_TRUE(s.constant_distances());
    EXPECT_TRUE(x.constant_distances());
    EXPECT_EQ(s.cc_cube_time_tc, s.total_dilation / half);
    EXPECT_EQ(x.cc_cube_time_tc, 3 * (1ULL << (d - 2)) - 1);
  }
}

TEST(Embedding, SquaredToriSpectraAndTotalsFromXorSectionIVB3) {
  for (const auto& [c, side] : std::vector<std::pair<std::uint32_t, std::uint32_t>>{
           {2, 2}, {2, 3}, {2, 4}, {2, 5}, {3, 2}, {3, 3}}) {
    const Topology torus = Topology::torus(std::vector<std::uint32_t>(c, 1U << side));
    const std::uint32_t d = c * side;
    const sw::EmbeddingMetrics s = metrics(torus, EmbeddingScheme::Std);
    const sw::EmbeddingMetrics x = metrics(torus, EmbeddingScheme::Xor);
    std::map<std::uint32_t, std::uint64_t> std_spectrum;
    for (std::uint32_t i = 0; i < side; ++i) {
      std_spectrum[1U << i] = c * (1ULL << (d - 1));
    }
    EXPECT_EQ(s.dilation_spectrum, std_spectrum) << torus.to_string();
    // c 2^(d-1) * (2^(d/c) - 1), and the xor's with the factor c the print lost.
    EXPECT_EQ(s.total_dilation, c * (1ULL << (d - 1)) * ((1ULL << side) - 1));
    EXPECT_DOUBLE_EQ(s.load_average, c * (std::pow(2.0, side) - side - 1) / 2);
    if (side >= 2) {
      std::map<std::uint32_t, std::uint64_t> xor_spectrum;
      for (std::uint32_t i = 0; i + 3 <= side; ++i) {
        xor_spectrum[1U << i] = c * (1ULL << (d - 1));
      }
      xor_spectrum[1U << (side - 2)] = c * (1ULL << d);
      EXPECT_EQ(x.dilation_spectrum, xor_spectrum) << torus.to_string();
      EXPECT_EQ(x.total_dilation, c * (1ULL << (d - 1)) * (3 * (1ULL << (side - 2)) - 1));
      EXPECT_EQ(x.longest_dilation, 1U << (side - 2));
      EXPECT_DOUBLE_EQ(x.load_average, c * (3 * std::pow(2.0, side - 2) - side - 1) / 2);
    }
  }
}

TEST(Embedding, LoadVectorsOfFigs7And10AndTheStdRingLoadFormula) {
  const Topology ring = Topology::torus({16});
  const sw::EmbeddingMetrics s = metrics(ring, EmbeddingScheme::Std);
  // Fig. 7: the load of each node due to the dilation-4 links (cube dimension 2) of std.
  EXPECT_EQ(s.dimension_loads[2],
            (std::vector<std::uint64_t>{0, 1, 2, 3, 3, 2, 1, 0, 0, 1, 2, 3, 3, 2, 1, 0}));
  // Fig. 10: xor's dilation-4 links (dimensions 2 and 3) load every node 2^(d-2) - 1 = 3.
  const sw::EmbeddingMetrics x = metrics(ring, EmbeddingScheme::Xor);
  for (std::uint32_t v = 0; v < 16; ++v) {
    EXPECT_EQ(x.dimension_loads[2][v] + x.dimension_loads[3][v], 3U) << v;
  }
  // IV.E.1: G_i(n) = n mod 2^i in the first half of each period 2^(i+1), 2^i - 1 - n mod 2^i in
  // the second; the load of a node is their sum over i.
  for (std::uint32_t d = 2; d <= 9; ++d) {
    const sw::EmbeddingMetrics m = metrics(Topology::torus({1U << d}), EmbeddingScheme::Std);
    for (std::uint32_t n = 0; n < (1U << d); ++n) {
      std::uint64_t load = 0;
      for (std::uint32_t i = 0; i < d; ++i) {
        const std::uint32_t r = n % (1U << i);
        load += n % (2U << i) < (1U << i) ? r : (1U << i) - 1 - r;
      }
      ASSERT_EQ(m.loads[n], load) << "d = " << d << ", node " << n;
    }
  }
}

TEST(Embedding, HalfRingLinksTakeTheMeshPath) {
  // The 2-cube on a 4-node ring, cube node n on ring node place[n]: the dimension-1 links span
  // half the ring. Cube 0 (ring 2) -> cube 2 (ring 0) goes down through ring node 1, not round
  // through 3; cube 1 (ring 1) -> cube 3 (ring 3) goes up through ring node 2.
  const sw::EmbeddingMetrics m = sw::embedding_metrics(Topology::torus({4}), {2, 1, 0, 3});
  EXPECT_EQ(m.dimension_loads[1], (std::vector<std::uint64_t>{0, 1, 1, 0}));
  EXPECT_EQ(m.distance[1], (std::vector<std::uint32_t>{2, 2, 2, 2}));
}

// The 3-cube on an 8-node ring, cube node n at ring node n + 1 (mod 8), counted by hand: the
// dimension-0 links join ring neighbours; dimension 1 joins ring 1-3, 2-4, 5-7, 6-0 (through 2,
// 3, 6 and 7); dimension 2 joins 1-5, 2-6, 3-7 and 4-0, half the ring each, so the mesh path
// (through 2-4, 3-5, 4-6 and down through 3-1). Ring node 0 alone carries nothing.
TEST(Embedding, TheLoadsLeastAndMostAreOverEveryNodeNodeZeroIncluded) {
  const sw::EmbeddingMetrics m =
      sw::embedding_metrics(Topology::torus({8}), {1, 2, 3, 4, 5, 6, 7, 0});
  EXPECT_EQ(m.loads, (std::vector<std::uint64_t>{0, 1, 3, 4, 3, 2, 2, 1}));
  EXPECT_EQ(m.load_min, 0U);
  EXPECT_EQ(m.load_max, 4U);
  EXPECT_DOUBLE_EQ(m.load_average, 16.0 / 8.0);
}

TEST(Embedding, Fig4CcThreeCubeOnALineStdSevenByweightNine) {
  const Topology line = Topology::mesh({8});
  const sw::EmbeddingMetrics s = metrics(line, EmbeddingScheme::Std);
  const sw::EmbeddingMetrics b = metrics(line, EmbeddingScheme::Byweight);
  EXPECT_EQ(s.cc_cube_time_tc, 7U);
  EXPECT_EQ(b.cc_cube_time_tc, 9U);
  // Fig. 4(a): byweight's dilations are not constant (dimension 0: 3 and 4).
  EXPECT_FALSE(b.constant_distances());
  EXPECT_EQ(b.distance_min(0), 3U);
  EXPECT_EQ(b.distance_max(0), 4U);
  // The identity on a hypercube: every D_i = 1, T = d Tc, no node carries through-traffic.
  const sw::EmbeddingMetrics id = metrics(Topology::hypercube(5), EmbeddingScheme::Identity);
  EXPECT_EQ(id.cc_cube_time_tc, 5U);
  EXPECT_EQ(id.load_max, 0U);
  EXPECT_EQ(id.longest_dilation, 1U);
}

TEST(Embedding, CcCubeRecurrenceByHandWithWaitingIntervals) {
  // A 2-cube with D_0 = (1, 1, 3, 3), D_1 = (2, 2, 2, 2) by node: stage 0 ends at 1, 1, 3, 3;
  // stage 1 pairs 0 with 2 and 1 with 3, so each waits for the slower: 2 + max(1, 3) = 5.
  const std::vector<std::vector<std::uint32_t>> distance = {{1, 1, 3, 3}, {2, 2, 2, 2}};
  const auto unit = [](std::uint32_t h) { return std::uint64_t{h}; };
  EXPECT_EQ(sw::cc_cube_time(distance, {0, 1}, unit), 5U);
  // Stages in the other order: stage 1 first (2 everywhere), then 1 or 3 more: 5 as well, and a
  // cost with a start-up of 10 and 3 per hop: (10 + 6) + (10 + 9) = 35.
  EXPECT_EQ(sw::cc_cube_time(distance, {1, 0}, unit), 5U);
  EXPECT_EQ(sw::cc_cube_time(distance, {0, 1}, [](std::uint32_t h) { return 10 + 3ULL * h; }), 35U);
}

// The wait of stage i is for the partner along dimension i, which carries earlier waits on: a
// 3-cube with D_0 = 10 for nodes 0 and 1 (1 elsewhere), D_1 = 1, and D_2 = 100 for the pair 2-6
// (1 elsewhere). Stage 0 ends at 10, 10, 1, ...; stage 1 pairs 0 with 2 and 1 with 3, so nodes 0
// to 3 end at 11 (4 to 7 at 2); stage 2 pairs 2 with 6: 100 + max(11, 2) = 111.
TEST(Embedding, CcCubeRecurrenceWaitsForThePartnerAlongEachStagesDimension) {
  const std::vector<std::vector<std::uint32_t>> distance = {{10, 10, 1, 1, 1, 1, 1, 1},
                                                            {1, 1, 1, 1, 1, 1, 1, 1},
                                                            {1, 1, 100, 1, 1, 1, 100, 1}};
  EXPECT_EQ(sw::cc_cube_time(distance, {0, 1, 2}, [](std::uint32_t h) { return std::uint64_t{h}; }),
            111U);
}

// [XOR] section IV counts each link once, routed from its end with bit i = 0. On a 2 x 2 mesh with
// the 2-cube's dimension-0 links placed diagonally (0 at mesh node 0, 1 at 3, 2 at 1, 3 at 2), the
// two ways round a diagonal pass different corners, so the loads say which end the route left.
TEST(Embedding, EachLinkIsRoutedFromItsEndWithBitIZero) {
  const Topology mesh = Topology::mesh({2, 2});
  const std::vector<std::uint32_t> place = {0, 3, 1, 2};
  const auto loads_from = [&](bool low_end) {
    std::vector<std::uint64_t> loads(4, 0);
    for (std::uint32_t i = 0; i < 2; ++i) {
      for (std::uint32_t n = 0; n < 4; ++n) {
        if ((n >> i) & 1U) {
          continue;
        }
        const std::uint32_t a = place[n];
        const std::uint32_t b = place[n ^ (1U << i)];
        const auto route = low_end ? mesh.route(a, b) : mesh.route(b, a);
        for (std::size_t h = 1; h < route.size(); ++h) {  // the nodes passed
          ++loads[route[h].first];
        }
      }
    }
    return loads;
  };
  ASSERT_NE(loads_from(true), loads_from(false));
  EXPECT_EQ(sw::embedding_metrics(mesh, place).loads, loads_from(true));
}

TEST(Embedding, AllTenRowsOfXorTableI) {
  struct Row {
    std::uint32_t k1, k2;
    std::uint64_t std_min, std_max, xor_min, xor_max;
  };
  // [XOR] Table I as printed: torus, std min, std max, xor min, xor max.
  const std::vector<Row> table = {{1, 8, 0, 3, 1, 1},      {2, 4, 0, 1, 0, 0},
                                  {1, 16, 0, 8, 3, 4},     {2, 8, 0, 3, 1, 1},
                                  {4, 4, 0, 2, 0, 0},      {8, 8, 0, 6, 2, 2},
                                  {16, 16, 0, 16, 6, 8},   {16, 32, 0, 26, 10, 14},
                                  {32, 32, 0, 36, 14, 20}, {32, 64, 0, 57, 22, 33}};
  ASSERT_EQ(sw::xor_table1_printed().size(), table.size());
  for (std::size_t r = 0; r < table.size(); ++r) {
    const Row& row = table[r];
    const Topology torus =
        row.k1 == 1 ? Topology::torus({row.k2}) : Topology::torus({row.k1, row.k2});
    const sw::EmbeddingMetrics s = metrics(torus, EmbeddingScheme::Std);
    const sw::EmbeddingMetrics x = metrics(torus, EmbeddingScheme::Xor);
    EXPECT_EQ(s.load_min, row.std_min) << torus.to_string();
    EXPECT_EQ(s.load_max, row.std_max) << torus.to_string();
    EXPECT_EQ(x.load_min, row.xor_min) << torus.to_string();
    EXPECT_EQ(x.load_max, row.xor_max) << torus.to_string();
    // The copy the command line prints beside ours.
    const sw::XorTableRow& printed = sw::xor_table1_printed()[r];
    EXPECT_EQ(printed.torus, (std::vector<std::uint32_t>{row.k1, row.k2}));
    EXPECT_EQ(printed.std_min, row.std_min);
    EXPECT_EQ(printed.std_max, row.std_max);
    EXPECT_EQ(printed.xor_min, row.xor_min);
    EXPECT_EQ(printed.xor_max, row.xor_max);
  }
}

TEST(Embedding, Theorem10ForThreeCubesByExhaustion) {
  // Every bijection of the 3-cube onto the 8-node ring with f(0) = 0; among those with constant
  // distances the least average distance is (3 2^(d-2) - 1) / d = 5/3, and xor attains it.
  const Topology ring = Topology::torus({8});
  std::vector<std::uint32_t> rest = {1, 2, 3, 4, 5, 6, 7};
  double best = 1e9;
  std::uint32_t constant = 0;
  do {
    std::vector<std::uint32_t> place = {0};
    place.insert(place.end(), rest.begin(), rest.end());
    const sw::EmbeddingMetrics m = sw::embedding_metrics(ring, place);
    if (m.constant_distances()) {
      ++constant;
      best = std::min(best, m.average_dilation);
    }
  } while (std::next_permutation(rest.begin(), rest.end()));
  EXPECT_GT(constant, 0U);
  EXPECT_DOUBLE_EQ(best, 5.0 / 3.0);
  EXPECT_DOUBLE_EQ(metrics(ring, EmbeddingScheme::Xor).average_dilation, 5.0 / 3.0);
  EXPECT_DOUBLE_EQ(metrics(ring, EmbeddingScheme::Std).average_dilation, 7.0 / 3.0);
}

// A line of 4 with nodes 2 and 3 swapped: dimension 0 links 0-1 and 3-2 (distance 1 each),
// dimension 1 links 0-3 (distance 3) and 1-2 (distance 1): only the last dimension varies.
TEST(Embedding, ConstantDistancesAsksEveryDimensionUpToTheLast) {
  const sw::EmbeddingMetrics m = sw::embedding_metrics(Topology::mesh({4}), {0, 1, 3, 2});
  EXPECT_EQ(m.distance_min(0), 1u);
  EXPECT_EQ(m.distance_max(0), 1u);
  EXPECT_EQ(m.distance_min(1), 1u);
  EXPECT_EQ(m.distance_max(1), 3u);
  EXPECT_FALSE(m.constant_distances());
  EXPECT_TRUE(sw::embedding_metrics(Topology::mesh({4}), {0, 1, 2, 3}).constant_distances());
}

// The metrics take a bijection onto all 2^d nodes of the network.
TEST(Embedding, MetricsRefuseAPlacementThatIsNotABijectionOntoTwoToTheDNodes) {
  EXPECT_THROW((void)sw::embedding_metrics(Topology::mesh({4}), {0, 1, 1, 2}),
               std::invalid_argument);
  EXPECT_THROW((void)sw::embedding_metrics(Topology::mesh({4}), {0, 1, 2, 4}),
               std::invalid_argument);
  EXPECT_THROW((void)sw::embedding_metrics(Topology::mesh({4}), {0, 1, 2}), std::invalid_argument);
  EXPECT_THROW((void)sw::embedding_metrics(Topology::mesh({6}), {0, 1, 2, 3, 4, 5}),
               std::invalid_argument);
}

TEST(Embedding, RefusalsNameTheParameter) {
  const auto key = [](auto&& f) {
    try {
      f();
    } catch (const sw::ParameterError& e) {
      return e.parameter();
    }
    return std::string("none");
  };
  EXPECT_EQ(key([] {
              (void)sw::embed_hypercube(4, Topology::torus({4, 6}), EmbeddingScheme::Std);
            }),
            "dims");
  EXPECT_EQ(key([] {
              (void)sw::embed_hypercube(5, Topology::torus({4, 4}), EmbeddingScheme::Xor);
            }),
            "cube");
  EXPECT_EQ(key([] {
              (void)sw::embed_hypercube(3, Topology::torus({4, 4}), EmbeddingScheme::Std);
            }),
            "cube");  // a smaller cube than the network is refused too
  EXPECT_EQ(key([] {
              (void)sw::embed_hypercube(4, Topology::torus({4, 4}), EmbeddingScheme::Identity);
            }),
            "scheme");
  EXPECT_EQ(key([] { (void)sw::embed_hypercube(4, Topology::hypercube(4), EmbeddingScheme::Std); }),
            "scheme");
  EXPECT_EQ(key([] { (void)sw::parse_embedding_scheme("gray"); }), "scheme");
  EXPECT_EQ(sw::parse_embedding_scheme("std-interleaved"), EmbeddingScheme::StdInterleaved);
}

// The refusals say what was expected: every scheme name, each once and comma-separated, and the
// scheme a hypercube takes (identity) or the networks the others go onto.
TEST(Embedding, RefusalsSayWhatWasExpected) {
  const auto message = [](auto&& f) {
    try {
      f();
    } catch (const sw::ParameterError& e) {
      return std::string(e.what());
    }
    return std::string("none");
  };
  EXPECT_EQ(message([] {
              (void)sw::embed_hypercube(5, Topology::torus({4, 4}), EmbeddingScheme::Xor);
            }),
            "expected a cube of the network's 16 nodes (2^4), found 2^5 nodes");
  EXPECT_EQ(message([] { (void)sw::parse_embedding_scheme("gray"); }),
            "expected one of std, std-interleaved, xor, byweight, identity, found 'gray'");
  const std::string std_onto_cube =
      message([] { (void)sw::embed_hypercube(4, Topology::hypercube(4), EmbeddingScheme::Std); });
  EXPECT_EQ(std_onto_cube.rfind("expected identity onto a hypercube, found std onto the ", 0), 0U)
      << std_onto_cube;
  const std::string identity_onto_torus = message([] {
    (void)sw::embed_hypercube(4, Topology::torus({4, 4}), EmbeddingScheme::Identity);
  });
  EXPECT_EQ(identity_onto_torus.rfind("expected std, std-interleaved, xor or byweight onto a line, "
                                      "ring, mesh or torus, found identity onto the ",
                                      0),
            0U)
      << identity_onto_torus;
}

}  // namespace
}  // namespace orthosim
