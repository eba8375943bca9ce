// The network of a multicomputer, cycle by cycle: wormhole (or store-and-forward) routers with
// input buffers per virtual channel, wired after the general description (routers apart from
// nodes, each with its own ports: sw/topology/topology_description.hpp, numbered by
// sw::RouterPorts), a routing function and a virtual-channel policy (sw/topology/routing.hpp),
// first-come arbitration, one flit per link per cycle, and the network interfaces' injection and ejection channels (docs/architecture.md,
// multicomputer side; [LCC] section 6; [CALMANT] section 2.1).
//
// Plain C++: the Multicomputer module steps it (begin_cycle) once per cycle while anything is in flight and not
// at all when it is idle; a step visits only routers that hold flits (cost follows activity).
// Decisions of a cycle depend only on the state at the start of the cycle and on fixed priorities,
// never on the order in which routers are visited, so runs are deterministic.
// With one virtual channel, one-flit buffers and wormhole switching a worm's flits move together
// or not at all; unobserved, such a network is stepped worm by worm (move_worms), with the same
// moves and events in the same order, at a cost per worm rather than per flit; with several
// virtual channels, one-flit buffers and wormhole switching, by runs of a worm's consecutive
// flits, flit by flit only at routers where two of them contend (move_vc_worms). Other unobserved
// networks take switch allocation and commit in one pass (move_flits_one_vc, move_flits), with
// the same moves, calls and counters, and with one virtual channel, deeper buffers and a router
// delay of one cycle by worms again, whose flits fill runs of buffers (move_deep_worms); observed
// runs take the two passes, buffer by buffer.
//
// Timing (a flit pushed into a buffer in cycle c can leave it in cycle c+1 at the earliest):
//   - a message's interface spends the start-up t_s, then pushes one flit per cycle into its
//     router's injection buffer;
//   - a header leaves a router `delay` cycles after it was pushed into it (routing, virtual-channel
//     and switch allocation, switch and link); the flits behind it move one per cycle, and a flit
//     may enter a one-flit buffer in the very cycle its previous flit leaves it;
//   - a flit leaving the destination router reaches the interface one cycle later.
// Switch allocation serves the moves into a free buffer slot before the speculative moves into a
// full buffer whose head may leave in the same cycle (allocate_switches says why: otherwise
// failed speculative grants can freeze a torus that the dateline keeps free of cyclic channel
// dependencies).
// So an uncontended message of F flits over h links arrives t_s + (h+1) delay + F cycles after it
// was sent (wormhole). Store-and-forward holds a header until its packet's last flit is in the
// buffer, then `delay` cycles more: t_s + F + (h+1)(delay + F - 1).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "sc_models/net/network.hpp"
#include "sc_models/net/network_interfaces.hpp"
#include "sw/routed/router_ports.hpp"
#include "sw/topology/route_table.hpp"

namespace orthosim::sc::net {

class Fabric final : public Network {
 public:
  Fabric(const sw::Validated<sw::NetworkConfig>& config, FabricClient& client);

  void submit(std::uint32_t message, std::uint32_t src, std::uint32_t dst,
              std::uint32_t words) override;
  void reset() override;
  /// Advances the network by the whole of cycle `c`.
  void begin_cycle(sw::Cycle c) override;
  [[nodiscard]] std::optional<sw::Cycle> next_cycle(sw::Cycle c) const override;
  [[nodiscard]] bool has_flits() const override { return flits_in_routers_ > 0; }
  [[nodiscard]] sw::Cycle last_move() const override { return last_move_; }
  [[nodiscard]] std::uint64_t queued_packets() const override { return ni_.queued_packets(); }
  /// A deadlocked network's cycle of channels, each held by a message whose header waits for the
  /// next: "n3.x+.vc0 (message 7) -> n0.x+.vc0 (message 4) -> ... -> n3.x+.vc0". Also lists the
  /// blocked headers when no cycle is found (e.g. a full ejection channel).
  [[nodiscard]] std::string describe_deadlock() const override;
  [[nodiscard]] const FabricStats& stats() const override { return stats_; }
  [[nodiscard]] const ChannelCounters& channels() const override {
    // The schedule tells a buffer's peak when the departures before it are known: those of
    // the flits that arrived and wait are told now. The fabric itself is never const.
    const_cast<Fabric*>(this)->tell_waiting_peaks();
    return channels_;
  }
  [[nodiscard]] ChannelCounters& channels() override {
    tell_waiting_peaks();
    return channels_;
  }
  [[nodiscard]] const sw::TopologyDescription& description() const override { return description_; }
  /// An unobserved fabric does no work for its client's observers.
  void observe(bool on) override {
    if (on && schedule_on_ && flits_in_routers_ > 0) {
      throw std::logic_error(
          "fabric: an observer attached to a network stepped by its schedule with flits in flight");
    }
    observed_ = on;
    ni_.observe(on);
  }
  /// With one virtual channel, wormhole switching, a deterministic routing on a mesh or a
  /// hypercube and packets as long as the buffers are deep, unobserved, such a client's network
  /// is stepped by the schedule of its worms in runs (fabric_schedule.cpp): every move, counter
  /// and delivery of the flit paths in the same cycle, the deliveries of one cycle in another
  /// order.
  void deliveries_in_any_order(bool on, std::uint32_t packet_flits) override;
  /// Whether the schedule of the worms steps the network now (tests).
  [[nodiscard]] bool scheduled() const { return schedule_on_; }
  /// Tests: switch allocation and commit take the general path (port checks, sort by arrival,
  /// feasibility chains, two passes, buffer by buffer) even with one virtual channel and
  /// unobserved, where the one-VC shortcut, the one-pass moves and the whole worms give the same
  /// moves in the same order; a second implementation to compare them with. Call it before the
  /// first cycle.
  void use_general_path() {
    single_vc_ = false;
    worm_capable_ = false;
    deep_worm_capable_ = false;
    vc_worm_capable_ = false;
    one_pass_ = false;
  }

