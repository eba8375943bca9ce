// Index manipulator storage.
#include "sc_models/multiprocessor/index_manipulator.hpp"

namespace orthosim::sc {

IndexManipulator::IndexManipulator(std::uint32_t buffers, std::uint32_t buffer_words)
    : buffers_(buffers, WordStore(buffer_words)) {}

void IndexManipulator::load(const std::vector<sw::IndexSet>& index_sets) {
  index_memory_ = index_sets;
  for (WordStore& b : buffers_) {
    b.clear();
  }
  if (twin_ != nullptr) {
    for (std::uint32_t set = 0; set < index_sets.size(); ++set) {
      twin_->set_index_set(set, index_sets[set]);
    }
    twin_->fill(sw::kUnwrittenWord);
  }
}

void IndexManipulator::write_word(std::uint32_t b, std::uint32_t word, Word value) {
  buffer(b).write(word, value);
  if (twin_ != nullptr) {
    twin_->set_word(b, word, value);
  }
}

Word IndexManipulator::read_word(std::uint32_t b, std::uint32_t word) const {
  const Word model = buffer(b).read(word);
  return twin_drives_ ? twin_->word(b, word) : model;
}

}  // namespace orthosim::sc
