// Routing functions and virtual-channel policies as named plug-ins, the way network simulators
// such as BookSim2 and SST Merlin take them: a router asks its routing function for the output
// ports a header may take (router, input port, destination node), and its virtual-channel policy
// for the virtual channels of the chosen port (router, output port, input port, input virtual
// channel). Both read the general description (sw/topology/topology_description.hpp). The
// deterministic routings return one port ([LCC] section 2.3: dimension-order on meshes and tori,
// e-cube on hypercubes; shortest-path from a table on any description); the partially adaptive
// P-cube of hypercubes returns its candidates in preference order, and the router takes the first
// one that is free.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sw/topology/topology.hpp"
#include "sw/topology/topology_description.hpp"

namespace orthosim::sw {

/// Output ports of one router, best first.
using PortCandidates = std::vector<std::uint32_t>;

class RoutingFunction {
 public:
  virtual ~RoutingFunction() = default;
  [[nodiscard]] virtual std::string name() const = 0;
  /// Replaces `out` with the network output ports of `router` by which a header that arrived by
  /// input port `in` (none: injected at this router) may leave toward node `dest`, best first;
  /// empty when `dest` is attached to `router` (the header ejects).
  virtual void route(const TopologyDescription& d, std::uint32_t router,
                     std::optional<std::uint32_t> in, std::uint32_t dest,
                     PortCandidates& out) const = 0;
  /// Whether route() gives one port at most and depends only on the router and the destination,
  /// not on the input port: then a table per (router, destination) holds it (RouteTable,
  /// sw/topology/route_table.hpp). False for an adaptive routing.
  [[nodiscard]] virtual bool deterministic() const = 0;
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
  /// What the policy expects of the virtual channels per port ("an even number ...") when `vcs`
  /// do not fit it, or none when they do.
  [[nodiscard]] virtual std::optional<std::string> check_vcs(std::uint32_t vcs) const = 0;
  /// The virtual channels of output port `out` of `router` (each port has `vcs`) that a header
  /// may take, which arrived by input port `in` (none: injected at this router) on virtual
  /// channel `in_vc`.
  [[nodiscard]] virtual VcRange allowed(const TopologyDescription& d, std::uint32_t router,
                                        std::uint32_t out, std::optional<std::uint32_t> in,
                                        std::uint32_t in_vc, std::uint32_t vcs) const = 0;
};

/// "dimension-order" (XY.. on meshes and tori), "e-cube" and "p-cube" (hypercubes): the routings
/// that hold no state. Shortest-path holds a table per description (make_shortest_path_routing()).
[[nodiscard]] std::vector<std::string> routing_names();
/// The routings of routing_names() that run on `t`, its default first.
[[nodiscard]] std::vector<std::string> routing_names(const Topology& t);
/// "any" (every virtual channel of the port) and "dateline" (tori: two classes).
[[nodiscard]] std::vector<std::string> vc_policy_names();
/// The plug-in of that name; throws std::invalid_argument for a name the lists above lack.
[[nodiscard]] const RoutingFunction& routing_function(const std::string& name);
[[nodiscard]] const VcPolicy& vc_policy(const std::string& name);

/// "shortest-path" on `d`: at each router the lowest-numbered output port that starts a shortest
/// path (fewest channels) to the destination's router, from a table computed by breadth-first
/// search over `d`'s channels. Throws std::invalid_argument when some node cannot be reached from
/// a router that has nodes.
[[nodiscard]] std::unique_ptr<const RoutingFunction> make_shortest_path_routing(
    const TopologyDescription& d);

/// The routing a topology runs by default: e-cube on a hypercube, dimension-order otherwise.
[[nodiscard]] const RoutingFunction& default_routing(const Topology& t);
/// The virtual-channel policy that keeps the default routing deadlock-free: the dateline on a
/// torus, any virtual channel otherwise.
[[nodiscard]] const VcPolicy& default_vc_policy(const Topology& t);

/// The port by which the default routing leaves node `at` toward `dest` on `t`, none if at ==
/// dest (Topology::next_port; the dimension-order and e-cube plug-ins, which take the default
/// tie). `tie` decides a torus route of exactly half a ring (HalfRingTie).
[[nodiscard]] std::optional<Port> default_next_port(const Topology& t, std::uint32_t at,
                                                    std::uint32_t dest,
                                                    HalfRingTie tie = HalfRingTie::Positive);

}  // namespace orthosim::sw
