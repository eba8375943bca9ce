// A multicomputer running routed programs or synthetic traffic on its fabric.
#include "sc_models/net/multicomputer.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

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
    network_ = verilated(config, client, clock_.delay(Cycle{1}),
                         [this](std::uint64_t c) { finish_cycle(c); });
  } else {
    throw sw::ConfigError(std::string("--impl router=") + sw::to_string(config_.impl.router) +
                          " needs the verilated routers, which this program was built without");
  }
  const std::string base = sc_core::sc_module::name();
  const net::FabricStats& s = network_->stats();
  stats_.add(base + ".flits_moved", &s.flits_moved, "flits", "flit moves: injection, hops, ejection");
  stats_.add(base + ".flit_hops", &s.flit_hops, "flits", "flits that crossed a router-to-router link");
  stats_.add(base + ".flits_ejected", &s.flits_ejected, "flits", "flits handed to the interfaces");
  stats_.add(base + ".packets_delivered", &s.packets_delivered, "packets", "packets whose tail arrived");
  stats_.add(base + ".header_wait_cycles", &s.header_wait_cycles, "cycles",
             "cycles ready headers waited for a virtual channel");
  stats_.add(base + ".router_steps", &s.router_steps, "steps",
             "router visits by the network process (only routers holding flits are visited)");
  for (std::uint32_t n = 0; n < config_.topology.nodes(); ++n) {
    node_sources_.push_back(
        recorder_.register_source(base + ".node" + std::to_string(n), traces::SourceKind::Processor));
  }
  // Router output ports by block: "torus.r(2,1).x+" is the x+ port of the router at x=2, y=1.
  for (std::uint32_t n = 0; n < config_.topology.nodes(); ++n) {
    std::string router = base + ".r(";
    const std::vector<std::uint32_t> coords = config_.topology.coordinates(n);
    for (std::size_t i = 0; i < coords.size(); ++i) {
      router += (i > 0 ? "," : "") + std::to_string(coords[i]);
    }
    router += ").";
    for (const sw::Port& port : config_.topology.ports()) {
      channel_sources_.push_back(recorder_.register_source(
          router + config_.topology.port_name(port), traces::SourceKind::Channel));
      recorder_.channel_vcs(channel_sources_.back(), config_.router.vcs);
    }
  }
  network_->observe(recorder_.enabled());
  SC_METHOD(tick);
  sensitive << ev_tick_;
  dont_initialize();
}

std::uint64_t Multicomputer::next_start() const {
  // A run begins in the cycle after the previous one's last, whichever network ran it (the
  // verilated one ends its last cycle on the next clock edge, the model at its start).
  return stepped_ ? std::max(now(), last_cycle_ + 1) : now();
}

void Multicomputer::corrupt_deliveries(std::uint32_t node, std::uint32_t bit) {
  corrupted_deliveries_ = {node, sw::Word{1} << bit};
}

void Multicomputer::request_tick(std::uint64_t at) {
  if (tick_pending_ && tick_at_ <= at) {
    return;
  }
  tick_pending_ = true;
  tick_at_ = at;
  // Not now(): under verilated routers the cycle ends (finish_cycle) between clock edges.
  ev_tick_.notify(clock_.until(Cycle{at}));
}

// ---- routed programs ----------------------------------------------------------------------

void Multicomputer::validate(const sw::RoutedProgram& program) const {
  const std::uint32_t n = config_.topology.nodes();
  if (program.network_nodes != n) {
    throw sw::ConfigError("program '" + program.name + "' is compiled for " +
                          std::to_string(program.network_nodes) + " nodes, the network has " +
                          std::to_string(n));
  }
  for (const sw::Message& m : program.manifest.messages) {
    const std::uint64_t packets = config_.message_packets(m.words);
    const std::uint64_t largest = config_.ni.packet_flits == 0 ? m.words + 1
                                                                : std::min<std::uint64_t>(
                                                                      config_.ni.packet_flits,
                                                                      m.words + packets);
    if (config_.router.switching == sw::Switching::StoreAndForward &&
        largest > config_.router.buffer_flits) {
      throw sw::ParameterError(
          "buffers", "store-and-forward needs buffers that hold a whole packet: message " +
                         std::to_string(m.id) + " has packets of " + std::to_string(largest) +
                         " flits, buffers hold " + std::to_string(config_.router.buffer_flits) +
                         " (--buffers, or smaller packets with --packet-flits)");
    }
  }
}

