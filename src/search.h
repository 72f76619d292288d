// MCTS with solver backups (Winands, Bjornsson and Saito 2008) and cheap Yavalath tactics.
//
// Tree: one node pool allocated once; the children of a node are one contiguous block, created
// when the node is expanded. Nodes hold no board: the search replays moves from the root.
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
// - When a node is expanded: a forced win for the side to move proves the node won. If the
//   opponent would have a forced win after a pass, every child is checked for it, and the
//   children where the opponent still wins by force are proven lost for us (the tree then never
//   walks into them; when all are, the node is proven lost). The root does the same with a larger
//   budget.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "board.h"
#include "clock.h"
#include "forcing.h"
#include "playout.h"
#include "result.h"
#include "rng.h"

namespace yav {

struct SearchLimits {
  double timeMs = 0;        // wall-clock budget for this call; 0 = none
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
  Cell forcedWin = kNoCell;        // the forcing solver's winning move at the root, if any
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

  // The weak reference variant: plain UCT, no solver, no tactics, uniformly random playouts.
  static SearchOptions plainUct() {
    SearchOptions o;
    o.solver = o.tactics = o.smartPlayouts = o.secureChild = o.forcing = false;
    o.raveK = 0;
    o.exploration = 0.7;
    return o;
  }
};

constexpr size_t kDefaultNodes = size_t(12) << 20;  // 24 bytes each: 302 MB of address space

class Search {
 public:
  explicit Search(size_t maxNodes = kDefaultNodes, const SearchOptions& options = SearchOptions())
      : options_(options),
        capacity_(std::max<size_t>(maxNodes, 128)),
        pool_(new Node[capacity_]) {  // left uninitialised: pages are touched only when used
    buildTables();
    reset();
  }

  const SearchOptions& options() const { return options_; }
  void setOptions(const SearchOptions& o) {
    options_ = o;
    buildTables();
  }
  size_t capacity() const { return capacity_; }

  void reset() {
    used_ = 0;
    root_ = kNone;
  }

  // Searches `position` (side to move = position.toMove()). Reuses the previous tree when
  // `position` is reachable from the previous root within two plies (our move + the reply).
  SearchResult run(const Board& position, const SearchLimits& limits) {
    const Stopwatch clock;
    SearchResult result;
    rng_.reseed(limits.seed);
    result.reused = adoptRoot(position);
    if (!result.reused) {
      used_ = 0;
      root_ = allocate(1);
      initNode(pool_[root_], kNoCell);
    }
    rootBoard_ = position;
    // Checked whatever the root's proof: a node proven won by the solver inside the tree may have
    // no child proven lost for the opponent, so its winning move comes from here.
    uint64_t done = 0;
    if (forcingEnabled()) {
      const ForcingResult win = forcing_.solve(position, options_.forcingRootDepth, options_.forcingRootNodes);
      if (win.win) {
        result.forcedWin = win.move;
        return finish(result, clock);
      }
      if (!pool_[root_].firstChild && pool_[root_].proof == Proof::Unknown) iterate(), ++done;  // expands the root
      provenByForcing(root_, position, options_.forcingRootDepth, options_.forcingRootNodes,
                      options_.forcingRootDefenceNodes);
    }
    const uint64_t maxIterations = limits.iterations ? limits.iterations : UINT64_MAX;
    const bool timed = limits.timeMs > 0;
    if (!limits.iterations && !timed) return finish(result, clock);
    while (done < maxIterations && pool_[root_].proof == Proof::Unknown) {
      iterate();
      ++done;
      if (timed && (done & 7) == 0 && clock.elapsedMs() >= limits.timeMs) break;
    }
    result.iterations = done;
    return finish(result, clock);
  }

 private:
  using Index = uint32_t;
  static constexpr Index kNone = UINT32_MAX;
  static constexpr int kMaxDepth = kCells + 4;

  // 24 bytes; deliberately without initialisers so that the pool is not touched at allocation.
  struct Node {
    Index firstChild;  // 0 = no children (index 0 is never a child: it holds a root)
    uint32_t visits;
    uint32_t halfPoints;  // 2 per win, 1 per draw, for the player who moved into this node
    uint32_t amafVisits, amafHalfPoints;  // the same over iterations where this move came later (RAVE)
    int8_t move;
    uint8_t childCount;
    Proof proof;
    uint8_t pad;
  };

  static void initNode(Node& n, Cell move) {
    n.firstChild = 0;
    n.visits = n.halfPoints = n.amafVisits = n.amafHalfPoints = 0;
    n.move = int8_t(move);
    n.childCount = 0;
    n.proof = Proof::Unknown;
    n.pad = 0;
  }

  Index allocate(size_t count) {
    if (used_ + count > capacity_) return kNone;
    Index i = Index(used_);
    used_ += count;
    return i;
  }

