// Model = RTL for the routers ([LCC] section 6; docs/architecture.md): the same randomized messages run on
// the model network (sc::net::Fabric) and on a network of verilated routers
// (rtl/router.sv through rtl::RouterNetworkRtl), and every message must arrive in the same cycle
// with the same words, with the same flit hops, ejections, header wait cycles and peak channel
// occupancy. Meshes, tori and hypercubes up to 64 nodes; wormhole and store-and-forward; one- and
// all-port interfaces; delays and buffer depths within the router's maxima; about 10^5 simulated
// cycles in all, with fixed seeds and one varied seed.
//
// RouterNetworkCosim runs both in lockstep and compares every router's header departures (port,
// virtual channel) and tail ejections every cycle (sc::LockstepChecker); a test-only fault on the
// model's side (a flipped bit in one cycle, a header move reported one cycle late) is caught at
// its cycle, with the signal and the router's name.
//
// The interface that drives the verilated network here is the test's: one packet per message,
// offered one flit per cycle after the start-up t_s, taken when inj_ready (the model's injector:
// its start-up begins in the first cycle its message is at the front of the queue).
#include <gtest/gtest.h>

#include <algorithm>
#include <bitset>
#include <cstdlib>
#include <deque>
#include <optional>
#include <random>
#include <systemc>
#include <tuple>
#include <vector>

#include "rtl/bridge/router_network_rtl.hpp"
#include "sc_models/kernel/lockstep_checker.hpp"
#include "sc_models/net/fabric.hpp"
#include "sw/core/diagnostic.hpp"
#include "sw/topology/topology_description.hpp"
#include "tests/support/varied_seed.hpp"

namespace orthosim {
namespace {

using testing_support::varied_seed;

struct Message {
  std::uint32_t src = 0, dst = 0, words = 0;
  std::uint64_t at = 0;  ///< submitted before the network's step of this cycle
};

/// What a run produced: per message its delivery cycle and words (in arrival order), and counters.
struct Outcome {
  std::vector<std::uint64_t> delivered;
  std::vector<std::vector<std::tuple<std::uint32_t, sw::Word, std::uint64_t>>> words;
  std::uint64_t flit_hops = 0, flits_ejected = 0, header_waits = 0;
  std::uint32_t peak_occupancy = 0;
  std::uint64_t last_cycle = 0;
};

sw::Word word_of(std::uint32_t message, std::uint32_t index) {
  return message * 7919U + index * 104729U + 0x5a5a0000U;
}

class ModelClient final : public sc::net::FabricClient {
 public:
  explicit ModelClient(Outcome& out) : out_(out) {}
  sw::Word read_word(std::uint32_t message, std::uint32_t index) override {
    return word_of(message, index);
  }
  void deliver_word(std::uint32_t message, std::uint32_t index, sw::Word word) override {
    out_.words[message].emplace_back(index, word, now);
  }
  void message_delivered(std::uint32_t message, sw::Cycle at) override {
    out_.delivered[message] = at.count();
  }
  std::uint64_t now = 0;

 private:
  Outcome& out_;
};

/// The model's header moves and tail ejections of one cycle, per router, for the lockstep
/// comparison (bit q * kMaxVcs + v: a header left by output port q on virtual channel v).
class ModelProbe final : public sc::net::FabricClient {
 public:
  ModelProbe(std::uint32_t routers, std::uint32_t vcs)
      : heads(routers), tails(routers), vcs_(vcs) {}
  sw::Word read_word(std::uint32_t message, std::uint32_t index) override {
    return word_of(message, index);
  }
  void deliver_word(std::uint32_t, std::uint32_t, sw::Word) override {}
  void message_delivered(std::uint32_t, sw::Cycle) override {}
  void packet_moved(PacketMove what, std::uint32_t, std::uint32_t router, std::uint32_t out,
                    std::uint32_t, sw::Cycle) override {
    if (what == PacketMove::Hop) {
      heads[router] |= 1U << (out / vcs_ * rtl::RouterNetworkRtl::kMaxVcs + out % vcs_);
    } else if (what == PacketMove::Eject) {
      ++tails[router];
    }
  }
  void clear() {
    std::fill(heads.begin(), heads.end(), 0U);
    std::fill(tails.begin(), tails.end(), 0U);
  }
  std::vector<std::uint32_t> heads, tails;

