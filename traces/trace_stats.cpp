// Statistics from an event trace or a VCD.
#include "traces/trace_stats.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <utility>

#include "sw/core/diagnostic.hpp"
#include "traces/event_trace_reader.hpp"

namespace orthosim::traces {

namespace {

void add_share(ProcessorShare& s, Activity a, std::uint64_t cycles) {
  switch (a) {
    case Activity::Idle:
      s.idle += cycles;
      break;
    case Activity::Compute:
      s.compute += cycles;
      break;
    case Activity::Read:
    case Activity::Write:
    case Activity::IwrWrite:
    case Activity::IwrRead:
      s.memory += cycles;
      break;
    case Activity::BusSwitch:
    case Activity::ActivateSync:
    case Activity::WaitSync:
    case Activity::Barrier:
      s.sync += cycles;
      break;
    case Activity::WaitMessage:
      s.message += cycles;
      break;
  }
}

/// Per processor: what it does since when; closed at the end of the trace.
struct ActivityClock {
  Activity what = Activity::Idle;
  std::uint64_t since = 0;
};

}  // namespace

void LatencyCounts::add(std::uint64_t latency) {
  if (latency < kDense) {
    if (latency >= dense_.size()) {
      dense_.resize(static_cast<std::size_t>(latency) + 1, 0);
    }
    ++dense_[static_cast<std::size_t>(latency)];
  } else {
    ++sparse_[latency];
  }
  ++count_;
}

void LatencyCounts::clear() {
  dense_.clear();
  sparse_.clear();
  count_ = 0;
}

template <class F>
void LatencyCounts::for_each(F f) const {
  for (std::size_t v = 0; v < dense_.size(); ++v) {
    if (dense_[v] != 0) {
      f(std::uint64_t{v}, dense_[v]);
    }
  }
  for (const auto& [v, n] : sparse_) {
    f(v, n);
  }
}

LatencySummary LatencyCounts::summary(std::uint32_t bins) const {
  LatencySummary s;
  if (count_ == 0) {
    return s;
  }
  s.count = count_;
  bool first = true;
  double sum = 0;
  for_each([&](std::uint64_t v, std::uint64_t n) {
    if (first) {
      s.min = v;
      first = false;
    }
    s.max = v;
    for (std::uint64_t k = 0; k < n; ++k) {
      sum += static_cast<double>(v);
    }
  });
  s.mean = sum / static_cast<double>(count_);
  // The ceil(q n)-th smallest value.
  const auto rank = [&](double q) {
    const auto k = static_cast<std::uint64_t>(std::ceil(q * static_cast<double>(count_)));
    const std::uint64_t index = std::max<std::uint64_t>(k, 1) - 1;
    std::uint64_t below = 0;
    std::uint64_t found = s.max;
    bool done = false;
    for_each([&](std::uint64_t v, std::uint64_t n) {
      if (!done && index < below + n) {
        found = v;
        done = true;
      }
      below += n;
    });
    return found;
  };
  s.p50 = rank(0.50);
  s.p99 = rank(0.99);
  const std::uint64_t span = s.max - s.min + 1;
  s.bin_width = std::max<std::uint64_t>(1, (span + bins - 1) / bins);
  s.histogram.assign(static_cast<std::size_t>((span + s.bin_width - 1) / s.bin_width), 0);
  for_each([&](std::uint64_t v, std::uint64_t n) {
    s.histogram[static_cast<std::size_t>((v - s.min) / s.bin_width)] += n;
  });
  return s;
}

TraceStats event_trace_stats(const std::string& path) {
  return event_trace_stats(sw::InputFile(path, trace_input_rules("event trace file")));
}

TraceStats event_trace_stats(sw::InputFile input) {
  EventTraceReader reader(std::move(input));
  const TraceHeader& h = reader.header();
  TraceStats st;
  st.format = "event-trace";
  st.clock_ns = h.clock_ns;
  std::vector<ActivityClock> clocks(h.sources.size());
  std::vector<ProcessorShare> shares(h.sources.size());
  std::vector<Usage> usage(h.sources.size());
  for (std::size_t i = 0; i < h.sources.size(); ++i) {
    shares[i].name = usage[i].name = h.sources[i].path;
  }
  struct Sent {
    std::uint64_t at = 0;
    bool measured = false;
  };
  std::map<std::uint32_t, Sent> in_flight;  ///< messages of the current run sent, not delivered
  LatencyCounts latencies;
  std::uint64_t run_start = 0;
  bool first_run = true;
  TraceEvent e;
  std::uint64_t end = 0;
  // Cycles count from the first run's start when the trace begins with it (a network's run),
  // else from 0 (multiprocessors run from 0 without a run line).
  const std::uint64_t first_event_line = h.sources.size() + 3;
  while (reader.next(e)) {
    const std::uint64_t at = e.at.count();
    switch (e.kind) {
      case TraceEvent::Kind::Activity: {
        ActivityClock& c = clocks[e.source];
        add_share(shares[e.source], c.what, at - c.since);
        c = {e.activity, at};
        break;
      }
      case TraceEvent::Kind::Access:
        ++st.accesses;
        st.words += std::uint64_t{e.access.vectors} * e.slots.size();
        usage[e.access.bus].busy += (e.end - e.at).count();
        ++usage[e.access.bus].count;
        if (e.access.requested < e.at) {
          ++st.conflicts;
          st.conflict_wait_cycles += (e.at - e.access.requested).count();
        }
        break;
      case TraceEvent::Kind::Interrupt:
        if (e.requested < e.at) {
          ++st.conflicts;
          st.conflict_wait_cycles += (e.at - e.requested).count();
        }
        break;
      case TraceEvent::Kind::Step:
        if (e.step >= st.step_ends.size()) {
          st.step_ends.resize(e.step + 1, 0);
        }
        st.step_ends[e.step] = std::max(st.step_ends[e.step], at - run_start);
        break;
      case TraceEvent::Kind::Run:
        ++st.runs;
        run_start = at;
        in_flight.clear();
        if (first_run && e.line == first_event_line) {
          st.cycles = at;  // subtracted below: cycles count from the first run's start
        }
        first_run = false;
        break;
      case TraceEvent::Kind::Message:
        switch (e.message.what) {
          case MessageEvent::Send:
            ++st.messages_sent;
            in_flight[e.message.message] = {at, e.message.measured};
            break;
          case MessageEvent::Hop:
            usage[e.message.channel].busy += e.message.size;
            ++usage[e.message.channel].count;
            break;
          case MessageEvent::Deliver: {
            ++st.messages_delivered;
            const auto it = in_flight.find(e.message.message);
            if (it != in_flight.end()) {
              if (it->second.measured) {
                latencies.add(e.message.visible.count() - it->second.at);
              }
              in_flight.erase(it);
            }
            break;
          }
          case MessageEvent::Inject:
          case MessageEvent::Eject:
          case MessageEvent::Receive:
            break;
        }
        break;
      case TraceEvent::Kind::End:
        end = at;
        break;
    }
  }
  st.runs = std::max<std::uint64_t>(st.runs, 1);
  st.cycles = end - st.cycles;
  for (std::size_t i = 0; i < h.sources.size(); ++i) {
    switch (h.sources[i].kind) {
      case SourceKind::Processor:
        add_share(shares[i], clocks[i].what, end - clocks[i].since);
        // Before the first run's start every processor is idle; that is not the run's time.
        shares[i].idle -= std::min(shares[i].idle, end - st.cycles);
        st.processors.push_back(shares[i]);
        break;
      case SourceKind::Bus:
        st.buses.push_back(usage[i]);
        break;
      case SourceKind::Channel:
        if (usage[i].count > 0) {
          st.max_channel_contention = std::max(st.max_channel_contention, usage[i].count);
          st.channels.push_back(usage[i]);
        }
        break;
      case SourceKind::BusController:
        break;
    }
  }
  st.latency = latencies.summary(20);
  return st;
}

namespace {

/// A VCD as orthosim writes it (traces/vcd_writer.cpp), read token by token with positions.
class VcdScanner {
 public:
  explicit VcdScanner(sw::InputFile input) : in_(std::move(input)), path_(in_.name()) {}
  /// The next whitespace-separated token; false at the end of the file.
  bool next(std::string& token) {
    while (pos_ >= line_.size() || line_[pos_] == ' ' || line_[pos_] == '\t' ||
           line_[pos_] == '\r') {
      if (pos_ >= line_.size()) {
        if (!in_.read_line(line_)) {
          return false;
        }
        ++line_no_;
        pos_ = 0;
      } else {
        ++pos_;
      }
    }
    column_ = static_cast<std::uint32_t>(pos_ + 1);
    const std::size_t start = pos_;
    while (pos_ < line_.size() && line_[pos_] != ' ' && line_[pos_] != '\t' &&
           line_[pos_] != '\r') {
      ++pos_;
    }
    token = line_.substr(start, pos_ - start);
    return true;
  }
  std::string expect(const std::string& what) {
    std::string t;
    if (!next(t)) {
      fail(what, "end of file");
    }
    return t;
  }
  [[noreturn]] void fail(const std::string& expected, const std::string& found) const {
    // An empty file has no line read yet; its error is still at a position, 1:1.
    const auto line = static_cast<std::uint32_t>(std::max<std::uint64_t>(line_no_, 1));
    throw sw::InputError({path_, line, column_}, expected, found);
  }
  std::uint64_t number(const std::string& text, const std::string& what, int base = 10) const {
    std::size_t used = 0;
    std::uint64_t v = 0;
    try {
      v = std::stoull(text, &used, base);
    } catch (const std::exception&) {
      used = 0;
    }
    if (text.empty() || used != text.size() || text[0] == '-' || text[0] == '+') {
      fail(what, "'" + text + "'");
    }
    return v;
  }