  /// Tests: worms in deep buffers (move_deep_worms) whatever the router delay, where they are
  /// taken with a delay of one cycle only (see deep_worm_capable_); the general path is the
  /// second implementation to compare them with. Call it before the first cycle.
  void move_deep_worms_at_any_delay() { deep_worm_capable_ = deep_worms_possible(); }
  /// Whether a header's output port comes from a table per (router, destination) (a
  /// deterministic routing on a network within sw::RouteTable's bound) rather than from a call
  /// to the routing function per header.
  [[nodiscard]] bool routes_from_table() const { return route_table_.has_value(); }
  /// Tests: every header's route from the routing function, as above the table's bound; a second
  /// implementation to compare the table with. Call it before the first cycle.
  void compute_routes_per_header() { route_table_.reset(); }

 private:
  struct Flit {
    std::uint32_t packet = 0;
    std::uint32_t index = 0;  ///< 0 = header
    sw::Cycle pushed;         ///< the cycle it entered its current buffer
    sw::Word word = 0;
    bool tail = false;  ///< the packet's last flit (its departure frees the output channel)
  };
  /// A flit move decided for this cycle: from a buffer (or an injector) to a buffer (or out).
  struct Move {
    std::int32_t from = -1;  ///< buffer id, or -1 - injector id (NetworkInterfaces)
    std::int32_t to = -1;    ///< buffer id, or -1 for ejection
    std::uint32_t router = 0;
    std::uint32_t channel = 0;  ///< the output virtual channel (global index) of router moves
  };
  /// Where the header at the head of buffer `b` may go: an output port (network ports 0..P-1,
  /// ejection channels P..P+E-1) and the output virtual channels [lo, hi) it may request there.
  struct Route {
    std::uint32_t port = 0;
    std::uint32_t lo = 0;
    std::uint32_t hi = 0;
  };
  /// A ready header asking for an output virtual channel.
  struct Request {
    std::uint32_t router = 0;
    sw::Cycle arrived;
    std::uint32_t buffer = 0;
  };

  // ---- layout: per-router port tables, precomputed so that a flit move is table lookups ----
  [[nodiscard]] std::uint32_t router_of_buffer(std::uint32_t b) const { return state_[b].router; }
  /// Input port of a buffer: network ports 0..P-1, injection channels P..P+J-1 (RouterPorts).
  [[nodiscard]] std::uint32_t input_port_of(std::uint32_t b) const { return buffer_input_[b]; }
  [[nodiscard]] std::uint32_t vc_of(std::uint32_t b) const { return buffer_vc_[b]; }
  /// Output virtual channels of `router`: V per network port, then one per ejection channel.
  [[nodiscard]] bool is_ejection(std::uint32_t router, std::uint32_t out_vc) const {
    return out_vc >= description_.ports(router) * vcs_;
  }
  [[nodiscard]] std::uint32_t out_port_of(std::uint32_t router, std::uint32_t out_vc) const;
  /// The slot of the flit `position` places behind the head of buffer `b` (position < depth_).
  [[nodiscard]] std::size_t slot(std::uint32_t b, std::uint32_t position) const {
    const std::uint32_t at = state_[b].head + position;
    return std::size_t{b} * depth_ + (at < depth_ ? at : at - depth_);
  }
  [[nodiscard]] const Flit& flit_at(std::uint32_t b, std::uint32_t position) const {
    return flits_[slot(b, position)];
  }
  [[nodiscard]] std::string channel_name(std::uint32_t router, std::uint32_t out_vc) const;
  /// Appends the header's routes to `out`, best first: one per candidate of the routing function
  /// (one for a deterministic routing, or the ejection channel), with the virtual channels the
  /// policy allows.
  void append_routes(std::uint32_t b, std::vector<Route>& out) const;
  /// The one route of the header at the head of buffer `b` (what append_routes gives under a
  /// deterministic routing), its output port looked up in route_table_.
  [[nodiscard]] Route tabled_route(std::uint32_t b);
  /// The route of a header for node `dst`, attached to `router`, that arrived by input port `in`.
  [[nodiscard]] Route ejection_route(std::uint32_t router, std::uint32_t dst,
                                     std::uint32_t in) const;
  /// The route by network output port `q` of the header at the head of buffer `b` of `router`:
  /// the virtual channels the policy allows there.
  [[nodiscard]] Route network_route(std::uint32_t b, std::uint32_t router, std::uint32_t q) const;

