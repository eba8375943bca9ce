// [PH91] section 5's tables as an experiment (sw/experiments/tables.hpp): the design from the
// parameters (Eq. 2's normalization, the clustering, the shape checks) and the runs through a
// Runner, here one that records what it is asked and answers with cycles it makes up.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "sw/core/diagnostic.hpp"
#include "sw/experiments/tables.hpp"

namespace orthosim {
namespace {

using sw::experiments::TablesParameters;

/// Answers run_mixed with cycles that say which run they belong to: system i took i + 1 cycles,
/// network i took 10 (i + 1); every word delivered.
class RecordingRunner : public sw::Runner {
 public:
  sw::RunSummary run_access(const sw::AccessRequest&) override { throw std::logic_error("unused"); }
  std::vector<sw::RunSummary> run_programs(std::vector<sw::SystemRun>) override {
    throw std::logic_error("unused");
  }
  sw::NetworkRunSummary run_network(const sw::NetworkRunRequest&) override {
    throw std::logic_error("unused");
  }
  std::vector<sw::TrafficPoint> run_traffic(const sw::TrafficRequest&) override {
    throw std::logic_error("unused");
  }
  sw::MixedRunResult run_mixed(const std::vector<sw::SystemRun>& asked_systems,
                               const std::vector<sw::NetworkRunRequest>& asked_networks) override {
    ++calls;
    systems = asked_systems;
    networks = asked_networks;
    sw::MixedRunResult out;
    for (std::size_t i = 0; i < systems.size(); ++i) {
      sw::RunSummary s;
      s.completed = true;
      s.cycles = sw::Cycle{i + 1};
      out.systems.push_back(s);
    }
    for (std::size_t i = 0; i < networks.size(); ++i) {
      sw::NetworkRunSummary s;
      s.completed = incomplete_network != i;
      s.cycles = sw::Cycle{descending ? 1000 - 10 * i : 10 * (i + 1)};
      out.networks.push_back(s);
    }
    return out;
  }

