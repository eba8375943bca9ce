// The multicomputer networks against their formulas and the papers: zero-load latency of
// wormhole and store-and-forward switching on every topology, deadlock freedom of tori with the
// dateline and the deadlock without it, [LCC]'s contention and throughput on the 8-cube, and
// routed programs that deliver every word.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <variant>

#include "sc_models/net/multicomputer.hpp"
#include "sw/core/diagnostic.hpp"
#include "sw/pattern/generate.hpp"
#include "sw/pattern/parallel_fft.hpp"
#include "sw/routed/routed_program.hpp"
#include "sw/traffic/lcc.hpp"
#include "sw/traffic/lcc_reordering.hpp"
#include "sw/traffic/traffic_pattern.hpp"

namespace orthosim {
namespace {

using sw::Topology;

sw::NetworkConfig network(const Topology& t) {
  sw::NetworkConfig c;
  c.topology = t;
  c.router.vcs = sw::default_vcs(t);
  return c;
}

/// One message of `words` words from src to dst, nothing else.
sw::RoutedProgram one_message(std::uint32_t nodes, std::uint32_t src, std::uint32_t dst,
                              std::uint32_t words) {
  sw::McProgram p;
  p.name = "one";
  p.nodes = nodes;
  sw::ProgramStep s;
  s.transfers.push_back({src, {dst}, false, words, {}});
  p.steps = {s};
  return sw::route_program(p, nodes, sw::identity_embedding(nodes));
}

std::vector<Topology> topologies() {
  return {Topology::mesh({5}),     Topology::torus({6}),      Topology::mesh({4, 3}),
          Topology::torus({4, 5}), Topology::mesh({3, 2, 3}), Topology::torus({3, 3, 2}),
          Topology::hypercube(4)};
}

// Wormhole: the header pays the router delay D at each of the h+1 routers of its path, then the
// F flits stream one per cycle: t_s + (h+1) D + F.
TEST(ZeroLoad, WormholeLatencyIsStartupPlusRouterDelaysPlusFlits) {
  traces::Recorder silent;
  std::vector<std::unique_ptr<sc::Multicomputer>> systems;
  std::vector<std::tuple<std::uint64_t, std::uint32_t, std::uint32_t>> params;  // t_s, D, B
  for (const Topology& t : topologies()) {
    for (const auto& [ts, d, b] : {std::tuple{0u, 1u, 1u}, std::tuple{5u, 1u, 1u},
                                   std::tuple{3u, 3u, 1u}, std::tuple{0u, 2u, 4u}}) {
      sw::NetworkConfig c = network(t);
      c.ni.startup = ts;
      c.router.delay = d;
      c.router.buffer_flits = b;
      systems.push_back(
          std::make_unique<sc::Multicomputer>(("net" + std::to_string(systems.size())).c_str(),
                                              c.validated(), silent));
    }
  }
  std::mt19937_64 rng(7);
  std::size_t checked = 0;
  for (auto& system : systems) {
    const sw::NetworkConfig& c = system->config();
    const std::uint32_t n = c.topology.nodes();
    for (int trial = 0; trial < 6; ++trial) {
      const auto src = static_cast<std::uint32_t>(rng() % n);
      auto dst = static_cast<std::uint32_t>(rng() % n);
      if (dst == src) {
        dst = (dst + 1) % n;
      }
      for (std::uint32_t words : {0u, 1u, 4u, 19u}) {
        if (words == 0) {
          continue;
        }
        system->load(one_message(n, src, dst, words));
        sc_core::sc_start();
        const sw::NetworkRunSummary r = system->result();
        const std::uint64_t h = c.topology.hops(src, dst);
        const std::uint64_t flits = words + 1;
        const std::uint64_t expected = c.ni.startup + (h + 1) * c.router.delay + flits;
        ASSERT_TRUE(r.completed) << (r.blocked.empty() ? "" : r.blocked.front());
        ASSERT_TRUE(r.delivery.ok()) << r.delivery.failures.front();
        EXPECT_EQ(r.cycles.count(), expected)
            << c.topology.to_string() << " " << src << "->" << dst << " h=" << h << " F=" << flits
            << " t_s=" << c.ni.startup << " D=" << c.router.delay << " B=" << c.router.buffer_flits;
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, systems.size() * 6 * 3);
}

// Store-and-forward: every router holds a packet until its last flit is in, then D cycles more;
// the F flits then leave one per cycle: t_s + F + (h+1)(D + F - 1).
TEST(ZeroLoad, StoreAndForwardLatencyPaysTheWholePacketAtEveryRouter) {
  traces::Recorder silent;
  std::vector<std::unique_ptr<sc::Multicomputer>> systems;
  for (const Topology& t : topologies()) {
    for (const auto& [ts, d] : {std::pair{0u, 1u}, std::pair{4u, 2u}}) {
      sw::NetworkConfig c = network(t);
      c.router.switching = sw::Switching::StoreAndForward;
      c.router.buffer_flits = 24;
      c.ni.startup = ts;
      c.router.delay = d;
      systems.push_back(
          std::make_unique<sc::Multicomputer>(("saf" + std::to_string(systems.size())).c_str(),
                                              c.validated(), silent));
    }
  }
  std::mt19937_64 rng(11);
  for (auto& system : systems) {
    const sw::NetworkConfig& c = system->config();
    const std::uint32_t n = c.topology.nodes();
    for (int trial = 0; trial < 5; ++trial) {
      const auto src = static_cast<std::uint32_t>(rng() % n);
      const auto dst = static_cast<std::uint32_t>((src + 1 + rng() % (n - 1)) % n);
      for (std::uint32_t words : {1u, 7u, 19u}) {
        system->load(one_message(n, src, dst, words));
        sc_core::sc_start();
        const sw::NetworkRunSummary r = system->result();
        const std::uint64_t h = c.topology.hops(src, dst), f = words + 1, d = c.router.delay;
        ASSERT_TRUE(r.completed) << (r.blocked.empty() ? "" : r.blocked.front());
        EXPECT_TRUE(r.delivery.ok());
        EXPECT_EQ(r.cycles.count(), c.ni.startup + f + (h + 1) * (d + f - 1))
            << c.topology.to_string() << " " << src << "->" << dst << " F=" << f;
      }
    }
  }
}

TEST(ZeroLoad, StoreAndForwardRejectsPacketsLargerThanTheBuffers) {
  traces::Recorder silent;
  sw::NetworkConfig c = network(Topology::mesh({4}));
  c.router.switching = sw::Switching::StoreAndForward;
  c.router.buffer_flits = 4;
  sc::Multicomputer system("saf", c.validated(), silent);
  try {
    system.load(one_message(4, 0, 3, 8));
    FAIL() << "a 9-flit packet accepted by 4-flit buffers";
  } catch (const sw::ParameterError& e) {
    // Keyed by the parameter at fault; the command line spells {buffers} as the user gave it.
    EXPECT_EQ(e.parameter(), "buffers") << e.what();
    EXPECT_NE(std::string(e.what()).find("{buffers}"), std::string::npos) << e.what();
  }
}

// Packets: a message of w words in packets of at most P flits has ceil(w / (P-1)) headers.
TEST(ZeroLoad, APacketizedMessageArrivesWhenItsLastPacketDoes) {
  traces::Recorder silent;
  sw::NetworkConfig c = network(Topology::mesh({6}));
  c.ni.packet_flits = 5;  // 4 words per packet
  sc::Multicomputer system("packets", c.validated(), silent);
  system.load(one_message(6, 0, 5, 10));  // 3 packets: 5 + 5 + 3 flits, back to back
  sc_core::sc_start();
  const sw::NetworkRunSummary r = system.result();
  ASSERT_TRUE(r.completed);
  EXPECT_TRUE(r.delivery.ok());
  // The worm of 13 flits streams behind the first header: (h+1) D + 13.
  EXPECT_EQ(r.cycles.count(), (5u + 1u) * 1u + 13u);
}

sc::TrafficSpec traffic(const std::string& pattern, const Topology& t, double rate,
                        std::uint32_t flits) {
  const sw::TrafficPattern p = sw::parse_traffic_pattern(pattern, t);
  sc::TrafficSpec spec = sc::traffic_of(p, t);
  spec.rate = rate;
  spec.flits = flits;
  return spec;
}

// A packet is at least its header: traffic of header-only packets (F = 1, no payload word) runs,
// one round of them on the 3-cube, each node to its neighbour across dimension 0 (h = 1), each in
// the zero-load time t_s + (h + 1) D + F = 3 + 2 * 2 + 1 = 8 cycles; packets of no flit are
// refused before anything runs.
TEST(Traffic, HeaderOnlyPacketsRunAndEmptyOnesAreRefused) {
  traces::Recorder silent;
  sw::NetworkConfig c = network(Topology::hypercube(3));
  c.ni.startup = 3;
  c.router.delay = 2;
  sc::Multicomputer system("headers", c.validated(), silent);
  sc::TrafficSpec spec;
  spec.destination = [](std::uint32_t src, std::mt19937_64&) { return src ^ 1U; };
  spec.fixed_destinations = true;
  spec.one_round = true;
  spec.flits = 0;
  EXPECT_THROW(system.start_traffic(spec), sw::ConfigError);
  spec.flits = 1;
  system.start_traffic(spec);
  sc_core::sc_start();
  const sc::TrafficResult r = system.traffic_result();
  EXPECT_EQ(r.measured_packets, 8U);
  EXPECT_EQ(r.undelivered_measured, 0U);
  EXPECT_EQ(r.latency_max, 3U + 2 * 2 + 1);
  EXPECT_DOUBLE_EQ(r.latency_avg, 3.0 + 2 * 2 + 1);
  EXPECT_EQ(r.flits_delivered, 8U);
}

// Memory follows the work in flight: a traffic run holds the state of its messages from the
// oldest undelivered one to the newest only, so a long run at a steady load holds room for a
// small multiple of the messages in flight at once, not for every message it created.
TEST(Traffic, AMessagesStateIsForgottenOnceItAndTheOlderOnesAreDelivered) {
  traces::Recorder silent;
  const sw::NetworkConfig c = network(Topology::mesh({8, 8}));
  sc::Multicomputer system("steady", c.validated(), silent);
  sc::TrafficSpec spec = traffic("uniform", c.topology, 0.16, 4);
  spec.warmup = 0;
  spec.cycles = 15'000;
  system.start_traffic(spec);
  sc_core::sc_start();
  const sc::TrafficResult r = system.traffic_result();
  ASSERT_FALSE(r.deadlocked);
  ASSERT_EQ(r.undelivered_measured, 0u);
  EXPECT_EQ(r.words_corrupted, 0u) << "a message read or checked at another's place";
  // 64 nodes x 15,000 cycles x 0.16 / 4 packets per node and cycle: about 38,000 messages.
  EXPECT_GT(r.measured_packets, 36'000u);
  EXPECT_GT(system.peak_message_span(), 64u) << "the ring must grow for the test to show it";
  EXPECT_LT(system.peak_message_span() * 20, r.measured_packets);
  // The ring doubles only when full: at most twice the span, and never below its first 64.
  EXPECT_LE(system.message_slots(), std::max<std::uint64_t>(64, 2 * system.peak_message_span()));
}

// A rate far below one packet per window (1e-18 flits per node per cycle: the gap to a node's
// next packet is around 2e19 cycles, past what a cycle count holds) runs to the end of the
// window with no packet: 16 nodes x 10^4 cycles x 5e-20 packets per cycle make 8e-15 expected.
// With nothing created and nothing in flight, the run steps the cycles where something is due
// (its first, the window's start and end) and stops in the cycle the window ends, where it sees
// the end: warm-up + window + 1 cycles, a window of one cycle included (there the window's end is
// the cycle after its start).
TEST(Traffic, ARateFarBelowOnePacketPerWindowRunsToTheEndWithNoPacket) {
  traces::Recorder silent;
  const sw::NetworkConfig c = network(Topology::torus({4, 4}));
  sc::Multicomputer system("sparse", c.validated(), silent);
  for (const auto& [exponential, cycles] : std::vector<std::pair<bool, std::uint64_t>>{
           {false, 10'000}, {true, 10'000}, {false, 1}, {true, 1}}) {
    SCOPED_TRACE(std::string(exponential ? "exponential" : "bernoulli") + ", window of " +
                 std::to_string(cycles));
    sc::TrafficSpec spec = traffic("uniform", c.topology, 1e-18, 20);
    spec.exponential = exponential;
    spec.warmup = 100;
    spec.cycles = cycles;
    const double expected_packets =
        16.0 * static_cast<double>(spec.warmup + spec.cycles) * spec.rate / spec.flits;
    ASSERT_LT(expected_packets, 1e-12);
    system.start_traffic(spec);
    sc_core::sc_start();
    const sc::TrafficResult r = system.traffic_result();
    EXPECT_FALSE(r.deadlocked);
    EXPECT_EQ(r.measured_packets, 0u);
    EXPECT_EQ(r.flits_delivered, 0u);
    EXPECT_EQ(r.offered, 0.0);
    EXPECT_EQ(r.sim_cycles, spec.warmup + spec.cycles + 1);
  }
}

// At rate = flits the Bernoulli trial of every cycle succeeds, so each node creates a packet in
// each cycle of the window, the first one (cycle 0 of the run) included: nodes x cycles packets,
// and the offered load is the rate itself.
TEST(Traffic, EveryCycleOfTheWindowFromCycleZeroCreatesPackets) {
  traces::Recorder silent;
  const sw::NetworkConfig c = network(Topology::mesh({2, 2}));
  sc::Multicomputer system("saturated", c.validated(), silent);
  for (const std::uint64_t cycles : {1u, 3u}) {
    sc::TrafficSpec spec = traffic("uniform", c.topology, 4.0, 4);
    spec.warmup = 0;
    spec.cycles = cycles;
    system.start_traffic(spec);
    sc_core::sc_start();
    const sc::TrafficResult r = system.traffic_result();
    EXPECT_EQ(r.measured_packets, c.topology.nodes() * cycles);
    EXPECT_EQ(r.undelivered_measured, 0u);
    EXPECT_DOUBLE_EQ(r.offered, spec.rate);
  }
}

// Exponential gaps at one packet per cycle: a node's packets of the one-cycle window [0, 1) are
// the arrivals of a Poisson process of rate 1 before time 1, so 256 nodes create 256 on average
// (standard deviation 16); the bounds are five deviations either way.
TEST(Traffic, ExponentialArrivalsBeforeTimeOneAreCreatedInCycleZero) {
  traces::Recorder silent;
  const sw::NetworkConfig c = network(Topology::torus({16, 16}));
  sc::Multicomputer system("poisson", c.validated(), silent);
  sc::TrafficSpec spec = traffic("uniform", c.topology, 4.0, 4);
  spec.exponential = true;
  spec.warmup = 0;
  spec.cycles = 1;
  system.start_traffic(spec);
  sc_core::sc_start();
  const sc::TrafficResult r = system.traffic_result();
  EXPECT_GE(r.measured_packets, 256u - 5u * 16u);
  EXPECT_LE(r.measured_packets, 256u + 5u * 16u);
}

// The traffic statistics of a contention-free permutation, by hand: on the 3-cube every node x
// sends to x XOR 1 (dimension 0), so every path is one channel of its own (h = 1) and every
// packet arrives in the zero-load time L = t_s + (h+1) D + F ([LCC] section 6; fabric.hpp).
// One round (every node one packet at cycle 0): each latency is L, the run lasts L cycles (the
// last tails eject in cycle L - 1), and 8 F flits are offered and accepted over 8 nodes x L
// cycles, each crossing one link. Windowed, at rate = F (a packet per node every cycle) and
// t_s = 0: each interface streams one flit per cycle (a worm follows the one before without a
// gap, fabric_test's ASecondMessageQueuedBehindTheFirst...), so once the first worms arrived
// every node accepts exactly one flit per cycle of the window, and offers F.
TEST(Traffic, AContentionFreePermutationHasTheZeroLoadStatistics) {
  traces::Recorder silent;
  sw::NetworkConfig c = network(Topology::hypercube(3));
  c.ni.startup = 3;
  c.router.delay = 2;
  sw::NetworkConfig streaming = network(Topology::hypercube(3));
  sc::Multicomputer round("round", c.validated(), silent);
  sc::Multicomputer window("window", streaming.validated(), silent);
  sc::Multicomputer edge("edge", streaming.validated(), silent);
  const auto flip_bit_0 = [](std::uint32_t flits, double rate) {
    sc::TrafficSpec spec;
    spec.destination = [](std::uint32_t src, std::mt19937_64&) { return src ^ 1U; };
    spec.fixed_destinations = true;
    spec.flits = flits;
    spec.rate = rate;
    return spec;
  };
  constexpr std::uint32_t kFlits = 6;
  sc::TrafficSpec one = flip_bit_0(kFlits, 0);
  one.one_round = true;
  round.start_traffic(one);
  sc_core::sc_start();
  const sc::TrafficResult r = round.traffic_result();
  const std::uint64_t zero_load = c.ni.startup + (1 + 1) * c.router.delay + kFlits;
  ASSERT_FALSE(r.deadlocked);
  EXPECT_EQ(r.measured_packets, 8u);
  EXPECT_EQ(r.undelivered_measured, 0u);
  EXPECT_DOUBLE_EQ(r.latency_avg, static_cast<double>(zero_load));
  EXPECT_EQ(r.latency_p50, zero_load);
  EXPECT_EQ(r.latency_p99, zero_load);
  EXPECT_EQ(r.latency_max, zero_load);
  EXPECT_EQ(r.sim_cycles, zero_load);
  EXPECT_DOUBLE_EQ(r.offered, static_cast<double>(kFlits) / static_cast<double>(zero_load));
  EXPECT_DOUBLE_EQ(r.accepted, static_cast<double>(kFlits) / static_cast<double>(zero_load));
  EXPECT_EQ(r.flits_delivered, 8u * kFlits);
  EXPECT_EQ(r.flit_hops, 8u * kFlits);
  EXPECT_EQ(r.max_channel_contention, 1u);
  EXPECT_EQ(r.peak_channel_occupancy, 1u);
  EXPECT_EQ(r.words_corrupted, 0u);
  // The same round again on the same network: the counters of this run only.
  round.start_traffic(one);
  sc_core::sc_start();
  const sc::TrafficResult again = round.traffic_result();
  EXPECT_EQ(again.flits_delivered, 8u * kFlits);
  EXPECT_EQ(again.flit_hops, 8u * kFlits);
  EXPECT_EQ(again.measured_packets, 8u);
  EXPECT_EQ(again.latency_max, zero_load);

  sc::TrafficSpec saturating = flip_bit_0(kFlits, kFlits);
  saturating.warmup = 50;
  saturating.cycles = 200;
  saturating.drain = false;
  window.start_traffic(saturating);
  sc_core::sc_start();
  const sc::TrafficResult w = window.traffic_result();
  ASSERT_FALSE(w.deadlocked);
  EXPECT_DOUBLE_EQ(w.offered, static_cast<double>(kFlits));
  EXPECT_DOUBLE_EQ(w.accepted, 1.0);
  EXPECT_EQ(w.measured_packets, 8u * 200u);
  // Each node creates a packet per cycle and sends one per F cycles (its last flit taken in cycle
  // F k + F - 1): at the window's start (cycle 50) 50 created, 50 / F fully sent; at its end
  // (cycle 250) 250 and 250 / F.
  EXPECT_EQ(w.source_queue_start, 8u * (50 - 50 / kFlits));
  EXPECT_EQ(w.source_queue_end, 8u * (250 - 250 / kFlits));
  EXPECT_FALSE(w.sustainable);
  // Without the drain the run stops in the cycle the window ends (where it sees the end), with
  // measured packets left: at least those not sent yet (of the 200 per node created in the
  // window, 250 / F - 50 / F were sent).
  EXPECT_EQ(w.sim_cycles, 50u + 200u + 1u);
  EXPECT_GE(w.undelivered_measured, 8u * (200 - (250 / kFlits - 50 / kFlits)));
  // A window of one cycle: each queue grows by its one new packet, a packet per node, which is
  // still sustainable ([LCC] section 6: "small and bounded").
  sc::TrafficSpec one_cycle = saturating;
  one_cycle.cycles = 1;
  edge.start_traffic(one_cycle);
  sc_core::sc_start();
  const sc::TrafficResult e = edge.traffic_result();
  EXPECT_EQ(e.source_queue_end, e.source_queue_start + 8u);
  EXPECT_TRUE(e.sustainable);
  EXPECT_DOUBLE_EQ(e.accepted, 1.0);
}

// A traffic packet may be as long as store-and-forward's buffers and as the interfaces' largest
// packet, not a flit longer: the longer one is refused naming its option, before the run, and
// the one at the limit is taken and delivered whole.
TEST(Traffic, PacketsAsLongAsTheBuffersAndThePacketLimitAreTakenNotLonger) {
  traces::Recorder silent;
  const Topology line = Topology::mesh({3});
  sw::NetworkConfig saf = network(line);
  saf.router.switching = sw::Switching::StoreAndForward;
  saf.router.buffer_flits = 4;
  sw::NetworkConfig limited = network(line);
  limited.ni.packet_flits = 5;
  sc::Multicomputer saf_system("saf", saf.validated(), silent);
  sc::Multicomputer limited_system("limited", limited.validated(), silent);
  for (const auto& [system, limit, option] :
       {std::tuple<sc::Multicomputer*, std::uint32_t, std::string>{&saf_system, 4, "buffers"},
        {&limited_system, 5, "flits"}}) {
    SCOPED_TRACE(option);
    sc::TrafficSpec spec = traffic("uniform", line, 0.05, limit + 1);
    spec.warmup = 0;
    spec.cycles = 400;
    try {
      system->start_traffic(spec);
      FAIL() << "packets of " << limit + 1 << " flits taken";
    } catch (const sw::ParameterError& e) {
      EXPECT_EQ(e.parameter(), option) << e.what();
    }
    spec.flits = limit;
    system->start_traffic(spec);
    sc_core::sc_start();
    const sc::TrafficResult r = system->traffic_result();
    EXPECT_GT(r.measured_packets, 0u);
    EXPECT_EQ(r.undelivered_measured, 0u);
    EXPECT_EQ(r.flits_delivered % limit, 0u);
  }
}

/// The cycles the runs of a system began in, as its recorder is told.
class RunBegins : public traces::Recorder {
 public:
  [[nodiscard]] bool enabled() const override { return true; }
  void run_begin(traces::Cycle at, const std::string& /*label*/) override {
    begins.push_back(at.count());
  }
  std::vector<std::uint64_t> begins;
};

// Runs on one system follow each other: the next begins in the cycle after the last one the
// previous run stepped, so that no cycle belongs to two runs (in the trace, a cycle's events are
// one run's).
TEST(Traffic, ARunBeginsInTheCycleAfterThePreviousRunsLast) {
  RunBegins trace;
  const sw::NetworkConfig c = network(Topology::mesh({3, 3}));
  sc::Multicomputer system("runs", c.validated(), trace);
  std::vector<std::uint64_t> cycles;
  for (const std::uint64_t seed : {1, 2, 3}) {
    sc::TrafficSpec spec = traffic("uniform", c.topology, 0.1, 4);
    spec.seed = seed;
    spec.warmup = 20;
    spec.cycles = 100;
    system.start_traffic(spec);
    sc_core::sc_start();
    cycles.push_back(system.traffic_result().sim_cycles);
  }
  ASSERT_EQ(trace.begins.size(), 3u);
  EXPECT_EQ(trace.begins[0], 0u);
  EXPECT_EQ(trace.begins[1], trace.begins[0] + cycles[0]);
  EXPECT_EQ(trace.begins[2], trace.begins[1] + cycles[1]);
}

/// The hops of a run's trace: per message, the routers it left and the virtual channel taken.
class HopTrace : public traces::Recorder {
 public:
  [[nodiscard]] bool enabled() const override { return true; }
  void message(traces::Cycle /*at*/, const traces::MessageTrace& m) override {
    if (m.what == traces::MessageEvent::Hop) {
      hops[m.message].emplace_back(m.node, m.vc);
    }
  }
  std::map<std::uint32_t, std::vector<std::pair<std::uint32_t, std::uint32_t>>> hops;
};

// A network's trace sources: one processor source per node, "<name>.node<k>" for k below the
// node count and in that order, whatever the network (6 nodes on a 3x2 mesh, 8 on the 3-cube).
TEST(Trace, EveryNodeIsOneSourceInNodeOrder) {
  for (const Topology& t : {Topology::mesh({3, 2}), Topology::hypercube(3)}) {
    SCOPED_TRACE(t.to_string());
    traces::Recorder recorder;
    const std::string name = "net" + std::to_string(t.nodes());
    sc::Multicomputer system(name.c_str(), network(t).validated(), recorder);
    std::vector<std::string> nodes;
    for (const traces::Source& source : recorder.sources()) {
      if (source.kind == traces::SourceKind::Processor) {
        nodes.push_back(source.path);
      }
    }
    std::vector<std::string> expected;
    for (std::uint32_t k = 0; k < t.nodes(); ++k) {
      expected.push_back(name + ".node" + std::to_string(k));
    }
    EXPECT_EQ(nodes, expected);
  }
}

// The trace names the virtual channel of each hop: on a ring of 5 with the dateline (Dally and
// Seitz; docs/networks.md), class 0 until the packet takes the wrap-around link from node 4 to
// node 0 in the positive direction, class 1 on it and after it in that dimension.
TEST(Trace, AHopNamesTheVirtualChannelTheDatelineGivesIt) {
  HopTrace trace;
  sw::NetworkConfig c = network(Topology::torus({5}));
  ASSERT_EQ(c.router.vcs, 2u);
  sc::Multicomputer system("ring", c.validated(), trace);
  sw::McProgram p;
  p.name = "dateline";
  p.nodes = 5;
  sw::ProgramStep s;
  // 2 -> 4 the positive way without the wrap, 3 -> 0 over it last, 4 -> 1 over it first.
  for (const auto& [src, dst] : {std::pair<std::uint32_t, std::uint32_t>{2, 4}, {3, 0}, {4, 1}}) {
    s.transfers.push_back({src, {dst}, false, 3, {}});
  }
  p.steps = {s};
  const sw::RoutedProgram program = sw::route_program(p, 5, sw::identity_embedding(5));
  ASSERT_EQ(program.manifest.messages.size(), 3u);
  system.load(program);
  sc_core::sc_start();
  ASSERT_TRUE(system.result().completed);
  using Hops = std::vector<std::pair<std::uint32_t, std::uint32_t>>;
  std::map<std::pair<std::uint32_t, std::uint32_t>, Hops> by_route;
  for (const sw::Message& m : program.manifest.messages) {
    by_route[{m.source, m.destination}] = trace.hops[m.id];
  }
  EXPECT_EQ(by_route[std::make_pair(2u, 4u)], (Hops{{2, 0}, {3, 0}}));
  EXPECT_EQ(by_route[std::make_pair(3u, 0u)], (Hops{{3, 0}, {4, 1}}));
  EXPECT_EQ(by_route[std::make_pair(4u, 1u)], (Hops{{4, 1}, {0, 1}}));
}

// A traffic packet of F flits is a message of F - 1 words (its header carries none): its send
// event says F - 1 words, as a program's send says its message's words, and its injection F flits.
TEST(Trace, ATrafficPacketIsSentAsAMessageOfItsPayloadWords) {
  class Sizes : public traces::Recorder {
   public:
    [[nodiscard]] bool enabled() const override { return true; }
    void message(traces::Cycle /*at*/, const traces::MessageTrace& m) override {
      if (m.what == traces::MessageEvent::Send) {
        sent_words.insert(m.size);
        ++sends;
      } else if (m.what == traces::MessageEvent::Inject) {
        injected_flits.insert(m.size);
      }
    }
    std::set<std::uint32_t> sent_words;
    std::set<std::uint32_t> injected_flits;
    std::uint64_t sends = 0;
  };
  Sizes trace;
  const sw::NetworkConfig c = network(Topology::mesh({3, 3}));
  sc::Multicomputer system("sizes", c.validated(), trace);
  sc::TrafficSpec spec = traffic("uniform", c.topology, 0.2, 5);
  spec.warmup = 0;
  spec.cycles = 300;
  system.start_traffic(spec);
  sc_core::sc_start();
  ASSERT_GT(trace.sends, 0u);
  EXPECT_EQ(trace.sent_words, std::set<std::uint32_t>{4});
  EXPECT_EQ(trace.injected_flits, std::set<std::uint32_t>{5});
}

// The network models do not link the verilated routers: without their factory
// (sc_models/cosim), a multicomputer with --impl router=rtl is refused when it is built.
TEST(Impl, VerilatedRoutersNeedTheirFactory) {
  traces::Recorder silent;
  sw::NetworkConfig c = network(Topology::mesh({2, 2}));
  c.impl.router = sw::Impl::Rtl;
  EXPECT_THROW(sc::Multicomputer("rtl", c.validated(), silent), sw::ConfigError);
}

/// A ring of `nodes` with one virtual channel and no dateline, a cyclic channel dependency, its
/// watchdog at `watchdog` cycles.
sw::NetworkConfig ring_without_dateline(std::uint32_t nodes, std::uint64_t watchdog) {
  sw::NetworkConfig c = network(Topology::torus({nodes}));
  c.router.dateline = false;
  c.router.vcs = 1;
  c.watchdog_cycles = watchdog;
  return c;
}

// A ring with dimension-order routing and no dateline has a cyclic channel dependency: under
// heavy load it deadlocks, and the watchdog names the cycle.
TEST(Deadlock, ARingWithoutTheDatelineDeadlocksAndTheWatchdogNamesTheCycle) {
  traces::Recorder silent;
  sw::NetworkConfig c = ring_without_dateline(8, 2000);
  sc::Multicomputer system("ring", c.validated(), silent);
  sc::TrafficSpec spec = traffic("uniform", c.topology, 0.8, 12);
  spec.warmup = 0;
  spec.cycles = 200'000;
  spec.drain = false;
  system.start_traffic(spec);
  sc_core::sc_start();
  const sc::TrafficResult r = system.traffic_result();
  ASSERT_TRUE(r.deadlocked);
  EXPECT_NE(r.deadlock.find("cycle of waiting channels: "), std::string::npos) << r.deadlock;
  EXPECT_NE(r.deadlock.find(".x+.vc0 (held by message"), std::string::npos) << r.deadlock;
  EXPECT_LT(r.sim_cycles, 200'000u);
}

/// On a ring of `nodes` every node sends 3 words to the node `shift` places on, in one step.
sw::RoutedProgram ring_shift(std::uint32_t nodes, std::uint32_t shift) {
  sw::McProgram p;
  p.name = "ring shift";
  p.nodes = nodes;
  sw::ProgramStep s;
  for (std::uint32_t node = 0; node < nodes; ++node) {
    s.transfers.push_back({node, {(node + shift) % nodes}, false, 3, {}});
  }
  p.steps = {s};
  return sw::route_program(p, nodes, sw::identity_embedding(nodes));
}

/// On a 4-node ring every node sends 3 words to the node two hops on (the positive way at exactly
/// half a ring): without the dateline, four worms that each hold the link the next one needs.
sw::RoutedProgram half_ring() { return ring_shift(4, 2); }

// The four worms of half_ring() on a ring without the dateline. Each header enters its source
// router at the send (cycle 0) and crosses its first link D cycles later (docs/networks.md,
// timing), while the worm's second flit enters the injection buffer it left; then every header
// waits for the link the next worm holds, and nothing moves again. The watchdog declares the
// deadlock exactly --watchdog cycles after that last move, at cycle D + watchdog.
TEST(Deadlock, IsDeclaredExactlyTheWatchdogsCyclesAfterTheLastFlitMoved) {
  traces::Recorder silent;
  struct Case {
    std::uint32_t delay;
    std::uint64_t watchdog;
  };
  const std::vector<Case> cases = {{1, 5}, {3, 40}};
  std::vector<std::unique_ptr<sc::Multicomputer>> systems;
  for (const Case& k : cases) {
    sw::NetworkConfig c = ring_without_dateline(4, k.watchdog);
    c.router.delay = k.delay;
    systems.push_back(
        std::make_unique<sc::Multicomputer>(("ring" + std::to_string(systems.size())).c_str(),
                                            c.validated(), silent));
  }
  for (std::size_t i = 0; i < cases.size(); ++i) {
    systems[i]->load(half_ring());
    sc_core::sc_start();
    const sw::NetworkRunSummary r = systems[i]->result();
    ASSERT_FALSE(r.completed);
    ASSERT_FALSE(r.blocked.empty());
    const std::string expected = "(no flit moved for " + std::to_string(cases[i].watchdog) +
                                 " cycles, at cycle " +
                                 std::to_string(cases[i].delay + cases[i].watchdog) + ")";
    EXPECT_NE(r.blocked.front().find(expected), std::string::npos)
        << "expected " << expected << " in " << r.blocked.front();
  }
}

// The deadlock report names the cycle of waiting channels in the order the headers wait. On a
// 5-node ring without the dateline every node sends 3 words to the node two hops the negative way
// (i -> i + 3 mod 5, shorter than three the positive way): worm i takes its first link n<i>.x- at
// once, its header then waits in router i - 1 for n<i-1>.x-, which worm i - 1 holds. The report
// starts from the first blocked header by buffer number: router 0's, worm 1's, waiting for n0.x-
// (message 0), whose header waits in router 4 for n4.x- (message 4), and so on around the ring
// back to n0.x-.
TEST(Deadlock, TheReportNamesTheCycleOfWaitingChannelsInTheOrderTheHeadersWait) {
  traces::Recorder silent;
  sw::NetworkConfig c = ring_without_dateline(5, 20);
  sc::Multicomputer system("ring5", c.validated(), silent);
  system.load(ring_shift(5, 3));
  sc_core::sc_start();
  const sw::NetworkRunSummary r = system.result();
  ASSERT_FALSE(r.completed);
  ASSERT_FALSE(r.blocked.empty());
  const std::string cycle =
      "cycle of waiting channels: n0.x-.vc0 (held by message 0) -> n4.x-.vc0 (held by message 4) "
      "-> n3.x-.vc0 (held by message 3) -> n2.x-.vc0 (held by message 2) -> n1.x-.vc0 (held by "
      "message 1) -> n0.x-.vc0 (no flit moved";
  EXPECT_NE(r.blocked.front().find(cycle), std::string::npos) << r.blocked.front();
}

// Loading a program resets the network: the flits a deadlocked run left in the buffers are gone,
// and one message then takes the zero-load time (h + 1) D + F of docs/networks.md.
TEST(Deadlock, TheProgramAfterADeadlockRunsOnAnEmptyNetwork) {
  traces::Recorder silent;
  sw::NetworkConfig c = ring_without_dateline(4, 50);
  sc::Multicomputer system("ring", c.validated(), silent);
  system.load(half_ring());
  sc_core::sc_start();
  ASSERT_FALSE(system.result().completed);

  system.load(one_message(4, 1, 2, 5));  // one hop, 6 flits, over a link the deadlock held
  sc_core::sc_start();
  const sw::NetworkRunSummary r = system.result();
  ASSERT_TRUE(r.completed) << (r.blocked.empty() ? "" : r.blocked.front());
  EXPECT_TRUE(r.delivery.ok());
  EXPECT_EQ(r.cycles.count(), (1u + 1u) * c.router.delay + 6u);
}

// The same ring, and 2D tori, with the dateline's second virtual channel: saturating uniform and
// transpose traffic for a million cycles never stops the watchdog.
TEST(Deadlock, ToriWithTheDatelineRunAMillionCyclesOfSaturatingTraffic) {
  traces::Recorder silent;
  struct Case {
    Topology topology;
    std::string pattern;
  };
  const std::vector<Case> cases = {{Topology::torus({8}), "uniform"},
                                   {Topology::torus({4, 4}), "uniform"},
                                   {Topology::torus({4, 4}), "transpose"}};
  std::vector<std::unique_ptr<sc::Multicomputer>> systems;
  for (const Case& k : cases) {
    sw::NetworkConfig c = network(k.topology);
    c.watchdog_cycles = 2000;
    systems.push_back(
        std::make_unique<sc::Multicomputer>(("torus" + std::to_string(systems.size())).c_str(),
                                            c.validated(), silent));
  }
  for (std::size_t i = 0; i < cases.size(); ++i) {
    sc::TrafficSpec spec = traffic(cases[i].pattern, cases[i].topology, 0.9, 12);
    spec.warmup = 0;
    spec.cycles = 1'000'000;
    spec.drain = false;
    systems[i]->start_traffic(spec);
    sc_core::sc_start();
    const sc::TrafficResult r = systems[i]->traffic_result();
    EXPECT_FALSE(r.deadlocked) << cases[i].topology.to_string() << ": " << r.deadlock;
    EXPECT_GE(r.sim_cycles, 1'000'000u);
    EXPECT_GT(r.flits_delivered, 100'000u);
    EXPECT_EQ(r.words_corrupted, 0u);
  }
}

// Short packets and shallow buffers under saturating traffic. A flit may enter a full buffer in
// the cycle its head leaves; before switch allocation served the moves into a free slot first, such
// speculative moves could win the ports, fail, and freeze the network with no cyclic channel
// dependency (a ring of 8 with 2-flit packets within a few hundred cycles; torus 8x8, 4-flit
// packets, 2-flit buffers at 0.3 flits/node/cycle): 13 of the 15 cases here froze before the fix.
TEST(Deadlock, ToriWithShortPacketsAndShallowBuffersNeverFreeze) {
  traces::Recorder silent;
  struct Case {
    Topology topology;
    std::uint32_t flits, buffers, vcs;
    double rate;
  };
  std::vector<Case> cases = {{Topology::torus({8}), 2, 1, 2, 0.3},
                             {Topology::torus({8}), 3, 2, 2, 1.0},
                             {Topology::torus({4, 4, 4}), 2, 2, 2, 0.3},
                             {Topology::torus({4, 4, 4}), 2, 3, 2, 1.0},
                             {Topology::torus({4, 4, 4}), 4, 3, 2, 0.6},
                             {Topology::torus({4, 4, 4}), 3, 1, 4, 1.0},
                             {Topology::torus({4, 4, 4}), 6, 2, 4, 0.5}};
  for (std::uint32_t f : {2u, 4u, 6u}) {
    for (std::uint32_t b : {2u, 3u}) {
      cases.push_back({Topology::torus({8, 8}), f, b, 2, f == 4 ? 0.3 : 1.0});
    }
  }
  cases.push_back({Topology::torus({8, 8}), 3, 1, 2, 0.5});
  cases.push_back({Topology::torus({8, 8}), 4, 2, 4, 0.3});
  std::vector<std::unique_ptr<sc::Multicomputer>> systems;
  for (const Case& k : cases) {
    sw::NetworkConfig c = network(k.topology);
    c.router.buffer_flits = k.buffers;
    c.router.vcs = k.vcs;
    c.watchdog_cycles = 2000;
    systems.push_back(
        std::make_unique<sc::Multicomputer>(("short" + std::to_string(systems.size())).c_str(),
                                            c.validated(), silent));
  }
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Case& k = cases[i];
    sc::TrafficSpec spec = traffic("uniform", k.topology, k.rate, k.flits);
    spec.warmup = 0;
    spec.cycles = 20'000;
    spec.drain = false;
    systems[i]->start_traffic(spec);
    sc_core::sc_start();
    const sc::TrafficResult r = systems[i]->traffic_result();
    const std::string what = k.topology.to_string() + ", " + std::to_string(k.flits) +
                             "-flit packets, " + std::to_string(k.buffers) + "-flit buffers, " +
                             std::to_string(k.vcs) + " VCs, rate " + std::to_string(k.rate);
    EXPECT_FALSE(r.deadlocked) << what << ": " << r.deadlock;
    EXPECT_GE(r.sim_cycles, 20'000u) << what;
    EXPECT_GT(r.flits_delivered, 20'000u) << what;
    EXPECT_EQ(r.words_corrupted, 0u) << what;
  }
}

// [LCC] section 6: 8-cube, e-cube routing, 20-flit messages, 1-flit buffers, first-come
// arbitration. One round of each permutation: the most messages through one channel equals
// Theorem 1's degree T(A,b) = 8.
TEST(Lcc, OneRoundOfEachPermutationHasTheContentionOfTheorem1) {
  traces::Recorder silent;
  const Topology cube = Topology::hypercube(8);
  const std::vector<std::pair<std::string, sw::Lcc>> patterns = {
      {"transpose", sw::Lcc::transpose(8)},
      {"bitrev", sw::Lcc::bit_reverse(8)},
      {"reverse-flip", sw::Lcc::reverse_flip(8)}};
  std::vector<std::unique_ptr<sc::Multicomputer>> systems;
  for (std::size_t i = 0; i < patterns.size(); ++i) {
    systems.push_back(std::make_unique<sc::Multicomputer>(("cube" + std::to_string(i)).c_str(),
                                                          network(cube).validated(), silent));
  }
  for (std::size_t i = 0; i < patterns.size(); ++i) {
    sc::TrafficSpec spec = traffic(patterns[i].first, cube, 0, 20);
    spec.one_round = true;
    systems[i]->start_traffic(spec);
    sc_core::sc_start();
    const sc::TrafficResult r = systems[i]->traffic_result();
    ASSERT_FALSE(r.deadlocked);
    EXPECT_EQ(r.undelivered_measured, 0u);
    EXPECT_EQ(sw::contention_degree(patterns[i].second), 8u);
    EXPECT_EQ(r.max_channel_contention, sw::contention_degree(patterns[i].second))
        << patterns[i].first;
  }
}

TEST(Lcc, RandomLccsOnThreeToEightCubesHaveTheContentionOfTheorem1) {
  traces::Recorder silent;
  std::vector<std::unique_ptr<sc::Multicomputer>> systems;
  for (std::uint32_t d = 3; d <= 8; ++d) {
    systems.push_back(
        std::make_unique<sc::Multicomputer>(("cube" + std::to_string(d)).c_str(),
                                            network(Topology::hypercube(d)).validated(), silent));
  }
  std::mt19937_64 rng(2026);
  std::size_t checked = 0;
  for (auto& system : systems) {
    const Topology& cube = system->config().topology;
    const std::uint32_t d = cube.dimensions();
    for (int trial = 0; trial < 6; ++trial) {
      const sw::Lcc lcc = sw::Lcc::random(d, rng);
      const sw::TrafficPattern p = sw::parse_traffic_pattern("lcc:" + lcc.to_string(), cube);
      sc::TrafficSpec spec = sc::traffic_of(p, cube);
      ASSERT_TRUE(spec.fixed_destinations) << "an LCC gives every node one destination";
      spec.one_round = true;
      system->start_traffic(spec);
      sc_core::sc_start();
      const sc::TrafficResult r = system->traffic_result();
      ASSERT_FALSE(r.deadlocked);
      EXPECT_EQ(r.undelivered_measured, 0u);
      EXPECT_EQ(r.max_channel_contention, sw::contention_degree(lcc))
          << "d=" << d << " lcc " << lcc.to_string();
      ++checked;
    }
  }
  EXPECT_EQ(checked, 36u);
}

// [LCC] section 6.2 on the emulated 6-cube: the Parallel_FFT's first step, the bit-reverse
// communication, has Theorem 1's contention 2^(n/2-1) = 4 under e-cube with the identity
// placement, so it lasts at least t_s + 4F (four F-flit worms through one channel in turn).
// Placed by bit-reverse's optimal ordering (Theorem 3) it has contention 1: every message has
// its path alone and the step lasts the zero-load time of its longest path, t_s + (h+1) D + F.
// The whole program is faster by that difference, its other steps being the same.
TEST(ParallelFft, TheReorderedBitReverseStepIsContentionFreeAndFaster) {
  traces::Recorder silent;
  constexpr std::uint32_t n = 6;
  sw::FftCosts costs;
  costs.point_words = 4;
  costs.butterfly = sw::Cycle{9};
  costs.half_butterfly = sw::Cycle{8};
  const sw::McProgram fft = sw::parallel_fft(n, 1u << (n + 4), costs);  // 16 inputs a node
  sw::McProgram bit_reverse = fft;
  bit_reverse.steps.resize(1);
  const std::uint32_t flits = 16 * costs.point_words + 1;  // the header and a word per flit
  sw::NetworkConfig c = network(Topology::hypercube(n));
  c.ni.startup = 30;
  sc::Multicomputer system("fft", c.validated(), silent);
  const auto run = [&](const sw::McProgram& program, const std::vector<std::uint32_t>& placed) {
    system.load(sw::route_program(program, 1u << n, placed));
    sc_core::sc_start();
    const sw::NetworkRunSummary r = system.result();
    EXPECT_TRUE(r.completed && r.delivery.ok()) << program.name;
    return r;
  };
  const std::vector<std::uint32_t> identity = sw::identity_embedding(1u << n);
  const std::vector<std::uint32_t> reordered =
      sw::node_relabeling(sw::optimal_ordering(sw::Lcc::bit_reverse(n)));

  const sw::NetworkRunSummary before = run(bit_reverse, identity);
  const sw::NetworkRunSummary after = run(bit_reverse, reordered);
  EXPECT_EQ(before.max_channel_contention, 1u << (n / 2 - 1));
  EXPECT_EQ(after.max_channel_contention, 1u);
  EXPECT_GE(before.cycles.count(), c.ni.startup + 4 * flits);
  std::uint32_t longest = 0;  // hops of the longest path, reordered
  for (const sw::Transfer& t : bit_reverse.steps[0].transfers) {
    const std::uint32_t hops = static_cast<std::uint32_t>(
        __builtin_popcount(reordered[t.source] ^ reordered[t.destinations[0]]));
    longest = std::max(longest, hops);
  }
  EXPECT_EQ(after.cycles.count(), c.ni.startup + (longest + 1) * c.router.delay + flits);

  const sw::NetworkRunSummary whole_before = run(fft, identity);
  const sw::NetworkRunSummary whole_after = run(fft, reordered);
  ASSERT_EQ(whole_after.step_ends.size(), fft.steps.size());
  // Step 1 of the whole program is the bit-reverse step. Reordered it ends before any processor
  // can start an exchange (the local stages, 2 x 8 butterflies of 9 cycles, and a start-up);
  // under e-cube an early processor's exchange may overlap it and only delay it.
  EXPECT_EQ(whole_after.step_ends[0], after.cycles) << "the bit-reverse step is step 1";
  EXPECT_GE(whole_before.step_ends[0], before.cycles);
  EXPECT_LT(whole_after.cycles, whole_before.cycles);
}

// Section 6.1: with e-cube routing the sustainable throughput of the three permutations stays
// below 1/8 of the capacity (Theorem 1's degree 8: eight paths share a channel). A sweep of offered
// rates: the highest accepted throughput at which the sources' queues stay bounded is below
// 0.125, and offering more than 1/8 is never sustainable.
TEST(Lcc, PermutationThroughputSaturatesBelowOneEighth) {
  traces::Recorder silent;
  const Topology cube = Topology::hypercube(8);
  std::vector<std::unique_ptr<sc::Multicomputer>> systems;
  const std::vector<std::string> patterns = {"transpose", "bitrev", "reverse-flip"};
  for (std::size_t i = 0; i < patterns.size(); ++i) {
    systems.push_back(std::make_unique<sc::Multicomputer>(("sat" + std::to_string(i)).c_str(),
                                                          network(cube).validated(), silent));
  }
  for (std::size_t i = 0; i < patterns.size(); ++i) {
    double saturation = 0;
    std::size_t sustainable_points = 0;
    for (double rate : {0.03, 0.06, 0.09, 0.11, 0.13, 0.16, 0.2}) {
      sc::TrafficSpec spec = traffic(patterns[i], cube, rate, 20);
      spec.exponential = true;
      spec.warmup = 2000;
      spec.cycles = 8000;
      spec.drain = false;
      systems[i]->start_traffic(spec);
      sc_core::sc_start();
      const sc::TrafficResult r = systems[i]->traffic_result();
      ASSERT_FALSE(r.deadlocked) << r.deadlock;
      EXPECT_EQ(r.words_corrupted, 0u);
      if (r.sustainable) {
        ++sustainable_points;
        saturation = std::max(saturation, r.accepted);
      }
      if (r.offered > 0.125) {
        EXPECT_FALSE(r.sustainable) << patterns[i] << " offered " << r.offered;
      }
    }
    EXPECT_GE(sustainable_points, 2u) << patterns[i];
    EXPECT_GT(saturation, 0.02) << patterns[i];
    EXPECT_LT(saturation, 0.125) << patterns[i];
  }
}

/// Counts the messages delivered to each node, from the deliver events a trace would write.
class DeliveryCounter : public traces::Recorder {
 public:
  [[nodiscard]] bool enabled() const override { return true; }
  void message(traces::Cycle /*at*/, const traces::MessageTrace& m) override {
    if (m.what == traces::MessageEvent::Deliver) {
      ++delivered[m.node];
      ++total;
    }
  }
  std::map<std::uint32_t, std::uint64_t> delivered;
  std::uint64_t total = 0;
};

// Every payload word that arrives wrong is counted: with the interface of node 4 flipping a bit
// of every word it receives, the count is (flits - 1) words for each packet delivered to node 4,
// and nothing else is counted.
TEST(Traffic, CountsEveryWordThatArrivesCorrupted) {
  const Topology mesh = Topology::mesh({3, 3});
  DeliveryCounter faulty_deliveries;
  DeliveryCounter clean_deliveries;
  sc::Multicomputer faulty("faulty", network(mesh).validated(), faulty_deliveries);
  sc::Multicomputer clean("clean", network(mesh).validated(), clean_deliveries);
  faulty.corrupt_deliveries(4, 5);
  constexpr std::uint32_t kFlits = 5;
  sc::TrafficSpec spec = traffic("uniform", mesh, 0.2, kFlits);
  spec.warmup = 50;
  spec.cycles = 400;
  faulty.start_traffic(spec);
  clean.start_traffic(spec);
  sc_core::sc_start();
  const sc::TrafficResult f = faulty.traffic_result();
  const sc::TrafficResult c = clean.traffic_result();
  ASSERT_FALSE(f.deadlocked) << f.deadlock;
  // Every packet arrived whole: each delivery is a whole packet of kFlits flits.
  ASSERT_EQ(f.flits_delivered, faulty_deliveries.total * kFlits);
  ASSERT_GT(faulty_deliveries.delivered[4], 0u);
  EXPECT_EQ(f.words_corrupted, faulty_deliveries.delivered[4] * (kFlits - 1));
  EXPECT_EQ(c.words_corrupted, 0u);
  EXPECT_EQ(clean_deliveries.total, faulty_deliveries.total) << "the fault changed the traffic";
}

/// Every message event of a network, its cycle counted from the run's first.
class MessageLog : public traces::Recorder {
 public:
  [[nodiscard]] bool enabled() const override { return true; }
  void run_begin(sw::Cycle at, const std::string& /*label*/) override { start_ = at; }
  void message(sw::Cycle at, const traces::MessageTrace& m) override {
    events.push_back({(at - start_).count(), static_cast<int>(m.what), m.message, m.node, m.dst,
                      m.size, m.channel, m.vc, m.measured});
  }
  std::vector<std::tuple<std::uint64_t, int, std::uint32_t, std::uint32_t, std::uint32_t,
                         std::uint32_t, traces::SourceId, std::uint32_t, bool>>
      events;

 private:
  sw::Cycle start_;
};

/// Every figure of two traffic points.
void expect_the_same_point(const sc::TrafficResult& a, const sc::TrafficResult& b) {
  EXPECT_EQ(a.sim_cycles, b.sim_cycles);
  EXPECT_EQ(a.offered, b.offered);
  EXPECT_EQ(a.accepted, b.accepted);
  EXPECT_EQ(a.latency_avg, b.latency_avg);
  EXPECT_EQ(a.latency_p50, b.latency_p50);
  EXPECT_EQ(a.latency_p99, b.latency_p99);
  EXPECT_EQ(a.latency_max, b.latency_max);
  EXPECT_EQ(a.sustainable, b.sustainable);
  EXPECT_EQ(a.measured_packets, b.measured_packets);
  EXPECT_EQ(a.undelivered_measured, b.undelivered_measured);
  EXPECT_EQ(a.flits_delivered, b.flits_delivered);
  EXPECT_EQ(a.flit_hops, b.flit_hops);
  EXPECT_EQ(a.max_channel_contention, b.max_channel_contention);
  EXPECT_EQ(a.peak_channel_occupancy, b.peak_channel_occupancy);
  EXPECT_EQ(a.source_queue_start, b.source_queue_start);
  EXPECT_EQ(a.source_queue_end, b.source_queue_end);
}

// run_traffic() steps the cycles that nothing else in the kernel precedes in one activation of
// the network process; sc_start() wakes the process once per cycle. Both make the same run:
// every message event in the same cycle, the same figures, and the kernel's time ending at the
// run's last cycle (start + sim_cycles - 1). The cases have idle gaps between packets (a low rate
// on a mesh), a loaded torus with two virtual channels, and runs longer than the cycles one
// activation steps.
TEST(Traffic, SteppingAheadOfTheKernelMakesTheRunOfOneActivationPerCycle) {
  struct Case {
    Topology topology;
    double rate;
    std::uint64_t cycles;
  };
  const std::vector<Case> cases = {{Topology::mesh({4, 4}), 0.02, 3000},
                                   {Topology::torus({4, 4}), 0.3, 2500},
                                   {Topology::hypercube(4), 0.15, 400}};
  // Modules exist before the kernel first runs: every system is built first.
  std::vector<std::unique_ptr<MessageLog>> logs;
  std::vector<std::unique_ptr<sc::Multicomputer>> systems;
  for (std::size_t i = 0; i < 2 * cases.size(); ++i) {
    logs.push_back(std::make_unique<MessageLog>());
    systems.push_back(
        std::make_unique<sc::Multicomputer>(("ahead_or_plain" + std::to_string(i)).c_str(),
                                            network(cases[i / 2].topology).validated(),
                                            *logs.back()));
  }
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Case& k = cases[i];
    SCOPED_TRACE(k.topology.to_string());
    sc::Multicomputer& ahead = *systems[2 * i];
    sc::Multicomputer& plain = *systems[2 * i + 1];
    const MessageLog& ahead_log = *logs[2 * i];
    const MessageLog& plain_log = *logs[2 * i + 1];
    sc::TrafficSpec spec = traffic("uniform", k.topology, k.rate, 6);
    spec.warmup = 200;
    spec.cycles = k.cycles;

    const sw::Cycle ahead_begun = ahead.clock().now();
    ahead.start_traffic(spec);
    ahead.run_traffic({});
    const sc::TrafficResult a = ahead.traffic_result();
    EXPECT_EQ((ahead.clock().now() - ahead_begun).count(), a.sim_cycles - 1);

    const sw::Cycle plain_begun = plain.clock().now();
    plain.start_traffic(spec);
    sc_core::sc_start();
    const sc::TrafficResult p = plain.traffic_result();
    EXPECT_EQ((plain.clock().now() - plain_begun).count(), p.sim_cycles - 1);

    ASSERT_FALSE(a.deadlocked) << a.deadlock;
    ASSERT_GT(a.flits_delivered, 100u);
    expect_the_same_point(a, p);
    EXPECT_EQ(ahead_log.events.size(), plain_log.events.size());
    EXPECT_TRUE(ahead_log.events == plain_log.events);
  }
}

// With packets as long as the buffers are deep, one virtual channel and nobody listening, a
// traffic run is stepped by the runs of its packets (docs/networks.md, "Timing under
// contention"); with a listener (a trace) by the flit paths. Both make the same run: every figure
// of the point, light to saturating, on meshes and a hypercube, delays 1 to 4, with start-ups,
// windows that end with packets in flight, and a second point after the first.
TEST(Traffic, ARunOfPacketsAsLongAsTheBuffersAreDeepIsTheRunAListenerSees) {
  struct Case {
    Topology topology;
    std::uint32_t depth;
    std::uint32_t delay;
    std::uint64_t startup;
    double rate;
  };
  const std::vector<Case> cases = {{Topology::mesh({8, 8}), 8, 4, 0, 0.07},
                                   {Topology::mesh({6, 5}), 4, 2, 2, 0.45},
                                   {Topology::mesh({9}), 3, 1, 0, 0.3},
                                   {Topology::hypercube(5), 5, 3, 1, 0.6}};
  std::vector<std::unique_ptr<traces::Recorder>> recorders;
  std::vector<std::unique_ptr<sc::Multicomputer>> systems;
  for (std::size_t i = 0; i < 2 * cases.size(); ++i) {
    const Case& k = cases[i / 2];
    sw::NetworkConfig config = network(k.topology);
    config.router.vcs = 1;
    config.router.buffer_flits = k.depth;
    config.router.delay = k.delay;
    config.ni.startup = k.startup;
    if (i % 2 == 0) {
      recorders.push_back(std::make_unique<traces::Recorder>());
    } else {
      recorders.push_back(std::make_unique<MessageLog>());
    }
    systems.push_back(
        std::make_unique<sc::Multicomputer>(("runs_or_flits" + std::to_string(i)).c_str(),
                                            config.validated(), *recorders.back()));
  }
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Case& k = cases[i];
    SCOPED_TRACE(k.topology.to_string() + ", " + std::to_string(k.depth) + "-flit buffers");
    for (const double rate : {k.rate, k.rate / 3}) {
      sc::TrafficSpec spec = traffic("uniform", k.topology, rate, k.depth);
      spec.warmup = 300;
      spec.cycles = 1200;
      spec.seed = 7 + i;
      std::vector<sc::TrafficResult> results;
      for (sc::Multicomputer* system : {systems[2 * i].get(), systems[2 * i + 1].get()}) {
        system->start_traffic(spec);
        system->run_traffic({});
        results.push_back(system->traffic_result());
      }
      ASSERT_FALSE(results[0].deadlocked) << results[0].deadlock;
      EXPECT_GT(results[0].measured_packets, 50u);
      expect_the_same_point(results[0], results[1]);
    }
  }
}

// The delivery check of a routed program examines what arrived: with node 2's interface flipping
// a bit of every word, exactly the messages to node 2 fail.
TEST(RoutedPrograms, TheDeliveryCheckFailsExactlyTheMessagesToAFaultyNode) {
  traces::Recorder silent;
  sc::Multicomputer system("faulty", network(Topology::mesh({2, 2})).validated(), silent);
  system.corrupt_deliveries(2, 0);
  const sw::McProgram program = sw::generate_random(4, 3, 5);
  const sw::RoutedProgram routed = sw::route_program(program, 4, sw::identity_embedding(4));
  std::size_t to_node_2 = 0;
  for (const sw::Message& m : routed.manifest.messages) {
    to_node_2 += m.destination == 2 ? 1 : 0;
  }
  ASSERT_GT(to_node_2, 0u);
  system.load(routed);
  sc_core::sc_start();
  const sw::NetworkRunSummary r = system.result();
  ASSERT_TRUE(r.completed);
  EXPECT_EQ(r.delivery.messages_checked, routed.manifest.messages.size());
  EXPECT_EQ(r.delivery.messages_failed, to_node_2);
}

// Memory follows the work in flight: a long program of small steps between two corners of a
// mesh, each step's sender the previous step's receiver, so one message is in flight at a time.
// The payload the run holds at its peak is the largest step's words, not the program's total.
// The footprint a run is checked against holds the packets of the step with the most in flight
// at once: of the same four one-packet messages, three in a step and one after (3 at once) take
// one packet's room more than two and two (2 at once), and five as four and one one more than as
// three and two.
TEST(RoutedPrograms, TheFootprintHoldsTheLargestStepsPacketsAtOnce) {
  const sw::NetworkConfig c = network(Topology::mesh({3, 3}));
  const auto footprint = [&c](const std::vector<std::uint32_t>& step_sizes) {
    sw::McProgram p;
    p.name = "steps";
    p.nodes = 9;
    std::uint32_t src = 0;
    for (const std::uint32_t size : step_sizes) {
      sw::ProgramStep step;
      for (std::uint32_t k = 0; k < size; ++k, ++src) {
        step.transfers.push_back({src, {src + 4}, false, 2, {}});
      }
      p.steps.push_back(step);
    }
    return sc::Multicomputer::footprint(sw::route_program(p, 9, sw::identity_embedding(9)), c);
  };
  const std::uint64_t one_packet = footprint({3, 1}) - footprint({2, 2});
  EXPECT_GT(one_packet, 0u);
  EXPECT_EQ(footprint({4, 1}) - footprint({3, 2}), one_packet);
}

// The footprint counts every node's ops and every message, wherever they sit: the same step
// moved to other nodes (the last node sending instead of none) takes the same room, and a second
// step of one more message takes more room than the program without it (its manifest entry, its
// state and two ops), though no more is in flight at once.
TEST(RoutedPrograms, TheFootprintCountsEveryNodesOpsAndEveryMessage) {
  const sw::NetworkConfig c = network(Topology::mesh({3, 3}));
  const auto footprint =
      [&c](const std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>>& steps) {
        sw::McProgram p;
        p.name = "moved";
        p.nodes = 9;
        for (const auto& pairs : steps) {
          sw::ProgramStep step;
          for (const auto& [src, dst] : pairs) {
            step.transfers.push_back({src, {dst}, false, 2, {}});
          }
          p.steps.push_back(step);
        }
        return sc::Multicomputer::footprint(sw::route_program(p, 9, sw::identity_embedding(9)), c);
      };
  EXPECT_EQ(footprint({{{0, 4}, {1, 5}}}), footprint({{{8, 2}, {7, 3}}}));
  EXPECT_GT(footprint({{{0, 4}}, {{1, 5}}}), footprint({{{0, 4}}}));
}

TEST(RoutedPrograms, ThePayloadHeldIsTheLargestStepsNotTheProgramsTotal) {
  traces::Recorder silent;
  sc::Multicomputer system("pingpong", network(Topology::mesh({3, 3})).validated(), silent);
  sw::McProgram program;
  program.name = "pingpong";
  program.nodes = 9;
  std::uint64_t largest = 0;
  std::uint64_t total = 0;
  for (std::uint32_t k = 0; k < 40; ++k) {
    const std::uint32_t words = 1 + (k * 7) % 23;
    sw::ProgramStep step;
    step.transfers.push_back({k % 2 == 0 ? 0u : 8u, {k % 2 == 0 ? 8u : 0u}, false, words, {}});
    program.steps.push_back(step);
    largest = std::max<std::uint64_t>(largest, words);
    total += words;
  }
  system.load(sw::route_program(program, 9, sw::identity_embedding(9)));
  sc_core::sc_start();
  const auto r = system.result();
  ASSERT_TRUE(r.completed);
  EXPECT_TRUE(r.delivery.ok());
  EXPECT_EQ(r.delivery.words_checked, total);
  EXPECT_EQ(system.peak_words_in_flight(), largest);
  EXPECT_LT(largest * 10, total) << "the program must be long for the test to show anything";
}

/// A one-message program on a 2x2 mesh with its node ops changed by `edit`, run on `system`,
/// its outcome.
template <class Edit>
auto run_edited(sc::Multicomputer& system, Edit edit) {
  sw::RoutedProgram program = one_message(4, 0, 3, 6);
  edit(program);
  system.load(program);
  sc_core::sc_start();
  return system.result();
}

// The check on arrival fails a message that never arrives and one that arrives twice (its
// words right both times), and names it; the corrupted words of a faulty interface are the
// DeliveryCheck test above.
TEST(RoutedPrograms, TheDeliveryCheckFailsALostAndATwiceDeliveredMessage) {
  traces::Recorder silent;
  sc::Multicomputer system("edited", network(Topology::mesh({2, 2})).validated(), silent);
  const auto sends = [](const sw::routed::Op& op) {
    return std::holds_alternative<sw::routed::Send>(op);
  };
  const auto receives = [](const sw::routed::Op& op) {
    return std::holds_alternative<sw::routed::Receive>(op);
  };
  const auto lost = run_edited(system, [&](sw::RoutedProgram& p) {
    for (auto& ops : p.ops) {
      ops.erase(std::remove_if(ops.begin(), ops.end(),
                               [&](const sw::routed::Op& op) { return sends(op) || receives(op); }),
                ops.end());
    }
  });
  ASSERT_TRUE(lost.completed);
  EXPECT_EQ(lost.delivery.messages_failed, 1u);
  ASSERT_EQ(lost.delivery.failures.size(), 1u);
  EXPECT_NE(lost.delivery.failures[0].find("message 0 "), std::string::npos);
  EXPECT_NE(lost.delivery.failures[0].find("word 0 "), std::string::npos);
  EXPECT_NE(lost.delivery.failures[0].find("message lost"), std::string::npos);

  const auto twice = run_edited(system, [&](sw::RoutedProgram& p) {
    auto& ops = p.ops.at(0);
    const auto send = std::find_if(ops.begin(), ops.end(), sends);
    ASSERT_NE(send, ops.end());
    const sw::routed::Op again = *send;
    ops.insert(send, again);
  });
  ASSERT_TRUE(twice.completed);
  EXPECT_EQ(twice.delivery.messages_failed, 1u);
  ASSERT_EQ(twice.delivery.failures.size(), 1u);
  EXPECT_NE(twice.delivery.failures[0].find("arrived twice"), std::string::npos);

  const auto intact = run_edited(system, [](sw::RoutedProgram&) {});
  EXPECT_TRUE(intact.completed && intact.delivery.ok());
}

// Routed programs: random programs on every topology deliver every word, one- and all-port.
TEST(RoutedPrograms, RandomProgramsDeliverEveryWordOnEveryTopology) {
  traces::Recorder silent;
  std::vector<std::unique_ptr<sc::Multicomputer>> systems;
  for (const Topology& t : topologies()) {
    for (sw::NodePorts ports : {sw::NodePorts::One, sw::NodePorts::All}) {
      sw::NetworkConfig c = network(t);
      c.ni.ports = ports;
      c.ni.startup = 3;
      c.ni.packet_flits = 6;
      systems.push_back(
          std::make_unique<sc::Multicomputer>(("prog" + std::to_string(systems.size())).c_str(),
                                              c.validated(), silent));
    }
  }
  std::size_t runs = 0;
  for (auto& system : systems) {
    const std::uint32_t n = system->config().topology.nodes();
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
      const sw::McProgram program = sw::generate_random(n, 4, seed * 31 + n);
      const sw::RoutedProgram routed = sw::route_program(program, n, sw::identity_embedding(n));
      const std::size_t messages = routed.manifest.messages.size();
      system->load(routed);
      sc_core::sc_start();
      const sw::NetworkRunSummary r = system->result();
      ASSERT_TRUE(r.completed) << system->name() << ": " << r.blocked.front();
      EXPECT_TRUE(r.delivery.ok()) << system->name() << ": " << r.delivery.failures.front();
      EXPECT_EQ(r.delivery.messages_checked, messages);
      ASSERT_EQ(r.step_ends.size(), program.steps.size());
      EXPECT_EQ(r.step_ends.back(), r.cycles);
      ++runs;
    }
  }
  EXPECT_EQ(runs, systems.size() * 4);
}

}  // namespace
}  // namespace orthosim
