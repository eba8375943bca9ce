// The routes of a deterministic routing, one per (router, destination node).
#include "sw/topology/route_table.hpp"

#include <stdexcept>
#include <string>

namespace orthosim::sw {

std::optional<RouteTable> RouteTable::of(const TopologyDescription& d, std::size_t max_entries) {
  if (!d.routing().deterministic() || std::size_t{d.routers()} * d.nodes() > max_entries) {
    return std::nullopt;
  }
  for (std::uint32_t r = 0; r < d.routers(); ++r) {
    if (d.ports(r) >= unknown) {
      return std::nullopt;
    }
  }
  return RouteTable(d);
}

RouteTable::RouteTable(const TopologyDescription& d)
    : description_(&d), nodes_(d.nodes()), ports_(std::size_t{d.routers()} * d.nodes(), unknown) {}

std::uint8_t RouteTable::ask(std::uint32_t router, std::uint32_t dest) {
  // A deterministic routing gives one port, whatever the input port (none: injected here), and
  // none where the destination is attached.
  description_->routing().route(*description_, router, std::nullopt, dest, candidates_);
  if (candidates_.empty()) {
    return eject;
  }
  if (candidates_.front() >= description_->ports(router)) {
    throw std::logic_error("route table: no route from router " + std::to_string(router) +
                           " to node " + std::to_string(dest));
  }
  return static_cast<std::uint8_t>(candidates_.front());
}

}  // namespace orthosim::sw
