// The outcome of a run, in one vocabulary: the multiprocessor and the multicomputer return these
// types (as the synthetic traffic returns sw::TrafficPoint) and every command reports them, so
// no layer copies a result field by field. Free of SystemC.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sw/core/cycle.hpp"
#include "sw/machine/delivery_check.hpp"
#include "traces/stats.hpp"

namespace orthosim::sw {

/// --impl cosim: the first output where a model and its RTL twin differed (docs/rtl.md).
struct CosimMismatch {
  std::uint64_t cycle = 0;
  std::string instance;
  std::string signal;
  std::uint64_t model = 0;
  std::uint64_t rtl = 0;

  /// "cosim mismatch at cycle 16 in omp.bc1: bus_data model 0x33aea64b rtl 0x33aea643".
  [[nodiscard]] std::string to_string() const;
};

/// The outcome of running one program (a machine program on a multiprocessor, a routed program on
/// a network). Cycles count from the program's load.
struct RunSummary {
  bool completed = false;  ///< every processor or node reached the end of its program
  Cycle cycles;            ///< from load to the last processor's or node's end
  /// Multiprocessors: per processor, when it ended (empty for a network).
  std::vector<Cycle> processor_end;
  /// step_ends[k]: when the last processor or node passed the end of step k; empty when the
  /// program has no step marks.
  std::vector<Cycle> step_ends;
  /// When not completed: the watchdog's report, one line per blocked processor or node (and the
  /// network's cycle of waiting channels), or the one line saying the run stopped at the limit.
  std::vector<std::string> blocked;
  /// Not completed because the run reached the emulator's cycle limit (sw::kCycleLimit) while
  /// still busy: neither a deadlock nor a lost message.
  bool cycle_limit_reached = false;
  DeliveryReport delivery;
  std::uint64_t conflicts = 0;             ///< multiprocessors: requests that had to wait
  std::uint64_t conflict_wait_cycles = 0;  ///< ... and the cycles they waited
  std::uint64_t bus_words_moved = 0;       ///< multiprocessors: words over every bus
  /// Every statistic, counted over this run only.
  std::vector<traces::StatEntry> stats;
  /// The run stopped there; its waveform files stay FILE.partial.
  std::optional<CosimMismatch> mismatch;

  /// It completed and every message arrived intact.
  [[nodiscard]] bool payload_ok() const { return completed && delivery.ok(); }
};

/// One router-to-router channel after a run.
struct ChannelSummary {
  std::string name;  ///< "n3.x+": the channel leaving node 3 in the positive x direction
  std::uint32_t peak_flits = 0;  ///< the most flits its input buffers held at once
  std::uint64_t messages = 0;    ///< messages routed through it
};

/// A routed program's run on a network: the run and its channels.
struct NetworkRunSummary : RunSummary {
  std::uint64_t max_channel_contention = 0;
  /// Per program step: the most of the step's messages routed through one channel (1 when the
  /// step's routes share no channel, as a conflict-free schedule promises).
  std::vector<std::uint64_t> step_max_channel_contention;
  std::uint32_t peak_channel_occupancy = 0;
  std::vector<ChannelSummary> channels;
};

}  // namespace orthosim::sw
