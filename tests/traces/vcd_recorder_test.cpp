// The network signals of the VCD recorder (docs/traces.md, "Buffer occupancy in the waveform"):
// one `occupancy` signal per router output port and virtual channel, in the scopes
// <net> > r(x,y) > <port> > vc<k>, 0 at the start, changing at cycle x clock period, the last of
// several same-cycle values written once. Also through the fan-out, which must translate the
// channel ids. Files are read back with the independent tests/support/vcd_reader.hpp and, for the
// scope tree, line by line here.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/vcd_reader.hpp"
#include "traces/fanout_recorder.hpp"
#include "traces/vcd_recorder.hpp"

namespace orthosim {
namespace {

namespace fs = std::filesystem;
using testing_support::VcdReader;
using traces::Activity;
using traces::Cycle;
using traces::SourceKind;
using Changes = std::vector<std::pair<std::uint64_t, std::uint64_t>>;

constexpr std::uint32_t kPeriod = 50;  // ns per cycle

class VcdRecorderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("orthosim_vcd_recorder_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  [[nodiscard]] std::string path(const std::string& name) const { return (dir_ / name).string(); }

  fs::path dir_;
};

/// Every variable of a VCD as "scope>scope>...>name width", from its $scope/$upscope nesting.
std::vector<std::string> declared(const std::string& file) {
  std::ifstream in(file);
  std::vector<std::string> open;
  std::vector<std::string> out;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string head;
    words >> head;
    if (head == "$scope") {
      std::string kind, name;
      words >> kind >> name;
      open.push_back(name);
    } else if (head == "$upscope") {
      open.pop_back();
    } else if (head == "$var") {
      std::string kind, width, code, name;
      words >> kind >> width >> code >> name;
      std::string joined;
      for (const std::string& s : open) {
        joined += s + ">";
      }
      out.push_back(joined + name + " " + width);
    }
  }
  return out;
}

std::size_t count_lines(const std::string& file, const std::string& wanted) {
  std::ifstream in(file);
  std::size_t n = 0;
  std::string line;
  while (std::getline(in, line)) {
    n += line == wanted ? 1 : 0;
  }
  return n;
}

TEST_F(VcdRecorderTest, OneOccupancySignalPerPortAndVirtualChannelInTheBlockHierarchy) {
  const std::string file = path("net.vcd");
  {
    traces::VcdRecorder r(file, kPeriod);
    r.register_source("torus.node0", SourceKind::Processor);
    const auto x = r.register_source("torus.r(2,1).x+", SourceKind::Channel);
    r.channel_vcs(x, 2);
    const auto y = r.register_source("torus.r(2,1).y-", SourceKind::Channel);
    r.channel_vcs(y, 2);
    const auto mesh = r.register_source("torus.r(0,0).x+", SourceKind::Channel);
    r.channel_vcs(mesh, 1);
    r.finish(Cycle{1});
  }
  const std::vector<std::string> vars = declared(file);
  const std::vector<std::string> expected = {
      "torus>node0>op 4",
      "torus>node0>pc 16",
      "torus>r(2,1)>x+>vc0>occupancy 11",
      "torus>r(2,1)>x+>vc1>occupancy 11",
      "torus>r(2,1)>y->vc0>occupancy 11",
      "torus>r(2,1)>y->vc1>occupancy 11",
      "torus>r(0,0)>x+>vc0>occupancy 11",
  };
  EXPECT_EQ(vars, expected);
  // Both ports of r(2,1) sit in one scope of it, so GTKWave lists the router once.
  EXPECT_EQ(count_lines(file, "$scope module r(2,1) $end"), 1u);
  EXPECT_EQ(count_lines(file, "$scope module torus $end"), 1u);
  const VcdReader v(file);
  for (const char* s : {"torus.r(2,1).x+.vc0.occupancy", "torus.r(2,1).y-.vc1.occupancy",
                        "torus.r(0,0).x+.vc0.occupancy"}) {
    EXPECT_EQ(v.changes(s), (Changes{{0, 0}})) << s;
  }
}

TEST_F(VcdRecorderTest, OccupancyChangesAtCycleTimesLastSameCycleValueOnce) {
  const std::string file = path("occ.vcd");
  {
    traces::VcdRecorder r(file, kPeriod);
    const auto node = r.register_source("torus.node0", SourceKind::Processor);
    const auto x = r.register_source("torus.r(2,1).x+", SourceKind::Channel);
    r.channel_vcs(x, 2);
    const auto y = r.register_source("torus.r(2,1).y-", SourceKind::Channel);
    r.channel_vcs(y, 2);
    r.activity(Cycle{0}, node, Activity::Compute, 0);
    r.channel_occupancy(Cycle{3}, x, 0, 1);
    // A flit in and one out in one cycle: back to the value it had, so nothing to write at 4.
    r.channel_occupancy(Cycle{4}, x, 0, 2);
    r.channel_occupancy(Cycle{4}, x, 0, 1);
    // The network announces cycle 5's buffers in cycle 4, before the nodes' activity of cycle 4.
    r.channel_occupancy(Cycle{5}, x, 0, 2);
    r.activity(Cycle{4}, node, Activity::WaitMessage, 1);
    r.channel_occupancy(Cycle{5}, x, 1, 1);
    r.channel_occupancy(Cycle{5}, x, 0, 3);
    r.channel_occupancy(Cycle{7}, x, 0, 0);
    r.channel_occupancy(Cycle{8}, x, 1, 1024);  // the deepest buffer --buffers accepts
    r.channel_occupancy(Cycle{9}, x, 1, 0);
    r.finish(Cycle{10});
  }
  const VcdReader v(file);
  EXPECT_EQ(v.changes("torus.r(2,1).x+.vc0.occupancy"),
            (Changes{{0, 0}, {3 * kPeriod, 1}, {5 * kPeriod, 3}, {7 * kPeriod, 0}}));
  EXPECT_EQ(v.changes("torus.r(2,1).x+.vc1.occupancy"),
            (Changes{{0, 0}, {5 * kPeriod, 1}, {8 * kPeriod, 1024}, {9 * kPeriod, 0}}));
  EXPECT_EQ(v.changes("torus.r(2,1).y-.vc0.occupancy"), (Changes{{0, 0}}));
  EXPECT_EQ(v.changes("torus.r(2,1).y-.vc1.occupancy"), (Changes{{0, 0}}));
  EXPECT_EQ(v.changes("torus.node0.op"),
            (Changes{{0, 0},
                     {0, static_cast<std::uint64_t>(Activity::Compute)},
                     {4 * kPeriod, static_cast<std::uint64_t>(Activity::WaitMessage)}}));
  EXPECT_EQ(v.end_time(), 10 * kPeriod);
}

TEST_F(VcdRecorderTest, VirtualChannelsAfterTheFirstChangeAreRejected) {
  traces::VcdRecorder r(path("late.vcd"), kPeriod);
  const auto x = r.register_source("mesh.r(0,0).x+", SourceKind::Channel);
  r.channel_vcs(x, 1);
  r.channel_occupancy(Cycle{1}, x, 0, 1);
  EXPECT_THROW(r.channel_vcs(x, 2), std::logic_error);
}

TEST_F(VcdRecorderTest, FanoutTranslatesChannelIds) {
  // The waveform already knows a source, so its ids are one above the fan-out's.
  const std::string file = path("fan.vcd");
  {
    traces::VcdRecorder vcd(file, kPeriod);
    vcd.register_source("omp.p0", SourceKind::Processor);
    traces::FanoutRecorder fan({&vcd});
    const auto a = fan.register_source("hypercube.r(0,0,1).d0", SourceKind::Channel);
    fan.channel_vcs(a, 1);
    const auto b = fan.register_source("hypercube.r(0,0,1).d1", SourceKind::Channel);
    fan.channel_vcs(b, 2);
    fan.channel_occupancy(Cycle{2}, b, 1, 1);
    fan.channel_occupancy(Cycle{3}, a, 0, 2);
    vcd.finish(Cycle{4});
  }
  EXPECT_EQ(declared(file), (std::vector<std::string>{"omp>p0>op 4", "omp>p0>pc 16",
                                                      "hypercube>r(0,0,1)>d0>vc0>occupancy 11",
                                                      "hypercube>r(0,0,1)>d1>vc0>occupancy 11",
                                                      "hypercube>r(0,0,1)>d1>vc1>occupancy 11"}));
  const VcdReader v(file);
  EXPECT_EQ(v.changes("hypercube.r(0,0,1).d0.vc0.occupancy"), (Changes{{0, 0}, {3 * kPeriod, 2}}));
  EXPECT_EQ(v.changes("hypercube.r(0,0,1).d1.vc0.occupancy"), (Changes{{0, 0}}));
  EXPECT_EQ(v.changes("hypercube.r(0,0,1).d1.vc1.occupancy"), (Changes{{0, 0}, {2 * kPeriod, 1}}));
}

// An access on a bus, recorded through the calls the models make, against docs/waveforms.md's
// table: every signal's width, and each value at the cycle it is announced for x 50 ns.
TEST_F(VcdRecorderTest, AnAccessDrivesTheDocumentedSignals) {
  const std::string file = path("access.vcd");
  const std::vector<std::uint32_t> slots = {5, 6};
  {
    traces::VcdRecorder r(file, kPeriod);
    const auto p = r.register_source("omp.p2", SourceKind::Processor);
    const auto bus = r.register_source("omp.rb3", SourceKind::Bus);
    const auto bc = r.register_source("omp.bc2", SourceKind::BusController);
    r.activity(Cycle{1}, p, Activity::Write, 7);
    traces::AccessTrace a;
    a.mode = traces::BusMode::Row;
    a.bus = bus;
    a.bus_index = 3;
    a.master = 2;
    a.write = true;
    a.slots = &slots;
    r.access_begin(Cycle{2}, bc, a);
    // Two words back to back (cycles 4 and 5), one cycle each: valid stays high in between.
    r.beat(Cycle{4}, Cycle{1}, bc, a, 5, 0x100, 0xABCD);
    r.beat(Cycle{5}, Cycle{1}, bc, a, 6, 0x101, 7);
    r.access_end(Cycle{7}, bc, a);
    r.activity(Cycle{8}, p, Activity::Idle, 8);
    r.finish(Cycle{9});
  }
  EXPECT_EQ(declared(file),
            (std::vector<std::string>{"omp>p2>op 4", "omp>p2>pc 16", "omp>rb3>busy 1",
                                      "omp>rb3>master 16", "omp>bc2>mode 2", "omp>bc2>bus 16",
                                      "omp>bc2>rw 1", "omp>bc2>sel 16", "omp>bc2>addr 32",
                                      "omp>bc2>data 32", "omp>bc2>valid 1"}));
  const VcdReader v(file);
  const auto write_code = static_cast<std::uint64_t>(Activity::Write);
  EXPECT_EQ(v.changes("omp.p2.op"), (Changes{{0, 0}, {1 * kPeriod, write_code}, {8 * kPeriod, 0}}));
  EXPECT_EQ(v.changes("omp.p2.pc"), (Changes{{0, 0}, {1 * kPeriod, 7}, {8 * kPeriod, 8}}));
  EXPECT_EQ(v.changes("omp.rb3.busy"), (Changes{{0, 0}, {2 * kPeriod, 1}, {7 * kPeriod, 0}}));
  EXPECT_EQ(v.changes("omp.rb3.master"), (Changes{{0, 0}, {2 * kPeriod, 2}}));
  EXPECT_EQ(v.changes("omp.bc2.mode"), (Changes{{0, 0}, {2 * kPeriod, 1}, {7 * kPeriod, 0}}));
  EXPECT_EQ(v.changes("omp.bc2.bus"), (Changes{{0, 0}, {2 * kPeriod, 3}}));
  EXPECT_EQ(v.changes("omp.bc2.rw"), (Changes{{0, 0}, {2 * kPeriod, 1}}));
  EXPECT_EQ(v.changes("omp.bc2.sel"), (Changes{{0, 0}, {4 * kPeriod, 5}, {5 * kPeriod, 6}}));
  EXPECT_EQ(v.changes("omp.bc2.addr"),
            (Changes{{0, 0}, {4 * kPeriod, 0x100}, {5 * kPeriod, 0x101}}));
  EXPECT_EQ(v.changes("omp.bc2.data"), (Changes{{0, 0}, {4 * kPeriod, 0xABCD}, {5 * kPeriod, 7}}));
  EXPECT_EQ(v.changes("omp.bc2.valid"), (Changes{{0, 0}, {4 * kPeriod, 1}, {6 * kPeriod, 0}}));
}

// docs/waveforms.md: the header carries the clock period, `$comment clock-ns N $end`.
TEST_F(VcdRecorderTest, TheHeaderCarriesTheClockPeriod) {
  const std::string file = path("clock.vcd");
  {
    traces::VcdRecorder r(file, kPeriod);
    r.register_source("omp.p0", SourceKind::Processor);
    r.finish(Cycle{1});
  }
  EXPECT_EQ(count_lines(file, "$comment clock-ns " + std::to_string(kPeriod) + " $end"), 1u);
}

// An occupancy for cycle 0 has no earlier cycle to close: the changes announced for later cycles
// stay open to earlier announcements.
TEST_F(VcdRecorderTest, AnOccupancyAtCycleZeroClosesNoLaterCycle) {
  const std::string file = path("zero.vcd");
  {
    traces::VcdRecorder r(file, kPeriod);
    const auto p = r.register_source("mesh.node0", SourceKind::Processor);
    const auto x = r.register_source("mesh.r(0,0).x+", SourceKind::Channel);
    r.channel_vcs(x, 1);
    r.channel_occupancy(Cycle{6}, x, 0, 2);  // announced early, as a beat's end is
    r.channel_occupancy(Cycle{0}, x, 0, 1);
    EXPECT_NO_THROW(r.activity(Cycle{3}, p, Activity::Compute, 0));
    r.finish(Cycle{8});
  }
  const VcdReader v(file);
  EXPECT_EQ(v.changes("mesh.r(0,0).x+.vc0.occupancy"), (Changes{{0, 0}, {0, 1}, {6 * kPeriod, 2}}));
  EXPECT_EQ(v.at("mesh.node0.op", 3 * kPeriod), static_cast<std::uint64_t>(Activity::Compute));
}

// The network announces cycle c + 1's buffers during cycle c, before the nodes' activity of c: the
// cycle c stays open, so the file is the same as if the activity had come first.
TEST_F(VcdRecorderTest, NextCyclesOccupancyLeavesTheCurrentCycleOpen) {
  const auto record = [&](const std::string& file, bool network_first) {
    traces::VcdRecorder r(file, kPeriod);
    const auto p = r.register_source("mesh.node0", SourceKind::Processor);
    const auto x = r.register_source("mesh.r(0,0).x+", SourceKind::Channel);
    r.channel_vcs(x, 1);
    r.channel_occupancy(Cycle{4}, x, 0, 1);
    if (network_first) {
      r.channel_occupancy(Cycle{5}, x, 0, 2);
    }
    r.activity(Cycle{4}, p, Activity::Compute, 3);
    if (!network_first) {
      r.channel_occupancy(Cycle{5}, x, 0, 2);
    }
    r.finish(Cycle{6});
  };
  record(path("network_first.vcd"), true);
  record(path("nodes_first.vcd"), false);
  const auto slurp = [](const std::string& file) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  };
  const std::string network_first = slurp(path("network_first.vcd"));
  ASSERT_FALSE(network_first.empty());
  EXPECT_EQ(network_first, slurp(path("nodes_first.vcd")));
}

