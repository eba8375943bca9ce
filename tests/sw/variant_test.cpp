// Unit tests of the variant parser (docs/variants.md): the canonical text of lists, radices and
// implementations, errors at the value's position, the field table against the table in
// docs/variants.md, integers and radices, the `impl` mapping entry by entry, where a
// missing value is placed, and which line is named when YAML reads no mapping. Every expected
// position is counted in the text the test writes.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "sw/core/diagnostic.hpp"
#include "sw/variant/variant.hpp"

namespace {

using orthosim::sw::FieldType;
using orthosim::sw::InputError;
using orthosim::sw::parse_variant;
using orthosim::sw::Variant;

/// Where parse_variant refuses `text` and why, or "accepted".
std::string variant_error(const std::string& text) {
  try {
    static_cast<void>(parse_variant(text, "v.yaml"));
  } catch (const InputError& e) {
    return e.what();
  }
  return "accepted";
}

/// The 1-based column of the first `what` in line `line` (1-based) of `text`.
std::uint32_t column_of(const std::string& text, std::uint32_t line, const std::string& what) {
  std::istringstream lines(text);
  std::string l;
  for (std::uint32_t i = 0; i < line; ++i) {
    std::getline(lines, l);
  }
  return static_cast<std::uint32_t>(l.find(what) + 1);
}

std::string at(std::uint32_t line, std::uint32_t column) {
  return "v.yaml:" + std::to_string(line) + ":" + std::to_string(column);
}

// The table of fields in docs/variants.md, read here, against variant_fields(): which
// architectures take each field and whether its value is an integer, radices, impl or a name.
TEST(VariantFields, AgreeWithTheTableInTheDocs) {
  std::ifstream doc(std::string(ORTHOSIM_SOURCE_DIR) + "/docs/variants.md");
  ASSERT_TRUE(doc) << "docs/variants.md";
  const std::map<std::string, std::uint8_t> families = {
      {"all", orthosim::sw::kEveryArch},
      {"omp, crossbar, bus", orthosim::sw::kSharedMemory},
      {"networks", orthosim::sw::kNetworks},
      {"mesh, torus", orthosim::sw::kMesh | orthosim::sw::kTorus},
      {"hypercube", orthosim::sw::kHypercube}};
  std::size_t rows = 0;
  for (std::string line; std::getline(doc, line);) {
    // | `alpha`, `beta` | omp, crossbar, bus | integers (tau >= 1) | ...
    if (line.rfind("| `", 0) != 0) {
      continue;
    }
    std::vector<std::string> cells;
    for (std::size_t start = 1, bar; (bar = line.find(" |", start)) != std::string::npos;
         start = bar + 2) {
      cells.push_back(line.substr(start + 1, bar - start - 1));
    }
    const auto family = cells.size() < 3 ? families.end() : families.find(cells[1]);
    if (family == families.end()) {
      continue;  // another table (the examples)
    }
    const std::string& value = cells[2];
    const FieldType type = value.rfind("integer", 0) == 0                   ? FieldType::Integer
                           : value.find("8x8") != std::string::npos         ? FieldType::Radices
                           : value.find("bus=rtl,im=") != std::string::npos ? FieldType::Impl
                                                                            : FieldType::Name;
    for (std::size_t tick = cells[0].find('`'); tick != std::string::npos;
         tick = cells[0].find('`', cells[0].find('`', tick + 1) + 1)) {
      const std::string key = cells[0].substr(tick + 1, cells[0].find('`', tick + 1) - tick - 1);
      SCOPED_TRACE(key);
      const orthosim::sw::VariantFieldSpec* spec = orthosim::sw::find_variant_field(key);
      ASSERT_NE(spec, nullptr);
      EXPECT_EQ(spec->archs, family->second) << cells[1];
      EXPECT_EQ(spec->type, type) << value;
      ++rows;
    }
  }
  EXPECT_EQ(rows, orthosim::sw::variant_fields().size());
}

// The parser takes digits (with a minus: the option's range refuses it, naming the option), and
// refuses anything else as "an integer for FIELD" at the value.
TEST(VariantParser, AnIntegerIsDigitsWithAnOptionalMinus) {
  EXPECT_EQ(parse_variant("arch: omp\nbeta: -2\n", "v.yaml").find("beta")->text, "-2");
  // Every digit, the two ends of '0'..'9' included.
  EXPECT_EQ(parse_variant("arch: omp\nalpha: 9081726354\n", "v.yaml").find("alpha")->text,
            "9081726354");
  for (const std::string value : {"1/2", "1:2", "12a", "0x10", "4.5"}) {
    EXPECT_EQ(variant_error("arch: omp\nalpha: " + value + "\n"),
              at(2, 8) + ": expected an integer for alpha, found '" + value + "'");
  }
  EXPECT_EQ(variant_error("arch: mesh\ndims: [4, 1/2]\n"),
            at(2, 11) + ": expected an integer radix, found '1/2'");
  EXPECT_EQ(variant_error("arch: mesh\ndims: [4, -]\n"),
            at(2, 11) + ": expected an integer radix, found '-'");
}

TEST(VariantParser, RadicesAreANonEmptyListOrText) {
  EXPECT_EQ(parse_variant("arch: torus\ndims: 4x4x2\n", "v.yaml").find("dims")->text, "4x4x2");
  EXPECT_EQ(variant_error("arch: mesh\ndims: []\n"),
            at(2, 7) +
                ": expected the radices as a list such as [8, 8] or as 8x8, found an empty list");
}

TEST(VariantParser, ANameIsAScalar) {
  EXPECT_EQ(variant_error("arch: mesh\nswitching: [wormhole]\n"),
            at(2, 12) + ": expected a name for switching, found a list");
}

// The parser itself refuses a field the file's architecture does not take (the command line
// checks it again when --arch names another one).
TEST(VariantParser, AFieldOfAnotherArchitectureIsRefusedAtItsKey) {
  EXPECT_EQ(variant_error("arch: omp\nn: 4\ndims: [4, 4]\n"),
            at(3, 1) + ": expected a field of the omp (dims belongs to mesh, torus), found 'dims'");
  EXPECT_EQ(variant_error("arch: mesh\nrouting: pcube\n"),
            at(2, 1) + ": expected a field of the mesh (routing belongs to hypercube), found "
                       "'routing'");
}

// `impl` as a mapping: every entry counts, a block is named at its key and its implementation at
// its value, each block once, and neither may hold a list of pairs of its own.
TEST(VariantParser, AnImplMappingIsReadEntryByEntry) {
  EXPECT_EQ(parse_variant("arch: omp\nimpl: {im: rtl, bus: cosim}\n", "v.yaml").find("impl")->text,
            "im=rtl,bus=cosim,memory=model,router=model,ni=model,processor=model,sync=model,"
            "interconnect=model");
  const std::string unknown = "arch: omp\nimpl: {im: rtl, fpga: rtl}\n";
  EXPECT_EQ(variant_error(unknown).rfind(at(2, column_of(unknown, 2, "fpga")) + ": ", 0), 0u)
      << variant_error(unknown);
  EXPECT_EQ(variant_error("arch: omp\nimpl: {[im]: rtl}\n"),
            at(2, 8) + ": expected block: model|rtl|cosim, found a list");
  EXPECT_EQ(variant_error("arch: omp\nimpl: {im: [rtl]}\n"),
            at(2, 12) + ": expected block: model|rtl|cosim, found a list");
}

// `impl: im=rtl,im=model` is refused ("each block once"); the mapping said the same thing and took
// the last entry, and a value or key with a comma list in it set other blocks as well.
TEST(VariantParser, AnImplMappingNamesEachBlockOnceAndOneImplementationEach) {
  const std::string twice = "arch: omp\nimpl: {im: rtl,\n       im: model}\n";
  EXPECT_EQ(variant_error(twice),
            at(3, 8) + ": expected each block once, found 'im' again (first at " + at(2, 8) + ")");
  EXPECT_EQ(variant_error("arch: omp\nimpl: {im: \"rtl,bus=rtl\"}\n"),
            at(2, 12) + ": expected model, rtl or cosim, found 'rtl,bus=rtl'");
  EXPECT_EQ(variant_error("arch: omp\nimpl: {im: \"rtl,cosim\"}\n"),
            at(2, 12) + ": expected model, rtl or cosim, found 'rtl,cosim'");
  EXPECT_EQ(variant_error("arch: omp\nimpl: {\"im,bus\": model}\n"),
            at(2, 8) + ": expected a block such as im, found 'im,bus'");
  EXPECT_EQ(variant_error("arch: omp\nimpl: {\"im=rtl,bus\": model}\n"),
            at(2, 8) + ": expected a block such as im, found 'im=rtl,bus'");
}

// "alpha:" with nothing after it is placed right after its colon, however far the next token
// stands; a value below its key is placed where it is.
TEST(VariantParser, AMissingValueIsPlacedAfterItsColon) {
  const std::string flow = "{arch: omp, alpha:\n                        }\n";
  EXPECT_EQ(variant_error(flow), at(1, column_of(flow, 1, "alpha:") + 6) +
                                     ": expected an integer for alpha, found nothing");
  // An explicit key ends its line before the column past it: the line's end.
  const std::string explicit_key = "arch: omp\n? alpha\n:\n";
  EXPECT_EQ(variant_error(explicit_key),
            at(2, 8) + ": expected an integer for alpha, found nothing");  // "? alpha" is 7 long
  EXPECT_EQ(variant_error("arch: omp\nalpha:\n  - 1\n"),
            at(3, 3) + ": expected an integer for alpha, found a list");
}

const std::string kNoMapping = ": expected a YAML mapping of variant fields such as 'arch: omp', ";
const std::string kSecondDocument =
    ": expected one YAML document (a variant is one configuration), found a second document";

// The line named when YAML reads no mapping: comments and blanks after it are not part of it, a
// program's first statement is named as such with a tab too, and lines that begin a field (a key
// with nothing after its colon, or a tab after it), document markers and tab-indented lines are
// passed over.
TEST(VariantParser, TheLineThatIsNoFieldIsTheFirstThatCannotBeginOne) {
  EXPECT_EQ(variant_error("omp   # the arch\n"),
            at(1, 1) + kNoMapping + "found 'omp', not a field");
  EXPECT_EQ(variant_error("x\n"), at(1, 1) + kNoMapping + "found 'x', not a field");
  EXPECT_EQ(variant_error("nodes\t4\n"),
            at(1, 1) + kNoMapping + "found 'nodes\\t4', the first statement of a program (.mcp)");
  EXPECT_EQ(variant_error("dims:\n- 4\n- 4\narch: mesh\n---\n"), at(5, 1) + kSecondDocument);
  EXPECT_EQ(variant_error("arch:\tomp\n---\n"), at(2, 1) + kSecondDocument);
  EXPECT_EQ(variant_error("arch: omp\n...\n---\narch: bus\n"), at(3, 1) + kSecondDocument);
  // A syntax error's own line is looked at too (YAML's error is at the second ']', 2:7).
  EXPECT_EQ(variant_error("arch: omp\n[a, b]]\n"),
            at(2, 1) + kNoMapping + "found '[a, b]]', not a field");
  EXPECT_EQ(variant_error("arch: omp\nn: [4, 4\nomp\n"),
            at(3, 1) + kNoMapping + "found 'omp', not a field");
  EXPECT_EQ(variant_error("arch: omp\n\tomp\n").rfind(at(2, 1) + ": expected well-formed YAML", 0),
            0u);
}

// Only the lines up to a second document's start are looked at: what follows belongs to the
// document that is refused (and a third document is not read at all).
TEST(VariantParser, ASecondDocumentIsRefusedBeforeWhatItHolds) {
  EXPECT_EQ(variant_error("arch: omp\n---\nomp\n"), at(2, 1) + kSecondDocument);
  EXPECT_EQ(variant_error("arch: omp\n---\narch: bus\n---\n[\n"), at(2, 1) + kSecondDocument);
  // A document that follows "..." without "---" starts on its first line, which is looked at.
  EXPECT_EQ(variant_error("arch: omp\n...\nomp\n"),
            at(3, 1) + kNoMapping + "found 'omp', not a field");
}

TEST(VariantParser, ListsAndMappingsBecomeTheOptionsText) {
  const Variant v =
      parse_variant("arch: torus\ndims: [4, 8]\nimpl: {router: cosim}\nvcs: 2\n", "t.yaml");
  EXPECT_EQ(v.find("dims")->text, "4x8");
  EXPECT_EQ(v.find("impl")->text,
            "im=model,bus=model,memory=model,router=cosim,ni=model,processor=model,sync=model,"
            "interconnect=model");
  EXPECT_EQ(v.find("vcs")->text, "2");
  EXPECT_EQ(v.find("vcs")->where.to_string(), "t.yaml:4:6");
  EXPECT_EQ(v.find("vcs")->key_where.to_string(), "t.yaml:4:1");
  EXPECT_EQ(v.arch().text, "torus");
  EXPECT_EQ(v.find("alpha"), nullptr);
}

TEST(VariantParser, EveryFieldBelongsToAtLeastOneArchitectureAndIsFoundByName) {
  std::set<std::string> keys;
  for (const orthosim::sw::VariantFieldSpec& f : orthosim::sw::variant_fields()) {
    EXPECT_NE(f.archs, 0u) << f.key;
    EXPECT_EQ(orthosim::sw::find_variant_field(f.key), &f);
    EXPECT_TRUE(keys.insert(f.key).second) << f.key;
  }
  EXPECT_EQ(orthosim::sw::find_variant_field("alpah"), nullptr);
}

TEST(VariantParser, AnErrorCarriesTheValuesPosition) {
  try {
    static_cast<void>(parse_variant("arch: omp\n\n   # c\nbeta:   [2]\n", "v.yaml"));
    FAIL() << "a list for an integer was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where().to_string(), "v.yaml:4:9");
  }
}

// Found by tests/fuzz/variant_reader.cpp: a YAML key may hold a line break, which the error
// quoted as it was and so spread over two lines.
TEST(VariantParser, AnErrorQuotingALineBreakStaysOnOneLine) {
  try {
    static_cast<void>(parse_variant("arch: omp\n\"a\\nb\\tc\": 1\n", "v.yaml"));
    FAIL() << "an unknown field was accepted";
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    EXPECT_NE(message.find("found 'a\\nb\\tc'"), std::string::npos) << message;
    EXPECT_EQ(e.where().to_string(), "v.yaml:2:1");
  }
}

TEST(VariantParser, ASecondDocumentIsRefusedWhereItStarts) {
  const std::string refused =
      ": expected one YAML document (a variant is one configuration), found a second document";
  EXPECT_EQ(variant_error("arch: omp\nn: 4\n---\narch: bus\n"), "v.yaml:3:1" + refused);
  EXPECT_EQ(variant_error("arch: omp\n---\n"), "v.yaml:2:1" + refused);  // even an empty one
  EXPECT_EQ(variant_error("--- # one\narch: omp\n...\n"), "accepted");   // markers of one document
}

// YAML reads a program's lines as text and documents; the refusal names the first line that
// cannot begin a field, and a program's first statement as such.
TEST(VariantParser, ALineThatIsNoFieldIsNamed) {
  const std::string expected = ": expected a YAML mapping of variant fields such as 'arch: omp', ";
  EXPECT_EQ(variant_error("# a program\nnodes 4\nwords 4   # long\n\nstep s\n  send 1 -> 0\n"),
            "v.yaml:2:1" + expected + "found 'nodes 4', the first statement of a program (.mcp)");
  EXPECT_EQ(variant_error("# a typo\narch omp\nn: 4\n"),
            "v.yaml:2:1" + expected + "found 'arch omp', not a field");
  EXPECT_EQ(variant_error("omp\n"), "v.yaml:1:1" + expected + "found 'omp', not a field");
  EXPECT_EQ(variant_error("dims:\n- 4\n- 4\narch: mesh\n"), "accepted");  // list items, no key
}

TEST(VariantParser, TextThatIsNotUtf8IsRefusedAtItsByte) {
  EXPECT_EQ(variant_error("arch: omp\n# \xff\n"),
            "v.yaml:2:3: expected UTF-8 text, found the byte 0xff (not UTF-8)");
  EXPECT_EQ(variant_error(std::string("arch: om\0p\n", 11)),
            "v.yaml:1:9: expected UTF-8 text, found the byte 0x00 (a control character)");
}

}  // namespace
