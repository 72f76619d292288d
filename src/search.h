// MCTS with solver backups (Winands, Bjornsson and Saito 2008) and cheap Yavalath tactics.
//
// This file is the tree walk: it descends (expanding leaves, calling the solvers at a node's check
// visit), plays out, and backs up results, AMAF statistics and proofs. The parts it calls:
// search_options.h (budget and switches), search_tree.h (node pool, tree reuse), search_select.h
// (UCT / RAVE child selection), search_proofs.h (proof backups, forcing-solver hooks),
// rule_moves.h (the moves the rules allow at a leaf), search_root.h (the result, the final move).
// Statistics of a node are from the view of the player who made the move into it; its proof is
// from the view of the side to move at the node (Win: that side wins with best play).
//
// Tactics (when enabled), applied at every leaf before it gets children:
// - the side to move can make a 4: the node is won, no children;
// - the opponent can make a 4: the only children are the blocks (two threats, or a single block
//   that makes our own 3: the node is lost);
// - cells that make our own 3 are never children (if nothing else is left, the node is lost).
// A "check" (a stone that threatens 4 where the only block makes the opponent's 3) is thereby
// found in two plies by the solver, without special code.
//
// Forcing sequences (forcing.h), when enabled: longer chains of threats are what MCTS misses.
// - At the root, before searching: a forced win is played at once.
// - When a node reaches its check visit (forcingVisits): a forced win for the side to move proves
//   the node won. If the opponent would have a forced win after a pass, every child is checked
//   for it, and the children where the opponent still wins by force are proven lost for us (the
//   tree then never walks into them; when all are, the node is proven lost). The root does the
//   same with a larger budget.
// Exact endgames (endgame.h), when enabled (SearchOptions::endgame): a root or a checked node with
// few empty cells is solved outright.
#pragma once

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "board.h"
#include "clock.h"
#include "endgame.h"
#include "forcing.h"
#include "playout.h"
#include "result.h"
#include "rng.h"
#include "rule_moves.h"
#include "search_options.h"
#include "search_proofs.h"
#include "search_root.h"
#include "search_select.h"
#include "search_tree.h"
#include "turn_prover.h"

namespace yav {

class Search {
 public:
  explicit Search(size_t maxNodes = kDefaultNodes, const SearchOptions& options = SearchOptions())
      : options_(options), selector_(options), tree_(maxNodes), forcing_(options.forcingTableLog2),
        forcingVisits_(std::max({options.forcingVisits, options.expandVisits, 1u})),
        retryVisits_(options.forcingRetryVisits > forcingVisits_ && options.forcingFirstNodes < options.forcingLeafNodes
                         ? options.forcingRetryVisits
                         : 0) {}

  const SearchOptions& options() const { return options_; }
  const SearchTree& tree() const { return tree_; }  // for tests and tools: the tree as it stands

  void reset() { tree_.clear(); }

  // Searches `position` until `stop` is set by another thread or the root is proven, returning the
  // iterations done: thinking on the opponent's time (ponder.h). The tree is kept for the next
  // run(), whose position is then a child of this root. The root solvers are left to that run():
  // they could take milliseconds to notice `stop`, and one iteration takes microseconds.
  uint64_t ponder(const Board& position, const std::atomic<bool>& stop, uint64_t seed) {
    rng_.reseed(seed);
    keepTreeFor(position);
    uint64_t done = 0;
    while (!stop.load(std::memory_order_relaxed) && tree_[tree_.root()].proof == Proof::Unknown) iterate(), ++done;
    return done;
  }

  // Moves the tree's root to `position` (the one our answer left), compacting the pool early, as
  // pondering does before it searches: a bot that does not ponder calls it after its answer, so
  // that its next turn need not compact on the clock (SearchTree::Compaction).
  void keepTreeFor(const Board& position) { setRoot(position, SearchTree::Compaction::Early); }

  // Reads `clock` (a test's fake one; empty: the steady clock) for the time of every later run.
  void useClock(const MsClock& clock) { clock_ = clock; }

