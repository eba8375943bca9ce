// The verilated index manipulator bound to sc_signals. The generated headers come first: they
// pull in systemc.h in the order Verilator 5.006 needs (toolchain fact 4).
#include "Vindex_manipulator_n16.h"
#include "Vindex_manipulator_n16___024root.h"
#include "Vindex_manipulator_n2.h"
#include "Vindex_manipulator_n2___024root.h"
#include "Vindex_manipulator_n4.h"
#include "Vindex_manipulator_n4___024root.h"
#include "Vindex_manipulator_n8.h"
#include "Vindex_manipulator_n8___024root.h"
#include "rtl/bridge/verilated_block.hpp"

#include "rtl/bridge/index_manipulator_rtl.hpp"

namespace orthosim::rtl {

// The n = 2 positions, one bit wide, are bool signals.
using bridge::put;
using bridge::SignalFor;

/// The parameterisation-independent view of one verilated model.
struct IndexManipulatorRtl::Dut {
  virtual ~Dut() = default;
  virtual void set_index_write(bool we, std::uint32_t set, std::uint32_t pos,
                               std::uint32_t buffer) = 0;
  virtual void set_access(std::uint32_t set, std::uint32_t pos, std::uint32_t vec, bool we,
                          std::uint32_t wdata) = 0;
  virtual void set_local(bool we, std::uint32_t buffer, std::uint32_t word,
                         std::uint32_t wdata) = 0;
  [[nodiscard]] virtual std::uint32_t access_buffer() const = 0;
  [[nodiscard]] virtual std::uint32_t access_rdata() const = 0;
  [[nodiscard]] virtual std::uint32_t local_rdata() const = 0;
  virtual void set_index_entry(std::uint32_t flat, std::uint32_t buffer) = 0;
  virtual std::uint32_t& buffer_word(std::uint32_t flat) = 0;
};

template <class V>
struct IndexManipulatorRtl::DutOf final : IndexManipulatorRtl::Dut {
  DutOf(const char* name, std::uint32_t n, const sc_core::sc_signal_in_if<bool>& clk) : dut(name) {
    bridge::require_depth(dut.rootp->index_manipulator__DOT__buf_mem, std::size_t{n} * kWords,
                          "the data buffers");
    bridge::require_depth(dut.rootp->index_manipulator__DOT__idx_mem, std::size_t{n} * kSets,
                          "the index memory");
    dut.clk(clk);
    dut.idx_we(idx_we);
    dut.idx_set(idx_set);
    dut.idx_pos(idx_pos);
    dut.idx_buf(idx_buf);
    dut.ac_set(ac_set);
    dut.ac_pos(ac_pos);
    dut.ac_vec(ac_vec);
    dut.ac_buf(ac_buf);
    dut.ac_we(ac_we);
    dut.ac_wdata(ac_wdata);
    dut.ac_rdata(ac_rdata);
    dut.loc_we(loc_we);
    dut.loc_buf(loc_buf);
    dut.loc_word(loc_word);
    dut.loc_wdata(loc_wdata);
    dut.loc_rdata(loc_rdata);
  }
  void set_index_write(bool we, std::uint32_t set, std::uint32_t pos,
                       std::uint32_t buffer) override {
    idx_we.write(we);
    idx_set.write(set);
    put(idx_pos, pos);
    put(idx_buf, buffer);
  }
  void set_access(std::uint32_t set, std::uint32_t pos, std::uint32_t vec, bool we,
                  std::uint32_t wdata) override {
    ac_set.write(set);
    put(ac_pos, pos);
    ac_vec.write(vec);
    ac_we.write(we);
    ac_wdata.write(wdata);
  }
  void set_local(bool we, std::uint32_t buffer, std::uint32_t word, std::uint32_t wdata) override {
    loc_we.write(we);
    put(loc_buf, buffer);
    loc_word.write(word);
    loc_wdata.write(wdata);
  }
  std::uint32_t access_buffer() const override { return ac_buf.read(); }
  std::uint32_t access_rdata() const override { return ac_rdata.read(); }
  std::uint32_t local_rdata() const override { return loc_rdata.read(); }
  void set_index_entry(std::uint32_t flat, std::uint32_t buffer) override {
    dut.rootp->index_manipulator__DOT__idx_mem[flat] = static_cast<CData>(buffer);
  }
  std::uint32_t& buffer_word(std::uint32_t flat) override {
    return dut.rootp->index_manipulator__DOT__buf_mem[flat];
  }