 private:
  std::uint32_t vcs_;
};

/// Co-simulation: the model steps beside the verilated network on the same messages, and every
/// router's header departures and tail ejections are compared every cycle. A test-only fault
/// switch alters the model's side: one flipped bit of router 0's departures in `cycle`, or the
/// first header move at or after `cycle` reported one cycle late.
struct Lockstep {
  enum class Fault { None, FlippedBit, LateHeader };
  Fault fault = Fault::None;
  std::uint64_t cycle = 0;
};

Outcome run_model(const sw::NetworkConfig& config, const std::vector<Message>& messages) {
  Outcome out;
  out.delivered.assign(messages.size(), 0);
  out.words.resize(messages.size());
  ModelClient client(out);
  sc::net::Fabric fabric(config.validated(), client);
  std::size_t next = 0;
  for (std::uint64_t c = 0;
       next < messages.size() || fabric.next_cycle(sw::Cycle{c}).has_value() || fabric.has_flits();
       ++c) {
    client.now = c;
    for (; next < messages.size() && messages[next].at == c; ++next) {
      fabric.submit(static_cast<std::uint32_t>(next), messages[next].src, messages[next].dst,
                    messages[next].words);
    }
    fabric.begin_cycle(sw::Cycle{c});
    out.last_cycle = c;
    if (c > 1'000'000) {
      ADD_FAILURE() << "model run does not end";
      break;
    }
  }
  out.flit_hops = fabric.stats().flit_hops;
  out.flits_ejected = fabric.stats().flits_ejected;
  out.header_waits = fabric.stats().header_wait_cycles;
  out.peak_occupancy = fabric.channels().peak_occupancy();
  return out;
}

/// Drives the verilated network cycle by cycle with a gated clock: edges only while flits are in
/// flight or offered.
class RtlBench : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(RtlBench);
  RtlBench(const sc_core::sc_module_name& name, const sw::NetworkConfig& config,
           std::vector<Message> messages, std::optional<Lockstep> lockstep = std::nullopt)
      : sc_core::sc_module(name),
        config_(config),
        messages_(std::move(messages)),
        net_("net", config_, clk_),
        lockstep_(lockstep),
        probe_(config_.topology.nodes(), config_.router.vcs) {
    if (lockstep_) {
      model_.emplace(config_.validated(), probe_);
      model_->observe(true);
      for (std::uint32_t r = 0; r < net_.routers(); ++r) {
        checkers_.emplace_back(net_.router_name(r));
      }
    }
    SC_THREAD(run);
  }
  const Outcome& outcome() const { return out_; }
  std::uint64_t edges() const { return edges_; }
  /// The first mismatch of the lockstep comparison, if any.
  std::optional<sc::Mismatch> mismatch() const {
    for (const sc::LockstepChecker& k : checkers_) {
      if (k.first_mismatch()) {
        return k.first_mismatch();
      }
    }
    return std::nullopt;
  }
  std::uint64_t comparisons() const {
    std::uint64_t n = 0;
    for (const sc::LockstepChecker& k : checkers_) {
      n += k.comparisons();
    }
    return n;
  }
  /// The cycle a LateHeader fault took effect.
  std::optional<std::uint64_t> late_at() const { return late_at_; }

 private:
  struct Injector {
    std::deque<std::uint32_t> queue;
    bool started = false;
    std::uint64_t startup_end = 0;
    std::uint32_t next_flit = 0;
  };

  void edge() {
    wait(kHalf);
    clk_.write(true);
    wait(kHalf);
    clk_.write(false);
    ++edges_;
  }

