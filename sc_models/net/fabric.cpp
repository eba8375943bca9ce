// The network fabric, one cycle at a time (see the header for the timing).
#include "sc_models/net/fabric.hpp"

#include <algorithm>
#include <stdexcept>
#include <tuple>

#include "sw/core/diagnostic.hpp"

namespace orthosim::sc::net {

namespace {
constexpr std::uint8_t kUnknown = 0, kInProgress = 1, kYes = 2, kNo = 3;
/// Fabric::VcWorm::decided's states.
constexpr std::uint64_t kDeciding = 1, kDecided = 2;
}  // namespace

Fabric::Fabric(const sw::Validated<sw::NetworkConfig>& config, FabricClient& client)
    : config_(config),
      client_(client),
      ports_(std::make_shared<const sw::RouterPorts>(config_.description(), config_.ni.ports)),
      description_(ports_->description()),
      routing_(description_.routing()),
      vc_policy_(config_.vc_policy()),
      vcs_(config_.router.vcs),
      depth_(config_.router.buffer_flits),
      delay_(config_.router.delay),
      wormhole_(config_.router.switching == sw::Switching::Wormhole),
      single_vc_(vcs_ == 1),
      worm_capable_(vcs_ == 1 && depth_ == 1 && wormhole_),
      route_table_(sw::RouteTable::of(description_)),
      ni_(config_, ports_, client),
      channels_(ports_) {
  const std::uint32_t routers = description_.routers();
  buffer_base_.reserve(std::size_t{routers} + 1);
  out_vc_base_.reserve(std::size_t{routers} + 1);
  out_port_base_.reserve(std::size_t{routers} + 1);
  buffer_base_.push_back(0);
  out_vc_base_.push_back(0);
  out_port_base_.push_back(0);
  for (std::uint32_t r = 0; r < routers; ++r) {
    const std::uint32_t ports = description_.ports(r);
    const std::uint32_t channels = ports_->injection_ports(r);
    buffer_base_.push_back(buffer_base_.back() + ports * vcs_ + channels);
    out_vc_base_.push_back(out_vc_base_.back() + ports * vcs_ + channels);
    out_port_base_.push_back(out_port_base_.back() + ports + channels);
    max_routes_ = std::max(max_routes_, ports);
    few_ports_ = few_ports_ && ports + channels <= 64;
    for (std::uint32_t in = 0; in < ports + channels; ++in) {
      for (std::uint32_t v = 0; v < (in < ports ? vcs_ : 1); ++v) {
        BufferState& b = state_.emplace_back();
        b.router = r;
        b.input_slot = ports_->input_offset(r) + in;
        buffer_input_.push_back(in);
        buffer_vc_.push_back(v);
      }
    }
  }
  // Output virtual channel v of network port q feeds virtual channel v of the input port at the
  // far end of q's channel.
  out_target_.assign(out_vc_base_.back(), -1);
  for (std::uint32_t r = 0; r < routers; ++r) {
    for (std::uint32_t q = 0; q < description_.ports(r); ++q) {
      if (const std::optional<sw::PortLink>& to = description_.link(r, q)) {
        for (std::uint32_t v = 0; v < vcs_; ++v) {
          out_target_[out_vc_base_[r] + q * vcs_ + v] =
              buffer_base_[to->router] + to->port * vcs_ + v;
        }
      }
    }
  }
  out_port_slot_.resize(out_vc_base_.back());
  for (std::uint32_t r = 0; r < routers; ++r) {
    for (std::uint32_t ov = out_vc_base_[r]; ov < out_vc_base_[r + 1]; ++ov) {
      out_port_slot_[ov] = out_port_base_[r] + out_port_of(r, ov - out_vc_base_[r]);
    }
  }
  injection_buffer_.resize(ports_->injectors());
  for (std::uint32_t i = 0; i < ports_->injectors(); ++i) {
    const std::uint32_t r = description_.attachment(ports_->node_of_injector(i)).router;
    injection_buffer_[i] =
        buffer_base_[r] + description_.ports(r) * vcs_ + ports_->injection_port_of(i);
  }
  const std::size_t buffers = buffer_base_.back();
  if (buffers + ports_->injectors() > std::size_t{INT32_MAX}) {
    throw std::logic_error("fabric: more buffers than a move's 32-bit buffer id can name");
  }
  flits_.resize(buffers * depth_);
  held_.assign(ports_->total_inputs(), 0);
  owner_.assign(out_vc_base_.back(), -1);
  std::uint32_t most_buffers = 1;
  for (std::uint32_t r = 0; r < routers; ++r) {
    most_buffers = std::max(most_buffers, buffer_base_[r + 1] - buffer_base_[r]);
  }
  mask_words_ = (most_buffers + 63) / 64;
  worm_capable_ = worm_capable_ && few_ports_;  // a front's order keeps its port in 7 bits
  // With a router delay above one cycle a header waits at every router, the flits behind it
  // bunch into runs of about `delay` flits, and a worm moves about as many runs as flits: there
  // the flit-by-flit path runs faster (docs/performance.md, round 6).
  deep_worm_capable_ = deep_worms_possible() && delay_ == sw::Cycle{1};
  vc_worm_capable_ = vcs_ > 1 && depth_ == 1 && wormhole_ && few_ports_;
  out_claim_.assign(out_port_base_.back(), 0);
  in_claim_.assign(ports_->total_inputs(), 0);
  router_contended_.assign(routers, 0);
  router_served_.assign(routers, 0);
  lost_.assign(buffers, 0);
  active_place_.assign(routers, 0);
  ejected_.resize(buffers);
  requests_.resize(most_buffers);
  switch_candidates_.resize(most_buffers);
  // Each buffer and each injector moves one flit per cycle at most.
  moves_.resize(buffers + ports_->injectors());
  arrivals_.resize(moves_.size());
  occupied_.assign(std::size_t{routers} * mask_words_, 0);
  routed_.assign(std::size_t{routers} * mask_words_, 0);
  for (std::uint32_t b = 0; b < buffers; ++b) {
    BufferState& s = state_[b];
    const std::uint32_t local = b - buffer_base_[s.router];
    s.mask_word = s.router * mask_words_ + local / 64;
    s.mask_bit = std::uint64_t{1} << (local % 64);
  }
  routes_.resize(buffers * max_routes_);
  allowed_vcs_.assign(buffers * max_routes_, kVcsNotAsked);
  route_count_.assign(buffers, 0);
  flits_per_router_.assign(routers, 0);
  activated_.assign(routers, 0);
  is_active_.assign(routers, 0);
  is_waiting_.assign(buffers, 0);
  mover_of_.assign(buffers, -1);
  // A chain visits each buffer, and each move (one per buffer or injector), once at most.
  chain_.assign(buffers + ports_->injectors(), 0);
  port_used_stamp_.assign(out_port_base_.back(), 0);
  input_used_stamp_.assign(ports_->total_inputs(), 0);
}

// ---- layout -------------------------------------------------------------------------------

std::uint32_t Fabric::out_port_of(std::uint32_t router, std::uint32_t out_vc) const {
  const std::uint32_t network = description_.ports(router) * vcs_;
  return out_vc < network ? out_vc / vcs_ : description_.ports(router) + (out_vc - network);
}

std::string Fabric::channel_name(std::uint32_t router, std::uint32_t out_vc) const {
  const std::uint32_t network = description_.ports(router) * vcs_;
  if (is_ejection(router, out_vc)) {
    return description_.router_name(router) + ".eject" + std::to_string(out_vc - network);
  }
  return description_.channel_name(router, out_vc / vcs_) + ".vc" + std::to_string(out_vc % vcs_);
}

void Fabric::reset() {
  for (BufferState& s : state_) {  // all but the fixed fields
    s.room = 0;
    s.head = 0;
    s.count = 0;
    s.out = -1;
    s.target = -1;
    s.out_channel = 0;
    s.out_port = 0;
    s.departed = 0;
  }
  std::fill(held_.begin(), held_.end(), 0);
  std::fill(route_count_.begin(), route_count_.end(), 0);
  std::fill(occupied_.begin(), occupied_.end(), 0);
  std::fill(routed_.begin(), routed_.end(), 0);
  std::fill(owner_.begin(), owner_.end(), -1);
  ni_.reset();
  channels_.reset();
  std::fill(flits_per_router_.begin(), flits_per_router_.end(), 0);
  std::fill(is_active_.begin(), is_active_.end(), 0);
  active_.clear();
  idle_routers_in_active_ = false;
  waiting_.clear();
  pending_.clear();
  pending_first_ = 0;
  std::fill(is_waiting_.begin(), is_waiting_.end(), 0);
  in_flight_.clear();
  vc_in_flight_.clear();
  emptied_.clear();
  ejecting_.clear();
  std::fill(ejected_.begin(), ejected_.end(), Ejected{});  // stamps of the cycles before
  // move_vc_worms' stamps, should the cycles start again from 0
  std::fill(out_claim_.begin(), out_claim_.end(), 0);
  std::fill(in_claim_.begin(), in_claim_.end(), 0);
  std::fill(router_contended_.begin(), router_contended_.end(), 0);
  std::fill(lost_.begin(), lost_.end(), 0);
  // the switch allocators' port stamps (allocate_switches, move_flits, move_vc_worms), likewise
  std::fill(port_used_stamp_.begin(), port_used_stamp_.end(), 0);
  std::fill(input_used_stamp_.begin(), input_used_stamp_.end(), 0);
  flits_in_routers_ = 0;
  schedule_on_ = false;
  if (schedule_capable_) {
    clear_schedule();
  }
}

// ---- messages in --------------------------------------------------------------------------

void Fabric::submit(std::uint32_t message, std::uint32_t src, std::uint32_t dst,
                    std::uint32_t words) {
  ni_.submit(message, src, dst, words);
}

// ---- one cycle ----------------------------------------------------------------------------

void Fabric::begin_cycle(sw::Cycle c) {
  // The worms describe the flits only from an empty network on; the buffers' state is kept
  // whole either way, so the general path can take over at any cycle.
  const bool worms_were_on = worms_on_;
  const bool vc_worms_were_on = vc_worms_on_;
  const bool unordered_were_on = worms_on_ || deep_worms_on_ || vc_worms_on_;
  if (flits_in_routers_ == 0) {
    if (!worms_on_ && !deep_worms_on_) {
      clear_worms();  // left by a hand-over to the general path
    }
    ejecting_.clear();  // an empty network holds no channels
    const bool schedule_was_on = schedule_on_;
    schedule_on_ = schedule_capable_ && !observed_;
    if (schedule_on_ && !schedule_was_on) {
      clear_schedule();  // what an earlier scheduled stretch left is stale
    } else if (schedule_was_on && !schedule_on_) {
      // The last runs' channels, free from the cycle after their tails: free for the flit paths.
      std::fill(owner_.begin(), owner_.end(), -1);
    }
    worms_on_ = worm_capable_ && !observed_ && !schedule_on_;
    deep_worms_on_ = deep_worm_capable_ && !observed_ && !schedule_on_;
    vc_worms_on_ = vc_worm_capable_ && !observed_;
  } else if (observed_) {
    worms_on_ = false;
    deep_worms_on_ = false;
    vc_worms_on_ = false;
  }
  if (worms_were_on && !worms_on_) {
    rebuild_waiting();  // the worms do not keep the list
  }
  if (unordered_were_on && !worms_on_ && !deep_worms_on_ && !vc_worms_on_) {
    // The worms keep the active routers in no order: the order of their activation again.
    std::sort(active_.begin(), active_.end(),
              [this](std::uint32_t x, std::uint32_t y) { return activated_[x] < activated_[y]; });
  }
  const bool one_pass = one_pass_ && !observed_;
  if (idle_routers_in_active_ &&
      (schedule_on_ || worms_on_ || deep_worms_on_ || vc_worms_on_ || !one_pass || single_vc_)) {
    retire_idle_routers();  // left by move_flits for its next pass, which another path takes
    idle_routers_in_active_ = false;
  }
  if (schedule_on_) {
    schedule_cycle(c);
    return;
  }
  if (worms_on_) {
    allocate_virtual_channels_of_worms(c);
    move_worms(c);
    return;
  }
  if (deep_worms_on_) {
    allocate_virtual_channels(c);
    move_deep_worms(c);
    return;
  }
  if (single_vc_ && few_ports_ && one_pass && wormhole_) {
    allocate_virtual_channels(c);
    move_flits_one_vc(c);
    return;
  }
  allocate_virtual_channels(c);
  if (vc_worms_on_) {
    if (!vc_worms_were_on) {
      vc_in_flight_.clear();  // worms of an earlier unobserved stretch, left behind
    }
    move_vc_worms(c);
    return;
  }
  if (single_vc_ && few_ports_) {
    if (one_pass) {
      move_flits_one_vc(c);
      return;
    }
    allocate_switches_one_vc(c);
  } else {
    if (one_pass && !single_vc_) {
      move_flits(c);
      return;
    }
    allocate_switches(c);
  }
  commit(c);
}

bool Fabric::header_ready(std::uint32_t b, const Flit& head, sw::Cycle c) const {
  if (wormhole_) {
    return c >= head.pushed + delay_;
  }
  // Store-and-forward: the whole packet must be in this buffer first.
  const std::uint32_t flits = ni_.packet(head.packet).flits;
  return state_[b].count >= flits && c >= flit_at(b, flits - 1).pushed + delay_;
}

void Fabric::append_routes(std::uint32_t b, std::vector<Route>& out) const {
  const std::uint32_t r = router_of_buffer(b);
  const std::uint32_t dst = ni_.packet(flit_at(b, 0).packet).dst;
  if (description_.attachment(dst).router == r) {
    out.push_back(ejection_route(r, dst, input_port_of(b)));
    return;
  }
  const std::uint32_t in = input_port_of(b);
  const std::optional<std::uint32_t> from =
      in < description_.ports(r) ? std::optional(in) : std::nullopt;
  routing_.route(description_, r, from, dst, candidates_);
  for (const std::uint32_t q : candidates_) {
    out.push_back(network_route(b, r, q));
  }
}

inline Fabric::Route Fabric::tabled_route(std::uint32_t b) {
  const std::uint32_t r = router_of_buffer(b);
  const std::uint32_t dst = ni_.packet(flit_at(b, 0).packet).dst;
  const std::uint8_t q = route_table_->port(r, dst);
  return q == sw::RouteTable::eject ? ejection_route(r, dst, input_port_of(b))
                                    : network_route(b, r, q);
}

Fabric::Route Fabric::ejection_route(std::uint32_t router, std::uint32_t dst,
                                     std::uint32_t in) const {
  const std::uint32_t ports = description_.ports(router);
  const std::uint32_t e = ports_->ejection_port(router, dst, in);
  const std::uint32_t ov = ports * vcs_ + e;
  return {ports + e, ov, ov + 1};
}

Fabric::Route Fabric::network_route(std::uint32_t b, std::uint32_t router, std::uint32_t q) const {
  // The policy's answer depends on the buffer (its input port and virtual channel) and the
  // output port only: asked once per pair.
  std::uint16_t& known = allowed_vcs_[std::size_t{b} * max_routes_ + q];
  if (known == kVcsNotAsked) {
    const std::uint32_t in = input_port_of(b);
    const std::optional<std::uint32_t> from =
        in < description_.ports(router) ? std::optional(in) : std::nullopt;
    const sw::VcRange allowed = vc_policy_.allowed(description_, router, q, from, vc_of(b), vcs_);
    known = static_cast<std::uint16_t>(allowed.first << 8 | allowed.count);
  }
  const std::uint32_t lo = q * vcs_ + (known >> 8U);
  return {q, lo, lo + (known & 0xFFU)};
}

// A waiting header takes, among its routes in the routing function's order, the first with a
// free virtual channel the policy allows ([LCC] section 6.1: among the allowed free output
// channels the lowest dimension); with none free it waits and asks again next cycle. Headers are
// served first come, first served per router, ties to the lower buffer: two headers compete only
// where their routes share an output port, so a deterministic routing gets the same grants as
// when each output port served its own queue.
//
// The waiting headers are the buffers on waiting_ (the commit puts a buffer there when a header
// becomes its head). A wormhole header pushed into an empty buffer in cycle c asks nothing
// before c + delay (header_ready), so with a delay of two cycles or more it waits on pending_
// until then instead: at a router delay of 4 most waiting headers are such, and the cycles
// before do not visit them. Routers grant only their own output channels, so the requests are
// put in order by router, then arrival, then buffer: each router's in the order above, and the
// same grants as when the routers were served one by one.
//
// Grants only take output channels, and the moves that free them come after (in every path), so
// a ready header whose known routes' channels are all held at the start of the cycle gets none:
// it waits without a request, and the others' requests are served as they would be (a header
// that takes nothing changes no other grant). Most waiting headers wait so, for a channel that
// another worm holds for many cycles, and they skip the sort and serve_headers.
void Fabric::allocate_virtual_channels(sw::Cycle c) {
  stats_.router_steps += active_.size();
  admit_pending(c);
  if (waiting_.empty()) {
    return;
  }
  if (requests_.size() < waiting_.size()) {
    requests_.resize(2 * waiting_.size());
  }
  Request* const requests = requests_.data();
  const BufferState* const state = state_.data();
  std::size_t count = 0;
  std::uint64_t held = 0;
  for (const std::uint32_t b : waiting_) {
    const Flit& head = flits_[slot(b, 0)];
    if (head.index != 0 || !header_ready(b, head, c)) {
      continue;
    }
    request_channel(b, head, requests, count, held);
  }
  stats_.header_wait_cycles += held;
  if (count > 0) {
    serve_headers(requests, count);
    // The granted headers leave the list.
    std::uint8_t* const is_waiting = is_waiting_.data();
    waiting_.erase(std::remove_if(waiting_.begin(), waiting_.end(),
                                  [&](std::uint32_t b) {
                                    if (state[b].out < 0) {
                                      return false;
                                    }
                                    is_waiting[b] = 0;
                                    return true;
                                  }),
                   waiting_.end());
  }
}

// Waiting header b, ready (its head flit `head`), asks for a channel: a request, or none when
// every channel of its known routes is held (a wait cycle counted in `held`).
inline void Fabric::request_channel(std::uint32_t b, const Flit& head, Request* requests,
                                    std::size_t& count, std::uint64_t& held) const {
  if (known_routes_held(b)) {
    ++held;
    return;
  }
  Request& q = requests[count++];
  q.router = state_[b].router;
  q.arrived = head.pushed;
  q.buffer = b;
}

inline bool Fabric::known_routes_held(std::uint32_t b) const {
  const std::uint32_t routes = route_count_[b];
  if (routes == 0) {
    return false;  // not asked yet
  }
  const Route* const route = &routes_[std::size_t{b} * max_routes_];
  const std::int64_t* const channels = owner_.data() + out_vc_base_[state_[b].router];
  for (std::uint32_t n = 0; n + 1 < routes; ++n) {
    for (std::uint32_t ov = route[n].lo; ov < route[n].hi; ++ov) {
      if (channels[ov] < 0) {
        return false;
      }
    }
  }
  return true;
}

inline void Fabric::admit_pending(sw::Cycle c) {
  const std::size_t end = pending_.size();
  std::size_t k = pending_first_;
  for (; k < end && pending_[k].ready <= c; ++k) {
    waiting_.push_back(pending_[k].buffer);
  }
  if (k == end) {
    pending_.clear();
    k = 0;
  } else if (k > 4096 && 2 * k > end) {
    pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(k));
    k = 0;
  }
  pending_first_ = k;
}

