#include "sw/exchange/collectives.hpp"

#include <stdexcept>
#include <string>
#include <utility>

namespace orthosim::sw {

namespace {

void check_cube(std::uint32_t d, NodeId root) {
  if (d < 1 || d > 16 || root >= (NodeId{1} << d)) {
    throw std::invalid_argument("hypercube collective: d = 1..16 and a root below 2^d expected");
  }
}

}  // namespace

Schedule torus_row_column_gather(std::uint32_t columns, std::uint32_t rows) {
  if (columns < 2 || rows < 2) {
    throw std::invalid_argument("torus_row_column_gather: a side below 2");
  }
  const std::uint32_t nodes = columns * rows;
  Schedule s{"all-to-all-broadcast-row-column-" + std::to_string(columns) + "x" +
                 std::to_string(rows),
             nodes,
             all_to_all_broadcast_blocks(nodes),
             {}};
  const auto node = [columns, rows](std::uint32_t x, std::uint32_t y) {
    return static_cast<NodeId>(x % columns + columns * (y % rows));
  };
  // Row phase: in step t node (x, y) passes on the block of (x - t, y), received in step t - 1.
  for (std::uint32_t t = 0; t + 1 < columns; ++t) {
    ScheduleStep step;
    step.label = "row step " + std::to_string(t + 1);
    for (NodeId n = 0; n < nodes; ++n) {
      const std::uint32_t x = n % columns;
      const std::uint32_t y = n / columns;
      step.messages.push_back(ScheduledMessage{
          n, node(x + 1, y), {Block{node(x + columns - t, y), Block::kEveryNode, 0}}});
    }
    s.steps.push_back(std::move(step));
  }
  // Column phase: in step t node (x, y) passes on the row y - t's blocks.
  for (std::uint32_t t = 0; t + 1 < rows; ++t) {
    ScheduleStep step;
    step.label = "column step " + std::to_string(t + 1);
    for (NodeId n = 0; n < nodes; ++n) {
      const std::uint32_t x = n % columns;
      const std::uint32_t y = n / columns;
      ScheduledMessage m{n, node(x, y + 1), {}};
      for (std::uint32_t c = 0; c < columns; ++c) {
        m.blocks.push_back(Block{node(c, y + rows - t), Block::kEveryNode, 0});
      }
      step.messages.push_back(std::move(m));
    }
    s.steps.push_back(std::move(step));
  }
  return s;
}

Schedule hypercube_binomial_broadcast(std::uint32_t d, NodeId root) {
  check_cube(d, root);
  const std::uint32_t nodes = 1u << d;
  Schedule s{"one-to-all-broadcast-binomial-d" + std::to_string(d),
             nodes,
             {Block{root, Block::kEveryNode, 0}},
             {}};
  for (std::uint32_t k = 0; k < d; ++k) {
    ScheduleStep step;
    step.label = "dimension " + std::to_string(k);
    for (NodeId a = 0; a < (NodeId{1} << k); ++a) {
      step.messages.push_back(
          ScheduledMessage{root ^ a, root ^ a ^ (NodeId{1} << k), {s.blocks.front()}});
    }
    s.steps.push_back(std::move(step));
  }
  return s;
}

Schedule hypercube_binomial_scatter(std::uint32_t d, NodeId root) {
  check_cube(d, root);
  const std::uint32_t nodes = 1u << d;
  Schedule s{"one-to-all-personalized-binomial-d" + std::to_string(d), nodes, {}, {}};
  for (NodeId x = 0; x < nodes; ++x) {
    if (x != root) {
      s.blocks.push_back(Block{root, x, 0});
    }
  }
  // Relative to the root (a = node xor root): before the step of dimension k, the holders are the
  // a with bits k .. 0 clear, each with the blocks of its subcube a + [0, 2^(k+1)).
  for (std::uint32_t k = d; k-- > 0;) {
    ScheduleStep step;
    step.label = "dimension " + std::to_string(k);
    const NodeId half = NodeId{1} << k;
    for (NodeId a = 0; a < nodes; a += 2 * half) {
      ScheduledMessage m{root ^ a, root ^ a ^ half, {}};
      for (NodeId b = a + half; b < a + 2 * half; ++b) {
        m.blocks.push_back(Block{root, root ^ b, 0});
      }
      step.messages.push_back(std::move(m));
    }
    s.steps.push_back(std::move(step));
  }
  return s;
}

Schedule hypercube_recursive_doubling(std::uint32_t d) {
  check_cube(d, 0);
  const std::uint32_t nodes = 1u << d;
  Schedule s{"all-to-all-broadcast-doubling-d" + std::to_string(d),
             nodes,
             all_to_all_broadcast_blocks(nodes),
             {}};
  for (std::uint32_t k = 0; k < d; ++k) {
    ScheduleStep step;
    step.label = "dimension " + std::to_string(k);
    const NodeId bit = NodeId{1} << k;
    for (NodeId x = 0; x < nodes; ++x) {
      // x holds the blocks of its subcube along dimensions 0 .. k-1.
      ScheduledMessage m{x, x ^ bit, {}};
      for (NodeId low = 0; low < bit; ++low) {
        m.blocks.push_back(Block{(x & ~(bit - 1)) | low, Block::kEveryNode, 0});
      }
      step.messages.push_back(std::move(m));
    }
    s.steps.push_back(std::move(step));
  }
  return s;
}

}  // namespace orthosim::sw
