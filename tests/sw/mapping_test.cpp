// The mapping methodology of [PH91] section 4 against the paper itself: the six memory-based
// communication sets derived from the structural connectivity, the three mapped listings of the
// Fig. 2 sample program operation for operation, Table 2's access sizes for m > n, message
// vectors (Theorem 1), and machine programs that the validator accepts. The expected texts and
// sizes are written here from the paper, not taken from the program's output.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "sw/cost/program_cost.hpp"
#include "sw/machine/describe.hpp"
#include "sw/machine/validate.hpp"
#include "sw/mapping/listing.hpp"
#include "sw/mapping/mapping.hpp"
#include "sw/mapping/vectorize.hpp"
#include "sw/pattern/generate.hpp"
#include "sw/pattern/message_vector.hpp"
#include "sw/pattern/topology_programs.hpp"
#include "sw/program/parser.hpp"

namespace orthosim {
namespace {

using sw::Arch;
using sw::Direction;
using sw::MappedProgram;
using sw::Pattern;

sw::McProgram fig2() { return sw::read_program_file(ORTHOSIM_EXAMPLES_DIR "/fig2_sample.mcp"); }

std::vector<std::string> listing(const MappedProgram& m) {
  const sw::MemoryOrganization org(m.arch, m.processors);
  std::vector<std::string> lines;
  for (const sw::MappedStep& s : m.steps) {
    lines.push_back(sw::listing_line(s, org));
  }
  return lines;
}

// ---- section 4.2: the six sets ------------------------------------------------------------

TEST(MemoryCommunicationSets, DerivedFromTheConnectivityTheyAreThePapersSix) {
  // [PH91] section 4.2, sets 1-6, as printed.
  const std::map<Arch, sw::MemoryCommunicationSets> paper = {
      {Arch::Bus, {{"C1_send", "C1_recv"}, {"C3_send", "C4_send"}}},
      {Arch::Crossbar,
       {{"C1_send", "C1_recv", "C2_send", "C2_recv"},
        {"C3_send", "C4_send", "C6_send", "C7_send"}}},
      {Arch::Omp,
       {{"C1_send", "C1_recv", "C2_send", "C2_recv", "C3_recv", "C4_recv", "C5_send"},
        {"C3_send", "C4_send", "C5_recv", "C6_send", "C6_recv", "C7_send", "C7_recv"}}},
  };
  for (std::uint32_t n : {3u, 4u, 8u, 16u}) {
    for (const auto& [arch, sets] : paper) {
      const sw::MemoryCommunicationSets derived = sw::derive_mcs(arch, n);
      EXPECT_EQ(derived.scalar, sets.scalar) << sw::to_string(arch) << " n=" << n;
      EXPECT_EQ(derived.vector, sets.vector) << sw::to_string(arch) << " n=" << n;
    }
  }
}

TEST(Vectorizability, ARouteNeedsOneDrivableBusHoldingEveryModule) {
  const sw::MemoryOrganization omp(Arch::Omp, 4);
  // P1 reaches M(1,0), M(1,2) over RB(1), slots 0 and 2; M(2,1) is on RB(2) and CB(1).
  const auto row = sw::route(omp, 1, {sw::mailbox(omp, 1, 0), sw::mailbox(omp, 1, 2)});
  ASSERT_TRUE(row.has_value());
  EXPECT_EQ(row->bus, (sw::BusRef{sw::BusKind::Row, 1}));
  EXPECT_EQ(row->slots, (std::vector<std::uint32_t>{0, 2}));
  const auto column = sw::route(omp, 1, {sw::mailbox(omp, 0, 1), sw::mailbox(omp, 3, 1)});
  ASSERT_TRUE(column.has_value());
  EXPECT_EQ(column->bus, (sw::BusRef{sw::BusKind::Column, 1}));
  EXPECT_EQ(column->slots, (std::vector<std::uint32_t>{0, 3}));
  EXPECT_FALSE(sw::route(omp, 1, {sw::mailbox(omp, 2, 3)}).has_value());
  EXPECT_FALSE(sw::route(omp, 1, {sw::mailbox(omp, 1, 0), sw::mailbox(omp, 0, 1)}).has_value());
  // The single bus keeps every message to P(d) in M(d): two of them cannot share an access.
  const sw::MemoryOrganization bus(Arch::Bus, 4);
  EXPECT_FALSE(sw::route(bus, 0, {sw::mailbox(bus, 1, 0), sw::mailbox(bus, 2, 0)}).has_value());
}

// ---- section 4.3: the three listings of the sample program --------------------------------

TEST(Fig2Listings, SingleBusIsSection43A) {
  const std::vector<std::string> paper = {
      "Step 1: C1_send(P1 -> M0), C1_recv(M0 -> P0)",
      "Step 2: C1_send(P1 -> M2), C1_send(P3 -> M0), C1_recv(M2 -> P2), C1_recv(M0 -> P0)",
      "Step 3: C3_send(P0 -> M1, M2, M3), C1_recv(M1 -> P1), C1_recv(M2 -> P2), "
      "C1_recv(M3 -> P3)",
      "Step 4: C4_send(P0 -> M1, M2, M3), C1_recv(M1 -> P1), C1_recv(M2 -> P2), "
      "C1_recv(M3 -> P3)",
      "Step 5: C1_send(P1 -> M0), C1_send(P2 -> M0), C1_recv(M0 -> P0), C1_recv(M0 -> P0), "
      "C3_send(P3 -> M1, M2), C1_recv(M1 -> P1), C1_recv(M2 -> P2)",
  };
  EXPECT_EQ(listing(sw::map_program(fig2(), Arch::Bus, 4)), paper);
}

TEST(Fig2Listings, CrossbarIsSection43B) {
  const std::vector<std::string> paper = {
      "Step 1: C1_send(P1 -> M1,0), C1_recv(M1,0 -> P0)",
      "Step 2: C2_send((P1 -> M1,2), (P3 -> M3,0)), C2_recv((M1,2 -> P2), (M3,0 -> P0))",
      "Step 3: C3_send(P0 -> M0,1, M0,2, M0,3), C1_recv(M0,1 -> P1), C1_recv(M0,2 -> P2), "
      "C1_recv(M0,3 -> P3)",
      "Step 4: C4_send(P0 -> M0,1, M0,2, M0,3), C1_recv(M0,1 -> P1), C1_recv(M0,2 -> P2), "
      "C1_recv(M0,3 -> P3)",
      "Step 5: C1_send(P1 -> M1,0), C1_send(P2 -> M2,0), C1_recv(M1,0 -> P0), "
      "C1_recv(M2,0 -> P0), C3_send(P3 -> M3,1, M3,2), C1_recv(M3,1 -> P1), "
      "C1_recv(M3,2 -> P2)",
  };
  EXPECT_EQ(listing(sw::map_program(fig2(), Arch::Crossbar, 4)), paper);
}

TEST(Fig2Listings, OrthogonalIsSection43C) {
  const std::vector<std::string> paper = {
      "Step 1: C1_send(P1 -> M1,0), C1_recv(M1,0 -> P0)",
      "Step 2: C2_send((P1 -> M1,2), (P3 -> M3,0)), C2_recv((M1,2 -> P2), (M3,0 -> P0))",
      "Step 3: C3_send(P0 -> M0,1, M0,2, M0,3), "
      "C3_recv((M0,1 -> P1), (M0,2 -> P2), (M0,3 -> P3))",
      "Step 4: C4_send(P0 -> M0,1, M0,2, M0,3), "
      "C4_recv((M0,1 -> P1), (M0,2 -> P2), (M0,3 -> P3))",
      "Step 5: C5_send((P1 -> M1,0), (P2 -> M2,0)), C5_recv(M1,0, M2,0 -> P0), "
      "C3_send(P3 -> M3,1, M3,2), C3_recv((M3,1 -> P1), (M3,2 -> P2))",
  };
  EXPECT_EQ(listing(sw::map_program(fig2(), Arch::Omp, 4)), paper);
}

TEST(Fig2Listings, ProgramLevelStepsAreSection2) {
  const MappedProgram m = sw::map_program(fig2(), Arch::Omp, 4);
  std::vector<std::string> lines;
  for (const sw::MappedStep& s : m.steps) {
    lines.push_back(sw::program_line(s));
  }
  EXPECT_EQ(lines, (std::vector<std::string>{
                       "Step 1: C1(N1, N0)",
                       "Step 2: C2((N1, N2), (N3, N0))",
                       "Step 3: C3((N0, N1), (N0, N2), (N0, N3))",
                       "Step 4: C4((N0, N1), (N0, N2), (N0, N3))",
                       "Step 5: C10((N1, N0), (N2, N0)), C8((N3, N1), (N3, N2))",
                   }));
}

TEST(Fig2Listings, BroadcastWritesReplicateOneBufferThroughTheIndexManipulator) {
  const MappedProgram m = sw::map_program(fig2(), Arch::Omp, 4);
  const sw::MappedAccess& c3 = m.steps[2].ops[0].accesses[0];
  const sw::MappedAccess& c4 = m.steps[3].ops[0].accesses[0];
  EXPECT_TRUE(c3.replicated);   // C3: one payload to three modules (Fig. 6, write {1,1,2})
  EXPECT_FALSE(c4.replicated);  // C4: three payloads
  // The replicating write loads one buffer and names an index set of zeros.
  const sw::ProcessorProgram& p0 = m.machine.processors[0];
  bool found = false;
  for (const sw::Op& op : p0.ops) {
    if (const auto* a = std::get_if<sw::MemoryAccess>(&op);
        a != nullptr && a->direction == Direction::Write && a->degree() == 3) {
      const sw::IndexSet& rho = p0.index_sets.at(a->index_set);
      if (rho == sw::IndexSet{0, 0, 0}) {
        found = true;
      }
    }
  }
  EXPECT_TRUE(found);
}

// ---- section 5, Table 2: m > n ------------------------------------------------------------

struct Table2Row {
  Pattern pattern;
  std::uint32_t d;       // modules per access
  std::uint32_t lambda;  // node-congestion factor: words per access = lambda * l
};

TEST(Clustering, OmpAccessesHaveTable2Sizes) {
  const std::uint32_t n = 4, l = 3;
  for (std::uint32_t m : {4u, 8u, 16u}) {
    const std::uint32_t q = m / n;
    // Table 2, column m > n (and m = n with q = 1): T(d, lambda l).
    const std::vector<Table2Row> rows = {
        {Pattern::C3, n - 1, 1},      // one-to-all broadcast: T(n-1, l)
        {Pattern::C6, n - 1, q},      // all-to-all broadcast: T(n-1, (m/n) l)
        {Pattern::C4, n - 1, q},      // one-to-all personalized: T(n-1, (m/n) l)
        {Pattern::C7, n - 1, q * q},  // all-to-all personalized: T(n-1, (m/n)^2 l)
    };
    for (const Table2Row& row : rows) {
      sw::PatternGenOptions o;
      o.nodes = m;
      o.words = l;
      o.sources = {0};
      if (row.pattern == Pattern::C6 || row.pattern == Pattern::C7) {
        o.sources.clear();
      }
      const MappedProgram mapped =
          sw::map_program(sw::generate_pattern(row.pattern, o), Arch::Omp, n);
      ASSERT_EQ(mapped.steps.size(), 1u);
      // The vector half has degree d; the other half of C3 and C4 reads one module per
      // receiver, all at once, which Table 2's T(d, .) bounds.
      std::uint32_t vector_accesses = 0;
      for (const sw::MappedOp& op : mapped.steps[0].ops) {
        for (const sw::MappedAccess& a : op.accesses) {
          const std::string what = sw::to_string(row.pattern) + " m=" + std::to_string(m);
          EXPECT_TRUE(a.slots.size() == row.d || a.slots.size() == 1) << what;
          vector_accesses += a.slots.size() == row.d ? 1 : 0;
          EXPECT_EQ(a.vectors, row.lambda * l) << what;
        }
      }
      EXPECT_GT(vector_accesses, 0u);
    }
  }
}

TEST(Clustering, OneToOneInsideAClusterIsALocalCopyAndAcrossIsTOneL) {
  sw::McProgram p;
  p.name = "c1";
  p.nodes = 8;
  sw::ProgramStep inside;
  inside.transfers.push_back({0, {1}, false, 5, {}});  // nodes 0 and 1 share P0 (n = 4)
  sw::ProgramStep across;
  across.transfers.push_back({0, {7}, false, 5, {}});  // P0 -> P3
  p.steps = {inside, across};
  const MappedProgram m = sw::map_program(p, Arch::Omp, 4);
  EXPECT_TRUE(m.steps[0].ops.empty());
  EXPECT_EQ(m.steps[0].local_copies.size(), 1u);
  ASSERT_EQ(m.steps[1].ops.size(), 2u);
  for (const sw::MappedOp& op : m.steps[1].ops) {
    ASSERT_EQ(op.accesses.size(), 1u);
    EXPECT_EQ(op.accesses[0].slots.size(), 1u);
    EXPECT_EQ(op.accesses[0].vectors, 5u);
  }
  EXPECT_EQ(m.machine.messages.size(), 2u);
}

// ---- every mapped step is made of message vectors and validates ---------------------------

TEST(MappedPrograms, RandomProgramsGiveValidMachineProgramsOfMessageVectors) {
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    const std::uint32_t m = 2 + static_cast<std::uint32_t>(seed % 15);
    const sw::McProgram program = sw::generate_random(m, 4, seed);
    std::size_t node_messages = 0;
    for (std::uint32_t k = 0; k < program.steps.size(); ++k) {
      node_messages += sw::messages_of(program.steps[k], k).size();
    }
    for (Arch arch : {Arch::Omp, Arch::Crossbar, Arch::Bus}) {
      for (std::uint32_t n : {m, std::max(1u, m / 2)}) {
        const MappedProgram mapped = sw::map_program(program, arch, n);
        const std::string what =
            sw::to_string(arch) + " seed=" + std::to_string(seed) + " n=" + std::to_string(n);
        sw::SystemConfig config;
        config.arch = arch;
        config.n = n;
        sw::fit_config(mapped.needs, {}, config);
        EXPECT_NO_THROW(sw::validate(mapped.machine, config)) << what;
        EXPECT_EQ(mapped.machine.messages.size(), node_messages) << what;
        for (const sw::MappedStep& step : mapped.steps) {
          // Each pattern's parcels are point-to-point links of one message vector.
          std::vector<std::pair<sw::NodeId, sw::NodeId>> links;
          for (const sw::Parcel& parcel : step.parcels) {
            links.emplace_back(parcel.source, parcel.destination);
          }
          const sw::MessageVectorCheck check = sw::check_message_vector(links, n);
          EXPECT_TRUE(check.ok) << what << ": "
                                << (check.violations.empty() ? "" : check.violations.front());
          // Every parcel is written once and read once.
          std::map<std::size_t, int> writes, reads;
          for (const sw::MappedOp& op : step.ops) {
            for (const sw::MappedAccess& a : op.accesses) {
              for (std::size_t i : a.parcels) {
                ++(a.direction == Direction::Write ? writes : reads)[i];
                EXPECT_EQ(step.parcels[i].address, a.address) << what;
              }
            }
          }
          for (std::size_t i = 0; i < step.parcels.size(); ++i) {
            EXPECT_EQ(writes[i], 1) << what;
            EXPECT_EQ(reads[i], 1) << what;
          }
        }
      }
    }
  }
}

// `orthosim run` maps with a sink that keeps each step's prediction and table lines and drops
// the step, and consumes the program as read: the sink gets every step in order, as kept without
// a sink, the machine program is the same, and the consumed program's steps are freed.
TEST(MappedPrograms, ASinkTakesEveryStepInOrderAndAConsumedProgramIsFreedStepByStep) {
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const sw::McProgram program = sw::generate_random(9, 7, seed);
    for (Arch arch : {Arch::Omp, Arch::Bus}) {
      const std::string what = sw::to_string(arch) + " seed=" + std::to_string(seed);
      const sw::Clustering clustering = sw::Clustering::blocks(9, 3);
      const MappedProgram kept = sw::map_program(program, arch, clustering);
      sw::SystemConfig config;
      config.arch = arch;
      config.n = 3;
      const sw::MemoryOrganization org = config.organization();
      std::vector<std::string> listings;
      sw::ProgramCost predicted;
      sw::McProgram consumed = program;
      const MappedProgram sunk = sw::map_program(
          std::move(consumed), arch, clustering, sw::SyncMode::Pairs, [&](sw::MappedStep&& step) {
            EXPECT_EQ(step.index, listings.size()) << what;
            listings.push_back(sw::listing_line(step, org));
            predicted.steps.push_back(sw::predict_step_cycles(step, config, sw::SyncMode::Pairs));
            predicted.total += predicted.steps.back();
          });
      EXPECT_TRUE(sunk.steps.empty()) << what;
      ASSERT_EQ(listings.size(), kept.steps.size()) << what;
      for (std::size_t k = 0; k < listings.size(); ++k) {
        EXPECT_EQ(listings[k], sw::listing_line(kept.steps[k], org)) << what << " step " << k;
      }
      const sw::ProgramCost expected = sw::predict_cycles(kept, config);
      EXPECT_EQ(predicted.steps, expected.steps) << what;
      EXPECT_EQ(predicted.total, expected.total) << what;
      ASSERT_EQ(sunk.machine.processors.size(), kept.machine.processors.size()) << what;
      for (std::size_t p = 0; p < kept.machine.processors.size(); ++p) {
        const std::vector<sw::Op> a = sunk.machine.processors[p].ops.decoded();
        const std::vector<sw::Op> b = kept.machine.processors[p].ops.decoded();
        ASSERT_EQ(a.size(), b.size()) << what << " P" << p;
        for (std::size_t i = 0; i < a.size(); ++i) {
          EXPECT_EQ(sw::describe(a[i], org), sw::describe(b[i], org)) << what << " P" << p;
        }
      }
      EXPECT_EQ(sunk.machine.messages.size(), kept.machine.messages.size()) << what;
      // map_program(McProgram&&) leaves the program's list of steps, each emptied.
      ASSERT_EQ(consumed.steps.size(), program.steps.size()) << what;
      for (const sw::ProgramStep& step : consumed.steps) {
        EXPECT_TRUE(step.transfers.empty() && step.computes.empty()) << what;
      }
      EXPECT_FALSE(program.steps.front().transfers.empty()) << "the kept program is intact";
    }
  }
}

