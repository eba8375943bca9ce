// The nodes around the verilated network interfaces.
#include "sc_models/cosim/rtl_interfaces.hpp"

#include <algorithm>
#include <utility>

#include "rtl/bridge/router_network_rtl.hpp"
#include "sc_models/net/network_interfaces.hpp"
#include "sw/core/diagnostic.hpp"

namespace orthosim::sc::net {

namespace {

using Nis = rtl::NetworkInterfacesRtl;

// network_interface.sv's flit fields (docs/rtl.md, network_interface).
constexpr std::uint32_t kIndexBits = Nis::kIndexBits;
constexpr std::uint64_t kIndexMask = (std::uint64_t{1} << kIndexBits) - 1;
std::uint64_t dst_field(const rtl::RouterFlit& f) { return f.data & 0xffffffU; }
std::uint32_t tag_of(const rtl::RouterFlit& f) {
  return static_cast<std::uint32_t>((f.data >> 32) & 0xffU);
}
std::uint32_t header_first_word(const rtl::RouterFlit& f) {
  return static_cast<std::uint32_t>((f.data >> 40) & kIndexMask);
}
std::uint32_t header_words(const rtl::RouterFlit& f) {
  return static_cast<std::uint32_t>((f.data >> 52) & kIndexMask);
}
/// The flits of a header's packet, from its message's words and its first word (the header's
/// own length field saturates at 255).
std::uint32_t header_flits(const sw::NetworkConfig& config, const rtl::RouterFlit& f) {
  const std::uint32_t left = header_words(f) - header_first_word(f);
  const std::uint32_t per_packet =
      config.ni.packet_flits == 0 ? header_words(f) : config.ni.packet_flits - 1;
  return std::min(left, per_packet) + 1;
}

std::vector<std::string> names_of(const sw::Topology& t, const std::string& prefix) {
  std::vector<std::string> names;
  for (std::uint32_t n = 0; n < t.nodes(); ++n) {
    names.push_back(prefix + ".ni" + rtl::RouterNetworkRtl::node_label(t, n));
  }
  return names;
}

}  // namespace

RtlInterfaces::RtlInterfaces(const sw::NetworkConfig& config,
                             std::shared_ptr<const sw::RouterPorts> ports, FabricClient& client,
                             const std::string& prefix)
    : config_(config),
      ports_(std::move(ports)),
      client_(client),
      nis_(names_of(config.topology, prefix), config) {
  const std::uint32_t nodes = config_.topology.nodes();
  for (std::uint32_t n = 0; n < nodes; ++n) {
    dst_field_.push_back(rtl::RouterNetworkRtl::header_data(config_.topology, n, 0, 0) & 0xffffffU);
  }
  channels_.resize(std::size_t{nodes} * Nis::kChannels);
  tag_message_.assign(std::size_t{nodes} * Nis::kTags, 0);
  free_tags_.resize(nodes);
  free_slots_.resize(nodes);
  slot_message_.assign(std::size_t{nodes} * Nis::kSlots, 0);
  ej_flits_.assign(std::size_t{nodes} * Nis::kChannels, 0);
  outputs_.resize(nodes);
  waiting_per_node_.assign(nodes, 0);
  reset();
}

void RtlInterfaces::reset() {
  nis_.reset();
  for (Channel& ch : channels_) {
    ch = Channel{};
  }
  std::fill(tag_message_.begin(), tag_message_.end(), 0U);
  for (std::uint32_t n = 0; n < free_tags_.size(); ++n) {
    free_tags_[n].clear();
    for (std::uint32_t t = Nis::kTags; t-- > 0;) {
      free_tags_[n].push_back(t);
    }
    free_slots_[n].clear();
    for (std::uint32_t s = Nis::kSlots; s-- > 0;) {
      free_slots_[n].push_back(s);
    }
  }
  std::fill(outputs_.begin(), outputs_.end(), Outputs{});
  std::fill(waiting_per_node_.begin(), waiting_per_node_.end(), 0U);
  active_.clear();
  ejecting_.clear();
  with_outputs_.clear();
  waiting_ = 0;
  queued_packets_ = 0;
  error_.reset();
}

void RtlInterfaces::check_message(const std::string& what, std::uint64_t words) const {
  if (words > Nis::kMaxWords) {
    throw sw::ConfigError("--impl ni=rtl|cosim: the verilated interface (rtl/network_interface.sv) "
                          "counts messages of at most " +
                          std::to_string(Nis::kMaxWords) + " words; " + what + " has " +
                          std::to_string(words));
  }
}

void RtlInterfaces::submit(std::uint32_t message, std::uint32_t src, std::uint32_t dst,
                           std::uint32_t words) {
  check_message("message " + std::to_string(message), words);
  const std::uint32_t j = injection_channel(*ports_, src, dst, first_hop_);
  channel(src, j).waiting.push_back({message, dst, words});
  if (waiting_per_node_[src]++ == 0) {
    active_.push_back(src);
  }
  ++waiting_;
  queued_packets_ += config_.message_packets(words);
}

void RtlInterfaces::begin_cycle() {
  for (const std::uint32_t n : with_outputs_) {
    outputs_[n] = Outputs{};
  }
  with_outputs_.clear();
  for (const std::uint32_t n : active_) {
    for (std::uint32_t j = 0; j < Nis::kChannels; ++j) {
      Channel& ch = channel(n, j);
      if (ch.waiting.empty() || !nis_.sub_ready(n, j)) {
        continue;
      }
      const Pending p = ch.waiting.front();
      std::vector<std::uint32_t>& tags = free_tags_[p.dst];
      if (tags.empty()) {
        throw sw::ConfigError("--impl ni=rtl|cosim: more than " + std::to_string(Nis::kTags) +
                              " messages in flight to node " + std::to_string(p.dst) +
                              " (the verilated interface's 8-bit tags)");
      }
      // A queue holds at most kQueue messages, so the node always has a slot free.
      const std::uint32_t slot = free_slots_[n].back();
      free_slots_[n].pop_back();
      const std::uint32_t tag = tags.back();
      tags.pop_back();
      tag_message_[std::size_t{p.dst} * Nis::kTags + tag] = p.message + 1;
      slot_message_[std::size_t{n} * Nis::kSlots + slot] = p.message;
      nis_.submit(n, j, dst_field_[p.dst], tag, p.words, slot << kIndexBits);
      ch.waiting.pop_front();
      ch.queued.push_back({p.message, slot, p.words + config_.message_packets(p.words)});
    }
  }
  nis_.edge();
  nis_.drive([this](std::uint32_t node, std::uint32_t address) {
    const std::uint32_t message =
        slot_message_[std::size_t{node} * Nis::kSlots + (address >> kIndexBits)];
    return client_.read_word(message, address & kIndexMask);
  });
}

void RtlInterfaces::take(std::uint32_t n, std::uint32_t ready, sw::Cycle c) {
  nis_.set_inj_ready(n, ready);
  const std::uint32_t taken = nis_.inj_valid(n) & ready;
  if (taken == 0) {
    return;
  }
  Outputs& out = outputs_[n];
  if (out.inj_take == 0 && out.dl_word == 0 && out.dl_done == 0) {
    with_outputs_.push_back(n);
  }
  out.inj_take |= taken;
  for (std::uint32_t j = 0; taken >> j != 0; ++j) {
    if (((taken >> j) & 1U) == 0) {
      continue;
    }
    const rtl::RouterFlit f = nis_.inj_flit(n, j);
    Channel& ch = channel(n, j);
    Queued& q = ch.queued.front();
    if (f.head && header_first_word(f) == 0) {
      out.inj_start |= 1U << j;
    }
    if (f.head && observed_) {
      client_.packet_moved(FabricClient::PacketMove::Inject, q.message, n, 0,
                           header_flits(config_, f), c);
    }
    if (f.tail) {
      --queued_packets_;
    }
    if (--q.flits_left == 0) {
      free_slots_[n].push_back(q.slot);
      ch.queued.pop_front();
      --waiting_;
      if (--waiting_per_node_[n] == 0) {
        active_.erase(std::find(active_.begin(), active_.end(), n));
      }
    }
  }
}

std::optional<RtlInterfaces::Header> RtlInterfaces::header(const rtl::RouterFlit& flit) const {
  const auto at = std::find(dst_field_.begin(), dst_field_.end(), dst_field(flit));
  if (at == dst_field_.end()) {
    return std::nullopt;
  }
  const auto dst = static_cast<std::uint32_t>(at - dst_field_.begin());
  const std::uint32_t message = message_of(dst, tag_of(flit));
  if (message == 0) {
    return std::nullopt;
  }
  return Header{message - 1, header_flits(config_, flit), header_first_word(flit) == 0};
}

bool RtlInterfaces::arrives_at(std::uint32_t n, const rtl::RouterFlit& flit) const {
  return (!flit.head || dst_field(flit) == dst_field_[n]) && message_of(n, tag_of(flit)) != 0;
}

void RtlInterfaces::eject(std::uint32_t n, std::uint32_t e, const rtl::RouterFlit& flit,
                          sw::Cycle c) {
  if (std::find(ejecting_.begin(), ejecting_.end(), n) == ejecting_.end()) {
    ejecting_.push_back(n);
  }
  std::uint32_t& flits = ej_flits_[std::size_t{n} * Nis::kChannels + e];
  if (flit.head) {
    flits = header_flits(config_, flit);
  }
  if (flit.tail && observed_) {
    client_.packet_moved(FabricClient::PacketMove::Eject, message_of(n, tag_of(flit)) - 1, n, 0,
                         flits, c);
  }
  nis_.eject(n, e, flit);
}

void RtlInterfaces::fail(sw::Cycle c, std::uint32_t n, const char* signal, std::uint64_t expected,
                         std::uint64_t got) {
  if (!error_) {
    error_ = Mismatch{c.count(), nis_.name(n), signal, expected, got};
  }
}

void RtlInterfaces::deliver(sw::Cycle c) {
  nis_.settle_ejections();
  for (const std::uint32_t n : ejecting_) {
    Outputs& out = outputs_[n];
    if (out.inj_take == 0 && out.dl_word == 0 && out.dl_done == 0) {
      with_outputs_.push_back(n);
    }
    for (const rtl::NetworkInterfacesRtl::Delivery& d : nis_.deliveries(n)) {
      const std::uint32_t message = message_of(n, d.tag);
      if (message == 0) {
        fail(c, n, "dl_tag", 0, d.tag);
        return;
      }
      if (d.word) {
        ++out.dl_word;
        client_.deliver_word(message - 1, d.index, d.value);
      }
      if (d.done) {
        ++out.dl_done;
        tag_message_[std::size_t{n} * Nis::kTags + d.tag] = 0;
        free_tags_[n].push_back(d.tag);
        client_.message_delivered(message - 1, c + sw::Cycle{1});
      }
    }
    if (nis_.reassembly_overflow(n)) {
      fail(c, n, "reasm_overflow", 0, 1);
    }
  }
  ejecting_.clear();
}

}  // namespace orthosim::sc::net
