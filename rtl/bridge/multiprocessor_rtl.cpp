// The whole multiprocessor as one verilated C++ model (rtl/multiprocessor.sv), stepped in plain
// C++ (docs/rtl.md, "Stepping a verilated unit" and "The multiprocessor as one unit"). The
// generated headers come first, in the order Verilator 5.006 needs (toolchain fact 4): systemc.h
// before verilated.h, as the other bridges include them.
#include "verilated_sc.h"

#include "rtl/bridge/verilated_block.hpp"
#include "rtl/multiprocessor_models.hpp"  // generated: every V<multiprocessor>.h and the list
#include "verilated_syms.h"

#include <algorithm>
#include <stdexcept>
#include <type_traits>

#include "rtl/bridge/multiprocessor_rtl.hpp"
#include "rtl/limits.hpp"

namespace orthosim::rtl {

namespace {

constexpr std::uint32_t kStepLimit = 4096;  ///< zero-time steps in one cycle before giving up
/// An access's bus field starts after the opcode [3:0], the direction and the column bit
/// (docs/rtl.md, processor: op encoding).
constexpr std::uint32_t kAccessBusBit = 6;

const char* arch_name(MultiprocessorArch arch) {
  switch (arch) {
    case MultiprocessorArch::Omp:
      return "omp";
    case MultiprocessorArch::Crossbar:
      return "crossbar";
    case MultiprocessorArch::Bus:
      return "bus";
  }
  return "?";
}

std::uint32_t clog2_at_least_1(std::uint64_t values) {
  return std::max(1U, limits::address_bits(values));
}

/// The sizes and field widths of the verilation for `arch` and `n`: processor.sv's derived
/// parameters at the sizes of rtl/limits.cmake.
MultiprocessorLimits limits_for(MultiprocessorArch arch, std::uint32_t n) {
  MultiprocessorLimits m;
  m.n = n;
  m.buffer_words = limits::kBufferWords;
  m.index_sets = limits::kIndexSets;
  m.module_words = limits::kModuleWords;
  m.word_bits = limits::kWordBits;
  m.local_words = limits::kLocalWords;
  m.instruction_words = limits::kInstructionWords;
  m.timing_bits = limits::kTimingBits;
  m.cost_bits = limits::kTimingBits;
  m.buses = arch == MultiprocessorArch::Omp ? 2 * n : arch == MultiprocessorArch::Crossbar ? n : 1;
  m.modules = arch == MultiprocessorArch::Bus ? n : n * n;
  m.slot_bits = clog2_at_least_1(n);
  m.degree_bits = limits::address_bits(n + 1);
  m.vector_bits = clog2_at_least_1(m.buffer_words);
  m.vectors_bits = limits::address_bits(m.buffer_words + 1);
  m.set_bits = clog2_at_least_1(m.index_sets);
  m.address_bits = clog2_at_least_1(m.module_words);
  m.local_bits = clog2_at_least_1(m.local_words);
  m.pc_bits = clog2_at_least_1(m.instruction_words);
  m.compute_bits = limits::kComputeBits;
  m.step_bits = limits::kStepBits;
  const std::uint32_t access = 2 + m.slot_bits + m.degree_bits + n * m.slot_bits + m.address_bits +
                               m.vectors_bits + m.set_bits;
  const std::uint32_t copy = m.slot_bits + m.vector_bits + m.local_bits + m.vectors_bits;
  m.instruction_bits = 4 + std::max({access, m.compute_bits, copy, m.step_bits, n});
  return m;
}

/// Bits [lo, lo + width) of a verilated port or variable (CData .. QData or VlWide), width <= 64.
template <class T>
inline std::uint64_t bits_of(const T& v, std::uint32_t lo, std::uint32_t width) {
  const std::uint64_t mask = width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;
  if constexpr (std::is_integral_v<T>) {
    return (static_cast<std::uint64_t>(v) >> lo) & mask;
  } else {
    // A field inside one 32-bit word (every per-processor field the bridge reads each cycle but
    // the module-address-wide ones): one load, no loop.
    if (lo % 32 + width <= 32) {
      return (std::uint64_t{v.at(lo / 32)} >> (lo % 32)) & mask;
    }
    std::uint64_t out = 0;
    for (std::uint32_t done = 0; done < width;) {
      const std::uint32_t bit = lo + done;
      const std::uint32_t off = bit % 32;
      const std::uint32_t take = std::min(32 - off, width - done);
      out |= ((std::uint64_t{v.at(bit / 32)} >> off) & ((std::uint64_t{1} << take) - 1)) << done;
      done += take;
    }
    return out;
  }
}

/// `value` as bits [lo, lo + width) of `ins`; throws naming `field` when it is at least
/// `bound` (0: 2^width, the field's own limit) or does not fit `width` bits.
void put_field(RtlInstruction& ins, std::uint32_t lo, std::uint32_t width, std::uint64_t value,
               const std::string& field, std::uint64_t bound = 0) {
  const std::uint64_t room = width >= 64 ? ~std::uint64_t{0} : std::uint64_t{1} << width;
  const std::uint64_t limit = bound != 0 ? std::min(bound, room) : room;
  if (value >= limit) {
    throw std::invalid_argument(field + " " + std::to_string(value) + " does not fit the RTL's " +
                                std::to_string(width) + "-bit field (at most " +
                                std::to_string(limit - 1) + ")");
  }
  for (std::uint32_t k = 0; k < width; ++k) {
    if (((value >> k) & 1U) != 0) {
      const std::uint32_t bit = lo + k;
      ins.bits.at(bit / 64) |= std::uint64_t{1} << (bit % 64);
    }
  }
}

/// Bits [lo, lo + width) of `ins` (width <= 64): put_field's inverse.
std::uint64_t get_field(const RtlInstruction& ins, std::uint32_t lo, std::uint32_t width) {
  std::uint64_t value = 0;
  for (std::uint32_t k = 0; k < width; ++k) {
    const std::uint32_t bit = lo + k;
    value |= ((ins.bits.at(bit / 64) >> (bit % 64)) & 1U) << k;
  }
  return value;
}

/// The code of `ins` and, for an access, its fields, read back at encode()'s positions.
RtlOp decode_access(const RtlInstruction& ins, const MultiprocessorLimits& m) {
  RtlOp op;
  op.code = static_cast<RtlOp::Code>(get_field(ins, 0, 4));
  if (op.code != RtlOp::Code::Access) {
    return op;
  }
  const auto field = [&](std::uint32_t& at, std::uint32_t width) {
    const auto value = static_cast<std::uint32_t>(get_field(ins, at, width));
    at += width;
    return value;
  };
  op.write = get_field(ins, 4, 1) != 0;
  op.col = get_field(ins, 5, 1) != 0;
  std::uint32_t at = kAccessBusBit;
  op.bus = field(at, m.slot_bits);
  op.slots.resize(field(at, m.degree_bits));
  for (std::size_t p = 0; p < op.slots.size(); ++p) {
    op.slots[p] = static_cast<std::uint32_t>(
        get_field(ins, at + static_cast<std::uint32_t>(p) * m.slot_bits, m.slot_bits));
  }
  at += m.n * m.slot_bits;
  op.address = field(at, m.address_bits);
  op.vectors = field(at, m.vectors_bits);
  op.index_set = field(at, m.set_bits);
  return op;
}

/// A verilated memory reached through its scope (public_flat_rw, rtl/bridge/multiprocessor.vlt):
/// its words, each `entry` bytes, of `type`.
struct Memory {
  char* base = nullptr;
  std::size_t entry = 0;
  std::size_t depth = 0;
  std::uint32_t bits = 0;

