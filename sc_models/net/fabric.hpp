// The network of a multicomputer, cycle by cycle: wormhole (or store-and-forward) routers with
// input buffers per virtual channel, dimension-ordered routing, first-come arbitration, one flit
// per link per cycle, and the network interfaces' injection and ejection channels (DESIGN.md,
// multicomputer side; seed 003 section 6; seed 000 section 2.1).
//
// Plain C++: the Multicomputer module steps it once per cycle while anything is in flight and not
// at all when it is idle; a step visits only routers that hold flits (cost follows activity).
// Decisions of a cycle depend only on the state at the start of the cycle and on fixed priorities,
// never on the order in which routers are visited, so runs are deterministic.
//
// Timing (a flit pushed into a buffer in cycle c can leave it in cycle c+1 at the earliest):
//   - a message's interface spends the start-up t_s, then pushes one flit per cycle into its
//     router's injection buffer;
//   - a header leaves a router `delay` cycles after it was pushed into it (routing, virtual-channel
//     and switch allocation, switch and link); the flits behind it move one per cycle, and a flit
//     may enter a one-flit buffer in the very cycle its previous flit leaves it;
//   - a flit leaving the destination router reaches the interface one cycle later.
// So an uncontended message of F flits over h links arrives t_s + (h+1) delay + F cycles after it
// was sent (wormhole). Store-and-forward holds a header until its packet's last flit is in the
// buffer, then `delay` cycles more: t_s + F + (h+1)(delay + F - 1).
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "sw/arch/architecture.hpp"
#include "sw/routed/network_config.hpp"

namespace orthosim::sc::net {

/// What the fabric asks of its surroundings: the words it carries and where they go.
class FabricClient {
 public:
  virtual ~FabricClient() = default;
  /// Word `index` of message `message`, read at the sender when its flit is injected.
  virtual sw::Word read_word(std::uint32_t message, std::uint32_t index) = 0;
  /// Word `index` of message `message` has reached its destination's interface.
  virtual void deliver_word(std::uint32_t message, std::uint32_t index, sw::Word word) = 0;
  /// The last flit of message `message` has arrived; `at` is the cycle it is visible.
  virtual void message_delivered(std::uint32_t message, std::uint64_t at) = 0;
  /// Told only while the fabric is observed (Fabric::observe): in cycle `at` the header of a
  /// packet of `flits` flits entered its source router (`out` unused), or left `router` through
  /// network output virtual channel `out` (router-local), or its tail left the destination
  /// router (`out` unused).
  enum class PacketMove : std::uint8_t { Inject, Hop, Eject };
  virtual void packet_moved(PacketMove /*what*/, std::uint32_t /*message*/,
                            std::uint32_t /*router*/, std::uint32_t /*out*/,
                            std::uint32_t /*flits*/, std::uint64_t /*at*/) {}
  /// Told only while the fabric is observed: from cycle `at` on, virtual channel `vc` of the
  /// input buffer fed by network output port `port` of `router` holds `flits` flits.
  virtual void buffer_changed(std::uint32_t /*router*/, std::uint32_t /*port*/,
                              std::uint32_t /*vc*/, std::uint32_t /*flits*/,
                              std::uint64_t /*at*/) {}
};

/// Counters the fabric keeps (STYLE rule 8).
struct FabricStats {
  std::uint64_t flits_moved = 0;     ///< every flit move: injection, hop, ejection
  std::uint64_t flit_hops = 0;       ///< flits crossing a router-to-router link
  std::uint64_t flits_ejected = 0;
  std::uint64_t packets_delivered = 0;
  std::uint64_t header_wait_cycles = 0;  ///< cycles ready headers waited for a virtual channel
  std::uint64_t router_steps = 0;        ///< router visits: cost follows activity
};

class Fabric {
 public:
  Fabric(const sw::NetworkConfig& config, FabricClient& client);

  /// Queues message `message` of `words` words from `src` to `dst` (src != dst) at the source's
  /// interface in cycle `now`; it is split into packets of at most packet_flits flits.
  void submit(std::uint32_t message, std::uint32_t src, std::uint32_t dst, std::uint32_t words,
              std::uint64_t now);

  /// Empties the network (buffers, channels, interfaces) and clears the per-run counters
  /// (contention, peak occupancy), for the next program or traffic run. Stats keep counting.
  void reset();

