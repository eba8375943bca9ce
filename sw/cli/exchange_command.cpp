// `orthosim gen complete-exchange --torus NxN` and `orthosim exchange`: complete exchange on an
// N x N wormhole torus ([A2A]; docs/complete-exchange.md). gen writes one algorithm's schedule as
// a .mcp program; exchange runs every algorithm asked for on the emulated torus, one-port, side
// by side with the schedule checker's counts and [A2A] Table 1's prediction.
#include <algorithm>
#include <iomanip>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "sw/cli/commands.hpp"
#include "sw/cli/options.hpp"
#include "sw/core/diagnostic.hpp"
#include "sw/core/json_text.hpp"
#include "sw/exchange/complete_exchange.hpp"
#include "sw/program/parser.hpp"
#include "sw/routed/routed_program.hpp"
#include "sw/schedule/schedule_check.hpp"
#include "sw/schedule/schedule_program.hpp"

namespace orthosim::sw::cli {

namespace {

constexpr std::uint32_t kLargestSide = 32;

std::string algorithm_names() {
  std::string out;
  for (ExchangeAlgorithm a : exchange_algorithms()) {
    out += (out.empty() ? "" : " | ") + to_string(a);
  }
  return out;
}

/// --torus NxN: the side N, a power of two from 4 to 32.
std::uint32_t torus_side(const po::variables_map& vm) {
  const std::string expected =
      "N x N with N a power of two from 4 to " + std::to_string(kLargestSide) + ", e.g. 8x8";
  if (!vm.count("torus")) {
    throw InputError({"--torus"}, expected + " (the option is required)", "none");
  }
  const std::string text = vm["torus"].as<std::string>();
  const std::size_t x = text.find('x');
  if (x == std::string::npos) {
    throw InputError({"--torus"}, expected, "'" + text + "'");
  }
  // A side that is not a number in 4..32 is refused with the form, not parse_count's range.
  const auto side = [&](const std::string& digits) {
    try {
      return parse_count("--torus", digits, 4, kLargestSide);
    } catch (const InputError&) {
      throw InputError({"--torus"}, expected, "'" + text + "'");
    }
  };
  const auto columns = side(text.substr(0, x));
  const auto rows = side(text.substr(x + 1));
  if (columns != rows || (columns & (columns - 1)) != 0) {
    throw InputError({"--torus"}, expected, "'" + text + "'");
  }
  return static_cast<std::uint32_t>(columns);
}

ExchangeAlgorithm algorithm_named(const std::string& option, const std::string& text) {
  const std::optional<ExchangeAlgorithm> a = parse_exchange_algorithm(text);
  if (!a) {
    throw InputError({option}, algorithm_names(), "'" + text + "'");
  }
  return *a;
}

ScheduleCosts costs_from(const po::variables_map& vm) {
  ScheduleCosts costs;
  if (!vm.count("block")) {
    throw InputError({"--block"}, "the words of one block, B >= 1 (the option is required)",
                     "none");
  }
  costs.block_words = static_cast<std::uint32_t>(
      parse_count("--block", vm["block"].as<std::string>(), 1, kMaxMessageWords));
  if (vm.count("rearrange-cycles")) {
    costs.rearrange_cycles_per_block = Cycle{
        parse_count("--rearrange-cycles", vm["rearrange-cycles"].as<std::string>(), 0, 1'000'000)};
  }
  return costs;
}

/// The program of `schedule`; --block is refused when its largest message would exceed a .mcp
/// message.
McProgram program_of(const Schedule& schedule, const ScheduleCosts& costs) {
  std::size_t largest = 0;
  for (const ScheduleStep& step : schedule.steps) {
    for (const ScheduledMessage& m : step.messages) {
      largest = std::max(largest, m.blocks.size());
    }
  }
  if (std::uint64_t{largest} * costs.block_words > kMaxMessageWords) {
    throw InputError({"--block"},
                     "at most " + std::to_string(kMaxMessageWords / largest) +
                         " words: " + schedule.name + "'s largest message carries " +
                         std::to_string(largest) + " blocks, a message at most " +
                         std::to_string(kMaxMessageWords) + " words",
                     std::to_string(costs.block_words));
  }
  return to_program(schedule, costs);
}

/// One algorithm's run: the checker's counts, the emulator's, and Table 1's.
struct ExchangeRun {
  ExchangeAlgorithm algorithm = ExchangeAlgorithm::A1;
  ScheduleCheck check;
  std::uint64_t blocks = 0;
  std::uint64_t zero_load_cycles = 0;
  std::optional<Table1Terms> table1;
  std::optional<std::uint64_t> table1_cycles;
  NetworkRunSummary summary;
  std::uint32_t max_link_load = 0;

