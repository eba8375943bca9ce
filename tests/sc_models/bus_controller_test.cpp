// BusController alone on a 4-processor omp: the arbiter, the modules and an index manipulator
// around it, a stand-in processor that records when it is resumed. Each access ends at its grant
// plus the Fig. 5 schedule of [PH91] (Eq. 1): alpha + beta (l - 1) + d tau l, computed here; the
// words land where the index set sends them; a controller that wants a module another holds is
// granted when that access ends.
#include <gtest/gtest.h>

#include <cstdint>
#include <systemc>
#include <utility>
#include <vector>

#include "sc_models/multiprocessor/interfaces.hpp"
#include "tests/support/block_bench.hpp"

namespace orthosim::sc {
namespace {

using testing_support::eq1;
using testing_support::OmpBlocks;
using testing_support::Script;

/// Records the cycle at which it is to continue.
class RecordingProcessor : public Resumable {
 public:
  explicit RecordingProcessor(const ClockDomain& clock) : clock_(clock) {}
  void resume_after(Cycle delay) override { resumed_at.push_back((clock_.now() + delay).count()); }
  std::vector<std::uint64_t> resumed_at;

 private:
  const ClockDomain& clock_;
};

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
}

}  // namespace
}  // namespace orthosim::sc
