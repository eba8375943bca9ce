// The one place that builds each block of a multiprocessor as model, rtl or cosim (config.impl,
// docs/rtl.md) and wires the verilated blocks, their bridges and the lockstep checks to the
// models (docs/architecture.md, "Where the RTL glue lives"):
//
//   bus          model: BusController performs the access (Fig. 5); cosim: it does, and its
//                published schedule is the reference of P(p)'s RtlDatapath beside it; rtl: the
//                RtlDatapath is granted in its place and reports the words and the end to it.
//   im           cosim: the verilated index manipulator receives every load too and is
//                compared; rtl: it also answers the processor's StoreBuffer reads.
//   memory       cosim: the model arbiter grants and the module array (RtlMemory) hears every
//                request, grant, schedule and release; rtl: the module array grants.
//
// Every mismatch of any verilated block goes to one place, which keeps the first and stops the run.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rtl/bridge/fst_trace.hpp"
#include "rtl/bridge/index_manipulator_rtl.hpp"
#include "sc_models/cosim/model_fault.hpp"
#include "sc_models/cosim/rtl_datapath.hpp"
#include "sc_models/cosim/rtl_machine.hpp"
#include "sc_models/cosim/rtl_memory.hpp"
#include "sc_models/multiprocessor/block_wiring.hpp"

namespace orthosim::sc {

/// Checks what the RTL can run: the verilated sizes (docs/rtl.md, "Parameterisations") and the
/// combinations of implementations. Throws sw::ConfigError naming the parameter.
void validate_rtl(const sw::SystemConfig& config);

class CosimWiring final : public BlockWiring, private MemoryGrants {
 public:
  /// With `fst`, the verilated blocks' signals go to that waveform.
  explicit CosimWiring(rtl::FstTrace* fst = nullptr);
  ~CosimWiring() override;
  CosimWiring(const CosimWiring&) = delete;
  CosimWiring& operator=(const CosimWiring&) = delete;

  void validate(const sw::SystemConfig& config) const override { validate_rtl(config); }
  MemoryGrants& memory(const SystemParts& system) override;
  DataBuffers& buffers(sw::ProcId p, IndexManipulator& model) override;
  void attach(sw::ProcId p, BusController& controller, IndexManipulator& model) override;
  void load() override;
  MachineTwin* machine(const sw::SystemConfig& config, const std::string& name,
                       const ClockDomain& clock, traces::Recorder& recorder) override;
  [[nodiscard]] std::optional<Mismatch> mismatch(Cycle now) const override;

  /// Test-only: a deliberate error on the model's side of the whole machine's co-simulation
  /// (processor = cosim); before the system is built.
  void inject_machine_fault(const MachineFault& fault) { machine_fault_ = fault; }
  /// The whole machine verilated, if config.impl asks for it (after the system is built).
  [[nodiscard]] RtlMachine* rtl_machine() const { return machine_.get(); }

  /// Test-only: a deliberate error in P(p)'s model bus controller, which cosim must catch
  /// (tests/rtl/multiprocessor_rtl_test.cpp, ORTHOSIM_TEST_FAULT); before or after the system
  /// is built.
  void inject_fault(sw::ProcId p, const ModelFault& fault);
  /// Test-only: with memory = cosim, the model arbiter's grant to P(p) in cycle `at` reaches
  /// the controller and the module array one cycle late, which the array's co-simulation must
  /// catch. After the system is built, before the run.
  void inject_late_grant(sw::ProcId p, Cycle at);
  /// Rising edges of every verilated datapath's clock (0 with the models only).
  [[nodiscard]] std::uint64_t rtl_edges() const;
  /// Rising edges of the verilated module array's clock (0 with memory = model).
  [[nodiscard]] std::uint64_t module_array_edges() const { return memory_ ? memory_->edges() : 0; }
  /// The verilated module array (memory = rtl | cosim, after the system is built), else null:
  /// tests read where its words sit (RtlMemory::read) against the model's modules.
  [[nodiscard]] const RtlMemory* module_array() const { return memory_.get(); }

 private:
  struct Lane;
  // MemoryGrants: the model arbiter, the module array, or both.
  void request(sw::ProcId p, const std::vector<ResourceId>& resources,
               const sw::MemoryAccess& access, Grantee& grantee) override;
  void release(sw::ProcId p, const std::vector<ResourceId>& resources) override;
  /// Keeps the first mismatch of any verilated block and stops the run.
  void on_mismatch(const Mismatch& m);

  rtl::FstTrace* const fst_;
  std::optional<SystemParts> system_;
  std::unique_ptr<RtlMemory> memory_;
  std::unique_ptr<DatapathStepper> stepper_;  ///< clocks every RtlDatapath
  std::unique_ptr<RtlMachine> machine_;
  MachineFault machine_fault_;
  std::vector<std::unique_ptr<Lane>> lanes_;  ///< by processor
  std::map<sw::ProcId, ModelFault> faults_;   ///< injected before the system was built
  std::optional<Mismatch> mismatch_;
};

}  // namespace orthosim::sc