void Fabric::rebuild_waiting() {
  waiting_.clear();
  pending_.clear();
  pending_first_ = 0;
  std::fill(is_waiting_.begin(), is_waiting_.end(), 0);
  for (std::uint32_t b = 0; b < state_.size(); ++b) {
    if (state_[b].count > 0 && state_[b].out < 0) {
      add_waiting(b);
    }
  }
}

void Fabric::serve_headers(Request* requests, std::size_t count) {
  // In order by router, arrival, buffer; the keys are distinct (one request per buffer). A router
  // grants only its own channels, so only the order of each router's requests decides anything:
  // when no router has two, they are served as they come.
  if (count > 1) {
    const std::uint64_t stamp = ++serve_count_;
    bool shared = false;
    for (std::size_t k = 0; k < count; ++k) {
      std::uint64_t& served = router_served_[requests[k].router];
      shared = shared || served == stamp;
      served = stamp;
    }
    if (shared) {
      std::sort(requests, requests + count, [](const Request& x, const Request& y) {
        return std::tie(x.router, x.arrived, x.buffer) < std::tie(y.router, y.arrived, y.buffer);
      });
    }
  }
  for (std::size_t k = 0; k < count; ++k) {
    const std::uint32_t b = requests[k].buffer;
    std::uint32_t routes = 0;
    const Route* route = routes_of(b, routes);
    bool granted = false;
    for (std::uint32_t n = 0; n < routes && !granted; ++n) {
      granted = grant(state_[b].router, b, route[n]);
    }
    if (!granted) {
      ++stats_.header_wait_cycles;
    }
  }
}

// allocate_virtual_channels while the worms describe the flits: a header waiting for an output
// channel is the front of its worm (a body flit's buffer is routed), so the worms are visited
// instead of the active routers. Routers grant only their own channels, so the requests are put
// in order by router, then arrival, then buffer: each router's in the order above. A header whose
// routes' channels are all held waits without a request (allocate_virtual_channels).
void Fabric::allocate_virtual_channels_of_worms(sw::Cycle c) {
  stats_.router_steps += active_.size();
  Request* const requests = worm_requests_.data();
  std::size_t count = 0;
  std::uint64_t held = 0;
  for (const std::uint32_t p : in_flight_) {
    const std::uint32_t b = worms_[p].path.back();
    if (state_[b].out >= 0) {
      continue;
    }
    const Flit& head = flits_[b];
    if (head.index != 0 || c < head.pushed + delay_) {
      continue;
    }
    request_channel(b, head, requests, count, held);
  }
  stats_.header_wait_cycles += held;
  if (count > 0) {
    serve_headers(requests, count);
  }
}

inline const Fabric::Route* Fabric::routes_of(std::uint32_t b, std::uint32_t& count) {
  Route* cached = &routes_[std::size_t{b} * max_routes_];
  if (route_count_[b] == 0 && route_table_) {
    cached[0] = tabled_route(b);
    route_count_[b] = 2;
  } else if (route_count_[b] == 0) {
    route_scratch_.clear();
    append_routes(b, route_scratch_);
    if (route_scratch_.size() > max_routes_) {
      throw std::logic_error("fabric: a routing function gave more routes than a router has ports");
    }
    std::copy(route_scratch_.begin(), route_scratch_.end(), cached);
    route_count_[b] = static_cast<std::uint32_t>(route_scratch_.size()) + 1;
  }
  count = route_count_[b] - 1U;
  return cached;
}

bool Fabric::grant(std::uint32_t router, std::uint32_t buffer, const Route& route) {
  const std::uint32_t base = out_vc_base_[router];
  for (std::uint32_t ov = route.lo; ov < route.hi; ++ov) {
    std::int64_t& owner = owner_[base + ov];
    if (owner >= 0) {
      continue;
    }
    owner = buffer;
    BufferState& s = state_[buffer];
    s.out = static_cast<std::int32_t>(ov);
    s.out_channel = base + ov;
    s.target = static_cast<std::int32_t>(out_target_[base + ov]);
    s.out_port = out_port_slot_[base + ov];
    routed_[state_[buffer].mask_word] |= state_[buffer].mask_bit;
    route_count_[buffer] = 0;  // the next header in this buffer is routed afresh
    const NetworkInterfaces::Packet& p = ni_.packet(flits_[slot(buffer, 0)].packet);
    if (is_ejection(router, ov)) {
      if (worms_on_ || deep_worms_on_) {
        list_ejecting(buffer);
      }
    } else if (p.first_of_message) {
      channels_.routed(router, ov / vcs_, p.message);
    }
    return true;
  }
  return false;
}

// While the worms run (move_worms, move_deep_worms) the ejections are put in the order of their
// moves without a sort: a buffer that takes an ejection channel joins ejecting_ at its place, and
// keeps it until its packet's tail has left (its router holds flits until then, so its activation
// number stays). The ejections of a cycle are then its listed buffers that ejected, in order.
void Fabric::list_ejecting(std::uint32_t b) {
  const BufferState& s = state_[b];
  const std::uint64_t order = activated_[s.router] << 8 | (s.out_port - out_port_base_[s.router]);
  const auto at = std::lower_bound(ejecting_.begin(), ejecting_.end(), order,
                                   [](const Ejecting& e, std::uint64_t o) { return e.order < o; });
  ejecting_.insert(at, {order, b});
}

