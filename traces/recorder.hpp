// The observer interface every SystemC block reports its activity to (modeling rule 9). The base
// class records nothing and reports enabled() == false, so blocks skip building events entirely
// when nobody listens; recording never changes timing.
//
// Every call is made at the current simulation cycle `at`, except beat() and access_end(), which
// a bus controller announces when its access is granted, for cycles up to the end of the access,
// access(), which gives the whole access (grant to end) at its grant, and channel_occupancy(),
// which the network announces in cycle `at` - 1, the cycle a flit entered or left the buffer. A
// block that learns an event only after it happened tells it late under a claim (claim()).
#pragma once

#include <cstdint>
#include <optional>
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
  Read = 2,       ///< a stand-alone memory read
  Write = 3,      ///< a stand-alone memory write
  IwrWrite = 4,   ///< the write half of an IWR step
  BusSwitch = 5,  ///< waiting for the group, then the gamma bus switch
  IwrRead = 6,    ///< the read half of an IWR step
  ActivateSync = 7,
  WaitSync = 8,
  Barrier = 9,
  WaitMessage = 10,  ///< a network node waiting for a message to arrive (a Receive)
};

/// Bus-controller mode, as in the omp: the row bus, the column bus, or neither. The crossbar's
/// and the single bus's controllers drive their one kind of bus in Row mode.
enum class BusMode : std::uint8_t { Idle = 0, Row = 1, Column = 2 };

/// Processor: a multiprocessor's processor or a network node. Channel: a router's output port
/// on a network ("torus.r(2,1).x+").
enum class SourceKind : std::uint8_t { Processor, BusController, Bus, Channel };

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
  Cycle requested;              ///< when the processor asked for the bus and modules
  std::uint32_t index_set = 0;  ///< the index manipulator's set the words go through
  std::uint32_t address = 0;    ///< word address of the first vector in every module
  std::uint32_t vectors = 0;    ///< l: vectors of d words
  /// The module slots on the bus, one per word of a vector; valid during the call only.
  const std::vector<std::uint32_t>* slots = nullptr;
};

/// One event of a message on a network ([LCC] section 6): the node's send, the header of a
/// packet entering its source router (inject), crossing a router-to-router link (hop), the tail
/// leaving the destination router (eject), the last tail of the message leaving the network
/// (deliver, with the cycle the destination sees it), and the destination node passing its
/// Receive (receive).
enum class MessageEvent : std::uint8_t { Send, Inject, Hop, Eject, Deliver, Receive };

struct MessageTrace {
  MessageEvent what = MessageEvent::Send;
  std::uint32_t message = 0;
  /// Send: the source node; Inject, Eject: the router; Deliver, Receive: the destination node.
  std::uint32_t node = 0;
  std::uint32_t dst = 0;   ///< Send: the destination node
  std::uint32_t size = 0;  ///< Send: words; Inject, Hop, Eject: the packet's flits
  SourceId channel = 0;    ///< Hop: the channel source of the output port taken
  std::uint32_t vc = 0;    ///< Hop: the virtual channel
  bool measured = true;    ///< Send: inside a traffic run's measurement window
  /// Deliver: the cycle the destination sees the message, one after the tail left the network
  /// (the cycle of the event).
  Cycle visible = Cycle{0};
};

class Recorder {
 public:
  virtual ~Recorder() = default;

  [[nodiscard]] virtual bool enabled() const { return false; }

  /// Called during elaboration; the id is the index in sources().
  virtual SourceId register_source(const std::string& path, SourceKind kind) {
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
  /// The whole access, from its grant `start` to its `end`, announced at the grant.
  virtual void access(Cycle /*start*/, Cycle /*end*/, SourceId /*controller*/,
                      const AccessTrace& /*a*/) {}
  /// An activate-sync got the interrupt bus it asked for at `requested`.
  virtual void interrupt_granted(Cycle /*at*/, SourceId /*processor*/, Cycle /*requested*/) {}
  /// A block that tells some events late claims, under one of its sources, the earliest cycle it
  /// may still tell an event of: the verilated multiprocessor (sc::RtlMachine) tells the events
  /// of a cycle at the start of the next, an access's record (dated at its grant) at the access's
  /// last cycle, where the RTL shows its end, and an interrupt's grant once the interrupt is
  /// delivered. A writer that keeps its file in cycle order holds back the events from the
  /// earliest claim on. nullopt drops the claim.
  virtual void claim(SourceId /*source*/, std::optional<Cycle> /*from*/) {}
  /// The processor passed the end of program step `step` (0-based).
  virtual void step_mark(Cycle /*at*/, SourceId /*processor*/, std::uint32_t /*step*/) {}
  /// A program or a traffic run starts; message ids count from 0 again.
  virtual void run_begin(Cycle /*at*/, const std::string& /*label*/) {}
  virtual void message(Cycle /*at*/, const MessageTrace& /*m*/) {}
  /// Elaboration: channel source `channel` has `vcs` virtual channels (occupancy signals).
  virtual void channel_vcs(SourceId /*channel*/, std::uint32_t /*vcs*/) {}
  /// From cycle `at` on, virtual channel `vc` of the input buffer that channel `channel` feeds
  /// (at the next router) holds `flits` flits. Several calls for one cycle: the last one counts.
  virtual void channel_occupancy(Cycle /*at*/, SourceId /*channel*/, std::uint32_t /*vc*/,
                                 std::uint32_t /*flits*/) {}

 private:
  std::vector<Source> sources_;
};

}  // namespace orthosim::traces
