// The whole multiprocessor verilated as one unit (processor = rtl | cosim: sc::RtlMachine over
// rtl::MultiprocessorRtl, docs/rtl.md "The whole machine in the systems"). The omp, the crossbar
// and the bus run [PH91] Fig. 2's sample program, mapped random programs and the access
// workloads twice, side by side in one simulation: with the models, and with the verilated
// machine in their place. Cycles, per-processor ends, step ends, delivered data, conflicts, wait
// cycles and statistics must be equal. In cosim the models and the machine run in lockstep over
// more than 10^5 cycles per configuration without a difference, and a fault put into the model's
// side of each new block (processor, sync unit, arbiter) or into a model bus controller is caught
// at the cycle and signal Fig. 5's costs give.
//
// Each TEST elaborates its own systems (one elaboration per process, toolchain fact 2). One seed
// per test is varied: ORTHOSIM_TEST_SEED if set, else the time, printed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "rtl/bridge/multiprocessor_rtl.hpp"
#include "rtl/limits.hpp"
#include "sc_models/cosim/cosim_wiring.hpp"
#include "sc_models/multiprocessor/multiprocessor.hpp"
#include "sw/core/diagnostic.hpp"
#include "sw/mapping/mapping.hpp"
#include "sw/pattern/generate.hpp"
#include "sw/program/parser.hpp"
#include "sw/workload/access_workload.hpp"
#include "tests/support/differences.hpp"
#include "tests/support/varied_seed.hpp"

namespace orthosim {
namespace {

using testing_support::Differences;
using testing_support::varied_seed;

using sw::Arch;

/// A system built by the co-simulation layer as its configuration says, with a test fault on
/// the model's side of the whole machine.
class Wired : public sc::Multiprocessor {
 public:
  Wired(const char* name, const sw::SystemConfig& c, traces::Recorder& recorder,
        const sc::MachineFault& fault = {})
      : Wired(name, c, recorder, faulted(fault)) {}

