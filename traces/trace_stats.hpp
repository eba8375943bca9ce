// `orthosim trace stats`: what a run did, from its event trace or from its VCD waveform
// (docs/traces.md). The event trace says everything below; a VCD says what its signals allow
// (processor activity shares, bus busy time, the run's length) and lists what it cannot say.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sw/core/input_file.hpp"

namespace orthosim::traces {

/// Cycles of one processor (or network node) by what it was doing.
struct ProcessorShare {
  std::string name;
  std::uint64_t compute = 0;
  std::uint64_t memory = 0;   ///< read, write and the IWR halves, conflict waits included
  std::uint64_t sync = 0;     ///< bus switch, activate-sync, wait-sync, barrier
  std::uint64_t message = 0;  ///< a network node waiting for a message
  std::uint64_t idle = 0;     ///< not started or finished
};

/// A bus (busy cycles, accesses) or a network channel (flits that crossed it, packets).
struct Usage {
  std::string name;
  std::uint64_t busy = 0;
  std::uint64_t count = 0;
};

struct LatencySummary {
  std::uint64_t count = 0;
  std::uint64_t min = 0;
  std::uint64_t max = 0;
  double mean = 0;
  std::uint64_t p50 = 0;  ///< ranks as `orthosim traffic`: the ceil(q n)-th smallest
  std::uint64_t p99 = 0;
  std::uint64_t bin_width = 1;
  std::vector<std::uint64_t> histogram;  ///< bin k counts latencies in [min + k w, min + (k+1) w)
};

struct TraceStats {
  std::string format;  ///< "event-trace" or "vcd"
  std::uint32_t clock_ns = 0;
  std::uint64_t cycles = 0;  ///< from the first run's start to the end of the trace
  std::uint64_t runs = 0;    ///< programs or traffic rates in the trace
  std::vector<ProcessorShare> processors;
  std::vector<Usage> buses;
  std::vector<Usage> channels;  ///< only channels that carried packets
  /// Per program step: the cycle the last processor ended it, from its run's start.
  std::vector<std::uint64_t> step_ends;
  std::uint64_t accesses = 0;
  std::uint64_t words = 0;
  std::uint64_t conflicts = 0;  ///< accesses and interrupts granted later than requested
  std::uint64_t conflict_wait_cycles = 0;
  std::uint64_t messages_sent = 0;
  std::uint64_t messages_delivered = 0;
  std::uint64_t max_channel_contention = 0;  ///< the most packets through one channel
  LatencySummary latency;                    ///< send to delivery, measured messages only
  /// What the input cannot say (a VCD has no requests, steps or messages).
  std::vector<std::string> cannot_say;
};

/// Reads an event trace or a VCD written by orthosim (told apart by their first line); throws
/// sw::InputError naming file:line:col for anything else.
[[nodiscard]] TraceStats trace_stats(const std::string& path);
[[nodiscard]] TraceStats event_trace_stats(const std::string& path);
/// The statistics of any event trace input, e.g. an sw::InputFile::from_text.
[[nodiscard]] TraceStats event_trace_stats(sw::InputFile input);
[[nodiscard]] TraceStats vcd_stats(const std::string& path);
/// The VCD reader on any input, e.g. an sw::InputFile::from_text.
[[nodiscard]] TraceStats vcd_stats(sw::InputFile input);

/// A multiset of latencies (cycles) held as a count per value, so that what a run keeps follows
/// the spread of its latencies rather than the number of its packets: a count per cycle below
/// kDense, a map entry per distinct value above.
class LatencyCounts {
 public:
  void add(std::uint64_t latency);
  [[nodiscard]] std::uint64_t count() const { return count_; }
  /// Min, mean, ranks and a histogram of `bins` bins. The mean adds the values one by one in
  /// increasing order, as a sum over the sorted values does, to the same last bit.
  [[nodiscard]] LatencySummary summary(std::uint32_t bins) const;
  void clear();

 private:
  static constexpr std::uint64_t kDense = 1 << 16;
  /// f(value, how many) for every value held, in increasing order.
  template <class F>
  void for_each(F f) const;
  std::vector<std::uint64_t> dense_;  ///< [latency < kDense]
  std::map<std::uint64_t, std::uint64_t> sparse_;
  std::uint64_t count_ = 0;
};

}  // namespace orthosim::traces
