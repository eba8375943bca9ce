// Payload generator: splitmix64 finalizer over the packed key, truncated to a bus word.
#include "sw/machine/payload.hpp"

namespace orthosim::sw {

namespace {
std::uint64_t mix(std::uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
}  // namespace

Word payload_word(const PayloadKey& key, std::uint32_t index) {
  std::uint64_t h = mix((std::uint64_t{key.source} << 32) | key.destination);
  h = mix(h ^ ((std::uint64_t{key.tag} << 32) | index));
  auto word = static_cast<Word>(h);
  // Never produce the marker of unwritten memory, so a lost word cannot look delivered.
  return word == kUnwrittenWord ? word ^ 1u : word;
}

}  // namespace orthosim::sw
