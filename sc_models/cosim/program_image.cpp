// The verilated processor's assembler: machine-program ops -> processor.sv's instruction words.
#include "sc_models/cosim/program_image.hpp"

#include <stdexcept>
#include <utility>
#include <variant>

#include "sw/core/diagnostic.hpp"
#include "sw/machine/describe.hpp"
#include "sw/machine/payload.hpp"

namespace orthosim::sc {

std::uint32_t activity_class(traces::Activity activity) {
  switch (activity) {
    case traces::Activity::Compute:
      return 1;
    case traces::Activity::Read:
    case traces::Activity::IwrRead:
      return 2;
    case traces::Activity::Write:
    case traces::Activity::IwrWrite:
      return 3;
    case traces::Activity::BusSwitch:
      return 4;
    case traces::Activity::Barrier:
      return 5;
    case traces::Activity::ActivateSync:
      return 6;
    case traces::Activity::WaitSync:
      return 7;
    case traces::Activity::Idle:
    case traces::Activity::WaitMessage:
      break;
  }
  return 0;
}

rtl::MultiprocessorArch verilated_arch(sw::Arch arch) {
  switch (arch) {
    case sw::Arch::Omp:
      return rtl::MultiprocessorArch::Omp;
    case sw::Arch::Crossbar:
      return rtl::MultiprocessorArch::Crossbar;
    case sw::Arch::Bus:
      break;
  }
  return rtl::MultiprocessorArch::Bus;
}

namespace {

using Opcode = rtl::RtlOp::Code;

/// Translates one processor's ops into rtl::RtlOps, op by op, and packs each with rtl::encode.
class Assembler {
 public:
  Assembler(const sw::MachineProgram& program, const sw::SystemConfig& config,
            const rtl::MultiprocessorLimits& widths)
      : program_(program),
        org_(config.organization()),
        arch_(verilated_arch(config.arch)),
        w_(widths) {}

  /// P(p)'s instructions, and the op index of each in op_of_.
  std::vector<rtl::RtlInstruction> processor(sw::ProcId p) {
    proc_ = p;
    out_.clear();
    op_of_.clear();
    op_index_ = 0;
    for (const sw::Op& op : program_.processors[p].ops) {
      op_ = &op;
      std::visit([this](const auto& o) { encode(o); }, op);
      ++op_index_;
    }
    op_ = nullptr;
    emit(rtl::RtlOp{});  // the halt
    return std::move(out_);
  }

  [[noreturn]] void fail(const std::string& what) const {
    std::string where = "P" + std::to_string(proc_);
    if (op_ != nullptr) {
      where += " op " + std::to_string(op_index_) + " (" + sw::describe(*op_, org_) + ")";
    }
    throw sw::ConfigError(where + ": " + what);
  }

  std::vector<std::uint32_t> op_of_;

 private:
  /// Appends `op`'s instruction, or fails naming the field rtl::encode refuses or IMEM.
  void emit(const rtl::RtlOp& op) {
    if (out_.size() + 1 >= w_.instruction_words && op.code != Opcode::Halt) {
      fail("the program does not fit the RTL processor's instruction memory of " +
           std::to_string(w_.instruction_words) + " instructions (IMEM, a halt included)");
    }
    try {
      out_.push_back(rtl::encode(op, w_, arch_));
    } catch (const std::invalid_argument& e) {
      fail(std::string("its ") + e.what());
    }
    op_of_.push_back(static_cast<std::uint32_t>(op_index_));
  }

  static rtl::RtlOp of(Opcode code) {
    rtl::RtlOp op;
    op.code = code;
    return op;
  }

  static std::uint32_t mask(const sw::ProcSet& set) {
    std::uint32_t m = 0;
    for (sw::ProcId p : set.members()) {
      m |= std::uint32_t{1} << p;  // p < n < 32: check_sizes keeps IW <= 128
    }
    return m;
  }

  static rtl::RtlOp with_mask(Opcode code, const sw::ProcSet& set) {
    rtl::RtlOp op = of(code);
    op.mask = mask(set);
    return op;
  }

  void encode(const sw::Compute& op) {
    rtl::RtlOp o = of(Opcode::Compute);
    o.cycles = op.cycles.count();
    emit(o);
  }

  void access(const sw::MemoryAccess& a) {
    rtl::RtlOp o = of(Opcode::Access);
    o.write = a.direction == sw::Direction::Write;
    o.col = a.bus.kind == sw::BusKind::Column;
    // Only the crossbar's controllers choose a bus; on the omp BC(i) drives RB(i) and CB(i).
    o.bus = org_.arch() == sw::Arch::Crossbar ? a.bus.index : 0;
    o.slots = a.slots;
    o.address = a.address;
    o.vectors = a.vectors;
    o.index_set = a.index_set;
    emit(o);
  }

  void encode(const sw::MemoryAccess& op) { access(op); }

  void encode(const sw::Iwr& op) {
    access(op.write());
    emit(with_mask(Opcode::BusSwitch, op.group()));
    access(op.read());
  }

