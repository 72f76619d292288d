// MCTS with solver backups (Winands, Bjornsson and Saito 2008) and cheap Yavalath tactics.
//
// The tree (node pool, tree reuse) is search_tree.h; this file selects, expands, plays out, backs
// up results and proofs, calls the forcing solver and picks the final move. Statistics of a node
// are from the view of the player who made the move into it; its proof is from the view of the
// side to move at the node (Win: that side wins with best play).
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
// Exact endgames (endgame.h), when enabled (offline analyses; off in the bot): a root or a checked
// node with few empty cells is solved outright.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
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
#include "search_tree.h"

namespace yav {

struct SearchLimits {
  double timeMs = 0;        // wall-clock budget for this call; 0 = none
  double hardMs = 0;        // with timeMs: stop before this too, allowing for the scheduling gaps seen; 0 = none
  uint64_t iterations = 0;  // fixed iteration count; 0 = none (one of the two must be set)
  uint64_t seed = 1;        // playouts are reproducible for a given seed at fixed iterations
};

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
  Cell solvedMove = kNoCell;       // the root solved before any iteration (forcing or endgame solver)
  std::vector<RootMove> children;  // every root move with its statistics
};

struct SearchOptions {
  bool solver = true;         // proofs backed up the tree
  bool tactics = true;        // win / block / no-own-3 at the leaves
  bool smartPlayouts = true;  // playout.h smart policy; otherwise uniformly random
  double exploration = 0.5;   // UCT constant C in q + C * sqrt(ln N / n)
  uint32_t expandVisits = 1;  // a leaf gets children once it has been visited this many times (>= 1)
  // Final move: the lower bound value - A / sqrt(n) ("secure child") instead of most visits.
  // Without RAVE it scored 53% over 900 games; with RAVE most visits scores 58.7% against it.
  bool secureChild = false;
  double secureA = 1.0;
  // RAVE (all-moves-as-first statistics mixed into the selection value with weight
  // sqrt(k / (3 n + k))): raveK = 0 turns it off. Tuned by search_match (docs/search.md).
  double raveK = 10000;
  double raveExploration = 0.01;  // the UCT constant used together with RAVE
  // Forcing-sequence solver: attacker-move depth and node budget per call, at the root and at
  // each expanded node. forcing = false is the search without it.
  bool forcing = true;
  int forcingRootDepth = 30;
  uint32_t forcingRootNodes = 20000;         // per call (about 5 ms at most)
  uint32_t forcingRootDefenceNodes = 40000;  // all calls of the root's defence check together
  int forcingLeafDepth = 12;
  uint32_t forcingLeafNodes = 200;
  uint32_t forcingVisits = 8;  // a node is checked when its visit count reaches this (and it is expanded)
  // Exact endgame solver (endgame.h): at the root when at most endgameRootEmpties cells are
  // empty, and at a node's forcing check when at most endgameTreeEmpties are. Off in the bot: it
  // measured neutral there (+4.3 +- 33.4 Elo, 400 games at CodinGame time); on in the offline
  // provers (deepAnalysis), whose proofs it settles exactly.
  bool endgame = false;
  int endgameRootEmpties = 24;
  uint32_t endgameRootNodes = 100000;
  int endgameTreeEmpties = 16;
  uint32_t endgameTreeNodes = 2000;

  // The offline analysis variant (tactical suites, book verification): the bot's search plus the
  // exact endgame solver.
  static SearchOptions deepAnalysis() {
    SearchOptions o;
    o.endgame = true;
    return o;
  }

  // The weak reference variant: plain UCT, no solver, no tactics, uniformly random playouts.
  static SearchOptions plainUct() {
    SearchOptions o;
    o.solver = o.tactics = o.smartPlayouts = o.secureChild = o.forcing = o.endgame = false;
    o.raveK = 0;
    o.exploration = 0.7;
    return o;
  }
};

class Search {
 public:
  explicit Search(size_t maxNodes = kDefaultNodes, const SearchOptions& options = SearchOptions())
      : options_(options), tree_(maxNodes) {
    buildTables();
  }

  const SearchOptions& options() const { return options_; }

  void reset() { tree_.clear(); }

