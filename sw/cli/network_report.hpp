// What `orthosim run` on a network and `orthosim traffic` print: tables and JSON.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "sw/run/runner.hpp"

namespace orthosim::sw::cli {

/// "mesh 8x8, wormhole, one-port, t_s 0, 1-flit buffers, 1 VC, router delay 1".
[[nodiscard]] std::string describe(const NetworkConfig& c);
[[nodiscard]] nlohmann::json network_json(const NetworkConfig& c);

/// A routed program's run: per-step cycles, delivery, contention, channel occupancy.
struct NetworkProgramRun {
  const RoutedProgram& program;
  NetworkConfig config;
  NetworkRunSummary summary;
  std::optional<std::string> vcd_path;

  [[nodiscard]] Cycle step_cycles(std::size_t k) const;
  /// Step k's most messages through one channel.
  [[nodiscard]] std::uint64_t step_contention(std::size_t k) const;
  [[nodiscard]] bool ok() const { return summary.payload_ok(); }
};
[[nodiscard]] nlohmann::json network_run_json(const NetworkProgramRun& run);
void print_network_run(const NetworkProgramRun& run, std::ostream& out);

[[nodiscard]] nlohmann::json traffic_point_json(const TrafficPoint& p);
[[nodiscard]] nlohmann::json traffic_json(const TrafficRequest& request,
                                          const std::vector<TrafficPoint>& points, bool sweep);
void print_traffic(const TrafficRequest& request, const std::vector<TrafficPoint>& points,
                   std::ostream& out);

}  // namespace orthosim::sw::cli
