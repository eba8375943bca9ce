// The `orthosim` dispatcher: subcommands, help, error handling and exit codes.
#include "sw/cli/cli.hpp"

#include <boost/program_options.hpp>
#include <functional>

#include "sw/cli/commands.hpp"
#include "sw/cli/output_options.hpp"
#include "sw/cli/variant_options.hpp"
#include "sw/core/diagnostic.hpp"

namespace orthosim::sw {

namespace po = boost::program_options;

namespace {

struct Subcommand {
  std::string name;
  std::string usage;       ///< after "orthosim NAME"
  std::string summary;
  std::string positional;  ///< the option a bare argument fills, or empty
  std::function<po::options_description()> options;
  std::function<int(const po::variables_map&, cli::Context&)> run;
  bool many = false;  ///< the positional option takes every bare argument (a list)
};

const std::vector<Subcommand>& subcommands() {
  static const std::vector<Subcommand> table = {
      {"demo", "[options]",
       "the Fig. 2 sample program of seed 004 mapped and run on the omp, crossbar and bus side "
       "by side, with listings, cycles and waveforms",
       "", cli::demo_options, cli::run_demo},
      {"map", "PROGRAM --arch omp|crossbar|bus [options]",
       "map a multicomputer program (.mcp) onto a multiprocessor and print its memory "
       "operations in the paper's notation",
       "program", cli::map_options, cli::run_map},
      {"run", "PROGRAM --arch omp|crossbar|bus|mesh|torus|hypercube [options]",
       "run a program on an emulated multiprocessor (mapped) or network (routed): cycles per "
       "step, every word checked",
       "program", cli::run_options, cli::run_run},
      {"traffic", "--topology mesh|torus|hypercube --dims KxK|--dim D [options]",
       "synthetic traffic on a network: offered and accepted throughput, latency, "
       "sustainability, rate sweeps",
       "", cli::traffic_options, cli::run_traffic},
      {"gen", "PATTERN|random --nodes M [options]",
       "write a program of one Table 1 pattern (C1..C12) or a random valid program",
       "pattern", cli::gen_options, cli::run_gen},
      {"access", "[options]",
       "run one access protocol (scalar, interleaved, block, iwr) on a system", "",
       cli::access_options, cli::run_access},
      {"tables", "--topology hypercube|torus --m M --n N [--l L] [options]",
       "seed 004 Table 2 and its hypercube / torus tables: formula, emulated omp and native "
       "network cycles, measured and paper reduction",
       "", cli::tables_options, cli::run_tables},
      {"sweep",
       "PROGRAM|traffic:PATTERN --variants FILES... [--param NAME=V1,V2...] --out results.csv "
       "[--jobs J] [--mpi]",
       "run a program or synthetic traffic over variant files x parameter values, one CSV row "
       "per point; resumes an interrupted sweep, spreads over MPI ranks",
       "target", cli::sweep_options, cli::run_sweep},
      {"trace", "export|stats|diff|plot FILE... [options]",
       "event traces and waveforms after a run: Perfetto export, statistics, comparison of two "
       "runs, SVG timelines and plots",
       "args", cli::trace_options, cli::run_trace, true},
  };
  return table;
}

void print_usage(std::ostream& os) {
  os << "orthosim: cycle-level emulator of the orthogonal multiprocessor (OMP), crossbar and "
        "single-bus multiprocessors\n\n"
        "usage: orthosim <command> [options]     orthosim <command> --help\n\n"
        "commands:\n";
  for (const Subcommand& s : subcommands()) {
    os << "  " << s.name << std::string(10 - s.name.size(), ' ') << s.summary << '\n';
  }
}

}  // namespace

int run_cli(const std::vector<std::string>& args, Runner& runner, std::ostream& out,
            std::ostream& err) {
  if (args.empty()) {
    print_usage(err);
    return kExitBadInput;
  }
  if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    print_usage(out);
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
  cli::Context ctx{runner, out, err};
  cli::VariantOrigins from_variant;
  try {
    po::options_description options = command->options();
    po::positional_options_description positional;
    if (!command->positional.empty()) {
      if (command->many) {
        options.add_options()(command->positional.c_str(),
                              po::value<std::vector<std::string>>(), "(the bare arguments)");
      } else {
        options.add_options()(command->positional.c_str(), po::value<std::string>(),
                              "(the bare argument)");
      }
      positional.add(command->positional.c_str(), command->many ? -1 : 1);
    }
    po::variables_map vm;
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    po::store(po::command_line_parser(rest).options(options).positional(positional).run(), vm);
    po::notify(vm);
    if (vm.count("help")) {
      out << "usage: orthosim " << command->name << " " << command->usage << "\n"
          << command->summary << "\n\n"
          << command->options() << '\n';
      return kExitOk;
    }
    from_variant = cli::apply_variant(options, vm, command->name);
    cli::check_output_options(command->name, vm);
    return command->run(vm, ctx);
  } catch (const po::error& e) {
    err << prefix << e.what() << " (see orthosim " << command->name << " --help)\n";
    return kExitBadInput;
  } catch (const InputError& e) {
    err << prefix << cli::relocate(e, from_variant).what() << '\n';
    return kExitBadInput;
  } catch (const ConfigError& e) {
    err << prefix << e.what() << '\n';
    return kExitBadInput;
  } catch (const std::exception& e) {
    err << prefix << "error: " << e.what() << '\n';
    return kExitRunFailed;
  }
}

}  // namespace orthosim::sw
