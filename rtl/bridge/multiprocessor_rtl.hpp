// The whole multiprocessor as one verilated unit (rtl/multiprocessor.sv: n processors, their bus
// controllers and index manipulators, the sync unit, and the omp's module array or the crossbar's
// or single bus's crossbar array), stepped from C++ with a plain API: nothing here includes a
// Verilated header (toolchain fact 4), so the SystemC systems, the assembler and the tests use it
// without seeing the generated code.
//
// Time (docs/rtl.md, "Zero-time steps and ticks" and "The multiprocessor as one unit"): a machine
// cycle is a number of zero-time steps (clock edges without `tick`: ops that take no time,
// hand-overs, grants and deliveries) until the processors and the sync unit are settled, then the
// tick edge that ends the cycle. step_cycle() does one machine cycle and returns its outputs, as
// they stand settled before the tick. The bus controllers and the memory side see tick edges only.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "traces/recorder.hpp"

namespace orthosim::rtl {

class FstTrace;

/// The three multiprocessor organisations of [PH91] Fig. 4 that multiprocessor.sv builds.
enum class MultiprocessorArch : std::uint8_t {
  Omp,       ///< n x n modules on row and column buses (module_array.sv)
  Crossbar,  ///< n buses through an n x n crossbar, n^2 modules (crossbar_array.sv, BUSES = n)
  Bus,       ///< one bus, n modules (crossbar_array.sv, BUSES = 1)
};

/// The sizes of one verilated multiprocessor and the widths of processor.sv's instruction fields
/// (docs/rtl.md, processor: op encoding): what an assembler needs. An instruction is
/// `instruction_bits` wide: a 4-bit opcode at [3:0], then the op's fields from bit 4 up.
struct MultiprocessorLimits {
  std::uint32_t n = 0;                  ///< N: processors
  std::uint32_t buffer_words = 0;       ///< L: words per data buffer, the most vectors l
  std::uint32_t index_sets = 0;         ///< S
  std::uint32_t module_words = 0;       ///< DEPTH: words per memory module
  std::uint32_t word_bits = 0;          ///< W
  std::uint32_t local_words = 0;        ///< LOCAL: words of each processor's local memory
  std::uint32_t instruction_words = 0;  ///< IMEM: instructions per processor
  std::uint32_t timing_bits = 0;        ///< TW: alpha, beta, tau, gamma registers
  std::uint32_t cost_bits = 0;          ///< the sync unit's activate, barrier, gamma registers
  std::uint32_t buses = 0;              ///< omp: n row + n column; crossbar: n; bus: 1
  std::uint32_t modules = 0;            ///< omp, crossbar: n^2; bus: n
  // Field widths (processor.sv's derived parameters).
  std::uint32_t slot_bits = 0;         ///< NB: slot, position, buffer, processor id, bus index
  std::uint32_t degree_bits = 0;       ///< NCW: degree d
  std::uint32_t vector_bits = 0;       ///< LB: buffer word
  std::uint32_t vectors_bits = 0;      ///< LCW: vectors l, words of a copy
  std::uint32_t set_bits = 0;          ///< SB: index set
  std::uint32_t address_bits = 0;      ///< AW: module word address
  std::uint32_t local_bits = 0;        ///< LAW: local memory address
  std::uint32_t pc_bits = 0;           ///< PCW
  std::uint32_t compute_bits = 0;      ///< CYW: a compute op's cycles
  std::uint32_t step_bits = 0;         ///< STW: a step mark's step
  std::uint32_t instruction_bits = 0;  ///< IW
};

/// One encoded instruction, bit k of the instruction at bit k % 64 of word k / 64.
struct RtlInstruction {
  std::array<std::uint64_t, 2> bits{};
  friend bool operator==(const RtlInstruction& a, const RtlInstruction& b) {
    return a.bits == b.bits;
  }
};

/// One op of processor.sv before encoding (docs/rtl.md, processor: op encoding). Only the fields
/// of `code` are read.
struct RtlOp {
  enum class Code : std::uint8_t {
    Halt = 0,
    Compute = 1,
    Access = 2,
    BusSwitch = 3,
    Barrier = 4,
    ActivateSync = 5,
    WaitSync = 6,
    LoadBuffer = 7,
    StoreBuffer = 8,
    StepMark = 9,
  };
  Code code = Code::Halt;
  std::uint64_t cycles = 0;  ///< Compute
  // Access: slots[p] for stream positions p = 0..d-1 (d = slots.size()).
  bool write = false;
  bool col = false;       ///< omp: the column bus CB(i)
  std::uint32_t bus = 0;  ///< crossbar: B(bus); 0 on the omp and the bus
  std::vector<std::uint32_t> slots;
  std::uint32_t address = 0;
  std::uint32_t vectors = 1;  ///< l
  std::uint32_t index_set = 0;
  std::uint32_t mask = 0;    ///< BusSwitch, Barrier: the group; ActivateSync: the targets (bit p)
  std::uint32_t source = 0;  ///< WaitSync
  // LoadBuffer / StoreBuffer: `words` words between buffer `buffer` from word `buffer_word` and
  // local memory from `local_address`.
  std::uint32_t buffer = 0;
  std::uint32_t buffer_word = 0;
  std::uint32_t local_address = 0;
  std::uint32_t words = 0;
  std::uint32_t step = 0;  ///< StepMark
};

/// `op` as processor.sv's instruction (docs/rtl.md, processor: op encoding): the opcode at
/// [3:0], then the op's fields from bit 4 up at the widths of `limits`. The one packer of the
/// encoding: MultiprocessorRtl::encode and the assembler (sc::assemble) call it, and it needs no
/// verilated model, so the encoding is tested at any widths. Throws std::invalid_argument naming
/// the field, its value, its bits and the most it takes: a value wider than its field, or past
/// its bound (a slot or buffer past n - 1, a degree past n, a bus other than 0 off the crossbar,
/// an address past DEPTH - 1, vectors or words past L, a buffer word past L - 1, a local
/// address past LOCAL - 1, an index set past S - 1).
[[nodiscard]] RtlInstruction encode(const RtlOp& op, const MultiprocessorLimits& limits,
                                    MultiprocessorArch arch);

/// Cost and timing registers (reset values: the bus controller's 16, 2, 1, 8 and the sync
/// unit's 2, 2, gamma shared).
struct MultiprocessorCosts {
  std::uint32_t alpha = 16;
  std::uint32_t beta = 2;
  std::uint32_t tau = 1;
  std::uint32_t gamma = 8;  ///< the IWR bus switch (bus controller and sync unit)
  std::uint32_t activate = 2;
  std::uint32_t barrier = 2;
};

/// A processor's outputs in one machine cycle (settled, before the tick).
struct RtlProcessorCycle {
  /// traces::Activity's classes; an access that is an IWR step's half (a write access followed
  /// by a bus switch, a read access after one, in the loaded program) is IwrWrite / IwrRead.
  traces::Activity activity = traces::Activity::Idle;
  bool running = false;
  bool finished = false;  ///< at its halt
  std::uint32_t pc = 0;
  // Statistics (processor.sv; `ops` counts an IWR step as its three ops).
  std::uint32_t ops = 0;
  std::uint32_t compute_cycles = 0;
  std::uint32_t memory_cycles = 0;
  std::uint32_t sync_cycles = 0;
};

/// A bus controller's bus in one machine cycle (its row bus, column bus or crossbar bus).
struct RtlBusCycle {
  bool valid = false;      ///< a word is on the bus
  std::uint32_t mode = 0;  ///< 0 idle, 1 row, 2 column
  bool write = false;
  std::uint32_t sel = 0;   ///< slot (when valid)
  std::uint32_t addr = 0;  ///< word address (when valid)
  std::uint32_t data = 0;  ///< the word in either direction (when valid)
  bool busy = false;
  bool done = false;  ///< the access ends in this cycle
  /// The bus driven (when mode != 0): the omp's RB(i) or CB(i) (i; mode tells which), the
  /// crossbar's B(bus), the single bus's 0. P(i)'s acc_bus, which processor.sv drives from the
  /// instruction at its pc: the bus field of the access in progress.
  std::uint32_t bus = 0;
};

/// Everything one machine cycle produced.
struct MultiprocessorCycle {
  std::uint64_t cycle = 0;  ///< machine cycles since start(), this one counted from 0
  std::uint32_t steps = 0;  ///< zero-time steps taken before the tick
  std::vector<RtlProcessorCycle> processors;
  std::vector<RtlBusCycle> buses;  ///< per bus controller
  /// Step marks passed in this cycle, in the order they passed: (processor, step).
  std::vector<std::pair<std::uint32_t, std::uint32_t>> marks;
  // The sync unit's statistics (saturating).
  std::uint32_t barriers = 0;
  std::uint32_t bus_switches = 0;
  std::uint32_t syncs_delivered = 0;
  std::uint32_t interrupt_conflicts = 0;
  std::uint32_t interrupt_wait_cycles = 0;
  bool token_overflow = false;
  bool interrupt_busy = false;
  // The memory side's arbiter (module_array or crossbar_array; saturating).
  std::uint32_t wait_cycles = 0;
  std::uint32_t conflicts = 0;
  bool collision = false;
};

class MultiprocessorRtl {
 public:
  /// Whether a verilated model exists for `arch` and `n` (rtl/limits.cmake).
  [[nodiscard]] static bool built(MultiprocessorArch arch, std::uint32_t n);
  /// The n built for `arch`, ascending, e.g. "2, 4".
  [[nodiscard]] static std::string built_list(MultiprocessorArch arch);

