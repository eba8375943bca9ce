// `orthosim trace stats` and `trace plot`'s figures on hand-built inputs (docs/traces.md):
// every figure worked out by hand from the events written, for an event trace and for a VCD
// written with the project's own writers, and the VCD reader's refusals at their FILE:LINE:COL.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "sw/core/diagnostic.hpp"
#include "traces/event_trace.hpp"
#include "traces/event_trace_reader.hpp"
#include "traces/plot.hpp"
#include "traces/trace_diff.hpp"
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

/// The text of the file at `path`.
std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The number after `name="` in `element`.
double attribute(const std::string& element, const std::string& name) {
  const std::size_t at = element.find(" " + name + "=\"");
  return at == std::string::npos ? std::nan("") : std::stod(element.substr(at + name.size() + 3));
}

/// Every element of `svg` drawn inside its canvas (the `<svg>` element's width and height, to
/// the writer's 0.01): a rectangle whole, a line's two ends, a polyline's points, a circle's
/// centre, a text's anchor point. A shape outside is cut off by every viewer.
void expect_inside_the_canvas(const std::string& svg, const std::string& what) {
  SCOPED_TRACE(what);
  const std::size_t root = svg.find("<svg ");
  ASSERT_NE(root, std::string::npos);
  const std::string head = svg.substr(root, svg.find('>', root) - root);
  const double width = attribute(head, "width");
  const double height = attribute(head, "height");
  ASSERT_GT(width, 0);
  ASSERT_GT(height, 0);
  std::size_t outside = 0;
  const auto check = [&](double x, double y, const std::string& element) {
    constexpr double kSlack = 0.01;
    if (!(x >= -kSlack && x <= width + kSlack && y >= -kSlack && y <= height + kSlack) &&
        ++outside <= 3) {
      ADD_FAILURE() << "(" << x << ", " << y << ") outside " << width << " x " << height << ": "
                    << element;
    }
  };
  std::istringstream lines(svg.substr(svg.find('\n', root) + 1));
  for (std::string e; std::getline(lines, e);) {
    if (e.rfind("<rect ", 0) == 0) {
      const double x = attribute(e, "x"), y = attribute(e, "y");
      check(x, y, e);
      check(x + attribute(e, "width"), y + attribute(e, "height"), e);
    } else if (e.rfind("<line ", 0) == 0) {
      check(attribute(e, "x1"), attribute(e, "y1"), e);
      check(attribute(e, "x2"), attribute(e, "y2"), e);
    } else if (e.rfind("<circle ", 0) == 0) {
      check(attribute(e, "cx"), attribute(e, "cy"), e);
    } else if (e.rfind("<text ", 0) == 0) {
      check(attribute(e, "x"), attribute(e, "y"), e);
    } else if (e.rfind("<polyline ", 0) == 0) {
      const std::size_t at = e.find("points=\"") + 8;
      std::istringstream points(e.substr(at, e.find('"', at) - at));
      for (std::string point; points >> point;) {
        const std::size_t comma = point.find(',');
        check(std::stod(point.substr(0, comma)), std::stod(point.substr(comma + 1)), e);
      }
    }
  }
  EXPECT_EQ(outside, 0u);
}

/// The timeline `trace plot` draws of the event trace `text`, written to a folder of its own
/// (removed after): the one file of a trace with processors at work.
std::string timeline_of(const std::string& text) {
  const std::string dir = temp_path("plot");
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/t.trace", std::ios::binary) << text;
  const std::vector<std::string> written = plot_event_trace(dir + "/t.trace", dir);
  const std::string svg = slurp(dir + "/timeline.svg");
  std::filesystem::remove_all(dir);
  EXPECT_EQ(written, (std::vector<std::string>{dir + "/timeline.svg"}));
  return svg;
}

/// The titles of the bars of `svg` that begin with `prefix`, in the file's order.
std::vector<std::string> bar_titles(const std::string& svg, const std::string& prefix) {
  std::vector<std::string> bars;
  for (std::size_t at = svg.find("<title>" + prefix); at != std::string::npos;
       at = svg.find("<title>" + prefix, at + 1)) {
    bars.push_back(svg.substr(at + 7, svg.find('<', at + 7) - at - 7));
  }
  return bars;
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
  expect_inside_the_canvas(svg.str(), "timeline.svg");
}

