// Match statistics (the SPRT: test_arena_sprt.cpp) against reference values computed independently (python3 with the formulas
// written out in docs/arena.md; one case is also worked by hand in the comments).
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

TEST(ArenaStats, EloIntervalTrinomial) {
  // W 60 D 20 L 20: score 0.7, per-game variance (60*.09 + 20*.04 + 20*.49)/100 = 0.16, sd of the
  // mean 0.04; interval = elo(0.7 -+ 1.96*0.04).
  EloEstimate e = eloEstimate(60, 20, 20);
  EXPECT_NEAR(e.score, 0.7, 1e-12);
  EXPECT_NEAR(e.elo, 147.19071411783776, 1e-9);
  EXPECT_NEAR(e.low, 86.22501520030423, 1e-9);
  EXPECT_NEAR(e.high, 218.2517776410748, 1e-9);
  EXPECT_NEAR(e.ci95, 66.01338122038528, 1e-9);
}

TEST(ArenaStats, EloEdgeCases) {
  EloEstimate none = eloEstimate(0, 0, 0);
  EXPECT_TRUE(std::isnan(none.score));
  EloEstimate allWins = eloEstimate(10, 0, 0);
  EXPECT_TRUE(std::isinf(allWins.elo));
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
  m.add(fakeRecord(0, 0, 0, Reason::Line4));    // A first, A wins
  m.add(fakeRecord(1, 1, 1, Reason::Line3));    // A second, A wins (seat 1 won)
  m.add(fakeRecord(2, 0, 1, Reason::Timeout));  // A first, A loses
  m.add(fakeRecord(3, 1, -1, Reason::Draw));    // draw
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
