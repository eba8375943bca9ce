// Creation times and destinations of synthetic traffic.
#include "sc_models/net/traffic_source.hpp"

#include <algorithm>
#include <cmath>

namespace orthosim::sc::net {

namespace {
/// A uniform double in (0, 1] from 53 random bits.
double unit(std::mt19937_64& rng) {
  return (static_cast<double>(rng() >> 11) + 1.0) * (1.0 / 9007199254740992.0);
}
}  // namespace

TrafficSource::TrafficSource(TrafficSpec spec, std::uint32_t nodes, sw::Cycle start)
    : spec_(std::move(spec)),
      start_(start),
      lambda_(std::min(1.0, spec_.rate / static_cast<double>(spec_.flits))),
      log_miss_(std::log1p(-lambda_)) {
  for (std::uint32_t node = 0; node < nodes; ++node) {
    rngs_.emplace_back(spec_.seed * 0x9E3779B97F4A7C15ull + node);
  }
  fixed_dst_.assign(nodes, 0);
  // The first Bernoulli trial is the one of cycle 0, so the virtual packet before a node's
  // first lies one cycle before it; exponential gaps start from time 0.
  last_arrival_.assign(nodes, spec_.exponential ? 0.0 : -1.0);
  for (std::uint32_t node = 0; node < nodes; ++node) {
    if (spec_.fixed_destinations) {
      fixed_dst_[node] = spec_.destination(node, rngs_[node]);
      if (fixed_dst_[node] == node) {
        continue;  // mapped onto itself: nothing to send
      }
    }
    if (spec_.one_round) {
      arrivals_.push({start_, node});
    } else {
      schedule(node);
    }
  }
}

void TrafficSource::schedule(std::uint32_t node) {
  const double lambda = lambda_;
  if (lambda <= 0.0) {
    return;
  }
  double& t = last_arrival_[node];
  if (spec_.exponential) {
    t += -std::log(unit(rngs_[node])) / lambda;
  } else if (lambda >= 1.0) {
    t += 1.0;
  } else {
    // Bernoulli trials per cycle: the gap to the next success is geometric.
    t += 1.0 + std::floor(std::log(unit(rngs_[node])) / log_miss_);
  }
  // A packet arriving at time t in [c, c + 1) is created in cycle c. Compared as a double first:
  // at a tiny rate the gap can exceed what a cycle count holds.
  const double offset = std::floor(t);
  if (offset < static_cast<double>(spec_.warmup + spec_.cycles)) {
    arrivals_.push({start_ + sw::Cycle{static_cast<std::uint64_t>(offset)}, node});
  }
}

std::optional<sw::Cycle> TrafficSource::next_creation() const {
  if (arrivals_.empty()) {
    return std::nullopt;
  }
  return arrivals_.top().first;
}

}  // namespace orthosim::sc::net
