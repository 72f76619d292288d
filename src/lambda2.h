// Wins that need one quiet move (Thomsen's lambda-2, after forcing checks): does the side to move
// win by a few checks (each with its one forced block), then a quiet move after which it would win
// by force if the defender passed, and which no defender reply stops?
//
// The forcing solver (forcing.h) sees only chains of checks; such a win is the trap MCTS walks
// into in the opening, a handful of stones in: our move looks quiet, and the opponent's answer is a
// check, the forced block, a quiet move and a forcing line (docs/search.md, "Wins with one quiet
// move"). Every claim is a proof:
// - a check's block is the defender's only move that neither loses now nor leaves a win;
// - after the quiet move, a defender reply outside the threat's defence zone (ForcingSolver::
//   defenceZone) and not a threat or win of the defender's own leaves the forcing win intact; each
//   reply inside it is answered by the forcing solver, and a reply it cannot refute stops the claim.
// Quiet moves are tried only on the attacker's lines, within 3 of its stones (a move anywhere else
// could still win, which is simply not claimed). Solver nodes are capped per call: a search cut
// short claims nothing.
#pragma once

#include <cstdint>

#include "board.h"
#include "forcing.h"
#include "rule_moves.h"

namespace yav {

struct Lambda2Result {
  bool win = false;
  Cell move = kNoCell;  // the attacker's first move: a check, or the quiet move itself
  uint64_t nodes = 0;   // forcing-solver nodes spent
};

class Lambda2Solver {
 public:
  // forcing: the solver (and its table) to run the forcing lines with; depth and nodes per forcing
  // search, as ForcingSolver::solve takes them.
  Lambda2Solver(ForcingSolver& forcing, int forcingDepth, uint32_t forcingNodes)
      : forcing_(forcing), depth_(forcingDepth), nodes_(forcingNodes) {}

  // A win for b.toMove() of the shape above with at most `checks` checks before the quiet move
  // (a pure forcing win counts too), spending at most about maxNodes forcing-solver nodes.
  Lambda2Result solve(const Board& b, int checks, uint64_t maxNodes) {
    Lambda2Result r;
    spent_ = 0;
    limit_ = maxNodes;
    r.win = attack(b, checks, r.move) == Status::Win;
    r.nodes = spent_;
    return r;
  }

 private:
  enum class Status : uint8_t { NoWin, Win, Aborted };

  bool forcedWin(const Board& b, ForcingResult* out = nullptr) {
    const ForcingResult r = forcing_.solve(b, depth_, nodes_);
    spent_ += r.nodes;
    if (out) *out = r;
    return r.win;
  }
  bool outOfNodes() const { return spent_ >= limit_; }

  Status attack(const Board& b, int checks, Cell& move) {
    ForcingResult direct;
    if (forcedWin(b, &direct)) {
      move = direct.move;
      return Status::Win;
    }
    const int a = b.toMove(), d = a ^ 1;
    const Bitboard defenderWins = b.winningCells(d);
    if (severalCells(defenderWins)) return Status::NoWin;
    Bitboard quiet = b.empty() & ~b.losingCells(a) & nearAttacker(b, a);
    if (defenderWins) quiet &= defenderWins;  // the defender's threat must be blocked first
    for (Bitboard q = quiet; q;) {
      if (outOfNodes()) return Status::Aborted;
      const Cell m = popLowest(q);
      if (quietMoveWins(b, m)) {
        move = m;
        return Status::Win;
      }
    }
    if (checks == 0) return Status::NoWin;
    Bitboard candidates = b.checkCells(a) & b.empty();
    if (defenderWins) candidates &= defenderWins;
    for (Bitboard c = candidates; c;) {
      if (outOfNodes()) return Status::Aborted;
      const Cell m = popLowest(c);
      Board next = b;
      if (next.play(m) != Outcome::None) continue;
      const RuleMoves reply = ruleMoves(next);
      if (reply.won() || severalCells(reply.sensible)) continue;  // not forcing after all
      if (!reply.sensible) {  // two threats, or the block makes the defender's 3
        move = m;
        return Status::Win;
      }
      const Outcome o = next.play(lowestCell(reply.sensible));
      if (o == Outcome::Loss) {
        move = m;
        return Status::Win;
      }
      if (o != Outcome::None) continue;  // the block filled the board
      Cell unused = kNoCell;
      const Status s = attack(next, checks - 1, unused);
      if (s == Status::Win) {
        move = m;
        return s;
      }
      if (s == Status::Aborted) return s;
    }
    return Status::NoWin;
  }

  // Whether the attacker's quiet move m wins: after it (and a pass) the attacker wins by force, and
  // no defender reply stops that.
  bool quietMoveWins(const Board& b, Cell m) {
    Board after = b;
    if (after.play(m) != Outcome::None) return false;
    const int d = after.toMove();
    if (after.winningCells(d)) return false;  // the defender wins at once
    const Board passed = after.passed();
    ForcingResult threat;
    if (!forcedWin(passed, &threat)) return false;
    // Near the end a stone anywhere can turn a forced block into the board-filling draw.
    const bool crowded = popcount(after.empty()) < 2 * threat.depth + 4;
    const Bitboard lineZone = forcing_.defenceZone(passed, threat);
    spent_ += forcing_.zoneNodes();
    const Bitboard zone = crowded ? kFullBoard : lineZone | after.checkCells(d) | after.winningCells(d);
    for (Bitboard r = ruleMoves(after).sensible & zone; r;) {
      if (outOfNodes()) return false;
      Board reply = after;
      const Outcome o = reply.play(popLowest(r));
      if (o == Outcome::Loss) continue;
      if (o != Outcome::None || !forcedWin(reply)) return false;
    }
    return true;
  }

  static Bitboard nearAttacker(const Board& b, int a) {
    Bitboard near = 0;
    for (Bitboard s = b.stones(a); s;) near |= kLineNeighbours.cells[popLowest(s)];
    return near;
  }

  ForcingSolver& forcing_;
  int depth_;
  uint32_t nodes_;
  uint64_t spent_ = 0, limit_ = 0;
};

}  // namespace yav
