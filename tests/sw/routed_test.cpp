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
#include <utility>
#include <variant>
#include <vector>

#include "sw/core/diagnostic.hpp"
#include "sw/routed/network_config.hpp"
#include "sw/routed/routed_program.hpp"
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

// ---- routed programs (sw/routed/routed_program.hpp) -------------------------------------

// Three program nodes on four network nodes, program node p on network node place[p] = 2, 0, 3.
// Step 0: node 1 computes 5 cycles; node 0 sends 3 words to 1 and to 2 (personalized: a buffer
// per message at the sender); node 2 broadcasts 2 words to 0 and 1 (one buffer at the sender).
// Counted by hand, words of local memory per network node: 2 (program 0) sends 3 + 3 and receives
// 2: 8; 3 (program 2) sends 2 once and receives 3: 5; 0 (program 1) receives 3 + 2: 5; 1: 0.
/// The message of a configuration's refusal, "" when it passes.
std::string refusal(const std::function<void(NetworkConfig&)>& change) {
  NetworkConfig c;
  change(c);
  try {
    (void)c.validated();
  } catch (const sw::ParameterError& e) {
    return e.what();
  }
  return "";
}

// A routing is named for the topology's own routings only (a hand-built network routes as its
// description says), and runs on any but the model routers only when it is the first; the
// verilated interfaces (rtl or cosim) need verilated routers. A refusal lists the routings of the
// topology: one for a mesh, two for a hypercube.
TEST(NetworkConfig, TheRoutingAndTheInterfacesAreCheckedAgainstTheRoutersThatRunThem) {
  const Topology cube = Topology::hypercube(3);
  const auto routed = [](Topology t, std::string routing, sw::Impl router) {
    return [=](NetworkConfig& c) {
      c.topology = t;
      c.routing = routing;
      c.impl.router = router;
    };
  };
  EXPECT_EQ(refused(routed(cube, "p-cube", sw::Impl::Cosim)), "routing");
  EXPECT_EQ(refused(routed(cube, "e-cube", sw::Impl::Cosim)), "");
  EXPECT_EQ(refused([](NetworkConfig& c) { c.hand_built = line_of_three(); }), "");
  EXPECT_EQ(refused([](NetworkConfig& c) {
              c.hand_built = line_of_three();
              c.routing = "dimension-order";
            }),
            "routing");
  const auto implemented = [](sw::Impl interfaces, sw::Impl routers) {
    return [=](NetworkConfig& c) {
      c.impl.network_interface = interfaces;
      c.impl.router = routers;
    };
  };
  for (sw::Impl interfaces : {sw::Impl::Rtl, sw::Impl::Cosim}) {
    EXPECT_EQ(refused(implemented(interfaces, sw::Impl::Model)), "impl");
    EXPECT_EQ(refused(implemented(interfaces, sw::Impl::Rtl)), "");
    EXPECT_EQ(refused(implemented(interfaces, sw::Impl::Cosim)), "");
  }
  EXPECT_EQ(refused(implemented(sw::Impl::Model, sw::Impl::Rtl)), "");
  const std::string mesh = refusal(routed(Topology::mesh({4, 4}), "e-cube", sw::Impl::Model));
  EXPECT_NE(mesh.find("(dimension-order)"), std::string::npos) << mesh;
  const std::string hypercube = refusal(routed(cube, "dimension-order", sw::Impl::Model));
  EXPECT_NE(hypercube.find("(e-cube or p-cube)"), std::string::npos) << hypercube;
}

