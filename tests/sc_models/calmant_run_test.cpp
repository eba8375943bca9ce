// [CALMANT]'s pipelined CC-cube run on the emulated one-port wormhole mesh, stepped without the
// SystemC kernel as Multicomputer's network process does (the lockstep of `run --lockstep`: every
// step ends with a barrier of no cost). Oracles: the schedule's steps P (section 4.3), no channel
// carries two messages of one step (the routers' own count), and the time written out here: per
// step the compute plus t_s + (h + 1) delay + L + 1 of its longest route (docs/networks.md), per
// barrier its cycles.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <tuple>
#include <vector>

#include "sc_models/net/fabric.hpp"
#include "sc_models/net/node_program_runner.hpp"
#include "sw/calmant/calmant.hpp"
#include "sw/schedule/schedule_program.hpp"
#include "tests/support/runner_client.hpp"

namespace orthosim {
namespace {

using sw::Cycle;

using testing_support::RunnerClient;

struct RunResult {
  std::vector<Cycle> step_ends;
  std::vector<std::uint64_t> step_contention;
  bool finished = false;
  bool delivered = false;
};

RunResult run(const sw::RoutedProgram& program, const sw::NetworkConfig& config) {
  RunnerClient client;
  sc::net::Fabric fabric(config.validated(), client);
  std::vector<std::uint32_t> step_of;
  for (const sw::Message& m : program.manifest.messages) {
    step_of.push_back(m.payload.tag);
  }
  fabric.channels().group_by_step(step_of);
  traces::Recorder recorder;
  sc::net::NodeProgramRunner runner(program, Cycle{0}, fabric, recorder,
                                    std::vector<traces::SourceId>(program.network_nodes, 0));
  client.attach(runner);
  testing_support::step_until_idle(runner, fabric, Cycle{0}, 10'000'000);
  RunResult r;
  r.step_ends = runner.step_ends();
  r.step_contention = fabric.channels().max_contention_per_step();
  r.finished = runner.unfinished().empty();
  r.delivered = runner.check_delivery(true).ok();
  return r;
}

sw::NetworkConfig mesh_config(const sw::Topology& mesh, std::uint64_t startup,
                              std::uint32_t delay) {
  sw::NetworkConfig config;
  config.topology = mesh;
  config.router.vcs = sw::default_vcs(mesh);
  config.ni.ports = sw::NodePorts::One;
  config.ni.startup = startup;
  config.router.delay = delay;
  return config;
}

// Several cubes, meshes, degrees (shallow and deep), start-ups and router delays.
TEST(CalmantOnTheMesh, EveryStepHasContentionOneThereArePStepsAndTheTimeIsTheFormula) {
  for (const auto& [d, c, q, startup, delay] : std::vector<
           std::tuple<std::uint32_t, std::uint32_t, std::uint32_t, std::uint64_t, std::uint32_t>>{
           {4, 1, 2, 7, 1},
           {4, 2, 2, 20, 1},
           {6, 2, 3, 10, 2},
           {6, 2, 8, 5, 1},
           {6, 3, 4, 30, 1},
           {4, 2, 6, 0, 3}}) {
    const sw::calmant::CubeOnMesh cube(d, c);
    const sw::Topology mesh = cube.mesh();
    sw::calmant::PipelineProgram p;
    p.q = q;
    p.n_words = 2 * q;  // L = 2 words per message
    p.compute_cycles = 11;
    p.barrier_cycles = 4;
    const sw::calmant::PipelineSchedule ps = sw::calmant::pipeline_schedule(cube, p);
    sw::RoutedProgram program =
        sw::route_program(sw::to_program(ps.schedule, {2, Cycle{0}}), cube.nodes(),
                          sw::identity_embedding(cube.nodes()));
    program.lockstep = true;
    const RunResult r = run(program, mesh_config(mesh, startup, delay));
    ASSERT_TRUE(r.finished);
    EXPECT_TRUE(r.delivered);

    // Steps: per iteration P<i,M>_c communication steps and one barrier step.
    std::uint64_t p_total = 0;
    for (const sw::calmant::Iteration& it : ps.iterations) {
      p_total += sw::calmant::task_schedule(cube, it.task).steps();
    }
    ASSERT_EQ(r.step_ends.size(), p_total + ps.iterations.size());

    std::uint64_t expected = 0;
    std::size_t k = 0;
    std::uint64_t contention_steps = 0;
    for (const sw::ScheduleStep& step : ps.schedule.steps) {
      std::uint64_t cycles = step.local.empty() ? 0 : step.local.front().compute.count();
      if (!step.messages.empty()) {
        std::uint32_t longest = 0;
        for (const sw::ScheduledMessage& m : step.messages) {
          const auto a = mesh.coordinates(m.source);
          const auto b = mesh.coordinates(m.destination);
          std::uint32_t h = 0;
          for (std::size_t j = 0; j < a.size(); ++j) {
            h += a[j] > b[j] ? a[j] - b[j] : b[j] - a[j];
          }
          longest = std::max(longest, h);
        }
        cycles += startup + (longest + 1) * delay + 2 + 1;
        EXPECT_EQ(r.step_contention.at(k), 1u) << "step " << k;
        ++contention_steps;
      }
      expected += cycles;
      EXPECT_EQ(r.step_ends.at(k), Cycle{expected})
          << "d=" << d << " c=" << c << " Q=" << q << " step " << k;
      ++k;
    }
    EXPECT_EQ(contention_steps, p_total);
    EXPECT_EQ(sw::lockstep_cycles(mesh, ps.schedule, {2, Cycle{0}}, {startup, delay}),
              Cycle{expected});
  }
}

// [CALMANT] section 5's complete exchange by CALMANT (every Q; Q = 1 the original CC-cube):
// messages of 2^(d-1)/Q blocks of B words. The emulated lockstep time is lockstep_cycles, the
// time `calmant --complete-exchange` reports without running, and equals the per-step formula
// written here; every step's contention is 1 and every word arrives.
TEST(CalmantOnTheMesh, TheCompleteExchangesEmulatedTimeIsItsLockstepTimeForEveryQ) {
  for (const auto& [d, c, block, startup, delay] : std::vector<
           std::tuple<std::uint32_t, std::uint32_t, std::uint32_t, std::uint64_t, std::uint32_t>>{
           {4, 2, 3, 10, 1}, {4, 1, 1, 100, 1}, {6, 2, 2, 20, 2}, {6, 3, 1, 7, 1}}) {
    const sw::calmant::CubeOnMesh cube(d, c);
    const sw::Topology mesh = cube.mesh();
    for (std::uint32_t q = 1; q <= (1u << (d - 1)); q *= 2) {
      const sw::Schedule s = sw::calmant::calmant_complete_exchange(cube, q);
      sw::RoutedProgram program =
          sw::route_program(sw::to_program(s, {block, Cycle{0}}), cube.nodes(),
                            sw::identity_embedding(cube.nodes()));
      program.lockstep = true;
      const RunResult r = run(program, mesh_config(mesh, startup, delay));
      ASSERT_TRUE(r.finished);
      EXPECT_TRUE(r.delivered);
      ASSERT_EQ(r.step_ends.size(), s.steps.size());
      const std::uint64_t words = std::uint64_t{block} * ((1u << (d - 1)) / q);
      std::uint64_t expected = 0;
      for (std::size_t k = 0; k < s.steps.size(); ++k) {
        std::uint32_t longest = 0;
        for (const sw::ScheduledMessage& m : s.steps[k].messages) {
          longest = std::max(longest, mesh.hops(m.source, m.destination));
        }
        expected += startup + (longest + 1) * delay + words + 1;
        EXPECT_EQ(r.step_contention.at(k), 1u) << "d=" << d << " Q=" << q << " step " << k;
      }
      EXPECT_EQ(r.step_ends.back(), Cycle{expected}) << "d=" << d << " c=" << c << " Q=" << q;
      EXPECT_EQ(sw::lockstep_cycles(mesh, s, {block, Cycle{0}}, {startup, delay}), Cycle{expected});
    }
  }
}

// The naive program sends an iteration's messages at once: channels carry several of them.
TEST(CalmantOnTheMesh, TheNaiveProgramContendsForChannels) {
  const sw::calmant::CubeOnMesh cube(6, 2);
  sw::calmant::PipelineProgram p;
  p.q = 4;
  p.n_words = 16;
  p.scheduling = sw::calmant::Scheduling::Naive;
  const sw::calmant::PipelineSchedule ps = sw::calmant::pipeline_schedule(cube, p);
  sw::RoutedProgram program = sw::route_program(sw::to_program(ps.schedule, {4, Cycle{0}}),
                                                cube.nodes(), sw::identity_embedding(cube.nodes()));
  program.lockstep = true;
  const RunResult r = run(program, mesh_config(cube.mesh(), 10, 1));
  ASSERT_TRUE(r.finished);
  EXPECT_TRUE(r.delivered);
  ASSERT_EQ(r.step_contention.size(), ps.iterations.size());
  // Each step routes its iteration's whole task: lambda_max<i,M>_c messages over the busiest
  // channel (Theorem 3), up to 4 for the kernel's <2,4>_2.
  for (std::size_t t = 0; t < ps.iterations.size(); ++t) {
    EXPECT_EQ(r.step_contention[t], sw::calmant::lambda_max(2, ps.iterations[t].task)) << t;
  }
  EXPECT_EQ(*std::max_element(r.step_contention.begin(), r.step_contention.end()), 4u);
}

// Lockstep: without it a node with nothing to do in step 0 runs ahead into step 1.
TEST(Lockstep, NoNodeBeginsAStepBeforeEveryNodeEndedThePreviousOne) {
  // Line of 4: step 0: 0 -> 3 (3 hops); step 1: 1 -> 2. Node 1 has nothing in step 0.
  sw::McProgram mc;
  mc.name = "lockstep";
  mc.nodes = 4;
  mc.steps.resize(2);
  mc.steps[0].transfers.push_back(sw::Transfer{0, {3}, false, 5, {}});
  mc.steps[1].transfers.push_back(sw::Transfer{1, {2}, false, 5, {}});
  const sw::NetworkConfig config = mesh_config(sw::Topology::mesh({4}), 3, 2);
  const std::uint64_t first = 3 + (3 + 1) * 2 + 6;
  const std::uint64_t second = 3 + (1 + 1) * 2 + 6;

  sw::RoutedProgram free = sw::route_program(mc, 4, sw::identity_embedding(4));
  const RunResult ahead = run(free, config);
  ASSERT_TRUE(ahead.finished);
  // 1 -> 2 left at cycle 0 beside 0 -> 3 (and met it on the link 1 -> 2): step 1 ended before
  // the two steps one after the other would.
  EXPECT_LT(ahead.step_ends.at(1), Cycle{first + second});

  free.lockstep = true;
  const RunResult lockstep = run(free, config);
  ASSERT_TRUE(lockstep.finished);
  EXPECT_EQ(lockstep.step_ends.at(0), Cycle{first});
  EXPECT_EQ(lockstep.step_ends.at(1), Cycle{first + second});
  EXPECT_TRUE(lockstep.delivered);
  // Each step's one message: contention 1 in both.
  EXPECT_EQ(lockstep.step_contention, (std::vector<std::uint64_t>{1, 1}));
}

}  // namespace
}  // namespace orthosim
