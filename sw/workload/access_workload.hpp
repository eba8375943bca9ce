// The workloads of `orthosim access`: one access protocol of [PH91] section 3.1 exercised on
// every processor of a configuration, as a machine program with a delivery manifest.
//
// scalar | interleaved | block: every P(i) writes d messages of l words (one per buffer) to d
//   modules of its bus with one access, clears its buffers, reads the modules back with one
//   access through a reversing index set, and stores what it read. On the omp P(i) uses RB(i),
//   on the crossbar B(i); on the bus every processor shares B0 (and its own address range).
// iwr: every P(i) sends one message of l words to each P((i+k) mod n), k = 1..d.
//   omp: one IWR step: block write of M(i,(i+k) mod n) over RB(i), bus switch, block read of
//        M((i-k) mod n, i) over CB(i) ([PH91] Eq. 1 plus gamma).
//   crossbar: block write of M(i,(i+k) mod n) over B(i) (C4 send is vectorizable), bus switch,
//        then d reads of one module each on d different buses (C5 receive is not).
//   bus: the same on the single bus B0, where every access is serialized.
#pragma once

#include <cstdint>
#include <string>

#include "sw/arch/system_config.hpp"
#include "sw/machine/machine_program.hpp"

namespace orthosim::sw {

enum class WorkloadKind : std::uint8_t { Scalar, Interleaved, Block, Iwr };

[[nodiscard]] std::string to_string(WorkloadKind k);
[[nodiscard]] bool parse_workload_kind(const std::string& text, WorkloadKind& out);

struct AccessWorkload {
  WorkloadKind kind = WorkloadKind::Iwr;
  std::uint32_t d = 1;  ///< modules per access (iwr: destinations per processor)
  std::uint32_t l = 1;  ///< vectors per access (words per message)
  /// The whole workload back to back this many times (the same messages each time).
  std::uint32_t repetitions = 1;
};

/// Throws ParameterError on the workload's parameter (d, l...) when it does not fit the system.
void validate_workload(const SystemConfig& config, const AccessWorkload& workload);

/// The machine program of the workload; validated against `config`.
[[nodiscard]] MachineProgram make_access_program(const SystemConfig& config,
                                                 const AccessWorkload& workload);

}  // namespace orthosim::sw
