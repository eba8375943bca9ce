// `orthosim tables` on the command line against a fake Runner (tests/support/cli_harness.hpp):
// each numeric option taken at both ends of its range and refused one past, the beta <= alpha
// rule at equality, the options carried to the design, the exit code and JSON of a run that fails
// and each side's failure reported on its own, and the header's parameters and Eq. 2 figures.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <utility>
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
      // --collapse was refused as a bare "--collapse: a hypercube with more nodes than
      // processors", saying neither that it was expected nor what was found.
      {{"tables", "--topology", "torus", "--m", "16", "--n", "4", "--collapse", "x0"},
       {"orthosim tables: --collapse: expected a hypercube with more nodes than processors (--m > "
        "--n), found a torus\n"}},
      {tables({"--collapse", "x0"}),
       {"orthosim tables: --collapse: expected a hypercube with more nodes than processors (--m > "
        "--n), found one node per processor (--m = --n = 4)\n"}},
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

/// A fake runner whose network runs of one step all fail (lose a word, or never finish) while
/// every other run is correct. Each row's direct program is one step (docs/tables.md, the five
/// rows); the collectives take several, so a row whose collective runs keeps a correct native
/// figure beside a failed direct one.
class FailingDirectRunner : public FakeRunner {
 public:
  explicit FailingDirectRunner(bool deadlock) : deadlock_(deadlock) {}
  sw::NetworkRunSummary run_network(const sw::NetworkRunRequest& request) override {
    sw::NetworkRunSummary s = FakeRunner::run_network(request);
    if (request.program.steps == 1) {
      if (deadlock_) {
        s.completed = false;
      } else {
        s.delivery.messages_failed = 1;
        s.delivery.failures.push_back("message 0 lost");
      }
    }
    return s;
  }

 private:
  bool deadlock_;
};

/// A fake runner whose omp runs lose a word while the networks' are correct.
class FailingOmpRunner : public FakeRunner {
 public:
  std::vector<sw::RunSummary> run_programs(std::vector<sw::SystemRun> runs) override {
    std::vector<sw::RunSummary> out = FakeRunner::run_programs(std::move(runs));
    for (sw::RunSummary& s : out) {
      s.delivery.messages_failed = 1;
      s.delivery.failures.push_back("message 0 lost");
    }
    return out;
  }
};

/// The text row of `pattern` in a table.
std::string table_row(const std::string& table, const std::string& pattern) {
  std::istringstream lines(table);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("  " + pattern + " ", 0) == 0) {
      return line;
    }
  }
  return "";
}

// Each side's failure is reported on its own: the status names only the sides that failed, and
// the JSON's omp_ok, native_ok and native_direct_ok each follow their own run.
TEST(CliTables, EachSidesFailureIsReportedOnItsOwn) {
  // The omp loses a word, the networks do not.
  FailingOmpRunner omp_lost;
  const Result omp_text = run(tables({}), omp_lost);
  EXPECT_EQ(omp_text.code, sw::kExitRunFailed);
  const std::string one_to_one = table_row(omp_text.out, "one-to-one");
  EXPECT_TRUE(contains(one_to_one + "\n", " omp:PAYLOAD\n")) << one_to_one;
  EXPECT_FALSE(contains(one_to_one, "native:")) << one_to_one;
  EXPECT_FALSE(contains(one_to_one, "direct:")) << one_to_one;
  // Below the table, the omp's problem under its row.
  EXPECT_TRUE(contains(omp_text.out, "\n  one-to-one:\n  delivery: message 0 lost\n  one-to-all"))
      << omp_text.out;
  FailingOmpRunner omp_lost_json;
  const nlohmann::json omp_json = nlohmann::json::parse(run(tables({"--json"}), omp_lost_json).out);
  for (const nlohmann::json& row : omp_json.at("rows")) {
    EXPECT_FALSE(row.at("omp_ok").get<bool>()) << row.dump();
    EXPECT_TRUE(row.at("native_ok").get<bool>()) << row.dump();
    EXPECT_TRUE(row.at("native_direct_ok").get<bool>()) << row.dump();
  }

  // The direct runs fail; the one-to-all broadcast's binomial tree (two steps on the 2-cube)
  // does not, so that row's native figure is correct and only its direct one failed.
  for (const bool deadlock : {false, true}) {
    SCOPED_TRACE(deadlock ? "deadlock" : "payload lost");
    FailingDirectRunner direct_failed(deadlock);
    const Result text = run(tables({}), direct_failed);
    EXPECT_EQ(text.code, sw::kExitRunFailed);
    const std::string broadcast = table_row(text.out, "one-to-all broadcast");
    EXPECT_TRUE(contains(broadcast, "   binomial tree; ")) << broadcast;
    EXPECT_TRUE(contains(broadcast + "\n", deadlock ? " direct:DEADLOCK\n" : " direct:PAYLOAD\n"))
        << broadcast;
    EXPECT_FALSE(contains(broadcast, "omp:")) << broadcast;
    EXPECT_FALSE(contains(broadcast, "native:")) << broadcast;
    if (!deadlock) {
      // The broadcast's direct run lost the word, its native run did not. The one-to-one row's
      // native run is its direct run: that one run's problem is listed once.
      EXPECT_TRUE(contains(text.out, "\n  one-to-all broadcast:\n  delivery: message 0 lost\n  "))
          << text.out;
      EXPECT_TRUE(contains(text.out, "\n  one-to-one:\n  delivery: message 0 lost\n  one-to-all"))
          << text.out;
    }
    FailingDirectRunner direct_failed_json(deadlock);
    const nlohmann::json j = nlohmann::json::parse(run(tables({"--json"}), direct_failed_json).out);
    const nlohmann::json& row = j.at("rows").at(1);
    ASSERT_EQ(row.at("pattern"), "one-to-all broadcast");
    EXPECT_TRUE(row.at("omp_ok").get<bool>());
    EXPECT_TRUE(row.at("native_ok").get<bool>());
    EXPECT_FALSE(row.at("native_direct_ok").get<bool>());
  }
}

