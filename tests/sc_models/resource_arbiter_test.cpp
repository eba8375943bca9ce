// ResourceArbiter alone: grantees that hold what they are granted for a fixed number of cycles and
// release it, driven by a script of requests at given cycles. Every grant cycle is computed here
// by hand from the arbiter's rules: first come, first served per resource, ties to the lower
// processor id, and no request overtakes an earlier waiting one on a resource both want.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <systemc>
#include <utility>
#include <vector>

#include "sc_models/kernel/clock_domain.hpp"
#include "sc_models/multiprocessor/interfaces.hpp"
#include "sc_models/multiprocessor/resource_arbiter.hpp"
#include "tests/support/block_bench.hpp"
#include "traces/stats.hpp"

namespace orthosim::sc {
namespace {

using testing_support::Script;
using testing_support::stat;

constexpr std::uint32_t kPeriodNs = 10;

/// Holds what it is granted for `hold` cycles, then releases it; records every grant cycle.
class HoldingGrantee : public sc_core::sc_module, public Grantee {
 public:
  SC_HAS_PROCESS(HoldingGrantee);
  HoldingGrantee(const sc_core::sc_module_name& name, ResourceArbiter& arbiter,
                 const ClockDomain& clock, Cycle hold)
      : sc_core::sc_module(name), arbiter_(arbiter), clock_(clock), hold_(hold) {
    SC_METHOD(release);
    sensitive << ev_release_;
    dont_initialize();
  }

  void ask(sw::ProcId id, std::vector<ResourceId> resources) {
    held_ = resources;
    arbiter_.request(id, std::move(resources), *this);
  }
  void granted(Cycle now) override {
    grants.push_back(now.count());
    ev_release_.notify(clock_.delay(hold_));
  }
  [[nodiscard]] std::string grantee_name() const override { return name(); }

  std::vector<std::uint64_t> grants;

 private:
  void release() { arbiter_.release(held_); }

