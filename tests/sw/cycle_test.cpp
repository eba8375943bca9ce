// Unit tests of the strong cycle type (sw/core/cycle.hpp): every operator against the same
// operation on plain integers, over all pairs of small counts.
#include "sw/core/cycle.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <sstream>

namespace {

using orthosim::sw::Cycle;

TEST(Cycle, EveryOperatorIsTheIntegersOwn) {
  for (std::uint64_t a = 0; a < 6; ++a) {
    for (std::uint64_t b = 0; b < 6; ++b) {
      const Cycle ca{a}, cb{b};
      EXPECT_EQ((ca + cb).count(), a + b);
      Cycle sum = ca;
      sum += cb;
      EXPECT_EQ(sum.count(), a + b);
      if (a >= b) {
        EXPECT_EQ((ca - cb).count(), a - b);
      }
      EXPECT_EQ((ca * b).count(), a * b);
      EXPECT_EQ((b * ca).count(), a * b);
      EXPECT_EQ(ca == cb, a == b) << a << " " << b;
      EXPECT_EQ(ca != cb, a != b) << a << " " << b;
      EXPECT_EQ(ca < cb, a < b) << a << " " << b;
      EXPECT_EQ(ca <= cb, a <= b) << a << " " << b;
      EXPECT_EQ(ca > cb, a > b) << a << " " << b;
      EXPECT_EQ(ca >= cb, a >= b) << a << " " << b;
    }
  }
  std::ostringstream text;
  text << Cycle{42};
  EXPECT_EQ(text.str(), "42");
  EXPECT_EQ(Cycle{}.count(), 0u);
}

}  // namespace
