// The nodes' side of the verilated network interfaces (--impl ni=rtl|cosim): the RTL interfaces
// (rtl::NetworkInterfacesRtl) inject, packetize and reassemble; this class is what a node's
// processor and memory do around them, and names the messages for the owner (RtlNetwork).
//
//   - A message the model submits in cycle c is handed to its interface at the edge that starts
//     c, on the injection channel sw::RouterPorts gives it (injection_channel()), with a tag free
//     among the messages in flight to its destination and a slot of the node's memory
//     (address = slot * 4096 + word index). A node keeps the messages for which a queue has no
//     room and hands one per channel and edge over as room frees: a message waits behind the
//     ones ahead of it in any case, so the start-ups begin in the model's cycles.
//   - The memory's read ports answer with the client's words (FabricClient::read_word).
//   - A delivered word and a completed message (dl_*) go to the client by the tag's message.
// Per node and cycle it records the interface's contract outputs that the co-simulation
// compares with the model's (Outputs).
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rtl/bridge/network_interfaces_rtl.hpp"
#include "sc_models/kernel/lockstep_checker.hpp"
#include "sc_models/net/network.hpp"
#include "sw/routed/router_ports.hpp"

namespace orthosim::sc::net {

class RtlInterfaces {
 public:
  /// An interface's contract outputs in one cycle.
  struct Outputs {
    std::uint32_t inj_take = 0;   ///< bit j: the router took a flit from injection channel j
    std::uint32_t inj_start = 0;  ///< bit j: ... and it began a message (after its start-up)
    std::uint32_t dl_word = 0;    ///< payload words delivered
    std::uint32_t dl_done = 0;    ///< messages completed (reassembled)
  };
  /// A header as the interfaces wrote it.
  struct Header {
    std::uint32_t message = 0;
    std::uint32_t flits = 0;  ///< the packet's
    bool first_of_message = false;
  };

  /// Calls rtl::NetworkInterfacesRtl::check(); interface n is named `<prefix>.ni<label>`.
  RtlInterfaces(const sw::NetworkConfig& config, std::shared_ptr<const sw::RouterPorts> ports,
                FabricClient& client, const std::string& prefix);

  void reset();
  /// Throws sw::ConfigError naming `what` when a message of `words` words has more than a
  /// header can count.
  void check_message(const std::string& what, std::uint64_t words) const;
  void submit(std::uint32_t message, std::uint32_t src, std::uint32_t dst, std::uint32_t words);
  /// The start of cycle c: hands over the waiting messages, takes the interfaces' edge that
  /// ends the last stepped cycle and evaluates them: offers() are this cycle's.
  void begin_cycle();
  /// Calls offer(node, channel, flit) for every flit an interface offers in this cycle.
  template <typename Offer>
  void for_each_offer(Offer&& offer) const {
    for (const std::uint32_t n : active_) {
      const std::uint32_t valid = nis_.inj_valid(n);
      for (std::uint32_t j = 0; valid >> j != 0; ++j) {
        if (((valid >> j) & 1U) != 0) {
          offer(n, j, nis_.inj_flit(n, j));
        }
      }
    }
  }
  /// Node n's channels offering a flit in this cycle (bit j).
  [[nodiscard]] std::uint32_t offered(std::uint32_t n) const { return nis_.inj_valid(n); }
  /// The routers' inj_ready of node n's channels in cycle c: the flits they take.
  void take(std::uint32_t n, std::uint32_t ready, sw::Cycle c);
  /// The message, the flits and the place of a header leaving a router; nullopt for a flit
  /// the interfaces did not write (no message in flight to its destination with its tag).
  [[nodiscard]] std::optional<Header> header(const rtl::RouterFlit& flit) const;
  /// Whether a flit ejected at node n belongs to a message in flight to n (ej_dst / ej_flit).
  [[nodiscard]] bool arrives_at(std::uint32_t n, const rtl::RouterFlit& flit) const;
  /// The router of node n ejects `flit` on channel `e` in cycle c.
  void eject(std::uint32_t n, std::uint32_t e, const rtl::RouterFlit& flit, sw::Cycle c);
  /// The interfaces' deliveries of cycle c to the client.
  void deliver(sw::Cycle c);

  /// Messages or packets still at the sources; the cycle after c while any is.
  [[nodiscard]] std::uint64_t queued_packets() const { return queued_packets_; }
  [[nodiscard]] bool busy() const { return waiting_ > 0; }
  [[nodiscard]] const Outputs& outputs(std::uint32_t n) const { return outputs_[n]; }
  [[nodiscard]] const std::string& name(std::uint32_t n) const { return nis_.name(n); }
  [[nodiscard]] std::uint32_t nodes() const { return nis_.nodes(); }
  /// The first thing the interfaces did that a network interface must not (a word of no message
  /// in flight, a reassembly table overflow).
  [[nodiscard]] const std::optional<Mismatch>& error() const { return error_; }
  void observe(bool on) { observed_ = on; }
  void trace_to(rtl::FstTrace& fst) { nis_.trace_to(fst); }

 private:
  struct Pending {
    std::uint32_t message = 0;
    std::uint32_t dst = 0;
    std::uint32_t words = 0;
  };
  struct Queued {
    std::uint32_t message = 0;
    std::uint32_t slot = 0;
    std::uint64_t flits_left = 0;  ///< flits not yet taken by the router
  };
  struct Channel {
    std::deque<Pending> waiting;  ///< in the node's memory, for room in the queue
    std::deque<Queued> queued;    ///< in the interface's queue, front first
  };

  [[nodiscard]] Channel& channel(std::uint32_t n, std::uint32_t j) {
    return channels_[std::size_t{n} * rtl::NetworkInterfacesRtl::kChannels + j];
  }
  /// [dst * kTags + tag]: the message + 1 in flight to dst with that tag, 0 when free.
  [[nodiscard]] std::uint32_t message_of(std::uint32_t dst, std::uint32_t tag) const {
    return tag_message_[std::size_t{dst} * rtl::NetworkInterfacesRtl::kTags + tag];
  }
  void fail(sw::Cycle c, std::uint32_t n, const char* signal, std::uint64_t expected,
            std::uint64_t got);

  const sw::NetworkConfig& config_;
  const std::shared_ptr<const sw::RouterPorts> ports_;
  FabricClient& client_;
  rtl::NetworkInterfacesRtl nis_;
  std::vector<std::uint64_t> dst_field_;  ///< [node]: the header's destination field
  std::vector<Channel> channels_;         ///< [node * kChannels + channel]
  std::vector<std::uint32_t> tag_message_;
  std::vector<std::vector<std::uint32_t>> free_tags_;   ///< [dst]
  std::vector<std::vector<std::uint32_t>> free_slots_;  ///< [node]
  std::vector<std::uint32_t> slot_message_;             ///< [node * kSlots + slot]
  std::vector<std::uint32_t>
      ej_flits_;  ///< [node * kChannels + e]: the packet's flits, from its header
  std::vector<std::uint32_t> active_;    ///< nodes with messages queued or waiting
  std::vector<std::uint32_t> ejecting_;  ///< nodes given ejections in this cycle
  std::vector<Outputs> outputs_;
  std::vector<std::uint32_t> with_outputs_;  ///< nodes whose outputs_ are not zero
  std::vector<std::uint32_t> waiting_per_node_;
  sw::PortCandidates first_hop_;
  std::uint64_t waiting_ = 0;  ///< messages waiting or queued
  std::uint64_t queued_packets_ = 0;
  std::optional<Mismatch> error_;
  bool observed_ = false;
};

}  // namespace orthosim::sc::net