  /// Builds the verilated multiprocessor and resets it (reset()). Throws std::invalid_argument
  /// naming arch and n when no model is built for them. With `fst`, its signals go to the
  /// waveform under scope `name` (register during elaboration, see FstTrace).
  MultiprocessorRtl(MultiprocessorArch arch, std::uint32_t n, FstTrace* fst = nullptr,
                    const std::string& name = "multiprocessor");
  ~MultiprocessorRtl();
  MultiprocessorRtl(const MultiprocessorRtl&) = delete;
  MultiprocessorRtl& operator=(const MultiprocessorRtl&) = delete;

  [[nodiscard]] MultiprocessorArch arch() const;
  [[nodiscard]] const MultiprocessorLimits& limits() const;
  /// rtl::encode(op, limits(), arch()).
  [[nodiscard]] RtlInstruction encode(const RtlOp& op) const;

  /// rst_n over one tick edge: every processor stopped, the cost registers at their reset values,
  /// counters and arbiters cleared, no tokens. Storage (programs, memories, index sets) is kept.
  void reset();
  /// Writes the cost registers (takes effect before the next start()).
  void set_costs(const MultiprocessorCosts& costs);

  // Loads and inspections take no machine cycle (the verilated memories are written directly).
  // Load before start(): the model evaluates what a memory feeds at its next edge.
  /// Processor p's program from instruction 0; the rest of its memory is left. Throws
  /// std::invalid_argument when it is longer than limits().instruction_words.
  void load_program(std::uint32_t p, const std::vector<RtlInstruction>& program);
  /// Index set `set` of P(p)'s index manipulator: rho(pos) := buffer.
  void write_index(std::uint32_t p, std::uint32_t set, std::uint32_t pos, std::uint32_t buffer);
  void write_local(std::uint32_t p, std::uint32_t address, std::uint32_t word);
  [[nodiscard]] std::uint32_t read_local(std::uint32_t p, std::uint32_t address) const;
  /// Word `word` of data buffer `buffer` of P(p)'s index manipulator.
  void write_buffer(std::uint32_t p, std::uint32_t buffer, std::uint32_t word, std::uint32_t value);
  [[nodiscard]] std::uint32_t read_buffer(std::uint32_t p, std::uint32_t buffer,
                                          std::uint32_t word) const;
  /// Module M(a, b): omp M(row a, column b); crossbar M(bus a, slot b); bus M(0, slot b).
  void write_module(std::uint32_t a, std::uint32_t b, std::uint32_t address, std::uint32_t word);
  [[nodiscard]] std::uint32_t read_module(std::uint32_t a, std::uint32_t b,
                                          std::uint32_t address) const;
  /// Every module word, data buffer word and local memory word := `word` (the model's
  /// unwritten-word marker before a program).
  void fill_storage(std::uint32_t word);

