// The network interfaces of a multicomputer built of verilated network_interface.sv models, one
// C++ model per node, stepped by this class beside the routers (RouterNetworkRtl) with plain
// setters and getters, so that nothing outside rtl/bridge includes Verilated headers (toolchain
// fact 4). One verilation serves every network within its maxima (check()).
//
// Stepping (docs/rtl.md, "Stepping a verilated unit"; "Interfaces in the networks"): the node
// hands a message to its interface at the edge that starts the cycle in which the model submits
// it, so the interfaces' edge that ends cycle c is taken at the start of the next stepped cycle,
// after the node's submissions of that cycle are known (edge()). Within cycle c: edge(), drive()
// (evaluates the interfaces with queued messages and answers their memory reads), read the offers
// (inj_valid / inj_flit) for the routers, then set_inj_ready() and the routers' ejections
// (eject()), and settle_ejections(): the deliveries of cycle c are readable until the next edge.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "rtl/bridge/router_network_rtl.hpp"
#include "rtl/limits.hpp"
#include "sw/core/word.hpp"
#include "sw/routed/network_config.hpp"

namespace orthosim::rtl {

class FstTrace;

class NetworkInterfacesRtl {
 public:
  static constexpr std::uint32_t kChannels = limits::kRouterPorts;  ///< PMAX
  static constexpr std::uint32_t kQueue = limits::kNiQueue;         ///< QD
  static constexpr std::uint32_t kReassembly = limits::kNiReassembly;
  static constexpr std::uint32_t kTags = 256;          ///< TGW = 8
  static constexpr std::uint32_t kMaxWords = 4095;     ///< MWW = 12
  static constexpr std::uint32_t kIndexBits = 12;      ///< MWW
  static constexpr std::uint32_t kMaxStartup = 65535;  ///< SUW = 16
  static constexpr std::uint32_t kMaxPacketFlits = 255;
  /// Messages a node's queues hold at once: its memory is addressed by slot and word index.
  static constexpr std::uint32_t kSlots = kChannels * kQueue;

  /// Throws sw::ConfigError naming the option when `config` does not fit the verilated
  /// interface: a start-up above 65535 cycles (--startup), packets above 255 flits
  /// (--packet-flits). The router's limits (RouterNetworkRtl::check) hold for the channels.
  static void check(const sw::NetworkConfig& config);

  /// One payload word or completion an interface hands over in this cycle.
  struct Delivery {
    std::uint32_t tag = 0;
    bool word = false;  ///< a payload word: index and value
    std::uint32_t index = 0;
    sw::Word value = 0;
    bool done = false;  ///< this flit completes its message
  };

  /// The node memory's word at an address of a node: (node, address).
  using Memory = std::function<sw::Word(std::uint32_t node, std::uint32_t address)>;

  /// Calls check(); one interface per name, named `names[n]` (its waveform scope: `.rtl` below).
  NetworkInterfacesRtl(std::vector<std::string> names, const sw::NetworkConfig& config);
  ~NetworkInterfacesRtl();
  NetworkInterfacesRtl(const NetworkInterfacesRtl&) = delete;
  NetworkInterfacesRtl& operator=(const NetworkInterfacesRtl&) = delete;

  [[nodiscard]] std::uint32_t nodes() const;
  [[nodiscard]] const std::string& name(std::uint32_t n) const { return names_.at(n); }

  /// A reset edge on every interface: queues and reassembly tables emptied.
  void reset();
  /// Whether channel j of node n takes a submission at the next edge (its queue has room).
  [[nodiscard]] bool sub_ready(std::uint32_t n, std::uint32_t j) const;
  /// Submits on channel j of node n at the next edge: `dst` is the header's destination field
  /// (RouterNetworkRtl::header_data), `address` the node memory's address of its first word.
  void submit(std::uint32_t n, std::uint32_t j, std::uint64_t dst, std::uint32_t tag,
              std::uint32_t words, std::uint32_t address);
  /// The clock edge that ends the last stepped cycle: every interface with queued messages,
  /// submissions or ejections is clocked; the others keep their state. The inputs it took
  /// (submissions, inj_ready, ejections) are withdrawn.
  void edge();
  /// Evaluates every interface with queued messages and answers their reads from `memory`: the
  /// offers below are this cycle's.
  void drive(const Memory& memory);
  /// Injection channels of node n offering a flit (bit j).
  [[nodiscard]] std::uint32_t inj_valid(std::uint32_t n) const;
  [[nodiscard]] RouterFlit inj_flit(std::uint32_t n, std::uint32_t j) const;
  /// The router's inj_ready of node n's channels in this cycle (bit j).
  void set_inj_ready(std::uint32_t n, std::uint32_t ready);
  /// The router of node n ejects `flit` on channel `e` in this cycle.
  void eject(std::uint32_t n, std::uint32_t e, const RouterFlit& flit);
  /// Evaluates the interfaces given ejections: their deliveries are this cycle's.
  void settle_ejections();
  /// Node n's deliveries in this cycle, by ejection channel.
  [[nodiscard]] std::vector<Delivery> deliveries(std::uint32_t n) const;
  /// Messages queued on channel j of node n.
  [[nodiscard]] std::uint32_t queued(std::uint32_t n, std::uint32_t j) const;
  /// Sticky: a message of node n found no reassembly entry (more than kReassembly at once).
  [[nodiscard]] bool reassembly_overflow(std::uint32_t n) const;

  /// Puts every interface's signals into the FST waveform (--fst), during elaboration.
  void trace_to(FstTrace& fst);

 private:
  struct Node;
  /// Clocks node n: an evaluation with clk low first if it had none since its last edge.
  void clock(Node& node);

  sw::NetworkConfig config_;
  std::vector<std::string> names_;
  std::vector<std::unique_ptr<Node>> nodes_;
  std::vector<std::uint32_t> ejecting_;  ///< nodes given ejections in this cycle
};

}  // namespace orthosim::rtl
