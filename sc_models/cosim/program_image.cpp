// The verilated processor's assembler: machine-program ops -> processor.sv's instruction words.
#include "sc_models/cosim/program_image.hpp"

#include <algorithm>
#include <array>
#include <type_traits>
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

namespace {

using Opcode = rtl::RtlOp::Code;

/// Writes one processor's instructions, op by op, field by field from bit 4 up.
class Assembler {
 public:
  Assembler(const sw::MachineProgram& program, const sw::SystemConfig& config,
            const rtl::MultiprocessorLimits& widths)
      : program_(program), org_(config.organization()), w_(widths) {}

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
    begin(Opcode::Halt);
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
  /// Starts an instruction with its opcode; fields follow from bit 4.
  void begin(Opcode opcode) {
    if (out_.size() + 1 >= w_.instruction_words && opcode != Opcode::Halt) {
      fail("the program does not fit the RTL processor's instruction memory of " +
           std::to_string(w_.instruction_words) + " instructions (IMEM, a halt included)");
    }
    out_.emplace_back();
    op_of_.push_back(static_cast<std::uint32_t>(op_index_));
    bit_ = 0;
    put(static_cast<std::uint32_t>(opcode), 4, "opcode");
  }

  /// Appends `value` as the next `bits` bits of the current instruction, or fails naming `field`.
  void put(std::uint64_t value, unsigned bits, const char* field) {
    if (bits < 64 && (value >> bits) != 0) {
      fail(std::string("its ") + field + " " + std::to_string(value) + " does not fit the RTL's " +
           std::to_string(bits) + "-bit field (at most " +
           std::to_string((std::uint64_t{1} << bits) - 1) + ")");
    }
    std::array<std::uint64_t, 2>& instruction = out_.back().bits;
    for (unsigned b = 0; b < bits; ++b, ++bit_) {
      if ((value >> b) & 1u) {
        instruction.at(bit_ / 64) |= std::uint64_t{1} << (bit_ % 64);
      }
    }
  }

  std::uint64_t mask(const sw::ProcSet& set) const {
    std::uint64_t m = 0;
    for (sw::ProcId p : set.members()) {
      m |= std::uint64_t{1} << p;
    }
    return m;
  }

  void encode(const sw::Compute& op) {
    begin(Opcode::Compute);
    put(op.cycles.count(), w_.compute_bits, "compute cycles (CYW)");
  }

  void access(const sw::MemoryAccess& a) {
    begin(Opcode::Access);
    put(a.direction == sw::Direction::Write ? 1 : 0, 1, "direction");
    put(a.bus.kind == sw::BusKind::Column ? 1 : 0, 1, "column");
    // Only the crossbar's controllers choose a bus; on the omp BC(i) drives RB(i) and CB(i).
    put(org_.arch() == sw::Arch::Crossbar ? a.bus.index : 0, w_.slot_bits, "bus");
    put(a.degree(), w_.degree_bits, "degree d");
    for (std::uint32_t p = 0; p < w_.n; ++p) {
      put(p < a.slots.size() ? a.slots[p] : 0, w_.slot_bits, "slot");
    }
    put(a.address, w_.address_bits, "module address (DEPTH)");
    put(a.vectors, w_.vectors_bits, "vectors l");
    put(a.index_set, w_.set_bits, "index set");
  }

  void encode(const sw::MemoryAccess& op) { access(op); }

  void encode(const sw::Iwr& op) {
    access(op.write());
    rendezvous(Opcode::BusSwitch, op.group());
    access(op.read());
  }

  void rendezvous(Opcode opcode, const sw::ProcSet& group) {
    begin(opcode);
    put(mask(group), w_.n, "group");
  }

  void encode(const sw::BusSwitch& op) { rendezvous(Opcode::BusSwitch, op.group); }
  void encode(const sw::Barrier& op) { rendezvous(Opcode::Barrier, op.group); }

  void encode(const sw::ActivateSync& op) {
    begin(Opcode::ActivateSync);
    put(mask(op.targets), w_.n, "targets");
  }

  void encode(const sw::WaitSync& op) {
    begin(Opcode::WaitSync);
    put(op.source, w_.slot_bits, "source");
  }

  template <class Copy>
  void copy(Opcode opcode, const Copy& op) {
    if (std::uint64_t{op.local_address} + op.words > w_.local_words) {
      fail("its local words " + std::to_string(op.local_address) + ".." +
           std::to_string(std::uint64_t{op.local_address} + op.words - 1) +
           " are past the RTL processor's local memory of " + std::to_string(w_.local_words) +
           " words (LOCAL)");
    }
    begin(opcode);
    put(op.buffer, w_.slot_bits, "buffer");
    put(op.buffer_address, w_.vector_bits, "buffer word");
    put(op.local_address, w_.local_bits, "local address (LOCAL)");
    put(op.words, w_.vectors_bits, "words");
  }

  void encode(const sw::LoadBuffer& op) { copy(Opcode::LoadBuffer, op); }
  void encode(const sw::StoreBuffer& op) { copy(Opcode::StoreBuffer, op); }

  void encode(const sw::StepMark& op) {
    begin(Opcode::StepMark);
    put(op.step, w_.step_bits, "step (STW)");
  }

  const sw::MachineProgram& program_;
  const sw::MemoryOrganization org_;
  const rtl::MultiprocessorLimits& w_;
  sw::ProcId proc_ = 0;
  std::size_t op_index_ = 0;
  const sw::Op* op_ = nullptr;
  std::vector<rtl::RtlInstruction> out_;
  unsigned bit_ = 0;
};

/// Refuses a configuration larger than the verilated processor's sizes, naming the parameter.
void check_sizes(const sw::SystemConfig& config, const rtl::MultiprocessorLimits& w) {
  const auto require = [](bool ok, const std::string& parameter, const std::string& what) {
    if (!ok) {
      throw sw::ParameterError("impl", "invalid parameter " + parameter + " for the RTL: " + what);
    }
  };
  require(w.instruction_bits <= 128, "n",
          "instructions of " + std::to_string(w.instruction_bits) +
              " bits, wider than the bridge's 128");
  require(config.n == w.n, "n",
          "the verilated processor has " + std::to_string(w.n) + " processors, got " +
              std::to_string(config.n));
  const std::pair<const char*, std::pair<std::uint32_t, std::uint32_t>> sizes[] = {
      {"buffer_words", {config.buffer_words, w.buffer_words}},
      {"index_sets", {config.index_sets, w.index_sets}},
      {"module_words", {config.module_words, w.module_words}}};
  for (const auto& [name, size] : sizes) {
    require(size.first <= size.second, name,
            "at most " + std::to_string(size.second) + ", got " + std::to_string(size.first));
  }
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