  [[nodiscard]] char* at(std::size_t k) const {
    if (k >= depth) {
      throw std::out_of_range("verilated memory word " + std::to_string(k) + " of " +
                              std::to_string(depth));
    }
    return base + k * entry;
  }
  void write(std::size_t k, std::uint64_t lo, std::uint64_t hi = 0) const {
    char* p = at(k);
    if (entry == 1) {
      *reinterpret_cast<CData*>(p) = static_cast<CData>(lo);
    } else if (entry == 2) {
      *reinterpret_cast<SData*>(p) = static_cast<SData>(lo);
    } else if (entry == 4) {
      *reinterpret_cast<IData*>(p) = static_cast<IData>(lo);
    } else if (bits <= 64) {
      *reinterpret_cast<QData*>(p) = lo;
    } else {
      auto* w = reinterpret_cast<EData*>(p);
      const std::size_t words = entry / sizeof(EData);
      for (std::size_t i = 0; i < words; ++i) {
        const std::uint64_t src = i < 2 ? lo : hi;
        w[i] = static_cast<EData>(src >> ((i % 2) * 32));
      }
    }
  }
  [[nodiscard]] std::uint64_t read(std::size_t k) const {
    const char* p = at(k);
    switch (entry) {
      case 1:
        return *reinterpret_cast<const CData*>(p);
      case 2:
        return *reinterpret_cast<const SData*>(p);
      case 4:
        return *reinterpret_cast<const IData*>(p);
      default:
        return *reinterpret_cast<const QData*>(p);
    }
  }
};

}  // namespace

RtlInstruction encode(const RtlOp& op, const MultiprocessorLimits& limits,
                      MultiprocessorArch arch) {
  const MultiprocessorLimits& m = limits;
  RtlInstruction ins;
  put_field(ins, 0, 4, static_cast<std::uint32_t>(op.code), "opcode");
  switch (op.code) {
    case RtlOp::Code::Halt:
      break;
    case RtlOp::Code::Compute:
      put_field(ins, 4, m.compute_bits, op.cycles, "compute cycles (CYW)");
      break;
    case RtlOp::Code::Access: {
      put_field(ins, 4, 1, op.write ? 1 : 0, "direction");
      put_field(ins, 5, 1, op.col ? 1 : 0, "column");
      std::uint32_t at = kAccessBusBit;
      put_field(ins, at, m.slot_bits, op.bus, "bus",
                arch == MultiprocessorArch::Crossbar ? m.n : 1);
      at += m.slot_bits;
      put_field(ins, at, m.degree_bits, op.slots.size(), "degree d", m.n + 1);
      at += m.degree_bits;
      for (std::size_t p = 0; p < op.slots.size(); ++p) {
        put_field(ins, at + static_cast<std::uint32_t>(p) * m.slot_bits, m.slot_bits, op.slots[p],
                  "slot", m.n);
      }
      at += m.n * m.slot_bits;
      put_field(ins, at, m.address_bits, op.address, "module address (DEPTH)", m.module_words);
      at += m.address_bits;
      put_field(ins, at, m.vectors_bits, op.vectors, "vectors l", m.buffer_words + 1);
      at += m.vectors_bits;
      put_field(ins, at, m.set_bits, op.index_set, "index set", m.index_sets);
      break;
    }
    case RtlOp::Code::BusSwitch:
    case RtlOp::Code::Barrier:
      put_field(ins, 4, m.n, op.mask, "group");
      break;
    case RtlOp::Code::ActivateSync:
      put_field(ins, 4, m.n, op.mask, "targets");
      break;
    case RtlOp::Code::WaitSync:
      put_field(ins, 4, m.slot_bits, op.source, "source", m.n);
      break;
    case RtlOp::Code::LoadBuffer:
    case RtlOp::Code::StoreBuffer: {
      std::uint32_t at = 4;
      put_field(ins, at, m.slot_bits, op.buffer, "buffer", m.n);
      at += m.slot_bits;
      put_field(ins, at, m.vector_bits, op.buffer_word, "buffer word", m.buffer_words);
      at += m.vector_bits;
      put_field(ins, at, m.local_bits, op.local_address, "local address (LOCAL)", m.local_words);
      at += m.local_bits;
      put_field(ins, at, m.vectors_bits, op.words, "words", m.buffer_words + 1);
      break;
    }
    case RtlOp::Code::StepMark:
      put_field(ins, 4, m.step_bits, op.step, "step (STW)");
      break;
  }
  return ins;
}

// What the class needs of its verilated model, whichever (arch, n) it is.
struct MultiprocessorRtl::Dut {
  virtual ~Dut() = default;
  virtual void edge(bool tick) = 0;
  virtual void set_reset(bool active) = 0;
  virtual void set_go(bool go) = 0;
  virtual void set_costs(const MultiprocessorCosts& costs, bool write) = 0;
  /// One machine cycle: steps until settled, the outputs into `out`, the tick.
  virtual void cycle(MultiprocessorCycle& out) = 0;
  [[nodiscard]] virtual bool all_finished() const = 0;

