// End-to-end: outputs touch only what they own (docs/cli.md, "Output files"). Every output option
// writes a character device (made here with mknod, /dev/null's numbers) or a FIFO as a stream and
// leaves it what it was; directories, empty paths and devices for --fst are refused before the
// run with exit 2; a command that fails leaves no FILE.partial and no folder it created.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "tests/support/cli_process.hpp"
#include "tests/support/special_files.hpp"

namespace {

namespace fs = std::filesystem;

using orthosim::testing_support::FifoReader;
using orthosim::testing_support::is_null_device;
using orthosim::testing_support::make_null_device;
using orthosim::testing_support::Outcome;
using orthosim::testing_support::slurp;

const std::string kExamples = ORTHOSIM_EXAMPLES_DIR;

std::size_t lines(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

class OutputPaths : public orthosim::testing_support::CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    fs::copy_file(kExamples + "/fig2_sample.mcp", dir_ / "fig2.mcp");
    fs::copy_file(kExamples + "/variants/omp.yaml", dir_ / "omp.yaml");
  }

  /// The command of each output option, with OUT where the path goes. Each one runs quickly.
  struct Family {
    std::string option;
    std::string command;  ///< OUT stands for the output path
  };
  static std::vector<Family> file_families() {
    return {
        {"--vcd", "run fig2.mcp --arch omp --vcd OUT"},
        {"--trace", "access --n 2 --trace OUT"},
        {"--out", "gen C1 --nodes 4 --out OUT"},
        {"--out", "sweep fig2.mcp --variants omp.yaml --out OUT"},
        {"--perfetto", "trace export t.trace --perfetto OUT"},
    };
  }
  static std::string with(std::string command, const std::string& out) {
    return command.replace(command.find("OUT"), 3, "'" + out + "'");
  }
  /// An event trace for `trace export` and `trace plot`.
  void make_trace() const {
    const Outcome t = run("access --n 2 --trace t.trace");
    ASSERT_EQ(t.exit_code, 0) << t.err;
  }
  /// Every entry under the test's folder, as relative paths, but run()'s captures.
  [[nodiscard]] std::vector<std::string> entries() const {
    std::vector<std::string> all;
    for (const auto& e : fs::recursive_directory_iterator(dir_)) {
      const std::string name = fs::relative(e.path(), dir_).string();
      if (name != "stdout" && name != "stderr") {
        all.push_back(name);
      }
    }
    std::sort(all.begin(), all.end());
    return all;
  }
};

TEST_F(OutputPaths, EveryOutputOptionStreamsToACharacterDeviceAndLeavesItADevice) {
  if (const std::string why = make_null_device(dir_ / "null"); !why.empty()) {
    GTEST_SKIP() << why;
  }
  make_trace();
  for (const Family& f : file_families()) {
    const Outcome o = run(with(f.command, "null"));
    EXPECT_EQ(o.exit_code, 0) << f.command << ": " << o.err;
    EXPECT_TRUE(is_null_device(dir_ / "null")) << f.command;
    EXPECT_FALSE(fs::exists(dir_ / "null.partial")) << f.command;
    EXPECT_FALSE(fs::exists(dir_ / "null.sorted.partial")) << f.command;
  }
  // trace plot --out is a folder: an SVG in it that is a device is written as a stream.
  fs::create_directories(dir_ / "pl");
  ASSERT_EQ(make_null_device(dir_ / "pl" / "timeline.svg"), "");
  const Outcome plot = run("trace plot t.trace --out pl");
  EXPECT_EQ(plot.exit_code, 0) << plot.err;
  EXPECT_TRUE(is_null_device(dir_ / "pl" / "timeline.svg"));
  EXPECT_FALSE(fs::exists(dir_ / "pl" / "timeline.svg.partial"));
}

