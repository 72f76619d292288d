// Match statistics (the SPRT: test_arena_sprt.cpp) against reference values computed independently (python3 with the
// formulas written out in docs/arena.md; one case is also worked by hand in the comments).
#include <gtest/gtest.h>

#include "tools/arena/match.h"
#include "tools/arena/stats.h"

using namespace yav;
using namespace yav::arena;

TEST(ArenaStats, EloFromScore) {
  EXPECT_NEAR(eloFromScore(0.75), 190.848501887865, 1e-9);  // 400 log10(3)
  EXPECT_NEAR(eloFromScore(0.25), -190.848501887865, 1e-9);
  EXPECT_DOUBLE_EQ(eloFromScore(0.5), 0.0);
  EXPECT_TRUE(std::isinf(eloFromScore(1.0)));
  EXPECT_NEAR(scoreFromElo(eloFromScore(0.6)), 0.6, 1e-12);
}

TEST(ArenaStats, EloIntervalIsWilsonsIntervalOfTheScore) {
  // W 60 D 20 L 20: score 0.7 over 100 games; Wilson's interval [0.60415, 0.78105] (python3),
  // mapped to Elo: asymmetric around the estimate.
  EloEstimate e = eloEstimate(60, 20, 20);
  EXPECT_NEAR(e.score, 0.7, 1e-12);
  EXPECT_NEAR(e.elo, 147.19071411783776, 1e-9);
  EXPECT_NEAR(e.low, 73.44670814509271, 1e-9);
  EXPECT_NEAR(e.high, 220.93472009058263, 1e-9);
  EXPECT_NEAR(e.ci95, 73.74400597274496, 1e-9);
  // 8-2: finite bounds (the normal approximation gave "+- inf" here).
  const EloEstimate eight = eloEstimate(8, 0, 2);
  EXPECT_TRUE(std::isfinite(eight.low) && std::isfinite(eight.high)) << eight.low << " " << eight.high;
  EXPECT_LT(eight.low, eight.elo);
  EXPECT_GT(eight.high, eight.elo);
  // 1-1: a finite, symmetric, non-zero interval.
  const EloEstimate even = eloEstimate(1, 0, 1);
  EXPECT_TRUE(std::isfinite(even.ci95));
  EXPECT_GT(even.ci95, 0);
  EXPECT_EQ(formatElo(eight).find("inf"), std::string::npos) << formatElo(eight);
}

TEST(ArenaStats, NormalizedElo) {
  // From pairs: K (m - 1/2) / sqrt(2 var_pair), K = 800 / ln 10; interval K 1.96 / sqrt(2 N) (python3).
  NormalizedElo n = normalizedElo({5, 20, 40, 25, 10}, 0, 0, 0);
  EXPECT_NEAR(n.value, 36.35462290819022, 1e-9);
  EXPECT_NEAR(n.ci95, 48.15123066909429, 1e-9);
  // From W/D/L before two pairs are complete: W 60 D 20 L 20, sd 0.4 per game.
  n = normalizedElo({0, 0, 0, 0, 0}, 60, 20, 20);
  EXPECT_NEAR(n.value, 173.71779276130073, 1e-9);
  EXPECT_NEAR(n.ci95, 68.09612345718847, 1e-9);
  EXPECT_TRUE(std::isnan(normalizedElo({0, 0, 0, 0, 5}, 10, 0, 0).value));  // no spread: n/a
  EXPECT_EQ(formatNormalizedElo(normalizedElo({0, 0, 0, 0, 5}, 10, 0, 0)), "nElo n/a");
}

TEST(ArenaStats, EloEdgeCases) {
  EloEstimate none = eloEstimate(0, 0, 0);
  EXPECT_TRUE(std::isnan(none.score));
  EloEstimate allWins = eloEstimate(10, 0, 0);
  EXPECT_TRUE(std::isinf(allWins.elo));
  EXPECT_NEAR(allWins.low, 166.20152718389093, 1e-9);  // Wilson's lower bound stays informative
  EXPECT_TRUE(std::isinf(allWins.high));
  EloEstimate even = eloEstimate(5, 0, 5);
  EXPECT_DOUBLE_EQ(even.elo, 0.0);
  EXPECT_NEAR(even.low, -even.high, 1e-9);
}

TEST(ArenaStats, EloIntervalPentanomial) {
  // Pairs [5,20,40,25,10]: mean 0.5375, variance 0.0642 per pair, 100 pairs (python3 reference).
  EloEstimate e = pairEloEstimate({5, 20, 40, 25, 10});
  EXPECT_NEAR(e.elo, 26.10669260503662, 1e-9);
  EXPECT_NEAR(e.low, -8.457048440804229, 1e-9);
  EXPECT_NEAR(e.high, 61.19580216710877, 1e-9);
  EXPECT_NEAR(e.ci95, 34.8264253039565, 1e-9);
  EXPECT_TRUE(std::isnan(pairEloEstimate({0, 0, 0, 0, 0}).score));
  // Every pair alike: no spread, but the interval (Wilson's over the pairs) is not of zero width.
  const EloEstimate alike = pairEloEstimate({0, 0, 3, 0, 0});
  EXPECT_DOUBLE_EQ(alike.elo, 0.0);
  EXPECT_GT(alike.ci95, 100);
  EXPECT_TRUE(std::isfinite(alike.ci95));
}

