// Unit tests of the co-simulation comparator (sc_models/kernel/lockstep_checker.hpp): every
// comparison counts, and only the first mismatch is kept with its cycle, instance and values.
#include "sc_models/kernel/lockstep_checker.hpp"

#include <gtest/gtest.h>

namespace {

using orthosim::sc::LockstepChecker;

TEST(LockstepChecker, CountsEveryComparisonAndKeepsTheFirstMismatch) {
  LockstepChecker checker("omp.bc1");
  EXPECT_TRUE(checker.check(3, "grant", 1, 1));
  EXPECT_FALSE(checker.first_mismatch().has_value());
  EXPECT_FALSE(checker.check(16, "bus_data", 0x33aea64b, 0x33aea643));
  EXPECT_FALSE(checker.check(17, "grant", 0, 1));  // a later mismatch is reported, not kept
  EXPECT_TRUE(checker.check(18, "grant", 2, 2));
  EXPECT_EQ(checker.comparisons(), 4u);
  ASSERT_TRUE(checker.first_mismatch().has_value());
  const orthosim::sc::Mismatch& m = *checker.first_mismatch();
  EXPECT_EQ(m.cycle, 16u);
  EXPECT_EQ(m.instance, "omp.bc1");
  EXPECT_EQ(m.signal, "bus_data");
  EXPECT_EQ(m.model, 0x33aea64bu);
  EXPECT_EQ(m.rtl, 0x33aea643u);
}

}  // namespace
