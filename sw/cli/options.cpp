// Shared option groups and number parsing.
#include "sw/cli/options.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <limits>

#include "sw/core/diagnostic.hpp"
#include "sw/program/parser.hpp"
#include "sw/topology/topology.hpp"

namespace orthosim::sw::cli {

namespace {

bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

/// Whether `text` is digits with at most one point and at least one digit, then an optional
/// exponent e[+|-]digits: what parse_decimal reads.
bool is_decimal(const std::string& text) {
  std::size_t i = 0;
  std::size_t mantissa_digits = 0;
  while (i < text.size() && is_digit(text[i])) {
    ++i, ++mantissa_digits;
  }
  if (i < text.size() && text[i] == '.') {
    ++i;
    while (i < text.size() && is_digit(text[i])) {
      ++i, ++mantissa_digits;
    }
  }
  if (mantissa_digits == 0) {
    return false;
  }
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) {
      ++i;
    }
    const std::size_t exponent_start = i;
    while (i < text.size() && is_digit(text[i])) {
      ++i;
    }
    if (i == exponent_start) {
      return false;
    }
  }
  return i == text.size();
}

}  // namespace

std::uint64_t parse_count(const std::string& option, const std::string& text, std::uint64_t min,
                          std::uint64_t max) {
  const std::string expected =
      max == std::numeric_limits<std::uint64_t>::max()
          ? "an integer >= " + std::to_string(min)
          : "an integer in " + std::to_string(min) + ".." + std::to_string(max);
  const std::string found = "'" + text + "'";
  if (text.empty() || text.size() > 20) {
    throw InputError({option}, expected, found);
  }
  constexpr std::uint64_t kLargest = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t value = 0;
  for (char c : text) {
    if (!is_digit(c)) {
      throw InputError({option}, expected, found);
    }
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (value > (kLargest - digit) / 10) {  // the number does not fit 64 bits
      throw InputError({option}, expected,
                       found + ", more than the largest, " + std::to_string(kLargest));
    }
    value = value * 10 + digit;
  }
  if (value < min || value > max) {
    throw InputError({option}, expected, found);
  }
  return value;
}

double parse_decimal(const std::string& option, const std::string& text, double max,
                     const std::string& expected) {
  const auto refuse = [&] { return InputError({option}, expected, "'" + text + "'"); };
  if (!is_decimal(text)) {
    throw refuse();
  }
  // Too large a number reads as infinity, too small a one as 0 or a subnormal: both as they are.
  const double value = std::strtod(text.c_str(), nullptr);
  if (!(value <= max)) {
    throw refuse();
  }
  return value;
}

namespace {

std::uint64_t get(const po::variables_map& vm, const std::string& name, std::uint64_t min,
                  std::uint64_t max, std::uint64_t fallback) {
  if (!vm.count(name)) {
    return fallback;
  }
  return parse_count("--" + name, vm[name].as<std::string>(), min, max);
}

std::uint32_t get32(const po::variables_map& vm, const std::string& name, std::uint64_t min,
                    std::uint64_t max, std::uint32_t fallback) {
  return static_cast<std::uint32_t>(get(vm, name, min, max, fallback));
}
}  // namespace

po::options_description system_options(bool processors_from_program) {
  const SystemConfig d;
  po::options_description o("System");
  auto text = [](const std::string& help, std::uint64_t def) {
    return help + " (default " + std::to_string(def) + ")";
  };
  const std::string processors = processors_from_program
                                     ? "processors (default: one per node of the program; fewer "
                                       "cluster the nodes)"
                                     : text("processors", d.n);
  o.add_options()("n", po::value<std::string>(),
                  processors.c_str())("alpha", po::value<std::string>(),
                                      text("access start-up, cycles", d.timing.alpha).c_str())(
      "beta", po::value<std::string>(),
      text("address increment per vector, cycles", d.timing.beta).c_str())(
      "tau", po::value<std::string>(),
      text("cycles per word on the bus, >= 1", d.timing.tau).c_str())(
      "gamma", po::value<std::string>(), text("IWR bus switch, cycles", d.timing.gamma).c_str())(
      "clock-ns", po::value<std::string>(),
      text("clock period in ns, for times", d.clock_period_ns).c_str())(
      "sync-cycles", po::value<std::string>(),
      text("activate-sync on the interrupt bus, cycles", d.sync.activate).c_str())(
      "barrier-cycles", po::value<std::string>(),
      text("barrier release, cycles", d.sync.barrier).c_str())(
      "buffer-words", po::value<std::string>(),
      text("L, words per data buffer", d.buffer_words).c_str())(
      "module-words", po::value<std::string>(),
      text("words per memory module", d.module_words).c_str())(
      "local-words", po::value<std::string>(),
      text("words of local memory per processor", d.local_words).c_str());
  return o;
}

