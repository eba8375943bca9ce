// The general description: the regular networks' and the hand-built ones'.
#include "sw/topology/topology_description.hpp"

#include <algorithm>
#include <stdexcept>

#include "sw/topology/routing.hpp"

namespace orthosim::sw {

namespace {
/// A plug-in that lives for the whole program, held without ownership.
template <typename T>
std::shared_ptr<const T> unowned(const T& plugin) {
  return std::shared_ptr<const T>(std::shared_ptr<const T>{}, &plugin);
}
}  // namespace

std::shared_ptr<const TopologyDescription> TopologyDescription::of(const Topology& topology) {
  return of(topology, default_routing(topology));
}

std::shared_ptr<const TopologyDescription> TopologyDescription::of(const Topology& topology,
                                                                   const RoutingFunction& routing) {
  std::shared_ptr<TopologyDescription> d(new TopologyDescription());
  d->name_ = topology.to_string();
  const std::vector<Port> ports = topology.ports();
  const auto port_count = static_cast<std::uint32_t>(ports.size());
  std::vector<std::string> names;
  for (const Port p : ports) {
    names.push_back(topology.port_name(p));
  }
  d->port_names_.push_back(std::move(names));
  const std::uint32_t n = topology.nodes();
  d->port_base_.reserve(std::size_t{n} + 1);
  d->links_.assign(std::size_t{n} * port_count, std::nullopt);
  d->feeders_.assign(std::size_t{n} * port_count, std::nullopt);
  d->name_table_.assign(n, 0);
  for (std::uint32_t r = 0; r < n; ++r) {
    d->port_base_.push_back((r + 1) * port_count);
    // Router r is node r; output port q feeds input port q of the neighbour.
    for (std::uint32_t q = 0; q < port_count; ++q) {
      if (const std::optional<std::uint32_t> next = topology.neighbor(r, ports[q])) {
        d->links_[std::size_t{r} * port_count + q] = PortLink{*next, q};
        d->feeders_[std::size_t{*next} * port_count + q] = PortLink{r, q};
      }
    }
    d->attachments_.push_back({r, 0});
    d->node_base_.push_back(r + 1);
    d->nodes_by_router_.push_back(r);
  }
  d->regular_ = topology;
  d->routing_ = unowned(routing);
  d->vc_policy_ = &default_vc_policy(topology);
  return d;
}

std::string TopologyDescription::router_name(std::uint32_t router) const {
  return (regular_ ? "n" : "r") + std::to_string(router);
}

std::string TopologyDescription::router_label(std::uint32_t router) const {
  if (!regular_) {
    return "r" + std::to_string(router);
  }
  std::string label = "r(";
  const std::vector<std::uint32_t> coords = regular_->coordinates(router);
  for (std::size_t i = 0; i < coords.size(); ++i) {
    label += (i > 0 ? "," : "") + std::to_string(coords[i]);
  }
  return label + ")";
}

std::string TopologyDescription::channel_name(std::uint32_t router, std::uint32_t port) const {
  return router_name(router) + "." + port_name(router, port);
}

// ---- Builder ------------------------------------------------------------------------------

TopologyDescription::Builder::Builder(std::string name) : name_(std::move(name)) {}

std::uint32_t TopologyDescription::Builder::add_router(std::uint32_t ports) {
  ports_.push_back(ports);
  return static_cast<std::uint32_t>(ports_.size() - 1);
}

TopologyDescription::Builder& TopologyDescription::Builder::connect(std::uint32_t from,
                                                                    std::uint32_t out_port,
                                                                    std::uint32_t to,
                                                                    std::uint32_t in_port) {
  channels_.push_back({from, out_port, to, in_port});
  return *this;
}

TopologyDescription::Builder& TopologyDescription::Builder::connect_both(std::uint32_t a,
                                                                         std::uint32_t port_a,
                                                                         std::uint32_t b,
                                                                         std::uint32_t port_b) {
  return connect(a, port_a, b, port_b).connect(b, port_b, a, port_a);
}

std::uint32_t TopologyDescription::Builder::attach_node(std::uint32_t router) {
  node_router_.push_back(router);
  return static_cast<std::uint32_t>(node_router_.size() - 1);
}

std::shared_ptr<const TopologyDescription> TopologyDescription::Builder::build() {
  const auto fail = [this](const std::string& what) {
    throw std::invalid_argument("network '" + name_ + "': " + what);
  };
  const auto routers = static_cast<std::uint32_t>(ports_.size());
  const auto check_port = [&](std::uint32_t router, std::uint32_t port) {
    if (router >= routers || port >= ports_[router]) {
      fail("no port " + std::to_string(port) + " on router " + std::to_string(router));
    }
  };
  std::shared_ptr<TopologyDescription> d(new TopologyDescription());
  d->name_ = name_;
  std::uint32_t largest = 0;
  for (const std::uint32_t p : ports_) {
    d->port_base_.push_back(d->port_base_.back() + p);
    largest = std::max(largest, p);
  }
  std::vector<std::string> names;
  for (std::uint32_t p = 0; p < largest; ++p) {
    names.push_back("p" + std::to_string(p));
  }
  d->port_names_.push_back(std::move(names));
  d->name_table_.assign(routers, 0);
  d->links_.assign(d->port_base_.back(), std::nullopt);
  d->feeders_.assign(d->port_base_.back(), std::nullopt);
  for (const Channel& c : channels_) {
    check_port(c.from, c.out_port);
    check_port(c.to, c.in_port);
    if (c.from == c.to) {
      fail("a channel from router " + std::to_string(c.from) + " to itself");
    }
    std::optional<PortLink>& link = d->links_[d->port_base_[c.from] + c.out_port];
    std::optional<PortLink>& feeder = d->feeders_[d->port_base_[c.to] + c.in_port];
    if (link) {
      fail("two channels from output port " + std::to_string(c.out_port) + " of router " +
           std::to_string(c.from));
    }
    if (feeder) {
      fail("two channels into input port " + std::to_string(c.in_port) + " of router " +
           std::to_string(c.to));
    }
    link = PortLink{c.to, c.in_port};
    feeder = PortLink{c.from, c.out_port};
  }
  if (node_router_.size() < 2) {
    fail("a network needs at least two nodes");
  }
  std::vector<std::uint32_t> local(routers, 0);
  for (const std::uint32_t r : node_router_) {
    if (r >= routers) {
      fail("a node attached to router " + std::to_string(r) + ", which does not exist");
    }
    d->attachments_.push_back({r, local[r]++});
  }
  for (std::uint32_t r = 0; r < routers; ++r) {
    d->node_base_.push_back(d->node_base_.back() + local[r]);
  }
  d->nodes_by_router_.resize(node_router_.size());
  for (std::uint32_t node = 0; node < node_router_.size(); ++node) {
    const NodeAttachment& a = d->attachments_[node];
    d->nodes_by_router_[d->node_base_[a.router] + a.local] = node;
  }
  d->routing_ = make_shortest_path_routing(*d);
  d->vc_policy_ = &sw::vc_policy("any");
  return d;
}

}  // namespace orthosim::sw
