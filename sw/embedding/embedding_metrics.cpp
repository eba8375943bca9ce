// [XOR] section IV's metrics of an embedding, from the routes the network's routing takes.
#include "sw/embedding/embedding_metrics.hpp"

#include <algorithm>
#include <stdexcept>

namespace orthosim::sw {

std::uint32_t EmbeddingMetrics::distance_min(std::uint32_t i) const {
  return *std::min_element(distance.at(i).begin(), distance.at(i).end());
}

std::uint32_t EmbeddingMetrics::distance_max(std::uint32_t i) const {
  return *std::max_element(distance.at(i).begin(), distance.at(i).end());
}

bool EmbeddingMetrics::constant_distances() const {
  for (std::uint32_t i = 0; i < cube; ++i) {
    if (distance_min(i) != distance_max(i)) {
      return false;
    }
  }
  return true;
}

EmbeddingMetrics embedding_metrics(const Topology& network,
                                   const std::vector<std::uint32_t>& placement) {
  const std::uint32_t nodes = network.nodes();
  if (placement.size() != nodes || (nodes & (nodes - 1)) != 0) {
    throw std::invalid_argument("embedding_metrics: a placement of all 2^d network nodes");
  }
  std::vector<bool> used(nodes, false);
  for (std::uint32_t v : placement) {
    if (v >= nodes || used[v]) {
      throw std::invalid_argument("embedding_metrics: the placement is not a bijection");
    }
    used[v] = true;
  }
  EmbeddingMetrics m;
  while ((1U << m.cube) < nodes) {
    ++m.cube;
  }
  m.distance.assign(m.cube, std::vector<std::uint32_t>(nodes, 0));
  m.loads.assign(nodes, 0);
  m.dimension_loads.assign(m.cube, std::vector<std::uint64_t>(nodes, 0));
  for (std::uint32_t i = 0; i < m.cube; ++i) {
    for (std::uint32_t n = 0; n < nodes; ++n) {
      const std::uint32_t other = n ^ (1U << i);
      if (n > other) {
        m.distance[i][n] = m.distance[i][other];
        continue;
      }
      const auto route = network.route(placement[n], placement[other], HalfRingTie::MeshPath);
      const auto dilation = static_cast<std::uint32_t>(route.size());
      m.distance[i][n] = dilation;
      ++m.dilation_spectrum[dilation];
      m.total_dilation += dilation;
      m.longest_dilation = std::max(m.longest_dilation, dilation);
      // Every hop but the first leaves a node the route passes through.
      for (std::size_t h = 1; h < route.size(); ++h) {
        ++m.loads[route[h].first];
        ++m.dimension_loads[i][route[h].first];
      }
    }
  }
  const std::uint64_t links = std::uint64_t{m.cube} * (nodes / 2);
  m.average_dilation =
      links == 0 ? 0.0 : static_cast<double>(m.total_dilation) / static_cast<double>(links);
  m.load_max = *std::max_element(m.loads.begin(), m.loads.end());
  m.load_min = *std::min_element(m.loads.begin(), m.loads.end());
  std::uint64_t load_sum = 0;
  for (std::uint64_t l : m.loads) {
    load_sum += l;
  }
  m.load_average = static_cast<double>(load_sum) / static_cast<double>(nodes);
  std::vector<std::uint32_t> stages(m.cube);
  for (std::uint32_t i = 0; i < m.cube; ++i) {
    stages[i] = i;
  }
  m.cc_cube_time_tc = cc_cube_time(m.distance, stages, [](std::uint32_t h) { return h; });
  return m;
}

std::uint64_t cc_cube_time(const std::vector<std::vector<std::uint32_t>>& distance,
                           const std::vector<std::uint32_t>& stages,
                           const std::function<std::uint64_t(std::uint32_t)>& cost) {
  if (distance.empty()) {
    return 0;
  }
  const auto nodes = static_cast<std::uint32_t>(distance.front().size());
  std::vector<std::uint64_t> t(nodes, 0);
  std::vector<std::uint64_t> next(nodes);
  for (std::uint32_t i : stages) {
    for (std::uint32_t n = 0; n < nodes; ++n) {
      next[n] = cost(distance.at(i)[n]) + std::max(t[n], t[n ^ (1U << i)]);
    }
    t.swap(next);
  }
  return *std::max_element(t.begin(), t.end());
}

const std::vector<XorTableRow>& xor_table1_printed() {
  // [XOR] Table I: per torus, the standard embedding's minimum and maximum load, then the xor
  // embedding's.
  static const std::vector<XorTableRow> rows = {
      {{1, 8}, 0, 3, 1, 1},     {{2, 4}, 0, 1, 0, 0},      {{1, 16}, 0, 8, 3, 4},
      {{2, 8}, 0, 3, 1, 1},     {{4, 4}, 0, 2, 0, 0},      {{8, 8}, 0, 6, 2, 2},
      {{16, 16}, 0, 16, 6, 8},  {{16, 32}, 0, 26, 10, 14}, {{32, 32}, 0, 36, 14, 20},
      {{32, 64}, 0, 57, 22, 33}};
  return rows;
}

}  // namespace orthosim::sw
