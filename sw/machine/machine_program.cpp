// Small value types of the machine program.
#include "sw/machine/machine_program.hpp"

#include <algorithm>

namespace orthosim::sw {

ProcSet::ProcSet(std::vector<ProcId> members) : members_(std::move(members)) {
  std::sort(members_.begin(), members_.end());
  members_.erase(std::unique(members_.begin(), members_.end()), members_.end());
}

Iwr::Iwr(MemoryAccess write, MemoryAccess read, ProcSet group)
    : parts_(std::make_unique<Parts>(Parts{std::move(write), std::move(read), std::move(group)})) {}

Iwr::Iwr(const Iwr& other) : parts_(std::make_unique<Parts>(*other.parts_)) {}

Iwr& Iwr::operator=(const Iwr& other) {
  if (this != &other) {
    parts_ = std::make_unique<Parts>(*other.parts_);
  }
  return *this;
}

Iwr::~Iwr() = default;

ProcSet ProcSet::all(std::uint32_t n) {
  std::vector<ProcId> m(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    m[i] = i;
  }
  return ProcSet(std::move(m));
}

bool ProcSet::contains(ProcId p) const {
  return std::binary_search(members_.begin(), members_.end(), p);
}

std::string ProcSet::to_string() const {
  std::string s = "{";
  for (std::size_t i = 0; i < members_.size(); ++i) {
    s += (i ? "," : "") + std::to_string(members_[i]);
  }
  return s + "}";
}

std::string to_string(AccessKind k) {
  switch (k) {
    case AccessKind::Scalar:
      return "scalar";
    case AccessKind::Interleaved:
      return "interleaved";
    case AccessKind::Block:
      return "block";
  }
  return "?";
}

AccessKind MemoryAccess::kind() const {
  if (vectors > 1) {
    return AccessKind::Block;
  }
  return degree() == 1 ? AccessKind::Scalar : AccessKind::Interleaved;
}

}  // namespace orthosim::sw
