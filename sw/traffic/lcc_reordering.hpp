// Processor reordering mapping of linear-complement communications ([LCC] sections 3 to 5): an
// ordering of the address bits relabels every node, the LCC between the relabeled nodes has the
// conjugated matrix (Theorem 2), and the orderings that minimize Theorem 1's channel contention
// for one LCC (Theorems 3 and 4, the LCP optimizer of Fig. 3) and for a set of LCCs (Theorem 5's
// dynamic program). SystemC-free; arithmetic over GF(2) as in lcc.hpp.
#pragma once

#include <cstdint>
#include <vector>

#include "sw/traffic/lcc.hpp"

namespace orthosim::sw {

/// An ordering R of the d address bits ([LCC] section 5, R(L_n)): bit k of a relabeled node is
/// bit R[k] of the node it relabels. Equivalently the permutation matrix Q of Definition 8 with
/// q_{k,R[k]} = 1, so that x' = Qx. Example 4's Q is the ordering (0,4,2,6,1,5,3,7).
using BitOrdering = std::vector<std::uint32_t>;

/// The identity ordering (0, 1, ..., d-1): no node moves.
[[nodiscard]] BitOrdering identity_ordering(std::uint32_t d);

/// Whether `ordering` holds each of 0..d-1 exactly once.
[[nodiscard]] bool is_bit_ordering(const BitOrdering& ordering, std::uint32_t d);

/// The node x' = Qx a node x is relabeled to: bit k of x' is bit R[k] of x.
[[nodiscard]] std::uint32_t relabel_node(const BitOrdering& ordering, std::uint32_t x);

/// Every node's relabeling: entry x is Qx, for x = 0..2^d-1. Written one entry per line, this is
/// the node map `--embedding` reads (program node x runs on network node Qx).
[[nodiscard]] std::vector<std::uint32_t> node_relabeling(const BitOrdering& ordering);

/// [LCC] Theorem 2: the LCC between relabeled nodes, y' = (QAQ^-1)x' + Qb. Entry (k, l) of
/// QAQ^-1 is a_{R[k],R[l]} and bit k of Qb is b_{R[k]}. Throws std::invalid_argument when
/// `ordering` is not an ordering of the LCC's d bits.
[[nodiscard]] Lcc reorder(const Lcc& lcc, const BitOrdering& ordering);

/// An ordering that minimizes T(QAQ^-1, Qb), in O(d^3) operations on rows held as words. For an
/// LCP it is the LCP optimizer of Fig. 3 (Theorem 3's exchanges): T = 1, no contention
/// (Corollary 1). For an LCG it is the exchanges of Theorem 4's proof: T = 2^((d-1) - rank(A)),
/// the minimum (Corollary 2). T is 0 only when no message moves (A = I, b = 0). Section 4 first
/// moves the bits no message changes (T_i = 0) last; neither construction needs it, since both
/// bound i - rank(D_{L_{i+1},L_i}) at every dimension and such a bit has T_i = 0 wherever it is.
[[nodiscard]] BitOrdering optimal_ordering(const Lcc& lcc);

/// Largest d the dynamic program takes: it holds a few entries per subset of the address bits.
inline constexpr std::uint32_t max_joint_ordering_d = 20;

/// [LCC] section 5: an ordering that minimizes max over the set of T(Q A_r Q^-1, Q b_r), by
/// Theorem 5's dynamic program over the subsets S of the address bits (d 2^(d-1) choices, each
/// O(m d^2) bit operations for m LCCs), and among those one with the least sum of the T_r: per
/// subset the program keeps the vectors of the T_r so far that no other one beats in every LCC. Every LCC must have the same d, at most
/// max_joint_ordering_d; std::invalid_argument otherwise or for an empty set.
[[nodiscard]] BitOrdering joint_optimal_ordering(const std::vector<Lcc>& lccs);

}  // namespace orthosim::sw
