// End-to-end: `orthosim gen cc-cube`, `orthosim embed` and `orthosim run --embedding` as a user
// chains them. [XOR] Fig. 4 (the CC 3-cube on a line: std 7 Tc, byweight 9 Tc) run on the
// emulated store-and-forward line, and `embed --compare` on a 16-node ring, against the
// recurrence of [XOR] IV.A written here with a stage costing its computation plus
// t_s + F + (h + 1)(delay + F - 1) (docs/networks.md).
#include <gtest/gtest.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/cli_process.hpp"

namespace {

using orthosim::testing_support::Outcome;

class EmbedE2e : public orthosim::testing_support::CliTest {};

/// One stage with 4 compute cycles and a 1-word message (F = 2 flits, router delay 1, t_s 0).
std::uint64_t stage(std::uint64_t hops) { return 4 + 2 + (hops + 1) * 2; }

TEST_F(EmbedE2e, Fig4OnTheEmulatedLineStdSevenTcByweightAtLeastNine) {
  ASSERT_EQ(run("gen cc-cube --dim 3 --len 1 --compute 4 --out cc3.mcp").exit_code, 0);
  ASSERT_EQ(run("embed --cube 3 --onto line --dims 8 --scheme std --out std.emb").exit_code, 0);
  ASSERT_EQ(run("embed --cube 3 --onto line --dims 8 --scheme byweight --out bw.emb").exit_code, 0);
  const std::string line = "run cc3.mcp --arch mesh --dims 8 --switching saf --buffers 2 --json ";
  const Outcome s = run(line + "--embedding std.emb");
  ASSERT_EQ(s.exit_code, 0) << s.err;
  // std: D = 1, 2, 4 in the three stages (7 Tc).
  EXPECT_EQ(nlohmann::json::parse(s.out)["total_cycles"], stage(1) + stage(2) + stage(4));
  const Outcome b = run(line + "--embedding bw.emb");
  ASSERT_EQ(b.exit_code, 0) << b.err;
  // byweight: 9 Tc of distance with its waiting intervals, 3 x (4 + 4) + 2 x 9 = 42 cycles by the
  // recurrence; its conflicts can only add.
  EXPECT_GE(nlohmann::json::parse(b.out)["total_cycles"].get<std::uint64_t>(), 3 * 8 + 2 * 9);
}

TEST_F(EmbedE2e, CompareOnASixteenNodeRingMatchesTheRecurrenceForStdAndXor) {
  const Outcome o =
      run("embed --compare --cube 4 --onto ring --dims 16 --switching saf --compute 4 --json");
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const nlohmann::json j = nlohmann::json::parse(o.out);
  // std: 1, 2, 4, 8 links; xor ([XOR] III, Fig. 5): 1, 2, 4, 4.
  EXPECT_EQ(j["runs"][0]["cycles"], stage(1) + stage(2) + stage(4) + stage(8));
  EXPECT_EQ(j["runs"][1]["cycles"], stage(1) + stage(2) + stage(4) + stage(4));
  EXPECT_EQ(j["runs"][0]["predicted_cycles"], j["runs"][0]["cycles"]);
  EXPECT_EQ(j["runs"][1]["predicted_cycles"], j["runs"][1]["cycles"]);
  EXPECT_GE(j["runs"][2]["cycles"].get<std::uint64_t>(),
            j["runs"][2]["predicted_cycles"].get<std::uint64_t>());
  EXPECT_TRUE(j["runs"][2]["delivered"].get<bool>());
}

TEST_F(EmbedE2e, TableOneExitsZeroWhenEveryRowMatches) {
  const Outcome o = run("embed --table1");
  EXPECT_EQ(o.exit_code, 0) << o.err;
  EXPECT_NE(o.out.find("every row matches the paper"), std::string::npos) << o.out;
}

}  // namespace
