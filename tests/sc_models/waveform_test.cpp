// Waveforms and activity: the VCD shows each bus beat at the cycle the protocol of [PH91]
// Fig. 5 puts it; tracing never changes timing or statistics (modeling rule 9); GTKWave's vcd2fst
// reads our VCD without a warning; idle blocks are never activated (modeling rule 2).
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sc_models/multiprocessor/multiprocessor.hpp"
#include "sw/machine/payload.hpp"
#include "sw/workload/access_workload.hpp"
#include "tests/support/program_builder.hpp"
#include "tests/support/vcd_reader.hpp"
#include "traces/gtkw.hpp"
#include "traces/vcd_recorder.hpp"

namespace orthosim {
namespace {

using sw::Arch;
using sw::Direction;
using testing_support::access;
using testing_support::ProgramBuilder;
using testing_support::VcdReader;

constexpr sw::Cycle kLimit{100'000'000};

/// Removes a waveform written by a test and the GTKWave save file beside it.
void remove_waveform(const std::string& path) {
  std::remove(path.c_str());
  std::remove(traces::gtkw_path(path).c_str());
}

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          (name + "_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
           std::to_string(static_cast<long>(getpid())) + ".vcd"))
      .string();
}

// P0 writes two words (l = 2) into M(0,1) over RB(0) at address 5; the beats must be at
// alpha and alpha + tau + beta, each one tau long, with the module slot, address and data.
TEST(Waveform, BeatsAppearAtTheProtocolsCycles) {
  const std::string path = temp_path("beats");
  sw::SystemConfig c;
  c.n = 2;
  c.timing = {10, 3, 2, 8};
  c.clock_period_ns = 50;
  sw::MachineProgram program;
  {
    traces::VcdRecorder vcd(path, c.clock_period_ns);
    sc::Multiprocessor system("omp", c.validated(), vcd);
    ProgramBuilder b(Arch::Omp, 2);
    b.proc(0).index_sets = {{0}};
    b.op(0, sw::LoadBuffer{0, 0, 2});
    b.op(0, access(Direction::Write, testing_support::row(0), {1}, 5, 2, 0));
    b.message(0, 0, 2, 0, 100);  // carries the payload; not read back here
    program = b.build();
    system.load(program);
    sc::run_systems({&system}, kLimit);
    vcd.finish(system.clock().now());
  }
  const VcdReader w(path);
  remove_waveform(path);
  EXPECT_FALSE(w.has_date());
  EXPECT_EQ(w.timescale(), "1ns");
  const std::uint64_t ns = 50;
  const std::uint64_t first = 10, second = 10 + 2 + 3, end = 10 + 3 + 2 * 2;
  EXPECT_EQ(w.at("omp.p0.op", 0), 3u);     // Activity::Write
  EXPECT_EQ(w.at("omp.bc0.mode", 0), 1u);  // row
  EXPECT_EQ(w.at("omp.bc0.rw", 0), 1u);
  EXPECT_EQ(w.at("omp.rb0.busy", 0), 1u);
  EXPECT_EQ(w.at("omp.bc0.valid", first * ns - 1), 0u);
  EXPECT_EQ(w.at("omp.bc0.valid", first * ns), 1u);
  EXPECT_EQ(w.at("omp.bc0.sel", first * ns), 1u);
  EXPECT_EQ(w.at("omp.bc0.addr", first * ns), 5u);
  EXPECT_EQ(w.at("omp.bc0.data", first * ns), sw::payload_word(program.messages[0].payload, 0));
  EXPECT_EQ(w.at("omp.bc0.valid", (first + 2) * ns), 0u);  // beta gap
  EXPECT_EQ(w.at("omp.bc0.valid", second * ns), 1u);
  EXPECT_EQ(w.at("omp.bc0.addr", second * ns), 6u);
  EXPECT_EQ(w.at("omp.bc0.data", second * ns), sw::payload_word(program.messages[0].payload, 1));
  EXPECT_EQ(w.at("omp.bc0.valid", end * ns), 0u);
  EXPECT_EQ(w.at("omp.bc0.mode", end * ns), 0u);
  EXPECT_EQ(w.at("omp.rb0.busy", end * ns), 0u);
  EXPECT_EQ(w.at("omp.p0.op", end * ns), 0u);        // finished: idle
  EXPECT_EQ(w.changes("omp.bc1.valid").size(), 1u);  // only its initial value: never active
}

