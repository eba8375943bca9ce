// The verilated index manipulator, a C++ model stepped by this bridge. The generated headers come
// first (toolchain fact 4).
#include "Vindex_manipulator_n16.h"
#include "Vindex_manipulator_n16___024root.h"
#include "Vindex_manipulator_n2.h"
#include "Vindex_manipulator_n2___024root.h"
#include "Vindex_manipulator_n4.h"
#include "Vindex_manipulator_n4___024root.h"
#include "Vindex_manipulator_n8.h"
#include "Vindex_manipulator_n8___024root.h"
#include "rtl/bridge/verilated_block.hpp"

#include <algorithm>

#include "rtl/bridge/index_manipulator_rtl.hpp"

// The edge without the input-combinational region (bridge::clock_edge).
ORTHOSIM_VERILATED_SCHEDULER(Vindex_manipulator_n2)
ORTHOSIM_VERILATED_SCHEDULER(Vindex_manipulator_n4)
ORTHOSIM_VERILATED_SCHEDULER(Vindex_manipulator_n8)
ORTHOSIM_VERILATED_SCHEDULER(Vindex_manipulator_n16)

namespace orthosim::rtl {

/// The parameterisation-independent view of one verilated model.
struct IndexManipulatorRtl::Dut {
  virtual ~Dut() = default;
  virtual void set_index_write(bool we, std::uint32_t set, std::uint32_t pos,
                               std::uint32_t buffer) = 0;
  virtual void set_access(std::uint32_t set, std::uint32_t pos, std::uint32_t vec, bool we,
                          std::uint32_t wdata) = 0;
  virtual void set_local(bool we, std::uint32_t buffer, std::uint32_t word,
                         std::uint32_t wdata) = 0;
  [[nodiscard]] virtual std::uint32_t access_buffer() = 0;
  [[nodiscard]] virtual std::uint32_t access_rdata() = 0;
  [[nodiscard]] virtual std::uint32_t local_rdata() = 0;
  virtual void set_index_entry(std::uint32_t flat, std::uint32_t buffer) = 0;
  /// A data buffer word through the backdoor.
  [[nodiscard]] virtual std::uint32_t read_word(std::uint32_t flat) = 0;
  virtual void write_word(std::uint32_t flat, std::uint32_t value) = 0;
  virtual void read_words(std::uint32_t flat, std::uint32_t count, std::uint32_t* out) = 0;
  virtual void write_words(std::uint32_t flat, std::uint32_t count,
                           const std::uint32_t* values) = 0;
  virtual void edge() = 0;
};

template <class V>
struct IndexManipulatorRtl::DutOf final : IndexManipulatorRtl::Dut {
  DutOf(const std::string& name, std::uint32_t n) : model(name) {
    bridge::require_depth(dut.rootp->index_manipulator__DOT__buf_mem, std::size_t{n} * kWords,
                          "the data buffers");
    bridge::require_depth(dut.rootp->index_manipulator__DOT__idx_mem, std::size_t{n} * kSets,
                          "the index memory");
  }
  void set_index_write(bool we, std::uint32_t set, std::uint32_t pos,
                       std::uint32_t buffer) override {
    model.set(dut.idx_we, we);
    model.set(dut.idx_set, set);
    model.set(dut.idx_pos, pos);
    model.set(dut.idx_buf, buffer);
  }
  void set_access(std::uint32_t set, std::uint32_t pos, std::uint32_t vec, bool we,
                  std::uint32_t wdata) override {
    model.set(dut.ac_set, set);
    model.set(dut.ac_pos, pos);
    model.set(dut.ac_vec, vec);
    model.set(dut.ac_we, we);
    model.set(dut.ac_wdata, wdata);
  }
  void set_local(bool we, std::uint32_t buffer, std::uint32_t word, std::uint32_t wdata) override {
    model.set(dut.loc_we, we);
    model.set(dut.loc_buf, buffer);
    model.set(dut.loc_word, word);
    model.set(dut.loc_wdata, wdata);
  }
  std::uint32_t access_buffer() override {
    model.settle();
    return dut.ac_buf;
  }
  std::uint32_t access_rdata() override {
    model.settle();
    return dut.ac_rdata;
  }
  std::uint32_t local_rdata() override {
    model.settle();
    return dut.loc_rdata;
  }
  void set_index_entry(std::uint32_t flat, std::uint32_t buffer) override {
    dut.rootp->index_manipulator__DOT__idx_mem[flat] = static_cast<CData>(buffer);
    model.touch();
  }
  std::uint32_t read_word(std::uint32_t flat) override {
    return dut.rootp->index_manipulator__DOT__buf_mem[flat];
  }
  void write_word(std::uint32_t flat, std::uint32_t value) override {
    dut.rootp->index_manipulator__DOT__buf_mem[flat] = value;
    model.touch_outputs();  // only the read paths read the buffers (the edge only writes them)
  }
  void read_words(std::uint32_t flat, std::uint32_t count, std::uint32_t* out) override {
    const auto& mem = dut.rootp->index_manipulator__DOT__buf_mem;
    std::copy(&mem[flat], &mem[flat] + count, out);
  }
  void write_words(std::uint32_t flat, std::uint32_t count, const std::uint32_t* values) override {
    auto& mem = dut.rootp->index_manipulator__DOT__buf_mem;
    std::copy(values, values + count, &mem[flat]);
    model.touch_outputs();
  }
  void edge() override {
    // The index manipulator's only state is its two memories, written at an edge only with a
    // write enable: an edge without one changes nothing and is left out.
    if (dut.idx_we != 0 || dut.loc_we != 0 || dut.ac_we != 0) {
      model.edge();
    }
  }

