// Mapped programs on the emulated hardware ([PH91] section 4): random multicomputer programs
// on 2..16 nodes, mapped onto the omp, the crossbar and the bus (one processor per node, and
// clustered onto fewer processors), run to completion with every message delivered intact and
// no deadlock; the cost model's ranking of the three configurations agrees with the emulation.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <memory>
#include <string>

#include "sc_models/multiprocessor/multiprocessor.hpp"
#include "sw/cost/program_cost.hpp"
#include "sw/mapping/mapping.hpp"
#include "sw/pattern/generate.hpp"

namespace orthosim {
namespace {

using sw::Arch;

constexpr std::array<Arch, 3> kArchs = {Arch::Omp, Arch::Crossbar, Arch::Bus};

/// Sizes large enough for every program of the test; storage grows only where written.
sw::SystemConfig roomy(Arch arch, std::uint32_t n) {
  sw::SystemConfig c;
  c.arch = arch;
  c.n = n;
  c.buffer_words = 1024;
  c.module_words = 1u << 16;
  c.local_words = 1u << 16;
  return c;
}

struct Outcome {
  std::uint64_t measured = 0;
  std::uint64_t predicted = 0;
};

class RandomPrograms : public testing::TestWithParam<std::uint32_t> {};

TEST_P(RandomPrograms, MapAndRunOnAllThreeConfigurationsWithEveryWordDelivered) {
  const std::uint32_t m = GetParam();
  const std::uint32_t clustered = std::max(1u, (m + 1) / 2);
  traces::Recorder silent;
  std::vector<std::unique_ptr<sc::Multiprocessor>> systems;  // [arch][n = m, n = clustered]
  for (Arch arch : kArchs) {
    for (std::uint32_t n : {m, clustered}) {
      const std::string name =
          sw::to_string(arch) + "_n" + std::to_string(n) + (n == m ? "" : "_clustered");
      systems.push_back(
          std::make_unique<sc::Multiprocessor>(name.c_str(), roomy(arch, n).validated(), silent));
    }
  }
  std::size_t ranked = 0;
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const sw::McProgram program = sw::generate_random(m, 5, 1000 * m + seed);
    for (std::size_t variant = 0; variant < 2; ++variant) {
      std::array<Outcome, kArchs.size()> outcome;
      for (std::size_t a = 0; a < kArchs.size(); ++a) {
        sc::Multiprocessor& system = *systems[2 * a + variant];
        const sw::SystemConfig& config = system.config();
        const std::string what = program.name + " on " + system.name();
        const sw::MappedProgram mapped = sw::map_program(program, config.arch, config.n);
        ASSERT_LE(mapped.needs.module_words, config.module_words) << what;
        system.load(mapped.machine);
        sc::run_systems({&system}, sw::Cycle{100'000'000});
        const sw::RunSummary r = system.result();
        ASSERT_TRUE(r.completed) << what << ": " << (r.blocked.empty() ? "" : r.blocked.front());
        ASSERT_TRUE(r.delivery.ok()) << what << ": " << r.delivery.failures.front();
        EXPECT_EQ(r.delivery.messages_checked, mapped.node_messages) << what;
        ASSERT_EQ(r.step_ends.size(), program.steps.size()) << what;
        EXPECT_EQ(r.step_ends.back(), r.cycles) << what;
        outcome[a] = {r.cycles.count(), sw::predict_cycles(mapped, config).total.count()};
      }
      // The configuration the cost model ranks fastest is fastest, and the one it ranks slowest
      // is slowest (ties in the emulation allowed).
      const auto by_prediction = [&](std::size_t x, std::size_t y) {
        return outcome[x].predicted < outcome[y].predicted;
      };
      std::array<std::size_t, 3> order = {0, 1, 2};
      std::stable_sort(order.begin(), order.end(), by_prediction);
      const std::string table =
          program.name + " variant " + std::to_string(variant) + ": omp " +
          std::to_string(outcome[0].measured) + " (" + std::to_string(outcome[0].predicted) +
          "), crossbar " + std::to_string(outcome[1].measured) + " (" +
          std::to_string(outcome[1].predicted) + "), bus " + std::to_string(outcome[2].measured) +
          " (" + std::to_string(outcome[2].predicted) + ")";
      for (std::size_t other : order) {
        EXPECT_LE(outcome[order.front()].measured, outcome[other].measured) << table;
        EXPECT_GE(outcome[order.back()].measured, outcome[other].measured) << table;
      }
      ++ranked;
    }
  }
  EXPECT_EQ(ranked, 12u);
}

std::string nodes_name(const testing::TestParamInfo<std::uint32_t>& param) {
  return "m" + std::to_string(param.param);
}

INSTANTIATE_TEST_SUITE_P(Nodes2To16, RandomPrograms, testing::Range(2u, 17u), nodes_name);

// Memory follows the work in flight: a long program of small steps between two nodes on the omp,
// each step's sender the previous step's receiver, so one message is in a mailbox at a time. The
// modules hold at their peak the largest step's words, not the program's total: a mailbox's words
// are forgotten when their reader's access ends.
TEST(MappedPrograms, TheMailboxesHoldTheLargestStepsWordsNotTheProgramsTotal) {
  traces::Recorder silent;
  sc::Multiprocessor system("pingpong", roomy(Arch::Omp, 2).validated(), silent);
  sw::McProgram program;
  program.name = "pingpong";
  program.nodes = 2;
  std::uint64_t largest = 0;
  std::uint64_t total = 0;
  for (std::uint32_t k = 0; k < 40; ++k) {
    const std::uint32_t words = 1 + (k * 7) % 23;
    sw::ProgramStep step;
    step.transfers.push_back({k % 2, {1 - k % 2}, false, words, {}});
    program.steps.push_back(step);
    largest = std::max<std::uint64_t>(largest, words);
    total += words;
  }
  system.load(sw::map_program(program, Arch::Omp, 2).machine);
  sc::run_systems({&system}, sw::Cycle{10'000'000});
  const sw::RunSummary r = system.result();
  ASSERT_TRUE(r.completed);
  EXPECT_TRUE(r.delivery.ok());
  EXPECT_EQ(r.delivery.words_checked, total);
  EXPECT_EQ(system.peak_module_words(), largest);
  EXPECT_LT(largest * 10, total) << "the program must be long for the test to show anything";
}

// A write of several parcels writes the longest parcel's words into each of their mailboxes: a
// shorter parcel's reader consumes the padding after its words too. Node 0 scatters 1 word to
// node 1 and w words to node 2 in one write of two mailboxes (2w words), then both answer with one
// word: at the peak the modules hold the largest scatter, not the padding of every step.
TEST(MappedPrograms, AShortParcelsReaderConsumesThePaddingOfTheLongerWrite) {
  traces::Recorder silent;
  sc::Multiprocessor system("scatter", roomy(Arch::Omp, 3).validated(), silent);
  sw::McProgram program;
  program.name = "scatter";
  program.nodes = 3;
  std::uint64_t largest = 0;
  for (std::uint32_t k = 0; k < 30; ++k) {
    const std::uint32_t words = 2 + (k * 5) % 11;
    sw::ProgramStep scatter;
    scatter.transfers.push_back({0, {1}, false, 1, {}});
    scatter.transfers.push_back({0, {2}, false, words, {}});
    sw::ProgramStep answer;
    answer.transfers.push_back({1, {0}, false, 1, {}});
    answer.transfers.push_back({2, {0}, false, 1, {}});
    program.steps.push_back(scatter);
    program.steps.push_back(answer);
    largest = std::max<std::uint64_t>(largest, words);
  }
  const sw::MappedProgram mapped = sw::map_program(program, Arch::Omp, 3);
  system.load(mapped.machine);
  sc::run_systems({&system}, sw::Cycle{10'000'000});
  const sw::RunSummary r = system.result();
  ASSERT_TRUE(r.completed);
  EXPECT_TRUE(r.delivery.ok());
  EXPECT_EQ(system.peak_module_words(), 2 * largest);
}

}  // namespace
}  // namespace orthosim
