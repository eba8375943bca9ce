// Synchronization over the interprocessor interrupt bus ([PH91] section 4.3, Fig. 4):
// activate-sync / wait-sync tokens for producer-consumer hand-over, group barriers, and the bus
// switch in the middle of an IWR step, which is a barrier of the step's group that costs gamma.
// Passive bookkeeping: the processors call it; it resumes them through Resumable.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "sc_models/multiprocessor/interfaces.hpp"
#include "sw/machine/machine_program.hpp"
#include "traces/stats.hpp"

namespace orthosim::sc {

enum class Rendezvous : std::uint8_t { Barrier, BusSwitch };

class SyncUnit {
 public:
  SyncUnit(const std::string& name, std::uint32_t n, traces::StatsRegistry& stats);

  /// The processors to resume; set once during elaboration.
  void attach(std::vector<Resumable*> processors) { processors_ = std::move(processors); }
  /// Back to no pending tokens and no open rendezvous (between runs).
  void reset();

  /// `p` arrives at a barrier or bus switch of `group`. When the last member arrives, every
  /// member (the last one too) resumes `release_delay` cycles later. Returns after recording the
  /// arrival; the caller stays suspended until resumed.
  void arrive(Rendezvous kind, sw::ProcId p, const sw::ProcSet& group, Cycle release_delay);

  /// An activate-sync from `source` has reached every target (after its interrupt bus time).
  void deliver(sw::ProcId source, const sw::ProcSet& targets);
  /// Consumes one token from `source` for `self` if one is there.
  [[nodiscard]] bool try_consume(sw::ProcId self, sw::ProcId source);
  /// `self` suspends until a token from `source` is delivered; then it is resumed and consumes it.
  void wait(sw::ProcId self, sw::ProcId source);

  /// "waits for activate-sync from P1" / "waits at barrier {0,1,2}: missing P2"; "" if none.
  [[nodiscard]] std::string describe_wait(sw::ProcId p) const;

 private:
  struct Episode {
    sw::ProcSet group;
    std::vector<sw::ProcId> arrived;
  };

  std::uint32_t n_;
  std::vector<Resumable*> processors_;
  std::map<std::pair<Rendezvous, sw::ProcSet>, Episode> open_;
  std::vector<std::vector<std::uint32_t>> tokens_;  ///< [target][source]
  std::vector<std::int64_t> waiting_for_;           ///< source a processor waits on, or -1

  std::uint64_t barriers_ = 0;
  std::uint64_t bus_switches_ = 0;
  std::uint64_t syncs_delivered_ = 0;
};

}  // namespace orthosim::sc
