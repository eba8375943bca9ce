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

std::string BusController::grantee_name() const { return "BC(" + std::to_string(id_) + ")"; }

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
  modules_.clear();
  requested_.clear();
  requested_.push_back(fabric_.bus_resource[org.bus_index(access_.bus)]);
  for (std::uint32_t slot : access_.slots) {
    modules_.push_back(org.module_at(access_.bus, slot));
    requested_.push_back(fabric_.module_resource[modules_.back()]);
  }
  fabric_.grants.request(id_, requested_, access_, *this);
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

void BusController::perform_begin(Cycle grant) {
  trace_ = trace_of(access_);
  if (recorder_.enabled()) {
    recorder_.access_begin(grant, source_, trace_);
  }
  waiting_for_grant_ = false;
  busy_until_ = Cycle{~std::uint64_t{0}};  // until end_access() knows the end
}

void BusController::perform_word(Cycle at, std::uint32_t slot, std::uint32_t address, Word word) {
  if (recorder_.enabled()) {
    recorder_.beat(at, Cycle{timing_.tau}, source_, trace_, slot, address, word);
  }
}

void BusController::perform_end(Cycle grant, Cycle last) {
  // The access ends at the start of the next cycle, where the model's would. With memory = rtl
  // an access granted at half a cycle may end in its grant cycle: the end is the start of the
  // next cycle, not one period later.
  end_access(grant, last + Cycle{1}, Cycle{1});
}

void BusController::granted(Cycle now) {
  perform_begin(now);
  if (observer_ == nullptr && tap_ == nullptr && !recorder_.enabled()) {
    move_words(now);
    return;
  }
  ModelAccess schedule;
  const bool write = access_.direction == sw::Direction::Write;
  const auto on_bus = [this](Word word, Cycle beat) {
    return tap_ != nullptr ? tap_->on_bus(word, beat) : word;
  };
  // Fig. 5: the start-up alpha (controller, address, propagation, memory access; for a write it
  // includes the parallel write into the modules) ...
  Cycle t = now + Cycle{timing_.alpha} + (tap_ != nullptr ? tap_->extra_startup(now) : Cycle{0});
  for (std::uint32_t v = 0; v < access_.vectors; ++v) {
    // ... an address increment beta before every vector after the first (Fig. 5(c)) ...
    if (v > 0) {
      t += Cycle{timing_.beta};
    }
    const std::uint32_t address = access_.address + v;
    for (std::uint32_t pos = 0; pos < access_.degree(); ++pos) {
      // ... and one minor cycle tau per word streamed over the bus.
      WordStore& module = fabric_.modules[modules_[pos]];
      Word word;
      if (write) {
        word = on_bus(manipulator_.on_write(access_.index_set, pos, v), t);
        module.write(address, word);
      } else {
        word = on_bus(module.read(address), t);
        manipulator_.on_read(access_.index_set, pos, v, word);
      }
      if (observer_ != nullptr) {
        schedule.beats.push_back({t, pos, v, access_.slots[pos], address, word});
      }
      perform_word(t, access_.slots[pos], address, word);
      t += Cycle{timing_.tau};
    }
  }
  end_access(now, t, t - now);
  if (observer_ != nullptr) {
    schedule.grant = now;
    schedule.end = t;
    schedule.write = write;
    schedule.column = access_.bus.kind == sw::BusKind::Column;
    schedule.index_set = access_.index_set;
    observer_->performed(id_, access_, std::move(schedule));
  }
}

// Nobody sees the beats: the words of each stream position are one block copy between its module
// and its data buffer. Fig. 5's word order (vector by vector, position by position) is not needed:
// a write reads only buffers and writes only modules, a read the other way round, so each word's
// final value is the same; where two positions share a module or a buffer, the later position
// still writes last.
void BusController::move_words(Cycle now) {
  const bool write = access_.direction == sw::Direction::Write;
  const std::uint32_t vectors = access_.vectors;
  words_.resize(vectors);
  for (std::uint32_t pos = 0; pos < access_.degree(); ++pos) {
    WordStore& module = fabric_.modules[modules_[pos]];
    WordStore& buffer = manipulator_.buffer(manipulator_.buffer_for(access_.index_set, pos));
    WordStore& from = write ? buffer : module;
    WordStore& to = write ? module : buffer;
    const std::uint32_t from_address = write ? 0 : access_.address;
    // Straight from the source's storage where it holds every word, else through the scratch.
    const Word* words = from.stored_range(from_address, vectors);
    if (words == nullptr) {
      from.read_range(from_address, vectors, words_.data());
      words = words_.data();
    }
    to.write_range(write ? access_.address : 0, vectors, words);
  }
  // Fig. 5: alpha, beta before every vector after the first, tau per word.
  Cycle end = now + Cycle{timing_.alpha};
  if (vectors > 0) {
    end += Cycle{timing_.beta} * (vectors - 1) +
           Cycle{timing_.tau} * (std::uint64_t{vectors} * access_.degree());
  }
  end_access(now, end, end - now);
}

void BusController::end_access(Cycle grant, Cycle end, Cycle resume_in) {
  if (recorder_.enabled()) {
    recorder_.access(grant, end, source_, trace_);
  }
  busy_until_ = end;
  ending_resources_ = requested_;
  ending_trace_ = trace_;
  ending_consumed_.clear();
  if (access_.consumed > 0) {
    ending_consumed_ = modules_;
    ending_address_ = access_.address;
    ending_words_ = access_.consumed;
  }
  ++accesses_;
  words_moved_ += access_.words();
  busy_cycles_ += (end - grant).count();
  ev_end_.notify(clock_.until(end));
  requester_->resume_after(resume_in);
}

void BusController::finish_access() {
  ++activations_;
  for (sw::ModuleId m : ending_consumed_) {
    fabric_.modules[m].forget(ending_address_, ending_words_);
  }
  fabric_.grants.release(id_, ending_resources_);
  if (recorder_.enabled()) {
    recorder_.access_end(clock_.now(), source_, ending_trace_);
  }
}

}  // namespace orthosim::sc
