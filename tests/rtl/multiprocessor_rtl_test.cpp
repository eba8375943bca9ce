// Model = RTL at system level (docs/architecture.md): omp, crossbar and single-bus systems at n = 2, 4, 8,
// 16 run the same randomized access workloads and mapped random programs twice, side by side in
// one simulation: once with the SystemC models and once with the verilated bus controllers and
// index manipulators in their place (--impl rtl). Cycles, per-processor ends, step ends, delivered
// words, conflicts, wait cycles and every statistic must be equal. The co-simulation (--impl
// cosim) passes on the same workloads and catches a deliberate fault in the model (one flipped
// bit in one cycle, one cycle of extra latency) at the cycle and signal the protocol formula
// names. The RTL's clock is gated: its edges follow the accesses, not the simulated cycles. On
// the omp the verilated module array replaces the model's arbiter and modules (memory = rtl) or
// runs beside them (memory = cosim) with the same results and every written word in the module
// the model's is in; a grant one cycle late and a flipped word in the model are caught at their
// cycle and signal.
//
// Each TEST elaborates its own systems (one elaboration per process, toolchain fact 2). Some seeds are
// fixed, one per test is varied: ORTHOSIM_TEST_SEED if set, else the time, printed so that a
// failure can be reproduced with ORTHOSIM_TEST_SEED=<seed>.
#include <gtest/gtest.h>

#include <cstdlib>
#include <functional>
#include <iostream>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

#include "rtl/bridge/bus_controller_rtl.hpp"
#include "rtl/bridge/module_array_rtl.hpp"
#include "sc_models/cosim/cosim_wiring.hpp"
#include "sc_models/kernel/lockstep_checker.hpp"
#include "sc_models/multiprocessor/multiprocessor.hpp"
#include "sw/mapping/mapping.hpp"
#include "sw/pattern/generate.hpp"
#include "sw/workload/access_workload.hpp"
#include "tests/support/varied_seed.hpp"

namespace orthosim {
namespace {

using testing_support::varied_seed;

using sw::Arch;

/// A system whose blocks the co-simulation layer builds as its configuration says; blocks() is
/// that layer's wiring (test faults, clock edges).
class Wired : public sc::Multiprocessor {
 public:
  Wired(const char* name, const sw::SystemConfig& c, traces::Recorder& recorder)
      : Wired(name, c, recorder, new sc::CosimWiring) {}
  [[nodiscard]] sc::CosimWiring& blocks() { return blocks_; }

