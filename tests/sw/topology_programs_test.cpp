// The programs of [PH91] section 5's multicomputers (sw/pattern/topology_programs.hpp): hypercube
// dimension exchanges (section 5.1), the CC d-cube of [XOR] section II.A and torus shifts
// (section 5.3, Fig. 11(b)). Every destination is recomputed here from the node's coordinates
// (its bits on the cube, (x, y) on the torus), never read back from the generator.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "sw/core/diagnostic.hpp"
#include "sw/pattern/topology_programs.hpp"
#include "sw/program/format.hpp"

namespace orthosim {
namespace {

using sw::McProgram;
using sw::NodeId;
using sw::ShiftDirection;

/// The option a ParameterError names, or "" when `make` throws nothing.
template <typename Make>
std::string refused_option(Make make) {
  try {
    (void)make();
  } catch (const sw::ParameterError& e) {
    return e.parameter();
  }
  return "";
}

/// The nodes whose number differs from `node` in exactly one bit, that bit one of `bits`.
std::set<NodeId> neighbours_across(NodeId node, NodeId nodes,
                                   const std::vector<std::uint32_t>& bits) {
  std::set<NodeId> out;
  for (NodeId other = 0; other < nodes; ++other) {
    for (std::uint32_t k : bits) {
      if ((node ^ other) == (1u << k)) {
        out.insert(other);
      }
    }
  }
  return out;
}

// Section 5.1: each node exchanges with its neighbour across every listed dimension, one step per
// dimension in the listed order, or all of them in one step with `together` (Fig. 9).
TEST(HypercubeExchange, EveryNodeSendsToItsNeighbourAcrossEachListedDimension) {
  for (const NodeId nodes : {2u, 8u, 16u}) {
    std::uint32_t p = 0;
    while ((NodeId{1} << p) != nodes) {
      ++p;
    }
    const std::vector<std::uint32_t> dims =
        p == 1 ? std::vector<std::uint32_t>{0} : std::vector<std::uint32_t>{p - 1, 0};
    for (const bool together : {false, true}) {
      const McProgram prog = sw::hypercube_exchange(nodes, dims, 3, together);
      const std::string what = std::to_string(nodes) + (together ? " together" : " apart");
      EXPECT_EQ(prog.nodes, nodes) << what;
      ASSERT_EQ(prog.steps.size(), together ? 1u : dims.size()) << what;
      for (std::size_t s = 0; s < prog.steps.size(); ++s) {
        const std::vector<std::uint32_t> bits =
            together ? dims : std::vector<std::uint32_t>{dims[s]};
        ASSERT_EQ(prog.steps[s].transfers.size(), nodes) << what;
        std::set<NodeId> sources;
        for (const sw::Transfer& t : prog.steps[s].transfers) {
          sources.insert(t.source);
          EXPECT_EQ(t.words, 3u) << what;
          EXPECT_FALSE(t.broadcast) << what;
          EXPECT_EQ(t.destinations.size(), bits.size()) << what;
          EXPECT_EQ(std::set<NodeId>(t.destinations.begin(), t.destinations.end()),
                    neighbours_across(t.source, nodes, bits))
              << what << " node " << t.source;
        }
        EXPECT_EQ(sources.size(), nodes) << what;
      }
    }
  }
}

TEST(HypercubeExchange, RefusesWhatIsNotACubeOrNotItsDimensions) {
  const auto exchange = [](NodeId nodes, std::vector<std::uint32_t> dims, std::uint32_t words) {
    return [=] { return sw::hypercube_exchange(nodes, dims, words, false); };
  };
  EXPECT_EQ(refused_option(exchange(2, {0}, 1)), "");
  EXPECT_EQ(refused_option(exchange(1, {0}, 1)), "nodes");  // 2^0: no dimension to exchange on
  EXPECT_EQ(refused_option(exchange(0, {0}, 1)), "nodes");
  EXPECT_EQ(refused_option(exchange(12, {0}, 1)), "nodes");
  EXPECT_EQ(refused_option(exchange(8, {}, 1)), "dims");
  EXPECT_EQ(refused_option(exchange(8, {2}, 1)), "");
  EXPECT_EQ(refused_option(exchange(8, {3}, 1)), "dims");  // 8 = 2^3: dimensions 0..2
  EXPECT_EQ(refused_option(exchange(8, {1, 0, 1}, 1)), "dims");
  EXPECT_EQ(refused_option(exchange(8, {1}, 0)), "len");
}

// [XOR] section II.A: stage s computes, then exchanges across dims[s]; the stages are numbered
// from 0 in the order given.
TEST(CcCube, EachStageComputesThenExchangesAcrossItsDimension) {
  const std::vector<std::uint32_t> dims = {2, 0, 1};
  const McProgram prog = sw::cc_cube(3, dims, 2, sw::Cycle{5});
  EXPECT_EQ(prog.nodes, 8u);
  ASSERT_EQ(prog.steps.size(), dims.size());
  for (std::size_t s = 0; s < dims.size(); ++s) {
    const sw::ProgramStep& step = prog.steps[s];
    EXPECT_EQ(step.label, "stage" + std::to_string(s));
    ASSERT_EQ(step.computes.size(), 8u);
    std::set<NodeId> computing;
    for (const sw::ComputePhase& c : step.computes) {
      computing.insert(c.node);
      EXPECT_EQ(c.cycles, sw::Cycle{5});
    }
    EXPECT_EQ(computing.size(), 8u);
    ASSERT_EQ(step.transfers.size(), 8u);
    for (const sw::Transfer& t : step.transfers) {
      ASSERT_EQ(t.destinations.size(), 1u);
      EXPECT_EQ(t.destinations[0], t.source ^ (1u << dims[s])) << "stage " << s;
      EXPECT_EQ(t.words, 2u);
    }
  }
  EXPECT_TRUE(sw::cc_cube(3, dims, 2, sw::Cycle{0}).steps[0].computes.empty());
}

TEST(CcCube, TakesTheCubeDimensionsOneToSixteen) {
  const auto cube = [](std::uint32_t dim) {
    return [=] { return sw::cc_cube(dim, {0}, 1, sw::Cycle{0}); };
  };
  EXPECT_EQ(refused_option(cube(0)), "dim");
  EXPECT_EQ(refused_option(cube(1)), "");
  EXPECT_EQ(refused_option(cube(16)), "");
  EXPECT_EQ(refused_option(cube(17)), "dim");
}

// The 16-cube's program (embed --compare runs it; it has more nodes than a .mcp file holds, so
// gen refuses to write it) is formatted in time linear in its 1,048,576 sends: the writer once
// listed every node per transfer to ask whether its destinations were `all` (two minutes of CPU).
// Each step's first send is from node 0 across the step's dimension.
TEST(CcCube, TheSixteenCubesProgramIsFormattedInTimeLinearInItsSends) {
  std::vector<std::uint32_t> dims;
  for (std::uint32_t k = 0; k < 16; ++k) {
    dims.push_back(k);
  }
  const std::string text = sw::format_program(sw::cc_cube(16, dims, 1, sw::Cycle{0}));
  EXPECT_NE(text.find("\nnodes 65536\n"), std::string::npos) << text.substr(0, 400);
  std::size_t steps = 0;
  std::size_t sends = 0;
  for (std::size_t at = text.find('\n'); at != std::string::npos; at = text.find('\n', at + 1)) {
    if (text.compare(at + 1, 5, "step ") == 0) {
      const std::size_t first = text.find('\n', at + 1) + 1;
      EXPECT_EQ(text.substr(first, text.find('\n', first) - first),
                "  send 0 -> " + std::to_string(1U << steps));
      ++steps;
    } else if (text.compare(at + 1, 7, "  send ") == 0) {
      ++sends;
    }
  }
  EXPECT_EQ(steps, 16U);
  EXPECT_EQ(sends, 16U * 65536U);
}

/// Where the node (x, y) of a columns x rows torus sends in a shift of `distance` ([PH91] section
/// 5.3: east +x, west -x, north +y, south -y, wrapping around), as a node number x + columns * y.
NodeId shifted(std::uint32_t x, std::uint32_t y, std::uint32_t columns, std::uint32_t rows,
               ShiftDirection direction, std::uint32_t distance) {
  const auto wrap = [](std::int64_t v, std::uint32_t ring) {
    return static_cast<std::uint32_t>(((v % ring) + ring) % ring);
  };
  const std::int64_t d = distance;
  switch (direction) {
    case ShiftDirection::East:
      return wrap(x + d, columns) + columns * y;
    case ShiftDirection::West:
      return wrap(x - d, columns) + columns * y;
    case ShiftDirection::North:
      return x + columns * wrap(y + d, rows);
    case ShiftDirection::South:
      return x + columns * wrap(y - d, rows);
  }
  return 0;
}

// Non-square tori tell columns from rows; distances beyond the ring wrap around.
TEST(TorusShift, EveryNodeSendsToTheNodeTheDistanceAwayInTheDirection) {
  for (const auto& [columns, rows] : {std::pair<std::uint32_t, std::uint32_t>{5, 3}, {3, 5}}) {
    for (const ShiftDirection direction : {ShiftDirection::East, ShiftDirection::West,
                                           ShiftDirection::North, ShiftDirection::South}) {
      const bool horizontal =
          direction == ShiftDirection::East || direction == ShiftDirection::West;
      const std::uint32_t ring = horizontal ? columns : rows;
      for (std::uint32_t distance = 1; distance < 2 * ring; ++distance) {
        if (distance % ring == 0) {
          continue;
        }
        const std::string what = std::to_string(columns) + "x" + std::to_string(rows) + " " +
                                 sw::to_string(direction) + " " + std::to_string(distance);
        const McProgram prog = sw::torus_shift(columns, rows, direction, distance, 4);
        EXPECT_EQ(prog.nodes, columns * rows) << what;
        ASSERT_EQ(prog.steps.size(), 1u) << what;
        ASSERT_EQ(prog.steps[0].transfers.size(), columns * rows) << what;
        std::set<NodeId> sources;
        for (const sw::Transfer& t : prog.steps[0].transfers) {
          sources.insert(t.source);
          ASSERT_EQ(t.destinations.size(), 1u) << what;
          EXPECT_EQ(t.destinations[0], shifted(t.source % columns, t.source / columns, columns,
                                               rows, direction, distance))
              << what << " node " << t.source;
          EXPECT_EQ(t.words, 4u) << what;
        }
        EXPECT_EQ(sources.size(), columns * rows) << what;
      }
    }
  }
}

TEST(TorusShift, RefusesAShiftOfNoDistanceAroundItsRing) {
  const auto shift = [](std::uint32_t columns, std::uint32_t rows, ShiftDirection d,
                        std::uint32_t distance, std::uint32_t words) {
    return [=] { return sw::torus_shift(columns, rows, d, distance, words); };
  };
  // 5 columns, 3 rows: the east ring has 5 nodes, the north ring 3.
  EXPECT_EQ(refused_option(shift(5, 3, ShiftDirection::East, 5, 1)), "distance");
  EXPECT_EQ(refused_option(shift(5, 3, ShiftDirection::East, 3, 1)), "");
  EXPECT_EQ(refused_option(shift(5, 3, ShiftDirection::North, 3, 1)), "distance");
  EXPECT_EQ(refused_option(shift(5, 3, ShiftDirection::South, 6, 1)), "distance");
  EXPECT_EQ(refused_option(shift(5, 3, ShiftDirection::North, 5, 1)), "");
  EXPECT_EQ(refused_option(shift(5, 3, ShiftDirection::West, 0, 1)), "distance");
  EXPECT_EQ(refused_option(shift(5, 3, ShiftDirection::West, 1, 0)), "len");
  // A shift needs two nodes on its own ring: one column shifts north, not east; one row east.
  EXPECT_EQ(refused_option(shift(1, 4, ShiftDirection::North, 1, 1)), "");
  EXPECT_EQ(refused_option(shift(1, 4, ShiftDirection::East, 1, 1)), "torus");
  EXPECT_EQ(refused_option(shift(4, 1, ShiftDirection::South, 1, 1)), "torus");
  EXPECT_EQ(refused_option(shift(2, 1, ShiftDirection::East, 1, 1)), "");
  EXPECT_EQ(refused_option(shift(2, 0, ShiftDirection::East, 1, 1)), "torus");
}

TEST(TorusShift, TheFourDirectionsReadBackFromTheirNames) {
  for (const ShiftDirection d :
       {ShiftDirection::East, ShiftDirection::West, ShiftDirection::North, ShiftDirection::South}) {
    EXPECT_EQ(sw::parse_shift_direction(sw::to_string(d)), d);
  }
  EXPECT_EQ(sw::to_string(ShiftDirection::South), "south");
  EXPECT_EQ(sw::to_string(ShiftDirection::North), "north");
  EXPECT_EQ(sw::to_string(ShiftDirection::East), "east");
  EXPECT_EQ(sw::to_string(ShiftDirection::West), "west");
  EXPECT_EQ(refused_option([] { return sw::parse_shift_direction("up"); }), "direction");
  EXPECT_EQ(refused_option([] { return sw::parse_shift_direction("East"); }), "direction");
}

// A generated program's name is its written file's first line and the run's title: it gives the
// parameters in the order they were asked for, so that the file says how to make it again. A
// torus is columns x rows, as `--torus CxR` reads it; a step is labelled with what it does.
TEST(TopologyPrograms, TheNamesAndLabelsSayWhatWasGenerated) {
  const McProgram together = sw::hypercube_exchange(8, {2, 0}, 1, true);
  EXPECT_EQ(together.name, "exchange x2,x0 m=8 together");
  EXPECT_EQ(together.steps[0].label, "exchange");
  EXPECT_EQ(sw::hypercube_exchange(8, {2, 0}, 1, false).name, "exchange x2,x0 m=8");
  EXPECT_EQ(sw::cc_cube(3, {2, 0, 1}, 2, sw::Cycle{5}).name,
            "cc-cube d=3 dims 2,0,1 len=2 compute=5");
  const McProgram east = sw::torus_shift(5, 3, ShiftDirection::East, 3, 1);
  EXPECT_EQ(east.name, "east 3 on 5x3");
  EXPECT_EQ(east.steps[0].label, "east");
  EXPECT_EQ(sw::torus_shift(5, 3, ShiftDirection::South, 1, 1).steps[0].label, "south");
}

}  // namespace
}  // namespace orthosim
