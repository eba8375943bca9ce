// `orthosim sweep`: a program or synthetic traffic over the cross product of variant files and
// parameter values (docs/sweeps.md). Each point is a child `orthosim run|traffic --json` (one
// SystemC elaboration per process, toolchain fact 2), up to --jobs at once; with --mpi the points are
// spread round-robin over the MPI ranks and rank 0 gathers the rows. Rows go to OUT.partial as
// points finish, and a restarted sweep skips the points found there.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>

#include "sw/cli/commands.hpp"
#include "sw/cli/options.hpp"
#include "sw/cli/output_options.hpp"
#include "sw/cli/variant_options.hpp"
#include "sw/core/diagnostic.hpp"
#include "sw/core/json_text.hpp"
#include "sw/program/parser.hpp"
#include "sw/sweep/child_process.hpp"
#include "sw/sweep/csv_journal.hpp"
#include "sw/sweep/sweep_plan.hpp"
#include "sw/sweep/transport.hpp"

namespace orthosim::sw::cli {

namespace {

using sweep::ChildPool;
using sweep::ChildResult;
using sweep::Journal;
using sweep::Point;
using sweep::SweepSpec;
using sweep::TargetKind;
using sweep::Transport;

/// Options of the child command that a sweep sets itself, or output files that every point
/// would write at once.
const std::set<std::string> kNotParams = {"variant", "json",  "help",    "vcd",    "trace",
                                          "fst",     "rates", "pattern", "program"};

SweepSpec spec_from(const po::variables_map& vm) {
  if (!vm.count("target")) {
    throw InputError({"PROGRAM|traffic:PATTERN"}, "a program file (.mcp) or traffic:PATTERN",
                     "none");
  }
  SweepSpec spec;
  spec.target = vm["target"].as<std::string>();
  spec.kind = sweep::target_kind(spec.target);
  if (spec.kind == TargetKind::Program) {
    if (spec.target == "-") {
      throw InputError({"PROGRAM"}, "a program file (every point's process reads it again)",
                       "'-' (standard input)");
    }
    // A bad program is reported once, here, not by every point.
    static_cast<void>(read_program_file(spec.target));
  } else if (sweep::traffic_pattern(spec.target).empty()) {
    throw InputError({"traffic:PATTERN"}, "a pattern after traffic:, e.g. traffic:uniform",
                     "'" + spec.target + "'");
  }
  if (!vm.count("variants")) {
    throw InputError({"--variants"}, "one or more variant files (the option is required)", "none");
  }
  spec.variant_paths = vm["variants"].as<std::vector<std::string>>();
  // A file given twice (or two paths to one file) would run every point of it twice.
  std::map<std::filesystem::path, std::string> variant_files;
  for (const std::string& path : spec.variant_paths) {
    const auto [first, added] = variant_files.emplace(resolved_path(path), path);
    if (!added) {
      const std::string& earlier = first->second;
      throw InputError({"--variants"}, "distinct variant files",
                       earlier == path ? "'" + path + "' twice"
                                       : "one file twice, as '" + earlier + "' and '" + path + "'");
    }
  }
  std::set<std::string> names;
  if (vm.count("param")) {
    const po::options_description child =
        spec.kind == TargetKind::Traffic ? traffic_options() : run_options();
    for (const std::string& text : vm["param"].as<std::vector<std::string>>()) {
      sweep::Param p = sweep::parse_param(text);
      const std::string of_child = "an option of orthosim " + sweep::child_command(spec.kind);
      const po::option_description* option = child.find_nothrow(p.name, false);
      if (option == nullptr) {
        throw InputError({"--param"}, of_child + " (see its --help)", "'" + p.name + "'");
      }
      if (kNotParams.count(p.name)) {
        throw InputError({"--param"}, of_child + " other than --" + p.name + " (see its --help)",
                         "'" + p.name + "'");
      }
      // A switch takes no value: `--lockstep 1` would reach the child as a second bare argument.
      if (option->semantic()->max_tokens() == 0) {
        throw InputError({"--param"},
                         of_child + " that takes a value (--" + p.name + " is a switch)",
                         "'" + p.name + "'");
      }
      if (!names.insert(p.name).second) {
        throw InputError({"--param"}, "each parameter once", "'" + p.name + "' again");
      }
      spec.params.push_back(std::move(p));
    }
  }
  for (const std::string& path : spec.variant_paths) {
    spec.variants.push_back(read_variant_file(path));
    const VariantValue& arch = spec.variants.back().arch();
    if (spec.kind == TargetKind::Traffic && !names.count("topology") &&
        (arch_bit(arch.text) & kNetworks) == 0) {
      throw InputError(arch.where, "a network (" + arch_names(kNetworks) + ") for traffic",
                       "'" + arch.text + "'");
    }
  }
  return spec;
}

std::string command_line(const std::vector<std::string>& args) {
  std::string line = "orthosim";
  for (const std::string& a : args) {
    line += " " + a;
  }
  return line;
}

/// The progress bar with the time left, redrawn in place on a terminal's standard error.
class Progress {
 public:
  Progress(std::ostream& err, bool on, std::size_t total)
      : err_(err), on_(on), total_(total), start_(std::chrono::steady_clock::now()) {}
  void advance() { ++done_; }
  void draw() {
    if (!on_) {
      return;
    }
    constexpr std::size_t kWidth = 30;
    const std::size_t filled = total_ == 0 ? kWidth : kWidth * done_ / total_;
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    err_ << "\r[" << std::string(filled, '#') << std::string(kWidth - filled, '.') << "] " << done_
         << "/" << total_ << " points, ";
    if (done_ == 0) {
      err_ << "estimating time left";
    } else {
      const auto left = static_cast<long long>(elapsed / static_cast<double>(done_) *
                                               static_cast<double>(total_ - done_));
      err_ << left / 60 << ":" << std::setw(2) << std::setfill('0') << left % 60
           << std::setfill(' ') << " left   ";
    }
    err_ << std::flush;
  }
  void finish() {
    if (on_) {
      draw();
      err_ << '\n';
    }
  }