  void encode(const sw::BusSwitch& op) { emit(with_mask(Opcode::BusSwitch, op.group)); }
  void encode(const sw::Barrier& op) { emit(with_mask(Opcode::Barrier, op.group)); }
  void encode(const sw::ActivateSync& op) { emit(with_mask(Opcode::ActivateSync, op.targets)); }

  void encode(const sw::WaitSync& op) {
    rtl::RtlOp o = of(Opcode::WaitSync);
    o.source = op.source;
    emit(o);
  }

  template <class Copy>
  void copy(Opcode opcode, const Copy& op) {
    if (std::uint64_t{op.local_address} + op.words > w_.local_words) {
      fail("its local words " + std::to_string(op.local_address) + ".." +
           std::to_string(std::uint64_t{op.local_address} + op.words - 1) +
           " are past the RTL processor's local memory of " + std::to_string(w_.local_words) +
           " words (LOCAL)");
    }
    rtl::RtlOp o = of(opcode);
    o.buffer = op.buffer;
    o.buffer_word = op.buffer_address;
    o.local_address = op.local_address;
    o.words = op.words;
    emit(o);
  }

  void encode(const sw::LoadBuffer& op) { copy(Opcode::LoadBuffer, op); }
  void encode(const sw::StoreBuffer& op) { copy(Opcode::StoreBuffer, op); }

  void encode(const sw::StepMark& op) {
    rtl::RtlOp o = of(Opcode::StepMark);
    o.step = op.step;
    emit(o);
  }

  const sw::MachineProgram& program_;
  const sw::MemoryOrganization org_;
  const rtl::MultiprocessorArch arch_;
  const rtl::MultiprocessorLimits& w_;
  sw::ProcId proc_ = 0;
  std::size_t op_index_ = 0;
  const sw::Op* op_ = nullptr;
  std::vector<rtl::RtlInstruction> out_;
};

/// Refuses a configuration larger than the verilated processor's sizes, keyed by the parameter
/// (impl for the index sets, which the program decides, and the bridge's width, which the build
/// does).
void check_sizes(const sw::SystemConfig& config, const rtl::MultiprocessorLimits& w) {
  const std::string verilated = ", what the RTL processor that {impl} asks for holds";
  sw::require_parameter(w.instruction_bits <= 128, "impl",
                        "instructions of at most 128 bits, the bridge's width",
                        std::to_string(w.instruction_bits) + "-bit instructions");
  sw::require_parameter(config.n == w.n, "n", std::to_string(w.n) + " processors" + verilated,
                        sw::quoted(config.n));
  sw::require_parameter(config.buffer_words <= w.buffer_words, "buffer-words",
                        "at most " + std::to_string(w.buffer_words) + " words per data buffer" +
                            verilated,
                        sw::quoted(config.buffer_words));
  sw::require_parameter(config.index_sets <= w.index_sets, "impl",
                        "a program of at most " + std::to_string(w.index_sets) +
                            " index sets per processor" + verilated,
                        std::to_string(config.index_sets) + " index sets");
  sw::require_parameter(config.module_words <= w.module_words, "module-words",
                        "at most " + std::to_string(w.module_words) + " words per memory module" +
                            verilated,
                        sw::quoted(config.module_words));
}

}  // namespace

std::vector<ProcessorImage> assemble(const sw::MachineProgram& program,
                                     const sw::SystemConfig& config,
                                     const rtl::MultiprocessorLimits& widths) {
  check_sizes(config, widths);
  Assembler assembler(program, config, widths);
  std::vector<ProcessorImage> images(config.n);
  for (sw::ProcId p = 0; p < config.n; ++p) {
    images[p].instructions = assembler.processor(p);
    images[p].op_of = std::move(assembler.op_of_);
    images[p].index_sets = program.processors[p].index_sets;
  }
  for (const sw::Message& m : program.messages) {
    for (const auto& [p, address] :
         {std::pair{m.source, m.src_address}, std::pair{m.destination, m.dst_address}}) {
      if (std::uint64_t{address} + m.words > widths.local_words) {
        throw sw::ConfigError(
            "message " + std::to_string(m.id) + " from P" + std::to_string(m.source) + " to P" +
            std::to_string(m.destination) + ": P" + std::to_string(p) + "'s local words " +
            std::to_string(address) + ".." + std::to_string(std::uint64_t{address} + m.words - 1) +
            " are past the RTL processor's local memory of " + std::to_string(widths.local_words) +
            " words (LOCAL)");
      }
    }
    // A region shared by several messages of one payload (a broadcast's source) is loaded once
    // per message with the same words.
    LocalWords words{m.src_address, {}};
    const sw::PayloadWords payload(m.payload);
    for (std::uint32_t w = 0; w < m.words; ++w) {
      words.words.push_back(payload[w]);
    }
    images[m.source].local.push_back(std::move(words));
  }
  return images;
}

}  // namespace orthosim::sc
