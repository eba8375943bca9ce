// `orthosim gen calmant`: the pipelined CC-cube of [CALMANT] as a .mcp program, one program step
// per communication step of its schedule (sections 3.2 and 4.2), checked one-port and
// link-exclusive on the mesh's routes before it is written; or naive, every message of an
// iteration in one step.
#include <stdexcept>

#include "sw/calmant/calmant.hpp"
#include "sw/cli/calmant_options.hpp"
#include "sw/cli/commands.hpp"
#include "sw/cli/options.hpp"
#include "sw/core/diagnostic.hpp"
#include "sw/program/parser.hpp"
#include "sw/schedule/schedule_check.hpp"
#include "sw/schedule/schedule_program.hpp"

namespace orthosim::sw::cli {

po::options_description gen_calmant_options() {
  po::options_description o("orthosim gen calmant");
  o.add_options()("pipeline", po::value<std::string>(),
                  "calmant: Q, the pipelining degree, dividing --len (required); "
                  "complete-exchange --onto mesh: dividing 2^(D-1)")(
      "barrier", po::value<std::string>(),
      "calmant: a barrier of this many cycles after each iteration (default 0: none)")(
      "schedule", po::value<std::string>(),
      "calmant: calmant (one step per communication step) | naive (an iteration's messages in "
      "one step) (default calmant)");
  o.add(calmant_mesh_options());
  return o;
}

int run_gen_calmant(const po::variables_map& vm, Context& ctx) {
  const calmant::CubeOnMesh cube = calmant_cube(vm);
  const char* const size = vm.count("mesh") ? "mesh" : "line";
  require_program_nodes(std::string("--") + size, vm[size].as<std::string>(), cube.nodes());
  if (!vm.count("len")) {
    throw InputError({"--len"}, "N, the words of each vector x_i (gen calmant needs it)", "none");
  }
  if (!vm.count("pipeline")) {
    throw InputError({"--pipeline"}, "Q, the pipelining degree (the option is required)", "none");
  }
  calmant::PipelineProgram p;
  p.n_words = static_cast<std::uint32_t>(
      parse_count("--len", vm["len"].as<std::string>(), 1, kMaxMessageWords));
  p.q = static_cast<std::uint32_t>(
      parse_count("--pipeline", vm["pipeline"].as<std::string>(), 1, p.n_words));
  if (p.n_words % p.q != 0) {
    throw InputError({"--pipeline"},
                     "a divisor of --len " + std::to_string(p.n_words) +
                         " (messages of N/Q words, [CALMANT] section 2.4)",
                     "'" + vm["pipeline"].as<std::string>() + "'");
  }
  read_pipeline_costs(vm, p);
  if (vm.count("schedule")) {
    const std::string s = vm["schedule"].as<std::string>();
    if (s == "naive") {
      p.scheduling = calmant::Scheduling::Naive;
    } else if (s != "calmant") {
      throw InputError({"--schedule"}, "calmant or naive", "'" + s + "'");
    }
  }
  const calmant::PipelineSchedule ps = calmant::pipeline_schedule(cube, p);
  if (p.scheduling == calmant::Scheduling::Calmant) {
    const ScheduleCheck check = check_schedule(cube.mesh(), ps.schedule);
    if (!check.ok()) {
      throw std::logic_error("gen calmant: the schedule is not conflict-free: " +
                             check.violations.front().what);
    }
  }
  return write_program(vm, ctx, to_program(ps.schedule, {p.n_words / p.q, Cycle{0}}));
}

}  // namespace orthosim::sw::cli
