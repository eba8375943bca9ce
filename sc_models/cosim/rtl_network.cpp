// The verilated routers behind the model's network interfaces, and the lockstep comparison.
#include "sc_models/cosim/rtl_network.hpp"

#include <algorithm>
#include <bitset>
#include <stdexcept>
#include <utility>

#include "sw/core/diagnostic.hpp"

namespace orthosim::sc::net {

namespace {
constexpr std::uint32_t kRtlVcs = rtl::RouterNetworkRtl::kMaxVcs;
/// The clock's quarter period is the reset pulse: at least the kernel's 1 ns resolution.
constexpr std::uint32_t kMinPeriodNs = 4;
}  // namespace

/// The model's side under cosim: its words come from the real client, its deliveries go nowhere,
/// and its header departures and tail ejections of the cycle are kept for the comparison (bit
/// port * kMaxVcs + vc, as RouterNetworkRtl::header_departures), and its interfaces' outputs
/// (RtlInterfaces::Outputs) per node.
class RtlNetwork::ModelProbe final : public FabricClient {
 public:
  ModelProbe(FabricClient& client, std::uint32_t routers, std::uint32_t vcs)
      : heads(routers, 0), tails(routers, 0), interfaces(routers), client_(client), vcs_(vcs) {}
  /// Message `message` goes to node `dst`.
  void submitted(std::uint32_t message, std::uint32_t dst) {
    if (message >= dst_of_.size()) {
      dst_of_.resize(std::size_t{message} + 1, 0);
    }
    dst_of_[message] = dst;
  }
  sw::Word read_word(std::uint32_t message, std::uint32_t index) override {
    return client_.read_word(message, index);
  }
  void deliver_word(std::uint32_t message, std::uint32_t, sw::Word) override {
    ++interfaces[dst_of_[message]].dl_word;
  }
  void message_delivered(std::uint32_t message, sw::Cycle) override {
    ++interfaces[dst_of_[message]].dl_done;
  }
  void flit_injected(std::uint32_t node, std::uint32_t channel, bool message_start,
                     sw::Cycle) override {
    interfaces[node].inj_take |= 1U << channel;
    interfaces[node].inj_start |= (message_start ? 1U : 0U) << channel;
  }
  void packet_moved(PacketMove what, std::uint32_t, std::uint32_t router, std::uint32_t out,
                    std::uint32_t, sw::Cycle) override {
    if (what == PacketMove::Hop) {
      heads[router] |= 1U << (out / vcs_ * kRtlVcs + out % vcs_);
    } else if (what == PacketMove::Eject) {
      ++tails[router];
    }
  }
  /// The routers expose no per-virtual-channel occupancy: under cosim the waveform's buffer
  /// signals are the model's.
  void buffer_changed(std::uint32_t router, std::uint32_t port, std::uint32_t vc,
                      std::uint32_t flits, sw::Cycle at) override {
    if (observed) {
      client_.buffer_changed(router, port, vc, flits, at);
    }
  }
  void clear() {
    std::fill(heads.begin(), heads.end(), 0U);
    std::fill(tails.begin(), tails.end(), 0U);
    std::fill(interfaces.begin(), interfaces.end(), RtlInterfaces::Outputs{});
  }

  std::vector<std::uint32_t> heads, tails;
  std::vector<RtlInterfaces::Outputs> interfaces;
  bool observed = false;