TEST(MappedPrograms, SizesTheUserFixedMustSuffice) {
  const MappedProgram m = sw::map_program(fig2(), Arch::Omp, 4);
  sw::SystemConfig config;
  config.buffer_words = 2;  // Fig. 2 sends 4-word messages
  sw::FixedSizes fixed;
  fixed.buffer_words = true;
  try {
    sw::fit_config(m.needs, fixed, config);
    FAIL() << "a 2-word buffer accepted";
  } catch (const sw::ParameterError& e) {
    EXPECT_EQ(e.parameter(), "buffer-words") << e.what();
  }
  config.buffer_words = 2;
  sw::fit_config(m.needs, {}, config);
  EXPECT_EQ(config.buffer_words, 4u);
}

// ---- the cost model -----------------------------------------------------------------------

TEST(ProgramCost, AnAccessCostsAlphaPlusBetaPerVectorPlusTauPerWord) {
  const sw::BusTiming t{11, 3, 2, 5};
  sw::MappedAccess a;
  a.slots = {0, 1, 2};
  a.vectors = 7;
  EXPECT_EQ(sw::access_cost(t, a).count(), 11u + 3u * 6u + 3u * 2u * 7u);
  a.slots = {4};
  a.vectors = 1;
  EXPECT_EQ(sw::access_cost(t, a).count(), 11u + 2u);  // scalar: alpha + tau
}

