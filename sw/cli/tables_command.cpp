// `orthosim tables`: [PH91] section 5 reproduced. The command parses its options; the experiment
// (sw/experiments/tables.hpp) designs and runs it; tables_report.cpp prints it. docs/tables.md
// explains the choices.
#include "sw/cli/commands.hpp"
#include "sw/cli/options.hpp"
#include "sw/cli/tables_report.hpp"
#include "sw/core/diagnostic.hpp"
#include "sw/core/json_text.hpp"
#include "sw/experiments/tables.hpp"
#include "sw/program/parser.hpp"

namespace orthosim::sw::cli {

namespace {

std::uint64_t required(const po::variables_map& vm, const std::string& name, std::uint64_t min,
                       std::uint64_t max) {
  if (!vm.count(name)) {
    throw InputError({"--" + name}, "a value (the option is required)", "none");
  }
  return parse_count("--" + name, vm[name].as<std::string>(), min, max);
}

std::uint64_t optional(const po::variables_map& vm, const std::string& name, std::uint64_t min,
                       std::uint64_t max, std::uint64_t fallback) {
  return vm.count(name) ? parse_count("--" + name, vm[name].as<std::string>(), min, max) : fallback;
}

}  // namespace

po::options_description tables_options() {
  const SystemConfig d;
  auto text = [](const std::string& help, std::uint64_t def) {
    return help + " (default " + std::to_string(def) + ")";
  };
  po::options_description o("orthosim tables");
  o.add_options()("topology", po::value<std::string>(), "hypercube | torus (required)")(
      "m", po::value<std::string>(),
      "nodes of the multicomputer (required): a hypercube has 2^p nodes; a torus is k x k with "
      "k = n (m = n^2, clustered by columns) or m = n (one node per processor)")(
      "n", po::value<std::string>(),
      "processors of the omp (required), 2 <= n <= m; a power of two for a hypercube")(
      "l", po::value<std::string>(),
      "words per message (default 1)")("alpha", po::value<std::string>(),
                                       text("omp access start-up, cycles", d.timing.alpha).c_str())(
      "beta", po::value<std::string>(),
      text("omp address increment per vector, cycles (<= alpha)", d.timing.beta).c_str())(
      "tau", po::value<std::string>(),
      text("omp cycles per word on a bus, >= 1", d.timing.tau).c_str())(
      "gamma", po::value<std::string>(),
      text("omp IWR bus switch, cycles", d.timing.gamma).c_str())(
      "k1", po::value<std::string>(),
      text("Eq. 2/3: network start-up t_h = k1 k3 tau = k1 (alpha - beta) cycles",
           experiments::TablesParameters{}.k1)
          .c_str())(
      "k2", po::value<std::string>(),
      "Eq. 2/3: network time per word tau_h = k2 tau cycles, i.e. each word sent as k2 tau "
      "flits (default log2 m, rounded up)")(
      "collapse", po::value<std::string>(),
      "hypercube with m > n: the p - q dimensions made intra-cluster, e.g. x2,x3 (default the "
      "lowest, x0..x(p-q-1): Fig. 10 option 1)")("ports", po::value<std::string>(),
                                                 "one | all: network node ports (default one)");
  o.add(trace_output_option()).add(common_options());
  return o;
}

int run_tables(const po::variables_map& vm, Context& ctx) {
  if (!vm.count("topology")) {
    throw InputError({"--topology"}, "hypercube or torus (the option is required)", "none");
  }
  const std::string kind = vm["topology"].as<std::string>();
  if (kind != "hypercube" && kind != "torus") {
    throw InputError({"--topology"}, "hypercube or torus", "'" + kind + "'");
  }
  experiments::TablesParameters p;
  p.topology = kind == "torus" ? TopologyKind::Torus : TopologyKind::Hypercube;
  // The smallest network every row's pattern fits: a 2 x 2 torus or a 2-cube (the one-to-all
  // rows need a third node).
  p.m = static_cast<std::uint32_t>(required(vm, "m", 4, kMaxProgramNodes));
  p.n = static_cast<std::uint32_t>(required(vm, "n", 2, kMaxProcessors));
  p.l = static_cast<std::uint32_t>(optional(vm, "l", 1, 1u << 16, 1));
  BusTiming& t = p.timing;
  apply_timing_options(vm, t);
  if (t.beta > t.alpha) {
    throw InputError({"--beta"},
                     "at most --alpha = " + std::to_string(t.alpha) +
                         " (Eq. 1's fixed cost t = alpha - beta must not be negative)",
                     std::to_string(t.beta));
  }
  p.k1 = optional(vm, "k1", 0, 10'000, p.k1);
  if (vm.count("k2")) {
    p.k2 = parse_count("--k2", vm["k2"].as<std::string>(), 1, 1'024);
  }
  if (vm.count("collapse")) {
    p.collapsed = collapsed_dimensions(vm["collapse"].as<std::string>());
  }
  if (vm.count("ports")) {
    const std::string ports = vm["ports"].as<std::string>();
    if (ports != "one" && ports != "all") {
      throw InputError({"--ports"}, "one or all", "'" + ports + "'");
    }
    p.ports = ports == "all" ? NodePorts::All : NodePorts::One;
  }
  p.trace_path = trace_path_from(vm);

  const experiments::TablesRun run =
      experiments::run_tables(experiments::design_tables(p), ctx.runner);
  if (vm.count("json")) {
    ctx.out << json_text(tables_json(run), 2) << '\n';
  } else {
    print_tables(run, ctx.out);
  }
  return run.ok() ? kExitOk : kExitRunFailed;
}

}  // namespace orthosim::sw::cli