TEST(ArenaStats, RepeatedGamesAreFound) {
  auto game = [](int number, int seatOfA, std::vector<Cell> cells) {
    GameRecord r;
    r.game = number, r.pair = number / 2, r.seatOfA = seatOfA;
    r.result.reason = Reason::Line4, r.result.winnerSeat = 0;
    for (Cell c : cells) r.result.moves.push_back(MoveRecord{c, 10, false, ""});
    return r;
  };
  MatchStats m;
  m.add(game(0, 0, {1, 2, 3}));
  m.add(game(1, 1, {1, 2, 3}));  // the same moves with the seats swapped: another game
  m.add(game(2, 0, {1, 2, 4}));
  m.add(game(3, 0, {1, 2, 3}));  // game 0 again
  m.add(game(4, 1, {1, 2, 3}));  // game 1 again
  ASSERT_EQ(m.repeats.size(), 2u);
  EXPECT_EQ(m.repeats[0], std::make_pair(3, 0));
  EXPECT_EQ(m.repeats[1], std::make_pair(4, 1));
  EXPECT_EQ(m.repeatOf(4), 1);
  EXPECT_EQ(m.repeatOf(2), -1);
  EXPECT_NE(repeatsText(m).find("2 of 5 repeat an earlier game"), std::string::npos) << repeatsText(m);
}

TEST(ArenaStats, LikelihoodOfSuperiority) {
  EXPECT_DOUBLE_EQ(likelihoodOfSuperiority(10, 10), 0.5);
  EXPECT_NEAR(likelihoodOfSuperiority(7, 3), 0.8970483946339658, 1e-12);
  EXPECT_NEAR(likelihoodOfSuperiority(60, 20), 0.9999961278917845, 1e-12);
  EXPECT_NEAR(likelihoodOfSuperiority(3, 7), 1 - 0.8970483946339658, 1e-12);
  EXPECT_DOUBLE_EQ(likelihoodOfSuperiority(0, 0), 0.5);
}

TEST(ArenaStats, Percentile) {
  std::vector<double> v;
  for (int i = 1; i <= 200; ++i) v.push_back(i);
  EXPECT_DOUBLE_EQ(percentile(v, 99), 198);  // nearest rank: ceil(0.99 * 200)
  EXPECT_DOUBLE_EQ(percentile(v, 100), 200);
  EXPECT_DOUBLE_EQ(percentile(std::vector<double>{5}, 99), 5);
}

GameRecord fakeRecord(int game, int seatOfA, int winnerSeat, Reason reason) {
  GameRecord r;
  r.game = game, r.pair = game / 2, r.seatOfA = seatOfA;
  r.result.winnerSeat = winnerSeat;
  r.result.reason = reason;
  return r;
}

TEST(ArenaStats, MatchCountsPairsAndSeats) {
  MatchStats m;
  m.add(fakeRecord(0, 0, 0, Reason::Line4));     // A first, A wins
  m.add(fakeRecord(1, 1, 1, Reason::Line3));     // A second, A wins (seat 1 won)
  m.add(fakeRecord(2, 0, 1, Reason::Timeout));   // A first, A loses
  m.add(fakeRecord(3, 1, -1, Reason::Draw));     // draw
  m.add(fakeRecord(4, 0, -1, Reason::Aborted));  // not counted
  EXPECT_EQ(m.wins, 2);
  EXPECT_EQ(m.losses, 1);
  EXPECT_EQ(m.draws, 1);
  EXPECT_EQ(m.aborted, 1);
  EXPECT_EQ(m.seatWins[0], 1);
  EXPECT_EQ(m.seatWins[1], 1);
  EXPECT_EQ(m.seatLosses[0], 1);
  EXPECT_EQ(m.seatDraws[1], 1);
  EXPECT_EQ(m.pairs, (Pentanomial{0, 1, 0, 0, 1}));  // pair 0: 2 points x2 = 4; pair 1: 0 + 1 = 1
  EXPECT_EQ(m.reasonLostBy[int(Reason::Line4)][1], 1);
  EXPECT_EQ(m.reasonLostBy[int(Reason::Line3)][1], 1);
  EXPECT_EQ(m.reasonLostBy[int(Reason::Timeout)][0], 1);
  EXPECT_DOUBLE_EQ(m.score(), 0.625);
}