  // The moves worth searching at a leaf, or a decided status (Win/Loss) when tactics decide it.
  Proof candidateMoves(const Board& b, Bitboard& moves) const {
    const int p = b.toMove();
    if (!options_.tactics) {
      moves = b.legalMoves();
      return Proof::Unknown;
    }
    if (b.winningCells(p)) return Proof::Win;
    const Bitboard threats = b.winningCells(p ^ 1);
    const Bitboard losing = b.losingCells(p);
    if (threats) {
      if (popcount(threats) >= 2) return Proof::Loss;
      moves = threats & ~losing;
    } else {
      moves = b.legalMoves() & ~losing;
    }
    return moves ? Proof::Unknown : Proof::Loss;
  }

  // Gives node `idx` its children (shuffled, so that unvisited ones are tried in random order).
  // Returns false when the pool is full.
  bool expand(Index idx, Bitboard moves) {
    const int count = popcount(moves);
    const Index first = allocate(size_t(count));
    if (first == kNone) return false;
    Cell cells[kCells];
    int k = 0;
    while (moves) cells[k++] = popLowest(moves);
    for (int i = count - 1; i > 0; --i) std::swap(cells[i], cells[rng_.below(uint32_t(i + 1))]);
    for (int i = 0; i < count; ++i) initNode(pool_[first + Index(i)], cells[i]);
    pool_[idx].firstChild = first;
    pool_[idx].childCount = uint8_t(count);
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
      const Node& ch = pool_[i];
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
      const Node& ch = pool_[i];
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

  // The forcing checks of an expanded node `idx` at position b: a forced win for the side to move
  // proves it won; otherwise, if the opponent has a forced win after a pass, proves lost for us every child after which it still has one; the node's proof follows
  // when they all are. A child outside the win's defence zone (and not a threat of ours) leaves
  // the win intact, so only the children inside it are searched. `totalNodes` bounds the solver's
  // work over all the calls; children left unchecked stay unknown.
  void provenByForcing(Index idx, const Board& b, int depth, uint32_t nodes, uint64_t totalNodes) {
    Node& n = pool_[idx];
    if (!n.firstChild || n.proof != Proof::Unknown) return;
    if (forcing_.solve(b, depth, nodes).win) {
      n.proof = Proof::Win;
      return;
    }
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
      Node& child = pool_[i];
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
    Node& n = pool_[idx];
    if (n.proof != Proof::Unknown || n.firstChild == 0) return n.proof != Proof::Unknown;
    bool anyDraw = false, anyUnknown = false;
    for (Index i = n.firstChild, end = n.firstChild + n.childCount; i < end; ++i) {
      const Proof p = pool_[i].proof;
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
      const Node& n = pool_[path[d]];
      if (!n.firstChild) continue;
      const int p = movers[d] ^ 1;  // the side to move at path[d]
      const Bitboard later = end.stones(p) & ~ownStones[d];
      if (!later) continue;
      const uint32_t gain = halfPoints(winner, p);
      for (Index i = n.firstChild, e = n.firstChild + n.childCount; i < e; ++i) {
        Node& ch = pool_[i];
        if (later >> ch.move & 1) ++ch.amafVisits, ch.amafHalfPoints += gain;
      }
    }
  }

  void iterate() {
    Index path[kMaxDepth];
    int movers[kMaxDepth];         // the player who moved into path[d]
    Bitboard ownStones[kMaxDepth];  // the stones of the side to move at path[d] (RAVE)
    int depth = 0;
    Board board = rootBoard_;
    Index idx = root_;
    ownStones[depth] = board.stones(board.toMove());
    path[depth] = idx, movers[depth++] = board.toMove() ^ 1;
    int winner;
    bool proven = false;  // a node on the path got a proof this iteration
    for (;;) {
      Node& n = pool_[idx];
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
        if ((n.visits < std::max<uint32_t>(options_.expandVisits, 1) && idx != root_) || !expand(idx, moves)) {
          winner = playout(board);
          break;
        }
      }
      if (forcingEnabled() && idx != root_ && n.visits == forcingVisits_) {
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
      const Outcome o = board.play(pool_[child].move);
      idx = child;
      ownStones[depth] = board.stones(board.toMove());
      path[depth] = idx, movers[depth++] = mover;
      if (o != Outcome::None) {
        winner = winnerAfter(o, mover);
        if (options_.solver) pool_[idx].proof = proofAfter(o), proven = true;
        break;
      }
    }
    for (int d = 0; d < depth; ++d) {
      Node& n = pool_[path[d]];
      ++n.visits;
      n.halfPoints += halfPoints(winner, movers[d]);
    }
    if (options_.raveK > 0) updateAmaf(path, movers, ownStones, depth, board, winner);
    if (proven)
      for (int d = depth - 2; d >= 0 && updateProof(path[d]); --d) {
      }
  }

  // Moves the root to `position` when it is the previous root or within two plies of it, and
  // compacts the pool when more than half of it is in use. Returns false when nothing is kept.
  bool adoptRoot(const Board& position) {
    if (root_ == kNone) return false;
    Index found = kNone;
    if (rootBoard_ == position) {
      found = root_;
    } else {
      const Node& r = pool_[root_];
      for (Index i = r.firstChild, e = r.firstChild + r.childCount; r.firstChild && i < e && found == kNone; ++i) {
        Board b1 = rootBoard_;
        if (b1.play(pool_[i].move) != Outcome::None) continue;
        if (b1 == position) {
          found = i;
          break;
        }
        const Node& c = pool_[i];
        for (Index j = c.firstChild, f = c.firstChild + c.childCount; c.firstChild && j < f; ++j) {
          Board b2 = b1;
          if (b2.play(pool_[j].move) != Outcome::None) continue;
          if (b2 == position) {
            found = j;
            break;
          }
        }
      }
    }
    if (found == kNone) return false;
    root_ = found;
    if (used_ > capacity_ / 2) compact();
    return true;
  }

  // Moves the subtree of the root to the front of the pool, keeping every child block
  // contiguous. Blocks are moved in the order of their old positions, so that a block's new place
  // never overlaps a block not yet moved.
  void compact() {
    struct Block {
      Index oldStart, count, newStart;
    };
    std::vector<Block> blocks;
    std::vector<Index> stack{root_};
    while (!stack.empty()) {
      const Node& n = pool_[stack.back()];
      stack.pop_back();
      if (!n.firstChild) continue;
      blocks.push_back({n.firstChild, n.childCount, 0});
      for (Index i = n.firstChild; i < n.firstChild + n.childCount; ++i) stack.push_back(i);
    }
    std::sort(blocks.begin(), blocks.end(), [](const Block& a, const Block& b) { return a.oldStart < b.oldStart; });
    Index next = 1;
    for (Block& b : blocks) b.newStart = next, next += b.count;
    auto newIndexOf = [&](Index oldStart) {
      auto it = std::lower_bound(blocks.begin(), blocks.end(), oldStart,
                                 [](const Block& b, Index v) { return b.oldStart < v; });
      return it->newStart;
    };
    Node rootCopy = pool_[root_];
    if (rootCopy.firstChild) rootCopy.firstChild = newIndexOf(rootCopy.firstChild);
    for (const Block& b : blocks)
      for (Index i = b.oldStart; i < b.oldStart + b.count; ++i)
        if (pool_[i].firstChild) pool_[i].firstChild = newIndexOf(pool_[i].firstChild);
    for (const Block& b : blocks) std::memmove(&pool_[b.newStart], &pool_[b.oldStart], b.count * sizeof(Node));
    pool_[0] = rootCopy;
    root_ = 0;
    used_ = next;
  }

  // Root statistics and the final move.
  SearchResult& finish(SearchResult& result, const Stopwatch& clock) {
    const Node& r = pool_[root_];
    result.nodes = used_;
    result.proof = r.proof;
    for (Index i = r.firstChild, e = r.firstChild + r.childCount; r.firstChild && i < e; ++i) {
      const Node& c = pool_[i];
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
    if (result.forcedWin != kNoCell) {
      result.move = result.forcedWin;
      result.proof = Proof::Win;
    } else if (best) {
      result.move = best->move;
      result.value = best->value;
    } else {
      result.move = fallbackMove(rootBoard_);
      result.value = r.proof == Proof::Win ? 1.0 : r.proof == Proof::Loss ? 0.0 : 0.5;
    }
    if (result.proof == Proof::Win) result.value = 1.0;
    if (result.proof == Proof::Loss) result.value = 0.0;
    result.elapsedMs = clock.elapsedMs();
    return result;
  }

  // A move for a root without children (decided by tactics, or the pool was full): a winning
  // cell, else a block, else a cell that does not make our 3, else any legal cell.
  static Cell fallbackMove(const Board& b) {
    const int p = b.toMove();
    const Bitboard legal = b.legalMoves();
    if (!legal) return kNoCell;
    if (Bitboard w = b.winningCells(p)) return lowestCell(w);
    const Bitboard safe = legal & ~b.losingCells(p);
    if (Bitboard t = b.winningCells(p ^ 1)) return lowestCell((t & safe) ? (t & safe) : t);
    return lowestCell(safe ? safe : legal);
  }

  SearchOptions options_;
  float raveBeta_[kTable], inverse_[kTable], invSqrt_[kTable];
  size_t capacity_;
  std::unique_ptr<Node[]> pool_;
  size_t used_ = 0;
  Index root_ = kNone;
  Board rootBoard_;
  Rng rng_;
  ForcingSolver forcing_;
  uint32_t forcingVisits_ = 1;  // options_.forcingVisits, but at least the expansion threshold
};

}  // namespace yav