/// One step of two nodes: node 1 sends 6 words to node 0 and computes 9 cycles.
sw::McProgram one_to_one_step() {
  sw::McProgram p;
  p.name = "c1";
  p.nodes = 2;
  sw::ProgramStep s;
  s.transfers.push_back({1, {0}, false, 6, {}});
  s.computes.push_back({1, sw::Cycle{9}, {}});
  p.steps = {s};
  return p;
}

TEST(ProgramCost, AOneToOneStepIsWriteSyncRead) {
  const sw::McProgram p = one_to_one_step();
  sw::SystemConfig c;
  c.n = 2;
  const sw::ProgramCost cost = sw::predict_cycles(sw::map_program(p, Arch::Omp, 2), c);
  const std::uint64_t access = 16 + 2 * 5 + 6;  // alpha + beta(l-1) + tau l, defaults
  EXPECT_EQ(cost.total.count(), 9 + access + c.sync.activate + access);
}

// A program mapped for IWR steps is predicted with the bus switch: the C1 step above costs
// 9 + T + gamma + T, not 9 + T + activate + T.
TEST(ProgramCost, AProgramMappedForIwrStepsIsPredictedWithTheBusSwitch) {
  const sw::McProgram p = one_to_one_step();
  sw::SystemConfig c;
  c.n = 2;
  const MappedProgram mapped =
      sw::map_program(p, Arch::Omp, sw::Clustering::blocks(2, 2), sw::SyncMode::BusSwitch);
  const std::uint64_t access = 16 + 2 * 5 + 6;  // alpha + beta(l-1) + tau l, defaults
  ASSERT_NE(c.timing.gamma, c.sync.activate);
  EXPECT_EQ(sw::predict_cycles(mapped, c).total.count(), 9 + access + c.timing.gamma + access);
}