  /// One virtual channel, buffers deeper than one flit, wormhole, at most 64 ports a router:
  /// move_deep_worms gives the moves of move_flits_one_vc.
  [[nodiscard]] bool deep_worms_possible() const {
    return vcs_ == 1 && depth_ > 1 && wormhole_ && few_ports_;
  }

  // ---- the cycle --------------------------------------------------------------------------
  void allocate_virtual_channels(sw::Cycle c);
  /// Puts buffer `b`, whose head is a header without an output virtual channel, on the list of
  /// waiting headers (once).
  void add_waiting(std::uint32_t b) {
    if (!is_waiting_[b]) {
      is_waiting_[b] = 1;
      waiting_.push_back(b);
    }
  }
  /// Puts buffer `b`, into which a wormhole header without an output virtual channel was just
  /// pushed, on the list of waiting headers in cycle `ready` (its push + the router delay): it
  /// asks nothing before, so the cycles before do not visit it.
  void add_pending(std::uint32_t b, sw::Cycle ready) {
    is_waiting_[b] = 1;
    // Stored field by field: a temporary's two stores read back as one 16-byte copy would stall
    // the store forwarding of every header's arrival.
    Pending& p = pending_.emplace_back();
    p.ready = ready;
    p.buffer = b;
  }
  /// Moves the pending headers whose cycle has come to the list of waiting headers.
  void admit_pending(sw::Cycle c);
  /// The list of waiting headers from the buffers' state (after the worms described the flits).
  void rebuild_waiting();
  /// Puts the requests in order (router, arrival, buffer: each router's first come first) and
  /// gives each the first free output virtual channel of its routes; counts the headers that
  /// still wait.
  void serve_headers(Request* requests, std::size_t count);
  void allocate_virtual_channels_of_worms(sw::Cycle c);
  /// Ready header `head` at the head of buffer `b` asks for an output channel: appends its
  /// request, or counts a wait in `held` when known_routes_held(b).
  void request_channel(std::uint32_t b, const Flit& head, Request* requests, std::size_t& count,
                       std::uint64_t& held) const;
  /// Whether the routes of the header at the head of buffer `b` are known (asked in an earlier
  /// cycle) and all their output virtual channels held: its request could not win.
  [[nodiscard]] bool known_routes_held(std::uint32_t b) const;
  /// The routes of the header at the head of buffer `b`, computed once per header and buffer
  /// (they depend only on the router, the input port and virtual channel, and the destination).
  [[nodiscard]] const Route* routes_of(std::uint32_t b, std::uint32_t& count);
  /// Gives the header at the head of `buffer` the first free output virtual channel of `route`;
  /// false when all of them are held.
  bool grant(std::uint32_t router, std::uint32_t buffer, const Route& route);
  void allocate_switches(sw::Cycle c);
  /// What the head of a routed, occupied buffer asks of the switch in a cycle: nothing (the
  /// buffer ahead is full and its head stays), a sure move (the buffer ahead has a free slot, or
  /// the head ejects), or a speculative one (the buffer ahead is full and its head may leave).
  enum class SwitchRequest : std::uint8_t { kNone, kSure, kSpeculative };
  [[nodiscard]] SwitchRequest switch_request(std::uint32_t b, sw::Cycle c);
  /// The switch candidates of router `r` in switch_candidates_, in allocate_switches' order;
  /// returns their count.
  std::size_t collect_switch_candidates(std::uint32_t r, sw::Cycle c);
  /// allocate_switches with one virtual channel per port (single_vc_) and at most 64 output
  /// ports per router: the same moves in the same order, without the sort (see there).
  void allocate_switches_one_vc(sw::Cycle c);
  /// Switch allocation and commit in one pass, with one virtual channel per port and at most 64
  /// output ports per router, unobserved: the same moves, calls and counters as
  /// allocate_switches_one_vc and commit (see there).
  void move_flits_one_vc(sw::Cycle c);
  /// allocate_switches and commit in one pass, with several virtual channels, unobserved: the
  /// same moves, calls and counters (see there).
  void move_flits(sw::Cycle c);
  /// The flits buffer `b` held at the start of cycle `stamp` - 1 (move_flits' departures).
  [[nodiscard]] std::uint32_t count_at_start(std::uint32_t b, std::uint64_t stamp) const {
    return state_[b].count + (state_[b].departed == stamp ? 1U : 0U);
  }
  /// Pushes flit `f` into the tail of buffer `b` in cycle c (the commit's arrival); with
  /// kOneVcUnobserved (move_flits_one_vc) without the observers' and the virtual channels' work.
  template <bool kOneVcUnobserved = false>
  void push(std::uint32_t b, const Flit& f, sw::Cycle c);
  /// Takes the flit interface `i` offers in cycle c (an injection).
  Flit take_injected(std::uint32_t i, sw::Cycle c);
  /// The first `arrived` of arrivals_, of commit: ejections and pushes in order (the routers
  /// left without flits stay in active_).
  void deliver_arrivals(std::size_t arrived, std::uint64_t in_routers, sw::Cycle c);
  /// The arrivals of move_flits_one_vc and move_deep_worms: arrivals_ [0, router_moves) the
  /// routers' moves whose order is not seen, [router_moves, arrived) the injections, and those
  /// of ordered_arrivals_ (at the top of arrivals_) in their order; `direct` moves more were
  /// done in place (move_deep_worms).
  void deliver_one_vc_arrivals(std::size_t router_moves, std::size_t arrived, std::uint64_t direct,
                               std::uint64_t in_routers, sw::Cycle c);
  /// Puts ordered_arrivals_ in the order of their moves.
  void sort_ordered_arrivals();
  /// Buffer `b` took an ejection channel while the worms run: it joins ejecting_ at its place.
  void list_ejecting(std::uint32_t b);
  /// The ejections of the cycle while the worms run (the listed buffers that ejected, ejected_),
  /// in the order of their moves; the buffers whose tail left leave the list. Returns their count.
  std::uint64_t eject_listed(sw::Cycle c);
  /// Flit `index` of `packet`, carrying `word`, leaves the network at its interface in cycle c.
  void eject_flit(std::uint32_t packet, std::uint32_t index, sw::Word word, sw::Cycle c) {
    ++stats_.flits_ejected;
    if (ni_.eject({packet, index, word}, c)) {
      ++stats_.packets_delivered;
    }
  }
  /// `moved` flits moved in cycle c (into buffers, out, or into the network): the counters the
  /// watchdog and the statistics read.
  void count_moves(std::uint64_t moved, sw::Cycle c) {
    if (moved > 0) {
      last_move_ = c;
      stats_.flits_moved += moved;
    }
  }
  /// Takes the routers that hold no flits out of active_.
  void retire_idle_routers();
  /// move_flits leaves the routers its cycle emptied in active_ and drops them in its next pass,
  /// where it reads each router's flits anyway (they hold none: nothing acts on them, and no push
  /// comes between). Any other path, and the statistics' router steps, see them retired.
  bool idle_routers_in_active_ = false;
  /// retire_idle_routers for the routers of emptied_ while the worms run: each leaves active_ by a
  /// swap with the last (the activation numbers keep the order, begin_cycle restores it).
  void retire_emptied_routers();
  /// Appends the interfaces' moves into their injection buffers to the routers' moves.
  void add_injections(sw::Cycle c);
  /// The interfaces' flits into their injection buffers, in the interfaces' order, after the
  /// routers' moves of the one-pass and worm paths: each offer whose buffer `admits(buffer)` is
  /// taken and appended to `arrivals`, then `then(arrival)` (a worm's bookkeeping).
  struct Arrival;
  template <class Admits, class Then>
  void inject_arrivals(Arrival* arrivals, std::size_t& arrived, sw::Cycle c, Admits admits,
                       Then then);
  /// Switch allocation and commit by whole worms (one virtual channel, one-flit buffers,
  /// wormhole, unobserved): the same moves, events and counters (see there).
  void move_worms(sw::Cycle c);
  /// Whether the worm of packet `p` moves in the cycle of `stamp` ((cycle + 1) << 2): its front
  /// is routed and the buffer ahead is empty, or holds the tail of a worm that moves.
  [[nodiscard]] bool worm_moves(std::uint32_t p, std::uint64_t stamp);
  /// One worm's part in a chain's decision: decided (it moves or not), or the worm `ahead`
  /// decides it.
  struct ChainLink {
    bool decided = false;
    bool yes = false;
    std::uint32_t ahead = 0;
  };
  /// The walk down a chain of worms each waiting on the one ahead (worm_moves,
  /// vc_worm_may_move), once per cycle of `stamp`: `link(worm)` decides a worm or names the worm
  /// ahead, whose answer is its own. Each worm of the chain keeps the answer in its member Memo
  /// (as BufferState::room); a chain that comes back to a worm in progress is a ring of full
  /// buffers, which does not rotate.
  template <class W, std::uint64_t W::*Memo, class Link>
  [[nodiscard]] bool decide_chain(std::vector<W>& worms, std::uint32_t p, std::uint64_t stamp,
                                  Link link);
  /// A flit enters router r: a router that held none joins active_ (unless the last pass that
  /// emptied it left it there), with kNumbered its order of activation kept for the worms.
  template <bool kNumbered>
  void enter_router(std::uint32_t r);
  /// A flit of a moving worm enters empty one-flit buffer `b` in cycle c: push's work for such a
  /// buffer, the router's activation numbered. kVirtualChannels (move_vc_worms): its header waits
  /// on the allocation's list, and its input port's flits are counted over its virtual channels;
  /// without (move_worms, move_deep_worms: one virtual channel) the worms keep no waiting list.
  template <bool kVirtualChannels>
  void enter_worm_buffer(std::uint32_t b, const Flit& f, sw::Cycle c);
  /// move_flits_one_vc by worms (one virtual channel, buffers deeper than one flit, wormhole,
  /// unobserved): the same moves, calls and counters (see there).
  void move_deep_worms(sw::Cycle c);
  /// Forgets the worms (their flits left the routers, or another path moved them).
  void clear_worms();
  /// Switch allocation and commit by runs of worms (several virtual channels, one-flit buffers,
  /// wormhole, unobserved): the same moves, calls and counters as move_flits (see there).
  void move_vc_worms(sw::Cycle c);
  /// Whether the front run of VC worm `p` may move in the cycle of `stamp` (full_buffer_frees'
  /// question for its buffers): its front is routed and the buffer ahead is empty, or holds the
  /// rear flit of a worm whose rear run may move.
  [[nodiscard]] bool vc_worm_may_move(std::uint32_t p, std::uint64_t stamp);
  /// The first position of run `run` of VC worm `p` whose flit moves this cycle (the run's `hi`:
  /// none), from the switch's grants alone: the flits ahead of a candidate that lost its port
  /// move, it and those behind it stay.
  [[nodiscard]] std::uint32_t vc_run_granted_from(std::uint32_t p, std::size_t run,
                                                  std::uint64_t stamp);
  /// vc_run_granted_from for the front run of `p`, and whether its front's move into a full
  /// buffer happens (the rear flit of the worm there moves), in the cycle of `stamp`.
  [[nodiscard]] std::uint32_t vc_front_moves_from(std::uint32_t p, std::uint64_t stamp);
  /// Whether the flit in buffer `t` (the rear flit of its VC worm) moves in the cycle of `stamp`.
  [[nodiscard]] bool vc_rear_moves(std::uint32_t t, std::uint64_t stamp);
  /// The buffer `b`'s flit left it in move_vc_worms (the flit was `f`).
  void leave_vc_worm_buffer(std::uint32_t b, const Flit& f);
  /// Whether an interface's flit may enter its injection buffer `t` in cycle c: it has a free
  /// slot, or it is full and its head may leave in cycle c.
  [[nodiscard]] bool has_room(std::uint32_t t, sw::Cycle c);
  /// has_room() of a full buffer: whether its head may leave in cycle c (its packet routed, and
  /// room ahead of it), once per buffer and cycle.
  [[nodiscard]] bool full_buffer_frees(std::uint32_t t, sw::Cycle c);
  /// Whether move `move`, granted into a full buffer, happens: the head of that buffer moves.
  [[nodiscard]] bool feasible(std::size_t move);
  void commit(sw::Cycle c);
  /// Tells an observing client that network buffer `b` changed in cycle c.
  void report_observed_buffer(std::uint32_t b, sw::Cycle c);
  [[nodiscard]] bool header_ready(std::uint32_t b, const Flit& head, sw::Cycle c) const;