  void run() {
    const sw::Topology& t = config_.topology;
    const std::uint32_t nodes = t.nodes();
    const auto ports = static_cast<std::uint32_t>(t.ports().size());
    const bool all_port = config_.ni.ports == sw::NodePorts::All;
    const std::uint32_t channels = all_port ? ports : 1;
    out_.delivered.assign(messages_.size(), 0);
    out_.words.resize(messages_.size());
    std::vector<Injector> inj(std::size_t{nodes} * channels);
    std::vector<std::uint32_t> got(messages_.size(), 0);
    net_.set_reset(true);
    edge();
    net_.set_reset(false);
    std::size_t next = 0, delivered = 0;
    for (std::uint64_t c = 0; delivered < messages_.size(); ++c) {
      if (c > 1'000'000) {
        ADD_FAILURE() << "rtl run does not end";
        break;
      }
      net_.set_cycle(c);
      if (model_) {
        probe_.clear();
        for (std::size_t k = next; k < messages_.size() && messages_[k].at == c; ++k) {
          model_->submit(static_cast<std::uint32_t>(k), messages_[k].src, messages_[k].dst,
                         messages_[k].words);
        }
        model_->begin_cycle(sw::Cycle{c});
        inject_fault(c);
      }
      for (; next < messages_.size() && messages_[next].at == c; ++next) {
        const Message& m = messages_[next];
        const std::uint32_t j = all_port ? t.port_index(*t.next_port(m.src, m.dst)) : 0;
        inj[std::size_t{m.src} * channels + j].queue.push_back(static_cast<std::uint32_t>(next));
      }
      bool offered = false;
      std::vector<std::size_t> offering;
      for (std::size_t i = 0; i < inj.size(); ++i) {
        Injector& in = inj[i];
        if (in.queue.empty()) {
          continue;
        }
        const std::uint32_t id = in.queue.front();
        const Message& m = messages_[id];
        if (!in.started) {
          in.started = true;
          in.startup_end = c + config_.ni.startup;
        }
        if (c < in.startup_end) {
          continue;
        }
        const std::uint32_t flits = m.words + 1;
        rtl::RouterFlit f;
        f.head = in.next_flit == 0;
        f.tail = in.next_flit + 1 == flits;
        f.data = f.head ? rtl::RouterNetworkRtl::header_data(t, m.dst, flits, id)
                        : (std::uint64_t{id} << 32) | word_of(id, in.next_flit - 1);
        net_.offer(static_cast<std::uint32_t>(i / channels),
                   static_cast<std::uint32_t>(i % channels), f);
        offering.push_back(i);
        offered = true;
      }
      net_.drive_injections();
      bool in_flight = false;
      for (std::uint32_t r = 0; r < nodes && !in_flight; ++r) {
        in_flight = net_.busy(r);
      }
      if (!offered && !in_flight) {
        if (!compare_lockstep(c)) {
          break;
        }
        wait(kHalf * 2);  // an idle cycle: no edge (cost follows activity)
        continue;
      }
      wait(kHalf);  // the delta cycles settle the ready chain
      if (!compare_lockstep(c)) {
        break;
      }
      for (const std::size_t i : offering) {
        Injector& in = inj[i];
        if (!net_.inj_ready(static_cast<std::uint32_t>(i / channels),
                            static_cast<std::uint32_t>(i % channels))) {
          continue;
        }
        if (++in.next_flit == messages_[in.queue.front()].words + 1) {
          in.queue.pop_front();
          in.started = false;
          in.next_flit = 0;
        }
      }
      for (std::uint32_t r = 0; r < nodes; ++r) {
        out_.flit_hops += std::bitset<32>(net_.out_valid(r)).count();
        out_.header_waits += net_.hdr_waits(r);
        for (std::uint32_t p = 0; p < ports + channels; ++p) {
          const std::uint32_t port = p < ports ? p : rtl::RouterNetworkRtl::kMaxPorts + p - ports;
          out_.peak_occupancy = std::max(out_.peak_occupancy, net_.occupancy(r, port));
        }
        for (const auto& [e, f] : net_.ejections(r)) {
          const auto id = static_cast<std::uint32_t>(f.data >> 32);
          ++out_.flits_ejected;
          EXPECT_EQ(messages_.at(id).dst, r) << "message " << id;
          const std::uint32_t index = got[id]++;
          if (index > 0) {
            out_.words[id].emplace_back(index - 1, static_cast<sw::Word>(f.data), c);
          }
          if (f.tail) {
            out_.delivered[id] = c + 1;
            ++delivered;
          }
        }
      }
      out_.last_cycle = c;
      clk_.write(true);
      wait(kHalf);
      clk_.write(false);
      ++edges_;
    }
    sc_core::sc_stop();
  }

