// Fitting the move prior (src/move_prior.h) to the visit distributions of long searches
// (policy_data.h): a softmax over the searched moves, trained by stochastic gradient descent with
// per-weight step sizes (AdaGrad) on the cross-entropy to the visit shares, L2-regularised, in a
// seeded row order per epoch, so a fit is a function of its data, options and seed.
//
// The offline check (priorTable): on held-out rows, by phase, how often a ranking's first (and
// first three) moves hold the long search's choice, and the cross-entropy of its distribution to
// the visit shares, for the uniform order, RAVE after a short search, and the prior.
#pragma once

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "move_prior.h"
#include "rng.h"
#include "search.h"
#include "tools/book/database.h"
#include "tools/train/policy_data.h"

namespace yav::train {

struct PriorFitOptions {
  int epochs = 4;
  double learningRate = 0.1;
  double l2 = 1e-5;
  uint64_t seed = 1;
};

// A row's moves with their features and visit shares, computed once.
struct EncodedRow {
  struct Move {
    int feature[prior::kFeatures];
    int features;
    float share;
  };
  std::vector<Move> moves;
  int stones;
  int chosen = 0;  // the index in moves of the most visited move
};

inline EncodedRow encodeRow(const PolicyRow& r) {
  const Board b = book::boardOf(r.key);
  EncodedRow e;
  e.stones = r.stones();
  const double total = std::max<uint32_t>(1, r.totalVisits());
  const Cell best = r.mostVisited();
  for (const auto& [cell, visits] : r.visits) {
    EncodedRow::Move m;
    m.features = prior::features(b, cell, r.last, m.feature);
    m.share = float(visits / total);
    if (cell == best) e.chosen = int(e.moves.size());
    e.moves.push_back(m);
  }
  return e;
}

// The softmax of the row's logits (p) from `weights`.
inline void rowProbabilities(const std::vector<float>& weights, const EncodedRow& r, std::vector<double>& p) {
  p.resize(r.moves.size());
  double most = -1e30, sum = 0;
  for (size_t i = 0; i < r.moves.size(); ++i) {
    double z = 0;
    for (int k = 0; k < r.moves[i].features; ++k) z += weights[size_t(r.moves[i].feature[k])];
    p[i] = z, most = std::max(most, z);
  }
  for (double& x : p) sum += x = std::exp(x - most);
  for (double& x : p) x /= sum;
}

inline double crossEntropy(const EncodedRow& r, const std::vector<double>& p) {
  double ce = 0;
  for (size_t i = 0; i < r.moves.size(); ++i)
    if (r.moves[i].share > 0) ce -= r.moves[i].share * std::log(std::max(p[i], 1e-9));
  return ce;
}

// Runs epochs [firstEpoch, opt.epochs) on `weights` (zeros when empty), calling onEpoch(epoch, mean
// training cross-entropy) after each; stops between rows when `stop` is set. Returns the epochs done.
inline int fitPrior(std::vector<float>& weights, std::vector<float>& squares, const std::vector<EncodedRow>& data,
                    const PriorFitOptions& opt, int firstEpoch, const std::atomic<bool>& stop,
                    const std::function<void(int, double)>& onEpoch) {
  if (weights.empty()) weights.assign(size_t(prior::weightCount()), 0.0f);
  if (squares.size() != weights.size()) squares.assign(weights.size(), 1e-6f);
  std::vector<uint32_t> order(data.size());
  std::vector<double> p;
  int epoch = firstEpoch;
  for (; epoch < opt.epochs; ++epoch) {
    for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    Rng rng(mix64(opt.seed + uint64_t(epoch)));
    for (size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng.below(uint32_t(i))]);
    double loss = 0;
    for (uint32_t at : order) {
      if (stop.load()) return epoch;
      const EncodedRow& r = data[at];
      rowProbabilities(weights, r, p);
      loss += crossEntropy(r, p);
      for (size_t i = 0; i < r.moves.size(); ++i) {
        const double g = p[i] - r.moves[i].share;
        for (int k = 0; k < r.moves[i].features; ++k) {
          const size_t f = size_t(r.moves[i].feature[k]);
          const double grad = g + opt.l2 * weights[f];
          squares[f] += float(grad * grad);
          weights[f] = std::clamp(float(weights[f] - opt.learningRate * grad / std::sqrt(squares[f])),
                                  prior::kWeightMin, prior::kWeightMax);  // the range its text holds
        }
      }
    }
    onEpoch(epoch, data.empty() ? 0 : loss / double(data.size()));
  }
  return epoch;
}