TEST_F(OutputPaths, ADeviceThatRefusesTheBytesFailsTheRunAndStaysADevice) {
  // /dev/full's numbers (1, 7): every write fails with ENOSPC.
  if (::mknod((dir_ / "full").c_str(), S_IFCHR | 0666, makedev(1, 7)) != 0) {
    GTEST_SKIP() << "mknod full c 1 7 failed (" << std::strerror(errno)
                 << "): character-device cases need root (CI runs as root)";
  }
  const Outcome o = run("run fig2.mcp --arch omp --vcd full");
  EXPECT_EQ(o.exit_code, 1);
  EXPECT_NE(o.err.find("error: cannot write full"), std::string::npos) << o.err;
  struct stat s {};
  ASSERT_EQ(::lstat((dir_ / "full").c_str(), &s), 0);
  EXPECT_TRUE(S_ISCHR(s.st_mode));
  EXPECT_EQ(minor(s.st_rdev), 7u);
  EXPECT_FALSE(fs::exists(dir_ / "full.partial"));
}

TEST_F(OutputPaths, FstRefusesACharacterDeviceBeforeTheRun) {
  if (const std::string why = make_null_device(dir_ / "null"); !why.empty()) {
    GTEST_SKIP() << why;
  }
  const Outcome o = run("access --n 2 --impl rtl --fst null");
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_EQ(o.err,
            "orthosim access: --fst: expected a writable file path, found 'null' (a character "
            "device: this output is written with seeks and needs a regular file)\n");
  EXPECT_EQ(o.out, "");
  EXPECT_TRUE(is_null_device(dir_ / "null"));
  EXPECT_FALSE(fs::exists(dir_ / "null.partial"));
}

TEST_F(OutputPaths, AFifoIsWrittenAsAStreamToItsReader) {
  ASSERT_EQ(::mkfifo((dir_ / "pipe").c_str(), 0600), 0) << std::strerror(errno);
  std::string streamed;
  {
    FifoReader reader(dir_ / "pipe");
    const Outcome o = run("access --n 2 --trace pipe");
    streamed = reader.finish();
    EXPECT_EQ(o.exit_code, 0) << o.err;
  }
  EXPECT_EQ(streamed.rfind("orthosim-trace 1\n", 0), 0u) << streamed.substr(0, 200);
  ASSERT_GE(streamed.size(), 5u);
  EXPECT_NE(streamed.find(" end\n", streamed.size() - 40), std::string::npos);
  // The same trace as a regular file gives the same bytes.
  ASSERT_EQ(run("access --n 2 --trace t.trace").exit_code, 0);
  EXPECT_EQ(streamed, slurp(dir_ / "t.trace"));
  EXPECT_TRUE(fs::is_fifo(fs::symlink_status(dir_ / "pipe")));
  EXPECT_FALSE(fs::exists(dir_ / "pipe.partial"));
}

TEST_F(OutputPaths, DirectoriesAreRefusedBeforeTheRunAndLeftIntact) {
  make_trace();
  fs::create_directories(dir_ / "empty");
  fs::create_directories(dir_ / "full");
  std::ofstream(dir_ / "full" / "keep.txt") << "kept\n";
  std::vector<Family> families = file_families();
  families.push_back({"--fst", "access --n 2 --impl rtl --fst OUT"});
  const std::vector<std::string> before = entries();
  for (const std::string folder : {"empty", "full"}) {
    for (const Family& f : families) {
      const Outcome o = run(with(f.command, folder));
      EXPECT_EQ(o.exit_code, 2) << f.command << " " << folder;
      EXPECT_EQ(o.out, "") << f.command << " " << folder;
      EXPECT_EQ(lines(o.err), 1u) << o.err;
      EXPECT_NE(o.err.find(": " + f.option + ": expected a writable file path, found '" + folder +
                           "' (a directory)\n"),
                std::string::npos)
          << o.err;
    }
  }
  // The folder options refuse what is not a folder.
  for (const std::string command : {"demo --out t.trace", "trace plot t.trace --out t.trace"}) {
    const Outcome o = run(command);
    EXPECT_EQ(o.exit_code, 2) << command;
    EXPECT_NE(o.err.find("--out: expected a writable folder, found 't.trace' ('t.trace' is a "
                         "regular file, not a folder)"),
              std::string::npos)
        << o.err;
  }
  EXPECT_EQ(entries(), before);
  EXPECT_EQ(slurp(dir_ / "full" / "keep.txt"), "kept\n");
}

