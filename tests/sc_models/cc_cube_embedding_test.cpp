// The CC d-cube program ([XOR] II.A, gen cc-cube) placed by each embedding and run on rings, 2-D
// and 3-D tori, lines and meshes with store-and-forward routers, stepped without the SystemC
// kernel as Multicomputer's network process steps it: with constant distances the cycles of the
// run equal [XOR] IV.A's recurrence T_s(n) = cost(D(n)) + max(T_(s-1)(n), T_(s-1)(N(n))), written out here, where a
// stage costs a process its computation plus a lone message's store-and-forward time over its
// route, t_s + F + (h + 1)(delay + F - 1) (docs/networks.md), and h is the distance computed
// here from the coordinates.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sc_models/net/fabric.hpp"
#include "sc_models/net/node_program_runner.hpp"
#include "sw/embedding/embedding.hpp"
#include "sw/pattern/topology_programs.hpp"
#include "sw/routed/routed_program.hpp"
#include "tests/support/runner_client.hpp"

namespace orthosim {
namespace {

using sw::Cycle;
using sw::EmbeddingScheme;
using sw::Topology;

using testing_support::RunnerClient;

constexpr std::uint32_t kWords = 2;
constexpr std::uint64_t kCompute = 3;
constexpr std::uint64_t kStartup = 1;
constexpr std::uint32_t kDelay = 1;

/// Shortest distance between two network nodes from their coordinates.
std::uint32_t distance(const Topology& t, std::uint32_t a, std::uint32_t b) {
  const std::vector<std::uint32_t> x = t.coordinates(a);
  const std::vector<std::uint32_t> y = t.coordinates(b);
  std::uint32_t h = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const std::uint32_t dx = x[i] > y[i] ? x[i] - y[i] : y[i] - x[i];
    h += t.kind() == sw::TopologyKind::Torus ? std::min(dx, t.radices()[i] - dx) : dx;
  }
  return h;
}

/// [XOR] IV.A with stage s across dimension s.
std::uint64_t predicted_cycles(const Topology& t, const std::vector<std::uint32_t>& place,
                               std::uint32_t d) {
  const std::uint64_t flits = kWords + 1;
  std::vector<std::uint64_t> time(place.size(), 0);
  for (std::uint32_t i = 0; i < d; ++i) {
    std::vector<std::uint64_t> next(place.size());
    for (std::uint32_t n = 0; n < place.size(); ++n) {
      const std::uint32_t m = n ^ (1U << i);
      const std::uint64_t h = distance(t, place[n], place[m]);
      next[n] =
          kCompute + kStartup + flits + (h + 1) * (kDelay + flits - 1) + std::max(time[n], time[m]);
    }
    time = next;
  }
  return *std::max_element(time.begin(), time.end());
}

/// Runs the CC d-cube placed by `place` and returns its cycles.
Cycle emulated_cycles(const Topology& t, const std::vector<std::uint32_t>& place, std::uint32_t d) {
  std::vector<std::uint32_t> dims(d);
  for (std::uint32_t i = 0; i < d; ++i) {
    dims[i] = i;
  }
  sw::NetworkConfig config;
  config.topology = t;
  config.router.vcs = sw::default_vcs(t);
  config.router.switching = sw::Switching::StoreAndForward;
  config.router.buffer_flits = kWords + 1;
  config.router.delay = kDelay;
  config.ni.startup = kStartup;
  const sw::RoutedProgram program =
      sw::route_program(sw::cc_cube(d, dims, kWords, Cycle{kCompute}), t.nodes(), place);
  RunnerClient client;
  sc::net::Fabric fabric(config.validated(), client);
  traces::Recorder recorder;  // disabled
  sc::net::NodeProgramRunner runner(program, Cycle{0}, fabric, recorder,
                                    std::vector<traces::SourceId>(t.nodes(), 0));
  client.attach(runner);
  testing_support::step_until_idle(runner, fabric, Cycle{0}, std::uint64_t{1} << 40);
  EXPECT_TRUE(runner.unfinished().empty()) << t.to_string();
  const sw::DeliveryReport delivery = runner.check_delivery(true);
  EXPECT_EQ(delivery.messages_checked, std::uint64_t{d} * t.nodes()) << t.to_string();
  EXPECT_EQ(delivery.messages_failed, 0U) << t.to_string();
  return runner.cycles();
}

std::uint32_t cube_of(const Topology& t) {
  std::uint32_t d = 0;
  while ((1U << d) < t.nodes()) {
    ++d;
  }
  return d;
}

/// Constant distances (std, std-interleaved, xor): every node starts each stage in the same cycle,
/// the messages of a stage move in lockstep and never meet on a channel, and the run takes exactly
/// the recurrence's cycles. byweight's waiting intervals start the messages of a stage at
/// different cycles, so some wait for a channel another holds: a conflict the recurrence does not
/// model ([XOR] IV.F counts none only for std and xor). Its run takes at least the recurrence.
void expect_recurrence(const Topology& t, const std::vector<EmbeddingScheme>& schemes) {
  const std::uint32_t d = cube_of(t);
  for (EmbeddingScheme s : schemes) {
    const std::vector<std::uint32_t> place = sw::embed_hypercube(d, t, s);
    const std::uint64_t emulated = emulated_cycles(t, place, d).count();
    if (s == EmbeddingScheme::Byweight) {
      EXPECT_GE(emulated, predicted_cycles(t, place, d)) << t.to_string() << ", byweight";
    } else {
      EXPECT_EQ(emulated, predicted_cycles(t, place, d))
          << t.to_string() << ", " << sw::to_string(s);
    }
  }
}

const std::vector<EmbeddingScheme> kAll = {EmbeddingScheme::Std, EmbeddingScheme::StdInterleaved,
                                           EmbeddingScheme::Xor, EmbeddingScheme::Byweight};

TEST(CcCubeOnNetworks, RingsAndLinesRunAsTheRecurrencePredicts) {
  for (std::uint32_t k : {4U, 8U, 16U, 64U}) {
    expect_recurrence(Topology::torus({k}), kAll);
    expect_recurrence(Topology::mesh({k}), kAll);
  }
}

TEST(CcCubeOnNetworks, TwoAndThreeDimensionalToriAndMeshesRunAsTheRecurrencePredicts) {
  for (const std::vector<std::uint32_t>& radices :
       {std::vector<std::uint32_t>{4, 4}, {8, 8}, {4, 16}, {2, 8}, {4, 4, 4}, {2, 4, 8}}) {
    expect_recurrence(Topology::torus(radices), kAll);
    expect_recurrence(Topology::mesh(radices), kAll);
  }
}

TEST(CcCubeOnNetworks, ATenCubeOnA32By32TorusRunsAsTheRecurrencePredicts) {
  expect_recurrence(Topology::torus({32, 32}),
                    {EmbeddingScheme::Std, EmbeddingScheme::Xor, EmbeddingScheme::Byweight});
}

}  // namespace
}  // namespace orthosim
