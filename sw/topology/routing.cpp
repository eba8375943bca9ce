// The deterministic routings of [LCC] section 2.3, the partially adaptive P-cube, shortest-path
// routing from a table, and the virtual-channel policies.
#include "sw/topology/routing.hpp"

#include <algorithm>
#include <deque>
#include <limits>
#include <stdexcept>

namespace orthosim::sw {

namespace {

/// The lowest dimension in which the coordinates differ is corrected first ([CALMANT] section
/// 2.1). On a torus the shorter way round the ring is taken; when both ways are equally long
/// (exactly half a ring, even k) `tie` decides: the routers take the positive direction, the
/// embedding metrics the mesh path (no wrap-around channel). Either rule is the same for every
/// message, which is what [XOR] Table I needs (half-ring links must all be routed the same way,
/// docs/references.md).
std::optional<Port> dimension_order_port(const Topology& t, std::uint32_t at, std::uint32_t dest,
                                         HalfRingTie tie) {
  for (std::uint32_t i = 0; i < t.dimensions(); ++i) {
    const std::uint32_t a = t.coordinate(at, i);
    const std::uint32_t b = t.coordinate(dest, i);
    if (a == b) {
      continue;
    }
    if (t.kind() != TopologyKind::Torus) {
      return Port{i, b > a};
    }
    const std::uint32_t k = t.radices()[i];
    const std::uint32_t forward = (b + k - a) % k;
    if (forward == k - forward && tie == HalfRingTie::MeshPath) {
      return Port{i, b > a};
    }
    return Port{i, forward <= k - forward};
  }
  return std::nullopt;
}

/// The routers' dimension-order routing: the positive way round at exactly half a ring.
std::optional<Port> routers_dimension_order_port(const Topology& t, std::uint32_t at,
                                                 std::uint32_t dest) {
  return dimension_order_port(t, at, dest, HalfRingTie::Positive);
}

/// The lowest differing address bit first: channels are reserved in strictly increasing order of
/// dimension ([LCC] section 2.3).
std::optional<Port> e_cube_port(const Topology& t, std::uint32_t at, std::uint32_t dest) {
  const std::uint32_t diff = at ^ dest;
  for (std::uint32_t i = 0; i < t.dimensions(); ++i) {
    if ((diff >> i) & 1U) {
      return Port{i, true};
    }
  }
  return std::nullopt;
}

/// A routing of the regular networks (the description of a mesh, torus or hypercube, where router
/// r is node r): `port_of` gives the kind-specific choice, mapped to its index in
/// Topology::ports().
template <std::optional<Port> (*port_of)(const Topology&, std::uint32_t, std::uint32_t)>
class RegularRouting final : public RoutingFunction {
 public:
  explicit RegularRouting(const char* name) : name_(name) {}
  [[nodiscard]] std::string name() const override { return name_; }
  [[nodiscard]] bool deterministic() const override { return true; }
  void route(const TopologyDescription& d, std::uint32_t router, std::optional<std::uint32_t>,
             std::uint32_t dest, PortCandidates& out) const override {
    out.clear();
    const Topology& t = *d.regular();
    if (const std::optional<Port> p = port_of(t, router, dest)) {
      out.push_back(t.port_index(*p));
    }
  }

