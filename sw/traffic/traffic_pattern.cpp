// Traffic patterns: parsing against a topology and the destination of each source node.
#include "sw/traffic/traffic_pattern.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <stdexcept>
#include <utility>

#include "sw/core/diagnostic.hpp"
#include "sw/topology/routing.hpp"
#include "sw/topology/topology_description.hpp"

namespace orthosim::sw {

namespace {

constexpr const char* lcc_prefix = "lcc:";

/// d for 2^d nodes, or an InputError saying that `name` needs a power-of-two node count.
std::uint32_t bits_for(const std::string& name, const Topology& topology) {
  const std::optional<std::uint32_t> d = topology.address_bits();
  if (!d) {
    throw ParameterError("pattern", name + " on a power-of-two number of nodes",
                         std::to_string(topology.nodes()) + " nodes on the " +
                             topology.to_string());
  }
  return *d;
}

}  // namespace

std::string to_string(PatternKind kind) {
  switch (kind) {
    case PatternKind::Uniform:
      return "uniform";
    case PatternKind::Transpose:
      return "transpose";
    case PatternKind::BitReverse:
      return "bitrev";
    case PatternKind::ReverseFlip:
      return "reverse-flip";
    case PatternKind::Lcc:
      return "lcc";
  }
  return "?";
}

TrafficPattern parse_traffic_pattern(const std::string& text, const Topology& topology) {
  TrafficPattern out;
  if (text == "uniform") {
    out.kind = PatternKind::Uniform;
    return out;
  }
  if (text == "transpose") {
    out.kind = PatternKind::Transpose;
    if (topology.kind() == TopologyKind::Hypercube) {
      const std::uint32_t d = topology.dimensions();
      if (d % 2 != 0) {
        throw ParameterError(
            "pattern",
            "transpose on a hypercube of even dimension (it swaps the low and high "
            "halves of the address bits)",
            "the " + topology.to_string());
      }
      out.lcc = Lcc::transpose(d);
      return out;
    }
    const std::vector<std::uint32_t>& k = topology.radices();
    if (k.size() != 2 || k[0] != k[1]) {
      throw ParameterError(
          "pattern", "transpose on a square 2-dimensional mesh or torus (k x k), or a hypercube",
          "the " + topology.to_string());
    }
    return out;
  }
  if (text == "bitrev") {
    out.kind = PatternKind::BitReverse;
    out.lcc = Lcc::bit_reverse(bits_for("bitrev", topology));
    return out;
  }
  if (text == "reverse-flip") {
    out.kind = PatternKind::ReverseFlip;
    out.lcc = Lcc::reverse_flip(bits_for("reverse-flip", topology));
    return out;
  }
  if (text.compare(0, 4, lcc_prefix) == 0) {
    out.kind = PatternKind::Lcc;
    out.lcc = Lcc::parse(text.substr(4), bits_for("lcc", topology));
    return out;
  }
  throw ParameterError("pattern", "uniform, transpose, bitrev, reverse-flip or lcc:A,b",
                       "'" + text + "'");
}

TrafficPattern placed(TrafficPattern p, std::vector<std::uint32_t> network_node,
                      const Topology& topology) {
  std::vector<std::uint32_t> pattern_node(topology.nodes(), topology.nodes());
  if (network_node.size() != topology.nodes()) {
    throw std::invalid_argument("a node map of " + std::to_string(network_node.size()) +
                                " nodes for the " + topology.to_string());
  }
  for (std::uint32_t v = 0; v < network_node.size(); ++v) {
    if (network_node[v] >= topology.nodes() || pattern_node[network_node[v]] != topology.nodes()) {
      throw std::invalid_argument("a node map that is not a permutation of the nodes");
    }
    pattern_node[network_node[v]] = v;
  }
  p.network_node = std::move(network_node);
  p.pattern_node = std::move(pattern_node);
  return p;
}

namespace {

/// The pattern's own destination of pattern node `src`, placement aside.
std::uint32_t unplaced_destination(const TrafficPattern& p, const Topology& t, std::uint32_t src,
                                   std::mt19937_64& rng) {
  if (p.kind == PatternKind::Uniform) {
    // Uniform among the n-1 other nodes: draw r in [0, n-1) and skip over src.
    const auto r = static_cast<std::uint32_t>(uniform_below(rng, t.nodes() - 1U));
    return r >= src ? r + 1 : r;
  }
  if (p.kind == PatternKind::Transpose && !p.lcc) {
    const std::vector<std::uint32_t>& k = t.radices();
    if (t.kind() == TopologyKind::Hypercube || k.size() != 2 || k[0] != k[1]) {
      throw std::invalid_argument("transpose of coordinates on the " + t.to_string());
    }
    const std::vector<std::uint32_t> c = t.coordinates(src);
    return t.node_at({c[1], c[0]});
  }
  if (!p.lcc || t.address_bits() != p.lcc->d) {
    throw std::invalid_argument("traffic pattern " + to_string(p.kind) + " was not made for the " +
                                t.to_string());
  }
  return p.lcc->apply(src);
}

}  // namespace

std::uint32_t destination(const TrafficPattern& p, const Topology& t, std::uint32_t src,
                          std::mt19937_64& rng) {
  if (src >= t.nodes()) {
    throw std::out_of_range("source node " + std::to_string(src) + " outside the " + t.to_string());
  }
  if (p.network_node.empty()) {
    return unplaced_destination(p, t, src, rng);
  }
  if (p.network_node.size() != t.nodes()) {
    throw std::invalid_argument("traffic pattern placed on " +
                                std::to_string(p.network_node.size()) + " nodes, not the " +
                                t.to_string());
  }
  return p.network_node[unplaced_destination(p, t, p.pattern_node[src], rng)];
}

std::optional<std::uint64_t> round_contention(const TrafficPattern& p, const Topology& t,
                                              const TopologyDescription& network) {
  if (p.kind == PatternKind::Uniform) {
    return std::nullopt;
  }
  // Messages per directed channel: (router, output port).
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint64_t> messages;
  std::uint64_t most = 0;
  std::mt19937_64 unused;  // the fixed patterns draw nothing
  PortCandidates candidates;
  for (std::uint32_t src = 0; src < t.nodes(); ++src) {
    const std::uint32_t dest = destination(p, t, src, unused);
    std::uint32_t router = network.attachment(src).router;
    std::optional<std::uint32_t> in;  // injected at the source's router
    while (true) {
      network.routing().route(network, router, in, dest, candidates);
      if (candidates.empty()) {
        break;  // dest is attached here
      }
      const std::uint32_t port = candidates.front();  // the routing's first choice
      most = std::max(most, ++messages[{router, port}]);
      const PortLink& next = network.link(router, port).value();
      router = next.router;
      in = next.port;
    }
  }
  return most;
}

std::string to_string(const TrafficPattern& p) {
  if (p.kind == PatternKind::Lcc && p.lcc) {
    return lcc_prefix + p.lcc->to_string();
  }
  return to_string(p.kind);
}

std::uint64_t uniform_below(std::mt19937_64& rng, std::uint64_t n) {
  if (n == 0) {
    throw std::invalid_argument("uniform_below(0): an empty range");
  }
  // 2^64 mod n, computed without 128-bit arithmetic: (2^64 - n) mod n.
  const std::uint64_t reject_below = (std::numeric_limits<std::uint64_t>::max() - n + 1) % n;
  while (true) {
    const std::uint64_t x = rng();
    if (x >= reject_below) {
      return x % n;
    }
  }
}

}  // namespace orthosim::sw
