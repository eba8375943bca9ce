// A source of the sw_core layer, compiled only by the layering tests
// (tests/layering/CMakeLists.txt): its own header is found; with ORTHOSIM_PROBE_BREACH it also
// includes a header of sc_models/, which sw_core does not link, and must fail to compile.
#include "sw/core/cycle.hpp"
#ifdef ORTHOSIM_PROBE_BREACH
#include "sc_models/kernel/clock_domain.hpp"
#endif

namespace orthosim::sw {

Cycle layer_probe() { return Cycle{1}; }

}  // namespace orthosim::sw
