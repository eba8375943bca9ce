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

}  // namespace
}  // namespace orthosim::sc::net