  std::vector<Memory> imem, lmem, idx, buf;  ///< per processor
  Memory modules;
  std::uint64_t edges = 0;
  std::uint64_t evaluations = 0;
};

template <class V>
struct MultiprocessorRtl::DutOf final : MultiprocessorRtl::Dut {
  DutOf(const std::string& name, const MultiprocessorLimits& limits, MultiprocessorArch arch,
        const std::vector<std::vector<RtlOp>>& codes)
      : dut(name.c_str()), lim(limits), programs(codes) {
    const auto find = [&](const std::string& scope, const char* var, std::size_t depth,
                          std::uint32_t bits) {
      const std::string full = name + "." + scope;
      const VerilatedScope* s = Verilated::threadContextp()->scopeFind(full.c_str());
      VerilatedVar* v = s != nullptr ? s->varFind(var) : nullptr;
      if (v == nullptr) {
        throw std::logic_error("verilated multiprocessor: no " + full + "." + var +
                               " (rtl/bridge/multiprocessor.vlt)");
      }
      // Two units of one name would share the first one's scopes: refuse rather than write it.
      const auto* syms = reinterpret_cast<const char*>(dut.rootp->vlSymsp);
      const auto* data = static_cast<const char*>(v->datap());
      if (data < syms || data >= syms + sizeof(*dut.rootp->vlSymsp)) {
        throw std::invalid_argument("a verilated multiprocessor named '" + name +
                                    "' exists already: give each one its own name");
      }
      Memory m{static_cast<char*>(v->datap()), v->entSize(),
               static_cast<std::size_t>(v->elements(1)), bits};
      const auto packed = static_cast<std::uint32_t>(v->elements(0));
      if (m.depth != depth || packed != bits) {
        throw std::logic_error(full + "." + var + ": verilated as " + std::to_string(m.depth) +
                               " x " + std::to_string(packed) + " bits, rtl/limits.hpp expects " +
                               std::to_string(depth) + " x " + std::to_string(bits));
      }
      return m;
    };
    for (std::uint32_t p = 0; p < lim.n; ++p) {
      const std::string node = "multiprocessor.g_node[" + std::to_string(p) + "]";
      imem.push_back(find(node + ".p", "imem", lim.instruction_words, lim.instruction_bits));
      lmem.push_back(find(node + ".p", "lmem", lim.local_words, lim.word_bits));
      idx.push_back(
          find(node + ".im", "idx_mem", std::size_t{lim.index_sets} * lim.n, lim.slot_bits));
      buf.push_back(
          find(node + ".im", "buf_mem", std::size_t{lim.buffer_words} * lim.n, lim.word_bits));
    }
    modules = find(arch == MultiprocessorArch::Omp ? "multiprocessor.g_omp.modules"
                                                   : "multiprocessor.g_buses.modules",
                   "mem", std::size_t{lim.modules} * lim.module_words, lim.word_bits);
    dut.clk = 0;
    dut.tick = 0;
    dut.rst_n = 1;
    dut.go = 0;
    dut.cfg_we = 0;
    dut.imem_we = 0;
    dut.lm_we = 0;
    dut.idx_we = 0;
    dut.mod_we = 0;
  }