// One ranking's held-out measures in one phase.
struct RankScore {
  double top1 = 0, top3 = 0, crossEntropy = 0;
  size_t n = 0;
  void add(const EncodedRow& r, const std::vector<double>& p) {
    // Ties broken at random: the chosen move's rank is uniform over its tied places.
    size_t above = 0, tied = 0;
    for (double x : p) above += x > p[size_t(r.chosen)], tied += x == p[size_t(r.chosen)];
    auto within = [&](double k) { return std::clamp((k - double(above)) / double(tied), 0.0, 1.0); };
    top1 += within(1), top3 += within(3), ++n;
    crossEntropy += train::crossEntropy(r, p);
  }
};

struct PriorPhase {
  const char* name;
  int minStones, maxStones;
};
constexpr PriorPhase kPriorPhases[] = {{"0-10", 0, 10}, {"11-25", 11, 25}, {"26+", 26, kCells}, {"all", 0, kCells}};
constexpr int kPriorPhaseCount = 4;

// A ranking's distribution over a row's moves (row index, encoded row) -> p.
using Ranking = std::function<void(size_t, const EncodedRow&, std::vector<double>&)>;

inline void scoreRanking(const std::vector<EncodedRow>& rows, const Ranking& rank, RankScore (&out)[kPriorPhaseCount]) {
  std::vector<double> p;
  for (size_t i = 0; i < rows.size(); ++i) {
    rank(i, rows[i], p);
    for (int ph = 0; ph < kPriorPhaseCount; ++ph)
      if (rows[i].stones >= kPriorPhases[ph].minStones && rows[i].stones <= kPriorPhases[ph].maxStones)
        out[ph].add(rows[i], p);
  }
}

inline void printRankHeader(const RankScore (&counts)[kPriorPhaseCount]) {
  std::printf("%-24s", "held out: rows");
  for (int ph = 0; ph < kPriorPhaseCount; ++ph) std::printf(" | %-6s %13zu", kPriorPhases[ph].name, counts[ph].n);
  std::printf("\n%-24s", "top-1 / top-3 / x-ent");
  for (int ph = 0; ph < kPriorPhaseCount; ++ph) std::printf(" | %20s", "");
  std::printf("\n");
}

inline void printRankRow(const std::string& name, const RankScore (&s)[kPriorPhaseCount]) {
  std::printf("%-24s", name.c_str());
  for (int ph = 0; ph < kPriorPhaseCount; ++ph) {
    const double n = s[ph].n ? double(s[ph].n) : 1;
    std::printf(" | %.3f %.3f %6.3f", s[ph].top1 / n, s[ph].top3 / n, s[ph].crossEntropy / n);
  }
  std::printf("\n");
}

// RAVE after a short search of the row's position: each root move's value as the tree's selection
// reads it without exploration (the AMAF value mixed with the move's own), the bot's search.
inline std::vector<double> raveValues(Search& search, const PolicyRow& row, uint64_t iterations, uint64_t seed) {
  const SearchOptions& o = search.options();
  const Board b = book::boardOf(row.key);
  search.reset();
  SearchLimits limits;
  limits.iterations = iterations;
  limits.seed = seed;
  search.run(b, limits);
  const SearchTree& tree = search.tree();
  const SearchNode& root = tree[tree.root()];
  std::vector<double> values;
  for (const auto& mv : row.visits) {
    double v = 0.5;
    for (uint32_t i = root.firstChild; root.firstChild && i < root.firstChild + root.childCount; ++i) {
      const SearchNode& ch = tree[i];
      if (ch.move != mv.first) continue;
      const double amaf = ch.amafVisits ? ch.amafHalfPoints * 0.5 / ch.amafVisits : 0.5;
      if (ch.proof == Proof::Win)
        v = 0;
      else if (ch.proof == Proof::Loss)
        v = 1;
      else if (ch.visits) {
        const double q = ch.halfPoints * 0.5 / ch.visits;
        const double beta = std::sqrt(o.raveK / (3.0 * ch.visits + o.raveK));
        v = q + beta * (amaf - q);
      } else {
        v = amaf;
      }
    }
    values.push_back(v);
  }
  return values;
}

// softmax(temperature * values).
inline void softmaxOf(const std::vector<double>& values, double temperature, std::vector<double>& p) {
  p.resize(values.size());
  double most = -1e30, sum = 0;
  for (double v : values) most = std::max(most, temperature * v);
  for (size_t i = 0; i < values.size(); ++i) sum += p[i] = std::exp(temperature * values[i] - most);
  for (double& x : p) x /= sum;
}

}  // namespace yav::train