  // Searches `position` (side to move = position.toMove()). Reuses the previous tree when
  // `position` is reachable from the previous root within two plies (our move + the reply).
  SearchResult run(const Board& position, const SearchLimits& limits) {
    const Stopwatch clock;
    SearchResult result;
    rng_.reseed(limits.seed);
    result.reused = tree_.setRoot(position);
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
      defendByForcing(root, position, options_.forcingRootDepth, options_.forcingRootNodes,
                      options_.forcingRootDefenceNodes);
    }
    const uint64_t maxIterations = limits.iterations ? limits.iterations : UINT64_MAX;
    const bool timed = limits.timeMs > 0;
    if (!limits.iterations && !timed) return finish(result, clock);
    // On a loaded machine the process is descheduled for whole time slices (tens of ms) between
    // two looks at the clock; the longest such gap, remembered with decay from turn to turn,
    // predicts the next one, so the search stops while an answer still arrives before hardMs. Twice:
    // a pause may also fall before the input was read, where this clock cannot see it.
    schedulingGapMs_ *= 0.8;
    double lastLook = clock.elapsedMs();
    while (done < maxIterations && tree_[root].proof == Proof::Unknown) {
      iterate();
      ++done;
      if (!timed) continue;
      const double now = clock.elapsedMs();
      schedulingGapMs_ = std::max(schedulingGapMs_, now - lastLook);
      lastLook = now;
      if (now >= limits.timeMs || (limits.hardMs > 0 && now + 2 * schedulingGapMs_ >= limits.hardMs)) break;
    }
    result.iterations = done;
    return finish(result, clock);
  }

 private:
  using Index = SearchTree::Index;
  using Node = SearchNode;
  static constexpr Index kNone = SearchTree::kNone;
  static constexpr int kMaxDepth = kCells + 4;

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
    tree_[idx].childCount = uint8_t(count);
    return true;
  }

  Index select(const Node& n, const Board& b) {
    // The first stone of the game is plain UCT too: its AMAF value says how good the cell is to
    // own, but the opponent may steal it, which AMAF cannot see.
    if (options_.raveK > 0 && b.occupied()) return selectRave(n, b.stealCell());
    const double logN = std::log(double(n.visits) + 1.0);
    const double c = options_.exploration;
    Index best = kNone;
    double bestScore = -1e300;
    for (Index i = n.firstChild, end = n.firstChild + n.childCount; i < end; ++i) {
      const Node& ch = tree_[i];
      if (ch.proof == Proof::Win) continue;  // the opponent wins there: never worth a visit
      if (ch.visits == 0) return i;
      const double q = ch.proof == Proof::Draw ? 0.5 : ch.halfPoints * (0.5 / ch.visits);
      const double s = q + c * std::sqrt(logN / ch.visits);
      if (s > bestScore) bestScore = s, best = i;
    }
    return best;
  }

  // RAVE selection, in float with tables for small visit counts: it is the hottest loop.
  // The steal (`steal`: its cell, or kNoCell) shares no AMAF statistics with any other move, so
  // it is scored by plain UCT; otherwise one unlucky first playout would bury it for good.
  Index selectRave(const Node& n, Cell steal) {
    const float sqrtLogN = std::sqrt(std::log(float(n.visits) + 1.0f));
    const float c = float(options_.raveExploration) * sqrtLogN;
    Index best = kNone;
    float bestScore = -1e30f;
    for (Index i = n.firstChild, end = n.firstChild + n.childCount; i < end; ++i) {
      const Node& ch = tree_[i];
      if (ch.proof == Proof::Win) continue;
      const uint32_t v = ch.visits, a = ch.amafVisits;
      if (v == 0 && a == 0) return i;
      float s;
      if (ch.move == steal && ch.proof == Proof::Unknown) {
        if (v == 0) return i;
        s = float(ch.halfPoints) * 0.5f * inverse(v) + float(options_.exploration) * sqrtLogN * invSqrtOf(v);
        if (s > bestScore) bestScore = s, best = i;
        continue;
      } else if (ch.proof == Proof::Draw) {
        s = 0.5f;
      } else {
        const float beta = v < kTable ? raveBeta_[v] : raveBetaOf(v);
        const float q = v ? float(ch.halfPoints) * 0.5f * inverse(v) : 0.5f;
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
  void buildTables() {
    forcingVisits_ = std::max({options_.forcingVisits, options_.expandVisits, 1u});
    for (uint32_t v = 0; v < kTable; ++v) {
      raveBeta_[v] = options_.raveK > 0 ? raveBetaOf(v) : 0.0f;
      inverse_[v] = v ? 1.0f / float(v) : 0.0f;
      invSqrt_[v] = v ? 1.0f / std::sqrt(float(v)) : 0.0f;
    }
  }

  bool forcingEnabled() const { return options_.forcing && options_.solver && options_.tactics; }
  bool endgameEnabled() const { return options_.endgame && options_.solver && options_.tactics; }

  // The forcing checks of an expanded node `idx` at position b: a forced win for the side to move
  // proves it won; otherwise the defence check below.
  void provenByForcing(Index idx, const Board& b, int depth, uint32_t nodes, uint64_t totalNodes) {
    if (tree_[idx].proof != Proof::Unknown) return;
    if (forcing_.solve(b, depth, nodes).win) {
      tree_[idx].proof = Proof::Win;
      return;
    }
    defendByForcing(idx, b, depth, nodes, totalNodes);
  }

  // If the opponent has a forced win after a pass, proves lost for us every child after which it
  // still has one; the node's proof follows when they all are. A child outside the win's defence
  // zone (and not a threat of ours) leaves the win intact, so only the children inside it are
  // searched. `totalNodes` bounds the solver's work over all the calls; children left unchecked
  // stay unknown.
  void defendByForcing(Index idx, const Board& b, int depth, uint32_t nodes, uint64_t totalNodes) {
    Node& n = tree_[idx];
    if (!n.firstChild || n.proof != Proof::Unknown) return;
    const Board passed = b.passed();
    const ForcingResult threat = forcing_.solve(passed, depth, nodes);
    if (!threat.win) return;
    uint64_t spent = threat.nodes;
    const int me = b.toMove();
    // Near the end a stone anywhere can turn a forced block into the board-filling draw.
    const bool crowded = popcount(b.empty()) < 2 * threat.depth + 4;
    const Bitboard zone =
        crowded ? kFullBoard : forcing_.defenceZone(passed, threat) | b.checkCells(me) | b.winningCells(me);
    for (Index i = n.firstChild, end = n.firstChild + n.childCount; i < end; ++i) {
      Node& child = tree_[i];
      if (child.proof != Proof::Unknown) continue;
      if (!(zone >> child.move & 1)) {
        child.proof = Proof::Win;
        continue;
      }
      if (spent >= totalNodes) continue;
      Board next = b;
      if (next.play(child.move) != Outcome::None) continue;
      const ForcingResult r = forcing_.solve(next, depth, uint32_t(std::min<uint64_t>(nodes, totalNodes - spent)));
      spent += r.nodes;
      if (r.win) child.proof = Proof::Win;
    }
    updateProof(idx);
  }

  // Recomputes a node's proof from its children; true when it became proven.
  bool updateProof(Index idx) {
    Node& n = tree_[idx];
    if (n.proof != Proof::Unknown || n.firstChild == 0) return n.proof != Proof::Unknown;
    bool anyDraw = false, anyUnknown = false;
    for (Index i = n.firstChild, end = n.firstChild + n.childCount; i < end; ++i) {
      const Proof p = tree_[i].proof;
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

  // Plays `b` out (on `b` itself when the policy allows, so that RAVE sees the stones placed).
  int playout(Board& b) {
    return options_.smartPlayouts ? smartPlayoutOn(b, rng_) : randomPlayout(b, rng_);
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
      for (Index i = n.firstChild, e = n.firstChild + n.childCount; i < e; ++i) {
        Node& ch = tree_[i];
        if (later >> ch.move & 1) ++ch.amafVisits, ch.amafHalfPoints += gain;
      }
    }
  }

  void iterate() {
    Index path[kMaxDepth];
    int movers[kMaxDepth];         // the player who moved into path[d]
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
          winner = playout(board);
          break;
        }
      }
      if (idx != root && n.visits == forcingVisits_) {
        if (endgameEnabled() && popcount(board.empty()) <= options_.endgameTreeEmpties) {
          const EndgameResult e = endgame_.solve(board, options_.endgameTreeNodes);
          if (e.solved) n.proof = e.value > 0 ? Proof::Win : e.value < 0 ? Proof::Loss : Proof::Draw;
        }
        if (forcingEnabled())
          provenByForcing(idx, board, options_.forcingLeafDepth, options_.forcingLeafNodes, UINT64_MAX);
        if (n.proof != Proof::Unknown) {
          winner = winnerOfProof(n.proof, board.toMove());
          proven = true;
          break;
        }
      }
      const Index child = select(n, board);
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
    if (proven)
      for (int d = depth - 2; d >= 0 && updateProof(path[d]); --d) {
      }
  }

  // Root statistics and the final move.
  SearchResult& finish(SearchResult& result, const Stopwatch& clock) {
    const Node& r = tree_[tree_.root()];
    result.nodes = tree_.used();
    if (result.solvedMove == kNoCell && r.proof != Proof::Unknown) result.proof = r.proof;
    for (Index i = r.firstChild, e = r.firstChild + r.childCount; r.firstChild && i < e; ++i) {
      const Node& c = tree_[i];
      const Proof p = flipProof(c.proof);
      const double v = p == Proof::Win ? 1.0 : p == Proof::Loss ? 0.0 : p == Proof::Draw ? 0.5
                       : c.visits ? c.halfPoints * (0.5 / c.visits) : 0.5;
      result.children.push_back({Cell(c.move), c.visits, v, p});
    }
    const RootMove* best = nullptr;
    auto rank = [&](const RootMove& m) {
      // Proven wins first, proven losses last; in between, most visits or the secure value.
      if (m.proof == Proof::Win) return 1e18;
      if (m.proof == Proof::Loss) return -1e18 + m.visits;
      if (options_.secureChild) return m.visits ? m.value - options_.secureA / std::sqrt(double(m.visits)) : -1.0;
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
      result.move = ruleFallbackMove(tree_.rootBoard());  // decided by the rules, or the pool was full
      result.value = r.proof == Proof::Win ? 1.0 : r.proof == Proof::Loss ? 0.0 : 0.5;
    }
    if (result.proof == Proof::Win) result.value = 1.0;
    if (result.proof == Proof::Loss) result.value = 0.0;
    result.elapsedMs = clock.elapsedMs();
    return result;
  }

  SearchOptions options_;
  float raveBeta_[kTable], inverse_[kTable], invSqrt_[kTable];
  SearchTree tree_;
  Rng rng_;
  ForcingSolver forcing_;
  EndgameSolver endgame_;
  double schedulingGapMs_ = 0;  // the longest pause between two clock looks lately (see run)
  uint32_t forcingVisits_ = 1;  // options_.forcingVisits, but at least the expansion threshold
};

}  // namespace yav