  bridge::SteppedModel<V> model;
  V& dut = model.dut;
};

IndexManipulatorRtl::IndexManipulatorRtl(const sc_core::sc_module_name& name, std::uint32_t n,
                                         const sc_core::sc_signal_in_if<bool>& clk, FstTrace* fst)
    : IndexManipulatorRtl(name, n, fst) {
  clk_ = &clk;
  SC_METHOD(on_clock);
  sensitive << clk.posedge_event();
  dont_initialize();
}

IndexManipulatorRtl::IndexManipulatorRtl(const sc_core::sc_module_name& name, std::uint32_t n,
                                         FstTrace* fst)
    : sc_core::sc_module(name), n_(n) {
  // The verilated model's scope is "<this module>.rtl" in the waveform, as the SystemC module it
  // was.
  dut_ = bridge::instantiate<Dut, DutOf, bridge::VerilatedFor<2, Vindex_manipulator_n2>,
                             bridge::VerilatedFor<4, Vindex_manipulator_n4>,
                             bridge::VerilatedFor<8, Vindex_manipulator_n8>,
                             bridge::VerilatedFor<16, Vindex_manipulator_n16>>(
      n, "index manipulator", fst, std::string(this->name()) + ".rtl", n);
}

IndexManipulatorRtl::~IndexManipulatorRtl() = default;

void IndexManipulatorRtl::edge() { dut_->edge(); }

void IndexManipulatorRtl::catch_up() const {
  if (clk_ != nullptr && clk_->posedge() && edge_delta_ != sc_core::sc_delta_count()) {
    edge_delta_ = sc_core::sc_delta_count();
    dut_->edge();
  }
}

void IndexManipulatorRtl::on_clock() { catch_up(); }

void IndexManipulatorRtl::set_index_write(bool we, std::uint32_t set, std::uint32_t pos,
                                          std::uint32_t buffer) {
  catch_up();
  dut_->set_index_write(we, set, pos, buffer);
}

void IndexManipulatorRtl::set_access(std::uint32_t set, std::uint32_t pos, std::uint32_t vec,
                                     bool we, std::uint32_t wdata) {
  catch_up();
  dut_->set_access(set, pos, vec, we, wdata);
}

void IndexManipulatorRtl::set_local(bool we, std::uint32_t buffer, std::uint32_t word,
                                    std::uint32_t wdata) {
  catch_up();
  dut_->set_local(we, buffer, word, wdata);
}

std::uint32_t IndexManipulatorRtl::access_buffer() const {
  catch_up();
  return dut_->access_buffer();
}
std::uint32_t IndexManipulatorRtl::access_rdata() const {
  catch_up();
  return dut_->access_rdata();
}
std::uint32_t IndexManipulatorRtl::local_rdata() const {
  catch_up();
  return dut_->local_rdata();
}

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
  dut_->write_word(flat_word(buffer, word), value);
}

std::uint32_t IndexManipulatorRtl::word(std::uint32_t buffer, std::uint32_t word) const {
  return dut_->read_word(flat_word(buffer, word));
}

void IndexManipulatorRtl::set_words(std::uint32_t buffer, std::uint32_t word, std::uint32_t count,
                                    const std::uint32_t* values) {
  if (count > 0) {
    static_cast<void>(flat_word(buffer, word + count - 1));  // the last word is in range
    dut_->write_words(flat_word(buffer, word), count, values);
  }
}

void IndexManipulatorRtl::words(std::uint32_t buffer, std::uint32_t word, std::uint32_t count,
                                std::uint32_t* out) const {
  if (count > 0) {
    static_cast<void>(flat_word(buffer, word + count - 1));
    dut_->read_words(flat_word(buffer, word), count, out);
  }
}

void IndexManipulatorRtl::fill(std::uint32_t value) {
  for (std::uint32_t i = 0; i < n_ * kWords; ++i) {
    dut_->write_word(i, value);
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