std::uint64_t Multicomputer::footprint(const sw::RoutedProgram& program,
                                       const sw::NetworkConfig& config) {
  // Per node: its router's buffers, allocation state and interface, and its recorder sources,
  // measured on a 16x16 torus with 2 virtual channels rounded up.
  constexpr std::uint64_t kNodeBytes = 4 * 1024;
  constexpr std::uint64_t kPacketBytes = sizeof(net::NetworkInterfaces::Packet) + 16;
  const std::uint32_t nodes = config.topology.nodes();
  // Per message: its manifest entry, its state and what arrived of it; no payload word is held
  // outside the packets (the arrival check).
  std::uint64_t bytes = std::uint64_t{nodes} * kNodeBytes +
                        program.manifest.messages.size() *
                            (sizeof(sw::Message) + sizeof(MessageState) +
                             sw::ArrivalCheck::kBytesPerMessage);
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
  const std::uint32_t n = config_.topology.nodes();
  program_ = std::move(program);
  network_->reset();
  baseline_ = network_->stats();
  stats_baseline_ = stats_.snapshot();
  traffic_.reset();
  deadlocked_ = false;
  stopped_at_limit_.reset();
  deadlock_.clear();
  // Exactly one state per message: freed, then reserved, so no doubling leaves spare capacity.
  messages_.clear();
  messages_.shrink_to_fit();
  messages_.reserve(program_.manifest.messages.size());
  for (const sw::Message& m : program_.manifest.messages) {
    messages_.push_back({m.source, m.destination, m.words, 0, 0, false});
  }
  delivery_.reset(program_.manifest.messages.size());
  words_in_flight_ = 0;
  peak_words_in_flight_ = 0;
  start_ = next_start();
  if (recorder_.enabled()) {
    recorder_.run_begin(Cycle{start_}, "program " + program_.name);
  }
  nodes_.assign(n, NodeState{});
  for (std::uint32_t node = 0; node < n; ++node) {
    nodes_[node].finished = program_.ops[node].empty();
    nodes_[node].finish = start_;
    if (!nodes_[node].finished) {
      wake(node, start_);
    }
  }
  request_tick(start_);
}

void Multicomputer::wake(std::uint32_t node, std::uint64_t at) { wakes_.push({at, node}); }

void Multicomputer::run_node(std::uint32_t node, std::uint64_t c) {
  NodeState& s = nodes_[node];
  const std::vector<sw::routed::Op>& ops = program_.ops[node];
  while (s.pc < ops.size()) {
    const sw::routed::Op& op = ops[s.pc];
    if (const auto* compute = std::get_if<sw::routed::Compute>(&op)) {
      ++s.pc;
      if (compute->cycles > Cycle{0}) {
        show(node, traces::Activity::Compute, c);
        wake(node, c + compute->cycles.count());
        return;
      }
    } else if (const auto* send = std::get_if<sw::routed::Send>(&op)) {
      MessageState& m = messages_[send->message];
      m.created = c;
      record(c, {traces::MessageEvent::Send, send->message, m.src, m.dst, m.words, 0, 0, true});
      network_->submit(send->message, m.src, m.dst, m.words);
      words_in_flight_ += m.words;
      peak_words_in_flight_ = std::max(peak_words_in_flight_, words_in_flight_);
      ++s.pc;
    } else if (const auto* receive = std::get_if<sw::routed::Receive>(&op)) {
      if (messages_[receive->message].delivered == 0 ||
          messages_[receive->message].delivered > c) {
        s.waiting_for = receive->message;
        show(node, traces::Activity::WaitMessage, c);
        return;
      }
      s.waiting_for = -1;
      record(c, {traces::MessageEvent::Receive, receive->message, node, 0, 0, 0, 0, true});
      ++s.pc;
    } else {
      const std::uint32_t step = std::get<sw::routed::StepEnd>(op).step;
      s.marks.emplace_back(step, c);
      if (recorder_.enabled()) {
        recorder_.step_mark(Cycle{c}, node_sources_[node], step);
      }
      ++s.pc;
    }
  }
  if (!s.finished) {
    s.finished = true;
    s.finish = c;
    show(node, traces::Activity::Idle, c);
  }
}

