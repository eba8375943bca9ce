// A variant file against what the command line sets (sw/cli/variant_options.cpp), through
// sw::run_cli and a fake Runner: an architecture given on the command line, even one that is
// wrong, is judged as the option it is, not as the file's field.
#include <gtest/gtest.h>

#include <string>

#include "tests/support/cli_harness.hpp"

namespace orthosim {
namespace {

using namespace cli_test;

class CliVariant : public CliProgram {};

// The file's arch is set aside by --arch or --topology; a value there that is no architecture
// (or not one the command runs) is refused as that option's error, before any field of the file
// is judged against it.
TEST_F(CliVariant, AnArchitectureOnTheCommandLineIsRefusedAsItsOption) {
  const std::string omp = file("omp.yaml", "arch: omp\nalpha: 16\n");
  const std::string bare = file("bare.yaml", "arch: omp\n");
  expect_refused_before_running({
      {{"run", fig2_, "--variant", omp, "--arch", "ring"},
       {"orthosim run: --arch: expected one of", "found 'ring'"}},
      {{"access", "--variant", omp, "--arch", "ring"},
       {"orthosim access: --arch: expected one of", "found 'ring'"}},
      {{"traffic", "--variant", bare, "--topology", "bus"},
       {"orthosim traffic: --topology: expected mesh, torus or hypercube, found 'bus'"}},
  });
}

}  // namespace
}  // namespace orthosim
