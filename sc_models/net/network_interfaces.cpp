// The network interfaces shared by the model and the verilated networks.
#include "sc_models/net/network_interfaces.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "sw/core/diagnostic.hpp"

namespace orthosim::sc::net {

std::uint32_t injection_channel(const sw::RouterPorts& ports, std::uint32_t src, std::uint32_t dst,
                                sw::PortCandidates& scratch) {
  // All-port nodes inject on the channel of the first hop (none when both share a router).
  const sw::TopologyDescription& d = ports.description();
  const std::uint32_t router = d.attachment(src).router;
  if (ports.channels_per_node(router) <= 1) {
    return 0;
  }
  d.routing().route(d, router, std::nullopt, dst, scratch);
  return scratch.empty() ? 0 : scratch.front();
}

NetworkInterfaces::NetworkInterfaces(const sw::NetworkConfig& config,
                                     std::shared_ptr<const sw::RouterPorts> ports,
                                     FabricClient& client)
    : config_(config),
      client_(client),
      ports_(std::move(ports)),
      startup_(sw::Cycle{config.ni.startup}),
      injectors_(ports_->injectors()),
      in_injecting_(injectors_.size(), 0) {}

void NetworkInterfaces::reset() {
  packets_.clear();
  free_packets_.clear();
  std::fill(injectors_.begin(), injectors_.end(), Injector{});
  injecting_.clear();
  std::fill(in_injecting_.begin(), in_injecting_.end(), 0);
  packets_left_.clear();
  queued_packets_ = 0;
}

void NetworkInterfaces::submit(std::uint32_t message, std::uint32_t src, std::uint32_t dst,
                               std::uint32_t words) {
  const sw::TopologyDescription& d = ports_->description();
  if (src == dst || src >= d.nodes() || dst >= d.nodes()) {
    throw std::logic_error("network: a message needs two distinct nodes of the network");
  }
  const std::uint64_t packets = config_.message_packets(words);
  const std::uint32_t per_packet =
      config_.ni.packet_flits == 0 ? words : config_.ni.packet_flits - 1;
  const std::uint32_t injector =
      ports_->injector_offset(src) + injection_channel(*ports_, src, dst, first_hop_);
  Injector& inj = injectors_[injector];
  if (!in_injecting_[injector]) {
    in_injecting_[injector] = 1;
    injecting_.push_back(injector);
  }
  std::uint32_t word = 0;
  for (std::uint64_t k = 0; k < packets; ++k) {
    const std::uint32_t payload = std::min(per_packet, words - word);
    const Packet p{message, src, dst, payload + 1, word, k == 0, k + 1 == packets};
    if (config_.router.switching == sw::Switching::StoreAndForward &&
        p.flits > config_.router.buffer_flits) {
      throw sw::ParameterError("buffers",
                               "store-and-forward needs buffers that hold a whole packet: " +
                                   std::to_string(p.flits) + " flits, buffers hold " +
                                   std::to_string(config_.router.buffer_flits) +
                                   " ({buffers}, or smaller packets with {packet-flits})");
    }
    word += payload;
    std::uint32_t id = 0;
    if (!free_packets_.empty()) {
      id = free_packets_.back();
      free_packets_.pop_back();
      packets_[id] = p;
    } else {
      id = static_cast<std::uint32_t>(packets_.size());
      packets_.push_back(p);
    }
    inj.packets.push_back(id);
    ++queued_packets_;
  }
  if (packets > 1) {
    packets_left_[message] = static_cast<std::uint32_t>(packets);
  }
}

void NetworkInterfaces::report_taken(std::uint32_t i, sw::Cycle c) {
  const Injector& inj = injectors_[i];
  const Packet& p = packets_[inj.packets.front()];
  client_.flit_injected(node_of(i), channel_of(i), inj.next_flit == 0 && p.first_of_message, c);
  if (inj.next_flit == 0) {
    client_.packet_moved(FabricClient::PacketMove::Inject, p.message, node_of(i), 0, p.flits, c);
  }
}

void NetworkInterfaces::eject_tail(std::uint32_t id, sw::Cycle c) {
  // A copy: the client's calls below may submit messages, which may grow packets_.
  const Packet p = packets_[id];
  if (observed_) {
    client_.packet_moved(FabricClient::PacketMove::Eject, p.message, p.dst, 0, p.flits, c);
  }
  free_packets_.push_back(id);
  packets_[id].flits = 0;  // freed: no flit of it is in flight (RtlNetwork checks this)
  bool message_done = true;
  // Only a message of several packets has its count of packets still to arrive.
  if (!(p.first_of_message && p.last_of_message)) {
    if (const auto it = packets_left_.find(p.message); it != packets_left_.end()) {
      message_done = --it->second == 0;
      if (message_done) {
        packets_left_.erase(it);
      }
    }
  }
  if (message_done) {
    client_.message_delivered(p.message, c + sw::Cycle{1});
  }
}

std::optional<sw::Cycle> NetworkInterfaces::next_offer(sw::Cycle c) const {
  std::optional<sw::Cycle> next;
  for (const std::uint32_t i : injecting_) {
    const Injector& inj = injectors_[i];
    if (inj.packets.empty()) {
      continue;
    }
    const sw::Cycle after = c + sw::Cycle{1};
    const sw::Cycle at = inj.started ? std::max(after, inj.startup_end) : after;
    next = next ? std::min(*next, at) : at;
  }
  return next;
}

}  // namespace orthosim::sc::net
