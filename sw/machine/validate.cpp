// Machine program validation: every access is one the configuration can perform ([PH91]
// section 3.1), every index set fits the index manipulator (section 3.2), every size fits.
#include "sw/machine/validate.hpp"

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "sw/core/diagnostic.hpp"
#include "sw/machine/describe.hpp"

namespace orthosim::sw {

namespace {

/// Values below a bound seen since the last clear(): a stamp per value, so that a clear costs
/// nothing (the checks below run for every access of every op of a program).
class SeenValues {
 public:
  explicit SeenValues(std::size_t bound) : stamp_(bound, 0) {}
  void clear() { ++now_; }
  /// Marks v (below the bound); false when it was marked since the last clear().
  bool insert(std::uint32_t v) {
    if (stamp_[v] == now_) {
      return false;
    }
    stamp_[v] = now_;
    return true;
  }

 private:
  std::vector<std::uint64_t> stamp_;
  std::uint64_t now_ = 1;
};

class Checker {
 public:
  Checker(const MachineProgram& program, const SystemConfig& config)
      : program_(program),
        config_(config),
        org_(config.organization()),
        seen_(std::max<std::size_t>(org_.slots_per_bus(), config.n)) {}

  void run() {
    if (program_.arch != config_.arch) {
      fail("program '" + program_.name + "' is for the " + to_string(program_.arch) +
           ", the system is a " + to_string(config_.arch));
    }
    if (program_.n != config_.n || program_.processors.size() != config_.n) {
      fail("program '" + program_.name + "' has " + std::to_string(program_.processors.size()) +
           " processors, the system has " + std::to_string(config_.n));
    }
    for (proc_ = 0; proc_ < config_.n; ++proc_) {
      check_processor(program_.processors[proc_]);
    }
    for (const Message& m : program_.messages) {
      check_message(m);
    }
    check_regions_disjoint();
  }

 private:
  [[noreturn]] void fail(const std::string& what) const { throw ConfigError(what); }

  [[noreturn]] void fail_op(const std::string& what) const {
    fail("P" + std::to_string(proc_) + " op " + std::to_string(op_index_) + " (" +
         describe(program_.processors[proc_].ops[op_index_], org_) + "): " + what);
  }

  void check_processor(const ProcessorProgram& p) {
    if (p.index_sets.size() > config_.index_sets) {
      fail("P" + std::to_string(proc_) + " loads " + std::to_string(p.index_sets.size()) +
           " index sets, the index memory holds " + std::to_string(config_.index_sets));
    }
    for (std::size_t s = 0; s < p.index_sets.size(); ++s) {
      for (std::uint32_t b : p.index_sets[s]) {
        if (b >= config_.n) {
          fail("P" + std::to_string(proc_) + " index set " + std::to_string(s) + " names buffer " +
               std::to_string(b) + ", a processor has " + std::to_string(config_.n) +
               " data buffers");
        }
      }
    }
    op_index_ = 0;
    for (const Op& op : p.ops) {
      std::visit([&](const auto& o) { check(p, o); }, op);
      ++op_index_;
    }
  }

  void check(const ProcessorProgram&, const Compute&) {}

  void check(const ProcessorProgram& p, const MemoryAccess& a) {
    if (!org_.has_bus(a.bus)) {
      fail_op("the " + to_string(config_.arch) + " has no bus " + org_.bus_name(a.bus));
    }
    if (!org_.can_drive(proc_, a.bus)) {
      fail_op("BC(" + std::to_string(proc_) + ") cannot drive " + org_.bus_name(a.bus));
    }
    if (a.slots.empty()) {
      fail_op("an access names at least one module");
    }
    seen_.clear();
    for (std::uint32_t s : a.slots) {
      if (s >= org_.slots_per_bus()) {
        fail_op("slot " + std::to_string(s) + " is past the " +
                std::to_string(org_.slots_per_bus()) + " modules of the bus");
      }
      if (!seen_.insert(s)) {
        fail_op("module slot " + std::to_string(s) + " appears twice in one interleaved access");
      }
    }
    if (a.vectors == 0 || a.vectors > config_.buffer_words) {
      fail_op("l = " + std::to_string(a.vectors) + " must be 1.." +
              std::to_string(config_.buffer_words) + " (the data buffer size L)");
    }
    if (std::uint64_t{a.address} + a.vectors > config_.module_words) {
      fail_op("addresses " + std::to_string(a.address) + ".." +
              std::to_string(std::uint64_t{a.address} + a.vectors - 1) +
              " exceed the module depth " + std::to_string(config_.module_words));
    }
    if (a.index_set >= p.index_sets.size()) {
      fail_op("index set " + std::to_string(a.index_set) + " is not loaded (" +
              std::to_string(p.index_sets.size()) + " sets)");
    }
    const IndexSet& rho = p.index_sets[a.index_set];
    if (rho.size() < a.slots.size()) {
      fail_op("index set " + std::to_string(a.index_set) + " has " + std::to_string(rho.size()) +
              " entries for " + std::to_string(a.slots.size()) + " modules");
    }
    if (a.consumed > 0 && a.direction != Direction::Read) {
      fail_op("only a read consumes the words it accesses");
    }
    if (std::uint64_t{a.address} + a.consumed > config_.module_words) {
      fail_op("consumed addresses " + std::to_string(a.address) + ".." +
              std::to_string(std::uint64_t{a.address} + a.consumed - 1) +
              " exceed the module depth " + std::to_string(config_.module_words));
    }
    if (a.direction == Direction::Read) {
      // Replication is a write feature (Fig. 6): on a read, two words into one buffer would lose
      // the first one.
      // (check_processor checked every index set's buffers against n first.)
      seen_.clear();
      for (std::size_t pos = 0; pos < a.slots.size(); ++pos) {
        if (!seen_.insert(rho[pos])) {
          fail_op("a read cannot send two modules' words to buffer " + std::to_string(rho[pos]));
        }
      }
    }
  }

