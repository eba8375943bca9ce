// `orthosim lcc`: the processor reordering of linear-complement communications on a hypercube
// ([LCC] sections 3 to 5): Theorem 1's contention of each pattern before and after, the ordering
// of the address bits chosen, and the node relabeling it makes for `run --embedding`.
#include <algorithm>
#include <iomanip>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sw/cli/commands.hpp"
#include "sw/cli/output_options.hpp"
#include "sw/cli/variant_options.hpp"
#include "sw/core/diagnostic.hpp"
#include "sw/core/json_text.hpp"
#include "sw/topology/topology.hpp"
#include "sw/traffic/lcc_reordering.hpp"
#include "sw/traffic/traffic_pattern.hpp"

namespace orthosim::sw::cli {

namespace {

/// One pattern's contention under the identity and under the chosen ordering.
struct PatternContention {
  std::string pattern;  ///< as parse_traffic_pattern reads it
  std::uint32_t rank = 0;
  std::vector<std::uint64_t> before;  ///< T_i(A, b)
  std::vector<std::uint64_t> after;   ///< T_i(QAQ^-1, Qb)
};

std::uint64_t largest(const std::vector<std::uint64_t>& t) {
  std::uint64_t out = 0;
  for (std::uint64_t v : t) {
    out = std::max(out, v);
  }
  return out;
}

/// One --pattern on `cube`, an LCC. `position` (1-based) names the option among `count`.
TrafficPattern lcc_pattern(const std::string& text, const Topology& cube, std::size_t position,
                           std::size_t count) {
  const SourceLocation where{count > 1 ? "--pattern (" + std::to_string(position) + " of " +
                                             std::to_string(count) + ")"
                                       : "--pattern"};
  const std::string lcc_form = to_string(PatternKind::Lcc) + ":";
  bool named = text.compare(0, lcc_form.size(), lcc_form) == 0;
  for (PatternKind kind :
       {PatternKind::Transpose, PatternKind::BitReverse, PatternKind::ReverseFlip}) {
    named = named || text == to_string(kind);
  }
  if (!named) {
    throw InputError(where, "an LCC: transpose, bitrev, reverse-flip or lcc:A,b", "'" + text + "'");
  }
  try {
    return parse_traffic_pattern(text, cube);
  } catch (const ParameterError& e) {
    throw InputError(where, spell_parameters(e.what(), {}));
  }
}

std::string numbers(const std::vector<std::uint64_t>& values) {
  std::string out;
  for (std::uint64_t v : values) {
    out += (out.empty() ? "" : " ") + std::to_string(v);
  }
  return out;
}

std::string ordering_text(const BitOrdering& ordering) {
  std::string out;
  for (std::uint32_t k : ordering) {
    out += (out.empty() ? "(" : ", ") + std::to_string(k);
  }
  return out + ")";
}

/// The --embedding node map: line x + 2 holds Qx, where program node x runs.
std::string relabeling_text(std::uint32_t d, const BitOrdering& ordering) {
  std::string out = "# orthosim lcc --dim " + std::to_string(d) +
                    ": ordering R = " + ordering_text(ordering) +
                    "; program node x runs on network node Qx\n";
  for (std::uint32_t node : node_relabeling(ordering)) {
    out += std::to_string(node) + "\n";
  }
  return out;
}

}  // namespace

po::options_description lcc_options() {
  po::options_description o("orthosim lcc");
  o.add_options()("dim", po::value<std::string>(), "hypercube dimension d: 2^d nodes, d = 1..10")(
      "pattern", po::value<std::vector<std::string>>(),
      "transpose | bitrev | reverse-flip | lcc:A,b, once per LCC (required); A as d rows of d "
      "bits joined by '/', b as d bits, bit 0 first")(
      "out", po::value<std::string>(),
      "write the node relabeling x -> Qx to this file, in the --embedding format");
  o.add(common_options());
  return o;
}

int run_lcc(const po::variables_map& vm, Context& ctx) {
  const Topology cube =
      Topology::parse(to_string(TopologyKind::Hypercube), std::nullopt,
                      vm.count("dim") ? std::optional<std::string>(vm["dim"].as<std::string>())
                                      : std::nullopt,
                      "dim");
  if (!vm.count("pattern")) {
    throw InputError({"--pattern"},
                     "at least one LCC: transpose, bitrev, reverse-flip or lcc:A,b (the option is "
                     "required)",
                     "none");
  }
  const auto texts = vm["pattern"].as<std::vector<std::string>>();
  std::vector<TrafficPattern> patterns;
  std::vector<Lcc> lccs;
  for (std::size_t k = 0; k < texts.size(); ++k) {
    patterns.push_back(lcc_pattern(texts[k], cube, k + 1, texts.size()));
    lccs.push_back(*patterns.back().lcc);
  }
  // One pattern: its own optimum (Theorems 3 and 4). Several: the least worst over the set
  // (section 5's dynamic program).
  const BitOrdering ordering =
      lccs.size() == 1 ? optimal_ordering(lccs.front()) : joint_optimal_ordering(lccs);
  std::vector<PatternContention> rows;
  std::uint64_t worst_after = 0;
  for (const TrafficPattern& pattern : patterns) {
    const Lcc& lcc = *pattern.lcc;
    PatternContention row{to_string(pattern), lcc.rank(), contention_per_dimension(lcc),
                          contention_per_dimension(reorder(lcc, ordering))};
    worst_after = std::max(worst_after, largest(row.after));
    rows.push_back(std::move(row));
  }
  if (vm.count("out")) {
    write_output_text("--out", vm["out"].as<std::string>(),
                      relabeling_text(cube.dimensions(), ordering));
  }

  if (vm.count("json")) {
    nlohmann::json list = nlohmann::json::array();
    for (const PatternContention& row : rows) {
      list.push_back({{"pattern", row.pattern},
                      {"T_before", largest(row.before)},
                      {"T_after", largest(row.after)},
                      {"Ti_before", row.before},
                      {"Ti_after", row.after}});
    }
    const nlohmann::json j = {{"command", "lcc"},
                              {"dim", cube.dimensions()},
                              {"patterns", list},
                              {"ordering", ordering},
                              {"T_max_after", worst_after}};
    ctx.out << json_text(j, 2) << '\n';
    return kExitOk;
  }
  ctx.out << "orthosim lcc: " << rows.size() << (rows.size() == 1 ? " LCC" : " LCCs") << " on the "
          << cube.to_string() << ", e-cube routing\n"
          << "  ordering R = " << ordering_text(ordering)
          << (rows.size() == 1
                  ? ", optimal for the pattern ([LCC] Theorems 3 and 4)\n"
                  : ", least worst T over the patterns, then least sum ([LCC] section 5)\n")
          << "\n";
  for (const PatternContention& row : rows) {
    ctx.out << row.pattern << " ("
            << (row.rank == cube.dimensions() ? "LCP" : "LCG, rank " + std::to_string(row.rank))
            << ")\n"
            << "  before  T = " << std::setw(4) << std::left << largest(row.before) << std::right
            << "  T_i = " << numbers(row.before) << "\n"
            << "  after   T = " << std::setw(4) << std::left << largest(row.after) << std::right
            << "  T_i = " << numbers(row.after) << "\n";
  }
  ctx.out << "\nT after, the largest over the patterns: " << worst_after << "\n";
  if (vm.count("out")) {
    ctx.out << "node relabeling x -> Qx written to " << vm["out"].as<std::string>()
            << " (the --embedding format)\n";
  }
  return kExitOk;
}

}  // namespace orthosim::sw::cli
