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
}

}  // namespace orthosim::sc
