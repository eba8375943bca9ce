// Variant files: YAML through yaml-cpp, whose marks give every key and value its line and column.
#include "sw/variant/variant.hpp"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <limits>
#include <map>
#include <sstream>

#include "sw/arch/implementation.hpp"
#include "sw/core/input_file.hpp"

namespace orthosim::sw {

namespace {

constexpr const char* kArchNames[] = {"omp", "crossbar", "bus", "mesh", "torus", "hypercube"};

SourceLocation at(const std::string& path, const YAML::Mark& mark) {
  // yaml-cpp counts from 0; a mark of -1 means "no position" (an empty document).
  return {path, static_cast<std::uint32_t>(mark.line < 0 ? 1 : mark.line + 1),
          static_cast<std::uint32_t>(mark.column < 0 ? 1 : mark.column + 1)};
}

/// How a node is written, for "found ..." in errors.
std::string shape_of(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Null:
      return "nothing";
    case YAML::NodeType::Sequence:
      return node.size() == 0 ? "an empty list" : "a list";
    case YAML::NodeType::Map:
      return node.size() == 0 ? "an empty mapping" : "a mapping";
    case YAML::NodeType::Scalar:
      if (node.Tag() == "!") {
        return "the quoted text \"" + node.Scalar() + "\"";
      }
      // A tag ("!!int 16") is refused with the value: '16' alone would read as an integer.
      if (node.Tag() != "?") {
        const std::string core = "tag:yaml.org,2002:";  // "!!" as the file spells it
        const std::string& tag = node.Tag();
        return "'" + node.Scalar() + "' tagged " +
               (tag.rfind(core, 0) == 0 ? "!!" + tag.substr(core.size()) : tag);
      }
      return "'" + node.Scalar() + "'";
    case YAML::NodeType::Undefined:
      break;
  }
  return "nothing";
}

bool is_integer_text(const std::string& s) {
  const std::size_t digits = !s.empty() && s[0] == '-' ? 1 : 0;
  if (s.size() == digits) {
    return false;
  }
  for (std::size_t i = digits; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') {
      return false;
    }
  }
  return true;
}

/// A plain (unquoted) integer scalar, as text; the option's parser checks its range.
std::string integer_of(const YAML::Node& node, const SourceLocation& where,
                       const std::string& what) {
  if (!node.IsScalar() || node.Tag() != "?" || !is_integer_text(node.Scalar())) {
    throw InputError(where, what, shape_of(node));
  }
  return node.Scalar();
}

/// The text of a field's value at `where`, checked for the field's type.
std::string value_text(const VariantFieldSpec& spec, const YAML::Node& node,
                       const std::string& path, const SourceLocation& where) {
  switch (spec.type) {
    case FieldType::Integer:
      return integer_of(node, where, "an integer for " + std::string(spec.key));
    case FieldType::Name:
      if (!node.IsScalar()) {
        throw InputError(where, "a name for " + std::string(spec.key), shape_of(node));
      }
      return node.Scalar();
    case FieldType::Radices: {
      if (node.IsScalar()) {
        return node.Scalar();
      }
      if (!node.IsSequence() || node.size() == 0) {
        throw InputError(where, "the radices as a list such as [8, 8] or as 8x8", shape_of(node));
      }
      std::string joined;
      for (const YAML::Node& radix : node) {
        joined += (joined.empty() ? "" : "x") +
                  integer_of(radix, at(path, radix.Mark()), "an integer radix");
      }
      return joined;
    }
    case FieldType::Impl: {
      if (node.IsScalar()) {
        return Implementations::parse(node.Scalar(), where).to_string();
      }
      if (!node.IsMap()) {
        throw InputError(where, "model, rtl, cosim or a mapping such as {im: rtl, bus: model}",
                         shape_of(node));
      }
      // Each entry is one block=impl pair: a comma or '=' in a key or value would make the pair a
      // list of its own ({im: "rtl,bus=rtl"} setting bus too), and a block named twice is refused
      // as `im=rtl,im=model` is, not taken from the last entry.
      Implementations impl;
      std::map<std::string, SourceLocation> blocks;
      for (const auto& entry : node) {
        const YAML::Node& offending = entry.first.IsScalar() ? entry.second : entry.first;
        if (!offending.IsScalar()) {
          throw InputError(at(path, offending.Mark()), "block: model|rtl|cosim",
                           shape_of(offending));
        }
        const std::string block = entry.first.Scalar();
        const std::string name = entry.second.Scalar();
        const SourceLocation block_where = at(path, entry.first.Mark());
        const SourceLocation name_where = at(path, entry.second.Mark());
        if (block.find_first_of(",=") != std::string::npos) {
          throw InputError(block_where, "a block such as im", "'" + block + "'");
        }
        Implementations::parse(block + "=model", block_where);
        if (const auto first = blocks.find(block); first != blocks.end()) {
          throw InputError(block_where, "each block once",
                           "'" + block + "' again (first at " + first->second.to_string() + ")");
        }
        blocks.emplace(block, block_where);
        if (name.find_first_of(",=") != std::string::npos) {
          throw InputError(name_where, "model, rtl or cosim", "'" + name + "'");
        }
        impl = Implementations::parse(block + "=" + name, name_where, impl);
      }
      return impl.to_string();
    }
  }
  return node.Scalar();
}

