// Complete exchange on N x N tori (sw/exchange). Oracles: the start-up, transmission and
// rearrangement formulas of [A2A] section 3 and Table 1 (and of the step listings where Table 1
// contradicts them, docs/complete-exchange.md), the link loads of translation rounds worked out
// from the routers' rule (the shorter way round, the positive way at exactly half a ring), and
// the schedule checker, which follows every block.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "sw/exchange/collectives.hpp"
#include "sw/exchange/complete_exchange.hpp"
#include "sw/schedule/schedule_check.hpp"
#include "sw/topology/topology.hpp"

namespace orthosim {
namespace {

using sw::A1BlockChoice;
using sw::ExchangeAlgorithm;
using sw::ScheduleCheck;

std::uint64_t log2_of(std::uint64_t n) {
  std::uint64_t bits = 0;
  while ((std::uint64_t{1} << bits) < n) {
    ++bits;
  }
  return bits;
}

ScheduleCheck checked(const sw::Schedule& s, std::uint32_t side, bool exclusive_links) {
  return sw::check_schedule(sw::Topology::torus({side, side}), s, {true, exclusive_links});
}

std::uint64_t all_blocks(std::uint64_t side) { return side * side * (side * side - 1); }

/// The start-ups of each algorithm: Table 1 for A1 (N/4 + 5), A(n-1) (3 log N - 1) and [6]
/// (N/2 + 2); 2(N - 1) rounds for the two-phase exchange, N^2 - 1 for the direct one. A1 at
/// N = 4 loses phase 3 (its 4-hop moves return to the sender on a ring of 4): 2 + 2 + 1.
std::uint64_t expected_startups(ExchangeAlgorithm a, std::uint64_t n) {
  switch (a) {
    case ExchangeAlgorithm::A1:
      return n == 4 ? 5 : n / 4 + 5;
    case ExchangeAlgorithm::ANMinus1:
      return 3 * log2_of(n) - 1;
    case ExchangeAlgorithm::Suh:
      return n / 2 + 2;
    case ExchangeAlgorithm::TwoPhase:
      return 2 * (n - 1);
    case ExchangeAlgorithm::Direct:
      return n * n - 1;
  }
  return 0;
}

TEST(CompleteExchange, EveryAlgorithmIsOnePortAndDeliversEveryBlock) {
  for (std::uint32_t n : {4u, 8u, 16u}) {
    for (ExchangeAlgorithm a : sw::exchange_algorithms()) {
      if (a == ExchangeAlgorithm::Direct && n > 8) {
        continue;  // 255 rounds: the link-load test below covers it at N = 8
      }
      const ScheduleCheck c = checked(sw::complete_exchange_schedule(a, n), n, false);
      EXPECT_TRUE(c.ok()) << to_string(a) << " N=" << n << ": " << c.violations.front().what;
      EXPECT_EQ(c.blocks_delivered, all_blocks(n)) << to_string(a) << " N=" << n;
      EXPECT_EQ(c.startups(), expected_startups(a, n)) << to_string(a) << " N=" << n;
    }
  }
}

/// The largest message of each step, summed, read off the schedule itself: at N = 32 the checker
/// would follow 7 million block moves, too slow for the unit tests (the smaller sides check them).
std::uint64_t largest_messages_summed(const sw::Schedule& s) {
  std::uint64_t sum = 0;
  for (const sw::ScheduleStep& step : s.steps) {
    std::size_t largest = 0;
    for (const sw::ScheduledMessage& m : step.messages) {
      largest = std::max(largest, m.blocks.size());
    }
    sum += largest;
  }
  return sum;
}

TEST(CompleteExchange, A1AtThirtyTwoHasTable1sStartupsAndTheStepListingsTransmission) {
  const std::uint64_t n = 32;
  const sw::Schedule s = sw::a1_schedule(32, A1BlockChoice::MustMove);
  EXPECT_EQ(s.steps.size(), n / 4 + 5);
  // Table 1: (N^3 + 10 N^2)/4, which takes phases 3 and 4 as one step each. The listing has two
  // steps each, N^2 blocks apiece: 2 N^2 more. Stage 3 carries N^2 - 1 (no block to oneself).
  EXPECT_EQ(largest_messages_summed(s), (n * n * n + 10 * n * n) / 4 + 2 * n * n - 1);
}

/// Where section 2.3's listing sends P_{i,j} in each step (N x N torus, p = i/2, q = j/2), with
/// the two corrections docs/complete-exchange.md explains: moves along i test p (the listing
/// tests q), and phase 3 step 2's moves along j are the odd classes' (the listing says "Even").
std::pair<std::int64_t, std::int64_t> a1_listing(const std::string& label, std::int64_t i,
                                                 std::int64_t j) {
  const std::int64_t p = i / 2;
  const std::int64_t q = j / 2;
  const std::int64_t c = (p + q) % 4;
  const auto low = [](std::int64_t v) { return v % 4 <= 1; };  // "0 or 1"
  if (label == "stage 1 step 1") {
    return {i, j % 2 == 0 ? j + 1 : j - 1};
  }
  if (label == "stage 1 step 2") {
    return {i % 2 == 0 ? i + 1 : i - 1, j};
  }
  if (label.rfind("stage 2 phase 1", 0) == 0) {
    const std::pair<std::int64_t, std::int64_t> to[] = {{i, j + 8},
                                                        {i + 8, j},
                                                        {i, j - 8},
                                                        {i - 8, j}};
    return to[c];
  }
  if (label.rfind("stage 2 phase 2", 0) == 0) {
    const std::pair<std::int64_t, std::int64_t> to[] = {{i + 8, j},
                                                        {i, j + 8},
                                                        {i - 8, j},
                                                        {i, j - 8}};
    return to[c];
  }
  const bool even = c % 2 == 0;
  if (label == "stage 2 phase 3 step 1") {
    return even ? std::make_pair(i, low(q) ? j + 4 : j - 4)
                : std::make_pair(low(p) ? i + 4 : i - 4, j);
  }
  if (label == "stage 2 phase 3 step 2") {
    return even ? std::make_pair(low(p) ? i + 4 : i - 4, j)
                : std::make_pair(i, low(q) ? j + 4 : j - 4);
  }
  const std::int64_t sign = (p + q) % 2 == 0 ? 1 : -1;
  if (label == "stage 2 phase 4 step 1") {
    return {i, j + 2 * sign};
  }
  if (label == "stage 2 phase 4 step 2") {
    return {i + 2 * sign, j};
  }
  EXPECT_EQ(label, "stage 3");
  return {i, i % 2 == 0 ? j + 1 : j - 1};
}

TEST(CompleteExchange, A1sMessagesGoWhereSection23sListingSays) {
  for (std::uint32_t side : {8u, 32u}) {
    const sw::Schedule s = sw::a1_schedule(side, A1BlockChoice::MustMove);
    const std::int64_t n = side;
    std::size_t messages = 0;
    for (const sw::ScheduleStep& step : s.steps) {
      for (const sw::ScheduledMessage& m : step.messages) {
        const auto [i, j] = a1_listing(step.label, m.source / n, m.source % n);
        EXPECT_EQ(m.destination, ((i + n) % n) * n + (j + n) % n)
            << step.label << " from " << m.source;
        ++messages;
      }
    }
    // Stage 1 step 1: all N^2 nodes; every other step the N^2/2 masters or slaves.
    EXPECT_EQ(messages, side * side + (s.steps.size() - 1) * side * side / 2);
  }
}

TEST(CompleteExchange, A1CountsFollowSection3StepByStep) {
  for (std::uint64_t n : {8u, 16u}) {
    const sw::Schedule s = sw::a1_schedule(static_cast<std::uint32_t>(n), A1BlockChoice::MustMove);
    const ScheduleCheck c = checked(s, static_cast<std::uint32_t>(n), false);
    ASSERT_EQ(c.steps.size(), n / 4 + 5);
    // Stage 1: N^2/2 then N^2 ([A2A] section 3.1); stage 2: N^2 blocks per step on average over
    // phases 1 and 2 and N^2 in each step of phases 3 and 4; stage 3: N^2 - 1.
    EXPECT_EQ(c.steps[0].largest_message_blocks, n * n / 2);
    EXPECT_EQ(c.steps[1].largest_message_blocks, n * n);
    std::uint64_t stage2 = 0;
    for (std::size_t k = 2; k + 1 < c.steps.size(); ++k) {
      stage2 += c.steps[k].largest_message_blocks;
    }
    EXPECT_EQ(stage2, (n / 4 - 2) * n * n + 4 * n * n) << "N=" << n;
    EXPECT_EQ(c.steps.back().largest_message_blocks, n * n - 1);
    EXPECT_EQ(c.transmission_blocks(), (n * n * n + 18 * n * n) / 4 - 1);
    // Rearrangement (a sender gathers the blocks it sends when it keeps others): every step but
    // stage 1's second, where the slaves send everything they hold.
    EXPECT_EQ(c.rearranged_blocks(), c.transmission_blocks() - n * n);
  }
}

TEST(CompleteExchange, SuhHasTable1sStartupsAndTransmission) {
  for (std::uint64_t n : {4u, 8u, 16u}) {
    const ScheduleCheck c = checked(sw::complete_exchange_schedule(ExchangeAlgorithm::Suh,
                                                                   static_cast<std::uint32_t>(n)),
                                    static_cast<std::uint32_t>(n), false);
    const sw::Table1Terms t =
        *sw::table1_terms(ExchangeAlgorithm::Suh, static_cast<std::uint32_t>(n));
    EXPECT_EQ(c.startups(), t.startups);
    EXPECT_EQ(c.transmission_blocks(), (n * n * n + 4 * n * n) / 4);
    EXPECT_EQ(static_cast<double>(c.transmission_blocks()), t.transmission_blocks);
  }
}

TEST(CompleteExchange, ANMinus1DoublesItsMessagesInEverySplitPhase) {
  for (std::uint64_t n : {4u, 8u, 16u}) {
    const ScheduleCheck c = checked(sw::complete_exchange_schedule(ExchangeAlgorithm::ANMinus1,
                                                                   static_cast<std::uint32_t>(n)),
                                    static_cast<std::uint32_t>(n), true);
    EXPECT_TRUE(c.ok()) << "N=" << n;
    const std::uint64_t phases = log2_of(n) - 1;
    ASSERT_EQ(c.steps.size(), 3 * phases + 2);
    // Split phase k: step 1 trades N^2 2^(k-2), step 2 forwards N^2 2^(k-1) ("the message size
    // increases by a factor of 2", section 2.2).
    for (std::uint64_t k = 1; k <= phases; ++k) {
      EXPECT_EQ(2 * c.steps[2 * k - 2].largest_message_blocks, n * n << (k - 1)) << "N=" << n;
      EXPECT_EQ(c.steps[2 * k - 1].largest_message_blocks, n * n << (k - 1)) << "N=" << n;
    }
    // Exchange: each of the 2N final masters holds N^3/2 blocks and sends half per step.
    EXPECT_EQ(c.steps[2 * phases].largest_message_blocks, n * n * n / 4);
    EXPECT_EQ(c.steps[2 * phases + 1].largest_message_blocks, n * n * n / 4);
    // Merge phase k (n-1 down to 1): at most the N^2 2^(k-1) blocks of the slave's half.
    for (std::uint64_t k = phases; k >= 1; --k) {
      EXPECT_LE(c.steps[2 * phases + 2 + (phases - k)].largest_message_blocks, n * n << (k - 1));
    }
  }
}

TEST(CompleteExchange, TheLiteralA1ReadingLosesBlocksAndTheCheckerSaysWhich) {
  const ScheduleCheck literal = checked(sw::a1_schedule(8, A1BlockChoice::DestinationBit), 8, true);
  EXPECT_TRUE(literal.has(sw::ViolationKind::BlockNotArrived));
  EXPECT_LT(literal.blocks_delivered, all_blocks(8));
  // Stage 1, stage 3 and the steps themselves are fine: only blocks go astray.
  EXPECT_FALSE(literal.has(sw::ViolationKind::LinkShared));
  EXPECT_FALSE(literal.has(sw::ViolationKind::SendsTwice));
  EXPECT_FALSE(literal.has(sw::ViolationKind::BlockNotHeld));
  const ScheduleCheck must_move = checked(sw::a1_schedule(8, A1BlockChoice::MustMove), 8, true);
  EXPECT_TRUE(must_move.ok());
}

/// The literal reading of A1 (docs/complete-exchange.md, reading 3) run block by block on the
/// listing (a1_listing): the destination master of P_{r,c} is local (r/2, c/2) on the masters'
/// torus of row parity r mod 2; stage 1 moves a block towards the master of its cell with that
/// parity (along the row, then along the column); a stage-2 step of 2h torus hops moves the blocks
/// whose destination master differs from the sender's local coordinate along the step's axis in
/// the bit h corrects (h = 4: the bits above 1; h = 2: bit 1; h = 1: bit 0); stage 3 hands a
/// block to the slave it is for. Every block decides on the holdings at the step's start.
/// Returns, per step, each sender's destination and blocks.
using StepMessages = std::map<sw::NodeId, std::pair<sw::NodeId, std::vector<sw::Block>>>;
std::vector<StepMessages> literal_a1_by_block(std::uint32_t side,
                                              const std::vector<std::string>& labels) {
  const std::int64_t n = side;
  const std::vector<sw::Block> blocks = sw::complete_exchange_blocks(side * side);
  std::vector<sw::NodeId> holder;
  for (const sw::Block& b : blocks) {
    holder.push_back(b.origin);
  }
  std::vector<StepMessages> out;
  for (const std::string& label : labels) {
    const bool stage2 = label.rfind("stage 2", 0) == 0;
    const std::int64_t bits = label.rfind("stage 2 phase 3", 0) == 0   ? 2
                              : label.rfind("stage 2 phase 4", 0) == 0 ? 1
                                                                       : ~std::int64_t{3};
    std::vector<std::optional<sw::NodeId>> partner(side * side);  // none: not a sender
    for (std::int64_t i = 0; i < n; ++i) {
      for (std::int64_t j = 0; j < n; ++j) {
        const bool master = i % 2 == j % 2;
        if ((label == "stage 1 step 2" && master) || ((stage2 || label == "stage 3") && !master)) {
          continue;
        }
        const auto [pi, pj] = a1_listing(label, i, j);
        partner[i * n + j] = static_cast<sw::NodeId>(((pi + n) % n) * n + (pj + n) % n);
      }
    }
    StepMessages step;
    std::vector<sw::NodeId> next = holder;
    for (std::size_t k = 0; k < blocks.size(); ++k) {
      if (!partner[holder[k]]) {
        continue;
      }
      const sw::NodeId to = *partner[holder[k]];
      const std::int64_t i = holder[k] / n;
      const std::int64_t j = holder[k] % n;
      const std::int64_t r = blocks[k].destination / n;
      const std::int64_t c = blocks[k].destination % n;
      bool moves = false;
      if (label == "stage 1 step 1") {
        moves = 2 * (j / 2) + r % 2 != j;
      } else if (label == "stage 1 step 2") {
        moves = 2 * (i / 2) + r % 2 != i;
      } else if (stage2) {
        const bool along_row = static_cast<std::int64_t>(to / n) == i;
        const std::int64_t own = along_row ? j / 2 : i / 2;
        const std::int64_t wanted = along_row ? c / 2 : r / 2;
        moves = ((own ^ wanted) & bits) != 0;
      } else {
        moves = blocks[k].destination == to;
      }
      if (moves) {
        auto& message = step[holder[k]];
        message.first = to;
        message.second.push_back(blocks[k]);
        next[k] = to;
      }
    }
    holder = next;
    for (auto& [from, message] : step) {
      std::sort(message.second.begin(), message.second.end());
    }
    out.push_back(std::move(step));
  }
  return out;
}

// N = 16: the first side with phases 1 and 2 (N/8 - 1 steps of 8 hops).
TEST(CompleteExchange, TheLiteralA1ReadingMovesTheBlocksItsRuleNamesBlockByBlock) {
  const std::uint32_t side = 16;
  std::vector<std::string> labels;  // the reachable reading keeps every step of the pattern
  for (const sw::ScheduleStep& step : sw::a1_schedule(side, A1BlockChoice::MustMove).steps) {
    labels.push_back(step.label);
  }
  const std::vector<StepMessages> want = literal_a1_by_block(side, labels);
  const sw::Schedule literal = sw::a1_schedule(side, A1BlockChoice::DestinationBit);
  ASSERT_EQ(literal.steps.size(), want.size()) << "N=" << side;
  for (std::size_t t = 0; t < want.size(); ++t) {
    EXPECT_EQ(literal.steps[t].label, labels[t]);
    StepMessages got;
    for (const sw::ScheduledMessage& m : literal.steps[t].messages) {
      std::vector<sw::Block> sorted = m.blocks;
      std::sort(sorted.begin(), sorted.end());
      got[m.source] = {m.destination, sorted};
    }
    EXPECT_TRUE(got == want[t]) << "N=" << side << " " << labels[t];
  }
}

/// [A2A] section 2.2: in merge phase k the masters of each level-(k-1) subnetwork (stride
/// s = 2^(k-1); P_{i,j} with i = j mod s, local (i/s, j/s)) hand their slaves their blocks, the
/// upper left master (local u, v even) to (u, v + 1), the lower right (odd) to (u, v - 1): "in
/// phase 3, master nodes P_{0,0} and P_{4,4} distribute messages to slave nodes P_{0,4} and
/// P_{4,0}" (N = 16).
TEST(CompleteExchange, ANMinus1sMergeHandsEachSlaveItsBlocksAsSection22Says) {
  for (std::uint32_t side : {8u, 16u}) {
    const sw::Schedule s = sw::complete_exchange_schedule(ExchangeAlgorithm::ANMinus1, side);
    std::size_t merges = 0;
    for (const sw::ScheduleStep& step : s.steps) {
      if (step.label.rfind("merge phase ", 0) != 0) {
        continue;
      }
      ++merges;
      const std::uint32_t k = static_cast<std::uint32_t>(std::stoul(step.label.substr(12)));
      const std::uint32_t stride = 1u << (k - 1);
      EXPECT_EQ(step.messages.size(), side * side / (2 * stride)) << step.label;
      for (const sw::ScheduledMessage& m : step.messages) {
        const std::uint32_t i = m.source / side;
        const std::uint32_t j = m.source % side;
        ASSERT_EQ(i % stride, j % stride) << step.label << " from " << m.source;
        const std::uint32_t u = i / stride;
        const std::uint32_t v = j / stride;
        ASSERT_EQ(u % 2, v % 2) << step.label << " from " << m.source << " (a slave)";
        const std::uint32_t to_column = u % 2 == 0 ? j + stride : j + side - stride;
        EXPECT_EQ(m.destination, i * side + to_column % side) << step.label << " from " << m.source;
      }
      if (side == 16 && k == 3) {
        const auto sends = [&step](sw::NodeId from, sw::NodeId to) {
          return std::any_of(step.messages.begin(), step.messages.end(), [&](const auto& m) {
            return m.source == from && m.destination == to;
          });
        };
        EXPECT_TRUE(sends(0 * 16 + 0, 0 * 16 + 4));
        EXPECT_TRUE(sends(4 * 16 + 4, 4 * 16 + 0));
      }
    }
    EXPECT_EQ(merges, log2_of(side) - 1);
  }
}

/// [A2A] section 2.2: the exchange stage is a complete exchange on each level-(n-1) subnetwork, a
/// 2 x 2 torus of stride N/2 (P_{i,j} with i = j mod N/2: the 2N last masters), in two steps as
/// a basic cell's: along the row (column j + N/2), then along the column (row i + N/2), each of
/// the 2N sending in both.
TEST(CompleteExchange, ANMinus1sExchangeStageGoesAlongTheRowThenTheColumn) {
  for (std::uint32_t side : {4u, 8u, 16u}) {
    const sw::Schedule s = sw::complete_exchange_schedule(ExchangeAlgorithm::ANMinus1, side);
    std::size_t steps = 0;
    for (const sw::ScheduleStep& step : s.steps) {
      const bool rows = step.label == "exchange step 1";
      if (!rows && step.label != "exchange step 2") {
        continue;
      }
      ++steps;
      EXPECT_EQ(step.messages.size(), 2 * side) << step.label;
      for (const sw::ScheduledMessage& m : step.messages) {
        const std::uint32_t i = m.source / side;
        const std::uint32_t j = m.source % side;
        EXPECT_EQ(i % (side / 2), j % (side / 2)) << "N=" << side << " from " << m.source;
        const std::uint32_t to_row = rows ? i : (i + side / 2) % side;
        const std::uint32_t to_column = rows ? (j + side / 2) % side : j;
        EXPECT_EQ(m.destination, to_row * side + to_column)
            << "N=" << side << " " << step.label << " from " << m.source;
      }
    }
    EXPECT_EQ(steps, 2u);
  }
}

/// The links of A1's and [6]'s 4-group moves are shared exactly where the move is half a ring:
/// A1's "8 hops" at N = 16 and [6]'s 4 hops at N = 8 both go the positive way for the - classes.
TEST(CompleteExchange, StageTwoSharesLinksOnlyWhereItsLongMoveIsHalfARing) {
  const auto loads = [](const ScheduleCheck& c) {
    std::vector<std::uint32_t> out;
    for (const sw::StepFigures& f : c.steps) {
      out.push_back(f.max_link_load);
    }
    return out;
  };
  using V = std::vector<std::uint32_t>;
  EXPECT_EQ(loads(checked(sw::a1_schedule(8, A1BlockChoice::MustMove), 8, false)), V(7, 1));
  EXPECT_EQ(loads(checked(sw::a1_schedule(16, A1BlockChoice::MustMove), 16, false)),
            (V{1, 1, 2, 2, 1, 1, 1, 1, 1}));
  const auto suh = [](std::uint32_t n) {
    return sw::complete_exchange_schedule(ExchangeAlgorithm::Suh, n);
  };
  EXPECT_EQ(loads(checked(suh(8), 8, false)), (V{2, 2, 1, 1, 1, 1}));
  EXPECT_EQ(loads(checked(suh(16), 16, false)), V(10, 1));
}

/// A translation by b along a ring of N: each link carries b messages the positive way when
/// b <= N/2 (b = N/2 included: the routers go positive at a tie), N - b the negative way.
std::uint32_t ring_load(std::uint32_t b, std::uint32_t n) { return b <= n / 2 ? b : n - b; }

TEST(CompleteExchange, TranslationRoundsLoadEachLinkByTheirShift) {
  const std::uint32_t n = 8;
  const sw::Schedule direct = sw::complete_exchange_schedule(ExchangeAlgorithm::Direct, n);
  const ScheduleCheck c = checked(direct, n, false);
  EXPECT_TRUE(c.ok());
  EXPECT_EQ(c.blocks_delivered, all_blocks(n));
  EXPECT_EQ(c.transmission_blocks(), n * n - 1);
  ASSERT_EQ(c.steps.size(), n * n - 1);
  std::size_t k = 0;
  for (std::uint32_t a = 0; a < n; ++a) {
    for (std::uint32_t b = 0; b < n; ++b) {
      if (a == 0 && b == 0) {
        continue;
      }
      EXPECT_EQ(c.steps[k].max_link_load, std::max(ring_load(a, n), ring_load(b, n)))
          << "round (" << a << ", " << b << ")";
      ++k;
    }
  }
  const ScheduleCheck two =
      checked(sw::complete_exchange_schedule(ExchangeAlgorithm::TwoPhase, n), n, false);
  ASSERT_EQ(two.steps.size(), 2 * (n - 1));
  for (std::uint32_t r = 0; r < 2 * (n - 1); ++r) {
    EXPECT_EQ(two.steps[r].max_link_load, ring_load(r % (n - 1) + 1, n)) << "round " << r;
    EXPECT_EQ(two.steps[r].largest_message_blocks, n);  // the N blocks for one column (row)
  }
}

/// The baselines' rounds as docs/complete-exchange.md defines them: two-phase round a sends
/// P_{i,j}'s blocks for column j + a to P_{i,j+a} (then round b its blocks for row i + b to
/// P_{i+b,j}), direct round (a, b) sends P_{i,j}'s one block for P_{i+a,j+b}, rounds in the
/// order of a, then b. A shift of -a loads the links as +a does (the test above cannot tell
/// them apart); only the partners can.
TEST(CompleteExchange, TranslationRoundsSendEachNodeTheShiftAhead) {
  const std::uint32_t n = 8;
  const auto node = [n](std::uint32_t i, std::uint32_t j) { return (i % n) * n + j % n; };
  const sw::Schedule two = sw::complete_exchange_schedule(ExchangeAlgorithm::TwoPhase, n);
  ASSERT_EQ(two.steps.size(), 2 * (n - 1));
  for (std::uint32_t r = 0; r < 2 * (n - 1); ++r) {
    const bool rows = r < n - 1;
    const std::uint32_t shift = r % (n - 1) + 1;
    const sw::ScheduleStep& step = two.steps[r];
    EXPECT_EQ(step.label, (rows ? "row round " : "column round ") + std::to_string(shift));
    ASSERT_EQ(step.messages.size(), n * n) << step.label;
    for (const sw::ScheduledMessage& m : step.messages) {
      const std::uint32_t i = m.source / n;
      const std::uint32_t j = m.source % n;
      const sw::NodeId to = rows ? node(i, j + shift) : node(i + shift, j);
      EXPECT_EQ(m.destination, to) << step.label << " from " << m.source;
      for (const sw::Block& b : m.blocks) {
        EXPECT_EQ(rows ? b.destination % n : b.destination / n, rows ? to % n : to / n)
            << step.label << " from " << m.source;
      }
    }
  }
  const sw::Schedule direct = sw::complete_exchange_schedule(ExchangeAlgorithm::Direct, n);
  ASSERT_EQ(direct.steps.size(), n * n - 1);
  std::size_t k = 0;
  for (std::uint32_t a = 0; a < n; ++a) {
    for (std::uint32_t b = 0; b < n; ++b) {
      if (a == 0 && b == 0) {
        continue;
      }
      const sw::ScheduleStep& step = direct.steps[k++];
      ASSERT_EQ(step.messages.size(), n * n) << step.label;
      for (const sw::ScheduledMessage& m : step.messages) {
        const sw::NodeId to = node(m.source / n + a, m.source % n + b);
        EXPECT_EQ(m.destination, to) << "round (" << a << ", " << b << ") from " << m.source;
        EXPECT_EQ(m.blocks, (std::vector<sw::Block>{sw::Block{m.source, to, 0}}));
      }
    }
  }
}

TEST(CompleteExchange, RefusesASideThatIsNotAPowerOfTwoFromFour) {
  for (std::uint32_t side : {0u, 2u, 6u, 12u, 64u}) {
    EXPECT_THROW((void)sw::complete_exchange_schedule(ExchangeAlgorithm::A1, side),
                 std::invalid_argument);
  }
  EXPECT_EQ(sw::parse_exchange_algorithm("an-1"), ExchangeAlgorithm::ANMinus1);
  EXPECT_EQ(sw::parse_exchange_algorithm("A1"), std::nullopt);
  EXPECT_FALSE(sw::table1_terms(ExchangeAlgorithm::Direct, 8).has_value());
}

}  // namespace
}  // namespace orthosim

