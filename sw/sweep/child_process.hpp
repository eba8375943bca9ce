// Children of the running executable (/proc/self/exe): SystemC elaborates once per process
// (toolchain fact 2), so every point of a sweep is its own `orthosim` process. Up to `jobs` run at once;
// their standard output and error are captured through pipes. A child gets SIGKILL when the
// thread that started it ends (prctl's parent-death signal), so no point outlives a killed sweep.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

namespace orthosim::sw::sweep {

struct ChildResult {
  std::size_t tag = 0;  ///< what the caller started it for (a point index)
  int exit_code = -1;   ///< the exit status, or -signal when a signal ended it
  std::string out;
  std::string err;
  double seconds = 0;  ///< wall time from spawn to exit
};

class ChildPool {
 public:
  explicit ChildPool(std::size_t jobs) : jobs_(jobs == 0 ? 1 : jobs) {}
  ChildPool(const ChildPool&) = delete;
  ChildPool& operator=(const ChildPool&) = delete;
  /// Ends the children still running (an error stopped the sweep).
  ~ChildPool();

  [[nodiscard]] bool full() const { return running_.size() >= jobs_; }
  [[nodiscard]] bool idle() const { return running_.empty(); }

  /// Starts `/proc/self/exe args...`; throws std::runtime_error if it cannot.
  void start(std::size_t tag, const std::vector<std::string>& args);
  /// Collects output for up to `timeout_ms` and returns the children that ended meanwhile.
  std::vector<ChildResult> wait(int timeout_ms);

 private:
  struct Running {
    ChildResult result;
    pid_t pid = -1;
    int out_fd = -1;
    int err_fd = -1;
    std::chrono::steady_clock::time_point start;
  };
  std::size_t jobs_;
  std::vector<Running> running_;
};

}  // namespace orthosim::sw::sweep