 private:
  FabricClient& client_;
  std::uint32_t vcs_;
  std::vector<std::uint32_t> dst_of_;  ///< [message]
};

RtlNetwork::RtlNetwork(const sc_core::sc_module_name& name,
                       const sw::Validated<sw::NetworkConfig>& config, FabricClient& client,
                       const sc_core::sc_time& period, std::function<void(sw::Cycle)> cycle_done,
                       rtl::FstTrace* fst)
    : sc_core::sc_module(name),
      config_(config),
      client_(client),
      period_(period),
      cycle_done_(std::move(cycle_done)),
      ports_(static_cast<std::uint32_t>(config_.topology.ports().size())),
      channels_per_node_(config_.ni.ports == sw::NodePorts::All ? ports_ : 1),
      routers_("routers", config_, clk_),
      router_ports_(
          std::make_shared<const sw::RouterPorts>(config_.description(), config_.ni.ports)),
      ni_(config_, router_ports_, client_),
      rtl_ni_(config_.impl.network_interface == sw::Impl::Model
                  ? nullptr
                  : std::make_unique<RtlInterfaces>(config_, router_ports_, client_,
                                                    std::string(this->name()))),
      channels_(router_ports_) {
  if (period_ < sc_core::sc_time(kMinPeriodNs, sc_core::SC_NS)) {
    throw sw::ParameterError("clock-ns",
                             "router=rtl|cosim ({impl}) needs a clock period of at least " +
                                 std::to_string(kMinPeriodNs) +
                                 " ns: the cycle's halves and the reset pulse take whole "
                                 "nanoseconds");
  }
  if (config_.impl.router == sw::Impl::Cosim || config_.impl.network_interface == sw::Impl::Cosim) {
    probe_ = std::make_unique<ModelProbe>(client_, routers_.routers(), config_.router.vcs);
    model_ = std::make_unique<Fabric>(config, *probe_);
    model_->observe(true);
  }
  new_checkers();
  if (fst != nullptr) {
    routers_.trace_to(*fst);
    if (rtl_ni_) {
      rtl_ni_->trace_to(*fst);
    }
  }
  SC_THREAD(clocking);
}

RtlNetwork::~RtlNetwork() = default;

void RtlNetwork::check_message(const std::string& what, std::uint64_t words) const {
  if (rtl_ni_) {
    rtl_ni_->check_message(what, words);
  }
}

void RtlNetwork::submit(std::uint32_t message, std::uint32_t src, std::uint32_t dst,
                        std::uint32_t words) {
  if (rtl_ni_) {
    rtl_ni_->submit(message, src, dst, words);
  } else {
    ni_.submit(message, src, dst, words);
  }
  if (model_) {
    probe_->submitted(message, dst);
    model_->submit(message, src, dst, words);
  }
}

void RtlNetwork::new_checkers() {
  checkers_.clear();
  ni_checkers_.clear();
  for (std::uint32_t r = 0; model_ && r < routers_.routers(); ++r) {
    if (config_.impl.router == sw::Impl::Cosim) {
      checkers_.emplace_back(routers_.router_name(r));
    }
    if (config_.impl.network_interface == sw::Impl::Cosim) {
      ni_checkers_.emplace_back(rtl_ni_->name(r));
    }
  }
}

void RtlNetwork::reset() {
  ni_.reset();
  if (rtl_ni_) {
    rtl_ni_->reset();
  }
  channels_.reset();
  flits_in_routers_ = 0;
  refused_ = false;
  ejected_.clear();
  reset_pending_ = true;
  protocol_error_.reset();
  late_at_.reset();
  if (model_) {
    model_->reset();
  }
  new_checkers();
}

void RtlNetwork::observe(bool on) {
  observed_ = on;
  ni_.observe(on);
  if (rtl_ni_) {
    rtl_ni_->observe(on);
  }
  if (probe_) {
    probe_->observed = on;
  }
}

// ---- the cycle ----------------------------------------------------------------------------

void RtlNetwork::begin_cycle(sw::Cycle c) {
  cycle_ = c;
  if (reset_pending_) {
    reset_pending_ = false;
    ev_reset_.notify(sc_core::SC_ZERO_TIME);
  }
  routers_.clear_offers();
  offering_.clear();
  offering_nodes_.clear();
  if (rtl_ni_) {
    rtl_ni_->begin_cycle();
    offer_rtl_interfaces();
    if (model_) {
      probe_->clear();
      model_->begin_cycle(c);
    }
    ev_end_.notify(period_ / 2);
    return;
  }
  std::vector<rtl::RouterFlit> flits;
  const sw::Topology& t = config_.topology;
  ni_.for_each_offer(c, [&](std::uint32_t i) {
    const NetworkInterfaces::Flit offered = ni_.offered(i);
    const NetworkInterfaces::Packet& p = ni_.packet(offered.packet);
    rtl::RouterFlit f;
    f.head = offered.index == 0;
    f.tail = offered.index + 1 == p.flits;
    // The packet's id rides in the upper half of every flit: the ejection side knows its flits.
    f.data = f.head ? rtl::RouterNetworkRtl::header_data(t, p.dst, p.flits, offered.packet)
                    : (std::uint64_t{offered.packet} << 32) | offered.word;
    offering_.push_back(i);
    flits.push_back(f);
  });
  // An idle network (no flits, no offers) is left alone: not even `now` changes.
  edge_ = !offering_.empty() || flits_in_routers_ > 0;
  if (edge_) {
    routers_.set_cycle(c.count());
    for (std::size_t k = 0; k < offering_.size(); ++k) {
      routers_.offer(ni_.node_of(offering_[k]), ni_.channel_of(offering_[k]), flits[k]);
    }
  }
  routers_.drive_injections();
  if (model_) {
    probe_->clear();
    model_->begin_cycle(c);
  }
  ev_end_.notify(period_ / 2);
}

void RtlNetwork::offer_rtl_interfaces() {
  // An idle network (no flits in the routers, no offers) is left alone, as in begin_cycle.
  struct Offer {
    std::uint32_t node, channel;
    rtl::RouterFlit flit;
  };
  std::vector<Offer> offers;
  rtl_ni_->for_each_offer([&](std::uint32_t n, std::uint32_t j, const rtl::RouterFlit& f) {
    offers.push_back({n, j, f});
    if (offering_nodes_.empty() || offering_nodes_.back() != n) {
      offering_nodes_.push_back(n);
    }
  });
  edge_ = !offers.empty() || flits_in_routers_ > 0;
  if (edge_) {
    routers_.set_cycle(cycle_.count());
    for (const Offer& o : offers) {
      routers_.offer(o.node, o.channel, o.flit);
    }
  }
  routers_.drive_injections();
}

void RtlNetwork::clocking() {
  for (;;) {
    wait(ev_reset_ | ev_end_);
    if (ev_reset_.triggered()) {
      // rst_n low over one edge, released a quarter period before the cycle's second half.
      routers_.set_reset(true);
      clk_.write(false);
      wait(sc_core::SC_ZERO_TIME);
      clk_.write(true);
      wait(period_ / 4);
      clk_.write(false);
      routers_.set_reset(false);
      continue;
    }
    end_cycle(cycle_);
    if (edge_) {
      clk_.write(true);
    }
    // Until the next cycle's start, so that a run ends on the owner's clock edge; the clock
    // falls there.
    wait(period_ - period_ / 2);
    clk_.write(false);
  }
}

std::uint32_t RtlNetwork::rtl_input(std::uint32_t q) const {
  return q < ports_ ? q : rtl::RouterNetworkRtl::kMaxPorts + q - ports_;
}

bool RtlNetwork::check_flit(std::uint32_t r, sw::Cycle c, const char* signal, bool ok,
                            std::uint64_t expected, std::uint64_t got) {
  if (!ok && !protocol_error_) {
    protocol_error_ = Mismatch{c.count(), routers_.router_name(r), signal, expected, got};
  }
  return ok;
}

void RtlNetwork::end_cycle(sw::Cycle c) {
  if (edge_) {
    take_offers(c);
    for (std::uint32_t r = 0; r < routers_.routers() && !protocol_error_; ++r) {
      if (routers_.busy(r)) {  // a router without flits neither sends nor ejects
        end_cycle_of(r, c);
      }
    }
    if (rtl_ni_ && !protocol_error_) {
      rtl_ni_->deliver(c);
    }
  }
  if (model_) {
    compare(c);
  }
  cycle_done_(c);
}

void RtlNetwork::take_offers(sw::Cycle c) {
  refused_ = false;
  if (rtl_ni_) {
    for (const std::uint32_t n : offering_nodes_) {
      std::uint32_t ready = 0;
      for (std::uint32_t j = 0; j < channels_per_node_; ++j) {
        ready |= (routers_.inj_ready(n, j) ? 1U : 0U) << j;
      }
      rtl_ni_->take(n, ready, c);
      const std::uint32_t taken = rtl_ni_->outputs(n).inj_take;
      const auto count = static_cast<std::uint32_t>(std::bitset<32>(taken).count());
      stats_.flits_moved += count;
      flits_in_routers_ += count;
      refused_ = refused_ || taken != rtl_ni_->offered(n);
      if (count > 0) {
        last_move_ = c;
      }
    }
    return;
  }
  for (const std::uint32_t i : offering_) {
    if (routers_.inj_ready(ni_.node_of(i), ni_.channel_of(i))) {
      ni_.take(i, c);
      ++stats_.flits_moved;
      ++flits_in_routers_;
      last_move_ = c;
    } else {
      refused_ = true;
    }
  }
  if (ejected_.size() < ni_.packet_slots()) {
    ejected_.resize(ni_.packet_slots(), 0);
  }
}

void RtlNetwork::end_cycle_of(std::uint32_t r, sw::Cycle c) {
  ++stats_.router_steps;
  stats_.header_wait_cycles += routers_.hdr_waits(r);
  for (std::uint32_t q = 0; q < ports_ + channels_per_node_; ++q) {
    channels_.held(r, q, routers_.occupancy(r, rtl_input(q)));
  }
  for (const rtl::RouterNetworkRtl::Departure& d : routers_.departures(r)) {
    ++stats_.flit_hops;
    ++stats_.flits_moved;
    last_move_ = c;
    if (!d.flit.head) {
      continue;
    }
    const std::optional<RtlInterfaces::Header> h = departing_header(r, c, d.flit);
    if (!h) {
      return;
    }
    if (h->first_of_message) {
      channels_.routed(r, d.port, h->message);
    }
    if (observed_) {
      client_.packet_moved(FabricClient::PacketMove::Hop, h->message, r,
                           d.port * config_.router.vcs + d.vc, h->flits, c);
    }
  }
  for (const auto& [channel, f] : routers_.ejections(r)) {
    if (!eject(r, channel, f, c)) {
      return;
    }
    ++stats_.flits_ejected;
    ++stats_.flits_moved;
    --flits_in_routers_;
    last_move_ = c;
    stats_.packets_delivered += f.tail ? 1 : 0;
  }
}

// Every flit read back carries what names its packet: the model's interfaces put the packet's
// id in its upper half, the verilated ones their message's tag (and a header its destination).
std::optional<RtlInterfaces::Header> RtlNetwork::departing_header(std::uint32_t r, sw::Cycle c,
                                                                  const rtl::RouterFlit& f) {
  if (rtl_ni_) {
    const std::optional<RtlInterfaces::Header> h = rtl_ni_->header(f);
    check_flit(r, c, "out_flit", h.has_value(), 0, f.data);
    return h;
  }
  const auto id = static_cast<std::uint32_t>(f.data >> 32);
  const bool live = id < ni_.packet_slots() && ni_.packet(id).flits > 0;
  if (!check_flit(r, c, "out_flit", live, ni_.packet_slots(), id)) {
    return std::nullopt;
  }
  const NetworkInterfaces::Packet& p = ni_.packet(id);
  return RtlInterfaces::Header{p.message, p.flits, p.first_of_message};
}

bool RtlNetwork::eject(std::uint32_t r, std::uint32_t channel, const rtl::RouterFlit& f,
                       sw::Cycle c) {
  if (rtl_ni_) {
    // The interface reassembles; a flit of no message in flight to r is refused here.
    if (!check_flit(r, c, "ej_dst", rtl_ni_->arrives_at(r, f), r, f.data)) {
      return false;
    }
    rtl_ni_->eject(r, channel, f, c);
    return true;
  }
  const auto id = static_cast<std::uint32_t>(f.data >> 32);
  const bool live = id < ni_.packet_slots() && ni_.packet(id).flits > 0;
  if (!check_flit(r, c, "ej_flit", live, ni_.packet_slots(), id)) {
    return false;
  }
  const NetworkInterfaces::Packet& p = ni_.packet(id);
  const NetworkInterfaces::Flit flit{id, ejected_[id], f.head ? 0 : static_cast<sw::Word>(f.data)};
  // A flit lost, doubled or out of order in the routers shows here, before a word is misplaced.
  if (!check_flit(r, c, "ej_dst", p.dst == r, p.dst, r) ||
      !check_flit(r, c, "ej_head", f.head == (flit.index == 0), flit.index == 0, f.head) ||
      !check_flit(r, c, "ej_tail", f.tail == (flit.index + 1 == p.flits), flit.index + 1 == p.flits,
                  f.tail)) {
    return false;
  }
  ejected_[id] = f.tail ? 0 : flit.index + 1;
  ni_.eject(flit, c);
  return true;
}

void RtlNetwork::apply_fault(sw::Cycle c, std::uint32_t& value) {
  if (fault_->kind == Fault::Kind::FlipBit && c == fault_->at) {
    value ^= 1U << fault_->bit;
  } else if (fault_->kind == Fault::Kind::LateHeader && c >= fault_->at) {
    if (late_at_ && *late_at_ + sw::Cycle{1} == c) {
      value |= late_heads_;
    } else if (!late_at_ && value != 0) {
      late_at_ = c;
      late_heads_ = value;
      value = 0;
    }
  }
}

void RtlNetwork::compare(sw::Cycle c) {
  if (fault_) {
    RtlInterfaces::Outputs& ni = probe_->interfaces[fault_->router];
    apply_fault(c, !fault_->interface                     ? probe_->heads[fault_->router]
                   : fault_->kind == Fault::Kind::FlipBit ? ni.inj_take
                                                          : ni.inj_start);
  }
  for (std::uint32_t r = 0; r < checkers_.size(); ++r) {
    std::uint32_t tails = 0;
    for (const auto& [channel, f] : routers_.ejections(r)) {
      tails += f.tail ? 1U : 0U;
    }
    checkers_[r].check(c.count(), "out_head", probe_->heads[r], routers_.header_departures(r));
    checkers_[r].check(c.count(), "ej_tail", probe_->tails[r], tails);
  }
  for (std::uint32_t n = 0; n < ni_checkers_.size(); ++n) {
    const RtlInterfaces::Outputs& model = probe_->interfaces[n];
    const RtlInterfaces::Outputs& rtl = rtl_ni_->outputs(n);
    LockstepChecker& k = ni_checkers_[n];
    k.check(c.count(), "inj_take", model.inj_take, rtl.inj_take);
    k.check(c.count(), "inj_start", model.inj_start, rtl.inj_start);
    k.check(c.count(), "dl_word", model.dl_word, rtl.dl_word);
    k.check(c.count(), "dl_done", model.dl_done, rtl.dl_done);
  }
}

// ---- time and reports ---------------------------------------------------------------------

std::optional<sw::Cycle> RtlNetwork::next_cycle(sw::Cycle c) const {
  // The verilated interfaces count start-ups cycle by cycle: stepped while they hold messages.
  const bool busy = flits_in_routers_ > 0 || (rtl_ni_ && rtl_ni_->busy());
  std::optional<sw::Cycle> next = busy      ? std::optional<sw::Cycle>(c + sw::Cycle{1})
                                  : rtl_ni_ ? std::nullopt
                                            : ni_.next_offer(c);
  if (model_) {
    if (const std::optional<sw::Cycle> m = model_->next_cycle(c)) {
      next = next ? std::min(*next, *m) : *m;
    }
  }
  return next;
}

std::string RtlNetwork::describe_deadlock() const {
  std::string held;
  for (std::uint32_t r = 0; r < routers_.routers(); ++r) {
    std::uint32_t flits = 0;
    for (std::uint32_t q = 0; q < ports_ + channels_per_node_; ++q) {
      flits += routers_.occupancy(r, rtl_input(q));
    }
    if (flits > 0 && held.size() < 400) {
      held += (held.empty() ? "" : ", ") + routers_.router_name(r) + " (" + std::to_string(flits) +
              " flits)";
    }
  }
  std::string text = "verilated routers holding flits: " + (held.empty() ? "none" : held);
  if (model_) {
    text += "; the model: " + model_->describe_deadlock();
  }
  return text;
}

std::optional<Mismatch> RtlNetwork::mismatch() const {
  if (protocol_error_) {
    return protocol_error_;
  }
  if (rtl_ni_ && rtl_ni_->error()) {
    return rtl_ni_->error();
  }
  // The earliest cycle; of blocks that differ in it, routers before interfaces.
  std::optional<Mismatch> first;
  for (const std::vector<LockstepChecker>* ks : {&checkers_, &ni_checkers_}) {
    for (const LockstepChecker& k : *ks) {
      if (k.first_mismatch() && (!first || k.first_mismatch()->cycle < first->cycle)) {
        first = k.first_mismatch();
      }
    }
  }
  return first;
}

void RtlNetwork::inject_fault(const Fault& fault) {
  if (fault.interface ? ni_checkers_.empty() : checkers_.empty()) {
    throw std::logic_error(fault.interface ? "a test fault needs --impl ni=cosim"
                                           : "a test fault needs --impl router=cosim");
  }
  if (fault.router >= routers_.routers() || fault.bit >= 32) {
    throw std::logic_error("test fault: router or bit out of range");
  }
  fault_ = fault;
}

std::uint64_t RtlNetwork::comparisons() const {
  std::uint64_t n = 0;
  for (const std::vector<LockstepChecker>* ks : {&checkers_, &ni_checkers_}) {
    for (const LockstepChecker& k : *ks) {
      n += k.comparisons();
    }
  }
  return n;
}

NetworkFactory verilated_routers(rtl::FstTrace* fst) {
  return [fst](const sw::Validated<sw::NetworkConfig>& config, FabricClient& client,
               const sc_core::sc_time& period, std::function<void(sw::Cycle)> cycle_done) {
    return std::make_unique<RtlNetwork>("rtl", config, client, period, std::move(cycle_done), fst);
  };
}

void inject_fault(Multicomputer& system, const RtlNetwork::Fault& fault) {
  auto* rtl = dynamic_cast<RtlNetwork*>(&system.network());
  const sw::Impl impl =
      fault.interface ? system.config().impl.network_interface : system.config().impl.router;
  if (rtl == nullptr || impl != sw::Impl::Cosim) {
    throw sw::ConfigError(
        fault.interface ? "a test fault in the interfaces needs --impl ni=cosim"
                        : "a test fault in the routers needs --impl router=cosim");
  }
  rtl->inject_fault(fault);
}

}  // namespace orthosim::sc::net
