// CALMANT ([CALMANT]): a d-dimensional CC-cube algorithm mapped onto a one-port wormhole line or
// c-dimensional mesh of 2^d nodes by the standard embedding (section 2.3), pipelined with degree Q
// (section 2.4), each iteration's communication task <i,M>_c performed by the message schedules
// of sections 3.2 and 4.2, written out as `Schedule`s that the checker of sw/schedule proves
// one-port, link-exclusive and complete on the network's own routes. Free of SystemC.
//
// Readings where the OCR text is garbled or contradicts itself (docs/calmant.md):
// - Theorem 1 with its parentheses restored: (2^(i+M+1) - 2^(i+1))/3 for even M,
//   (2^(i+M+1) - 2^i)/3 for odd M (brute force on a line of 2^10 nodes agrees).
// - Section 3.2.2's groups are g'(m) = m mod 2^i (Fig. 5's four groups for i = 2 and
//   P<i,1>_1 = 2^i); the printed m mod 2^(i+1) takes twice the steps.
// - Lemma 2's conditions read "i <= 1" (c = 2) and "i <= 4" (c = 3): with ">=" the bound fails at
//   i = 0 (e.g. <0,8>_2 exceeds the sum of lower bounds by 2).
// - Section 4.3's correction r: 1 when c < x < 2c, x > lambda_max<i,x>_c and x is odd
//   (x = M mod 2c), agreeing with Property 3.
// - Section 4.2.3's step rule is not conflict-free for c = 3, x = 4; the checker reports it and
//   task_schedule reschedules the same messages in LB steps by a search (fit_in_steps), or by
//   first fit where the search gives up.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sw/schedule/schedule.hpp"
#include "sw/topology/topology.hpp"

namespace orthosim::sw::calmant {

/// A d-dimensional CC-cube on a (2^(d/c) x ... x 2^(d/c)) c-dimensional mesh, c = 1 (a line), 2
/// or 3, by the standard embedding of [CALMANT] section 2.3: bit l of the coordinate on axis j is
/// bit j + l c of the process number, m_(j,l) = n_(j+lc). Dimension k of the cube runs along axis
/// k mod c, at distance 2^(k div c) (equation 2).
struct CubeOnMesh {
  std::uint32_t d = 0;
  std::uint32_t c = 1;

  /// Throws std::invalid_argument unless 1 <= c <= 3, c divides d, d/c >= 1 and the mesh has at
  /// most Topology::max_nodes nodes.
  CubeOnMesh(std::uint32_t cube_dimension, std::uint32_t axes);
  /// The CC-cube a mesh holds: every radix the same power of two 2^(d/c) >= 2. Throws
  /// std::invalid_argument for a torus, a hypercube or other radices.
  static CubeOnMesh of(const Topology& mesh);

