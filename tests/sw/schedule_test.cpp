// Communication schedules and their checker (sw/schedule). Oracles: schedules written by hand in
// the test whose routes are worked out here (e-cube on a 2-cube, dimension order on a line),
// link loads counted by the line's own arithmetic, and the .mcp text read back by the parser.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "sw/program/format.hpp"
#include "sw/program/parser.hpp"
#include "sw/schedule/schedule.hpp"
#include "sw/schedule/schedule_check.hpp"
#include "sw/schedule/schedule_program.hpp"
#include "sw/topology/topology.hpp"

namespace orthosim {
namespace {

using sw::Block;
using sw::NodeId;
using sw::Schedule;
using sw::ScheduledMessage;
using sw::ScheduleStep;
using sw::Topology;
using sw::ViolationKind;

/// Complete exchange on the 2-cube by xor rounds: in round r node n sends block (n, n ^ r) to
/// n ^ r. The e-cube routes of round 3 (0->1->3, 1->0->2, 2->3->1, 3->2->0) use eight distinct
/// directed links, so every round is one-port and link-exclusive.
Schedule xor_rounds_on_2cube() {
  Schedule s{"xor", 4, sw::complete_exchange_blocks(4), {}};
  for (NodeId r = 1; r < 4; ++r) {
    ScheduleStep step;
    for (NodeId n = 0; n < 4; ++n) {
      step.messages.push_back(ScheduledMessage{n, n ^ r, {Block{n, n ^ r, 0}}});
    }
    s.steps.push_back(step);
  }
  return s;
}

TEST(Schedule, XorRoundsOnTheTwoCubeDeliverEveryBlockWithoutConflict) {
  const sw::ScheduleCheck check = sw::check_schedule(Topology::hypercube(2), xor_rounds_on_2cube());
  EXPECT_TRUE(check.ok()) << check.violations.front().what;
  EXPECT_EQ(check.blocks_delivered, 12u);
  EXPECT_EQ(check.blocks_sent, 12u);
  EXPECT_EQ(check.startups(), 3u);
  EXPECT_EQ(check.transmission_blocks(), 3u);
  for (const sw::StepFigures& f : check.steps) {
    EXPECT_EQ(f.max_link_load, 1u);
    EXPECT_EQ(f.messages, 4u);
  }
}

TEST(Schedule, ABlockSentToTheWrongNodeOrNeverSentIsNotDelivered) {
  Schedule wrong = xor_rounds_on_2cube();
  // Round 1's message 0 -> 1 carries block (0, 3) instead of (0, 1): (0, 1) stays home and (0, 3)
  // then cannot be sent from node 0 in round 3.
  wrong.steps[0].messages[0].blocks = {Block{0, 3, 0}};
  const sw::ScheduleCheck check = sw::check_schedule(Topology::hypercube(2), wrong);
  EXPECT_TRUE(check.has(ViolationKind::BlockNotHeld));
  EXPECT_TRUE(check.has(ViolationKind::BlockNotArrived));
  EXPECT_EQ(check.blocks_delivered, 10u);  // (0, 1) at home, (0, 3) at node 1

  Schedule short_of_a_round = xor_rounds_on_2cube();
  short_of_a_round.steps.pop_back();
  const sw::ScheduleCheck missing = sw::check_schedule(Topology::hypercube(2), short_of_a_round);
  EXPECT_EQ(missing.blocks_delivered, 8u);
  EXPECT_EQ(missing.violations.size(), 4u);
  EXPECT_EQ(missing.violations.front().step, 2u);
}

TEST(Schedule, OnePortRefusesASecondSendOrReceiveInAStep) {
  Schedule s{"two", 4, {Block{0, 1, 0}, Block{0, 2, 0}, Block{3, 1, 0}}, {}};
  s.steps.push_back(ScheduleStep{"",
                                 {},
                                 {ScheduledMessage{0, 1, {Block{0, 1, 0}}},
                                  ScheduledMessage{0, 2, {Block{0, 2, 0}}},
                                  ScheduledMessage{3, 1, {Block{3, 1, 0}}}}});
  const Topology cube = Topology::hypercube(2);
  const sw::ScheduleCheck check = sw::check_schedule(cube, s);
  EXPECT_TRUE(check.has(ViolationKind::SendsTwice));
  EXPECT_TRUE(check.has(ViolationKind::ReceivesTwice));
  EXPECT_EQ(check.blocks_delivered, 3u);
  const sw::ScheduleCheck all_port = sw::check_schedule(cube, s, {false, true});
  EXPECT_TRUE(all_port.ok());
}

TEST(Schedule, TwoMessagesOverOneDirectedLinkAreACollision) {
  // Line of 4: 0 -> 2 and 1 -> 3 both cross the link 1 -> 2; 2 -> 0 goes the other way.
  Schedule s{"line", 4, {Block{0, 2, 0}, Block{1, 3, 0}, Block{2, 0, 0}}, {}};
  s.steps.push_back(ScheduleStep{"",
                                 {},
                                 {ScheduledMessage{0, 2, {Block{0, 2, 0}}},
                                  ScheduledMessage{1, 3, {Block{1, 3, 0}}},
                                  ScheduledMessage{2, 0, {Block{2, 0, 0}}}}});
  const sw::ScheduleCheck check = sw::check_schedule(Topology::mesh({4}), s);
  ASSERT_EQ(check.violations.size(), 1u);
  EXPECT_EQ(check.violations[0].kind, ViolationKind::LinkShared);
  EXPECT_NE(check.violations[0].what.find("node 1"), std::string::npos);
  EXPECT_EQ(check.steps[0].max_link_load, 2u);
  EXPECT_TRUE(sw::check_schedule(Topology::mesh({4}), s, {true, false}).ok());
}

TEST(Schedule, ABlockReceivedInAStepMovesOnOnlyFromTheNextStep) {
  Schedule relay{"relay", 4, {Block{0, 3, 0}}, {}};
  relay.steps.push_back(ScheduleStep{"",
                                     {},
                                     {ScheduledMessage{0, 1, {Block{0, 3, 0}}},
                                      ScheduledMessage{1, 3, {Block{0, 3, 0}}}}});
  EXPECT_TRUE(sw::check_schedule(Topology::hypercube(2), relay).has(ViolationKind::BlockNotHeld));
  std::swap(relay.steps[0].messages[1], relay.steps[0].messages[0]);
  EXPECT_TRUE(sw::check_schedule(Topology::hypercube(2), relay).has(ViolationKind::BlockNotHeld));

  Schedule two_steps{"relay", 4, {Block{0, 3, 0}}, {}};
  two_steps.steps.push_back(ScheduleStep{"", {}, {ScheduledMessage{0, 1, {Block{0, 3, 0}}}}});
  two_steps.steps.push_back(ScheduleStep{"", {}, {ScheduledMessage{1, 3, {Block{0, 3, 0}}}}});
  const sw::ScheduleCheck check = sw::check_schedule(Topology::hypercube(2), two_steps);
  EXPECT_TRUE(check.ok());
  EXPECT_EQ(check.blocks_sent, 2u);
}

// Two receivers-only conflicts: 0 -> 1 and 2 -> 1 (no node sends twice), so only
// ReceivesTwice; the converse (0 -> 1, 0 -> 2) only SendsTwice.
TEST(Schedule, OnePortNamesTheSideThatIsUsedTwice) {
  // One step of the two messages a -> b and c -> d, each carrying its own block.
  const auto one_step = [](NodeId a, NodeId b, NodeId c, NodeId d) {
    Schedule s{"two", 4, {Block{a, b, 0}, Block{c, d, 0}}, {}};
    s.steps.push_back(ScheduleStep{"",
                                   {},
                                   {ScheduledMessage{a, b, {Block{a, b, 0}}},
                                    ScheduledMessage{c, d, {Block{c, d, 0}}}}});
    return sw::check_schedule(Topology::hypercube(2), s);
  };
  const sw::ScheduleCheck twice_in = one_step(0, 1, 2, 1);
  EXPECT_TRUE(twice_in.has(ViolationKind::ReceivesTwice));
  EXPECT_FALSE(twice_in.has(ViolationKind::SendsTwice));
  const sw::ScheduleCheck twice_out = one_step(0, 1, 0, 2);
  EXPECT_TRUE(twice_out.has(ViolationKind::SendsTwice));
  EXPECT_FALSE(twice_out.has(ViolationKind::ReceivesTwice));
}

// A broadcast block is copied, so the "already sent in this step" rule does not apply to it:
// relayed 0 -> 1 -> 3 within one step, node 1 does not hold it yet when the step starts.
TEST(Schedule, ABroadcastBlockReceivedInAStepMovesOnOnlyFromTheNextStep) {
  const Block b{0, Block::kEveryNode, 0};
  Schedule relay{"relay", 4, {b}, {}};
  relay.steps.push_back(
      ScheduleStep{"", {}, {ScheduledMessage{0, 1, {b}}, ScheduledMessage{1, 3, {b}}}});
  const sw::ScheduleCheck check = sw::check_schedule(Topology::hypercube(2), relay);
  ASSERT_EQ(check.violations.size(), 2u);  // not held at 1; never reaches 2 (nor 3)
  EXPECT_EQ(check.violations[0].kind, ViolationKind::BlockNotHeld);
  EXPECT_NE(check.violations[0].what.find("node 1 does not hold"), std::string::npos);
  EXPECT_EQ(check.violations[1].kind, ViolationKind::BlockNotArrived);
}

// A step's figures: its largest message (blocks), its busiest sender's rearrangement (the
// largest local rearrangement, not the last or the sum), and every block counted once per move.
TEST(Schedule, StepFiguresAreTheLargestMessageAndTheLargestRearrangement) {
  Schedule s{"figures", 4, sw::complete_exchange_blocks(4), {}};
  s.steps.push_back(
      ScheduleStep{"",
                   {sw::LocalWork{0, 5, sw::Cycle{0}}, sw::LocalWork{2, 2, sw::Cycle{0}}},
                   {ScheduledMessage{0, 1, {Block{0, 1, 0}, Block{0, 3, 0}}},
                    ScheduledMessage{2, 3, {Block{2, 3, 0}}}}});
  const sw::ScheduleCheck check = sw::check_schedule(Topology::hypercube(2), s);
  ASSERT_EQ(check.steps.size(), 1u);
  EXPECT_EQ(check.steps[0].largest_message_blocks, 2u);
  EXPECT_EQ(check.steps[0].most_rearranged_blocks, 5u);
  EXPECT_EQ(check.rearranged_blocks(), 5u);
  EXPECT_EQ(check.transmission_blocks(), 2u);
  EXPECT_EQ(check.blocks_sent, 3u);
  EXPECT_EQ(check.blocks_delivered, 2u);  // (0, 1) and (2, 3); (0, 3) waits at node 1
}

// Node numbers are 0..m-1: m itself is out of range for a block, a message, local work; a
// message to its own sender carries nothing anywhere.
TEST(Schedule, NodeMIsOutOfRangeAndAMessageToItselfIsEmpty) {
  EXPECT_THROW((void)sw::check_schedule(Topology::hypercube(2), Schedule{"", 4, {{4, 0, 0}}, {}}),
               std::invalid_argument);
  EXPECT_THROW((void)sw::check_schedule(Topology::hypercube(2), Schedule{"", 4, {{0, 4, 0}}, {}}),
               std::invalid_argument);
  Schedule s{"range", 4, {Block{0, 1, 0}}, {}};
  s.steps.push_back(ScheduleStep{"", {sw::LocalWork{4, 1, sw::Cycle{0}}}, {}});
  s.steps.push_back(ScheduleStep{"", {}, {ScheduledMessage{0, 4, {Block{0, 1, 0}}}}});
  s.steps.push_back(ScheduleStep{"", {}, {ScheduledMessage{0, 0, {Block{0, 1, 0}}}}});
  const sw::ScheduleCheck check = sw::check_schedule(Topology::hypercube(2), s);
  ASSERT_EQ(check.violations.size(), 4u);
  EXPECT_EQ(check.violations[0].kind, ViolationKind::NodeOutOfRange);
  EXPECT_EQ(check.violations[0].step, 0u);
  EXPECT_EQ(check.violations[1].kind, ViolationKind::NodeOutOfRange);
  EXPECT_EQ(check.violations[1].step, 1u);
  EXPECT_EQ(check.violations[2].kind, ViolationKind::EmptyMessage);
  EXPECT_EQ(check.violations[2].step, 2u);
  EXPECT_EQ(check.violations[3].kind, ViolationKind::BlockNotArrived);
  EXPECT_EQ(check.blocks_sent, 0u);
}

// At most kMaxViolations are kept, then `truncated` says more were found.
TEST(Schedule, ViolationsStopAtTheirLimitAndSayTheyWereTruncated) {
  const std::size_t limit = sw::ScheduleCheck::kMaxViolations;
  Schedule s{"many", 4, {}, {}};
  for (std::size_t k = 0; k < limit; ++k) {
    s.steps.push_back(ScheduleStep{"", {}, {ScheduledMessage{0, 0, {Block{0, 1, 0}}}}});
  }
  const sw::ScheduleCheck exactly = sw::check_schedule(Topology::hypercube(2), s);
  EXPECT_EQ(exactly.violations.size(), limit);
  EXPECT_FALSE(exactly.truncated);
  s.steps.push_back(s.steps.back());
  const sw::ScheduleCheck more = sw::check_schedule(Topology::hypercube(2), s);
  EXPECT_EQ(more.violations.size(), limit);
  EXPECT_TRUE(more.truncated);
}

TEST(Schedule, BroadcastBlocksAreCopiedAndMustReachEveryNode) {
  // Recursive doubling on the 2-cube: exchange along dimension 0, then along dimension 1 with
  // both blocks held.
  Schedule s{"doubling", 4, sw::all_to_all_broadcast_blocks(4), {}};
  ScheduleStep dim0;
  ScheduleStep dim1;
  for (NodeId n = 0; n < 4; ++n) {
    dim0.messages.push_back(ScheduledMessage{n, n ^ 1u, {Block{n, Block::kEveryNode, 0}}});
    dim1.messages.push_back(ScheduledMessage{
        n, n ^ 2u, {Block{n, Block::kEveryNode, 0}, Block{n ^ 1u, Block::kEveryNode, 0}}});
  }
  s.steps = {dim0, dim1};
  const sw::ScheduleCheck check = sw::check_schedule(Topology::hypercube(2), s);
  EXPECT_TRUE(check.ok());
  EXPECT_EQ(check.blocks_delivered, 4u);
  EXPECT_EQ(check.transmission_blocks(), 3u);  // 1 + 2, the doubling

  s.steps.pop_back();
  const sw::ScheduleCheck half = sw::check_schedule(Topology::hypercube(2), s);
  EXPECT_EQ(half.blocks_delivered, 0u);
  EXPECT_TRUE(half.has(ViolationKind::BlockNotArrived));
}

TEST(Schedule, LinkLoadsOfALineAreThePairsThatSpanEachLink) {
  const std::uint32_t k = 16;
  const Topology line = Topology::mesh({k});
  std::vector<std::pair<NodeId, NodeId>> pairs;
  for (NodeId a = 0; a < k; ++a) {
    for (NodeId b = 0; b < k; ++b) {
      if ((a + 3 * b) % 5 == 0) {
        pairs.emplace_back(a, b);
      }
    }
  }
  const std::vector<std::uint32_t> load = sw::directed_link_loads(line, pairs);
  const std::uint32_t ports = static_cast<std::uint32_t>(line.ports().size());
  const std::uint32_t positive = line.port_index(sw::Port{0, true});
  const std::uint32_t negative = line.port_index(sw::Port{0, false});
  for (NodeId x = 0; x + 1 < k; ++x) {
    std::uint32_t right = 0;  // pairs with a <= x < b cross x -> x+1
    std::uint32_t left = 0;   // pairs with b <= x < a cross x+1 -> x
    for (const auto& [a, b] : pairs) {
      right += a <= x && x < b ? 1 : 0;
      left += b <= x && x < a ? 1 : 0;
    }
    EXPECT_EQ(load[x * ports + positive], right) << "link " << x << " -> " << x + 1;
    EXPECT_EQ(load[(x + 1) * ports + negative], left) << "link " << x + 1 << " -> " << x;
  }
}

TEST(ScheduleProgram, EachStepBecomesAProgramStepOfBlocksTimesBlockWords) {
  Schedule s = xor_rounds_on_2cube();
  s.steps[1].local = {sw::LocalWork{2, 3, sw::Cycle{5}}, sw::LocalWork{0, 0, sw::Cycle{0}}};
  s.steps[2].messages[1].blocks.push_back(Block{1, 0, 0});  // 2 blocks: 14 words
  const sw::McProgram p = sw::to_program(s, {7, sw::Cycle{4}});
  ASSERT_EQ(p.steps.size(), 3u);
  EXPECT_EQ(p.nodes, 4u);
  EXPECT_TRUE(p.steps[0].computes.empty());
  ASSERT_EQ(p.steps[1].computes.size(), 1u);  // node 0's zero work is left out
  EXPECT_EQ(p.steps[1].computes[0].node, 2u);
  EXPECT_EQ(p.steps[1].computes[0].cycles, sw::Cycle{5 + 3 * 4});
  ASSERT_EQ(p.steps[2].transfers.size(), 4u);
  EXPECT_EQ(p.steps[2].transfers[0].words, 7u);
  EXPECT_EQ(p.steps[2].transfers[1].words, 14u);
  EXPECT_EQ(p.steps[2].transfers[1].source, 1u);
  EXPECT_EQ(p.steps[2].transfers[1].destinations, std::vector<NodeId>{2});
  // The text is a program the parser accepts, with the same messages.
  const sw::McProgram back = sw::parse_program(sw::format_program(p), "xor.mcp");
  ASSERT_EQ(back.steps.size(), 3u);
  EXPECT_EQ(back.steps[2].transfers[1].words, 14u);
  EXPECT_EQ(back.steps[1].computes.at(0).cycles, sw::Cycle{17});
}

// docs/networks.md: one packet of W words over h hops arrives t_s + (h + 1) delay + W + 1 cycles
// after it is sent; in lockstep a step lasts until its last message arrives.
TEST(ScheduleProgram, LockstepCyclesAddEachStepsSlowestMessageAfterItsSendersWork) {
  // Line of 8: step 0: 0 -> 5 (5 hops, 2 blocks) and 7 -> 6 (1 hop, its sender computes 40);
  // step 1: only node 3 computes 9.
  Schedule s{"t", 8, {Block{0, 5, 0}, Block{0, 5, 1}, Block{7, 6, 0}}, {}};
  s.steps.push_back(ScheduleStep{"",
                                 {sw::LocalWork{7, 0, sw::Cycle{40}}},
                                 {ScheduledMessage{0, 5, {Block{0, 5, 0}, Block{0, 5, 1}}},
                                  ScheduledMessage{7, 6, {Block{7, 6, 0}}}}});
  s.steps.push_back(ScheduleStep{"", {sw::LocalWork{3, 0, sw::Cycle{9}}}, {}});
  const std::uint64_t ts = 11, delay = 2, b = 3;  // block words
  const std::uint64_t far = ts + (5 + 1) * delay + 2 * b + 1;
  const std::uint64_t near = 40 + ts + (1 + 1) * delay + b + 1;
  EXPECT_EQ(sw::lockstep_cycles(Topology::mesh({8}), s, {3, sw::Cycle{0}}, {ts, 2}),
            sw::Cycle{std::max(far, near) + 9});
}

TEST(ScheduleProgram, RefusesWhatTheProgramFormatCannotHold) {
  Schedule s = xor_rounds_on_2cube();
  EXPECT_THROW((void)sw::to_program(s, {0, sw::Cycle{0}}), std::invalid_argument);
  s.steps[0].messages.push_back(ScheduledMessage{0, 1, {Block{0, 1, 0}}});
  EXPECT_THROW((void)sw::to_program(s, {1, sw::Cycle{0}}), std::invalid_argument);
}

TEST(Schedule, ANetworkOfAnotherSizeOrABlockListedTwiceIsAProgrammingError) {
  EXPECT_THROW((void)sw::check_schedule(Topology::hypercube(3), xor_rounds_on_2cube()),
               std::invalid_argument);
  Schedule twice = xor_rounds_on_2cube();
  twice.blocks.push_back(Block{0, 1, 0});
  EXPECT_THROW((void)sw::check_schedule(Topology::hypercube(2), twice), std::invalid_argument);
}

// ---- the edges a mutation round on schedule_program.cpp found unpinned ----------------------

// A node may list several pieces of local work in one step: its compute phase (and its lockstep
// time) is the sum of all of them, each rearranged block costing t_r. The program is named after
// the schedule and each step after its schedule step.
TEST(ScheduleProgram, ANodesLocalWorkInAStepAddsUpAndStepsKeepTheirNames) {
  Schedule s{"two pieces", 2, {Block{0, 1, 0}}, {}};
  s.steps.push_back(
      ScheduleStep{"first",
                   {sw::LocalWork{0, 1, sw::Cycle{5}}, sw::LocalWork{0, 2, sw::Cycle{0}}},
                   {ScheduledMessage{0, 1, {Block{0, 1, 0}}}}});
  const std::uint64_t tr = 4, b = 3;
  const std::uint64_t work = 5 + (1 + 2) * tr;
  const sw::McProgram p = sw::to_program(s, {static_cast<std::uint32_t>(b), sw::Cycle{tr}});
  EXPECT_EQ(p.name, "two pieces");
  ASSERT_EQ(p.steps.size(), 1u);
  EXPECT_EQ(p.steps[0].label, "first");
  ASSERT_EQ(p.steps[0].computes.size(), 1u);
  EXPECT_EQ(p.steps[0].computes[0].cycles, sw::Cycle{work});
  // docs/networks.md: t_s + (h + 1) delay + W + 1 after the sender's work; 1 hop on a line of 2.
  const std::uint64_t ts = 11, delay = 2;
  EXPECT_EQ(sw::lockstep_cycles(Topology::mesh({2}), s,
                                {static_cast<std::uint32_t>(b), sw::Cycle{tr}}, {ts, 2}),
            sw::Cycle{work + ts + (1 + 1) * delay + b + 1});
}

// A block of 0 words is refused even in a schedule with no message; a message holds 1..2^20
// words (the .mcp format's limit): no block, or one word more, is refused.
TEST(ScheduleProgram, RefusesAnEmptyBlockOrMessageAndOneWordPastTheFormatsLimit) {
  const Schedule silent{"silent", 2, {}, {ScheduleStep{"", {}, {}}}};
  EXPECT_THROW((void)sw::to_program(silent, {0, sw::Cycle{0}}), std::invalid_argument);
  EXPECT_NO_THROW((void)sw::to_program(silent, {1, sw::Cycle{0}}));
  const auto one_message = [](std::uint32_t blocks) {
    Schedule s{"one", 2, {}, {ScheduleStep{"", {}, {ScheduledMessage{0, 1, {}}}}}};
    for (std::uint32_t k = 0; k < blocks; ++k) {
      s.blocks.push_back(Block{0, 1, k});
      s.steps[0].messages[0].blocks.push_back(Block{0, 1, k});
    }
    return s;
  };
  EXPECT_THROW((void)sw::to_program(one_message(0), {1, sw::Cycle{0}}), std::invalid_argument);
  const std::uint32_t half = (1u << 20) / 2;  // two blocks are 2^20 words
  EXPECT_EQ(sw::to_program(one_message(2), {half, sw::Cycle{0}}).steps[0].transfers.at(0).words,
            1u << 20);
  EXPECT_THROW((void)sw::to_program(one_message(2), {half + 1, sw::Cycle{0}}),
               std::invalid_argument);
}

// A step of local work alone lasts as long as its longest work, wherever it is listed, and its
// compute phases are in node order; a schedule's message (one sender, one receiver) becomes a
// personalized transfer, never a broadcast. Line of 3, t_r = 4, blocks of 3 words: step 0, node 1
// computes 30 and node 2 rearranges 1 block after 5 cycles (9); step 1, 0 -> 1 over 1 hop.
TEST(ScheduleProgram, AStepOfLocalWorkLastsItsLongestWorkAndAMessageIsPersonalized) {
  Schedule s{"t", 3, {Block{0, 1, 0}}, {}};
  s.steps.push_back(ScheduleStep{
      "", {sw::LocalWork{1, 0, sw::Cycle{30}}, sw::LocalWork{2, 1, sw::Cycle{5}}}, {}});
  s.steps.push_back(ScheduleStep{"", {}, {ScheduledMessage{0, 1, {Block{0, 1, 0}}}}});
  const std::uint64_t ts = 11, delay = 2, b = 3, tr = 4;
  ASSERT_GT(30u, 5 + tr);
  EXPECT_EQ(sw::lockstep_cycles(Topology::mesh({3}), s,
                                {static_cast<std::uint32_t>(b), sw::Cycle{tr}}, {ts, 2}),
            sw::Cycle{30 + ts + (1 + 1) * delay + b + 1});
  const sw::McProgram p = sw::to_program(s, {static_cast<std::uint32_t>(b), sw::Cycle{tr}});
  ASSERT_EQ(p.steps.size(), 2u);
  ASSERT_EQ(p.steps[0].computes.size(), 2u);  // in node order, the program text's canonical one
  EXPECT_EQ(p.steps[0].computes[0].node, 1u);
  EXPECT_EQ(p.steps[0].computes[0].cycles, sw::Cycle{30});
  EXPECT_EQ(p.steps[0].computes[1].node, 2u);
  EXPECT_EQ(p.steps[0].computes[1].cycles, sw::Cycle{5 + tr});
  ASSERT_EQ(p.steps[1].transfers.size(), 1u);
  EXPECT_FALSE(p.steps[1].transfers[0].broadcast);
}

// ---- the edges a mutation round on schedule_check.cpp found unpinned ------------------------

// A violation names a block as (origin, destination), with its tag only when it has one.
TEST(Schedule, AViolationNamesABlocksTagOnlyWhenItHasOne) {
  const Schedule never_sent{"tags", 4, {Block{0, 1, 3}, Block{0, 2, 0}}, {}};
  const sw::ScheduleCheck check = sw::check_schedule(Topology::hypercube(2), never_sent);
  ASSERT_EQ(check.violations.size(), 2u);
  EXPECT_EQ(check.violations[0].what, "block (0, 1, tag 3) ended at node 0");
  EXPECT_EQ(check.violations[1].what, "block (0, 2) ended at node 0");
}

// What the checker refuses counts for nothing: local work at node m adds no rearrangement, and a
// message from node m or without a block is no start-up, sends no block and loads no link.
TEST(Schedule, RefusedWorkAndMessagesCountForNothing) {
  Schedule s{"refused", 4, {Block{0, 1, 0}}, {}};
  s.steps.push_back(
      ScheduleStep{"", {sw::LocalWork{4, 7, sw::Cycle{0}}, sw::LocalWork{1, 2, sw::Cycle{0}}}, {}});
  s.steps.push_back(ScheduleStep{"", {}, {ScheduledMessage{4, 1, {Block{0, 1, 0}}}}});
  s.steps.push_back(ScheduleStep{"", {}, {ScheduledMessage{0, 1, {}}}});
  const sw::ScheduleCheck check = sw::check_schedule(Topology::hypercube(2), s);
  ASSERT_EQ(check.violations.size(), 4u);
  EXPECT_EQ(check.violations[0].kind, ViolationKind::NodeOutOfRange);
  EXPECT_EQ(check.violations[1].kind, ViolationKind::NodeOutOfRange);
  EXPECT_EQ(check.violations[1].step, 1u);
  EXPECT_EQ(check.violations[2].kind, ViolationKind::EmptyMessage);
  EXPECT_EQ(check.violations[2].step, 2u);
  EXPECT_EQ(check.violations[3].kind, ViolationKind::BlockNotArrived);
  ASSERT_EQ(check.steps.size(), 3u);
  EXPECT_EQ(check.steps[0].most_rearranged_blocks, 2u);  // node 1's; node 4's 7 refused
  EXPECT_EQ(check.startups(), 0u);
  EXPECT_EQ(check.blocks_sent, 0u);
  for (const sw::StepFigures& f : check.steps) {
    EXPECT_EQ(f.messages, 0u);
    EXPECT_EQ(f.max_link_load, 0u);
  }
}

// A node, or a link, used a third time in a step is not reported again: one violation names the
// second use. Line of 6 (positive links x -> x+1): 0 -> 3, 1 -> 4 and 2 -> 5 load the links from
// 0 to 5 with 1, 2, 3, 2, 1 messages, three links shared, one of them by three.
TEST(Schedule, AThirdUseInAStepIsNotReportedAgain) {
  Schedule line{"three", 6, {Block{0, 3, 0}, Block{1, 4, 0}, Block{2, 5, 0}}, {}};
  line.steps.push_back(ScheduleStep{"",
                                    {},
                                    {ScheduledMessage{0, 3, {Block{0, 3, 0}}},
                                     ScheduledMessage{1, 4, {Block{1, 4, 0}}},
                                     ScheduledMessage{2, 5, {Block{2, 5, 0}}}}});
  const sw::ScheduleCheck shared = sw::check_schedule(Topology::mesh({6}), line);
  EXPECT_EQ(shared.violations.size(), 3u);
  EXPECT_EQ(shared.steps[0].max_link_load, 3u);
  EXPECT_EQ(shared.blocks_delivered, 3u);

  // Node 0 sends three messages, node 3 receives three (2-cube, all its links distinct).
  const auto one_step = [](std::vector<std::pair<NodeId, NodeId>> pairs) {
    Schedule s{"three", 4, {}, {ScheduleStep{}}};
    for (const auto& [from, to] : pairs) {
      s.blocks.push_back(Block{from, to, 0});
      s.steps[0].messages.push_back(ScheduledMessage{from, to, {Block{from, to, 0}}});
    }
    return sw::check_schedule(Topology::hypercube(2), s, {true, false});
  };
  const sw::ScheduleCheck sends = one_step({{0, 1}, {0, 2}, {0, 3}});
  ASSERT_EQ(sends.violations.size(), 1u);
  EXPECT_EQ(sends.violations[0].kind, ViolationKind::SendsTwice);
  const sw::ScheduleCheck receives = one_step({{0, 3}, {1, 3}, {2, 3}});
  ASSERT_EQ(receives.violations.size(), 1u);
  EXPECT_EQ(receives.violations[0].kind, ViolationKind::ReceivesTwice);
}

// A block sent twice in one step goes with the first message only: the second is refused and
// the block ends where the first took it.
TEST(Schedule, ABlockSentTwiceInAStepGoesWithTheFirstMessage) {
  Schedule s{"twice", 4, {Block{0, 1, 0}}, {}};
  s.steps.push_back(ScheduleStep{"",
                                 {},
                                 {ScheduledMessage{0, 1, {Block{0, 1, 0}}},
                                  ScheduledMessage{0, 2, {Block{0, 1, 0}}}}});
  const sw::ScheduleCheck check = sw::check_schedule(Topology::hypercube(2), s, {false, true});
  ASSERT_EQ(check.violations.size(), 1u);
  EXPECT_EQ(check.violations[0].kind, ViolationKind::BlockNotHeld);
  EXPECT_EQ(check.blocks_delivered, 1u);
}

// Link loads follow each pair's direction: on a line of 4, 0 -> 3 loads the positive links of
// nodes 0, 1, 2 and 3 -> 1 the negative links of nodes 3 and 2; nothing else.
TEST(Schedule, LinkLoadsFollowEachPairsDirection) {
  const Topology line = Topology::mesh({4});
  const std::vector<std::uint32_t> load = sw::directed_link_loads(line, {{0, 3}, {3, 1}});
  const std::uint32_t ports = static_cast<std::uint32_t>(line.ports().size());
  std::vector<std::uint32_t> expected(4 * ports, 0);
  for (NodeId x : {0u, 1u, 2u}) {
    expected[x * ports + line.port_index(sw::Port{0, true})] = 1;
  }
  for (NodeId x : {3u, 2u}) {
    expected[x * ports + line.port_index(sw::Port{0, false})] = 1;
  }
  EXPECT_EQ(load, expected);
}

}  // namespace
}  // namespace orthosim
