// Unit tests of the passive word storage (sc_models/kernel/word_store.hpp) without the kernel:
// unwritten words, growth on first write, the forgotten front released and grown back, ranges,
// the depth checks and the held-words tally. Every expected count is worked out in the comments.
#include "sc_models/kernel/word_store.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace {

using orthosim::sc::HeldWords;
using orthosim::sc::WordStore;
using orthosim::sw::kUnwrittenWord;
using orthosim::sw::Word;

constexpr Word U = kUnwrittenWord;

TEST(WordStore, StorageGrowsToTheHighestWrittenWordAndUnwrittenWordsReadAsSuch) {
  HeldWords tally;
  WordStore s(8, &tally);
  EXPECT_EQ(s.held(), 0u);
  EXPECT_EQ(s.read(7), U);
  s.write(5, 42);  // words 0..5 held: 6
  EXPECT_EQ(s.held(), 6u);
  EXPECT_EQ(s.read(5), 42u);
  EXPECT_EQ(s.read(4), U);
  EXPECT_EQ(s.read(6), U);
  EXPECT_EQ(tally.now, 6u);
  EXPECT_EQ(tally.peak, 6u);
  EXPECT_NO_THROW(static_cast<void>(s.read(7)));
  EXPECT_THROW(static_cast<void>(s.read(8)), std::out_of_range);
  EXPECT_THROW(s.write(8, 1), std::out_of_range);
}

TEST(WordStore, TheForgottenFrontIsReleasedAndAWriteBelowItGrowsItBack) {
  HeldWords tally;
  WordStore s(16, &tally);
  const std::vector<Word> words = {1, 2, 3, 4};
  s.write_range(4, 4, words.data());  // words 0..7 held: 8
  EXPECT_EQ(s.held(), 8u);
  s.forget(4, 2);  // 4 and 5 forgotten: 0..5 hold nothing and go, 6..7 stay: 2
  EXPECT_EQ(s.held(), 2u);
  EXPECT_EQ(tally.now, 2u);
  EXPECT_EQ(tally.peak, 8u);
  EXPECT_EQ(s.read(4), U);
  EXPECT_EQ(s.read(6), 3u);
  s.write(2, 9);  // below the front: 2..7 held: 6
  EXPECT_EQ(s.held(), 6u);
  std::vector<Word> out(10, 0);
  s.read_range(0, 10, out.data());
  EXPECT_EQ(out, (std::vector<Word>{U, U, 9, U, U, U, 3, 4, U, U}));
  // A stored run of words is handed out in place; one reaching past the stored words or below
  // them is not.
  const Word* run = s.stored_range(6, 2);
  ASSERT_NE(run, nullptr);
  EXPECT_EQ(run[0], 3u);
  EXPECT_EQ(run[1], 4u);
  EXPECT_EQ(s.stored_range(6, 3), nullptr);
  EXPECT_EQ(s.stored_range(1, 1), nullptr);
  EXPECT_EQ(s.stored_range(6, 0), nullptr);
  // A forgotten word in the middle is unwritten but keeps its place until the front reaches it.
  s.forget(6, 1);
  EXPECT_EQ(s.read(6), U);
  EXPECT_EQ(s.held(), 6u);
  s.forget(2, 1);  // 2..6 hold nothing now: only 7 stays
  EXPECT_EQ(s.held(), 1u);
  EXPECT_EQ(s.read(7), 4u);
  s.forget(0, 16);
  EXPECT_EQ(s.held(), 0u);
  EXPECT_EQ(tally.now, 0u);
}

TEST(WordStore, ARangeBelowTheFrontIsFilledFromItsStart) {
  WordStore s(16);
  const std::vector<Word> words = {5, 6, 7};
  s.write(10, 7);
  s.write(12, 1);
  s.forget(10, 1);  // 0..11 hold nothing: only 12 stays
  EXPECT_EQ(s.held(), 1u);
  s.write_range(3, 3, words.data());  // 3..12 held: 10
  EXPECT_EQ(s.held(), 10u);
  std::vector<Word> out(6, 0);
  s.read_range(2, 6, out.data());
  EXPECT_EQ(out, (std::vector<Word>{U, 5, 6, 7, U, U}));
  // Reading only words past the stored ones, or before them, gives unwritten words.
  s.read_range(13, 3, out.data());
  EXPECT_EQ(std::vector<Word>(out.begin(), out.begin() + 3), (std::vector<Word>{U, U, U}));
  s.read_range(0, 2, out.data());
  EXPECT_EQ(std::vector<Word>(out.begin(), out.begin() + 2), (std::vector<Word>{U, U}));
}

TEST(WordStore, RangesAreCheckedAgainstTheDepth) {
  WordStore s(8);
  std::vector<Word> out(2, 0);
  EXPECT_NO_THROW(s.read_range(6, 2, out.data()));
  EXPECT_THROW(s.read_range(7, 2, out.data()), std::out_of_range);
  EXPECT_THROW(static_cast<void>(s.fill_range(7, 2)), std::out_of_range);
  EXPECT_EQ(s.fill_range(0, 0), nullptr);
  EXPECT_NO_THROW(s.read_range(100, 0, out.data()));  // nothing asked, nothing checked
  Word* to = s.fill_range(6, 2);
  ASSERT_NE(to, nullptr);
  to[0] = 11;
  to[1] = 12;
  EXPECT_EQ(s.read(6), 11u);
  EXPECT_EQ(s.read(7), 12u);
}

TEST(WordStore, ClearReleasesEveryWordFromTheTally) {
  HeldWords tally;
  WordStore a(8, &tally);
  WordStore b(8, &tally);
  a.write(3, 1);  // 4
  b.write(1, 2);  // 2
  EXPECT_EQ(tally.now, 6u);
  a.clear();
  EXPECT_EQ(tally.now, 2u);
  EXPECT_EQ(tally.peak, 6u);
  EXPECT_EQ(a.held(), 0u);
  EXPECT_EQ(a.read(3), U);
  a.write(0, 5);  // the front starts at 0 again: 1
  EXPECT_EQ(a.held(), 1u);
  EXPECT_EQ(tally.now, 3u);
}

TEST(WordStore, ClearMovesTheFrontBackToWordZero) {
  HeldWords tally;
  WordStore s(8, &tally);
  s.write(5, 1);
  s.write(6, 2);
  s.forget(5, 1);  // 0..5 hold nothing and go: the front is at 6, 1 word held
  ASSERT_EQ(s.held(), 1u);
  s.clear();
  EXPECT_EQ(s.held(), 0u);
  // From power-on a write to word 0 holds word 0 alone; a front left at 6 would hold 0..5: 6.
  s.write(0, 3);
  EXPECT_EQ(s.held(), 1u);
  EXPECT_EQ(tally.now, 1u);
  EXPECT_EQ(s.read(0), 3u);
  EXPECT_EQ(s.read(6), U);
}

}  // namespace
