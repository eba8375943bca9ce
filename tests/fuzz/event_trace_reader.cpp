// Fuzz target of the event-trace reader (traces/event_trace_reader.hpp): every input, read from
// memory under the rules `orthosim trace` reads a file with, is read to its `end` line or
// rejected with file:line:col. A trace that reads is written again with the canonical writer
// (EventTraceRecorder) to a file and must read back from it to the same header and events, and
// `orthosim trace stats` (traces/trace_stats.hpp) must summarize it.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sw/core/input_file.hpp"
#include "tests/fuzz/fuzz_support.hpp"
#include "traces/event_trace.hpp"
#include "traces/event_trace_reader.hpp"
#include "traces/trace_stats.hpp"

namespace {

using orthosim::fuzz::require;
using orthosim::traces::TraceEvent;
using orthosim::traces::TraceHeader;

struct Trace {
  TraceHeader header;
  std::vector<TraceEvent> events;
};

const std::string kFile = "fuzz.trace";

/// The input as `orthosim trace` reads a file, held in memory.
orthosim::sw::InputFile input_of(std::string_view text) {
  return orthosim::sw::InputFile::from_text(std::string(text), kFile,
                                            orthosim::traces::trace_input_rules(
                                                "event trace file"));
}

Trace read_trace(orthosim::traces::EventTraceReader reader) {
  Trace trace{reader.header(), {}};
  TraceEvent e;
  while (reader.next(e)) {
    trace.events.push_back(e);
  }
  return trace;
}

/// Replays `trace` into the writer, as a run reports it.
void write_trace(const Trace& trace, const std::string& path) {
  orthosim::traces::EventTraceRecorder out(path, trace.header.clock_ns);
  for (const orthosim::traces::Source& s : trace.header.sources) {
    out.register_source(s.path, s.kind);
  }
  for (const TraceEvent& e : trace.events) {
    switch (e.kind) {
      case TraceEvent::Kind::Activity:
        out.activity(e.at, e.source, e.activity, e.op_index);
        break;
      case TraceEvent::Kind::Access: {
        orthosim::traces::AccessTrace access = e.access;
        access.slots = &e.slots;
        out.access(e.at, e.end, e.source, access);
        break;
      }
      case TraceEvent::Kind::Interrupt:
        out.interrupt_granted(e.at, e.source, e.requested);
        break;
      case TraceEvent::Kind::Step:
        out.step_mark(e.at, e.source, e.step);
        break;
      case TraceEvent::Kind::Run:
        out.run_begin(e.at, e.label);
        break;
      case TraceEvent::Kind::Message:
        out.message(e.at, e.message);
        break;
      case TraceEvent::Kind::End:
        out.finish(e.at);
        break;
    }
  }
}

/// The fields the format carries (not the line numbers and text, which the writer makes its own).
bool same_event(const TraceEvent& a, const TraceEvent& b) {
  const orthosim::traces::AccessTrace& x = a.access;
  const orthosim::traces::AccessTrace& y = b.access;
  const orthosim::traces::MessageTrace& m = a.message;
  const orthosim::traces::MessageTrace& n = b.message;
  return a.kind == b.kind && a.at == b.at && a.source == b.source && a.activity == b.activity &&
         a.op_index == b.op_index && a.end == b.end && x.mode == y.mode && x.bus == y.bus &&
         x.master == y.master && x.write == y.write && x.requested == y.requested &&
         x.index_set == y.index_set && x.address == y.address && x.vectors == y.vectors &&
         a.slots == b.slots && a.requested == b.requested && a.step == b.step &&
         a.label == b.label && m.what == n.what && m.message == n.message && m.node == n.node &&
         m.dst == n.dst && m.size == n.size && m.channel == n.channel && m.vc == n.vc &&
         m.measured == n.measured && m.visible == n.visible;
}

bool same_trace(const Trace& a, const Trace& b) {
  if (a.header.version != b.header.version || a.header.clock_ns != b.header.clock_ns ||
      a.header.sources.size() != b.header.sources.size() || a.events.size() != b.events.size()) {
    return false;
  }
  for (std::size_t i = 0; i < a.header.sources.size(); ++i) {
    if (a.header.sources[i].path != b.header.sources[i].path ||
        a.header.sources[i].kind != b.header.sources[i].kind) {
      return false;
    }
  }
  for (std::size_t i = 0; i < a.events.size(); ++i) {
    if (!same_event(a.events[i], b.events[i])) {
      return false;
    }
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const orthosim::fuzz::ScratchFile rewritten(".trace");
  const std::string_view text = orthosim::fuzz::as_text(data, size);
  Trace trace;
  try {
    trace = read_trace(orthosim::traces::EventTraceReader(input_of(text)));
  } catch (const orthosim::sw::InputError& e) {
    orthosim::fuzz::require_position(e, text, kFile);
    return 0;
  }
  (void)orthosim::traces::event_trace_stats(input_of(text));
  // The writer puts a cycle's lines in source order and keeps a source's last activity of a
  // cycle (docs/traces.md, "Order within a cycle"), so what it writes is its normal form: read
  // and written again, the same events.
  const auto rewrite = [](const Trace& t) {
    write_trace(t, rewritten.path());
    try {
      return read_trace(orthosim::traces::EventTraceReader(rewritten.path()));
    } catch (const orthosim::sw::InputError& e) {
      require(false, std::string("the writer's trace reads back: ") + e.what());
    }
    return Trace{};
  };
  const Trace normal = rewrite(trace);
  require(normal.events.size() <= trace.events.size(), "the writer adds no event");
  require(same_trace(normal, rewrite(normal)),
          "the writer's trace, read and written again, reads back to the same events");
  return 0;
}