// A read over a column bus shows the column mode and the column's own number: P1 reads M(0,1)
// over CB(1) (the omp's fourth bus of RB(0), RB(1), CB(0), CB(1)); its controller shows bus 1,
// and CB(1), not RB(1), is busy with master 1.
TEST(Waveform, AColumnAccessShowsItsColumnsNumber) {
  const std::string path = temp_path("column");
  sw::SystemConfig c;
  c.n = 2;
  c.timing = {10, 3, 2, 8};
  {
    traces::VcdRecorder vcd(path, c.clock_period_ns);
    sc::Multiprocessor system("omp", c.validated(), vcd);
    ProgramBuilder b(Arch::Omp, 2);
    b.proc(1).index_sets = {{0}};
    b.op(1, access(Direction::Read, testing_support::column(1), {0}, 3, 1, 0));
    system.load(b.build());
    sc::run_systems({&system}, kLimit);
    vcd.finish(system.clock().now());
  }
  const VcdReader w(path);
  remove_waveform(path);
  EXPECT_EQ(w.at("omp.bc1.mode", 0), 2u);  // column
  EXPECT_EQ(w.at("omp.bc1.bus", 0), 1u);
  EXPECT_EQ(w.at("omp.bc1.rw", 0), 0u);
  EXPECT_EQ(w.at("omp.cb1.busy", 0), 1u);
  EXPECT_EQ(w.at("omp.cb1.master", 0), 1u);
  EXPECT_EQ(w.changes("omp.rb1.busy").size(), 1u);  // only its initial value
}

std::vector<std::uint64_t> values(const std::vector<traces::StatEntry>& stats) {
  std::vector<std::uint64_t> v;
  for (const auto& s : stats) {
    v.push_back(s.value);
  }
  return v;
}

// The same programs on identical systems, one traced and one not, side by side in one simulation.
TEST(Waveform, TracingChangesNeitherCyclesNorStatistics) {
  const std::string path = temp_path("invariance");
  traces::Recorder silent;
  auto vcd = std::make_unique<traces::VcdRecorder>(path, 50);
  std::vector<std::unique_ptr<sc::Multiprocessor>> traced, quiet;
  for (Arch arch : {Arch::Omp, Arch::Crossbar, Arch::Bus}) {
    sw::SystemConfig c;
    c.arch = arch;
    c.n = 4;
    const std::string tag = sw::to_string(arch);
    traced.push_back(
        std::make_unique<sc::Multiprocessor>((tag + "_traced").c_str(), c.validated(), *vcd));
    quiet.push_back(
        std::make_unique<sc::Multiprocessor>((tag + "_quiet").c_str(), c.validated(), silent));
  }
  for (sw::WorkloadKind kind : {sw::WorkloadKind::Block, sw::WorkloadKind::Iwr}) {
    std::vector<sc::Multiprocessor*> all;
    for (std::size_t i = 0; i < traced.size(); ++i) {
      const sw::MachineProgram program = sw::make_access_program(traced[i]->config(), {kind, 3, 5});
      traced[i]->load(program);
      quiet[i]->load(program);
      all.push_back(traced[i].get());
      all.push_back(quiet[i].get());
    }
    sc::run_systems(all, kLimit);
    for (std::size_t i = 0; i < traced.size(); ++i) {
      const sw::RunSummary a = traced[i]->result();
      const sw::RunSummary b = quiet[i]->result();
      const std::string what = traced[i]->name();
      EXPECT_EQ(a.cycles, b.cycles) << what;
      EXPECT_EQ(values(a.stats), values(b.stats)) << what;
      EXPECT_TRUE(a.delivery.ok() && b.delivery.ok()) << what;
    }
  }
  vcd->finish(traced[0]->clock().now());
  vcd.reset();
  EXPECT_TRUE(std::filesystem::exists(path));
  remove_waveform(path);
}

