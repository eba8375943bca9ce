// The input-reading facility (sw/core/input_file.hpp): the text check against an independent
// UTF-8 decoder over every sequence of up to three bytes, the exact place of each refused byte,
// and files, FIFOs and limits as a reader meets them.
#include "sw/core/input_file.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "sw/core/json_text.hpp"

namespace {

namespace fs = std::filesystem;
using orthosim::sw::check_text;
using orthosim::sw::InputError;
using orthosim::sw::InputFile;
using orthosim::sw::InputRules;
using orthosim::sw::TextChecker;
using orthosim::sw::TextEncoding;

/// The message of check_text's error, or nothing if the text is accepted.
std::optional<std::string> refusal(std::string_view text,
                                   TextEncoding encoding = TextEncoding::Utf8) {
  try {
    check_text(text, "f", encoding);
  } catch (const InputError& e) {
    return std::string(e.what());
  }
  return std::nullopt;
}

/// An independent oracle: decodes `bytes` by the bit patterns of RFC 3629 and checks the code
/// point against the range each length may encode; no lead-byte table.
bool is_utf8(const std::string& bytes) {
  std::size_t i = 0;
  while (i < bytes.size()) {
    const auto b0 = static_cast<unsigned char>(bytes[i]);
    std::size_t length = 0;
    std::uint32_t cp = 0;
    if (b0 < 0x80) {
      length = 1;
      cp = b0;
    } else if ((b0 & 0xE0) == 0xC0) {
      length = 2;
      cp = b0 & 0x1Fu;
    } else if ((b0 & 0xF0) == 0xE0) {
      length = 3;
      cp = b0 & 0x0Fu;
    } else if ((b0 & 0xF8) == 0xF0) {
      length = 4;
      cp = b0 & 0x07u;
    } else {
      return false;
    }
    if (i + length > bytes.size()) {
      return false;
    }
    for (std::size_t k = 1; k < length; ++k) {
      const auto b = static_cast<unsigned char>(bytes[i + k]);
      if ((b & 0xC0) != 0x80) {
        return false;
      }
      cp = (cp << 6) | (b & 0x3Fu);
    }
    const std::uint32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < smallest[length] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
      return false;
    }
    i += length;
  }
  return true;
}

bool is_refused_control(unsigned char b) {
  return (b < 0x20 && b != '\t' && b != '\n' && b != '\v' && b != '\f' && b != '\r') || b == 0x7f;
}

TEST(TextCheck, AgreesWithAnIndependentDecoderOnEverySequenceOfUpToThreeBytes) {
  // Every 1- and 2-byte string, and 3-byte strings led by each kind of lead byte of the 3- and
  // 4-byte forms (overlongs, surrogates, past U+10FFFF, truncations).
  std::uint64_t checked = 0;
  const auto agree = [&](const std::string& s) {
    bool has_control = false;
    for (const char c : s) {
      has_control = has_control || is_refused_control(static_cast<unsigned char>(c));
    }
    const bool accepted = !refusal(s).has_value();
    ++checked;
    return accepted == (is_utf8(s) && !has_control);
  };
  for (int a = 0; a < 256; ++a) {
    ASSERT_TRUE(agree(std::string(1, static_cast<char>(a)))) << a;
    for (int b = 0; b < 256; ++b) {
      const std::string two{static_cast<char>(a), static_cast<char>(b)};
      ASSERT_TRUE(agree(two)) << a << " " << b;
      if (a == 0xE0 || a == 0xE1 || a == 0xED || a == 0xEF || a == 0xF0 || a == 0xF1 || a == 0xF4 ||
          a == 0xF5) {
        // Each kind of longer lead byte (its second byte's range differs), the third byte at
        // both edges of the continuation range.
        for (const int c : {0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0}) {
          ASSERT_TRUE(agree(two + static_cast<char>(c))) << a << " " << b << " " << c;
        }
      }
    }
  }
  // The four-byte limits: U+10000, U+10FFFF, one past it, and a truncated one.
  for (const char* s :
       {"\xF0\x90\x80\x80", "\xF4\x8F\xBF\xBF", "\xF4\x90\x80\x80", "\xF0\x90\x80"}) {
    EXPECT_TRUE(agree(s)) << s;
  }
  EXPECT_EQ(checked, 256u + 65536u + 8u * 256u * 8u + 4u);
}