  int calls = 0;
  bool descending = false;  ///< the networks' cycles fall with their index instead of rising
  std::optional<std::size_t> incomplete_network;  ///< this network run does not complete
  std::vector<sw::SystemRun> systems;
  std::vector<sw::NetworkRunRequest> networks;
};

TablesParameters hypercube(std::uint32_t m, std::uint32_t n, std::uint32_t l) {
  TablesParameters p;
  p.topology = sw::TopologyKind::Hypercube;
  p.m = m;
  p.n = n;
  p.l = l;
  return p;
}

// Eq. 2: the network's start-up is k1 (alpha - beta) cycles and a word k2 tau flits, k2 = log2 m
// by default; a 16-node cube on 4 processors collapses its p - q = 2 lowest dimensions.
TEST(TablesExperiment, DesignNormalizesTheNetworkToTheOmpsCosts) {
  const TablesParameters p = hypercube(16, 4, 2);
  const sw::experiments::TablesSetup s = sw::experiments::design_tables(p);
  const sw::BusTiming& t = s.omp.timing;
  EXPECT_EQ(s.omp.n, 4u);
  EXPECT_EQ(s.k2, 4u);
  EXPECT_EQ(s.network->ni.startup, p.k1 * (t.alpha - t.beta));
  EXPECT_EQ(s.flits_per_word, s.k2 * t.tau);
  EXPECT_EQ(s.collapsed, (std::vector<std::uint32_t>{0, 1}));
  EXPECT_EQ(s.network->topology.nodes(), 16u);
  EXPECT_EQ(s.paper_table(), "Table 4");
}

// One call runs all five patterns on both machines; each row gets its own runs' results, in
// Table 2's order: the omp's, the direct program's and its collective's (the network runs are
// each row's direct program, then its collectives). A block of a collective is one message of
// the pattern: l k2 tau flits per word.
TEST(TablesExperiment, EveryPatternRunsOnBothMachinesInOneCall) {
  const sw::experiments::TablesSetup s = sw::experiments::design_tables(hypercube(8, 4, 3));
  RecordingRunner runner;
  const sw::experiments::TablesRun run = sw::experiments::run_tables(s, runner);
  EXPECT_EQ(runner.calls, 1);
  const std::size_t patterns = sw::paper::table_patterns().size();
  ASSERT_EQ(run.rows.size(), patterns);
  ASSERT_EQ(runner.systems.size(), patterns);
  // One-to-one direct only; the broadcast and the scatter by a binomial tree, the all-to-all
  // broadcast by doubling, the all-to-all personalized by the CC-cube complete exchange.
  const std::vector<std::string> algorithm = {"direct", "binomial tree", "recursive doubling",
                                              "binomial tree", "CC-cube complete exchange"};
  const std::vector<std::size_t> direct_run = {0, 1, 3, 5, 7};
  const std::vector<std::size_t> native_run = {0, 2, 4, 6, 8};
  ASSERT_EQ(runner.networks.size(), patterns + 4);
  for (std::size_t i = 0; i < patterns; ++i) {
    EXPECT_EQ(run.rows[i].pattern, sw::paper::table_patterns()[i]);
    EXPECT_EQ(run.rows[i].native_algorithm, algorithm[i]) << i;
    EXPECT_EQ(run.rows[i].omp.cycles.count(), i + 1) << i;
    EXPECT_EQ(run.rows[i].native_direct.cycles.count(), 10 * (direct_run[i] + 1)) << i;
    EXPECT_EQ(run.rows[i].native.cycles.count(), 10 * (native_run[i] + 1)) << i;
    EXPECT_EQ(run.rows[i].measured_ratio(),
              static_cast<double>(10 * (native_run[i] + 1)) / static_cast<double>(i + 1))
        << i;
    EXPECT_EQ(run.rows[i].direct_ratio(),
              static_cast<double>(10 * (direct_run[i] + 1)) / static_cast<double>(i + 1))
        << i;
    EXPECT_EQ(runner.systems[i].program.n, 4u) << i;
    for (const sw::Message& m : runner.networks[direct_run[i]].program.manifest.messages) {
      ASSERT_EQ(m.words, 3 * s.flits_per_word) << i;
    }
  }
  // Recursive doubling on the 3-cube: messages of 1, 2 and 4 blocks.
  std::vector<std::uint32_t> words;
  for (const sw::Message& m : runner.networks[4].program.manifest.messages) {
    words.push_back(m.words);
  }
  EXPECT_EQ(*std::max_element(words.begin(), words.end()), 4 * 3 * s.flits_per_word);
  EXPECT_EQ(*std::min_element(words.begin(), words.end()), 3 * s.flits_per_word);
  EXPECT_TRUE(run.ok());
}

// The torus' all-to-all personalized tries [A2A]'s A1, [6] and the two-phase exchange,
// and keeps the fastest; its all-to-all broadcast is the row-then-column gather.
TEST(TablesExperiment, TheTorusKeepsTheFastestCompleteExchange) {
  TablesParameters p;
  p.topology = sw::TopologyKind::Torus;
  p.m = 16;
  p.n = 4;
  const sw::experiments::TablesSetup s = sw::experiments::design_tables(p);
  RecordingRunner runner;
  runner.descending = true;
  const sw::experiments::TablesRun run = sw::experiments::run_tables(s, runner);
  ASSERT_EQ(runner.networks.size(), 5u + 1 + 3);
  const sw::experiments::TableRow& gather = run.rows[2];
  EXPECT_EQ(gather.pattern, sw::paper::TablePattern::AllToAllBroadcast);
  EXPECT_EQ(gather.native_algorithm, "row-column gather");
  const sw::experiments::TableRow& exchange = run.rows[4];
  EXPECT_EQ(exchange.pattern, sw::paper::TablePattern::AllToAllPersonalized);
  EXPECT_EQ(exchange.native_algorithm, "two-phase");  // the last run: the fewest cycles here
  EXPECT_EQ(exchange.native.cycles.count(), 1000 - 10 * 8);
  EXPECT_EQ(exchange.native_direct.cycles.count(), 1000 - 10 * 5);
  EXPECT_EQ(sw::experiments::native_collectives(s, sw::paper::TablePattern::OneToOne).size(), 0u);
}

// A torus is k x k with k = n or one node per processor; the error is keyed by the parameter (the
// command line places it at its option).
TEST(TablesExperiment, AMachineThatCannotBeBuiltNamesItsOption) {
  TablesParameters p;
  p.topology = sw::TopologyKind::Torus;
  p.m = 12;
  p.n = 4;
  try {
    (void)sw::experiments::design_tables(p);
    ADD_FAILURE() << "a 12-node torus was accepted";
  } catch (const sw::ParameterError& e) {
    EXPECT_EQ(e.parameter(), "m") << e.what();
  }
  p.m = 36;  // square, but 6 x 6 is neither n = 4 nor n^2 = 16 nodes
  EXPECT_THROW((void)sw::experiments::design_tables(p), sw::ParameterError);
  p.m = 16;
  EXPECT_NO_THROW((void)sw::experiments::design_tables(p));
}

// Table 2's one-to-one row sends from node 0 to the node farthest from it: the complement m - 1
// on a hypercube, (k/2, k/2) = 2 + 4 * 2 on a 4 x 4 torus. Its cost counts no memory access
// when the two nodes share a cluster: on one processor (n = 1) they do, on two they do not.
TEST(TablesExperiment, TheOneToOneRowGoesToTheFarthestNodeAndKnowsItsCluster) {
  const auto one_to_one = [](const TablesParameters& p) {
    RecordingRunner runner;
    return sw::experiments::run_tables(sw::experiments::design_tables(p), runner).rows.at(0);
  };
  TablesParameters torus;
  torus.topology = sw::TopologyKind::Torus;
  torus.m = 16;
  torus.n = 4;
  EXPECT_EQ(one_to_one(torus).destination, 10u);
  EXPECT_FALSE(one_to_one(torus).same_cluster);
  EXPECT_EQ(one_to_one(hypercube(8, 2, 1)).destination, 7u);
  EXPECT_FALSE(one_to_one(hypercube(4, 2, 1)).same_cluster);
  EXPECT_TRUE(one_to_one(hypercube(4, 1, 1)).same_cluster);
}

// One node per processor (m = n) is a machine of the tables on both networks; a collapse names
// dimensions only where there are clusters to collapse (m > n).
TEST(TablesExperiment, OneNodePerProcessorIsAcceptedAndTakesNoCollapse) {
  TablesParameters torus;
  torus.topology = sw::TopologyKind::Torus;
  torus.m = 16;
  torus.n = 16;
  EXPECT_EQ(sw::experiments::design_tables(torus).clustering, "one node per processor");
  TablesParameters cube = hypercube(8, 8, 1);
  EXPECT_EQ(sw::experiments::design_tables(cube).clustering, "one node per processor");
  cube.collapsed = std::vector<std::uint32_t>{0};
  try {
    (void)sw::experiments::design_tables(cube);
    ADD_FAILURE() << "a collapse of a cube with one node per processor was accepted";
  } catch (const sw::ParameterError& e) {
    EXPECT_EQ(e.parameter(), "collapse") << e.what();
  }
}

// ---- the edges a mutation round on tables.cpp found unpinned ---------------------------------

// Each row's direct network program is its Table 1 pattern from node 0: one message to the
// farthest node, m-1 from node 0 (one payload for the broadcast, one each personalized), m(m-1)
// from all nodes; the binomial broadcast starts at node 0 too.
TEST(TablesExperiment, EachRowRunsItsTable1PatternFromNodeZero) {
  const std::uint32_t m = 8;
  const sw::experiments::TablesSetup s = sw::experiments::design_tables(hypercube(m, 4, 1));
  RecordingRunner runner;
  const sw::experiments::TablesRun run = sw::experiments::run_tables(s, runner);
  const std::vector<std::size_t> direct_run = {0, 1, 3, 5, 7};
  ASSERT_EQ(run.rows.size(), direct_run.size());
  for (std::size_t i = 0; i < run.rows.size(); ++i) {
    std::size_t count = 0, from_zero = 0, broadcast = 0;
    for (const sw::Message& msg : runner.networks[direct_run[i]].program.manifest.messages) {
      ++count;
      from_zero += msg.source == 0 ? 1 : 0;
      broadcast += msg.payload.destination == sw::PayloadKey::kBroadcast ? 1 : 0;
    }
    const sw::paper::TablePattern p = run.rows[i].pattern;
    using TP = sw::paper::TablePattern;
    const bool one_source =
        p == TP::OneToOne || p == TP::OneToAllBroadcast || p == TP::OneToAllPersonalized;
    const std::size_t expected =
        p == TP::OneToOne ? 1 : (one_source ? m - 1 : std::size_t{m} * (m - 1));
    const bool is_broadcast = p == TP::OneToAllBroadcast || p == TP::AllToAllBroadcast;
    EXPECT_EQ(count, expected) << i;
    EXPECT_EQ(from_zero, one_source ? expected : m - 1) << i;
    EXPECT_EQ(broadcast, is_broadcast ? expected : 0) << i;
  }
  // Network run 2 is the one-to-all broadcast's binomial tree: node 0 sends and receives nothing.
  bool zero_sends = false;
  for (const sw::Message& msg : runner.networks[2].program.manifest.messages) {
    zero_sends = zero_sends || msg.source == 0;
    EXPECT_NE(msg.destination, 0u);
  }
  EXPECT_TRUE(zero_sends);
}

// A collective run that does not deliver everything is never the row's native figure.
TEST(TablesExperiment, ACollectiveThatFailsIsNotKept) {
  const sw::experiments::TablesSetup s = sw::experiments::design_tables(hypercube(8, 4, 1));
  RecordingRunner runner;
  runner.descending = true;       // every collective is faster than its direct program
  runner.incomplete_network = 2;  // the one-to-all broadcast's binomial tree
  const sw::experiments::TablesRun run = sw::experiments::run_tables(s, runner);
  EXPECT_EQ(run.rows.at(1).native_algorithm, "direct");
  EXPECT_EQ(run.rows.at(1).native.cycles.count(), 1000u - 10u * 1u);
  EXPECT_EQ(run.rows.at(2).native_algorithm, "recursive doubling");
}

// A collective whose largest message (blocks x l k2 tau words) exceeds the network's 2^20 words
// is left out, the row keeps its direct program: recursive doubling on the 3-cube sends 4 blocks.
TEST(TablesExperiment, ACollectiveWithAMessageTooLongIsLeftOut) {
  const std::uint32_t l = 100'000;  // 3 flits a word: 300000 words direct, 1.2 M in doubling
  const sw::experiments::TablesSetup s = sw::experiments::design_tables(hypercube(8, 4, l));
  ASSERT_EQ(s.flits_per_word, 3u);
  RecordingRunner runner;
  const sw::experiments::TablesRun run = sw::experiments::run_tables(s, runner);
  EXPECT_EQ(run.rows.at(2).native_algorithm, "direct");
}

TEST(TablesExperiment, TheDesignChecksEveryParameterAndCarriesItToTheNetwork) {
  const auto refused = [](const TablesParameters& p) {
    try {
      (void)sw::experiments::design_tables(p);
    } catch (const sw::ParameterError& e) {
      return e.parameter();
    }
    return std::string("accepted");
  };
  const std::uint32_t largest = 1u << sw::Topology::max_hypercube_dim;
  EXPECT_EQ(refused(hypercube(largest * 2, 4, 1)), "m");
  EXPECT_EQ(refused(hypercube(0, 0, 1)), "m");
  EXPECT_EQ(refused(hypercube(8, 3, 1)), "n");
  EXPECT_EQ(refused(hypercube(8, 0, 1)), "n");
  TablesParameters torus;
  torus.topology = sw::TopologyKind::Torus;
  torus.m = 12;
  torus.n = 12;  // one node per processor, but not k x k
  EXPECT_EQ(refused(torus), "m");
  // l k2 tau flits per network message at most 2^20: k2 = 4 on 16 nodes, tau = 2.
  TablesParameters wide = hypercube(16, 4, 1u << 17);
  wide.timing.tau = 2;
  wide.ports = sw::NodePorts::All;
  const sw::experiments::TablesSetup s = sw::experiments::design_tables(wide);
  EXPECT_EQ(s.flits_per_word, 4u * 2u);
  EXPECT_EQ(s.network->ni.ports, sw::NodePorts::All);
  wide.l += 1;
  EXPECT_EQ(refused(wide), "l");
  // The torus machine is a torus (its rows and columns wrap), costed by Table 5.
  torus.m = 16;
  torus.n = 4;
  const sw::experiments::TablesSetup t = sw::experiments::design_tables(torus);
  EXPECT_EQ(t.network->topology.kind(), sw::TopologyKind::Torus);
  RecordingRunner runner;
  for (const sw::experiments::TableRow& row : sw::experiments::run_tables(t, runner).rows) {
    EXPECT_EQ(row.paper_cost, sw::paper::torus_cost(row.pattern, 16, 1, t.norm));
    EXPECT_EQ(row.paper_ratio, row.paper_cost / row.paper_vectorized);
  }
  sw::experiments::TableRow none;
  EXPECT_EQ(none.measured_ratio(), std::nullopt);  // no OMP cycles: no ratio
}

}  // namespace
}  // namespace orthosim
