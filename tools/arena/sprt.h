// The sequential probability ratio test on game pairs (pentanomial GSPRT, logistic Elo), as
// fishtest and fastchess compute it:
//
// - A sample is a pair of games with swapped seats (and a shared opening), scoring 0, 1/4, 1/2,
//   3/4 or 1 for A. The five outcome probabilities are otherwise free: no draw model is assumed.
// - H0: the expected pair score is s0 = L(elo0), H1: s1 = L(elo1), L(e) = 1 / (1 + 10^(-e/400)).
// - LLR = N * sum_i q_i ln(p1_i / p0_i), where q is the observed pair distribution and p_s is the
//   maximum-likelihood distribution with mean s given q: p_i = q_i / (1 + theta (a_i - s)), theta
//   solving sum_i q_i (a_i - s) / (1 + theta (a_i - s)) = 0 (Van den Bergh, "Comments on
//   normalized Elo", proposition 1.1). Unlike the normal approximation it cannot explode when
//   the observed variance is tiny (a one-sided start).
// - Empty bins: the maximum-likelihood p_s may give mass to a bin not seen yet (all of it to score 0
//   or 1 when every observed pair lies on one side of s), the exact limit of ever smaller
//   pseudo-counts, so an outcome not seen yet is not impossible.
// - Regularisation: q gets one pseudo-pair split between the scores 0 and 1 in the proportions
//   that keep the observed mean m (1 - m at 0, m at 1). It widens the observed spread, so that a
//   few similar pairs do not look certain, but never moves the mean, and it weighs 1 / sqrt(N)
//   pairs, so its share shrinks as N^-1.5 (a constant weight cost power at narrow bounds with
//   balanced pairs: 0.93 at (0, 5)). The previous prior, half a pair in each bin, pulled the mean towards 1/2 and at
//   extreme bounds outweighed the results: 6 games won in a row accepted H0 at elo1 = 1000. Now N
//   pairs all won give LLR = N ln(s1 / s0) > 0 at any bounds. Error rates checked by simulation,
//   with seeded pentanomial draws, at bounds from (0, 5) to (0, 1000), in
//   tests/test_arena_sprt.cpp and build/bin/sprt_sim.
// - Wald's bounds: accept H0 at LLR <= ln(beta / (1 - alpha)), H1 at LLR >= ln((1 - beta) / alpha).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

#include "tools/arena/stats.h"

namespace yav::arena {

struct SprtConfig {
  bool enabled = false;
  double elo0 = 0, elo1 = 5, alpha = 0.05, beta = 0.05;
};
constexpr const char* kSprtModel = "pentanomial GSPRT, logistic Elo";
constexpr double kSprtPseudoPairs = 1;  // the spread-widening pseudo-pair weighs this / sqrt(N) (above)

enum class SprtDecision { Continue, AcceptH0, AcceptH1 };
inline const char* sprtDecisionName(SprtDecision d) {
  return d == SprtDecision::AcceptH1 ? "H1" : d == SprtDecision::AcceptH0 ? "H0" : "continue";
}

struct SprtState {
  double llr = 0, lower = 0, upper = 0;
  SprtDecision decision = SprtDecision::Continue;
};

using PairDistribution = std::array<double, 5>;  // probabilities of A's pair score 0, 1/4, .., 1
constexpr double pairScore(int bin) { return bin / 4.0; }

// The distribution closest to `q` (maximum likelihood: it maximises sum q_i ln p_i) among those with
// mean `s`, 0 < s < 1. Bins where q is zero may get mass: p_i = q_i / (1 + theta (a_i - s)) with
// theta in [-1/(1-s), 1/s] (where every 1 + theta d_i >= 0), solving
// f(theta) = sum q_i d_i / (1 + theta d_i) = 0, d_i = a_i - s. When no theta inside solves it (the
// observed pairs lie all on one side of s, e.g. every pair won), theta sits at the end of the
// bracket and the missing mass goes to the outermost empty bin (score 0 or 1): the exact limit of
// ever smaller pseudo-counts, not a guess.
inline PairDistribution mleWithMean(const PairDistribution& q, double s) {
  auto f = [&](double theta, double* slope) {
    double value = 0, derivative = 0;
    for (int i = 0; i < 5; ++i) {
      if (q[i] <= 0) continue;
      const double d = pairScore(i) - s, denominator = 1 + theta * d;
      value += q[i] * d / denominator;
      derivative -= q[i] * d * d / (denominator * denominator);
    }
    if (slope) *slope = derivative;
    return value;
  };
  double lo = -1 / (1 - s), hi = 1 / s, theta = 0;
  // f decreases strictly; it tends to +inf at lo only when q_4 > 0 (and to -inf at hi when q_0 > 0).
  int boundaryBin = -1;
  if (q[0] <= 0 && f(hi, nullptr) >= 0)
    theta = hi, boundaryBin = 0;
  else if (q[4] <= 0 && f(lo, nullptr) <= 0)
    theta = lo, boundaryBin = 4;
  for (int iteration = 0; boundaryBin < 0 && iteration < 200; ++iteration) {  // safeguarded Newton
    double slope = 0;
    const double value = f(theta, &slope);
    (value > 0 ? lo : hi) = theta;
    double next = slope < 0 ? theta - value / slope : (lo + hi) / 2;
    if (!(next > lo && next < hi)) next = (lo + hi) / 2;
    const bool converged = std::fabs(next - theta) < 1e-13 * std::max(1.0, std::fabs(theta));
    theta = next;
    if (converged) break;
  }
  PairDistribution p;
  double mass = 0;
  for (int i = 0; i < 5; ++i) mass += p[i] = q[i] > 0 ? q[i] / (1 + theta * (pairScore(i) - s)) : 0;
  if (boundaryBin >= 0) p[size_t(boundaryBin)] = std::max(0.0, 1 - mass);
  return p;
}

// Log-likelihood ratio of H1 against H0 after the pairs counted in `pairs`.
inline double sprtLlr(const Pentanomial& pairs, double elo0, double elo1) {
  double n = 0;
  for (int64_t c : pairs) n += double(c);
  if (n <= 0) return 0;
  PairDistribution q;
  double m = 0;
  for (int i = 0; i < 5; ++i) m += double(pairs[i]) * pairScore(i) / n;
  const double w = kSprtPseudoPairs / std::sqrt(n);
  for (int i = 0; i < 5; ++i) q[i] = double(pairs[i]) / (n + w);
  q[0] += w * (1 - m) / (n + w), q[4] += w * m / (n + w);  // the pseudo-pair keeps the mean m
  const PairDistribution p0 = mleWithMean(q, scoreFromElo(elo0)), p1 = mleWithMean(q, scoreFromElo(elo1));
  double llr = 0;
  for (int i = 0; i < 5; ++i)
    if (q[i] > 0) llr += q[i] * std::log(p1[i] / p0[i]);
  return n * llr;
}

inline SprtState sprtState(const Pentanomial& pairs, const SprtConfig& cfg) {
  SprtState s;
  s.lower = std::log(cfg.beta / (1 - cfg.alpha));
  s.upper = std::log((1 - cfg.beta) / cfg.alpha);
  s.llr = sprtLlr(pairs, cfg.elo0, cfg.elo1);
  s.decision = s.llr >= s.upper   ? SprtDecision::AcceptH1
               : s.llr <= s.lower ? SprtDecision::AcceptH0
                                  : SprtDecision::Continue;
  return s;
}

}  // namespace yav::arena