// The GTKWave save file beside the waveform (docs/waveforms.md): per system, in the order the
// systems first appear, its buses, processors and bus controllers, then each router with its ports,
// whatever order the blocks were registered in; each group's signals in the order of their blocks;
// bits shown in binary and vectors in decimal (GTKWave's flags, its analyzer.h: TR_RJUSTIFY 0x20
// with TR_BIN 0x08 is @28, with TR_DEC 0x04 is @24).
TEST_F(VcdRecorderTest, TheSaveFileGroupsPerSystemThenKindInBlockOrder) {
  {
    traces::VcdRecorder r(path("two.vcd"), kPeriod);
    r.register_source("omp.p0", SourceKind::Processor);
    r.register_source("omp.rb0", SourceKind::Bus);
    r.register_source("crossbar.p0", SourceKind::Processor);
    r.register_source("omp.bc0", SourceKind::BusController);
    r.register_source("crossbar.b0", SourceKind::Bus);
    r.register_source("omp.p1", SourceKind::Processor);
    for (const char* port :
         {"torus.r(0,0).x+", "torus.node0", "torus.r(1,0).x+", "torus.r(0,0).y+"}) {
      const bool node = std::string(port) == "torus.node0";
      const auto id = r.register_source(port, node ? SourceKind::Processor : SourceKind::Channel);
      if (!node) {
        r.channel_vcs(id, 1);
      }
    }
    r.finish(Cycle{1});
  }
  // (group, [flag, signal]...) in file order.
  std::vector<std::pair<std::string, std::vector<std::string>>> groups;
  std::ifstream in(path("two.gtkw"));
  std::string line;
  std::string flag;
  bool in_group = false;
  while (std::getline(in, line)) {
    if (line == "@800200" || line == "@1000200") {
      std::string name;
      std::getline(in, name);
      in_group = line == "@800200";
      if (in_group) {
        groups.push_back({name.substr(1), {}});
      }
    } else if (line[0] == '@') {
      flag = line;
    } else if (in_group) {
      groups.back().second.push_back(flag + " " + line);
    }
  }
  const std::string bit = "@28 ";
  const std::string vector = "@24 ";
  const std::vector<std::pair<std::string, std::vector<std::string>>> expected = {
      {"omp buses", {bit + "omp.rb0.busy", vector + "omp.rb0.master[15:0]"}},
      {"omp processors",
       {vector + "omp.p0.op[3:0]", vector + "omp.p0.pc[15:0]", vector + "omp.p1.op[3:0]",
        vector + "omp.p1.pc[15:0]"}},
      {"omp bus controllers",
       {vector + "omp.bc0.mode[1:0]", vector + "omp.bc0.bus[15:0]", bit + "omp.bc0.rw",
        vector + "omp.bc0.sel[15:0]", vector + "omp.bc0.addr[31:0]", vector + "omp.bc0.data[31:0]",
        bit + "omp.bc0.valid"}},
      {"crossbar buses", {bit + "crossbar.b0.busy", vector + "crossbar.b0.master[15:0]"}},
      {"crossbar processors", {vector + "crossbar.p0.op[3:0]", vector + "crossbar.p0.pc[15:0]"}},
      {"torus processors", {vector + "torus.node0.op[3:0]", vector + "torus.node0.pc[15:0]"}},
      {"torus.r(0,0)",
       {vector + "torus.r(0,0).x+.vc0.occupancy[10:0]",
        vector + "torus.r(0,0).y+.vc0.occupancy[10:0]"}},
      {"torus.r(1,0)", {vector + "torus.r(1,0).x+.vc0.occupancy[10:0]"}},
  };
  EXPECT_EQ(groups, expected);
}

}  // namespace
}  // namespace orthosim
