// The functional contract: every message of the manifest arrived exactly once, with the sent
// payload, at the right place. Works on any final state the caller can read words from.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sw/machine/machine_program.hpp"

namespace orthosim::sw {

struct DeliveryReport {
  std::size_t messages_checked = 0;
  std::uint64_t words_checked = 0;
  std::size_t messages_failed = 0;
  /// One line per failed message (the first few), naming it and its first wrong word.
  std::vector<std::string> failures;

  [[nodiscard]] bool ok() const { return messages_failed == 0; }
};

/// Reads word `address` of processor `p`'s local memory.
using LocalMemoryReader = std::function<Word(ProcId p, std::uint32_t address)>;

/// Compares every destination region of the manifest with the recomputed payload. `run_ended`:
/// the run ended by itself, so a word never written was lost; else it stopped at the cycle limit
/// and such a word was not delivered yet.
[[nodiscard]] DeliveryReport check_delivery(const MachineProgram& program,
                                            const LocalMemoryReader& read_local,
                                            bool run_ended = true);

/// Calls `store(p, address, word)` for every word the senders hold before the run.
void for_each_initial_word(const MachineProgram& program,
                           const std::function<void(ProcId, std::uint32_t, Word)>& store);

}  // namespace orthosim::sw
