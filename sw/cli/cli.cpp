// The `orthosim` dispatcher: subcommands, help, error handling and exit codes.
#include "sw/cli/cli.hpp"

#include <boost/program_options.hpp>
#include <functional>

#include "sw/cli/options.hpp"
#include "sw/cli/report.hpp"
#include "sw/core/diagnostic.hpp"
#include "sw/cost/access_workload_cost.hpp"

namespace orthosim::sw {

namespace po = boost::program_options;

namespace {

struct Context {
  Runner& runner;
  std::ostream& out;
  std::ostream& err;
};

struct Subcommand {
  std::string name;
  std::string summary;
  std::function<po::options_description()> options;
  std::function<int(const po::variables_map&, Context&)> run;
};

po::options_description common_options() {
  po::options_description o("General");
  o.add_options()("help,h", "show this help")("json", "print JSON instead of a table");
  return o;
}

// ---- access -------------------------------------------------------------------------------

po::options_description access_options() {
  po::options_description o("orthosim access");
  o.add_options()
      ("arch", po::value<std::string>(), "omp | crossbar | bus (default omp)")
      ("impl", po::value<std::string>(), "block implementation: model (default model)")
      ("vcd", po::value<std::string>(), "write a VCD waveform to this file");
  o.add(cli::workload_options()).add(cli::system_options()).add(common_options());
  return o;
}

SystemConfig config_from(const po::variables_map& vm) {
  SystemConfig config;
  if (vm.count("arch")) {
    const std::string a = vm["arch"].as<std::string>();
    if (!parse_arch(a, config.arch)) {
      throw InputError({"--arch"}, "one of omp, crossbar, bus", "'" + a + "'");
    }
  }
  cli::apply_system_options(vm, config);
  try {
    config.validate();
  } catch (const ConfigError& e) {
    throw InputError({"orthosim"}, e.what());
  }
  return config;
}

int run_access(const po::variables_map& vm, Context& ctx) {
  cli::check_impl(vm);
  AccessRequest request;
  request.config = config_from(vm);
  request.workload = cli::workload_from(vm, request.config);
  if (vm.count("vcd")) {
    request.vcd_path = vm["vcd"].as<std::string>();
  }
  AccessRun run{request, access_workload_cycles(request.config, request.workload), {}};
  run.summary = ctx.runner.run_access(request);
  if (vm.count("json")) {
    ctx.out << cli::access_json(run).dump(2) << '\n';
  } else {
    cli::print_access(run, ctx.out);
  }
  return cli::run_ok(run.summary, run.formula_cycles) ? kExitOk : kExitRunFailed;
}

// ---- demo ---------------------------------------------------------------------------------

po::options_description demo_options() {
  po::options_description o("orthosim demo");
  o.add_options()
      ("out", po::value<std::string>()->default_value("orthosim-demo"),
       "folder for the waveform (created if missing)")
      ("l", po::value<std::string>(), "words per message (default 4)");
  o.add(cli::system_options()).add(common_options());
  return o;
}

int run_demo(const po::variables_map& vm, Context& ctx) {
  DemoRequest request;
  SystemConfig base = config_from(vm);
  request.workload.kind = WorkloadKind::Iwr;
  request.workload.d = base.n > 1 ? base.n - 1 : 1;
  request.workload.l =
      vm.count("l") ? static_cast<std::uint32_t>(
                          cli::parse_count("--l", vm["l"].as<std::string>(), 1, 1u << 20))
                    : 4;
  for (Arch arch : {Arch::Omp, Arch::Crossbar, Arch::Bus}) {
    SystemConfig c = base;
    c.arch = arch;
    validate_workload(c, request.workload);
    request.configs.push_back(c);
  }
  request.out_dir = vm["out"].as<std::string>();
  request.vcd_path = request.out_dir + "/demo.vcd";
  const std::vector<RunSummary> summaries = ctx.runner.run_side_by_side(request);
  std::vector<AccessRun> runs;
  bool ok = true;
  for (std::size_t i = 0; i < summaries.size(); ++i) {
    AccessRequest r{request.configs[i], request.workload, request.vcd_path};
    runs.push_back({r, access_workload_cycles(r.config, r.workload), summaries[i]});
    ok = ok && cli::run_ok(runs.back().summary, runs.back().formula_cycles);
  }
  if (vm.count("json")) {
    ctx.out << cli::demo_json(request, runs).dump(2) << '\n';
  } else {
    cli::print_demo(request, runs, ctx.out);
  }
  return ok ? kExitOk : kExitRunFailed;
}

// ---- dispatch -----------------------------------------------------------------------------

const std::vector<Subcommand>& subcommands() {
  static const std::vector<Subcommand> table = {
      {"demo",
       "C7 all-to-all exchange of 4 processors on the omp, crossbar and bus, side by side, "
       "with a waveform",
       demo_options, run_demo},
      {"access", "run one access protocol (scalar, interleaved, block, iwr) on a system",
       access_options, run_access},
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
  Context ctx{runner, out, err};
  try {
    const po::options_description options = command->options();
    po::variables_map vm;
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    po::store(po::command_line_parser(rest).options(options).positional({}).run(), vm);
    po::notify(vm);
    if (vm.count("help")) {
      out << "usage: orthosim " << command->name << " [options]\n" << command->summary << "\n\n"
          << options << '\n';
      return kExitOk;
    }
    return command->run(vm, ctx);
  } catch (const po::error& e) {
    err << prefix << e.what() << " (see orthosim " << command->name << " --help)\n";
    return kExitBadInput;
  } catch (const InputError& e) {
    err << prefix << e.what() << '\n';
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
