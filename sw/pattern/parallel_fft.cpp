// [LCC] section 6.2's Parallel_FFT as a .mcp program (docs/lcc.md, "The parallel FFT").
#include "sw/pattern/parallel_fft.hpp"

#include <string>

#include "sw/core/diagnostic.hpp"
#include "sw/program/parser.hpp"

namespace orthosim::sw {

namespace {

/// Nanoseconds to cycles of `clock_ns`, to the nearest cycle.
Cycle nearest_cycles(std::uint64_t ns, std::uint64_t clock_ns) {
  return Cycle{(ns + clock_ns / 2) / clock_ns};
}

/// P with its low `bits` bits in reverse order.
std::uint32_t reversed(std::uint32_t p, std::uint32_t bits) {
  std::uint32_t out = 0;
  for (std::uint32_t k = 0; k < bits; ++k) {
    out |= ((p >> k) & 1u) << (bits - 1 - k);
  }
  return out;
}

ProgramStep compute_step(std::string label, std::uint32_t nodes, Cycle cycles) {
  ProgramStep step;
  step.label = std::move(label);
  for (NodeId p = 0; p < nodes; ++p) {
    step.computes.push_back({p, cycles, {}});
  }
  return step;
}

}  // namespace

FftCosts ncube2_fft_costs() {
  // [LCC] section 6.2: 0.57 us per byte on a channel, 164 us software latency per message,
  // 5.12 us per butterfly, 4.47 us per half butterfly; a complex input is two doubles.
  constexpr std::uint64_t kByteNs = 570;
  FftCosts c;
  c.clock_ns = kByteNs;
  c.point_words = 16;
  c.startup = nearest_cycles(164'000, kByteNs);
  c.butterfly = nearest_cycles(5'120, kByteNs);
  c.half_butterfly = nearest_cycles(4'470, kByteNs);
  return c;
}

FftShape fft_shape(std::uint32_t dim, std::uint64_t points) {
  if (dim < 2 || dim > 12) {
    // On one dimension every processor is its own bit-reverse: there is nothing to show.
    throw ParameterError("dim", "a hypercube dimension n from 2 to 12", std::to_string(dim));
  }
  std::uint32_t log_m = 0;
  while (log_m < 63 && (std::uint64_t{1} << log_m) < points) {
    ++log_m;
  }
  const std::string expected = "m = 2^(n+2d) points with d >= 1 ([LCC] section 6.2: 2^d inputs "
                               "per block, 2^d blocks per processor); for n = " +
                               std::to_string(dim) + ": " +
                               std::to_string(std::uint64_t{1} << (dim + 2)) + ", " +
                               std::to_string(std::uint64_t{1} << (dim + 4)) + ", ...";
  if ((std::uint64_t{1} << log_m) != points || log_m < dim + 2 || (log_m - dim) % 2 != 0) {
    throw ParameterError("points", expected, std::to_string(points));
  }
  FftShape s;
  s.dim = dim;
  s.block_bits = (log_m - dim) / 2;
  s.points = points;
  s.points_per_node = points >> dim;
  return s;
}

McProgram parallel_fft(std::uint32_t dim, std::uint64_t points, const FftCosts& costs) {
  const FftShape s = fft_shape(dim, points);
  if (costs.point_words == 0) {
    throw ParameterError("point-words", "at least one word per complex input", "0");
  }
  const std::uint64_t message_words = s.points_per_node * costs.point_words;
  if (message_words > kMaxMessageWords) {
    throw ParameterError("points",
                         "at most " + std::to_string(kMaxMessageWords) +
                             " words per message (m/2^n inputs of " +
                             std::to_string(costs.point_words) + " words)",
                         std::to_string(points) + " points, " + std::to_string(message_words) +
                             " words per message");
  }
  const auto words = static_cast<std::uint32_t>(message_words);
  const std::uint32_t nodes = 1u << dim;
  // Each processor holds m/2^n inputs: m/2^(n+1) whole butterflies in a local stage, its half of
  // m/2^n butterflies in a stage across a dimension.
  const Cycle local_stages = costs.butterfly * (s.block_bits * (s.points_per_node / 2));
  const Cycle half_stage = costs.half_butterfly * s.points_per_node;

  McProgram out;
  out.name = "parallel_fft n=" + std::to_string(dim) + " m=" + std::to_string(points) +
             " (run with --startup " + std::to_string(costs.startup.count()) + " --clock-ns " +
             std::to_string(costs.clock_ns) + ")";
  out.nodes = nodes;
  ProgramStep bit_reverse;
  bit_reverse.label = "bit_reverse";
  for (NodeId p = 0; p < nodes; ++p) {
    const NodeId q = reversed(p, dim);
    if (q != p) {
      bit_reverse.transfers.push_back({p, {q}, false, words, {}});
    }
  }
  out.steps.push_back(std::move(bit_reverse));
  const std::string d = std::to_string(s.block_bits);
  out.steps.push_back(compute_step("stages_1_to_" + d + "_local", nodes, local_stages));
  for (std::uint32_t k = 0; k < dim; ++k) {
    ProgramStep exchange;
    exchange.label = "exchange_dimension_" + std::to_string(k);
    for (NodeId p = 0; p < nodes; ++p) {
      exchange.transfers.push_back({p, {p ^ (1u << k)}, false, words, {}});
    }
    out.steps.push_back(std::move(exchange));
    out.steps.push_back(
        compute_step("stage_" + std::to_string(s.block_bits + 1 + k) + "_half", nodes, half_stage));
  }
  out.steps.push_back(compute_step("stages_" + std::to_string(dim + s.block_bits + 1) + "_to_" +
                                       std::to_string(dim + 2 * s.block_bits) + "_local",
                                   nodes, local_stages));
  return out;
}

}  // namespace orthosim::sw
