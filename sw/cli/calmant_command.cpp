// `orthosim calmant`: CC-cube algorithms on one-port meshes ([CALMANT]). For a task <i,M>_c its
// maximum link load (routed, beside Theorems 1 and 3), lower bound, the steps of its schedule
// (sections 3.2 and 4.2, checked on the mesh's routes) and the schedule itself; with --sweep-q
// the pipelined CC-cube of every pipelining degree Q, predicted and emulated.
#include <algorithm>
#include <iomanip>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "sw/calmant/calmant.hpp"
#include "sw/cli/calmant_options.hpp"
#include "sw/cli/commands.hpp"
#include "sw/cli/options.hpp"
#include "sw/core/diagnostic.hpp"
#include "sw/core/json_text.hpp"
#include "sw/program/parser.hpp"
#include "sw/routed/routed_program.hpp"
#include "sw/schedule/schedule_check.hpp"
#include "sw/schedule/schedule_program.hpp"

namespace orthosim::sw::cli {

namespace {

/// "16x16" -> {16, 16}; each side a power of two >= 2, all equal.
std::vector<std::uint32_t> sides(const std::string& option, const std::string& text,
                                 std::size_t min_axes, std::size_t max_axes,
                                 const std::string& expected) {
  std::vector<std::uint32_t> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t x = text.find('x', start);
    const std::string item = text.substr(start, x == std::string::npos ? x : x - start);
    std::uint64_t k = 0;
    try {
      k = parse_count(option, item, 2, Topology::max_nodes);
    } catch (const InputError&) {
      throw InputError({option}, expected, "'" + text + "'");
    }
    out.push_back(static_cast<std::uint32_t>(k));
    if (x == std::string::npos) {
      break;
    }
    start = x + 1;
  }
  std::uint64_t nodes = 1;
  for (std::uint32_t k : out) {
    nodes *= k;
  }
  const bool fits =
      out.size() >= min_axes && out.size() <= max_axes &&
      std::all_of(out.begin(), out.end(),
                  [&](std::uint32_t k) { return k == out[0] && (k & (k - 1)) == 0; }) &&
      nodes <= Topology::max_nodes;
  if (!fits) {
    throw InputError({option}, expected, "'" + text + "'");
  }
  return out;
}

/// --task i,M: 1 <= M, i + M <= d.
calmant::Task task_option(const po::variables_map& vm, std::uint32_t d) {
  const std::string text = vm["task"].as<std::string>();
  const std::string expected = "i,M: the dimensions i .. i+M-1 of the " + std::to_string(d) +
                               "-cube the mesh holds (M >= 1, i + M <= " + std::to_string(d) + ")";
  const std::size_t comma = text.find(',');
  if (comma == std::string::npos) {
    throw InputError({"--task"}, expected, "'" + text + "'");
  }
  std::uint64_t i = 0;
  std::uint64_t m = 0;
  try {
    i = parse_count("--task", text.substr(0, comma), 0, d);
    m = parse_count("--task", text.substr(comma + 1), 1, d);
  } catch (const InputError&) {
    throw InputError({"--task"}, expected, "'" + text + "'");
  }
  if (i + m > d) {
    throw InputError({"--task"}, expected, "'" + text + "'");
  }
  return calmant::Task{static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(m)};
}

std::string mesh_text(const calmant::CubeOnMesh& cube) { return cube.mesh().to_string(); }

/// The emulated network of [CALMANT]'s algorithms: the cube's mesh, one-port nodes, wormhole
/// routers, with --startup (t_s, default 0) and --router-delay (default 1).
NetworkConfig one_port_mesh(const po::variables_map& vm, const calmant::CubeOnMesh& cube) {
  NetworkConfig config;
  config.topology = cube.mesh();
  config.ni.ports = NodePorts::One;
  config.ni.startup = vm.count("startup")
                          ? parse_count("--startup", vm["startup"].as<std::string>(), 0, kMaxCost)
                          : 0;
  config.router.delay = static_cast<std::uint32_t>(
      vm.count("router-delay")
          ? parse_count("--router-delay", vm["router-delay"].as<std::string>(), 1, 1000)
          : 1);
  return config;
}

int report_task(const po::variables_map& vm, Context& ctx, const calmant::CubeOnMesh& cube) {
  const calmant::Task task = task_option(vm, cube.d);
  const std::uint32_t c = cube.c;
  const calmant::TaskSchedule ts = calmant::task_schedule(cube, task);
  const ScheduleCheck check = check_schedule(cube.mesh(), ts.schedule);
  const std::uint64_t routed = calmant::lambda_max_routed(cube, task);
  if (vm.count("json")) {
    nlohmann::json subtasks = nlohmann::json::array();
    for (const calmant::SubtaskPlan& p : ts.subtasks) {
      subtasks.push_back({{"task", calmant::to_string(p.task, c)},
                          {"rule", to_string(p.rule)},
                          {"lower_bound", p.lower_bound},
                          {"printed_steps", p.printed_steps},
                          {"printed_conflict_free", p.printed_conflict_free},
                          {"repair", to_string(p.repair)},
                          {"steps", p.steps}});
    }
    nlohmann::json schedule = nlohmann::json::array();
    for (std::size_t k = 0; k < ts.schedule.steps.size(); ++k) {
      nlohmann::json messages = nlohmann::json::array();
      for (const ScheduledMessage& m : ts.schedule.steps[k].messages) {
        messages.push_back({m.source, m.destination});
      }
      schedule.push_back(
          {{"step", k + 1}, {"label", ts.schedule.steps[k].label}, {"messages", messages}});
    }
    const nlohmann::json j = {{"command", "calmant"},
                              {"network", mesh_text(cube)},
                              {"d", cube.d},
                              {"c", c},
                              {"task", {{"i", task.first}, {"M", task.count}}},
                              {"lambda_max", routed},
                              {"lambda_max_theorem", calmant::lambda_max(c, task)},
                              {"lower_bound", calmant::lower_bound(c, task)},
                              {"steps", ts.steps()},
                              {"steps_formula", calmant::steps_formula(c, task)},
                              {"conflict_free", check.ok()},
                              {"subtasks", subtasks},
                              {"schedule", schedule}};
    ctx.out << json_text(j, 2) << '\n';
    // A conflicting schedule is a failed check in JSON as in text (docs/cli.md: exit 1).
    return check.ok() ? kExitOk : kExitRunFailed;
  }
  ctx.out << "orthosim calmant: task " << calmant::to_string(task, c) << " of the " << cube.d
          << "-cube on the " << mesh_text(cube) << " (standard embedding)\n"
          << "  lambda_max " << routed << " routed, " << calmant::lambda_max(c, task)
          << " by Theorem " << (c == 1 ? 1 : 3) << "\n"
          << "  lower bound LB = max(lambda_max, M) = " << calmant::lower_bound(c, task) << "\n"
          << "  steps P = " << ts.steps() << " (section " << (c == 1 ? "3.3" : "4.3")
          << "'s formula: " << calmant::steps_formula(c, task) << "), "
          << (check.ok() ? "conflict-free" : "NOT conflict-free")
          << ": one message sent and received per node and step, no directed link shared\n\n"
          << "  subtask      rule   LB  printed steps  steps\n";
  for (const calmant::SubtaskPlan& p : ts.subtasks) {
    ctx.out << "  " << std::left << std::setw(11) << calmant::to_string(p.task, c) << std::right
            << std::setw(6) << to_string(p.rule) << std::setw(5) << p.lower_bound << std::setw(15)
            << p.printed_steps << std::setw(7) << p.steps
            << (p.printed_conflict_free ? ""
                : p.repair == calmant::Repair::Search
                    ? "  (the printed rule conflicts: rescheduled in LB steps by search)"
                    : "  (the printed rule conflicts: the search gave up, first fit)")
            << '\n';
  }
  ctx.out << '\n';
  for (std::size_t k = 0; k < ts.schedule.steps.size(); ++k) {
    ctx.out << "step " << k + 1 << " (" << ts.schedule.steps[k].label << "):";
    for (const ScheduledMessage& m : ts.schedule.steps[k].messages) {
      ctx.out << ' ' << m.source << "->" << m.destination;
    }
    ctx.out << '\n';
  }
  return check.ok() ? kExitOk : kExitRunFailed;
}

/// One pipelining degree of the sweep.
struct SweepRow {
  std::uint32_t q = 0;
  std::uint64_t steps = 0;
  double appendix_steps = 0;
  std::uint64_t predicted = 0;
  std::uint64_t emulated = 0;
  std::uint64_t max_step_contention = 0;
  bool delivered = false;
};

int sweep_q(const po::variables_map& vm, Context& ctx, const calmant::CubeOnMesh& cube) {
  if (!vm.count("len")) {
    throw InputError({"--len"}, "N, the words of each vector x_i (--sweep-q needs it)", "none");
  }
  const auto n = static_cast<std::uint32_t>(
      parse_count("--len", vm["len"].as<std::string>(), 1, kMaxMessageWords));
  const NetworkConfig config = one_port_mesh(vm, cube);
  calmant::PipelineProgram p;
  p.n_words = n;
  read_pipeline_costs(vm, p);
  const Validated<NetworkConfig> validated = config.validated();
  std::vector<SweepRow> rows;
  std::vector<NetworkRunRequest> requests;
  for (std::uint32_t q = 1; q <= n; ++q) {
    if (n % q != 0) {
      continue;
    }
    p.q = q;
    const calmant::PipelineSchedule ps = calmant::pipeline_schedule(cube, p);
    const ScheduleCosts costs{n / q, Cycle{0}};
    SweepRow row;
    row.q = q;
    for (std::uint32_t s : ps.iteration_steps) {
      row.steps += s;
    }
    row.appendix_steps =
        static_cast<double>(calmant::appendix_steps_times_18(cube.c, cube.d, q)) / 18.0;
    row.predicted =
        lockstep_cycles(cube.mesh(), ps.schedule, costs, {config.ni.startup, config.router.delay})
            .count();
    rows.push_back(row);
    NetworkRunRequest request;
    request.config = validated;
    request.program = route_program(to_program(ps.schedule, costs), cube.nodes(),
                                    identity_embedding(cube.nodes()));
    request.program.lockstep = true;
    requests.push_back(std::move(request));
  }
  // One elaboration: the networks run one after another.
  const MixedRunResult runs = ctx.runner.run_mixed({}, requests);
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const NetworkRunSummary& summary = runs.networks.at(k);
    rows[k].emulated = summary.cycles.count();
    rows[k].delivered = summary.payload_ok();
    for (std::uint64_t c : summary.step_max_channel_contention) {
      rows[k].max_step_contention = std::max(rows[k].max_step_contention, c);
    }
  }
  const auto best = [&rows](std::uint64_t SweepRow::*field) {
    return std::min_element(rows.begin(), rows.end(),
                            [field](const SweepRow& a, const SweepRow& b) {
                              return a.*field < b.*field;
                            })
        ->q;
  };
  const std::uint32_t best_predicted = best(&SweepRow::predicted);
  const std::uint32_t best_emulated = best(&SweepRow::emulated);
  const bool ok = std::all_of(rows.begin(), rows.end(), [](const SweepRow& r) {
    return r.delivered && r.predicted == r.emulated && r.max_step_contention <= 1;
  });
  if (vm.count("json")) {
    nlohmann::json list = nlohmann::json::array();
    for (const SweepRow& r : rows) {
      list.push_back({{"q", r.q},
                      {"steps", r.steps},
                      {"appendix_steps", r.appendix_steps},
                      {"predicted_cycles", r.predicted},
                      {"emulated_cycles", r.emulated},
                      {"max_step_contention", r.max_step_contention},
                      {"payload_ok", r.delivered}});
    }
    const nlohmann::json j = {{"command", "calmant"},
                              {"network", mesh_text(cube)},
                              {"d", cube.d},
                              {"c", cube.c},
                              {"len", n},
                              {"startup", config.ni.startup},
                              {"router_delay", config.router.delay},
                              {"compute", p.compute_cycles},
                              {"barrier", p.barrier_cycles},
                              {"sweep_q", list},
                              {"optimal_q_predicted", best_predicted},
                              {"optimal_q_emulated", best_emulated},
                              {"agree", static_cast<bool>(ok && best_predicted == best_emulated)}};
    ctx.out << json_text(j, 2) << '\n';
    return ok ? kExitOk : kExitRunFailed;
  }
  ctx.out << "orthosim calmant: the pipelined " << cube.d << "-cube on the " << mesh_text(cube)
          << ", N = " << n << " words, t_s " << config.ni.startup << ", router delay "
          << config.router.delay << ", compute " << p.compute_cycles << ", barrier "
          << p.barrier_cycles << " (one-port wormhole, lockstep steps)\n\n"
          << "     Q   steps P  A.3 steps  predicted   emulated  contention\n";
  for (const SweepRow& r : rows) {
    ctx.out << std::setw(6) << r.q << std::setw(10) << r.steps << std::setw(11) << std::fixed
            << std::setprecision(1) << r.appendix_steps << std::setw(11) << r.predicted
            << std::setw(11) << r.emulated << std::setw(12) << r.max_step_contention
            << (r.delivered ? "" : "  delivery FAILED") << '\n';
  }
  ctx.out << "\noptimal Q: " << best_predicted << " predicted, " << best_emulated << " emulated"
          << (ok && best_predicted == best_emulated ? " (they agree)" : " (they DISAGREE)") << '\n';
  return ok ? kExitOk : kExitRunFailed;
}