/// An access of one module slot of `bus` carrying parcel `parcel`, l = `vectors`.
sw::MappedAccess one_slot_access(sw::ProcId p, Direction direction, sw::BusRef bus,
                                 std::size_t parcel, std::uint32_t vectors) {
  sw::MappedAccess a;
  a.processor = p;
  a.direction = direction;
  a.bus = bus;
  a.slots = {0};
  a.parcels = {parcel};
  a.vectors = vectors;
  return a;
}

sw::MappedOp op_of(Direction direction, std::vector<sw::MappedAccess> accesses) {
  sw::MappedOp op;
  op.direction = direction;
  op.accesses = std::move(accesses);
  return op;
}

// An IWR exchange on the crossbar: P0 and P1 swap a parcel of l = 3 words over B(1) and B(0),
// P1 after 30 cycles of compute. The bus switch waits for the later writer (P1, not the one
// listed last), so each reader starts gamma after P1's write:
// 30 + T + gamma + T, with T = alpha + beta(l - 1) + tau l.
TEST(ProgramCost, TheBusSwitchWaitsForTheLastWriterOfTheStep) {
  sw::SystemConfig c;
  c.arch = Arch::Crossbar;
  c.n = 2;
  c.timing = sw::BusTiming{10, 1, 2, 7};
  const sw::BusRef b0{sw::BusKind::Shared, 0};
  const sw::BusRef b1{sw::BusKind::Shared, 1};
  sw::MappedStep step;
  step.parcels.resize(2);  // 0: P0 -> P1 on B(1); 1: P1 -> P0 on B(0)
  step.compute = {sw::Cycle{0}, sw::Cycle{30}};
  step.ops.push_back(op_of(Direction::Write, {one_slot_access(1, Direction::Write, b0, 1, 3),
                                              one_slot_access(0, Direction::Write, b1, 0, 3)}));
  step.ops.push_back(op_of(Direction::Read, {one_slot_access(1, Direction::Read, b1, 0, 3),
                                             one_slot_access(0, Direction::Read, b0, 1, 3)}));
  const std::uint64_t access = 10 + 1 * 2 + 2 * 3;
  EXPECT_EQ(sw::predict_step_cycles(step, c, sw::SyncMode::BusSwitch).count(),
            30 + access + 7 + access);
}

// On the single bus every access shares B0, so the bus, not a processor, bounds the step: the
// four accesses back to back plus the bus switch (IWR step) or plus one activate-sync (pairs).
// P0 sends P1 l = 4 words, P1 sends P2 l = 2; each processor's own chain is shorter.
TEST(ProgramCost, OnTheSingleBusTheStepIsEveryAccessBackToBackPlusTheSync) {
  sw::SystemConfig c;
  c.arch = Arch::Bus;
  c.n = 3;
  c.timing = sw::BusTiming{10, 1, 1, 7};
  c.sync.activate = 3;
  const sw::BusRef bus{sw::BusKind::Shared, 0};
  sw::MappedStep step;
  step.parcels.resize(2);
  step.compute = {sw::Cycle{0}, sw::Cycle{0}, sw::Cycle{0}};
  step.ops.push_back(op_of(Direction::Write, {one_slot_access(0, Direction::Write, bus, 0, 4),
                                              one_slot_access(1, Direction::Write, bus, 1, 2)}));
  step.ops.push_back(op_of(Direction::Read, {one_slot_access(1, Direction::Read, bus, 0, 4),
                                             one_slot_access(2, Direction::Read, bus, 1, 2)}));
  const std::uint64_t four = 10 + 1 * 3 + 1 * 4;  // T(1, 4)
  const std::uint64_t two = 10 + 1 * 1 + 1 * 2;   // T(1, 2)
  const std::uint64_t bus_busy = 2 * four + 2 * two;
  // The longest chain is shorter: IWR step, P1 reads after the later write, four + 7 + four = 41
  // < 67; pairs, P1 reads after P0's write and sync, four + 3 + four = 37 < 63.
  EXPECT_EQ(sw::predict_step_cycles(step, c, sw::SyncMode::BusSwitch).count(), bus_busy + 7);
  EXPECT_EQ(sw::predict_step_cycles(step, c, sw::SyncMode::Pairs).count(), bus_busy + 3);
}

/// The crossbar of the two tests below: 3 processors, alpha 10, beta 1, tau 2, gamma 7,
/// activate-sync 3.
sw::SystemConfig crossbar_of_three() {
  sw::SystemConfig c;
  c.arch = Arch::Crossbar;
  c.n = 3;
  c.timing = sw::BusTiming{10, 1, 2, 7};
  c.sync.activate = 3;
  return c;
}

// An access of several modules (pairs): a write of two parcels raises both, and a read of two
// waits for the later writer. On the crossbar, alpha 10, beta 1, tau 2, activate 3, T(d, l) =
// alpha + beta(l - 1) + d tau l:
//   C3-like: P0 writes parcels 0 and 1 (l = 5) to B(0)'s slots, T(2, 5) = 34; P1 reads parcel 0
//            (l = 1) on B(1), P2 parcel 1 (l = 5) on B(2): P2 ends at 34 + 3 + T(1, 5) = 61.
//   C5-like: P1 writes parcel 0, P2 after 40 cycles parcel 1 (l = 1, T(1, 1) = 12, on B(1) and
//            B(2)); P0 reads both from B(0), T(2, 1) = 14, after P2's: 40 + 12 + 3 + 14 = 69.
TEST(ProgramCost, AnAccessOfSeveralModulesRaisesEveryParcelAndWaitsForEveryWriter) {
  const sw::SystemConfig c = crossbar_of_three();
  const sw::BusRef b0{sw::BusKind::Shared, 0};
  const sw::BusRef b1{sw::BusKind::Shared, 1};
  const sw::BusRef b2{sw::BusKind::Shared, 2};
  const auto two_slot_access = [&](sw::ProcId p, Direction direction, std::uint32_t vectors) {
    sw::MappedAccess a = one_slot_access(p, direction, b0, 0, vectors);
    a.slots = {0, 1};
    a.parcels = {0, 1};
    return a;
  };
  sw::MappedStep one_to_two;
  one_to_two.parcels.resize(2);
  one_to_two.compute = {sw::Cycle{0}, sw::Cycle{0}, sw::Cycle{0}};
  one_to_two.ops.push_back(op_of(Direction::Write, {two_slot_access(0, Direction::Write, 5)}));
  one_to_two.ops.push_back(op_of(Direction::Read, {one_slot_access(1, Direction::Read, b1, 0, 1),
                                                   one_slot_access(2, Direction::Read, b2, 1, 5)}));
  EXPECT_EQ(sw::predict_step_cycles(one_to_two, c, sw::SyncMode::Pairs).count(), 34 + 3 + 24);
  sw::MappedStep two_to_one;
  two_to_one.parcels.resize(2);
  two_to_one.compute = {sw::Cycle{0}, sw::Cycle{0}, sw::Cycle{40}};
  two_to_one.ops.push_back(
      op_of(Direction::Write, {one_slot_access(1, Direction::Write, b1, 0, 1),
                               one_slot_access(2, Direction::Write, b2, 1, 1)}));
  two_to_one.ops.push_back(op_of(Direction::Read, {two_slot_access(0, Direction::Read, 1)}));
  EXPECT_EQ(sw::predict_step_cycles(two_to_one, c, sw::SyncMode::Pairs).count(), 40 + 12 + 3 + 14);
}

