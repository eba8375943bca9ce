// Test support for outputs that are not regular files: a character device made in the test's own
// folder (never a system one) and a reader thread on a FIFO.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>

namespace orthosim::testing_support {

/// Makes a character device numbered `major`, `minor` at `path`. Returns "" on success, else why
/// not (mknod needs root, CAP_MKNOD): the caller skips with that reason.
inline std::string make_character_device(const std::filesystem::path& path, unsigned major_number,
                                         unsigned minor_number) {
  if (::mknod(path.c_str(), S_IFCHR | 0666, makedev(major_number, minor_number)) != 0) {
    return "mknod " + path.string() + " c " + std::to_string(major_number) + " " +
           std::to_string(minor_number) + " failed (" + std::strerror(errno) +
           "): character-device cases need root (CI runs as root)";
  }
  return "";
}

/// A character device with /dev/null's numbers (1, 3) at `path`, as make_character_device.
inline std::string make_null_device(const std::filesystem::path& path) {
  return make_character_device(path, 1, 3);
}

/// A character device with /dev/full's numbers (1, 7) at `path`: every write to it fails with
/// "no space left on device".
inline std::string make_full_device(const std::filesystem::path& path) {
  return make_character_device(path, 1, 7);
}

/// True when `path` is (still) a character device numbered 1, 3.
inline bool is_null_device(const std::filesystem::path& path) {
  struct stat s {};
  return ::lstat(path.c_str(), &s) == 0 && S_ISCHR(s.st_mode) && major(s.st_rdev) == 1 &&
         minor(s.st_rdev) == 3;
}

/// Reads a FIFO in a thread: opened before any writer (so a writer's open does not block), read
/// until the writer closes it. finish() stops waiting once the writing process has ended, so a
/// writer that never opens the FIFO makes the text empty, not the test hang.
class FifoReader {
 public:
  explicit FifoReader(const std::filesystem::path& fifo)
      : fd_(::open(fifo.c_str(), O_RDONLY | O_NONBLOCK)), thread_([this] { read_all(); }) {}
  FifoReader(const FifoReader&) = delete;
  FifoReader& operator=(const FifoReader&) = delete;
  ~FifoReader() {
    if (thread_.joinable()) {
      static_cast<void>(finish());
    }
  }

  /// Call when the writer's process has ended: returns everything read.
  std::string finish() {
    writer_ended_ = true;
    thread_.join();
    if (fd_ >= 0) {
      ::close(fd_);
    }
    return text_;
  }

 private:
  void read_all() {
    if (fd_ < 0) {
      return;
    }
    for (;;) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, 20) > 0) {
        char buffer[4096];
        const ssize_t n = ::read(fd_, buffer, sizeof buffer);
        if (n > 0) {
          text_.append(buffer, static_cast<std::size_t>(n));
          continue;
        }
        if (n == 0 && (p.revents & POLLHUP) != 0) {
          return;  // the writer closed it
        }
      } else if (writer_ended_) {
        return;
      }
    }
  }

  int fd_;
  std::string text_;
  std::atomic<bool> writer_ended_{false};
  std::thread thread_;
};

}  // namespace orthosim::testing_support
