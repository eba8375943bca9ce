// Fuzz target of the embedding-file reader of `orthosim run --embedding FILE`
// (sw/routed/routed_program.hpp): every input is a node map or is rejected with file:line:col.
// A node map gives each program node its own network node. The input is read for a few
// (program nodes, network nodes) pairs, from one node to more nodes than a line holds numbers.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sw/routed/routed_program.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace {

using orthosim::fuzz::require;

const std::string kFile = "fuzz.map";

struct Sizes {
  std::uint32_t program_nodes;
  std::uint32_t network_nodes;
};
constexpr Sizes kSizes[] = {{1, 1}, {4, 4}, {4, 16}, {16, 64}};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(orthosim::fuzz::as_text(data, size));
  for (const Sizes& sizes : kSizes) {
    std::vector<std::uint32_t> map;
    try {
      map = orthosim::sw::parse_embedding(text, kFile, sizes.program_nodes, sizes.network_nodes);
    } catch (const orthosim::sw::InputError& e) {
      orthosim::fuzz::require_position(e, text, kFile);
      continue;
    }
    require(map.size() == sizes.program_nodes, "one network node per program node");
    std::vector<bool> used(sizes.network_nodes, false);
    for (std::uint32_t node : map) {
      require(node < sizes.network_nodes && !used[node], "distinct nodes of the network");
      used[node] = true;
    }
  }
  return 0;
}
