// End to end: `orthosim tables` (docs/tables.md), the executable as a user runs it. Expected
// values come from formulas written here: the project's IWR step 2(alpha + beta(L - 1) + d tau L) +
// gamma with Table 2's d and lambda (L = lambda l), docs/networks.md's wormhole time
// t_s + (h + 1) delay + F, and the paper's hypercube and torus tables ([PH91] section 5).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/cli_process.hpp"

namespace {

using orthosim::testing_support::Outcome;

class Tables : public orthosim::testing_support::CliTest {
 protected:
  nlohmann::json json(const std::string& args) const {
    const Outcome o = run(args + " --json");
    EXPECT_EQ(o.exit_code, 0) << o.err;
    return nlohmann::json::parse(o.out);
  }
};

// The OMP defaults (SystemConfig): alpha 16, beta 2, tau 1, gamma 8.
constexpr std::uint64_t kAlpha = 16, kBeta = 2, kTau = 1, kGamma = 8;

std::uint64_t block(std::uint64_t d, std::uint64_t words) {
  return kAlpha + kBeta * (words - 1) + d * kTau * words;
}
/// the project's IWR step, Table 2's T(d, lambda l) with gamma.
std::uint64_t iwr(std::uint64_t d, std::uint64_t words) { return 2 * block(d, words) + kGamma; }

const std::vector<std::string> kPatterns = {"one-to-one", "one-to-all broadcast",
                                            "all-to-all broadcast", "one-to-all personalized",
                                            "all-to-all personalized"};

bool symmetric(const std::string& pattern) {
  return pattern == "one-to-one" || pattern == "all-to-all broadcast" ||
         pattern == "all-to-all personalized";
}

const nlohmann::json& row(const nlohmann::json& j, const std::string& pattern) {
  for (const nlohmann::json& r : j.at("rows")) {
    if (r.at("pattern") == pattern) {
      return r;
    }
  }
  ADD_FAILURE() << "no row " << pattern;
  return j;
}

TEST_F(Tables, HelpListsTheCommand) {
  const Outcome o = run("--help");
  EXPECT_EQ(o.exit_code, 0);
  EXPECT_NE(o.out.find("tables"), std::string::npos);
  const Outcome h = run("tables --help");
  EXPECT_EQ(h.exit_code, 0);
  for (const char* option : {"--topology", "--m", "--n", "--l", "--k1", "--k2", "--collapse",
                             "--alpha", "--gamma", "--ports"}) {
    EXPECT_NE(h.out.find(option), std::string::npos) << option;
  }
}

TEST_F(Tables, Hypercube16x16ShortMessages) {
  const std::uint64_t m = 16, n = 16, l = 4, log_m = 4;
  const nlohmann::json j = json("tables --topology hypercube --m 16 --n 16 --l 4");
  EXPECT_EQ(j.at("alpha"), kAlpha);
  EXPECT_EQ(j.at("beta"), kBeta);
  EXPECT_EQ(j.at("tau"), kTau);
  EXPECT_EQ(j.at("gamma"), kGamma);
  // Defaults: k1 = 4, k2 = log2 m; Eq. 2: k3 = (alpha - beta)/tau, delta = beta/tau.
  const double k1 = 4, k2 = static_cast<double>(log_m);
  const double k3 = static_cast<double>(kAlpha - kBeta) / kTau;
  const double delta = static_cast<double>(kBeta) / kTau;
  EXPECT_EQ(j.at("k1"), 4);
  EXPECT_EQ(j.at("k2"), log_m);
  EXPECT_DOUBLE_EQ(j.at("k3").get<double>(), k3);
  EXPECT_DOUBLE_EQ(j.at("delta").get<double>(), delta);
  const std::uint64_t startup = 4 * (kAlpha - kBeta);  // t_h = k1 k3 tau
  EXPECT_EQ(j.at("startup_cycles"), startup);
  EXPECT_EQ(j.at("flits_per_word"), log_m * kTau);  // tau_h = k2 tau

  ASSERT_EQ(j.at("rows").size(), 5u);
  for (std::size_t i = 0; i < kPatterns.size(); ++i) {
    const nlohmann::json& r = j.at("rows")[i];
    EXPECT_EQ(r.at("pattern"), kPatterns[i]);
    for (const char* field : {"pattern", "m", "n", "l", "formula_cycles", "omp_cycles",
                              "native_cycles", "measured_ratio", "paper_ratio"}) {
      EXPECT_TRUE(r.contains(field)) << kPatterns[i] << " lacks " << field;
    }
    EXPECT_EQ(r.at("m"), m);
    EXPECT_EQ(r.at("n"), n);
    EXPECT_EQ(r.at("l"), l);
    // m = n: every lambda is 1; d = 1 for one-to-one, n - 1 otherwise.
    const std::uint64_t d = i == 0 ? 1 : n - 1;
    EXPECT_EQ(r.at("formula_cycles"), iwr(d, l)) << kPatterns[i];
    const auto omp = r.at("omp_cycles").get<std::uint64_t>();
    const auto native = r.at("native_cycles").get<std::uint64_t>();
    if (symmetric(kPatterns[i])) {
      EXPECT_EQ(omp, iwr(d, l)) << kPatterns[i];
    } else {
      // One-to-all: every receiver reads one module, so the read half has d = 1.
      EXPECT_EQ(omp, block(n - 1, l) + kGamma + block(1, l)) << kPatterns[i];
      EXPECT_LT(omp, r.at("formula_cycles").get<std::uint64_t>());
    }
    EXPECT_DOUBLE_EQ(r.at("measured_ratio").get<double>(),
                     static_cast<double>(native) / static_cast<double>(omp));
    // Short messages: the omp is faster than the native hypercube.
    EXPECT_GT(r.at("measured_ratio").get<double>(), 1.0) << kPatterns[i];
  }
  // The native collectives, one hop per message: the broadcast by a binomial tree (log m steps of
  // one message's l k2 tau words), the all-to-all broadcast by recursive doubling and the scatter
  // by a binomial tree (2^k messages' worth in the step of dimension k, highest first for the
  // scatter); the direct figure beside them.
  const std::uint64_t words = l * log_m * kTau;
  const std::uint64_t one_hop = startup + 2 + 1;  // t_s, two routers, the header flit
  std::uint64_t doubling = 0;
  for (std::uint64_t k = 0; k < log_m; ++k) {
    doubling += one_hop + (std::uint64_t{1} << k) * words;
  }
  EXPECT_EQ(row(j, "one-to-all broadcast").at("native_algorithm"), "binomial tree");
  EXPECT_EQ(row(j, "one-to-all broadcast").at("native_cycles"), log_m * (one_hop + words));
  EXPECT_EQ(row(j, "all-to-all broadcast").at("native_algorithm"), "recursive doubling");
  EXPECT_EQ(row(j, "all-to-all broadcast").at("native_cycles"), doubling);
  EXPECT_EQ(row(j, "one-to-all personalized").at("native_algorithm"), "binomial tree");
  EXPECT_EQ(row(j, "one-to-all personalized").at("native_cycles"), doubling);
  // The CC-cube complete exchange: log m one-hop steps, each of m/2 blocks between neighbours.
  EXPECT_EQ(row(j, "all-to-all personalized").at("native_algorithm"), "CC-cube complete exchange");
  EXPECT_EQ(row(j, "all-to-all personalized").at("native_cycles"),
            log_m * (one_hop + (m / 2) * words));
  for (const std::string& p : kPatterns) {
    EXPECT_DOUBLE_EQ(row(j, p).at("direct_ratio").get<double>(),
                     row(j, p).at("native_direct_cycles").get<double>() /
                         row(j, p).at("omp_cycles").get<double>())
        << p;
    EXPECT_TRUE(row(j, p).at("native_direct_ok").get<bool>()) << p;
  }
  // One-to-one: node 0 -> node 15 over log m = 4 hops, F = l k2 tau + 1 (header) flits.
  const nlohmann::json& one = row(j, "one-to-one");
  EXPECT_EQ(one.at("destination"), m - 1);
  EXPECT_EQ(one.at("native_cycles"), startup + (log_m + 1) + (l * log_m * kTau + 1));
  // The paper's ratio, Table 4 row m = n: ((2 + log n) k1 k3 + (2 l / log n) k2) /
  // (2 k3 + 2 (1 + delta) l).
  const double dl = static_cast<double>(l), dlog = static_cast<double>(log_m);
  EXPECT_DOUBLE_EQ(one.at("paper_ratio").get<double>(),
                   ((2 + dlog) * k1 * k3 + (2 * dl / dlog) * k2) / (2 * k3 + 2 * (1 + delta) * dl));
  // All-to-all personalized: (2 (log n) k1 k3 + l n k2) / (2 k3 + 2 (n - 1 + delta) l).
  const double dn = static_cast<double>(n);
  EXPECT_DOUBLE_EQ(row(j, "all-to-all personalized").at("paper_ratio").get<double>(),
                   (2 * dlog * k1 * k3 + dl * dn * k2) / (2 * k3 + 2 * (dn - 1 + delta) * dl));
}

TEST_F(Tables, OneToOneReductionGrowsWithTheHypercube) {
  const nlohmann::json small = json("tables --topology hypercube --m 4 --n 4 --l 4");
  const nlohmann::json large = json("tables --topology hypercube --m 16 --n 16 --l 4");
  const double r4 = row(small, "one-to-one").at("measured_ratio").get<double>();
  const double r16 = row(large, "one-to-one").at("measured_ratio").get<double>();
  EXPECT_GT(r4, 1.0);
  EXPECT_GT(r16, r4);
  // m = 4: 2 hops, k2 = 2: t_h + 3 + (4 * 2 + 1) over T(1, 4).
  EXPECT_EQ(row(small, "one-to-one").at("native_cycles"), 4 * (kAlpha - kBeta) + 3 + 9);
  EXPECT_EQ(row(small, "one-to-one").at("omp_cycles"), iwr(1, 4));
}

TEST_F(Tables, HypercubeWithClustersFollowsTable2) {
  // m = 64 on n = 16: lambda = 1, 1, m/n, m/n, (m/n)^2; x0 and x1 collapsed by default.
  const std::uint64_t m = 64, n = 16, l = 2, q = m / n;
  const nlohmann::json j = json("tables --topology hypercube --m 64 --n 16 --l 2");
  EXPECT_NE(j.at("clustering").get<std::string>().find("x0,x1"), std::string::npos);
  EXPECT_EQ(row(j, "one-to-one").at("omp_cycles"), iwr(1, l));
  EXPECT_EQ(row(j, "all-to-all broadcast").at("omp_cycles"), iwr(n - 1, q * l));
  EXPECT_EQ(row(j, "all-to-all personalized").at("omp_cycles"), iwr(n - 1, q * q * l));
  EXPECT_EQ(row(j, "one-to-all personalized").at("formula_cycles"), iwr(n - 1, q * l));
  EXPECT_EQ(row(j, "one-to-all broadcast").at("formula_cycles"), iwr(n - 1, l));
  const nlohmann::json other =
      json("tables --topology hypercube --m 64 --n 16 --l 2 --collapse x4,x5");
  EXPECT_NE(other.at("clustering").get<std::string>().find("x4,x5"), std::string::npos);
  EXPECT_EQ(row(other, "all-to-all personalized").at("omp_cycles"), iwr(n - 1, q * q * l));
}

TEST_F(Tables, ParametersChangeBothSides) {
  // k1 = 2, k2 = 3, tau = 2, alpha = 20, beta = 4, gamma = 0: t_h = k1 (alpha - beta) = 32,
  // each word k2 tau = 6 flits; one-to-one on the 3-cube: node 0 -> node 7, 3 hops.
  const nlohmann::json j = json(
      "tables --topology hypercube --m 8 --n 8 --l 3 --k1 2 --k2 3 --tau 2 --alpha 20 --beta 4 "
      "--gamma 0");
  EXPECT_EQ(j.at("startup_cycles"), 32);
  EXPECT_EQ(j.at("flits_per_word"), 6);
  const nlohmann::json& one = row(j, "one-to-one");
  EXPECT_EQ(one.at("native_cycles"), 32 + (3 + 1) + (3 * 6 + 1));
  EXPECT_EQ(one.at("omp_cycles"), 2 * (20 + 4 * 2 + 1 * 2 * 3) + 0);
  // Table 4 with k3 = (20 - 4)/2 = 8, delta = 4/2 = 2, log m = 3.
  EXPECT_DOUBLE_EQ(one.at("paper_ratio").get<double>(),
                   ((2 + 3) * 2 * 8.0 + (2 * 3 / 3.0) * 3) / (2 * 8.0 + 2 * (1 + 2) * 3));
}

TEST_F(Tables, Torus16x16OnSixteenProcessors) {
  const std::uint64_t m = 256, n = 16, l = 1, q = m / n;
  const nlohmann::json j = json("tables --topology torus --m 256 --n 16 --l 1");
  EXPECT_EQ(j.at("paper_table"), "Table 5");
  EXPECT_EQ(j.at("k2"), 8);  // log2 256
  ASSERT_EQ(j.at("rows").size(), 5u);
  for (std::size_t i = 0; i < kPatterns.size(); ++i) {
    EXPECT_EQ(j.at("rows")[i].at("pattern"), kPatterns[i]);
    EXPECT_TRUE(j.at("rows")[i].at("omp_ok").get<bool>());
    EXPECT_TRUE(j.at("rows")[i].at("native_ok").get<bool>());
  }
  // Clustered by columns: lambda = m/n = 16 and (m/n)^2 = 256.
  EXPECT_EQ(row(j, "one-to-one").at("omp_cycles"), iwr(1, l));
  EXPECT_EQ(row(j, "all-to-all broadcast").at("omp_cycles"), iwr(n - 1, q * l));
  EXPECT_EQ(row(j, "all-to-all personalized").at("omp_cycles"), iwr(n - 1, q * q * l));
  // The omp beats the native torus for one-to-one and all-to-all broadcast (Theorem 3).
  for (const char* p : {"one-to-one", "all-to-all broadcast"}) {
    EXPECT_LT(row(j, p).at("omp_cycles").get<std::uint64_t>(),
              row(j, p).at("native_cycles").get<std::uint64_t>())
        << p;
  }
  // All-to-all broadcast by the row-then-column gather: 15 one-hop steps of one 8-flit word,
  // then 15 of a row's 16 words. All-to-all personalized: the fastest of the three tried.
  EXPECT_EQ(row(j, "all-to-all broadcast").at("native_algorithm"), "row-column gather");
  EXPECT_EQ(row(j, "all-to-all broadcast").at("native_cycles"),
            15 * (56 + 2 + 8 + 1) + 15 * (56 + 2 + 16 * 8 + 1));
  const std::string a2a = row(j, "all-to-all personalized").at("native_algorithm");
  EXPECT_TRUE(a2a == "a1" || a2a == "suh" || a2a == "two-phase") << a2a;
  EXPECT_LT(row(j, "all-to-all personalized").at("native_cycles").get<std::uint64_t>(),
            row(j, "all-to-all personalized").at("native_direct_cycles").get<std::uint64_t>());
  // One-to-one: node 0 -> (8, 8) = node 136, 16 hops; t_h = 56, F = 8 + 1.
  EXPECT_EQ(row(j, "one-to-one").at("destination"), 136);
  EXPECT_EQ(row(j, "one-to-one").at("native_cycles"), 56 + 17 + 9);
  // Table 5 row m = n^2, torus column as printed; vectorized column per Eq. 1 and Table 2.
  const double k1k3 = 4 * 14.0, k2 = 8, k3 = 14, delta = 2, dn = 16, dl = 1;
  EXPECT_DOUBLE_EQ(row(j, "one-to-one").at("paper_ratio").get<double>(),
                   ((dn + 6) * k1k3 + dl / 2 * k2) / (2 * k3 + 2 * (1 + delta) * dl));
  EXPECT_DOUBLE_EQ(row(j, "all-to-all broadcast").at("paper_ratio").get<double>(),
                   (2 * dn * k1k3 + dl * dn * dn * k2) / (2 * k3 + 2 * (dn - 1 + delta) * dn * dl));
  EXPECT_DOUBLE_EQ(row(j, "all-to-all personalized").at("paper_ratio").get<double>(),
                   (2 * dn * k1k3 + 2 * dl * std::pow(dn, 4) * k2) /
                       (2 * k3 + 2 * (dn - 1 + delta) * dn * dn * dl));
}

TEST_F(Tables, TextTableNamesEveryPatternAndTheNormalization) {
  const Outcome o = run("tables --topology torus --m 16 --n 4 --l 2");
  ASSERT_EQ(o.exit_code, 0) << o.err;
  for (const std::string& p : kPatterns) {
    EXPECT_NE(o.out.find(p), std::string::npos) << p;
  }
  for (const char* text : {"Table 5", "Eq. 3", "k1 = 4", "k2 = 4", "t_h = k1 k3 tau = 56",
                           "torus 4x4 by columns", "errata of [PH91], docs/references.md"}) {
    EXPECT_NE(o.out.find(text), std::string::npos) << text;
  }
  // Each row's cycle columns are the JSON's: omp, native, then (after the two ratios) direct.
  const nlohmann::json j = json("tables --topology torus --m 16 --n 4 --l 2");
  std::istringstream lines(o.out);
  std::size_t rows = 0;
  for (std::string line; std::getline(lines, line);) {
    for (const std::string& p : kPatterns) {
      if (line.rfind("  " + p + " ", 0) != 0 || line.size() < 51) {
        continue;
      }
      ++rows;
      const nlohmann::json& r = row(j, p);
      std::istringstream figures(line.substr(51));  // after pattern, d, lambda, T and the mark
      std::uint64_t omp = 0, native = 0, direct = 0;
      std::string native_ratio, paper_ratio;
      figures >> omp >> native >> native_ratio >> paper_ratio >> direct;
      EXPECT_EQ(omp, r["omp_cycles"].get<std::uint64_t>()) << line;
      EXPECT_EQ(native, r["native_cycles"].get<std::uint64_t>()) << line;
      EXPECT_EQ(direct, r["native_direct_cycles"].get<std::uint64_t>()) << line;
    }
  }
  EXPECT_EQ(rows, kPatterns.size()) << o.out;
  // Some row's direct program takes other cycles than its collective, so the columns differ.
  EXPECT_TRUE(std::any_of(j["rows"].begin(), j["rows"].end(), [](const nlohmann::json& r) {
    return r["native_cycles"] != r["native_direct_cycles"];
  }));
}

TEST_F(Tables, BadInputExitsTwoNamingTheOption) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--topology hypercube --m 12 --n 4", "--m"},
      {"--topology hypercube --m 16 --n 32", "--n"},
      {"--topology hypercube --m 16 --n 6", "--n"},
      {"--topology torus --m 20 --n 4", "--m"},
      {"--topology torus --m 64 --n 16", "--m"},
      {"--topology torus --m 16 --n 32", "--n"},
      {"--topology mesh --m 16 --n 4", "--topology"},
      {"--m 16 --n 4", "--topology"},
      {"--topology hypercube --n 4", "--m"},
      {"--topology hypercube --m 16 --n 4 --beta 20", "--beta"},
      {"--topology hypercube --m 16 --n 16 --collapse x0", "--collapse"},
      {"--topology hypercube --m 16 --n 4 --ports two", "--ports"},
  };
  for (const auto& [args, option] : cases) {
    const Outcome o = run("tables " + args);
    EXPECT_EQ(o.exit_code, 2) << args;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << args << ": " << o.err;
    EXPECT_NE(o.err.find(option), std::string::npos) << args << ": " << o.err;
    EXPECT_TRUE(o.out.empty()) << args;
  }
}

}  // namespace
