// The subcommands of `orthosim`: each has an options description and a handler. cli.cpp
// dispatches; access_command.cpp and program_commands.cpp implement them.
#pragma once

#include <boost/program_options.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "sw/arch/system_config.hpp"
#include "sw/cli/cli.hpp"
#include "sw/run/runner.hpp"
#include "sw/sweep/sweep_plan.hpp"

namespace orthosim::sw::cli {

namespace po = boost::program_options;

/// What a handler works with: the emulator and the two output streams.
struct Context {
  Runner& runner;
  std::ostream& out;
  std::ostream& err;
  /// How the command's lines on `err` begin, "orthosim run: ", as its refusals do.
  std::string prefix;
  /// Whether progress is shown on `err`: a terminal, and no --quiet.
  bool progress_shown = false;
  /// Whether the command's table named the event trace in its own rows (access): otherwise
  /// cli.cpp ends the table with `event trace: FILE`.
  bool table_names_trace = false;
};

/// The form a command line takes where it decides which options apply: gen's kind of program,
/// trace's action, the family of run's --arch.
struct CommandForm {
  /// Matched against OptionScope::forms; empty when the command line names no valid form (its
  /// handler says what is wrong with it).
  std::string key;
  std::string shown;  ///< how an error names it: "gen C7", "trace stats", "run on the mesh"
};

/// Options that apply to some forms of a command only: its other forms refuse them (cli.cpp's
/// table of subcommands lists them).
struct OptionScope {
  std::vector<std::string> options;
  std::vector<std::string> forms;  ///< the CommandForm keys they apply to
  std::string belongs;             ///< where they belong, for the error
};

/// gen: `shift`, `exchange`, `random`, or `pattern` for C1..C12 and the Table 1 names.
CommandForm gen_form(const po::variables_map& vm);
/// run: `network` for --arch mesh|torus|hypercube, `multiprocessor` for omp|crossbar|bus.
CommandForm run_form(const po::variables_map& vm);
/// trace: its action, `export`, `stats`, `diff` or `plot`.
CommandForm trace_form(const po::variables_map& vm);

/// --help, --json and --quiet, shared by every command.
po::options_description common_options();
/// The system of --arch (default omp) and the system options, validated.
SystemConfig config_from(const po::variables_map& vm);

po::options_description access_options();
int run_access(const po::variables_map& vm, Context& ctx);

po::options_description map_options();
int run_map(const po::variables_map& vm, Context& ctx);

po::options_description run_options();
int run_run(const po::variables_map& vm, Context& ctx);

po::options_description gen_options();
int run_gen(const po::variables_map& vm, Context& ctx);

/// `run` on a mesh, torus or hypercube (`kind`): the program routed natively.
int run_network_program(const po::variables_map& vm, Context& ctx, const std::string& kind);

po::options_description traffic_options();
int run_traffic(const po::variables_map& vm, Context& ctx);

/// `lcc`: [LCC]'s processor reordering of linear-complement communications on a hypercube.
po::options_description lcc_options();
int run_lcc(const po::variables_map& vm, Context& ctx);

/// `embed`: hypercube embeddings onto lines, rings, meshes and tori ([XOR], [CALMANT] 2.3): the
/// metrics and node map of one, [XOR] Table I, the CC d-cube run under std, xor and byweight.
po::options_description embed_options();
int run_embed(const po::variables_map& vm, Context& ctx);
/// embed: `metrics` (one --scheme), `table1` or `compare`.
CommandForm embed_form(const po::variables_map& vm);
/// gen complete-exchange's options, and its program: [A2A]'s complete exchange on an N x N torus
/// (exchange_command.cpp).
po::options_description complete_exchange_gen_options();
McProgram complete_exchange_program(const po::variables_map& vm);

/// `exchange`: every complete-exchange algorithm run on the emulated torus side by side.
po::options_description exchange_options();
int run_exchange(const po::variables_map& vm, Context& ctx);
/// `calmant`: [CALMANT]'s tasks on meshes, their schedules, and the pipelined CC-cube's sweep
/// over Q (calmant_command.cpp).
po::options_description calmant_options();
int run_calmant(const po::variables_map& vm, Context& ctx);
/// `gen calmant`: the pipelined CC-cube as a program (calmant_gen.cpp).
po::options_description gen_calmant_options();
int run_gen_calmant(const po::variables_map& vm, Context& ctx);
/// `gen complete-exchange --onto mesh`: [CALMANT] section 5 on a mesh (complete_exchange_gen.cpp);
/// its options beside the torus form's.
po::options_description mesh_complete_exchange_gen_options();
McProgram mesh_complete_exchange_program(const po::variables_map& vm);
/// Prints `program` as .mcp text, or writes it to --out (an OutputFile).
int write_program(const po::variables_map& vm, Context& ctx, const McProgram& program);

po::options_description demo_options();
int run_demo(const po::variables_map& vm, Context& ctx);
/// The waveform demo writes for `arch` into its --out folder `out_dir` (DIR/omp.vcd, ...).
std::string demo_waveform(const std::string& out_dir, Arch arch);
/// The systems demo runs side by side, in its order.
inline constexpr Arch kDemoArchs[] = {Arch::Omp, Arch::Crossbar, Arch::Bus};

/// --trace FILE of the running commands, and the path it gives (docs/traces.md).
po::options_description trace_output_option();
std::optional<std::string> trace_path_from(const po::variables_map& vm);

/// `trace export|stats|diff|plot`: event traces and waveforms after the run.
po::options_description trace_options();
int run_trace(const po::variables_map& vm, Context& ctx);

/// `tables`: [PH91]'s Table 2 and its hypercube / torus tables, formula beside emulation.
po::options_description tables_options();
int run_tables(const po::variables_map& vm, Context& ctx);

/// `sweep`: a program or traffic over variant files x parameter values, one child run per point.
po::options_description sweep_options();
int run_sweep(const po::variables_map& vm, Context& ctx);
/// The command line of a sweep point's child after the executable's name: `run PROGRAM` or
/// `traffic --pattern PATTERN`, then --variant FILE, --NAME VALUE for each parameter, --json.
std::vector<std::string> sweep_child_args(const sweep::SweepSpec& spec, const sweep::Point& point);

}  // namespace orthosim::sw::cli
