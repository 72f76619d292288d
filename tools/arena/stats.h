// Match statistics: Elo difference from a score, its 95% confidence interval, likelihood of
// superiority (LOS). The SPRT is in sprt.h.
//
// Conventions (documented in docs/arena.md):
// - Elo is the logistic model: score s = 1 / (1 + 10^(-elo/400)).
// - The interval is Wilson's interval of the score (draws as half points), mapped through the
//   logistic curve: asymmetric bounds, never of zero width, finite unless every game was won or
//   lost. ci95 is half its width (for JSON readers of older summaries).
// - The pair interval uses game pairs as samples (pentanomial), see pairEloEstimate.
// - nElo (normalised Elo): (score - 1/2) / sigma per game, times 800 / ln 10, see normalizedElo.
// - LOS = Phi((W - L) / sqrt(W + L)), draws ignored.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>

namespace yav::arena {

constexpr double kZ95 = 1.959963984540054;  // two-sided 95% quantile of the standard normal

inline double eloFromScore(double score) {
  if (score <= 0) return -INFINITY;
  if (score >= 1) return INFINITY;
  return -400.0 * std::log10(1.0 / score - 1.0) + 0.0;  // + 0.0: no "-0" for an even score
}
inline double scoreFromElo(double elo) { return 1.0 / (1.0 + std::pow(10.0, -elo / 400.0)); }

struct EloEstimate {
  double score = 0.5;  // NaN when no game was played
  double elo = 0;
  double ci95 = 0;  // half width of the 95% interval in Elo; infinite when unbounded
  double low = 0, high = 0;
};

// 95% interval of a score in [0, 1] after n samples: Wilson's interval. It uses the binomial
// variance p (1 - p), the largest a score can have, so draws (or pairs) make it conservative;
// unlike the normal approximation it does not shrink to nothing when every game was won.
struct ScoreInterval {
  double low = NAN, high = NAN;
};
inline ScoreInterval wilsonInterval(double score, double n) {
  if (n <= 0) return {};
  const double z2 = kZ95 * kZ95;
  const double centre = (score + z2 / (2 * n)) / (1 + z2 / n);
  const double half = kZ95 / (1 + z2 / n) * std::sqrt(score * (1 - score) / n + z2 / (4 * n * n));
  // Exact ends at a score of 0 or 1 (rounding would give a huge but finite Elo).
  return {score <= 0 ? 0.0 : std::max(0.0, centre - half), score >= 1 ? 1.0 : std::min(1.0, centre + half)};
}

inline EloEstimate eloFromInterval(double score, ScoreInterval interval) {
  EloEstimate e;
  e.score = score;
  e.elo = eloFromScore(score);
  e.low = eloFromScore(interval.low);
  e.high = eloFromScore(interval.high);
  e.ci95 = (e.high - e.low) / 2;
  return e;
}

// Elo and interval from wins, draws and losses (of the first-named player).
inline EloEstimate eloEstimate(double wins, double draws, double losses) {
  const double n = wins + draws + losses;
  if (n <= 0) {
    EloEstimate e;
    e.score = NAN, e.elo = 0, e.ci95 = INFINITY, e.low = -INFINITY, e.high = INFINITY;
    return e;
  }
  const double score = (wins + 0.5 * draws) / n;
  return eloFromInterval(score, wilsonInterval(score, n));
}

// Probability that the first player is the stronger one.
inline double likelihoodOfSuperiority(double wins, double losses) {
  if (wins + losses <= 0) return 0.5;
  return 0.5 * (1 + std::erf((wins - losses) / std::sqrt(2 * (wins + losses))));
}

// Pentanomial counts: index = points of the first player in one game pair (0, 0.5, 1, 1.5, 2) x 2.
using Pentanomial = std::array<int64_t, 5>;

// Mean and variance of A's pair score (0, 1/4, .., 1) over the counted pairs.
struct PairMoments {
  double n = 0, mean = NAN, variance = NAN;
};
inline PairMoments pairMoments(const Pentanomial& pairs) {
  PairMoments m;
  double sum = 0;
  for (int i = 0; i < 5; ++i) m.n += double(pairs[i]), sum += double(pairs[i]) * (i / 4.0);
  if (m.n <= 0) return m;
  m.mean = sum / m.n;
  m.variance = 0;
  for (int i = 0; i < 5; ++i) m.variance += double(pairs[i]) * std::pow(i / 4.0 - m.mean, 2);
  m.variance /= m.n;
  return m;
}

// Elo and interval from game pairs: the pair (mean of its two games) is the sample, which is what
// paired openings make independent; usually narrower than the per-game interval. The normal
// approximation on the pairs; where it degenerates (every pair alike, or a bound past 0 or 1) the
// Wilson interval over the pairs, so the interval is never of zero width.
inline EloEstimate pairEloEstimate(const Pentanomial& pairs) {
  const PairMoments m = pairMoments(pairs);
  if (m.n <= 0) return eloEstimate(0, 0, 0);
  const double sd = std::sqrt(m.variance / m.n);
  ScoreInterval interval{m.mean - kZ95 * sd, m.mean + kZ95 * sd};
  if (sd <= 0 || interval.low <= 0 || interval.high >= 1) interval = wilsonInterval(m.mean, m.n);
  return eloFromInterval(m.mean, interval);
}

// Normalised Elo (Van den Bergh): the score's distance from 1/2 in standard deviations of one
// game, times 800 / ln 10 (so that it is close to Elo for a small edge without draws). It does
// not depend on the draw rate or the openings' bias, which makes results of different set-ups
// comparable. From pairs, sigma per game = sqrt(2) sigma per pair; otherwise from W/D/L. NaN when
// the scores do not vary (every game won: the spread is unknown).
struct NormalizedElo {
  double value = NAN, ci95 = NAN;  // ci95: half width of the 95% interval
};
inline NormalizedElo normalizedElo(const Pentanomial& pairs, double wins, double draws, double losses) {
  constexpr double kScale = 800 / 2.302585092994046;  // 800 / ln 10
  NormalizedElo e;
  const PairMoments m = pairMoments(pairs);
  if (m.n >= 2 && m.variance > 0) {
    e.value = kScale * (m.mean - 0.5) / std::sqrt(2 * m.variance);
    e.ci95 = kScale * kZ95 / std::sqrt(2 * m.n);
    return e;
  }
  const double n = wins + draws + losses;
  if (n < 2) return e;
  const double s = (wins + 0.5 * draws) / n;
  const double variance = (wins * std::pow(1 - s, 2) + draws * std::pow(0.5 - s, 2) + losses * s * s) / n;
  if (variance <= 0) return e;
  e.value = kScale * (s - 0.5) / std::sqrt(variance);
  e.ci95 = kScale * kZ95 / std::sqrt(n);
  return e;
}

// Response-time percentile (nearest rank) of an ascending-sorted sample.
template <class Sorted>
double percentile(const Sorted& sorted, double p) {
  if (sorted.empty()) return 0;
  size_t rank = size_t(std::ceil(p / 100.0 * double(sorted.size())));
  if (rank < 1) rank = 1;
  return sorted[rank - 1];
}

}  // namespace yav::arena