  void edge(bool tick) override {
    dut.tick = tick ? 1 : 0;
    dut.clk = 0;
    dut.eval();
    dut.clk = 1;
    dut.eval();
    ++edges;
    evaluations += 2;
  }
  void set_reset(bool active) override { dut.rst_n = active ? 0 : 1; }
  void set_go(bool go) override { dut.go = go ? 1 : 0; }
  void set_costs(const MultiprocessorCosts& c, bool write) override {
    dut.cfg_we = write ? 1 : 0;
    dut.cfg_alpha = static_cast<SData>(c.alpha);
    dut.cfg_beta = static_cast<SData>(c.beta);
    dut.cfg_tau = static_cast<SData>(c.tau);
    dut.cfg_gamma = static_cast<SData>(c.gamma);
    dut.cfg_activate = static_cast<SData>(c.activate);
    dut.cfg_barrier = static_cast<SData>(c.barrier);
  }
  [[nodiscard]] bool all_finished() const override {
    return bits_of(dut.finished, 0, lim.n) == (std::uint64_t{1} << lim.n) - 1;
  }

  /// traces::Activity of processor.sv's class `raw` at instruction `pc` of processor p: an
  /// access next to a bus switch is an IWR step's half.
  [[nodiscard]] traces::Activity activity(std::uint32_t p, std::uint32_t pc,
                                          std::uint32_t raw) const {
    using traces::Activity;
    const std::vector<RtlOp>& prog = programs.at(p);
    const auto code_at = [&](std::int64_t k) {
      return k >= 0 && static_cast<std::size_t>(k) < prog.size() ? prog[k].code : RtlOp::Code::Halt;
    };
    switch (raw) {
      case 1:
        return Activity::Compute;
      case 2:
        return code_at(std::int64_t{pc} - 1) == RtlOp::Code::BusSwitch ? Activity::IwrRead
                                                                       : Activity::Read;
      case 3:
        return code_at(std::int64_t{pc} + 1) == RtlOp::Code::BusSwitch ? Activity::IwrWrite
                                                                       : Activity::Write;
      case 4:
        return Activity::BusSwitch;
      case 5:
        return Activity::Barrier;
      case 6:
        return Activity::ActivateSync;
      case 7:
        return Activity::WaitSync;
      default:
        return Activity::Idle;
    }
  }

