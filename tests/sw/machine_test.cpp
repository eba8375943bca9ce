// The machine-program layer: ProcSet, the validation of a program against the hardware of
// [PH91] section 3.1 (buses a controller drives, module slots, block sizes) and section 3.2 (index
// sets, Fig. 6: replication is a write feature), the payload generator and the delivery check.
// Every rejection must name the processor and the op; programs are hand-built around the
// SystemConfig defaults.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "sw/arch/system_config.hpp"
#include "sw/core/diagnostic.hpp"
#include "sw/machine/delivery_check.hpp"
#include "sw/machine/describe.hpp"
#include "sw/machine/machine_program.hpp"
#include "sw/machine/payload.hpp"
#include "sw/machine/validate.hpp"
#include "tests/support/program_builder.hpp"

namespace orthosim {
namespace {

using sw::Arch;
using sw::Direction;
using sw::ProcSet;
using testing_support::access;
using testing_support::column;
using testing_support::ProgramBuilder;
using testing_support::row;
using testing_support::shared;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// ---- ProcSet -------------------------------------------------------------------------------

TEST(ProcSet, SortsAndRemovesDuplicates) {
  const ProcSet s({3, 1, 3, 0, 1, 7});
  EXPECT_EQ(s.members(), (std::vector<sw::ProcId>{0, 1, 3, 7}));
  EXPECT_EQ(s.size(), 4u);
  EXPECT_FALSE(s.empty());
  EXPECT_EQ(s.to_string(), "{0,1,3,7}");
}

TEST(ProcSet, ContainsExactlyItsMembers) {
  const std::vector<sw::ProcId> members = {5, 2, 9, 2};
  const ProcSet s(members);
  for (sw::ProcId p = 0; p < 12; ++p) {
    const bool member = p == 2 || p == 5 || p == 9;
    EXPECT_EQ(s.contains(p), member) << "P" << p;
  }
}

TEST(ProcSet, EqualityIgnoresOrderAndRepetition) {
  EXPECT_EQ(ProcSet({2, 0, 1}), ProcSet({0, 1, 2, 2, 0}));
  EXPECT_FALSE(ProcSet({0, 1}) == ProcSet({0, 2}));
  EXPECT_TRUE(ProcSet({0, 1}) < ProcSet({0, 2}));
  EXPECT_FALSE(ProcSet({0, 2}) < ProcSet({0, 1}));
}

TEST(ProcSet, EmptyAndAll) {
  EXPECT_TRUE(ProcSet().empty());
  EXPECT_TRUE(ProcSet(std::vector<sw::ProcId>{}).empty());
  EXPECT_EQ(ProcSet().to_string(), "{}");
  for (std::uint32_t n = 1; n <= 9; ++n) {
    const ProcSet all = ProcSet::all(n);
    ASSERT_EQ(all.size(), n);
    for (sw::ProcId p = 0; p < n; ++p) {
      EXPECT_EQ(all.members()[p], p);
    }
    EXPECT_FALSE(all.contains(n));
  }
}

// ---- validate ------------------------------------------------------------------------------

constexpr std::uint32_t kN = 4;
constexpr sw::ProcId kP = 2;  ///< the processor that carries the op under test, as its op 1

sw::SystemConfig config(Arch arch) {
  sw::SystemConfig c;
  c.arch = arch;
  c.n = kN;
  return c;
}

/// Every processor has index sets `sets`; P2 runs a compute op and then `op`.
sw::MachineProgram program_with(Arch arch, const sw::Op& op,
                                const std::vector<sw::IndexSet>& sets = {{0, 1, 2, 3}}) {
  ProgramBuilder b(arch, kN);
  for (sw::ProcId p = 0; p < kN; ++p) {
    b.proc(p).index_sets = sets;
  }
  b.op(kP, sw::Compute{sw::Cycle{3}});
  b.proc(kP).ops.push_back(op);
  return b.build();
}

/// The validation error, or "" when the program is accepted.
std::string rejection(const sw::MachineProgram& program, const sw::SystemConfig& c) {
  try {
    sw::validate(program, c);
  } catch (const sw::ConfigError& e) {
    return e.what();
  }
  return "";
}

/// Expects the op under test to be rejected, the message naming P2, op 1 and `fragment`.
void expect_op_rejected(Arch arch, const sw::Op& op, const std::string& fragment,
                        const std::vector<sw::IndexSet>& sets = {{0, 1, 2, 3}}) {
  const std::string why = rejection(program_with(arch, op, sets), config(arch));
  EXPECT_TRUE(contains(why, "P2 op 1 ")) << "'" << why << "'";
  EXPECT_TRUE(contains(why, fragment)) << "'" << why << "' lacks '" << fragment << "'";
}

void expect_op_accepted(Arch arch, const sw::Op& op,
                        const std::vector<sw::IndexSet>& sets = {{0, 1, 2, 3}}) {
  EXPECT_EQ(rejection(program_with(arch, op, sets), config(arch)), "");
}

TEST(Validate, AcceptsAccessesOnTheBusesAControllerDrives) {
  expect_op_accepted(Arch::Omp, access(Direction::Write, row(kP), {0, 1, 3}, 0, 4));
  expect_op_accepted(Arch::Omp, access(Direction::Read, column(kP), {3, 0}, 7, 2));
  for (std::uint32_t b = 0; b < kN; ++b) {
    expect_op_accepted(Arch::Crossbar, access(Direction::Write, shared(b), {0, 1}));
  }
  expect_op_accepted(Arch::Bus, access(Direction::Read, shared(0), {2, 1, 0, 3}));
}

TEST(Validate, RejectsABusTheControllerCannotDrive) {
  expect_op_rejected(Arch::Omp, access(Direction::Write, row(1), {0}), "RB(1)");
  expect_op_rejected(Arch::Omp, access(Direction::Read, column(3), {0}), "CB(3)");
  expect_op_rejected(Arch::Omp, access(Direction::Read, shared(0), {0}), "no bus");
  expect_op_rejected(Arch::Crossbar, access(Direction::Read, row(kP), {0}), "no bus");
  expect_op_rejected(Arch::Crossbar, access(Direction::Read, shared(kN), {0}), "no bus");
  expect_op_rejected(Arch::Bus, access(Direction::Read, shared(1), {0}), "no bus");
}

TEST(Validate, RejectsASlotPastTheBus) {
  expect_op_rejected(Arch::Omp, access(Direction::Write, row(kP), {0, kN}), "slot 4");
  expect_op_rejected(Arch::Bus, access(Direction::Read, shared(0), {kN + 3}), "slot 7");
}

TEST(Validate, RejectsADuplicateSlot) {
  expect_op_rejected(Arch::Omp, access(Direction::Write, row(kP), {1, 3, 1}), "slot 1");
  expect_op_rejected(Arch::Crossbar, access(Direction::Read, shared(0), {2, 2}), "twice");
}

TEST(Validate, RejectsAnAccessWithoutModules) {
  expect_op_rejected(Arch::Omp, access(Direction::Write, row(kP), {}), "at least one module");
}

TEST(Validate, BlockLengthMustBeOneToBufferWords) {
  const std::uint32_t big_l = sw::SystemConfig{}.buffer_words;
  expect_op_rejected(Arch::Omp, access(Direction::Write, row(kP), {0}, 0, 0), "l = 0");
  expect_op_rejected(Arch::Omp, access(Direction::Write, row(kP), {0}, 0, big_l + 1),
                     "l = " + std::to_string(big_l + 1));
  expect_op_accepted(Arch::Omp, access(Direction::Write, row(kP), {0}, 0, big_l));
}

TEST(Validate, BlockMustFitTheModuleDepth) {
  const std::uint32_t depth = sw::SystemConfig{}.module_words;
  expect_op_rejected(Arch::Omp, access(Direction::Write, row(kP), {0}, depth - 3, 4),
                     "module depth");
  expect_op_rejected(Arch::Omp, access(Direction::Read, column(kP), {0}, depth, 1), "module depth");
  expect_op_accepted(Arch::Omp, access(Direction::Write, row(kP), {0}, depth - 4, 4));
}

TEST(Validate, RejectsAnIndexSetThatIsNotLoaded) {
  expect_op_rejected(Arch::Omp, access(Direction::Write, row(kP), {0}, 0, 1, 1), "index set 1");
  expect_op_rejected(Arch::Omp, access(Direction::Write, row(kP), {0}, 0, 1, 0), "index set 0", {});
}

TEST(Validate, RejectsAnIndexSetShorterThanTheDegree) {
  expect_op_rejected(Arch::Omp, access(Direction::Read, column(kP), {0, 1, 2}), "index set 0",
                     {{0, 1}});
  expect_op_accepted(Arch::Omp, access(Direction::Read, column(kP), {0, 1}), {{0, 1}});
}

TEST(Validate, RejectsAnIndexSetNamingAMissingBuffer) {
  const sw::MachineProgram p =
      program_with(Arch::Omp, sw::Compute{sw::Cycle{1}}, {{0, 1, 2, 3}, {0, kN}});
  const std::string why = rejection(p, config(Arch::Omp));
  EXPECT_TRUE(contains(why, "P0")) << why;
  EXPECT_TRUE(contains(why, "buffer 4")) << why;
}

// Fig. 6: a write with index set {1,1,2} replicates buffer 1 into two modules; a read with a
// repeated buffer would overwrite the first word, so it is rejected.
TEST(Validate, RepeatedBufferIsAllowedOnWriteOnly) {
  const std::vector<sw::IndexSet> sets = {{1, 1, 2}};
  expect_op_accepted(Arch::Bus, access(Direction::Write, shared(0), {0, 1, 2}), sets);
  expect_op_rejected(Arch::Bus, access(Direction::Read, shared(0), {0, 1, 2}), "buffer 1", sets);
  expect_op_rejected(Arch::Omp, access(Direction::Read, column(kP), {3, 1}, 0, 2), "buffer 1",
                     sets);
  // Only the first d positions of the set are used: a repeat beyond them does not matter.
  expect_op_accepted(Arch::Bus, access(Direction::Read, shared(0), {0}, 0, 1), sets);
  expect_op_accepted(Arch::Bus, access(Direction::Read, shared(0), {0, 1}, 0, 1), {{2, 1, 1}});
}

sw::Iwr iwr(Direction first, Direction second, ProcSet group = ProcSet::all(kN)) {
  return sw::Iwr{access(first, row(kP), {0, 1}, 0, 2), access(second, column(kP), {3, 0}, 0, 2),
                 std::move(group)};
}

TEST(Validate, IwrIsAWriteThenARead) {
  expect_op_accepted(Arch::Omp, iwr(Direction::Write, Direction::Read));
  expect_op_rejected(Arch::Omp, iwr(Direction::Read, Direction::Read), "IWR");
  expect_op_rejected(Arch::Omp, iwr(Direction::Write, Direction::Write), "IWR");
  expect_op_rejected(Arch::Omp, iwr(Direction::Read, Direction::Write), "IWR");
}

TEST(Validate, IwrHalvesAreCheckedAsAccesses) {
  sw::Iwr bad_bus = iwr(Direction::Write, Direction::Read);
  bad_bus.read().bus = column(kP + 1);
  expect_op_rejected(Arch::Omp, bad_bus, "CB(3)");
  sw::Iwr bad_l = iwr(Direction::Write, Direction::Read);
  bad_l.write().vectors = 0;
  expect_op_rejected(Arch::Omp, bad_l, "l = 0");
}

// A decoded op is as large as the largest alternative, so the IWR step's two accesses live apart
// from it.
TEST(MachineProgram, AnOpIsNoLargerThanAMemoryAccessAndItsTag) {
  EXPECT_LE(sizeof(sw::Op), sizeof(sw::MemoryAccess) + sizeof(void*));
}

TEST(MachineProgram, ACopiedIwrOwnsItsParts) {
  const sw::Iwr original = iwr(Direction::Write, Direction::Read);
  sw::Iwr copy = original;
  copy.read().address = 7;
  copy.write().vectors = 5;
  EXPECT_EQ(original.read().address, 0u);
  EXPECT_EQ(original.write().vectors, 2u);
  sw::Iwr assigned = iwr(Direction::Read, Direction::Read, ProcSet({kP}));
  assigned = original;
  EXPECT_EQ(assigned.write().direction, Direction::Write);
  EXPECT_EQ(assigned.group(), original.group());
  assigned.read().vectors = 9;
  EXPECT_EQ(original.read().vectors, 2u);
}

// ---- OpList: ops held encoded --------------------------------------------------------------

/// Every field of an op, in one list (its alternative first), to compare two ops whole.
std::vector<std::uint64_t> fields_of(const sw::Op& op) {
  std::vector<std::uint64_t> f{op.index()};
  const auto access = [&f](const sw::MemoryAccess& a) {
    f.insert(f.end(),
             {static_cast<std::uint64_t>(a.direction), static_cast<std::uint64_t>(a.bus.kind),
              a.bus.index, a.address, a.vectors, a.index_set, a.slots.size()});
    f.insert(f.end(), a.slots.begin(), a.slots.end());
    f.push_back(a.consumed);
  };
  const auto set = [&f](const ProcSet& s) {
    f.push_back(s.size());
    f.insert(f.end(), s.members().begin(), s.members().end());
  };
  if (const auto* c = std::get_if<sw::Compute>(&op)) {
    f.push_back(c->cycles.count());
  } else if (const auto* a = std::get_if<sw::MemoryAccess>(&op)) {
    access(*a);
  } else if (const auto* w = std::get_if<sw::Iwr>(&op)) {
    access(w->write());
    access(w->read());
    set(w->group());
  } else if (const auto* b = std::get_if<sw::BusSwitch>(&op)) {
    set(b->group);
  } else if (const auto* as = std::get_if<sw::ActivateSync>(&op)) {
    set(as->targets);
  } else if (const auto* ws = std::get_if<sw::WaitSync>(&op)) {
    f.push_back(ws->source);
  } else if (const auto* br = std::get_if<sw::Barrier>(&op)) {
    set(br->group);
  } else if (const auto* l = std::get_if<sw::LoadBuffer>(&op)) {
    f.insert(f.end(), {l->buffer, l->local_address, l->words, l->buffer_address});
  } else if (const auto* st = std::get_if<sw::StoreBuffer>(&op)) {
    f.insert(f.end(), {st->buffer, st->local_address, st->words, st->buffer_address});
  } else if (const auto* m = std::get_if<sw::StepMark>(&op)) {
    f.push_back(m->step);
  }
  return f;
}

/// Every alternative, with fields at the edges of the encoding's 7-bit groups: 0, 127, 128,
/// 16383, 16384 and the largest values (every field of an access reaches 32 bits in one of the
/// two, so that a field kept in fewer bits shows).
std::vector<sw::Op> every_kind_of_op(std::uint32_t salt) {
  constexpr std::uint32_t kMax = 0xFFFFFFFFu;
  sw::MemoryAccess write = access(Direction::Write, column(3), {0, 127, 128, kMax}, 16383, 16384);
  write.index_set = 128 + salt;
  sw::MemoryAccess read = access(Direction::Read, row(kMax), {salt}, kMax, kMax - salt);
  read.index_set = kMax - salt;
  read.consumed = salt % 2 == 0 ? 0 : kMax - salt;
  return {sw::Compute{sw::Cycle{~std::uint64_t{0} >> 1}},
          sw::Compute{sw::Cycle{salt}},
          write,
          read,
          sw::Iwr(write, read, ProcSet({0, 200, kMax})),
          sw::BusSwitch{ProcSet({salt, 128})},
          sw::ActivateSync{ProcSet({127})},
          sw::ActivateSync{ProcSet()},
          sw::WaitSync{kMax - salt},
          sw::Barrier{ProcSet::all(130)},
          sw::LoadBuffer{salt, kMax, 128, 127},
          sw::StoreBuffer{16384, 0, kMax, salt},
          sw::StepMark{kMax}};
}

// Every op reads back with every field as it was appended, in order, by iteration, by index
// (across the checkpoints of operator[]) and by a Reader.
TEST(OpList, ReadsBackEveryOpAsAppended) {
  std::vector<sw::Op> ops;
  for (std::uint32_t salt = 0; ops.size() < 200; ++salt) {
    for (sw::Op& op : every_kind_of_op(salt * 61)) {
      ops.push_back(std::move(op));
    }
  }
  sw::OpList list;
  for (const sw::Op& op : ops) {
    list.push_back(op);
  }
  ASSERT_EQ(list.size(), ops.size());
  std::size_t i = 0;
  for (const sw::Op& op : list) {
    ASSERT_LT(i, ops.size());
    EXPECT_EQ(fields_of(op), fields_of(ops[i])) << "op " << i;
    ++i;
  }
  EXPECT_EQ(i, ops.size());
  for (std::size_t k = ops.size(); k-- > 0;) {
    EXPECT_EQ(fields_of(list[k]), fields_of(ops[k])) << "op " << k;
  }
  sw::OpList::Reader reader(list);
  for (const sw::Op& op : ops) {
    ASSERT_FALSE(reader.at_end());
    EXPECT_EQ(fields_of(reader.next()), fields_of(op));
  }
  EXPECT_TRUE(reader.at_end());
  EXPECT_EQ(fields_of(sw::OpList(ops).back()), fields_of(ops.back()));
  EXPECT_TRUE(sw::OpList().empty());
  EXPECT_TRUE(sw::OpList::Reader(sw::OpList()).at_end());
}

// An index past the last op is refused by name, at a checkpoint's boundary (64 ops) and
// between two.
TEST(OpList, AnIndexPastTheLastOpIsRefused) {
  for (const std::size_t n : {5u, 64u}) {
    sw::OpList list;
    for (std::size_t k = 0; k < n; ++k) {
      list.push_back(sw::StepMark{static_cast<std::uint32_t>(k)});
    }
    try {
      (void)list[n];
      ADD_FAILURE() << "op " << n << " of " << n << " read";
    } catch (const std::out_of_range& e) {
      EXPECT_EQ(std::string(e.what()), "op " + std::to_string(n) + " of " + std::to_string(n));
    }
  }
}

// A Reader asked past the last op refuses instead of decoding whatever follows the list's bytes:
// a step mark of 3 is its tag and one byte, so the end is at byte 2.
TEST(OpList, AReaderPastTheLastOpIsRefused) {
  sw::OpList list{sw::StepMark{3}};
  list.shrink_to_fit();
  sw::OpList::Reader reader(list);
  EXPECT_EQ(fields_of(reader.next()), fields_of(sw::StepMark{3}));
  ASSERT_TRUE(reader.at_end());
  try {
    (void)reader.next();
    ADD_FAILURE() << "an op read past the end";
  } catch (const std::out_of_range& e) {
    EXPECT_EQ(std::string(e.what()), "OpList: an op runs past the end at byte 2");
  }
}

// The ops of a mapped message hold their small fields in one byte each: a copy of 4 fields
// below 128 is its tag and 4 bytes, plus one checkpoint offset per 64 ops. 1100 ops have 18
// checkpoints, not a power of two, so that spare capacity left in either vector shows.
TEST(OpList, SmallFieldsTakeOneByteEach) {
  constexpr std::size_t kOps = 1100;
  sw::OpList list;
  for (std::uint32_t k = 0; k < kOps; ++k) {
    list.emplace_back(sw::LoadBuffer{k % 8, k % 128, 8, 0});
  }
  list.shrink_to_fit();
  const std::size_t checkpoints = (kOps + 63) / 64;
  EXPECT_EQ(list.bytes(), kOps * 5 + checkpoints * sizeof(std::size_t));
}

TEST(Validate, OnlyAReadConsumesItsWords) {
  sw::MemoryAccess write = access(Direction::Write, row(kP), {0});
  write.consumed = 1;
  expect_op_rejected(Arch::Omp, write, "only a read consumes the words it accesses");
  sw::MemoryAccess read = access(Direction::Read, row(kP), {0});
  read.consumed = 3;  // more than it reads: the padding of a longer write
  expect_op_accepted(Arch::Omp, read);
  read.consumed = config(Arch::Omp).module_words + 1;
  expect_op_rejected(Arch::Omp, read, "consumed addresses 0..");
  // The consumed words start at the access's address: from depth - 3, three fit and four do not.
  const std::uint32_t depth = config(Arch::Omp).module_words;
  sw::MemoryAccess deep = access(Direction::Read, row(kP), {0}, depth - 3, 1);
  deep.consumed = 3;
  expect_op_accepted(Arch::Omp, deep);
  deep.consumed = 4;
  expect_op_rejected(Arch::Omp, deep, "consumed addresses " + std::to_string(depth - 3) + "..");
}

TEST(Validate, GroupsMustContainTheProcessor) {
  const ProcSet others({0, 1, 3});
  expect_op_rejected(Arch::Omp, iwr(Direction::Write, Direction::Read, others), "contain P2");
  expect_op_rejected(Arch::Crossbar, sw::BusSwitch{others}, "contain P2");
  expect_op_rejected(Arch::Bus, sw::Barrier{others}, "contain P2");
  expect_op_accepted(Arch::Crossbar, sw::BusSwitch{ProcSet({kP})});
  expect_op_accepted(Arch::Bus, sw::Barrier{ProcSet({1, kP})});
}

TEST(Validate, GroupsMayNameOnlyExistingProcessors) {
  expect_op_rejected(Arch::Bus, sw::Barrier{ProcSet({kP, kN})}, "P4");
  expect_op_rejected(Arch::Crossbar, sw::BusSwitch{ProcSet({kP, 9})}, "P9");
}

TEST(Validate, SyncRules) {
  expect_op_rejected(Arch::Omp, sw::WaitSync{kP}, "itself");
  expect_op_rejected(Arch::Omp, sw::WaitSync{kN}, "P4");
  expect_op_accepted(Arch::Omp, sw::WaitSync{0});
  expect_op_rejected(Arch::Omp, sw::ActivateSync{ProcSet()}, "at least one target");
  expect_op_rejected(Arch::Omp, sw::ActivateSync{ProcSet({0, kP})}, "itself");
  expect_op_rejected(Arch::Omp, sw::ActivateSync{ProcSet({0, kN + 1})}, "P5");
  expect_op_accepted(Arch::Omp, sw::ActivateSync{ProcSet({0, 1, 3})});
}

TEST(Validate, LoadAndStoreStayInLocalMemoryAndBuffers) {
  const sw::SystemConfig c;
  const std::uint32_t top = c.local_words;
  expect_op_rejected(Arch::Omp, sw::LoadBuffer{0, top - 1, 2}, "local memory");
  expect_op_rejected(Arch::Omp, sw::StoreBuffer{1, top, 1}, "local memory");
  expect_op_accepted(Arch::Omp, sw::LoadBuffer{0, top - 2, 2});
  expect_op_accepted(Arch::Omp, sw::StoreBuffer{3, top - 1, 1});
  expect_op_rejected(Arch::Omp, sw::LoadBuffer{kN, 0, 1}, "buffer 4");
  expect_op_rejected(Arch::Omp, sw::StoreBuffer{0, 0, 0}, "not 0");
  expect_op_rejected(Arch::Omp, sw::LoadBuffer{0, 0, c.buffer_words + 1},
                     "not " + std::to_string(c.buffer_words + 1));
  // A copy may fill its buffer to the last word L - 1, from wherever it starts in the buffer.
  const std::uint32_t big_l = c.buffer_words;
  expect_op_accepted(Arch::Omp, sw::LoadBuffer{0, 0, big_l, 0});
  expect_op_accepted(Arch::Omp, sw::StoreBuffer{1, 0, 4, big_l - 4});
  expect_op_rejected(Arch::Omp, sw::LoadBuffer{2, 0, 4, big_l - 3},
                     "copies 1..3 words from buffer word " + std::to_string(big_l - 3));
  expect_op_rejected(Arch::Omp, sw::StoreBuffer{3, 0, 2, big_l - 1}, "not 2");
}

// The index memory holds --index-sets sets: a processor may load exactly that many.
TEST(Validate, AProcessorLoadsAtMostTheIndexMemorysSets) {
  sw::SystemConfig c = config(Arch::Omp);
  c.index_sets = 2;
  const sw::Op op = sw::Compute{sw::Cycle{1}};
  EXPECT_EQ(rejection(program_with(Arch::Omp, op, {{0}, {1}}), c), "");
  const std::string why = rejection(program_with(Arch::Omp, op, {{0}, {1}, {2}}), c);
  EXPECT_TRUE(contains(why, "P0 loads 3 index sets, the index memory holds 2"))
      << "'" << why << "'";
}

TEST(Validate, ProgramMustMatchTheSystem) {
  const sw::MachineProgram p = program_with(Arch::Omp, sw::Compute{sw::Cycle{1}});
  EXPECT_TRUE(contains(rejection(p, config(Arch::Crossbar)), "crossbar"));
  sw::SystemConfig bigger = config(Arch::Omp);
  bigger.n = kN + 1;
  EXPECT_TRUE(contains(rejection(p, bigger), "processors"));
  // The program's n and its list of processors must both be the system's.
  sw::MachineProgram short_list = p;
  short_list.processors.pop_back();
  EXPECT_TRUE(contains(rejection(short_list, config(Arch::Omp)), "has 3 processors"))
      << rejection(short_list, config(Arch::Omp));
  sw::MachineProgram wrong_n = p;
  wrong_n.n = kN + 1;
  EXPECT_TRUE(contains(rejection(wrong_n, config(Arch::Omp)), "processors"))
      << rejection(wrong_n, config(Arch::Omp));
}

TEST(Validate, RejectsOverlappingDestinationRegions) {
  ProgramBuilder b(Arch::Omp, kN);
  b.message(0, 1, 4, 0, 10).message(2, 1, 1, 0, 13);
  const std::string why = rejection(b.build(), config(Arch::Omp));
  EXPECT_TRUE(contains(why, "messages 0 and 1")) << why;
  EXPECT_TRUE(contains(why, "P1")) << why;
  EXPECT_TRUE(contains(why, "destination")) << why;
}

TEST(Validate, RejectsOverlapWithAnEarlierLongRegion) {
  // Region of message 0 covers both later ones, which do not overlap each other.
  ProgramBuilder b(Arch::Omp, kN);
  b.message(0, 3, 20, 0, 100).message(1, 3, 2, 0, 104).message(2, 3, 2, 0, 110);
  EXPECT_TRUE(contains(rejection(b.build(), config(Arch::Omp)), "overlap"));
}

TEST(Validate, AcceptsAdjacentOrSeparateDestinationRegions) {
  ProgramBuilder b(Arch::Omp, kN);
  b.message(0, 1, 4, 0, 10)
      .message(2, 1, 2, 0, 14)   // adjacent at P1
      .message(3, 2, 4, 0, 10);  // same addresses, another processor
  EXPECT_EQ(rejection(b.build(), config(Arch::Omp)), "");
}

TEST(Validate, RejectsTwoPayloadsFromTheSameSourceWords) {
  ProgramBuilder b(Arch::Omp, kN);
  b.message(0, 1, 4, 0, 0, 0).message(0, 2, 4, 2, 0, 1);
  const std::string why = rejection(b.build(), config(Arch::Omp));
  EXPECT_TRUE(contains(why, "messages 0 and 1")) << why;
  EXPECT_TRUE(contains(why, "source")) << why;
}

TEST(Validate, OnePayloadMayLeaveOneSourceForSeveralDestinations) {
  ProgramBuilder b(Arch::Omp, kN);
  b.message(0, 1, 4, 0, 0, 0, true).message(0, 2, 4, 0, 0, 0, true).message(0, 3, 2, 0, 0, 0, true);
  EXPECT_EQ(rejection(b.build(), config(Arch::Omp)), "");
}

// A broadcast payload shared by two messages at source words [0,10) and [0,2), and a different
// payload at source word 5: word 5 would have to hold both payloads. The check must compare with
// every open region, not only the sorted predecessor (the exempted pair would hide the overlap).
TEST(Validate, RejectsADifferentPayloadInsideALongerSharedSourceRegion) {
  ProgramBuilder b(Arch::Omp, kN);
  b.message(0, 1, 10, 0, 0, 0, true).message(0, 2, 2, 0, 0, 0, true).message(0, 3, 1, 5, 0, 1);
  const std::string why = rejection(b.build(), config(Arch::Omp));
  EXPECT_TRUE(contains(why, "overlap")) << "'" << why << "'";
}

// A destination's words hold one message, even two copies of one payload; a source's words may
// be shared only by messages of one payload (source, destination and tag) from the same word.
TEST(Validate, SharedWordsNeedTheSamePayloadFromTheSameWord) {
  const sw::SystemConfig c = config(Arch::Omp);
  ProgramBuilder twice(Arch::Omp, kN);
  twice.message(0, 1, 4, 0, 10, 0, true).message(0, 1, 4, 0, 10, 0, true);
  EXPECT_TRUE(
      contains(rejection(twice.build(), c), "overlap in the local memory of P1 (destination)"))
      << rejection(twice.build(), c);
  ProgramBuilder tags(Arch::Omp, kN);  // one broadcast source, two steps' payloads
  tags.message(0, 1, 4, 0, 0, 0, true).message(0, 2, 4, 0, 0, 1, true);
  EXPECT_TRUE(contains(rejection(tags.build(), c), "overlap in the local memory of P0 (source)"))
      << rejection(tags.build(), c);
  ProgramBuilder personal(Arch::Omp, kN);  // one step's personalized payloads to P1 and P2
  personal.message(0, 1, 4, 0, 0).message(0, 2, 4, 0, 0);
  EXPECT_TRUE(
      contains(rejection(personal.build(), c), "overlap in the local memory of P0 (source)"))
      << rejection(personal.build(), c);
  ProgramBuilder shifted(Arch::Omp, kN);  // one payload, its word 0 at source words 0 and 2
  shifted.message(0, 1, 4, 0, 0, 0, true).message(0, 2, 4, 2, 0, 0, true);
  EXPECT_TRUE(contains(rejection(shifted.build(), c), "overlap in the local memory of P0 (source)"))
      << rejection(shifted.build(), c);
}

TEST(Validate, RejectsMessagesOutsideTheSystem) {
  const sw::SystemConfig c = config(Arch::Omp);
  ProgramBuilder far(Arch::Omp, kN);
  far.message(0, kN, 1, 0, 0);
  EXPECT_TRUE(contains(rejection(far.build(), c), "message 0")) << rejection(far.build(), c);
  ProgramBuilder from_far(Arch::Omp, kN);
  from_far.message(kN, 0, 1, 0, 0);
  EXPECT_TRUE(contains(rejection(from_far.build(), c), "message 0 names a processor outside 0..3"))
      << rejection(from_far.build(), c);
  // A message may end at the last local word, at its source and at its destination.
  ProgramBuilder top(Arch::Omp, kN);
  top.message(0, 1, 2, c.local_words - 2, c.local_words - 2);
  EXPECT_EQ(rejection(top.build(), c), "");
  ProgramBuilder deep(Arch::Omp, kN);
  deep.message(0, 1, 2, 0, c.local_words - 1);
  EXPECT_TRUE(contains(rejection(deep.build(), c), "local memory")) << rejection(deep.build(), c);
}

// ---- the text of an op ---------------------------------------------------------------------

// Validation errors and a stopped run's description name an op in docs/machine-program.md's
// notation, `write RB(1) -> M(1,0) block d=1 l=4 @0 rho#0`: the direction, the bus, the modules
// in slot order, the kind, d, l, the module address and the index set.
TEST(Describe, EveryOpInTheNotationOfTheDocs) {
  const sw::MemoryOrganization omp(Arch::Omp, kN);
  const sw::MemoryOrganization bus(Arch::Bus, kN);
  EXPECT_EQ(sw::describe(access(Direction::Write, row(1), {0}, 0, 4), omp),
            "write RB(1) -> M(1,0) block d=1 l=4 @0 rho#0");
  EXPECT_EQ(sw::describe(access(Direction::Read, column(2), {3, 0}, 7, 1, 5), omp),
            "read CB(2) <- M(3,2), M(0,2) interleaved d=2 l=1 @7 rho#5");
  EXPECT_EQ(sw::describe(access(Direction::Read, shared(0), {2}, 9, 1, 1), bus),
            "read B0 <- M(2) scalar d=1 l=1 @9 rho#1");
  const sw::Op iwr = sw::Iwr{access(Direction::Write, row(1), {0, 2}, 3, 2, 1),
                             access(Direction::Read, column(1), {3}, 4, 2, 0), ProcSet({0, 1})};
  EXPECT_EQ(sw::describe(iwr, omp),
            "IWR[write RB(1) -> M(1,0), M(1,2) block d=2 l=2 @3 rho#1; switch {0,1}; "
            "read CB(1) <- M(3,1) block d=1 l=2 @4 rho#0]");
  EXPECT_EQ(sw::describe(sw::Op{sw::Compute{sw::Cycle{12}}}, omp), "compute 12 cycles");
  EXPECT_EQ(sw::describe(sw::Op{sw::BusSwitch{ProcSet({1, 3})}}, omp), "bus switch {1,3}");
  EXPECT_EQ(sw::describe(sw::Op{sw::ActivateSync{ProcSet({0, 2})}}, omp), "activate-sync {0,2}");
  EXPECT_EQ(sw::describe(sw::Op{sw::WaitSync{3}}, omp), "wait-sync P3");
  EXPECT_EQ(sw::describe(sw::Op{sw::Barrier{ProcSet({0, 1, 2, 3})}}, omp), "barrier {0,1,2,3}");
  // A copy names its buffer, the buffer word it starts from (when not 0) and the local words.
  EXPECT_EQ(sw::describe(sw::Op{sw::LoadBuffer{2, 40, 6, 0}}, omp), "load buffer 2 <- local[40+6]");
  EXPECT_EQ(sw::describe(sw::Op{sw::LoadBuffer{2, 40, 6, 1}}, omp),
            "load buffer 2[1..] <- local[40+6]");
  EXPECT_EQ(sw::describe(sw::Op{sw::StoreBuffer{1, 17, 3, 5}}, omp),
            "store buffer 1[5..] -> local[17+3]");
  EXPECT_EQ(sw::describe(sw::Op{sw::StepMark{4}}, omp), "end of step 4");
}

// An access on a bus the system lacks (what validation refuses, naming the op) is named by its
// bus kind, and its modules by their slots: there is no module to name.
TEST(Describe, AnAccessOnABusTheSystemLacksNamesItsKindAndSlots) {
  const sw::MemoryOrganization omp(Arch::Omp, kN);
  const sw::MemoryOrganization bus(Arch::Bus, kN);
  EXPECT_EQ(sw::describe(access(Direction::Read, shared(0), {1}), omp),
            "read shared <- slot 1 scalar d=1 l=1 @0 rho#0");
  EXPECT_EQ(sw::describe(access(Direction::Write, row(2), {0, 3}, 5), bus),
            "write row -> slot 0, slot 3 interleaved d=2 l=1 @5 rho#0");
}

// ---- payload -------------------------------------------------------------------------------

TEST(Payload, IsDeterministic) {
  for (std::uint32_t i = 0; i < 64; ++i) {
    const sw::PayloadKey key{i % 5, i % 7, i};
    EXPECT_EQ(sw::payload_word(key, i), sw::payload_word(key, i));
  }
}

TEST(Payload, DistinctAcrossKeysAndIndicesAndNeverTheUnwrittenMarker) {
  std::set<sw::Word> seen;
  std::size_t total = 0;
  for (sw::ProcId source = 0; source < 8; ++source) {
    for (std::uint32_t destination : {0u, 1u, 2u, 3u, 4u, 5u, 6u, 7u, sw::PayloadKey::kBroadcast}) {
      for (std::uint32_t tag = 0; tag < 4; ++tag) {
        for (std::uint32_t index = 0; index < 16; ++index) {
          const sw::Word w = sw::payload_word({source, destination, tag}, index);
          EXPECT_NE(w, sw::kUnwrittenWord);
          seen.insert(w);
          ++total;
        }
      }
    }
  }
  EXPECT_EQ(total, 8u * 9u * 4u * 16u);
  EXPECT_EQ(seen.size(), total) << "payload words collide";
}

TEST(Payload, SwappedSourceAndDestinationDiffer) {
  for (sw::ProcId a = 0; a < 8; ++a) {
    for (sw::ProcId b = a + 1; b < 8; ++b) {
      EXPECT_NE(sw::payload_word({a, b, 0}, 0), sw::payload_word({b, a, 0}, 0));
    }
  }
}

// ---- delivery check ------------------------------------------------------------------------

using Memory = std::map<std::pair<sw::ProcId, std::uint32_t>, sw::Word>;

sw::LocalMemoryReader reader(const Memory& memory) {
  return [&memory](sw::ProcId p, std::uint32_t address) {
    const auto it = memory.find({p, address});
    return it == memory.end() ? sw::kUnwrittenWord : it->second;
  };
}

sw::MachineProgram three_messages() {
  ProgramBuilder b(Arch::Omp, kN);
  b.message(0, 1, 4, 0, 100, 0).message(1, 2, 3, 8, 200, 7).message(3, 0, 5, 16, 300, 2, true);
  return b.build();
}

/// Local memory after a perfect run: each destination region holds the payload.
Memory delivered(const sw::MachineProgram& p) {
  Memory m;
  for (const sw::Message& msg : p.messages) {
    for (std::uint32_t w = 0; w < msg.words; ++w) {
      m[{msg.destination, msg.dst_address + w}] = sw::payload_word(msg.payload, w);
    }
  }
  return m;
}

TEST(DeliveryCheck, CorrectMemoryIsOk) {
  const sw::MachineProgram p = three_messages();
  const Memory m = delivered(p);
  const sw::DeliveryReport r = sw::check_delivery(p, reader(m));
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.messages_checked, 3u);
  EXPECT_EQ(r.words_checked, 12u);
  EXPECT_EQ(r.messages_failed, 0u);
  EXPECT_TRUE(r.failures.empty());
}

TEST(DeliveryCheck, ReportsALostMessage) {
  const sw::MachineProgram p = three_messages();
  Memory m = delivered(p);
  for (std::uint32_t w = 0; w < 3; ++w) {
    m.erase({2, 200 + w});
  }
  const sw::DeliveryReport r = sw::check_delivery(p, reader(m));
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.messages_failed, 1u);
  ASSERT_EQ(r.failures.size(), 1u);
  EXPECT_TRUE(contains(r.failures[0], "message 1 ")) << r.failures[0];
  EXPECT_TRUE(contains(r.failures[0], "never written")) << r.failures[0];
}

