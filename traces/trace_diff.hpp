// `orthosim trace diff A B`: two event traces of the same program (two variants, or model
// against rtl) compared event by event and step by step (docs/traces.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "traces/event_trace_reader.hpp"
#include "traces/trace_stats.hpp"

namespace orthosim::traces {

struct TraceDivergence {
  std::uint64_t index = 0;   ///< 0-based event number where the traces first differ
  std::uint64_t line_a = 0;  ///< the lines in each file (0: that trace had ended)
  std::uint64_t line_b = 0;
  std::string event_a;  ///< the events with source names, or empty past the end
  std::string event_b;
};

struct TraceDiff {
  TraceStats a;
  TraceStats b;
  std::uint64_t events_a = 0;
  std::uint64_t events_b = 0;
  std::optional<TraceDivergence> first;  ///< none: the traces have the same events
  [[nodiscard]] bool equal() const { return !first.has_value(); }
};

/// Events compare by cycle, kind, fields and the names (not ids) of their sources; the clock
/// period is not compared (step cycles are). Throws sw::InputError for a malformed trace.
[[nodiscard]] TraceDiff diff_traces(const std::string& path_a, const std::string& path_b);

/// An event as text with its sources by name: "12 acc 25 omp.bc0 omp.rb0 row r 0 12 0 0 1 0,1".
[[nodiscard]] std::string describe_event(const TraceEvent& e, const TraceHeader& header);

}  // namespace orthosim::traces
