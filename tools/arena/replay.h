// A recorded game replayed up to a ply, with what a viewer marks: who placed each stone (the
// stolen stone keeps the number of the ply that placed it), the stolen stone, the last move, the
// line of 4 or 3 that decided the game, and who is to move.
#pragma once

#include <vector>

#include "board.h"
#include "tools/arena/referee.h"

namespace yav::arena {

struct ReplayPosition {
  Board board;
  int placedAt[kCells] = {};  // 1-based ply that placed the stone on the cell, 0: empty
  Cell lastMove = kNoCell;
  Cell stolen = kNoCell;                // the first stone, taken by the second player's steal
  Outcome lastOutcome = Outcome::None;  // what the last move decided for its mover
  Bitboard decidingLine = 0;            // the cells of the line of 4+ (win) or 3 (loss) the last move made
  int plies = 0;
};

// The cells of the mover's longest line through `c` along one axis, among the axes where that
// length satisfies `wanted` (4+ for a win, exactly 3 for a loss).
inline Bitboard lineThrough(const Board& b, int mover, Cell c, bool win) {
  const Geometry& g = geometry();
  const Bitboard own = b.stones(mover);
  for (int axis = 0; axis < kAxes; ++axis) {
    Bitboard line = bit(c);
    for (int direction = -1; direction <= 1; direction += 2)
      for (int step = 1;; ++step) {
        const Cell next =
            cellAtAxial(g.a[c] + direction * step * kAxisDa[axis], g.y[c] + direction * step * kAxisDy[axis]);
        if (next == kNoCell || !(own & bit(next))) break;
        line |= bit(next);
      }
    const int length = popcount(line);
    if (win ? length >= 4 : length == 3) return line;
  }
  return 0;
}

inline ReplayPosition replayTo(const std::vector<MoveRecord>& moves, size_t plies) {
  ReplayPosition p;
  for (size_t i = 0; i < plies && i < moves.size(); ++i) {
    const Cell c = moves[i].cell;
    const bool steal = p.board.canSteal() && c == p.board.stealCell();
    const int mover = p.board.toMove();
    p.lastOutcome = p.board.play(c);
    if (steal)
      p.stolen = c;  // keeps placedAt from ply 1
    else
      p.placedAt[c] = int(i + 1);
    p.lastMove = c;
    p.plies = int(i + 1);
    if (p.lastOutcome == Outcome::Win || p.lastOutcome == Outcome::Loss)
      p.decidingLine = lineThrough(p.board, mover, c, p.lastOutcome == Outcome::Win);
  }
  return p;
}

}  // namespace yav::arena
