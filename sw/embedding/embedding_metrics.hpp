// What an embedding of a d-cube costs on its network ([XOR] section IV): every cube link is routed
// by the network's own dimension-ordered routing (Topology::route, the routers' code) and its
// route measured. Free of SystemC.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "sw/topology/topology.hpp"

namespace orthosim::sw {

/// The metrics of [XOR] section IV for one embedding.
struct EmbeddingMetrics {
  std::uint32_t cube = 0;  ///< d
  /// distance[i][n] = D_i(n): the route length between the network nodes of n and N_i(n).
  std::vector<std::vector<std::uint32_t>> distance;
  /// The links dilation spectrum A(D): dilation -> cube links with that dilation (IV.B).
  std::map<std::uint32_t, std::uint64_t> dilation_spectrum;
  std::uint32_t longest_dilation = 0;  ///< IV.C
  std::uint64_t total_dilation = 0;    ///< IV.D
  double average_dilation = 0;         ///< over the d 2^(d-1) links; IV.A's average distance
  /// loads[v]: the cube links whose route passes through network node v, endpoints excluded
  /// (IV.E).
  std::vector<std::uint64_t> loads;
  /// dimension_loads[i][v]: the part of loads[v] that the links of cube dimension i make ([XOR]
  /// Figs. 7 and 10 draw it for one dilation).
  std::vector<std::vector<std::uint64_t>> dimension_loads;
  std::uint64_t load_max = 0;
  std::uint64_t load_min = 0;
  double load_average = 0;  ///< IV.F
  /// The CC d-cube communication time in units of Tc (cc_cube_time with cost(h) = h).
  std::uint64_t cc_cube_time_tc = 0;

  /// The smallest and largest D_i(n) over n; equal for a constant distance.
  [[nodiscard]] std::uint32_t distance_min(std::uint32_t i) const;
  [[nodiscard]] std::uint32_t distance_max(std::uint32_t i) const;
  /// Whether every dimension has a constant distance (an embedding with constant distances).
  [[nodiscard]] bool constant_distances() const;
};

/// The metrics of `placement` (cube node n on network node placement[n], a bijection onto the
/// 2^d nodes of `network`). Each link {n, N_i(n)} is routed once, from the end whose bit i is 0,
/// with HalfRingTie::MeshPath: [XOR] Table I counts a half-ring link on the mesh path
/// (docs/embeddings.md). Throws std::invalid_argument when placement is not a bijection onto a
/// network of 2^d nodes.
[[nodiscard]] EmbeddingMetrics embedding_metrics(const Topology& network,
                                                 const std::vector<std::uint32_t>& placement);

/// [XOR] IV.A's recurrence for a CC d-cube whose stage s exchanges across cube dimension
/// stages[s]: T_s(n) = cost(D_(stages[s])(n)) + max(T_(s-1)(n), T_(s-1)(N_(stages[s])(n))),
/// T_(-1) = 0, and the time is the largest T over n after the last stage. `cost(h)` is what one
/// stage costs a process whose message goes h links: D Tc in the paper (store and forward), plus
/// the computation and the start-up where a caller counts them.
[[nodiscard]] std::uint64_t cc_cube_time(const std::vector<std::vector<std::uint32_t>>& distance,
                                         const std::vector<std::uint32_t>& stages,
                                         const std::function<std::uint64_t(std::uint32_t)>& cost);

/// One row of [XOR] Table I: the maximum and minimum node load of the standard and the xor
/// embedding on a torus, as printed.
struct XorTableRow {
  std::vector<std::uint32_t> torus;  ///< the radices, as printed ("16 x 32": {16, 32})
  std::uint64_t std_min = 0;
  std::uint64_t std_max = 0;
  std::uint64_t xor_min = 0;
  std::uint64_t xor_max = 0;
};
/// The ten rows of [XOR] Table I as the paper prints them (1 x 8 ... 32 x 64). A row "1 x k" is a
/// ring of k nodes.
[[nodiscard]] const std::vector<XorTableRow>& xor_table1_printed();

}  // namespace orthosim::sw
