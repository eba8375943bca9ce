// Bus controller BC(i) of processor P(i) ([PH91] section 3.1). It performs one memory access at
// a time for its processor: it asks the arbiter for the bus and the modules, and once granted it
// steps the protocol of Fig. 5 (start-up alpha; per vector, after the first, an address increment
// beta; per word one minor cycle tau), moving each word between a module and the data buffer
// the index manipulator selects. On the omp BC(i) drives RB(i) (row mode) or CB(i) (column mode).
//
// The whole schedule of an access is known at its grant, so the controller is activated twice
// per access (grant, end), not once per word; words are announced to the recorder with their
// cycles. An idle controller is never activated (modeling rule 2).
#pragma once

#include <cstdint>
#include <string>
#include <systemc>
#include <vector>

#include "sc_models/kernel/clock_domain.hpp"
#include "sc_models/multiprocessor/index_manipulator.hpp"
#include "sc_models/multiprocessor/interfaces.hpp"
#include "sc_models/multiprocessor/resource_arbiter.hpp"
#include "sc_models/multiprocessor/rtl_datapath.hpp"
#include "sc_models/multiprocessor/rtl_memory.hpp"
#include "sc_models/multiprocessor/word_store.hpp"
#include "sw/arch/system_config.hpp"
#include "sw/machine/machine_program.hpp"
#include "traces/recorder.hpp"
#include "traces/stats.hpp"

namespace orthosim::sc {

/// How the controllers reach the rest of the system: the arbiter's resource ids of buses and
/// modules, the modules themselves, and the recorder's ids of the buses.
struct MemoryFabric {
  sw::MemoryOrganization organization;
  ResourceArbiter& arbiter;
  std::vector<WordStore>& modules;
  std::vector<ResourceId> bus_resource;     ///< by MemoryOrganization::bus_index
  std::vector<ResourceId> module_resource;  ///< by ModuleId
  std::vector<traces::SourceId> bus_source; ///< by MemoryOrganization::bus_index
  /// The verilated module array (memory = cosim: beside the arbiter and the modules; rtl: in
  /// their place), or nullptr.
  RtlMemory* rtl_memory = nullptr;
};

class BusController : public sc_core::sc_module, public Grantee, public RtlAccessListener {
 public:
  /// A deliberate error of the model, for tests only: the co-simulation with the RTL must catch
  /// it (docs/architecture.md, "Model = RTL"; tests/rtl/multiprocessor_rtl_test.cpp).
  struct Fault {
    enum class Kind : std::uint8_t {
      None,
      FlipBit,     ///< the word on the bus in cycle `at` has bit `bit` flipped
      ExtraCycle,  ///< the access granted in cycle `at` takes one cycle more in its start-up
    };
    Kind kind = Kind::None;
    Cycle at;
    std::uint32_t bit = 0;
  };

  SC_HAS_PROCESS(BusController);
  BusController(const sc_core::sc_module_name& name, sw::ProcId id, const sw::BusTiming& timing,
                const ClockDomain& clock, MemoryFabric& fabric, IndexManipulator& manipulator,
                traces::Recorder& recorder, traces::StatsRegistry& stats);

  /// Starts `access` for the processor; `requester` resumes when the access is complete. The
  /// access is copied; validation has already checked it against the configuration.
  void start(const sw::MemoryAccess& access, Resumable& requester);

  /// Forgets an access left waiting by a deadlocked run.
  void reset() { waiting_for_grant_ = false; }

  void granted(Cycle now) override;
  [[nodiscard]] std::string grantee_name() const override;
  /// Words this controller moved over its bus since elaboration.
  [[nodiscard]] std::uint64_t words_moved() const { return words_moved_; }

  /// The verilated twin: with bus = rtl it performs the accesses in place of the model, with
  /// bus = cosim it runs beside it and is compared every cycle.
  void attach_rtl(RtlDatapath& datapath, sw::Impl impl);
  void inject_fault(const Fault& fault) { fault_ = fault; }
  void rtl_beat(Cycle at, std::uint32_t slot, std::uint32_t address, Word word) override;
  void rtl_last(Cycle at) override;
  [[nodiscard]] const sw::MemoryOrganization& organization() const { return fabric_.organization; }

 private:
  void finish_access();
  /// The word on the bus from `beat`, with the test-only fault applied.
  [[nodiscard]] Word flip(Word word, Cycle beat) const;
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
  std::vector<ResourceId> requested_;
  Resumable* requester_ = nullptr;
  bool waiting_for_grant_ = false;
  Cycle busy_until_;
  Cycle requested_at_;  ///< when the current access was asked for (event traces)
  std::vector<ResourceId> ending_resources_;
  traces::AccessTrace ending_trace_;
  sc_core::sc_event ev_end_;

  RtlDatapath* rtl_ = nullptr;
  sw::Impl rtl_impl_ = sw::Impl::Model;
  Cycle granted_at_;
  traces::AccessTrace rtl_trace_;
  Fault fault_;

  std::uint64_t accesses_ = 0;
  std::uint64_t words_moved_ = 0;
  std::uint64_t busy_cycles_ = 0;
  std::uint64_t activations_ = 0;
};

}  // namespace orthosim::sc
