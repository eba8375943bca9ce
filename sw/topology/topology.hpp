// The interconnection networks of the multicomputer side: k1 x ... x kc meshes and tori and
// d-dimensional hypercubes ([CALMANT] section 2.1, [XOR] section II, [A2A] section 2.1,
// [LCC] section 2.1). Node numbering, neighbour tables, the paths of the default routing
// (sw/topology/routing.hpp: dimension-order on meshes and tori, e-cube on hypercubes; [LCC]
// section 2.3) and the dateline channels of the torus rings. Pure functions of the topology; the
// routers read it as a general description (TopologyDescription::of, sw/topology/
// topology_description.hpp; modeling rule 7: topology is data, not router code).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace orthosim::sw {

enum class TopologyKind : std::uint8_t { Mesh, Torus, Hypercube };

/// "mesh", "torus" or "hypercube".
[[nodiscard]] std::string to_string(TopologyKind kind);
/// The names of every kind, as parse() and the command line take them.
[[nodiscard]] std::vector<std::string> topology_kind_names();

/// One output (or input) network port of a router: a dimension and a direction. On a hypercube
/// the direction is always `positive = true` (the channel flips bit `dim`).
struct Port {
  std::uint32_t dim = 0;
  bool positive = true;

  friend bool operator==(Port a, Port b) { return a.dim == b.dim && a.positive == b.positive; }
  friend bool operator!=(Port a, Port b) { return !(a == b); }
};

/// How a torus route goes round a ring when both ways are equally long (exactly half a ring, even
/// k; docs/topology.md). Positive: the positive direction, for every message (the routers' rule).
/// MeshPath: the way that does not take the wrap-around channel, i.e. toward the coordinate as on
/// a mesh (the rule of the embedding metrics, sw/embedding/: [XOR] Table I's loads count a
/// half-ring link on the mesh path). Either rule routes every half-ring link the same way, which
/// is what Table I needs.
enum class HalfRingTie : std::uint8_t { Positive, MeshPath };

/// A mesh, torus or hypercube. Immutable once built; build it with mesh(), torus(), hypercube()
/// or parse().
///
/// Node numbering: dimension 0 varies fastest, node = x0 + k0*(x1 + k1*x2). On a hypercube the
/// coordinates are the address bits, x_i = bit i of the node number ([LCC] section 2.1 writes
/// a node as the vector (x0 x1 ... x_{d-1})^t with x0 the least significant bit).
class Topology {
 public:
  /// Largest number of nodes of a mesh or torus (and of anything parse() accepts).
  static constexpr std::uint32_t max_nodes = 65536;
  /// Largest hypercube dimension.
  static constexpr std::uint32_t max_hypercube_dim = 10;
  /// Largest number of mesh or torus dimensions.
  static constexpr std::uint32_t max_grid_dims = 3;

  /// A k1 x ... x kc mesh, c = 1..3 (c = 1 is a line), each k >= 2, at most 65536 nodes.
  /// Throws std::invalid_argument otherwise (parse() gives the user-facing errors).
  static Topology mesh(std::vector<std::uint32_t> radices);
  /// A k1 x ... x kc torus, c = 1..3 (c = 1 is a ring), each k >= 2. With k = 2 the two
  /// directions of a dimension lead to the same neighbour, but over two distinct physical
  /// channels (the positive one is the wrap-around channel of node 1).
  static Topology torus(std::vector<std::uint32_t> radices);
  /// A d-dimensional hypercube with 2^d nodes, d = 1..10.
  static Topology hypercube(std::uint32_t d);

  /// Parses the command line: `kind` is "mesh", "torus" or "hypercube"; `dims` ("8x8", "4x4x4",
  /// "16") gives the radices of a mesh or torus, `dim` ("8") the dimension of a hypercube, and
  /// exactly the one that fits the kind must be given. Throws ParameterError keyed by
  /// `kind_parameter`, "dims" or "dim" with what was expected and what was found (an unknown kind, a missing or
  /// misplaced option, a radix below 2, more than 3 dimensions, d outside 1..10, more than 65536
  /// nodes, anything that is not a number).
  static Topology parse(const std::string& kind, const std::optional<std::string>& dims,
                        const std::optional<std::string>& dim,
                        const std::string& kind_parameter = "arch");

