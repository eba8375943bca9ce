// Vectorizability from structural connectivity ([PH91] section 4.1-4.2). Which module holds a
// message, on which bus a processor can reach a set of modules in one interleaved access, and
// whether one half (send or receive) of a communication pattern can be done in a single step of
// scalar or vector accesses on a configuration. The memory-based communication sets MCS^scalar
// and MCS^vector of the paper are derived from these rules, not listed.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "sw/arch/architecture.hpp"
#include "sw/machine/machine_program.hpp"
#include "sw/pattern/pattern.hpp"

namespace orthosim::sw {

/// The module through which a message from P(s) to P(d) passes ([PH91] section 4, Fig. 7):
/// M(d) on the single bus, M(s,d) on the crossbar and the omp (written over the sender's bus,
/// RB(s) / B(s); read over CB(d) on the omp, over B(s) on the crossbar).
[[nodiscard]] ModuleId mailbox(const MemoryOrganization& org, ProcId source, ProcId destination);

/// One access a bus controller can make: the bus and the slots of the modules, in stream order.
struct AccessRoute {
  BusRef bus;
  std::vector<std::uint32_t> slots;
};

/// The bus on which processor p reaches every module of `modules` (distinct) in one interleaved
/// access: a bus p's controller can drive that every module is attached to. Nothing when the
/// modules repeat or no such bus exists.
[[nodiscard]] std::optional<AccessRoute> route(const MemoryOrganization& org, ProcId p,
                                               const std::vector<ModuleId>& modules);

/// One half of a pattern: per processor, the modules it must write (send half) or read (receive
/// half), in message order.
using HalfDemand = std::vector<std::pair<ProcId, std::vector<ModuleId>>>;

/// How a half can be carried out.
enum class HalfShape : std::uint8_t {
  SingleScalar,  ///< every processor makes one single-module access, all at once
  SingleVector,  ///< every processor makes one access, at least one over several modules, all at once
  Multiple,  ///< some processor needs several accesses, or two processors need one bus or module
};

/// A half is single-step when every processor can reach all its modules in one access and the
/// accesses of different processors share no bus and no module, so they all run at once.
[[nodiscard]] HalfShape half_shape(const MemoryOrganization& org, const HalfDemand& demand);

/// The canonical instance of a basic pattern on n processors (n >= 3): C1 P1 -> P0; C2 the
/// cyclic shift P(i) -> P(i+1); C3/C4 P0 -> all others; C5 all others -> P0; C6/C7 all -> all.
/// Pairs (source, destination).
[[nodiscard]] std::vector<std::pair<ProcId, ProcId>> canonical_instance(Pattern basic,
                                                                        std::uint32_t n);

/// The demand of the send half (per source) and the receive half (per destination) of a set of
/// messages on a configuration. A broadcast's copies to several destinations are separate modules.
[[nodiscard]] HalfDemand send_demand(const MemoryOrganization& org,
                                     const std::vector<std::pair<ProcId, ProcId>>& messages);
[[nodiscard]] HalfDemand receive_demand(const MemoryOrganization& org,
                                        const std::vector<std::pair<ProcId, ProcId>>& messages);

/// Whether a half is listed as one operation of its pattern (an element of MCS^scalar or
/// MCS^vector). A vector half qualifies on its own: each processor saves accesses. A scalar half
/// of several processors only groups single-module accesses that would run at once anyway; it
/// stays one operation of the pattern when the other half is single-step too, so that the pattern
/// remains one write step and one read step. Otherwise its messages fall back to separate C1
/// operations, as the paper's crossbar listing does for C5 in Step 5.
[[nodiscard]] bool listed_as_pattern(HalfShape self, HalfShape other);

/// MCS_X^scalar and MCS_X^vector of [PH91] section 4.2, derived for configuration `arch` by
/// applying half_shape() and listed_as_pattern() to the canonical instance of each of C1..C7.
/// Elements are written "C3_send", "C5_recv", in pattern order, send before receive.
struct MemoryCommunicationSets {
  std::vector<std::string> scalar;
  std::vector<std::string> vector;
};
[[nodiscard]] MemoryCommunicationSets derive_mcs(Arch arch, std::uint32_t n = 4);

}  // namespace orthosim::sw
