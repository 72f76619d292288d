// What the rules alone say about the moves of the side to move, before any search: the one home
// of "win now, else block, never make your own 3". The search's leaves, the playouts, the endgame
// solver, the bot's fallback move and the book's verdicts on unsearched moves all read it.
#pragma once

#include "board.h"

namespace yav {

struct RuleMoves {
  Bitboard wins = 0;     // cells that make our 4+: the game is won now
  Bitboard threats = 0;  // cells where the opponent would make its 4+ next
  // The moves that neither lose now (our own 3 without a 4) nor leave the opponent a win next:
  // the single block when there is one threat (none when the block makes our 3, or with two
  // threats), otherwise every legal move (the steal included) that does not make our 3.
  Bitboard sensible = 0;

  bool won() const { return wins != 0; }
  // Neither a win nor a sensible move: every move loses now or next (a full board is not asked).
  bool lost() const { return !wins && !sensible; }
  bool mustBlock() const { return threats != 0; }
};

inline RuleMoves ruleMoves(const Board& b) {
  const int p = b.toMove();
  RuleMoves r;
  r.wins = b.winningCells(p);
  r.threats = b.winningCells(p ^ 1);
  const Bitboard candidates = r.threats ? (severalCells(r.threats) ? 0 : r.threats) : b.legalMoves();
  r.sensible = candidates & ~b.losingCells(p);
  return r;
}

// A move when there is nothing better to go on (a root decided by the rules, or no search): a win,
// else a sensible move, else a block (the game is lost anyway), else any legal move.
inline Cell ruleFallbackMove(const Board& b) {
  const Bitboard legal = b.legalMoves();
  if (!legal) return kNoCell;
  const RuleMoves r = ruleMoves(b);
  return lowestCell(r.wins ? r.wins : r.sensible ? r.sensible : r.threats ? r.threats : legal);
}

}  // namespace yav
