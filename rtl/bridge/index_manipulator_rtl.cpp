// The verilated index manipulator bound to sc_signals. The generated header comes first: it
// pulls in systemc.h in the order Verilator 5.006 needs (STYLE F5).
#include "Vindex_manipulator_n4.h"

#include "rtl/bridge/index_manipulator_rtl.hpp"

namespace orthosim::rtl {

struct IndexManipulatorRtl::Impl {
  explicit Impl(sc_core::sc_clock& clk) : dut("dut") {
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

  Vindex_manipulator_n4 dut;
  sc_core::sc_signal<bool> idx_we, ac_we, loc_we;
  sc_core::sc_signal<std::uint32_t> idx_set, idx_pos, idx_buf, ac_set, ac_pos, ac_vec, ac_buf,
      ac_wdata, ac_rdata, loc_buf, loc_word, loc_wdata, loc_rdata;
};

IndexManipulatorRtl::IndexManipulatorRtl(const sc_core::sc_module_name& name,
                                         sc_core::sc_clock& clk)
    : sc_core::sc_module(name), impl_(std::make_unique<Impl>(clk)) {}

IndexManipulatorRtl::~IndexManipulatorRtl() = default;

void IndexManipulatorRtl::set_index_write(bool we, std::uint32_t set, std::uint32_t pos,
                                          std::uint32_t buffer) {
  impl_->idx_we.write(we);
  impl_->idx_set.write(set);
  impl_->idx_pos.write(pos);
  impl_->idx_buf.write(buffer);
}

void IndexManipulatorRtl::set_access(std::uint32_t set, std::uint32_t pos, std::uint32_t vec,
                                     bool we, std::uint32_t wdata) {
  impl_->ac_set.write(set);
  impl_->ac_pos.write(pos);
  impl_->ac_vec.write(vec);
  impl_->ac_we.write(we);
  impl_->ac_wdata.write(wdata);
}

void IndexManipulatorRtl::set_local(bool we, std::uint32_t buffer, std::uint32_t word,
                                    std::uint32_t wdata) {
  impl_->loc_we.write(we);
  impl_->loc_buf.write(buffer);
  impl_->loc_word.write(word);
  impl_->loc_wdata.write(wdata);
}

std::uint32_t IndexManipulatorRtl::access_buffer() const { return impl_->ac_buf.read(); }
std::uint32_t IndexManipulatorRtl::access_rdata() const { return impl_->ac_rdata.read(); }
std::uint32_t IndexManipulatorRtl::local_rdata() const { return impl_->loc_rdata.read(); }

}  // namespace orthosim::rtl
