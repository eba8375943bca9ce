// Model = RTL for whole multicomputers (docs/architecture.md; [LCC] section 6): the same routed programs
// and the same synthetic traffic run on two multicomputers side by side in one simulation, one
// with the model routers (sc::net::Fabric) and one with the verilated routers
// (--impl router=rtl). Cycles, step ends, delivered words, channel contention and occupancy,
// every traffic figure and every statistic must be equal. Meshes, tori and hypercubes up to 64
// nodes; wormhole and store-and-forward; one- and all-port interfaces; messages of several
// packets (--packet-flits). The co-simulation (--impl router=cosim) agrees on the same workloads
// and catches a deliberate fault in the model at its cycle and signal. The same with the
// verilated network interfaces (--impl ni=rtl|cosim) beside the verilated routers.
//
// Each TEST elaborates its own systems (one elaboration per process, toolchain fact 2). Seeds are fixed,
// plus one varied seed per test: ORTHOSIM_TEST_SEED if set, else the time, printed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <random>
#include <regex>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "rtl/bridge/network_interfaces_rtl.hpp"
#include "rtl/bridge/router_network_rtl.hpp"
#include "sc_models/cosim/rtl_network.hpp"
#include "sc_models/net/multicomputer.hpp"
#include "sw/pattern/generate.hpp"
#include "sw/routed/routed_program.hpp"
#include "sw/traffic/traffic_pattern.hpp"
#include "tests/support/differences.hpp"
#include "tests/support/varied_seed.hpp"

