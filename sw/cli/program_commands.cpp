// `orthosim map`, `run`, `gen` and `demo`: multicomputer programs mapped onto the shared-memory
// multiprocessors ([PH91] sections 2 and 4).
#include <limits>

#include "sw/cli/commands.hpp"
#include "sw/cli/fig2_sample.hpp"
#include "sw/cli/options.hpp"
#include "sw/cli/output_options.hpp"
#include "sw/cli/program_report.hpp"
#include "sw/cli/report.hpp"
#include "sw/cli/variant_options.hpp"
#include "sw/core/diagnostic.hpp"
#include "sw/core/input_file.hpp"
#include "sw/core/json_text.hpp"
#include "sw/machine/validate.hpp"
#include "sw/pattern/generate.hpp"
#include "sw/pattern/parallel_fft.hpp"
#include "sw/pattern/topology_programs.hpp"
#include "sw/program/format.hpp"
#include "sw/program/parser.hpp"

namespace orthosim::sw::cli {

namespace {

McProgram program_from(const po::variables_map& vm) {
  if (!vm.count("program")) {
    throw InputError({"PROGRAM"}, "a program file (.mcp) as the first argument", "none");
  }
  return read_program_file(vm["program"].as<std::string>());
}

/// Processors: --n, else one per node. More nodes than processors are clustered (section 5).
std::uint32_t processors_for(const po::variables_map& vm, const McProgram& program) {
  if (vm.count("n")) {
    return static_cast<std::uint32_t>(
        parse_count("--n", vm["n"].as<std::string>(), 1, kMaxProcessors));
  }
  if (program.nodes > kMaxProcessors) {
    throw InputError({"--n"},
                     "a processor count: the program has " + std::to_string(program.nodes) +
                         " nodes, more than the " + std::to_string(kMaxProcessors) +
                         " processors of the largest system",
                     "none");
  }
  return program.nodes;
}

/// The clustering options of map and run ([PH91] section 5).
po::options_description clustering_options() {
  po::options_description o("Clustering (more nodes than processors)");
  o.add_options()(
      "collapse", po::value<std::string>(),
      "hypercube programs: the dimensions made intra-cluster, e.g. x0,x3, or auto (the most "
      "used ones) (default: blocks of consecutive nodes, i.e. the lowest dimensions)")(
      "torus", po::value<std::string>(),
      "torus programs: the node grid, columns x rows, e.g. 4x4 (node = x + columns * y)")(
      "cluster", po::value<std::string>(),
      "with --torus: columns | rows, the nodes one processor holds (default columns)")(
      "sync", po::value<std::string>(),
      "pairs: activate-/wait-sync per message (section 4.3) | iwr: one bus switch per step, "
      "gamma (the IWR steps of Eq. 1 and Tables 2, 4, 5) (default pairs)");
  return o;
}

SyncMode sync_for(const po::variables_map& vm) {
  if (!vm.count("sync")) {
    return SyncMode::Pairs;
  }
  const std::string text = vm["sync"].as<std::string>();
  if (text == "pairs") {
    return SyncMode::Pairs;
  }
  if (text == "iwr") {
    return SyncMode::BusSwitch;
  }
  throw InputError({"--sync"}, "pairs or iwr", "'" + text + "'");
}

/// How the program's nodes are grouped onto the processors: --torus, --collapse, or blocks.
/// --torus CxR: the columns and rows of a torus, each 1..4096. A refusal quotes the whole value,
/// whichever side is at fault: '' alone would not say that '4x' lacks its rows.
TorusClusters torus_grid(const std::string& text) {
  const auto refusal = [&text] {
    return InputError({"--torus"}, "columns x rows, e.g. 4x4, each 1..4096", "'" + text + "'");
  };
  const std::size_t x = text.find('x');
  if (x == std::string::npos) {
    throw refusal();
  }
  try {
    TorusClusters grid;
    grid.columns = static_cast<std::uint32_t>(parse_count("--torus", text.substr(0, x), 1, 4096));
    grid.rows = static_cast<std::uint32_t>(parse_count("--torus", text.substr(x + 1), 1, 4096));
    return grid;
  } catch (const InputError&) {
    throw refusal();
  }
}

Clustering clustering_for(const po::variables_map& vm, const McProgram& program) {
  if (vm.count("cluster") && !vm.count("torus")) {
    throw InputError({"--cluster"},
                     "needs --torus CxR, the grid whose columns or rows go one to a processor");
  }
  if (vm.count("torus")) {
    if (vm.count("collapse")) {
      throw InputError({"--collapse"}, "either --torus or --collapse, not both");
    }
    TorusClusters grid = torus_grid(vm["torus"].as<std::string>());
    if (vm.count("cluster")) {
      const std::string by = vm["cluster"].as<std::string>();
      if (by != "columns" && by != "rows") {
        throw InputError({"--cluster"}, "columns or rows", "'" + by + "'");
      }
      grid.by_columns = by == "columns";
    }
    Clustering c = Clustering::torus(program.nodes, grid);
    if (vm.count("n") && processors_for(vm, program) != c.processors()) {
      throw InputError({"--n"},
                       std::to_string(c.processors()) + ", one processor per torus " +
                           (grid.by_columns ? "column" : "row"),
                       vm["n"].as<std::string>());
    }
    return c;
  }
  const std::uint32_t n = processors_for(vm, program);
  if (vm.count("collapse")) {
    const std::string text = vm["collapse"].as<std::string>();
    std::uint32_t p = 0, q = 0;
    while ((1u << p) < program.nodes) {
      ++p;
    }
    while ((1u << q) < n) {
      ++q;
    }
    if (text == "auto") {
      return Clustering::hypercube(program.nodes, n,
                                   Clustering::most_used_dimensions(program, p > q ? p - q : 0));
    }
    return Clustering::hypercube(program.nodes, n, collapsed_dimensions(text));
  }
  return Clustering::blocks(program.nodes, n);
}

po::options_description arch_option(bool networks) {
  po::options_description o("Target");
  o.add_options()("arch", po::value<std::string>(),
                  networks ? "omp | crossbar | bus (the program mapped onto a multiprocessor), or "
                             "mesh | torus | hypercube (routed natively) (default omp)"
                           : "omp | crossbar | bus (default omp)");
  return o;
}

/// The system a mapped program runs on: the options, with the sizes the program needs where the
/// user did not fix them, validated, with the machine program checked against it.
Validated<SystemConfig> fitted_config(const po::variables_map& vm, const MappedProgram& mapped,
                                      SystemConfig config) {
  config.n = mapped.processors;
  const FixedSizes fixed{vm.count("buffer-words") > 0, vm.count("module-words") > 0,
                         vm.count("local-words") > 0};
  fit_config(mapped.needs, fixed, config);
  Validated<SystemConfig> fitted = config.validated();
  validate(mapped.machine, fitted);
  return fitted;
}

}  // namespace

// ---- map ----------------------------------------------------------------------------------

po::options_description map_options() {
  po::options_description o("orthosim map");
  o.add(arch_option(false))
      .add(clustering_options())
      .add(system_options(true))
      .add(common_options());
  return o;
}

int run_map(const po::variables_map& vm, Context& ctx) {
  const McProgram program = program_from(vm);
  const SystemConfig config = config_from(vm);
  const MappedProgram mapped =
      map_program(program, config.arch, clustering_for(vm, program), sync_for(vm));
  if (vm.count("json")) {
    nlohmann::json j = mapping_json(mapped, config.timing);
    j["command"] = "map";
    ctx.out << json_text(j, 2) << '\n';
  } else {
    print_mapping(mapped, ctx.out);
  }
  return kExitOk;
}

// ---- run ----------------------------------------------------------------------------------

po::options_description run_options() {
  po::options_description o("orthosim run");
  o.add_options()("vcd", po::value<std::string>(), "write a VCD waveform to this file")(
      "embedding", po::value<std::string>(),
      "networks: a node map, the network node of each program node (default: node i on node i)")(
      "lockstep",
      "networks: every step ends with a barrier of no cost, so that no node begins a step before "
      "every node has ended the one before (a schedule's steps, [CALMANT] section 2.5)");
  o.add(arch_option(true))
      .add(memory_limit_option())
      .add(rtl_options(ImplBlocks::Both))
      .add(trace_output_option())
      .add(clustering_options())
      .add(system_options(true))
      .add(network_options())
      .add(variant_options())
      .add(common_options());
  return o;
}

CommandForm run_form(const po::variables_map& vm) {
  const std::string arch = vm.count("arch") ? vm["arch"].as<std::string>() : "omp";
  if (is_network_kind(arch)) {
    return {"network", "run on the " + arch};
  }
  Arch parsed{};
  if (!parse_arch(arch, parsed)) {
    // run takes both families: naming only the multiprocessors (as map and access do) would
    // tell a user who typed `Torus` that networks cannot be run.
    throw InputError({"--arch"}, "one of omp, crossbar, bus, mesh, torus, hypercube",
                     "'" + arch + "'");
  }
  return {"multiprocessor", "run on the " + arch};
}

int run_run(const po::variables_map& vm, Context& ctx) {
  if (run_form(vm).key == "network") {
    return run_network_program(vm, ctx, vm["arch"].as<std::string>());
  }
  SystemConfig config;
  MappedProgram mapped;
  ProgramCost predicted;
  std::vector<StepOperations> operations;
  const bool json = vm.count("json") > 0;
  {
    // The program as read (every transfer, with its source location) is not needed once
    // mapped: each step is freed as it is mapped, so it is not held through the run.
    McProgram program = program_from(vm);
    config = config_from(vm);
    const SyncMode sync = sync_for(vm);
    const Clustering clustering = clustering_for(vm, program);
    SystemConfig mapped_config = config;
    mapped_config.n = clustering.processors();
    const MemoryOrganization org = mapped_config.organization();
    std::vector<MappedStep> kept;
    // Each step is predicted as it is mapped; the table needs only its lines, so without --json
    // the step itself is dropped there and the mapped steps are never all held.
    const StepSink summarize = [&](MappedStep&& step) {
      predicted.steps.push_back(predict_step_cycles(step, mapped_config, sync));
      predicted.total += predicted.steps.back();
      if (json) {
        keep_what_json_prints(step);
        kept.push_back(std::move(step));
      } else {
        operations.push_back(step_operations(step, org, config.timing));
      }
    };
    mapped = map_program(std::move(program), config.arch, clustering, sync, summarize);
    mapped.steps = std::move(kept);
  }
  const Validated<SystemConfig> fitted = fitted_config(vm, mapped, config);
  // The machine program moves into the system: the report reads the table lines or the mapped
  // steps, not it.
  SystemRun system{fitted, std::move(mapped.machine), std::nullopt};
  if (vm.count("vcd")) {
    system.vcd_path = vm["vcd"].as<std::string>();
  }
  system.trace_path = trace_path_from(vm);
  system.fst_path = fst_path_from(vm, fitted->impl);
  system.memory_limit = memory_limit_from(vm);
  const std::optional<std::string> vcd_path = system.vcd_path;
  std::vector<SystemRun> systems;
  systems.push_back(std::move(system));
  const std::vector<RunSummary> summaries = ctx.runner.run_programs(std::move(systems));
  if (report_cosim_mismatch(summaries, ctx.prefix, ctx.err)) {
    return kExitRunFailed;
  }
  const ProgramRun run{mapped, fitted, predicted, summaries.at(0), vcd_path, std::move(operations)};
  if (json) {
    write_run_json(run, ctx.out);
  } else {
    print_run(run, ctx.out);
  }
  return run.ok() ? kExitOk : kExitRunFailed;
}

// ---- gen ----------------------------------------------------------------------------------

po::options_description gen_options() {
  po::options_description o("orthosim gen");
  o.add_options()("nodes", po::value<std::string>(), "m: nodes of the program (required)")(
      "sources", po::value<std::string>(), "source nodes, e.g. 1,2,5 (default: chosen by --seed)")(
      "dests", po::value<std::string>(), "destination nodes (default: chosen by --seed)")(
      "len", po::value<std::string>(),
      "words per message (default 1; random: the maximum, default 8)")(
      "steps", po::value<std::string>(),
      "random: number of steps (required)")("seed", po::value<std::string>(),
                                            "seed of the choices (default 1)")(
      "dims", po::value<std::string>(),
      "exchange, cc-cube: hypercube dimensions, e.g. 0,1,3 (default all; cc-cube: one stage "
      "each, in this order); complete-exchange --onto mesh: the mesh, e.g. 16x16")(
      "dim", po::value<std::string>(),
      "cc-cube: cube dimension d, 2^d processes; fft: the hypercube dimension n, 2^n processors "
      "(2..12); required by both")("compute", po::value<std::string>(),
                                   "cc-cube: computation cycles per stage; calmant: per iteration "
                                   "(default 0)")(
      "together", "exchange: one step with every listed dimension (default: one step each)")(
      "torus", po::value<std::string>(),
      "shift: the torus, columns x rows, e.g. 4x4; complete-exchange: N x N")(
      "points", po::value<std::string>(),
      "fft: m = 2^(n+2d) complex inputs, d >= 1 (e.g. 1024, 4096, 16384, 65536 for n = 8)")(
      "machine", po::value<std::string>(),
      "fft: ncube2, the costs of [LCC] section 6.2 at 570 ns a cycle (default ncube2)")(
      "point-words", po::value<std::string>(),
      "fft: words (flits) per complex input (default: the machine's, 16 bytes)")(
      "butterfly-cycles", po::value<std::string>(),
      "fft: cycles of one butterfly (default: the machine's, 9)")(
      "half-butterfly-cycles", po::value<std::string>(),
      "fft: cycles of half a butterfly (default: the machine's, 8)")(
      "direction", po::value<std::string>(),
      "shift: east | west | north | south")("distance", po::value<std::string>(),
                                            "shift: nodes to move by (default 1)")(
      "out", po::value<std::string>(),
      "write the program to this file (default: standard output)")("help,h", "show this help");
  o.add(complete_exchange_gen_options())
      .add(mesh_complete_exchange_gen_options())
      .add(gen_calmant_options());
  return o;
}

namespace {

constexpr const char* kNodes = "node numbers separated by commas, e.g. 1,2,5";
constexpr const char* kDimensions = "hypercube dimensions separated by commas, e.g. 0,1,3";

/// The comma-separated numbers of option `name`, e.g. "1,2,5"; `holds` says what they are and
/// how they are written (for the refusal of anything else). Their range is the generator's to check: it knows m and d.
std::vector<NodeId> number_list(const po::variables_map& vm, const std::string& name,
                                const std::string& holds) {
  std::vector<NodeId> out;
  if (!vm.count(name)) {
    return out;
  }
  const std::string text = vm[name].as<std::string>();
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = text.find(',', start);
    const std::string item =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    try {
      out.push_back(static_cast<NodeId>(
          parse_count("--" + name, item, 0, std::numeric_limits<std::uint32_t>::max())));
    } catch (const InputError&) {
      throw InputError({"--" + name}, holds, "'" + text + "'");
    }
    if (comma == std::string::npos) {
      break;
    }
    start = comma + 1;
  }
  return out;
}

std::uint64_t required(const po::variables_map& vm, const std::string& name, std::uint64_t min,
                       std::uint64_t max) {
  if (!vm.count(name)) {
    throw InputError({"--" + name}, "a value (the option is required)", "none");
  }
  return parse_count("--" + name, vm[name].as<std::string>(), min, max);
}

/// `gen fft`: [LCC] section 6.2's Parallel_FFT with the machine's costs, each overridden by its
/// option.
McProgram fft_program(const po::variables_map& vm) {
  const auto dim = static_cast<std::uint32_t>(required(vm, "dim", 0, 64));
  const std::uint64_t points = required(vm, "points", 1, std::numeric_limits<std::uint64_t>::max());
  if (vm.count("machine") && vm["machine"].as<std::string>() != "ncube2") {
    throw InputError({"--machine"}, "ncube2 (the machine of [LCC] section 6.2)",
                     "'" + vm["machine"].as<std::string>() + "'");
  }
  FftCosts costs = ncube2_fft_costs();
  constexpr std::uint64_t kMostCostCycles = 1'000'000;
  if (vm.count("point-words")) {
    costs.point_words = static_cast<std::uint32_t>(
        parse_count("--point-words", vm["point-words"].as<std::string>(), 1, kMaxMessageWords));
  }
  if (vm.count("butterfly-cycles")) {
    costs.butterfly =
        Cycle{parse_count("--butterfly-cycles", vm["butterfly-cycles"].as<std::string>(), 0,
                          kMostCostCycles)};
  }
  if (vm.count("half-butterfly-cycles")) {
    costs.half_butterfly =
        Cycle{parse_count("--half-butterfly-cycles", vm["half-butterfly-cycles"].as<std::string>(),
                          0, kMostCostCycles)};
  }
  return parallel_fft(dim, points, costs);
}

}  // namespace

