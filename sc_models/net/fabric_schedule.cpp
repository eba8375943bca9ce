// The schedule of one-VC worms in runs: with one virtual channel per port and wormhole
// switching, a packet's header takes each output channel for its packet alone until its tail has
// passed, no other flit competes for that link or for the one input of the buffer it feeds, and
// every flit's move follows from the headers' grants (docs/networks.md, "Timing under
// contention"): flit i of a packet leaves the j-th buffer of its path in cycle
//
//   d_j(i) = max(d_j(i-1) + 1, a_j(i) + 1, d'(q - B)),   d_j(-1) + 1 = G_j,
//
// a_j(i) = d_{j-1}(i) its arrival (a_0(i): the cycle the router took it from its interface), q its
// place among the flits that enter the buffer ahead, B the depth, d' the departures from there.
// When every packet has as many flits as a buffer holds (L = B), the flit B places ahead of flit
// i is flit i of the packet that entered that buffer last before it, and every term is a constant
// plus i: by induction each stay is a run, d_j(i) = o_j + i, with
//
//   o_j = max(G_j, o_{j-1} + 1, o'_{j+1})
//
// (o'_{j+1} that packet's run in the buffer ahead; none for an ejection), the header of the next
// stay asking for its channel from max(o_j + D, o' + L) on (the cycle after the tail ahead of it
// left), the channel free from o_j + L. So the schedule costs a few operations per header hop
// instead of a visit per flit and cycle: the grants are stepped in cycle order (first come first
// served per channel, ties to the lower buffer, as allocate_virtual_channels), each grant gives
// its run at once, or when the run ahead of it is known, and the counters of every cycle follow
// from the runs' ends (docs/performance.md, "The schedule of one-VC worms in runs"). The
// interfaces are stepped flit by flit (they read each word in its cycle) and so are the
// ejections (they deliver each word in its cycle); only the order of the deliveries within a
// cycle differs from the flit paths, which is why a client asks for it (deliveries_in_any_order).
#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

#include "sc_models/net/fabric.hpp"

