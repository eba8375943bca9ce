// Processor alone with the blocks it calls (its bus controller, the arbiter, the sync unit): two
// processors of an omp run small machine programs, and every step mark they pass is checked
// against the cycle computed here: compute takes its cycles, a memory access [PH91] Eq. 1, an
// activate-sync holds the interrupt bus for its cost before the consumer may go on, and a barrier
// releases every member its cost after the last arrival.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <systemc>
#include <vector>

#include "sc_models/multiprocessor/processor.hpp"
#include "sc_models/multiprocessor/sync_unit.hpp"
#include "sw/machine/delivery_check.hpp"
#include "tests/support/block_bench.hpp"

namespace orthosim::sc {
namespace {

using testing_support::eq1;
using testing_support::OmpBlocks;
using testing_support::stat;

/// The omp's blocks with `n` processors on them and their sync unit.
struct ProcessorBench {
  explicit ProcessorBench(const sw::SystemConfig& config)
      : blocks(config), sync("sync", config.n, blocks.stats) {
    std::vector<Resumable*> resumables;
    for (sw::ProcId i = 0; i < config.n; ++i) {
      processors.push_back(std::make_unique<Processor>(
          ("p" + std::to_string(i)).c_str(), i, config, blocks.clock, *blocks.manipulators[i],
          ProcessorPorts{*blocks.controllers[i], blocks.arbiter, blocks.interrupt_bus, sync},
          blocks.recorder, blocks.stats));
      resumables.push_back(processors.back().get());
    }
    sync.attach(resumables);
    messages.load(no_messages, config.n);
  }
  std::vector<std::uint64_t> marks(sw::ProcId p) const {
    std::vector<std::uint64_t> at;
    for (const StepMarkRecord& m : processors[p]->step_marks()) {
      at.push_back(m.at.count());
    }
    return at;
  }

