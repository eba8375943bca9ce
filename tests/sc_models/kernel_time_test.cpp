// The kernel helpers of sc_models/kernel: the clock domain's cycles against the kernel's time, and
// run_in_slices against the one sc_start call it stands for. The slices' oracle is the kernel
// itself: each case runs the same process once under a plain sc_start and once in slices, each in
// a child process of its own (SystemC elaborates once per process), and the event times, the end
// time and the event count of the two must be equal.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <systemc>
#include <vector>

#include "sc_models/kernel/clock_domain.hpp"
#include "sc_models/kernel/sliced_run.hpp"
#include "tests/support/block_bench.hpp"

namespace orthosim::sc {
namespace {

using testing_support::Script;

TEST(ClockDomain, APeriodOfZeroIsRefused) {
  EXPECT_THROW(ClockDomain(0), std::invalid_argument);
  EXPECT_EQ(ClockDomain(1).period_ns(), 1u);
}

TEST(ClockDomain, TheKernelCountsInNanoseconds) {
  // init_kernel (called by the test main, as by orthosim's) sets the resolution every model and
  // the verilated RTL share.
  EXPECT_EQ(sc_core::sc_get_time_resolution(), sc_core::sc_time(1, sc_core::SC_NS));
}

// Cycle c begins at c * period; between two edges now() refuses, and until() is the time left to a
// cycle's start, zero once it has begun.
TEST(ClockDomain, CyclesAreTimeOverThePeriodAndUntilIsTheTimeLeftToACycle) {
  constexpr std::uint32_t kPeriodNs = 7;
  const ClockDomain clock(kPeriodNs);
  const auto ns = [](double n) { return sc_core::sc_time(n, sc_core::SC_NS); };
  EXPECT_EQ(clock.delay(Cycle{3}), ns(3 * kPeriodNs));
  bool finished = false;
  Script script("script", [&] {
    EXPECT_EQ(clock.now(), Cycle{0});
    EXPECT_EQ(clock.until(Cycle{2}), ns(2 * kPeriodNs));
    sc_core::wait(ns(3 * kPeriodNs));
    EXPECT_EQ(clock.now(), Cycle{3});
    EXPECT_EQ(clock.now(), Cycle{3});  // asked again in the same cycle
    sc_core::wait(ns(3));              // 24 ns: between the edges of cycles 3 and 4
    EXPECT_THROW(static_cast<void>(clock.now()), std::logic_error);
    EXPECT_EQ(clock.until(Cycle{5}), ns(5 * kPeriodNs - 24));
    EXPECT_EQ(clock.until(Cycle{4}), ns(4 * kPeriodNs - 24));
    EXPECT_EQ(clock.until(Cycle{3}), sc_core::SC_ZERO_TIME);
    EXPECT_EQ(clock.until(Cycle{0}), sc_core::SC_ZERO_TIME);
    sc_core::wait(ns(4));  // 28 ns: the edge of cycle 4
    EXPECT_EQ(clock.now(), Cycle{4});
    sc_core::wait(ns(1));  // 29 ns: one nanosecond past it is no edge either
    EXPECT_THROW(static_cast<void>(clock.now()), std::logic_error);
    finished = true;
  });
  sc_core::sc_start();
  EXPECT_TRUE(finished);
}

/// A process with events every 10 ns, a long gap, a few more, then nothing: it records the time
/// of each of its events. With `stop`, it calls sc_stop at 30 ns (as a co-simulation mismatch
/// does) and waits on.
class Ticker : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Ticker);
  Ticker(const sc_core::sc_module_name& name, bool stop) : sc_core::sc_module(name), stop_(stop) {
    SC_THREAD(run);
  }
  std::vector<std::uint64_t> times;

 private:
  void run() {
    const auto tick = [this](double ns) {
      times.push_back(sc_core::sc_time_stamp().value());
      sc_core::wait(ns, sc_core::SC_NS);
    };
    for (int k = 0; k < 8; ++k) {
      if (stop_ && k == 3) {
        sc_core::sc_stop();
      }
      tick(10);
    }
    tick(500);
    for (int k = 0; k < 3; ++k) {
      tick(10);
    }
    times.push_back(sc_core::sc_time_stamp().value());
  }
  bool stop_;
};

struct Outcome {
  std::vector<std::uint64_t> times;  ///< the ticker's events
  std::uint64_t end = 0;             ///< the kernel's time when the call returned
  std::uint64_t between_calls = 0;
  bool ordered = true;  ///< between() saw the kernel's time never go back
};

