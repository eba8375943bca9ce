// The verilated module array, a C++ model stepped by this bridge. The generated headers come
// first (toolchain fact 4).
#include "Vmodule_array_n16.h"
#include "Vmodule_array_n16___024root.h"
#include "Vmodule_array_n2.h"
#include "Vmodule_array_n2___024root.h"
#include "Vmodule_array_n4.h"
#include "Vmodule_array_n4___024root.h"
#include "Vmodule_array_n8.h"
#include "Vmodule_array_n8___024root.h"
#include "rtl/bridge/verilated_block.hpp"
#include "rtl/bridge/wide_bits.hpp"

#include <type_traits>
#include <utility>

#include "rtl/bridge/module_array_rtl.hpp"

// The edge without the input-combinational region (bridge::clock_edge).
ORTHOSIM_VERILATED_SCHEDULER(Vmodule_array_n2)
ORTHOSIM_VERILATED_SCHEDULER(Vmodule_array_n4)
ORTHOSIM_VERILATED_SCHEDULER(Vmodule_array_n8)
ORTHOSIM_VERILATED_SCHEDULER(Vmodule_array_n16)

namespace orthosim::rtl {

namespace {

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
  [[nodiscard]] virtual std::uint32_t grant() = 0;
  [[nodiscard]] virtual std::uint32_t bus_rdata(std::uint32_t i) = 0;
  [[nodiscard]] virtual std::uint32_t wait_cycles() = 0;
  [[nodiscard]] virtual std::uint32_t conflicts() = 0;
  [[nodiscard]] virtual bool collision() = 0;
  /// The storage through the backdoor.
  [[nodiscard]] virtual std::uint32_t read(std::uint32_t flat) = 0;
  virtual void write(std::uint32_t flat, std::uint32_t value) = 0;
  virtual void edge() = 0;
};

template <class V>
struct ModuleArrayRtl::DutOf final : ModuleArrayRtl::Dut {
  DutOf(const std::string& name, std::uint32_t n_)
      : n(n_), slot_bits(n_ > 1 ? ceil_log2(n_) : 1), model(name) {
    bridge::require_depth(dut.rootp->module_array__DOT__mem, std::size_t{n} * n * kModuleWords,
                          "the modules");
    model.set(dut.rst_n, 1);
  }
  /// Field k of `width` bits (at most 32) of each of `count` entries, packed from bit 0 as one
  /// flat port value (the bits past the fields 0).
  template <class Port, class Field>
  static Port pack(std::size_t count, unsigned width, Field field) {
    Port value{};
    const std::uint64_t mask = (std::uint64_t{1} << width) - 1;
    if constexpr (std::is_integral_v<Port>) {
      std::uint64_t bits = 0;
      for (std::size_t k = 0; k < count; ++k) {
        bits |= (std::uint64_t{field(k)} & mask) << (k * width);
      }
      value = static_cast<Port>(bits);
    } else {
      // Whole 32-bit words, as the fields fill them.
      std::uint64_t pending = 0;
      unsigned pending_bits = 0;
      std::size_t word = 0;
      for (std::size_t k = 0; k < count; ++k) {
        pending |= (std::uint64_t{field(k)} & mask) << pending_bits;
        pending_bits += width;
        if (pending_bits >= 32) {
          value.at(word++) = static_cast<std::uint32_t>(pending);
          pending >>= 32;
          pending_bits -= 32;
        }
      }
      if (pending_bits > 0) {
        value.at(word) = static_cast<std::uint32_t>(pending);
      }
    }
    return value;
  }
  void set_reset(bool active) override { model.set(dut.rst_n, !active); }
  void set_arbitration(const std::vector<ModuleArrayRequest>& requests) override {
    const std::size_t count = requests.size();
    model.put(dut.req, pack<Req>(count, 1, [&](std::size_t k) { return requests[k].req; }));
    model.put(dut.hold, pack<Req>(count, 1, [&](std::size_t k) { return requests[k].hold; }));
    model.put(dut.req_col, pack<Req>(count, 1, [&](std::size_t k) { return requests[k].column; }));
    model.put(dut.req_mask, pack<Mask>(count, n, [&](std::size_t k) { return requests[k].mask; }));
  }
  // The buses are sampled inputs (bridge::SteppedModel): the array's clocked logic decodes the
  // ports themselves (rtl/module_array.sv), so a new bus word makes stale only the read words
  // (bus_rdata), and the edge needs no evaluation for it.
  void set_buses(const std::vector<ModuleArrayLane>& lanes) override {
    const std::size_t count = lanes.size();
    model.put_sampled(dut.bus_mode,
                      pack<Mode>(count, 2, [&](std::size_t k) { return lanes[k].mode; }));
    model.put_sampled(dut.bus_sel,
                      pack<Sel>(count, slot_bits, [&](std::size_t k) { return lanes[k].sel; }));
    model.put_sampled(dut.bus_addr, pack<Addr>(count, kAddressBits,
                                               [&](std::size_t k) { return lanes[k].addr; }));
    model.put_sampled(dut.bus_wdata,
                      pack<Data>(count, 32, [&](std::size_t k) { return lanes[k].wdata; }));
    model.put_sampled(dut.bus_write,
                      pack<Req>(count, 1, [&](std::size_t k) { return lanes[k].write; }));
    model.put_sampled(dut.bus_valid,
                      pack<Req>(count, 1, [&](std::size_t k) { return lanes[k].valid; }));
  }
  // grant reads the arbitration inputs and the arbiter's registers, the counters and collision
  // are registers: none reads a bus.
  std::uint32_t grant() override {
    model.settle_control();
    return static_cast<std::uint32_t>(bridge::bits_of(dut.grant, 0, n));
  }
  std::uint32_t bus_rdata(std::uint32_t i) override {
    model.settle();
    return static_cast<std::uint32_t>(bridge::bits_of(dut.bus_rdata, i * 32, 32));
  }
  std::uint32_t wait_cycles() override {
    model.settle_control();
    return dut.wait_cycles;
  }
  std::uint32_t conflicts() override {
    model.settle_control();
    return dut.conflicts;
  }
  bool collision() override {
    model.settle_control();
    return dut.collision != 0;
  }
  std::uint32_t read(std::uint32_t flat) override {
    return dut.rootp->module_array__DOT__mem[flat];
  }
  void write(std::uint32_t flat, std::uint32_t value) override {
    dut.rootp->module_array__DOT__mem[flat] = value;
    model.touch_outputs();  // only the read words read the storage (the edge only writes it)
  }
  void edge() override { model.edge(); }

