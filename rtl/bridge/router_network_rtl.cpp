// The verilated routers bound to sc_signals and wired after the topology. The generated header
// comes first: it pulls in systemc.h in the order Verilator 5.006 needs (toolchain fact 4).
// sc_spawn (one wiring process per router) needs SystemC's dynamic processes, declared only with
// this macro before the first SystemC header.
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "Vrouter.h"
#include "rtl/bridge/verilated_block.hpp"

#include <string>

#include "rtl/bridge/router_network_rtl.hpp"
#include "sw/core/diagnostic.hpp"

namespace orthosim::rtl {

namespace {

constexpr std::uint32_t kP = RouterNetworkRtl::kMaxPorts;
constexpr std::uint32_t kV = RouterNetworkRtl::kMaxVcs;
constexpr std::uint32_t kData = 64;         ///< DW
constexpr std::uint32_t kFlit = kData + 2;  ///< FW
constexpr std::uint32_t kCoord = 8;         ///< CW
constexpr std::uint32_t kOccBits =          ///< OCW = clog2(VMAX * DMAX + 1)
    limits::address_bits(std::uint64_t{limits::kRouterVcs} * limits::kRouterDepth + 1);
using FlitBus = sc_dt::sc_bv<kP * kFlit>;
static_assert(kV == 2, "out_vc and in_vc hold one bit per port (VW = 1)");

RouterFlit flit_at(const FlitBus& bus, std::uint32_t k) {
  const std::uint32_t lo = k * kFlit;
  RouterFlit f;
  f.data = bus.range(lo + kData - 1, lo).to_uint64();
  f.head = bus[lo + kData].to_bool();
  f.tail = bus[lo + kData + 1].to_bool();
  return f;
}

void put_flit(FlitBus& bus, std::uint32_t k, const RouterFlit& f) {
  const std::uint32_t lo = k * kFlit;
  bus.range(lo + kData - 1, lo) = sc_dt::sc_uint<64>(f.data);
  bus[lo + kData] = f.head;
  bus[lo + kData + 1] = f.tail;
}

std::uint32_t kind_code(sw::TopologyKind kind) {
  switch (kind) {
    case sw::TopologyKind::Mesh:
      return 0;
    case sw::TopologyKind::Torus:
      return 1;
    case sw::TopologyKind::Hypercube:
      return 2;
  }
  return 0;
}

}  // namespace

// A node's router and its signals, in a module named after the node.
struct RouterNetworkRtl::Node : sc_core::sc_module {
  Node(const sc_core::sc_module_name& name, const sc_core::sc_signal_in_if<bool>& clk,
       sc_core::sc_signal<std::uint32_t>& now)
      : sc_core::sc_module(name), dut("rtl") {
    dut.clk(clk);
    dut.rst_n(rst_n);
    dut.cfg_kind(cfg_kind);
    dut.cfg_dims(cfg_dims);
    dut.cfg_radix(cfg_radix);
    dut.cfg_coord(cfg_coord);
    dut.cfg_vcs(cfg_vcs);
    dut.cfg_depth(cfg_depth);
    dut.cfg_delay(cfg_delay);
    dut.cfg_saf(cfg_saf);
    dut.cfg_dateline(cfg_dateline);
    dut.cfg_all_port(cfg_all_port);
    dut.now(now);
    dut.in_valid(in_valid);
    dut.in_vc(in_vc);
    dut.in_flit(in_flit);
    dut.in_acc_room(in_acc_room);
    dut.in_acc_go(in_acc_go);
    dut.out_valid(out_valid);
    dut.out_vc(out_vc);
    dut.out_flit(out_flit);
    dut.out_room(out_room);
    dut.out_go(out_go);
    dut.inj_valid(inj_valid);
    dut.inj_flit(inj_flit);
    dut.inj_ready(inj_ready);
    dut.ej_valid(ej_valid);
    dut.ej_flit(ej_flit);
    dut.hdr_waits(hdr_waits);
    dut.occupancy(occupancy);
    dut.busy(busy);
  }