// GTKWave's converter must read our VCD without complaint. CI installs gtkwave; without it the
// test reports itself skipped.
TEST(Waveform, GtkwaveVcd2fstConvertsWithoutWarnings) {
  if (std::system("command -v vcd2fst >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "vcd2fst (gtkwave) is not installed";
  }
  const std::string path = temp_path("gtkwave");
  const std::string fst = path + ".fst";
  const std::string log = path + ".log";
  {
    sw::SystemConfig c;
    c.n = 4;
    traces::VcdRecorder vcd(path, c.clock_period_ns);
    std::vector<std::unique_ptr<sc::Multiprocessor>> systems;
    std::vector<sc::Multiprocessor*> raw;
    for (Arch arch : {Arch::Omp, Arch::Crossbar, Arch::Bus}) {
      c.arch = arch;
      systems.push_back(
          std::make_unique<sc::Multiprocessor>(sw::to_string(arch).c_str(), c.validated(), vcd));
      systems.back()->load(sw::make_access_program(c, {sw::WorkloadKind::Iwr, 3, 4}));
      raw.push_back(systems.back().get());
    }
    sc::run_systems(raw, kLimit);
    vcd.finish(raw.back()->clock().now());
  }
  const int rc = std::system(("vcd2fst " + path + " " + fst + " >" + log + " 2>&1").c_str());
  std::ifstream in(log);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(rc, 0) << text.str();
  EXPECT_EQ(text.str().find("arning"), std::string::npos) << text.str();
  EXPECT_TRUE(std::filesystem::exists(fst));
  // And back: fst2vcd must see the bus controllers' signals.
  const int back = std::system(("fst2vcd " + fst + " > " + log + " 2>&1").c_str());
  EXPECT_EQ(back, 0);
  std::ifstream vcd_back(log);
  std::stringstream round;
  round << vcd_back.rdbuf();
  EXPECT_NE(round.str().find("valid"), std::string::npos);
  remove_waveform(path);
  for (const std::string& f : {fst, log}) {
    std::remove(f.c_str());
  }
}

std::uint64_t activations(const std::vector<traces::StatEntry>& stats, const std::string& prefix) {
  std::uint64_t total = 0;
  for (const auto& s : stats) {
    if (s.name.rfind(prefix, 0) == 0 && s.name.size() > 12 &&
        s.name.compare(s.name.size() - 12, 12, ".activations") == 0) {
      total += s.value;
    }
  }
  return total;
}

// One active processor in a 4- and in a 64-processor omp: the kernel runs exactly as many
// processes in both, and none of the idle processors, controllers or modules ever runs.
TEST(IdleCost, IdleBlocksAreNeverActivated) {
  traces::Recorder silent;
  auto program_for = [](std::uint32_t n) {
    ProgramBuilder b(Arch::Omp, n);
    b.proc(0).index_sets = {{0, 1, 2}};
    for (int k = 0; k < 50; ++k) {
      b.op(0, sw::Compute{sw::Cycle{1000}});
      b.op(0, access(Direction::Write, testing_support::row(0), {0, 1, 2}, 0, 4, 0));
      b.op(0, access(Direction::Read, testing_support::column(0), {1, 2, 3}, 0, 4, 0));
    }
    return b.build();
  };
  sw::SystemConfig small;
  small.n = 4;
  sw::SystemConfig large = small;
  large.n = 64;
  sc::Multiprocessor a("small", small.validated(), silent);
  sc::Multiprocessor b("large", large.validated(), silent);

  a.load(program_for(4));
  const std::uint64_t deltas_before_a = sc_core::sc_delta_count();
  sc::run_systems({&a}, kLimit);
  const std::uint64_t deltas_a = sc_core::sc_delta_count() - deltas_before_a;
  const sw::RunSummary ra = a.result();

  b.load(program_for(64));
  const std::uint64_t deltas_before_b = sc_core::sc_delta_count();
  sc::run_systems({&b}, kLimit);
  const std::uint64_t deltas_b = sc_core::sc_delta_count() - deltas_before_b;
  const sw::RunSummary rb = b.result();

  ASSERT_TRUE(ra.completed && rb.completed);
  EXPECT_EQ(ra.cycles, rb.cycles);
  EXPECT_EQ(activations(ra.stats, "small."), activations(rb.stats, "large."));
  EXPECT_EQ(deltas_a, deltas_b);
  // Only P0, BC(0) and the arbiter ran: 50 computes + 100 accesses, each a bounded number of
  // activations, whatever the 100,000+ cycles simulated.
  EXPECT_LT(activations(rb.stats, "large."), 10u * 150u);
  EXPECT_GT(rb.cycles.count(), 50'000u);
  for (sw::ProcId p = 1; p < 64; ++p) {
    EXPECT_EQ(activations(rb.stats, "large.p" + std::to_string(p) + "."), 0u) << p;
    EXPECT_EQ(activations(rb.stats, "large.bc" + std::to_string(p) + "."), 0u) << p;
  }
}

}  // namespace
}  // namespace orthosim
