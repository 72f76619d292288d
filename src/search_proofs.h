// The search's proofs (MCTS-Solver backups) and its hooks into the forcing solver (forcing.h):
// a proof is for the side to move at the node; a node is won when one child is lost for the
// opponent, lost (or drawn) when every child is won (or at best drawn) for it.
#pragma once

#include <algorithm>
#include <cassert>
#include <cstdint>

#include "board.h"
#include "forcing.h"
#include "result.h"
#include "search_tree.h"

namespace yav {

// Recomputes a node's proof from its children; true when it became proven.
// Only the live children are looked at: the others are all won for the opponent.
inline bool updateProof(SearchTree& tree, SearchTree::Index idx) {
  SearchNode& n = tree[idx];
  if (n.proof != Proof::Unknown || n.firstChild == 0) return n.proof != Proof::Unknown;
  bool anyDraw = false, anyUnknown = false;
  for (SearchTree::Index i = n.firstChild, end = n.firstChild + n.liveCount; i < end; ++i) {
    const Proof p = tree[i].proof;
    if (p == Proof::Loss) {
      n.proof = Proof::Win;
      return true;
    }
    anyUnknown |= p == Proof::Unknown;
    anyDraw |= p == Proof::Draw;
  }
  if (anyUnknown) return false;
  n.proof = anyDraw ? Proof::Draw : Proof::Loss;
  return true;
}

// If the opponent has a forced win after a pass, proves lost for us every child after which it
// still has one; the node's proof follows when they all are. A child outside the win's defence
// zone (and not a threat of ours) leaves the win intact, so only the children inside it are
// searched. `totalNodes` bounds the solver's work over all the calls; children left unchecked
// stay unknown. With `lazy` (in the tree), a child inside the zone that the found line does not
// still win against is only marked ForcingMark::kPending: settlePendingChild solves it when the
// search next walks into it. Most such children are never visited (59% of them in a mid-game
// search of 200,000 iterations), and their solves were a quarter of the forcing solver's work.
// Returns whether a node limit cut one of its solves short (children may then be left unknown).
inline bool defendByForcing(SearchTree& tree, ForcingSolver& forcing, SearchTree::Index idx, const Board& b, int depth,
                            uint32_t nodes, uint64_t totalNodes, bool lazy) {
  SearchNode& n = tree[idx];
  if (!n.firstChild || n.proof != Proof::Unknown) return false;
  const ForcingResult threat = forcing.solve(b.passed(), depth, nodes);
  if (!threat.win) return threat.cutShort;
  bool cutShort = false;
  uint64_t spent = threat.nodes;
  const Bitboard zone = forcing.passDefence(b, threat);  // also keeps the line for lineStillWins
  for (SearchTree::Index i = n.firstChild, end = n.firstChild + n.liveCount; i < end; ++i) {
    SearchNode& child = tree[i];
    if (child.proof != Proof::Unknown) continue;
    if (!(zone >> child.move & 1)) {
      child.proof = Proof::Win;
      continue;
    }
    Board next = b;
    if (next.play(child.move) != Outcome::None) continue;
    if (forcing.lineStillWins(next)) {  // the stone does not stop the line found after the pass
      child.proof = Proof::Win;
      continue;
    }
    if (lazy) {
      if (child.forcingMark == ForcingMark::kUnknown || child.forcingMark == ForcingMark::kRetry)
        child.forcingMark = ForcingMark::kPending;
      continue;
    }
    if (spent >= totalNodes) {
      cutShort = true;
      continue;
    }
    const ForcingResult r = forcing.solve(next, depth, uint32_t(std::min<uint64_t>(nodes, totalNodes - spent)));
    spent += r.nodes;
    cutShort |= r.cutShort;
    if (r.win) child.proof = Proof::Win;
  }
  tree.dropLostChildren(idx);
  updateProof(tree, idx);
  return cutShort;
}

// The child `childIdx` of node `idx` (at position b), marked kPending by the node's defence
// check: whether the opponent wins by force after it. Returns true when it does: the child is then
// proven, it leaves the live children (indices change) and the node's proof is updated. Out of
// line: it runs rarely, and inlined into the tree walk it made GCC stop inlining Board::play there.
[[gnu::noinline]] inline bool settlePendingChild(SearchTree& tree, ForcingSolver& forcing, SearchTree::Index idx,
                                                 SearchTree::Index childIdx, const Board& b, int depth,
                                                 uint32_t nodes) {
  SearchNode& child = tree[childIdx];
  assert(child.forcingMark == ForcingMark::kPending && child.proof == Proof::Unknown);
  Board next = b;
  next.play(child.move);  // decides nothing: the defence check marks no such child
  if (!forcing.solve(next, depth, nodes).win) {
    child.forcingMark = ForcingMark::kNoForcedWin;
    return false;
  }
  child.proof = Proof::Win;
  tree.dropLostChildren(idx);
  updateProof(tree, idx);
  return true;
}

// The forcing checks of an expanded node `idx` at position b: a forced win for the side to move
// proves it won (not asked again when its parent's defence check already found none); otherwise
// the defence check, `lazy` or not. Returns whether a node limit cut one of the solves short.
inline bool provenByForcing(SearchTree& tree, ForcingSolver& forcing, SearchTree::Index idx, const Board& b, int depth,
                            uint32_t nodes, bool lazy) {
  if (tree[idx].proof != Proof::Unknown) return false;
  bool cutShort = false;
  if (tree[idx].forcingMark != ForcingMark::kNoForcedWin) {
    const ForcingResult win = forcing.solve(b, depth, nodes);
    if (win.win) {
      tree[idx].proof = Proof::Win;
      return false;
    }
    cutShort = win.cutShort;
  }
  return defendByForcing(tree, forcing, idx, b, depth, nodes, UINT64_MAX, lazy) || cutShort;
}

}  // namespace yav
