// `orthosim lcc` (sw/cli): the contention it reports before and after against e-cube paths routed
// and counted here, its ordering applied to the node numbers here, the node relabeling file that
// `run --embedding` reads, and bad input refused before anything is written.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
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

using NodeMap = std::function<std::uint32_t(std::uint32_t)>;

/// [LCC] section 6.1's permutations on d address bits, written out bit by bit.
std::uint32_t bit_reverse(std::uint32_t x, std::uint32_t d) {
  std::uint32_t y = 0;
  for (std::uint32_t i = 0; i < d; ++i) {
    y |= ((x >> i) & 1U) << (d - 1 - i);
  }
  return y;
}
std::uint32_t transpose(std::uint32_t x, std::uint32_t d) {
  const std::uint32_t half = d / 2;
  return (x >> half) | ((x & ((1U << half) - 1)) << half);
}

/// Bit k of the result is bit r[k] of x.
std::uint32_t permute_bits(const std::vector<std::uint32_t>& r, std::uint32_t x) {
  std::uint32_t y = 0;
  for (std::size_t k = 0; k < r.size(); ++k) {
    y |= ((x >> r[k]) & 1U) << k;
  }
  return y;
}

/// Routes each (source, destination) by e-cube (differing bits corrected lowest dimension first)
/// and returns the largest number of paths on one channel per dimension.
std::vector<std::uint64_t> ecube_contention(
    const std::vector<std::pair<std::uint32_t, std::uint32_t>>& messages, std::uint32_t d) {
  std::vector<std::uint64_t> load(std::size_t{d} << d, 0);
  for (auto [at, to] : messages) {
    for (std::uint32_t dim = 0; dim < d; ++dim) {
      if (((at ^ to) >> dim) & 1U) {
        ++load[std::size_t{at} * d + dim];
        at ^= 1U << dim;
      }
    }
  }
  std::vector<std::uint64_t> per_dim(d, 0);
  for (std::size_t c = 0; c < load.size(); ++c) {
    per_dim[c % d] = std::max(per_dim[c % d], load[c]);
  }
  return per_dim;
}

/// Every node x sends to f(x), both relabeled by the ordering r.
std::vector<std::uint64_t> contention_after(const NodeMap& f, std::uint32_t d,
                                            const std::vector<std::uint32_t>& r) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> messages;
  for (std::uint32_t x = 0; x < (1U << d); ++x) {
    messages.emplace_back(permute_bits(r, x), permute_bits(r, f(x)));
  }
  return ecube_contention(messages, d);
}

std::vector<std::uint32_t> identity(std::uint32_t d) {
  std::vector<std::uint32_t> r(d);
  for (std::uint32_t k = 0; k < d; ++k) {
    r[k] = k;
  }
  return r;
}

nlohmann::json lcc_json(const std::vector<std::string>& args) {
  const Result r = run(args);
  EXPECT_EQ(r.code, sw::kExitOk) << joined(args) << "\n" << r.err;
  EXPECT_EQ(r.err, "");
  nlohmann::json j;
  EXPECT_NO_THROW(j = nlohmann::json::parse(r.out)) << r.out;
  return j;
}

std::vector<std::uint32_t> ordering_of(const nlohmann::json& j, std::uint32_t d) {
  const auto r = j.at("ordering").get<std::vector<std::uint32_t>>();
  std::vector<std::uint32_t> sorted = r;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, identity(d)) << "not an ordering of the address bits";
  return r;
}

