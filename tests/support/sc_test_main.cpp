// sc_main for SystemC test binaries: GoogleTest inside the kernel. CTest runs each TEST in its own
// process (gtest_discover_tests), because SystemC elaborates once per process (toolchain fact 2).
#include <gtest/gtest.h>

#include <cstdlib>
#include <systemc>

#include "sc_models/kernel/clock_domain.hpp"

int sc_main(int argc, char* argv[]) {
  orthosim::sc::init_kernel();
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}

int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