 private:
  std::ostream& err_;
  bool on_;
  std::size_t total_;
  std::size_t done_ = 0;
  std::chrono::steady_clock::time_point start_;
};

/// The first line of a command's standard error: its one-line error when it rejected its input.
std::string first_line(const std::string& text) {
  const std::string line = text.substr(0, text.find('\n'));
  return line.empty() ? std::string("(no message)") : line;
}

/// A point whose command line was rejected (`message`, the command's error): the point with its
/// variant and parameter values, its command line and the message.
InputError rejected(const SweepSpec& spec, const Point& point, const std::vector<std::string>& args,
                    const std::string& message) {
  std::string which =
      "point " + std::to_string(point.index) + " (" + spec.variant_paths.at(point.variant);
  for (std::size_t k = 0; k < spec.params.size(); ++k) {
    which += ", " + spec.params[k].name + "=" + spec.params[k].values[point.values[k]];
  }
  return InputError({which + ")"}, command_line(args) + " rejected its input: " + message);
}

/// Checks every point's command line in this process, through the very parsing and validation
/// its child would run, so that a bad point stops the sweep before anything runs or is written.
void check_points(const SweepSpec& spec, const std::vector<Point>& points) {
  for (const Point& p : points) {
    const std::vector<std::string> args = sweep_child_args(spec, p);
    std::ostringstream err;
    if (check_cli(args, err) != kExitOk) {
      throw rejected(spec, p, args, first_line(err.str()));
    }
  }
}

/// The row of a finished child, or the error that stops the sweep.
std::string row_of(const SweepSpec& spec, const Point& point, const ChildResult& r,
                   const std::vector<std::string>& args) {
  if (r.exit_code == kExitBadInput) {
    throw rejected(spec, point, args, first_line(r.err));
  }
  if ((r.exit_code != kExitOk && r.exit_code != kExitRunFailed) || !nlohmann::json::accept(r.out)) {
    throw std::runtime_error("point " + std::to_string(point.index) + ": " + command_line(args) +
                             (r.exit_code < 0 ? " ended by signal " + std::to_string(-r.exit_code)
                                              : " exited with " + std::to_string(r.exit_code)) +
                             ": " + first_line(r.err));
  }
  return sweep::csv_line(sweep::row(spec, point, r.exit_code, r.out, r.seconds));
}

/// A CSV cell as the summary shows it: a fraction to 4 significant digits (the CSV keeps every
/// digit), anything else as it is.
std::string summary_cell(const std::string& cell) {
  if (cell.find_first_of(".eE") == std::string::npos) {
    return cell;
  }
  char* end = nullptr;
  const double value = std::strtod(cell.c_str(), &end);
  if (cell.empty() || end != cell.c_str() + cell.size()) {
    return cell;
  }
  std::ostringstream rounded;
  rounded << std::setprecision(4) << value;
  return rounded.str();
}

void print_summary(const SweepSpec& spec, const std::vector<std::string>& head,
                   const std::map<std::size_t, std::string>& rows, std::ostream& out) {
  std::vector<std::string> shown{"point", "variant"};
  for (const sweep::Param& p : spec.params) {
    shown.push_back(p.name == "topology" ? "arch" : p.name);
  }
  const std::vector<std::string> figures =
      spec.kind == TargetKind::Traffic
          ? std::vector<std::string>{"status",      "accepted",    "latency_avg",
                                     "latency_p99", "sustainable", "wall_s"}
          : std::vector<std::string>{"status",     "cycles",    "predicted_cycles",
                                     "payload_ok", "conflicts", "wall_s"};
  shown.insert(shown.end(), figures.begin(), figures.end());
  std::vector<std::size_t> at;
  for (const std::string& s : shown) {
    at.push_back(static_cast<std::size_t>(std::find(head.begin(), head.end(), s) - head.begin()));
  }
  std::vector<std::vector<std::string>> table{shown};
  for (const auto& [point, line] : rows) {
    const std::vector<std::string> fields = sweep::csv_fields(line);
    std::vector<std::string> cells;
    for (std::size_t c = 0; c < at.size(); ++c) {
      std::string cell = fields.at(at[c]);
      cells.push_back(c == 1 ? std::filesystem::path(cell).filename().string()
                             : summary_cell(cell));
    }
    table.push_back(cells);
  }
  std::vector<std::size_t> width(shown.size(), 0);
  for (const auto& r : table) {
    for (std::size_t c = 0; c < r.size(); ++c) {
      width[c] = std::max(width[c], r[c].size());
    }
  }
  for (const auto& r : table) {
    for (std::size_t c = 0; c < r.size(); ++c) {
      out << (c == 0 ? "" : "  ") << std::setw(static_cast<int>(width[c]))
          << (c == 1 ? std::left : std::right) << r[c];
    }
    out << std::right << '\n';
  }
}

int sweep_points(const po::variables_map& vm, Context& ctx, const SweepSpec& spec,
                 Transport* transport) {
  const std::string out = vm["out"].as<std::string>();
  const std::size_t jobs =
      vm.count("jobs") ? parse_count("--jobs", vm["jobs"].as<std::string>(), 1, 1024) : 1;
  const bool verbose = vm.count("verbose") > 0;
  const std::vector<Point> points = sweep::enumerate_points(spec);
  const std::vector<std::string> head = sweep::header(spec);
  const bool root = transport == nullptr || transport->rank() == 0;
  const int rank = transport == nullptr ? 0 : transport->rank();
  const int ranks = transport == nullptr ? 1 : transport->ranks();

  std::optional<Journal> journal;
  std::vector<std::uint64_t> finished;
  if (root) {
    check_points(spec, points);
    journal.emplace(out, sweep::signature(spec), head, points.size());
    for (const auto& entry : journal->rows()) {
      finished.push_back(entry.first);
    }
  }
  if (transport != nullptr) {
    finished = transport->share(finished);
  }
  std::vector<bool> done(points.size(), false);
  for (std::uint64_t p : finished) {
    done.at(p) = true;
  }
  std::vector<std::size_t> todo;
  for (const Point& p : points) {
    if (!done[p.index]) {
      todo.push_back(p.index);
    }
  }
  // Static round-robin over the points still to run.
  std::vector<std::size_t> mine;
  for (std::size_t k = static_cast<std::size_t>(rank); k < todo.size();
       k += static_cast<std::size_t>(ranks)) {
    mine.push_back(todo[k]);
  }

  Progress progress(ctx.err, root && ctx.progress_shown, todo.size());
  const auto record = [&](std::size_t point, const std::string& line) {
    if (root) {
      journal->append(point, line);
      progress.advance();
    } else {
      transport->send_row(point, line);
    }
  };
  const auto gather = [&](bool block) {
    while (const auto row = transport->receive_row(block)) {
      journal->append(row->first, row->second);
      progress.advance();
      if (block) {
        return;
      }
    }
  };
  ChildPool pool(jobs);
  std::map<std::size_t, std::vector<std::string>> args_of;
  std::size_t next = 0;
  progress.draw();
  while (next < mine.size() || !pool.idle()) {
    while (next < mine.size() && !pool.full()) {
      const Point& p = points[mine[next++]];
      args_of[p.index] = sweep_child_args(spec, p);
      if (verbose) {
        ctx.err << "orthosim sweep: point " << p.index << ": " << command_line(args_of[p.index])
                << (transport != nullptr ? " (rank " + std::to_string(rank) + ")" : "") << '\n';
      }
      pool.start(p.index, args_of[p.index]);
    }
    for (const ChildResult& r : pool.wait(100)) {
      try {
        record(r.tag, row_of(spec, points[r.tag], r, args_of[r.tag]));
      } catch (const InputError&) {
        // A refusal check_points could not foresee (the run's own checks: its memory footprint,
        // the verilated blocks' limits) is bad input all the same: nothing is left behind.
        if (journal) {
          journal->discard_if_empty();
        }
        throw;
      }
    }
    if (root && transport != nullptr) {
      gather(false);
    }
    progress.draw();
  }
  if (!root) {
    return kExitOk;
  }
  while (transport != nullptr && journal->rows().size() < points.size()) {
    gather(true);
    progress.draw();
  }
  progress.finish();
  const std::map<std::size_t, std::string> rows = journal->rows();
  journal->finish();
  if (vm.count("json")) {
    nlohmann::json j;
    j["command"] = "sweep";
    j["out"] = out;
    j["points"] = points.size();
    j["ran"] = todo.size();
    j["resumed"] = points.size() - todo.size();
    j["ranks"] = ranks;
    j["jobs"] = jobs;
    j["columns"] = head;
    nlohmann::json list = nlohmann::json::array();
    for (const auto& entry : rows) {
      list.push_back(sweep::csv_fields(entry.second));
    }
    j["rows"] = list;
    ctx.out << json_text(j, 2) << '\n';
  } else {
    print_summary(spec, head, rows, ctx.out);
    ctx.out << points.size() << " points: " << todo.size() << " run now"
            << (ranks > 1 ? " on " + std::to_string(ranks) + " ranks" : "");
    // A stream keeps no journal: no point came from one, and no OUT.partial was there.
    if (journal->keeps_journal()) {
      ctx.out << ", " << points.size() - todo.size() << " from " << journal->partial_path();
    }
    ctx.out << "; rows in " << out << '\n';
  }
  return kExitOk;
}

}  // namespace

std::vector<std::string> sweep_child_args(const SweepSpec& spec, const Point& point) {
  std::vector<std::string> args{sweep::child_command(spec.kind)};
  if (spec.kind == TargetKind::Program) {
    args.push_back(spec.target);
  } else {
    args.insert(args.end(), {"--pattern", sweep::traffic_pattern(spec.target)});
  }
  args.insert(args.end(), {"--variant", spec.variant_paths.at(point.variant)});
  for (std::size_t k = 0; k < spec.params.size(); ++k) {
    args.insert(args.end(), {"--" + spec.params[k].name, spec.params[k].values[point.values[k]]});
  }
  args.push_back("--json");
  return args;
}

po::options_description sweep_options() {
  po::options_description o("orthosim sweep");
  o.add_options()("variants", po::value<std::vector<std::string>>()->multitoken()->composing(),
                  "variant files (YAML, docs/variants.md), one point set each (required)")(
      "param", po::value<std::vector<std::string>>()->composing(),
      "NAME=V1,V2,...: an option of the child run or traffic and its values; several --param "
      "make a cross product, the last one varying fastest")(
      "out", po::value<std::string>(), "the CSV file (required); OUT.partial while it runs")(
      "jobs", po::value<std::string>(), "points run at once on this machine (default 1)")(
      "mpi", "spread the points over the MPI ranks (start with mpirun); rank 0 writes the CSV")(
      "verbose", "print each child's command line on standard error as it starts");
  o.add(common_options());
  return o;
}

int run_sweep(const po::variables_map& vm, Context& ctx) {
  const SweepSpec spec = spec_from(vm);
  if (!vm.count("out")) {
    throw InputError({"--out"}, "the CSV file to write (the option is required)", "none");
  }
  if (!vm.count("mpi")) {
    return sweep_points(vm, ctx, spec, nullptr);
  }
  const std::unique_ptr<Transport> transport = sweep::make_mpi_transport();
  // An error on one rank must stop the others, which may be waiting for its rows.
  try {
    return sweep_points(vm, ctx, spec, transport.get());
  } catch (const InputError& e) {
    ctx.err << "orthosim sweep: " << e.what() << std::endl;
    sweep::abort_ranks(kExitBadInput);
  } catch (const ParameterError& e) {
    ctx.err << "orthosim sweep: " << locate(e, {}).what() << std::endl;
    sweep::abort_ranks(kExitBadInput);
  } catch (const std::exception& e) {
    ctx.err << "orthosim sweep: error: " << e.what() << std::endl;
    sweep::abort_ranks(kExitRunFailed);
  }
}

}  // namespace orthosim::sw::cli
