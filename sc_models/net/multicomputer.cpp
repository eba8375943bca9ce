// A multicomputer running routed programs or synthetic traffic on its fabric.
#include "sc_models/net/multicomputer.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "sc_models/kernel/sliced_run.hpp"
#include "sc_models/net/fabric.hpp"
#include "sc_models/net/network_interfaces.hpp"
#include "sw/core/diagnostic.hpp"
#include "sw/machine/payload.hpp"
#include "traces/trace_stats.hpp"

namespace orthosim::sc {

Multicomputer::Multicomputer(const sc_core::sc_module_name& name,
                             const sw::Validated<sw::NetworkConfig>& config,
                             traces::Recorder& recorder, const NetworkFactory& verilated)
    : sc_core::sc_module(name),
      config_(config),
      clock_(config->clock_period_ns),
      recorder_(recorder) {
  net::FabricClient& client = *this;
  if (config_.impl.router == sw::Impl::Model) {
    network_ = std::make_unique<net::Fabric>(config, client);
  } else if (verilated) {
    network_ =
        verilated(config, client, clock_.delay(Cycle{1}), [this](Cycle c) { finish_cycle(c); });
  } else {
    throw sw::ParameterError("impl", std::string("router=") + sw::to_string(config_.impl.router) +
                                         " needs the verilated routers, which this program was "
                                         "built without");
  }
  const std::string base = sc_core::sc_module::name();
  const net::FabricStats& s = network_->stats();
  stats_.add(base + ".flits_moved", &s.flits_moved, "flits",
             "flit moves: injection, hops, ejection");
  stats_.add(base + ".flit_hops", &s.flit_hops, "flits",
             "flits that crossed a router-to-router link");
  stats_.add(base + ".flits_ejected", &s.flits_ejected, "flits", "flits handed to the interfaces");
  stats_.add(base + ".packets_delivered", &s.packets_delivered, "packets",
             "packets whose tail arrived");
  stats_.add(base + ".header_wait_cycles", &s.header_wait_cycles, "cycles",
             "cycles ready headers waited for a virtual channel");
  stats_.add(base + ".router_steps", &s.router_steps, "steps",
             "router visits by the network process (only routers holding flits are visited)");
  const sw::TopologyDescription& d = network_->description();
  for (std::uint32_t n = 0; n < d.nodes(); ++n) {
    node_sources_.push_back(recorder_.register_source(base + ".node" + std::to_string(n),
                                                      traces::SourceKind::Processor));
  }
  // Router output ports by block: "torus.r(2,1).x+" is the x+ port of the router at x=2, y=1.
  for (std::uint32_t r = 0; r < d.routers(); ++r) {
    const std::string router = base + "." + d.router_label(r) + ".";
    for (std::uint32_t q = 0; q < d.ports(r); ++q) {
      channel_sources_.push_back(
          recorder_.register_source(router + d.port_name(r, q), traces::SourceKind::Channel));
      recorder_.channel_vcs(channel_sources_.back(), config_.router.vcs);
    }
  }
  network_->observe(recorder_.enabled());
  SC_METHOD(tick);
  sensitive << ev_tick_;
  dont_initialize();
}

Cycle Multicomputer::next_start() const {
  // A run begins in the cycle after the previous one's last, whichever network ran it (the
  // verilated one ends its last cycle on the next clock edge, the model at its start).
  return stepped_ ? std::max(now(), last_cycle_ + Cycle{1}) : now();
}

void Multicomputer::corrupt_deliveries(std::uint32_t node, std::uint32_t bit) {
  corrupted_deliveries_ = {node, sw::Word{1} << bit};
}

void Multicomputer::request_tick(Cycle at) {
  if (tick_pending_ && tick_at_ <= at) {
    return;
  }
  tick_pending_ = true;
  tick_at_ = at;
  // Not now(): under verilated routers the cycle ends (finish_cycle) between clock edges.
  ev_tick_.notify(clock_.until(at));
}

// ---- routed programs ----------------------------------------------------------------------

void Multicomputer::validate(const sw::RoutedProgram& program) const {
  const std::uint32_t n = config_.nodes();
  if (program.network_nodes != n) {
    throw sw::ConfigError("program '" + program.name + "' is compiled for " +
                          std::to_string(program.network_nodes) + " nodes, the network has " +
                          std::to_string(n));
  }
  for (const sw::Message& m : program.manifest.messages) {
    network_->check_message("message " + std::to_string(m.id), m.words);
    const std::uint64_t packets = config_.message_packets(m.words);
    const std::uint64_t largest =
        config_.ni.packet_flits == 0
            ? m.words + 1
            : std::min<std::uint64_t>(config_.ni.packet_flits, m.words + packets);
    if (config_.router.switching == sw::Switching::StoreAndForward &&
        largest > config_.router.buffer_flits) {
      throw sw::ParameterError(
          "buffers", "store-and-forward needs buffers that hold a whole packet: message " +
                         std::to_string(m.id) + " has packets of " + std::to_string(largest) +
                         " flits, buffers hold " + std::to_string(config_.router.buffer_flits) +
                         " ({buffers}, or smaller packets with {packet-flits})");
    }
  }
}

std::uint64_t Multicomputer::footprint(const sw::RoutedProgram& program,
                                       const sw::NetworkConfig& config) {
  // Per node: its router's buffers, allocation state and interface, and its recorder sources,
  // measured on a 16x16 torus with 2 virtual channels rounded up.
  constexpr std::uint64_t kNodeBytes = 4 * 1024;
  constexpr std::uint64_t kPacketBytes = sizeof(net::NetworkInterfaces::Packet) + 16;
  const std::uint32_t nodes = config.nodes();
  // Per message: its manifest entry, its state and what arrived of it; no payload word is held
  // outside the packets (the arrival check).
  std::uint64_t bytes =
      std::uint64_t{nodes} * kNodeBytes +
      program.manifest.messages.size() *
          (sizeof(sw::Message) + sizeof(MessageState) + sw::ArrivalCheck::kBytesPerMessage);
  for (const std::vector<sw::routed::Op>& ops : program.ops) {
    bytes += ops.size() * sizeof(sw::routed::Op);
  }
  std::vector<std::uint64_t> step_packets;  ///< a step's messages are in flight together
  for (const sw::Message& m : program.manifest.messages) {
    if (m.payload.tag >= step_packets.size()) {
      step_packets.resize(std::size_t{m.payload.tag} + 1, 0);
    }
    step_packets[m.payload.tag] += config.message_packets(m.words);
  }
  if (!step_packets.empty()) {
    bytes += *std::max_element(step_packets.begin(), step_packets.end()) * kPacketBytes;
  }
  return bytes;
}

void Multicomputer::load(sw::RoutedProgram program) {
  validate(program);
  network_->reset();
  network_->deliveries_in_any_order(false, 0);  // a node program may answer in delivery order
  baseline_ = network_->stats();
  stats_baseline_ = stats_.snapshot();
  traffic_.reset();
  deadlocked_ = false;
  stopped_at_limit_.reset();
  deadlock_.clear();
  // The traffic's packet states: a program keeps none.
  messages_.clear();
  messages_.shrink_to_fit();
  start_ = next_start();
  recording_ = recorder_.enabled();
  if (recording_) {
    recorder_.run_begin(start_, "program " + program.name);
  }
  std::vector<std::uint32_t> step_of;
  step_of.reserve(program.manifest.messages.size());
  for (const sw::Message& m : program.manifest.messages) {
    step_of.push_back(m.payload.tag);  // route_program tags a message with its step
  }
  network_->channels().group_by_step(std::move(step_of));
  program_.emplace(std::move(program), start_, *network_, recorder_, node_sources_);
  request_tick(start_);
}

void Multicomputer::run(Cycle limit, const std::function<void()>& between) {
  // The cycle `limit` itself still runs: a run may last exactly `limit` cycles.
  run_in_slices(clock_.delay(limit + Cycle{1}), clock_.delay(kFirstProgressSlice), between);
  // Events still pending: the limit stopped the run, not the lack of anything to do.
  if (sc_core::sc_pending_activity()) {
    stopped_at_limit_ = limit;
  }
}

sw::NetworkRunSummary Multicomputer::result() const {
  sw::NetworkRunSummary r;
  r.completed = !deadlocked_;
  if (program_) {
    const std::vector<std::string> unfinished = program_->unfinished();
    if (!unfinished.empty()) {
      r.completed = false;
      if (stopped_at_limit_ && !deadlocked_) {
        r.cycle_limit_reached = true;
      } else {
        r.blocked = unfinished;
      }
    }
    r.cycles = program_->cycles();
    r.step_ends = program_->step_ends();
  }
  if (deadlocked_) {
    r.blocked.insert(r.blocked.begin(), "network deadlock: " + deadlock_);
  }
  if (r.cycle_limit_reached) {
    r.cycles = *stopped_at_limit_;
    r.blocked.push_back("cycle limit reached: the run stopped after " +
                        std::to_string(r.cycles.count()) + " cycles, still running");
  }
  if (program_) {
    r.delivery = program_->check_delivery(!r.cycle_limit_reached);
  }
  r.max_channel_contention = network_->channels().max_contention();
  r.step_max_channel_contention = network_->channels().max_contention_per_step();
  r.peak_channel_occupancy = network_->channels().peak_occupancy();
  r.channels = network_->channels().reports();
  r.mismatch = network_->mismatch();
  r.stats = stats_.snapshot();
  for (std::size_t i = 0; i < r.stats.size(); ++i) {
    r.stats[i].value -= stats_baseline_.at(i).value;
  }
  return r;
}

// ---- the fabric's client ------------------------------------------------------------------

sw::Word Multicomputer::read_word(std::uint32_t message, std::uint32_t index) {
  if (traffic_) {
    return message_state(message).payload[index];
  }
  return program_->read_word(message, index);
}

void Multicomputer::deliver_word(std::uint32_t message, std::uint32_t index, sw::Word word) {
  if (corrupted_deliveries_ && destination_of(message) == corrupted_deliveries_->first) {
    word ^= corrupted_deliveries_->second;
  }
  if (traffic_) {
    if (word != message_state(message).payload[index]) {
      ++words_corrupted_;
    }
    return;
  }
  program_->deliver_word(message, index, word);
}

std::uint32_t Multicomputer::destination_of(std::uint32_t message) const {
  return traffic_ ? message_state(message).dst
                  : program_->program().manifest.messages[message].destination;
}

void Multicomputer::record(Cycle at, const traces::MessageTrace& m) {
  if (recording_) {
    recorder_.message(at, m);
  }
}

void Multicomputer::packet_moved(PacketMove what, std::uint32_t message, std::uint32_t router,
                                 std::uint32_t out, std::uint32_t flits, Cycle at) {
  traces::MessageTrace m;
  m.message = message;
  m.node = router;
  m.size = flits;
  if (what == PacketMove::Inject) {
    m.what = traces::MessageEvent::Inject;
  } else if (what == PacketMove::Eject) {
    m.what = traces::MessageEvent::Eject;
  } else {
    const std::uint32_t vcs = config_.router.vcs;
    m.what = traces::MessageEvent::Hop;
    m.channel = channel_source(router, out / vcs);
    m.vc = out % vcs;
  }
  record(at, m);
}

void Multicomputer::buffer_changed(std::uint32_t router, std::uint32_t port, std::uint32_t vc,
                                   std::uint32_t flits, Cycle at) {
  recorder_.channel_occupancy(at, channel_source(router, port), vc, flits);
}

traces::SourceId Multicomputer::channel_source(std::uint32_t router, std::uint32_t port) const {
  return channel_sources_[network_->description().port_offset(router) + port];
}

void Multicomputer::message_delivered(std::uint32_t message, Cycle at) {
  // The fabric tells in the cycle the tail leaves the network; the message is visible one later.
  record(at - Cycle{1},
         {traces::MessageEvent::Deliver, message, destination_of(message), 0, 0, 0, 0, true, at});
  if (traffic_) {
    MessageState& m = message_state(message);
    if (m.measured) {
      latencies_.add((at - m.created).count());
      --measured_left_;
    }
    m.delivered = true;
    forget_delivered_messages();
    return;
  }
  program_->message_delivered(message, at);
}

// ---- the network process ------------------------------------------------------------------

void Multicomputer::tick() {
  tick_pending_ = false;
  Cycle c = now();
  // The kernel's next event other than this process's: cycles before it may be stepped here.
  const sc_core::sc_time horizon =
      step_ahead_ ? sc_core::sc_time_stamp() + sc_core::sc_time_to_pending_activity()
                  : sc_core::SC_ZERO_TIME;
  for (std::uint32_t stepped = 1;; ++stepped) {
    step(c);
    if (network_->settles()) {
      return;  // the network calls finish_cycle back when its cycle ends
    }
    const std::optional<Cycle> next = next_tick(c);
    if (!next) {
      if (c > now()) {
        ev_last_cycle_.notify(clock_.until(c));
      }
      return;
    }
    if (stepped < kCyclesPerActivation && clock_.delay(*next) < horizon) {
      c = *next;
      continue;
    }
    request_tick(*next);
    return;
  }
}

void Multicomputer::step(Cycle c) {
  last_cycle_ = c;
  stepped_ = true;
  if (traffic_) {
    generate_traffic(c);
  }
  if (program_) {
    program_->run_due(c);
  }
  network_->begin_cycle(c);
}

void Multicomputer::finish_cycle(Cycle c) {
  if (const std::optional<Cycle> next = next_tick(c)) {
    request_tick(*next);
  }
}

std::optional<Cycle> Multicomputer::next_tick(Cycle c) {
  if (network_->mismatch()) {
    return std::nullopt;  // the co-simulation failed: the run stops here
  }
  const Cycle last_move = network_->last_move();
  if (network_->has_flits() && c >= last_move + Cycle{config_.watchdog_cycles}) {
    deadlocked_ = true;
    deadlock_ = network_->describe_deadlock() + " (no flit moved for " +
                std::to_string((c - last_move).count()) + " cycles, at cycle " +
                std::to_string((c - start_).count()) + ")";
    return std::nullopt;  // the run stops: nothing more is scheduled
  }
  std::optional<Cycle> next = network_->next_cycle(c);
  const auto consider = [&next](Cycle at) { next = next ? std::min(*next, at) : at; };
  const Cycle after = c + Cycle{1};
  if (program_) {
    if (const std::optional<Cycle> due = program_->next_due()) {
      consider(std::max(after, *due));
    }
  }
  if (traffic_) {
    const TrafficSpec& spec = traffic_->spec();
    const Cycle window_start = traffic_->window_start();
    const Cycle window_end = traffic_->window_end();
    if (!spec.one_round) {
      if (!window_started_ && after <= window_start) {
        consider(window_start);
      }
      if (!window_ended_ && after <= window_end) {
        consider(window_end);
      }
      if (const std::optional<Cycle> creation = traffic_->next_creation()) {
        consider(std::max(after, *creation));
      }
      const Cycle drain_limit = window_end + Cycle{4 * spec.cycles + 10'000};
      const bool stop = window_ended_ && (!spec.drain || measured_left_ == 0 || c >= drain_limit);
      if (stop) {
        return std::nullopt;
      }
    }
  }
  return next;
}

// ---- synthetic traffic --------------------------------------------------------------------

void Multicomputer::start_traffic(TrafficSpec spec) {
  if (spec.flits < 1) {
    throw sw::ConfigError("a packet has at least one flit (its header)");
  }
  if (config_.router.switching == sw::Switching::StoreAndForward &&
      spec.flits > config_.router.buffer_flits) {
    throw sw::ParameterError("buffers",
                             "store-and-forward needs buffers that hold a whole packet: " +
                                 std::to_string(spec.flits) + " flits, buffers hold " +
                                 std::to_string(config_.router.buffer_flits) +
                                 " ({buffers}, or smaller packets with {flits})");
  }
  network_->check_message("a packet of " + std::to_string(spec.flits) + " flits (--flits)",
                          spec.flits - 1);
  if (config_.ni.packet_flits != 0 && spec.flits > config_.ni.packet_flits) {
    throw sw::ParameterError("flits", "packets of " + std::to_string(spec.flits) +
                                          " flits exceed {packet-flits} " +
                                          std::to_string(config_.ni.packet_flits));
  }
  network_->reset();
  // The traffic's counters and latencies add up the deliveries of a cycle in any order, and its
  // messages are packets of spec.flits flits.
  network_->deliveries_in_any_order(true, spec.flits);
  baseline_ = network_->stats();
  deadlocked_ = false;
  deadlock_.clear();
  messages_.assign(64, MessageState{});
  oldest_message_ = next_message_ = 0;
  peak_message_span_ = 0;
  latencies_.clear();
  program_.reset();
  window_started_ = window_ended_ = false;
  window_flits_created_ = measured_left_ = words_corrupted_ = 0;
  start_ = next_start();
  traffic_.emplace(std::move(spec), config_.nodes(), start_);
  recording_ = recorder_.enabled();
  if (recording_) {
    std::ostringstream label;
    label << "traffic rate=" << traffic_->spec().rate;
    recorder_.run_begin(start_, label.str());
  }
  request_tick(start_);
}

void Multicomputer::generate_traffic(Cycle c) {
  const bool one_round = traffic_->spec().one_round;
  if (!one_round && !window_started_ && c >= traffic_->window_start()) {
    window_started_ = true;
    ejected_at_window_start_ = network_->stats().flits_ejected;
    queue_at_window_start_ = network_->queued_packets();
  }
  if (!one_round && !window_ended_ && c >= traffic_->window_end()) {
    window_ended_ = true;
    ejected_at_window_end_ = network_->stats().flits_ejected;
    queue_at_window_end_ = network_->queued_packets();
  }
  const std::uint32_t flits = traffic_->spec().flits;
  const bool measured = traffic_->measured(c);
  traffic_->create(c, [&](std::uint32_t node, std::uint32_t dst) {
    const std::uint32_t id =
        add_message({dst, c, measured, sw::PayloadWords({node, dst, next_message_}), false});
    if (measured) {
      window_flits_created_ += flits;
      ++measured_left_;
    }
    record(c, {traces::MessageEvent::Send, id, node, dst, flits - 1, 0, 0, measured});
    network_->submit(id, node, dst, flits - 1);
  });
}

std::uint32_t Multicomputer::add_message(MessageState m) {
  if (next_message_ - oldest_message_ == messages_.size()) {
    // Full: twice the slots, each message at its id's place in the larger ring.
    std::vector<MessageState> larger(2 * messages_.size());
    for (std::uint32_t id = oldest_message_; id != next_message_; ++id) {
      larger[id & (larger.size() - 1)] = message_state(id);
    }
    messages_.swap(larger);
  }
  const std::uint32_t id = next_message_++;
  message_state(id) = m;
  peak_message_span_ = std::max<std::uint64_t>(peak_message_span_, next_message_ - oldest_message_);
  return id;
}

void Multicomputer::forget_delivered_messages() {
  while (oldest_message_ != next_message_ && message_state(oldest_message_).delivered) {
    ++oldest_message_;
  }
}

void Multicomputer::run_traffic(const std::function<void()>& between) {
  step_ahead_ = true;
  try {
    run_in_slices(std::nullopt, clock_.delay(kFirstProgressSlice), between);
  } catch (...) {
    step_ahead_ = false;
    throw;
  }
  step_ahead_ = false;
}

TrafficResult Multicomputer::traffic_result() const {
  if (!traffic_) {
    throw std::logic_error("traffic_result() without start_traffic()");
  }
  const TrafficSpec& spec = traffic_->spec();
  TrafficResult r;
  r.rate = spec.rate;
  const double n = config_.nodes();
  r.deadlocked = deadlocked_;
  r.deadlock = deadlock_;
  if (const std::optional<Mismatch> m = network_->mismatch()) {
    r.cosim_mismatch = m->to_string();
  }
  r.sim_cycles = (last_cycle_ - start_).count() + 1;
  const double window =
      spec.one_round ? static_cast<double>(r.sim_cycles) : static_cast<double>(spec.cycles);
  r.offered = static_cast<double>(window_flits_created_) / (n * window);
  const std::uint64_t ejected_end =
      window_ended_ || spec.one_round ? ejected_at_window_end_ : network_->stats().flits_ejected;
  r.accepted =
      spec.one_round
          ? static_cast<double>(network_->stats().flits_ejected - baseline_.flits_ejected) /
                (n * window)
          : static_cast<double>(ejected_end - ejected_at_window_start_) / (n * window);
  const traces::LatencySummary latency = latencies_.summary(1);
  r.measured_packets = latency.count + measured_left_;
  r.undelivered_measured = measured_left_;
  if (latency.count > 0) {
    r.latency_avg = latency.mean;
    r.latency_p50 = latency.p50;
    r.latency_p99 = latency.p99;
    r.latency_max = latency.max;
  }
  r.source_queue_start = queue_at_window_start_;
  r.source_queue_end = queue_at_window_end_;
  // Sustainable: the source queues did not grow by more than a packet per node over the
  // measurement window ([LCC] section 6: "small and bounded"), nothing deadlocked, and when
  // drained, every measured packet arrived within the drain limit.
  r.sustainable = !deadlocked_ && (!spec.drain || measured_left_ == 0) &&
                  queue_at_window_end_ <= queue_at_window_start_ + config_.nodes();
  r.flits_delivered = network_->stats().flits_ejected - baseline_.flits_ejected;
  r.flit_hops = network_->stats().flit_hops - baseline_.flit_hops;
  r.words_corrupted = words_corrupted_;
  r.max_channel_contention = network_->channels().max_contention();
  r.peak_channel_occupancy = network_->channels().peak_occupancy();
  return r;
}

TrafficSpec traffic_of(const sw::TrafficPattern& pattern, const sw::Topology& topology) {
  TrafficSpec spec;
  spec.destination = [pattern, topology](std::uint32_t src, std::mt19937_64& rng) {
    return sw::destination(pattern, topology, src, rng);
  };
  spec.fixed_destinations = pattern.kind != sw::PatternKind::Uniform;
  return spec;
}

}  // namespace orthosim::sc
