// The models alone.
#include "sc_models/multiprocessor/block_wiring.hpp"

#include <stdexcept>

namespace orthosim::sc {

void ModelWiring::validate(const sw::SystemConfig& config) const {
  const sw::Implementations& impl = config.impl;
  if (impl.bus_controller != sw::Impl::Model || impl.index_manipulator != sw::Impl::Model ||
      impl.memory != sw::Impl::Model) {
    // A caller's mistake, not the user's: the command line builds every system with the
    // co-simulation layer's wiring.
    throw std::logic_error("a multiprocessor with verilated blocks needs sc::CosimWiring");
  }
}

MemoryGrants& ModelWiring::memory(const SystemParts& system) {
  return grants_.emplace(system.arbiter);
}

}  // namespace orthosim::sc