/// --block B[,B...]: each 1 .. the words a .mcp message holds over the largest message's blocks
/// (the CC-cube's 2^(d-1)), ascending, each once.
std::vector<std::uint32_t> block_sizes(const po::variables_map& vm, std::uint32_t largest_blocks) {
  const std::uint64_t most = kMaxMessageWords / largest_blocks;
  const std::string expected = "B[,B...]: words per block, ascending, each 1.." +
                               std::to_string(most) + " (a message of the CC-cube carries " +
                               std::to_string(largest_blocks) + " blocks)";
  if (!vm.count("block")) {
    throw InputError({"--block"}, expected + " (--complete-exchange needs it)", "none");
  }
  const std::string text = vm["block"].as<std::string>();
  std::vector<std::uint32_t> out;
  std::stringstream list(text);
  std::string item;
  while (std::getline(list, item, ',')) {
    std::uint64_t b = 0;
    try {
      b = parse_count("--block", item, 1, most);
    } catch (const InputError&) {
      throw InputError({"--block"}, expected, "'" + text + "'");
    }
    if (!out.empty() && b <= out.back()) {
      throw InputError({"--block"}, expected, "'" + text + "'");
    }
    out.push_back(static_cast<std::uint32_t>(b));
  }
  if (out.empty() || text.back() == ',') {
    throw InputError({"--block"}, expected, "'" + text + "'");
  }
  return out;
}