void Multicomputer::show(std::uint32_t node, traces::Activity what, std::uint64_t c) {
  if (recorder_.enabled()) {
    recorder_.activity(Cycle{c}, node_sources_[node], what,
                       static_cast<std::uint32_t>(nodes_[node].pc));
  }
}

void Multicomputer::run(Cycle limit) {
  // The cycle `limit` itself still runs: a run may last exactly `limit` cycles.
  sc_core::sc_start(clock_.delay(limit + Cycle{1}), sc_core::SC_EXIT_ON_STARVATION);
  // Events still pending: the limit stopped the run, not the lack of anything to do.
  if (sc_core::sc_pending_activity()) {
    stopped_at_limit_ = limit;
  }
}

sw::NetworkRunSummary Multicomputer::result() const {
  sw::NetworkRunSummary r;
  r.completed = !deadlocked_;
  for (std::uint32_t node = 0; node < nodes_.size(); ++node) {
    const NodeState& s = nodes_[node];
    if (!s.finished) {
      r.completed = false;
      if (stopped_at_limit_ && !deadlocked_) {
        r.cycle_limit_reached = true;
        continue;
      }
      std::string what = "node " + std::to_string(node) + " at op " + std::to_string(s.pc);
      if (s.waiting_for >= 0) {
        const MessageState& m = messages_[static_cast<std::size_t>(s.waiting_for)];
        what += ": waits for message " + std::to_string(s.waiting_for) + " from node " +
                std::to_string(m.src);
      }
      r.blocked.push_back(what);
      continue;
    }
    r.cycles = std::max(r.cycles, Cycle{s.finish - start_});
    for (const auto& [step, at] : s.marks) {
      if (step >= r.step_ends.size()) {
        r.step_ends.resize(step + 1);
      }
      r.step_ends[step] = std::max(r.step_ends[step], Cycle{at - start_});
    }
  }
  if (deadlocked_) {
    r.blocked.insert(r.blocked.begin(), "network deadlock: " + deadlock_);
  }
  if (r.cycle_limit_reached) {
    r.cycles = *stopped_at_limit_;
    r.blocked.push_back("cycle limit reached: the run stopped after " +
                        std::to_string(r.cycles.count()) + " cycles, still running");
  }
  r.delivery = delivery_.report(program_.manifest.messages, !r.cycle_limit_reached);
  r.max_channel_contention = network_->channels().max_contention();
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
    const MessageState& m = messages_[message];
    return sw::payload_word({m.src, m.dst, message}, index);
  }
  return sw::payload_word(program_.manifest.messages[message].payload, index);
}

void Multicomputer::deliver_word(std::uint32_t message, std::uint32_t index, sw::Word word) {
  if (corrupted_deliveries_ && messages_[message].dst == corrupted_deliveries_->first) {
    word ^= corrupted_deliveries_->second;
  }
  if (traffic_) {
    const MessageState& m = messages_[message];
    if (word != sw::payload_word({m.src, m.dst, message}, index)) {
      ++words_corrupted_;
    }
    return;
  }
  delivery_.arrive(program_.manifest.messages, message, index, word);
}

