// Option parsing shared by the subcommands: numbers with range checks and clear errors, and the
// option groups that describe a system (configuration, sizes, costs) and an access workload.
#pragma once

#include <boost/program_options.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sw/arch/system_config.hpp"
#include "sw/routed/network_config.hpp"
#include "sw/workload/access_workload.hpp"

namespace orthosim::sw::cli {

namespace po = boost::program_options;

/// The largest cost in cycles an option takes (--alpha, --startup, ...).
inline constexpr std::uint64_t kMaxCost = 1'000'000;

/// Parses a decimal integer in [min, max]; throws InputError naming `option` otherwise. The text
/// is the digits and nothing else: no white space, sign or suffix (the rule of every numeric
/// option; parse_decimal adds a point and an exponent to it).
std::uint64_t parse_count(const std::string& option, const std::string& text, std::uint64_t min,
                          std::uint64_t max);

/// Parses a decimal fraction in [0, max]: digits with at most one point and at least one digit,
/// then an optional exponent e[+|-]digits ("0.1", ".5", "2", "1e-3"); nothing else, as
/// parse_count (no white space, sign, hexadecimal, "inf" or "nan"). Throws InputError naming
/// `option`, with `expected` as what was expected, otherwise.
double parse_decimal(const std::string& option, const std::string& text, double max,
                     const std::string& expected);

/// --n, --alpha, --beta, --tau, --gamma, --clock-ns, --sync-cycles, --barrier-cycles,
/// --buffer-words, --module-words, --local-words. (--arch is per command.) With
/// `processors_from_program` (map, run, demo) --n's help gives their default, a processor per
/// program node, rather than SystemConfig's.
po::options_description system_options(bool processors_from_program = false);
/// Applies the system options present in `vm` to `config`.
void apply_system_options(const po::variables_map& vm, SystemConfig& config);
/// Applies --alpha, --beta, --tau and --gamma present in `vm` to `timing`: the one parser of the
/// bus costs, with their one limit (`orthosim tables` reads them through it too).
void apply_timing_options(const po::variables_map& vm, BusTiming& timing);

/// --dims, --dim, --switching, --ports, --startup, --buffers, --vcs, --router-delay,
/// --packet-flits, --watchdog: a network (the kind option and --clock-ns are the caller's).
po::options_description network_options();
/// The network of `kind` ("mesh", "torus", "hypercube", the value of `kind_parameter`) with
/// the network options present in `vm`, validated: InputError names the option at fault,
/// ParameterError the parameter.
Validated<NetworkConfig> network_config_from(const po::variables_map& vm, const std::string& kind,
                                             const std::string& kind_parameter);
/// Whether `arch` names a network rather than a shared-memory multiprocessor.
bool is_network_kind(const std::string& arch);

/// --kind, --d, --l: the workload; d and l default by kind (see the help text).
po::options_description workload_options();
AccessWorkload workload_from(const po::variables_map& vm, const SystemConfig& config);

/// Refuses a program `gen` would write with more nodes than a .mcp program has
/// (kMaxProgramNodes): no command could read the file. `option`, given as `text`, sized it.
void require_program_nodes(const std::string& option, const std::string& text, std::uint64_t nodes);

/// "x0,x3" or "0,3": the hypercube dimensions --collapse names (InputError otherwise).
std::vector<std::uint32_t> collapsed_dimensions(const std::string& text);

/// --memory-limit SIZE: the most bytes a run's estimated footprint may take (docs/cli.md).
po::options_description memory_limit_option();
/// The limit --memory-limit gives (bytes, with an optional K, M or G suffix of 1024^1..3), else
/// the machine's available memory (MemAvailable of /proc/meminfo), else none.
std::optional<std::uint64_t> memory_limit_from(const po::variables_map& vm);

/// The blocks a command's --impl can name: a multiprocessor's (access, demo), a network's
/// (traffic) or both (run).
enum class ImplBlocks { Multiprocessor, Network, Both };

/// --impl and --fst of the commands that run systems (access, run, demo, traffic): docs/rtl.md.
/// The help of --impl lists the block types of `blocks` only.
po::options_description rtl_options(ImplBlocks blocks);
/// The blocks' implementations of `arch` from --impl (Implementations::parse). The uniform forms
/// `rtl` and `cosim` select the verilated twin of every block the architecture has one of: im
/// and bus, and on the omp its module array (memory; the crossbar's and the bus's memories have
/// none). A per-block `router=` or `ni=` is an error: routers and interfaces belong to the
/// networks.
Implementations multiprocessor_impl(const po::variables_map& vm, Arch arch);
/// --impl of a network (run --arch mesh|torus|hypercube, traffic): its verilated block types are
/// the router and the network interface, so `rtl` and `cosim` choose both and `router=...`,
/// `ni=...` each; another block type is an error. Which pairs run is NetworkConfig::validated's.
Implementations network_impl(const po::variables_map& vm);
/// --fst FILE, checked against the implementations: only verilated blocks are traced to FST.
std::optional<std::string> fst_path_from(const po::variables_map& vm, const Implementations& impl);

}  // namespace orthosim::sw::cli
