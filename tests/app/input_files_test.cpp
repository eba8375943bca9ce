// End-to-end: how the commands read their input files (docs/cli.md, "Input files"). A program
// comes from standard input as `-`; a FIFO without a writer, a zero device, a file over the size
// limit and a directory are refused at once with exit 2 and the file named; bytes that are not
// text stop the read at their line:col; a valid non-ASCII label runs to valid JSON, and a file
// name that is not UTF-8 does not break --json. Every command runs under a time limit, so that
// one that would wait forever fails instead of hanging the suite.
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/cli_process.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using orthosim::testing_support::expect_refused;
using orthosim::testing_support::Outcome;
using orthosim::testing_support::slurp;

const std::string kFig2 = std::string(ORTHOSIM_EXAMPLES_DIR) + "/fig2_sample.mcp";
constexpr int kTimeLimitSeconds = 20;

class InputFiles : public orthosim::testing_support::CliTest {
 protected:
  [[nodiscard]] std::string path(const std::string& name) const { return (dir_ / name).string(); }
  void write(const std::string& name, const std::string& text) const {
    std::ofstream(dir_ / name, std::ios::binary) << text;
  }
  /// Runs `args` with `input` on standard input under the time limit; `seconds` is how long it
  /// took.
  Outcome timed(const std::string& args, double& seconds, const std::string& input = "") const {
    const auto start = std::chrono::steady_clock::now();
    Outcome o = run(args, input, kTimeLimitSeconds);
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return o;
  }
};

TEST_F(InputFiles, AProgramFromStandardInputRunsAsTheSameProgramFromItsFile) {
  double seconds = 0;
  const Outcome piped = timed("run - --json", seconds, slurp(kFig2));
  const Outcome file = run("run '" + kFig2 + "' --json");
  ASSERT_EQ(piped.exit_code, 0) << piped.err;
  ASSERT_EQ(file.exit_code, 0) << file.err;
  json from_stdin = json::parse(piped.out);
  json from_file = json::parse(file.out);
  EXPECT_EQ(from_stdin["program"], "<stdin>");
  EXPECT_EQ(from_file["program"], "fig2_sample");
  from_stdin.erase("program");
  from_file.erase("program");
  EXPECT_EQ(from_stdin, from_file);
  // Its errors are placed in "<stdin>".
  expect_refused(run("map -", "nodes 2\nstep\nsend 0 -> 5\n", kTimeLimitSeconds), "<stdin>:3:");
  // A sweep's children would each read the program again: no standard input there.
  write("omp.yaml", "arch: omp\n");
  expect_refused(run("sweep - --variants omp.yaml --out s.csv", slurp(kFig2), kTimeLimitSeconds),
                 "orthosim sweep: PROGRAM: expected a program file (every point's process reads it "
                 "again), found '-' (standard input)");
  EXPECT_FALSE(fs::exists(dir_ / "s.csv"));
  EXPECT_FALSE(fs::exists(dir_ / "s.csv.partial"));
}

TEST_F(InputFiles, AFifoWithoutWriterIsRefusedAtOnce) {
  ASSERT_EQ(mkfifo(path("p.mcp").c_str(), 0600), 0) << std::strerror(errno);
  double seconds = 0;
  const Outcome o = timed("map p.mcp", seconds);
  expect_refused(o, "p.mcp: expected a readable .mcp file, found no data (a FIFO without a "
                    "writer");
  EXPECT_LT(seconds, 5.0);
  // The trace commands read a file twice: a FIFO is refused before it is opened for data.
  expect_refused(timed("trace stats p.mcp", seconds),
                 "p.mcp: expected a readable trace file, found a FIFO");
}

TEST_F(InputFiles, AZeroDeviceStopsAtItsFirstByte) {
  // A private node with /dev/zero's numbers (1, 5), so that no system file is touched.
  if (mknod(path("zero").c_str(), S_IFCHR | 0600, makedev(1, 5)) != 0) {
    GTEST_SKIP() << "mknod of a character device needs root: " << std::strerror(errno);
  }
  double seconds = 0;
  expect_refused(timed("map zero", seconds),
                 "zero:1:1: expected UTF-8 text, found the byte 0x00 (a control character)");
  EXPECT_LT(seconds, 5.0);
  EXPECT_TRUE(fs::is_character_file(dir_ / "zero"));
}

TEST_F(InputFiles, AFileOverTheSizeLimitIsRefusedBeforeItIsRead) {
  // Sparse: 64 MiB + 1 bytes that take no disk space; a read of them would find a NUL first.
  write("big.mcp", "");
  fs::resize_file(dir_ / "big.mcp", (std::uintmax_t{64} << 20) + 1);
  double seconds = 0;
  expect_refused(timed("map big.mcp", seconds),
                 "big.mcp: expected a readable .mcp file, found a file of 67108865 bytes, more "
                 "than the limit of 64 MiB");
}

