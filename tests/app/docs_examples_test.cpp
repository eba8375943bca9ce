// The example outputs the documentation quotes are what this build prints. An example is a line
// "`orthosim ARGS`:" followed by a fenced block: run in an empty folder, `orthosim ARGS` must exit
// 0 and print the block's lines in a row, exactly. Quote only deterministic output this way.
// And every command the READMEs and docs/*.md show in their code blocks runs (DocsCommands).
#include <sys/wait.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <string>
#include <vector>

#include "tests/support/cli_process.hpp"

namespace orthosim {
namespace {

namespace fs = std::filesystem;

struct Example {
  std::string page;   ///< "docs/tables.md"
  std::string where;  ///< "docs/tables.md:123", the line of the command
  std::string args;
  std::size_t first_quoted_line = 0;  ///< the line number of the block's first line
  std::vector<std::string> quoted;
};

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  for (std::size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1) {
    lines.push_back(text.substr(start, end - start));
  }
  if (start < text.size()) {
    lines.push_back(text.substr(start));
  }
  return lines;
}

/// The examples of one page, in order.
std::vector<Example> examples_in(const fs::path& page) {
  const std::vector<std::string> lines = lines_of(testing_support::slurp(page));
  const std::string prefix = "`orthosim ";
  const std::string suffix = "`:";
  std::vector<Example> found;
  for (std::size_t i = 0; i + 2 < lines.size(); ++i) {
    const std::string& line = lines[i];
    if (line.rfind(prefix, 0) != 0 || line.size() < prefix.size() + suffix.size() ||
        line.compare(line.size() - suffix.size(), suffix.size(), suffix) != 0 ||
        !lines[i + 1].empty() || lines[i + 2].rfind("```", 0) != 0) {
      continue;
    }
    Example e;
    e.page = "docs/" + page.filename().string();
    e.where = e.page + ":" + std::to_string(i + 1);
    e.args = line.substr(prefix.size(), line.size() - prefix.size() - suffix.size());
    e.first_quoted_line = i + 4;
    std::size_t k = i + 3;
    for (; k < lines.size() && lines[k].rfind("```", 0) != 0; ++k) {
      e.quoted.push_back(lines[k]);
    }
    EXPECT_LT(k, lines.size()) << e.where << ": the block never ends";
    found.push_back(e);
  }
  return found;
}

class DocsExamples : public testing_support::CliTest {};

// The command line of [PH91] section 5's tables (docs/tables.md) has two examples; every page is
// searched, so an example added anywhere is checked.
TEST_F(DocsExamples, EveryQuotedOutputIsWhatTheProgramPrints) {
  const fs::path docs = fs::path(ORTHOSIM_EXAMPLES_DIR).parent_path() / "docs";
  std::vector<Example> examples;
  std::size_t in_tables = 0;
  for (const fs::directory_entry& entry : fs::directory_iterator(docs)) {
    if (entry.path().extension() == ".md") {
      const std::vector<Example> page = examples_in(entry.path());
      if (entry.path().filename() == "tables.md") {
        in_tables = page.size();
      }
      examples.insert(examples.end(), page.begin(), page.end());
    }
  }
  EXPECT_EQ(in_tables, 2u) << "docs/tables.md quotes a hypercube and a torus example";
  for (const Example& e : examples) {
    ASSERT_FALSE(e.quoted.empty()) << e.where;
    const testing_support::Outcome r = run(e.args);
    EXPECT_EQ(r.exit_code, 0) << e.where << ": orthosim " << e.args << "\n" << r.err;
    const std::vector<std::string> printed = lines_of(r.out);
    // Where the quote starts: its first line (a header) as printed.
    std::size_t at = 0;
    while (at < printed.size() && printed[at] != e.quoted[0]) {
      ++at;
    }
    ASSERT_LT(at, printed.size()) << e.where << ": orthosim " << e.args << " prints no line '"
                                  << e.quoted[0] << "'\n"
                                  << r.out;
    for (std::size_t k = 1; k < e.quoted.size(); ++k) {
      const std::string got = at + k < printed.size() ? printed[at + k] : "(end of output)";
      EXPECT_EQ(e.quoted[k], got) << e.page << ":" << e.first_quoted_line + k << " (orthosim "
                                  << e.args << ")";
    }
  }
}

// ---- The refusals the pages quote ------------------------------------------------------------

// docs/cli.md and docs/lcc.md quote refusals as bare lines, without their command lines (many need
// a file of their own). Those that need none are written here with the command that prints them:
// each must be on its page, and be the one line the command prints on standard error (exit 2).
// Two had drifted from the program (the --fst and --impl lines of docs/cli.md).
TEST_F(DocsExamples, QuotedRefusalsAreWhatTheProgramPrints) {
  const fs::path root = fs::path(ORTHOSIM_EXAMPLES_DIR).parent_path();
  fs::copy_file(fs::path(ORTHOSIM_EXAMPLES_DIR) / "fig2_sample.mcp", dir_ / "p.mcp");
  struct Quoted {
    std::string page, args;
  };
  const std::vector<Quoted> quoted = {
      {"docs/cli.md", "run p.mcp --arch ring"},
      {"docs/cli.md", "run p.mcp --dims 1x4 --arch mesh"},
      {"docs/cli.md", "traffic --topology mesh --dims 4x4 --rate +0.1"},
      {"docs/cli.md", "traffic --topology mesh --dims 3x3 --pattern bitrev"},
      {"docs/cli.md", "gen C7 --nodes 4 --torus 4x4"},
      {"docs/cli.md", "trace stats t.trace --perfetto x.json"},
      {"docs/cli.md", "run p.mcp --dims 4x4"},
      {"docs/cli.md", "run p.mcp --arch mesh --dims 2x2 --routing pcube"},
      {"docs/cli.md", "run p.mcp --arch torus --dims 2x2 --vcs 3"},
      {"docs/cli.md", "traffic --topology hypercube --dim 3 --routing pcube --impl router=rtl"},
      {"docs/cli.md", "access --fst x.fst"},
      {"docs/cli.md", "run p.mcp --trace p.mcp"},
      {"docs/cli.md", "access --impl router=rtl"},
      {"docs/cli.md", "run p.mcp --arch torus --dims 2x2 --impl im=rtl"},
      {"docs/cli.md", "traffic --topology torus --dims 4x4 --impl ni=rtl"},
      {"docs/cli.md", "access --impl memory=rtl"},
      {"docs/cli.md", "access --n 3 --impl im=rtl,bus=rtl"},
      {"docs/cli.md", "access --arch bus --n 8 --impl rtl"},
      {"docs/cli.md", "access --impl processor=rtl"},
      {"docs/cli.md", "access --impl im=rtl,bus=rtl --alpha 70000"},
      {"docs/cli.md", "gen fft --dim 8 --points 2048"},
      {"docs/lcc.md", "lcc --dim 0 --pattern bitrev"},
      {"docs/lcc.md", "lcc --dim 4 --pattern uniform"},
      {"docs/lcc.md", "lcc --dim 7 --pattern transpose"},
      {"docs/lcc.md", "lcc --dim 4 --pattern lcc:1000/01x0/0010/0001,0000"},
      {"docs/lcc.md", "lcc --dim 4 --pattern bitrev --pattern lcc:1/0,0"},
      {"docs/lcc.md", "lcc --dim 4 --pattern bitrev --out /tmp"},
      {"docs/cli.md", "run p.mcp --buffer-words 1"},
      {"docs/cli.md", "run p.mcp --n 4 --n 8"},
      {"docs/cli.md", "gen C1 --nodes 4 --len"},
      {"docs/cli.md", "access --json=yes"},
  };
  for (const Quoted& q : quoted) {
    const testing_support::Outcome r = run(q.args);
    EXPECT_EQ(r.exit_code, 2) << q.args << "\n" << r.err;
    ASSERT_FALSE(r.err.empty()) << q.args;
    const std::string line = r.err.substr(0, r.err.find('\n'));
    EXPECT_EQ(r.err, line + "\n") << q.args;
    const std::vector<std::string> page = lines_of(testing_support::slurp(root / q.page));
    EXPECT_NE(std::find(page.begin(), page.end(), line), page.end())
        << q.page << " does not quote what orthosim " << q.args << " prints:\n"
        << line;
  }
}

// ---- Every command the pages show ------------------------------------------------------------

/// A command line of a page's code block: `orthosim ...` at the start of a line in a fenced block,
/// its `\` continuations joined.
struct ShownCommand {
  std::size_t line = 0;  ///< where it starts
  std::string text;
  /// In a block fenced as ```sh long: a reproduction that takes minutes (the measured tables of
  /// docs/complete-exchange.md), run only when ORTHOSIM_DOCS_LONG=1.
  bool long_running = false;
};

/// The pages whose commands are run: the READMEs and docs/*.md, relative to the checkout.
std::vector<std::string> pages_with_commands() {
  const fs::path root = fs::path(ORTHOSIM_EXAMPLES_DIR).parent_path();
  std::vector<std::string> pages{"README.md", "examples/README.md"};
  std::vector<std::string> docs;
  for (const fs::directory_entry& entry : fs::directory_iterator(root / "docs")) {
    if (entry.path().extension() == ".md") {
      docs.push_back("docs/" + entry.path().filename().string());
    }
  }
  std::sort(docs.begin(), docs.end());
  pages.insert(pages.end(), docs.begin(), docs.end());
  return pages;
}

/// Whether a shown line is a command to run as it is: not a line of output or an error quoted
/// after it ("orthosim run: --dims: ..."), not a synopsis with placeholders (`--dim D`, `[--l L]`,
/// `hypercube|torus`, `...`).
bool runnable(const std::string& text) {
  static const std::regex output(R"(^orthosim [^ ]*:( |$)|^orthosim [0-9])");
  static const std::regex placeholder(R"(\w\|\w|\[|\.\.\.|(^|\s)[A-Z]+(\.[a-z]+)?(\s|$))");
  return !std::regex_search(text, output) && !std::regex_search(text, placeholder);
}

/// The command without what needs a person: a trailing comment, a viewer opened after it
/// (`&& gtkwave FILE`, `| less`).
std::string without_viewers(const std::string& text) {
  static const std::regex comment(R"(\s+#.*$)");
  static const std::regex viewer(R"(\s+(&&\s+gtkwave|\|\s+less)\b.*$)");
  return std::regex_replace(std::regex_replace(text, comment, ""), viewer, "");
}

std::vector<ShownCommand> commands_in(const fs::path& page) {
  const std::vector<std::string> lines = lines_of(testing_support::slurp(page));
  std::vector<ShownCommand> found;
  bool in_block = false;
  bool long_block = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].rfind("```", 0) == 0) {
      in_block = !in_block;
      long_block = in_block && lines[i] == "```sh long";
      continue;
    }
    const std::size_t start = lines[i].find_first_not_of(' ');
    if (!in_block || start == std::string::npos || lines[i].compare(start, 9, "orthosim ") != 0) {
      continue;
    }
    ShownCommand c{i + 1, lines[i].substr(start), long_block};
    while (!c.text.empty() && c.text.back() == '\\' && i + 1 < lines.size()) {
      c.text.pop_back();
      c.text += lines[++i];
    }
    if (runnable(c.text)) {
      c.text = without_viewers(c.text);
      found.push_back(c);
    }
  }
  return found;
}