// ---- the collectives of the tables (sw/exchange/collectives.hpp) -------------------------------

namespace orthosim {
namespace {

std::vector<std::uint32_t> largest_per_step(const ScheduleCheck& c) {
  std::vector<std::uint32_t> out;
  for (const sw::StepFigures& f : c.steps) {
    out.push_back(f.largest_message_blocks);
  }
  return out;
}

TEST(Collectives, TheTorusGatherGoesAlongTheRowsThenTheColumnsOneLinkAtATime) {
  for (const auto& [k1, k2] : {std::pair<std::uint32_t, std::uint32_t>{4, 4}, {2, 3}, {8, 4}}) {
    const sw::Schedule s = sw::torus_row_column_gather(k1, k2);
    const ScheduleCheck c = sw::check_schedule(sw::Topology::torus({k1, k2}), s);
    EXPECT_TRUE(c.ok()) << k1 << "x" << k2 << ": " << c.violations.front().what;
    EXPECT_EQ(c.blocks_delivered, k1 * k2);
    // k1 - 1 steps of one block, then k2 - 1 steps of a row's k1 blocks.
    std::vector<std::uint32_t> expected(k1 - 1, 1);
    expected.insert(expected.end(), k2 - 1, k1);
    EXPECT_EQ(largest_per_step(c), expected);
    for (const sw::ScheduleStep& step : s.steps) {
      for (const sw::ScheduledMessage& m : step.messages) {
        EXPECT_EQ(sw::Topology::torus({k1, k2}).hops(m.source, m.destination), 1u);
      }
    }
  }
}

// A step's label names what its messages cross: on the cube "dimension k" when every message
// joins two nodes that differ in bit k alone (the scatter from d - 1 down, the others up); on the
// torus "row step t" for the t-th step of messages to the next column, then "column step t" for
// those to the next row.
TEST(Collectives, EachStepIsLabelledByWhatItsMessagesCross) {
  const auto expect_dimensions = [](const sw::Schedule& s, bool descending) {
    const auto d = static_cast<std::uint32_t>(s.steps.size());
    for (std::uint32_t n = 0; n < d; ++n) {
      const std::uint32_t k = descending ? d - 1 - n : n;
      EXPECT_EQ(s.steps[n].label, "dimension " + std::to_string(k)) << s.name;
      for (const sw::ScheduledMessage& m : s.steps[n].messages) {
        EXPECT_EQ(m.source ^ m.destination, sw::NodeId{1} << k) << s.name << " step " << n;
      }
    }
  };
  for (std::uint32_t d : {2u, 4u}) {
    expect_dimensions(sw::hypercube_binomial_broadcast(d, 1), false);
    expect_dimensions(sw::hypercube_binomial_scatter(d, 1), true);
    expect_dimensions(sw::hypercube_recursive_doubling(d), false);
  }
  const std::uint32_t columns = 4;
  const std::uint32_t rows = 3;
  const sw::Schedule g = sw::torus_row_column_gather(columns, rows);
  ASSERT_EQ(g.steps.size(), std::size_t{columns - 1 + rows - 1});
  for (std::size_t n = 0; n < g.steps.size(); ++n) {
    const bool row = n + 1 < columns;
    const std::size_t t = row ? n + 1 : n + 2 - columns;
    EXPECT_EQ(g.steps[n].label, (row ? "row step " : "column step ") + std::to_string(t));
    for (const sw::ScheduledMessage& m : g.steps[n].messages) {
      const sw::NodeId next = row ? m.source / columns * columns + (m.source + 1) % columns
                                  : (m.source + columns) % (columns * rows);
      EXPECT_EQ(m.destination, next) << g.steps[n].label;
    }
  }
}

TEST(Collectives, RefuseWhatTheyCannotSchedule) {
  EXPECT_NO_THROW((void)sw::hypercube_binomial_broadcast(16, (1u << 16) - 1));
  EXPECT_THROW((void)sw::hypercube_binomial_broadcast(17, 0), std::invalid_argument);
  EXPECT_THROW((void)sw::hypercube_binomial_broadcast(0, 0), std::invalid_argument);
  EXPECT_THROW((void)sw::hypercube_binomial_scatter(3, 8), std::invalid_argument);
  EXPECT_NO_THROW((void)sw::hypercube_binomial_scatter(3, 7));
  EXPECT_THROW((void)sw::torus_row_column_gather(1, 4), std::invalid_argument);
  EXPECT_THROW((void)sw::torus_row_column_gather(4, 1), std::invalid_argument);
}

TEST(Collectives, BinomialTreesAndRecursiveDoublingTakeDStepsOnTheCube) {
  for (std::uint32_t d : {1u, 3u, 5u}) {
    const sw::Topology cube = sw::Topology::hypercube(d);
    const std::uint32_t m = 1u << d;
    // Broadcast from node 5 mod m: 2^k messages of one block in step k.
    const ScheduleCheck b = sw::check_schedule(cube, sw::hypercube_binomial_broadcast(d, 5 % m));
    EXPECT_TRUE(b.ok()) << d;
    EXPECT_EQ(b.blocks_delivered, 1u);
    EXPECT_EQ(b.startups(), d);
    EXPECT_EQ(b.blocks_sent, m - 1);  // each node receives the block once
    // Scatter: 2^(d-1), ..., 2, 1 blocks: 2^d - 1 in all, each block sent once per bit it needs.
    const ScheduleCheck s = sw::check_schedule(cube, sw::hypercube_binomial_scatter(d, 5 % m));
    EXPECT_TRUE(s.ok()) << d;
    EXPECT_EQ(s.blocks_delivered, m - 1);
    EXPECT_EQ(s.transmission_blocks(), m - 1);
    EXPECT_EQ(s.blocks_sent, std::uint64_t{d} * m / 2);  // a node's block crosses its bits
    // Recursive doubling: 1, 2, 4, ... blocks: 2^d - 1.
    const ScheduleCheck r = sw::check_schedule(cube, sw::hypercube_recursive_doubling(d));
    EXPECT_TRUE(r.ok()) << d;
    EXPECT_EQ(r.blocks_delivered, m);
    EXPECT_EQ(r.transmission_blocks(), m - 1);
    for (const sw::StepFigures& f : r.steps) {
      EXPECT_EQ(f.messages, m);
      EXPECT_EQ(f.max_link_load, 1u);
    }
  }
}

}  // namespace
}  // namespace orthosim
