// The machine program: what each processor of a shared-memory multiprocessor executes, op by op.
// It is the target of every mapping (a multicomputer program mapped onto the omp, the crossbar or
// the bus becomes one of these) and the input of the SystemC system. Free of SystemC.
//
// A processor owns a local memory, n data buffers of L words and an index memory of index sets
// ([PH91] section 3.2). Memory accesses move words between data buffers and memory modules over
// one bus; the index set names, for each word position in the bus stream, the data buffer it
// comes from (write) or goes to (read). Local memory <-> buffer copies are processor-internal.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "sw/arch/architecture.hpp"
#include "sw/core/cycle.hpp"

namespace orthosim::sw {

/// A set of processors, kept sorted and without repetition so that two equal sets compare equal.
class ProcSet {
 public:
  ProcSet() = default;
  /// Sorts and removes duplicates.
  explicit ProcSet(std::vector<ProcId> members);
  /// {0, 1, ..., n-1}.
  static ProcSet all(std::uint32_t n);

  [[nodiscard]] const std::vector<ProcId>& members() const { return members_; }
  [[nodiscard]] bool contains(ProcId p) const;
  [[nodiscard]] std::size_t size() const { return members_.size(); }
  [[nodiscard]] bool empty() const { return members_.empty(); }
  [[nodiscard]] std::string to_string() const;  ///< "{0,2,3}"

  friend bool operator==(const ProcSet& a, const ProcSet& b) { return a.members_ == b.members_; }
  friend bool operator<(const ProcSet& a, const ProcSet& b) { return a.members_ < b.members_; }

 private:
  std::vector<ProcId> members_;
};

enum class Direction : std::uint8_t { Read, Write };

/// The access protocols of [PH91] section 3.1 (Fig. 5). The kind follows from the shape of an
/// access: one word of one module is scalar; one vector over d modules is interleaved; l > 1
/// vectors is block-interleaved.
enum class AccessKind : std::uint8_t { Scalar, Interleaved, Block };

[[nodiscard]] std::string to_string(AccessKind k);

/// One access of one bus controller on one bus. The direction comes last: after the vector it
/// fills padding, which makes an access, and so every op, 8 bytes smaller.
struct MemoryAccess {
  /// The d module slots of the bus, in the order their words stream over the bus.
  std::vector<std::uint32_t> slots;
  BusRef bus;
  /// Word address, inside every module, of the first vector; vector v uses address + v.
  std::uint32_t address = 0;
  /// l: vectors in the block; each vector is one word from (or to) each of the d modules.
  std::uint32_t vectors = 1;
  /// Index set (in the processor's index memory): stream position p <-> data buffer rho(p);
  /// word v of the position's module is word v of that buffer.
  std::uint32_t index_set = 0;
  /// A read that takes its words: no access reads words [address, address + consumed) of its
  /// modules again (a mailbox's words, which the mapping gives each message for it alone, and
  /// the padding a longer write left after them), so the modules forget them when the read ends
  /// and hold only the words in flight. 0: the words stay.
  std::uint32_t consumed = 0;
  Direction direction = Direction::Read;

  [[nodiscard]] std::uint32_t degree() const { return static_cast<std::uint32_t>(slots.size()); }
  [[nodiscard]] AccessKind kind() const;
  [[nodiscard]] std::uint64_t words() const { return std::uint64_t{degree()} * vectors; }
};

/// Compute for a number of cycles.
struct Compute {
  Cycle cycles;
};

/// An interleaved-write-then-read step ([PH91] section 3.1): a block-interleaved write, a bus
/// switch that waits for every member of `group` to finish its write and then costs gamma, and a
/// block-interleaved read. On the omp the write uses RB(i) and the read CB(i).
///
/// Its parts are held behind a pointer: an Op is as large as its largest alternative, and the
/// small ops (syncs, buffer copies) that most ops are need not carry two accesses each when
/// decoded (OpList) or edited as a vector.
class Iwr {
 public:
  /// `group`: the processors taking part in this IWR step, this one included.
  Iwr(MemoryAccess write, MemoryAccess read, ProcSet group);
  Iwr(const Iwr& other);
  Iwr& operator=(const Iwr& other);
  Iwr(Iwr&&) noexcept = default;
  Iwr& operator=(Iwr&&) noexcept = default;
  ~Iwr();

