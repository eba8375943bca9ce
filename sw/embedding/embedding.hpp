// Embeddings of a d-cube (the communication graph of a hypercube algorithm, 2^d processes) onto a
// network of 2^d nodes: a line or ring, a c-dimensional mesh or torus (c = 1..3, power-of-two
// radices) or a hypercube. Cube node n runs on network node placement[n], in the network's own
// numbering (Topology: axis 0 varies fastest). Free of SystemC.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sw/topology/topology.hpp"

namespace orthosim::sw {

enum class EmbeddingScheme : std::uint8_t { Std, StdInterleaved, Xor, Byweight, Identity };

/// "std", "std-interleaved", "xor", "byweight", "identity".
[[nodiscard]] std::string to_string(EmbeddingScheme scheme);
/// The names of every scheme, as parse_embedding_scheme() takes them.
[[nodiscard]] std::vector<std::string> embedding_scheme_names();
/// Throws ParameterError keyed `parameter` for a name embedding_scheme_names() lacks.
[[nodiscard]] EmbeddingScheme parse_embedding_scheme(const std::string& text,
                                                     const std::string& parameter = "scheme");

/// The d-cube embedded onto `network` by `scheme`: a bijection, placement[n] is where cube node n
/// runs. The cube's bits are cut into one field per axis, axis 0 the lowest bits ([XOR] II.C: a
/// (2^d1, ..., 2^dc) network; the field of axis j is bits K_j .. K_j + d_j - 1, K_j = d_1 + ... +
/// d_(j-1)), except in std-interleaved.
///  - std ([XOR] II.C): axis j's coordinate is its field, p_j = (n div 2^K_j) mod 2^d_j; in the
///    network's numbering this is placement[n] = n.
///  - std-interleaved ([CALMANT] section 2.3, m_(j,l) = n_(j + l c)): cube dimension i goes to
///    axis i mod c, bit i div c. When the axes have different bit counts the dimensions are dealt
///    round-robin to the axes that still have a free bit.
///  - xor ([XOR] III.B): in each field of d_j >= 2 bits, bit d_j - 2 of the coordinate is the xor
///    of the field's two top bits, m_j(d_j - 2) = n(K_j + d_j - 1) XOR n(K_j + d_j - 2), the other
///    bits are copied; a field of fewer than 2 bits is copied.
///  - byweight ([XOR] II.C, Fig. 3a): on a line the labels in order of weight (number of 1s),
///    equal weights in descending order, placed left to right. On a mesh or torus each axis
///    takes the byweight order of its own field (our reading of the garbled Fig. 3b, which shows a
///    5-cube on an (8, 4) mesh without legible labels; docs/embeddings.md).
///  - identity: cube node n on hypercube node n ([XOR] IV.A, "f(n) = n").
/// Throws ParameterError keyed "dims" when a radix is not a power of two, keyed "cube" when 2^cube
/// differs from the node count, keyed "scheme" for identity onto a mesh or torus or a mesh scheme
/// onto a hypercube.
[[nodiscard]] std::vector<std::uint32_t> embed_hypercube(std::uint32_t cube,
                                                         const Topology& network,
                                                         EmbeddingScheme scheme);

}  // namespace orthosim::sw
