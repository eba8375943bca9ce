// The `orthosim` command line: subcommands, their options (Boost.Program_options), and what they
// print (tables by default, JSON with --json). The emulator itself is behind Runner.
#pragma once

#include <chrono>
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

/// What the command line knows of its standard error for the progress line of long runs
/// (docs/cli.md, Progress): drawn only on a terminal, once a run has lasted `after`.
struct ProgressSettings {
  bool stderr_is_terminal = false;
  std::chrono::milliseconds after{1000};
};

/// The settings for a standard error that is a terminal or not, with `after_ms` the value of
/// ORTHOSIM_PROGRESS_AFTER_MS (null when unset). Throws InputError naming the variable when it is
/// not a number of milliseconds.
ProgressSettings progress_settings(bool stderr_is_terminal, const char* after_ms);

/// Runs `orthosim args...` (args exclude the program name) and returns the exit code: kExitRunFailed
/// too, with a line on `err`, when `out` could not take the whole output.
int run_cli(const std::vector<std::string>& args, Runner& runner, std::ostream& out,
            std::ostream& err, const ProgressSettings& progress = {});

/// Checks `orthosim args...` exactly as run_cli parses and validates it, and runs nothing: the
/// command stops where it would hand its request to the Runner. Returns kExitOk when every input
/// was accepted, else run_cli's code with its one-line error on `err`. Meant for the commands
/// whose only effects go through the Runner (run, traffic, access, demo, tables).
int check_cli(const std::vector<std::string>& args, std::ostream& err);

}  // namespace orthosim::sw
