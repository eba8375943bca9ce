// What a sweep runs (docs/sweeps.md): the cross product of variant files and parameter values,
// each point one child `orthosim run|traffic` (its command line is sw/cli's), and the CSV row
// it becomes: point, variant, every variant field after the overrides, the parameters that are not
// fields, the measured figures, the wall time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sw/variant/variant.hpp"

namespace orthosim::sw::sweep {

/// A program file run with `orthosim run`, or synthetic traffic (`traffic:PATTERN`) run with
/// `orthosim traffic --pattern PATTERN`.
enum class TargetKind : std::uint8_t { Program, Traffic };

/// `--param alpha=8,16,32`: an option of the child command and its values.
struct Param {
  std::string name;
  std::vector<std::string> values;
};

struct SweepSpec {
  std::string target;  ///< as given: a program path or traffic:PATTERN
  TargetKind kind = TargetKind::Program;
  std::vector<std::string> variant_paths;
  std::vector<Variant> variants;  ///< parsed, one per path
  std::vector<Param> params;
};

/// One run: a variant and one value of each parameter.
struct Point {
  std::size_t index = 0;
  std::size_t variant = 0;
  std::vector<std::size_t> values;  ///< per parameter, the index of its value
};

/// Parses "NAME=V1,V2,..."; errors are ParameterErrors keyed "param".
Param parse_param(const std::string& text);
/// The kind of `target`: traffic:PATTERN, or a program file.
TargetKind target_kind(const std::string& target);
/// "orthosim traffic --pattern" takes PATTERN from traffic:PATTERN.
std::string traffic_pattern(const std::string& target);
/// The child command: "run" or "traffic".
std::string child_command(TargetKind kind);

/// Variants outermost, then the parameters in the order given, the last one fastest.
std::vector<Point> enumerate_points(const SweepSpec& spec);
/// The CSV header: point, variant, the variant fields, the other parameters, the figures, wall_s.
std::vector<std::string> header(const SweepSpec& spec);
/// One row from the child's exit code and --json output. Throws std::runtime_error when the
/// output is not the JSON of the child command.
std::vector<std::string> row(const SweepSpec& spec, const Point& point, int exit_code,
                             const std::string& json_text, double wall_seconds);
/// The columns of the measured figures for `kind` (the header's part after the fields).
const std::vector<std::string>& figure_columns(TargetKind kind);

/// Identifies a sweep for resuming: the target, the variants and parameters, and the contents of
/// the program and variant files (a changed file is a different sweep).
std::string signature(const SweepSpec& spec);

}  // namespace orthosim::sw::sweep