std::uint64_t Fabric::eject_listed(sw::Cycle c) {
  const std::uint64_t stamp = c.count() + 1;
  std::uint64_t count = 0;
  std::size_t kept = 0;
  for (const Ejecting e : ejecting_) {
    const Ejected& x = ejected_[e.buffer];
    if (x.stamp == stamp) {
      ++count;
      eject_flit(x.flit.packet, x.flit.index, x.flit.word, c);
      if (x.flit.tail) {
        continue;  // the channel is free again
      }
    }
    ejecting_[kept++] = e;
  }
  ejecting_.resize(kept);
  return count;
}

bool Fabric::has_room(std::uint32_t t, sw::Cycle c) {
  return state_[t].count < depth_ || full_buffer_frees(t, c);
}

// The head of full buffer t may leave when its packet is routed and the buffer ahead has room,
// which for a full buffer ahead is the same question one buffer further: the chain of full
// buffers is followed to its end, and every buffer on it gets the end's answer. A chain that
// comes back to a buffer on it is a ring of full buffers, which does not rotate.
bool Fabric::full_buffer_frees(std::uint32_t t, sw::Cycle c) {
  const std::uint64_t stamp = (c.count() + 1) << 2;
  if ((state_[t].room & ~std::uint64_t{3}) == stamp) {
    return (state_[t].room & 3) == kYes;  // in progress: a ring of full buffers does not rotate
  }
  std::uint32_t* const chain = chain_.data();
  std::size_t length = 0;
  std::uint32_t x = t;
  bool frees = false;
  const std::uint64_t cycle_stamp = c.count() + 1;
  for (;;) {
    BufferState& s = state_[x];
    s.room = stamp | kInProgress;
    chain[length++] = x;
    // x's head may leave: x holds flits (it is full), its head packet is routed, and the buffer
    // ahead has room. (Its head arrived before this cycle: commit pushes after the allocation.)
    // A head that already left in move_flits' pass could (its tail may have released the
    // output channel since); the counts are those at the start of the cycle.
    if (s.departed == cycle_stamp) {
      frees = true;
      break;
    }
    if (s.out < 0) {
      break;
    }
    if (s.target < 0 ||
        count_at_start(static_cast<std::uint32_t>(s.target), cycle_stamp) < depth_) {
      frees = true;
      break;
    }
    x = static_cast<std::uint32_t>(s.target);
    const std::uint64_t ahead = state_[x].room;
    if ((ahead & ~std::uint64_t{3}) == stamp) {
      frees = (ahead & 3) == kYes;
      break;
    }
  }
  const std::uint64_t answer = stamp | (frees ? kYes : kNo);
  for (std::size_t k = 0; k < length; ++k) {
    state_[chain[k]].room = answer;
  }
  return frees;
}

// Switch allocation, in two passes. Credit-based flow control forwards a flit only into a buffer
// with a free slot (Dally and Towles, Principles and Practices of Interconnection Networks, on
// buffered flow control). This model also lets a flit enter a full buffer in the cycle the flit at
// its head leaves (the same-cycle hand-off that streams a worm through [LCC]'s 1-flit buffers),
// but such a move is only speculative: it takes effect only if that head flit really leaves.
// Had a speculative candidate the same rights as a sure one, the oldest flit of an input port (or
// output port) could win the port with a move that then fails, while another virtual channel of
// the same port could have moved.
// The ports couple the virtual-channel classes that the dateline keeps apart ([LCC] section 6,
// Dally and Seitz's dateline: class 0 before the wrap-around channel, class 1 after it), so such
// failed grants could close a ring through both classes, and every cycle repeat the same
// decisions with no flit moving: a frozen network with no cyclic channel dependency (a torus 8x8,
// 4-flit packets, 2-flit buffers, 2 VCs did so within 600 cycles). Hence:
//   pass 1: candidates whose next buffer has a free slot (or that eject) are served, output ports
//           in order, each passing its oldest candidate whose input port has not sent yet;
//   pass 2: speculative candidates (the next buffer is full, its head may leave) share the output
//           and input ports that pass 1 left unused, in the same order.
// A pass-1 winner always moves (each buffer is fed by one output port, one flit per cycle), and
// the chain of full buffers behind any candidate ends at a pass-1 candidate, so whenever a flit
// can move some flit does: only a real cyclic channel dependency can stop the network.
// A router's candidates are few, so they are put in order by insertion (stable, so ties stay with
// the lower buffer, the scan's order).
// With one virtual channel per port no two candidates of a router share a port: an input port
// has one buffer, an output port one output virtual channel held by one buffer (an ejection or
// injection channel is a port of its own). Then every candidate is granted, so the head of a
// full buffer that frees is granted too, and every granted move happens: the port checks and
// commit's feasibility test are skipped, with the same moves in the same order.
// The switch request of the head of routed, occupied buffer b in cycle c, from the state at the
// start of the cycle (count_at_start: move_flits departs during its pass): its head may leave
// when the buffer ahead has room.
inline Fabric::SwitchRequest Fabric::switch_request(std::uint32_t b, sw::Cycle c) {
  const std::uint64_t stamp = c.count() + 1;
  const std::int32_t t = state_[b].target;
  if (t < 0 || count_at_start(static_cast<std::uint32_t>(t), stamp) < depth_) {
    return SwitchRequest::kSure;
  }
  // full_buffer_frees(t, c), its answer looked up here when known
  const std::uint64_t room = state_[t].room;
  const bool frees = (room & ~std::uint64_t{3}) == stamp << 2
                         ? (room & 3) == kYes
                         : full_buffer_frees(static_cast<std::uint32_t>(t), c);
  return frees ? SwitchRequest::kSpeculative : SwitchRequest::kNone;
}

// allocate_switches' candidates of router r in their order (below), from the state at the start
// of the cycle (count_at_start: move_flits departs during its pass); returns their count.
inline std::size_t Fabric::collect_switch_candidates(std::uint32_t r, sw::Cycle c) {
  const BufferState* const state = state_.data();
  const Flit* const flits = flits_.data();
  Candidate* const candidates = switch_candidates_.data();
  const std::uint32_t depth = depth_;
  // The head's arrival cycle orders only the candidates of one output port within a pass, so it
  // is read only for them. (Every head arrived before this cycle: the commit pushes after the
  // allocation.)
  const auto arrived = [&](std::uint32_t b) {
    return flits[std::size_t{b} * depth + state[b].head].pushed;
  };
  std::size_t count = 0;
  // The routed, occupied buffers of one mask word, numbered from `first_buffer`.
  const auto collect = [&](std::uint64_t bits, std::uint32_t first_buffer) {
    while (bits != 0) {
      const std::uint32_t b = first_buffer + static_cast<std::uint32_t>(__builtin_ctzll(bits));
      bits &= bits - 1;
      const SwitchRequest request = switch_request(b, c);
      if (request == SwitchRequest::kNone) {
        continue;
      }
      const BufferState& s = state[b];
      const bool full = request == SwitchRequest::kSpeculative;
      // Sure before speculative, then by output port, then by arrival; ties to the lower
      // buffer (the scan's order: the insertion is stable).
      const Candidate q{std::uint64_t{full} << 32 | s.out_port, b};
      std::size_t at = count++;
      for (; at > 0; --at) {
        const Candidate& before = candidates[at - 1];
        if (q.key != before.key ? q.key > before.key : !(arrived(b) < arrived(before.buffer))) {
          break;
        }
        candidates[at] = before;
      }
      candidates[at] = q;
    }
  };
  const std::uint32_t base = buffer_base_[r];
  if (mask_words_ == 1) {
    collect(occupied_[r] & routed_[r], base);
  } else {
    const std::size_t first = std::size_t{r} * mask_words_;
    for (std::uint32_t w = 0; w < mask_words_; ++w) {
      collect(occupied_[first + w] & routed_[first + w], base + w * 64);
    }
  }
  return count;
}

void Fabric::allocate_switches(sw::Cycle c) {
  const std::uint64_t stamp = c.count() + 1;
  // Raw pointers in locals: the compiler keeps them in registers across the stores.
  const BufferState* const state = state_.data();
  std::uint64_t* const port_used = port_used_stamp_.data();
  std::uint64_t* const input_used = input_used_stamp_.data();
  std::int32_t* const mover_of = mover_of_.data();
  const Candidate* const candidates = switch_candidates_.data();
  Move* const moves = moves_.data();
  const bool single_vc = single_vc_;
  std::size_t move_count = 0;
  for (const std::uint32_t r : active_) {
    const std::size_t count = collect_switch_candidates(r, c);
    // Each output port passes one flit, each input port sends one: sure moves before speculative
    // ones, then the oldest flit first. (A router's ports are its own: its one candidate wins.)
    for (std::size_t k = 0; k < count; ++k) {
      const std::uint32_t b = candidates[k].buffer;
      if (!single_vc) {
        if (count > 1) {
          std::uint64_t& out_used = port_used[static_cast<std::uint32_t>(candidates[k].key)];
          std::uint64_t& in_used = input_used[state[b].input_slot];
          if (out_used == stamp || in_used == stamp) {
            continue;
          }
          out_used = stamp;
          in_used = stamp;
        }
        mover_of[b] = static_cast<std::int32_t>(move_count);
      }
      moves[move_count++] = {static_cast<std::int32_t>(b), state[b].target, r,
                             state[b].out_channel};
    }
  }
  move_count_ = move_count;
  add_injections(c);
}

// Interfaces: one flit per injection channel per cycle, after the message's start-up, after the
// routers' moves.
template <class Admits, class Then>
inline void Fabric::inject_arrivals(Arrival* arrivals, std::size_t& arrived, sw::Cycle c,
                                    Admits admits, Then then) {
  ni_.for_each_offer(c, [&](std::uint32_t i) {
    const std::uint32_t target = injection_buffer_[i];
    if (!admits(target)) {
      return;
    }
    Arrival& a = arrivals[arrived++];
    a.to = static_cast<std::int32_t>(target);
    a.flit = take_injected(i, c);
    then(a);
  });
}

void Fabric::add_injections(sw::Cycle c) {
  Move* const moves = moves_.data();
  std::size_t move_count = move_count_;
  ni_.for_each_offer(c, [&](std::uint32_t i) {
    const std::uint32_t target = injection_buffer_[i];
    if (has_room(target, c)) {
      moves[move_count++] = {-1 - static_cast<std::int32_t>(i), static_cast<std::int32_t>(target),
                             router_of_buffer(target), 0};
    }
  });
  move_count_ = move_count;
}

// allocate_switches with one virtual channel per port: a router's candidates hold distinct
// output ports (an output port has one output virtual channel, held by one buffer), so the order
// of the general path (sure before speculative, then by output port, then by arrival) is the
// order of the output ports within each pass, and every candidate is granted. The candidates are
// collected in two masks of output ports, sure and speculative, and passed in bit order. The
// head's arrival cycle is not read: it only ordered candidates of one port, and a flit pushed in
// cycle c (commit) is asked about from cycle c + 1 on, so it has always arrived before the cycle.
void Fabric::allocate_switches_one_vc(sw::Cycle c) {
  const std::uint64_t frees_stamp = (c.count() + 1) << 2;
  const BufferState* const state = state_.data();
  Move* const moves = moves_.data();
  const std::uint32_t depth = depth_;
  std::size_t move_count = 0;
  std::uint32_t by_port[64];
  for (const std::uint32_t r : active_) {
    std::uint64_t sure = 0;
    std::uint64_t speculative = 0;
    const std::size_t first = std::size_t{r} * mask_words_;
    const std::uint32_t base = buffer_base_[r];
    const std::uint32_t port_base = out_port_base_[r];
    for (std::uint32_t w = 0; w < mask_words_; ++w) {
      std::uint64_t bits = occupied_[first + w] & routed_[first + w];
      while (bits != 0) {
        const std::uint32_t b = base + w * 64 + static_cast<std::uint32_t>(__builtin_ctzll(bits));
        bits &= bits - 1;
        const BufferState& s = state[b];
        const std::int32_t t = s.target;
        const std::uint32_t port = s.out_port - port_base;
        by_port[port] = b;
        if (t >= 0 && state[t].count >= depth) {
          const std::uint64_t room = state[t].room;
          if ((room & ~std::uint64_t{3}) == frees_stamp
                  ? (room & 3) != kYes
                  : !full_buffer_frees(static_cast<std::uint32_t>(t), c)) {
            continue;
          }
          speculative |= std::uint64_t{1} << port;
        } else {
          sure |= std::uint64_t{1} << port;
        }
      }
    }
    for (std::uint64_t pass : {sure, speculative}) {
      while (pass != 0) {
        const std::uint32_t b = by_port[__builtin_ctzll(pass)];
        pass &= pass - 1;
        moves[move_count++] = {static_cast<std::int32_t>(b), state[b].target, r,
                               state[b].out_channel};
      }
    }
  }
  move_count_ = move_count;
  add_injections(c);
}