  void inject_fault(std::uint64_t c) {
    if (lockstep_->fault == Lockstep::Fault::FlippedBit && c == lockstep_->cycle) {
      probe_.heads[0] ^= 1U;
    }
    if (lockstep_->fault != Lockstep::Fault::LateHeader || c < lockstep_->cycle) {
      return;
    }
    if (late_at_ && *late_at_ + 1 == c) {
      for (std::size_t r = 0; r < deferred_.size(); ++r) {
        probe_.heads[r] |= deferred_[r];
      }
    } else if (!late_at_ && std::any_of(probe_.heads.begin(), probe_.heads.end(),
                                        [](std::uint32_t h) { return h != 0; })) {
      late_at_ = c;
      deferred_ = probe_.heads;
      std::fill(probe_.heads.begin(), probe_.heads.end(), 0U);
    }
  }

  /// Compares every router's outputs of cycle c with the model's; false at the first mismatch.
  bool compare_lockstep(std::uint64_t c) {
    if (!model_) {
      return true;
    }
    bool same = true;
    for (std::uint32_t r = 0; r < net_.routers(); ++r) {
      std::uint32_t tails = 0;
      for (const auto& [e, f] : net_.ejections(r)) {
        tails += f.tail ? 1U : 0U;
      }
      same = checkers_[r].check(c, "out_head", probe_.heads[r], net_.header_departures(r)) &&
             checkers_[r].check(c, "ej_tail", probe_.tails[r], tails) && same;
    }
    return same;
  }