TEST(CliLcc, ReportsEachPatternsContentionBeforeAndAfterTheOrdering) {
  const std::uint32_t d = 8;
  const std::vector<std::pair<std::string, NodeMap>> patterns = {
      {"transpose", [](std::uint32_t x) { return transpose(x, 8); }},
      {"bitrev", [](std::uint32_t x) { return bit_reverse(x, 8); }},
      {"reverse-flip", [](std::uint32_t x) { return bit_reverse(x, 8) ^ 0xFFU; }}};
  // One pattern: its own optimum, contention-free for these LCPs ([LCC] Corollary 1).
  for (const auto& [name, f] : patterns) {
    SCOPED_TRACE(name);
    const nlohmann::json j = lcc_json({"lcc", "--dim", "8", "--pattern", name, "--json"});
    const std::vector<std::uint32_t> r = ordering_of(j, d);
    ASSERT_EQ(j.at("patterns").size(), 1U);
    const nlohmann::json& p = j["patterns"][0];
    EXPECT_EQ(p.at("pattern"), name);
    EXPECT_EQ(p.at("Ti_before").get<std::vector<std::uint64_t>>(),
              contention_after(f, d, identity(d)));
    EXPECT_EQ(p.at("Ti_after").get<std::vector<std::uint64_t>>(), contention_after(f, d, r));
    EXPECT_EQ(p.at("T_before"), 8U);  // section 2.3: 8 paths on one channel
    EXPECT_EQ(p.at("T_after"), 1U);
    EXPECT_EQ(j.at("T_max_after"), 1U);
  }
  // The three together: no ordering does better than 2 for all of them (every one of the 8!
  // orderings is tried in lcc_reordering_test).
  const nlohmann::json j = lcc_json({"lcc", "--dim", "8", "--pattern", "transpose", "--pattern",
                                     "bitrev", "--pattern", "reverse-flip", "--json"});
  const std::vector<std::uint32_t> r = ordering_of(j, d);
  ASSERT_EQ(j.at("patterns").size(), 3U);
  std::uint64_t worst = 0;
  for (std::size_t k = 0; k < patterns.size(); ++k) {
    const nlohmann::json& p = j["patterns"][k];
    const std::vector<std::uint64_t> after = contention_after(patterns[k].second, d, r);
    EXPECT_EQ(p.at("pattern"), patterns[k].first);
    EXPECT_EQ(p.at("Ti_after").get<std::vector<std::uint64_t>>(), after);
    EXPECT_EQ(p.at("T_after"), *std::max_element(after.begin(), after.end()));
    worst = std::max(worst, *std::max_element(after.begin(), after.end()));
  }
  EXPECT_EQ(worst, 2U);
  EXPECT_EQ(j.at("T_max_after"), 2U);

  // The table says the same.
  const Result table = run({"lcc", "--dim", "8", "--pattern", "transpose"});
  EXPECT_EQ(table.code, sw::kExitOk) << table.err;
  EXPECT_TRUE(contains(table.out, "before  T = 8")) << table.out;
  EXPECT_TRUE(contains(table.out, "after   T = 1")) << table.out;
}

TEST(CliLcc, AnLccGatherReachesCorollaryTwosMinimum) {
  // y = x >> 1 (y_i = x_(i+1), y_3 = 0): a gather of rank 3 on 4 bits. Corollary 2: T after is
  // 2^((4-1) - 3) = 1, where the identity ordering has T = 2 (dimensions 1 to 3).
  const NodeMap f = [](std::uint32_t x) { return x >> 1; };
  const nlohmann::json j =
      lcc_json({"lcc", "--dim", "4", "--pattern", "lcc:0100/0010/0001/0000,0000", "--json"});
  const nlohmann::json& p = j.at("patterns").at(0);
  EXPECT_EQ(p.at("Ti_before").get<std::vector<std::uint64_t>>(),
            contention_after(f, 4, identity(4)));
  EXPECT_EQ(p.at("Ti_after").get<std::vector<std::uint64_t>>(),
            contention_after(f, 4, ordering_of(j, 4)));
  EXPECT_EQ(p.at("T_before"), 2U);
  EXPECT_EQ(p.at("T_after"), 1U);
}

