// A book turn: the book's move, checked first by a short search of the position.
//
// The book's verdicts come from searches of a fixed size, some of them by older engines, and the
// packer keeps one move a position. The search sometimes knows better within a fraction of a turn:
// in 7 of the 60 attack positions of tests/data/tactics_suite.txt, most with one stone each, the
// search keeps a win the book's move may give away (it proves two of them in 26 and 244 ms); and a
// book move can walk into a loss the search proves (docs/search.md, "Book turns";
// measured in docs/experiments/2026-11-search-engine.md).
#pragma once

#include "search_root.h"

namespace yav {

// The share of a book turn's budget the check gets; the rest searches the position after the
// move that is played (the next turn finds its position in that tree).
inline constexpr double kBookCheckShare = 1.0 / 3;

// The move of a book turn, given the check's search of the position: the search's move when it
// proved the position won, or proved the book's move lost while some move is not; otherwise the
// book's move.
inline Cell checkedBookMove(Cell bookMove, const SearchResult& check) {
  if (check.proof == Proof::Win) return check.move;
  if (check.proof == Proof::Loss) return bookMove;  // every move loses: the book's is as good as any
  for (const RootMove& m : check.children)
    if (m.move == bookMove && m.proof == Proof::Loss) return check.move;
  return bookMove;
}

}  // namespace yav