/// Records where each YAML document starts, and nothing else.
class DocumentStarts : public YAML::EventHandler {
 public:
  void OnDocumentStart(const YAML::Mark& mark) override { marks.push_back(mark); }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}

  std::vector<YAML::Mark> marks;
};

constexpr const char* kMappingOfFields = "a YAML mapping of variant fields such as 'arch: omp'";

/// When YAML does not read a mapping from a file (it read a second document, a text, or a syntax
/// error), the cause is often a line that is no `key: value` at all: a program (.mcp) given as a
/// variant reads as text and documents. This refuses the first line that starts at column 1 and
/// cannot begin a field (no "key:"), if there is one before `before_line` (1-based); comments,
/// document markers, directives, list items and indented continuation lines are skipped.
void refuse_line_that_is_no_field(const std::string& text, const std::string& path,
                                  std::uint32_t before_line) {
  std::istringstream lines(text);
  std::uint32_t number = 0;
  for (std::string line; std::getline(lines, line) && ++number < before_line;) {
    if (!line.empty() && line.back() == '\r') {
      line.pop_back();
    }
    if (line.empty() || std::string(" \t#%-.").find(line[0]) != std::string::npos) {
      continue;
    }
    const std::size_t colon = line.find(':');
    if (colon != std::string::npos &&
        (colon + 1 == line.size() || line[colon + 1] == ' ' || line[colon + 1] == '\t')) {
      continue;
    }
    // The line without its comment and trailing blanks, as the file has it.
    line = line.substr(0, line.find(" #"));
    line.erase(line.find_last_not_of(" \t") + 1);
    // Every program begins with its node count (docs/program-format.md): say what the file is.
    const bool program = line.rfind("nodes ", 0) == 0 || line.rfind("nodes\t", 0) == 0;
    throw InputError(SourceLocation{path, number, 1}, kMappingOfFields,
                     "'" + line + "'" +
                         (program ? ", the first statement of a program (.mcp)" : ", not a field"));
  }
}

/// A variant is one configuration: YAML::Load would take the first document and drop the rest,
/// so a second one is refused where it starts.
void refuse_second_document(const std::string& text, const std::string& path) {
  std::istringstream stream(text);
  YAML::Parser parser(stream);
  DocumentStarts starts;
  while (starts.marks.size() < 2 && parser.HandleNextDocument(starts)) {
  }
  if (starts.marks.size() >= 2) {
    const SourceLocation second = at(path, starts.marks[1]);
    refuse_line_that_is_no_field(text, path, second.line + 1);
    throw InputError(second, "one YAML document (a variant is one configuration)",
                     "a second document");
  }
}

std::string field_list() {
  std::string list;
  for (const VariantFieldSpec& f : variant_fields()) {
    list += (list.empty() ? "" : ", ") + std::string(f.key);
  }
  return list;
}

/// The bytes of line `line` (1-based, lines ended by '\n') of `text`; 0 past its last line.
std::uint32_t line_length(const std::string& text, std::uint32_t line) {
  std::size_t start = 0;
  for (std::uint32_t l = 1; l < line; ++l) {
    start = text.find('\n', start);
    if (start == std::string::npos) {
      return 0;
    }
    ++start;
  }
  const std::size_t end = std::min(text.find('\n', start), text.size());
  return static_cast<std::uint32_t>(end - start);
}

}  // namespace

const std::vector<VariantFieldSpec>& variant_fields() {
  static const std::vector<VariantFieldSpec> fields = {
      {"arch", FieldType::Name, kEveryArch},
      {"n", FieldType::Integer, kSharedMemory},
      {"dims", FieldType::Radices, kMesh | kTorus},
      {"dim", FieldType::Integer, kHypercube},
      {"alpha", FieldType::Integer, kSharedMemory},
      {"beta", FieldType::Integer, kSharedMemory},
      {"tau", FieldType::Integer, kSharedMemory},
      {"gamma", FieldType::Integer, kSharedMemory},
      {"sync-cycles", FieldType::Integer, kSharedMemory},
      {"barrier-cycles", FieldType::Integer, kSharedMemory},
      {"buffer-words", FieldType::Integer, kSharedMemory},
      {"module-words", FieldType::Integer, kSharedMemory},
      {"local-words", FieldType::Integer, kSharedMemory},
      {"switching", FieldType::Name, kNetworks},
      {"ports", FieldType::Name, kNetworks},
      {"startup", FieldType::Integer, kNetworks},
      {"buffers", FieldType::Integer, kNetworks},
      {"vcs", FieldType::Integer, kNetworks},
      {"routing", FieldType::Name, kHypercube},
      {"router-delay", FieldType::Integer, kNetworks},
      {"packet-flits", FieldType::Integer, kNetworks},
      {"watchdog", FieldType::Integer, kNetworks},
      {"clock-ns", FieldType::Integer, kEveryArch},
      {"impl", FieldType::Impl, kEveryArch},
  };
  return fields;
}

