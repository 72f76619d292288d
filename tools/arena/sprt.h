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
// - Empty bins: q adds half a pair to each of the five bins (N stays the real count of pairs), so
//   an outcome not seen yet is not treated as impossible. Checked by simulation, with seeded
//   pentanomial draws, in tests/test_arena_sprt.cpp and build/bin/sprt_sim.
// - Wald's bounds: accept H0 at LLR <= ln(beta / (1 - alpha)), H1 at LLR >= ln((1 - beta) / alpha).
#pragma once

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
constexpr double kSprtPseudoPairs = 0.5;  // added to each of the five bins

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

// The distribution closest to `q` (maximum likelihood) among those with mean `s`, 0 < s < 1, for a
// `q` with every bin positive.
inline PairDistribution mleWithMean(const PairDistribution& q, double s) {
  // f(theta) = sum q_i d_i / (1 + theta d_i) decreases strictly on (-1/(1-s), 1/s), from +inf to
  // -inf: safeguarded Newton inside the shrinking bracket.
  double lo = -1 / (1 - s), hi = 1 / s, theta = 0;
  for (int iteration = 0; iteration < 100; ++iteration) {
    double f = 0, slope = 0;
    for (int i = 0; i < 5; ++i) {
      const double d = pairScore(i) - s, denominator = 1 + theta * d;
      f += q[i] * d / denominator;
      slope -= q[i] * d * d / (denominator * denominator);
    }
    (f > 0 ? lo : hi) = theta;
    double next = theta - f / slope;
    if (!(next > lo && next < hi)) next = (lo + hi) / 2;
    const bool converged = std::fabs(next - theta) < 1e-12;
    theta = next;
    if (converged) break;
  }
  PairDistribution p;
  for (int i = 0; i < 5; ++i) p[i] = q[i] / (1 + theta * (pairScore(i) - s));
  return p;
}

// Log-likelihood ratio of H1 against H0 after the pairs counted in `pairs`.
inline double sprtLlr(const Pentanomial& pairs, double elo0, double elo1) {
  double n = 0;
  for (int64_t c : pairs) n += double(c);
  if (n <= 0) return 0;
  PairDistribution q;
  for (int i = 0; i < 5; ++i) q[i] = (double(pairs[i]) + kSprtPseudoPairs) / (n + 5 * kSprtPseudoPairs);
  const PairDistribution p0 = mleWithMean(q, scoreFromElo(elo0)), p1 = mleWithMean(q, scoreFromElo(elo1));
  double llr = 0;
  for (int i = 0; i < 5; ++i) llr += q[i] * std::log(p1[i] / p0[i]);
  return n * llr;
}

inline SprtState sprtState(const Pentanomial& pairs, const SprtConfig& cfg) {
  SprtState s;
  s.lower = std::log(cfg.beta / (1 - cfg.alpha));
  s.upper = std::log((1 - cfg.beta) / cfg.alpha);
  s.llr = sprtLlr(pairs, cfg.elo0, cfg.elo1);
  s.decision = s.llr >= s.upper ? SprtDecision::AcceptH1 : s.llr <= s.lower ? SprtDecision::AcceptH0
                                                                             : SprtDecision::Continue;
  return s;
}

}  // namespace yav::arena
