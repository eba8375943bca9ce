// The verilated processor's assembler (sc_models/cosim/program_image.hpp) against docs/rtl.md's
// op encoding, read back by a decoder written here from that table alone: the widths from its
// formulas, each op's fields in the table's order from bit 4 up. Programs that do not fit the
// verilated sizes are refused naming the limit; the local memory image holds exactly the
// senders' payload words.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "sc_models/cosim/program_image.hpp"
#include "sw/core/diagnostic.hpp"
#include "sw/machine/payload.hpp"
#include "sw/mapping/mapping.hpp"
#include "sw/pattern/generate.hpp"
#include "tests/support/program_builder.hpp"

namespace orthosim {
namespace {

using testing_support::access;
using Fields = std::vector<std::uint64_t>;  ///< opcode, then the op's fields in the table's order

/// The verilated sizes, with the field widths derived from them by docs/rtl.md's formulas:
/// NB = clog2(N), NCW = clog2(N+1), LB = clog2(L), LCW = clog2(L+1), SB = clog2(S),
/// AW = clog2(DEPTH), LAW = clog2(LOCAL), each at least 1, and
/// IW = 4 + max(2 + NB + NCW + N NB + AW + LCW + SB, CYW, NB + LB + LAW + LCW, STW, N).
rtl::MultiprocessorLimits limits(std::uint32_t n, std::uint32_t l, std::uint32_t s,
                                 std::uint32_t depth, std::uint32_t local, std::uint32_t imem,
                                 std::uint32_t cyw = 24, std::uint32_t stw = 16) {
  const auto clog2 = [](std::uint64_t x) {
    std::uint32_t b = 0;
    while ((std::uint64_t{1} << b) < x) {
      ++b;
    }
    return std::max(b, 1u);
  };
  rtl::MultiprocessorLimits w;
  w.n = n;
  w.buffer_words = l;
  w.index_sets = s;
  w.module_words = depth;
  w.local_words = local;
  w.instruction_words = imem;
  w.compute_bits = cyw;
  w.step_bits = stw;
  w.slot_bits = clog2(n);
  w.degree_bits = clog2(n + 1);
  w.vector_bits = clog2(l);
  w.vectors_bits = clog2(l + 1);
  w.set_bits = clog2(s);
  w.address_bits = clog2(depth);
  w.local_bits = clog2(local);
  w.instruction_bits =
      4 + std::max({2 + w.slot_bits + w.degree_bits + n * w.slot_bits + w.address_bits +
                        w.vectors_bits + w.set_bits,
                    cyw, w.slot_bits + w.vector_bits + w.local_bits + w.vectors_bits, stw, n});
  return w;
}

/// processor.sv's defaults: N = 4, L = 8, S = 4, DEPTH = 16, LOCAL = 64, IMEM = 64.
rtl::MultiprocessorLimits small_limits() { return limits(4, 8, 4, 16, 64, 64); }

/// Reads the table's fields back from an instruction.
Fields decode(const rtl::RtlInstruction& instruction, const rtl::MultiprocessorLimits& w) {
  unsigned at = 0;
  const auto take = [&](unsigned bits) {
    std::uint64_t v = 0;
    for (unsigned b = 0; b < bits; ++b, ++at) {
      v |= ((instruction.bits.at(at / 64) >> (at % 64)) & 1u) << b;
    }
    return v;
  };
  Fields f{take(4)};
  switch (f[0]) {
    case 1:  // compute: cycles
      f.push_back(take(w.compute_bits));
      break;
    case 2:  // access: write, col, bus, d, slots, address, l, index set
      for (unsigned bits : {1u, 1u, w.slot_bits, w.degree_bits}) {
        f.push_back(take(bits));
      }
      for (unsigned p = 0; p < w.n; ++p) {
        f.push_back(take(w.slot_bits));
      }
      for (unsigned bits : {w.address_bits, w.vectors_bits, w.set_bits}) {
        f.push_back(take(bits));
      }
      break;
    case 3:  // bus switch: group
    case 4:  // barrier: group
    case 5:  // activate-sync: targets
      f.push_back(take(w.n));
      break;
    case 6:  // wait-sync: source
      f.push_back(take(w.slot_bits));
      break;
    case 7:  // load buffer: buffer, buffer word, local address, words
    case 8:  // store buffer
      for (unsigned bits : {w.slot_bits, w.vector_bits, w.local_bits, w.vectors_bits}) {
        f.push_back(take(bits));
      }
      break;
    case 9:  // step mark: step
      f.push_back(take(w.step_bits));
      break;
    default:
      break;
  }
  // Nothing past the fields: the rest of the instruction is 0.
  while (at < 128) {
    EXPECT_EQ(take(1), 0u) << "bit " << at - 1 << " set past the fields of opcode " << f[0];
  }
  return f;
}

/// What the table says each op becomes (an IWR step: three instructions).
std::vector<Fields> expected(const sw::Op& op, sw::Arch arch, const rtl::MultiprocessorLimits& w) {
  const auto mask = [](const sw::ProcSet& s) {
    std::uint64_t m = 0;
    for (sw::ProcId p : s.members()) {
      m |= std::uint64_t{1} << p;
    }
    return m;
  };
  const auto access = [&](const sw::MemoryAccess& a) {
    Fields f{2, a.direction == sw::Direction::Write ? 1u : 0u,
             a.bus.kind == sw::BusKind::Column ? 1u : 0u,
             arch == sw::Arch::Crossbar ? a.bus.index : 0u, a.degree()};
    for (unsigned p = 0; p < w.n; ++p) {
      f.push_back(p < a.slots.size() ? a.slots[p] : 0);
    }
    f.insert(f.end(), {a.address, a.vectors, a.index_set});
    return f;
  };
  if (const auto* o = std::get_if<sw::Compute>(&op)) {
    return {{1, o->cycles.count()}};
  }
  if (const auto* o = std::get_if<sw::MemoryAccess>(&op)) {
    return {access(*o)};
  }
  if (const auto* o = std::get_if<sw::Iwr>(&op)) {
    return {access(o->write()), {3, mask(o->group())}, access(o->read())};
  }
  if (const auto* o = std::get_if<sw::BusSwitch>(&op)) {
    return {{3, mask(o->group)}};
  }
  if (const auto* o = std::get_if<sw::Barrier>(&op)) {
    return {{4, mask(o->group)}};
  }
  if (const auto* o = std::get_if<sw::ActivateSync>(&op)) {
    return {{5, mask(o->targets)}};
  }
  if (const auto* o = std::get_if<sw::WaitSync>(&op)) {
    return {{6, o->source}};
  }
  if (const auto* o = std::get_if<sw::LoadBuffer>(&op)) {
    return {{7, o->buffer, o->buffer_address, o->local_address, o->words}};
  }
  if (const auto* o = std::get_if<sw::StoreBuffer>(&op)) {
    return {{8, o->buffer, o->buffer_address, o->local_address, o->words}};
  }
  const auto& mark = std::get<sw::StepMark>(op);
  return {{9, mark.step}};
}

/// Assembles `program` and checks every processor's instructions against the table.
void expect_encoded_as_documented(const sw::MachineProgram& program, const sw::SystemConfig& c,
                                  const rtl::MultiprocessorLimits& w) {
  const std::vector<sc::ProcessorImage> images = sc::assemble(program, c, w);
  ASSERT_EQ(images.size(), c.n);
  for (sw::ProcId p = 0; p < c.n; ++p) {
    std::vector<Fields> want;
    std::vector<std::uint32_t> op_of;
    std::uint32_t index = 0;
    for (const sw::Op& op : program.processors[p].ops) {
      for (Fields& f : expected(op, c.arch, w)) {
        want.push_back(std::move(f));
        op_of.push_back(index);
      }
      ++index;
    }
    want.push_back({0});  // the halt
    op_of.push_back(index);
    EXPECT_EQ(images[p].op_of, op_of) << "P" << p;
    const std::vector<rtl::RtlInstruction>& got = images[p].instructions;
    ASSERT_EQ(got.size(), want.size()) << "P" << p;
    for (std::size_t i = 0; i < got.size(); ++i) {
      EXPECT_EQ(decode(got[i], w), want[i]) << "P" << p << " instruction " << i;
    }
    EXPECT_EQ(images[p].index_sets, program.processors[p].index_sets);
  }
}

/// Every op, with fields at their widths' extremes, on an omp of 4 (processor.sv's defaults).
sw::MachineProgram every_op() {
  sw::MachineProgram m;
  m.arch = sw::Arch::Omp;
  m.n = 4;
  m.processors.resize(4);
  sw::ProcessorProgram& p1 = m.processors[1];
  p1.index_sets = {{3, 2, 1, 0}, {1, 1, 2, 0}, {0, 3}, {2}};
  p1.ops = sw::OpList{
      sw::Compute{sw::Cycle{(1u << 24) - 1}},
      access(sw::Direction::Write, {sw::BusKind::Row, 1}, {3, 0, 2, 1}, 15 - 8, 8, 1),
      access(sw::Direction::Read, {sw::BusKind::Column, 1}, {2}, 5, 1, 3),
      sw::Iwr(access(sw::Direction::Write, {sw::BusKind::Row, 1}, {0, 1}, 2, 3, 2),
              access(sw::Direction::Read, {sw::BusKind::Column, 1}, {3, 0}, 9, 2, 0),
              sw::ProcSet({1, 2, 3})),
      sw::BusSwitch{sw::ProcSet({0, 1})},
      sw::Barrier{sw::ProcSet::all(4)},
      sw::ActivateSync{sw::ProcSet({3})},
      sw::WaitSync{3},
      sw::LoadBuffer{3, 63 - 7, 8, 0},
      sw::StoreBuffer{2, 17, 3, 5},
      sw::StepMark{(1u << 16) - 1},
      sw::Compute{sw::Cycle{0}},
  };
  return m;
}

sw::SystemConfig small_config(sw::Arch arch, std::uint32_t n) {
  sw::SystemConfig c;
  c.arch = arch;
  c.n = n;
  c.buffer_words = 8;
  c.index_sets = 4;
  c.module_words = 16;
  c.local_words = 64;
  return c;
}

TEST(ProgramImage, DefaultWidthsAreTheDocumented29Bits) {
  // docs/rtl.md: 29 bits at N = 4, L = 8, S = 4, DEPTH = 16, CYW = 24: the formulas above are
  // the document's.
  EXPECT_EQ(small_limits().instruction_bits, 29u);
}

TEST(ProgramImage, EveryOpDecodesAsTheTableSays) {
  expect_encoded_as_documented(every_op(), small_config(sw::Arch::Omp, 4), small_limits());
}

TEST(ProgramImage, WideInstructionsSpanSeveralWords) {
  // n = 16 at the verilated sizes: an access is 2 + 4 + 5 + 64 + 12 + 9 + 9 = 105 bits.
  const rtl::MultiprocessorLimits w = limits(16, 256, 512, 4096, 1 << 16, 1 << 14);
  ASSERT_EQ(w.instruction_bits, 4u + 105u);
  sw::SystemConfig c;
  c.arch = sw::Arch::Crossbar;
  c.n = 16;
  std::mt19937_64 rng(7);
  for (int k = 0; k < 3; ++k) {
    const sw::McProgram program = sw::generate_random(16, 3, rng());
    const sw::MachineProgram machine = sw::map_program(program, c.arch, c.n).machine;
    expect_encoded_as_documented(machine, c, w);
  }
}

TEST(ProgramImage, MappedRandomProgramsOnEveryConfiguration) {
  std::mt19937_64 rng(11);
  for (sw::Arch arch : {sw::Arch::Omp, sw::Arch::Crossbar, sw::Arch::Bus}) {
    sw::SystemConfig c;
    c.arch = arch;
    c.n = 4;
    const rtl::MultiprocessorLimits w = limits(4, 256, 512, 4096, 4096, 4096);
    const sw::McProgram program = sw::generate_random(4, 4, rng());
    const sw::MachineProgram machine = sw::map_program(program, arch, 4).machine;
    ASSERT_FALSE(machine.messages.empty());
    expect_encoded_as_documented(machine, c, w);
    // The local image: every sender's message words, and nothing else.
    const std::vector<sc::ProcessorImage> images = sc::assemble(machine, c, w);
    std::vector<std::vector<std::pair<std::uint32_t, sw::Word>>> loaded(4), sent(4);
    for (sw::ProcId p = 0; p < 4; ++p) {
      for (const sc::LocalWords& run : images[p].local) {
        for (std::uint32_t k = 0; k < run.words.size(); ++k) {
          loaded[p].emplace_back(run.address + k, run.words[k]);
        }
      }
    }
    for (const sw::Message& m : machine.messages) {
      for (std::uint32_t k = 0; k < m.words; ++k) {
        sent[m.source].emplace_back(m.src_address + k, sw::payload_word(m.payload, k));
      }
    }
    for (sw::ProcId p = 0; p < 4; ++p) {
      std::sort(loaded[p].begin(), loaded[p].end());
      std::sort(sent[p].begin(), sent[p].end());
      EXPECT_EQ(loaded[p], sent[p]) << sw::to_string(arch) << " P" << p;
    }
  }
}

/// The message of the ConfigError that assembling `m` throws ("" if none).
std::string refusal(const sw::MachineProgram& m, const sw::SystemConfig& c,
                    const rtl::MultiprocessorLimits& w) {
  try {
    (void)sc::assemble(m, c, w);
  } catch (const sw::ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(ProgramImage, ProgramsThatDoNotFitAreRefusedNamingTheLimit) {
  const sw::SystemConfig c = small_config(sw::Arch::Omp, 4);
  const rtl::MultiprocessorLimits w = small_limits();
  sw::MachineProgram m = every_op();
  EXPECT_EQ(refusal(m, c, w), "");

  m.processors[2].ops = sw::OpList{sw::Compute{sw::Cycle{1u << 24}}};
  EXPECT_NE(refusal(m, c, w).find("P2 op 0 (compute 16777216"), std::string::npos)
      << refusal(m, c, w);
  EXPECT_NE(refusal(m, c, w).find("compute cycles (CYW) 16777216 does not fit the RTL's 24-bit"),
            std::string::npos)
      << refusal(m, c, w);

  m.processors[2].ops = sw::OpList{sw::StepMark{1u << 16}};
  EXPECT_NE(refusal(m, c, w).find("step (STW) 65536"), std::string::npos) << refusal(m, c, w);

  m.processors[2].ops = sw::OpList{sw::LoadBuffer{0, 60, 5, 0}};
  EXPECT_NE(refusal(m, c, w).find("local words 60..64 are past the RTL processor's local memory "
                                  "of 64 words (LOCAL)"),
            std::string::npos)
      << refusal(m, c, w);

  // IMEM = 64 holds 63 ops and the halt; an IWR step counts three.
  m.processors[2].ops = sw::OpList{};
  for (int k = 0; k < 63; ++k) {
    m.processors[2].ops.push_back(sw::Compute{sw::Cycle{1}});
  }
  EXPECT_EQ(refusal(m, c, w), "");
  m.processors[2].ops.push_back(sw::Compute{sw::Cycle{1}});
  EXPECT_NE(refusal(m, c, w).find("P2 op 63 (compute 1 cycles): the program does not fit the RTL "
                                  "processor's instruction memory of 64 instructions (IMEM"),
            std::string::npos)
      << refusal(m, c, w);

  sw::MachineProgram message = every_op();
  message.messages.push_back({0, 1, 2, {1, 2, 0}, 4, 62, 0});
  EXPECT_NE(refusal(message, c, w).find("P1's local words 62..65 are past"), std::string::npos)
      << refusal(message, c, w);

  sw::SystemConfig big = c;
  big.module_words = 32;
  EXPECT_EQ(refusal(every_op(), big, w),
            "expected at most 16 words per memory module, what the RTL processor that {impl} asks "
            "for holds, found '32'");
}

// The limits hold at their bounds: an instruction of 128 bits (the bridge's width) is taken, 129
// is not; a message's local words up to LOCAL - 1 at either end are taken, one past at the
// destination's end is refused as at the source's.
TEST(ProgramImage, EachLimitHoldsAtItsBoundAtBothEndsOfAMessage) {
  const sw::SystemConfig c = small_config(sw::Arch::Omp, 4);
  rtl::MultiprocessorLimits w = small_limits();
  w.instruction_bits = 128;
  EXPECT_EQ(refusal(every_op(), c, w), "");
  w.instruction_bits = 129;
  try {
    (void)sc::assemble(every_op(), c, w);
    ADD_FAILURE() << "129-bit instructions accepted";
  } catch (const sw::ParameterError& e) {
    EXPECT_EQ(e.parameter(), "impl") << e.what();
  }
  w = small_limits();  // LOCAL = 64
  sw::MachineProgram fits = every_op();
  fits.messages.push_back({0, 1, 2, {1, 2, 0}, 4, 60, 60});  // words 60..63 at both ends
  EXPECT_EQ(refusal(fits, c, w), "");
  sw::MachineProgram past_source = every_op();
  past_source.messages.push_back({0, 1, 2, {1, 2, 0}, 4, 61, 0});
  EXPECT_NE(refusal(past_source, c, w).find("P1's local words 61..64 are past"), std::string::npos)
      << refusal(past_source, c, w);
  sw::MachineProgram past_destination = every_op();
  past_destination.messages.push_back({0, 1, 2, {1, 2, 0}, 4, 0, 61});
  EXPECT_NE(refusal(past_destination, c, w).find("P2's local words 61..64 are past"),
            std::string::npos)
      << refusal(past_destination, c, w);
}

/// rtl::encode's refusal of `value` in `field` of `bits` bits whose most is `most`.
std::string past_bound(const std::string& field, std::uint64_t value, std::uint32_t bits,
                       std::uint64_t most) {
  return field + " " + std::to_string(value) + " does not fit the RTL's " + std::to_string(bits) +
         "-bit field (at most " + std::to_string(most) + ")";
}

// rtl::encode's bounds at sizes that are no powers of two (N = 3, L = 6, S = 5, DEPTH = 12,
// LOCAL = 48), where each bound lies below what its field's bits hold: the largest value is taken
// and reads back at the table's position, one more is refused naming the field, its value, its
// bits and the most it takes.
TEST(ProgramImage, EveryBoundedFieldTakesItsMostAndRefusesOneMore) {
  const rtl::MultiprocessorLimits w = limits(3, 6, 5, 12, 48, 64);
  ASSERT_EQ(w.slot_bits, 2u);     // holds 0..3, the slots and buffers 0..2
  ASSERT_EQ(w.vector_bits, 3u);   // 0..7, the buffer words 0..5
  ASSERT_EQ(w.vectors_bits, 3u);  // 0..7, l and the words 0..6
  ASSERT_EQ(w.set_bits, 3u);      // 0..7, the index sets 0..4
  ASSERT_EQ(w.address_bits, 4u);  // 0..15, the module words 0..11
  ASSERT_EQ(w.local_bits, 6u);    // 0..63, the local words 0..47
  using Code = rtl::RtlOp::Code;
  const auto op_of = [](Code code) {
    rtl::RtlOp op;
    op.code = code;
    op.slots = {0};
    return op;
  };
  struct Bounded {
    std::string field;
    rtl::RtlOp op;  // the op with every other field valid
    std::function<void(rtl::RtlOp&, std::uint32_t)> set;
    std::size_t at;       // its place in decode()'s fields
    std::uint32_t bound;  // the first value refused
    std::uint32_t bits;
    rtl::MultiprocessorArch arch = rtl::MultiprocessorArch::Omp;
  };
  // decode()'s access fields at N = 3: opcode, write, col, bus, d, 3 slots, address, l, set.
  const std::vector<Bounded> fields = {
      {"bus", op_of(Code::Access), [](rtl::RtlOp& o, std::uint32_t v) { o.bus = v; }, 3, 3, 2,
       rtl::MultiprocessorArch::Crossbar},
      {"bus", op_of(Code::Access), [](rtl::RtlOp& o, std::uint32_t v) { o.bus = v; }, 3, 1, 2},
      {"slot", op_of(Code::Access),
       [](rtl::RtlOp& o, std::uint32_t v) {
         o.slots = {1, v};
       },
       6, 3, 2},
      {"module address (DEPTH)", op_of(Code::Access),
       [](rtl::RtlOp& o, std::uint32_t v) { o.address = v; }, 8, 12, 4},
      {"vectors l", op_of(Code::Access), [](rtl::RtlOp& o, std::uint32_t v) { o.vectors = v; }, 9,
       7, 3},
      {"index set", op_of(Code::Access), [](rtl::RtlOp& o, std::uint32_t v) { o.index_set = v; },
       10, 5, 3},
      {"source", op_of(Code::WaitSync), [](rtl::RtlOp& o, std::uint32_t v) { o.source = v; }, 1, 3,
       2},
      {"buffer", op_of(Code::LoadBuffer), [](rtl::RtlOp& o, std::uint32_t v) { o.buffer = v; }, 1,
       3, 2},
      {"buffer word", op_of(Code::StoreBuffer),
       [](rtl::RtlOp& o, std::uint32_t v) { o.buffer_word = v; }, 2, 6, 3},
      {"local address (LOCAL)", op_of(Code::LoadBuffer),
       [](rtl::RtlOp& o, std::uint32_t v) { o.local_address = v; }, 3, 48, 6},
      {"words", op_of(Code::StoreBuffer), [](rtl::RtlOp& o, std::uint32_t v) { o.words = v; }, 4, 7,
       3},
  };
  for (const Bounded& b : fields) {
    SCOPED_TRACE(b.field);
    rtl::RtlOp most = b.op;
    b.set(most, b.bound - 1);
    EXPECT_EQ(decode(rtl::encode(most, w, b.arch), w).at(b.at), b.bound - 1);
    rtl::RtlOp past = b.op;
    b.set(past, b.bound);
    try {
      (void)rtl::encode(past, w, b.arch);
      ADD_FAILURE() << "taken: " << b.bound;
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()), past_bound(b.field, b.bound, b.bits, b.bound - 1));
    }
  }
}

// A bound above what the field's bits hold (limits whose DEPTH of 20 words is past the 16 that
// 4 address bits reach): the bits limit, and a value they cannot hold is refused rather than cut.
TEST(ProgramImage, AValueItsFieldCannotHoldIsRefusedWhateverTheBound) {
  rtl::MultiprocessorLimits w = small_limits();
  ASSERT_EQ(w.address_bits, 4u);
  w.module_words = 20;
  rtl::RtlOp op;
  op.code = rtl::RtlOp::Code::Access;
  op.slots = {0};
  op.address = 16;
  try {
    (void)rtl::encode(op, w, rtl::MultiprocessorArch::Omp);
    ADD_FAILURE() << "address 16 taken into 4 bits";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), past_bound("module address (DEPTH)", 16, 4, 15));
  }
}

TEST(ProgramImage, ActivityClassesAreTheProcessorsOutput) {
  // docs/rtl.md, processor's `activity`: 0 idle, 1 compute, 2 read, 3 write, 4 bus switch,
  // 5 barrier, 6 activate-sync, 7 wait-sync.
  using A = traces::Activity;
  const std::pair<A, std::uint32_t> classes[] = {{A::Idle, 0},         {A::Compute, 1},
                                                 {A::Read, 2},         {A::IwrRead, 2},
                                                 {A::Write, 3},        {A::IwrWrite, 3},
                                                 {A::BusSwitch, 4},    {A::Barrier, 5},
                                                 {A::ActivateSync, 6}, {A::WaitSync, 7}};
  for (const auto& [activity, value] : classes) {
    EXPECT_EQ(sc::activity_class(activity), value) << static_cast<int>(activity);
  }
}

}  // namespace
}  // namespace orthosim
