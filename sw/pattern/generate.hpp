// Program generators: one step that is exactly a Table 1 pattern ([PH91] section 2), and random
// valid programs for property tests and benchmarks. Deterministic for a seed on every standard
// library (no std::uniform_int_distribution).
#pragma once

#include <cstdint>
#include <vector>

#include "sw/pattern/pattern.hpp"
#include "sw/program/program.hpp"

namespace orthosim::sw {

/// What generate_pattern builds. Empty `sources` / `destinations` are chosen from `seed` so that
/// Table 1's ranges hold (1 < sr, ds < m-1 for C8-C12).
struct PatternGenOptions {
  std::uint32_t nodes = 0;  ///< m
  std::vector<NodeId> sources;
  std::vector<NodeId> destinations;
  std::uint32_t words = 1;  ///< length of every message
  std::uint64_t seed = 1;
};

/// A one-step program over o.nodes nodes whose step is exactly pattern p (classify() gives one
/// instance of p):
///  C1 one source -> one destination; C2 a permutation without fixed points of all nodes (a random
///  derangement; m >= 3, since on 2 nodes it is the exchange C7), or sources[i] -> destinations[i];
///  C3 / C4 one source -> all others; C5 all others -> one; C6 / C7 all -> all;
///  C8 / C9 one source -> ds destinations; C10 sr sources -> one;
///  C11 / C12 sr sources -> ds destinations, the two sets disjoint (so Table 1's sr.ds messages).
/// Throws ParameterError on nodes when m cannot hold p (C8-C12 need m >= 4), on sources / dests
/// when a given node is >= m, repeated, or the given sets are not pattern p (e.g. C8 to m-1
/// destinations is C3), and on len (the message length) for a zero length.
[[nodiscard]] McProgram generate_pattern(Pattern p, const PatternGenOptions& o);

/// A random valid program: every step non-empty, no message to oneself, each (source,
/// destination) pair at most once and each source at most one broadcast per step; personalized
/// and broadcast transfers mixed (some steps are whole Table 1 patterns), lengths 1..max_words,
/// occasional compute phases. The same arguments give the same program. Throws ParameterError
/// on nodes for m < 2, on steps for zero steps, on len for max_words = 0.
[[nodiscard]] McProgram generate_random(std::uint32_t nodes, std::uint32_t steps,
                                        std::uint64_t seed, std::uint32_t max_words = 8);

}  // namespace orthosim::sw
