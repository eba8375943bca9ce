// Mesh, torus and hypercube: numbering, neighbours, dimension-ordered routes and the dateline
// rule. Oracles are independent: coordinate arithmetic written out here, breadth-first search for
// shortest path lengths, and a channel-dependency-graph cycle check for deadlock freedom.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <queue>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "sw/core/diagnostic.hpp"
#include "sw/topology/route_table.hpp"
#include "sw/topology/routing.hpp"
#include "sw/topology/topology.hpp"
#include "sw/topology/topology_description.hpp"

namespace orthosim {
namespace {

using sw::Port;
using sw::Topology;
using sw::TopologyKind;

std::vector<Topology> small_topologies() {
  return {Topology::mesh({5}),       Topology::mesh({2, 2}),     Topology::mesh({4, 3}),
          Topology::mesh({3, 2, 4}), Topology::torus({2}),       Topology::torus({5}),
          Topology::torus({6}),      Topology::torus({4, 3}),    Topology::torus({4, 4}),
          Topology::torus({2, 5}),   Topology::torus({3, 2, 4}), Topology::torus({2, 2, 2}),
          Topology::hypercube(1),    Topology::hypercube(3),     Topology::hypercube(5)};
}

/// Shortest path lengths from src over every channel of the topology (the BFS oracle).
std::vector<std::uint32_t> bfs_distances(const Topology& t, std::uint32_t src) {
  std::vector<std::uint32_t> dist(t.nodes(), UINT32_MAX);
  std::queue<std::uint32_t> q;
  dist[src] = 0;
  q.push(src);
  while (!q.empty()) {
    const std::uint32_t u = q.front();
    q.pop();
    for (Port p : t.ports()) {
      if (std::optional<std::uint32_t> v = t.neighbor(u, p); v && dist[*v] == UINT32_MAX) {
        dist[*v] = dist[u] + 1;
        q.push(*v);
      }
    }
  }
  return dist;
}

TEST(Topology, NodeCountsAndAddressBits) {
  EXPECT_EQ(Topology::mesh({8, 8}).nodes(), 64U);
  EXPECT_EQ(Topology::torus({4, 4, 4}).nodes(), 64U);
  EXPECT_EQ(Topology::mesh({3, 5}).nodes(), 15U);
  EXPECT_EQ(Topology::hypercube(8).nodes(), 256U);
  EXPECT_EQ(Topology::hypercube(8).radices(), std::vector<std::uint32_t>(8, 2));
  EXPECT_EQ(Topology::hypercube(8).dimensions(), 8U);
  EXPECT_EQ(Topology::torus({4, 4, 4}).dimensions(), 3U);
  EXPECT_EQ(Topology::mesh({4, 4}).address_bits(), std::optional<std::uint32_t>(4));
  EXPECT_EQ(Topology::torus({2, 8}).address_bits(), std::optional<std::uint32_t>(4));
  EXPECT_EQ(Topology::hypercube(10).address_bits(), std::optional<std::uint32_t>(10));
  EXPECT_EQ(Topology::mesh({3, 3}).address_bits(), std::nullopt);
  EXPECT_EQ(Topology::mesh({256, 256}).nodes(), 65536U);
}

TEST(Topology, FactoriesRejectInvalidShapes) {
  EXPECT_THROW(Topology::mesh({}), std::invalid_argument);
  EXPECT_THROW(Topology::mesh({1}), std::invalid_argument);
  EXPECT_THROW(Topology::torus({4, 1}), std::invalid_argument);
  EXPECT_THROW(Topology::mesh({2, 2, 2, 2}), std::invalid_argument);
  EXPECT_THROW(Topology::torus({256, 257}), std::invalid_argument);
  EXPECT_THROW(Topology::hypercube(0), std::invalid_argument);
  EXPECT_THROW(Topology::hypercube(11), std::invalid_argument);
}

TEST(Topology, CoordinatesRoundTripWithDimensionZeroFastest) {
  for (const Topology& t : small_topologies()) {
    SCOPED_TRACE(t.to_string());
    const std::vector<std::uint32_t>& k = t.radices();
    std::set<std::vector<std::uint32_t>> seen;
    for (std::uint32_t n = 0; n < t.nodes(); ++n) {
      const std::vector<std::uint32_t> c = t.coordinates(n);
      ASSERT_EQ(c.size(), k.size());
      // node = x0 + k0*(x1 + k1*x2), written out.
      std::uint32_t expect = 0;
      for (std::size_t i = c.size(); i-- > 0;) {
        ASSERT_LT(c[i], k[i]);
        expect = expect * k[i] + c[i];
        EXPECT_EQ(t.coordinate(n, static_cast<std::uint32_t>(i)), c[i]);
      }
      EXPECT_EQ(expect, n);
      EXPECT_EQ(t.node_at(c), n);
      seen.insert(c);
    }
    EXPECT_EQ(seen.size(), t.nodes());
    EXPECT_THROW((void)t.coordinates(t.nodes()), std::out_of_range);
    EXPECT_THROW((void)t.coordinate(t.nodes(), 0), std::out_of_range);
    EXPECT_THROW((void)t.coordinate(0, t.dimensions()), std::out_of_range);
  }
  EXPECT_EQ(Topology::mesh({4, 3}).node_at({1, 2}), 9U);
  EXPECT_EQ(Topology::hypercube(4).coordinates(0b1010), (std::vector<std::uint32_t>{0, 1, 0, 1}));
  EXPECT_THROW((void)Topology::mesh({4, 3}).node_at({4, 0}), std::out_of_range);
  EXPECT_THROW((void)Topology::mesh({4, 3}).node_at({1}), std::out_of_range);
}

TEST(Topology, PortsInFixedOrder) {
  const Topology m = Topology::mesh({4, 3});
  const std::vector<Port> expect_m = {{0, true}, {0, false}, {1, true}, {1, false}};
  EXPECT_EQ(m.ports(), expect_m);
  const Topology h = Topology::hypercube(3);
  const std::vector<Port> expect_h = {{0, true}, {1, true}, {2, true}};
  EXPECT_EQ(h.ports(), expect_h);
  for (const Topology& t : small_topologies()) {
    const std::vector<Port> ports = t.ports();
    EXPECT_EQ(ports.size(),
              t.kind() == TopologyKind::Hypercube ? t.dimensions() : 2 * t.dimensions());
    for (std::uint32_t i = 0; i < ports.size(); ++i) {
      EXPECT_EQ(t.port_index(ports[i]), i);
    }
  }
  EXPECT_THROW((void)h.port_index({0, false}), std::out_of_range);
  EXPECT_THROW((void)h.port_index({3, true}), std::out_of_range);
  EXPECT_THROW((void)m.port_index({2, true}), std::out_of_range);
  EXPECT_EQ(m.port_name({1, false}), "y-");
  EXPECT_EQ(Topology::torus({2, 2, 2}).port_name({2, true}), "z+");
  EXPECT_EQ(h.port_name({2, true}), "d2");
}

TEST(Topology, NeighboursMeshEdgeTorusWrapHypercubeFlip) {
  for (const Topology& t : small_topologies()) {
    SCOPED_TRACE(t.to_string());
    for (std::uint32_t n = 0; n < t.nodes(); ++n) {
      for (Port p : t.ports()) {
        std::optional<std::uint32_t> expect;
        if (t.kind() == TopologyKind::Hypercube) {
          expect = n ^ (1U << p.dim);
        } else {
          std::vector<std::uint32_t> c = t.coordinates(n);
          const std::uint32_t k = t.radices()[p.dim];
          const std::uint32_t x = c[p.dim];
          const bool at_edge = p.positive ? x == k - 1 : x == 0;
          if (!(at_edge && t.kind() == TopologyKind::Mesh)) {
            c[p.dim] = p.positive ? (x + 1) % k : (x + k - 1) % k;
            expect = t.node_at(c);
          }
        }
        EXPECT_EQ(t.neighbor(n, p), expect) << "node " << n << " port " << t.port_name(p);
        // Channels come in pairs: the opposite port leads back.
        if (expect) {
          const Port back = t.kind() == TopologyKind::Hypercube ? p : Port{p.dim, !p.positive};
          EXPECT_EQ(t.neighbor(*expect, back), std::optional<std::uint32_t>(n));
        }
      }
    }
  }
  // Spot checks written by hand.
  const Topology m = Topology::mesh({4, 4});
  EXPECT_EQ(m.neighbor(3, {0, true}), std::nullopt);
  EXPECT_EQ(m.neighbor(0, {1, false}), std::nullopt);
  EXPECT_EQ(m.neighbor(5, {1, true}), std::optional<std::uint32_t>(9));
  const Topology r = Topology::torus({4, 4});
  EXPECT_EQ(r.neighbor(3, {0, true}), std::optional<std::uint32_t>(0));
  EXPECT_EQ(r.neighbor(1, {1, false}), std::optional<std::uint32_t>(13));
  // k = 2 torus: both directions reach the same neighbour.
  const Topology two = Topology::torus({2});
  EXPECT_EQ(two.neighbor(0, {0, true}), two.neighbor(0, {0, false}));
  EXPECT_EQ(Topology::hypercube(5).neighbor(6, {4, true}), std::optional<std::uint32_t>(22));
}

TEST(Route, ReachesDestinationOnAShortestPath) {
  for (const Topology& t : small_topologies()) {
    SCOPED_TRACE(t.to_string());
    for (std::uint32_t s = 0; s < t.nodes(); ++s) {
      const std::vector<std::uint32_t> dist = bfs_distances(t, s);
      for (std::uint32_t d = 0; d < t.nodes(); ++d) {
        const auto r = t.route(s, d);
        std::uint32_t at = s;
        for (const auto& [node, port] : r) {
          ASSERT_EQ(node, at);
          const std::optional<std::uint32_t> next = t.neighbor(node, port);
          ASSERT_TRUE(next.has_value());
          at = *next;
        }
        EXPECT_EQ(at, d);
        EXPECT_EQ(r.size(), dist[d]) << s << " -> " << d;
        EXPECT_EQ(t.hops(s, d), dist[d]) << s << " -> " << d;
        EXPECT_EQ(t.next_port(s, d).has_value(), s != d);
      }
    }
  }
}

TEST(Route, HopsFormulas) {
  // Manhattan distance, sum of min(|dx|, k - |dx|) and Hamming distance, by hand.
  EXPECT_EQ(Topology::mesh({8, 8}).hops(0, 63), 14U);
  EXPECT_EQ(Topology::torus({8, 8}).hops(0, 63), 2U);
  EXPECT_EQ(Topology::torus({8, 8}).hops(0, 4 + 8 * 4), 8U);
  EXPECT_EQ(Topology::torus({5}).hops(0, 3), 2U);
  EXPECT_EQ(Topology::hypercube(8).hops(0b10110001, 0b00110110), 4U);
}

TEST(Route, DimensionOrderedLowestFirst) {
  for (const Topology& t : small_topologies()) {
    SCOPED_TRACE(t.to_string());
    for (std::uint32_t s = 0; s < t.nodes(); ++s) {
      for (std::uint32_t d = 0; d < t.nodes(); ++d) {
        const auto r = t.route(s, d);
        for (std::size_t h = 1; h < r.size(); ++h) {
          const Port prev = r[h - 1].second;
          const Port cur = r[h].second;
          if (t.kind() == TopologyKind::Hypercube) {
            EXPECT_LT(prev.dim, cur.dim);  // e-cube: strictly increasing dimensions
          } else {
            EXPECT_LE(prev.dim, cur.dim);
            if (prev.dim == cur.dim) {
              EXPECT_EQ(prev.positive, cur.positive);  // no turning back within a ring/line
            }
          }
        }
      }
    }
  }
  // XY on a 4x4 mesh: (0,0) -> (2,3) goes x+ x+ then y+ y+ y+.
  const Topology m = Topology::mesh({4, 4});
  const auto r = m.route(0, m.node_at({2, 3}));
  std::vector<std::string> names;
  for (const auto& hop : r) {
    names.push_back(m.port_name(hop.second));
  }
  EXPECT_EQ(names, (std::vector<std::string>{"x+", "x+", "y+", "y+", "y+"}));
  // e-cube on a 3-cube: 000 -> 101 flips bit 0, then bit 2.
  const Topology h = Topology::hypercube(3);
  const std::vector<std::pair<std::uint32_t, Port>> expect = {{0, {0, true}}, {1, {2, true}}};
  EXPECT_EQ(h.route(0, 5), expect);
}

TEST(Route, TorusShorterWayAndHalfRingTieToPositive) {
  const Topology ring = Topology::torus({6});
  // 1 -> 5: two hops the negative way (1, 0, 5) beat four the positive way.
  EXPECT_EQ(ring.next_port(1, 5), (std::optional<Port>(Port{0, false})));
  EXPECT_EQ(ring.hops(1, 5), 2U);
  // Exactly half a ring: always the positive direction, so 0 -> 3 and 3 -> 0 both go up.
  EXPECT_EQ(ring.next_port(0, 3), (std::optional<Port>(Port{0, true})));
  EXPECT_EQ(ring.next_port(3, 0), (std::optional<Port>(Port{0, true})));
  const std::vector<std::pair<std::uint32_t, Port>> up = {{3, {0, true}},
                                                          {4, {0, true}},
                                                          {5, {0, true}}};
  EXPECT_EQ(ring.route(3, 0), up);
  // k = 2: the tie goes positive too, over node 1's wrap-around channel.
  EXPECT_EQ(Topology::torus({2}).next_port(1, 0), (std::optional<Port>(Port{0, true})));
}

TEST(Route, HalfRingTieOnTheMeshPathAvoidsTheWrapAround) {
  const Topology ring = Topology::torus({6});
  // The embedding metrics' rule: 3 -> 0 goes down (3, 2, 1), 0 -> 3 up, as on a line.
  const std::vector<std::pair<std::uint32_t, Port>> down = {{3, {0, false}},
                                                            {2, {0, false}},
                                                            {1, {0, false}}};
  EXPECT_EQ(ring.route(3, 0, sw::HalfRingTie::MeshPath), down);
  EXPECT_EQ(ring.next_port(0, 3, sw::HalfRingTie::MeshPath), (std::optional<Port>(Port{0, true})));
  // Shorter than half a ring, the rule changes nothing: 1 -> 5 still wraps round 0.
  EXPECT_EQ(ring.next_port(1, 5, sw::HalfRingTie::MeshPath), (std::optional<Port>(Port{0, false})));
  EXPECT_EQ(ring.route(1, 5, sw::HalfRingTie::MeshPath).size(), 2U);
  // On a 4 x 4 torus the rule applies per dimension: (2, 2) -> (0, 0) goes -x then -y.
  const Topology torus = Topology::torus({4, 4});
  const auto path = torus.route(10, 0, sw::HalfRingTie::MeshPath);
  ASSERT_EQ(path.size(), 4U);
  EXPECT_EQ(path[0].second, (Port{0, false}));
  EXPECT_EQ(path[2].second, (Port{1, false}));
  EXPECT_EQ(torus.route(10, 0).front().second, (Port{0, true}));
}

TEST(Topology, DatelineOnlyOnTorusWrapChannels) {
  for (const Topology& t : small_topologies()) {
    SCOPED_TRACE(t.to_string());
    for (std::uint32_t n = 0; n < t.nodes(); ++n) {
      const std::vector<std::uint32_t> c = t.coordinates(n);
      for (Port p : t.ports()) {
        const std::uint32_t k = t.radices()[p.dim];
        const bool wrap =
            t.kind() == TopologyKind::Torus && (p.positive ? c[p.dim] == k - 1 : c[p.dim] == 0);
        EXPECT_EQ(t.crosses_dateline(n, p), wrap) << n << " " << t.port_name(p);
      }
    }
    for (std::uint32_t s = 0; s < t.nodes(); ++s) {
      for (std::uint32_t d = 0; d < t.nodes(); ++d) {
        std::map<std::uint32_t, std::uint32_t> per_dim;
        bool used_wrap = false;
        for (const auto& [node, port] : t.route(s, d)) {
          if (t.crosses_dateline(node, port)) {
            ++per_dim[port.dim];
          }
          // A route that does not wrap around never crosses: its coordinate moves by one
          // without jumping between 0 and k-1 (only torus rings have such jumps).
          if (t.kind() == TopologyKind::Torus) {
            const std::uint32_t a = t.coordinates(node)[port.dim];
            const std::uint32_t b = t.coordinates(*t.neighbor(node, port))[port.dim];
            used_wrap = used_wrap || (port.positive ? b < a : b > a);
          }
        }
        std::uint32_t total = 0;
        for (const auto& [dim, count] : per_dim) {
          EXPECT_LE(count, 1U) << s << " -> " << d << " dimension " << dim;
          total += count;
        }
        EXPECT_EQ(total > 0, used_wrap) << s << " -> " << d;
        if (t.kind() != TopologyKind::Torus) {
          EXPECT_EQ(total, 0U);
        }
      }
    }
  }
}

/// Whether the channel dependency graph of all routes has a cycle. A channel is (node, port,
/// virtual channel), with two virtual channels per port of which a hop takes the first its
/// topology's default policy allows; with `use_vcs` false every hop is on VC 0.
bool dependency_cycle(const Topology& t, bool use_vcs) {
  using Channel = std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>;
  std::map<Channel, std::set<Channel>> edges;
  const auto description = sw::TopologyDescription::of(t);
  for (std::uint32_t s = 0; s < t.nodes(); ++s) {
    for (std::uint32_t d = 0; d < t.nodes(); ++d) {
      std::optional<Port> in;
      std::uint32_t vc = 0;
      std::optional<Channel> prev;
      for (const auto& [node, port] : t.route(s, d)) {
        const std::optional<std::uint32_t> in_port =
            in ? std::optional(t.port_index(*in)) : std::nullopt;
        vc = use_vcs ? sw::default_vc_policy(t)
                           .allowed(*description, node, t.port_index(port), in_port, vc, 2)
                           .first
                     : 0;
        const Channel ch{node, t.port_index(port), vc};
        if (prev) {
          edges[*prev].insert(ch);
        }
        prev = ch;
        in = port;
      }
    }
  }
  std::map<Channel, int> state;  // 0 unseen, 1 on stack, 2 done
  std::function<bool(const Channel&)> visit = [&](const Channel& c) {
    state[c] = 1;
    for (const Channel& n : edges[c]) {
      if (state[n] == 1 || (state[n] == 0 && visit(n))) {
        return true;
      }
    }
    state[c] = 2;
    return false;
  };
  std::vector<Channel> starts;
  for (const auto& e : edges) {
    starts.push_back(e.first);
  }
  for (const Channel& c : starts) {
    if (state[c] == 0 && visit(c)) {
      return true;
    }
  }
  return false;
}

TEST(Topology, DatelineVirtualChannelsBreakRingCycles) {
  // Without the second virtual channel the rings of a torus have cyclic dependencies (so the
  // checker can fail); with the dateline rule no torus has one, and meshes and hypercubes never
  // do under dimension order.
  EXPECT_TRUE(dependency_cycle(Topology::torus({4}), false));
  EXPECT_TRUE(dependency_cycle(Topology::torus({5, 3}), false));
  for (const Topology& t : small_topologies()) {
    SCOPED_TRACE(t.to_string());
    EXPECT_FALSE(dependency_cycle(t, true));
  }
  // The rule itself, with 4 virtual channels (classes {0, 1} and {2, 3}): class 1 on the wrap
  // channel, kept in the same dimension, class 0 after a turn.
  const sw::VcPolicy& dateline = sw::vc_policy("dateline");
  const Topology r = Topology::torus({4, 4});
  const auto first = [&](const Topology& t, std::uint32_t node, Port out, std::optional<Port> in,
                         std::uint32_t in_vc) {
    const sw::VcRange range =
        dateline.allowed(*sw::TopologyDescription::of(t), node, t.port_index(out),
                         in ? std::optional(t.port_index(*in)) : std::nullopt, in_vc, 4);
    EXPECT_EQ(range.count, 2U);
    return range.first;
  };
  EXPECT_EQ(first(r, 3, {0, true}, std::nullopt, 0), 2U);
  EXPECT_EQ(first(r, 0, {0, true}, Port{0, true}, 3), 2U);
  EXPECT_EQ(first(r, 1, {1, true}, Port{0, true}, 2), 0U);
  EXPECT_EQ(first(r, 1, {0, true}, std::nullopt, 0), 0U);
  EXPECT_EQ(first(Topology::mesh({4, 4}), 3, {0, false}, Port{0, false}, 0), 0U);
}

// The command line asks this list which --arch values are networks.
TEST(Topology, EveryKindNameParsesToItsKind) {
  const std::vector<std::string> names = sw::topology_kind_names();
  EXPECT_EQ(names, (std::vector<std::string>{"mesh", "torus", "hypercube"}));
  for (const std::string& name : names) {
    const bool cube = name == "hypercube";
    const Topology t =
        Topology::parse(name, cube ? std::nullopt : std::optional<std::string>("4x4"),
                        cube ? std::optional<std::string>("3") : std::nullopt);
    EXPECT_EQ(sw::to_string(t.kind()), name);
  }
}

TEST(Routing, PlugInsAreFoundByNameAndEachTopologyHasItsDefaults) {
  for (const std::string& name : sw::routing_names()) {
    EXPECT_EQ(sw::routing_function(name).name(), name);
  }
  for (const std::string& name : sw::vc_policy_names()) {
    EXPECT_EQ(sw::vc_policy(name).name(), name);
  }
  EXPECT_THROW((void)sw::routing_function("adaptive"), std::invalid_argument);
  EXPECT_THROW((void)sw::vc_policy("escape"), std::invalid_argument);
  EXPECT_EQ(sw::default_routing(Topology::mesh({4, 4})).name(), "dimension-order");
  EXPECT_EQ(sw::default_routing(Topology::torus({4, 4})).name(), "dimension-order");
  EXPECT_EQ(sw::default_routing(Topology::hypercube(3)).name(), "e-cube");
  EXPECT_EQ(sw::default_vc_policy(Topology::torus({4})).name(), "dateline");
  EXPECT_EQ(sw::default_vc_policy(Topology::mesh({4})).name(), "any");
  EXPECT_EQ(sw::default_vc_policy(Topology::hypercube(2)).name(), "any");
  EXPECT_TRUE(sw::vc_policy("dateline").check_vcs(3).has_value());
  EXPECT_FALSE(sw::vc_policy("dateline").check_vcs(2).has_value());
  EXPECT_FALSE(sw::vc_policy("any").check_vcs(3).has_value());
  EXPECT_EQ(sw::vc_policy("any")
                .allowed(*sw::TopologyDescription::of(Topology::torus({4})), 3, 0, std::nullopt, 0,
                         3)
                .count,
            3U);
}

// P-cube on the 5-cube, every (router, destination): the candidates are the dimensions still to
// correct in the current phase, lowest first, and every path that takes any candidate at every
// router is minimal, clears all its bits before it sets one, and takes channels in strictly
// increasing number of the deadlock-freedom argument (routing.cpp: N - x for a channel that clears
// a bit at node x, 2N + x for one that sets a bit).
TEST(Routing, PCubeClearsBitsBeforeItSetsThemAndClimbsTheChannelNumbering) {
  const Topology cube = Topology::hypercube(5);
  const auto d = sw::TopologyDescription::of(cube, sw::routing_function("p-cube"));
  EXPECT_EQ(d->routing().name(), "p-cube");
  const std::uint32_t n = cube.nodes();
  std::uint32_t paths = 0;
  for (std::uint32_t src = 0; src < n; ++src) {
    for (std::uint32_t dest = 0; dest < n; ++dest) {
      // Every path: a depth-first walk over all candidates, the last channel number on the stack.
      struct Step {
        std::uint32_t at, hops;
        std::int64_t last_number;
        bool set_a_bit;
      };
      std::vector<Step> stack{{src, 0, -1, false}};
      while (!stack.empty()) {
        const Step step = stack.back();
        stack.pop_back();
        sw::PortCandidates candidates;
        d->routing().route(*d, step.at, std::nullopt, dest, candidates);
        if (candidates.empty()) {
          EXPECT_EQ(step.at, dest);
          EXPECT_EQ(step.hops, static_cast<std::uint32_t>(__builtin_popcount(src ^ dest)));
          ++paths;
          continue;
        }
        std::uint32_t still_to_clear = 0;
        std::uint32_t still_to_set = 0;
        for (std::uint32_t i = 0; i < 5; ++i) {
          const bool here = (step.at >> i) & 1U;
          const bool there = (dest >> i) & 1U;
          still_to_clear += here && !there ? 1 : 0;
          still_to_set += !here && there ? 1 : 0;
        }
        ASSERT_EQ(candidates.size(), still_to_clear > 0 ? still_to_clear : still_to_set);
        for (std::size_t k = 0; k < candidates.size(); ++k) {
          const Port port = cube.port_at(candidates[k]);
          if (k > 0) {
            EXPECT_LT(cube.port_at(candidates[k - 1]).dim, port.dim);  // lowest first
          }
          const bool sets = ((step.at >> port.dim) & 1U) == 0;
          ASSERT_EQ(((step.at ^ dest) >> port.dim) & 1U, 1U) << "a minimal hop";
          EXPECT_FALSE(step.set_a_bit && !sets) << "a bit cleared after one was set";
          const std::int64_t number = sets ? 2 * n + step.at : n - step.at;
          EXPECT_LT(step.last_number, number) << step.at << " -> " << dest;
          stack.push_back({*cube.neighbor(step.at, port), step.hops + 1, number, sets});
        }
      }
    }
  }
  // Paths from x to y: the orders of the bits to clear times the orders of the bits to set.
  std::uint32_t expected = 0;
  for (std::uint32_t src = 0; src < n; ++src) {
    for (std::uint32_t dest = 0; dest < n; ++dest) {
      std::uint32_t clear_orders = 1;
      std::uint32_t set_orders = 1;
      for (int k = 2; k <= __builtin_popcount(src & ~dest); ++k) {
        clear_orders *= static_cast<std::uint32_t>(k);
      }
      for (int k = 2; k <= __builtin_popcount(dest & ~src); ++k) {
        set_orders *= static_cast<std::uint32_t>(k);
      }
      expected += clear_orders * set_orders;
    }
  }
  EXPECT_EQ(paths, expected);
  EXPECT_EQ(sw::routing_names(cube), (std::vector<std::string>{"e-cube", "p-cube"}));
  EXPECT_EQ(sw::routing_names(Topology::mesh({4, 4})),
            (std::vector<std::string>{"dimension-order"}));
}

TEST(Topology, ToString) {
  EXPECT_EQ(Topology::mesh({8, 8}).to_string(), "mesh 8x8");
  EXPECT_EQ(Topology::torus({16, 16}).to_string(), "torus 16x16");
  EXPECT_EQ(Topology::torus({8}).to_string(), "ring 8");
  EXPECT_EQ(Topology::mesh({8}).to_string(), "line 8");
  EXPECT_EQ(Topology::mesh({4, 4, 4}).to_string(), "mesh 4x4x4");
  EXPECT_EQ(Topology::hypercube(8).to_string(), "hypercube d=8");
  EXPECT_EQ(sw::to_string(TopologyKind::Torus), "torus");
}

TEST(Topology, ParseAccepts) {
  EXPECT_EQ(Topology::parse("mesh", std::string("8x8"), std::nullopt), Topology::mesh({8, 8}));
  EXPECT_EQ(Topology::parse("torus", std::string("4x4x4"), std::nullopt),
            Topology::torus({4, 4, 4}));
  EXPECT_EQ(Topology::parse("torus", std::string("8"), std::nullopt).to_string(), "ring 8");
  EXPECT_EQ(Topology::parse("hypercube", std::nullopt, std::string("8")), Topology::hypercube(8));
  EXPECT_EQ(Topology::parse("mesh", std::string("256x256"), std::nullopt).nodes(), 65536U);
  EXPECT_NE(Topology::mesh({4, 4}), Topology::torus({4, 4}));
}

/// Runs `f`, expects a ParameterError keyed by `parameter` whose message contains `text`.
template <typename F>
void expect_parameter_error(F f, const std::string& parameter, const std::string& text) {
  try {
    f();
    ADD_FAILURE() << "no error; expected one about " << parameter << ": '" << text << "'";
  } catch (const sw::ParameterError& e) {
    EXPECT_EQ(e.parameter(), parameter) << e.what();
    EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
  }
}

TEST(Topology, ParseErrorsNameTheParameter) {
  const std::optional<std::string> none;
  auto s = [](const char* text) { return std::optional<std::string>(text); };
  expect_parameter_error([&] { (void)Topology::parse("star", s("8x8"), none); }, "arch",
                         "mesh, torus or hypercube");
  expect_parameter_error([&] { (void)Topology::parse("star", s("8x8"), none, "topology"); },
                         "topology", "'star'");
  expect_parameter_error([&] { (void)Topology::parse("mesh", s("1x8"), none); }, "dims",
                         "at least 2, found 1 in '1x8'");
  expect_parameter_error([&] { (void)Topology::parse("torus", s("2x2x2x2"), none); }, "dims",
                         "1 to 3 dimensions, found 4");
  // An empty radix is no number (not a radix of 0, which the radix bound would name).
  expect_parameter_error([&] { (void)Topology::parse("mesh", s("8x"), none); }, "dims",
                         "radices separated by 'x', e.g. 8x8 or 4x4x4, found '8x'");
  expect_parameter_error([&] { (void)Topology::parse("mesh", s("8*8"), none); }, "dims", "'8*8'");
  expect_parameter_error([&] { (void)Topology::parse("mesh", s(""), none); }, "dims",
                         "radices separated by 'x', e.g. 8x8 or 4x4x4, found ''");
  expect_parameter_error([&] { (void)Topology::parse("mesh", s("-8x8"), none); }, "dims", "-8x8");
  // The characters either side of the digits in ASCII ('/' and ':'), which a digit test off by one
  // would read as -1 and 10: not numbers at all, rather than a radix too large or a 8x10 mesh.
  expect_parameter_error([&] { (void)Topology::parse("mesh", s("8x:"), none); }, "dims",
                         "radices separated by 'x', e.g. 8x8 or 4x4x4, found '8x:'");
  expect_parameter_error([&] { (void)Topology::parse("mesh", s("/x8"), none); }, "dims",
                         "radices separated by 'x', e.g. 8x8 or 4x4x4, found '/x8'");
  expect_parameter_error([&] { (void)Topology::parse("hypercube", none, s(":")); }, "dim", "':'");
  expect_parameter_error([&] { (void)Topology::parse("mesh", s("300x300"), none); }, "dims",
                         "at most 65536 nodes, found 90000 nodes");
  expect_parameter_error(
      [&] { (void)Topology::parse("mesh", s("999999999x999999999x99999"), none); }, "dims",
      "at most 65536 nodes");
  expect_parameter_error([&] { (void)Topology::parse("mesh", s("8x8"), s("3")); }, "dim", "{dims}");
  expect_parameter_error([&] { (void)Topology::parse("mesh", none, none); }, "dims", "no {dims}");
  expect_parameter_error([&] { (void)Topology::parse("hypercube", s("8x8"), none); }, "dims",
                         "{dim}");
  expect_parameter_error([&] { (void)Topology::parse("hypercube", none, none); }, "dim",
                         "no {dim}");
  expect_parameter_error([&] { (void)Topology::parse("hypercube", none, s("11")); }, "dim",
                         "1 to 10, found '11'");
  expect_parameter_error([&] { (void)Topology::parse("hypercube", none, s("0")); }, "dim", "'0'");
  expect_parameter_error([&] { (void)Topology::parse("hypercube", none, s("eight")); }, "dim",
                         "'eight'");
}

// The parser's limits at their edges. A radix or dimension of 10 digits could wrap round 2^32
// (4294967300 would read as 4), so it is refused for its digits, never read; the largest dimension, 10, is accepted.
// The count of nodes named in the error is exact up to 2^64 - 1: 42009217 x 6700417 x 65535 is
// (2^64 - 1) exactly, since 2^64 - 1 = 3 * 5 * 17 * 257 * 641 * 65537 * 6700417 and
// 65535 = 3 * 5 * 17 * 257.
TEST(Topology, ParseLimitsAtTheirEdges) {
  const std::optional<std::string> none;
  auto s = [](const char* text) { return std::optional<std::string>(text); };
  expect_parameter_error([&] { (void)Topology::parse("mesh", s("4294967300x4"), none); }, "dims",
                         "at most 65536 nodes, found a radix of 10 digits in '4294967300x4'");
  expect_parameter_error([&] { (void)Topology::parse("hypercube", none, s("4294967297")); }, "dim",
                         "'4294967297'");
  const Topology largest = Topology::parse("hypercube", none, s("10"));
  EXPECT_EQ(largest.nodes(), 1024U);
  EXPECT_EQ(Topology::parse("mesh", s("000000004x4"), none).nodes(), 16U);  // 9 digits
  expect_parameter_error([&] { (void)Topology::parse("mesh", s("42009217x6700417x65535"), none); },
                         "dims", "at most 65536 nodes, found 18446744073709551615 nodes");
  expect_parameter_error([&] { (void)Topology::parse("mesh", s("42009217x6700417x65536"), none); },
                         "dims", "at most 65536 nodes, found more than 2^64 nodes");
}

// ---- the general description ----------------------------------------------------------------

using sw::TopologyDescription;

// The routers read only the description, so it must be the topology exactly: router r is node r,
// port q of every router is ports()[q] under its name, its channel lands on input port q of the
// neighbour, and the default routing picks the port next_port() picks.
TEST(TopologyDescription, RegularNetworksDescribeThemselvesPortForPort) {
  for (const Topology& t : small_topologies()) {
    SCOPED_TRACE(t.to_string());
    const auto d = TopologyDescription::of(t);
    const std::vector<Port> ports = t.ports();
    ASSERT_EQ(d->routers(), t.nodes());
    ASSERT_EQ(d->nodes(), t.nodes());
    EXPECT_EQ(d->name(), t.to_string());
    EXPECT_EQ(d->routing().name(), sw::default_routing(t).name());
    EXPECT_EQ(d->vc_policy().name(), sw::default_vc_policy(t).name());
    sw::PortCandidates chosen;
    for (std::uint32_t r = 0; r < t.nodes(); ++r) {
      EXPECT_EQ(d->attachment(r).router, r);
      EXPECT_EQ(d->attachment(r).local, 0U);
      EXPECT_EQ(d->concentration(r), 1U);
      ASSERT_EQ(d->ports(r), ports.size());
      for (std::uint32_t q = 0; q < ports.size(); ++q) {
        EXPECT_EQ(d->port_name(r, q), t.port_name(ports[q]));
        const std::optional<std::uint32_t> n = t.neighbor(r, ports[q]);
        ASSERT_EQ(d->link(r, q).has_value(), n.has_value()) << r << " " << q;
        if (n) {
          EXPECT_EQ(d->link(r, q)->router, *n);
          EXPECT_EQ(d->link(r, q)->port, q);
          EXPECT_EQ(d->feeder(*n, q)->router, r);
        }
      }
      for (std::uint32_t dest = 0; dest < t.nodes(); ++dest) {
        d->routing().route(*d, r, std::nullopt, dest, chosen);
        const std::optional<Port> expected = t.next_port(r, dest);
        ASSERT_EQ(chosen.size(), expected ? 1U : 0U) << r << " -> " << dest;
        if (expected) {
          EXPECT_EQ(chosen.front(), t.port_index(*expected)) << r << " -> " << dest;
        }
      }
    }
  }
  EXPECT_EQ(TopologyDescription::of(Topology::mesh({4, 3}))->channel_name(5, 1), "n5.x-");
  EXPECT_EQ(TopologyDescription::of(Topology::torus({4, 3}))->router_label(6), "r(2,1)");
  EXPECT_EQ(TopologyDescription::of(Topology::hypercube(3))->router_label(6), "r(0,1,1)");
}

/// Follows `d`'s routing from node src's router to node dest's; the number of channels taken, or
/// none when it loops or leaves by a port without a channel.
std::optional<std::uint32_t> routed_hops(const TopologyDescription& d, std::uint32_t src,
                                         std::uint32_t dest) {
  std::uint32_t at = d.attachment(src).router;
  std::optional<std::uint32_t> in;
  sw::PortCandidates next;
  for (std::uint32_t hops = 0; hops <= d.routers(); ++hops) {
    d.routing().route(d, at, in, dest, next);
    if (next.empty()) {
      return at == d.attachment(dest).router ? std::optional(hops) : std::nullopt;
    }
    const std::optional<sw::PortLink>& to = d.link(at, next.front());
    if (!to) {
      return std::nullopt;
    }
    at = to->router;
    in = to->port;
  }
  return std::nullopt;
}

// Five routers in a ring (port 0 clockwise, port 1 counter-clockwise) with a chord 0 - 2 on port
// 2, and one node on each router but router 4, which has two.
std::shared_ptr<const TopologyDescription> ring_with_chord() {
  TopologyDescription::Builder b("ring of 5 with a chord");
  for (std::uint32_t r = 0; r < 5; ++r) {
    b.add_router(r == 0 || r == 2 ? 3 : 2);
  }
  for (std::uint32_t r = 0; r < 5; ++r) {
    b.connect_both(r, 0, (r + 1) % 5, 1);
  }
  b.connect_both(0, 2, 2, 2);
  for (std::uint32_t r = 0; r < 5; ++r) {
    b.attach_node(r);
  }
  b.attach_node(4);
  return b.build();
}

// Shortest-path routing against distances the test computes itself: on the mesh, tori and
// hypercubes the formula of Topology::hops, on the hand-built ring a hand count.
TEST(TopologyDescription, ShortestPathRoutingTakesAShortestPath) {
  for (const Topology& t : small_topologies()) {
    SCOPED_TRACE(t.to_string());
    const auto d = TopologyDescription::of(t);
    const auto table = sw::make_shortest_path_routing(*d);
    sw::PortCandidates next;
    for (std::uint32_t s = 0; s < t.nodes(); ++s) {
      for (std::uint32_t dest = 0; dest < t.nodes(); ++dest) {
        std::uint32_t at = s;
        std::uint32_t hops = 0;
        for (table->route(*d, at, std::nullopt, dest, next); !next.empty() && hops <= t.nodes();
             table->route(*d, at, std::nullopt, dest, next)) {
          at = d->link(at, next.front())->router;
          ++hops;
        }
        EXPECT_EQ(at, dest);
        EXPECT_EQ(hops, t.hops(s, dest)) << s << " -> " << dest;
      }
    }
  }
  const auto ring = ring_with_chord();
  EXPECT_EQ(ring->routing().name(), "shortest-path");
  EXPECT_EQ(ring->nodes(), 6U);
  EXPECT_EQ(ring->concentration(4), 2U);
  EXPECT_EQ(ring->attachment(5).router, 4U);
  EXPECT_EQ(ring->attachment(5).local, 1U);
  // Router 0 to 2 by the chord, node 5 and node 4 share router 4.
  const std::uint32_t expected[6][6] = {{0, 1, 1, 2, 1, 1}, {1, 0, 1, 2, 2, 2}, {1, 1, 0, 1, 2, 2},
                                        {2, 2, 1, 0, 1, 1}, {1, 2, 2, 1, 0, 0}, {1, 2, 2, 1, 0, 0}};
  for (std::uint32_t s = 0; s < 6; ++s) {
    for (std::uint32_t dest = 0; dest < 6; ++dest) {
      EXPECT_EQ(routed_hops(*ring, s, dest), expected[s][dest]) << s << " -> " << dest;
    }
  }
  // Two shortest ways from router 3 to router 0: by router 4 (port 0) and by router 2 (port 1);
  // from router 0 to router 3: by router 4 (port 1) and by the chord (port 2). The lower port wins.
  sw::PortCandidates first;
  ring->routing().route(*ring, 3, std::nullopt, 0, first);
  EXPECT_EQ(first, sw::PortCandidates{0});
  ring->routing().route(*ring, 0, std::nullopt, 3, first);
  EXPECT_EQ(first, sw::PortCandidates{1});
}

// The route table against Topology::route: from every router toward every node, following the
// table's ports hop by hop over the description's channels visits the nodes and ports of the
// whole route and ends with an ejection at the destination. On the hand-built ring, the table's
// walk has the shortest-path routing's hop counts (ShortestPathRoutingTakesAShortestPath counts
// them by hand).
TEST(RouteTable, AgreesWithTheWholeRouteFromEveryRouterToEveryNode) {
  std::vector<Topology> shapes = small_topologies();
  shapes.push_back(Topology::mesh({8, 8}));
  shapes.push_back(Topology::torus({8, 8}));
  shapes.push_back(Topology::hypercube(8));
  for (const Topology& t : shapes) {
    SCOPED_TRACE(t.to_string());
    const auto d = TopologyDescription::of(t);
    std::optional<sw::RouteTable> table = sw::RouteTable::of(*d);
    ASSERT_TRUE(table.has_value());
    for (std::uint32_t r = 0; r < t.nodes(); ++r) {
      for (std::uint32_t dest = 0; dest < t.nodes(); ++dest) {
        std::uint32_t at = r;
        for (const auto& [node, port] : t.route(r, dest)) {
          ASSERT_EQ(at, node);
          const std::uint8_t q = table->port(at, dest);
          ASSERT_EQ(q, t.port_index(port)) << r << " -> " << dest << " at " << at;
          at = d->link(at, q)->router;
        }
        EXPECT_EQ(at, dest);
        EXPECT_EQ(table->port(at, dest), sw::RouteTable::eject) << r << " -> " << dest;
      }
    }
  }
  const auto ring = ring_with_chord();
  std::optional<sw::RouteTable> table = sw::RouteTable::of(*ring);
  ASSERT_TRUE(table.has_value());
  for (std::uint32_t s = 0; s < ring->nodes(); ++s) {
    for (std::uint32_t dest = 0; dest < ring->nodes(); ++dest) {
      std::uint32_t at = ring->attachment(s).router;
      std::uint32_t hops = 0;
      for (; table->port(at, dest) != sw::RouteTable::eject && hops <= ring->routers(); ++hops) {
        at = ring->link(at, table->port(at, dest))->router;
      }
      EXPECT_EQ(at, ring->attachment(dest).router) << s << " -> " << dest;
      EXPECT_EQ(hops, routed_hops(*ring, s, dest)) << s << " -> " << dest;
    }
  }
}

// No table where it would not hold the routes or would be too large: an adaptive routing (P-cube
// offers several ports, whatever the table would keep), a router with 254 ports (an entry is one
// byte, two values reserved), more entries than the bound (routers x nodes; by default a 32x32 mesh is tabled and a
// 64x64 one is not). The routers then compute each header's route (fabric_test.cpp).
TEST(RouteTable, NoneForAdaptiveRoutingsHugeRoutersAndNetworksAboveTheBound) {
  const Topology cube = Topology::hypercube(4);
  EXPECT_FALSE(sw::RouteTable::of(*TopologyDescription::of(cube, sw::routing_function("p-cube"))));
  EXPECT_TRUE(sw::RouteTable::of(*TopologyDescription::of(cube, sw::routing_function("e-cube"))));
  const auto mesh = TopologyDescription::of(Topology::mesh({4, 3}));
  EXPECT_TRUE(sw::RouteTable::of(*mesh, 12 * 12));
  EXPECT_FALSE(sw::RouteTable::of(*mesh, 12 * 12 - 1));
  EXPECT_TRUE(sw::RouteTable::of(*TopologyDescription::of(Topology::mesh({32, 32}))));
  EXPECT_FALSE(sw::RouteTable::of(*TopologyDescription::of(Topology::mesh({64, 64}))));
  for (const std::uint32_t ports : {253U, 254U}) {
    TopologyDescription::Builder b("two routers");
    b.add_router(ports);
    b.add_router(1);
    b.connect_both(0, ports - 1, 1, 0);
    b.attach_node(0);
    b.attach_node(1);
    const auto wide = b.build();
    EXPECT_EQ(sw::RouteTable::of(*wide).has_value(), ports < 254) << ports;
  }
}

/// "built", or why the builder refused two routers of two ports each wired by `wire`.
std::string build_two_routers(const std::function<void(TopologyDescription::Builder&)>& wire) {
  TopologyDescription::Builder b("t");
  b.add_router(2);
  b.add_router(2);
  wire(b);
  try {
    (void)b.build();
  } catch (const std::invalid_argument& e) {
    return std::string(e.what());
  }
  return std::string("built");
}

TEST(TopologyDescription, TheBuilderRefusesWhatIsNoNetwork) {
  const auto refused = [](const std::function<void(TopologyDescription::Builder&)>& wire) {
    return build_two_routers([&](TopologyDescription::Builder& b) {
      b.attach_node(0);
      b.attach_node(1);
      wire(b);
    });
  };
  EXPECT_EQ(refused([](auto& b) { b.connect_both(0, 0, 1, 0); }), "built");
  EXPECT_NE(refused([](auto& b) { b.connect_both(0, 0, 1, 2); }).find("no port 2 on router 1"),
            std::string::npos);
  EXPECT_NE(refused([](auto& b) {
              b.connect_both(0, 0, 1, 0);
              b.connect(0, 1, 1, 0);
            }).find("two channels into input port 0 of router 1"),
            std::string::npos);
  EXPECT_NE(refused([](auto& b) {
              b.connect_both(0, 0, 1, 0);
              b.connect(0, 0, 1, 1);
            }).find("two channels from output port 0 of router 0"),
            std::string::npos);
  EXPECT_NE(refused([](auto& b) { b.connect(0, 0, 1, 0); }).find("no path from router 1"),
            std::string::npos);
  EXPECT_NE(refused([](auto& b) { b.attach_node(7); }).find("router 7"), std::string::npos);
}

// The builder's bounds at their edges: a channel from a router to itself is refused whatever its
// ports, a network of one node is none, and a node on the first router past the last is refused
// (router 2 of routers 0 and 1).
TEST(TopologyDescription, TheBuilderRefusesSelfLoopsALoneNodeAndTheRouterPastTheLast) {
  EXPECT_NE(build_two_routers([](auto& b) {
              b.connect(0, 0, 0, 1);
              b.attach_node(0);
              b.attach_node(1);
            }).find("from router 0 to itself"),
            std::string::npos);
  EXPECT_NE(build_two_routers([](auto& b) {
              b.connect_both(0, 0, 1, 0);
              b.attach_node(0);
            }).find("at least two nodes"),
            std::string::npos);
  EXPECT_NE(build_two_routers([](auto& b) {
              b.connect_both(0, 0, 1, 0);
              b.attach_node(0);
              b.attach_node(2);
            }).find("router 2, which does not exist"),
            std::string::npos);
  EXPECT_NE(build_two_routers([](auto& b) {
              b.connect_both(0, 0, 1, 0);
              b.connect(0, 1, 2, 0);
              b.attach_node(0);
              b.attach_node(1);
            }).find("no port 0 on router 2"),
            std::string::npos);
}

// The builder numbers routers and nodes from 0 in the order they are added, and names every port
// of every router p0, p1, ... (docs/topology.md), also where an earlier router has more ports
// than the later ones: routers of 3, 2 and 1 ports in a line, nodes attached to routers 2, 0, 2.
TEST(TopologyDescription, TheBuilderNumbersWhatItAddsAndNamesEveryPort) {
  TopologyDescription::Builder b("a line of 3");
  const std::vector<std::uint32_t> ports = {3, 2, 1};
  for (std::uint32_t r = 0; r < ports.size(); ++r) {
    EXPECT_EQ(b.add_router(ports[r]), r);
  }
  b.connect_both(0, 2, 1, 0).connect_both(1, 1, 2, 0);
  const std::vector<std::uint32_t> routers = {2, 0, 2};
  for (std::uint32_t node = 0; node < routers.size(); ++node) {
    EXPECT_EQ(b.attach_node(routers[node]), node);
  }
  const auto d = b.build();
  ASSERT_EQ(d->routers(), 3U);
  for (std::uint32_t r = 0; r < ports.size(); ++r) {
    ASSERT_EQ(d->ports(r), ports[r]);
    EXPECT_EQ(d->router_name(r), "r" + std::to_string(r));
    EXPECT_EQ(d->router_label(r), "r" + std::to_string(r));
    for (std::uint32_t q = 0; q < ports[r]; ++q) {
      EXPECT_EQ(d->port_name(r, q), "p" + std::to_string(q));
      EXPECT_EQ(d->channel_name(r, q), "r" + std::to_string(r) + ".p" + std::to_string(q));
    }
  }
}

// The routers keep one candidate list and hand it to every call (sc_models/net/fabric.cpp): each
// routing function's answer must be the call's own, whatever the list held. A list reused over
// every (router, destination) pair, starting from a stale port, equals a fresh list per call.
TEST(Routing, EachCallAnswersInAListOfItsOwnWhateverTheListHeld) {
  std::vector<std::shared_ptr<const sw::TopologyDescription>> networks = {
      sw::TopologyDescription::of(Topology::mesh({3, 2})),
      sw::TopologyDescription::of(Topology::torus({4, 3})),
      sw::TopologyDescription::of(Topology::hypercube(3)),
      sw::TopologyDescription::of(Topology::hypercube(3), sw::routing_function("p-cube")),
      ring_with_chord()};
  for (const auto& d : networks) {
    SCOPED_TRACE(d->name() + " " + d->routing().name());
    sw::PortCandidates reused{0};
    for (std::uint32_t r = 0; r < d->routers(); ++r) {
      for (std::uint32_t dest = 0; dest < d->nodes(); ++dest) {
        sw::PortCandidates fresh;
        d->routing().route(*d, r, std::nullopt, dest, fresh);
        d->routing().route(*d, r, std::nullopt, dest, reused);
        EXPECT_EQ(reused, fresh) << r << " -> " << dest;
      }
    }
  }
}

// A channel's two ends agree: the feeder of input port link(r, q).port of router link(r, q).router
// is output port q of router r, and every fed input port is the end of that output's channel, on
// the regular networks (where output q lands on input q) and the hand-built ring.
TEST(TopologyDescription, EachChannelsFeederIsTheOutputPortItLeaves) {
  std::vector<std::shared_ptr<const TopologyDescription>> networks = {ring_with_chord()};
  for (const Topology& t : small_topologies()) {
    networks.push_back(TopologyDescription::of(t));
  }
  for (const auto& d : networks) {
    SCOPED_TRACE(d->name());
    std::uint32_t links = 0;
    std::uint32_t feeders = 0;
    for (std::uint32_t r = 0; r < d->routers(); ++r) {
      for (std::uint32_t q = 0; q < d->ports(r); ++q) {
        if (const std::optional<sw::PortLink>& to = d->link(r, q)) {
          ++links;
          const std::optional<sw::PortLink>& back = d->feeder(to->router, to->port);
          ASSERT_TRUE(back.has_value()) << r << "." << q;
          EXPECT_EQ(back->router, r) << r << "." << q;
          EXPECT_EQ(back->port, q) << r << "." << q;
        }
        if (d->feeder(r, q)) {
          ++feeders;
        }
      }
    }
    EXPECT_EQ(feeders, links);
  }
}

// node_at(router, local) is the inverse of attachment(node): every node is found at its router and
// place there, and each router's places 0..concentration-1 hold distinct nodes attached to it. The
// hand-built networks attach their nodes out of router order (the ring's node 5 shares router 4,
// and the second network attaches to routers 2, 0, 2, 1, 0).
TEST(TopologyDescription, NodeAtARoutersPlaceIsTheNodeAttachedThere) {
  TopologyDescription::Builder b("a line of 3 with 5 nodes");
  b.add_router(1);
  b.add_router(2);
  b.add_router(1);
  b.connect_both(0, 0, 1, 0).connect_both(1, 1, 2, 0);
  for (const std::uint32_t r : {2U, 0U, 2U, 1U, 0U}) {
    b.attach_node(r);
  }
  std::vector<std::shared_ptr<const TopologyDescription>> networks = {ring_with_chord(), b.build(),
                                                                      TopologyDescription::of(
                                                                          Topology::torus({3, 2}))};
  for (const auto& d : networks) {
    SCOPED_TRACE(d->name());
    std::uint32_t places = 0;
    for (std::uint32_t node = 0; node < d->nodes(); ++node) {
      const sw::NodeAttachment& a = d->attachment(node);
      ASSERT_LT(a.local, d->concentration(a.router));
      EXPECT_EQ(d->node_at(a.router, a.local), node);
    }
    for (std::uint32_t r = 0; r < d->routers(); ++r) {
      std::set<std::uint32_t> seen;
      for (std::uint32_t local = 0; local < d->concentration(r); ++local) {
        const std::uint32_t node = d->node_at(r, local);
        EXPECT_EQ(d->attachment(node).router, r);
        seen.insert(node);
        ++places;
      }
      EXPECT_EQ(seen.size(), d->concentration(r));
    }
    EXPECT_EQ(places, d->nodes());
  }
  // The second network by hand: router 0 holds nodes 1 and 4, router 1 node 3, router 2 nodes 0
  // and 2, in the order they were attached.
  const auto& line = networks[1];
  EXPECT_EQ(line->node_at(0, 0), 1U);
  EXPECT_EQ(line->node_at(0, 1), 4U);
  EXPECT_EQ(line->node_at(1, 0), 3U);
  EXPECT_EQ(line->node_at(2, 0), 0U);
  EXPECT_EQ(line->node_at(2, 1), 2U);
}

}  // namespace
}  // namespace orthosim