  // Searches `position` (side to move = position.toMove()). Reuses the previous tree when
  // `position` is reachable from the previous root within two plies (our move + the reply).
  SearchResult run(const Board& position, const SearchLimits& limits) {
    const Stopwatch clock(clock_);
    SearchResult result;
    rng_.reseed(limits.seed);
    result.reused = setRoot(position, SearchTree::Compaction::WhenShort);
    const Index root = tree_.root();
    uint64_t done = 0;
    if (endgameEnabled() && popcount(position.empty()) <= options_.endgameRootEmpties) {
      const EndgameResult e = endgame_.solve(position, options_.endgameRootNodes);
      if (e.solved && e.value >= 0) {
        result.solvedMove = e.move;
        result.proof = e.value > 0 ? Proof::Win : Proof::Draw;
        return finish(result, clock);
      }
      // A lost root is left to the search, which picks the line hardest to win for the opponent;
      // the result still reports the loss.
      if (e.solved) result.proof = Proof::Loss;
    }
    // Checked whatever the root's proof: a node proven won by a solver inside the tree may have no
    // child proven lost for the opponent, so its winning move comes from here.
    if (forcingEnabled()) {
      const ForcingResult win = forcing_.solve(position, options_.forcingRootDepth, options_.forcingRootNodes);
      if (win.win) {
        result.solvedMove = win.move;
        result.proof = Proof::Win;
        return finish(result, clock);
      }
      if (!tree_[root].firstChild && tree_[root].proof == Proof::Unknown) iterate(), ++done;  // expands the root
      defendByForcing(tree_, forcing_, root, position, options_.forcingRootDepth, options_.forcingRootNodes,
                      options_.forcingRootDefenceNodes, false);
    }
    const uint64_t maxIterations = limits.iterations ? limits.iterations : UINT64_MAX;
    const bool timed = limits.timeMs > 0;
    if (!limits.iterations && !timed) return finish(result, clock);
    const bool proving = options_.proverShare > 0;
    const double proverAtMs = limits.timeMs * (1 - options_.proverShare);
    const uint64_t proverAtIteration =
        proving && !timed ? uint64_t(double(maxIterations) * (1 - options_.proverShare)) : 0;
    stopRule_.start(clock.elapsedMs());
    bool proverDone = !proving;
    while (done < maxIterations && tree_[root].proof == Proof::Unknown) {
      iterate();
      ++done;
      if (!proverDone && (timed ? clock.elapsedMs() >= proverAtMs : done >= proverAtIteration)) {
        proverDone = true;
        const Cell win = proveRoot(position, timed ? &clock : nullptr, limits.timeMs);
        stopRule_.resume(clock.elapsedMs());
        if (win != kNoCell) {
          result.solvedMove = win;
          result.proof = Proof::Win;
          break;
        }
      }
      if (!timed) continue;
      if (stopRule_.stop(clock.elapsedMs(), limits.timeMs, limits.hardMs)) break;
    }
    result.iterations = done;
    return finish(result, clock);
  }

 private:
  using Index = SearchTree::Index;
  using Node = SearchNode;
  static constexpr Index kNone = SearchTree::kNone;
  static constexpr int kMaxDepth = kCells + 4;

  // The tree's root (SearchTree::setRoot; returns whether the tree was kept). A new tree forgets
  // the replies learned below another root too: a search from scratch depends only on its
  // position, budget and seed (tactics builds resume on it).
  bool setRoot(const Board& position, SearchTree::Compaction compaction) {
    const bool kept = tree_.setRoot(position, compaction);
    if (!kept) replies_ = {};
    return kept;
  }

  // The moves worth searching at a leaf, or a decided status (Win/Loss) when the rules decide it.
  Proof candidateMoves(const Board& b, Bitboard& moves) const {
    if (!options_.tactics) {
      moves = b.legalMoves();
      return Proof::Unknown;
    }
    const RuleMoves r = ruleMoves(b);
    if (r.won()) return Proof::Win;
    moves = r.sensible;
    return moves ? Proof::Unknown : Proof::Loss;
  }

