// A shared-memory multiprocessor of [PH91] section 3.1 (Fig. 4), assembled from its blocks for
// one configuration: omp, crossbar or single bus. n processors, n bus controllers, the memory
// modules, one resource arbiter (buses, modules, interrupt bus) and the sync unit.
//
// A system runs machine programs one after another: load(), run the kernel (run_systems()), then
// result(). Time keeps going between programs; every result counts from its program's load.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <systemc>
#include <vector>

#include "sc_models/kernel/clock_domain.hpp"
#include "sc_models/kernel/lockstep_checker.hpp"
#include "sc_models/kernel/word_store.hpp"
#include "sc_models/multiprocessor/block_wiring.hpp"
#include "sc_models/multiprocessor/bus_controller.hpp"
#include "sc_models/multiprocessor/index_manipulator.hpp"
#include "sc_models/multiprocessor/processor.hpp"
#include "sc_models/multiprocessor/resource_arbiter.hpp"
#include "sc_models/multiprocessor/sync_unit.hpp"
#include "sw/arch/system_config.hpp"
#include "sw/machine/delivery_check.hpp"
#include "sw/machine/machine_program.hpp"
#include "sw/run/run_summary.hpp"
#include "traces/fanout_recorder.hpp"
#include "traces/recorder.hpp"
#include "traces/stats.hpp"

namespace orthosim::sc {

class Multiprocessor : public sc_core::sc_module {
 public:
  /// The system's name is its hierarchical root. `wiring` gives the blocks that config.impl
  /// makes rtl or cosim (sc::CosimWiring, docs/rtl.md); by default the models alone.
  Multiprocessor(const sc_core::sc_module_name& name, const sw::Validated<sw::SystemConfig>& config,
                 traces::Recorder& recorder,
                 std::unique_ptr<BlockWiring> wiring = std::make_unique<ModelWiring>());
  ~Multiprocessor() override;

  [[nodiscard]] const sw::SystemConfig& config() const { return config_; }
  [[nodiscard]] const ClockDomain& clock() const { return clock_; }
  [[nodiscard]] const traces::StatsRegistry& stats() const { return stats_; }

  /// The bytes a run of `program` on a system of `config` holds at its peak, estimated before
  /// anything is elaborated (docs/cli.md, --memory-limit): the program (ops as held, index sets,
  /// delivery manifest and what the delivery check keeps per message), the words of the memory
  /// modules and data buffers up to the highest address written (for the modules an upper
  /// bound: a mailbox forgets the words a read consumed), and the blocks of each processor. The messages' words in the local memories are generated and checked, not
  /// stored.
  [[nodiscard]] static std::uint64_t footprint(const sw::MachineProgram& program,
                                               const sw::SystemConfig& config);

  /// Validates the program against this system and what runs it (throws sw::ConfigError): what
  /// load() checks first, callable before anything runs.
  void check(const sw::MachineProgram& program) const;
  /// Validates the program against this system (throws sw::ConfigError), clears all memories,
  /// loads index sets and the senders' local memory, and starts every processor in the next delta.
  void load(sw::MachineProgram program);
  /// Whether every processor has finished the loaded program.
  [[nodiscard]] bool finished() const;
  /// The outcome of the loaded program, after the kernel has run.
  [[nodiscard]] sw::RunSummary result() const;
  /// The cycle the run ended in, after the kernel has run: now, or the last cycle the verilated
  /// machine stepped (it steps a cycle half a period in and stops the kernel at the next edge).
  [[nodiscard]] Cycle end() const;

  /// The most words the memory modules held at once while the loaded program ran (WordStore::
  /// held): a mailbox's words are forgotten once read, so this follows the words in flight.
  [[nodiscard]] std::uint64_t peak_module_words() const { return module_words_.peak; }

  /// Direct access for tests and the delivery check.
  [[nodiscard]] WordStore& module(sw::ModuleId m) { return modules_.at(m); }
  [[nodiscard]] Processor& processor(sw::ProcId p) { return *processors_.at(p); }
  [[nodiscard]] IndexManipulator& manipulator(sw::ProcId p) { return *manipulators_.at(p); }

 private:
  sw::SystemConfig config_;
  std::unique_ptr<BlockWiring> wiring_;
  ClockDomain clock_;
  /// The whole machine verilated (the wiring's), else null.
  MachineTwin* twin_ = nullptr;
  /// The recorder and the twin's observer of the model blocks (cosim), else null.
  std::unique_ptr<traces::FanoutRecorder> observed_;
  traces::StatsRegistry stats_;
  HeldWords module_words_;  ///< held by modules_
  std::vector<WordStore> modules_;
  std::unique_ptr<ResourceArbiter> arbiter_;
  std::unique_ptr<MemoryFabric> fabric_;
  std::unique_ptr<SyncUnit> sync_;
  std::vector<std::unique_ptr<IndexManipulator>> manipulators_;
  std::vector<std::unique_ptr<BusController>> controllers_;
  std::vector<std::unique_ptr<Processor>> processors_;

  sw::MachineProgram program_;
  /// The words of program_'s messages: generated when a sender reads them, checked when a
  /// receiver writes them, never stored.
  sw::MessageMemory messages_;
  Cycle start_;
  /// The limit at which run_systems() stopped with events still pending.
  std::optional<Cycle> stopped_at_limit_;
  friend void run_systems(const std::vector<Multiprocessor*>& systems, Cycle limit,
                          const std::function<void()>& between);
  std::vector<traces::StatEntry> baseline_;
  /// The counters a result names, read from their blocks: totals since elaboration.
  struct Counters {
    std::uint64_t conflicts = 0;
    std::uint64_t conflict_wait_cycles = 0;
    std::uint64_t bus_words_moved = 0;
  };
  [[nodiscard]] Counters counters() const;
  Counters counters_at_load_;
};

/// Runs the kernel until every loaded program has ended or nothing can happen any more (the
/// deadlock watchdog: a blocked processor is then reported by result()), or until `limit` cycles
/// of the slowest clock have passed (result() then says the cycle limit was reached).
/// `between` is called every so often while the run goes on (sc::run_in_slices): its progress.
void run_systems(const std::vector<Multiprocessor*>& systems, Cycle limit,
                 const std::function<void()>& between = {});

}  // namespace orthosim::sc
