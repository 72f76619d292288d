// The SPRT: LLR against values computed independently (python3, bisection instead of Newton, the
// formulas of docs/arena.md), and its promises checked by simulation: seeded pentanomial draws,
// no bots. At the true Elo elo0 at most alpha of the runs may accept H1; at elo1 at least 1 - beta.
#include <gtest/gtest.h>

#include <cmath>

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

TEST(ArenaSprt, MaximumLikelihoodGivesMassToAnEmptyOuterBinWhenNeeded) {
  // Every observed pair on one side of s: the missing mass goes to score 0 (or 1).
  const PairDistribution won = {0, 0, 0, 0, 1};
  PairDistribution p = mleWithMean(won, 0.6);
  EXPECT_NEAR(p[4], 0.6, 1e-12);
  EXPECT_NEAR(p[0], 0.4, 1e-12);
  p = mleWithMean({0, 0, 1, 0, 0}, 0.6);  // only splits observed, s above them
  EXPECT_NEAR(p[2], 0.8, 1e-12);
  EXPECT_NEAR(p[4], 0.2, 1e-12);
  EXPECT_NEAR(mean(p), 0.6, 1e-12);
}

TEST(ArenaSprt, LlrMatchesIndependentComputation) {
  // python3: the same formulas, with bisection instead of Newton (docs/arena.md).
  EXPECT_NEAR(sprtLlr({5, 20, 40, 25, 10}, 0, 10), 0.66961690363065, 1e-7);
  EXPECT_NEAR(sprtLlr({10, 25, 40, 20, 5}, 0, 10), -0.9766013458163778, 1e-7);
  EXPECT_NEAR(sprtLlr({100, 400, 1000, 420, 110}, 0, 5), 0.3797407419990363, 1e-7);
  EXPECT_NEAR(sprtLlr({3, 0, 50, 0, 9}, -5, 15), 1.5339472732818842, 1e-7);
  EXPECT_NEAR(sprtLlr({1, 0, 0, 0, 9}, 0, 1000), 1.143436191352749, 1e-7);
  EXPECT_NEAR(sprtLlr({0, 0, 3, 0, 2}, 0, 200), 0.9540007489310771, 1e-7);
  EXPECT_NEAR(sprtLlr({0, 0, 6, 0, 0}, 0, 20), -0.12536525819721067, 1e-7);
  EXPECT_DOUBLE_EQ(sprtLlr({0, 0, 0, 0, 0}, 0, 5), 0.0);
}

TEST(ArenaSprt, OneSidedStartNeedsRealEvidence) {
  // All pairs won: the old normal approximation (a 1e-3 prior per bin) accepted H1 after one pair.
  // Now the LLR grows by exactly ln(s1 / s0) per pair, about 0.056 for elo1 = 20.
  EXPECT_NEAR(sprtLlr({0, 0, 0, 0, 30}, 0, 10), 0.8510448015031958, 1e-7);
  const SprtConfig cfg = config(0, 20);
  EXPECT_EQ(sprtState({0, 0, 0, 0, 3}, cfg).decision, SprtDecision::Continue);
  EXPECT_EQ(sprtState({0, 0, 0, 0, 52}, cfg).decision, SprtDecision::Continue);
  EXPECT_EQ(sprtState({0, 0, 0, 0, 53}, cfg).decision, SprtDecision::AcceptH1);
  EXPECT_EQ(sprtState({53, 0, 0, 0, 0}, cfg).decision, SprtDecision::AcceptH0);
}

TEST(ArenaSprt, PerfectWinnerNeverAcceptsH0AtAnyBounds) {
  // The reported case: 6 games won (3 pairs) accepted H0 at elo1 = 1000 with the old prior.
  for (double elo1 : {5.0, 40.0, 200.0, 600.0, 1000.0, 2000.0, 4000.0}) {
    const SprtConfig cfg = config(0, elo1);
    for (int64_t n = 1; n <= 300; ++n) {
      const SprtState s = sprtState({0, 0, 0, 0, n}, cfg);
      ASSERT_NE(s.decision, SprtDecision::AcceptH0) << "elo1 " << elo1 << ", " << n << " pairs won";
      ASSERT_NEAR(s.llr, double(n) * std::log(scoreFromElo(elo1) / 0.5), 1e-9);
    }
    // Near-perfect: while the observed score is at least s1, the LLR stays positive (a split pair
    // is itself evidence against elo1 = 2000, where a pair is split once in 10^5).
    for (int64_t splits = 1; splits <= 3; ++splits)
      for (int64_t n = 1; n <= 300; ++n) {
        const Pentanomial pairs = {0, 0, splits, 0, n};
        const double score = (0.5 * double(splits) + double(n)) / double(splits + n);
        if (score >= scoreFromElo(elo1)) {
          ASSERT_GT(sprtLlr(pairs, 0, elo1), 0) << elo1 << " " << splits << " " << n;
        }
      }
  }
  EXPECT_EQ(sprtState({0, 0, 0, 0, 5}, config(0, 600)).decision, SprtDecision::AcceptH1);
  EXPECT_EQ(sprtState({0, 0, 0, 0, 5}, config(0, 1000)).decision, SprtDecision::AcceptH1);
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

TEST(ArenaSprt, ErrorRatesHoldAtExtremeBounds) {
  // Wide bounds decide within a few pairs, where a prior or an approximation matters most.
  for (double elo1 : {40.0, 200.0, 1000.0})
    for (const PairDistribution& shape : {kSplitHeavy, kBalanced}) {
      const SprtConfig cfg = config(0, elo1);
      const SprtSimulation atElo0 = simulateSprt(cfg, tiltedToScore(shape, scoreFromElo(0)), kRuns, 100000, 21);
      const SprtSimulation atElo1 = simulateSprt(cfg, tiltedToScore(shape, scoreFromElo(elo1)), kRuns, 100000, 22);
      EXPECT_LE(atElo0.shareH1(), cfg.alpha + kTolerance) << "elo1 " << elo1;
      EXPECT_GE(atElo1.shareH1(), 1 - cfg.beta - kTolerance) << "elo1 " << elo1;
      EXPECT_EQ(atElo0.undecided + atElo1.undecided, 0);
    }
}

TEST(ArenaSprt, ClearlyStrongerBotIsAcceptedFast) {
  // True Elo 150 against H1 = 20: H1 nearly always, in far fewer pairs than at elo1.
  const SprtSimulation sim =
      simulateSprt(config(0, 20), tiltedToScore(kSplitHeavy, scoreFromElo(150)), 500, 100000, 13);
  EXPECT_GE(sim.shareH1(), 0.99);
  EXPECT_LT(sim.meanPairs, 120);
}
