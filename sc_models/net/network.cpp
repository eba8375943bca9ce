// The channel counters every network keeps.
#include "sc_models/net/network.hpp"

#include <algorithm>
#include <utility>

namespace orthosim::sc::net {

ChannelCounters::ChannelCounters(std::shared_ptr<const sw::RouterPorts> ports)
    : ports_(std::move(ports)),
      contention_(ports_->description().total_ports(), 0),
      peak_(ports_->total_inputs(), 0) {}

void ChannelCounters::reset() {
  std::fill(contention_.begin(), contention_.end(), 0);
  std::fill(peak_.begin(), peak_.end(), 0);
  step_of_.clear();
  step_contention_.clear();
  step_max_.clear();
}

void ChannelCounters::group_by_step(std::vector<std::uint32_t> step_of) {
  step_of_ = std::move(step_of);
  step_contention_.clear();
  const auto last = std::max_element(step_of_.begin(), step_of_.end());
  step_max_.assign(last == step_of_.end() ? 0 : std::size_t{*last} + 1, 0);
}

std::uint64_t ChannelCounters::max_contention() const {
  return contention_.empty() ? 0 : *std::max_element(contention_.begin(), contention_.end());
}

std::uint32_t ChannelCounters::peak_occupancy() const {
  return peak_.empty() ? 0 : *std::max_element(peak_.begin(), peak_.end());
}

std::vector<sw::ChannelSummary> ChannelCounters::reports() const {
  std::vector<sw::ChannelSummary> out;
  const sw::TopologyDescription& d = ports_->description();
  for (std::uint32_t r = 0; r < d.routers(); ++r) {
    for (std::uint32_t q = 0; q < d.ports(r); ++q) {
      const std::optional<sw::PortLink>& to = d.link(r, q);
      if (!to) {
        continue;
      }
      sw::ChannelSummary rep;
      rep.name = d.channel_name(r, q);
      rep.peak_flits = peak_[ports_->input_offset(to->router) + to->port];
      rep.messages = contention_[d.port_offset(r) + q];
      out.push_back(rep);
    }
  }
  return out;
}

}  // namespace orthosim::sc::net
