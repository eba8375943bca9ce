// Mapping of system activity onto VCD signals.
#include "traces/vcd_recorder.hpp"

namespace orthosim::traces {

namespace {
struct SignalSpec {
  const char* name;
  std::uint32_t width;
};
// Signal lists per source kind; the enums below index them.
const std::vector<SignalSpec> kProcessorSignals = {{"op", 4}, {"pc", 16}};
enum ProcessorSignal : std::size_t { kOp, kPc };
const std::vector<SignalSpec> kControllerSignals = {{"mode", 2}, {"bus", 16}, {"rw", 1},
                                                    {"sel", 16}, {"addr", 32}, {"data", 32},
                                                    {"valid", 1}};
enum ControllerSignal : std::size_t { kMode, kBus, kRw, kSel, kAddr, kData, kValid };
const std::vector<SignalSpec> kBusSignals = {{"busy", 1}, {"master", 16}};
enum BusSignal : std::size_t { kBusy, kMaster };
// Router ports carry no waveform signals: their traffic is in the event trace (--trace).
const std::vector<SignalSpec> kChannelSignals = {};

const std::vector<SignalSpec>& specs_for(SourceKind kind) {
  switch (kind) {
    case SourceKind::Processor:
      return kProcessorSignals;
    case SourceKind::BusController:
      return kControllerSignals;
    case SourceKind::Bus:
      return kBusSignals;
    case SourceKind::Channel:
      return kChannelSignals;
  }
  return kBusSignals;
}
}  // namespace

VcdRecorder::VcdRecorder(const std::string& path, std::uint32_t clock_period_ns)
    : writer_(path, 1), period_ns_(clock_period_ns) {
  writer_.add_comment("clock-ns " + std::to_string(clock_period_ns));
}

void VcdRecorder::declare_once() {
  if (declared_) {
    return;
  }
  declared_ = true;
  for (const Source& s : sources()) {
    Signals sig;
    for (const SignalSpec& spec : specs_for(s.kind)) {
      sig.vars.push_back(writer_.add_var(s.path + "." + spec.name, spec.width));
    }
    signals_.push_back(std::move(sig));
  }
}

void VcdRecorder::set(Cycle at, SourceId source, std::size_t signal, std::uint64_t value) {
  writer_.change(ns(at), signals_.at(source).vars.at(signal), value);
}

void VcdRecorder::activity(Cycle at, SourceId processor, Activity what, std::uint32_t op_index) {
  declare_once();
  writer_.flush_before(ns(at));
  set(at, processor, kOp, static_cast<std::uint64_t>(what));
  set(at, processor, kPc, op_index);
}

void VcdRecorder::access_begin(Cycle at, SourceId controller, const AccessTrace& a) {
  declare_once();
  writer_.flush_before(ns(at));
  set(at, controller, kMode, static_cast<std::uint64_t>(a.mode));
  set(at, controller, kBus, a.bus_index);
  set(at, controller, kRw, a.write ? 1 : 0);
  set(at, controller, kValid, 0);
  set(at, a.bus, kBusy, 1);
  set(at, a.bus, kMaster, a.master);
}

void VcdRecorder::beat(Cycle at, Cycle length, SourceId controller, const AccessTrace&,
                       std::uint32_t slot, std::uint32_t address, std::uint32_t data) {
  declare_once();
  set(at, controller, kSel, slot);
  set(at, controller, kAddr, address);
  set(at, controller, kData, data);
  set(at, controller, kValid, 1);
  // Dropped again unless the next beat starts right away (same-time changes: last one wins).
  set(at + length, controller, kValid, 0);
}

void VcdRecorder::access_end(Cycle at, SourceId controller, const AccessTrace& a) {
  declare_once();
  set(at, controller, kMode, static_cast<std::uint64_t>(BusMode::Idle));
  set(at, controller, kValid, 0);
  set(at, a.bus, kBusy, 0);
}

void VcdRecorder::finish(Cycle end) {
  declare_once();
  writer_.commit(ns(end));
}

}  // namespace orthosim::traces