// A step of two IWR steps (a torus shift, Fig. 11(b)) on the crossbar, each phase's switch over
// the processors of that phase only, a reader that writes nothing among them. Phase 0: P0 writes
// parcel 0 (l = 3) on B(1), P1 reads it; phase 1: P0 writes parcel 1 on B(2), P2 reads it; P2
// computes 50 cycles first. With T = alpha + beta(l - 1) + tau l = 18:
//   bus switch: P0 writes, the switch, P0 writes again: 2T + gamma = 43 < 50, so the second switch
//               waits for P2, which then reads: 50 + gamma + T.
//   pairs:      P0's two writes, each with its activate-sync, end at 2(T + 3) = 42 < 50, so P2
//               reads after its compute: 50 + T.
TEST(ProgramCost, EachIwrStepOfAStepSwitchesOverItsOwnProcessors) {
  const sw::SystemConfig c = crossbar_of_three();
  const sw::BusRef b1{sw::BusKind::Shared, 1};
  const sw::BusRef b2{sw::BusKind::Shared, 2};
  sw::MappedStep step;
  step.parcels.resize(2);
  step.compute = {sw::Cycle{0}, sw::Cycle{0}, sw::Cycle{50}};
  step.ops.push_back(op_of(Direction::Write, {one_slot_access(0, Direction::Write, b1, 0, 3)}));
  step.ops.push_back(op_of(Direction::Read, {one_slot_access(1, Direction::Read, b1, 0, 3)}));
  sw::MappedOp second_write =
      op_of(Direction::Write, {one_slot_access(0, Direction::Write, b2, 1, 3)});
  sw::MappedOp second_read =
      op_of(Direction::Read, {one_slot_access(2, Direction::Read, b2, 1, 3)});
  second_write.phase = 1;
  second_read.phase = 1;
  step.ops.push_back(second_write);
  step.ops.push_back(second_read);
  const std::uint64_t access = 10 + 1 * 2 + 2 * 3;
  ASSERT_LT(2 * access + 7, 50u);
  EXPECT_EQ(sw::predict_step_cycles(step, c, sw::SyncMode::BusSwitch).count(), 50 + 7 + access);
  ASSERT_LT(2 * (access + 3), 50u);
  EXPECT_EQ(sw::predict_step_cycles(step, c, sw::SyncMode::Pairs).count(), 50 + access);
}

}  // namespace
}  // namespace orthosim

namespace orthosim {
namespace {

// Fig. 10: 32 nodes on 16 processors; collapsing x_k puts nodes i and i xor 2^k on one processor,
// numbered by the remaining four address bits.
TEST(Clustering, CollapsingAHypercubeDimensionPairsTheNodesAcrossIt) {
  for (std::uint32_t k = 0; k < 5; ++k) {
    const sw::Clustering c = sw::Clustering::hypercube(32, 16, {k});
    for (sw::NodeId i = 0; i < 32; ++i) {
      EXPECT_EQ(c.processor_of(i), c.processor_of(i ^ (1u << k))) << "x" << k;
      const std::uint32_t low = i & ((1u << k) - 1), high = i >> (k + 1);
      EXPECT_EQ(c.processor_of(i), low | (high << k)) << "x" << k << " node " << i;
    }
  }
  EXPECT_THROW((void)sw::Clustering::hypercube(32, 16, {}), sw::ParameterError);
  EXPECT_THROW((void)sw::Clustering::hypercube(32, 16, {5}), sw::ParameterError);
  EXPECT_THROW((void)sw::Clustering::hypercube(32, 8, {1, 1}), sw::ParameterError);
}

TEST(Clustering, TheMostUsedDimensionsAreCollapsedAndTheirMessagesBecomeLocal) {
  // Exchanges along x3 (twice) and x1 (once) of a 32-node hypercube: x3 is used most.
  sw::McProgram p = sw::hypercube_exchange(32, {3, 1}, 2, false);
  p.steps.push_back(p.steps[0]);
  ASSERT_EQ(sw::Clustering::most_used_dimensions(p, 1), std::vector<std::uint32_t>{3});
  EXPECT_EQ(sw::Clustering::most_used_dimensions(p, 2), (std::vector<std::uint32_t>{1, 3}));
  const sw::MappedProgram m = sw::map_program(p, Arch::Omp, sw::Clustering::hypercube(32, 16, {3}));
  EXPECT_TRUE(m.steps[0].ops.empty());  // x3: inside the clusters
  EXPECT_EQ(m.steps[0].local_copies.size(), 32u);
  EXPECT_FALSE(m.steps[1].ops.empty());  // x1: between clusters
}

TEST(Clustering, ATorusByColumnsOrRowsPutsAColumnOrARowOnAProcessor) {
  const sw::Clustering columns = sw::Clustering::torus(12, {4, 3, true});
  const sw::Clustering rows = sw::Clustering::torus(12, {4, 3, false});
  EXPECT_EQ(columns.processors(), 4u);
  EXPECT_EQ(rows.processors(), 3u);
  for (sw::NodeId i = 0; i < 12; ++i) {
    EXPECT_EQ(columns.processor_of(i), i % 4);
    EXPECT_EQ(rows.processor_of(i), i / 4);
  }
  EXPECT_THROW((void)sw::Clustering::torus(16, {4, 3, true}), sw::ParameterError);
}

}  // namespace
}  // namespace orthosim

// ---- the edges a mutation round found unpinned ---------------------------------------------

