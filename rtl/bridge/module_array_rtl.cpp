// The verilated module array bound to sc_signals. The generated headers come first: they pull in
// systemc.h in the order Verilator 5.006 needs (toolchain fact 4).
#include "Vmodule_array_n16.h"
#include "Vmodule_array_n16___024root.h"
#include "Vmodule_array_n2.h"
#include "Vmodule_array_n2___024root.h"
#include "Vmodule_array_n4.h"
#include "Vmodule_array_n4___024root.h"
#include "Vmodule_array_n8.h"
#include "Vmodule_array_n8___024root.h"
#include "rtl/bridge/verilated_block.hpp"

#include "rtl/bridge/module_array_rtl.hpp"

namespace orthosim::rtl {

using bridge::SignalFor;

namespace {

std::uint64_t low_bits(unsigned width) {
  return width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;
}

/// Writes `fields`, each `width` bits, as one flat vector: field k at [k*width +: width].
template <class Signal>
void put_fields(Signal& s, const std::vector<std::uint64_t>& fields, unsigned width) {
  using T = std::decay_t<decltype(s.read())>;
  if constexpr (std::is_integral_v<T>) {
    std::uint64_t v = 0;
    for (std::size_t k = 0; k < fields.size(); ++k) {
      v |= (fields[k] & low_bits(width)) << (k * width);
    }
    s.write(static_cast<T>(v));
  } else {
    T v;
    for (std::size_t k = 0; k < fields.size(); ++k) {
      const int lo = static_cast<int>(k * width);
      v.range(lo + static_cast<int>(width) - 1, lo) =
          static_cast<sc_dt::uint64>(fields[k] & low_bits(width));
    }
    s.write(v);
  }
}

/// Field k (`width` bits) of a flat vector.
template <class Signal>
std::uint64_t field(const Signal& s, std::size_t k, unsigned width) {
  using T = std::decay_t<decltype(s.read())>;
  if constexpr (std::is_integral_v<T>) {
    return (static_cast<std::uint64_t>(s.read()) >> (k * width)) & low_bits(width);
  } else {
    const int lo = static_cast<int>(k * width);
    return s.read().range(lo + static_cast<int>(width) - 1, lo).to_uint64();
  }
}

unsigned ceil_log2(std::uint32_t v) {
  unsigned b = 0;
  while ((std::uint32_t{1} << b) < v) {
    ++b;
  }
  return b;
}

}  // namespace

/// The parameterisation-independent view of one verilated model.
struct ModuleArrayRtl::Dut {
  virtual ~Dut() = default;
  virtual void set_reset(bool active) = 0;
  virtual void set_arbitration(const std::vector<ModuleArrayRequest>& requests) = 0;
  virtual void set_buses(const std::vector<ModuleArrayLane>& lanes) = 0;
  [[nodiscard]] virtual std::uint32_t grant() const = 0;
  [[nodiscard]] virtual std::uint32_t bus_rdata(std::uint32_t i) const = 0;
  [[nodiscard]] virtual std::uint32_t wait_cycles() const = 0;
  [[nodiscard]] virtual std::uint32_t conflicts() const = 0;
  [[nodiscard]] virtual bool collision() const = 0;
  virtual std::uint32_t& word(std::uint32_t flat) = 0;
};

template <class V>
struct ModuleArrayRtl::DutOf final : ModuleArrayRtl::Dut {
  DutOf(const char* name, std::uint32_t n_, const sc_core::sc_signal_in_if<bool>& clk)
      : n(n_), slot_bits(n_ > 1 ? ceil_log2(n_) : 1), dut(name) {
    bridge::require_depth(dut.rootp->module_array__DOT__mem, std::size_t{n} * n * kModuleWords,
                          "the modules");
    dut.clk(clk);
    dut.rst_n(rst_n);
    dut.req(req);
    dut.hold(hold);
    dut.req_col(req_col);
    dut.req_mask(req_mask);
    dut.grant(grant_);
    dut.wait_cycles(wait_cycles_);
    dut.conflicts(conflicts_);
    dut.collision(collision_);
    dut.bus_mode(bus_mode);
    dut.bus_sel(bus_sel);
    dut.bus_addr(bus_addr);
    dut.bus_wdata(bus_wdata);
    dut.bus_write(bus_write);
    dut.bus_valid(bus_valid);
    dut.bus_rdata(bus_rdata_);
    dut.host_we(host_we);
    dut.host_row(host_row);
    dut.host_col(host_col);
    dut.host_addr(host_addr);
    dut.host_wdata(host_wdata);
    dut.host_rdata(host_rdata);
    rst_n.write(true);
  }
  void set_reset(bool active) override { rst_n.write(!active); }
  void set_arbitration(const std::vector<ModuleArrayRequest>& requests) override {
    std::vector<std::uint64_t> r, h, c, m;
    for (const ModuleArrayRequest& q : requests) {
      r.push_back(q.req);
      h.push_back(q.hold);
      c.push_back(q.column);
      m.push_back(q.mask);
    }
    put_fields(req, r, 1);
    put_fields(hold, h, 1);
    put_fields(req_col, c, 1);
    put_fields(req_mask, m, n);
  }
  void set_buses(const std::vector<ModuleArrayLane>& lanes) override {
    std::vector<std::uint64_t> mode, sel, addr, wdata, write, valid;
    for (const ModuleArrayLane& l : lanes) {
      mode.push_back(l.mode);
      sel.push_back(l.sel);
      addr.push_back(l.addr);
      wdata.push_back(l.wdata);
      write.push_back(l.write);
      valid.push_back(l.valid);
    }
    put_fields(bus_mode, mode, 2);
    put_fields(bus_sel, sel, slot_bits);
    put_fields(bus_addr, addr, kAddressBits);
    put_fields(bus_wdata, wdata, 32);
    put_fields(bus_write, write, 1);
    put_fields(bus_valid, valid, 1);
  }
  std::uint32_t grant() const override { return static_cast<std::uint32_t>(field(grant_, 0, n)); }
  std::uint32_t bus_rdata(std::uint32_t i) const override {
    return static_cast<std::uint32_t>(field(bus_rdata_, i, 32));
  }
  std::uint32_t wait_cycles() const override { return wait_cycles_.read(); }
  std::uint32_t conflicts() const override { return conflicts_.read(); }
  bool collision() const override { return collision_.read(); }
  std::uint32_t& word(std::uint32_t flat) override {
    return dut.rootp->module_array__DOT__mem[flat];
  }

