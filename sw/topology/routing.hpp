// Routing functions and virtual-channel policies as named plug-ins, the way network simulators
// such as BookSim2 and SST Merlin take them: a router asks its routing function for the output
// port of a header and its virtual-channel policy for the virtual channels of that port the
// header may take. The routings here are deterministic ([LCC] section 2.3: dimension-order on
// meshes and tori, e-cube on hypercubes); an adaptive routing implements the same interface.
// Plug-ins hold no state: each is a constant, looked up by name.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sw/topology/topology.hpp"

namespace orthosim::sw {

class RoutingFunction {
 public:
  virtual ~RoutingFunction() = default;
  [[nodiscard]] virtual std::string name() const = 0;
  /// The port by which a header at node `at` leaves toward `dest` (both nodes of `t`); none if
  /// at == dest.
  [[nodiscard]] virtual std::optional<Port> next_port(const Topology& t, std::uint32_t at,
                                                      std::uint32_t dest) const = 0;
};

/// The virtual channels [first, first + count) of an output port a header may request.
struct VcRange {
  std::uint32_t first = 0;
  std::uint32_t count = 0;
};

class VcPolicy {
 public:
  virtual ~VcPolicy() = default;
  [[nodiscard]] virtual std::string name() const = 0;
  /// The virtual channels that a router port has by default under this policy.
  [[nodiscard]] virtual std::uint32_t default_vcs() const = 0;
  /// Why `vcs` virtual channels per port do not fit the policy, or none when they do.
  [[nodiscard]] virtual std::optional<std::string> check_vcs(std::uint32_t vcs) const = 0;
  /// The virtual channels of output port `out` of `node` (each port has `vcs`) that a header may
  /// take, which arrived by port `in` (none at its source node) on virtual channel `in_vc`.
  [[nodiscard]] virtual VcRange allowed(const Topology& t, std::uint32_t node, Port out,
                                        std::optional<Port> in, std::uint32_t in_vc,
                                        std::uint32_t vcs) const = 0;
};

/// "dimension-order" (XY.. on meshes and tori) and "e-cube" (hypercubes).
[[nodiscard]] std::vector<std::string> routing_names();
/// "any" (every virtual channel of the port) and "dateline" (tori: two classes).
[[nodiscard]] std::vector<std::string> vc_policy_names();
/// The plug-in of that name; throws std::invalid_argument for a name the lists above lack.
[[nodiscard]] const RoutingFunction& routing_function(const std::string& name);
[[nodiscard]] const VcPolicy& vc_policy(const std::string& name);

/// The routing a topology runs by default: e-cube on a hypercube, dimension-order otherwise.
[[nodiscard]] const RoutingFunction& default_routing(const Topology& t);
/// The virtual-channel policy that keeps the default routing deadlock-free: the dateline on a
/// torus, any virtual channel otherwise.
[[nodiscard]] const VcPolicy& default_vc_policy(const Topology& t);

}  // namespace orthosim::sw
