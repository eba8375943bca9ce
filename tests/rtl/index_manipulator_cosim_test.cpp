// Model = RTL for the index manipulator ([PH91] section 3.2, Fig. 6): the SystemC model
// (sc_models/multiprocessor/index_manipulator.hpp) and the verilated RTL (rtl/index_manipulator.sv)
// get the same random stimulus for 10^5 cycles and every output is compared every cycle; a
// deliberate fault in the model (a flipped bit, a write one cycle late) is caught at the right
// cycle and signal.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <random>
#include <stdexcept>
#include <systemc>

#include "rtl/bridge/index_manipulator_rtl.hpp"
#include "sc_models/kernel/lockstep_checker.hpp"
#include "sc_models/multiprocessor/index_manipulator.hpp"

namespace orthosim {
namespace {

using Rtl = rtl::IndexManipulatorRtl;
constexpr std::uint32_t kN = 4, kL = Rtl::kWords, kS = Rtl::kSets;

/// A fault to inject into the model, to show that the comparison can fail.
enum class Fault { None, FlippedBit, LateWrite };

class CosimBench : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(CosimBench);
  CosimBench(const sc_core::sc_module_name& name, std::uint64_t cycles, Fault fault,
             std::uint64_t fault_cycle)
      : sc_core::sc_module(name),
        clk_("clk", 10, sc_core::SC_NS),
        rtl_("im0", kN, clk_),
        model_(kN, kL),
        checker_("cosim.im0"),
        cycles_(cycles),
        fault_(fault),
        fault_cycle_(fault_cycle) {
    SC_THREAD(run);
  }

  const sc::LockstepChecker& checker() const { return checker_; }
  std::uint64_t cycles_run() const { return cycle_; }

 private:
  struct Write {
    std::uint32_t buffer, word, value;
  };

  std::uint32_t draw(std::uint32_t n) { return static_cast<std::uint32_t>(rng_() % n); }

  /// Settles the combinational outputs after an input change (signal update, evaluation, output
  /// update).
  static void settle() {
    for (int i = 0; i < 3; ++i) {
      sc_core::wait(sc_core::SC_ZERO_TIME);
    }
  }

  void edge(std::optional<Write>& pending) {
    sc_core::wait(clk_.posedge_event());
    ++cycle_;
    if (pending) {
      model_.buffer(pending->buffer).write(pending->word, pending->value);
      pending.reset();
    }
  }

  /// The clock never stops by itself: the bench ends the simulation when its stimulus is done.
  void run() {
    drive();
    sc_core::sc_stop();
  }

  void drive() {
    // Index memory: random index sets, repeated entries allowed (replication, Fig. 6).
    std::vector<sw::IndexSet> sets(kS, sw::IndexSet(kN));
    std::optional<Write> pending;
    for (std::uint32_t s = 0; s < kS; ++s) {
      for (std::uint32_t p = 0; p < kN; ++p) {
        sets[s][p] = draw(kN);
        rtl_.set_index_write(true, s, p, sets[s][p]);
        edge(pending);
      }
    }
    rtl_.set_index_write(false, 0, 0, 0);
    model_.load(sets);
    // Every buffer word written once through the local port, so both sides hold defined words.
    for (std::uint32_t b = 0; b < kN; ++b) {
      for (std::uint32_t v = 0; v < kL; ++v) {
        const auto value = static_cast<std::uint32_t>(rng_());
        rtl_.set_local(true, b, v, value);
        pending = Write{b, v, value};
        edge(pending);
      }
    }
    rtl_.set_local(false, 0, 0, 0);
    edge(pending);
    const std::uint64_t start = cycle_;
    while (cycle_ - start < cycles_) {
      // Stimulus of this cycle: the access port (read path write or not) and the local port.
      const std::uint32_t set = draw(kS), pos = draw(kN), vec = draw(kL);
      const std::uint32_t op = draw(3);
      const auto data = static_cast<std::uint32_t>(rng_());
      std::uint32_t lb = draw(kN), lw = draw(kL);
      if (probe_) {  // read back the word a fault touched, so the fault shows
        lb = probe_->buffer;
        lw = probe_->word;
        probe_.reset();
      }
      rtl_.set_access(set, pos, vec, op == 0, data);
      rtl_.set_local(op == 1, lb, lw, data);
      settle();
      const std::uint32_t rho = model_.buffer_for(set, pos);
      const std::uint64_t c = cycle_;
      checker_.check(c, "ac_buf", rho, rtl_.access_buffer());
      checker_.check(c, "ac_rdata", model_.on_write(set, pos, vec), rtl_.access_rdata());
      checker_.check(c, "loc_rdata", model_.buffer(lb).read(lw), rtl_.local_rdata());
      if (checker_.first_mismatch()) {
        return;  // the first mismatch stops the run
      }
      if (op == 0) {
        pending = Write{rho, vec, data};
      } else if (op == 1) {
        pending = Write{lb, lw, data};
      }
      if (c == fault_cycle_) {
        inject(pending);
      }
      if (late_) {
        std::optional<Write> none;
        edge(none);                  // the model misses this edge's write ...
        pending = std::move(late_);  // ... and applies it one edge late
        late_.reset();
        continue;
      }
      edge(pending);
    }
  }

