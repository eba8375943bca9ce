// Passive word storage (modeling rule 1): memory modules, data buffers and the multicomputer
// nodes' local memories. Not a process and no ports; the active blocks call it. Storage grows on
// first write, so that an n = 64 omp with 4096 modules costs memory only for the words a program
// touches; words forgotten (a mailbox's words once their reader has taken them) are released
// from the front, so a mailbox holds the words in flight, not every word ever written to it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "sw/core/word.hpp"

namespace orthosim::sc {

using sw::Word;

/// The words a group of stores holds (WordStore::held, summed), now and at most since reset:
/// how memory follows the work in flight, for tests.
struct HeldWords {
  std::uint64_t now = 0;
  std::uint64_t peak = 0;
};

class WordStore {
 public:
  /// `tally`, if given, counts the words this store holds together with those of other stores.
  explicit WordStore(std::uint32_t depth = 0, HeldWords* tally = nullptr)
      : depth_(depth), tally_(tally) {}

  [[nodiscard]] std::uint32_t depth() const { return depth_; }

  /// Unwritten and forgotten words read as sw::kUnwrittenWord, so a lost word never passes for
  /// data.
  [[nodiscard]] Word read(std::uint32_t address) const {
    check(address);
    return stored(address) ? words_[address - base_] : sw::kUnwrittenWord;
  }

  void write(std::uint32_t address, Word value) {
    check(address);
    const std::uint64_t before = held();
    if (address < base_) {  // below the forgotten front: the front moves back
      words_.insert(words_.begin(), base_ - address, sw::kUnwrittenWord);
      live_.insert(live_.begin(), base_ - address, false);
      base_ = address;
    }
    if (address - base_ >= words_.size()) {
      words_.resize(address - base_ + 1, sw::kUnwrittenWord);
      live_.resize(address - base_ + 1, false);
    }
    words_[address - base_] = value;
    live_[address - base_] = true;
    tally(before);
  }

  /// read(address + k) for k < count into out[k]: one range check, the stored words one copy.
  void read_range(std::uint32_t address, std::uint32_t count, Word* out) const {
    if (count == 0) {
      return;
    }
    check_range(address, count);
    const std::uint64_t end = std::uint64_t{address} + count;
    const std::uint64_t first = std::max<std::uint64_t>(address, base_);
    const std::uint64_t last = std::min<std::uint64_t>(end, base_ + words_.size());
    if (first >= last) {
      std::fill(out, out + count, sw::kUnwrittenWord);
      return;
    }
    std::fill(out, out + (first - address), sw::kUnwrittenWord);
    std::copy(words_.begin() + static_cast<std::ptrdiff_t>(first - base_),
              words_.begin() + static_cast<std::ptrdiff_t>(last - base_), out + (first - address));
    std::fill(out + (last - address), out + count, sw::kUnwrittenWord);
  }

  /// The words [address, address + count) in the storage, if all of them are stored (they read
  /// as they are): valid until the next write or forget. Else nullptr (read_range fills them).
  [[nodiscard]] const Word* stored_range(std::uint32_t address, std::uint32_t count) const {
    return count > 0 && stored(address) && address - base_ + std::uint64_t{count} <= words_.size()
               ? words_.data() + (address - base_)
               : nullptr;
  }

  /// write(address + k, words[k]) for k < count, in that order: the storage grows once.
  void write_range(std::uint32_t address, std::uint32_t count, const Word* words) {
    if (Word* to = fill_range(address, count)) {
      std::copy(words, words + count, to);
    }
  }

  /// The storage of words [address, address + count), grown and marked written as write_range
  /// does, for the caller to write every one of them before the store is used again (nullptr if
  /// count is 0).
  [[nodiscard]] Word* fill_range(std::uint32_t address, std::uint32_t count) {
    if (count == 0) {
      return nullptr;
    }
    check_range(address, count);
    const std::uint64_t before = held();
    if (address < base_) {
      words_.insert(words_.begin(), base_ - address, sw::kUnwrittenWord);
      live_.insert(live_.begin(), base_ - address, false);
      base_ = address;
    }
    const std::uint32_t last = address + (count - 1) - base_;
    if (last >= words_.size()) {
      words_.resize(std::size_t{last} + 1, sw::kUnwrittenWord);
      live_.resize(std::size_t{last} + 1, false);
    }
    std::fill(live_.begin() + (address - base_), live_.begin() + (last + 1), true);
    tally(before);
    return words_.data() + (address - base_);
  }

  /// Words [address, address + count) will not be read again: they read as unwritten from now
  /// on, and the storage from the lowest word still held up to the first live one is released.
  void forget(std::uint32_t address, std::uint32_t count) {
    for (std::uint32_t w = 0; w < count; ++w) {
      if (held_at(address + w)) {
        live_[address + w - base_] = false;
        words_[address + w - base_] = sw::kUnwrittenWord;
      }
    }
    std::size_t front = 0;
    while (front < live_.size() && !live_[front]) {
      ++front;
    }
    const std::uint64_t before = held();
    words_.erase(words_.begin(), words_.begin() + static_cast<std::ptrdiff_t>(front));
    live_.erase(live_.begin(), live_.begin() + static_cast<std::ptrdiff_t>(front));
    base_ += static_cast<std::uint32_t>(front);
    tally(before);
  }

  /// The words held: from the lowest written and not forgotten to the highest written.
  [[nodiscard]] std::uint64_t held() const { return words_.size(); }

  /// Back to the power-on state, releasing the storage.
  void clear() {
    const std::uint64_t before = held();
    std::vector<Word>().swap(words_);
    std::vector<bool>().swap(live_);
    base_ = 0;
    tally(before);
  }

 private:
  void check(std::uint32_t address) const {
    if (address >= depth_) {
      throw std::out_of_range("word address " + std::to_string(address) + " past depth " +
                              std::to_string(depth_));
    }
  }
  /// Words [address, address + count), count > 0, all within the depth (in 64 bits: the last
  /// address of a range near 2^32 must not wrap round to a small one).
  void check_range(std::uint32_t address, std::uint32_t count) const {
    if (std::uint64_t{address} + count > depth_) {
      throw std::out_of_range("word address " + std::to_string(std::uint64_t{address} + count - 1) +
                              " past depth " + std::to_string(depth_));
    }
  }
  /// Moves the tally from `before` words held to held().
  void tally(std::uint64_t before) {
    if (tally_ != nullptr) {
      tally_->now = tally_->now - before + held();
      tally_->peak = std::max(tally_->peak, tally_->now);
    }
  }
  /// In the storage: from base_ to the highest word written.
  [[nodiscard]] bool stored(std::uint32_t address) const {
    return address >= base_ && address - base_ < words_.size();
  }
  [[nodiscard]] bool held_at(std::uint32_t address) const {
    return stored(address) && live_[address - base_];
  }

  std::uint32_t depth_;
  std::uint32_t base_ = 0;  ///< the address of words_[0]
  /// From base_ up to the highest word written. A word not live holds sw::kUnwrittenWord (the
  /// storage grows with it, forget() puts it back), so the stored words read as they are.
  std::vector<Word> words_;
  std::vector<bool> live_;  ///< per word of words_: written and not forgotten
  HeldWords* tally_;
};

}  // namespace orthosim::sc
