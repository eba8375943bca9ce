// What every fuzz target checks (tests/README.md, Fuzzing): a reader either accepts its input or
// throws sw::InputError whose location is a position inside that input and whose message is one
// line. Anything else (another exception, a crash, a sanitizer report, a leak, an allocation past
// libFuzzer's -malloc_limit_mb) is a finding that libFuzzer reports with the input.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "sw/core/diagnostic.hpp"

namespace orthosim::fuzz {

/// Stops the run with `what` on stderr when `condition` is false; libFuzzer saves the input.
inline void require(bool condition, const std::string& what) {
  if (!condition) {
    std::fprintf(stderr, "fuzz check failed: %s\n", what.c_str());
    std::abort();
  }
}

/// The input as text: readers take bytes as they come, NULs and all.
inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

/// Checks that `e`, thrown while reading `text` as `file`, names `file` and a line and column
/// inside the text, in a one-line message. Lines end at '\n'; YAML also ends one at a lone '\r',
/// which the other formats take as a blank, so the line is at most the number of either plus one,
/// and the column at most one past the longest '\n'-ended line.
inline void require_position(const sw::InputError& e, std::string_view text,
                             const std::string& file) {
  const std::string message = e.what();
  require(message.find_first_of("\r\n") == std::string::npos,
          "the error message is one line: " + message);
  const sw::SourceLocation& at = e.where();
  require(at.file == file, "the error names the input file: " + message);
  require(at.line >= 1 && at.column >= 1, "the error has a line and a column: " + message);
  std::size_t breaks = 0;
  std::size_t longest = 0;
  std::size_t current = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++breaks;
      current = 0;
      continue;
    }
    if (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n')) {
      ++breaks;
    }
    longest = std::max(longest, ++current);
  }
  require(at.line <= breaks + 1, "the error's line is a line of the input (1.." +
                                     std::to_string(breaks + 1) + "): " + message);
  require(at.column <= longest + 1, "the error's column is inside a line (1.." +
                                        std::to_string(longest + 1) + "): " + message);
}

/// A file of this process, for what a target writes and reads back by its path (the event trace
/// of the round trip): in memory (/dev/shm) where the system has it, since every run rewrites it
/// (16 times the runs per second of a file in /tmp on a disk); else in $TMPDIR or /tmp.
class ScratchFile {
 public:
  explicit ScratchFile(const std::string& suffix) {
    const char* tmpdir = std::getenv("TMPDIR");
    std::string dir = tmpdir != nullptr && *tmpdir != '\0' ? tmpdir : "/tmp";
    if (access("/dev/shm", W_OK | X_OK) == 0) {
      dir = "/dev/shm";
    }
    std::string name = dir + "/orthosim-fuzz-XXXXXX" + suffix;
    const int fd = mkstemps(name.data(), static_cast<int>(suffix.size()));
    require(fd >= 0, "cannot create a scratch file in " + name);
    close(fd);
    path_ = name;
  }
  ~ScratchFile() { std::remove(path_.c_str()); }
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;

  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace orthosim::fuzz