/// Which programs of the complete exchange run on the emulated mesh.
enum class Emulate : std::uint8_t { None, Direct, All };

/// One pipelining degree of the CALMANT complete exchange at one block size.
struct ExchangeRow {
  std::uint32_t q = 0;
  std::uint64_t steps = 0;
  std::uint64_t predicted = 0;
  std::optional<std::size_t> run;  ///< its index in the emulated runs
};

/// One block size: every Q, and the direct method.
struct ExchangePoint {
  std::uint32_t block = 0;
  std::vector<ExchangeRow> calmant;  ///< Q = 1 (the original CC-cube), 2, 4, ..., 2^(d-1)
  std::optional<std::size_t> direct_run;
};

/// The cycles of a row: emulated when it ran (equal to its prediction, else the run failed).
std::uint64_t row_cycles(const ExchangeRow& row, const MixedRunResult& runs) {
  return row.run ? runs.networks.at(*row.run).cycles.count() : row.predicted;
}

nlohmann::json optional_number(const std::optional<std::uint64_t>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

/// The step contention a run's steps reached at most.
std::uint64_t max_step_contention(const NetworkRunSummary& summary) {
  std::uint64_t most = 0;
  for (std::uint64_t c : summary.step_max_channel_contention) {
    most = std::max(most, c);
  }
  return most;
}

/// `calmant --complete-exchange`: [CALMANT] section 5 at each block size: the CC-cube complete
/// exchange pipelined by CALMANT with every Q (Q = 1 the original CC-cube), each schedule proved
/// conflict-free by the checker and timed by lockstep_cycles (the emulator's time of a
/// conflict-free lockstep program, tested equal to it), and the direct method, whose rounds
/// contend and are therefore emulated.
int complete_exchange(const po::variables_map& vm, Context& ctx, const calmant::CubeOnMesh& cube) {
  const std::uint32_t half = 1u << (cube.d - 1);
  const std::vector<std::uint32_t> blocks = block_sizes(vm, half);
  Emulate emulate = Emulate::Direct;
  if (vm.count("emulate")) {
    const std::string e = vm["emulate"].as<std::string>();
    if (e == "none" || e == "direct" || e == "all") {
      emulate = e == "none" ? Emulate::None : e == "direct" ? Emulate::Direct : Emulate::All;
    } else {
      throw InputError({"--emulate"}, "none, direct or all", "'" + e + "'");
    }
  }
  const Topology mesh = cube.mesh();
  const NetworkConfig config = one_port_mesh(vm, cube);
  const Validated<NetworkConfig> validated = config.validated();
  const LockstepNetwork network{config.ni.startup, config.router.delay};

  // The schedules do not depend on B: made and checked once.
  std::vector<std::pair<std::uint32_t, Schedule>> schedules;
  for (std::uint32_t q = 1; q <= half; q *= 2) {
    Schedule s = calmant::calmant_complete_exchange(cube, q);
    const ScheduleCheck check = check_schedule(mesh, s);
    if (!check.ok()) {
      throw std::logic_error("calmant --complete-exchange: Q = " + std::to_string(q) + ": " +
                             check.violations.front().what);
    }
    schedules.emplace_back(q, std::move(s));
  }
  const Schedule direct = calmant::direct_complete_exchange(cube);

  std::vector<ExchangePoint> points;
  std::vector<NetworkRunRequest> requests;
  const auto request = [&](const Schedule& s, std::uint32_t block) {
    NetworkRunRequest r;
    r.config = validated;
    r.program = route_program(to_program(s, {block, Cycle{0}}), cube.nodes(),
                              identity_embedding(cube.nodes()));
    r.program.lockstep = true;
    requests.push_back(std::move(r));
    return requests.size() - 1;
  };
  for (std::uint32_t block : blocks) {
    ExchangePoint point;
    point.block = block;
    for (const auto& [q, s] : schedules) {
      ExchangeRow row;
      row.q = q;
      row.steps = s.steps.size();
      row.predicted = lockstep_cycles(mesh, s, {block, Cycle{0}}, network).count();
      if (emulate == Emulate::All) {
        row.run = request(s, block);
      }
      point.calmant.push_back(row);
    }
    if (emulate != Emulate::None) {
      point.direct_run = request(direct, block);
    }
    points.push_back(std::move(point));
  }
  // One elaboration: the networks run one after another.
  const MixedRunResult runs =
      requests.empty() ? MixedRunResult{} : ctx.runner.run_mixed({}, requests);

  bool ok = true;
  nlohmann::json list = nlohmann::json::array();
  std::ostringstream table;
  for (const ExchangePoint& point : points) {
    const ExchangeRow* best = &point.calmant.front();
    nlohmann::json rows = nlohmann::json::array();
    for (const ExchangeRow& row : point.calmant) {
      std::optional<std::uint64_t> emulated;
      std::optional<std::uint64_t> contention;
      nlohmann::json payload_ok = nullptr;
      if (row.run) {
        const NetworkRunSummary& summary = runs.networks.at(*row.run);
        emulated = summary.cycles.count();
        contention = max_step_contention(summary);
        payload_ok = summary.payload_ok();
        ok = ok && summary.payload_ok() && *emulated == row.predicted && *contention <= 1;
      }
      if (row_cycles(row, runs) < row_cycles(*best, runs)) {
        best = &row;
      }
      rows.push_back({{"q", row.q},
                      {"steps", row.steps},
                      {"predicted_cycles", row.predicted},
                      {"emulated_cycles", optional_number(emulated)},
                      {"max_step_contention", optional_number(contention)},
                      {"payload_ok", payload_ok}});
    }
    const std::uint64_t cc_cube = row_cycles(point.calmant.front(), runs);
    const std::uint64_t calmant = row_cycles(*best, runs);
    const double over_cc_cube = static_cast<double>(cc_cube) / static_cast<double>(calmant);
    nlohmann::json direct_json = nullptr;
    std::optional<double> over_direct;
    std::string direct_text = "-";
    if (point.direct_run) {
      const NetworkRunSummary& summary = runs.networks.at(*point.direct_run);
      ok = ok && summary.payload_ok();
      direct_json = {{"steps", direct.steps.size()},
                     {"emulated_cycles", summary.cycles.count()},
                     {"max_step_contention", max_step_contention(summary)},
                     {"payload_ok", summary.payload_ok()}};
      over_direct = static_cast<double>(summary.cycles.count()) / static_cast<double>(calmant);
      direct_text = std::to_string(summary.cycles.count());
    }
    list.push_back({{"block_words", point.block},
                    {"calmant", rows},
                    {"cc_cube_cycles", cc_cube},
                    {"direct", direct_json},
                    {"best_q", best->q},
                    {"calmant_cycles", calmant},
                    {"speedup_over_cc_cube", over_cc_cube},
                    {"speedup_over_direct",
                     over_direct ? nlohmann::json(*over_direct) : nlohmann::json(nullptr)}});
    std::ostringstream best_text;
    best_text << calmant << " (" << best->q << ")";
    table << std::setw(7) << point.block << std::setw(12) << cc_cube << std::setw(12) << direct_text
          << std::setw(16) << best_text.str() << std::setw(14) << std::fixed << std::setprecision(2)
          << over_cc_cube << std::setw(13);
    if (over_direct) {
      table << *over_direct;
    } else {
      table << "-";
    }
    table << '\n';
  }
  const char* emulated_what = emulate == Emulate::All      ? "all"
                              : emulate == Emulate::Direct ? "direct"
                                                           : "none";
  if (vm.count("json")) {
    const nlohmann::json j = {{"command", "calmant"},
                              {"network", mesh_text(cube)},
                              {"d", cube.d},
                              {"c", cube.c},
                              {"startup", config.ni.startup},
                              {"router_delay", config.router.delay},
                              {"emulate", emulated_what},
                              {"complete_exchange", list},
                              {"agree", ok}};
    ctx.out << json_text(j, 2) << '\n';
    return ok ? kExitOk : kExitRunFailed;
  }
  ctx.out << "orthosim calmant: the complete exchange of the " << cube.d << "-cube on the "
          << mesh_text(cube) << " ([CALMANT] section 5), t_s " << config.ni.startup
          << ", router delay " << config.router.delay << ", one-port wormhole, lockstep steps\n"
          << "  CC-cube (Q = 1) and CALMANT (best Q): the lockstep time of their conflict-free "
             "schedules"
          << (emulate == Emulate::All ? ", emulated and equal" : "")
          << "; direct: " << (emulate == Emulate::None ? "not run" : "emulated") << "\n\n"
          << "      B     CC-cube      direct     CALMANT (Q)  over CC-cube  over direct\n"
          << table.str();
  if (!ok) {
    ctx.out << "\nan emulated run lost a word or differs from its lockstep time\n";
  }
  return ok ? kExitOk : kExitRunFailed;
}

}  // namespace

