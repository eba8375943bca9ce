// Processor P(i): runs its machine program op by op. It owns its local memory and its index
// manipulator (data buffers + index memory), computes, issues memory accesses through its bus
// controller, and synchronizes over the interrupt bus. It is activated only when an op starts or
// ends, never per cycle (modeling rule 2).
#pragma once

#include <cstdint>
#include <string>
#include <systemc>
#include <vector>

#include "sc_models/kernel/clock_domain.hpp"
#include "sc_models/kernel/word_store.hpp"
#include "sc_models/multiprocessor/bus_controller.hpp"
#include "sc_models/multiprocessor/index_manipulator.hpp"
#include "sc_models/multiprocessor/interfaces.hpp"
#include "sc_models/multiprocessor/resource_arbiter.hpp"
#include "sc_models/multiprocessor/sync_unit.hpp"
#include "sw/arch/system_config.hpp"
#include "sw/machine/delivery_check.hpp"
#include "sw/machine/machine_program.hpp"
#include "traces/recorder.hpp"
#include "traces/stats.hpp"

namespace orthosim::sc {

/// A step mark passed by a processor: which step ended and when.
struct StepMarkRecord {
  std::uint32_t step = 0;
  Cycle at;
};

/// The blocks a processor works with.
struct ProcessorPorts {
  BusController& controller;
  ResourceArbiter& arbiter;
  ResourceId interrupt_bus;
  SyncUnit& sync;
};

class Processor : public sc_core::sc_module, public Resumable, public Grantee {
 public:
  SC_HAS_PROCESS(Processor);
  Processor(const sc_core::sc_module_name& name, sw::ProcId id, const sw::SystemConfig& config,
            const ClockDomain& clock, DataBuffers& manipulator, ProcessorPorts ports,
            traces::Recorder& recorder, traces::StatsRegistry& stats);

  /// Loads a program (the index sets go to the index manipulator) and starts it in the next
  /// delta cycle; the program must outlive the run. An empty program finishes at once. The words
  /// of the messages in the local memory are `messages`' (generated when read, checked when
  /// written); the local memory stores the others.
  void load(const sw::ProcessorProgram& program, sw::MessageMemory& messages);

  [[nodiscard]] bool finished() const { return finished_; }
  [[nodiscard]] Cycle finish_cycle() const { return finish_cycle_; }
  /// The step marks passed in the loaded program, in program order (absolute cycles).
  [[nodiscard]] const std::vector<StepMarkRecord>& step_marks() const { return step_marks_; }
  /// The op the processor is blocked in and what it waits for (watchdog report).
  [[nodiscard]] std::string describe_wait() const;

  void resume_after(Cycle delay) override;
  void granted(Cycle now) override;
  [[nodiscard]] std::string grantee_name() const override;

 private:
  void run();
  /// Advances the current op; true when it is complete, false when the processor must wait.
  bool step(const sw::Op& op);
  bool step_op(const sw::Compute& op);
  bool step_op(const sw::MemoryAccess& op);
  bool step_op(const sw::Iwr& op);
  bool step_op(const sw::BusSwitch& op);
  bool step_op(const sw::ActivateSync& op);
  bool step_op(const sw::WaitSync& op);
  bool step_op(const sw::Barrier& op);
  bool step_op(const sw::LoadBuffer& op);
  bool step_op(const sw::StoreBuffer& op);
  bool step_op(const sw::StepMark& op);
  /// A barrier or bus switch: arrive, wait for the group and the release delay.
  bool rendezvous(Rendezvous kind, const sw::ProcSet& group, Cycle release_delay,
                  traces::Activity what);
  void show(traces::Activity what);
  /// Enters the next phase of the current op: shows `what` and starts counting its cycles.
  void enter(traces::Activity what);
  void account(std::uint64_t& bucket);

  const sw::ProcId id_;
  const sw::SyncCosts sync_costs_;
  const std::uint64_t gamma_;
  const ClockDomain& clock_;
  DataBuffers& manipulator_;
  ProcessorPorts ports_;
  traces::Recorder& recorder_;
  traces::SourceId source_;
  WordStore local_;
  std::vector<Word> words_;  ///< LoadBuffer's and StoreBuffer's scratch

  const sw::ProcessorProgram* program_ = nullptr;
  sw::MessageMemory* messages_ = nullptr;
  /// The ops after the current one, decoded one at a time as the processor reaches them.
  sw::OpList::Reader next_ops_;
  sw::Op current_;  ///< op pc_
  std::size_t pc_ = 0;
  int phase_ = 0;  ///< progress inside the current op
  Cycle phase_start_;
  bool finished_ = true;
  Cycle finish_cycle_;
  std::vector<StepMarkRecord> step_marks_;
  bool pending_resume_ = false;
  sc_core::sc_event ev_resume_;

  std::uint64_t compute_cycles_ = 0;
  std::uint64_t memory_cycles_ = 0;  ///< from issuing an access to its end, waits included
  std::uint64_t sync_cycles_ = 0;    ///< in barriers, bus switches, activate-/wait-sync
  std::uint64_t ops_ = 0;
  std::uint64_t activations_ = 0;  ///< kernel activations of run(): cost follows activity
};

}  // namespace orthosim::sc