  // Gives node `idx` its children (shuffled, so that unvisited ones are tried in random order).
  // Returns false when the pool is full.
  bool expand(Index idx, Bitboard moves) {
    const int count = popcount(moves);
    const Index first = tree_.allocate(size_t(count));
    if (first == kNone) return false;
    Cell cells[kCells];
    int k = 0;
    while (moves) cells[k++] = popLowest(moves);
    for (int i = count - 1; i > 0; --i) std::swap(cells[i], cells[rng_.below(uint32_t(i + 1))]);
    for (int i = 0; i < count; ++i) SearchTree::initNode(tree_[first + Index(i)], cells[i]);
    tree_[idx].firstChild = first;
    tree_[idx].childCount = tree_[idx].liveCount = uint8_t(count);
    return true;
  }

  bool forcingEnabled() const { return options_.forcing && options_.solver && options_.tactics; }
  bool endgameEnabled() const { return options_.endgame && options_.solver && options_.tactics; }

  // Plays `b` out (on `b` itself when the policy allows, so that RAVE sees the stones placed).
  int playout(Board& b, Cell last) {
    return options_.smartPlayouts ? smartPlayoutOn(b, rng_, options_.lastGoodReply ? &replies_ : nullptr, last)
                                  : randomPlayout(b, rng_);
  }

  // RAVE: every child of a node on the path whose cell the node's mover occupied later in this
  // iteration (in the tree or the playout) gets the iteration's result.
  void updateAmaf(const Index* path, const int* movers, const Bitboard* ownStones, int depth, const Board& end,
                  int winner) {
    for (int d = 0; d < depth; ++d) {
      const Node& n = tree_[path[d]];
      if (!n.firstChild) continue;
      const int p = movers[d] ^ 1;  // the side to move at path[d]
      const Bitboard later = end.stones(p) & ~ownStones[d];
      if (!later) continue;
      const uint32_t gain = halfPoints(winner, p);
      // Branch-free: whether a child's cell is in `later` is a coin flip the branch predictor
      // cannot learn, and this loop over every child of every node on the path was the search's
      // hottest spot while it branched.
      const uint64_t add = 1 | uint64_t(gain) << 32;  // one visit and its half-points (addAmaf)
      // Only the live children: the others are never selected, so their AMAF is never read.
      for (Index i = n.firstChild, e = n.firstChild + n.liveCount; i < e; ++i) {
        Node& ch = tree_[i];
        ch.addAmaf(add & (0 - (later >> ch.move & 1)));
      }
    }
  }

