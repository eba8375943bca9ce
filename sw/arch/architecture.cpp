// Structural connectivity of the omp, crossbar and single-bus configurations ([PH91], Fig. 4).
#include "sw/arch/architecture.hpp"

#include <stdexcept>

namespace orthosim::sw {

std::string to_string(Arch arch) {
  switch (arch) {
    case Arch::Omp:
      return "omp";
    case Arch::Crossbar:
      return "crossbar";
    case Arch::Bus:
      return "bus";
  }
  return "?";
}

bool parse_arch(const std::string& text, Arch& out) {
  for (Arch a : {Arch::Omp, Arch::Crossbar, Arch::Bus}) {
    if (text == to_string(a)) {
      out = a;
      return true;
    }
  }
  return false;
}

std::string to_string(BusKind kind) {
  switch (kind) {
    case BusKind::Row:
      return "row";
    case BusKind::Column:
      return "column";
    case BusKind::Shared:
      return "shared";
  }
  return "?";
}

MemoryOrganization::MemoryOrganization(Arch arch, std::uint32_t n) : arch_(arch), n_(n) {
  if (n == 0) {
    throw std::invalid_argument("a multiprocessor needs at least one processor");
  }
}

std::uint32_t MemoryOrganization::module_count() const { return arch_ == Arch::Bus ? n_ : n_ * n_; }

std::vector<BusRef> MemoryOrganization::buses() const {
  std::vector<BusRef> out;
  switch (arch_) {
    case Arch::Omp:
      for (std::uint32_t i = 0; i < n_; ++i) {
        out.push_back({BusKind::Row, i});
      }
      for (std::uint32_t i = 0; i < n_; ++i) {
        out.push_back({BusKind::Column, i});
      }
      break;
    case Arch::Crossbar:
      for (std::uint32_t i = 0; i < n_; ++i) {
        out.push_back({BusKind::Shared, i});
      }
      break;
    case Arch::Bus:
      out.push_back({BusKind::Shared, 0});
      break;
  }
  return out;
}

bool MemoryOrganization::has_bus(BusRef bus) const {
  switch (arch_) {
    case Arch::Omp:
      return bus.kind != BusKind::Shared && bus.index < n_;
    case Arch::Crossbar:
      return bus.kind == BusKind::Shared && bus.index < n_;
    case Arch::Bus:
      return bus.kind == BusKind::Shared && bus.index == 0;
  }
  return false;
}

std::uint32_t MemoryOrganization::bus_index(BusRef bus) const {
  if (!has_bus(bus)) {
    throw std::out_of_range("no bus " + bus_name(bus) + " on the " + to_string(arch_));
  }
  return bus.kind == BusKind::Column ? n_ + bus.index : bus.index;
}

bool MemoryOrganization::can_drive(ProcId p, BusRef bus) const {
  if (p >= n_ || !has_bus(bus)) {
    return false;
  }
  return arch_ == Arch::Omp ? bus.index == p : true;
}

ModuleId MemoryOrganization::module_at(BusRef bus, std::uint32_t slot) const {
  if (!has_bus(bus) || slot >= n_) {
    throw std::out_of_range("no slot " + std::to_string(slot) + " on " + bus_name(bus));
  }
  switch (arch_) {
    case Arch::Omp:
      return bus.kind == BusKind::Row ? bus.index * n_ + slot : slot * n_ + bus.index;
    case Arch::Crossbar:
      return bus.index * n_ + slot;
    case Arch::Bus:
      return slot;
  }
  return 0;
}

std::vector<BusRef> MemoryOrganization::buses_of(ModuleId module) const {
  switch (arch_) {
    case Arch::Omp:
      return {{BusKind::Row, module / n_}, {BusKind::Column, module % n_}};
    case Arch::Crossbar:
      return {{BusKind::Shared, module / n_}};
    case Arch::Bus:
      return {{BusKind::Shared, 0}};
  }
  return {};
}

std::string MemoryOrganization::bus_name(BusRef bus) const {
  switch (bus.kind) {
    case BusKind::Row:
      return "RB(" + std::to_string(bus.index) + ")";
    case BusKind::Column:
      return "CB(" + std::to_string(bus.index) + ")";
    case BusKind::Shared:
      return arch_ == Arch::Bus ? "B0" : "B(" + std::to_string(bus.index) + ")";
  }
  return "?";
}

std::string MemoryOrganization::bus_tag(BusRef bus) const {
  switch (bus.kind) {
    case BusKind::Row:
      return "rb" + std::to_string(bus.index);
    case BusKind::Column:
      return "cb" + std::to_string(bus.index);
    case BusKind::Shared:
      return "b" + std::to_string(bus.index);
  }
  return "?";
}

std::string MemoryOrganization::module_name(ModuleId module) const {
  if (arch_ == Arch::Bus) {
    return "M(" + std::to_string(module) + ")";
  }
  return "M(" + std::to_string(module / n_) + "," + std::to_string(module % n_) + ")";
}

}  // namespace orthosim::sw