  // ---- the schedule of one-VC worms in runs (fabric_schedule.cpp) -------------------------
  /// A packet's stay in the j-th buffer of its path (j = 0: its injection buffer); flit i leaves
  /// it in cycle leaves + i.
  struct StayRef {
    std::uint32_t packet = 0;
    std::uint32_t hop = 0;
  };
  static constexpr std::uint32_t kNoPacket = 0xFFFFFFFF;
  struct Stay {
    std::uint32_t buffer = 0;
    std::uint32_t router = 0;   ///< the buffer's
    std::uint32_t input = 0;    ///< the buffer's input slot (RouterPorts::input_offset + port)
    std::uint32_t channel = 0;  ///< the output virtual channel it takes (global index)
    std::int32_t target = -1;   ///< the buffer that channel feeds, -1: the ejection
    std::int64_t arrived = std::numeric_limits<std::int64_t>::min();  ///< its header's arrival
    std::int64_t granted = std::numeric_limits<std::int64_t>::min();  ///< its channel's grant
    std::int64_t leaves = std::numeric_limits<std::int64_t>::min();   ///< its run's first cycle
    /// The run of the packet that entered the buffer before it (its room; min: not known yet).
    std::int64_t ahead_leaves = std::numeric_limits<std::int64_t>::min();
    StayRef behind{kNoPacket, 0};  ///< the stay that entered after it while its run was unknown
  };
  /// A packet from the take of its header on: its path, and its flits' words.
  struct ScheduledWorm {
    std::vector<Stay> stays;
    std::vector<sw::Word> words;  ///< [flit]
    bool started = false;         ///< from its header's take until its tail leaves the network
  };
  /// The last packet to enter a buffer, and its run there (min: not known yet).
  struct Entrant {
    StayRef ref;
    std::int64_t leaves = 0;
  };
  /// A stay whose tail left in the cycle before: its router, its channel (free from now on).
  struct StayEnd {
    std::uint32_t router = 0;
    std::uint32_t channel = 0;
  };
  /// What happens in a cycle, put there by the cycle that learns it.
  struct ScheduledCycle {
    std::int32_t starting = 0;            ///< runs that start leaving their buffers
    std::vector<std::uint32_t> arrivals;  ///< routers whose stay begins (its header came before)
    std::vector<StayEnd> ends;            ///< stays that end: their runs end leaving too
    std::vector<std::uint32_t> ejecting;  ///< packets whose run out of the network starts
    std::vector<StayRef> ready;           ///< headers that may ask for their channel from now on
  };
  [[nodiscard]] bool schedule_possible() const;
  void clear_schedule();
  void schedule_cycle(sw::Cycle c);
  /// The calendar's entry of `cycle` (not before the cycle stepped).
  ScheduledCycle& scheduled_at(std::int64_t cycle) {
    const auto ahead = static_cast<std::uint64_t>(cycle - schedule_now_);
    if (ahead >= calendar_.size()) {
      grow_calendar(cycle);
    }
    last_scheduled_ = cycle > last_scheduled_ ? cycle : last_scheduled_;
    return calendar_[static_cast<std::size_t>(cycle) & (calendar_.size() - 1)];
  }
  void grow_calendar(std::int64_t cycle);
  Stay& stay(StayRef ref) { return scheduled_[ref.packet].stays[ref.hop]; }
  void start_worm(std::uint32_t packet, std::uint32_t injection_buffer);
  void enter(StayRef ref);
  void arrive(StayRef ref, std::int64_t arrived);
  void decide_channel(std::uint32_t channel, std::int64_t c);
  void grant_scheduled(StayRef ref, std::int64_t c);
  void settle(StayRef ref);
  void run(StayRef ref, std::int64_t leaves);
  void tell_peaks(const Stay& s);
  [[nodiscard]] static std::uint32_t left_by(std::int64_t leaves, std::int64_t t,
                                             std::uint32_t most);
  /// The peaks of the arrivals so far whose stay's run is not known yet (a read of the channels).
  void tell_waiting_peaks();
  std::uint64_t inject_scheduled(sw::Cycle c);
  void begin_scheduled(ScheduledCycle& at);

