// The `orthosim` command line: subcommands, their options (Boost.Program_options), and what they
// print (tables by default, JSON with --json). The emulator itself is behind Runner.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "sw/cli/runner.hpp"

namespace orthosim::sw {

/// Exit codes of `orthosim`.
enum ExitCode : int {
  kExitOk = 0,
  kExitRunFailed = 1,  ///< a run lost or corrupted a word, deadlocked, or missed its formula
  kExitBadInput = 2,   ///< bad arguments or inputs; nothing was run
};

/// Runs `orthosim args...` (args exclude the program name) and returns the exit code.
int run_cli(const std::vector<std::string>& args, Runner& runner, std::ostream& out,
            std::ostream& err);

}  // namespace orthosim::sw
