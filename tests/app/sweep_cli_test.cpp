// End-to-end: `orthosim sweep` (docs/sweeps.md). Rows are checked against direct runs of the same
// points (a second way to the same figures); the CSV is equal, wall time aside, between --jobs 1,
// --jobs 2 and a 2-rank MPI run; a sweep killed part way resumes without rerunning the points
// its journal holds and ends with the CSV of an uninterrupted sweep.
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/cli_process.hpp"

extern char** environ;

namespace {

namespace fs = std::filesystem;

using orthosim::testing_support::Outcome;
using orthosim::testing_support::slurp;

const std::string kExamples = ORTHOSIM_EXAMPLES_DIR;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    lines.push_back(line);
  }
  return lines;
}

/// A CSV line without its last column (wall_s: the one column that differs between runs).
/// The sweeps here write no quoted field with a comma in the last column.
std::string without_wall_time(const std::string& line) { return line.substr(0, line.rfind(',')); }

std::vector<std::string> csv_without_wall_time(const fs::path& file) {
  std::vector<std::string> rows;
  for (const std::string& line : lines_of(slurp(file))) {
    rows.push_back(without_wall_time(line));
  }
  return rows;
}

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> fields(1);
  for (char c : line) {
    if (c == ',') {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

class Sweep : public orthosim::testing_support::CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    fs::copy_file(kExamples + "/fig2_sample.mcp", dir_ / "fig2.mcp");
    fs::copy_file(kExamples + "/variants/omp.yaml", dir_ / "omp.yaml");
    fs::copy_file(kExamples + "/variants/bus.yaml", dir_ / "bus.yaml");
    std::ofstream(dir_ / "t44.yaml") << "arch: torus\ndims: [4, 4]\nvcs: 2\nbuffers: 2\n";
  }

  /// Runs `mpirun -n 2 orthosim ARGS --mpi` in the test's folder, its output in LOG.out/.err;
  /// returns the exit code. CI runs as root, which Open MPI refuses without
  /// --allow-run-as-root; --oversubscribe runs 2 ranks whatever the free slots.
  int mpirun(const std::string& args, const std::string& log) const {
    const std::string launcher = ORTHOSIM_MPIEXEC;
    EXPECT_FALSE(launcher.empty()) << "CMake found no mpirun (openmpi-bin, install-deps.sh)";
    EXPECT_EQ(access(launcher.c_str(), X_OK), 0) << launcher << " is not executable";
    // Under the asan-ubsan preset, leak checking is off for the ranks: Open MPI's own
    // allocations outlive MPI_Finalize inside components it has unloaded by then, so no
    // suppression can name them. The children the ranks start share the setting; the --jobs
    // sweeps run the same children with leak checking on.
    const char* asan = std::getenv("ASAN_OPTIONS");
    const std::string asan_options =
        (asan != nullptr && *asan != '\0' ? std::string(asan) + ":" : "") + "detect_leaks=0";
    const std::string command = "cd '" + dir_.string() + "' && ASAN_OPTIONS='" + asan_options +
                                "' '" + launcher + "' --allow-run-as-root --oversubscribe -n 2 '" +
                                orthosim::testing_support::orthosim_under_test() + "' " + args +
                                " --mpi >" + log + ".out 2>" + log + ".err";
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

  /// Starts `orthosim ARGS` (words separated by spaces) in the test's folder without waiting for
  /// it; returns its pid, -1 if it could not be started.
  pid_t spawn(const std::string& args) const {
    std::vector<std::string> argv_text{"orthosim"};
    std::istringstream words(args);
    for (std::string w; words >> w;) {
      argv_text.push_back(w);
    }
    std::vector<char*> argv;
    for (std::string& a : argv_text) {
      argv.push_back(a.data());
    }
    argv.push_back(nullptr);
    const fs::path cwd = fs::current_path();
    fs::current_path(dir_);
    pid_t pid = -1;
    const std::string binary = orthosim::testing_support::orthosim_under_test();
    const int error = posix_spawn(&pid, binary.c_str(), nullptr, nullptr, argv.data(), environ);
    fs::current_path(cwd);
    return error == 0 ? pid : -1;
  }

  /// The column `name` of every data row of a CSV.
  static std::vector<std::string> column(const fs::path& csv, const std::string& name) {
    const std::vector<std::string> lines = lines_of(slurp(csv));
    const std::vector<std::string> head = split(lines.at(0));
    const auto at =
        static_cast<std::size_t>(std::find(head.begin(), head.end(), name) - head.begin());
    EXPECT_LT(at, head.size()) << name;
    std::vector<std::string> values;
    for (std::size_t i = 1; i < lines.size(); ++i) {
      values.push_back(split(lines[i]).at(at));
    }
    return values;
  }
};

const std::string kProgramSweep =
    "sweep fig2.mcp --variants omp.yaml bus.yaml --param alpha=8,16 --param gamma=0,4";

TEST_F(Sweep, RowsAreThePointsInOrderWithTheFiguresOfDirectRuns) {
  const Outcome o = run(kProgramSweep + " --out r.csv");
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_FALSE(fs::exists(dir_ / "r.csv.partial"));
  EXPECT_EQ(column(dir_ / "r.csv", "point"),
            (std::vector<std::string>{"0", "1", "2", "3", "4", "5", "6", "7"}));
  EXPECT_EQ(column(dir_ / "r.csv", "arch"),
            (std::vector<std::string>{"omp", "omp", "omp", "omp", "bus", "bus", "bus", "bus"}));
  EXPECT_EQ(column(dir_ / "r.csv", "alpha"),
            (std::vector<std::string>{"8", "8", "16", "16", "8", "8", "16", "16"}));
  EXPECT_EQ(column(dir_ / "r.csv", "gamma"),
            (std::vector<std::string>{"0", "4", "0", "4", "0", "4", "0", "4"}));
  // Fields the parameters leave alone come from the files.
  EXPECT_EQ(column(dir_ / "r.csv", "beta"), std::vector<std::string>(8, "2"));
  const std::vector<std::string> cycles = column(dir_ / "r.csv", "cycles");
  const std::vector<std::string> payload = column(dir_ / "r.csv", "payload_ok");
  const char* variants[] = {"omp.yaml", "bus.yaml"};
  for (std::size_t p = 0; p < 8; ++p) {
    SCOPED_TRACE(p);
    const Outcome direct =
        run(std::string("run fig2.mcp --variant ") + variants[p / 4] + " --alpha " +
            (p % 4 < 2 ? "8" : "16") + " --gamma " + (p % 2 == 0 ? "0" : "4") + " --json");
    ASSERT_EQ(direct.exit_code, 0) << direct.err;
    const nlohmann::json j = nlohmann::json::parse(direct.out);
    EXPECT_EQ(cycles[p], std::to_string(j["total_cycles"].get<std::uint64_t>()));
    EXPECT_EQ(payload[p], "true");
  }
  // The summary table on standard output has one line per point.
  EXPECT_NE(o.out.find("8 points: 8 run now"), std::string::npos) << o.out;
  // A child's wall time counts from its fork to its exit, which takes more than nothing (an
  // executable started and a system elaborated).
  for (const std::string& wall : column(dir_ / "r.csv", "wall_s")) {
    EXPECT_GT(std::stod(wall), 0.0) << wall;
  }
}

TEST_F(Sweep, TrafficRowsCarryTheParametersThatAreNotFields) {
  const Outcome o = run("sweep traffic:uniform --variants t44.yaml --param rate=0.05,0.1 "
                        "--param cycles=2000 --out t.csv --json");
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const nlohmann::json j = nlohmann::json::parse(o.out);
  EXPECT_EQ(j["points"], 2);
  EXPECT_EQ(column(dir_ / "t.csv", "rate"), (std::vector<std::string>{"0.05", "0.1"}));
  EXPECT_EQ(column(dir_ / "t.csv", "dims"), (std::vector<std::string>{"4x4", "4x4"}));
  const Outcome direct = run("traffic --pattern uniform --variant t44.yaml --rate 0.1 "
                             "--cycles 2000 --json");
  ASSERT_EQ(direct.exit_code, 0) << direct.err;
  EXPECT_EQ(column(dir_ / "t.csv", "accepted").at(1),
            nlohmann::json::parse(direct.out)["accepted"].dump());
}

// The summary on standard output shows a fraction to 4 significant digits; the CSV keeps them all.
TEST_F(Sweep, TheSummaryRoundsFractionsTheCsvKeeps) {
  const Outcome o = run("sweep traffic:uniform --variants t44.yaml --param rate=0.07 "
                        "--param cycles=700 --out t.csv");
  ASSERT_EQ(o.exit_code, 0) << o.err;
  for (const char* name : {"accepted", "latency_avg"}) {
    const std::string full = column(dir_ / "t.csv", name).at(0);
    char rounded[32];
    std::snprintf(rounded, sizeof rounded, "%.4g", std::stod(full));
    ASSERT_GT(full.size(), std::string(rounded).size()) << name << " " << full;
    EXPECT_NE(o.out.find(" " + std::string(rounded) + " "), std::string::npos)
        << name << " " << rounded << "\n"
        << o.out;
    EXPECT_EQ(o.out.find(full), std::string::npos) << name << " " << full << "\n" << o.out;
  }
}

// The summary's last line names the journal the points came from; a stream (here a symbolic
// link) keeps none, and its summary named 'link.csv.partial' all the same.
TEST_F(Sweep, TheSummaryNamesAJournalOnlyWhereThereIsOne) {
  const Outcome file = run("sweep fig2.mcp --variants omp.yaml --out r.csv");
  ASSERT_EQ(file.exit_code, 0) << file.err;
  EXPECT_NE(file.out.find("\n1 points: 1 run now, 0 from r.csv.partial; rows in r.csv\n"),
            std::string::npos)
      << file.out;
  fs::create_symlink("target.csv", dir_ / "link.csv");
  const Outcome stream = run("sweep fig2.mcp --variants omp.yaml --out link.csv");
  ASSERT_EQ(stream.exit_code, 0) << stream.err;
  EXPECT_NE(stream.out.find("\n1 points: 1 run now; rows in link.csv\n"), std::string::npos)
      << stream.out;
  EXPECT_FALSE(fs::exists(dir_ / "link.csv.partial"));
  EXPECT_EQ(lines_of(slurp(dir_ / "target.csv")).size(), 2u);  // the header and the one row
}

TEST_F(Sweep, JobsOneJobsTwoAndTwoMpiRanksWriteTheSameCsv) {
  ASSERT_EQ(run(kProgramSweep + " --out one.csv --jobs 1").exit_code, 0);
  ASSERT_EQ(run(kProgramSweep + " --out two.csv --jobs 2").exit_code, 0);
  ASSERT_EQ(mpirun(kProgramSweep + " --out mpi.csv --verbose", "mpi"), 0)
      << slurp(dir_ / "mpi.err");
  // Both ranks ran points.
  const std::string log = slurp(dir_ / "mpi.err");
  EXPECT_NE(log.find("(rank 0)"), std::string::npos) << log;
  EXPECT_NE(log.find("(rank 1)"), std::string::npos) << log;
  // Each point ran once, on one rank (round-robin: none is dealt twice). The ranks' lines share
  // one file and may interleave, so the test counts the rank tag of each line.
  std::size_t started = 0;
  for (std::size_t at = log.find("(rank "); at != std::string::npos;
       at = log.find("(rank ", at + 1)) {
    ++started;
  }
  EXPECT_EQ(started, 8u) << log;
  EXPECT_NE(slurp(dir_ / "mpi.out")
                .find("8 points: 8 run now on 2 ranks, 0 from mpi.csv.partial; rows in mpi.csv\n"),
            std::string::npos)
      << slurp(dir_ / "mpi.out");
  ASSERT_EQ(mpirun("sweep fig2.mcp --variants omp.yaml --out j.csv --json", "j"), 0)
      << slurp(dir_ / "j.err");
  EXPECT_EQ(nlohmann::json::parse(slurp(dir_ / "j.out"))["ranks"], 2);
  const std::vector<std::string> one = csv_without_wall_time(dir_ / "one.csv");
  EXPECT_EQ(one.size(), 9u);
  EXPECT_EQ(csv_without_wall_time(dir_ / "two.csv"), one);
  EXPECT_EQ(csv_without_wall_time(dir_ / "mpi.csv"), one);
}

// A job started with its standard input closed (`<&-`, as some batch systems start jobs): the
// pipes to the points' processes may then take descriptor 0, which must be read and closed as
// any other, or the sweep would wait for that point forever. Through a link the rows are written
// at the end (no journal is open while the points run), so the first pipe does take 0.
TEST_F(Sweep, RunsWithItsStandardInputClosed) {
  ASSERT_EQ(run(kProgramSweep + " --out open.csv --jobs 2").exit_code, 0);
  fs::create_symlink("closed.csv", dir_ / "link.csv");
  const Outcome closed = run(kProgramSweep + " --out link.csv --jobs 2", std::nullopt, 120);
  ASSERT_EQ(closed.exit_code, 0) << closed.err;
  const std::vector<std::string> rows = csv_without_wall_time(dir_ / "open.csv");
  EXPECT_EQ(rows.size(), 9u);
  EXPECT_EQ(csv_without_wall_time(dir_ / "closed.csv"), rows);
}

// The sweep waits for its points' output in steps of a tenth of a second; a point that runs for
// many such steps without writing anything is waited for, and its row is its run's figures.
TEST_F(Sweep, APointThatRunsForManyPollIntervalsIsWaitedFor) {
  const Outcome o = run("sweep traffic:uniform --variants t44.yaml --param rate=0.1 "
                        "--param cycles=1000000 --param seed=7 --out long.csv");
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const Outcome direct = run("traffic --pattern uniform --variant t44.yaml --rate 0.1 "
                             "--cycles 1000000 --seed 7 --json");
  ASSERT_EQ(direct.exit_code, 0) << direct.err;
  EXPECT_EQ(column(dir_ / "long.csv", "flit_hops"),
            std::vector<std::string>{nlohmann::json::parse(direct.out)["flit_hops"].dump()});
}

TEST_F(Sweep, AnErrorOnOneRankStopsEveryRank) {
  // Point 1 falls to rank 1, whose child rejects it; rank 0 must not wait for its row. The
  // sweep's own check passes it: only the emulator, with the routed program at hand, finds that
  // store-and-forward needs buffers for fig2's 5-flit packets.
  EXPECT_EQ(mpirun("sweep fig2.mcp --variants t44.yaml --param switching=wormhole,saf --out e.csv",
                   "e"),
            2);
  EXPECT_NE(slurp(dir_ / "e.err")
                .find("point 1 (t44.yaml, switching=saf): orthosim run fig2.mcp "
                      "--variant t44.yaml --switching saf --json rejected its "
                      "input: orthosim run: t44.yaml:4:10: buffers:"),
            std::string::npos)
      << slurp(dir_ / "e.err");
  EXPECT_FALSE(fs::exists(dir_ / "e.csv"));
}

TEST_F(Sweep, AKilledSweepResumesWithoutRerunningFinishedPoints) {
  const std::string args = "sweep traffic:uniform --variants t44.yaml --param "
                           "rate=0.02,0.04,0.06,0.08,0.1,0.12 --param cycles=50000 --jobs 1";
  ASSERT_EQ(run(args + " --out whole.csv").exit_code, 0);

  // Start the same sweep and kill it once its journal holds two rows.
  const pid_t pid = spawn(args + " --out cut.csv");
  ASSERT_GT(pid, 0);
  const fs::path journal = dir_ / "cut.csv.partial";
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (lines_of(slurp(journal)).size() < 2 + 2 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the sweep ended before it could be killed";
  ASSERT_FALSE(fs::exists(dir_ / "cut.csv"));
  // A kill in the middle of a write leaves a line without its newline: it must be dropped.
  std::ofstream(journal, std::ios::app) << "5,t44.yaml,tor";
  std::set<std::string> journaled;
  const std::vector<std::string> before = lines_of(slurp(journal));
  for (std::size_t i = 2; i + 1 < before.size(); ++i) {
    journaled.insert(split(before[i]).at(0));
  }
  ASSERT_GE(journaled.size(), 2u);
  ASSERT_LT(journaled.size(), 6u);
  // The same journal resumed on two MPI ranks below: rank 0 tells rank 1 what is finished.
  fs::copy_file(journal, dir_ / "ranks.csv.partial");

  const Outcome resumed = run(args + " --out cut.csv --verbose");
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  std::set<std::string> rerun;
  for (const std::string& line : lines_of(resumed.err)) {
    const std::string prefix = "orthosim sweep: point ";
    ASSERT_EQ(line.rfind(prefix, 0), 0u) << line;
    rerun.insert(line.substr(prefix.size(), line.find(':', prefix.size()) - prefix.size()));
  }
  EXPECT_EQ(rerun.size() + journaled.size(), 6u);
  EXPECT_NE(resumed.out.find("6 points: " + std::to_string(rerun.size()) + " run now, " +
                             std::to_string(journaled.size()) + " from cut.csv.partial"),
            std::string::npos)
      << resumed.out;
  for (const std::string& p : rerun) {
    EXPECT_EQ(journaled.count(p), 0u) << "point " << p << " ran again";
  }
  EXPECT_FALSE(fs::exists(journal));
  EXPECT_EQ(csv_without_wall_time(dir_ / "cut.csv"), csv_without_wall_time(dir_ / "whole.csv"));

  ASSERT_EQ(mpirun(args + " --out ranks.csv --verbose", "ranks"), 0) << slurp(dir_ / "ranks.err");
  // As many points ran as the single process ran again, none twice: the ranks' lines share one
  // file and may interleave, so the rank tags are counted.
  const std::string ranks_log = slurp(dir_ / "ranks.err");
  std::size_t started = 0;
  for (std::size_t at = ranks_log.find("(rank "); at != std::string::npos;
       at = ranks_log.find("(rank ", at + 1)) {
    ++started;
  }
  EXPECT_EQ(started, rerun.size()) << ranks_log;
  EXPECT_NE(slurp(dir_ / "ranks.out")
                .find("6 points: " + std::to_string(rerun.size()) + " run now on 2 ranks, " +
                      std::to_string(journaled.size()) + " from ranks.csv.partial"),
            std::string::npos)
      << slurp(dir_ / "ranks.out");
  EXPECT_EQ(csv_without_wall_time(dir_ / "ranks.csv"), csv_without_wall_time(dir_ / "whole.csv"));
}

/// The processes whose parent is `parent`, from /proc/PID/stat ("pid (comm) state ppid ...").
std::vector<pid_t> children_of(pid_t parent) {
  std::vector<pid_t> children;
  for (const fs::directory_entry& e : fs::directory_iterator("/proc")) {
    const std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) {
      continue;
    }
    const std::string stat = slurp(e.path() / "stat");
    const std::size_t after_name = stat.rfind(')');
    if (after_name == std::string::npos) {
      continue;  // ended while we looked
    }
    std::istringstream fields(stat.substr(after_name + 1));
    char state = 0;
    pid_t ppid = 0;
    if (fields >> state >> ppid && ppid == parent) {
      children.push_back(static_cast<pid_t>(std::stol(name)));
    }
  }
  return children;
}

/// Whether `pid` still runs: its /proc entry exists and it is not a zombie waiting for a reaper.
bool running(pid_t pid) {
  const std::string stat = slurp("/proc/" + std::to_string(pid) + "/stat");
  const std::size_t after_name = stat.rfind(')');
  return after_name != std::string::npos && after_name + 2 < stat.size() &&
         stat[after_name + 2] != 'Z';
}

// A SIGKILL gives the sweep no chance to end its children: they must die with it (the
// parent-death signal) rather than run on as orphans.
TEST_F(Sweep, ItsChildrenDieWithAKilledSweep) {
  // Two points of traffic that would each run for minutes, both started at once.
  const pid_t sweep = spawn("sweep traffic:uniform --variants t44.yaml --param seed=1,2 "
                            "--param cycles=900000000 --jobs 2 --out k.csv");
  ASSERT_GT(sweep, 0);
  std::vector<pid_t> children;
  const auto started = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (children.size() < 2 && std::chrono::steady_clock::now() < started) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    children = children_of(sweep);
  }
  kill(sweep, SIGKILL);
  int status = 0;
  waitpid(sweep, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the sweep ended before it could be killed";
  ASSERT_EQ(children.size(), 2u) << "the sweep did not start its two points";
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  const auto any_running = [&children] {
    return std::any_of(children.begin(), children.end(), running);
  };
  while (any_running() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  for (pid_t child : children) {
    EXPECT_FALSE(running(child)) << "point process " << child << " outlived the sweep";
  }
  // Survivors are ended here, by their pids, so that a failure leaves nothing running.
  for (pid_t child : children) {
    if (running(child)) {
      kill(child, SIGKILL);
    }
  }
}

// A journal holding point 0's row (written here as the sweep writes one: its signature, which the
// refusal of another journal quotes, the header, then the row): the sweep runs point 1 alone and
// its JSON says so.
TEST_F(Sweep, AResumedSweepsJsonSaysWhatRanAndWhatWasResumed) {
  const std::string args =
      "sweep traffic:uniform --variants t44.yaml --param rate=0.05,0.1 --param cycles=300";
  ASSERT_EQ(run(args + " --out whole.csv").exit_code, 0);
  std::ofstream(dir_ / "r.csv.partial") << "# another sweep\npoint\n";
  const Outcome refused = run(args + " --out r.csv");
  const std::size_t from = refused.err.find("expected '");
  const std::size_t to = refused.err.find("' (the journal");
  ASSERT_TRUE(from != std::string::npos && to != std::string::npos) << refused.err;
  const std::string signature = refused.err.substr(from + 10, to - from - 10);
  const std::vector<std::string> whole = lines_of(slurp(dir_ / "whole.csv"));
  ASSERT_EQ(whole.size(), 3u);
  std::ofstream(dir_ / "r.csv.partial") << signature << '\n'
                                        << whole[0] << '\n'
                                        << whole[1] << '\n';

  const Outcome o = run(args + " --out r.csv --json --jobs 2");
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const nlohmann::json j = nlohmann::json::parse(o.out);
  EXPECT_EQ(j["points"], 2);
  EXPECT_EQ(j["ran"], 1);
  EXPECT_EQ(j["resumed"], 1);
  EXPECT_EQ(j["jobs"], 2);
  EXPECT_EQ(j["ranks"], 1);
  EXPECT_EQ(j["rows"].size(), 2u);
  EXPECT_EQ(csv_without_wall_time(dir_ / "r.csv"), csv_without_wall_time(dir_ / "whole.csv"));
}

TEST_F(Sweep, AJournalOfAnotherSweepIsRefused) {
  std::ofstream(dir_ / "r.csv.partial") << "# orthosim sweep v1; run other.mcp\npoint\n";
  const Outcome o = run(kProgramSweep + " --out r.csv");
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_NE(o.err.find("r.csv.partial:1:1: expected '# orthosim sweep v1; run fig2.mcp"),
            std::string::npos)
      << o.err;
  EXPECT_FALSE(fs::exists(dir_ / "r.csv"));
}

TEST_F(Sweep, BadArgumentsAreNamed) {
  struct Case {
    const char* args;
    const char* says;
  };
  std::ofstream(dir_ / "bad.yaml") << "arch: omp\nalpha: x\n";
  fs::create_symlink("bus.yaml", dir_ / "link.yaml");
  const Case cases[] = {
      {"sweep fig2.mcp --variants omp.yaml --param alfa=1,2 --out r.csv", "--param: expected "
                                                                          "an option of"},
      {"sweep fig2.mcp --variants omp.yaml --param alpha --out r.csv", "--param: expected NAME="},
      {"sweep fig2.mcp --variants omp.yaml --param alpha=1,,2 --out r.csv", "single commas"},
      {"sweep fig2.mcp --variants omp.yaml --param vcd=a.vcd --out r.csv", "other than --vcd"},
      // Every point would write the same file (and with --jobs 2 at the same time).
      {"sweep fig2.mcp --variants omp.yaml --param trace=a.trace --out r.csv",
       "other than --trace"},
      {"sweep fig2.mcp --variants omp.yaml --param impl=rtl --param fst=a.fst --out r.csv",
       "other than --fst"},
      {"sweep fig2.mcp --variants omp.yaml --param n=2 --param n=4 --out r.csv",
       "orthosim sweep: --param: expected each parameter once, found 'n' again\n"},
      // A value twice would run its points twice, as a variant file twice would (below).
      {"sweep fig2.mcp --variants omp.yaml --param n=2,4,2 --out r.csv",
       "orthosim sweep: --param: expected distinct values, found '2' twice in 'n=2,4,2'\n"},
      // Options the sweep sets itself.
      {"sweep fig2.mcp --variants omp.yaml --param variant=bus.yaml --out r.csv",
       "orthosim sweep: --param: expected an option of orthosim run other than --variant"},
      {"sweep traffic:uniform --variants t44.yaml --param rates=0.1 --out r.csv",
       "orthosim sweep: --param: expected an option of orthosim traffic other than --rates"},
      // A variant file twice would run each of its points twice: by one name, by two names of
      // one file, and through a symbolic link (link.yaml, made above).
      {"sweep fig2.mcp --variants omp.yaml bus.yaml omp.yaml --out r.csv",
       "orthosim sweep: --variants: expected distinct variant files, found 'omp.yaml' twice\n"},
      {"sweep fig2.mcp --variants omp.yaml --variants ./omp.yaml --out r.csv",
       "--variants: expected distinct variant files, found one file twice, as 'omp.yaml' and "
       "'./omp.yaml'\n"},
      {"sweep fig2.mcp --variants link.yaml bus.yaml --out r.csv",
       "found one file twice, as 'link.yaml' and 'bus.yaml'\n"},
      {"sweep fig2.mcp --variants bad.yaml --out r.csv", "bad.yaml:2:8:"},
      // Named by the sweep itself, at the variant's field, not by a point's child.
      {"sweep traffic:uniform --variants omp.yaml --out r.csv",
       "orthosim sweep: omp.yaml:6:7: expected a network"},
      // The target is named as the usage names it, PROGRAM|traffic:PATTERN.
      {"sweep traffic: --variants t44.yaml --out r.csv",
       "orthosim sweep: traffic:PATTERN: expected a pattern after traffic:, e.g. traffic:uniform, "
       "found 'traffic:'\n"},
      {"sweep --variants omp.yaml --out r.csv",
       "orthosim sweep: PROGRAM|traffic:PATTERN: expected a program file (.mcp) or "
       "traffic:PATTERN, found none\n"},
      // A bad program is the sweep's error, said once, not a point's.
      {"sweep nowhere.mcp --variants omp.yaml --out r.csv", "orthosim sweep: nowhere.mcp"},
      {"sweep fig2.mcp --variants omp.yaml", "--out"},
      {"sweep fig2.mcp --out r.csv", "--variants"},
      {"sweep fig2.mcp --variants omp.yaml --out r.csv --jobs 0", "--jobs"},
      {"sweep fig2.mcp --variants omp.yaml --out r.csv --jobs 1025",
       "orthosim sweep: --jobs: expected an integer in 1..1024"},
      // A point the child would reject stops the sweep and says which point.
      {"sweep fig2.mcp --variants omp.yaml --param n=4,300 --out r.csv",
       "point 1 (omp.yaml, n=300): orthosim run fig2.mcp --variant omp.yaml --n 300 --json "
       "rejected its input: orthosim run: --n: expected an integer in 1..256"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.args);
    const Outcome o = run(c.args);
    EXPECT_EQ(o.exit_code, 2);
    EXPECT_NE(o.err.find(c.says), std::string::npos) << o.err;
    EXPECT_FALSE(fs::exists(dir_ / "r.csv"));
    EXPECT_FALSE(fs::exists(dir_ / "r.csv.partial"));
    EXPECT_FALSE(fs::exists(dir_ / "a.trace"));
  }
}

// Every point's command line is checked in this process, by the child's own parsing, before the
// journal is created: a bad value anywhere leaves nothing behind (no point ran, no journal that
// would refuse the corrected command), and the corrected command then runs.
TEST_F(Sweep, ABadPointStopsTheSweepBeforeAnythingRunsOrIsWritten) {
  struct Case {
    const char* bad;
    const char* says;
    const char* corrected;
  };
  const Case cases[] = {
      {"sweep fig2.mcp --variants omp.yaml --param alpha=8,abc",
       "point 1 (omp.yaml, alpha=abc): orthosim run fig2.mcp --variant omp.yaml --alpha abc "
       "--json rejected its input: orthosim run: --alpha: expected an integer",
       "sweep fig2.mcp --variants omp.yaml --param alpha=8"},
      {"sweep fig2.mcp --variants omp.yaml bus.yaml --param alpha=-1",
       "point 0 (omp.yaml, alpha=-1)", "sweep fig2.mcp --variants omp.yaml --param alpha=1"},
      {"sweep fig2.mcp --variants bus.yaml omp.yaml --param dims=4x4",
       "point 0 (bus.yaml, dims=4x4): orthosim run fig2.mcp --variant bus.yaml --dims 4x4 --json "
       "rejected its input: orthosim run: --dims: does not apply to run on the bus",
       "sweep fig2.mcp --variants bus.yaml"},
      {"sweep traffic:foo --variants t44.yaml --param cycles=200",
       "point 0 (t44.yaml, cycles=200): orthosim traffic --pattern foo",
       "sweep traffic:uniform --variants t44.yaml --param cycles=200"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.bad);
    const Outcome o = run(std::string(c.bad) + " --out r.csv --verbose");
    EXPECT_EQ(o.exit_code, 2);
    EXPECT_NE(o.err.find(c.says), std::string::npos) << o.err;
    // One line: the error, and no child started (--verbose would name it).
    EXPECT_EQ(lines_of(o.err).size(), 1u) << o.err;
    EXPECT_FALSE(fs::exists(dir_ / "r.csv.partial"));
    EXPECT_FALSE(fs::exists(dir_ / "r.csv"));
    const Outcome fixed = run(std::string(c.corrected) + " --out r.csv");
    EXPECT_EQ(fixed.exit_code, 0) << fixed.err;
    EXPECT_TRUE(fs::exists(dir_ / "r.csv"));
    fs::remove(dir_ / "r.csv");
  }
}

// A refusal only the run itself makes (its estimated footprint against --memory-limit: the
// sweep's own check stops where the run would start) still stops the sweep with exit 2. With no
// point finished it leaves no journal (it left one holding the header alone); a point finished
// before it stays in the journal, to resume from.
TEST_F(Sweep, ARefusalOnlyTheRunMakesLeavesNoJournalUnlessAPointFinished) {
  const Outcome o = run("sweep fig2.mcp --variants omp.yaml --param memory-limit=1 --out r.csv");
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_TRUE(o.out.empty()) << o.out;
  EXPECT_NE(o.err.find("orthosim sweep: point 0 (omp.yaml, memory-limit=1): orthosim run fig2.mcp "
                       "--variant omp.yaml --memory-limit 1 --json rejected its input: orthosim "
                       "run: --memory-limit: expected a run that fits in 1 bytes"),
            std::string::npos)
      << o.err;
  EXPECT_FALSE(fs::exists(dir_ / "r.csv.partial"));
  EXPECT_FALSE(fs::exists(dir_ / "r.csv"));

  const Outcome second =
      run("sweep fig2.mcp --variants omp.yaml --param memory-limit=1G,1 --out r.csv");
  EXPECT_EQ(second.exit_code, 2);
  EXPECT_NE(second.err.find("point 1 (omp.yaml, memory-limit=1)"), std::string::npos) << second.err;
  EXPECT_FALSE(fs::exists(dir_ / "r.csv"));
  // The signature, the header and point 0's row.
  const std::vector<std::string> journal = lines_of(slurp(dir_ / "r.csv.partial"));
  ASSERT_EQ(journal.size(), 3u) << slurp(dir_ / "r.csv.partial");
  EXPECT_EQ(journal[2].rfind("0,", 0), 0u) << journal[2];
}

// Every point's process reads the program again, so standard input cannot be the program; the
// refusal comes before anything reads it (a time limit in case it reads a standard input that
// never ends).
TEST_F(Sweep, StandardInputIsRefusedAsTheProgram) {
  const Outcome o = run("sweep - --variants omp.yaml --out r.csv", kProgramSweep, 30);
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_EQ(o.err,
            "orthosim sweep: PROGRAM: expected a program file (every point's process reads it "
            "again), found '-' (standard input)\n");
  EXPECT_FALSE(fs::exists(dir_ / "r.csv.partial"));
}

// A run that fails (exit 1) is a row with status `failed`, and the sweep goes on. The fault flips
// a bit on P(1)'s bus in cycle 36, when Fig. 2's first message's word 0 is on it with alpha = 16
// (cycle 20 + alpha, as in orthosim_cli_test); with alpha = 100 that access starts at cycle 120,
// and the bus is idle in cycle 36.
TEST_F(Sweep, AFailedRunIsARowWithStatusFailed) {
  setenv("ORTHOSIM_TEST_FAULT", "1:flip:36:5", 1);
  const Outcome o = run("sweep fig2.mcp --variants omp.yaml --param alpha=16,100 --out f.csv");
  unsetenv("ORTHOSIM_TEST_FAULT");
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_EQ(column(dir_ / "f.csv", "status"), (std::vector<std::string>{"failed", "ok"}));
  EXPECT_EQ(column(dir_ / "f.csv", "payload_ok"), (std::vector<std::string>{"false", "true"}));
  // The summary shows the words as they are: point, variant, alpha, status, cycles,
  // predicted_cycles, payload_ok, ...
  const std::vector<std::string> lines = lines_of(o.out);
  ASSERT_GE(lines.size(), 3u) << o.out;
  for (std::size_t p = 0; p < 2; ++p) {
    std::istringstream line(lines[1 + p]);
    std::vector<std::string> words;
    for (std::string w; line >> w;) {
      words.push_back(w);
    }
    ASSERT_GE(words.size(), 7u) << lines[1 + p];
    EXPECT_EQ(words[0], std::to_string(p));
    EXPECT_EQ(words[3], p == 0 ? "failed" : "ok") << lines[1 + p];
    EXPECT_EQ(words[4], column(dir_ / "f.csv", "cycles").at(p)) << lines[1 + p];
    EXPECT_EQ(words[6], p == 0 ? "false" : "true") << lines[1 + p];
  }
}

/// The pid of the process whose command line holds every one of `words`, 0 if none.
pid_t process_with(const std::vector<std::string>& words) {
  for (const fs::directory_entry& e : fs::directory_iterator("/proc")) {
    const std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) {
      continue;
    }
    std::string line = slurp(e.path() / "cmdline");
    std::replace(line.begin(), line.end(), '\0', ' ');
    if (std::all_of(words.begin(), words.end(), [&line](const std::string& w) {
          return line.find(" " + w + " ") != std::string::npos;
        })) {
      return static_cast<pid_t>(std::stol(name));
    }
  }
  return 0;
}

// A point whose process dies of a signal stops the sweep: exit 1 and one line naming the point,
// its command line and the signal; the point running beside it is ended too (rather than waited
// for: it would run for minutes). The rows finished before stay in the journal.
TEST_F(Sweep, APointKilledByASignalStopsTheSweepAndItsOtherPointsNamingIt) {
  Outcome o;
  std::thread sweep([&] {
    o = run("sweep traffic:uniform --variants t44.yaml --param seed=4242,4243 --param "
            "cycles=900000000 --jobs 2 --out k.csv",
            "", 60);
  });
  pid_t point = 0;
  pid_t beside = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while ((point == 0 || beside == 0) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    point = process_with({"traffic", "--seed", "4242", "--json"});
    beside = process_with({"traffic", "--seed", "4243", "--json"});
  }
  if (point != 0) {
    kill(point, SIGKILL);
  }
  sweep.join();
  ASSERT_NE(point, 0) << "the point's process was not found";
  ASSERT_NE(beside, 0) << "the second point's process was not found";
  EXPECT_EQ(o.exit_code, 1);
  EXPECT_EQ(o.err, "orthosim sweep: error: point 0: orthosim traffic --pattern uniform --variant "
                   "t44.yaml --seed 4242 --cycles 900000000 --json ended by signal 9: (no "
                   "message)\n");
  EXPECT_EQ(process_with({"traffic", "--seed", "4243", "--json"}), 0);
  EXPECT_FALSE(fs::exists(dir_ / "k.csv"));
  EXPECT_TRUE(fs::exists(dir_ / "k.csv.partial"));
}

// A parameter may set the traffic's network over a variant of another architecture (the
// variant's `arch` field is the option --topology, which the parameter overrides); the summary
// heads that column `arch`, as the CSV does, and names each variant by its file name.
TEST_F(Sweep, ATopologyParameterOverridesTheVariantsArchitecture) {
  fs::create_directory(dir_ / "sub");
  std::ofstream(dir_ / "sub" / "any.yaml") << "arch: omp\n";
  const Outcome o = run("sweep traffic:uniform --variants sub/any.yaml --param topology=torus "
                        "--param dims=4x4 --param cycles=300 --out a.csv --jobs 1024");
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_EQ(column(dir_ / "a.csv", "arch"), (std::vector<std::string>{"torus"}));
  EXPECT_EQ(column(dir_ / "a.csv", "variant"), (std::vector<std::string>{"sub/any.yaml"}));
  const std::vector<std::string> lines = lines_of(o.out);
  ASSERT_GE(lines.size(), 2u) << o.out;
  std::istringstream head(lines[0]);
  std::vector<std::string> words;
  for (std::string w; head >> w;) {
    words.push_back(w);
  }
  EXPECT_EQ(words, (std::vector<std::string>{"point", "variant", "arch", "dims", "cycles", "status",
                                             "accepted", "latency_avg", "latency_p99",
                                             "sustainable", "wall_s"}));
  EXPECT_EQ(lines[1].find("sub/"), std::string::npos) << lines[1];
  EXPECT_NE(lines[1].find(" any.yaml "), std::string::npos) << lines[1];
}

TEST_F(Sweep, TheProgressBarIsDrawnOnATerminalOnly) {
  const Outcome plain = run(kProgramSweep + " --out a.csv");
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_TRUE(plain.err.empty()) << plain.err;
  // script(1) gives the sweep a terminal.
  const std::string command = "cd '" + dir_.string() + "' && script -qec \"'" +
                              orthosim::testing_support::orthosim_under_test() + "' " +
                              kProgramSweep + " --out b.csv\" /dev/null >tty.out 2>&1";
  ASSERT_EQ(std::system(command.c_str()), 0);
  const std::string screen = slurp(dir_ / "tty.out");
  // Before any point has finished there is no rate to tell the time left by; at the end none is
  // left.
  EXPECT_NE(screen.find("] 0/8 points, estimating time left"), std::string::npos) << screen;
  EXPECT_NE(screen.find("] 8/8 points, 0:00 left"), std::string::npos) << screen;
}

}  // namespace
