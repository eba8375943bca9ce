// The whole multiprocessor verilated as one unit (rtl/multiprocessor.sv through
// rtl::MultiprocessorRtl): processors, bus controllers, index manipulators, the sync unit and the
// memory side (the omp's module array, the crossbar's or the bus's interconnect). With
// processor = rtl it runs the program in place of the models, which only load it and check what
// it delivered; with processor = cosim it runs beside them in lockstep, and every cycle compares
// what the contract defines (docs/rtl.md, "The whole machine in the systems"):
//
//   <system>.p<i>      activity (traces::Activity's class), op (the model's op index), finished
//   <system>.bc<i>     bus_valid, and with a word on the bus bus_sel, bus_addr, bus_data
//   <system>.arbiter   grant[i]: BC(i) gets its bus and modules in this cycle
//   <system>.sync      interrupt_busy
//
// and at the end the statistics (per processor compute, memory and sync cycles and ops; the sync
// unit's barriers, bus switches and syncs delivered; the arbiter's conflicts and wait cycles).
// The model side is what the model blocks tell their recorder, heard through an observer.
// With processor = rtl the verilated blocks tell the recorder what the model blocks would: each
// processor's activity, step marks and interrupt grants, each controller's accesses (their
// records too) and words, each bus's holder. What the RTL shows only later (an access's end, an
// interrupt's grant) is told late under a claim (traces::Recorder::claim).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <systemc>
#include <vector>

#include "rtl/bridge/multiprocessor_rtl.hpp"
#include "sc_models/cosim/program_image.hpp"
#include "sc_models/kernel/clock_domain.hpp"
#include "sc_models/kernel/lockstep_checker.hpp"
#include "sc_models/multiprocessor/block_wiring.hpp"

namespace orthosim::sc {

/// Test-only (docs/rtl.md): a deliberate error on the model's side of the whole machine's
/// co-simulation, which must be caught at its cycle and signal.
struct MachineFault {
  enum class Kind : std::uint8_t {
    None,
    LateActivity,   ///< P(block)'s first activity change at or after `at` is seen a cycle late
    FlipInterrupt,  ///< the interrupt bus's busy flag of cycle `at` is flipped
    LateGrant,      ///< the first grant at or after `at` is seen a cycle late
    /// BC(block)'s first word on the bus at or after `at` is seen at the next address
    ShiftedAddress,
    /// P(block)'s finish at or after `at` is seen a cycle late (its Idle activity on time)
    LateFinish,
  };
  Kind kind = Kind::None;
  std::uint32_t block = 0;
  Cycle at;
};

class RtlMachine final : public sc_core::sc_module, public MachineTwin, private traces::Recorder {
 public:
  SC_HAS_PROCESS(RtlMachine);
  /// `system`: the system's hierarchical name ("omp"), the root of the instances reported.
  /// `recorder`: the system's; with processor = rtl it hears the verilated processors'
  /// activities and step marks under the model processors' names.
  RtlMachine(const sc_core::sc_module_name& name, const sw::SystemConfig& config,
             const std::string& system, const ClockDomain& clock, traces::Recorder& recorder,
             rtl::FstTrace* fst, std::function<void(const Mismatch&)> on_mismatch,
             MachineFault fault);
  ~RtlMachine() override;

  [[nodiscard]] bool beside_models() const override { return cosim_; }
  void check(const sw::MachineProgram& program) const override;
  void load(const sw::MachineProgram& program) override;
  [[nodiscard]] bool finished() const override { return !running_ && rtl_finished_; }
  [[nodiscard]] std::optional<Cycle> last_cycle() const override {
    return running_ || program_ == nullptr ? std::nullopt
                                           : std::optional<Cycle>(start_ + Cycle{last_.cycle});
  }
  void result(sw::RunSummary& summary) const override;
  [[nodiscard]] traces::Recorder* observer() override { return cosim_ ? this : nullptr; }

  /// Machine cycles the verilated unit ran since construction.
  [[nodiscard]] std::uint64_t rtl_cycles() const { return rtl_cycles_; }

 private:
  /// One machine cycle of the verilated unit, at the start of the next cycle.
  void step();
  /// The counters and the end of the run from one cycle's outputs.
  void account(const rtl::MultiprocessorCycle& out);
  /// processor = rtl: what the verilated processors and bus controllers did in cycle `c`, to
  /// the recorder, as the model blocks tell it (the same waveform signals, docs/waveforms.md).
  void show(const rtl::MultiprocessorCycle& out, std::uint64_t c);
  /// show()'s bus controllers: an access ending, one beginning, the word on the bus.
  void show_buses(const rtl::MultiprocessorCycle& out, Cycle now);
  /// The recorder's claim (traces::Recorder::claim) once the events before `next` are told:
  /// the earliest cycle of an event it may still tell.
  void claim_after(Cycle next);
  /// The recorder's ids of the model blocks, found by name (rtl, with a recorder).
  void find_sources();
  /// The recorder's id of the source named `<system>.<name>` (the model block's).
  [[nodiscard]] traces::SourceId source_named(const std::string& name) const;
  /// The model's outputs of cycle `c` (relative to the load) against the RTL's.
  void compare(const rtl::MultiprocessorCycle& out, std::uint64_t c);
  /// End-of-run figures: model against RTL (cosim), or the RTL's into the summary (rtl).
  void figures(sw::RunSummary& summary) const;

