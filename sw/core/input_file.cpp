// Input files: POSIX open/fstat/poll/read, so that a FIFO, a device or standard input is read
// under the same limits as a regular file and can never block the process forever.
#include "sw/core/input_file.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace orthosim::sw {

namespace {

std::string hex_byte(unsigned char byte) {
  static const char* const kHex = "0123456789abcdef";
  return std::string("0x") + kHex[byte >> 4] + kHex[byte & 15];
}

bool is_forbidden_control(unsigned char byte) {
  const bool blank = byte == '\t' || byte == '\n' || byte == '\v' || byte == '\f' || byte == '\r';
  return (byte < 0x20 && !blank) || byte == 0x7f;
}

/// "64 MiB" for a limit in bytes.
std::string size_text(std::uint64_t bytes) {
  if (bytes % (std::uint64_t{1} << 20) == 0) {
    return std::to_string(bytes >> 20) + " MiB";
  }
  return std::to_string(bytes) + " bytes";
}

std::string kind_of(mode_t mode) {
  if (S_ISDIR(mode)) {
    return "a directory";
  }
  if (S_ISFIFO(mode)) {
    return "a FIFO";
  }
  if (S_ISCHR(mode)) {
    return "a character device";
  }
  if (S_ISBLK(mode)) {
    return "a block device";
  }
  if (S_ISSOCK(mode)) {
    return "a socket";
  }
  return "a special file";
}

}  // namespace

// ---- TextChecker ----

TextChecker::TextChecker(std::string file, TextEncoding encoding)
    : file_(std::move(file)), encoding_(encoding) {}

void TextChecker::fail(std::uint32_t line, std::uint32_t column, const std::string& found) const {
  throw InputError({file_, line, column}, encoding_ == TextEncoding::Utf8 ? "UTF-8 text" : "text",
                   found);
}

void TextChecker::start_sequence(unsigned char byte) {
  lead_ = byte;
  lead_line_ = line_;
  lead_column_ = column_;
  next_min_ = 0x80;
  next_max_ = 0xBF;
  if (byte >= 0xC2 && byte <= 0xDF) {
    due_ = 1;
  } else if (byte >= 0xE0 && byte <= 0xEF) {
    due_ = 2;
    next_min_ = byte == 0xE0 ? 0xA0 : 0x80;  // E0 80..9F would be an overlong form
    next_max_ = byte == 0xED ? 0x9F : 0xBF;  // ED A0..BF would be a surrogate
  } else if (byte >= 0xF0 && byte <= 0xF4) {
    due_ = 3;
    next_min_ = byte == 0xF0 ? 0x90 : 0x80;  // F0 80..8F would be an overlong form
    next_max_ = byte == 0xF4 ? 0x8F : 0xBF;  // F4 90.. would be past U+10FFFF
  } else {
    fail(line_, column_, "the byte " + hex_byte(byte) + " (not UTF-8)");
  }
}

void TextChecker::check(std::string_view bytes) {
  std::size_t i = 0;
  while (i < bytes.size()) {
    if (due_ == 0) {
      // The common case, a run of printable ASCII, only moves the column.
      const std::size_t start = i;
      while (i < bytes.size() && static_cast<unsigned char>(bytes[i]) - 0x20u < 0x5Fu) {
        ++i;
      }
      column_ += static_cast<std::uint32_t>(i - start);
      offset_ += i - start;
      if (i == bytes.size()) {
        return;
      }
    }
    const auto byte = static_cast<unsigned char>(bytes[i++]);
    if (due_ > 0) {
      if (byte < next_min_ || byte > next_max_) {
        fail(lead_line_, lead_column_,
             "the byte " + hex_byte(lead_) + " followed by " + hex_byte(byte) + " (not UTF-8)");
      }
      next_min_ = 0x80;
      next_max_ = 0xBF;
      is_byte_order_mark_ = is_byte_order_mark_ && byte == (offset_ == 1 ? 0xBB : 0xBF);
      --due_;
      ++column_;
      // A byte order mark opens the file without taking a column: the parsers skip it.
      if (offset_ == 2 && is_byte_order_mark_) {
        column_ = 1;
      }
    } else if (byte >= 0x80 && encoding_ == TextEncoding::Utf8) {
      start_sequence(byte);
      ++column_;
      is_byte_order_mark_ = offset_ == 0 && byte == 0xEF;
    } else if (is_forbidden_control(byte)) {
      fail(line_, column_, "the byte " + hex_byte(byte) + " (a control character)");
    } else if (byte == '\n') {
      ++line_;
      column_ = 1;
    } else {
      ++column_;
    }
    ++offset_;
  }
}

