// Programs of the multicomputers that [PH91] section 5 maps onto the OMP: hypercube dimension
// exchanges (Figs. 9, 10) and torus shifts (Fig. 11). The other patterns of Tables 2, 4 and 5
// (one-to-one, broadcasts, personalized) are generate_pattern's C1, C3, C6, C4 and C7.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sw/program/program.hpp"

namespace orthosim::sw {

/// On a 2^p-node hypercube, every node exchanges `words` words with its neighbour across each
/// dimension of `dims` (bit k of the node number is dimension x_k): one step per dimension, or
/// with `together` one step in which every node sends to all those neighbours ([PH91] section
/// 5.1: "all n nodes can simultaneously send and receive messages to and from all its log n
/// neighbors"). Throws ParameterError on nodes (not a power of two) or dims (a dimension >= p,
/// repeated, or none).
[[nodiscard]] McProgram hypercube_exchange(std::uint32_t nodes,
                                           const std::vector<std::uint32_t>& dims,
                                           std::uint32_t words, bool together);

/// The CC d-cube algorithm of [XOR] section II.A ([CALMANT] section 2.2's CC-cube) on 2^dim
/// processes: one step per stage; stage s is a computation of `compute` cycles on every process
/// followed by an exchange of `words` words with the neighbour across cube dimension dims[s]
/// (hypercube_exchange's steps, labelled "stage s", each with its computation). Throws
/// ParameterError on dim for a dimension outside 1..16, and as hypercube_exchange on dims and len.
[[nodiscard]] McProgram cc_cube(std::uint32_t dim, const std::vector<std::uint32_t>& dims,
                                std::uint32_t words, Cycle compute);

enum class ShiftDirection : std::uint8_t { East, West, North, South };
[[nodiscard]] std::string to_string(ShiftDirection d);
/// Parses "east", "west", "north", "south"; throws ParameterError on direction.
[[nodiscard]] ShiftDirection parse_shift_direction(const std::string& text);

/// On a torus of `columns` x `rows` nodes (node = x + columns * y, x the column), every node sends
/// `words` words to the node `distance` away: east is +x, west -x, north +y, south -y, wrapping
/// around ([PH91] section 5.3: "east, west, north and south" rotate steps; Fig. 11(b) is a +2
/// east shift). Throws ParameterError on distance when the shift is 0 modulo the ring.
[[nodiscard]] McProgram torus_shift(std::uint32_t columns, std::uint32_t rows,
                                    ShiftDirection direction, std::uint32_t distance,
                                    std::uint32_t words);

}  // namespace orthosim::sw
