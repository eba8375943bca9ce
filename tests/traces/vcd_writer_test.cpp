// The VCD writer (IEEE 1364 section 18): no $date, so equal runs give equal bytes (toolchain fact 5,
// rule 5); same-time changes written in variable order whatever order they were announced in;
// the last same-time change wins; future changes wait for flush_before; unchanged values are not
// written; the file appears under its name only on commit. Files are read back with the
// independent tests/support/vcd_reader.hpp.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/vcd_reader.hpp"
#include "traces/gtkw.hpp"
#include "traces/vcd_writer.hpp"

namespace orthosim {
namespace {

namespace fs = std::filesystem;
using testing_support::VcdReader;
using traces::VcdWriter;

class VcdWriterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("orthosim_vcd_writer_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  [[nodiscard]] std::string path(const std::string& name) const { return (dir_ / name).string(); }

  static std::string slurp(const std::string& file) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }

  /// The "#time" stamps of a dump, in file order.
  static std::vector<std::uint64_t> stamps(const std::string& text) {
    std::vector<std::uint64_t> out;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
      if (!line.empty() && line[0] == '#') {
        out.push_back(std::stoull(line.substr(1)));
      }
    }
    return out;
  }

  fs::path dir_;
};

using Changes = std::vector<std::pair<std::uint64_t, std::uint64_t>>;

TEST_F(VcdWriterTest, HasNoDateAndTheGivenTimescale) {
  for (std::uint32_t scale : {1u, 10u}) {
    const std::string file = path("t" + std::to_string(scale) + ".vcd");
    {
      VcdWriter w(file, scale);
      const auto v = w.add_var("sys.p0.op", 4);
      w.change(3, v, 2);
      w.commit(10);
    }
    const std::string text = slurp(file);
    EXPECT_EQ(text.find("$date"), std::string::npos) << text;
    const VcdReader r(file);
    EXPECT_FALSE(r.has_date());
    EXPECT_EQ(r.timescale(), std::to_string(scale) + "ns");
  }
}

/// (time, (variable, value)): one announced change.
using Announced = std::vector<std::pair<std::uint64_t, std::pair<std::uint32_t, std::uint64_t>>>;

/// Writes the same changes to `file`, announcing them in the given order.
void write_dump(const std::string& file, const Announced& changes) {
  VcdWriter w(file, 1);
  std::vector<VcdWriter::VarId> vars;
  const std::vector<std::pair<std::string, std::uint32_t>> declared = {{"sys.bc0.addr", 16},
                                                                       {"sys.bc0.valid", 1},
                                                                       {"sys.rb0.busy", 1},
                                                                       {"sys.p1.op", 16}};
  for (const auto& [name, width] : declared) {
    vars.push_back(w.add_var(name, width));
  }
  for (const auto& [time, change] : changes) {
    w.change(time, vars.at(change.first), change.second);
  }
  w.commit(40);
}

TEST_F(VcdWriterTest, SameTimeAnnouncementOrderDoesNotChangeTheBytes) {
  const std::string a = path("a.vcd");
  const std::string b = path("b.vcd");
  write_dump(a, {{5, {0, 0x12}},
                 {5, {1, 1}},
                 {5, {2, 1}},
                 {5, {3, 6}},
                 {9, {0, 0x34}},
                 {9, {2, 0}},
                 {20, {1, 0}},
                 {20, {3, 2}}});
  write_dump(b, {{9, {2, 0}},
                 {5, {3, 6}},
                 {20, {3, 2}},
                 {5, {2, 1}},
                 {9, {0, 0x34}},
                 {5, {0, 0x12}},
                 {20, {1, 0}},
                 {5, {1, 1}}});
  const std::string text_a = slurp(a);
  ASSERT_FALSE(text_a.empty());
  EXPECT_EQ(text_a, slurp(b));
  const VcdReader r(a);
  EXPECT_EQ(r.at("sys.bc0.addr", 5), 0x12u);
  EXPECT_EQ(r.at("sys.bc0.addr", 9), 0x34u);
  EXPECT_EQ(r.at("sys.rb0.busy", 8), 1u);
  EXPECT_EQ(r.at("sys.rb0.busy", 9), 0u);
  EXPECT_EQ(r.at("sys.p1.op", 25), 2u);
}

