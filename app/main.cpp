// orthosim: the executable. A thin main that hands the command line to sw/cli with the
// SystemC-backed runner.
#include <unistd.h>
#include <cstdlib>
#include <iostream>
#include <string>
#include <systemc>
#include <vector>

#include "app/system_runner.hpp"
#include "sc_models/kernel/clock_domain.hpp"
#include "sw/cli/cli.hpp"
#include "sw/core/diagnostic.hpp"

int sc_main(int argc, char* argv[]) {
  orthosim::sc::init_kernel();
  const std::vector<std::string> args(argv + 1, argv + argc);
  orthosim::sw::ProgressSettings progress;
  try {
    progress = orthosim::sw::progress_settings(isatty(STDERR_FILENO) != 0,
                                               std::getenv("ORTHOSIM_PROGRESS_AFTER_MS"));
  } catch (const orthosim::sw::InputError& e) {
    std::cerr << "orthosim: " << e.what() << '\n';
    return orthosim::sw::kExitBadInput;
  }
  orthosim::app::SystemRunner runner;
  return orthosim::sw::run_cli(args, runner, std::cout, std::cerr, progress);
}

// Our own main, so that the SystemC banner is off before the kernel prints it: command output
// (tables, JSON) is the only thing on stdout and stderr carries only errors.
int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
