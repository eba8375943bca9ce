// Behaviour of the multiprocessor blocks on hand-written machine programs: the index manipulator
// of [PH91] Fig. 6, replication for broadcast, conflicts on shared modules and buses, the
// synchronization primitives and their costs, the deadlock watchdog.
#include <gtest/gtest.h>

#include <string>
#include <type_traits>
#include <vector>

#include "sc_models/kernel/sliced_run.hpp"
#include "sc_models/multiprocessor/multiprocessor.hpp"
#include "sw/core/diagnostic.hpp"
#include "sw/machine/delivery_check.hpp"
#include "sw/machine/payload.hpp"
#include "tests/support/program_builder.hpp"

namespace orthosim {
namespace {

using sw::Arch;
using sw::Direction;
using testing_support::access;
using testing_support::column;
using testing_support::ProgramBuilder;
using testing_support::row;
using testing_support::shared;

// A system takes only a validated configuration: there is no second check to forget.
static_assert(
    !std::is_constructible_v<sc::Multiprocessor, const char*, sw::SystemConfig, traces::Recorder&>);
static_assert(std::is_constructible_v<sc::Multiprocessor, const char*,
                                      sw::Validated<sw::SystemConfig>, traces::Recorder&>);

constexpr sw::Cycle kLimit{10'000'000};

sw::SystemConfig config(Arch arch, std::uint32_t n) {
  sw::SystemConfig c;
  c.arch = arch;
  c.n = n;
  return c;
}

sw::RunSummary run(sc::Multiprocessor& system, const sw::MachineProgram& program) {
  system.load(program);
  sc::run_systems({&system}, kLimit);
  return system.result();
}

std::uint64_t block(const sw::BusTiming& t, std::uint64_t d, std::uint64_t l) {
  return t.alpha + t.beta * (l - 1) + d * t.tau * l;  // [PH91] Fig. 5(c)
}

// Fig. 6: three modules on one interleaved bus and three data buffers. A read with the index set
// {0,2,1} puts the words of modules 0, 1, 2 into buffers 0, 2, 1; a write with {1,1,2} writes
// buffers 1, 1, 2 into modules 0, 1, 2.
TEST(IndexManipulator, Figure6ReadPermutesAndWriteReplicates) {
  traces::Recorder silent;
  sc::Multiprocessor system("bus", config(Arch::Bus, 3).validated(), silent);
  ProgramBuilder b(Arch::Bus, 3);
  b.proc(0).index_sets = {{0, 1, 2}, {0, 2, 1}, {1, 1, 2}};
  // Words a, b, c are messages 0, 1, 2 (local 0, 1, 2). After the read, buffer 0 holds a,
  // buffer 2 holds b and buffer 1 holds c; stored to local 10, 11, 12 that puts a at 10, c at 11
  // and b at 12: message 0 must arrive at 10, message 1 (b) at 12, message 2 (c) at 11.
  b.message(0, 0, 1, 0, 10, 0).message(0, 0, 1, 1, 12, 1).message(0, 0, 1, 2, 11, 2);
  for (std::uint32_t k = 0; k < 3; ++k) {
    b.op(0, sw::LoadBuffer{k, k, 1});
  }
  b.op(0, access(Direction::Write, shared(0), {0, 1, 2}, 0, 1, 0));
  b.op(0, access(Direction::Read, shared(0), {0, 1, 2}, 0, 1, 1));
  for (std::uint32_t k = 0; k < 3; ++k) {
    b.op(0, sw::StoreBuffer{k, 10 + k, 1});
  }
  b.op(0, access(Direction::Write, shared(0), {0, 1, 2}, 1, 1, 2));
  const sw::MachineProgram program = b.build();
  const sw::RunSummary r = run(system, program);
  ASSERT_TRUE(r.completed);
  EXPECT_TRUE(r.delivery.ok()) << r.delivery.failures.at(0);
  const sw::Word a = sw::payload_word(program.messages[0].payload, 0);
  const sw::Word bw = sw::payload_word(program.messages[1].payload, 0);
  const sw::Word c = sw::payload_word(program.messages[2].payload, 0);
  EXPECT_EQ(system.manipulator(0).buffer(0).read(0), a);
  EXPECT_EQ(system.manipulator(0).buffer(1).read(0), c);
  EXPECT_EQ(system.manipulator(0).buffer(2).read(0), bw);
  // Write {1,1,2}: modules 0 and 1 both get buffer 1 (c), module 2 gets buffer 2 (b).
  EXPECT_EQ(system.module(0).read(1), c);
  EXPECT_EQ(system.module(1).read(1), c);
  EXPECT_EQ(system.module(2).read(1), bw);
  const sw::BusTiming& t = system.config().timing;
  EXPECT_EQ(r.cycles.count(), 3 * (t.alpha + 3 * t.tau));  // three interleaved accesses, d = 3
}

// C3 one-to-all broadcast on the omp: P0 writes one buffer to M(0,1..3) with the index set
// {0,0,0} (replication on the fly), raises a sync, and each P(j) reads M(0,j) over CB(j).
TEST(IndexManipulator, BroadcastByReplicationReachesEveryReceiver) {
  traces::Recorder silent;
  const std::uint32_t n = 4, l = 5;
  sc::Multiprocessor system("omp", config(Arch::Omp, n).validated(), silent);
  ProgramBuilder b(Arch::Omp, n);
  b.proc(0).index_sets = {{0, 0, 0}};
  b.op(0, sw::LoadBuffer{0, 0, l});
  b.op(0, access(Direction::Write, row(0), {1, 2, 3}, 0, l, 0));
  b.op(0, sw::ActivateSync{sw::ProcSet({1, 2, 3})});
  for (sw::ProcId j = 1; j < n; ++j) {
    b.proc(j).index_sets = {{0}};
    b.op(j, sw::WaitSync{0});
    b.op(j, access(Direction::Read, column(j), {0}, 0, l, 0));
    b.op(j, sw::StoreBuffer{0, 100, l});
    b.message(0, j, l, 0, 100, 0, /*broadcast=*/true);
  }
  const sw::RunSummary r = run(system, b.build());
  ASSERT_TRUE(r.completed);
  EXPECT_TRUE(r.delivery.ok()) << r.delivery.failures.at(0);
  EXPECT_EQ(r.delivery.messages_checked, 3u);
  const sw::SystemConfig& c = system.config();
  // Write of 3 modules, the interrupt, then three parallel reads on three column buses.
  EXPECT_EQ(r.cycles.count(), block(c.timing, 3, l) + c.sync.activate + block(c.timing, 1, l));
  EXPECT_EQ(r.conflicts, 0u);
}

// The words of a message are generated when its sender loads them and checked when its receiver
// stores them: a receiver that stores a wrong last word, stores nothing or stores the message
// twice (right words both times) fails that message, named with its word.
TEST(Delivery, TheCheckOnArrivalFailsAWrongLastWordALostAndATwiceStoredMessage) {
  traces::Recorder silent;
  const std::uint32_t l = 4;
  sc::Multiprocessor system("omp", config(Arch::Omp, 2).validated(), silent);
  // P0 -> M(0,1) over RB(0), then P1 reads it over CB(1) into its buffer 0; `stores` ends it.
  const auto program = [&](const std::vector<sw::StoreBuffer>& stores) {
    ProgramBuilder b(Arch::Omp, 2);
    b.proc(0).index_sets = {{0}};
    b.proc(1).index_sets = {{0}};
    b.op(0, sw::LoadBuffer{0, 0, l});
    b.op(0, access(Direction::Write, row(0), {1}, 0, l, 0));
    b.op(0, sw::ActivateSync{sw::ProcSet({1})});
    b.op(1, sw::WaitSync{0});
    b.op(1, access(Direction::Read, column(1), {0}, 0, l, 0));
    for (const sw::StoreBuffer& store : stores) {
      b.op(1, store);
    }
    b.message(0, 1, l, 0, 100, 0);
    return b.build();
  };
  const auto failure = [&](const std::vector<sw::StoreBuffer>& stores) {
    const auto r = run(system, program(stores));
    EXPECT_TRUE(r.completed);
    EXPECT_EQ(r.delivery.messages_checked, 1u);
    return r.delivery.failures.empty() ? std::string("ok") : r.delivery.failures.at(0);
  };
  EXPECT_EQ(failure({sw::StoreBuffer{0, 100, l}}), "ok");
  // Word 3 stored from the buffer's word 0.
  const std::string wrong_last =
      failure({sw::StoreBuffer{0, 100, l - 1}, sw::StoreBuffer{0, 103, 1, 0}});
  EXPECT_NE(wrong_last.find("word 3 at P1 local[103] expected"), std::string::npos) << wrong_last;
  const std::string lost = failure({});
  EXPECT_NE(lost.find("word 0 at P1 local[100]"), std::string::npos) << lost;
  EXPECT_NE(lost.find("message lost"), std::string::npos) << lost;
  const std::string twice = failure({sw::StoreBuffer{0, 100, l}, sw::StoreBuffer{0, 100, l}});
  EXPECT_NE(twice.find("arrived twice"), std::string::npos) << twice;
}

// M(i,j) serves one of P(i) (over RB(i)) and P(j) (over CB(j)) at a time ([PH91] section 3.1).
TEST(Conflicts, OmpModuleSharedByRowAndColumnServesOneAtATime) {
  traces::Recorder silent;
  const std::uint32_t l = 8;
  sc::Multiprocessor system("omp", config(Arch::Omp, 2).validated(), silent);
  ProgramBuilder b(Arch::Omp, 2);
  b.proc(0).index_sets = {{0}};
  b.proc(1).index_sets = {{0}};
  b.op(0, sw::LoadBuffer{0, 0, l});
  b.op(0, access(Direction::Write, row(0), {1}, 0, l, 0));  // M(0,1) over RB(0)
  b.op(1, sw::Compute{sw::Cycle{3}});
  b.op(1, access(Direction::Read, column(1), {0}, 0, l, 0));  // M(0,1) over CB(1)
  b.op(1, sw::StoreBuffer{0, 0, l});
  b.message(0, 1, l, 0, 0);
  const sw::RunSummary r = run(system, b.build());
  ASSERT_TRUE(r.completed);
  const std::uint64_t t = block(system.config().timing, 1, l);
  EXPECT_EQ(r.conflicts, 1u);
  EXPECT_EQ(r.conflict_wait_cycles, t - 3);  // P1 asked at cycle 3, got it when P0 was done
  EXPECT_EQ(r.cycles.count(), 2 * t);
  EXPECT_TRUE(r.delivery.ok());  // and so it read what P0 wrote
}

TEST(Conflicts, DisjointModulesOfOneOmpRowAndColumnDoNotConflict) {
  traces::Recorder silent;
  sc::Multiprocessor system("omp", config(Arch::Omp, 2).validated(), silent);
  ProgramBuilder b(Arch::Omp, 2);
  b.proc(0).index_sets = {{0}};
  b.proc(1).index_sets = {{0}};
  b.op(0, access(Direction::Write, row(0), {0}, 0, 4, 0));    // M(0,0)
  b.op(1, access(Direction::Read, column(1), {1}, 0, 4, 0));  // M(1,1)
  const sw::RunSummary r = run(system, b.build());
  EXPECT_EQ(r.conflicts, 0u);
  EXPECT_EQ(r.cycles.count(), block(system.config().timing, 1, 4));
}

TEST(Conflicts, CrossbarBusServesOneProcessorAtATimeLowestIdFirst) {
  traces::Recorder silent;
  const std::uint32_t n = 3;
  sc::Multiprocessor system("crossbar", config(Arch::Crossbar, n).validated(), silent);
  ProgramBuilder b(Arch::Crossbar, n);
  for (sw::ProcId p = 0; p < n; ++p) {
    b.proc(p).index_sets = {{0}};
    b.op(p, access(Direction::Write, shared(1), {p}, 0, 2, 0));  // all on B(1)
  }
  const sw::RunSummary r = run(system, b.build());
  const std::uint64_t t = block(system.config().timing, 1, 2);
  EXPECT_EQ(r.cycles.count(), 3 * t);
  EXPECT_EQ(r.conflicts, 2u);
  EXPECT_EQ(r.conflict_wait_cycles, t + 2 * t);
  EXPECT_EQ(r.processor_end[0].count(), t);
  EXPECT_EQ(r.processor_end[1].count(), 2 * t);
  EXPECT_EQ(r.processor_end[2].count(), 3 * t);
}

// The result's typed counters count the loaded program only: run twice on one system, each
// result has the conflicts of one run and the words its accesses move (counted from the ops).
TEST(Conflicts, EveryResultCountsItsOwnProgramOnly) {
  traces::Recorder silent;
  const std::uint32_t n = 3;
  sc::Multiprocessor system("crossbar", config(Arch::Crossbar, n).validated(), silent);
  ProgramBuilder b(Arch::Crossbar, n);
  for (sw::ProcId p = 0; p < n; ++p) {
    b.proc(p).index_sets = {{0}};
    b.op(p, access(Direction::Write, shared(1), {p}, 0, p + 1, 0));  // all on B(1)
  }
  const sw::MachineProgram program = b.build();
  std::uint64_t words = 0;
  for (const sw::ProcessorProgram& processor : program.processors) {
    for (const sw::Op& op : processor.ops) {
      if (const auto* a = std::get_if<sw::MemoryAccess>(&op)) {
        words += a->words();
      }
    }
  }
  // Lowest id first: P1 waits for P0's access (l = 1), P2 for P0's and P1's (l = 2).
  const sw::BusTiming& t = system.config().timing;
  const std::uint64_t waits = block(t, 1, 1) + block(t, 1, 1) + block(t, 1, 2);
  for (int pass = 0; pass < 2; ++pass) {
    const sw::RunSummary r = run(system, program);
    ASSERT_TRUE(r.completed) << "pass " << pass;
    EXPECT_EQ(r.conflicts, 2u) << "pass " << pass;
    EXPECT_EQ(r.conflict_wait_cycles, waits) << "pass " << pass;
    EXPECT_EQ(r.bus_words_moved, words) << "pass " << pass;
  }
}

/// The value of statistic `name` in a run's summary (0 and a test failure if there is none).
std::uint64_t stat_of(const sw::RunSummary& r, const std::string& name) {
  for (const traces::StatEntry& e : r.stats) {
    if (e.name == name) {
      return e.value;
    }
  }
  ADD_FAILURE() << "no statistic " << name;
  return 0;
}

// Each bus controller's statistics count its own accesses: how many, the words they move (d
// modules times l vectors each) and the cycles it drives the bus, each access Fig. 5(c)'s
// alpha + beta (l - 1) + d tau l from its grant (P1's wait for M(0,1) is not the controller's).
TEST(Conflicts, EachControllerCountsItsAccessesWordsAndBusyCyclesFromTheOps) {
  traces::Recorder silent;
  sc::Multiprocessor system("omp", config(Arch::Omp, 2).validated(), silent);
  ProgramBuilder b(Arch::Omp, 2);
  b.proc(0).index_sets = {{0, 1}, {0}};
  b.proc(1).index_sets = {{0, 1}};
  b.op(0, access(Direction::Write, row(0), {0, 1}, 0, 3, 0));  // M(0,0), M(0,1): d 2, l 3
  b.op(0, access(Direction::Write, row(0), {1}, 4, 1, 1));     // M(0,1): d 1, l 1
  b.op(1, sw::Compute{sw::Cycle{5}});
  b.op(1, access(Direction::Read, column(1), {0, 1}, 0, 2, 0));  // M(0,1), M(1,1): d 2, l 2
  const sw::RunSummary r = run(system, b.build());
  ASSERT_TRUE(r.completed);
  EXPECT_GT(r.conflict_wait_cycles, 0u) << "P1 was to wait for M(0,1)";
  const sw::BusTiming& t = system.config().timing;
  EXPECT_EQ(stat_of(r, "omp.bc0.accesses"), 2u);
  EXPECT_EQ(stat_of(r, "omp.bc0.words_moved"), 2u * 3 + 1 * 1);
  EXPECT_EQ(stat_of(r, "omp.bc0.busy_cycles"), block(t, 2, 3) + block(t, 1, 1));
  EXPECT_EQ(stat_of(r, "omp.bc1.accesses"), 1u);
  EXPECT_EQ(stat_of(r, "omp.bc1.words_moved"), 2u * 2);
  EXPECT_EQ(stat_of(r, "omp.bc1.busy_cycles"), block(t, 2, 2));
}

// Producer-consumer over the interrupt bus ([PH91] section 4.3): the reader's wait-sync ends
// when the writer's activate-sync has been on the interrupt bus for its cost.
TEST(Sync, WaitSyncBlocksUntilTheActivateSyncArrives) {
  traces::Recorder silent;
  sw::SystemConfig c = config(Arch::Omp, 2);
  c.sync.activate = 5;
  sc::Multiprocessor system("omp", c.validated(), silent);
  ProgramBuilder b(Arch::Omp, 2);
  b.proc(0).index_sets = {{0}};
  b.proc(1).index_sets = {{0}};
  b.op(0, sw::Compute{sw::Cycle{10}});
  b.op(0, sw::LoadBuffer{0, 0, 3});
  b.op(0, access(Direction::Write, row(0), {1}, 0, 3, 0));
  b.op(0, sw::ActivateSync{sw::ProcSet({1})});
  b.op(1, sw::WaitSync{0});
  b.op(1, access(Direction::Read, column(1), {0}, 0, 3, 0));
  b.op(1, sw::StoreBuffer{0, 0, 3});
  b.message(0, 1, 3, 0, 0);
  const sw::RunSummary r = run(system, b.build());
  ASSERT_TRUE(r.completed);
  const std::uint64_t t = block(c.timing, 1, 3);
  EXPECT_EQ(r.processor_end[0].count(), 10 + t + 5);
  EXPECT_EQ(r.processor_end[1].count(), 10 + t + 5 + t);
  EXPECT_TRUE(r.delivery.ok());
}

TEST(Sync, ATokenThatArrivedEarlierIsConsumedWithoutWaiting) {
  traces::Recorder silent;
  sc::Multiprocessor system("omp", config(Arch::Omp, 2).validated(), silent);
  ProgramBuilder b(Arch::Omp, 2);
  b.op(0, sw::ActivateSync{sw::ProcSet({1})});
  b.op(1, sw::Compute{sw::Cycle{100}});
  b.op(1, sw::WaitSync{0});
  const sw::RunSummary r = run(system, b.build());
  ASSERT_TRUE(r.completed);
  EXPECT_EQ(r.processor_end[1].count(), 100u);
}

// Loading a program resets the synchronization hardware: a token the previous program raised
// and never consumed is gone, so the next program's wait-sync waits for its own activate-sync
// (compute 50, then the activate's sync_cycles on the interrupt bus).
TEST(Sync, LoadingAProgramDropsTheTokensThePreviousOneLeft) {
  traces::Recorder silent;
  sc::Multiprocessor system("omp", config(Arch::Omp, 2).validated(), silent);
  ProgramBuilder leaves_a_token(Arch::Omp, 2);
  leaves_a_token.op(0, sw::ActivateSync{sw::ProcSet({1})});
  ASSERT_TRUE(run(system, leaves_a_token.build()).completed);

  ProgramBuilder waits(Arch::Omp, 2);
  waits.op(0, sw::Compute{sw::Cycle{50}});
  waits.op(0, sw::ActivateSync{sw::ProcSet({1})});
  waits.op(1, sw::WaitSync{0});
  const sw::RunSummary r = run(system, waits.build());
  ASSERT_TRUE(r.completed);
  EXPECT_EQ(r.processor_end[1].count(), 50u + system.config().sync.activate);
}

// Loading a program clears the memory modules and the data buffers: a program that reads a
// module, or stores a buffer, that it never wrote delivers nothing, even where the previous
// program left the very words it expects. P0 sends P1 one message of 3 words through M(0,1)
// (RB(0) slot 1, CB(1) slot 0).
TEST(Sync, LoadingAProgramClearsTheModulesAndTheDataBuffers) {
  traces::Recorder silent;
  sc::Multiprocessor system("omp", config(Arch::Omp, 2).validated(), silent);
  const auto program = [](bool load_and_write, bool read) {
    ProgramBuilder b(Arch::Omp, 2);
    b.proc(0).index_sets = {{0}};
    b.proc(1).index_sets = {{0}};
    b.message(0, 1, 3, 0, 20);
    if (load_and_write) {
      b.op(0, sw::LoadBuffer{0, 0, 3});
      b.op(0, access(Direction::Write, row(0), {1}, 0, 3, 0));
      b.op(0, sw::ActivateSync{sw::ProcSet({1})});
      b.op(1, sw::WaitSync{0});
    }
    if (read) {
      b.op(1, access(Direction::Read, column(1), {0}, 0, 3, 0));
    }
    b.op(1, sw::StoreBuffer{0, 20, 3});
    return b.build();
  };
  ASSERT_TRUE(run(system, program(true, true)).delivery.ok());
  const sw::RunSummary reads_old_module = run(system, program(false, true));
  EXPECT_TRUE(reads_old_module.completed);
  EXPECT_EQ(reads_old_module.delivery.messages_failed, 1u);
  ASSERT_TRUE(run(system, program(true, true)).delivery.ok());
  const sw::RunSummary stores_old_buffer = run(system, program(false, false));
  EXPECT_TRUE(stores_old_buffer.completed);
  EXPECT_EQ(stores_old_buffer.delivery.messages_failed, 1u);
}

/// P0 sends P1 a message of 2 words (its local 2..3) to P1's local 10 through M(0,1), loading
/// the words to send from its local `from`; P0 first runs `before` (ops on its local memory and
/// buffers).
sw::MachineProgram through_m01(std::uint32_t from, const std::vector<sw::Op>& before) {
  ProgramBuilder b(Arch::Omp, 2);
  b.proc(0).index_sets = {{0}};
  b.proc(1).index_sets = {{0}};
  b.message(0, 1, 2, 2, 10);
  for (const sw::Op& op : before) {
    b.op(0, op);
  }
  b.op(0, sw::LoadBuffer{0, from, 2});
  b.op(0, access(Direction::Write, row(0), {1}, 0, 2, 0));
  b.op(0, sw::ActivateSync{sw::ProcSet({1})});
  b.op(1, sw::WaitSync{0});
  b.op(1, access(Direction::Read, column(1), {0}, 0, 2, 0));
  b.op(1, sw::StoreBuffer{0, 10, 2});
  return b.build();
}

// A copy from local memory takes each run of words from where it starts: a load of local 0..3
// is two words never written, then the message's two. Stored to local 4..7, its words 6..7 are
// the message and deliver it.
TEST(Sync, ALoadAcrossOtherLocalWordsAndAMessageReadsEachFromItsPlace) {
  traces::Recorder silent;
  sc::Multiprocessor system("omp", config(Arch::Omp, 2).validated(), silent);
  const sw::RunSummary r =
      run(system, through_m01(6, {sw::LoadBuffer{1, 0, 4}, sw::StoreBuffer{1, 4, 4}}));
  ASSERT_TRUE(r.completed);
  EXPECT_TRUE(r.delivery.ok()) << (r.delivery.failures.empty() ? "" : r.delivery.failures[0]);
}

// A store to local memory puts each run of words where it starts: P1 stores buffer 0 (message 0
// as read, then message 1's words loaded after it) to local 10..13, message 0's destination and
// then other words; loaded back from 12..13 and sent to P0, those words deliver message 1.
TEST(Sync, AStoreAcrossAMessageAndOtherLocalWordsPutsEachInItsPlace) {
  traces::Recorder silent;
  sc::Multiprocessor system("omp", config(Arch::Omp, 2).validated(), silent);
  ProgramBuilder b(Arch::Omp, 2);
  b.proc(0).index_sets = {{0}};
  b.proc(1).index_sets = {{0}, {1}};
  b.message(0, 1, 2, 2, 10).message(1, 0, 2, 20, 30);
  b.op(0, sw::LoadBuffer{0, 2, 2});
  b.op(0, access(Direction::Write, row(0), {1}, 0, 2, 0));  // M(0,1)
  b.op(0, sw::ActivateSync{sw::ProcSet({1})});
  b.op(1, sw::WaitSync{0});
  b.op(1, access(Direction::Read, column(1), {0}, 0, 2, 0));
  b.op(1, sw::LoadBuffer{0, 20, 2, 2});
  b.op(1, sw::StoreBuffer{0, 10, 4});
  b.op(1, sw::LoadBuffer{1, 12, 2});
  b.op(1, access(Direction::Write, row(1), {0}, 4, 2, 1));  // M(1,0), from buffer 1
  b.op(1, sw::ActivateSync{sw::ProcSet({0})});
  b.op(0, sw::WaitSync{1});
  b.op(0, access(Direction::Read, column(0), {1}, 4, 2, 0));
  b.op(0, sw::StoreBuffer{0, 30, 2});
  const sw::RunSummary r = run(system, b.build());
  ASSERT_TRUE(r.completed);
  EXPECT_TRUE(r.delivery.ok()) << (r.delivery.failures.empty() ? "" : r.delivery.failures[0]);
}

// A load from local memory writes its buffer's words [buffer address, + words) and no more: P0
// puts the message at buffer 1's words 4..5, then loads local 2..5 (the message, then two words
// never written) into words 0..3; words 4..5, copied to local 8..9 and sent, still deliver it.
TEST(Sync, ALoadWritesNoBufferWordPastItsLength) {
  traces::Recorder silent;
  sc::Multiprocessor system("omp", config(Arch::Omp, 2).validated(), silent);
  const sw::RunSummary r =
      run(system, through_m01(8, {sw::LoadBuffer{1, 2, 2, 4}, sw::LoadBuffer{1, 2, 4},
                                  sw::StoreBuffer{1, 8, 2, 4}}));
  ASSERT_TRUE(r.completed);
  EXPECT_TRUE(r.delivery.ok()) << (r.delivery.failures.empty() ? "" : r.delivery.failures[0]);
}

// Loading a program clears the local memories: the message's words a previous program copied to
// local 4..5 are gone, so sending them delivers nothing.
TEST(Sync, LoadingAProgramClearsTheLocalMemories) {
  traces::Recorder silent;
  sc::Multiprocessor system("omp", config(Arch::Omp, 2).validated(), silent);
  ASSERT_TRUE(run(system, through_m01(4, {sw::LoadBuffer{1, 2, 2}, sw::StoreBuffer{1, 4, 2}}))
                  .delivery.ok());
  const sw::RunSummary r = run(system, through_m01(4, {}));
  EXPECT_TRUE(r.completed);
  EXPECT_EQ(r.delivery.messages_failed, 1u);
}

// The peak of the words the modules held is the loaded program's own: a write of 8 words on two
// modules (16 held), then a program writing 2 words on one module, whose peak is 2.
TEST(Sync, ThePeakOfTheModulesWordsIsTheLoadedProgramsOwn) {
  traces::Recorder silent;
  sc::Multiprocessor system("omp", config(Arch::Omp, 2).validated(), silent);
  const auto writer = [](std::vector<std::uint32_t> slots, std::uint32_t l) {
    ProgramBuilder b(Arch::Omp, 2);
    b.proc(0).index_sets = {{0, 1}};
    b.op(0, access(Direction::Write, row(0), std::move(slots), 0, l, 0));
    return b.build();
  };
  ASSERT_TRUE(run(system, writer({0, 1}, 8)).completed);
  EXPECT_EQ(system.peak_module_words(), 16u);
  ASSERT_TRUE(run(system, writer({1}, 2)).completed);
  EXPECT_EQ(system.peak_module_words(), 2u);
}

// The interrupt bus is a resource of its own: an activate-sync does not wait for an access to
// the last module, M(1,1), which P1 writes over RB(1) from cycle 0.
TEST(Sync, AnActivateSyncDoesNotWaitForAnAccessToTheLastModule) {
  traces::Recorder silent;
  sc::Multiprocessor system("omp", config(Arch::Omp, 2).validated(), silent);
  ProgramBuilder b(Arch::Omp, 2);
  b.proc(1).index_sets = {{0}};
  b.op(0, sw::ActivateSync{sw::ProcSet({1})});
  b.op(1, access(Direction::Write, row(1), {1}, 0, 8, 0));
  b.op(1, sw::WaitSync{0});
  const sw::RunSummary r = run(system, b.build());
  ASSERT_TRUE(r.completed);
  EXPECT_EQ(r.processor_end[0].count(), system.config().sync.activate);
  EXPECT_EQ(r.processor_end[1].count(), block(system.config().timing, 1, 8));
}

// ... and an open barrier of a deadlocked program is gone: the next program's barrier of the
// same group waits for both members again.
TEST(Sync, LoadingAProgramClosesTheBarrierADeadlockLeftOpen) {
  traces::Recorder silent;
  sc::Multiprocessor system("omp", config(Arch::Omp, 2).validated(), silent);
  ProgramBuilder stuck(Arch::Omp, 2);
  stuck.op(0, sw::WaitSync{1});
  stuck.op(1, sw::Barrier{sw::ProcSet({0, 1})});
  ASSERT_FALSE(run(system, stuck.build()).completed);

  ProgramBuilder meets(Arch::Omp, 2);
  meets.op(0, sw::Compute{sw::Cycle{30}});
  meets.op(0, sw::Barrier{sw::ProcSet({0, 1})});
  meets.op(1, sw::Compute{sw::Cycle{10}});
  meets.op(1, sw::Barrier{sw::ProcSet({0, 1})});
  const sw::RunSummary r = run(system, meets.build());
  ASSERT_TRUE(r.completed);
  for (sw::ProcId p = 0; p < 2; ++p) {
    EXPECT_EQ(r.processor_end[p].count(), 30u + system.config().sync.barrier) << "P" << p;
  }
}

TEST(Sync, InterruptBusCarriesOneActivateSyncAtATime) {
  traces::Recorder silent;
  sw::SystemConfig c = config(Arch::Bus, 3);
  c.sync.activate = 4;
  sc::Multiprocessor system("bus", c.validated(), silent);
  ProgramBuilder b(Arch::Bus, 3);
  b.op(0, sw::ActivateSync{sw::ProcSet({2})});
  b.op(1, sw::ActivateSync{sw::ProcSet({2})});
  b.op(2, sw::WaitSync{1});
  b.op(2, sw::WaitSync{0});
  const sw::RunSummary r = run(system, b.build());
  ASSERT_TRUE(r.completed);
  EXPECT_EQ(r.processor_end[0].count(), 4u);
  EXPECT_EQ(r.processor_end[1].count(), 8u);  // waited for P0's interrupt to leave the bus
  EXPECT_EQ(r.processor_end[2].count(), 8u);
  EXPECT_EQ(r.conflicts, 1u);
}

TEST(Sync, BarrierReleasesEveryMemberAfterTheLastArrivalPlusItsCost) {
  traces::Recorder silent;
  sw::SystemConfig c = config(Arch::Crossbar, 4);
  c.sync.barrier = 7;
  sc::Multiprocessor system("crossbar", c.validated(), silent);
  ProgramBuilder b(Arch::Crossbar, 4);
  const std::uint64_t work[] = {5, 17, 9};
  for (sw::ProcId p = 0; p < 3; ++p) {
    b.op(p, sw::Compute{sw::Cycle{work[p]}});
    b.op(p, sw::Barrier{sw::ProcSet({0, 1, 2})});
  }
  b.op(3, sw::Compute{sw::Cycle{2}});  // not in the group: not held back
  const sw::RunSummary r = run(system, b.build());
  ASSERT_TRUE(r.completed);
  for (sw::ProcId p = 0; p < 3; ++p) {
    EXPECT_EQ(r.processor_end[p].count(), 17u + 7u) << "P" << p;
  }
  EXPECT_EQ(r.processor_end[3].count(), 2u);
}

TEST(Watchdog, CircularWaitSyncIsReportedWithWhatEachProcessorWaitsFor) {
  traces::Recorder silent;
  sc::Multiprocessor system("omp", config(Arch::Omp, 3).validated(), silent);
  ProgramBuilder b(Arch::Omp, 3);
  b.op(0, sw::WaitSync{1});
  b.op(1, sw::WaitSync{0});
  b.op(2, sw::Barrier{sw::ProcSet({0, 2})});
  const sw::RunSummary r = run(system, b.build());
  EXPECT_FALSE(r.completed);
  ASSERT_EQ(r.blocked.size(), 3u);
  EXPECT_NE(r.blocked[0].find("P0 at op 0: waits for activate-sync from P1"), std::string::npos)
      << r.blocked[0];
  EXPECT_NE(r.blocked[1].find("P1 at op 0: waits for activate-sync from P0"), std::string::npos)
      << r.blocked[1];
  EXPECT_NE(r.blocked[2].find("waits at barrier {0,2} for P0"), std::string::npos) << r.blocked[2];
}

/// P0 computes 4 cycles and waits for an activate-sync from P2, which computes 6 cycles and
/// finishes without raising it; P1 computes 9 cycles.
sw::MachineProgram a_wait_sync_that_never_comes() {
  ProgramBuilder b(Arch::Omp, 3);
  b.op(0, sw::Compute{sw::Cycle{4}});
  b.op(0, sw::WaitSync{2});
  b.op(1, sw::Compute{sw::Cycle{9}});
  b.op(2, sw::Compute{sw::Cycle{6}});
  return b.build();
}

// A wait-sync whose activate-sync is never raised: the run ends when nothing can happen any more,
// and the report names the one blocked processor and what it waits for.
TEST(Watchdog, AWaitSyncThatNeverComesIsReportedWithTheBlockedProcessor) {
  traces::Recorder silent;
  sc::Multiprocessor system("omp", config(Arch::Omp, 3).validated(), silent);
  const sw::RunSummary r = run(system, a_wait_sync_that_never_comes());
  EXPECT_FALSE(r.completed);
  ASSERT_EQ(r.blocked.size(), 1u);
  EXPECT_NE(r.blocked[0].find("P0 at op 1: waits for activate-sync from P2"), std::string::npos)
      << r.blocked[0];
  EXPECT_EQ(r.processor_end[1].count(), 9u);
  EXPECT_EQ(r.processor_end[2].count(), 6u);
}

// A deadlocked run leaves a request waiting for a module; the next program starts clean.
TEST(Watchdog, TheProgramAfterADeadlockRunsCleanly) {
  traces::Recorder silent;
  sc::Multiprocessor system("omp", config(Arch::Omp, 2).validated(), silent);
  ProgramBuilder stuck(Arch::Omp, 2);
  stuck.proc(0).index_sets = {{0}};
  stuck.op(0, sw::WaitSync{1});
  stuck.op(1, sw::Barrier{sw::ProcSet({0, 1})});
  EXPECT_FALSE(run(system, stuck.build()).completed);

  ProgramBuilder good(Arch::Omp, 2);
  good.proc(0).index_sets = {{0}};
  good.op(0, access(Direction::Write, row(0), {1}, 0, 2, 0));
  const sw::RunSummary r = run(system, good.build());
  EXPECT_TRUE(r.completed);
  EXPECT_EQ(r.cycles.count(), block(system.config().timing, 1, 2));
  EXPECT_EQ(r.conflicts, 0u);
}

// A run cut at the cycle limit in the middle of an access (P0 writes l = 200 words, 614 cycles)
// reports the limit as its length and the limit alone as why it stopped; a run of exactly the
// limit's length is not cut, and the next program's statistics are its own.
TEST(Watchdog, ARunIsCutAtTheCycleLimitAndNotAtItsLastCycle) {
  traces::Recorder silent;
  sc::Multiprocessor cut_system("cut", config(Arch::Omp, 2).validated(), silent);
  sc::Multiprocessor exact_system("exact", config(Arch::Omp, 2).validated(), silent);
  const sw::BusTiming& t = cut_system.config().timing;
  ProgramBuilder writer(Arch::Omp, 2);
  writer.proc(0).index_sets = {{0}};
  writer.op(0, access(Direction::Write, row(0), {1}, 0, 200, 0));
  const sw::Cycle limit{100};
  ASSERT_GT(block(t, 1, 200), limit.count());
  cut_system.load(writer.build());
  sc::run_systems({&cut_system}, limit);
  const sw::RunSummary cut = cut_system.result();
  EXPECT_FALSE(cut.completed);
  EXPECT_TRUE(cut.cycle_limit_reached);
  EXPECT_EQ(cut.cycles, limit);
  EXPECT_EQ(cut.blocked,
            (std::vector<std::string>{
                "cycle limit reached: the run stopped after 100 cycles, still running"}));

  const auto compute = [](std::uint64_t cycles) {
    ProgramBuilder b(Arch::Omp, 2);
    b.op(1, sw::Compute{sw::Cycle{cycles}});
    return b.build();
  };
  exact_system.load(compute(50));
  sc::run_systems({&exact_system}, sw::Cycle{50});
  const sw::RunSummary exact = exact_system.result();
  EXPECT_TRUE(exact.completed);
  EXPECT_FALSE(exact.cycle_limit_reached);
  EXPECT_EQ(exact.cycles.count(), 50u);
  const sw::RunSummary next = run(exact_system, compute(7));
  EXPECT_EQ(next.cycles.count(), 7u);
  EXPECT_EQ(stat_of(next, "exact.p1.compute_cycles"), 7u);
}

// Two systems run side by side up to one limit: the one that finished before it is complete, not
// cut; only the other one reports the limit.
TEST(Watchdog, OfTwoSystemsRunTogetherOnlyTheOneStillRunningIsCut) {
  traces::Recorder silent;
  sc::Multiprocessor quick("quick", config(Arch::Omp, 2).validated(), silent);
  sc::Multiprocessor slow("slow", config(Arch::Omp, 2).validated(), silent);
  ProgramBuilder short_one(Arch::Omp, 2);
  short_one.op(0, sw::Compute{sw::Cycle{10}});
  ProgramBuilder long_one(Arch::Omp, 2);
  long_one.op(0, sw::Compute{sw::Cycle{500}});
  quick.load(short_one.build());
  slow.load(long_one.build());
  sc::run_systems({&quick, &slow}, sw::Cycle{100});
  const sw::RunSummary q = quick.result();
  const sw::RunSummary s = slow.result();
  EXPECT_TRUE(q.completed);
  EXPECT_FALSE(q.cycle_limit_reached);
  EXPECT_EQ(q.cycles.count(), 10u);
  EXPECT_TRUE(q.blocked.empty());
  EXPECT_FALSE(s.completed);
  EXPECT_TRUE(s.cycle_limit_reached);
  EXPECT_EQ(s.cycles.count(), 100u);
}

// A result is its own program's: a system that ran another program before (to its end, or beside
// a system cut at the cycle limit) reports a deadlocked program as a fresh system does, with each
// processor's end counted from its own load and no cycle limit it did not reach.
TEST(Watchdog, ARunAfterAnotherReportsAsOnAFreshSystem) {
  traces::Recorder silent;
  // All systems are built before the first run: SystemC takes no module once it has started.
  sc::Multiprocessor fresh("fresh", config(Arch::Omp, 3).validated(), silent);
  sc::Multiprocessor reused("reused", config(Arch::Omp, 3).validated(), silent);
  sc::Multiprocessor quick("quick", config(Arch::Omp, 3).validated(), silent);
  sc::Multiprocessor slow("slow", config(Arch::Omp, 3).validated(), silent);
  const sw::MachineProgram stuck = a_wait_sync_that_never_comes();
  const auto compute = [](std::uint64_t cycles) {
    ProgramBuilder b(Arch::Omp, 3);
    b.op(1, sw::Compute{sw::Cycle{cycles}});
    return b.build();
  };
  const sw::RunSummary expected = run(fresh, stuck);
  ASSERT_FALSE(expected.completed);
  ASSERT_FALSE(expected.cycle_limit_reached);
  ASSERT_EQ(expected.blocked.size(), 1u);

  ASSERT_TRUE(run(reused, compute(50)).completed);
  const sw::RunSummary again = run(reused, stuck);
  EXPECT_FALSE(again.completed);
  EXPECT_FALSE(again.cycle_limit_reached);
  EXPECT_EQ(again.blocked, expected.blocked);
  EXPECT_EQ(again.processor_end, expected.processor_end);
  EXPECT_EQ(again.cycles, expected.cycles);

  quick.load(compute(10));
  slow.load(compute(500));
  sc::run_systems({&quick, &slow}, sw::Cycle{100});
  ASSERT_TRUE(quick.result().completed);
  ASSERT_TRUE(slow.result().cycle_limit_reached);
  const sw::RunSummary after_cut = run(quick, stuck);
  EXPECT_FALSE(after_cut.completed);
  EXPECT_FALSE(after_cut.cycle_limit_reached);
  EXPECT_EQ(after_cut.blocked, expected.blocked);
}

// A step ends when its last processor passes it, whichever processor that is: here P0, the
// first, passes step 0 after P1 and P2 (at 12 against 3 and 7), and P2 passes step 1 last.
TEST(Sync, AStepEndsWhenItsLastProcessorPassesIt) {
  traces::Recorder silent;
  sc::Multiprocessor system("omp", config(Arch::Omp, 3).validated(), silent);
  ProgramBuilder b(Arch::Omp, 3);
  const std::vector<std::pair<std::uint64_t, std::uint64_t>> computes = {{12, 1}, {3, 2}, {7, 9}};
  for (sw::ProcId p = 0; p < 3; ++p) {
    b.op(p, sw::Compute{sw::Cycle{computes[p].first}});
    b.op(p, sw::StepMark{0});
    b.op(p, sw::Compute{sw::Cycle{computes[p].second}});
    b.op(p, sw::StepMark{1});
  }
  const sw::RunSummary r = run(system, b.build());
  ASSERT_TRUE(r.completed);
  EXPECT_EQ(r.step_ends, (std::vector<sw::Cycle>{sw::Cycle{12}, sw::Cycle{16}}));
  EXPECT_EQ(r.cycles.count(), 16u);
}

// The memory estimate counts the words a program can leave in the modules and the data buffers:
// a write raises its modules' tops to its last address, a read (an IWR step's read half too) the
// buffers of its index set to its vectors. Three more vectors on two modules or two buffers are
// six words more, whichever op carries them.
// run_systems reports progress between slices of simulated time, the first one
// sc::kFirstProgressSlice (4096) cycles long: a run of three computes of 100 cycles ends at cycle
// 300, inside that first slice, which leaves nothing to run, so `between` is called once.
TEST(Watchdog, ARunShorterThanTheFirstProgressSliceIsOneSlice) {
  traces::Recorder silent;
  sc::Multiprocessor system("short", config(Arch::Omp, 2).validated(), silent);
  ProgramBuilder b(Arch::Omp, 2);
  for (int k = 0; k < 3; ++k) {
    b.op(0, sw::Compute{sw::Cycle{100}});
  }
  ASSERT_LT(300u, sc::kFirstProgressSlice.count());
  system.load(b.build());
  int slices = 0;
  sc::run_systems({&system}, kLimit, [&] { ++slices; });
  const sw::RunSummary r = system.result();
  EXPECT_TRUE(r.completed);
  EXPECT_EQ(r.cycles.count(), 300u);
  EXPECT_EQ(slices, 1);
}

TEST(Footprint, AWriteCountsItsModulesWordsAndAReadItsBuffersWords) {
  const auto footprint = [](const sw::Op& op) {
    ProgramBuilder b(Arch::Omp, 4);
    b.proc(0).index_sets = {{0, 2}};
    b.op(0, op);
    return sc::Multiprocessor::footprint(b.build(), config(Arch::Omp, 4));
  };
  const auto write = [](std::uint32_t l) { return access(Direction::Write, row(0), {1, 3}, 4, l); };
  const auto read = [](std::uint32_t l) {
    return access(Direction::Read, column(0), {1, 3}, 4, l);
  };
  const auto iwr = [&](std::uint32_t lw, std::uint32_t lr) {
    return sw::Iwr(write(lw), read(lr), sw::ProcSet::all(4));
  };
  const std::uint64_t six_words = 6 * sizeof(sw::Word);
  EXPECT_EQ(footprint(write(5)) - footprint(write(2)), six_words);
  EXPECT_EQ(footprint(read(5)) - footprint(read(2)), six_words);
  EXPECT_EQ(footprint(iwr(5, 2)) - footprint(iwr(2, 2)), six_words);
  EXPECT_EQ(footprint(iwr(2, 5)) - footprint(iwr(2, 2)), six_words);
  // A module's top is the write's last address: three addresses higher on two modules is six
  // words more; a buffer's top is a load's last buffer word: from word 6 instead of 0, six more.
  const auto write_at = [](std::uint32_t address) {
    return access(Direction::Write, row(0), {1, 3}, address, 2);
  };
  EXPECT_EQ(footprint(write_at(7)) - footprint(write_at(4)), six_words);
  EXPECT_EQ(footprint(sw::LoadBuffer{1, 0, 3, 6}) - footprint(sw::LoadBuffer{1, 0, 3, 0}),
            six_words);
}

// Beside the words, the estimate counts what the run holds whatever the program does (docs/cli.md,
// Memory): a fixed cost per processor (its blocks and kernel objects, 8 KiB as measured), each
// module's store, each message's record and delivery check, each index set and each op as
// encoded. One more of each adds exactly its bytes; a read fills its buffers from their start
// whatever its module address.
TEST(Footprint, EachProcessorModuleMessageIndexSetAndOpAddsItsBytes) {
  const auto ops_bytes = [](const sw::MachineProgram& program) {
    std::uint64_t bytes = 0;
    for (const sw::ProcessorProgram& p : program.processors) {
      bytes += p.ops.bytes();
    }
    return bytes;
  };
  const sw::MachineProgram two = ProgramBuilder(Arch::Omp, 2).build();
  const sw::MachineProgram four = ProgramBuilder(Arch::Omp, 4).build();
  // From 2 to 4 processors: 2 more processors, 16 - 4 more modules (the omp has n^2).
  EXPECT_EQ(sc::Multiprocessor::footprint(four, config(Arch::Omp, 4)) -
                sc::Multiprocessor::footprint(two, config(Arch::Omp, 2)),
            2 * 8 * 1024 + 12 * sizeof(sc::WordStore) + ops_bytes(four) - ops_bytes(two));

  const auto footprint = [](const sw::MachineProgram& program) {
    return sc::Multiprocessor::footprint(program, config(Arch::Omp, 4));
  };
  ProgramBuilder base(Arch::Omp, 4);
  base.proc(0).index_sets = {{0, 2}};
  base.op(0, sw::Compute{sw::Cycle{3}});
  const sw::MachineProgram program = base.build();

  sw::MachineProgram one_more_message = program;
  one_more_message.messages.push_back(sw::Message{});
  EXPECT_EQ(footprint(one_more_message) - footprint(program),
            sizeof(sw::Message) + sw::MessageMemory::kBytesPerMessage);

  sw::MachineProgram one_more_set = program;
  one_more_set.processors[1].index_sets.push_back({0, 1, 2});
  EXPECT_EQ(footprint(one_more_set) - footprint(program),
            sizeof(sw::IndexSet) + 3 * sizeof(std::uint32_t));

  ProgramBuilder longer(Arch::Omp, 4);
  longer.proc(0).index_sets = {{0, 2}};
  longer.op(0, sw::Compute{sw::Cycle{3}});
  longer.op(1, sw::Compute{sw::Cycle{5}});
  const sw::MachineProgram one_more_op = longer.build();
  ASSERT_GT(ops_bytes(one_more_op), ops_bytes(program));
  EXPECT_EQ(footprint(one_more_op) - footprint(program),
            ops_bytes(one_more_op) - ops_bytes(program));

  const auto read_at = [&](std::uint32_t address) {
    ProgramBuilder b(Arch::Omp, 4);
    b.proc(0).index_sets = {{0, 2}};
    b.op(0, access(Direction::Read, column(0), {1, 3}, address, 2));
    return footprint(b.build());
  };
  EXPECT_EQ(read_at(10), read_at(0));
}

TEST(Validation, AProgramThatDrivesAnotherProcessorsBusIsRejectedBeforeRunning) {
  traces::Recorder silent;
  sc::Multiprocessor system("omp", config(Arch::Omp, 2).validated(), silent);
  ProgramBuilder b(Arch::Omp, 2);
  b.proc(0).index_sets = {{0}};
  b.op(0, access(Direction::Write, row(1), {0}, 0, 1, 0));
  try {
    system.load(b.build());
    FAIL() << "expected a ConfigError";
  } catch (const sw::ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("BC(0) cannot drive RB(1)"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace orthosim