TEST_F(VcdWriterTest, EqualRunsGiveEqualBytes) {
  const Announced changes = {{1, {0, 7}}, {2, {1, 1}}, {2, {0, 9}}, {3, {2, 1}}, {4, {3, 15}}};
  write_dump(path("first.vcd"), changes);
  write_dump(path("second.vcd"), changes);
  EXPECT_EQ(slurp(path("first.vcd")), slurp(path("second.vcd")));
}

TEST_F(VcdWriterTest, LastChangeAtOneTimeWins) {
  const std::string file = path("last.vcd");
  {
    VcdWriter w(file, 1);
    const auto v = w.add_var("sys.bc0.data", 32);
    w.change(5, v, 1);
    w.change(5, v, 0xCAFE);
    w.change(6, v, 3);
    w.change(6, v, 0xCAFE);  // back to the value it already has: nothing happens at 6
    w.commit(10);
  }
  const VcdReader r(file);
  EXPECT_EQ(r.changes("sys.bc0.data"), (Changes{{0, 0}, {5, 0xCAFE}}));
  EXPECT_EQ(stamps(slurp(file)), (std::vector<std::uint64_t>{0, 5, 10}));
}

TEST_F(VcdWriterTest, ChangeAtTimeZeroOverridesTheInitialValue) {
  const std::string file = path("zero.vcd");
  {
    VcdWriter w(file, 1);
    const auto v = w.add_var("sys.p0.op", 4);
    const auto other = w.add_var("sys.p1.op", 4);
    w.change(0, v, 6);
    w.change(2, other, 1);
    w.commit(3);
  }
  const VcdReader r(file);
  EXPECT_EQ(r.at("sys.p0.op", 0), 6u);
  EXPECT_EQ(r.at("sys.p1.op", 0), 0u);
  EXPECT_EQ(r.at("sys.p1.op", 2), 1u);
  EXPECT_EQ(stamps(slurp(file)), (std::vector<std::uint64_t>{0, 2, 3}));
}

TEST_F(VcdWriterTest, FutureChangesAreHeldUntilFlushed) {
  const std::string file = path("held.vcd");
  {
    VcdWriter w(file, 1);
    const auto v = w.add_var("sys.p0.pc", 16);
    w.change(10, v, 1);
    w.flush_before(5);
    // The change at 10 is still pending, so an earlier one may still come.
    EXPECT_NO_THROW(w.change(7, v, 2));
    w.flush_before(8);
    w.change(12, v, 3);
    w.commit(30);
  }
  const std::string text = slurp(file);
  EXPECT_EQ(stamps(text), (std::vector<std::uint64_t>{0, 7, 10, 12, 30}));
  const VcdReader r(file);
  const std::map<std::uint64_t, std::uint64_t> model = {{0, 0}, {7, 2}, {10, 1}, {12, 3}};
  for (std::uint64_t t = 0; t <= 30; ++t) {
    std::uint64_t expected = 0;
    for (const auto& [at, value] : model) {
      if (at <= t) {
        expected = value;
      }
    }
    EXPECT_EQ(r.at("sys.p0.pc", t), expected) << "t=" << t;
  }
  EXPECT_EQ(r.end_time(), 30u);
}

