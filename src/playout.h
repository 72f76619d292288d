// Playout policies: play a position out to the end and report the winner.
#pragma once

#include "board.h"
#include "rng.h"
#include "rule_moves.h"

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

// Last good reply with forgetting (LGRF-1, Baier and Drake 2010): reply[p][m] is the move p last
// played right after the opponent's move m in an iteration p won; p's loss forgets it.
struct ReplyTable {
  Cell reply[2][kCells];
  ReplyTable() {
    for (auto& row : reply)
      for (Cell& c : row) c = kNoCell;
  }
  // One playout's moves, played[0] the move that led to its start (kNoCell: none) and played[i]
  // (i >= 1) by `first` ^ ((i - 1) & 1); `winner` a player or kDrawResult (a draw teaches nothing).
  void learn(const Cell* played, int n, int first, int winner) {
    if (winner == kDrawResult) return;
    for (int i = 1; i < n; ++i) {
      if (played[i - 1] < 0) continue;
      const int p = first ^ ((i - 1) & 1);
      Cell& slot = reply[p][played[i - 1]];
      if (p == winner)
        slot = played[i];
      else if (slot == played[i])
        slot = kNoCell;
    }
  }
};

// The smart policy, from a position that is not over: the rules' sensible moves (rule_moves.h:
// take a win; else block the opponent's immediate win; never make our own 3), a random one when
// there is a choice; when there is none, we lose. Returns the winning player or kDrawResult. Plays
// on `b` itself, so that the caller can see the stones placed (the search's AMAF statistics use
// them). With `replies`, a choice plays the last good reply to the previous move when it is
// sensible (`last`: the move that led to `b`, kNoCell for none), and the result teaches the table.
inline int smartPlayoutOn(Board& b, Rng& rng, ReplyTable* replies = nullptr, Cell last = kNoCell) {
  Cell played[kCells + 1];
  int n = 0;
  played[n++] = last;
  const int first = b.toMove();
  int winner = kDrawResult;
  for (;;) {
    if (!b.empty()) break;
    const int mover = b.toMove();
    const RuleMoves r = ruleMoves(b);
    if (r.won()) {
      winner = mover;
      break;
    }
    if (r.lost()) {
      winner = mover ^ 1;
      break;
    }
    const Cell good = replies && played[n - 1] >= 0 ? replies->reply[mover][played[n - 1]] : kNoCell;
    const Cell c = r.mustBlock()                           ? lowestCell(r.sensible)
                   : good >= 0 && (r.sensible >> good & 1) ? good
                                                           : randomCell(r.sensible, rng);
    played[n++] = c;
    if (b.playSensible(c)) break;  // the board is full
  }
  if (replies) replies->learn(played, n, first, winner);
  return winner;
}
inline int smartPlayout(Board b, Rng& rng) { return smartPlayoutOn(b, rng); }

}  // namespace yav