  bool schedule_capable_ = false;
  bool schedule_on_ = false;
  std::int64_t schedule_now_ = -1;
  std::int64_t last_scheduled_ = -1;      ///< the latest cycle the calendar holds events of
  std::vector<ScheduledWorm> scheduled_;  ///< [packet id]
  std::vector<Entrant> entrant_;          ///< [buffer]
  std::vector<std::vector<StayRef>> channel_waiters_;  ///< [output virtual channel]
  std::vector<std::int64_t> decided_;        ///< [output virtual channel]: last cycle decided
  std::vector<std::uint32_t> told_peak_;     ///< [input slot]: the peak told or in the calendar
  std::vector<std::uint32_t> router_stays_;  ///< [router]: stays whose flits it holds
  std::uint64_t active_routers_ = 0;
  std::uint64_t ready_headers_ = 0;
  std::int64_t departing_ = 0;               ///< runs leaving their buffers this cycle
  std::vector<std::uint32_t> ejecting_now_;  ///< packets whose runs eject this cycle
  std::vector<StayRef> ready_now_;
  std::vector<StayEnd> ends_now_;
  std::vector<ScheduledCycle> calendar_;  ///< [cycle % size], size a power of two

  const sw::NetworkConfig config_;
  FabricClient& client_;
  const std::shared_ptr<const sw::RouterPorts> ports_;
  const sw::TopologyDescription& description_;
  const sw::RoutingFunction& routing_;
  const sw::VcPolicy& vc_policy_;
  const std::uint32_t vcs_;    ///< V virtual channels per network port
  const std::uint32_t depth_;  ///< B flits per buffer
  const sw::Cycle delay_;      ///< D, the router delay
  const bool wormhole_;        ///< else store-and-forward
  /// One virtual channel per port: every switch request is granted and every granted move
  /// happens (allocate_switches says why).
  bool single_vc_;
  /// Unobserved, switch allocation and commit may take one pass (move_flits_one_vc, move_flits).
  bool one_pass_ = true;
  /// Every router has at most 64 output ports: allocate_switches_one_vc's port masks fit a word.
  bool few_ports_ = true;
  /// One virtual channel, one-flit buffers, wormhole: a worm's flits move all together or not at
  /// all (move_worms), so the cycle can be done per worm.
  bool worm_capable_ = false;
  /// Several virtual channels, one-flit buffers, wormhole, at most 64 ports per router: a worm's
  /// flits lie in runs of consecutive buffers of its route, and a run moves together unless one
  /// of its buffers loses a port to another worm (move_vc_worms).
  bool vc_worm_capable_ = false;
  /// move_vc_worms runs this cycle; chosen, and left, as worms_on_.
  bool vc_worms_on_ = false;
  /// move_worms runs this cycle; chosen when the network holds no flits (worm_capable_ and not
  /// observed), so that the worms below always describe every flit in the routers, and left
  /// at once when an observer attaches (the buffers' state is complete either way).
  bool worms_on_ = false;
  /// One virtual channel, buffers deeper than one flit, wormhole, a router delay of one cycle: a
  /// worm's flits fill a run of consecutive buffers of its route, and most cycles only its two
  /// ends change a count (move_deep_worms).
  bool deep_worm_capable_ = false;
  /// move_deep_worms runs this cycle; chosen as worms_on_ is.
  bool deep_worms_on_ = false;
  std::vector<std::uint32_t> buffer_base_;    ///< [router]: its first buffer; one per router + 1
  std::vector<std::uint32_t> out_vc_base_;    ///< [router]: its first output virtual channel
  std::vector<std::uint32_t> out_port_base_;  ///< [router]: its first output port (P + E each)
  std::vector<std::uint32_t> buffer_input_;   ///< [buffer]: router-local input port
  std::vector<std::uint32_t> buffer_vc_;      ///< [buffer]
  std::vector<std::int64_t> out_target_;  ///< [output virtual channel]: the buffer it feeds or -1
  std::vector<std::uint32_t> out_port_slot_;     ///< [output virtual channel]: out_port_base + port
  std::vector<std::uint32_t> injection_buffer_;  ///< [injector]: the buffer it feeds
  mutable sw::PortCandidates candidates_;        ///< append_routes' scratch
  /// The deterministic routing's output port per (router, destination), looked up by
  /// routes_of; none for an adaptive routing or a network above the table's bound, whose
  /// headers ask the routing function (append_routes).
  std::optional<sw::RouteTable> route_table_;
  /// [buffer * max_routes_ + network output port]: the virtual channels the policy allows a
  /// header of the buffer there, first << 8 | count (at most 16 each), once asked.
  mutable std::vector<std::uint16_t> allowed_vcs_;
  static constexpr std::uint16_t kVcsNotAsked = 0xFFFF;

