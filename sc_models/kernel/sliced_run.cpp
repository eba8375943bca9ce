#include "sc_models/kernel/sliced_run.hpp"

#include <algorithm>
#include <chrono>

namespace orthosim::sc {

void run_in_slices(std::optional<sc_core::sc_time> duration, sc_core::sc_time first_slice,
                   const std::function<void()>& between) {
  constexpr auto kShortSlice = std::chrono::milliseconds(50);
  constexpr auto kLongSlice = std::chrono::milliseconds(200);
  constexpr double kMostDoubled = 1 << 20;
  const std::optional<sc_core::sc_time> until =
      duration ? std::optional(sc_core::sc_time_stamp() + *duration) : std::nullopt;
  sc_core::sc_time slice = first_slice;
  for (;;) {
    sc_core::sc_time step = slice;
    if (until) {
      step = std::min(step, *until - sc_core::sc_time_stamp());
    }
    const auto started = std::chrono::steady_clock::now();
    sc_core::sc_start(step, sc_core::SC_EXIT_ON_STARVATION);
    if (between) {
      between();
    }
    const bool done = !sc_core::sc_pending_activity() ||
                      sc_core::sc_get_status() == sc_core::SC_STOPPED ||
                      (until && sc_core::sc_time_stamp() >= *until);
    if (done) {
      return;
    }
    const auto took = std::chrono::steady_clock::now() - started;
    if (took < kShortSlice && slice < first_slice * kMostDoubled) {
      slice = slice * 2.0;
    } else if (took > kLongSlice && slice > first_slice) {
      slice = slice / 2.0;
    }
  }
}

}  // namespace orthosim::sc
