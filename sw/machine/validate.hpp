// Checks a machine program against the hardware it is about to run on, before elaboration, so
// that a bad program is rejected with a message instead of failing inside the simulation.
#pragma once

#include "sw/arch/system_config.hpp"
#include "sw/machine/machine_program.hpp"

namespace orthosim::sw {

/// Throws ConfigError naming the processor, the op index and the broken rule. `config` has passed
/// SystemConfig::validated() (every caller holds a Validated<SystemConfig>).
void validate(const MachineProgram& program, const SystemConfig& config);

}  // namespace orthosim::sw
