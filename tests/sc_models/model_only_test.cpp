// The multiprocessor's models alone (docs/architecture.md, "Where the RTL glue lives"): this
// binary links the model library without the co-simulation layer, the bridges or any verilated
// block (CTest's model_only_links_no_rtl checks its symbols). A model bus controller publishes
// the whole schedule of each access at its grant, as [PH91] Fig. 5 has it, to whoever a system's
// wiring makes its observer; the models' own wiring refuses verilated blocks.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "sc_models/multiprocessor/multiprocessor.hpp"
#include "tests/support/program_builder.hpp"

namespace orthosim {
namespace {

using testing_support::access;
using testing_support::ProgramBuilder;
using testing_support::row;

/// Records every schedule the controllers publish.
class ScheduleLog final : public sc::AccessObserver {
 public:
  void performed(sw::ProcId p, const sw::MemoryAccess& /*access*/,
                 sc::ModelAccess schedule) override {
    entries.push_back({p, std::move(schedule)});
  }
  struct Entry {
    sw::ProcId p;
    sc::ModelAccess schedule;
  };
  std::vector<Entry> entries;
};

/// The models, with every controller observed by `log`.
class ObservedModels final : public sc::BlockWiring {
 public:
  explicit ObservedModels(ScheduleLog& log) : log_(log) {}
  void validate(const sw::SystemConfig& config) const override { models_.validate(config); }
  sc::MemoryGrants& memory(const sc::SystemParts& system) override {
    return models_.memory(system);
  }
  sc::DataBuffers& buffers(sw::ProcId p, sc::IndexManipulator& model) override {
    return models_.buffers(p, model);
  }
  void attach(sw::ProcId /*p*/, sc::BusController& controller,
              sc::IndexManipulator& /*model*/) override {
    controller.observe(&log_);
  }
  void load() override {}
  [[nodiscard]] std::optional<sc::Mismatch> mismatch(sw::Cycle now) const override {
    return models_.mismatch(now);
  }

 private:
  ScheduleLog& log_;
  sc::ModelWiring models_;
};

// One block-interleaved read of d = 3 modules and l = 4 vectors by P(1) on RB(1) of a 4-omp,
// granted at cycle 0: word (v, p) is on the bus from alpha + v beta + (v d + p) tau, and the
// access ends at alpha + beta (l - 1) + d tau l (Fig. 5(c)), where the processor finishes.
TEST(ModelOnly, AControllerPublishesTheScheduleOfFigure5) {
  sw::SystemConfig c;
  c.n = 4;
  c.timing.tau = 3;  // a word spans several cycles, so beats and cycles are not confused
  ScheduleLog log;
  traces::Recorder silent;
  sc::Multiprocessor system("omp", c.validated(), silent, std::make_unique<ObservedModels>(log));
  ProgramBuilder b(sw::Arch::Omp, c.n);
  b.proc(1).index_sets = {{2, 0, 1}};
  const std::vector<std::uint32_t> slots = {3, 0, 2};
  b.op(1, access(sw::Direction::Read, row(1), slots, 5, 4, 0));
  system.load(b.build());
  sc::run_systems({&system}, sw::Cycle{1'000'000});
  const sw::RunSummary r = system.result();
  ASSERT_TRUE(r.completed);

  const std::uint64_t d = 3, l = 4, alpha = c.timing.alpha, beta = c.timing.beta,
                      tau = c.timing.tau;
  ASSERT_EQ(log.entries.size(), 1u);
  EXPECT_EQ(log.entries[0].p, 1u);
  const sc::ModelAccess& s = log.entries[0].schedule;
  EXPECT_EQ(s.grant.count(), 0u);
  EXPECT_EQ(s.end.count(), alpha + beta * (l - 1) + d * tau * l);
  EXPECT_EQ(r.cycles, s.end);
  EXPECT_FALSE(s.write);
  EXPECT_FALSE(s.column);
  ASSERT_EQ(s.beats.size(), d * l);
  for (std::uint32_t v = 0; v < l; ++v) {
    for (std::uint32_t p = 0; p < d; ++p) {
      const sc::ModelBeat& beat = s.beats[v * d + p];
      EXPECT_EQ(beat.at.count(), alpha + v * beta + (v * d + p) * tau) << v << "," << p;
      EXPECT_EQ(beat.vector, v);
      EXPECT_EQ(beat.position, p);
      EXPECT_EQ(beat.slot, slots[p]);
      EXPECT_EQ(beat.address, 5 + v);
      EXPECT_EQ(beat.word, sw::kUnwrittenWord);  // nothing was written to the modules
    }
  }
}

TEST(ModelOnly, TheModelsOwnWiringRefusesVerilatedBlocks) {
  sw::SystemConfig c;
  c.n = 4;
  c.impl.bus_controller = sw::Impl::Cosim;
  traces::Recorder silent;
  EXPECT_THROW(sc::Multiprocessor("omp", c.validated(), silent), std::logic_error);
  // The index manipulator and the module array too, each on its own.
  sw::SystemConfig im = c;
  im.impl = {};
  im.impl.index_manipulator = sw::Impl::Rtl;
  EXPECT_THROW(sc::Multiprocessor("omp_im", im.validated(), silent), std::logic_error);
  sw::SystemConfig memory = c;
  memory.impl = {};
  memory.impl.memory = sw::Impl::Rtl;
  EXPECT_THROW(sc::Multiprocessor("omp_memory", memory.validated(), silent), std::logic_error);
}

}  // namespace
}  // namespace orthosim