  void cycle(MultiprocessorCycle& out) override {
    const std::uint32_t n = lim.n;
    out.marks.clear();
    std::uint32_t steps = 0;
    while (dut.settled == 0) {
      for (std::uint32_t p = 0; p < n; ++p) {
        if (bits_of(dut.mark, p, 1) != 0) {
          out.marks.emplace_back(p, static_cast<std::uint32_t>(
                                        bits_of(dut.mark_step, p * lim.step_bits, lim.step_bits)));
        }
      }
      edge(false);
      if (++steps > kStepLimit) {
        throw std::logic_error("verilated multiprocessor: no settling after " +
                               std::to_string(kStepLimit) + " zero-time steps");
      }
    }
    out.steps = steps;
    out.processors.resize(n);
    out.buses.resize(n);
    for (std::uint32_t p = 0; p < n; ++p) {
      RtlProcessorCycle& pr = out.processors[p];
      pr.running = bits_of(dut.running, p, 1) != 0;
      pr.finished = bits_of(dut.finished, p, 1) != 0;
      pr.pc = static_cast<std::uint32_t>(bits_of(dut.pc, p * lim.pc_bits, lim.pc_bits));
      pr.activity = activity(p, pr.pc, static_cast<std::uint32_t>(bits_of(dut.activity, p * 3, 3)));
      pr.ops = static_cast<std::uint32_t>(bits_of(dut.ops, p * 32, 32));
      pr.compute_cycles = static_cast<std::uint32_t>(bits_of(dut.compute_cycles, p * 32, 32));
      pr.memory_cycles = static_cast<std::uint32_t>(bits_of(dut.memory_cycles, p * 32, 32));
      pr.sync_cycles = static_cast<std::uint32_t>(bits_of(dut.sync_cycles, p * 32, 32));
      RtlBusCycle& b = out.buses[p];
      b.valid = bits_of(dut.bus_valid, p, 1) != 0;
      b.mode = static_cast<std::uint32_t>(bits_of(dut.bus_mode, 2 * p, 2));
      b.write = bits_of(dut.bus_write, p, 1) != 0;
      b.sel = static_cast<std::uint32_t>(bits_of(dut.bus_sel, p * lim.slot_bits, lim.slot_bits));
      b.addr =
          static_cast<std::uint32_t>(bits_of(dut.bus_addr, p * lim.address_bits, lim.address_bits));
      b.data = static_cast<std::uint32_t>(bits_of(dut.bus_data, p * lim.word_bits, lim.word_bits));
      b.busy = bits_of(dut.bc_busy, p, 1) != 0;
      b.done = bits_of(dut.bc_done, p, 1) != 0;
      b.bus = pr.pc < programs.at(p).size() ? programs[p][pr.pc].bus : 0;
    }
    out.barriers = dut.barriers;
    out.bus_switches = dut.bus_switches;
    out.syncs_delivered = dut.syncs_delivered;
    out.interrupt_conflicts = dut.int_conflicts;
    out.interrupt_wait_cycles = dut.int_wait_cycles;
    out.token_overflow = dut.token_overflow != 0;
    out.interrupt_busy = dut.int_busy != 0;
    out.wait_cycles = dut.wait_cycles;
    out.conflicts = dut.conflicts;
    out.collision = dut.collision != 0;
    edge(true);
  }

