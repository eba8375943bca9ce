// SyncUnit alone: processors are stand-ins that record when they are resumed and with which delay.
// A rendezvous of a group releases every member, the last arrival too, with the delay it was given
// (gamma for the IWR bus switch, [PH91] section 4.3), and not before the last member arrives; an
// activate-sync token is consumed once, and a waiting consumer resumes when it is delivered.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "sc_models/multiprocessor/interfaces.hpp"
#include "sc_models/multiprocessor/sync_unit.hpp"
#include "tests/support/block_bench.hpp"
#include "traces/stats.hpp"

namespace orthosim::sc {
namespace {

using testing_support::stat;

/// Records the delay of every resumption.
class RecordingProcessor : public Resumable {
 public:
  void resume_after(Cycle delay) override { resumptions.push_back(delay.count()); }
  std::vector<std::uint64_t> resumptions;
};

/// A sync unit of n processors with its stand-ins attached.
struct Bench {
  explicit Bench(std::uint32_t n) : unit("sync", n, stats), processors(n) {
    std::vector<Resumable*> attached;
    for (RecordingProcessor& p : processors) {
      attached.push_back(&p);
    }
    unit.attach(attached);
  }
  traces::StatsRegistry stats;
  SyncUnit unit;
  std::vector<RecordingProcessor> processors;
};

TEST(SyncUnitBlock, ABarrierReleasesEveryMemberWithItsDelayOnlyWhenTheLastArrives) {
  Bench b(4);
  const sw::ProcSet group({0, 1, 3});
  const Cycle sync{2};
  b.unit.arrive(Rendezvous::Barrier, 3, group, sync);
  b.unit.arrive(Rendezvous::Barrier, 0, group, sync);
  for (const RecordingProcessor& p : b.processors) {
    EXPECT_TRUE(p.resumptions.empty());
  }
  EXPECT_EQ(b.unit.describe_wait(0), "waits at barrier " + group.to_string() + " for P1");
  b.unit.arrive(Rendezvous::Barrier, 1, group, sync);
  for (sw::ProcId p : group.members()) {
    EXPECT_EQ(b.processors[p].resumptions, (std::vector<std::uint64_t>{sync.count()})) << p;
  }
  EXPECT_TRUE(b.processors[2].resumptions.empty());  // not a member
  EXPECT_EQ(b.unit.describe_wait(0), "");
  EXPECT_EQ(stat(b.stats, "sync.barriers"), 1u);
  EXPECT_EQ(stat(b.stats, "sync.bus_switches"), 0u);
}

TEST(SyncUnitBlock, ABusSwitchAndABarrierOfOneGroupAreSeparateRendezvous) {
  Bench b(2);
  const sw::ProcSet group({0, 1});
  const Cycle gamma{8};
  b.unit.arrive(Rendezvous::BusSwitch, 0, group, gamma);
  b.unit.arrive(Rendezvous::Barrier, 1, group, Cycle{2});
  EXPECT_TRUE(b.processors[0].resumptions.empty());
  EXPECT_TRUE(b.processors[1].resumptions.empty());
  b.unit.arrive(Rendezvous::BusSwitch, 1, group, gamma);
  EXPECT_EQ(b.processors[0].resumptions, (std::vector<std::uint64_t>{gamma.count()}));
  EXPECT_EQ(b.processors[1].resumptions, (std::vector<std::uint64_t>{gamma.count()}));
  EXPECT_EQ(stat(b.stats, "sync.bus_switches"), 1u);
  EXPECT_EQ(stat(b.stats, "sync.barriers"), 0u);
}

TEST(SyncUnitBlock, ATokenIsConsumedOnceAndAWaitingConsumerResumesOnDelivery) {
  Bench b(3);
  b.unit.deliver(0, sw::ProcSet({1, 2}));
  EXPECT_TRUE(b.unit.try_consume(1, 0));
  EXPECT_FALSE(b.unit.try_consume(1, 0));
  EXPECT_FALSE(b.unit.try_consume(1, 2));  // a token names its source
  // P1 waits for a second token from P0 and resumes in the delta of its delivery.
  b.unit.wait(1, 0);
  EXPECT_EQ(b.unit.describe_wait(1), "waits for activate-sync from P0");
  EXPECT_TRUE(b.processors[1].resumptions.empty());
  b.unit.deliver(0, sw::ProcSet({1}));
  EXPECT_EQ(b.processors[1].resumptions, (std::vector<std::uint64_t>{0}));
  EXPECT_TRUE(b.unit.try_consume(1, 0));
  EXPECT_TRUE(b.unit.try_consume(2, 0));  // P2's first token is still there
  EXPECT_EQ(stat(b.stats, "sync.syncs_delivered"), 3u);
}

// A member waiting at a rendezvous is told every member still missing, in increasing order: of
// the bus switch group {0,1,2,3}, P2 alone arrived waits for the other three; once P0 arrives too,
// for P1 and P3.
TEST(SyncUnitBlock, AWaitingMemberIsToldEveryMemberStillMissing) {
  Bench b(4);
  const sw::ProcSet group = sw::ProcSet::all(4);
  const Cycle gamma{8};
  b.unit.arrive(Rendezvous::BusSwitch, 2, group, gamma);
  EXPECT_EQ(b.unit.describe_wait(2),
            "waits at IWR bus switch " + group.to_string() + " for P0, P1, P3");
  b.unit.arrive(Rendezvous::BusSwitch, 0, group, gamma);
  EXPECT_EQ(b.unit.describe_wait(0),
            "waits at IWR bus switch " + group.to_string() + " for P1, P3");
  EXPECT_EQ(b.unit.describe_wait(1), "");  // not arrived: waits for nothing here
}

}  // namespace
}  // namespace orthosim::sc
