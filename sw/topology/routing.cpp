// The deterministic routings of [LCC] section 2.3 and the virtual-channel policies.
#include "sw/topology/routing.hpp"

#include <stdexcept>

namespace orthosim::sw {

namespace {

/// The lowest dimension in which the coordinates differ is corrected first ([CALMANT] section
/// 2.1). On a torus the shorter way round the ring is taken; when both ways are equally long
/// (exactly half a ring, even k) the positive direction is taken. That tie rule is the same for
/// every message, which is what [XOR] Table I needs (errata: half-ring links must all be routed
/// the same way).
class DimensionOrder final : public RoutingFunction {
 public:
  [[nodiscard]] std::string name() const override { return "dimension-order"; }
  [[nodiscard]] std::optional<Port> next_port(const Topology& t, std::uint32_t at,
                                              std::uint32_t dest) const override {
    const std::vector<std::uint32_t> a = t.coordinates(at);
    const std::vector<std::uint32_t> b = t.coordinates(dest);
    for (std::uint32_t i = 0; i < t.dimensions(); ++i) {
      if (a[i] == b[i]) {
        continue;
      }
      if (t.kind() != TopologyKind::Torus) {
        return Port{i, b[i] > a[i]};
      }
      const std::uint32_t k = t.radices()[i];
      const std::uint32_t forward = (b[i] + k - a[i]) % k;
      return Port{i, forward <= k - forward};
    }
    return std::nullopt;
  }
};

/// The lowest differing address bit first: channels are reserved in strictly increasing order of
/// dimension ([LCC] section 2.3).
class ECube final : public RoutingFunction {
 public:
  [[nodiscard]] std::string name() const override { return "e-cube"; }
  [[nodiscard]] std::optional<Port> next_port(const Topology& t, std::uint32_t at,
                                              std::uint32_t dest) const override {
    const std::uint32_t diff = at ^ dest;
    for (std::uint32_t i = 0; i < t.dimensions(); ++i) {
      if ((diff >> i) & 1U) {
        return Port{i, true};
      }
    }
    return std::nullopt;
  }
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
  [[nodiscard]] VcRange allowed(const Topology&, std::uint32_t, Port, std::optional<Port>,
                                std::uint32_t, std::uint32_t vcs) const override {
    return {0, vcs};
  }
};

/// Dally and Seitz's dateline on the rings of a torus: the virtual channels split in two halves,
/// class 0 and class 1. A packet takes class 1 on a wrap-around channel (Topology::
/// crosses_dateline), keeps its class while it continues in the same dimension, and starts a new
/// dimension in class 0; this breaks the cyclic channel dependency of each ring.
class Dateline final : public VcPolicy {
 public:
  [[nodiscard]] std::string name() const override { return "dateline"; }
  [[nodiscard]] std::uint32_t default_vcs() const override { return 2; }
  [[nodiscard]] std::optional<std::string> check_vcs(std::uint32_t vcs) const override {
    if (vcs % 2 != 0) {
      return "an even number of virtual channels on a torus (two dateline classes), got " +
             std::to_string(vcs);
    }
    return std::nullopt;
  }
  [[nodiscard]] VcRange allowed(const Topology& t, std::uint32_t node, Port out,
                                std::optional<Port> in, std::uint32_t in_vc,
                                std::uint32_t vcs) const override {
    const std::uint32_t half = vcs / 2;
    const std::uint32_t arrived_class = in_vc < half ? 0 : 1;
    std::uint32_t cls = 0;
    if (t.crosses_dateline(node, out)) {
      cls = 1;
    } else if (t.kind() == TopologyKind::Torus && in && in->dim == out.dim) {
      cls = arrived_class;
    }
    return {cls * half, half};
  }
};

const DimensionOrder kDimensionOrder;
const ECube kECube;
const AnyVc kAnyVc;
const Dateline kDateline;

}  // namespace

std::vector<std::string> routing_names() { return {kDimensionOrder.name(), kECube.name()}; }

std::vector<std::string> vc_policy_names() { return {kAnyVc.name(), kDateline.name()}; }

const RoutingFunction& routing_function(const std::string& name) {
  for (const RoutingFunction* r : {static_cast<const RoutingFunction*>(&kDimensionOrder),
                                   static_cast<const RoutingFunction*>(&kECube)}) {
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

const RoutingFunction& default_routing(const Topology& t) {
  return t.kind() == TopologyKind::Hypercube ? static_cast<const RoutingFunction&>(kECube)
                                             : kDimensionOrder;
}

const VcPolicy& default_vc_policy(const Topology& t) {
  return t.kind() == TopologyKind::Torus ? static_cast<const VcPolicy&>(kDateline) : kAnyVc;
}

}  // namespace orthosim::sw