TEST(DeliveryCheck, ReportsTheFirstCorruptedWordOfAMessage) {
  const sw::MachineProgram p = three_messages();
  Memory m = delivered(p);
  m[{0, 303}] ^= 0x100u;
  m[{0, 304}] ^= 0x1u;
  const sw::DeliveryReport r = sw::check_delivery(p, reader(m));
  EXPECT_EQ(r.messages_failed, 1u);
  ASSERT_EQ(r.failures.size(), 1u);
  EXPECT_TRUE(contains(r.failures[0], "message 2 ")) << r.failures[0];
  EXPECT_TRUE(contains(r.failures[0], "word 3 ")) << r.failures[0];
  EXPECT_FALSE(contains(r.failures[0], "never written")) << r.failures[0];
}

// Every word of every message is examined, the first and the last included: corrupting any one
// word fails exactly its message, and the report names that word.
TEST(DeliveryCheck, ExaminesEveryWordOfEveryMessage) {
  const sw::MachineProgram p = three_messages();
  std::size_t cases = 0;
  for (const sw::Message& msg : p.messages) {
    for (std::uint32_t w = 0; w < msg.words; ++w) {
      Memory m = delivered(p);
      m[{msg.destination, msg.dst_address + w}] ^= 0x80000000u;
      const sw::DeliveryReport r = sw::check_delivery(p, reader(m));
      EXPECT_EQ(r.messages_failed, 1u) << "message " << msg.id << " word " << w;
      ASSERT_EQ(r.failures.size(), 1u) << "message " << msg.id << " word " << w;
      EXPECT_TRUE(contains(r.failures[0], "message " + std::to_string(msg.id) + " "))
          << r.failures[0];
      EXPECT_TRUE(contains(r.failures[0], "word " + std::to_string(w) + " ")) << r.failures[0];
      ++cases;
    }
  }
  EXPECT_EQ(cases, 4u + 3u + 5u);
}

