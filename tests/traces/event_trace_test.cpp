// Unit tests of the event trace: what the writer writes the reader gives back field by field, the
// fan-out recorder's id translation, the latency summary against a brute-force count, the
// statistics of a hand-made trace against figures worked out by hand, its Perfetto export parsed
// back with nlohmann::json against events worked out by hand, and the SVG writer's output parsed
// back with expat.
#include <expat.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "sw/core/diagnostic.hpp"
#include "traces/event_trace.hpp"
#include "traces/event_trace_reader.hpp"
#include "traces/fanout_recorder.hpp"
#include "traces/perfetto.hpp"
#include "traces/svg.hpp"
#include "traces/trace_stats.hpp"

namespace orthosim::traces {
namespace {

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          (name + "_" + std::to_string(::getpid()) + ".trace"))
      .string();
}

/// A small multiprocessor and network run, written through the recorder interface.
void write_sample(const std::string& path) {
  EventTraceRecorder w(path, 50);
  const SourceId p0 = w.register_source("omp.p0", SourceKind::Processor);
  const SourceId p1 = w.register_source("omp.p1", SourceKind::Processor);
  const SourceId bc0 = w.register_source("omp.bc0", SourceKind::BusController);
  const SourceId rb0 = w.register_source("omp.rb0", SourceKind::Bus);
  const SourceId ch = w.register_source("torus.r(0,0).x+", SourceKind::Channel);
  w.activity(Cycle{0}, p0, Activity::Compute, 0);
  w.activity(Cycle{0}, p1, Activity::Write, 0);
  w.activity(Cycle{10}, p0, Activity::Read, 1);
  AccessTrace a;
  a.mode = BusMode::Row;
  a.bus = rb0;
  a.master = 0;
  a.write = false;
  a.requested = Cycle{10};
  a.index_set = 2;
  a.address = 7;
  a.vectors = 3;
  const std::vector<std::uint32_t> slots = {1, 2};
  a.slots = &slots;
  w.access(Cycle{14}, Cycle{40}, bc0, a);  // granted 4 cycles late: a conflict of 4 cycles
  w.interrupt_granted(Cycle{20}, p1, Cycle{18});
  w.step_mark(Cycle{40}, p0, 0);
  w.activity(Cycle{40}, p0, Activity::Idle, 2);
  w.activity(Cycle{40}, p1, Activity::Idle, 1);
  w.run_begin(Cycle{40}, "program x");
  w.message(Cycle{41}, {MessageEvent::Send, 0, 0, 1, 4, 0, 0, true});
  w.message(Cycle{41}, {MessageEvent::Inject, 0, 0, 0, 5, 0, 0, true});
  w.message(Cycle{42}, {MessageEvent::Hop, 0, 0, 0, 5, ch, 1, true});
  w.message(Cycle{48}, {MessageEvent::Eject, 0, 1, 0, 5, 0, 0, true});
  w.message(Cycle{48}, {MessageEvent::Deliver, 0, 1, 0, 0, 0, 0, true, Cycle{49}});
  w.message(Cycle{49}, {MessageEvent::Receive, 0, 1, 0, 0, 0, 0, true});
  w.finish(Cycle{50});
}

TEST(EventTrace, ReaderGivesBackWhatTheWriterWrote) {
  const std::string path = temp_path("roundtrip");
  write_sample(path);
  EXPECT_FALSE(std::filesystem::exists(path + ".partial"));
  EventTraceReader r(path);
  ASSERT_EQ(r.header().version, kEventTraceVersion);
  EXPECT_EQ(r.header().clock_ns, 50u);
  ASSERT_EQ(r.header().sources.size(), 5u);
  EXPECT_EQ(r.header().sources[4].path, "torus.r(0,0).x+");
  EXPECT_EQ(r.header().sources[4].kind, SourceKind::Channel);
  std::vector<TraceEvent> events;
  TraceEvent e;
  while (r.next(e)) {
    events.push_back(e);
  }
  ASSERT_EQ(events.size(), 16u);
  EXPECT_EQ(events[2].activity, Activity::Read);
  EXPECT_EQ(events[2].op_index, 1u);
  const TraceEvent& acc = events[3];
  ASSERT_EQ(acc.kind, TraceEvent::Kind::Access);
  EXPECT_EQ(acc.at, Cycle{14});
  EXPECT_EQ(acc.end, Cycle{40});
  EXPECT_EQ(acc.source, 2u);
  EXPECT_EQ(acc.access.bus, 3u);
  EXPECT_EQ(acc.access.mode, BusMode::Row);
  EXPECT_FALSE(acc.access.write);
  EXPECT_EQ(acc.access.requested, Cycle{10});
  EXPECT_EQ(acc.access.index_set, 2u);
  EXPECT_EQ(acc.access.address, 7u);
  EXPECT_EQ(acc.access.vectors, 3u);
  EXPECT_EQ(acc.slots, (std::vector<std::uint32_t>{1, 2}));
  EXPECT_EQ(events[4].kind, TraceEvent::Kind::Interrupt);
  EXPECT_EQ(events[4].requested, Cycle{18});
  EXPECT_EQ(events[5].step, 0u);
  EXPECT_EQ(events[8].label, "program x");
  EXPECT_EQ(events[11].message.what, MessageEvent::Hop);
  EXPECT_EQ(events[11].message.channel, 4u);
  EXPECT_EQ(events[11].message.vc, 1u);
  EXPECT_EQ(events[11].message.size, 5u);
  EXPECT_EQ(events[13].message.visible, Cycle{49});
  EXPECT_EQ(events.back().kind, TraceEvent::Kind::End);
  std::filesystem::remove(path);
}

/// The events of a trace given as text, or the reader's error.
std::string read_text(const std::string& text, std::size_t& events) {
  events = 0;
  try {
    EventTraceReader r(sw::InputFile::from_text(text, "t.trace", trace_input_rules("trace")));
    TraceEvent e;
    while (r.next(e)) {
      ++events;
    }
  } catch (const sw::InputError& e) {
    return e.what();
  }
  return "accepted";
}

TEST(EventTrace, ALabelKeepsItsBytesAndAControlByteIsRefusedAtItsPlace) {
  const std::string path = temp_path("bytes");
  write_sample(path);
  std::ifstream in(path, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::filesystem::remove(path);
  std::size_t events = 0;
  ASSERT_EQ(read_text(text, events), "accepted");
  EXPECT_EQ(events, 16u);
  // A label from a file name that is not UTF-8 is read back as it was written.
  const std::size_t label = text.find("program x") + 8;
  std::string latin1 = text;
  latin1[label] = '\xe9';
  ASSERT_EQ(read_text(latin1, events), "accepted");
  EXPECT_EQ(events, 16u);
  // A control byte is refused there: its line and column counted here from the text.
  std::string control = text;
  control[label] = '\x01';
  const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<long>(label), '\n');
  const std::size_t column = label - text.rfind('\n', label);
  EXPECT_EQ(read_text(control, events),
            "t.trace:" + std::to_string(line) + ":" + std::to_string(column) +
                ": expected text, found the byte 0x01 (a control character)");
}

