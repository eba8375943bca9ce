// Fuzz target of the VCD reader behind `orthosim trace stats` (traces/trace_stats.hpp,
// vcd_stats): every input is summarized or rejected with file:line:col.
#include <cstddef>
#include <cstdint>
#include <string>

#include "tests/fuzz/fuzz_support.hpp"
#include "traces/trace_stats.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const orthosim::fuzz::ScratchFile input(".vcd");
  const std::string_view text = orthosim::fuzz::as_text(data, size);
  try {
    (void)orthosim::traces::vcd_stats(input.write(text));
  } catch (const orthosim::sw::InputError& e) {
    orthosim::fuzz::require_position(e, text, input.path());
  }
  return 0;
}