TEST(DeliveryCheck, ReportsEveryFailedMessage) {
  const sw::MachineProgram p = three_messages();
  Memory m = delivered(p);
  m[{1, 100}] = 0;
  m[{0, 300}] = 0;
  const sw::DeliveryReport r = sw::check_delivery(p, reader(m));
  EXPECT_EQ(r.messages_failed, 2u);
  ASSERT_EQ(r.failures.size(), 2u);
  EXPECT_TRUE(contains(r.failures[0], "message 0 ")) << r.failures[0];
  EXPECT_TRUE(contains(r.failures[1], "message 2 ")) << r.failures[1];
}

// Every failed message is counted; the first eight are named, in manifest order, each at the
// local word it failed at.
TEST(DeliveryCheck, CountsEveryFailureAndNamesTheFirstEight) {
  ProgramBuilder b(Arch::Omp, kN);
  for (std::uint32_t i = 0; i < 10; ++i) {
    b.message(0, 1, 2, 2 * i, 100 + 2 * i, i);
  }
  const sw::MachineProgram p = b.build();
  Memory m = delivered(p);
  for (std::uint32_t i = 0; i < 10; ++i) {
    m[{1, 101 + 2 * i}] ^= 1u;  // word 1 of every message
  }
  const sw::DeliveryReport r = sw::check_delivery(p, reader(m));
  EXPECT_EQ(r.messages_failed, 10u);
  ASSERT_EQ(r.failures.size(), 8u);
  for (std::uint32_t i = 0; i < 8; ++i) {
    EXPECT_TRUE(contains(r.failures[i], "message " + std::to_string(i) + " (P0 -> P1, tag " +
                                            std::to_string(i) + "): word 1 at P1 local[" +
                                            std::to_string(101 + 2 * i) + "] expected "))
        << r.failures[i];
  }
}

