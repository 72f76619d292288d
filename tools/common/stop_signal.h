// Stopping a long run with Ctrl-C. The long-running tools (arena, bookgen, search_match, tactics)
// answer SIGINT and SIGTERM alike: no new item starts, the ones begun finish (the arena aborts its
// running games instead), what finished is reported or saved, and the exit status is
// kInterruptedStatus, as a shell reports a Ctrl-C.
#pragma once

#include <signal.h>

#include <atomic>

namespace yav {

inline constexpr int kInterruptedStatus = 128 + SIGINT;

namespace stop_signal_detail {
// A pointer, so that each tool keeps its own flag: the arena's also cuts short the answer a bot is
// giving, which must not happen when tactics asks a program and is stopped.
inline std::atomic<std::atomic<bool>*> target{nullptr};
inline void onSignal(int) {
  if (std::atomic<bool>* flag = target.load()) flag->store(true);
}
}  // namespace stop_signal_detail

// How a tool stops.
enum class StopStyle {
  Finish,  // blocking calls the signal interrupts are restarted, as with std::signal: a file being
           // written or a search under way finishes
  Abort,   // they return EINTR at once, and SIGHUP stops too: the arena aborts its running games
};

// From now on SIGINT and SIGTERM set `flag`, which must outlive the run.
inline void stopOnSignals(std::atomic<bool>& flag, StopStyle style = StopStyle::Finish) {
  static_assert(std::atomic<std::atomic<bool>*>::is_always_lock_free, "set from a signal handler");
  stop_signal_detail::target.store(&flag);
  struct sigaction action {};
  action.sa_handler = stop_signal_detail::onSignal;
  action.sa_flags = style == StopStyle::Finish ? SA_RESTART : 0;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
  if (style == StopStyle::Abort) sigaction(SIGHUP, &action, nullptr);
}

}  // namespace yav
