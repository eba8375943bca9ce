// Deterministic payload words. A word is a pure function of (source, destination, tag, index),
// so a receiver is checked against a recomputation, never against a stored copy.
#pragma once

#include <cstdint>

#include "sw/machine/machine_program.hpp"

namespace orthosim::sw {

/// The words of one payload: a splitmix64 finalizer over the packed key, then over the tag and
/// the word's index, truncated to a bus word. The key's part is mixed once per payload, so that
/// the words of a run cost one mix each.
class PayloadWords {
 public:
  explicit PayloadWords(const PayloadKey& key)
      : key_hash_(mix((std::uint64_t{key.source} << 32) | key.destination)),
        tag_(std::uint64_t{key.tag} << 32) {}

  /// Word `index` of the payload.
  [[nodiscard]] Word operator[](std::uint32_t index) const {
    auto word = static_cast<Word>(mix(key_hash_ ^ (tag_ | index)));
    // Never produce the marker of unwritten memory, so a lost word cannot look delivered.
    return word == kUnwrittenWord ? word ^ 1u : word;
  }

 private:
  static std::uint64_t mix(std::uint64_t z) {
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

  std::uint64_t key_hash_;
  std::uint64_t tag_;
};

/// Word `index` of the message identified by `key`.
[[nodiscard]] inline Word payload_word(const PayloadKey& key, std::uint32_t index) {
  return PayloadWords(key)[index];
}

}  // namespace orthosim::sw