  [[nodiscard]] bool ok() const {
    return summary.payload_ok() && check.ok() && check.blocks_delivered == blocks;
  }
};

std::string text_or_dash(const std::optional<std::uint64_t>& v) {
  return v ? std::to_string(*v) : "-";
}

}  // namespace

// ---- gen complete-exchange ----------------------------------------------------------------------

po::options_description complete_exchange_gen_options() {
  po::options_description o("gen complete-exchange");
  o.add_options()("algorithm", po::value<std::string>(),
                  ("complete-exchange: " + algorithm_names() + " (required)").c_str())(
      "block", po::value<std::string>(), "complete-exchange: words per block B (required)")(
      "rearrange-cycles", po::value<std::string>(),
      "complete-exchange: cycles per block a node rearranges, a compute phase before it sends "
      "(default 0)");
  return o;
}

McProgram complete_exchange_program(const po::variables_map& vm) {
  const std::uint32_t side = torus_side(vm);
  if (!vm.count("algorithm")) {
    throw InputError({"--algorithm"}, algorithm_names() + " (the option is required)", "none");
  }
  const ExchangeAlgorithm algorithm =
      algorithm_named("--algorithm", vm["algorithm"].as<std::string>());
  const ScheduleCosts costs = costs_from(vm);
  return program_of(complete_exchange_schedule(algorithm, side), costs);
}

// ---- exchange -----------------------------------------------------------------------------------

po::options_description exchange_options() {
  po::options_description o("orthosim exchange");
  o.add_options()("torus", po::value<std::string>(),
                  "the torus, N x N with N a power of two from 4 to 32 (required)")(
      "block", po::value<std::string>(),
      "words per block B (required)")("startup", po::value<std::string>(),
                                      "t_s: cycles at the sender before a message (default 0)")(
      "rearrange-cycles", po::value<std::string>(),
      "t_r: cycles per block a node rearranges before it sends (default 0)")(
      "algorithms", po::value<std::string>(),
      ("a comma-separated list of " + algorithm_names() + " (default: all)").c_str());
  o.add(common_options());
  return o;
}

int run_exchange(const po::variables_map& vm, Context& ctx) {
  const std::uint32_t side = torus_side(vm);
  const ScheduleCosts costs = costs_from(vm);
  const std::uint64_t startup =
      vm.count("startup") ? parse_count("--startup", vm["startup"].as<std::string>(), 0, 1'000'000)
                          : 0;
  std::vector<ExchangeAlgorithm> algorithms;
  if (vm.count("algorithms")) {
    // Every comma-separated item, the empty ones too (std::getline drops a trailing one).
    const std::string list = vm["algorithms"].as<std::string>();
    for (std::size_t start = 0; start <= list.size() && !list.empty();) {
      const std::size_t comma = std::min(list.find(',', start), list.size());
      const std::string name = list.substr(start, comma - start);
      start = comma + 1;
      // The name in its list: '' alone would not say that 'a1,' ends in a comma.
      const std::optional<ExchangeAlgorithm> a = parse_exchange_algorithm(name);
      if (!a) {
        throw InputError({"--algorithms"}, algorithm_names(), "'" + name + "' in '" + list + "'");
      }
      if (std::find(algorithms.begin(), algorithms.end(), *a) != algorithms.end()) {
        throw InputError({"--algorithms"}, "each algorithm once", "'" + name + "' twice");
      }
      algorithms.push_back(*a);
    }
    if (algorithms.empty()) {
      throw InputError({"--algorithms"}, algorithm_names(), "an empty list");
    }
  } else {
    algorithms = exchange_algorithms();
  }
  const Topology torus = Topology::torus({side, side});
  NetworkConfig network;
  network.topology = torus;
  network.router.vcs = default_vcs(torus);
  network.ni.startup = startup;
  network.ni.ports = NodePorts::One;
  const Validated<NetworkConfig> config = network.validated();

  // Every program is made (and --block checked) before anything runs.
  std::vector<ExchangeRun> runs;
  std::vector<RoutedProgram> programs;
  for (ExchangeAlgorithm a : algorithms) {
    const Schedule schedule = complete_exchange_schedule(a, side);
    ExchangeRun run;
    run.algorithm = a;
    run.blocks = schedule.blocks.size();
    run.check = check_schedule(torus, schedule, {true, false});
    for (const StepFigures& f : run.check.steps) {
      run.max_link_load = std::max(run.max_link_load, f.max_link_load);
    }
    // The per-step sum of the zero-load time of docs/networks.md: in each step the slowest
    // message after its sender's rearrangement (sw/schedule's lockstep_cycles).
    run.zero_load_cycles =
        lockstep_cycles(torus, schedule, costs, {config->ni.startup, config->router.delay}).count();
    run.table1 = table1_terms(a, side);
    if (run.table1) {
      run.table1_cycles = static_cast<std::uint64_t>(
          run.table1->startups * static_cast<double>(startup) +
          run.table1->transmission_blocks * costs.block_words +
          run.table1->rearranged_blocks *
              static_cast<double>(costs.rearrange_cycles_per_block.count()));
    }
    programs.push_back(route_program(program_of(schedule, costs), torus.nodes(),
                                     identity_embedding(torus.nodes())));
    runs.push_back(std::move(run));
  }
  // One elaboration: the networks run one after another, each counting from its own load.
  std::vector<NetworkRunRequest> requests;
  for (RoutedProgram& program : programs) {
    requests.push_back(NetworkRunRequest{config, std::move(program), std::nullopt});
  }
  const MixedRunResult results = ctx.runner.run_mixed({}, requests);
  for (std::size_t k = 0; k < runs.size(); ++k) {
    runs[k].summary = results.networks.at(k);
  }
  const bool ok =
      std::all_of(runs.begin(), runs.end(), [](const ExchangeRun& r) { return r.ok(); });
  std::optional<ExchangeAlgorithm> fastest;
  std::uint64_t fastest_cycles = 0;
  for (const ExchangeRun& r : runs) {
    if (r.ok() && (!fastest || r.summary.cycles.count() < fastest_cycles)) {
      fastest = r.algorithm;
      fastest_cycles = r.summary.cycles.count();
    }
  }

  if (vm.count("json")) {
    nlohmann::json list = nlohmann::json::array();
    for (const ExchangeRun& r : runs) {
      nlohmann::json j = {{"algorithm", to_string(r.algorithm)},
                          {"steps", r.check.startups()},
                          {"blocks_sent", r.check.blocks_sent},
                          {"transmission_blocks", r.check.transmission_blocks()},
                          {"rearranged_blocks", r.check.rearranged_blocks()},
                          {"max_link_load", r.max_link_load},
                          {"zero_load_cycles", r.zero_load_cycles},
                          {"cycles", r.summary.cycles.count()},
                          {"payload_ok", r.summary.payload_ok()},
                          {"blocks", r.blocks},
                          {"blocks_delivered", r.check.blocks_delivered},
                          {"predicted_startups", nullptr},
                          {"predicted_cycles", nullptr}};
      if (r.table1) {
        j["predicted_startups"] = r.table1->startups;
        j["predicted_cycles"] = *r.table1_cycles;
      }
      list.push_back(std::move(j));
    }
    const nlohmann::json j = {{"command", "exchange"},
                              {"torus", std::to_string(side) + "x" + std::to_string(side)},
                              {"block_words", costs.block_words},
                              {"startup", startup},
                              {"rearrange_cycles", costs.rearrange_cycles_per_block.count()},
                              {"algorithms", list},
                              {"fastest", fastest ? nlohmann::json(to_string(*fastest))
                                                  : nlohmann::json(nullptr)}};
    ctx.out << json_text(j, 2) << '\n';
    return ok ? kExitOk : kExitRunFailed;
  }
  ctx.out << "orthosim exchange: complete exchange on the " << torus.to_string()
          << ", one-port wormhole, B = " << costs.block_words
          << " words per block, t_s = " << startup
          << ", t_r = " << costs.rearrange_cycles_per_block.count() << " cycles per block\n"
          << "  steps: the checker's start-ups ([A2A] Table 1's in brackets); transmission: the "
             "largest message of each step, summed, in blocks; link: the most messages of a "
             "step on one link; zero-load: the per-step sum of the slowest message alone; "
             "Table 1: t_s, B and t_r into its formulas\n\n";
  ctx.out << std::left << std::setw(10) << "algorithm" << std::right << std::setw(10) << "steps"
          << std::setw(13) << "transmission" << std::setw(6) << "link" << std::setw(12)
          << "blocks sent" << std::setw(11) << "zero-load" << std::setw(11) << "cycles"
          << std::setw(11) << "Table 1"
          << "  delivered\n";
  for (const ExchangeRun& r : runs) {
    std::string steps = std::to_string(r.check.startups());
    if (r.table1) {
      std::ostringstream t;
      t << " (" << r.table1->startups << ")";
      steps += t.str();
    }
    ctx.out << std::left << std::setw(10) << to_string(r.algorithm) << std::right << std::setw(10)
            << steps << std::setw(13) << r.check.transmission_blocks() << std::setw(6)
            << r.max_link_load << std::setw(12) << r.check.blocks_sent << std::setw(11)
            << r.zero_load_cycles << std::setw(11) << r.summary.cycles.count() << std::setw(11)
            << text_or_dash(r.table1_cycles) << "  " << r.check.blocks_delivered << "/" << r.blocks
            << (r.summary.payload_ok() ? ", every word checked" : ", PAYLOAD LOST") << "\n";
  }
  if (fastest) {
    ctx.out << "\nfastest: " << to_string(*fastest) << " (" << fastest_cycles << " cycles)\n";
  }
  return ok ? kExitOk : kExitRunFailed;
}

}  // namespace orthosim::sw::cli