namespace orthosim {
namespace {

using testing_support::Differences;
using testing_support::varied_seed;

/// Runs the kernel until no event is left, as sc_start() does, but for at most 50 ms of simulated
/// time (ten times the longest run here): a system that never stops asking for cycles once its
/// work is done (an interface that counts a packet it does not hold) fails the test at that
/// bound instead of running until CTest's timeout. A run must end when its program or traffic
/// does.
void run_until_idle() {
  const sc_core::sc_time bound(50, sc_core::SC_MS);
  const sc_core::sc_time end = sc_core::sc_time_stamp() + bound;
  sc_core::sc_start(bound, sc_core::SC_EXIT_ON_STARVATION);
  EXPECT_LT(sc_core::sc_time_stamp(), end)
      << "still running after " << bound << " of simulated time: a system that never ends";
}

sw::NetworkConfig network(sw::Topology t, std::uint32_t buffers, std::uint32_t delay,
                          sw::Impl router) {
  sw::NetworkConfig c;
  c.topology = std::move(t);
  c.router.vcs = sw::default_vcs(c.topology);
  c.router.buffer_flits = buffers;
  c.router.delay = delay;
  c.impl.router = router;
  return c;
}

sw::NetworkConfig with_impl(sw::NetworkConfig c, sw::Impl router) {
  c.impl.router = router;
  return c;
}

/// The statistic's name without the system's own name ("rtl.flit_hops" -> "flit_hops").
std::string local_name(const std::string& name) { return name.substr(name.find('.') + 1); }

/// Every difference of the RTL's run of a routed program from the model's; none when the
/// model's run is not a reference (it did not complete or failed its delivery check), which is
/// a difference itself.
Differences compare_runs(const sw::NetworkRunSummary& model, const sw::NetworkRunSummary& rtl,
                         const std::string& what) {
  Differences d(what);
  d.require(model.completed, "the model's run did not complete");
  d.require(model.delivery.ok(), "the model's run failed its delivery check");
  if (d.any()) {
    return d;
  }
  d.require(rtl.completed, "the RTL's run did not complete");
  d.require(rtl.delivery.ok(), "the RTL's run failed its delivery check");
  d.require(!rtl.mismatch.has_value(),
            "cosim mismatch: " + (rtl.mismatch ? rtl.mismatch->to_string() : std::string()));
  d.equal("cycles", model.cycles, rtl.cycles);
  d.equal("step_ends", model.step_ends, rtl.step_ends);
  d.equal("messages_checked", model.delivery.messages_checked, rtl.delivery.messages_checked);
  d.equal("words_checked", model.delivery.words_checked, rtl.delivery.words_checked);
  d.equal("max_channel_contention", model.max_channel_contention, rtl.max_channel_contention);
  d.equal("peak_channel_occupancy", model.peak_channel_occupancy, rtl.peak_channel_occupancy);
  if (rtl.channels.size() != model.channels.size()) {
    d.equal("channels", model.channels.size(), rtl.channels.size());
    return d;
  }
  for (std::size_t i = 0; i < model.channels.size(); ++i) {
    const std::string& name = model.channels[i].name;
    d.equal("channel " + std::to_string(i), name, rtl.channels[i].name);
    d.equal(name + " peak_flits", model.channels[i].peak_flits, rtl.channels[i].peak_flits);
    d.equal(name + " messages", model.channels[i].messages, rtl.channels[i].messages);
  }
  if (rtl.stats.size() != model.stats.size()) {
    d.equal("statistics", model.stats.size(), rtl.stats.size());
    return d;
  }
  for (std::size_t i = 0; i < model.stats.size(); ++i) {
    const std::string name = local_name(model.stats[i].name);
    d.equal("statistic " + std::to_string(i), name, local_name(rtl.stats[i].name));
    d.equal(name, model.stats[i].value, rtl.stats[i].value);
  }
  return d;
}

/// Every difference of the RTL's traffic run from the model's (none when the model deadlocked,
/// a difference itself).
Differences compare_runs(const sc::TrafficResult& m, const sc::TrafficResult& r,
                         const std::string& what) {
  Differences d(what);
  d.require(!m.deadlocked, "the model deadlocked: " + m.deadlock);
  if (d.any()) {
    return d;
  }
  d.require(m.measured_packets > 0, "the model measured no packets");
  d.equal("cosim_mismatch", std::string(), r.cosim_mismatch);
  d.equal("deadlocked", m.deadlocked, r.deadlocked);
  d.equal("offered", m.offered, r.offered);
  d.equal("accepted", m.accepted, r.accepted);
  d.equal("latency_avg", m.latency_avg, r.latency_avg);
  d.equal("latency_p50", m.latency_p50, r.latency_p50);
  d.equal("latency_p99", m.latency_p99, r.latency_p99);
  d.equal("latency_max", m.latency_max, r.latency_max);
  d.equal("sustainable", m.sustainable, r.sustainable);
  d.equal("sim_cycles", m.sim_cycles, r.sim_cycles);
  d.equal("measured_packets", m.measured_packets, r.measured_packets);
  d.equal("undelivered_measured", m.undelivered_measured, r.undelivered_measured);
  d.equal("flits_delivered", m.flits_delivered, r.flits_delivered);
  d.equal("flit_hops", m.flit_hops, r.flit_hops);
  d.equal("words_corrupted", std::uint64_t{0}, r.words_corrupted);
  d.equal("max_channel_contention", m.max_channel_contention, r.max_channel_contention);
  d.equal("peak_channel_occupancy", m.peak_channel_occupancy, r.peak_channel_occupancy);
  d.equal("source_queue_start", m.source_queue_start, r.source_queue_start);
  d.equal("source_queue_end", m.source_queue_end, r.source_queue_end);
  return d;
}

/// Random routed programs ([PH91]'s random generator, compiled for the network), run on both,
/// their differences into `found`. Returns the simulated cycles.
std::uint64_t programs_agree(sc::Multicomputer& model, sc::Multicomputer& rtl, std::uint64_t seed,
                             std::uint32_t programs, Differences& found) {
  std::mt19937_64 rng(seed);
  const std::uint32_t nodes = model.config().topology.nodes();
  // At most 16 program nodes, spread over the network (long paths, short runs).
  const std::uint32_t program_nodes = std::min(nodes, 16U);
  std::vector<std::uint32_t> spread(program_nodes);
  for (std::uint32_t k = 0; k < program_nodes; ++k) {
    spread[k] = k * (nodes / program_nodes);
  }
  std::uint64_t cycles = 0;
  for (std::uint32_t k = 0; k < programs; ++k) {
    const sw::McProgram program =
        sw::generate_random(program_nodes, 2 + static_cast<std::uint32_t>(rng() % 3), rng());
    const sw::RoutedProgram routed = sw::route_program(program, nodes, spread);
    model.load(routed);
    rtl.load(routed);
    run_until_idle();
    const sw::NetworkRunSummary m = model.result();
    found.add(compare_runs(m, rtl.result(),
                           program.name + " (seed " + std::to_string(seed) + ") on " +
                               model.config().topology.to_string()));
    cycles += m.cycles.count();
  }
  return cycles;
}

sc::TrafficSpec traffic(const sw::Topology& t, const std::string& pattern, double rate,
                        std::uint32_t flits, std::uint64_t seed) {
  sc::TrafficSpec spec = sc::traffic_of(sw::parse_traffic_pattern(pattern, t), t);
  spec.rate = rate;
  spec.flits = flits;
  spec.warmup = 200;
  spec.cycles = 1200;
  spec.seed = seed;
  return spec;
}

/// Uniform traffic at 0.9 flits per node per cycle of `flits`-flit packets for 250 cycles, not
/// drained: the run ends with flits in the network and packets queued.
sc::TrafficSpec undrained_flood(const sw::Topology& t, std::uint32_t flits) {
  sc::TrafficSpec flood = traffic(t, "uniform", 0.9, flits, 11);
  flood.drain = false;
  flood.warmup = 50;
  flood.cycles = 200;
  return flood;
}

/// Synthetic traffic on both, the differences into `found`; returns the simulated cycles.
std::uint64_t traffic_agrees(sc::Multicomputer& model, sc::Multicomputer& rtl,
                             const sc::TrafficSpec& spec, const std::string& what,
                             Differences& found) {
  model.start_traffic(spec);
  rtl.start_traffic(spec);
  run_until_idle();
  const sc::TrafficResult m = model.traffic_result();
  found.add(compare_runs(m, rtl.traffic_result(), what + " seed " + std::to_string(spec.seed)));
  return m.sim_cycles;
}

struct Case {
  std::string name;
  sw::NetworkConfig config;
  std::string pattern;
  double rate;
  std::uint32_t flits;
};

void PrintTo(const Case& k, std::ostream* os) { *os << k.name; }

class MulticomputerRtl : public testing::TestWithParam<Case> {};

TEST_P(MulticomputerRtl, SameCyclesDataAndStatisticsOnProgramsAndTraffic) {
  const Case& k = GetParam();
  traces::Recorder silent;
  sc::Multicomputer model("model", with_impl(k.config, sw::Impl::Model).validated(), silent);
  sc::Multicomputer rtl("rtl", k.config.validated(), silent, sc::net::verilated_routers(nullptr));
  const std::uint64_t varied = varied_seed();
  Differences found("the verilated routers against the models");
  std::uint64_t program_cycles = 0;
  std::uint64_t traffic_cycles = 0;
  for (const std::uint64_t seed : {std::uint64_t{1}, varied}) {
    program_cycles += programs_agree(model, rtl, seed, 2, found);
    traffic_cycles +=
        traffic_agrees(model, rtl, traffic(k.config.topology, k.pattern, k.rate, k.flits, seed),
                       k.name, found);
  }
  EXPECT_TRUE(found.result());
  std::cout << k.name << ": " << program_cycles << " + " << traffic_cycles
            << " simulated cycles (programs + traffic) on each system\n";
  EXPECT_GT(rtl.network().stats().flit_hops, 1000u);
}

sw::NetworkConfig all_port(sw::NetworkConfig c, std::uint64_t startup) {
  c.ni.ports = sw::NodePorts::All;
  c.ni.startup = startup;
  return c;
}

sw::NetworkConfig packets_of(sw::NetworkConfig c, std::uint32_t flits) {
  c.ni.packet_flits = flits;
  return c;
}

sw::NetworkConfig store_and_forward(sw::NetworkConfig c) {
  c.router.switching = sw::Switching::StoreAndForward;
  return c;
}

sw::NetworkConfig two_vcs(sw::NetworkConfig c) {
  c.router.vcs = 2;
  return c;
}

/// The shortest clock the verilated routers take, and an odd one (its half period rounds).
sw::NetworkConfig clock_ns(sw::NetworkConfig c, std::uint32_t ns) {
  c.clock_period_ns = ns;
  return c;
}

INSTANTIATE_TEST_SUITE_P(
    Networks, MulticomputerRtl,
    testing::Values(
        Case{"mesh8x8", packets_of(network(sw::Topology::mesh({8, 8}), 1, 1, sw::Impl::Rtl), 4),
             "uniform", 0.12, 4},
        Case{"torus8x8", packets_of(network(sw::Topology::torus({8, 8}), 2, 2, sw::Impl::Rtl), 6),
             "transpose", 0.08, 6},
        Case{"hypercube6",
             all_port(packets_of(network(sw::Topology::hypercube(6), 4, 1, sw::Impl::Rtl), 5), 3),
             "bitrev", 0.08, 5},
        Case{"torus4x4x4", network(sw::Topology::torus({4, 4, 4}), 3, 1, sw::Impl::Rtl), "uniform",
             0.1, 6},
        Case{"mesh4x8_saf",
             packets_of(store_and_forward(network(sw::Topology::mesh({4, 8}), 4, 1, sw::Impl::Rtl)),
                        4),
             "uniform", 0.08, 4},
        Case{"mesh4x4_two_vcs_delay3_clock5ns",
             clock_ns(packets_of(two_vcs(network(sw::Topology::mesh({4, 4}), 2, 3, sw::Impl::Rtl)),
                                 2),
                      5),
             "uniform", 0.15, 2},
        Case{"hypercube4_clock4ns",
             clock_ns(network(sw::Topology::hypercube(4), 1, 1, sw::Impl::Rtl), 4), "uniform", 0.1,
             3}),
    [](const testing::TestParamInfo<Case>& p) { return p.param.name; });

// A run that stops with flits in the routers (traffic far above saturation, not drained) is
// followed by runs that must not see them: the verilated routers are reset like the model's
// network is emptied.
TEST(MulticomputerRtlReset, ARunLeftWithFlitsInTheRoutersDoesNotLeakIntoTheNext) {
  const sw::NetworkConfig config = network(sw::Topology::torus({4, 4}), 2, 1, sw::Impl::Rtl);
  traces::Recorder silent;
  sc::Multicomputer model("model", with_impl(config, sw::Impl::Model).validated(), silent);
  sc::Multicomputer rtl("rtl", config.validated(), silent, sc::net::verilated_routers(nullptr));
  const sc::TrafficSpec flood = undrained_flood(config.topology, 6);
  Differences found("a flood, then a program and traffic");
  traffic_agrees(model, rtl, flood, "flood", found);
  EXPECT_TRUE(rtl.network().has_flits()) << "the flood should leave flits behind";
  // The counters of a run stopped with packets half ejected are the model's too.
  const sc::net::FabricStats& m = model.network().stats();
  const sc::net::FabricStats& r = rtl.network().stats();
  found.add([&] {
    Differences d("the flood's counters");
    d.equal("flits_moved", m.flits_moved, r.flits_moved);
    d.equal("flit_hops", m.flit_hops, r.flit_hops);
    d.equal("flits_ejected", m.flits_ejected, r.flits_ejected);
    d.equal("packets_delivered", m.packets_delivered, r.packets_delivered);
    return d;
  }());
  // The reset every run begins with leaves no flit held and no offer refused (what the owner's
  // watchdog reads), as the model's does.
  model.network().reset();
  rtl.network().reset();
  EXPECT_FALSE(model.network().has_flits());
  EXPECT_FALSE(rtl.network().has_flits());
  programs_agree(model, rtl, 12, 1, found);
  traffic_agrees(model, rtl, traffic(config.topology, "uniform", 0.1, 4, 13), "after", found);
  EXPECT_TRUE(found.result());
}

// A flood left in the routers: every flit injected and not ejected is in a buffer, and the
// account of a stuck network lists them all, those still in the injection buffers too. A move
// is an injection, a hop or an ejection, so the routers hold moved - hops - 2 x ejected flits.
TEST(MulticomputerRtlReset, TheStuckRoutersAccountForEveryFlitNotEjected) {
  const sw::NetworkConfig config = network(sw::Topology::mesh({2, 2}), 4, 1, sw::Impl::Rtl);
  traces::Recorder silent;
  sc::Multicomputer rtl("rtl", config.validated(), silent, sc::net::verilated_routers(nullptr));
  sc::TrafficSpec flood = traffic(config.topology, "uniform", 0.9, 6, 11);
  flood.drain = false;
  flood.warmup = 0;
  flood.cycles = 100;
  rtl.start_traffic(flood);
  run_until_idle();
  const sc::net::FabricStats& s = rtl.network().stats();
  const std::uint64_t held = s.flits_moved - s.flit_hops - 2 * s.flits_ejected;
  ASSERT_GT(held, 0u);
  const std::string text = rtl.network().describe_deadlock();
  std::uint64_t listed = 0;
  const std::regex router_flits(R"(\((\d+) flits\))");
  for (std::sregex_iterator m(text.begin(), text.end(), router_flits), end; m != end; ++m) {
    listed += std::stoull((*m)[1].str());
  }
  EXPECT_EQ(listed, held) << text;
}

// A drained run leaves no flit in the routers, and the account of a stuck network names none
// of them (a router of no flits is not listed).
TEST(MulticomputerRtlReset, DrainedRoutersAreAccountedAsHoldingNone) {
  const sw::NetworkConfig config = network(sw::Topology::mesh({2, 2}), 4, 1, sw::Impl::Rtl);
  traces::Recorder silent;
  sc::Multicomputer rtl("rtl", config.validated(), silent, sc::net::verilated_routers(nullptr));
  rtl.start_traffic(traffic(config.topology, "uniform", 0.2, 3, 4));
  run_until_idle();
  ASSERT_GT(rtl.network().stats().flits_ejected, 0u);
  ASSERT_FALSE(rtl.network().has_flits());
  EXPECT_EQ(rtl.network().describe_deadlock(), "verilated routers holding flits: none");
}

/// The cycles in which router 0's headers leave it (the model's hops out of its ports).
class RouterZeroHops : public traces::Recorder {
 public:
  [[nodiscard]] bool enabled() const override { return true; }
  traces::SourceId register_source(const std::string& path, traces::SourceKind kind) override {
    const traces::SourceId id = Recorder::register_source(path, kind);
    if (kind == traces::SourceKind::Channel && path.find(".r(0,0).") != std::string::npos) {
      router0_.push_back(id);
    }
    return id;
  }
  void message(traces::Cycle at, const traces::MessageTrace& m) override {
    if (m.what == traces::MessageEvent::Hop &&
        std::find(router0_.begin(), router0_.end(), m.channel) != router0_.end()) {
      hops.push_back(at.count());
    }
  }
  std::vector<std::uint64_t> hops;