  const sc_core::sc_time kHalf{5, sc_core::SC_NS};
  const sw::NetworkConfig config_;
  const std::vector<Message> messages_;
  sc_core::sc_signal<bool> clk_{"clk", false};
  rtl::RouterNetworkRtl net_;
  Outcome out_;
  std::uint64_t edges_ = 0;
  std::optional<Lockstep> lockstep_;
  ModelProbe probe_;
  std::optional<sc::net::Fabric> model_;
  std::vector<sc::LockstepChecker> checkers_;
  std::vector<std::uint32_t> deferred_;
  std::optional<std::uint64_t> late_at_;
};

/// Random messages: `count` of them, 0..max_words words, submitted over `spread` cycles, in
/// submission order.
std::vector<Message> random_messages(const sw::Topology& t, std::uint32_t count,
                                     std::uint32_t max_words, std::uint64_t spread,
                                     std::mt19937_64& rng) {
  std::vector<Message> m(count);
  for (Message& x : m) {
    x.src = static_cast<std::uint32_t>(rng() % t.nodes());
    x.dst = static_cast<std::uint32_t>((x.src + 1 + rng() % (t.nodes() - 1)) % t.nodes());
    x.words = static_cast<std::uint32_t>(rng() % (max_words + 1));
    x.at = rng() % spread;
  }
  std::stable_sort(m.begin(), m.end(),
                   [](const Message& a, const Message& b) { return a.at < b.at; });
  return m;
}

/// `fixed`, unless ORTHOSIM_TEST_SEED is set (to reproduce a varied run).
std::uint64_t seed_for(std::uint64_t fixed) {
  if (const char* v = std::getenv("ORTHOSIM_TEST_SEED"); v != nullptr && *v != '\0') {
    return std::strtoull(v, nullptr, 10);
  }
  return fixed;
}

struct Case {
  sw::NetworkConfig config;
  std::uint32_t messages;
  std::uint32_t max_words;
  std::uint64_t spread;
};

void compare(const Case& k, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const std::vector<Message> messages =
      random_messages(k.config.topology, k.messages, k.max_words, k.spread, rng);
  const Outcome model = run_model(k.config, messages);
  RtlBench bench("bench", k.config, messages);
  sc_core::sc_start();
  const Outcome& rtl = bench.outcome();
  SCOPED_TRACE(k.config.topology.to_string() + " seed " + std::to_string(seed));
  for (std::size_t m = 0; m < messages.size(); ++m) {
    ASSERT_EQ(model.delivered[m], rtl.delivered[m]) << "message " << m << " delivery cycle";
    ASSERT_EQ(model.words[m], rtl.words[m]) << "message " << m << " words";
    ASSERT_EQ(rtl.words[m].size(), messages[m].words);
    for (const auto& [index, word, at] : rtl.words[m]) {
      ASSERT_EQ(word, word_of(static_cast<std::uint32_t>(m), index));
    }
  }
  EXPECT_EQ(model.flit_hops, rtl.flit_hops);
  EXPECT_EQ(model.flits_ejected, rtl.flits_ejected);
  EXPECT_EQ(model.header_waits, rtl.header_waits);
  EXPECT_EQ(model.peak_occupancy, rtl.peak_occupancy);
  EXPECT_GT(rtl.header_waits, 0U) << "the workload should contend";
  std::printf("%s: %zu messages, %llu cycles, %llu clock edges, %llu flit hops\n",
              k.config.topology.to_string().c_str(), messages.size(),
              static_cast<unsigned long long>(rtl.last_cycle),
              static_cast<unsigned long long>(bench.edges()),
              static_cast<unsigned long long>(rtl.flit_hops));
}

sw::NetworkConfig network(sw::Topology t, std::uint32_t depth, std::uint32_t delay) {
  sw::NetworkConfig c;
  c.topology = std::move(t);
  c.router.vcs = sw::default_vcs(c.topology);
  c.router.buffer_flits = depth;
  c.router.delay = delay;
  c.impl.router = sw::Impl::Rtl;
  return c;
}

TEST(RouterNetworkRtl, Mesh4x4WormholeDepth1) {
  ASSERT_NO_FATAL_FAILURE(
      compare({network(sw::Topology::mesh({4, 4}), 1, 1), 1800, 12, 12000}, seed_for(11)));
}

TEST(RouterNetworkRtl, Torus8x8Depth2Delay2) {
  ASSERT_NO_FATAL_FAILURE(
      compare({network(sw::Topology::torus({8, 8}), 2, 2), 2400, 10, 18000}, seed_for(12)));
}

TEST(RouterNetworkRtl, Hypercube6AllPortStartup) {
  sw::NetworkConfig c = network(sw::Topology::hypercube(6), 4, 1);
  c.ni.ports = sw::NodePorts::All;
  c.ni.startup = 3;
  ASSERT_NO_FATAL_FAILURE(compare({c, 2400, 8, 18000}, seed_for(13)));
}

TEST(RouterNetworkRtl, Torus4x4x4TwoVcsDepth3) {
  sw::NetworkConfig c = network(sw::Topology::torus({4, 4, 4}), 3, 1);
  ASSERT_NO_FATAL_FAILURE(compare({c, 2400, 6, 18000}, seed_for(14)));
}

TEST(RouterNetworkRtl, Mesh8x8StoreAndForward) {
  sw::NetworkConfig c = network(sw::Topology::mesh({8, 8}), 4, 1);
  c.router.switching = sw::Switching::StoreAndForward;
  ASSERT_NO_FATAL_FAILURE(compare({c, 1800, 3, 18000}, seed_for(15)));
}

TEST(RouterNetworkRtl, MeshTwoVcsDelay3) {
  sw::NetworkConfig c = network(sw::Topology::mesh({4, 8}), 1, 3);
  c.router.vcs = 2;
  ASSERT_NO_FATAL_FAILURE(compare({c, 1800, 12, 15000}, seed_for(16)));
}

// Short packets through shallow buffers at a load that froze the switch allocation before it
// served sure moves first (docs/networks.md, "Switch and links"): both must keep moving alike.
TEST(RouterNetworkRtl, Torus8x8ShortPacketsShallowBuffersSaturated) {
  ASSERT_NO_FATAL_FAILURE(
      compare({network(sw::Topology::torus({8, 8}), 2, 1), 3000, 3, 3000}, seed_for(17)));
}

TEST(RouterNetworkRtl, VariedSeedTorus4x8) {
  sw::NetworkConfig c = network(sw::Topology::torus({4, 8}), 2, 1);
  ASSERT_NO_FATAL_FAILURE(compare({c, 800, 10, 6000}, varied_seed()));
}

/// Runs the lockstep co-simulation on a torus 4x4 and returns the bench's verdict.
struct CosimRun {
  std::optional<sc::Mismatch> mismatch;
  std::uint64_t comparisons = 0;
  std::optional<std::uint64_t> late_at;
  std::string router0;
};

CosimRun cosim(Lockstep lockstep) {
  std::mt19937_64 rng(21);
  const sw::NetworkConfig config = network(sw::Topology::torus({4, 4}), 1, 1);
  RtlBench bench("bench", config, random_messages(config.topology, 300, 8, 2000, rng), lockstep);
  sc_core::sc_start();
  return {bench.mismatch(), bench.comparisons(), bench.late_at(), "bench.net.r(0,0)"};
}

TEST(RouterNetworkCosim, ModelAndRtlAgreeEveryCycle) {
  const CosimRun run = cosim({});
  EXPECT_FALSE(run.mismatch) << run.mismatch->to_string();
  EXPECT_GT(run.comparisons, 2U * 16U * 2000U);
}

TEST(RouterNetworkCosim, FlippedBitIsCaughtAtItsCycleAndSignal) {
  const CosimRun run = cosim({Lockstep::Fault::FlippedBit, 777});
  ASSERT_TRUE(run.mismatch);
  std::printf("%s\n", run.mismatch->to_string().c_str());
  EXPECT_EQ(run.mismatch->cycle, 777U) << run.mismatch->to_string();
  EXPECT_EQ(run.mismatch->signal, "out_head");
  EXPECT_EQ(run.mismatch->instance, run.router0);
  EXPECT_EQ(run.mismatch->model ^ run.mismatch->rtl, 1U);
}

TEST(RouterNetworkCosim, OneCycleLateHeaderIsCaughtAtItsCycle) {
  const CosimRun run = cosim({Lockstep::Fault::LateHeader, 500});
  ASSERT_TRUE(run.late_at);
  ASSERT_TRUE(run.mismatch);
  std::printf("%s\n", run.mismatch->to_string().c_str());
  EXPECT_EQ(run.mismatch->cycle, *run.late_at) << run.mismatch->to_string();
  EXPECT_EQ(run.mismatch->signal, "out_head");
  EXPECT_EQ(run.mismatch->model, 0U);
  EXPECT_NE(run.mismatch->rtl, 0U);
}

// Two verilations of the router: a network with at most 4 ports (2 per grid dimension, 1 per
// hypercube dimension) runs the one with PMAX = 4, the others the one with PMAX = 6. The tests
// above run both: 2-D meshes and tori the small one, the 3-D torus and the 6-cube the other.
TEST(RouterNetworkRtl, NetworksOfAtMostFourPortsRunTheSmallerVerilation) {
  const std::vector<std::pair<sw::Topology, std::uint32_t>> cases = {
      {sw::Topology::torus({8}), 4},       {sw::Topology::mesh({4, 4}), 4},
      {sw::Topology::torus({8, 8}), 4},    {sw::Topology::mesh({2, 2, 2}), 6},
      {sw::Topology::torus({4, 4, 4}), 6}, {sw::Topology::hypercube(2), 4},
      {sw::Topology::hypercube(4), 4},     {sw::Topology::hypercube(5), 6},
      {sw::Topology::hypercube(6), 6}};
  for (const auto& [topology, pmax] : cases) {
    EXPECT_EQ(rtl::RouterNetworkRtl::verilated_ports(network(topology, 1, 1)), pmax)
        << topology.to_string();
  }
  sc_core::sc_signal<bool> clk("clk");
  const rtl::RouterNetworkRtl grid("grid", network(sw::Topology::torus({4, 4}), 1, 1), clk);
  const rtl::RouterNetworkRtl cube("cube", network(sw::Topology::hypercube(5), 1, 1), clk);
  EXPECT_EQ(grid.verilated_ports(), 4U);
  EXPECT_EQ(cube.verilated_ports(), 6U);
}

/// Offers one header to `dst` on injection channel 0 of router 0 in cycle 0 and reads, `cycles`
/// cycles later, the flits held by router `at`'s injection channel 0 and by every network port
/// (occupancy()'s numbering: injection channel j is port kMaxPorts + j in either verilation).
class InjectionProbe : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(InjectionProbe);
  InjectionProbe(const sc_core::sc_module_name& name, const sw::NetworkConfig& config,
                 std::uint32_t dst, std::uint64_t cycles = 1, std::uint32_t at = 0)
      : sc_core::sc_module(name),
        config_(config),
        dst_(dst),
        cycles_(cycles),
        at_(at),
        net_("net", config_, clk_) {
    SC_THREAD(run);
  }
  std::uint32_t verilated_ports() const { return net_.verilated_ports(); }
  bool ready = false;
  std::vector<std::uint32_t> held;  ///< [port]: network ports 0..kMaxPorts-1, then injection 0

