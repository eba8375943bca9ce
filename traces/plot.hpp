// `orthosim trace plot`: SVG pictures of a run (traces/svg.hpp), docs/traces.md.
#pragma once

#include <string>
#include <vector>

namespace orthosim::traces {

/// From an event trace: DIR/timeline.svg (a Gantt chart of every processor's activity and every
/// bus's accesses) or, for a trace of messages alone (synthetic traffic), DIR/network.svg (packets
/// in flight and channel utilization over time); DIR/channels.svg (utilization of every router
/// output port, with a colour scale, when the trace has network traffic) and DIR/latency.svg (the
/// message latency histogram, when messages were delivered). Returns the files written. The chart has at most 1000 columns: a column longer
/// than a cycle shows what took most of its time, so the picture stays small for long runs.
std::vector<std::string> plot_event_trace(const std::string& trace_path, const std::string& dir);

/// From the output of `orthosim traffic --rates ... --json`: DIR/latency-throughput.svg, mean
/// and p99 latency against accepted throughput, one point per rate.
std::vector<std::string> plot_traffic_json(const std::string& json_path, const std::string& dir);

}  // namespace orthosim::traces
