// The bot's turn limits (turn_limits.h): each turn's budget, the hard stop before CodinGame's
// limit, the book check's share, fixed iterations. A later turn given the first turn's 900 ms, or
// no hard stop, loses every game on time.
#include <gtest/gtest.h>

#include "turn_limits.h"

namespace yav {
namespace {

TEST(TurnLimits, EachTurnGetsItsBudgetAndAnAnswerBeforeItsLimit) {
  const TurnBudget defaults;
  // The first turn: 900 ms, due by 900 ms (90% of the limit); 3 ms already spent reading the input.
  SearchLimits l = turnLimits(defaults, true, 1, 3.0);
  EXPECT_DOUBLE_EQ(l.timeMs, 897.0);
  EXPECT_DOUBLE_EQ(l.hardMs, 897.0);
  EXPECT_EQ(l.iterations, 0u);
  for (int turn : {2, 3, 30}) {  // every later turn: 75 ms, due by 90 ms
    l = turnLimits(defaults, false, turn, 3.0);
    EXPECT_DOUBLE_EQ(l.timeMs, 72.0) << "turn " << turn;
    EXPECT_DOUBLE_EQ(l.hardMs, 87.0) << "turn " << turn;
    EXPECT_EQ(l.seed, defaults.seed + uint64_t(turn));
  }
  // A turn whose input came late (the clock ran 95 ms already) still searches a moment.
  l = turnLimits(defaults, false, 4, 95.0);
  EXPECT_DOUBLE_EQ(l.timeMs, 1.0);
  EXPECT_DOUBLE_EQ(l.hardMs, 1.0);
  // A book turn's check gets its share of the budget; the hard stop stays the turn's.
  l = turnLimits(defaults, false, 5, 0.0, 0.25);
  EXPECT_DOUBLE_EQ(l.timeMs, 18.75);
  EXPECT_DOUBLE_EQ(l.hardMs, 90.0);
  l = turnLimits(defaults, true, 1, 0.0, 0.25);
  EXPECT_DOUBLE_EQ(l.timeMs, 225.0);
  EXPECT_DOUBLE_EQ(l.hardMs, 900.0);
}

TEST(TurnLimits, DeepTurnsAndFixedIterations) {
  TurnBudget deep;
  deep.deepTimeMs = 300, deep.deepUntilTurn = 3;
  EXPECT_DOUBLE_EQ(turnLimits(deep, false, 3, 0.0).timeMs, 300.0);
  EXPECT_DOUBLE_EQ(turnLimits(deep, false, 3, 0.0).hardMs, 300.0);  // a budget past the limit is its own stop
  EXPECT_DOUBLE_EQ(turnLimits(deep, false, 4, 0.0).timeMs, 75.0);
  EXPECT_DOUBLE_EQ(turnLimits(deep, true, 1, 0.0).timeMs, 900.0);
  TurnBudget fixed;
  fixed.iterations = 1000, fixed.seed = 40;
  for (bool first : {true, false}) {
    const SearchLimits l = turnLimits(fixed, first, 2, 50.0);
    EXPECT_EQ(l.iterations, 1000u);
    EXPECT_EQ(l.timeMs, 0.0);  // no clock: reproducible
    EXPECT_EQ(l.hardMs, 0.0);
    EXPECT_EQ(l.seed, 42u);
  }
  EXPECT_EQ(turnLimits(fixed, false, 2, 0.0, 0.25).iterations, 250u);
  fixed.iterations = 2;
  EXPECT_EQ(turnLimits(fixed, false, 2, 0.0, 0.25).iterations, 1u);
}

}  // namespace
}  // namespace yav