TEST_F(VcdWriterTest, UnchangedValueIsNotWritten) {
  const std::string file = path("same.vcd");
  {
    VcdWriter w(file, 1);
    const auto v = w.add_var("sys.rb1.master", 16);
    const auto bit = w.add_var("sys.rb1.busy", 1);
    w.change(3, v, 0);  // the initial value
    w.change(4, v, 5);
    w.change(8, v, 5);    // unchanged
    w.change(9, bit, 0);  // unchanged
    w.commit(12);
  }
  const std::string text = slurp(file);
  EXPECT_EQ(stamps(text), (std::vector<std::uint64_t>{0, 4, 12}));
  const VcdReader r(file);
  EXPECT_EQ(r.changes("sys.rb1.master"), (Changes{{0, 0}, {4, 5}}));
  EXPECT_EQ(r.changes("sys.rb1.busy"), (Changes{{0, 0}}));
}

// Brute force: a handful of variables of several widths, each with its own change list; the
// reader's value at every time must be the last change at or before that time.
TEST_F(VcdWriterTest, ValueAtTimeMatchesTheChangeList) {
  struct Var {
    std::string path;
    std::uint32_t width;
    std::map<std::uint64_t, std::uint64_t> changes;
  };
  const std::vector<Var> vars = {
      {"omp.bc0.valid", 1, {{2, 1}, {3, 0}, {7, 1}, {11, 0}}},
      {"omp.bc0.addr", 32, {{1, 0xDEADBEEF}, {2, 0}, {9, 0xFFFFFFFF}}},
      {"omp.bc0.sel", 16, {{4, 0xBEEF}, {5, 1}, {6, 0x8000}}},
      {"omp.p3.op", 4, {{0, 9}, {13, 4}}},
      {"omp.wide", 64, {{3, 0xFFFFFFFFFFFFFFFFull}, {8, 0x8000000000000001ull}}},
  };
  const std::string file = path("values.vcd");
  {
    VcdWriter w(file, 1);
    std::vector<VcdWriter::VarId> ids;
    for (const Var& v : vars) {
      ids.push_back(w.add_var(v.path, v.width));
    }
    // Announce latest variables first, to exercise the reorder buffer.
    for (std::size_t i = vars.size(); i-- > 0;) {
      for (const auto& [t, value] : vars[i].changes) {
        w.change(t, ids[i], value);
      }
    }
    w.commit(15);
  }
  const VcdReader r(file);
  for (const Var& v : vars) {
    ASSERT_TRUE(r.has(v.path)) << v.path;
    for (std::uint64_t t = 0; t <= 15; ++t) {
      std::uint64_t expected = 0;
      for (const auto& [at, value] : v.changes) {
        if (at <= t) {
          expected = value;
        }
      }
      EXPECT_EQ(r.at(v.path, t), expected) << v.path << " t=" << t;
    }
  }
}

TEST_F(VcdWriterTest, ValuesAreCutToTheDeclaredWidth) {
  const std::string file = path("width.vcd");
  {
    VcdWriter w(file, 1);
    const auto nibble = w.add_var("sys.p0.op", 4);
    const auto bit = w.add_var("sys.bc0.rw", 1);
    w.change(1, nibble, 0x1F);
    w.change(1, bit, 3);
    w.commit(2);
  }
  const VcdReader r(file);
  EXPECT_EQ(r.at("sys.p0.op", 1), 0xFu);
  EXPECT_EQ(r.at("sys.bc0.rw", 1), 1u);
}

// More variables than one identifier character can name (94): every one reads back its own value.
TEST_F(VcdWriterTest, ManyVariablesKeepDistinctIdentities) {
  constexpr std::uint32_t kVars = 300;
  const std::string file = path("many.vcd");
  {
    VcdWriter w(file, 1);
    std::vector<VcdWriter::VarId> ids;
    for (std::uint32_t i = 0; i < kVars; ++i) {
      ids.push_back(w.add_var("sys.s" + std::to_string(i % 7) + ".v" + std::to_string(i), 16));
    }
    for (std::uint32_t i = 0; i < kVars; ++i) {
      w.change(1 + i % 5, ids[i], 1000 + i);
    }
    w.commit(10);
  }
  const VcdReader r(file);
  for (std::uint32_t i = 0; i < kVars; ++i) {
    const std::string p = "sys.s" + std::to_string(i % 7) + ".v" + std::to_string(i);
    ASSERT_TRUE(r.has(p)) << p;
    EXPECT_EQ(r.at(p, 0), 0u) << p;
    EXPECT_EQ(r.at(p, 10), 1000u + i) << p;
    EXPECT_EQ(r.changes(p).size(), 2u) << p;
  }
}