const VariantFieldSpec* find_variant_field(const std::string& key) {
  for (const VariantFieldSpec& f : variant_fields()) {
    if (key == f.key) {
      return &f;
    }
  }
  return nullptr;
}

std::uint8_t arch_bit(const std::string& arch) {
  for (std::size_t i = 0; i < std::size(kArchNames); ++i) {
    if (arch == kArchNames[i]) {
      return static_cast<std::uint8_t>(1u << i);
    }
  }
  return 0;
}

std::string arch_names(std::uint8_t archs) {
  std::string names;
  for (std::size_t i = 0; i < std::size(kArchNames); ++i) {
    if (archs & (1u << i)) {
      names += (names.empty() ? "" : ", ") + std::string(kArchNames[i]);
    }
  }
  return names;
}

const VariantValue* Variant::find(const std::string& key) const {
  for (const VariantValue& v : values) {
    if (v.key == key) {
      return &v;
    }
  }
  return nullptr;
}

const VariantValue& Variant::arch() const { return *find("arch"); }

Variant parse_variant(const std::string& text, const std::string& path) {
  check_text(text, path, TextEncoding::Utf8);
  YAML::Node root;
  try {
    refuse_second_document(text, path);
    root = YAML::Load(text);
  } catch (const YAML::DeepRecursion& e) {
    // yaml-cpp stops a deep nesting (hundreds of levels) with the text "bad file", which says
    // nothing of the file.
    throw InputError(at(path, e.mark), "a flat mapping of variant fields (docs/variants.md)",
                     "lists or mappings nested deeper than the YAML reader takes");
  } catch (const YAML::ParserException& e) {
    const SourceLocation error = at(path, e.mark);
    refuse_line_that_is_no_field(text, path, error.line + 1);
    throw InputError(error, "well-formed YAML", "a syntax error: " + e.msg);
  }
  if (!root.IsMap()) {
    const bool empty = !root.IsDefined() || root.IsNull();
    if (!empty) {
      refuse_line_that_is_no_field(text, path, std::numeric_limits<std::uint32_t>::max());
    }
    throw InputError(at(path, root.Mark()), kMappingOfFields,
                     empty ? "an empty file" : shape_of(root));
  }
  Variant v;
  v.path = path;
  std::map<std::string, SourceLocation> seen;
  for (const auto& entry : root) {
    const SourceLocation key_where = at(path, entry.first.Mark());
    if (!entry.first.IsScalar()) {
      throw InputError(key_where, "a field name", shape_of(entry.first));
    }
    const std::string key = entry.first.Scalar();
    const VariantFieldSpec* spec = find_variant_field(key);
    if (spec == nullptr) {
      throw InputError(key_where, "one of the fields " + field_list() + " (docs/variants.md)",
                       "'" + key + "'");
    }
    if (const auto first = seen.find(key); first != seen.end()) {
      throw InputError(key_where, "each field once",
                       "'" + key + "' again (first at " + first->second.to_string() + ")");
    }
    seen.emplace(key, key_where);
    SourceLocation value_where = at(path, entry.second.Mark());
    // Past a plain key of one line, its colon; never past the key's line.
    const auto after_colon =
        std::min<std::uint32_t>(key_where.column + static_cast<std::uint32_t>(key.size()) + 1,
                                line_length(text, key_where.line) + 1);
    if (entry.second.IsNull() &&
        (value_where.line != key_where.line || value_where.column < after_colon)) {
      // "alpha:" and nothing after it on its line: yaml-cpp marks the next token, a line or more
      // below (or the key itself at the file's end); the missing value belongs after the colon.
      value_where = {path, key_where.line, after_colon};
    }
    v.values.push_back(
        {key, value_text(*spec, entry.second, path, value_where), key_where, value_where});
  }
  const VariantValue* arch = v.find("arch");
  if (arch == nullptr) {
    throw InputError(at(path, root.Mark()),
                     "an 'arch' field (" + arch_names(kEveryArch) +
                         "): a variant names its "
                         "architecture",
                     "none");
  }
  const std::uint8_t bit = arch_bit(arch->text);
  if (bit == 0) {
    throw InputError(arch->where, "one of " + arch_names(kEveryArch), "'" + arch->text + "'");
  }
  for (const VariantValue& value : v.values) {
    const VariantFieldSpec& spec = *find_variant_field(value.key);
    if ((spec.archs & bit) == 0) {
      throw InputError(value.key_where,
                       "a field of the " + arch->text + " (" + value.key + " belongs to " +
                           arch_names(spec.archs) + ")",
                       "'" + value.key + "'");
    }
  }
  return v;
}

Variant read_variant_file(const std::string& path) {
  InputRules rules;
  rules.what = "variant file";
  // An empty file reads as empty text, which parse_variant reports.
  return parse_variant(read_input_file(path, rules), path);
}

}  // namespace orthosim::sw
