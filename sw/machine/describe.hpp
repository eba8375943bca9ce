// Human-readable text of machine-program ops, in the notation of [PH91] section 4.3
// ("(P1 -> M(1,0))" for a write, "(M(1,0) -> P0)" for a read).
#pragma once

#include <string>

#include "sw/machine/machine_program.hpp"

namespace orthosim::sw {

[[nodiscard]] std::string describe(const Op& op, const MemoryOrganization& org);
[[nodiscard]] std::string describe(const MemoryAccess& access, const MemoryOrganization& org);

}  // namespace orthosim::sw