// Where two activities share a column, the column shows the one that took most of it, in a
// timeline of 1600 cycles in 1000 columns of 1.6. A trace that does not begin with a run counts
// from cycle 0 and draws its first event (p1's).
TEST(TracePlot, AColumnSharedByTwoActivitiesShowsTheOneThatTookMostOfIt) {
  const std::string svg = timeline_of(
      "orthosim-trace 1\nclock-ns 50\nsource 0 processor omp.p1\nsource 1 processor omp.p0\n"
      "5 act 0 compute 0\n"
      "9 act 0 idle 1\n"
      "10 act 1 read 0\n"
      "11 act 1 compute 1\n"
      "13 act 1 idle 2\n"
      "1600 end\n");
  const std::vector<std::string> bars = bar_titles(svg, "omp.p");
  // p1's compute 5..9: columns 3 (4.8..6.4) to 5 (8..9.6), drawn from 4.8 to 9.6; p0's read
  // 10..11 and compute 11..13 share column 6 (9.6..11.2: 1 cycle of reading, 0.2 of computing),
  // then compute alone in columns 7 and 8 (11.2..14.4).
  EXPECT_EQ(bars, (std::vector<std::string>{"omp.p1: compute 5..10", "omp.p0: read 10..11",
                                            "omp.p0: compute 11..14"}))
      << svg;
  expect_inside_the_canvas(svg, "timeline.svg");
}

/// The points of the first polyline after `<g id="ID">` in `svg`, as written ("x,y x,y ...").
std::string polyline_in_group(const std::string& svg, const std::string& id) {
  const std::size_t group = svg.find("<g id=\"" + id + "\">");
  const std::size_t points = svg.find("points=\"", group);
  if (group == std::string::npos || points == std::string::npos) {
    return "(missing)";
  }
  const std::size_t begin = points + 8;
  return svg.substr(begin, svg.find('"', begin) - begin);
}

/// A point as the SVG writer prints coordinates: two decimals.
std::string svg_point(double x, double y) {
  char text[64];
  std::snprintf(text, sizeof text, "%.2f,%.2f", x, y);
  return text;
}

/// The (cx, cy) of the circle whose tooltip is `title`, or (-1, -1).
std::pair<double, double> circle_titled(const std::string& svg, const std::string& title) {
  const std::size_t at = svg.find("><title>" + title + "</title></circle>");
  const std::size_t circle = svg.rfind("<circle cx=\"", at);
  if (at == std::string::npos || circle == std::string::npos) {
    return {-1, -1};
  }
  const std::size_t cy = svg.find("cy=\"", circle);
  return {std::stod(svg.substr(circle + 12)), std::stod(svg.substr(cy + 4))};
}

/// The text element `text` at (x, y) as the SVG writer prints it.
std::string svg_text(double x, double y, double size, const std::string& anchor,
                     const std::string& text) {
  char at[96];
  std::snprintf(at, sizeof at, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"%.2f\"", x, y, size);
  return std::string(at) + " font-family=\"sans-serif\" text-anchor=\"" + anchor + "\">" + text +
         "</text>";
}

/// The text element `label` at (x, y) in the plots' tick-label style (10 px, centred).
std::string tick_label(double x, double y, const std::string& label) {
  return svg_text(x, y, 10, "middle", label);
}

