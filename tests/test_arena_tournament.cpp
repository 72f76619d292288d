// Tournament statistics: maximum-likelihood Bradley-Terry ratings (against closed forms and
// exactly logistic data), their error bars, and the Wilson score interval of the cross table.
#include <gtest/gtest.h>

#include "tools/arena/tournament.h"

using namespace yav::arena;

namespace {

// Points of a player `elo` stronger than its opponent over `games`, exactly as the model expects.
double expectedPoints(double elo, double games) { return games * scoreFromElo(elo); }

MatchStats stats(int wins, int draws, int losses) {
  MatchStats m;
  m.wins = wins, m.draws = draws, m.losses = losses;
  return m;
}

}  // namespace

TEST(ArenaTournament, TwoBotsMatchTheClosedForm) {
  // 750 of 1000 points for bot 0; with the virtual draw the estimate is elo(750.5 / 1001) and the
  // 95% half width 1.96 / (c sqrt(n p (1 - p))), c = ln 10 / 400 (python3).
  const std::vector<Rating> r = bradleyTerry(2, {{0, 1, 1000, 750}});
  EXPECT_DOUBLE_EQ(r[0].elo, 0);
  EXPECT_NEAR(r[1].elo, -190.61718655040985, 1e-6);
  EXPECT_NEAR(r[1].ci95, 24.844497601988344, 1e-6);
}

TEST(ArenaTournament, RoundRobinRecoversLogisticRatings) {
  const double truth[4] = {0, -100, 50, -300};
  std::vector<PairingScore> scores;
  for (int i = 0; i < 4; ++i)
    for (int j = i + 1; j < 4; ++j) scores.push_back({i, j, 100000, expectedPoints(truth[i] - truth[j], 100000)});
  const std::vector<Rating> r = bradleyTerry(4, scores);
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(r[size_t(i)].elo, truth[i], 0.5) << "bot " << i;
  for (int i = 1; i < 4; ++i) EXPECT_LT(r[size_t(i)].ci95, 6) << "bot " << i;
}

TEST(ArenaTournament, GauntletChainsThroughTheAnchor) {
  // 0 beats 1 by 100 and 2 by 200; 1 and 2 never meet but are placed relative to each other.
  const std::vector<Rating> r =
      bradleyTerry(3, {{0, 1, 50000, expectedPoints(100, 50000)}, {0, 2, 50000, expectedPoints(200, 50000)}});
  EXPECT_NEAR(r[1].elo, -100, 0.5);
  EXPECT_NEAR(r[2].elo, -200, 0.5);
  EXPECT_GT(r[2].ci95, r[1].ci95);  // a lopsided score says less per game
}

TEST(ArenaTournament, UnbeatenBotHasAFiniteRatingAndUnplayedBotAnInfiniteInterval) {
  const std::vector<Rating> r = bradleyTerry(3, {{0, 1, 10, 0}});
  EXPECT_TRUE(std::isfinite(r[1].elo));
  EXPECT_GT(r[1].elo, 300);
  EXPECT_DOUBLE_EQ(r[2].elo, 0);
  EXPECT_TRUE(std::isinf(r[2].ci95));
}

TEST(ArenaTournament, WilsonScoreInterval) {
  ScoreInterval ci = scoreInterval(stats(10, 0, 0));  // all won: not a zero-width interval
  EXPECT_NEAR(ci.low, 0.7224672001371107, 1e-9);
  EXPECT_NEAR(ci.high, 1.0, 1e-9);
  ci = scoreInterval(stats(30, 0, 20));
  EXPECT_NEAR(ci.low, 0.4618143774758936, 1e-9);
  EXPECT_NEAR(ci.high, 0.7239161026974346, 1e-9);
  EXPECT_TRUE(std::isnan(scoreInterval(stats(0, 0, 0)).low));
}
