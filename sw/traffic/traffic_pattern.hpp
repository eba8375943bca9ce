// Synthetic traffic for the multicomputer networks: which node each message goes to. The three
// permutations of [LCC] section 6.1 (matrix transpose, bit-reverse, reverse-flip), any LCC
// y = Ax + b ([LCC] Definition 1), and uniform random traffic, the usual baseline of network
// simulation. Deterministic for a seed on every standard library (no std::*_distribution).
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "sw/topology/topology.hpp"
#include "sw/topology/topology_description.hpp"
#include "sw/traffic/lcc.hpp"

namespace orthosim::sw {

/// Synthetic traffic destinations ([LCC] section 6; usual network-simulation patterns).
enum class PatternKind : std::uint8_t { Uniform, Transpose, BitReverse, ReverseFlip, Lcc };

/// "uniform", "transpose", "bitrev", "reverse-flip", "lcc" (the names parse_traffic_pattern reads).
[[nodiscard]] std::string to_string(PatternKind kind);

/// A traffic pattern fitted to one topology by parse_traffic_pattern.
struct TrafficPattern {
  PatternKind kind = PatternKind::Uniform;
  /// The LCC on the node numbers that gives the destination, set exactly when destination() uses
  /// it: for lcc, bitrev and reverse-flip, and for transpose on a hypercube. Empty for uniform
  /// and for transpose on a mesh or torus, which swaps coordinates instead (on a 2^m x 2^m grid
  /// that is the same map as Lcc::transpose(2m)).
  std::optional<Lcc> lcc;
  /// Where the pattern's nodes run (`--embedding`, [LCC] section 3's processor mapping): pattern
  /// node v on network node network_node[v], and pattern_node is the inverse. Both empty for the
  /// identity. Set by placed().
  std::vector<std::uint32_t> network_node;
  std::vector<std::uint32_t> pattern_node;
};

/// Parses "uniform" | "transpose" | "bitrev" | "reverse-flip" | "lcc:A,b" (A,b as Lcc::parse
/// reads them) for `topology`. Throws ParameterError keyed "pattern" for anything else, and when the
/// pattern does not fit the topology: the bit patterns and lcc need a power-of-two node count
/// 2^d (and A is d x d); transpose needs a mesh or torus with exactly 2 equal radices
/// ((x, y) -> (y, x)) or a hypercube with even d (the LCC swapping the low and high halves of
/// the address bits).
[[nodiscard]] TrafficPattern parse_traffic_pattern(const std::string& text,
                                                   const Topology& topology);

/// `p` with its node v running on network node network_node[v] (a node map as `--embedding`
/// reads it). Throws std::invalid_argument unless network_node holds each of 0..nodes-1 once.
[[nodiscard]] TrafficPattern placed(TrafficPattern p, std::vector<std::uint32_t> network_node,
                                    const Topology& topology);

/// The destination of a message from network node `src`: the pattern's destination of the
/// pattern node at src, placed (the identity unless placed() set a map). Uniform draws from
/// `rng` uniformly among the other nodes (never src); the permutation and LCC patterns ignore
/// `rng` and may return src itself (a node mapped to itself sends nothing). Throws
/// std::out_of_range for src >= nodes and std::invalid_argument when the pattern was not made
/// for a topology of this shape.
[[nodiscard]] std::uint32_t destination(const TrafficPattern& p, const Topology& t,
                                        std::uint32_t src, std::mt19937_64& rng);

/// [LCC] Theorem 1's T measured on the network: one round of the pattern, every network node
/// sending one message to its destination(), each routed by the network's routing (its first choice) from router to router;
/// the most messages that share one directed channel. None for uniform, whose destinations are
/// drawn at random.
[[nodiscard]] std::optional<std::uint64_t> round_contention(const TrafficPattern& p,
                                                            const Topology& t,
                                                            const TopologyDescription& network);

/// The text parse_traffic_pattern reads: "uniform", "transpose", ..., "lcc:A,b".
[[nodiscard]] std::string to_string(const TrafficPattern& p);

/// A number uniform in [0, n), n >= 1, by rejection from the 64-bit generator: draws below
/// 2^64 mod n are rejected so that every residue is equally likely. Portable (the sequence of
/// std::mt19937_64 is fixed by the standard; std::uniform_int_distribution's use of it is not).
[[nodiscard]] std::uint64_t uniform_below(std::mt19937_64& rng, std::uint64_t n);

}  // namespace orthosim::sw
