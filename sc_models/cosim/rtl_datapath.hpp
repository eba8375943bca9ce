// The verilated datapath of one processor (docs/architecture.md, contract "Model = RTL"): its bus controller
// (rtl/bus_controller.sv) and, when asked, its index manipulator (rtl/index_manipulator.sv),
// clocked together with the system's model blocks around them: the arbiter, the memory modules
// and the processor.
//
//   bus = rtl    the RTL controller performs the access the arbiter granted: it moves every word
//                between the modules and the index manipulator (model or RTL) in the cycle the
//                RTL puts it on the bus, and its `last` output ends the access.
//   bus = cosim  the model performs the access (it moved the words at the grant, transaction
//                level); the RTL runs beside it on the same stimulus and every output is compared
//                every cycle with the model's schedule (sc::LockstepChecker).
//   im = cosim   the RTL index manipulator runs beside the model one on the same port values;
//   im = rtl     it replaces the model one (only with bus = rtl).
//
// Cost follows activity (modeling rule 2): this module clocks the RTL only in the cycles of an
// access (from its grant to the cycle of `done`); an idle datapath is never activated and its
// verilated models never evaluated. The verilated models are C++ models (docs/rtl.md, "Stepping
// a verilated unit"): this module sets their inputs, reads their outputs (evaluated when an input
// changed) and takes their rising edge by a call, with no clock signal and no delta cycle. The
// edge that ends cycle c happens at the start of cycle c + 1, so every model-side effect (module
// write, buffer write, the end of the access) lands in the same cycle as in the model.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <systemc>
#include <vector>

#include "rtl/bridge/bus_controller_rtl.hpp"
#include "rtl/bridge/index_manipulator_rtl.hpp"
#include "sc_models/kernel/clock_domain.hpp"
#include "sc_models/kernel/lockstep_checker.hpp"
#include "sc_models/kernel/word_store.hpp"
#include "sc_models/multiprocessor/access_schedule.hpp"
#include "sc_models/multiprocessor/index_manipulator.hpp"
#include "sw/arch/system_config.hpp"
#include "sw/machine/machine_program.hpp"

namespace orthosim::sc {

class RtlMemory;
class RtlDatapath;

/// The one process that clocks a system's verilated datapaths: at the start of each cycle in
/// which any of them runs an access it steps every running one, in processor order, and in the
/// delta after a start it starts the granted ones. One process per system instead of one per
/// processor: a SystemC thread switch and timed wait per processor and cycle cost more than the
/// verilated controller's evaluation (docs/performance.md, "The verilated datapath blocks").
/// The datapaths of one system depend on each other through nothing within a cycle (the
/// arbiter gives no two of them a module in the same cycle), so the order is free.
class DatapathStepper : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(DatapathStepper);
  DatapathStepper(const sc_core::sc_module_name& name, const ClockDomain& clock);

  /// Each datapath once, before the simulation starts.
  void add(RtlDatapath& datapath) { datapaths_.push_back(&datapath); }
  /// A datapath has a start pending: it is started in the next delta cycle, or earlier by
  /// start_pending().
  void wake() { ev_start_.notify(sc_core::SC_ZERO_TIME); }
  /// Starts every datapath with a start pending, now (the module array, memory = rtl, in the
  /// activation of its grants, so that their buses of the grant cycle reach its edge then).
  void start_pending();

 private:
  void stepping();

  const ClockDomain& clock_;
  std::vector<RtlDatapath*> datapaths_;
  sc_core::sc_event ev_start_;
};

/// How the RTL reports an access it performs in place of the model (bus = rtl).
class RtlAccessListener {
 public:
  virtual ~RtlAccessListener() = default;
  /// A word is on the bus from `at` (its first cycle).
  virtual void rtl_beat(Cycle at, std::uint32_t slot, std::uint32_t address, Word word) = 0;
  /// `at` is the access's last cycle: it ends at the start of at + 1.
  virtual void rtl_last(Cycle at) = 0;
};

