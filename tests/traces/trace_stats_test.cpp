// `orthosim trace stats` and `trace plot`'s timeline on hand-built inputs (docs/traces.md):
// every figure worked out by hand from the events written, for an event trace and for a VCD
// written with the project's own writers, and the VCD reader's refusals at their FILE:LINE:COL.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sw/core/diagnostic.hpp"
#include "traces/event_trace.hpp"
#include "traces/event_trace_reader.hpp"
#include "traces/plot.hpp"
#include "traces/trace_stats.hpp"
#include "traces/vcd_writer.hpp"

namespace orthosim::traces {
namespace {

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          (name + "_" + std::to_string(::getpid()) + "_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name()))
      .string();
}

/// One processor doing every activity in turn, activity code k for 2^k cycles (compute, code 1,
/// first; wait-message, code 10, last), then idle for one cycle: each share is a sum of distinct
/// powers of two, so an activity counted in the wrong share changes two shares.
struct Phase {
  Activity what;
  std::uint64_t from;
};
std::vector<Phase> every_activity(std::uint64_t& end) {
  std::vector<Phase> phases;
  std::uint64_t at = 0;
  for (std::uint8_t code = 1; code <= 10; ++code) {
    phases.push_back({static_cast<Activity>(code), at});
    at += std::uint64_t{1} << code;
  }
  phases.push_back({Activity::Idle, at});  // 2 + 4 + ... + 1024 = 2046
  end = at + 1;
  return phases;
}

// Shares (docs/traces.md): memory = read (2^2) + write (2^3) + iwr-write (2^4) + iwr-read (2^6);
// sync = bus-switch (2^5) + activate-sync (2^7) + wait-sync (2^8) + barrier (2^9); message =
// wait-message (2^10); idle = the last cycle.
constexpr std::uint64_t kCompute = 2;
constexpr std::uint64_t kMemory = 4 + 8 + 16 + 64;
constexpr std::uint64_t kSync = 32 + 128 + 256 + 512;
constexpr std::uint64_t kMessage = 1024;
constexpr std::uint64_t kIdle = 1;

void expect_every_activity_shares(const ProcessorShare& p) {
  EXPECT_EQ(p.name, "omp.p0");
  EXPECT_EQ(p.compute, kCompute);
  EXPECT_EQ(p.memory, kMemory);
  EXPECT_EQ(p.sync, kSync);
  EXPECT_EQ(p.message, kMessage);
  EXPECT_EQ(p.idle, kIdle);
}

// The event trace of that processor, with two accesses on bus rb0 (rb1 never used) and an
// interrupt granted late.
TEST(TraceStats, EveryActivityBusAccessAndConflictOfAHandBuiltTrace) {
  const std::string path = temp_path("activities") + ".trace";
  std::uint64_t end = 0;
  {
    EventTraceRecorder w(path, 50);
    const SourceId p0 = w.register_source("omp.p0", SourceKind::Processor);
    const SourceId bc0 = w.register_source("omp.bc0", SourceKind::BusController);
    const SourceId rb0 = w.register_source("omp.rb0", SourceKind::Bus);
    w.register_source("omp.rb1", SourceKind::Bus);
    AccessTrace a;
    a.bus = rb0;
    a.master = 0;
    const std::vector<std::uint32_t> two = {0, 1};
    const std::vector<std::uint32_t> three = {0, 1, 2};
    std::uint32_t op = 0;
    // The writer takes the events in cycle order: each access and interrupt after the activity
    // it falls in (read from 2, write from 6, activate-sync from 126).
    for (const Phase& ph : every_activity(end)) {
      w.activity(Cycle{ph.from}, p0, ph.what, op++);
      if (ph.what == Activity::Read) {
        a.mode = BusMode::Row;
        a.requested = Cycle{2};  // granted when asked for: no conflict
        a.vectors = 1;
        a.slots = &two;
        w.access(Cycle{2}, Cycle{5}, bc0, a);
      } else if (ph.what == Activity::Write) {
        a.mode = BusMode::Column;
        a.write = true;
        a.requested = Cycle{4};  // granted 2 cycles late
        a.vectors = 2;
        a.slots = &three;
        w.access(Cycle{6}, Cycle{13}, bc0, a);
      } else if (ph.what == Activity::ActivateSync) {
        w.interrupt_granted(Cycle{130}, p0, Cycle{126});  // 4 cycles late
        w.interrupt_granted(Cycle{140}, p0, Cycle{140});  // at once: no conflict
      }
    }
    w.finish(Cycle{end});
  }
  const TraceStats s = event_trace_stats(path);
  std::filesystem::remove(path);
  EXPECT_EQ(s.format, "event-trace");
  EXPECT_EQ(s.clock_ns, 50u);
  EXPECT_EQ(s.cycles, 2047u);
  EXPECT_EQ(s.runs, 1u);  // no run line: one run
  ASSERT_EQ(s.processors.size(), 1u);
  expect_every_activity_shares(s.processors[0]);
  ASSERT_EQ(s.buses.size(), 2u);
  EXPECT_EQ(s.buses[0].name, "omp.rb0");
  EXPECT_EQ(s.buses[0].busy, (5u - 2u) + (13u - 6u));
  EXPECT_EQ(s.buses[0].count, 2u);
  EXPECT_EQ(s.buses[1].name, "omp.rb1");
  EXPECT_EQ(s.buses[1].busy, 0u);
  EXPECT_EQ(s.buses[1].count, 0u);
  EXPECT_EQ(s.accesses, 2u);
  EXPECT_EQ(s.words, 1u * 2u + 2u * 3u);  // vectors x slots
  EXPECT_EQ(s.conflicts, 2u);             // the second access and the first interrupt
  EXPECT_EQ(s.conflict_wait_cycles, 2u + 4u);
  EXPECT_TRUE(s.channels.empty());
  EXPECT_EQ(s.latency.count, 0u);
  EXPECT_TRUE(s.cannot_say.empty());
}

// The same processor and bus in a VCD written by the project's VCD writer, at a timescale of
// 10 ns and a clock of 50 ns: a cycle is 5 time units, and the VCD's figures are the event
// trace's.
TEST(TraceStats, AVcdAtATimescaleOtherThanOneNanosecondCountsCyclesOfTheClock) {
  const std::string path = temp_path("activities") + ".vcd";
  constexpr std::uint64_t kUnitsPerCycle = 50 / 10;
  std::uint64_t end = 0;
  {
    VcdWriter vcd(path, 10);
    vcd.add_comment("clock-ns 50");
    const VcdWriter::VarId op = vcd.add_var("omp.p0.op", 4);
    const VcdWriter::VarId rb0 = vcd.add_var("omp.rb0.busy", 1);
    vcd.add_var("omp.rb1.busy", 1);
    for (const Phase& ph : every_activity(end)) {
      vcd.change(ph.from * kUnitsPerCycle, op, static_cast<std::uint64_t>(ph.what));
    }
    for (const auto& [from, to] : {std::pair<std::uint64_t, std::uint64_t>{2, 5}, {6, 13}}) {
      vcd.change(from * kUnitsPerCycle, rb0, 1);
      vcd.change(to * kUnitsPerCycle, rb0, 0);
    }
    vcd.commit(end * kUnitsPerCycle);
  }
  const TraceStats s = vcd_stats(path);
  std::filesystem::remove(path);
  EXPECT_EQ(s.format, "vcd");
  EXPECT_EQ(s.clock_ns, 50u);
  EXPECT_EQ(s.cycles, 2047u);
  ASSERT_EQ(s.processors.size(), 1u);
  expect_every_activity_shares(s.processors[0]);
  ASSERT_EQ(s.buses.size(), 2u);
  EXPECT_EQ(s.buses[0].name, "omp.rb0");
  EXPECT_EQ(s.buses[0].busy, 10u);
  EXPECT_EQ(s.buses[1].busy, 0u);
  EXPECT_EQ(s.cannot_say.size(), 3u);
}

/// The statistics of an event trace given as text.
TraceStats stats_of(const std::string& text) {
  return event_trace_stats(sw::InputFile::from_text(text, "t.trace", trace_input_rules("trace")));
}

// Two programs on a network in one trace that begins with the first one's run line at cycle 100
// (line 7, after 4 sources). Cycles count from 100; the idle time before it is not the run's.
// Steps: run a's step 0 ends at 118 - 100 = 18, run b's at 126 - 120 = 6: the step's end is the
// longest of the runs, 18. Latency, measured messages only, send to the cycle the destination
// sees it: run a's message 0, 106 - 100 = 6; run b's message 0 (ids count again), 161 - 121 =
// 40; run b's message 1 is not measured.
const std::string kTwoRuns = "orthosim-trace 1\nclock-ns 10\n"
                             "source 0 processor net.node0\nsource 1 processor net.node1\n"
                             "source 2 channel net.r(0).d0\nsource 3 channel net.r(1).d0\n"
                             "100 run program a\n"
                             "100 act 0 compute 0\n"
                             "100 send 0 0 1 4 1\n"
                             "102 hop 0 2 0 3\n"
                             "105 deliver 0 1 106\n"
                             "110 act 0 idle 1\n"
                             "110 step 0 0\n"
                             "118 step 1 0\n"
                             "120 run program b\n"
                             "121 send 0 1 0 2 1\n"
                             "121 send 1 0 1 2 0\n"
                             "125 step 0 0\n"
                             "125 deliver 1 1 126\n"
                             "126 step 1 0\n"
                             "160 deliver 0 0 161\n"
                             "170 end\n";

TEST(TraceStats, TwoRunsInATraceThatBeginsWithItsFirstRun) {
  const TraceStats s = stats_of(kTwoRuns);
  EXPECT_EQ(s.runs, 2u);
  EXPECT_EQ(s.cycles, 170u - 100u);
  ASSERT_EQ(s.processors.size(), 2u);
  // node0 computes 100..110 and is idle 110..170; node1 is idle throughout.
  EXPECT_EQ(s.processors[0].compute, 10u);
  EXPECT_EQ(s.processors[0].idle, 60u);
  EXPECT_EQ(s.processors[1].compute, 0u);
  EXPECT_EQ(s.processors[1].idle, 70u);
  EXPECT_EQ(s.step_ends, (std::vector<std::uint64_t>{18}));
  EXPECT_EQ(s.messages_sent, 3u);
  EXPECT_EQ(s.messages_delivered, 3u);
  // Only the channel a packet crossed is listed: 3 flits, 1 packet.
  ASSERT_EQ(s.channels.size(), 1u);
  EXPECT_EQ(s.channels[0].name, "net.r(0).d0");
  EXPECT_EQ(s.channels[0].busy, 3u);
  EXPECT_EQ(s.channels[0].count, 1u);
  EXPECT_EQ(s.max_channel_contention, 1u);
  const LatencySummary& l = s.latency;
  EXPECT_EQ(l.count, 2u);
  EXPECT_EQ(l.min, 6u);
  EXPECT_EQ(l.max, 40u);
  EXPECT_EQ(l.mean, (6.0 + 40.0) / 2);
  EXPECT_EQ(l.p50, 6u);   // the ceil(0.5 x 2) = 1st smallest
  EXPECT_EQ(l.p99, 40u);  // the ceil(0.99 x 2) = 2nd
  // 20 bins over 6..40 (35 values): bins ceil(35 / 20) = 2 cycles wide, ceil(35 / 2) = 18 of them;
  // 6 in the first, 40 in bin (40 - 6) / 2 = 17.
  EXPECT_EQ(l.bin_width, 2u);
  std::vector<std::uint64_t> histogram(18, 0);
  histogram.front() = histogram.back() = 1;
  EXPECT_EQ(l.histogram, histogram);
}

// The same trace with an act line before the run line: the trace does not begin with its run,
// so cycles count from 0 and the idle time before cycle 100 is the run's.
TEST(TraceStats, ATraceThatDoesNotBeginWithItsRunCountsFromCycleZero) {
  std::string text = kTwoRuns;
  text.replace(text.find("100 run program a\n"), 0, "0 act 1 idle 0\n");
  const TraceStats s = stats_of(text);
  EXPECT_EQ(s.cycles, 170u);
  EXPECT_EQ(s.processors[0].idle, 100u + 60u);
  EXPECT_EQ(s.processors[1].idle, 170u);
  // Steps count from their run's start all the same.
  EXPECT_EQ(s.step_ends, (std::vector<std::uint64_t>{18}));
}

// `trace plot`'s timeline of a trace that begins with its run at cycle 100: 40 cycles, one
// column each, so every interval is drawn as it is, from the run's start: p0 computes 0..10,
// reads 10..30 and computes again until the end (never idle); bus rb0 is busy 12..20. An idle
// stretch is the background, never a bar of its own.
TEST(TracePlot, TheTimelineDrawsEachActivityAndBusyBusFromTheRunsStart) {
  const std::string dir = temp_path("plot");
  std::filesystem::create_directories(dir);
  const std::string trace = dir + "/t.trace";
  std::ofstream(trace, std::ios::binary)
      << "orthosim-trace 1\nclock-ns 50\nsource 0 processor omp.p0\nsource 1 processor omp.p1\n"
         "source 2 controller omp.bc0\nsource 3 bus omp.rb0\n"
         "100 run program a\n"
         "100 act 0 compute 0\n"
         "110 act 0 read 1\n"
         "112 acc 120 2 3 row r 0 112 0 0 1 0\n"
         "130 act 0 compute 2\n"
         "140 end\n";
  const std::vector<std::string> written = plot_event_trace(trace, dir);
  ASSERT_EQ(written, (std::vector<std::string>{dir + "/timeline.svg"}));
  std::ifstream in(written[0]);
  std::stringstream svg;
  svg << in.rdbuf();
  std::filesystem::remove_all(dir);
  for (const std::string bar : {"omp.p0: compute 0..10", "omp.p0: read 10..30",
                                "omp.p0: compute 30..40", "omp.rb0: busy 12..20"}) {
    EXPECT_NE(svg.str().find(bar), std::string::npos) << bar << " in\n" << svg.str();
  }
  EXPECT_EQ(svg.str().find(": idle "), std::string::npos) << svg.str();
}

/// The VCD reader's verdict on a text: "accepted" or the error.
std::string vcd_verdict(const std::string& text) {
  try {
    (void)vcd_stats(sw::InputFile::from_text(text, "w.vcd", trace_input_rules("VCD")));
  } catch (const sw::InputError& e) {
    return e.what();
  }
  return "accepted";
}

// A minimal VCD as orthosim writes it: bus `omp` busy from cycle 0 to 2 (100 ns at 50 ns).
const std::string kHeader =
    "$version orthosim $end\n$comment clock-ns 50 $end\n$timescale 1ns $end\n"
    "$scope module omp $end\n$var wire 1 ! busy $end\n$upscope $end\n";
const std::string kBody = "$enddefinitions $end\n#0\n$dumpvars\n1!\n$end\n#100\n0!\n";

TEST(TraceStats, AVcdReadsTheSameWithCrlfLineEndsAndAnUnknownDeclarationSkipped) {
  const TraceStats s =
      vcd_stats(sw::InputFile::from_text(kHeader + kBody, "w.vcd", trace_input_rules("VCD")));
  EXPECT_EQ(s.cycles, 2u);
  ASSERT_EQ(s.buses.size(), 1u);
  EXPECT_EQ(s.buses[0].name, "omp");
  EXPECT_EQ(s.buses[0].busy, 2u);
  std::string crlf;
  for (const char c : kHeader + kBody) {
    crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  }
  const TraceStats from_crlf =
      vcd_stats(sw::InputFile::from_text(crlf, "w.vcd", trace_input_rules("VCD")));
  EXPECT_EQ(from_crlf.cycles, 2u);
  ASSERT_EQ(from_crlf.buses.size(), 1u);
  EXPECT_EQ(from_crlf.buses[0].busy, 2u);
  // A declaration the reader has no use for (another tool's $date) is skipped to its $end.
  EXPECT_EQ(vcd_verdict("$version orthosim $end\n$date today $end\n" +
                        kHeader.substr(kHeader.find('\n') + 1) + kBody),
            "accepted");
}

// Each line below, put in the minimal VCD, is refused at its line and column (counted in the
// text: the header has 6 lines, $enddefinitions is line 7, #0 line 8, ...).
TEST(TraceStats, AVcdIsRefusedAtTheTokenThatIsNotAsOrthosimWritesIt) {
  EXPECT_EQ(vcd_verdict(kHeader + kBody), "accepted");
  // A time with a sign: stoull would take "+100" and wrap "-100" round.
  for (const std::string time : {"+100", "-100"}) {
    EXPECT_EQ(vcd_verdict(kHeader + "$enddefinitions $end\n#0\n#" + time + "\n"),
              "w.vcd:9:1: expected a time after '#', found '" + time + "'");
  }
  EXPECT_EQ(vcd_verdict(kHeader + "$enddefinitions $end\n#100\n#50\n"),
            "w.vcd:9:1: expected a time no earlier than #100, found '#50'");
  EXPECT_EQ(vcd_verdict(kHeader + "$enddefinitions $end\n#0\n1?\n"),
            "w.vcd:9:1: expected a declared identifier code, found '?'");
  EXPECT_EQ(vcd_verdict(kHeader + "$upscope $end\n" + kBody),
            "w.vcd:7:1: expected a $scope before $upscope, found $upscope");
  EXPECT_EQ(vcd_verdict("$version orthosim $end\n$timescale ns $end\n"),
            "w.vcd:2:12: expected a timescale in ns (as orthosim writes it), found 'ns'");
  // Without the clock period, or without the timescale, cycles cannot be counted.
  for (const std::string& missing :
       {std::string("$comment clock-ns 50 $end\n"), std::string("$timescale 1ns $end\n")}) {
    std::string header = kHeader;
    header.erase(header.find(missing), missing.size());
    EXPECT_EQ(vcd_verdict(header + kBody),
              "w.vcd:6:17: expected a VCD written by orthosim (a '$comment clock-ns N $end' and "
              "a $timescale), found none before $enddefinitions");
  }
}

}  // namespace
}  // namespace orthosim::traces
