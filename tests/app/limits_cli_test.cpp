// End-to-end: the emulator's limits. A compute phase longer than the cycle limit is refused by
// the parser; a run that reaches the limit stops and says so, never "deadlock" or "message lost".
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <string>

#include "tests/support/cli_process.hpp"

namespace {

using orthosim::testing_support::Outcome;

/// The emulator's cycle limit (docs/limits.md).
constexpr std::uint64_t kCycleLimit = 1'000'000'000'000ull;

class Limits : public orthosim::testing_support::CliTest {
 protected:
  Limits() : CliTest(ORTHOSIM_BIN) {}
  void write(const std::string& name, const std::string& text) const {
    std::ofstream(dir_ / name) << text;
  }
};

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST_F(Limits, AComputeLongerThanTheCycleLimitIsRefusedWithItsPlace) {
  for (const std::string& cycles :
       {std::to_string(kCycleLimit + 1), std::string("18446744073709551615")}) {
    write("long.mcp", "nodes 2\nstep\n  compute 0 " + cycles + "\n");
    const Outcome o = run("run long.mcp");
    EXPECT_EQ(o.exit_code, 2) << cycles;
    EXPECT_TRUE(has(o.err, "long.mcp:3:13: expected ',' or a cycle count (an integer in 0.." +
                               std::to_string(kCycleLimit) + ", the emulator's cycle limit)"))
        << o.err;
    EXPECT_TRUE(o.out.empty()) << o.out;
  }
  write("limit.mcp", "nodes 2\nstep\n  compute 0 " + std::to_string(kCycleLimit) + "\n");
  const Outcome at_limit = run("run limit.mcp");
  EXPECT_EQ(at_limit.exit_code, 0) << at_limit.err;
}

// Two phases of 0.6 x the limit each: every phase is accepted, the run is not.
TEST_F(Limits, ARunThatReachesTheCycleLimitSaysSoOnEveryArchitecture) {
  const std::uint64_t phase = kCycleLimit / 10 * 6;
  write("two.mcp", "nodes 2\nstep\n  compute 0 " + std::to_string(phase) +
                       "\n  send 0 -> 1 words 2\nstep\n  compute 0 " + std::to_string(phase) +
                       "\n  send 0 -> 1 words 2\n");
  for (const std::string& arch : {std::string("omp"), std::string("bus"),
                                   std::string("torus --dims 2"), std::string("hypercube --dim 1")}) {
    const Outcome o = run("run two.mcp --arch " + arch);
    EXPECT_EQ(o.exit_code, 1) << arch << o.err;
    EXPECT_TRUE(has(o.out, "CYCLE LIMIT REACHED")) << arch << o.out;
    EXPECT_TRUE(has(o.out, "cycle limit reached: the run stopped after " +
                               std::to_string(kCycleLimit) + " cycles"))
        << arch << o.out;
    // The first message arrived; the second was not sent yet, and is not called lost.
    EXPECT_TRUE(has(o.out, "1 of 2 messages delivered intact")) << arch << o.out;
    EXPECT_TRUE(has(o.out, "not delivered: the run stopped at the cycle limit")) << arch << o.out;
    EXPECT_FALSE(has(o.out, "DEADLOCK")) << arch << o.out;
    EXPECT_FALSE(has(o.out, "lost")) << arch << o.out;
    EXPECT_FALSE(has(o.out, "blocked")) << arch << o.out;
    // The columns keep a space between them at 13 digits.
    EXPECT_TRUE(has(o.out, " total " + std::to_string(kCycleLimit))) << arch << o.out;
  }
}

}  // namespace