class RtlDatapath : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(RtlDatapath);
  using MismatchHandler = std::function<void(const Mismatch&)>;

  /// `instance` names the controller in mismatch reports ("omp.bc3"); `modules` and the bus of
  /// each access give the words the bus reads and writes; `stepper` clocks it.
  RtlDatapath(const sc_core::sc_module_name& name, std::string instance, sw::ProcId id,
              const sw::SystemConfig& config, const ClockDomain& clock,
              std::vector<WordStore>& modules, IndexManipulator& manipulator, rtl::FstTrace* fst,
              MismatchHandler on_mismatch, DatapathStepper& stepper);
  ~RtlDatapath() override;

  /// The verilated index manipulator, running in place of the model (rtl) or beside it (cosim),
  /// clocked with the controller (built without a clock of its own).
  void attach_index_manipulator(rtl::IndexManipulatorRtl& im, sw::Impl impl, std::string instance);

  /// The verilated module array: it takes this controller's bus every cycle (memory = cosim or
  /// rtl) and, with memory = rtl, holds the modules the words are read from and written to.
  void attach_memory(RtlMemory& memory);

  /// bus = rtl: performs `access`, granted in the current cycle.
  void run(const sw::MemoryAccess& access, RtlAccessListener& listener);
  /// bus = cosim: runs `access` beside the model, which performed it as `expected`.
  void shadow(const sw::MemoryAccess& access, ModelAccess expected);

  /// Rising edges of the RTL clock so far: one per cycle of an access plus its done cycle.
  [[nodiscard]] std::uint64_t edges() const { return edges_; }

 private:
  friend class DatapathStepper;
  struct Expected;
  /// The current cycle, also between edges: with memory = rtl an access starts at half a cycle.
  [[nodiscard]] Cycle cycle() const;
  // The stepper's calls.
  /// Reset, then the timing registers, before the first access can be granted.
  void reset();
  /// Running an access: from its start to the cycle before its done cycle.
  [[nodiscard]] bool running() const { return running_; }
  [[nodiscard]] bool start_pending() const { return pending_; }
  /// The pending start, in the current cycle.
  void start();
  /// Cycle c begins (running): the edge that ends c - 1, then cycle c.
  void begin_cycle(Cycle c);
  /// Cycle c with the inputs of its start, if any: settled, and (idle again) compared.
  void enter_cycle(Cycle c);
  void apply_start();
  /// The rising edge of the controller and the index manipulator, which ends the cycle.
  void edge();
  /// The combinational inputs of the current cycle, then its effects on the model side.
  /// Returns the settled outputs of the cycle.
  rtl::BusControllerOutputs settle_cycle();
  /// The comparisons of cycle c (cosim), from the settled outputs; finish_cycle() makes them.
  void collect(Cycle c, const rtl::BusControllerOutputs& o);
  void finish_cycle(Cycle c);
  /// Compares cycle c, takes the edge that ends it and drops `start`.
  void end_cycle(Cycle c);
  [[nodiscard]] Expected expected_at(Cycle c);

  const sw::ProcId id_;
  const sw::MemoryOrganization organization_;
  const sw::BusTiming timing_;
  const ClockDomain& clock_;
  std::vector<WordStore>& modules_;
  IndexManipulator& manipulator_;
  MismatchHandler on_mismatch_;

  std::unique_ptr<rtl::BusControllerRtl> bc_;
  /// The controller's word outputs are evaluated (bus = cosim compares them, a waveform shows
  /// them); otherwise they are taken as its wires give them (BusControllerRtl::wire_words): the
  /// words are the only outputs that read the words fed in, so the controller is evaluated at
  /// its edges only.
  bool words_from_rtl_;
  rtl::IndexManipulatorRtl* im_ = nullptr;
  RtlMemory* memory_ = nullptr;
  sw::Impl im_impl_ = sw::Impl::Model;
  LockstepChecker bc_checker_;
  std::optional<LockstepChecker> im_checker_;

  // The access to start, the one in progress, and (cosim) the model's.
  bool pending_ = false;
  bool shadowing_ = false;
  sw::MemoryAccess access_;
  std::vector<sw::ModuleId> slot_modules_;  ///< the module of each slot of access_'s bus
  RtlAccessListener* listener_ = nullptr;
  DatapathStepper& stepper_;
  bool running_ = false;
  ModelAccess model_;
  std::size_t next_beat_ = 0;
  Cycle model_done_;  ///< the model's last done cycle
  bool started_this_cycle_ = false;
  bool last_announced_ = false;
  bool ended_early_ = false;  ///< the edge ending the current cycle has been taken
  bool done_open_ = false;    ///< `done` is high and the edge ending its cycle not taken yet
  Cycle open_cycle_;          ///< that cycle
  bool beat_open_ = false;
  std::uint32_t beat_pos_ = 0, beat_vec_ = 0;
  bool reported_ = false;
  struct Comparison {
    bool im;  ///< the index manipulator's checker, else the controller's
    const char* signal;
    std::uint64_t model, rtl;
  };
  std::vector<Comparison> checks_;  ///< a mismatch went to on_mismatch_ (only the first does)
  std::uint64_t edges_ = 0;
};

}  // namespace orthosim::sc