po::options_description calmant_mesh_options() {
  po::options_description o("The mesh");
  o.add_options()("mesh", po::value<std::string>(),
                  "KxK or KxKxK, K a power of two >= 2: a 2-D or 3-D mesh")(
      "line", po::value<std::string>(), "K, a power of two >= 2: a line of K nodes");
  return o;
}

void read_pipeline_costs(const po::variables_map& vm, calmant::PipelineProgram& p) {
  p.compute_cycles = vm.count("compute")
                         ? parse_count("--compute", vm["compute"].as<std::string>(), 0, kMaxCost)
                         : 0;
  p.barrier_cycles = vm.count("barrier")
                         ? parse_count("--barrier", vm["barrier"].as<std::string>(), 0, kMaxCost)
                         : 0;
}

calmant::CubeOnMesh calmant_cube(const po::variables_map& vm) {
  if (vm.count("mesh") && vm.count("line")) {
    throw InputError({"--line"}, "either --mesh or --line, not both");
  }
  std::vector<std::uint32_t> k;
  if (vm.count("mesh")) {
    k = sides("--mesh", vm["mesh"].as<std::string>(), 2, 3,
              "KxK or KxKxK with equal sides K, a power of two >= 2, at most 65536 nodes");
  } else if (vm.count("line")) {
    k = sides("--line", vm["line"].as<std::string>(), 1, 1, "K, a power of two in 2..65536");
  } else {
    throw InputError({"--mesh"}, "the mesh (--mesh KxK, --mesh KxKxK) or the line (--line K)",
                     "none");
  }
  return calmant::CubeOnMesh::of(Topology::mesh(k));
}