TEST(EventTrace, ALineOverTheLimitIsRefusedAtItsLine) {
  std::size_t events = 0;
  const std::string header =
      "orthosim-trace " + std::to_string(kEventTraceVersion) + "\nclock-ns 50\nsource 0 processor ";
  EXPECT_EQ(read_text(header + std::string(sw::kMaxInputLineBytes, 'p') + "\n", events),
            "t.trace:3:1: expected a line of at most 1 MiB, found a longer line");
}

// A clock of 0 ns would put every event at time 0 in `trace export` and `trace stats` (the VCD
// reader refuses it too): it is refused at its column, as orthosim never writes it.
TEST(EventTrace, AClockOfZeroNanosecondsIsRefused) {
  std::size_t events = 0;
  const std::string magic = "orthosim-trace " + std::to_string(kEventTraceVersion) + "\n";
  EXPECT_EQ(read_text(magic + "clock-ns 0\nsource 0 processor p\n0 end\n", events),
            "t.trace:2:10: expected the clock period in ns, at least 1, found '0'");
  EXPECT_EQ(read_text(magic + "clock-ns 1\nsource 0 processor p\n0 end\n", events), "accepted");
}

TEST(EventTrace, StatsOfAHandMadeTrace) {
  const std::string path = temp_path("stats");
  write_sample(path);
  const TraceStats s = event_trace_stats(path);
  // The trace does not begin with its run line: cycles count from 0.
  EXPECT_EQ(s.cycles, 50u);
  EXPECT_EQ(s.accesses, 1u);
  EXPECT_EQ(s.words, 6u);      // 3 vectors of 2 words
  EXPECT_EQ(s.conflicts, 2u);  // the access (14 > 10) and the interrupt (20 > 18)
  EXPECT_EQ(s.conflict_wait_cycles, 4u + 2u);
  ASSERT_EQ(s.processors.size(), 2u);
  EXPECT_EQ(s.processors[0].compute, 10u);
  EXPECT_EQ(s.processors[0].memory, 30u);
  EXPECT_EQ(s.processors[0].idle, 10u);
  EXPECT_EQ(s.processors[1].memory, 40u);
  ASSERT_EQ(s.buses.size(), 1u);
  EXPECT_EQ(s.buses[0].busy, 26u);
  ASSERT_EQ(s.channels.size(), 1u);
  EXPECT_EQ(s.channels[0].busy, 5u);
  EXPECT_EQ(s.max_channel_contention, 1u);
  EXPECT_EQ(s.messages_sent, 1u);
  EXPECT_EQ(s.messages_delivered, 1u);
  EXPECT_EQ(s.latency.count, 1u);
  EXPECT_EQ(s.latency.min, 49u - 41u);
  std::filesystem::remove(path);
}