  /// What the allocators and the commit read and write of a buffer every cycle, together in one
  /// cache line: a flit's move touches its two buffers' lines, not one line per table.
  struct alignas(64) BufferState {
    /// full_buffer_frees' answer, (cycle + 1) << 2 | state (1 in progress, 2 yes, 3 no).
    std::uint64_t room = 0;
    std::uint64_t mask_bit = 0;    ///< its bit in occupied_ and routed_ (fixed)
    std::uint32_t mask_word = 0;   ///< its word there (fixed)
    std::uint32_t router = 0;      ///< (fixed)
    std::uint32_t input_slot = 0;  ///< RouterPorts::input_offset + input port (fixed)
    std::uint32_t head = 0;        ///< the slot of its oldest flit
    std::uint32_t count = 0;       ///< flits held
    /// Output virtual channel (router-local) of the packet at the head, or -1.
    std::int32_t out = -1;
    std::int32_t target = -1;       ///< out_target_ of out, while out >= 0 (-1: ejection)
    std::uint32_t out_channel = 0;  ///< out_vc_base + out, while out >= 0
    std::uint32_t out_port = 0;     ///< out_port_slot_ of out_channel, while out >= 0
    /// cycle + 1 when its head left in move_flits' pass (which counts its flits at the start of
    /// the cycle as count + 1 then), else older.
    std::uint64_t departed = 0;
  };
  std::vector<BufferState> state_;  ///< [buffer]
  std::vector<Flit> flits_;         ///< [buffer * depth + slot]
  /// [input slot]: flits its buffers hold (kept with several virtual channels; with one it is
  /// the count of the input port's one buffer)
  std::vector<std::uint32_t> held_;
  std::vector<std::int64_t> owner_;  ///< [output virtual channel]: holding buffer or -1
  // Per router, a bit per buffer (router-local number): it holds flits; its head packet has an
  // output virtual channel (out >= 0). The allocators visit only the buffers that can act.
  std::uint32_t mask_words_ = 1;         ///< 64-bit words per router
  std::vector<std::uint64_t> occupied_;  ///< [router * mask_words_ + word]
  std::vector<std::uint64_t> routed_;    ///< [router * mask_words_ + word]
  /// [buffer * max_routes_ ...]: the routes of the header at the buffer's head, once computed.
  std::uint32_t max_routes_ = 1;
  std::vector<Route> routes_;
  std::vector<std::uint32_t> route_count_;  ///< [buffer]: routes + 1, 0 until routed
  std::vector<Route> route_scratch_;        ///< routes_of's scratch
  NetworkInterfaces ni_;
  ChannelCounters channels_;