  static constexpr unsigned kAddressBits = limits::address_bits(limits::kModuleWords);
  // The verilated port types.
  using Req = std::decay_t<decltype(std::declval<V>().req)>;
  using Mask = std::decay_t<decltype(std::declval<V>().req_mask)>;
  using Mode = std::decay_t<decltype(std::declval<V>().bus_mode)>;
  using Sel = std::decay_t<decltype(std::declval<V>().bus_sel)>;
  using Addr = std::decay_t<decltype(std::declval<V>().bus_addr)>;
  using Data = std::decay_t<decltype(std::declval<V>().bus_wdata)>;
  const std::uint32_t n;
  const unsigned slot_bits;
  bridge::SteppedModel<V> model;
  V& dut = model.dut;
};

ModuleArrayRtl::ModuleArrayRtl(const sc_core::sc_module_name& name, std::uint32_t n, FstTrace* fst)
    : sc_core::sc_module(name), n_(n) {
  // The verilated model's scope is "<this module>.rtl" in the waveform, as the SystemC module it
  // was.
  dut_ = bridge::instantiate<Dut, DutOf, bridge::VerilatedFor<2, Vmodule_array_n2>,
                             bridge::VerilatedFor<4, Vmodule_array_n4>,
                             bridge::VerilatedFor<8, Vmodule_array_n8>,
                             bridge::VerilatedFor<16, Vmodule_array_n16>>(
      n, "module array", fst, std::string(this->name()) + ".rtl", n);
}

ModuleArrayRtl::~ModuleArrayRtl() = default;

void ModuleArrayRtl::edge() { dut_->edge(); }

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
  return dut_->read(flat(module, address));
}

void ModuleArrayRtl::set_word(std::uint32_t module, std::uint32_t address, std::uint32_t value) {
  dut_->write(flat(module, address), value);
}

void ModuleArrayRtl::fill(std::uint32_t value) {
  for (std::uint32_t i = 0; i < n_ * n_ * kModuleWords; ++i) {
    dut_->write(i, value);
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
