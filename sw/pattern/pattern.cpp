// Table 1 of [PH91]: names, types and the reduction to the basic set CS.
#include "sw/pattern/pattern.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace orthosim::sw {

namespace {

struct Row {
  Pattern pattern;
  const char* name;  ///< Table 1's pattern and type, as a command-line word
  const char* text;
};

constexpr std::array<Row, 12> kTable1 = {{
    {Pattern::C1, "one-to-one", "one-to-one (personalized)"},
    {Pattern::C2, "permutation", "permutation (personalized)"},
    {Pattern::C3, "one-to-all-broadcast", "one-to-all (broadcast)"},
    {Pattern::C4, "one-to-all-personalized", "one-to-all (personalized)"},
    {Pattern::C5, "all-to-one", "all-to-one (personalized)"},
    {Pattern::C6, "all-to-all-broadcast", "all-to-all (broadcast)"},
    {Pattern::C7, "all-to-all-personalized", "all-to-all (personalized)"},
    {Pattern::C8, "one-to-many-broadcast", "one-to-many (broadcast)"},
    {Pattern::C9, "one-to-many-personalized", "one-to-many (personalized)"},
    {Pattern::C10, "many-to-one", "many-to-one (personalized)"},
    {Pattern::C11, "many-to-many-broadcast", "many-to-many (broadcast)"},
    {Pattern::C12, "many-to-many-personalized", "many-to-many (personalized)"},
}};

const Row& row(Pattern p) { return kTable1[static_cast<std::size_t>(p) - 1]; }

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

}  // namespace

std::string to_string(Pattern p) { return "C" + std::to_string(static_cast<int>(p)); }

std::optional<Pattern> parse_pattern(const std::string& text) {
  const std::string t = lower(text);
  for (const Row& r : kTable1) {
    if (t == lower(to_string(r.pattern)) || t == r.name) {
      return r.pattern;
    }
  }
  return std::nullopt;
}

std::string describe(Pattern p) { return row(p).text; }

bool is_broadcast(Pattern p) {
  return p == Pattern::C3 || p == Pattern::C6 || p == Pattern::C8 || p == Pattern::C11;
}

Pattern basic_of(Pattern p) {
  switch (p) {
    case Pattern::C8:
      return Pattern::C3;
    case Pattern::C9:
      return Pattern::C4;
    case Pattern::C10:
      return Pattern::C5;
    case Pattern::C11:
      return Pattern::C6;
    case Pattern::C12:
      return Pattern::C7;
    default:
      return p;
  }
}

}  // namespace orthosim::sw
