// BusController alone on a 4-processor omp: the arbiter, the modules and an index manipulator
// around it, a stand-in processor that records when it is resumed. Each access ends at its grant
// plus the Fig. 5 schedule of [PH91] (Eq. 1): alpha + beta (l - 1) + d tau l, computed here; the
// words land where the index set sends them; a controller that wants a module another holds is
// granted when that access ends.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <systemc>
#include <utility>
#include <vector>

#include "sc_models/kernel/word_store.hpp"
#include "sc_models/multiprocessor/interfaces.hpp"
#include "tests/support/block_bench.hpp"

namespace orthosim::sc {
namespace {

using testing_support::eq1;
using testing_support::OmpBlocks;
using testing_support::Script;
using testing_support::stat;

/// Records the cycle at which it is to continue.
class RecordingProcessor : public Resumable {
 public:
  explicit RecordingProcessor(const ClockDomain& clock) : clock_(clock) {}
  void resume_after(Cycle delay) override { resumed_at.push_back((clock_.now() + delay).count()); }
  std::vector<std::uint64_t> resumed_at;

 private:
  const ClockDomain& clock_;
};

// The storage the controller copies between, against a map of the words written and not
// forgotten: random writes (word by word, as a range, filled in place) and forgets, every word
// then read one by one, as a range and, where the store hands out its storage, in place.
TEST(WordStore, RangesReadAndWriteWhatWordByWordAccessWould) {
  std::mt19937 rng(3);
  const auto below = [&](std::uint32_t bound) { return static_cast<std::uint32_t>(rng() % bound); };
  int in_place_reads = 0;
  for (int trial = 0; trial < 40; ++trial) {
    constexpr std::uint32_t kDepth = 48;
    WordStore store(kDepth);
    std::map<std::uint32_t, Word> held;
    for (int op = 0; op < 30; ++op) {
      const std::uint32_t address = below(kDepth);
      const std::uint32_t count = 1 + below(kDepth - address);
      switch (below(4)) {
        case 0:
          store.write(address, static_cast<Word>(rng()));
          held[address] = store.read(address);
          break;
        case 1: {
          std::vector<Word> words(count);
          for (Word& w : words) {
            w = static_cast<Word>(rng());
          }
          store.write_range(address, count, words.data());
          for (std::uint32_t k = 0; k < count; ++k) {
            held[address + k] = words[k];
          }
          break;
        }
        case 2: {
          Word* to = store.fill_range(address, count);
          for (std::uint32_t k = 0; k < count; ++k) {
            to[k] = static_cast<Word>(rng());
            held[address + k] = to[k];
          }
          break;
        }
        default:
          store.forget(address, count);
          for (std::uint32_t k = 0; k < count; ++k) {
            held.erase(address + k);
          }
      }
      std::vector<Word> range(kDepth);
      store.read_range(0, kDepth, range.data());
      for (std::uint32_t a = 0; a < kDepth; ++a) {
        const auto it = held.find(a);
        const Word expected = it == held.end() ? sw::kUnwrittenWord : it->second;
        ASSERT_EQ(store.read(a), expected) << "trial " << trial << " op " << op << " word " << a;
        ASSERT_EQ(range[a], expected) << "trial " << trial << " op " << op << " word " << a;
      }
      const std::uint32_t from = below(kDepth);
      const std::uint32_t words = 1 + below(kDepth - from);
      if (const Word* in_place = store.stored_range(from, words)) {
        ++in_place_reads;
        for (std::uint32_t k = 0; k < words; ++k) {
          ASSERT_EQ(in_place[k], range[from + k]) << "trial " << trial << " op " << op;
        }
      }
    }
  }
  EXPECT_GT(in_place_reads, 100);
}

// A range past the depth is refused as the word-by-word access of its last word would be, also
// where address + count passes 2^32 (the last address must not wrap round to a small one).
TEST(WordStore, RangesPastTheDepthAreRefused) {
  WordStore store(48);
  std::vector<Word> words(64, 1);
  EXPECT_THROW(store.read_range(40, 9, words.data()), std::out_of_range);
  EXPECT_THROW(store.write_range(40, 9, words.data()), std::out_of_range);
  EXPECT_NO_THROW(store.write_range(40, 8, words.data()));
  // 40 + (2^32 - 16) - 1 wraps round to 39, within the depth, in 32 bits.
  constexpr std::uint32_t kWrapsRound = 0xFFFFFFF0u;
  EXPECT_THROW(store.read_range(40, kWrapsRound, words.data()), std::out_of_range);
  EXPECT_THROW(static_cast<void>(store.fill_range(40, kWrapsRound)), std::out_of_range);
}

sw::SystemConfig omp(const sw::BusTiming& timing) {
  sw::SystemConfig c;
  c.n = 4;
  c.timing = timing;
  c.buffer_words = 16;
  c.module_words = 64;
  c.clock_period_ns = 10;
  return c;
}

sw::MemoryAccess block(sw::Direction direction, sw::BusRef bus, std::vector<std::uint32_t> slots,
                       std::uint32_t address, std::uint32_t vectors) {
  sw::MemoryAccess a;
  a.direction = direction;
  a.bus = bus;
  a.slots = std::move(slots);
  a.address = address;
  a.vectors = vectors;
  a.index_set = 0;
  return a;
}

TEST(BusControllerBlock, ABlockWriteTakesEquationOneAndPutsEachBuffersWordsInItsModule) {
  const sw::BusTiming timing{5, 3, 2, 8};
  OmpBlocks b(omp(timing));
  RecordingProcessor p0(b.clock);
  // Stream positions 0, 1, 2 (slots 1, 2, 3 of RB(0)) take their words from buffers 2, 0, 3.
  const sw::IndexSet rho = {2, 0, 3, 1};
  b.manipulators[0]->load({rho});
  const std::uint32_t l = 2;
  for (std::uint32_t buffer = 0; buffer < b.config.n; ++buffer) {
    for (std::uint32_t v = 0; v < l; ++v) {
      b.manipulators[0]->write_word(buffer, v, 100 * buffer + v);
    }
  }
  const sw::MemoryAccess write =
      block(sw::Direction::Write, {sw::BusKind::Row, 0}, {1, 2, 3}, 4, l);
  const std::uint64_t start = 3;
  Script script("script", [&] {
    sc_core::wait(b.clock.delay(Cycle{start}));
    b.controllers[0]->start(write, p0);
  });
  sc_core::sc_start();
  EXPECT_EQ(p0.resumed_at, (std::vector<std::uint64_t>{start + eq1(timing, write.degree(), l)}));
  for (std::uint32_t pos = 0; pos < write.degree(); ++pos) {
    const WordStore& module = b.module(write.bus, write.slots[pos]);
    for (std::uint32_t v = 0; v < l; ++v) {
      EXPECT_EQ(module.read(write.address + v), 100 * rho[pos] + v) << pos << " " << v;
    }
  }
}

TEST(BusControllerBlock, AReadOfAModuleAnotherControllerHoldsStartsWhenThatAccessEnds) {
  const sw::BusTiming timing{4, 2, 1, 8};
  OmpBlocks b(omp(timing));
  RecordingProcessor p0(b.clock);
  RecordingProcessor p1(b.clock);
  for (sw::ProcId p = 0; p < 2; ++p) {
    b.manipulators[p]->load({{0, 1, 2, 3}});
  }
  // M(0,1) is slot 1 of RB(0) and slot 0 of CB(1): BC(0) writes it, BC(1) reads it.
  const std::uint32_t l = 3;
  for (std::uint32_t v = 0; v < l; ++v) {
    b.manipulators[0]->write_word(0, v, 7 + v);
    b.manipulators[0]->write_word(1, v, 70 + v);
  }
  const sw::MemoryAccess write = block(sw::Direction::Write, {sw::BusKind::Row, 0}, {0, 1}, 0, l);
  const sw::MemoryAccess read = block(sw::Direction::Read, {sw::BusKind::Column, 1}, {0}, 0, l);
  ASSERT_EQ(b.organization.module_at(write.bus, 1), b.organization.module_at(read.bus, 0));
  // Both start in cycle 2; BC(0) wins the tie (lower id), BC(1) is granted at its end.
  Script script("script", [&] {
    sc_core::wait(b.clock.delay(Cycle{2}));
    b.controllers[1]->start(read, p1);
    b.controllers[0]->start(write, p0);
  });
  sc_core::sc_start();
  const std::uint64_t write_end = 2 + eq1(timing, 2, l);
  EXPECT_EQ(p0.resumed_at, (std::vector<std::uint64_t>{write_end}));
  EXPECT_EQ(p1.resumed_at, (std::vector<std::uint64_t>{write_end + eq1(timing, 1, l)}));
  // The read came after the write: BC(1)'s buffer 0 holds what BC(0) wrote from its buffer 1.
  for (std::uint32_t v = 0; v < l; ++v) {
    EXPECT_EQ(b.manipulators[1]->read_word(0, v), 70 + v) << v;
  }
  // Each controller counts its one access, its words (d l) and its bus cycles (Eq. 1), and runs
  // once, at its access's end. The arbiter runs once per delta cycle with a request or a release:
  // the two requests of cycle 2, then each access's release.
  EXPECT_EQ(stat(b.stats, "bc0.accesses"), 1u);
  EXPECT_EQ(stat(b.stats, "bc0.words_moved"), 2 * l);
  EXPECT_EQ(stat(b.stats, "bc0.busy_cycles"), eq1(timing, 2, l));
  EXPECT_EQ(stat(b.stats, "bc0.activations"), 1u);
  EXPECT_EQ(stat(b.stats, "bc1.accesses"), 1u);
  EXPECT_EQ(stat(b.stats, "bc1.words_moved"), l);
  EXPECT_EQ(stat(b.stats, "bc1.busy_cycles"), eq1(timing, 1, l));
  EXPECT_EQ(stat(b.stats, "bc1.activations"), 1u);
  EXPECT_EQ(stat(b.stats, "arbiter.activations"), 3u);
}

// A controller performs one access at a time: a second start while the first waits for its grant
// or streams its words is a logic error of the caller, refused naming the cycle; at the cycle
// the first one ends (grant + Eq. 1) the next may start.
TEST(BusControllerBlock, ASecondStartBeforeTheFirstAccessEndsIsRefused) {
  const sw::BusTiming timing{4, 2, 1, 8};
  OmpBlocks b(omp(timing));
  RecordingProcessor p0(b.clock);
  RecordingProcessor p1(b.clock);
  RecordingProcessor p2(b.clock);
  for (sw::ProcId p = 0; p < 3; ++p) {
    b.manipulators[p]->load({{0, 1, 2, 3}});
  }
  // BC(1) reads M(0,1) (slot 0 of CB(1)) from cycle 1; BC(0)'s write of it (slot 1 of RB(0))
  // from cycle 2 waits for that read's end. BC(2) writes RB(2) from cycle 0, l = 2.
  const sw::MemoryAccess read = block(sw::Direction::Read, {sw::BusKind::Column, 1}, {0}, 0, 3);
  const sw::MemoryAccess waits = block(sw::Direction::Write, {sw::BusKind::Row, 0}, {1}, 0, 1);
  const sw::MemoryAccess streams = block(sw::Direction::Write, {sw::BusKind::Row, 2}, {0}, 0, 2);
  const std::uint64_t streams_end = eq1(timing, 1, 2);
  const std::uint64_t read_end = 1 + eq1(timing, 1, 3);
  ASSERT_LT(3u, streams_end);
  ASSERT_LT(3u, read_end);
  std::vector<std::string> refused;
  const auto second_start = [&](sw::ProcId p, const sw::MemoryAccess& a, Resumable& r) {
    try {
      b.controllers[p]->start(a, r);
    } catch (const std::logic_error& e) {
      refused.push_back(e.what());
    }
  };
  Script script("script", [&] {
    b.controllers[2]->start(streams, p2);
    sc_core::wait(b.clock.delay(Cycle{1}));
    b.controllers[1]->start(read, p1);
    sc_core::wait(b.clock.delay(Cycle{1}));
    b.controllers[0]->start(waits, p0);
    sc_core::wait(b.clock.delay(Cycle{1}));  // cycle 3
    second_start(0, waits, p0);
    second_start(2, streams, p2);
    sc_core::wait(b.clock.delay(Cycle{streams_end - 3}));
    second_start(2, streams, p2);  // accepted: the first one has ended
  });
  sc_core::sc_start();
  ASSERT_EQ(refused.size(), 2u);
  EXPECT_NE(refused[0].find("bc0: a second access started at cycle 3"), std::string::npos)
      << refused[0];
  EXPECT_NE(refused[1].find("bc2: a second access started at cycle 3"), std::string::npos)
      << refused[1];
  EXPECT_EQ(p0.resumed_at, (std::vector<std::uint64_t>{read_end + eq1(timing, 1, 1)}));
  EXPECT_EQ(p2.resumed_at, (std::vector<std::uint64_t>{streams_end, 2 * streams_end}));
}

}  // namespace
}  // namespace orthosim::sc
