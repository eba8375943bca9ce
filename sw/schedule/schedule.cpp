#include "sw/schedule/schedule.hpp"

namespace orthosim::sw {

std::vector<Block> complete_exchange_blocks(std::uint32_t nodes) {
  std::vector<Block> out;
  out.reserve(static_cast<std::size_t>(nodes) * (nodes > 0 ? nodes - 1 : 0));
  for (NodeId s = 0; s < nodes; ++s) {
    for (NodeId d = 0; d < nodes; ++d) {
      if (s != d) {
        out.push_back(Block{s, d, 0});
      }
    }
  }
  return out;
}

std::vector<Block> all_to_all_broadcast_blocks(std::uint32_t nodes) {
  std::vector<Block> out;
  out.reserve(nodes);
  for (NodeId s = 0; s < nodes; ++s) {
    out.push_back(Block{s, Block::kEveryNode, 0});
  }
  return out;
}

}  // namespace orthosim::sw
