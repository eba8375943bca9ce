// The hypercube embedding schemes ([XOR] sections II.C and III, [CALMANT] section 2.3).
#include "sw/embedding/embedding.hpp"

#include <algorithm>

#include "sw/core/diagnostic.hpp"

namespace orthosim::sw {

namespace {

const std::vector<std::pair<EmbeddingScheme, std::string>>& scheme_table() {
  static const std::vector<std::pair<EmbeddingScheme, std::string>> table = {
      {EmbeddingScheme::Std, "std"},
      {EmbeddingScheme::StdInterleaved, "std-interleaved"},
      {EmbeddingScheme::Xor, "xor"},
      {EmbeddingScheme::Byweight, "byweight"},
      {EmbeddingScheme::Identity, "identity"}};
  return table;
}

std::uint32_t bit(std::uint32_t value, std::uint32_t i) { return (value >> i) & 1U; }

std::uint32_t weight(std::uint32_t value) {
  std::uint32_t count = 0;
  for (; value != 0; value &= value - 1) {
    ++count;
  }
  return count;
}

/// position[v] for the d-bit labels v in [XOR] Fig. 3a's order: by weight, then descending.
std::vector<std::uint32_t> byweight_positions(std::uint32_t bits) {
  std::vector<std::uint32_t> order(std::size_t{1} << bits);
  for (std::uint32_t v = 0; v < order.size(); ++v) {
    order[v] = v;
  }
  std::sort(order.begin(), order.end(), [](std::uint32_t a, std::uint32_t b) {
    return weight(a) != weight(b) ? weight(a) < weight(b) : a > b;
  });
  std::vector<std::uint32_t> position(order.size());
  for (std::uint32_t p = 0; p < order.size(); ++p) {
    position[order[p]] = p;
  }
  return position;
}

/// [XOR] III: bit d_j - 2 of a field of d_j >= 2 bits becomes the xor of its two top bits.
std::uint32_t xor_field(std::uint32_t field, std::uint32_t bits) {
  if (bits < 2) {
    return field;
  }
  const std::uint32_t low = bits - 2;
  const std::uint32_t mixed = bit(field, bits - 1) ^ bit(field, low);
  return (field & ~(1U << low)) | (mixed << low);
}

}  // namespace

std::string to_string(EmbeddingScheme scheme) {
  for (const auto& [s, name] : scheme_table()) {
    if (s == scheme) {
      return name;
    }
  }
  return "?";
}

std::vector<std::string> embedding_scheme_names() {
  std::vector<std::string> names;
  for (const auto& entry : scheme_table()) {
    names.push_back(entry.second);
  }
  return names;
}

EmbeddingScheme parse_embedding_scheme(const std::string& text, const std::string& parameter) {
  std::string all;
  for (const auto& [scheme, name] : scheme_table()) {
    if (name == text) {
      return scheme;
    }
    all += (all.empty() ? "" : ", ") + name;
  }
  throw ParameterError(parameter, "one of " + all, "'" + text + "'");
}

std::vector<std::uint32_t> embed_hypercube(std::uint32_t cube, const Topology& network,
                                           EmbeddingScheme scheme) {
  const bool onto_cube = network.kind() == TopologyKind::Hypercube;
  if (onto_cube != (scheme == EmbeddingScheme::Identity)) {
    throw ParameterError("scheme",
                         onto_cube ? "identity onto a hypercube"
                                   : "std, std-interleaved, xor or byweight onto a line, ring, "
                                     "mesh or torus",
                         to_string(scheme) + " onto the " + network.to_string());
  }
  // The bit count of each axis field (d_j: radix 2^d_j).
  std::vector<std::uint32_t> bits;
  std::uint32_t total = 0;
  for (std::uint32_t k : network.radices()) {
    if ((k & (k - 1)) != 0) {
      throw ParameterError("dims", "power-of-two radices", network.to_string());
    }
    std::uint32_t b = 0;
    while ((1U << b) < k) {
      ++b;
    }
    bits.push_back(b);
    total += b;
  }
  if (total != cube) {
    throw ParameterError("cube",
                         "a cube of the network's " + std::to_string(network.nodes()) +
                             " nodes (2^" + std::to_string(total) + ")",
                         "2^" + std::to_string(cube) + " nodes");
  }
  const std::uint32_t nodes = network.nodes();
  const std::uint32_t axes = network.dimensions();
  // Where cube dimension i lands: axis and bit within the axis' coordinate.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> lands;
  if (scheme == EmbeddingScheme::StdInterleaved) {
    std::vector<std::uint32_t> used(axes, 0);
    std::uint32_t axis = 0;
    for (std::uint32_t i = 0; i < cube; ++i) {
      while (used[axis] == bits[axis]) {
        axis = (axis + 1) % axes;
      }
      lands.emplace_back(axis, used[axis]++);
      axis = (axis + 1) % axes;
    }
  } else {
    for (std::uint32_t axis = 0; axis < axes; ++axis) {
      for (std::uint32_t b = 0; b < bits[axis]; ++b) {
        lands.emplace_back(axis, b);
      }
    }
  }
  std::vector<std::vector<std::uint32_t>> byweight(axes);
  if (scheme == EmbeddingScheme::Byweight) {
    for (std::uint32_t axis = 0; axis < axes; ++axis) {
      byweight[axis] = byweight_positions(bits[axis]);
    }
  }
  std::vector<std::uint32_t> placement(nodes);
  std::vector<std::uint32_t> coords(axes);
  for (std::uint32_t n = 0; n < nodes; ++n) {
    std::fill(coords.begin(), coords.end(), 0);
    for (std::uint32_t i = 0; i < cube; ++i) {
      coords[lands[i].first] |= bit(n, i) << lands[i].second;
    }
    for (std::uint32_t axis = 0; axis < axes; ++axis) {
      if (scheme == EmbeddingScheme::Xor) {
        coords[axis] = xor_field(coords[axis], bits[axis]);
      } else if (scheme == EmbeddingScheme::Byweight) {
        coords[axis] = byweight[axis][coords[axis]];
      }
    }
    placement[n] = network.node_at(coords);
  }
  return placement;
}

}  // namespace orthosim::sw
