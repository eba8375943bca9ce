// A multicomputer: nodes (processor + network interface + router) on a mesh, torus or hypercube
// (docs/architecture.md, multicomputer side). It runs a routed program (every node computes, sends and
// receives, step by step) or synthetic traffic (every node injects packets at a rate: its
// TrafficSource), on its network: the model (Fabric) or, given a factory of them, the verilated
// routers (sc_models/cosim/rtl_network.hpp, config.impl.router rtl or cosim). One SystemC
// process steps it once per cycle while anything is in flight (under run_traffic, several cycles
// per activation when nothing else is due before them) and never while the network and every
// node are idle.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <systemc>
#include <utility>
#include <vector>

#include "sc_models/kernel/clock_domain.hpp"
#include "sc_models/net/network.hpp"
#include "sc_models/net/node_program_runner.hpp"
#include "sc_models/net/traffic_source.hpp"
#include "sw/machine/delivery_check.hpp"
#include "sw/machine/payload.hpp"
#include "sw/routed/network_config.hpp"
#include "sw/routed/routed_program.hpp"
#include "sw/run/run_summary.hpp"
#include "sw/traffic/traffic_pattern.hpp"
#include "sw/traffic/traffic_point.hpp"
#include "traces/recorder.hpp"
#include "traces/stats.hpp"
#include "traces/trace_stats.hpp"

namespace orthosim::sc {

/// The traffic of `pattern` on `topology` (the one adapter from a pattern to the sources): its
/// destinations, and whether every node has one fixed destination; rate and parameters default.
[[nodiscard]] TrafficSpec traffic_of(const sw::TrafficPattern& pattern,
                                     const sw::Topology& topology);

/// The figures of a traffic run.
using TrafficResult = sw::TrafficPoint;

/// Builds a network of verilated routers (sc_models/cosim) for a Multicomputer whose
/// config.impl.router is rtl or cosim: `period` is the clock period, and such a network settles
/// its cycles in delta cycles and ends cycle c by calling `cycle_done(c)`.
using NetworkFactory = std::function<std::unique_ptr<net::Network>(
    const sw::Validated<sw::NetworkConfig>& config, net::FabricClient& client,
    const sc_core::sc_time& period, std::function<void(Cycle)> cycle_done)>;

class Multicomputer : public sc_core::sc_module, private net::FabricClient {
 public:
  SC_HAS_PROCESS(Multicomputer);
  /// With config.impl.router rtl or cosim the routers are verilated (docs/rtl.md): `verilated`
  /// builds them (a ConfigError without it).
  Multicomputer(const sc_core::sc_module_name& name, const sw::Validated<sw::NetworkConfig>& config,
                traces::Recorder& recorder, const NetworkFactory& verilated = {});

  [[nodiscard]] const sw::NetworkConfig& config() const { return config_; }

  /// The bytes a run of `program` on a network of `config` holds at its peak, estimated before
  /// anything is elaborated (docs/cli.md, --memory-limit): the program (ops, delivery manifest,
  /// per-message state), the words of the local memories (a WordStore grows to the highest
  /// address written), the packets of the busiest step and the routers.
  [[nodiscard]] static std::uint64_t footprint(const sw::RoutedProgram& program,
                                               const sw::NetworkConfig& config);
  [[nodiscard]] const ClockDomain& clock() const { return clock_; }

  /// Loads a routed program (its network must have this network's node count) and starts every
  /// node in the next delta cycle. Throws sw::ConfigError when a message does not fit (e.g. a
  /// store-and-forward packet larger than the buffers).
  void load(sw::RoutedProgram program);
  /// What load() checks first (throws sw::ConfigError): call it before the simulation starts to
  /// fail without running SystemC threads.
  void validate(const sw::RoutedProgram& program) const;
  /// Runs the kernel until the loaded program ends, deadlocks, or has run `limit` cycles (then
  /// result() says the cycle limit was reached). `between` is called every so often while the
  /// run goes on (sc::run_in_slices): its progress.
  void run(Cycle limit, const std::function<void()>& between = {});
  [[nodiscard]] sw::NetworkRunSummary result() const;

  /// Starts synthetic traffic in the next delta cycle; run the kernel (sc_start(), or
  /// run_traffic()), then traffic_result().
  void start_traffic(TrafficSpec spec);
  /// Runs the kernel until the traffic started last ends, as sc_start() does, calling `between`
  /// every so often (sc::run_in_slices): its progress. Meanwhile, when the kernel holds no other
  /// event before the network process's next cycle, the process steps that cycle in the same
  /// activation (up to kCyclesPerActivation of them) instead of waking the kernel for each: a
  /// model network at load asks for a step every cycle, and the kernel's round trip per cycle
  /// costs about as much as the traffic source and the interfaces together. Nothing else can run
  /// in between, so the cycles, traces and results are those of sc_start(); the kernel's time
  /// still ends at the last cycle stepped.
  void run_traffic(const std::function<void()>& between);
  /// The most cycles one activation of the network process steps under run_traffic().
  static constexpr std::uint32_t kCyclesPerActivation = 1024;
  /// The figures of the traffic run started last (std::logic_error when a program was loaded
  /// after it, or none was started).
  [[nodiscard]] TrafficResult traffic_result() const;

