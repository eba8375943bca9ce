// The network model without the SystemC kernel: the test drives a Fabric cycle by cycle as
// Multicomputer's process does, and checks what arrives and when against a breadth-first search
// of the topology's channels and the zero-load formula t_s + (h+1) D + F, on meshes, tori and a
// hypercube and on hand-built networks whose routers are apart from their nodes.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "sc_models/net/fabric.hpp"
#include "sw/topology/topology_description.hpp"

namespace orthosim {
namespace {

using sw::Topology;

/// Words are made from (message, index), so a word that arrives in the wrong place shows (the
/// tests send fewer than 2^16 messages of fewer than 2^16 words).
sw::Word word_of(std::uint32_t message, std::uint32_t index) {
  return static_cast<sw::Word>((message << 16) | index);
}

class RecordingClient final : public sc::net::FabricClient {
 public:
  sw::Word read_word(std::uint32_t message, std::uint32_t index) override {
    return word_of(message, index);
  }
  void deliver_word(std::uint32_t message, std::uint32_t index, sw::Word word) override {
    ++words_[{message, index}];
    if (index != next_index_[message]++) {
      ++out_of_order_;
    }
    if (word != word_of(message, index)) {
      ++corrupted_;
    }
  }
  void message_delivered(std::uint32_t message, sw::Cycle at) override {
    delivered_[message].push_back(at.count());
  }

  /// The cycle message `message` became visible; fails the test unless it arrived exactly once.
  std::uint64_t arrival(std::uint32_t message) const {
    const auto it = delivered_.find(message);
    EXPECT_TRUE(it != delivered_.end() && it->second.size() == 1) << "message " << message;
    return it == delivered_.end() ? 0 : it->second.front();
  }
  /// Whether every word 0..words-1 of `message` arrived exactly once, unchanged.
  bool words_arrived_once(std::uint32_t message, std::uint32_t words) const {
    for (std::uint32_t i = 0; i < words; ++i) {
      const auto it = words_.find({message, i});
      if (it == words_.end() || it->second != 1) {
        return false;
      }
    }
    return corrupted_ == 0;
  }
  /// Whether every message's words arrived in the order they were sent.
  bool in_order() const { return out_of_order_ == 0; }
  void clear() {
    words_.clear();
    delivered_.clear();
    next_index_.clear();
    corrupted_ = 0;
    out_of_order_ = 0;
  }

