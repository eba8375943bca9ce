// The `orthosim` dispatcher: subcommands, help, error handling and exit codes.
#include "sw/cli/cli.hpp"

#include <algorithm>
#include <boost/program_options.hpp>
#include <functional>
#include <optional>
#include <sstream>

#include "sw/cli/commands.hpp"
#include "sw/cli/completion.hpp"
#include "sw/cli/json_output.hpp"
#include "sw/cli/output_options.hpp"
#include "sw/cli/variant_options.hpp"
#include "sw/cli/version.hpp"
#include "sw/core/diagnostic.hpp"
#include "sw/core/progress.hpp"

namespace orthosim::sw {

namespace po = boost::program_options;

namespace {

struct Subcommand {
  std::string name;
  std::string usage;  ///< after "orthosim NAME"
  std::string summary;
  std::string positional;  ///< the option a bare argument fills, or empty
  std::function<po::options_description()> options;
  std::function<int(const po::variables_map&, cli::Context&)> run;
  bool many = false;  ///< the positional option takes every bare argument (a list)
  /// The form of a command line whose options depend on it (see `scopes`), or none.
  std::function<cli::CommandForm(const po::variables_map&)> form = nullptr;
  /// The options that apply to some forms only; an option no scope lists applies to every form.
  std::vector<cli::OptionScope> scopes = {};
};

const char* const kSharedMemoryOnly =
    "an option of the omp, crossbar and bus; a network takes its size from --dims or --dim and "
    "its costs from the network options";

const std::vector<Subcommand>& subcommands() {
  static const std::vector<Subcommand> table = {
      {"demo", "[options]",
       "the Fig. 2 sample program of [PH91] mapped and run on the omp, crossbar and bus side "
       "by side, with listings, cycles and waveforms",
       "", cli::demo_options, cli::run_demo},
      {"map", "PROGRAM --arch omp|crossbar|bus [options]",
       "map a multicomputer program (.mcp) onto a multiprocessor and print its memory "
       "operations in the paper's notation",
       "program", cli::map_options, cli::run_map},
      {"run",
       "PROGRAM --arch omp|crossbar|bus|mesh|torus|hypercube [options]",
       "run a program on an emulated multiprocessor (mapped) or network (routed): cycles per "
       "step, every word checked",
       "program",
       cli::run_options,
       cli::run_run,
       false,
       cli::run_form,
       {{{"n", "alpha", "beta", "tau", "gamma", "sync-cycles", "barrier-cycles", "buffer-words",
          "module-words", "local-words", "collapse", "torus", "cluster", "sync"},
         {"multiprocessor"},
         kSharedMemoryOnly},
        {{"dims", "dim", "switching", "ports", "startup", "buffers", "vcs", "routing",
          "router-delay", "packet-flits", "watchdog", "embedding", "lockstep"},
         {"network"},
         "an option of the mesh, torus and hypercube networks"}}},
      {"traffic", "--topology mesh|torus|hypercube --dims KxK|--dim D [options]",
       "synthetic traffic on a network: offered and accepted throughput, latency, "
       "sustainability, rate sweeps",
       "", cli::traffic_options, cli::run_traffic},
      {"lcc",
       "--dim D --pattern transpose|bitrev|reverse-flip|lcc:A,b [--pattern ...]... [--out FILE]",
       "reorder a hypercube's address bits so that linear-complement communications contend "
       "least under e-cube routing ([LCC]): contention before and after, the node relabeling",
       "", cli::lcc_options, cli::run_lcc},
      {"calmant",
       "--mesh KxK[xK] | --line K (--task i,M | --len N --sweep-q [--startup S] | "
       "--complete-exchange --block B[,B...] [--startup S]) [--json]",
       "CC-cube algorithms on one-port meshes ([CALMANT]): a task's maximum link load, lower "
       "bound and conflict-free schedule; the pipelined CC-cube's time for every pipelining "
       "degree Q, predicted and emulated; the complete exchange's speed-ups over the CC-cube and "
       "the direct method",
       "", cli::calmant_options, cli::run_calmant},
      {"embed",
       "--cube D --onto line|ring|mesh|torus|hypercube [--dims KxK] --scheme S [--loads] [--out "
       "FILE] | --table1 | --compare --cube D --onto ... --dims ... [--len L --compute C "
       "--switching saf|wormhole]",
       "embed a hypercube onto a line, ring, mesh or torus ([XOR]): dilations, loads, the CC "
       "d-cube time, the node map for run --embedding; Table I; std, xor and byweight run side "
       "by side",
       "",
       cli::embed_options,
       cli::run_embed,
       false,
       cli::embed_form,
       {{{"scheme", "loads", "out"},
         {"metrics"},
         "an option of embed --scheme (one embedding's metrics and node map)"},
        {{"cube", "onto", "dims"}, {"metrics", "compare"}, "embed --table1 builds its own tori"},
        {{"len", "compute", "switching", "ports", "startup", "buffers", "vcs", "routing",
          "router-delay", "packet-flits", "watchdog"},
         {"compare"},
         "an option of embed --compare"},
        {{"dim"}, {}, "embed takes the hypercube's dimension from --cube"}}},
      {"gen",
       "PATTERN|random|exchange --nodes M | shift --torus CxR | cc-cube --dim D | "
       "fft --dim N --points M | complete-exchange --torus NxN --algorithm A --block B | "
       "complete-exchange --cube D --onto mesh --dims KxK --block B | calmant --mesh KxK|--line K "
       "--len N --pipeline Q [options]",
       "write a program of one Table 1 pattern (C1..C12), a hypercube exchange, a torus shift, a "
       "CC d-cube algorithm ([XOR]), [LCC]'s parallel FFT, a complete exchange on a torus "
       "([A2A]) or a mesh ([CALMANT]), [CALMANT]'s pipelined CC-cube or a random valid program",
       "pattern",
       cli::gen_options,
       cli::run_gen,
       false,
       cli::gen_form,
       {{{"torus"},
         {"shift", "complete-exchange"},
         "an option of gen shift and gen complete-exchange"},
        {{"direction", "distance"}, {"shift"}, "an option of gen shift"},
        {{"algorithm", "block", "rearrange-cycles"},
         {"complete-exchange"},
         "an option of gen complete-exchange"},
        {{"together"}, {"exchange"}, "an option of gen exchange"},
        {{"dims"},
         {"exchange", "cc-cube", "complete-exchange"},
         "an option of gen exchange, gen cc-cube and gen complete-exchange --onto mesh"},
        {{"dim"}, {"fft", "cc-cube"}, "an option of gen fft and gen cc-cube"},
        {{"compute"}, {"cc-cube", "calmant"}, "an option of gen cc-cube and gen calmant"},
        {{"cube", "onto"}, {"complete-exchange"}, "an option of gen complete-exchange"},
        {{"mesh", "line", "barrier", "schedule"}, {"calmant"}, "an option of gen calmant"},
        {{"pipeline"},
         {"calmant", "complete-exchange"},
         "an option of gen calmant and gen complete-exchange"},
        {{"nodes"},
         {"exchange", "random", "pattern"},
         "gen shift and gen complete-exchange take their nodes from --torus (or --cube), gen fft "
         "and gen cc-cube from --dim, gen calmant from --mesh or --line"},
        {{"points", "machine", "point-words", "butterfly-cycles", "half-butterfly-cycles"},
         {"fft"},
         "an option of gen fft"},
        {{"len"},
         {"shift", "exchange", "random", "pattern", "cc-cube", "calmant"},
         "gen fft sizes its messages from --points and --point-words, gen complete-exchange by "
         "--block"},
        {{"steps"}, {"random"}, "an option of gen random"},
        {{"sources", "dests"},
         {"pattern"},
         "an option of the Table 1 patterns C1..C12; random, exchange and shift choose their "
         "own"},
        {{"seed"},
         {"random", "pattern"},
         "the seed of gen random's and the Table 1 patterns' choices; exchange and shift choose "
         "nothing"}}},
      {"exchange",
       "--torus NxN --block B [--startup S] [--rearrange-cycles R] [--algorithms a1,an-1,...]",
       "complete exchange on an N x N wormhole torus ([A2A]'s A1 and A(n-1), [6], two-phase, "
       "direct) run side by side: steps, blocks, emulated cycles, Table 1's prediction",
       "", cli::exchange_options, cli::run_exchange},
      {"access", "[options]",
       "run one access protocol (scalar, interleaved, block, iwr) on a system", "",
       cli::access_options, cli::run_access},
      {"tables", "--topology hypercube|torus --m M --n N [--l L] [options]",
       "[PH91] Table 2 and its hypercube / torus tables: formula, emulated omp and native "
       "network cycles, measured and paper reduction",
       "", cli::tables_options, cli::run_tables},
      {"sweep",
       "PROGRAM|traffic:PATTERN --variants FILES... [--param NAME=V1,V2...] --out results.csv "
       "[--jobs J] [--mpi]",
       "run a program or synthetic traffic over variant files x parameter values, one CSV row "
       "per point; resumes an interrupted sweep, spreads over MPI ranks",
       "target", cli::sweep_options, cli::run_sweep},
      {"trace",
       "export|stats|diff|plot FILE... [options]",
       "event traces and waveforms after a run: Perfetto export, statistics, comparison of two "
       "runs, SVG timelines and plots",
       "args",
       cli::trace_options,
       cli::run_trace,
       true,
       cli::trace_form,
       {{{"perfetto"}, {"export"}, "an option of trace export"},
        {{"out", "labels", "title"}, {"plot"}, "an option of trace plot"},
        {{"json"}, {"stats", "diff"}, "an option of trace stats and trace diff"}}},
  };
  return table;
}

void print_usage(std::ostream& os) {
  os << "orthosim: cycle-level emulator of the orthogonal multiprocessor (OMP), crossbar and "
        "single-bus multiprocessors\n\n"
        "usage: orthosim <command> [options]     orthosim <command> --help     orthosim "
        "--version\n\n"
        "commands:\n";
  for (const Subcommand& s : subcommands()) {
    os << "  " << s.name << std::string(10 - s.name.size(), ' ') << s.summary << '\n';
  }
}

/// Thrown where a command checked by check_cli would start the emulator: it accepted every input.
struct InputsAccepted {};

/// check_cli's runner: asked to run anything, it stops the command instead.
class CheckingRunner final : public Runner {
 public:
  RunSummary run_access(const AccessRequest&) override { throw InputsAccepted{}; }
  std::vector<RunSummary> run_programs(std::vector<SystemRun>) override { throw InputsAccepted{}; }
  NetworkRunSummary run_network(const NetworkRunRequest&) override { throw InputsAccepted{}; }
  std::vector<TrafficPoint> run_traffic(const TrafficRequest&) override { throw InputsAccepted{}; }
  MixedRunResult run_mixed(const std::vector<SystemRun>&,
                           const std::vector<NetworkRunRequest>&) override {
    throw InputsAccepted{};
  }
};

/// Runs report to a progress line while this lives, and to nothing again after.
class ProgressAttachment {
 public:
  ProgressAttachment(Runner& runner, Progress& progress) : runner_(runner) {
    runner_.report_progress_to(progress);
  }
  ProgressAttachment(const ProgressAttachment&) = delete;
  ProgressAttachment& operator=(const ProgressAttachment&) = delete;
  ~ProgressAttachment() { runner_.report_progress_to(no_progress()); }

