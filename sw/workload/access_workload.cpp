// Machine programs of the access workloads (see the header for their shape).
#include "sw/workload/access_workload.hpp"

#include "sw/core/diagnostic.hpp"
#include "sw/machine/validate.hpp"

namespace orthosim::sw {

std::string to_string(WorkloadKind k) {
  switch (k) {
    case WorkloadKind::Scalar:
      return "scalar";
    case WorkloadKind::Interleaved:
      return "interleaved";
    case WorkloadKind::Block:
      return "block";
    case WorkloadKind::Iwr:
      return "iwr";
  }
  return "?";
}

bool parse_workload_kind(const std::string& text, WorkloadKind& out) {
  for (WorkloadKind k :
       {WorkloadKind::Scalar, WorkloadKind::Interleaved, WorkloadKind::Block, WorkloadKind::Iwr}) {
    if (text == to_string(k)) {
      out = k;
      return true;
    }
  }
  return false;
}

void validate_workload(const SystemConfig& config, const AccessWorkload& w) {
  const std::string n = std::to_string(config.n);
  if (w.d < 1 || w.d > config.n) {
    throw ParameterError("d", "a module count in 1.." + n + " (d <= n)", std::to_string(w.d));
  }
  if (w.repetitions < 1) {
    throw ParameterError("repeat", "a repetition count of at least 1",
                         std::to_string(w.repetitions));
  }
  if (w.l < 1) {
    throw ParameterError("l", "a vector count of at least 1", std::to_string(w.l));
  }
  // A scalar access moves one word: the value at odds with that is named, as for interleaved.
  if (w.kind == WorkloadKind::Scalar && w.d != 1) {
    throw ParameterError("d",
                         "d = 1 for a scalar access (use {kind} interleaved or block for d > 1)",
                         std::to_string(w.d));
  }
  if (w.kind == WorkloadKind::Scalar && w.l != 1) {
    throw ParameterError("l", "l = 1 for a scalar access (use {kind} block for l > 1)",
                         std::to_string(w.l));
  }
  if (w.kind == WorkloadKind::Interleaved && w.l != 1) {
    throw ParameterError("l", "l = 1 for an interleaved access (use {kind} block for l > 1)",
                         std::to_string(w.l));
  }
  if (w.l > config.buffer_words) {
    throw ParameterError("l",
                         "at most L = " + std::to_string(config.buffer_words) +
                             " words, the data buffer size ({buffer-words})",
                         std::to_string(w.l));
  }
  // On the single bus every processor keeps its own range of l words in the shared modules.
  const bool shared_modules = config.arch == Arch::Bus;
  const std::uint64_t depth_needed = shared_modules ? std::uint64_t{config.n} * w.l : w.l;
  if (depth_needed > config.module_words) {
    throw ParameterError("l",
                         std::string(shared_modules ? "n*l" : "l") +
                             " <= " + std::to_string(config.module_words) +
                             " (the module depth, {module-words})" +
                             (shared_modules ? " on the single bus" : ""),
                         std::to_string(w.l));
  }
  if (2 * std::uint64_t{w.d} * w.l > config.local_words) {
    throw ParameterError("l",
                         "2*d*l within the local memory of " + std::to_string(config.local_words) +
                             " words ({local-words})",
                         std::to_string(w.l));
  }
}

namespace {

IndexSet identity(std::uint32_t size) {
  IndexSet rho(size);
  for (std::uint32_t p = 0; p < size; ++p) {
    rho[p] = p;
  }
  return rho;
}

class Builder {
 public:
  Builder(const SystemConfig& config, const AccessWorkload& w) : config_(config), w_(w) {
    program_.arch = config.arch;
    program_.n = config.n;
    program_.name = to_string(w.kind) + " d=" + std::to_string(w.d) + " l=" + std::to_string(w.l) +
                    " x" + std::to_string(w.repetitions);
    program_.processors.resize(config.n);
  }

  MachineProgram build() && {
    for (ProcId i = 0; i < config_.n; ++i) {
      if (w_.kind == WorkloadKind::Iwr) {
        exchange(i);
      } else {
        round_trip(i);
      }
      repeat(program_.processors[i].ops);
    }
    program_.deliveries = w_.repetitions;
    return std::move(program_);
  }

 private:
  std::uint32_t n() const { return config_.n; }
  std::uint32_t incoming() const { return w_.d * w_.l; }
  std::uint32_t plus(ProcId i, std::uint32_t k) const { return (i + k) % n(); }
  std::uint32_t minus(ProcId i, std::uint32_t k) const { return (i + n() - k % n()) % n(); }

  /// The bus P(i) writes on in the vectorized send.
  BusRef send_bus(ProcId i) const {
    switch (config_.arch) {
      case Arch::Omp:
        return {BusKind::Row, i};
      case Arch::Crossbar:
        return {BusKind::Shared, i};
      case Arch::Bus:
        return {BusKind::Shared, 0};
    }
    return {};
  }
  /// On the single bus every sender keeps its own address range in the shared modules.
  std::uint32_t send_address(ProcId i) const { return config_.arch == Arch::Bus ? i * w_.l : 0; }

