#include "sc_models/kernel/sliced_run.hpp"

#include <algorithm>
#include <chrono>

namespace orthosim::sc {

void run_in_slices(std::optional<sc_core::sc_time> duration, sc_core::sc_time first_slice,
                   const std::function<void()>& between) {
  constexpr auto kShortSlice = std::chrono::milliseconds(50);
  constexpr auto kLongSlice = std::chrono::milliseconds(200);
  // Without a duration, the end of the kernel's time.
  const sc_core::sc_time until =
      duration ? sc_core::sc_time_stamp() + *duration : sc_core::sc_max_time();
  sc_core::sc_time slice = first_slice;
  for (;;) {
    // A slice reaches at least the next event: with SC_EXIT_ON_STARVATION the kernel does not
    // advance its time to a slice's end that no event reaches.
    sc_core::sc_time step = std::max(slice, sc_core::sc_time_to_pending_activity());
    step = std::min(step, until - sc_core::sc_time_stamp());
    const auto started = std::chrono::steady_clock::now();
    sc_core::sc_start(step, sc_core::SC_EXIT_ON_STARVATION);
    if (between) {
      between();
    }
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    const bool done = !sc_core::sc_pending_activity() ||
                      sc_core::sc_get_status() == sc_core::SC_STOPPED || now >= until ||
                      sc_core::sc_time_to_pending_activity() > until - now;
    if (done) {
      return;
    }
    const auto took = std::chrono::steady_clock::now() - started;
    if (took < kShortSlice && slice < sc_core::sc_max_time() / 4.0) {
      slice = slice * 2.0;
    } else if (took > kLongSlice && slice > first_slice) {
      slice = slice / 2.0;
    }
  }
}

}  // namespace orthosim::sc
