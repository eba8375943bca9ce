// The statistics registry (modeling rule 8): counters registered once by reference under a unique
// hierarchical name, read when a snapshot is taken, listed sorted by name; and sum_by_leaf, which
// adds the counters whose last name component is the leaf, checked against a brute-force sum.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "traces/stats.hpp"

namespace orthosim {
namespace {

using traces::StatEntry;
using traces::StatsRegistry;

TEST(StatsRegistry, SnapshotIsSortedByNameAndReadsCurrentValues) {
  const std::vector<std::string> names = {"omp.rb1.busy_cycles", "omp.bc2.words_moved",
                                          "bus.b0.busy_cycles", "omp.bc10.words_moved",
                                          "omp.bc2.accesses"};
  std::array<std::uint64_t, 5> counters{};
  StatsRegistry registry;
  for (std::size_t i = 0; i < names.size(); ++i) {
    registry.add(names[i], &counters[i], "unit" + std::to_string(i), "about " + names[i]);
  }
  for (std::size_t i = 0; i < counters.size(); ++i) {
    counters[i] = 100 + i;  // after registration: the snapshot must see these
  }
  const std::vector<StatEntry> snap = registry.snapshot();
  ASSERT_EQ(snap.size(), names.size());
  std::vector<std::string> sorted = names;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t k = 0; k < snap.size(); ++k) {
    EXPECT_EQ(snap[k].name, sorted[k]);
    const auto i = static_cast<std::size_t>(std::find(names.begin(), names.end(), snap[k].name) -
                                            names.begin());
    ASSERT_LT(i, names.size());
    EXPECT_EQ(snap[k].value, 100 + i) << snap[k].name;
    EXPECT_EQ(snap[k].unit, "unit" + std::to_string(i));
    EXPECT_EQ(snap[k].description, "about " + names[i]);
  }
  counters[0] = 7;
  const std::vector<StatEntry> later = registry.snapshot();
  const auto it = std::find_if(later.begin(), later.end(),
                               [&](const StatEntry& e) { return e.name == names[0]; });
  ASSERT_NE(it, later.end());
  EXPECT_EQ(it->value, 7u);
}

TEST(StatsRegistry, EmptyRegistryHasAnEmptySnapshot) {
  EXPECT_TRUE(StatsRegistry{}.snapshot().empty());
}

TEST(StatsRegistry, DuplicateNameThrows) {
  std::uint64_t a = 1;
  std::uint64_t b = 2;
  StatsRegistry registry;
  registry.add("omp.bc0.accesses", &a, "accesses", "first");
  EXPECT_THROW(registry.add("omp.bc0.accesses", &b, "accesses", "second"), std::exception);
  const std::vector<StatEntry> snap = registry.snapshot();
  ASSERT_EQ(snap.size(), 1u);
  EXPECT_EQ(snap[0].value, 1u);
  EXPECT_NO_THROW(registry.add("omp.bc1.accesses", &b, "accesses", "other controller"));
}

/// Brute force: the part of `name` after its last dot, or nothing when there is no dot.
std::uint64_t leaf_sum(const std::vector<StatEntry>& entries, const std::string& leaf) {
  std::uint64_t total = 0;
  for (const StatEntry& e : entries) {
    const std::size_t dot = e.name.rfind('.');
    if (dot != std::string::npos && e.name.substr(dot + 1) == leaf) {
      total += e.value;
    }
  }
  return total;
}

TEST(SumByLeaf, AddsExactlyTheEntriesEndingInTheLeaf) {
  const std::vector<StatEntry> entries = {
      {"omp.bc0.words_moved", 3, "words", ""},
      {"omp.bc1.words_moved", 40, "words", ""},
      {"crossbar.bc0.words_moved", 500, "words", ""},
      {"omp.bc1.xwords_moved", 6000, "words", ""},
      {"words_moved", 70000, "words", ""},
      {"omp.words_moved.total", 800000, "words", ""},
      {"omp.bc2.accesses", 9, "accesses", ""},
      {"omp.rb0.accesses", 10, "accesses", ""},
      {"omp.rb0.busy_cycles", 11, "cycles", ""},
  };
  for (const std::string leaf :
       {"words_moved", "accesses", "busy_cycles", "xwords_moved", "total", "missing", "moved"}) {
    EXPECT_EQ(traces::sum_by_leaf(entries, leaf), leaf_sum(entries, leaf)) << leaf;
  }
  EXPECT_EQ(traces::sum_by_leaf(entries, "words_moved"), 543u);
  EXPECT_EQ(traces::sum_by_leaf({}, "words_moved"), 0u);
}

}  // namespace
}  // namespace orthosim
