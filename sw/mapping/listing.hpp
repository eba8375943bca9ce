// The mapped program in the notation of [PH91] section 4.3 (its footnote 2): (Px -> My) a
// scalar write, (Px -> My, Mz, ...) a vector write, (My -> Px) a scalar read, (My, Mz -> Px) a
// vector read; each operation prefixed by its basic pattern and side, e.g.
// "Step 2: C2_send((P1 -> M1,2), (P3 -> M3,0)), C2_recv((M1,2 -> P2), (M3,0 -> P0))".
#pragma once

#include <string>

#include "sw/mapping/mapping.hpp"

namespace orthosim::sw {

/// The program-level operations of a step ([PH91] section 2):
/// "Step 5: C10((N1, N0), (N2, N0)), C8((N3, N1), (N3, N2))".
[[nodiscard]] std::string program_line(const MappedStep& step);

/// "M1,0" on the omp and the crossbar, "M3" on the single bus.
[[nodiscard]] std::string paper_module_name(const MemoryOrganization& org, ModuleId module);
/// "P0 -> M0,1, M0,2" or "M1,0, M2,0 -> P0".
[[nodiscard]] std::string access_text(const MappedStep& step, const MappedAccess& access,
                                      const MemoryOrganization& org);
/// "C3_send(P0 -> M0,1, M0,2)", or with several accesses "C2_send((P1 -> M1,2), (P3 -> M3,0))".
[[nodiscard]] std::string op_text(const MappedStep& step, const MappedOp& op,
                                  const MemoryOrganization& org);
/// "C3_send" / "C5_recv".
[[nodiscard]] std::string op_name(const MappedOp& op);
/// "Step 1: C1_send(P1 -> M1,0), C1_recv(M1,0 -> P0)"; a step with no memory operation (only
/// computation or local copies) reads "Step 4: (no memory operation)".
[[nodiscard]] std::string listing_line(const MappedStep& step, const MemoryOrganization& org);

}  // namespace orthosim::sw
