// A multicomputer program run natively on a network (docs/architecture.md, multicomputer side): each node
// executes its steps: compute, send its messages (unblocked: handed to the network interface),
// receive the messages addressed to it in the step (blocked until each has fully arrived), then
// passes a step mark. Program node i runs on network node embedding[i]. Free of SystemC.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "sw/machine/machine_program.hpp"
#include "sw/program/program.hpp"

namespace orthosim::sw {

namespace routed {
struct Compute {
  Cycle cycles;
};
/// Hand message `message` (an index into RoutedProgram::messages) to the network interface.
struct Send {
  std::uint32_t message = 0;
};
/// Block until message `message` has fully arrived.
struct Receive {
  std::uint32_t message = 0;
};
/// The end of program step `step` on this node (zero cost, recorded).
struct StepEnd {
  std::uint32_t step = 0;
};
using Op = std::variant<Compute, Send, Receive, StepEnd>;
}  // namespace routed

struct RoutedProgram {
  std::string name;
  std::uint32_t program_nodes = 0;
  std::uint32_t network_nodes = 0;
  std::uint32_t steps = 0;
  std::vector<std::vector<routed::Op>> ops;  ///< per network node
  /// The delivery manifest: source and destination are network nodes, addresses are in their
  /// local memories; every word is checked after the run (sw/machine/delivery_check.hpp).
  MachineProgram manifest;
  std::uint32_t local_words = 0;  ///< the largest local memory a node needs
  /// Every step ends with a barrier of no cost: no node begins step k+1 before every node has
  /// passed the end of step k (`run --lockstep`). The lockstep model of [CALMANT] section 2.5 and
  /// [A2A]'s steps: a schedule's steps then meet on the network only as the schedule says.
  bool lockstep = false;
};

/// The identity embedding of `nodes` program nodes.
[[nodiscard]] std::vector<std::uint32_t> identity_embedding(std::uint32_t nodes);

/// Reads a node map: one network node number per program node, in program-node order, separated
/// by white space or commas; '#' starts a comment. Throws InputError with file:line:col for a
/// byte that is not UTF-8 text, a malformed number, a node outside the network, a network node
/// used twice, or a count that is not the program's node count; InputError{path} for a file that
/// cannot be read under the limits of sw/core/input_file.hpp. `placed` names what an entry places
/// in the count's refusal: a "program node", or traffic's "pattern node".
[[nodiscard]] std::vector<std::uint32_t> read_embedding_file(
    const std::string& path, std::uint32_t program_nodes, std::uint32_t network_nodes,
    const std::string& placed = "program node");
/// The same from text (file_name is used in the locations).
[[nodiscard]] std::vector<std::uint32_t> parse_embedding(
    const std::string& text, const std::string& file_name, std::uint32_t program_nodes,
    std::uint32_t network_nodes, const std::string& placed = "program node");

/// Compiles `program` for a network of `network_nodes` nodes. Throws ParameterError keyed "embedding"
/// when the program has more nodes than the network or the embedding does not fit.
[[nodiscard]] RoutedProgram route_program(const McProgram& program, std::uint32_t network_nodes,
                                          const std::vector<std::uint32_t>& embedding);
/// The same, consuming `program`: each of its steps is freed once routed, so the program as read
/// and the routed program are never both held whole.
[[nodiscard]] RoutedProgram route_program(McProgram&& program, std::uint32_t network_nodes,
                                          const std::vector<std::uint32_t>& embedding);

}  // namespace orthosim::sw
