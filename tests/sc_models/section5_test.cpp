// [PH91] section 5 on the emulated omp: the hypercube of Fig. 9 in one IWR step, the torus
// shifts of Fig. 11(b) in two, and Table 2's costs T(d, lambda l) with the IWR synchronization.
// Expected cycles are the project's formulas written here; every run also checks every word.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <set>
#include <string>

#include "sc_models/multiprocessor/multiprocessor.hpp"
#include "sw/mapping/mapping.hpp"
#include "sw/pattern/generate.hpp"
#include "sw/pattern/topology_programs.hpp"

namespace orthosim {
namespace {

using sw::Arch;

sw::SystemConfig omp(std::uint32_t n, sw::BusTiming t) {
  sw::SystemConfig c;
  c.n = n;
  c.timing = t;
  c.buffer_words = 512;
  c.module_words = 1u << 14;
  c.local_words = 1u << 16;
  return c;
}

/// One block-interleaved access of l vectors over d modules (Fig. 5(c)).
std::uint64_t access(const sw::BusTiming& t, std::uint64_t d, std::uint64_t l) {
  return t.alpha + t.beta * (l - 1) + d * t.tau * l;
}

sw::RunSummary run(sc::Multiprocessor& system, const sw::MappedProgram& mapped) {
  system.load(mapped.machine);
  sc::run_systems({&system}, sw::Cycle{100'000'000});
  return system.result();
}

// Fig. 9: a 4-cube on 16 processors. Every node exchanges with its 4 neighbours in one step; the
// link of dimension k from node i is module M(i, i xor 2^k), and one IWR step (a write over RB(i)
// of 4 modules, the bus switch, a read over CB(i) of 4 modules) delivers all 64 messages.
TEST(Figure9, AFourCubeExchangesWithAllNeighboursInOneIwrStep) {
  traces::Recorder silent;
  const sw::BusTiming t{16, 2, 1, 8};
  sc::Multiprocessor system("omp", omp(16, t).validated(), silent);
  for (std::uint32_t l : {1u, 4u, 9u}) {
    const sw::McProgram program = sw::hypercube_exchange(16, {0, 1, 2, 3}, l, true);
    const sw::MappedProgram mapped =
        sw::map_program(program, Arch::Omp, sw::Clustering::blocks(16, 16),
                        sw::SyncMode::BusSwitch);
    ASSERT_EQ(mapped.steps.size(), 1u);
    const sw::MappedStep& step = mapped.steps[0];
    ASSERT_EQ(step.parcels.size(), 64u);
    const sw::MemoryOrganization org(Arch::Omp, 16);
    for (const sw::Parcel& parcel : step.parcels) {
      const std::uint32_t flipped = parcel.source ^ parcel.destination;
      EXPECT_TRUE(flipped == 1 || flipped == 2 || flipped == 4 || flipped == 8);
      EXPECT_EQ(parcel.mailbox,
                org.module_at({sw::BusKind::Row, parcel.source}, parcel.destination));
    }
    // One write access per processor and one read access per processor, 4 modules each.
    std::size_t accesses = 0;
    for (const sw::MappedOp& op : step.ops) {
      for (const sw::MappedAccess& a : op.accesses) {
        ++accesses;
        EXPECT_EQ(a.slots.size(), 4u);
      }
    }
    EXPECT_EQ(accesses, 32u);
    const sw::RunSummary r = run(system, mapped);
    ASSERT_TRUE(r.completed);
    EXPECT_TRUE(r.delivery.ok()) << r.delivery.failures.front();
    EXPECT_EQ(r.delivery.messages_checked, 64u);
    EXPECT_EQ(r.cycles.count(), 2 * access(t, 4, l) + t.gamma) << "l=" << l;
  }
}

// Fig. 9's rows as printed for nodes 0, 1 and 2: the modules that carry their links, and the
// virtual link M(0,15) that replaces a 4-hop path by one IWR step.
TEST(Figure9, TheModulesOfTheFiguresRowsAndTheVirtualLink) {
  const sw::McProgram exchange = sw::hypercube_exchange(16, {0, 1, 2, 3}, 1, true);
  const sw::MappedProgram mapped = sw::map_program(exchange, Arch::Omp, 16);
  const std::map<std::uint32_t, std::set<std::uint32_t>> figure = {{0, {1, 2, 4, 8}},
                                                                   {1, {0, 3, 5, 9}},
                                                                   {2, {0, 3, 6, 10}}};
  for (const auto& [row, columns] : figure) {
    std::set<std::uint32_t> found;
    for (const sw::Parcel& parcel : mapped.steps[0].parcels) {
      if (parcel.source == row) {
        found.insert(parcel.mailbox % 16);
        EXPECT_EQ(parcel.mailbox / 16, row);
      }
    }
    EXPECT_EQ(found, columns) << "row " << row;
  }
  sw::PatternGenOptions o;
  o.nodes = 16;
  o.sources = {0};
  o.destinations = {15};
  const sw::MappedProgram virtual_link =
      sw::map_program(sw::generate_pattern(sw::Pattern::C1, o), Arch::Omp, 16);
  ASSERT_EQ(virtual_link.steps[0].parcels.size(), 1u);
  EXPECT_EQ(virtual_link.steps[0].parcels[0].mailbox, 0u * 16 + 15u);
}

// Fig. 11(b): an east or west shift by k on an n x n torus clustered by columns takes exactly two
// IWR steps (column write and row read; row write through the rotating index set and column
// read), n modules per access, and every datum lands where the torus shift puts it.
TEST(Figure11, EveryEastAndWestShiftTakesTwoIwrSteps) {
  traces::Recorder silent;
  const sw::BusTiming t{16, 2, 1, 8};
  std::vector<std::unique_ptr<sc::Multiprocessor>> systems;
  for (std::uint32_t n : {4u, 8u, 16u}) {
    systems.push_back(std::make_unique<sc::Multiprocessor>(("omp" + std::to_string(n)).c_str(),
                                                           omp(n, t).validated(), silent));
  }
  std::size_t shifts = 0;
  for (auto& system : systems) {
    const std::uint32_t n = system->config().n;
    const sw::Clustering columns = sw::Clustering::torus(n * n, sw::TorusClusters{n, n, true});
    for (sw::ShiftDirection dir : {sw::ShiftDirection::East, sw::ShiftDirection::West}) {
      for (std::uint32_t k = 1; k < n; ++k) {
        const std::uint32_t l = 1 + k % 3;
        const sw::McProgram program = sw::torus_shift(n, n, dir, k, l);
        const sw::MappedProgram mapped =
            sw::map_program(program, Arch::Omp, columns, sw::SyncMode::BusSwitch);
        const std::string what = sw::to_string(dir) + " " + std::to_string(k) + " on " +
                                 std::to_string(n) + "x" + std::to_string(n);
        ASSERT_EQ(mapped.steps.size(), 1u);
        std::uint32_t phases = 0;
        for (const sw::MappedOp& op : mapped.steps[0].ops) {
          phases = std::max(phases, op.phase + 1);
          for (const sw::MappedAccess& a : op.accesses) {
            EXPECT_EQ(a.slots.size(), n) << what;
            // IWR 1 writes columns and reads rows; IWR 2 writes rows and reads columns.
            const bool column = a.bus.kind == sw::BusKind::Column;
            EXPECT_EQ(column, (op.phase == 0) == (op.direction == sw::Direction::Write)) << what;
          }
        }
        EXPECT_EQ(phases, 2u) << what;
        const sw::RunSummary r = run(*system, mapped);
        ASSERT_TRUE(r.completed) << what;
        EXPECT_TRUE(r.delivery.ok()) << what << ": " << r.delivery.failures.front();
        EXPECT_EQ(r.delivery.messages_checked, std::size_t{n} * n) << what;
        EXPECT_EQ(r.cycles.count(), 2 * (2 * access(t, n, l) + t.gamma)) << what;
        ++shifts;
      }
    }
  }
  EXPECT_EQ(shifts, 2u * (3 + 7 + 15));
}

// North and south shifts stay inside the clusters (section 5.3): local copies, no memory access.
TEST(Figure11, NorthAndSouthShiftsAreIntraCluster) {
  for (sw::ShiftDirection dir : {sw::ShiftDirection::North, sw::ShiftDirection::South}) {
    const sw::MappedProgram mapped = sw::map_program(sw::torus_shift(4, 4, dir, 2, 3), Arch::Omp,
                                                     sw::Clustering::torus(16, {4, 4, true}));
    EXPECT_TRUE(mapped.steps[0].ops.empty());
    EXPECT_EQ(mapped.steps[0].local_copies.size(), 16u);
  }
}

// Table 2: with IWR synchronization the omp takes T(d, lambda l) + gamma for the patterns whose
// two halves have degree d (one-to-one: d = 1; all-to-all: d = n-1), lambda = 1, m/n, (m/n)^2 by
// Table 2's m > n column; one-to-all writes with degree n-1 and each receiver reads one module.
TEST(Table2, TheOmpTakesTheTablesCostsForMEqualsNAndMGreaterThanN) {
  traces::Recorder silent;
  const sw::BusTiming t{20, 3, 2, 7};
  const std::uint32_t n = 8, l = 3;
  sc::Multiprocessor system("omp", omp(n, t).validated(), silent);
  std::size_t rows = 0;
  for (std::uint32_t m : {8u, 16u, 32u}) {
    const std::uint64_t q = m / n;
    const auto run_pattern = [&](sw::Pattern p, std::vector<sw::NodeId> sources,
                                 std::vector<sw::NodeId> destinations) {
      sw::PatternGenOptions o;
      o.nodes = m;
      o.words = l;
      o.sources = std::move(sources);
      o.destinations = std::move(destinations);
      const sw::MappedProgram mapped =
          sw::map_program(sw::generate_pattern(p, o), Arch::Omp, sw::Clustering::blocks(m, n),
                          sw::SyncMode::BusSwitch);
      const sw::RunSummary r = run(system, mapped);
      EXPECT_TRUE(r.completed && r.delivery.ok()) << sw::to_string(p) << " m=" << m;
      ++rows;
      return r.cycles.count();
    };
    // One-to-one across clusters: T(1, l); inside one cluster (m > n): 0.
    EXPECT_EQ(run_pattern(sw::Pattern::C1, {0}, {m - 1}), 2 * access(t, 1, l) + t.gamma);
    if (m > n) {
      EXPECT_EQ(run_pattern(sw::Pattern::C1, {0}, {1}), 0u) << "m=" << m;
    }
    // All-to-all broadcast: T(n-1, (m/n) l); all-to-all personalized: T(n-1, (m/n)^2 l).
    EXPECT_EQ(run_pattern(sw::Pattern::C6, {}, {}), 2 * access(t, n - 1, q * l) + t.gamma)
        << "m=" << m;
    EXPECT_EQ(run_pattern(sw::Pattern::C7, {}, {}), 2 * access(t, n - 1, q * q * l) + t.gamma)
        << "m=" << m;
    // One-to-all broadcast: the write is T's half with l; personalized: with (m/n) l.
    EXPECT_EQ(run_pattern(sw::Pattern::C3, {0}, {}),
              access(t, n - 1, l) + t.gamma + access(t, 1, l))
        << "m=" << m;
    EXPECT_EQ(run_pattern(sw::Pattern::C4, {0}, {}),
              access(t, n - 1, q * l) + t.gamma + access(t, 1, q * l))
        << "m=" << m;
  }
  EXPECT_EQ(rows, 3u * 5 + 2);
}

}  // namespace
}  // namespace orthosim
