// Hand-written machine programs for tests: small helpers over sw::MachineProgram.
#pragma once

#include <string>
#include <vector>

#include "sw/machine/machine_program.hpp"

namespace orthosim::testing_support {

class ProgramBuilder {
 public:
  ProgramBuilder(sw::Arch arch, std::uint32_t n) {
    program_.arch = arch;
    program_.n = n;
    program_.name = "test";
    program_.processors.resize(n);
  }

  sw::ProcessorProgram& proc(sw::ProcId p) { return program_.processors.at(p); }

  template <typename Op>
  ProgramBuilder& op(sw::ProcId p, Op o) {
    proc(p).ops.emplace_back(std::move(o));
    return *this;
  }

  /// A message of `words` words; its payload is personalized unless `broadcast`.
  ProgramBuilder& message(sw::ProcId src, sw::ProcId dst, std::uint32_t words,
                          std::uint32_t src_address, std::uint32_t dst_address,
                          std::uint32_t tag = 0, bool broadcast = false) {
    sw::Message m;
    m.id = static_cast<std::uint32_t>(program_.messages.size());
    m.source = src;
    m.destination = dst;
    m.payload = {src, broadcast ? sw::PayloadKey::kBroadcast : dst, tag};
    m.words = words;
    m.src_address = src_address;
    m.dst_address = dst_address;
    program_.messages.push_back(m);
    return *this;
  }

  [[nodiscard]] sw::MachineProgram build() const { return program_; }

 private:
  sw::MachineProgram program_;
};

inline sw::MemoryAccess access(sw::Direction dir, sw::BusRef bus, std::vector<std::uint32_t> slots,
                               std::uint32_t address = 0, std::uint32_t vectors = 1,
                               std::uint32_t index_set = 0) {
  sw::MemoryAccess a;
  a.direction = dir;
  a.bus = bus;
  a.slots = std::move(slots);
  a.address = address;
  a.vectors = vectors;
  a.index_set = index_set;
  return a;
}

inline sw::BusRef row(std::uint32_t i) { return {sw::BusKind::Row, i}; }
inline sw::BusRef column(std::uint32_t i) { return {sw::BusKind::Column, i}; }
inline sw::BusRef shared(std::uint32_t i) { return {sw::BusKind::Shared, i}; }

}  // namespace orthosim::testing_support
