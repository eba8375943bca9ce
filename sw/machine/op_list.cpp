// The encoding of a processor's ops: the op's index in sw::Op (one byte), then its fields in
// order, each an unsigned LEB128 integer (7 bits a byte, the high bit set on all but the last);
// a vector (slots, a processor set's members) is its length, then its elements.
#include <stdexcept>
#include <type_traits>

#include "sw/machine/machine_program.hpp"

namespace orthosim::sw {

namespace {

/// The index of `Alternative` in Op.
template <class Alternative, std::size_t I = 0>
constexpr std::size_t index_of() {
  if constexpr (std::is_same_v<std::variant_alternative_t<I, Op>, Alternative>) {
    return I;
  } else {
    return index_of<Alternative, I + 1>();
  }
}

class Encoder {
 public:
  explicit Encoder(std::vector<std::uint8_t>& bytes) : bytes_(bytes) {}

  void number(std::uint64_t value) {
    while (value >= 0x80) {
      bytes_.push_back(static_cast<std::uint8_t>(value | 0x80));
      value >>= 7;
    }
    bytes_.push_back(static_cast<std::uint8_t>(value));
  }
  void numbers(const std::vector<std::uint32_t>& values) {
    number(values.size());
    for (std::uint32_t v : values) {
      number(v);
    }
  }
  void access(const MemoryAccess& a) {
    number(static_cast<std::uint8_t>(a.direction));
    number(a.consumed);
    number(static_cast<std::uint8_t>(a.bus.kind));
    number(a.bus.index);
    number(a.address);
    number(a.vectors);
    number(a.index_set);
    numbers(a.slots);
  }
  void copy(std::uint32_t buffer, std::uint32_t local_address, std::uint32_t words,
            std::uint32_t buffer_address) {
    number(buffer);
    number(local_address);
    number(words);
    number(buffer_address);
  }

  void fields(const Compute& op) { number(op.cycles.count()); }
  void fields(const MemoryAccess& op) { access(op); }
  void fields(const Iwr& op) {
    access(op.write());
    access(op.read());
    numbers(op.group().members());
  }
  void fields(const BusSwitch& op) { numbers(op.group.members()); }
  void fields(const ActivateSync& op) { numbers(op.targets.members()); }
  void fields(const WaitSync& op) { number(op.source); }
  void fields(const Barrier& op) { numbers(op.group.members()); }
  void fields(const LoadBuffer& op) {
    copy(op.buffer, op.local_address, op.words, op.buffer_address);
  }
  void fields(const StoreBuffer& op) {
    copy(op.buffer, op.local_address, op.words, op.buffer_address);
  }
  void fields(const StepMark& op) { number(op.step); }

 private:
  std::vector<std::uint8_t>& bytes_;
};

/// Decodes from `offset` in `bytes` and moves `offset` past what it read when it is destroyed.
/// It reads through its own pointers, so that the compiler keeps them in registers (a reference
/// to the offset would be reloaded and stored for every byte).
class Decoder {
 public:
  Decoder(const std::vector<std::uint8_t>& bytes, std::size_t& offset)
      : begin_(bytes.data()),
        at_(bytes.data() + offset),
        end_(bytes.data() + bytes.size()),
        offset_(offset) {}
  Decoder(const Decoder&) = delete;
  Decoder& operator=(const Decoder&) = delete;
  ~Decoder() { offset_ = static_cast<std::size_t>(at_ - begin_); }