// A timeline of 1600 cycles has 1000 columns of 1.6 cycles (docs/traces.md: at most 1000). p0
// computes in cycle 1001 alone, between idle stretches: columns 625 (1000..1001.6, 0.6 of it
// compute) and 626 (1001.6..1003.2, 0.4) show compute, since idle only shows where nothing ran;
// p0 computes again from 1599 to the end, in the last column (1598.4..1600) alone; p1 computes
// in cycle 0, in its first column, which is no part of p0's row. The cycle axis (8 ticks or so,
// 18 px per row below y = 50) steps by 200, its last tick the last cycle. A folder ending in '/'
// takes the files' names as they are.
TEST(TracePlot, ALongTimelineHasAThousandColumnsAndIdleNeverHidesAnActivity) {
  const std::string dir = temp_path("plot");
  std::filesystem::create_directories(dir);
  const std::string trace = dir + "/t.trace";
  std::ofstream(trace, std::ios::binary)
      << "orthosim-trace 1\nclock-ns 50\nsource 0 processor omp.p0\nsource 1 processor omp.p1\n"
         "0 act 0 idle 0\n"
         "0 act 1 compute 0\n"
         "1 act 1 idle 1\n"
         "1001 act 0 compute 1\n"
         "1002 act 0 idle 2\n"
         "1599 act 0 compute 3\n"
         "1600 end\n";
  ASSERT_EQ(plot_event_trace(trace, dir + "/"), (std::vector<std::string>{dir + "/timeline.svg"}));
  const std::string svg = slurp(dir + "/timeline.svg");
  std::filesystem::remove_all(dir);
  EXPECT_NE(svg.find("(1600 cycles, 1.60 cycles per column)"), std::string::npos) << svg;
  EXPECT_EQ(bar_titles(svg, "omp.p0: "),
            (std::vector<std::string>{"omp.p0: compute 1000..1003", "omp.p0: compute 1598..1600"}))
      << svg;
  EXPECT_NE(svg.find("<title>omp.p1: compute 0..2</title>"), std::string::npos) << svg;
  // The axis 4 px below the rows (50 + 2 x 18), its labels 16 px below it.
  EXPECT_NE(svg.find(tick_label(190 + 1000.0 * 200 / 1600, 106, "200")), std::string::npos) << svg;
  EXPECT_NE(svg.find(tick_label(1190, 106, "1600")), std::string::npos) << svg;
  // Row r 18 px high from y = 50 + 18 r: its background and bars 16 px high, 1 px inside it.
  EXPECT_NE(svg.find("<rect x=\"190.00\" y=\"69.00\" width=\"1000.00\" height=\"16.00\" "
                     "fill=\"#f2f2f2\"/>"),
            std::string::npos)
      << svg;
  EXPECT_NE(svg.find("<rect x=\"190.00\" y=\"69.00\" width=\"1.00\" height=\"16.00\" "
                     "fill=\"#4e79a7\"><title>omp.p1: compute 0..2</title>"),
            std::string::npos)
      << svg;
  // The legend 44 px below the axis, from its left end, each entry 13 + 7 per letter + 12 px
  // wide: compute, then read.
  EXPECT_NE(svg.find("<rect x=\"190.00\" y=\"134.00\" width=\"10.00\" height=\"10.00\" "
                     "fill=\"#4e79a7\"/>\n<text x=\"203.00\" y=\"143.00\" font-size=\"10.00\" "
                     "font-family=\"sans-serif\" text-anchor=\"start\">compute</text>\n"
                     "<rect x=\"264.00\" y=\"134.00\" width=\"10.00\" height=\"10.00\" "
                     "fill=\"#59a14f\"/>"),
            std::string::npos)
      << svg;
  expect_inside_the_canvas(svg, "timeline.svg");
}

// A trace of no cycles (its run ends where it begins) still has a timeline: one column, the
// cycle axis a single tick, 0.
TEST(TracePlot, ATraceOfNoCyclesHasATimelineOfOneTick) {
  const std::string svg = timeline_of(
      "orthosim-trace 1\nclock-ns 50\nsource 0 processor omp.p0\n0 act 0 compute 0\n0 end\n");
  EXPECT_NE(svg.find("(0 cycles, 1.00 cycles per column)"), std::string::npos) << svg;
  EXPECT_NE(svg.find(tick_label(190, 88, "0")), std::string::npos) << svg;
  expect_inside_the_canvas(svg, "timeline.svg");
}