void apply_timing_options(const po::variables_map& vm, BusTiming& t) {
  t.alpha = get(vm, "alpha", 0, kMaxCost, t.alpha);
  t.beta = get(vm, "beta", 0, kMaxCost, t.beta);
  t.tau = get(vm, "tau", 1, kMaxCost, t.tau);
  t.gamma = get(vm, "gamma", 0, kMaxCost, t.gamma);
}

void apply_system_options(const po::variables_map& vm, SystemConfig& c) {
  c.n = get32(vm, "n", 1, kMaxProcessors, c.n);
  apply_timing_options(vm, c.timing);
  c.clock_period_ns = get32(vm, "clock-ns", 1, 1'000'000, c.clock_period_ns);
  c.sync.activate = get(vm, "sync-cycles", 0, kMaxCost, c.sync.activate);
  c.sync.barrier = get(vm, "barrier-cycles", 0, kMaxCost, c.sync.barrier);
  c.buffer_words = get32(vm, "buffer-words", 1, 1u << 20, c.buffer_words);
  c.module_words = get32(vm, "module-words", 1, 1u << 24, c.module_words);
  c.local_words = get32(vm, "local-words", 1, 1u << 26, c.local_words);
}

po::options_description network_options() {
  const sw::RouterParams r;
  const sw::NetworkConfig d;
  po::options_description o("Network");
  auto text = [](const std::string& help, std::uint64_t def) {
    return help + " (default " + std::to_string(def) + ")";
  };
  o.add_options()("dims", po::value<std::string>(),
                  "mesh or torus radices, e.g. 8x8, 4x4x4, 16 (a line or ring)")(
      "dim", po::value<std::string>(), "hypercube dimension d: 2^d nodes, d = 1..10")(
      "switching", po::value<std::string>(),
      "wormhole | saf (store-and-forward) (default wormhole)")(
      "ports", po::value<std::string>(),
      "one | all: messages a node injects and receives at once (default one)")(
      "startup", po::value<std::string>(),
      text("t_s: start-up cycles per message at the sender", 0).c_str())(
      "buffers", po::value<std::string>(),
      text("input buffer depth in flits per virtual channel", r.buffer_flits).c_str())(
      "vcs", po::value<std::string>(),
      "virtual channels per link (default 2 on a torus, 1 otherwise)")(
      "routing", po::value<std::string>(),
      "hypercube routing: ecube (deterministic) | pcube (partially adaptive, [LCC] section 6.1) "
      "(default ecube)")(
      "router-delay", po::value<std::string>(),
      text("cycles from a header's arrival at a router to its departure", r.delay).c_str())(
      "packet-flits", po::value<std::string>(),
      "largest packet in flits, header included (default: one packet per message)")(
      "watchdog", po::value<std::string>(),
      text("cycles without a flit moving that mean deadlock", d.watchdog_cycles).c_str());
  return o;
}

namespace {
/// The plug-in named by --routing: a routing of the topology, spelled as its name ("p-cube") or
/// without the hyphen ("pcube").
std::string routing_option(const Topology& topology, const std::string& text) {
  if (topology.kind() != TopologyKind::Hypercube) {
    throw InputError({"--routing"},
                     "no --routing on a " + to_string(topology.kind()) +
                         ": meshes and tori route dimension-order (ecube and pcube are the "
                         "hypercube's)",
                     "'" + text + "'");
  }
  for (const std::string& name : routing_names(topology)) {
    std::string unhyphenated = name;
    unhyphenated.erase(std::remove(unhyphenated.begin(), unhyphenated.end(), '-'),
                       unhyphenated.end());
    if (text == name || text == unhyphenated) {
      return name;
    }
  }
  throw InputError({"--routing"}, "ecube or pcube", "'" + text + "'");
}
}  // namespace

bool is_network_kind(const std::string& arch) {
  const std::vector<std::string> kinds = topology_kind_names();
  return std::find(kinds.begin(), kinds.end(), arch) != kinds.end();
}