  SignalFor<decltype(V::idx_we)> idx_we{"idx_we"};
  SignalFor<decltype(V::idx_set)> idx_set{"idx_set"};
  SignalFor<decltype(V::idx_pos)> idx_pos{"idx_pos"};
  SignalFor<decltype(V::idx_buf)> idx_buf{"idx_buf"};
  SignalFor<decltype(V::ac_set)> ac_set{"ac_set"};
  SignalFor<decltype(V::ac_pos)> ac_pos{"ac_pos"};
  SignalFor<decltype(V::ac_vec)> ac_vec{"ac_vec"};
  SignalFor<decltype(V::ac_buf)> ac_buf{"ac_buf"};
  SignalFor<decltype(V::ac_we)> ac_we{"ac_we"};
  SignalFor<decltype(V::ac_wdata)> ac_wdata{"ac_wdata"};
  SignalFor<decltype(V::ac_rdata)> ac_rdata{"ac_rdata"};
  SignalFor<decltype(V::loc_we)> loc_we{"loc_we"};
  SignalFor<decltype(V::loc_buf)> loc_buf{"loc_buf"};
  SignalFor<decltype(V::loc_word)> loc_word{"loc_word"};
  SignalFor<decltype(V::loc_wdata)> loc_wdata{"loc_wdata"};
  SignalFor<decltype(V::loc_rdata)> loc_rdata{"loc_rdata"};
  V dut;
};

IndexManipulatorRtl::IndexManipulatorRtl(const sc_core::sc_module_name& name, std::uint32_t n,
                                         const sc_core::sc_signal_in_if<bool>& clk, FstTrace* fst)
    : sc_core::sc_module(name), n_(n) {
  // The verilated model is this module's only child, named "rtl": its signals appear under
  // "<this module>.rtl" in the waveform.
  dut_ =
      bridge::instantiate<Dut, DutOf, bridge::VerilatedFor<2, Vindex_manipulator_n2>,
                          bridge::VerilatedFor<4, Vindex_manipulator_n4>,
                          bridge::VerilatedFor<8, Vindex_manipulator_n8>,
                          bridge::VerilatedFor<16, Vindex_manipulator_n16>>(n, "index manipulator",
                                                                            fst, "rtl", n, clk);
}

IndexManipulatorRtl::~IndexManipulatorRtl() = default;

void IndexManipulatorRtl::set_index_write(bool we, std::uint32_t set, std::uint32_t pos,
                                          std::uint32_t buffer) {
  dut_->set_index_write(we, set, pos, buffer);
}

void IndexManipulatorRtl::set_access(std::uint32_t set, std::uint32_t pos, std::uint32_t vec,
                                     bool we, std::uint32_t wdata) {
  dut_->set_access(set, pos, vec, we, wdata);
}

void IndexManipulatorRtl::set_local(bool we, std::uint32_t buffer, std::uint32_t word,
                                    std::uint32_t wdata) {
  dut_->set_local(we, buffer, word, wdata);
}

std::uint32_t IndexManipulatorRtl::access_buffer() const { return dut_->access_buffer(); }
std::uint32_t IndexManipulatorRtl::access_rdata() const { return dut_->access_rdata(); }
std::uint32_t IndexManipulatorRtl::local_rdata() const { return dut_->local_rdata(); }

void IndexManipulatorRtl::set_index_set(std::uint32_t set, const std::vector<std::uint32_t>& rho) {
  if (set >= kSets || rho.size() > n_) {
    throw std::out_of_range("index set " + std::to_string(set) + " with " +
                            std::to_string(rho.size()) + " entries is past the verilated sizes");
  }
  for (std::uint32_t p = 0; p < rho.size(); ++p) {
    dut_->set_index_entry(set * n_ + p, rho[p]);
  }
}

void IndexManipulatorRtl::set_word(std::uint32_t buffer, std::uint32_t word, std::uint32_t value) {
  dut_->buffer_word(flat_word(buffer, word)) = value;
}

std::uint32_t IndexManipulatorRtl::word(std::uint32_t buffer, std::uint32_t word) const {
  return dut_->buffer_word(flat_word(buffer, word));
}

void IndexManipulatorRtl::fill(std::uint32_t value) {
  for (std::uint32_t i = 0; i < n_ * kWords; ++i) {
    dut_->buffer_word(i) = value;
  }
}

std::uint32_t IndexManipulatorRtl::flat_word(std::uint32_t buffer, std::uint32_t word) const {
  if (buffer >= n_ || word >= kWords) {
    throw std::out_of_range("buffer " + std::to_string(buffer) + " word " + std::to_string(word) +
                            " is past the verilated sizes");
  }
  return buffer * kWords + word;
}

}  // namespace orthosim::rtl
