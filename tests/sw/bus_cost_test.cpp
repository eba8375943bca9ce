// Analytic access costs of [PH91] section 3.1 (Fig. 5, Eq. 1) and the closed forms of the
// `orthosim access` workloads' cycles, checked against the paper's formulas written out here,
// over sweeps of the cost parameters and of n, d, l. The workload closed forms are written per
// configuration from how each configuration serializes its accesses ([PH91] section 3.1, 4.2).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "sw/cost/access_workload_cost.hpp"
#include "sw/cost/bus_cost.hpp"

namespace orthosim {
namespace {

using sw::Arch;
using sw::BusTiming;
using sw::WorkloadKind;

std::vector<BusTiming> timing_sweep() {
  std::vector<BusTiming> out;
  for (std::uint64_t alpha : {0u, 1u, 16u, 40u}) {
    for (std::uint64_t beta : {0u, 2u, 5u}) {
      for (std::uint64_t tau : {1u, 2u, 3u}) {
        for (std::uint64_t gamma : {0u, 8u, 21u}) {
          out.push_back(BusTiming{alpha, beta, tau, gamma});
        }
      }
    }
  }
  return out;
}

// ---- Fig. 5: one access --------------------------------------------------------------------

TEST(BusCost, ScalarIsAlphaPlusTau) {
  for (const BusTiming& t : timing_sweep()) {
    EXPECT_EQ(sw::scalar_access(t).count(), t.alpha + t.tau)
        << "alpha=" << t.alpha << " tau=" << t.tau;
  }
}

TEST(BusCost, InterleavedIsAlphaPlusDTau) {
  for (const BusTiming& t : timing_sweep()) {
    for (std::uint64_t d = 1; d <= 32; ++d) {
      EXPECT_EQ(sw::interleaved_access(t, d).count(), t.alpha + d * t.tau)
          << "alpha=" << t.alpha << " tau=" << t.tau << " d=" << d;
    }
  }
}

TEST(BusCost, BlockIsAlphaPlusBetaLMinusOnePlusDTauL) {
  for (const BusTiming& t : timing_sweep()) {
    for (std::uint64_t d = 1; d <= 16; ++d) {
      for (std::uint64_t l = 1; l <= 20; ++l) {
        EXPECT_EQ(sw::block_access(t, d, l).count(), t.alpha + t.beta * (l - 1) + d * t.tau * l)
            << "alpha=" << t.alpha << " beta=" << t.beta << " tau=" << t.tau << " d=" << d
            << " l=" << l;
      }
    }
  }
}

TEST(BusCost, IwrStepIsTwoBlocksPlusGamma) {
  for (const BusTiming& t : timing_sweep()) {
    for (std::uint64_t d = 1; d <= 16; ++d) {
      for (std::uint64_t l = 1; l <= 20; ++l) {
        const std::uint64_t block = t.alpha + t.beta * (l - 1) + d * t.tau * l;
        EXPECT_EQ(sw::iwr_step(t, d, l).count(), 2 * block + t.gamma)
            << "alpha=" << t.alpha << " beta=" << t.beta << " tau=" << t.tau << " gamma=" << t.gamma
            << " d=" << d << " l=" << l;
      }
    }
  }
}

// A block of one vector is an interleaved access, and an interleaved access of one module is a
// scalar access: the three protocols of Fig. 5 agree where their shapes coincide.
TEST(BusCost, ProtocolsAgreeWhereShapesCoincide) {
  for (const BusTiming& t : timing_sweep()) {
    EXPECT_EQ(sw::interleaved_access(t, 1), sw::scalar_access(t));
    for (std::uint64_t d = 1; d <= 16; ++d) {
      EXPECT_EQ(sw::block_access(t, d, 1), sw::interleaved_access(t, d)) << "d=" << d;
    }
  }
}

// Eq. (1): with beta = delta tau and the fixed cost t = alpha - beta,
// T(d,l) = 2(alpha + beta(l-1) + d tau l) = 2(t + (d + delta) tau l). gamma = 0 makes the IWR step
// exactly T(d,l).
TEST(BusCost, IwrStepWithoutSwitchIsEquationOneSecondForm) {
  for (std::uint64_t tau = 1; tau <= 4; ++tau) {
    for (std::uint64_t delta = 0; delta <= 4; ++delta) {
      for (std::uint64_t alpha : {0u, 3u, 16u, 20u, 50u}) {
        BusTiming timing;
        timing.alpha = alpha;
        timing.tau = tau;
        timing.beta = delta * tau;
        timing.gamma = 0;
        const std::int64_t fixed = static_cast<std::int64_t>(alpha) -
                                   static_cast<std::int64_t>(timing.beta);  // t, may be < 0
        for (std::int64_t d = 1; d <= 12; ++d) {
          for (std::int64_t l = 1; l <= 12; ++l) {
            const std::int64_t second_form = 2 * (fixed + (d + static_cast<std::int64_t>(delta)) *
                                                              static_cast<std::int64_t>(tau) * l);
            const auto measured = static_cast<std::int64_t>(
                sw::iwr_step(timing, static_cast<std::uint64_t>(d), static_cast<std::uint64_t>(l))
                    .count());
            EXPECT_EQ(measured, second_form) << "alpha=" << alpha << " delta=" << delta
                                             << " tau=" << tau << " d=" << d << " l=" << l;
          }
        }
      }
    }
  }
}

// ---- access workloads ---------------------------------------------------------------------

sw::SystemConfig config(Arch arch, std::uint32_t n, const BusTiming& t) {
  sw::SystemConfig c;
  c.arch = arch;
  c.n = n;
  c.timing = t;
  return c;
}

/// T: one access of the workload's kind, from Fig. 5 (a), (b), (c).
std::uint64_t one_access(const BusTiming& t, WorkloadKind kind, std::uint64_t d, std::uint64_t l) {
  switch (kind) {
    case WorkloadKind::Scalar:
      return t.alpha + t.tau;
    case WorkloadKind::Interleaved:
      return t.alpha + d * t.tau;
    case WorkloadKind::Block:
    case WorkloadKind::Iwr:
      return t.alpha + t.beta * (l - 1) + d * t.tau * l;
  }
  return 0;
}

/// The workload cycles, one closed form per configuration (see access_workload_cost.hpp):
/// a round trip is a write and a read per processor, parallel on the omp and the crossbar and
/// serialized on the single bus; an IWR exchange is one IWR step on the omp, and on the crossbar
/// and the bus a vector write, the bus switch, and d single-module reads per receiver.
std::uint64_t expected_cycles(Arch arch, const BusTiming& t, WorkloadKind kind, std::uint64_t n,
                              std::uint64_t d, std::uint64_t l) {
  const std::uint64_t big_t = one_access(t, kind, d, l);
  const std::uint64_t single_read = t.alpha + t.beta * (l - 1) + t.tau * l;  // T(1, l)
  if (kind != WorkloadKind::Iwr) {
    return arch == Arch::Bus ? 2 * n * big_t : 2 * big_t;
  }
  switch (arch) {
    case Arch::Omp:
      return 2 * big_t + t.gamma;
    case Arch::Crossbar:
      return big_t + t.gamma + d * single_read;
    case Arch::Bus:
      return n * big_t + t.gamma + n * d * single_read;
  }
  return 0;
}

struct Shape {
  WorkloadKind kind;
  std::uint32_t d;
  std::uint32_t l;
};

/// Every valid workload shape for n processors with l up to `max_l`.
std::vector<Shape> shapes(std::uint32_t n, std::uint32_t max_l) {
  std::vector<Shape> out{{WorkloadKind::Scalar, 1, 1}};
  for (std::uint32_t d = 1; d <= n; ++d) {
    out.push_back({WorkloadKind::Interleaved, d, 1});
    for (std::uint32_t l = 1; l <= max_l; ++l) {
      out.push_back({WorkloadKind::Block, d, l});
      out.push_back({WorkloadKind::Iwr, d, l});
    }
  }
  return out;
}

TEST(AccessWorkloadCost, MatchesClosedFormPerConfiguration) {
  const std::vector<BusTiming> timings = {BusTiming{}, BusTiming{0, 0, 1, 0},
                                          BusTiming{40, 5, 3, 21}, BusTiming{7, 1, 2, 0}};
  for (const BusTiming& t : timings) {
    for (Arch arch : {Arch::Omp, Arch::Crossbar, Arch::Bus}) {
      for (std::uint32_t n = 1; n <= 8; ++n) {
        for (const Shape& s : shapes(n, 5)) {
          const sw::AccessWorkload w{s.kind, s.d, s.l};
          EXPECT_EQ(sw::access_workload_cycles(config(arch, n, t), w).count(),
                    expected_cycles(arch, t, s.kind, n, s.d, s.l))
              << to_string(arch) << " " << to_string(s.kind) << " n=" << n << " d=" << s.d
              << " l=" << s.l << " alpha=" << t.alpha << " beta=" << t.beta << " tau=" << t.tau
              << " gamma=" << t.gamma;
        }
      }
    }
  }
}

// Repetitions run back to back and keep every bus as busy as the first run did, so the total is
// the repetition count times the closed form of one run.
TEST(AccessWorkloadCost, RepetitionsMultiplyTheClosedForm) {
  const BusTiming t{40, 5, 3, 21};
  for (Arch arch : {Arch::Omp, Arch::Crossbar, Arch::Bus}) {
    for (std::uint32_t n = 1; n <= 5; ++n) {
      for (const Shape& s : shapes(n, 3)) {
        for (std::uint32_t repetitions : {1u, 2u, 3u, 7u}) {
          const sw::AccessWorkload w{s.kind, s.d, s.l, repetitions};
          EXPECT_EQ(sw::access_workload_cycles(config(arch, n, t), w).count(),
                    repetitions * expected_cycles(arch, t, s.kind, n, s.d, s.l))
              << to_string(arch) << " " << to_string(s.kind) << " n=" << n << " d=" << s.d
              << " l=" << s.l << " x" << repetitions;
        }
      }
    }
  }
}

// [PH91] section 6 conjecture: the OMP outperforms the crossbar and the single bus. For an IWR
// exchange with d >= 2 destinations the omp reads d modules in one vector access, the crossbar
// needs d scalar-module accesses (each paying alpha), and the bus serializes all n processors.
TEST(AccessWorkloadCost, IwrOmpBeatsCrossbarBeatsBusForDAtLeastTwo) {
  for (const BusTiming& t : timing_sweep()) {
    if (t.alpha == 0) {
      continue;  // with no start-up cost a vector access saves nothing over d module accesses
    }
    for (std::uint32_t n = 2; n <= 8; ++n) {
      for (std::uint32_t d = 2; d <= n; ++d) {
        for (std::uint32_t l = 1; l <= 6; ++l) {
          const sw::AccessWorkload w{WorkloadKind::Iwr, d, l};
          const auto omp = sw::access_workload_cycles(config(Arch::Omp, n, t), w);
          const auto crossbar = sw::access_workload_cycles(config(Arch::Crossbar, n, t), w);
          const auto bus = sw::access_workload_cycles(config(Arch::Bus, n, t), w);
          EXPECT_LT(omp, crossbar) << "n=" << n << " d=" << d << " l=" << l;
          EXPECT_LT(crossbar, bus) << "n=" << n << " d=" << d << " l=" << l;
        }
      }
    }
  }
}

// With one destination each receiver reads one module either way, so the omp's IWR step and the
// crossbar's write-switch-read cost the same, whatever the bus switch costs.
TEST(AccessWorkloadCost, IwrOmpEqualsCrossbarForDOne) {
  for (const BusTiming& t : timing_sweep()) {
    for (std::uint64_t gamma : {0u, 1u, 8u, 400u}) {
      BusTiming with_gamma = t;
      with_gamma.gamma = gamma;
      for (std::uint32_t n = 1; n <= 8; ++n) {
        for (std::uint32_t l = 1; l <= 6; ++l) {
          const sw::AccessWorkload w{WorkloadKind::Iwr, 1, l};
          EXPECT_EQ(sw::access_workload_cycles(config(Arch::Omp, n, with_gamma), w),
                    sw::access_workload_cycles(config(Arch::Crossbar, n, with_gamma), w))
              << "n=" << n << " l=" << l << " gamma=" << gamma;
        }
      }
    }
  }
}

}  // namespace
}  // namespace orthosim
