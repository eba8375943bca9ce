// The general description of a network, the form the routers read (as SST Merlin and BookSim2
// take a topology): R routers, each with its own list of network ports, each output port leading
// to an input port of another router or to nothing, and N nodes, each attached to one router by
// its own injection and ejection port (concentration: several nodes per router). Meshes, tori and
// hypercubes describe themselves here (of()): router r is node r, the ports in Topology::ports()
// order under Topology::port_name(); any other network is hand-built with Builder (the command
// line builds none, docs/topology.md).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sw/topology/topology.hpp"

namespace orthosim::sw {

class RoutingFunction;
class VcPolicy;

/// The far end of a router's output port: input port `port` of router `router`.
struct PortLink {
  std::uint32_t router = 0;
  std::uint32_t port = 0;
};

/// Where a node attaches: it is node number `local` of router `router` (0 .. concentration - 1),
/// which numbers its injection and ejection ports.
struct NodeAttachment {
  std::uint32_t router = 0;
  std::uint32_t local = 0;
};

class TopologyDescription {
 public:
  class Builder;

  /// The description of a mesh, torus or hypercube, routed by its default routing
  /// (default_routing()) and its default virtual-channel policy (default_vc_policy()).
  [[nodiscard]] static std::shared_ptr<const TopologyDescription> of(const Topology& topology);
  /// The same, routed by `routing` (one of routing_names(topology)).
  [[nodiscard]] static std::shared_ptr<const TopologyDescription> of(
      const Topology& topology, const RoutingFunction& routing);

  /// "mesh 8x8" for a regular one, the name given to the Builder otherwise.
  [[nodiscard]] const std::string& name() const { return name_; }
  [[nodiscard]] std::uint32_t routers() const {
    return static_cast<std::uint32_t>(port_base_.size() - 1);
  }
  [[nodiscard]] std::uint32_t nodes() const {
    return static_cast<std::uint32_t>(attachments_.size());
  }
  /// Network ports of `router`: input port p and output port p exist for p < ports(router).
  [[nodiscard]] std::uint32_t ports(std::uint32_t router) const {
    return port_base_[router + 1] - port_base_[router];
  }
  /// Network ports of all routers before `router` (a flat index of the ports is
  /// port_offset(router) + port).
  [[nodiscard]] std::uint32_t port_offset(std::uint32_t router) const { return port_base_[router]; }
  /// Network ports of all routers.
  [[nodiscard]] std::uint32_t total_ports() const { return port_base_.back(); }
  /// Where output port `port` of `router` leads, none when it is not connected.
  [[nodiscard]] const std::optional<PortLink>& link(std::uint32_t router,
                                                    std::uint32_t port) const {
    return links_[port_base_[router] + port];
  }
  /// The output port whose channel feeds input port `port` of `router`, none when no channel does.
  [[nodiscard]] const std::optional<PortLink>& feeder(std::uint32_t router,
                                                      std::uint32_t port) const {
    return feeders_[port_base_[router] + port];
  }
  /// "x+", "d3" on the regular networks, "p0", "p1", ... on hand-built ones.
  [[nodiscard]] const std::string& port_name(std::uint32_t router, std::uint32_t port) const {
    return port_names_[name_table_[router]][port];
  }
  /// The router in channel names: "n5" where router r is node r (meshes, tori, hypercubes),
  /// "r5" otherwise.
  [[nodiscard]] std::string router_name(std::uint32_t router) const;
  /// The router as a block of waveforms and traces: "r(2,1)" by its coordinates on a mesh or
  /// torus, "r(1,0,1)" by its address bits on a hypercube, "r5" otherwise.
  [[nodiscard]] std::string router_label(std::uint32_t router) const;
  /// "n3.x+": router_name(router) "." port_name(router, port).
  [[nodiscard]] std::string channel_name(std::uint32_t router, std::uint32_t port) const;

  [[nodiscard]] const NodeAttachment& attachment(std::uint32_t node) const {
    return attachments_[node];
  }
  /// Nodes attached to `router`.
  [[nodiscard]] std::uint32_t concentration(std::uint32_t router) const {
    return node_base_[router + 1] - node_base_[router];
  }
  /// The node attached to `router` as its `local`-th.
  [[nodiscard]] std::uint32_t node_at(std::uint32_t router, std::uint32_t local) const {
    return nodes_by_router_[node_base_[router] + local];
  }

  /// The mesh, torus or hypercube this describes, none for a hand-built network. Routings and
  /// virtual-channel policies that need coordinates (dimension-order, e-cube, dateline) read it.
  [[nodiscard]] const std::optional<Topology>& regular() const { return regular_; }
  /// The routing the routers run: the regular network's default, or shortest-path routing from a
  /// table computed when the network was built.
  [[nodiscard]] const RoutingFunction& routing() const { return *routing_; }
  /// The virtual-channel policy that keeps routing() deadlock-free: the dateline on a torus, any
  /// virtual channel otherwise (a hand-built network must be free of cyclic channel dependencies
  /// under its routing, or be given deep enough buffers to drain; docs/topology.md).
  [[nodiscard]] const VcPolicy& vc_policy() const { return *vc_policy_; }

 private:
  TopologyDescription() = default;

  std::string name_;
  std::vector<std::uint32_t> port_base_{0};  ///< [router]: its first port; one entry per router + 1
  std::vector<std::optional<PortLink>> links_;    ///< [port_base + port]
  std::vector<std::optional<PortLink>> feeders_;  ///< [port_base + port]
  std::vector<std::vector<std::string>> port_names_;
  std::vector<std::uint32_t> name_table_;  ///< [router]: its entry in port_names_
  std::vector<NodeAttachment> attachments_;
  std::vector<std::uint32_t> node_base_{0};  ///< [router]: its first entry in nodes_by_router_
  std::vector<std::uint32_t> nodes_by_router_;
  std::optional<Topology> regular_;
  std::shared_ptr<const RoutingFunction> routing_;
  const VcPolicy* vc_policy_ = nullptr;
};

/// Builds a network by hand: routers with their port counts, one-way channels between ports, and
/// the nodes attached to the routers (nodes are numbered in the order they are attached).
class TopologyDescription::Builder {
 public:
  explicit Builder(std::string name);
  /// A router with `ports` network ports, named "p0", "p1", ...; returns its number.
  std::uint32_t add_router(std::uint32_t ports);
  /// A channel from output port `out_port` of `from` to input port `in_port` of `to`.
  Builder& connect(std::uint32_t from, std::uint32_t out_port, std::uint32_t to,
                   std::uint32_t in_port);
  /// Channels both ways between port `port_a` of `a` and port `port_b` of `b`.
  Builder& connect_both(std::uint32_t a, std::uint32_t port_a, std::uint32_t b,
                        std::uint32_t port_b);
  /// A node attached to `router`; returns its number.
  std::uint32_t attach_node(std::uint32_t router);
  /// The description, routed by shortest paths (a table computed by breadth-first search;
  /// make_shortest_path_routing()). Throws std::invalid_argument for a port or router that does
  /// not exist, an output or input port given two channels, fewer than two nodes, or a router
  /// from which some node cannot be reached.
  [[nodiscard]] std::shared_ptr<const TopologyDescription> build();

 private:
  std::string name_;
  std::vector<std::uint32_t> ports_;  ///< [router]
  struct Channel {
    std::uint32_t from, out_port, to, in_port;
  };
  std::vector<Channel> channels_;
  std::vector<std::uint32_t> node_router_;  ///< [node]
};

}  // namespace orthosim::sw
