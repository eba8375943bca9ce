// Bus controller: the access protocols of seed 004 Fig. 5.
#include "sc_models/multiprocessor/bus_controller.hpp"

#include <stdexcept>

namespace orthosim::sc {

BusController::BusController(const sc_core::sc_module_name& name, sw::ProcId id,
                             const sw::BusTiming& timing, const ClockDomain& clock,
                             MemoryFabric& fabric, IndexManipulator& manipulator,
                             traces::Recorder& recorder, traces::StatsRegistry& stats)
    : sc_core::sc_module(name),
      id_(id),
      timing_(timing),
      clock_(clock),
      fabric_(fabric),
      manipulator_(manipulator),
      recorder_(recorder) {
  SC_METHOD(finish_access);
  sensitive << ev_end_;
  dont_initialize();
  const std::string base = sc_core::sc_module::name();
  source_ = recorder_.register_source(base, traces::SourceKind::BusController);
  stats.add(base + ".accesses", &accesses_, "accesses", "memory accesses performed");
  stats.add(base + ".words_moved", &words_moved_, "words", "words moved over the bus");
  stats.add(base + ".busy_cycles", &busy_cycles_, "cycles", "cycles driving a bus");
  stats.add(base + ".activations", &activations_, "activations",
            "times the kernel ran this controller (once per access end)");
}

std::string BusController::grantee_name() const {
  return "BC(" + std::to_string(id_) + ")";
}

void BusController::start(const sw::MemoryAccess& access, Resumable& requester) {
  if (waiting_for_grant_ || clock_.now() < busy_until_) {
    throw std::logic_error(std::string(name()) + ": a second access started at cycle " +
                           std::to_string(clock_.now().count()) + " while one is in progress");
  }
  waiting_for_grant_ = true;
  requested_at_ = clock_.now();
  access_ = access;
  requester_ = &requester;
  const sw::MemoryOrganization& org = fabric_.organization;
  requested_.clear();
  requested_.push_back(fabric_.bus_resource[org.bus_index(access_.bus)]);
  for (std::uint32_t slot : access_.slots) {
    requested_.push_back(fabric_.module_resource[org.module_at(access_.bus, slot)]);
  }
  fabric_.arbiter.request(id_, requested_, *this);
}

traces::AccessTrace BusController::trace_of(const sw::MemoryAccess& a) const {
  traces::AccessTrace t;
  t.mode = a.bus.kind == sw::BusKind::Column ? traces::BusMode::Column : traces::BusMode::Row;
  const std::uint32_t bus_index = fabric_.organization.bus_index(a.bus);
  t.bus = fabric_.bus_source[bus_index];
  t.bus_index = a.bus.index;
  t.master = id_;
  t.write = a.direction == sw::Direction::Write;
  t.requested = requested_at_;
  t.index_set = a.index_set;
  t.address = a.address;
  t.vectors = a.vectors;
  t.slots = &a.slots;
  return t;
}

void BusController::granted(Cycle now) {
  const sw::MemoryOrganization& org = fabric_.organization;
  const bool tracing = recorder_.enabled();
  const traces::AccessTrace trace = trace_of(access_);
  if (tracing) {
    recorder_.access_begin(now, source_, trace);
  }
  const bool write = access_.direction == sw::Direction::Write;
  // Fig. 5: the start-up alpha (controller, address, propagation, memory access; for a write it
  // includes the parallel write into the modules) ...
  Cycle t = now + Cycle{timing_.alpha};
  for (std::uint32_t v = 0; v < access_.vectors; ++v) {
    // ... an address increment beta before every vector after the first (Fig. 5(c)) ...
    if (v > 0) {
      t += Cycle{timing_.beta};
    }
    const std::uint32_t address = access_.address + v;
    for (std::uint32_t pos = 0; pos < access_.degree(); ++pos) {
      // ... and one minor cycle tau per word streamed over the bus.
      WordStore& module = fabric_.modules[org.module_at(access_.bus, access_.slots[pos])];
      Word word;
      if (write) {
        word = manipulator_.on_write(access_.index_set, pos, v);
        module.write(address, word);
      } else {
        word = module.read(address);
        manipulator_.on_read(access_.index_set, pos, v, word);
      }
      if (tracing) {
        recorder_.beat(t, Cycle{timing_.tau}, source_, trace, access_.slots[pos], address, word);
      }
      t += Cycle{timing_.tau};
    }
  }
  if (tracing) {
    recorder_.access(now, t, source_, trace);
  }
  const Cycle duration = t - now;
  waiting_for_grant_ = false;
  busy_until_ = t;
  ending_resources_ = requested_;
  ending_trace_ = trace;
  ++accesses_;
  words_moved_ += access_.words();
  busy_cycles_ += duration.count();
  ev_end_.notify(clock_.delay(duration));
  requester_->resume_after(duration);
}

void BusController::finish_access() {
  ++activations_;
  fabric_.arbiter.release(ending_resources_);
  if (recorder_.enabled()) {
    recorder_.access_end(clock_.now(), source_, ending_trace_);
  }
}

}  // namespace orthosim::sc
