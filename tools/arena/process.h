// A bot process: `/bin/sh -c COMMAND` in its own process group with stdin/stdout pipes, read line
// by line against a deadline. Killing it kills the whole group (the shell and anything it
// started), and it is always reaped, so no zombie or orphan survives a game.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <chrono>
#include <cstring>
#include <string>
#include <thread>

namespace yav::arena {

// Set by the arena's SIGINT/SIGTERM handler: every wait returns promptly so games can be aborted.
inline std::atomic<bool>& stopRequested() {
  static std::atomic<bool> flag{false};
  return flag;
}

using Clock = std::chrono::steady_clock;
inline double msSince(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

// An unnamed temporary file (gone once closed) for a bot's stderr, kept to show why it failed;
// -1 when none can be made.
inline int unnamedTemporaryFile() {
  const char* dir = std::getenv("TMPDIR");
  std::string path = std::string(dir && *dir ? dir : "/tmp") + "/arena-stderr-XXXXXX";
  const int fd = mkostemp(&path[0], O_CLOEXEC);
  if (fd >= 0) unlink(path.c_str());
  return fd;
}

// The first `max` bytes of the file open as `fd`.
inline std::string fileStart(int fd, size_t max = 4000) {
  std::string text(max, '\0');
  const ssize_t n = pread(fd, &text[0], max, 0);
  text.resize(n > 0 ? size_t(n) : 0);
  return text;
}

class BotProcess {
 public:
  enum class ReadStatus { Line, Timeout, Closed, Stopped };

  BotProcess() = default;
  BotProcess(const BotProcess&) = delete;
  BotProcess& operator=(const BotProcess&) = delete;
  ~BotProcess() { kill(); }

  // Starts the command; stderr goes to `stderrFd` (or /dev/null when -1). Returns false with
  // `error` set when the process could not be created.
  bool start(const std::string& command, int stderrFd, std::string& error) {
    // Writing to a bot that already exited must fail with EPIPE, not kill the referee.
    static const bool sigpipeIgnored = (signal(SIGPIPE, SIG_IGN), true);
    (void)sigpipeIgnored;
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) != 0) return fail(error, "pipe");
    if (pipe2(out, O_CLOEXEC) != 0) {
      close(in[0]), close(in[1]);
      return fail(error, "pipe");
    }
    int errFd = stderrFd >= 0 ? stderrFd : open("/dev/null", O_WRONLY | O_CLOEXEC);
    const pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
      close(in[0]), close(in[1]), close(out[0]), close(out[1]);
      if (stderrFd < 0 && errFd >= 0) close(errFd);
      return fail(error, "fork");
    }
    if (pid == 0) {  // child: only async-signal-safe calls until exec
      setpgid(0, 0);
      prctl(PR_SET_PDEATHSIG, SIGKILL);  // the shell dies with the arena even on SIGKILL
      if (getppid() != parent) _exit(127);
      dup2(in[0], 0);
      dup2(out[1], 1);
      if (errFd >= 0) dup2(errFd, 2);
      signal(SIGPIPE, SIG_DFL);
      signal(SIGINT, SIG_DFL);
      execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    setpgid(pid, pid);  // also here, so the group exists before we could signal it
    close(in[0]), close(out[1]);
    if (stderrFd < 0 && errFd >= 0) close(errFd);
    pid_ = pid, toBot_ = in[1], fromBot_ = out[0];
    fcntl(fromBot_, F_SETFL, fcntl(fromBot_, F_GETFL) | O_NONBLOCK);
    buffer_.clear();
    return true;
  }

  // Writes all of `text`; false when the bot no longer reads (it exited).
  bool send(const std::string& text) {
    size_t done = 0;
    while (done < text.size()) {
      ssize_t n = write(toBot_, text.data() + done, text.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;
      done += size_t(n);
    }
    return true;
  }

  // Reads one line (without the newline, a trailing '\r' removed) before `deadline`. Lines the bot
  // printed earlier are returned first, as the CodinGame referee reads them in order.
  ReadStatus readLine(std::string& line, Clock::time_point deadline) {
    for (;;) {
      size_t nl = buffer_.find('\n');
      if (nl != std::string::npos) {
        line = buffer_.substr(0, nl);
        buffer_.erase(0, nl + 1);
        if (!line.empty() && line.back() == '\r') line.pop_back();
        return ReadStatus::Line;
      }
      if (closed_) {
        line = buffer_;
        return ReadStatus::Closed;
      }
      if (buffer_.size() > kMaxAnswerBytes) {  // endless output without a newline: hand it over as the answer
        line = buffer_.substr(0, kMaxAnswerBytes);
        buffer_.clear();
        return ReadStatus::Line;
      }
      if (stopRequested()) return ReadStatus::Stopped;
      const double left = std::chrono::duration<double, std::milli>(deadline - Clock::now()).count();
      if (left <= 0) return ReadStatus::Timeout;
      pollfd p{fromBot_, POLLIN, 0};
      int r = poll(&p, 1, int(std::min(left, 50.0)) + 1);
      if (r < 0 && errno != EINTR) {
        closed_ = true;
        continue;
      }
      if (r <= 0) continue;
      char chunk[4096];
      ssize_t n = read(fromBot_, chunk, sizeof chunk);
      if (n > 0)
        buffer_.append(chunk, size_t(n));
      else if (n == 0 || (errno != EAGAIN && errno != EINTR))
        closed_ = true;
    }
  }

  // How the process ended, when it already has (after a Closed read): "exit code N" / "signal N".
  std::string exitDescription(int waitMs = 100) {
    if (pid_ <= 0) return exitText_;
    auto start = Clock::now();
    for (;;) {
      int status = 0;
      pid_t r = waitpid(pid_, &status, WNOHANG);
      if (r == pid_) {
        reaped(status);
        return exitText_;
      }
      if (r < 0 || msSince(start) >= waitMs) return "still running";
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  }

  // Kills the whole process group and reaps the shell. Safe to call twice.
  void kill() {
    if (toBot_ >= 0) close(toBot_), toBot_ = -1;
    if (fromBot_ >= 0) close(fromBot_), fromBot_ = -1;
    if (pid_ > 0) {
      ::kill(-pid_, SIGKILL);
      ::kill(pid_, SIGKILL);
      int status = 0;
      while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
      }
      pid_ = -1;
    }
  }

  pid_t pid() const { return pid_; }

 private:
  static bool fail(std::string& error, const char* what) {
    error = std::string(what) + " failed: " + std::strerror(errno);
    return false;
  }
  void reaped(int status) {
    if (WIFEXITED(status)) {
      const int code = WEXITSTATUS(status);
      exitText_ = "exit code " + std::to_string(code);
      if (code > 128 && code < 128 + 65)
        exitText_ += " (signal " + std::to_string(code - 128) + " in the shell's child)";
    } else if (WIFSIGNALED(status))
      exitText_ = "killed by signal " + std::to_string(WTERMSIG(status));
    ::kill(-pid_, SIGKILL);  // children the shell left behind
    pid_ = -1;
  }

  static constexpr size_t kMaxAnswerBytes = 1 << 16;

  pid_t pid_ = -1;
  int toBot_ = -1, fromBot_ = -1;
  std::string buffer_;
  bool closed_ = false;
  std::string exitText_;
};

}  // namespace yav::arena
