// The 4-step mapping methodology of [PH91] section 4.2: a multicomputer program becomes memory
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
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sw/arch/system_config.hpp"
#include "sw/machine/machine_program.hpp"
#include "sw/pattern/pattern.hpp"
#include "sw/program/program.hpp"

namespace orthosim::sw {

/// A torus program's node grid as the clustering sees it ([PH91] section 5.3, Fig. 11): node
/// x + columns * y, clustered by columns (processor x) or by rows (processor y).
struct TorusClusters {
  std::uint32_t columns = 0;
  std::uint32_t rows = 0;
  bool by_columns = true;
};

/// Nodes to processors ([PH91] section 5, first step: m nodes in n clusters of m/n).
class Clustering {
 public:
  /// Blocks of consecutive nodes: node i on processor floor(i n / m).
  static Clustering blocks(std::uint32_t nodes, std::uint32_t processors);
  /// A hypercube of 2^p nodes on 2^q processors: the p - q `collapsed` dimensions become
  /// intra-cluster, a node runs on the processor numbered by its remaining address bits
  /// (Fig. 10). Throws ParameterError on collapse when the counts or dimensions do not fit.
  static Clustering hypercube(std::uint32_t nodes, std::uint32_t processors,
                              const std::vector<std::uint32_t>& collapsed);
  /// The `count` dimensions of a 2^p-node program that its messages cross most often (words
  /// weighted; ties to the lower dimension): collapsing them saves the most memory traffic.
  static std::vector<std::uint32_t> most_used_dimensions(const McProgram& program,
                                                         std::uint32_t count);
  /// A columns x rows torus by columns (processor x, columns processors) or by rows (processor y,
  /// rows processors) (Fig. 11(a)). Throws ParameterError on torus when the grid is not the
  /// program's node count.
  static Clustering torus(std::uint32_t nodes, TorusClusters grid);

  [[nodiscard]] ProcId processor_of(NodeId node) const { return map_.at(node); }
  [[nodiscard]] std::uint32_t nodes() const { return static_cast<std::uint32_t>(map_.size()); }
  [[nodiscard]] std::uint32_t processors() const { return processors_; }
  [[nodiscard]] const std::optional<TorusClusters>& torus_grid() const { return torus_; }
  /// "blocks of 2 consecutive nodes", "hypercube with x0 collapsed", "torus 4x4 by columns".
  [[nodiscard]] const std::string& description() const { return description_; }

 private:
  Clustering(std::vector<ProcId> map, std::uint32_t processors, std::string description);

  std::vector<ProcId> map_;
  std::uint32_t processors_ = 0;
  std::string description_;
  std::optional<TorusClusters> torus_;
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
  /// Its words in the mailbox from `address`: the longest parcel of the accesses that share its
  /// address (a write of several parcels writes that many words into each of their modules).
  std::uint32_t span = 0;
  std::uint32_t phase = 0;  ///< the IWR step that moves it (see MappedOp::phase)
};

/// One access of one processor in a mapped step.
struct MappedAccess {
  ProcId processor = 0;
  Direction direction = Direction::Write;
  BusRef bus;
  std::vector<std::uint32_t> slots;  ///< stream order
  std::vector<std::size_t> parcels;  ///< into MappedStep::parcels, aligned with slots
  bool replicated = false;           ///< a broadcast write: every slot from one data buffer
  std::uint32_t vectors = 1;         ///< l: the longest parcel of the access
  std::uint32_t address = 0;
  /// A relay (the second IWR step of a torus shift, Fig. 11(b)): the write takes the words the
  /// processor's previous read left in its data buffers, through `relay_index_set`, instead of
  /// loading its parcels from local memory.
  bool from_buffers = false;
  IndexSet relay_index_set;
};

/// One operation of the paper's listing, e.g. C2_send((P1 -> M1,2), (P3 -> M3,0)): the accesses
/// of one pattern half that form one operation.
struct MappedOp {
  Pattern pattern = Pattern::C1;           ///< a basic pattern, C1..C7
  Direction direction = Direction::Write;  ///< write = send, read = receive
  std::vector<MappedAccess> accesses;
  /// The IWR step of the program step it belongs to: 0, or 0 and 1 for a torus shift done in two
  /// IWR steps (Fig. 11(b)). Each processor does a phase's writes, then its reads, then the next.
  std::uint32_t phase = 0;
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
  /// Table 1 patterns of the node-level step ([PH91] section 2), e.g. C10 and C8 for Step 5.
  std::vector<PatternInstance> node_patterns;
  /// Patterns of the processor-level step after clustering, before reduction to CS.
  std::vector<Pattern> processor_patterns;
  std::vector<Parcel> parcels;
  std::vector<MappedOp> ops;  ///< listing order: per pattern, send operations then receives
  std::vector<LocalCopy> local_copies;
  std::vector<Cycle> compute;  ///< per processor: compute cycles at the start of the step
};

/// How the read half of a step waits for its write half.
enum class SyncMode : std::uint8_t {
  /// Every writer raises an activate-sync at its readers after each write, every reader waits
  /// for one from each of its writers ([PH91] section 4.3): producer-consumer, per message.
  Pairs,
  /// IWR steps: the processors of a step meet in one bus switch after their writes, which costs
  /// gamma, and then read ([PH91] Eq. 1 plus gamma, the cost Tables 2, 4 and 5 count).
  BusSwitch,
};
[[nodiscard]] std::string to_string(SyncMode mode);

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
  std::vector<ProcId> processor_of;  ///< per node
  std::string clustering;            ///< Clustering::description()
  SyncMode sync = SyncMode::Pairs;
  std::vector<MappedStep> steps;
  std::size_t node_messages = 0;
  MappingNeeds needs;
  /// The program each processor runs; validate it against a SystemConfig with at least `needs`.
  MachineProgram machine;
};

/// Takes each mapped step once its ops are in the machine program, in step order. Given to
/// map_program, it receives the steps instead of MappedProgram::steps, so that a caller that keeps
/// only a summary of each step never holds them all (`orthosim run`'s table).
using StepSink = std::function<void(MappedStep&& step)>;

/// Maps `program` onto `processors` processors of configuration `arch`, nodes in blocks. Throws
/// ParameterError on n when processors is 0 or exceeds kMaxProcessors.
[[nodiscard]] MappedProgram map_program(const McProgram& program, Arch arch,
                                        std::uint32_t processors);
/// The same with a chosen clustering. On the omp, a torus clustered by columns (rows) maps a
/// step in which every node sends one message to the node (a, b) away with a != 0 across the
/// clusters as the two IWR steps of Fig. 11(b): column write and row read, then a row write
/// through a rotating index set and a column read.
/// With `sink`, the steps go to it and MappedProgram::steps stays empty.
[[nodiscard]] MappedProgram map_program(const McProgram& program, Arch arch,
                                        const Clustering& clustering,
                                        SyncMode sync = SyncMode::Pairs, const StepSink& sink = {});
/// The same, consuming `program`: each of its steps is freed once mapped, so the program as
/// read and the machine program are never both held whole.
[[nodiscard]] MappedProgram map_program(McProgram&& program, Arch arch,
                                        const Clustering& clustering,
                                        SyncMode sync = SyncMode::Pairs, const StepSink& sink = {});

/// Raises the sizes of `config` that are below the program's needs, except the ones the user
/// fixed (`fixed_*`), which must suffice: otherwise ParameterError on that size.
struct FixedSizes {
  bool buffer_words = false;
  bool module_words = false;
  bool local_words = false;
};
void fit_config(const MappingNeeds& needs, const FixedSizes& fixed, SystemConfig& config);

}  // namespace orthosim::sw