TEST_F(OutputPaths, AnEmptyPathIsRefusedBeforeTheRun) {
  for (const Family& f : file_families()) {
    const Outcome o = run(with(f.command, ""));
    EXPECT_EQ(o.exit_code, 2) << f.command;
    EXPECT_EQ(o.out, "") << f.command;
    EXPECT_NE(o.err.find(": " + f.option +
                         ": expected a writable file path, found '' (an empty "
                         "path)\n"),
              std::string::npos)
        << f.command << ": " << o.err;
  }
}

TEST_F(OutputPaths, FailingCommandsLeaveNoPartialFileAndNoFolderTheyCreated) {
  fs::create_directories(dir_ / "adir");
  std::ofstream(dir_ / "bad.trace") << "not a trace\n";
  const std::vector<std::string> before = entries();
  const std::vector<std::string> failing = {
      "sweep fig2.mcp --variants omp.yaml --out adir",
      "access --n 2 --impl rtl --fst adir",
      "trace plot bad.trace --out pl",
      "trace plot bad.trace --out new/pl",
      "demo --trace /proc/orthosim-test/t.trace",
      "run fig2.mcp --arch omp --vcd new/w.vcd --trace /proc/orthosim-test/t.trace",
      "run fig2.mcp --arch mesh --dims 2x2 --vcd new/w.vcd --trace /proc/orthosim-test/t",
  };
  for (const std::string& command : failing) {
    const Outcome o = run(command);
    EXPECT_EQ(o.exit_code, 2) << command << ": " << o.err;
    EXPECT_EQ(o.out, "") << command;
    EXPECT_EQ(entries(), before) << command << ": " << o.err;
  }
}

// Two outputs on one file would both write FILE.partial: the run went through and failed at the
// second rename (exit 1, one output lost). Spelled differently, the path is still one file.
TEST_F(OutputPaths, TwoOutputsOnOneFileAreRefusedBeforeTheRun) {
  std::ofstream(dir_ / "kept.out") << "mine\n";
  fs::create_directories(dir_ / "sub");
  const std::vector<std::string> before = entries();
  struct Case {
    std::string command, second, first;
  };
  const std::vector<Case> cases = {
      {"run fig2.mcp --arch omp --vcd one.out --trace ./one.out", "--trace", "--vcd"},
      {"access --n 2 --vcd sub/../one.out --trace one.out", "--trace", "--vcd"},
      {"run fig2.mcp --arch mesh --dims 2x2 --vcd kept.out --trace kept.out", "--trace", "--vcd"},
      // The waveform's GTKWave save file, w.gtkw beside w.vcd, is the --vcd's too.
      {"run fig2.mcp --arch omp --vcd w.vcd --trace w.gtkw", "--trace",
       "--vcd, as a waveform's GTKWave save file"},
      // demo's waveforms in its --out folder are its own.
      {"demo --out sub --trace sub/omp.vcd", "--trace", "--out"},
      {"demo --trace orthosim-demo/../orthosim-demo/bus.gtkw", "--trace",
       "--out, as a waveform's GTKWave save file"},
  };
  for (const Case& c : cases) {
    const Outcome o = run(c.command);
    EXPECT_EQ(o.exit_code, 2) << c.command << ": " << o.err;
    EXPECT_EQ(o.out, "") << c.command;
    EXPECT_NE(o.err.find(": " + c.second + ": expected a path of its own (" + c.first +
                         " writes that file), found '"),
              std::string::npos)
        << c.command << ": " << o.err;
    EXPECT_EQ(entries(), before) << c.command;
  }
  EXPECT_EQ(slurp(dir_ / "kept.out"), "mine\n");
  // Each output is written to FILE.partial and renamed: one's FILE.partial is another's file too.
  // `--trace w --vcd w.partial` ran with exit 0 and left the VCD in w, the trace nowhere.
  const std::vector<std::pair<std::string, std::string>> partials = {
      {"run fig2.mcp --arch omp --trace w --vcd w.partial",
       "orthosim run: --trace: expected a path of its own (--vcd writes 'w.partial', where this "
       "output is written first), found 'w'\n"},
      {"run fig2.mcp --arch omp --vcd w --trace ./w.partial",
       "orthosim run: --trace: expected a path of its own (--vcd is written to that file first), "
       "found './w.partial'\n"},
      {"demo --out sub --trace sub/omp.gtkw.partial",
       "orthosim demo: --trace: expected a path of its own (--out, as a waveform's GTKWave save "
       "file is written to that file first), found 'sub/omp.gtkw.partial'\n"},
      // A folder another output is written in is no file path: it was refused as "'a' (a
      // directory)" once the run had created it, a directory the user never had.
      {"run fig2.mcp --arch omp --vcd a/b/w.vcd --trace a",
       "orthosim run: --trace: expected a file path, not a folder of another output (--vcd "
       "writes 'a/b/w.vcd' in it), found 'a'\n"},
      {"demo --out a --trace a",
       "orthosim demo: --trace: expected a file path, not a folder of another output (--out "
       "writes 'a/omp.vcd' in it), found 'a'\n"},
      {"run fig2.mcp --arch omp --vcd w.vcd --trace w.vcd/t",
       "orthosim run: --trace: expected a file path in a folder, not in another output (--vcd "
       "writes 'w.vcd'), found 'w.vcd/t'\n"},
  };
  for (const auto& [command, line] : partials) {
    const Outcome o = run(command);
    EXPECT_EQ(o.exit_code, 2) << command;
    EXPECT_EQ(o.err, line) << command;
    EXPECT_EQ(entries(), before) << command;
  }
  // A device is a stream, not a file written and renamed: two outputs may share it.
  const Outcome both = run("access --n 2 --vcd /dev/null --trace /dev/null");
  EXPECT_EQ(both.exit_code, 0) << both.err;
  // Only a waveform brings a save file: a trace of the same stem beside it has r.gtkw to no one.
  const Outcome stems = run("run fig2.mcp --arch omp --vcd r.vcd --trace r.trace");
  EXPECT_EQ(stems.exit_code, 0) << stems.err;
}