// allocate_switches_one_vc and commit in one pass, unobserved. With one virtual channel every
// candidate is granted and every granted move happens, so a buffer's departure is done as soon as
// its move is decided, and the arrivals after every decision. A departure only frees room: a
// later decision that reads the buffer it left finds a free slot where the two passes found a
// full buffer whose head leaves, and decides the same move (it only takes it for a sure move
// instead of a speculative one, which changes nothing but its order). Unobserved, the order of
// the moves is seen only where a flit enters a router that held no flits at the start of the
// cycle (the order of active_) and at the ejections (the interfaces and the client); both are
// sure moves (into an empty buffer, or out), ordered by their router's place in active_, then
// their output port, as allocate_switches_one_vc orders them. They are done in that order, the
// other arrivals as they come; the interfaces' injections after the routers' moves, and the
// ejections last, as in commit.
// The flit interface i offers, taken from it in cycle c.
inline Fabric::Flit Fabric::take_injected(std::uint32_t i, sw::Cycle c) {
  const NetworkInterfaces::Flit in = ni_.offered(i);
  ni_.take(i, c);
  Flit f;
  f.packet = in.packet;
  f.index = in.index;
  f.word = in.word;
  f.tail = in.index + 1 == ni_.packet(in.packet).flits;
  return f;
}

void Fabric::move_flits_one_vc(sw::Cycle c) {
  const std::uint64_t frees_stamp = (c.count() + 1) << 2;
  BufferState* const state = state_.data();
  const Flit* const flits = flits_.data();
  std::uint64_t* const occupied = occupied_.data();
  std::uint64_t* const routed = routed_.data();
  std::uint32_t* const flits_per_router = flits_per_router_.data();
  const std::uint8_t* const is_active = is_active_.data();
  Arrival* const arrivals = arrivals_.data();
  const std::uint32_t depth = depth_;
  const std::uint32_t mask_words = mask_words_;
  std::size_t arrived = 0;             // arrivals [0, arrived): pushed in their order
  std::size_t top = arrivals_.size();  // arrivals [top, size): ordered_arrivals_
  std::uint64_t ejections = 0;
  ordered_arrivals_.clear();
  std::size_t place = 0;        // the place in active_ of the router being visited
  std::uint32_t r = 0;          // that router
  std::uint32_t port_base = 0;  // its first output port
  // The routed, occupied buffers of one mask word, numbered from `first_buffer`.
  const auto depart = [&](std::uint64_t bits, std::uint32_t first_buffer) {
    while (bits != 0) {
      const std::uint32_t b = first_buffer + static_cast<std::uint32_t>(__builtin_ctzll(bits));
      bits &= bits - 1;
      BufferState& s = state[b];
      const std::int32_t t = s.target;
      if (t >= 0 && state[t].count >= depth) {
        const std::uint64_t room = state[t].room;
        if ((room & ~std::uint64_t{3}) == frees_stamp
                ? (room & 3) != kYes
                : !full_buffer_frees(static_cast<std::uint32_t>(t), c)) {
          continue;
        }
      }
      // The departure. An arrival whose order is seen goes to the top of arrivals, the others
      // to the bottom in the order of their moves (the injections follow them).
      const bool seen = t < 0 || !is_active[state[t].router];
      Arrival& a = seen ? arrivals[--top] : arrivals[arrived++];
      a.to = t;
      a.flit = flits[std::size_t{b} * depth + s.head];
      s.head = s.head + 1 == depth ? 0 : s.head + 1;
      if (--s.count == 0) {
        occupied[s.mask_word] &= ~s.mask_bit;
      }
      --flits_per_router[r];
      if (a.flit.tail) {
        owner_[s.out_channel] = -1;
        s.out = -1;
        routed[s.mask_word] &= ~s.mask_bit;
        if (s.count > 0) {
          add_waiting(b);  // the next packet's header
        }
      }
      if (seen) {
        ejections += t < 0 ? 1 : 0;
        ordered_arrivals_.push_back(
            {place << 8 | (s.out_port - port_base), static_cast<std::uint32_t>(top)});
      }
    }
  };
  const std::size_t routers = active_.size();
  for (place = 0; place < routers; ++place) {
    r = active_[place];
    port_base = out_port_base_[r];
    const std::uint32_t base = buffer_base_[r];
    if (mask_words == 1) {
      depart(occupied[r] & routed[r], base);
    } else {
      const std::size_t first = std::size_t{r} * mask_words;
      for (std::uint32_t w = 0; w < mask_words; ++w) {
        depart(occupied[first + w] & routed[first + w], base + w * 64);
      }
    }
  }
  const std::size_t router_moves = arrived;
  // Every departure is an arrival of the cycle (into a buffer, or out).
  const std::uint64_t departures = arrived + (arrivals_.size() - top);
  // The interfaces, in their order, after the routers' moves.
  inject_arrivals(
      arrivals, arrived, c, [&](std::uint32_t target) { return has_room(target, c); },
      [](const Arrival&) {});
  stats_.flit_hops += departures - ejections;
  deliver_one_vc_arrivals(router_moves, arrived, 0, flits_in_routers_ - departures, c);
}

// A cycle's ordered arrivals are few (the ejections and the entries into idle routers) and come
// nearly in order (the routers are visited in it; a router's moves by buffer, not output port),
// so they are put in order by insertion; their orders are distinct (one move per output port).
inline void Fabric::sort_ordered_arrivals() {
  OrderedArrival* const ordered = ordered_arrivals_.data();
  const std::size_t count = ordered_arrivals_.size();
  for (std::size_t k = 1; k < count; ++k) {
    const OrderedArrival x = ordered[k];
    std::size_t at = k;
    for (; at > 0 && x.order < ordered[at - 1].order; --at) {
      ordered[at] = ordered[at - 1];
    }
    ordered[at] = x;
  }
}

void Fabric::deliver_one_vc_arrivals(std::size_t router_moves, std::size_t arrived,
                                     std::uint64_t direct, std::uint64_t in_routers, sw::Cycle c) {
  const Arrival* const arrivals = arrivals_.data();
  OrderedArrival* const ordered = ordered_arrivals_.data();
  const std::size_t ordered_count = ordered_arrivals_.size();
  // The arrivals whose order is not seen, then those into idle routers in the order of their
  // moves, then the injections.
  for (std::size_t m = 0; m < router_moves; ++m) {
    push<true>(static_cast<std::uint32_t>(arrivals[m].to), arrivals[m].flit, c);
  }
  in_routers += router_moves;
  sort_ordered_arrivals();
  for (std::size_t k = 0; k < ordered_count; ++k) {
    const Arrival& a = arrivals[ordered[k].arrival];
    if (a.to >= 0) {
      push<true>(static_cast<std::uint32_t>(a.to), a.flit, c);
      ++in_routers;
    }
  }
  for (std::size_t m = router_moves; m < arrived; ++m) {
    push<true>(static_cast<std::uint32_t>(arrivals[m].to), arrivals[m].flit, c);
    ++in_routers;
  }
  flits_in_routers_ = in_routers;
  for (std::size_t k = 0; k < ordered_count; ++k) {
    const Arrival& a = arrivals[ordered[k].arrival];
    if (a.to < 0) {
      eject_flit(a.flit.packet, a.flit.index, a.flit.word, c);
    }
  }
  std::uint64_t moved = arrived + ordered_count + direct;
  if (deep_worms_on_) {
    moved += eject_listed(c);  // the ejections of move_deep_worms, in order
  }
  count_moves(moved, c);
  if (deep_worms_on_) {
    retire_emptied_routers();
  } else {
    retire_idle_routers();
  }
}

// allocate_switches and commit in one pass, with several virtual channels, unobserved. The
// candidates, their order and the grants are allocate_switches', read from the state at the
// start of the cycle: a buffer whose head left earlier in the pass is counted with that flit
// (count_at_start), and full_buffer_frees answers yes for it. A granted move into a buffer with
// room at the start always happens, and so does one into a full buffer whose head has already
// left: both depart at once. A granted move into a full buffer whose head has not left (yet) is
// deferred, and after the pass happens when that head has left, or when that head's own deferred
// move happens (feasible()'s chain). Departures only take flits out, and the arrivals are pushed
// after every departure, as in commit. Unobserved, the order of the moves is seen only where a
// flit enters a router that held no flits at the start of the cycle and at the ejections; both
// are moves into room (an empty buffer, or out), which depart at once, in the order of their
// grants, so their arrivals stay in the order of the moves: the deferred moves and then the
// interfaces' injections come after, as the injections do in commit.
void Fabric::move_flits(sw::Cycle c) {
  const std::uint64_t stamp = c.count() + 1;
  BufferState* const state = state_.data();
  const Flit* const flits = flits_.data();
  std::uint64_t* const occupied = occupied_.data();
  std::uint64_t* const routed = routed_.data();
  std::uint64_t* const port_used = port_used_stamp_.data();
  std::uint64_t* const input_used = input_used_stamp_.data();
  std::int32_t* const mover_of = mover_of_.data();
  std::uint32_t* const held = held_.data();
  std::uint32_t* const flits_per_router = flits_per_router_.data();
  const Candidate* const candidates = switch_candidates_.data();
  // The pushes from the front of arrivals_, the ejections from its back (each buffer and each
  // injector moves one flit at most, so they fit): delivering them needs no test of each.
  Arrival* const arrivals = arrivals_.data();
  Arrival* const last = arrivals + arrivals_.size() - 1;
  const std::uint32_t depth = depth_;
  std::size_t pushed = 0;
  std::size_t ejected = 0;
  deferred_.clear();
  const auto depart = [&](std::uint32_t b) {
    BufferState& s = state[b];
    const bool out = s.target < 0;
    Arrival& a = out ? *(last - ejected) : arrivals[pushed];
    pushed += out ? 0 : 1;
    ejected += out ? 1 : 0;
    a.to = s.target;
    a.flit = flits[std::size_t{b} * depth + s.head];
    s.head = s.head + 1 == depth ? 0 : s.head + 1;
    if (--s.count == 0) {
      occupied[s.mask_word] &= ~s.mask_bit;
    }
    s.departed = stamp;
    --held[s.input_slot];
    --flits_per_router[s.router];
    if (a.flit.tail) {
      owner_[s.out_channel] = -1;
      s.out = -1;
      routed[s.mask_word] &= ~s.mask_bit;
      if (s.count > 0) {
        add_waiting(b);  // the next packet's header
      }
    }
  };
  // A granted move departs at once, or is deferred (above).
  const auto move = [&](std::uint32_t b, bool speculative) {
    if (!speculative || state[state[b].target].departed == stamp) {
      depart(b);
    } else {
      mover_of[b] = static_cast<std::int32_t>(deferred_.size());
      deferred_.push_back({b, kUnknown});
    }
  };
  const bool one_mask_word = mask_words_ == 1;
  // The routers the last cycle emptied leave active_ here, in its order (idle_routers_in_active_;
  // a router's flits change during the pass only by its own moves, after its check).
  std::uint32_t* const active = active_.data();
  const std::size_t routers = active_.size();
  std::size_t kept = 0;
  for (std::size_t place = 0; place < routers; ++place) {
    const std::uint32_t r = active[place];
    if (flits_per_router[r] == 0) {
      is_active_[r] = 0;
      continue;
    }
    active[kept++] = r;
    if (one_mask_word) {
      // A router with one routed, occupied buffer at most: its request, if any, is the router's
      // only one and is granted (the candidates and the ports' checks below give the same).
      const std::uint64_t bits = occupied[r] & routed[r];
      if ((bits & (bits - 1)) == 0) {
        if (bits != 0) {
          const std::uint32_t b =
              buffer_base_[r] + static_cast<std::uint32_t>(__builtin_ctzll(bits));
          const SwitchRequest request = switch_request(b, c);
          if (request != SwitchRequest::kNone) {
            move(b, request == SwitchRequest::kSpeculative);
          }
        }
        continue;
      }
    }
    const std::size_t count = collect_switch_candidates(r, c);
    for (std::size_t k = 0; k < count; ++k) {
      const std::uint32_t b = candidates[k].buffer;
      if (count > 1) {
        std::uint64_t& out_used = port_used[static_cast<std::uint32_t>(candidates[k].key)];
        std::uint64_t& in_used = input_used[state[b].input_slot];
        if (out_used == stamp || in_used == stamp) {
          continue;
        }
        out_used = stamp;
        in_used = stamp;
      }
      move(b, (candidates[k].key >> 32) != 0);
    }
  }
  active_.resize(kept);
  stats_.router_steps -= routers - kept;  // allocate_virtual_channels counted them
  idle_routers_in_active_ = true;
  // The deferred moves: each happens when the head of the buffer ahead has left, or when that
  // head's own deferred move happens; a chain that comes back to a move on it is a ring of full
  // buffers, which does not rotate.
  Deferred* const deferred = deferred_.data();
  std::uint32_t* const chain = chain_.data();
  for (std::size_t d = 0; d < deferred_.size(); ++d) {
    std::size_t length = 0;
    std::size_t x = d;
    bool ok = false;
    for (;;) {
      if (deferred[x].state != kUnknown) {
        ok = deferred[x].state == kYes;  // in progress: a ring
        break;
      }
      deferred[x].state = kInProgress;
      chain[length++] = static_cast<std::uint32_t>(x);
      const auto ahead = static_cast<std::uint32_t>(state[deferred[x].from].target);
      if (state[ahead].departed == stamp) {
        ok = true;
        break;
      }
      const std::int32_t next = mover_of[ahead];
      if (next < 0) {
        break;  // that head did not win the switch
      }
      x = static_cast<std::size_t>(next);
    }
    // The chain's moves happen from its end back, each freeing the buffer the one before enters.
    for (std::size_t k = length; k-- > 0;) {
      deferred[chain[k]].state = ok ? kYes : kNo;
      if (ok) {
        depart(deferred[chain[k]].from);
      }
    }
  }
  for (const Deferred& d : deferred_) {
    mover_of[d.from] = -1;
  }
  // Every departure is an arrival of the cycle (into a buffer, or out).
  stats_.flit_hops += pushed;
  const std::uint64_t in_routers = flits_in_routers_ - pushed - ejected;
  // The interfaces, in their order, after the routers' moves: into room at the start of the
  // cycle, or into a full buffer whose head may leave and has left.
  inject_arrivals(
      arrivals, pushed, c,
      [&](std::uint32_t target) {
        return count_at_start(target, stamp) < depth ||
               (full_buffer_frees(target, c) && state[target].departed == stamp);
      },
      [](const Arrival&) {});
  // The pushes, then the ejections, each in the order of their moves (the client sees only the
  // ejections, with the network's flits after the cycle, as after move_flits_one_vc).
  for (std::size_t k = 0; k < pushed; ++k) {
    push<false>(static_cast<std::uint32_t>(arrivals[k].to), arrivals[k].flit, c);
  }
  flits_in_routers_ = in_routers + pushed;
  for (std::size_t k = 0; k < ejected; ++k) {
    const Flit& f = (last - k)->flit;
    eject_flit(f.packet, f.index, f.word, c);
  }
  count_moves(pushed + ejected, c);
}

