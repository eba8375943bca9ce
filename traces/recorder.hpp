// The observer interface every SystemC block reports its activity to (STYLE rule 9). The base
// class records nothing and reports enabled() == false, so blocks skip building events entirely
// when nobody listens; recording never changes timing.
//
// Every call is made at the current simulation cycle `at`, except beat() and access_end(), which
// a bus controller announces when its access is granted, for cycles up to the end of the access.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sw/core/cycle.hpp"

namespace orthosim::traces {

using sw::Cycle;
using SourceId = std::uint32_t;

/// What a processor is doing; shown as the `op` signal of each processor in waveforms.
enum class Activity : std::uint8_t {
  Idle = 0,  ///< finished, or not started
  Compute = 1,
  Read = 2,   ///< a stand-alone memory read
  Write = 3,  ///< a stand-alone memory write
  IwrWrite = 4,   ///< the write half of an IWR step
  BusSwitch = 5,  ///< waiting for the group, then the gamma bus switch
  IwrRead = 6,    ///< the read half of an IWR step
  ActivateSync = 7,
  WaitSync = 8,
  Barrier = 9,
};

/// Bus-controller mode, as in the omp: the row bus, the column bus, or neither. The crossbar's
/// and the single bus's controllers drive their one kind of bus in Row mode.
enum class BusMode : std::uint8_t { Idle = 0, Row = 1, Column = 2 };

enum class SourceKind : std::uint8_t { Processor, BusController, Bus };

struct Source {
  std::string path;  ///< dot-separated hierarchical name, e.g. "omp.bc3"
  SourceKind kind;
};

struct AccessTrace {
  BusMode mode = BusMode::Idle;
  SourceId bus = 0;  ///< the bus source driven
  std::uint32_t bus_index = 0;
  std::uint32_t master = 0;  ///< processor id
  bool write = false;
};

class Recorder {
 public:
  virtual ~Recorder() = default;

  [[nodiscard]] virtual bool enabled() const { return false; }

  /// Called during elaboration; the id is the index in sources().
  SourceId register_source(const std::string& path, SourceKind kind) {
    sources_.push_back({path, kind});
    return static_cast<SourceId>(sources_.size() - 1);
  }
  [[nodiscard]] const std::vector<Source>& sources() const { return sources_; }

  virtual void activity(Cycle /*at*/, SourceId /*processor*/, Activity /*what*/,
                        std::uint32_t /*op_index*/) {}
  virtual void access_begin(Cycle /*at*/, SourceId /*controller*/, const AccessTrace& /*a*/) {}
  /// One word on the bus for `length` cycles from `at`.
  virtual void beat(Cycle /*at*/, Cycle /*length*/, SourceId /*controller*/,
                    const AccessTrace& /*a*/, std::uint32_t /*slot*/, std::uint32_t /*address*/,
                    std::uint32_t /*data*/) {}
  virtual void access_end(Cycle /*at*/, SourceId /*controller*/, const AccessTrace& /*a*/) {}

 private:
  std::vector<Source> sources_;
};

}  // namespace orthosim::traces