  Vrouter dut;
  sc_core::sc_signal<bool> rst_n{"rst_n", false};
  sc_core::sc_signal<std::uint32_t> cfg_kind{"cfg_kind"}, cfg_dims{"cfg_dims"},
      cfg_radix{"cfg_radix"}, cfg_coord{"cfg_coord"}, cfg_vcs{"cfg_vcs"}, cfg_depth{"cfg_depth"},
      cfg_delay{"cfg_delay"};
  sc_core::sc_signal<bool> cfg_saf{"cfg_saf"}, cfg_dateline{"cfg_dateline"},
      cfg_all_port{"cfg_all_port"};
  sc_core::sc_signal<std::uint32_t> in_valid{"in_valid"}, in_vc{"in_vc"};
  sc_core::sc_signal<FlitBus> in_flit{"in_flit"};
  sc_core::sc_signal<std::uint32_t> in_acc_room{"in_acc_room"}, in_acc_go{"in_acc_go"};
  sc_core::sc_signal<std::uint32_t> out_valid{"out_valid"}, out_vc{"out_vc"};
  sc_core::sc_signal<FlitBus> out_flit{"out_flit"};
  sc_core::sc_signal<std::uint32_t> out_room{"out_room"}, out_go{"out_go"};
  sc_core::sc_signal<std::uint32_t> inj_valid{"inj_valid"};
  sc_core::sc_signal<FlitBus> inj_flit{"inj_flit"};
  sc_core::sc_signal<std::uint32_t> inj_ready{"inj_ready"}, ej_valid{"ej_valid"};
  sc_core::sc_signal<FlitBus> ej_flit{"ej_flit"};
  sc_core::sc_signal<std::uint32_t> hdr_waits{"hdr_waits"};
  sc_core::sc_signal<std::uint64_t> occupancy{"occupancy"};
  sc_core::sc_signal<bool> busy{"busy"};
  // What the interface offers in this cycle, written to inj_* by drive_injections().
  std::uint32_t offer_valid = 0;
  FlitBus offer_flit;
  bool offered = false;  ///< inj_* hold offers that drive_injections() must withdraw
};

void RouterNetworkRtl::check(const sw::NetworkConfig& config) {
  const sw::Topology& t = config.topology;
  const auto ports = static_cast<std::uint32_t>(t.ports().size());
  const std::string why = "--impl router=rtl|cosim: the verilated router (rtl/router.sv) ";
  if (config.hand_built) {
    throw sw::ConfigError(why + "routes meshes, tori and hypercubes only, not the hand-built " +
                          config.hand_built->name());
  }
  if (ports > kMaxPorts) {
    throw sw::ConfigError(why + "has at most " + std::to_string(kMaxPorts) + " network ports; " +
                          t.to_string() + " needs " + std::to_string(ports) +
                          " (at most 3 grid dimensions, hypercubes up to --dim 6)");
  }
  if (config.router.vcs > kMaxVcs) {
    throw sw::ConfigError(why + "has at most " + std::to_string(kMaxVcs) +
                          " virtual channels per port (--vcs), got " +
                          std::to_string(config.router.vcs));
  }
  if (config.router.buffer_flits > kMaxDepth) {
    throw sw::ConfigError(why + "has buffers of at most " + std::to_string(kMaxDepth) +
                          " flits (--buffers), got " + std::to_string(config.router.buffer_flits));
  }
  if (config.router.delay > kMaxDelay) {
    throw sw::ConfigError(why + "has a router delay of at most " + std::to_string(kMaxDelay) +
                          " cycles (--router-delay), got " + std::to_string(config.router.delay));
  }
  if (t.kind() != sw::TopologyKind::Hypercube) {
    for (const std::uint32_t k : t.radices()) {
      if (k > kMaxRadix) {
        throw sw::ConfigError(why + "has radices up to " + std::to_string(kMaxRadix) + ", got " +
                              std::to_string(k) + " (--dims)");
      }
    }
  }
  if (t.kind() == sw::TopologyKind::Torus && !config.router.dateline) {
    throw sw::ConfigError(why + "needs the dateline on a torus (a torus without it can close its "
                                "ready chain into a ring, docs/rtl.md)");
  }
}

std::uint64_t RouterNetworkRtl::header_data(const sw::Topology& topology, std::uint32_t dst,
                                            std::uint32_t flits, std::uint32_t tag) {
  std::uint64_t where = 0;
  if (topology.kind() == sw::TopologyKind::Hypercube) {
    where = dst;
  } else {
    const std::vector<std::uint32_t> x = topology.coordinates(dst);
    for (std::size_t i = 0; i < x.size(); ++i) {
      where |= std::uint64_t{x[i]} << (i * kCoord);
    }
  }
  // The length is read only under store-and-forward, whose packets fit a buffer (<= kMaxDepth).
  const std::uint64_t length = flits > 255 ? 255 : flits;
  return where | (length << (3 * kCoord)) | (std::uint64_t{tag} << 32);
}

RouterNetworkRtl::RouterNetworkRtl(const sc_core::sc_module_name& name,
                                   const sw::NetworkConfig& config,
                                   const sc_core::sc_signal_in_if<bool>& clk)
    : sc_core::sc_module(name), config_(config) {
  check(config_);
  const sw::Topology& t = config_.topology;
  const std::vector<sw::Port> ports = t.ports();
  neighbor_.assign(std::size_t{t.nodes()} * kP, -1);
  source_.assign(std::size_t{t.nodes()} * kP, -1);
  for (std::uint32_t r = 0; r < t.nodes(); ++r) {
    for (std::uint32_t q = 0; q < ports.size(); ++q) {
      if (const auto n = t.neighbor(r, ports[q])) {
        neighbor_[std::size_t{r} * kP + q] = *n;
        source_[std::size_t{*n} * kP + q] = r;
      }
    }
  }
  std::uint32_t radix = 0;
  for (std::size_t i = 0; i < t.radices().size() && t.kind() != sw::TopologyKind::Hypercube; ++i) {
    radix |= t.radices()[i] << (i * kCoord);
  }
  for (std::uint32_t r = 0; r < t.nodes(); ++r) {
    std::string rn;
    if (t.kind() == sw::TopologyKind::Hypercube) {
      rn = "r" + std::to_string(r);
    } else {
      rn = "r(";
      const std::vector<std::uint32_t> x = t.coordinates(r);
      for (std::size_t i = 0; i < x.size(); ++i) {
        rn += (i ? "," : "") + std::to_string(x[i]);
      }
      rn += ")";
    }
    nodes_.push_back(std::make_unique<Node>(rn.c_str(), clk, now_));
    Node& n = *nodes_.back();
    n.cfg_kind.write(kind_code(t.kind()));
    n.cfg_dims.write(t.dimensions());
    n.cfg_radix.write(radix);
    n.cfg_coord.write(static_cast<std::uint32_t>(header_data(t, r, 0, 0) & 0xffffffU));
    n.cfg_vcs.write(config_.router.vcs);
    n.cfg_depth.write(config_.router.buffer_flits);
    n.cfg_delay.write(config_.router.delay);
    n.cfg_saf.write(config_.router.switching == sw::Switching::StoreAndForward);
    n.cfg_dateline.write(config_.router.dateline);
    n.cfg_all_port.write(config_.ni.ports == sw::NodePorts::All);
  }
  // One wiring process per router, woken only by its own neighbours' outputs: a change in one
  // router re-wires its neighbours, not the whole network (the ready chain settles in a few
  // delta cycles, each of which would otherwise copy every router's inputs).
  for (std::uint32_t r = 0; r < nodes_.size(); ++r) {
    sc_core::sc_spawn_options options;
    options.spawn_method();
    for (std::uint32_t q = 0; q < kP; ++q) {
      if (const std::int64_t s = source_[std::size_t{r} * kP + q]; s >= 0) {
        const Node& from = *nodes_[static_cast<std::size_t>(s)];
        options.set_sensitivity(&from.out_valid.value_changed_event());
        options.set_sensitivity(&from.out_vc.value_changed_event());
        options.set_sensitivity(&from.out_flit.value_changed_event());
      }
      if (const std::int64_t d = neighbor_[std::size_t{r} * kP + q]; d >= 0) {
        const Node& to = *nodes_[static_cast<std::size_t>(d)];
        options.set_sensitivity(&to.in_acc_room.value_changed_event());
        options.set_sensitivity(&to.in_acc_go.value_changed_event());
      }
    }
    sc_core::sc_spawn([this, r] { wire(r); }, sc_core::sc_gen_unique_name("wire"), &options);
  }
}

RouterNetworkRtl::~RouterNetworkRtl() = default;

std::uint32_t RouterNetworkRtl::routers() const {
  return static_cast<std::uint32_t>(nodes_.size());
}

std::string RouterNetworkRtl::router_name(std::uint32_t r) const { return nodes_.at(r)->name(); }

// Each input port q of router r is output port q of its source; each output channel's room and go
// are the neighbour's input buffer's.
void RouterNetworkRtl::wire(std::uint32_t r) {
  Node& n = *nodes_[r];
  std::uint32_t valid = 0, vc = 0, room = 0, go = 0;
  FlitBus flits;
  for (std::uint32_t q = 0; q < kP; ++q) {
    const std::int64_t s = source_[std::size_t{r} * kP + q];
    if (s >= 0) {
      const Node& from = *nodes_[static_cast<std::size_t>(s)];
      valid |= from.out_valid.read() & (1U << q);
      vc |= from.out_vc.read() & (1U << q);
      const std::uint32_t lo = q * kFlit;
      flits.range(lo + kFlit - 1, lo) = from.out_flit.read().range(lo + kFlit - 1, lo);
    }
    const std::int64_t d = neighbor_[std::size_t{r} * kP + q];
    if (d >= 0) {
      const Node& to = *nodes_[static_cast<std::size_t>(d)];
      const std::uint32_t mask = ((1U << kV) - 1) << (q * kV);
      room |= to.in_acc_room.read() & mask;
      go |= to.in_acc_go.read() & mask;
    }
  }
  n.in_valid.write(valid);
  n.in_vc.write(vc);
  n.in_flit.write(flits);
  n.out_room.write(room);
  n.out_go.write(go);
}

void RouterNetworkRtl::set_reset(bool active) {
  for (const auto& n : nodes_) {
    n->rst_n.write(!active);
  }
}

void RouterNetworkRtl::set_cycle(std::uint64_t c) {
  now_.write(static_cast<std::uint32_t>(c));
  clear_offers();
}

void RouterNetworkRtl::clear_offers() {
  for (const auto& n : nodes_) {
    n->offer_valid = 0;
  }
}

void RouterNetworkRtl::offer(std::uint32_t r, std::uint32_t j, const RouterFlit& flit) {
  Node& n = *nodes_.at(r);
  n.offer_valid |= 1U << j;
  put_flit(n.offer_flit, j, flit);
}

void RouterNetworkRtl::drive_injections() {
  for (const auto& n : nodes_) {
    if (n->offer_valid != 0 || n->offered) {
      n->inj_valid.write(n->offer_valid);
      n->inj_flit.write(n->offer_flit);
      n->offered = n->offer_valid != 0;
    }
  }
}

bool RouterNetworkRtl::inj_ready(std::uint32_t r, std::uint32_t j) const {
  return ((nodes_.at(r)->inj_ready.read() >> j) & 1U) != 0;
}

std::vector<std::pair<std::uint32_t, RouterFlit>> RouterNetworkRtl::ejections(
    std::uint32_t r) const {
  std::vector<std::pair<std::uint32_t, RouterFlit>> out;
  const Node& n = *nodes_.at(r);
  const std::uint32_t v = n.ej_valid.read();
  if (v == 0) {
    return out;
  }
  const FlitBus bus = n.ej_flit.read();
  for (std::uint32_t e = 0; e < kP; ++e) {
    if ((v >> e) & 1U) {
      out.emplace_back(e, flit_at(bus, e));
    }
  }
  return out;
}

std::uint32_t RouterNetworkRtl::out_valid(std::uint32_t r) const {
  return nodes_.at(r)->out_valid.read();
}

std::vector<RouterNetworkRtl::Departure> RouterNetworkRtl::departures(std::uint32_t r) const {
  std::vector<Departure> out;
  const Node& n = *nodes_.at(r);
  const std::uint32_t v = n.out_valid.read();
  if (v == 0) {
    return out;
  }
  const FlitBus bus = n.out_flit.read();
  const std::uint32_t vcs = n.out_vc.read();
  for (std::uint32_t q = 0; q < kP; ++q) {
    if (((v >> q) & 1U) != 0) {
      out.push_back({q, (vcs >> q) & 1U, flit_at(bus, q)});
    }
  }
  return out;
}

void RouterNetworkRtl::trace_to(FstTrace& fst) {
  for (const auto& n : nodes_) {
    bridge::trace_into(fst, n->dut);
  }
}

std::uint32_t RouterNetworkRtl::header_departures(std::uint32_t r) const {
  std::uint32_t heads = 0;
  for (const Departure& d : departures(r)) {
    if (d.flit.head) {
      heads |= 1U << (d.port * kV + d.vc);
    }
  }
  return heads;
}

std::uint32_t RouterNetworkRtl::hdr_waits(std::uint32_t r) const {
  return nodes_.at(r)->hdr_waits.read();
}

std::uint32_t RouterNetworkRtl::occupancy(std::uint32_t r, std::uint32_t port) const {
  return static_cast<std::uint32_t>((nodes_.at(r)->occupancy.read() >> (port * kOccBits)) &
                                    ((1U << kOccBits) - 1));
}

bool RouterNetworkRtl::busy(std::uint32_t r) const { return nodes_.at(r)->busy.read(); }

}  // namespace orthosim::rtl
