// Validation of a multiprocessor's parameters.
#include "sw/arch/system_config.hpp"

#include "sw/core/diagnostic.hpp"

namespace orthosim::sw {

Validated<SystemConfig> SystemConfig::validated() const {
  require_parameter(n >= 1 && n <= kMaxProcessors, "n",
                    "1.." + std::to_string(kMaxProcessors) + " processors", quoted(n));
  require_parameter(timing.tau >= 1, "tau", "at least 1 cycle per word on the bus",
                    quoted(timing.tau));
  require_parameter(buffer_words >= 1, "buffer-words", "at least 1 word per data buffer",
                    quoted(buffer_words));
  require_parameter(index_sets >= 1, "index-sets", "at least 1 index set in the index memory",
                    quoted(index_sets));
  require_parameter(module_words >= 1, "module-words", "at least 1 word per memory module",
                    quoted(module_words));
  require_parameter(local_words >= 1, "local-words", "at least 1 word of local memory",
                    quoted(local_words));
  require_parameter(clock_period_ns >= 1, "clock-ns", "at least 1 ns", quoted(clock_period_ns));
  return Validated<SystemConfig>(*this);
}

}  // namespace orthosim::sw
