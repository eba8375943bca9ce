// The whole multiprocessor verilated: load, step, compare, report.
#include "sc_models/cosim/rtl_machine.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "sw/core/diagnostic.hpp"
#include "sw/machine/delivery_check.hpp"

namespace orthosim::sc {

namespace {

/// The number after `marker` at the end of `path` ("omp.p12", ".p" -> 12), if it ends so.
std::optional<std::uint32_t> index_after(const std::string& path, const std::string& marker) {
  const std::size_t at = path.rfind(marker);
  if (at == std::string::npos || at + marker.size() >= path.size() ||
      path.find_first_not_of("0123456789", at + marker.size()) != std::string::npos) {
    return std::nullopt;
  }
  return static_cast<std::uint32_t>(std::stoul(path.substr(at + marker.size())));
}

bool moving(traces::Activity a) {
  return a == traces::Activity::Compute || a == traces::Activity::Read ||
         a == traces::Activity::Write || a == traces::Activity::IwrWrite ||
         a == traces::Activity::IwrRead;
}

/// What the model's processor shows for the verilated one's activity `a` at instruction `pc`.
/// The bridge calls every access next to a bus switch an IWR half; the model, only the halves of
/// an IwrStep op, which the assembler makes three instructions of one op index. A Write, a
/// BusSwitch and a Read op in a row (the crossbar's and the bus's IWR workload) are not one.
traces::Activity model_activity(const ProcessorImage& image, std::uint32_t pc, traces::Activity a) {
  const auto same_op = [&](std::int64_t k) {
    return k >= 0 && static_cast<std::size_t>(k) < image.op_of.size() && pc < image.op_of.size() &&
           image.op_of[static_cast<std::size_t>(k)] == image.op_of[pc];
  };
  if (a == traces::Activity::IwrWrite && !same_op(std::int64_t{pc} + 1)) {
    return traces::Activity::Write;
  }
  if (a == traces::Activity::IwrRead && !same_op(std::int64_t{pc} - 1)) {
    return traces::Activity::Read;
  }
  return a;
}

}  // namespace

RtlMachine::RtlMachine(const sc_core::sc_module_name& name, const sw::SystemConfig& config,
                       const std::string& system, const ClockDomain& clock,
                       traces::Recorder& recorder, rtl::FstTrace* fst,
                       std::function<void(const Mismatch&)> on_mismatch, MachineFault fault)
    : sc_core::sc_module(name),
      config_(config),
      system_(system),
      clock_(clock),
      recorder_(recorder),
      cosim_(config.impl.processor == sw::Impl::Cosim),
      on_mismatch_(std::move(on_mismatch)),
      fault_(fault),
      rtl_(std::make_unique<rtl::MultiprocessorRtl>(verilated_arch(config.arch), config.n, fst,
                                                    system + ".machine")) {
  for (sw::ProcId p = 0; p < config.n; ++p) {
    grant_signals_.push_back("grant[" + std::to_string(p) + "]");
  }
  SC_METHOD(step);
  sensitive << ev_step_;
  dont_initialize();
}

RtlMachine::~RtlMachine() = default;

void RtlMachine::check(const sw::MachineProgram& program) const {
  const rtl::MultiprocessorLimits& limits = rtl_->limits();
  const std::uint64_t timing_max = (std::uint64_t{1} << limits.timing_bits) - 1;
  const std::uint64_t cost_max = (std::uint64_t{1} << limits.cost_bits) - 1;
  const std::pair<const char*, std::pair<std::uint64_t, std::uint64_t>> costs[] = {
      {"alpha", {config_.timing.alpha, timing_max}},
      {"beta", {config_.timing.beta, timing_max}},
      {"tau", {config_.timing.tau, timing_max}},
      {"gamma", {config_.timing.gamma, std::min(timing_max, cost_max)}},
      {"sync-cycles", {config_.sync.activate, cost_max}},
      {"barrier-cycles", {config_.sync.barrier, cost_max}}};
  for (const auto& [name, value] : costs) {
    sw::require_parameter(value.first <= value.second, name,
                          "at most " + std::to_string(value.second) +
                              " cycles, what the registers of the RTL processor that {impl} asks "
                              "for hold",
                          sw::quoted(value.first));
  }
  (void)assemble(program, config_, limits);
}

void RtlMachine::load(const sw::MachineProgram& program) {
  program_ = &program;
  images_ = assemble(program, config_, rtl_->limits());
  rtl_->reset();
  rtl_->set_costs({static_cast<std::uint32_t>(config_.timing.alpha),
                   static_cast<std::uint32_t>(config_.timing.beta),
                   static_cast<std::uint32_t>(config_.timing.tau),
                   static_cast<std::uint32_t>(config_.timing.gamma),
                   static_cast<std::uint32_t>(config_.sync.activate),
                   static_cast<std::uint32_t>(config_.sync.barrier)});
  // Storage reads as the model's unwritten memory until written.
  rtl_->fill_storage(sw::kUnwrittenWord);
  for (sw::ProcId p = 0; p < config_.n; ++p) {
    const ProcessorImage& image = images_[p];
    rtl_->load_program(p, image.instructions);
    for (std::uint32_t set = 0; set < image.index_sets.size(); ++set) {
      for (std::uint32_t pos = 0; pos < image.index_sets[set].size(); ++pos) {
        rtl_->write_index(p, set, pos, image.index_sets[set][pos]);
      }
    }
    for (const LocalWords& run : image.local) {
      for (std::uint32_t k = 0; k < run.words.size(); ++k) {
        rtl_->write_local(p, run.address + k, run.words[k]);
      }
    }
  }
  rtl_->start();

  const std::uint32_t n = config_.n;
  start_ = clock_.now();
  running_ = true;
  rtl_finished_ = false;
  quiet_ = 0;
  stuck_ = false;
  finish_.assign(n, std::nullopt);
  last_pc_.assign(n, 0);
  pc_before_.assign(n, 0);
  pc_since_.assign(n, 0);
  step_ends_.clear();
  accesses_.assign(n, 0);
  valid_cycles_.assign(n, 0);
  busy_cycles_.assign(n, 0);
  last_mode_.assign(n, 0);
  activates_ = 0;
  found_.clear();
  last_ = {};
  shown_.assign(n, {});
  shown_access_.assign(n, std::nullopt);
  shown_interrupt_.assign(n, std::nullopt);
  model_.assign(n, {});
  model_events_.assign(n, {});
  for (sw::ProcId p = 0; p < n; ++p) {
    model_[p].finished = program.processors[p].ops.empty();
  }
  beats_.assign(n, {});
  grants_.assign(n, {});
  interrupt_grants_.clear();
  processor_checks_.clear();
  bus_checks_.clear();
  for (sw::ProcId p = 0; p < n; ++p) {
    processor_checks_.emplace_back(system_ + ".p" + std::to_string(p));
    bus_checks_.emplace_back(system_ + ".bc" + std::to_string(p));
  }
  arbiter_check_.emplace(system_ + ".arbiter");
  sync_check_.emplace(system_ + ".sync");
  if (!cosim_ && recorder_.enabled()) {
    find_sources();
    claim_after(start_);
  }
  // Cycle c is stepped at the start of cycle c + 1, when every model event of c has happened
  // (the models' events of c + 1, in whatever order the kernel runs them, are told apart by
  // their cycle). So the run also ends on a clock edge.
  ev_step_.notify(clock_.until(start_ + Cycle{1}));
}

void RtlMachine::step() {
  const rtl::MultiprocessorCycle& out = rtl_->step_cycle();
  ++rtl_cycles_;
  account(out);
  const std::uint64_t c = out.cycle;
  if (cosim_) {
    compare(out, c);
  } else if (recorder_.enabled()) {
    show(out, c);
  }
  last_ = out;
  const bool model_done =
      !cosim_ ||
      std::all_of(model_.begin(), model_.end(), [](const ModelProcessor& m) { return m.finished; });
  if (!found_.empty() || (rtl_finished_ && model_done) || stuck_) {
    running_ = false;
    if (!cosim_ && recorder_.enabled()) {
      recorder_.claim(processor_sources_.front(), std::nullopt);
    }
    for (const Mismatch& m : found_) {
      on_mismatch_(m);  // keeps the first by instance name and stops the run
    }
    return;
  }
  ev_step_.notify(clock_.delay(Cycle{1}));
}

void RtlMachine::account(const rtl::MultiprocessorCycle& out) {
  const std::uint64_t c = out.cycle;
  bool moved = out.interrupt_busy;
  bool all_finished = true;
  for (sw::ProcId p = 0; p < config_.n; ++p) {
    const rtl::RtlProcessorCycle& proc = out.processors.at(p);
    if (proc.finished && !finish_[p]) {
      finish_[p] = c;
    }
    all_finished = all_finished && proc.finished;
    pc_before_[p] = last_pc_[p];
    if (proc.pc != last_pc_[p]) {
      moved = true;
      // Each activate-sync P(p) passed since the last cycle is one grant of the interrupt bus:
      // the one it waited in and, with a zero-cost interrupt bus (--sync-cycles 0), those it
      // passed in this cycle's zero-time steps (a program has no jumps: the pc only counts up).
      for (std::uint32_t k = last_pc_[p]; k < proc.pc; ++k) {
        activates_ += rtl_->loaded_op(p, k).code == rtl::RtlOp::Code::ActivateSync ? 1 : 0;
      }
      last_pc_[p] = proc.pc;
      pc_since_[p] = c;
    }
    moved = moved || moving(proc.activity);
    const rtl::RtlBusCycle& bus = out.buses.at(p);
    accesses_[p] += bus.done ? 1 : 0;
    valid_cycles_[p] += bus.valid ? 1 : 0;
    busy_cycles_[p] += bus.mode != 0 ? 1 : 0;
    moved = moved || bus.busy;
  }
  for (const auto& [p, step] : out.marks) {
    if (step >= step_ends_.size()) {
      step_ends_.resize(step + 1, 0);
    }
    step_ends_[step] = std::max(step_ends_[step], c);
  }
  rtl_finished_ = all_finished;
  // Nothing moves and nothing can: every processor waits for a token or a rendezvous that no
  // one will give (the model's watchdog sees its kernel run dry). A release delay (barrier,
  // gamma) passes without movement, so the watchdog waits them out first.
  quiet_ = moved ? 0 : quiet_ + 1;
  stuck_ = !all_finished &&
           quiet_ > config_.sync.barrier + config_.timing.gamma + config_.sync.activate + 2;
}

traces::SourceId RtlMachine::source_named(const std::string& name) const {
  const std::string path = system_ + "." + name;
  const std::vector<traces::Source>& sources = recorder_.sources();
  const auto it = std::find_if(sources.begin(), sources.end(),
                               [&](const traces::Source& s) { return s.path == path; });
  if (it == sources.end()) {
    throw std::logic_error(path + " is not a source of the recorder");
  }
  return static_cast<traces::SourceId>(it - sources.begin());
}

void RtlMachine::find_sources() {
  if (!processor_sources_.empty()) {
    return;
  }
  for (sw::ProcId p = 0; p < config_.n; ++p) {
    processor_sources_.push_back(source_named("p" + std::to_string(p)));
    controller_sources_.push_back(source_named("bc" + std::to_string(p)));
  }
  const sw::MemoryOrganization org = config_.organization();
  for (const sw::BusRef& bus : org.buses()) {
    bus_sources_.push_back(source_named(org.bus_tag(bus)));
  }
}

void RtlMachine::show(const rtl::MultiprocessorCycle& out, std::uint64_t c) {
  const Cycle now = start_ + Cycle{c};
  for (sw::ProcId p = 0; p < config_.n; ++p) {
    const rtl::RtlProcessorCycle& r = out.processors.at(p);
    // The step marks and activate-syncs P(p) passed since the last cycle, in program order, as
    // a model processor tells them before it enters the next op. An activate-sync asks for the
    // interrupt bus when P(p) comes to it; the sync unit lets P(p) continue `activate` cycles
    // after the grant (rtl/sync_unit.sv: granted in cycle G, it continues in G + activate), so
    // the grant is known when P(p) leaves, and told then. One passed in this cycle's zero-time
    // steps (a zero-cost interrupt bus) was asked for in this cycle too.
    std::optional<std::pair<std::uint32_t, Cycle>>& asked = shown_interrupt_[p];
    auto mark = out.marks.begin();
    const auto tell_next_mark = [&] {
      mark = std::find_if(mark, out.marks.end(), [p](const auto& m) { return m.first == p; });
      if (mark != out.marks.end()) {
        recorder_.step_mark(now, processor_sources_[p], mark->second);
        ++mark;
      }
    };
    for (std::uint32_t k = pc_before_[p]; k < r.pc; ++k) {
      const rtl::RtlOp::Code code = rtl_->loaded_op(p, k).code;
      if (code == rtl::RtlOp::Code::StepMark) {
        tell_next_mark();
      } else if (code == rtl::RtlOp::Code::ActivateSync) {
        const Cycle requested = asked && asked->first == k ? asked->second : now;
        recorder_.interrupt_granted(now - Cycle{config_.sync.activate}, processor_sources_[p],
                                    requested);
      }
    }
    while (mark != out.marks.end()) {
      tell_next_mark();
    }
    const std::uint32_t op = r.pc < images_[p].op_of.size() ? images_[p].op_of[r.pc] : r.pc;
    const std::pair<traces::Activity, std::uint32_t> shown{model_activity(images_[p], r.pc,
                                                                          r.activity),
                                                           op};
    if (c == 0 || shown != shown_[p]) {
      // An empty program shows nothing, as the model's processor.
      if (!program_->processors[p].ops.empty()) {
        recorder_.activity(now, processor_sources_[p], shown.first, op);
      }
      shown_[p] = shown;
    }
    if (asked && r.pc != asked->first) {
      asked.reset();
    }
    if (!asked && rtl_->loaded_op(p, r.pc).code == rtl::RtlOp::Code::ActivateSync) {
      asked.emplace(r.pc, start_ + Cycle{pc_since_[p]});
    }
  }
  show_buses(out, now);
  claim_after(now + Cycle{1});
}

void RtlMachine::show_buses(const rtl::MultiprocessorCycle& out, Cycle now) {
  const sw::MemoryOrganization org = config_.organization();
  // The ends first: a model controller releases its bus and modules at the start of the cycle
  // after its last, before anyone is granted them in that cycle. The access's record, dated at
  // its grant, is told now that its end is known.
  for (sw::ProcId p = 0; p < config_.n; ++p) {
    const rtl::RtlBusCycle& bus = out.buses.at(p);
    std::optional<ShownAccess>& open = shown_access_[p];
    if (open && (bus.done || bus.mode == 0)) {
      recorder_.access(open->grant, now, controller_sources_[p], open->trace);
      recorder_.access_end(now, controller_sources_[p], open->trace);
      open.reset();
    }
  }
  for (sw::ProcId p = 0; p < config_.n; ++p) {
    const rtl::RtlBusCycle& bus = out.buses.at(p);
    std::optional<ShownAccess>& open = shown_access_[p];
    if (!open && bus.mode != 0) {
      // Granted in this cycle: BC(p) holds its bus (RB(p) or CB(p) on the omp, the access's
      // B(b) on the crossbar, B0 on the bus) and the modules from now on, for the access of the
      // instruction P(p) is at, which it asked for when it came there.
      const bool column = bus.mode == 2;
      const sw::BusRef driven =
          config_.arch == sw::Arch::Omp
              ? sw::BusRef{column ? sw::BusKind::Column : sw::BusKind::Row, p}
              : sw::BusRef{sw::BusKind::Shared, config_.arch == sw::Arch::Crossbar ? bus.bus : 0};
      const std::uint32_t pc = out.processors.at(p).pc;
      const rtl::RtlOp& access = rtl_->loaded_op(p, pc);
      traces::AccessTrace t;
      t.mode = column ? traces::BusMode::Column : traces::BusMode::Row;
      t.bus = bus_sources_.at(org.bus_index(driven));
      t.bus_index = driven.index;
      t.master = p;
      t.write = bus.write;
      t.requested = start_ + Cycle{pc_since_[p]};
      t.index_set = access.index_set;
      t.address = access.address;
      t.vectors = access.vectors;
      t.slots = &access.slots;
      open = ShownAccess{now, t};
      recorder_.access_begin(now, controller_sources_[p], t);
    }
    // A word on the bus in this cycle; the model tells a word once for its tau cycles, which
    // makes the same waveform (a word's signals change when the word does).
    if (bus.valid && open) {
      recorder_.beat(now, Cycle{1}, controller_sources_[p], open->trace, bus.sel, bus.addr,
                     bus.data);
    }
  }
}

void RtlMachine::claim_after(Cycle next) {
  // The events of cycle c are told at the start of c + 1 (step()); an open access's record at
  // its end; an activate-sync's grant when it is delivered.
  Cycle from = next;
  for (const std::optional<ShownAccess>& open : shown_access_) {
    if (open) {
      from = std::min(from, open->grant);
    }
  }
  for (const auto& asked : shown_interrupt_) {
    if (asked) {
      from = std::min(from, asked->second);
    }
  }
  recorder_.claim(processor_sources_.front(), from);
}

void RtlMachine::compare(const rtl::MultiprocessorCycle& out, std::uint64_t c) {
  const Cycle now = start_ + Cycle{c};
  std::vector<Mismatch>& found = found_;
  const auto keep = [&found](const LockstepChecker& checker) {
    if (checker.first_mismatch()) {
      found.push_back(*checker.first_mismatch());
    }
  };
  for (sw::ProcId p = 0; p < config_.n; ++p) {
    // The model's changes up to this cycle (those held back by a LateActivity fault included).
    while (!model_events_[p].empty() && model_events_[p].front().at <= now) {
      model_[p] = model_events_[p].front().state;
      model_events_[p].pop_front();
    }
    const ModelProcessor& m = model_[p];
    const rtl::RtlProcessorCycle& r = out.processors.at(p);
    const ProcessorImage& image = images_[p];
    const std::uint32_t rtl_op = r.pc < image.op_of.size() ? image.op_of[r.pc] : r.pc;
    LockstepChecker& check = processor_checks_[p];
    if (!check.check(c, "activity", m.activity, activity_class(r.activity)) ||
        !check.check(c, "op", m.op, rtl_op) ||
        !check.check(c, "finished", m.finished, r.finished)) {
      keep(check);
    }

    std::deque<Beat>& beats = beats_[p];
    while (!beats.empty() && beats.front().at + beats.front().length <= now) {
      beats.pop_front();
    }
    const Beat* beat = !beats.empty() && beats.front().at <= now ? &beats.front() : nullptr;
    const rtl::RtlBusCycle& bus = out.buses.at(p);
    LockstepChecker& bc = bus_checks_[p];
    bool same = bc.check(c, "bus_valid", beat != nullptr, bus.valid);
    if (same && beat != nullptr) {
      same = bc.check(c, "bus_sel", beat->slot, bus.sel) &&
             bc.check(c, "bus_addr", beat->address, bus.addr) &&
             bc.check(c, "bus_data", beat->data, bus.data);
    }
    if (!same) {
      keep(bc);
    }

    // BC(p) got its bus and modules in this cycle: its bus mode rose, or a new access began in
    // the done cycle of the last one.
    std::deque<Cycle>& grants = grants_[p];
    while (!grants.empty() && grants.front() < now) {
      grants.pop_front();
    }
    const bool model_grant = !grants.empty() && grants.front() == now;
    const bool rtl_grant = bus.mode != 0 && (last_mode_[p] == 0 || bus.done || c == 0);
    last_mode_[p] = bus.mode;
    if (!arbiter_check_->check(c, grant_signals_[p].c_str(), model_grant, rtl_grant)) {
      keep(*arbiter_check_);
    }
  }
  while (!interrupt_grants_.empty() &&
         interrupt_grants_.front() + Cycle{config_.sync.activate} <= now) {
    interrupt_grants_.pop_front();
  }
  bool model_busy = !interrupt_grants_.empty() && interrupt_grants_.front() <= now;
  if (fault_.kind == MachineFault::Kind::FlipInterrupt && fault_.at == now) {
    model_busy = !model_busy;
  }
  if (!sync_check_->check(c, "interrupt_busy", model_busy, out.interrupt_busy)) {
    keep(*sync_check_);
  }
}

traces::SourceId RtlMachine::register_source(const std::string& path, traces::SourceKind kind) {
  const traces::SourceId id = traces::Recorder::register_source(path, kind);
  std::optional<std::uint32_t> index;
  if (kind == traces::SourceKind::Processor) {
    index = index_after(path, ".p");
  } else if (kind == traces::SourceKind::BusController) {
    index = index_after(path, ".bc");
  }
  sources_of_.push_back({kind, index.value_or(~0u)});
  return id;
}

void RtlMachine::activity(Cycle at, traces::SourceId processor, traces::Activity what,
                          std::uint32_t op_index) {
  const SourceOf& s = sources_of_.at(processor);
  if (!running_ || s.index >= model_.size()) {
    return;
  }
  // The model shows Idle only once its processor has finished the program.
  const ModelProcessor state{activity_class(what), op_index, what == traces::Activity::Idle};
  if (fault_.kind == MachineFault::Kind::LateActivity && fault_.block == s.index &&
      at >= fault_.at) {
    fault_.kind = MachineFault::Kind::None;
    model_events_[s.index].push_back({at + Cycle{1}, state});
    return;
  }
  // In order; one held back by the fault delays those after it.
  const Cycle seen =
      model_events_[s.index].empty() ? at : std::max(at, model_events_[s.index].back().at);
  if (fault_.kind == MachineFault::Kind::LateFinish && fault_.block == s.index && state.finished &&
      at >= fault_.at) {
    fault_.kind = MachineFault::Kind::None;
    ModelProcessor unfinished = state;
    unfinished.finished = false;
    model_events_[s.index].push_back({seen, unfinished});
    model_events_[s.index].push_back({seen + Cycle{1}, state});
    return;
  }
  model_events_[s.index].push_back({seen, state});
}

void RtlMachine::access(Cycle start, Cycle /*end*/, traces::SourceId controller,
                        const traces::AccessTrace& /*a*/) {
  const SourceOf& s = sources_of_.at(controller);
  if (!running_ || s.index >= grants_.size()) {
    return;
  }
  Cycle seen = start;
  if (fault_.kind == MachineFault::Kind::LateGrant && start >= fault_.at) {
    fault_.kind = MachineFault::Kind::None;
    seen = start + Cycle{1};
  }
  grants_[s.index].push_back(seen);
}

void RtlMachine::beat(Cycle at, Cycle length, traces::SourceId controller,
                      const traces::AccessTrace& /*a*/, std::uint32_t slot, std::uint32_t address,
                      std::uint32_t data) {
  const SourceOf& s = sources_of_.at(controller);
  if (!running_ || s.index >= beats_.size()) {
    return;
  }
  if (fault_.kind == MachineFault::Kind::ShiftedAddress && fault_.block == s.index &&
      at >= fault_.at) {
    fault_.kind = MachineFault::Kind::None;
    ++address;
  }
  beats_[s.index].push_back({at, length, slot, address, data});
}

void RtlMachine::interrupt_granted(Cycle at, traces::SourceId /*processor*/, Cycle /*requested*/) {
  if (running_) {
    interrupt_grants_.push_back(at);
  }
}

void RtlMachine::result(sw::RunSummary& r) const {
  if (program_ == nullptr) {
    return;
  }
  if (!cosim_) {
    // The verilated machine ran the program: its ends, steps and delivery. The model processors
    // had nothing to run, so `blocked` holds at most the line saying the run reached the cycle
    // limit, which stays.
    r.processor_end.clear();
    Cycle cycles;
    const Cycle ran{rtl_->cycles()};
    for (sw::ProcId p = 0; p < config_.n; ++p) {
      const Cycle end = finish_[p] ? Cycle{*finish_[p]} : ran;
      r.processor_end.push_back(end);
      cycles = std::max(cycles, end);
      if (!finish_[p] && !r.cycle_limit_reached) {
        r.blocked.push_back(
            "P" + std::to_string(p) + " at op " + std::to_string(images_[p].op_of.at(last_pc_[p])) +
            ": no progress in the verilated machine (" + std::to_string(quiet_) + " cycles)");
      }
    }
    if (!r.cycle_limit_reached) {
      r.cycles = cycles;
    }
    r.step_ends.assign(step_ends_.size(), Cycle{0});
    for (std::size_t k = 0; k < step_ends_.size(); ++k) {
      r.step_ends[k] = Cycle{step_ends_[k]};
    }
    r.delivery = sw::check_delivery(
        *program_,
        [this](sw::ProcId p, std::uint32_t address) { return rtl_->read_local(p, address); },
        !r.cycle_limit_reached);
  }
  figures(r);
}

void RtlMachine::figures(sw::RunSummary& r) const {
  const rtl::MultiprocessorCycle& out = last_;
  const std::uint64_t tau = std::max<std::uint64_t>(config_.timing.tau, 1);
  std::uint64_t accesses = 0;
  std::uint64_t words = 0;
  // The model's names, the RTL's values.
  std::vector<std::pair<std::string, std::uint64_t>> rtl;
  std::vector<std::string> instance;
  for (sw::ProcId p = 0; p < config_.n && p < out.processors.size(); ++p) {
    const std::string proc = system_ + ".p" + std::to_string(p);
    const rtl::RtlProcessorCycle& pr = out.processors[p];
    const std::uint32_t ops = pr.pc < images_[p].op_of.size() ? images_[p].op_of[pr.pc] : pr.pc;
    for (const auto& [name, value] :
         {std::pair<const char*, std::uint64_t>{"compute_cycles", pr.compute_cycles},
          {"memory_cycles", pr.memory_cycles},
          {"sync_cycles", pr.sync_cycles},
          {"ops", ops}}) {
      rtl.emplace_back(proc + "." + name, value);
      instance.push_back(proc);
    }
    const std::string bc = system_ + ".bc" + std::to_string(p);
    for (const auto& [name, value] :
         {std::pair<const char*, std::uint64_t>{"accesses", accesses_[p]},
          {"words_moved", valid_cycles_[p] / tau},
          {"busy_cycles", busy_cycles_[p]}}) {
      rtl.emplace_back(bc + "." + name, value);
      instance.push_back(bc);
    }
    accesses += accesses_[p];
    words += valid_cycles_[p] / tau;
  }
  const std::string sync = system_ + ".sync";
  const std::string arbiter = system_ + ".arbiter";
  const std::uint64_t conflicts = std::uint64_t{out.conflicts} + out.interrupt_conflicts;
  const std::uint64_t waited = std::uint64_t{out.wait_cycles} + out.interrupt_wait_cycles;
  for (const auto& [name, value, where] :
       {std::tuple<std::string, std::uint64_t, std::string>{sync + ".barriers", out.barriers, sync},
        {sync + ".bus_switches", out.bus_switches, sync},
        {sync + ".syncs_delivered", out.syncs_delivered, sync},
        {arbiter + ".conflicts", conflicts, arbiter},
        {arbiter + ".conflict_wait_cycles", waited, arbiter},
        {arbiter + ".grants", accesses + activates_, arbiter}}) {
    rtl.emplace_back(name, value);
    instance.push_back(where);
  }
  if (!cosim_) {
    for (traces::StatEntry& entry : r.stats) {
      for (const auto& [name, value] : rtl) {
        if (entry.name == name) {
          entry.value = value;
        }
      }
    }
    r.conflicts = conflicts;
    r.conflict_wait_cycles = waited;
    r.bus_words_moved = words;
    return;
  }
  if (r.mismatch) {
    return;
  }
  // cosim: the model's figures against the RTL's, at the end of the run.
  for (std::size_t k = 0; k < rtl.size(); ++k) {
    for (const traces::StatEntry& entry : r.stats) {
      if (entry.name == rtl[k].first && entry.value != rtl[k].second) {
        r.mismatch =
            Mismatch{r.cycles.count(), instance[k], entry.name.substr(instance[k].size() + 1),
                     entry.value, rtl[k].second};
        return;
      }
    }
  }
}

}  // namespace orthosim::sc
