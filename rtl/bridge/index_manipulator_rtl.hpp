// The verilated index manipulator (rtl/index_manipulator.sv, n = 4 buffers of 8 words, 4 index
// sets) as a SystemC module with plain setters and getters, so that nothing outside rtl/bridge
// includes Verilated headers (STYLE F5). Inputs are sampled at the rising edge of `clk`; the
// outputs are combinational and settle within the delta cycles after an input changes.
#pragma once

#include <cstdint>
#include <memory>
#include <systemc>

namespace orthosim::rtl {

class IndexManipulatorRtl : public sc_core::sc_module {
 public:
  static constexpr std::uint32_t kBuffers = 4;
  static constexpr std::uint32_t kWords = 8;
  static constexpr std::uint32_t kSets = 4;

  IndexManipulatorRtl(const sc_core::sc_module_name& name, sc_core::sc_clock& clk);
  ~IndexManipulatorRtl() override;

  void set_index_write(bool we, std::uint32_t set, std::uint32_t pos, std::uint32_t buffer);
  void set_access(std::uint32_t set, std::uint32_t pos, std::uint32_t vec, bool we,
                  std::uint32_t wdata);
  void set_local(bool we, std::uint32_t buffer, std::uint32_t word, std::uint32_t wdata);

  [[nodiscard]] std::uint32_t access_buffer() const;  ///< rho(p) of the access's index set
  [[nodiscard]] std::uint32_t access_rdata() const;   ///< write path: buffer rho(p) word v
  [[nodiscard]] std::uint32_t local_rdata() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace orthosim::rtl
