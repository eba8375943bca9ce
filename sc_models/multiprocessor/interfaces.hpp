// The method-call interfaces between the multiprocessor's blocks (modeling rule 6: blocks without an
// RTL twin talk through calls, not pins).
#pragma once

#include <string>

#include "sw/core/cycle.hpp"

namespace orthosim::sc {

using sw::Cycle;

/// Something the resource arbiter grants to: a bus controller, or a processor wanting the
/// interrupt bus.
class Grantee {
 public:
  virtual ~Grantee() = default;
  /// All requested resources are now held by the grantee, from cycle `now`.
  virtual void granted(Cycle now) = 0;
  /// "BC(2) accessing RB(2)" etc., for deadlock and conflict reports.
  [[nodiscard]] virtual std::string grantee_name() const = 0;
};

/// A processor that is suspended in an op and continues after a delay.
class Resumable {
 public:
  virtual ~Resumable() = default;
  /// Continue `delay` cycles from now (0: in the next delta cycle of the current cycle).
  virtual void resume_after(Cycle delay) = 0;
};

}  // namespace orthosim::sc
