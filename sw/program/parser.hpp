// The parser of the .mcp multicomputer program text format (docs/program-format.md): text in, an
// expanded McProgram out, or an InputError that says file:line:col, what was expected and what
// was found. The parser also enforces the per-step rules of [PH91] Theorem 1, property 1, so
// that every later layer may assume them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "sw/program/program.hpp"

namespace orthosim::sw {

/// Largest `nodes` value the format accepts (m).
inline constexpr std::uint32_t kMaxProgramNodes = 4096;
/// Largest message length, in words, the format accepts.
inline constexpr std::uint32_t kMaxMessageWords = 1u << 20;

/// Parses `text` as a .mcp program. `file_name` is used in error locations, and its stem (the
/// name without folders and extension) becomes the program's name. Collectives and node lists
/// are expanded into one Transfer per source and one ComputePhase per node.
/// Throws InputError{file_name, line, column}: first at a byte that is not UTF-8 text (a control
/// character, an invalid UTF-8 sequence: check_text), else at the first error in file order.
[[nodiscard]] McProgram parse_program(std::string_view text, const std::string& file_name);

/// Reads and parses the .mcp file at `path` ("-": standard input, named "<stdin>") under the
/// limits of sw/core/input_file.hpp; the program's name is the file's stem. Throws
/// InputError{path} ("a readable .mcp file") if the file cannot be read, and the errors of
/// parse_program otherwise.
[[nodiscard]] McProgram read_program_file(const std::string& path);

}  // namespace orthosim::sw