Validated<NetworkConfig> network_config_from(const po::variables_map& vm, const std::string& kind,
                                             const std::string& kind_parameter) {
  const auto optional = [&vm](const char* name) -> std::optional<std::string> {
    return vm.count(name) ? std::optional<std::string>(vm[name].as<std::string>()) : std::nullopt;
  };
  NetworkConfig c;
  c.topology = Topology::parse(kind, optional("dims"), optional("dim"), kind_parameter);
  c.router.vcs = get32(vm, "vcs", 1, 16, default_vcs(c.topology));
  c.router.buffer_flits = get32(vm, "buffers", 1, 1024, c.router.buffer_flits);
  c.router.delay = get32(vm, "router-delay", 1, 1000, c.router.delay);
  c.ni.startup = get(vm, "startup", 0, kMaxCost, c.ni.startup);
  c.ni.packet_flits = get32(vm, "packet-flits", 0, 1u << 20, c.ni.packet_flits);
  c.watchdog_cycles = get(vm, "watchdog", 1, 1'000'000'000, c.watchdog_cycles);
  c.impl = network_impl(vm);
  c.clock_period_ns = get32(vm, "clock-ns", 1, 1'000'000, c.clock_period_ns);
  if (const auto s = optional("switching")) {
    if (*s == "wormhole") {
      c.router.switching = Switching::Wormhole;
    } else if (*s == "saf" || *s == "store-and-forward") {
      c.router.switching = Switching::StoreAndForward;
    } else {
      throw InputError({"--switching"}, "wormhole or saf", "'" + *s + "'");
    }
  }
  if (const auto routing = optional("routing")) {
    c.routing = routing_option(c.topology, *routing);
  }
  if (const auto p = optional("ports")) {
    if (*p == "one") {
      c.ni.ports = NodePorts::One;
    } else if (*p == "all") {
      c.ni.ports = NodePorts::All;
    } else {
      throw InputError({"--ports"}, "one or all", "'" + *p + "'");
    }
  }
  return c.validated();
}

po::options_description workload_options() {
  po::options_description o("Workload");
  o.add_options()("kind", po::value<std::string>(),
                  "scalar | interleaved | block | iwr (default iwr)")(
      "d", po::value<std::string>(),
      "modules per access, 1..n (default: 1 for scalar, n for interleaved and block, n-1 for "
      "iwr)")(
      "l", po::value<std::string>(),
      "vectors per access = words per message (default: 1 for scalar and interleaved, 4 for "
      "block and iwr)")("repeat", po::value<std::string>(),
                        "run the workload this many times back to back "
                        "(default 1)");
  return o;
}

AccessWorkload workload_from(const po::variables_map& vm, const SystemConfig& config) {
  AccessWorkload w;
  if (vm.count("kind")) {
    const std::string k = vm["kind"].as<std::string>();
    if (!parse_workload_kind(k, w.kind)) {
      throw InputError({"--kind"}, "one of scalar, interleaved, block, iwr", "'" + k + "'");
    }
  }
  std::uint32_t default_d = 1;
  std::uint32_t default_l = 1;
  switch (w.kind) {
    case WorkloadKind::Scalar:
      break;
    case WorkloadKind::Interleaved:
      default_d = config.n;
      break;
    case WorkloadKind::Block:
      default_d = config.n;
      default_l = 4;
      break;
    case WorkloadKind::Iwr:
      default_d = config.n > 1 ? config.n - 1 : 1;
      default_l = 4;
      break;
  }
  w.d = get32(vm, "d", 0, std::numeric_limits<std::uint32_t>::max(), default_d);
  w.l = get32(vm, "l", 0, std::numeric_limits<std::uint32_t>::max(), default_l);
  w.repetitions = get32(vm, "repeat", 1, 1'000'000, 1);
  validate_workload(config, w);
  return w;
}

po::options_description rtl_options(ImplBlocks blocks) {
  constexpr const char* kMultiprocessorBlocks =
      "im=...,bus=...,memory=...,processor=...,sync=...,interconnect=...";
  constexpr const char* kNetworkBlocks = "router=...,ni=...";
  const std::string per_type = blocks == ImplBlocks::Multiprocessor ? kMultiprocessorBlocks
                               : blocks == ImplBlocks::Network
                                   ? kNetworkBlocks
                                   : std::string(kMultiprocessorBlocks) + " (multiprocessors) or " +
                                         kNetworkBlocks + " (networks)";
  const std::string help =
      "block implementation: model, rtl or cosim for every block, or per block type " + per_type +
      " (default model)";
  po::options_description o("RTL (docs/rtl.md)");
  o.add_options()("impl", po::value<std::string>(), help.c_str())(
      "fst", po::value<std::string>(),
      "write the verilated blocks' signals to this FST file (needs rtl or cosim blocks)");
  return o;
}

Implementations multiprocessor_impl(const po::variables_map& vm, Arch arch) {
  if (!vm.count("impl")) {
    return {};
  }
  const std::string spec = vm["impl"].as<std::string>();
  Implementations impl = Implementations::parse(spec, {"--impl"});
  if (spec == to_string(Impl::Rtl) || spec == to_string(Impl::Cosim)) {
    // Every block of the system, verilated as one unit: the omp's memory side is its module
    // array, the crossbar's and the bus's their interconnect.
    if (arch == Arch::Omp) {
      impl.interconnect = Impl::Model;
    } else {
      impl.memory = Impl::Model;
    }
    impl.router = Impl::Model;
    impl.network_interface = Impl::Model;
  } else if (impl.router != Impl::Model || impl.network_interface != Impl::Model) {
    throw InputError({"--impl"},
                     "im=..., bus=..., memory=..., processor=..., sync=... or interconnect=... "
                     "(routers and interfaces belong to the mesh, torus and hypercube)",
                     "'" + spec + "'");
  }
  return impl;
}

Implementations network_impl(const po::variables_map& vm) {
  if (!vm.count("impl")) {
    return {};
  }
  const std::string spec = vm["impl"].as<std::string>();
  const Implementations parsed = Implementations::parse(spec, {"--impl"});
  const bool uniform = spec == to_string(Impl::Model) || spec == to_string(Impl::Rtl) ||
                       spec == to_string(Impl::Cosim);
  if (!uniform &&
      (parsed.index_manipulator != Impl::Model || parsed.bus_controller != Impl::Model ||
       parsed.memory != Impl::Model || parsed.processor != Impl::Model ||
       parsed.sync != Impl::Model || parsed.interconnect != Impl::Model)) {
    throw InputError({"--impl"},
                     "model, rtl, cosim or router=...,ni=... (a network's verilated blocks "
                     "are its routers and interfaces)",
                     "'" + spec + "'");
  }
  Implementations impl;
  impl.router = parsed.router;
  impl.network_interface = parsed.network_interface;
  return impl;
}

std::optional<std::string> fst_path_from(const po::variables_map& vm, const Implementations& impl) {
  if (!vm.count("fst")) {
    return std::nullopt;
  }
  if (impl.all_model()) {
    throw InputError(
        {"--fst"}, "needs --impl rtl or cosim for a verilated block (im, bus, memory, router, "
                   "ni, processor, sync or interconnect): FST holds the verilated blocks' signals "
                   "(the models' waveform is "
                   "--vcd)");
  }
  return vm["fst"].as<std::string>();
}

/// "x0,x3" or "0,3": the dimensions --collapse names.
void require_program_nodes(const std::string& option, const std::string& text,
                           std::uint64_t nodes) {
  if (nodes > kMaxProgramNodes) {
    throw InputError({option},
                     "a program of at most " + std::to_string(kMaxProgramNodes) +
                         " nodes (the most a .mcp program has)",
                     "'" + text + "', " + std::to_string(nodes) + " nodes");
  }
}

std::vector<std::uint32_t> collapsed_dimensions(const std::string& text) {
  std::vector<std::uint32_t> dims;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    std::string item =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (!item.empty() && (item[0] == 'x' || item[0] == 'X')) {
      item = item.substr(1);
    }
    try {
      dims.push_back(static_cast<std::uint32_t>(parse_count("--collapse", item, 0, 31)));
    } catch (const InputError&) {
      // The whole list quoted: '' alone would not say that 'x0,' ends in a comma.
      throw InputError({"--collapse"},
                       "hypercube dimensions separated by commas, e.g. x0,x3, each 0..31",
                       "'" + text + "'");
    }
    if (comma == std::string::npos) {
      break;
    }
    start = comma + 1;
  }
  return dims;
}