 private:
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> words_;
  std::map<std::uint32_t, std::vector<std::uint64_t>> delivered_;
  std::map<std::uint32_t, std::uint32_t> next_index_;
  std::uint32_t corrupted_ = 0;
  std::uint32_t out_of_order_ = 0;
};

/// Steps every cycle from `first` until the network is idle, as the network process would;
/// returns the number of cycles stepped.
std::uint64_t run_until_idle(sc::net::Fabric& fabric, std::uint64_t first) {
  sw::Cycle c{first};
  std::uint64_t stepped = 0;
  for (std::optional<sw::Cycle> next = c; next; next = fabric.next_cycle(c)) {
    c = *next;
    fabric.begin_cycle(c);
    ++stepped;
    if (stepped > 100'000) {
      ADD_FAILURE() << "the network did not drain";
      break;
    }
  }
  return stepped;
}

/// Shortest path lengths from `src` by breadth-first search over the topology's channels: the
/// dimension-ordered routes of meshes, tori and hypercubes are shortest paths.
std::vector<std::uint32_t> distances(const Topology& t, std::uint32_t src) {
  std::vector<std::uint32_t> d(t.nodes(), UINT32_MAX);
  std::deque<std::uint32_t> frontier{src};
  d[src] = 0;
  while (!frontier.empty()) {
    const std::uint32_t at = frontier.front();
    frontier.pop_front();
    for (const sw::Port p : t.ports()) {
      const std::optional<std::uint32_t> next = t.neighbor(at, p);
      if (next && d[*next] == UINT32_MAX) {
        d[*next] = d[at] + 1;
        frontier.push_back(*next);
      }
    }
  }
  return d;
}

/// The channels some message took, by name, with the number of messages that took each.
std::map<std::string, std::uint64_t> channels_taken(const sc::net::Fabric& fabric) {
  std::map<std::string, std::uint64_t> taken;
  for (const sw::ChannelSummary& r : fabric.channels().reports()) {
    if (r.messages > 0) {
      taken[r.name] = r.messages;
    }
  }
  return taken;
}

sw::NetworkConfig network(const Topology& t, std::uint64_t startup, std::uint32_t delay) {
  sw::NetworkConfig c;
  c.topology = t;
  c.router.vcs = sw::default_vcs(t);
  c.ni.startup = startup;
  c.router.delay = delay;
  return c;
}

// Every ordered pair of nodes of small meshes, tori and a hypercube, one message alone.
TEST(FabricWithoutKernel, EveryPairArrivesInTheZeroLoadTimeOfItsShortestPath) {
  RecordingClient client;
  std::uint32_t checked = 0;
  std::uint32_t expected_checks = 0;
  for (const Topology& t :
       {Topology::mesh({3, 2}), Topology::torus({4, 3}), Topology::hypercube(3)}) {
    for (const auto& [startup, delay] : {std::pair{0u, 1u}, std::pair{2u, 3u}}) {
      const sw::NetworkConfig config = network(t, startup, delay);
      sc::net::Fabric fabric(config.validated(), client);
      constexpr std::uint32_t kWords = 3;
      std::uint32_t message = 0;
      std::uint64_t c = 0;
      for (std::uint32_t src = 0; src < t.nodes(); ++src) {
        const std::vector<std::uint32_t> hops = distances(t, src);
        for (std::uint32_t dst = 0; dst < t.nodes(); ++dst) {
          if (dst == src) {
            continue;
          }
          ++expected_checks;
          client.clear();
          fabric.reset();
          fabric.submit(message, src, dst, kWords);
          const std::uint64_t sent = c;
          c += run_until_idle(fabric, c) + 5;  // the next message starts in a later cycle
          const std::uint64_t flits = kWords + 1;
          EXPECT_EQ(client.arrival(message) - sent, startup + (hops[dst] + 1) * delay + flits)
              << t.to_string() << " " << src << "->" << dst << " t_s=" << startup << " D=" << delay;
          EXPECT_TRUE(client.words_arrived_once(message, kWords)) << src << "->" << dst;
          EXPECT_FALSE(fabric.has_flits());
          ++message;
          ++checked;
        }
      }
    }
  }
  EXPECT_EQ(checked, expected_checks);
  EXPECT_EQ(checked, 2u * (6 * 5 + 12 * 11 + 8 * 7));
}

// Two messages from one node to the same destination, submitted in the same cycle, router delay
// D = 1 (a worm then never stalls: its flits enter the network one per cycle). The one-port
// interface injects the second only after the first's F flits, and the second pays its own
// start-up t_s then; the first's tail leaves every router before the second's header needs it,
// so the second arrives t_s + F cycles after the first.
TEST(FabricWithoutKernel, ASecondMessageQueuedBehindTheFirstArrivesStartupPlusFlitsLater) {
  RecordingClient client;
  constexpr std::uint32_t delay = 1;
  for (const std::uint32_t startup : {0u, 3u}) {
    client.clear();
    const Topology line = Topology::mesh({4});
    sc::net::Fabric fabric(network(line, startup, delay).validated(), client);
    constexpr std::uint32_t kWords = 5;
    constexpr std::uint64_t kFlits = kWords + 1;
    fabric.submit(0, 0, 3, kWords);
    fabric.submit(1, 0, 3, kWords);
    run_until_idle(fabric, 0);
    const std::uint64_t first = client.arrival(0);
    EXPECT_EQ(first, startup + (3 + 1) * delay + kFlits);
    EXPECT_EQ(client.arrival(1), first + startup + kFlits) << "t_s=" << startup;
    EXPECT_TRUE(client.words_arrived_once(0, kWords));
    EXPECT_TRUE(client.words_arrived_once(1, kWords));
    EXPECT_EQ(fabric.stats().flits_ejected, 2 * kFlits);
    EXPECT_EQ(fabric.stats().flit_hops, 2 * 3 * kFlits);
  }
}

// Two headers reach router 1 of a 3-node line in the same cycle and ask for its one channel
// toward node 2: first come, first served, ties to the lower buffer (fabric.hpp; RouterPorts
// numbers the network input ports before the injection channels), so node 0's header, arriving
// from router 0, wins over node 1's, injected in the same cycle. By hand, 5-flit messages, D = 1,
// t_s = 0: node 0's message arrives in its zero-load time (h+1) D + F = 3 + 5 = 8; its header
// left router 1 in cycle 2 and its tail leaves in cycle 2 + 4 = 6, so node 1's header takes the
// channel in cycle 7, five cycles after node 0's, and its message arrives at 8 + 5 = 13.
TEST(FabricWithoutKernel, ATieForAnOutputChannelGoesToTheLowerBuffer) {
  RecordingClient client;
  sc::net::Fabric fabric(network(Topology::mesh({3}), 0, 1).validated(), client);
  constexpr std::uint32_t kWords = 4;
  fabric.submit(0, 0, 2, kWords);  // its header enters router 1 in cycle 1
  fabric.begin_cycle(sw::Cycle{0});
  fabric.submit(1, 1, 2, kWords);  // injected at router 1 in cycle 1
  run_until_idle(fabric, 1);
  EXPECT_EQ(client.arrival(0), 8u);
  EXPECT_EQ(client.arrival(1), 13u);
  EXPECT_TRUE(client.words_arrived_once(0, kWords));
  EXPECT_TRUE(client.words_arrived_once(1, kWords));
}

// The ways a fabric can be stepped, each a second implementation of the others: 0 its own
// (unobserved) path, 1 observed, 2 the general path.
constexpr std::array<int, 3> kPaths{0, 1, 2};
std::string path_name(int path) {
  return path == 0 ? "unobserved" : path == 1 ? "observed" : "general path";
}
void take_path(sc::net::Fabric& fabric, int path) {
  fabric.observe(path == 1);
  if (path == 2) {
    fabric.use_general_path();
  }
}

// The counters of a tie, by hand, on every path of the Fabric (the worms, the deep worms, the runs
// of VC worms, the one-pass moves, and the general path): nodes 0 and 2 of a 3-node line each
// send F = 5 flits to node 1 in cycle 0, t_s = 0, D = 1. Both headers enter router 1 in cycle 1
// and ask for its one ejection channel in cycle 2; one wins and arrives in its zero-load time
// (h+1) D + F = 2 + F, its tail ejecting in cycle F + 1; the other's header waits the F cycles
// 2..F+1 (header_wait_cycles = F, the first of them lost to the winner in the same cycle's
// allocation, the others to a channel held from the start of the cycle) and arrives F later.
// Each flit moves h + 2 = 3 times (injection, hop, ejection). With one-flit buffers the routers
// hold flits at the start of these cycles (router_steps, one per router and cycle): router 0
// from cycle 1 until the winner's tail leaves it in cycle F (F cycles), router 1 from 2 until
// the loser's tail ejects in 2F + 1 (2F), router 2 from 1 until the loser's tail leaves in 2F
// (2F; the flits behind the waiting header stay in the injection buffer and the interface).
TEST(FabricWithoutKernel, AHeaderThatLosesATieWaitsOneCycleForEachFlitOfTheWinner) {
  constexpr std::uint32_t kWords = 4;
  constexpr std::uint64_t kFlits = kWords + 1;
  for (const auto& [vcs, depth] : {std::pair{1u, 1u}, std::pair{1u, 2u}, std::pair{1u, 4u},
                                   std::pair{2u, 1u}, std::pair{2u, 3u}}) {
    for (const int path : kPaths) {
      SCOPED_TRACE(std::to_string(vcs) + " VCs, " + std::to_string(depth) + "-flit buffers, " +
                   path_name(path));
      sw::NetworkConfig config = network(Topology::mesh({3}), 0, 1);
      config.router.vcs = vcs;
      config.router.buffer_flits = depth;
      RecordingClient client;
      sc::net::Fabric fabric(config.validated(), client);
      take_path(fabric, path);
      fabric.submit(0, 0, 1, kWords);
      fabric.submit(1, 2, 1, kWords);
      run_until_idle(fabric, 0);
      const std::uint64_t first = std::min(client.arrival(0), client.arrival(1));
      const std::uint64_t second = std::max(client.arrival(0), client.arrival(1));
      EXPECT_EQ(first, 2 + kFlits);
      EXPECT_EQ(second, 2 + 2 * kFlits);
      EXPECT_TRUE(client.words_arrived_once(0, kWords));
      EXPECT_TRUE(client.words_arrived_once(1, kWords));
      const sc::net::FabricStats& s = fabric.stats();
      EXPECT_EQ(s.header_wait_cycles, kFlits);
      EXPECT_EQ(s.flit_hops, 2 * kFlits);
      EXPECT_EQ(s.flits_moved, 2 * 3 * kFlits);
      EXPECT_EQ(s.flits_ejected, 2 * kFlits);
      EXPECT_EQ(s.packets_delivered, 2u);
      if (depth == 1) {
        EXPECT_EQ(s.router_steps, kFlits + 2 * kFlits + 2 * kFlits);
      }
      EXPECT_EQ(fabric.channels().max_contention(), 1u);
    }
  }
}

// First come, first served (fabric.hpp): the older of two waiting headers wins a channel, whatever
// their buffers. On a 3x3 mesh, node 3 sends F = 10 flits to node 4 (the centre) in cycle 0: its
// header takes router 4's ejection channel in cycle 2 and its tail ejects in cycle F + 1, so it
// arrives in 2 + F = 12. Nodes 5 and 1 send 5 flits each to node 4 in cycles 1 and 3, in both
// orders: their headers enter router 4 in cycles 2 and 4 (from two different input ports, one
// of them the lower buffer) and wait for the channel. The first sent takes it in cycle F + 2 and
// arrives 5 cycles later, in 17; the second takes it then and arrives in 22. Their headers wait
// from their first ready cycle (3 and 5) to the cycle before their grants (11 and 16): 9 + 12.
TEST(FabricWithoutKernel, TheOlderOfTwoWaitingHeadersTakesTheChannelFirst) {
  for (const auto& [first, second] : {std::pair{5u, 1u}, std::pair{1u, 5u}}) {
    for (const auto& [vcs, depth] :
         {std::pair{1u, 1u}, std::pair{1u, 3u}, std::pair{2u, 1u}, std::pair{2u, 2u}}) {
      for (const int path : kPaths) {
        SCOPED_TRACE("nodes " + std::to_string(first) + " then " + std::to_string(second) + ", " +
                     std::to_string(vcs) + " VCs, " + std::to_string(depth) + "-flit buffers, " +
                     path_name(path));
        sw::NetworkConfig config = network(Topology::mesh({3, 3}), 0, 1);
        config.router.vcs = vcs;
        config.router.buffer_flits = depth;
        RecordingClient client;
        sc::net::Fabric fabric(config.validated(), client);
        take_path(fabric, path);
        fabric.submit(0, 3, 4, 9);
        fabric.begin_cycle(sw::Cycle{0});
        fabric.submit(1, first, 4, 4);
        fabric.begin_cycle(sw::Cycle{1});
        fabric.begin_cycle(sw::Cycle{2});
        fabric.submit(2, second, 4, 4);
        run_until_idle(fabric, 3);
        EXPECT_EQ(client.arrival(0), 12u);
        EXPECT_EQ(client.arrival(1), 17u);
        EXPECT_EQ(client.arrival(2), 22u);
        EXPECT_EQ(fabric.stats().header_wait_cycles, 9u + 12u);
        EXPECT_TRUE(client.words_arrived_once(1, 4));
        EXPECT_TRUE(client.words_arrived_once(2, 4));
      }
    }
  }
}

// A message is one path through each channel it takes, however many packets carry it ([LCC]
// counts paths): a message of 7 words in packets of 3 flits (two words each, 4 packets) from
// node 0 to node 3 of a 4-node line counts once on each of its 3 channels, and nothing else does.
TEST(FabricWithoutKernel, AMessageOfSeveralPacketsCountsOnceOnEachChannelItTakes) {
  sw::NetworkConfig config = network(Topology::mesh({4}), 0, 1);
  config.ni.packet_flits = 3;
  RecordingClient client;
  sc::net::Fabric fabric(config.validated(), client);
  fabric.submit(0, 0, 3, 7);
  run_until_idle(fabric, 0);
  EXPECT_TRUE(client.words_arrived_once(0, 7));
  EXPECT_EQ(fabric.stats().packets_delivered, 4u);
  EXPECT_EQ(fabric.stats().flit_hops, 3u * (7 + 4));
  const std::map<std::string, std::uint64_t> expected = {{"n0.x+", 1}, {"n1.x+", 1}, {"n2.x+", 1}};
  EXPECT_EQ(channels_taken(fabric), expected);
  EXPECT_EQ(fabric.channels().max_contention(), 1u);
}

// ---- P-cube, the partially adaptive routing of the hypercube ----------------------------------

sw::NetworkConfig p_cube(std::uint32_t dim, std::uint64_t startup, std::uint32_t delay) {
  sw::NetworkConfig c = network(Topology::hypercube(dim), startup, delay);
  c.routing = "p-cube";
  return c;
}

// Every ordered pair of the 6-cube, one message alone, under e-cube and P-cube: both take a
// shortest path, so both arrive t_s + (h+1) D + F cycles after the send (fabric.hpp), h the
// Hamming distance of the two addresses, and each flit crosses h channels.
TEST(FabricWithoutKernel, PCubeHasTheZeroLoadLatencyOfECubeOnEveryPairOfASixCube) {
  RecordingClient client;
  constexpr std::uint64_t kStartup = 2;
  constexpr std::uint32_t kDelay = 2;
  constexpr std::uint32_t kWords = 3;
  constexpr std::uint64_t kFlits = kWords + 1;
  for (const char* routing : {"e-cube", "p-cube"}) {
    sw::NetworkConfig config = p_cube(6, kStartup, kDelay);
    config.routing = routing;
    sc::net::Fabric fabric(config.validated(), client);
    std::uint32_t message = 0;
    std::uint64_t c = 0;
    for (std::uint32_t src = 0; src < 64; ++src) {
      for (std::uint32_t dst = 0; dst < 64; ++dst) {
        if (dst == src) {
          continue;
        }
        client.clear();
        fabric.reset();
        const std::uint64_t hops_before = fabric.stats().flit_hops;
        fabric.submit(message, src, dst, kWords);
        const std::uint64_t sent = c;
        c += run_until_idle(fabric, c) + 1;
        const auto h = static_cast<std::uint64_t>(__builtin_popcount(src ^ dst));
        ASSERT_EQ(client.arrival(message) - sent, kStartup + (h + 1) * kDelay + kFlits)
            << routing << " " << src << "->" << dst;
        ASSERT_EQ(fabric.stats().flit_hops - hops_before, h * kFlits);
        ++message;
      }
    }
    EXPECT_EQ(message, 64U * 63U);
  }
}

// The adaptive choice, on the 3-cube. Message A (node 0 to node 1, 20 words) takes channel
// n0.d0 first. Message B (node 2 = 010 to node 5 = 101) clears bit 1 (n2.d1 to node 0), then
// may set bit 0 or bit 2: d0 is held by A, so B takes n0.d2 to node 4 and n4.d0 to node 5, and
// arrives in its zero-load time. Had B waited for the lowest dimension, n0.d0 would carry both
// messages and B would arrive after A's 21 flits passed.
TEST(FabricWithoutKernel, PCubeTakesAHigherDimensionWhenTheLowestAllowedChannelIsBusy) {
  RecordingClient client;
  sc::net::Fabric fabric(p_cube(3, 0, 1).validated(), client);
  constexpr std::uint32_t kLongWords = 20;
  constexpr std::uint32_t kShortWords = 2;
  fabric.submit(0, 0, 1, kLongWords);
  fabric.submit(1, 2, 5, kShortWords);
  run_until_idle(fabric, 0);
  EXPECT_EQ(client.arrival(0), (1 + 1) * 1 + kLongWords + 1);
  EXPECT_EQ(client.arrival(1), (3 + 1) * 1 + kShortWords + 1);
  EXPECT_TRUE(client.words_arrived_once(0, kLongWords));
  EXPECT_TRUE(client.words_arrived_once(1, kShortWords));
  const std::map<std::string, std::uint64_t> expected = {{"n0.d0", 1},
                                                         {"n2.d1", 1},
                                                         {"n0.d2", 1},
                                                         {"n4.d0", 1}};
  EXPECT_EQ(channels_taken(fabric), expected);
}

// The deadlock report lists the headers that wait for an output channel, not those that hold
// one and wait for room. On a line of 4 routers (1-flit buffers, D = 1): message 0 (node 2 to 3,
// 40 words) holds n2.x+ while its 41 flits pass; message 1, a lone header (node 0 to 3), reaches
// router 2 and waits for that channel; message 2 (node 1 to 3), sent after message 1 has passed
// n1.x+, takes that channel (router 1's first output virtual channel) and waits behind message
// 1's header for room in router 2's buffer.
TEST(FabricWithoutKernel, ADeadlockReportListsTheHeadersWaitingForAChannelNotThoseHoldingOne) {
  RecordingClient client;
  sc::net::Fabric fabric(network(Topology::mesh({4}), 0, 1).validated(), client);
  fabric.submit(0, 2, 3, 40);
  fabric.submit(1, 0, 3, 0);
  std::uint64_t c = 0;
  for (; c < 10; ++c) {
    fabric.begin_cycle(sw::Cycle{c});
  }
  fabric.submit(2, 1, 3, 2);
  for (; c < 20; ++c) {
    fabric.begin_cycle(sw::Cycle{c});
  }
  EXPECT_EQ(fabric.describe_deadlock(), "blocked headers: message 1 at n2 waits for n2.x+.vc0");
  run_until_idle(fabric, c);
  EXPECT_TRUE(client.words_arrived_once(0, 40));
  EXPECT_TRUE(client.words_arrived_once(2, 2));
  EXPECT_EQ(fabric.describe_deadlock(), "no blocked header");
}

// Every waiting header is listed, in the order of their buffers. On a line of 5 routers (1-flit
// buffers, D = 1): messages 0 (node 1 to 2) and 2 (node 3 to 4), 40 words each, take n1.x+ and
// n3.x+ in cycle 1; the lone headers of messages 1 (node 0 to 2) and 3 (node 2 to 4) reach
// routers 1 and 3 in cycle 1 and wait for those channels from cycle 2 on.
TEST(FabricWithoutKernel, ADeadlockReportListsEveryWaitingHeaderInBufferOrder) {
  RecordingClient client;
  sc::net::Fabric fabric(network(Topology::mesh({5}), 0, 1).validated(), client);
  fabric.submit(0, 1, 2, 40);
  fabric.submit(1, 0, 2, 0);
  fabric.submit(2, 3, 4, 40);
  fabric.submit(3, 2, 4, 0);
  std::uint64_t c = 0;
  for (; c < 10; ++c) {
    fabric.begin_cycle(sw::Cycle{c});
  }
  EXPECT_EQ(fabric.describe_deadlock(),
            "blocked headers: message 1 at n1 waits for n1.x+.vc0, message 3 at n3 waits for "
            "n3.x+.vc0");
  run_until_idle(fabric, c);
  EXPECT_TRUE(client.words_arrived_once(0, 40));
  EXPECT_TRUE(client.words_arrived_once(2, 40));
}

// An all-port interface injects a message on the channel of its first hop: the first of the
// routing's candidates, which for P-cube is the lowest dimension among the bits still to set
// ([LCC] section 6.1). On the 3-cube node 0 sends to node 3 (= 011: dimension 0 first, n0.d0 to
// node 1, then n1.d1) and to node 2 (n0.d1) at once, on two injection channels: both arrive in
// their zero-load times (h + 1) D + F. The interfaces refuse a message to its own node or to a
// node the network does not have.
TEST(FabricWithoutKernel, AnAllPortInterfaceInjectsOnTheChannelOfTheFirstHop) {
  RecordingClient client;
  sw::NetworkConfig config = p_cube(3, 0, 1);
  config.ni.ports = sw::NodePorts::All;
  sc::net::Fabric fabric(config.validated(), client);
  constexpr std::uint32_t kWords = 2;
  fabric.submit(0, 0, 3, kWords);
  fabric.submit(1, 0, 2, kWords);
  run_until_idle(fabric, 0);
  EXPECT_EQ(client.arrival(0), (2 + 1) * 1 + kWords + 1);
  EXPECT_EQ(client.arrival(1), (1 + 1) * 1 + kWords + 1);
  const std::map<std::string, std::uint64_t> expected = {{"n0.d0", 1}, {"n1.d1", 1}, {"n0.d1", 1}};
  EXPECT_EQ(channels_taken(fabric), expected);
  EXPECT_THROW(fabric.submit(2, 2, 2, kWords), std::logic_error);
  EXPECT_THROW(fabric.submit(2, 2, 8, kWords), std::logic_error);
  EXPECT_THROW(fabric.submit(2, 8, 2, kWords), std::logic_error);
}

/// Delivers the (source, destination) pairs, message m = pairs[m], of `words` words each, all
/// submitted at cycle `start`: every node's interface has a message waiting whenever it could
/// inject (rate 1) until its share is sent. Fails the test when no flit moves for 1000 cycles (a
/// deadlock: the network's own description of it is printed). Returns the last cycle stepped (a
/// network that was reset goes on in a later cycle, as the network process does).
std::uint64_t drain_saturating(sc::net::Fabric& fabric, RecordingClient& client,
                               const std::vector<std::pair<std::uint32_t, std::uint32_t>>& pairs,
                               std::uint32_t words, std::uint64_t start) {
  client.clear();
  fabric.reset();
  for (std::uint32_t m = 0; m < pairs.size(); ++m) {
    fabric.submit(m, pairs[m].first, pairs[m].second, words);
  }
  sw::Cycle c{start};
  for (std::optional<sw::Cycle> next = c; next; next = fabric.next_cycle(c)) {
    c = *next;
    fabric.begin_cycle(c);
    if (c.count() > fabric.last_move().count() + 1000) {
      ADD_FAILURE() << "no flit moved for 1000 cycles: " << fabric.describe_deadlock();
      return c.count();
    }
  }
  for (std::uint32_t m = 0; m < pairs.size(); ++m) {
    EXPECT_TRUE(client.words_arrived_once(m, words)) << m;
  }
  EXPECT_FALSE(fabric.has_flits());
  return c.count();
}

// Deadlock freedom with one virtual channel and 1-flit buffers ([LCC] section 6.1's routers):
// every node of a 6-cube and an 8-cube injects back to back, uniform random destinations and the
// transpose (the address halves swapped), and everything injected is delivered. The lengths keep
// the test short; `bench/pcube_saturation` runs the 8-cube for a million cycles.
TEST(FabricWithoutKernel, PCubeDeliversEverythingUnderSaturatingUniformAndTransposeTraffic) {
  RecordingClient client;
  for (const auto& [dim, per_node] : {std::pair{6u, 24u}, std::pair{8u, 6u}}) {
    sw::NetworkConfig config = p_cube(dim, 0, 1);
    config.router.buffer_flits = 1;
    sc::net::Fabric fabric(config.validated(), client);
    const std::uint32_t n = 1U << dim;
    const std::uint32_t half = dim / 2;
    std::mt19937 random(dim);
    std::vector<std::pair<std::uint32_t, std::uint32_t>> uniform;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> transpose;
    for (std::uint32_t k = 0; k < per_node; ++k) {
      for (std::uint32_t src = 0; src < n; ++src) {
        std::uint32_t dst = src;
        while (dst == src) {
          dst = static_cast<std::uint32_t>(random() % n);
        }
        uniform.emplace_back(src, dst);
        const std::uint32_t swapped = (src >> half) | ((src & ((1U << half) - 1)) << half);
        if (swapped != src) {
          transpose.emplace_back(src, swapped);
        }
      }
    }
    std::uint64_t c = 0;
    for (const auto* pairs : {&uniform, &transpose}) {
      SCOPED_TRACE(std::to_string(dim) + "-cube, " + (pairs == &uniform ? "uniform" : "transpose"));
      const std::uint64_t delivered_before = fabric.stats().packets_delivered;
      c = drain_saturating(fabric, client, *pairs, 19, c) + 1;
      EXPECT_EQ(fabric.stats().packets_delivered - delivered_before, pairs->size());
    }
  }
}

// ---- hand-built networks: routers apart from nodes -------------------------------------------

/// A network as the test wires it: one-way channels between routers and the router of each node.
/// The test builds the description from it and computes its own distances from it.
struct Wiring {
  std::string name;
  std::vector<std::uint32_t> router_ports;
  struct Channel {
    std::uint32_t from, out_port, to, in_port;
  };
  std::vector<Channel> channels;
  std::vector<std::uint32_t> node_router;

