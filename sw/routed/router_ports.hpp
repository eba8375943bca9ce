// The ports of every router as the routers and the network interfaces number them (docs/
// architecture.md, multicomputer side): input (output) ports 0..P-1 are the router's network
// ports (TopologyDescription::ports), then come the injection (ejection) channels of its nodes,
// node by node in the order they are attached: one per node, or one per network port when the
// nodes have all-port interfaces. Computed once from the description; the flat offsets let every
// table of the network be one vector indexed without a per-router port count.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "sw/routed/network_config.hpp"
#include "sw/topology/topology_description.hpp"

namespace orthosim::sw {

class RouterPorts {
 public:
  RouterPorts(std::shared_ptr<const TopologyDescription> description, NodePorts node_ports);

  [[nodiscard]] const TopologyDescription& description() const { return *description_; }
  /// Injection (and ejection) channels of each node attached to `router`.
  [[nodiscard]] std::uint32_t channels_per_node(std::uint32_t router) const {
    return all_port_ ? description_->ports(router) : 1;
  }
  /// Injection channels of `router` (as many ejection channels).
  [[nodiscard]] std::uint32_t injection_ports(std::uint32_t router) const {
    return description_->concentration(router) * channels_per_node(router);
  }
  /// Input ports of all routers before `router` (network ports and injection channels).
  [[nodiscard]] std::uint32_t input_offset(std::uint32_t router) const {
    return input_offset_[router];
  }
  [[nodiscard]] std::uint32_t total_inputs() const { return input_offset_.back(); }

  /// The interfaces' injection channels, numbered node by node: node n's channel c is injector
  /// injector_offset(n) + c.
  [[nodiscard]] std::uint32_t injector_offset(std::uint32_t node) const {
    return injector_offset_[node];
  }
  [[nodiscard]] std::uint32_t injectors() const { return injector_offset_.back(); }
  [[nodiscard]] std::uint32_t node_of_injector(std::uint32_t injector) const {
    return node_of_injector_[injector];
  }
  /// The injection channel of the router that injector `injector` feeds: its router-local input
  /// port minus the router's network ports.
  [[nodiscard]] std::uint32_t injection_port_of(std::uint32_t injector) const;
  /// The ejection channel by which a header for node `dest`, attached to this router, leaves
  /// `router` when it arrived by input port `in`: the node's only one, or under all-port
  /// interfaces the one that matches the network input port (the first for an injected header).
  [[nodiscard]] std::uint32_t ejection_port(std::uint32_t router, std::uint32_t dest,
                                            std::uint32_t in) const;

 private:
  std::shared_ptr<const TopologyDescription> description_;
  bool all_port_;
  std::vector<std::uint32_t> input_offset_;     ///< [router], one entry per router + 1
  std::vector<std::uint32_t> injector_offset_;  ///< [node], one entry per node + 1
  std::vector<std::uint32_t> node_of_injector_;
};

}  // namespace orthosim::sw
