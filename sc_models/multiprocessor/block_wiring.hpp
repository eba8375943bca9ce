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
#include "sw/machine/machine_program.hpp"
#include "sw/run/run_summary.hpp"
#include "traces/recorder.hpp"

namespace orthosim::sc {

/// The model blocks a system shares among its processors, for its wiring.
struct SystemParts {
  const sw::SystemConfig& config;
  std::string name;  ///< the system's hierarchical name ("omp")
  const ClockDomain& clock;
  ResourceArbiter& arbiter;
  std::vector<WordStore>& modules;
};

/// The whole machine verilated as one unit (processor = rtl or cosim): it runs each program
/// instead of the models (rtl: the model processors get none) or beside them in lockstep (cosim).
class MachineTwin {
 public:
  virtual ~MachineTwin() = default;
  /// Whether the models run the programs too (cosim) or the twin alone (rtl).
  [[nodiscard]] virtual bool beside_models() const = 0;
  /// Refuses (sw::ConfigError naming the processor, op and limit) a program the twin cannot
  /// hold; before anything runs.
  virtual void check(const sw::MachineProgram& program) const = 0;
  /// Loads `program` (checked) and starts it now, in the cycle the models start theirs.
  virtual void load(const sw::MachineProgram& program) = 0;
  [[nodiscard]] virtual bool finished() const = 0;
  /// The last cycle it stepped, once it has stopped; nothing while it runs or before a load.
  [[nodiscard]] virtual std::optional<Cycle> last_cycle() const = 0;
  /// The twin's outcome over `summary`, which holds the models' (rtl: what the twin ran).
  virtual void result(sw::RunSummary& summary) const = 0;
  /// What hears the model blocks' events (their recorder calls) in cosim; null otherwise.
  [[nodiscard]] virtual traces::Recorder* observer() = 0;
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
  /// The whole machine's twin when config.impl verilates it (whole_machine()); called once,
  /// before the blocks are built. `recorder`: the system's, which the twin tells what the
  /// verilated processors do when it runs the programs alone.
  virtual MachineTwin* machine(const sw::SystemConfig& /*config*/, const std::string& /*name*/,
                               const ClockDomain& /*clock*/, traces::Recorder& /*recorder*/) {
    return nullptr;
  }
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
