// The example outputs the documentation quotes are what this build prints. An example is a line
// "`orthosim ARGS`:" followed by a fenced block: run in an empty folder, `orthosim ARGS` must exit
// 0 and print the block's lines in a row, exactly. Quote only deterministic output this way.
#include <filesystem>
#include <fstream>
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

class DocsExamples : public testing_support::CliTest {
 protected:
  DocsExamples() : CliTest(ORTHOSIM_BIN) {}
};

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

}  // namespace
}  // namespace orthosim