  std::vector<std::uint32_t> flits_per_router_;
  /// [router]: when it last became active (a count): active_ is in this order.
  std::vector<std::uint64_t> activated_;
  std::uint64_t activations_ = 0;
  /// A packet with flits in the routers, while worms_on_ or deep_worms_on_: the buffers its
  /// flits occupy, the oldest (the flit nearest the tail) first, from `begin` on; each holds one
  /// flit (worms_on_) or one or more (deep_worms_on_: the buffer ahead of the oldest may also
  /// hold another packet's flits behind, the newest another packet's flits ahead).
  struct Worm {
    std::vector<std::uint32_t> path;
    std::uint32_t begin = 0;
    std::uint64_t moves = 0;  ///< worm_moves' answer, as BufferState::room
  };
  std::vector<Worm> worms_;               ///< [packet id]
  std::vector<std::uint32_t> in_flight_;  ///< packet ids of the worms, in no particular order
  /// A worm that moves this cycle: its front flit, where it goes (-1: out), and the order of its
  /// move among the cycle's moves (the active position of its router, sure before speculative,
  /// then the output port: allocate_switches' order).
  struct Front {
    std::uint64_t order = 0;
    std::uint32_t packet = 0;
    std::int32_t to = -1;
    bool activates = false;  ///< into a router that holds no flits at the start of the cycle
    Flit flit;
  };
  std::vector<Front> fronts_;
  /// A packet with flits in the routers, while vc_worms_on_: the buffers of its route from its
  /// injection buffer on, each held by the packet until its tail leaves it, and the runs of
  /// consecutive buffers its flits occupy (one flit each; positions [lo, hi) of path, the front
  /// run first). The buffers between runs are empty (a run behind lost a port while the run
  /// ahead moved).
  struct VcRun {
    std::uint32_t lo = 0;
    std::uint32_t hi = 0;
  };
  struct VcWorm {
    std::vector<std::uint32_t> path;
    std::vector<VcRun> runs;
    std::uint64_t may = 0;         ///< vc_worm_may_move's answer, as BufferState::room
    std::uint64_t decided = 0;     ///< (cycle + 1) << 2 | 1 deciding, | 2 decided: front_from
    std::uint32_t front_from = 0;  ///< vc_front_moves_from's answer
    std::uint64_t lost = 0;        ///< the cycle + 1 in which a candidate of it lost a port
  };
  std::vector<VcWorm> vc_worms_;             ///< [packet id]
  std::vector<std::uint32_t> vc_in_flight_;  ///< packet ids of the VC worms, in no order
  std::vector<VcRun> vc_runs_scratch_;
  /// [out_port_base + output port], [input slot]: the cycle + 1 in which a candidate of a
  /// moving run claimed it; a second claim makes its router contended.
  std::vector<std::uint64_t> out_claim_;
  std::vector<std::uint64_t> in_claim_;
  std::vector<std::uint64_t> router_contended_;  ///< [router]: the cycle + 1 it was contended
  std::vector<std::uint32_t> contended_;         ///< this cycle's contended routers
  std::vector<std::uint64_t> lost_;  ///< [buffer]: the cycle + 1 its candidate lost a port
  /// The worms (move_worms, move_deep_worms, move_vc_worms): the routers whose last flit left in
  /// the cycle; each active router's place in active_ (which they keep in no order).
  std::vector<std::uint32_t> emptied_;
  std::vector<std::uint32_t> active_place_;
  std::vector<std::uint32_t> ordered_;  ///< fronts_ whose moves depend on their order
  /// While move_worms or move_deep_worms runs: the buffers that hold an ejection channel, in the
  /// order of their moves (activated_ of their router << 8 | output port), kept by grant and
  /// eject_listed.
  struct Ejecting {
    std::uint64_t order = 0;
    std::uint32_t buffer = 0;
  };
  std::vector<Ejecting> ejecting_;
  /// [buffer]: the flit it ejected in the cycle of `stamp` (cycle + 1), for eject_listed.
  struct Ejected {
    std::uint64_t stamp = 0;
    Flit flit;
  };
  std::vector<Ejected> ejected_;
  std::vector<std::uint32_t> injecting_now_;  ///< injectors whose flit enters this cycle
  /// allocate_virtual_channels_of_worms' requests, one per worm.
  std::vector<Request> worm_requests_;
  /// Routers with flits, in the order they became active (in no order while the worms run:
  /// activated_ keeps it).
  std::vector<std::uint32_t> active_;
  /// The buffers whose head is a header without an output virtual channel (occupied, not
  /// routed), in no particular order, kept by the commit: virtual-channel allocation visits
  /// them instead of every active router's buffers.
  std::vector<std::uint32_t> waiting_;
  /// Headers pushed into empty buffers (wormhole) that may ask for an output virtual channel from
  /// cycle `ready` on, in the order of that cycle (each was pushed `delay_` cycles before it),
  /// from pending_first_ on: they join waiting_ in that cycle.
  struct Pending {
    sw::Cycle ready;
    std::uint32_t buffer = 0;
  };
  std::vector<Pending> pending_;
  std::size_t pending_first_ = 0;
  std::vector<std::uint8_t> is_waiting_;  ///< [buffer]: on waiting_ or pending_
  std::vector<std::uint8_t> is_active_;
  std::uint64_t flits_in_routers_ = 0;
  sw::Cycle last_move_;

