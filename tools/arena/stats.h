// Match statistics: Elo difference from a score, its 95% confidence interval, likelihood of
// superiority (LOS). The SPRT is in sprt.h.
//
// Conventions (documented in docs/arena.md):
// - Elo is the logistic model: score s = 1 / (1 + 10^(-elo/400)).
// - The interval is the normal approximation on per-game scores (trinomial W/D/L), mapped
//   through the logistic curve; reported as half the width in Elo, like cutechess-cli.
// - The pair interval does the same with game pairs as samples (pentanomial), see pairEloEstimate.
// - LOS = Phi((W - L) / sqrt(W + L)), draws ignored.
#pragma once

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
  double ci95 = 0;     // half width of the 95% interval in Elo; infinite when unbounded
  double low = 0, high = 0;
};

// Elo and interval from wins, draws and losses (of the first-named player).
inline EloEstimate eloEstimate(double wins, double draws, double losses) {
  EloEstimate e;
  const double n = wins + draws + losses;
  if (n <= 0) {
    e.score = NAN, e.elo = 0, e.ci95 = INFINITY, e.low = -INFINITY, e.high = INFINITY;
    return e;
  }
  e.score = (wins + 0.5 * draws) / n;
  e.elo = eloFromScore(e.score);
  const double variance = (wins * std::pow(1 - e.score, 2) + draws * std::pow(0.5 - e.score, 2) +
                           losses * std::pow(e.score, 2)) / n;
  const double sd = std::sqrt(variance / n);
  e.low = eloFromScore(e.score - kZ95 * sd);
  e.high = eloFromScore(e.score + kZ95 * sd);
  e.ci95 = (e.high - e.low) / 2;
  return e;
}

// Probability that the first player is the stronger one.
inline double likelihoodOfSuperiority(double wins, double losses) {
  if (wins + losses <= 0) return 0.5;
  return 0.5 * (1 + std::erf((wins - losses) / std::sqrt(2 * (wins + losses))));
}

// Pentanomial counts: index = points of the first player in one game pair (0, 0.5, 1, 1.5, 2) x 2.
using Pentanomial = std::array<int64_t, 5>;

// Elo and interval from game pairs: the pair (mean of its two games) is the sample, which is what
// paired openings make independent; usually narrower than the per-game interval.
inline EloEstimate pairEloEstimate(const Pentanomial& pairs) {
  EloEstimate e;
  double n = 0, mean = 0;
  for (int i = 0; i < 5; ++i) n += double(pairs[i]), mean += double(pairs[i]) * (i / 4.0);
  if (n <= 0) return eloEstimate(0, 0, 0);
  mean /= n;
  double variance = 0;
  for (int i = 0; i < 5; ++i) variance += double(pairs[i]) * std::pow(i / 4.0 - mean, 2);
  variance /= n;
  const double sd = std::sqrt(variance / n);
  e.score = mean;
  e.elo = eloFromScore(mean);
  e.low = eloFromScore(mean - kZ95 * sd);
  e.high = eloFromScore(mean + kZ95 * sd);
  e.ci95 = (e.high - e.low) / 2;
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