TEST(TextCheck, ReportsTheLineAndByteColumnOfTheFirstBadByte) {
  EXPECT_EQ(refusal("ab\ncd\xff"), "f:2:3: expected UTF-8 text, found the byte 0xff (not UTF-8)");
  EXPECT_EQ(refusal(std::string_view("x\n\ty\0z", 6), TextEncoding::Bytes),
            "f:2:3: expected text, found the byte 0x00 (a control character)");
  // A multi-byte character is as many columns as bytes; a bad sequence is placed at its start.
  EXPECT_EQ(refusal("\xC3\xA9\xE2\x82(\n"),
            "f:1:3: expected UTF-8 text, found the byte 0xe2 followed by 0x28 (not UTF-8)");
  EXPECT_EQ(refusal("ok\n\xE2\x82"),
            "f:2:1: expected UTF-8 text, found the byte 0xe2 cut short by the end of the input "
            "(not UTF-8)");
  // The byte order mark takes no column, as the .mcp lexer skips it; U+FFFF (EF BF BF) does.
  EXPECT_EQ(refusal("\xEF\xBB\xBF\x01"), "f:1:1: expected UTF-8 text, found the byte 0x01 (a "
                                         "control character)");
  EXPECT_EQ(refusal("\xEF\xBF\xBF\x01"), "f:1:4: expected UTF-8 text, found the byte 0x01 (a "
                                         "control character)");
  // Bytes: anything but control characters.
  EXPECT_FALSE(refusal("caf\xe9 \xff\r\n", TextEncoding::Bytes).has_value());
}

// RFC 3629 ends UTF-8 at U+10FFFF: the lead bytes F5..F7 of the old 4-byte range are refused, and
// a sequence after other text keeps its byte columns, even one that shares a byte order mark's
// lead byte (the mark only opens a text).
TEST(TextCheck, LeadBytesPastF4AreRefusedAndAMidTextSequenceTakesOneColumn) {
  EXPECT_EQ(refusal("a\xf5\x80\x80\x80"),
            "f:1:2: expected UTF-8 text, found the byte 0xf5 (not UTF-8)");
  EXPECT_EQ(refusal("a\xef\xbf\xbf\x01"),
            "f:1:5: expected UTF-8 text, found the byte 0x01 (a control character)");
}

TEST(TextCheck, ChunksGiveTheSameVerdictAndPlaceAsTheWholeText) {
  const std::string texts[] = {"h\xC3\xA9llo\n\xF0\x9F\x98\x80 ok\n", "ab\n\xF0\x9F\x98\x28",
                               "\xEF\xBB\xBFx\n\xE2\x82", "line\n\xED\xA0\x80"};
  for (const std::string& text : texts) {
    const std::optional<std::string> whole = refusal(text);
    for (std::size_t cut = 0; cut <= text.size(); ++cut) {
      TextChecker checker("f", TextEncoding::Utf8);
      std::optional<std::string> chunked;
      try {
        checker.check(std::string_view(text).substr(0, cut));
        checker.check(std::string_view(text).substr(cut));
        checker.finish();
      } catch (const InputError& e) {
        chunked = e.what();
      }
      EXPECT_EQ(chunked, whole) << "cut at " << cut;
    }
  }
}