  [[nodiscard]] const MemoryAccess& write() const { return parts_->write; }
  [[nodiscard]] const MemoryAccess& read() const { return parts_->read; }
  [[nodiscard]] const ProcSet& group() const { return parts_->group; }
  [[nodiscard]] MemoryAccess& write() { return parts_->write; }
  [[nodiscard]] MemoryAccess& read() { return parts_->read; }

 private:
  struct Parts {
    MemoryAccess write;
    MemoryAccess read;
    ProcSet group;
  };
  std::unique_ptr<Parts> parts_;
};

/// Wait until every member of `group` has arrived, then switch buses: gamma cycles later all
/// continue. The middle of an IWR step, on its own for the crossbar and the bus, where a step's
/// reads are several accesses ([PH91] section 4.3).
struct BusSwitch {
  ProcSet group;
};

/// Raise a sync interrupt at every target over the interrupt bus (producer side).
struct ActivateSync {
  ProcSet targets;
};

/// Block until one activate-sync from `source` has arrived, and consume it (consumer side).
struct WaitSync {
  ProcId source = 0;
};

/// Block until every member of `group` has arrived, then all continue together.
struct Barrier {
  ProcSet group;
};

/// Copy `words` words from local memory to data buffer `buffer`, starting at word
/// `buffer_address` of the buffer (several pieces can fill one buffer: a message that carries the
/// messages of several nodes of a cluster, [PH91] section 5).
struct LoadBuffer {
  std::uint32_t buffer = 0;
  std::uint32_t local_address = 0;
  std::uint32_t words = 0;
  std::uint32_t buffer_address = 0;
};

/// Copy `words` words from data buffer `buffer`, from its word `buffer_address`, to local memory.
struct StoreBuffer {
  std::uint32_t buffer = 0;
  std::uint32_t local_address = 0;
  std::uint32_t words = 0;
  std::uint32_t buffer_address = 0;
};

/// Marks the end of program step `step` on this processor: costs nothing, and the run records the
/// cycle at which each processor passed it, so that a mapped program's steps can be timed.
struct StepMark {
  std::uint32_t step = 0;
};

using Op = std::variant<Compute, MemoryAccess, Iwr, BusSwitch, ActivateSync, WaitSync, Barrier,
                        LoadBuffer, StoreBuffer, StepMark>;

/// rho: stream position -> data buffer index.
using IndexSet = std::vector<std::uint32_t>;

/// A processor's ops, held encoded (op_list.cpp): a mapped program has millions of ops (several
/// per message) and most of their fields are small numbers, so each op is held as a tag byte and
/// its fields as variable-length integers (7 bits a byte), a few bytes instead of the 56 of an Op
/// and the vectors of its processor sets and slots. Ops are appended and read back in order;
/// reading decodes an Op.
class OpList {
 public:
  OpList() = default;
  OpList(std::initializer_list<Op> ops);
  explicit OpList(const std::vector<Op>& ops);

  void push_back(const Op& op);
  template <class... Args>
  void emplace_back(Args&&... args) {
    push_back(Op(std::forward<Args>(args)...));
  }

  [[nodiscard]] std::size_t size() const { return size_; }
  [[nodiscard]] bool empty() const { return size_ == 0; }
  /// The bytes the ops are held in (footprint estimates).
  [[nodiscard]] std::size_t bytes() const {
    return bytes_.capacity() + checkpoints_.capacity() * sizeof(std::size_t);
  }
  /// Releases spare capacity once the list is complete.
  void shrink_to_fit();

