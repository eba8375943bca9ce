// [PH91] section 5's tables as an experiment (sw/experiments/tables.hpp): the design from the
// parameters (Eq. 2's normalization, the clustering, the shape checks) and the runs through a
// Runner, here one that records what it is asked and answers with cycles it makes up.
#include <gtest/gtest.h>

#include <algorithm>
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
      s.completed = true;
      s.cycles = sw::Cycle{descending ? 1000 - 10 * i : 10 * (i + 1)};
      out.networks.push_back(s);
    }
    return out;
  }

  int calls = 0;
  bool descending = false;  ///< the networks' cycles fall with their index instead of rising
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

}  // namespace
}  // namespace orthosim