TEST_F(InputFiles, ADirectoryIsRefusedWhereverAFileIsRead) {
  fs::create_directory(dir_ / "d");
  write("two.map", "0 1\n");
  const std::string mesh = "run '" + kFig2 + "' --arch mesh --dims 2x2 ";
  const std::pair<std::string, std::string> cases[] = {
      {"map d", "d: expected a readable .mcp file, found a directory"},
      {"access --variant d", "d: expected a readable variant file, found a directory"},
      {mesh + "--embedding d", "d: expected a readable node map file, found a directory"},
      {"trace stats d", "d: expected a readable trace file, found a directory"},
      {"trace plot d --out pl", "d: expected a readable trace file, found a directory"},
  };
  for (const auto& [args, message] : cases) {
    double seconds = 0;
    expect_refused(timed(args, seconds), message);
  }
}

// A socket cannot be opened, nor a block device without its driver: the refusal names the kind
// of file, as for a directory, and not the open's error ("No such device or address").
TEST_F(InputFiles, ASocketAndABlockDeviceAreRefusedByTheirKindWhereverAFileIsRead) {
  const int listener = socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(listener, 0) << std::strerror(errno);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  const std::string socket_path = path("s");
  ASSERT_LT(socket_path.size(), sizeof(address.sun_path));
  std::strncpy(address.sun_path, socket_path.c_str(), sizeof(address.sun_path) - 1);
  ASSERT_EQ(bind(listener, reinterpret_cast<const sockaddr*>(&address), sizeof(address)), 0)
      << std::strerror(errno);
  // A block device of numbers no driver has (major 250 is for local, experimental use).
  const bool block = mknod(path("b").c_str(), S_IFBLK | 0600, makedev(250, 250)) == 0;
  const std::string mesh = "run '" + kFig2 + "' --arch mesh --dims 2x2 ";
  for (const auto& [file, kind] : {std::pair<std::string, std::string>{"s", "a socket"},
                                   std::pair<std::string, std::string>{"b", "a block device"}}) {
    if (file == "b" && !block) {
      continue;  // mknod of a block device needs root
    }
    const std::pair<std::string, std::string> cases[] = {
        {"map " + file, file + ": expected a readable .mcp file, found " + kind + "\n"},
        {"access --variant " + file,
         file + ": expected a readable variant file, found " + kind + "\n"},
        {mesh + "--embedding " + file,
         file + ": expected a readable node map file, found " + kind + "\n"},
        {"trace stats " + file, file + ": expected a readable trace file, found " + kind + "\n"},
    };
    for (const auto& [args, message] : cases) {
      double seconds = 0;
      expect_refused(timed(args, seconds), message, args);
    }
  }
  close(listener);
}

TEST_F(InputFiles, ANulByteAndANonUtf8ByteInALabelAreRefusedAtTheirLineAndColumn) {
  write("nul.mcp", std::string("nodes 2\nstep \"a\0b\"\nsend 0 -> 1\n", 30));
  write("latin1.mcp", "nodes 2\n# caf\xc3\xa9\nstep \"caf\xe9\"\nsend 0 -> 1\n");
  double seconds = 0;
  expect_refused(timed("run nul.mcp --json", seconds),
                 "nul.mcp:2:8: expected UTF-8 text, found the byte 0x00 (a control character)");
  expect_refused(timed("run latin1.mcp --json", seconds),
                 "latin1.mcp:3:10: expected UTF-8 text, found the byte 0xe9 followed by 0x22 "
                 "(not UTF-8)");
}

TEST_F(InputFiles, ANonAsciiLabelRunsToValidJson) {
  const std::string label = "caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x9a\x80";
  write("u.mcp", "nodes 2\nstep \"" + label + "\"\nsend 0 -> 1\n");
  double seconds = 0;
  const Outcome o = timed("run u.mcp --json", seconds);
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const json j = json::parse(o.out);
  ASSERT_TRUE(j.contains("steps")) << o.out;
  EXPECT_EQ(j["steps"][0]["label"], label);
}

TEST_F(InputFiles, AFileNameThatIsNotUtf8IsWrittenToJsonAsTheReplacementCharacter) {
  double seconds = 0;
  ASSERT_EQ(timed("run '" + kFig2 + "' --trace t.trace", seconds).exit_code, 0);
  fs::rename(dir_ / "t.trace", dir_ / "caf\xe9.trace");
  const Outcome o = timed("trace stats 'caf\xe9.trace' --json", seconds);
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_NE(json::parse(o.out).dump().find("caf\xef\xbf\xbd.trace"), std::string::npos) << o.out;
}

}  // namespace
