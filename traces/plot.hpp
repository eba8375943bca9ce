// `orthosim trace plot`: SVG pictures of a run (traces/svg.hpp), docs/traces.md.
#pragma once

#include <array>
#include <string>
#include <vector>

namespace orthosim::traces {

/// The files the plots below write into their folder, each under its one name.
inline constexpr const char* kTimelineSvg = "timeline.svg";
inline constexpr const char* kNetworkSvg = "network.svg";
inline constexpr const char* kChannelsSvg = "channels.svg";
inline constexpr const char* kLatencySvg = "latency.svg";
inline constexpr const char* kLatencyThroughputSvg = "latency-throughput.svg";
inline constexpr const char* kSpeedupSvg = "speedup.svg";
/// Every one of them: a file `trace plot` reads must be none of them in its folder.
inline constexpr std::array<const char*, 6> kPlotFiles = {kTimelineSvg,          kNetworkSvg,
                                                          kChannelsSvg,          kLatencySvg,
                                                          kLatencyThroughputSvg, kSpeedupSvg};

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

/// From several outputs of `orthosim traffic --rates ... --json`: DIR/latency-throughput.svg,
/// one curve per file (its mean latency against accepted throughput, one point per rate, in the
/// group `curve-K` for the K-th file), keyed by labels[K-1] (the file names, unless the caller names the curves), the latency axis
/// logarithmic (saturated and contention-free runs differ by orders of magnitude). Every file is
/// read before anything is written; a bad one throws InputError naming it (and line:column for
/// a syntax error). `title` may be empty. Throws std::invalid_argument unless there is one label
/// per file.
std::vector<std::string> plot_traffic_jsons(const std::vector<std::string>& json_paths,
                                            const std::vector<std::string>& labels,
                                            const std::string& title, const std::string& dir);

/// Whether the file is the output of `orthosim calmant --complete-exchange --json`.
bool is_complete_exchange_json(const std::string& json_path);

/// From one or more outputs of `orthosim calmant --complete-exchange ... --json`:
/// DIR/speedup.svg, [CALMANT] Figs. 9 and 10's picture: against the block size B (a base-2
/// logarithmic axis), the speed-up over the original CC-cube of CALMANT at its best Q and of the
/// direct method (when it ran), two curves per file (`curve-K` groups, CALMANT's first), named
/// "LABEL CALMANT" and "LABEL direct". Every file is read before anything is written; a bad one
/// throws InputError naming it. Throws std::invalid_argument unless there is one label per file.
std::vector<std::string> plot_complete_exchange_jsons(const std::vector<std::string>& json_paths,
                                                      const std::vector<std::string>& labels,
                                                      const std::string& title,
                                                      const std::string& dir);

}  // namespace orthosim::traces
