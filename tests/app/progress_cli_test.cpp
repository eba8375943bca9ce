// End-to-end: `orthosim --version`, and the progress line of long runs (docs/cli.md, Progress):
// nothing when standard error is not a terminal, the line on a pseudo-terminal, --quiet.
#include <gtest/gtest.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fcntl.h>
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/cli_process.hpp"

namespace {

using orthosim::testing_support::Outcome;

class ProgressCli : public orthosim::testing_support::CliTest {
 protected:
  /// Runs orthosim `args` in the test's folder with its standard error on a pseudo-terminal
  /// (standard output to /dev/null) and the progress threshold at 0 ms; returns what the
  /// terminal received.
  [[nodiscard]] std::string on_terminal(const std::vector<std::string>& args) const {
    int master = -1;
    const pid_t child = forkpty(&master, nullptr, nullptr, nullptr);
    if (child < 0) {
      ADD_FAILURE() << "forkpty failed";
      return "";
    }
    if (child == 0) {
      if (chdir(dir_.c_str()) != 0) {
        _exit(126);
      }
      const int null = open("/dev/null", O_WRONLY);
      dup2(null, STDOUT_FILENO);
      setenv("ORTHOSIM_PROGRESS_AFTER_MS", "0", 1);
      std::vector<char*> argv;
      std::string binary = orthosim::testing_support::orthosim_under_test();
      argv.push_back(binary.data());
      std::vector<std::string> copies = args;
      for (std::string& a : copies) {
        argv.push_back(a.data());
      }
      argv.push_back(nullptr);
      execv(binary.c_str(), argv.data());
      _exit(127);
    }
    std::string received;
    char buffer[4096];
    for (;;) {
      const ssize_t n = read(master, buffer, sizeof buffer);
      if (n > 0) {
        received.append(buffer, static_cast<std::size_t>(n));
      } else if (n < 0 && errno == EINTR) {
        continue;
      } else {
        break;  // EOF, or EIO once the child has closed the terminal
      }
    }
    close(master);
    int status = 0;
    waitpid(child, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << received;
    return received;
  }
};

/// ORTHOSIM_PROGRESS_AFTER_MS=0 for the commands run while it lives.
struct ThresholdZero {
  ThresholdZero() { setenv("ORTHOSIM_PROGRESS_AFTER_MS", "0", 1); }
  ThresholdZero(const ThresholdZero&) = delete;
  ThresholdZero& operator=(const ThresholdZero&) = delete;
  ~ThresholdZero() { unsetenv("ORTHOSIM_PROGRESS_AFTER_MS"); }
};

/// The value of the line "NAME: VALUE" in `text`, or "(missing)".
std::string field(const std::string& text, const std::string& name) {
  const std::string key = "\n" + name + ": ";
  const std::size_t at = text.find(key);
  if (at == std::string::npos) {
    return "(missing)";
  }
  const std::size_t begin = at + key.size();
  return text.substr(begin, text.find('\n', begin) - begin);
}

/// What `command` prints on standard output, and whether it exited 0.
std::pair<std::string, bool> shell_output(const std::string& command) {
  std::string text;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) {
    return {text, false};
  }
  char chunk[256];
  for (std::size_t n; (n = std::fread(chunk, 1, sizeof chunk, pipe)) > 0;) {
    text.append(chunk, n);
  }
  return {text, pclose(pipe) == 0};
}

// The commit is the source tree's at build time, not at configure time: git's own answer for the
// tree the test binary was built from (a build after a commit or an edit reports it).
TEST_F(ProgressCli, VersionReportsTheCommitOfTheBuiltTree) {
  const std::string git = "git -C '" ORTHOSIM_SOURCE_DIR "' ";
  auto [head, checkout] = shell_output(git + "rev-parse --short=12 HEAD 2>/dev/null");
  const std::string commit = field(run("--version").out, "commit");
  if (!checkout) {
    EXPECT_EQ(commit, "unknown") << "not a git checkout (or no git): " ORTHOSIM_SOURCE_DIR;
    return;
  }
  head.erase(head.find_last_not_of('\n') + 1);
  const auto [changes, status_ok] =
      shell_output(git + "status --porcelain --untracked-files=no 2>/dev/null");
  EXPECT_EQ(commit, head + (changes.empty() && status_ok ? "" : "-dirty"))
      << "rebuild after editing the tree";
}

TEST_F(ProgressCli, VersionPrintsEachField) {
  const Outcome r = run("--version");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out.substr(0, r.out.find('\n')), std::string("orthosim ") + ORTHOSIM_PROJECT_VERSION);
  const std::string commit = field(r.out, "commit");
  const std::string hash = commit.substr(0, commit.find('-'));
  EXPECT_TRUE(commit == "unknown" ||
              (hash.size() == 12 &&
               hash.find_first_not_of("0123456789abcdef") == std::string::npos &&
               (commit == hash || commit == hash + "-dirty")))
      << commit;
  EXPECT_EQ(field(r.out, "build type"), ORTHOSIM_BUILD_TYPE);
  EXPECT_EQ(field(r.out, "SystemC"), ORTHOSIM_SYSTEMC_VERSION);
  const std::string verilator = field(r.out, "Verilator");
  EXPECT_FALSE(verilator.empty() || verilator == "(missing)" || verilator == "unknown") << r.out;
  EXPECT_EQ(run("version").out, r.out);
}