// A traffic trace (a node idle, no other activity) of 1000 cycles from its run's start at 1000:
// the network over time in 500 columns of 2 cycles. One packet (4 flits over 2 of the 2 channels)
// is injected at 1500 (column 250) and ejected at 1510 (column 255); its hops at 1500 and 1501
// put 8 flits in column 250: 8 / (2 channels x 2 cycles) = 2 flits per channel and cycle, the
// mean 8 / (2 x 1000) = 0.004. Each panel (220 px high, 5 % headroom above its peak) draws a
// column c from x = 90 + 1000 c / 500 to 90 + 1000 (c + 1) / 500.
TEST(TracePlot, TheNetworkOverTimeCountsFromTheRunsStartInFiveHundredColumns) {
  const std::string dir = temp_path("plot");
  std::filesystem::create_directories(dir);
  const std::string trace = dir + "/t.trace";
  std::ofstream(trace, std::ios::binary)
      << "orthosim-trace 1\nclock-ns 10\nsource 0 processor net.node0\n"
         "source 1 processor net.node1\nsource 2 channel net.r(0).x+\n"
         "source 3 channel net.r(1).x-\n"
         "1000 run traffic rate=0.1\n"
         "1000 act 0 idle 0\n"
         "1500 send 0 0 1 4 1\n"
         "1500 inject 0 0 4\n"
         "1500 hop 0 2 0 4\n"
         "1501 hop 0 3 0 4\n"
         "1510 eject 0 1 4\n"
         "1510 deliver 0 1 1511\n"
         "2000 end\n";
  ASSERT_EQ(plot_event_trace(trace, dir),
            (std::vector<std::string>{dir + "/network.svg", dir + "/channels.svg",
                                      dir + "/latency.svg"}));
  const std::string svg = slurp(dir + "/network.svg");
  const std::string channels = slurp(dir + "/channels.svg");
  const std::string latency = slurp(dir + "/latency.svg");
  std::filesystem::remove_all(dir);
  expect_inside_the_canvas(svg, "network.svg");
  expect_inside_the_canvas(channels, "channels.svg");
  expect_inside_the_canvas(latency, "latency.svg");
  EXPECT_NE(svg.find("(1000 cycles, 2.00 cycles per column)"), std::string::npos) << svg;
  EXPECT_NE(svg.find("mean 0.0040, peak column 2.0000"), std::string::npos) << svg;
  const auto expected_line = [](double bottom, const std::vector<double>& values, double peak) {
    std::string points;
    for (std::size_t c = 0; c < values.size(); ++c) {
      const double y = bottom - 220 * values[c] / (1.05 * peak);
      for (const std::size_t x : {c, c + 1}) {
        points += (c > 0 || x > c ? " " : "") + svg_point(90 + 2.0 * static_cast<double>(x), y);
      }
    }
    return points;
  };
  std::vector<double> packets(500, 0);
  std::fill(packets.begin() + 250, packets.begin() + 255, 1);
  std::vector<double> utilization(500, 0);
  utilization[250] = 2;
  // The panels' bottoms: 50 + 40 + 220, and 80 below that another 220.
  EXPECT_EQ(polyline_in_group(svg, "packets-in-flight"), expected_line(310, packets, 1));
  EXPECT_EQ(polyline_in_group(svg, "channel-utilization"), expected_line(610, utilization, 2));
  // The packets' axis, 1.05 high, ticks every 0.2: 0 at the panel's bottom, 1.00 at 1 / 1.05 of
  // its height, each label 6 px left of the axis and 4 px below its tick.
  EXPECT_NE(svg.find(svg_text(84, 314, 10, "end", "0.00")), std::string::npos) << svg;
  EXPECT_NE(svg.find(svg_text(84, 310 - 220 / 1.05 + 4, 10, "end", "1.00")), std::string::npos)
      << svg;
  // The heat map: a row per router 16 px high from y = 80, a column per port 60 px wide from
  // x = 190 in the order first seen, each cell 2 px narrower and 1 px lower than its place,
  // titled with its channel's flits per cycle (4 flits in 1000 cycles on r(0).x+ and r(1).x-; a
  // port with no channel, 0), in its share of the peak's red (the peak red, 0 white).
  struct Cell {
    double x, y;
    std::string fill, title;
  };
  for (const Cell& cell : std::vector<Cell>{{190, 80, "rgb(255,0,0)", "net.r(0).x+: 0.004"},
                                            {250, 80, "rgb(255,255,255)", "net.r(0).x-: 0.000"},
                                            {190, 96, "rgb(255,255,255)", "net.r(1).x+: 0.000"},
                                            {250, 96, "rgb(255,0,0)", "net.r(1).x-: 0.004"}}) {
    char rect[256];
    std::snprintf(rect, sizeof rect,
                  "<rect x=\"%.2f\" y=\"%.2f\" width=\"58.00\" height=\"15.00\" fill=\"%s\">"
                  "<title>%s flits/cycle</title>",
                  cell.x, cell.y, cell.fill.c_str(), cell.title.c_str());
    EXPECT_NE(channels.find(rect), std::string::npos) << rect << " in\n" << channels;
  }
  // The ports' headings above their columns, 60 px wide from x = 190.
  for (const auto& [x, port] :
       std::vector<std::pair<double, std::string>>{{220, "x+"}, {280, "x-"}}) {
    const std::string heading = svg_text(x, 70, 11, "middle", port);
    EXPECT_NE(channels.find(heading), std::string::npos) << heading << " in\n" << channels;
  }
  // The colour scale 40 px right of the last column (x = 190 + 2 x 60 + 40), 10 boxes of 16 px
  // down from y = 80, labelled 4 px right of them: the peak at its top, half of it in the middle,
  // 0 at its bottom.
  for (const auto& [y, label] :
       std::vector<std::pair<double, std::string>>{{90, "0.004"}, {164, "0.002"}, {240, "0"}}) {
    const std::string text = svg_text(370, y, 10, "start", label);
    EXPECT_NE(channels.find(text), std::string::npos) << text << " in\n" << channels;
  }
  // The colour scale's middle box: up to half the peak, half red.
  EXPECT_NE(channels.find("fill=\"rgb(255,127,127)\"><title>up to 0.002 flits/cycle</title>"),
            std::string::npos)
      << channels;
  // The heat map's colour scale: 10 boxes, none below its 0.
  std::size_t boxes = 0;
  for (std::size_t at = channels.find("<title>up to "); at != std::string::npos;
       at = channels.find("<title>up to ", at + 1)) {
    ++boxes;
  }
  EXPECT_EQ(boxes, 10u) << channels;
}

