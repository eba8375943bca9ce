// The synthetic traffic of a multicomputer (docs/networks.md, synthetic traffic): every node
// creates packets at a rate, by a Bernoulli trial per cycle or with exponential inter-arrival
// times, toward the destinations of a pattern, and packets created in the measurement window
// are measured. Plain C++: the Multicomputer asks it for the packets of each cycle it steps and
// for the next cycle in which one is created.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <queue>
#include <random>
#include <utility>
#include <vector>

#include "sw/core/cycle.hpp"
#include "sw/traffic/traffic_point.hpp"

namespace orthosim::sc {

/// Synthetic traffic (the usual network-simulation method): packets created by every node at
/// `rate` flits per node per cycle, measured from `warmup` for `cycles` cycles, then drained.
struct TrafficSpec : sw::TrafficParameters {
  /// The destination of a packet from `src` (may return src: that node sends nothing).
  std::function<std::uint32_t(std::uint32_t src, std::mt19937_64& rng)> destination;
  /// Whether the pattern gives every node one fixed destination (a permutation or an LCC).
  bool fixed_destinations = false;
  double rate = kDefaultRate;  ///< offered flits per node per cycle
  /// Drain the measured packets after the window (bounded); false: stop at the window's end.
  bool drain = true;
  /// One round only: every node sends exactly one packet at cycle 0 (rate and window unused).
  bool one_round = false;
};

namespace net {

class TrafficSource {
 public:
  /// The traffic of `spec` on `nodes` nodes, its cycle 0 being cycle `start` of the owner. Each
  /// node draws from its own generator, seeded from spec.seed and the node.
  TrafficSource(TrafficSpec spec, std::uint32_t nodes, sw::Cycle start);

  [[nodiscard]] const TrafficSpec& spec() const { return spec_; }
  /// The measurement window [window_start, window_end) in the owner's cycles.
  [[nodiscard]] sw::Cycle window_start() const { return start_ + sw::Cycle{spec_.warmup}; }
  [[nodiscard]] sw::Cycle window_end() const { return window_start() + sw::Cycle{spec_.cycles}; }
  /// Whether a packet created in cycle c is measured.
  [[nodiscard]] bool measured(sw::Cycle c) const {
    return spec_.one_round || (c >= window_start() && c < window_end());
  }

  /// Creates the packets due by cycle c, node by node in the order of their creation times
  /// (ties to the lower node), calling send(src, dst) for each; a packet a node would send to
  /// itself is dropped. A template, so that the owner's per-packet work inlines here and no
  /// callable is built per cycle (the network process calls it every cycle it steps).
  template <typename Send>
  void create(sw::Cycle c, Send&& send) {
    while (!arrivals_.empty() && arrivals_.top().first <= c) {
      const std::uint32_t node = arrivals_.top().second;
      arrivals_.pop();
      const std::uint32_t dst =
          spec_.fixed_destinations ? fixed_dst_[node] : spec_.destination(node, rngs_[node]);
      if (!spec_.one_round) {
        schedule(node);
      }
      if (dst != node) {
        send(node, dst);
      }
    }
  }
  /// The cycle of the next packet to create, if any is left.
  [[nodiscard]] std::optional<sw::Cycle> next_creation() const;

 private:
  /// Draws the node's next creation time and queues it if it falls before the window's end.
  void schedule(std::uint32_t node);

  const TrafficSpec spec_;
  const sw::Cycle start_;
  /// Packets per node per cycle (at most 1), and log(1 - lambda_) for the Bernoulli gaps: fixed
  /// for the run, computed once.
  const double lambda_;
  const double log_miss_;
  std::vector<std::mt19937_64> rngs_;
  /// Continuous time of each node's last packet (before its first: of a virtual one before it).
  std::vector<double> last_arrival_;
  std::vector<std::uint32_t> fixed_dst_;
  /// (cycle, node) min-heap of the packets to create.
  std::priority_queue<std::pair<sw::Cycle, std::uint32_t>,
                      std::vector<std::pair<sw::Cycle, std::uint32_t>>, std::greater<>>
      arrivals_;
};

}  // namespace net
}  // namespace orthosim::sc
