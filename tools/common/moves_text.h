// The text of a line of moves, as the tools' --moves options and their position files write it:
// "X Y; X Y; ..." in the protocol's coordinates, from the empty board (a steal is legal on ply 2).
#pragma once

#include <sstream>
#include <string>

#include "board.h"
#include "protocol.h"

namespace yav {

// "2 2; 4 4" -> the board after those moves; false with `error` naming the ply and the reason.
inline bool playMoves(const std::string& text, Board& b, std::string& error) {
  std::stringstream in(text);
  std::string item;
  for (int ply = 1; std::getline(in, item, ';');) {
    std::stringstream words(item);
    std::string x, y, extra;
    if (!(words >> x)) continue;  // empty item (trailing ';')
    words >> y;
    const std::string where = "ply " + std::to_string(ply++) + " '" + x + (y.empty() ? "" : " " + y) + "': ";
    const Cell c = !y.empty() && !(words >> extra) ? parseCell(x + " " + y) : kNoCell;
    if (c == kNoCell) return error = where + "not a cell 'X Y' (X, Y from 0 to 8, on the board)", false;
    if (!b.isLegal(c)) return error = where + "the cell is taken (a steal is only legal on ply 2)", false;
    if (b.play(c) != Outcome::None) return error = where + "the game is over after it", false;
  }
  return true;
}

// A line of moves from the empty board to b's stones with b's side to move, placements only: the
// side that moves first and the other alternate. After a steal the stones' colours are exchanged
// (the same position for the side to move, which is all a PositionKey and a proof see). Empty
// when placements cannot reach b (the side to move holds more stones, or two fewer).
inline std::string placementLine(const Board& b) {
  const int mover = b.toMove();
  Bitboard mine = b.stones(mover), theirs = b.stones(mover ^ 1);
  const int lead = popcount(theirs) - popcount(mine);  // 0: the mover moved first; 1: second
  if (lead != 0 && lead != 1) return "";
  std::string line;
  for (int ply = 0; mine | theirs; ++ply) {
    Bitboard& side = (ply + lead) % 2 == 0 ? mine : theirs;
    line += (line.empty() ? "" : "; ") + cellName(popLowest(side));
  }
  return line;
}

}  // namespace yav
