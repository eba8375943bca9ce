// `orthosim tables` on the command line against a fake Runner (tests/support/cli_harness.hpp):
// each numeric option taken at both ends of its range and refused one past, the beta <= alpha
// rule at equality, the options carried to the design, and the exit code and JSON of a run that
// fails.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "sw/cli/cli.hpp"
#include "tests/support/cli_harness.hpp"

namespace orthosim {
namespace {

using namespace cli_test;

std::vector<std::string> tables(const std::vector<std::string>& more) {
  std::vector<std::string> args{"tables", "--topology", "hypercube", "--m", "4", "--n", "4"};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

TEST(CliTables, EachRangeIsTakenAtBothEndsAndRefusedOnePast) {
  expect_refused_before_running({
      // The smallest network of the five patterns is 2 x 2 (a torus) or 2^2 (a hypercube): on a
      // 1-cube C3 has no third node, which was refused naming --nodes, an option tables lacks.
      {{"tables", "--topology", "hypercube", "--m", "2", "--n", "2"},
       {"--m: expected an integer in 4..4096, found '2'"}},
      {{"tables", "--topology", "hypercube", "--m", "3", "--n", "2"}, {"--m: expected"}},
      {{"tables", "--topology", "hypercube", "--m", "4097", "--n", "2"},
       {"--m: expected an integer in 4..4096, found '4097'"}},
      {{"tables", "--topology", "hypercube", "--m", "512", "--n", "257"},
       {"--n: expected an integer in 2..256, found '257'"}},
      {{"tables", "--topology", "hypercube", "--m", "4", "--n", "1"},
       {"--n: expected an integer in 2.."}},
      {tables({"--l", "0"}), {"--l: expected an integer in 1..65536, found '0'"}},
      {tables({"--l", "65537"}), {"--l: expected an integer in 1..65536, found '65537'"}},
      {tables({"--k1", "10001"}), {"--k1: expected an integer in 0..10000, found '10001'"}},
      {tables({"--k2", "0"}), {"--k2: expected an integer in 1..1024, found '0'"}},
      {tables({"--k2", "1025"}), {"--k2: expected an integer in 1..1024, found '1025'"}},
      {tables({"--alpha", "16", "--beta", "17"}), {"--beta: expected at most --alpha = 16"}},
      {tables({"--ports", "two"}), {"--ports: expected one or all, found 'two'"}},
      {{"tables", "--topology", "mesh", "--m", "4", "--n", "4"},
       {"--topology: expected hypercube or torus, found 'mesh'"}},
  });
  struct Taken {
    std::vector<std::string> args;
    const char* field;
    std::uint64_t value;
  };
  const Taken taken[] = {
      {{"tables", "--topology", "hypercube", "--m", "4", "--n", "2"}, "m", 4},
      {{"tables", "--topology", "torus", "--m", "4", "--n", "2"}, "m", 4},
      {{"tables", "--topology", "hypercube", "--m", "4", "--n", "2"}, "n", 2},
      {tables({"--l", "1"}), "l", 1},
      {tables({"--l", "65536"}), "l", 65536},
      {tables({"--alpha", "16", "--beta", "16"}), "beta", 16},
      {tables({"--beta", "3"}), "beta", 3},
      {tables({"--k1", "0"}), "k1", 0},
      {tables({"--k1", "10000"}), "k1", 10000},
      {tables({"--k2", "1"}), "k2", 1},
      {tables({"--k2", "1024"}), "k2", 1024},
  };
  for (const Taken& t : taken) {
    std::vector<std::string> args = t.args;
    args.push_back("--json");
    const Result r = run(args);
    ASSERT_EQ(r.code, sw::kExitOk) << joined(args) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out)[t.field], t.value) << joined(args);
  }
}

// --ports all reaches every network run; --trace every run; --topology torus designs the torus; --collapse picks the
// intra-cluster dimensions of Fig. 10 (x1 instead of the default x0).
TEST(CliTables, TheOptionsReachTheDesign) {
  FakeRunner all_ports;
  ASSERT_EQ(run(tables({"--ports", "all"}), all_ports).code, sw::kExitOk);
  ASSERT_FALSE(all_ports.network_requests.empty());
  for (const sw::NetworkRunRequest& request : all_ports.network_requests) {
    EXPECT_EQ(request.config->ni.ports, sw::NodePorts::All);
  }
  FakeRunner one_port;
  ASSERT_EQ(run(tables({"--ports", "one"}), one_port).code, sw::kExitOk);
  for (const sw::NetworkRunRequest& request : one_port.network_requests) {
    EXPECT_EQ(request.config->ni.ports, sw::NodePorts::One);
  }
  // --trace: every run, on the omp and on the network, writes its events to the one file.
  FakeRunner traced;
  const std::string trace = (fs::temp_directory_path() / "cli_tables_test.trace").string();
  ASSERT_EQ(run(tables({"--trace", trace}), traced).code, sw::kExitOk);
  ASSERT_FALSE(traced.program_requests.empty());
  for (const std::vector<sw::SystemRun>& runs : traced.program_requests) {
    for (const sw::SystemRun& system : runs) {
      EXPECT_EQ(system.trace_path, trace);
    }
  }
  for (const sw::NetworkRunRequest& request : traced.network_requests) {
    EXPECT_EQ(request.trace_path, trace);
  }
  const Result torus = run({"tables", "--topology", "torus", "--m", "16", "--n", "4", "--json"});
  ASSERT_EQ(torus.code, sw::kExitOk) << torus.err;
  EXPECT_EQ(nlohmann::json::parse(torus.out)["topology"], "torus");
  const Result lowest =
      run({"tables", "--topology", "hypercube", "--m", "8", "--n", "4", "--json"});
  const Result x1 = run(
      {"tables", "--topology", "hypercube", "--m", "8", "--n", "4", "--collapse", "x1", "--json"});
  ASSERT_EQ(x1.code, sw::kExitOk) << x1.err;
  const std::string lowest_clusters = nlohmann::json::parse(lowest.out)["clustering"];
  const std::string x1_clusters = nlohmann::json::parse(x1.out)["clustering"];
  EXPECT_NE(lowest_clusters.find("x0"), std::string::npos) << lowest_clusters;
  EXPECT_NE(x1_clusters.find("x1"), std::string::npos) << x1_clusters;
  EXPECT_EQ(x1_clusters.find("x0"), std::string::npos) << x1_clusters;
}

// A run that loses a word is exit 1, the JSON says it is not ok, and each row of the table says
// PAYLOAD for every side that lost one; a side that did not finish says DEADLOCK.
TEST(CliTables, ARunThatFailsIsExitOneAndNotOk) {
  FakeRunner lossy(FakeRunner::Outcome::PayloadLost);
  const Result r = run(tables({"--json"}), lossy);
  EXPECT_EQ(r.code, sw::kExitRunFailed) << r.err;
  EXPECT_FALSE(nlohmann::json::parse(r.out)["ok"].get<bool>());
  FakeRunner lossy_text(FakeRunner::Outcome::PayloadLost);
  const Result text = run(tables({}), lossy_text);
  EXPECT_EQ(text.code, sw::kExitRunFailed);
  EXPECT_TRUE(contains(text.out, " omp:PAYLOAD native:PAYLOAD direct:PAYLOAD\n")) << text.out;
  // Below the table, each failed row's problems (the fake runner's lost message).
  EXPECT_TRUE(contains(text.out, "\n  one-to-one:\n")) << text.out;
  EXPECT_TRUE(contains(text.out, "message 0 lost")) << text.out;
  EXPECT_FALSE(contains(run(tables({})).out, "\n  one-to-one:\n"));
  FakeRunner stuck(FakeRunner::Outcome::Deadlock);
  const Result deadlock = run(tables({}), stuck);
  EXPECT_EQ(deadlock.code, sw::kExitRunFailed);
  EXPECT_TRUE(contains(deadlock.out, " omp:DEADLOCK native:DEADLOCK direct:DEADLOCK\n"))
      << deadlock.out;
}

// The table's rows: a one-to-all row's T(d, lambda l) is marked '*' (an upper bound there, the
// note says), the others not; Eq. 2 normalizes a hypercube, Eq. 3 a torus, in the text and the
// JSON.
TEST(CliTables, OneToAllRowsAreMarkedAndEachTopologyHasItsNormalization) {
  const Result r = run(tables({}));
  ASSERT_EQ(r.code, sw::kExitOk) << r.err;
  const nlohmann::json j = nlohmann::json::parse(run(tables({"--json"})).out);
  const nlohmann::json& json_rows = j["rows"];
  ASSERT_EQ(json_rows.size(), 5u);
  // Some row's d differs from its lambda, so that the two columns cannot pass for each other.
  EXPECT_TRUE(std::any_of(json_rows.begin(), json_rows.end(),
                          [](const nlohmann::json& row) { return row["d"] != row["lambda"]; }));
  std::istringstream lines(r.out);
  std::size_t rows = 0;
  for (std::string line; std::getline(lines, line);) {
    for (const std::string pattern : {"one-to-one", "one-to-all broadcast", "all-to-all broadcast",
                                      "one-to-all personalized", "all-to-all personalized"}) {
      // "  " + the pattern in 25 columns, d in 5, lambda in 7, T in 10, then the mark.
      if (line.rfind("  " + pattern + " ", 0) == 0 && line.size() > 51) {
        EXPECT_EQ(line.substr(49, 2), pattern.rfind("one-to-all", 0) == 0 ? " *" : "  ") << line;
        // d, lambda and T(d, lambda l) as the JSON's row gives them.
        const nlohmann::json& row = json_rows.at(rows++);
        EXPECT_EQ(row["pattern"], pattern);
        std::istringstream figures(line.substr(2 + 25));
        std::uint64_t d = 0, lambda = 0, formula = 0;
        figures >> d >> lambda >> formula;
        EXPECT_EQ(d, row["d"].get<std::uint64_t>()) << line;
        EXPECT_EQ(lambda, row["lambda"].get<std::uint64_t>()) << line;
        EXPECT_EQ(formula, row["formula_cycles"].get<std::uint64_t>()) << line;
      }
    }
  }
  EXPECT_EQ(rows, 5u) << r.out;
  EXPECT_TRUE(contains(r.out, "messages of l = 1 word ([PH91]")) << r.out;
  EXPECT_TRUE(contains(run(tables({"--l", "2"})).out, "messages of l = 2 words ([PH91]"));
  // Each row ends with the paper's network and vectorized costs (tau units, one decimal), whose
  // quotient is the paper ratio.
  for (const nlohmann::json& row : json_rows) {
    const double cost = row["paper_cost"], vectorized = row["paper_vectorized_cost"];
    EXPECT_DOUBLE_EQ(row["paper_ratio"].get<double>(), cost / vectorized) << row.dump();
    char costs[64];
    std::snprintf(costs, sizeof costs, "; %.1f / %.1f\n", cost, vectorized);
    EXPECT_TRUE(contains(r.out, costs)) << costs << " in\n" << r.out;
  }
  EXPECT_TRUE(contains(r.out, "\n  Eq. 2   k3 = ")) << r.out;
  EXPECT_EQ(nlohmann::json::parse(run(tables({"--json"})).out)["normalization"], "Eq. 2");
  const std::vector<std::string> torus{"tables", "--topology", "torus", "--m", "16", "--n", "4"};
  EXPECT_TRUE(contains(run(torus).out, "\n  Eq. 3   k3 = "));
  std::vector<std::string> torus_json = torus;
  torus_json.push_back("--json");
  EXPECT_EQ(nlohmann::json::parse(run(torus_json).out)["normalization"], "Eq. 3");
}

}  // namespace
}  // namespace orthosim
