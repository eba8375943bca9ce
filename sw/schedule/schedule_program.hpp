// A communication schedule as a .mcp program (docs/program-format.md): one program step per
// schedule step, each node's local work as a compute phase before it sends, each message a
// personalized transfer of (blocks x block size) words. The emulator then checks every word of
// every message on arrival; the schedule checker (schedule_check.hpp) has checked the blocks.
#pragma once

#include <cstdint>

#include "sw/core/cycle.hpp"
#include "sw/program/program.hpp"
#include "sw/schedule/schedule.hpp"
#include "sw/topology/topology.hpp"

namespace orthosim::sw {

struct ScheduleCosts {
  /// Words of one block (B of [A2A], the words of one piece of a message).
  std::uint32_t block_words = 1;
  /// Cycles a node spends per block it rearranges ([A2A] section 3's t_r).
  Cycle rearrange_cycles_per_block{0};
};

/// The program of `schedule` (named after it): a node's compute phase in a step is its local
/// work's compute plus rearranged blocks x rearrange_cycles_per_block, left out when zero. Throws
/// std::invalid_argument for a block size of 0, a message longer than the .mcp format's
/// kMaxMessageWords, or two messages of one step between the same pair of nodes (a .mcp step
/// carries at most one message per pair, [PH91] Theorem 1's property 1).
[[nodiscard]] McProgram to_program(const Schedule& schedule, const ScheduleCosts& costs);

/// The wormhole network a schedule's program runs on, for lockstep_cycles.
struct LockstepNetwork {
  std::uint64_t startup = 0;       ///< t_s, cycles at the sender before a message's first flit
  std::uint32_t router_delay = 1;  ///< cycles a header spends in each router
};

/// The cycles the program of `schedule` takes on `net` run in lockstep (`run --lockstep`: every
/// step ends when its last message has arrived) when no two messages of a step share a channel
/// and every node sends at most one message per step (what check_schedule passes): per step the
/// largest of every node's local work and, per message, its sender's local work plus the
/// zero-load time of one packet of W words over h hops, t_s + (h + 1) delay + W + 1
/// (docs/networks.md), summed over the steps.
[[nodiscard]] Cycle lockstep_cycles(const Topology& net, const Schedule& schedule,
                                    const ScheduleCosts& costs, const LockstepNetwork& network);

}  // namespace orthosim::sw
