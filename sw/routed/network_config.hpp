// The parameters of one multicomputer network: topology, routers, network interfaces (docs/architecture.md,
// multicomputer side; [LCC] section 6, [CALMANT] section 2.1). Built once from the command line and
// a variant file, validated once into a Validated<NetworkConfig> (the only form the network takes),
// passed by value to the SystemC system (modeling rule 7).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "sw/arch/implementation.hpp"
#include "sw/core/validated.hpp"
#include "sw/topology/routing.hpp"
#include "sw/topology/topology.hpp"
#include "sw/topology/topology_description.hpp"

namespace orthosim::sw {

enum class Switching : std::uint8_t {
  Wormhole,        ///< a header moves on as soon as it has a channel; the flits follow in a worm
  StoreAndForward  ///< a router forwards a packet only once all its flits are in its buffer
};
/// One-port: a node injects one message and receives one message at a time ([CALMANT], [A2A]).
/// All-port: one injection channel per output link and one ejection channel per input link.
enum class NodePorts : std::uint8_t { One, All };

[[nodiscard]] std::string to_string(Switching s);
[[nodiscard]] std::string to_string(NodePorts p);

struct RouterParams {
  std::uint32_t buffer_flits = 1;  ///< input buffer depth per virtual channel ([LCC]: 1 flit)
  std::uint32_t vcs = 1;           ///< virtual channels per link; tori need 2 for the dateline
  std::uint32_t delay = 1;         ///< cycles from a header's arrival to its departure, >= 1
  Switching switching = Switching::Wormhole;
  /// Tori split their virtual channels in two classes at the dateline. Off only in tests that
  /// show the deadlock it prevents.
  bool dateline = true;
};

struct InterfaceParams {
  NodePorts ports = NodePorts::One;
  std::uint64_t startup = 0;  ///< t_s: cycles at the sender before a message's first flit
  /// Largest packet in flits, header included; 0: every message is one packet.
  std::uint32_t packet_flits = 0;
};

struct NetworkConfig {
  Topology topology = Topology::mesh({4, 4});
  /// A hand-built network (irregular, or several nodes per router) that the routers run instead
  /// of `topology`'s; the command line builds none (docs/topology.md).
  std::shared_ptr<const TopologyDescription> hand_built;
  RouterParams router;
  InterfaceParams ni;
  std::uint32_t clock_period_ns = 50;
  /// The routing of a mesh, torus or hypercube, one of routing_names(topology) ("p-cube" on a
  /// hypercube: --routing); empty: the topology's default.
  std::string routing;
  Implementations impl;  ///< model, rtl or cosim for the routers (--impl)
  /// A network whose flits have not moved for this many cycles is deadlocked; the run stops and
  /// reports the cycle of waiting channels.
  std::uint64_t watchdog_cycles = 10'000;

  /// This configuration, checked; throws ParameterError keyed by the parameter (the option and
  /// variant field of the same name, "vcs", "packet-flits") when a value is out of range (a torus
  /// with the dateline needs an even number of virtual channels, at least 2).
  [[nodiscard]] Validated<NetworkConfig> validated() const;
  /// Flits of a message of `words` words: one word per flit plus one header per packet.
  [[nodiscard]] std::uint64_t message_flits(std::uint64_t words) const;
  /// Packets of a message of `words` words.
  [[nodiscard]] std::uint64_t message_packets(std::uint64_t words) const;
  /// The cycles from the send of a one-packet message of `words` words over `hops` links to its
  /// arrival, with nothing else in the network (docs/networks.md, "Timing"; F = words + 1 flits):
  /// wormhole t_s + (h + 1) delay + F, store-and-forward t_s + F + (h + 1)(delay + F - 1). None
  /// when the message takes several packets.
  [[nodiscard]] std::optional<std::uint64_t> lone_message_cycles(std::uint32_t hops,
                                                                 std::uint64_t words) const;
  /// The network the routers read: hand_built, or the description of `topology` (built anew on
  /// every call: the network's owner keeps the one it builds).
  [[nodiscard]] std::shared_ptr<const TopologyDescription> description() const {
    return hand_built ? hand_built : TopologyDescription::of(topology, routing_function());
  }
  /// The routing the routers run: the hand-built network's, `routing`, or the topology's default.
  [[nodiscard]] const RoutingFunction& routing_function() const {
    if (hand_built) {
      return hand_built->routing();
    }
    return routing.empty() ? default_routing(topology) : sw::routing_function(routing);
  }
  /// Nodes of the network.
  [[nodiscard]] std::uint32_t nodes() const {
    return hand_built ? hand_built->nodes() : topology.nodes();
  }
  /// The routers' virtual-channel policy: the description's default, or any virtual channel when
  /// router.dateline is off.
  [[nodiscard]] const VcPolicy& vc_policy() const {
    if (!router.dateline) {
      return sw::vc_policy("any");
    }
    return hand_built ? hand_built->vc_policy() : default_vc_policy(topology);
  }
};

/// Default virtual channels for a topology, its virtual-channel policy's: 2 on a torus
/// (dateline), 1 otherwise.
[[nodiscard]] std::uint32_t default_vcs(const Topology& topology);

}  // namespace orthosim::sw
