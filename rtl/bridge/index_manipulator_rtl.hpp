// The verilated index manipulator (rtl/index_manipulator.sv) as a SystemC module with plain
// setters and getters, so that nothing outside rtl/bridge includes Verilated headers (toolchain fact 4).
// One parameterisation per n in {2, 4, 8, 16} (rtl/CMakeLists.txt), each with L = 256 words per
// buffer and S = 512 index sets. A verilated C++ model (docs/rtl.md, "Stepping a verilated
// unit"): the combinational outputs are evaluated when read after an input changed, and inputs are
// sampled at the rising edge, which is either a call, edge() (the owner steps it: sc::RtlDatapath),
// or the rising edge of a clock signal given at construction (the edge is taken before any input
// set in that delta is seen, as with signals).
//
// The backdoor (index_set, set_word, word, set_words, words) reaches the index memory and the data buffers without
// a clock edge: the loads the model performs in no time (index sets before the run, the
// processor's LoadBuffer and StoreBuffer) take no cycle in the RTL either.
#pragma once

#include <cstdint>
#include <memory>
#include <systemc>
#include <vector>

#include "rtl/limits.hpp"

namespace orthosim::rtl {

class FstTrace;

class IndexManipulatorRtl : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(IndexManipulatorRtl);
  static constexpr std::uint32_t kWords = limits::kBufferWords;  ///< L: words per data buffer
  static constexpr std::uint32_t kSets = limits::kIndexSets;     ///< S: index sets

  /// Whether n has a verilated parameterisation.
  [[nodiscard]] static bool supports(std::uint32_t n) { return limits::verilated_for(n); }

  /// `n` data buffers, clocked at the rising edges of `clk`; throws std::invalid_argument if
  /// !supports(n). With `fst`, the model's signals go to that waveform.
  IndexManipulatorRtl(const sc_core::sc_module_name& name, std::uint32_t n,
                      const sc_core::sc_signal_in_if<bool>& clk, FstTrace* fst = nullptr);
  /// The same, clocked by its owner's calls of edge().
  IndexManipulatorRtl(const sc_core::sc_module_name& name, std::uint32_t n, FstTrace* fst);
  ~IndexManipulatorRtl() override;

  /// The rising edge that ends the cycle (the owner's clock).
  void edge();

  [[nodiscard]] std::uint32_t buffers() const { return n_; }

  void set_index_write(bool we, std::uint32_t set, std::uint32_t pos, std::uint32_t buffer);
  void set_access(std::uint32_t set, std::uint32_t pos, std::uint32_t vec, bool we,
                  std::uint32_t wdata);
  void set_local(bool we, std::uint32_t buffer, std::uint32_t word, std::uint32_t wdata);

  [[nodiscard]] std::uint32_t access_buffer() const;  ///< rho(p) of the access's index set
  [[nodiscard]] std::uint32_t access_rdata() const;   ///< write path: buffer rho(p) word v
  [[nodiscard]] std::uint32_t local_rdata() const;

  /// Backdoor: rho of index set `set` (one entry per position, at most n).
  void set_index_set(std::uint32_t set, const std::vector<std::uint32_t>& rho);
  /// Backdoor: buffer `buffer` word `word`.
  void set_word(std::uint32_t buffer, std::uint32_t word, std::uint32_t value);
  [[nodiscard]] std::uint32_t word(std::uint32_t buffer, std::uint32_t word) const;
  /// Backdoor: words [word, word + count) of buffer `buffer`, from `values` or into `out` (the
  /// processor's LoadBuffer and StoreBuffer, one call per op).
  void set_words(std::uint32_t buffer, std::uint32_t word, std::uint32_t count,
                 const std::uint32_t* values);
  void words(std::uint32_t buffer, std::uint32_t word, std::uint32_t count,
             std::uint32_t* out) const;
  /// Fills every buffer word with `value` (the model's unwritten-word marker after a load).
  void fill(std::uint32_t value);

 private:
  struct Dut;
  template <class V>
  struct DutOf;

  [[nodiscard]] std::uint32_t flat_word(std::uint32_t buffer, std::uint32_t word) const;
  /// With a clock signal: takes the edge of the current delta if it is not taken yet, so that
  /// an input set in the edge's delta is not sampled by it (whichever process runs first).
  void catch_up() const;
  void on_clock();

  std::uint32_t n_;
  std::unique_ptr<Dut> dut_;
  const sc_core::sc_signal_in_if<bool>* clk_ = nullptr;
  mutable std::uint64_t edge_delta_ = ~std::uint64_t{0};  ///< the delta of the last clock edge
};

}  // namespace orthosim::rtl
