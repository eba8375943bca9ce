// The collectives a network user runs instead of sending every message directly, as schedules
// (sw/schedule) the checker proves and the emulated networks run: on a k1 x k2 torus the
// all-to-all broadcast by a row-then-column gather; on a d-cube the one-to-all broadcast and the
// scatter by a spanning binomial tree, and the all-to-all broadcast by recursive doubling
// (dimension exchange). `orthosim tables` runs them for [PH91]'s native columns
// (docs/tables.md). Free of SystemC.
#pragma once

#include <cstdint>

#include "sw/schedule/schedule.hpp"

namespace orthosim::sw {

/// All-to-all broadcast on a columns x rows torus (node = x + columns y): k1 - 1 steps along the
/// rows, each node passing the block it received last to its +x neighbour, then k2 - 1 steps
/// along the columns passing the row's k1 blocks it received last to its +y neighbour. One-port,
/// one link per message, k1 + k2 - 2 start-ups. Throws std::invalid_argument for a side below 2.
[[nodiscard]] Schedule torus_row_column_gather(std::uint32_t columns, std::uint32_t rows);

/// One-to-all broadcast from `root` on the d-cube by the binomial tree: in step k (k = 0 .. d-1)
/// every node that holds the block (root xor a, a < 2^k) sends it across dimension k. d steps.
[[nodiscard]] Schedule hypercube_binomial_broadcast(std::uint32_t d, NodeId root);

/// One-to-all personalized (scatter) from `root` on the d-cube by the binomial tree, highest
/// dimension first: in step k (k = d-1 .. 0) every holder sends across dimension k the blocks for
/// the other half of its subcube, 2^k of them. d steps.
[[nodiscard]] Schedule hypercube_binomial_scatter(std::uint32_t d, NodeId root);

/// All-to-all broadcast on the d-cube by recursive doubling: in step k (k = 0 .. d-1) every node
/// sends all it holds (2^k blocks) across dimension k. d steps.
[[nodiscard]] Schedule hypercube_recursive_doubling(std::uint32_t d);

}  // namespace orthosim::sw
