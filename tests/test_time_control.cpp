// The time control without a real clock: the stop rule (clock.h) fed chosen readings, and whole
// timed searches (search.h) on a fake clock with chosen pauses, under the bot's turn limits
// (turn_limits.h). Nothing here depends on the machine's speed or load: the fake clock advances a
// fixed step at each reading. How the bot's answers are timed on a real machine is measured by
// scripts/soak.sh (docs/testing.md), not asserted by a test.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <utility>
#include <vector>

#include "clock.h"
#include "search.h"
#include "turn_limits.h"

namespace yav {
namespace {

// Each reading advances the clock by `stepMs` (the work between two readings); a pause scheduled
// at a time is added at the first reading past it, as a process descheduled there would see it.
struct FakeClock {
  double nowMs = 1000, stepMs = 0.05;
  std::vector<std::pair<double, double>> pauses;  // (at, length), in the clock's own ms

  double read() {
    nowMs += stepMs;
    for (auto& [at, length] : pauses)
      if (length > 0 && nowMs >= at) nowMs += length, length = 0;
    return nowMs;
  }
  // A pause of `lengthMs` starting `fromNowMs` after the current reading.
  void pauseIn(double fromNowMs, double lengthMs) { pauses.push_back({nowMs + fromNowMs, lengthMs}); }
};

constexpr size_t kClockTestNodes = size_t(1) << 20;
const TurnBudget kShippedBudget;  // the bot's defaults: 75 ms a later turn, 900 the first

// A search that reads `clock`.
std::unique_ptr<Search> searchOn(FakeClock& clock) {
  auto s = std::make_unique<Search>(kClockTestNodes);
  s->useClock([&clock] { return clock.read(); });
  return s;
}

// The readings of a turn, one step apart from 0, with a pause of `pauseMs` at `pauseAtMs`: the
// reading at which the rule stops the search.
double stopReading(StopRule& rule, double timeMs, double hardMs, double pauseAtMs = -1, double pauseMs = 0) {
  rule.start(0);
  double now = 0;
  for (;;) {
    now += 0.1;
    if (pauseAtMs >= 0 && now >= pauseAtMs) now += pauseMs, pauseAtMs = -1;
    if (rule.stop(now, timeMs, hardMs)) return now;
  }
}

TEST(StopRule, StopsAtTheBudgetWhenNothingPauses) {
  StopRule rule;
  EXPECT_NEAR(stopReading(rule, 75, 90), 75, 0.1 + 1e-9);
  EXPECT_NEAR(stopReading(rule, 900, 900), 900 - 3 * 0.1, 0.1 + 1e-9);  // the budget is the hard stop
  EXPECT_NEAR(stopReading(rule, 30, 0), 30, 0.1 + 1e-9);                // no hard stop
  EXPECT_NEAR(rule.longestPauseMs(), 0.1, 1e-9);
}

TEST(StopRule, APauseLeavesThreeTimesItsLengthBeforeTheHardStop) {
  StopRule rule;
  // A 10 ms pause at 5 ms: from then on the search stops once within 30 ms of the hard stop.
  EXPECT_NEAR(stopReading(rule, 75, 90, 5, 10), 90 - 3 * 10.1, 0.1 + 1e-9);
  EXPECT_DOUBLE_EQ(rule.longestPauseMs(), 10.1);
  // The next turn remembers 0.9 of it; the turn after that 0.81.
  EXPECT_NEAR(stopReading(rule, 75, 90), 90 - 3 * 0.9 * 10.1, 0.1 + 1e-9);
  EXPECT_NEAR(stopReading(rule, 75, 90), 90 - 3 * 0.81 * 10.1, 0.1 + 1e-9);
  // A pause that ends past the point already stops at the reading after it.
  StopRule fresh;
  EXPECT_NEAR(stopReading(fresh, 75, 90, 50, 30), 80.0, 0.1 + 1e-9);
}

TEST(StopRule, WorkThatIsNoPauseIsNotCounted) {
  StopRule rule;
  rule.start(0);
  EXPECT_FALSE(rule.stop(1, 75, 90));
  rule.resume(40);  // 39 ms of the prover's work
  EXPECT_FALSE(rule.stop(40.5, 75, 90));
  EXPECT_DOUBLE_EQ(rule.longestPauseMs(), 1.0);
}

// Every later turn of a game on a machine that pauses the process for 20 ms once a turn, at a
// different moment each turn, the first pause right at the start of the game (the process's
// start): once that longest pause has been seen, every answer comes by 90 ms, CodinGame's 100 less
// its margin. With the pause counted once instead of three times, late pauses carry answers past.
TEST(TimeControl, EveryAnswerComesBy90MsAfterTheLongestPause) {
  FakeClock clock;
  const std::unique_ptr<Search> search = searchOn(clock);
  Board board;
  double latest = 0;
  int turns = 0;
  for (int turn = 2; turn < 60; ++turn) {
    clock.pauses.clear();  // one pause a turn: one the last turn did not reach is forgotten
    clock.pauseIn(turn == 2 ? 0.5 : std::fmod(turn * 13.7, 88.0), 20);
    const SearchLimits limits = turnLimits(kShippedBudget, false, turn, 0.0);
    ASSERT_DOUBLE_EQ(limits.hardMs, 90.0);
    const SearchResult r = search->run(board, limits);
    EXPECT_LE(r.elapsedMs, 90.0) << "turn " << turn;
    latest = std::max(latest, r.elapsedMs);
    ++turns;
    const Cell move = r.solvedMove != kNoCell ? r.solvedMove : r.move;
    ASSERT_TRUE(board.isLegal(move)) << "turn " << turn;
    if (board.play(move) != Outcome::None || board.legalMoves() == 0) board = Board();
  }
  EXPECT_EQ(turns, 58);
  EXPECT_GT(latest, 50.0) << "the turns used their time";
}

TEST(TimeControl, ALongPauseEarlyLeavesAShorterSearch) {
  const SearchLimits limits = turnLimits(kShippedBudget, false, 2, 0.0);
  FakeClock steady, paused;
  paused.pauseIn(5, 20);
  const SearchResult full = searchOn(steady)->run(Board(), limits);
  const SearchResult cut = searchOn(paused)->run(Board(), limits);
  EXPECT_GE(full.elapsedMs, 75.0);  // its whole budget
  EXPECT_LE(full.elapsedMs, 75.2);
  EXPECT_LE(cut.elapsedMs, 90.0 - 3 * 20 + 1);  // within three pauses of the hard stop
  EXPECT_LT(cut.iterations, full.iterations / 2);
  EXPECT_GT(cut.iterations, 0u);
}

// The first turn's budget is 900 ms of CodinGame's 1000; when reading the input and decoding the
// book took 200 ms of it, the search takes the other 700.
TEST(TimeControl, TheFirstTurnUsesItsBudget) {
  for (double before : {0.0, 200.0}) {
    FakeClock clock;
    clock.stepMs = 0.5;
    const SearchResult r = searchOn(clock)->run(Board(), turnLimits(kShippedBudget, true, 1, before));
    EXPECT_GE(before + r.elapsedMs, 900.0 - 4 * clock.stepMs) << before;  // less three steps' margin
    EXPECT_LE(before + r.elapsedMs, 901.5) << before;
  }
}

// --deep-time-ms: the deep early turns search their own budget, past a later turn's 75 ms.
TEST(TimeControl, ADeepTurnSearchesItsBudget) {
  TurnBudget deep;
  deep.deepTimeMs = 60, deep.deepUntilTurn = 2, deep.timeMs = 5;
  FakeClock clock;
  const std::unique_ptr<Search> search = searchOn(clock);
  const SearchResult deepTurn = search->run(Board(), turnLimits(deep, false, 2, 0.0));
  EXPECT_GE(deepTurn.elapsedMs, 60.0);
  EXPECT_LE(deepTurn.elapsedMs, 60.2);
  const SearchResult laterTurn = search->run(Board(), turnLimits(deep, false, 3, 0.0));
  EXPECT_GE(laterTurn.elapsedMs, 5.0);
  EXPECT_LE(laterTurn.elapsedMs, 5.2);
}

// A search whose budget is far away stops at its hard stop, unproven.
TEST(TimeControl, TheHardStopEndsASearchBeforeItsBudget) {
  SearchLimits l;
  l.timeMs = 30000;
  l.hardMs = 40;
  FakeClock clock;
  const SearchResult r = searchOn(clock)->run(Board(), l);
  EXPECT_GT(r.iterations, 0u);
  EXPECT_EQ(r.proof, Proof::Unknown);
  EXPECT_LE(r.elapsedMs, 40.0);
  EXPECT_GE(r.elapsedMs, 39.0);
}

}  // namespace
}  // namespace yav