// An output on a file the command reads replaced it: `run p.mcp --trace p.mcp` ran and left the
// trace where the program was. Each input (PROGRAM, --variant, --variants, --embedding, a trace
// FILE), by any spelling or a symbolic link, is refused as an output before anything runs, and
// left as it was.
TEST_F(OutputPaths, AnOutputOnAFileTheCommandReadsIsRefusedBeforeTheRun) {
  make_trace();
  ASSERT_EQ(run("lcc --dim 2 --pattern bitrev --out n.map").exit_code, 0);
  fs::create_symlink("fig2.mcp", dir_ / "link.mcp");
  fs::create_symlink("omp.yaml", dir_ / "to-variant");
  fs::copy_file(dir_ / "omp.yaml", dir_ / "omp.vcd");          // a variant file of an odd name
  fs::create_hard_link(dir_ / "fig2.mcp", dir_ / "hard.mcp");  // the program by another name
  fs::copy_file(dir_ / "t.trace", dir_ / "timeline.svg");      // a trace of an odd name
  fs::create_directories(dir_ / "pics");
  fs::create_symlink("../t.trace", dir_ / "pics" / "timeline.svg");
  const std::vector<std::string> before = entries();
  const std::string program = slurp(dir_ / "fig2.mcp");
  const std::string variant = slurp(dir_ / "omp.yaml");
  const std::string trace = slurp(dir_ / "t.trace");
  const std::string map = slurp(dir_ / "n.map");
  struct Case {
    std::string command, output, input;
  };
  const std::vector<Case> cases = {
      {"run fig2.mcp --arch omp --trace fig2.mcp", "--trace", "PROGRAM"},
      {"run fig2.mcp --arch omp --vcd ./fig2.mcp", "--vcd", "PROGRAM"},
      {"run link.mcp --arch omp --trace fig2.mcp", "--trace", "PROGRAM"},
      {"run fig2.mcp --arch omp --trace hard.mcp", "--trace", "PROGRAM"},
      {"run fig2.mcp --variant omp.yaml --trace sub/../omp.yaml", "--trace", "--variant"},
      {"run fig2.mcp --arch mesh --dims 2x2 --embedding n.map --vcd n.map", "--vcd", "--embedding"},
      {"traffic --topology hypercube --dim 2 --embedding n.map --trace n.map", "--trace",
       "--embedding"},
      {"access --n 2 --variant omp.yaml --trace omp.yaml", "--trace", "--variant"},
      {"sweep fig2.mcp --variants omp.yaml --out fig2.mcp", "--out", "PROGRAM"},
      {"sweep fig2.mcp --variants omp.yaml --out omp.yaml", "--out", "--variants"},
      {"trace export t.trace --perfetto t.trace", "--perfetto", "FILE"},
      // A symbolic link to an input is written through, into the input.
      {"run fig2.mcp --arch omp --trace link.mcp", "--trace", "PROGRAM"},
      {"access --n 2 --variant omp.yaml --vcd to-variant", "--vcd", "--variant"},
      // demo's waveforms in its --out folder are outputs too.
      {"demo --out . --variant omp.vcd", "--out", "--variant"},
      // So are the pictures of trace plot: its timeline.svg replaced the trace it drew.
      {"trace plot timeline.svg --out .", "--out", "FILE"},
      {"trace plot t.trace --out pics", "--out", "FILE"},
  };
  // An output is written to PATH.partial first: an input of that name was renamed over PATH.
  // sweep writes its CSV to OUT.sorted.partial before the rename (a variant of that name became
  // the CSV), and the GTKWave save file beside --vcd w.vcd goes to w.gtkw.partial first (a
  // program of that name became w.gtkw: the check looked at w.vcd.partial).
  struct PartialCase {
    std::string original, input, command, refusal;
    std::vector<std::string> not_written;
  };
  const std::vector<PartialCase> partial_cases = {
      {"fig2.mcp",
       "f.partial",
       "run f.partial --arch omp --trace f",
       "orthosim run: --trace: expected a path of its own (PROGRAM reads 'f.partial', which the "
       "output is written to first), found 'f'\n",
       {}},
      {"omp.yaml",
       "r.csv.sorted.partial",
       "sweep fig2.mcp --variants r.csv.sorted.partial --out r.csv",
       "orthosim sweep: --out: expected a path of its own (--variants reads "
       "'r.csv.sorted.partial', which the output is written to first), found 'r.csv'\n",
       {"r.csv"}},
      {"fig2.mcp",
       "w.gtkw.partial",
       "run w.gtkw.partial --arch omp --vcd w.vcd",
       "orthosim run: --vcd: expected a path of its own (PROGRAM reads 'w.gtkw.partial', which "
       "the output is written to first), found 'w.vcd'\n",
       {"w.gtkw", "w.vcd"}},
  };
  for (const PartialCase& c : partial_cases) {
    fs::copy_file(dir_ / c.original, dir_ / c.input);
    EXPECT_EQ(run(c.command).err, c.refusal) << c.command;
    EXPECT_EQ(slurp(dir_ / c.input), slurp(dir_ / c.original)) << c.command;
    for (const std::string& output : c.not_written) {
      EXPECT_FALSE(fs::exists(dir_ / output)) << c.command << ": " << output;
    }
    fs::remove(dir_ / c.input);
  }
  fs::create_directories(dir_ / "sub");
  for (const Case& c : cases) {
    const Outcome o = run(c.command);
    EXPECT_EQ(o.exit_code, 2) << c.command << ": " << o.err;
    EXPECT_EQ(o.out, "") << c.command;
    EXPECT_NE(o.err.find(": " + c.output + ": expected a path of its own (" + c.input +
                         " reads that file), found '"),
              std::string::npos)
        << c.command << ": " << o.err;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << c.command << ": " << o.err;
  }
  fs::remove(dir_ / "sub");
  EXPECT_EQ(entries(), before);
  EXPECT_EQ(slurp(dir_ / "fig2.mcp"), program);
  EXPECT_EQ(slurp(dir_ / "omp.yaml"), variant);
  EXPECT_EQ(slurp(dir_ / "t.trace"), trace);
  EXPECT_EQ(slurp(dir_ / "timeline.svg"), trace);
  EXPECT_EQ(slurp(dir_ / "n.map"), map);
}