  // Per-cycle scratch, stamped with the cycle so nothing needs clearing.
  /// A flit on its way into buffer `to` (-1: out of the network), pushed after every departure.
  struct Arrival {
    std::int32_t to = -1;
    Flit flit;
  };
  std::vector<Request> requests_;  ///< virtual-channel allocation's requests
  /// serve_headers: its calls, and [router] the call in which the router last had a request.
  std::uint64_t serve_count_ = 0;
  std::vector<std::uint64_t> router_served_;
  /// A flit asking for the switch: (speculative << 32 | output port), its buffer.
  struct Candidate {
    std::uint64_t key = 0;
    std::uint32_t buffer = 0;
  };
  std::vector<Candidate> switch_candidates_;  ///< one router's (as many as its buffers at most)
  std::vector<Move> moves_;  ///< this cycle's first move_count_ (one per buffer or injector)
  std::size_t move_count_ = 0;
  std::vector<Arrival> arrivals_;  ///< commit's, as many as moves_ at most
  /// move_flits_one_vc's arrivals whose order is seen (ejections, and flits entering a router
  /// that held none): the order of their moves, the arrival's index.
  struct OrderedArrival {
    std::uint64_t order = 0;
    std::uint32_t arrival = 0;
  };
  std::vector<OrderedArrival> ordered_arrivals_;
  /// move_flits' granted moves into buffers full at the start of the cycle whose head had not
  /// left yet: decided after the pass (as feasible() does).
  struct Deferred {
    std::uint32_t from = 0;
    std::uint8_t state = 0;  ///< unknown, in progress, yes, no (as feasible_state_)
  };
  std::vector<Deferred> deferred_;
  /// [buffer]: index in moves_ of its departure this cycle, or -1 (reset by commit).
  std::vector<std::int32_t> mover_of_;
  std::vector<std::uint8_t> feasible_state_;
  std::vector<std::uint32_t> chain_;             ///< full_buffer_frees' and feasible's path
  std::vector<std::uint64_t> port_used_stamp_;   ///< [out_port_base + output port]
  std::vector<std::uint64_t> input_used_stamp_;  ///< [RouterPorts::input_offset + input port]

  FabricStats stats_;
  bool observed_ = false;
};

}  // namespace orthosim::sc::net
