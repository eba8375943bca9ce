// Bus controller: the access protocols of [PH91] Fig. 5.
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
  RtlMemory* memory = fabric_.rtl_memory;
  if (memory != nullptr && memory->impl() == sw::Impl::Rtl) {
    memory->request(id_, access_, this);  // the module array grants
    return;
  }
  fabric_.arbiter.request(id_, requested_, *this);
  if (memory != nullptr) {
    memory->request(id_, access_, nullptr);
  }
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

void BusController::attach_rtl(RtlDatapath& datapath, sw::Impl impl) {
  rtl_ = &datapath;
  rtl_impl_ = impl;
}

void BusController::granted(Cycle now) {
  const sw::MemoryOrganization& org = fabric_.organization;
  const bool tracing = recorder_.enabled();
  const traces::AccessTrace trace = trace_of(access_);
  if (tracing) {
    recorder_.access_begin(now, source_, trace);
  }
  RtlMemory* memory = fabric_.rtl_memory;
  if (memory != nullptr && memory->impl() == sw::Impl::Cosim) {
    memory->granted(id_);
  }
  if (rtl_impl_ == sw::Impl::Rtl) {
    // The RTL performs the access; rtl_last() ends it.
    waiting_for_grant_ = false;
    busy_until_ = Cycle{~std::uint64_t{0}};
    granted_at_ = now;
    rtl_trace_ = trace;
    rtl_->run(access_, *this);
    return;
  }
  const bool shadow = rtl_impl_ == sw::Impl::Cosim;
  // The model's words are the reference of the RTL controller (bus = cosim) and the stimulus of
  // the module array (memory = cosim).
  const bool keep = shadow || memory != nullptr;
  ModelAccess expected;
  const bool write = access_.direction == sw::Direction::Write;
  const bool late = fault_.kind == Fault::Kind::ExtraCycle && fault_.at == now;
  // Fig. 5: the start-up alpha (controller, address, propagation, memory access; for a write it
  // includes the parallel write into the modules) ...
  Cycle t = now + Cycle{timing_.alpha} + Cycle{late ? 1u : 0u};
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
        word = flip(manipulator_.on_write(access_.index_set, pos, v), t);
        module.write(address, word);
      } else {
        word = flip(module.read(address), t);
        manipulator_.on_read(access_.index_set, pos, v, word);
      }
      if (keep) {
        expected.beats.push_back({t, pos, v, access_.slots[pos], address, word});
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
  if (keep) {
    expected.grant = now;
    expected.end = t;
    expected.write = write;
    expected.column = access_.bus.kind == sw::BusKind::Column;
    expected.index_set = access_.index_set;
    if (memory != nullptr) {
      memory->schedule(id_, expected);
    }
    if (shadow) {
      rtl_->shadow(access_, std::move(expected));
    }
  }
}

Word BusController::flip(Word word, Cycle beat) const {
  const bool hit = fault_.kind == Fault::Kind::FlipBit && beat <= fault_.at &&
                   fault_.at < beat + Cycle{timing_.tau};
  return hit ? word ^ (Word{1} << fault_.bit) : word;
}

void BusController::rtl_beat(Cycle at, std::uint32_t slot, std::uint32_t address, Word word) {
  if (recorder_.enabled()) {
    recorder_.beat(at, Cycle{timing_.tau}, source_, rtl_trace_, slot, address, word);
  }
}

void BusController::rtl_last(Cycle at) {
  // The access ends at the start of the next cycle, where the model's would (its ev_end_ and
  // the processor's resumption are timed notifications, as in granted()).
  const Cycle end = at + Cycle{1};
  busy_until_ = end;
  ending_resources_ = requested_;
  ending_trace_ = rtl_trace_;
  ++accesses_;
  words_moved_ += access_.words();
  busy_cycles_ += (end - granted_at_).count();
  if (recorder_.enabled()) {
    recorder_.access(granted_at_, end, source_, rtl_trace_);
  }
  // With memory = rtl an access granted at half a cycle may end in its grant cycle: the end is
  // the start of the next cycle, not one period later.
  ev_end_.notify(clock_.until(end));
  requester_->resume_after(Cycle{1});
}

void BusController::finish_access() {
  ++activations_;
  RtlMemory* memory = fabric_.rtl_memory;
  if (memory == nullptr || memory->impl() != sw::Impl::Rtl) {
    fabric_.arbiter.release(ending_resources_);
  }
  if (memory != nullptr) {
    memory->release(id_);
  }
  if (recorder_.enabled()) {
    recorder_.access_end(clock_.now(), source_, ending_trace_);
  }
}

}  // namespace orthosim::sc
