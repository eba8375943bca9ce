// End-to-end test of the routers' buffer occupancy in the network waveform (docs/traces.md,
// "Buffer occupancy in the waveform"): `orthosim run PROGRAM --arch torus --dims 4x4 --vcd`, one
// message on an idle network, the VCD read back with the independent tests/support/vcd_reader.hpp
// and compared with what the router model of docs/networks.md implies, computed here: the
// dimension-order route (the shorter way round each ring, ties positive, docs/topology.md), the
// dateline virtual channel, and the wormhole timing (a flit pushed in cycle c is in the buffer from
// c + 1 and leaves it at c + 1 at the earliest, a header `delay` cycles after it came in, the flits
// behind it one per cycle). The run's JSON figures (cycles, channel contention and peak occupancy,
// per channel, the network's counters) must say the same.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/cli_process.hpp"
#include "tests/support/vcd_reader.hpp"

namespace {

using orthosim::testing_support::VcdReader;

constexpr std::uint32_t kSide = 4;       // a 4 x 4 torus, node = x + 4 y
constexpr std::uint32_t kVcs = 2;        // the default on a torus (dateline)
constexpr std::uint64_t kPeriodNs = 50;  // the default clock period
const char* const kPorts[] = {"x+", "x-", "y+", "y-"};

std::string router(std::uint32_t x, std::uint32_t y) {
  return "torus.r(" + std::to_string(x) + "," + std::to_string(y) + ")";
}
std::string signal(const std::string& channel, std::uint32_t vc) {
  return channel + ".vc" + std::to_string(vc) + ".occupancy";
}

struct Hop {
  std::string channel;  ///< the output port, "torus.r(0,0).x+"
  std::uint32_t vc;     ///< the virtual channel the packet holds on it
  std::string report;   ///< the port as the run's JSON names it, "n0.x+"
};

/// Dimension order on the k x k torus: x first, the shorter way round (the positive way on a
/// tie); virtual channel 0 in each dimension until the wrap-around (dateline) channel, 1 from it on.
std::vector<Hop> route(std::uint32_t src, std::uint32_t dst) {
  std::uint32_t at[2] = {src % kSide, src / kSide};
  const std::uint32_t to[2] = {dst % kSide, dst / kSide};
  std::vector<Hop> hops;
  for (int dim = 0; dim < 2; ++dim) {
    bool wrapped = false;
    while (at[dim] != to[dim]) {
      const std::uint32_t forward = (to[dim] + kSide - at[dim]) % kSide;
      const bool plus = forward <= kSide - forward;
      wrapped = wrapped || (plus ? at[dim] == kSide - 1 : at[dim] == 0);
      const std::string port = std::string(dim == 0 ? "x" : "y") + (plus ? "+" : "-");
      hops.push_back({router(at[0], at[1]) + "." + port, wrapped ? 1u : 0u,
                      "n" + std::to_string(at[0] + kSide * at[1]) + "." + port});
      at[dim] = plus ? (at[dim] + 1) % kSide : (at[dim] + kSide - 1) % kSide;
    }
  }
  return hops;
}

struct Case {
  std::uint32_t src, dst;
  std::uint32_t words;
  std::uint32_t buffers;
  std::uint32_t delay;
};
void PrintTo(const Case& c, std::ostream* os) {
  *os << c.src << " -> " << c.dst << ", " << c.words << " words, --buffers " << c.buffers
      << " --router-delay " << c.delay;
}

class NetworkVcdCli : public orthosim::testing_support::CliTest,
                      public testing::WithParamInterface<Case> {};

TEST_P(NetworkVcdCli, OneMessageFillsAndEmptiesExactlyTheBuffersOnItsRoute) {
  const Case c = GetParam();
  const std::uint64_t flits = c.words + 1;  // one packet: a header and one flit per word
  std::ofstream(dir_ / "one.mcp") << "nodes " << kSide * kSide << "\nstep one\n  send " << c.src
                                  << " -> " << c.dst << " words " << c.words << "\n";
  const auto r = run("run one.mcp --arch torus --dims 4x4 --buffers " + std::to_string(c.buffers) +
                     " --router-delay " + std::to_string(c.delay) + " --vcd net.vcd --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json report = nlohmann::json::parse(r.out);
  const VcdReader vcd((dir_ / "net.vcd").string());

  // Every port of every router has one signal per virtual channel, and no more.
  std::vector<std::string> channels;
  for (std::uint32_t y = 0; y < kSide; ++y) {
    for (std::uint32_t x = 0; x < kSide; ++x) {
      for (const char* port : kPorts) {
        channels.push_back(router(x, y) + "." + port);
        for (std::uint32_t vc = 0; vc < kVcs; ++vc) {
          EXPECT_TRUE(vcd.has(signal(channels.back(), vc))) << signal(channels.back(), vc);
        }
        EXPECT_FALSE(vcd.has(signal(channels.back(), kVcs))) << channels.back();
      }
    }
  }

  // Never more flits than a buffer holds; empty at the start and at the end.
  for (const std::string& ch : channels) {
    for (std::uint32_t vc = 0; vc < kVcs; ++vc) {
      const auto& changes = vcd.changes(signal(ch, vc));
      ASSERT_FALSE(changes.empty()) << signal(ch, vc);
      EXPECT_EQ(changes.front(), std::make_pair(std::uint64_t{0}, std::uint64_t{0}));
      for (const auto& [t, v] : changes) {
        EXPECT_LE(v, c.buffers) << signal(ch, vc) << " at " << t;
        EXPECT_EQ(t % kPeriodNs, 0u) << signal(ch, vc) << ": not a cycle boundary";
      }
      EXPECT_EQ(changes.back().second, 0u) << signal(ch, vc);
      EXPECT_LE(changes.back().first, vcd.end_time()) << signal(ch, vc);
    }
  }

  // On the route, the packet's virtual channel fills once and empties; nothing else changes.
  const std::vector<Hop> hops = route(c.src, c.dst);
  ASSERT_FALSE(hops.empty());
  const std::uint64_t peak = std::min<std::uint64_t>({c.buffers, c.delay, flits});
  std::uint64_t first_rise = 0;
  for (std::size_t k = 0; k < hops.size(); ++k) {
    SCOPED_TRACE("hop " + std::to_string(k) + ": " + hops[k].channel);
    const auto& changes = vcd.changes(signal(hops[k].channel, hops[k].vc));
    ASSERT_GE(changes.size(), 3u);  // the initial 0, at least one rise, the return to 0
    const std::uint64_t rise = changes[1].first;
    const std::uint64_t fall = changes.back().first;
    std::uint64_t max = 0;
    for (std::size_t i = 1; i + 1 < changes.size(); ++i) {
      EXPECT_GT(changes[i].second, 0u) << "emptied before " << fall << " at " << changes[i].first;
      max = std::max(max, changes[i].second);
    }
    EXPECT_EQ(max, peak);
    // The header enters the next buffer `delay` cycles after it entered this one.
    if (k == 0) {
      first_rise = rise;
    } else {
      EXPECT_EQ(rise, first_rise + k * c.delay * kPeriodNs);
    }
    if (c.buffers >= c.delay) {
      // Nothing waits for room: flit i is in the buffer from rise + i for `delay` cycles.
      for (std::uint64_t t = rise / kPeriodNs; t <= fall / kPeriodNs; ++t) {
        std::uint64_t held = 0;
        for (std::uint64_t i = 0; i < flits; ++i) {
          held += rise / kPeriodNs + i <= t && t < rise / kPeriodNs + i + c.delay ? 1 : 0;
        }
        EXPECT_EQ(vcd.at(signal(hops[k].channel, hops[k].vc), t * kPeriodNs), held)
            << "cycle " << t;
      }
      EXPECT_EQ(fall - rise, (c.delay + flits - 1) * kPeriodNs);
    }
  }
  // The run's figures say the same: the zero-load time (h + 1) delay + F (docs/networks.md), one
  // message on each channel of the route and none elsewhere, each route channel's peak.
  EXPECT_EQ(report["total_cycles"], (hops.size() + 1) * c.delay + flits);
  EXPECT_EQ(report["max_channel_contention"], 1u);
  EXPECT_EQ(report["peak_channel_occupancy"], peak);
  // Every flit is injected, crosses the h links and is ejected; the lone header never waits.
  const nlohmann::json& stats = report["stats"];
  EXPECT_EQ(stats["torus.flit_hops"], flits * hops.size());
  EXPECT_EQ(stats["torus.flits_moved"], flits * (hops.size() + 2));
  EXPECT_EQ(stats["torus.flits_ejected"], flits);
  EXPECT_EQ(stats["torus.packets_delivered"], 1u);
  EXPECT_EQ(stats["torus.header_wait_cycles"], 0u);
  ASSERT_EQ(report["channels"].size(), channels.size());
  for (const nlohmann::json& ch : report["channels"]) {
    const bool on_route = std::any_of(hops.begin(), hops.end(),
                                      [&](const Hop& h) { return h.report == ch["channel"]; });
    EXPECT_EQ(ch["messages"], on_route ? 1u : 0u) << ch["channel"];
    EXPECT_EQ(ch["peak_flits"], on_route ? peak : 0u) << ch["channel"];
  }
  for (const std::string& ch : channels) {
    for (std::uint32_t vc = 0; vc < kVcs; ++vc) {
      const bool on_route = std::any_of(hops.begin(), hops.end(), [&](const Hop& h) {
        return h.channel == ch && h.vc == vc;
      });
      if (!on_route) {
        EXPECT_EQ(vcd.changes(signal(ch, vc)).size(), 1u) << signal(ch, vc) << " changed";
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Torus4x4, NetworkVcdCli,
    testing::Values(Case{0, 10, 4, 1, 1},  // (0,0) -> (2,2): x+ x+ y+ y+, ties positive
                    Case{0, 10, 5, 4, 3},  // buffers deeper than the delay: 3 flits wait
                    Case{0, 10, 5, 2, 3},  // the delay longer than the buffer: it fills up
                    Case{15, 4, 1, 8, 2},  // (3,3) -> (0,1): both wrap-arounds, VC 1
                    Case{5, 0, 3, 3, 2}),  // (1,1) -> (0,0): x- y-
    [](const testing::TestParamInfo<Case>& param) {
      const Case& c = param.param;
      return "n" + std::to_string(c.src) + "_to_n" + std::to_string(c.dst) + "_words" +
             std::to_string(c.words) + "_buffers" + std::to_string(c.buffers) + "_delay" +
             std::to_string(c.delay);
    });

}  // namespace
