// The numbering of router ports and injection channels.
#include "sw/routed/router_ports.hpp"

#include <utility>

namespace orthosim::sw {

RouterPorts::RouterPorts(std::shared_ptr<const TopologyDescription> description,
                         NodePorts node_ports)
    : description_(std::move(description)), all_port_(node_ports == NodePorts::All) {
  const TopologyDescription& d = *description_;
  input_offset_.reserve(std::size_t{d.routers()} + 1);
  input_offset_.push_back(0);
  for (std::uint32_t r = 0; r < d.routers(); ++r) {
    input_offset_.push_back(input_offset_.back() + d.ports(r) + injection_ports(r));
  }
  injector_offset_.reserve(std::size_t{d.nodes()} + 1);
  injector_offset_.push_back(0);
  for (std::uint32_t n = 0; n < d.nodes(); ++n) {
    const std::uint32_t channels = channels_per_node(d.attachment(n).router);
    injector_offset_.push_back(injector_offset_.back() + channels);
    node_of_injector_.insert(node_of_injector_.end(), channels, n);
  }
}

std::uint32_t RouterPorts::injection_port_of(std::uint32_t injector) const {
  const std::uint32_t node = node_of_injector_[injector];
  const NodeAttachment& a = description_->attachment(node);
  return a.local * channels_per_node(a.router) + (injector - injector_offset_[node]);
}

std::uint32_t RouterPorts::ejection_port(std::uint32_t router, std::uint32_t dest,
                                         std::uint32_t in) const {
  const std::uint32_t channels = channels_per_node(router);
  const std::uint32_t matching = channels == 1 || in >= description_->ports(router) ? 0 : in;
  return description_->attachment(dest).local * channels + matching;
}

}  // namespace orthosim::sw
