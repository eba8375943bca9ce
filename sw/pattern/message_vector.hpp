// Message vectors ([PH91] section 4.3, Theorem 1): the four properties a set of point-to-point
// links must satisfy to be carried by one vectorized IWR step, in which every link gets its own
// memory module M(i,j).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "sw/program/program.hpp"

namespace orthosim::sw {

/// The outcome of checking a set of links against Theorem 1. `ok` is true iff `violations` is
/// empty; each violation names the property (or the range / self-loop rule) and the node(s).
struct MessageVectorCheck {
  bool ok = true;
  std::vector<std::string> violations;
};

/// Checks `links` (pairs (i, j): a message from node i to node j) over `nodes` = m nodes against
/// Theorem 1 of [PH91] section 4.3:
///  1. the destinations of a source are distinct (no two links i -> j),
///  2. the sources of a destination are distinct (a repeated link breaks 1 and 2 at once),
///  3. |DST_i| <= m-1 for every source i,
///  4. |SRC_j| <= m-1 for every destination j;
/// plus the set E of point-to-point links it draws from: no self-loop (i, i) and every node < m.
/// DST_i and SRC_j are taken over all nodes 0..m-1 as printed, self-loops included, so that
/// properties 3 and 4 are checked on their own terms (on loop-free links they always hold).
/// An empty set passes: the paper's "v cannot be null" is the caller's concern (a step without
/// messages needs no vector step).
[[nodiscard]] MessageVectorCheck check_message_vector(
    const std::vector<std::pair<NodeId, NodeId>>& links, std::uint32_t nodes);

/// The links of a step: one (source, destination) per destination of every transfer, broadcast
/// or personalized (a replicated payload still occupies one module per destination), in order.
[[nodiscard]] std::vector<std::pair<NodeId, NodeId>> links_of(
    const std::vector<Transfer>& transfers);

}  // namespace orthosim::sw
