// orthosim's models in a SystemC testbench of one's own: an orthogonal multiprocessor (omp) and a
// 4x4 torus multicomputer elaborated side by side in one simulation, each running the same
// multicomputer program (.mcp), the omp's mapped onto it, the torus's routed natively.
//
//   embedding PROGRAM.mcp OMP_CYCLES TORUS_CYCLES
//
// Exits 0 when both runs complete, every message arrives intact, and each took the cycles given
// (scripts/install-check.sh passes what the installed `orthosim run` prints for the same program):
// a testbench of one's own gets the emulator's own answers.
#include <cstdlib>
#include <iostream>
#include <string>
#include <systemc>

#include "sc_models/kernel/clock_domain.hpp"
#include "sc_models/multiprocessor/multiprocessor.hpp"
#include "sc_models/net/multicomputer.hpp"
#include "sw/core/cycle.hpp"
#include "sw/mapping/mapping.hpp"
#include "sw/program/parser.hpp"
#include "sw/routed/routed_program.hpp"
#include "traces/recorder.hpp"

namespace {

using namespace orthosim;

bool check(const std::string& system, const sw::RunSummary& summary, std::uint64_t expected) {
  const bool ok = summary.payload_ok() && summary.cycles.count() == expected;
  std::cout << system << ": " << summary.cycles.count() << " cycles (expected " << expected << "), "
            << summary.delivery.messages_checked << " messages, "
            << (summary.payload_ok() ? "delivered intact" : "DELIVERY FAILED") << '\n';
  return ok;
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  if (argc != 4) {
    std::cerr << "usage: embedding PROGRAM.mcp OMP_CYCLES TORUS_CYCLES\n";
    return 2;
  }
  sc::init_kernel();
  const sw::McProgram program = sw::read_program_file(argv[1]);

  // The omp of n = 4 processors, the program's nodes in blocks; the memories sized to the program
  // as `orthosim run` sizes them.
  sw::SystemConfig omp_config;
  omp_config.arch = sw::Arch::Omp;
  omp_config.n = 4;
  sw::MappedProgram mapped = sw::map_program(program, omp_config.arch, omp_config.n);
  sw::fit_config(mapped.needs, sw::FixedSizes{}, omp_config);

  // The 4x4 torus with its default routers (two virtual channels: the dateline's classes),
  // node k of the program on node k.
  sw::NetworkConfig torus_config;
  torus_config.topology = sw::Topology::torus({4, 4});
  torus_config.router.vcs = sw::default_vcs(torus_config.topology);
  const std::uint32_t nodes = torus_config.topology.nodes();
  sw::RoutedProgram routed =
      sw::route_program(program, nodes, sw::identity_embedding(program.nodes));

  // Both systems are elaborated before the simulation starts: SystemC adds no module after.
  traces::Recorder no_recording;
  sc::Multiprocessor omp("omp", omp_config.validated(), no_recording);
  sc::Multicomputer torus("torus", torus_config.validated(), no_recording);

  omp.load(std::move(mapped.machine));
  sc::run_systems({&omp}, sw::kCycleLimit);
  const bool omp_ok = check("omp", omp.result(), std::stoull(argv[2]));

  torus.load(std::move(routed));
  torus.run(sw::kCycleLimit);
  const bool torus_ok = check("torus", torus.result(), std::stoull(argv[3]));
  return omp_ok && torus_ok ? EXIT_SUCCESS : EXIT_FAILURE;
}

// As orthosim's own main: the SystemC banner off, so that the output is the testbench's alone.
int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