po::options_description calmant_options() {
  po::options_description o("orthosim calmant");
  o.add_options()("task", po::value<std::string>(),
                  "i,M: the task <i,M>_c, one message along each dimension i .. i+M-1")(
      "sweep-q", "the pipelined CC-cube for every pipelining degree Q dividing --len: predicted "
                 "and emulated time")("len", po::value<std::string>(),
                                      "--sweep-q: N, the words of each vector x_i")(
      "startup", po::value<std::string>(),
      "--sweep-q, --complete-exchange: t_s, start-up cycles (default 0)")(
      "router-delay", po::value<std::string>(),
      "--sweep-q, --complete-exchange: router delay cycles (default 1)")(
      "compute", po::value<std::string>(),
      "--sweep-q: cycles each node computes per iteration (default 0)")(
      "barrier", po::value<std::string>(),
      "--sweep-q: cycles of the barrier after each iteration (default 0: none)")(
      "complete-exchange",
      "[CALMANT] section 5: the complete exchange by CALMANT (every Q), the original CC-cube "
      "and the direct method, with their speed-ups")(
      "block", po::value<std::string>(), "--complete-exchange: B[,B...], words per block")(
      "emulate", po::value<std::string>(),
      "--complete-exchange: none, direct (default) or all: the programs run on the emulated mesh");
  o.add(calmant_mesh_options()).add(common_options());
  return o;
}