 private:
  std::string name_;
};

/// P-cube, Glass and Ni's partially adaptive routing of the hypercube ([LCC] sections 2.3 and 6.1):
/// at router x toward d, phase 1 corrects the dimensions where x's bit is 1 and d's is 0, in any
/// order, then phase 2 those where x's bit is 0 and d's is 1, in any order; the candidates are the
/// dimensions of the current phase, lowest first (the router takes the lowest one that is free).
/// Deadlock-free with one virtual channel: a phase-1 hop clears a bit, so it goes to a lower node
/// number, and a phase-2 hop sets one, so it goes to a higher one. Number the channel that leaves
/// node x in phase 1 by N - x and the one that leaves x in phase 2 by 2N + x (N nodes): every
/// packet then takes channels in strictly increasing number (phase-1 numbers fall below every
/// phase-2 number), so no packet holding a channel ever waits for a lower-numbered one, the
/// channel dependency graph has no cycle, and Dally and Seitz's condition holds.
class PCube final : public RoutingFunction {
 public:
  [[nodiscard]] std::string name() const override { return "p-cube"; }
  [[nodiscard]] bool deterministic() const override { return false; }
  void route(const TopologyDescription& d, std::uint32_t router, std::optional<std::uint32_t>,
             std::uint32_t dest, PortCandidates& out) const override {
    out.clear();
    const Topology& t = *d.regular();
    const std::uint32_t clear = router & ~dest;  // phase 1: 1 here, 0 at the destination
    const std::uint32_t phase = clear != 0 ? clear : dest & ~router;
    for (std::uint32_t i = 0; i < t.dimensions(); ++i) {
      if ((phase >> i) & 1U) {
        out.push_back(t.port_index(Port{i, true}));
      }
    }
  }
};

/// At each router, the lowest-numbered output port that starts a shortest path to the
/// destination's router: next_[router * R + target router].
class ShortestPath final : public RoutingFunction {
 public:
  explicit ShortestPath(const TopologyDescription& d) : routers_(d.routers()) {
    constexpr std::uint32_t unreached = std::numeric_limits<std::uint32_t>::max();
    next_.assign(std::size_t{routers_} * routers_, unreached);
    std::vector<std::uint32_t> distance(routers_);
    for (std::uint32_t target = 0; target < routers_; ++target) {
      if (d.concentration(target) == 0) {
        continue;  // no node to deliver to
      }
      // Breadth-first search backwards along the channels, from the target.
      std::fill(distance.begin(), distance.end(), unreached);
      distance[target] = 0;
      std::deque<std::uint32_t> frontier{target};
      while (!frontier.empty()) {
        const std::uint32_t at = frontier.front();
        frontier.pop_front();
        for (std::uint32_t p = 0; p < d.ports(at); ++p) {
          const std::optional<PortLink>& from = d.feeder(at, p);
          if (from && distance[from->router] == unreached) {
            distance[from->router] = distance[at] + 1;
            frontier.push_back(from->router);
          }
        }
      }
      for (std::uint32_t r = 0; r < routers_; ++r) {
        if (r == target) {
          continue;
        }
        if (distance[r] == unreached) {
          if (d.concentration(r) > 0) {
            throw std::invalid_argument("the " + d.name() + " has no path from router " +
                                        std::to_string(r) + " to router " + std::to_string(target));
          }
          continue;
        }
        for (std::uint32_t p = 0; p < d.ports(r); ++p) {
          const std::optional<PortLink>& to = d.link(r, p);
          if (to && distance[to->router] + 1 == distance[r]) {
            next_[std::size_t{r} * routers_ + target] = p;
            break;
          }
        }
      }
    }
  }
  [[nodiscard]] std::string name() const override { return "shortest-path"; }
  [[nodiscard]] bool deterministic() const override { return true; }
  void route(const TopologyDescription& d, std::uint32_t router, std::optional<std::uint32_t>,
             std::uint32_t dest, PortCandidates& out) const override {
    out.clear();
    const std::uint32_t target = d.attachment(dest).router;
    if (target != router) {
      out.push_back(next_[std::size_t{router} * routers_ + target]);
    }
  }