  void inject(std::optional<Write>& pending) {
    switch (fault_) {
      case Fault::FlippedBit: {
        const std::uint32_t b = draw(kN), v = draw(kL);
        if (pending && pending->buffer == b && pending->word == v) {
          pending->value ^= 1u;
        } else {
          model_.buffer(b).write(v, model_.buffer(b).read(v) ^ 1u);
        }
        probe_ = Write{b, v, 0};
        break;
      }
      case Fault::LateWrite:
        if (!pending) {
          const std::uint32_t b = draw(kN), v = draw(kL);
          pending = Write{b, v, model_.buffer(b).read(v) ^ 0x80000000u};
          rtl_.set_local(true, b, v, pending->value);
        }
        late_ = pending;
        pending.reset();
        probe_ = Write{late_->buffer, late_->word, 0};
        break;
      case Fault::None:
        break;
    }
  }

  sc_core::sc_clock clk_;
  Rtl rtl_;
  sc::IndexManipulator model_;
  sc::LockstepChecker checker_;
  std::mt19937_64 rng_{20261122};
  const std::uint64_t cycles_;
  const Fault fault_;
  const std::uint64_t fault_cycle_;
  std::uint64_t cycle_ = 0;
  std::optional<Write> probe_;
  std::optional<Write> late_;
};

// The backdoor ([PH91] Fig. 6's index sets and data buffers loaded in no time), on a manipulator
// clocked by its owner: what it writes is what the access path reads at once (rho of the access's
// set and position, buffer rho(p) word v); fill() reaches every word; an index set, a buffer, a
// word or a run of words past the verilated sizes is refused.
TEST(IndexManipulatorRtl, TheBackdoorIsWhatTheAccessPathReadsAtOnce) {
  Rtl im("im", kN, nullptr);
  im.fill(0xF111U);
  EXPECT_EQ(im.word(0, 0), 0xF111U);
  EXPECT_EQ(im.word(kN - 1, kL - 1), 0xF111U);
  im.set_index_set(kS - 1, {3, 2, 1, 0});
  im.set_access(kS - 1, 1, 9, false, 0);  // position 1 of the last set: buffer 2, word 9
  EXPECT_EQ(im.access_buffer(), 2U);
  EXPECT_EQ(im.access_rdata(), 0xF111U);
  im.set_index_set(kS - 1, {3, 0, 1, 2});
  EXPECT_EQ(im.access_buffer(), 0U);
  im.set_word(0, 9, 0xABCDU);
  EXPECT_EQ(im.access_rdata(), 0xABCDU);
  const std::uint32_t two[2] = {0x1234U, 0x5678U};
  im.set_words(0, 8, 2, two);
  EXPECT_EQ(im.access_rdata(), 0x5678U);
  std::uint32_t back[2] = {};
  im.words(0, 8, 2, back);
  EXPECT_EQ(back[0], 0x1234U);
  EXPECT_EQ(back[1], 0x5678U);

  EXPECT_THROW(im.set_index_set(kS, {0}), std::out_of_range);
  EXPECT_THROW(im.set_index_set(0, {0, 1, 2, 3, 0}), std::out_of_range);
  EXPECT_THROW(im.set_word(kN, 0, 1), std::out_of_range);
  EXPECT_THROW((void)im.word(0, kL), std::out_of_range);
  EXPECT_THROW(im.set_words(0, kL - 1, 2, two), std::out_of_range);
  EXPECT_THROW(im.words(kN - 1, kL - 1, 2, back), std::out_of_range);
}

TEST(IndexManipulatorCosim, ModelAndRtlAgreeOnEveryOutputForAHundredThousandCycles) {
  CosimBench bench("bench", 100'000, Fault::None, 0);
  sc_core::sc_start();
  EXPECT_FALSE(bench.checker().first_mismatch().has_value())
      << bench.checker().first_mismatch()->to_string();
  EXPECT_GE(bench.cycles_run(), 100'000u);
  EXPECT_GE(bench.checker().comparisons(), 300'000u);
}

TEST(IndexManipulatorCosim, AFlippedBitInTheModelIsCaughtAtTheNextRead) {
  const std::uint64_t fault_cycle = 5000;
  CosimBench bench("bench", 100'000, Fault::FlippedBit, fault_cycle);
  sc_core::sc_start();
  ASSERT_TRUE(bench.checker().first_mismatch().has_value());
  const sc::Mismatch& m = *bench.checker().first_mismatch();
  EXPECT_EQ(m.cycle, fault_cycle + 1);
  EXPECT_EQ(m.signal, "loc_rdata");
  EXPECT_EQ(m.instance, "cosim.im0");
  EXPECT_EQ(m.model ^ m.rtl, 1u);
}

TEST(IndexManipulatorCosim, AWriteOneCycleLateInTheModelIsCaught) {
  const std::uint64_t fault_cycle = 7000;
  CosimBench bench("bench", 100'000, Fault::LateWrite, fault_cycle);
  sc_core::sc_start();
  ASSERT_TRUE(bench.checker().first_mismatch().has_value());
  const sc::Mismatch& m = *bench.checker().first_mismatch();
  EXPECT_EQ(m.cycle, fault_cycle + 1);
  EXPECT_EQ(m.signal, "loc_rdata");
}

}  // namespace
}  // namespace orthosim
