// `orthosim gen complete-exchange --cube D --block B --onto mesh --dims KxK`: the complete
// exchange of a 2^D-node CC-cube on a mesh by the standard embedding ([CALMANT] section 5):
// CALMANT (section 5.1's CC-cube pipelined with degree Q, each iteration's task scheduled
// conflict-free), the original CC-cube (Q = 1), or the direct method. The generator follows every
// block (n, j) to node j before it writes the program; the emulator then checks every word.
#include <optional>
#include <stdexcept>

#include "sw/calmant/calmant.hpp"
#include "sw/cli/commands.hpp"
#include "sw/cli/options.hpp"
#include "sw/core/diagnostic.hpp"
#include "sw/program/parser.hpp"
#include "sw/schedule/schedule_check.hpp"
#include "sw/schedule/schedule_program.hpp"

namespace orthosim::sw::cli {

po::options_description mesh_complete_exchange_gen_options() {
  po::options_description o("gen complete-exchange --onto mesh");
  o.add_options()("cube", po::value<std::string>(),
                  "complete-exchange --onto mesh: D, the CC-cube's dimension (2^D nodes)")(
      "onto", po::value<std::string>(),
      "complete-exchange: mesh ([CALMANT] section 5 with --cube, --dims, --block, --algorithm "
      "calmant (--pipeline Q) | cc-cube | direct, default calmant)");
  return o;
}

McProgram mesh_complete_exchange_program(const po::variables_map& vm) {
  for (const char* torus_only : {"torus", "rearrange-cycles"}) {
    if (vm.count(torus_only)) {
      throw InputError({std::string("--") + torus_only}, "the torus form (no --onto)",
                       "--onto mesh");
    }
  }
  if (!vm.count("cube")) {
    throw InputError({"--cube"}, "D, the CC-cube's dimension (the option is required)", "none");
  }
  const auto d =
      static_cast<std::uint32_t>(parse_count("--cube", vm["cube"].as<std::string>(), 1, 16));
  require_program_nodes("--cube", vm["cube"].as<std::string>(), std::uint64_t{1} << d);
  if (!vm.count("block")) {
    throw InputError({"--block"}, "B, words per block (the option is required)", "none");
  }
  const auto block = static_cast<std::uint32_t>(
      parse_count("--block", vm["block"].as<std::string>(), 1, kMaxMessageWords));
  if (!vm.count("onto") || vm["onto"].as<std::string>() != "mesh") {
    throw InputError({"--onto"}, "mesh",
                     vm.count("onto") ? "'" + vm["onto"].as<std::string>() + "'" : "none");
  }
  if (!vm.count("dims")) {
    throw InputError({"--dims"}, "the mesh, e.g. 16x16 (the option is required)", "none");
  }
  const std::string dims = vm["dims"].as<std::string>();
  std::optional<calmant::CubeOnMesh> cube;
  try {
    cube = calmant::CubeOnMesh::of(Topology::parse("mesh", dims, std::nullopt, "dims"));
  } catch (const std::exception&) {
    cube.reset();
  }
  if (!cube || cube->d != d) {
    throw InputError({"--dims"},
                     "a line or mesh of 2^" + std::to_string(d) +
                         " nodes with equal power-of-two sides (the --cube " + std::to_string(d) +
                         " standard embedding)",
                     "'" + dims + "'");
  }
  const std::string algorithm =
      vm.count("algorithm") ? vm["algorithm"].as<std::string>() : "calmant";
  Schedule schedule;
  ScheduleRules rules;
  if (algorithm == "calmant") {
    if (!vm.count("pipeline")) {
      throw InputError({"--pipeline"}, "Q, the pipelining degree (calmant needs it)", "none");
    }
    const std::uint32_t half = 1u << (d - 1);
    const auto q = static_cast<std::uint32_t>(
        parse_count("--pipeline", vm["pipeline"].as<std::string>(), 1, half));
    if (half % q != 0) {
      throw InputError({"--pipeline"},
                       "a divisor of 2^(D-1) = " + std::to_string(half) +
                           " (packets of whole blocks)",
                       "'" + vm["pipeline"].as<std::string>() + "'");
    }
    schedule = calmant::calmant_complete_exchange(*cube, q);
  } else if (algorithm == "cc-cube" || algorithm == "direct") {
    if (vm.count("pipeline")) {
      throw InputError({"--pipeline"}, "--algorithm calmant (the option's algorithm)",
                       "--algorithm " + algorithm);
    }
    if (algorithm == "cc-cube") {
      schedule = calmant::calmant_complete_exchange(*cube, 1);
    } else {
      schedule = calmant::direct_complete_exchange(*cube);
      rules.exclusive_links = false;  // the direct method's rounds may share links
    }
  } else {
    throw InputError({"--algorithm"}, "calmant, cc-cube or direct", "'" + algorithm + "'");
  }
  const ScheduleCheck check = check_schedule(cube->mesh(), schedule, rules);
  if (!check.ok()) {
    throw std::logic_error("gen complete-exchange: " + check.violations.front().what);
  }
  return to_program(schedule, {block, Cycle{0}});
}

}  // namespace orthosim::sw::cli