int run_calmant(const po::variables_map& vm, Context& ctx) {
  const calmant::CubeOnMesh cube = calmant_cube(vm);
  const std::size_t modes = vm.count("task") + vm.count("sweep-q") + vm.count("complete-exchange");
  if (modes != 1) {
    throw InputError({"--task"},
                     "one of --task i,M, --sweep-q (with --len N) and --complete-exchange (with "
                     "--block B)",
                     modes == 0 ? "none" : "several");
  }
  // Each mode's own options; another mode's are refused before anything runs.
  const auto refuse = [&vm](std::initializer_list<const char*> options, const char* owner,
                            const char* mode) {
    for (const char* option : options) {
      if (vm.count(option)) {
        throw InputError({std::string("--") + option}, std::string(owner) + ", the option's mode",
                         mode);
      }
    }
  };
  const char* sweep = "--sweep-q";
  const char* exchange = "--complete-exchange";
  if (vm.count("task")) {
    refuse({"len", "compute", "barrier"}, sweep, "--task");
    refuse({"startup", "router-delay"}, "--sweep-q or --complete-exchange", "--task");
    refuse({"block", "emulate"}, exchange, "--task");
    return report_task(vm, ctx, cube);
  }
  if (vm.count("sweep-q")) {
    refuse({"block", "emulate"}, exchange, sweep);
    return sweep_q(vm, ctx, cube);
  }
  refuse({"len", "compute", "barrier"}, sweep, exchange);
  return complete_exchange(vm, ctx, cube);
}

}  // namespace orthosim::sw::cli
