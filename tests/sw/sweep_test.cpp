// Unit tests of the sweep's pieces without a child process: the cross product against its size
// formula and odometer order, CSV quoting round trips, and the journal's resume rules (a cut last
// line is dropped, another sweep's journal is refused at its line).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "sw/core/diagnostic.hpp"
#include "sw/sweep/csv_journal.hpp"
#include "sw/sweep/sweep_plan.hpp"
#include "sw/sweep/transport.hpp"
#include "sw/variant/variant.hpp"

namespace {

namespace fs = std::filesystem;
using orthosim::sw::InputError;
using orthosim::sw::parse_variant;
namespace sweep = orthosim::sw::sweep;

sweep::SweepSpec spec_with(std::vector<sweep::Param> params, std::size_t variants) {
  sweep::SweepSpec spec;
  spec.target = "p.mcp";
  for (std::size_t v = 0; v < variants; ++v) {
    spec.variant_paths.push_back("v" + std::to_string(v) + ".yaml");
    spec.variants.push_back(parse_variant("arch: omp\nalpha: 3\n", spec.variant_paths.back()));
  }
  spec.params = std::move(params);
  return spec;
}

TEST(SweepPlan, TheSignatureRefusesAFifoThatEveryPointWouldReadAgain) {
  // The FIFO holds a variant and a writer (this test, through O_RDWR): reading it to hash it
  // would wait for more until the writer closes, and each point's child would find it empty.
  const fs::path fifo = fs::temp_directory_path() / ("sweep_fifo_" + std::to_string(getpid()));
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const int writer = ::open(fifo.c_str(), O_RDWR);
  const std::string text = "arch: omp\n";
  ASSERT_EQ(::write(writer, text.data(), text.size()), static_cast<ssize_t>(text.size()));
  sweep::SweepSpec spec = spec_with({}, 1);
  spec.kind = sweep::TargetKind::Traffic;  // no program file to hash
  spec.variant_paths = {fifo.string()};
  try {
    static_cast<void>(sweep::signature(spec));
    ADD_FAILURE() << "a FIFO was hashed";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              fifo.string() + ": expected a readable sweep input, found a FIFO (this input is "
                              "read more than once: give a regular file)");
  }
  ::close(writer);
  fs::remove(fifo);
}

TEST(SweepPlan, PointsAreTheCrossProductLastParameterFastest) {
  const sweep::SweepSpec spec =
      spec_with({sweep::parse_param("alpha=1,2,3"), sweep::parse_param("gamma=0,8")}, 2);
  const std::vector<sweep::Point> points = sweep::enumerate_points(spec);
  ASSERT_EQ(points.size(), 2u * 3u * 2u);
  for (std::size_t i = 0; i < points.size(); ++i) {
    EXPECT_EQ(points[i].index, i);
    // Mixed radix: i = ((variant * 3) + alpha) * 2 + gamma.
    EXPECT_EQ(points[i].variant, i / 6);
    EXPECT_EQ(points[i].values[0], (i / 2) % 3);
    EXPECT_EQ(points[i].values[1], i % 2);
  }
  EXPECT_EQ(sweep::enumerate_points(spec_with({}, 3)).size(), 3u);
}

TEST(SweepPlan, ARowHasTheHeadersColumnsAndTheOverriddenField) {
  const sweep::SweepSpec spec =
      spec_with({sweep::parse_param("alpha=7"), sweep::parse_param("sync=iwr")}, 1);
  const std::vector<std::string> head = sweep::header(spec);
  const std::vector<std::string> row =
      sweep::row(spec, sweep::enumerate_points(spec)[0], 0,
                 R"({"total_cycles": 40, "payload_ok": true})", 0.5);
  ASSERT_EQ(row.size(), head.size());
  const auto at = [&head](const std::string& name) {
    return static_cast<std::size_t>(std::find(head.begin(), head.end(), name) - head.begin());
  };
  EXPECT_EQ(row[at("alpha")], "7");   // the parameter beats the file's 3
  EXPECT_EQ(row[at("sync")], "iwr");  // a parameter that is not a field has its own column
  EXPECT_EQ(row[at("beta")], "");     // neither the file nor a parameter sets it
  EXPECT_EQ(row[at("cycles")], "40");
  EXPECT_EQ(row[at("payload_ok")], "true");
  EXPECT_EQ(row[at("status")], "ok");
  EXPECT_EQ(head.back(), "wall_s");
  EXPECT_EQ(row.back(), "0.500");
}

