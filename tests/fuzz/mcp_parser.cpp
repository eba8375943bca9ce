// Fuzz target of the .mcp parser (sw/program/parser.hpp): every input parses or is rejected with
// file:line:col; a program that parses is written with the canonical writer
// (sw/program/format.hpp) and must read back to the same program.
#include <cstddef>
#include <cstdint>
#include <string>

#include "sw/program/format.hpp"
#include "sw/program/parser.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace {

using orthosim::fuzz::require;
using orthosim::sw::McProgram;

const std::string kFile = "fuzz.mcp";

/// Everything the text says (the source locations are the writer's own).
bool same_program(const McProgram& a, const McProgram& b) {
  if (a.name != b.name || a.nodes != b.nodes || a.steps.size() != b.steps.size()) {
    return false;
  }
  for (std::size_t s = 0; s < a.steps.size(); ++s) {
    const orthosim::sw::ProgramStep& x = a.steps[s];
    const orthosim::sw::ProgramStep& y = b.steps[s];
    if (x.label != y.label || x.computes.size() != y.computes.size() ||
        x.transfers.size() != y.transfers.size()) {
      return false;
    }
    for (std::size_t c = 0; c < x.computes.size(); ++c) {
      if (x.computes[c].node != y.computes[c].node ||
          x.computes[c].cycles != y.computes[c].cycles) {
        return false;
      }
    }
    for (std::size_t t = 0; t < x.transfers.size(); ++t) {
      const orthosim::sw::Transfer& p = x.transfers[t];
      const orthosim::sw::Transfer& q = y.transfers[t];
      if (p.source != q.source || p.destinations != q.destinations || p.broadcast != q.broadcast ||
          p.words != q.words) {
        return false;
      }
    }
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = orthosim::fuzz::as_text(data, size);
  McProgram program;
  try {
    program = orthosim::sw::parse_program(text, kFile);
  } catch (const orthosim::sw::InputError& e) {
    orthosim::fuzz::require_position(e, text, kFile);
    return 0;
  }
  const std::string written = orthosim::sw::format_program(program);
  McProgram back;
  try {
    back = orthosim::sw::parse_program(written, kFile);
  } catch (const orthosim::sw::InputError& e) {
    require(false, std::string("the writer's text reads back: ") + e.what() + "\n" + written);
  }
  require(same_program(program, back),
          "the writer's text reads back to the same program:\n" + written);
  return 0;
}
