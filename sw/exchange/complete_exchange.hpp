// Complete exchange (all-to-all personalized communication) on an N x N wormhole torus, N = 2^n,
// as block-level schedules (sw/schedule): every node starts with one block for every other node,
// and each step lists the message each node sends and the blocks it carries. The algorithms of
// [A2A] (A(n-1), section 2.2; A1, section 2.3), the algorithm of its reference [6] as [A2A]
// section 2.3 describes it (A1's stage 2 on the undivided torus), and two baselines: the direct
// exchange in N^2 - 1 translation rounds and the dimension-ordered two-phase exchange.
// docs/complete-exchange.md gives each algorithm, the readings chosen where the paper is garbled
// or contradicts itself, and the measured tables. Free of SystemC.
//
// Node numbering: P_{i,j} of [A2A] (row i, column j) is node j + N i, so the paper's dimension 0
// (the column index j) is the torus' dimension 0 and Topology::route corrects it first.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sw/schedule/schedule.hpp"

namespace orthosim::sw {

enum class ExchangeAlgorithm : std::uint8_t {
  A1,        ///< [A2A] section 2.3: divide once into basic cells, N/4 + 5 steps
  ANMinus1,  ///< [A2A] section 2.2: divide n - 1 times, 3 log N - 1 steps
  Suh,       ///< [A2A]'s reference [6] as section 2.3 describes it: N/2 + 2 steps
  TwoPhase,  ///< row exchange then column exchange, N - 1 translation rounds each
  Direct,    ///< every block straight to its destination, N^2 - 1 translation rounds
};

/// "a1", "an-1", "suh", "two-phase", "direct": the names the command line takes.
[[nodiscard]] std::string to_string(ExchangeAlgorithm algorithm);
/// Every algorithm, in the order above.
[[nodiscard]] std::vector<ExchangeAlgorithm> exchange_algorithms();
[[nodiscard]] std::optional<ExchangeAlgorithm> parse_exchange_algorithm(const std::string& text);

/// How A1 picks the blocks of each of its messages (the step patterns are the same).
enum class A1BlockChoice : std::uint8_t {
  /// A block moves when staying would leave it unable to reach its destination by the steps
  /// that remain: the reading that delivers every block (docs/complete-exchange.md).
  MustMove,
  /// The literal reading of section 2.3: a step that moves 2h hops along a dimension carries the
  /// blocks whose destination master differs from the sender in the one coordinate bit that hop
  /// corrects (h = 1: bit 0, h = 2: bit 1, h = 4: the bits above). It loses blocks: phase 4's
  /// pairs are not bit flips (the checker shows it).
  DestinationBit,
};

/// The sides N an algorithm takes: a power of two from 4 up to 32 (N^2 (N^2 - 1) blocks: a
/// million at 32); throws std::invalid_argument naming what was expected otherwise.
void check_exchange_side(std::uint32_t side);

/// The schedule of `algorithm` on the N x N torus (N = `side`), every block of
/// complete_exchange_blocks(N^2) delivered. A1 and A(n-1) use A1BlockChoice::MustMove.
[[nodiscard]] Schedule complete_exchange_schedule(ExchangeAlgorithm algorithm, std::uint32_t side);

/// A1 with the given block choice.
[[nodiscard]] Schedule a1_schedule(std::uint32_t side, A1BlockChoice choice);

/// The three columns of [A2A] Table 1 for one algorithm at one N, in its units: start-ups (t_s),
/// message transmission in blocks (m t_d) and rearrangement in blocks (m t_r).
struct Table1Terms {
  double startups = 0;
  double transmission_blocks = 0;
  double rearranged_blocks = 0;
};

/// Table 1's row of `algorithm` (A1, A(n-1) and [6], which Suh reconstructs) at N = `side`; none
/// for the baselines, which Table 1 does not list.
[[nodiscard]] std::optional<Table1Terms> table1_terms(ExchangeAlgorithm algorithm,
                                                      std::uint32_t side);

}  // namespace orthosim::sw
