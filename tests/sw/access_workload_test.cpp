// The machine programs of the `orthosim access` workloads ([PH91] section 3.1: scalar,
// interleaved, block-interleaved and IWR accesses on the omp, crossbar and single bus).
// Checked with a second, purely functional implementation of the machine semantics written here:
// an interpreter that moves words exactly as sw/machine/machine_program.hpp describes (index set
// position p <-> data buffer rho(p), word v of the block at module address address+v), honours
// the IWR / bus-switch group barriers, and times every access with the Fig. 5 costs on a
// first-come first-served bus. Every message must arrive (sw::check_delivery), and the schedule
// length must equal the closed form of sw/cost/access_workload_cost.hpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "sw/arch/system_config.hpp"
#include "sw/core/diagnostic.hpp"
#include "sw/cost/access_workload_cost.hpp"
#include "sw/machine/delivery_check.hpp"
#include "sw/machine/payload.hpp"
#include "sw/machine/validate.hpp"
#include "sw/workload/access_workload.hpp"

namespace orthosim {
namespace {

using sw::Arch;
using sw::WorkloadKind;

constexpr Arch kArchs[] = {Arch::Omp, Arch::Crossbar, Arch::Bus};
constexpr WorkloadKind kKinds[] = {WorkloadKind::Scalar, WorkloadKind::Interleaved,
                                   WorkloadKind::Block, WorkloadKind::Iwr};
constexpr std::uint32_t kNs[] = {1, 2, 3, 4, 8};
constexpr std::uint32_t kLs[] = {1, 3};

sw::SystemConfig config(Arch arch, std::uint32_t n) {
  sw::SystemConfig c;
  c.arch = arch;
  c.n = n;
  return c;
}

/// Whether the shape is one the workload kind allows (access_workload.hpp): a scalar access is one
/// word, an interleaved access one vector.
bool shape_allowed(WorkloadKind kind, std::uint32_t d, std::uint32_t l) {
  switch (kind) {
    case WorkloadKind::Scalar:
      return d == 1 && l == 1;
    case WorkloadKind::Interleaved:
      return l == 1;
    case WorkloadKind::Block:
    case WorkloadKind::Iwr:
      return true;
  }
  return false;
}

struct Case {
  Arch arch;
  WorkloadKind kind;
  std::uint32_t n, d, l;

  [[nodiscard]] std::string text() const {
    return to_string(arch) + " " + to_string(kind) + " n=" + std::to_string(n) +
           " d=" + std::to_string(d) + " l=" + std::to_string(l);
  }
  [[nodiscard]] sw::SystemConfig system() const { return config(arch, n); }
  [[nodiscard]] sw::AccessWorkload workload() const { return {kind, d, l}; }
};

/// Every valid combination of arch x kind x n x d x l of the sweep.
std::vector<Case> valid_cases() {
  std::vector<Case> out;
  for (Arch arch : kArchs) {
    for (WorkloadKind kind : kKinds) {
      for (std::uint32_t n : kNs) {
        for (std::uint32_t d = 1; d <= n; ++d) {
          for (std::uint32_t l : kLs) {
            if (shape_allowed(kind, d, l)) {
              out.push_back({arch, kind, n, d, l});
            }
          }
        }
      }
    }
  }
  return out;
}

// ---- an independent interpreter of machine programs ---------------------------------------

/// Fig. 5 cost of one access of d modules and l vectors: alpha + beta(l-1) + d tau l, which is
/// alpha + tau for a scalar access and alpha + d tau for an interleaved one.
std::uint64_t access_cost(const sw::BusTiming& t, std::uint64_t d, std::uint64_t l) {
  return t.alpha + t.beta * (l - 1) + d * t.tau * l;
}

class Interpreter {
 public:
  Interpreter(const sw::SystemConfig& c, const sw::MachineProgram& program)
      : config_(c),
        org_(c.organization()),
        program_(program),
        procs_(c.n),
        bus_free_(org_.buses().size(), 0) {
    for (const sw::ProcessorProgram& processor : program.processors) {
      ops_.push_back(processor.ops.decoded());
    }
    for (State& s : procs_) {
      s.buffers.assign(c.n, std::vector<sw::Word>(c.buffer_words, sw::kUnwrittenWord));
    }
    sw::for_each_initial_word(program, [this](sw::ProcId p, std::uint32_t a, sw::Word w) {
      procs_[p].local[a] = w;
    });
  }