/// Prints the program, or writes it to --out (an OutputFile: FILE.partial renamed, or a stream).
/// Only a program the readers take is written: no more messages and compute phases than a .mcp
/// program expands to, no more bytes than a program file has (a large random program was
/// written, and every command then refused it).
int write_program(const po::variables_map& vm, Context& ctx, const McProgram& program) {
  const std::string form = vm["pattern"].as<std::string>();
  std::uint64_t items = 0;
  for (const ProgramStep& step : program.steps) {
    items += step.computes.size();
    for (const Transfer& transfer : step.transfers) {
      items += transfer.destinations.size();
    }
  }
  if (items > kMaxProgramExpansion) {
    throw InputError({form},
                     "a program of at most " + std::to_string(kMaxProgramExpansion) +
                         " messages and compute phases, the most a .mcp program has",
                     std::to_string(items));
  }
  const std::string text = format_program(program);
  if (text.size() > kMaxInputFileBytes) {
    throw InputError({form},
                     "a program of at most " + std::to_string(kMaxInputFileBytes) +
                         " bytes (64 MiB), the most a .mcp file has",
                     std::to_string(text.size()) + " bytes");
  }
  if (!vm.count("out")) {
    ctx.out << text;
    return kExitOk;
  }
  write_output_text("--out", vm["out"].as<std::string>(), text);
  return kExitOk;
}