struct Case {
  std::uint64_t before;
  std::optional<std::uint64_t> duration;
  std::uint64_t first_slice;
  bool stop = false;
};

/// In a child process: runs the ticker for `before` ns with sc_start, then either one
/// sc_start(duration, SC_EXIT_ON_STARVATION) (sc_start() without a duration) or run_in_slices.
Outcome run_in_child(const Case& c, bool sliced) {
  const std::uint64_t before = c.before;
  const std::optional<std::uint64_t> duration = c.duration;
  int fds[2];
  if (pipe(fds) != 0) {
    throw std::runtime_error("pipe");
  }
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    Ticker ticker("ticker", c.stop);
    Outcome o;
    if (before > 0) {
      sc_core::sc_start(sc_core::sc_time(static_cast<double>(before), sc_core::SC_NS));
    }
    const auto ns = [](std::uint64_t n) {
      return sc_core::sc_time(static_cast<double>(n), sc_core::SC_NS);
    };
    if (sliced) {
      std::uint64_t last = 0;
      run_in_slices(duration ? std::optional<sc_core::sc_time>(ns(*duration)) : std::nullopt,
                    ns(c.first_slice), [&] {
                      ++o.between_calls;
                      o.ordered = o.ordered && sc_core::sc_time_stamp().value() >= last;
                      last = sc_core::sc_time_stamp().value();
                    });
    } else if (duration) {
      sc_core::sc_start(ns(*duration), sc_core::SC_EXIT_ON_STARVATION);
    } else {
      sc_core::sc_start();
    }
    o.end = sc_core::sc_time_stamp().value();
    std::vector<std::uint64_t> words{o.end, o.between_calls, o.ordered ? 1u : 0u};
    words.insert(words.end(), ticker.times.begin(), ticker.times.end());
    const auto bytes = static_cast<ssize_t>(words.size() * sizeof(std::uint64_t));
    _exit(write(fds[1], words.data(), static_cast<std::size_t>(bytes)) == bytes ? 0 : 1);
  }
  close(fds[1]);
  std::vector<std::uint64_t> words;
  std::uint64_t word = 0;
  while (read(fds[0], &word, sizeof word) == static_cast<ssize_t>(sizeof word)) {
    words.push_back(word);
  }
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || words.size() < 3) {
    throw std::runtime_error("the child run failed");
  }
  Outcome o;
  o.end = words[0];
  o.between_calls = words[1];
  o.ordered = words[2] == 1;
  o.times.assign(words.begin() + 3, words.end());
  return o;
}

// The ticker's events fall at 0, 10, ..., 70, 80 (then 500 ns of gap), 580, 590, 600, 610.
TEST(SlicedRun, RunsWhatOneStartCallRunsAndStopsWhereItStops) {
  const Case cases[] = {
      {0, 95, 1},            // ends between two events
      {0, 50, 1},            // ends on an event
      {25, 15, 1},           // slices of 5 and 2 ns end at 32 ns, the next event at the end, 40 ns
      {25, 95, 1},           // the duration counts from the call, not from time 0
      {25, 55, 1000},        // a first slice past the end
      {0, 300, 1},           // the next event lies past the end
      {0, 600, 3},           // ends on an event after the gap
      {0, 5000, 1},          // the events run out before the end
      {0, std::nullopt, 1},  // no duration: until no event is left
      {35, std::nullopt, 64},      //
      {0, std::nullopt, 1, true},  // sc_stop ends the run (a later sc_start is an error)
      {0, 300, 1, true},           //
  };
  for (const Case& c : cases) {
    SCOPED_TRACE("before " + std::to_string(c.before) + " ns, duration " +
                 (c.duration ? std::to_string(*c.duration) + " ns" : std::string("none")) +
                 ", first slice " + std::to_string(c.first_slice) + " ns" +
                 (c.stop ? ", sc_stop at 30 ns" : ""));
    const Outcome plain = run_in_child(c, false);
    const Outcome sliced = run_in_child(c, true);
    EXPECT_EQ(sliced.times, plain.times);
    EXPECT_EQ(sliced.end, plain.end);
    EXPECT_GE(sliced.between_calls, 1u);
    EXPECT_TRUE(sliced.ordered);
  }
}

}  // namespace
}  // namespace orthosim::sc
