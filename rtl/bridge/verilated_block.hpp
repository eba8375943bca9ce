// The skeleton every bridge shares, written once: a verilated C++ model stepped by its bridge, one verilated model per n of rtl/limits.cmake
// chosen at run time, and the hookup of its signals to the FST waveform. Include it after the generated V*.h headers (toolchain fact 4):
// only rtl/bridge/*.cpp do.
#pragma once

#include "verilated_fst_c.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "rtl/bridge/fst_trace.hpp"
#include "rtl/limits.hpp"

namespace orthosim::rtl::bridge {

/// The generated scheduler functions of the verilated model V, declared and named by
/// ORTHOSIM_VERILATED_SCHEDULER(V) in the bridge that steps V (Verilator 5.006 only).
template <class V>
struct Scheduler;

/// Evaluates the combinational logic of a model with `clk` low: Verilator 5.006's eval() without
/// its clocked regions, which a low clock does not trigger, that is its input-combinational
/// region (`ico`, every piece of combinational logic that reads an input) as the generated
/// V<prefix>___024root___eval runs it, without eval_step()'s bookkeeping around it (as
/// clock_edge()). The edge detector then records the clock low, as the active region's trigger
/// evaluation would. With another Verilator this is eval() (docs/rtl.md, "Stepping a verilated
/// unit").
template <class V>
void evaluate_low(V& d) {
  d.clk = 0;
#if VERILATOR_VERSION_INTEGER == 5006000
  using S = Scheduler<V>;
  typename S::Root* const root = d.rootp;
  root->__VicoIterCount = 0;
  for (;;) {
    S::ico_triggers(root);
    if (!root->__VicoTriggered.any()) {
      break;
    }
    if (++root->__VicoIterCount > 100) {
      throw std::logic_error("verilated model: input-combinational region did not converge");
    }
    S::ico(root);
  }
  root->__Vtrigrprev__TOP__clk = 0;
#else
  d.eval();
#endif
}

/// Raises `clk` on a model evaluated (clk low, or high at its last edge) after its inputs last
/// changed: the rest of
/// Verilator 5.006's eval() after its input-combinational region (`ico`, the combinational logic
/// that reads an input, which eval() runs unconditionally first and which is up to date here),
/// that is the active and NBA regions as the generated V<prefix>___024root___eval runs them,
/// without eval_step()'s bookkeeping around them (the waveform's activity flag: a traced model
/// calls eval(); the end-of-eval message queue, which the datapath blocks leave empty: they have
/// no $display-like task). These functions are Verilator's internals, declared in the generated
/// code, not in a header: with another Verilator this is eval() (docs/rtl.md, "Stepping a
/// verilated unit").
template <class V>
void clock_edge(V& d) {
#if VERILATOR_VERSION_INTEGER == 5006000
  using S = Scheduler<V>;
  typename S::Root* const root = d.rootp;
  // A model last evaluated at its previous edge still has clk high: the edge detector is told what
  // an evaluation with clk low would have recorded (nothing else reads clk).
  root->__Vtrigrprev__TOP__clk = 0;
  d.clk = 1;
  for (std::uint32_t nba_iterations = 0;; ++nba_iterations) {
    root->__VnbaTriggered.clear();
    root->__VactIterCount = 0;
    root->__VactContinue = 1;
    while (root->__VactContinue) {
      root->__VactContinue = 0;
      S::triggers(root);
      if (root->__VactTriggered.any()) {
        root->__VactContinue = 1;
        if (++root->__VactIterCount > 100) {
          throw std::logic_error("verilated model: active region did not converge");
        }
        root->__VnbaTriggered.set(root->__VactTriggered);
        S::act(root);
      }
    }
    if (!root->__VnbaTriggered.any()) {
      break;
    }
    if (nba_iterations > 100) {
      throw std::logic_error("verilated model: NBA region did not converge");
    }
    S::nba(root);
  }
#else
  if (d.clk != 0) {
    d.clk = 0;
    d.eval();
  }
  d.clk = 1;
  d.eval();
#endif
}

/// A verilated C++ model (verilate() without SYSTEMC) that its bridge steps (docs/rtl.md,
/// "Stepping a verilated unit"): inputs are plain members set through set(), the combinational
/// outputs are evaluated by settle() only when an input changed since the last evaluation, and
/// the rising edge is a call, edge(), not a clock signal and its delta cycles.
///
/// A *sampled* input (set_sampled()) is one that the clocked logic reads only as the port itself,
/// never through combinational logic, though combinational logic may read it on the way to an
/// output (the module array's buses: its writes decode the ports, its read words are
/// combinational). A change of one makes stale only the outputs that read it: the edge needs no
/// evaluation for it, nor do the outputs that read no sampled input (settle_control()).
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
      control_current = false;
    }
  }
  /// Sets sampled input `port` to `v`: a changed value makes stale only the outputs that read
  /// a sampled input (settle()).
  template <class Port>
  void set_sampled(Port& port, std::uint64_t v) {
    const auto value = static_cast<std::decay_t<Port>>(v);
    if (port != value) {
      port = value;
      current = false;
    }
  }
  /// Sampled input `port` (a wide one too) becomes `value`, as set_sampled().
  template <class Port>
  void put_sampled(Port& port, const Port& value) {
    if (std::memcmp(&port, &value, sizeof(Port)) != 0) {
      port = value;
      current = false;
    }
  }
  /// Input `port` (a wide one too) becomes `value`, as set().
  template <class Port>
  void put(Port& port, const Port& value) {
    if (std::memcmp(&port, &value, sizeof(Port)) != 0) {
      port = value;
      touch();
    }
  }
  /// The state changed through the backdoor (the outputs that read it are stale).
  void touch() {
    current = false;
    control_current = false;
  }
  /// State that only outputs read combinationally, never on the way to the clocked logic (a
  /// memory's read port), changed through the backdoor.
  void touch_outputs() { current = false; }
  /// Evaluates the combinational outputs if an input changed since the last evaluation.
  void settle() {
    if (!current) {
      evaluate();
    }
  }
  /// Evaluates the outputs that read no sampled input if an input other than a sampled one
  /// changed since the last evaluation.
  void settle_control() {
    if (!control_current) {
      evaluate();
    }
  }
  /// The rising edge: a model whose clocked logic may read a combinational value that is stale
  /// (an input other than a sampled one changed since its last evaluation) is first evaluated
  /// with the clock low. The edge itself then runs only the clocked regions (clock_edge()), unless
  /// the model is traced (eval() then sees the clock low first). The outputs that read a sampled
  /// input changed since the last evaluation stay stale.
  void edge() {
    if (traced) {
      if (!current || dut.clk != 0) {
        dut.clk = 0;
        dut.eval();
      }
      dut.clk = 1;
      dut.eval();  // with the waveform's activity flag, which clock_edge() leaves alone
      current = true;
      control_current = true;
      return;
    }
    if (!control_current) {
      evaluate();
    }
    clock_edge(dut);
  }

  V dut;
  bool current = false;          ///< evaluated since the last change of any input
  bool control_current = false;  ///< evaluated since the last change of an input not sampled
  bool traced = false;           ///< its signals go to a waveform

 private:
  void evaluate() {
    if (traced) {
      dut.clk = 0;
      dut.eval();  // with the waveform's activity flag
    } else {
      evaluate_low(dut);
    }
    current = true;
    control_current = true;
  }
};

}  // namespace orthosim::rtl::bridge