  void check(const ProcessorProgram& p, const Iwr& iwr) {
    if (iwr.write().direction != Direction::Write || iwr.read().direction != Direction::Read) {
      fail_op("an IWR step is a write followed by a read");
    }
    check(p, iwr.write());
    check(p, iwr.read());
    check_group(iwr.group());
  }

  void check(const ProcessorProgram&, const BusSwitch& s) { check_group(s.group); }

  void check(const ProcessorProgram&, const ActivateSync& a) {
    if (a.targets.empty()) {
      fail_op("activate-sync needs at least one target");
    }
    for (ProcId t : a.targets.members()) {
      check_proc(t);
      if (t == proc_) {
        fail_op("a processor cannot activate-sync itself");
      }
    }
  }

  void check(const ProcessorProgram&, const WaitSync& w) {
    check_proc(w.source);
    if (w.source == proc_) {
      fail_op("a processor cannot wait-sync on itself");
    }
  }

  void check(const ProcessorProgram&, const Barrier& b) { check_group(b.group); }

  void check(const ProcessorProgram&, const LoadBuffer& l) {
    check_copy(l.buffer, l.buffer_address, l.local_address, l.words);
  }
  void check(const ProcessorProgram&, const StoreBuffer& s) {
    check_copy(s.buffer, s.buffer_address, s.local_address, s.words);
  }
  void check(const ProcessorProgram&, const StepMark&) {}

  void check_copy(std::uint32_t buffer, std::uint32_t buffer_address, std::uint32_t address,
                  std::uint32_t words) {
    if (buffer >= config_.n) {
      fail_op("buffer " + std::to_string(buffer) + " does not exist (" + std::to_string(config_.n) +
              " buffers)");
    }
    if (words == 0 || std::uint64_t{buffer_address} + words > config_.buffer_words) {
      const std::uint32_t room =
          buffer_address < config_.buffer_words ? config_.buffer_words - buffer_address : 0;
      fail_op("copies 1.." + std::to_string(room) + " words from buffer word " +
              std::to_string(buffer_address) + " (L = " + std::to_string(config_.buffer_words) +
              "), not " + std::to_string(words));
    }
    if (std::uint64_t{address} + words > config_.local_words) {
      fail_op("local memory has " + std::to_string(config_.local_words) + " words");
    }
  }

  void check_proc(ProcId q) {
    if (q >= config_.n) {
      fail_op("there is no processor P" + std::to_string(q));
    }
  }

  void check_group(const ProcSet& group) {
    for (ProcId q : group.members()) {
      check_proc(q);
    }
    if (!group.contains(proc_)) {
      fail_op("the group " + group.to_string() + " must contain P" + std::to_string(proc_));
    }
  }

  void check_message(const Message& m) {
    const std::string which = "message " + std::to_string(m.id);
    if (m.source >= config_.n || m.destination >= config_.n) {
      fail(which + " names a processor outside 0.." + std::to_string(config_.n - 1));
    }
    if (std::uint64_t{m.src_address} + m.words > config_.local_words ||
        std::uint64_t{m.dst_address} + m.words > config_.local_words) {
      fail(which + " does not fit in local memory (" + std::to_string(config_.local_words) +
           " words)");
    }
  }

  /// Two messages may not land on the same local words of one destination, and two different
  /// payloads may not start from the same words of one source: either would make "received
  /// exactly once, with the sent payload" impossible to check.
  void check_regions_disjoint() const {
    struct Region {
      std::uint32_t begin, end, id;
      PayloadKey key;
    };
    auto overlaps = [&](bool at_destination) {
      std::vector<std::vector<Region>> per_proc(config_.n);
      for (const Message& m : program_.messages) {
        const ProcId p = at_destination ? m.destination : m.source;
        const std::uint32_t a = at_destination ? m.dst_address : m.src_address;
        per_proc[p].push_back({a, a + m.words, m.id, m.payload});
      }
      for (ProcId p = 0; p < config_.n; ++p) {
        auto& r = per_proc[p];
        std::sort(r.begin(), r.end(), [](const Region& x, const Region& y) {
          return std::tie(x.begin, x.id) < std::tie(y.begin, y.id);
        });
        // Sweep in address order against every earlier region still open at this one's start.
        std::vector<const Region*> open;
        for (const Region& cur : r) {
          open.erase(std::remove_if(open.begin(), open.end(),
                                    [&](const Region* o) { return o->end <= cur.begin; }),
                     open.end());
          for (const Region* o : open) {
            // A source may share words between messages of one payload, word for word.
            const bool same_words = o->key.source == cur.key.source &&
                                    o->key.destination == cur.key.destination &&
                                    o->key.tag == cur.key.tag && o->begin == cur.begin;
            if (at_destination || !same_words) {
              fail("messages " + std::to_string(o->id) + " and " + std::to_string(cur.id) +
                   " overlap in the local memory of P" + std::to_string(p) +
                   (at_destination ? " (destination)" : " (source)"));
            }
          }
          open.push_back(&cur);
        }
      }
    };
    overlaps(true);
    overlaps(false);
  }

  const MachineProgram& program_;
  const SystemConfig& config_;
  MemoryOrganization org_;
  SeenValues seen_;  ///< an access's slots, then a read's buffers
  ProcId proc_ = 0;
  std::size_t op_index_ = 0;
};

}  // namespace

void validate(const MachineProgram& program, const SystemConfig& config) {
  Checker(program, config).run();
}

}  // namespace orthosim::sw
