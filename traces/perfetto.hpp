// Export of an event trace as Chrome trace-event JSON (the "JSON Array/Object Format" that
// ui.perfetto.dev and chrome://tracing open): one process per system, one thread (track) per
// processor, bus and router output port and virtual channel, complete events ("ph":"X") that never
// overlap on a track. Times are microseconds (ts, dur), from cycles x the clock period.
#pragma once

#include <string>

namespace orthosim::traces {

/// Reads the event trace at `trace_path` and writes OUT through sw::OutputFile. Throws
/// sw::InputError for a malformed trace, sw::OutputPathError if OUT cannot be an output and
/// std::runtime_error if writing it fails.
void export_perfetto(const std::string& trace_path, const std::string& out_path);

}  // namespace orthosim::traces
