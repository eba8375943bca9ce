// End-to-end: the GTKWave save file beside every waveform (docs/waveforms.md). Every signal it
// names exists in the waveform with the width its name says, read back by the tests' own VCD
// reader (the FST through GTKWave's fst2vcd); every VCD signal is named once; the groups are the
// blocks in the order the docs give.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/cli_process.hpp"
#include "tests/support/vcd_reader.hpp"

namespace {

using orthosim::testing_support::Outcome;
using orthosim::testing_support::slurp;
using orthosim::testing_support::VcdReader;
namespace fs = std::filesystem;

struct SaveFile {
  std::string dumpfile;
  std::vector<std::string> groups;  ///< in order
  /// Per signal as named ("omp.rb0.master[15:0]"): the group it is in.
  std::vector<std::pair<std::string, std::string>> signals;
};

/// Reads a .gtkw: "[dumpfile] "NAME"", group markers "@800200" / "-NAME" ... "@1000200" /
/// "-NAME", and a "@FLAGS" line before each signal.
SaveFile read_save_file(const fs::path& path) {
  SaveFile s;
  std::istringstream in(slurp(path));
  std::string open_group;
  std::string flags;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("[dumpfile] ", 0) == 0) {
      s.dumpfile = line.substr(12, line.size() - 13);
    } else if (line[0] == '@') {
      flags = line;
    } else if (line[0] == '-') {
      const std::string name = line.substr(1);
      if (flags == "@800200") {
        EXPECT_EQ(open_group, "") << "group " << name << " opens inside " << open_group;
        open_group = name;
        s.groups.push_back(name);
      } else {
        EXPECT_EQ(flags, "@1000200") << line;
        EXPECT_EQ(name, open_group) << "a group ends that is not open";
        open_group.clear();
      }
    } else if (line[0] != '[' && line[0] != '*') {
      EXPECT_NE(open_group, "") << line << " is in no group";
      s.signals.emplace_back(line, open_group);
    }
  }
  EXPECT_EQ(open_group, "") << "unclosed group";
  return s;
}

/// "omp.rb0.master[15:0]" -> {"omp.rb0.master", 16}; "omp.rb0.busy" -> {.., 1}.
std::pair<std::string, std::uint32_t> path_and_width(const std::string& name) {
  const std::size_t bracket = name.rfind('[');
  if (bracket == std::string::npos || name.back() != ']') {
    return {name, 1};
  }
  const std::string range = name.substr(bracket + 1, name.size() - bracket - 2);
  const std::size_t colon = range.find(':');
  EXPECT_EQ(range.substr(colon + 1), "0") << name;
  return {name.substr(0, bracket), static_cast<std::uint32_t>(std::stoul(range) + 1)};
}

class GtkwCli : public orthosim::testing_support::CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    fs::copy_file(std::string(ORTHOSIM_EXAMPLES_DIR) + "/fig2_sample.mcp", dir_ / "fig2.mcp");
  }

  /// Checks that every signal `save` names is in `vcd` with the width its name says.
  static void expect_named_signals_exist(const SaveFile& save, const VcdReader& vcd) {
    for (const auto& [name, group] : save.signals) {
      const auto [path, width] = path_and_width(name);
      ASSERT_TRUE(vcd.has(path)) << name << " (group " << group << ") is not in the waveform";
      EXPECT_EQ(vcd.width(path), width) << name;
    }
  }
};

TEST_F(GtkwCli, TheOmpsSaveFileNamesEveryVcdSignalOnceGroupedPerBlock) {
  const Outcome r = run("run fig2.mcp --arch omp --vcd wave/a.vcd");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const SaveFile save = read_save_file(dir_ / "wave/a.gtkw");
  EXPECT_EQ(save.dumpfile, "a.vcd");
  const VcdReader vcd((dir_ / "wave/a.vcd").string());
  expect_named_signals_exist(save, vcd);
  std::multiset<std::string> named;
  for (const auto& [name, group] : save.signals) {
    named.insert(path_and_width(name).first);
  }
  const std::vector<std::string> all = vcd.paths();
  EXPECT_EQ(named, std::multiset<std::string>(all.begin(), all.end()));
  EXPECT_EQ(save.groups,
            (std::vector<std::string>{"omp buses", "omp processors", "omp bus controllers"}));
  // Each signal in the group of its block's kind: buses rb/cb, processors p, controllers bc.
  for (const auto& [name, group] : save.signals) {
    const std::string block = name.substr(4, name.find('.', 4) - 4);
    const std::string kind = block.substr(0, block.find_first_of("0123456789"));
    const std::map<std::string, std::string> group_of = {{"rb", "omp buses"},
                                                         {"cb", "omp buses"},
                                                         {"p", "omp processors"},
                                                         {"bc", "omp bus controllers"}};
    EXPECT_EQ(group, group_of.at(kind)) << name;
  }
}

TEST_F(GtkwCli, ANetworksRoutersAreGroupedByCoordinate) {
  const Outcome r = run("run fig2.mcp --arch torus --dims 3x2 --vcd t.vcd");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const SaveFile save = read_save_file(dir_ / "t.gtkw");
  expect_named_signals_exist(save, VcdReader((dir_ / "t.vcd").string()));
  std::vector<std::string> expected{"torus processors"};
  for (int y = 0; y < 2; ++y) {
    for (int x = 0; x < 3; ++x) {
      expected.push_back("torus.r(" + std::to_string(x) + "," + std::to_string(y) + ")");
    }
  }
  EXPECT_EQ(save.groups, expected);
  for (const auto& [name, group] : save.signals) {
    if (group != "torus processors") {
      EXPECT_EQ(name.rfind(group + ".", 0), 0u) << name << " is not a signal of " << group;
    }
  }
}

TEST_F(GtkwCli, TheFstsSaveFileNamesSignalsOfEveryVerilatedBlock) {
  // With a VCD of the same name: each has its own save file.
  const Outcome r =
      run("run fig2.mcp --arch omp --impl im=rtl,bus=rtl,memory=rtl --fst w.fst --vcd w.vcd");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_save_file(dir_ / "w.gtkw").dumpfile, "w.vcd");
  const SaveFile save = read_save_file(dir_ / "w.fst.gtkw");
  EXPECT_EQ(save.dumpfile, "w.fst");
  ASSERT_EQ(std::system(("fst2vcd '" + (dir_ / "w.fst").string() + "' > '" +
                         (dir_ / "back.vcd").string() + "' 2>/dev/null")
                            .c_str()),
            0);
  expect_named_signals_exist(save, VcdReader((dir_ / "back.vcd").string()));
  // The omp's verilated blocks: 4 bus controllers, 4 index manipulators, the module array.
  EXPECT_EQ(save.groups.size(), 9u);
  for (const std::string& group : save.groups) {
    EXPECT_NE(std::find_if(save.signals.begin(), save.signals.end(),
                           [&](const auto& s) { return s.first == group + ".clk"; }),
              save.signals.end())
        << group << " has no clock: not a block's top module";
  }
}

TEST_F(GtkwCli, AVcdNamedLikeASaveFileGetsNone) {
  const Outcome r = run("run fig2.mcp --arch omp --vcd w.gtkw");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(VcdReader((dir_ / "w.gtkw").string()).timescale(), "1ns");
}

TEST_F(GtkwCli, NoSaveFileBesideADevice) {
  const Outcome r = run("run fig2.mcp --arch omp --vcd /dev/null");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(fs::exists("/dev/null.gtkw"));
  EXPECT_FALSE(fs::exists("/dev/null.gtkw.partial"));
}

}  // namespace