TEST(RoutedProgram, AStepBecomesEachNetworkNodesComputeSendsReceivesAndBuffers) {
  sw::McProgram program;
  program.name = "hand";
  program.nodes = 3;
  sw::ProgramStep step;
  step.computes.push_back({1, sw::Cycle{5}, {}});
  step.transfers.push_back({0, {1, 2}, false, 3, {}});
  step.transfers.push_back({2, {0, 1}, true, 2, {}});
  program.steps.push_back(step);
  const std::vector<std::uint32_t> place = {2, 0, 3};
  const sw::RoutedProgram r = sw::route_program(program, 4, place);

  // The manifest in statement order, between network nodes; the broadcast's payload is one.
  const std::vector<std::pair<std::uint32_t, std::uint32_t>> ends = {{2, 0},
                                                                     {2, 3},
                                                                     {3, 2},
                                                                     {3, 0}};
  ASSERT_EQ(r.manifest.messages.size(), ends.size());
  for (std::size_t i = 0; i < ends.size(); ++i) {
    const sw::Message& m = r.manifest.messages[i];
    EXPECT_EQ(m.id, i);
    EXPECT_EQ(std::make_pair(m.source, m.destination), ends[i]) << i;
    const bool broadcast = i >= 2;
    EXPECT_EQ(m.words, broadcast ? 2U : 3U) << i;
    EXPECT_EQ(m.payload.destination == sw::PayloadKey::kBroadcast, broadcast) << i;
  }
  // No two buffers of a node overlap but the broadcast's one payload, read by both its messages.
  const auto expect_apart = [](const std::vector<std::pair<std::uint32_t, std::uint32_t>>& at) {
    for (std::size_t a = 0; a < at.size(); ++a) {
      for (std::size_t b = a + 1; b < at.size(); ++b) {
        EXPECT_TRUE(at[a].second <= at[b].first || at[b].second <= at[a].first)
            << "[" << at[a].first << ", " << at[a].second << ") and [" << at[b].first << ", "
            << at[b].second << ")";
      }
    }
  };
  const std::vector<sw::Message>& msgs = r.manifest.messages;
  EXPECT_EQ(msgs[2].src_address, msgs[3].src_address);
  const auto range = [](std::uint32_t at, std::uint32_t words) {
    return std::make_pair(at, at + words);
  };
  // Network node 2: two sends and the broadcast received; 3: the broadcast's payload and a
  // receive; 0: two receives.
  expect_apart({range(msgs[0].src_address, 3), range(msgs[1].src_address, 3),
                range(msgs[2].dst_address, 2)});
  expect_apart({range(msgs[2].src_address, 2), range(msgs[1].dst_address, 3)});
  expect_apart({range(msgs[0].dst_address, 3), range(msgs[3].dst_address, 2)});
  EXPECT_EQ(r.local_words, 8U);
  for (const sw::Message& m : msgs) {
    EXPECT_LE(m.src_address + m.words, m.source == 2 ? 8U : 5U);
    EXPECT_LE(m.dst_address + m.words, m.destination == 2 ? 8U : 5U);
  }

  // Per network node: its compute, its sends, its receives, the step's end.
  const auto ops_of = [&r](std::uint32_t node) {
    std::vector<std::string> out;
    for (const sw::routed::Op& op : r.ops[node]) {
      if (const auto* c = std::get_if<sw::routed::Compute>(&op)) {
        out.push_back("compute " + std::to_string(c->cycles.count()));
      } else if (const auto* s = std::get_if<sw::routed::Send>(&op)) {
        out.push_back("send " + std::to_string(s->message));
      } else if (const auto* v = std::get_if<sw::routed::Receive>(&op)) {
        out.push_back("receive " + std::to_string(v->message));
      } else {
        out.push_back("end " + std::to_string(std::get<sw::routed::StepEnd>(op).step));
      }
    }
    return out;
  };
  using Ops = std::vector<std::string>;
  EXPECT_EQ(ops_of(0), (Ops{"compute 5", "receive 0", "receive 3", "end 0"}));
  EXPECT_EQ(ops_of(1), (Ops{"end 0"}));
  EXPECT_EQ(ops_of(2), (Ops{"send 0", "send 1", "receive 2", "end 0"}));
  EXPECT_EQ(ops_of(3), (Ops{"send 2", "send 3", "receive 1", "end 0"}));
}

TEST(RoutedProgram, RefusesAProgramLargerThanTheNetworkAndAMapOfAnotherSize) {
  sw::McProgram program;
  program.nodes = 5;
  program.steps.resize(1);
  EXPECT_THROW((void)sw::route_program(program, 4, sw::identity_embedding(5)), sw::ParameterError);
  program.nodes = 3;
  EXPECT_THROW((void)sw::route_program(program, 4, sw::identity_embedding(4)), sw::ParameterError);
  EXPECT_THROW((void)sw::route_program(program, 4, sw::identity_embedding(2)), sw::ParameterError);
  EXPECT_NO_THROW((void)sw::route_program(program, 4, {3, 1, 0}));
}

// A node map: '#' ends a number as white space does, and a node given twice is refused where it
// comes again, naming where it came first (line 1, column 3).
TEST(RoutedProgram, ANodeMapEndsANumberAtACommentAndNamesWhereANodeCameFirst) {
  EXPECT_EQ(sw::parse_embedding("3 1#first two\n0", "map.txt", 3, 4),
            (std::vector<std::uint32_t>{3, 1, 0}));
  try {
    (void)sw::parse_embedding("0 2\n 2", "map.txt", 3, 4);
    ADD_FAILURE() << "a node given twice was accepted";
  } catch (const sw::InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "map.txt:2:2: expected a network node not used yet, found 2, already given at 1:3");
  }
}

}  // namespace
}  // namespace orthosim
