// Cycle-exact contract: the emulated access protocols take exactly the cycles of [PH91]
// section 3.1 (Fig. 5, Eq. 1, plus the bus switch gamma) on the omp, the crossbar and the bus,
// for n in {2,4,8,16,32}, every d in 1..n, l in {1,2,7,64}, and several parameter sets. Every
// run also checks every payload word. The expected cycles are written here from the paper, not
// taken from sw/cost.
#include <gtest/gtest.h>

#include <random>
#include <tuple>

#include "sc_models/multiprocessor/multiprocessor.hpp"
#include "sw/workload/access_workload.hpp"

namespace orthosim {
namespace {

using sw::Arch;
using sw::BusTiming;
using sw::WorkloadKind;

// Fig. 5(a), (b), (c): scalar alpha + tau; interleaved alpha + d tau; block-interleaved
// alpha + beta(l-1) + d tau l.
std::uint64_t paper_access(const BusTiming& t, WorkloadKind kind, std::uint64_t d,
                           std::uint64_t l) {
  switch (kind) {
    case WorkloadKind::Scalar:
      return t.alpha + t.tau;
    case WorkloadKind::Interleaved:
      return t.alpha + d * t.tau;
    default:
      return t.alpha + t.beta * (l - 1) + d * t.tau * l;
  }
}

// The workloads of sw/workload/access_workload.hpp. Round trips: every processor writes then
// reads back on its own bus (omp, crossbar: in parallel) or on the shared bus (all 2n accesses in
// a row). IWR: omp, one IWR step = 2T + gamma; crossbar, parallel vector writes, gamma, then d
// single-module reads; bus, all of it serialized.
std::uint64_t expected_cycles(Arch arch, const BusTiming& t, WorkloadKind kind, std::uint64_t n,
                              std::uint64_t d, std::uint64_t l) {
  const std::uint64_t one = paper_access(t, kind, d, l);
  if (kind != WorkloadKind::Iwr) {
    return arch == Arch::Bus ? 2 * n * one : 2 * one;
  }
  const std::uint64_t single_read = t.alpha + t.beta * (l - 1) + t.tau * l;
  switch (arch) {
    case Arch::Omp:
      return 2 * one + t.gamma;
    case Arch::Crossbar:
      return one + t.gamma + d * single_read;
    case Arch::Bus:
      return n * one + t.gamma + n * d * single_read;
  }
  return 0;
}

std::vector<BusTiming> parameter_sets() {
  std::vector<BusTiming> sets = {BusTiming{}, BusTiming{16, 2, 1, 0}};
  std::mt19937 rng(20261122);  // fixed seed: the same sets every run
  std::uniform_int_distribution<std::uint64_t> alpha(0, 40), beta(0, 8), tau(1, 4), gamma(0, 20);
  for (int i = 0; i < 2; ++i) {
    sets.push_back(BusTiming{alpha(rng), beta(rng), tau(rng), gamma(rng)});
  }
  return sets;
}

class ProtocolTiming : public testing::TestWithParam<std::tuple<Arch, std::uint32_t>> {};

TEST_P(ProtocolTiming, EveryKindDegreeAndLengthTakesThePapersCycles) {
  const auto [arch, n] = GetParam();
  traces::Recorder silent;
  std::vector<std::unique_ptr<sc::Multiprocessor>> systems;
  for (const BusTiming& t : parameter_sets()) {
    sw::SystemConfig c;
    c.arch = arch;
    c.n = n;
    c.timing = t;
    systems.push_back(
        std::make_unique<sc::Multiprocessor>(("sys" + std::to_string(systems.size())).c_str(),
                                             c.validated(), silent));
  }
  std::size_t runs = 0;
  for (auto& system : systems) {
    const BusTiming& t = system->config().timing;
    std::vector<sw::AccessWorkload> workloads = {{WorkloadKind::Scalar, 1, 1}};
    for (std::uint32_t d = 1; d <= n; ++d) {
      workloads.push_back({WorkloadKind::Interleaved, d, 1});
      for (std::uint32_t l : {1u, 2u, 7u, 64u}) {
        workloads.push_back({WorkloadKind::Block, d, l});
        workloads.push_back({WorkloadKind::Iwr, d, l});
      }
    }
    for (const sw::AccessWorkload& w : workloads) {
      system->load(sw::make_access_program(system->config(), w));
      sc::run_systems({system.get()}, sw::Cycle{1'000'000'000});
      const sw::RunSummary r = system->result();
      const std::string what = sw::to_string(arch) + " n=" + std::to_string(n) + " " +
                               sw::to_string(w.kind) + " d=" + std::to_string(w.d) +
                               " l=" + std::to_string(w.l) + " alpha=" + std::to_string(t.alpha) +
                               " beta=" + std::to_string(t.beta) + " tau=" + std::to_string(t.tau) +
                               " gamma=" + std::to_string(t.gamma);
      ASSERT_TRUE(r.completed) << what;
      ASSERT_EQ(r.cycles.count(), expected_cycles(arch, t, w.kind, n, w.d, w.l)) << what;
      ASSERT_TRUE(r.delivery.ok())
          << what << ": " << (r.delivery.failures.empty() ? "" : r.delivery.failures[0]);
      ASSERT_EQ(r.delivery.words_checked, std::uint64_t{n} * w.d * w.l) << what;
      ++runs;
    }
  }
  EXPECT_EQ(runs, systems.size() * (1 + 9 * std::size_t{n}));
}

std::string name_of(const testing::TestParamInfo<ProtocolTiming::ParamType>& info) {
  return sw::to_string(std::get<0>(info.param)) + "_n" + std::to_string(std::get<1>(info.param));
}

INSTANTIATE_TEST_SUITE_P(AllConfigurations, ProtocolTiming,
                         testing::Combine(testing::Values(Arch::Omp, Arch::Crossbar, Arch::Bus),
                                          testing::Values(2u, 4u, 8u, 16u, 32u)),
                         name_of);

// Back-to-back repetitions keep every bus exactly as busy as one run does.
TEST(Repetitions, BackToBackWorkloadsTakeTheirCountTimesOne) {
  traces::Recorder silent;
  std::vector<std::unique_ptr<sc::Multiprocessor>> systems;
  for (Arch arch : {Arch::Omp, Arch::Crossbar, Arch::Bus}) {
    sw::SystemConfig c;
    c.arch = arch;
    c.n = 5;
    systems.push_back(
        std::make_unique<sc::Multiprocessor>(sw::to_string(arch).c_str(), c.validated(), silent));
  }
  for (auto& system : systems) {
    const sw::SystemConfig& c = system->config();
    for (WorkloadKind kind : {WorkloadKind::Scalar, WorkloadKind::Interleaved, WorkloadKind::Block,
                              WorkloadKind::Iwr}) {
      const std::uint32_t d = kind == WorkloadKind::Scalar ? 1 : 3;
      const std::uint32_t l = kind == WorkloadKind::Block || kind == WorkloadKind::Iwr ? 6 : 1;
      system->load(sw::make_access_program(c, {kind, d, l, 4}));
      sc::run_systems({system.get()}, sw::Cycle{1'000'000'000});
      const sw::RunSummary r = system->result();
      EXPECT_TRUE(r.completed && r.delivery.ok());
      EXPECT_EQ(r.cycles.count(), 4 * expected_cycles(c.arch, c.timing, kind, c.n, d, l))
          << sw::to_string(c.arch) << " " << sw::to_string(kind);
    }
  }
}

// Eq. (1) of [PH91] in its second form: with beta = delta tau and t = alpha - beta,
// T(d,l) = 2(t + (d + delta) tau l). With gamma = 0 the omp's IWR step must take exactly that.
TEST(Equation1, OmpIwrStepWithoutBusSwitchIsTwiceTheBlockAccess) {
  traces::Recorder silent;
  sw::SystemConfig c;
  c.n = 8;
  c.timing = BusTiming{20, 3, 3, 0};  // beta = delta tau with delta = 1
  sc::Multiprocessor system("omp", c.validated(), silent);
  for (std::uint32_t d = 1; d <= c.n; ++d) {
    for (std::uint32_t l : {1u, 3u, 16u}) {
      system.load(sw::make_access_program(c, {WorkloadKind::Iwr, d, l}));
      sc::run_systems({&system}, sw::Cycle{1'000'000});
      const std::int64_t t = 20 - 3, delta = 1, tau = 3;
      const std::int64_t eq1 = 2 * (t + (d + delta) * tau * l);
      EXPECT_EQ(static_cast<std::int64_t>(system.result().cycles.count()), eq1)
          << "d=" << d << " l=" << l;
    }
  }
}

}  // namespace
}  // namespace orthosim
