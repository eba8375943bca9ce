// `orthosim access`: one access protocol of [PH91] section 3.1 on one system.
#include "sw/cli/commands.hpp"
#include "sw/cli/options.hpp"
#include "sw/cli/report.hpp"
#include "sw/cli/variant_options.hpp"
#include "sw/core/diagnostic.hpp"
#include "sw/core/json_text.hpp"
#include "sw/cost/access_workload_cost.hpp"

namespace orthosim::sw::cli {

po::options_description common_options() {
  po::options_description o("General");
  o.add_options()("help,h", "show this help")("json", "print JSON instead of a table")(
      "quiet", "no progress line on standard error (docs/cli.md, Progress)");
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
  apply_system_options(vm, config);
  config.impl = multiprocessor_impl(vm, config.arch);
  return config;
}

po::options_description access_options() {
  po::options_description o("orthosim access");
  o.add_options()("arch", po::value<std::string>(),
                  "omp | crossbar | bus (default omp)")("vcd", po::value<std::string>(),
                                                        "write a VCD waveform to this file");
  o.add(rtl_options(ImplBlocks::Multiprocessor))
      .add(workload_options())
      .add(system_options())
      .add(trace_output_option())
      .add(variant_options())
      .add(common_options());
  return o;
}

int run_access(const po::variables_map& vm, Context& ctx) {
  AccessRequest request;
  request.config = config_from(vm).validated();
  request.workload = workload_from(vm, request.config);
  if (vm.count("vcd")) {
    request.vcd_path = vm["vcd"].as<std::string>();
  }
  request.trace_path = trace_path_from(vm);
  request.fst_path = fst_path_from(vm, request.config->impl);
  AccessRun run{request, access_workload_cycles(request.config, request.workload), {}};
  run.summary = ctx.runner.run_access(request);
  if (report_cosim_mismatch({run.summary}, ctx.prefix, ctx.err)) {
    return kExitRunFailed;
  }
  if (vm.count("json")) {
    ctx.out << json_text(access_json(run), 2) << '\n';
  } else {
    print_access(run, ctx.out);
    ctx.table_names_trace = true;
  }
  return run_ok(run.summary, run.formula_cycles) ? kExitOk : kExitRunFailed;
}

}  // namespace orthosim::sw::cli
