// Reading a user's input file: the one way every reader gets its bytes (programs, variant files,
// node maps, event traces, waveforms, the traffic JSON of `trace plot`). An input is read in
// chunks and checked as it arrives, so that the first byte that can never be valid stops the read
// with its file:line:col (`orthosim map /dev/zero` fails at 1:1, not at the memory's end), and
// nothing is read past a limit. Opening never waits for a FIFO's writer, and a FIFO or device that
// stays silent is given up after an idle time. docs/cli.md ("Input files") states the rules.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "sw/core/diagnostic.hpp"

namespace orthosim::sw {

/// The largest file read whole (a program, a variant, a node map, a traffic JSON).
inline constexpr std::uint64_t kMaxInputFileBytes = std::uint64_t{64} << 20;
/// The longest line of an input read line by line (event traces, VCD waveforms).
inline constexpr std::size_t kMaxInputLineBytes = std::size_t{1} << 20;
/// How long a FIFO or device may stay silent before the read gives up (a terminal waits).
inline constexpr std::chrono::milliseconds kInputIdleTimeout{30000};
/// The name standard input goes by in messages and as a program's name.
inline constexpr const char* kStdinName = "<stdin>";

/// What the bytes of an input may be.
enum class TextEncoding : std::uint8_t {
  Utf8,   ///< UTF-8 text (programs, variants, node maps: what a person writes)
  Bytes,  ///< any bytes but control characters (traces, whose labels carry file names)
};

/// What a reader accepts as its input.
struct InputRules {
  std::string what;  ///< the input, for "expected ...": "a .mcp program", "a variant file"
  TextEncoding encoding = TextEncoding::Utf8;
  bool stdin_dash = false;    ///< "-" names standard input
  bool regular_only = false;  ///< refuse FIFOs and devices (a reader that reads its file twice)
  std::uint64_t max_bytes = kMaxInputFileBytes;     ///< 0: no limit (streamed inputs)
  std::size_t max_line_bytes = kMaxInputLineBytes;  ///< read_line only
  std::chrono::milliseconds idle_timeout = kInputIdleTimeout;
};

/// Checks text as it arrives, chunk by chunk, and throws InputError at the first byte that can
/// never be valid: a control character other than tab, line feed, vertical tab, form feed and
/// carriage return, and for UTF-8 text a byte that is not UTF-8 (an overlong form, a surrogate,
/// a code point past U+10FFFF, a sequence cut short). Lines count line feeds; columns count
/// bytes, as the parsers do; a byte order mark at the start takes no column.
class TextChecker {
 public:
  TextChecker(std::string file, TextEncoding encoding);

  void check(std::string_view bytes);
  /// The input's end: throws if it cuts a UTF-8 sequence short.
  void finish();

  [[nodiscard]] std::uint32_t line() const { return line_; }
  [[nodiscard]] std::uint32_t column() const { return column_; }

 private:
  [[noreturn]] void fail(std::uint32_t line, std::uint32_t column, const std::string& found) const;
  void start_sequence(unsigned char byte);

  std::string file_;
  TextEncoding encoding_;
  std::uint64_t offset_ = 0;  ///< bytes checked so far
  std::uint32_t line_ = 1;
  std::uint32_t column_ = 1;
  // The UTF-8 sequence under way: its lead byte and place, the continuation bytes still due, and
  // the range the next one must fall in (narrower after E0, ED, F0, F4).
  unsigned char lead_ = 0;
  std::uint32_t lead_line_ = 0;
  std::uint32_t lead_column_ = 0;
  unsigned due_ = 0;
  unsigned char next_min_ = 0x80;
  unsigned char next_max_ = 0xBF;
  bool is_byte_order_mark_ = false;  ///< the sequence under way began the input with EF BB
};

/// Throws InputError at the first byte of `text` that can never be valid (see TextChecker).
void check_text(std::string_view text, const std::string& file, TextEncoding encoding);

/// An open input, read whole or line by line under its InputRules. Move-only.
class InputFile {
 public:
  /// Opens `path` without waiting for a FIFO's writer ("-": standard input if the rules say so).
  /// Throws InputError{path} for a missing or unreadable file, a directory, a block device or
  /// socket, a FIFO or device under `regular_only`, a regular file over `max_bytes`.
  InputFile(const std::string& path, const InputRules& rules);
  /// An input held in memory, named `name` in messages: the same checks and limits.
  static InputFile from_text(std::string text, std::string name, InputRules rules);
  ~InputFile();
  InputFile(InputFile&& other) noexcept;
  InputFile& operator=(InputFile&&) = delete;
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  /// The name in messages: the path, or kStdinName.
  [[nodiscard]] const std::string& name() const { return name_; }
  /// The rest of the input, each chunk checked as it arrives. A FIFO or device that gives no
  /// byte at all (no writer, /dev/null) is refused as "no data"; one silent for the idle time
  /// too; more than `max_bytes` too.
  [[nodiscard]] std::string read_all();
  /// The next line, without its line feed; false at the end of the input. Its bytes are checked
  /// as it is handed out (errors in file order); a line over `max_line_bytes` is refused.
  [[nodiscard]] bool read_line(std::string& line);

 private:
  InputFile(InputRules rules, std::string name);
  /// Reads the next chunk into the buffer; false at the end of the input.
  bool fill();
  [[nodiscard]] std::size_t read_some(char* into, std::size_t size);
  void wait_for_data() const;
  [[noreturn]] void fail(const std::string& found) const;

  std::string name_;
  InputRules rules_;
  TextChecker checker_;
  int fd_ = -1;
  bool owns_fd_ = false;
  bool waits_ = false;  ///< a FIFO or device: reads wait for data through poll
  bool at_end_ = false;
  std::uint64_t total_ = 0;       ///< bytes read so far
  std::uint32_t lines_read_ = 0;  ///< lines returned by read_line
  std::string buffer_;
  std::size_t pos_ = 0;  ///< first byte of buffer_ not yet returned
};

/// Reads the whole input at `path` under `rules` ("-" is standard input if they allow it).
[[nodiscard]] std::string read_input_file(const std::string& path, const InputRules& rules);

}  // namespace orthosim::sw