  /// Runs every processor to its end; returns false on a deadlock or an unsupported op.
  bool run() {
    for (;;) {
      std::optional<sw::ProcId> next;
      bool all_done = true;
      for (sw::ProcId p = 0; p < config_.n; ++p) {
        const State& s = procs_[p];
        if (s.pc < ops(p).size()) {
          all_done = false;
          if (!s.waiting && (!next || s.time < procs_[*next].time)) {
            next = p;
          }
        }
      }
      if (all_done) {
        return true;
      }
      if (!next || !step(*next)) {
        return false;
      }
    }
  }

  [[nodiscard]] sw::Word local(sw::ProcId p, std::uint32_t address) const {
    const auto it = procs_[p].local.find(address);
    return it == procs_[p].local.end() ? sw::kUnwrittenWord : it->second;
  }

  /// The time at which the last processor finished.
  [[nodiscard]] std::uint64_t makespan() const {
    std::uint64_t end = 0;
    for (const State& s : procs_) {
      end = std::max(end, s.time);
    }
    return end;
  }

 private:
  struct State {
    std::size_t pc = 0;
    bool iwr_read_half = false;  ///< inside an Iwr op, past the bus switch
    bool waiting = false;        ///< arrived at a group barrier
    std::optional<sw::ProcSet> arrived_group;
    std::uint64_t time = 0;
    std::map<std::uint32_t, sw::Word> local;
    std::vector<std::vector<sw::Word>> buffers;
  };

  const std::vector<sw::Op>& ops(sw::ProcId p) const { return ops_[p]; }

  bool step(sw::ProcId p) {
    State& s = procs_[p];
    const sw::Op& op = ops(p)[s.pc];
    if (const auto* a = std::get_if<sw::MemoryAccess>(&op)) {
      perform(p, *a);
      ++s.pc;
    } else if (const auto* i = std::get_if<sw::Iwr>(&op)) {
      if (s.iwr_read_half) {
        perform(p, i->read());
        s.iwr_read_half = false;
        ++s.pc;
      } else {
        perform(p, i->write());
        arrive(p, i->group(), config_.timing.gamma);
      }
    } else if (const auto* b = std::get_if<sw::BusSwitch>(&op)) {
      arrive(p, b->group, config_.timing.gamma);
    } else if (const auto* r = std::get_if<sw::Barrier>(&op)) {
      arrive(p, r->group, config_.sync.barrier);
    } else if (const auto* l = std::get_if<sw::LoadBuffer>(&op)) {
      for (std::uint32_t w = 0; w < l->words; ++w) {
        s.buffers.at(l->buffer).at(w) = local(p, l->local_address + w);
      }
      ++s.pc;
    } else if (const auto* st = std::get_if<sw::StoreBuffer>(&op)) {
      for (std::uint32_t w = 0; w < st->words; ++w) {
        s.local[st->local_address + w] = s.buffers.at(st->buffer).at(w);
      }
      ++s.pc;
    } else if (const auto* c = std::get_if<sw::Compute>(&op)) {
      s.time += c->cycles.count();
      ++s.pc;
    } else {
      ADD_FAILURE() << "P" << p << " op " << s.pc << ": sync ops are not used by the workloads";
      return false;
    }
    return true;
  }

  /// Moves the words of one access, then holds its bus for the Fig. 5 cost.
  void perform(sw::ProcId p, const sw::MemoryAccess& a) {
    State& s = procs_[p];
    const sw::IndexSet& rho = program_.processors[p].index_sets.at(a.index_set);
    for (std::size_t pos = 0; pos < a.slots.size(); ++pos) {
      const sw::ModuleId module = org_.module_at(a.bus, a.slots[pos]);
      std::vector<sw::Word>& buffer = s.buffers.at(rho.at(pos));
      for (std::uint32_t v = 0; v < a.vectors; ++v) {
        const std::pair<sw::ModuleId, std::uint32_t> word{module, a.address + v};
        if (a.direction == sw::Direction::Write) {
          modules_[word] = buffer.at(v);
        } else {
          const auto it = modules_.find(word);
          buffer.at(v) = it == modules_.end() ? sw::kUnwrittenWord : it->second;
        }
      }
    }
    std::uint64_t& free_at = bus_free_[org_.bus_index(a.bus)];
    const std::uint64_t start = std::max(s.time, free_at);
    s.time = start + access_cost(config_.timing, a.slots.size(), a.vectors);
    free_at = s.time;
  }

