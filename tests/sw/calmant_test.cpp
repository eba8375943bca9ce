// CALMANT (sw/calmant). Oracles: [CALMANT]'s formulas written out here (Theorem 1 with its
// parentheses, Theorem 3, Theorem 4, Lemma 1, Lemma 2, section 2.4's phases, equation 2),
// brute force on the network's own routes (directed_link_loads) and the schedule checker
// (check_schedule), which follows every block over Topology::route.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>
#include <tuple>
#include <vector>

#include "sw/calmant/calmant.hpp"
#include "sw/schedule/schedule_check.hpp"

namespace orthosim {
namespace {

using sw::calmant::CubeOnMesh;
using sw::calmant::Task;

/// Theorem 1 as printed, parentheses restored.
std::uint64_t theorem1(std::uint32_t i, std::uint32_t m) {
  return m % 2 == 0 ? ((1ull << (i + m + 1)) - (1ull << (i + 1))) / 3
                    : ((1ull << (i + m + 1)) - (1ull << i)) / 3;
}

/// Theorem 3: the axis that carries the highest dilations decides.
std::uint64_t theorem3(std::uint32_t c, std::uint32_t i, std::uint32_t m) {
  return theorem1((i + (m - 1) % c) / c, (m + c - 1) / c);
}

std::uint64_t lb(std::uint32_t c, std::uint32_t i, std::uint32_t m) {
  return std::max<std::uint64_t>(c == 1 ? theorem1(i, m) : theorem3(c, i, m), m);
}

TEST(CalmantEmbedding, StandardEmbeddingPutsDimensionKOnAxisKModCAtDistanceTwoToKDivC) {
  for (const auto& [d, c] :
       std::vector<std::pair<std::uint32_t, std::uint32_t>>{{4, 2}, {6, 3}, {6, 2}, {5, 1}}) {
    const CubeOnMesh cube(d, c);
    const sw::Topology mesh = cube.mesh();
    std::set<sw::NodeId> seen;
    for (std::uint32_t n = 0; n < cube.nodes(); ++n) {
      const sw::NodeId node = cube.node_of(n);
      EXPECT_TRUE(seen.insert(node).second);
      EXPECT_EQ(cube.process_of(node), n);
      const std::vector<std::uint32_t> x = mesh.coordinates(node);
      for (std::uint32_t j = 0; j < c; ++j) {
        for (std::uint32_t l = 0; l < d / c; ++l) {  // m_(j,l) = n_(j+lc)
          EXPECT_EQ((x[j] >> l) & 1u, (n >> (j + l * c)) & 1u);
        }
      }
      for (std::uint32_t k = 0; k < d; ++k) {  // equation 2: D_k = 2^(k div c) on axis k mod c
        const std::vector<std::uint32_t> y = mesh.coordinates(cube.node_of(n ^ (1u << k)));
        for (std::uint32_t j = 0; j < c; ++j) {
          const std::uint32_t dx = x[j] > y[j] ? x[j] - y[j] : y[j] - x[j];
          EXPECT_EQ(dx, j == k % c ? 1u << (k / c) : 0u);
        }
      }
    }
  }
  EXPECT_EQ(CubeOnMesh::of(sw::Topology::mesh({8, 8, 8})).d, 9u);
  EXPECT_THROW((void)CubeOnMesh::of(sw::Topology::mesh({8, 4})), std::invalid_argument);
  EXPECT_THROW((void)CubeOnMesh::of(sw::Topology::torus({8, 8})), std::invalid_argument);
  EXPECT_THROW((void)CubeOnMesh::of(sw::Topology::mesh({6, 6})), std::invalid_argument);
}

// The largest cube accepted has 2^16 = 65536 nodes (d = 16); c must be 1..3 and divide d.
TEST(CalmantEmbedding, CubesOfUpTo16DimensionsAreAccepted) {
  EXPECT_EQ(CubeOnMesh(16, 1).nodes(), 1u << 16);
  EXPECT_EQ(CubeOnMesh(16, 2).side(), 1u << 8);
  EXPECT_THROW(CubeOnMesh(17, 1), std::invalid_argument);
  EXPECT_THROW(CubeOnMesh(18, 3), std::invalid_argument);
  EXPECT_THROW(CubeOnMesh(6, 4), std::invalid_argument);
  EXPECT_THROW(CubeOnMesh(5, 2), std::invalid_argument);
}

/// The loads of a task as the sum of its dimensions' loads, each dimension routed once.
std::vector<std::uint32_t> summed_loads(const std::vector<std::vector<std::uint32_t>>& per_dim,
                                        std::uint32_t i, std::uint32_t m) {
  std::vector<std::uint32_t> sum(per_dim[0].size(), 0);
  for (std::uint32_t k = i; k < i + m; ++k) {
    for (std::size_t l = 0; l < sum.size(); ++l) {
      sum[l] += per_dim[k][l];
    }
  }
  return sum;
}

/// Brute force: every message of every dimension routed on the mesh (Topology::route), the
/// loads of every task <i,M>_c the sum of its dimensions', their maximum Theorem 1 or 3.
void expect_routed_loads_are_the_theorems(std::uint32_t d, std::uint32_t c) {
  const CubeOnMesh cube(d, c);
  const sw::Topology mesh = cube.mesh();
  std::vector<std::vector<std::uint32_t>> per_dim;
  for (std::uint32_t k = 0; k < d; ++k) {
    per_dim.push_back(sw::directed_link_loads(mesh, sw::calmant::task_pairs(cube, Task{k, 1})));
  }
  for (std::uint32_t i = 0; i < d; ++i) {
    for (std::uint32_t m = 1; i + m <= d; ++m) {
      const std::vector<std::uint32_t> loads = summed_loads(per_dim, i, m);
      const std::uint64_t routed = *std::max_element(loads.begin(), loads.end());
      EXPECT_EQ(routed, c == 1 ? theorem1(i, m) : theorem3(c, i, m))
          << "d=" << d << " c=" << c << " <" << i << "," << m << ">";
      EXPECT_EQ(sw::calmant::lambda_max(c, Task{i, m}), routed);
      EXPECT_EQ(sw::calmant::lower_bound(c, Task{i, m}), lb(c, i, m));
      if (c == 1) {
        EXPECT_GE(theorem1(i, m), m);  // Theorem 2: on a line the links dominate M
      }
    }
  }
}

// [CALMANT] sections 3.1 and 4.1 at the sizes the paper's theorems are checked at: a line of
// 2^10 nodes, 2-D meshes of 2^8 and 2^10, 3-D meshes of 2^9 and 2^12 nodes, every (i, M).
TEST(CalmantLoad, RoutedLoadsOfEveryTaskAreTheorems1And3) {
  expect_routed_loads_are_the_theorems(10, 1);
  expect_routed_loads_are_the_theorems(8, 2);
  expect_routed_loads_are_the_theorems(10, 2);
  expect_routed_loads_are_the_theorems(9, 3);
  expect_routed_loads_are_the_theorems(12, 3);
}

// lambda_max_routed routes the whole task at once.
TEST(CalmantLoad, LambdaMaxRoutedOfEveryTaskOnSmallMeshesIsTheorems1And3) {
  for (const auto& [d, c] :
       std::vector<std::pair<std::uint32_t, std::uint32_t>>{{7, 1}, {6, 2}, {6, 3}}) {
    const CubeOnMesh cube(d, c);
    for (std::uint32_t i = 0; i < d; ++i) {
      for (std::uint32_t m = 1; i + m <= d; ++m) {
        EXPECT_EQ(sw::calmant::lambda_max_routed(cube, Task{i, m}),
                  c == 1 ? theorem1(i, m) : theorem3(c, i, m));
      }
    }
  }
}

TEST(CalmantDecomposition, SubtasksCoverTheDimensionsOnceAndLemma1And2Hold) {
  for (std::uint32_t c = 1; c <= 3; ++c) {
    const std::uint32_t d = 16;  // Lemma 2's edge i = 4, M = 9 for c = 3 needs d >= 13
    for (std::uint32_t i = 0; i < d; ++i) {
      for (std::uint32_t m = 1; i + m <= d; ++m) {
        std::vector<std::uint32_t> dims;
        std::uint64_t sum = 0;
        for (const Task& s : sw::calmant::decomposition(c, Task{i, m})) {
          EXPECT_TRUE(c == 1 ? s.count <= 2 : s.count <= 2 * c);
          for (std::uint32_t k = s.first; k < s.first + s.count; ++k) {
            dims.push_back(k);
          }
          sum += lb(c, s.first, s.count);
        }
        std::sort(dims.begin(), dims.end());
        std::vector<std::uint32_t> want(m);
        for (std::uint32_t k = 0; k < m; ++k) {
          want[k] = i + k;
        }
        EXPECT_EQ(dims, want);
        const std::uint64_t whole = lb(c, i, m);
        EXPECT_GE(sum, whole);
        if (c == 1) {
          EXPECT_EQ(sum, whole) << "Lemma 1 <" << i << "," << m << ">";
        } else {
          // Lemma 2, "i <= 1" and "i <= 4": the printed ">=" fails at i = 0.
          const std::uint64_t bound = c == 2 && m >= 7 && i <= 1   ? 2
                                      : c == 3 && m >= 9 && i <= 4 ? 4
                                                                   : 0;
          EXPECT_LE(sum - whole, bound) << "Lemma 2 c=" << c << " <" << i << "," << m << ">";
          EXPECT_EQ(sw::calmant::lemma2_bound(c, Task{i, m}), bound);
        }
      }
    }
  }
  // Section 4.2's example: <0,10>_2 = <0,2>_2 + <2,4>_2 + <6,4>_2.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> got;
  for (const Task& s : sw::calmant::decomposition(2, Task{0, 10})) {
    got.emplace_back(s.first, s.count);
  }
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, (std::vector<std::pair<std::uint32_t, std::uint32_t>>{{0, 2}, {2, 4}, {6, 4}}));
  // Section 3.2's example: <0,6>_1 = <0,2>_1 + <2,2>_1 + <4,2>_1.
  EXPECT_EQ(sw::calmant::decomposition(1, Task{0, 6}).size(), 3u);
  EXPECT_EQ(sw::calmant::decomposition(1, Task{0, 6})[2], (Task{4, 2}));
}

/// Every full task on the cube: the checker passes it, every message is delivered, and it takes
/// the steps of section 3.3 / 4.3 (line: LB; mesh: the subtasks' LB plus r), never fewer than LB.
void expect_every_task_conflict_free(std::uint32_t d, std::uint32_t c) {
  const CubeOnMesh cube(d, c);
  const sw::Topology mesh = cube.mesh();
  for (std::uint32_t i = 0; i < d; ++i) {
    for (std::uint32_t m = 1; i + m <= d; ++m) {
      const Task t{i, m};
      const sw::calmant::TaskSchedule ts = sw::calmant::task_schedule(cube, t);
      const sw::ScheduleCheck check = sw::check_schedule(mesh, ts.schedule);
      ASSERT_TRUE(check.ok()) << "d=" << d << " c=" << c << " <" << i << "," << m
                              << ">: " << check.violations.front().what;
      EXPECT_EQ(check.blocks_delivered, std::uint64_t{cube.nodes()} * m);
      for (const sw::StepFigures& f : check.steps) {
        EXPECT_EQ(f.max_link_load, 1u);
      }
      EXPECT_GE(ts.steps(), lb(c, i, m));
      std::uint64_t sum = 0;  // of the steps each subtask's rule spans
      for (const auto& plan : ts.subtasks) {
        const std::uint64_t sub = lb(c, plan.task.first, plan.task.count);
        const std::uint32_t x = plan.task.count;
        if (c > 1 && x > c && x < 2 * c) {
          EXPECT_EQ(plan.printed_steps, 2 * ((sub + 1) / 2));  // 4.2.3: ceil(LB/2) pairs
          EXPECT_LE(plan.steps, plan.printed_conflict_free ? plan.printed_steps : 2 * sub);
        } else {
          EXPECT_TRUE(plan.printed_conflict_free);
          EXPECT_EQ(plan.steps, sub);  // 3.2.1, 3.2.2, 4.2.1, 4.2.2 are optimal
        }
        sum += plan.printed_steps;
      }
      if (c == 1) {
        EXPECT_EQ(ts.steps(), lb(1, i, m)) << "<" << i << "," << m << ">_1";
      }
      // 4.3: the subtasks' LB, plus r = 1 when the 4.2.3 remainder has an odd LB.
      const std::uint32_t x = m % (2 * c);
      const bool odd = c > 1 && x > c && x < 2 * c && lb(c, i, x) % 2 == 1;
      std::uint64_t lbs = 0;
      for (const Task& s : sw::calmant::decomposition(c, t)) {
        lbs += lb(c, s.first, s.count);
      }
      EXPECT_EQ(sw::calmant::steps_formula(c, t), lbs + (odd ? 1 : 0));
      EXPECT_EQ(sum, lbs + (odd ? 1 : 0)) << "<" << i << "," << m << ">_" << c;
      if (std::all_of(ts.subtasks.begin(), ts.subtasks.end(),
                      [](const auto& p) { return p.printed_conflict_free; })) {
        EXPECT_LE(ts.steps(), sum);
      }
    }
  }
}

TEST(CalmantSchedule, EveryTaskOnLinesIsConflictFreeInLbSteps) {
  for (std::uint32_t d : {3u, 5u, 7u}) {
    expect_every_task_conflict_free(d, 1);
  }
}

TEST(CalmantSchedule, EveryTaskOn2DMeshesIsConflictFreeInSection43Steps) {
  for (std::uint32_t d : {4u, 6u, 8u}) {
    expect_every_task_conflict_free(d, 2);
  }
}

TEST(CalmantSchedule, EveryTaskOn3DMeshesIsConflictFreeInSection43Steps) {
  for (std::uint32_t d : {6u, 9u}) {
    expect_every_task_conflict_free(d, 3);
  }
}

TEST(CalmantSchedule, LineSubtasksTakeSection32sSteps) {
  const CubeOnMesh line(8, 1);
  for (std::uint32_t i = 0; i + 2 <= 8; ++i) {
    // 3.2.1: P<i,2>_1 = 2^(i+1); 3.2.2 (groups m mod 2^i): P<i,1>_1 = 2^i.
    EXPECT_EQ(sw::calmant::printed_subtask_schedule(line, Task{i, 2}).steps.size(), 2u << i);
    EXPECT_EQ(sw::calmant::printed_subtask_schedule(line, Task{i, 1}).steps.size(), 1u << i);
  }
}

// Section 3.2.1 and Fig. 3, as the prose says: node m of group g(m) = m mod 2^i communicates in
// steps 2 g(m) and 2 g(m) + 1; in the first, the nodes whose bits i and i+1 are equal send along
// dimension i+1 (and receive along i), the others send along i. Fig. 4 is <1,2>_1 on 16 nodes.
TEST(CalmantSchedule, Fig3SendsAlongIPlusOneFirstWhereBitsIAndIPlusOneAreEqual) {
  for (const auto& [d, i] :
       std::vector<std::pair<std::uint32_t, std::uint32_t>>{{4, 1}, {4, 0}, {4, 2}, {6, 3}}) {
    const CubeOnMesh line(d, 1);
    const sw::Schedule s = sw::calmant::printed_subtask_schedule(line, Task{i, 2});
    ASSERT_EQ(s.steps.size(), 2u << i);
    std::uint32_t messages = 0;
    for (std::uint32_t step = 0; step < s.steps.size(); ++step) {
      for (const sw::ScheduledMessage& msg : s.steps[step].messages) {
        const std::uint32_t m = line.process_of(msg.source);
        const std::uint32_t g = m & ((1u << i) - 1u);
        const bool equal = ((m >> i) & 1u) == ((m >> (i + 1)) & 1u);
        const std::uint32_t first = equal ? i + 1 : i;
        const std::uint32_t along = first == i ? i + 1 : i;
        const std::uint32_t dimension = step == 2 * g ? first : along;
        EXPECT_TRUE(step == 2 * g || step == 2 * g + 1) << "node " << m << " step " << step;
        EXPECT_EQ(line.process_of(msg.destination), m ^ (1u << dimension))
            << "d=" << d << " <" << i << ",2>_1 node " << m << " step " << step;
        ++messages;
      }
    }
    EXPECT_EQ(messages, 2u << d);
  }
}

// Section 4.2.2 as printed, for a subtask <i,x>_c with x <= c: node m sends along dimension k
// (k = i .. i+x-1) in step (sum of its groups + k) mod LB, its group on the axis of dimension k
// being its coordinate there mod 2^(k div c) (dimension k lies on axis k mod c at level k div c of
// the standard embedding, so the coordinate is read from the bits k mod c + l c of m). The
// steps are compared as sets of (node, dimension), the rule's empty steps left out.
TEST(CalmantSchedule, Section422SendsAlongKInStepSumOfGroupsPlusKModLb) {
  for (const auto& [d, c] : std::vector<std::pair<std::uint32_t, std::uint32_t>>{{6, 2}, {6, 3}}) {
    const CubeOnMesh cube(d, c);
    const auto coordinate = [&](std::uint32_t m, std::uint32_t axis) {
      std::uint32_t x = 0;
      for (std::uint32_t l = 0; l < d / c; ++l) {
        x |= ((m >> (axis + l * c)) & 1u) << l;
      }
      return x;
    };
    for (std::uint32_t x = 1; x <= c; ++x) {
      for (std::uint32_t i = 0; i + x <= d; ++i) {
        const std::uint64_t steps = lb(c, i, x);
        std::vector<std::set<std::pair<std::uint32_t, std::uint32_t>>> expected(steps);
        for (std::uint32_t m = 0; m < cube.nodes(); ++m) {
          std::uint64_t sum = 0;
          for (std::uint32_t k = i; k < i + x; ++k) {
            sum += coordinate(m, k % c) & ((1u << (k / c)) - 1u);
          }
          for (std::uint32_t k = i; k < i + x; ++k) {
            expected[(sum + k) % steps].insert({m, k});
          }
        }
        expected.erase(std::remove_if(expected.begin(), expected.end(),
                                      [](const auto& step) { return step.empty(); }),
                       expected.end());
        const sw::Schedule s = sw::calmant::printed_subtask_schedule(cube, Task{i, x});
        std::vector<std::set<std::pair<std::uint32_t, std::uint32_t>>> actual;
        for (const sw::ScheduleStep& step : s.steps) {
          actual.emplace_back();
          for (const sw::ScheduledMessage& msg : step.messages) {
            const std::uint32_t m = cube.process_of(msg.source);
            const std::uint32_t flipped = m ^ cube.process_of(msg.destination);
            std::uint32_t k = 0;
            while ((1u << k) < flipped) {
              ++k;
            }
            actual.back().insert({m, k});
          }
        }
        EXPECT_EQ(actual, expected) << "d=" << d << " <" << i << "," << x << ">_" << c;
      }
    }
  }
}

// Section 4.2.3 when x and LB are odd (<0,3>_2, <0,5>_3): a dimension k+c with k < 0 is alone on
// its axis at line level 0 (distance 1), where the paper says only "using the approach proposed
// for lines". As 3.2.2 does for <0,1>_1 (one group), every node of the axis exchanges in one step,
// the first of its pair; the pair's second step stays empty and is left out, so the subtask takes
// LB steps, one fewer than Property 3's 2 ceil(LB/2) (and section 4.3's formula with r = 1).
TEST(CalmantSchedule, Section423sLoneLevelZeroDimensionTakesOneStepAndTheEmptyStepIsLeftOut) {
  for (const auto& [d, c, x] : std::vector<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>>{
           {4, 2, 3}, {8, 2, 3}, {6, 3, 5}, {9, 3, 5}}) {
    const CubeOnMesh cube(d, c);
    const Task t{0, x};
    ASSERT_EQ(sw::calmant::rule_of(c, t), sw::calmant::Rule::MeshBetween);
    ASSERT_EQ(lb(c, 0, x), x);  // lambda_max (Theorem 3) is 2 < x: LB = x, odd
    const sw::Schedule s = sw::calmant::printed_subtask_schedule(cube, t);
    const sw::ScheduleCheck check = sw::check_schedule(cube.mesh(), s);
    EXPECT_TRUE(check.ok()) << "d=" << d << " c=" << c;
    EXPECT_EQ(check.blocks_delivered, std::uint64_t{cube.nodes()} * x);
    EXPECT_EQ(s.steps.size(), x) << "d=" << d << " c=" << c;  // not 2 ceil(LB/2) = x + 1
    // The lone dimensions k + c, k = x - 2c .. -1: every node sends along each in one step.
    for (std::uint32_t dim = x - c; dim < c; ++dim) {
      std::set<std::size_t> steps;
      std::uint32_t senders = 0;
      for (std::size_t k = 0; k < s.steps.size(); ++k) {
        for (const sw::ScheduledMessage& m : s.steps[k].messages) {
          if ((cube.process_of(m.source) ^ cube.process_of(m.destination)) == (1u << dim)) {
            steps.insert(k);
            ++senders;
          }
        }
      }
      EXPECT_EQ(steps.size(), 1u) << "d=" << d << " c=" << c << " dimension " << dim;
      EXPECT_EQ(senders, cube.nodes());
    }
    const sw::calmant::TaskSchedule ts = sw::calmant::task_schedule(cube, t);
    ASSERT_EQ(ts.subtasks.size(), 1u);
    EXPECT_EQ(ts.subtasks[0].printed_steps, x + 1);  // the rule spans ceil(LB/2) pairs
    EXPECT_EQ(ts.steps(), x);
    EXPECT_EQ(sw::calmant::steps_formula(c, t), x + 1);  // section 4.3: LB + r
  }
}

// Section 4.2.3 with c = 3, x = 4: three axes need a pair of steps each, but the rule has only
// ceil(LB/2) = 2 pairs, so one node is asked to send twice in a step. The search reschedules
// every such subtask on 4x4x4 and 8x8x8 in LB = 4 steps (first fit alone took 5 or 6 for
// <i,4>_3, i >= 2).
TEST(CalmantSchedule, PrintedRuleOf423FailsForCEquals3XEquals4AndTheSearchRepairsItInLbSteps) {
  const CubeOnMesh cube(6, 3);
  const sw::Topology mesh = cube.mesh();
  const Task t{0, 4};
  EXPECT_EQ(sw::calmant::rule_of(3, t), sw::calmant::Rule::MeshBetween);
  EXPECT_EQ(lb(3, 0, 4), 4u);
  const sw::Schedule printed = sw::calmant::printed_subtask_schedule(cube, t);
  const sw::ScheduleCheck check = sw::check_schedule(mesh, printed);
  EXPECT_FALSE(check.ok());
  EXPECT_TRUE(check.has(sw::ViolationKind::SendsTwice));

  for (const auto& [d, i] : std::vector<std::pair<std::uint32_t, std::uint32_t>>{
           {6, 0}, {6, 1}, {6, 2}, {9, 0}, {9, 1}, {9, 2}, {9, 3}, {9, 4}, {9, 5}}) {
    const CubeOnMesh c3(d, 3);
    const sw::calmant::TaskSchedule ts = sw::calmant::task_schedule(c3, Task{i, 4});
    ASSERT_EQ(ts.subtasks.size(), 1u);
    const sw::calmant::SubtaskPlan& plan = ts.subtasks[0];
    EXPECT_FALSE(plan.printed_conflict_free);
    EXPECT_EQ(plan.printed_steps, 4u);  // 2 ceil(LB/2)
    EXPECT_EQ(plan.lower_bound, lb(3, i, 4));
    EXPECT_EQ(plan.lower_bound, 4u);
    const sw::ScheduleCheck repaired = sw::check_schedule(c3.mesh(), ts.schedule);
    EXPECT_TRUE(repaired.ok()) << "d=" << d << " <" << i << ",4>_3";
    EXPECT_EQ(repaired.blocks_delivered, std::uint64_t{c3.nodes()} * 4);
    EXPECT_EQ(plan.repair, sw::calmant::Repair::Search) << "d=" << d << " <" << i << ",4>_3";
    EXPECT_EQ(ts.steps(), 4u) << "d=" << d << " <" << i << ",4>_3";
  }

  // c = 2 never needs the repair.
  const CubeOnMesh square(8, 2);
  for (std::uint32_t i = 0; i + 3 <= 8; ++i) {
    EXPECT_TRUE(
        sw::check_schedule(square.mesh(), sw::calmant::printed_subtask_schedule(square, {i, 3}))
            .ok());
  }
}

// fit_in_steps against the conflicts worked out by hand on a line of 4 (routes 0 -> 2 and
// 1 -> 3 share the link 1 -> 2; 0 -> 2 and 3 -> 2 share the receiver 2; 1 -> 3 and 3 -> 2 share
// nothing): two steps suffice, one does not; three messages that pairwise conflict need three,
// and without a move the search keeps its clashing start.
TEST(CalmantSchedule, FitInStepsFindsAConflictFreeScheduleWhereOneExists) {
  const sw::Topology line = sw::Topology::mesh({4});
  sw::Schedule s{"t", 4, {{0, 2, 0}, {1, 3, 0}, {3, 2, 0}}, {}};
  s.steps.push_back({"", {}, {{0, 2, {{0, 2, 0}}}, {1, 3, {{1, 3, 0}}}, {3, 2, {{3, 2, 0}}}}});
  const std::optional<sw::Schedule> two = sw::calmant::fit_in_steps(line, s, 2, 100);
  ASSERT_TRUE(two.has_value());
  EXPECT_EQ(two->steps.size(), 2u);
  EXPECT_TRUE(sw::check_schedule(line, *two).ok());
  EXPECT_FALSE(sw::calmant::fit_in_steps(line, s, 1, 100).has_value());
  // 0 -> 3, 1 -> 3 and 2 -> 3 share the receiver 3 (and the link 2 -> 3): three steps.
  sw::Schedule t{"u", 4, {{0, 3, 0}, {1, 3, 0}, {2, 3, 0}}, {}};
  t.steps.push_back({"", {}, {{0, 3, {{0, 3, 0}}}, {1, 3, {{1, 3, 0}}}, {2, 3, {{2, 3, 0}}}}});
  EXPECT_FALSE(sw::calmant::fit_in_steps(line, t, 2, 1000).has_value());
  const std::optional<sw::Schedule> three = sw::calmant::fit_in_steps(line, t, 3, 1000);
  ASSERT_TRUE(three.has_value());
  EXPECT_EQ(three->steps.size(), 3u);
  EXPECT_TRUE(sw::check_schedule(line, *three).ok());
  EXPECT_FALSE(sw::calmant::fit_in_steps(line, t, 3, 0).has_value());
}

TEST(CalmantSchedule, FirstFitKeepsEveryMessageAndPacksThemWithoutConflict) {
  // Line of 4: 0 -> 2 and 1 -> 3 share link 1 -> 2; 3 -> 2 is free. First fit: two steps.
  sw::Schedule s{"t", 4, {{0, 2, 0}, {1, 3, 0}, {3, 2, 0}}, {}};
  s.steps.push_back({"", {}, {{0, 2, {{0, 2, 0}}}, {1, 3, {{1, 3, 0}}}, {3, 2, {{3, 2, 0}}}}});
  const sw::Schedule packed = sw::calmant::first_fit(sw::Topology::mesh({4}), s);
  ASSERT_EQ(packed.steps.size(), 2u);
  EXPECT_EQ(packed.steps[0].messages.size(), 1u);  // 3 -> 2 would receive with 0 -> 2
  EXPECT_EQ(packed.steps[1].messages.size(), 2u);
  EXPECT_TRUE(sw::check_schedule(sw::Topology::mesh({4}), packed).ok());
  // 1 -> 0 and 1 -> 2 share only the sender (one-port: two steps); 3 -> 1 and 2 -> 0 share
  // only the link 2 -> 1, the negative way (two steps).
  for (const auto& [a, b] :
       std::vector<std::pair<std::pair<sw::NodeId, sw::NodeId>, std::pair<sw::NodeId, sw::NodeId>>>{
           {{1, 0}, {1, 2}}, {{3, 1}, {2, 0}}}) {
    sw::Schedule t{"v", 4, {{a.first, a.second, 0}, {b.first, b.second, 0}}, {}};
    t.steps.push_back({"",
                       {},
                       {{a.first, a.second, {{a.first, a.second, 0}}},
                        {b.first, b.second, {{b.first, b.second, 0}}}}});
    const sw::Schedule apart = sw::calmant::first_fit(sw::Topology::mesh({4}), t);
    EXPECT_EQ(apart.steps.size(), 2u)
        << a.first << "->" << a.second << ", " << b.first << "->" << b.second;
    EXPECT_TRUE(sw::check_schedule(sw::Topology::mesh({4}), apart).ok());
  }
}

// Section 2.4: shallow and deep pipelining.
TEST(CalmantPipeline, IterationsFollowSection24sPrologueKernelEpilogue) {
  const auto expect = [](std::uint32_t d, std::uint32_t q) {
    std::vector<sw::calmant::Iteration> want;
    using sw::calmant::Phase;
    if (q < d) {
      for (std::uint32_t k = 1; k <= q - 1; ++k) want.push_back({Phase::Prologue, {0, k}});
      for (std::uint32_t k = 1; k <= d - q + 1; ++k) want.push_back({Phase::Kernel, {k - 1, q}});
      for (std::uint32_t k = 1; k <= q - 1; ++k) {
        want.push_back({Phase::Epilogue, {d - q + k, q - k}});
      }
    } else {
      for (std::uint32_t k = 1; k <= d - 1; ++k) want.push_back({Phase::Prologue, {0, k}});
      for (std::uint32_t k = 1; k <= q - d + 1; ++k) want.push_back({Phase::Kernel, {0, d}});
      for (std::uint32_t k = 1; k <= d - 1; ++k) want.push_back({Phase::Epilogue, {k, d - k}});
    }
    const std::vector<sw::calmant::Iteration> got = sw::calmant::pipeline_iterations(d, q);
    ASSERT_EQ(got.size(), want.size()) << d << " " << q;
    EXPECT_EQ(got.size(), d + q - 1);
    for (std::size_t t = 0; t < got.size(); ++t) {
      EXPECT_EQ(got[t].task, want[t].task) << "d=" << d << " Q=" << q << " t=" << t;
      EXPECT_EQ(got[t].phase, want[t].phase) << "d=" << d << " Q=" << q << " t=" << t;
    }
  };
  for (std::uint32_t d = 1; d <= 6; ++d) {
    for (std::uint32_t q = 1; q <= 9; ++q) {
      expect(d, q);
    }
  }
}

// Appendix A.3: on a line the closed forms count sum LB over the iterations (= sum P, section
// 3.3); on a mesh they count sum lambda_max, below sum LB where the one-port bound M dominates.
TEST(CalmantPipeline, AppendixA3ClosedFormsAgainstTheSumsOverTheIterations) {
  for (std::uint32_t d = 2; d <= 10; ++d) {
    for (std::uint32_t q = 1; q <= 14; ++q) {
      std::uint64_t sum = 0;
      for (const auto& it : sw::calmant::pipeline_iterations(d, q)) {
        sum += lb(1, it.task.first, it.task.count);
      }
      EXPECT_EQ(sw::calmant::appendix_steps_times_18(1, d, q), 18 * sum) << d << " " << q;
    }
  }
  bool below = false;
  for (std::uint32_t c = 2; c <= 3; ++c) {
    for (std::uint32_t d = 2 * c; d <= 12; d += c) {
      for (std::uint32_t q = 1; q <= 16; ++q) {
        std::uint64_t lambdas = 0;
        std::uint64_t bounds = 0;
        for (const auto& it : sw::calmant::pipeline_iterations(d, q)) {
          lambdas += theorem3(c, it.task.first, it.task.count);
          bounds += lb(c, it.task.first, it.task.count);
        }
        EXPECT_EQ(sw::calmant::appendix_steps_times_18(c, d, q), 18 * lambdas)
            << c << " " << d << " " << q;
        below = below || lambdas < bounds;
      }
    }
  }
  EXPECT_TRUE(below);
}

TEST(CalmantPipeline, ScheduleOfAPipelineDeliversEveryPacketConflictFree) {
  for (const auto& [d, c, q] : std::vector<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>>{
           {4, 2, 2}, {4, 2, 6}, {6, 3, 4}, {4, 1, 3}}) {
    const CubeOnMesh cube(d, c);
    sw::calmant::PipelineProgram p;
    p.n_words = 12;
    p.q = q;
    p.compute_cycles = 5;
    p.barrier_cycles = 7;
    const sw::calmant::PipelineSchedule ps = sw::calmant::pipeline_schedule(cube, p);
    const sw::ScheduleCheck check = sw::check_schedule(cube.mesh(), ps.schedule);
    EXPECT_TRUE(check.ok()) << check.violations.front().what;
    // Every node sends each of its d vectors as Q packets.
    EXPECT_EQ(check.blocks_delivered, std::uint64_t{cube.nodes()} * d * q);
    std::uint64_t steps = 0;
    for (std::size_t t = 0; t < ps.iterations.size(); ++t) {
      EXPECT_EQ(ps.iteration_steps[t],
                sw::calmant::task_schedule(cube, ps.iterations[t].task).steps());
      steps += ps.iteration_steps[t];
    }
    EXPECT_EQ(ps.schedule.steps.size(), steps + ps.iterations.size());  // one barrier each

    p.scheduling = sw::calmant::Scheduling::Naive;
    const sw::calmant::PipelineSchedule naive = sw::calmant::pipeline_schedule(cube, p);
    const sw::ScheduleCheck loose = sw::check_schedule(cube.mesh(), naive.schedule, {false, false});
    EXPECT_TRUE(loose.ok());
    EXPECT_EQ(naive.schedule.steps.size(), 2 * ps.iterations.size());
  }
  EXPECT_THROW((void)sw::calmant::pipeline_schedule(CubeOnMesh(4, 2), {10, 3, 0, 0, {}}),
               std::invalid_argument);
}

// Each iteration: every node computes before it sends (in the iteration's first step only),
// then the barrier step, however short (one cycle).
TEST(CalmantPipeline, EachIterationComputesInItsFirstStepAndEndsWithItsBarrier) {
  const CubeOnMesh cube(4, 2);
  sw::calmant::PipelineProgram p;
  p.n_words = 4;
  p.q = 2;
  p.compute_cycles = 3;
  p.barrier_cycles = 1;
  const sw::calmant::PipelineSchedule ps = sw::calmant::pipeline_schedule(cube, p);
  const auto every_node_for = [&](const sw::ScheduleStep& step, std::uint64_t cycles) {
    std::set<sw::NodeId> nodes;
    for (const sw::LocalWork& w : step.local) {
      EXPECT_EQ(w.compute, sw::Cycle{cycles});
      nodes.insert(w.node);
    }
    return nodes.size() == cube.nodes() && step.local.size() == cube.nodes();
  };
  std::size_t k = 0;
  bool several = false;
  for (std::size_t t = 0; t < ps.iterations.size(); ++t) {
    several = several || ps.iteration_steps[t] > 1;
    for (std::uint32_t j = 0; j < ps.iteration_steps[t]; ++j, ++k) {
      ASSERT_LT(k, ps.schedule.steps.size());
      const sw::ScheduleStep& step = ps.schedule.steps[k];
      EXPECT_FALSE(step.messages.empty());
      if (j == 0) {
        EXPECT_TRUE(every_node_for(step, 3)) << "iteration " << t;
      } else {
        EXPECT_TRUE(step.local.empty()) << "iteration " << t << " step " << j;
      }
    }
    ASSERT_LT(k, ps.schedule.steps.size());
    EXPECT_TRUE(ps.schedule.steps[k].messages.empty());
    EXPECT_TRUE(every_node_for(ps.schedule.steps[k], 1)) << "barrier " << t;
    ++k;
  }
  EXPECT_EQ(k, ps.schedule.steps.size());
  EXPECT_TRUE(several);
}

TEST(CalmantPipeline, CostIsStepsTimesBetaPlusLTauPlusBarriers) {
  // Two iterations of 3 and 5 steps, N = 8, Q = 2: (3 + 5)(10 + 4 x 2) + 2 x 7.
  EXPECT_DOUBLE_EQ(sw::calmant::pipeline_cost({3, 5}, 8, 2, {10, 2, 7}), 8 * 18 + 14);
}

}  // namespace
}  // namespace orthosim

