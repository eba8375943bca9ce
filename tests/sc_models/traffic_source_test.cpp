// The synthetic traffic source without the SystemC kernel: which node creates a packet in which
// cycle, counted by the test against the rate's certain cases (every trial succeeds) and the
// one-round rule.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <optional>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "sc_models/net/traffic_source.hpp"

namespace orthosim {
namespace {

/// Node x sends to `shift(x)`, a fixed permutation or a map with fixed points.
sc::TrafficSpec spec_with(std::uint32_t nodes, std::uint32_t shift) {
  sc::TrafficSpec spec;
  spec.destination = [nodes, shift](std::uint32_t src, std::mt19937_64&) {
    return (src + shift) % nodes;
  };
  spec.fixed_destinations = true;
  return spec;
}

/// The (cycle, src, dst) of every packet created from cycle `first` to `last`.
std::vector<std::vector<std::uint32_t>> created(sc::net::TrafficSource& source, std::uint64_t first,
                                                std::uint64_t last) {
  std::vector<std::vector<std::uint32_t>> out;
  for (std::uint64_t c = first; c <= last; ++c) {
    source.create(sw::Cycle{c}, [&](std::uint32_t src, std::uint32_t dst) {
      out.push_back({static_cast<std::uint32_t>(c), src, dst});
    });
  }
  return out;
}

// rate = flits: every Bernoulli trial succeeds, so each node creates one packet in every cycle of
// [0, warm-up + cycles), cycle 0 of the source (the owner's cycle `start`) included.
TEST(TrafficSource, EveryTrialSucceedsAtRateEqualToFlitsFromTheFirstCycleOn) {
  constexpr std::uint32_t kNodes = 4;
  constexpr std::uint64_t kStart = 100;
  sc::TrafficSpec spec = spec_with(kNodes, 1);
  spec.rate = 5.0;
  spec.flits = 5;
  spec.warmup = 2;
  spec.cycles = 3;
  sc::net::TrafficSource source(spec, kNodes, sw::Cycle{kStart});
  EXPECT_EQ(source.window_start(), sw::Cycle{kStart + 2});
  EXPECT_EQ(source.window_end(), sw::Cycle{kStart + 5});
  EXPECT_EQ(source.next_creation(), std::optional<sw::Cycle>(kStart));
  std::vector<std::vector<std::uint32_t>> expected;
  for (std::uint32_t c = kStart; c < kStart + 5; ++c) {
    for (std::uint32_t node = 0; node < kNodes; ++node) {
      expected.push_back({c, node, (node + 1) % kNodes});
    }
  }
  EXPECT_EQ(created(source, kStart, kStart + 20), expected);
  EXPECT_EQ(source.next_creation(), std::nullopt);
  EXPECT_FALSE(source.measured(sw::Cycle{kStart + 1}));
  EXPECT_TRUE(source.measured(sw::Cycle{kStart + 2}));
  EXPECT_TRUE(source.measured(sw::Cycle{kStart + 4}));
  EXPECT_FALSE(source.measured(sw::Cycle{kStart + 5}));
}

// Bernoulli arrivals at lambda = rate / flits = 1/2 packet per node per cycle: a node creates at
// most one packet in a cycle (a trial per cycle), and over 4 nodes x 20,000 cycles the count of
// successes is binomial, mean 40,000, standard deviation sqrt(80,000 x 1/4) = 141: the bounds are
// five deviations either way. (A gap one cycle short, the geometric gap from 0, would create a
// packet per cycle on average, several in some cycles.)
TEST(TrafficSource, BernoulliArrivalsMakeOneTrialPerNodeAndCycle) {
  constexpr std::uint32_t kNodes = 4;
  constexpr std::uint64_t kCycles = 20'000;
  sc::TrafficSpec spec = spec_with(kNodes, 1);
  spec.rate = 2.0;
  spec.flits = 4;
  spec.warmup = 0;
  spec.cycles = kCycles;
  sc::net::TrafficSource source(spec, kNodes, sw::Cycle{0});
  const std::vector<std::vector<std::uint32_t>> packets = created(source, 0, kCycles);
  std::set<std::pair<std::uint32_t, std::uint32_t>> trials;  // (cycle, node)
  for (const std::vector<std::uint32_t>& p : packets) {
    EXPECT_TRUE(trials.insert({p[0], p[1]}).second)
        << "two packets of node " << p[1] << " in cycle " << p[0];
  }
  const auto made = static_cast<double>(kNodes * kCycles);
  const double expected = made * 0.5;
  const double deviation = std::sqrt(made * 0.25);
  EXPECT_GT(static_cast<double>(packets.size()), expected - 5 * deviation);
  EXPECT_LT(static_cast<double>(packets.size()), expected + 5 * deviation);
}

// One round: every node that the pattern does not map onto itself sends exactly one packet, at
// the source's cycle 0, whatever the rate.
TEST(TrafficSource, OneRoundSendsOnePacketPerNodeNotMappedOntoItself) {
  constexpr std::uint32_t kNodes = 6;
  sc::TrafficSpec spec = spec_with(kNodes, 3);  // x -> x + 3 mod 6: no fixed point
  spec.one_round = true;
  spec.rate = 0.0;
  sc::net::TrafficSource round(spec, kNodes, sw::Cycle{7});
  EXPECT_EQ(created(round, 0, 50).size(), kNodes);
  spec = spec_with(kNodes, 0);  // every node onto itself
  spec.one_round = true;
  sc::net::TrafficSource idle(spec, kNodes, sw::Cycle{7});
  EXPECT_EQ(idle.next_creation(), std::nullopt);
  EXPECT_TRUE(created(idle, 0, 50).empty());
}

// A destination drawn per packet may be the source itself: that packet is dropped and the node
// keeps its trials (TrafficSpec::destination). Every trial succeeds here; the even nodes draw
// themselves every time, so only the odd nodes create packets, one in every cycle.
TEST(TrafficSource, ADrawnDestinationThatIsTheSourceSendsNothing) {
  constexpr std::uint32_t kNodes = 6;
  sc::TrafficSpec spec;
  spec.destination = [](std::uint32_t src, std::mt19937_64&) {
    return src % 2 == 0 ? src : (src + 1) % kNodes;
  };
  spec.rate = 2.0;
  spec.flits = 2;
  spec.warmup = 0;
  spec.cycles = 10;
  sc::net::TrafficSource source(spec, kNodes, sw::Cycle{0});
  std::vector<std::vector<std::uint32_t>> expected;
  for (std::uint32_t c = 0; c < 10; ++c) {
    for (std::uint32_t node = 1; node < kNodes; node += 2) {
      expected.push_back({c, node, (node + 1) % kNodes});
    }
  }
  EXPECT_EQ(created(source, 0, 20), expected);
}

}  // namespace
}  // namespace orthosim
