// The one-line report of a co-simulation mismatch (sw/run/run_summary.hpp), which the commands
// print on stderr when a verilated block and its model disagree: cycle, instance, signal, and
// both values in hexadecimal, the model's first.
#include <gtest/gtest.h>

#include "sw/run/run_summary.hpp"

namespace orthosim {
namespace {

TEST(CosimMismatch, NamesTheCycleInstanceSignalAndBothValuesInHex) {
  sw::CosimMismatch m;
  m.cycle = 1000;
  m.instance = "omp.bc1";
  m.signal = "bus_data";
  m.model = 0x33aea64b;
  m.rtl = 255;
  EXPECT_EQ(m.to_string(),
            "cosim mismatch at cycle 1000 in omp.bc1: bus_data model 0x33aea64b rtl 0xff");
}

}  // namespace
}  // namespace orthosim
