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
/// Most messages and compute phases a program may expand to, in all: one alltoall on the most
/// nodes (4096 x 4095) fits, and a short file cannot make the parser allocate gigabytes.
inline constexpr std::uint64_t kMaxProgramExpansion = std::uint64_t{1} << 24;

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