 private:
  std::vector<traces::SourceId> router0_;
};

const sw::NetworkConfig kCosimNetwork =
    packets_of(network(sw::Topology::torus({4, 4}), 2, 1, sw::Impl::Cosim), 4);

TEST(MulticomputerCosim, AgreesEveryCycleOnProgramsAndTraffic) {
  traces::Recorder silent;
  sc::Multicomputer model("model", with_impl(kCosimNetwork, sw::Impl::Model).validated(), silent);
  sc::Multicomputer cosim("cosim", kCosimNetwork.validated(), silent,
                          sc::net::verilated_routers(nullptr));
  Differences found("the routers' cosim against the models");
  std::uint64_t cycles = programs_agree(model, cosim, 3, 2, found);
  cycles += traffic_agrees(model, cosim, traffic(kCosimNetwork.topology, "uniform", 0.15, 4, 3),
                           "cosim", found);
  EXPECT_TRUE(found.result());
  const auto& rtl = dynamic_cast<const sc::net::RtlNetwork&>(cosim.network());
  // Two signals per router per simulated cycle, at least.
  EXPECT_GE(rtl.comparisons(), 2u * 16u * cycles / 2);
}

// One virtual channel (a mesh: a header's bit is port * kMaxVcs, not port) and all-port nodes
// (a router ejects several tails in one cycle, each counted), compared every cycle.
TEST(MulticomputerCosim, AgreesEveryCycleOnAnAllPortMeshOfOneVirtualChannel) {
  const sw::NetworkConfig c =
      all_port(packets_of(network(sw::Topology::mesh({4, 4}), 2, 1, sw::Impl::Cosim), 2), 1);
  ASSERT_EQ(c.router.vcs, 1u);
  traces::Recorder silent;
  sc::Multicomputer model("model", with_impl(c, sw::Impl::Model).validated(), silent);
  sc::Multicomputer cosim("cosim", c.validated(), silent, sc::net::verilated_routers(nullptr));
  Differences found("the routers' cosim on an all-port mesh against the models");
  sc::TrafficSpec spec = traffic(c.topology, "uniform", 0.3, 2, 7);
  spec.warmup = 50;
  spec.cycles = 400;
  traffic_agrees(model, cosim, spec, "all-port mesh", found);
  EXPECT_TRUE(found.result());
}

// A fault stays armed over the runs, and every run compares afresh: a header held back in the
// first run is caught there, and the first header router 0 sends in the next run (as the
// event trace of the cosim system tells the routers' hops) is caught again, not the first
// run's mismatch, nor none.
TEST(MulticomputerCosim, EveryRunComparesAfresh) {
  RouterZeroHops hops;
  sc::Multicomputer cosim("cosim", kCosimNetwork.validated(), hops,
                          sc::net::verilated_routers(nullptr));
  sc::net::inject_fault(cosim, {sc::net::RtlNetwork::Fault::Kind::LateHeader, 0, sw::Cycle{0}, 0});
  const auto& network = dynamic_cast<const sc::net::RtlNetwork&>(cosim.network());
  for (const std::uint64_t seed : {5, 6}) {
    hops.hops.clear();
    cosim.start_traffic(traffic(kCosimNetwork.topology, "uniform", 0.15, 4, seed));
    run_until_idle();
    ASSERT_FALSE(hops.hops.empty()) << "run " << seed;
    const std::optional<sc::Mismatch> m = network.mismatch();
    ASSERT_TRUE(m) << "run " << seed;
    EXPECT_EQ(m->cycle, hops.hops.front()) << "run " << seed << ": " << m->to_string();
    EXPECT_EQ(m->signal, "out_head");
    EXPECT_EQ(m->model, 0u);
  }
}

/// The cosim network's verdict on uniform traffic with `fault`, and router 0's header departures
/// in the model alone on the same traffic.
struct FaultyRun {
  std::optional<sc::Mismatch> mismatch;
  std::vector<std::uint64_t> model_hops;
  std::uint64_t cosim_cycles = 0;  ///< the cycles the cosim run stepped (it starts at cycle 0)
};

FaultyRun faulty(const sc::net::RtlNetwork::Fault& fault) {
  RouterZeroHops hops;
  sc::Multicomputer model("model", with_impl(kCosimNetwork, sw::Impl::Model).validated(), hops);
  traces::Recorder silent;
  sc::Multicomputer cosim("cosim", kCosimNetwork.validated(), silent,
                          sc::net::verilated_routers(nullptr));
  sc::net::inject_fault(cosim, fault);
  const sc::TrafficSpec spec = traffic(kCosimNetwork.topology, "uniform", 0.15, 4, 5);
  model.start_traffic(spec);
  cosim.start_traffic(spec);
  run_until_idle();
  FaultyRun run{cosim.traffic_result().cosim_mismatch.empty()
                    ? std::nullopt
                    : dynamic_cast<const sc::net::RtlNetwork&>(cosim.network()).mismatch(),
                hops.hops, cosim.traffic_result().sim_cycles};
  return run;
}

TEST(MulticomputerCosim, AFlippedBitIsCaughtAtItsCycleSignalAndRouter) {
  const FaultyRun run = faulty({sc::net::RtlNetwork::Fault::Kind::FlipBit, 0, sw::Cycle{700}, 3});
  ASSERT_TRUE(run.mismatch);
  std::cout << run.mismatch->to_string() << "\n";
  EXPECT_EQ(run.mismatch->cycle, 700u);
  EXPECT_EQ(run.mismatch->signal, "out_head");
  EXPECT_EQ(run.mismatch->instance, "cosim.rtl.routers.r(0,0)");
  EXPECT_EQ(run.mismatch->model ^ run.mismatch->rtl, 1u << 3);
  // The first difference stops the run (docs/rtl.md): the cycle compared is its last.
  EXPECT_EQ(run.cosim_cycles, 700u + 1u);
}

TEST(MulticomputerCosim, AHeaderOneCycleLateIsCaughtWhereTheModelMovedIt) {
  const std::uint64_t from = 900;
  const FaultyRun run =
      faulty({sc::net::RtlNetwork::Fault::Kind::LateHeader, 0, sw::Cycle{from}, 0});
  ASSERT_TRUE(run.mismatch);
  std::cout << run.mismatch->to_string() << "\n";
  // The first header router 0 sends at or after `from`, in the model alone.
  const auto first = std::lower_bound(run.model_hops.begin(), run.model_hops.end(), from);
  ASSERT_NE(first, run.model_hops.end());
  EXPECT_EQ(run.mismatch->cycle, *first);
  EXPECT_EQ(run.mismatch->signal, "out_head");
  EXPECT_EQ(run.mismatch->instance, "cosim.rtl.routers.r(0,0)");
  EXPECT_EQ(run.mismatch->model, 0u);
  EXPECT_NE(run.mismatch->rtl, 0u);
}

/// A header held back `before` cycles ahead of a cycle h in which router 0 sends one (and sent
/// none in h - 1): router 0's hops are learnt from the model alone on uniform traffic, then the
/// cosim network, which has not run yet, runs the same traffic from the cycle the model's run
/// ended in, with the fault. The mismatch's cycle, and the cycle of h in that run.
std::pair<std::uint64_t, std::uint64_t> late_header_caught(std::uint64_t before) {
  RouterZeroHops hops;
  sc::Multicomputer model("model", with_impl(kCosimNetwork, sw::Impl::Model).validated(), hops);
  traces::Recorder silent;
  sc::Multicomputer cosim("cosim", kCosimNetwork.validated(), silent,
                          sc::net::verilated_routers(nullptr));
  const sc::TrafficSpec spec = traffic(kCosimNetwork.topology, "uniform", 0.15, 4, 5);
  model.start_traffic(spec);
  run_until_idle();
  std::uint64_t lone = 0;
  for (std::size_t k = 1; k < hops.hops.size() && lone == 0; ++k) {
    if (hops.hops[k] >= 200 && hops.hops[k - 1] + 1 < hops.hops[k]) {
      lone = hops.hops[k];
    }
  }
  EXPECT_GT(lone, 0u) << "no header of router 0 alone in its cycle";
  const auto start = static_cast<std::uint64_t>(
      sc_core::sc_time_stamp() / sc_core::sc_time(kCosimNetwork.clock_period_ns, sc_core::SC_NS));
  sc::net::inject_fault(cosim, {sc::net::RtlNetwork::Fault::Kind::LateHeader, 0,
                                sw::Cycle{start + lone - before}, 0});
  cosim.start_traffic(spec);
  run_until_idle();
  const std::optional<sc::Mismatch> m =
      dynamic_cast<const sc::net::RtlNetwork&>(cosim.network()).mismatch();
  EXPECT_TRUE(m);
  EXPECT_EQ(m.value_or(sc::Mismatch{}).signal, "out_head");
  return {m.value_or(sc::Mismatch{}).cycle, start + lone};
}

// The fault's own cycle counts: a header sent in it is held back there.
TEST(MulticomputerCosim, AHeaderHeldBackInTheFaultsOwnCycleIsCaughtThere) {
  const auto [caught, hop] = late_header_caught(0);
  EXPECT_EQ(caught, hop);
}

// The fault holds back the first header from its cycle on: in a cycle without one it waits for
// the next, which is caught where the model sent it.
TEST(MulticomputerCosim, AFaultInACycleWithoutAHeaderHoldsBackTheNext) {
  const auto [caught, hop] = late_header_caught(1);
  EXPECT_EQ(caught, hop);
}

/// Every change of a buffer's occupancy the trace is told: cycle, channel, virtual channel,
/// flits (the systems of one network register their channels in the same order).
class OccupancyLog : public traces::Recorder {
 public:
  using Change = std::tuple<std::uint64_t, traces::SourceId, std::uint32_t, std::uint32_t>;
  [[nodiscard]] bool enabled() const override { return true; }
  void channel_occupancy(traces::Cycle at, traces::SourceId channel, std::uint32_t vc,
                         std::uint32_t flits) override {
    changes.emplace_back(at.count(), channel, vc, flits);
  }
  std::vector<Change> changes;
};

// The verilated routers expose no per-virtual-channel occupancy: under router=cosim the trace's
// buffers are the model's beside them, each change as the model alone tells it.
TEST(MulticomputerCosim, TheBuffersInTheTraceAreTheModels) {
  OccupancyLog model_log;
  OccupancyLog cosim_log;
  sc::Multicomputer model("model", with_impl(kCosimNetwork, sw::Impl::Model).validated(),
                          model_log);
  sc::Multicomputer cosim("cosim", kCosimNetwork.validated(), cosim_log,
                          sc::net::verilated_routers(nullptr));
  const sc::TrafficSpec spec = traffic(kCosimNetwork.topology, "uniform", 0.15, 4, 8);
  model.start_traffic(spec);
  cosim.start_traffic(spec);
  run_until_idle();
  EXPECT_TRUE(cosim.traffic_result().cosim_mismatch.empty());
  ASSERT_GT(model_log.changes.size(), 100u);
  EXPECT_EQ(cosim_log.changes, model_log.changes);
}

TEST(MulticomputerCosim, ATestFaultNeedsTheCosimulation) {
  traces::Recorder silent;
  sc::Multicomputer rtl("rtl", with_impl(kCosimNetwork, sw::Impl::Rtl).validated(), silent,
                        sc::net::verilated_routers(nullptr));
  EXPECT_THROW(sc::net::inject_fault(rtl, {}), sw::ConfigError);
}

// A test fault names one of the routers and one of the 32 bits of a router's departures.
TEST(MulticomputerCosim, ATestFaultOutsideTheRoutersOrTheBitsIsRefused) {
  traces::Recorder silent;
  sc::Multicomputer cosim("cosim", kCosimNetwork.validated(), silent,
                          sc::net::verilated_routers(nullptr));
  using Kind = sc::net::RtlNetwork::Fault::Kind;
  EXPECT_NO_THROW(sc::net::inject_fault(cosim, {Kind::FlipBit, 15, sw::Cycle{0}, 31}));
  EXPECT_THROW(sc::net::inject_fault(cosim, {Kind::FlipBit, 16, sw::Cycle{0}, 0}),
               std::logic_error);
  EXPECT_THROW(sc::net::inject_fault(cosim, {Kind::FlipBit, 0, sw::Cycle{0}, 32}),
               std::logic_error);
}

// ---- the verilated network interfaces (--impl ni=rtl|cosim) -----------------------------------
// A node is then interface plus router in RTL: the model only submits the messages (programs,
// traffic) and checks what arrives; start-ups, packets, injection and reassembly are the RTL's.

sw::NetworkConfig rtl_nodes(sw::NetworkConfig c, sw::Impl interfaces) {
  c.impl.network_interface = interfaces;
  return c;
}

sw::NetworkConfig model_of(sw::NetworkConfig c) {
  c.impl = {};
  return c;
}

// With a watchdog of two cycles a network in which some flit moves in every cycle is never
// taken for stuck: a move is an injection, a hop or an ejection, and a lone packet has cycles of
// each alone (a header waits three cycles in every router). Light traffic, where the model
// finishes, with the model's interfaces and with the verilated ones.
TEST(MulticomputerRtlWatchdog, EveryKindOfMoveIsProgress) {
  sw::NetworkConfig config = network(sw::Topology::mesh({2, 2}), 4, 3, sw::Impl::Rtl);
  config.watchdog_cycles = 2;
  traces::Recorder silent;
  sc::Multicomputer model("model", model_of(config).validated(), silent);
  sc::Multicomputer rtl("rtl", config.validated(), silent, sc::net::verilated_routers(nullptr));
  sc::Multicomputer nodes("nodes", rtl_nodes(config, sw::Impl::Rtl).validated(), silent,
                          sc::net::verilated_routers(nullptr));
  sc::TrafficSpec spec = traffic(config.topology, "uniform", 0.02, 3, 19);
  spec.warmup = 0;
  spec.cycles = 400;
  model.start_traffic(spec);
  rtl.start_traffic(spec);
  nodes.start_traffic(spec);
  run_until_idle();
  const sc::TrafficResult m = model.traffic_result();
  Differences found("a watchdog of two cycles");
  found.add(compare_runs(m, rtl.traffic_result(), "router=rtl"));
  found.add(compare_runs(m, nodes.traffic_result(), "router=rtl,ni=rtl"));
  EXPECT_TRUE(found.result());
}

/// Every packet's moves as the event trace tells them (injections, hops, ejections): cycle,
/// event, message, router, packet flits, channel and virtual channel, a cycle's in any order.
class PacketMoves : public traces::Recorder {
 public:
  using Move = std::tuple<std::uint64_t, traces::MessageEvent, std::uint32_t, std::uint32_t,
                          std::uint32_t, traces::SourceId, std::uint32_t>;
  [[nodiscard]] bool enabled() const override { return true; }
  void message(traces::Cycle at, const traces::MessageTrace& m) override {
    if (m.what == traces::MessageEvent::Inject || m.what == traces::MessageEvent::Hop ||
        m.what == traces::MessageEvent::Eject) {
      moves_.emplace_back(at.count(), m.what, m.message, m.node, m.size, m.channel, m.vc);
    }
  }
  [[nodiscard]] std::vector<Move> sorted() const {
    std::vector<Move> all = moves_;
    std::sort(all.begin(), all.end());
    return all;
  }
  /// The first of `expected` this trace lacks or tells otherwise, or "" when they are equal.
  [[nodiscard]] std::string first_difference(const std::vector<Move>& expected) const {
    const std::vector<Move> got = sorted();
    std::size_t i = 0;
    while (i < expected.size() && i < got.size() && expected[i] == got[i]) {
      ++i;
    }
    const auto text = [](const std::vector<Move>& moves, std::size_t k) -> std::string {
      if (k >= moves.size()) {
        return "nothing";
      }
      const auto& [at, what, message, node, size, channel, vc] = moves[k];
      return "cycle " + std::to_string(at) + " event " + std::to_string(static_cast<int>(what)) +
             " message " + std::to_string(message) + " router " + std::to_string(node) + " flits " +
             std::to_string(size) + " channel " + std::to_string(channel) + " vc " +
             std::to_string(vc);
    };
    if (i == expected.size() && i == got.size()) {
      return "";
    }
    return "move " + std::to_string(i) + ": expected " + text(expected, i) + ", got " +
           text(got, i);
  }