  V dut;
  MultiprocessorLimits lim;
  const std::vector<std::vector<RtlOp>>& programs;
};

namespace {

/// Every (arch, n) verilated, from the generated list.
struct Built {
  MultiprocessorArch arch;
  std::uint32_t n;
};
constexpr Built kBuilt[] = {
#define ORTHOSIM_MP_MODEL(arch, n, prefix) {MultiprocessorArch::arch, n},
    ORTHOSIM_MP_MODELS
#undef ORTHOSIM_MP_MODEL
};

}  // namespace

bool MultiprocessorRtl::built(MultiprocessorArch arch, std::uint32_t n) {
  return std::any_of(std::begin(kBuilt), std::end(kBuilt),
                     [&](const Built& b) { return b.arch == arch && b.n == n; });
}

std::string MultiprocessorRtl::built_list(MultiprocessorArch arch) {
  std::string list;
  for (const Built& b : kBuilt) {
    if (b.arch == arch) {
      list += (list.empty() ? "" : ", ") + std::to_string(b.n);
    }
  }
  return list;
}

MultiprocessorRtl::MultiprocessorRtl(MultiprocessorArch arch, std::uint32_t n, FstTrace* fst,
                                     const std::string& name)
    : arch_(arch), limits_(limits_for(arch, n)), programs_(n) {
#define ORTHOSIM_MP_MODEL(a, nn, prefix)                                         \
  if (arch == MultiprocessorArch::a && n == (nn)) {                              \
    auto made = std::make_unique<DutOf<prefix>>(name, limits_, arch, programs_); \
    if (fst != nullptr) {                                                        \
      bridge::trace_into(*fst, made->dut);                                       \
    }                                                                            \
    dut_ = std::move(made);                                                      \
  }
  ORTHOSIM_MP_MODELS
#undef ORTHOSIM_MP_MODEL
  if (!dut_) {
    throw std::invalid_argument(std::string("no verilated multiprocessor for ") + arch_name(arch) +
                                " with n = " + std::to_string(n) +
                                " (built, organisation:n: " + limits::kMultiprocessorModels + ")");
  }
  reset();
}

MultiprocessorRtl::~MultiprocessorRtl() = default;

MultiprocessorArch MultiprocessorRtl::arch() const { return arch_; }

const MultiprocessorLimits& MultiprocessorRtl::limits() const { return limits_; }

RtlInstruction MultiprocessorRtl::encode(const RtlOp& op) const {
  return rtl::encode(op, limits_, arch_);
}

void MultiprocessorRtl::reset() {
  dut_->set_reset(true);
  dut_->edge(true);
  dut_->set_reset(false);
  cycles_ = 0;
}

void MultiprocessorRtl::set_costs(const MultiprocessorCosts& costs) {
  const std::uint64_t max = limits::kTimingMax;
  for (const std::uint32_t v :
       {costs.alpha, costs.beta, costs.tau, costs.gamma, costs.activate, costs.barrier}) {
    if (v > max) {
      throw std::invalid_argument("MultiprocessorCosts: " + std::to_string(v) +
                                  " does not fit the " + std::to_string(limits::kTimingBits) +
                                  "-bit cost registers");
    }
  }
  // The controllers take their registers at a tick edge (they see no other).
  dut_->set_costs(costs, true);
  dut_->edge(true);
  dut_->set_costs(costs, false);
}

void MultiprocessorRtl::load_program(std::uint32_t p, const std::vector<RtlInstruction>& program) {
  if (program.size() > limits_.instruction_words) {
    throw std::invalid_argument("P(" + std::to_string(p) + ")'s program has " +
                                std::to_string(program.size()) +
                                " instructions; the verilated "
                                "processor holds " +
                                std::to_string(limits_.instruction_words));
  }
  const Memory& mem = dut_->imem.at(p);
  std::vector<RtlOp>& ops = programs_.at(p);
  ops.clear();
  for (std::size_t k = 0; k < program.size(); ++k) {
    mem.write(k, program[k].bits[0], program[k].bits[1]);
    ops.push_back(decode_access(program[k], limits_));
  }
}

void MultiprocessorRtl::write_index(std::uint32_t p, std::uint32_t set, std::uint32_t pos,
                                    std::uint32_t buffer) {
  if (set >= limits_.index_sets || pos >= limits_.n || buffer >= limits_.n) {
    throw std::out_of_range("write_index: set, position or buffer out of range");
  }
  dut_->idx.at(p).write(std::size_t{set} * limits_.n + pos, buffer);
}

void MultiprocessorRtl::write_local(std::uint32_t p, std::uint32_t address, std::uint32_t word) {
  dut_->lmem.at(p).write(address, word);
}

std::uint32_t MultiprocessorRtl::read_local(std::uint32_t p, std::uint32_t address) const {
  return static_cast<std::uint32_t>(dut_->lmem.at(p).read(address));
}

void MultiprocessorRtl::write_buffer(std::uint32_t p, std::uint32_t buffer, std::uint32_t word,
                                     std::uint32_t value) {
  if (buffer >= limits_.n || word >= limits_.buffer_words) {
    throw std::out_of_range("write_buffer: buffer or word out of range");
  }
  dut_->buf.at(p).write(std::size_t{buffer} * limits_.buffer_words + word, value);
}

std::uint32_t MultiprocessorRtl::read_buffer(std::uint32_t p, std::uint32_t buffer,
                                             std::uint32_t word) const {
  if (buffer >= limits_.n || word >= limits_.buffer_words) {
    throw std::out_of_range("read_buffer: buffer or word out of range");
  }
  return static_cast<std::uint32_t>(
      dut_->buf.at(p).read(std::size_t{buffer} * limits_.buffer_words + word));
}

namespace {
/// The word index of M(a, b) word `address` in the memory side's one array (module_array.sv,
/// crossbar_array.sv: module (a N + b), DEPTH words each).
std::size_t module_word(const MultiprocessorLimits& m, MultiprocessorArch arch, std::uint32_t a,
                        std::uint32_t b, std::uint32_t address) {
  const std::uint32_t rows = arch == MultiprocessorArch::Bus ? 1 : m.n;
  if (a >= rows || b >= m.n || address >= m.module_words) {
    throw std::out_of_range("module M(" + std::to_string(a) + "," + std::to_string(b) + ") word " +
                            std::to_string(address) + " out of range");
  }
  return (std::size_t{a} * m.n + b) * m.module_words + address;
}
}  // namespace

void MultiprocessorRtl::write_module(std::uint32_t a, std::uint32_t b, std::uint32_t address,
                                     std::uint32_t word) {
  dut_->modules.write(module_word(limits_, arch_, a, b, address), word);
}

std::uint32_t MultiprocessorRtl::read_module(std::uint32_t a, std::uint32_t b,
                                             std::uint32_t address) const {
  return static_cast<std::uint32_t>(dut_->modules.read(module_word(limits_, arch_, a, b, address)));
}

void MultiprocessorRtl::fill_storage(std::uint32_t word) {
  for (std::size_t k = 0; k < dut_->modules.depth; ++k) {
    dut_->modules.write(k, word);
  }
  for (std::uint32_t p = 0; p < limits_.n; ++p) {
    for (std::size_t k = 0; k < dut_->buf[p].depth; ++k) {
      dut_->buf[p].write(k, word);
    }
    for (std::size_t k = 0; k < dut_->lmem[p].depth; ++k) {
      dut_->lmem[p].write(k, word);
    }
  }
}

void MultiprocessorRtl::start() {
  // `go` at a zero-time step: the processors run from the first cycle on.
  dut_->set_go(true);
  dut_->edge(false);
  dut_->set_go(false);
  cycles_ = 0;
}

const MultiprocessorCycle& MultiprocessorRtl::step_cycle() {
  out_.cycle = cycles_;
  dut_->cycle(out_);
  ++cycles_;
  return out_;
}

const MultiprocessorCycle& MultiprocessorRtl::outputs() const { return out_; }

const RtlOp& MultiprocessorRtl::loaded_op(std::uint32_t p, std::uint32_t pc) const {
  static const RtlOp kHalt;
  const std::vector<RtlOp>& ops = programs_.at(p);
  return pc < ops.size() ? ops[pc] : kHalt;
}

bool MultiprocessorRtl::finished() const { return dut_->all_finished(); }

std::uint64_t MultiprocessorRtl::cycles() const { return cycles_; }

std::uint64_t MultiprocessorRtl::edges() const { return dut_->edges; }

std::uint64_t MultiprocessorRtl::evaluations() const { return dut_->evaluations; }

}  // namespace orthosim::rtl
