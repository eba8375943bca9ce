// The writer of the .mcp text format: a McProgram back to canonical text, e.g. to save a
// generated program or to show what a file expanded to. parse_program(format_program(p)) equals p
// in everything but source locations, for every program the parser accepts.
#pragma once

#include <string>

#include "sw/program/program.hpp"

namespace orthosim::sw {

/// Canonical .mcp text of `program`: a comment with its name, `nodes`, `words D` when the most
/// common message length D is not 1, then one `step` per step with its `compute` statements
/// (consecutive nodes with equal cycles share one) and one `send` or `bcast` per transfer, with
/// its explicit destination list (`all` when it is every other node) and `words L` when L != D.
/// The program is expected to satisfy the parser's rules (docs/program-format.md); text written
/// for one that does not will be rejected when read back.
[[nodiscard]] std::string format_program(const McProgram& program);

}  // namespace orthosim::sw
