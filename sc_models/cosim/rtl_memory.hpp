// The verilated module array of the omp (rtl/module_array.sv: the n x n modules M(a,b) of
// [PH91] section 3.1 with their arbiter), in a SystemC system (docs/architecture.md, contract
// "Model = RTL").
//
//   memory = cosim  the model's ResourceArbiter and WordStore modules decide and store; the array
//                   runs beside them on the same stimulus (each controller's request, hold, bus
//                   mode, slot mask and bus words) and its grant per controller, the words it
//                   returns on the buses and, at the end of a run, its wait_cycles and conflicts
//                   are compared with the model's (sc::LockstepChecker).
//   memory = rtl    the array replaces them: the controllers request through it, it grants, the
//                   words are written into and read from its modules, and the conflicts and wait
//                   cycles come from its counters. Needs bus = rtl (the RTL controllers move the
//                   words cycle by cycle).
//
// One point per cycle. The array's grant is combinational across all n controllers, so it is
// evaluated once everything of the cycle is known: at half a period the requests and holds of
// cycle c are settled (the model arbiter's grants, the processors' requests, the releases, all
// made at the start of c); the array arbitrates and (memory = rtl) grants, and the granted
// controllers start there and then (DatapathStepper::start_pending), so that every controller's
// bus of cycle c is settled: the array gets the bus words, returns the read words and takes the
// edge that ends c (its writes, its arbitration state and counters), in the same activation of
// its process. Periods need at least 2 ns.
//
// Cost follows activity (modeling rule 2): the array's clock has an edge only in cycles in which a
// controller requests or holds modules; otherwise the process waits on an event. Skipping the
// other cycles is exact: with no request and no hold the arbiter's state is all zero and stays
// so, and no module is written.
//
// Unwritten words: the model's modules read sw::kUnwrittenWord before a write; load() fills the
// array's storage with it through the backdoor (rtl/bridge/module_array.vlt), in no time as the
// model's clear().
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <systemc>
#include <vector>

#include "rtl/bridge/module_array_rtl.hpp"
#include "sc_models/cosim/rtl_datapath.hpp"
#include "sc_models/kernel/clock_domain.hpp"
#include "sc_models/kernel/lockstep_checker.hpp"
#include "sc_models/multiprocessor/interfaces.hpp"
#include "sw/arch/system_config.hpp"
#include "sw/machine/machine_program.hpp"

namespace orthosim::sc {

/// A controller's bus in one cycle, and the word a read took from the model's module.
struct BusLane {
  rtl::ModuleArrayLane pins;
  Word read_word = 0;
};

class RtlMemory : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(RtlMemory);
  using MismatchHandler = std::function<void(const Mismatch&)>;
  /// Figures the arbiter counts: memory = rtl adds the array's to the model arbiter's statistics.
  using FigureSink =
      std::function<void(std::uint64_t grants, std::uint64_t conflicts, std::uint64_t wait_cycles)>;

  /// `instance` names the array in mismatch reports ("omp.modules").
  RtlMemory(const sc_core::sc_module_name& name, std::string instance,
            const sw::SystemConfig& config, const ClockDomain& clock, rtl::FstTrace* fst,
            MismatchHandler on_mismatch, FigureSink figures);
  ~RtlMemory() override;

  [[nodiscard]] sw::Impl impl() const { return impl_; }

  /// P(p)'s controller asks for the modules of `access`. memory = rtl: `grantee` is granted when
  /// the array grants; memory = cosim: nullptr, the model arbiter grants (granted()).
  void request(sw::ProcId p, const sw::MemoryAccess& access, Grantee* grantee);
  /// memory = cosim: the model arbiter granted P(p)'s request in the current cycle.
  void granted(sw::ProcId p);
  /// P(p)'s access has ended: its modules are free from the current cycle.
  void release(sw::ProcId p);
  /// memory = cosim with a model controller: the words of P(p)'s access, known at its grant.
  void schedule(sw::ProcId p, const ModelAccess& access);
  /// An RTL controller's bus in the current cycle (its outputs hold until its next edge).
  void lane(sw::ProcId p, const BusLane& lane);
  /// The stepper of the system's RTL controllers: memory = rtl starts the granted ones at once.
  void attach_stepper(DatapathStepper& stepper) { stepper_ = &stepper; }
  /// Word `address` of module `module` (M(a,b) is module a n + b) as the array holds it, through
  /// its backdoor: memory = rtl's reads take their words here (combinational, as bus_rdata);
  /// under memory = cosim tests compare it with the model's modules.
  [[nodiscard]] Word read(sw::ModuleId module, std::uint32_t address) const;

  /// Before a program: every module word unwritten, the figures counted from here.
  void load();
  /// memory = cosim: the array's wait_cycles and conflicts since load() against the model's; a
  /// difference is a mismatch at cycle `at`.
  [[nodiscard]] std::optional<Mismatch> check_figures(Cycle at) const;
  /// Rising edges of the array's clock so far (the reset edge included).
  [[nodiscard]] std::uint64_t edges() const { return edges_; }

 private:
  struct Port {
    bool requesting = false;
    Cycle arrival;
    Grantee* grantee = nullptr;
    bool column = false;
    std::uint32_t mask = 0;
    bool holding = false;  ///< granted, until release()
    Cycle grant;
    bool scheduled = false;  ///< the model controller performs the access: `model` has its words
    ModelAccess model;
    std::size_t next_beat = 0;
    BusLane lane;  ///< the RTL controller's last reported bus
  };

  void clocking();
  [[nodiscard]] bool active() const;
  void wait_until(sc_core::sc_time at);
  void edge();
  void arbitrate(Cycle c);
  void move_words(Cycle c);
  [[nodiscard]] BusLane lane_of(Port& port, Cycle c) const;
  void check(Cycle c, const std::string& signal, std::uint64_t model, std::uint64_t rtl);

  const sw::Impl impl_;
  const std::uint32_t n_;
  const sw::BusTiming timing_;
  const ClockDomain& clock_;
  const std::uint32_t period_ns_;
  MismatchHandler on_mismatch_;
  FigureSink figures_;

  DatapathStepper* stepper_ = nullptr;
  std::unique_ptr<rtl::ModuleArrayRtl> array_;
  LockstepChecker checker_;
  bool mismatch_found_ = false;
  bool reported_ = false;
  std::vector<std::string> grant_names_, rdata_names_;

  std::vector<Port> ports_;
  // The array's inputs of the cycle, kept so that a cycle allocates nothing.
  std::vector<rtl::ModuleArrayRequest> requests_, applied_;  ///< applied_: the array's inputs
  std::vector<BusLane> lanes_;
  std::vector<rtl::ModuleArrayLane> pins_;
  bool reset_pending_ = false;  ///< a stopped run left requests: reset before the next cycle
  sc_core::sc_event ev_activity_;
  sc_core::sc_event ev_boundary_;  ///< at the end of each clocked cycle (clocking())
  std::uint64_t edges_ = 0;
  // The array's counters at the last edge and at load(); the model's figures since load().
  std::uint32_t wait_seen_ = 0, conflicts_seen_ = 0;
  std::uint32_t wait_at_load_ = 0, conflicts_at_load_ = 0;
  std::uint64_t model_wait_ = 0, model_conflicts_ = 0;
};

}  // namespace orthosim::sc
