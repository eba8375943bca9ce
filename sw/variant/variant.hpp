// A variant file (docs/variants.md): one configuration named completely in YAML: architecture,
// sizes, costs, router and interface parameters, block implementations. Every field is the
// command-line option of the same name, so `alpha: 16` in a file, `--alpha 16` on the command line
// and `--param alpha=16` in a sweep are one parameter. The parser checks the file's shape and each
// value's type with file:line:col; the ranges are the options' own (sw/cli/options.cpp), whose
// errors the command line points back at the field (sw/cli/variant_options.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sw/core/diagnostic.hpp"

namespace orthosim::sw {

/// What a field's value must be in the file.
enum class FieldType : std::uint8_t {
  Integer,  ///< a plain (unquoted) decimal integer
  Name,     ///< a scalar: a name such as `wormhole` or `omp`
  Radices,  ///< a list of integers [8, 8] or the text 8x8
  Impl,     ///< `model`, `rtl`, `cosim`, `im=rtl,bus=model`, or a mapping {im: rtl, ...}
};

/// The architectures a field applies to, as bits.
enum ArchMask : std::uint8_t {
  kOmp = 1,
  kCrossbar = 2,
  kBus = 4,
  kMesh = 8,
  kTorus = 16,
  kHypercube = 32,
  kSharedMemory = kOmp | kCrossbar | kBus,
  kNetworks = kMesh | kTorus | kHypercube,
  kEveryArch = kSharedMemory | kNetworks,
};

struct VariantFieldSpec {
  const char* key;  ///< the field, and the option of the same name
  FieldType type;
  std::uint8_t archs;  ///< ArchMask bits of the architectures that take it
};

/// Every field a variant may have, in the order of the sweep's CSV columns.
const std::vector<VariantFieldSpec>& variant_fields();
/// The field named `key`, or nullptr.
const VariantFieldSpec* find_variant_field(const std::string& key);
/// The ArchMask bit of `arch` (omp ... hypercube), or 0 for anything else.
std::uint8_t arch_bit(const std::string& arch);
/// "omp, crossbar, bus" for the bits of `archs`.
std::string arch_names(std::uint8_t archs);

/// One field of a file: its value as the option's text (a list of radices joined by 'x', an
/// implementation spec in canonical form) and where the key and the value stand.
struct VariantValue {
  std::string key;
  std::string text;
  SourceLocation key_where;
  SourceLocation where;
};

struct Variant {
  std::string path;
  std::vector<VariantValue> values;  ///< in file order; `arch` is always present

  [[nodiscard]] const VariantValue* find(const std::string& key) const;
  [[nodiscard]] const VariantValue& arch() const;
};

/// Parses the YAML `text` of a variant named `path` (for locations). Throws InputError at the
/// offending byte, key or value: text that is not UTF-8 (check_text), malformed YAML, a second
/// YAML document, not a mapping, unknown or repeated field, a value of the wrong type, an unknown
/// architecture, a field the architecture does not take, no `arch`.
Variant parse_variant(const std::string& text, const std::string& path);
/// Reads (sw/core/input_file.hpp: at most 64 MiB, no waiting on a silent FIFO) and parses the
/// file at `path`; a missing or unreadable file is an InputError naming the path.
Variant read_variant_file(const std::string& path);

}  // namespace orthosim::sw
