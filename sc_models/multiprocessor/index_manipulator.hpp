// The index (data-buffer) manipulator of [PH91] section 3.2 (Fig. 6): n data buffers of L words
// and an index memory of index sets prepared before the run. On an interleaved read the word of
// stream position p goes to buffer rho(p); on an interleaved write position p takes its word from
// buffer rho(p), and repeated entries replicate a buffer on the fly (broadcast, multicast).
// Passive storage: the bus controller calls it. With --impl im=rtl|cosim it has a verilated twin
// (rtl/index_manipulator.sv) that receives the same loads.
#pragma once

#include <cstdint>
#include <vector>

#include "rtl/bridge/index_manipulator_rtl.hpp"
#include "sc_models/kernel/word_store.hpp"
#include "sw/machine/machine_program.hpp"

namespace orthosim::sc {

class IndexManipulator {
 public:
  IndexManipulator(std::uint32_t buffers, std::uint32_t buffer_words);

  /// Fills the index memory (before the run) and clears the buffers, the twin's too.
  void load(const std::vector<sw::IndexSet>& index_sets);

  /// The verilated twin: every load reaches it through its backdoor; with `drives` (im = rtl)
  /// it is the one the processor's StoreBuffer reads.
  void attach_rtl(rtl::IndexManipulatorRtl& twin, bool drives) {
    twin_ = &twin;
    twin_drives_ = drives;
  }
  /// The processor's LoadBuffer and StoreBuffer ([PH91] section 4: local memory <-> buffers).
  void write_word(std::uint32_t b, std::uint32_t word, Word value);
  [[nodiscard]] Word read_word(std::uint32_t b, std::uint32_t word) const;

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
  rtl::IndexManipulatorRtl* twin_ = nullptr;
  bool twin_drives_ = false;
};

}  // namespace orthosim::sc