TEST(DeliveryCheck, InitialWordsMovedToTheirDestinationsAreDelivered) {
  const sw::MachineProgram p = three_messages();
  Memory local;
  std::size_t stores = 0;
  sw::for_each_initial_word(p, [&](sw::ProcId q, std::uint32_t address, sw::Word w) {
    local[{q, address}] = w;
    ++stores;
  });
  EXPECT_EQ(stores, 12u);
  for (const sw::Message& msg : p.messages) {
    for (std::uint32_t w = 0; w < msg.words; ++w) {
      const auto it = local.find({msg.source, msg.src_address + w});
      ASSERT_NE(it, local.end()) << "message " << msg.id << " word " << w;
      EXPECT_EQ(it->second, sw::payload_word(msg.payload, w));
    }
  }
  EXPECT_FALSE(sw::check_delivery(p, reader(local)).ok()) << "nothing has moved yet";
  for (const sw::Message& msg : p.messages) {
    for (std::uint32_t w = 0; w < msg.words; ++w) {
      local[{msg.destination, msg.dst_address + w}] = local.at({msg.source, msg.src_address + w});
    }
  }
  EXPECT_TRUE(sw::check_delivery(p, reader(local)).ok());
}

// ---- the check on arrival ------------------------------------------------------------------

/// The arrival check after every word of `p` arrived in order holding `word_of(message, w)`,
/// except the words `skip` says are not delivered.
template <class WordOf, class Skip>
sw::ArrivalCheck arrived(const sw::MachineProgram& p, WordOf word_of, Skip skip) {
  sw::ArrivalCheck check;
  check.reset(p.messages.size());
  for (std::size_t i = 0; i < p.messages.size(); ++i) {
    for (std::uint32_t w = 0; w < p.messages[i].words; ++w) {
      if (!skip(i, w)) {
        check.arrive(p.messages, i, w, word_of(i, w));
      }
    }
  }
  return check;
}