  void iterate() {
    Index path[kMaxDepth];
    int movers[kMaxDepth];          // the player who moved into path[d]
    Bitboard ownStones[kMaxDepth];  // the stones of the side to move at path[d] (RAVE)
    int depth = 0;
    Board board = tree_.rootBoard();
    const Index root = tree_.root();
    Index idx = root;
    ownStones[depth] = board.stones(board.toMove());
    path[depth] = idx, movers[depth++] = board.toMove() ^ 1;
    int winner;
    bool proven = false;  // a node on the path got a proof this iteration
    for (;;) {
      Node& n = tree_[idx];
      if (n.proof != Proof::Unknown) {
        winner = winnerOfProof(n.proof, board.toMove());
        break;
      }
      if (n.firstChild == 0) {
        Bitboard moves = 0;
        const Proof decided = candidateMoves(board, moves);
        if (decided != Proof::Unknown) {
          winner = winnerOfProof(decided, board.toMove());
          if (options_.solver) n.proof = decided, proven = true;
          break;
        }
        if ((n.visits < std::max<uint32_t>(options_.expandVisits, 1) && idx != root) || !expand(idx, moves)) {
          winner = playout(board, n.move);
          break;
        }
      }
      const bool firstCheck = n.visits == forcingVisits_;
      if (idx != root && (firstCheck || (n.visits == retryVisits_ && n.forcingMark == ForcingMark::kRetry))) {
        if (firstCheck && endgameEnabled() && popcount(board.empty()) <= options_.endgameTreeEmpties) {
          const EndgameResult e = endgame_.solve(board, options_.endgameTreeNodes);
          if (e.solved) n.proof = e.value > 0 ? Proof::Win : e.value < 0 ? Proof::Loss : Proof::Draw;
        }
        // Lazy below the root's grandchildren: the proofs that decide the move come at once, and
        // nearly all the solves saved are deeper. The first check is cheap; one cut short by its
        // budget is made again, with the full one, if the search comes back often enough.
        if (forcingEnabled()) {
          const bool cheapFirst = firstCheck && retryVisits_;
          const bool cutShort =
              provenByForcing(tree_, forcing_, idx, board, options_.forcingLeafDepth,
                              cheapFirst ? options_.forcingFirstNodes : options_.forcingLeafNodes, depth > 3);
          if (n.forcingMark == ForcingMark::kRetry) n.forcingMark = ForcingMark::kUnknown;
          if (cheapFirst && cutShort && n.proof == Proof::Unknown) n.forcingMark = ForcingMark::kRetry;
        }
        if (n.proof != Proof::Unknown) {
          winner = winnerOfProof(n.proof, board.toMove());
          proven = true;
          break;
        }
      }
      Index child = selector_.select(tree_, n, board);
      // A child the defence check left pending is solved before the search walks into it;
      // a child proven lost for us leaves the choice (and may prove this node lost).
      while (
          child != kNone && tree_[child].forcingMark == ForcingMark::kPending &&
          settlePendingChild(tree_, forcing_, idx, child, board, options_.forcingLeafDepth, options_.forcingLeafNodes))
        child = n.proof == Proof::Unknown ? selector_.select(tree_, n, board) : kNone;
      if (n.proof != Proof::Unknown) {
        winner = winnerOfProof(n.proof, board.toMove());
        proven = true;
        break;
      }
      if (child == kNone) {  // every child is lost for us (only reachable if proofs were cut short)
        winner = board.toMove() ^ 1;
        break;
      }
      const int mover = board.toMove();
      const Outcome o = board.play(tree_[child].move);
      idx = child;
      ownStones[depth] = board.stones(board.toMove());
      path[depth] = idx, movers[depth++] = mover;
      if (o != Outcome::None) {
        winner = winnerAfter(o, mover);
        if (options_.solver) tree_[idx].proof = proofAfter(o), proven = true;
        break;
      }
    }
    for (int d = 0; d < depth; ++d) {
      Node& n = tree_[path[d]];
      ++n.visits;
      n.halfPoints += halfPoints(winner, movers[d]);
    }
    if (options_.raveK > 0) updateAmaf(path, movers, ownStones, depth, board, winner);
    // Upward from the parent of the node proven this iteration, while the proofs still follow;
    // a child just proven won for the opponent leaves its parent's live children.
    if (proven)
      for (int d = depth - 2; d >= 0; --d) {
        if (tree_[path[d + 1]].proof == Proof::Win) tree_.dropLostChildren(path[d]);
        if (!updateProof(tree_, path[d])) break;
      }
  }

  // The turn's df-pn (turn_prover.h) for the root's side to move, when the tree values the root at
  // least options_.proverMinValue for it: a proven winning move, or kNoCell.
  Cell proveRoot(const Board& position, const Stopwatch* clock, double untilMs) {
    const Node& r = tree_[tree_.root()];
    if (!r.visits || 1 - r.halfPoints * (0.5 / r.visits) < options_.proverMinValue) return kNoCell;
    if (!prover_) prover_ = std::make_unique<TurnProver>();
    return prover_->winningMove(position, clock, untilMs, clock ? UINT64_MAX : options_.proverExpansions);
  }

  // Root statistics and the final move (search_root.h).
  SearchResult& finish(SearchResult& result, const Stopwatch& clock) {
    chooseRootMove(tree_, options_, result);
    result.elapsedMs = clock.elapsedMs();
    return result;
  }

  SearchOptions options_;
  ChildSelector selector_;
  SearchTree tree_;
  Rng rng_;
  ForcingSolver forcing_;
  ReplyTable replies_;
  EndgameSolver endgame_;
  std::unique_ptr<TurnProver> prover_;  // made at its first use (options_.proverShare)
  StopRule stopRule_;
  MsClock clock_;               // a test's fake clock (useClock), else the steady clock
  uint32_t forcingVisits_ = 1;  // options_.forcingVisits, but at least the expansion threshold
  uint32_t retryVisits_ = 0;    // options_.forcingRetryVisits when a cheap first check is on, else 0
};

}  // namespace yav
