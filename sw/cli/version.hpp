// The version of orthosim and of what it was built with: `orthosim --version` and the `version`
// field of every JSON output (docs/cli.md).
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

namespace orthosim::sw::cli {

/// The project version (CMake's project VERSION), "X.Y.Z".
[[nodiscard]] std::string project_version();

/// The same fields as JSON: {"orthosim", "commit", "build_type", "systemc", "verilator"}, the
/// `version` object of every JSON output.
[[nodiscard]] nlohmann::json version_json();

/// `orthosim --version`: the version, the git commit, the build type, and the SystemC and
/// Verilator versions, one "name: value" line each after the first.
void print_version(std::ostream& out);

}  // namespace orthosim::sw::cli
