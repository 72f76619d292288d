// Held-out measures of an evaluator, by game phase: weighted log-loss, mean absolute error and
// accuracy (the evaluator names the side the label favours; even labels are left out of it), and
// the baselines the learned evaluation is judged against.
#pragma once

#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "search.h"
#include "tools/train/samples.h"

namespace yav::train {

struct Phase {
  const char* name;
  int minStones, maxStones;
};
constexpr Phase kPhases[] = {{"0-10", 0, 10}, {"11-25", 11, 25}, {"26+", 26, kCells}, {"all", 0, kCells}};
constexpr int kPhaseCount = 4;

struct Score {
  double loss = 0, error = 0, weight = 0, correct = 0, decided = 0;
  size_t n = 0;
  void add(double p, double y, double w) {
    p = std::min(std::max(p, 1e-6), 1 - 1e-6);
    loss -= w * (y * std::log(p) + (1 - y) * std::log(1 - p));
    error += w * std::fabs(p - y);
    weight += w, ++n;
    if (y != 0.5) decided += w, correct += w * ((p > 0.5) == (y > 0.5));
  }
  double logLoss() const { return weight ? loss / weight : 0; }
  double meanError() const { return weight ? error / weight : 0; }
  double accuracy() const { return decided ? correct / decided : 0; }
};

using Evaluator = std::function<double(const Sample&)>;

inline void scoreEvaluator(const std::vector<Sample>& samples, const Evaluator& eval, Score (&out)[kPhaseCount]) {
  for (const Sample& s : samples) {
    const double p = eval(s);
    for (int k = 0; k < kPhaseCount; ++k)
      if (s.stones() >= kPhases[k].minStones && s.stones() <= kPhases[k].maxStones) out[k].add(p, s.label, s.weight);
  }
}

inline void printScoreRow(const std::string& name, const Score (&s)[kPhaseCount]) {
  std::printf("%-22s", name.c_str());
  for (const Score& x : s) std::printf(" | %6.4f %6.4f %5.1f%%", x.logLoss(), x.meanError(), 100 * x.accuracy());
  std::printf("\n");
}
inline void printScoreHeader(const Score (&counts)[kPhaseCount]) {
  std::printf("%-22s", "held-out (log-loss, MAE, accuracy)");
  std::printf("\n%-22s", "phase (stones): samples");
  for (int k = 0; k < kPhaseCount; ++k) std::printf(" | %6s: %-13zu", kPhases[k].name, counts[k].n);
  std::printf("\n");
}

// The hand-written baseline: threats counted for both sides. Features for the side to move: it
// can win now; the opponent's winning cells (two cannot both be blocked); the difference in check
// cells (a stone there threatens 4 and forces a block); the difference in cells where a stone
// would make one's own 3 (cells one may no longer use). Its four coefficients and bias are fitted
// on the training samples, so that it is scored at its best.
struct ThreatCount {
  double w[5] = {0, 0, 0, 0, 0};
  static void features(const Board& b, double (&f)[5]) {
    const int me = b.toMove(), opp = me ^ 1;
    f[0] = 1;
    f[1] = b.winningCells(me) ? 1 : 0;
    f[2] = std::min(popcount(b.winningCells(opp)), 2);
    f[3] = 0.1 * (popcount(b.checkCells(me)) - popcount(b.checkCells(opp)));
    f[4] = 0.1 * (popcount(b.losingCells(me)) - popcount(b.losingCells(opp)));
  }
  double value(const Board& b) const {
    double f[5], z = 0;
    features(b, f);
    for (int i = 0; i < 5; ++i) z += w[i] * f[i];
    return 1 / (1 + std::exp(-z));
  }
  // Samples come sorted by key, which groups alike positions: shuffled (seeded), with a falling
  // step, so that the fit settles instead of following the last group.
  void fit(const std::vector<Sample>& samples, int epochs) {
    std::vector<uint32_t> order(samples.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = uint32_t(i);
    Rng rng(1);
    for (int e = 0; e < epochs; ++e) {
      for (size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng.below(uint32_t(i))]);
      const double rate = 0.01 / (1 + e);
      for (uint32_t k : order) {
        const Sample& s = samples[k];
        double f[5];
        const Board b = s.board();
        features(b, f);
        const double g = rate * s.weight * (value(b) - s.label);
        for (int i = 0; i < 5; ++i) w[i] -= g * f[i];
      }
    }
  }
};

// The search baseline: the bot's search at a fixed number of iterations, its root value.
inline double searchValue(Search& search, const Board& b, uint64_t iterations, uint64_t seed) {
  search.reset();
  SearchLimits limits;
  limits.iterations = iterations;
  limits.seed = seed;
  return search.run(b, limits).value;
}

}  // namespace yav::train
