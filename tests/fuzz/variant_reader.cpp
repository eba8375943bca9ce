// Fuzz target of the variant-file reader (sw/variant/variant.hpp, YAML through yaml-cpp): every
// input is a variant or is rejected with file:line:col. A variant names a known architecture and
// holds each of its fields once, each one the architecture takes.
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>

#include "sw/variant/variant.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace {

using orthosim::fuzz::require;

const std::string kFile = "fuzz.yaml";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(orthosim::fuzz::as_text(data, size));
  orthosim::sw::Variant variant;
  try {
    variant = orthosim::sw::parse_variant(text, kFile);
  } catch (const orthosim::sw::InputError& e) {
    orthosim::fuzz::require_position(e, text, kFile);
    return 0;
  }
  const std::uint8_t arch = orthosim::sw::arch_bit(variant.arch().text);
  require(arch != 0, "the variant's arch is known: " + variant.arch().text);
  std::set<std::string> keys;
  for (const orthosim::sw::VariantValue& value : variant.values) {
    const orthosim::sw::VariantFieldSpec* spec = orthosim::sw::find_variant_field(value.key);
    require(spec != nullptr && (spec->archs & arch) != 0,
            "a field the architecture takes: " + value.key);
    require(keys.insert(value.key).second, "each field once: " + value.key);
  }
  return 0;
}
