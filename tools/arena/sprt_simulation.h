// Simulated SPRT runs without bots: pair outcomes are drawn from a pentanomial distribution with a
// chosen expected score, and the arena's own sprtState decides after every pair, as in a match.
// Measures the error rates the SPRT promises (tests/test_arena_sprt.cpp, build/bin/sprt_sim).
#pragma once

#include <cmath>
#include <cstdint>

#include "rng.h"
#include "tools/arena/sprt.h"

namespace yav::arena {

// `shape` (a distribution with every bin positive) exponentially tilted, p_i ~ shape_i e^(l a_i),
// so that its mean is `score`: the least-informative way to move a shape to another strength.
inline PairDistribution tiltedToScore(const PairDistribution& shape, double score) {
  auto tilt = [&](double lambda) {
    PairDistribution p;
    double sum = 0;
    for (int i = 0; i < 5; ++i) sum += p[i] = shape[i] * std::exp(lambda * pairScore(i));
    for (double& v : p) v /= sum;
    return p;
  };
  auto mean = [](const PairDistribution& p) {
    double m = 0;
    for (int i = 0; i < 5; ++i) m += p[i] * pairScore(i);
    return m;
  };
  double lo = -60, hi = 60;  // the mean increases with lambda
  for (int i = 0; i < 200; ++i) {
    const double mid = (lo + hi) / 2;
    (mean(tilt(mid)) < score ? lo : hi) = mid;
  }
  return tilt((lo + hi) / 2);
}

struct SprtSimulation {
  int runs = 0, acceptedH1 = 0, acceptedH0 = 0, undecided = 0;
  double meanPairs = 0;
  double shareH1() const { return runs ? double(acceptedH1) / runs : 0; }
  double shareH0() const { return runs ? double(acceptedH0) / runs : 0; }
};

// Uniform in [0, 1): the top 53 bits of one random word.
inline double uniform01(Rng& rng) { return (rng.next() >> 11) * (1.0 / 9007199254740992.0); }

// `runs` SPRTs with pairs drawn from `pairs`, each stopped at a decision or after `maxPairs`.
inline SprtSimulation simulateSprt(const SprtConfig& cfg, const PairDistribution& pairs, int runs, int maxPairs,
                                   uint64_t seed) {
  double cumulative[5], total = 0;
  for (int i = 0; i < 5; ++i) cumulative[i] = total += pairs[i];
  Rng rng(seed);
  SprtSimulation sim;
  sim.runs = runs;
  double pairsPlayed = 0;
  for (int run = 0; run < runs; ++run) {
    Pentanomial counts = {0, 0, 0, 0, 0};
    SprtDecision decision = SprtDecision::Continue;
    int n = 0;
    while (decision == SprtDecision::Continue && n < maxPairs) {
      const double u = uniform01(rng) * total;
      int bin = 0;
      while (bin < 4 && u >= cumulative[bin]) ++bin;
      ++counts[size_t(bin)], ++n;
      decision = sprtState(counts, cfg).decision;
    }
    pairsPlayed += n;
    if (decision == SprtDecision::AcceptH1)
      ++sim.acceptedH1;
    else if (decision == SprtDecision::AcceptH0)
      ++sim.acceptedH0;
    else
      ++sim.undecided;
  }
  sim.meanPairs = runs ? pairsPlayed / runs : 0;
  return sim;
}

}  // namespace yav::arena
