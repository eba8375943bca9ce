// NetworkInterfaces alone, without routers: a wire takes every offered flit in the cycle it is
// offered and ejects it at once. Checked against the interface rules of docs/networks.md: a
// message waits its start-up t_s from the cycle it reaches the front of its queue, then one flit
// per cycle; packets of at most packet_flits flits, each with a header; every word arrives at its
// index; the message is reported the cycle after its last tail.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "sc_models/net/network.hpp"
#include "sc_models/net/network_interfaces.hpp"
#include "sw/routed/network_config.hpp"

namespace orthosim::sc::net {
namespace {

/// Words are 1000 * message + index; records what is delivered.
class RecordingClient : public FabricClient {
 public:
  sw::Word read_word(std::uint32_t message, std::uint32_t index) override {
    return 1000 * message + index;
  }
  void deliver_word(std::uint32_t message, std::uint32_t index, sw::Word word) override {
    words[{message, index}] = word;
  }
  void message_delivered(std::uint32_t message, sw::Cycle at) override {
    delivered.emplace_back(message, at.count());
  }
  std::map<std::pair<std::uint32_t, std::uint32_t>, sw::Word> words;
  std::vector<std::pair<std::uint32_t, std::uint64_t>> delivered;
};

/// Per cycle, the packets whose flits the wire carried (a header starts a packet).
struct WireLog {
  std::vector<std::uint64_t> flit_cycles;
  std::vector<std::uint32_t> packet_flits;  ///< flits of each packet, in order
};

WireLog run_wire(NetworkInterfaces& ni, std::uint64_t cycles) {
  WireLog log;
  for (std::uint64_t c = 0; c < cycles; ++c) {
    ni.for_each_offer(sw::Cycle{c}, [&](std::uint32_t injector) {
      const NetworkInterfaces::Flit f = ni.offered(injector);
      ni.take(injector, sw::Cycle{c});
      log.flit_cycles.push_back(c);
      if (f.index == 0) {
        log.packet_flits.push_back(ni.packet(f.packet).flits);
      }
      ni.eject(f, sw::Cycle{c});
    });
  }
  return log;
}

sw::NetworkConfig config(std::uint64_t startup, std::uint32_t packet_flits) {
  sw::NetworkConfig c;
  c.topology = sw::Topology::mesh({2, 2});
  c.ni.startup = startup;
  c.ni.packet_flits = packet_flits;
  return c;
}

/// One injection channel per node, as one-port nodes have.
std::shared_ptr<const sw::RouterPorts> one_port(const sw::NetworkConfig& c) {
  return std::make_shared<const sw::RouterPorts>(c.description(), sw::NodePorts::One);
}

TEST(NetworkInterfacesBlock, AMessageIsSplitIntoPacketsAndOffersAFlitPerCycleAfterItsStartup) {
  const std::uint64_t ts = 5;
  const std::uint32_t packet_flits = 4;  // a header and 3 words
  const std::uint32_t words = 7;
  const sw::NetworkConfig c = config(ts, packet_flits);
  RecordingClient client;
  NetworkInterfaces ni(c, one_port(c), client);
  ni.submit(9, 0, 3, words);
  const WireLog log = run_wire(ni, 40);
  // ceil(7 / 3) = 3 packets carrying 3, 3 and 1 words, each with its header.
  EXPECT_EQ(log.packet_flits, (std::vector<std::uint32_t>{4, 4, 2}));
  const std::uint64_t flits = words + 3;
  std::vector<std::uint64_t> expected_cycles;
  for (std::uint64_t k = 0; k < flits; ++k) {
    expected_cycles.push_back(ts + k);
  }
  EXPECT_EQ(log.flit_cycles, expected_cycles);
  ASSERT_EQ(client.words.size(), words);
  for (std::uint32_t i = 0; i < words; ++i) {
    const std::pair<std::uint32_t, std::uint32_t> word{9, i};
    EXPECT_EQ(client.words[word], 1000 * 9 + i) << i;
  }
  EXPECT_EQ(client.delivered,
            (std::vector<std::pair<std::uint32_t, std::uint64_t>>{{9, ts + flits}}));
  EXPECT_EQ(ni.queued_packets(), 0u);
}

TEST(NetworkInterfacesBlock, AQueuedMessageStartsItsStartupWhenItReachesTheFront) {
  const std::uint64_t ts = 5;
  const sw::NetworkConfig c = config(ts, 0);  // one packet per message
  RecordingClient client;
  NetworkInterfaces ni(c, one_port(c), client);
  ni.submit(1, 0, 1, 2);  // 3 flits
  ni.submit(2, 0, 2, 1);  // 2 flits, behind message 1 at node 0
  ni.submit(3, 3, 0, 1);  // another node's interface: in parallel with message 1
  const WireLog log = run_wire(ni, 40);
  const std::uint64_t second_start = ts + 3 + ts;
  EXPECT_EQ(log.flit_cycles, (std::vector<std::uint64_t>{ts, ts, ts + 1, ts + 1, ts + 2,
                                                         second_start, second_start + 1}));
  EXPECT_EQ(client.delivered, (std::vector<std::pair<std::uint32_t, std::uint64_t>>{
                                  {3, ts + 2}, {1, ts + 3}, {2, second_start + 2}}));
}

TEST(NetworkInterfacesBlock, AMessageIsDeliveredWhenItsLastPacketArrivesInWhateverOrder) {
  // Several virtual channels of one class, or an adaptive routing (p-cube), let a later packet of
  // a message overtake an earlier one: the message is complete only when every packet is in.
  const sw::NetworkConfig c = config(0, 3);  // a header and 2 words a packet
  RecordingClient client;
  NetworkInterfaces ni(c, one_port(c), client);
  ni.submit(4, 0, 3, 6);  // 3 packets
  std::vector<std::vector<NetworkInterfaces::Flit>> packets;
  for (std::uint64_t cycle = 0; cycle < 20; ++cycle) {
    ni.for_each_offer(sw::Cycle{cycle}, [&](std::uint32_t injector) {
      const NetworkInterfaces::Flit f = ni.offered(injector);
      ni.take(injector, sw::Cycle{cycle});
      if (f.index == 0) {
        packets.emplace_back();
      }
      packets.back().push_back(f);
    });
  }
  ASSERT_EQ(packets.size(), 3u);
  // The last packet first, then the first, then the middle one, a cycle apart.
  const std::uint64_t arrival[] = {30, 31, 32};
  const std::size_t order[] = {2, 0, 1};
  for (std::size_t k = 0; k < 3; ++k) {
    for (const NetworkInterfaces::Flit& f : packets[order[k]]) {
      ni.eject(f, sw::Cycle{arrival[k]});
    }
    if (k < 2) {
      EXPECT_TRUE(client.delivered.empty()) << "after " << k + 1 << " packets";
    }
  }
  EXPECT_EQ(client.delivered, (std::vector<std::pair<std::uint32_t, std::uint64_t>>{{4, 33}}));
  for (std::uint32_t i = 0; i < 6; ++i) {
    EXPECT_EQ((client.words[{4, i}]), 1000 * 4 + i) << i;
  }
}

TEST(NetworkInterfacesBlock, ADeliveredPacketFreesItsSlotSoTheSlotsFollowThePacketsInFlight) {
  // A long run keeps only the packets in flight (docs/performance.md, "Memory of a long traffic
  // run"): a packet's slot is reused once its tail is delivered.
  const sw::NetworkConfig c = config(1, 3);
  RecordingClient client;
  NetworkInterfaces ni(c, one_port(c), client);
  ni.submit(0, 0, 3, 6);  // 3 packets at once
  run_wire(ni, 20);
  ASSERT_EQ(ni.packet_slots(), 3u);
  for (std::uint32_t message = 1; message <= 10; ++message) {
    ni.submit(message, message % 4, (message + 1) % 4, 2);  // one packet each, one at a time
    run_wire(ni, 20);
    EXPECT_EQ(ni.packet_slots(), 3u) << "message " << message;
  }
  EXPECT_EQ(client.delivered.size(), 11u);
}

}  // namespace
}  // namespace orthosim::sc::net
