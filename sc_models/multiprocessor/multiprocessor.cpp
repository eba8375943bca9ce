// Assembly of the omp, crossbar and single-bus systems, and their run loop.
#include "sc_models/multiprocessor/multiprocessor.hpp"

#include <algorithm>
#include <stdexcept>
#include <tuple>

#include "sc_models/kernel/sliced_run.hpp"
#include "sw/machine/validate.hpp"

namespace orthosim::sc {

Multiprocessor::Multiprocessor(const sc_core::sc_module_name& name,
                               const sw::Validated<sw::SystemConfig>& config,
                               traces::Recorder& recorder_in, std::unique_ptr<BlockWiring> wiring)
    : sc_core::sc_module(name),
      config_(config),
      wiring_(std::move(wiring)),
      clock_(config->clock_period_ns) {
  wiring_->validate(config_);
  const sw::MemoryOrganization org = config_.organization();
  const std::string base = sc_core::sc_module::name();
  twin_ = wiring_->machine(config_, base, clock_, recorder_in);
  if (twin_ != nullptr && twin_->observer() != nullptr) {
    observed_ = std::make_unique<traces::FanoutRecorder>(
        std::vector<traces::Recorder*>{&recorder_in, twin_->observer()});
  }
  traces::Recorder& recorder = observed_ ? *observed_ : recorder_in;

  // Resource ids: the buses, then the modules, then the interrupt bus.
  std::vector<std::string> resources;
  const std::vector<sw::BusRef> buses = org.buses();
  for (const sw::BusRef& b : buses) {
    resources.push_back(org.bus_name(b));
  }
  for (sw::ModuleId m = 0; m < org.module_count(); ++m) {
    resources.push_back(org.module_name(m));
  }
  const ResourceId interrupt_bus = static_cast<ResourceId>(resources.size());
  resources.push_back("interrupt bus");

  modules_.assign(org.module_count(), WordStore(config_.module_words, &module_words_));
  arbiter_ = std::make_unique<ResourceArbiter>("arbiter", resources, clock_, stats_);
  MemoryGrants& grants = wiring_->memory(SystemParts{config_, base, clock_, *arbiter_, modules_});
  fabric_ = std::unique_ptr<MemoryFabric>(new MemoryFabric{org, grants, modules_, {}, {}, {}});
  for (std::uint32_t b = 0; b < buses.size(); ++b) {
    fabric_->bus_resource.push_back(b);
    fabric_->bus_source.push_back(
        recorder.register_source(base + "." + org.bus_tag(buses[b]), traces::SourceKind::Bus));
  }
  for (sw::ModuleId m = 0; m < org.module_count(); ++m) {
    fabric_->module_resource.push_back(static_cast<ResourceId>(buses.size()) + m);
  }
  sync_ = std::make_unique<SyncUnit>(base + ".sync", config_.n, stats_);

  std::vector<Resumable*> resumables;
  for (sw::ProcId i = 0; i < config_.n; ++i) {
    manipulators_.push_back(std::make_unique<IndexManipulator>(config_.n, config_.buffer_words));
    IndexManipulator& manipulator = *manipulators_.back();
    DataBuffers& buffers = wiring_->buffers(i, manipulator);
    controllers_.push_back(std::make_unique<BusController>(("bc" + std::to_string(i)).c_str(), i,
                                                           config_.timing, clock_, *fabric_,
                                                           manipulator, recorder, stats_));
    processors_.push_back(std::make_unique<Processor>(
        ("p" + std::to_string(i)).c_str(), i, config_, clock_, buffers,
        ProcessorPorts{*controllers_.back(), *arbiter_, interrupt_bus, *sync_}, recorder, stats_));
    resumables.push_back(processors_.back().get());
    wiring_->attach(i, *controllers_.back(), manipulator);
  }
  sync_->attach(std::move(resumables));
}

Multiprocessor::~Multiprocessor() = default;

void Multiprocessor::check(const sw::MachineProgram& program) const {
  sw::validate(program, config_);
  if (twin_ != nullptr) {
    twin_->check(program);
  }
}

void Multiprocessor::load(sw::MachineProgram program) {
  check(program);
  if (!finished() && sc_core::sc_pending_activity()) {
    throw std::logic_error(std::string(name()) + ": load() while a program is still running");
  }
  program_ = std::move(program);
  arbiter_->reset();
  for (auto& c : controllers_) {
    c->reset();
  }
  for (WordStore& m : modules_) {
    m.clear();
  }
  module_words_.peak = module_words_.now;
  wiring_->load();
  sync_->reset();
  baseline_ = stats_.snapshot();
  counters_at_load_ = counters();
  start_ = clock_.now();
  stopped_at_limit_.reset();
  messages_.load(program_.messages, config_.n, program_.deliveries);
  // rtl: the verilated machine runs the program; the model processors get none.
  static const sw::ProcessorProgram kNothing;
  const bool models_run = twin_ == nullptr || twin_->beside_models();
  for (sw::ProcId i = 0; i < config_.n; ++i) {
    processors_[i]->load(models_run ? program_.processors[i] : kNothing, messages_);
  }
  if (twin_ != nullptr) {
    twin_->load(program_);
  }
}

bool Multiprocessor::finished() const {
  return std::all_of(processors_.begin(), processors_.end(),
                     [](const auto& p) { return p->finished(); }) &&
         (twin_ == nullptr || twin_->finished());
}

Cycle Multiprocessor::end() const {
  return twin_ != nullptr && twin_->last_cycle() ? *twin_->last_cycle() : clock_.now();
}

Multiprocessor::Counters Multiprocessor::counters() const {
  Counters c;
  c.conflicts = arbiter_->conflicts();
  c.conflict_wait_cycles = arbiter_->conflict_wait_cycles();
  for (const auto& controller : controllers_) {
    c.bus_words_moved += controller->words_moved();
  }
  return c;
}

sw::RunSummary Multiprocessor::result() const {
  sw::RunSummary r;
  r.completed = finished();
  r.cycle_limit_reached = !r.completed && stopped_at_limit_.has_value();
  for (const auto& p : processors_) {
    const Cycle end = p->finished() ? p->finish_cycle() - start_ : clock_.now() - start_;
    r.processor_end.push_back(end);
    r.cycles = std::max(r.cycles, end);
    if (!p->finished() && !r.cycle_limit_reached) {
      r.blocked.push_back(p->describe_wait());
    }
    for (const StepMarkRecord& m : p->step_marks()) {
      if (m.step >= r.step_ends.size()) {
        r.step_ends.resize(m.step + 1);
      }
      r.step_ends[m.step] = std::max(r.step_ends[m.step], m.at - start_);
    }
  }
  if (r.cycle_limit_reached) {
    r.cycles = *stopped_at_limit_;
    r.blocked.push_back("cycle limit reached: the run stopped after " +
                        std::to_string(r.cycles.count()) + " cycles, still running");
  }
  r.delivery = messages_.report(!r.cycle_limit_reached);
  r.stats = stats_.snapshot();
  for (std::size_t i = 0; i < r.stats.size(); ++i) {
    r.stats[i].value -= baseline_.at(i).value;
  }
  r.mismatch = wiring_->mismatch(clock_.now());
  const Counters now = counters();
  r.conflicts = now.conflicts - counters_at_load_.conflicts;
  r.conflict_wait_cycles = now.conflict_wait_cycles - counters_at_load_.conflict_wait_cycles;
  r.bus_words_moved = now.bus_words_moved - counters_at_load_.bus_words_moved;
  if (twin_ != nullptr) {
    twin_->result(r);
    if (!r.mismatch) {
      r.mismatch = wiring_->mismatch(clock_.now());
    }
  }
  return r;
}

std::uint64_t Multiprocessor::footprint(const sw::MachineProgram& program,
                                        const sw::SystemConfig& config) {
  // Per processor: its modules (processor, controller, manipulator, datapath) and their kernel
  // objects, measured on the omp of 64 processors rounded up.
  constexpr std::uint64_t kBlockBytes = 8 * 1024;
  const sw::MemoryOrganization org = config.organization();
  std::uint64_t bytes =
      std::uint64_t{config.n} * kBlockBytes +
      std::uint64_t{org.module_count()} * sizeof(WordStore) +
      program.messages.size() * (sizeof(sw::Message) + sw::MessageMemory::kBytesPerMessage);
  std::vector<std::uint64_t> module_words(org.module_count(), 0);
  const auto written = [&](const sw::MemoryAccess& a) {
    if (a.direction == sw::Direction::Write) {
      for (std::uint32_t slot : a.slots) {
        std::uint64_t& top = module_words[org.module_at(a.bus, slot)];
        top = std::max(top, std::uint64_t{a.address} + a.vectors);
      }
    }
  };
  std::vector<std::uint64_t> buffer_words(config.n, 0);  ///< summed over a processor's buffers
  for (sw::ProcId p = 0; p < program.processors.size(); ++p) {
    const sw::ProcessorProgram& pp = program.processors[p];
    bytes += pp.ops.bytes();
    for (const sw::IndexSet& set : pp.index_sets) {
      bytes += sizeof(sw::IndexSet) + set.size() * sizeof(std::uint32_t);
    }
    std::vector<std::uint64_t> buffer_top(config.n, 0);
    // One pass over the ops (each is decoded from the program's bytes as it is read).
    for (const sw::Op& op : pp.ops) {
      const sw::MemoryAccess* read = nullptr;
      if (const auto* access = std::get_if<sw::MemoryAccess>(&op)) {
        written(*access);
        read = access;
      } else if (const auto* iwr = std::get_if<sw::Iwr>(&op)) {
        written(iwr->write());
        written(iwr->read());
        read = &iwr->read();
      } else if (const auto* load = std::get_if<sw::LoadBuffer>(&op);
                 load != nullptr && load->buffer < buffer_top.size()) {
        std::uint64_t& top = buffer_top[load->buffer];
        top = std::max(top, std::uint64_t{load->buffer_address} + load->words);
      }
      // A read access fills the buffers of its index set up to its vectors.
      if (read != nullptr && read->direction == sw::Direction::Read &&
          read->index_set < pp.index_sets.size()) {
        for (std::uint32_t b : pp.index_sets[read->index_set]) {
          if (b < buffer_top.size()) {
            buffer_top[b] = std::max(buffer_top[b], std::uint64_t{read->vectors});
          }
        }
      }
    }
    for (std::uint64_t top : buffer_top) {
      buffer_words[p] += top;
    }
  }
  // The messages' words in the local memories are generated and checked, not stored.
  for (const std::vector<std::uint64_t>* words : {&module_words, &buffer_words}) {
    for (std::uint64_t w : *words) {
      bytes += w * sizeof(sw::Word);
    }
  }
  return bytes;
}

void run_systems(const std::vector<Multiprocessor*>& systems, Cycle limit,
                 const std::function<void()>& between) {
  sc_core::sc_time horizon = sc_core::SC_ZERO_TIME;
  sc_core::sc_time first_slice = sc_core::SC_ZERO_TIME;
  for (const Multiprocessor* s : systems) {
    // The cycle `limit` itself still runs: a run may last exactly `limit` cycles.
    horizon = std::max(horizon, s->clock().delay(limit + Cycle{1}));
    first_slice = std::max(first_slice, s->clock().delay(kFirstProgressSlice));
  }
  run_in_slices(horizon, first_slice, between);
  // Events still pending: the horizon stopped the run, not the lack of anything to do.
  if (sc_core::sc_pending_activity()) {
    for (Multiprocessor* s : systems) {
      s->stopped_at_limit_ = limit;
    }
  }
}

}  // namespace orthosim::sc