TEST_F(VcdWriterTest, ScopesFollowTheDottedPaths) {
  const std::string file = path("scopes.vcd");
  const std::vector<std::string> paths = {"omp.p0.op",    "crossbar.bc1.addr",
                                          "omp.bc1.addr", "omp.p0.pc",
                                          "top",          "omp.rb0.busy"};
  {
    VcdWriter w(file, 1);
    for (const std::string& p : paths) {
      w.add_var(p, 8);
    }
    w.commit(1);
  }
  const VcdReader r(file);
  for (const std::string& p : paths) {
    EXPECT_TRUE(r.has(p)) << p;
  }
  const std::string text = slurp(file);
  std::size_t opens = 0;
  std::size_t closes = 0;
  for (std::size_t at = text.find("$scope"); at != std::string::npos;
       at = text.find("$scope", at + 1)) {
    ++opens;
  }
  for (std::size_t at = text.find("$upscope"); at != std::string::npos;
       at = text.find("$upscope", at + 1)) {
    ++closes;
  }
  EXPECT_EQ(opens, closes);
}

// IEEE 1364 18.2.3.5: an identifier code is printable ASCII, '!' (33) to '~' (126), and names
// one variable. 200 variables need codes of two characters.
TEST_F(VcdWriterTest, IdentifierCodesArePrintableAndDistinct) {
  constexpr std::uint32_t kVars = 200;
  const std::string file = path("codes.vcd");
  {
    VcdWriter w(file, 1);
    for (std::uint32_t i = 0; i < kVars; ++i) {
      w.add_var("sys.v" + std::to_string(i), 1);
    }
    w.commit(1);
  }
  std::istringstream in(slurp(file));
  std::set<std::string> codes;
  std::string token;
  while (in >> token) {
    if (token == "$var") {
      std::string kind, width, code;
      in >> kind >> width >> code;
      for (const char c : code) {
        EXPECT_GE(c, '!') << "code of variable " << codes.size();
        EXPECT_LE(c, '~') << "code of variable " << codes.size();
      }
      EXPECT_TRUE(codes.insert(code).second) << "code " << code << " used twice";
    }
  }
  EXPECT_EQ(codes.size(), kVars);
}

// The header is closed by the first change: a variable or comment declared after it could not be
// read by any viewer, so it is refused.
TEST_F(VcdWriterTest, DeclarationsAfterTheHeaderAreRejected) {
  VcdWriter w(path("late.vcd"), 1);
  const auto v = w.add_var("sys.p0.op", 4);
  w.change(1, v, 2);
  w.flush_before(2);
  EXPECT_THROW(w.add_var("sys.p1.op", 4), std::logic_error);
  EXPECT_THROW(w.add_comment("clock-ns 20"), std::logic_error);
}

// IEEE 1364 18.2.1: the declarations ($comment, $timescale, $scope, $var) come before the one
// $enddefinitions, and the value changes after it.
TEST_F(VcdWriterTest, CommentsAndVariablesAreDeclaredBeforeEnddefinitions) {
  const std::string file = path("header.vcd");
  {
    VcdWriter w(file, 1);
    w.add_comment("clock-ns 20");
    const auto v = w.add_var("sys.p0.op", 4);
    w.change(3, v, 2);
    w.commit(5);
  }
  const std::string text = slurp(file);
  const std::size_t end_of_definitions = text.find("$enddefinitions $end");
  ASSERT_NE(end_of_definitions, std::string::npos) << text;
  EXPECT_EQ(text.find("$enddefinitions", end_of_definitions + 1), std::string::npos) << text;
  const std::size_t comment = text.find("$comment clock-ns 20 $end");
  ASSERT_NE(comment, std::string::npos) << text;
  EXPECT_LT(comment, end_of_definitions);
  EXPECT_LT(text.find("$var"), end_of_definitions);
  EXPECT_LT(end_of_definitions, text.find("#0"));
}