// The check made as words arrive reports what the check of the final memory reports: each word
// of each message corrupted in turn (the last ones included), and each message lost, fails
// exactly that message with the same line.
TEST(ArrivalCheck, ReportsWhatTheCheckOfTheFinalMemoryReports) {
  const sw::MachineProgram p = three_messages();
  const auto intact = [&](std::size_t i, std::uint32_t w) {
    return sw::payload_word(p.messages[i].payload, w);
  };
  const auto nothing = [](std::size_t, std::uint32_t) { return false; };
  EXPECT_TRUE(arrived(p, intact, nothing).report(p.messages).ok());
  std::size_t cases = 0;
  for (std::size_t bad = 0; bad < p.messages.size(); ++bad) {
    const sw::Message& msg = p.messages[bad];
    for (std::uint32_t bad_word = 0; bad_word < msg.words; ++bad_word) {
      const auto corrupted = [&](std::size_t i, std::uint32_t w) {
        return intact(i, w) ^ (i == bad && w == bad_word ? 0x80000000u : 0u);
      };
      Memory m = delivered(p);
      m[{msg.destination, msg.dst_address + bad_word}] ^= 0x80000000u;
      const sw::DeliveryReport expected = sw::check_delivery(p, reader(m));
      const sw::DeliveryReport found = arrived(p, corrupted, nothing).report(p.messages);
      ASSERT_EQ(expected.messages_failed, 1u);
      EXPECT_EQ(found.messages_failed, 1u);
      EXPECT_EQ(found.failures, expected.failures);
      ++cases;
    }
    for (bool run_ended : {true, false}) {
      // The message is lost from its last word on, or wholly.
      for (std::uint32_t from : {msg.words - 1, 0u}) {
        const auto lost = [&](std::size_t i, std::uint32_t w) { return i == bad && w >= from; };
        Memory m = delivered(p);
        for (std::uint32_t w = from; w < msg.words; ++w) {
          m.erase({msg.destination, msg.dst_address + w});
        }
        const sw::DeliveryReport expected = sw::check_delivery(p, reader(m), run_ended);
        const sw::DeliveryReport found = arrived(p, intact, lost).report(p.messages, run_ended);
        EXPECT_EQ(found.messages_failed, 1u);
        EXPECT_EQ(found.failures, expected.failures);
        ++cases;
      }
    }
  }
  EXPECT_EQ(cases, (4u + 3u + 5u) + 3u * 4u);
}