void TextChecker::finish() {
  if (due_ > 0) {
    fail(lead_line_, lead_column_,
         "the byte " + hex_byte(lead_) + " cut short by the end of the input (not UTF-8)");
  }
}

void check_text(std::string_view text, const std::string& file, TextEncoding encoding) {
  TextChecker checker(file, encoding);
  checker.check(text);
  checker.finish();
}

// ---- InputFile ----

InputFile::InputFile(InputRules rules, std::string name)
    : name_(std::move(name)), rules_(std::move(rules)), checker_(name_, rules_.encoding) {}

InputFile::InputFile(const std::string& path, const InputRules& rules)
    : InputFile(rules, rules.stdin_dash && path == "-" ? kStdinName : path) {
  if (rules_.stdin_dash && path == "-") {
    fd_ = STDIN_FILENO;
  } else {
    if (path.empty()) {
      throw InputError({"''"}, "a readable " + rules_.what, "an empty file name");
    }
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
    fd_ = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd_ < 0) {
      const int error = errno;
      // A socket cannot be opened at all, nor a block device without its driver: the kind of
      // file says why, where the open's error (ENXIO) would not.
      struct stat info {};
      if (::stat(path.c_str(), &info) == 0 && !S_ISREG(info.st_mode) && !S_ISFIFO(info.st_mode) &&
          !S_ISCHR(info.st_mode)) {
        fail(kind_of(info.st_mode));
      }
      fail(error == ENOENT
               ? std::string("no such file") +
                     (path == "-" ? " (standard input, '-', is read as a program only)" : "")
           : error == EACCES
               ? "a file it may not read (permission denied)"
               : "a file that cannot be opened (" + std::string(std::strerror(error)) + ")");
    }
    owns_fd_ = true;
  }
  struct stat info {};
  if (::fstat(fd_, &info) != 0) {
    fail("a file whose type cannot be read");
  }
  if (S_ISREG(info.st_mode)) {
    if (rules_.max_bytes != 0 && static_cast<std::uint64_t>(info.st_size) > rules_.max_bytes) {
      fail("a file of " + std::to_string(info.st_size) + " bytes, more than the limit of " +
           size_text(rules_.max_bytes));
    }
    return;
  }
  if (!S_ISFIFO(info.st_mode) && !S_ISCHR(info.st_mode)) {
    fail(kind_of(info.st_mode));
  }
  if (rules_.regular_only) {
    fail(kind_of(info.st_mode) + " (this input is read more than once: give a regular file)");
  }
  waits_ = true;
}

InputFile InputFile::from_text(std::string text, std::string name, InputRules rules) {
  InputFile input(std::move(rules), std::move(name));
  if (input.rules_.max_bytes != 0 && text.size() > input.rules_.max_bytes) {
    input.fail("an input of " + std::to_string(text.size()) + " bytes, more than the limit of " +
               size_text(input.rules_.max_bytes));
  }
  input.total_ = text.size();
  input.buffer_ = std::move(text);
  input.at_end_ = true;
  return input;
}

InputFile::~InputFile() {
  if (owns_fd_) {
    ::close(fd_);
  }
}

InputFile::InputFile(InputFile&& other) noexcept
    : name_(std::move(other.name_)),
      rules_(std::move(other.rules_)),
      checker_(std::move(other.checker_)),
      fd_(std::exchange(other.fd_, -1)),
      owns_fd_(std::exchange(other.owns_fd_, false)),
      waits_(other.waits_),
      at_end_(other.at_end_),
      total_(other.total_),
      lines_read_(other.lines_read_),
      buffer_(std::move(other.buffer_)),
      pos_(other.pos_) {}

void InputFile::fail(const std::string& found) const {
  throw InputError({name_}, "a readable " + rules_.what, found);
}