// '-' is standard input for a PROGRAM; an output named '-' was written to a file of that name.
TEST_F(OutputPaths, ADashIsNotTakenForStandardOutput) {
  make_trace();
  const std::vector<std::string> before = entries();
  for (const Family& f : file_families()) {
    const Outcome o = run(with(f.command, "-"));
    EXPECT_EQ(o.exit_code, 2) << f.command << ": " << o.err;
    EXPECT_EQ(o.out, "") << f.command;
    EXPECT_NE(o.err.find(": " + f.option + ": expected a path ('-' is not standard output here; " +
                         "/dev/stdout is), found '-'\n"),
              std::string::npos)
        << f.command << ": " << o.err;
    EXPECT_EQ(entries(), before) << f.command;
  }
  EXPECT_EQ(run("demo --out -").exit_code, 2);
  EXPECT_FALSE(fs::exists(dir_ / "-"));
  // A file named '-' is an output like any other when spelled as a path, also while the program
  // comes from standard input: that program is no file the output would replace.
  const Outcome dashed = run("run - --arch omp --trace ./-", slurp(dir_ / "fig2.mcp"), 60);
  EXPECT_EQ(dashed.exit_code, 0) << dashed.err;
  EXPECT_TRUE(fs::is_regular_file(dir_ / "-"));
}

