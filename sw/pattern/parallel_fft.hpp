// [LCC] section 6.2's Parallel_FFT as a multicomputer program: an m-point FFT on a 2^n-node
// hypercube with the block-cyclic distribution, its bit-reverse communication first, then the
// n + 2d computational stages, n of them after a neighbour exchange. docs/lcc.md, "The parallel
// FFT".
#pragma once

#include <cstdint>

#include "sw/program/program.hpp"

namespace orthosim::sw {

/// What one run of the FFT costs, in the emulator's cycles and words (one word is one flit).
struct FftCosts {
  std::uint32_t point_words = 16;  ///< words (flits) that carry one complex input
  Cycle butterfly{9};              ///< one butterfly operation, both inputs local
  Cycle half_butterfly{8};         ///< half of a butterfly, its partner input received
  /// The software latency of a message, for the network run's start-up (`--startup`): a
  /// program has no place for it, the network interface charges it per message.
  Cycle startup{288};
  std::uint32_t clock_ns = 570;  ///< the period the cycles above assume (`--clock-ns`)
};

/// The nCUBE 2 of [LCC] section 6.2 on the emulator: one cycle is the time one byte takes on a
/// channel, 0.57 us, so one word is one byte and a 16-byte complex input (two doubles) is 16
/// words; the paper's 164 us software latency per message, 5.12 us per butterfly and 4.47 us per
/// half butterfly are rounded to the nearest cycle: 288, 9 and 8.
[[nodiscard]] FftCosts ncube2_fft_costs();

/// The step count and sizes parallel_fft uses, from [LCC] section 6.2: m = 2^(n + 2d) points,
/// 2^d inputs per block and 2^d blocks per processor.
struct FftShape {
  std::uint32_t dim = 0;              ///< n: the hypercube has 2^n processors
  std::uint32_t block_bits = 0;       ///< d
  std::uint64_t points = 0;           ///< m
  std::uint64_t points_per_node = 0;  ///< m / 2^n = 2^(2d)
};

/// m = 2^(n+2d) with d >= 1, n = `dim` (2..12). Throws ParameterError keyed "dim" for a dimension
/// outside 2..12 and keyed "points" for any other m.
[[nodiscard]] FftShape fft_shape(std::uint32_t dim, std::uint64_t points);

/// The Parallel_FFT program ([LCC] section 6.2) on 2^n nodes, program node P the processor P
/// of the paper (input x, bits x_0..x_(n+2d-1), on processor (x_d..x_(n+d-1))):
///  step 1, "bit-reverse": processor P sends its m/2^n inputs to the processor with P's n bits
///    reversed (the inputs' bit-reverse permutation moves whole processors' data: input bits
///    d..n+d-1 land on bits n+d-1..d); a processor its own reverse sends nothing;
///  step 2, the computational stages 1..d, local: d (m/2^(n+1)) butterflies;
///  then for k = 0..n-1 the stage d+1+k: an exchange step (every processor sends its m/2^n
///    inputs to its neighbour across dimension k) and a compute step of m/2^n half butterflies
///    (each processor computes its half of every butterfly whose inputs straddle the two);
///  last, the stages n+d+1..n+2d, local: d (m/2^(n+1)) butterflies.
/// That is 2n + 3 steps, every message m/2^n inputs of point_words words. Communication and
/// computation are separate steps so that `run` reports each one's cycles. Throws as
/// fft_shape, and ParameterError keyed "points" when a message would exceed the .mcp format's
/// 2^20 words, keyed "point-words" for zero words.
[[nodiscard]] McProgram parallel_fft(std::uint32_t dim, std::uint64_t points,
                                     const FftCosts& costs);

}  // namespace orthosim::sw