namespace orthosim {
namespace {

// [CALMANT] section 5.1 and Fig. 8, run literally here on each node's vector M of blocks.
TEST(CalmantCompleteExchange, TheCcCubeSendsWhatFig8sVectorsHoldAndEveryBlockEndsAtItsPlace) {
  for (std::uint32_t d = 1; d <= 5; ++d) {
    const std::uint32_t n = 1u << d;
    // M[node][position] = (origin, destination); initially (node, j) at j, then the xor.
    std::vector<std::vector<sw::Block>> m(n, std::vector<sw::Block>(n));
    for (std::uint32_t node = 0; node < n; ++node) {
      for (std::uint32_t j = 0; j < n; ++j) {
        m[node][node ^ j] = sw::Block{node, j, 0};
      }
    }
    const sw::Schedule s = sw::calmant::cc_cube_complete_exchange(d);
    ASSERT_EQ(s.steps.size(), d);
    for (std::uint32_t i = 0; i < d; ++i) {
      std::vector<std::vector<sw::Block>> next = m;
      ASSERT_EQ(s.steps[i].messages.size(), n);
      for (const sw::ScheduledMessage& msg : s.steps[i].messages) {
        EXPECT_EQ(msg.destination, msg.source ^ (1u << i));
        std::vector<sw::Block> selected;  // positions with bit i set, in reverse order
        for (std::uint32_t j = n; j-- > 0;) {
          if ((j >> i) & 1u) {
            selected.push_back(m[msg.source][j]);
            next[msg.destination][j] = m[msg.source][j];  // stored where the sent ones were
          }
        }
        EXPECT_EQ(msg.blocks, selected) << "d=" << d << " i=" << i << " node " << msg.source;
      }
      m = next;
    }
    // The final permutation (the same xor) puts block (origin, j) at node j in position j.
    for (std::uint32_t node = 0; node < n; ++node) {
      for (std::uint32_t p = 0; p < n; ++p) {
        const sw::Block& b = m[node][p];
        EXPECT_EQ(b.destination, node);
        EXPECT_EQ(node ^ p, b.origin);  // M[p] after the permutation is M[node xor p] before
      }
    }
    const sw::ScheduleCheck check = sw::check_schedule(sw::Topology::hypercube(d), s);
    EXPECT_TRUE(check.ok());
    EXPECT_EQ(check.blocks_delivered, std::uint64_t{n} * (n - 1));
  }
  // Fig. 8 (d = 3) in the text: x0 of node 0 holds 07, 05, 03, 01 in this order.
  EXPECT_EQ(sw::calmant::cc_cube_complete_exchange(3).steps[0].messages[0].blocks,
            (std::vector<sw::Block>{{0, 7, 0}, {0, 5, 0}, {0, 3, 0}, {0, 1, 0}}));
}

TEST(CalmantCompleteExchange, PipelinedOnTheMeshEveryPacketIsHeldWhenSentAndNoStepConflicts) {
  for (const auto& [d, c] :
       std::vector<std::pair<std::uint32_t, std::uint32_t>>{{4, 2}, {6, 2}, {6, 3}, {4, 1}}) {
    const CubeOnMesh cube(d, c);
    for (std::uint32_t q = 1; q <= (1u << (d - 1)); q *= 2) {
      const sw::Schedule s = sw::calmant::calmant_complete_exchange(cube, q);
      const sw::ScheduleCheck check = sw::check_schedule(cube.mesh(), s);
      // BlockNotHeld would say a packet left before its blocks arrived: the pipelining
      // requirement of section 5.1 holds.
      ASSERT_TRUE(check.ok()) << "d=" << d << " c=" << c << " Q=" << q << ": "
                              << check.violations.front().what;
      EXPECT_EQ(check.blocks_delivered, std::uint64_t{cube.nodes()} * (cube.nodes() - 1));
      std::uint64_t steps = 0;
      for (const auto& it : sw::calmant::pipeline_iterations(d, q)) {
        steps += sw::calmant::task_schedule(cube, it.task).steps();
      }
      EXPECT_EQ(s.steps.size(), steps);
      for (const sw::StepFigures& f : check.steps) {
        EXPECT_EQ(f.largest_message_blocks, (1u << (d - 1)) / q);
      }
    }
    if (d == 4 && c == 2) {
      // Q = 1: the original CC-cube, dimension i in 2^(i div c) steps (section 2.3's D_i).
      EXPECT_EQ(sw::calmant::calmant_complete_exchange(cube, 1).steps.size(), 1u + 1 + 2 + 2);
    }
  }
  EXPECT_THROW((void)sw::calmant::calmant_complete_exchange(CubeOnMesh(4, 2), 3),
               std::invalid_argument);
}

TEST(CalmantCompleteExchange, TheDirectMethodSendsEveryBlockStraightInXorRounds) {
  const CubeOnMesh cube(4, 2);
  const sw::Schedule s = sw::calmant::direct_complete_exchange(cube);
  EXPECT_EQ(s.steps.size(), 15u);
  const sw::ScheduleCheck check = sw::check_schedule(cube.mesh(), s, {true, false});
  EXPECT_TRUE(check.ok());
  EXPECT_EQ(check.blocks_delivered, 16u * 15u);
  EXPECT_EQ(check.blocks_sent, 16u * 15u);  // each block one message
  // Round r: process n (at mesh node node_of(n)) sends its block for process n xor r.
  for (std::uint32_t r = 1; r < 16; ++r) {
    ASSERT_EQ(s.steps[r - 1].messages.size(), 16u);
    for (const sw::ScheduledMessage& m : s.steps[r - 1].messages) {
      const std::uint32_t n = cube.process_of(m.source);
      EXPECT_EQ(m.destination, cube.node_of(n ^ r)) << "round " << r << " process " << n;
      EXPECT_EQ(m.blocks, (std::vector<sw::Block>{{m.source, m.destination, 0}}));
    }
  }
  // Its rounds share links: round 3 sends along x both 1 and 2 columns at once.
  EXPECT_FALSE(sw::check_schedule(cube.mesh(), s).ok());
}

}  // namespace
}  // namespace orthosim
