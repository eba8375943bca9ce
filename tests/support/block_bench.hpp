// Testbenches of single SystemC blocks (tests/sc_models/*_block tests): a thread that runs a
// script of calls at given cycles, and the blocks around a bus controller or a processor of an
// omp wired as sc::Multiprocessor wires them (the buses, then the modules, then the interrupt bus
// as the arbiter's resources), without the processors unless a test adds them.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <utility>
#include <vector>

#include "sc_models/kernel/clock_domain.hpp"
#include "sc_models/kernel/word_store.hpp"
#include "sc_models/multiprocessor/access_schedule.hpp"
#include "sc_models/multiprocessor/bus_controller.hpp"
#include "sc_models/multiprocessor/index_manipulator.hpp"
#include "sc_models/multiprocessor/resource_arbiter.hpp"
#include "sw/arch/architecture.hpp"
#include "sw/arch/system_config.hpp"
#include "traces/recorder.hpp"
#include "traces/stats.hpp"

namespace orthosim::testing_support {

/// Runs `body` as a thread from cycle 0: it waits with sc_core::wait and calls the blocks.
class Script : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Script);
  Script(const sc_core::sc_module_name& name, std::function<void()> body)
      : sc_core::sc_module(name), body_(std::move(body)) {
    SC_THREAD(run);
  }

 private:
  void run() { body_(); }
  std::function<void()> body_;
};

/// The value of statistic `name`; a test failure if there is none.
inline std::uint64_t stat(const traces::StatsRegistry& stats, const std::string& name) {
  for (const traces::StatEntry& e : stats.snapshot()) {
    if (e.name == name) {
      return e.value;
    }
  }
  ADD_FAILURE() << "no statistic " << name;
  return 0;
}

/// An omp of `config.n` processors up to its bus controllers: modules, arbiter, and per
/// processor an index manipulator and a bus controller.
struct OmpBlocks {
  explicit OmpBlocks(const sw::SystemConfig& system)
      : config(system),
        organization(config.organization()),
        clock(config.clock_period_ns),
        modules(organization.module_count(), sc::WordStore(config.module_words)),
        arbiter("arbiter", resource_names(organization), clock, stats),
        interrupt_bus(
            static_cast<sc::ResourceId>(organization.buses().size() + organization.module_count())),
        grants(arbiter),
        fabric{organization, grants, modules, {}, {}, {}} {
    const std::vector<sw::BusRef> buses = organization.buses();
    for (std::uint32_t b = 0; b < buses.size(); ++b) {
      fabric.bus_resource.push_back(b);
      fabric.bus_source.push_back(
          recorder.register_source(organization.bus_name(buses[b]), traces::SourceKind::Bus));
    }
    for (sw::ModuleId m = 0; m < organization.module_count(); ++m) {
      fabric.module_resource.push_back(static_cast<sc::ResourceId>(buses.size()) + m);
    }
    for (sw::ProcId i = 0; i < config.n; ++i) {
      manipulators.push_back(std::make_unique<sc::IndexManipulator>(config.n, config.buffer_words));
      controllers.push_back(std::make_unique<sc::BusController>(("bc" + std::to_string(i)).c_str(),
                                                                i, config.timing, clock, fabric,
                                                                *manipulators[i], recorder, stats));
    }
  }

  static std::vector<std::string> resource_names(const sw::MemoryOrganization& org) {
    std::vector<std::string> names;
    for (const sw::BusRef& b : org.buses()) {
      names.push_back(org.bus_name(b));
    }
    for (sw::ModuleId m = 0; m < org.module_count(); ++m) {
      names.push_back(org.module_name(m));
    }
    names.emplace_back("interrupt bus");
    return names;
  }

  /// The module at `slot` of `bus`.
  sc::WordStore& module(sw::BusRef bus, std::uint32_t slot) {
    return modules[organization.module_at(bus, slot)];
  }

  sw::SystemConfig config;
  sw::MemoryOrganization organization;
  sc::ClockDomain clock;
  traces::StatsRegistry stats;
  traces::Recorder recorder;
  std::vector<sc::WordStore> modules;
  sc::ResourceArbiter arbiter;
  sc::ResourceId interrupt_bus;
  sc::ArbiterGrants grants;  ///< the model arbiter grants the controllers' requests
  sc::MemoryFabric fabric;
  std::vector<std::unique_ptr<sc::IndexManipulator>> manipulators;
  std::vector<std::unique_ptr<sc::BusController>> controllers;
};

/// [PH91] Eq. 1: a block access of l vectors over d modules, alpha + beta (l - 1) + d tau l.
inline std::uint64_t eq1(const sw::BusTiming& t, std::uint64_t d, std::uint64_t l) {
  return t.alpha + t.beta * (l - 1) + d * t.tau * l;
}

}  // namespace orthosim::testing_support