// A word that arrives a second time fails its message, even holding the right value: the check
// of the final memory cannot see that, the check on arrival must.
TEST(ArrivalCheck, AMessageThatArrivesTwiceFails) {
  const sw::MachineProgram p = three_messages();
  for (std::size_t twice = 0; twice < p.messages.size(); ++twice) {
    sw::ArrivalCheck check;
    check.reset(p.messages.size());
    for (std::size_t i = 0; i < p.messages.size(); ++i) {
      for (int copy = 0; copy < (i == twice ? 2 : 1); ++copy) {
        for (std::uint32_t w = 0; w < p.messages[i].words; ++w) {
          check.arrive(p.messages, i, w, sw::payload_word(p.messages[i].payload, w));
        }
      }
    }
    const sw::DeliveryReport r = check.report(p.messages);
    EXPECT_EQ(r.messages_failed, 1u);
    ASSERT_EQ(r.failures.size(), 1u);
    EXPECT_TRUE(contains(r.failures[0], "message " + std::to_string(p.messages[twice].id) + " "))
        << r.failures[0];
    EXPECT_TRUE(contains(r.failures[0], "word 0 ")) << r.failures[0];
    EXPECT_TRUE(contains(r.failures[0], "arrived twice")) << r.failures[0];
  }
}

// The packets of one message may overtake each other (a network with several virtual channels):
// words that arrive in any order, once each and intact, deliver their message; a word that
// arrives again while an earlier one is still in flight fails it, and a word that never arrives
// is the one reported missing although later ones arrived.
TEST(ArrivalCheck, WordsThatOvertakeEachOtherDeliverTheirMessageOnce) {
  const sw::MachineProgram p = three_messages();
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<std::uint32_t> order(p.messages[2].words);
    std::iota(order.begin(), order.end(), 0u);
    std::shuffle(order.begin(), order.end(), rng);
    const auto arrive_in_order = [&](sw::ArrivalCheck& check, const std::vector<std::uint32_t>& o) {
      check.reset(p.messages.size());
      for (std::size_t i = 0; i < 2; ++i) {
        for (std::uint32_t w = 0; w < p.messages[i].words; ++w) {
          check.arrive(p.messages, i, w, sw::payload_word(p.messages[i].payload, w));
        }
      }
      for (const std::uint32_t w : o) {
        check.arrive(p.messages, 2, w, sw::payload_word(p.messages[2].payload, w));
      }
      return check.report(p.messages);
    };
    sw::ArrivalCheck check;
    EXPECT_TRUE(arrive_in_order(check, order).ok()) << trial;

    std::vector<std::uint32_t> again = order;
    again.insert(again.begin() + 1, order[0]);  // the first word to arrive comes twice
    sw::DeliveryReport r = arrive_in_order(check, again);
    ASSERT_EQ(r.failures.size(), 1u) << trial;
    EXPECT_TRUE(contains(r.failures[0], "word " + std::to_string(order[0]) + " ")) << r.failures[0];
    EXPECT_TRUE(contains(r.failures[0], "arrived twice")) << r.failures[0];

    const std::uint32_t lost = order.back();
    std::vector<std::uint32_t> short_of_one(order.begin(), order.end() - 1);
    r = arrive_in_order(check, short_of_one);
    ASSERT_EQ(r.failures.size(), 1u) << trial;
    EXPECT_TRUE(contains(r.failures[0], "word " + std::to_string(lost) + " ")) << r.failures[0];
    EXPECT_TRUE(contains(r.failures[0], "message lost")) << r.failures[0];
  }
}