  /// p arrives at a barrier of `group`; when every member is there, all continue `cost` cycles
  /// after the last arrival.
  void arrive(sw::ProcId p, const sw::ProcSet& group, std::uint64_t cost) {
    procs_[p].waiting = true;
    procs_[p].arrived_group = group;
    std::uint64_t last = 0;
    for (sw::ProcId q : group.members()) {
      const State& m = procs_[q];
      if (!m.waiting || !m.arrived_group || !(*m.arrived_group == group)) {
        return;
      }
      last = std::max(last, m.time);
    }
    for (sw::ProcId q : group.members()) {
      State& m = procs_[q];
      m.waiting = false;
      m.arrived_group.reset();
      m.time = last + cost;
      if (std::holds_alternative<sw::Iwr>(ops(q)[m.pc])) {
        m.iwr_read_half = true;
      } else {
        ++m.pc;
      }
    }
  }

  sw::SystemConfig config_;
  sw::MemoryOrganization org_;
  const sw::MachineProgram& program_;
  std::vector<std::vector<sw::Op>> ops_;  ///< per processor, decoded
  std::vector<State> procs_;
  std::map<std::pair<sw::ModuleId, std::uint32_t>, sw::Word> modules_;
  std::vector<std::uint64_t> bus_free_;
};

sw::DeliveryReport interpret(const sw::SystemConfig& c, const sw::MachineProgram& program,
                             std::uint64_t* makespan = nullptr) {
  Interpreter machine(c, program);
  EXPECT_TRUE(machine.run()) << program.name << ": deadlock";
  if (makespan != nullptr) {
    *makespan = machine.makespan();
  }
  return sw::check_delivery(program, [&machine](sw::ProcId p, std::uint32_t a) {
    return machine.local(p, a);
  });
}

// ---- program shape ------------------------------------------------------------------------

TEST(AccessWorkload, ValidatesForEveryCombination) {
  for (Arch arch : kArchs) {
    for (WorkloadKind kind : kKinds) {
      for (std::uint32_t n : kNs) {
        for (std::uint32_t d = 1; d <= n; ++d) {
          for (std::uint32_t l : kLs) {
            const Case c{arch, kind, n, d, l};
            if (shape_allowed(kind, d, l)) {
              try {
                const sw::MachineProgram p = sw::make_access_program(c.system(), c.workload());
                EXPECT_EQ(p.arch, arch) << c.text();
                EXPECT_EQ(p.n, n) << c.text();
                EXPECT_EQ(p.processors.size(), n) << c.text();
                EXPECT_NO_THROW(sw::validate(p, c.system())) << c.text();
              } catch (const std::exception& e) {
                ADD_FAILURE() << c.text() << ": " << e.what();
              }
            } else {
              EXPECT_THROW((void)sw::make_access_program(c.system(), c.workload()),
                           sw::ParameterError)
                  << c.text();
            }
          }
        }
      }
    }
  }
}

TEST(AccessWorkload, MessagesFollowTheWorkloadDescription) {
  for (const Case& c : valid_cases()) {
    const sw::MachineProgram p = sw::make_access_program(c.system(), c.workload());
    ASSERT_EQ(p.messages.size(), std::size_t{c.n} * c.d) << c.text();
    // Expected (source, destination) pairs, each once: a round trip sends d messages to itself,
    // an IWR exchange one message to each P((i+k) mod n), k = 1..d.
    std::map<std::pair<sw::ProcId, sw::ProcId>, int> expected;
    for (sw::ProcId i = 0; i < c.n; ++i) {
      for (std::uint32_t k = 1; k <= c.d; ++k) {
        ++expected[{i, c.kind == WorkloadKind::Iwr ? (i + k) % c.n : i}];
      }
    }
    std::map<std::pair<sw::ProcId, sw::ProcId>, int> found;
    for (std::size_t m = 0; m < p.messages.size(); ++m) {
      const sw::Message& msg = p.messages[m];
      EXPECT_EQ(msg.id, m) << c.text();
      EXPECT_EQ(msg.words, c.l) << c.text();
      ++found[{msg.source, msg.destination}];
    }
    EXPECT_EQ(found, expected) << c.text();
  }
}

/// Every MemoryAccess of processor p, with the Iwr halves unfolded.
std::vector<sw::MemoryAccess> accesses_of(const sw::ProcessorProgram& p) {
  std::vector<sw::MemoryAccess> out;
  for (const sw::Op& op : p.ops) {
    if (const auto* a = std::get_if<sw::MemoryAccess>(&op)) {
      out.push_back(*a);
    } else if (const auto* i = std::get_if<sw::Iwr>(&op)) {
      out.push_back(i->write());
      out.push_back(i->read());
    }
  }
  return out;
}

TEST(AccessWorkload, ProcessorsDriveOnlyTheirBuses) {
  for (const Case& c : valid_cases()) {
    const sw::MachineProgram p = sw::make_access_program(c.system(), c.workload());
    const sw::MemoryOrganization org = c.system().organization();
    for (sw::ProcId i = 0; i < c.n; ++i) {
      const std::vector<sw::MemoryAccess> accesses = accesses_of(p.processors[i]);
      EXPECT_FALSE(accesses.empty()) << c.text() << " P" << i;
      for (const sw::MemoryAccess& a : accesses) {
        EXPECT_TRUE(org.can_drive(i, a.bus))
            << c.text() << " P" << i << " on " << org.bus_name(a.bus);
        if (c.arch == Arch::Omp) {
          EXPECT_EQ(a.bus.index, i) << c.text();
        }
      }
    }
  }
}

// The access shapes of access_workload.hpp: a round trip is one write and one read of d modules
// and l vectors; an IWR exchange on the omp is one Iwr op (RB(i) write, CB(i) read); on the
// crossbar and bus it is one d-module write, a bus switch, and d single-module reads.
TEST(AccessWorkload, AccessShapesMatchTheKind) {
  for (const Case& c : valid_cases()) {
    const sw::MachineProgram p = sw::make_access_program(c.system(), c.workload());
    for (sw::ProcId i = 0; i < c.n; ++i) {
      const sw::ProcessorProgram& proc = p.processors[i];
      const std::vector<sw::MemoryAccess> accesses = accesses_of(proc);
      std::size_t iwr_ops = 0;
      std::size_t switches = 0;
      for (const sw::Op& op : proc.ops) {
        iwr_ops += std::holds_alternative<sw::Iwr>(op) ? 1 : 0;
        switches += std::holds_alternative<sw::BusSwitch>(op) ? 1 : 0;
      }
      for (const sw::MemoryAccess& a : accesses) {
        EXPECT_EQ(a.vectors, c.l) << c.text();
      }
      if (c.kind != WorkloadKind::Iwr) {
        ASSERT_EQ(accesses.size(), 2u) << c.text();
        EXPECT_EQ(accesses[0].direction, sw::Direction::Write) << c.text();
        EXPECT_EQ(accesses[1].direction, sw::Direction::Read) << c.text();
        for (const sw::MemoryAccess& a : accesses) {
          EXPECT_EQ(a.degree(), c.d) << c.text();
          if (c.kind == WorkloadKind::Scalar) {
            EXPECT_EQ(a.kind(), sw::AccessKind::Scalar) << c.text();
          }
          if (c.kind == WorkloadKind::Block && c.l > 1) {
            EXPECT_EQ(a.kind(), sw::AccessKind::Block) << c.text();
          }
          if (c.kind == WorkloadKind::Interleaved && c.d > 1) {
            EXPECT_EQ(a.kind(), sw::AccessKind::Interleaved) << c.text();
          }
        }
        EXPECT_EQ(iwr_ops + switches, 0u) << c.text();
      } else if (c.arch == Arch::Omp) {
        ASSERT_EQ(iwr_ops, 1u) << c.text();
        ASSERT_EQ(accesses.size(), 2u) << c.text();
        EXPECT_EQ(accesses[0].bus, (sw::BusRef{sw::BusKind::Row, i})) << c.text();
        EXPECT_EQ(accesses[1].bus, (sw::BusRef{sw::BusKind::Column, i})) << c.text();
        EXPECT_EQ(accesses[0].degree(), c.d) << c.text();
        EXPECT_EQ(accesses[1].degree(), c.d) << c.text();
      } else {
        EXPECT_EQ(iwr_ops, 0u) << c.text();
        EXPECT_EQ(switches, 1u) << c.text();
        ASSERT_EQ(accesses.size(), 1u + c.d) << c.text();
        EXPECT_EQ(accesses[0].direction, sw::Direction::Write) << c.text();
        EXPECT_EQ(accesses[0].degree(), c.d) << c.text();
        for (std::size_t k = 1; k < accesses.size(); ++k) {
          EXPECT_EQ(accesses[k].direction, sw::Direction::Read) << c.text();
          EXPECT_EQ(accesses[k].degree(), 1u) << c.text();
        }
      }
    }
  }
}

// ---- functional semantics and schedule ------------------------------------------------------

TEST(AccessWorkload, EveryProgramDeliversEveryMessage) {
  for (const Case& c : valid_cases()) {
    const sw::MachineProgram p = sw::make_access_program(c.system(), c.workload());
    const sw::DeliveryReport report = interpret(c.system(), p);
    EXPECT_TRUE(report.ok()) << c.text() << ": "
                             << (report.failures.empty() ? "" : report.failures.front());
    EXPECT_EQ(report.messages_checked, std::size_t{c.n} * c.d) << c.text();
    EXPECT_EQ(report.words_checked, std::uint64_t{c.n} * c.d * c.l) << c.text();
  }
}

// With Fig. 5 costs and one first-come first-served queue per bus, the interpreter's schedule is
// a brute-force derivation of the workload cycles; it must equal the closed form.
TEST(AccessWorkload, ScheduleLengthEqualsTheClosedForm) {
  const std::vector<sw::BusTiming> timings = {sw::BusTiming{}, sw::BusTiming{40, 5, 3, 21},
                                              sw::BusTiming{0, 0, 1, 0}};
  for (const sw::BusTiming& t : timings) {
    for (const Case& c : valid_cases()) {
      sw::SystemConfig system = c.system();
      system.timing = t;
      const sw::MachineProgram p = sw::make_access_program(system, c.workload());
      std::uint64_t makespan = 0;
      EXPECT_TRUE(interpret(system, p, &makespan).ok()) << c.text();
      EXPECT_EQ(makespan, sw::access_workload_cycles(system, c.workload()).count())
          << c.text() << " alpha=" << t.alpha << " beta=" << t.beta << " tau=" << t.tau
          << " gamma=" << t.gamma;
    }
  }
}

// A repeated workload is the same ops again, back to back: it still delivers everything, and
// (the claim of access_workload_cost.hpp) keeps every bus as busy in each repetition, so the
// schedule is the repetition count times one run.
TEST(AccessWorkload, RepetitionsRepeatTheOpsAndScaleTheSchedule) {
  const sw::BusTiming t{40, 5, 3, 21};
  for (const Case& c : valid_cases()) {
    sw::SystemConfig system = c.system();
    system.timing = t;
    const sw::MachineProgram once = sw::make_access_program(system, c.workload());
    for (std::uint32_t repetitions : {2u, 3u}) {
      sw::AccessWorkload w = c.workload();
      w.repetitions = repetitions;
      const sw::MachineProgram p = sw::make_access_program(system, w);
      EXPECT_EQ(p.messages.size(), once.messages.size()) << c.text();
      for (sw::ProcId i = 0; i < c.n; ++i) {
        EXPECT_EQ(p.processors[i].ops.size(), repetitions * once.processors[i].ops.size())
            << c.text() << " x" << repetitions;
      }
      std::uint64_t makespan = 0;
      EXPECT_TRUE(interpret(system, p, &makespan).ok()) << c.text() << " x" << repetitions;
      EXPECT_EQ(makespan, sw::access_workload_cycles(system, w).count())
          << c.text() << " x" << repetitions;
    }
  }
}

// The interpreter is not blind: a program whose read comes from the wrong module address, or
// that reads through the wrong index set, loses or swaps words.
TEST(AccessWorkload, InterpreterCatchesABrokenProgram) {
  const Case c{Arch::Omp, WorkloadKind::Block, 4, 3, 3};
  const sw::MachineProgram good = sw::make_access_program(c.system(), c.workload());
  ASSERT_TRUE(interpret(c.system(), good).ok());

  sw::MachineProgram shifted = good;
  std::vector<sw::Op> ops = shifted.processors[1].ops.decoded();
  for (sw::Op& op : ops) {
    if (auto* a = std::get_if<sw::MemoryAccess>(&op); a && a->direction == sw::Direction::Read) {
      a->address += 1;
    }
  }
  shifted.processors[1].ops = sw::OpList(ops);
  EXPECT_FALSE(interpret(c.system(), shifted).ok());

  sw::MachineProgram unpermuted = good;
  ops = unpermuted.processors[2].ops.decoded();
  for (sw::Op& op : ops) {
    if (auto* a = std::get_if<sw::MemoryAccess>(&op); a && a->direction == sw::Direction::Read) {
      a->index_set = 0;
    }
  }
  unpermuted.processors[2].ops = sw::OpList(ops);
  EXPECT_FALSE(interpret(c.system(), unpermuted).ok());
}

// A round trip clears its data buffers from the still-unwritten incoming area before it reads:
// a read that brings nothing back then loses the words instead of storing the ones the write
// left in the buffers. And a repeated workload delivers each message once per repetition
// (MachineProgram::deliveries, which the models' streaming check expects).
TEST(AccessWorkload, ARoundTripWithoutItsReadLosesItsWords) {
  const Case c{Arch::Omp, WorkloadKind::Block, 4, 1, 3};
  sw::MachineProgram dropped = sw::make_access_program(c.system(), c.workload());
  std::vector<sw::Op> ops = dropped.processors[1].ops.decoded();
  ops.erase(std::remove_if(ops.begin(), ops.end(),
                           [](const sw::Op& op) {
                             const auto* a = std::get_if<sw::MemoryAccess>(&op);
                             return a != nullptr && a->direction == sw::Direction::Read;
                           }),
            ops.end());
  dropped.processors[1].ops = sw::OpList(ops);
  EXPECT_FALSE(interpret(c.system(), dropped).ok());
  sw::AccessWorkload thrice = c.workload();
  thrice.repetitions = 3;
  EXPECT_EQ(sw::make_access_program(c.system(), thrice).deliveries, 3u);
}

TEST(AccessWorkload, InterpreterCatchesAnIwrReadOfTheWrongColumn) {
  const Case c{Arch::Omp, WorkloadKind::Iwr, 4, 3, 1};
  sw::MachineProgram p = sw::make_access_program(c.system(), c.workload());
  std::vector<sw::Op> ops = p.processors[0].ops.decoded();
  auto& iwr = std::get<sw::Iwr>(*std::find_if(ops.begin(), ops.end(), [](const sw::Op& op) {
    return std::holds_alternative<sw::Iwr>(op);
  }));
  std::rotate(iwr.read().slots.begin(), iwr.read().slots.begin() + 1, iwr.read().slots.end());
  p.processors[0].ops = sw::OpList(ops);
  EXPECT_FALSE(interpret(c.system(), p).ok());
}

// ---- validate_workload ----------------------------------------------------------------------

/// The ParameterError of validate_workload, or nothing when the workload is accepted.
std::optional<sw::ParameterError> workload_error(const sw::SystemConfig& c,
                                                 const sw::AccessWorkload& w) {
  try {
    sw::validate_workload(c, w);
  } catch (const sw::ParameterError& e) {
    return e;
  }
  return std::nullopt;
}

void expect_names_parameter(const sw::SystemConfig& c, const sw::AccessWorkload& w,
                            const std::string& parameter) {
  const std::optional<sw::ParameterError> e = workload_error(c, w);
  ASSERT_TRUE(e.has_value()) << to_string(w.kind) << " d=" << w.d << " l=" << w.l << " accepted";
  EXPECT_EQ(e->parameter(), parameter) << e->what();
}

TEST(ValidateWorkload, RejectsDOutsideOneToN) {
  const sw::SystemConfig c = config(Arch::Omp, 4);
  expect_names_parameter(c, {WorkloadKind::Iwr, 0, 1}, "d");
  expect_names_parameter(c, {WorkloadKind::Block, 5, 1}, "d");
  expect_names_parameter(c, {WorkloadKind::Interleaved, 9, 1}, "d");
  EXPECT_FALSE(workload_error(c, {WorkloadKind::Block, 4, 1}).has_value());
}

TEST(ValidateWorkload, RejectsZeroRepetitions) {
  expect_names_parameter(config(Arch::Omp, 4), {WorkloadKind::Iwr, 3, 1, 0}, "repeat");
}

TEST(ValidateWorkload, RejectsZeroVectors) {
  expect_names_parameter(config(Arch::Crossbar, 4), {WorkloadKind::Block, 2, 0}, "l");
}

// One word: the d or the l beyond it is named (--d, --l), as the interleaved access names its l,
// so that `access --kind scalar --d 3` points at the 3.
TEST(ValidateWorkload, ScalarIsOneWord) {
  const sw::SystemConfig c = config(Arch::Bus, 4);
  expect_names_parameter(c, {WorkloadKind::Scalar, 2, 1}, "d");
  expect_names_parameter(c, {WorkloadKind::Scalar, 1, 2}, "l");
  expect_names_parameter(c, {WorkloadKind::Scalar, 3, 3}, "d");
  EXPECT_FALSE(workload_error(c, {WorkloadKind::Scalar, 1, 1}).has_value());
}

TEST(ValidateWorkload, InterleavedIsOneVector) {
  expect_names_parameter(config(Arch::Omp, 4), {WorkloadKind::Interleaved, 3, 2}, "l");
}

TEST(ValidateWorkload, VectorsFitTheDataBuffer) {
  sw::SystemConfig c = config(Arch::Omp, 4);
  c.buffer_words = 16;
  expect_names_parameter(c, {WorkloadKind::Block, 2, 17}, "l");
  expect_names_parameter(c, {WorkloadKind::Iwr, 3, 17}, "l");
  EXPECT_FALSE(workload_error(c, {WorkloadKind::Iwr, 3, 16}).has_value());
}

TEST(ValidateWorkload, SingleBusRangesFitTheModuleDepth) {
  sw::SystemConfig c = config(Arch::Bus, 4);
  c.module_words = 20;
  expect_names_parameter(c, {WorkloadKind::Block, 2, 6}, "l");
  EXPECT_FALSE(workload_error(c, {WorkloadKind::Block, 2, 5}).has_value());
  c.arch = Arch::Omp;
  EXPECT_FALSE(workload_error(c, {WorkloadKind::Block, 2, 6}).has_value());
}

// On the omp and the crossbar every sender has its own modules, so the depth limit is l, not n*l.
TEST(ValidateWorkload, DepthErrorOffTheSingleBusDoesNotBlameTheSingleBus) {
  sw::SystemConfig c = config(Arch::Omp, 4);
  c.module_words = 2;
  const std::optional<sw::ParameterError> e = workload_error(c, {WorkloadKind::Block, 2, 3});
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(std::string(e->what()).find("single bus"), std::string::npos) << e->what();
  EXPECT_EQ(std::string(e->what()).find("n*l"), std::string::npos) << e->what();
}

TEST(ValidateWorkload, MessagesFitTheLocalMemory) {
  sw::SystemConfig c = config(Arch::Crossbar, 4);
  c.local_words = 24;
  expect_names_parameter(c, {WorkloadKind::Iwr, 3, 5}, "l");
  EXPECT_FALSE(workload_error(c, {WorkloadKind::Iwr, 3, 4}).has_value());
}

TEST(ValidateWorkload, MakeAccessProgramValidatesFirst) {
  EXPECT_THROW((void)sw::make_access_program(config(Arch::Omp, 2), {WorkloadKind::Iwr, 3, 1}),
               sw::ParameterError);
}

TEST(WorkloadKind, ParseRoundTripAndRejection) {
  for (WorkloadKind kind : kKinds) {
    WorkloadKind parsed = kind == WorkloadKind::Iwr ? WorkloadKind::Scalar : WorkloadKind::Iwr;
    ASSERT_TRUE(sw::parse_workload_kind(to_string(kind), parsed));
    EXPECT_EQ(parsed, kind);
  }
  WorkloadKind out = WorkloadKind::Block;
  for (const std::string text : {"", "IWR", "vector", "blocks", "scalar "}) {
    EXPECT_FALSE(sw::parse_workload_kind(text, out)) << "'" << text << "'";
  }
  EXPECT_EQ(out, WorkloadKind::Block);
}

}  // namespace
}  // namespace orthosim