  static constexpr unsigned kAddressBits = limits::address_bits(limits::kModuleWords);
  const std::uint32_t n;
  const unsigned slot_bits;
  SignalFor<decltype(V::rst_n)> rst_n{"rst_n"};
  SignalFor<decltype(V::req)> req{"req"};
  SignalFor<decltype(V::hold)> hold{"hold"};
  SignalFor<decltype(V::req_col)> req_col{"req_col"};
  SignalFor<decltype(V::req_mask)> req_mask{"req_mask"};
  SignalFor<decltype(V::grant)> grant_{"grant"};
  SignalFor<decltype(V::wait_cycles)> wait_cycles_{"wait_cycles"};
  SignalFor<decltype(V::conflicts)> conflicts_{"conflicts"};
  SignalFor<decltype(V::collision)> collision_{"collision"};
  SignalFor<decltype(V::bus_mode)> bus_mode{"bus_mode"};
  SignalFor<decltype(V::bus_sel)> bus_sel{"bus_sel"};
  SignalFor<decltype(V::bus_addr)> bus_addr{"bus_addr"};
  SignalFor<decltype(V::bus_wdata)> bus_wdata{"bus_wdata"};
  SignalFor<decltype(V::bus_write)> bus_write{"bus_write"};
  SignalFor<decltype(V::bus_valid)> bus_valid{"bus_valid"};
  SignalFor<decltype(V::bus_rdata)> bus_rdata_{"bus_rdata"};
  SignalFor<decltype(V::host_we)> host_we{"host_we"};
  SignalFor<decltype(V::host_row)> host_row{"host_row"};
  SignalFor<decltype(V::host_col)> host_col{"host_col"};
  SignalFor<decltype(V::host_addr)> host_addr{"host_addr"};
  SignalFor<decltype(V::host_wdata)> host_wdata{"host_wdata"};
  SignalFor<decltype(V::host_rdata)> host_rdata{"host_rdata"};
  V dut;
};

ModuleArrayRtl::ModuleArrayRtl(const sc_core::sc_module_name& name, std::uint32_t n,
                               const sc_core::sc_signal_in_if<bool>& clk, FstTrace* fst)
    : sc_core::sc_module(name), n_(n) {
  // The verilated model is this module's only child, named "rtl": its signals appear under
  // "<this module>.rtl" in the waveform.
  dut_ = bridge::instantiate<Dut, DutOf, bridge::VerilatedFor<2, Vmodule_array_n2>,
                             bridge::VerilatedFor<4, Vmodule_array_n4>,
                             bridge::VerilatedFor<8, Vmodule_array_n8>,
                             bridge::VerilatedFor<16, Vmodule_array_n16>>(n, "module array", fst,
                                                                          "rtl", n, clk);
}

ModuleArrayRtl::~ModuleArrayRtl() = default;

void ModuleArrayRtl::set_reset(bool active) { dut_->set_reset(active); }
void ModuleArrayRtl::set_arbitration(const std::vector<ModuleArrayRequest>& requests) {
  dut_->set_arbitration(requests);
}
void ModuleArrayRtl::set_buses(const std::vector<ModuleArrayLane>& lanes) {
  dut_->set_buses(lanes);
}
std::uint32_t ModuleArrayRtl::grant() const { return dut_->grant(); }
std::uint32_t ModuleArrayRtl::bus_rdata(std::uint32_t i) const { return dut_->bus_rdata(i); }
std::uint32_t ModuleArrayRtl::wait_cycles() const { return dut_->wait_cycles(); }
std::uint32_t ModuleArrayRtl::conflicts() const { return dut_->conflicts(); }
bool ModuleArrayRtl::collision() const { return dut_->collision(); }

std::uint32_t ModuleArrayRtl::word(std::uint32_t module, std::uint32_t address) const {
  return dut_->word(flat(module, address));
}

void ModuleArrayRtl::set_word(std::uint32_t module, std::uint32_t address, std::uint32_t value) {
  dut_->word(flat(module, address)) = value;
}

void ModuleArrayRtl::fill(std::uint32_t value) {
  for (std::uint32_t i = 0; i < n_ * n_ * kModuleWords; ++i) {
    dut_->word(i) = value;
  }
}

std::uint32_t ModuleArrayRtl::flat(std::uint32_t module, std::uint32_t address) const {
  if (module >= n_ * n_ || address >= kModuleWords) {
    throw std::out_of_range("module " + std::to_string(module) + " word " +
                            std::to_string(address) + " is past the verilated sizes");
  }
  return module * kModuleWords + address;
}

}  // namespace orthosim::rtl
