// The verilated network interfaces (C++ models of rtl/network_interface.sv, one per node),
// stepped beside the routers (docs/rtl.md, "Stepping a verilated unit"). The generated header
// comes first, after systemc.h, as in router_network_rtl.cpp (toolchain fact 4).
#include "verilated_sc.h"

#include "Vnetwork_interface.h"
#include "rtl/bridge/verilated_block.hpp"
#include "rtl/bridge/wide_bits.hpp"

#include <string>
#include <utility>

#include "rtl/bridge/network_interfaces_rtl.hpp"
#include "sw/core/diagnostic.hpp"

namespace orthosim::rtl {

namespace {

constexpr std::uint32_t kP = NetworkInterfacesRtl::kChannels;
constexpr std::uint32_t kDst = 24;  ///< 3 CW
constexpr std::uint32_t kTag = 8;   ///< TGW
constexpr std::uint32_t kIdx = NetworkInterfacesRtl::kIndexBits;
constexpr std::uint32_t kAddr = 17;  ///< AW, as rtl/verilate_blocks.cmake verilates it
constexpr std::uint32_t kW = 32;     ///< W
constexpr std::uint32_t kQcw = limits::address_bits(NetworkInterfacesRtl::kQueue + 1);  ///< QCW
static_assert(NetworkInterfacesRtl::kSlots <= (1U << (kAddr - kIdx)),
              "a node's queued messages fit its memory's slots");

using bridge::bits_of;
using bridge::flit_at;
using bridge::put_flit;
using bridge::set_bits;

}  // namespace

// A node's verilated interface. `evaluated`: evaluated with clk low since its last edge.
struct NetworkInterfacesRtl::Node {
  explicit Node(const std::string& name) : dut(name.c_str()) {}
  Vnetwork_interface dut;
  bool evaluated = false;
};

void NetworkInterfacesRtl::check(const sw::NetworkConfig& config) {
  const std::string why =
      "--impl ni=rtl|cosim: the verilated interface (rtl/network_interface.sv) ";
  if (config.ni.startup > kMaxStartup) {
    throw sw::ConfigError(why + "counts a start-up of at most " + std::to_string(kMaxStartup) +
                          " cycles (--startup), got " + std::to_string(config.ni.startup));
  }
  if (config.ni.packet_flits > kMaxPacketFlits) {
    throw sw::ConfigError(why + "makes packets of at most " + std::to_string(kMaxPacketFlits) +
                          " flits (--packet-flits), got " + std::to_string(config.ni.packet_flits));
  }
}

NetworkInterfacesRtl::NetworkInterfacesRtl(std::vector<std::string> names,
                                           const sw::NetworkConfig& config)
    : config_(config), names_(std::move(names)) {
  check(config_);
  for (const std::string& n : names_) {
    nodes_.push_back(std::make_unique<Node>(n + ".rtl"));
    Vnetwork_interface& d = nodes_.back()->dut;
    d.rst_n = 0;
    d.cfg_startup = static_cast<SData>(config_.ni.startup);
    d.cfg_packet_flits = static_cast<CData>(config_.ni.packet_flits);
    d.eval();
  }
  reset();
}

NetworkInterfacesRtl::~NetworkInterfacesRtl() {
  for (const auto& n : nodes_) {
    n->dut.final();
  }
}

std::uint32_t NetworkInterfacesRtl::nodes() const {
  return static_cast<std::uint32_t>(nodes_.size());
}

void NetworkInterfacesRtl::clock(Node& node) {
  Vnetwork_interface& d = node.dut;
  if (!node.evaluated) {
    d.clk = 0;
    d.eval();
  }
  d.clk = 1;
  d.eval();
  d.clk = 0;
  node.evaluated = false;
}

void NetworkInterfacesRtl::reset() {
  for (const auto& n : nodes_) {
    Vnetwork_interface& d = n->dut;
    d.rst_n = 0;
    d.sub_valid = 0;
    d.inj_ready = 0;
    d.ej_valid = 0;
    clock(*n);
    d.rst_n = 1;
    d.eval();
    n->evaluated = true;
  }
  ejecting_.clear();
}

bool NetworkInterfacesRtl::sub_ready(std::uint32_t n, std::uint32_t j) const {
  // The queue's count is a register: valid after an edge, with or without an evaluation.
  return bits_of(nodes_.at(n)->dut.queued, j * kQcw, kQcw) < kQueue;
}

void NetworkInterfacesRtl::submit(std::uint32_t n, std::uint32_t j, std::uint64_t dst,
                                  std::uint32_t tag, std::uint32_t words, std::uint32_t address) {
  Vnetwork_interface& d = nodes_.at(n)->dut;
  d.sub_valid = static_cast<CData>(d.sub_valid | (1U << j));
  set_bits(d.sub_dst, j * kDst, kDst, dst);
  set_bits(d.sub_tag, j * kTag, kTag, tag);
  set_bits(d.sub_words, j * kIdx, kIdx, words);
  set_bits(d.sub_addr, j * kAddr, kAddr, address);
}

// An interface whose queues are empty and that is given no submission and no ejection keeps its
// state at the edge (no start-up counts, no flit leaves, the reassembly table is unchanged).
void NetworkInterfacesRtl::edge() {
  for (const auto& n : nodes_) {
    Vnetwork_interface& d = n->dut;
    if (d.sub_valid == 0 && d.ej_valid == 0 && d.queued == 0) {
      continue;
    }
    clock(*n);
    d.sub_valid = 0;
    d.inj_ready = 0;
    d.ej_valid = 0;
  }
  ejecting_.clear();
}

void NetworkInterfacesRtl::drive(const Memory& memory) {
  for (std::uint32_t r = 0; r < nodes_.size(); ++r) {
    Node& n = *nodes_[r];
    Vnetwork_interface& d = n.dut;
    if (d.queued == 0) {
      continue;
    }
    d.eval();
    n.evaluated = true;
    // The memory's read ports are combinational: the words of this cycle's payload offers.
    bool read = false;
    for (std::uint32_t j = 0; j < kP; ++j) {
      if (((d.inj_valid >> j) & 1U) != 0) {
        const auto address = static_cast<std::uint32_t>(bits_of(d.rd_addr, j * kAddr, kAddr));
        set_bits(d.rd_data, j * kW, kW, memory(r, address));
        read = true;
      }
    }
    if (read) {
      d.eval();
    }
  }
}

std::uint32_t NetworkInterfacesRtl::inj_valid(std::uint32_t n) const {
  const Vnetwork_interface& d = nodes_.at(n)->dut;
  return d.queued == 0 ? 0U : d.inj_valid;
}

RouterFlit NetworkInterfacesRtl::inj_flit(std::uint32_t n, std::uint32_t j) const {
  return flit_at(nodes_.at(n)->dut.inj_flit, j);
}

void NetworkInterfacesRtl::set_inj_ready(std::uint32_t n, std::uint32_t ready) {
  nodes_.at(n)->dut.inj_ready = static_cast<CData>(ready);
}

void NetworkInterfacesRtl::eject(std::uint32_t n, std::uint32_t e, const RouterFlit& flit) {
  Vnetwork_interface& d = nodes_.at(n)->dut;
  if (d.ej_valid == 0) {
    ejecting_.push_back(n);
  }
  d.ej_valid = static_cast<CData>(d.ej_valid | (1U << e));
  put_flit(d.ej_flit, e, flit);
}

void NetworkInterfacesRtl::settle_ejections() {
  for (const std::uint32_t r : ejecting_) {
    nodes_[r]->dut.eval();
    nodes_[r]->evaluated = true;
  }
}

std::vector<NetworkInterfacesRtl::Delivery> NetworkInterfacesRtl::deliveries(
    std::uint32_t n) const {
  std::vector<Delivery> out;
  const Vnetwork_interface& d = nodes_.at(n)->dut;
  for (std::uint32_t e = 0; e < kP && d.ej_valid != 0; ++e) {
    if (((d.ej_valid >> e) & 1U) == 0) {
      continue;
    }
    Delivery v;
    v.tag = static_cast<std::uint32_t>(bits_of(d.dl_tag, e * kTag, kTag));
    v.word = ((d.dl_valid >> e) & 1U) != 0;
    v.index = static_cast<std::uint32_t>(bits_of(d.dl_index, e * kIdx, kIdx));
    v.value = static_cast<sw::Word>(bits_of(d.dl_word, e * kW, kW));
    v.done = ((d.dl_done >> e) & 1U) != 0;
    out.push_back(v);
  }
  return out;
}

std::uint32_t NetworkInterfacesRtl::queued(std::uint32_t n, std::uint32_t j) const {
  return static_cast<std::uint32_t>(bits_of(nodes_.at(n)->dut.queued, j * kQcw, kQcw));
}

bool NetworkInterfacesRtl::reassembly_overflow(std::uint32_t n) const {
  return nodes_.at(n)->dut.reasm_overflow != 0;
}

void NetworkInterfacesRtl::trace_to(FstTrace& fst) {
  for (const auto& n : nodes_) {
    bridge::trace_into(fst, n->dut);
  }
}

}  // namespace orthosim::rtl