 private:
  Wired(const char* name, const sw::SystemConfig& c, traces::Recorder& recorder,
        sc::CosimWiring* blocks)
      : sc::Multiprocessor(name, c.validated(), recorder, std::unique_ptr<sc::BlockWiring>(blocks)),
        blocks_(*blocks) {}
  sc::CosimWiring& blocks_;
};

sw::SystemConfig config_of(Arch arch, std::uint32_t n, sw::Impl bus, sw::Impl im) {
  sw::SystemConfig c;
  c.arch = arch;
  c.n = n;
  c.impl.bus_controller = bus;
  c.impl.index_manipulator = im;
  return c;
}

/// The statistic's name without the system's own name ("omp_rtl.bc2.accesses" -> "bc2.accesses").
std::string local_name(const std::string& name) { return name.substr(name.find('.') + 1); }

void expect_same(const sw::RunSummary& model, const sw::RunSummary& rtl, const std::string& what) {
  ASSERT_TRUE(model.completed) << what;
  ASSERT_TRUE(model.delivery.ok()) << what << ": " << model.delivery.failures.front();
  EXPECT_FALSE(rtl.mismatch.has_value()) << what << ": " << rtl.mismatch->to_string();
  EXPECT_EQ(rtl.completed, model.completed) << what;
  EXPECT_EQ(rtl.cycles, model.cycles) << what;
  EXPECT_EQ(rtl.processor_end, model.processor_end) << what;
  EXPECT_EQ(rtl.step_ends, model.step_ends) << what;
  EXPECT_TRUE(rtl.delivery.ok()) << what;
  EXPECT_EQ(rtl.delivery.messages_checked, model.delivery.messages_checked) << what;
  EXPECT_EQ(rtl.delivery.words_checked, model.delivery.words_checked) << what;
  EXPECT_EQ(rtl.conflicts, model.conflicts) << what;
  EXPECT_EQ(rtl.conflict_wait_cycles, model.conflict_wait_cycles) << what;
  ASSERT_EQ(rtl.stats.size(), model.stats.size()) << what;
  for (std::size_t i = 0; i < model.stats.size(); ++i) {
    const std::string name = local_name(model.stats[i].name);
    EXPECT_EQ(local_name(rtl.stats[i].name), name) << what;
    // "*.activations" count the kernel's activations of a process: a cost of the simulation,
    // not of the emulated machine. Which process runs first among those woken in the same delta
    // is the kernel's choice (IEEE 1666), and a processor that finds its sync token already
    // there needs one activation less; the cycles do not depend on it.
    if (name.size() < 12 || name.compare(name.size() - 12, 12, ".activations") != 0) {
      EXPECT_EQ(rtl.stats[i].value, model.stats[i].value) << what << ": " << name;
    }
  }
}

/// The programs of one run: random access workloads and mapped random programs.
std::vector<std::pair<std::string, sw::MachineProgram>> programs(const sw::SystemConfig& c,
                                                                 std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::pair<std::string, sw::MachineProgram>> out;
  const sw::WorkloadKind kinds[] = {sw::WorkloadKind::Scalar, sw::WorkloadKind::Interleaved,
                                    sw::WorkloadKind::Block, sw::WorkloadKind::Iwr};
  for (sw::WorkloadKind kind : kinds) {
    sw::AccessWorkload w;
    w.kind = kind;
    const std::uint32_t max_d = kind == sw::WorkloadKind::Scalar ? 1 : c.n - 1;
    w.d = 1 + static_cast<std::uint32_t>(rng() % std::max(1u, max_d));
    w.l = kind == sw::WorkloadKind::Block || kind == sw::WorkloadKind::Iwr
              ? 1 + static_cast<std::uint32_t>(rng() % 8)
              : 1;
    w.repetitions = 1 + static_cast<std::uint32_t>(rng() % 6);
    out.emplace_back("access " + sw::to_string(kind) + " d=" + std::to_string(w.d) +
                         " l=" + std::to_string(w.l) + " x" + std::to_string(w.repetitions),
                     sw::make_access_program(c, w));
  }
  for (int k = 0; k < 2; ++k) {
    const sw::McProgram program =
        sw::generate_random(c.n, 2 + static_cast<std::uint32_t>(rng() % 4), rng());
    out.emplace_back(program.name, sw::map_program(program, c.arch, c.n).machine);
  }
  return out;
}

/// Runs every program on both systems side by side; returns the simulated cycles.
std::uint64_t run_and_compare(sc::Multiprocessor& model, sc::Multiprocessor& rtl,
                              std::uint64_t seed) {
  std::uint64_t cycles = 0;
  for (const auto& [name, program] : programs(model.config(), seed)) {
    model.load(program);
    rtl.load(program);
    sc::run_systems({&model, &rtl}, sw::Cycle{100'000'000});
    const sw::RunSummary m = model.result();
    const sw::RunSummary r = rtl.result();
    expect_same(m, r, name + " (seed " + std::to_string(seed) + ") on " + model.name());
    cycles += m.cycles.count();
  }
  return cycles;
}

class ModelEqualsRtl : public testing::TestWithParam<std::tuple<Arch, std::uint32_t>> {};

// For every block type (bus controller, index manipulator) the twelve instances together
// simulate well over 10^5 cycles (each prints its count).
TEST_P(ModelEqualsRtl, SameCyclesDataAndStatisticsOnRandomWorkloadsAndPrograms) {
  const auto [arch, n] = GetParam();
  traces::Recorder silent;
  Wired model("model", config_of(arch, n, sw::Impl::Model, sw::Impl::Model), silent);
  Wired rtl("rtl", config_of(arch, n, sw::Impl::Rtl, sw::Impl::Rtl), silent);
  const std::uint64_t varied = varied_seed();
  std::uint64_t cycles = 0;
  for (std::uint64_t seed : {std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{3}, std::uint64_t{4},
                             std::uint64_t{5}, varied}) {
    cycles += run_and_compare(model, rtl, seed);
  }
  std::cout << "simulated cycles on each system: " << cycles << "\n";
  EXPECT_GT(rtl.blocks().rtl_edges(), 0u);
}

std::string case_name(const testing::TestParamInfo<std::tuple<Arch, std::uint32_t>>& p) {
  return sw::to_string(std::get<0>(p.param)) + "_n" + std::to_string(std::get<1>(p.param));
}

INSTANTIATE_TEST_SUITE_P(AllConfigurations, ModelEqualsRtl,
                         testing::Combine(testing::Values(Arch::Omp, Arch::Crossbar, Arch::Bus),
                                          testing::Values(2u, 4u, 8u, 16u)),
                         case_name);

// Cosim passes on the same workloads: the models drive, the RTL runs beside them and every
// output is compared every cycle.
TEST(Cosim, AgreesOnRandomWorkloadsAndPrograms) {
  traces::Recorder silent;
  Wired model("model", config_of(Arch::Omp, 8, sw::Impl::Model, sw::Impl::Model), silent);
  Wired cosim("cosim", config_of(Arch::Omp, 8, sw::Impl::Cosim, sw::Impl::Cosim), silent);
  EXPECT_GT(run_and_compare(model, cosim, 7), 1000u);
}

/// One scalar write by P(1) on the omp at n = 4, granted at cycle 0 (no contention): its word is
/// on the bus in cycle alpha ([PH91] Fig. 5(a): alpha + tau), it ends at alpha + tau.
sw::MachineProgram one_write(const sw::SystemConfig& c) {
  sw::MachineProgram p;
  p.name = "one write";
  p.arch = c.arch;
  p.n = c.n;
  p.processors.resize(c.n);
  sw::ProcessorProgram& p1 = p.processors[1];
  p1.index_sets = {sw::IndexSet{0, 1, 2, 3}};
  p1.ops.emplace_back(sw::LoadBuffer{0, 0, 1});
  sw::MemoryAccess write;
  write.direction = sw::Direction::Write;
  write.bus = {sw::BusKind::Row, 1};
  write.slots = {2};
  write.address = 5;
  p1.ops.emplace_back(write);
  return p;
}

/// The run of one_write on the omp at n = 4 with bus = cosim and a fault in P(1)'s controller.
sw::RunSummary run_with_fault(const sc::ModelFault& fault, std::uint64_t tau) {
  traces::Recorder silent;
  sw::SystemConfig c = config_of(Arch::Omp, 4, sw::Impl::Cosim, sw::Impl::Model);
  c.timing.tau = tau;
  Wired system("omp", c, silent);
  system.blocks().inject_fault(1, fault);
  system.load(one_write(c));
  sc::run_systems({&system}, sw::Cycle{1'000'000});
  return system.result();
}

/// The mismatch of one_write on the omp at n = 4 with a fault in P(1)'s controller.
sc::Mismatch faulty_run(const sc::ModelFault& fault, std::uint64_t tau = sw::BusTiming{}.tau) {
  const sw::RunSummary r = run_with_fault(fault, tau);
  EXPECT_TRUE(r.mismatch.has_value());
  EXPECT_FALSE(r.completed) << "the first mismatch stops the run";
  return r.mismatch.value_or(sc::Mismatch{});
}

TEST(Cosim, AFlippedBitInTheModelIsCaughtAtItsCycleOnTheBus) {
  const std::uint64_t alpha = sw::BusTiming{}.alpha;
  sc::ModelFault fault;
  fault.kind = sc::ModelFault::Kind::FlipBit;
  fault.at = sw::Cycle{alpha};  // the cycle of the only word
  fault.bit = 7;
  const sc::Mismatch m = faulty_run(fault);
  EXPECT_EQ(m.cycle, alpha);
  EXPECT_EQ(m.instance, "omp.bc1");
  EXPECT_EQ(m.signal, "bus_data");
  EXPECT_EQ(m.model ^ m.rtl, 1u << 7);
}

TEST(Cosim, OneCycleOfExtraLatencyInTheModelIsCaughtWhereTheRtlPutsItsWord) {
  const std::uint64_t alpha = sw::BusTiming{}.alpha;
  sc::ModelFault fault;
  fault.kind = sc::ModelFault::Kind::ExtraCycle;
  fault.at = sw::Cycle{0};  // the grant
  const sc::Mismatch m = faulty_run(fault);
  // The RTL's word is on the bus in cycle alpha, the model's one cycle later.
  EXPECT_EQ(m.cycle, alpha);
  EXPECT_EQ(m.instance, "omp.bc1");
  EXPECT_EQ(m.signal, "bus_valid");
  EXPECT_EQ(m.model, 0u);
  EXPECT_EQ(m.rtl, 1u);
}

// A word is on the bus for tau cycles: a flipped bit in the model's word differs from the RTL's
// in each of them, and the report names the first, the cycle the word went on the bus (alpha),
// whichever of its cycles the fault names.
TEST(Cosim, AFaultHeldOverSeveralCyclesIsReportedAtItsFirstCycle) {
  const std::uint64_t alpha = sw::BusTiming{}.alpha;
  constexpr std::uint64_t kTau = 3;
  sc::ModelFault fault;
  fault.kind = sc::ModelFault::Kind::FlipBit;
  fault.at = sw::Cycle{alpha + kTau - 1};  // the word's last cycle on the bus
  fault.bit = 4;
  const sc::Mismatch m = faulty_run(fault, kTau);
  EXPECT_EQ(m.cycle, alpha);
  EXPECT_EQ(m.instance, "omp.bc1");
  EXPECT_EQ(m.signal, "bus_data");
  EXPECT_EQ(m.model ^ m.rtl, 1u << 4);
}

// The word is on the bus in cycles alpha .. alpha + tau - 1 and in no other: a flip in the cycle
// after its last one changes no word, and the run completes without a mismatch (a window of
// alpha cycles in place of tau would reach it).
TEST(Cosim, AFaultInTheCycleAfterTheWordsLastChangesNothing) {
  const std::uint64_t alpha = sw::BusTiming{}.alpha;
  constexpr std::uint64_t kTau = 3;
  sc::ModelFault fault;
  fault.kind = sc::ModelFault::Kind::FlipBit;
  fault.at = sw::Cycle{alpha + kTau};
  fault.bit = 4;
  const sw::RunSummary r = run_with_fault(fault, kTau);
  EXPECT_FALSE(r.mismatch.has_value()) << r.mismatch->to_string();
  EXPECT_TRUE(r.completed);
  EXPECT_EQ(r.cycles.count(), alpha + kTau);  // [PH91] Fig. 5(a): one word ends at alpha + tau
}

/// P(a) and P(b) of the omp at n write in the same cycles on their own rows, each controller
/// with a flipped bit in its word (bit 1 in P(a)'s, bit 2 in P(b)'s): the run's mismatch.
sc::Mismatch two_faulty_writers(std::uint32_t n, sw::ProcId a, sw::ProcId b) {
  traces::Recorder silent;
  const sw::SystemConfig c = config_of(Arch::Omp, n, sw::Impl::Cosim, sw::Impl::Model);
  Wired system("omp", c, silent);
  sc::ModelFault fault;
  fault.kind = sc::ModelFault::Kind::FlipBit;
  fault.at = sw::Cycle{c.timing.alpha};
  fault.bit = 1;
  system.blocks().inject_fault(a, fault);
  fault.bit = 2;
  system.blocks().inject_fault(b, fault);
  sw::MachineProgram p = one_write(c);
  const sw::ProcessorProgram writer = p.processors[1];
  p.processors[1] = sw::ProcessorProgram{};
  for (const sw::ProcId q : {a, b}) {
    p.processors[q] = writer;
    std::vector<sw::Op> ops = writer.ops.decoded();
    std::get<sw::MemoryAccess>(ops[1]).bus = {sw::BusKind::Row, q};
    p.processors[q].ops = sw::OpList(ops);
  }
  system.load(p);
  sc::run_systems({&system}, sw::Cycle{1'000'000});
  const sw::RunSummary r = system.result();
  EXPECT_TRUE(r.mismatch.has_value());
  EXPECT_EQ(r.mismatch.value_or(sc::Mismatch{}).cycle, c.timing.alpha);
  return r.mismatch.value_or(sc::Mismatch{});
}

// Both differ from the RTL in cycle alpha, and the report is the first of them by instance
// name, omp.bc1, whatever order the kernel runs the two datapaths in.
TEST(Cosim, OfTwoBlocksThatDifferInOneCycleTheFirstIsReported) {
  const sc::Mismatch m = two_faulty_writers(4, 1, 2);
  EXPECT_EQ(m.instance, "omp.bc1");
  EXPECT_EQ(m.signal, "bus_data");
  EXPECT_EQ(m.model ^ m.rtl, 1u << 1);
}

// The same of P2 and P10 at n = 16: omp.bc10 is the first by name, though P2's datapath is
// built first (the name decides, not the order the blocks report in).
TEST(Cosim, OfTwoBlocksThatDifferInOneCycleTheFirstByNameIsReported) {
  const sc::Mismatch m = two_faulty_writers(16, 2, 10);
  EXPECT_EQ(m.instance, "omp.bc10");
  EXPECT_EQ(m.signal, "bus_data");
  EXPECT_EQ(m.model ^ m.rtl, 1u << 2);
}

// The comparator keeps the first mismatch: later ones, in the same cycle or in later cycles,
// are still reported as differences but do not replace it.
TEST(Cosim, TheCheckerKeepsTheFirstMismatchOfSeveral) {
  sc::LockstepChecker checker("omp.bc2");
  EXPECT_TRUE(checker.check(4, "bus_data", 7, 7));
  EXPECT_FALSE(checker.check(5, "bus_addr", 1, 2));
  EXPECT_FALSE(checker.check(5, "bus_data", 3, 4));
  EXPECT_FALSE(checker.check(6, "busy", 0, 1));
  EXPECT_TRUE(checker.check(7, "busy", 1, 1));
  ASSERT_TRUE(checker.first_mismatch().has_value());
  const sc::Mismatch& m = *checker.first_mismatch();
  EXPECT_EQ(m.cycle, 5u);
  EXPECT_EQ(m.instance, "omp.bc2");
  EXPECT_EQ(m.signal, "bus_addr");
  EXPECT_EQ(m.model, 1u);
  EXPECT_EQ(m.rtl, 2u);
  EXPECT_EQ(checker.comparisons(), 5u);
}

// Cost follows activity: a processor that computes for 10^6 cycles and then makes one access
// costs the RTL clock only that access (one edge per cycle; the done cycle's edge waits for a
// next access), and the other processors' datapaths only their reset (two edges each). So with
// the verilated controller in place of the model's (bus = rtl) and beside it (bus = cosim: the
// done cycle, in which the model's access has ended, is compared at once, not at an edge).
TEST(Gating, TheRtlClockRunsOnlyDuringAccesses) {
  traces::Recorder silent;
  Wired in_place("in_place", config_of(Arch::Omp, 4, sw::Impl::Rtl, sw::Impl::Rtl), silent);
  Wired beside("beside", config_of(Arch::Omp, 4, sw::Impl::Cosim, sw::Impl::Model), silent);
  for (Wired* system : {&in_place, &beside}) {
    const sw::SystemConfig& c = system->config();
    sw::MachineProgram p = one_write(c);
    std::vector<sw::Op> ops = p.processors[1].ops.decoded();
    ops.insert(ops.begin(), sw::Compute{sw::Cycle{1'000'000}});
    p.processors[1].ops = sw::OpList(ops);
    system->load(p);
    sc::run_systems({system}, sw::Cycle{10'000'000});
    const sw::RunSummary r = system->result();
    ASSERT_TRUE(r.completed) << system->name();
    EXPECT_FALSE(r.mismatch.has_value()) << system->name();
    const std::uint64_t access = sw::BusTiming{}.alpha + sw::BusTiming{}.tau;
    EXPECT_EQ(r.cycles.count(), 1'000'000 + access) << system->name();
    EXPECT_EQ(system->blocks().rtl_edges(), 2 * c.n + access) << system->name();
  }
}

// The controller's word outputs as BusControllerRtl::wire_words gives them without evaluating
// the controller (bus = rtl without a waveform) are the RTL's (read_words) in every cycle of a
// write and of a read (start-up, address increments, words, the done cycle), for random words fed
// in.
TEST(BusControllerRtl, WiredWordsAreTheRtls) {
  rtl::BusControllerRtl bc("bc", 4);
  bc.set_reset(true);
  bc.edge();
  bc.set_reset(false);
  bc.set_timing(true, 2, 1, 2, 3);
  bc.set_grant(true);  // granted in the cycle of the start
  bc.edge();
  bc.set_timing(false, 0, 0, 0, 0);
  std::mt19937 rng(7);
  std::uint32_t word_cycles = 0;
  for (const bool write : {true, false}) {
    rtl::BusAccessPins access;
    access.write = write;
    access.column = !write;
    access.slots = {1, 3, 0};
    access.address = 5;
    access.vectors = 3;
    bc.set_start(true, access);
    // alpha + beta (l - 1) + d tau l = 2 + 2 + 18 cycles, then the done cycle and idle ones.
    for (int cycle = 0; cycle < 26; ++cycle) {
      rtl::BusControllerOutputs rtl = bc.control_outputs();
      const std::uint32_t bus_rdata = static_cast<std::uint32_t>(rng());
      const std::uint32_t im_rdata = static_cast<std::uint32_t>(rng());
      bc.set_words(bus_rdata, im_rdata);
      rtl::BusControllerOutputs wired = rtl;
      rtl::BusControllerRtl::wire_words(wired, bus_rdata, im_rdata);
      bc.read_words(rtl);
      const std::string when =
          (write ? "write" : "read") + std::string(", cycle ") + std::to_string(cycle);
      EXPECT_EQ(wired.bus_wdata, rtl.bus_wdata) << when;
      EXPECT_EQ(wired.bus_data, rtl.bus_data) << when;
      EXPECT_EQ(wired.im_wdata, rtl.im_wdata) << when;
      word_cycles += rtl.bus_valid ? 1 : 0;
      bc.edge();
      bc.set_start(false, {});
    }
  }
  EXPECT_EQ(word_cycles, 2u * 18u);  // d tau l of each access
}

// The arbitration outputs by docs/rtl.md's timing table: a column access of slots {1, 3, 0},
// l = 1, started in cycle 0 and granted in G = 2 (the arbiter's grant withheld until then), at
// alpha = 2, tau = 2: D = alpha + d tau l = 8. `req` from the start to G, `hold` from G + 1 to
// G + D - 1, the column bit and the slot mask 1011b while either is high, `busy` from the start
// to G + D - 1, `last` in G + D - 1 and `done` in G + D.
TEST(BusControllerRtl, ArbitrationOutputsFollowTheTimingTable) {
  rtl::BusControllerRtl bc("bc", 4);
  bc.set_reset(true);
  bc.edge();
  bc.set_reset(false);
  bc.set_timing(true, 2, 1, 2, 3);
  bc.edge();
  bc.set_timing(false, 0, 0, 0, 0);
  rtl::BusAccessPins access;
  access.column = true;
  access.slots = {1, 3, 0};
  access.vectors = 1;
  bc.set_start(true, access);
  const std::uint32_t g = 2;
  const std::uint32_t d = 2 + 3 * 2 * 1;
  for (std::uint32_t c = 0; c <= g + d + 2; ++c) {
    bc.set_grant(c >= g);
    const rtl::BusControllerOutputs o = bc.control_outputs();
    const bool req = c <= g;
    const bool hold = c > g && c < g + d;
    EXPECT_EQ(o.req, req) << "cycle " << c;
    EXPECT_EQ(o.hold, hold) << "cycle " << c;
    if (req || hold) {
      EXPECT_TRUE(o.req_col) << "cycle " << c;
      EXPECT_EQ(o.req_mask, 0b1011U) << "cycle " << c;
    }
    EXPECT_EQ(o.busy, c < g + d) << "cycle " << c;
    EXPECT_EQ(o.last, c == g + d - 1) << "cycle " << c;
    EXPECT_EQ(o.done, c == g + d) << "cycle " << c;
    bc.edge();
    bc.set_start(false, {});
  }
}

// ---- the verilated index manipulator beside the model's under the RTL controller (bus = rtl,
// im = cosim) --------------------------------------------------------------------------------

/// An omp of n = 4 with the RTL controllers and the index manipulators co-simulated: the RTL
/// controller takes the model's buffer words, the verilated manipulator runs beside it.
sw::SystemConfig im_cosim_config() {
  return config_of(Arch::Omp, 4, sw::Impl::Rtl, sw::Impl::Cosim);
}

/// P(1)'s program of `ops` with the identity index set (stream position p is buffer p).
sw::MachineProgram p1_program(const sw::SystemConfig& c, const std::vector<sw::Op>& ops) {
  sw::MachineProgram p;
  p.name = "P(1) alone";
  p.arch = c.arch;
  p.n = c.n;
  p.processors.resize(c.n);
  p.processors[1].index_sets = {sw::IndexSet{0, 1, 2, 3}};
  p.processors[1].ops = sw::OpList(ops);
  return p;
}

/// A scalar access by P(1) over RB(1) to slot `slot`'s module M(1,slot) at `address`.
sw::MemoryAccess p1_scalar(sw::Direction direction, std::uint32_t slot, std::uint32_t address) {
  sw::MemoryAccess a;
  a.direction = direction;
  a.bus = {sw::BusKind::Row, 1};
  a.slots = {slot};
  a.address = address;
  return a;
}

// With bus = rtl the verilated controller writes the model manipulator's word (the model's side)
// while the verilated manipulator runs beside it: a word that differs between the two is caught
// at the manipulator's output in the cycle the word goes on the bus ([PH91] Fig. 5(a): alpha
// cycles after the grant at 0), by the manipulator's own checker.
TEST(Cosim, AModelBufferWordTheRtlIndexManipulatorDoesNotHoldIsCaughtWhereItIsWritten) {
  traces::Recorder silent;
  const sw::SystemConfig c = im_cosim_config();
  Wired system("omp", c, silent);
  system.load(p1_program(c, {p1_scalar(sw::Direction::Write, 2, 5)}));
  const sw::Word model_only = 0x00C0FFEEu;
  system.manipulator(1).write_word(0, 0, model_only);  // the model's buffer 0 only
  sc::run_systems({&system}, sw::Cycle{1'000'000});
  const sw::RunSummary r = system.result();
  ASSERT_TRUE(r.mismatch.has_value());
  EXPECT_EQ(r.mismatch->cycle, c.timing.alpha);
  EXPECT_EQ(r.mismatch->instance, "omp.im1");
  EXPECT_EQ(r.mismatch->signal, "ac_rdata");
  EXPECT_EQ(r.mismatch->model, model_only);
  EXPECT_EQ(r.mismatch->rtl, sw::kUnwrittenWord);  // the verilated buffers are filled with it
}

// The word a read brings lands in the model's buffer as well as in the verilated one, so that
// the next write takes the same word from both: P(1) reads M(1,2)'s word into buffer 0 and
// writes it from there to M(1,3), without a mismatch, and M(1,3) holds the word.
TEST(Cosim, AWordReadIntoTheBuffersIsWrittenFromBothAlike) {
  traces::Recorder silent;
  const sw::SystemConfig c = im_cosim_config();
  Wired system("omp", c, silent);
  system.load(
      p1_program(c, {p1_scalar(sw::Direction::Read, 2, 5), p1_scalar(sw::Direction::Write, 3, 7)}));
  const sw::Word carried = 0x00C0FFEEu;
  system.module(1 * c.n + 2).write(5, carried);  // M(1,2), which load() cleared
  sc::run_systems({&system}, sw::Cycle{1'000'000});
  const sw::RunSummary r = system.result();
  EXPECT_FALSE(r.mismatch.has_value()) << (r.mismatch ? r.mismatch->to_string() : "");
  EXPECT_TRUE(r.completed);
  EXPECT_EQ(system.module(1 * c.n + 3).read(7), carried);
}

/// The words the bus controllers tell the recorder: (cycle, slot, address, word), in the order
/// told.
class BeatLog : public traces::Recorder {
 public:
  using Beat = std::tuple<std::uint64_t, std::uint32_t, std::uint32_t, std::uint32_t>;
  [[nodiscard]] bool enabled() const override { return true; }
  void beat(traces::Cycle at, traces::Cycle /*length*/, traces::SourceId /*controller*/,
            const traces::AccessTrace& /*a*/, std::uint32_t slot, std::uint32_t address,
            std::uint32_t data) override {
    beats.emplace_back(at.count(), slot, address, data);
  }
  std::vector<Beat> beats;
};

// bus = rtl tells the recorder each word the verilated controller puts on the bus, as the model
// controller would, one beat per word: in a block write of one module (d = 1, l = 3) the stream
// position stays 0 and only the vector changes, at [PH91] Fig. 5(c)'s cycles alpha + v (beta + d
// tau) after the grant at 0; the scalar writes after it (each granted in the cycle the access
// before it ends, Fig. 5(a): its word alpha cycles later) have the position and vector of the one
// before.
TEST(BusControllerRtl, EveryWordItPutsOnTheBusIsOneBeat) {
  BeatLog log;
  const sw::SystemConfig c = config_of(Arch::Omp, 4, sw::Impl::Rtl, sw::Impl::Model);
  Wired system("omp", c, log);
  sw::MemoryAccess block = p1_scalar(sw::Direction::Write, 2, 5);
  block.vectors = 3;
  system.load(p1_program(c, {block, p1_scalar(sw::Direction::Write, 3, 9),
                             p1_scalar(sw::Direction::Write, 1, 11)}));
  const auto word_of = [](std::uint32_t v) { return 0xB10C0000u + v; };
  for (std::uint32_t v = 0; v < block.vectors; ++v) {
    system.manipulator(1).write_word(0, v, word_of(v));  // stream position 0 is buffer 0
  }
  sc::run_systems({&system}, sw::Cycle{1'000'000});
  ASSERT_TRUE(system.result().completed);
  std::vector<BeatLog::Beat> expected;
  const sw::BusTiming& t = c.timing;
  for (std::uint32_t v = 0; v < block.vectors; ++v) {
    expected.emplace_back(t.alpha + v * (t.beta + t.tau), 2, 5 + v, word_of(v));
  }
  const std::uint64_t block_end = t.alpha + t.beta * (block.vectors - 1) + t.tau * block.vectors;
  const std::uint64_t scalar = t.alpha + t.tau;
  expected.emplace_back(block_end + t.alpha, 3, 9, word_of(0));
  expected.emplace_back(block_end + scalar + t.alpha, 1, 11, word_of(0));
  EXPECT_EQ(log.beats, expected);
}

// A word stays on the bus for tau cycles and is still one beat, told in its first cycle; a read
// tells the word it brings from the module. With tau = 2, P(1) writes a block of two stream
// positions (slots 2 and 3, d = 2) and two vectors (l = 2) at address 5: position p of vector v
// goes on the bus at [PH91] Fig. 5(c)'s alpha + v (beta + d tau) + p tau after the grant at 0,
// so that each of the four words has a cycle with the position and vector of the cycle before.
// The write ends alpha + beta + d l tau after its grant, where P(1)'s scalar read of M(1,2)'s
// address 6 (vector 1's word of position 0) is granted; its word is on the bus alpha later.
TEST(BusControllerRtl, AWordHeldForTauCyclesIsOneBeatAndAReadTellsTheWordItBrings) {
  BeatLog log;
  sw::SystemConfig c = config_of(Arch::Omp, 4, sw::Impl::Rtl, sw::Impl::Model);
  c.timing.tau = 2;
  Wired system("omp", c, log);
  sw::MemoryAccess block = p1_scalar(sw::Direction::Write, 2, 5);
  block.slots = {2, 3};
  block.vectors = 2;
  system.load(p1_program(c, {block, p1_scalar(sw::Direction::Read, 2, 6)}));
  const auto word_of = [](std::uint32_t position, std::uint32_t v) {
    return 0xB10C0000u + 0x10u * position + v;
  };
  for (std::uint32_t position = 0; position < 2; ++position) {
    for (std::uint32_t v = 0; v < block.vectors; ++v) {
      system.manipulator(1).write_word(position, v, word_of(position, v));  // buffer = position
    }
  }
  sc::run_systems({&system}, sw::Cycle{1'000'000});
  ASSERT_TRUE(system.result().completed);
  std::vector<BeatLog::Beat> expected;
  const sw::BusTiming& t = c.timing;
  const std::uint64_t d = block.slots.size();
  for (std::uint32_t v = 0; v < block.vectors; ++v) {
    for (std::uint32_t position = 0; position < d; ++position) {
      expected.emplace_back(t.alpha + v * (t.beta + d * t.tau) + position * t.tau,
                            block.slots[position], 5 + v, word_of(position, v));
    }
  }
  const std::uint64_t block_end = t.alpha + t.beta + d * block.vectors * t.tau;
  expected.emplace_back(block_end + t.alpha, 2, 6, word_of(0, 1));
  EXPECT_EQ(log.beats, expected);
}

// ---- the module array (memory = rtl | cosim, omp only) --------------------------------------

sw::SystemConfig memory_config(std::uint32_t n, sw::Impl memory, sw::Impl bus, sw::Impl im) {
  sw::SystemConfig c = config_of(Arch::Omp, n, bus, im);
  c.impl.memory = memory;
  return c;
}

class ModelEqualsRtlMemory : public testing::TestWithParam<std::uint32_t> {};

// The module array's arbiter and modules in place of the model's (memory = rtl, with the RTL
// controllers; the RTL index manipulators at n = 2 and 8, the model's at n = 4 and 16), and
// beside them (memory = cosim, with the model controllers), in one simulation with the models:
// the same cycles, words, conflicts, wait cycles and statistics, and no mismatch.
TEST_P(ModelEqualsRtlMemory, SameCyclesDataAndStatisticsOnRandomWorkloadsAndPrograms) {
  const std::uint32_t n = GetParam();
  const sw::Impl im = n == 2 || n == 8 ? sw::Impl::Rtl : sw::Impl::Model;
  traces::Recorder silent;
  Wired model("model", config_of(Arch::Omp, n, sw::Impl::Model, sw::Impl::Model), silent);
  Wired rtl("rtl", memory_config(n, sw::Impl::Rtl, sw::Impl::Rtl, im), silent);
  Wired cosim("cosim", memory_config(n, sw::Impl::Cosim, sw::Impl::Model, sw::Impl::Model), silent);
  const std::uint64_t varied = varied_seed();
  std::uint64_t cycles = 0;
  std::uint64_t conflicts = 0;
  // Seeds 11..24 and the varied one: with n = 2, 4, 8, 16 together well over 10^5 cycles of the
  // verilated module array in place of the model (and as many beside it under cosim).
  std::vector<std::uint64_t> seeds;
  for (std::uint64_t seed = 11; seed <= 24; ++seed) {
    seeds.push_back(seed);
  }
  seeds.push_back(varied);
  for (const std::uint64_t seed : seeds) {
    for (const auto& [name, program] : programs(model.config(), seed)) {
      model.load(program);
      rtl.load(program);
      cosim.load(program);
      sc::run_systems({&model, &rtl, &cosim}, sw::Cycle{100'000'000});
      const sw::RunSummary m = model.result();
      const std::string what =
          name + " (seed " + std::to_string(seed) + ") at n = " + std::to_string(n);
      expect_same(m, rtl.result(), what + ", memory=rtl");
      expect_same(m, cosim.result(), what + ", memory=cosim");
      cycles += m.cycles.count();
      conflicts += m.conflicts;
    }
  }
  std::cout << "simulated cycles on each system: " << cycles << ", conflicts " << conflicts
            << ", module array edges " << rtl.blocks().module_array_edges() << "\n";
  EXPECT_GT(conflicts, 0u);  // the arbiters had to order requests, not only grant them
  EXPECT_GT(rtl.blocks().module_array_edges(), 1u);
  EXPECT_GT(cosim.blocks().module_array_edges(), 1u);
}

INSTANTIATE_TEST_SUITE_P(Omp, ModelEqualsRtlMemory, testing::Values(2u, 4u, 8u, 16u),
                         [](const testing::TestParamInfo<std::uint32_t>& p) {
                           return "n" + std::to_string(p.param);
                         });

// memory = cosim with the RTL controllers (their bus words drive the array) and with the
// co-simulated ones, on the same workloads.
TEST(MemoryCosim, AgreesWithRtlAndCosimControllers) {
  traces::Recorder silent;
  Wired model("model", config_of(Arch::Omp, 4, sw::Impl::Model, sw::Impl::Model), silent);
  Wired with_rtl("with_rtl", memory_config(4, sw::Impl::Cosim, sw::Impl::Rtl, sw::Impl::Rtl),
                 silent);
  Wired with_cosim("with_cosim",
                   memory_config(4, sw::Impl::Cosim, sw::Impl::Cosim, sw::Impl::Cosim), silent);
  std::uint64_t cycles = 0;
  for (const auto& [name, program] : programs(model.config(), 21)) {
    model.load(program);
    with_rtl.load(program);
    with_cosim.load(program);
    sc::run_systems({&model, &with_rtl, &with_cosim}, sw::Cycle{100'000'000});
    const sw::RunSummary m = model.result();
    expect_same(m, with_rtl.result(), name + ", bus=rtl");
    expect_same(m, with_cosim.result(), name + ", bus=cosim");
    cycles += m.cycles.count();
  }
  EXPECT_GT(cycles, 1000u) << "the workloads should keep the modules busy";
  EXPECT_GT(with_cosim.blocks().module_array_edges(), 0u) << "the module array never ran";
}

// With alpha = 0 an access's first word is on the bus in its grant cycle, which the array
// decides at half a period: the controllers it grants start there, before it takes the buses and
// the edge that ends the cycle, so that the word reaches a module (or is read from one) in that
// very cycle.
TEST(MemoryRtl, AWordOnTheBusInItsGrantCycleReachesTheArray) {
  traces::Recorder silent;
  sw::SystemConfig model_config = config_of(Arch::Omp, 4, sw::Impl::Model, sw::Impl::Model);
  sw::SystemConfig rtl_config = memory_config(4, sw::Impl::Rtl, sw::Impl::Rtl, sw::Impl::Rtl);
  model_config.timing.alpha = 0;
  rtl_config.timing.alpha = 0;
  Wired model("model", model_config, silent);
  Wired rtl("rtl", rtl_config, silent);
  std::uint64_t words = 0;
  for (const auto& [name, program] : programs(model_config, 31)) {
    model.load(program);
    rtl.load(program);
    sc::run_systems({&model, &rtl}, sw::Cycle{100'000'000});
    expect_same(model.result(), rtl.result(), name + " with alpha = 0");
    words += model.result().delivery.words_checked;
  }
  EXPECT_GT(words, 0u);
}

// memory = rtl: the module array holds the words in place of the model's modules, which the
// controllers no longer write.
// The module array's backdoor: fill() reaches every word of every module, the first and the
// last; a word written through it is what a bus reading it returns at once (reads are
// combinational: RB(1)'s read of slot 2 addresses M(1,2), module 1 n + 2); a module or a word
// past the verilated sizes is refused.
TEST(MemoryRtl, TheBackdoorReachesEveryWordAndABusReadSeesItsWriteAtOnce) {
  const std::uint32_t n = 4;
  const std::uint32_t depth = rtl::ModuleArrayRtl::kModuleWords;
  rtl::ModuleArrayRtl array("array", n);
  array.fill(0xF111U);
  EXPECT_EQ(array.word(0, 0), 0xF111U);
  EXPECT_EQ(array.word(n * n - 1, depth - 1), 0xF111U);
  std::vector<rtl::ModuleArrayLane> lanes(n);
  lanes[1].mode = 1;
  lanes[1].valid = true;
  lanes[1].sel = 2;
  lanes[1].addr = depth - 1;
  array.set_buses(lanes);
  EXPECT_EQ(array.bus_rdata(1), 0xF111U);
  array.set_word(1 * n + 2, depth - 1, 0xABCDU);
  EXPECT_EQ(array.bus_rdata(1), 0xABCDU);
  EXPECT_EQ(array.word(1 * n + 2, depth - 1), 0xABCDU);
  EXPECT_THROW(array.set_word(n * n, 0, 1), std::out_of_range);
  EXPECT_THROW((void)array.word(n * n, 0), std::out_of_range);
  EXPECT_THROW(array.set_word(0, depth, 1), std::out_of_range);
  EXPECT_THROW((void)array.word(0, depth), std::out_of_range);
}

// The sticky `collision` (docs/rtl.md: a module addressed by both its buses in one cycle, which
// the arbiter never lets happen) driven directly, on an array as built (out of reset): RB(0)'s
// slot 1 alone addresses M(0,1) without one; CB(1)'s slot 0 then addresses M(0,1) in the same
// cycle, and the flag rises at that edge and stays.
TEST(MemoryRtl, TwoBusesOnOneModuleAreACollision) {
  const std::uint32_t n = 4;
  rtl::ModuleArrayRtl array("array", n);
  std::vector<rtl::ModuleArrayLane> lanes(n);
  lanes[0].mode = 1;
  lanes[0].valid = true;
  lanes[0].sel = 1;
  array.set_buses(lanes);
  array.edge();
  EXPECT_FALSE(array.collision());
  lanes[1].mode = 2;
  lanes[1].valid = true;
  lanes[1].sel = 0;
  array.set_buses(lanes);
  array.edge();
  EXPECT_TRUE(array.collision());
  array.set_buses(std::vector<rtl::ModuleArrayLane>(n));
  array.edge();
  EXPECT_TRUE(array.collision()) << "sticky";
}

TEST(MemoryRtl, WordsAreWrittenIntoTheArrayInPlaceOfTheModelsModules) {
  traces::Recorder silent;
  const sw::SystemConfig c = memory_config(4, sw::Impl::Rtl, sw::Impl::Rtl, sw::Impl::Model);
  Wired system("omp", c, silent);
  system.load(p1_program(c, {p1_scalar(sw::Direction::Write, 2, 5)}));
  const sw::Word word = 0x00C0FFEEu;
  system.manipulator(1).write_word(0, 0, word);
  sc::run_systems({&system}, sw::Cycle{1'000'000});
  ASSERT_TRUE(system.result().completed);
  const sw::ModuleId m12 = 1 * c.n + 2;  // RB(1)'s slot 2
  EXPECT_EQ(system.blocks().module_array()->read(m12, 5), word);
  EXPECT_EQ(system.module(m12).read(5), sw::kUnwrittenWord);
}

/// one_write, then P(1) reads the word back: the read is granted when the write ends (alpha +
/// tau) and its word is on the bus alpha cycles later.
sw::MachineProgram write_then_read(const sw::SystemConfig& c) {
  sw::MachineProgram p = one_write(c);
  sw::MemoryAccess read = std::get<sw::MemoryAccess>(p.processors[1].ops.back());
  read.direction = sw::Direction::Read;
  p.processors[1].ops.emplace_back(read);
  return p;
}

/// write_then_read by P(1) on an n = 4 omp with memory=cosim, after `break_model` made the model
/// wrong on purpose; the run's verdict.
sw::RunSummary memory_cosim_run(const std::function<void(Wired&)>& break_model) {
  traces::Recorder silent;
  const sw::SystemConfig c = memory_config(4, sw::Impl::Cosim, sw::Impl::Model, sw::Impl::Model);
  Wired system("omp", c, silent);
  break_model(system);
  system.load(write_then_read(c));
  sc::run_systems({&system}, sw::Cycle{1'000'000});
  return system.result();
}

// With alpha = 0 the model controller's word is on the bus in its grant cycle, and the module
// array beside it (memory = cosim) takes it there too: P(1) writes M(1,2) in cycle 0 (grant and
// word, [PH91] Fig. 5(a) with alpha = 0) and reads it back in cycle tau, where the write ended;
// the array returns the word the model's module holds, and holds it afterwards.
TEST(MemoryCosim, AWordOnTheBusInItsGrantCycleReachesTheArrayBesideTheModel) {
  traces::Recorder silent;
  sw::SystemConfig c = memory_config(4, sw::Impl::Cosim, sw::Impl::Model, sw::Impl::Model);
  c.timing.alpha = 0;
  Wired system("omp", c, silent);
  system.load(
      p1_program(c, {p1_scalar(sw::Direction::Write, 2, 5), p1_scalar(sw::Direction::Read, 2, 5)}));
  const sw::Word word = 0x00C0FFEEu;
  system.manipulator(1).write_word(0, 0, word);
  sc::run_systems({&system}, sw::Cycle{1'000'000});
  const sw::RunSummary r = system.result();
  EXPECT_FALSE(r.mismatch.has_value()) << r.mismatch->to_string();
  EXPECT_TRUE(r.completed);
  EXPECT_EQ(r.cycles.count(), 2 * c.timing.tau);
  const sw::ModuleId m12 = 1 * c.n + 2;  // RB(1)'s slot 2
  EXPECT_EQ(system.module(m12).read(5), word);
  EXPECT_EQ(system.blocks().module_array()->read(m12, 5), word);
}

TEST(MemoryCosim, AOneCycleLateGrantInTheModelArbiterIsCaughtAtItsCycle) {
  const std::uint64_t second_grant = sw::BusTiming{}.alpha + sw::BusTiming{}.tau;
  const sw::RunSummary r =
      memory_cosim_run([&](Wired& s) { s.blocks().inject_late_grant(1, sw::Cycle{second_grant}); });
  ASSERT_TRUE(r.mismatch.has_value());
  EXPECT_EQ(r.mismatch->cycle, second_grant);
  EXPECT_EQ(r.mismatch->instance, "omp.modules");
  EXPECT_EQ(r.mismatch->signal, "grant[1]");
  EXPECT_EQ(r.mismatch->model, 0u);
  EXPECT_EQ(r.mismatch->rtl, 1u);
}

// A late grant is a fault of the model arbiter that only the module array beside it (memory =
// cosim) can catch: asked of a system without it, it is refused.
TEST(MemoryCosim, ALateGrantNeedsTheModuleArrayBesideTheModel) {
  traces::Recorder silent;
  Wired system("omp", config_of(Arch::Omp, 4, sw::Impl::Cosim, sw::Impl::Model), silent);
  EXPECT_THROW(system.blocks().inject_late_grant(1, sw::Cycle{0}), std::logic_error);
}

TEST(MemoryCosim, AFlippedBitOfAModelModuleWordIsCaughtWhereTheArrayReturnsIt) {
  const sw::BusTiming t;
  const std::uint64_t read_word = 2 * t.alpha + t.tau;  // the read's grant + alpha
  sc::ModelFault fault;
  fault.kind = sc::ModelFault::Kind::FlipBit;
  fault.at = sw::Cycle{read_word};
  fault.bit = 3;
  const sw::RunSummary r = memory_cosim_run([&](Wired& s) { s.blocks().inject_fault(1, fault); });
  ASSERT_TRUE(r.mismatch.has_value());
  EXPECT_EQ(r.mismatch->cycle, read_word);
  EXPECT_EQ(r.mismatch->instance, "omp.modules");
  EXPECT_EQ(r.mismatch->signal, "bus_rdata[1]");
  EXPECT_EQ(r.mismatch->model ^ r.mismatch->rtl, 1u << 3);
}

/// The word P(i) puts in its data buffer s, word v: distinct for every processor, slot and vector,
/// so that a word found in another module than its own is another word.
sw::Word buffered_word(sw::ProcId i, std::uint32_t s, std::uint32_t v) {
  return 0x10000u * (i + 1) + 0x100u * s + v;
}

// memory = cosim compares the words the array returns on the buses, which an array transposed
// throughout would return too: a row write by P(i) on slot s and a column read by P(s) on slot i
// would both meet in M(s,i) instead of M(i,s). So here, after every processor's row write and
// column write of all n slots, each module of the array is read through its backdoor and compared
// with the model's module and with the omp's rule ([PH91] section 3.1, docs/rtl.md, module_array):
// RB(i)'s slot s is M(i,s), CB(j)'s slot s is M(s,j), module a n + b is M(a,b), and with the
// identity index set slot s's word v comes from data buffer s.
TEST(MemoryCosim, EveryWrittenWordSitsInTheModuleOfItsBusAndSlot) {
  constexpr std::uint32_t kN = 4;
  constexpr std::uint32_t kRowAddress = 5;
  constexpr std::uint32_t kColumnAddress = 9;
  constexpr std::uint32_t kVectors = 2;
  traces::Recorder silent;
  const sw::SystemConfig c = memory_config(kN, sw::Impl::Cosim, sw::Impl::Model, sw::Impl::Model);
  Wired system("omp", c, silent);
  sw::MachineProgram program;
  program.name = "row and column writes";
  program.arch = c.arch;
  program.n = kN;
  program.processors.resize(kN);
  for (sw::ProcId i = 0; i < kN; ++i) {
    sw::ProcessorProgram& p = program.processors[i];
    p.index_sets = {sw::IndexSet{0, 1, 2, 3}};
    sw::MemoryAccess write;
    write.direction = sw::Direction::Write;
    write.slots = {0, 1, 2, 3};
    write.vectors = kVectors;
    write.bus = {sw::BusKind::Row, i};
    write.address = kRowAddress;
    p.ops.emplace_back(write);
    write.bus = {sw::BusKind::Column, i};
    write.address = kColumnAddress;
    p.ops.emplace_back(write);
  }
  system.load(program);  // clears the data buffers: they are filled after it
  for (sw::ProcId i = 0; i < kN; ++i) {
    for (std::uint32_t s = 0; s < kN; ++s) {
      for (std::uint32_t v = 0; v < kVectors; ++v) {
        system.manipulator(i).write_word(s, v, buffered_word(i, s, v));
      }
    }
  }
  sc::run_systems({&system}, sw::Cycle{1'000'000});
  const sw::RunSummary r = system.result();
  ASSERT_TRUE(r.completed);
  EXPECT_FALSE(r.mismatch.has_value());
  const sc::RtlMemory* array = system.blocks().module_array();
  ASSERT_NE(array, nullptr);
  for (std::uint32_t a = 0; a < kN; ++a) {
    for (std::uint32_t b = 0; b < kN; ++b) {
      const sw::ModuleId module = a * kN + b;
      for (std::uint32_t v = 0; v < kVectors; ++v) {
        const std::string where = "M(" + std::to_string(a) + "," + std::to_string(b) + ") word ";
        // RB(a)'s slot b and CB(b)'s slot a.
        const sw::Word by_row = buffered_word(a, b, v);
        const sw::Word by_column = buffered_word(b, a, v);
        EXPECT_EQ(system.module(module).read(kRowAddress + v), by_row) << "model " << where << v;
        EXPECT_EQ(array->read(module, kRowAddress + v), by_row) << "array " << where << v;
        EXPECT_EQ(system.module(module).read(kColumnAddress + v), by_column)
            << "model " << where << v;
        EXPECT_EQ(array->read(module, kColumnAddress + v), by_column) << "array " << where << v;
      }
    }
  }
}

// Cost follows activity for the module array too: its clock has an edge in the cycles in which
// a controller requests or holds modules (the reset edge, then the access from its grant to its
// last cycle), not in the 10^6 cycles of computing before.
TEST(Gating, TheModuleArrayClockRunsOnlyWhileModulesAreRequestedOrHeld) {
  traces::Recorder silent;
  const sw::SystemConfig c = memory_config(4, sw::Impl::Rtl, sw::Impl::Rtl, sw::Impl::Rtl);
  Wired system("omp", c, silent);
  sw::MachineProgram p = one_write(c);
  std::vector<sw::Op> ops = p.processors[1].ops.decoded();
  ops.insert(ops.begin(), sw::Compute{sw::Cycle{1'000'000}});
  p.processors[1].ops = sw::OpList(ops);
  system.load(p);
  sc::run_systems({&system}, sw::Cycle{10'000'000});
  const sw::RunSummary r = system.result();
  ASSERT_TRUE(r.completed);
  EXPECT_FALSE(r.mismatch.has_value());
  const std::uint64_t access = sw::BusTiming{}.alpha + sw::BusTiming{}.tau;
  EXPECT_EQ(r.cycles.count(), 1'000'000 + access);
  EXPECT_EQ(system.blocks().module_array_edges(), 1 + access);
  EXPECT_EQ(system.blocks().rtl_edges(), 2 * c.n + access);
}

/// validate_rtl's verdict on `c`: "accepted", or the refused parameter and the refusal.
std::string verdict(const sw::SystemConfig& c) {
  try {
    sc::validate_rtl(c);
  } catch (const sw::ParameterError& e) {
    return e.parameter() + ": " + e.what();
  }
  return "accepted";
}

// Configurations the verilated blocks cannot run are refused before elaboration, naming the
// parameter.
TEST(Validation, ConfigurationsOutsideTheVerilatedSizesAreRefused) {
  sw::SystemConfig c = config_of(Arch::Omp, 3, sw::Impl::Rtl, sw::Impl::Model);
  EXPECT_THROW(sc::validate_rtl(c), sw::ConfigError);
  c.n = 4;
  sc::validate_rtl(c);
  c.module_words = 8192;
  EXPECT_THROW(sc::validate_rtl(c), sw::ConfigError);
  c.module_words = 4096;
  c.timing.alpha = 70000;
  EXPECT_THROW(sc::validate_rtl(c), sw::ConfigError);
  c.timing.alpha = 16;
  c.impl.memory = sw::Impl::Rtl;
  sc::validate_rtl(c);      // omp, bus = rtl
  c.arch = Arch::Crossbar;  // the module array is the omp's organisation only
  EXPECT_THROW(sc::validate_rtl(c), sw::ConfigError);
  c.arch = Arch::Bus;
  EXPECT_THROW(sc::validate_rtl(c), sw::ConfigError);
  c.arch = Arch::Omp;
  c.impl.bus_controller = sw::Impl::Cosim;  // memory = rtl needs the RTL controllers
  EXPECT_THROW(sc::validate_rtl(c), sw::ConfigError);
  c.impl.memory = sw::Impl::Cosim;
  c.impl.bus_controller = sw::Impl::Model;
  sc::validate_rtl(c);
  c.clock_period_ns = 1;  // the array works at half a cycle: a whole nanosecond
  EXPECT_THROW(sc::validate_rtl(c), sw::ConfigError);
  c.clock_period_ns = 2;
  sc::validate_rtl(c);
  c.clock_period_ns = 50;
  c.impl.memory = sw::Impl::Model;
  c.impl.bus_controller = sw::Impl::Model;
  c.impl.index_manipulator = sw::Impl::Cosim;
  EXPECT_THROW(sc::validate_rtl(c), sw::ConfigError);
}

// The module array's own size check holds with the model bus controllers (memory=cosim), and
// bus=cosim takes im=cosim but not im=rtl (the model performs the access).
TEST(Validation, TheModuleArraysSizeAndTheCosimControllersIndexManipulatorAreChecked) {
  sw::SystemConfig c = config_of(Arch::Omp, 3, sw::Impl::Model, sw::Impl::Model);
  c.impl.memory = sw::Impl::Cosim;
  EXPECT_EQ(verdict(c).rfind("n: ", 0), 0u) << verdict(c);
  EXPECT_NE(verdict(c).find("the RTL module array"), std::string::npos) << verdict(c);
  c.n = 4;
  EXPECT_EQ(verdict(c), "accepted");
  sw::SystemConfig cosim = config_of(Arch::Omp, 4, sw::Impl::Cosim, sw::Impl::Cosim);
  EXPECT_EQ(verdict(cosim), "accepted");
  cosim.impl.index_manipulator = sw::Impl::Rtl;
  EXPECT_NE(verdict(cosim).find("'im=rtl' with 'bus=cosim'"), std::string::npos) << verdict(cosim);
}

// The RTL bus controller's registers (docs/rtl.md, "Parameterisations": L = 256 words per data
// buffer, S = 512 index sets, 4096-word modules, 16-bit timing registers, so at most
// 2^16 - 1 = 65535 cycles) take their last value and refuse the one after it, naming the
// parameter (an index memory too small is the program's, so {impl}'s).
TEST(Validation, EveryRegisterOfTheRtlControllerTakesItsLastValue) {
  const sw::SystemConfig base = config_of(Arch::Omp, 4, sw::Impl::Rtl, sw::Impl::Rtl);
  constexpr std::uint64_t kTimingLast = (std::uint64_t{1} << 16) - 1;
  const std::vector<
      std::tuple<std::string, std::uint64_t, std::function<void(sw::SystemConfig&, std::uint64_t)>>>
      registers = {
          {"buffer-words", 256,
           [](sw::SystemConfig& c, std::uint64_t v) {
             c.buffer_words = static_cast<std::uint32_t>(v);
           }},
          {"impl", 512,
           [](sw::SystemConfig& c, std::uint64_t v) {
             c.index_sets = static_cast<std::uint32_t>(v);
           }},
          {"module-words", 4096,
           [](sw::SystemConfig& c, std::uint64_t v) {
             c.module_words = static_cast<std::uint32_t>(v);
           }},
          {"alpha", kTimingLast, [](sw::SystemConfig& c, std::uint64_t v) { c.timing.alpha = v; }},
          {"beta", kTimingLast, [](sw::SystemConfig& c, std::uint64_t v) { c.timing.beta = v; }},
          {"tau", kTimingLast, [](sw::SystemConfig& c, std::uint64_t v) { c.timing.tau = v; }},
          {"gamma", kTimingLast, [](sw::SystemConfig& c, std::uint64_t v) { c.timing.gamma = v; }}};
  for (const auto& [parameter, last, set] : registers) {
    sw::SystemConfig c = base;
    set(c, last);
    EXPECT_EQ(verdict(c), "accepted") << parameter << " = " << last;
    set(c, last + 1);
    EXPECT_EQ(verdict(c).rfind(parameter + ": ", 0), 0u) << verdict(c);
  }
}

}  // namespace
}  // namespace orthosim
