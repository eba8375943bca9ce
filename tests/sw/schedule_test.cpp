// Communication schedules and their checker (sw/schedule). Oracles: schedules written by hand in
// the test whose routes are worked out here (e-cube on a 2-cube, dimension order on a line),
// link loads counted by the line's own arithmetic, and the .mcp text read back by the parser.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
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

}  // namespace
}  // namespace orthosim
