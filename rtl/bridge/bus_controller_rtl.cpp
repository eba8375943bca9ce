// The verilated bus controller bound to sc_signals. The generated headers come first (toolchain fact 4).
#include "Vbus_controller_n16.h"
#include "Vbus_controller_n2.h"
#include "Vbus_controller_n4.h"
#include "Vbus_controller_n8.h"
#include "rtl/bridge/verilated_block.hpp"

#include "rtl/bridge/bus_controller_rtl.hpp"

namespace orthosim::rtl {

using bridge::put;
using bridge::SignalFor;

struct BusControllerRtl::Dut {
  virtual ~Dut() = default;
  virtual void set_reset(bool active) = 0;
  virtual void set_timing(bool we, std::uint32_t alpha, std::uint32_t beta, std::uint32_t tau,
                          std::uint32_t gamma) = 0;
  virtual void set_start(bool start, const BusAccessPins& access) = 0;
  virtual void set_grant(bool grant) = 0;
  virtual void set_bus_rdata(std::uint32_t word) = 0;
  virtual void set_im_rdata(std::uint32_t word) = 0;
  [[nodiscard]] virtual BusControllerOutputs outputs() const = 0;
};

template <class V>
struct BusControllerRtl::DutOf final : BusControllerRtl::Dut {
  DutOf(const char* name, std::uint32_t n, const sc_core::sc_signal_in_if<bool>& clk)
      : slot_bits(n > 1 ? ceil_log2(n) : 1), dut(name) {
    dut.clk(clk);
    dut.rst_n(rst_n);
    dut.cfg_we(cfg_we);
    dut.cfg_alpha(cfg_alpha);
    dut.cfg_beta(cfg_beta);
    dut.cfg_tau(cfg_tau);
    dut.cfg_gamma(cfg_gamma);
    dut.start(start);
    dut.iwr(iwr);
    dut.acc_write(acc_write);
    dut.acc_col(acc_col);
    dut.acc_degree(acc_degree);
    dut.acc_slots(acc_slots);
    dut.acc_addr(acc_addr);
    dut.acc_vectors(acc_vectors);
    dut.acc_set(acc_set);
    dut.rd_col(rd_col);
    dut.rd_degree(rd_degree);
    dut.rd_slots(rd_slots);
    dut.rd_addr(rd_addr);
    dut.rd_vectors(rd_vectors);
    dut.rd_set(rd_set);
    dut.req(req);
    dut.hold(hold);
    dut.req_col(req_col);
    dut.req_mask(req_mask);
    dut.grant(grant);
    dut.bus_valid(bus_valid);
    dut.bus_mode(bus_mode);
    dut.bus_write(bus_write);
    dut.bus_sel(bus_sel);
    dut.bus_addr(bus_addr);
    dut.bus_wdata(bus_wdata);
    dut.bus_rdata(bus_rdata);
    dut.bus_data(bus_data);
    dut.busy(busy);
    dut.done(done);
    dut.last(last);
    dut.im_set(im_set);
    dut.im_pos(im_pos);
    dut.im_vec(im_vec);
    dut.im_we(im_we);
    dut.im_wdata(im_wdata);
    dut.im_rdata(im_rdata);
  }
  static std::uint32_t ceil_log2(std::uint32_t n) {
    std::uint32_t b = 0;
    while ((1u << b) < n) {
      ++b;
    }
    return b;
  }
  void set_reset(bool active) override { rst_n.write(!active); }
  void set_timing(bool we, std::uint32_t alpha, std::uint32_t beta, std::uint32_t tau,
                  std::uint32_t gamma) override {
    cfg_we.write(we);
    put(cfg_alpha, alpha);
    put(cfg_beta, beta);
    put(cfg_tau, tau);
    put(cfg_gamma, gamma);
  }
  void set_start(bool go, const BusAccessPins& a) override {
    start.write(go);
    iwr.write(false);
    acc_write.write(a.write);
    acc_col.write(a.column);
    put(acc_degree, a.slots.size());
    std::uint64_t packed = 0;
    for (std::size_t p = 0; p < a.slots.size(); ++p) {
      packed |= static_cast<std::uint64_t>(a.slots[p]) << (p * slot_bits);
    }
    put(acc_slots, packed);
    put(acc_addr, a.address);
    put(acc_vectors, a.vectors);
    put(acc_set, a.index_set);
  }
  void set_grant(bool g) override { grant.write(g); }
  void set_bus_rdata(std::uint32_t w) override { put(bus_rdata, w); }
  void set_im_rdata(std::uint32_t w) override { put(im_rdata, w); }
  BusControllerOutputs outputs() const override {
    BusControllerOutputs o;
    o.req = req.read();
    o.hold = hold.read();
    o.req_col = req_col.read();
    o.req_mask = static_cast<std::uint32_t>(req_mask.read());
    o.bus_valid = bus_valid.read();
    o.bus_mode = static_cast<std::uint32_t>(bus_mode.read());
    o.bus_write = bus_write.read();
    o.bus_sel = static_cast<std::uint32_t>(bus_sel.read());
    o.bus_addr = static_cast<std::uint32_t>(bus_addr.read());
    o.bus_wdata = static_cast<std::uint32_t>(bus_wdata.read());
    o.bus_data = static_cast<std::uint32_t>(bus_data.read());
    o.busy = busy.read();
    o.done = done.read();
    o.last = last.read();
    o.im_set = static_cast<std::uint32_t>(im_set.read());
    o.im_pos = static_cast<std::uint32_t>(im_pos.read());
    o.im_vec = static_cast<std::uint32_t>(im_vec.read());
    o.im_we = im_we.read();
    o.im_wdata = static_cast<std::uint32_t>(im_wdata.read());
    return o;
  }

