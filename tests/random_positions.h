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

// A full board that is a draw, as each player's stones: random games of moves that never make the
// mover's 3 or 4, until one fills the board (about one in 13,000 does: a tenth of a second).
struct DrawnBoard {
  Bitboard stones[2] = {0, 0};
};
inline DrawnBoard drawnBoard(Rng& rng) {
  for (;;) {
    Board b;
    while (b.empty()) {
      const int me = b.toMove();
      const Bitboard quiet = b.empty() & ~b.losingCells(me) & ~b.winningCells(me);
      if (!quiet) break;
      b.play(randomCell(quiet, rng));  // quiet: nothing but the last move (a draw) ends the game
    }
    if (!b.empty()) return DrawnBoard{{b.stones(0), b.stones(1)}};
  }
}

// The position `empty` cells before the end of a game that fills `board`: its stones placed in a
// random order, the players alternating. No 3 or 4 lies among the stones of a drawn board, so
// every such game is quiet and a draw is still possible from the position: its value may be a
// draw, which random play rarely leaves.
inline Pair drawnGamePrefix(Rng& rng, const DrawnBoard& board, int empty) {
  std::vector<Cell> cells[2];
  for (int player = 0; player < 2; ++player)
    for (Bitboard left = board.stones[player]; left;) cells[player].push_back(popLowest(left));
  Pair p;
  for (int n = 0; n < kCells - empty; ++n) {
    std::vector<Cell>& mine = cells[n % 2];
    const size_t k = size_t(rng.below(mine.size()));
    std::swap(mine[k], mine.back());
    p.play(mine.back());
    mine.pop_back();
  }
  return p;
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