  std::uint64_t number() {
    if (at_ != end_ && *at_ < 0x80u) {  // most fields fit in one byte
      return *at_++;
    }
    std::uint64_t value = 0;
    for (unsigned shift = 0;; shift += 7) {
      if (at_ == end_) {
        throw std::out_of_range("OpList: an op runs past the end at byte " +
                                std::to_string(at_ - begin_));
      }
      const std::uint8_t byte = *at_++;
      value |= std::uint64_t{byte & 0x7Fu} << shift;
      if ((byte & 0x80u) == 0) {
        return value;
      }
    }
  }
  std::uint32_t word() { return static_cast<std::uint32_t>(number()); }
  std::vector<std::uint32_t> numbers() {
    std::vector<std::uint32_t> values(number());
    for (std::uint32_t& v : values) {
      v = word();
    }
    return values;
  }
  MemoryAccess access() {
    MemoryAccess a;
    a.direction = static_cast<Direction>(number());
    a.consumed = word();
    a.bus.kind = static_cast<BusKind>(number());
    a.bus.index = word();
    a.address = word();
    a.vectors = word();
    a.index_set = word();
    a.slots = numbers();
    return a;
  }
  template <class Copy>
  Copy copy() {
    Copy c;
    c.buffer = word();
    c.local_address = word();
    c.words = word();
    c.buffer_address = word();
    return c;
  }

  Op op() {
    switch (number()) {
      case index_of<Compute>():
        return Compute{Cycle{number()}};
      case index_of<MemoryAccess>():
        return access();
      case index_of<Iwr>(): {
        MemoryAccess write = access();
        MemoryAccess read = access();
        return Iwr(std::move(write), std::move(read), ProcSet(numbers()));
      }
      case index_of<BusSwitch>():
        return BusSwitch{ProcSet(numbers())};
      case index_of<ActivateSync>():
        return ActivateSync{ProcSet(numbers())};
      case index_of<WaitSync>():
        return WaitSync{word()};
      case index_of<Barrier>():
        return Barrier{ProcSet(numbers())};
      case index_of<LoadBuffer>():
        return copy<LoadBuffer>();
      case index_of<StoreBuffer>():
        return copy<StoreBuffer>();
      case index_of<StepMark>():
        return StepMark{word()};
      default:
        throw std::logic_error("OpList: not an op at byte " + std::to_string(at_ - begin_ - 1));
    }
  }

 private:
  const std::uint8_t* begin_;
  const std::uint8_t* at_;
  const std::uint8_t* end_;
  std::size_t& offset_;
};

}  // namespace

OpList::OpList(std::initializer_list<Op> ops) {
  for (const Op& op : ops) {
    push_back(op);
  }
}

OpList::OpList(const std::vector<Op>& ops) {
  for (const Op& op : ops) {
    push_back(op);
  }
}

void OpList::push_back(const Op& op) {
  if (size_ % kCheckpointEvery == 0) {
    checkpoints_.push_back(bytes_.size());
  }
  Encoder encoder(bytes_);
  encoder.number(op.index());
  std::visit([&](const auto& o) { encoder.fields(o); }, op);
  ++size_;
}

void OpList::shrink_to_fit() {
  bytes_.shrink_to_fit();
  checkpoints_.shrink_to_fit();
}

Op OpList::Reader::next() { return Decoder(list_->bytes_, offset_).op(); }

OpList::const_iterator::const_iterator(const OpList& list, std::size_t index)
    : reader_(list), index_(index), size_(list.size_) {
  if (index_ < size_) {
    current_ = reader_.next();
  }
}

OpList::const_iterator& OpList::const_iterator::operator++() {
  ++index_;
  if (index_ < size_) {
    current_ = reader_.next();
  }
  return *this;
}

Op OpList::operator[](std::size_t index) const {
  if (index >= size_) {
    throw std::out_of_range("op " + std::to_string(index) + " of " + std::to_string(size_));
  }
  Reader reader(*this);
  reader.offset_ = checkpoints_[index / kCheckpointEvery];
  for (std::size_t skipped = index % kCheckpointEvery; skipped > 0; --skipped) {
    reader.next();
  }
  return reader.next();
}

std::vector<Op> OpList::decoded() const {
  std::vector<Op> ops;
  ops.reserve(size_);
  for (const Op& op : *this) {
    ops.push_back(op);
  }
  return ops;
}

}  // namespace orthosim::sw
