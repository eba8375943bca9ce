// What a multicomputer's network offers its nodes, whatever implements its routers: the SystemC
// model (Fabric) or the verilated routers (RtlNetwork, --impl router=rtl|cosim). Both have the
// same network interfaces (NetworkInterfaces), the same timing and the same counters
// (docs/architecture.md, contract "Model = RTL").
//
// begin_cycle(c) starts cycle c from the state at its start. The model does the whole cycle there;
// a network whose cycle ends on a clock edge later in the same cycle (settles(): the verilated
// routers) finishes it there and then calls its owner back (RtlNetwork's cycle_done).
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "sc_models/kernel/lockstep_checker.hpp"
#include "sw/core/cycle.hpp"
#include "sw/core/word.hpp"
#include "sw/routed/network_config.hpp"
#include "sw/routed/router_ports.hpp"
#include "sw/run/run_summary.hpp"

namespace orthosim::sc::net {

/// What a network asks of its surroundings: the words it carries and where they go.
class FabricClient {
 public:
  virtual ~FabricClient() = default;
  /// Word `index` of message `message`, read at the sender when its flit is injected.
  virtual sw::Word read_word(std::uint32_t message, std::uint32_t index) = 0;
  /// Word `index` of message `message` has reached its destination's interface.
  virtual void deliver_word(std::uint32_t message, std::uint32_t index, sw::Word word) = 0;
  /// The last flit of message `message` has arrived; `at` is the cycle it is visible.
  virtual void message_delivered(std::uint32_t message, sw::Cycle at) = 0;
  /// Told only while the network is observed (Network::observe): in cycle `at` the header of a
  /// packet of `flits` flits entered its source router (`out` unused), or left `router` through
  /// network output virtual channel `out` (router-local), or its tail left the destination
  /// router (`out` unused).
  enum class PacketMove : std::uint8_t { Inject, Hop, Eject };
  virtual void packet_moved(PacketMove /*what*/, std::uint32_t /*message*/,
                            std::uint32_t /*router*/, std::uint32_t /*out*/,
                            std::uint32_t /*flits*/, sw::Cycle /*at*/) {}
  /// Told only while the network is observed: in cycle `at` the router took a flit from
  /// injection channel `channel` of node `node`'s interface; `message_start` when it was the
  /// header of a message's first packet (the message's injection began, after its start-up).
  /// The co-simulation of the verilated interfaces compares these (sc_models/cosim).
  virtual void flit_injected(std::uint32_t /*node*/, std::uint32_t /*channel*/,
                             bool /*message_start*/, sw::Cycle /*at*/) {}
  /// Told only while the network is observed: from cycle `at` on, virtual channel `vc` of the
  /// input buffer fed by network output port `port` of `router` holds `flits` flits.
  virtual void buffer_changed(std::uint32_t /*router*/, std::uint32_t /*port*/,
                              std::uint32_t /*vc*/, std::uint32_t /*flits*/, sw::Cycle /*at*/) {}
};

/// Counters a network keeps (modeling rule 8).
struct FabricStats {
  std::uint64_t flits_moved = 0;  ///< every flit move: injection, hop, ejection
  std::uint64_t flit_hops = 0;    ///< flits crossing a router-to-router link
  std::uint64_t flits_ejected = 0;
  std::uint64_t packets_delivered = 0;
  std::uint64_t header_wait_cycles = 0;  ///< cycles ready headers waited for a virtual channel
  std::uint64_t router_steps = 0;        ///< router visits: cost follows activity
};

/// Per router-to-router channel: messages routed through it ([LCC]: paths contending for a
/// channel) and the most flits its input buffers held at once; kept the same way by every network.
class ChannelCounters {
 public:
  /// The routers' ports as `ports` numbers them: the network ports, then the injection channels.
  explicit ChannelCounters(std::shared_ptr<const sw::RouterPorts> ports);
  /// Clears the counts and the steps of group_by_step.
  void reset();
  /// Counts the contention of each step apart too: message m belongs to step step_of[m] (a
  /// program's steps; the messages of a synthetic traffic run have none).
  void group_by_step(std::vector<std::uint32_t> step_of);
  /// Message `message`'s first header left `router` by network port `port`.
  void routed(std::uint32_t router, std::uint32_t port, std::uint32_t message) {
    const std::uint64_t channel = ports_->description().port_offset(router) + port;
    ++contention_[channel];
    if (message < step_of_.size()) {
      const std::uint32_t step = step_of_[message];
      const std::uint64_t count = ++step_contention_[step * contention_.size() + channel];
      step_max_[step] = std::max(step_max_[step], count);
    }
  }
  /// Input port `input` of `router` holds `flits` flits (all its virtual channels).
  void held(std::uint32_t router, std::uint32_t input, std::uint32_t flits) {
    held_at(ports_->input_offset(router) + input, flits);
  }
  /// held() by the input's flat number, RouterPorts::input_offset(router) + input.
  void held_at(std::uint32_t input_slot, std::uint32_t flits) {
    std::uint32_t& peak = peak_[input_slot];
    peak = peak > flits ? peak : flits;
  }
  [[nodiscard]] std::uint64_t max_contention() const;
  /// Per step of group_by_step: the most of its messages routed through one channel.
  [[nodiscard]] const std::vector<std::uint64_t>& max_contention_per_step() const {
    return step_max_;
  }
  [[nodiscard]] std::uint32_t peak_occupancy() const;
  /// Per router-to-router channel, named "n3.x+": its peak occupancy and its contention.
  [[nodiscard]] std::vector<sw::ChannelSummary> reports() const;

