// Passive word storage (modeling rule 1): memory modules, data buffers and the multicomputer
// nodes' local memories. Not a process and no ports; the active blocks call it. Storage grows on
// first write, so that an n = 64 omp with 4096 modules costs memory only for the words a program
// touches.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "sw/core/word.hpp"

namespace orthosim::sc {

using sw::Word;

class WordStore {
 public:
  explicit WordStore(std::uint32_t depth = 0) : depth_(depth) {}

  [[nodiscard]] std::uint32_t depth() const { return depth_; }

  /// Unwritten words read as sw::kUnwrittenWord, so a lost word never passes for data.
  [[nodiscard]] Word read(std::uint32_t address) const {
    check(address);
    return address < words_.size() ? words_[address] : sw::kUnwrittenWord;
  }

  void write(std::uint32_t address, Word value) {
    check(address);
    if (address >= words_.size()) {
      words_.resize(address + 1, sw::kUnwrittenWord);
    }
    words_[address] = value;
  }

  /// Back to the power-on state, releasing the storage.
  void clear() { std::vector<Word>().swap(words_); }

 private:
  void check(std::uint32_t address) const {
    if (address >= depth_) {
      throw std::out_of_range("word address " + std::to_string(address) + " past depth " +
                              std::to_string(depth_));
    }
  }

  std::uint32_t depth_;
  std::vector<Word> words_;
};

}  // namespace orthosim::sc
