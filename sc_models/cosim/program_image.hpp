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

#include "rtl/bridge/multiprocessor_rtl.hpp"
#include "sw/arch/system_config.hpp"
#include "sw/machine/machine_program.hpp"
#include "traces/recorder.hpp"

namespace orthosim::sc {

/// Consecutive words of a local memory, from `address`.
struct LocalWords {
  std::uint32_t address = 0;
  std::vector<sw::Word> words;
};

/// What the verilated machine is loaded with before a run.
struct ProcessorImage {
  /// The program, ending with a halt (an IWR step is three instructions).
  std::vector<rtl::RtlInstruction> instructions;
  /// The model's op index of each instruction (an IWR step's three are one op; the halt's is
  /// the number of ops): what the model's processor calls its pc.
  std::vector<std::uint32_t> op_of;
  /// The words of the local memory before the run: the messages this processor sends. Every
  /// other word is unwritten (sw::kUnwrittenWord, as the model's local memory reads it).
  std::vector<LocalWords> local;
  /// The index sets, as the model loads them.
  std::vector<sw::IndexSet> index_sets;
};

/// The image of `program` (valid for `config`: sw::validate) for the verilated multiprocessor of
/// `limits` (its sizes and field widths, as the bridge reports them). Throws sw::ConfigError
/// naming the processor, the op and the limit when it does not fit: more instructions than
/// IMEM - 1 (the halt needs one), a field wider than its bits (a compute's cycles past CYW, a
/// step past STW), a local address past LOCAL; and a sw::ParameterError (impl) for a
/// configuration larger than the verilated sizes (n, buffer words, index sets, module words).
/// Each op becomes rtl::RtlOps packed by rtl::encode, the encoding's one packer, which needs no
/// verilated model: tests/rtl/program_image_test.cpp checks it at any widths.
[[nodiscard]] std::vector<ProcessorImage> assemble(const sw::MachineProgram& program,
                                                   const sw::SystemConfig& config,
                                                   const rtl::MultiprocessorLimits& limits);

/// The verilated organisation of `arch`.
[[nodiscard]] rtl::MultiprocessorArch verilated_arch(sw::Arch arch);

/// The activity class processor.sv's `activity` output shows for the model's activity: the
/// halves of an IWR step are a write and a read (0 idle, 1 compute, 2 read, 3 write, 4 bus
/// switch, 5 barrier, 6 activate-sync, 7 wait-sync).
[[nodiscard]] std::uint32_t activity_class(traces::Activity activity);

}  // namespace orthosim::sc
