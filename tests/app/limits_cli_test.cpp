// End-to-end: the emulator's limits. A compute phase longer than the cycle limit is refused by
// the parser; a run that reaches the limit stops and says so, never "deadlock" or "message lost".
// A run whose estimated footprint exceeds --memory-limit is refused before anything runs.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>

#include "tests/support/cli_process.hpp"

namespace {

using orthosim::testing_support::Outcome;

/// The emulator's cycle limit (docs/cli.md).
constexpr std::uint64_t kCycleLimit = 1'000'000'000'000ull;

class Limits : public orthosim::testing_support::CliTest {
 protected:
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
  for (const std::string& arch :
       {std::string("omp"), std::string("bus"), std::string("torus --dims 2"),
        std::string("hypercube --dim 1")}) {
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

// A limit just below what a program needs refuses the run with exit 2 before any file is
// written; a generous one runs it. On the omp one message of W words sits in its mailbox module
// and in a data buffer at each end: at least 8 W bytes. On a network the words are only in flight
// (generated when sent, checked on arrival), but each of M messages keeps its manifest entry and
// what arrived of it: at least 16 M bytes.
TEST_F(Limits, ARunThatCannotFitIsRefusedNamingItsFootprintAndTheLimit) {
  constexpr std::uint64_t kWords = 100'000;
  write("big.mcp", "nodes 2\nstep\n  send 0 -> 1 words " + std::to_string(kWords) + "\n");
  constexpr std::uint64_t kMessages = 5'000;
  std::string many = "nodes 2\n";
  for (std::uint64_t k = 0; k < kMessages; ++k) {
    many += k % 2 == 0 ? "step\n  send 0 -> 1\n" : "step\n  send 1 -> 0\n";
  }
  write("many.mcp", many);
  struct Case {
    std::string args;
    std::uint64_t limit;
  };
  for (const Case& c : {Case{"big.mcp --arch omp", 2 * kWords * 4 - 1},
                        Case{"many.mcp --arch torus --dims 2", 16 * kMessages - 1}}) {
    const Outcome refused =
        run("run " + c.args + " --vcd big.vcd --memory-limit " + std::to_string(c.limit));
    EXPECT_EQ(refused.exit_code, 2) << c.args << refused.out;
    EXPECT_TRUE(has(refused.err, "--memory-limit: expected a run that fits in " +
                                     std::to_string(c.limit) + " bytes"))
        << c.args << refused.err;
    EXPECT_TRUE(has(refused.err, "found an estimated footprint of ")) << c.args << refused.err;
    EXPECT_TRUE(refused.out.empty()) << c.args << refused.out;
    EXPECT_FALSE(std::filesystem::exists(dir_ / "big.vcd")) << c.args;
    EXPECT_FALSE(std::filesystem::exists(dir_ / "big.vcd.partial")) << c.args;
    const Outcome fits = run("run " + c.args + " --memory-limit 64M");
    EXPECT_EQ(fits.exit_code, 0) << c.args << fits.err;
  }
  EXPECT_EQ(run("run big.mcp --memory-limit 12X").exit_code, 2);
  EXPECT_TRUE(has(run("run big.mcp --memory-limit 12X").err,
                  "--memory-limit: expected a size in bytes, e.g. 2048, 512K, 800M or 4G"));
}

/// `bytes` in the unit of docs/cli.md's refusals: KiB below 1 MiB, MiB below 1 GiB, else GiB,
/// with one decimal ("(1.2 MiB)").
std::string in_binary_units(std::uint64_t bytes) {
  const double kib = 1024.0;
  char text[64];
  if (bytes < (1u << 20)) {
    std::snprintf(text, sizeof text, "(%.1f KiB)", static_cast<double>(bytes) / kib);
  } else if (bytes < (1u << 30)) {
    std::snprintf(text, sizeof text, "(%.1f MiB)", static_cast<double>(bytes) / (kib * kib));
  } else {
    std::snprintf(text, sizeof text, "(%.1f GiB)", static_cast<double>(bytes) / (kib * kib * kib));
  }
  return text;
}

// The refusal names both sizes in bytes and in binary units; a limit equal to the footprint
// fits (the run is refused only when the footprint exceeds it).
TEST_F(Limits, TheRefusalSaysBothSizesAndALimitEqualToTheFootprintFits) {
  write("big.mcp", "nodes 2\nstep\n  send 0 -> 1 words 100000\n");
  const Outcome tiny = run("run big.mcp --arch omp --memory-limit 1");
  ASSERT_EQ(tiny.exit_code, 2) << tiny.err;
  const std::string found = "found an estimated footprint of ";
  const std::size_t at = tiny.err.find(found);
  ASSERT_NE(at, std::string::npos) << tiny.err;
  const std::uint64_t footprint = std::stoull(tiny.err.substr(at + found.size()));
  ASSERT_GT(footprint, 1u << 20) << "the case needs a footprint above 1 MiB";
  EXPECT_TRUE(has(tiny.err, "fits in 1 bytes (0.0 KiB), " + found + std::to_string(footprint) +
                                " bytes " + in_binary_units(footprint)))
      << tiny.err;
  for (const auto& [limit, bytes] :
       {std::pair<std::string, std::uint64_t>{"1000K", 1000u << 10}, {"1M", 1u << 20}}) {
    const Outcome refused = run("run big.mcp --arch omp --memory-limit " + limit);
    EXPECT_EQ(refused.exit_code, 2) << limit;
    EXPECT_TRUE(has(refused.err, "fits in " + std::to_string(bytes) + " bytes " +
                                     in_binary_units(bytes) + ", " + found))
        << refused.err;
  }
  EXPECT_EQ(run("run big.mcp --arch omp --memory-limit " + std::to_string(footprint - 1)).exit_code,
            2);
  const Outcome equal = run("run big.mcp --arch omp --memory-limit " + std::to_string(footprint));
  EXPECT_EQ(equal.exit_code, 0) << equal.err;
}

}  // namespace
