// The SPRT: LLR against values computed independently (python3, bisection instead of Newton, the
// formulas of docs/arena.md), and its promises checked by simulation: seeded pentanomial draws,
// no bots. At the true Elo elo0 at most alpha of the runs may accept H1; at elo1 at least 1 - beta.
#include <gtest/gtest.h>

#include "tools/arena/sprt.h"
#include "tools/arena/sprt_simulation.h"

using namespace yav::arena;

namespace {

double mean(const PairDistribution& p) {
  double m = 0;
  for (int i = 0; i < 5; ++i) m += p[i] * pairScore(i);
  return m;
}
double sum(const PairDistribution& p) { return p[0] + p[1] + p[2] + p[3] + p[4]; }

SprtConfig config(double elo0, double elo1) {
  SprtConfig cfg;
  cfg.enabled = true, cfg.elo0 = elo0, cfg.elo1 = elo1, cfg.alpha = 0.05, cfg.beta = 0.05;
  return cfg;
}

// Yavalath-like pairs at equal strength: mostly split (each bot wins with the first move).
const PairDistribution kSplitHeavy = {0.10, 0.02, 0.76, 0.02, 0.10};
const PairDistribution kBalanced = {0.06, 0.22, 0.44, 0.22, 0.06};
constexpr int kRuns = 2000;
constexpr double kTolerance = 0.02;  // 4 binomial standard deviations at 2000 runs and 5%

}  // namespace

TEST(ArenaSprt, MaximumLikelihoodDistributionHasTheRequestedMean) {
  const PairDistribution q = {0.1, 0.2, 0.3, 0.25, 0.15};
  for (double s : {0.3, 0.5, 0.5125, 0.7}) {
    const PairDistribution p = mleWithMean(q, s);
    EXPECT_NEAR(mean(p), s, 1e-9);
    EXPECT_NEAR(sum(p), 1, 1e-9);
    for (double v : p) EXPECT_GT(v, 0);
  }
  const PairDistribution same = mleWithMean(q, mean(q));  // already has that mean: unchanged
  for (int i = 0; i < 5; ++i) EXPECT_NEAR(same[i], q[i], 1e-9);
}

TEST(ArenaSprt, LlrMatchesIndependentComputation) {
  EXPECT_NEAR(sprtLlr({5, 20, 40, 25, 10}, 0, 10), 0.6363708137864169, 1e-7);
  EXPECT_NEAR(sprtLlr({10, 25, 40, 20, 5}, 0, 10), -0.9378432943939745, 1e-7);
  EXPECT_NEAR(sprtLlr({100, 400, 1000, 420, 110}, 0, 5), 0.37735281219577355, 1e-7);
  EXPECT_NEAR(sprtLlr({3, 0, 50, 0, 9}, -5, 15), 1.39019366718672, 1e-7);
  EXPECT_DOUBLE_EQ(sprtLlr({0, 0, 0, 0, 0}, 0, 5), 0.0);
}

TEST(ArenaSprt, OneSidedStartNeedsRealEvidence) {
  // All pairs won: the old normal approximation (a 1e-3 prior per bin) accepted H1 after one pair.
  // Half a pair per bin keeps the LLR finite and growing about 0.05 per pair for elo1 = 20.
  EXPECT_NEAR(sprtLlr({0, 0, 0, 0, 30}, 0, 10), 0.8225657973722608, 1e-7);
  const SprtConfig cfg = config(0, 20);
  EXPECT_EQ(sprtState({0, 0, 0, 0, 3}, cfg).decision, SprtDecision::Continue);
  EXPECT_EQ(sprtState({0, 0, 0, 0, 53}, cfg).decision, SprtDecision::Continue);
  EXPECT_EQ(sprtState({0, 0, 0, 0, 54}, cfg).decision, SprtDecision::AcceptH1);
  EXPECT_EQ(sprtState({54, 0, 0, 0, 0}, cfg).decision, SprtDecision::AcceptH0);
}

TEST(ArenaSprt, BoundsAndDecision) {
  SprtState s = sprtState({5, 20, 40, 25, 10}, config(0, 10));
  EXPECT_NEAR(s.lower, -2.9444389791664403, 1e-12);
  EXPECT_NEAR(s.upper, 2.9444389791664403, 1e-12);
  EXPECT_EQ(s.decision, SprtDecision::Continue);
  EXPECT_EQ(sprtState({50, 200, 400, 250, 100}, config(0, 10)).decision, SprtDecision::AcceptH1);
  EXPECT_EQ(sprtState({100, 250, 400, 200, 50}, config(0, 10)).decision, SprtDecision::AcceptH0);
}

TEST(ArenaSprt, TiltedDistributionHasTheTargetScore) {
  for (double elo : {-40.0, 0.0, 20.0, 200.0}) {
    const PairDistribution p = tiltedToScore(kSplitHeavy, scoreFromElo(elo));
    EXPECT_NEAR(mean(p), scoreFromElo(elo), 1e-9);
    EXPECT_NEAR(sum(p), 1, 1e-9);
  }
}

TEST(ArenaSprt, FalsePositivesStayWithinAlpha) {
  for (const PairDistribution& shape : {kSplitHeavy, kBalanced}) {
    const SprtConfig cfg = config(0, 20);
    const SprtSimulation sim = simulateSprt(cfg, tiltedToScore(shape, scoreFromElo(0)), kRuns, 100000, 11);
    EXPECT_EQ(sim.undecided, 0);
    EXPECT_LE(sim.shareH1(), cfg.alpha + kTolerance) << "mean pairs " << sim.meanPairs;
    EXPECT_GT(sim.meanPairs, 50);  // no decision on a handful of pairs
  }
}

TEST(ArenaSprt, PowerAtElo1IsAtLeastOneMinusBeta) {
  for (const PairDistribution& shape : {kSplitHeavy, kBalanced}) {
    const SprtConfig cfg = config(0, 20);
    const SprtSimulation sim = simulateSprt(cfg, tiltedToScore(shape, scoreFromElo(20)), kRuns, 100000, 12);
    EXPECT_EQ(sim.undecided, 0);
    EXPECT_GE(sim.shareH1(), 1 - cfg.beta - kTolerance) << "mean pairs " << sim.meanPairs;
  }
}

TEST(ArenaSprt, ClearlyStrongerBotIsAcceptedFast) {
  // True Elo 150 against H1 = 20: H1 nearly always, in far fewer pairs than at elo1.
  const SprtSimulation sim = simulateSprt(config(0, 20), tiltedToScore(kSplitHeavy, scoreFromElo(150)), 500, 100000, 13);
  EXPECT_GE(sim.shareH1(), 0.99);
  EXPECT_LT(sim.meanPairs, 120);
}