CommandForm gen_form(const po::variables_map& vm) {
  if (!vm.count("pattern")) {
    return {};
  }
  const std::string what = vm["pattern"].as<std::string>();
  const bool named = what == "shift" || what == "exchange" || what == "random" ||
                     what == "cc-cube" || what == "fft" || what == "complete-exchange" ||
                     what == "calmant";
  return {named ? what : parse_pattern(what) ? "pattern" : "", "gen " + what};
}

int run_gen(const po::variables_map& vm, Context& ctx) {
  const std::string expected =
      "a pattern (C1..C12, a Table 1 name, exchange, shift, cc-cube, fft, complete-exchange, "
      "calmant or random)";
  if (!vm.count("pattern")) {
    throw InputError({"PATTERN"}, expected, "none");
  }
  const std::string what = vm["pattern"].as<std::string>();
  // A misspelled PATTERN is named before the options of any form are read: `gen shfit --torus
  // 4x4` would otherwise be told it lacks --nodes, an option of a form the user never meant.
  if (gen_form(vm).key.empty()) {
    throw InputError({"PATTERN"}, expected, "'" + what + "'");
  }
  const auto words = [&vm](std::uint32_t fallback) {
    return static_cast<std::uint32_t>(
        vm.count("len") ? parse_count("--len", vm["len"].as<std::string>(), 1, kMaxMessageWords)
                        : fallback);
  };
  if (what == "calmant") {
    return run_gen_calmant(vm, ctx);
  }
  if (what == "complete-exchange" && vm.count("onto")) {
    return write_program(vm, ctx, mesh_complete_exchange_program(vm));
  }
  if (what == "shift") {
    if (!vm.count("torus")) {
      throw InputError({"--torus"}, "the torus as columns x rows, e.g. 4x4", "none");
    }
    const std::string torus = vm["torus"].as<std::string>();
    const TorusClusters shape = torus_grid(torus);
    require_program_nodes("--torus", torus, std::uint64_t{shape.columns} * shape.rows);
    if (!vm.count("direction")) {
      throw InputError({"--direction"}, "east, west, north or south", "none");
    }
    const auto distance = static_cast<std::uint32_t>(
        vm.count("distance")
            ? parse_count("--distance", vm["distance"].as<std::string>(), 1, kMaxProgramNodes)
            : 1);
    return write_program(vm, ctx,
                         torus_shift(shape.columns, shape.rows,
                                     parse_shift_direction(vm["direction"].as<std::string>()),
                                     distance, words(1)));
  }
  if (what == "complete-exchange") {
    return write_program(vm, ctx, complete_exchange_program(vm));
  }
  if (what == "fft") {
    return write_program(vm, ctx, fft_program(vm));
  }
  if (what == "cc-cube") {
    const auto dim = static_cast<std::uint32_t>(required(vm, "dim", 1, 16));
    require_program_nodes("--dim", vm["dim"].as<std::string>(), std::uint64_t{1} << dim);
    std::vector<std::uint32_t> dims = number_list(vm, "dims", kDimensions);
    if (dims.empty()) {
      for (std::uint32_t k = 0; k < dim; ++k) {
        dims.push_back(k);
      }
    }
    const std::uint64_t compute =
        vm.count("compute")
            ? parse_count("--compute", vm["compute"].as<std::string>(), 0, 1'000'000)
            : 0;
    return write_program(vm, ctx, cc_cube(dim, dims, words(1), Cycle{compute}));
  }
  const auto nodes = static_cast<std::uint32_t>(required(vm, "nodes", 1, kMaxProgramNodes));
  if (what == "exchange") {
    std::vector<std::uint32_t> dims;
    if (vm.count("dims")) {
      dims = number_list(vm, "dims", kDimensions);
    } else {
      for (std::uint32_t k = 0; (1u << k) < nodes; ++k) {
        dims.push_back(k);
      }
    }
    return write_program(vm, ctx,
                         hypercube_exchange(nodes, dims, words(1), vm.count("together") > 0));
  }
  const std::uint64_t seed = vm.count("seed")
                                 ? parse_count("--seed", vm["seed"].as<std::string>(), 0,
                                               std::numeric_limits<std::uint64_t>::max())
                                 : 1;
  McProgram program;
  if (what == "random") {
    const auto steps = static_cast<std::uint32_t>(required(vm, "steps", 1, 1'000'000));
    const auto len = static_cast<std::uint32_t>(
        vm.count("len") ? parse_count("--len", vm["len"].as<std::string>(), 1, kMaxMessageWords)
                        : 8);
    program = generate_random(nodes, steps, seed, len);
  } else {
    const Pattern pattern = *parse_pattern(what);  // gen_form accepted it above
    PatternGenOptions o;
    o.nodes = nodes;
    o.sources = number_list(vm, "sources", kNodes);
    o.destinations = number_list(vm, "dests", kNodes);
    o.words = static_cast<std::uint32_t>(
        vm.count("len") ? parse_count("--len", vm["len"].as<std::string>(), 1, kMaxMessageWords)
                        : 1);
    o.seed = seed;
    program = generate_pattern(pattern, o);
  }
  return write_program(vm, ctx, program);
}