// The histogram of kTwoRuns' latencies 6 and 40: 18 bins 2 cycles wide from 6, each bar titled
// by the latencies it holds (LOW..HIGH, both in the bin); the axis labels every bin's lower end,
// the last tick the end of the last bin, 42, at the axis' right end (x = 80 + 580).
TEST(TracePlot, EachLatencyBinIsLabelledByTheLatenciesItHolds) {
  const std::string dir = temp_path("plot");
  std::filesystem::create_directories(dir);
  const std::string trace = dir + "/t.trace";
  std::ofstream(trace, std::ios::binary) << kTwoRuns;
  // Processors at work: the timeline, not the network over time.
  ASSERT_EQ(plot_event_trace(trace, dir),
            (std::vector<std::string>{dir + "/timeline.svg", dir + "/channels.svg",
                                      dir + "/latency.svg"}));
  const std::string svg = slurp(dir + "/latency.svg");
  std::filesystem::remove_all(dir);
  for (const std::string bar : {"6..7: 1", "8..9: 0", "38..39: 0", "40..41: 1"}) {
    EXPECT_NE(svg.find("<title>" + bar + "</title>"), std::string::npos) << bar << "\n" << svg;
  }
  EXPECT_EQ(svg.find("<title>42..43"), std::string::npos) << "a bar past the last bin";
  // The axis 16 px below the bars' base at 50 + 20 + 300.
  EXPECT_NE(svg.find(tick_label(80, 386, "6")), std::string::npos) << svg;
  EXPECT_NE(svg.find(tick_label(660, 386, "42")), std::string::npos) << svg;
  expect_inside_the_canvas(svg, "latency.svg");
}

// The speed-up figure: speed-ups 2 (CALMANT) and 5 (direct) at B = 3, 4 (CALMANT) at B = 16. The
// block axis runs over whole powers of two around them, 2^1 to 2^4, over 700 px from x = 90; the
// speed-up axis from 0 to 10 % above the largest speed-up, 5.5, over 400 px up from y = 480. A
// file whose speed-ups are all below 1 still shows the CC-cube's line at 1 (the axis to 1.1),
// and a single block size, 4, spans 2^2 to 2^3.
TEST(TracePlot, TheSpeedUpAxesSpanWholePowersOfTwoAndTenPercentAboveTheFastest) {
  const std::string dir = temp_path("plot");
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/a.json")
      << R"({"command": "calmant", "network": "mesh 4x4", "startup": 10, "complete_exchange": [
           {"block_words": 3, "cc_cube_cycles": 100, "calmant_cycles": 50,
            "direct": {"emulated_cycles": 20}},
           {"block_words": 16, "cc_cube_cycles": 100, "calmant_cycles": 25}]})";
  std::ofstream(dir + "/b.json")
      << R"({"command": "calmant", "network": "mesh 4x4", "startup": 10, "complete_exchange": [
           {"block_words": 4, "cc_cube_cycles": 50, "calmant_cycles": 100}]})";
  std::filesystem::create_directories(dir + "/a");
  std::filesystem::create_directories(dir + "/b");
  plot_complete_exchange_jsons({dir + "/a.json"}, {"A"}, "", dir + "/a");
  plot_complete_exchange_jsons({dir + "/b.json"}, {"B"}, "", dir + "/b");
  // A block of no words has no place on the axis: refused.
  std::ofstream(dir + "/zero.json") << R"({"command": "calmant", "complete_exchange": [
           {"block_words": 0, "cc_cube_cycles": 50, "calmant_cycles": 100}]})";
  EXPECT_THROW(plot_complete_exchange_jsons({dir + "/zero.json"}, {"Z"}, "", dir + "/b"),
               sw::InputError);
  const std::string a = slurp(dir + "/a/speedup.svg");
  const std::string b = slurp(dir + "/b/speedup.svg");
  std::filesystem::remove_all(dir);
  const auto x_of = [](double block, double low, double high) {
    return 90 + 700 * (std::log2(block) - low) / (high - low);
  };
  const auto y_of = [](double speed_up, double top) { return 480 - 400 * speed_up / top; };
  const std::vector<std::tuple<std::string, double, double>> points = {
      {"A, B = 3: CALMANT 2.00", 3, 2},
      {"A, B = 3: direct 5.00", 3, 5},
      {"A, B = 16: CALMANT 4.00", 16, 4}};
  for (const auto& [title, block, speed_up] : points) {
    const auto [cx, cy] = circle_titled(a, title);
    EXPECT_NEAR(cx, x_of(block, 1, 4), 0.006) << title;
    EXPECT_NEAR(cy, y_of(speed_up, 5.5), 0.006) << title;
  }
  EXPECT_NE(a.find(tick_label(90, 496, "2")), std::string::npos) << a;
  EXPECT_NE(a.find(tick_label(790, 496, "16")), std::string::npos) << a;
  const auto [cx, cy] = circle_titled(b, "B, B = 4: CALMANT 0.50");
  EXPECT_NEAR(cx, x_of(4, 2, 3), 0.006);
  EXPECT_NEAR(cy, y_of(0.5, 1.1), 0.006);
  EXPECT_NE(b.find(tick_label(90, 496, "4")), std::string::npos) << b;
  EXPECT_NE(b.find(tick_label(790, 496, "8")), std::string::npos) << b;
  // The speed-up axis to 5.5 ticks every 1, whole numbers: 5 at 5 / 5.5 of its 400 px.
  EXPECT_NE(a.find(svg_text(84, 480 - 400 * 5 / 5.5 + 4, 10, "end", "5")), std::string::npos) << a;
  expect_inside_the_canvas(a, "speedup.svg");
  expect_inside_the_canvas(b, "speedup.svg");
}

