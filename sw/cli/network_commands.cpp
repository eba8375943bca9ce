// `orthosim run` on a mesh, torus or hypercube, and `orthosim traffic`: the multicomputer side
// (docs/architecture.md; [LCC] section 6, [CALMANT] section 2.1).
#include <algorithm>
#include <limits>
#include <sstream>

#include "sw/cli/commands.hpp"
#include "sw/cli/network_report.hpp"
#include "sw/cli/options.hpp"
#include "sw/cli/report.hpp"
#include "sw/cli/variant_options.hpp"
#include "sw/core/diagnostic.hpp"
#include "sw/core/json_text.hpp"
#include "sw/program/parser.hpp"

namespace orthosim::sw::cli {

int run_network_program(const po::variables_map& vm, Context& ctx, const std::string& kind) {
  if (!vm.count("program")) {
    throw InputError({"PROGRAM"}, "a program file (.mcp) as the first argument", "none");
  }
  NetworkRunRequest request;
  {
    // The program as read (every transfer, with its source location) is not needed once
    // routed: each step is freed as it is routed, so it is not held through the run.
    McProgram program = read_program_file(vm["program"].as<std::string>());
    request.config = network_config_from(vm, kind, "arch");
    const std::uint32_t nodes = request.config->topology.nodes();
    if (program.nodes > nodes) {
      throw InputError({kind == "hypercube" ? "--dim" : "--dims"},
                       "a network of at least the program's " + std::to_string(program.nodes) +
                           " nodes",
                       request.config->topology.to_string() + " (" + std::to_string(nodes) +
                           " nodes)");
    }
    const std::vector<std::uint32_t> embedding =
        vm.count("embedding")
            ? read_embedding_file(vm["embedding"].as<std::string>(), program.nodes, nodes)
            : identity_embedding(program.nodes);
    request.program = route_program(std::move(program), nodes, embedding);
    request.program.lockstep = vm.count("lockstep") > 0;
  }
  if (vm.count("vcd")) {
    request.vcd_path = vm["vcd"].as<std::string>();
  }
  request.trace_path = trace_path_from(vm);
  request.fst_path = fst_path_from(vm, request.config->impl);
  request.memory_limit = memory_limit_from(vm);
  const NetworkProgramRun run{request.program, request.config, ctx.runner.run_network(request),
                              request.vcd_path};
  if (report_cosim_mismatch({run.summary}, ctx.prefix, ctx.err)) {
    return kExitRunFailed;
  }
  if (vm.count("json")) {
    ctx.out << json_text(network_run_json(run), 2) << '\n';
  } else {
    print_network_run(run, ctx.out);
  }
  return run.ok() ? kExitOk : kExitRunFailed;
}

po::options_description traffic_options() {
  const TrafficParameters defaults;
  std::ostringstream default_rate;
  default_rate << TrafficParameters::kDefaultRate;
  po::options_description o("orthosim traffic");
  o.add_options()("topology", po::value<std::string>(), "mesh | torus | hypercube (required)")(
      "pattern", po::value<std::string>(),
      "uniform | transpose | bitrev | reverse-flip | lcc:A,b (default uniform); A as d rows of "
      "d bits joined by '/', b as d bits, bit 0 first (docs/topology.md)")(
      "rate", po::value<std::string>(),
      ("offered flits per node per cycle (default " + default_rate.str() + ")").c_str())(
      "rates", po::value<std::string>(), "a sweep: R1,R2,... (a latency-throughput table)")(
      "flits", po::value<std::string>(),
      ("flits per packet, header included (default " + std::to_string(defaults.flits) + ")")
          .c_str())("injection", po::value<std::string>(),
                    "bernoulli | exponential inter-arrival times (default bernoulli)")(
      "warmup", po::value<std::string>(),
      ("cycles before measuring (default " + std::to_string(defaults.warmup) + ")").c_str())(
      "cycles", po::value<std::string>(),
      ("measured cycles (default " + std::to_string(defaults.cycles) + ")").c_str())(
      "seed", po::value<std::string>(),
      ("random seed (default " + std::to_string(defaults.seed) + ")").c_str())(
      "clock-ns", po::value<std::string>(), "clock period in ns (default 50)")(
      "embedding", po::value<std::string>(),
      "node map: pattern node i runs on the i-th network node of FILE (e.g. from orthosim lcc "
      "--out)");
  o.add(network_options())
      .add(rtl_options(ImplBlocks::Network))
      .add(trace_output_option())
      .add(variant_options())
      .add(common_options());
  return o;
}

namespace {

constexpr const char* kRate = "a rate in flits per node per cycle, 0..64";

double parse_rate(const std::string& option, const std::string& text) {
  return parse_decimal(option, text, 64.0, kRate);
}

}  // namespace

int run_traffic(const po::variables_map& vm, Context& ctx) {
  if (!vm.count("topology")) {
    throw InputError({"--topology"}, "mesh, torus or hypercube (the option is required)", "none");
  }
  TrafficRequest request;
  request.config = network_config_from(vm, vm["topology"].as<std::string>(), "topology");
  request.pattern =
      parse_traffic_pattern(vm.count("pattern") ? vm["pattern"].as<std::string>() : "uniform",
                            request.config->topology);
  if (vm.count("embedding")) {
    request.embedding_path = vm["embedding"].as<std::string>();
    const std::uint32_t nodes = request.config->topology.nodes();
    request.pattern =
        placed(request.pattern,
               read_embedding_file(*request.embedding_path, nodes, nodes, "pattern node"),
               request.config->topology);
  }
  const bool sweep = vm.count("rates") > 0;
  if (sweep && vm.count("rate")) {
    throw InputError({"--rates"}, "either --rate or --rates, not both");
  }
  if (sweep) {
    const std::string text = vm["rates"].as<std::string>();
    std::vector<std::string> items;
    std::size_t start = 0;
    while (true) {
      const std::size_t comma = text.find(',', start);
      const std::string item =
          text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      // The item in its list: '' alone would not say that '0.1,' ends in a comma.
      const std::string found = "'" + item + "' in '" + text + "'";
      double rate = 0;
      try {
        rate = parse_rate("--rates", item);
      } catch (const InputError&) {
        throw InputError({"--rates"}, kRate, found);
      }
      // A rate twice would run its point twice, as a sweep's value twice would.
      const auto same = std::find(request.rates.begin(), request.rates.end(), rate);
      if (same != request.rates.end()) {
        const std::string& earlier = items[static_cast<std::size_t>(same - request.rates.begin())];
        throw InputError({"--rates"}, "each rate once",
                         earlier == item ? "'" + item + "' twice in '" + text + "'"
                                         : found + ", the same rate as '" + earlier + "'");
      }
      request.rates.push_back(rate);
      items.push_back(item);
      if (comma == std::string::npos) {
        break;
      }
      start = comma + 1;
    }
  } else if (vm.count("rate")) {
    const std::string text = vm["rate"].as<std::string>();
    if (text.find(',') != std::string::npos) {
      // A list where one rate goes: the user meant the sweep, which has an option of its own.
      throw InputError({"--rate"}, "one rate (several, a latency-throughput table: --rates R1,R2)",
                       "'" + text + "'");
    }
    request.rates = {parse_rate("--rate", text)};
  } else {
    request.rates = {TrafficParameters::kDefaultRate};
  }
  if (vm.count("flits")) {
    request.flits = static_cast<std::uint32_t>(
        parse_count("--flits", vm["flits"].as<std::string>(), 1, 1u << 16));
  }
  if (request.config->ni.packet_flits != 0 && request.flits > request.config->ni.packet_flits) {
    throw InputError({"--flits"},
                     "at most --packet-flits " + std::to_string(request.config->ni.packet_flits),
                     std::to_string(request.flits));
  }
  if (request.config->router.switching == Switching::StoreAndForward &&
      request.flits > request.config->router.buffer_flits) {
    throw InputError({"--buffers"},
                     "buffers that hold a whole packet of " + std::to_string(request.flits) +
                         " flits for store-and-forward",
                     std::to_string(request.config->router.buffer_flits));
  }
  if (vm.count("injection")) {
    const std::string i = vm["injection"].as<std::string>();
    if (i != "bernoulli" && i != "exponential") {
      throw InputError({"--injection"}, "bernoulli or exponential", "'" + i + "'");
    }
    request.exponential = i == "exponential";
  }
  if (vm.count("warmup")) {
    request.warmup = parse_count("--warmup", vm["warmup"].as<std::string>(), 0, 1'000'000'000);
  }
  if (vm.count("cycles")) {
    request.cycles = parse_count("--cycles", vm["cycles"].as<std::string>(), 1, 1'000'000'000);
  }
  if (vm.count("seed")) {
    request.seed = parse_count("--seed", vm["seed"].as<std::string>(), 0,
                               std::numeric_limits<std::uint64_t>::max());
  }
  request.trace_path = trace_path_from(vm);
  request.fst_path = fst_path_from(vm, request.config->impl);
  const std::vector<TrafficPoint> points = ctx.runner.run_traffic(request);
  bool mismatch = false;
  for (const TrafficPoint& p : points) {
    if (!p.cosim_mismatch.empty()) {
      ctx.err << ctx.prefix << "error: " << p.cosim_mismatch << '\n';
      mismatch = true;
    }
  }
  if (mismatch) {
    return kExitRunFailed;
  }
  if (vm.count("json")) {
    ctx.out << json_text(traffic_json(request, points, sweep), 2) << '\n';
  } else {
    print_traffic(request, points, ctx.out);
  }
  for (const TrafficPoint& p : points) {
    if (p.deadlocked || p.words_corrupted > 0) {
      return kExitRunFailed;
    }
  }
  return kExitOk;
}

}  // namespace orthosim::sw::cli