template <bool kNumbered>
inline void Fabric::enter_router(std::uint32_t r) {
  if (flits_per_router_[r]++ == 0 && !is_active_[r]) {
    is_active_[r] = 1;
    if (kNumbered) {
      activated_[r] = ++activations_;
      active_place_[r] = static_cast<std::uint32_t>(active_.size());
    }
    active_.push_back(r);
  }
}

template <bool kVirtualChannels>
inline void Fabric::enter_worm_buffer(std::uint32_t b, const Flit& f, sw::Cycle c) {
  BufferState& s = state_[b];
  if (s.count != 0) {
    throw std::logic_error("fabric: buffer overflow at " + std::to_string(b));
  }
  Flit& slot_flit = flits_[b];
  slot_flit = f;
  slot_flit.pushed = c;
  s.count = 1;
  occupied_[s.mask_word] |= s.mask_bit;
  if (kVirtualChannels && s.out < 0) {
    add_waiting(b);
  }
  enter_router<true>(s.router);
  // The flits of all virtual channels of the input port: with one, its one buffer's flit.
  channels_.held_at(s.input_slot, kVirtualChannels ? ++held_[s.input_slot] : 1);
}

// ---- whole worms ----------------------------------------------------------------------------
//
// With one virtual channel and one-flit buffers a worm's flits sit in consecutive buffers of its
// route, one each, and move together: a body flit's buffer is routed (the worm holds its output
// channel until the tail leaves), and the buffer ahead of it is full and frees exactly when the
// flit ahead leaves, which allocate_switches_one_vc grants, so every flit of the worm moves when
// its front does, and none when it does not; the interface feeding a worm that is still
// injecting moves with it too. The buffer ahead of a front is empty, or holds the tail of another
// worm (its flits came through the same output channel before this worm took it), so "the front
// may move" is full_buffer_frees' chain taken a worm at a time.
// A moving worm's flits shift one buffer along its path; only its two ends change a buffer's
// count, a router's flits or a channel's owner. What the order of the moves decides is done in
// that order: the routers that become active (fronts entering routers, in the order of their
// moves, then the injections), the interfaces' words (injections, in their order) and the
// ejections (in the order of their moves). The order of a front's move is its router's place in
// active_ (the order of activation), then sure before speculative, then the output port, as in
// allocate_switches_one_vc. Nothing else depends on the order, and this mode runs unobserved, so
// the client hears the same calls in the same order and the counters end the same.
void Fabric::move_worms(sw::Cycle c) {
  const std::uint64_t stamp = (c.count() + 1) << 2;
  BufferState* const state = state_.data();
  Flit* const flits = flits_.data();
  // worm_moves' answer, without its chain where it is known or the front's move is sure.
  const auto moves = [&](std::uint32_t p) {
    Worm& w = worms_[p];
    if ((w.moves & ~std::uint64_t{3}) == stamp) {
      return (w.moves & 3) == kYes;
    }
    const BufferState& s = state[w.path.back()];
    if (s.out >= 0 && (s.target < 0 || state[s.target].count == 0)) {
      w.moves = stamp | kYes;
      return true;
    }
    return worm_moves(p, stamp);
  };
  fronts_.clear();
  for (const std::uint32_t p : in_flight_) {
    if (!moves(p)) {
      continue;
    }
    const Worm& w = worms_[p];
    const std::uint32_t f = w.path.back();
    const BufferState& s = state[f];
    const std::uint32_t r = state_[f].router;
    const bool speculative = s.target >= 0 && state[s.target].count > 0;
    const bool activates = s.target >= 0 && !is_active_[state_[s.target].router];
    if (s.target < 0) {
      ejected_[f] = {c.count() + 1, flits[f]};  // ejected in order by eject_listed
    }
    fronts_.push_back(
        {activated_[r] << 8 | (speculative ? 128U : 0U) | (s.out_port - out_port_base_[r]), p,
         s.target, activates, flits[f]});
  }
  injecting_now_.clear();
  ni_.for_each_offer(c, [&](std::uint32_t i) {
    const std::uint32_t t = injection_buffer_[i];
    if (state[t].count == 0 || moves(flits[t].packet)) {
      injecting_now_.push_back(i);
    }
  });
  // Shift: each flit into the buffer of the flit ahead; the oldest buffer empties (an injecting
  // worm's is filled again below), and the tail leaving it frees its output channel.
  std::uint64_t moved = 0;
  std::uint64_t hops = 0;
  std::uint64_t in_routers = flits_in_routers_;
  for (const Front& front : fronts_) {
    Worm& w = worms_[front.packet];
    const std::uint32_t* const path = w.path.data();
    const std::uint32_t begin = w.begin;
    const auto end = static_cast<std::uint32_t>(w.path.size());
    for (std::uint32_t k = end - 1; k > begin; --k) {
      Flit& to = flits[path[k]];
      to = flits[path[k - 1]];
      to.pushed = c;
    }
    moved += end - begin;
    hops += end - begin - (front.to < 0 ? 1 : 0);
    const std::uint32_t oldest = path[begin];
    BufferState& s = state[oldest];
    s.count = 0;
    occupied_[s.mask_word] &= ~s.mask_bit;
    if (--flits_per_router_[s.router] == 0) {
      emptied_.push_back(s.router);
    }
    --in_routers;
    if (flits[oldest].tail) {
      owner_[s.out_channel] = -1;
      s.out = -1;
      routed_[s.mask_word] &= ~s.mask_bit;
      if (++w.begin == w.path.size()) {
        w.path.clear();
        w.begin = 0;
      }
    }
  }
  // Fronts into buffers. Only two kinds of move depend on their order: those that make a router
  // active (into a router that held no flits at the start of the cycle) and the ejections; they
  // are done in the order of their moves (their keys are distinct: one move per output port;
  // the ejections by eject_listed), the others as they come.
  ordered_.clear();
  for (std::uint32_t k = 0; k < fronts_.size(); ++k) {
    const Front& front = fronts_[k];
    if (front.to < 0) {
      continue;
    }
    if (front.activates) {
      ordered_.push_back(k);
      continue;
    }
    const auto t = static_cast<std::uint32_t>(front.to);
    enter_worm_buffer<false>(t, front.flit, c);
    worms_[front.packet].path.push_back(t);
    ++in_routers;
  }
  if (ordered_.size() > 1) {
    std::sort(ordered_.begin(), ordered_.end(), [this](std::uint32_t x, std::uint32_t y) {
      return fronts_[x].order < fronts_[y].order;
    });
  }
  for (const std::uint32_t k : ordered_) {
    const Front& front = fronts_[k];
    const auto t = static_cast<std::uint32_t>(front.to);
    enter_worm_buffer<false>(t, front.flit, c);
    worms_[front.packet].path.push_back(t);
    ++in_routers;
  }
  // The interfaces, in their order: a header starts a worm; a later flit refills its worm's
  // oldest buffer, which stays on the worm's path.
  for (const std::uint32_t i : injecting_now_) {
    const Flit f = take_injected(i, c);
    const std::uint32_t t = injection_buffer_[i];
    enter_worm_buffer<false>(t, f, c);
    ++in_routers;
    if (f.index == 0) {
      if (worms_.size() <= f.packet) {
        worms_.resize(ni_.packet_slots());
      }
      Worm& w = worms_[f.packet];
      w.path.assign(1, t);
      w.begin = 0;
      w.moves = 0;
      in_flight_.push_back(f.packet);
      if (worm_requests_.size() < in_flight_.size()) {
        worm_requests_.resize(2 * in_flight_.size());
      }
    }
  }
  flits_in_routers_ = in_routers;
  eject_listed(c);
  // Worms whose tail has left.
  in_flight_.erase(std::remove_if(in_flight_.begin(), in_flight_.end(),
                                  [this](std::uint32_t p) { return worms_[p].path.empty(); }),
                   in_flight_.end());
  stats_.flit_hops += hops;
  count_moves(moved + injecting_now_.size(), c);
  retire_emptied_routers();
}