// The table names each pattern's kind by the rank of A (a permutation has full rank), lists T_i
// over the dimensions as the JSON does, and with several patterns the largest T after over them.
TEST(CliLcc, TheTableNamesEachPatternsKindAndItsContentionPerDimension) {
  // y = x >> 1 on 4 bits: A has rank 3, a gather (the test above).
  const std::string gather = "lcc:0100/0010/0001/0000,0000";
  const nlohmann::json j = lcc_json({"lcc", "--dim", "4", "--pattern", gather, "--json"});
  EXPECT_EQ(j.at("dim"), 4U);
  const Result text = run({"lcc", "--dim", "4", "--pattern", gather});
  ASSERT_EQ(text.code, sw::kExitOk) << text.err;
  EXPECT_TRUE(contains(text.out, "(LCG, rank 3)\n")) << text.out;
  EXPECT_TRUE(contains(text.out, "optimal for the pattern")) << text.out;
  std::string ordering;
  for (const auto& k : j.at("ordering")) {
    ordering += (ordering.empty() ? "(" : ", ") + k.dump();
  }
  EXPECT_TRUE(contains(text.out, "  ordering R = " + ordering + "), optimal")) << text.out;
  const auto listed = [](const nlohmann::json& t) {
    std::string out;
    for (const auto& v : t) {
      out += (out.empty() ? "" : " ") + v.dump();
    }
    return out;
  };
  const nlohmann::json& p = j.at("patterns").at(0);
  EXPECT_TRUE(contains(text.out, "  before  T = " + p.at("T_before").dump())) << text.out;
  EXPECT_TRUE(contains(text.out, "  T_i = " + listed(p.at("Ti_before")) + "\n  after")) << text.out;
  EXPECT_TRUE(contains(text.out, "  T_i = " + listed(p.at("Ti_after")) + "\n\n")) << text.out;

  // transpose, bitrev, reverse-flip on 8 bits: no ordering does better than 2 for all three (the
  // test above), and transpose alone is a permutation.
  // The last pattern's own T is 1 ([LCC] section 5: 2, 1, 1).
  const Result three = run({"lcc", "--dim", "8", "--pattern", "transpose", "--pattern", "bitrev",
                            "--pattern", "reverse-flip"});
  ASSERT_EQ(three.code, sw::kExitOk) << three.err;
  EXPECT_TRUE(contains(three.out, "orthosim lcc: 3 LCCs on the ")) << three.out;
  EXPECT_TRUE(contains(three.out, "least worst T over the patterns")) << three.out;
  EXPECT_TRUE(contains(three.out, "transpose (LCP)\n")) << three.out;
  EXPECT_TRUE(contains(three.out, "\nT after, the largest over the patterns: 2\n")) << three.out;
  // Two patterns are plural too.
  const Result two = run({"lcc", "--dim", "8", "--pattern", "transpose", "--pattern", "bitrev"});
  ASSERT_EQ(two.code, sw::kExitOk) << two.err;
  EXPECT_TRUE(contains(two.out, "orthosim lcc: 2 LCCs on the ")) << two.out;
}

// A = I, b = 0: every node sends to itself, so no message crosses a channel and every T_i is 0,
// before and after (the largest over no load is 0, not 1).
TEST(CliLcc, TheIdentityLccHasNoContention) {
  const nlohmann::json j = lcc_json({"lcc", "--dim", "2", "--pattern", "lcc:10/01,00", "--json"});
  const nlohmann::json& p = j.at("patterns").at(0);
  EXPECT_EQ(p.at("Ti_before").get<std::vector<std::uint64_t>>(),
            (std::vector<std::uint64_t>{0, 0}));
  EXPECT_EQ(p.at("Ti_after").get<std::vector<std::uint64_t>>(), (std::vector<std::uint64_t>{0, 0}));
  EXPECT_EQ(p.at("T_before"), 0U);
  EXPECT_EQ(p.at("T_after"), 0U);
  EXPECT_EQ(j.at("T_max_after"), 0U);
  const Result text = run({"lcc", "--dim", "2", "--pattern", "lcc:10/01,00"});
  ASSERT_EQ(text.code, sw::kExitOk) << text.err;
  EXPECT_TRUE(contains(text.out, "  before  T = 0     T_i = 0 0\n")) << text.out;
  EXPECT_TRUE(contains(text.out, "  after   T = 0     T_i = 0 0\n")) << text.out;
}