/// The output of `orthosim traffic --json` for a 4x4 torus with the given points (JSON objects,
/// comma-separated).
std::string traffic_json(const std::string& points) {
  return R"({"command": "traffic", "network": "torus 4x4", "pattern": "uniform", "flits": 4,
            "points": [)" +
         points + "]}";
}

// Latency against accepted throughput: both axes from 0 to 5 % above the largest value shown
// (throughput 0.2 offered, p99 latency 100 cycles), 700 px from x = 90 and 400 px up from
// y = 480. Several files share a logarithmic latency axis over whole decades around their mean
// latencies (20 to 3000: 10^1 to 10^4; a rate that delivered nothing, mean 0, has no say).
TEST(TracePlot, TheLatencyAxesReachJustAboveTheirLargestValuesOrTheNextWholeDecade) {
  const std::string dir = temp_path("plot");
  std::filesystem::create_directories(dir + "/one");
  std::filesystem::create_directories(dir + "/two");
  std::ofstream(dir + "/a.json") << traffic_json(
      R"({"offered": 0.1, "accepted": 0.1, "latency_avg": 20, "latency_p99": 40},
                  {"offered": 0.2, "accepted": 0.19, "latency_avg": 50, "latency_p99": 100})");
  std::ofstream(dir + "/b.json") << traffic_json(
      R"({"offered": 0.1, "accepted": 0.05, "latency_avg": 3000, "latency_p99": 9000},
         {"offered": 0.2, "accepted": 0.06, "latency_avg": 0, "latency_p99": 0})");
  // A file cut short is refused at the column just past its 21 bytes, where the '}' should be.
  std::ofstream(dir + "/cut.json") << R"({"command": "traffic")";
  try {
    plot_traffic_json(dir + "/cut.json", dir + "/one");
    ADD_FAILURE() << "a file cut short plotted";
  } catch (const sw::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("cut.json:1:22: expected"), std::string::npos) << e.what();
  }
  // A syntax error past the first line: its line and column (the ']' where a value should be,
  // line 3, column 6).
  std::ofstream(dir + "/bad.json") << "{\n\"command\": \"traffic\",\n\"b\": ]\n}\n";
  try {
    plot_traffic_json(dir + "/bad.json", dir + "/one");
    ADD_FAILURE() << "a file with a syntax error plotted";
  } catch (const sw::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.json:3:6: expected"), std::string::npos) << e.what();
  }
  // One rate's JSON (`traffic --rate`) has its figures at the top level: one point.
  std::ofstream(dir + "/single.json")
      << R"({"command": "traffic", "network": "torus 4x4", "pattern": "uniform", "flits": 4,
            "offered": 0.1, "accepted": 0.1, "latency_avg": 20, "latency_p99": 40})";
  std::filesystem::create_directories(dir + "/single");
  plot_traffic_json(dir + "/single.json", dir + "/single");
  const std::string single = slurp(dir + "/single/latency-throughput.svg");
  EXPECT_NE(single.find("<title>offered 0.1000, accepted 0.1000, mean 20.00</title>"),
            std::string::npos)
      << single;
  plot_traffic_json(dir + "/a.json", dir + "/one");
  plot_traffic_jsons({dir + "/a.json", dir + "/b.json"}, {"a", "b"}, "", dir + "/two");
  const std::string one = slurp(dir + "/one/latency-throughput.svg");
  const std::string two = slurp(dir + "/two/latency-throughput.svg");
  std::filesystem::remove_all(dir);
  const auto x_of = [](double accepted) { return 90 + 700 * accepted / (1.05 * 0.2); };
  std::pair<double, double> at = circle_titled(one, "offered 0.1000, accepted 0.1000, mean 20.00");
  EXPECT_NEAR(at.first, x_of(0.1), 0.006);
  EXPECT_NEAR(at.second, 480 - 400 * 20 / (1.05 * 100), 0.006);
  at = circle_titled(one, "offered 0.2000, accepted 0.1900, p99 100");
  EXPECT_NEAR(at.first, x_of(0.19), 0.006);
  EXPECT_NEAR(at.second, 480 - 400 / 1.05, 0.006);
  const auto log_y = [](double mean) { return 480 - 400 * (std::log10(mean) - 1) / 3; };
  at = circle_titled(two, "a: offered 0.1000, accepted 0.1000, mean 20.00");
  EXPECT_NEAR(at.second, log_y(20), 0.006);
  at = circle_titled(two, "b: offered 0.1000, accepted 0.0500, mean 3000.00");
  EXPECT_NEAR(at.second, log_y(3000), 0.006);
  // The top decade's tick, 8 px left of the axis.
  EXPECT_NE(two.find(svg_text(82, 84, 10, "end", "10000")), std::string::npos) << two;
  expect_inside_the_canvas(one, "latency-throughput.svg");
  expect_inside_the_canvas(two, "latency-throughput.svg");
}