  OmpBlocks blocks;
  SyncUnit sync;
  const std::vector<sw::Message> no_messages;
  sw::MessageMemory messages;  ///< no messages: the programs' accesses carry no payload
  std::vector<std::unique_ptr<Processor>> processors;
};

sw::SystemConfig omp() {
  sw::SystemConfig c;
  c.n = 2;
  c.timing = {6, 3, 2, 5};
  c.sync = {4, 7};
  c.buffer_words = 8;
  c.module_words = 16;
  c.local_words = 16;
  c.clock_period_ns = 10;
  return c;
}

TEST(ProcessorBlock, ComputeAccessSyncAndBarrierTakeTheirCostsInProgramOrder) {
  const sw::SystemConfig config = omp();
  ProcessorBench b(config);
  const std::uint64_t compute = 10;
  const std::uint32_t l = 2;
  sw::MemoryAccess write;
  write.direction = sw::Direction::Write;
  write.bus = {sw::BusKind::Row, 0};
  write.slots = {1};
  write.vectors = l;
  std::vector<sw::ProcessorProgram> programs(config.n);
  programs[0].index_sets = {{0, 1}};
  programs[0].ops = {sw::Compute{sw::Cycle{compute}},
                     sw::StepMark{1},
                     write,
                     sw::StepMark{2},
                     sw::ActivateSync{sw::ProcSet({1})},
                     sw::StepMark{3},
                     sw::Barrier{sw::ProcSet({0, 1})},
                     sw::StepMark{4}};
  const std::uint64_t tail = 3;
  programs[1].index_sets = {{0, 1}};
  programs[1].ops = {sw::WaitSync{0}, sw::StepMark{1}, sw::Compute{sw::Cycle{tail}},
                     sw::Barrier{sw::ProcSet({0, 1})}, sw::StepMark{2}};
  for (sw::ProcId p = 0; p < config.n; ++p) {
    b.processors[p]->load(programs[p], b.messages);
  }
  sc_core::sc_start();
  const std::uint64_t written = compute + eq1(config.timing, 1, l);
  const std::uint64_t synced = written + config.sync.activate;
  const std::uint64_t released = synced + tail + config.sync.barrier;
  EXPECT_EQ(b.marks(0), (std::vector<std::uint64_t>{compute, written, synced, released}));
  EXPECT_EQ(b.marks(1), (std::vector<std::uint64_t>{synced, released}));
  for (sw::ProcId p = 0; p < config.n; ++p) {
    EXPECT_TRUE(b.processors[p]->finished()) << p;
    EXPECT_EQ(b.processors[p]->finish_cycle().count(), released) << p;
  }
  EXPECT_EQ(stat(b.blocks.stats, "p0.compute_cycles"), compute);
  EXPECT_EQ(stat(b.blocks.stats, "p0.memory_cycles"), eq1(config.timing, 1, l));
  // P0 holds the interrupt bus for the activate cost, then waits at the barrier for P1's tail
  // and the barrier cost; P1 waits for the token until it is delivered, then the barrier cost.
  EXPECT_EQ(stat(b.blocks.stats, "p0.sync_cycles"),
            config.sync.activate + tail + config.sync.barrier);
  EXPECT_EQ(stat(b.blocks.stats, "p1.sync_cycles"), synced + config.sync.barrier);
  EXPECT_EQ(stat(b.blocks.stats, "p1.compute_cycles"), tail);
  EXPECT_EQ(stat(b.blocks.stats, "p0.ops"), programs[0].ops.size());
  EXPECT_EQ(stat(b.blocks.stats, "p1.ops"), programs[1].ops.size());
  EXPECT_EQ(stat(b.blocks.stats, "sync.barriers"), 1u);
}

// An IWR step ([PH91] Eq. 1 plus gamma): the write half and the read half count as memory
// cycles, the bus switch (from the processor's arrival to gamma after the last one) as sync
// cycles. P0 and P1 exchange l = 2 words over disjoint buses and modules, P1 after 5 cycles of
// compute, so P0 waits 5 cycles longer at the switch. A compute of 0 cycles takes no activation:
// P0 runs 4 times (its start, the write's end, the switch's release, the read's end).
TEST(ProcessorBlock, AnIwrStepCountsItsHalvesAsMemoryAndItsSwitchAsSyncCycles) {
  const sw::SystemConfig config = omp();
  ProcessorBench b(config);
  const std::uint32_t l = 2;
  const std::uint64_t lead = 5;
  const auto half = [&](sw::Direction d, sw::BusKind kind, std::uint32_t bus, std::uint32_t slot) {
    sw::MemoryAccess a;
    a.direction = d;
    a.bus = {kind, bus};
    a.slots = {slot};
    a.vectors = l;
    return a;
  };
  using sw::BusKind;
  using sw::Direction;
  const sw::ProcSet both({0, 1});
  std::vector<sw::ProcessorProgram> programs(config.n);
  programs[0].index_sets = {{0, 1}};
  programs[0].ops = {sw::Compute{sw::Cycle{0}},
                     sw::Iwr{half(Direction::Write, BusKind::Row, 0, 1),            // M(0,1)
                             half(Direction::Read, BusKind::Column, 0, 1), both}};  // M(1,0)
  programs[1].index_sets = {{0, 1}};
  programs[1].ops = {sw::Compute{sw::Cycle{lead}},
                     sw::Iwr{half(Direction::Write, BusKind::Row, 1, 0),            // M(1,0)
                             half(Direction::Read, BusKind::Column, 1, 0), both}};  // M(0,1)
  for (sw::ProcId p = 0; p < config.n; ++p) {
    b.processors[p]->load(programs[p], b.messages);
  }
  sc_core::sc_start();
  const std::uint64_t access = eq1(config.timing, 1, l);
  const std::uint64_t gamma = config.timing.gamma;
  for (sw::ProcId p = 0; p < config.n; ++p) {
    const std::string name = "p" + std::to_string(p);
    EXPECT_EQ(b.processors[p]->finish_cycle().count(), lead + access + gamma + access) << p;
    EXPECT_EQ(stat(b.blocks.stats, name + ".memory_cycles"), 2 * access) << p;
    EXPECT_EQ(stat(b.blocks.stats, name + ".sync_cycles"), (p == 0 ? lead : 0) + gamma) << p;
    EXPECT_EQ(b.processors[p]->describe_wait(), "") << p;  // finished: waits for nothing
  }
  EXPECT_EQ(stat(b.blocks.stats, "p1.compute_cycles"), lead);
  EXPECT_EQ(stat(b.blocks.stats, "p0.activations"), 4u);
  EXPECT_EQ(stat(b.blocks.stats, "sync.bus_switches"), 1u);
}

// A processor waits for one resumption at a time: a second one asked for while the first is
// pending (a block resuming it twice) is a logic error, refused naming the processor and the
// cycle. P0 computes 10 cycles; at cycle 2 a script asks to resume it again.
TEST(ProcessorBlock, ASecondResumptionWhileOneIsPendingIsRefused) {
  const sw::SystemConfig config = omp();
  ProcessorBench b(config);
  std::vector<sw::ProcessorProgram> programs(config.n);
  programs[0].ops = {sw::Compute{sw::Cycle{10}}};
  for (sw::ProcId p = 0; p < config.n; ++p) {
    b.processors[p]->load(programs[p], b.messages);
  }
  std::string refused;
  testing_support::Script script("script", [&] {
    sc_core::wait(b.blocks.clock.delay(Cycle{2}));
    try {
      b.processors[0]->resume_after(Cycle{1});
    } catch (const std::logic_error& e) {
      refused = e.what();
    }
  });
  sc_core::sc_start();
  EXPECT_EQ(refused, "p0: resumed twice at cycle 2");
  EXPECT_EQ(b.processors[0]->finish_cycle().count(), 10u);
}

}  // namespace
}  // namespace orthosim::sc
