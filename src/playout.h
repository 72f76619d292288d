// Playout policies: play a position out to the end and report the winner.
#pragma once

#include "board.h"
#include "rng.h"

namespace yav {

// A uniformly random cell of a non-empty set. Rejection sampling with 6-bit chunks of one random
// word (up to 10 draws over 0..63; cells 61..63 never belong to a set) is cheap while the set is
// large; an exact pick by rank covers the rare misses.
inline Cell randomCell(Bitboard set, Rng& rng) {
  uint64_t r = rng.next();
  for (int tries = 0; tries < 10; ++tries, r >>= 6) {
    const Cell c = Cell(r & 63);
    if (set >> c & 1) return c;
  }
  return nthCell(set, int(rng.below(uint32_t(popcount(set)))));
}

// Uniformly random placements (no steal) from a position that is not over. Returns the winning
// player or kDrawResult.
inline int randomPlayout(Board b, Rng& rng) {
  for (;;) {
    const Bitboard free = b.empty();
    if (!free) return kDrawResult;
    const int mover = b.toMove();
    const Outcome o = b.play(randomCell(free, rng));
    if (o != Outcome::None) return winnerAfter(o, mover);
  }
}

// The smart policy, from a position that is not over (no steal): take a win; else block the
// opponent's immediate win; else a random cell that does not make our own 3 (when every empty cell
// does, we lose). Returns the winning player or kDrawResult. Plays on `b` itself, so that the
// caller can see the stones placed (the search's AMAF statistics use them).
inline int smartPlayoutOn(Board& b, Rng& rng) {
  for (;;) {
    const Bitboard free = b.empty();
    if (!free) return kDrawResult;
    const int mover = b.toMove();
    if (b.fourLineCells(mover) & free) return mover;
    Cell c;
    if (const Bitboard threats = b.fourLineCells(mover ^ 1) & free) {
      // Two threats: blocking one cannot win for us (we have no winning cell) nor fill the board,
      // so the opponent takes the other. One threat: the block loses when it makes our 3.
      if (severalCells(threats)) return mover ^ 1;
      if (b.threeLineCells(mover) & threats) return mover ^ 1;
      c = lowestCell(threats);
    } else {
      const Bitboard safe = free & ~b.threeLineCells(mover);  // no 4 for us here, so 3 means loss
      if (!safe) return mover ^ 1;
      c = randomCell(safe, rng);
    }
    if (b.play(c) != Outcome::None) return kDrawResult;  // neither a win nor a loss: the board is full
  }
}
inline int smartPlayout(Board b, Rng& rng) { return smartPlayoutOn(b, rng); }

}  // namespace yav