// --json prints JSON on standard output; an output streamed there too (/dev/stdout, or the file
// the shell redirected standard output into) would make it something else.
TEST_F(OutputPaths, WithJsonNoOutputIsStandardOutput) {
  const std::vector<std::string> before = entries();
  // run() captures standard output in the file "stdout" of the test's folder.
  const std::vector<std::string> commands = {
      "run fig2.mcp --arch omp --json --vcd /dev/stdout",
      "access --n 2 --json --trace stdout",
      "lcc --dim 4 --pattern bitrev --json --out /dev/stdout",
  };
  for (const std::string& command : commands) {
    const Outcome o = run(command);
    EXPECT_EQ(o.exit_code, 2) << command << ": " << o.err;
    EXPECT_EQ(o.out, "") << command;
    EXPECT_NE(o.err.find("expected a path other than standard output, where --json writes"),
              std::string::npos)
        << command << ": " << o.err;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << command << ": " << o.err;
    EXPECT_EQ(entries(), before) << command;
  }
  // Standard output on the null device with an output there too: both discarded, nothing mixed.
  const int discarded = std::system(("cd '" + dir_.string() + "' && '" +
                                     orthosim::testing_support::orthosim_under_test() +
                                     "' access --n 2 --json --trace /dev/null >/dev/null 2>&1")
                                        .c_str());
  EXPECT_TRUE(WIFEXITED(discarded) && WEXITSTATUS(discarded) == 0) << discarded;
  // Without --json the documented stream to /dev/stdout stays (docs/cli.md, "Output files").
  const Outcome table = run("access --n 2 --trace /dev/stdout");
  EXPECT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("cycles (measured)"), std::string::npos) << table.out;
}

TEST_F(OutputPaths, TheErrorNamesTheOptionThePathAndWhatItIs) {
  fs::create_directories(dir_ / "adir");
  const Outcome o = run("run fig2.mcp --arch omp --vcd adir");
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_EQ(o.err,
            "orthosim run: --vcd: expected a writable file path, found 'adir' (a directory)\n");
  EXPECT_EQ(o.out, "");
  EXPECT_TRUE(fs::is_empty(dir_ / "adir"));
  // demo's waveforms are named by its --out folder: a folder in the place of one is reported
  // against --out, the option the user gave.
  fs::create_directories(dir_ / "demo" / "crossbar.vcd");
  const Outcome demo = run("demo --out demo");
  EXPECT_EQ(demo.exit_code, 2);
  EXPECT_EQ(demo.err,
            "orthosim demo: --out: expected a writable file path, found 'demo/crossbar.vcd' (a "
            "directory)\n");
  EXPECT_EQ(demo.out, "");
  EXPECT_TRUE(fs::is_empty(dir_ / "demo" / "crossbar.vcd"));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_ / "demo"), fs::directory_iterator()), 1)
      << "the omp's waveform, opened first, is not left behind";
}

}  // namespace
