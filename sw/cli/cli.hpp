// The `orthosim` command line: subcommands, their options (Boost.Program_options), and what they
// print (tables by default, JSON with --json). The emulator itself is behind Runner.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "sw/run/runner.hpp"

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

/// Checks `orthosim args...` exactly as run_cli parses and validates it, and runs nothing: the
/// command stops where it would hand its request to the Runner. Returns kExitOk when every input
/// was accepted, else run_cli's code with its one-line error on `err`. Meant for the commands
/// whose only effects go through the Runner (run, traffic, access, demo, tables).
int check_cli(const std::vector<std::string>& args, std::ostream& err);

}  // namespace orthosim::sw