// The header repeats the parameters given, and the derived ones worked out here from Eq. 2:
// k3 = (alpha - beta)/tau = (20 - 4)/2 = 8, delta = beta/tau = 4/2 = 2, t_h = k1 k3 tau =
// 5 x 8 x 2 = 80 cycles, tau_h = k2 tau = 3 x 2 = 6 cycles, i.e. 6 flits per word.
TEST(CliTables, TheHeaderGivesTheParametersAndTheirEqTwoNormalization) {
  const std::vector<std::string> args{"tables", "--topology", "hypercube", "--m",    "8", "--n",
                                      "4",      "--alpha",    "20",        "--beta", "4", "--tau",
                                      "2",      "--gamma",    "3",         "--k1",   "5", "--k2",
                                      "3",      "--ports",    "all"};
  const Result r = run(args);
  ASSERT_EQ(r.code, sw::kExitOk) << r.err;
  EXPECT_TRUE(contains(r.out, "orthosim tables: hypercube programs of m = 8 nodes on an n = 4 "
                              "processor omp, messages of l = 1 word ([PH91]"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "\n  omp     alpha 20, beta 4, tau 2, gamma 3 cycles; IWR steps"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "\n  native  hypercube d=3, ")) << r.out;
  EXPECT_TRUE(contains(r.out, ", all-port, t_s 80, ")) << r.out;
  EXPECT_TRUE(contains(r.out, "\n  Eq. 2   k3 = (alpha - beta)/tau = 8.00, delta = beta/tau = "
                              "2.00, k1 = 5, k2 = 3: start-up t_h = k1 k3 tau = 80 cycles, tau_h "
                              "= k2 tau = 6 cycles per word (each word sent as 6 flits, plus"))
      << r.out;
  // One-to-one goes from node 0 to the node farthest from it (docs/tables.md): 7 on the 3-cube.
  EXPECT_TRUE(contains(r.out, "\n  one-to-one: node 0 -> node 7 (the node farthest from it on the "
                              "hypercube, in another cluster)"))
      << r.out;
  std::vector<std::string> json_args = args;
  json_args.push_back("--json");
  const nlohmann::json j = nlohmann::json::parse(run(json_args).out);
  const nlohmann::json& network = j.at("network");
  EXPECT_EQ(network.at("topology"), "hypercube");
  EXPECT_EQ(network.at("nodes"), 8U);
  EXPECT_EQ(network.at("ports"), "all");
  EXPECT_EQ(network.at("startup"), 80U);
  // Only the one-to-one row has a destination.
  for (const nlohmann::json& row : j.at("rows")) {
    EXPECT_EQ(row.at("destination").is_null(), row.at("pattern") != "one-to-one") << row.dump();
  }

  // Each word as 2 flits (k2 tau = 1 x 2) is plural, as 1 flit (1 x 1) singular.
  EXPECT_TRUE(contains(run(tables({"--tau", "2", "--k2", "1"})).out, "each word sent as 2 flits,"));
  EXPECT_TRUE(contains(run(tables({"--tau", "1", "--k2", "1"})).out, "each word sent as 1 flit,"));
  // On the 4 x 4 torus the farthest node from (0, 0) is (2, 2), node 2 x 4 + 2 = 10.
  const Result torus = run({"tables", "--topology", "torus", "--m", "16", "--n", "4"});
  EXPECT_TRUE(contains(torus.out, "\n  one-to-one: node 0 -> node 10 (the node farthest from it on "
                                  "the torus, in another cluster)"))
      << torus.out;
}

// [PH91] Table 1's name of each row's pattern (docs/tables.md).
TEST(CliTables, EachRowNamesItsTableOnePattern) {
  const nlohmann::json j = nlohmann::json::parse(run(tables({"--json"})).out);
  const std::vector<std::pair<std::string, std::string>> names = {{"one-to-one", "C1"},
                                                                  {"one-to-all broadcast", "C3"},
                                                                  {"all-to-all broadcast", "C6"},
                                                                  {"one-to-all personalized", "C4"},
                                                                  {"all-to-all personalized",
                                                                   "C7"}};
  ASSERT_EQ(j.at("rows").size(), names.size());
  for (std::size_t k = 0; k < names.size(); ++k) {
    EXPECT_EQ(j["rows"][k].at("pattern"), names[k].first);
    EXPECT_EQ(j["rows"][k].at("table1"), names[k].second);
  }
  // The all-to-all broadcast's native run is recursive doubling: on the 2-cube 2 steps in which
  // each of the 4 nodes sends one message, 8 messages (the direct program sends 4 x 3 = 12).
  const nlohmann::json& broadcast = j["rows"][2];
  EXPECT_EQ(broadcast.at("native_algorithm"), "recursive doubling");
  EXPECT_EQ(broadcast.at("native_messages"), 8U);
}

}  // namespace
}  // namespace orthosim
