// Cycle: a count of cycles of the emulated clock. A strong type, so that a cycle count cannot be
// mixed up with a word count, an address or a nanosecond value (STYLE rule 3).
#pragma once

#include <cstdint>
#include <ostream>

namespace orthosim::sw {

class Cycle {
 public:
  constexpr Cycle() = default;
  constexpr explicit Cycle(std::uint64_t count) : count_(count) {}

  [[nodiscard]] constexpr std::uint64_t count() const { return count_; }

  constexpr Cycle& operator+=(Cycle other) {
    count_ += other.count_;
    return *this;
  }
  friend constexpr Cycle operator+(Cycle a, Cycle b) { return Cycle{a.count_ + b.count_}; }
  /// Difference of two cycle stamps; the caller guarantees a >= b.
  friend constexpr Cycle operator-(Cycle a, Cycle b) { return Cycle{a.count_ - b.count_}; }
  friend constexpr Cycle operator*(Cycle a, std::uint64_t k) { return Cycle{a.count_ * k}; }
  friend constexpr Cycle operator*(std::uint64_t k, Cycle a) { return Cycle{a.count_ * k}; }
  friend constexpr bool operator==(Cycle a, Cycle b) { return a.count_ == b.count_; }
  friend constexpr bool operator!=(Cycle a, Cycle b) { return a.count_ != b.count_; }
  friend constexpr bool operator<(Cycle a, Cycle b) { return a.count_ < b.count_; }
  friend constexpr bool operator<=(Cycle a, Cycle b) { return a.count_ <= b.count_; }
  friend constexpr bool operator>(Cycle a, Cycle b) { return a.count_ > b.count_; }
  friend constexpr bool operator>=(Cycle a, Cycle b) { return a.count_ >= b.count_; }
  friend std::ostream& operator<<(std::ostream& os, Cycle c) { return os << c.count_; }

 private:
  std::uint64_t count_ = 0;
};

/// The emulator's cycle limit: the most cycles one run may last, and the longest compute phase a
/// program may ask for. Its SystemC time at the slowest clock (10^6 ns) still fits the kernel's
/// 64-bit time at 1 ns resolution. A run that reaches it stops and says so.
inline constexpr Cycle kCycleLimit{1'000'000'000'000ull};

}  // namespace orthosim::sw
