// The index (data-buffer) manipulator of [PH91] section 3.2 (Fig. 6): n data buffers of L words
// and an index memory of index sets prepared before the run. On an interleaved read the word of
// stream position p goes to buffer rho(p); on an interleaved write position p takes its word from
// buffer rho(p), and repeated entries replicate a buffer on the fly (broadcast, multicast).
// Passive storage: the bus controller calls it. Its processor reaches it as DataBuffers, which
// the co-simulation layer can give a verilated twin (sc_models/cosim/, --impl im=rtl|cosim).
#pragma once

#include <cstdint>
#include <vector>

#include "sc_models/kernel/word_store.hpp"
#include "sw/machine/machine_program.hpp"

namespace orthosim::sc {

/// The data buffers and index memory as a processor sees them: loaded before a run, and the
/// LoadBuffer and StoreBuffer ops ([PH91] section 4: local memory <-> buffers).
class DataBuffers {
 public:
  virtual ~DataBuffers() = default;
  /// Fills the index memory (before the run) and clears the buffers.
  virtual void load(const std::vector<sw::IndexSet>& index_sets) = 0;
  virtual void write_word(std::uint32_t b, std::uint32_t word, Word value) = 0;
  [[nodiscard]] virtual Word read_word(std::uint32_t b, std::uint32_t word) const = 0;
  /// write_word(b, word + k, values[k]) for k < count, in that order (one call per op, not per
  /// word, for LoadBuffer).
  virtual void write_words(std::uint32_t b, std::uint32_t word, std::uint32_t count,
                           const Word* values) {
    for (std::uint32_t k = 0; k < count; ++k) {
      write_word(b, word + k, values[k]);
    }
  }
  /// read_word(b, word + k) for k < count into out[k] (StoreBuffer).
  virtual void read_words(std::uint32_t b, std::uint32_t word, std::uint32_t count,
                          Word* out) const {
    for (std::uint32_t k = 0; k < count; ++k) {
      out[k] = read_word(b, word + k);
    }
  }
  /// Buffer b's words [word, word + count) where they are plain storage holding them all, to be
  /// read in place (a StoreBuffer without a copy); nullptr where read_words must be asked (a
  /// verilated twin answers, or some words are not stored).
  [[nodiscard]] virtual const Word* stored_words(std::uint32_t /*b*/, std::uint32_t /*word*/,
                                                 std::uint32_t /*count*/) const {
    return nullptr;
  }
  /// Buffer b's words [word, word + count) as plain storage for the caller to write at once, as
  /// write_words would (a LoadBuffer without a copy); nullptr where write_words must be asked.
  [[nodiscard]] virtual Word* words_to_fill(std::uint32_t /*b*/, std::uint32_t /*word*/,
                                            std::uint32_t /*count*/) {
    return nullptr;
  }
};

class IndexManipulator final : public DataBuffers {
 public:
  IndexManipulator(std::uint32_t buffers, std::uint32_t buffer_words);

  void load(const std::vector<sw::IndexSet>& index_sets) override;
  void write_word(std::uint32_t b, std::uint32_t word, Word value) override {
    buffer(b).write(word, value);
  }
  [[nodiscard]] Word read_word(std::uint32_t b, std::uint32_t word) const override {
    return buffer(b).read(word);
  }
  void write_words(std::uint32_t b, std::uint32_t word, std::uint32_t count,
                   const Word* values) override {
    buffer(b).write_range(word, count, values);
  }
  void read_words(std::uint32_t b, std::uint32_t word, std::uint32_t count,
                  Word* out) const override {
    buffer(b).read_range(word, count, out);
  }
  [[nodiscard]] const Word* stored_words(std::uint32_t b, std::uint32_t word,
                                         std::uint32_t count) const override {
    return buffer(b).stored_range(word, count);
  }
  [[nodiscard]] Word* words_to_fill(std::uint32_t b, std::uint32_t word,
                                    std::uint32_t count) override {
    return buffer(b).fill_range(word, count);
  }

  /// rho(position) of index set `set`.
  [[nodiscard]] std::uint32_t buffer_for(std::uint32_t set, std::uint32_t position) const {
    return index_memory_.at(set).at(position);
  }
  [[nodiscard]] WordStore& buffer(std::uint32_t b) { return buffers_.at(b); }
  [[nodiscard]] const WordStore& buffer(std::uint32_t b) const { return buffers_.at(b); }

  /// Read path: word `vector` of stream position `position` lands in buffer rho(position).
  void on_read(std::uint32_t set, std::uint32_t position, std::uint32_t vector, Word word) {
    buffer(buffer_for(set, position)).write(vector, word);
  }
  /// Write path: the word for stream position `position` comes from buffer rho(position).
  [[nodiscard]] Word on_write(std::uint32_t set, std::uint32_t position,
                              std::uint32_t vector) const {
    return buffer(buffer_for(set, position)).read(vector);
  }

 private:
  std::vector<WordStore> buffers_;
  std::vector<sw::IndexSet> index_memory_;
};

}  // namespace orthosim::sc