 private:
  static sc::CosimWiring* faulted(const sc::MachineFault& fault) {
    auto* wiring = new sc::CosimWiring;
    wiring->inject_machine_fault(fault);
    return wiring;
  }
  Wired(const char* name, const sw::SystemConfig& c, traces::Recorder& recorder,
        sc::CosimWiring* wiring)
      : sc::Multiprocessor(name, c.validated(), recorder,
                           std::unique_ptr<sc::BlockWiring>(wiring)) {}
};

/// Every block of the system as `impl`: the whole machine (docs/cli.md, Implementations).
sw::SystemConfig whole(Arch arch, std::uint32_t n, sw::Impl impl) {
  sw::SystemConfig c;
  c.arch = arch;
  c.n = n;
  c.impl.processor = impl;
  c.impl.sync = impl;
  c.impl.index_manipulator = impl;
  c.impl.bus_controller = impl;
  (arch == Arch::Omp ? c.impl.memory : c.impl.interconnect) = impl;
  return c;
}

sw::MachineProgram fig2(const sw::SystemConfig& c) {
  std::ifstream in(ORTHOSIM_FIG2_PROGRAM);
  std::stringstream text;
  text << in.rdbuf();
  const sw::McProgram program = sw::parse_program(text.str(), "fig2_sample.mcp");
  return sw::map_program(program, c.arch, c.n).machine;
}

/// Fig. 2, the access workloads of every kind and mapped random programs.
std::vector<std::pair<std::string, sw::MachineProgram>> programs(const sw::SystemConfig& c,
                                                                 std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::pair<std::string, sw::MachineProgram>> out;
  if (c.n == 4) {
    out.emplace_back("Fig. 2", fig2(c));
  }
  for (sw::WorkloadKind kind : {sw::WorkloadKind::Scalar, sw::WorkloadKind::Interleaved,
                                sw::WorkloadKind::Block, sw::WorkloadKind::Iwr}) {
    sw::AccessWorkload w;
    w.kind = kind;
    const std::uint32_t max_d = kind == sw::WorkloadKind::Scalar ? 1 : c.n - 1;
    w.d = 1 + static_cast<std::uint32_t>(rng() % std::max(1u, max_d));
    w.l = kind == sw::WorkloadKind::Block || kind == sw::WorkloadKind::Iwr
              ? 1 + static_cast<std::uint32_t>(rng() % 6)
              : 1;
    w.repetitions = 1 + static_cast<std::uint32_t>(rng() % 3);
    out.emplace_back("access " + sw::to_string(kind), sw::make_access_program(c, w));
  }
  for (int k = 0; k < 2; ++k) {
    const sw::McProgram program =
        sw::generate_random(c.n, 2 + static_cast<std::uint32_t>(rng() % 3), rng());
    out.emplace_back(program.name, sw::map_program(program, c.arch, c.n).machine);
  }
  return out;
}

bool is_activations(const std::string& name) {
  return name.size() >= 12 && name.compare(name.size() - 12, 12, ".activations") == 0;
}

/// Every difference of the RTL's run from the model's; none when the model's run is not a
/// reference (it did not complete, or failed its delivery check) or cosim found a mismatch,
/// which are differences themselves.
Differences compare_runs(const sw::RunSummary& model, const sw::RunSummary& rtl,
                         const std::string& what) {
  Differences d(what);
  d.require(model.completed, "the model's run did not complete");
  d.require(model.delivery.ok(), "the model's run failed its delivery check");
  d.require(!rtl.mismatch.has_value(),
            "cosim mismatch: " + (rtl.mismatch ? rtl.mismatch->to_string() : std::string()));
  if (d.any()) {
    return d;
  }
  d.equal("completed", model.completed, rtl.completed);
  d.equal("cycles", model.cycles, rtl.cycles);
  d.equal("processor_end", model.processor_end, rtl.processor_end);
  d.equal("step_ends", model.step_ends, rtl.step_ends);
  d.require(rtl.delivery.ok(),
            "delivery: " +
                (rtl.delivery.failures.empty() ? std::string() : rtl.delivery.failures[0]));
  d.equal("messages_checked", model.delivery.messages_checked, rtl.delivery.messages_checked);
  d.equal("conflicts", model.conflicts, rtl.conflicts);
  d.equal("conflict_wait_cycles", model.conflict_wait_cycles, rtl.conflict_wait_cycles);
  d.equal("bus_words_moved", model.bus_words_moved, rtl.bus_words_moved);
  if (rtl.stats.size() != model.stats.size()) {
    d.equal("statistics", model.stats.size(), rtl.stats.size());
    return d;
  }
  for (std::size_t i = 0; i < model.stats.size(); ++i) {
    const std::string name = model.stats[i].name.substr(model.stats[i].name.find('.') + 1);
    // Kernel activations are a cost of the simulation, not of the machine.
    if (!is_activations(name)) {
      d.equal(name, model.stats[i].value, rtl.stats[i].value);
    }
  }
  return d;
}

/// Runs every program on both systems side by side, their differences into `found`; returns
/// the simulated cycles.
std::uint64_t run_and_compare(sc::Multiprocessor& model, sc::Multiprocessor& rtl,
                              std::uint64_t seed, Differences& found) {
  std::uint64_t cycles = 0;
  for (const auto& [name, program] : programs(model.config(), seed)) {
    model.load(program);
    rtl.load(program);
    sc::run_systems({&model, &rtl}, sw::Cycle{10'000'000});
    found.add(compare_runs(model.result(), rtl.result(),
                           name + " (seed " + std::to_string(seed) + ") on " + rtl.name()));
    cycles += model.result().cycles.count();
  }
  return cycles;
}

class WholeMachine : public testing::TestWithParam<std::tuple<Arch, std::uint32_t, sw::Impl>> {};

/// Other costs than the defaults: tau > 1 (a word on the bus for several cycles), a longer
/// activate-sync and bus switch, a shorter barrier.
sw::SystemConfig other_costs(sw::SystemConfig c) {
  c.timing = {5, 3, 2, 3};
  c.sync = {3, 1};
  return c;
}

/// Barriers that cost nothing: every member passes in the zero-time steps of the last arrival's
/// cycle. (The activate-sync keeps one cycle: with none, a processor woken in zero time by
/// another's activate-sync may ask for modules after the models' arbiter decided that cycle's
/// requests; docs/rtl.md, "A zero-cost interrupt bus". `RtlCli.TheWholeMachinesEventTraceIsTheModels`
/// runs Fig. 2 with `--sync-cycles 0`.)
sw::SystemConfig free_sync(sw::SystemConfig c) {
  c.sync = {1, 0};
  return c;
}

TEST_P(WholeMachine, SameCyclesDataAndStatisticsAsTheModels) {
  const auto [arch, n, impl] = GetParam();
  traces::Recorder silent;
  Wired model("model", whole(arch, n, sw::Impl::Model), silent);
  Wired rtl(sw::to_string(arch).c_str(), whole(arch, n, impl), silent);
  Wired model_costs("model_costs", other_costs(whole(arch, n, sw::Impl::Model)), silent);
  Wired rtl_costs("rtl_costs", other_costs(whole(arch, n, impl)), silent);
  Wired model_free("model_free", free_sync(whole(arch, n, sw::Impl::Model)), silent);
  Wired rtl_free("rtl_free", free_sync(whole(arch, n, impl)), silent);
  const std::uint64_t varied = varied_seed();
  Differences found("the verilated machine against the models");
  std::uint64_t cycles = 0;
  for (std::uint64_t seed : {std::uint64_t{1}, varied}) {
    cycles += run_and_compare(model, rtl, seed, found);
  }
  cycles += run_and_compare(model_costs, rtl_costs, varied + 1, found);
  cycles += run_and_compare(model_free, rtl_free, varied + 2, found);
  EXPECT_TRUE(found.result());
  EXPECT_GT(cycles, 0u);
  std::cout << "simulated cycles: " << cycles << "\n";
}

/// A program on the omp at n = 4 in which P1 runs `p1` and the others nothing.
sw::MachineProgram p1_only(sw::OpList p1) {
  sw::MachineProgram p;
  p.arch = Arch::Omp;
  p.n = 4;
  p.processors.resize(4);
  p.processors[1].ops = std::move(p1);
  return p;
}

// A program that cannot end (P1 waits for a sync P0 never activates) is stopped and reported
// blocked, as the models' watchdog reports it, instead of running to the cycle limit.
TEST(WholeMachine, ADeadlockIsReportedBlocked) {
  traces::Recorder silent;
  Wired model("model", whole(Arch::Omp, 4, sw::Impl::Model), silent);
  Wired rtl("omp", whole(Arch::Omp, 4, sw::Impl::Rtl), silent);
  const sw::MachineProgram p = p1_only({sw::Compute{sw::Cycle{7}}, sw::WaitSync{0}});
  model.load(p);
  rtl.load(p);
  sc::run_systems({&model, &rtl}, sw::Cycle{1'000'000});
  const sw::RunSummary m = model.result();
  const sw::RunSummary r = rtl.result();
  EXPECT_FALSE(m.completed);
  EXPECT_FALSE(r.completed);
  EXPECT_FALSE(r.cycle_limit_reached);
  ASSERT_EQ(r.blocked.size(), 1u);
  EXPECT_EQ(r.blocked[0].rfind("P1 at op 1: ", 0), 0u) << r.blocked[0];
  EXPECT_EQ(r.processor_end[0], sw::Cycle{0});
}

// The watchdog waits out a release delay in which nothing moves: with the other costs free, a
// barrier's release (--barrier-cycles 6) or a bus switch (gamma = 6) passes without movement,
// and it passes. Every processor waits at the barrier, or for its bus switch group, for P0,
// which computes first; all go on 6 cycles after P0 arrives. The run completes in the model's
// cycles.
TEST(WholeMachine, AReleaseDelayIsWaitedOutByTheWatchdog) {
  traces::Recorder silent;
  const sw::ProcSet everyone = sw::ProcSet::all(4);
  const auto costs = [](sw::SystemConfig c, bool barrier) {
    c.timing.gamma = barrier ? 0 : 6;
    c.sync.barrier = barrier ? 6 : 0;
    c.sync.activate = 0;
    return c;
  };
  // Every system is built before the kernel runs (one elaboration).
  std::vector<std::pair<std::unique_ptr<Wired>, std::unique_ptr<Wired>>> systems;
  for (const bool barrier : {true, false}) {
    const std::string tag = barrier ? "_barrier" : "_switch";
    systems.emplace_back(
        std::make_unique<Wired>(("model" + tag).c_str(),
                                costs(whole(Arch::Omp, 4, sw::Impl::Model), barrier), silent),
        std::make_unique<Wired>(("rtl" + tag).c_str(),
                                costs(whole(Arch::Omp, 4, sw::Impl::Rtl), barrier), silent));
  }
  for (const bool barrier : {true, false}) {
    const std::string what = barrier ? "barrier" : "bus switch";
    Wired& model = *systems[barrier ? 0 : 1].first;
    Wired& rtl = *systems[barrier ? 0 : 1].second;
    const sw::Op release =
        barrier ? sw::Op{sw::Barrier{everyone}} : sw::Op{sw::BusSwitch{everyone}};
    sw::MachineProgram p = p1_only({release});
    p.processors[0].ops = sw::OpList({sw::Compute{sw::Cycle{3}}, release});
    p.processors[2].ops = p.processors[1].ops;
    p.processors[3].ops = p.processors[1].ops;
    model.load(p);
    rtl.load(p);
    sc::run_systems({&model, &rtl}, sw::Cycle{1'000'000});
    const sw::RunSummary m = model.result();
    const sw::RunSummary r = rtl.result();
    ASSERT_TRUE(m.completed) << what;
    EXPECT_TRUE(r.completed) << what;
    EXPECT_EQ(r.blocked, m.blocked) << what;
    EXPECT_EQ(r.cycles, m.cycles) << what;
  }
}

// Every run starts its watchdog afresh: a program deadlocked from its first cycle (P1 waits for a
// sync P0 never activates, without an op before) is stopped after as many cycles in a second run
// as in the first, and reported blocked alike.
TEST(WholeMachine, EveryRunStartsItsWatchdogAfresh) {
  traces::Recorder silent;
  Wired rtl("omp", whole(Arch::Omp, 4, sw::Impl::Rtl), silent);
  const sw::MachineProgram p = p1_only({sw::WaitSync{0}});
  std::vector<sw::RunSummary> runs;
  for (int run = 0; run < 2; ++run) {
    rtl.load(p);
    sc::run_systems({&rtl}, sw::Cycle{1'000'000});
    runs.push_back(rtl.result());
  }
  ASSERT_EQ(runs[0].blocked.size(), 1u);
  EXPECT_FALSE(runs[0].cycle_limit_reached);
  EXPECT_EQ(runs[1].cycles, runs[0].cycles);
  EXPECT_EQ(runs[1].blocked, runs[0].blocked);
}

// A run stopped at the cycle limit is not blocked: its processors still had work. It is reported
// as the models report it, by the one line saying the run reached the limit (the watchdog's
// "no progress" is for a run in which nothing can move).
TEST(WholeMachine, ARunStoppedAtTheCycleLimitIsReportedAsTheModelsIs) {
  traces::Recorder silent;
  Wired model("model", whole(Arch::Omp, 4, sw::Impl::Model), silent);
  Wired rtl("omp", whole(Arch::Omp, 4, sw::Impl::Rtl), silent);
  const sw::MachineProgram p = p1_only({sw::Compute{sw::Cycle{1'000}}});
  model.load(p);
  rtl.load(p);
  sc::run_systems({&model, &rtl}, sw::Cycle{100});
  const sw::RunSummary m = model.result();
  const sw::RunSummary r = rtl.result();
  ASSERT_TRUE(m.cycle_limit_reached);
  ASSERT_EQ(m.blocked.size(), 1u);
  EXPECT_EQ(m.blocked[0].rfind("cycle limit reached: ", 0), 0u) << m.blocked[0];
  EXPECT_TRUE(r.cycle_limit_reached);
  EXPECT_FALSE(r.completed);
  EXPECT_EQ(r.cycles, m.cycles);
  EXPECT_EQ(r.blocked, m.blocked);
}

// The verilated machine's cost registers are rtl::limits::kTimingBits (TW) wide: each cost (alpha,
// beta, tau, gamma, the activate-sync's and the barrier's) up to 2^TW - 1 cycles is accepted, and
// one cycle more is refused naming its parameter, before anything runs.
TEST(WholeMachine, CostsUpToTheirRegistersWidthAreAcceptedAndOneCycleMoreRefused) {
  const std::uint64_t widest = (std::uint64_t{1} << rtl::limits::kTimingBits) - 1;
  using Set = void (*)(sw::SystemConfig&, std::uint64_t);
  const std::pair<const char*, Set> costs[] = {
      {"alpha", [](sw::SystemConfig& c, std::uint64_t v) { c.timing.alpha = v; }},
      {"beta", [](sw::SystemConfig& c, std::uint64_t v) { c.timing.beta = v; }},
      {"tau", [](sw::SystemConfig& c, std::uint64_t v) { c.timing.tau = v; }},
      {"gamma", [](sw::SystemConfig& c, std::uint64_t v) { c.timing.gamma = v; }},
      {"sync-cycles", [](sw::SystemConfig& c, std::uint64_t v) { c.sync.activate = v; }},
      {"barrier-cycles", [](sw::SystemConfig& c, std::uint64_t v) { c.sync.barrier = v; }}};
  traces::Recorder silent;
  const sw::MachineProgram p = p1_only({sw::Compute{sw::Cycle{1}}});
  sw::SystemConfig widest_costs = whole(Arch::Omp, 4, sw::Impl::Rtl);
  for (const auto& [name, set] : costs) {
    set(widest_costs, widest);
  }
  const Wired accepted("widest", widest_costs, silent);
  EXPECT_NO_THROW(accepted.check(p));
  std::vector<std::unique_ptr<Wired>> refused;
  for (const auto& [name, set] : costs) {
    sw::SystemConfig c = whole(Arch::Omp, 4, sw::Impl::Rtl);
    set(c, widest + 1);
    refused.push_back(std::make_unique<Wired>((std::string("wide_") + name).c_str(), c, silent));
    try {
      refused.back()->check(p);
      ADD_FAILURE() << name << " = " << widest + 1 << " accepted";
    } catch (const sw::ParameterError& e) {
      EXPECT_EQ(e.parameter(), name) << e.what();
    }
  }
}

std::string case_name(const testing::TestParamInfo<std::tuple<Arch, std::uint32_t, sw::Impl>>& p) {
  return sw::to_string(std::get<0>(p.param)) + "_n" + std::to_string(std::get<1>(p.param)) + "_" +
         sw::to_string(std::get<2>(p.param));
}

// The verilated models: every organisation at n = 4, the omp at 16 too (rtl/limits.cmake).
INSTANTIATE_TEST_SUITE_P(AllConfigurations, WholeMachine,
                         testing::Combine(testing::Values(Arch::Omp, Arch::Crossbar, Arch::Bus),
                                          testing::Values(4u),
                                          testing::Values(sw::Impl::Rtl, sw::Impl::Cosim)),
                         case_name);
INSTANTIATE_TEST_SUITE_P(Omp16, WholeMachine,
                         testing::Combine(testing::Values(Arch::Omp), testing::Values(16u),
                                          testing::Values(sw::Impl::Rtl, sw::Impl::Cosim)),
                         case_name);

/// Fig. 2 after a long compute on every processor: the lockstep comparison over more than 10^5
/// cycles, cheaply (the compute is one op).
TEST(WholeMachineCosim, AgreesOverMoreThanAHundredThousandCycles) {
  traces::Recorder silent;
  std::vector<std::unique_ptr<Wired>> systems;
  for (Arch arch : {Arch::Omp, Arch::Crossbar, Arch::Bus}) {
    systems.push_back(std::make_unique<Wired>(sw::to_string(arch).c_str(),
                                              whole(arch, 4, sw::Impl::Cosim), silent));
  }
  std::vector<sc::Multiprocessor*> side_by_side;
  for (const auto& system : systems) {
    sw::MachineProgram p = fig2(system->config());
    for (sw::ProcessorProgram& processor : p.processors) {
      std::vector<sw::Op> ops = processor.ops.decoded();
      ops.insert(ops.begin(), sw::Compute{sw::Cycle{100'000}});
      processor.ops = sw::OpList(ops);
    }
    system->load(p);
    side_by_side.push_back(system.get());
  }
  sc::run_systems(side_by_side, sw::Cycle{10'000'000});
  for (const auto& system : systems) {
    const sw::RunSummary r = system->result();
    ASSERT_FALSE(r.mismatch.has_value()) << r.mismatch->to_string();
    EXPECT_TRUE(r.completed) << system->name();
    EXPECT_TRUE(r.delivery.ok()) << system->name();
    EXPECT_GT(r.cycles.count(), 100'000u) << system->name();
    std::cout << system->name() << ": " << r.cycles.count() << " cycles in lockstep\n";
  }
}

/// The omp's IWR workload at n = 4 (every P(i) writes l words to d modules over RB(i), switches
/// buses, reads over CB(i)): each half is T = alpha + beta(l - 1) + d tau l cycles ([PH91]
/// Fig. 5(c)), the bus switch gamma, every grant immediate (Eq. (1): 2T + gamma).
sw::MachineProgram iwr_workload(const sw::SystemConfig& c) {
  sw::AccessWorkload w;
  w.kind = sw::WorkloadKind::Iwr;
  w.d = c.n - 1;
  w.l = 4;
  return sw::make_access_program(c, w);
}

std::uint64_t half_cycles(const sw::SystemConfig& c) {
  const sw::BusTiming& t = c.timing;
  return t.alpha + t.beta * (4 - 1) + (c.n - 1) * t.tau * 4;
}

/// The run of the IWR workload with `fault` on the model's side.
sw::RunSummary faulty_summary(Arch arch, const sc::MachineFault& fault,
                              const sc::ModelFault& bus_fault = {}) {
  traces::Recorder silent;
  const sw::SystemConfig c = whole(arch, 4, sw::Impl::Cosim);
  auto* wiring = new sc::CosimWiring;
  wiring->inject_machine_fault(fault);
  if (bus_fault.kind != sc::ModelFault::Kind::None) {
    wiring->inject_fault(1, bus_fault);
  }
  sc::Multiprocessor system(sw::to_string(arch).c_str(), c.validated(), silent,
                            std::unique_ptr<sc::BlockWiring>(wiring));
  system.load(iwr_workload(c));
  sc::run_systems({&system}, sw::Cycle{1'000'000});
  return system.result();
}

/// The first mismatch of the IWR workload with `fault` on the model's side, before its end.
sc::Mismatch faulty_run(Arch arch, const sc::MachineFault& fault,
                        const sc::ModelFault& bus_fault = {}) {
  const sw::RunSummary r = faulty_summary(arch, fault, bus_fault);
  EXPECT_TRUE(r.mismatch.has_value());
  EXPECT_FALSE(r.completed) << "the first mismatch stops the run";
  return r.mismatch.value_or(sc::Mismatch{});
}

TEST(WholeMachineCosim, AProcessorSeenLateIsCaughtWhenItsWriteEnds) {
  const sw::SystemConfig c = whole(Arch::Omp, 4, sw::Impl::Cosim);
  sc::MachineFault fault;
  fault.kind = sc::MachineFault::Kind::LateActivity;
  fault.block = 2;
  fault.at = sw::Cycle{1};  // after the write began: its next change is the bus switch
  const sc::Mismatch m = faulty_run(Arch::Omp, fault);
  EXPECT_EQ(m.cycle, half_cycles(c));
  EXPECT_EQ(m.instance, "omp.p2");
  EXPECT_EQ(m.signal, "activity");
  EXPECT_EQ(m.model, 3u);  // write
  EXPECT_EQ(m.rtl, 4u);    // bus switch
}

// The model's finish seen a cycle late, with its Idle activity on time: only the comparison of
// `finished` sees it, when P2 ends its IWR step, 2 T + gamma after the start (Eq. (1)), the
// cycle in which every processor ends (so the run has completed when it stops).
TEST(WholeMachineCosim, AFinishSeenLateIsCaughtWhenTheProcessorEnds) {
  const sw::SystemConfig c = whole(Arch::Omp, 4, sw::Impl::Cosim);
  sc::MachineFault fault;
  fault.kind = sc::MachineFault::Kind::LateFinish;
  fault.block = 2;
  fault.at = sw::Cycle{0};
  const sw::RunSummary r = faulty_summary(Arch::Omp, fault);
  ASSERT_TRUE(r.mismatch.has_value());
  const sc::Mismatch& m = *r.mismatch;
  EXPECT_EQ(m.cycle, 2 * half_cycles(c) + c.timing.gamma);
  EXPECT_EQ(m.instance, "omp.p2");
  EXPECT_EQ(m.signal, "finished");
  EXPECT_EQ(m.model, 0u);
  EXPECT_EQ(m.rtl, 1u);
}

TEST(WholeMachineCosim, AGrantSeenLateIsCaughtAtTheReadHalf) {
  const sw::SystemConfig c = whole(Arch::Omp, 4, sw::Impl::Cosim);
  sc::MachineFault fault;
  fault.kind = sc::MachineFault::Kind::LateGrant;
  fault.at = sw::Cycle{1};  // after the writes' grants: the reads', after T + gamma
  const sc::Mismatch m = faulty_run(Arch::Omp, fault);
  EXPECT_EQ(m.cycle, half_cycles(c) + c.timing.gamma);
  EXPECT_EQ(m.instance, "omp.arbiter");
  EXPECT_EQ(m.signal, "grant[0]");
  EXPECT_EQ(m.model, 0u);
  EXPECT_EQ(m.rtl, 1u);
}

/// Where a mismatch was caught: cycle, instance, signal and the RTL's value.
using Caught = std::tuple<std::uint64_t, std::string, std::string, std::uint64_t>;

/// The crossbar's and the bus's arbiter (crossbar_array.sv): the first grant, P0's write in
/// cycle 0, seen a cycle late.
Caught late_first_grant(Arch arch) {
  sc::MachineFault fault;
  fault.kind = sc::MachineFault::Kind::LateGrant;
  fault.at = sw::Cycle{0};
  const sc::Mismatch m = faulty_run(arch, fault);
  return {m.cycle, m.instance, m.signal, m.rtl};
}

// Caught in cycle 0 at grant[0], where the RTL grants and the late model does not yet.
TEST(WholeMachineCosim, TheCrossbarsArbiterToo) {
  EXPECT_EQ(late_first_grant(Arch::Crossbar), Caught(0, "crossbar.arbiter", "grant[0]", 1));
}
TEST(WholeMachineCosim, TheBussArbiterToo) {
  EXPECT_EQ(late_first_grant(Arch::Bus), Caught(0, "bus.arbiter", "grant[0]", 1));
}

TEST(WholeMachineCosim, AnInterruptBusFlippedIsCaughtInItsCycle) {
  sc::MachineFault fault;
  fault.kind = sc::MachineFault::Kind::FlipInterrupt;
  fault.at = sw::Cycle{5};  // nobody holds the interrupt bus in the IWR workload
  const sc::Mismatch m = faulty_run(Arch::Omp, fault);
  EXPECT_EQ(m.cycle, 5u);
  EXPECT_EQ(m.instance, "omp.sync");
  EXPECT_EQ(m.signal, "interrupt_busy");
  EXPECT_EQ(m.model, 1u);
  EXPECT_EQ(m.rtl, 0u);
}

TEST(WholeMachineCosim, AFlippedWordOfAModelControllerIsCaughtOnItsBus) {
  const sw::SystemConfig c = whole(Arch::Omp, 4, sw::Impl::Cosim);
  sc::ModelFault fault;
  fault.kind = sc::ModelFault::Kind::FlipBit;
  fault.at = sw::Cycle{c.timing.alpha};  // P1's first word ([PH91] Fig. 5: after alpha)
  fault.bit = 6;
  const sc::Mismatch m = faulty_run(Arch::Omp, {}, fault);
  EXPECT_EQ(m.cycle, c.timing.alpha);
  EXPECT_EQ(m.instance, "omp.bc1");
  EXPECT_EQ(m.signal, "bus_data");
  EXPECT_EQ(m.model ^ m.rtl, 1u << 6);
}

/// P1 writes one word over RB(1) to M(1,2); the other processors have nothing to do.
sw::MachineProgram p1_one_write() {
  sw::MemoryAccess write;
  write.direction = sw::Direction::Write;
  write.bus = {sw::BusKind::Row, 1};
  write.slots = {2};
  write.address = 5;
  sw::MachineProgram p = p1_only({write});
  p.processors[1].index_sets = {sw::IndexSet{0, 1, 2, 3}};
  return p;
}

TEST(WholeMachineCosim, AWordOfAModelControllerAtAnotherAddressIsCaughtOnItsBus) {
  const sw::SystemConfig c = whole(Arch::Omp, 4, sw::Impl::Cosim);
  sc::MachineFault fault;
  fault.kind = sc::MachineFault::Kind::ShiftedAddress;
  fault.block = 1;
  fault.at = sw::Cycle{0};  // P1's first word, after alpha ([PH91] Fig. 5)
  const sc::Mismatch m = faulty_run(Arch::Omp, fault);
  EXPECT_EQ(m.cycle, c.timing.alpha);
  EXPECT_EQ(m.instance, "omp.bc1");
  EXPECT_EQ(m.signal, "bus_addr");
  EXPECT_EQ(m.model, m.rtl + 1);
}

// A processor without a program is finished from the start, in the model as in the RTL: cosim
// compares P0, P2 and P3, which have nothing to do, in every cycle of P1's write, and agrees.
TEST(WholeMachineCosim, ProcessorsWithoutAProgramAreFinishedFromTheStart) {
  traces::Recorder silent;
  const sw::SystemConfig c = whole(Arch::Omp, 4, sw::Impl::Cosim);
  Wired system("omp", c, silent);
  system.load(p1_one_write());
  sc::run_systems({&system}, sw::Cycle{1'000'000});
  const sw::RunSummary r = system.result();
  EXPECT_FALSE(r.mismatch.has_value()) << (r.mismatch ? r.mismatch->to_string() : "");
  EXPECT_TRUE(r.completed);
  // [PH91] Fig. 5(a): one word, granted at 0, ends at alpha + tau.
  EXPECT_EQ(r.cycles.count(), c.timing.alpha + c.timing.tau);
}

// At the end of a cosim run the model's figures are compared with the RTL's: one the model
// counted differently is reported under its block's instance by its own name. P1's one write is
// BC(1)'s one access, on both sides; the summary the machine compares is then given a model count
// of 2.
TEST(WholeMachineCosim, AFigureThatDiffersIsReportedUnderItsBlockByItsName) {
  traces::Recorder silent;
  auto* wiring = new sc::CosimWiring;
  sc::Multiprocessor system("omp", whole(Arch::Omp, 4, sw::Impl::Cosim).validated(), silent,
                            std::unique_ptr<sc::BlockWiring>(wiring));
  system.load(p1_one_write());
  sc::run_systems({&system}, sw::Cycle{1'000'000});
  sw::RunSummary r = system.result();
  ASSERT_FALSE(r.mismatch.has_value()) << r.mismatch->to_string();
  const auto accesses = std::find_if(r.stats.begin(), r.stats.end(), [](const auto& entry) {
    return entry.name == "omp.bc1.accesses";
  });
  ASSERT_NE(accesses, r.stats.end());
  ASSERT_EQ(accesses->value, 1u);
  accesses->value = 2;
  wiring->rtl_machine()->result(r);
  ASSERT_TRUE(r.mismatch.has_value());
  EXPECT_EQ(r.mismatch->instance, "omp.bc1");
  EXPECT_EQ(r.mismatch->signal, "accesses");
  EXPECT_EQ(r.mismatch->model, 2u);
  EXPECT_EQ(r.mismatch->rtl, 1u);
}

/// What a system's processors tell the recorder, as a trace shows it: "cycle source event", the
/// source without the system's name ("omp.p2" -> "p2"); of the activities a processor tells in
/// one cycle the last, which holds from that cycle on (a model processor passes zero-time ops
/// within a cycle).
class ProcessorLog : public traces::Recorder {
 public:
  [[nodiscard]] bool enabled() const override { return true; }
  void activity(traces::Cycle at, traces::SourceId processor, traces::Activity what,
                std::uint32_t op_index) override {
    activities_[{at.count(), local(processor)}] =
        "act " + std::to_string(static_cast<int>(what)) + " op " + std::to_string(op_index);
  }
  void interrupt_granted(traces::Cycle at, traces::SourceId processor,
                         traces::Cycle requested) override {
    grants_.push_back(std::to_string(at.count()) + " " + local(processor) + " intr asked " +
                      std::to_string(requested.count()));
  }
  /// The events in cycle order: the verilated machine tells a cycle's events at the start of the
  /// next, the models as they happen.
  [[nodiscard]] std::vector<std::string> sorted() const {
    std::vector<std::string> lines = grants_;
    for (const auto& [when, what] : activities_) {
      lines.push_back(std::to_string(when.first) + " " + when.second + " " + what);
    }
    std::sort(lines.begin(), lines.end());
    return lines;
  }

 private:
  [[nodiscard]] std::string local(traces::SourceId source) const {
    const std::string& path = sources().at(source).path;
    return path.substr(path.find('.') + 1);
  }
  std::map<std::pair<std::uint64_t, std::string>, std::string> activities_;
  std::vector<std::string> grants_;
};

// With the whole machine verilated the recorder hears what the model processors would tell: P1
// and P2 compute, then come to an activate-sync for P3 in the same cycle; the interrupt bus
// takes one, the other waits for it (each tells its grant and the cycle it asked). P3 waits for
// both. P0 has no program and tells nothing, as a model processor without one.
TEST(WholeMachine, ItsProcessorsTellTheRecorderWhatTheModelsTell) {
  ProcessorLog model_log;
  ProcessorLog rtl_log;
  Wired model("model", whole(Arch::Omp, 4, sw::Impl::Model), model_log);
  Wired rtl("omp", whole(Arch::Omp, 4, sw::Impl::Rtl), rtl_log);
  const sw::OpList activating({sw::Compute{sw::Cycle{3}}, sw::ActivateSync{sw::ProcSet({3})}});
  sw::MachineProgram p = p1_only(activating);
  p.processors[2].ops = activating;
  p.processors[3].ops = sw::OpList({sw::WaitSync{1}, sw::WaitSync{2}});
  model.load(p);
  rtl.load(p);
  sc::run_systems({&model, &rtl}, sw::Cycle{1'000'000});
  ASSERT_TRUE(model.result().completed);
  EXPECT_TRUE(rtl.result().completed);
  const std::vector<std::string> told = model_log.sorted();
  // P1 (the lower index) is granted the bus in cycle 3 and holds it for the activate cost; P2,
  // which asked in cycle 3 too, is granted when that hold ends.
  const std::uint64_t activate = model.config().sync.activate;
  for (const std::string& grant :
       {std::string("3 p1 intr asked 3"), std::to_string(3 + activate) + " p2 intr asked 3"}) {
    EXPECT_NE(std::find(told.begin(), told.end(), grant), told.end()) << grant;
  }
  EXPECT_EQ(rtl_log.sorted(), told);
}

/// The message of the sw::ConfigError building a system of `c` throws ("" if none).
std::string refusal(const sw::SystemConfig& c) {
  try {
    sc::validate_rtl(c);
  } catch (const sw::ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(WholeMachine, OnlyTheWholeMachineIsVerilatedWithItsProcessors) {
  EXPECT_EQ(refusal(whole(Arch::Omp, 4, sw::Impl::Rtl)), "");
  EXPECT_EQ(refusal(whole(Arch::Omp, 16, sw::Impl::Cosim)), "");
  sw::SystemConfig c = whole(Arch::Omp, 4, sw::Impl::Rtl);
  c.impl.index_manipulator = sw::Impl::Model;
  EXPECT_EQ(refusal(c).rfind("expected im=rtl, bus=rtl, sync=rtl and memory=rtl with processor=rtl "
                             "(the processors, ",
                             0),
            0u)
      << refusal(c);
  EXPECT_NE(refusal(c).find("), found 'im=model'"), std::string::npos) << refusal(c);
  c = whole(Arch::Crossbar, 4, sw::Impl::Cosim);
  c.impl.interconnect = sw::Impl::Rtl;
  EXPECT_NE(refusal(c).find("found 'interconnect=rtl'"), std::string::npos) << refusal(c);
  c = whole(Arch::Omp, 4, sw::Impl::Model);
  c.impl.sync = sw::Impl::Rtl;
  EXPECT_EQ(refusal(c).rfind("expected processor=rtl with sync=rtl (", 0), 0u) << refusal(c);
  EXPECT_NE(refusal(c).find("), found 'sync=rtl' with 'processor=model'"), std::string::npos)
      << refusal(c);
  // The crossbar's memory side is its interconnect: memory= (the omp's module array) is refused.
  c = whole(Arch::Crossbar, 4, sw::Impl::Rtl);
  c.impl.memory = sw::Impl::Rtl;
  EXPECT_NE(refusal(c).find("found 'memory=rtl'"), std::string::npos) << refusal(c);
  c = whole(Arch::Omp, 4, sw::Impl::Rtl);
  c.impl.interconnect = sw::Impl::Rtl;
  EXPECT_EQ(refusal(c),
            "expected memory=... for the omp's memory side, its module array (interconnect= is "
            "the crossbar's and the bus's), found 'interconnect=rtl'");
  // An (organisation, n) not verilated: the pairs built and the configure option that adds one
  // (rtl/limits.cmake), or the RTL's n when n is none of them.
  c = whole(Arch::Bus, 8, sw::Impl::Rtl);
  const std::string built = rtl::limits::kMultiprocessorModels;
  std::string option = rtl::limits::kMultiprocessorModels;
  std::replace(option.begin(), option.end(), ' ', ';');
  EXPECT_EQ(refusal(c), "expected " +
                            rtl::MultiprocessorRtl::built_list(rtl::MultiprocessorArch::Bus) +
                            " processors, the sizes of the RTL bus that {impl} asks for (this "
                            "build verilates " +
                            built + "; to add bus:8, configure with -DORTHOSIM_RTL_MP_MODELS=\"" +
                            option + ";bus:8\" and build again), found '8'");
  c = whole(Arch::Crossbar, 3, sw::Impl::Rtl);
  EXPECT_NE(refusal(c).find("(this build verilates " + built + "; the RTL's n are " +
                            rtl::limits::kProcessorList + "), found '3'"),
            std::string::npos)
      << refusal(c);
}

}  // namespace
}  // namespace orthosim
