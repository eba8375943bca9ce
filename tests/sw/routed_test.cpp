// sw/routed without the kernel: a message's packets and flits, the zero-load times of
// docs/networks.md ("Timing"), the validation's bounds, and the numbering of router ports and
// injection channels. Oracles: packets cut word by word in the test, the closed forms of
// docs/networks.md written here, and the port numbering of router_ports.hpp counted router by
// router from the description.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sw/core/diagnostic.hpp"
#include "sw/routed/network_config.hpp"
#include "sw/routed/router_ports.hpp"
#include "sw/topology/topology.hpp"
#include "sw/topology/topology_description.hpp"

namespace orthosim {
namespace {

using sw::NetworkConfig;
using sw::Topology;

// Packets cut by hand: each takes up to packet_flits - 1 words behind its header; a message of no
// words is one header; packet_flits 0 puts the whole message in one packet.
TEST(NetworkConfig, AMessageIsCutIntoPacketsOfAHeaderAndPacketFlitsLessOneWords) {
  for (const std::uint32_t packet_flits : {0U, 2U, 3U, 5U}) {
    NetworkConfig c;
    c.ni.packet_flits = packet_flits;
    for (std::uint64_t words = 0; words <= 20; ++words) {
      std::uint64_t packets = 0;
      std::uint64_t left = words;
      do {
        const std::uint64_t take =
            packet_flits == 0 ? left : std::min<std::uint64_t>(left, packet_flits - 1);
        left -= take;
        ++packets;
      } while (left > 0);
      EXPECT_EQ(c.message_packets(words), packets) << packet_flits << " " << words;
      EXPECT_EQ(c.message_flits(words), words + packets) << packet_flits << " " << words;
    }
  }
}

// docs/networks.md, "Timing": F = words + 1 flits over h links, with nothing else in the network,
// arrive after t_s + (h + 1) delay + F cycles (wormhole) or t_s + F + (h + 1)(delay + F - 1)
// (store-and-forward); a message of several packets has no such time.
TEST(NetworkConfig, ALoneMessageTakesTheZeroLoadTimeOfItsSwitching) {
  for (const sw::Switching switching : {sw::Switching::Wormhole, sw::Switching::StoreAndForward}) {
    for (const std::uint64_t startup : {0U, 7U}) {
      for (const std::uint32_t delay : {1U, 3U}) {
        NetworkConfig c;
        c.router.switching = switching;
        c.router.delay = delay;
        c.ni.startup = startup;
        for (std::uint32_t h = 0; h <= 4; ++h) {
          for (std::uint64_t words = 0; words <= 6; ++words) {
            const std::uint64_t f = words + 1;
            const std::uint64_t routers = h + 1;
            const std::uint64_t expect = switching == sw::Switching::Wormhole
                                             ? startup + routers * delay + f
                                             : startup + f + routers * (delay + f - 1);
            EXPECT_EQ(c.lone_message_cycles(h, words), std::optional<std::uint64_t>(expect))
                << sw::to_string(switching) << " t_s " << startup << " delay " << delay << " h "
                << h << " words " << words;
          }
        }
      }
    }
  }
  // Packets of 4 flits: 3 words fit behind one header, 4 do not.
  NetworkConfig c;
  c.ni.packet_flits = 4;
  EXPECT_EQ(c.lone_message_cycles(2, 3), std::optional<std::uint64_t>(0 + 3 * 1 + 4));
  EXPECT_EQ(c.lone_message_cycles(2, 4), std::nullopt);
}

/// The parameter a configuration's validation names, "" when it passes.
std::string refused(const std::function<void(NetworkConfig&)>& change) {
  NetworkConfig c;
  change(c);
  try {
    (void)c.validated();
  } catch (const sw::ParameterError& e) {
    return e.parameter();
  }
  return "";
}

// Each bound at its edge: the last value allowed passes, the first beyond is refused by name.
TEST(NetworkConfig, ValidationRefusesTheFirstValueBeyondEachBoundByName) {
  EXPECT_EQ(refused([](NetworkConfig&) {}), "");
  EXPECT_EQ(refused([](NetworkConfig& c) { c.router.buffer_flits = 0; }), "buffers");
  EXPECT_EQ(refused([](NetworkConfig& c) { c.router.buffer_flits = 1024; }), "");
  EXPECT_EQ(refused([](NetworkConfig& c) { c.router.buffer_flits = 1025; }), "buffers");
  EXPECT_EQ(refused([](NetworkConfig& c) { c.router.vcs = 0; }), "vcs");
  EXPECT_EQ(refused([](NetworkConfig& c) { c.router.vcs = 16; }), "");
  EXPECT_EQ(refused([](NetworkConfig& c) { c.router.vcs = 17; }), "vcs");
  EXPECT_EQ(refused([](NetworkConfig& c) { c.router.delay = 0; }), "router-delay");
  EXPECT_EQ(refused([](NetworkConfig& c) { c.router.delay = 1000; }), "");
  EXPECT_EQ(refused([](NetworkConfig& c) { c.router.delay = 1001; }), "router-delay");
  EXPECT_EQ(refused([](NetworkConfig& c) { c.ni.packet_flits = 1; }), "packet-flits");
  EXPECT_EQ(refused([](NetworkConfig& c) { c.ni.packet_flits = 2; }), "");
  EXPECT_EQ(refused([](NetworkConfig& c) { c.clock_period_ns = 0; }), "clock-ns");
  EXPECT_EQ(refused([](NetworkConfig& c) { c.clock_period_ns = 1; }), "");
  EXPECT_EQ(refused([](NetworkConfig& c) { c.watchdog_cycles = 0; }), "watchdog");
  EXPECT_EQ(refused([](NetworkConfig& c) { c.watchdog_cycles = 1; }), "");
  // The dateline's two classes on a torus need an even count; without the dateline any will do,
  // and a mesh needs no second class.
  const auto torus = [](std::uint32_t vcs, bool dateline) {
    return [=](NetworkConfig& c) {
      c.topology = Topology::torus({4, 4});
      c.router.vcs = vcs;
      c.router.dateline = dateline;
    };
  };
  EXPECT_EQ(refused(torus(3, true)), "vcs");
  EXPECT_EQ(refused(torus(2, true)), "");
  EXPECT_EQ(refused(torus(3, false)), "");
  EXPECT_EQ(refused([](NetworkConfig& c) { c.router.vcs = 3; }), "");
  // A routing of the topology's own: e-cube or p-cube on a hypercube, dimension-order elsewhere;
  // only the first runs on the verilated routers.
  const auto routed = [](Topology t, std::string routing, sw::Impl router) {
    return [=](NetworkConfig& c) {
      c.topology = t;
      c.routing = routing;
      c.impl.router = router;
    };
  };
  const Topology cube = Topology::hypercube(3);
  EXPECT_EQ(refused(routed(cube, "e-cube", sw::Impl::Model)), "");
  EXPECT_EQ(refused(routed(cube, "p-cube", sw::Impl::Model)), "");
  EXPECT_EQ(refused(routed(cube, "p-cube", sw::Impl::Rtl)), "routing");
  EXPECT_EQ(refused(routed(cube, "e-cube", sw::Impl::Rtl)), "");
  EXPECT_EQ(refused(routed(cube, "dimension-order", sw::Impl::Model)), "routing");
  EXPECT_EQ(refused(routed(Topology::mesh({4, 4}), "e-cube", sw::Impl::Model)), "routing");
  EXPECT_EQ(refused(routed(Topology::mesh({4, 4}), "dimension-order", sw::Impl::Model)), "");
}

/// A line of three routers: router 0 with one network port and nodes 1 and 3, router 1 with two
/// ports and nodes 0 and 5 (so all-port gives its second node channels 2 and 3), router 2 with
/// one port and nodes 2 and 4 (attached out of router order).
std::shared_ptr<const sw::TopologyDescription> line_of_three() {
  sw::TopologyDescription::Builder b("line of 3");
  b.add_router(1);
  b.add_router(2);
  b.add_router(1);
  b.connect_both(0, 0, 1, 0).connect_both(1, 1, 2, 0);
  for (const std::uint32_t r : {1U, 0U, 2U, 0U, 2U, 1U}) {
    b.attach_node(r);
  }
  return b.build();
}

// router_ports.hpp's numbering counted here: a router's inputs are its network ports then, node
// by node in attachment order, one injection channel per node (one-port) or one per network port
// (all-port); injectors are numbered node by node; a header ejects by its node's only channel,
// or (all-port) by the one of its network input port, the first when it was injected there.
TEST(RouterPorts, InputsRouterByRouterInjectorsNodeByNodeEjectionByTheInputPort) {
  const std::vector<std::shared_ptr<const sw::TopologyDescription>> networks = {
      line_of_three(), sw::TopologyDescription::of(Topology::mesh({3, 2}))};
  for (const auto& d : networks) {
    for (const sw::NodePorts node_ports : {sw::NodePorts::One, sw::NodePorts::All}) {
      SCOPED_TRACE(d->name() + " " + sw::to_string(node_ports));
      const bool all = node_ports == sw::NodePorts::All;
      const sw::RouterPorts ports(d, node_ports);
      std::uint32_t inputs = 0;
      for (std::uint32_t r = 0; r < d->routers(); ++r) {
        const std::uint32_t per_node = all ? d->ports(r) : 1;
        EXPECT_EQ(ports.channels_per_node(r), per_node);
        EXPECT_EQ(ports.injection_ports(r), d->concentration(r) * per_node);
        EXPECT_EQ(ports.input_offset(r), inputs);
        inputs += d->ports(r) + d->concentration(r) * per_node;
      }
      EXPECT_EQ(ports.total_inputs(), inputs);
      std::uint32_t injector = 0;
      for (std::uint32_t node = 0; node < d->nodes(); ++node) {
        const sw::NodeAttachment& a = d->attachment(node);
        const std::uint32_t per_node = all ? d->ports(a.router) : 1;
        EXPECT_EQ(ports.injector_offset(node), injector);
        for (std::uint32_t c = 0; c < per_node; ++c, ++injector) {
          EXPECT_EQ(ports.node_of_injector(injector), node);
          EXPECT_EQ(ports.injection_port_of(injector), a.local * per_node + c);
        }
        // Arrived by each network input port, then injected at the router (input port P + j).
        for (std::uint32_t in = 0; in < d->ports(a.router) + 2; ++in) {
          const std::uint32_t matching = all && in < d->ports(a.router) ? in : 0;
          EXPECT_EQ(ports.ejection_port(a.router, node, in), a.local * per_node + matching)
              << "node " << node << " in " << in;
        }
      }
      EXPECT_EQ(ports.injectors(), injector);
    }
  }
}

}  // namespace
}  // namespace orthosim
