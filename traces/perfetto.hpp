// Export of an event trace as Chrome trace-event JSON (the "JSON Array/Object Format" that
// ui.perfetto.dev and chrome://tracing open): one process per system, one thread (track) per
// processor, bus and router output port and virtual channel, complete events ("ph":"X") that never
// overlap on a track. Times are microseconds (ts, dur), from cycles x the clock period.
#pragma once

#include <string>

namespace orthosim::traces {

/// Reads the event trace at `trace_path` and writes OUT (as OUT.partial, renamed when complete).
/// Throws sw::InputError for a malformed trace, std::runtime_error if OUT cannot be written.
void export_perfetto(const std::string& trace_path, const std::string& out_path);

}  // namespace orthosim::traces
