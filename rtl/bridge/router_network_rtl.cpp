// The verilated routers (C++ models of rtl/router.sv, one per node) stepped as one network: the
// network sets their inputs, evaluates them and wires them in plain C++ (docs/rtl.md, "Stepping a
// verilated unit"). The generated headers come first: they pull in the Verilated headers in the
// order Verilator 5.006 needs (toolchain fact 4). The router is a C++ model: systemc.h comes
// first, before verilated.h, as fst_trace.cpp includes them, for the skeleton the bridges share.
#include "verilated_sc.h"

#include "Vrouter.h"
#include "Vrouter___024root.h"
#include "Vrouter_small.h"
#include "Vrouter_small___024root.h"
#include "rtl/bridge/verilated_block.hpp"
#include "rtl/bridge/wide_bits.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "rtl/bridge/router_network_rtl.hpp"
#include "sw/core/diagnostic.hpp"

// The routers' generated scheduler functions, for bridge::clock_edge() (verilated_block.hpp):
// a router is clocked without its combinational logic when it was evaluated after its
// combinational inputs last changed, because the network's flits and `now`, set just before the
// edge, are read by its clocked logic only (rtl/router.sv).
ORTHOSIM_VERILATED_SCHEDULER(Vrouter)
ORTHOSIM_VERILATED_SCHEDULER(Vrouter_small)

