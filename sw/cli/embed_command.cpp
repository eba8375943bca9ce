// `orthosim embed`: hypercube embeddings onto lines, rings, meshes, tori and hypercubes ([XOR]
// sections II.C, III and IV, [CALMANT] section 2.3): the metrics of one embedding and the node
// map that `run --embedding` reads, [XOR] Table I recomputed beside the printed values, and the CC
// d-cube program run under std, xor and byweight side by side (docs/embeddings.md).
#include <iomanip>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "sw/cli/commands.hpp"
#include "sw/cli/options.hpp"
#include "sw/cli/output_options.hpp"
#include "sw/cli/report.hpp"
#include "sw/core/diagnostic.hpp"
#include "sw/core/json_text.hpp"
#include "sw/embedding/embedding.hpp"
#include "sw/embedding/embedding_metrics.hpp"
#include "sw/pattern/topology_programs.hpp"
#include "sw/program/parser.hpp"
#include "sw/routed/routed_program.hpp"

namespace orthosim::sw::cli {

namespace {

std::optional<std::string> text_of(const po::variables_map& vm, const char* name) {
  return vm.count(name) ? std::optional<std::string>(vm[name].as<std::string>()) : std::nullopt;
}

/// The cube and the network of --cube, --onto and --dims.
struct Target {
  std::uint32_t cube = 0;
  std::string onto;  ///< as given: line, ring, mesh, torus or hypercube
  Topology network = Topology::hypercube(1);
};

Target target_from(const po::variables_map& vm) {
  Target t;
  if (!vm.count("cube")) {
    throw InputError({"--cube"}, "the hypercube's dimension d (the option is required)", "none");
  }
  t.cube = static_cast<std::uint32_t>(parse_count("--cube", vm["cube"].as<std::string>(), 1, 16));
  if (!vm.count("onto")) {
    throw InputError({"--onto"}, "line, ring, mesh, torus or hypercube (the option is required)",
                     "none");
  }
  t.onto = vm["onto"].as<std::string>();
  const std::optional<std::string> dims = text_of(vm, "dims");
  if (t.onto == "hypercube") {
    if (dims) {
      throw InputError({"--dims"}, "no --dims onto a hypercube: its size is 2^cube");
    }
    if (t.cube > Topology::max_hypercube_dim) {
      throw InputError({"--cube"},
                       "at most " + std::to_string(Topology::max_hypercube_dim) +
                           " onto a hypercube",
                       std::to_string(t.cube));
    }
    t.network = Topology::hypercube(t.cube);
    return t;
  }
  const bool one_axis = t.onto == "line" || t.onto == "ring";
  if (!one_axis && t.onto != "mesh" && t.onto != "torus") {
    throw InputError({"--onto"}, "line, ring, mesh, torus or hypercube", "'" + t.onto + "'");
  }
  if (!dims) {
    throw InputError({"--dims"}, "the network's radices, e.g. 16 or 8x8 (the option is required)",
                     "none");
  }
  if (one_axis && dims->find('x') != std::string::npos) {
    throw InputError({"--dims"}, "one radix for a " + t.onto, "'" + *dims + "'");
  }
  const bool wraps = t.onto == "ring" || t.onto == "torus";
  t.network = Topology::parse(wraps ? "torus" : "mesh", dims, std::nullopt, "onto");
  return t;
}

std::string dims_text(const Topology& t) {
  std::string out;
  for (std::uint32_t k : t.radices()) {
    out += (out.empty() ? "" : "x") + std::to_string(k);
  }
  return out;
}

std::string fixed(double value, int digits = 3) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(digits) << value;
  return s.str();
}

nlohmann::json metrics_json(const EmbeddingMetrics& m) {
  nlohmann::json spectrum = nlohmann::json::object();
  for (const auto& [dilation, links] : m.dilation_spectrum) {
    spectrum[std::to_string(dilation)] = links;
  }
  nlohmann::json distances = nlohmann::json::array();
  for (std::uint32_t i = 0; i < m.cube; ++i) {
    distances.push_back({{"dimension", i}, {"min", m.distance_min(i)}, {"max", m.distance_max(i)}});
  }
  return {{"dilation_spectrum", spectrum},
          {"longest_dilation", m.longest_dilation},
          {"total_dilation", m.total_dilation},
          {"average_dilation", m.average_dilation},
          {"distances", distances},
          {"constant_distances", m.constant_distances()},
          {"load_max", m.load_max},
          {"load_min", m.load_min},
          {"load_average", m.load_average},
          {"cc_cube_time_tc", m.cc_cube_time_tc}};
}

/// The --embedding node map: line n + 2 holds the network node of cube node n.
std::string node_map_text(const Target& t, EmbeddingScheme scheme,
                          const std::vector<std::uint32_t>& placement) {
  std::string out = "# orthosim embed: the " + std::to_string(t.cube) + "-cube onto the " +
                    t.network.to_string() + ", scheme " + to_string(scheme) +
                    "; cube node n runs on network node (line n + 2)\n";
  for (std::uint32_t node : placement) {
    out += std::to_string(node) + "\n";
  }
  return out;
}

int run_metrics(const po::variables_map& vm, Context& ctx) {
  const Target t = target_from(vm);
  if (!vm.count("scheme")) {
    throw InputError({"--scheme"},
                     "std, std-interleaved, xor, byweight or identity (the option is required)",
                     "none");
  }
  const EmbeddingScheme scheme = parse_embedding_scheme(vm["scheme"].as<std::string>());
  const std::vector<std::uint32_t> placement = embed_hypercube(t.cube, t.network, scheme);
  const EmbeddingMetrics m = embedding_metrics(t.network, placement);
  if (vm.count("out")) {
    write_output_text("--out", vm["out"].as<std::string>(), node_map_text(t, scheme, placement));
  }
  if (vm.count("json")) {
    nlohmann::json j = {{"command", "embed"},
                        {"cube", t.cube},
                        {"onto", t.onto},
                        {"dims", dims_text(t.network)},
                        {"scheme", to_string(scheme)}};
    j.update(metrics_json(m));
    if (vm.count("loads")) {
      j["loads"] = m.loads;
    }
    ctx.out << json_text(j, 2) << '\n';
    return kExitOk;
  }
  ctx.out << "orthosim embed: the " << t.cube << "-cube onto the " << t.network.to_string()
          << ", scheme " << to_string(scheme) << "\n"
          << "  distances D_i (dimension: min..max):";
  for (std::uint32_t i = 0; i < m.cube; ++i) {
    ctx.out << "  " << i << ": " << m.distance_min(i);
    if (m.distance_max(i) != m.distance_min(i)) {
      ctx.out << ".." << m.distance_max(i);
    }
  }
  ctx.out << (m.constant_distances() ? "  (constant distances)\n" : "  (not constant)\n")
          << "  dilation spectrum (dilation: links):";
  for (const auto& [dilation, links] : m.dilation_spectrum) {
    ctx.out << "  " << dilation << ": " << links;
  }
  ctx.out << "\n  longest dilation " << m.longest_dilation << ", total dilation "
          << m.total_dilation << ", average dilation " << fixed(m.average_dilation) << "\n"
          << "  node loads (links routed through a node): max " << m.load_max << ", min "
          << m.load_min << ", average " << fixed(m.load_average) << "\n"
          << "  CC " << t.cube << "-cube communication time ([XOR] IV.A): " << m.cc_cube_time_tc
          << " Tc\n";
  if (vm.count("loads")) {
    ctx.out << "  load of each network node:";
    for (std::uint64_t l : m.loads) {
      ctx.out << ' ' << l;
    }
    ctx.out << "\n";
  }
  if (vm.count("out")) {
    ctx.out << "node map written to " << vm["out"].as<std::string>()
            << " (the --embedding format of run)\n";
  }
  return kExitOk;
}

int run_table1(const po::variables_map& vm, Context& ctx) {
  nlohmann::json rows = nlohmann::json::array();
  bool all_match = true;
  std::ostringstream text;
  text << "orthosim embed --table1: [XOR] Table I, the maximum and minimum node load of the std "
          "and xor embeddings on tori, recomputed (ours) beside the printed values (paper)\n"
       << "  torus     std min  std max  xor min  xor max  |  paper: std min  std max  xor min  "
          "xor max  match\n";
  for (const XorTableRow& printed : xor_table1_printed()) {
    // A printed "1 x k" is a ring of k nodes.
    std::vector<std::uint32_t> radices;
    std::string name;
    for (std::uint32_t k : printed.torus) {
      name += (name.empty() ? "" : "x") + std::to_string(k);
      if (k > 1) {
        radices.push_back(k);
      }
    }
    const Topology torus = Topology::torus(radices);
    std::uint32_t cube = 0;
    while ((1U << cube) < torus.nodes()) {
      ++cube;
    }
    const EmbeddingMetrics s =
        embedding_metrics(torus, embed_hypercube(cube, torus, EmbeddingScheme::Std));
    const EmbeddingMetrics x =
        embedding_metrics(torus, embed_hypercube(cube, torus, EmbeddingScheme::Xor));
    const bool match = s.load_min == printed.std_min && s.load_max == printed.std_max &&
                       x.load_min == printed.xor_min && x.load_max == printed.xor_max;
    all_match = all_match && match;
    rows.push_back({{"torus", name},
                    {"std_max", s.load_max},
                    {"std_min", s.load_min},
                    {"xor_max", x.load_max},
                    {"xor_min", x.load_min},
                    {"paper_std_max", printed.std_max},
                    {"paper_std_min", printed.std_min},
                    {"paper_xor_max", printed.xor_max},
                    {"paper_xor_min", printed.xor_min},
                    {"match", match}});
    text << "  " << std::left << std::setw(8) << name << std::right << std::setw(9) << s.load_min
         << std::setw(9) << s.load_max << std::setw(9) << x.load_min << std::setw(9) << x.load_max
         << "  |" << std::setw(15) << printed.std_min << std::setw(9) << printed.std_max
         << std::setw(9) << printed.xor_min << std::setw(9) << printed.xor_max << "  "
         << (match ? "yes" : "NO") << "\n";
  }
  if (vm.count("json")) {
    ctx.out << json_text({{"command", "embed"},
                          {"table", "[XOR] Table I"},
                          {"rows", rows},
                          {"all_match", all_match}},
                         2)
            << '\n';
  } else {
    ctx.out << text.str()
            << (all_match ? "every row matches the paper\n" : "some rows differ from the paper\n");
  }
  return all_match ? kExitOk : kExitRunFailed;
}

/// One scheme's run in the comparison.
struct CompareRun {
  EmbeddingScheme scheme;
  EmbeddingMetrics metrics;
  std::optional<std::uint64_t> predicted;  ///< the recurrence with the network's lone-message cost
  NetworkRunSummary summary;
};

int run_compare(const po::variables_map& vm, Context& ctx) {
  const Target t = target_from(vm);
  if (t.network.kind() == TopologyKind::Hypercube) {
    throw InputError({"--onto"}, "a line, ring, mesh or torus to compare std, xor and byweight on",
                     "hypercube");
  }
  const auto words = static_cast<std::uint32_t>(
      vm.count("len") ? parse_count("--len", vm["len"].as<std::string>(), 1, kMaxMessageWords) : 1);
  const std::uint64_t compute =
      vm.count("compute") ? parse_count("--compute", vm["compute"].as<std::string>(), 0, 1'000'000)
                          : 0;
  NetworkConfig config =
      *network_config_from(vm, t.onto == "line" || t.onto == "mesh" ? "mesh" : "torus", "onto");
  config.topology = t.network;
  // Store-and-forward needs a buffer that holds the whole packet: by default the run gives it one.
  if (config.router.switching == Switching::StoreAndForward && !vm.count("buffers")) {
    config.router.buffer_flits =
        static_cast<std::uint32_t>(std::min<std::uint64_t>(config.message_flits(words), 1024));
  }
  const Validated<NetworkConfig> checked = config.validated();
  std::vector<std::uint32_t> stages(t.cube);
  for (std::uint32_t i = 0; i < t.cube; ++i) {
    stages[i] = i;
  }
  const McProgram program = cc_cube(t.cube, stages, words, Cycle{compute});
  // The three networks are built in one elaboration and run one after another (Runner::run_mixed,
  // as `tables` runs its networks), each counting its cycles from its own start.
  std::vector<CompareRun> runs;
  std::vector<NetworkRunRequest> requests;
  for (EmbeddingScheme scheme :
       {EmbeddingScheme::Std, EmbeddingScheme::Xor, EmbeddingScheme::Byweight}) {
    const std::vector<std::uint32_t> placement = embed_hypercube(t.cube, t.network, scheme);
    CompareRun run{scheme, embedding_metrics(t.network, placement), std::nullopt, {}};
    if (checked->lone_message_cycles(0, words)) {
      run.predicted = cc_cube_time(run.metrics.distance, stages, [&](std::uint32_t h) {
        return compute + *checked->lone_message_cycles(h, words);
      });
    }
    NetworkRunRequest request;
    request.config = checked;
    request.program = route_program(program, t.network.nodes(), placement);
    requests.push_back(std::move(request));
    runs.push_back(std::move(run));
  }
  const MixedRunResult results = ctx.runner.run_mixed({}, requests);
  for (std::size_t k = 0; k < runs.size(); ++k) {
    runs[k].summary = results.networks.at(k);
  }
  std::vector<RunSummary> summaries;
  bool ok = true;
  for (const CompareRun& run : runs) {
    summaries.push_back(run.summary);
    ok = ok && run.summary.payload_ok();
  }
  if (report_cosim_mismatch(summaries, ctx.prefix, ctx.err)) {
    return kExitRunFailed;
  }
  const auto communication = [&](const CompareRun& run) {
    return run.summary.cycles.count() - std::uint64_t{t.cube} * compute;
  };
  const double distance_ratio = runs[0].metrics.average_dilation / runs[1].metrics.average_dilation;
  const double time_ratio = communication(runs[1]) == 0
                                ? 0.0
                                : static_cast<double>(communication(runs[0])) /
                                      static_cast<double>(communication(runs[1]));
  const std::string switching = to_string(checked->router.switching);
  if (vm.count("json")) {
    nlohmann::json list = nlohmann::json::array();
    for (const CompareRun& run : runs) {
      nlohmann::json j = {{"scheme", to_string(run.scheme)}};
      j.update(metrics_json(run.metrics));
      j["predicted_cycles"] =
          run.predicted ? nlohmann::json(*run.predicted) : nlohmann::json(nullptr);
      j["cycles"] = run.summary.cycles.count();
      j["communication_cycles"] = communication(run);
      j["max_channel_contention"] = run.summary.max_channel_contention;
      j["delivered"] = run.summary.payload_ok();
      list.push_back(j);
    }
    ctx.out << json_text({{"command", "embed"},
                          {"compare", true},
                          {"cube", t.cube},
                          {"onto", t.onto},
                          {"dims", dims_text(t.network)},
                          {"switching", switching},
                          {"len", words},
                          {"compute", compute},
                          {"startup", checked->ni.startup},
                          {"runs", list},
                          {"std_xor_average_distance_ratio", distance_ratio},
                          {"std_xor_communication_ratio", time_ratio}},
                         2)
            << '\n';
    return ok ? kExitOk : kExitRunFailed;
  }
  ctx.out << "orthosim embed --compare: the CC " << t.cube << "-cube ([XOR] II.A) on the "
          << t.network.to_string() << ", " << switching << ", " << words
          << (words == 1 ? " word" : " words") << " per exchange, " << compute
          << " compute cycles per stage, start-up " << checked->ni.startup << "\n"
          << "  scheme     avg dist  longest  load max  T (Tc)  predicted  emulated  "
             "communication  delivered\n";
  for (const CompareRun& run : runs) {
    ctx.out << "  " << std::left << std::setw(9) << to_string(run.scheme) << std::right
            << std::setw(10) << fixed(run.metrics.average_dilation) << std::setw(9)
            << run.metrics.longest_dilation << std::setw(10) << run.metrics.load_max << std::setw(8)
            << run.metrics.cc_cube_time_tc << std::setw(11)
            << (run.predicted ? std::to_string(*run.predicted) : "-") << std::setw(10)
            << run.summary.cycles.count() << std::setw(15) << communication(run) << std::setw(11)
            << (run.summary.payload_ok() ? "yes" : "NO") << "\n";
  }
  ctx.out << "  std / xor: average distance " << fixed(distance_ratio)
          << ", emulated communication " << fixed(time_ratio) << "\n"
          << "  (predicted: [XOR] IV.A's recurrence with each stage costing the compute cycles "
             "and a lone message's cycles over its route, docs/networks.md)\n";
  return ok ? kExitOk : kExitRunFailed;
}

}  // namespace

