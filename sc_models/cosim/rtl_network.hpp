// A multicomputer's network built of verilated routers (--impl router=rtl), or of verilated
// routers checked every cycle against the model (--impl router=cosim). The network interfaces
// are the model's (NetworkInterfaces), or with ni=rtl|cosim verilated too (RtlInterfaces:
// rtl/network_interface.sv through rtl::NetworkInterfacesRtl), a node then being interface plus
// router in RTL; the routers are rtl/router.sv through rtl::RouterNetworkRtl.
//
// A cycle c in two halves (docs/rtl.md, "Routers in the networks"):
//   - begin_cycle(c), at the start of the cycle: the interfaces' offers are driven on the routers'
//     injection channels, which settles the routers' combinational ready chain (and, under cosim,
//     the model network steps its whole cycle);
//   - half a period later end_cycle(c) takes the accepted offers, the ejected flits and the
//     counters, compares with the model under cosim, tells the owner the cycle is done, and
//     raises the clock: the edge ends the cycle. The clock falls at the start of the next cycle.
// The clock has edges only in cycles with flits in the routers or offered (cost follows
// activity). A reset pulse (rst_n low over one edge, a quarter period long, before the cycle's
// second half) starts the first cycle after every reset(), so a run left with flits in the
// routers (a deadlock, traffic not drained) does not leak into the next.
//
// Every flit read back is checked: its packet must be in flight, and an ejected flit must reach
// its destination in its place in the packet (header first, tail last). A violation is an RTL
// error: like a cosim mismatch it stops the run (mismatch()), with signal out_flit, ej_flit,
// ej_dst, ej_head or ej_tail (with the verilated interfaces: out_flit, ej_flit, ej_dst, and the
// interfaces' dl_tag or reasm_overflow).
//
// Under ni=cosim (with a model network beside, as under router=cosim) every interface's contract
// outputs are compared every cycle (RtlInterfaces::Outputs): inj_take, inj_start, dl_word and
// dl_done, per node `<network>.rtl.ni(x,y)`.
//
// Multicomputer builds it through the factory verilated_routers() gives, so the network models
// (sc_models/net) do not link the verilated routers.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <systemc>
#include <vector>

#include "rtl/bridge/fst_trace.hpp"
#include "rtl/bridge/router_network_rtl.hpp"
#include "sc_models/cosim/rtl_interfaces.hpp"
#include "sc_models/kernel/lockstep_checker.hpp"
#include "sc_models/net/fabric.hpp"
#include "sc_models/net/multicomputer.hpp"
#include "sc_models/net/network.hpp"
#include "sc_models/net/network_interfaces.hpp"

namespace orthosim::sc::net {

class RtlNetwork final : public sc_core::sc_module, public Network {
 public:
  SC_HAS_PROCESS(RtlNetwork);

  /// A deliberate error in the model's side of the comparison (test-only, docs/rtl.md): router
  /// `router`'s header departures with bit `bit` flipped in cycle `at`, or the first header
  /// departure of `router` at or after `at` reported one cycle late; with `interface`, the
  /// same on node `router`'s interface: its inj_take with bit `bit` flipped, or the first message
  /// start (inj_start) at or after `at` reported one cycle late.
  struct Fault {
    enum class Kind : std::uint8_t { FlipBit, LateHeader };
    Kind kind = Kind::FlipBit;
    std::uint32_t router = 0;
    sw::Cycle at;
    std::uint32_t bit = 0;
    bool interface = false;
  };

  /// Throws sw::ConfigError when the routers or interfaces do not fit the verilation
  /// (rtl::RouterNetworkRtl::check, rtl::NetworkInterfacesRtl::check). `period` is the owner's clock period; `cycle_done(c)` is
  /// called at the end of every cycle's second half. With `fst`, the routers' signals go to it.
  RtlNetwork(const sc_core::sc_module_name& name, const sw::Validated<sw::NetworkConfig>& config,
             FabricClient& client, const sc_core::sc_time& period,
             std::function<void(sw::Cycle)> cycle_done, rtl::FstTrace* fst);
  ~RtlNetwork() override;

  /// With the verilated interfaces: at most rtl::NetworkInterfacesRtl::kMaxWords words.
  void check_message(const std::string& what, std::uint64_t words) const override;
  void submit(std::uint32_t message, std::uint32_t src, std::uint32_t dst,
              std::uint32_t words) override;
  void reset() override;
  void begin_cycle(sw::Cycle c) override;
  [[nodiscard]] bool settles() const override { return true; }
  [[nodiscard]] std::optional<sw::Cycle> next_cycle(sw::Cycle c) const override;
  /// Flits in the routers, or an offer the routers refused in the last cycle (a network that
  /// refuses flits while empty is stuck too: the owner's watchdog sees it).
  [[nodiscard]] bool has_flits() const override { return flits_in_routers_ > 0 || refused_; }
  [[nodiscard]] sw::Cycle last_move() const override { return last_move_; }
  [[nodiscard]] std::uint64_t queued_packets() const override {
    return rtl_ni_ ? rtl_ni_->queued_packets() : ni_.queued_packets();
  }
  /// The routers that still hold flits, and under cosim the model's account of its channels.
  [[nodiscard]] std::string describe_deadlock() const override;
  [[nodiscard]] const FabricStats& stats() const override { return stats_; }
  [[nodiscard]] const ChannelCounters& channels() const override { return channels_; }
  [[nodiscard]] ChannelCounters& channels() override { return channels_; }
  [[nodiscard]] const sw::TopologyDescription& description() const override {
    return router_ports_->description();
  }
  void observe(bool on) override;
  [[nodiscard]] std::optional<Mismatch> mismatch() const override;

