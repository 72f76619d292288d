// Wall-clock time for the turn budget: a stopwatch started when a turn's input was read.
#pragma once

#include <chrono>

namespace yav {

class Stopwatch {
 public:
  using Clock = std::chrono::steady_clock;
  Stopwatch() : start_(Clock::now()) {}
  double elapsedMs() const { return std::chrono::duration<double, std::milli>(Clock::now() - start_).count(); }

 private:
  Clock::time_point start_;
};

}  // namespace yav
