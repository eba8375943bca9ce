// Mapping of system activity onto VCD signals.
#include "traces/vcd_recorder.hpp"

#include <algorithm>
#include <stdexcept>
#include <tuple>

namespace orthosim::traces {

namespace {
struct SignalSpec {
  const char* name;
  std::uint32_t width;
};
// Signal lists per source kind; the enums below index them.
const std::vector<SignalSpec> kProcessorSignals = {{"op", 4}, {"pc", 16}};
enum ProcessorSignal : std::size_t { kOp, kPc };
const std::vector<SignalSpec> kControllerSignals = {{"mode", 2}, {"bus", 16},  {"rw", 1},
                                                    {"sel", 16}, {"addr", 32}, {"data", 32},
                                                    {"valid", 1}};
enum ControllerSignal : std::size_t { kMode, kBus, kRw, kSel, kAddr, kData, kValid };
const std::vector<SignalSpec> kBusSignals = {{"busy", 1}, {"master", 16}};
enum BusSignal : std::size_t { kBusy, kMaster };
// A router port has one scope per virtual channel, "vc<k>", with these signals; the channel's
// virtual channel k indexes them (channel_vcs gives k's range). The occupancy is wide enough for
// the deepest buffer --buffers accepts, 1024 flits (sw/routed/network_config.cpp).
const std::vector<SignalSpec> kChannelSignals = {{"occupancy", 11}};
enum ChannelSignal : std::size_t { kOccupancy };

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
    : writer_(path, 1),
      gtkw_(path, gtkw_path(path), writer_.streamed()),
      period_ns_(clock_period_ns) {
  writer_.add_comment("clock-ns " + std::to_string(clock_period_ns));
}

void VcdRecorder::declare_once() {
  if (declared_) {
    return;
  }
  declared_ = true;
  for (SourceId id = 0; id < sources().size(); ++id) {
    const Source& s = sources()[id];
    // A channel's signals repeat in one scope per virtual channel; other sources have one set.
    std::vector<std::string> scopes;
    if (s.kind == SourceKind::Channel) {
      for (std::uint32_t vc = 0; vc < (id < vcs_.size() ? vcs_[id] : 0); ++vc) {
        scopes.push_back(s.path + ".vc" + std::to_string(vc));
      }
    } else {
      scopes.push_back(s.path);
    }
    Signals sig;
    for (const std::string& scope : scopes) {
      for (const SignalSpec& spec : specs_for(s.kind)) {
        sig.vars.push_back(writer_.add_var(scope + "." + spec.name, spec.width));
        sig.shown.push_back({gtkw_vcd_name(scope + "." + spec.name, spec.width), spec.width});
      }
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

void VcdRecorder::channel_vcs(SourceId channel, std::uint32_t vcs) {
  if (declared_) {
    throw std::logic_error("virtual channels of " + sources().at(channel).path +
                           " given after the waveform's signals were declared");
  }
  if (vcs_.size() <= channel) {
    vcs_.resize(std::size_t{channel} + 1, 0);
  }
  vcs_[channel] = vcs;
}

void VcdRecorder::channel_occupancy(Cycle at, SourceId channel, std::uint32_t vc,
                                    std::uint32_t flits) {
  declare_once();
  // The network announces a buffer's change of cycle at - 1 (it holds the flit from `at` on),
  // after the nodes' activity of that cycle: no change before at - 1 can come any more. Flushing
  // here keeps memory bounded on runs where the nodes are quiet for long.
  if (at > Cycle{0}) {
    writer_.flush_before(ns(at - Cycle{1}));
  }
  set(at, channel, vc * kChannelSignals.size() + kOccupancy, flits);
}

void VcdRecorder::finish(Cycle end) {
  declare_once();
  writer_.commit(ns(end));
  gtkw_.write(gtkw_groups());
}

std::vector<GtkwGroup> VcdRecorder::gtkw_groups() const {
  // Sorted by system (in the order built), then kind as below, then block (in the order built).
  struct Keyed {
    std::size_t system;
    int kind;
    std::size_t first_source;
    GtkwGroup group;
  };
  std::vector<std::string> systems;
  std::vector<Keyed> groups;
  for (SourceId id = 0; id < sources().size(); ++id) {
    const Source& s = sources()[id];
    const std::string system = s.path.substr(0, s.path.find('.'));
    const std::size_t system_index = static_cast<std::size_t>(
        std::find(systems.begin(), systems.end(), system) - systems.begin());
    if (system_index == systems.size()) {
      systems.push_back(system);
    }
    std::string name;
    int kind = 0;
    switch (s.kind) {
      case SourceKind::Bus:
        name = system + " buses";
        break;
      case SourceKind::Processor:
        name = system + " processors";
        kind = 1;
        break;
      case SourceKind::BusController:
        name = system + " bus controllers";
        kind = 2;
        break;
      case SourceKind::Channel:
        // "torus.r(2,1).x+" belongs to the router "torus.r(2,1)".
        name = s.path.substr(0, s.path.rfind('.'));
        kind = 3;
        break;
    }
    auto it = std::find_if(groups.begin(), groups.end(),
                           [&](const Keyed& k) { return k.group.name == name; });
    if (it == groups.end()) {
      groups.push_back({system_index, kind, id, {name, {}}});
      it = groups.end() - 1;
    }
    const std::vector<GtkwSignal>& shown = signals_.at(id).shown;
    it->group.signals.insert(it->group.signals.end(), shown.begin(), shown.end());
  }
  std::stable_sort(groups.begin(), groups.end(), [](const Keyed& a, const Keyed& b) {
    return std::tie(a.system, a.kind, a.first_source) < std::tie(b.system, b.kind, b.first_source);
  });
  std::vector<GtkwGroup> ordered;
  for (Keyed& k : groups) {
    ordered.push_back(std::move(k.group));
  }
  return ordered;
}

}  // namespace orthosim::traces