// An error quoting the input stays one line: line breaks and tabs as their escapes, every other
// control byte (DEL included) as \xNN with its two hex digits in order.
TEST(InputErrorText, ControlBytesAreWrittenAsEscapes) {
  const InputError e({"f", 2, 3}, "a name",
                     std::string("'a\tb\nc\rd\x7f"
                                 "e\x1b'"));
  EXPECT_EQ(std::string(e.what()), "f:2:3: expected a name, found 'a\\tb\\nc\\rd\\x7fe\\x1b'");
}

// Every form of error is one line, the last control byte below the blank (0x1f) escaped too; a
// location without a line is its name alone (an option, a file as a whole).
TEST(InputErrorText, EveryFormIsOneLineAndALocationWithoutALineIsItsName) {
  EXPECT_EQ(std::string(InputError({"f", 2, 3}, "x", "'\x1f'").what()),
            "f:2:3: expected x, found '\\x1f'");
  EXPECT_EQ(std::string(InputError({"f", 2, 3}, "two\nlines").what()), "f:2:3: two\\nlines");
  EXPECT_EQ(std::string(orthosim::sw::ParameterError("vcs", "two\nlines").what()), "two\\nlines");
  EXPECT_EQ(std::string(orthosim::sw::ParameterError("vcs", "an even number", "3").what()),
            "expected an even number, found 3");
  EXPECT_EQ((orthosim::sw::SourceLocation{"--vcs", 0, 5}.to_string()), "--vcs");
  EXPECT_EQ((orthosim::sw::SourceLocation{"f", 2, 3}.to_string()), "f:2:3");
  EXPECT_EQ(orthosim::sw::quoted(std::uint64_t{7}), "'7'");
}

TEST(JsonText, WritesBytesThatAreNotUtf8AsTheReplacementCharacter) {
  const nlohmann::json j = {{"label", "caf\xe9 \xe2\x86\x92"}};
  EXPECT_THROW(static_cast<void>(j.dump()), nlohmann::json::type_error);
  const nlohmann::json back = nlohmann::json::parse(orthosim::sw::json_text(j));
  EXPECT_EQ(back["label"], "caf\xEF\xBF\xBD \xe2\x86\x92");
}

// ---- files ----

