// A turn's search limits under CodinGame's clock: the bot's budgets (later turns, its first turn,
// the deep early turns of the book's ceiling experiment) and the hard stop that keeps an answer
// before the turn's limit. Kept apart from bot/main.cpp so that tests can check the figures.
#pragma once

#include <algorithm>
#include <cstdint>

#include "search_options.h"

namespace yav {

struct TurnBudget {
  double timeMs = 75;        // later turns: 100 ms limit; 25 ms of margin for scheduling jitter
  double firstTimeMs = 900;  // the bot's own first turn: 1000 ms limit
  uint64_t iterations = 0;   // fixed iterations per turn instead of the clock
  double deepTimeMs = 0;     // turns 2..deepUntilTurn think this long (the book's ceiling experiment)
  int deepUntilTurn = 0;
  uint64_t seed = 1;
};

// The limits of turn `turnNumber` (1 = the bot's first), `elapsedMs` after its input was read, for
// a search that may use up to `share` of the turn's budget (a book turn's check: book_turn.h).
inline SearchLimits turnLimits(const TurnBudget& budget, bool firstTurn, int turnNumber, double elapsedMs,
                               double share = 1.0) {
  SearchLimits limits;
  limits.seed = budget.seed + uint64_t(turnNumber);
  if (budget.iterations) {
    limits.iterations = std::max<uint64_t>(1, uint64_t(double(budget.iterations) * share));
    return limits;
  }
  const double ms = firstTurn                                                     ? budget.firstTimeMs
                    : turnNumber <= budget.deepUntilTurn && budget.deepTimeMs > 0 ? budget.deepTimeMs
                                                                                  : budget.timeMs;
  // An answer is due by 90% of CodinGame's limit (1000 ms on the first turn, 100 later) at the
  // latest, less three times the longest pause seen on a busy machine (search.h): on the first
  // turn the process's start, which no clock of the bot sees, takes up to 210 ms there.
  const double dueMs = (firstTurn ? 1000 : 100) * 0.9;
  limits.timeMs = std::max(1.0, ms * share - elapsedMs);
  limits.hardMs = std::max(limits.timeMs, std::max(ms, dueMs) - elapsedMs);
  return limits;
}

}  // namespace yav