// A reset forgets the words a previous run saw arrive ahead of their turn: word 1 seen ahead
// before the reset does not complete the message when word 0 arrives after it.
TEST(ArrivalCheck, AResetForgetsTheWordsThatArrivedAhead) {
  const sw::MachineProgram p = three_messages();
  const sw::Message& m = p.messages[0];
  sw::ArrivalCheck check;
  check.reset(p.messages.size());
  check.arrive(p.messages, 0, 1, sw::payload_word(m.payload, 1));
  check.reset(p.messages.size());
  check.arrive(p.messages, 0, 0, sw::payload_word(m.payload, 0));
  const sw::DeliveryReport r = check.report(p.messages);
  ASSERT_EQ(r.failures.size(), 3u);  // every message short, message 0 of its word 1
  EXPECT_TRUE(contains(r.failures[0], "message 0 ")) << r.failures[0];
  EXPECT_TRUE(contains(r.failures[0], "word 1 ")) << r.failures[0];
  EXPECT_TRUE(contains(r.failures[0], "message lost")) << r.failures[0];
}

// Words that overtook each other in one delivery are taken once: the next delivery, in order,
// needs all its own words. Two deliveries of message 0 (4 words): 1, 0, 2, 3 then 0, 1, 2, 3 is
// intact; 1, 0, 2, 3 then 0, 2, 3 is short of the second delivery's word 1.
TEST(ArrivalCheck, WordsTakenFromAheadAreNotTakenAgainInTheNextDelivery) {
  const sw::MachineProgram p = three_messages();
  const sw::Message& m = p.messages[0];
  for (const bool second_word_1 : {true, false}) {
    sw::ArrivalCheck check;
    check.reset(p.messages.size(), 2);
    for (std::size_t i = 1; i < p.messages.size(); ++i) {
      for (int delivery = 0; delivery < 2; ++delivery) {
        for (std::uint32_t w = 0; w < p.messages[i].words; ++w) {
          check.arrive(p.messages, i, w, sw::payload_word(p.messages[i].payload, w));
        }
      }
    }
    std::vector<std::uint32_t> order = {1, 0, 2, 3, 0, 2, 3};
    if (second_word_1) {
      order.insert(order.begin() + 5, 1);
    }
    for (const std::uint32_t w : order) {
      check.arrive(p.messages, 0, w, sw::payload_word(m.payload, w));
    }
    const sw::DeliveryReport r = check.report(p.messages);
    if (second_word_1) {
      EXPECT_TRUE(r.ok()) << (r.failures.empty() ? "" : r.failures[0]);
    } else {
      ASSERT_EQ(r.failures.size(), 1u);
      EXPECT_TRUE(contains(r.failures[0], "message 0 ")) << r.failures[0];
      EXPECT_TRUE(contains(r.failures[0], "word 1 ")) << r.failures[0];
      EXPECT_TRUE(contains(r.failures[0], "message lost")) << r.failures[0];
    }
  }
}

// A program repeated back to back delivers each message once per repetition (deliveries): as
// many times is intact, once fewer leaves it short, once more is a repeat.
TEST(ArrivalCheck, EachMessageArrivesAsManyTimesAsTheProgramDeliversIt) {
  const sw::MachineProgram p = three_messages();
  for (std::uint32_t times : {2u, 3u, 4u}) {
    sw::ArrivalCheck check;
    check.reset(p.messages.size(), 3);
    for (std::size_t i = 0; i < p.messages.size(); ++i) {
      for (std::uint32_t copy = 0; copy < (i == 1 ? times : 3u); ++copy) {
        for (std::uint32_t w = 0; w < p.messages[i].words; ++w) {
          check.arrive(p.messages, i, w, sw::payload_word(p.messages[i].payload, w));
        }
      }
    }
    const sw::DeliveryReport r = check.report(p.messages);
    EXPECT_EQ(r.messages_failed, times == 3 ? 0u : 1u) << times;
    if (times != 3) {
      ASSERT_EQ(r.failures.size(), 1u) << times;
      EXPECT_TRUE(contains(r.failures[0], "message 1 ")) << r.failures[0];
      EXPECT_TRUE(contains(r.failures[0], "word 0 ")) << r.failures[0];
      EXPECT_TRUE(contains(r.failures[0], times < 3 ? "message lost" : "arrived twice"))
          << r.failures[0];
    }
  }
}