po::options_description memory_limit_option() {
  po::options_description o("Memory");
  o.add_options()("memory-limit", po::value<std::string>(),
                  "refuse a run whose estimated footprint exceeds this many bytes (suffix K, M or "
                  "G: 1024^1..3) (default: the available memory)");
  return o;
}

std::optional<std::uint64_t> memory_limit_from(const po::variables_map& vm) {
  if (vm.count("memory-limit")) {
    const std::string text = vm["memory-limit"].as<std::string>();
    const char unit = text.empty() ? '\0' : text.back();
    const std::string units = "KMG";
    const std::size_t power = units.find(unit);
    const std::string digits = power == std::string::npos ? text : text.substr(0, text.size() - 1);
    const std::uint64_t scale =
        power == std::string::npos ? 1 : std::uint64_t{1} << (10 * (power + 1));
    const char* expected = "a size in bytes, e.g. 2048, 512K, 800M or 4G";
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) {
      throw InputError({"--memory-limit"}, expected, "'" + text + "'");
    }
    try {
      return parse_count("--memory-limit", digits, 1,
                         std::numeric_limits<std::uint64_t>::max() / scale) *
             scale;
    } catch (const InputError&) {
      // Said in bytes with the size as given: the count alone ("found '99'" of "99G", a range in
      // gibibytes) reads as bytes.
      throw InputError({"--memory-limit"},
                       "a size from 1 byte to 2^64 - 1 bytes, e.g. 2048, 512K, 800M or 4G",
                       "'" + text + "'");
    }
  }
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  std::string unit;
  while (meminfo >> key >> kib >> unit) {
    if (key == "MemAvailable:") {
      return kib * 1024;
    }
  }
  return std::nullopt;
}

}  // namespace orthosim::sw::cli