namespace orthosim::sc::net {

namespace {
constexpr std::int64_t kUnknown = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kLongAgo = std::numeric_limits<std::int64_t>::min() / 4;
}  // namespace

void Fabric::deliveries_in_any_order(bool on, std::uint32_t packet_flits) {
  if (flits_in_routers_ > 0 || ni_.queued_packets() > 0) {
    throw std::logic_error("fabric: deliveries_in_any_order() with flits in flight");
  }
  schedule_capable_ = on && packet_flits == depth_ && schedule_possible();
  schedule_on_ = false;
  // An empty network holds no channel; the last runs' channels, whose release is still in the
  // calendar of a schedule turned off here, are free for whichever path steps it next.
  std::fill(owner_.begin(), owner_.end(), -1);
  if (schedule_capable_) {
    clear_schedule();
  }
}

// One virtual channel, wormhole, a deterministic routing (the route table), and no cycle of
// channels a deadlock could close (the schedule keeps no buffers for describe_deadlock): meshes
// and hypercubes under their default routings.
bool Fabric::schedule_possible() const {
  return single_vc_ && wormhole_ && route_table_.has_value() && few_ports_ &&
         config_.hand_built == nullptr && config_.topology.kind() != sw::TopologyKind::Torus;
}

void Fabric::clear_schedule() {
  const std::size_t buffers = state_.size();
  schedule_now_ = -1;
  last_scheduled_ = -1;
  scheduled_.clear();
  entrant_.assign(buffers, {{kNoPacket, 0}, kLongAgo});
  channel_waiters_.assign(owner_.size(), {});
  decided_.assign(owner_.size(), kUnknown);
  told_peak_.assign(ports_->total_inputs(), 0);
  router_stays_.assign(flits_per_router_.size(), 0);
  active_routers_ = 0;
  ready_headers_ = 0;
  departing_ = 0;
  ejecting_now_.clear();
  calendar_.assign(64, {});
}

void Fabric::grow_calendar(std::int64_t cycle) {
  if (cycle <= schedule_now_) {
    throw std::logic_error("fabric: a scheduled event in cycle " + std::to_string(cycle) +
                           ", not after the cycle stepped (" + std::to_string(schedule_now_) + ")");
  }
  // Later than the calendar reaches: twice the cycles, each kept at its cycle's place.
  std::size_t size = calendar_.size();
  while (static_cast<std::uint64_t>(cycle - schedule_now_) >= size) {
    size *= 2;
  }
  std::vector<ScheduledCycle> larger(size);
  for (std::int64_t t = schedule_now_;
       t < schedule_now_ + static_cast<std::int64_t>(calendar_.size()); ++t) {
    larger[static_cast<std::size_t>(t) & (size - 1)] =
        std::move(calendar_[static_cast<std::size_t>(t) & (calendar_.size() - 1)]);
  }
  calendar_.swap(larger);
}

// The packet whose header an interface's router takes: its path, looked up in the route table
// once.
void Fabric::start_worm(std::uint32_t packet, std::uint32_t b) {
  if (scheduled_.size() <= packet) {
    scheduled_.resize(ni_.packet_slots());
  }
  ScheduledWorm& w = scheduled_[packet];
  const NetworkInterfaces::Packet& p = ni_.packet(packet);
  w.words.resize(p.flits);
  w.stays.clear();
  while (true) {
    Stay s;
    s.buffer = b;
    const std::uint32_t r = state_[b].router;
    s.router = r;
    s.input = state_[b].input_slot;
    const std::uint8_t q = route_table_->port(r, p.dst);
    const Route route = q == sw::RouteTable::eject ? ejection_route(r, p.dst, input_port_of(b))
                                                   : network_route(b, r, q);
    s.channel = out_vc_base_[r] + route.lo;
    s.target = q == sw::RouteTable::eject ? -1 : static_cast<std::int32_t>(out_target_[s.channel]);
    w.stays.push_back(s);
    if (s.target < 0) {
      break;
    }
    b = static_cast<std::uint32_t>(s.target);
  }
}

// Stay `ref` enters its buffer behind the packet that entered it last: the run of that one there
// is its room (known, or awaited).
void Fabric::enter(StayRef ref) {
  Stay& s = stay(ref);
  Entrant& last = entrant_[s.buffer];
  s.ahead_leaves = last.leaves;
  if (last.leaves == kUnknown) {
    stay(last.ref).behind = ref;
  }
  last = {ref, kUnknown};
}

// Header `ref` entered its buffer in cycle `arrived`: the router holds its flits from the next
// cycle on, and it asks for its channel D cycles later, or once the tail ahead of it has left.
void Fabric::arrive(StayRef ref, std::int64_t arrived) {
  Stay& s = stay(ref);
  s.arrived = arrived;
  scheduled_at(arrived + 1).arrivals.push_back(s.router);
  const std::int64_t ready =
      std::max(arrived + static_cast<std::int64_t>(delay_.count()), s.ahead_leaves + depth_);
  scheduled_at(ready).ready.push_back(ref);
}

void Fabric::decide_channel(std::uint32_t channel, std::int64_t c) {
  if (decided_[channel] == c || owner_[channel] >= 0) {
    return;
  }
  std::vector<StayRef>& waiting = channel_waiters_[channel];
  if (waiting.empty()) {
    return;
  }
  decided_[channel] = c;
  // The oldest header first, ties to the lower buffer (allocate_virtual_channels).
  std::size_t best = 0;
  for (std::size_t k = 1; k < waiting.size(); ++k) {
    const Stay& x = stay(waiting[k]);
    const Stay& y = stay(waiting[best]);
    if (std::tie(x.arrived, x.buffer) < std::tie(y.arrived, y.buffer)) {
      best = k;
    }
  }
  const StayRef winner = waiting[best];
  waiting[best] = waiting.back();
  waiting.pop_back();
  grant_scheduled(winner, c);
}

void Fabric::grant_scheduled(StayRef ref, std::int64_t c) {
  Stay& s = stay(ref);
  s.granted = c;
  owner_[s.channel] = s.buffer;
  --ready_headers_;
  if (s.target >= 0) {
    const NetworkInterfaces::Packet& p = ni_.packet(ref.packet);
    if (p.first_of_message) {
      channels_.routed(s.router, s.channel - out_vc_base_[s.router], p.message);
    }
    enter({ref.packet, ref.hop + 1});
  }
  settle(ref);
}

// The run of granted stay `ref` when the run ahead of it is known (now, or when it becomes so),
// and then the runs that waited for it. A stay enters the buffer ahead at its grant (an injection
// buffer once the run ahead of it is known), so the stay behind a run whose run was not known is
// one whose feeder is granted and waits for it.
void Fabric::settle(StayRef ref) {
  while (true) {
    Stay& s = stay(ref);
    std::int64_t leaves = std::max(s.granted, s.arrived + 1);
    if (s.target >= 0) {
      const std::int64_t room = stay({ref.packet, ref.hop + 1}).ahead_leaves;
      if (room == kUnknown) {
        return;  // the run ahead settles this one (its `behind`)
      }
      leaves = std::max(leaves, room);
    }
    const StayRef behind = s.behind;
    run(ref, leaves);
    if (behind.packet == kNoPacket) {
      return;
    }
    stay(behind).ahead_leaves = leaves;
    ref = {behind.packet, behind.hop - 1};
  }
}

// Stay `ref`'s flit i leaves in cycle `leaves` + i: the counters of those cycles, the channel
// free after its tail, the next stay's header arrival, and the peaks of this stay's arrivals.
void Fabric::run(StayRef ref, std::int64_t leaves) {
  Stay& s = stay(ref);
  s.leaves = leaves;
  Entrant& last = entrant_[s.buffer];
  if (last.ref.packet == ref.packet && last.ref.hop == ref.hop) {
    last.leaves = leaves;
  }
  const std::int64_t flits = depth_;
  ++scheduled_at(leaves).starting;
  scheduled_at(leaves + flits).ends.push_back({s.router, s.channel});
  tell_peaks(s);
  if (s.target < 0) {
    scheduled_at(leaves).ejecting.push_back(ref.packet);
  } else {
    arrive({ref.packet, ref.hop + 1}, leaves);
  }
}

// The count of stay s's buffer after each of its arrivals (in cycles a_i = arrived + i): its own
// flits that have not left, min(i + 1, leaves - arrived), and those of the packet ahead (all L of
// them arrived before its header; its flit i left by a_i, its run started by the arrival of this
// header: the room), max(0, L - 1 - i + ahead_leaves - arrived). So the count is
// max(1, L + ahead_leaves - arrived) at the header's arrival, no more while flits of the packet
// ahead are there, and then rises by one a cycle up to min(leaves - arrived, L), the last rise in
// cycle arrived + most - 1 < leaves. A run starts in the cycle it becomes known (at its grant, or
// when the run ahead it waited for starts), so every count told here is of a cycle already
// stepped (a read of the channels may have told it already), and only the largest is a peak.
void Fabric::tell_peaks(const Stay& s) {
  const std::int64_t flits = depth_;
  std::uint32_t& told = told_peak_[s.input];
  if (told >= flits) {
    return;
  }
  const std::int64_t first = std::max<std::int64_t>(1, flits + s.ahead_leaves - s.arrived);
  const std::int64_t most = std::max(first, std::min(s.leaves - s.arrived, flits));
  told = std::max(told, static_cast<std::uint32_t>(most));
  channels_.held_at(s.input, told);
}

// Of a run leaving from cycle `leaves` on, the flits that have left by the end of cycle t (of the
// first `most`).
std::uint32_t Fabric::left_by(std::int64_t leaves, std::int64_t t, std::uint32_t most) {
  if (leaves == kUnknown || t < leaves) {
    return 0;
  }
  return static_cast<std::uint32_t>(std::min<std::int64_t>(t - leaves + 1, most));
}

// A read of the channels mid-run: the peaks of the arrivals so far of the stays whose run is not
// known yet (none of their flits has left: their run starts after the cycle stepped).
void Fabric::tell_waiting_peaks() {
  if (!schedule_on_) {
    return;
  }
  for (const ScheduledWorm& w : scheduled_) {
    if (!w.started) {
      continue;
    }
    for (const Stay& s : w.stays) {
      if (s.arrived == kUnknown || s.leaves != kUnknown) {
        continue;
      }
      const std::uint32_t flits = depth_;
      for (std::uint32_t i = 0; i < flits && s.arrived + i <= schedule_now_; ++i) {
        channels_.held_at(s.input, i + 1 + flits - left_by(s.ahead_leaves, s.arrived + i, flits));
      }
    }
  }
}

// The interfaces, after the routers' moves of the cycle: a header is taken when the run of the
// packet ahead of it in the injection buffer has started, in this cycle at the latest (the flit B
// places ahead of it has left); the flits behind it follow one per cycle, each into the slot its
// counterpart of that packet left.
std::uint64_t Fabric::inject_scheduled(sw::Cycle c) {
  const std::int64_t now = static_cast<std::int64_t>(c.count());
  std::uint64_t taken = 0;
  ni_.for_each_offer(c, [&](std::uint32_t i) {
    const auto [packet, index] = ni_.offer_of(i);
    if (index == 0) {
      const std::int64_t room = entrant_[injection_buffer_[i]].leaves;
      if (room == kUnknown || room > now) {
        return;
      }
      start_worm(packet, injection_buffer_[i]);
      scheduled_[packet].started = true;
      enter({packet, 0});
      arrive({packet, 0}, now);
    }
    scheduled_[packet].words[index] = ni_.offered(i).word;
    ni_.take(i, c);
    ++taken;
  });
  return taken;
}

// Cycle t's events that change the state from its start on: the routers' stays begin and end,
// the runs that ended leave no more, and their channels come free.
void Fabric::begin_scheduled(ScheduledCycle& at) {
  for (const std::uint32_t r : at.arrivals) {
    active_routers_ += router_stays_[r]++ == 0 ? 1 : 0;
  }
  at.arrivals.clear();
  for (const StayEnd& end : at.ends) {
    active_routers_ -= --router_stays_[end.router] == 0 ? 1 : 0;
    owner_[end.channel] = -1;
  }
  departing_ -= static_cast<std::int64_t>(at.ends.size());
}

void Fabric::schedule_cycle(sw::Cycle c) {
  const auto now = static_cast<std::int64_t>(c.count());
  // Cycles skipped while the network was empty: the ends of the last runs (their routers and
  // channels), no moves.
  for (std::int64_t t = schedule_now_ + 1; t < now && t <= last_scheduled_; ++t) {
    ScheduledCycle& at = calendar_[static_cast<std::size_t>(t) & (calendar_.size() - 1)];
    begin_scheduled(at);
    at.ends.clear();
  }
  schedule_now_ = now;
  begin_scheduled(scheduled_at(now));
  stats_.router_steps += active_routers_;
  // The grants (their runs may grow the calendar: its entries are looked up again after).
  ready_now_.swap(scheduled_at(now).ready);
  ends_now_.swap(scheduled_at(now).ends);
  for (const StayRef ref : ready_now_) {
    channel_waiters_[stay(ref).channel].push_back(ref);
    ++ready_headers_;
  }
  for (const StayRef ref : ready_now_) {
    decide_channel(stay(ref).channel, now);
  }
  for (const StayEnd& end : ends_now_) {
    decide_channel(end.channel, now);
  }
  ready_now_.clear();
  ends_now_.clear();
  stats_.header_wait_cycles += ready_headers_;
  const std::uint64_t injected = inject_scheduled(c);

  // The moves of the cycle: the runs that leave now (hops and ejections), the injections.
  ScheduledCycle& at = scheduled_at(now);
  departing_ += at.starting;
  at.starting = 0;
  ejecting_now_.insert(ejecting_now_.end(), at.ejecting.begin(), at.ejecting.end());
  at.ejecting.clear();
  const std::uint64_t ejected = ejecting_now_.size();  // one flit of every ejecting run
  std::size_t kept = 0;
  for (const std::uint32_t packet : ejecting_now_) {
    ScheduledWorm& w = scheduled_[packet];
    const auto index = static_cast<std::uint32_t>(now - w.stays.back().leaves);
    const bool tail = index + 1 == depth_;
    if (tail) {
      w.started = false;  // its packet id may carry another packet from now on
    } else {
      ejecting_now_[kept++] = packet;
    }
    eject_flit(packet, index, w.words[index], c);
  }
  ejecting_now_.resize(kept);
  stats_.flit_hops += static_cast<std::uint64_t>(departing_) - ejected;
  flits_in_routers_ = flits_in_routers_ + injected - ejected;
  count_moves(static_cast<std::uint64_t>(departing_) + injected, c);
}

}  // namespace orthosim::sc::net
