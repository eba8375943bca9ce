// The parameters of one shared-memory multiprocessor: its configuration, its sizes and its costs.
// Built once from the command line and a variant file, validated once into a
// Validated<SystemConfig> (the only form the systems take), then passed by value to every block
// (modeling rule 7).
#pragma once

#include <cstdint>
#include <string>

#include "sw/arch/architecture.hpp"
#include "sw/arch/implementation.hpp"
#include "sw/core/cycle.hpp"
#include "sw/core/validated.hpp"

namespace orthosim::sw {

/// Bus protocol costs in cycles of the emulated clock ([PH91] section 3.1, Fig. 5, Eq. 1).
/// Defaults follow the paper with a 50 ns clock: tau = 50 ns, alpha = 800 ns, beta = 100 ns,
/// gamma = 400 ns.
struct BusTiming {
  std::uint64_t alpha = 16;  ///< fixed start-up of any access: address, propagation, memory access
  std::uint64_t beta = 2;    ///< address increment between consecutive vectors of a block
  std::uint64_t tau = 1;     ///< one word on the bus (pipelined minor cycle)
  std::uint64_t gamma = 8;   ///< bus switch between the write and the read half of an IWR step
};

/// Costs of the interprocessor interrupt bus ([PH91] section 4.3, "static barrier MIMD"
/// synchronization). The paper gives no figures; these defaults are ours and are parameters.
struct SyncCosts {
  std::uint64_t activate = 2;  ///< an activate-sync holds the interrupt bus this long
  std::uint64_t barrier = 2;   ///< from the last arrival at a barrier to the release of all
};

struct SystemConfig {
  Arch arch = Arch::Omp;
  std::uint32_t n = 4;  ///< processors
  BusTiming timing;
  SyncCosts sync;
  std::uint32_t buffer_words = 256;    ///< L: words in each of a processor's n data buffers
  std::uint32_t index_sets = 512;      ///< capacity of each processor's index memory
  std::uint32_t module_words = 4096;   ///< depth of each memory module
  std::uint32_t local_words = 65536;   ///< words of each processor's local memory
  std::uint32_t clock_period_ns = 50;  ///< for reporting nanoseconds and waveform time
  Implementations impl;                ///< model, rtl or cosim per block (--impl)

  [[nodiscard]] MemoryOrganization organization() const { return {arch, n}; }
  /// This configuration, checked; throws ParameterError keyed by the parameter (the option and
  /// variant field of the same name, "n", "tau", "buffer-words") if a value is out of range.
  [[nodiscard]] Validated<SystemConfig> validated() const;
};

/// Upper bound on n. Bus and module indices are carried in 16-bit fields of the waveforms.
inline constexpr std::uint32_t kMaxProcessors = 256;

}  // namespace orthosim::sw
