// `orthosim tables` on the command line against a fake Runner (tests/support/cli_harness.hpp):
// each numeric option taken at both ends of its range and refused one past, the beta <= alpha
// rule at equality, the options carried to the design, and the exit code and JSON of a run that
// fails.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
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

// A run that loses a word is exit 1, and the JSON says it is not ok.
TEST(CliTables, ARunThatFailsIsExitOneAndNotOk) {
  FakeRunner lossy(FakeRunner::Outcome::PayloadLost);
  const Result r = run(tables({"--json"}), lossy);
  EXPECT_EQ(r.code, sw::kExitRunFailed) << r.err;
  EXPECT_FALSE(nlohmann::json::parse(r.out)["ok"].get<bool>());
}

}  // namespace
}  // namespace orthosim
