// The one execution path of `orthosim`: every command describes its run (the systems, what each
// runs, where its outputs go) and hands the description to execute(), which opens the outputs,
// builds the systems, opens the FST files, puts in the test fault, loads, runs, finishes the
// files and returns the models' results. One elaboration per process: called at most once.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sw/core/progress.hpp"
#include "sw/run/run_summary.hpp"
#include "sw/run/runner.hpp"
#include "sw/traffic/traffic_point.hpp"

namespace orthosim::app {

/// What one `orthosim` process runs.
struct RunDescription {
  /// Multiprocessors, run side by side.
  std::vector<sw::SystemRun> systems;
  /// Networks with a routed program, run one after another once the multiprocessors are done
  /// (each network's cycles count from its own load).
  std::vector<sw::NetworkRunRequest> networks;
  /// A network with synthetic traffic, one run per rate, after everything else.
  std::optional<sw::TrafficRequest> traffic;
  /// The missing folders of the output files are created (and removed again on failure).
  bool create_folders = false;
  /// How the systems are named in the outputs: by kind ("omp", "omp1", "torus"), or with their
  /// index in the description ("mp0_omp", "net0_torus") for a run that mixes many of them.
  bool indexed_names = false;
  /// Whether ORTHOSIM_TEST_FAULT is honoured (docs/rtl.md).
  bool test_fault = true;
};

/// The models' results, each list in the order of the description.
struct RunOutcome {
  std::vector<sw::RunSummary> systems;
  std::vector<sw::NetworkRunSummary> networks;
  std::vector<sw::TrafficPoint> traffic;
};

/// Runs `description`, reporting the simulated cycles of each run to `progress`. Throws
/// sw::InputError / sw::ConfigError before anything runs on bad input or an unwritable output; a
/// co-simulation mismatch stops the run and leaves the FST file FILE.partial (the results say
/// where).
[[nodiscard]] RunOutcome execute(RunDescription description, sw::Progress& progress);

}  // namespace orthosim::app
