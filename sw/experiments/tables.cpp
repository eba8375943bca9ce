#include "sw/experiments/tables.hpp"

#include <algorithm>
#include <cmath>

#include "sw/calmant/calmant.hpp"
#include "sw/core/diagnostic.hpp"
#include "sw/exchange/collectives.hpp"
#include "sw/exchange/complete_exchange.hpp"
#include "sw/machine/validate.hpp"
#include "sw/pattern/generate.hpp"
#include "sw/program/parser.hpp"
#include "sw/routed/routed_program.hpp"
#include "sw/schedule/schedule_program.hpp"
#include "sw/topology/topology.hpp"

namespace orthosim::sw::experiments {

namespace {

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

/// The clustering of section 5: one node per processor, the torus by columns, or the hypercube's
/// subcubes along the collapsed dimensions.
Clustering clustering_of(const TablesSetup& s) {
  if (s.m == s.n) {
    return Clustering::blocks(s.m, s.n);
  }
  if (s.topology == TopologyKind::Torus) {
    const std::uint32_t side = isqrt(s.m);
    return Clustering::torus(s.m, TorusClusters{side, side, true});
  }
  return Clustering::hypercube(s.m, s.n, s.collapsed);
}

}  // namespace

std::string TablesSetup::paper_table() const {
  return topology == TopologyKind::Torus ? "Table 5" : "Table 4";
}

std::optional<double> TableRow::measured_ratio() const {
  if (omp.cycles.count() == 0) {
    return std::nullopt;
  }
  return static_cast<double>(native.cycles.count()) / static_cast<double>(omp.cycles.count());
}

std::optional<double> TableRow::direct_ratio() const {
  if (omp.cycles.count() == 0) {
    return std::nullopt;
  }
  return static_cast<double>(native_direct.cycles.count()) /
         static_cast<double>(omp.cycles.count());
}

std::vector<std::pair<std::string, Schedule>> native_collectives(const TablesSetup& s,
                                                                 paper::TablePattern p) {
  std::vector<std::pair<std::string, Schedule>> out;
  if (s.topology == TopologyKind::Hypercube) {
    const std::uint32_t d = log2_ceil(s.m);
    switch (p) {
      case paper::TablePattern::OneToAllBroadcast:
        out.emplace_back("binomial tree", hypercube_binomial_broadcast(d, 0));
        break;
      case paper::TablePattern::OneToAllPersonalized:
        out.emplace_back("binomial tree", hypercube_binomial_scatter(d, 0));
        break;
      case paper::TablePattern::AllToAllBroadcast:
        out.emplace_back("recursive doubling", hypercube_recursive_doubling(d));
        break;
      case paper::TablePattern::AllToAllPersonalized:
        out.emplace_back("CC-cube complete exchange", calmant::cc_cube_complete_exchange(d));
        break;
      case paper::TablePattern::OneToOne:
        break;
    }
    return out;
  }
  const std::uint32_t k = isqrt(s.m);
  if (p == paper::TablePattern::AllToAllBroadcast) {
    out.emplace_back("row-column gather", torus_row_column_gather(k, k));
  } else if (p == paper::TablePattern::AllToAllPersonalized && k >= 4 && k <= 32 &&
             power_of_two(k)) {
    // A(n-1) is left out: up to k = 32 A1 or [6] has fewer start-ups and fewer blocks
    // (docs/complete-exchange.md, Counts), so it is never the fastest.
    for (ExchangeAlgorithm a :
         {ExchangeAlgorithm::A1, ExchangeAlgorithm::Suh, ExchangeAlgorithm::TwoPhase}) {
      out.emplace_back(to_string(a), complete_exchange_schedule(a, k));
    }
  }
  return out;
}

bool TablesRun::ok() const {
  return std::all_of(rows.begin(), rows.end(), [](const TableRow& r) { return r.ok(); });
}

TablesSetup design_tables(const TablesParameters& p) {
  const std::string m_text = "'" + std::to_string(p.m) + "'";
  const std::string n_text = "'" + std::to_string(p.n) + "'";
  const std::uint32_t torus_side = isqrt(p.m);
  if (p.topology == TopologyKind::Hypercube) {
    const std::uint32_t largest = 1u << Topology::max_hypercube_dim;
    if (!power_of_two(p.m) || p.m > largest) {
      throw ParameterError("m",
                           "a power of two up to " + std::to_string(largest) +
                               " (a 2^p-node hypercube)",
                           m_text);
    }
    if (!power_of_two(p.n)) {
      throw ParameterError("n", "a power of two (the hypercube's clusters are subcubes)", n_text);
    }
  } else if (torus_side * torus_side != p.m) {
    throw ParameterError("m", "a square k x k (the torus is k x k)", m_text);
  }
  if (p.n > p.m) {
    throw ParameterError("n", "at most {m} = " + std::to_string(p.m) + " processors (m >= n)",
                         n_text);
  }
  if (p.topology == TopologyKind::Torus && p.m != p.n && torus_side != p.n) {
    throw ParameterError("m",
                         "n = " + std::to_string(p.n) +
                             " or n^2 = " + std::to_string(std::uint64_t{p.n} * p.n) +
                             " nodes (a torus of one node per processor, or an n x n torus "
                             "clustered by columns)",
                         m_text);
  }
  if (p.collapsed && (p.topology != TopologyKind::Hypercube || p.m == p.n)) {
    throw ParameterError("collapse", "a hypercube with more nodes than processors ({m} > {n})",
                         p.topology != TopologyKind::Hypercube
                             ? std::string("a torus")
                             : "one node per processor ({m} = {n} = " + std::to_string(p.m) + ")");
  }

  TablesSetup s;
  s.topology = p.topology;
  s.m = p.m;
  s.n = p.n;
  s.l = p.l;
  s.trace_path = p.trace_path;

  // The OMP and the normalization of Eq. (2) / Eq. (3).
  s.omp.arch = Arch::Omp;
  s.omp.n = s.n;
  s.omp.timing = p.timing;
  const BusTiming& t = s.omp.timing;
  s.k1 = p.k1;
  s.k2 = p.k2.value_or(std::max<std::uint32_t>(1, log2_ceil(s.m)));
  s.norm = paper::normalize(t, static_cast<double>(s.k1), static_cast<double>(s.k2));
  s.flits_per_word = s.k2 * t.tau;
  if (std::uint64_t{s.l} * s.flits_per_word > kMaxMessageWords) {
    throw ParameterError("l",
                         "l k2 tau at most " + std::to_string(kMaxMessageWords) +
                             " flits per network message",
                         std::to_string(s.l) + " x " + std::to_string(s.flits_per_word));
  }

  // The clustering (section 5).
  if (s.topology == TopologyKind::Hypercube && s.m != s.n) {
    if (p.collapsed) {
      s.collapsed = *p.collapsed;
    } else {
      for (std::uint32_t k = 0; k < log2_ceil(s.m) - log2_ceil(s.n); ++k) {
        s.collapsed.push_back(k);
      }
    }
  }
  s.clustering = s.m == s.n ? "one node per processor" : clustering_of(s).description();

  // The native network.
  NetworkConfig network;
  network.topology = s.topology == TopologyKind::Hypercube
                         ? Topology::hypercube(log2_ceil(s.m))
                         : Topology::torus({torus_side, torus_side});
  network.router.vcs = default_vcs(network.topology);
  network.ni.startup = s.k1 * (t.alpha - t.beta);
  network.ni.ports = p.ports;
  network.clock_period_ns = s.omp.clock_period_ns;
  s.network = network.validated();
  return s;
}

TablesRun run_tables(const TablesSetup& s, Runner& runner) {
  // One program per pattern, mapped onto the omp and routed on the network.
  TablesRun run;
  run.setup = s;
  const Clustering clustering = clustering_of(s);
  const BusTiming& t = s.omp.timing;
  std::vector<SystemRun> systems;
  std::vector<NetworkRunRequest> networks;
  // Per row: the network run of its direct program, and of each collective with its name.
  std::vector<std::size_t> direct_run;
  std::vector<std::vector<std::pair<std::string, std::size_t>>> collective_runs;
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
    systems.push_back({fitted, mapped.machine, std::nullopt, "vcd", s.trace_path});

    o.words = static_cast<std::uint32_t>(std::uint64_t{s.l} * s.flits_per_word);
    const McProgram native = generate_pattern(table1_pattern(p), o);
    direct_run.push_back(networks.size());
    networks.push_back(
        {s.network, route_program(native, s.m, embedding), std::nullopt, s.trace_path});
    collective_runs.emplace_back();
    for (const auto& [name, schedule] : native_collectives(s, p)) {
      // A block is one of the pattern's messages: l words of k2 tau flits.
      std::size_t largest = 0;
      for (const ScheduleStep& step : schedule.steps) {
        for (const ScheduledMessage& msg : step.messages) {
          largest = std::max(largest, msg.blocks.size());
        }
      }
      if (std::uint64_t{largest} * o.words > kMaxMessageWords) {
        continue;  // a message longer than the network takes: the row keeps the direct figure
      }
      collective_runs.back().emplace_back(name, networks.size());
      networks.push_back({s.network,
                          route_program(to_program(schedule, {o.words, Cycle{0}}), s.m, embedding),
                          std::nullopt, s.trace_path});
    }

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

  const MixedRunResult results = runner.run_mixed(systems, networks);
  for (std::size_t i = 0; i < run.rows.size(); ++i) {
    TableRow& row = run.rows[i];
    row.omp = results.systems.at(i);
    row.native_direct = results.networks.at(direct_run[i]);
    row.native = row.native_direct;
    bool collective = false;
    for (const auto& [name, index] : collective_runs[i]) {
      const NetworkRunSummary& r = results.networks.at(index);
      if (r.payload_ok() && (!collective || r.cycles < row.native.cycles)) {
        row.native = r;
        row.native_algorithm = name;
        collective = true;
      }
    }
  }
  return run;
}

}  // namespace orthosim::sw::experiments
