// The verilated module array of the omp in a SystemC system: two points per cycle, the lockstep
// check, the clock gated on requests and holds.
#include "sc_models/cosim/rtl_memory.hpp"

#include <algorithm>

namespace orthosim::sc {

RtlMemory::RtlMemory(const sc_core::sc_module_name& name, std::string instance,
                     const sw::SystemConfig& config, const ClockDomain& clock, rtl::FstTrace* fst,
                     MismatchHandler on_mismatch, FigureSink figures)
    : sc_core::sc_module(name),
      impl_(config.impl.memory),
      n_(config.n),
      timing_(config.timing),
      clock_(clock),
      period_ns_(clock.period_ns()),
      on_mismatch_(std::move(on_mismatch)),
      figures_(std::move(figures)),
      array_(std::make_unique<rtl::ModuleArrayRtl>("array", config.n, fst)),
      checker_(std::move(instance)),
      ports_(config.n) {
  for (std::uint32_t i = 0; i < n_; ++i) {
    grant_names_.push_back("grant[" + std::to_string(i) + "]");
    rdata_names_.push_back("bus_rdata[" + std::to_string(i) + "]");
  }
  SC_THREAD(clocking);
}

RtlMemory::~RtlMemory() = default;

void RtlMemory::request(sw::ProcId p, const sw::MemoryAccess& access, Grantee* grantee) {
  Port& port = ports_.at(p);
  port.requesting = true;
  port.arrival = clock_.now();
  port.grantee = grantee;
  port.column = access.bus.kind == sw::BusKind::Column;
  port.mask = 0;
  for (std::uint32_t slot : access.slots) {
    port.mask |= std::uint32_t{1} << slot;
  }
  port.scheduled = false;
  port.lane = {};
  ev_activity_.notify(sc_core::SC_ZERO_TIME);
}

void RtlMemory::granted(sw::ProcId p) {
  Port& port = ports_.at(p);
  const Cycle now = clock_.now();
  if (now > port.arrival) {
    ++model_conflicts_;
    model_wait_ += (now - port.arrival).count();
  }
  port.requesting = false;
  port.holding = true;
  port.grant = now;
}

void RtlMemory::release(sw::ProcId p) { ports_.at(p).holding = false; }

void RtlMemory::schedule(sw::ProcId p, const ModelAccess& access) {
  Port& port = ports_.at(p);
  port.scheduled = true;
  port.model = access;
  port.next_beat = 0;
}

void RtlMemory::lane(sw::ProcId p, const BusLane& lane) { ports_.at(p).lane = lane; }

Word RtlMemory::read(sw::ModuleId module, std::uint32_t address) const {
  return array_->word(module, address);
}

void RtlMemory::load() {
  for (const Port& port : ports_) {
    reset_pending_ = reset_pending_ || port.requesting || port.holding;
  }
  ports_.assign(n_, Port{});
  array_->fill(sw::kUnwrittenWord);
  wait_at_load_ = wait_seen_;
  conflicts_at_load_ = conflicts_seen_;
  model_wait_ = 0;
  model_conflicts_ = 0;
}

std::optional<Mismatch> RtlMemory::check_figures(Cycle at) const {
  LockstepChecker checker = checker_;
  const std::uint64_t wait = wait_seen_ - wait_at_load_;
  const std::uint64_t conflicts = conflicts_seen_ - conflicts_at_load_;
  if (!checker.check(at.count(), "wait_cycles", model_wait_, wait) ||
      !checker.check(at.count(), "conflicts", model_conflicts_, conflicts)) {
    return checker.first_mismatch();
  }
  return std::nullopt;
}

bool RtlMemory::active() const {
  for (const Port& port : ports_) {
    if (port.requesting || port.holding) {
      return true;
    }
  }
  return false;
}

void RtlMemory::wait_until(sc_core::sc_time at) {
  if (sc_core::sc_time_stamp() < at) {
    sc_core::wait(at - sc_core::sc_time_stamp());
  }
}

void RtlMemory::edge() {
  array_->edge();
  ++edges_;
}

void RtlMemory::clocking() {
  array_->set_reset(true);
  edge();
  array_->set_reset(false);
  const sc_core::sc_time half(period_ns_ / 2, sc_core::SC_NS);
  Cycle next{0};  // the first cycle not clocked yet
  for (;;) {
    if (!active()) {
      // No request, no hold: no edge, no evaluation. The process waits for a request on a cycle
      // boundary, where a run can end and be read.
      wait_until(clock_.delay(next));
      while (!active()) {
        sc_core::wait(ev_activity_);
      }
      next = std::max(clock_.now(), next);
    }
    const Cycle c = next;
    wait_until(clock_.delay(c) + half);
    next = c + Cycle{1};
    // The boundary that ends c has an event even when nothing else happens there: the kernel
    // stops a slice of the run only at an event, and a run pauses and is read on boundaries
    // (ClockDomain::now). No process waits on it.
    ev_boundary_.notify(clock_.delay(next) - sc_core::sc_time_stamp());
    if (!active()) {
      continue;  // the holds ended at the start of c and nothing was requested
    }
    if (reset_pending_) {
      // A stopped run left requests in the arbiter's registers; the clock edge of the reset
      // belongs to no cycle of the model.
      reset_pending_ = false;
      array_->set_reset(true);
      edge();
      array_->set_reset(false);
      wait_seen_ = wait_at_load_ = conflicts_seen_ = conflicts_at_load_ = 0;
    }
    arbitrate(c);
    move_words(c);
    edge();
    const std::uint32_t wait = array_->wait_cycles();
    const std::uint32_t conflicts = array_->conflicts();
    if (impl_ == sw::Impl::Rtl) {
      figures_(0, conflicts - conflicts_seen_, wait - wait_seen_);
    }
    wait_seen_ = wait;
    conflicts_seen_ = conflicts;
    if (mismatch_found_ && !reported_) {
      // Reported on a cycle boundary, where the run can stop and be read.
      wait_until(clock_.delay(next));
      reported_ = true;
      on_mismatch_(*checker_.first_mismatch());
    }
  }
}

void RtlMemory::arbitrate(Cycle c) {
  std::vector<rtl::ModuleArrayRequest>& requests = requests_;
  requests.resize(n_);
  for (std::uint32_t i = 0; i < n_; ++i) {
    const Port& port = ports_[i];
    // req: waiting, including the grant cycle; hold: from the cycle after the grant to the last
    // cycle of the access (bus_controller.sv).
    requests[i].req = port.requesting || (port.holding && port.grant == c);
    requests[i].hold = port.holding && port.grant < c;
    requests[i].column = port.column;
    requests[i].mask = port.mask;
  }
  if (requests != applied_) {  // mostly they hold from one cycle to the next
    array_->set_arbitration(requests);
    applied_ = requests;
  }
  const std::uint32_t grant = array_->grant();
  if (impl_ == sw::Impl::Cosim) {
    for (std::uint32_t i = 0; i < n_; ++i) {
      const bool model = ports_[i].holding && ports_[i].grant == c;
      check(c, grant_names_[i], model, (grant >> i) & 1U);
    }
    return;
  }
  std::vector<Grantee*> granted;
  for (std::uint32_t i = 0; i < n_; ++i) {
    Port& port = ports_[i];
    if (port.requesting && ((grant >> i) & 1U) != 0) {
      port.requesting = false;
      port.holding = true;
      port.grant = c;
      granted.push_back(port.grantee);
    }
  }
  figures_(granted.size(), 0, 0);
  // The controllers start in this cycle, after the bookkeeping, in processor order, before the
  // array takes their buses.
  for (Grantee* g : granted) {
    g->granted(c);
  }
  if (stepper_ != nullptr) {
    stepper_->start_pending();
  }
}

BusLane RtlMemory::lane_of(Port& port, Cycle c) const {
  if (!port.holding) {
    return {};
  }
  if (!port.scheduled) {
    return port.lane;
  }
  const ModelAccess& a = port.model;
  BusLane lane;
  if (c < a.grant || c >= a.end) {
    return lane;
  }
  lane.pins.mode = a.column ? 2 : 1;
  lane.pins.write = a.write;
  const Cycle tau{timing_.tau};
  while (port.next_beat < a.beats.size() && a.beats[port.next_beat].at + tau <= c) {
    ++port.next_beat;
  }
  if (port.next_beat < a.beats.size() && a.beats[port.next_beat].at <= c) {
    const ModelBeat& b = a.beats[port.next_beat];
    lane.pins.valid = true;
    lane.pins.sel = b.slot;
    lane.pins.addr = b.address;
    lane.pins.wdata = a.write ? b.word : 0;
    lane.read_word = a.write ? 0 : b.word;
  }
  return lane;
}

void RtlMemory::move_words(Cycle c) {
  std::vector<BusLane>& lanes = lanes_;
  std::vector<rtl::ModuleArrayLane>& pins = pins_;
  lanes.clear();
  pins.clear();
  for (Port& port : ports_) {
    lanes.push_back(lane_of(port, c));
    pins.push_back(lanes.back().pins);
  }
  array_->set_buses(pins);
  if (impl_ != sw::Impl::Cosim) {
    return;
  }
  for (std::uint32_t i = 0; i < n_; ++i) {
    const rtl::ModuleArrayLane& l = lanes[i].pins;
    if (l.valid && !l.write) {
      check(c, rdata_names_[i], lanes[i].read_word, array_->bus_rdata(i));
    }
  }
}

void RtlMemory::check(Cycle c, const std::string& signal, std::uint64_t model, std::uint64_t rtl) {
  if (!checker_.check(c.count(), signal.c_str(), model, rtl)) {
    mismatch_found_ = true;
  }
}

}  // namespace orthosim::sc
