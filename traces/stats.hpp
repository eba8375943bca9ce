// Statistics: plain integer counters owned by the blocks, registered once by reference under a
// stable hierarchical name with a description and a unit (modeling rule 8). Rates are derived at
// the end, never accumulated per cycle.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace orthosim::traces {

struct StatEntry {
  std::string name;  ///< "omp.bc2.busy_cycles"
  std::uint64_t value = 0;
  std::string unit;
  std::string description;
};

class StatsRegistry {
 public:
  /// Registers a counter; the counter must outlive the registry's use. Throws on a duplicate name.
  void add(const std::string& name, const std::uint64_t* counter, const std::string& unit,
           const std::string& description);

  /// Current values, sorted by name.
  [[nodiscard]] std::vector<StatEntry> snapshot() const;

 private:
  struct Registered {
    std::string name;
    const std::uint64_t* counter;
    std::string unit;
    std::string description;
  };
  std::vector<Registered> entries_;
};

/// Sum of every entry whose name ends with "." + `leaf` (e.g. "words_moved" of all controllers).
[[nodiscard]] std::uint64_t sum_by_leaf(const std::vector<StatEntry>& entries,
                                        const std::string& leaf);

}  // namespace orthosim::traces