class DocsCommands : public testing_support::CliTest,
                     public testing::WithParamInterface<std::string> {};

// Every command a page shows runs as shown and exits 0, in order (a command may read what an
// earlier one wrote), in a folder of its own with a copy of examples/ (the examples' page runs
// inside it), through sh, with `orthosim` found on PATH. An option renamed, a file moved or a
// bash-only construct in a page fails here.
TEST_P(DocsCommands, EveryCommandShownRuns) {
  const fs::path root = fs::path(ORTHOSIM_EXAMPLES_DIR).parent_path();
  fs::copy(ORTHOSIM_EXAMPLES_DIR, dir_ / "examples", fs::copy_options::recursive);
  const bool in_examples = GetParam().rfind("examples/", 0) == 0;
  const fs::path work = in_examples ? dir_ / "examples" : dir_;
  const std::string path =
      fs::path(testing_support::orthosim_under_test()).parent_path().string() + ":/usr/bin:/bin";
  const char* run_long = std::getenv("ORTHOSIM_DOCS_LONG");
  const bool long_too = run_long != nullptr && std::string(run_long) == "1";
  std::size_t long_left_out = 0;
  for (const ShownCommand& c : commands_in(root / GetParam())) {
    if (c.long_running && !long_too) {
      ++long_left_out;
      continue;
    }
    std::ofstream(dir_ / "command.sh") << c.text << '\n';
    const std::string shell = "cd '" + work.string() + "' && PATH='" + path +
                              "' timeout -s KILL 300 sh '" + (dir_ / "command.sh").string() +
                              "' >'" + (dir_ / "out").string() + "' 2>'" + (dir_ / "err").string() +
                              "'";
    const int status = std::system(shell.c_str());
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
        << GetParam() << ":" << c.line << ": " << c.text << "\nexit "
        << (WIFEXITED(status) ? WEXITSTATUS(status) : -1) << ": "
        << testing_support::slurp(dir_ / "err");
  }
  if (long_left_out > 0) {
    // Said in the test's output and its XML: never left out silently.
    std::cout << GetParam() << ": " << long_left_out
              << " long command(s) of ```sh long blocks not run (ORTHOSIM_DOCS_LONG=1 runs them)\n";
    RecordProperty("long_commands_not_run", static_cast<int>(long_left_out));
  }
}

