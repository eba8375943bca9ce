// The 4-step mapping methodology of seed 004 section 4.2: a multicomputer program becomes memory
// write and read steps on the omp, the crossbar or the single bus, and then a machine program.
//   1. reduce every step to basic patterns (classify, basic_of);
//   2. decide per pattern half whether it is one scalar step, one vector step, or several
//      accesses (vectorize.hpp, from the structural connectivity);
//   3. transform sends into writes of mailbox modules and receives into reads, vector accesses
//      where the half allows, the index manipulator replicating broadcasts (Fig. 6) and
//      scattering what a vector read brings into one data buffer per message;
//   4. add activate-sync after every write and wait-sync before every read (section 4.3), which
//      cannot deadlock: writes never wait for a read.
// Programs with more nodes than processors are first grouped into clusters (section 5): messages
// inside a cluster are local copies; messages between two clusters in one step travel as one
// longer message (the node-congestion factor lambda of Table 2).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sw/arch/system_config.hpp"
#include "sw/machine/machine_program.hpp"
#include "sw/pattern/pattern.hpp"
#include "sw/program/program.hpp"

namespace orthosim::sw {

/// Nodes to processors (seed 004 section 5, first step): node i runs on processor
/// floor(i n / m), so each processor holds a block of about m/n consecutive nodes.
class Clustering {
 public:
  Clustering(std::uint32_t nodes, std::uint32_t processors);
  [[nodiscard]] ProcId processor_of(NodeId node) const;
  [[nodiscard]] std::uint32_t nodes() const { return nodes_; }
  [[nodiscard]] std::uint32_t processors() const { return processors_; }

 private:
  std::uint32_t nodes_;
  std::uint32_t processors_;
};

/// A piece of a parcel: one payload of a node message, at `offset` words into the parcel.
struct ParcelPiece {
  PayloadKey payload;
  std::uint32_t words = 0;
  std::uint32_t offset = 0;
  std::uint32_t src_address = 0;  ///< in the sending processor's local memory
  /// One local address per destination node in the receiving processor (several for a
  /// broadcast that reaches several nodes of one cluster).
  std::vector<std::uint32_t> dst_addresses;
};

/// What one processor sends another in one step: the processor-level message.
struct Parcel {
  ProcId source = 0;
  ProcId destination = 0;
  /// One copy of a processor-level broadcast: the parcels of one broadcast share their pieces,
  /// and the writer fills one data buffer and replicates it (index manipulator, Fig. 6).
  bool broadcast = false;
  std::uint32_t words = 0;
  std::vector<ParcelPiece> pieces;
  ModuleId mailbox = 0;
  std::uint32_t address = 0;  ///< word address in the mailbox module
};

/// One access of one processor in a mapped step.
struct MappedAccess {
  ProcId processor = 0;
  Direction direction = Direction::Write;
  BusRef bus;
  std::vector<std::uint32_t> slots;   ///< stream order
  std::vector<std::size_t> parcels;   ///< into MappedStep::parcels, aligned with slots
  bool replicated = false;            ///< a broadcast write: every slot from one data buffer
  std::uint32_t vectors = 1;          ///< l: the longest parcel of the access
  std::uint32_t address = 0;
};

/// One operation of the paper's listing, e.g. C2_send((P1 -> M1,2), (P3 -> M3,0)): the accesses
/// of one pattern half that form one operation.
struct MappedOp {
  Pattern pattern = Pattern::C1;  ///< a basic pattern, C1..C7
  Direction direction = Direction::Write;  ///< write = send, read = receive
  std::vector<MappedAccess> accesses;
};

/// A message between two nodes of one cluster: a local copy, no memory access.
struct LocalCopy {
  ProcId processor = 0;
  PayloadKey payload;
  std::uint32_t words = 0;
  std::uint32_t src_address = 0;
  std::uint32_t dst_address = 0;
};

struct MappedStep {
  std::uint32_t index = 0;  ///< 0-based; listed as "Step index+1"
  std::string label;
  /// Table 1 patterns of the node-level step (seed 004 section 2), e.g. C10 and C8 for Step 5.
  std::vector<PatternInstance> node_patterns;
  /// Patterns of the processor-level step after clustering, before reduction to CS.
  std::vector<Pattern> processor_patterns;
  std::vector<Parcel> parcels;
  std::vector<MappedOp> ops;  ///< listing order: per pattern, send operations then receives
  std::vector<LocalCopy> local_copies;
  std::vector<Cycle> compute;  ///< per processor: compute cycles at the start of the step
};

/// Sizes the machine program needs from its system.
struct MappingNeeds {
  std::uint32_t buffer_words = 1;
  std::uint32_t module_words = 1;
  std::uint32_t local_words = 1;
  std::uint32_t index_sets = 1;
};

struct MappedProgram {
  std::string name;
  Arch arch = Arch::Omp;
  std::uint32_t nodes = 0;
  std::uint32_t processors = 0;
  std::vector<MappedStep> steps;
  std::size_t node_messages = 0;
  MappingNeeds needs;
  /// The program each processor runs; validate it against a SystemConfig with at least `needs`.
  MachineProgram machine;
};

/// Maps `program` onto `processors` processors of configuration `arch`. Throws InputError
/// ({"--n"}) when processors is 0 or exceeds kMaxProcessors.
[[nodiscard]] MappedProgram map_program(const McProgram& program, Arch arch,
                                        std::uint32_t processors);

/// Raises the sizes of `config` that are below the program's needs, except the ones the user
/// fixed (`fixed_*`), which must suffice: otherwise InputError naming the option.
struct FixedSizes {
  bool buffer_words = false;
  bool module_words = false;
  bool local_words = false;
};
void fit_config(const MappingNeeds& needs, const FixedSizes& fixed, SystemConfig& config);

}  // namespace orthosim::sw
