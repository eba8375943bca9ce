// The channel counters every network keeps.
#include "sc_models/net/network.hpp"

#include <algorithm>

namespace orthosim::sc::net {

ChannelCounters::ChannelCounters(const sw::Topology& topology, std::uint32_t inputs)
    : topology_(topology),
      ports_(static_cast<std::uint32_t>(topology.ports().size())),
      inputs_(inputs),
      contention_(std::size_t{topology.nodes()} * ports_, 0),
      peak_(std::size_t{topology.nodes()} * inputs_, 0) {}

void ChannelCounters::reset() {
  std::fill(contention_.begin(), contention_.end(), 0);
  std::fill(peak_.begin(), peak_.end(), 0);
}

std::uint64_t ChannelCounters::max_contention() const {
  return contention_.empty() ? 0 : *std::max_element(contention_.begin(), contention_.end());
}

std::uint32_t ChannelCounters::peak_occupancy() const {
  return peak_.empty() ? 0 : *std::max_element(peak_.begin(), peak_.end());
}

std::vector<sw::ChannelSummary> ChannelCounters::reports() const {
  std::vector<sw::ChannelSummary> out;
  const std::vector<sw::Port> ports = topology_.ports();
  for (std::uint32_t r = 0; r < topology_.nodes(); ++r) {
    for (std::uint32_t q = 0; q < ports_; ++q) {
      const std::optional<std::uint32_t> n = topology_.neighbor(r, ports[q]);
      if (!n) {
        continue;
      }
      sw::ChannelSummary rep;
      rep.name = "n" + std::to_string(r) + "." + topology_.port_name(ports[q]);
      // Output port q of r feeds input port q of its neighbour.
      rep.peak_flits = peak_[std::size_t{*n} * inputs_ + q];
      rep.messages = contention_[std::size_t{r} * ports_ + q];
      out.push_back(rep);
    }
  }
  return out;
}

}  // namespace orthosim::sc::net