// LatencyCounts against the definitions on the sorted values: the ceil(q n)-th smallest for the
// ranks, the mean as the sum of the sorted values (to the last bit), and each bin's count; with
// values in the dense range and above it (a saturated network's latencies), repeated values, a
// single value, and none.
TEST(EventTrace, LatencyCountsMatchTheSortedValues) {
  std::mt19937_64 rng(7);
  const std::vector<std::vector<std::uint64_t>> cases = [&] {
    std::vector<std::uint64_t> small;
    std::vector<std::uint64_t> wide;
    for (int i = 0; i < 1001; ++i) {
      small.push_back(20 + rng() % 300);
      wide.push_back(i % 3 == 0 ? 70'000 + rng() % 5'000'000 : rng() % 100);
    }
    return std::vector<std::vector<std::uint64_t>>{small, wide, {65'536}, {}};
  }();
  for (const std::vector<std::uint64_t>& values : cases) {
    LatencyCounts counts;
    for (const std::uint64_t v : values) {
      counts.add(v);
    }
    const LatencySummary s = counts.summary(20);
    std::vector<std::uint64_t> sorted = values;
    std::sort(sorted.begin(), sorted.end());
    ASSERT_EQ(s.count, values.size());
    if (values.empty()) {
      EXPECT_TRUE(s.histogram.empty());
      continue;
    }
    EXPECT_EQ(s.min, sorted.front());
    EXPECT_EQ(s.max, sorted.back());
    const auto rank = [&](double q) {
      const auto k = static_cast<std::size_t>(std::ceil(q * static_cast<double>(sorted.size())));
      return sorted[std::max<std::size_t>(k, 1) - 1];
    };
    EXPECT_EQ(s.p50, rank(0.50));
    EXPECT_EQ(s.p99, rank(0.99));
    double sum = 0;
    for (const std::uint64_t v : sorted) {
      sum += static_cast<double>(v);
    }
    EXPECT_EQ(s.mean, sum / static_cast<double>(sorted.size()));
    ASSERT_LE(s.histogram.size(), 20u);
    std::uint64_t binned = 0;
    for (std::size_t k = 0; k < s.histogram.size(); ++k) {
      const std::uint64_t lo = s.min + k * s.bin_width;
      const auto n = static_cast<std::uint64_t>(
          std::count_if(values.begin(), values.end(),
                        [&](std::uint64_t v) { return v >= lo && v < lo + s.bin_width; }));
      EXPECT_EQ(s.histogram[k], n) << "bin " << k;
      binned += s.histogram[k];
    }
    EXPECT_EQ(binned, values.size());
  }
  // Cleared, the counts hold nothing of before: a value added next is the only one.
  LatencyCounts cleared;
  cleared.add(5);
  cleared.add(70'000);
  cleared.clear();
  EXPECT_EQ(cleared.summary(1).count, 0u);
  cleared.add(9);
  const LatencySummary after = cleared.summary(20);
  EXPECT_EQ(after.count, 1u);
  EXPECT_EQ(after.min, 9u);
  EXPECT_EQ(after.max, 9u);
  EXPECT_EQ(after.histogram, (std::vector<std::uint64_t>{1}));
}

/// Records which source ids it was called with.
class IdLog : public Recorder {
 public:
  [[nodiscard]] bool enabled() const override { return true; }
  void activity(Cycle, SourceId p, Activity, std::uint32_t) override { ids.push_back(p); }
  void access(Cycle, Cycle, SourceId c, const AccessTrace& a) override {
    ids.push_back(c);
    ids.push_back(a.bus);
  }
  void message(Cycle, const MessageTrace& m) override { ids.push_back(m.channel); }
  std::vector<SourceId> ids;
};

TEST(FanoutRecorder, TranslatesIdsPerTarget) {
  IdLog shared;
  IdLog fresh;
  shared.register_source("other.p0", SourceKind::Processor);  // a system registered earlier
  FanoutRecorder fan({&shared, &fresh});
  const SourceId p = fan.register_source("omp.p0", SourceKind::Processor);
  const SourceId bus = fan.register_source("omp.rb0", SourceKind::Bus);
  const SourceId ch = fan.register_source("torus.r(0,0).x+", SourceKind::Channel);
  EXPECT_TRUE(fan.enabled());
  fan.activity(Cycle{1}, p, Activity::Compute, 0);
  AccessTrace a;
  a.bus = bus;
  fan.access(Cycle{2}, Cycle{3}, p, a);
  MessageTrace m;
  m.what = MessageEvent::Hop;
  m.channel = ch;
  fan.message(Cycle{4}, m);
  EXPECT_EQ(fresh.ids, (std::vector<SourceId>{0, 0, 1, 2}));
  EXPECT_EQ(shared.ids, (std::vector<SourceId>{1, 1, 2, 3}));
  EXPECT_EQ(shared.sources().at(3).path, "torus.r(0,0).x+");
  EXPECT_FALSE(FanoutRecorder({}).enabled());
}

// docs/traces.md, "Order within a cycle": a cycle's lines by source id, each source's in the
// order told, of its act lines only the last; a record told late (an access's, at its end) goes
// to its cycle while a claim holds the lines from the claim on.
TEST(EventTrace, ACyclesLinesAreInSourceOrderAndALateRecordWaitsForItsClaim) {
  const std::string path = temp_path("order");
  {
    EventTraceRecorder w(path, 50);
    const SourceId p0 = w.register_source("omp.p0", SourceKind::Processor);
    const SourceId bc0 = w.register_source("omp.bc0", SourceKind::BusController);
    const SourceId p1 = w.register_source("omp.p1", SourceKind::Processor);
    const SourceId rb0 = w.register_source("omp.rb0", SourceKind::Bus);
    w.claim(p0, Cycle{0});
    w.activity(Cycle{0}, p1, Activity::Compute, 0);
    w.activity(Cycle{0}, p0, Activity::WaitSync, 0);  // took no time: superseded
    w.activity(Cycle{0}, p0, Activity::Write, 1);
    w.activity(Cycle{5}, p1, Activity::Idle, 1);
    w.step_mark(Cycle{5}, p1, 0);
    AccessTrace a;
    a.mode = BusMode::Row;
    a.bus = rb0;
    a.write = true;
    const std::vector<std::uint32_t> slots = {1};
    a.slots = &slots;
    w.access(Cycle{0}, Cycle{9}, bc0, a);
    w.claim(p0, std::nullopt);
    w.activity(Cycle{9}, p0, Activity::Idle, 2);
    w.finish(Cycle{10});
  }
  std::ifstream in(path);
  std::vector<std::string> events;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("orthosim-trace", 0) != 0 && line.rfind("clock-ns", 0) != 0 &&
        line.rfind("source", 0) != 0) {
      events.push_back(line);
    }
  }
  EXPECT_EQ(events, (std::vector<std::string>{"0 act 0 write 1", "0 acc 9 1 3 row w 0 0 0 0 0 1",
                                              "0 act 2 compute 0", "5 act 2 idle 1", "5 step 2 0",
                                              "9 act 0 idle 2", "10 end"}));
  std::filesystem::remove(path);
}

TEST(EventTrace, UnfinishedWriterLeavesNoFile) {
  const std::string path = temp_path("unfinished");
  {
    EventTraceRecorder w(path, 50);
    w.register_source("omp.p0", SourceKind::Processor);
    w.activity(Cycle{0}, 0, Activity::Compute, 0);
  }
  EXPECT_FALSE(std::filesystem::exists(path));
  EXPECT_FALSE(std::filesystem::exists(path + ".partial"));
  EXPECT_THROW(EventTraceRecorder("/nonexistent-dir/x.trace", 50), std::runtime_error);
}

// ---------------------------------------------------------------------------------------------
// Inputs the fuzz targets found (tests/fuzz/corpus/*/regression-*): each is rejected with
// sw::InputError at a position inside the file.

/// Where reading `text` (written to a file) with `read` is rejected; fails the test if it is not.
template <typename Read>
sw::SourceLocation rejected_at(const std::string& text, Read read) {
  const std::string path = temp_path("rejected");
  std::ofstream(path, std::ios::binary) << text;
  sw::SourceLocation where;
  try {
    read(path);
    ADD_FAILURE() << "accepted: " << text;
  } catch (const sw::InputError& e) {
    where = e.where();
  }
  std::filesystem::remove(path);
  return where;
}

void read_events(const std::string& path) {
  EventTraceReader reader(path);
  TraceEvent e;
  while (reader.next(e)) {
  }
}

TEST(TraceReaders, EmptyFileIsRejectedAtLineOne) {
  const sw::SourceLocation trace = rejected_at("", read_events);
  EXPECT_EQ(trace.line, 1u);
  EXPECT_EQ(trace.column, 1u);
  const sw::SourceLocation vcd = rejected_at("", [](const std::string& p) { (void)vcd_stats(p); });
  EXPECT_EQ(vcd.line, 1u);
  EXPECT_EQ(vcd.column, 1u);
}

// A VCD's clock period is refused at its token when it is 0 or does not fit 32 bits (it was
// cut to 32 bits, so 4294967297 read as a clock of 1 ns); the message was "found none".
TEST(TraceReaders, AVcdsClockPeriodIsRefusedAtItsTokenOutsideOneTo2To32) {
  const auto read = [](const std::string& clock) {
    try {
      (void)vcd_stats(
          sw::InputFile::from_text("$version orthosim $end\n$comment clock-ns " + clock +
                                       " $end\n$timescale 1ns $end\n$enddefinitions $end\n#0\n",
                                   "w.vcd", trace_input_rules("VCD")));
    } catch (const sw::InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  for (const std::string clock : {"0", "4294967296", "4294967297"}) {
    EXPECT_EQ(read(clock),
              "w.vcd:2:19: expected the clock period in ns, 1..4294967295, found '" + clock + "'");
  }
  EXPECT_EQ(read("4294967295"), "accepted");
}

TEST(TraceReaders, ACarriageReturnInAQuotedTokenStaysOnOneLine) {
  // A trace saved with CRLF line ends: the version token is "1\r".
  const std::string path = temp_path("crlf");
  std::ofstream(path, std::ios::binary) << "orthosim-trace 1\r\nclock-ns 50\r\n";
  try {
    EventTraceReader reader(path);
    ADD_FAILURE() << "a CRLF trace was accepted";
  } catch (const sw::InputError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.find('\r'), std::string::npos) << message;
    EXPECT_NE(message.find("found '1\\r'"), std::string::npos) << message;
  }
  std::filesystem::remove(path);
}

TEST(TraceReaders, AStepMarkCannotSkipAheadOfItsProcessor) {
  // `trace stats` keeps one end per step: step 4294967294 alone asked for 32 GiB.
  const std::string header = "orthosim-trace 1\nclock-ns 50\nsource 0 processor p0\n";
  const sw::SourceLocation far = rejected_at(header + "0 step 0 4294967294\n1 end\n", read_events);
  EXPECT_EQ(far.line, 4u);
  EXPECT_EQ(far.column, 10u);
  const sw::SourceLocation skipped =
      rejected_at(header + "0 step 0 0\n1 step 0 2\n2 end\n", read_events);
  EXPECT_EQ(skipped.line, 5u);
  // In order, and again from 0 for the next program, it reads.
  const std::string path = temp_path("steps");
  std::ofstream(path, std::ios::binary) << header << "0 step 0 0\n1 step 0 1\n2 step 0 0\n3 end\n";
  EXPECT_EQ(event_trace_stats(path).step_ends, (std::vector<std::uint64_t>{2, 1}));
  std::filesystem::remove(path);
}

// Each trace below breaks the format (docs/traces.md, "Format, version 1") in one place and is
// refused there: the error starts with FILE:LINE:COL (columns counted in the line, from 1) and
// what was expected. The header has 6 lines (4 sources), so the first event is line 7.
TEST(TraceReaders, EachBreakOfTheFormatIsRefusedWhereItIs) {
  const std::string magic = "orthosim-trace 1\n";
  const std::string header = magic + "clock-ns 50\nsource 0 processor p0\nsource 1 controller bc0\n"
                                     "source 2 bus rb0\nsource 3 channel ch0\n";
  struct Case {
    std::string text;
    std::string refusal;  ///< how the error starts
  };
  const std::vector<Case> cases = {
      {"orthosim-trace 1 x\n", "t.trace:1:18: expected end of line"},
      {"orthosim-trace 0\n", "t.trace:1:16: expected format version 1"},
      {magic + "clock 50\n", "t.trace:2:1: expected 'clock-ns N' as the second line"},
      {magic + "clock-ns 50 7\n", "t.trace:2:13: expected end of line"},
      {magic + "clock-ns 50\nsource 0 processor\n", "t.trace:3:19: expected 4 fields"},
      {magic + "clock-ns 50\nsource 0 processor p0\nsource 0 processor p1\n",
       "t.trace:4:8: expected source id 1"},
      {header, "t.trace:6:1: expected events and an 'end' line"},
      {header + "0\n", "t.trace:7:2: expected an event"},
      // Fields are separated by spaces: a tab is part of a field (here, of the cycle), even at
      // the line's start.
      {header + "\t0 end\n", "t.trace:7:1: expected the event's cycle"},
      // 2^64 + 1 fits no cycle.
      {header + "18446744073709551617 end\n", "t.trace:7:1: expected the event's cycle"},
      {header + "0 act 0 compute 4294967296\n1 end\n", "t.trace:7:17: expected the op index below"},
      {header + "0 act 0 compute\n", "t.trace:7:16: expected 5 fields"},
      {header + "5 acc 4 1 2 row r 0 5 0 0 1 0\n", "t.trace:7:7: expected an end no earlier"},
      {header + "0 acc 4 2 2 row r 0 0 0 0 1 0\n", "t.trace:7:9: expected the id of a controller"},
      {header + "0 acc 4 1 2 idle r 0 0 0 0 1 0\n", "t.trace:7:13: expected row or column"},
      {header + "0 acc 4 1 2 row r 0 1 0 0 1 0\n", "t.trace:7:21: expected a request no later"},
      {header + "0 acc 4 1 2 row r 0 0 0 0 1 0,1234567890\n",
       "t.trace:7:31: expected a module slot, found '1234567890'"},
      {header + "0 acc 4 1 2 row r 0 0 0 0 1 0,,1\n",
       "t.trace:7:31: expected a module slot, found ''"},
      {header + "0 intr 0 1\n", "t.trace:7:10: expected a request no later"},
      {header + "0 step 0 1\n", "t.trace:7:10: expected a step index at most 0"},
      {header + "0 hop 0 0 0 1\n", "t.trace:7:9: expected the id of a channel"},
      {header + "5 deliver 0 1 4\n", "t.trace:7:15: expected a cycle no earlier"},
      {header + "0 end x\n", "t.trace:7:7: expected end of line"},
      {header + "0 end\n1 act 0 idle 0\n", "t.trace:8:1: expected nothing after the 'end' line"},
  };
  for (const Case& c : cases) {
    std::size_t events = 0;
    const std::string verdict = read_text(c.text, events);
    EXPECT_EQ(verdict.substr(0, c.refusal.size()), c.refusal) << verdict << " on\n" << c.text;
  }
  // The largest 32-bit op index, and an access without module slots ("-"), are in the format.
  std::size_t events = 0;
  EXPECT_EQ(read_text(header + "0 act 0 compute 4294967295\n1 end\n", events), "accepted");
  EXPECT_EQ(read_text(header + "0 acc 4 1 2 row r 0 0 0 0 1 -\n4 end\n", events), "accepted");
}

// Every field is read from its place: distinct values in every field of a send, an inject and an
// access, read back.
TEST(TraceReaders, EveryFieldIsReadFromItsPlace) {
  const std::string text =
      "orthosim-trace 1\nclock-ns 50\nsource 0 processor p0\nsource 1 controller bc0\n"
      "source 2 bus rb0\n"
      "1 send 5 6 7 8 1\n"
      "2 inject 5 9 10\n"
      "3 acc 40 1 2 column w 11 3 12 13 14 15,16\n"
      "40 end\n";
  EventTraceReader r(sw::InputFile::from_text(text, "t.trace", trace_input_rules("trace")));
  std::vector<TraceEvent> events;
  for (TraceEvent e; r.next(e);) {
    events.push_back(e);
  }
  ASSERT_EQ(events.size(), 4u);
  EXPECT_EQ(events[0].message.message, 5u);
  EXPECT_EQ(events[0].message.node, 6u);
  EXPECT_EQ(events[0].message.dst, 7u);
  EXPECT_EQ(events[0].message.size, 8u);
  EXPECT_EQ(events[1].message.node, 9u);
  EXPECT_EQ(events[1].message.size, 10u);
  const AccessTrace& a = events[2].access;
  EXPECT_EQ(a.mode, BusMode::Column);
  EXPECT_TRUE(a.write);
  EXPECT_EQ(a.master, 11u);
  EXPECT_EQ(a.requested, Cycle{3});
  EXPECT_EQ(a.index_set, 12u);
  EXPECT_EQ(a.address, 13u);
  EXPECT_EQ(a.vectors, 14u);
  EXPECT_EQ(events[2].slots, (std::vector<std::uint32_t>{15, 16}));
}

// A file whose first word only begins like the event trace's magic is no event trace: it is read
// as a VCD, and refused as neither.
TEST(TraceReaders, AFirstWordThatOnlyBeginsWithTheMagicIsNoEventTrace) {
  const std::string path = temp_path("magic");
  std::ofstream(path, std::ios::binary) << "orthosim-traces 1\n";
  try {
    (void)trace_stats(path);
    ADD_FAILURE() << "accepted";
  } catch (const sw::InputError& e) {
    EXPECT_NE(std::string(e.what()).find(":1:1: expected '$version' (a VCD) or an event trace's"),
              std::string::npos)
        << e.what();
  }
  std::filesystem::remove(path);
}

/// One element of a parsed XML document: its name, attributes, text and depth (the root is 0).
struct XmlElement {
  std::string name;
  std::map<std::string, std::string> attributes;
  std::string text;
  int depth = 0;
};

/// The elements of `doc` in document order, parsed by expat; empty if it is not well-formed.
std::vector<XmlElement> parse_xml(const std::string& doc) {
  struct State {
    std::vector<XmlElement> elements;
    std::vector<std::size_t> open;
  } state;
  XML_Parser parser = XML_ParserCreate(nullptr);
  XML_SetUserData(parser, &state);
  XML_SetElementHandler(
      parser,
      [](void* data, const XML_Char* name, const XML_Char** attributes) {
        auto* st = static_cast<State*>(data);
        XmlElement e;
        e.name = name;
        e.depth = static_cast<int>(st->open.size());
        for (std::size_t i = 0; attributes[i] != nullptr; i += 2) {
          e.attributes[attributes[i]] = attributes[i + 1];
        }
        st->open.push_back(st->elements.size());
        st->elements.push_back(std::move(e));
      },
      [](void* data, const XML_Char*) { static_cast<State*>(data)->open.pop_back(); });
  XML_SetCharacterDataHandler(parser, [](void* data, const XML_Char* text, int length) {
    auto* st = static_cast<State*>(data);
    if (!st->open.empty()) {
      st->elements[st->open.back()].text.append(text, static_cast<std::size_t>(length));
    }
  });
  const bool ok = XML_Parse(parser, doc.data(), static_cast<int>(doc.size()), 1) == XML_STATUS_OK;
  XML_ParserFree(parser);
  return ok ? state.elements : std::vector<XmlElement>{};
}

/// The numbers of an attribute such as "0 0 200 100" or "0,0 10,5.25" (commas read as spaces).
std::vector<double> numbers(std::string text) {
  std::replace(text.begin(), text.end(), ',', ' ');
  std::istringstream in(text);
  std::vector<double> out;
  for (double v = 0; in >> v;) {
    out.push_back(v);
  }
  return out;
}

// Every shape read back by an XML parser with the coordinates, colours and texts it was given
// (coordinates with up to two decimals are exact); a group still open at the end is closed; the
// markup characters of texts, titles and ids come back as they were.
TEST(SvgWriter, AnXmlParserReadsBackEveryShape) {
  SvgWriter svg(200, 100);
  svg.open_group("bus \"b\" & <c>");
  svg.rect(1, 2.5, 30, 40.25, "#f00", "a<b & \"c\">");
  svg.line(0, 1, 2, 3.75, "blue", 1.5);
  svg.close_group();
  svg.polyline({{0, 0}, {10, 5.25}, {20, 1}}, "red");
  svg.circle(5, 6, 7, "green");
  svg.open_group("open");
  svg.circle(8, 9, 1.25, "black", "dot");
  svg.text(3, 4, "x > y", 10, "end");
  const std::vector<XmlElement> e = parse_xml(svg.str());
  const std::vector<std::pair<std::string, int>> shape = {
      {"svg", 0},      {"rect", 1},   {"g", 1}, {"rect", 2},   {"title", 3}, {"line", 2},
      {"polyline", 1}, {"circle", 1}, {"g", 1}, {"circle", 2}, {"title", 3}, {"text", 2}};
  ASSERT_EQ(e.size(), shape.size()) << svg.str();
  for (std::size_t i = 0; i < shape.size(); ++i) {
    EXPECT_EQ(e[i].name, shape[i].first) << i;
    EXPECT_EQ(e[i].depth, shape[i].second) << e[i].name << " " << i;
  }
  const auto number = [](const XmlElement& x, const std::string& a) {
    return std::stod(x.attributes.at(a));
  };
  EXPECT_EQ(e[0].attributes.at("xmlns"), "http://www.w3.org/2000/svg");
  EXPECT_EQ(number(e[0], "width"), 200);
  EXPECT_EQ(number(e[0], "height"), 100);
  EXPECT_EQ(numbers(e[0].attributes.at("viewBox")), (std::vector<double>{0, 0, 200, 100}));
  // The white background covers the whole picture.
  EXPECT_EQ(number(e[1], "width"), 200);
  EXPECT_EQ(number(e[1], "height"), 100);
  EXPECT_EQ(e[2].attributes.at("id"), "bus \"b\" & <c>");
  EXPECT_EQ((std::vector<double>{number(e[3], "x"), number(e[3], "y"), number(e[3], "width"),
                                 number(e[3], "height")}),
            (std::vector<double>{1, 2.5, 30, 40.25}));
  EXPECT_EQ(e[3].attributes.at("fill"), "#f00");
  EXPECT_EQ(e[4].text, "a<b & \"c\">");
  EXPECT_EQ((std::vector<double>{number(e[5], "x1"), number(e[5], "y1"), number(e[5], "x2"),
                                 number(e[5], "y2"), number(e[5], "stroke-width")}),
            (std::vector<double>{0, 1, 2, 3.75, 1.5}));
  EXPECT_EQ(e[5].attributes.at("stroke"), "blue");
  EXPECT_EQ(numbers(e[6].attributes.at("points")), (std::vector<double>{0, 0, 10, 5.25, 20, 1}));
  EXPECT_EQ(e[6].attributes.at("stroke"), "red");
  EXPECT_EQ(e[6].attributes.at("fill"), "none");
  EXPECT_EQ(number(e[6], "stroke-width"), 2);
  EXPECT_EQ((std::vector<double>{number(e[7], "cx"), number(e[7], "cy"), number(e[7], "r")}),
            (std::vector<double>{5, 6, 7}));
  EXPECT_EQ(e[7].attributes.at("fill"), "green");
  EXPECT_EQ(e[8].attributes.at("id"), "open");
  EXPECT_EQ(number(e[9], "r"), 1.25);
  EXPECT_EQ(e[10].text, "dot");
  EXPECT_EQ((std::vector<double>{number(e[11], "x"), number(e[11], "y"),
                                 number(e[11], "font-size")}),
            (std::vector<double>{3, 4, 10}));
  EXPECT_EQ(e[11].attributes.at("text-anchor"), "end");
  EXPECT_EQ(e[11].text, "x > y");
}

// Every string the writer is given, in attributes and in text, comes back through an XML parser
// as it was, whatever markup characters it holds.
TEST(SvgWriter, EveryStringIsEscaped) {
  const std::string odd = "a\"b' & <c>";
  SvgWriter svg(10, 10);
  svg.open_group(odd);
  svg.rect(0, 0, 1, 1, odd, odd);
  svg.line(0, 0, 1, 1, odd);
  svg.polyline({{0, 0}, {1, 1}}, odd);
  svg.circle(1, 1, 1, odd, odd);
  svg.text(0, 0, odd, 10, odd);
  const std::vector<XmlElement> e = parse_xml(svg.str());
  ASSERT_EQ(e.size(), 10u) << svg.str();  // svg, background, g, rect, title, line, polyline,
                                          // circle, title, text
  EXPECT_EQ(e[2].attributes.at("id"), odd);
  EXPECT_EQ(e[3].attributes.at("fill"), odd);
  EXPECT_EQ(e[4].text, odd);
  EXPECT_EQ(e[5].attributes.at("stroke"), odd);
  EXPECT_EQ(e[6].attributes.at("stroke"), odd);
  EXPECT_EQ(e[7].attributes.at("fill"), odd);
  EXPECT_EQ(e[8].text, odd);
  EXPECT_EQ(e[9].attributes.at("text-anchor"), odd);
  EXPECT_EQ(e[9].text, odd);
}

TEST(SvgWriter, CloseWithoutOpenIsRefused) {
  SvgWriter svg(10, 10);
  svg.open_group("g");
  svg.close_group();
  EXPECT_THROW(svg.close_group(), std::logic_error);
}

TEST(SvgWriter, SaveWritesTheDocument) {
  SvgWriter svg(10, 10);
  svg.rect(1, 1, 2, 2, "red");
  const std::string path = temp_path("svg_save");
  svg.save(path);
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  std::filesystem::remove(path);
  EXPECT_EQ(text.str(), svg.str());
}

TEST(SvgWriter, EscapesText) {
  SvgWriter svg(10, 10);
  svg.text(0, 0, "a<b & \"c\">");
  const std::string doc = svg.str();
  EXPECT_NE(doc.find("a&lt;b &amp; &quot;c&quot;&gt;"), std::string::npos);
  EXPECT_EQ(doc.find("a<b"), std::string::npos);
}

/// Writes every call it gets as a line: the call's name and all its arguments.
class CallLog : public Recorder {
 public:
  [[nodiscard]] bool enabled() const override { return true; }
  void activity(Cycle at, SourceId p, Activity what, std::uint32_t op) override {
    log("activity", {at.count(), p, static_cast<std::uint64_t>(what), op});
  }
  void access_begin(Cycle at, SourceId c, const AccessTrace& a) override {
    log("access_begin", {at.count(), c, a.bus, a.master});
  }
  void beat(Cycle at, Cycle length, SourceId c, const AccessTrace& a, std::uint32_t slot,
            std::uint32_t address, std::uint32_t data) override {
    log("beat", {at.count(), length.count(), c, a.bus, slot, address, data});
  }
  void access_end(Cycle at, SourceId c, const AccessTrace& a) override {
    log("access_end", {at.count(), c, a.bus});
  }
  void access(Cycle start, Cycle end, SourceId c, const AccessTrace& a) override {
    log("access", {start.count(), end.count(), c, a.bus});
  }
  void interrupt_granted(Cycle at, SourceId p, Cycle requested) override {
    log("interrupt_granted", {at.count(), p, requested.count()});
  }
  void claim(SourceId source, std::optional<Cycle> from) override {
    log("claim", {source, from ? from->count() : 999});
  }
  void step_mark(Cycle at, SourceId p, std::uint32_t step) override {
    log("step_mark", {at.count(), p, step});
  }
  void run_begin(Cycle at, const std::string& label) override {
    calls.push_back("run_begin " + std::to_string(at.count()) + " " + label);
  }
  void message(Cycle at, const MessageTrace& m) override {
    log("message", {at.count(), static_cast<std::uint64_t>(m.what), m.message, m.channel});
  }
  void channel_vcs(SourceId channel, std::uint32_t vcs) override {
    log("channel_vcs", {channel, vcs});
  }
  void channel_occupancy(Cycle at, SourceId channel, std::uint32_t vc,
                         std::uint32_t flits) override {
    log("channel_occupancy", {at.count(), channel, vc, flits});
  }
  std::vector<std::string> calls;

 private:
  void log(const std::string& name, const std::vector<std::uint64_t>& args) {
    std::string line = name;
    for (const std::uint64_t a : args) {
      line += " " + std::to_string(a);
    }
    calls.push_back(line);
  }
};

// Every call reaches every target, in order, with its arguments as given and each source id (of
// the call, of an access's bus, of a hop's channel) the target's own: a target that already knew
// two sources sees every id two higher.
TEST(FanoutRecorder, EveryCallReachesEveryTargetWithItsIds) {
  CallLog shared;
  CallLog fresh;
  shared.register_source("other.p0", SourceKind::Processor);
  shared.register_source("other.p1", SourceKind::Processor);
  FanoutRecorder fan({&shared, &fresh});
  const SourceId p = fan.register_source("omp.p0", SourceKind::Processor);          // 0, shared 2
  const SourceId bc = fan.register_source("omp.bc0", SourceKind::BusController);    // 1, shared 3
  const SourceId bus = fan.register_source("omp.rb0", SourceKind::Bus);             // 2, shared 4
  const SourceId ch = fan.register_source("torus.r(0,0).x+", SourceKind::Channel);  // 3, shared 5
  AccessTrace a;
  a.bus = bus;
  a.master = 7;
  fan.channel_vcs(ch, 2);
  fan.activity(Cycle{1}, p, Activity::Read, 4);
  fan.access_begin(Cycle{2}, bc, a);
  fan.beat(Cycle{3}, Cycle{2}, bc, a, 5, 6, 8);
  fan.access_end(Cycle{5}, bc, a);
  fan.access(Cycle{2}, Cycle{6}, bc, a);
  fan.interrupt_granted(Cycle{9}, p, Cycle{7});
  fan.claim(bc, Cycle{10});
  fan.claim(bc, std::nullopt);
  fan.step_mark(Cycle{11}, p, 3);
  fan.run_begin(Cycle{12}, "program x");
  MessageTrace hop;
  hop.what = MessageEvent::Hop;
  hop.message = 9;
  hop.channel = ch;
  fan.message(Cycle{13}, hop);
  MessageTrace send;
  send.what = MessageEvent::Send;
  send.message = 9;
  send.channel = 1;  // not a source id: passed as it is
  fan.message(Cycle{13}, send);
  fan.channel_occupancy(Cycle{14}, ch, 1, 3);
  const auto hop_code = std::to_string(static_cast<int>(MessageEvent::Hop));
  const auto send_code = std::to_string(static_cast<int>(MessageEvent::Send));
  const auto read_code = std::to_string(static_cast<int>(Activity::Read));
  const auto expected = [&](SourceId shift) {
    const auto id = [&](SourceId ours) { return std::to_string(ours + shift); };
    return std::vector<std::string>{"channel_vcs " + id(3) + " 2",
                                    "activity 1 " + id(0) + " " + read_code + " 4",
                                    "access_begin 2 " + id(1) + " " + id(2) + " 7",
                                    "beat 3 2 " + id(1) + " " + id(2) + " 5 6 8",
                                    "access_end 5 " + id(1) + " " + id(2),
                                    "access 2 6 " + id(1) + " " + id(2),
                                    "interrupt_granted 9 " + id(0) + " 7",
                                    "claim " + id(1) + " 10",
                                    "claim " + id(1) + " 999",
                                    "step_mark 11 " + id(0) + " 3",
                                    "run_begin 12 program x",
                                    "message 13 " + hop_code + " 9 " + id(3),
                                    "message 13 " + send_code + " 9 1",
                                    "channel_occupancy 14 " + id(3) + " 1 3"};
  };
  EXPECT_EQ(fresh.calls, expected(0));
  EXPECT_EQ(shared.calls, expected(2));
}

/// A complete ("ph":"X") event of a trace-event JSON: its track, start and length in microseconds.
struct Complete {
  std::string name;
  int pid;
  int tid;
  double ts;
  double dur;
};

/// The JSON `export_perfetto` makes of the trace at `trace`.
nlohmann::json perfetto_of(const std::string& trace) {
  const std::string out = trace + ".json";
  export_perfetto(trace, out);
  std::ifstream in(out);
  std::stringstream text;
  text << in.rdbuf();
  std::filesystem::remove(out);
  return nlohmann::json::parse(text.str());
}

/// Checks that the complete events of `doc` are `expected` (in any order), times to 1e-9 us.
void expect_completes(const nlohmann::json& doc, std::vector<Complete> expected) {
  std::vector<Complete> found;
  for (const nlohmann::json& e : doc.at("traceEvents")) {
    if (e.at("ph") == "X") {
      found.push_back({e.at("name").get<std::string>(), e.at("pid").get<int>(),
                       e.at("tid").get<int>(), e.at("ts").get<double>(),
                       e.at("dur").get<double>()});
    } else {
      EXPECT_EQ(e.at("ph"), "M") << e.dump();
    }
  }
  const auto by_track_and_time = [](const Complete& a, const Complete& b) {
    return std::tie(a.pid, a.tid, a.ts) < std::tie(b.pid, b.tid, b.ts);
  };
  std::sort(found.begin(), found.end(), by_track_and_time);
  std::sort(expected.begin(), expected.end(), by_track_and_time);
  ASSERT_EQ(found.size(), expected.size());
  for (std::size_t i = 0; i < found.size(); ++i) {
    EXPECT_EQ(found[i].name, expected[i].name) << i;
    EXPECT_EQ(found[i].pid, expected[i].pid) << expected[i].name;
    EXPECT_EQ(found[i].tid, expected[i].tid) << expected[i].name;
    EXPECT_NEAR(found[i].ts, expected[i].ts, 1e-9) << expected[i].name;
    EXPECT_NEAR(found[i].dur, expected[i].dur, 1e-9) << expected[i].name;
  }
}

/// The metadata events of `doc`: (name, pid, tid) -> args.
std::map<std::tuple<std::string, int, int>, nlohmann::json> metadata(const nlohmann::json& doc) {
  std::map<std::tuple<std::string, int, int>, nlohmann::json> out;
  for (const nlohmann::json& e : doc.at("traceEvents")) {
    if (e.at("ph") == "M") {
      EXPECT_TRUE(out.emplace(std::make_tuple(e.at("name").get<std::string>(),
                                              e.at("pid").get<int>(), e.at("tid").get<int>()),
                              e.at("args"))
                      .second)
          << "twice: " << e.dump();
    }
  }
  return out;
}

// The sample's events as trace-event JSON (docs/traces.md, "Perfetto"), worked out by hand at 50 ns
// a cycle (a cycle is 0.05 us): one process per system (omp 1, torus 2, in order of first source),
// a processor's or bus's track is its source id + 1, the router port's virtual channel gets the
// next track after the five sources (6). Idle is no event.
TEST(Perfetto, TheSamplesEventsOnTheirTracksInMicroseconds) {
  const std::string path = temp_path("perfetto_sample");
  write_sample(path);
  const nlohmann::json doc = perfetto_of(path);
  std::filesystem::remove(path);
  EXPECT_EQ(doc.at("displayTimeUnit"), "ns");
  expect_completes(doc, {{"compute", 1, 1, 0.0, 10 * 0.05},
                         {"read", 1, 1, 10 * 0.05, 30 * 0.05},
                         {"write", 1, 2, 0.0, 40 * 0.05},
                         {"P0 read", 1, 4, 14 * 0.05, 26 * 0.05},
                         {"m0", 2, 6, 42 * 0.05, 5 * 0.05}});
  for (const nlohmann::json& e : doc.at("traceEvents")) {
    if (e.at("name") == "P0 read") {
      const nlohmann::json& args = e.at("args");
      EXPECT_EQ(args.at("controller"), "omp.bc0");
      EXPECT_EQ(args.at("mode"), "row");
      EXPECT_NEAR(args.at("requested_us").get<double>(), 10 * 0.05, 1e-9);
      EXPECT_EQ(args.at("index_set"), 2);
      EXPECT_EQ(args.at("address"), 7);
      EXPECT_EQ(args.at("vectors"), 3);
      EXPECT_EQ(args.at("slots"), "1,2");
    } else if (e.at("name") == "read") {
      EXPECT_EQ(e.at("args").at("op"), 1);
    } else if (e.at("name") == "m0") {
      EXPECT_EQ(e.at("args").at("message"), 0);
      EXPECT_EQ(e.at("args").at("flits"), 5);
    }
  }
  const auto meta = metadata(doc);
  using Key = std::tuple<std::string, int, int>;
  EXPECT_EQ(meta.at(Key{"process_name", 1, 0}).at("name"), "omp");
  EXPECT_EQ(meta.at(Key{"process_name", 2, 0}).at("name"), "torus");
  const std::vector<std::tuple<int, int, std::string>> tracks = {{1, 1, "omp.p0"},
                                                                 {1, 2, "omp.p1"},
                                                                 {1, 4, "omp.rb0"},
                                                                 {2, 6, "torus.r(0,0).x+.vc1"}};
  int last_sort_index = -1;
  for (const auto& [pid, tid, name] : tracks) {
    EXPECT_EQ(meta.at(Key{"thread_name", pid, tid}).at("name"), name);
    // Tracks sort in source order, virtual channels after the processors and buses.
    const int sort_index = meta.at(Key{"thread_sort_index", pid, tid}).at("sort_index").get<int>();
    EXPECT_GT(sort_index, last_sort_index) << name;
    last_sort_index = sort_index;
  }
  EXPECT_EQ(meta.size(), 2u + 2 * tracks.size());
}

// A network run at 10 ns a cycle (0.01 us): a packet's flits cross one per cycle, so a packet
// that arrives while the previous one on its virtual channel still crosses starts after it; each
// virtual channel has its own track (3 and 4, after the two sources) in order of first use; only
// hops are events; an activity of no cycles (begun at the end) is none; one still going at the end
// lasts until it.
TEST(Perfetto, PacketsQueueOnTheirVirtualChannelsTrack) {
  const std::string path = temp_path("perfetto_network");
  {
    EventTraceRecorder w(path, 10);
    const SourceId node = w.register_source("mesh.node0", SourceKind::Processor);
    const SourceId ch = w.register_source("mesh.r(0,0).x+", SourceKind::Channel);
    w.activity(Cycle{1}, node, Activity::Compute, 0);
    w.activity(Cycle{5}, node, Activity::Read, 1);
    w.activity(Cycle{5}, node, Activity::Compute, 2);
    w.message(Cycle{5}, {MessageEvent::Send, 1, 0, 1, 3, 0, 0, true});
    w.message(Cycle{5}, {MessageEvent::Inject, 1, 0, 0, 3, 0, 0, true});
    w.message(Cycle{6}, {MessageEvent::Hop, 1, 0, 0, 3, ch, 0, true});
    w.message(Cycle{7}, {MessageEvent::Hop, 2, 0, 0, 2, ch, 0, true});  // waits until 6 + 3
    w.message(Cycle{7}, {MessageEvent::Hop, 3, 0, 0, 4, ch, 1, true});
    w.message(Cycle{8}, {MessageEvent::Hop, 4, 0, 0, 1, ch, 0, true});  // waits until 9 + 2
    w.message(Cycle{12}, {MessageEvent::Eject, 1, 1, 0, 3, 0, 0, true});
    w.message(Cycle{12}, {MessageEvent::Deliver, 1, 1, 0, 0, 0, 0, true, Cycle{13}});
    w.activity(Cycle{20}, node, Activity::Read, 3);  // no cycle before the end
    w.finish(Cycle{20});
  }
  const nlohmann::json doc = perfetto_of(path);
  std::filesystem::remove(path);
  expect_completes(doc, {{"compute", 1, 1, 1 * 0.01, 4 * 0.01},
                         {"compute", 1, 1, 5 * 0.01, 15 * 0.01},
                         {"m1", 1, 3, 6 * 0.01, 3 * 0.01},
                         {"m2", 1, 3, 9 * 0.01, 2 * 0.01},
                         {"m4", 1, 3, 11 * 0.01, 1 * 0.01},
                         {"m3", 1, 4, 7 * 0.01, 4 * 0.01}});
  const auto meta = metadata(doc);
  using Key = std::tuple<std::string, int, int>;
  EXPECT_EQ(meta.at(Key{"thread_name", 1, 3}).at("name"), "mesh.r(0,0).x+.vc0");
  EXPECT_EQ(meta.at(Key{"thread_name", 1, 4}).at("name"), "mesh.r(0,0).x+.vc1");
}

// A column-bus write: named by its master and direction, its mode in the arguments, on the bus's
// track (source 2 + 1), from the grant at cycle 3 to the end at 9 (20 ns a cycle: 0.02 us).
TEST(Perfetto, AColumnWriteOnItsBusTrack) {
  const std::string path = temp_path("perfetto_column");
  {
    EventTraceRecorder w(path, 20);
    w.register_source("omp.p1", SourceKind::Processor);
    const SourceId bc = w.register_source("omp.bc1", SourceKind::BusController);
    const SourceId cb = w.register_source("omp.cb0", SourceKind::Bus);
    AccessTrace a;
    a.mode = BusMode::Column;
    a.bus = cb;
    a.master = 1;
    a.write = true;
    a.requested = Cycle{3};
    a.vectors = 1;
    const std::vector<std::uint32_t> slots = {4};
    a.slots = &slots;
    w.access(Cycle{3}, Cycle{9}, bc, a);
    w.finish(Cycle{10});
  }
  const nlohmann::json doc = perfetto_of(path);
  std::filesystem::remove(path);
  expect_completes(doc, {{"P1 write", 1, 3, 3 * 0.02, 6 * 0.02}});
  for (const nlohmann::json& e : doc.at("traceEvents")) {
    if (e.at("ph") == "X") {
      EXPECT_EQ(e.at("args").at("mode"), "column");
      EXPECT_EQ(e.at("args").at("slots"), "4");
    }
  }
}

}  // namespace
}  // namespace orthosim::traces