TEST_F(CliProgram, LccOutIsANodeMapThatRunEmbeddingPlacesTheProgramBy) {
  // Bit-reverse on the 4-cube: T = 2 on the identity placement, 1 reordered.
  const std::uint32_t d = 4;
  const std::string map = path("bitrev.map");
  const nlohmann::json j =
      lcc_json({"lcc", "--dim", "4", "--pattern", "bitrev", "--out", map, "--json"});
  const std::vector<std::uint32_t> r = ordering_of(j, d);
  // The header names the cube and the ordering as docs/lcc.md shows them.
  std::string header = "# orthosim lcc --dim 4: ordering R = (";
  for (std::size_t k = 0; k < r.size(); ++k) {
    header += (k == 0 ? "" : ", ") + std::to_string(r[k]);
  }
  header += "); program node x runs on network node Qx\n";
  EXPECT_EQ(slurp(map).rfind(header, 0), 0U) << slurp(map);
  std::istringstream lines(slurp(map));
  std::string line;
  std::vector<std::uint32_t> entries;
  while (std::getline(lines, line)) {
    if (!line.empty() && line[0] != '#') {
      entries.push_back(static_cast<std::uint32_t>(std::stoul(line)));
    }
  }
  ASSERT_EQ(entries.size(), 16U);
  for (std::uint32_t x = 0; x < 16; ++x) {
    EXPECT_EQ(entries[x], permute_bits(r, x)) << x;
  }

  std::string program = "nodes 16\nwords 2\nstep bit_reverse\n";
  for (std::uint32_t x = 0; x < 16; ++x) {
    if (bit_reverse(x, d) != x) {
      program += "  send " + std::to_string(x) + " -> " + std::to_string(bit_reverse(x, d)) + "\n";
    }
  }
  const std::string mcp = file("bitrev.mcp", program);
  for (const bool reordered : {false, true}) {
    FakeRunner runner;
    std::vector<std::string> args = {"run", mcp, "--arch", "hypercube", "--dim", "4"};
    if (reordered) {
      args.insert(args.end(), {"--embedding", map});
    }
    const Result result = run(args, runner);
    ASSERT_EQ(result.code, sw::kExitOk) << result.err;
    ASSERT_EQ(runner.network_requests.size(), 1U);
    std::vector<std::pair<std::uint32_t, std::uint32_t>> messages;
    for (const sw::Message& m : runner.network_requests[0].program.manifest.messages) {
      messages.emplace_back(m.source, m.destination);
    }
    ASSERT_EQ(messages.size(), 12U);  // 4 of the 16 nodes are their own bit-reverse
    for (std::uint32_t x = 0; x < 16; ++x) {
      if (bit_reverse(x, d) != x) {
        const std::pair<std::uint32_t, std::uint32_t> placed =
            reordered ? std::make_pair(permute_bits(r, x), permute_bits(r, bit_reverse(x, d)))
                      : std::make_pair(x, bit_reverse(x, d));
        EXPECT_NE(std::find(messages.begin(), messages.end(), placed), messages.end()) << x;
      }
    }
    const std::vector<std::uint64_t> t = ecube_contention(messages, d);
    EXPECT_EQ(*std::max_element(t.begin(), t.end()), reordered ? 1U : 2U);
  }
}

TEST_F(CliProgram, LccBadInputIsRefusedBeforeAnythingIsWritten) {
  const std::string out = path("map.txt");
  const std::string kept = file("kept.txt", "mine\n");
  fs::create_directories(dir_ / "adir");
  const std::string bad_row = "lcc:1000/01x0/0010/0001,0000";
  expect_refused_before_running({
      {{"lcc", "--pattern", "bitrev"}, {"--dim", "hypercube dimension"}},
      {{"lcc", "--dim", "0", "--pattern", "bitrev"}, {"--dim", "1 to 10", "'0'"}},
      {{"lcc", "--dim", "11", "--pattern", "bitrev"}, {"--dim", "'11'"}},
      {{"lcc", "--dim", "eight", "--pattern", "bitrev"}, {"--dim", "'eight'"}},
      {{"lcc", "--dim", "8"}, {"--pattern", "required"}},
      {{"lcc", "--dim", "8", "--pattern", "uniform"}, {"--pattern", "an LCC", "'uniform'"}},
      {{"lcc", "--dim", "8", "--pattern", "shuffle"}, {"--pattern", "'shuffle'"}},
      {{"lcc", "--dim", "7", "--pattern", "transpose"}, {"--pattern", "even dimension"}},
      {{"lcc", "--dim", "4", "--pattern", bad_row, "--out", out}, {"--pattern", "row 1", "'01x0'"}},
      {{"lcc", "--dim", "4", "--pattern", "lcc:1000/0100/0010,0000"}, {"--pattern", "4 rows"}},
      {{"lcc", "--dim", "4", "--pattern", "lcc:1000,0000"}, {"--pattern", "found 1 row in"}},
      {{"lcc", "--dim", "4", "--pattern", "lcc:1000/0100/0010/0001"}, {"--pattern", "'A,b'"}},
      {{"lcc", "--dim", "4", "--pattern", "bitrev", "--pattern", "lcc:1/0,0", "--out", kept},
       {"--pattern (2 of 2)", "4 rows"}},
      {{"lcc", "--dim", "4", "--pattern", "bitrev", "--out", (dir_ / "adir").string()},
       {"--out", "a directory"}},
      {{"lcc", "--dim", "4", "--pattern", "bitrev", "--out", path("missing/map.txt")}, {"--out"}},
  });
  EXPECT_FALSE(fs::exists(out));
  EXPECT_FALSE(fs::exists(out + ".partial"));
  EXPECT_EQ(slurp(kept), "mine\n");
}

}  // namespace
}  // namespace orthosim