void InputFile::wait_for_data() const {
  // A terminal waits for its user, who ends the input with Ctrl-D; anything else that stays
  // silent for the idle time is given up.
  const int timeout_ms = ::isatty(fd_) != 0 ? -1 : static_cast<int>(rules_.idle_timeout.count());
  pollfd request{fd_, POLLIN, 0};
  while (true) {
    const int ready = ::poll(&request, 1, timeout_ms);
    if (ready > 0) {
      return;  // data, or the writer's end: the read says which
    }
    if (ready == 0) {
      const auto ms = rules_.idle_timeout.count();
      fail("no data for " +
           (ms % 1000 == 0 ? std::to_string(ms / 1000) + " s" : std::to_string(ms) + " ms") +
           " (a FIFO or device whose writer stays silent)");
    }
    if (errno != EINTR) {
      fail("a file that cannot be polled (" + std::string(std::strerror(errno)) + ")");
    }
  }
}

std::size_t InputFile::read_some(char* into, std::size_t size) {
  // Standard input may be a blocking descriptor shared with the shell: wait before reading. A
  // descriptor opened here is non-blocking: its read tells a FIFO without writer (end of input)
  // from one whose writer has not written yet (EAGAIN: wait).
  if (waits_ && !owns_fd_) {
    wait_for_data();
  }
  while (true) {
    const ssize_t got = ::read(fd_, into, size);
    if (got >= 0) {
      return static_cast<std::size_t>(got);
    }
    if (errno == EAGAIN || errno == EWOULDBLOCK) {
      wait_for_data();
    } else if (errno != EINTR) {
      fail("a read error (" + std::string(std::strerror(errno)) + ")");
    }
  }
}

bool InputFile::fill() {
  if (at_end_) {
    return false;
  }
  constexpr std::size_t kChunk = 64 * 1024;
  if (pos_ > 0) {
    buffer_.erase(0, pos_);
    pos_ = 0;
  }
  const std::size_t old_size = buffer_.size();
  buffer_.resize(old_size + kChunk);
  const std::size_t got = read_some(buffer_.data() + old_size, kChunk);
  buffer_.resize(old_size + got);
  if (got == 0) {
    at_end_ = true;
    if (waits_ && total_ == 0) {
      fail("no data (a FIFO without a writer, or a stream that ended at once)");
    }
    return false;
  }
  total_ += got;
  if (rules_.max_bytes != 0 && total_ > rules_.max_bytes) {
    fail("more than the limit of " + size_text(rules_.max_bytes));
  }
  return true;
}

std::string InputFile::read_all() {
  buffer_.erase(0, pos_);
  pos_ = 0;
  // Each chunk is checked as it arrives: the first bad byte ends the read there.
  checker_.check(buffer_);
  for (std::size_t old_size = buffer_.size(); fill(); old_size = buffer_.size()) {
    checker_.check(std::string_view(buffer_).substr(old_size));
  }
  checker_.finish();
  return std::exchange(buffer_, {});
}

bool InputFile::read_line(std::string& line) {
  // Bytes are checked as lines are handed out, so that errors come in file order: a bad byte
  // on line 9 after a reader's error on line 2 is never reported first.
  const auto take = [&](std::size_t length, std::size_t line_end_bytes) {
    checker_.check(std::string_view(buffer_).substr(pos_, length + line_end_bytes));
    line.assign(buffer_, pos_, length);
    pos_ += length + line_end_bytes;
    ++lines_read_;
  };
  std::size_t scanned = pos_;
  while (true) {
    const std::size_t end = buffer_.find('\n', scanned);
    const std::size_t length = (end == std::string::npos ? buffer_.size() : end) - pos_;
    if (length > rules_.max_line_bytes) {
      checker_.check(std::string_view(buffer_).substr(pos_, length));  // a bad byte first
      throw InputError({name_, lines_read_ + 1, 1},
                       "a line of at most " + size_text(rules_.max_line_bytes), "a longer line");
    }
    if (end != std::string::npos) {
      take(length, 1);
      return true;
    }
    const std::size_t unread = buffer_.size() - pos_;
    if (!fill()) {
      const bool last_line = unread > 0;  // a last line without its line feed
      if (last_line) {
        take(unread, 0);
      }
      checker_.finish();
      return last_line;
    }
    scanned = pos_ + unread;  // fill() moved the unread bytes to the buffer's start
  }
}

std::string read_input_file(const std::string& path, const InputRules& rules) {
  InputFile input(path, rules);
  return input.read_all();
}

}  // namespace orthosim::sw