 private:
  void edge() {
    wait(kHalf);
    clk_.write(true);
    wait(kHalf);
    clk_.write(false);
  }
  void run() {
    net_.set_reset(true);
    edge();
    net_.set_reset(false);
    net_.set_cycle(0);
    net_.offer(0, 0,
               {true, false, rtl::RouterNetworkRtl::header_data(config_.topology, dst_, 2, 0)});
    net_.drive_injections();
    ready = net_.inj_ready(0, 0);
    for (std::uint64_t c = 1; c <= cycles_; ++c) {
      edge();
      net_.set_cycle(c);
      net_.drive_injections();
    }
    for (std::uint32_t p = 0; p <= rtl::RouterNetworkRtl::kMaxPorts; ++p) {
      held.push_back(net_.occupancy(at_, p));
    }
    sc_core::sc_stop();
  }
  const sc_core::sc_time kHalf{5, sc_core::SC_NS};
  sw::NetworkConfig config_;
  std::uint32_t dst_;
  std::uint64_t cycles_;
  std::uint32_t at_;
  sc_core::sc_signal<bool> clk_{"clk"};
  rtl::RouterNetworkRtl net_;
};

// The header waits out the router delay (10 cycles) in injection buffer 0 of the 4-port
// verilation: held there, and by no network port.
TEST(RouterNetworkRtl, AnInjectedHeaderIsHeldByItsInjectionChannel) {
  const sw::NetworkConfig config = network(sw::Topology::torus({4, 4}), 2, 10);
  InjectionProbe probe("probe", config, config.topology.nodes() - 1);
  sc_core::sc_start();
  ASSERT_EQ(probe.verilated_ports(), 4U);
  EXPECT_TRUE(probe.ready);
  const std::vector<std::uint32_t> expected = {0, 0, 0, 0, 0, 0, 1};
  EXPECT_EQ(probe.held, expected);
}

