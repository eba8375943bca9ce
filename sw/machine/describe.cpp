// Text of machine-program ops.
#include "sw/machine/describe.hpp"

namespace orthosim::sw {

namespace {
std::string modules_of(const MemoryAccess& a, const MemoryOrganization& org) {
  std::string s;
  for (std::size_t i = 0; i < a.slots.size(); ++i) {
    s += (i ? ", " : "");
    s += org.has_bus(a.bus) && a.slots[i] < org.slots_per_bus()
             ? org.module_name(org.module_at(a.bus, a.slots[i]))
             : "slot " + std::to_string(a.slots[i]);
  }
  return s;
}

struct Describer {
  const MemoryOrganization& org;

  std::string operator()(const Compute& c) const {
    return "compute " + std::to_string(c.cycles.count()) + " cycles";
  }
  std::string operator()(const MemoryAccess& a) const { return describe(a, org); }
  std::string operator()(const Iwr& i) const {
    return "IWR[" + describe(i.write(), org) + "; switch " + i.group().to_string() + "; " +
           describe(i.read(), org) + "]";
  }
  std::string operator()(const BusSwitch& s) const { return "bus switch " + s.group.to_string(); }
  std::string operator()(const ActivateSync& a) const {
    return "activate-sync " + a.targets.to_string();
  }
  std::string operator()(const WaitSync& w) const {
    return "wait-sync P" + std::to_string(w.source);
  }
  std::string operator()(const Barrier& b) const { return "barrier " + b.group.to_string(); }
  std::string operator()(const LoadBuffer& l) const {
    return "load buffer " + std::to_string(l.buffer) + at(l.buffer_address) + " <- local[" +
           std::to_string(l.local_address) + "+" + std::to_string(l.words) + "]";
  }
  std::string operator()(const StoreBuffer& s) const {
    return "store buffer " + std::to_string(s.buffer) + at(s.buffer_address) + " -> local[" +
           std::to_string(s.local_address) + "+" + std::to_string(s.words) + "]";
  }
  std::string operator()(const StepMark& m) const {
    return "end of step " + std::to_string(m.step);
  }
  static std::string at(std::uint32_t buffer_address) {
    return buffer_address == 0 ? "" : "[" + std::to_string(buffer_address) + "..]";
  }
};
}  // namespace

std::string describe(const MemoryAccess& a, const MemoryOrganization& org) {
  const std::string bus = org.has_bus(a.bus) ? org.bus_name(a.bus) : to_string(a.bus.kind);
  const std::string shape = " " + to_string(a.kind()) + " d=" + std::to_string(a.degree()) +
                            " l=" + std::to_string(a.vectors) + " @" + std::to_string(a.address) +
                            " rho#" + std::to_string(a.index_set);
  if (a.direction == Direction::Write) {
    return "write " + bus + " -> " + modules_of(a, org) + shape;
  }
  return "read " + bus + " <- " + modules_of(a, org) + shape;
}

std::string describe(const Op& op, const MemoryOrganization& org) {
  return std::visit(Describer{org}, op);
}

}  // namespace orthosim::sw