// A run of words arrives as its words one at a time would: random runs of three deliveries (most
// continuing their message in order, others out of order, repeated, past the message's end, some
// with a corrupted word) give the report of the same words arrived one by one, line for line.
TEST(ArrivalCheck, ARunArrivesAsItsWordsOneAtATime) {
  const sw::MachineProgram p = three_messages();
  constexpr std::uint32_t kDeliveries = 3;
  std::mt19937_64 rng(11);
  std::size_t ok = 0;
  std::size_t failed = 0;
  for (int trial = 0; trial < 400; ++trial) {
    sw::ArrivalCheck by_run;
    sw::ArrivalCheck by_word;
    by_run.reset(p.messages.size(), kDeliveries);
    by_word.reset(p.messages.size(), kDeliveries);
    // One trial in four sends every message's deliveries in order and intact, in runs.
    const bool clean = trial % 4 == 0;
    std::vector<std::uint32_t> sent(p.messages.size(), 0);  // words sent in order so far
    for (int run = 0; run < 40; ++run) {
      const std::size_t i = rng() % p.messages.size();
      const sw::Message& m = p.messages[i];
      if (clean && sent[i] == m.words * kDeliveries) {
        continue;
      }
      std::uint32_t index = sent[i] % m.words;
      std::uint32_t count = 1 + static_cast<std::uint32_t>(rng() % (m.words - index));
      if (!clean && rng() % 8 == 0) {  // anywhere, perhaps past the message's end
        index = static_cast<std::uint32_t>(rng() % (m.words + 1));
        count = 1 + static_cast<std::uint32_t>(rng() % 3);
      } else {
        sent[i] += count;
      }
      std::vector<sw::Word> words(count);
      for (std::uint32_t k = 0; k < count; ++k) {
        words[k] =
            sw::payload_word(m.payload, index + k) ^ (!clean && rng() % 40 == 0 ? 0x10u : 0u);
        by_word.arrive(p.messages, i, index + k, words[k]);
      }
      by_run.arrive(p.messages, i, index, count, words.data());
    }
    for (const bool run_ended : {true, false}) {
      const sw::DeliveryReport expected = by_word.report(p.messages, run_ended);
      const sw::DeliveryReport found = by_run.report(p.messages, run_ended);
      EXPECT_EQ(found.messages_failed, expected.messages_failed) << trial;
      EXPECT_EQ(found.failures, expected.failures) << trial;
      ++(expected.ok() ? ok : failed);
    }
  }
  EXPECT_GT(ok, 20u);       // some trials delivered every message three times ...
  EXPECT_GT(failed, 100u);  // ... and many did not
}

// The local memories as the messages see them, a run at a time: a sender's words are the payload,
// generated, a receiver's words are checked; every other word is nobody's (the caller stores it).
// A run ends where the next word is another message's or nobody's: every start and length is
// compared with the owner of each word, worked out word by word.
TEST(MessageMemory, GeneratesTheSentWordsAndChecksTheReceivedOnesARunAtATime) {
  // P0 sends two messages from adjacent regions, P1 receives them into adjacent regions, then
  // one more after a gap; P3 sends one payload to two destinations from one region, all of it
  // to P0 and its first three words to P2 (listed last, so a region found by its start alone
  // would be the shorter one and miss the last two words).
  ProgramBuilder b(Arch::Omp, kN);
  b.message(0, 1, 4, 0, 100, 0).message(0, 1, 3, 4, 104, 1).message(2, 1, 5, 16, 110, 2);
  b.message(3, 0, 5, 16, 300, 2, true).message(3, 2, 3, 16, 300, 2, true);
  const sw::MachineProgram p = b.build();
  sw::MessageMemory memory;
  memory.load(p.messages, kN);
  using Place = std::pair<sw::ProcId, std::uint32_t>;
  struct Owner {
    std::uint32_t key;  ///< the first message of the payload
    std::uint32_t word;
  };
  std::map<Place, Owner> sources;
  std::map<Place, Owner> destinations;
  for (const sw::Message& m : p.messages) {
    for (std::uint32_t w = 0; w < m.words; ++w) {
      sources.insert({{m.source, m.src_address + w}, {m.id, w}});  // the first one of a payload
      destinations[{m.destination, m.dst_address + w}] = {m.id, w};
    }
  }
  constexpr std::uint32_t kEnd = 320;
  // The length of the run from `address`, word by word: as long as the owner continues.
  const auto run_length = [&](const std::map<Place, Owner>& owners, sw::ProcId q,
                              std::uint32_t address, std::uint32_t count) {
    const auto first = owners.find({q, address});
    std::uint32_t k = 1;
    for (; k < count; ++k) {
      const auto next = owners.find({q, address + k});
      if (first == owners.end() ? next != owners.end()
                                : next == owners.end() || next->second.key != first->second.key ||
                                      next->second.word != first->second.word + k) {
        break;
      }
    }
    return k;
  };
  std::vector<sw::Word> out(kEnd);
  for (sw::ProcId q = 0; q < kN; ++q) {
    for (std::uint32_t address = 0; address < kEnd; ++address) {
      for (std::uint32_t count : {1u, 2u, 3u, kEnd - address}) {
        const auto owner = sources.find({q, address});
        const sw::MessageMemory::Run run = memory.sent(q, address, count, out.data());
        const std::string where = "P" + std::to_string(q) + " local[" + std::to_string(address) +
                                  "] count " + std::to_string(count);
        ASSERT_EQ(run.message, owner != sources.end()) << where;
        ASSERT_EQ(run.words, run_length(sources, q, address, count)) << where;
        for (std::uint32_t k = 0; run.message && k < run.words; ++k) {
          const sw::Message& m = p.messages[owner->second.key];
          EXPECT_EQ(out[k], sw::payload_word(m.payload, owner->second.word + k)) << where;
        }
        ASSERT_EQ(memory.receive(q, address, count, out.data()).message,
                  destinations.count({q, address}) == 1)
            << where;
      }
    }
  }
  // Every receiver's memory written from 0 in runs, the messages' words intact: delivered once;
  // with one word wrong, that word of that message is reported.
  for (const int wrong : {-1, 106}) {
    memory.load(p.messages, kN);
    for (sw::ProcId q = 0; q < kN; ++q) {
      std::vector<sw::Word> words(kEnd, 0);
      for (const auto& [place, owner] : destinations) {
        if (place.first == q) {
          words[place.second] = sw::payload_word(p.messages[owner.key].payload, owner.word) ^
                                (q == 1 && static_cast<int>(place.second) == wrong ? 4u : 0u);
        }
      }
      for (std::uint32_t address = 0; address < kEnd;) {
        const sw::MessageMemory::Run run =
            memory.receive(q, address, kEnd - address, words.data() + address);
        EXPECT_EQ(run.words, run_length(destinations, q, address, kEnd - address));
        address += run.words;
      }
    }
    const sw::DeliveryReport r = memory.report(true);
    if (wrong < 0) {
      EXPECT_TRUE(r.ok()) << (r.failures.empty() ? "" : r.failures[0]);
    } else {
      ASSERT_EQ(r.failures.size(), 1u);
      EXPECT_TRUE(contains(r.failures[0], "message 1 ")) << r.failures[0];
      EXPECT_TRUE(contains(r.failures[0], "word 2 ")) << r.failures[0];
    }
  }
}

}  // namespace
}  // namespace orthosim