 private:
  std::vector<Move> moves_;
};

// The verilated routers' packet moves reach the event trace as the model's, with the model's
// interfaces and with the verilated ones: on a torus (two virtual channels) with messages of
// several packets, and with the verilated interfaces also with a packet per message (a
// header's flits from its message's words).
TEST(MulticomputerRtlTrace, EveryPacketMoveIsTheModels) {
  const sw::NetworkConfig config =
      packets_of(network(sw::Topology::torus({4, 4}), 2, 1, sw::Impl::Rtl), 3);
  const sw::NetworkConfig whole = packets_of(config, 0);
  ASSERT_EQ(config.router.vcs, 2u);
  PacketMoves model_moves;
  PacketMoves rtl_moves;
  PacketMoves nodes_moves;
  PacketMoves whole_model_moves;
  PacketMoves whole_nodes_moves;
  sc::Multicomputer model("model", model_of(config).validated(), model_moves);
  sc::Multicomputer rtl("rtl", config.validated(), rtl_moves, sc::net::verilated_routers(nullptr));
  sc::Multicomputer nodes("nodes", rtl_nodes(config, sw::Impl::Rtl).validated(), nodes_moves,
                          sc::net::verilated_routers(nullptr));
  sc::Multicomputer whole_model("whole_model", model_of(whole).validated(), whole_model_moves);
  sc::Multicomputer whole_nodes("whole_nodes", rtl_nodes(whole, sw::Impl::Rtl).validated(),
                                whole_nodes_moves, sc::net::verilated_routers(nullptr));
  std::vector<std::uint32_t> all(16);
  for (std::uint32_t k = 0; k < 16; ++k) {
    all[k] = k;
  }
  const sw::RoutedProgram routed = sw::route_program(sw::generate_random(16, 3, 21), 16, all);
  for (sc::Multicomputer* system : {&model, &rtl, &nodes, &whole_model, &whole_nodes}) {
    system->load(routed);
  }
  run_until_idle();
  const std::vector<PacketMoves::Move> expected = model_moves.sorted();
  ASSERT_GT(expected.size(), 100u);
  EXPECT_EQ(rtl_moves.first_difference(expected), "") << "router=rtl";
  EXPECT_EQ(nodes_moves.first_difference(expected), "") << "router=rtl,ni=rtl";
  EXPECT_EQ(whole_nodes_moves.first_difference(whole_model_moves.sorted()), "")
      << "router=rtl,ni=rtl, a packet per message";
}

// On a mesh (one virtual channel) a hop's channel is the port's: the trace numbers a router's
// virtual channels port by port with the network's own count of them, not the verilated
// routers' (which keep room for more).
TEST(MulticomputerRtlTrace, OnAMeshOfOneVirtualChannelEveryPacketMoveIsTheModels) {
  const sw::NetworkConfig config =
      packets_of(network(sw::Topology::mesh({4, 4}), 2, 1, sw::Impl::Rtl), 3);
  ASSERT_EQ(config.router.vcs, 1u);
  PacketMoves model_moves;
  PacketMoves rtl_moves;
  sc::Multicomputer model("model", model_of(config).validated(), model_moves);
  sc::Multicomputer rtl("rtl", config.validated(), rtl_moves, sc::net::verilated_routers(nullptr));
  std::vector<std::uint32_t> all(16);
  for (std::uint32_t k = 0; k < 16; ++k) {
    all[k] = k;
  }
  const sw::RoutedProgram routed = sw::route_program(sw::generate_random(16, 3, 22), 16, all);
  model.load(routed);
  rtl.load(routed);
  run_until_idle();
  const std::vector<PacketMoves::Move> expected = model_moves.sorted();
  ASSERT_GT(expected.size(), 100u);
  EXPECT_EQ(rtl_moves.first_difference(expected), "");
}

class MulticomputerNiRtl : public testing::TestWithParam<Case> {};

TEST_P(MulticomputerNiRtl, SameCyclesDataAndStatisticsOnProgramsAndTraffic) {
  const Case& k = GetParam();
  traces::Recorder silent;
  sc::Multicomputer model("model", model_of(k.config).validated(), silent);
  sc::Multicomputer rtl("rtl", k.config.validated(), silent, sc::net::verilated_routers(nullptr));
  const std::uint64_t varied = varied_seed();
  Differences found("the verilated nodes against the models");
  std::uint64_t cycles = 0;
  for (const std::uint64_t seed : {std::uint64_t{1}, varied}) {
    cycles += programs_agree(model, rtl, seed, 2, found);
    cycles +=
        traffic_agrees(model, rtl, traffic(k.config.topology, k.pattern, k.rate, k.flits, seed),
                       k.name, found);
  }
  EXPECT_TRUE(found.result());
  std::cout << k.name << ": " << cycles << " simulated cycles on each system\n";
  EXPECT_GT(rtl.network().stats().flit_hops, 1000u);
}

INSTANTIATE_TEST_SUITE_P(
    Networks, MulticomputerNiRtl,
    testing::Values(
        Case{"mesh4x4_one_port",
             rtl_nodes(packets_of(network(sw::Topology::mesh({4, 4}), 2, 1, sw::Impl::Rtl), 3),
                       sw::Impl::Rtl),
             "uniform", 0.1, 3},
        Case{"torus4x4_all_port_startup",
             rtl_nodes(all_port(network(sw::Topology::torus({4, 4}), 2, 1, sw::Impl::Rtl), 5),
                       sw::Impl::Rtl),
             "transpose", 0.08, 5},
        Case{"hypercube4_all_port_packets",
             rtl_nodes(all_port(packets_of(network(sw::Topology::hypercube(4), 1, 2, sw::Impl::Rtl),
                                           4),
                                2),
                       sw::Impl::Rtl),
             "uniform", 0.1, 4},
        Case{"torus2x2x2_one_port_cosim",
             rtl_nodes(network(sw::Topology::torus({2, 2, 2}), 3, 1, sw::Impl::Cosim),
                       sw::Impl::Cosim),
             "uniform", 0.1, 6},
        // Messages of several packets: only a message's first packet starts it (inj_start).
        Case{"mesh4x4_packets_cosim",
             rtl_nodes(packets_of(network(sw::Topology::mesh({4, 4}), 2, 1, sw::Impl::Cosim), 2),
                       sw::Impl::Cosim),
             "uniform", 0.1, 2}),
    [](const testing::TestParamInfo<Case>& p) { return p.param.name; });

// Packets longer than 255 flits (one packet per message): the interface counts a packet's flits
// in as many bits as a message's words.
TEST(MulticomputerNiRtlLong, MessagesOfHundredsOfWordsInOnePacket) {
  const sw::NetworkConfig c =
      rtl_nodes(network(sw::Topology::mesh({2, 2}), 2, 1, sw::Impl::Rtl), sw::Impl::Rtl);
  traces::Recorder silent;
  sc::Multicomputer model("model", model_of(c).validated(), silent);
  sc::Multicomputer rtl("rtl", c.validated(), silent, sc::net::verilated_routers(nullptr));
  const sw::RoutedProgram routed =
      sw::route_program(sw::generate_random(4, 2, 1, 600), 4, {0, 1, 2, 3});
  model.load(routed);
  rtl.load(routed);
  run_until_idle();
  EXPECT_TRUE(
      compare_runs(model.result(), rtl.result(), "random program, up to 600 words per message")
          .result());
  sc::TrafficSpec spec = traffic(c.topology, "uniform", 0.05, 300, 3);
  spec.warmup = 0;
  spec.cycles = 2000;
  Differences traffic_found("traffic");
  traffic_agrees(model, rtl, spec, "300-flit packets", traffic_found);
  EXPECT_TRUE(traffic_found.result());
}

// An all-to-all of multi-packet messages on a 4 x 4 torus: every node reassembles the 15
// messages it receives at once, their packets interleaved on its ejection channel (the
// interface's table holds 64).
TEST(MulticomputerNiRtlLong, AnAllToAllOfManyPacketsReassemblesEveryMessage) {
  sw::NetworkConfig c =
      rtl_nodes(packets_of(network(sw::Topology::torus({4, 4}), 2, 1, sw::Impl::Rtl), 3),
                sw::Impl::Rtl);
  traces::Recorder silent;
  sc::Multicomputer model("model", model_of(c).validated(), silent);
  sc::Multicomputer rtl("rtl", c.validated(), silent, sc::net::verilated_routers(nullptr));
  sw::PatternGenOptions o;
  o.nodes = 16;
  o.words = 12;
  std::vector<std::uint32_t> all(16);
  for (std::uint32_t k = 0; k < 16; ++k) {
    all[k] = k;
  }
  const sw::RoutedProgram routed =
      sw::route_program(sw::generate_pattern(sw::Pattern::C7, o), 16, all);
  model.load(routed);
  rtl.load(routed);
  run_until_idle();
  EXPECT_TRUE(
      compare_runs(model.result(), rtl.result(), "all-to-all, 12 words in packets of 2").result());
}

// More messages reassembled at once at one node than the verilated interface's table holds
// (rtl/limits.cmake, ORTHOSIM_RTL_NI_REASSEMBLY: 64) is the RTL's error, not a silent loss: the
// run stops with the interface's `reasm_overflow` at that node. On a 9 x 9 torus the 80 other
// nodes each send node 0 a message of 100 words in packets of 2 flits (100 packets), so node 0's
// ejection interleaves the packets of up to 80 messages (with 24-word messages the run ends
// before more than 64 are open at once).
TEST(MulticomputerNiRtlLong, MoreMessagesAtOnceThanTheReassemblyTableHoldsStopTheRun) {
  const sw::NetworkConfig c =
      rtl_nodes(packets_of(network(sw::Topology::torus({9, 9}), 2, 1, sw::Impl::Rtl), 2),
                sw::Impl::Rtl);
  traces::Recorder silent;
  sc::Multicomputer rtl("rtl", c.validated(), silent, sc::net::verilated_routers(nullptr));
  sw::PatternGenOptions o;
  o.nodes = 81;
  o.words = 100;
  o.destinations = {0};
  std::vector<std::uint32_t> all(81);
  for (std::uint32_t k = 0; k < 81; ++k) {
    all[k] = k;
  }
  rtl.load(sw::route_program(sw::generate_pattern(sw::Pattern::C5, o), 81, all));
  run_until_idle();
  const sw::NetworkRunSummary r = rtl.result();
  EXPECT_FALSE(r.completed);
  ASSERT_TRUE(r.mismatch);
  std::cout << r.mismatch->to_string() << "\n";
  EXPECT_EQ(r.mismatch->signal, "reasm_overflow");
  EXPECT_NE(r.mismatch->instance.find("ni(0,0)"), std::string::npos) << r.mismatch->instance;
}

// A flood left in the nodes and the routers (queued messages, flits in flight, packets half
// reassembled) must not leak into the runs after it: the verilated interfaces are reset with the
// routers.
TEST(MulticomputerNiRtlReset, ARunLeftWithMessagesInTheNodesDoesNotLeakIntoTheNext) {
  const sw::NetworkConfig config =
      rtl_nodes(packets_of(network(sw::Topology::torus({4, 4}), 2, 1, sw::Impl::Rtl), 3),
                sw::Impl::Rtl);
  traces::Recorder silent;
  sc::Multicomputer model("model", model_of(config).validated(), silent);
  sc::Multicomputer nodes("nodes", config.validated(), silent, sc::net::verilated_routers(nullptr));
  const sc::TrafficSpec flood = undrained_flood(config.topology, 3);
  Differences found("a flood, then a program and traffic");
  traffic_agrees(model, nodes, flood, "flood", found);
  EXPECT_GT(nodes.network().queued_packets(), 0u) << "the flood should leave packets queued";
  programs_agree(model, nodes, 12, 1, found);
  traffic_agrees(model, nodes, traffic(config.topology, "uniform", 0.1, 3, 13), "after", found);
  EXPECT_TRUE(found.result());
}

// The verilated interface counts a message's words in 12 bits: 4095 words, not one more; a
// traffic packet carries its flits but the header as words, so 4096 flits are taken, 4097 not
// (refused when the traffic starts, before any cycle).
TEST(MulticomputerNiRtlConfig, MessagesOfAtMost4095WordsAreTaken) {
  const sw::NetworkConfig config =
      rtl_nodes(network(sw::Topology::mesh({2, 2}), 2, 1, sw::Impl::Rtl), sw::Impl::Rtl);
  traces::Recorder silent;
  sc::Multicomputer nodes("nodes", config.validated(), silent, sc::net::verilated_routers(nullptr));
  EXPECT_NO_THROW(nodes.network().check_message("a message", 4095));
  EXPECT_THROW(nodes.network().check_message("a message", 4096), sw::ConfigError);
  EXPECT_THROW(nodes.start_traffic(traffic(config.topology, "uniform", 0.1, 4097, 1)),
               sw::ConfigError);
  EXPECT_NO_THROW(nodes.start_traffic(traffic(config.topology, "uniform", 0.1, 4096, 1)));
}

// The interface's other limits at their bounds (docs/rtl.md: a 16-bit start-up counter, packets
// of at most 255 flits): 65535 cycles and 255 flits taken, one more refused naming the option.
TEST(MulticomputerNiRtlConfig, StartUpAndPacketLimitsHoldAtTheirBounds) {
  const auto refused = [](const sw::NetworkConfig& c, const std::string& option) {
    try {
      rtl::NetworkInterfacesRtl::check(c);
    } catch (const sw::ConfigError& e) {
      return std::string(e.what()).find(option) != std::string::npos;
    }
    return false;
  };
  sw::NetworkConfig c = network(sw::Topology::mesh({2, 2}), 2, 1, sw::Impl::Rtl);
  c.ni.startup = 65535;
  c.ni.packet_flits = 255;
  EXPECT_NO_THROW(rtl::NetworkInterfacesRtl::check(c));
  c.ni.startup = 65536;
  EXPECT_TRUE(refused(c, "--startup"));
  c.ni.startup = 1;
  c.ni.packet_flits = 256;
  EXPECT_TRUE(refused(c, "--packet-flits"));
}

// A reset forgets a submission given before it and not yet taken by an edge: node 0's message
// is not queued after the reset and the next edge; submitted again, the edge queues it.
TEST(MulticomputerNiRtlReset, AResetForgetsASubmissionNotYetTaken) {
  const sw::NetworkConfig c = network(sw::Topology::mesh({2, 2}), 2, 1, sw::Impl::Rtl);
  rtl::NetworkInterfacesRtl ni({"n0", "n1", "n2", "n3"}, c);
  const std::uint64_t to_node3 =
      rtl::RouterNetworkRtl::header_data(c.topology, 3, 0, 0) & 0xffffffU;
  ni.submit(0, 0, to_node3, 7, 2, 0);
  ni.reset();
  ni.edge();
  EXPECT_EQ(ni.queued(0, 0), 0U);
  ni.submit(0, 0, to_node3, 7, 2, 0);
  ni.edge();
  EXPECT_EQ(ni.queued(0, 0), 1U);
}

// The interface's deliveries (docs/rtl.md, the header's fields: destination [23:0], flits
// [31:24], tag [39:32], first word [51:40], words [63:52]): a message of no words is its one
// header, done as it arrives, on whichever ejection channel (the all-port node's last, PMAX - 1,
// too); the header of a message of two words opens it and is not done.
TEST(MulticomputerNiRtlDeliveries, AMessageOfNoWordsIsDoneAtItsHeaderOnEveryChannel) {
  const sw::NetworkConfig c = network(sw::Topology::mesh({2, 2}), 2, 1, sw::Impl::Rtl);
  rtl::NetworkInterfacesRtl ni({"n0", "n1", "n2", "n3"}, c);
  const std::uint64_t to_node3 =
      rtl::RouterNetworkRtl::header_data(c.topology, 3, 0, 0) & 0xffffffU;
  for (const std::uint32_t e : {0U, rtl::NetworkInterfacesRtl::kChannels - 1}) {
    SCOPED_TRACE("channel " + std::to_string(e));
    const std::uint32_t tag = 9 + e;
    ni.eject(3, e, {true, true, to_node3 | (std::uint64_t{1} << 24) | (std::uint64_t{tag} << 32)});
    ni.settle_ejections();
    const std::vector<rtl::NetworkInterfacesRtl::Delivery> got = ni.deliveries(3);
    ASSERT_EQ(got.size(), 1U);
    EXPECT_EQ(got[0].tag, tag);
    EXPECT_FALSE(got[0].word);
    EXPECT_TRUE(got[0].done);
    ni.edge();
  }
  ni.eject(3, 0,
           {true, false,
            to_node3 | (std::uint64_t{3} << 24) | (std::uint64_t{20} << 32) |
                (std::uint64_t{2} << 52)});
  ni.settle_ejections();
  const std::vector<rtl::NetworkInterfacesRtl::Delivery> opened = ni.deliveries(3);
  ASSERT_EQ(opened.size(), 1U);
  EXPECT_EQ(opened[0].tag, 20U);
  EXPECT_FALSE(opened[0].word);
  EXPECT_FALSE(opened[0].done);
}

/// Node 0's message starts in the model alone (its packets' first headers taken from its
/// interface: traffic messages are one packet each).
class NodeZeroStarts : public traces::Recorder {
 public:
  [[nodiscard]] bool enabled() const override { return true; }
  void message(traces::Cycle at, const traces::MessageTrace& m) override {
    if (m.what == traces::MessageEvent::Inject && m.node == 0) {
      starts.push_back(at.count());
    }
  }
  std::vector<std::uint64_t> starts;
};

/// 10^5 cycles of light traffic on a small network with every interface compared in every
/// cycle the network is stepped: what differs from the model's figures, and whether the run was
/// as long and as compared as it must be.
Differences long_cosim(const sw::Topology& t, sw::NodePorts ports) {
  sw::NetworkConfig c = rtl_nodes(network(t, 2, 1, sw::Impl::Rtl), sw::Impl::Cosim);
  c.ni.ports = ports;
  c.ni.startup = 2;
  traces::Recorder silent;
  sc::Multicomputer model("model", model_of(c).validated(), silent);
  sc::Multicomputer cosim("cosim", c.validated(), silent, sc::net::verilated_routers(nullptr));
  sc::TrafficSpec spec = traffic(t, "uniform", 0.02, 3, 17);
  spec.warmup = 0;
  spec.cycles = 100'000;
  model.start_traffic(spec);
  cosim.start_traffic(spec);
  run_until_idle();
  const sc::TrafficResult m = model.traffic_result();
  Differences d = compare_runs(m, cosim.traffic_result(), t.to_string());
  d.require(m.sim_cycles >= 100'000u, "only " + std::to_string(m.sim_cycles) + " cycles");
  // Four signals per interface in every stepped cycle; a message is stepped in at least its
  // start-up and its flits' cycles.
  const std::uint64_t compared =
      dynamic_cast<const sc::net::RtlNetwork&>(cosim.network()).comparisons();
  const std::uint64_t per_cycle = 4u * t.nodes();
  d.equal("comparisons % (4 per interface)", std::uint64_t{0}, compared % per_cycle);
  d.require(compared / per_cycle >= m.flits_delivered / t.nodes(),
            std::to_string(compared / per_cycle) + " cycles compared, fewer than the " +
                std::to_string(m.flits_delivered / t.nodes()) + " flits per node");
  std::cout << t.to_string() << ": " << m.sim_cycles << " cycles, " << compared / per_cycle
            << " of them stepped and compared, " << m.flits_delivered << " flits\n";
  return d;
}

TEST(MulticomputerNiCosim, AgreesOverAHundredThousandCyclesOnAMesh) {
  EXPECT_TRUE(long_cosim(sw::Topology::mesh({2, 2}), sw::NodePorts::One).result());
}
TEST(MulticomputerNiCosim, AgreesOverAHundredThousandCyclesOnATorus) {
  EXPECT_TRUE(long_cosim(sw::Topology::torus({2, 3}), sw::NodePorts::All).result());
}
TEST(MulticomputerNiCosim, AgreesOverAHundredThousandCyclesOnAHypercube) {
  EXPECT_TRUE(long_cosim(sw::Topology::hypercube(2), sw::NodePorts::All).result());
}

const sw::NetworkConfig kNiCosimNetwork =
    rtl_nodes(packets_of(network(sw::Topology::torus({4, 4}), 2, 1, sw::Impl::Rtl), 4),
              sw::Impl::Cosim);

struct FaultyInterfaceRun {
  std::optional<sc::Mismatch> mismatch;
  std::vector<std::uint64_t> model_starts;
};

FaultyInterfaceRun faulty_interface(const sc::net::RtlNetwork::Fault& fault) {
  NodeZeroStarts starts;
  sc::Multicomputer model("model", model_of(kNiCosimNetwork).validated(), starts);
  traces::Recorder silent;
  sc::Multicomputer cosim("cosim", kNiCosimNetwork.validated(), silent,
                          sc::net::verilated_routers(nullptr));
  sc::net::inject_fault(cosim, fault);
  const sc::TrafficSpec spec = traffic(kNiCosimNetwork.topology, "uniform", 0.15, 4, 5);
  model.start_traffic(spec);
  cosim.start_traffic(spec);
  run_until_idle();
  return {dynamic_cast<const sc::net::RtlNetwork&>(cosim.network()).mismatch(), starts.starts};
}

TEST(MulticomputerNiCosim, AFlippedBitIsCaughtAtItsCycleSignalAndInterface) {
  const FaultyInterfaceRun run = faulty_interface(
      {sc::net::RtlNetwork::Fault::Kind::FlipBit, 0, sw::Cycle{700}, 0, /*interface=*/true});
  ASSERT_TRUE(run.mismatch);
  std::cout << run.mismatch->to_string() << "\n";
  EXPECT_EQ(run.mismatch->cycle, 700u);
  EXPECT_EQ(run.mismatch->signal, "inj_take");
  EXPECT_EQ(run.mismatch->instance, "cosim.rtl.ni(0,0)");
  EXPECT_EQ(run.mismatch->model ^ run.mismatch->rtl, 1u);
}

TEST(MulticomputerNiCosim, AMessageStartOneCycleLateIsCaughtWhereTheModelStartedIt) {
  const std::uint64_t from = 900;
  const FaultyInterfaceRun run = faulty_interface(
      {sc::net::RtlNetwork::Fault::Kind::LateHeader, 0, sw::Cycle{from}, 0, /*interface=*/true});
  ASSERT_TRUE(run.mismatch);
  std::cout << run.mismatch->to_string() << "\n";
  const auto first = std::lower_bound(run.model_starts.begin(), run.model_starts.end(), from);
  ASSERT_NE(first, run.model_starts.end());
  EXPECT_EQ(run.mismatch->cycle, *first);
  EXPECT_EQ(run.mismatch->signal, "inj_start");
  EXPECT_EQ(run.mismatch->instance, "cosim.rtl.ni(0,0)");
  EXPECT_EQ(run.mismatch->model, 0u);
  EXPECT_EQ(run.mismatch->rtl, 1u);
}

TEST(MulticomputerNiCosim, AnInterfaceFaultNeedsTheInterfacesCosimulation) {
  traces::Recorder silent;
  sc::Multicomputer cosim("cosim", kCosimNetwork.validated(), silent,
                          sc::net::verilated_routers(nullptr));
  sc::net::RtlNetwork::Fault fault;
  fault.interface = true;
  EXPECT_THROW(sc::net::inject_fault(cosim, fault), sw::ConfigError);
}

// The verilated interfaces exchange flits with verilated routers only.
TEST(MulticomputerNiRtlConfig, InterfacesInRtlNeedRoutersInRtl) {
  for (const sw::Impl ni : {sw::Impl::Rtl, sw::Impl::Cosim}) {
    sw::NetworkConfig c = network(sw::Topology::mesh({2, 2}), 2, 1, sw::Impl::Model);
    c.impl.network_interface = ni;
    try {
      (void)c.validated();
      ADD_FAILURE() << "ni=" << sw::to_string(ni) << " with model routers was accepted";
    } catch (const sw::ParameterError& e) {
      EXPECT_NE(std::string(e.what()).find(
                    std::string("expected router=rtl or router=cosim with ni=") +
                    sw::to_string(ni)),
                std::string::npos)
          << e.what();
    }
  }
}

}  // namespace
}  // namespace orthosim