  const std::uint32_t slot_bits;
  SignalFor<decltype(V::rst_n)> rst_n{"rst_n"};
  SignalFor<decltype(V::cfg_we)> cfg_we{"cfg_we"};
  SignalFor<decltype(V::cfg_alpha)> cfg_alpha{"cfg_alpha"};
  SignalFor<decltype(V::cfg_beta)> cfg_beta{"cfg_beta"};
  SignalFor<decltype(V::cfg_tau)> cfg_tau{"cfg_tau"};
  SignalFor<decltype(V::cfg_gamma)> cfg_gamma{"cfg_gamma"};
  SignalFor<decltype(V::start)> start{"start"};
  SignalFor<decltype(V::iwr)> iwr{"iwr"};
  SignalFor<decltype(V::acc_write)> acc_write{"acc_write"};
  SignalFor<decltype(V::acc_col)> acc_col{"acc_col"};
  SignalFor<decltype(V::acc_degree)> acc_degree{"acc_degree"};
  SignalFor<decltype(V::acc_slots)> acc_slots{"acc_slots"};
  SignalFor<decltype(V::acc_addr)> acc_addr{"acc_addr"};
  SignalFor<decltype(V::acc_vectors)> acc_vectors{"acc_vectors"};
  SignalFor<decltype(V::acc_set)> acc_set{"acc_set"};
  SignalFor<decltype(V::rd_col)> rd_col{"rd_col"};
  SignalFor<decltype(V::rd_degree)> rd_degree{"rd_degree"};
  SignalFor<decltype(V::rd_slots)> rd_slots{"rd_slots"};
  SignalFor<decltype(V::rd_addr)> rd_addr{"rd_addr"};
  SignalFor<decltype(V::rd_vectors)> rd_vectors{"rd_vectors"};
  SignalFor<decltype(V::rd_set)> rd_set{"rd_set"};
  SignalFor<decltype(V::req)> req{"req"};
  SignalFor<decltype(V::hold)> hold{"hold"};
  SignalFor<decltype(V::req_col)> req_col{"req_col"};
  SignalFor<decltype(V::req_mask)> req_mask{"req_mask"};
  SignalFor<decltype(V::grant)> grant{"grant"};
  SignalFor<decltype(V::bus_valid)> bus_valid{"bus_valid"};
  SignalFor<decltype(V::bus_mode)> bus_mode{"bus_mode"};
  SignalFor<decltype(V::bus_write)> bus_write{"bus_write"};
  SignalFor<decltype(V::bus_sel)> bus_sel{"bus_sel"};
  SignalFor<decltype(V::bus_addr)> bus_addr{"bus_addr"};
  SignalFor<decltype(V::bus_wdata)> bus_wdata{"bus_wdata"};
  SignalFor<decltype(V::bus_rdata)> bus_rdata{"bus_rdata"};
  SignalFor<decltype(V::bus_data)> bus_data{"bus_data"};
  SignalFor<decltype(V::busy)> busy{"busy"};
  SignalFor<decltype(V::done)> done{"done"};
  SignalFor<decltype(V::last)> last{"last"};
  SignalFor<decltype(V::im_set)> im_set{"im_set"};
  SignalFor<decltype(V::im_pos)> im_pos{"im_pos"};
  SignalFor<decltype(V::im_vec)> im_vec{"im_vec"};
  SignalFor<decltype(V::im_we)> im_we{"im_we"};
  SignalFor<decltype(V::im_wdata)> im_wdata{"im_wdata"};
  SignalFor<decltype(V::im_rdata)> im_rdata{"im_rdata"};
  V dut;
};

BusControllerRtl::BusControllerRtl(const sc_core::sc_module_name& name, std::uint32_t n,
                                   const sc_core::sc_signal_in_if<bool>& clk, FstTrace* fst)
    : sc_core::sc_module(name) {
  // The verilated model is this module's only child, named "rtl".
  dut_ = bridge::instantiate<Dut, DutOf, bridge::VerilatedFor<2, Vbus_controller_n2>,
                             bridge::VerilatedFor<4, Vbus_controller_n4>,
                             bridge::VerilatedFor<8, Vbus_controller_n8>,
                             bridge::VerilatedFor<16, Vbus_controller_n16>>(n, "bus controller",
                                                                            fst, "rtl", n, clk);
}

BusControllerRtl::~BusControllerRtl() = default;

void BusControllerRtl::set_reset(bool active) { dut_->set_reset(active); }
void BusControllerRtl::set_timing(bool we, std::uint32_t alpha, std::uint32_t beta,
                                  std::uint32_t tau, std::uint32_t gamma) {
  dut_->set_timing(we, alpha, beta, tau, gamma);
}
void BusControllerRtl::set_start(bool start, const BusAccessPins& access) {
  dut_->set_start(start, access);
}
void BusControllerRtl::set_grant(bool grant) { dut_->set_grant(grant); }
void BusControllerRtl::set_bus_rdata(std::uint32_t word) { dut_->set_bus_rdata(word); }
void BusControllerRtl::set_im_rdata(std::uint32_t word) { dut_->set_im_rdata(word); }
BusControllerOutputs BusControllerRtl::outputs() const { return dut_->outputs(); }

}  // namespace orthosim::rtl