 private:
  sw::InputFile in_;
  std::string path_;
  std::string line_;
  std::size_t pos_ = 0;
  std::uint64_t line_no_ = 0;
  std::uint32_t column_ = 1;
};

}  // namespace

TraceStats vcd_stats(const std::string& path) {
  return vcd_stats(sw::InputFile(path, trace_input_rules("VCD or event trace file")));
}

TraceStats vcd_stats(sw::InputFile input) {
  VcdScanner in(std::move(input));
  TraceStats st;
  st.format = "vcd";
  std::vector<std::string> scope;
  struct Var {
    std::string scope;
    std::string name;
  };
  std::map<std::string, Var> vars;  ///< by identifier code
  std::uint64_t timescale_ns = 0;
  std::string t;
  if (!in.next(t) || t != "$version") {
    // Read as a VCD because it is no event trace (trace_stats): either would have done.
    in.fail("'$version' (a VCD) or an event trace's first line",
            t.empty() ? "end of file" : "'" + t + "'");
  }
  while (in.expect("$end") != "$end") {
  }
  while (true) {
    t = in.expect("$enddefinitions");
    if (t == "$enddefinitions") {
      in.expect("$end");
      break;
    }
    if (t == "$scope") {
      in.expect("the scope kind");
      scope.push_back(in.expect("the scope's name"));
      in.expect("$end");
    } else if (t == "$upscope") {
      if (scope.empty()) {
        in.fail("a $scope before $upscope", "$upscope");
      }
      scope.pop_back();
      in.expect("$end");
    } else if (t == "$var") {
      in.expect("the variable kind");
      in.expect("the width");
      const std::string code = in.expect("the identifier code");
      const std::string name = in.expect("the variable's name");
      in.expect("$end");
      std::string joined;
      for (const std::string& s : scope) {
        joined += (joined.empty() ? "" : ".") + s;
      }
      vars[code] = {joined, name};
    } else if (t == "$timescale") {
      const std::string ts = in.expect("the timescale");
      if (ts.size() < 3 || ts.substr(ts.size() - 2) != "ns") {
        in.fail("a timescale in ns (as orthosim writes it)", "'" + ts + "'");
      }
      timescale_ns = in.number(ts.substr(0, ts.size() - 2), "a timescale in ns");
      in.expect("$end");
    } else if (t == "$comment") {
      std::string word = in.expect("$end");
      while (word != "$end") {
        if (word == "clock-ns") {
          const std::string text = in.expect("the clock period");
          const std::uint64_t clock = in.number(text, "the clock period in ns");
          if (clock == 0 || clock > std::numeric_limits<std::uint32_t>::max()) {
            in.fail("the clock period in ns, 1.." +
                        std::to_string(std::numeric_limits<std::uint32_t>::max()),
                    "'" + text + "'");
          }
          st.clock_ns = static_cast<std::uint32_t>(clock);
        }
        word = in.expect("$end");
      }
    } else if (t[0] == '$') {
      while (in.expect("$end") != "$end") {
      }
    } else {
      in.fail("a declaration or $enddefinitions", "'" + t + "'");
    }
  }
  if (st.clock_ns == 0 || timescale_ns == 0) {
    in.fail("a VCD written by orthosim (a '$comment clock-ns N $end' and a $timescale)",
            "none before $enddefinitions");
  }
  // Processors: their `op` signal; buses: their `busy` signal.
  struct Tracked {
    std::size_t index = 0;
    bool processor = false;
    std::uint64_t value = 0;
    std::uint64_t since = 0;
  };
  std::map<std::string, Tracked> tracked;
  for (const auto& [code, v] : vars) {
    if (v.name == "op") {
      tracked[code] = {st.processors.size(), true, 0, 0};
      st.processors.push_back({v.scope, 0, 0, 0, 0, 0});
    } else if (v.name == "busy") {
      tracked[code] = {st.buses.size(), false, 0, 0};
      st.buses.push_back({v.scope, 0, 0});
    }
  }
  const std::uint64_t period = std::uint64_t{st.clock_ns};
  std::uint64_t now = 0;
  const auto close = [&](Tracked& k, std::uint64_t until) {
    const std::uint64_t cycles = (until - k.since) * timescale_ns / period;
    if (k.processor) {
      add_share(st.processors[k.index], static_cast<Activity>(std::min<std::uint64_t>(k.value, 10)),
                cycles);
    } else if (k.value != 0) {
      st.buses[k.index].busy += cycles;
    }
    k.since = until;
  };
  const auto change = [&](const std::string& code, std::uint64_t value) {
    if (!vars.count(code)) {
      in.fail("a declared identifier code", "'" + code + "'");
    }
    const auto it = tracked.find(code);
    if (it != tracked.end()) {
      close(it->second, now);
      it->second.value = value;
    }
  };
  while (in.next(t)) {
    if (t[0] == '#') {
      const std::uint64_t time = in.number(t.substr(1), "a time after '#'");
      if (time < now) {
        in.fail("a time no earlier than #" + std::to_string(now), "'" + t + "'");
      }
      now = time;
    } else if (t[0] == 'b') {
      const std::uint64_t value = in.number(t.substr(1), "a binary value after 'b'", 2);
      change(in.expect("an identifier code"), value);
    } else if (t[0] == '0' || t[0] == '1') {
      change(t.substr(1), t[0] == '1' ? 1 : 0);
    } else if (t == "$dumpvars" || t == "$end") {
      continue;
    } else {
      in.fail("a time (#N) or a value change", "'" + t + "'");
    }
  }
  for (auto& [code, k] : tracked) {
    close(k, now);
  }
  st.cycles = now * timescale_ns / period;
  st.runs = 1;
  st.cannot_say = {
      "accesses, words and conflicts: the waveform shows when a bus is busy, not when a "
      "processor asked for it, and back-to-back accesses merge",
      "step durations: step marks are not signals",
      "messages, their latencies and channel utilization: the network waveform has the nodes' "
      "activity and the buffers' occupancy, not the packets"};
  return st;
}

TraceStats trace_stats(const std::string& path) {
  if (EventTraceReader::looks_like(path)) {
    return event_trace_stats(path);
  }
  return vcd_stats(path);
}

}  // namespace orthosim::traces
