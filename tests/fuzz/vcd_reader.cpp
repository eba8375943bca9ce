// Fuzz target of the VCD reader behind `orthosim trace stats` (traces/trace_stats.hpp,
// vcd_stats): every input, read from memory under the rules `orthosim trace` reads a file with,
// is summarized or rejected with file:line:col.
#include <cstddef>
#include <cstdint>
#include <string>

#include "sw/core/input_file.hpp"
#include "tests/fuzz/fuzz_support.hpp"
#include "traces/event_trace_reader.hpp"
#include "traces/trace_stats.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string kFile = "fuzz.vcd";
  const std::string_view text = orthosim::fuzz::as_text(data, size);
  try {
    (void)orthosim::traces::vcd_stats(orthosim::sw::InputFile::from_text(
        std::string(text), kFile, orthosim::traces::trace_input_rules("VCD or event trace file")));
  } catch (const orthosim::sw::InputError& e) {
    orthosim::fuzz::require_position(e, text, kFile);
  }
  return 0;
}
