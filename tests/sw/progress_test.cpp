// The progress line (sw/core/progress.hpp) with a fake clock and a fake terminal flag.
#include "sw/core/progress.hpp"

#include <gtest/gtest.h>

#include <sstream>

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

}  // namespace
}  // namespace orthosim::sw