/// Declares the generated scheduler functions of the verilated model V (in the global namespace,
/// where the generated code defines them) and names them in bridge::Scheduler<V>.
#if VERILATOR_VERSION_INTEGER == 5006000
#define ORTHOSIM_VERILATED_SCHEDULER(V)                                          \
  void V##___024root___eval_triggers__ico(V##___024root*);                       \
  void V##___024root___eval_ico(V##___024root*);                                 \
  void V##___024root___eval_triggers__act(V##___024root*);                       \
  void V##___024root___eval_act(V##___024root*);                                 \
  void V##___024root___eval_nba(V##___024root*);                                 \
  namespace orthosim::rtl::bridge {                                              \
  template <>                                                                    \
  struct Scheduler<V> {                                                          \
    using Root = V##___024root;                                                  \
    static void ico_triggers(Root* r) { V##___024root___eval_triggers__ico(r); } \
    static void ico(Root* r) { V##___024root___eval_ico(r); }                    \
    static void triggers(Root* r) { V##___024root___eval_triggers__act(r); }     \
    static void act(Root* r) { V##___024root___eval_act(r); }                    \
    static void nba(Root* r) { V##___024root___eval_nba(r); }                    \
  };                                                                             \
  }
#else
#define ORTHOSIM_VERILATED_SCHEDULER(V)
#endif

namespace orthosim::rtl::bridge {

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
      dut->model.traced = true;
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