TEST(SweepPlan, BadParametersAreNamed) {
  for (const char* bad : {"alpha", "=1,2", "alpha=", "alpha=1,,2", "alpha=1,"}) {
    try {
      static_cast<void>(sweep::parse_param(bad));
      ADD_FAILURE() << bad;
    } catch (const orthosim::sw::ParameterError& e) {
      EXPECT_EQ(e.parameter(), "param") << bad;
    }
  }
}

// A traffic sweep's `--param topology` is the variant's arch (`arch` is --topology for traffic):
// it fills the arch column and has no column of its own. A figure the child printed as null is
// empty, as an absent one.
TEST(SweepPlan, TopologyFillsTheArchColumnAndANullFigureIsEmpty) {
  sweep::SweepSpec spec;
  spec.target = "traffic:uniform";
  spec.kind = sweep::TargetKind::Traffic;
  spec.variant_paths = {"t.yaml"};
  spec.variants = {parse_variant("arch: mesh\ndims: 4x4\n", "t.yaml")};
  spec.params = {sweep::parse_param("rate=0.1"), sweep::parse_param("topology=torus,hypercube")};
  const std::vector<std::string> head = sweep::header(spec);
  EXPECT_EQ(std::count(head.begin(), head.end(), "topology"), 0);
  EXPECT_EQ(std::count(head.begin(), head.end(), "rate"), 1);
  const auto at = [&head](const std::string& name) {
    return static_cast<std::size_t>(std::find(head.begin(), head.end(), name) - head.begin());
  };
  const std::vector<sweep::Point> points = sweep::enumerate_points(spec);
  ASSERT_EQ(points.size(), 2u);
  const std::vector<std::string> row =
      sweep::row(spec, points[1], 1, R"({"latency_avg": null, "deadlocked": true, "offered": 0.1})",
                 2.0);
  ASSERT_EQ(row.size(), head.size());
  EXPECT_EQ(row[at("arch")], "hypercube");
  EXPECT_EQ(row[at("dims")], "4x4");
  EXPECT_EQ(row[at("rate")], "0.1");
  EXPECT_EQ(row[at("latency_avg")], "");
  EXPECT_EQ(row[at("latency_max")], "");
  EXPECT_EQ(row[at("deadlocked")], "true");
  EXPECT_EQ(row[at("status")], "failed");
}

// traffic:PATTERN is a prefix: a program whose path holds "traffic:" is still a program.
TEST(SweepPlan, OnlyATargetThatStartsWithTrafficIsTraffic) {
  EXPECT_EQ(sweep::target_kind("traffic:uniform"), sweep::TargetKind::Traffic);
  EXPECT_EQ(sweep::target_kind("runs/traffic:1.mcp"), sweep::TargetKind::Program);
  EXPECT_EQ(sweep::traffic_pattern("traffic:lcc:3,1"), "lcc:3,1");
  EXPECT_EQ(sweep::child_command(sweep::TargetKind::Traffic), "traffic");
  EXPECT_EQ(sweep::child_command(sweep::TargetKind::Program), "run");
}

TEST(SweepPlan, AParameterWithoutValuesIsToldTheForm) {
  try {
    static_cast<void>(sweep::parse_param("alpha="));
    ADD_FAILURE() << "alpha= was accepted";
  } catch (const orthosim::sw::ParameterError& e) {
    EXPECT_EQ(std::string(e.what()),
              "expected NAME=V1,V2,... (e.g. alpha=8,16,32), found 'alpha='");
  }
}

// The signature hashes each file's bytes in order: two variants that differ only in the order of
// two bytes are two sweeps.
TEST(SweepPlan, TheSignatureTellsFilesWithTheSameBytesInAnotherOrder) {
  const fs::path dir = fs::temp_directory_path() / ("sweep_sig_" + std::to_string(getpid()));
  fs::create_directories(dir);
  sweep::SweepSpec spec = spec_with({sweep::parse_param("alpha=1,2")}, 1);
  spec.kind = sweep::TargetKind::Traffic;  // no program file to hash
  spec.variant_paths = {(dir / "v.yaml").string()};
  std::ofstream(spec.variant_paths[0]) << "arch: omp\nalpha: 12\n";
  const std::string first = sweep::signature(spec);
  std::ofstream(spec.variant_paths[0]) << "arch: omp\nalpha: 21\n";
  const std::string second = sweep::signature(spec);
  EXPECT_NE(first, second);
  // Everything but the hash is the same text: the child, the target, the path, the parameter.
  EXPECT_EQ(first.substr(0, first.find('@')), second.substr(0, second.find('@')));
  EXPECT_EQ(first.substr(first.find(';', first.find('@'))), "; params alpha=1,2");
  // A program target is hashed too: the same path with other contents is another sweep.
  spec.kind = sweep::TargetKind::Program;
  spec.target = (dir / "p.mcp").string();
  std::ofstream(spec.target) << "nodes 2\n";
  const std::string program = sweep::signature(spec);
  std::ofstream(spec.target) << "nodes 4\n";
  EXPECT_NE(sweep::signature(spec), program);
  fs::remove_all(dir);
}