// ---- worms in deep buffers ----------------------------------------------------------------
//
// With one virtual channel and buffers deeper than one flit a worm's flits fill a run of
// consecutive buffers of its route (its segments, one or more flits each, the oldest segment
// first): a buffer passes the output channel to the next packet only after the tail of the one
// before has left, so within a buffer the worms queue whole, and only the oldest segment of a
// worm may share its buffer with a newer worm behind, and only the newest with an older worm
// ahead. Every segment's head is routed (the worm holds its output channels until its tail has
// left), except while the header at the newest segment's head waits for one. So the moves of
// move_flits_one_vc are, worm by worm: the newest segment's head moves when it is the worm's and
// routed and the buffer ahead has room (a free slot, or a head that leaves); each other segment's head moves when the
// buffer of the segment ahead has a free slot or its head moves. The segments that move are the
// oldest up to the highest that does (each segment below one that moves finds room), and only
// three buffers change their count: the oldest (its head leaves), the one above the highest
// (a flit enters it, or the front's flit leaves the worm into the next buffer or out), and the
// others each pass their head on and take the flit behind it, which only shifts the flits. A
// free-flowing worm (its front moving, or its header waiting with room behind it) thus costs the
// copy of one flit per segment and the bookkeeping of its two ends, instead of a router visit
// and two buffers' counts, masks and arrival records per flit.
//
// The decisions are move_flits_one_vc's, from the state at the start of the cycle, whatever
// the order of the worms: a worm reads the counts of its own buffers, the count of the buffer
// ahead of its front (another worm's oldest, or empty) and, when that buffer is full,
// full_buffer_frees' chain, which enters other worms only at their oldest segment. A worm moved
// earlier in the pass has there either not moved (its buffers are as at the start) or moved its
// oldest flit (a free slot, as when that head leaves); arrivals into another worm's buffers are
// pushed after the pass; the flits entering a worm's own buffer above its highest moving
// segment (whose head stays) only that worm reads. The moves whose order is seen are ordered as
// in move_flits_one_vc: the fronts into routers idle at the start of the cycle and the ejections
// by their router's activation (activated_: active_'s order) and output port; the interfaces'
// injections after the routers' moves, in their order.
void Fabric::move_deep_worms(sw::Cycle c) {
  BufferState* const state = state_.data();
  Flit* const flits = flits_.data();
  std::uint64_t* const occupied = occupied_.data();
  std::uint64_t* const routed = routed_.data();
  std::uint32_t* const flits_per_router = flits_per_router_.data();
  const std::uint8_t* const is_active = is_active_.data();
  Arrival* const arrivals = arrivals_.data();
  const std::uint32_t depth = depth_;
  // The slot `at` places behind the slot `head` of buffer b (at < 2 depth).
  const auto slot_at = [depth](std::uint32_t b, std::uint32_t at) {
    return std::size_t{b} * depth + (at < depth ? at : at - depth);
  };
  std::size_t arrived = 0;             // arrivals [0, arrived): pushed in their order
  std::size_t top = arrivals_.size();  // arrivals [top, size): ordered_arrivals_
  std::uint64_t hops = 0;
  std::uint64_t direct = 0;  // moves within a worm's own buffers, done in place
  std::uint64_t in_routers = flits_in_routers_;
  ordered_arrivals_.clear();
  for (const std::uint32_t p : in_flight_) {
    Worm& w = worms_[p];
    const auto size = static_cast<std::uint32_t>(w.path.size());
    const std::uint32_t* const path = w.path.data() + w.begin;
    const std::int32_t newest = static_cast<std::int32_t>(size - w.begin) - 1;
    const std::uint32_t front = path[newest];
    const BufferState& fs = state[front];
    const bool front_is_own = flits[std::size_t{front} * depth + fs.head].packet == p;
    // The highest segment whose head moves (-1: none).
    std::int32_t highest = newest;
    if (!front_is_own || fs.out < 0 ||
        (fs.target >= 0 && state[fs.target].count >= depth &&
         !full_buffer_frees(static_cast<std::uint32_t>(fs.target), c))) {
      // The front stays: the segment below moves if the front's buffer has a free slot, or
      // (another worm's oldest at its head) that head leaves; each lower one if the buffer above
      // it has a free slot.
      highest = newest - 1;
      if (highest >= 0 && fs.count >= depth && (front_is_own || !full_buffer_frees(front, c))) {
        --highest;
        while (highest >= 0 && state[path[highest + 1]].count >= depth) {
          --highest;
        }
      }
    }
    if (highest < 0) {
      continue;
    }
    // From the highest moving segment down: each head into the buffer above, whose head left.
    bool tail_left = false;
    std::int32_t extends = -1;  // the buffer the front entered
    for (std::int32_t k = highest; k >= 0; --k) {
      const std::uint32_t x = path[k];
      BufferState& s = state[x];
      const Flit& f = flits[std::size_t{x} * depth + s.head];
      tail_left = f.tail;
      s.head = s.head + 1 == depth ? 0 : s.head + 1;
      if (k < highest) {
        const std::uint32_t y = path[k + 1];
        const BufferState& above = state[y];
        Flit& to = flits[slot_at(y, above.head + above.count - 1)];
        to = f;
        to.pushed = c;
        ++direct;
        continue;
      }
      if (k == newest) {
        // The front leaves the worm's buffers: into the next buffer, or out.
        const std::int32_t t = s.target;
        if (t < 0) {
          ejected_[x] = {c.count() + 1, f};  // ejected in order by eject_listed
          continue;
        }
        const bool seen = !is_active[state[t].router];
        Arrival& a = seen ? arrivals[--top] : arrivals[arrived++];
        a.to = t;
        a.flit = f;
        if (seen) {
          const std::uint32_t r = s.router;
          ordered_arrivals_.push_back({activated_[r] << 8 | (s.out_port - out_port_base_[r]),
                                       static_cast<std::uint32_t>(top)});
        }
        ++hops;
        extends = t;
        continue;
      }
      // Into the buffer above, whose head stays: in place when it is the worm's own head; after
      // the pass when another worm's oldest flit is at its head (that flit may leave in this
      // cycle, later in the pass: the buffer's peak occupancy is counted after it left).
      ++hops;
      const std::uint32_t y = path[k + 1];
      BufferState& above = state[y];
      if (k + 1 < newest || front_is_own) {
        Flit& to = flits[slot_at(y, above.head + above.count)];
        to = f;
        to.pushed = c;
        ++above.count;
        channels_.held_at(above.input_slot, above.count);
        ++flits_per_router[above.router];
        ++in_routers;
        ++direct;
      } else {
        Arrival& a = arrivals[arrived++];
        a.to = static_cast<std::int32_t>(y);
        a.flit = f;
      }
    }
    hops += static_cast<std::uint64_t>(highest);  // the moves below the highest, into buffers
    // The oldest segment's head left.
    const std::uint32_t oldest = path[0];
    BufferState& s = state[oldest];
    if (--flits_per_router[s.router] == 0) {
      emptied_.push_back(s.router);
    }
    --in_routers;
    if (--s.count == 0) {
      occupied[s.mask_word] &= ~s.mask_bit;
    }
    if (tail_left) {
      owner_[s.out_channel] = -1;
      s.out = -1;
      routed[s.mask_word] &= ~s.mask_bit;
      if (s.count > 0) {
        add_waiting(oldest);  // the next packet's header
      }
    }
    // The worm leaves its oldest buffer with its tail. (While the interface still injects the
    // worm, that buffer is its injection buffer, and when it empties the interface pushes the
    // next flit in the same cycle: an interface offers its packet's flits in every cycle once
    // it began, NetworkInterfaces::for_each_offer, and the buffer has room.)
    if (tail_left && ++w.begin == size) {
      w.path.clear();
      w.begin = 0;
    }
    if (extends >= 0) {
      w.path.push_back(static_cast<std::uint32_t>(extends));
    }
  }
  const std::size_t router_moves = arrived;
  // The interfaces, in their order, after the routers' moves: a header starts a worm, a later
  // flit joins its worm's oldest segment, the injection buffer.
  inject_arrivals(
      arrivals, arrived, c, [&](std::uint32_t target) { return has_room(target, c); },
      [&](const Arrival& a) {
        const std::uint32_t p = a.flit.packet;
        if (a.flit.index == 0) {
          if (worms_.size() <= p) {
            worms_.resize(ni_.packet_slots());
          }
          worms_[p].path.assign(1, static_cast<std::uint32_t>(a.to));
          worms_[p].begin = 0;
          in_flight_.push_back(p);
        }
      });
  stats_.flit_hops += hops;
  deliver_one_vc_arrivals(router_moves, arrived, direct, in_routers, c);
  // Worms whose tail has left.
  in_flight_.erase(std::remove_if(in_flight_.begin(), in_flight_.end(),
                                  [this](std::uint32_t p) { return worms_[p].path.empty(); }),
                   in_flight_.end());
}

void Fabric::clear_worms() {
  for (const std::uint32_t p : in_flight_) {
    worms_[p].path.clear();
    worms_[p].begin = 0;
  }
  in_flight_.clear();
}

template <class W, std::uint64_t W::*Memo, class Link>
bool Fabric::decide_chain(std::vector<W>& worms, std::uint32_t p, std::uint64_t stamp, Link link) {
  std::uint32_t* const chain = chain_.data();
  std::size_t length = 0;
  std::uint32_t x = p;
  bool yes = false;
  for (;;) {
    W& w = worms[x];
    if (((w.*Memo) & ~std::uint64_t{3}) == stamp) {
      yes = ((w.*Memo) & 3) == kYes;  // in progress: a ring of full buffers does not rotate
      break;
    }
    w.*Memo = stamp | kInProgress;
    chain[length++] = x;
    const ChainLink next = link(w);
    if (next.decided) {
      yes = next.yes;
      break;
    }
    x = next.ahead;
  }
  const std::uint64_t answer = stamp | (yes ? kYes : kNo);
  for (std::size_t k = 0; k < length; ++k) {
    worms[chain[k]].*Memo = answer;
  }
  return yes;
}

bool Fabric::worm_moves(std::uint32_t p, std::uint64_t stamp) {
  return decide_chain<Worm, &Worm::moves>(worms_, p, stamp, [this](const Worm& w) {
    const BufferState& s = state_[w.path.back()];
    if (s.out < 0) {
      return ChainLink{true, false, 0};  // the header waits for an output channel
    }
    if (s.target < 0 || state_[static_cast<std::uint32_t>(s.target)].count == 0) {
      return ChainLink{true, true, 0};
    }
    return ChainLink{false, false, flits_[static_cast<std::uint32_t>(s.target)].packet};
  });
}