void Multicomputer::record(std::uint64_t at, const traces::MessageTrace& m) {
  if (recorder_.enabled()) {
    recorder_.message(Cycle{at}, m);
  }
}

void Multicomputer::packet_moved(PacketMove what, std::uint32_t message, std::uint32_t router,
                                 std::uint32_t out, std::uint32_t flits, std::uint64_t at) {
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
                                   std::uint32_t flits, std::uint64_t at) {
  recorder_.channel_occupancy(Cycle{at}, channel_source(router, port), vc, flits);
}

traces::SourceId Multicomputer::channel_source(std::uint32_t router, std::uint32_t port) const {
  return channel_sources_[std::size_t{router} * config_.topology.ports().size() + port];
}

void Multicomputer::message_delivered(std::uint32_t message, std::uint64_t at) {
  MessageState& m = messages_[message];
  m.delivered = at;
  // The fabric tells in the cycle the tail leaves the network; the message is visible one later.
  record(at - 1, {traces::MessageEvent::Deliver, message, m.dst, 0, 0, 0, 0, true, Cycle{at}});
  if (traffic_) {
    if (m.measured) {
      latencies_.push_back(at - m.created);
      --measured_left_;
    }
    return;
  }
  words_in_flight_ -= m.words;
  NodeState& d = nodes_[m.dst];
  if (d.waiting_for == static_cast<std::int64_t>(message)) {
    wake(m.dst, at);
  }
}

// ---- the network process ------------------------------------------------------------------

void Multicomputer::tick() {
  tick_pending_ = false;
  const std::uint64_t c = now();
  last_cycle_ = c;
  stepped_ = true;
  if (traffic_) {
    generate_traffic(c);
  }
  while (!wakes_.empty() && wakes_.top().first <= c) {
    const std::uint32_t node = wakes_.top().second;
    wakes_.pop();
    run_node(node, c);
  }
  network_->begin_cycle(c);
  if (!network_->settles()) {
    finish_cycle(c);
  }
}

void Multicomputer::finish_cycle(std::uint64_t c) {
  if (network_->mismatch()) {
    return;  // the co-simulation failed: the run stops here
  }
  if (network_->has_flits() && c >= network_->last_move() + config_.watchdog_cycles) {
    deadlocked_ = true;
    deadlock_ = network_->describe_deadlock() + " (no flit moved for " +
                std::to_string(c - network_->last_move()) + " cycles, at cycle " +
                std::to_string(c - start_) + ")";
    return;  // the run stops: nothing more is scheduled
  }
  std::optional<std::uint64_t> next = network_->next_cycle(c);
  const auto consider = [&next](std::uint64_t at) { next = next ? std::min(*next, at) : at; };
  if (!wakes_.empty()) {
    consider(std::max(c + 1, wakes_.top().first));
  }
  if (traffic_) {
    const TrafficSpec& spec = traffic_->spec();
    const std::uint64_t window_start = traffic_->window_start().count();
    const std::uint64_t window_end = traffic_->window_end().count();
    if (!spec.one_round) {
      if (!window_started_ && c + 1 <= window_start) {
        consider(window_start);
      }
      if (!window_ended_ && c + 1 <= window_end) {
        consider(window_end);
      }
      if (const std::optional<Cycle> creation = traffic_->next_creation()) {
        consider(std::max(c + 1, creation->count()));
      }
      const std::uint64_t drain_limit = window_end + 4 * spec.cycles + 10'000;
      const bool stop = window_ended_ && (!spec.drain || measured_left_ == 0 || c >= drain_limit);
      if (stop) {
        return;
      }
    }
  }
  if (next) {
    request_tick(*next);
  }
}

// ---- synthetic traffic --------------------------------------------------------------------