  void both_ways(std::uint32_t a, std::uint32_t port_a, std::uint32_t b, std::uint32_t port_b) {
    channels.push_back({a, port_a, b, port_b});
    channels.push_back({b, port_b, a, port_a});
  }
  [[nodiscard]] std::shared_ptr<const sw::TopologyDescription> build() const {
    sw::TopologyDescription::Builder b(name);
    for (const std::uint32_t ports : router_ports) {
      b.add_router(ports);
    }
    for (const Channel& c : channels) {
      b.connect(c.from, c.out_port, c.to, c.in_port);
    }
    for (const std::uint32_t r : node_router) {
      b.attach_node(r);
    }
    return b.build();
  }
  /// Channels crossed from router `src` to every router, by breadth-first search.
  [[nodiscard]] std::vector<std::uint32_t> hops_from(std::uint32_t src) const {
    std::vector<std::uint32_t> d(router_ports.size(), UINT32_MAX);
    std::deque<std::uint32_t> frontier{src};
    d[src] = 0;
    while (!frontier.empty()) {
      const std::uint32_t at = frontier.front();
      frontier.pop_front();
      for (const Channel& c : channels) {
        if (c.from == at && d[c.to] == UINT32_MAX) {
          d[c.to] = d[at] + 1;
          frontier.push_back(c.to);
        }
      }
    }
    return d;
  }
};

/// A 2x2 mesh of routers (port 0 toward the x neighbour, port 1 toward the y neighbour), two
/// nodes on each: node n on router n / 2.
Wiring concentrated_mesh() {
  Wiring w{"2x2 mesh, 2 nodes per router", {2, 2, 2, 2}, {}, {0, 0, 1, 1, 2, 2, 3, 3}};
  w.both_ways(0, 0, 1, 0);
  w.both_ways(2, 0, 3, 0);
  w.both_ways(0, 1, 2, 1);
  w.both_ways(1, 1, 3, 1);
  return w;
}

/// Five routers in a ring (port 0 to the next, port 1 to the previous) with a chord between
/// routers 0 and 2 (port 2), one node per router and a second one on router 4.
Wiring ring_with_chord() {
  Wiring w{"ring of 5 with a chord", {3, 2, 3, 2, 2}, {}, {0, 1, 2, 3, 4, 4}};
  for (std::uint32_t r = 0; r < 5; ++r) {
    w.both_ways(r, 0, (r + 1) % 5, 1);
  }
  w.both_ways(0, 2, 2, 2);
  return w;
}

sw::NetworkConfig hand_built(const Wiring& w, sw::NodePorts ports, std::uint64_t startup,
                             std::uint32_t delay) {
  sw::NetworkConfig c;
  c.hand_built = w.build();
  c.ni.ports = ports;
  c.ni.startup = startup;
  c.router.delay = delay;
  return c;
}

// Every ordered pair of nodes, one message alone, arrives t_s + (h+1) D + F cycles after it was
// sent (fabric.hpp), h the channels between the two routers by the test's own search (0 for two
// nodes of one router), its words once, unchanged and in order; F flits cross each channel.
TEST(FabricWithoutKernel, HandBuiltNetworksDeliverEveryPairInTheZeroLoadTimeOfItsShortestPath) {
  RecordingClient client;
  std::uint32_t checked = 0;
  for (const Wiring& w : {concentrated_mesh(), ring_with_chord()}) {
    for (const sw::NodePorts ports : {sw::NodePorts::One, sw::NodePorts::All}) {
      for (const auto& [startup, delay] : {std::pair{0u, 1u}, std::pair{2u, 3u}}) {
        sc::net::Fabric fabric(hand_built(w, ports, startup, delay).validated(), client);
        constexpr std::uint32_t kWords = 3;
        constexpr std::uint64_t kFlits = kWords + 1;
        std::uint32_t message = 0;
        std::uint64_t c = 0;
        const auto nodes = static_cast<std::uint32_t>(w.node_router.size());
        for (std::uint32_t src = 0; src < nodes; ++src) {
          const std::vector<std::uint32_t> hops = w.hops_from(w.node_router[src]);
          for (std::uint32_t dst = 0; dst < nodes; ++dst) {
            if (dst == src) {
              continue;
            }
            client.clear();
            fabric.reset();
            const std::uint64_t hops_before = fabric.stats().flit_hops;
            fabric.submit(message, src, dst, kWords);
            const std::uint64_t sent = c;
            c += run_until_idle(fabric, c) + 5;
            const std::uint32_t h = hops[w.node_router[dst]];
            SCOPED_TRACE(w.name + " " + std::to_string(src) + "->" + std::to_string(dst) +
                         " t_s=" + std::to_string(startup) + " D=" + std::to_string(delay));
            EXPECT_EQ(client.arrival(message) - sent, startup + (h + 1) * delay + kFlits);
            EXPECT_EQ(fabric.stats().flit_hops - hops_before, h * kFlits);
            EXPECT_TRUE(client.words_arrived_once(message, kWords));
            EXPECT_TRUE(client.in_order());
            ++message;
            ++checked;
          }
        }
      }
    }
  }
  EXPECT_EQ(checked, 2u * 2u * (8 * 7 + 6 * 5));
}

// A router with more than 64 buffers keeps its buffers' occupied and routed bits in two mask
// words: the 7-cube with 10 virtual channels (7 x 10 network buffers and the injection buffer,
// 71). Every node sends 3 words (4 flits) to its complement at once, each crossing h = 7 channels
// (e-cube), one message over each; they all arrive once, in order, the flits crossing 128 x 7 x 4
// channels. Then one message alone, 0 -> 127, arrives in the zero-load time t_s + (h + 1) D + F
// = 1 + 8 * 2 + 4 = 21 cycles.
TEST(FabricWithoutKernel, RoutersOfMoreThan64BuffersMoveTheFlitsOfAllTheirBuffers) {
  sw::NetworkConfig config = network(Topology::hypercube(7), 1, 2);
  config.router.vcs = 10;
  config.router.buffer_flits = 2;
  RecordingClient client;
  sc::net::Fabric fabric(config.validated(), client);
  constexpr std::uint32_t kWords = 3;
  constexpr std::uint32_t kNodes = 128;
  for (std::uint32_t src = 0; src < kNodes; ++src) {
    fabric.submit(src, src, kNodes - 1 - src, kWords);
  }
  run_until_idle(fabric, 0);
  for (std::uint32_t m = 0; m < kNodes; ++m) {
    (void)client.arrival(m);
    EXPECT_TRUE(client.words_arrived_once(m, kWords)) << m;
  }
  EXPECT_TRUE(client.in_order());
  EXPECT_EQ(fabric.stats().flit_hops, std::uint64_t{kNodes} * 7 * (kWords + 1));
  client.clear();
  fabric.reset();
  fabric.submit(0, 0, kNodes - 1, kWords);
  run_until_idle(fabric, 0);
  EXPECT_EQ(client.arrival(0), 1 + (7 + 1) * 2 + (kWords + 1));
}

// A network of one router (a switch with two nodes, no channels between routers): the first
// buffers are the interfaces' injection buffers. At a router delay of 4 with 2-flit buffers each
// injection buffer fills while its header is routed, and its interface waits for room: each
// message of 8 words (9 flits) still arrives in the zero-load time t_s + (h + 1) D + F with
// h = 0, 1 + 4 + 9 = 14 cycles, on every path of the fabric (one or two virtual channels,
// observed or not), its words once and in order.
TEST(FabricWithoutKernel, OneRouterHoldsItsInterfacesBackWhileTheirBuffersAreFull) {
  const Wiring w{"one router, two nodes", {0}, {}, {0, 0}};
  for (const std::uint32_t vcs : {1U, 2U}) {
    for (const bool observed : {false, true}) {
      SCOPED_TRACE(std::to_string(vcs) + " VCs" + (observed ? ", observed" : ""));
      sw::NetworkConfig config = hand_built(w, sw::NodePorts::One, 1, 4);
      config.router.buffer_flits = 2;
      config.router.vcs = vcs;
      RecordingClient client;
      sc::net::Fabric fabric(config.validated(), client);
      fabric.observe(observed);
      constexpr std::uint32_t kWords = 8;
      fabric.submit(0, 0, 1, kWords);
      fabric.submit(1, 1, 0, kWords);
      run_until_idle(fabric, 0);
      for (std::uint32_t m = 0; m < 2; ++m) {
        EXPECT_EQ(client.arrival(m), 1 + 4 + (kWords + 1)) << m;
        EXPECT_TRUE(client.words_arrived_once(m, kWords)) << m;
      }
      EXPECT_TRUE(client.in_order());
      EXPECT_EQ(fabric.stats().flit_hops, 0U);
    }
  }
}

// All pairs at once: the network drains, every word arrives once and in order, and the channels
// carry exactly the flits and the messages of the shortest paths. The routers as the paths of
// the fabric take them: one-flit buffers at a delay of one cycle (worms), deeper buffers at a
// longer delay (the flit-by-flit pass), with one or two virtual channels.
struct Routers {
  std::uint32_t buffers = 1;
  std::uint32_t delay = 1;
  std::uint32_t vcs = 1;
};

TEST(FabricWithoutKernel, HandBuiltNetworksDrainAllPairsSentAtOnce) {
  RecordingClient client;
  for (const Wiring& w : {concentrated_mesh(), ring_with_chord()}) {
    for (const Routers routers : {Routers{1, 1, 1}, Routers{4, 3, 1}, Routers{3, 2, 2}}) {
      SCOPED_TRACE(w.name + ", " + std::to_string(routers.buffers) + "-flit buffers, delay " +
                   std::to_string(routers.delay) + ", " + std::to_string(routers.vcs) + " VCs");
      client.clear();
      sw::NetworkConfig config = hand_built(w, sw::NodePorts::One, 1, routers.delay);
      config.router.buffer_flits = routers.buffers;
      config.router.vcs = routers.vcs;
      sc::net::Fabric fabric(config.validated(), client);
      constexpr std::uint32_t kWords = 4;
      const auto nodes = static_cast<std::uint32_t>(w.node_router.size());
      std::uint32_t message = 0;
      std::uint64_t hops = 0;
      for (std::uint32_t src = 0; src < nodes; ++src) {
        const std::vector<std::uint32_t> h = w.hops_from(w.node_router[src]);
        for (std::uint32_t dst = 0; dst < nodes; ++dst) {
          if (dst != src) {
            fabric.submit(message++, src, dst, kWords);
            hops += h[w.node_router[dst]];
          }
        }
      }
      run_until_idle(fabric, 0);
      for (std::uint32_t m = 0; m < message; ++m) {
        (void)client.arrival(m);
        EXPECT_TRUE(client.words_arrived_once(m, kWords)) << m;
      }
      EXPECT_TRUE(client.in_order());
      EXPECT_EQ(fabric.stats().flit_hops, hops * (kWords + 1));
      EXPECT_FALSE(fabric.has_flits());
      // One report per channel of the wiring, named by its router and port, counting the messages
      // whose path takes it: the test's own shortest paths, the lowest port on a tie.
      std::map<std::string, std::uint64_t> expected;
      for (const Wiring::Channel& c : w.channels) {
        expected["r" + std::to_string(c.from) + ".p" + std::to_string(c.out_port)] = 0;
      }
      for (std::uint32_t src = 0; src < nodes; ++src) {
        for (std::uint32_t dst = 0; dst < nodes; ++dst) {
          const std::uint32_t target = w.node_router[dst];
          for (std::uint32_t at = w.node_router[src]; src != dst && at != target;) {
            const Wiring::Channel* next = nullptr;
            for (const Wiring::Channel& c : w.channels) {
              if (c.from == at && w.hops_from(c.to)[target] + 1 == w.hops_from(at)[target] &&
                  (next == nullptr || c.out_port < next->out_port)) {
                next = &c;
              }
            }
            ++expected["r" + std::to_string(at) + ".p" + std::to_string(next->out_port)];
            at = next->to;
          }
        }
      }
      std::map<std::string, std::uint64_t> reported;
      for (const sw::ChannelSummary& r : fabric.channels().reports()) {
        reported[r.name] = r.messages;
      }
      EXPECT_EQ(reported, expected);
    }
  }
}

/// Hears every change of a network input buffer (an observed fabric) and counts, per link and
/// cycle, the flits that entered the buffers at its far end (all virtual channels) and the flits
/// that left them.
class LinkClient final : public sc::net::FabricClient {
 public:
  sw::Word read_word(std::uint32_t message, std::uint32_t index) override {
    return word_of(message, index);
  }
  void deliver_word(std::uint32_t /*message*/, std::uint32_t /*index*/,
                    sw::Word /*word*/) override {}
  void message_delivered(std::uint32_t /*message*/, sw::Cycle /*at*/) override { ++delivered; }
  void buffer_changed(std::uint32_t router, std::uint32_t port, std::uint32_t vc,
                      std::uint32_t flits, sw::Cycle at) override {
    std::uint32_t& held = held_[{router, port, vc}];
    Moves& moves = moves_[{router, port, at.count()}];
    ++(flits > held ? moves.in : moves.out);
    held = flits;
    std::uint32_t busy = 0;  // virtual channels of this link that hold flits now
    for (const auto& [key, count] : held_) {
      busy += std::get<0>(key) == router && std::get<1>(key) == port && count > 0 ? 1 : 0;
    }
    most_busy_vcs = std::max(most_busy_vcs, busy);
  }
  /// The most flits that entered, and that left, the buffers of one link in one cycle.
  [[nodiscard]] std::pair<std::uint32_t, std::uint32_t> most_moves() const {
    std::pair<std::uint32_t, std::uint32_t> most{0, 0};
    for (const auto& [key, m] : moves_) {
      most = {std::max(most.first, m.in), std::max(most.second, m.out)};
    }
    return most;
  }
  std::uint32_t delivered = 0;
  std::uint32_t most_busy_vcs = 0;  ///< the most virtual channels of one link holding flits at once

