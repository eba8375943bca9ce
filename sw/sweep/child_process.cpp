// fork and exec with the child's standard output and error on pipes, read with poll(); each
// child has a parent-death signal, so that it never outlives a killed sweep.
#include "sw/sweep/child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

extern char** environ;

namespace orthosim::sw::sweep {

namespace {

/// The exit status of a child that could not become orthosim (a shell's "cannot execute").
constexpr int kCannotStart = 127;

void close_pair(int fds[2]) {
  close(fds[0]);
  close(fds[1]);
}

void close_fd(int& fd) {
  if (fd >= 0) {
    close(fd);
    fd = -1;
  }
}

/// Reads what is available; false at end of file. Called only for a pipe that poll() found
/// readable or hung up, so the read returns at once: with data, or 0 at the end. It does not
/// block, so no signal interrupts it, and an error (which a pipe does not give) ends the
/// stream as the end of file does.
bool drain(int fd, std::string& into) {
  char buffer[65536];
  const ssize_t n = read(fd, buffer, sizeof buffer);
  if (n <= 0) {
    return false;
  }
  into.append(buffer, static_cast<std::size_t>(n));
  return true;
}

}  // namespace

ChildPool::~ChildPool() {
  for (Running& r : running_) {
    kill(r.pid, SIGTERM);
    close_fd(r.out_fd);
    close_fd(r.err_fd);
    int status = 0;
    waitpid(r.pid, &status, 0);
  }
}

void ChildPool::start(std::size_t tag, const std::vector<std::string>& args) {
  // O_CLOEXEC: a child must not inherit its siblings' pipe ends, or their readers would never
  // see end of file. dup2 onto 1 and 2 clears the flag for the child's own ends. The third pipe
  // carries errno when exec fails, and is closed by a successful exec.
  int out_pipe[2];
  int err_pipe[2];
  int exec_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0) {
    throw std::runtime_error(std::string("cannot create a pipe: ") + std::strerror(errno));
  }
  if (pipe2(err_pipe, O_CLOEXEC) != 0) {
    const int error = errno;
    close_pair(out_pipe);
    throw std::runtime_error(std::string("cannot create a pipe: ") + std::strerror(error));
  }
  if (pipe2(exec_pipe, O_CLOEXEC) != 0) {
    const int error = errno;
    close_pair(out_pipe);
    close_pair(err_pipe);
    throw std::runtime_error(std::string("cannot create a pipe: ") + std::strerror(error));
  }
  // Everything the child needs is made before fork: between fork and exec it may only make
  // async-signal-safe calls.
  std::vector<std::string> argv_text{"orthosim"};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_text) {
    argv.push_back(a.data());
  }
  argv.push_back(nullptr);
  const pid_t parent = getpid();
  Running r;
  r.result.tag = tag;
  r.start = std::chrono::steady_clock::now();
  r.pid = fork();
  if (r.pid == 0) {
    // The child dies with the sweep, which a SIGKILL gives no chance to end it. The kernel sends
    // the signal when the thread that forked exits; a parent already gone before prctl took
    // effect shows as another parent id.
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) == 0 && getppid() == parent &&
        dup2(out_pipe[1], STDOUT_FILENO) >= 0 && dup2(err_pipe[1], STDERR_FILENO) >= 0) {
      execve("/proc/self/exe", argv.data(), environ);
    }
    const int error = errno;
    static_cast<void>(write(exec_pipe[1], &error, sizeof error));
    _exit(kCannotStart);
  }
  const int fork_error = errno;
  close(out_pipe[1]);
  close(err_pipe[1]);
  close(exec_pipe[1]);
  int exec_error = 0;
  const bool exec_failed = r.pid > 0 && read(exec_pipe[0], &exec_error, sizeof exec_error) ==
                                            static_cast<ssize_t>(sizeof exec_error);
  close(exec_pipe[0]);
  if (r.pid < 0 || exec_failed) {
    close(out_pipe[0]);
    close(err_pipe[0]);
    if (exec_failed) {
      int status = 0;
      waitpid(r.pid, &status, 0);
    }
    throw std::runtime_error(std::string("cannot start orthosim: ") +
                             std::strerror(r.pid < 0 ? fork_error : exec_error));
  }
  r.out_fd = out_pipe[0];
  r.err_fd = err_pipe[0];
  running_.push_back(std::move(r));
}

std::vector<ChildResult> ChildPool::wait(int timeout_ms) {
  std::vector<pollfd> fds;
  for (const Running& r : running_) {
    for (int fd : {r.out_fd, r.err_fd}) {
      if (fd >= 0) {
        fds.push_back({fd, POLLIN, 0});
      }
    }
  }
  // With no child running this only sleeps, which paces a rank waiting for others' rows.
  if (poll(fds.data(), fds.size(), timeout_ms) < 0 && errno != EINTR) {
    throw std::runtime_error(std::string("poll: ") + std::strerror(errno));
  }
  for (const pollfd& p : fds) {
    if (p.revents == 0) {
      continue;
    }
    for (Running& r : running_) {
      if (p.fd == r.out_fd && !drain(r.out_fd, r.result.out)) {
        close_fd(r.out_fd);
      } else if (p.fd == r.err_fd && !drain(r.err_fd, r.result.err)) {
        close_fd(r.err_fd);
      }
    }
  }
  std::vector<ChildResult> done;
  for (auto it = running_.begin(); it != running_.end();) {
    if (it->out_fd >= 0 || it->err_fd >= 0) {
      ++it;
      continue;
    }
    int status = 0;
    while (waitpid(it->pid, &status, 0) < 0 && errno == EINTR) {
    }
    it->result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
    it->result.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - it->start).count();
    done.push_back(std::move(it->result));
    it = running_.erase(it);
  }
  return done;
}

}  // namespace orthosim::sw::sweep