  MemoryAccess access(Direction dir, BusRef bus, std::vector<std::uint32_t> slots,
                      std::uint32_t address, std::uint32_t index_set) const {
    MemoryAccess a;
    a.direction = dir;
    a.bus = bus;
    a.slots = std::move(slots);
    a.address = address;
    a.vectors = w_.l;
    a.index_set = index_set;
    return a;
  }

  void add_message(ProcId src, ProcId dst, std::uint32_t tag, std::uint32_t k) {
    Message m;
    m.id = static_cast<std::uint32_t>(program_.messages.size());
    m.source = src;
    m.destination = dst;
    m.payload = {src, dst, tag};
    m.words = w_.l;
    m.src_address = k * w_.l;
    m.dst_address = incoming() + k * w_.l;
    program_.messages.push_back(m);
  }

  /// Back-to-back repetitions move the same payloads to the same places again.
  void repeat(OpList& ops) const {
    const std::vector<Op> once = ops.decoded();
    for (std::uint32_t r = 1; r < w_.repetitions; ++r) {
      for (const Op& op : once) {
        ops.push_back(op);
      }
    }
  }

  void round_trip(ProcId i) {
    ProcessorProgram& p = program_.processors[i];
    IndexSet reverse(w_.d);
    for (std::uint32_t pos = 0; pos < w_.d; ++pos) {
      reverse[pos] = w_.d - 1 - pos;
    }
    p.index_sets = {identity(n()), reverse};
    std::vector<std::uint32_t> slots;
    for (std::uint32_t k = 0; k < w_.d; ++k) {
      slots.push_back(plus(i, k + 1));
      p.ops.emplace_back(LoadBuffer{k, k * w_.l, w_.l});
      add_message(i, i, k, k);
    }
    p.ops.emplace_back(access(Direction::Write, send_bus(i), slots, send_address(i), 0));
    // Clear the buffers from the still-unwritten incoming area, so that the check sees only
    // what the read brings back.
    for (std::uint32_t k = 0; k < w_.d; ++k) {
      p.ops.emplace_back(LoadBuffer{k, incoming() + k * w_.l, w_.l});
    }
    p.ops.emplace_back(access(Direction::Read, send_bus(i), slots, send_address(i), 1));
    for (std::uint32_t pos = 0; pos < w_.d; ++pos) {
      p.ops.emplace_back(StoreBuffer{w_.d - 1 - pos, incoming() + pos * w_.l, w_.l});
    }
  }

  void exchange(ProcId i) {
    ProcessorProgram& p = program_.processors[i];
    p.index_sets = {identity(n())};
    std::vector<std::uint32_t> write_slots;
    for (std::uint32_t k = 0; k < w_.d; ++k) {
      write_slots.push_back(plus(i, k + 1));
      p.ops.emplace_back(LoadBuffer{k, k * w_.l, w_.l});
      add_message(i, plus(i, k + 1), 0, k);
    }
    const MemoryAccess write =
        access(Direction::Write, send_bus(i), write_slots, send_address(i), 0);
    const ProcSet everyone = ProcSet::all(n());

    if (config_.arch == Arch::Omp) {
      // Message k from P(i-k-1) sits in M(i-k-1, i): slot i-k-1 of CB(i).
      std::vector<std::uint32_t> read_slots;
      for (std::uint32_t k = 0; k < w_.d; ++k) {
        read_slots.push_back(minus(i, k + 1));
      }
      p.ops.emplace_back(
          Iwr{write, access(Direction::Read, {BusKind::Column, i}, read_slots, 0, 0), everyone});
      for (std::uint32_t k = 0; k < w_.d; ++k) {
        p.ops.emplace_back(StoreBuffer{k, incoming() + k * w_.l, w_.l});
      }
      return;
    }
    p.ops.emplace_back(write);
    p.ops.emplace_back(BusSwitch{everyone});
    for (std::uint32_t k = 0; k < w_.d; ++k) {
      const ProcId sender = minus(i, k + 1);
      // Crossbar: the message is in M(sender, i) on B(sender). Bus: in M(i) at the sender's range.
      const BusRef bus = config_.arch == Arch::Crossbar ? BusRef{BusKind::Shared, sender}
                                                        : BusRef{BusKind::Shared, 0};
      p.ops.emplace_back(access(Direction::Read, bus, {i}, send_address(sender), 0));
      p.ops.emplace_back(StoreBuffer{0, incoming() + k * w_.l, w_.l});
    }
  }

  const SystemConfig& config_;
  const AccessWorkload& w_;
  MachineProgram program_;
};

}  // namespace

MachineProgram make_access_program(const SystemConfig& config, const AccessWorkload& workload) {
  validate_workload(config, workload);
  MachineProgram program = Builder(config, workload).build();
  validate(program, config);
  return program;
}

}  // namespace orthosim::sw