INSTANTIATE_TEST_SUITE_P(Pages, DocsCommands, testing::ValuesIn(pages_with_commands()),
                         [](const testing::TestParamInfo<std::string>& page) {
                           std::string name = page.param;
                           for (char& ch : name) {
                             ch = std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
                           }
                           return name;
                         });

// The placeholders and quoted outputs the command scan leaves out, and what it strips.
TEST(DocsCommandScan, RunsCommandsNotSynopsesOrOutputs) {
  EXPECT_TRUE(runnable("orthosim run examples/fig2_sample.mcp --arch omp --alpha 20"));
  EXPECT_TRUE(runnable("orthosim gen C7 --nodes 16 --len 8 > a2a.mcp && orthosim run a2a.mcp"));
  EXPECT_FALSE(runnable("orthosim run: --dims: does not apply to run on the omp"));
  EXPECT_FALSE(runnable("orthosim 0.1.0"));
  EXPECT_FALSE(runnable("orthosim lcc --dim D --pattern transpose"));
  EXPECT_FALSE(runnable("orthosim tables --topology hypercube|torus --m 4 --n 4"));
  EXPECT_FALSE(runnable("orthosim traffic --dim 8 --pattern P --rate 0.5 [--routing pcube]"));
  EXPECT_FALSE(runnable("orthosim lcc --pattern x ..."));
  EXPECT_EQ(without_viewers("orthosim access --vcd x.vcd && gtkwave x.vcd   # look"),
            "orthosim access --vcd x.vcd");
  EXPECT_EQ(without_viewers("orthosim access --impl rtl --fst b.fst && fst2vcd b.fst | less"),
            "orthosim access --impl rtl --fst b.fst && fst2vcd b.fst");
}

}  // namespace
}  // namespace orthosim