/// The backticked names of the row `| kind | ...` of docs/sweeps.md's CSV table.
std::vector<std::string> documented_figures(const std::string& kind) {
  std::ifstream doc(std::string(ORTHOSIM_SOURCE_DIR) + "/docs/sweeps.md");
  std::vector<std::string> names;
  for (std::string line; std::getline(doc, line);) {
    if (line.rfind("| " + kind + " | ", 0) != 0) {
      continue;
    }
    for (std::size_t tick = line.find('`'); tick != std::string::npos;
         tick = line.find('`', line.find('`', tick + 1) + 1)) {
      names.push_back(line.substr(tick + 1, line.find('`', tick + 1) - tick - 1));
    }
  }
  return names;
}

// The figures' columns are docs/sweeps.md's, in its order, after the status.
TEST(SweepPlan, TheFigureColumnsAreTheDocumentedOnesInTheirOrder) {
  for (const auto& [kind, name] : {std::pair{sweep::TargetKind::Program, "programs"},
                                   std::pair{sweep::TargetKind::Traffic, "traffic"}}) {
    std::vector<std::string> expected = {"status"};
    const std::vector<std::string> documented = documented_figures(name);
    ASSERT_FALSE(documented.empty()) << name;
    expected.insert(expected.end(), documented.begin(), documented.end());
    EXPECT_EQ(sweep::figure_columns(kind), expected) << name;
  }
}

// A row names its own variant file.
TEST(SweepPlan, ARowNamesItsOwnVariant) {
  const sweep::SweepSpec spec = spec_with({sweep::parse_param("gamma=0,8")}, 2);
  const std::vector<sweep::Point> points = sweep::enumerate_points(spec);
  ASSERT_EQ(points.size(), 4u);
  for (const sweep::Point& p : points) {
    EXPECT_EQ(sweep::row(spec, p, 0, "{}", 0.0)[1], "v" + std::to_string(p.index / 2) + ".yaml");
  }
}

TEST(Csv, FieldsRoundTripThroughQuoting) {
  const std::vector<std::string> fields = {"plain", "a,b", "say \"hi\"", "", "im=rtl,bus=model"};
  const std::string line = sweep::csv_line(fields);
  EXPECT_EQ(line, "plain,\"a,b\",\"say \"\"hi\"\"\",,\"im=rtl,bus=model\"");
  EXPECT_EQ(sweep::csv_fields(line), fields);
  EXPECT_THROW(sweep::csv_fields("a,\"b"), std::invalid_argument);
}

// A line break or a quote anywhere in a field is quoted, and a doubled quote inside a quoted field
// is one quote: the field goes on after it.
TEST(Csv, ALineBreakIsQuotedAndADoubledQuoteIsOneQuote) {
  EXPECT_EQ(sweep::csv_line({"a\rb", "c\nd", "e"}), "\"a\rb\",\"c\nd\",e");
  EXPECT_EQ(sweep::csv_fields("\"x\"\"y\",z"), (std::vector<std::string>{"x\"y", "z"}));
}

class JournalTest : public testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        fs::temp_directory_path() / ("orthosim_journal_" + std::to_string(getpid()) + "_" +
                                     testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
    out_ = (dir_ / "r.csv").string();
  }
  void TearDown() override { fs::remove_all(dir_); }
  /// Resuming from a journal of text `journal` for a sweep of `points` points: the refusal's
  /// message (FILE:LINE:COLUMN: ...), or "accepted N" with the N rows it took.
  std::string refusal(const std::string& journal, std::size_t points) {
    std::ofstream(out_ + ".partial") << journal;
    try {
      sweep::Journal j(out_, "sig", head_, points);
      return "accepted " + std::to_string(j.rows().size());
    } catch (const InputError& e) {
      return e.what();
    }
  }
  static std::string slurp(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  fs::path dir_;
  std::string out_;
  const std::vector<std::string> head_ = {"point", "x"};
};