po::options_description embed_options() {
  po::options_description o("orthosim embed");
  o.add_options()("cube", po::value<std::string>(), "d: the hypercube's dimension, 2^d nodes")(
      "onto", po::value<std::string>(), "line | ring | mesh | torus | hypercube")(
      "scheme", po::value<std::string>(), "std | std-interleaved | xor | byweight | identity")(
      "loads", "print the load of every network node (links routed through it)")(
      "out", po::value<std::string>(),
      "write the node map to this file, in the --embedding format of run")(
      "table1", "[XOR] Table I recomputed beside the printed values; exit 1 on a mismatch")(
      "compare", "run the CC d-cube program under std, xor and byweight side by side")(
      "len", po::value<std::string>(), "compare: words per exchange (default 1)")(
      "compute", po::value<std::string>(), "compare: computation cycles per stage (default 0)");
  o.add(network_options()).add(common_options());
  return o;
}

CommandForm embed_form(const po::variables_map& vm) {
  if (vm.count("table1") && vm.count("compare")) {
    return {};
  }
  if (vm.count("table1")) {
    return {"table1", "embed --table1"};
  }
  if (vm.count("compare")) {
    return {"compare", "embed --compare"};
  }
  return {"metrics", "embed --scheme"};
}

int run_embed(const po::variables_map& vm, Context& ctx) {
  if (vm.count("table1") && vm.count("compare")) {
    throw InputError({"--table1"}, "either --table1 or --compare, not both");
  }
  if (vm.count("table1")) {
    return run_table1(vm, ctx);
  }
  if (vm.count("compare")) {
    return run_compare(vm, ctx);
  }
  return run_metrics(vm, ctx);
}

}  // namespace orthosim::sw::cli
