// The root's side of a search: what it reports (SearchResult, one RootMove per root child) and
// the final move chosen from the root's statistics.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "board.h"
#include "result.h"
#include "rule_moves.h"
#include "search_options.h"
#include "search_tree.h"

namespace yav {

// value in [0,1] for the root mover; proof from the root mover's view.
struct RootMove {
  Cell move;
  uint32_t visits;
  double value;
  Proof proof;
};

struct SearchResult {
  Cell move = kNoCell;  // chosen move (a steal is the cell of the opponent's stone)
  double value = 0.5;   // root value for the side to move, in [0,1]
  Proof proof = Proof::Unknown;
  uint64_t iterations = 0, nodes = 0;
  double elapsedMs = 0;
  bool reused = false;             // the tree of the previous call was kept
  Cell solvedMove = kNoCell;       // the root proven won by a solver outside the tree (forcing, endgame, turn prover)
  std::vector<RootMove> children;  // every root move with its statistics
};

// Fills `result` from the root of `tree`: every child's statistics, the root's proof, and the
// move: a solver's move when one solved the root first; else proven wins first, proven losses
// last, and in between the most visits (or the secure value with options.secureChild); a root
// without children (decided by the rules, or the pool was full) falls back on the rules' move.
inline void chooseRootMove(const SearchTree& tree, const SearchOptions& options, SearchResult& result) {
  using Index = SearchTree::Index;
  const SearchNode& r = tree[tree.root()];
  result.nodes = tree.used();
  if (result.solvedMove == kNoCell && r.proof != Proof::Unknown) result.proof = r.proof;
  for (Index i = r.firstChild, e = r.firstChild + r.childCount; r.firstChild && i < e; ++i) {
    const SearchNode& c = tree[i];
    const Proof p = flipProof(c.proof);
    const double v = p == Proof::Win    ? 1.0
                     : p == Proof::Loss ? 0.0
                     : p == Proof::Draw ? 0.5
                     : c.visits         ? c.halfPoints * (0.5 / c.visits)
                                        : 0.5;
    result.children.push_back({Cell(c.move), c.visits, v, p});
  }
  const RootMove* best = nullptr;
  auto rank = [&](const RootMove& m) {
    if (m.proof == Proof::Win) return 1e18;
    if (m.proof == Proof::Loss) return -1e18 + m.visits;
    if (options.secureChild) return m.visits ? m.value - options.secureA / std::sqrt(double(m.visits)) : -1.0;
    return double(m.visits) + m.value * 0.5;  // value breaks ties between equal visit counts
  };
  for (const RootMove& m : result.children)
    if (!best || rank(m) > rank(*best)) best = &m;
  if (result.solvedMove != kNoCell) {
    result.move = result.solvedMove;
  } else if (best) {
    result.move = best->move;
    result.value = best->value;
  } else {
    result.move = ruleFallbackMove(tree.rootBoard());
    result.value = r.proof == Proof::Win ? 1.0 : r.proof == Proof::Loss ? 0.0 : 0.5;
  }
  if (result.proof == Proof::Win) result.value = 1.0;
  if (result.proof == Proof::Loss) result.value = 0.0;
}

}  // namespace yav
