// The routes of a deterministic routing, looked up instead of computed: the output port by which
// every router sends a header toward every destination node, taken from the routing function
// itself (RoutingFunction::route, sw/topology/routing.hpp: on the regular networks the
// dimension-order and e-cube rules that Topology::route walks, on hand-built ones the
// shortest-path table) the first time a header asks, then looked up, so that a router's decision
// for a header is one load (sc_models/net/fabric.cpp). Filled on demand, the table costs nothing
// at start-up and no more calls than the headers would have made; it holds one byte per
// (router, node), allocated at once, so it is built only up to a bound, above which (and for an
// adaptive routing such as P-cube, whose candidates depend on more than the pair) the routers
// ask the routing function for each header as before.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "sw/topology/routing.hpp"
#include "sw/topology/topology_description.hpp"

namespace orthosim::sw {

class RouteTable {
 public:
  /// port()'s answer when the destination is attached to the router: the header ejects.
  static constexpr std::uint8_t eject = 0xFF;
  /// The default bound on routers x nodes: a 32x32 mesh or torus (1 MiB) is tabled, a 64x64 one
  /// (16 MiB) is not; every hypercube up to d = 10 is.
  static constexpr std::size_t default_max_entries = std::size_t{1} << 20;

  /// The table of d.routing() on d (which must outlive it); none when that routing is not
  /// deterministic, when a router has 254 network ports or more (an entry is one byte, two values
  /// reserved), or when routers x nodes exceeds `max_entries`.
  [[nodiscard]] static std::optional<RouteTable> of(const TopologyDescription& d,
                                                    std::size_t max_entries = default_max_entries);

  /// The network output port of `router` toward node `dest`, or `eject`.
  [[nodiscard]] std::uint8_t port(std::uint32_t router, std::uint32_t dest) {
    std::uint8_t& entry = ports_[std::size_t{router} * nodes_ + dest];
    if (entry == unknown) {
      entry = ask(router, dest);
    }
    return entry;
  }

 private:
  /// An entry the routing function has not been asked for yet.
  static constexpr std::uint8_t unknown = 0xFE;

  explicit RouteTable(const TopologyDescription& d);
  /// The routing function's port (or `eject`) for the pair.
  [[nodiscard]] std::uint8_t ask(std::uint32_t router, std::uint32_t dest);

  const TopologyDescription* description_;
  std::uint32_t nodes_;
  std::vector<std::uint8_t> ports_;  ///< [router * nodes + dest]
  PortCandidates candidates_;        ///< ask's scratch
};

}  // namespace orthosim::sw
