// Test-only faults of the multiprocessor's models (docs/architecture.md, contract "Model = RTL"):
// a deliberate error the co-simulation must catch at its cycle and signal. A bus controller's
// fault sits on its tap (BusTap), so the model really moves the wrong word or takes the extra
// cycle: on the models alone the delivery check catches it instead. A late grant holds the model
// arbiter's grant back for one cycle on its way to the controller and the module array.
#pragma once

#include <cstdint>
#include <functional>
#include <systemc>

#include "sc_models/kernel/clock_domain.hpp"
#include "sc_models/multiprocessor/access_schedule.hpp"

namespace orthosim::sc {

struct ModelFault {
  enum class Kind : std::uint8_t {
    None,
    FlipBit,     ///< the word on the bus in cycle `at` has bit `bit` flipped
    ExtraCycle,  ///< the access granted in cycle `at` takes one cycle more in its start-up
  };
  Kind kind = Kind::None;
  Cycle at;
  std::uint32_t bit = 0;
};

class FaultTap final : public BusTap {
 public:
  /// A word is on the bus for `tau` cycles: a flip in any of them changes it.
  FaultTap(const ModelFault& fault, std::uint64_t tau) : fault_(fault), tau_(tau) {}

  [[nodiscard]] Cycle extra_startup(Cycle grant) const override {
    return Cycle{fault_.kind == ModelFault::Kind::ExtraCycle && fault_.at == grant ? 1u : 0u};
  }
  [[nodiscard]] Word on_bus(Word word, Cycle beat) const override {
    const bool hit =
        fault_.kind == ModelFault::Kind::FlipBit && beat <= fault_.at && fault_.at < beat + tau_;
    return hit ? word ^ (Word{1} << fault_.bit) : word;
  }

 private:
  ModelFault fault_;
  Cycle tau_;
};

/// The model arbiter's grant made in cycle `at` is delivered one cycle later.
class LateGrant : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(LateGrant);
  LateGrant(const sc_core::sc_module_name& name, Cycle at, const ClockDomain& clock)
      : sc_core::sc_module(name), at_(at), clock_(clock) {
    SC_METHOD(fire);
    sensitive << ev_;
    dont_initialize();
  }
  /// Whether the grant of cycle `now` is the late one: then `deliver` gets it one cycle later.
  bool holds_back(Cycle now, std::function<void(Cycle)> deliver) {
    if (armed_ && now == at_) {
      armed_ = false;
      deliver_ = std::move(deliver);
      ev_.notify(clock_.delay(Cycle{1}));
      return true;
    }
    return false;
  }

 private:
  void fire() { deliver_(clock_.now()); }

  bool armed_ = true;
  const Cycle at_;
  const ClockDomain& clock_;
  std::function<void(Cycle)> deliver_;
  sc_core::sc_event ev_;
};

}  // namespace orthosim::sc