  [[nodiscard]] TopologyKind kind() const { return kind_; }
  [[nodiscard]] std::uint32_t nodes() const { return nodes_; }
  /// c for a mesh or torus, d for a hypercube.
  [[nodiscard]] std::uint32_t dimensions() const {
    return static_cast<std::uint32_t>(radices_.size());
  }
  /// The radix of each dimension; a hypercube has d entries of 2.
  [[nodiscard]] const std::vector<std::uint32_t>& radices() const { return radices_; }
  /// log2(nodes()) when the node count is a power of two (always on a hypercube), else none.
  /// The bit patterns and LCCs of sw/traffic need it.
  [[nodiscard]] std::optional<std::uint32_t> address_bits() const;

  /// The coordinates of a node, dimension 0 first. Throws std::out_of_range for node >= nodes().
  [[nodiscard]] std::vector<std::uint32_t> coordinates(std::uint32_t node) const;
  /// coordinates(node)[dim], without building the vector (the routers ask it per header). Throws
  /// std::out_of_range for node >= nodes() or dim >= dimensions().
  [[nodiscard]] std::uint32_t coordinate(std::uint32_t node, std::uint32_t dim) const;
  /// The node at the given coordinates. Throws std::out_of_range for a wrong count or a
  /// coordinate outside its radix.
  [[nodiscard]] std::uint32_t node_at(const std::vector<std::uint32_t>& coords) const;

  /// The network ports of every router, in a fixed order: on a mesh or torus, for each dimension
  /// the positive then the negative port (2c ports; at a mesh edge some have no neighbour); on a
  /// hypercube one port per dimension (d ports).
  [[nodiscard]] std::vector<Port> ports() const;
  /// The index of `p` in ports(). Throws std::out_of_range for a port this topology has not.
  [[nodiscard]] std::uint32_t port_index(Port p) const;
  /// The port at `index` in ports(). Throws std::out_of_range for an index ports() has not.
  [[nodiscard]] Port port_at(std::uint32_t index) const;
  /// A short port name for hierarchical names and tables: "x+", "x-", "y+", "y-", "z+", "z-" on a
  /// mesh or torus, "d0" .. "d9" on a hypercube.
  [[nodiscard]] std::string port_name(Port p) const;
  /// The node reached from `node` through port `p`; none at a mesh edge. Torus channels wrap
  /// around; a hypercube channel flips bit p.dim.
  [[nodiscard]] std::optional<std::uint32_t> neighbor(std::uint32_t node, Port p) const;

  /// The default routing (default_routing(), sw/topology/routing.hpp): the port by which a
  /// header at node `at` leaves toward `dest`, none if at == dest. The lowest dimension in which
  /// the coordinates differ is corrected first (dimension-order, XY.. on meshes and tori; e-cube
  /// on hypercubes); on a torus the shorter way round, and for exactly half a ring the way `tie`
  /// says (the routers take the default). Throws std::out_of_range for a node >= nodes().
  [[nodiscard]] std::optional<Port> next_port(std::uint32_t at, std::uint32_t dest,
                                              HalfRingTie tie = HalfRingTie::Positive) const;
  /// The whole route: the (node, output port) hops from src to dest, empty when src == dest.
  [[nodiscard]] std::vector<std::pair<std::uint32_t, Port>> route(
      std::uint32_t src, std::uint32_t dest, HalfRingTie tie = HalfRingTie::Positive) const;
  /// Length of route(src, dest), computed from the coordinates: Manhattan distance on a mesh,
  /// the sum of min(|dx|, k - |dx|) on a torus, the Hamming distance on a hypercube.
  [[nodiscard]] std::uint32_t hops(std::uint32_t src, std::uint32_t dest) const;

  /// Whether the channel leaving `node` by `p` is a torus wrap-around channel, which crosses the
  /// dateline of its ring: positive from coordinate k-1 to 0, negative from 0 to k-1 (the
  /// "dateline" virtual-channel policy, sw/topology/routing.hpp, switches class there). Always
  /// false on meshes and hypercubes.
  [[nodiscard]] bool crosses_dateline(std::uint32_t node, Port p) const;

  /// "mesh 8x8", "torus 16x16", "ring 8" (a torus with c = 1), "line 8" (a mesh with c = 1),
  /// "hypercube d=8".
  [[nodiscard]] std::string to_string() const;

  friend bool operator==(const Topology& a, const Topology& b) {
    return a.kind_ == b.kind_ && a.radices_ == b.radices_;
  }
  friend bool operator!=(const Topology& a, const Topology& b) { return !(a == b); }

 private:
  Topology(TopologyKind kind, std::vector<std::uint32_t> radices);

  void check_node(std::uint32_t node) const;
  void check_port(Port p) const;

  TopologyKind kind_;
  std::vector<std::uint32_t> radices_;
  std::uint32_t nodes_ = 0;
};

}  // namespace orthosim::sw
