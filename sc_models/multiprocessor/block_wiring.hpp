// Which implementation of each block a multiprocessor runs (--impl, docs/rtl.md): the model, the
// verilated RTL in its place, or both side by side (cosim). The system asks its wiring for the
// parts that may differ while it assembles itself; ModelWiring gives the models alone, and
// sc_models/cosim/cosim_wiring.hpp is the one place that builds the RTL and the co-simulation.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sc_models/kernel/clock_domain.hpp"
#include "sc_models/kernel/lockstep_checker.hpp"
#include "sc_models/kernel/word_store.hpp"
#include "sc_models/multiprocessor/access_schedule.hpp"
#include "sc_models/multiprocessor/bus_controller.hpp"
#include "sc_models/multiprocessor/index_manipulator.hpp"
#include "sc_models/multiprocessor/resource_arbiter.hpp"
#include "sw/arch/system_config.hpp"

namespace orthosim::sc {

/// The model blocks a system shares among its processors, for its wiring.
struct SystemParts {
  const sw::SystemConfig& config;
  std::string name;  ///< the system's hierarchical name ("omp")
  const ClockDomain& clock;
  ResourceArbiter& arbiter;
  std::vector<WordStore>& modules;
};

class BlockWiring {
 public:
  virtual ~BlockWiring() = default;
  /// Refuses (sw::ConfigError, naming the parameter) what this wiring cannot build; called once
  /// the configuration itself is valid.
  virtual void validate(const sw::SystemConfig& config) const = 0;
  /// Who grants the bus controllers their buses and modules; called once, before them.
  virtual MemoryGrants& memory(const SystemParts& system) = 0;
  /// P(p)'s data buffers as its processor sees them, given the model's; before the processor.
  virtual DataBuffers& buffers(sw::ProcId p, IndexManipulator& model) = 0;
  /// After P(p)'s controller and processor: what observes or replaces the controller.
  virtual void attach(sw::ProcId p, BusController& controller, IndexManipulator& model) = 0;
  /// Before each program, after the model's memories are cleared.
  virtual void load() = 0;
  /// The first output where a model and its RTL twin differed, checked at cycle `now`.
  [[nodiscard]] virtual std::optional<Mismatch> mismatch(Cycle now) const = 0;
};

/// The models alone (every block's impl is model).
class ModelWiring final : public BlockWiring {
 public:
  void validate(const sw::SystemConfig& config) const override;
  MemoryGrants& memory(const SystemParts& system) override;
  DataBuffers& buffers(sw::ProcId /*p*/, IndexManipulator& model) override { return model; }
  void attach(sw::ProcId /*p*/, BusController& /*controller*/,
              IndexManipulator& /*model*/) override {}
  void load() override {}
  [[nodiscard]] std::optional<Mismatch> mismatch(Cycle /*now*/) const override {
    return std::nullopt;
  }

 private:
  std::optional<ArbiterGrants> grants_;
};

}  // namespace orthosim::sc
