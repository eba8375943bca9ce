// The emulator behind the command line: each request becomes one run description for the one
// execution path (app/execution.hpp), whose results the models return in the CLI's vocabulary.
// One elaboration per process: each method is called at most once by `orthosim`.
#pragma once

#include "sw/run/runner.hpp"

namespace orthosim::app {

class SystemRunner : public sw::Runner {
 public:
  sw::RunSummary run_access(const sw::AccessRequest& request) override;
  std::vector<sw::RunSummary> run_programs(std::vector<sw::SystemRun> runs) override;
  sw::NetworkRunSummary run_network(const sw::NetworkRunRequest& request) override;
  std::vector<sw::TrafficPoint> run_traffic(const sw::TrafficRequest& request) override;
  sw::MixedRunResult run_mixed(const std::vector<sw::SystemRun>& systems,
                               const std::vector<sw::NetworkRunRequest>& networks) override;
};

}  // namespace orthosim::app