// ---- runs of worms, several virtual channels ---------------------------------------------------
//
// With one-flit buffers a packet's flits lie in buffers of its route, one each, in order; the
// buffers it has entered and its tail has not left are held by it (their output channel is the
// packet's). Where its flits sit in consecutive buffers they form a run, and a run is what
// move_flits' rules move together: each of its buffers is routed, and the buffer ahead of each
// flit but the front is full and frees exactly when the flit ahead leaves. So every buffer of a
// run is a switch candidate or none is: full_buffer_frees asks, for the run's front, whether the
// buffer ahead is empty (a gap of the packet's own, or a buffer no packet holds a flit in) or
// holds the rear flit of another packet whose rear run may move (vc_worm_may_move). With several
// virtual channels two candidates may ask for one port (two virtual channels of a link, or of an
// input port); where no two do, every candidate is granted, and the run moves as one when its
// front's move happens (into an empty buffer, out, or into a full buffer whose flit leaves). A
// router where two candidates meet is contended: its candidates are served as move_flits serves
// them, and a run that loses a port at one of its buffers moves only ahead of that buffer (the
// flits behind it fail move_flits' feasibility chain): the run splits, and an empty buffer opens
// between the two. A run behind a gap moves into it (a sure move), and closes it when the run
// ahead stops.
// A moving run's flits shift one buffer along its path: only its two ends change a buffer's
// count, a router's flits, an input port's held flits or a channel's owner. The departures are
// done before the arrivals (as in commit), so the input ports' peaks are those of move_flits.
// What the order of the moves decides is done in that order, as move_worms does: fronts into
// routers that held no flits at the start of the cycle and the ejections, in the order of their
// moves (all sure moves: their router's activation number, its place in the general path's
// active_, then the output port), then the interfaces' injections in their order, then the
// ejections.
void Fabric::move_vc_worms(sw::Cycle c) {
  const std::uint64_t cycle_stamp = c.count() + 1;
  const std::uint64_t stamp = cycle_stamp << 2;
  BufferState* const state = state_.data();
  Flit* const flits = flits_.data();
  // The candidates: the buffers of the runs that may move. Two on one port contend. A front
  // run's move is decided here when no chain decides it (it moves from its last flit on unless
  // one of its candidates loses a port, which undoes the decision below).
  contended_.clear();
  for (const std::uint32_t p : vc_in_flight_) {
    VcWorm& w = vc_worms_[p];
    const auto end = static_cast<std::uint32_t>(w.path.size());
    for (std::size_t i = 0; i < w.runs.size(); ++i) {
      const VcRun run = w.runs[i];
      if (i == 0) {
        // vc_worm_may_move without its chain where the front does not wait for a worm ahead.
        const BufferState& front = state[w.path[run.hi - 1]];
        const std::int32_t t = front.target;
        bool may = false;
        if (run.hi < end || t < 0 || front.out < 0 || state[t].count == 0) {
          may = run.hi < end || front.out >= 0;
          w.may = stamp | (may ? kYes : kNo);
          w.front_from = may ? run.lo : run.hi;
          w.decided = stamp | kDecided;
        } else {
          may = vc_worm_may_move(p, stamp);
          if (!may) {
            w.front_from = run.hi;
            w.decided = stamp | kDecided;
          }
        }
        if (!may) {
          continue;
        }
      }
      for (std::uint32_t k = run.lo; k < run.hi; ++k) {
        const BufferState& s = state[w.path[k]];
        std::uint64_t& out = out_claim_[s.out_port];
        std::uint64_t& in = in_claim_[s.input_slot];
        if ((out == cycle_stamp || in == cycle_stamp) &&
            router_contended_[s.router] != cycle_stamp) {
          router_contended_[s.router] = cycle_stamp;
          contended_.push_back(s.router);
        }
        out = cycle_stamp;
        in = cycle_stamp;
      }
    }
  }
  // The contended routers' switch allocation, as in move_flits: the candidates that lose a port.
  std::uint64_t* const port_used = port_used_stamp_.data();
  std::uint64_t* const input_used = input_used_stamp_.data();
  const Candidate* const candidates = switch_candidates_.data();
  for (const std::uint32_t r : contended_) {
    const std::size_t count = collect_switch_candidates(r, c);
    for (std::size_t k = 0; k < count; ++k) {
      const std::uint32_t b = candidates[k].buffer;
      std::uint64_t& out_used = port_used[static_cast<std::uint32_t>(candidates[k].key)];
      std::uint64_t& in_used = input_used[state[b].input_slot];
      if (out_used == cycle_stamp || in_used == cycle_stamp) {
        lost_[b] = cycle_stamp;
        VcWorm& loser = vc_worms_[flits[b].packet];
        loser.lost = cycle_stamp;
        loser.decided = 0;  // decided above without the loss
        continue;
      }
      out_used = cycle_stamp;
      in_used = cycle_stamp;
    }
  }
  // Every front run's move is decided before any run moves (the chains read the runs ahead).
  for (const std::uint32_t p : vc_in_flight_) {
    if (vc_worms_[p].decided != (stamp | kDecided)) {
      static_cast<void>(vc_front_moves_from(p, stamp));
    }
  }
  // The interfaces, in their order: into an empty injection buffer, or one whose flit leaves.
  injecting_now_.clear();
  ni_.for_each_offer(c, [&](std::uint32_t i) {
    const std::uint32_t t = injection_buffer_[i];
    if (state[t].count == 0 || vc_rear_moves(t, stamp)) {
      injecting_now_.push_back(i);
    }
  });
  // The runs move: the flits from the first that moves on shift one buffer along the path; the
  // front's flit is set aside for its arrival, after every departure.
  fronts_.clear();
  std::uint64_t moved = 0;
  std::uint64_t hops = 0;
  std::uint64_t in_routers = flits_in_routers_;
  for (const std::uint32_t p : vc_in_flight_) {
    VcWorm& w = vc_worms_[p];
    const auto end = static_cast<std::uint32_t>(w.path.size());
    vc_runs_scratch_.clear();
    const std::size_t runs = w.runs.size();
    for (std::size_t i = 0; i < runs; ++i) {
      const VcRun run = w.runs[i];
      const std::uint32_t from = i == 0                  ? w.front_from
                                 : w.lost != cycle_stamp ? run.lo
                                                         : vc_run_granted_from(p, i, stamp);
      if (from == run.hi) {
        vc_runs_scratch_.push_back(run);
        continue;
      }
      const std::uint32_t front = w.path[run.hi - 1];
      const BufferState& fs = state[front];
      const std::int32_t to = run.hi < end ? static_cast<std::int32_t>(w.path[run.hi]) : fs.target;
      const std::uint32_t r = fs.router;
      fronts_.push_back({activated_[r] << 8 | (fs.out_port - out_port_base_[r]), p, to,
                         to >= 0 && !is_active_[state[to].router], flits[front]});
      for (std::uint32_t k = run.hi - 1; k > from; --k) {
        Flit& f = flits[w.path[k]];
        f = flits[w.path[k - 1]];
        f.pushed = c;
      }
      leave_vc_worm_buffer(w.path[from],
                           from + 1 < run.hi ? flits[w.path[from + 1]] : fronts_.back().flit);
      --in_routers;
      moved += run.hi - from;
      hops += run.hi - from - (to < 0 ? 1U : 0U);
      if (to >= 0 && run.hi == end) {
        w.path.push_back(static_cast<std::uint32_t>(to));
      }
      vc_runs_scratch_.push_back({from + 1, to < 0 ? run.hi : run.hi + 1});
      if (from > run.lo) {
        vc_runs_scratch_.push_back({run.lo, from});
      }
    }
    if (runs == 1 && vc_runs_scratch_.size() == 1) {
      w.runs[0] = vc_runs_scratch_[0];  // a run that moved whole, or stayed
      if (w.runs[0].lo == w.runs[0].hi) {
        w.runs.clear();  // its last flit left
      }
    } else {
      // Runs that met close their gap; a run whose flits all left is gone.
      w.runs.clear();
      for (const VcRun run : vc_runs_scratch_) {
        if (run.lo == run.hi) {
          continue;
        }
        if (!w.runs.empty() && w.runs.back().lo == run.hi) {
          w.runs.back().lo = run.lo;
        } else {
          w.runs.push_back(run);
        }
      }
    }
  }
  // Fronts into buffers: into routers active at the start of the cycle as they come; into idle
  // routers and out, in the order of their moves (their keys are distinct: one per output port).
  ordered_arrivals_.clear();
  for (std::uint32_t k = 0; k < fronts_.size(); ++k) {
    const Front& front = fronts_[k];
    if (front.to < 0 || front.activates) {
      ordered_arrivals_.push_back({front.order, k});
      continue;
    }
    enter_worm_buffer<true>(static_cast<std::uint32_t>(front.to), front.flit, c);
    ++in_routers;
  }
  sort_ordered_arrivals();
  for (const OrderedArrival& o : ordered_arrivals_) {
    const Front& front = fronts_[o.arrival];
    if (front.to >= 0) {
      enter_worm_buffer<true>(static_cast<std::uint32_t>(front.to), front.flit, c);
      ++in_routers;
    }
  }
  // The interfaces, in their order: a header starts a worm, a later flit joins its worm's rear
  // in the injection buffer, the first of its path.
  for (const std::uint32_t i : injecting_now_) {
    const Flit f = take_injected(i, c);
    const std::uint32_t t = injection_buffer_[i];
    enter_worm_buffer<true>(t, f, c);
    ++in_routers;
    if (vc_worms_.size() <= f.packet) {
      vc_worms_.resize(ni_.packet_slots());
    }
    VcWorm& w = vc_worms_[f.packet];
    if (f.index == 0) {
      w.path.assign(1, t);
      w.runs.assign(1, {0, 1});
      w.may = 0;
      w.decided = 0;
      w.lost = 0;
      vc_in_flight_.push_back(f.packet);
    } else if (w.path.empty() || w.path.front() != t || w.runs.empty() || w.runs.back().lo != 1) {
      // The injection buffer takes a flit only when it is empty or its flit leaves in the cycle,
      // so the flit before this one is at place 1 of the path, the rear of the worm's last run.
      throw std::logic_error("fabric: a packet's flit injected behind no worm's rear");
    } else {
      w.runs.back().lo = 0;
    }
  }
  flits_in_routers_ = in_routers;
  for (const OrderedArrival& o : ordered_arrivals_) {
    const Front& front = fronts_[o.arrival];
    if (front.to < 0) {
      eject_flit(front.flit.packet, front.flit.index, front.flit.word, c);
    }
  }
  // Worms whose tail has left.
  vc_in_flight_.erase(std::remove_if(vc_in_flight_.begin(), vc_in_flight_.end(),
                                     [this](std::uint32_t p) { return vc_worms_[p].runs.empty(); }),
                      vc_in_flight_.end());
  stats_.flit_hops += hops;
  count_moves(moved + injecting_now_.size(), c);
  retire_emptied_routers();
}

void Fabric::retire_emptied_routers() {
  for (const std::uint32_t r : emptied_) {
    if (flits_per_router_[r] == 0 && is_active_[r]) {
      is_active_[r] = 0;
      const std::uint32_t last = active_.back();
      active_[active_place_[r]] = last;
      active_place_[last] = active_place_[r];
      active_.pop_back();
    }
  }
  emptied_.clear();
}

bool Fabric::vc_worm_may_move(std::uint32_t p, std::uint64_t stamp) {
  return decide_chain<VcWorm, &VcWorm::may>(vc_worms_, p, stamp, [this](const VcWorm& w) {
    const VcRun run = w.runs.front();
    if (run.hi < w.path.size()) {
      return ChainLink{true, true, 0};  // a gap of its own ahead
    }
    const BufferState& s = state_[w.path[run.hi - 1]];
    if (s.out < 0) {
      return ChainLink{true, false, 0};  // the header waits for an output channel
    }
    if (s.target < 0 || state_[static_cast<std::uint32_t>(s.target)].count == 0) {
      return ChainLink{true, true, 0};
    }
    // The rear flit of the worm ahead: its rear run has a gap ahead, or is its front run.
    const std::uint32_t ahead = flits_[static_cast<std::uint32_t>(s.target)].packet;
    if (vc_worms_[ahead].runs.size() > 1) {
      return ChainLink{true, true, 0};
    }
    return ChainLink{false, false, ahead};
  });
}

std::uint32_t Fabric::vc_run_granted_from(std::uint32_t p, std::size_t run, std::uint64_t stamp) {
  const VcWorm& w = vc_worms_[p];
  const VcRun r = w.runs[run];
  if (run == 0 && r.hi == w.path.size() && !vc_worm_may_move(p, stamp)) {
    return r.hi;
  }
  const std::uint64_t cycle_stamp = stamp >> 2;
  if (w.lost != cycle_stamp) {
    return r.lo;  // none of its candidates lost a port
  }
  for (std::uint32_t k = r.hi; k > r.lo; --k) {
    if (lost_[w.path[k - 1]] == cycle_stamp) {
      return k;
    }
  }
  return r.lo;
}

std::uint32_t Fabric::vc_front_moves_from(std::uint32_t p, std::uint64_t stamp) {
  {
    // No chain: decided, or none moves, or the front moves into a gap, out or an empty buffer.
    VcWorm& w = vc_worms_[p];
    if (w.decided == (stamp | kDecided)) {
      return w.front_from;
    }
    const VcRun run = w.runs.front();
    const std::uint32_t from = vc_run_granted_from(p, 0, stamp);
    const std::int32_t t = state_[w.path[run.hi - 1]].target;
    if (from == run.hi || run.hi < w.path.size() || t < 0 ||
        state_[static_cast<std::uint32_t>(t)].count == 0) {
      w.front_from = from;
      w.decided = stamp | kDecided;
      return from;
    }
  }
  std::uint32_t* const chain = chain_.data();
  std::size_t length = 0;
  std::uint32_t x = p;
  bool last_happens = true;  // whether the last move on the chain, into a full buffer, happens
  for (;;) {
    VcWorm& w = vc_worms_[x];
    if ((w.decided & ~std::uint64_t{3}) == stamp) {
      // Decided; or being decided: a ring of full buffers, which does not rotate.
      last_happens = (w.decided & 3) == kDecided && w.front_from == w.runs.front().lo;
      break;
    }
    w.decided = stamp | kDeciding;
    chain[length++] = x;
    const VcRun run = w.runs.front();
    w.front_from = vc_run_granted_from(x, 0, stamp);
    if (w.front_from == run.hi || run.hi < w.path.size()) {
      break;  // none moves, or the front moves into a gap of its own
    }
    const BufferState& s = state_[w.path[run.hi - 1]];
    if (s.target < 0 || state_[static_cast<std::uint32_t>(s.target)].count == 0) {
      break;  // out, or into an empty buffer
    }
    // Into a full buffer: when the rear flit there moves.
    const std::uint32_t q = flits_[static_cast<std::uint32_t>(s.target)].packet;
    const VcWorm& ahead = vc_worms_[q];
    if (ahead.runs.size() > 1) {
      last_happens = vc_run_granted_from(q, ahead.runs.size() - 1, stamp) == ahead.runs.back().lo;
      break;
    }
    x = q;
  }
  if (length == 0) {
    return vc_worms_[p].front_from;
  }
  // From the chain's end back: each front moves when the rear flit of the worm ahead does.
  for (std::size_t k = length; k-- > 0;) {
    VcWorm& w = vc_worms_[chain[k]];
    const bool happens = k + 1 == length ? last_happens
                                         : vc_worms_[chain[k + 1]].front_from ==
                                               vc_worms_[chain[k + 1]].runs.front().lo;
    if (!happens) {
      w.front_from = w.runs.front().hi;
    }
    w.decided = stamp | kDecided;
  }
  return vc_worms_[p].front_from;
}

