// Event-by-event comparison of two traces.
#include "traces/trace_diff.hpp"

#include <sstream>

#include "traces/event_trace.hpp"
#include "traces/event_trace_reader.hpp"

namespace orthosim::traces {

std::string describe_event(const TraceEvent& e, const TraceHeader& h) {
  std::ostringstream o;
  const auto name = [&h](SourceId id) { return h.sources.at(id).path; };
  o << e.at.count() << ' ';
  switch (e.kind) {
    case TraceEvent::Kind::Activity:
      o << "act " << name(e.source) << ' ' << activity_name(e.activity) << ' ' << e.op_index;
      break;
    case TraceEvent::Kind::Access:
      o << "acc " << access_fields(e.end, name(e.source), name(e.access.bus), e.access, e.slots);
      break;
    case TraceEvent::Kind::Interrupt:
      o << "intr " << name(e.source) << ' ' << e.requested.count();
      break;
    case TraceEvent::Kind::Step:
      o << "step " << name(e.source) << ' ' << e.step;
      break;
    case TraceEvent::Kind::Run:
      o << "run " << e.label;
      break;
    case TraceEvent::Kind::Message:
      o << message_event_name(e.message.what) << ' ' << e.message.message << ' '
        << message_fields(e.message, e.message.what == MessageEvent::Hop ? name(e.message.channel)
                                                                         : std::string());
      break;
    case TraceEvent::Kind::End:
      o << "end";
      break;
  }
  return o.str();
}

TraceDiff diff_traces(const std::string& path_a, const std::string& path_b) {
  TraceDiff d;
  d.a = event_trace_stats(path_a);
  d.b = event_trace_stats(path_b);
  EventTraceReader ra(path_a);
  EventTraceReader rb(path_b);
  TraceEvent ea;
  TraceEvent eb;
  bool more_a = true;
  bool more_b = true;
  while (more_a || more_b) {
    more_a = more_a && ra.next(ea);
    more_b = more_b && rb.next(eb);
    const std::string ta = more_a ? describe_event(ea, ra.header()) : "";
    const std::string tb = more_b ? describe_event(eb, rb.header()) : "";
    d.events_a += more_a ? 1 : 0;
    d.events_b += more_b ? 1 : 0;
    if (!d.first && ta != tb) {
      d.first = TraceDivergence{std::max(d.events_a, d.events_b) - 1, more_a ? ea.line : 0,
                                more_b ? eb.line : 0, ta, tb};
    }
  }
  return d;
}

}  // namespace orthosim::traces
