// End to end: `orthosim exchange` and `orthosim gen complete-exchange` + `orthosim run` on the
// emulated torus (docs/complete-exchange.md). Expected cycles come from docs/networks.md's
// zero-load time t_s + (h + 1) delay + F (F = words + 1 flits, delay 1) summed step by step with
// [A2A] section 3.1's message sizes and the hop counts of A1's steps worked out here.
#include <gtest/gtest.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/cli_process.hpp"

namespace {

using orthosim::testing_support::Outcome;

class Exchange : public orthosim::testing_support::CliTest {
 protected:
  nlohmann::json json(const std::string& args) const {
    const Outcome o = run(args + " --json");
    EXPECT_EQ(o.exit_code, 0) << o.err;
    return nlohmann::json::parse(o.out);
  }
};

const nlohmann::json& algorithm(const nlohmann::json& j, const std::string& name) {
  for (const nlohmann::json& a : j.at("algorithms")) {
    if (a.at("algorithm") == name) {
      return a;
    }
  }
  ADD_FAILURE() << "no algorithm " << name;
  return j;
}

/// A1 on the 8 x 8 torus, one step per pair (blocks of the largest message, its hops): stage 1
/// trades N^2/2 then forwards N^2 over one link; stage 2 (phases 3 and 4 only at N = 8) moves N^2
/// blocks 4 then 2 links (2 and 1 master hops); stage 3 hands N^2 - 1 to the slave next door.
std::uint64_t a1_zero_load_8x8(std::uint64_t block_words, std::uint64_t startup) {
  const std::uint64_t n = 8;
  const std::vector<std::pair<std::uint64_t, std::uint64_t>> steps = {{n * n / 2, 1}, {n * n, 1},
                                                                      {n * n, 4},     {n * n, 4},
                                                                      {n * n, 2},     {n * n, 2},
                                                                      {n * n - 1, 1}};
  std::uint64_t total = 0;
  for (const auto& [blocks, hops] : steps) {
    total += startup + (hops + 1) + blocks * block_words + 1;
  }
  return total;
}

TEST_F(Exchange, MeasuredCyclesAreTheZeroLoadSumWhereNoLinkIsShared) {
  const nlohmann::json j =
      json("exchange --torus 8x8 --block 4 --startup 20 --algorithms a1,an-1,suh");
  const nlohmann::json& a1 = algorithm(j, "a1");
  EXPECT_EQ(a1.at("cycles").get<std::uint64_t>(), a1_zero_load_8x8(4, 20));
  for (const std::string name : {"a1", "an-1"}) {
    const nlohmann::json& a = algorithm(j, name);
    EXPECT_EQ(a.at("max_link_load"), 1) << name;
    EXPECT_EQ(a.at("cycles"), a.at("zero_load_cycles")) << name;
    EXPECT_TRUE(a.at("payload_ok").get<bool>()) << name;
    EXPECT_EQ(a.at("blocks_delivered"), 64 * 63) << name;
  }
  // [6]'s 4-hop moves are half the 8-ring: both classes go the positive way and share links,
  // and the wormhole routers serialize them.
  const nlohmann::json& suh = algorithm(j, "suh");
  EXPECT_EQ(suh.at("max_link_load"), 2);
  EXPECT_GT(suh.at("cycles").get<std::uint64_t>(), suh.at("zero_load_cycles").get<std::uint64_t>());
  EXPECT_TRUE(suh.at("payload_ok").get<bool>());
}

TEST_F(Exchange, RearrangementAddsItsCyclesPerGatheredBlockOfTheSlowestSender) {
  const std::uint64_t n = 8, r = 3;
  const std::uint64_t plain =
      algorithm(json("exchange --torus 8x8 --block 2 --algorithms a1"), "a1").at("cycles");
  const std::uint64_t with =
      algorithm(json("exchange --torus 8x8 --block 2 --rearrange-cycles 3 --algorithms a1"), "a1")
          .at("cycles");
  // The largest message of each step is gathered by a sender that keeps other blocks, except in
  // stage 1 step 2 where the slaves send all they hold: (N^3 + 18 N^2)/4 - 1 - N^2 blocks.
  EXPECT_EQ(with - plain, r * ((n * n * n + 18 * n * n) / 4 - 1 - n * n));
}

TEST_F(Exchange, GenThenRunIsTheSameRunAsExchanges) {
  const std::string mcp = (dir_ / "a1.mcp").string();
  ASSERT_EQ(run("gen complete-exchange --torus 4x4 --algorithm an-1 --block 3 --out '" + mcp + "'")
                .exit_code,
            0);
  const nlohmann::json ran =
      json("run '" + mcp + "' --arch torus --dims 4x4 --ports one --startup 7");
  EXPECT_TRUE(ran.at("payload_ok").get<bool>());
  const nlohmann::json ex = json("exchange --torus 4x4 --block 3 --startup 7 --algorithms an-1");
  EXPECT_EQ(ran.at("total_cycles"), algorithm(ex, "an-1").at("cycles"));
  EXPECT_EQ(ran.at("steps").size(), algorithm(ex, "an-1").at("steps"));
}

// A bad name of --algorithms is named in its list ('a1,' was refused as found '' alone).
TEST_F(Exchange, ABadAlgorithmIsNamedInItsList) {
  const std::string names = "orthosim exchange: --algorithms: expected a1 | an-1 | suh | "
                            "two-phase | direct, found ";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"a1,", names + "'' in 'a1,'"},
      {"a1,,suh", names + "'' in 'a1,,suh'"},
      {"suh,A1", names + "'A1' in 'suh,A1'"},
  };
  for (const auto& [list, line] : cases) {
    orthosim::testing_support::expect_refused_with(
        run("exchange --torus 4x4 --block 1 --algorithms " + list), line, list);
  }
}

TEST_F(Exchange, TheTableNamesTheFastest) {
  const Outcome o = run("exchange --torus 4x4 --block 1 --startup 50");
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_NE(o.out.find("fastest: "), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("every word checked"), std::string::npos) << o.out;
}

}  // namespace