// A sweep that delivered nothing (rate 0: no throughput offered or accepted, no latency) still
// gets finite axes: each linear one to 1, the shared logarithmic one over one decade, 1 to 10.
TEST(TracePlot, ASweepThatDeliveredNothingIsDrawnOnAxesOfOne) {
  const std::string dir = temp_path("plot");
  std::filesystem::create_directories(dir + "/one");
  std::filesystem::create_directories(dir + "/two");
  std::ofstream(dir + "/zero.json")
      << traffic_json(R"({"offered": 0, "accepted": 0, "latency_avg": 0, "latency_p99": 0})");
  plot_traffic_json(dir + "/zero.json", dir + "/one");
  plot_traffic_jsons({dir + "/zero.json", dir + "/zero.json"}, {"a", "b"}, "", dir + "/two");
  const std::string one = slurp(dir + "/one/latency-throughput.svg");
  const std::string two = slurp(dir + "/two/latency-throughput.svg");
  std::filesystem::remove_all(dir);
  expect_inside_the_canvas(one, "latency-throughput.svg");
  expect_inside_the_canvas(two, "latency-throughput.svg");
  // The throughput axis to 1 (ticks of 0.2, two decimals) at the right end of its 700 px.
  EXPECT_NE(one.find(tick_label(790, 496, "1.00")), std::string::npos) << one;
  // The latency decades 10^0 at the axis' foot and 10^1 at its top, 8 px left of it.
  EXPECT_NE(two.find(svg_text(82, 484, 10, "end", "1")), std::string::npos) << two;
  EXPECT_NE(two.find(svg_text(82, 84, 10, "end", "10")), std::string::npos) << two;
}

// Mean latencies that are all one power of ten (100) still span a whole decade on the shared
// logarithmic axis, from theirs to the next: 10^2 at its foot, 10^3 at its top.
TEST(TracePlot, MeansOfOnePowerOfTenSpanTheDecadeAboveIt) {
  const std::string dir = temp_path("plot");
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/a.json") << traffic_json(
      R"({"offered": 0.1, "accepted": 0.1, "latency_avg": 100, "latency_p99": 100})");
  plot_traffic_jsons({dir + "/a.json", dir + "/a.json"}, {"a", "b"}, "", dir);
  const std::string svg = slurp(dir + "/latency-throughput.svg");
  std::filesystem::remove_all(dir);
  expect_inside_the_canvas(svg, "latency-throughput.svg");
  EXPECT_NE(svg.find(svg_text(82, 484, 10, "end", "100")), std::string::npos) << svg;
  EXPECT_NE(svg.find(svg_text(82, 84, 10, "end", "1000")), std::string::npos) << svg;
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

