// What a model bus controller publishes and whom it asks (docs/architecture.md, "Where the RTL
// glue lives"): the whole schedule of an access, known at its grant, for whoever listens (the
// co-simulation's reference, the stimulus of a verilated block beside the model); who grants its
// bus and modules; and the tap on its bus, where tests inject the faults the co-simulation must
// catch. The model blocks know these interfaces only; sc_models/cosim/ implements them.
#pragma once

#include <cstdint>
#include <vector>

#include "sc_models/kernel/word_store.hpp"
#include "sc_models/multiprocessor/interfaces.hpp"
#include "sc_models/multiprocessor/resource_arbiter.hpp"
#include "sw/machine/machine_program.hpp"

namespace orthosim::sc {

/// One word the model's bus controller moved: on the bus from `at` for tau cycles.
struct ModelBeat {
  Cycle at;
  std::uint32_t position = 0;
  std::uint32_t vector = 0;
  std::uint32_t slot = 0;
  std::uint32_t address = 0;
  Word word = 0;
};

/// The model's access: its outputs in every cycle follow from it.
struct ModelAccess {
  Cycle grant;
  Cycle end;  ///< the cycle of `done`
  bool write = false;
  bool column = false;
  std::uint32_t index_set = 0;
  std::vector<ModelBeat> beats;
};

/// Hears the schedule of every access a model bus controller performs, at its grant.
class AccessObserver {
 public:
  virtual ~AccessObserver() = default;
  virtual void performed(sw::ProcId p, const sw::MemoryAccess& access, ModelAccess schedule) = 0;
};

/// The tap on a model bus controller's bus: it sees every word as the model drives it and may
/// change it, and may lengthen a start-up. Tests put faults here (sc_models/cosim/model_fault.hpp).
class BusTap {
 public:
  virtual ~BusTap() = default;
  /// Cycles added to the start-up alpha of the access granted at `grant`.
  [[nodiscard]] virtual Cycle extra_startup(Cycle grant) const = 0;
  /// The word on the bus from `beat` (its first cycle).
  [[nodiscard]] virtual Word on_bus(Word word, Cycle beat) const = 0;
};

/// Who grants a bus controller its bus and modules, and hears when it frees them: the model
/// arbiter (ArbiterGrants), or the verilated module array in its place or beside it.
class MemoryGrants {
 public:
  virtual ~MemoryGrants() = default;
  /// P(p) asks for `resources` (its bus, then the modules of `access`); `grantee` is granted
  /// once it holds them all.
  virtual void request(sw::ProcId p, const std::vector<ResourceId>& resources,
                       const sw::MemoryAccess& access, Grantee& grantee) = 0;
  /// P(p)'s access has ended in the current cycle: `resources` are free.
  virtual void release(sw::ProcId p, const std::vector<ResourceId>& resources) = 0;
};

/// The model arbiter grants.
class ArbiterGrants final : public MemoryGrants {
 public:
  explicit ArbiterGrants(ResourceArbiter& arbiter) : arbiter_(arbiter) {}
  void request(sw::ProcId p, const std::vector<ResourceId>& resources,
               const sw::MemoryAccess& /*access*/, Grantee& grantee) override {
    arbiter_.request(p, resources, grantee);
  }
  void release(sw::ProcId /*p*/, const std::vector<ResourceId>& resources) override {
    arbiter_.release(resources);
  }

 private:
  ResourceArbiter& arbiter_;
};

}  // namespace orthosim::sc
