// End-to-end: the bash completion script `orthosim completion bash` writes (docs/cli.md, Shell
// completion), run in bash as bash runs it: COMP_WORDS and COMP_CWORD set, _orthosim called,
// COMPREPLY read. It completes the command names and, for every command, exactly the options its
// --help lists (read from the help text here).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/cli_process.hpp"

namespace {

using orthosim::testing_support::Outcome;

class CompletionCli : public orthosim::testing_support::CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    const Outcome script = run("completion bash");
    ASSERT_EQ(script.exit_code, 0) << script.err;
    std::ofstream(dir_ / "orthosim.bash") << script.out;
  }

  /// The words bash offers for the command line `words` (the last one is being completed).
  std::set<std::string> complete(const std::vector<std::string>& words) {
    std::ostringstream script;
    script << "source ./orthosim.bash; COMP_WORDS=(";
    for (const std::string& w : words) {
      script << " '" << w << "'";
    }
    script << "); COMP_CWORD=" << words.size() - 1
           << "; _orthosim; printf '%s\\n' \"${COMPREPLY[@]}\"";
    std::ofstream(dir_ / "complete.sh") << script.str() << '\n';
    const Outcome r = execute_in_dir("bash ./complete.sh");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::set<std::string> offered;
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line);) {
      if (!line.empty()) {
        offered.insert(line);
      }
    }
    return offered;
  }

  Outcome execute_in_dir(const std::string& command) {
    const std::string cmd = "cd '" + dir_.string() + "' && " + command + " > out.txt 2> err.txt";
    const int status = std::system(cmd.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1,
            orthosim::testing_support::slurp(dir_ / "out.txt"),
            orthosim::testing_support::slurp(dir_ / "err.txt")};
  }
};

/// The commands `orthosim --help` lists.
std::vector<std::string> commands_of(const std::string& help) {
  std::vector<std::string> commands;
  std::istringstream lines(help.substr(help.find("commands:\n") + 10));
  for (std::string line; std::getline(lines, line) && line.rfind("  ", 0) == 0;) {
    commands.push_back(line.substr(2, line.find(' ', 2) - 2));
  }
  return commands;
}

/// The options a command's --help lists: "  --out arg", "  -h [ --help ]" give --out, -h, --help.
std::set<std::string> options_of(const std::string& help) {
  std::set<std::string> options;
  const std::regex option_line(R"(^  (-([a-z]) \[ )?--([a-z0-9-]+))");
  std::istringstream lines(help);
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (std::regex_search(line, m, option_line)) {
      options.insert("--" + m[3].str());
      if (m[2].matched) {
        options.insert("-" + m[2].str());
      }
    }
  }
  return options;
}

TEST_F(CompletionCli, CompletesTheCommandNames) {
  const std::vector<std::string> commands = commands_of(run("--help").out);
  ASSERT_GE(commands.size(), 10u);
  std::set<std::string> expected(commands.begin(), commands.end());
  expected.insert({"--help", "--version"});
  EXPECT_EQ(complete({"orthosim", ""}), expected);
  EXPECT_EQ(complete({"orthosim", "tr"}), (std::set<std::string>{"traffic", "trace"}));
  EXPECT_EQ(complete({"orthosim", "lc"}), std::set<std::string>{"lcc"});
}

TEST_F(CompletionCli, CompletesEveryOptionEachCommandsHelpLists) {
  for (const std::string& command : commands_of(run("--help").out)) {
    const std::set<std::string> listed = options_of(run(command + " --help").out);
    ASSERT_GT(listed.size(), 2u) << command;
    EXPECT_EQ(complete({"orthosim", command, "-"}), listed) << command;
    // After other words too, and only the options that start as typed.
    std::set<std::string> with_q;
    for (const std::string& o : listed) {
      if (o.rfind("--q", 0) == 0) {
        with_q.insert(o);
      }
    }
    EXPECT_EQ(complete({"orthosim", command, "x", "--q"}), with_q) << command;
  }
}

TEST_F(CompletionCli, CompletesTheActionsOfTraceAndLeavesFilesToBash) {
  EXPECT_EQ(complete({"orthosim", "trace", ""}),
            (std::set<std::string>{"export", "stats", "diff", "plot"}));
  EXPECT_EQ(complete({"orthosim", "trace", "st"}), std::set<std::string>{"stats"});
  EXPECT_EQ(complete({"orthosim", "run", ""}), std::set<std::string>{}) << "a program file";
  EXPECT_EQ(complete({"orthosim", "trace", "stats", ""}), std::set<std::string>{});
}

// gen's forms, each shown in its usage after " | ": those that are words to type (a PATTERN,
// C1..C12 or a Table 1 name, is the user's to write). Only random and exchange were offered.
TEST_F(CompletionCli, CompletesTheFormsOfGen) {
  EXPECT_EQ(complete({"orthosim", "gen", ""}),
            (std::set<std::string>{"random", "exchange", "shift", "cc-cube", "fft",
                                   "complete-exchange", "calmant"}));
  EXPECT_EQ(complete({"orthosim", "gen", "c"}),
            (std::set<std::string>{"cc-cube", "complete-exchange", "calmant"}));
}

TEST_F(CompletionCli, OnlyBashIsOffered) {
  const Outcome r = run("completion zsh");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "orthosim completion: expected the shell, bash, found 'zsh'\n");
}

}  // namespace