class InputFileTest : public testing::Test {
 protected:
  void SetUp() override {
    const std::string test = testing::UnitTest::GetInstance()->current_test_info()->name();
    dir_ = fs::temp_directory_path() / ("orthosim_input_" + test + "_" + std::to_string(getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  [[nodiscard]] std::string path(const std::string& name) const { return (dir_ / name).string(); }
  void write(const std::string& name, const std::string& text) const {
    std::ofstream(dir_ / name, std::ios::binary) << text;
  }
  /// The message of `read`'s InputError, or "accepted".
  template <typename Read>
  static std::string error_of(Read read) {
    try {
      read();
    } catch (const InputError& e) {
      return e.what();
    }
    return "accepted";
  }

  static InputRules rules() {
    InputRules r;
    r.what = "test input";
    return r;
  }

  fs::path dir_;
};

TEST_F(InputFileTest, ARegularFileOverTheLimitIsRefusedFromItsSizeAlone) {
  // Sparse files: nothing is read to find out. At the limit the file is read and its first
  // byte, a NUL, is refused; one byte more and the size is.
  const std::string at_limit = path("at_limit"), over = path("over");
  write("at_limit", "");
  write("over", "");
  fs::resize_file(at_limit, orthosim::sw::kMaxInputFileBytes);
  fs::resize_file(over, orthosim::sw::kMaxInputFileBytes + 1);
  EXPECT_EQ(error_of([&] { static_cast<void>(orthosim::sw::read_input_file(at_limit, rules())); }),
            at_limit + ":1:1: expected UTF-8 text, found the byte 0x00 (a control character)");
  EXPECT_EQ(error_of([&] { static_cast<void>(orthosim::sw::read_input_file(over, rules())); }),
            over + ": expected a readable test input, found a file of 67108865 bytes, more than "
                   "the limit of 64 MiB");
}

TEST_F(InputFileTest, MissingFilesDirectoriesAndEmptyNamesAreRefusedByName) {
  EXPECT_EQ(error_of([&] { InputFile f(path("none"), rules()); }),
            path("none") + ": expected a readable test input, found no such file");
  EXPECT_EQ(error_of([&] { InputFile f(dir_.string(), rules()); }),
            dir_.string() + ": expected a readable test input, found a directory");
  EXPECT_EQ(error_of([&] { InputFile f("", rules()); }),
            "'': expected a readable test input, found an empty file name");
  // "-" is a file name unless the rules make it standard input; when there is no such file the
  // refusal says so (run p.mcp --variant - read "-: ... found no such file").
  EXPECT_EQ(error_of([&] { InputFile f("-", rules()); }),
            "-: expected a readable test input, found no such file (standard input, '-', is read "
            "as a program only)");
}

TEST_F(InputFileTest, AFifoWithoutWriterIsNoDataAtOnceAndAFifoIsRefusedWhereFilesAreReadTwice) {
  ASSERT_EQ(mkfifo(path("fifo").c_str(), 0600), 0);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(error_of(
                [&] { static_cast<void>(orthosim::sw::read_input_file(path("fifo"), rules())); }),
            path("fifo") + ": expected a readable test input, found no data (a FIFO without a "
                           "writer, or a stream that ended at once)");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  InputRules twice = rules();
  twice.regular_only = true;
  EXPECT_EQ(error_of([&] { InputFile f(path("fifo"), twice); }),
            path("fifo") + ": expected a readable test input, found a FIFO (this input is read "
                           "more than once: give a regular file)");
}

TEST_F(InputFileTest, AFifoIsReadToItsWritersEndUnderTheSizeLimit) {
  ASSERT_EQ(mkfifo(path("fifo").c_str(), 0600), 0);
  // O_RDWR never waits: the test holds a writer, so the reader sees data and then the end.
  const auto read_with = [&](const std::string& data, std::uint64_t limit) {
    const int writer = ::open(path("fifo").c_str(), O_RDWR);
    EXPECT_EQ(::write(writer, data.data(), data.size()), static_cast<ssize_t>(data.size()));
    InputRules r = rules();
    r.max_bytes = limit;
    InputFile input(path("fifo"), r);
    ::close(writer);
    return input.read_all();
  };
  EXPECT_EQ(read_with("nodes 2\n", 8), "nodes 2\n");
  EXPECT_EQ(error_of([&] { static_cast<void>(read_with("nodes 2\n", 7)); }),
            path("fifo") +
                ": expected a readable test input, found more than the limit of 7 bytes");
}

TEST_F(InputFileTest, AFifoWhoseWriterStaysSilentIsGivenUpAfterTheIdleTime) {
  ASSERT_EQ(mkfifo(path("fifo").c_str(), 0600), 0);
  const int writer = ::open(path("fifo").c_str(), O_RDWR);
  InputRules r = rules();
  r.idle_timeout = std::chrono::milliseconds(100);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(error_of([&] { static_cast<void>(orthosim::sw::read_input_file(path("fifo"), r)); }),
            path("fifo") + ": expected a readable test input, found no data for 100 ms (a FIFO "
                           "or device whose writer stays silent)");
  const auto waited = std::chrono::steady_clock::now() - start;
  EXPECT_GE(waited, std::chrono::milliseconds(100));
  EXPECT_LT(waited, std::chrono::seconds(2));
  ::close(writer);
}

TEST_F(InputFileTest, LinesUpToTheLimitAcrossChunksAndALastLineWithoutLineFeed) {
  // Lines longer than a read chunk (64 KiB), one exactly at the line limit.
  InputRules r = rules();
  r.max_line_bytes = 100000;
  const std::string a(70000, 'a'), b(100000, 'b');
  write("lines", a + "\n\n" + b + "\nend");
  InputFile input(path("lines"), r);
  std::string line;
  ASSERT_TRUE(input.read_line(line));
  EXPECT_EQ(line, a);
  ASSERT_TRUE(input.read_line(line));
  EXPECT_EQ(line, "");
  ASSERT_TRUE(input.read_line(line));
  EXPECT_EQ(line, b);
  ASSERT_TRUE(input.read_line(line));
  EXPECT_EQ(line, "end");
  EXPECT_FALSE(input.read_line(line));
  // One byte more on the third line: refused there, and nothing past the limit is held.
  write("long", a + "\n\n" + b + "b\nend\n");
  InputFile longer(path("long"), r);
  EXPECT_EQ(error_of([&] {
              while (longer.read_line(line)) {
              }
            }),
            path("long") + ":3:1: expected a line of at most 100000 bytes, found a longer line");
  // A bad byte in a line over the limit is the error: zeros stop at 1:1, not at the limit.
  write("zeros", std::string(200000, '\0'));
  InputFile zeros(path("zeros"), r);
  EXPECT_EQ(error_of([&] { static_cast<void>(zeros.read_line(line)); }),
            path("zeros") + ":1:1: expected UTF-8 text, found the byte 0x00 (a control character)");
}

TEST_F(InputFileTest, TextInMemoryMeetsTheSameChecksAndLimits) {
  InputRules r = rules();
  r.max_bytes = 4;
  EXPECT_EQ(InputFile::from_text("ab\nc", "mem", r).read_all(), "ab\nc");
  EXPECT_EQ(error_of([&] { static_cast<void>(InputFile::from_text("ab\ncd", "mem", r)); }),
            "mem: expected a readable test input, found an input of 5 bytes, more than the limit "
            "of 4 bytes");
  EXPECT_EQ(error_of(
                [&] { static_cast<void>(InputFile::from_text("a\n\x01", "mem", r).read_all()); }),
            "mem:2:1: expected UTF-8 text, found the byte 0x01 (a control character)");
  // Line by line, a line's bytes are checked when it is handed out: errors in file order.
  InputFile lines = InputFile::from_text("ok\nb\x01\n", "mem", rules());
  std::string line;
  ASSERT_TRUE(lines.read_line(line));
  EXPECT_EQ(line, "ok");
  EXPECT_EQ(error_of([&] { static_cast<void>(lines.read_line(line)); }),
            "mem:2:2: expected UTF-8 text, found the byte 0x01 (a control character)");
}

// An empty regular file is empty text (its reader says what that means); a last line of one byte
// without its line feed is a line; a limit that is no whole MiB is written in bytes.
TEST_F(InputFileTest, AnEmptyFileIsEmptyTextAndAOneByteLastLineIsALine) {
  write("empty", "");
  EXPECT_EQ(orthosim::sw::read_input_file(path("empty"), rules()), "");
  // A character device is read as a stream: one that ends at once is no data, not a file type.
  EXPECT_EQ(error_of(
                [&] { static_cast<void>(orthosim::sw::read_input_file("/dev/null", rules())); }),
            "/dev/null: expected a readable test input, found no data (a FIFO without a writer, or "
            "a stream that ended at once)");
  write("short", "ab\nc");
  InputFile input(path("short"), rules());
  std::string line;
  ASSERT_TRUE(input.read_line(line));
  EXPECT_EQ(line, "ab");
  ASSERT_TRUE(input.read_line(line));
  EXPECT_EQ(line, "c");
  EXPECT_FALSE(input.read_line(line));
  InputRules r = rules();
  r.max_bytes = 2048;
  EXPECT_EQ(error_of(
                [&] { static_cast<void>(InputFile::from_text(std::string(2049, 'a'), "mem", r)); }),
            "mem: expected a readable test input, found an input of 2049 bytes, more than the "
            "limit of 2048 bytes");
}

}  // namespace