// Every command whose --help offers --json prints the build's version as the first member of its
// JSON (docs/cli.md, Version): the fields of --version, from the build's configuration.
TEST_F(ProgressCli, EveryJsonOutputBeginsWithTheVersion) {
  const std::string examples = ORTHOSIM_EXAMPLES_DIR;
  std::filesystem::copy_file(examples + "/fig2_sample.mcp", dir_ / "fig2.mcp");
  std::filesystem::copy_file(examples + "/variants/omp.yaml", dir_ / "omp.yaml");
  ASSERT_EQ(run("run fig2.mcp --arch omp --trace fig2.trace").exit_code, 0);
  // One quick command line per command; a new command with --json must be added here.
  const std::map<std::string, std::string> json_lines = {
      {"demo", "demo --out demo --json"},
      {"map", "map fig2.mcp --arch omp --json"},
      {"run", "run fig2.mcp --arch mesh --dims 4x4 --json"},
      {"traffic", "traffic --topology mesh --dims 3x3 --rate 0.1 --cycles 100 --json"},
      {"lcc", "lcc --dim 4 --pattern transpose --json"},
      {"calmant", "calmant --mesh 4x4 --task 0,2 --json"},
      {"embed", "embed --cube 4 --onto ring --dims 16 --scheme xor --json"},
      {"exchange", "exchange --torus 4x4 --block 1 --algorithms a1 --json"},
      {"access", "access --json"},
      {"tables", "tables --topology torus --m 16 --n 4 --l 2 --json"},
      {"sweep", "sweep fig2.mcp --variants omp.yaml --param alpha=8 --out s.csv --json"},
      {"trace", "trace stats fig2.trace --json"}};
  const Outcome version = run("--version");
  const Outcome help = run("--help");
  std::istringstream lines(help.out.substr(help.out.find("commands:\n") + 10));
  int checked = 0;
  for (std::string line; std::getline(lines, line) && line.rfind("  ", 0) == 0;) {
    const std::string command = line.substr(2, line.find(' ', 2) - 2);
    if (run(command + " --help").out.find("--json") == std::string::npos) {
      continue;
    }
    const auto json_line = json_lines.find(command);
    ASSERT_NE(json_line, json_lines.end()) << command << " has --json: give it a line here";
    const Outcome r = run(json_line->second);
    ASSERT_EQ(r.exit_code, 0) << json_line->second << "\n" << r.err;
    EXPECT_EQ(r.out.rfind("{\n  \"version\": {", 0), 0u) << r.out.substr(0, 80);
    const nlohmann::json v = nlohmann::json::parse(r.out).at("version");
    EXPECT_EQ(v.at("orthosim"), ORTHOSIM_PROJECT_VERSION) << command;
    EXPECT_EQ(v.at("commit"), field(version.out, "commit")) << command;
    EXPECT_EQ(v.at("build_type"), ORTHOSIM_BUILD_TYPE) << command;
    EXPECT_EQ(v.at("systemc"), ORTHOSIM_SYSTEMC_VERSION) << command;
    EXPECT_EQ(v.at("verilator"), field(version.out, "Verilator")) << command;
    EXPECT_EQ(v.size(), 5u) << command;
    ++checked;
  }
  EXPECT_EQ(checked, static_cast<int>(json_lines.size()));
}

TEST_F(ProgressCli, NothingOnStandardErrorThatIsNotATerminal) {
  const std::string args = "traffic --topology mesh --dims 4x4 --rates 0.1,0.2";
  const Outcome quiet = run(args + " --quiet");
  // A threshold of 0 would draw the line at once on a terminal.
  const ThresholdZero zero;
  const Outcome r = run(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out, quiet.out);
}

TEST_F(ProgressCli, BadThresholdIsRefusedBeforeAnythingRuns) {
  setenv("ORTHOSIM_PROGRESS_AFTER_MS", "soon", 1);
  const Outcome r = run("traffic --topology mesh --dims 4x4");
  unsetenv("ORTHOSIM_PROGRESS_AFTER_MS");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("ORTHOSIM_PROGRESS_AFTER_MS"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("'soon'"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST_F(ProgressCli, LineOnATerminalErasedAtTheEnd) {
  // The first report comes after the first slice of simulated time, well within the warm-up.
  const std::string received = on_terminal({"traffic", "--topology", "mesh", "--dims", "4x4",
                                            "--rates", "0.1,0.2", "--warmup", "20000"});
  EXPECT_NE(received.find("\rorthosim: rate 1/2, warm-up, "), std::string::npos) << received;
  EXPECT_NE(received.find("/20000 cycles ("), std::string::npos) << received;
  // The last thing on the terminal is the line blanked out and the cursor back at its start.
  ASSERT_FALSE(received.empty());
  EXPECT_EQ(received.back(), '\r');
  const std::size_t blank_start = received.rfind('\r', received.size() - 2);
  ASSERT_NE(blank_start, std::string::npos);
  const std::string blanked = received.substr(blank_start + 1, received.size() - blank_start - 2);
  EXPECT_FALSE(blanked.empty());
  EXPECT_EQ(blanked.find_first_not_of(' '), std::string::npos) << received;
}

TEST_F(ProgressCli, QuietOnATerminalShowsNothing) {
  EXPECT_EQ(on_terminal({"traffic", "--topology", "mesh", "--dims", "4x4", "--quiet"}), "");
}

TEST_F(ProgressCli, RunOnATerminalShowsItsCycles) {
  const std::string received = on_terminal({"demo", "--out", "demo"});
  EXPECT_NE(received.find("\rorthosim: running omp, crossbar, bus, "), std::string::npos)
      << received;
}

}  // namespace