// A vector wider than 64 bits holds the 64-bit value in its low bits: every bit above is 0.
TEST_F(VcdWriterTest, VectorWiderThan64BitsHasZerosAboveTheValue) {
  const std::string file = path("wide.vcd");
  const std::uint64_t top_and_bottom = 0x8000000000000001ull;
  {
    VcdWriter w(file, 1);
    const auto v = w.add_var("sys.p0.word", 70);
    w.change(1, v, 1);
    w.change(2, v, top_and_bottom);
    w.commit(3);
  }
  std::istringstream in(slurp(file));
  std::vector<std::string> vectors;
  std::string token;
  while (in >> token) {
    if (token[0] == 'b') {
      vectors.push_back(token.substr(1));
    }
  }
  ASSERT_EQ(vectors.size(), 3u);  // the initial 0, then the two changes
  for (const std::string& bits : vectors) {
    const std::size_t above = bits.size() > 64 ? bits.size() - 64 : 0;
    EXPECT_EQ(bits.substr(0, above).find('1'), std::string::npos) << bits;
  }
  const VcdReader r(file);
  EXPECT_EQ(r.at("sys.p0.word", 1), 1u);
  EXPECT_EQ(r.at("sys.p0.word", 2), top_and_bottom);
}

// A change at the end time is part of the dump, under the one stamp of that time (IEEE 1364
// 18.2.1: simulation times strictly increase).
TEST_F(VcdWriterTest, ChangeAtTheEndTimeIsWrittenUnderOneStamp) {
  const std::string file = path("end.vcd");
  {
    VcdWriter w(file, 1);
    const auto v = w.add_var("sys.bc0.valid", 1);
    w.change(4, v, 1);
    w.change(10, v, 0);
    w.commit(10);
  }
  EXPECT_EQ(stamps(slurp(file)), (std::vector<std::uint64_t>{0, 4, 10}));
  EXPECT_EQ(VcdReader(file).changes("sys.bc0.valid"), (Changes{{0, 0}, {4, 1}, {10, 0}}));
}

// A change that keeps the value writes nothing, not even its time: the dump still ends at the end
// time given to commit.
TEST_F(VcdWriterTest, DumpEndsAtTheEndTimeWhenTheLastChangeKeptTheValue) {
  const std::string file = path("kept.vcd");
  {
    VcdWriter w(file, 1);
    const auto v = w.add_var("sys.p0.op", 4);
    w.change(4, v, 3);
    w.change(10, v, 3);
    w.commit(10);
  }
  EXPECT_EQ(stamps(slurp(file)), (std::vector<std::uint64_t>{0, 4, 10}));
  EXPECT_EQ(VcdReader(file).end_time(), 10u);
}

// flush_before(t) writes only what is before t: changes at t announced after it still join the
// same time, in variable order, each variable once with the last value announced.
TEST_F(VcdWriterTest, FlushBeforeATimeLeavesThatTimeOpen) {
  const std::string file = path("open.vcd");
  const std::string other = path("other.vcd");
  for (const bool flush_between : {true, false}) {
    VcdWriter w(flush_between ? file : other, 1);
    const auto first = w.add_var("sys.p0.op", 4);
    const auto second = w.add_var("sys.p1.op", 4);
    w.change(5, second, 1);
    if (flush_between) {
      w.flush_before(5);
    }
    w.change(5, first, 2);
    w.change(5, second, 3);
    w.commit(8);
  }
  EXPECT_EQ(slurp(file), slurp(other));
  const VcdReader r(file);
  EXPECT_EQ(r.changes("sys.p1.op"), (Changes{{0, 0}, {5, 3}}));
  EXPECT_EQ(r.changes("sys.p0.op"), (Changes{{0, 0}, {5, 2}}));
}

