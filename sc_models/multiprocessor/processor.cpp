// Processor: the machine-program interpreter.
#include "sc_models/multiprocessor/processor.hpp"

#include <stdexcept>

#include "sw/machine/describe.hpp"

namespace orthosim::sc {

using traces::Activity;

Processor::Processor(const sc_core::sc_module_name& name, sw::ProcId id,
                     const sw::SystemConfig& config, const ClockDomain& clock,
                     DataBuffers& manipulator, ProcessorPorts ports, traces::Recorder& recorder,
                     traces::StatsRegistry& stats)
    : sc_core::sc_module(name),
      id_(id),
      sync_costs_(config.sync),
      gamma_(config.timing.gamma),
      clock_(clock),
      manipulator_(manipulator),
      ports_(ports),
      recorder_(recorder),
      local_(config.local_words) {
  SC_METHOD(run);
  sensitive << ev_resume_;
  dont_initialize();
  const std::string base = sc_core::sc_module::name();
  source_ = recorder_.register_source(base, traces::SourceKind::Processor);
  stats.add(base + ".compute_cycles", &compute_cycles_, "cycles", "cycles computing");
  stats.add(base + ".memory_cycles", &memory_cycles_, "cycles",
            "cycles in memory accesses, from request to end (conflict waits included)");
  stats.add(base + ".sync_cycles", &sync_cycles_, "cycles",
            "cycles in barriers, bus switches and activate-/wait-sync");
  stats.add(base + ".ops", &ops_, "ops", "machine-program ops completed");
  stats.add(base + ".activations", &activations_, "activations",
            "times the kernel ran this processor (never per idle cycle)");
}

std::string Processor::grantee_name() const { return "P" + std::to_string(id_); }

void Processor::load(const sw::ProcessorProgram& program, sw::MessageMemory& messages) {
  program_ = &program;
  messages_ = &messages;
  next_ops_ = sw::OpList::Reader(program.ops);
  pc_ = 0;
  phase_ = 0;
  finished_ = false;
  step_marks_.clear();
  local_.clear();
  manipulator_.load(program.index_sets);
  if (program.ops.empty()) {
    // Nothing to do: finished now, and never activated (modeling rule 2).
    finished_ = true;
    finish_cycle_ = clock_.now();
    return;
  }
  current_ = next_ops_.next();
  resume_after(Cycle{0});
}

void Processor::resume_after(Cycle delay) {
  if (pending_resume_) {
    throw std::logic_error(std::string(name()) + ": resumed twice at cycle " +
                           std::to_string(clock_.now().count()));
  }
  pending_resume_ = true;
  if (delay == Cycle{0}) {
    ev_resume_.notify(sc_core::SC_ZERO_TIME);
  } else {
    // From the current cycle's start: a resumption asked for within a cycle (an access the
    // module array grants at half a cycle may end in that cycle, sc::RtlMemory) still falls on
    // a cycle boundary.
    const Cycle cycle{sc_core::sc_time_stamp().value() / clock_.delay(Cycle{1}).value()};
    ev_resume_.notify(clock_.until(cycle + delay));
  }
}

void Processor::run() {
  ++activations_;
  pending_resume_ = false;
  while (pc_ < program_->ops.size()) {
    if (!step(current_)) {
      return;
    }
    ++ops_;
    ++pc_;
    phase_ = 0;
    if (!next_ops_.at_end()) {
      current_ = next_ops_.next();
    }
  }
  if (!finished_) {
    finished_ = true;
    finish_cycle_ = clock_.now();
    show(Activity::Idle);
  }
}

bool Processor::step(const sw::Op& op) {
  return std::visit([this](const auto& o) { return step_op(o); }, op);
}

void Processor::show(Activity what) {
  if (recorder_.enabled()) {
    recorder_.activity(clock_.now(), source_, what, static_cast<std::uint32_t>(pc_));
  }
}

void Processor::account(std::uint64_t& bucket) {
  bucket += (clock_.now() - phase_start_).count();
  phase_start_ = clock_.now();
}

void Processor::enter(Activity what) {
  show(what);
  phase_start_ = clock_.now();
  ++phase_;
}

bool Processor::step_op(const sw::Compute& op) {
  if (phase_ == 0) {
    if (op.cycles == Cycle{0}) {
      return true;
    }
    enter(Activity::Compute);
    resume_after(op.cycles);
    return false;
  }
  account(compute_cycles_);
  return true;
}

bool Processor::step_op(const sw::MemoryAccess& op) {
  if (phase_ == 0) {
    enter(op.direction == sw::Direction::Read ? Activity::Read : Activity::Write);
    ports_.controller.start(op, *this);
    return false;
  }
  account(memory_cycles_);
  return true;
}

bool Processor::step_op(const sw::Iwr& op) {
  switch (phase_) {
    case 0:
      enter(Activity::IwrWrite);
      ports_.controller.start(op.write(), *this);
      return false;
    case 1:
      account(memory_cycles_);
      enter(Activity::BusSwitch);
      ports_.sync.arrive(Rendezvous::BusSwitch, id_, op.group(), Cycle{gamma_});
      return false;
    case 2:
      account(sync_cycles_);
      enter(Activity::IwrRead);
      ports_.controller.start(op.read(), *this);
      return false;
    default:
      account(memory_cycles_);
      return true;
  }
}

bool Processor::rendezvous(Rendezvous kind, const sw::ProcSet& group, Cycle release_delay,
                           Activity what) {
  if (phase_ == 0) {
    enter(what);
    ports_.sync.arrive(kind, id_, group, release_delay);
    return false;
  }
  account(sync_cycles_);
  return true;
}

bool Processor::step_op(const sw::BusSwitch& op) {
  return rendezvous(Rendezvous::BusSwitch, op.group, Cycle{gamma_}, Activity::BusSwitch);
}

bool Processor::step_op(const sw::Barrier& op) {
  return rendezvous(Rendezvous::Barrier, op.group, Cycle{sync_costs_.barrier}, Activity::Barrier);
}

bool Processor::step_op(const sw::ActivateSync& op) {
  switch (phase_) {
    case 0:
      enter(Activity::ActivateSync);
      ports_.arbiter.request(id_, {ports_.interrupt_bus}, *this);
      return false;
    case 1:  // resumed by granted(): the interrupt is on the bus for its activate cost
      ports_.arbiter.release({ports_.interrupt_bus});
      ports_.sync.deliver(id_, op.targets);
      account(sync_cycles_);
      return true;
    default:
      throw std::logic_error("activate-sync phase");
  }
}

void Processor::granted(Cycle now) {
  if (recorder_.enabled()) {
    recorder_.interrupt_granted(now, source_, phase_start_);
  }
  resume_after(Cycle{sync_costs_.activate});
}

bool Processor::step_op(const sw::WaitSync& op) {
  if (phase_ == 0) {
    if (ports_.sync.try_consume(id_, op.source)) {
      return true;
    }
    enter(Activity::WaitSync);
    ports_.sync.wait(id_, op.source);
    return false;
  }
  if (!ports_.sync.try_consume(id_, op.source)) {
    throw std::logic_error(std::string(name()) + ": woken without a sync token");
  }
  account(sync_cycles_);
  return true;
}

// The message words and the local memory are read (or written) a run at a time, the buffer in one
// call, in place where the buffer is plain storage: the buffers are neither read by a
// LoadBuffer's sources nor written by a StoreBuffer's destinations, so the order of the two sides
// does not change a word.
bool Processor::step_op(const sw::LoadBuffer& op) {
  Word* in_buffer = manipulator_.words_to_fill(op.buffer, op.buffer_address, op.words);
  if (in_buffer == nullptr) {
    words_.resize(op.words);
  }
  Word* out = in_buffer != nullptr ? in_buffer : words_.data();
  for (std::uint32_t w = 0; w < op.words;) {
    const std::uint32_t address = op.local_address + w;
    const sw::MessageMemory::Run run = messages_->sent(id_, address, op.words - w, out + w);
    if (!run.message) {
      local_.read_range(address, run.words, out + w);
    }
    w += run.words;
  }
  if (in_buffer == nullptr) {
    manipulator_.write_words(op.buffer, op.buffer_address, op.words, out);
  }
  return true;
}

bool Processor::step_op(const sw::StoreBuffer& op) {
  const Word* words = manipulator_.stored_words(op.buffer, op.buffer_address, op.words);
  if (words == nullptr) {
    words_.resize(op.words);
    manipulator_.read_words(op.buffer, op.buffer_address, op.words, words_.data());
    words = words_.data();
  }
  for (std::uint32_t w = 0; w < op.words;) {
    const std::uint32_t address = op.local_address + w;
    const sw::MessageMemory::Run run = messages_->receive(id_, address, op.words - w, words + w);
    if (!run.message) {
      local_.write_range(address, run.words, words + w);
    }
    w += run.words;
  }
  return true;
}

bool Processor::step_op(const sw::StepMark& op) {
  step_marks_.push_back({op.step, clock_.now()});
  if (recorder_.enabled()) {
    recorder_.step_mark(clock_.now(), source_, op.step);
  }
  return true;
}

std::string Processor::describe_wait() const {
  if (finished_ || program_ == nullptr) {
    return "";
  }
  std::string why = ports_.arbiter.describe_wait(id_);
  if (why.empty()) {
    why = ports_.sync.describe_wait(id_);
  }
  if (why.empty()) {
    why = "busy in " + sw::describe(current_, ports_.controller.organization());
  }
  return "P" + std::to_string(id_) + " at op " + std::to_string(pc_) + ": " + why;
}

}  // namespace orthosim::sc