 private:
  Runner& runner_;
};

/// The name the usage gives the bare argument: "PROGRAM" of "PROGRAM --arch ...", "PATTERN" of
/// "PATTERN|random|...".
std::string bare_argument_name(const Subcommand& command) {
  const std::size_t end = command.usage.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ_");
  return command.usage.substr(0, end);
}

/// An option given more than once (Boost's multiple_occurrences: its own text names neither
/// the values nor what was expected), refused with the values it was given.
InputError repeated_option(const std::string& option, const po::parsed_options& parsed) {
  std::vector<std::string> values;
  for (const po::option& given : parsed.options) {
    if ("--" + given.string_key == option) {
      values.push_back(given.value.empty() ? std::string() : "'" + given.value.front() + "'");
    }
  }
  std::string found =
      values.size() == 2 ? "it twice" : "it " + std::to_string(values.size()) + " times";
  if (!values.front().empty()) {  // a switch (--json) has no value to show
    found += " (";
    for (std::size_t i = 0; i < values.size(); ++i) {
      found += (i == 0 ? "" : i + 1 == values.size() ? " and " : ", ") + values[i];
    }
    found += ")";
  }
  return InputError({option}, "the option once", found);
}

/// Boost's refusals of an option's form (a value missing at the end of the command line, a
/// value given to a switch, nothing after '='), said as every other refusal: the option, what
/// was expected, what was found. None for another form, which keeps Boost's text.
std::optional<InputError> malformed_option(const po::invalid_command_line_syntax& e,
                                           const std::vector<std::string>& args) {
  const std::string option = e.get_option_name();
  switch (e.kind()) {
    case po::invalid_syntax::missing_parameter:
      return InputError({option}, "a value after it", "the end of the command line");
    case po::invalid_syntax::empty_adjacent_parameter:
      return InputError({option}, "a value after '='", "nothing");
    case po::invalid_syntax::extra_parameter:
      for (const std::string& arg : args) {
        if (arg.rfind(option + "=", 0) == 0) {
          return InputError({option}, "no value (the option is a switch)",
                            "'" + arg.substr(option.size() + 1) + "'");
        }
      }
      return InputError({option}, "no value (the option is a switch)", "a value");
    default:
      return std::nullopt;
  }
}

/// Refuses an option the command line gave that does not apply to the form it takes.
void check_scopes(const Subcommand& command, const po::variables_map& vm) {
  if (!command.form) {
    return;
  }
  const cli::CommandForm form = command.form(vm);
  if (form.key.empty()) {
    return;
  }
  for (const cli::OptionScope& scope : command.scopes) {
    if (std::find(scope.forms.begin(), scope.forms.end(), form.key) != scope.forms.end()) {
      continue;
    }
    for (const std::string& option : scope.options) {
      if (vm.count(option) > 0 && !vm[option].defaulted()) {
        throw InputError({"--" + option},
                         "does not apply to " + form.shown + " (" + scope.belongs + ")");
      }
    }
  }
}

}  // namespace

ProgressSettings progress_settings(bool stderr_is_terminal, const char* after_ms) {
  ProgressSettings settings;
  settings.stderr_is_terminal = stderr_is_terminal;
  if (after_ms != nullptr) {
    const std::string text = after_ms;
    if (text.empty() || text.size() > 9 ||
        text.find_first_not_of("0123456789") != std::string::npos) {
      throw InputError({"ORTHOSIM_PROGRESS_AFTER_MS"}, "a number of milliseconds (0 to 999999999)",
                       "'" + text + "'");
    }
    settings.after = std::chrono::milliseconds(std::stoll(text));
  }
  return settings;
}

namespace {

int run_command(const std::vector<std::string>& args, Runner& runner, std::ostream& out,
                std::ostream& err, const ProgressSettings& progress) {
  if (args.empty()) {
    print_usage(err);
    return kExitBadInput;
  }
  const auto is_help = [](const std::string& word) {
    return word == "--help" || word == "-h" || word == "help";
  };
  if (is_help(args[0])) {
    if (args.size() > 1 && !is_help(args[1])) {
      // `orthosim help run` is `orthosim run --help`, as git and cargo read it.
      return run_command({args[1], "--help"}, runner, out, err, progress);
    }
    print_usage(out);
    return kExitOk;
  }
  if (args[0] == "--version" || args[0] == "version") {
    if (args.size() > 1) {  // not ignored: `version --json` would look answered in JSON
      err << "orthosim " << args[0] << ": "
          << InputError({"'" + args[1] + "'"}, "no argument (the version is printed as text)",
                        "an argument")
                 .what()
          << '\n';
      return kExitBadInput;
    }
    cli::print_version(out);
    return kExitOk;
  }
  if (args[0] == "completion") {
    // Not listed: the build writes the script and `cmake --install` installs it.
    if (args.size() != 2 || args[1] != "bash") {
      err << "orthosim completion: expected the shell, bash, found '"
          << (args.size() > 1 ? args[1] : std::string()) << "'\n";
      return kExitBadInput;
    }
    std::vector<cli::CompletedCommand> commands;
    for (const Subcommand& s : subcommands()) {
      commands.push_back({s.name, cli::usage_first_words(s.usage), s.options()});
    }
    cli::print_bash_completion(commands, out);
    return kExitOk;
  }
  const Subcommand* command = nullptr;
  for (const Subcommand& s : subcommands()) {
    if (s.name == args[0]) {
      command = &s;
    }
  }
  if (command == nullptr) {
    err << "orthosim: unknown command '" << args[0] << "' (see orthosim --help)\n";
    return kExitBadInput;
  }
  const std::string prefix = "orthosim " + command->name + ": ";
  cli::VariantOrigins from_variant;
  try {
    po::options_description options = command->options();
    po::positional_options_description positional;
    if (!command->positional.empty()) {
      if (command->many) {
        options.add_options()(command->positional.c_str(), po::value<std::vector<std::string>>(),
                              "(the bare arguments)");
      } else {
        options.add_options()(command->positional.c_str(), po::value<std::string>(),
                              "(the bare argument)");
      }
      positional.add(command->positional.c_str(), command->many ? -1 : 1);
    }
    // The bare arguments no positional option takes, refused below by name (Boost's own refusal
    // says "too many positional options" and names neither the argument nor what was expected).
    const char* const extra = "extra-arguments";
    if (!command->many) {
      options.add_options()(extra, po::value<std::vector<std::string>>(), "(extra arguments)");
      positional.add(extra, -1);
    }
    po::variables_map vm;
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    // Boost reads `--=X` as an option of no name with the value X and passes X on as a bare
    // argument (`run --=p.mcp` ran p.mcp): it is no option, as `-=X` is none.
    for (const std::string& arg : rest) {
      if (arg == "--") {
        break;
      }
      if (arg.rfind("--=", 0) == 0) {
        throw po::unknown_option(arg);
      }
    }
    po::parsed_options parsed(&options);
    try {
      // Without allow_guessing: Boost would take `--alp 20` for --alpha, so a typo could run with
      // a value for an option the user never named.
      parsed = po::command_line_parser(rest)
                   .options(options)
                   .positional(positional)
                   .style(po::command_line_style::default_style &
                          ~po::command_line_style::allow_guessing)
                   .run();
      po::store(parsed, vm);
    } catch (const po::multiple_occurrences& e) {
      throw repeated_option(e.get_option_name(), parsed);
    } catch (const po::invalid_command_line_syntax& e) {
      if (std::optional<InputError> refusal = malformed_option(e, rest)) {
        throw *refusal;
      }
      throw;
    }
    if (vm.count(extra)) {
      const std::string& first = vm[extra].as<std::vector<std::string>>().front();
      const std::string takes = command->positional.empty()
                                    ? "orthosim " + command->name + " takes no bare argument"
                                    : "orthosim " + command->name + " takes one bare argument, " +
                                          bare_argument_name(*command);
      throw InputError({"'" + first + "'"},
                       "an option (" + takes + "; see orthosim " + command->name + " --help)",
                       command->positional.empty() ? "a bare argument" : "a second bare argument");
    }
    po::notify(vm);
    if (vm.count("help")) {
      out << "usage: orthosim " << command->name << " " << command->usage << "\n"
          << command->summary << "\n\n"
          << command->options() << '\n';
      return kExitOk;
    }
    from_variant = cli::apply_variant(options, vm, command->name);
    check_scopes(*command, vm);
    cli::check_output_options(command->name, vm);
    // Every JSON output carries the build's version, whichever command prints it.
    cli::JsonMemberInserter versioned(out, cli::version_member());
    std::ostream json_out(&versioned);
    cli::Context ctx{runner, vm.count("json") ? json_out : out, err, prefix};
    ctx.progress_shown = progress.stderr_is_terminal && vm.count("quiet") == 0;
    // Erased and detached from the runner before any error below is printed.
    ProgressLine line(err, ctx.progress_shown, progress.after);
    const ProgressAttachment attached(runner, line);
    const int code = command->run(vm, ctx);
    // The runner writes the event trace, the reports do not: the table names it here, as the
    // reports name their waveforms, so that a run that wrote one says where (access's table names
    // it in a row of its own, aligned with its waveform's).
    if (code == kExitOk && vm.count("json") == 0 && !ctx.table_names_trace) {
      if (const std::optional<std::string> trace = cli::trace_path_from(vm)) {
        out << "event trace: " << *trace << '\n';
      }
    }
    return code;
  } catch (const po::unknown_option& e) {
    err << prefix << "unknown option " << e.get_option_name() << " (see orthosim " << command->name
        << " --help)\n";
    return kExitBadInput;
  } catch (const po::error& e) {
    err << prefix << e.what() << " (see orthosim " << command->name << " --help)\n";
    return kExitBadInput;
  } catch (const InputError& e) {
    err << prefix << cli::relocate(e, from_variant).what() << '\n';
    return kExitBadInput;
  } catch (const ParameterError& e) {
    err << prefix << cli::locate(e, from_variant).what() << '\n';
    return kExitBadInput;
  } catch (const ConfigError& e) {
    err << prefix << e.what() << '\n';
    return kExitBadInput;
  } catch (const std::exception& e) {
    err << prefix << "error: " << e.what() << '\n';
    return kExitRunFailed;
  }
}

}  // namespace

int run_cli(const std::vector<std::string>& args, Runner& runner, std::ostream& out,
            std::ostream& err, const ProgressSettings& progress) {
  const int code = run_command(args, runner, out, err, progress);
  // A table or JSON cut short (a full disk, a closed pipe) must not look like a success.
  out.flush();
  if (!out) {
    // Named as the command's other lines are ("orthosim access: "), plain "orthosim: " for
    // --help and --version.
    std::string who = "orthosim";
    for (const Subcommand& s : subcommands()) {
      if (!args.empty() && s.name == args[0]) {
        who += " " + s.name;
      }
    }
    err << who << ": error: the output could not be written in full (standard output)\n";
    return code == kExitOk ? kExitRunFailed : code;
  }
  return code;
}

int check_cli(const std::vector<std::string>& args, std::ostream& err) {
  CheckingRunner runner;
  std::ostringstream discarded;
  try {
    return run_cli(args, runner, discarded, err);
  } catch (const InputsAccepted&) {
    return kExitOk;
  }
}

}  // namespace orthosim::sw
