// The progress line (sw/core/progress.hpp) with a fake clock and a fake terminal flag.
#include "sw/core/progress.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <sstream>
#include <string>

namespace orthosim::sw {
namespace {

using std::chrono::milliseconds;

/// A clock the test moves by hand.
struct FakeClock {
  std::chrono::steady_clock::time_point now{};
  void advance(milliseconds by) { now += by; }
};

class ProgressLineTest : public testing::Test {
 protected:
  ProgressLine make(bool shown) {
    return ProgressLine(
        err, shown, milliseconds(1000), [this] { return clock.now; }, milliseconds(250));
  }
  /// The lines drawn so far, each `\r`-started redraw one element.
  [[nodiscard]] std::size_t redraws() const {
    const std::string s = err.str();
    std::size_t n = 0;
    for (char c : s) {
      n += c == '\r' ? 1 : 0;
    }
    return n;
  }

  FakeClock clock;
  std::ostringstream err;
};

TEST_F(ProgressLineTest, NothingBeforeTheThreshold) {
  {
    ProgressLine line = make(true);
    clock.advance(milliseconds(999));
    line.report("running", 10, 0);
  }
  EXPECT_EQ(err.str(), "");
}

TEST_F(ProgressLineTest, NothingWhenNotShownHoweverLong) {
  {
    ProgressLine line = make(false);
    for (int i = 0; i < 10; ++i) {
      clock.advance(milliseconds(1000));
      line.report("running", static_cast<std::uint64_t>(i), 10);
    }
  }
  EXPECT_EQ(err.str(), "");
}

TEST_F(ProgressLineTest, RedrawnAtMostEveryPeriod) {
  ProgressLine line = make(true);
  clock.advance(milliseconds(1000));
  line.report("running", 1, 0);
  EXPECT_EQ(redraws(), 1U);
  // 100 reports 1 ms apart span 100 ms: none redraws within the 250 ms period.
  for (int i = 0; i < 100; ++i) {
    clock.advance(milliseconds(1));
    line.report("running", 2, 0);
  }
  EXPECT_EQ(redraws(), 1U);
  clock.advance(milliseconds(150));  // 250 ms after the first draw
  line.report("running", 3, 0);
  EXPECT_EQ(redraws(), 2U);
}

// The period counts between draws: the first draw comes as soon as the threshold has passed,
// however short the threshold is against the period.
TEST_F(ProgressLineTest, TheFirstDrawDoesNotWaitForThePeriod) {
  ProgressLine line(
      err, true, milliseconds(0), [this] { return clock.now; }, milliseconds(250));
  line.report("running", 1, 0);
  EXPECT_EQ(redraws(), 1U);
}

TEST_F(ProgressLineTest, LineShowsPhaseFractionAndTimeLeft) {
  // A quarter done in 30 s: three quarters take 90 s more.
  EXPECT_EQ(ProgressLine::text("rate 2/3, window", 500, 2000, milliseconds(30'000)),
            "orthosim: rate 2/3, window, 500/2000 cycles (25%), 1:30 left");
  EXPECT_EQ(ProgressLine::text("warm-up", 0, 1000, milliseconds(5)),
            "orthosim: warm-up, 0/1000 cycles (0%), estimating time left");
  EXPECT_EQ(ProgressLine::text("running", 123456, 0, milliseconds(61'500)),
            "orthosim: running, 123456 cycles, 1:01 elapsed");
}

TEST_F(ProgressLineTest, EstimateCountsFromThePhaseStart) {
  ProgressLine line = make(true);
  clock.advance(milliseconds(5000));
  line.report("warm-up", 1000, 1000);
  line.report("window", 0, 100);  // a new phase: its clock starts now
  clock.advance(milliseconds(2000));
  line.report("window", 50, 100);
  const std::string expected = "\r" + ProgressLine::text("window", 50, 100, milliseconds(2000));
  const std::string s = err.str();
  ASSERT_GE(s.size(), expected.size());
  EXPECT_EQ(s.substr(s.rfind('\r'), expected.size()), expected);
}

TEST_F(ProgressLineTest, ShorterLineBlanksTheLongerOneAndTheEndErasesIt) {
  std::string longer;
  std::string shorter;
  {
    ProgressLine line = make(true);
    clock.advance(milliseconds(1000));
    line.report("a long phase name", 1, 0);
    longer = ProgressLine::text("a long phase name", 1, 0, milliseconds(0));
    clock.advance(milliseconds(250));
    line.report("x", 2, 0);
    shorter = ProgressLine::text("x", 2, 0, milliseconds(0));
  }
  const std::string blanks(longer.size() - shorter.size(), ' ');
  EXPECT_EQ(err.str(), "\r" + longer + "\r" + shorter + blanks + "\r" +
                           std::string(longer.size(), ' ') + "\r");
}

// The label of one run among several: counted from 1, nothing for a run alone.
TEST(RunOf, CountsFromOneAndIsEmptyForOneRun) {
  EXPECT_EQ(run_of(0, 1), "");
  EXPECT_EQ(run_of(0, 0), "");
  EXPECT_EQ(run_of(0, 2), "1/2");
  EXPECT_EQ(run_of(1, 2), "2/2");
  EXPECT_EQ(run_of(4, 12), "5/12");
}

// A traffic run of W warm-up and M measured cycles (docs/networks.md, Synthetic traffic): cycles
// 0..W-1 are the warm-up, W..W+M-1 the window, counted from the window's start, and then the
// drain, of unknown length.
TEST(MeasuredPhase, WarmUpThenWindowThenDrainEachCountedFromItsStart) {
  const std::uint64_t warmup = 100;
  const std::uint64_t window = 50;
  const auto phase = [&](std::uint64_t elapsed) {
    const MeasuredPhase p = measured_phase(warmup, window, elapsed);
    return std::string(p.name) + " " + std::to_string(p.done) + "/" + std::to_string(p.total);
  };
  EXPECT_EQ(phase(0), "warm-up 0/100");
  EXPECT_EQ(phase(99), "warm-up 99/100");
  EXPECT_EQ(phase(100), "window 0/50");
  EXPECT_EQ(phase(149), "window 49/50");
  EXPECT_EQ(phase(150), "drain 0/0");
  EXPECT_EQ(phase(170), "drain 20/0");
  // No warm-up: the window from the first cycle.
  EXPECT_EQ(std::string(measured_phase(0, window, 0).name), "window");
  EXPECT_EQ(measured_phase(0, window, 7).done, 7u);
}

}  // namespace
}  // namespace orthosim::sw