  /// Advances the network by cycle `c` (cycles must be stepped in increasing order; cycles in
  /// which nothing can happen may be skipped, see next_cycle()).
  void step(std::uint64_t c);

  /// The next cycle after `c` that needs a step: c+1 while flits are in flight or an interface is
  /// injecting, the end of the earliest start-up otherwise, nothing when idle.
  [[nodiscard]] std::optional<std::uint64_t> next_cycle(std::uint64_t c) const;
  /// Whether flits sit in router buffers.
  [[nodiscard]] bool has_flits() const { return flits_in_routers_ > 0; }
  /// The last cycle in which a flit moved.
  [[nodiscard]] std::uint64_t last_move() const { return last_move_; }
  /// Packets waiting at the interfaces, not yet fully injected (source queues).
  [[nodiscard]] std::uint64_t queued_packets() const { return queued_packets_; }

  /// A deadlocked network's cycle of channels, each held by a message whose header waits for the
  /// next: "n3.x+.vc0 (message 7) -> n0.x+.vc0 (message 4) -> ... -> n3.x+.vc0". Also lists the
  /// blocked headers when no cycle is found (e.g. a full ejection channel).
  [[nodiscard]] std::string describe_deadlock() const;

  [[nodiscard]] const FabricStats& stats() const { return stats_; }
  /// Messages routed through each router-to-router channel (seed 003: paths contending for a
  /// channel); the largest of them is the network's maximum channel contention.
  [[nodiscard]] std::uint64_t max_channel_contention() const;
  /// The largest number of flits an input channel (all its virtual channels) held at once.
  [[nodiscard]] std::uint32_t peak_channel_occupancy() const;
  /// Per router-to-router channel, named "n3.x+": its peak occupancy and its contention.
  struct ChannelReport {
    std::string name;
    std::uint32_t peak_flits = 0;
    std::uint64_t messages = 0;
  };
  [[nodiscard]] std::vector<ChannelReport> channel_reports() const;

  [[nodiscard]] const sw::NetworkConfig& config() const { return config_; }

  /// Whether the client hears of every packet's moves (packet_moved); off by default, so an
  /// unobserved fabric does no work for it.
  void observe(bool on) { observed_ = on; }

 private:
  struct Flit {
    std::uint32_t packet = 0;
    std::uint32_t index = 0;  ///< 0 = header
    std::uint64_t pushed = 0; ///< the cycle it entered its current buffer
    sw::Word word = 0;
  };
  struct Packet {
    std::uint32_t message = 0;
    std::uint32_t src = 0;
    std::uint32_t dst = 0;
    std::uint32_t flits = 0;
    std::uint32_t first_word = 0;  ///< the message word flit 1 carries
    bool first_of_message = false;
    bool last_of_message = false;
    std::uint32_t injection = 0;   ///< injection channel at the source
  };
  struct Buffer {
    std::uint32_t head = 0;
    std::uint32_t count = 0;
    std::int32_t out = -1;  ///< output virtual channel (router-local) of the packet at the head
    std::uint32_t peak = 0;
  };
  struct Injector {
    std::deque<std::uint32_t> packets;
    bool started = false;      ///< the front packet's message has begun its start-up
    std::uint64_t startup_end = 0;
    std::uint32_t next_flit = 0;
  };
  /// A flit move decided for this cycle: from a buffer (or an injector) to a buffer (or out).
  struct Move {
    std::int64_t from = -1;      ///< buffer id, or -1 - injector id
    std::int64_t to = -1;        ///< buffer id, or -1 for ejection
    std::uint32_t router = 0;
    std::uint32_t out = 0;       ///< output virtual channel (router-local) for router moves
  };

  // ---- layout -----------------------------------------------------------------------------
  [[nodiscard]] std::uint32_t buffer_id(std::uint32_t router, std::uint32_t local) const {
    return router * buffers_per_router_ + local;
  }
  [[nodiscard]] std::uint32_t router_of_buffer(std::uint32_t b) const {
    return b / buffers_per_router_;
  }
  /// Input port of a buffer: network ports 0..P-1, injection ports P..P+J-1.
  [[nodiscard]] std::uint32_t input_port_of(std::uint32_t b) const;
  [[nodiscard]] std::uint32_t vc_of(std::uint32_t b) const;
  [[nodiscard]] bool is_ejection(std::uint32_t out_vc) const { return out_vc >= ports_ * vcs_; }
  [[nodiscard]] std::uint32_t out_port_of(std::uint32_t out_vc) const;
  /// The buffer an output virtual channel of `router` feeds, or -1 for an ejection channel.
  [[nodiscard]] std::int64_t target_of(std::uint32_t router, std::uint32_t out_vc) const;
  [[nodiscard]] Flit& flit_at(std::uint32_t b, std::uint32_t position);
  [[nodiscard]] const Flit& flit_at(std::uint32_t b, std::uint32_t position) const;
  [[nodiscard]] std::string channel_name(std::uint32_t router, std::uint32_t out_vc) const;

