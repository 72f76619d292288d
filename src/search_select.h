// Which child of a node the search walks into: UCT, or RAVE (all-moves-as-first statistics mixed
// in with weight sqrt(k / (3 n + k))) once the board holds a stone. Only the live children
// (search_tree.h) are scanned: a child proven won for the opponent is never selected.
#pragma once

#include <cassert>
#include <cmath>
#include <cstdint>

#include "board.h"
#include "search_options.h"
#include "search_tree.h"

namespace yav {

class ChildSelector {
 public:
  using Index = SearchTree::Index;
  using Node = SearchNode;
  static constexpr Index kNone = SearchTree::kNone;

  explicit ChildSelector(const SearchOptions& options) : options_(options) {
    for (uint32_t v = 0; v < kTable; ++v) {
      raveBeta_[v] = options_.raveK > 0 ? raveBetaOf(v) : 0.0f;
      inverse_[v] = v ? 1.0f / float(v) : 0.0f;
      invSqrt_[v] = v ? 1.0f / std::sqrt(float(v)) : 0.0f;
    }
  }

  // The child of `n` (at position b) to walk into, or kNone when every child is won for the opponent.
  Index select(const SearchTree& tree, const Node& n, const Board& b) const {
    // The first stone of the game is plain UCT too: its AMAF value says how good the cell is to
    // own, but the opponent may steal it, which AMAF cannot see.
    if (options_.raveK > 0 && b.occupied())
      return b.canSteal() ? selectRave<true>(tree, n, b.stealCell()) : selectRave<false>(tree, n, kNoCell);
    const double logN = std::log(double(n.visits) + 1.0);
    const double c = options_.exploration;
    Index best = kNone;
    double bestScore = -1e300;
    for (Index i = n.firstChild, end = n.firstChild + n.liveCount; i < end; ++i) {
      const Node& ch = tree[i];
      assert(ch.proof != Proof::Win);  // live children only (search_tree.h)
      if (ch.visits == 0) return i;
      const double q = ch.proof == Proof::Draw ? 0.5 : ch.halfPoints * (0.5 / ch.visits);
      const double s = q + c * std::sqrt(logN / ch.visits);
      if (s > bestScore) bestScore = s, best = i;
    }
    return best;
  }

 private:
  // RAVE selection, in float with tables for small visit counts: it is the hottest loop.
  // The steal (`steal`: its cell, or kNoCell) shares no AMAF statistics with any other move, so
  // it is scored by plain UCT; otherwise one unlucky first playout would bury it for good.
  // kMaySteal: the position allows a steal (one position of the game), so one child is the steal.
  template <bool kMaySteal>
  Index selectRave(const SearchTree& tree, const Node& n, Cell steal) const {
    const float sqrtLogN = std::sqrt(std::log(float(n.visits) + 1.0f));
    const float c = float(options_.raveExploration) * sqrtLogN;
    Index best = kNone;
    float bestScore = -1e30f;
    for (Index i = n.firstChild, end = n.firstChild + n.liveCount; i < end; ++i) {
      const Node& ch = tree[i];
      assert(ch.proof != Proof::Win);
      const uint32_t v = ch.visits, a = ch.amafVisits;
      if (v == 0 && a == 0) return i;
      float s;
      if (kMaySteal && ch.move == steal && ch.proof == Proof::Unknown) {
        if (v == 0) return i;
        s = float(ch.halfPoints) * 0.5f * inverse(v) + float(options_.exploration) * sqrtLogN * invSqrtOf(v);
        if (s > bestScore) bestScore = s, best = i;
        continue;
      } else if (ch.proof == Proof::Draw) {
        s = 0.5f;
      } else if (v == 0) {  // most children: beta and the exploration factor are 1, q is 0.5
        const float amaf = float(ch.amafHalfPoints) * 0.5f * inverse(a);
        s = 0.5f + (amaf - 0.5f) + c;  // the general formula's operations, so the same bits
        if (s > bestScore) bestScore = s, best = i;
        continue;
      } else {
        const float beta = v < kTable ? raveBeta_[v] : raveBetaOf(v);
        const float q = float(ch.halfPoints) * 0.5f * inverse(v);  // v > 0: unvisited children returned above
        const float amaf = a ? float(ch.amafHalfPoints) * 0.5f * inverse(a) : 0.5f;
        s = q + beta * (amaf - q);
      }
      s += c * invSqrtOf(v + 1);
      if (s > bestScore) bestScore = s, best = i;
    }
    return best;
  }

  static constexpr uint32_t kTable = 4096;
  float raveBetaOf(uint32_t v) const {
    const double k = options_.raveK;
    return float(std::sqrt(k / (3.0 * v + k)));
  }
  float inverse(uint32_t v) const { return v < kTable ? inverse_[v] : 1.0f / float(v); }
  float invSqrtOf(uint32_t v) const { return v < kTable ? invSqrt_[v] : 1.0f / std::sqrt(float(v)); }
  SearchOptions options_;
  float raveBeta_[kTable], inverse_[kTable], invSqrt_[kTable];
};

}  // namespace yav
