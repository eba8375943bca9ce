// Streaming conversion of an event trace into trace-event JSON.
#include "traces/perfetto.hpp"

#include <map>
#include <nlohmann/json.hpp>

#include "sw/core/json_text.hpp"
#include "sw/core/output_file.hpp"
#include "traces/event_trace.hpp"
#include "traces/event_trace_reader.hpp"

namespace orthosim::traces {

namespace {

/// Writes one JSON object per call into the traceEvents array, comma-separated.
class EventSink {
 public:
  EventSink(const std::string& path, std::uint32_t clock_ns)
      : file_(path), out_(file_.out()), clock_ns_(clock_ns) {
    out_ << "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
  }

  [[nodiscard]] double us(std::uint64_t cycle) const {
    return static_cast<double>(cycle * clock_ns_) / 1000.0;
  }
  void write(const nlohmann::json& event) {
    out_ << (first_ ? "" : ",\n") << sw::json_text(event);
    first_ = false;
  }
  /// A complete event on track (pid, tid) from cycle `start` for `cycles`.
  void complete(const std::string& name, std::uint32_t pid, std::uint32_t tid, std::uint64_t start,
                std::uint64_t cycles, nlohmann::json args) {
    write({{"name", name},
           {"ph", "X"},
           {"ts", us(start)},
           {"dur", us(start + cycles) - us(start)},
           {"pid", pid},
           {"tid", tid},
           {"args", std::move(args)}});
  }
  void commit() {
    out_ << "\n]}\n";
    file_.commit();
  }

 private:
  sw::OutputFile file_;
  std::ofstream& out_;  ///< file_'s stream
  std::uint32_t clock_ns_;
  bool first_ = true;
};

std::string system_of(const std::string& path) { return path.substr(0, path.find('.')); }

}  // namespace

void export_perfetto(const std::string& trace_path, const std::string& out_path) {
  EventTraceReader reader(trace_path);
  const TraceHeader& h = reader.header();
  EventSink sink(out_path, h.clock_ns);
  // One process per system (the first part of the sources' paths), named by metadata events.
  std::map<std::string, std::uint32_t> pids;
  std::vector<std::uint32_t> pid_of(h.sources.size());
  for (std::size_t i = 0; i < h.sources.size(); ++i) {
    const std::string system = system_of(h.sources[i].path);
    const auto [it, added] = pids.emplace(system, static_cast<std::uint32_t>(pids.size() + 1));
    if (added) {
      sink.write({{"name", "process_name"},
                  {"ph", "M"},
                  {"ts", 0},
                  {"pid", it->second},
                  {"tid", 0},
                  {"args", {{"name", system}}}});
    }
    pid_of[i] = it->second;
  }
  // Tracks: a processor's or a bus's tid is its source id + 1; a channel's virtual channel gets a
  // tid after those, when first used. Every track is named once.
  const auto base_tid = static_cast<std::uint32_t>(h.sources.size() + 1);
  std::map<std::pair<SourceId, std::uint32_t>, std::uint32_t> vc_tids;
  std::map<std::uint32_t, std::uint64_t> track_end;  ///< per tid: the end of its last event
  const auto name_track = [&](std::uint32_t pid, std::uint32_t tid, const std::string& name) {
    sink.write({{"name", "thread_name"},
                {"ph", "M"},
                {"ts", 0},
                {"pid", pid},
                {"tid", tid},
                {"args", {{"name", name}}}});
    sink.write({{"name", "thread_sort_index"},
                {"ph", "M"},
                {"ts", 0},
                {"pid", pid},
                {"tid", tid},
                {"args", {{"sort_index", tid}}}});
  };
  for (std::size_t i = 0; i < h.sources.size(); ++i) {
    if (h.sources[i].kind == SourceKind::Processor || h.sources[i].kind == SourceKind::Bus) {
      name_track(pid_of[i], static_cast<std::uint32_t>(i + 1), h.sources[i].path);
    }
  }
  struct Doing {
    Activity what = Activity::Idle;
    std::uint64_t since = 0;
    std::uint32_t pc = 0;
  };
  std::vector<Doing> doing(h.sources.size());
  const auto close_activity = [&](SourceId p, std::uint64_t until) {
    const Doing& d = doing[p];
    if (d.what != Activity::Idle && until > d.since) {
      sink.complete(activity_name(d.what), pid_of[p], p + 1, d.since, until - d.since,
                    {{"op", d.pc}});
    }
  };
  TraceEvent e;
  std::uint64_t end = 0;
  while (reader.next(e)) {
    const std::uint64_t at = e.at.count();
    switch (e.kind) {
      case TraceEvent::Kind::Activity:
        close_activity(e.source, at);
        doing[e.source] = {e.activity, at, e.op_index};
        break;
      case TraceEvent::Kind::Access: {
        std::string slots;
        for (std::uint32_t s : e.slots) {
          slots += (slots.empty() ? "" : ",") + std::to_string(s);
        }
        sink.complete("P" + std::to_string(e.access.master) + (e.access.write ? " write" : " read"),
                      pid_of[e.access.bus], e.access.bus + 1, at, (e.end - e.at).count(),
                      {{"controller", h.sources[e.source].path},
                       {"mode", bus_mode_name(e.access.mode)},
                       {"requested_us", sink.us(e.access.requested.count())},
                       {"index_set", e.access.index_set},
                       {"address", e.access.address},
                       {"vectors", e.access.vectors},
                       {"slots", slots}});
        break;
      }
      case TraceEvent::Kind::Message:
        if (e.message.what == MessageEvent::Hop) {
          const SourceId ch = e.message.channel;
          auto it = vc_tids.find({ch, e.message.vc});
          if (it == vc_tids.end()) {
            const auto tid = static_cast<std::uint32_t>(base_tid + vc_tids.size());
            it = vc_tids.emplace(std::make_pair(ch, e.message.vc), tid).first;
            name_track(pid_of[ch], tid, h.sources[ch].path + ".vc" + std::to_string(e.message.vc));
          }
          // A packet's flits cross one per cycle from its header's hop; shown back to back.
          std::uint64_t& free_from = track_end[it->second];
          const std::uint64_t start = std::max(at, free_from);
          free_from = start + e.message.size;
          sink.complete("m" + std::to_string(e.message.message), pid_of[ch], it->second, start,
                        e.message.size,
                        {{"message", e.message.message}, {"flits", e.message.size}});
        }
        break;
      case TraceEvent::Kind::End:
        end = at;
        break;
      case TraceEvent::Kind::Interrupt:
      case TraceEvent::Kind::Step:
      case TraceEvent::Kind::Run:
        break;
    }
  }
  for (std::size_t i = 0; i < h.sources.size(); ++i) {
    if (h.sources[i].kind == SourceKind::Processor) {
      close_activity(static_cast<SourceId>(i), end);
    }
  }
  sink.commit();
}

}  // namespace orthosim::traces
