#include "sw/cli/version.hpp"

#include "sw/cli/build_info.hpp"

namespace orthosim::sw::cli {

std::string project_version() { return build_info::kVersion; }

nlohmann::json version_json() {
  return {{"orthosim", build_info::kVersion},
          {"commit", build_info::kGitCommit},
          {"build_type", build_info::kBuildType},
          {"systemc", build_info::kSystemcVersion},
          {"verilator", build_info::kVerilatorVersion}};
}

void print_version(std::ostream& out) {
  out << "orthosim " << build_info::kVersion << '\n'
      << "commit: " << build_info::kGitCommit << '\n'
      << "build type: " << build_info::kBuildType << '\n'
      << "SystemC: " << build_info::kSystemcVersion << '\n'
      << "Verilator: " << build_info::kVerilatorVersion << '\n';
}

}  // namespace orthosim::sw::cli
