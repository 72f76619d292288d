// Growth in tests. A fast stand-in for the deep search in growth tests: every legal move valued from the position's
// hash (so runs are comparable), 50 visits each; `calls` (when given) counts the searches.
#pragma once

#include <atomic>
#include <random>
#include <sstream>
#include <string>

#include "tools/book/grow.h"

namespace yav::book {

inline EvaluatorFactory hashValuedEvaluators(std::atomic<int>* calls = nullptr) {
  return [calls] {
    return Evaluator([calls](const Board& b, uint64_t) {
      if (calls) ++*calls;
      std::mt19937_64 rng(b.hash());
      DeepVerdict v;
      for (Bitboard legal = b.legalMoves(); legal;) {
        const Cell m = popLowest(legal);
        v.moves.push_back({m, float(std::uniform_real_distribution<double>(0.2, 0.8)(rng)), Proof::Unknown, 50});
      }
      v.best = v.moves.front().move;
      return v;
    });
  };
}

// Runs a growth until it stops by itself (target, time, nothing left); `log` gets its log and error.
inline bool growToTheEnd(Grower& grower, std::string& log) {
  std::atomic<bool> stop{false};
  std::string error;
  std::ostringstream out;
  const bool ok = grower.run(stop, out, error);
  log = out.str() + error;
  return ok;
}

}  // namespace yav::book
