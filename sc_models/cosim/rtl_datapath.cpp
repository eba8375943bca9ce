// The verilated datapath of one processor: clocking, the model-side effects, the lockstep check.
#include "sc_models/cosim/rtl_datapath.hpp"

#include "sc_models/cosim/rtl_memory.hpp"

namespace orthosim::sc {

struct RtlDatapath::Expected {
  bool active = false;  ///< from the grant to the last cycle
  bool valid = false;
  bool write = false;
  bool column = false;
  const ModelBeat* beat = nullptr;
};

RtlDatapath::RtlDatapath(const sc_core::sc_module_name& name, std::string instance, sw::ProcId id,
                         const sw::SystemConfig& config, const ClockDomain& clock,
                         std::vector<WordStore>& modules, IndexManipulator& manipulator,
                         rtl::FstTrace* fst, MismatchHandler on_mismatch, DatapathStepper& stepper)
    : sc_core::sc_module(name),
      id_(id),
      organization_(config.organization()),
      timing_(config.timing),
      clock_(clock),
      modules_(modules),
      manipulator_(manipulator),
      on_mismatch_(std::move(on_mismatch)),
      bc_(std::make_unique<rtl::BusControllerRtl>("bc", config.n, fst)),
      words_from_rtl_(config.impl.bus_controller == sw::Impl::Cosim || fst != nullptr),
      bc_checker_(std::move(instance)),
      stepper_(stepper) {
  stepper_.add(*this);
}

RtlDatapath::~RtlDatapath() = default;

void RtlDatapath::attach_index_manipulator(rtl::IndexManipulatorRtl& im, sw::Impl impl,
                                           std::string instance) {
  im_ = &im;
  im_impl_ = impl;
  if (impl == sw::Impl::Cosim) {
    im_checker_.emplace(std::move(instance));
  }
}

void RtlDatapath::attach_memory(RtlMemory& memory) { memory_ = &memory; }

Cycle RtlDatapath::cycle() const {
  return Cycle{sc_core::sc_time_stamp().value() / clock_.delay(Cycle{1}).value()};
}

void RtlDatapath::run(const sw::MemoryAccess& access, RtlAccessListener& listener) {
  access_ = access;
  listener_ = &listener;
  shadowing_ = false;
  pending_ = true;
  stepper_.wake();
}

void RtlDatapath::shadow(const sw::MemoryAccess& access, ModelAccess expected) {
  access_ = access;
  listener_ = nullptr;
  shadowing_ = true;
  model_ = std::move(expected);
  next_beat_ = 0;
  pending_ = true;
  stepper_.wake();
}

void RtlDatapath::edge() {
  // Both models' inputs were set in the cycle (the index manipulator's from the controller's
  // outputs), so the order of the two edges does not matter.
  bc_->edge();
  if (im_ != nullptr) {
    im_->edge();
  }
  ++edges_;
}

DatapathStepper::DatapathStepper(const sc_core::sc_module_name& name, const ClockDomain& clock)
    : sc_core::sc_module(name), clock_(clock) {
  SC_THREAD(stepping);
}

void DatapathStepper::start_pending() {
  for (RtlDatapath* d : datapaths_) {
    if (d->start_pending()) {
      d->start();
    }
  }
}

void DatapathStepper::stepping() {
  for (RtlDatapath* d : datapaths_) {
    d->reset();
  }
  for (;;) {
    start_pending();
    bool running = false;
    for (RtlDatapath* d : datapaths_) {
      running = running || d->running();
    }
    if (!running) {
      sc_core::wait(ev_start_);  // idle: no edge, no evaluation
      continue;
    }
    // The rest of the current cycle (with memory = rtl an access starts at half a cycle):
    // starts, then the next cycle's begin.
    const Cycle c{sc_core::sc_time_stamp().value() / clock_.delay(Cycle{1}).value()};
    const sc_core::sc_time edge_at = clock_.delay(c + Cycle{1});
    sc_core::wait(edge_at - sc_core::sc_time_stamp(), ev_start_);
    if (sc_core::sc_time_stamp() == edge_at) {
      // Cycle c is over (a start notified at c + 1 comes in a later delta than this).
      for (RtlDatapath* d : datapaths_) {
        if (d->running()) {
          d->begin_cycle(c + Cycle{1});
        }
      }
    }
  }
}

void RtlDatapath::reset() {
  // Reset, then the timing registers ([PH91] Fig. 5's alpha, beta, tau, gamma), before the
  // first access can be granted. The arbiter is the model's: the controller's grant input is
  // always high, and `start` comes only with a grant.
  bc_->set_reset(true);
  edge();
  bc_->set_reset(false);
  bc_->set_timing(true, static_cast<std::uint32_t>(timing_.alpha),
                  static_cast<std::uint32_t>(timing_.beta), static_cast<std::uint32_t>(timing_.tau),
                  static_cast<std::uint32_t>(timing_.gamma));
  bc_->set_grant(true);
  edge();
  bc_->set_timing(false, 0, 0, 0, 0);
}

void RtlDatapath::start() {
  if (running_) {
    // A start within the cycle of a running access (with memory = rtl, at half a cycle).
    apply_start();
    static_cast<void>(settle_cycle());
    return;
  }
  // The done cycle of the previous access was left open (no edge, in case a start came in
  // it); when it is over, its edge clears `done`. Idle is a fixed point after that edge, so
  // the idle cycles since cost nothing.
  if (done_open_ && cycle() > open_cycle_) {
    edge();
  }
  done_open_ = false;
  enter_cycle(cycle());
}

void RtlDatapath::begin_cycle(Cycle c) {
  // Cycle c - 1 is over: compare it, then the edge that ends it (unless taken early, at
  // `last`).
  if (!ended_early_) {
    end_cycle(c - Cycle{1});
  }
  ended_early_ = false;
  enter_cycle(c);
}

void RtlDatapath::enter_cycle(Cycle c) {
  if (pending_) {
    apply_start();
  }
  const rtl::BusControllerOutputs o = settle_cycle();
  running_ = ended_early_ || o.busy || pending_ || (shadowing_ && c < model_.end);
  if (!running_) {
    // Idle (the done cycle): compare it now, take its edge only when a start comes, so that
    // a run ends where the model's does.
    finish_cycle(c);
    done_open_ = o.done;
    open_cycle_ = c;
  }
}

void RtlDatapath::apply_start() {
  pending_ = false;
  rtl::BusAccessPins pins;
  pins.write = access_.direction == sw::Direction::Write;
  pins.column = access_.bus.kind == sw::BusKind::Column;
  pins.slots = access_.slots;
  pins.address = access_.address;
  pins.vectors = access_.vectors;
  pins.index_set = access_.index_set;
  bc_->set_start(true, pins);
  // The module behind each slot of the access's bus, once per access, not per word.
  slot_modules_.clear();
  for (std::uint32_t slot = 0; slot < organization_.n(); ++slot) {
    slot_modules_.push_back(organization_.module_at(access_.bus, slot));
  }
  started_this_cycle_ = true;
  last_announced_ = false;
  beat_open_ = false;
}

rtl::BusControllerOutputs RtlDatapath::settle_cycle() {
  // The controller's outputs but its words read no data input: after its edge they are read
  // without evaluating it again; only the words wait for the words fed in.
  rtl::BusControllerOutputs s = bc_->control_outputs();
  const bool read_word = s.bus_valid && !s.bus_write;
  const bool write_word = s.bus_valid && s.bus_write;
  const sw::ModuleId module_id = s.bus_valid ? slot_modules_.at(s.bus_sel) : sw::ModuleId{0};
  WordStore* module = s.bus_valid ? &modules_.at(module_id) : nullptr;
  const bool rtl_memory = memory_ != nullptr && memory_->impl() == sw::Impl::Rtl;
  Word bus_rdata = 0;
  if (read_word) {
    bus_rdata = rtl_memory ? memory_->read(module_id, s.bus_addr) : module->read(s.bus_addr);
  }
  if (im_ != nullptr) {
    im_->set_access(s.im_set, s.im_pos, s.im_vec, s.im_we, bus_rdata);
  }
  const Word im_rdata = im_impl_ == sw::Impl::Rtl ? im_->access_rdata()
                        : write_word ? manipulator_.on_write(s.im_set, s.im_pos, s.im_vec)
                                     : 0;
  bc_->set_words(bus_rdata, im_rdata);
  if (words_from_rtl_) {
    bc_->read_words(s);
  } else {
    rtl::BusControllerRtl::wire_words(s, bus_rdata, im_rdata);
  }
  // The outputs of cycle c are final here: the inputs change only with a start, and a start
  // comes with a new settle_cycle(). Later in this cycle the processor may already run its
  // next op (when the model's access ended at c), so compare what is true now.
  const Cycle c = cycle();
  if (shadowing_ || im_checker_) {
    collect(c, s);
  }
  if (memory_ != nullptr && !shadowing_) {
    BusLane lane;
    lane.pins.mode = s.bus_mode;
    lane.pins.valid = s.bus_valid;
    lane.pins.write = s.bus_write;
    lane.pins.sel = s.bus_sel;
    lane.pins.addr = s.bus_addr;
    lane.pins.wdata = s.bus_wdata;
    lane.read_word = s.bus_valid && !s.bus_write ? s.bus_data : 0;
    memory_->lane(id_, lane);
  }
  // With bus = cosim the model has moved the words at the grant; with memory = rtl the module
  // array writes the word at its edge ending this cycle.
  if (s.bus_valid && !shadowing_) {
    if (s.bus_write && !rtl_memory) {
      module->write(s.bus_addr, s.bus_wdata);
    } else if (im_impl_ != sw::Impl::Rtl) {
      manipulator_.on_read(s.im_set, s.im_pos, s.im_vec, s.bus_data);
    }
    if (!beat_open_ || s.im_pos != beat_pos_ || s.im_vec != beat_vec_) {
      listener_->rtl_beat(c, s.bus_sel, s.bus_addr, s.bus_data);
    }
    beat_open_ = true;
    beat_pos_ = s.im_pos;
    beat_vec_ = s.im_vec;
  }
  if (s.last && !last_announced_) {
    last_announced_ = true;
    if (!shadowing_) {
      listener_->rtl_last(c);
    }
    // The processor resumes at the start of c + 1 and may use its buffers (StoreBuffer,
    // LoadBuffer) in that very delta; the RTL index manipulator stores the last word at the
    // edge ending c. The controller is busy, so no input changes for the rest of c: take that
    // edge now.
    end_cycle(c);
    ended_early_ = true;
  }
  return s;
}

void RtlDatapath::end_cycle(Cycle c) {
  finish_cycle(c);
  edge();
  if (started_this_cycle_) {
    bc_->set_start(false, {});  // `start` lasts one cycle
    started_this_cycle_ = false;
  }
}

RtlDatapath::Expected RtlDatapath::expected_at(Cycle c) {
  Expected e;
  if (c < model_.grant || c >= model_.end) {
    return e;
  }
  e.active = true;
  e.write = model_.write;
  e.column = model_.column;
  const Cycle tau{timing_.tau};
  while (next_beat_ < model_.beats.size() && model_.beats[next_beat_].at + tau <= c) {
    ++next_beat_;
  }
  if (next_beat_ < model_.beats.size() && model_.beats[next_beat_].at <= c) {
    e.valid = true;
    e.beat = &model_.beats[next_beat_];
  }
  return e;
}

void RtlDatapath::collect(Cycle c, const rtl::BusControllerOutputs& o) {
  checks_.clear();
  auto add = [this](bool im, const char* signal, std::uint64_t model, std::uint64_t rtl) {
    checks_.push_back({im, signal, model, rtl});
  };
  if (shadowing_) {
    const Expected e = expected_at(c);
    add(false, "bus_valid", e.valid, o.bus_valid);
    add(false, "bus_mode", e.active ? (e.column ? 2 : 1) : 0, o.bus_mode);
    add(false, "bus_write", e.active && e.write, o.bus_write);
    add(false, "bus_sel", e.valid ? e.beat->slot : 0, o.bus_sel);
    add(false, "bus_addr", e.valid ? e.beat->address : 0, o.bus_addr);
    add(false, "bus_data", e.valid ? e.beat->word : 0, o.bus_data);
    add(false, "bus_wdata", e.valid && e.write ? e.beat->word : 0, o.bus_wdata);
    if (e.valid) {
      add(false, "im_set", model_.index_set, o.im_set);
      add(false, "im_pos", e.beat->position, o.im_pos);
      add(false, "im_vec", e.beat->vector, o.im_vec);
    }
    add(false, "im_we", e.valid && !e.write, o.im_we);
    add(false, "busy", e.active, o.busy);
    add(false, "done", model_done_ == c && c > Cycle{0}, o.done);
  }
  if (im_checker_ && o.bus_valid) {
    add(true, "ac_buf", manipulator_.buffer_for(o.im_set, o.im_pos), im_->access_buffer());
    if (o.bus_write) {
      add(true, "ac_rdata", manipulator_.on_write(o.im_set, o.im_pos, o.im_vec),
          im_->access_rdata());
    }
  }
}

void RtlDatapath::finish_cycle(Cycle c) {
  for (const Comparison& k : checks_) {
    LockstepChecker& checker = k.im ? *im_checker_ : bc_checker_;
    if (!checker.check(c.count(), k.signal, k.model, k.rtl) && !reported_) {
      reported_ = true;
      on_mismatch_(*checker.first_mismatch());
    }
  }
  checks_.clear();
  if (shadowing_ && c + Cycle{1} == model_.end) {
    model_done_ = model_.end;
  }
}

}  // namespace orthosim::sc
