// Progress of a long run on stderr: "[done/total] details  2.41/s  ETA 1m05s". On a terminal one
// live line (rewritten with '\r', at most twice a second); in a log file or pipe a whole line
// every 10 s and at the end, so that the file stays readable. Thread-safe.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <mutex>
#include <string>

#include "clock.h"

namespace yav {

// "42s", "3m05s", "1h02m": a duration as people read it.
inline std::string durationText(double seconds) {
  const long s = long(seconds + 0.5);
  char buf[32];
  if (s < 60)
    std::snprintf(buf, sizeof buf, "%lds", s);
  else if (s < 3600)
    std::snprintf(buf, sizeof buf, "%ldm%02lds", s / 60, s % 60);
  else
    std::snprintf(buf, sizeof buf, "%ldh%02ldm", s / 3600, s / 60 % 60);
  return buf;
}

class Progress {
 public:
  Progress(std::string unit, long total) : unit_(std::move(unit)), total_(total), tty_(isatty(2)) {}

  // `done` items of the total are finished; `details` (e.g. the score so far) goes in the line.
  void update(long done, const std::string& details = "") {
    std::lock_guard<std::mutex> lock(mutex_);
    const double now = clock_.elapsedMs();
    const bool last = done >= total_;
    if (!last && now - lastPrintMs_ < (tty_ ? 500 : 10000)) return;
    lastPrintMs_ = now;
    const double rate = now > 0 ? done / (now / 1000) : 0;
    char buf[96];
    std::snprintf(buf, sizeof buf, "[%ld/%ld] ", done, total_);
    std::string line = buf + details;
    std::snprintf(buf, sizeof buf, "%s%.2f %s/s  ", details.empty() ? "" : "  ", rate, unit_.c_str());
    line += buf;
    line += last       ? "done in " + durationText(now / 1000)
            : rate > 0 ? "ETA " + durationText((total_ - done) / rate)
                       : "ETA ?";
    std::fprintf(stderr, tty_ ? "\r\033[K%s%s" : "%s%s", line.c_str(), tty_ && !last ? "" : "\n");
    std::fflush(stderr);
  }

 private:
  std::string unit_;
  long total_;
  bool tty_;
  Stopwatch clock_;
  double lastPrintMs_ = -1e18;
  std::mutex mutex_;
};

}  // namespace yav
