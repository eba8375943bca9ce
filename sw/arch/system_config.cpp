// Validation of a multiprocessor's parameters.
#include "sw/arch/system_config.hpp"

#include "sw/core/diagnostic.hpp"

namespace orthosim::sw {

namespace {
void require(bool ok, const std::string& parameter, const std::string& what) {
  if (!ok) {
    throw ParameterError(parameter, "invalid parameter " + parameter + ": " + what);
  }
}
}  // namespace

Validated<SystemConfig> SystemConfig::validated() const {
  require(n >= 1 && n <= kMaxProcessors, "n",
          "expected 1.." + std::to_string(kMaxProcessors) + " processors, got " +
              std::to_string(n));
  require(timing.tau >= 1, "tau", "a word needs at least one cycle on the bus");
  require(buffer_words >= 1, "buffer-words", "data buffers need at least one word");
  require(index_sets >= 1, "index-sets", "the index memory needs at least one set");
  require(module_words >= 1, "module-words", "memory modules need at least one word");
  require(local_words >= 1, "local-words", "local memory needs at least one word");
  require(clock_period_ns >= 1, "clock-ns", "the clock period must be at least 1 ns");
  return Validated<SystemConfig>(*this);
}

}  // namespace orthosim::sw
