// Writing the event trace, and the names of its codes.
#include "traces/event_trace.hpp"

#include <algorithm>
#include <array>
#include <sstream>

namespace orthosim::traces {

namespace {

constexpr std::array<const char*, 11> kActivityNames = {"idle",     "compute",       "read",
                                                        "write",    "iwr-write",     "bus-switch",
                                                        "iwr-read", "activate-sync", "wait-sync",
                                                        "barrier",  "wait-message"};
constexpr std::array<const char*, 4> kSourceKindNames = {"processor", "controller", "bus",
                                                         "channel"};
constexpr std::array<const char*, 3> kBusModeNames = {"idle", "row", "column"};
constexpr std::array<const char*, 6> kMessageEventNames = {"send",  "inject",  "hop",
                                                           "eject", "deliver", "recv"};

template <typename Enum, std::size_t N>
std::optional<Enum> find_name(const std::array<const char*, N>& names, const std::string& name) {
  for (std::size_t i = 0; i < N; ++i) {
    if (name == names[i]) {
      return static_cast<Enum>(i);
    }
  }
  return std::nullopt;
}

}  // namespace

const char* activity_name(Activity a) { return kActivityNames.at(static_cast<std::size_t>(a)); }
std::optional<Activity> parse_activity(const std::string& name) {
  return find_name<Activity>(kActivityNames, name);
}
const char* source_kind_name(SourceKind k) {
  return kSourceKindNames.at(static_cast<std::size_t>(k));
}
std::optional<SourceKind> parse_source_kind(const std::string& name) {
  return find_name<SourceKind>(kSourceKindNames, name);
}
const char* bus_mode_name(BusMode m) { return kBusModeNames.at(static_cast<std::size_t>(m)); }
std::optional<BusMode> parse_bus_mode(const std::string& name) {
  return find_name<BusMode>(kBusModeNames, name);
}
const char* message_event_name(MessageEvent e) {
  return kMessageEventNames.at(static_cast<std::size_t>(e));
}
std::optional<MessageEvent> parse_message_event(const std::string& name) {
  return find_name<MessageEvent>(kMessageEventNames, name);
}

EventTraceRecorder::EventTraceRecorder(std::string path, std::uint32_t clock_period_ns)
    : file_(std::move(path)), out_(file_.out()), clock_period_ns_(clock_period_ns) {}

void EventTraceRecorder::header_once() {
  if (header_written_) {
    return;
  }
  header_written_ = true;
  out_ << "orthosim-trace " << kEventTraceVersion << "\nclock-ns " << clock_period_ns_ << '\n';
  for (std::size_t i = 0; i < sources().size(); ++i) {
    out_ << "source " << i << ' ' << source_kind_name(sources()[i].kind) << ' ' << sources()[i].path
         << '\n';
  }
}

std::ofstream& EventTraceRecorder::line(Cycle at) {
  header_once();
  write_held(Cycle{~std::uint64_t{0}});
  out_ << at.count() << ' ';
  return out_;
}

void EventTraceRecorder::sourced_line(Cycle at, SourceId source, std::string text, bool activity) {
  held_.push_back({at, source, activity, std::move(text)});
  if (at > latest_) {
    latest_ = at;
    release();
  }
}

void EventTraceRecorder::claim(SourceId source, std::optional<Cycle> from) {
  if (from) {
    claims_[source] = *from;
  } else {
    claims_.erase(source);
  }
  release();
}

void EventTraceRecorder::release() {
  Cycle limit = latest_;
  for (const auto& [source, from] : claims_) {
    limit = std::min(limit, from);
  }
  write_held(limit);
}

void EventTraceRecorder::write_held(Cycle limit) {
  if (held_.empty()) {
    return;
  }
  header_once();
  std::stable_sort(held_.begin(), held_.end(), [](const HeldLine& a, const HeldLine& b) {
    return a.at != b.at ? a.at < b.at : a.source < b.source;
  });
  auto written = held_.begin();
  for (; written != held_.end() && written->at < limit; ++written) {
    const auto later_activity =
        std::find_if(std::next(written), held_.end(), [&](const HeldLine& l) {
          return l.at != written->at || l.source != written->source || l.activity;
        });
    const bool superseded = written->activity && later_activity != held_.end() &&
                            later_activity->at == written->at &&
                            later_activity->source == written->source;
    if (!superseded) {
      out_ << written->at.count() << ' ' << written->text << '\n';
    }
  }
  held_.erase(held_.begin(), written);
}

void EventTraceRecorder::activity(Cycle at, SourceId processor, Activity what,
                                  std::uint32_t op_index) {
  sourced_line(at, processor,
               "act " + std::to_string(processor) + ' ' + activity_name(what) + ' ' +
                   std::to_string(op_index),
               true);
}

void EventTraceRecorder::access(Cycle start, Cycle end, SourceId controller, const AccessTrace& a) {
  sourced_line(start, controller,
               "acc " +
                   access_fields(end, std::to_string(controller), std::to_string(a.bus), a,
                                 a.slots == nullptr ? std::vector<std::uint32_t>{} : *a.slots));
}

void EventTraceRecorder::interrupt_granted(Cycle at, SourceId processor, Cycle requested) {
  sourced_line(at, processor,
               "intr " + std::to_string(processor) + ' ' + std::to_string(requested.count()));
}

void EventTraceRecorder::step_mark(Cycle at, SourceId processor, std::uint32_t step) {
  sourced_line(at, processor, "step " + std::to_string(processor) + ' ' + std::to_string(step));
}

void EventTraceRecorder::run_begin(Cycle at, const std::string& label) {
  line(at) << "run " << label << '\n';
}

void EventTraceRecorder::message(Cycle at, const MessageTrace& m) {
  line(at) << message_event_name(m.what) << ' ' << m.message << ' '
           << message_fields(m, std::to_string(m.channel)) << '\n';
}

std::string access_fields(Cycle end, const std::string& controller, const std::string& bus,
                          const AccessTrace& a, const std::vector<std::uint32_t>& slots) {
  std::ostringstream o;
  o << end.count() << ' ' << controller << ' ' << bus << ' ' << bus_mode_name(a.mode) << ' '
    << (a.write ? 'w' : 'r') << ' ' << a.master << ' ' << a.requested.count() << ' ' << a.index_set
    << ' ' << a.address << ' ' << a.vectors << ' ';
  if (slots.empty()) {
    o << '-';
  }
  for (std::size_t i = 0; i < slots.size(); ++i) {
    o << (i > 0 ? "," : "") << slots[i];
  }
  return o.str();
}

std::string message_fields(const MessageTrace& m, const std::string& channel) {
  std::ostringstream o;
  switch (m.what) {
    case MessageEvent::Send:
      o << m.node << ' ' << m.dst << ' ' << m.size << ' ' << (m.measured ? 1 : 0);
      break;
    case MessageEvent::Inject:
    case MessageEvent::Eject:
      o << m.node << ' ' << m.size;
      break;
    case MessageEvent::Hop:
      o << channel << ' ' << m.vc << ' ' << m.size;
      break;
    case MessageEvent::Deliver:
      o << m.node << ' ' << m.visible.count();
      break;
    case MessageEvent::Receive:
      o << m.node;
      break;
  }
  return o.str();
}

void EventTraceRecorder::finish(Cycle end) {
  line(end) << "end\n";
  file_.commit();
}

}  // namespace orthosim::traces
