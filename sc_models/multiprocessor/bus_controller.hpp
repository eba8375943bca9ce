// Bus controller BC(i) of processor P(i) ([PH91] section 3.1). It performs one memory access at
// a time for its processor: it asks the arbiter for the bus and the modules, and once granted it
// steps the protocol of Fig. 5 (start-up alpha; per vector, after the first, an address increment
// beta; per word one minor cycle tau), moving each word between a module and the data buffer
// the index manipulator selects. On the omp BC(i) drives RB(i) (row mode) or CB(i) (column mode).
//
// The whole schedule of an access is known at its grant, so the controller is activated twice
// per access (grant, end), not once per word; words are announced to the recorder with their
// cycles. An idle controller is never activated (modeling rule 2). It publishes each access's
// schedule to its observer and asks MemoryGrants for its bus and modules (access_schedule.hpp);
// a verilated controller performs an access in its place through perform_begin/word/end.
#pragma once

#include <cstdint>
#include <string>
#include <systemc>
#include <vector>

#include "sc_models/kernel/clock_domain.hpp"
#include "sc_models/kernel/word_store.hpp"
#include "sc_models/multiprocessor/access_schedule.hpp"
#include "sc_models/multiprocessor/index_manipulator.hpp"
#include "sc_models/multiprocessor/interfaces.hpp"
#include "sc_models/multiprocessor/resource_arbiter.hpp"
#include "sw/arch/system_config.hpp"
#include "sw/machine/machine_program.hpp"
#include "traces/recorder.hpp"
#include "traces/stats.hpp"

namespace orthosim::sc {

/// How the controllers reach the rest of the system: who grants, the arbiter's resource ids of
/// buses and modules, the modules themselves, and the recorder's ids of the buses.
struct MemoryFabric {
  sw::MemoryOrganization organization;
  MemoryGrants& grants;
  std::vector<WordStore>& modules;
  std::vector<ResourceId> bus_resource;      ///< by MemoryOrganization::bus_index
  std::vector<ResourceId> module_resource;   ///< by ModuleId
  std::vector<traces::SourceId> bus_source;  ///< by MemoryOrganization::bus_index
};

class BusController : public sc_core::sc_module, public Grantee {
 public:
  SC_HAS_PROCESS(BusController);
  BusController(const sc_core::sc_module_name& name, sw::ProcId id, const sw::BusTiming& timing,
                const ClockDomain& clock, MemoryFabric& fabric, IndexManipulator& manipulator,
                traces::Recorder& recorder, traces::StatsRegistry& stats);

  /// Starts `access` for the processor; `requester` resumes when the access is complete. The
  /// access is copied; validation has already checked it against the configuration.
  void start(const sw::MemoryAccess& access, Resumable& requester);

  /// Forgets an access left waiting by a deadlocked run.
  void reset() { waiting_for_grant_ = false; }

  /// The model performs the granted access: the schedule of Fig. 5.
  void granted(Cycle now) override;
  [[nodiscard]] std::string grantee_name() const override;
  /// Words this controller moved over its bus since elaboration.
  [[nodiscard]] std::uint64_t words_moved() const { return words_moved_; }

  /// Who hears every access's schedule (nullptr: nobody, and no schedule is kept).
  void observe(AccessObserver* observer) { observer_ = observer; }
  /// The tap on the bus (nullptr: none).
  void tap(const BusTap* tap) { tap_ = tap; }

  /// An access performed in the model's place (a verilated controller granted instead of this
  /// one): it begins at its grant, its words go on the bus, and its last cycle is `last`.
  [[nodiscard]] const sw::MemoryAccess& access() const { return access_; }
  void perform_begin(Cycle grant);
  void perform_word(Cycle at, std::uint32_t slot, std::uint32_t address, Word word);
  void perform_end(Cycle grant, Cycle last);

  [[nodiscard]] const sw::MemoryOrganization& organization() const { return fabric_.organization; }

 private:
  void finish_access();
  /// The granted access performed with nobody watching its beats: the same words and end.
  void move_words(Cycle now);
  /// The bookkeeping of an access granted at `grant` that ends at the start of cycle `end`; the
  /// requester resumes `resume_in` cycles from the current one.
  void end_access(Cycle grant, Cycle end, Cycle resume_in);
  [[nodiscard]] traces::AccessTrace trace_of(const sw::MemoryAccess& a) const;

  const sw::ProcId id_;
  const sw::BusTiming timing_;
  const ClockDomain& clock_;
  MemoryFabric& fabric_;
  IndexManipulator& manipulator_;
  traces::Recorder& recorder_;
  traces::SourceId source_;

  // The access being requested or performed. The processor resumes at the cycle the access ends,
  // possibly before finish_access() has run in that cycle, and may start its next access then;
  // so the ending access keeps its own copy of what it releases.
  sw::MemoryAccess access_;
  std::vector<sw::ModuleId> modules_;  ///< of access_, by stream position
  std::vector<ResourceId> requested_;
  Resumable* requester_ = nullptr;
  bool waiting_for_grant_ = false;
  Cycle busy_until_;
  Cycle requested_at_;         ///< when the current access was asked for (event traces)
  traces::AccessTrace trace_;  ///< of the access in progress
  std::vector<ResourceId> ending_resources_;
  traces::AccessTrace ending_trace_;
  /// The modules whose words [ending_address_, + ending_words_) the ending access consumed
  /// (sw::MemoryAccess::consumed): forgotten when it ends, once an RTL twin has read them too.
  std::vector<sw::ModuleId> ending_consumed_;
  std::uint32_t ending_address_ = 0;
  std::uint32_t ending_words_ = 0;
  sc_core::sc_event ev_end_;

  std::vector<Word> words_;  ///< move_words' scratch: one stream position's words
  AccessObserver* observer_ = nullptr;
  const BusTap* tap_ = nullptr;

  std::uint64_t accesses_ = 0;
  std::uint64_t words_moved_ = 0;
  std::uint64_t busy_cycles_ = 0;
  std::uint64_t activations_ = 0;
};

}  // namespace orthosim::sc