  [[nodiscard]] const net::Network& network() const { return *network_; }
  /// The test faults of the co-simulation (sc_models/cosim) reach the network through it.
  [[nodiscard]] net::Network& network() { return *network_; }
  /// Test-only: every payload word handed to node `node` from now on arrives with bit `bit`
  /// flipped, as through a faulty network interface, so that the delivery check and the count
  /// of corrupted traffic words can be seen to work.
  void corrupt_deliveries(std::uint32_t node, std::uint32_t bit);
  /// The most payload words the loaded program had in flight at once (sent, not yet delivered):
  /// the only payload a run holds, so that tests can see memory follow the work in flight.
  [[nodiscard]] std::uint64_t peak_words_in_flight() const {
    return program_ ? program_->peak_words_in_flight() : 0;
  }
  /// A traffic run's most messages at once from its oldest undelivered one to its newest, and the
  /// message states it holds room for: tests see them follow the messages in flight.
  [[nodiscard]] std::uint64_t peak_message_span() const { return peak_message_span_; }
  [[nodiscard]] std::size_t message_slots() const { return messages_.size(); }

 private:
  struct MessageState {
    std::uint32_t dst = 0;
    Cycle created;
    bool measured = false;
    /// Its words, payload_word({src, dst, message id}, index), the key mixed once.
    sw::PayloadWords payload{sw::PayloadKey{}};
    bool delivered = false;
  };
  /// The state of traffic message `id` (held while it or an older message is in flight).
  MessageState& message_state(std::uint32_t id) { return messages_[id & (messages_.size() - 1)]; }
  [[nodiscard]] const MessageState& message_state(std::uint32_t id) const {
    return messages_[id & (messages_.size() - 1)];
  }
  /// Holds a new traffic message: its id.
  std::uint32_t add_message(MessageState m);
  void forget_delivered_messages();

  void tick();
  /// Cycle c of the network process: the traffic's packets, the program's nodes, the network.
  void step(Cycle c);
  /// The rest of cycle c once the network has finished it: the watchdog and the next tick.
  void finish_cycle(Cycle c);
  /// The watchdog after cycle c, and the cycle of the next tick (none: the run has ended).
  [[nodiscard]] std::optional<Cycle> next_tick(Cycle c);
  /// Schedules the network process for cycle `at` unless it is already due no later.
  void request_tick(Cycle at);
  /// The window's counters and the traffic source's packets of cycle c.
  void generate_traffic(Cycle c);
  [[nodiscard]] Cycle now() const { return clock_.now(); }
  [[nodiscard]] Cycle next_start() const;
  /// The destination node of message `message` of the current run.
  [[nodiscard]] std::uint32_t destination_of(std::uint32_t message) const;

  sw::Word read_word(std::uint32_t message, std::uint32_t index) override;
  void deliver_word(std::uint32_t message, std::uint32_t index, sw::Word word) override;
  void message_delivered(std::uint32_t message, Cycle at) override;
  void packet_moved(PacketMove what, std::uint32_t message, std::uint32_t router, std::uint32_t out,
                    std::uint32_t flits, Cycle at) override;
  void buffer_changed(std::uint32_t router, std::uint32_t port, std::uint32_t vc,
                      std::uint32_t flits, Cycle at) override;
  void record(Cycle at, const traces::MessageTrace& m);
  /// The recorder's source of output port `port` of `router`.
  [[nodiscard]] traces::SourceId channel_source(std::uint32_t router, std::uint32_t port) const;

  const sw::NetworkConfig config_;
  ClockDomain clock_;
  traces::Recorder& recorder_;
  /// recorder_.enabled() when the current run started (asked once per run, not per message).
  bool recording_ = false;
  std::vector<traces::SourceId> node_sources_;
  /// [TopologyDescription::port_offset(router) + port]: the recorder's source of each router output
  /// port.
  std::vector<traces::SourceId> channel_sources_;
  traces::StatsRegistry stats_;
  std::unique_ptr<net::Network> network_;
  net::FabricStats baseline_;  ///< the network's counters when the current run started
  std::vector<traces::StatEntry> stats_baseline_;
  sc_core::sc_event ev_tick_;
  bool tick_pending_ = false;
  Cycle tick_at_;
  /// Under run_traffic(): the process may step cycles ahead of the kernel's time.
  bool step_ahead_ = false;
  /// Notified at the last cycle stepped ahead when the run ends there, so that the kernel's time
  /// ends where it would have (nothing waits on it).
  sc_core::sc_event ev_last_cycle_;

  Cycle start_;  ///< the current run's first cycle

  // Routed program: its nodes while a program is loaded.
  std::optional<net::NodeProgramRunner> program_;
  bool deadlocked_ = false;
  std::string deadlock_;
  std::optional<Cycle> stopped_at_limit_;  ///< the limit at which run() stopped, still busy

  // Traffic: the source while a traffic run is loaded, and its packets.
  std::optional<net::TrafficSource> traffic_;
  /// Its messages from the oldest not yet delivered to the newest, by id, in a ring of a power of
  /// two slots that doubles when full: what a run holds follows the messages in flight (and the
  /// spread of their latencies, latencies_), not the length of the run.
  std::vector<MessageState> messages_;
  std::uint32_t oldest_message_ = 0;  ///< the oldest not delivered, or next_message_
  std::uint32_t next_message_ = 0;
  std::uint64_t peak_message_span_ = 0;
  traces::LatencyCounts latencies_;
  std::uint64_t window_flits_created_ = 0;
  std::uint64_t ejected_at_window_start_ = 0;
  std::uint64_t ejected_at_window_end_ = 0;
  std::uint64_t queue_at_window_start_ = 0;
  std::uint64_t queue_at_window_end_ = 0;
  bool window_started_ = false;
  bool window_ended_ = false;
  std::uint64_t measured_left_ = 0;
  std::uint64_t words_corrupted_ = 0;
  Cycle last_cycle_;
  bool stepped_ = false;  ///< a cycle has run (last_cycle_ is one)
  /// corrupt_deliveries(): the node whose words arrive corrupted, and the mask they are XORed with.
  std::optional<std::pair<std::uint32_t, sw::Word>> corrupted_deliveries_;
};

}  // namespace orthosim::sc
