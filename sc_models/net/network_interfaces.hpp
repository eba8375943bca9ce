// The nodes' network interfaces (docs/architecture.md, multicomputer side; [LCC] section 6): a message is
// split into packets of at most packet_flits flits, queued at its source on one injection channel
// (the one toward its first hop when the nodes have all-port interfaces; sw::RouterPorts), and, after the start-up
// t_s of the message, offered to the router one flit per cycle. At the destination each flit's
// word is handed to the client, and the message is reported when the tail of its last packet
// arrives (its packets may overtake each other on different virtual channels).
//
// One implementation for every network: the model routers (Fabric) and the verilated ones
// (RtlNetwork) take flits from here and hand them back, so both see the same interfaces.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sc_models/net/network.hpp"
#include "sw/routed/router_ports.hpp"

namespace orthosim::sc::net {

/// The injection channel of node `src` for a message to `dst`: 0 on a one-port node, the channel
/// of the route's first hop on an all-port node (the verilated interfaces are fed the same way).
/// `scratch` holds the route's candidates.
[[nodiscard]] std::uint32_t injection_channel(const sw::RouterPorts& ports, std::uint32_t src,
                                              std::uint32_t dst, sw::PortCandidates& scratch);

class NetworkInterfaces {
 public:
  struct Packet {
    std::uint32_t message = 0;
    std::uint32_t src = 0;
    std::uint32_t dst = 0;
    std::uint32_t flits = 0;       ///< header included
    std::uint32_t first_word = 0;  ///< the message word flit 1 carries
    bool first_of_message = false;
    bool last_of_message = false;
  };
  /// A flit taken from an interface: flit `index` of packet `packet` (0 = header).
  struct Flit {
    std::uint32_t packet = 0;
    std::uint32_t index = 0;
    sw::Word word = 0;
  };

  /// The injection channels of each node as `ports` numbers them (one, or one per network port of
  /// its router for all-port nodes).
  NetworkInterfaces(const sw::NetworkConfig& config, std::shared_ptr<const sw::RouterPorts> ports,
                    FabricClient& client);

  /// Empties every queue and forgets every packet.
  void reset();

  /// Queues message `message` (see Network::submit). Throws sw::ConfigError when a packet does not
  /// fit a buffer under store-and-forward.
  void submit(std::uint32_t message, std::uint32_t src, std::uint32_t dst, std::uint32_t words);

  /// Calls offer(injector) for every injection channel that offers a flit in cycle c (the start-up
  /// of a message begins in the first cycle its first packet is at the front of its queue).
  template <typename Offer>
  void for_each_offer(sw::Cycle c, Offer&& offer) {
    // The injectors that still hold packets stay in the list, in their order.
    std::size_t kept = 0;
    for (const std::uint32_t i : injecting_) {
      Injector& inj = injectors_[i];
      if (inj.packets.empty()) {
        in_injecting_[i] = 0;
        continue;
      }
      injecting_[kept++] = i;
      if (!inj.started) {
        inj.started = true;
        inj.startup_end = packets_[inj.packets.front()].first_of_message ? c + startup_ : c;
      }
      if (c >= inj.startup_end) {
        offer(i);
      }
    }
    injecting_.resize(kept);
  }
  /// The node and the injection channel of injector `i`.
  [[nodiscard]] std::uint32_t node_of(std::uint32_t i) const { return ports_->node_of_injector(i); }
  [[nodiscard]] std::uint32_t channel_of(std::uint32_t i) const {
    return i - ports_->injector_offset(node_of(i));
  }
  // offered, take and eject run for every flit the network carries: defined here so that the
  // network's loops inline them, with the rarer work (observers, a packet's tail) out of line.

  /// The flit injector `i` offers, its word read from the client (at the sender, the cycle it is
  /// offered).
  [[nodiscard]] Flit offered(std::uint32_t i) {
    const Injector& inj = injectors_[i];
    const std::uint32_t id = inj.packets.front();
    const Packet& p = packets_[id];
    Flit f{id, inj.next_flit, 0};
    f.word = f.index == 0 ? 0 : client_.read_word(p.message, p.first_word + f.index - 1);
    return f;
  }
  /// The packet and the flit index injector `i` offers (offered() without reading the word).
  [[nodiscard]] std::pair<std::uint32_t, std::uint32_t> offer_of(std::uint32_t i) const {
    return {injectors_[i].packets.front(), injectors_[i].next_flit};
  }
  /// The router took injector i's offered flit in cycle c.
  void take(std::uint32_t i, sw::Cycle c) {
    if (observed_) {
      report_taken(i, c);
    }
    Injector& inj = injectors_[i];
    if (++inj.next_flit == packets_[inj.packets.front()].flits) {
      inj.packets.pop_front();
      inj.next_flit = 0;
      inj.started = false;
      --queued_packets_;
    }
  }
  /// A flit reached its destination's interface in cycle c; true when it was a packet's tail.
  bool eject(const Flit& f, sw::Cycle c) {
    const Packet& p = packets_[f.packet];
    const bool tail = f.index + 1 == p.flits;
    if (f.index > 0) {
      client_.deliver_word(p.message, p.first_word + f.index - 1, f.word);
    }
    if (tail) {
      eject_tail(f.packet, c);
    }
    return tail;
  }

  /// The next cycle after c in which an interface offers a flit, if any is queued.
  [[nodiscard]] std::optional<sw::Cycle> next_offer(sw::Cycle c) const;
  [[nodiscard]] std::uint64_t queued_packets() const { return queued_packets_; }
  /// A packet in flight; a freed one has no flits.
  [[nodiscard]] const Packet& packet(std::uint32_t id) const { return packets_[id]; }
  /// Packet ids in use are below this.
  [[nodiscard]] std::size_t packet_slots() const { return packets_.size(); }

  void observe(bool on) { observed_ = on; }

 private:
  struct Injector {
    std::deque<std::uint32_t> packets;
    bool started = false;  ///< the front packet has begun (its message's start-up, if first)
    sw::Cycle startup_end;
    std::uint32_t next_flit = 0;
  };

  /// take() of an observed network: tells the client.
  void report_taken(std::uint32_t i, sw::Cycle c);
  /// The tail of packet `id` reached its destination's interface in cycle c: the packet is freed,
  /// and its message delivered when it was the message's last packet to arrive.
  void eject_tail(std::uint32_t id, sw::Cycle c);

  const sw::NetworkConfig& config_;
  FabricClient& client_;
  const std::shared_ptr<const sw::RouterPorts> ports_;
  sw::PortCandidates first_hop_;  ///< submit's scratch
  const sw::Cycle startup_;
  std::vector<Packet> packets_;
  std::vector<std::uint32_t> free_packets_;
  std::vector<Injector> injectors_;       ///< [RouterPorts::injector_offset(node) + channel]
  std::vector<std::uint32_t> injecting_;  ///< injectors that may hold packets
  std::vector<std::uint8_t> in_injecting_;
  /// Messages of several packets: packets still to arrive.
  std::unordered_map<std::uint32_t, std::uint32_t> packets_left_;
  std::uint64_t queued_packets_ = 0;
  bool observed_ = false;
};

}  // namespace orthosim::sc::net