// A header from router (0,0) to (0,1) on the 4-port verilation: taken at the edge of cycle 0, it
// leaves after the delay of 10 cycles by port 2 (y+) into (0,1)'s input port 2, where it waits
// 10 cycles more before ejecting. In cycle 15 (0,1) holds it there, and network ports 4 and 5,
// which this verilation has not, hold nothing.
TEST(RouterNetworkRtl, PortsPastTheVerilationsHoldNothing) {
  const sw::Topology torus = sw::Topology::torus({4, 4});
  const std::uint32_t up = torus.node_at({0, 1});
  InjectionProbe probe("probe", network(torus, 2, 10), up, 15, up);
  sc_core::sc_start();
  ASSERT_EQ(probe.verilated_ports(), 4U);
  const std::vector<std::uint32_t> expected = {0, 0, 1, 0, 0, 0, 0};
  EXPECT_EQ(probe.held, expected);
}

TEST(RouterNetworkRtl, LimitsAreConfigErrors) {
  const auto fails = [](const sw::NetworkConfig& c, const std::string& what) {
    try {
      rtl::RouterNetworkRtl::check(c);
      ADD_FAILURE() << "accepted: " << what;
    } catch (const sw::ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  };
  fails(network(sw::Topology::hypercube(7), 1, 1), "network ports");
  sw::NetworkConfig c = network(sw::Topology::mesh({4, 4}), 5, 1);
  fails(c, "--buffers");
  c = network(sw::Topology::torus({4, 4}), 1, 1);
  c.router.vcs = 4;
  fails(c, "--vcs");
  c = network(sw::Topology::torus({4, 4}), 1, 1);
  c.router.dateline = false;
  fails(c, "dateline");
  c = network(sw::Topology::mesh({300, 2}), 1, 1);
  fails(c, "--dims");
  c = network(sw::Topology::mesh({2, 2}), 1, 1);
  sw::TopologyDescription::Builder pair("pair of routers");
  pair.add_router(1);
  pair.add_router(1);
  pair.connect_both(0, 0, 1, 0);
  pair.attach_node(0);
  pair.attach_node(1);
  c.hand_built = pair.build();
  fails(c, "meshes, tori and hypercubes only, not the hand-built pair of routers");
  EXPECT_NO_THROW(rtl::RouterNetworkRtl::check(network(sw::Topology::torus({4, 4, 4}), 4, 9)));
}

// Each limit holds at its bound (docs/rtl.md: CW = 8 bits per coordinate, the delay register's 8
// bits): a radix and a delay of 255 are taken, 256 refused naming the option; the most virtual
// channels and the deepest buffers are taken.
TEST(RouterNetworkRtl, EachLimitHoldsAtItsBound) {
  const auto refused = [](const sw::NetworkConfig& c, const std::string& what) {
    try {
      rtl::RouterNetworkRtl::check(c);
    } catch (const sw::ConfigError& e) {
      return std::string(e.what()).find(what) != std::string::npos;
    }
    return false;
  };
  EXPECT_NO_THROW(rtl::RouterNetworkRtl::check(network(sw::Topology::mesh({255, 2}), 1, 255)));
  EXPECT_TRUE(refused(network(sw::Topology::mesh({2, 256}), 1, 1), "--dims"));
  EXPECT_TRUE(refused(network(sw::Topology::mesh({2, 2}), 1, 256), "--router-delay"));
  sw::NetworkConfig c = network(sw::Topology::torus({4, 4}), rtl::RouterNetworkRtl::kMaxDepth, 1);
  c.router.vcs = rtl::RouterNetworkRtl::kMaxVcs;
  EXPECT_NO_THROW(rtl::RouterNetworkRtl::check(c));
  // A ring is a torus of one dimension: without the dateline its ready chain closes too.
  sw::NetworkConfig ring = network(sw::Topology::torus({8}), 1, 1);
  ring.router.dateline = false;
  EXPECT_TRUE(refused(ring, "dateline"));
}

// A header's data (docs/rtl.md, "Flits"): the destination's coordinates CW = 8 bits each from
// bit 0 (the node number on a hypercube), the packet's flits at [24 +: 8] saturated at 255, the
// tag in bits 63..32.
TEST(RouterNetworkRtl, AHeaderCarriesTheDestinationTheLengthAndTheTag) {
  const sw::Topology mesh = sw::Topology::mesh({4, 5, 6});
  const std::uint32_t dst = mesh.node_at({3, 2, 5});
  EXPECT_EQ(rtl::RouterNetworkRtl::header_data(mesh, dst, 7, 0xABCD1234U),
            (std::uint64_t{0xABCD1234U} << 32) | (7U << 24) | (5U << 16) | (2U << 8) | 3U);
  EXPECT_EQ(rtl::RouterNetworkRtl::header_data(mesh, dst, 300, 1),
            (std::uint64_t{1} << 32) | (255U << 24) | (5U << 16) | (2U << 8) | 3U);
  EXPECT_EQ(rtl::RouterNetworkRtl::header_data(sw::Topology::hypercube(6), 45, 255, 0xFFFFFFFFU),
            (std::uint64_t{0xFFFFFFFFU} << 32) | (255U << 24) | 45U);
  EXPECT_EQ(rtl::RouterNetworkRtl::node_label(mesh, dst), "(3,2,5)");
  EXPECT_EQ(rtl::RouterNetworkRtl::node_label(sw::Topology::hypercube(6), 45), "45");
}

}  // namespace
}  // namespace orthosim