/// A trace of one processor, its bus controller and two buses (docs/traces.md, "Format, version
/// 1"): the header's six lines, then `events` from line 7.
std::string hand_trace(const std::string& name, const std::vector<std::string>& events) {
  const std::string path = temp_path(name);
  std::ofstream out(path, std::ios::binary);
  out << "orthosim-trace 1\nclock-ns 50\nsource 0 processor omp.p0\nsource 1 controller omp.bc0\n"
         "source 2 bus omp.rb0\nsource 3 bus omp.rb1\n";
  for (const std::string& e : events) {
    out << e << '\n';
  }
  return path;
}

// `trace diff` (docs/traces.md) compares every field of every event, with sources by name: a
// change in one field of one event is the first divergence, at that event's number and lines,
// each side written out with its sources' names, whatever the field.
TEST(TraceDiff, OneFieldChangedIsTheFirstDivergenceWithItsSourcesByName) {
  const std::vector<std::string> base = {"0 act 0 compute 0", "0 step 0 0",
                                         "5 intr 0 2",        "6 acc 9 1 2 row r 0 6 0 0 1 0",
                                         "9 step 0 1",        "10 end"};
  struct Change {
    std::size_t event;
    std::string to;
    std::string described_before;
    std::string described_after;
  };
  const std::vector<Change> changes = {
      {2, "5 intr 0 3", "5 intr omp.p0 2", "5 intr omp.p0 3"},  // the cycle it was asked in
      {3, "6 acc 9 1 3 row r 0 6 0 0 1 0", "6 acc 9 omp.bc0 omp.rb0 row r 0 6 0 0 1 0",
       "6 acc 9 omp.bc0 omp.rb1 row r 0 6 0 0 1 0"},            // the bus
      {4, "9 step 0 0", "9 step omp.p0 1", "9 step omp.p0 0"},  // the step (again from 0)
      {0, "0 act 0 compute 1", "0 act omp.p0 compute 0", "0 act omp.p0 compute 1"},
  };
  const std::string a = hand_trace("diff_a", base);
  for (const Change& c : changes) {
    std::vector<std::string> changed = base;
    changed[c.event] = c.to;
    const std::string b = hand_trace("diff_b", changed);
    const TraceDiff d = diff_traces(a, b);
    ASSERT_TRUE(d.first.has_value()) << c.to;
    EXPECT_EQ(d.first->index, c.event) << c.to;
    EXPECT_EQ(d.first->line_a, 7 + c.event) << c.to;
    EXPECT_EQ(d.first->line_b, 7 + c.event) << c.to;
    EXPECT_EQ(d.first->event_a, c.described_before);
    EXPECT_EQ(d.first->event_b, c.described_after);
    EXPECT_EQ(d.events_a, base.size());
    EXPECT_EQ(d.events_b, base.size());
    EXPECT_TRUE(diff_traces(b, b).equal()) << c.to;
    std::filesystem::remove(b);
  }
  std::filesystem::remove(a);
}

// A network's events name no source but their hop's channel: a trace whose header lists no
// source (a hand-made one) compares too.
TEST(TraceDiff, MessagesOfATraceWithoutSourcesCompare) {
  const std::string a = temp_path("nosources_a");
  const std::string b = temp_path("nosources_b");
  std::ofstream(a, std::ios::binary)
      << "orthosim-trace 1\nclock-ns 1\n0 send 0 0 1 4 1\n1 inject 0 0 4\n9 end\n";
  std::ofstream(b, std::ios::binary)
      << "orthosim-trace 1\nclock-ns 1\n0 send 0 0 1 4 1\n1 inject 0 0 5\n9 end\n";
  const TraceDiff d = diff_traces(a, b);
  ASSERT_TRUE(d.first.has_value());
  EXPECT_EQ(d.first->index, 1U);
  EXPECT_EQ(d.first->event_a, "1 inject 0 0 4");
  EXPECT_EQ(d.first->event_b, "1 inject 0 0 5");
  EXPECT_TRUE(diff_traces(a, a).equal());
  std::filesystem::remove(a);
  std::filesystem::remove(b);
}

}  // namespace
}  // namespace orthosim::traces