 private:
  std::uint32_t routers_;
  std::vector<std::uint32_t> next_;
};

/// Every virtual channel of the port: meshes and hypercubes need no second class for the
/// deterministic routings above.
class AnyVc final : public VcPolicy {
 public:
  [[nodiscard]] std::string name() const override { return "any"; }
  [[nodiscard]] std::uint32_t default_vcs() const override { return 1; }
  [[nodiscard]] std::optional<std::string> check_vcs(std::uint32_t) const override {
    return std::nullopt;
  }
  [[nodiscard]] VcRange allowed(const TopologyDescription&, std::uint32_t, std::uint32_t,
                                std::optional<std::uint32_t>, std::uint32_t,
                                std::uint32_t vcs) const override {
    return {0, vcs};
  }
};

/// Dally and Seitz's dateline on the rings of a torus: the virtual channels split in two halves,
/// class 0 and class 1. A packet takes class 1 on a wrap-around channel (Topology::
/// crosses_dateline), keeps its class while it continues in the same dimension, and starts a new
/// dimension in class 0; this breaks the cyclic channel dependency of each ring. Off a torus every
/// packet stays in class 0.
class Dateline final : public VcPolicy {
 public:
  [[nodiscard]] std::string name() const override { return "dateline"; }
  [[nodiscard]] std::uint32_t default_vcs() const override { return 2; }
  [[nodiscard]] std::optional<std::string> check_vcs(std::uint32_t vcs) const override {
    if (vcs % 2 != 0) {
      return "an even number of virtual channels on a torus (two dateline classes)";
    }
    return std::nullopt;
  }
  [[nodiscard]] VcRange allowed(const TopologyDescription& d, std::uint32_t router,
                                std::uint32_t out, std::optional<std::uint32_t> in,
                                std::uint32_t in_vc, std::uint32_t vcs) const override {
    const std::uint32_t half = vcs / 2;
    const std::optional<Topology>& t = d.regular();
    if (!t || t->kind() != TopologyKind::Torus) {
      return {0, half};
    }
    const Port out_port = t->port_at(out);
    std::uint32_t cls = 0;
    if (t->crosses_dateline(router, out_port)) {
      cls = 1;
    } else if (in && t->port_at(*in).dim == out_port.dim) {
      cls = in_vc < half ? 0 : 1;
    }
    return {cls * half, half};
  }
};

const RegularRouting<routers_dimension_order_port> kDimensionOrder("dimension-order");
const RegularRouting<e_cube_port> kECube("e-cube");
const PCube kPCube;
const AnyVc kAnyVc;
const Dateline kDateline;

}  // namespace

std::vector<std::string> routing_names() {
  return {kDimensionOrder.name(), kECube.name(), kPCube.name()};
}

std::vector<std::string> routing_names(const Topology& t) {
  if (t.kind() == TopologyKind::Hypercube) {
    return {kECube.name(), kPCube.name()};
  }
  return {kDimensionOrder.name()};
}

std::vector<std::string> vc_policy_names() { return {kAnyVc.name(), kDateline.name()}; }

const RoutingFunction& routing_function(const std::string& name) {
  for (const RoutingFunction* r : {static_cast<const RoutingFunction*>(&kDimensionOrder),
                                   static_cast<const RoutingFunction*>(&kECube),
                                   static_cast<const RoutingFunction*>(&kPCube)}) {
    if (r->name() == name) {
      return *r;
    }
  }
  throw std::invalid_argument("no routing function '" + name + "'");
}

const VcPolicy& vc_policy(const std::string& name) {
  for (const VcPolicy* p :
       {static_cast<const VcPolicy*>(&kAnyVc), static_cast<const VcPolicy*>(&kDateline)}) {
    if (p->name() == name) {
      return *p;
    }
  }
  throw std::invalid_argument("no virtual-channel policy '" + name + "'");
}

std::unique_ptr<const RoutingFunction> make_shortest_path_routing(const TopologyDescription& d) {
  return std::make_unique<const ShortestPath>(d);
}

const RoutingFunction& default_routing(const Topology& t) {
  return t.kind() == TopologyKind::Hypercube ? static_cast<const RoutingFunction&>(kECube)
                                             : kDimensionOrder;
}

const VcPolicy& default_vc_policy(const Topology& t) {
  return t.kind() == TopologyKind::Torus ? static_cast<const VcPolicy&>(kDateline) : kAnyVc;
}

std::optional<Port> default_next_port(const Topology& t, std::uint32_t at, std::uint32_t dest,
                                      HalfRingTie tie) {
  return t.kind() == TopologyKind::Hypercube ? e_cube_port(t, at, dest)
                                             : dimension_order_port(t, at, dest, tie);
}

}  // namespace orthosim::sw
