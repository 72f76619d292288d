// Playout policies: play a position out to the end and report the winner.
#pragma once

#include "board.h"
#include "rng.h"

namespace yav {

constexpr int kDrawResult = -1;  // playout result when the board fills up

// A uniformly random cell of a non-empty set: a few rejection draws over all cells, which is
// cheap while the set is large, then an exact pick by rank.
inline Cell randomCell(Bitboard set, Rng& rng) {
  for (int tries = 0; tries < 4; ++tries) {
    Cell c = Cell(rng.below(kCells));
    if (set >> c & 1) return c;
  }
  return nthCell(set, int(rng.below(uint32_t(popcount(set)))));
}

inline int winnerAfter(Outcome o, int mover) {
  return o == Outcome::Win ? mover : o == Outcome::Loss ? mover ^ 1 : kDrawResult;
}

// Uniformly random placements (no steal). Returns the winning player or kDrawResult.
inline int randomPlayout(Board b, Rng& rng) {
  for (;;) {
    const int mover = b.toMove();
    Outcome o = b.play(randomCell(b.empty(), rng));
    if (o != Outcome::None) return winnerAfter(o, mover);
  }
}

// The smart policy: take a win; else block the opponent's immediate win; else a random cell that
// does not make our own 3 (a losing cell only when nothing else is left).
inline int smartPlayout(Board b, Rng& rng) {
  for (;;) {
    const int mover = b.toMove();
    if (b.winningCells(mover)) return mover;
    Cell c;
    if (Bitboard threats = b.winningCells(mover ^ 1)) {
      c = randomCell(threats, rng);
    } else {
      Bitboard safe = b.empty() & ~b.losingCells(mover);
      if (!safe) return mover ^ 1;  // every empty cell makes our 3
      c = randomCell(safe, rng);
    }
    Outcome o = b.play(c);
    if (o != Outcome::None) return winnerAfter(o, mover);
  }
}

}  // namespace yav
