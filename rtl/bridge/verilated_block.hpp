// The skeleton every bridge shares, written once: a verilated C++ model stepped by its bridge, one verilated model per n of rtl/limits.cmake
// chosen at run time, and the hookup of its signals to the FST waveform. Include it after the generated V*.h headers (toolchain fact 4):
// only rtl/bridge/*.cpp do.
#pragma once

#include "verilated_fst_c.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "rtl/bridge/fst_trace.hpp"
#include "rtl/limits.hpp"

namespace orthosim::rtl::bridge {

/// A verilated C++ model (verilate() without SYSTEMC) that its bridge steps (docs/rtl.md,
/// "Stepping a verilated unit"): inputs are plain members set through set(), the combinational
/// outputs are evaluated by settle() only when an input changed since the last evaluation, and
/// the rising edge is a call, edge(), not a clock signal and its delta cycles.
template <class V>
struct SteppedModel {
  explicit SteppedModel(const std::string& name) : dut(name.c_str()) {}
  ~SteppedModel() { dut.final(); }
  SteppedModel(const SteppedModel&) = delete;
  SteppedModel& operator=(const SteppedModel&) = delete;

  /// Sets input `port` to `v` (converted to the port's type); a changed value makes the
  /// combinational outputs stale until the next settle() or edge().
  template <class Port>
  void set(Port& port, std::uint64_t v) {
    const auto value = static_cast<std::decay_t<Port>>(v);
    if (port != value) {
      port = value;
      current = false;
    }
  }
  /// The storage changed through the backdoor (the outputs that read it are stale).
  void touch() { current = false; }
  /// Evaluates the combinational outputs if an input changed since the last evaluation.
  void settle() {
    if (!current) {
      dut.clk = 0;
      dut.eval();
      current = true;
    }
  }
  /// The rising edge: Verilator sees an edge between two evaluations, so a model not evaluated
  /// with the clock low since its inputs changed (or since its last edge) first is.
  void edge() {
    if (!current || dut.clk != 0) {
      dut.clk = 0;
      dut.eval();
    }
    dut.clk = 1;
    dut.eval();
    current = true;
  }

  V dut;
  bool current = false;  ///< evaluated since the last change of an input
};

/// Registers a verilated model's signals, every level of its hierarchy, with the waveform.
template <class V>
void trace_into(FstTrace& fst, V& model) {
  fst.add([&model](VerilatedFstC& f) { model.trace(&f, 99); });
}

/// Checks that a verilated unpacked memory, reached through the backdoor, holds `expected` words:
/// the sizes of rtl/limits.cmake that the bridge indexes it with. Throws std::logic_error naming
/// `memory` otherwise, rather than writing past it.
template <class Memory>
void require_depth(const Memory& verilated, std::size_t expected, const char* memory) {
  const std::size_t depth = sizeof(verilated) / sizeof(verilated[0]);
  if (depth != expected) {
    throw std::logic_error(std::string(memory) + ": verilated with " + std::to_string(depth) +
                           " words, rtl/limits.hpp expects " + std::to_string(expected));
  }
}

/// The model class Verilator generated for the parameterisation with N processors.
template <std::uint32_t N, class V>
struct VerilatedFor {
  static constexpr std::uint32_t n = N;
  using Model = V;
};

/// Builds DutOf<V>, the block's view of the verilated model V built for n (among Builds, one
/// VerilatedFor per n of rtl/limits.cmake), from `args`; its member `dut` is the verilated model,
/// whose signals go to `fst` when given. Throws std::invalid_argument naming `block` for an n
/// with no verilated model.
template <class Dut, template <class> class DutOf, class... Builds, class... Args>
std::unique_ptr<Dut> instantiate(std::uint32_t n, const char* block, FstTrace* fst,
                                 const Args&... args) {
  static_assert(sizeof...(Builds) == limits::kProcessors.size() &&
                    (limits::verilated_for(Builds::n) && ...),
                "one verilated model per n of rtl/limits.cmake");
  std::unique_ptr<Dut> made;
  const auto build = [&](auto* model_tag) {
    using Model = std::remove_pointer_t<decltype(model_tag)>;
    auto dut = std::make_unique<DutOf<Model>>(args...);
    if (fst != nullptr) {
      trace_into(*fst, dut->dut);
    }
    made = std::move(dut);
    return true;
  };
  const bool built =
      ((n == Builds::n && build(static_cast<typename Builds::Model*>(nullptr))) || ...);
  if (!built) {
    throw std::invalid_argument("no verilated " + std::string(block) + " for n = " +
                                std::to_string(n) + " (built: " + limits::kProcessorList + ")");
  }
  return made;
}

}  // namespace orthosim::rtl::bridge