namespace orthosim {
namespace {

sw::Transfer message(sw::NodeId from, sw::NodeId to, std::uint32_t words) {
  return {from, {to}, false, words, {}};
}

std::vector<const sw::Parcel*> phase_parcels(const sw::MappedStep& step, std::uint32_t phase) {
  std::vector<const sw::Parcel*> out;
  for (const sw::Parcel& parcel : step.parcels) {
    if (parcel.phase == phase) {
      out.push_back(&parcel);
    }
  }
  return out;
}

std::uint32_t phases_of(const sw::MappedStep& step) {
  std::uint32_t phases = 0;
  for (const sw::MappedOp& op : step.ops) {
    phases = std::max(phases, op.phase + 1);
  }
  return phases;
}

// Fig. 11(b) on a 2 x 2 torus by columns, in section 4.3's notation: IWR 1, P(c) writes
// M(r', c) for every r' over its column bus and P(r') reads M(r', 0..1); IWR 2, P(r') writes
// M(r', 0..1) and P(c') reads M(0..1, c'). A north shift stays in the clusters; a step that only
// computes has no communication, and its computes add up per processor.
TEST(Figure11Listing, AnEastShiftIsTwoIwrStepsInTheNotationOfSection43) {
  sw::McProgram p = sw::torus_shift(2, 2, sw::ShiftDirection::East, 1, 1);
  p.steps.push_back(sw::torus_shift(2, 2, sw::ShiftDirection::North, 1, 1).steps[0]);
  sw::ProgramStep compute;
  compute.computes = {{0, sw::Cycle{3}, {}}, {2, sw::Cycle{5}, {}}};  // nodes 0 and 2 on P0
  p.steps.push_back(compute);
  const MappedProgram m = sw::map_program(p, Arch::Omp, sw::Clustering::torus(4, {2, 2, true}),
                                          sw::SyncMode::BusSwitch);
  EXPECT_EQ(listing(m), (std::vector<std::string>{
                            "Step 1: [IWR 1] C7_send((P0 -> M0,0, M1,0), (P1 -> M0,1, M1,1)), "
                            "C7_recv((M0,0, M0,1 -> P0), (M1,0, M1,1 -> P1)), "
                            "[IWR 2] C7_send((P0 -> M0,0, M0,1), (P1 -> M1,0, M1,1)), "
                            "C7_recv((M0,0, M1,0 -> P0), (M0,1, M1,1 -> P1))",
                            "Step 2: (no memory operation)",
                            "Step 3: (no memory operation)",
                        }));
  EXPECT_EQ(sw::program_line(m.steps[2]), "Step 3: (no communication)");
  EXPECT_EQ(m.steps[0].processor_patterns, (std::vector<Pattern>{Pattern::C7, Pattern::C7}));
  std::vector<std::uint64_t> computes;
  for (const sw::Op& op : m.machine.processors[0].ops.decoded()) {
    if (const auto* c = std::get_if<sw::Compute>(&op)) {
      computes.push_back(c->cycles.count());
    }
  }
  EXPECT_EQ(computes, std::vector<std::uint64_t>{3 + 5});
}

// Fig. 11(b) for a diagonal shift (a, b) = (1, 2) of a 3 x 3 torus, clustered by columns and by
// rows: IWR 1 takes to processor r' the datum of cluster c whose destination has in-cluster
// coordinate r'; IWR 2 takes to processor c' the datum for the node (c', r'). The test finds each
// datum's destination in the program itself.
TEST(Figure11Listing, EveryDatumOfADiagonalShiftTravelsTheTwoIwrStepsOfFigure11b) {
  const std::uint32_t n = 3;
  for (const bool by_columns : {true, false}) {
    sw::McProgram p;
    p.name = "diagonal";
    p.nodes = n * n;
    p.steps.resize(1);
    std::map<sw::NodeId, sw::NodeId> destination;
    for (sw::NodeId v = 0; v < n * n; ++v) {
      const std::uint32_t x = v % n, y = v / n;
      const sw::NodeId to = (x + 1) % n + n * ((y + 2) % n);
      p.steps[0].transfers.push_back(message(v, to, 2));
      destination[v] = to;
    }
    // A node's cluster (processor) and its coordinate inside the cluster (Fig. 11(a)).
    const auto cluster = [&](sw::NodeId v) { return by_columns ? v % n : v / n; };
    const auto inside = [&](sw::NodeId v) { return by_columns ? v / n : v % n; };
    const MappedProgram m =
        sw::map_program(p, Arch::Omp, sw::Clustering::torus(n * n, {n, n, by_columns}),
                        sw::SyncMode::BusSwitch);
    const std::string what = by_columns ? "by columns" : "by rows";
    ASSERT_EQ(phases_of(m.steps[0]), 2u) << what;
    const auto first = phase_parcels(m.steps[0], 0), second = phase_parcels(m.steps[0], 1);
    ASSERT_EQ(first.size(), n * n) << what;
    ASSERT_EQ(second.size(), n * n) << what;
    for (const sw::Parcel* parcel : first) {
      const sw::NodeId from = parcel->pieces.at(0).payload.source;
      EXPECT_EQ(parcel->source, cluster(from)) << what;
      EXPECT_EQ(parcel->destination, inside(destination.at(from))) << what;
    }
    for (const sw::Parcel* parcel : second) {
      const sw::NodeId to = destination.at(parcel->pieces.at(0).payload.source);
      EXPECT_EQ(parcel->source, inside(to)) << what;
      EXPECT_EQ(parcel->destination, cluster(to)) << what;
    }
  }
}

// The two IWR steps need every node of an n x n torus on n processors to send one message of
// one length: otherwise the step maps as any other (one phase), and maps at all.
TEST(Figure11Listing, OnlyAWholeSquareShiftOfOneLengthTakesTheTwoIwrSteps) {
  const auto phases = [](const sw::McProgram& p, sw::TorusClusters grid) {
    return phases_of(sw::map_program(p, Arch::Omp, sw::Clustering::torus(p.nodes, grid)).steps[0]);
  };
  EXPECT_EQ(phases(sw::torus_shift(3, 3, sw::ShiftDirection::East, 1, 2), {3, 3, true}), 2u);
  // 4 columns of 2 rows on 4 processors.
  EXPECT_EQ(phases(sw::torus_shift(4, 2, sw::ShiftDirection::East, 1, 2), {4, 2, true}), 1u);
  sw::McProgram lengths = sw::torus_shift(3, 3, sw::ShiftDirection::East, 1, 2);
  lengths.steps[0].transfers[4].words = 3;
  EXPECT_EQ(phases(lengths, {3, 3, true}), 1u);
  sw::McProgram partial = sw::torus_shift(3, 3, sw::ShiftDirection::East, 1, 2);
  partial.steps[0].transfers.resize(3);  // the first row alone
  EXPECT_EQ(phases(partial, {3, 3, true}), 1u);
  // Every node sends one message, all but one a column east: not one shift.
  sw::McProgram mixed = sw::torus_shift(3, 3, sw::ShiftDirection::East, 1, 2);
  sw::McProgram two_east = sw::torus_shift(3, 3, sw::ShiftDirection::East, 2, 2);
  mixed.steps[0].transfers[4] = two_east.steps[0].transfers[4];
  EXPECT_EQ(phases(mixed, {3, 3, true}), 1u);
}

// Producer-consumer sync (section 4.3) is for another processor: in the two IWR steps P(c)
// reads the module M(c, c) it wrote itself, and raises no activate-sync at itself.
TEST(Figure11Listing, AProcessorReadingItsOwnWriteRaisesNoSyncAtItself) {
  const MappedProgram m = sw::map_program(sw::torus_shift(3, 3, sw::ShiftDirection::East, 1, 2),
                                          Arch::Omp, sw::Clustering::torus(9, {3, 3, true}));
  std::size_t syncs = 0;
  for (sw::ProcId p = 0; p < 3; ++p) {
    for (const sw::Op& op : m.machine.processors[p].ops.decoded()) {
      if (const auto* a = std::get_if<sw::ActivateSync>(&op)) {
        EXPECT_FALSE(a->targets.contains(p)) << "P" << p;
        ++syncs;
      } else if (const auto* w = std::get_if<sw::WaitSync>(&op)) {
        EXPECT_NE(w->source, p) << "P" << p << " waits for itself";
      }
    }
  }
  EXPECT_GT(syncs, 0u);
}

// The per-processor fallback of a half that is not one step (mapping.hpp, step 2): on the single
// bus an all-to-all of 3 processors writes each processor's two mailboxes in one access, C3 for a
// broadcast and C4 for personalized messages; every receiver reads its own M(d) twice, C1 each.
TEST(Fig2Listings, TheSingleBusFallsBackToOneVectorWritePerProcessorAllToAll) {
  for (const Pattern pattern : {Pattern::C6, Pattern::C7}) {
    sw::PatternGenOptions o;
    o.nodes = 3;
    o.words = 2;
    const std::string send = pattern == Pattern::C6 ? "C3_send" : "C4_send";
    const std::vector<std::string> expected = {
        "Step 1: " + send + "(P0 -> M1, M2), " + send + "(P1 -> M0, M2), " + send +
        "(P2 -> M0, M1), C1_recv(M1 -> P1), C1_recv(M1 -> P1), C1_recv(M2 -> P2), "
        "C1_recv(M2 -> P2), C1_recv(M0 -> P0), C1_recv(M0 -> P0)"};
    EXPECT_EQ(listing(sw::map_program(sw::generate_pattern(pattern, o), Arch::Bus, 3)), expected)
        << sw::to_string(pattern);
  }
}

// Fig. 6: the C3 write of Fig. 2's Step 3 loads its one payload into one data buffer, which the
// index manipulator replicates; the C4 write of Step 4 loads three.
TEST(Fig2Listings, AReplicatedWriteLoadsOneBuffer) {
  const MappedProgram m = sw::map_program(fig2(), Arch::Omp, 4);
  std::map<std::uint32_t, std::uint32_t> loads;  // per step
  std::uint32_t step = 0;
  for (const sw::Op& op : m.machine.processors[0].ops.decoded()) {
    if (std::holds_alternative<sw::LoadBuffer>(op)) {
      ++loads[step];
    } else if (const auto* mark = std::get_if<sw::StepMark>(&op)) {
      step = mark->step + 1;
    }
  }
  EXPECT_EQ(loads[2], 1u);
  EXPECT_EQ(loads[3], 3u);
}

// Section 4.2: the accesses of one step run at once only on distinct buses and modules. P0
// reaches M(0,1) over RB(0), P1 over CB(1): two buses, one module.
TEST(Vectorizability, TwoProcessorsOnOneModuleAreNotOneStep) {
  const sw::MemoryOrganization omp(Arch::Omp, 4);
  const sw::ModuleId m01 = sw::mailbox(omp, 0, 1);
  EXPECT_EQ(sw::half_shape(omp, {{0, {m01}}, {1, {m01}}}), sw::HalfShape::Multiple);
  EXPECT_EQ(sw::half_shape(omp, {{0, {m01}}, {1, {sw::mailbox(omp, 1, 0)}}}),
            sw::HalfShape::SingleScalar);
}

// What the mapping needs from the system, counted by hand: a broadcast keeps its words once at
// its source and once per destination node; a data buffer holds a local copy and the whole
// parcel between two processors (every message of the pair in the step).
TEST(MappedPrograms, TheNeedsAreTheHandCountedWords) {
  sw::McProgram broadcast;
  broadcast.name = "broadcast";
  broadcast.nodes = 4;
  broadcast.steps.resize(1);
  broadcast.steps[0].transfers.push_back({0, {1, 2, 3}, true, 3, {}});
  // Blocks on 2 processors: nodes 0, 1 on P0 (3 at the source + 3 for node 1), 2, 3 on P1.
  EXPECT_EQ(sw::map_program(broadcast, Arch::Omp, 2).needs.local_words, 6u);
  // One parcel P0 -> P1 of the payload's 3 words in its mailbox M(0,1).
  EXPECT_EQ(sw::map_program(broadcast, Arch::Omp, 2).needs.module_words, 3u);

  sw::McProgram local;
  local.name = "local";
  local.nodes = 4;
  local.steps.resize(1);
  local.steps[0].transfers = {message(0, 1, 9), message(0, 2, 2)};
  EXPECT_EQ(sw::map_program(local, Arch::Omp, 2).needs.buffer_words, 9u);

  sw::McProgram pair;
  pair.name = "pair";
  pair.nodes = 4;
  pair.steps.resize(1);
  pair.steps[0].transfers = {message(0, 2, 3), message(1, 3, 4)};  // both P0 -> P1
  EXPECT_EQ(sw::map_program(pair, Arch::Omp, 2).needs.buffer_words, 3u + 4u);
}

TEST(Clustering, TheMostUsedDimensionsCountWordsAndTieToTheLowerDimension) {
  sw::McProgram p;
  p.name = "dims";
  p.nodes = 8;
  p.steps.resize(1);
  p.steps[0].transfers = {message(0, 1, 1), message(2, 3, 1), message(4, 6, 5)};
  // x0: two 1-word messages; x1: one 5-word message.
  EXPECT_EQ(sw::Clustering::most_used_dimensions(p, 1), std::vector<std::uint32_t>{1});
  p.steps[0].transfers = {message(0, 4, 2), message(0, 1, 2)};  // x2 and x0 tie, x1 unused
  EXPECT_EQ(sw::Clustering::most_used_dimensions(p, 1), std::vector<std::uint32_t>{0});
}

TEST(Clustering, TheGuardsOfTheClusteringsAndTheMapping) {
  EXPECT_EQ(sw::Clustering::blocks(4, 4).description(), "one node per processor");
  EXPECT_EQ(sw::Clustering::blocks(8, 4).description(), "blocks of consecutive nodes");
  try {
    (void)sw::Clustering::hypercube(8, 16, {});
    FAIL() << "8 nodes on 16 processors accepted";
  } catch (const sw::ParameterError& e) {
    EXPECT_NE(std::string(e.what()).find("2^q <= 2^p"), std::string::npos) << e.what();
  }
  const sw::McProgram p = fig2();  // 4 nodes
  EXPECT_THROW((void)sw::map_program(p, Arch::Omp, sw::Clustering::blocks(8, 2)), sw::InputError);
  EXPECT_EQ(sw::map_program(p, Arch::Bus, sw::kMaxProcessors).processors, sw::kMaxProcessors);
  EXPECT_THROW((void)sw::map_program(p, Arch::Bus, sw::kMaxProcessors + 1), sw::ParameterError);
  // A clustering of one processor too many (a torus's 257 columns) is refused as well.
  sw::McProgram wide;
  wide.name = "wide";
  wide.nodes = sw::kMaxProcessors + 1;
  EXPECT_THROW((void)sw::map_program(wide, Arch::Bus,
                                     sw::Clustering::torus(wide.nodes, {wide.nodes, 1, true})),
               sw::ParameterError);
  sw::SystemConfig config;
  config.index_sets = 8;
  sw::fit_config(sw::map_program(p, Arch::Omp, 4).needs, {}, config);
  EXPECT_EQ(config.index_sets, 8u);  // raised where short, never lowered
}

// mapping.hpp, step 1: a processor's parcels form one processor-level broadcast only when every
// one of them carries the same broadcast payloads. Six nodes on three processors (N0, N1 on P0,
// N2, N3 on P1, N4, N5 on P2): N0 broadcasting A to N2 and N4 and N1 broadcasting B to N4 alone
// makes P0 send P1 [A] and P2 [A, B]: two parcels with their own words, no replication.
TEST(MappedPrograms, ABroadcastIsOneProcessorsOnlyWhenEveryParcelCarriesTheSamePayloads) {
  const sw::McProgram program =
      sw::parse_program("nodes 6\nstep\n  bcast 0 -> 2, 4 words 2\n  bcast 1 -> 4 words 3\n",
                        "b.mcp");
  const MappedProgram m = sw::map_program(program, Arch::Omp, 3);
  const std::vector<sw::Parcel>& parcels = m.steps.at(0).parcels;
  ASSERT_EQ(parcels.size(), 2u);
  for (const sw::Parcel& parcel : parcels) {
    EXPECT_FALSE(parcel.broadcast) << "P0 -> P" << parcel.destination;
    EXPECT_EQ(parcel.words, parcel.destination == 1 ? 2u : 5u) << "P" << parcel.destination;
  }
  // The same payloads to both: one broadcast, both parcels marked.
  const MappedProgram same =
      sw::map_program(sw::parse_program("nodes 6\nstep\n  bcast 0 -> 2, 4 words 2\n", "s.mcp"),
                      Arch::Omp, 3);
  ASSERT_EQ(same.steps.at(0).parcels.size(), 2u);
  for (const sw::Parcel& parcel : same.steps.at(0).parcels) {
    EXPECT_TRUE(parcel.broadcast) << "P0 -> P" << parcel.destination;
  }
  // Broadcast payloads, one each, but not the same: P1 gets N0's, P2 gets N1's.
  const MappedProgram different = sw::map_program(
      sw::parse_program("nodes 6\nstep\n  bcast 0 -> 2 words 2\n  bcast 1 -> 4 words 2\n", "d.mcp"),
      Arch::Omp, 3);
  ASSERT_EQ(different.steps.at(0).parcels.size(), 2u);
  for (const sw::Parcel& parcel : different.steps.at(0).parcels) {
    EXPECT_FALSE(parcel.broadcast) << "P0 -> P" << parcel.destination;
  }
}

// mapping.hpp, step 2: personalized messages the classifier splits (a one-to-many C9 from N0 and
// a C1 from N3 into N1) are one many-to-many pattern, C12, when they have one length; of two
// lengths they stay split, since a vector access moves as many words from every module.
TEST(MappedPrograms, SplitPersonalizedMessagesOfOneLengthAreOneManyToManyPattern) {
  const auto patterns = [](std::uint32_t second_length) {
    const std::string text = "nodes 4\nstep\n  send 0 -> 1, 2 words 2\n  send 3 -> 1 words " +
                             std::to_string(second_length) + "\n";
    return sw::map_program(sw::parse_program(text, "p.mcp"), Arch::Omp, 4)
        .steps.at(0)
        .processor_patterns;
  };
  EXPECT_EQ(patterns(2), (std::vector<Pattern>{Pattern::C12}));
  EXPECT_EQ(patterns(3), (std::vector<Pattern>{Pattern::C9, Pattern::C1}));
}

// mapping.hpp, module addresses: the parcels of one access share an address and a span, the
// longest of them; the reader takes the whole span (its padding too). N1 and N2 send N0 2 and 3
// words: P0 reads M(1,0) and M(2,0) in one access of 3 vectors and consumes 3 words of each.
TEST(MappedPrograms, AReadConsumesItsGroupsSpanThePaddingToo) {
  const MappedProgram m = sw::map_program(
      sw::parse_program("nodes 3\nstep\n  send 1 -> 0 words 2\n  send 2 -> 0 words 3\n", "c.mcp"),
      Arch::Omp, 3);
  std::size_t reads = 0;
  for (const sw::Op& op : m.machine.processors[0].ops.decoded()) {
    if (const auto* a = std::get_if<sw::MemoryAccess>(&op);
        a != nullptr && a->direction == Direction::Read) {
      ++reads;
      EXPECT_EQ(a->degree(), 2u);
      EXPECT_EQ(a->vectors, 3u);
      EXPECT_EQ(a->consumed, 3u);
    }
  }
  EXPECT_EQ(reads, 1u);
}

// A hypercube clustering describes itself by the dimensions it collapses, every one named in the
// order given and comma-separated (what `map` prints as the clustering), and a dimension outside
// the hypercube is refused naming the valid ones: a 32-node hypercube has dimensions x0..x4.
TEST(Clustering, AHypercubeClusteringNamesEveryCollapsedDimensionAndRefusalsTheValidOnes) {
  EXPECT_EQ(sw::Clustering::hypercube(8, 2, {2, 0}).description(),
            "hypercube with x2,x0 collapsed");
  EXPECT_EQ(sw::Clustering::hypercube(8, 8, {}).description(), "hypercube, one node per processor");
  try {
    (void)sw::Clustering::hypercube(32, 16, {5});
    FAIL() << "x5 of a 32-node hypercube accepted";
  } catch (const sw::ParameterError& e) {
    EXPECT_NE(std::string(e.what()).find("expected distinct dimensions x0..x4, found x5"),
              std::string::npos)
        << e.what();
  }
}

// The index sets a processor loads are the distinct slot orders of its accesses (sw/machine's
// IndexSet: per slot, the buffer it takes), and the mapping needs as many as the processor with
// the most. Four nodes on the 4-processor OMP, P0 writing in three steps: 0 -> 1 on one slot
// ({0}); a broadcast 0 -> 1, 2, 3 from one replicated buffer ({0, 0, 0}); a scatter 0 -> 1, 2, 3,
// a buffer per slot ({0, 1, 2}). Three at P0; each reader reads one slot in order ({0}), one.
// A system short of them is raised to three.
TEST(MappedPrograms, TheIndexSetsNeededAreTheMostDistinctSlotOrdersOfOneProcessor) {
  sw::McProgram p;
  p.name = "index-sets";
  p.nodes = 4;
  p.steps.resize(3);
  p.steps[0].transfers = {message(0, 1, 2)};
  p.steps[1].transfers = {{0, {1, 2, 3}, true, 2, {}}};
  p.steps[2].transfers = {message(0, 1, 2), message(0, 2, 2), message(0, 3, 2)};
  const sw::MappedProgram m = sw::map_program(p, Arch::Omp, 4);
  ASSERT_EQ(m.processors, 4u);
  EXPECT_EQ(m.machine.processors[0].index_sets,
            (std::vector<sw::IndexSet>{{0}, {0, 0, 0}, {0, 1, 2}}));
  for (sw::ProcId reader = 1; reader < 4; ++reader) {
    EXPECT_EQ(m.machine.processors[reader].index_sets, std::vector<sw::IndexSet>{{0}}) << reader;
  }
  EXPECT_EQ(m.needs.index_sets, 3u);
  sw::SystemConfig config;
  config.index_sets = 1;
  sw::fit_config(m.needs, {}, config);
  EXPECT_EQ(config.index_sets, 3u);
}

}  // namespace
}  // namespace orthosim