  ResourceArbiter& arbiter_;
  const ClockDomain& clock_;
  Cycle hold_;
  std::vector<ResourceId> held_;
  sc_core::sc_event ev_release_;
};

TEST(ResourceArbiterBlock, SameCycleRequestsGoToTheLowerIdAndTheOtherWaitsForTheRelease) {
  const ClockDomain clock(kPeriodNs);
  traces::StatsRegistry stats;
  ResourceArbiter arbiter("arb", {"R0", "R1", "R2"}, clock, stats);
  const Cycle hold{5};
  HoldingGrantee p0("p0", arbiter, clock, hold);
  HoldingGrantee p1("p1", arbiter, clock, hold);
  // Both ask in cycle 2 for sets sharing R1; P1 asks first in program order, P0 wins the tie.
  Script script("script", [&] {
    sc_core::wait(clock.delay(Cycle{2}));
    p1.ask(1, {0, 1});
    p0.ask(0, {1, 2});
  });
  sc_core::sc_start();
  const std::uint64_t start = 2;
  EXPECT_EQ(p0.grants, (std::vector<std::uint64_t>{start}));
  EXPECT_EQ(p1.grants, (std::vector<std::uint64_t>{start + hold.count()}));
  EXPECT_EQ(stat(stats, "arb.grants"), 2u);
  EXPECT_EQ(stat(stats, "arb.conflicts"), 1u);
  EXPECT_EQ(stat(stats, "arb.conflict_wait_cycles"), hold.count());
}

TEST(ResourceArbiterBlock, DisjointRequestsAreGrantedInTheCycleTheyArrive) {
  const ClockDomain clock(kPeriodNs);
  traces::StatsRegistry stats;
  ResourceArbiter arbiter("arb", {"R0", "R1"}, clock, stats);
  HoldingGrantee p0("p0", arbiter, clock, Cycle{7});
  HoldingGrantee p1("p1", arbiter, clock, Cycle{7});
  Script script("script", [&] {
    sc_core::wait(clock.delay(Cycle{1}));
    p0.ask(0, {0});
    sc_core::wait(clock.delay(Cycle{2}));
    p1.ask(1, {1});
  });
  sc_core::sc_start();
  EXPECT_EQ(p0.grants, (std::vector<std::uint64_t>{1}));
  EXPECT_EQ(p1.grants, (std::vector<std::uint64_t>{3}));
  EXPECT_EQ(stat(stats, "arb.conflicts"), 0u);
}

TEST(ResourceArbiterBlock, ALaterRequestNeverOvertakesAnEarlierWaitingOneOnASharedResource) {
  const ClockDomain clock(kPeriodNs);
  traces::StatsRegistry stats;
  ResourceArbiter arbiter("arb", {"R0", "R1"}, clock, stats);
  const Cycle hold0{4};
  const Cycle hold2{3};
  HoldingGrantee p0("p0", arbiter, clock, hold0);
  HoldingGrantee p1("p1", arbiter, clock, Cycle{1});
  HoldingGrantee p2("p2", arbiter, clock, hold2);
  // P0 holds R0 from cycle 0; P2 (cycle 1) waits for R0 and R1; P1 (cycle 2) wants only R1,
  // which is free, but P2 asked for it first: P1 follows P2's release.
  Script script("script", [&] {
    p0.ask(0, {0});
    sc_core::wait(clock.delay(Cycle{1}));
    p2.ask(2, {0, 1});
    sc_core::wait(clock.delay(Cycle{1}));
    p1.ask(1, {1});
  });
  sc_core::sc_start();
  const std::uint64_t p2_grant = hold0.count();
  EXPECT_EQ(p0.grants, (std::vector<std::uint64_t>{0}));
  EXPECT_EQ(p2.grants, (std::vector<std::uint64_t>{p2_grant}));
  EXPECT_EQ(p1.grants, (std::vector<std::uint64_t>{p2_grant + hold2.count()}));
  // Waits: P2 from cycle 1 to its grant, P1 from cycle 2 to its grant.
  EXPECT_EQ(stat(stats, "arb.conflicts"), 2u);
  EXPECT_EQ(stat(stats, "arb.conflict_wait_cycles"),
            (p2_grant - 1) + (p2_grant + hold2.count() - 2));
}

// A stopped run says what each waiting request waits for: its requester's grantee, its arrival,
// every resource it asked for and who holds the held ones. A processor without a waiting request
// waits for nothing here.
TEST(ResourceArbiterBlock, AWaitingRequestIsDescribedWithTheHoldersOfWhatItWaitsFor) {
  const ClockDomain clock(kPeriodNs);
  traces::StatsRegistry stats;
  ResourceArbiter arbiter("arb", {"R0", "R1", "R2"}, clock, stats);
  HoldingGrantee p0("p0", arbiter, clock, Cycle{10});
  HoldingGrantee p1("p1", arbiter, clock, Cycle{10});
  std::vector<std::string> said;
  Script script("script", [&] {
    p0.ask(0, {2});
    sc_core::wait(clock.delay(Cycle{1}));
    p1.ask(1, {1, 2});
    sc_core::wait(clock.delay(Cycle{2}));
    said = {arbiter.describe_wait(0), arbiter.describe_wait(1)};
  });
  sc_core::sc_start();
  EXPECT_EQ(said, (std::vector<std::string>{"", "p1 waits since cycle 1 for R1 R2 (held by p0)"}));
}

// Loading a program after a deadlock resets the arbiter: what was held is free and what waited is
// forgotten, so a new request is granted in the cycle it arrives (not the old waiting one).
TEST(ResourceArbiterBlock, AResetFreesEveryResourceAndForgetsTheWaitingRequests) {
  const ClockDomain clock(kPeriodNs);
  traces::StatsRegistry stats;
  ResourceArbiter arbiter("arb", {"R0", "R1"}, clock, stats);
  HoldingGrantee p0("p0", arbiter, clock, Cycle{1000});  // never releases within the run
  HoldingGrantee p1("p1", arbiter, clock, Cycle{3});
  HoldingGrantee p2("p2", arbiter, clock, Cycle{3});
  Script script("script", [&] {
    p0.ask(0, {0});
    sc_core::wait(clock.delay(Cycle{1}));
    p1.ask(1, {0, 1});
    sc_core::wait(clock.delay(Cycle{1}));
    arbiter.reset();
    p2.ask(2, {0});
  });
  sc_core::sc_start(clock.delay(Cycle{50}));
  EXPECT_EQ(p0.grants, (std::vector<std::uint64_t>{0}));
  EXPECT_EQ(p1.grants, (std::vector<std::uint64_t>{}));
  EXPECT_EQ(p2.grants, (std::vector<std::uint64_t>{2}));
}

// A resource id past the arbiter's list and the release of a free resource are errors of the
// caller, refused by name.
TEST(ResourceArbiterBlock, AnUnknownResourceAndTheReleaseOfAFreeOneAreRefused) {
  const ClockDomain clock(kPeriodNs);
  traces::StatsRegistry stats;
  ResourceArbiter arbiter("arb", {"R0", "R1"}, clock, stats);
  HoldingGrantee p0("p0", arbiter, clock, Cycle{1});
  std::vector<std::string> refused;
  Script script("script", [&] {
    sc_core::wait(clock.delay(Cycle{4}));
    try {
      p0.ask(0, {1, 2});
    } catch (const std::logic_error& e) {
      refused.emplace_back(e.what());
    }
    try {
      arbiter.release({1});
    } catch (const std::logic_error& e) {
      refused.emplace_back(e.what());
    }
  });
  sc_core::sc_start();
  EXPECT_EQ(refused, (std::vector<std::string>{"arb: no resource 2",
                                               "arb: release of free resource R1 at cycle 4"}));
  EXPECT_TRUE(p0.grants.empty());
}

}  // namespace
}  // namespace orthosim::sc
