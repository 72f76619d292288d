// Time for the turn budget: a stopwatch started when a turn's input was read, and the rule that
// decides when a timed search stops. The rule takes the stopwatch's readings as input, and a
// stopwatch may read a test's fake clock instead of the steady clock, so that the time control is
// tested with chosen pauses and no real time (tests/test_time_control.cpp).
#pragma once

#include <algorithm>
#include <chrono>
#include <functional>

namespace yav {

// Milliseconds since a fixed start: a test's fake clock (the steady clock when empty).
using MsClock = std::function<double()>;

class Stopwatch {
 public:
  explicit Stopwatch(const MsClock& clock = {}) : clock_(clock), start_(now()) {}
  double elapsedMs() const { return now() - start_; }

 private:
  double now() const {
    return clock_
               ? clock_()
               : std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
  }
  MsClock clock_;
  double start_;
};

// When a timed search stops: at its budget, or earlier when the next pause could carry the answer
// past the hard stop. On a loaded machine the process is descheduled for whole time slices (tens
// of ms) between two readings; the longest such pause, remembered with decay from turn to turn,
// predicts the next one. Three times it: a pause may also fall before the input was read or after
// the answer was written, where no reading sees it (twice let 8 of 2,314 later answers pass 100 ms
// with three games at once on 2 cores).
class StopRule {
 public:
  // A new search at reading `nowMs`: the pauses of earlier turns count 0.9 times as much.
  void start(double nowMs) { pauseMs_ *= 0.9, lastMs_ = nowMs; }
  // A reading after work that is no pause (the turn's prover): the next pause is measured from it.
  void resume(double nowMs) { lastMs_ = nowMs; }
  // Whether the search stops at reading `nowMs`, under its budget `timeMs` and hard stop `hardMs`
  // (0: none).
  bool stop(double nowMs, double timeMs, double hardMs) {
    pauseMs_ = std::max(pauseMs_, nowMs - lastMs_);
    lastMs_ = nowMs;
    return nowMs >= timeMs || (hardMs > 0 && nowMs + 3 * pauseMs_ >= hardMs);
  }
  double longestPauseMs() const { return pauseMs_; }

 private:
  double pauseMs_ = 0, lastMs_ = 0;
};

}  // namespace yav
