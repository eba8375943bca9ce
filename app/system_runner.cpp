// SystemC-backed Runner: each request becomes one run description for the one execution path.
#include "app/system_runner.hpp"

#include <utility>

#include "app/execution.hpp"

namespace orthosim::app {

sw::RunSummary SystemRunner::run_access(const sw::AccessRequest& request) {
  RunDescription d;
  d.systems.push_back({request.config, sw::make_access_program(request.config, request.workload),
                       request.vcd_path, "vcd", request.trace_path, request.fst_path});
  return std::move(execute(std::move(d), progress()).systems.front());
}

std::vector<sw::RunSummary> SystemRunner::run_programs(std::vector<sw::SystemRun> runs) {
  RunDescription d;
  d.systems = std::move(runs);
  d.create_folders = true;
  return execute(std::move(d), progress()).systems;
}

sw::NetworkRunSummary SystemRunner::run_network(const sw::NetworkRunRequest& request) {
  RunDescription d;
  d.networks = {request};
  d.create_folders = true;
  return std::move(execute(std::move(d), progress()).networks.front());
}

std::vector<sw::TrafficPoint> SystemRunner::run_traffic(const sw::TrafficRequest& request) {
  RunDescription d;
  d.traffic = request;
  return execute(std::move(d), progress()).traffic;
}

sw::MixedRunResult SystemRunner::run_mixed(const std::vector<sw::SystemRun>& systems,
                                           const std::vector<sw::NetworkRunRequest>& networks) {
  RunDescription d;
  d.systems = systems;
  d.networks = networks;
  d.indexed_names = true;
  d.test_fault = false;
  RunOutcome outcome = execute(std::move(d), progress());
  return {std::move(outcome.systems), std::move(outcome.networks)};
}

}  // namespace orthosim::app
