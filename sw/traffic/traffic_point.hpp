// The figures of one synthetic-traffic run at one offered rate (docs/networks.md defines each):
// what the network emulation measures and what `orthosim traffic` prints.
#pragma once

#include <cstdint>
#include <string>

namespace orthosim::sw {

/// How synthetic traffic is offered and measured, apart from its pattern and rate: the one place
/// of its defaults (the command line, the runner and the network's sources share them).
struct TrafficParameters {
  /// Offered flits per node per cycle when no rate is asked for.
  static constexpr double kDefaultRate = 0.1;
  std::uint32_t flits = 20;      ///< per packet, header included ([LCC]: 20)
  bool exponential = false;      ///< exponential inter-arrival times, else Bernoulli per cycle
  std::uint64_t warmup = 1000;   ///< cycles before measuring
  std::uint64_t cycles = 10000;  ///< measured cycles
  std::uint64_t seed = 1;
};

struct TrafficPoint {
  double rate = 0;         ///< asked: flits per node per cycle
  double offered = 0;      ///< flits created per node per cycle in the window
  double accepted = 0;     ///< flits delivered per node per cycle in the window
  double latency_avg = 0;  ///< packet latency: creation to tail arrival, queueing included
  std::uint64_t latency_p50 = 0;
  std::uint64_t latency_p99 = 0;
  std::uint64_t latency_max = 0;
  bool sustainable = false;
  bool deadlocked = false;
  std::string deadlock;  ///< the watchdog's report
  /// --impl router=cosim: the first difference between the routers and the model ("" when none);
  /// the run stopped there.
  std::string cosim_mismatch;
  std::uint64_t sim_cycles = 0;  ///< cycles simulated, drain included
  std::uint64_t measured_packets = 0;
  std::uint64_t undelivered_measured = 0;  ///< measured packets still in flight at the end
  std::uint64_t flits_delivered = 0;       ///< over the whole run
  std::uint64_t flit_hops = 0;
  std::uint64_t words_corrupted = 0;
  std::uint64_t max_channel_contention = 0;
  std::uint32_t peak_channel_occupancy = 0;
  std::uint64_t source_queue_start = 0;  ///< packets waiting at the sources at the window's start
  std::uint64_t source_queue_end = 0;    ///< ... and at its end
};

}  // namespace orthosim::sw
