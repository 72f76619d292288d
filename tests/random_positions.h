// Random undecided positions for the solver tests, built on the core board and the slow
// reference board together (the reference has no way to set stones: both play the same moves).
#pragma once

#include <vector>

#include "board.h"
#include "playout.h"
#include "rng.h"
#include "tests/reference_rules.h"

namespace yav::testing_positions {

// One position on both boards.
struct Pair {
  Board fast;
  reference::ReferenceBoard slow;
  reference::RefOutcome play(Cell c) {
    const reference::RefOutcome o = slow.play(c);
    fast.play(c);
    return o;
  }
};

// A random undecided position: quiet random moves (never the mover's own 3, blocks mostly
// played), stopped after `stones` stones; false when the game ended first.
inline bool randomPosition(Rng& rng, int stones, Pair& out) {
  Pair p;
  for (int n = 0; n < stones; ++n) {
    const Board& b = p.fast;
    const int me = b.toMove();
    if (b.winningCells(me)) return false;
    Bitboard choice = b.empty() & ~b.losingCells(me);
    const Bitboard threats = b.winningCells(me ^ 1);
    if (threats && rng.below(4) != 0) choice &= threats;
    if (!choice) return false;
    if (p.play(randomCell(choice, rng)) != reference::RefOutcome::None) return false;
  }
  out = p;
  return true;
}

// A position `empty` cells before the end of a drawn game: a game of random moves that never
// make the mover's 3 or 4 filled the board (false when a mover had no such move), and the
// position is that game's before its last `empty` moves. A draw is still possible from it, so
// its value may be a draw, which random play rarely leaves.
inline bool drawnGamePrefix(Rng& rng, int empty, Pair& out) {
  Board b;
  std::vector<Cell> moves;
  while (b.empty()) {
    const int me = b.toMove();
    const Bitboard quiet = b.empty() & ~b.losingCells(me) & ~b.winningCells(me);
    if (!quiet) return false;
    moves.push_back(randomCell(quiet, rng));
    b.play(moves.back());  // quiet: nothing but the last move (a draw) ends the game
  }
  Pair p;
  for (size_t i = 0; i + size_t(empty) < moves.size(); ++i) p.play(moves[i]);
  out = p;
  return true;
}

// The position with these stones on both boards, `toMove` to move, its stones placed alternately
// (no steal); false when the stones do not make such a position or a game that was still open.
inline bool positionOf(Bitboard stones0, Bitboard stones1, int toMove, Pair& out) {
  Pair p;
  while (stones0 | stones1) {
    Bitboard& next = p.fast.toMove() == 0 ? stones0 : stones1;
    if (!next) return false;
    if (p.play(popLowest(next)) != reference::RefOutcome::None) return false;
  }
  if (p.fast.toMove() != toMove) return false;
  out = p;
  return true;
}

}  // namespace yav::testing_positions
