// Running the kernel in slices of simulated time, so that a long run can report its progress
// between them: no process of its own (which would keep the run alive) and no clock read per cycle.
#pragma once

#include <functional>
#include <optional>
#include <systemc>

#include "sw/core/cycle.hpp"

namespace orthosim::sc {

/// The first slice of a run_in_slices call, in cycles: a short run takes one or two.
inline constexpr sw::Cycle kFirstProgressSlice{4096};

/// Runs the kernel as `sc_start(duration, SC_EXIT_ON_STARVATION)` does (without a duration:
/// until no event is left, as `sc_start()`), in slices, calling `between()` (if any) after each.
/// The slices change no result: the kernel runs the same events in the same delta cycles whichever
/// call runs them (the runs, traces and waveforms stay byte-identical). A slice starts at
/// `first_slice` of simulated time, doubles while one takes under 50 ms of wall-clock time (so
/// that a run with few events costs few slices), halves when one takes over 200 ms (so that the
/// reports keep coming), and always reaches the next event. It stops when nothing is left, when
/// the next event lies past `duration`, or when the run is stopped (`sc_stop`: a co-simulation
/// mismatch).
void run_in_slices(std::optional<sc_core::sc_time> duration, sc_core::sc_time first_slice,
                   const std::function<void()>& between);

}  // namespace orthosim::sc