TEST_F(JournalTest, ResumesWithTheWholeRowsAndWritesThemInPointOrder) {
  {
    sweep::Journal j(out_, "sig", head_, 4);
    EXPECT_TRUE(j.rows().empty());
    j.append(2, "2,c");
    j.append(0, "0,a");
  }
  std::ofstream(out_ + ".partial", std::ios::app) << "3,d-cut-by-a-kill";
  sweep::Journal j(out_, "sig", head_, 4);
  ASSERT_EQ(j.rows().size(), 2u);
  EXPECT_EQ(j.rows().at(2), "2,c");
  j.append(3, "3,d");
  j.append(1, "1,b");
  j.finish();
  EXPECT_EQ(slurp(out_), "point,x\n0,a\n1,b\n2,c\n3,d\n");
  EXPECT_FALSE(fs::exists(out_ + ".partial"));
}

// A line cut by a kill is dropped from the file too, not only from the rows read: the rows
// appended after the resume are whole lines, and a second kill and resume finds them intact.
TEST_F(JournalTest, ALineCutByAKillIsDroppedFromTheJournal) {
  {
    sweep::Journal j(out_, "sig", head_, 4);
    j.append(0, "0,a");
  }
  std::ofstream(out_ + ".partial", std::ios::app) << "1,b-cut";
  {
    sweep::Journal j(out_, "sig", head_, 4);
    EXPECT_EQ(j.rows().size(), 1u);
    j.append(1, "1,b");
  }
  EXPECT_EQ(slurp(out_ + ".partial"), "# sig\npoint,x\n0,a\n1,b\n");
  sweep::Journal j(out_, "sig", head_, 4);
  ASSERT_EQ(j.rows().size(), 2u);
  EXPECT_EQ(j.rows().at(0), "0,a");
  EXPECT_EQ(j.rows().at(1), "1,b");
}

// Points are 0..points-1: the last point's row is kept, a row for the point just past the end
// is refused at its line.
TEST_F(JournalTest, ARowPastTheLastPointIsRefused) {
  std::ofstream(out_ + ".partial") << "# sig\npoint,x\n3,d\n";
  {
    sweep::Journal j(out_, "sig", head_, 4);
    ASSERT_EQ(j.rows().size(), 1u);
    EXPECT_EQ(j.rows().at(3), "3,d");
  }
  EXPECT_EQ(refusal("# sig\npoint,x\n3,d\n4,e\n", 4).rfind(out_ + ".partial:4:1: ", 0), 0u);
}

TEST_F(JournalTest, AnotherSweepsJournalOrABrokenRowIsRefusedAtItsLine) {
  EXPECT_EQ(refusal("# other\npoint,x\n", 4).rfind(out_ + ".partial:1:1: ", 0), 0u);
  EXPECT_EQ(refusal("# sig\npoint,x\n0,a\n9,z\n", 4).rfind(out_ + ".partial:4:1: ", 0), 0u);
}

// A row's point is its digits and nothing else, as every number the command line reads: a
// hand-edited " 1", "1x", "+1" or "-1" is not taken for a point (std::stoul took the first three
// as point 1 and "-1" as 2^64 - 1).
TEST_F(JournalTest, ARowsPointIsItsDigitsAndNothingElse) {
  for (const std::string point : {" 1", "1x", "+1", "-1", "0x1", ""}) {
    EXPECT_EQ(refusal("# sig\npoint,x\n0,a\n" + point + ",b\n", 4),
              out_ +
                  ".partial:4:1: expected a point index below 4 (the journal of this sweep; "
                  "remove it to start over), found '" +
                  point + "'");
  }
}

// A point is read from at most 18 digits, which std::stoul always takes: a point of 18 digits is
// read as its number, one of 20 (beyond 2^64 - 1 = 18446744073709551615, which std::stoul throws
// std::out_of_range for) is refused at its line like any other index outside the sweep.
TEST_F(JournalTest, APointOfEighteenDigitsIsReadAndOneOfTwentyIsRefusedAtItsLine) {
  constexpr std::size_t kEighteenNines = 999'999'999'999'999'999;
  std::ofstream(out_ + ".partial") << "# sig\npoint,x\n" << std::string(18, '9') << ",a\n";
  {
    sweep::Journal j(out_, "sig", head_, kEighteenNines + 1);
    ASSERT_EQ(j.rows().size(), 1u);
    EXPECT_EQ(j.rows().count(kEighteenNines), 1u);
  }
  EXPECT_EQ(refusal("# sig\npoint,x\n" + std::string(20, '9') + ",a\n", 4)
                .rfind(out_ + ".partial:3:1: ", 0),
            0u);
}

