// The communication patterns of [PH91] Table 1 (C1-C12), the basic set CS = {C1..C7} and the
// reduction of C8-C12 to it (section 4.3), and the classification of a program step into
// patterns (section 2, with Step 5 of the sample program as the model of a mixed step).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sw/program/program.hpp"

namespace orthosim::sw {

enum class Pattern : std::uint8_t { C1 = 1, C2, C3, C4, C5, C6, C7, C8, C9, C10, C11, C12 };

/// "C1" .. "C12".
[[nodiscard]] std::string to_string(Pattern p);
/// Parses "C1".."C12" (case-insensitive) or a Table 1 name ("one-to-one", "permutation",
/// "one-to-all-broadcast", ...); returns nothing for anything else.
[[nodiscard]] std::optional<Pattern> parse_pattern(const std::string& text);
/// Table 1's name and type, e.g. "one-to-all (broadcast)".
[[nodiscard]] std::string describe(Pattern p);
/// Whether one payload is replicated to several destinations (C3, C6, C8, C11).
[[nodiscard]] bool is_broadcast(Pattern p);
/// The basic pattern of CS that encapsulates p: C8 -> C3, C9 -> C4, C10 -> C5, C11 -> C6,
/// C12 -> C7 ([PH91] section 4.3: "selective de-activation of few nodes"); C1..C7 map to
/// themselves.
[[nodiscard]] Pattern basic_of(Pattern p);

/// One pattern found in a step: the transfers (a subset of the step's, split per destination
/// where a personalized transfer is divided between patterns) that form it.
struct PatternInstance {
  Pattern pattern = Pattern::C1;
  std::vector<Transfer> transfers;
};

/// Classifies the transfers of one step over `nodes` nodes into Table 1 patterns. A step that is
/// one pattern gives one instance; a mixed step is split (Step 5 of Fig. 2: C10 + C8). The
/// instances partition the step's messages exactly and come in order of their first transfer.
[[nodiscard]] std::vector<PatternInstance> classify(const std::vector<Transfer>& transfers,
                                                    std::uint32_t nodes);

}  // namespace orthosim::sw