  /// Reads the ops in order from `position` (a byte offset, 0 for the first op).
  class Reader {
   public:
    Reader() = default;
    explicit Reader(const OpList& list) : list_(&list) {}
    [[nodiscard]] bool at_end() const {
      return list_ == nullptr || offset_ >= list_->bytes_.size();
    }
    /// Decodes the next op and moves past it.
    Op next();

   private:
    const OpList* list_ = nullptr;
    std::size_t offset_ = 0;
    friend class OpList;
  };

  /// Input iterator decoding one op at a time (range-for over a list reads it in order).
  class const_iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = Op;
    using difference_type = std::ptrdiff_t;
    using pointer = const Op*;
    using reference = const Op&;

    const_iterator() = default;
    const_iterator(const OpList& list, std::size_t index);
    const Op& operator*() const { return current_; }
    const Op* operator->() const { return &current_; }
    const_iterator& operator++();
    friend bool operator==(const const_iterator& a, const const_iterator& b) {
      return a.index_ == b.index_;
    }
    friend bool operator!=(const const_iterator& a, const const_iterator& b) { return !(a == b); }

   private:
    Reader reader_;
    std::size_t index_ = 0;
    std::size_t size_ = 0;
    Op current_;
  };
  [[nodiscard]] const_iterator begin() const { return const_iterator(*this, 0); }
  [[nodiscard]] const_iterator end() const { return const_iterator(*this, size_); }

  /// Op `index`, decoded (from the nearest checkpoint: at most kCheckpointEvery ops are read).
  [[nodiscard]] Op operator[](std::size_t index) const;
  [[nodiscard]] Op back() const { return (*this)[size_ - 1]; }
  /// Every op, decoded: for the callers that edit a program (tests, repetitions).
  [[nodiscard]] std::vector<Op> decoded() const;

 private:
  static constexpr std::size_t kCheckpointEvery = 64;

  std::vector<std::uint8_t> bytes_;
  /// The byte offset of every kCheckpointEvery-th op, for operator[].
  std::vector<std::size_t> checkpoints_;
  std::size_t size_ = 0;
};

struct ProcessorProgram {
  std::vector<IndexSet> index_sets;  ///< loaded into the index memory before the run
  OpList ops;
};

/// Identifies the payload of a message: its words are a pure function of this key and the word
/// index, so any receiver can be checked without keeping a copy of what was sent.
struct PayloadKey {
  ProcId source = 0;
  /// The destination for a personalized message; kBroadcast when one payload goes to several
  /// destinations (broadcast, multicast), which replication in the index manipulator relies on.
  std::uint32_t destination = 0;
  std::uint32_t tag = 0;  ///< distinguishes messages between the same pair (a step number)

  static constexpr std::uint32_t kBroadcast = 0xFFFFFFFFu;

  friend bool operator==(const PayloadKey& a, const PayloadKey& b) {
    return a.source == b.source && a.destination == b.destination && a.tag == b.tag;
  }
};

/// A message the run must deliver: `words` words from `source`'s local memory at `src_address`
/// to `destination`'s local memory at `dst_address`.
struct Message {
  std::uint32_t id = 0;
  ProcId source = 0;
  ProcId destination = 0;
  PayloadKey payload;
  std::uint32_t words = 0;
  std::uint32_t src_address = 0;
  std::uint32_t dst_address = 0;
};

struct MachineProgram {
  std::string name;
  Arch arch = Arch::Omp;
  std::uint32_t n = 0;
  std::vector<ProcessorProgram> processors;  ///< exactly n
  std::vector<Message> messages;             ///< the delivery manifest
  /// How many times each message is delivered, in order: more than once for back-to-back
  /// repetitions of one program (`orthosim access --repeat`).
  std::uint32_t deliveries = 1;
};

}  // namespace orthosim::sw