// A row whose quoted field never ends (RFC 4180 section 2: a field in double quotes ends at its
// closing quote) is refused for what it is, not for its number of columns.
TEST_F(JournalTest, ARowWithAnUnterminatedQuoteIsRefusedForItsQuote) {
  EXPECT_EQ(refusal("# sig\npoint,x\n0,\"a\n", 4),
            out_ +
                ".partial:3:1: expected a row of 2 columns (the journal of this sweep; remove it "
                "to start over), found an unterminated quote");
}

// Each append is on disk when it returns: another reader sees the row while the sweep runs.
TEST_F(JournalTest, ARowIsOnDiskWhenAppendReturns) {
  sweep::Journal j(out_, "sig", head_, 4);
  j.append(1, "1,b");
  EXPECT_EQ(slurp(out_ + ".partial"), "# sig\npoint,x\n1,b\n");
  EXPECT_EQ(j.rows().at(1), "1,b");
}

// A journal cut inside its header is started again with both lines; one with its header and no
// row is resumed as it is.
TEST_F(JournalTest, AJournalCutInItsHeaderIsStartedAgain) {
  std::ofstream(out_ + ".partial") << "# sig\npoi";
  {
    sweep::Journal j(out_, "sig", head_, 4);
    EXPECT_TRUE(j.rows().empty());
    j.append(0, "0,a");
  }
  EXPECT_EQ(slurp(out_ + ".partial"), "# sig\npoint,x\n0,a\n");
}

// The header line must be this sweep's; every row has the header's number of columns; a point
// of several digits is a point.
TEST_F(JournalTest, AnotherHeaderOrARowOfAnotherWidthIsRefusedAtItsLine) {
  const std::string where = out_ + ".partial";
  EXPECT_EQ(refusal("# sig\npoint,y\n", 4).rfind(where + ":2:1: ", 0), 0u);
  EXPECT_EQ(refusal("# sig\npoint,x\n0,a,b\n", 4).rfind(where + ":3:1: ", 0), 0u);
  EXPECT_EQ(refusal("# sig\npoint,x\n0,a\n1\n", 4).rfind(where + ":4:1: ", 0), 0u);
  EXPECT_EQ(refusal("# sig\npoint,x\n12,a\n", 20), "accepted 1");
}

// An OUT written as a stream (here a symbolic link) keeps no journal beside it, and its rows are
// written to it, through the link, at the end.
TEST_F(JournalTest, AStreamGetsNoJournal) {
  const std::string target = (dir_ / "target.csv").string();
  std::ofstream(target) << "";
  fs::create_symlink(target, out_);
  sweep::Journal j(out_, "sig", head_, 2);
  j.append(1, "1,b");
  j.append(0, "0,a");
  EXPECT_FALSE(fs::exists(out_ + ".partial"));
  j.finish();
  EXPECT_TRUE(fs::is_symlink(out_));
  EXPECT_EQ(slurp(target), "point,x\n0,a\n1,b\n");
}

// A row sent between MPI ranks (docs/sweeps.md): the point's index in eight bytes, least
// significant first, then the line. Every byte of the index counts, bytes of 0x80 and more too,
// and the line comes back whole, empty or not.
TEST(RowMessage, ThePointsEightBytesLeastSignificantFirstThenTheLine) {
  const std::string message = sweep::row_message(0x8102030405060788ULL, "a,b");
  EXPECT_EQ(message, std::string("\x88\x07\x06\x05\x04\x03\x02\x81", 8) + "a,b");
  for (const std::uint64_t point :
       {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{255}, std::uint64_t{256},
        std::uint64_t{0x8102030405060788ULL}, ~std::uint64_t{0}}) {
    for (const std::string row : {"", "1,omp,x", "\xff,\x80"}) {
      const auto [back_point, back_row] = sweep::parse_row_message(sweep::row_message(point, row));
      EXPECT_EQ(back_point, point);
      EXPECT_EQ(back_row, row);
    }
  }
  EXPECT_THROW(static_cast<void>(sweep::parse_row_message("1234567")), std::runtime_error);
}

}  // namespace