  /// `go`: every processor starts at instruction 0; the cycle count restarts at 0.
  void start();
  /// One machine cycle: zero-time steps until the processors and the sync unit are settled, then
  /// the tick edge. Returns the cycle's outputs (as outputs()). Throws std::logic_error when a
  /// cycle takes more than 4096 zero-time steps (a unit that does not settle).
  const MultiprocessorCycle& step_cycle();
  /// The outputs of the last step_cycle().
  [[nodiscard]] const MultiprocessorCycle& outputs() const;
  /// Instruction `pc` of P(p)'s loaded program, decoded from the bits written to its
  /// instruction memory: the code and, for an access, its fields (write, col, bus, slots,
  /// address, vectors, index_set); the other ops' fields are left at their defaults. A pc past
  /// the program reads as a halt. What the unit does at that pc: the access P(p)'s bus
  /// controller performs while its processor is there (the event trace's access records).
  [[nodiscard]] const RtlOp& loaded_op(std::uint32_t p, std::uint32_t pc) const;
  /// Every processor is at its halt (as of now, after the last tick).
  [[nodiscard]] bool finished() const;
  /// Machine cycles since start() (the ticks step_cycle() took).
  [[nodiscard]] std::uint64_t cycles() const;
  /// Clock edges given to the verilated model since construction (steps, ticks, resets, loads).
  [[nodiscard]] std::uint64_t edges() const;
  /// Calls to the verilated model's eval() since construction.
  [[nodiscard]] std::uint64_t evaluations() const;

 private:
  struct Dut;
  template <class V>
  struct DutOf;
  std::unique_ptr<Dut> dut_;
  MultiprocessorArch arch_;
  MultiprocessorLimits limits_;
  /// Per processor, per instruction: loaded_op().
  std::vector<std::vector<RtlOp>> programs_;
  MultiprocessorCycle out_;
  std::uint64_t cycles_ = 0;
};

}  // namespace orthosim::rtl