void Multicomputer::start_traffic(TrafficSpec spec) {
  if (spec.flits < 1) {
    throw sw::ConfigError("a packet has at least one flit (its header)");
  }
  if (config_.router.switching == sw::Switching::StoreAndForward &&
      spec.flits > config_.router.buffer_flits) {
    throw sw::ConfigError("store-and-forward needs buffers that hold a whole packet: " +
                          std::to_string(spec.flits) + " flits, buffers hold " +
                          std::to_string(config_.router.buffer_flits) + " (--buffers)");
  }
  if (config_.ni.packet_flits != 0 && spec.flits > config_.ni.packet_flits) {
    throw sw::ConfigError("packets of " + std::to_string(spec.flits) +
                          " flits exceed --packet-flits " + std::to_string(config_.ni.packet_flits));
  }
  network_->reset();
  baseline_ = network_->stats();
  deadlocked_ = false;
  deadlock_.clear();
  messages_.clear();
  latencies_.clear();
  nodes_.clear();
  program_ = {};
  window_started_ = window_ended_ = false;
  window_flits_created_ = measured_left_ = words_corrupted_ = 0;
  start_ = next_start();
  traffic_.emplace(std::move(spec), config_.topology.nodes(), Cycle{start_});
  if (recorder_.enabled()) {
    std::ostringstream label;
    label << "traffic rate=" << traffic_->spec().rate;
    recorder_.run_begin(Cycle{start_}, label.str());
  }
  request_tick(start_);
}

void Multicomputer::generate_traffic(std::uint64_t c) {
  const bool one_round = traffic_->spec().one_round;
  if (!one_round && !window_started_ && Cycle{c} >= traffic_->window_start()) {
    window_started_ = true;
    ejected_at_window_start_ = network_->stats().flits_ejected;
    queue_at_window_start_ = network_->queued_packets();
  }
  if (!one_round && !window_ended_ && Cycle{c} >= traffic_->window_end()) {
    window_ended_ = true;
    ejected_at_window_end_ = network_->stats().flits_ejected;
    queue_at_window_end_ = network_->queued_packets();
  }
  const std::uint32_t flits = traffic_->spec().flits;
  const bool measured = traffic_->measured(Cycle{c});
  traffic_->create(Cycle{c}, [&](std::uint32_t node, std::uint32_t dst) {
    const auto id = static_cast<std::uint32_t>(messages_.size());
    messages_.push_back({node, dst, flits - 1, c, 0, measured});
    if (measured) {
      window_flits_created_ += flits;
      ++measured_left_;
    }
    record(c, {traces::MessageEvent::Send, id, node, dst, flits - 1, 0, 0, measured});
    network_->submit(id, node, dst, flits - 1);
  });
}

TrafficResult Multicomputer::traffic_result() const {
  if (!traffic_) {
    throw std::logic_error("traffic_result() without start_traffic()");
  }
  const TrafficSpec& spec = traffic_->spec();
  TrafficResult r;
  r.rate = spec.rate;
  const double n = config_.topology.nodes();
  r.deadlocked = deadlocked_;
  r.deadlock = deadlock_;
  if (const std::optional<Mismatch> m = network_->mismatch()) {
    r.cosim_mismatch = m->to_string();
  }
  r.sim_cycles = last_cycle_ - start_ + 1;
  const double window = spec.one_round ? static_cast<double>(r.sim_cycles)
                                        : static_cast<double>(spec.cycles);
  r.offered = static_cast<double>(window_flits_created_) / (n * window);
  const std::uint64_t ejected_end =
      window_ended_ || spec.one_round ? ejected_at_window_end_ : network_->stats().flits_ejected;
  r.accepted = spec.one_round
                   ? static_cast<double>(network_->stats().flits_ejected - baseline_.flits_ejected) /
                         (n * window)
                   : static_cast<double>(ejected_end - ejected_at_window_start_) / (n * window);
  const traces::LatencySummary latency = traces::summarize_latencies(latencies_, 1);
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
                  queue_at_window_end_ <= queue_at_window_start_ + config_.topology.nodes();
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
