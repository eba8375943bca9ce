// `orthosim tables`: [PH91] section 5 reproduced. Every pattern of Table 2 is generated as a
// one-step program, mapped onto the OMP (IWR steps) and run there, and run natively on the
// hypercube or torus it came from, with the network's start-up and per-word time normalized to
// the OMP's costs by Eq. (2) or Eq. (3). docs/tables.md explains the choices.
#include <algorithm>
#include <cmath>

#include "sw/cli/commands.hpp"
#include "sw/cli/options.hpp"
#include "sw/cli/tables_report.hpp"
#include "sw/core/diagnostic.hpp"
#include "sw/core/json_text.hpp"
#include "sw/cost/paper_tables.hpp"
#include "sw/machine/validate.hpp"
#include "sw/mapping/mapping.hpp"
#include "sw/pattern/generate.hpp"
#include "sw/program/parser.hpp"
#include "sw/routed/routed_program.hpp"

namespace orthosim::sw::cli {

namespace {

constexpr std::uint64_t kDefaultK1 = 4;

std::uint64_t required(const po::variables_map& vm, const std::string& name, std::uint64_t min,
                       std::uint64_t max) {
  if (!vm.count(name)) {
    throw InputError({"--" + name}, "a value (the option is required)", "none");
  }
  return parse_count("--" + name, vm[name].as<std::string>(), min, max);
}

std::uint64_t optional(const po::variables_map& vm, const std::string& name, std::uint64_t min,
                       std::uint64_t max, std::uint64_t fallback) {
  return vm.count(name) ? parse_count("--" + name, vm[name].as<std::string>(), min, max)
                        : fallback;
}

bool power_of_two(std::uint64_t x) { return x != 0 && (x & (x - 1)) == 0; }

std::uint32_t log2_ceil(std::uint64_t x) {
  std::uint32_t bits = 0;
  while ((std::uint64_t{1} << bits) < x) {
    ++bits;
  }
  return bits;
}

std::uint32_t isqrt(std::uint32_t x) {
  auto r = static_cast<std::uint32_t>(std::sqrt(static_cast<double>(x)));
  while (std::uint64_t{r} * r > x) {
    --r;
  }
  while (std::uint64_t{r + 1} * (r + 1) <= x) {
    ++r;
  }
  return r;
}

Pattern table1_pattern(paper::TablePattern p) {
  switch (p) {
    case paper::TablePattern::OneToOne:
      return Pattern::C1;
    case paper::TablePattern::OneToAllBroadcast:
      return Pattern::C3;
    case paper::TablePattern::AllToAllBroadcast:
      return Pattern::C6;
    case paper::TablePattern::OneToAllPersonalized:
      return Pattern::C4;
    case paper::TablePattern::AllToAllPersonalized:
      return Pattern::C7;
  }
  return Pattern::C1;
}

/// The node farthest from node 0 on the network: the complement (m - 1) on a hypercube, the
/// node (k/2, k/2) on a k x k torus.
std::uint32_t farthest_from_zero(const TablesSetup& s) {
  if (s.topology == TopologyKind::Hypercube) {
    return s.m - 1;
  }
  const std::uint32_t k = isqrt(s.m);
  return k / 2 + k * (k / 2);
}

}  // namespace

po::options_description tables_options() {
  const SystemConfig d;
  auto text = [](const std::string& help, std::uint64_t def) {
    return help + " (default " + std::to_string(def) + ")";
  };
  po::options_description o("orthosim tables");
  o.add_options()
      ("topology", po::value<std::string>(), "hypercube | torus (required)")
      ("m", po::value<std::string>(),
       "nodes of the multicomputer (required): a hypercube has 2^p nodes; a torus is k x k with "
       "k = n (m = n^2, clustered by columns) or m = n (one node per processor)")
      ("n", po::value<std::string>(),
       "processors of the omp (required), 2 <= n <= m; a power of two for a hypercube")
      ("l", po::value<std::string>(), "words per message (default 1)")
      ("alpha", po::value<std::string>(),
       text("omp access start-up, cycles", d.timing.alpha).c_str())
      ("beta", po::value<std::string>(),
       text("omp address increment per vector, cycles (<= alpha)", d.timing.beta).c_str())
      ("tau", po::value<std::string>(),
       text("omp cycles per word on a bus, >= 1", d.timing.tau).c_str())
      ("gamma", po::value<std::string>(),
       text("omp IWR bus switch, cycles", d.timing.gamma).c_str())
      ("k1", po::value<std::string>(),
       text("Eq. 2/3: network start-up t_h = k1 k3 tau = k1 (alpha - beta) cycles", kDefaultK1)
           .c_str())
      ("k2", po::value<std::string>(),
       "Eq. 2/3: network time per word tau_h = k2 tau cycles, i.e. each word sent as k2 tau "
       "flits (default log2 m, rounded up)")
      ("collapse", po::value<std::string>(),
       "hypercube with m > n: the p - q dimensions made intra-cluster, e.g. x2,x3 (default the "
       "lowest, x0..x(p-q-1): Fig. 10 option 1)")
      ("ports", po::value<std::string>(), "one | all: network node ports (default one)");
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
  TablesSetup s;
  s.topology = kind == "torus" ? TopologyKind::Torus : TopologyKind::Hypercube;
  s.m = static_cast<std::uint32_t>(required(vm, "m", 2, kMaxProgramNodes));
  s.n = static_cast<std::uint32_t>(required(vm, "n", 2, kMaxProcessors));
  s.l = static_cast<std::uint32_t>(optional(vm, "l", 1, 1u << 16, 1));
  const std::string m_text = vm["m"].as<std::string>();
  const std::string n_text = vm["n"].as<std::string>();
  std::uint32_t torus_side = 0;
  if (s.topology == TopologyKind::Hypercube) {
    const std::uint32_t largest = 1u << Topology::max_hypercube_dim;
    if (!power_of_two(s.m) || s.m > largest) {
      throw InputError(
          {"--m"}, "a power of two up to " + std::to_string(largest) + " (a 2^p-node hypercube)",
          "'" + m_text + "'");
    }
    if (!power_of_two(s.n)) {
      throw InputError({"--n"}, "a power of two (the hypercube's clusters are subcubes)",
                       "'" + n_text + "'");
    }
  } else {
    torus_side = isqrt(s.m);
    if (torus_side * torus_side != s.m) {
      throw InputError({"--m"}, "a square k x k (the torus is k x k)", "'" + m_text + "'");
    }
  }
  if (s.n > s.m) {
    throw InputError({"--n"}, "at most --m = " + m_text + " processors (m >= n)",
                     "'" + n_text + "'");
  }
  if (s.topology == TopologyKind::Torus && s.m != s.n && torus_side != s.n) {
    throw InputError({"--m"},
                     "n = " + n_text + " or n^2 = " + std::to_string(std::uint64_t{s.n} * s.n) +
                         " nodes (a torus of one node per processor, or an n x n torus "
                         "clustered by columns)",
                     "'" + m_text + "'");
  }

  // The OMP and the normalization of Eq. (2) / Eq. (3).
  s.omp.arch = Arch::Omp;
  s.omp.n = s.n;
  BusTiming& t = s.omp.timing;
  apply_timing_options(vm, t);
  if (t.beta > t.alpha) {
    throw InputError({"--beta"},
                     "at most --alpha = " + std::to_string(t.alpha) +
                         " (Eq. 1's fixed cost t = alpha - beta must not be negative)",
                     std::to_string(t.beta));
  }
  s.k1 = optional(vm, "k1", 0, 10'000, kDefaultK1);
  s.k2 = optional(vm, "k2", 1, 1'024, std::max<std::uint32_t>(1, log2_ceil(s.m)));
  s.norm = paper::normalize(t, static_cast<double>(s.k1), static_cast<double>(s.k2));
  s.flits_per_word = s.k2 * t.tau;
  if (std::uint64_t{s.l} * s.flits_per_word > kMaxMessageWords) {
    throw InputError({"--l"},
                     "l k2 tau at most " + std::to_string(kMaxMessageWords) +
                         " flits per network message",
                     std::to_string(s.l) + " x " + std::to_string(s.flits_per_word));
  }

  // The clustering (section 5).
  if (vm.count("collapse") && (s.topology != TopologyKind::Hypercube || s.m == s.n)) {
    throw InputError({"--collapse"}, "a hypercube with more nodes than processors (--m > --n)");
  }
  const Clustering clustering = [&]() {
    if (s.m == s.n) {
      return Clustering::blocks(s.m, s.n);
    }
    if (s.topology == TopologyKind::Torus) {
      return Clustering::torus(s.m, TorusClusters{torus_side, torus_side, true});
    }
    std::vector<std::uint32_t> collapsed;
    if (vm.count("collapse")) {
      collapsed = collapsed_dimensions(vm["collapse"].as<std::string>());
    } else {
      for (std::uint32_t k = 0; k < log2_ceil(s.m) - log2_ceil(s.n); ++k) {
        collapsed.push_back(k);
      }
    }
    return Clustering::hypercube(s.m, s.n, collapsed);
  }();
  s.clustering = s.m == s.n ? "one node per processor" : clustering.description();

  // The native network.
  s.network.topology = s.topology == TopologyKind::Hypercube
                           ? Topology::hypercube(log2_ceil(s.m))
                           : Topology::torus({torus_side, torus_side});
  s.network.router.vcs = default_vcs(s.network.topology);
  s.network.ni.startup = s.k1 * (t.alpha - t.beta);
  if (vm.count("ports")) {
    const std::string p = vm["ports"].as<std::string>();
    if (p != "one" && p != "all") {
      throw InputError({"--ports"}, "one or all", "'" + p + "'");
    }
    s.network.ni.ports = p == "all" ? NodePorts::All : NodePorts::One;
  }
  s.network.clock_period_ns = s.omp.clock_period_ns;
  const Validated<NetworkConfig> network = s.network.validated();

  // One program per pattern, mapped onto the omp and routed on the network.
  TablesRun run;
  run.setup = s;
  std::vector<SystemRun> systems;
  std::vector<NetworkRunRequest> networks;
  const std::vector<std::uint32_t> embedding = identity_embedding(s.m);
  for (paper::TablePattern p : paper::table_patterns()) {
    TableRow row;
    row.pattern = p;
    row.d = paper::table2_degree(p, s.n);
    row.lambda = paper::table2_lambda(p, s.m, s.n);
    PatternGenOptions o;
    o.nodes = s.m;
    o.words = s.l;
    if (p == paper::TablePattern::OneToOne) {
      row.destination = farthest_from_zero(s);
      o.sources = {0};
      o.destinations = {*row.destination};
      row.same_cluster = clustering.processor_of(0) == clustering.processor_of(*row.destination);
    } else if (p == paper::TablePattern::OneToAllBroadcast ||
               p == paper::TablePattern::OneToAllPersonalized) {
      o.sources = {0};
    }
    const McProgram program = generate_pattern(table1_pattern(p), o);
    const MappedProgram mapped = map_program(program, Arch::Omp, clustering, SyncMode::BusSwitch);
    SystemConfig config = s.omp;
    fit_config(mapped.needs, FixedSizes{}, config);
    const Validated<SystemConfig> fitted = config.validated();
    validate(mapped.machine, fitted);
    systems.push_back({fitted, mapped.machine, std::nullopt, "vcd", trace_path_from(vm)});

    o.words = static_cast<std::uint32_t>(std::uint64_t{s.l} * s.flits_per_word);
    const McProgram native = generate_pattern(table1_pattern(p), o);
    networks.push_back(
        {network, route_program(native, s.m, embedding), std::nullopt, trace_path_from(vm)});

    row.formula = paper::table2_cycles(p, s.m, s.n, s.l, t, row.same_cluster);
    const double m = s.m, n = s.n, l = s.l;
    if (s.topology == TopologyKind::Hypercube) {
      row.paper_cost = paper::hypercube_cost(p, m, l, s.norm);
      row.paper_vectorized = paper::hypercube_vectorized_cost(p, m, n, l, s.norm);
    } else {
      row.paper_cost = paper::torus_cost(p, m, l, s.norm);
      row.paper_vectorized = paper::torus_vectorized_cost(p, m, n, l, s.norm);
    }
    row.paper_ratio = row.paper_cost / row.paper_vectorized;
    run.rows.push_back(row);
  }

  const MixedRunResult results = ctx.runner.run_mixed(systems, networks);
  for (std::size_t i = 0; i < run.rows.size(); ++i) {
    run.rows[i].omp = results.systems.at(i);
    run.rows[i].native = results.networks.at(i);
  }
  if (vm.count("json")) {
    ctx.out << json_text(tables_json(run), 2) << '\n';
  } else {
    print_tables(run, ctx.out);
  }
  return run.ok() ? kExitOk : kExitRunFailed;
}

}  // namespace orthosim::sw::cli