bool Fabric::vc_rear_moves(std::uint32_t t, std::uint64_t stamp) {
  const std::uint32_t q = flits_[t].packet;
  const VcWorm& w = vc_worms_[q];
  const std::size_t rear = w.runs.size() - 1;
  const std::uint32_t from =
      rear == 0 ? vc_front_moves_from(q, stamp) : vc_run_granted_from(q, rear, stamp);
  return from == w.runs[rear].lo;
}

void Fabric::leave_vc_worm_buffer(std::uint32_t b, const Flit& f) {
  BufferState& s = state_[b];
  s.count = 0;
  occupied_[s.mask_word] &= ~s.mask_bit;
  --held_[s.input_slot];
  if (--flits_per_router_[s.router] == 0) {
    emptied_.push_back(s.router);
  }
  if (f.tail) {
    owner_[s.out_channel] = -1;
    s.out = -1;
    routed_[s.mask_word] &= ~s.mask_bit;
  }
}

// A move into a full buffer happens when the departure from that buffer was granted and happens,
// the same question one move further: the chain is followed to a move into a buffer with room
// (or out of the network), or to a buffer whose head did not win the switch, or to a move already
// decided; every move on the chain gets the end's answer. A chain that comes back to a move on it
// is a ring of full buffers, which does not rotate.
bool Fabric::feasible(std::size_t m) {
  std::uint32_t* const chain = chain_.data();
  std::size_t length = 0;
  std::size_t x = m;
  bool ok = true;
  for (;;) {
    std::uint8_t& state = feasible_state_[x];
    if (state != kUnknown) {
      ok = state == kYes;  // in progress: a ring
      break;
    }
    state = kInProgress;
    chain[length++] = static_cast<std::uint32_t>(x);
    const std::int32_t to = moves_[x].to;
    if (to < 0 || state_[static_cast<std::size_t>(to)].count < depth_) {
      break;
    }
    const std::int32_t next = mover_of_[static_cast<std::size_t>(to)];
    if (next < 0) {
      ok = false;
      break;
    }
    x = static_cast<std::size_t>(next);
  }
  const std::uint8_t answer = ok ? kYes : kNo;
  for (std::size_t k = 0; k < length; ++k) {
    feasible_state_[chain[k]] = answer;
  }
  return ok;
}

// The flit enters its buffer at the tail.
template <bool kOneVcUnobserved>
inline void Fabric::push(std::uint32_t b, const Flit& f, sw::Cycle c) {
  BufferState& s = state_[b];
  const std::uint32_t depth = depth_;
  if (s.count >= depth) {
    throw std::logic_error("fabric: buffer overflow at " + std::to_string(b));
  }
  const std::uint32_t at = s.head + s.count;
  Flit& slot_flit = flits_[std::size_t{b} * depth + (at < depth ? at : at - depth)];
  slot_flit = f;
  slot_flit.pushed = c;
  if (s.count++ == 0) {
    occupied_[s.mask_word] |= s.mask_bit;
    if (s.out < 0) {
      if (wormhole_ && delay_ > sw::Cycle{1}) {
        add_pending(b, c + delay_);
      } else {
        add_waiting(b);  // it asks in the next cycle, or once its packet is in (header_ready)
      }
    }
  }
  if (!kOneVcUnobserved && observed_) {
    report_observed_buffer(b, c);
  }
  enter_router<kOneVcUnobserved>(s.router);  // numbered: move_deep_worms' order of the routers
  // The flits of all virtual channels of the input port (an injection channel has one; with
  // one virtual channel the input port's one buffer holds them all).
  const std::uint32_t input = s.input_slot;
  channels_.held_at(input, kOneVcUnobserved || single_vc_ ? s.count : ++held_[input]);
}

void Fabric::commit(sw::Cycle c) {
  const std::size_t moves = move_count_;
  if (!single_vc_) {
    feasible_state_.assign(moves, kUnknown);
  }
  BufferState* const state = state_.data();
  Flit* const flits = flits_.data();
  Arrival* const arrivals = arrivals_.data();
  const std::uint32_t depth = depth_;
  std::size_t arrived = 0;
  std::uint64_t hops = 0;
  std::uint64_t in_routers = flits_in_routers_;
  const bool single_vc = single_vc_;
  const bool observed = observed_;
  const Move* const granted = moves_.data();
  for (std::size_t m = 0; m < moves; ++m) {
    const Move mv = granted[m];
    // A move into a buffer with room always happens (feasible() without the call), and so does
    // one found feasible on an earlier move's chain.
    if (!single_vc && mv.to >= 0 && state[mv.to].count >= depth &&
        (feasible_state_[m] == kUnknown ? !feasible(m) : feasible_state_[m] != kYes)) {
      continue;
    }
    Arrival& a = arrivals[arrived++];
    a.to = mv.to;
    Flit& f = a.flit;
    if (mv.from >= 0) {
      const auto b = static_cast<std::uint32_t>(mv.from);
      BufferState& s = state[b];
      f = flits[std::size_t{b} * depth + s.head];
      s.head = s.head + 1 == depth ? 0 : s.head + 1;
      if (--s.count == 0) {
        occupied_[s.mask_word] &= ~s.mask_bit;
      }
      if (!single_vc) {
        --held_[s.input_slot];
      }
      if (observed) {
        report_observed_buffer(b, c);
      }
      --flits_per_router_[mv.router];
      --in_routers;
      if (f.tail) {
        owner_[mv.channel] = -1;
        s.out = -1;
        routed_[s.mask_word] &= ~s.mask_bit;
        if (s.count > 0) {
          add_waiting(b);  // the next packet's header
        }
      }
      if (mv.to >= 0) {
        ++hops;
        if (observed && f.index == 0) {
          const NetworkInterfaces::Packet& p = ni_.packet(f.packet);
          client_.packet_moved(FabricClient::PacketMove::Hop, p.message, mv.router,
                               mv.channel - out_vc_base_[mv.router], p.flits, c);
        }
      }
    } else {
      const auto injector = static_cast<std::uint32_t>(-1 - mv.from);
      f = take_injected(injector, c);
    }
  }
  stats_.flit_hops += hops;
  if (!single_vc) {
    for (std::size_t m = 0; m < moves; ++m) {
      if (granted[m].from >= 0) {
        mover_of_[static_cast<std::size_t>(granted[m].from)] = -1;
      }
    }
  }
  deliver_arrivals(arrived, in_routers, c);
  retire_idle_routers();
}

// The arrivals of commit, in the order of their moves: ejected flits to the interfaces, the
// others into their buffers.
void Fabric::deliver_arrivals(std::size_t arrived, std::uint64_t in_routers, sw::Cycle c) {
  const Arrival* const arrivals = arrivals_.data();
  for (std::size_t k = 0; k < arrived; ++k) {
    const Arrival& a = arrivals[k];
    if (a.to < 0) {
      flits_in_routers_ = in_routers;  // as the client may see it
      eject_flit(a.flit.packet, a.flit.index, a.flit.word, c);
      continue;
    }
    push(static_cast<std::uint32_t>(a.to), a.flit, c);
    ++in_routers;
  }
  flits_in_routers_ = in_routers;
  count_moves(arrived, c);
}

void Fabric::retire_idle_routers() {
  active_.erase(std::remove_if(active_.begin(), active_.end(),
                               [this](std::uint32_t r) {
                                 if (flits_per_router_[r] > 0) {
                                   return false;
                                 }
                                 is_active_[r] = 0;
                                 return true;
                               }),
                active_.end());
}

void Fabric::report_observed_buffer(std::uint32_t b, sw::Cycle c) {
  const std::uint32_t r = router_of_buffer(b);
  const std::uint32_t in = input_port_of(b);
  if (in >= description_.ports(r)) {
    return;  // an injection buffer (no channel feeds it)
  }
  // Only a channel's far end puts flits into a network input buffer, so the buffer has a feeder.
  const sw::PortLink& upstream = *description_.feeder(r, in);
  client_.buffer_changed(upstream.router, upstream.port, vc_of(b), state_[b].count,
                         c + sw::Cycle{1});
}

// ---- time ---------------------------------------------------------------------------------

std::optional<sw::Cycle> Fabric::next_cycle(sw::Cycle c) const {
  if (flits_in_routers_ > 0) {
    return c + sw::Cycle{1};
  }
  return ni_.next_offer(c);
}

// ---- reports ------------------------------------------------------------------------------

std::string Fabric::describe_deadlock() const {
  // Where each packet's header sits, and what a blocked header waits for.
  std::vector<std::int64_t> header_at(ni_.packet_slots(), -1);
  for (std::uint32_t b = 0; b < state_.size(); ++b) {
    for (std::uint32_t k = 0; k < state_[b].count; ++k) {
      if (flit_at(b, k).index == 0) {
        header_at[flit_at(b, k).packet] = b;
      }
    }
  }
  // The output virtual channel a blocked header waits for (the first of its first route).
  std::vector<Route> routes;
  const auto wanted = [&](std::uint32_t b) -> std::int64_t {
    if (state_[b].count == 0 || state_[b].out >= 0 || flit_at(b, 0).index != 0) {
      return -1;
    }
    routes.clear();
    append_routes(b, routes);
    return routes.front().lo;
  };
  std::string blocked;
  for (std::uint32_t start = 0; start < state_.size(); ++start) {
    if (wanted(start) < 0) {
      continue;
    }
    if (blocked.size() < 400) {
      blocked += (blocked.empty() ? "" : ", ") + std::string("message ") +
                 std::to_string(ni_.packet(flit_at(start, 0).packet).message) + " at n" +
                 std::to_string(router_of_buffer(start)) + " waits for " +
                 channel_name(router_of_buffer(start), static_cast<std::uint32_t>(wanted(start)));
    }
    // Follow: header -> the channel it wants -> the packet holding it -> that packet's header.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> chain;  // (router, out vc)
    std::uint32_t b = start;
    for (std::size_t guard = 0; guard <= state_.size(); ++guard) {
      const std::int64_t w = wanted(b);
      if (w < 0) {
        break;
      }
      const std::uint32_t r = router_of_buffer(b);
      const auto ov = static_cast<std::uint32_t>(w);
      const auto seen = std::find(chain.begin(), chain.end(), std::make_pair(r, ov));
      if (seen != chain.end()) {
        std::string text = "cycle of waiting channels: ";
        for (auto it = seen; it != chain.end(); ++it) {
          const std::int64_t holder = owner_[out_vc_base_[it->first] + it->second];
          text += channel_name(it->first, it->second) + " (held by message " +
                  std::to_string(
                      ni_.packet(flit_at(static_cast<std::uint32_t>(holder), 0).packet).message) +
                  ") -> ";
        }
        return text + channel_name(seen->first, seen->second);
      }
      chain.emplace_back(r, ov);
      const std::int64_t holder = owner_[out_vc_base_[r] + ov];
      if (holder < 0) {
        break;
      }
      const std::int64_t next = header_at[flit_at(static_cast<std::uint32_t>(holder), 0).packet];
      if (next < 0) {
        break;
      }
      b = static_cast<std::uint32_t>(next);
    }
  }
  return blocked.empty() ? "no blocked header" : "blocked headers: " + blocked;
}

}  // namespace orthosim::sc::net