 private:
  const std::shared_ptr<const sw::RouterPorts> ports_;
  std::vector<std::uint64_t> contention_;  ///< [TopologyDescription::port_offset + port]
  std::vector<std::uint32_t> peak_;        ///< [RouterPorts::input_offset + input port]
  std::vector<std::uint32_t> step_of_;     ///< per message
  /// [step * channels + channel], only the pairs some message used.
  std::unordered_map<std::uint64_t, std::uint64_t> step_contention_;
  std::vector<std::uint64_t> step_max_;  ///< per step
};

class Network {
 public:
  virtual ~Network() = default;

  /// Throws sw::ConfigError naming `what` ("message 7") when this network cannot carry a message
  /// of `words` words (the verilated interfaces count at most 4095): checked before a run starts.
  virtual void check_message(const std::string& /*what*/, std::uint64_t /*words*/) const {}
  /// Queues message `message` of `words` words from `src` to `dst` (src != dst) at the source's
  /// interface; it is split into packets of at most packet_flits flits.
  virtual void submit(std::uint32_t message, std::uint32_t src, std::uint32_t dst,
                      std::uint32_t words) = 0;
  /// Empties the network (buffers, channels, interfaces) and clears the per-run counters
  /// (contention, peak occupancy), for the next program or traffic run. Stats keep counting.
  virtual void reset() = 0;

  /// Starts (the model: does) cycle c (cycles in increasing order; cycles in which nothing can
  /// happen may be skipped, see next_cycle()).
  virtual void begin_cycle(sw::Cycle c) = 0;
  /// Whether cycle c ends later, when the network calls its owner back.
  [[nodiscard]] virtual bool settles() const { return false; }

  /// The next cycle after `c` that needs a step: c+1 while flits are in flight or an interface is
  /// injecting, the end of the earliest start-up otherwise, nothing when idle.
  [[nodiscard]] virtual std::optional<sw::Cycle> next_cycle(sw::Cycle c) const = 0;
  /// Whether flits sit in router buffers (the owner's watchdog stops a run in which they sit
  /// still for too long).
  [[nodiscard]] virtual bool has_flits() const = 0;
  /// The last cycle in which a flit moved.
  [[nodiscard]] virtual sw::Cycle last_move() const = 0;
  /// Packets waiting at the interfaces, not yet fully injected (source queues).
  [[nodiscard]] virtual std::uint64_t queued_packets() const = 0;
  /// What keeps a network that no longer moves from draining (the watchdog's report).
  [[nodiscard]] virtual std::string describe_deadlock() const = 0;

  [[nodiscard]] virtual const FabricStats& stats() const = 0;
  [[nodiscard]] virtual const ChannelCounters& channels() const = 0;
  [[nodiscard]] virtual ChannelCounters& channels() = 0;
  /// The routers and nodes this network runs (sw/topology/topology_description.hpp).
  [[nodiscard]] virtual const sw::TopologyDescription& description() const = 0;
  /// Whether the client hears of every packet's moves; off by default.
  virtual void observe(bool on) = 0;
  /// The client does not depend on the order of the deliveries within a cycle (a synthetic
  /// traffic run counts and sums them), and every packet it sends has `packet_flits` flits (0:
  /// packets of any size): a network may then step by a faster path whose deliveries of one
  /// cycle come in another order. Off by default; set while no flit is in flight.
  virtual void deliveries_in_any_order(bool /*on*/, std::uint32_t /*packet_flits*/) {}
  /// --impl router=rtl|cosim: the first output where the model and the RTL differed, or where
  /// the RTL broke what a network must do. The owner stops the run there.
  [[nodiscard]] virtual std::optional<Mismatch> mismatch() const { return std::nullopt; }
};

}  // namespace orthosim::sc::net