 private:
  struct Moves {
    std::uint32_t in = 0;
    std::uint32_t out = 0;
  };
  std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, std::uint32_t> held_;
  std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint64_t>, Moves> moves_;
};

// One flit per link per cycle and one per input port (fabric.hpp), whatever the virtual
// channels: the buffers of all virtual channels at a link's far end gain one flit per cycle at
// most (the link), and lose one at most (the input port's path through the switch). Every node
// of a 4x4 torus (2 virtual channels) and of a 4x4 mesh with 2 and 4 sends 6 messages to random
// nodes at once, so that the virtual channels of a link are busy together.
TEST(FabricWithoutKernel, ALinkAndAnInputPortPassOneFlitPerCycleWhateverTheirVirtualChannels) {
  for (const auto& [topology, vcs, depth] :
       {std::tuple{Topology::torus({4, 4}), 2u, 1u}, std::tuple{Topology::torus({4, 4}), 2u, 3u},
        std::tuple{Topology::mesh({4, 4}), 2u, 1u}, std::tuple{Topology::mesh({4, 4}), 4u, 2u}}) {
    sw::NetworkConfig config = network(topology, 0, 1);
    config.router.vcs = vcs;
    config.router.buffer_flits = depth;
    LinkClient client;
    sc::net::Fabric fabric(config.validated(), client);
    fabric.observe(true);
    std::mt19937_64 rng(7);
    // Raw draws reduced by hand: a distribution's mapping differs between standard libraries.
    const auto other = [&rng, &topology] {
      return 1 + static_cast<std::uint32_t>(rng() % (topology.nodes() - 1));
    };
    std::uint32_t messages = 0;
    for (std::uint32_t round = 0; round < 6; ++round) {
      for (std::uint32_t src = 0; src < topology.nodes(); ++src) {
        fabric.submit(messages++, src, (src + other()) % topology.nodes(), 8);
      }
    }
    run_until_idle(fabric, 0);
    EXPECT_EQ(client.delivered, messages);
    EXPECT_EQ(client.most_busy_vcs, vcs)
        << "the virtual channels of a link were never busy at once";
    EXPECT_EQ(client.most_moves(), std::make_pair(1u, 1u))
        << vcs << " VCs, " << depth << "-flit buffers";
  }
}

/// Every call a network makes to its client, in order, with its arguments.
class EventLog final : public sc::net::FabricClient {
 public:
  sw::Word read_word(std::uint32_t message, std::uint32_t index) override {
    log_.push_back({0, message, index, 0, 0, 0});
    return word_of(message, index);
  }
  void deliver_word(std::uint32_t message, std::uint32_t index, sw::Word word) override {
    log_.push_back({1, message, index, word, 0, 0});
  }
  void message_delivered(std::uint32_t message, sw::Cycle at) override {
    log_.push_back({2, message, 0, 0, 0, at.count()});
  }
  void packet_moved(PacketMove what, std::uint32_t message, std::uint32_t router, std::uint32_t out,
                    std::uint32_t flits, sw::Cycle at) override {
    log_.push_back({3 + static_cast<std::uint64_t>(what), message, router, out, flits, at.count()});
  }
  void buffer_changed(std::uint32_t router, std::uint32_t port, std::uint32_t vc,
                      std::uint32_t flits, sw::Cycle at) override {
    log_.push_back({6, router, port, vc, flits, at.count()});
  }
  using Event = std::array<std::uint64_t, 6>;
  [[nodiscard]] const std::vector<Event>& log() const { return log_; }

