// The verilated bus controller (rtl/bus_controller.sv) as a SystemC module with plain setters and
// getters, so that nothing outside rtl/bridge includes Verilated headers (toolchain fact 4). One
// parameterisation per n in {2, 4, 8, 16} (rtl/CMakeLists.txt): L = 256 words per buffer,
// S = 512 index sets, 4096-word modules, 16-bit timing registers. A verilated C++ model stepped by
// its owner (sc::RtlDatapath; docs/rtl.md, "Stepping a verilated unit"): control_outputs() and
// read_words() evaluate the combinational outputs they read if an input they depend on changed
// since, and edge() is the rising edge that samples the inputs. Ports and timing: docs/rtl.md.
#pragma once

#include <cstdint>
#include <memory>
#include <systemc>
#include <vector>

#include "rtl/limits.hpp"

namespace orthosim::rtl {

class FstTrace;

/// One access as the controller's acc_* inputs take it.
struct BusAccessPins {
  bool write = false;
  bool column = false;               ///< column bus CB(i), else row bus RB(i)
  std::vector<std::uint32_t> slots;  ///< d = slots.size()
  std::uint32_t address = 0;
  std::uint32_t vectors = 1;
  std::uint32_t index_set = 0;
};

/// Every output of the controller in one cycle.
struct BusControllerOutputs {
  bool req = false, hold = false, req_col = false;
  std::uint32_t req_mask = 0;
  bool bus_valid = false;
  std::uint32_t bus_mode = 0;
  bool bus_write = false;
  std::uint32_t bus_sel = 0, bus_addr = 0, bus_wdata = 0, bus_data = 0;
  bool busy = false, done = false, last = false;
  std::uint32_t im_set = 0, im_pos = 0, im_vec = 0;
  bool im_we = false;
  std::uint32_t im_wdata = 0;
};

class BusControllerRtl : public sc_core::sc_module {
 public:
  static constexpr std::uint32_t kModuleWords = limits::kModuleWords;  ///< DEPTH
  static constexpr std::uint32_t kBufferWords = limits::kBufferWords;  ///< L: most vectors
  static constexpr std::uint32_t kIndexSets = limits::kIndexSets;      ///< S
  static constexpr std::uint64_t kTimingMax = limits::kTimingMax;      ///< of a TW-bit register

  [[nodiscard]] static bool supports(std::uint32_t n) { return limits::verilated_for(n); }

  /// Throws std::invalid_argument if !supports(n). With `fst`, the model's signals go to that
  /// waveform.
  BusControllerRtl(const sc_core::sc_module_name& name, std::uint32_t n, FstTrace* fst = nullptr);
  ~BusControllerRtl() override;

  /// The rising edge that ends the cycle.
  void edge();

  void set_reset(bool active);
  void set_timing(bool we, std::uint32_t alpha, std::uint32_t beta, std::uint32_t tau,
                  std::uint32_t gamma);
  /// start and the acc_* descriptor (iwr stays low: IWR steps run as two accesses, docs/rtl.md).
  void set_start(bool start, const BusAccessPins& access);
  void set_grant(bool grant);
  /// The data inputs: `bus_rdata`, the word the module returns, and `im_rdata`, the index
  /// manipulator's buffer word. Sampled inputs (bridge::SteppedModel): no register of the
  /// controller depends on them, only its word outputs do (bus_data, bus_wdata, im_wdata).
  void set_words(std::uint32_t bus_rdata, std::uint32_t im_rdata);

  /// Every output of the current inputs and state but the words, which are left 0: these do not
  /// read the data inputs, so a new word needs no evaluation for them.
  [[nodiscard]] BusControllerOutputs control_outputs() const;
  /// The word outputs of the current inputs and state, into `o` (of control_outputs()).
  void read_words(BusControllerOutputs& o) const;
  /// The word outputs as bus_controller.sv wires them (its "outputs" section: the words given,
  /// gated by bus_valid and the access's direction), into `o` (of control_outputs()), without
  /// evaluating the controller: for an owner that moves the words and neither compares nor traces
  /// them. read_words() gives the same (tests/rtl: BusControllerRtl.WiredWordsAreTheRtls).
  static void wire_words(BusControllerOutputs& o, std::uint32_t bus_rdata, std::uint32_t im_rdata);

 private:
  struct Dut;
  template <class V>
  struct DutOf;

  std::unique_ptr<Dut> dut_;
};

}  // namespace orthosim::rtl