// ---- demo ---------------------------------------------------------------------------------

po::options_description demo_options() {
  po::options_description o("orthosim demo");
  o.add_options()("out", po::value<std::string>()->default_value("orthosim-demo"),
                  "folder for the waveforms, one VCD per configuration (created if missing)");
  o.add(rtl_options(ImplBlocks::Multiprocessor))
      .add(system_options(true))
      .add(trace_output_option())
      .add(variant_options())
      .add(common_options());
  return o;
}

std::string demo_waveform(const std::string& out_dir, Arch arch) {
  return out_dir + "/" + to_string(arch) + ".vcd";
}

int run_demo(const po::variables_map& vm, Context& ctx) {
  const McProgram program = parse_program(kFig2SampleProgram, "fig2_sample.mcp");
  const SystemConfig base = config_from(vm);
  const std::uint32_t n = vm.count("n") ? base.n : program.nodes;
  const std::string out_dir = vm["out"].as<std::string>();
  std::vector<MappedProgram> mapped;
  std::vector<SystemRun> systems;
  for (Arch arch : kDemoArchs) {
    mapped.push_back(map_program(program, arch, n));
    SystemConfig c = base;
    c.arch = arch;
    c.impl = multiprocessor_impl(vm, arch);
    const Validated<SystemConfig> fitted = fitted_config(vm, mapped.back(), c);
    systems.push_back({fitted, mapped.back().machine, demo_waveform(out_dir, arch), "out",
                       trace_path_from(vm), fst_path_from(vm, fitted->impl)});
  }
  const std::vector<RunSummary> summaries = ctx.runner.run_programs(systems);
  if (report_cosim_mismatch(summaries, ctx.prefix, ctx.err)) {
    return kExitRunFailed;
  }
  std::vector<ProgramRun> runs;
  bool ok = true;
  for (std::size_t i = 0; i < systems.size(); ++i) {
    runs.push_back({mapped[i],
                    systems[i].config,
                    predict_cycles(mapped[i], systems[i].config),
                    summaries.at(i),
                    systems[i].vcd_path,
                    {}});
    ok = ok && runs.back().ok();
  }
  if (vm.count("json")) {
    ctx.out << json_text(demo_json(runs, out_dir), 2) << '\n';
  } else {
    print_demo(runs, out_dir, ctx.out);
  }
  return ok ? kExitOk : kExitRunFailed;
}

}  // namespace orthosim::sw::cli
