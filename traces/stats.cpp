// Counter registry.
#include "traces/stats.hpp"

#include <algorithm>
#include <stdexcept>

namespace orthosim::traces {

void StatsRegistry::add(const std::string& name, const std::uint64_t* counter,
                        const std::string& unit, const std::string& description) {
  for (const Registered& r : entries_) {
    if (r.name == name) {
      throw std::logic_error("statistic " + name + " registered twice");
    }
  }
  entries_.push_back({name, counter, unit, description});
}

std::vector<StatEntry> StatsRegistry::snapshot() const {
  std::vector<StatEntry> out;
  out.reserve(entries_.size());
  for (const Registered& r : entries_) {
    out.push_back({r.name, *r.counter, r.unit, r.description});
  }
  std::sort(out.begin(), out.end(),
            [](const StatEntry& a, const StatEntry& b) { return a.name < b.name; });
  return out;
}

std::uint64_t sum_by_leaf(const std::vector<StatEntry>& entries, const std::string& leaf) {
  const std::string suffix = "." + leaf;
  std::uint64_t total = 0;
  for (const StatEntry& e : entries) {
    if (e.name.size() > suffix.size() &&
        e.name.compare(e.name.size() - suffix.size(), suffix.size(), suffix) == 0) {
      total += e.value;
    }
  }
  return total;
}

}  // namespace orthosim::traces