  /// Under cosim of the fault's block only (std::logic_error otherwise).
  void inject_fault(const Fault& fault);
  /// Comparisons made so far under cosim.
  [[nodiscard]] std::uint64_t comparisons() const;

 private:
  class ModelProbe;

  void clocking();
  /// The second half of cycle c: takes the results, compares (cosim), calls cycle_done.
  void end_cycle(sw::Cycle c);
  void take_offers(sw::Cycle c);
  /// The verilated interfaces' offers of this cycle to the routers.
  void offer_rtl_interfaces();
  /// A header leaving router r in cycle c: its message, flits and place; nullopt (and the run
  /// stopped) when it belongs to no packet in flight.
  [[nodiscard]] std::optional<RtlInterfaces::Header> departing_header(std::uint32_t r, sw::Cycle c,
                                                                      const rtl::RouterFlit& f);
  /// Router r ejects flit f on channel `channel` in cycle c; false when the run stops.
  bool eject(std::uint32_t r, std::uint32_t channel, const rtl::RouterFlit& f, sw::Cycle c);
  /// Router r's departures, ejections and counters in cycle c.
  void end_cycle_of(std::uint32_t r, sw::Cycle c);
  /// Keeps the first violation of what the routers must hand back; false on a violation.
  bool check_flit(std::uint32_t r, sw::Cycle c, const char* signal, bool ok, std::uint64_t expected,
                  std::uint64_t got);
  /// The verilated router's input port of our input port q (network ports, then injection).
  [[nodiscard]] std::uint32_t rtl_input(std::uint32_t q) const;
  void new_checkers();
  /// Compares every router's header departures and tail ejections of cycle c with the model's
  /// (router=cosim), and every interface's contract outputs (ni=cosim).
  void compare(sw::Cycle c);
  /// The test fault on the model's value `value` of cycle c.
  void apply_fault(sw::Cycle c, std::uint32_t& value);

  const sw::NetworkConfig config_;
  FabricClient& client_;
  const sc_core::sc_time period_;
  const std::function<void(sw::Cycle)> cycle_done_;
  const std::uint32_t ports_;
  const std::uint32_t channels_per_node_;  ///< injection (and ejection) channels per node
  sc_core::sc_signal<bool> clk_{"clk", false};
  rtl::RouterNetworkRtl routers_;  ///< first of the members that read the network: it checks it
  const std::shared_ptr<const sw::RouterPorts> router_ports_;
  NetworkInterfaces ni_;
  std::unique_ptr<RtlInterfaces> rtl_ni_;  ///< ni=rtl|cosim: the verilated interfaces
  ChannelCounters channels_;
  FabricStats stats_;
  bool observed_ = false;

  std::vector<std::uint32_t> offering_;  ///< injectors with an offer in this cycle
  /// ni=rtl|cosim: the nodes with an offer in this cycle.
  std::vector<std::uint32_t> offering_nodes_;
  bool edge_ = false;  ///< this cycle has a clock edge
  sw::Cycle cycle_;    ///< the cycle in progress
  std::uint64_t flits_in_routers_ = 0;
  bool refused_ = false;  ///< an offer was refused in the last cycle
  sw::Cycle last_move_;
  std::optional<Mismatch> protocol_error_;
  std::vector<std::uint32_t> ejected_;  ///< [packet]: its flits ejected so far
  bool reset_pending_ = true;
  sc_core::sc_event ev_reset_;
  sc_core::sc_event ev_end_;

  // Co-simulation: the model network on the same messages, its moves caught by the probe.
  std::unique_ptr<ModelProbe> probe_;
  std::unique_ptr<Fabric> model_;
  std::vector<LockstepChecker> checkers_;     ///< per router, under router=cosim
  std::vector<LockstepChecker> ni_checkers_;  ///< per interface, under ni=cosim
  std::optional<Fault> fault_;
  std::optional<sw::Cycle> late_at_;  ///< the cycle a LateHeader fault took a departure away
  std::uint32_t late_heads_ = 0;
};

/// Multicomputer's factory of verilated routers; with `fst`, their signals go to that waveform.
[[nodiscard]] NetworkFactory verilated_routers(rtl::FstTrace* fst);

/// Test-only (docs/rtl.md): a deliberate error in the model's side of `system`'s router (or
/// interface) co-simulation. Throws sw::ConfigError unless its config.impl.router (ni) is cosim.
void inject_fault(Multicomputer& system, const RtlNetwork::Fault& fault);

}  // namespace orthosim::sc::net
