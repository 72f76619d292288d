// Exact solver for positions with few empty cells: negamax with alpha-beta over the three game
// values (loss, draw, win for the side to move) and a transposition table of bounds.
//
// Moves are pruned only by the rules, so every value it returns is exact: a winning cell ends the
// node; with two opponent winning cells the node is lost, with one the block is the only move;
// cells that make our own 3 lose at once, so they matter only when no other move is left (then
// the node is lost). Threats of our own are tried first. Node-limited: an aborted search reports
// nothing. The table holds bounds of exact game values, so it stays valid from call to call.
#pragma once

#include <cstdint>

#include "board.h"
#include "rule_moves.h"
#include "transposition_table.h"

namespace yav {

struct EndgameResult {
  bool solved = false;
  int value = 0;        // +1 win, 0 draw, -1 loss, for the side to move (when solved)
  Cell move = kNoCell;  // a move that achieves it
  uint64_t nodes = 0;
};

class EndgameSolver {
 public:
  explicit EndgameSolver(int tableLog2 = 16) : table_(tableLog2) {}

  EndgameResult solve(const Board& b, uint64_t maxNodes) {
    EndgameResult r;
    nodes_ = 0, limit_ = maxNodes, aborted_ = false;
    Cell move = kNoCell;
    const int value = negamax(b, -1, 1, move);
    r.nodes = nodes_;
    if (aborted_) return r;
    r.solved = true, r.value = value, r.move = move;
    return r;
  }

 protected:  // the tests' probe (tests/test_endgame.cpp) reads the table
  enum Bound : int8_t { kExact, kLower, kUpper };
  struct Known {  // a bound of the position's value, and the best move found
    int8_t value = 0;
    int8_t bound = kExact;
    int8_t move = -1;
  };

  // Value for the side to move within [alpha, beta] (fail-hard bounds are stored as such).
  int negamax(const Board& b, int alpha, int beta, Cell& bestMove) {
    if (++nodes_ > limit_) {
      aborted_ = true;
      return 0;
    }
    const RuleMoves rules = ruleMoves(b);
    if (rules.won()) {
      bestMove = lowestCell(rules.wins);
      return 1;
    }
    const Bitboard empty = b.empty();
    if (!empty) return 0;
    if (rules.lost()) {  // the opponent wins, or every move makes our 3
      bestMove = lowestCell(rules.mustBlock() ? rules.threats : empty);
      return -1;
    }
    const Bitboard moves = rules.sensible;

    Cell ttMove = kNoCell;
    if (const Known* e = table_.find(b.hash())) {
      ttMove = e->move;
      if (e->bound == kExact || (e->bound == kLower && e->value >= beta) || (e->bound == kUpper && e->value <= alpha)) {
        bestMove = e->move;
        return e->value;
      }
    }
    const int alphaIn = alpha;
    int best = -2;
    Cell bestHere = kNoCell;
    // Order: the table's move, then our threats, then the rest.
    const Bitboard threatening = rules.mustBlock() ? 0 : b.checkCells(b.toMove()) & moves;
    Bitboard groups[3] = {ttMove != kNoCell && (moves >> ttMove & 1) ? bit(ttMove) : 0, threatening, moves};
    Bitboard done = 0;
    for (int g = 0; g < 3 && alpha < beta; ++g) {
      for (Bitboard group = groups[g] & ~done; group && alpha < beta;) {
        const Cell m = popLowest(group);
        done |= bit(m);
        Board next = b;
        const Outcome o = next.play(m);  // never a win (no winning cell) nor a loss (pruned)
        Cell unused = kNoCell;
        const int v = o == Outcome::Draw ? 0 : -negamax(next, -beta, -alpha, unused);
        if (aborted_) return 0;
        if (v > best) best = v, bestHere = m;
        if (best > alpha) alpha = best;
      }
    }
    bestMove = bestHere;
    Known& e = table_.store(b.hash());
    e.value = int8_t(best), e.move = int8_t(bestHere);
    e.bound = best <= alphaIn ? kUpper : best >= beta ? kLower : kExact;
    return best;
  }

  TranspositionTable<Known> table_;
  uint64_t nodes_ = 0, limit_ = 0;
  bool aborted_ = false;
};

}  // namespace yav
