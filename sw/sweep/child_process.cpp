// posix_spawn with the child's standard output and error on pipes, read with poll().
#include "sw/sweep/child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

extern char** environ;

namespace orthosim::sw::sweep {

namespace {

void close_fd(int& fd) {
  if (fd >= 0) {
    close(fd);
    fd = -1;
  }
}

/// Reads what is available; false at end of file.
bool drain(int fd, std::string& into) {
  char buffer[65536];
  const ssize_t n = read(fd, buffer, sizeof buffer);
  if (n > 0) {
    into.append(buffer, static_cast<std::size_t>(n));
    return true;
  }
  return n < 0 && (errno == EINTR || errno == EAGAIN);
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
  // see end of file. dup2 onto 1 and 2 clears the flag for the child's own ends.
  int out_pipe[2];
  int err_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0) {
    throw std::runtime_error(std::string("cannot create a pipe: ") + std::strerror(errno));
  }
  if (pipe2(err_pipe, O_CLOEXEC) != 0) {
    close(out_pipe[0]);
    close(out_pipe[1]);
    throw std::runtime_error(std::string("cannot create a pipe: ") + std::strerror(errno));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], STDERR_FILENO);
  std::vector<std::string> argv_text{"orthosim"};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_text) {
    argv.push_back(a.data());
  }
  argv.push_back(nullptr);
  Running r;
  r.result.tag = tag;
  r.start = std::chrono::steady_clock::now();
  const int spawned =
      posix_spawn(&r.pid, "/proc/self/exe", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(out_pipe[1]);
  close(err_pipe[1]);
  if (spawned != 0) {
    close(out_pipe[0]);
    close(err_pipe[0]);
    throw std::runtime_error(std::string("cannot start orthosim: ") + std::strerror(spawned));
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
