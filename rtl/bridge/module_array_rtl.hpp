// The verilated module array (rtl/module_array.sv: the omp's n x n memory modules with their
// arbiter) as a SystemC module with plain setters and getters, so that nothing outside rtl/bridge
// includes Verilated headers (toolchain fact 4). One parameterisation per n in {2, 4, 8, 16}
// (rtl/CMakeLists.txt), each with 4096-word modules. A verilated C++ model stepped by its owner
// (sc::RtlMemory; docs/rtl.md, "Stepping a verilated unit"): grant and bus_rdata are
// combinational, evaluated when read after an input changed; edge() is the rising edge that
// samples the inputs. Ports and timing: docs/rtl.md, module_array.
//
// The backdoor (word, set_word, fill) reaches the storage without a clock edge: clearing the
// modules before a program, which the model does in no time, takes no cycle in the RTL either.
#pragma once

#include <cstdint>
#include <memory>
#include <systemc>
#include <vector>

#include "rtl/limits.hpp"

namespace orthosim::rtl {

class FstTrace;

/// BC(i)'s arbitration inputs in one cycle.
struct ModuleArrayRequest {
  bool req = false;        ///< waiting for a grant, including the grant cycle
  bool hold = false;       ///< holding its modules (the cycles after the grant, up to the last)
  bool column = false;     ///< CB(i), else RB(i)
  std::uint32_t mask = 0;  ///< bit s: slot s (M(i,s) on RB(i), M(s,i) on CB(i))
  bool operator==(const ModuleArrayRequest& o) const {
    return req == o.req && hold == o.hold && column == o.column && mask == o.mask;
  }
  bool operator!=(const ModuleArrayRequest& o) const { return !(*this == o); }
};

/// BC(i)'s bus in one cycle.
struct ModuleArrayLane {
  std::uint32_t mode = 0;  ///< 0 idle, 1 row, 2 column
  bool valid = false;
  bool write = false;
  std::uint32_t sel = 0;
  std::uint32_t addr = 0;
  std::uint32_t wdata = 0;
};

class ModuleArrayRtl : public sc_core::sc_module {
 public:
  static constexpr std::uint32_t kModuleWords = limits::kModuleWords;  ///< DEPTH

  [[nodiscard]] static bool supports(std::uint32_t n) { return limits::verilated_for(n); }

  /// Throws std::invalid_argument if !supports(n). With `fst`, the model's signals go to that
  /// waveform.
  ModuleArrayRtl(const sc_core::sc_module_name& name, std::uint32_t n, FstTrace* fst = nullptr);
  ~ModuleArrayRtl() override;

  /// The rising edge that ends the cycle.
  void edge();

  void set_reset(bool active);
  /// One entry per controller.
  void set_arbitration(const std::vector<ModuleArrayRequest>& requests);
  void set_buses(const std::vector<ModuleArrayLane>& lanes);

  [[nodiscard]] std::uint32_t grant() const;  ///< bit i: BC(i)
  [[nodiscard]] std::uint32_t bus_rdata(std::uint32_t i) const;
  [[nodiscard]] std::uint32_t wait_cycles() const;
  [[nodiscard]] std::uint32_t conflicts() const;
  [[nodiscard]] bool collision() const;

  /// Backdoor: word `address` of module `module` (M(a,b) is module a * n + b).
  [[nodiscard]] std::uint32_t word(std::uint32_t module, std::uint32_t address) const;
  void set_word(std::uint32_t module, std::uint32_t address, std::uint32_t value);
  /// Fills every word of every module with `value` (the model's unwritten-word marker).
  void fill(std::uint32_t value);

 private:
  struct Dut;
  template <class V>
  struct DutOf;

  [[nodiscard]] std::uint32_t flat(std::uint32_t module, std::uint32_t address) const;

  std::uint32_t n_;
  std::unique_ptr<Dut> dut_;
};

}  // namespace orthosim::rtl