TEST_F(VcdWriterTest, CommitRenamesThePartialFile) {
  const std::string file = path("commit.vcd");
  VcdWriter w(file, 1);
  EXPECT_EQ(w.path(), file);
  const auto v = w.add_var("sys.p0.op", 4);
  w.change(2, v, 1);
  w.flush_before(3);
  EXPECT_TRUE(fs::exists(file + ".partial"));
  EXPECT_FALSE(fs::exists(file));
  w.commit(5);
  EXPECT_TRUE(fs::exists(file));
  EXPECT_FALSE(fs::exists(file + ".partial"));
  EXPECT_EQ(VcdReader(file).at("sys.p0.op", 2), 1u);
}

TEST_F(VcdWriterTest, WriterDestroyedWithoutCommitLeavesNoFile) {
  const std::string file = path("abandoned.vcd");
  {
    VcdWriter w(file, 1);
    const auto v = w.add_var("sys.p0.op", 4);
    w.change(2, v, 1);
    w.flush_before(100);
    EXPECT_TRUE(fs::exists(file + ".partial"));
  }
  EXPECT_FALSE(fs::exists(file));
  EXPECT_FALSE(fs::exists(file + ".partial"));
}

TEST_F(VcdWriterTest, UnwritablePathThrowsNamingIt) {
  const std::string file = path("no-such-dir") + "/run.vcd";
  try {
    VcdWriter w(file, 1);
    ADD_FAILURE() << "opened " << file;
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(file), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(file));
}

// The GTKWave save file beside a waveform (docs/waveforms.md): the dump's last extension replaced
// by .gtkw, or .gtkw appended to a name without one; a name that only starts with a dot (a hidden
// file) has no extension, and a dot in a folder's name is not the file's.
TEST(GtkwSaveFile, TheDumpsLastExtensionIsReplacedOrGtkwAppended) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"run.vcd", "run.gtkw"},         {"out/run.vcd", "out/run.gtkw"},
      {"run.1.vcd", "run.1.gtkw"},     {"run", "run.gtkw"},
      {".vcd", ".vcd.gtkw"},           {"out/.vcd", "out/.vcd.gtkw"},
      {"out.d/run", "out.d/run.gtkw"}, {"out.d/run.vcd", "out.d/run.gtkw"},
  };
  for (const auto& [dump, save] : cases) {
    EXPECT_EQ(traces::gtkw_path(dump), save) << dump;
  }
}

// A bit is shown as a bit (@28) under its own name, a vector in decimal (@24) under the name
// GTKWave gives it, with its range [width-1:0].
TEST(GtkwSaveFile, BitsAreBitsAndVectorsAreDecimalsWithTheirRange) {
  EXPECT_EQ(traces::gtkw_vcd_name("omp.rb0.busy", 1), "omp.rb0.busy");
  EXPECT_EQ(traces::gtkw_vcd_name("omp.rb0.master", 2), "omp.rb0.master[1:0]");
  EXPECT_EQ(traces::gtkw_vcd_name("omp.rb0.master", 16), "omp.rb0.master[15:0]");
  const std::string text =
      traces::gtkw_text("out/run.vcd", "out/run.gtkw",
                        {{"omp buses", {{"omp.rb0.busy", 1}, {"omp.rb0.master[15:0]", 16}}}});
  EXPECT_NE(text.find("\n-omp buses\n@28\nomp.rb0.busy\n@24\nomp.rb0.master[15:0]\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("[dumpfile] \"run.vcd\"\n"), std::string::npos) << text;
}

}  // namespace
}  // namespace orthosim