namespace orthosim::rtl {
namespace {

constexpr std::uint32_t kV = RouterNetworkRtl::kMaxVcs;
constexpr std::uint32_t kData = kFlitDataBits;  ///< DW
constexpr std::uint32_t kFlit = kData + 2;      ///< FW
constexpr std::uint32_t kCoord = 8;             ///< CW
constexpr std::uint32_t kOccBits =              ///< OCW = clog2(VMAX * DMAX + 1)
    limits::address_bits(std::uint64_t{limits::kRouterVcs} * limits::kRouterDepth + 1);
static_assert(kV == 2, "out_vc and in_vc hold one bit per port (VW = 1)");

using bridge::bits_of;
using bridge::clock_edge;
using bridge::flit_at;
using bridge::put_flit;
using bridge::set_bits;

/// Flit k of `from` into flit k of `to` (ports of flits, as Verilator lays out a wide port:
/// words of 32 bits, bit 0 first).
template <class Bus>
void copy_flit(Bus& to, const Bus& from, std::uint32_t k) {
  const std::uint32_t lo = k * kFlit;
  set_bits(to, lo, kData, bits_of(from, lo, kData));
  set_bits(to, lo + kData, 2, bits_of(from, lo + kData, 2));
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

// The routers of one network, of one verilation: V, the model Verilator generated for router.sv
// at P network ports (PMAX). Router r's ports q < P are the topology's ports; its injection
// channel j is its input port P + j, which the network's owner calls kMaxPorts + j.
class RouterNetworkRtl::Routers {
 public:
  virtual ~Routers() = default;
  virtual void set_reset(bool active) = 0;
  virtual void set_cycle(std::uint64_t c) = 0;
  virtual void clear_offers() = 0;
  virtual void offer(std::uint32_t r, std::uint32_t j, const RouterFlit& flit) = 0;
  virtual void drive_injections() = 0;
  virtual void edge() = 0;
  virtual void trace_to(FstTrace& fst) = 0;
  [[nodiscard]] virtual bool inj_ready(std::uint32_t r, std::uint32_t j) const = 0;
  [[nodiscard]] virtual std::vector<std::pair<std::uint32_t, RouterFlit>> ejections(
      std::uint32_t r) const = 0;
  [[nodiscard]] virtual std::vector<Departure> departures(std::uint32_t r) const = 0;
  [[nodiscard]] virtual std::uint32_t out_valid(std::uint32_t r) const = 0;
  [[nodiscard]] virtual std::uint32_t hdr_waits(std::uint32_t r) const = 0;
  [[nodiscard]] virtual std::uint32_t occupancy(std::uint32_t r, std::uint32_t port) const = 0;
  [[nodiscard]] virtual bool busy(std::uint32_t r) const = 0;
};

namespace {

template <class V, std::uint32_t P>
class RoutersOf final : public RouterNetworkRtl::Routers {
 public:
  RoutersOf(const sw::NetworkConfig& config, const std::vector<std::string>& names);
  ~RoutersOf() override;
  RoutersOf(const RoutersOf&) = delete;
  RoutersOf& operator=(const RoutersOf&) = delete;

  void set_reset(bool active) override;
  void set_cycle(std::uint64_t c) override;
  void clear_offers() override;
  void offer(std::uint32_t r, std::uint32_t j, const RouterFlit& flit) override;
  void drive_injections() override;
  void edge() override;
  void trace_to(FstTrace& fst) override;
  [[nodiscard]] bool inj_ready(std::uint32_t r, std::uint32_t j) const override;
  [[nodiscard]] std::vector<std::pair<std::uint32_t, RouterFlit>> ejections(
      std::uint32_t r) const override;
  [[nodiscard]] std::vector<RouterNetworkRtl::Departure> departures(std::uint32_t r) const override;
  [[nodiscard]] std::uint32_t out_valid(std::uint32_t r) const override;
  [[nodiscard]] std::uint32_t hdr_waits(std::uint32_t r) const override;
  [[nodiscard]] std::uint32_t occupancy(std::uint32_t r, std::uint32_t port) const override;
  [[nodiscard]] bool busy(std::uint32_t r) const override;

 private:
  /// A port of P flits.
  using FlitBus = std::remove_reference_t<decltype(std::declval<V>().in_flit)>;
  // A node's verilated router (a C++ model, not a SystemC module: its ports are plain members
  // that the network sets and reads) and what its interface offers in this cycle.
  struct Node {
    explicit Node(const std::string& name) : dut(name.c_str()) {}
    V dut;
    /// Evaluated after its combinational inputs (all but in_valid, in_vc, in_flit) last changed.
    bool current = false;
    std::uint32_t offer_valid = 0;
    FlitBus offer_flit{};
  };
  /// Router r's out_room / out_go from its neighbours' readiness.
  void wire_ready(std::uint32_t r);
  /// Router r's inputs from its neighbours' outputs.
  void wire_flits(std::uint32_t r);
  /// Evaluates the routers with flits until their ready chain is settled.
  void settle();

  std::vector<std::unique_ptr<Node>> nodes_;
  std::vector<std::int64_t> neighbor_;  ///< [r * P + q]: the router port q leads to, or -1
  std::vector<std::int64_t> source_;    ///< [r * P + q]: the router whose port q leads to r
  std::vector<char> queued_;            ///< settle(): router r is to be evaluated again
  std::vector<std::uint32_t> clocked_;  ///< edge(): the routers clocked
  /// settle(): the routers to evaluate in this round and the next (kept to spare allocations).
  std::vector<std::uint32_t> settle_now_;
  std::vector<std::uint32_t> settle_next_;
  bool traced_ = false;
};

}  // namespace

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

std::string RouterNetworkRtl::node_label(const sw::Topology& topology, std::uint32_t node) {
  if (topology.kind() == sw::TopologyKind::Hypercube) {
    return std::to_string(node);
  }
  std::string label = "(";
  const std::vector<std::uint32_t> x = topology.coordinates(node);
  for (std::size_t i = 0; i < x.size(); ++i) {
    label += (i ? "," : "") + std::to_string(x[i]);
  }
  return label + ")";
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

namespace {

template <class V, std::uint32_t P>
RoutersOf<V, P>::RoutersOf(const sw::NetworkConfig& config, const std::vector<std::string>& names) {
  const sw::Topology& t = config.topology;
  const std::vector<sw::Port> ports = t.ports();
  neighbor_.assign(std::size_t{t.nodes()} * P, -1);
  source_.assign(std::size_t{t.nodes()} * P, -1);
  for (std::uint32_t r = 0; r < t.nodes(); ++r) {
    for (std::uint32_t q = 0; q < ports.size(); ++q) {
      if (const auto n = t.neighbor(r, ports[q])) {
        neighbor_[std::size_t{r} * P + q] = *n;
        source_[std::size_t{*n} * P + q] = r;
      }
    }
  }
  std::uint32_t radix = 0;
  for (std::size_t i = 0; i < t.radices().size() && t.kind() != sw::TopologyKind::Hypercube; ++i) {
    radix |= t.radices()[i] << (i * kCoord);
  }
  for (std::uint32_t r = 0; r < t.nodes(); ++r) {
    // The waveform's scope of this router: `<network>.r(x,y).rtl`, as a SystemC module would be.
    nodes_.push_back(std::make_unique<Node>(names[r] + ".rtl"));
    V& d = nodes_.back()->dut;
    d.rst_n = 0;
    d.cfg_kind = static_cast<CData>(kind_code(t.kind()));
    d.cfg_dims = static_cast<CData>(t.dimensions());
    d.cfg_radix = radix;
    d.cfg_coord = static_cast<std::uint32_t>(RouterNetworkRtl::header_data(t, r, 0, 0) & 0xffffffU);
    d.cfg_vcs = static_cast<CData>(config.router.vcs);
    d.cfg_depth = static_cast<CData>(config.router.buffer_flits);
    d.cfg_delay = static_cast<CData>(config.router.delay);
    d.cfg_saf = config.router.switching == sw::Switching::StoreAndForward;
    d.cfg_dateline = config.router.dateline;
    d.cfg_all_port = config.ni.ports == sw::NodePorts::All;
    d.eval();
    nodes_.back()->current = true;
  }
  queued_.assign(nodes_.size(), 0);
}

template <class V, std::uint32_t P>
RoutersOf<V, P>::~RoutersOf() {
  for (const auto& n : nodes_) {
    n->dut.final();
  }
}

// The ready chain into router r: each output channel's room and go are those of the input buffer
// it feeds in the neighbour.
template <class V, std::uint32_t P>
void RoutersOf<V, P>::wire_ready(std::uint32_t r) {
  V& d = nodes_[r]->dut;
  std::uint32_t room = 0, go = 0;
  for (std::uint32_t q = 0; q < P; ++q) {
    if (const std::int64_t n = neighbor_[std::size_t{r} * P + q]; n >= 0) {
      const V& to = nodes_[static_cast<std::size_t>(n)]->dut;
      const std::uint32_t mask = ((1U << kV) - 1) << (q * kV);
      room |= to.in_acc_room & mask;
      go |= to.in_acc_go & mask;
    }
  }
  if (d.out_room != room || d.out_go != go) {
    d.out_room = static_cast<std::remove_reference_t<decltype(d.out_room)>>(room);
    d.out_go = static_cast<std::remove_reference_t<decltype(d.out_go)>>(go);
    nodes_[r]->current = false;
  }
}

// Each input port q of router r is output port q of its source.
template <class V, std::uint32_t P>
void RoutersOf<V, P>::wire_flits(std::uint32_t r) {
  V& d = nodes_[r]->dut;
  std::uint32_t valid = 0, vc = 0;
  for (std::uint32_t q = 0; q < P; ++q) {
    if (const std::int64_t s = source_[std::size_t{r} * P + q]; s >= 0) {
      const V& from = nodes_[static_cast<std::size_t>(s)]->dut;
      valid |= from.out_valid & (1U << q);
      vc |= from.out_vc & (1U << q);
      copy_flit(d.in_flit, from.out_flit, q);
    }
  }
  d.in_valid = static_cast<std::uint8_t>(valid);
  d.in_vc = static_cast<std::uint8_t>(vc);
}

// The combinational ready chain, settled in C++: every router that holds flits is evaluated with
// its neighbours' readiness; whenever a router's own readiness (in_acc_room, in_acc_go) changes,
// the routers that feed it are evaluated again. The chain is acyclic (rtl/router.sv: dimension-
// ordered routing, the dateline on tori), so this ends. A router without flits needs no
// evaluation: its readiness (every buffer has room, no head leaves) and its other outputs do not
// depend on its inputs, and were computed at its last clock edge.
template <class V, std::uint32_t P>
void RoutersOf<V, P>::settle() {
  std::vector<std::uint32_t>& now = settle_now_;
  std::vector<std::uint32_t>& next = settle_next_;
  now.clear();
  for (std::uint32_t r = 0; r < nodes_.size(); ++r) {
    if (nodes_[r]->dut.busy) {
      now.push_back(r);
    }
  }
  while (!now.empty()) {
    next.clear();
    for (const std::uint32_t r : now) {
      V& d = nodes_[r]->dut;
      wire_ready(r);
      if (nodes_[r]->current) {
        continue;  // its outputs answer these inputs already (evaluated at its edge)
      }
      const std::uint32_t room = d.in_acc_room;
      const std::uint32_t go = d.in_acc_go;
      d.clk = 0;
      d.eval();
      nodes_[r]->current = true;
      const std::uint32_t changed = (d.in_acc_room ^ room) | (d.in_acc_go ^ go);
      if (changed == 0) {
        continue;
      }
      // Only the router feeding input port q reads that port's buffers' readiness.
      for (std::uint32_t q = 0; q < P; ++q) {
        const std::int64_t s = source_[std::size_t{r} * P + q];
        if (((changed >> (q * kV)) & ((1U << kV) - 1)) != 0 && s >= 0 &&
            nodes_[static_cast<std::size_t>(s)]->dut.busy &&
            queued_[static_cast<std::size_t>(s)] == 0) {
          queued_[static_cast<std::size_t>(s)] = 1;
          next.push_back(static_cast<std::uint32_t>(s));
        }
      }
    }
    for (const std::uint32_t s : next) {
      queued_[s] = 0;
    }
    std::swap(now, next);
  }
}

// The rising edge that ends the cycle. Every router's inputs are set from the other routers'
// outputs before any of them is clocked, so that each sees the others as they were in the cycle.
// A router without flits that is offered none, receives none and sees no head leave a buffer it
// feeds (out_go, which its count of that buffer follows) keeps its state: it is left alone.
template <class V, std::uint32_t P>
void RoutersOf<V, P>::edge() {
  clocked_.clear();
  for (std::uint32_t r = 0; r < nodes_.size(); ++r) {
    V& d = nodes_[r]->dut;
    bool wake = d.busy || d.inj_valid != 0 || !d.rst_n;
    for (std::uint32_t q = 0; q < P && !wake; ++q) {
      const std::int64_t s = source_[std::size_t{r} * P + q];
      const std::int64_t n = neighbor_[std::size_t{r} * P + q];
      wake = (s >= 0 && ((nodes_[static_cast<std::size_t>(s)]->dut.out_valid >> q) & 1U) != 0) ||
             (n >= 0 && ((nodes_[static_cast<std::size_t>(n)]->dut.in_acc_go >> (q * kV)) &
                         ((1U << kV) - 1)) != 0);
    }
    if (wake) {
      clocked_.push_back(r);
    }
  }
  for (const std::uint32_t r : clocked_) {
    wire_ready(r);
    wire_flits(r);
  }
  // A router whose inputs changed since its last evaluation (an idle one next to a busy one; a
  // reset) is first evaluated with the clock low. A router current with these inputs (settled,
  // or not changed since its last edge) is clocked without evaluating its combinational logic
  // again (clock_edge()); with a waveform, eval() sees the clock low first. Negative edges
  // trigger nothing.
  for (const std::uint32_t r : clocked_) {
    Node& n = *nodes_[r];
    if (!n.current || (traced_ && n.dut.clk != 0)) {
      n.dut.clk = 0;
      n.dut.eval();
    }
    if (traced_) {
      n.dut.clk = 1;
      n.dut.eval();  // with the waveform's activity flag, which clock_edge() leaves alone
    } else {
      clock_edge(n.dut);
    }
    n.current = true;
  }
  if (traced_) {
    settle();  // the waveform shows the chain settled after the edge, as the signals were
  }
}

template <class V, std::uint32_t P>
void RoutersOf<V, P>::set_reset(bool active) {
  for (const auto& n : nodes_) {
    n->dut.rst_n = active ? 0 : 1;
    n->current = false;
  }
}

template <class V, std::uint32_t P>
void RoutersOf<V, P>::set_cycle(std::uint64_t c) {
  for (const auto& n : nodes_) {
    // Only the clocked logic reads `now` (rtl/router.sv): the router stays current.
    n->dut.now = static_cast<std::uint32_t>(c);
  }
  clear_offers();
}

template <class V, std::uint32_t P>
void RoutersOf<V, P>::clear_offers() {
  for (const auto& n : nodes_) {
    n->offer_valid = 0;
  }
}

template <class V, std::uint32_t P>
void RoutersOf<V, P>::offer(std::uint32_t r, std::uint32_t j, const RouterFlit& flit) {
  Node& n = *nodes_.at(r);
  n.offer_valid |= 1U << j;
  put_flit(n.offer_flit, j, flit);
}

template <class V, std::uint32_t P>
void RoutersOf<V, P>::drive_injections() {
  for (const auto& n : nodes_) {
    if (n->offer_valid != 0 || n->dut.inj_valid != 0) {
      n->dut.inj_valid = static_cast<std::uint8_t>(n->offer_valid);
      n->dut.inj_flit = n->offer_flit;
      n->current = false;
    }
  }
  settle();
}

template <class V, std::uint32_t P>
void RoutersOf<V, P>::trace_to(FstTrace& fst) {
  traced_ = true;
  for (const auto& n : nodes_) {
    bridge::trace_into(fst, n->dut);
  }
}

template <class V, std::uint32_t P>
bool RoutersOf<V, P>::inj_ready(std::uint32_t r, std::uint32_t j) const {
  return ((nodes_.at(r)->dut.inj_ready >> j) & 1U) != 0;
}

template <class V, std::uint32_t P>
std::vector<std::pair<std::uint32_t, RouterFlit>> RoutersOf<V, P>::ejections(
    std::uint32_t r) const {
  std::vector<std::pair<std::uint32_t, RouterFlit>> out;
  const V& d = nodes_.at(r)->dut;
  for (std::uint32_t e = 0; e < P && d.ej_valid != 0; ++e) {
    if ((d.ej_valid >> e) & 1U) {
      out.emplace_back(e, flit_at(d.ej_flit, e));
    }
  }
  return out;
}

template <class V, std::uint32_t P>
std::uint32_t RoutersOf<V, P>::out_valid(std::uint32_t r) const {
  return nodes_.at(r)->dut.out_valid;
}

template <class V, std::uint32_t P>
std::vector<RouterNetworkRtl::Departure> RoutersOf<V, P>::departures(std::uint32_t r) const {
  std::vector<RouterNetworkRtl::Departure> out;
  const V& d = nodes_.at(r)->dut;
  for (std::uint32_t q = 0; q < P && d.out_valid != 0; ++q) {
    if (((d.out_valid >> q) & 1U) != 0) {
      out.push_back({q, (d.out_vc >> q) & 1U, flit_at(d.out_flit, q)});
    }
  }
  return out;
}

template <class V, std::uint32_t P>
std::uint32_t RoutersOf<V, P>::hdr_waits(std::uint32_t r) const {
  return nodes_.at(r)->dut.hdr_waits;
}

// `port`: network port q < kMaxPorts, injection channel j as kMaxPorts + j. A network port
// beyond this verilation's P holds nothing (the network does not use it).
template <class V, std::uint32_t P>
std::uint32_t RoutersOf<V, P>::occupancy(std::uint32_t r, std::uint32_t port) const {
  constexpr std::uint32_t kMax = RouterNetworkRtl::kMaxPorts;
  if (port >= P && port < kMax) {
    return 0;
  }
  const std::uint32_t input = port < P ? port : P + (port - kMax);
  return static_cast<std::uint32_t>(
      (bridge::bits_of(nodes_.at(r)->dut.occupancy, input * kOccBits, kOccBits)));
}

template <class V, std::uint32_t P>
bool RoutersOf<V, P>::busy(std::uint32_t r) const {
  return nodes_.at(r)->dut.busy != 0;
}

}  // namespace

std::uint32_t RouterNetworkRtl::verilated_ports(const sw::NetworkConfig& config) {
  const auto ports = static_cast<std::uint32_t>(config.topology.ports().size());
  return ports <= kSmallPorts ? kSmallPorts : kMaxPorts;
}

RouterNetworkRtl::RouterNetworkRtl(const sc_core::sc_module_name& name,
                                   const sw::NetworkConfig& config,
                                   const sc_core::sc_signal_in_if<bool>& clk)
    : sc_core::sc_module(name), config_(config) {
  check(config_);
  clk_.bind(clk);
  const sw::Topology& t = config_.topology;
  for (std::uint32_t r = 0; r < t.nodes(); ++r) {
    names_.push_back(std::string(this->name()) + ".r" + node_label(t, r));
  }
  ports_ = verilated_ports(config_);
  if (ports_ == kSmallPorts) {
    routers_ = std::make_unique<RoutersOf<Vrouter_small, kSmallPorts>>(config_, names_);
  } else {
    routers_ = std::make_unique<RoutersOf<Vrouter, kMaxPorts>>(config_, names_);
  }
  SC_METHOD(edge);
  sensitive << clk_.pos();
  dont_initialize();
}

RouterNetworkRtl::~RouterNetworkRtl() = default;

std::uint32_t RouterNetworkRtl::routers() const {
  return static_cast<std::uint32_t>(names_.size());
}

std::string RouterNetworkRtl::router_name(std::uint32_t r) const { return names_.at(r); }

void RouterNetworkRtl::edge() { routers_->edge(); }

void RouterNetworkRtl::set_reset(bool active) { routers_->set_reset(active); }

void RouterNetworkRtl::set_cycle(std::uint64_t c) { routers_->set_cycle(c); }

void RouterNetworkRtl::clear_offers() { routers_->clear_offers(); }

void RouterNetworkRtl::offer(std::uint32_t r, std::uint32_t j, const RouterFlit& flit) {
  routers_->offer(r, j, flit);
}

void RouterNetworkRtl::drive_injections() { routers_->drive_injections(); }

bool RouterNetworkRtl::inj_ready(std::uint32_t r, std::uint32_t j) const {
  return routers_->inj_ready(r, j);
}

std::vector<std::pair<std::uint32_t, RouterFlit>> RouterNetworkRtl::ejections(
    std::uint32_t r) const {
  return routers_->ejections(r);
}

std::uint32_t RouterNetworkRtl::out_valid(std::uint32_t r) const { return routers_->out_valid(r); }

std::vector<RouterNetworkRtl::Departure> RouterNetworkRtl::departures(std::uint32_t r) const {
  return routers_->departures(r);
}

void RouterNetworkRtl::trace_to(FstTrace& fst) { routers_->trace_to(fst); }

std::uint32_t RouterNetworkRtl::header_departures(std::uint32_t r) const {
  std::uint32_t heads = 0;
  for (const Departure& d : departures(r)) {
    if (d.flit.head) {
      heads |= 1U << (d.port * kV + d.vc);
    }
  }
  return heads;
}

std::uint32_t RouterNetworkRtl::hdr_waits(std::uint32_t r) const { return routers_->hdr_waits(r); }

std::uint32_t RouterNetworkRtl::occupancy(std::uint32_t r, std::uint32_t port) const {
  return routers_->occupancy(r, port);
}

bool RouterNetworkRtl::busy(std::uint32_t r) const { return routers_->busy(r); }

}  // namespace orthosim::rtl
