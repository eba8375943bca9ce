// A multicomputer network built of verilated routers (rtl/router.sv), one C++ model per node,
// wired after sw::Topology and stepped by this class, with plain setters and getters so that
// nothing outside rtl/bridge includes Verilated headers (toolchain fact 4).
//
// Two verilations serve every network within the router's maxima (kMaxPorts, kMaxVcs, kMaxDepth,
// kMaxRadix): check() says why a NetworkConfig does not fit. A network of at most kSmallPorts
// ports (2-D meshes and tori, rings, hypercubes up to d = 4) runs the router verilated at
// kSmallPorts ports, whose arbitration is about half the logic per evaluation; the others run it
// at kMaxPorts (verilated_ports()). Output port q of router r drives
// input port q of its neighbour. The routers are not SystemC modules: no signal carries a port.
// The network sets their inputs, evaluates them and settles the same-cycle ready chain
// (in_acc_room / in_acc_go -> out_room / out_go) in C++, evaluating again only the routers whose
// neighbours' readiness changed (docs/rtl.md, "Stepping a verilated unit").
//
// Clocking (cost follows activity): the owner drives `clk` (rising edge = end of a cycle) only
// while flits are in flight or offered. Within cycle c: set_cycle(c) and the injection offers,
// drive_injections() (which settles the ready chain), read inj_ready / ejections / counters, then
// raise the clock: at the edge every router with flits, offered one or next to one with flits is
// clocked, the others keep their state.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "rtl/limits.hpp"
#include "sw/routed/network_config.hpp"

namespace orthosim::rtl {

class FstTrace;

/// Data bits of a flit (router.sv's and network_interface.sv's DW).
inline constexpr std::uint32_t kFlitDataBits = 64;

/// One flit on the router's wires: {tail, head, data}. A header's data holds the destination
/// (header_data()); the rest of the data is carried unchanged.
struct RouterFlit {
  bool head = false;
  bool tail = false;
  std::uint64_t data = 0;
};

class RouterNetworkRtl : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(RouterNetworkRtl);
  static constexpr std::uint32_t kMaxPorts = limits::kRouterPorts;  ///< PMAX
  /// PMAX of the smaller verilation, for the networks with at most this many ports.
  static constexpr std::uint32_t kSmallPorts = limits::kRouterSmallPorts;
  static constexpr std::uint32_t kMaxVcs = limits::kRouterVcs;      ///< VMAX
  static constexpr std::uint32_t kMaxDepth = limits::kRouterDepth;  ///< DMAX
  static constexpr std::uint32_t kMaxRadix = 255;                   ///< CW = 8 bits per coordinate
  static constexpr std::uint32_t kMaxDelay = 255;

  /// Throws sw::ConfigError naming the option when `config` does not fit the verilated router:
  /// more than 6 ports (a 4-D grid, a hypercube above d = 6), more than 2 virtual channels,
  /// buffers deeper than 4 flits, a radix above 255, a delay above 255, or a torus without its
  /// dateline (docs/rtl.md: the ready chain would close into a ring).
  static void check(const sw::NetworkConfig& config);

  /// PMAX of the verilation that runs `config`'s network: kSmallPorts when its topology has at
  /// most that many ports, else kMaxPorts.
  [[nodiscard]] static std::uint32_t verilated_ports(const sw::NetworkConfig& config);

  /// The data of a header flit for a packet of `flits` flits to `dst`, with `tag` in bits 63..32.
  [[nodiscard]] static std::uint64_t header_data(const sw::Topology& topology, std::uint32_t dst,
                                                 std::uint32_t flits, std::uint32_t tag);

  /// A node's label in instance names: its coordinates "(2,5)", or its number on a hypercube.
  [[nodiscard]] static std::string node_label(const sw::Topology& topology, std::uint32_t node);

  /// Calls check(); builds one router per node, named `r(x,y)` (coordinates) or `r<node>`
  /// (hypercube) below this module, clocked by `clk`.
  RouterNetworkRtl(const sc_core::sc_module_name& name, const sw::NetworkConfig& config,
                   const sc_core::sc_signal_in_if<bool>& clk);
  ~RouterNetworkRtl() override;

  [[nodiscard]] std::uint32_t routers() const;
  /// PMAX of the verilation this network runs (verilated_ports(config)).
  [[nodiscard]] std::uint32_t verilated_ports() const { return ports_; }
  /// The hierarchical name of router `r`, e.g. "torus.r(2,5)".
  [[nodiscard]] std::string router_name(std::uint32_t r) const;

  void set_reset(bool active);
  /// Starts cycle c: sets `now` and forgets the previous cycle's offers.
  void set_cycle(std::uint64_t c);
  /// Forgets the previous cycle's offers (an idle cycle: `now` is left alone).
  void clear_offers();
  /// Offers `flit` on injection channel `j` of router `r` in this cycle.
  void offer(std::uint32_t r, std::uint32_t j, const RouterFlit& flit);
  /// Writes this cycle's offers to the routers (after every offer()) and settles the routers'
  /// ready chain: the outputs below are this cycle's from here to the clock edge.
  void drive_injections();

  [[nodiscard]] bool inj_ready(std::uint32_t r, std::uint32_t j) const;
  /// Ejection channels of router `r` with a flit this cycle: (channel, flit).
  [[nodiscard]] std::vector<std::pair<std::uint32_t, RouterFlit>> ejections(std::uint32_t r) const;
  /// A flit leaving router `r` by network output port `port` on virtual channel `vc`.
  struct Departure {
    std::uint32_t port = 0;
    std::uint32_t vc = 0;
    RouterFlit flit;
  };
  /// The flits leaving router `r` by its network output ports in this cycle.
  [[nodiscard]] std::vector<Departure> departures(std::uint32_t r) const;
  /// Network output ports of router `r` with a flit this cycle (bit q).
  [[nodiscard]] std::uint32_t out_valid(std::uint32_t r) const;
  /// Bit q * kMaxVcs + v: a header leaves router `r` by output port q on virtual channel v in
  /// this cycle.
  [[nodiscard]] std::uint32_t header_departures(std::uint32_t r) const;
  [[nodiscard]] std::uint32_t hdr_waits(std::uint32_t r) const;
  /// Flits held by input port `port` of router `r` (network ports, then injection channels).
  [[nodiscard]] std::uint32_t occupancy(std::uint32_t r, std::uint32_t port) const;
  [[nodiscard]] bool busy(std::uint32_t r) const;

  /// Puts every router's signals into the FST waveform (--fst), during elaboration: scope
  /// `<router_name(r)>.rtl`. The chain is then also settled after each edge, for the waveform.
  void trace_to(FstTrace& fst);

  /// The routers of one verilation and their stepping (opaque: router_network_rtl.cpp).
  class Routers;

 private:
  /// The clock's rising edge.
  void edge();

  sw::NetworkConfig config_;
  sc_core::sc_in<bool> clk_{"clk"};
  std::vector<std::string> names_;
  std::uint32_t ports_ = kMaxPorts;
  std::unique_ptr<Routers> routers_;
};

}  // namespace orthosim::rtl
