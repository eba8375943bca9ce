// The verilated bus controller, a C++ model stepped by this bridge. The generated headers come
// first (toolchain fact 4).
#include "Vbus_controller_n16.h"
#include "Vbus_controller_n16___024root.h"
#include "Vbus_controller_n2.h"
#include "Vbus_controller_n2___024root.h"
#include "Vbus_controller_n4.h"
#include "Vbus_controller_n4___024root.h"
#include "Vbus_controller_n8.h"
#include "Vbus_controller_n8___024root.h"
#include "rtl/bridge/verilated_block.hpp"

#include "rtl/bridge/bus_controller_rtl.hpp"

// The edge without the input-combinational region (bridge::clock_edge).
ORTHOSIM_VERILATED_SCHEDULER(Vbus_controller_n2)
ORTHOSIM_VERILATED_SCHEDULER(Vbus_controller_n4)
ORTHOSIM_VERILATED_SCHEDULER(Vbus_controller_n8)
ORTHOSIM_VERILATED_SCHEDULER(Vbus_controller_n16)

namespace orthosim::rtl {

struct BusControllerRtl::Dut {
  virtual ~Dut() = default;
  virtual void set_reset(bool active) = 0;
  virtual void set_timing(bool we, std::uint32_t alpha, std::uint32_t beta, std::uint32_t tau,
                          std::uint32_t gamma) = 0;
  virtual void set_start(bool start, const BusAccessPins& access) = 0;
  virtual void set_grant(bool grant) = 0;
  virtual void set_words(std::uint32_t bus_rdata, std::uint32_t im_rdata) = 0;
  [[nodiscard]] virtual BusControllerOutputs control_outputs() = 0;
  virtual void read_words(BusControllerOutputs& o) = 0;
  virtual void edge() = 0;
};

template <class V>
struct BusControllerRtl::DutOf final : BusControllerRtl::Dut {
  DutOf(const std::string& name, std::uint32_t n)
      : slot_bits(n > 1 ? ceil_log2(n) : 1), model(name) {}
  static std::uint32_t ceil_log2(std::uint32_t n) {
    std::uint32_t b = 0;
    while ((1u << b) < n) {
      ++b;
    }
    return b;
  }
  void set_reset(bool active) override { model.set(dut.rst_n, !active); }
  void set_timing(bool we, std::uint32_t alpha, std::uint32_t beta, std::uint32_t tau,
                  std::uint32_t gamma) override {
    model.set(dut.cfg_we, we);
    model.set(dut.cfg_alpha, alpha);
    model.set(dut.cfg_beta, beta);
    model.set(dut.cfg_tau, tau);
    model.set(dut.cfg_gamma, gamma);
  }
  void set_start(bool go, const BusAccessPins& a) override {
    model.set(dut.start, go);
    model.set(dut.iwr, false);
    model.set(dut.acc_write, a.write);
    model.set(dut.acc_col, a.column);
    model.set(dut.acc_degree, a.slots.size());
    std::uint64_t packed = 0;
    for (std::size_t p = 0; p < a.slots.size(); ++p) {
      packed |= static_cast<std::uint64_t>(a.slots[p]) << (p * slot_bits);
    }
    model.set(dut.acc_slots, packed);
    model.set(dut.acc_addr, a.address);
    model.set(dut.acc_vectors, a.vectors);
    model.set(dut.acc_set, a.index_set);
  }
  void set_grant(bool g) override { model.set(dut.grant, g); }
  void set_words(std::uint32_t bus_rdata, std::uint32_t im_rdata) override {
    model.set_sampled(dut.bus_rdata, bus_rdata);
    model.set_sampled(dut.im_rdata, im_rdata);
  }
  BusControllerOutputs control_outputs() override {
    model.settle_control();
    const auto& r = *dut.rootp;
    BusControllerOutputs o;
    o.req = r.req;
    o.hold = r.hold;
    o.req_col = r.req_col;
    o.req_mask = r.req_mask;
    o.bus_valid = r.bus_valid;
    o.bus_mode = r.bus_mode;
    o.bus_write = r.bus_write;
    o.bus_sel = r.bus_sel;
    o.bus_addr = r.bus_addr;
    o.busy = r.busy;
    o.done = r.done;
    o.last = r.last;
    o.im_set = r.im_set;
    o.im_pos = r.im_pos;
    o.im_vec = r.im_vec;
    o.im_we = r.im_we;
    return o;
  }
  void read_words(BusControllerOutputs& o) override {
    model.settle();
    const auto& r = *dut.rootp;
    o.bus_wdata = r.bus_wdata;
    o.bus_data = r.bus_data;
    o.im_wdata = r.im_wdata;
  }
  void edge() override { model.edge(); }

  const std::uint32_t slot_bits;
  bridge::SteppedModel<V> model;
  V& dut = model.dut;
};

BusControllerRtl::BusControllerRtl(const sc_core::sc_module_name& name, std::uint32_t n,
                                   FstTrace* fst)
    : sc_core::sc_module(name) {
  // The verilated model's scope is "<this module>.rtl" in the waveform, as the SystemC module it
  // was.
  dut_ = bridge::instantiate<Dut, DutOf, bridge::VerilatedFor<2, Vbus_controller_n2>,
                             bridge::VerilatedFor<4, Vbus_controller_n4>,
                             bridge::VerilatedFor<8, Vbus_controller_n8>,
                             bridge::VerilatedFor<16, Vbus_controller_n16>>(
      n, "bus controller", fst, std::string(this->name()) + ".rtl", n);
}

BusControllerRtl::~BusControllerRtl() = default;

void BusControllerRtl::edge() { dut_->edge(); }
void BusControllerRtl::set_reset(bool active) { dut_->set_reset(active); }
void BusControllerRtl::set_timing(bool we, std::uint32_t alpha, std::uint32_t beta,
                                  std::uint32_t tau, std::uint32_t gamma) {
  dut_->set_timing(we, alpha, beta, tau, gamma);
}
void BusControllerRtl::set_start(bool start, const BusAccessPins& access) {
  dut_->set_start(start, access);
}
void BusControllerRtl::set_grant(bool grant) { dut_->set_grant(grant); }
void BusControllerRtl::set_words(std::uint32_t bus_rdata, std::uint32_t im_rdata) {
  dut_->set_words(bus_rdata, im_rdata);
}
BusControllerOutputs BusControllerRtl::control_outputs() const { return dut_->control_outputs(); }
void BusControllerRtl::read_words(BusControllerOutputs& o) const { dut_->read_words(o); }

void BusControllerRtl::wire_words(BusControllerOutputs& o, std::uint32_t bus_rdata,
                                  std::uint32_t im_rdata) {
  // bus_write is the access's direction while bus_valid is high.
  o.bus_wdata = o.bus_valid && o.bus_write ? im_rdata : 0;
  o.bus_data = !o.bus_valid ? 0 : o.bus_write ? im_rdata : bus_rdata;
  o.im_wdata = bus_rdata;
}

}  // namespace orthosim::rtl
