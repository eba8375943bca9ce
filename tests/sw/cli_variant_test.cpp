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
  // An architecture of the other family was taken as the one the fields are judged against:
  // "o.yaml:2:1: expected a field of the mesh (...), found 'alpha'".
  const std::string mesh = file("mesh.yaml", "arch: mesh\ndims: 4x4\n");
  expect_refused_before_running({
      {{"access", "--variant", omp, "--arch", "mesh"},
       {"orthosim access: --arch: expected one of omp, crossbar, bus, found 'mesh'\n"}},
      {{"traffic", "--variant", mesh, "--topology", "omp"},
       {"orthosim traffic: --topology: expected mesh, torus or hypercube, found 'omp'\n"}},
  });
}

// A file of an architecture the command does not run is refused at its arch field, as traffic
// and demo refuse one: access named the first field it has no option for ("mesh.yaml:2:1:
// expected a field orthosim access takes (it has no --dims), found 'dims'").
TEST_F(CliVariant, AFileOfAnArchitectureTheCommandDoesNotRunIsRefusedAtItsArch) {
  const std::string mesh = file("mesh.yaml", "# a network\narch: mesh\ndims: 4x4\n");
  const std::string omp = file("omp.yaml", "arch: omp\nn: 4\n");
  expect_refused_before_running({
      {{"access", "--variant", mesh},
       {"mesh.yaml:2:7: expected a multiprocessor (omp, crossbar, bus) for orthosim access, "
        "found 'mesh'\n"}},
      {{"traffic", "--variant", omp},
       {"omp.yaml:1:7: expected a network (mesh, torus, hypercube) for orthosim traffic, found "
        "'omp'\n"}},
      {{"demo", "--variant", mesh},
       {"mesh.yaml:2:7: expected a multiprocessor (omp, crossbar, bus) for orthosim demo, which "
        "runs all three with the variant's costs and sizes, found 'mesh'\n"}},
  });
  // run takes all six.
  FakeRunner runner;
  EXPECT_EQ(run({"run", fig2_, "--variant", mesh}, runner).code, sw::kExitOk);
  EXPECT_EQ(run({"run", fig2_, "--variant", omp}, runner).code, sw::kExitOk);
}

}  // namespace
}  // namespace orthosim
