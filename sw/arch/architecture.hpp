// The structure of the three shared-memory configurations of [PH91], section 3.1 (Fig. 4):
// which buses exist, which memory module sits in which slot of which bus, and which processor's
// bus controller can drive which bus. This is the "structural connectivity" that the simulator
// wires and that the mapping layer reasons about; both read it from here.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sw/core/word.hpp"

namespace orthosim::sw {

using ProcId = std::uint32_t;
using ModuleId = std::uint32_t;  ///< dense index of a memory module, 0 .. module_count()-1

enum class Arch : std::uint8_t {
  Omp,       ///< orthogonal: n x n modules M(i,j) on row bus RB(i) and column bus CB(j)
  Crossbar,  ///< n buses B(b), each with n modules M(b,0..n-1), reached through a crossbar
  Bus,       ///< a single bus B0 with n modules M(0..n-1)
};

/// How a bus is reached. Row and Column exist on the omp only; Shared is a crossbar bus B(b) or
/// the single bus B0, which any processor may drive, one at a time.
enum class BusKind : std::uint8_t { Row, Column, Shared };

struct BusRef {
  BusKind kind = BusKind::Shared;
  std::uint32_t index = 0;

  friend bool operator==(BusRef a, BusRef b) { return a.kind == b.kind && a.index == b.index; }
  friend bool operator!=(BusRef a, BusRef b) { return !(a == b); }
};

[[nodiscard]] std::string to_string(Arch arch);
/// Parses "omp", "crossbar" or "bus"; returns false for anything else.
[[nodiscard]] bool parse_arch(const std::string& text, Arch& out);
[[nodiscard]] std::string to_string(BusKind kind);

/// The memory organization of one configuration with n processors.
class MemoryOrganization {
 public:
  MemoryOrganization(Arch arch, std::uint32_t n);

  [[nodiscard]] Arch arch() const { return arch_; }
  [[nodiscard]] std::uint32_t n() const { return n_; }

  /// n*n on the omp and the crossbar, n on the single bus.
  [[nodiscard]] std::uint32_t module_count() const;
  /// Every bus of the configuration, in a fixed order: RB(0..n-1), CB(0..n-1) on the omp.
  [[nodiscard]] std::vector<BusRef> buses() const;
  /// Dense index of a bus in buses().
  [[nodiscard]] std::uint32_t bus_index(BusRef bus) const;
  /// Whether the bus exists in this configuration.
  [[nodiscard]] bool has_bus(BusRef bus) const;
  /// Whether processor p's bus controller can drive the bus: on the omp BC(i) drives RB(i) and
  /// CB(i) only ([PH91] section 3.1 and its errata); on the crossbar and the bus every BC can.
  [[nodiscard]] bool can_drive(ProcId p, BusRef bus) const;
  /// Number of module slots on every bus (n in all three configurations).
  [[nodiscard]] std::uint32_t slots_per_bus() const { return n_; }
  /// The module in slot `slot` of `bus`: slot j of RB(i) is M(i,j), slot i of CB(j) is M(i,j),
  /// slot j of B(b) is M(b,j) (crossbar) or M(j) (bus).
  [[nodiscard]] ModuleId module_at(BusRef bus, std::uint32_t slot) const;
  /// The buses a module is attached to (two on the omp, one elsewhere).
  [[nodiscard]] std::vector<BusRef> buses_of(ModuleId module) const;

  /// "RB(2)", "CB(0)", "B(1)", "B0".
  [[nodiscard]] std::string bus_name(BusRef bus) const;
  /// "M(1,2)" on the omp and crossbar, "M(3)" on the bus.
  [[nodiscard]] std::string module_name(ModuleId module) const;
  /// Short identifier for hierarchical names and waveforms: "rb2", "cb0", "b1".
  [[nodiscard]] std::string bus_tag(BusRef bus) const;

 private:
  Arch arch_;
  std::uint32_t n_;
};

}  // namespace orthosim::sw