 private:
  std::vector<Event> log_;
};

/// One cycle c of random traffic on fabrics fed alike: each node in turn sends, with probability
/// 1 / `every`, a message of 1 to `most_words` words to another node (numbered from `messages`
/// on); then every fabric steps cycle c.
void send_random_and_step(std::initializer_list<sc::net::Fabric*> fabrics, std::mt19937_64& rng,
                          std::uint32_t nodes, std::uint64_t every, std::uint32_t most_words,
                          std::uint32_t& messages, std::uint64_t c) {
  for (std::uint32_t src = 0; src < nodes; ++src) {
    if (rng() % every == 0) {
      const auto dst = static_cast<std::uint32_t>((src + 1 + rng() % (nodes - 1)) % nodes);
      const auto words = static_cast<std::uint32_t>(1 + rng() % most_words);
      for (sc::net::Fabric* fabric : fabrics) {
        fabric->submit(messages, src, dst, words);
      }
      ++messages;
    }
  }
  for (sc::net::Fabric* fabric : fabrics) {
    fabric->begin_cycle(sw::Cycle{c});
  }
}

/// Two fabrics fed alike delivered every one of `messages` messages and told their clients the
/// same calls in the same order.
void expect_the_same_calls(const EventLog& a, const EventLog& b, std::uint32_t messages) {
  EXPECT_EQ(std::count_if(a.log().begin(), a.log().end(),
                          [](const EventLog::Event& e) { return e[0] == 2; }),
            messages);
  EXPECT_TRUE(a.log() == b.log());
}

// The client calls of an observed network for one message alone, by hand: mesh 4 (a line), node 0
// to node 3 (h = 3 links), t_s = 2, D = 2, 1-flit buffers, 3 words in packets of 3 flits (two
// packets, of 3 and 2 flits). The first packet's header is taken from the interface in cycle
// t_s = 2, leaves router k (k = 0, 1, 2) by its x+ channel in cycle t_s + (k+1) D = 4, 6, 8 and
// enters router k+1 then: the buffer that channel feeds holds one flit from the next cycle on
// (5, 7, 9). Its tail leaves the network in cycle t_s + (h+1) D + F - 1 = 12 (the zero-load time
// less the cycle to the interface). Of the 5 flits taken from the interface, only the first is
// a message's start.
class MoveLog final : public sc::net::FabricClient {
 public:
  struct Move {
    PacketMove what;
    std::uint32_t router = 0;
    std::uint32_t out = 0;
    std::uint32_t flits = 0;
    std::uint64_t at = 0;
  };
  struct BufferChange {
    std::uint32_t flits = 0;
    std::uint64_t at = 0;
  };
  sw::Word read_word(std::uint32_t message, std::uint32_t index) override {
    return word_of(message, index);
  }
  void deliver_word(std::uint32_t, std::uint32_t, sw::Word) override {}
  void message_delivered(std::uint32_t, sw::Cycle) override {}
  void packet_moved(PacketMove what, std::uint32_t, std::uint32_t router, std::uint32_t out,
                    std::uint32_t flits, sw::Cycle at) override {
    moves.push_back({what, router, out, flits, at.count()});
  }
  void buffer_changed(std::uint32_t router, std::uint32_t port, std::uint32_t vc,
                      std::uint32_t flits, sw::Cycle at) override {
    buffers[{router, port, vc}].push_back({flits, at.count()});
  }
  void flit_injected(std::uint32_t, std::uint32_t, bool message_start, sw::Cycle at) override {
    injected.emplace_back(message_start, at.count());
  }
  std::vector<Move> moves;
  std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, std::vector<BufferChange>>
      buffers;
  std::vector<std::pair<bool, std::uint64_t>> injected;
};

TEST(FabricWithoutKernel, AnObservedWormTellsItsHopsAndBuffersInTheCyclesTheyHappen) {
  using PacketMove = sc::net::FabricClient::PacketMove;
  constexpr std::uint64_t kStartup = 2;
  constexpr std::uint32_t kDelay = 2;
  for (const bool general : {false, true}) {
    SCOPED_TRACE(general ? "general path" : "observed");
    sw::NetworkConfig config = network(Topology::mesh({4}), kStartup, kDelay);
    config.ni.packet_flits = 3;
    MoveLog log;
    sc::net::Fabric fabric(config.validated(), log);
    fabric.observe(true);
    if (general) {
      fabric.use_general_path();
    }
    fabric.submit(0, 0, 3, 3);
    run_until_idle(fabric, 0);
    std::vector<std::tuple<std::string, std::uint64_t>> first_packet_hops;
    std::vector<std::uint64_t> first_packet_injects;
    std::vector<std::uint64_t> first_packet_ejects;
    std::uint32_t hops = 0;
    for (const MoveLog::Move& m : log.moves) {
      if (m.what == PacketMove::Hop) {
        ++hops;
      }
      if (m.flits != 3) {
        continue;  // the second packet
      }
      if (m.what == PacketMove::Hop) {
        first_packet_hops.emplace_back(fabric.description().channel_name(m.router, m.out), m.at);
      } else if (m.what == PacketMove::Inject) {
        first_packet_injects.push_back(m.at);
      } else {
        first_packet_ejects.push_back(m.at);
      }
    }
    const std::vector<std::tuple<std::string, std::uint64_t>> hops_expected = {
        {"n0.x+", kStartup + 1 * kDelay},
        {"n1.x+", kStartup + 2 * kDelay},
        {"n2.x+", kStartup + 3 * kDelay}};
    EXPECT_EQ(first_packet_hops, hops_expected);
    EXPECT_EQ(hops, 2u * 3u);  // each packet's header, once per link
    EXPECT_EQ(first_packet_injects, std::vector<std::uint64_t>{kStartup});
    EXPECT_EQ(first_packet_ejects, std::vector<std::uint64_t>{kStartup + 4 * kDelay + 3 - 1});
    ASSERT_EQ(log.buffers.size(), 3u) << "one buffer per link of the path";
    std::uint32_t k = 0;
    for (const auto& [buffer, changes] : log.buffers) {
      ASSERT_FALSE(changes.empty());
      EXPECT_EQ(fabric.description().channel_name(std::get<0>(buffer), std::get<1>(buffer)),
                "n" + std::to_string(k) + ".x+");
      EXPECT_EQ(changes.front().flits, 1u);
      EXPECT_EQ(changes.front().at, kStartup + (k + 1) * kDelay + 1);
      EXPECT_EQ(changes.back().flits, 0u) << "the buffer left holding flits";
      ++k;
    }
    ASSERT_EQ(log.injected.size(), 5u);
    EXPECT_EQ(std::count_if(log.injected.begin(), log.injected.end(),
                            [](const auto& i) { return i.first; }),
              1);
    EXPECT_EQ(log.injected.front(), std::make_pair(true, kStartup));
  }
}

// An interface is stepped in the first cycle it may offer a flit, not in the cycles of a
// start-up: one message of F = 4 flits over h = 3 links with t_s = 100 steps cycle 0 (its
// start-up begins), then the (h+1) D + F = 8 cycles from cycle 100 on, and arrives in its
// zero-load time 108. Two interfaces whose start-ups began in cycles 0 and 1 (nodes 0 and 3 of the
// line, disjoint paths) each offer at the end of their own: the next cycle after cycle 1 is 100,
// the earlier end, and the messages arrive 108 and 109.
TEST(FabricWithoutKernel, TheCyclesOfAStartUpAreNotSteppedAndEachInterfaceEndsItsOwn) {
  constexpr std::uint64_t kStartup = 100;
  const sw::NetworkConfig config = network(Topology::mesh({4}), kStartup, 1);
  {
    RecordingClient client;
    sc::net::Fabric fabric(config.validated(), client);
    fabric.submit(0, 0, 3, 3);
    EXPECT_EQ(run_until_idle(fabric, 0), 1u + (3 + 1) * 1 + 4);
    EXPECT_EQ(client.arrival(0), kStartup + (3 + 1) * 1 + 4);
  }
  {
    RecordingClient client;
    sc::net::Fabric fabric(config.validated(), client);
    fabric.submit(0, 0, 3, 3);
    fabric.begin_cycle(sw::Cycle{0});
    fabric.submit(1, 3, 0, 3);
    fabric.begin_cycle(sw::Cycle{1});
    EXPECT_EQ(fabric.next_cycle(sw::Cycle{1}), sw::Cycle{kStartup});
    run_until_idle(fabric, kStartup);
    EXPECT_EQ(client.arrival(0), kStartup + (3 + 1) * 1 + 4);
    EXPECT_EQ(client.arrival(1), 1 + kStartup + (3 + 1) * 1 + 4);
  }
}

// A reset forgets the packets the interfaces still queue (the traffic runs read their count at
// the window's edges), and the network then delivers a new message in its zero-load time.
TEST(FabricWithoutKernel, AResetForgetsTheQueuedPackets) {
  sw::NetworkConfig config = network(Topology::mesh({4}), 5, 1);
  config.ni.packet_flits = 2;
  RecordingClient client;
  sc::net::Fabric fabric(config.validated(), client);
  fabric.submit(0, 0, 3, 3);  // 3 packets of one word
  fabric.submit(1, 1, 2, 1);
  fabric.begin_cycle(sw::Cycle{0});
  EXPECT_EQ(fabric.queued_packets(), 4u);
  fabric.reset();
  EXPECT_EQ(fabric.queued_packets(), 0u);
  EXPECT_EQ(fabric.next_cycle(sw::Cycle{1}), std::nullopt);
  fabric.submit(2, 0, 3, 1);
  EXPECT_EQ(fabric.queued_packets(), 1u);
  run_until_idle(fabric, 10);
  EXPECT_EQ(client.arrival(2), 10 + 5 + (3 + 1) * 1 + 2);
  EXPECT_EQ(fabric.queued_packets(), 0u);
}

struct PathCase {
  const char* name;
  sw::NetworkConfig config;
};

// The Fabric's own paths and the general path (use_general_path) on the same networks and the
// same traffic: every call to the client, in order and with its cycle, and every counter must
// agree, observed, unobserved, and observed from the middle of the light or of the saturating
// phase on (the shortcuts hand over to the buffer-by-buffer path with flits in flight; in the
// light phase some routers have just emptied), from light to saturating load.
// Messages of 1 to `most_words` words; in the light phase a node sends one every `light_every`
// cycles on average, in the saturating phase one every 4.
constexpr std::uint64_t kSaturatingFrom = 300;  // the cycle the saturating phase starts
void expect_the_moves_of_the_general_path(const std::vector<PathCase>& cases,
                                          std::uint32_t most_words = 5,
                                          std::uint32_t light_every = 40,
                                          bool deep_worms_at_any_delay = false) {
  for (const PathCase& test : cases) {
    // Never, always, or from the cycle `observed` on.
    for (const std::uint64_t observed :
         {std::uint64_t{0}, std::uint64_t{1}, kSaturatingFrom / 2, kSaturatingFrom + 150}) {
      SCOPED_TRACE(std::string(test.name) +
                   (observed == 1   ? ", observed"
                    : observed == 0 ? ""
                                    : ", observed from cycle " + std::to_string(observed)));
      EventLog shortcut_log;
      EventLog general_log;
      sc::net::Fabric shortcut(test.config.validated(), shortcut_log);
      sc::net::Fabric general(test.config.validated(), general_log);
      general.use_general_path();
      if (deep_worms_at_any_delay) {
        shortcut.move_deep_worms_at_any_delay();
      }
      shortcut.observe(observed == 1);
      general.observe(observed == 1);
      bool attached = observed == 1;
      const std::uint32_t nodes = test.config.topology.nodes();
      std::mt19937_64 rng(11);
      std::uint32_t messages = 0;
      // A light phase (a message now and then) and a saturating one (every node, back to back).
      for (std::uint64_t c = 0; c < 600; ++c) {
        // The observer attaches in the first cycle from `observed` on with flits in flight.
        if (observed > 1 && c >= observed && !attached && shortcut.has_flits()) {
          shortcut.observe(true);
          general.observe(true);
          attached = true;
        }
        const bool saturating = c >= kSaturatingFrom;
        send_random_and_step({&shortcut, &general}, rng, nodes, saturating ? 4 : light_every,
                             most_words, messages, c);
      }
      run_until_idle(shortcut, 600);
      run_until_idle(general, 600);
      EXPECT_EQ(attached, observed > 0) << "the observer never attached";
      expect_the_same_calls(shortcut_log, general_log, messages);
      const auto counters = [](const sc::net::Fabric& f) {
        const sc::net::FabricStats& s = f.stats();
        return std::vector<std::uint64_t>{s.flits_moved,
                                          s.flit_hops,
                                          s.flits_ejected,
                                          s.packets_delivered,
                                          s.header_wait_cycles,
                                          s.router_steps,
                                          f.channels().peak_occupancy(),
                                          f.channels().max_contention()};
      };
      EXPECT_EQ(counters(shortcut), counters(general));
      // Each channel's peak occupancy and its messages.
      const auto channels = [](const sc::net::Fabric& f) {
        std::vector<std::tuple<std::string, std::uint32_t, std::uint64_t>> out;
        for (const sw::ChannelSummary& channel : f.channels().reports()) {
          out.emplace_back(channel.name, channel.peak_flits, channel.messages);
        }
        return out;
      };
      EXPECT_EQ(channels(shortcut), channels(general));
      EXPECT_GT(shortcut.stats().header_wait_cycles, 0U) << "no contention: nothing compared";
    }
  }
}

// With one virtual channel per port the Fabric skips the port checks, the sort by arrival and the
// feasibility chains of switch allocation (Fabric::allocate_switches_one_vc says why that gives
// the same moves in the same order); unobserved, it decides and commits the moves in one pass
// (Fabric::move_flits_one_vc), and moves worms: whole with one-flit buffers (Fabric::move_worms),
// in runs of buffers with deeper ones (Fabric::move_deep_worms). The general path, forced on the same networks and the same traffic, is
// a second implementation.
TEST(FabricWithoutKernel, TheOneVirtualChannelShortcutMakesTheMovesOfTheGeneralPath) {
  std::vector<PathCase> cases;
  const auto add = [&cases](const char* name, const Topology& t, std::uint32_t depth,
                            std::uint32_t delay, sw::Switching switching) {
    sw::NetworkConfig c = network(t, 2, delay);
    c.router.vcs = 1;
    c.router.buffer_flits = depth;
    c.router.switching = switching;
    cases.push_back({name, c});
  };
  add("mesh 4x4, 1-flit buffers", Topology::mesh({4, 4}), 1, 1, sw::Switching::Wormhole);
  add("mesh 4x4, 3-flit buffers, delay 2", Topology::mesh({4, 4}), 3, 2, sw::Switching::Wormhole);
  add("mesh 4x4, 2-flit buffers", Topology::mesh({4, 4}), 2, 1, sw::Switching::Wormhole);
  add("mesh 4x4, 4-flit buffers", Topology::mesh({4, 4}), 4, 1, sw::Switching::Wormhole);
  add("mesh 4x4, 8-flit buffers", Topology::mesh({4, 4}), 8, 1, sw::Switching::Wormhole);
  add("4-cube, 2-flit buffers", Topology::hypercube(4), 2, 1, sw::Switching::Wormhole);
  add("4-cube, 4-flit buffers", Topology::hypercube(4), 4, 1, sw::Switching::Wormhole);
  add("4-cube, 8-flit buffers", Topology::hypercube(4), 8, 1, sw::Switching::Wormhole);
  add("4-cube, store-and-forward", Topology::hypercube(4), 6, 1, sw::Switching::StoreAndForward);
  cases.push_back({"4-cube, P-cube, all-port", p_cube(4, 1, 1)});
  cases.back().config.ni.ports = sw::NodePorts::All;
  expect_the_moves_of_the_general_path(cases);
}

// Routers activated in one cycle take their places in the order of the moves that activated
// them (the output port, not the buffer the flit left), and their ejections of a later cycle come
// in that order. On the 4-cube (e-cube, 1 VC, 2-flit buffers, D = 2: the one-pass moves of
// move_flits_one_vc, unobserved) message 0 goes 1 -> 0 -> 8 and message 1 goes 2 -> 0 -> 4, sent
// together: both headers leave router 0 in one cycle, message 0's from the lower input buffer
// (d0) by the higher output port (d3), message 1's from d1 by d2, into idle routers 8 and 4,
// and their flits eject in the same cycles. So each cycle's word of message 1 (router 4,
// activated first) is delivered before message 0's, as on the general path; also on the other
// unobserved paths (deep worms at D = 1, whole worms, and with 2 VCs the runs of VC worms and the
// one-pass moves).
TEST(FabricWithoutKernel, RoutersActivatedInOneCycleEjectInTheOrderOfTheirActivatingMoves) {
  for (const auto& [vcs, depth, delay] :
       {std::tuple{1u, 2u, 2u}, std::tuple{1u, 2u, 1u}, std::tuple{1u, 1u, 1u},
        std::tuple{2u, 1u, 1u}, std::tuple{2u, 2u, 1u}}) {
    SCOPED_TRACE(std::to_string(vcs) + " VCs, " + std::to_string(depth) +
                 "-flit buffers, D = " + std::to_string(delay));
    sw::NetworkConfig config = network(Topology::hypercube(4), 0, delay);
    config.router.vcs = vcs;
    config.router.buffer_flits = depth;
    EventLog shortcut_log;
    EventLog general_log;
    sc::net::Fabric shortcut(config.validated(), shortcut_log);
    sc::net::Fabric general(config.validated(), general_log);
    general.use_general_path();
    for (sc::net::Fabric* fabric : {&shortcut, &general}) {
      fabric->submit(0, 1, 8, 4);
      fabric->submit(1, 2, 4, 4);
      run_until_idle(*fabric, 0);
    }
    std::vector<std::uint64_t> delivered;  // the message of each word, in the order delivered
    for (const EventLog::Event& e : shortcut_log.log()) {
      if (e[0] == 1) {
        delivered.push_back(e[1]);
      }
    }
    EXPECT_EQ(delivered, (std::vector<std::uint64_t>{1, 0, 1, 0, 1, 0, 1, 0}));
    EXPECT_TRUE(shortcut_log.log() == general_log.log());
  }
}

// With one virtual channel and buffers deeper than one flit, unobserved, the Fabric moves worms
// whose flits fill runs of consecutive buffers (Fabric::move_deep_worms): stretched, one flit a
// buffer, while they flow; compressed behind a header that waits for its router delay or for a
// channel, or behind a blocked front, and stretching again when it moves; sharing a buffer with
// the tail of the worm ahead or the header of the worm behind. Packets from 2 to 31 flits, shorter
// and longer than the buffers, light and saturating load, and the hand-over to the general path
// with flits in flight (observed from cycle 450). The worms are taken with router delays above
// one cycle too (Fabric::move_deep_worms_at_any_delay), where the Fabric would take the flits one
// by one.
TEST(FabricWithoutKernel, TheDeepBufferWormsMakeTheMovesOfTheGeneralPath) {
  std::vector<PathCase> cases;
  const auto add = [&cases](const char* name, const Topology& t, std::uint32_t depth,
                            std::uint32_t delay) {
    sw::NetworkConfig c = network(t, 2, delay);
    c.router.vcs = 1;
    c.router.buffer_flits = depth;
    cases.push_back({name, c});
  };
  add("mesh 4x4, 2-flit buffers", Topology::mesh({4, 4}), 2, 1);
  add("mesh 4x4, 3-flit buffers, delay 4", Topology::mesh({4, 4}), 3, 4);
  add("mesh 4x4, 8-flit buffers, delay 4", Topology::mesh({4, 4}), 8, 4);
  add("mesh 4x4, 16-flit buffers", Topology::mesh({4, 4}), 16, 1);
  add("mesh 8, 5-flit buffers, delay 2", Topology::mesh({8}), 5, 2);
  add("4-cube, 4-flit buffers, delay 2, all-port", Topology::hypercube(4), 4, 2);
  cases.back().config.ni.ports = sw::NodePorts::All;
  expect_the_moves_of_the_general_path(cases, 30, 200, true);
}

// With several virtual channels and buffers deeper than one flit (or store-and-forward),
// unobserved, the Fabric decides and commits the moves in one pass, deferring the moves into full
// buffers whose head has not left yet (Fabric::move_flits).
TEST(FabricWithoutKernel, TheOnePassOfSeveralVirtualChannelsMakesTheMovesOfTheGeneralPath) {
  std::vector<PathCase> cases;
  const auto add = [&cases](const char* name, const Topology& t, std::uint32_t vcs,
                            std::uint32_t depth, std::uint32_t delay, sw::Switching switching) {
    sw::NetworkConfig c = network(t, 2, delay);
    c.router.vcs = vcs;
    c.router.buffer_flits = depth;
    c.router.switching = switching;
    cases.push_back({name, c});
  };
  add("torus 4x4, 2 VCs, 3-flit buffers", Topology::torus({4, 4}), 2, 3, 1,
      sw::Switching::Wormhole);
  add("torus 4x4, 2 VCs, 2-flit buffers, delay 2", Topology::torus({4, 4}), 2, 2, 2,
      sw::Switching::Wormhole);
  add("mesh 4x4, 3 VCs, 4-flit buffers", Topology::mesh({4, 4}), 3, 4, 1, sw::Switching::Wormhole);
  add("ring of 8, 4 VCs, store-and-forward", Topology::torus({8}), 4, 6, 1,
      sw::Switching::StoreAndForward);
  cases.push_back({"4-cube, P-cube, 2 VCs, 2-flit buffers, all-port", p_cube(4, 1, 1)});
  cases.back().config.router.vcs = 2;
  cases.back().config.router.buffer_flits = 2;
  cases.back().config.ni.ports = sw::NodePorts::All;
  expect_the_moves_of_the_general_path(cases);
}

// With several virtual channels, one-flit buffers and wormhole switching, unobserved, the Fabric
// moves runs of consecutive flits of a packet together, and serves only the contended routers
// flit by flit (Fabric::move_vc_worms): the dateline's classes and more virtual channels on tori,
// meshes with several virtual channels, router delays, packets of several per message, all-port
// interfaces and P-cube, light then saturating.
TEST(FabricWithoutKernel, TheRunsOfWormsOfSeveralVirtualChannelsMakeTheMovesOfTheGeneralPath) {
  std::vector<PathCase> cases;
  const auto add = [&cases](const char* name, const Topology& t, std::uint32_t vcs,
                            std::uint32_t delay) {
    sw::NetworkConfig c = network(t, 1, delay);
    c.router.vcs = vcs;
    c.router.buffer_flits = 1;
    cases.push_back({name, c});
  };
  add("torus 4x4, 2 VCs", Topology::torus({4, 4}), 2, 1);
  add("torus 5x5, 4 VCs, delay 2", Topology::torus({5, 5}), 4, 2);
  add("torus 3x3x3, 2 VCs", Topology::torus({3, 3, 3}), 2, 1);
  add("mesh 4x4, 3 VCs", Topology::mesh({4, 4}), 3, 1);
  add("ring of 8, 2 VCs, 3-flit packets, delay 3", Topology::torus({8}), 2, 3);
  cases.back().config.ni.packet_flits = 3;
  add("torus 4x4, 2 VCs, all-port", Topology::torus({4, 4}), 2, 1);
  cases.back().config.ni.ports = sw::NodePorts::All;
  cases.push_back({"4-cube, P-cube, 3 VCs", p_cube(4, 0, 1)});
  cases.back().config.router.vcs = 3;
  expect_the_moves_of_the_general_path(cases);
}

// A reset empties the network, its worms and their per-cycle stamps (network.hpp): a Fabric reset
// with flits in flight and stepped again from cycle 0 makes the calls of a new Fabric to its
// client, in order and with their cycles, and the same counters, on every unobserved path (whole
// worms, deep worms, the one-pass moves of one and of two virtual channels, the runs of VC worms),
// under saturating traffic. FAILS on the runs of VC worms (torus, 2 VCs, 1-flit buffers): reset()
// leaves port_used_stamp_ and input_used_stamp_, so a stale claim from the run before, stamped with
// the same cycle, takes a port from a candidate of the new run (clearing both in reset() makes it
// pass). The Multicomputer's cycles only grow, so no command reaches it.
TEST(FabricWithoutKernel, AResetNetworkSteppedAgainFromCycleZeroMakesTheMovesOfANewOne) {
  std::vector<PathCase> cases;
  const auto add = [&cases](const char* name, const Topology& t, std::uint32_t vcs,
                            std::uint32_t depth, std::uint32_t delay) {
    sw::NetworkConfig c = network(t, 1, delay);
    c.router.vcs = vcs;
    c.router.buffer_flits = depth;
    cases.push_back({name, c});
  };
  add("mesh 4x4, 1-flit buffers", Topology::mesh({4, 4}), 1, 1, 1);
  add("mesh 4x4, 3-flit buffers", Topology::mesh({4, 4}), 1, 3, 1);
  add("mesh 4x4, 3-flit buffers, delay 2", Topology::mesh({4, 4}), 1, 3, 2);
  add("torus 4x4, 2 VCs, 1-flit buffers", Topology::torus({4, 4}), 2, 1, 1);
  add("torus 4x4, 2 VCs, 2-flit buffers", Topology::torus({4, 4}), 2, 2, 1);
  for (const PathCase& test : cases) {
    SCOPED_TRACE(test.name);
    const std::uint32_t nodes = test.config.topology.nodes();
    // Every node sends a message of 1 to 5 words every 4 cycles on average, for `cycles` cycles.
    const auto send = [nodes](sc::net::Fabric& fabric, std::uint64_t cycles) {
      std::mt19937_64 rng(5);
      std::uint32_t messages = 0;
      for (std::uint64_t c = 0; c < cycles; ++c) {
        send_random_and_step({&fabric}, rng, nodes, 4, 5, messages, c);
      }
      return cycles;
    };
    EventLog fresh_log;
    EventLog reused_log;
    sc::net::Fabric fresh(test.config.validated(), fresh_log);
    sc::net::Fabric reused(test.config.validated(), reused_log);
    send(reused, 150);
    ASSERT_TRUE(reused.has_flits());
    reused.reset();
    const std::size_t before = reused_log.log().size();
    const sc::net::FabricStats stats_before = reused.stats();
    run_until_idle(fresh, send(fresh, 300));
    run_until_idle(reused, send(reused, 300));
    EXPECT_TRUE(std::equal(fresh_log.log().begin(), fresh_log.log().end(),
                           reused_log.log().begin() + static_cast<std::ptrdiff_t>(before),
                           reused_log.log().end()));
    EXPECT_EQ(fresh.stats().flit_hops, reused.stats().flit_hops - stats_before.flit_hops);
    EXPECT_EQ(fresh.stats().header_wait_cycles,
              reused.stats().header_wait_cycles - stats_before.header_wait_cycles);
    EXPECT_EQ(fresh.stats().router_steps, reused.stats().router_steps - stats_before.router_steps);
    EXPECT_EQ(fresh.channels().max_contention(), reused.channels().max_contention());
    EXPECT_EQ(fresh.channels().peak_occupancy(), reused.channels().peak_occupancy());
  }
}

// An observer attaching mid-run hands the whole worms (one virtual channel, one-flit buffers) to
// the general path, which rebuilds its list of waiting headers from the buffers: only headers
// without an output channel wait. On a line of 4, a long message Z (1 -> 0, or 2 -> 3 the other
// way) holds the ejection; Y (3 -> 0) waits behind it with its tail past its first channel, which
// X (3 -> 0) then takes, its routed header stopped behind Y's tail. Attached at every cycle of
// that, and mirrored so that X's channel is each port in turn, the run tells its client what the
// general path's does, with its counters (a routed header taken for a waiting one would ask again
// and count a wait cycle).
TEST(FabricWithoutKernel, AnObserverAttachedToWholeWormsFindsOnlyUnroutedHeadersWaiting) {
  sw::NetworkConfig config = network(Topology::mesh({4}), 0, 1);
  config.router.vcs = 1;
  config.router.buffer_flits = 1;
  for (const bool mirrored : {false, true}) {
    const auto node = [mirrored](std::uint32_t n) { return mirrored ? 3 - n : n; };
    for (std::uint64_t attach = 1; attach < 40; ++attach) {
      SCOPED_TRACE((mirrored ? "mirrored, attached at " : "attached at ") + std::to_string(attach));
      EventLog worms_log;
      EventLog general_log;
      sc::net::Fabric worms(config.validated(), worms_log);
      sc::net::Fabric general(config.validated(), general_log);
      general.use_general_path();
      for (sc::net::Fabric* f : {&worms, &general}) {
        f->submit(0, node(1), node(0), 30);  // Z
        f->submit(1, node(3), node(0), 1);   // Y
        f->submit(2, node(3), node(0), 4);   // X, behind Y in node 3's queue
      }
      for (std::uint64_t c = 0; c < attach; ++c) {
        worms.begin_cycle(sw::Cycle{c});
        general.begin_cycle(sw::Cycle{c});
      }
      worms.observe(true);
      general.observe(true);
      run_until_idle(worms, attach);
      run_until_idle(general, attach);
      expect_the_same_calls(worms_log, general_log, 3);
      EXPECT_EQ(worms.stats().header_wait_cycles, general.stats().header_wait_cycles);
      EXPECT_EQ(worms.stats().router_steps, general.stats().router_steps);
    }
  }
}

// The route table (sw::RouteTable) stands in for a call to the routing function per header on the
// deterministic routings. A Fabric that asks the routing function for every header is the second
// implementation: the same calls to the client in the same order, with their cycles, and the
// same counters, on a mesh (whole worms), a torus with the dateline's two virtual channels and
// 2-flit buffers (the general path; the policy's classes still per header), a hypercube with
// all-port interfaces and a hand-built network, under light then saturating traffic, observed.
TEST(FabricWithoutKernel, TheRouteTableGivesTheRoutesOfTheRoutingFunction) {
  std::vector<std::pair<std::string, sw::NetworkConfig>> cases;
  cases.emplace_back("mesh 4x4", network(Topology::mesh({4, 4}), 0, 1));
  cases.emplace_back("torus 4x4, 2 VCs, 2-flit buffers", network(Topology::torus({4, 4}), 1, 1));
  cases.back().second.router.buffer_flits = 2;
  cases.emplace_back("4-cube, all-port", network(Topology::hypercube(4), 2, 2));
  cases.back().second.ni.ports = sw::NodePorts::All;
  cases.emplace_back("ring of 5 with a chord",
                     hand_built(ring_with_chord(), sw::NodePorts::One, 0, 1));
  for (const auto& [name, config] : cases) {
    for (const bool observed : {false, true}) {
      SCOPED_TRACE(name + (observed ? ", observed" : ""));
      EventLog table_log;
      EventLog asked_log;
      sc::net::Fabric table(config.validated(), table_log);
      sc::net::Fabric asked(config.validated(), asked_log);
      EXPECT_TRUE(table.routes_from_table());
      asked.compute_routes_per_header();
      EXPECT_FALSE(asked.routes_from_table());
      table.observe(observed);
      asked.observe(observed);
      const std::uint32_t nodes = config.description()->nodes();
      std::mt19937_64 rng(5);
      std::uint32_t messages = 0;
      for (std::uint64_t c = 0; c < 400; ++c) {
        send_random_and_step({&table, &asked}, rng, nodes, c >= 200 ? 3 : 30, 6, messages, c);
      }
      run_until_idle(table, 400);
      run_until_idle(asked, 400);
      expect_the_same_calls(table_log, asked_log, messages);
      EXPECT_EQ(table.stats().flit_hops, asked.stats().flit_hops);
      EXPECT_EQ(table.stats().header_wait_cycles, asked.stats().header_wait_cycles);
      EXPECT_GT(table.stats().header_wait_cycles, 0U) << "no contention: nothing compared";
    }
  }
}

// Where the table is not built the routers ask the routing function per header: P-cube (adaptive)
// and a network above the table's bound, a 64x64 mesh (4096 routers x 4096 nodes), whose corner
// to corner message still arrives in the zero-load time t_s + (h+1) D + F, h = 126.
TEST(FabricWithoutKernel, AdaptiveRoutingsAndNetworksAboveTheTablesBoundAskPerHeader) {
  RecordingClient client;
  EXPECT_FALSE(sc::net::Fabric(p_cube(4, 0, 1).validated(), client).routes_from_table());
  EXPECT_TRUE(sc::net::Fabric(network(Topology::mesh({32, 32}), 0, 1).validated(), client)
                  .routes_from_table());
  sc::net::Fabric large(network(Topology::mesh({64, 64}), 3, 2).validated(), client);
  EXPECT_FALSE(large.routes_from_table());
  constexpr std::uint32_t kWords = 5;
  large.submit(0, 0, 64 * 64 - 1, kWords);
  run_until_idle(large, 0);
  EXPECT_EQ(client.arrival(0), 3 + (126 + 1) * 2 + (kWords + 1));
  EXPECT_TRUE(client.words_arrived_once(0, kWords));
}

}  // namespace
}  // namespace orthosim
