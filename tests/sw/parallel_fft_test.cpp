// [LCC] section 6.2's Parallel_FFT program (sw/pattern/parallel_fft.hpp) against the FFT worked
// out input by input in the test: which processor holds each input under the block-cyclic
// distribution, where the bit-reverse permutation sends it, which inputs each butterfly pairs;
// and the nCUBE 2 costs against the paper's microseconds.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "sw/core/diagnostic.hpp"
#include "sw/pattern/parallel_fft.hpp"
#include "sw/program/format.hpp"
#include "sw/program/parser.hpp"

namespace orthosim {
namespace {

/// x's `bits` bits in reverse order, bit by bit.
std::uint64_t bit_reversed(std::uint64_t x, std::uint32_t bits) {
  std::uint64_t out = 0;
  for (std::uint32_t k = 0; k < bits; ++k) {
    if ((x >> k) & 1u) {
      out |= std::uint64_t{1} << (bits - 1 - k);
    }
  }
  return out;
}

using Messages = std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint64_t>;

/// Messages of a step as (source, destination) -> words.
Messages messages_of(const sw::ProgramStep& step) {
  Messages out;
  for (const sw::Transfer& t : step.transfers) {
    for (sw::NodeId d : t.destinations) {
      out[{t.source, d}] += t.words;
    }
  }
  return out;
}

/// Every node computes `cycles` in the step, and it sends nothing.
void expect_compute_only(const sw::ProgramStep& step, std::uint32_t nodes, std::uint64_t cycles,
                         const std::string& what) {
  EXPECT_TRUE(step.transfers.empty()) << what;
  ASSERT_EQ(step.computes.size(), nodes) << what;
  for (std::uint32_t p = 0; p < nodes; ++p) {
    EXPECT_EQ(step.computes[p].node, p) << what;
    EXPECT_EQ(step.computes[p].cycles.count(), cycles) << what << " node " << p;
  }
}

// Every input of an m-point FFT on 2^n processors followed through the program: input x (bits
// x_0..x_(n+2d-1)) lives on processor (x_d..x_(n+d-1)); the bit-reverse permutation moves it to
// where input reverse(x) lives; stage i pairs x with x XOR 2^(i-1). The words each processor
// sends to each other one, and the butterflies (whole or half) each one computes, counted input
// by input, are the program's messages and compute cycles.
TEST(ParallelFft, MessagesAndComputeCyclesAreTheInputsCountedOneByOne) {
  sw::FftCosts costs;
  costs.point_words = 3;
  costs.butterfly = sw::Cycle{7};
  costs.half_butterfly = sw::Cycle{5};
  for (std::uint32_t n = 2; n <= 6; ++n) {
    for (std::uint32_t d = 1; d <= 3; ++d) {
      const std::uint32_t bits = n + 2 * d;
      const std::uint64_t m = std::uint64_t{1} << bits;
      const std::uint32_t nodes = 1u << n;
      const std::string what = "n=" + std::to_string(n) + " m=" + std::to_string(m);
      const auto processor = [&](std::uint64_t x) {
        return static_cast<std::uint32_t>((x >> d) & (nodes - 1));
      };
      const sw::McProgram program = sw::parallel_fft(n, m, costs);
      EXPECT_EQ(program.nodes, nodes) << what;
      // The bit-reverse step, the first local stages, two steps per stage across a dimension,
      // the last local stages.
      ASSERT_EQ(program.steps.size(), 2 * n + 3) << what;

      Messages bit_reverse;
      for (std::uint64_t x = 0; x < m; ++x) {
        const std::uint32_t from = processor(x);
        const std::uint32_t to = processor(bit_reversed(x, bits));
        if (from != to) {
          bit_reverse[{from, to}] += costs.point_words;
        }
      }
      EXPECT_EQ(messages_of(program.steps[0]), bit_reverse) << what;
      EXPECT_TRUE(program.steps[0].computes.empty()) << what;

      // Butterflies per processor per stage: whole when both inputs are local, half otherwise.
      std::vector<std::uint64_t> stage_cycles(bits + 1, 0);
      std::vector<Messages> stage_messages(bits + 1);
      for (std::uint32_t i = 1; i <= bits; ++i) {
        std::map<std::uint32_t, std::uint64_t> cycles;
        for (std::uint64_t x = 0; x < m; ++x) {
          const std::uint64_t partner = x ^ (std::uint64_t{1} << (i - 1));
          if (processor(partner) == processor(x)) {
            cycles[processor(x)] += x < partner ? costs.butterfly.count() : 0;
          } else {
            cycles[processor(x)] += costs.half_butterfly.count();
            stage_messages[i][{processor(x), processor(partner)}] += costs.point_words;
          }
        }
        for (std::uint32_t p = 1; p < nodes; ++p) {
          ASSERT_EQ(cycles[p], cycles[0]) << what << " stage " << i << ": every processor alike";
        }
        stage_cycles[i] = cycles[0];
      }
      std::uint64_t first_local = 0;
      std::uint64_t last_local = 0;
      for (std::uint32_t i = 1; i <= d; ++i) {
        EXPECT_TRUE(stage_messages[i].empty()) << what << " stage " << i;
        first_local += stage_cycles[i];
        EXPECT_TRUE(stage_messages[n + d + i].empty()) << what << " stage " << n + d + i;
        last_local += stage_cycles[n + d + i];
      }
      expect_compute_only(program.steps[1], nodes, first_local, what + " first local stages");
      for (std::uint32_t k = 0; k < n; ++k) {
        const std::uint32_t stage = d + 1 + k;
        EXPECT_EQ(messages_of(program.steps[2 + 2 * k]), stage_messages[stage])
            << what << " stage " << stage;
        EXPECT_TRUE(program.steps[2 + 2 * k].computes.empty()) << what << " stage " << stage;
        expect_compute_only(program.steps[3 + 2 * k], nodes, stage_cycles[stage],
                            what + " stage " + std::to_string(stage));
      }
      expect_compute_only(program.steps.back(), nodes, last_local, what + " last local stages");
      // What gen writes reads back as the same program.
      const sw::McProgram again = sw::parse_program(sw::format_program(program), "fft.mcp");
      ASSERT_EQ(again.steps.size(), program.steps.size()) << what;
      for (std::size_t s = 0; s < again.steps.size(); ++s) {
        EXPECT_EQ(messages_of(again.steps[s]), messages_of(program.steps[s])) << what;
      }
    }
  }
}

// [LCC] section 6.2: 164 us per message, 0.57 us per byte, 5.12 us per butterfly, 4.47 us per
// half; one cycle is one byte's time, a complex input two 8-byte doubles.
TEST(ParallelFft, NcubeTwoCostsAreThePapersMicrosecondsInByteTimes) {
  const sw::FftCosts c = sw::ncube2_fft_costs();
  EXPECT_EQ(c.clock_ns, 570u);
  EXPECT_EQ(c.point_words, 2u * 8u);
  EXPECT_EQ(c.startup.count(), static_cast<std::uint64_t>(std::lround(164.0 / 0.57)));
  EXPECT_EQ(c.butterfly.count(), static_cast<std::uint64_t>(std::lround(5.12 / 0.57)));
  EXPECT_EQ(c.half_butterfly.count(), static_cast<std::uint64_t>(std::lround(4.47 / 0.57)));
  // m = 2^14 on the 8-cube: 64 inputs per processor, 1024-byte messages.
  const sw::McProgram p = sw::parallel_fft(8, 1u << 14, c);
  EXPECT_EQ(p.steps[0].transfers.front().words, 64u * 16u);
}

TEST(ParallelFft, RefusesSizesThatAreNotTwoToTheNPlusTwoD) {
  const sw::FftCosts c = sw::ncube2_fft_costs();
  const auto key = [&](std::uint32_t n, std::uint64_t m, const sw::FftCosts& costs) {
    try {
      (void)sw::parallel_fft(n, m, costs);
    } catch (const sw::ParameterError& e) {
      return e.parameter();
    }
    return std::string("accepted");
  };
  EXPECT_EQ(key(8, 1u << 10, c), "accepted");
  EXPECT_EQ(key(8, 1u << 16, c), "accepted");
  EXPECT_EQ(key(8, 1u << 8, c), "points") << "d = 0";
  EXPECT_EQ(key(8, 1u << 11, c), "points") << "n + odd";
  EXPECT_EQ(key(8, 1000, c), "points") << "not a power of two";
  EXPECT_EQ(key(8, 0, c), "points");
  EXPECT_EQ(key(1, 1u << 3, c), "dim");
  EXPECT_EQ(key(13, 1u << 15, c), "dim");
  // 2^16 inputs of 16 words per processor is 2^20 words, the format's largest message.
  EXPECT_EQ(key(2, std::uint64_t{1} << 18, c), "accepted");
  EXPECT_EQ(key(2, std::uint64_t{1} << 20, c), "points");
  sw::FftCosts none = c;
  none.point_words = 0;
  EXPECT_EQ(key(8, 1u << 10, none), "point-words");
}

// docs/lcc.md's step table: step 2 holds stages 1..d, step 2k+4 stage d+1+k, step 2n+3 stages
// n+d+1..n+2d; the labels name those stages (n = 3, d = 2: m = 2^7).
TEST(ParallelFft, StepLabelsNameTheStagesOfTheStepTable) {
  const std::uint32_t n = 3, d = 2;
  const sw::McProgram p =
      sw::parallel_fft(n, std::uint64_t{1} << (n + 2 * d), sw::ncube2_fft_costs());
  std::vector<std::string> labels;
  for (const sw::ProgramStep& step : p.steps) {
    labels.push_back(step.label);
  }
  std::vector<std::string> expected = {"bit_reverse",
                                       "stages_1_to_" + std::to_string(d) + "_local"};
  for (std::uint32_t k = 0; k < n; ++k) {
    expected.push_back("exchange_dimension_" + std::to_string(k));
    expected.push_back("stage_" + std::to_string(d + 1 + k) + "_half");
  }
  expected.push_back("stages_" + std::to_string(n + d + 1) + "_to_" + std::to_string(n + 2 * d) +
                     "_local");
  EXPECT_EQ(labels, expected);
}

// n runs 2..12 (docs/cli.md); the refusal lists the first sizes, 2^(n+2) and 2^(n+4); the
// largest m that is a power of two, 2^63, is 2^(n+2d) for n = 11, d = 26.
TEST(ParallelFft, TheShapesRangeIsNTwoToTwelveAndMUpToTwoToThe63) {
  EXPECT_EQ(sw::fft_shape(12, std::uint64_t{1} << 14).block_bits, 1u);
  EXPECT_THROW((void)sw::fft_shape(13, std::uint64_t{1} << 15), sw::ParameterError);
  EXPECT_EQ(sw::fft_shape(11, std::uint64_t{1} << 63).block_bits, 26u);
  try {
    (void)sw::fft_shape(3, 64);
    ADD_FAILURE() << "2^6 on the 3-cube accepted";
  } catch (const sw::ParameterError& e) {
    EXPECT_NE(std::string(e.what()).find("for n = 3: 32, 128, ..."), std::string::npos) << e.what();
  }
}

// The program's name says how to run it (docs/lcc.md): the start-up a message costs and the clock
// are the network run's, not the program's; on the nCUBE 2, 164 us in cycles of 0.57 us.
TEST(ParallelFft, TheNameGivesTheShapeAndTheRunsStartUpAndClock) {
  const sw::FftCosts c = sw::ncube2_fft_costs();
  EXPECT_EQ(sw::parallel_fft(8, 1u << 14, c).name, "parallel_fft n=8 m=16384 (run with --startup " +
                                                       std::to_string(std::lround(164.0 / 0.57)) +
                                                       " --clock-ns 570)");
}

// m is at most 2^63, the largest power of two of 64 bits: a larger m is refused, never shifted by
// 64 bits.
TEST(ParallelFft, PointsAboveTwoToThe63AreRefused) {
  EXPECT_THROW((void)sw::fft_shape(11, ~std::uint64_t{0}), sw::ParameterError);
  EXPECT_THROW((void)sw::fft_shape(11, (std::uint64_t{1} << 63) + 1), sw::ParameterError);
}

}  // namespace
}  // namespace orthosim