  // traces::Recorder: the model blocks' events (cosim).
  [[nodiscard]] bool enabled() const override { return true; }
  traces::SourceId register_source(const std::string& path, traces::SourceKind kind) override;
  void activity(Cycle at, traces::SourceId processor, traces::Activity what,
                std::uint32_t op_index) override;
  void access(Cycle start, Cycle end, traces::SourceId controller,
              const traces::AccessTrace& a) override;
  void beat(Cycle at, Cycle length, traces::SourceId controller, const traces::AccessTrace& a,
            std::uint32_t slot, std::uint32_t address, std::uint32_t data) override;
  void interrupt_granted(Cycle at, traces::SourceId processor, Cycle requested) override;

  const sw::SystemConfig config_;
  const std::string system_;
  const ClockDomain& clock_;
  traces::Recorder& recorder_;
  /// The recorder's ids of the model processors, bus controllers and buses (in
  /// MemoryOrganization::buses() order) (rtl), found by name at the first load.
  std::vector<traces::SourceId> processor_sources_, controller_sources_, bus_sources_;
  std::vector<std::pair<traces::Activity, std::uint32_t>> shown_;  ///< last told, per processor
  /// An access told begun and not yet ended: its grant and its record (the slots are the
  /// bridge's decoded instruction's, rtl::MultiprocessorRtl::loaded_op).
  struct ShownAccess {
    Cycle grant;
    traces::AccessTrace trace;
  };
  std::vector<std::optional<ShownAccess>> shown_access_;  ///< per bus controller
  /// Per processor, the activate-sync it waits in for the interrupt bus: its pc and the cycle it
  /// asked (came to that pc).
  std::vector<std::optional<std::pair<std::uint32_t, Cycle>>> shown_interrupt_;
  const bool cosim_;
  std::function<void(const Mismatch&)> on_mismatch_;
  MachineFault fault_;
  std::unique_ptr<rtl::MultiprocessorRtl> rtl_;
  sc_core::sc_event ev_step_;
  std::vector<Mismatch> found_;  ///< the mismatches of the last compared cycle

  const sw::MachineProgram* program_ = nullptr;
  std::vector<ProcessorImage> images_;
  Cycle start_;
  bool running_ = false;
  bool rtl_finished_ = true;
  std::uint64_t rtl_cycles_ = 0;
  std::uint64_t quiet_ = 0;  ///< cycles in a row in which nothing moved
  bool stuck_ = false;

  // What the RTL did, per processor and per bus controller.
  std::vector<std::optional<std::uint64_t>> finish_;
  std::vector<std::uint32_t> last_pc_;
  std::vector<std::uint64_t> pc_since_;   ///< the cycle each processor came to its pc
  std::vector<std::uint32_t> pc_before_;  ///< each processor's pc before the last cycle stepped
  std::vector<std::uint64_t> step_ends_;
  std::vector<std::uint64_t> accesses_, valid_cycles_, busy_cycles_;
  std::vector<std::uint32_t> last_mode_;
  std::uint64_t activates_ = 0;
  rtl::MultiprocessorCycle last_;

  // The model side (cosim), from the recorder calls.
  struct SourceOf {
    traces::SourceKind kind;
    std::uint32_t index = 0;
  };
  std::vector<SourceOf> sources_of_;
  struct ModelProcessor {
    std::uint32_t activity = 0;  ///< activity_class()
    std::uint32_t op = 0;
    bool finished = false;
  };
  struct Seen {
    Cycle at;
    ModelProcessor state;
  };
  std::vector<ModelProcessor> model_;
  /// The changes not applied yet: a step sees those of its cycle and before (a LateActivity
  /// fault's change one cycle late).
  std::vector<std::deque<Seen>> model_events_;
  struct Beat {
    Cycle at;
    Cycle length;
    std::uint32_t slot, address, data;
  };
  std::vector<std::deque<Beat>> beats_;
  std::vector<std::deque<Cycle>> grants_;
  std::deque<Cycle> interrupt_grants_;
  std::vector<LockstepChecker> processor_checks_, bus_checks_;
  std::optional<LockstepChecker> arbiter_check_, sync_check_;
  /// The arbiter's signal names, "grant[i]", made once: compare() runs every cycle.
  std::vector<std::string> grant_signals_;
};

}  // namespace orthosim::sc