  [[nodiscard]] std::uint32_t side() const { return 1u << (d / c); }
  [[nodiscard]] std::uint32_t nodes() const { return 1u << d; }
  [[nodiscard]] Topology mesh() const;
  /// f_std(n): the mesh node (Topology numbering) of process n.
  [[nodiscard]] NodeId node_of(std::uint32_t process) const;
  /// The process a mesh node holds (the inverse of node_of).
  [[nodiscard]] std::uint32_t process_of(NodeId node) const;
  /// Coordinate of `process`'s node on `axis`: its bits axis, axis + c, axis + 2c, ...
  [[nodiscard]] std::uint32_t coordinate(std::uint32_t process, std::uint32_t axis) const;
};

/// The task <i,M>_c of [CALMANT] section 2.5: every process exchanges one message with its
/// neighbour along each of the dimensions i .. i+M-1.
struct Task {
  std::uint32_t first = 0;  ///< i
  std::uint32_t count = 0;  ///< M
  friend bool operator==(Task a, Task b) { return a.first == b.first && a.count == b.count; }
};

/// "<i,M>_c".
[[nodiscard]] std::string to_string(Task task, std::uint32_t c);

/// The task's messages as (source node, destination node), every process and dimension.
[[nodiscard]] std::vector<std::pair<NodeId, NodeId>> task_pairs(const CubeOnMesh& cube, Task task);
/// lambda_max<i,M>_c by routing every message of the task on the mesh's dimension-ordered routes
/// (Topology::route, directed_link_loads): the most messages on one directed link.
[[nodiscard]] std::uint64_t lambda_max_routed(const CubeOnMesh& cube, Task task);
/// Theorem 1: lambda_max<i,M>_1 on a line, (2^(i+M+1) - 2^(i+1))/3 (M even) or
/// (2^(i+M+1) - 2^i)/3 (M odd); 0 for M = 0.
[[nodiscard]] std::uint64_t lambda_max_line(Task task);
/// Theorem 3: lambda_max<i,M>_c = lambda_max<floor((i + (M-1) mod c)/c), ceil(M/c)>_1
/// (Theorem 1 for c = 1).
[[nodiscard]] std::uint64_t lambda_max(std::uint32_t c, Task task);
/// Theorems 2 and 4: LB<i,M>_c = max(lambda_max<i,M>_c, M).
[[nodiscard]] std::uint64_t lower_bound(std::uint32_t c, Task task);
/// The decomposition into subtasks: section 3.2 on a line (<i+2k,2>_1, with <i,1>_1 first for
/// odd M), section 4.2 on a mesh (<i+M-2kc,2c>_c for k = 1..floor(M/2c), then <i,M mod 2c>_c).
[[nodiscard]] std::vector<Task> decomposition(std::uint32_t c, Task task);
/// Lemma 2's bound on the sum of the subtasks' lower bounds minus LB<i,M>_c: 2 for c = 2,
/// M >= 7, i <= 1; 4 for c = 3, M >= 9, i <= 4; else 0 (the relation read as "<=").
[[nodiscard]] std::uint64_t lemma2_bound(std::uint32_t c, Task task);
/// Section 4.3's r for the remainder subtask <i, M mod 2c>_c (the reading of docs/calmant.md):
/// 1 when c < x < 2c, x > lambda_max<i,x>_c and x is odd, else 0. Always 0 on a line.
[[nodiscard]] std::uint64_t correction_r(std::uint32_t c, Task task);
/// Section 4.3: P<i,M>_c = sum of the subtasks' LB + r (section 3.3 on a line: LB<i,M>_1).
[[nodiscard]] std::uint64_t steps_formula(std::uint32_t c, Task task);

/// Which of the paper's rules schedules a subtask.
enum class Rule : std::uint8_t {
  LinePair,     ///< section 3.2.1, <i,2>_1
  LineSingle,   ///< section 3.2.2, <i,1>_1
  MeshFull,     ///< section 4.2.1, <i,2c>_c
  MeshUpToC,    ///< section 4.2.2, <i,x>_c, 1 <= x <= c
  MeshBetween,  ///< section 4.2.3, <i,x>_c, c < x < 2c
};
[[nodiscard]] std::string to_string(Rule rule);
/// The rule for a subtask of decomposition(c, ...). Throws std::invalid_argument for a task no
/// rule covers (M = 0, M > 2 on a line, M > 2c on a mesh).
[[nodiscard]] Rule rule_of(std::uint32_t c, Task subtask);

/// The tag of the block that dimension k's message carries (the pipelined CC-cube tags the packet
/// number; a lone task tags 0).
using BlockTag = std::function<std::uint32_t(std::uint32_t dimension)>;

/// A subtask scheduled by its rule exactly as printed (with the readings above): one step per
/// communication step, each message one block (origin = source node, destination, tag). A step
/// the rule leaves empty is left out (4.2.3 with a level-0 dimension k+c alone on its axis: that
/// axis exchanges in the first step of its pair, and a pair's second step can stay empty).
[[nodiscard]] Schedule printed_subtask_schedule(const CubeOnMesh& cube, Task subtask,
                                                const BlockTag& tag = nullptr);
/// The messages of `schedule` in step order, each placed in the earliest step where its sender
/// sends nothing, its receiver receives nothing and no directed link of its route is taken
/// (first fit): a conflict-free schedule of the same messages.
[[nodiscard]] Schedule first_fit(const Topology& net, const Schedule& schedule);

/// The messages of `schedule` in at most `steps` steps, no two of a step sharing a sender, a
/// receiver or a directed link of their routes: a colouring of their conflict graph with `steps`
/// colours by tabu search (Hertz and de Werra's Tabucol), starting from each message's own step
/// mod `steps`, with a fixed seed (the same result everywhere). std::nullopt when it has not found
/// one after `budget` moves (then one may still exist).
[[nodiscard]] std::optional<Schedule> fit_in_steps(const Topology& net, const Schedule& schedule,
                                                   std::uint32_t steps, std::uint64_t budget);

/// How a subtask's printed schedule was repaired where it conflicts.
enum class Repair : std::uint8_t {
  None,      ///< the printed rule is conflict-free
  Search,    ///< fit_in_steps found LB steps
  FirstFit,  ///< the search gave up: first_fit
};
[[nodiscard]] std::string to_string(Repair repair);

/// One subtask in a task's schedule.
struct SubtaskPlan {
  Task task;
  Rule rule = Rule::LinePair;
  std::uint64_t lower_bound = 0;
  /// The steps the printed rule spans (2 ceil(LB/2) in section 4.2.3), empty ones included.
  std::uint32_t printed_steps = 0;
  bool printed_conflict_free = true;
  Repair repair = Repair::None;
  /// The steps used: the printed rule's, or the repair's (`repair`) when the rule conflicts.
  std::uint32_t steps = 0;
};

/// The task <i,M>_c performed subtask after subtask ([CALMANT] sections 3.2 and 4.2): each by its
/// printed rule, checked by check_schedule; a subtask whose printed schedule is not conflict-free
/// (section 4.2.3, c = 3, x = 4) is rescheduled in LB steps by fit_in_steps (a budget of 200
/// moves per message), or by first_fit where that search gives up.
struct TaskSchedule {
  Schedule schedule;
  std::vector<SubtaskPlan> subtasks;
  [[nodiscard]] std::uint32_t steps() const {
    return static_cast<std::uint32_t>(schedule.steps.size());
  }
};
[[nodiscard]] TaskSchedule task_schedule(const CubeOnMesh& cube, Task task,
                                         const BlockTag& tag = nullptr);

// ---- the pipelined CC-cube (sections 2.4, 3.3, 4.3, Appendix A.3) -------------------------------

enum class Phase : std::uint8_t { Prologue, Kernel, Epilogue };
[[nodiscard]] std::string to_string(Phase phase);

/// One iteration of the pipelined CC-cube: its phase and communication task. In iteration t
/// (0-based) dimension k sends packet t - k of x_k, for every k with 0 <= t - k < Q.
struct Iteration {
  Phase phase = Phase::Prologue;
  Task task;
};
/// The d + Q - 1 iterations: shallow (Q < d): prologue <0,k>, k = 1..Q-1; kernel <k-1,Q>,
/// k = 1..d-Q+1; epilogue <d-Q+k,Q-k>, k = 1..Q-1. Deep (Q >= d): prologue <0,k>, k = 1..d-1;
/// kernel Q-d+1 times <0,d>; epilogue <k,d-k>, k = 1..d-1. Throws std::invalid_argument for Q = 0.
[[nodiscard]] std::vector<Iteration> pipeline_iterations(std::uint32_t d, std::uint32_t q);

/// The machine of the cost model: T = P (beta + L tau) per task plus b per barrier.
struct CostParameters {
  double beta = 0;  ///< start-up of a message
  double tau = 1;   ///< per word
  double b = 0;     ///< a barrier
};
/// The pipelined CC-cube's communication cost: sum over the iterations of P (beta + (N/Q) tau)
/// plus (d + Q - 1) b (sections 3.3 and 4.3), with `steps` the P of each iteration.
[[nodiscard]] double pipeline_cost(const std::vector<std::uint64_t>& steps, std::uint32_t n_words,
                                   std::uint32_t q, const CostParameters& cost);
/// Appendix A.3's closed forms: 18 x the steps they count (T_shallow for Q <= d, T_deep for
/// Q >= d; both agree at Q = d), for a line (c = 1) or a c-dimensional mesh. On a line they equal
/// the sum of LB over the iterations; on a mesh the sum of lambda_max (they leave out the one-port
/// bound M).
[[nodiscard]] std::uint64_t appendix_steps_times_18(std::uint32_t c, std::uint32_t d,
                                                    std::uint32_t q);

/// How the program of a pipelined CC-cube sends each iteration's messages.
enum class Scheduling : std::uint8_t {
  Calmant,  ///< task_schedule: one program step per communication step
  Naive,    ///< every message of an iteration in one step, no schedule
};

struct PipelineProgram {
  std::uint32_t n_words = 0;         ///< N: the words of each x_i
  std::uint32_t q = 1;               ///< the pipelining degree
  std::uint64_t compute_cycles = 0;  ///< each node's computation per iteration (before it sends)
  std::uint64_t barrier_cycles =
      0;  ///< a barrier after each iteration, as a step of this many cycles; 0: none
  Scheduling scheduling = Scheduling::Calmant;
};

/// The pipelined CC-cube as a schedule of blocks of N/Q words (tag = packet number): per
/// iteration its compute (LocalWork before the first step), its steps, then its barrier step.
/// Throws std::invalid_argument unless Q divides N.
struct PipelineSchedule {
  Schedule schedule;
  std::vector<Iteration> iterations;
  std::vector<std::uint32_t> iteration_steps;  ///< communication steps of each iteration (P)
};
[[nodiscard]] PipelineSchedule pipeline_schedule(const CubeOnMesh& cube, const PipelineProgram& p);

// ---- the complete exchange (section 5) ------------------------------------------------------------

/// [CALMANT] section 5.1, Johnsson and Ho's CC-cube complete exchange on the d-cube's own labels
/// (node n = process n), unpipelined: node n holds block (n, j) in position j; after the initial
/// permutation position j holds block (n, n xor j); in iteration i every node sends its neighbour
/// along dimension i the blocks of the positions with bit i set, in reverse order of position,
/// and stores the blocks it receives in the same positions; the final permutation (the same xor)
/// leaves block (n, j) at node j in position j. One step per dimension, every block tracked
/// (complete_exchange_blocks). Throws std::invalid_argument for d outside 1..16.
[[nodiscard]] Schedule cc_cube_complete_exchange(std::uint32_t d);

/// The complete exchange on the mesh by CALMANT: the CC-cube of section 5.1 pipelined with degree
/// Q (packets of 2^(d-1)/Q blocks, Q dividing 2^(d-1)), each iteration scheduled by
/// task_schedule; Q = 1 is the original CC-cube, dimension after dimension, each in
/// lambda_max<i,1>_c = 2^(i div c) conflict-free steps. Nodes are mesh nodes. Throws
/// std::invalid_argument for a Q that does not divide 2^(d-1).
[[nodiscard]] Schedule calmant_complete_exchange(const CubeOnMesh& cube, std::uint32_t q);

/// The direct method: 2^d - 1 rounds; in round r every node n sends block (n, n xor r) straight to
/// its destination (mesh nodes, standard embedding). A round's routes may share links.
[[nodiscard]] Schedule direct_complete_exchange(const CubeOnMesh& cube);

}  // namespace orthosim::sw::calmant
