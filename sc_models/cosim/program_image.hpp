// The assembler of the verilated processor (rtl/processor.sv): a machine program
// (docs/machine-program.md) as the instruction words of each processor's instruction memory, in
// the op encoding of docs/rtl.md ("processor", "Op encoding"), and the words each local memory
// holds before the run. What the model generates and checks on the fly (sw::MessageMemory: a
// sender's message words generated when a LoadBuffer reads them, a receiver's checked when a
// StoreBuffer writes them) is in the RTL a plain local memory, loaded before the run and read
// back after it (sw::check_delivery). Free of SystemC and of Verilated headers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sw/arch/system_config.hpp"
#include "sw/machine/machine_program.hpp"
#include "traces/recorder.hpp"

namespace orthosim::sc {

/// The parameters of processor.sv that decide the encoding and what fits, and the field widths
/// it derives from them (processor.sv's localparams, each at least 1).
struct ProcessorWidths {
  std::uint32_t n = 4;              ///< N: processors, slots on a bus, data buffers
  std::uint32_t buffer_words = 8;   ///< L: words per data buffer, the most vectors
  std::uint32_t index_sets = 4;     ///< S
  std::uint32_t module_words = 16;  ///< DEPTH: words per memory module
  std::uint32_t local_words = 64;   ///< LOCAL: words of local memory
  std::uint32_t imem_words = 64;    ///< IMEM: instruction words
  std::uint32_t cycle_bits = 24;    ///< CYW: bits of a compute's cycle count
  std::uint32_t step_bits = 16;     ///< STW: bits of a step mark's step

  [[nodiscard]] unsigned nb() const;   ///< slot, buffer, processor
  [[nodiscard]] unsigned ncw() const;  ///< degree d (0..N)
  [[nodiscard]] unsigned lb() const;   ///< buffer word
  [[nodiscard]] unsigned lcw() const;  ///< vectors l, copy words (0..L)
  [[nodiscard]] unsigned sb() const;   ///< index set
  [[nodiscard]] unsigned aw() const;   ///< module word address
  [[nodiscard]] unsigned law() const;  ///< local memory address
  /// Bits of an instruction: 4 + the widest op's fields.
  [[nodiscard]] unsigned instruction_bits() const;
  /// 32-bit chunks of an instruction (Verilator's layout of a wide signal).
  [[nodiscard]] unsigned instruction_chunks() const { return (instruction_bits() + 31) / 32; }
};

/// processor.sv's opcodes (docs/rtl.md, the op encoding's table).
enum class Opcode : std::uint8_t {
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

/// One instruction: its bits in 32-bit chunks, least significant first (instruction_chunks()).
using Instruction = std::vector<std::uint32_t>;

/// Consecutive words of a local memory, from `address`.
struct LocalWords {
  std::uint32_t address = 0;
  std::vector<sw::Word> words;
};

/// What the verilated machine is loaded with before a run.
struct ProcessorImage {
  /// The program, ending with a halt (an IWR step is three instructions).
  std::vector<Instruction> instructions;
  /// The words of the local memory before the run: the messages this processor sends. Every
  /// other word is unwritten (sw::kUnwrittenWord, as the model's local memory reads it).
  std::vector<LocalWords> local;
  /// The index sets, as the model loads them.
  std::vector<sw::IndexSet> index_sets;
};

/// The image of `program` (valid for `config`: sw::validate) for processors of `widths`. Throws
/// sw::ConfigError naming the processor, the op and the limit when it does not fit: more
/// instructions than IMEM - 1 (the halt needs one), a field wider than its bits (a compute's
/// cycles past CYW, a step past STW), a local address past LOCAL, or a configuration larger than
/// the verilated sizes (n, buffer words, index sets, module words).
[[nodiscard]] std::vector<ProcessorImage> assemble(const sw::MachineProgram& program,
                                                   const sw::SystemConfig& config,
                                                   const ProcessorWidths& widths);

/// The activity class processor.sv's `activity` output shows for the model's activity: the
/// halves of an IWR step are a write and a read (0 idle, 1 compute, 2 read, 3 write, 4 bus
/// switch, 5 barrier, 6 activate-sync, 7 wait-sync).
[[nodiscard]] std::uint32_t activity_class(traces::Activity activity);

}  // namespace orthosim::sc