  // ---- the cycle --------------------------------------------------------------------------
  void allocate_virtual_channels(std::uint64_t c);
  void allocate_switches(std::uint64_t c);
  [[nodiscard]] bool may_leave(std::uint32_t b, std::uint64_t c);
  [[nodiscard]] bool has_room(std::int64_t target, std::uint64_t c);
  [[nodiscard]] bool feasible(std::size_t move);
  void commit(std::uint64_t c);
  void push(std::uint32_t b, const Flit& f, std::uint64_t c);
  void eject(const Flit& f, std::uint64_t c);
  /// Tells an observing client that network buffer `b` changed in cycle c.
  void report_buffer(std::uint32_t b, std::uint64_t c);
  [[nodiscard]] bool header_ready(std::uint32_t b, std::uint64_t c) const;
  void activate(std::uint32_t router);

  const sw::NetworkConfig config_;
  FabricClient& client_;
  const sw::Topology& topology_;
  const std::uint32_t routers_;
  const std::uint32_t ports_;       ///< P network ports per router
  const std::uint32_t vcs_;         ///< V virtual channels per network port
  const std::uint32_t injection_;   ///< J injection ports
  const std::uint32_t ejection_;    ///< E ejection ports
  const std::uint32_t depth_;       ///< B flits per buffer
  const std::uint32_t buffers_per_router_;
  const std::uint32_t out_vcs_per_router_;
  std::vector<sw::Port> port_list_;
  std::vector<std::int64_t> neighbor_;  ///< [router * P + port]: the next router or -1
  std::vector<std::int64_t> source_;    ///< [router * P + port]: the router whose port feeds it

  std::vector<Buffer> buffers_;
  std::vector<Flit> flits_;
  std::vector<std::int64_t> owner_;     ///< [router * out_vcs + out_vc]: holding buffer or -1
  std::vector<std::uint64_t> contention_;  ///< [router * P + port]: messages routed through
  std::vector<std::uint32_t> channel_peak_;  ///< [router * (P + J) + input port]
  std::vector<Packet> packets_;
  std::vector<std::uint32_t> free_packets_;
  std::vector<Injector> injectors_;     ///< [router * J + j]
  std::vector<std::uint32_t> injecting_list_;  ///< injectors that may hold packets
  std::vector<std::uint8_t> in_injecting_list_;
  /// Messages of several packets: packets still to arrive (they may overtake each other on
  /// different virtual channels).
  std::unordered_map<std::uint32_t, std::uint32_t> packets_left_;

  std::vector<std::uint32_t> flits_per_router_;
  std::vector<std::uint32_t> active_;   ///< routers with flits, in no particular order
  std::vector<std::uint8_t> is_active_;
  std::uint64_t flits_in_routers_ = 0;
  std::uint64_t injecting_ = 0;         ///< injectors with packets
  std::uint64_t queued_packets_ = 0;
  std::uint64_t last_move_ = 0;

  // Per-cycle scratch, stamped with the cycle so nothing needs clearing.
  std::vector<Move> moves_;
  std::vector<std::int64_t> mover_of_;     ///< [buffer]: index in moves_ of its departure
  std::vector<std::uint64_t> mover_stamp_;
  std::vector<std::uint8_t> room_state_;   ///< 0 unknown, 1 in progress, 2 yes, 3 no
  std::vector<std::uint64_t> room_stamp_;
  std::vector<std::uint8_t> feasible_state_;
  std::uint64_t current_stamp_ = 0;
  std::vector<std::uint64_t> port_used_stamp_;  ///< [router * (P+E) + output port]
  std::vector<std::uint64_t> input_used_stamp_; ///< [router * (P+J) + input port]

  FabricStats stats_;
  bool observed_ = false;
};

}  // namespace orthosim::sc::net
