// A Yavalath position with the exact CodinGame rules.
//
// Players are 0 (moves first, CodinGame id 1) and 1. Besides the stones, the board keeps for each
// player and axis the occupancy pattern of every line and two derived bitboards: the cells where a
// stone of that player would make a line of 4+ on that axis, and those where it would make exactly
// 3. Only the three lines through a new stone change, so playing a move costs a few table lookups,
// and "cells that win / lose now" for a whole side are a couple of ORs.
#pragma once

#include <cstdint>

#include "bitboard.h"

namespace yav {

enum class Outcome : uint8_t { None, Win, Loss, Draw };  // seen from the player who just moved

// Run lengths along one line: which empty positions of a 9-bit pattern would make 4+ or exactly 3.
struct LineRules {
  uint16_t four[512], three[512];
  LineRules() : four(), three() {
    for (int p = 0; p < 512; ++p)
      for (int e = 0; e < kMaxLine; ++e) {
        if (p >> e & 1) continue;
        int run = 1;
        for (int i = e - 1; i >= 0 && (p >> i & 1); --i) ++run;
        for (int i = e + 1; i < kMaxLine && (p >> i & 1); ++i) ++run;
        if (run >= 4) four[p] |= uint16_t(1 << e);
        if (run == 3) three[p] |= uint16_t(1 << e);
      }
  }
};
inline const LineRules& lineRules() {
  static const LineRules r;
  return r;
}

struct Zobrist {
  uint64_t stone[2][kCells], sideToMove;
  Zobrist() {
    uint64_t s = 0x9E3779B97F4A7C15ull;
    auto next = [&s] {  // splitmix64: fixed keys, identical in every build
      uint64_t z = (s += 0x9E3779B97F4A7C15ull);
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
      return z ^ (z >> 31);
    };
    for (auto& side : stone)
      for (auto& key : side) key = next();
    sideToMove = next();
  }
};
inline const Zobrist& zobrist() {
  static const Zobrist z;
  return z;
}

class Board {
 public:
  Board() { clear(); }

  // A position from its stones and the player to move. Steal availability follows from it.
  static Board fromStones(Bitboard p0, Bitboard p1, int toMove) {
    Board b;
    b.setStones(p0, p1, toMove);
    return b;
  }

  void clear() { setStones(0, 0, 0); }

  Bitboard stones(int player) const { return stones_[player]; }
  Bitboard occupied() const { return stones_[0] | stones_[1]; }
  Bitboard empty() const { return ~occupied() & kFullBoard; }
  int toMove() const { return toMove_; }
  int stoneCount() const { return popcount(occupied()); }
  uint64_t hash() const { return hash_; }

  // The second player's first turn: it may take the first player's only stone.
  bool canSteal() const { return toMove_ == 1 && stones_[1] == 0 && popcount(stones_[0]) == 1; }
  Cell stealCell() const { return canSteal() ? lowestCell(stones_[0]) : kNoCell; }

  // Every legal move: the empty cells, plus the opponent's stone when a steal is allowed.
  Bitboard legalMoves() const { return canSteal() ? empty() | stones_[0] : empty(); }
  bool isLegal(Cell c) const { return c >= 0 && c < kCells && (legalMoves() >> c & 1); }

  // Cells where `player` would make a line of 4+ (wins now), exactly 3 and no 4 (loses now).
  Bitboard winningCells(int player) const { return fourCells(player) & empty(); }
  Bitboard losingCells(int player) const { return threeCells(player) & ~fourCells(player) & empty(); }
  // Cells where `player` would threaten to win at once: after the stone there, some empty cell of a
  // 4-window would complete it. Cells that lose at once are excluded.
  Bitboard checkCells(int player) const;

  // Plays a legal move for the side to move (a steal when it names the opponent's stone) and
  // returns what it decided for that player.
  Outcome play(Cell c) {
    const int p = toMove_;
    if (stones_[p ^ 1] >> c & 1) {  // steal: the stone changes owner, the first player moves again
      setStones(0, stones_[0], 0);
      return Outcome::None;
    }
    const Bitboard b = bit(c);
    Outcome result = (fourCells(p) & b)    ? Outcome::Win
                     : (threeCells(p) & b) ? Outcome::Loss
                     : (occupied() | b) == kFullBoard ? Outcome::Draw
                                                      : Outcome::None;
    place(p, c);
    toMove_ = p ^ 1;
    hash_ ^= zobrist().sideToMove;
    return result;
  }

  // What playing c would decide for the side to move, without playing it.
  Outcome outcomeOf(Cell c) const {
    if (canSteal() && (stones_[0] >> c & 1)) return Outcome::None;
    const Bitboard b = bit(c);
    const int p = toMove_;
    if (fourCells(p) & b) return Outcome::Win;
    if (threeCells(p) & b) return Outcome::Loss;
    return (occupied() | b) == kFullBoard ? Outcome::Draw : Outcome::None;
  }

  bool operator==(const Board& o) const {
    return stones_[0] == o.stones_[0] && stones_[1] == o.stones_[1] && toMove_ == o.toMove_;
  }
  bool operator!=(const Board& o) const { return !(*this == o); }

 private:
  Bitboard fourCells(int p) const { return four_[p][0] | four_[p][1] | four_[p][2]; }
  Bitboard threeCells(int p) const { return three_[p][0] | three_[p][1] | three_[p][2]; }

  void setStones(Bitboard p0, Bitboard p1, int toMove) {
    stones_[0] = stones_[1] = 0;
    for (auto& side : line_)
      for (auto& axis : side)
        for (auto& l : axis) l = 0;
    for (int p = 0; p < 2; ++p)
      for (int k = 0; k < kAxes; ++k) four_[p][k] = three_[p][k] = 0;
    hash_ = 0;
    for (Bitboard b = p0; b;) place(0, popLowest(b));
    for (Bitboard b = p1; b;) place(1, popLowest(b));
    toMove_ = uint8_t(toMove);
    if (toMove) hash_ ^= zobrist().sideToMove;
  }

  void place(int p, Cell c) {
    const Geometry& g = geometry();
    const LineRules& r = lineRules();
    stones_[p] |= bit(c);
    hash_ ^= zobrist().stone[p][c];
    for (int k = 0; k < kAxes; ++k) {
      const int l = g.lineOf[k][c];
      const unsigned pattern = line_[p][k][l] |= uint16_t(1u << g.posOf[k][c]);
      const Bitboard lineMask = g.spread(k, l, 511);
      four_[p][k] = (four_[p][k] & ~lineMask) | g.spread(k, l, r.four[pattern]);
      three_[p][k] = (three_[p][k] & ~lineMask) | g.spread(k, l, r.three[pattern]);
    }
  }

  Bitboard stones_[2];
  uint16_t line_[2][kAxes][kMaxLine];  // bit i: the line's i-th cell holds a stone of that player
  Bitboard four_[2][kAxes];            // cells (any state) where a stone would make 4+ on that axis
  Bitboard three_[2][kAxes];           // cells (any state) where a stone would make exactly 3 there
  uint64_t hash_;
  uint8_t toMove_;
};

// 4-windows: every run of 4 consecutive cells on a line. A window holding two stones of a player
// and two empty cells gives that player a check at either empty cell.
struct Windows {
  int count = 0;
  Bitboard mask[kAxes * 6 * kMaxLine];
  Windows() : mask() {
    const Geometry& g = geometry();
    for (int k = 0; k < kAxes; ++k)
      for (int l = 0; l < kMaxLine; ++l)
        for (int s = 0; s + 4 <= g.lineLength[k][l]; ++s) mask[count++] = g.spread(k, l, 15u << s);
  }
};
inline const Windows& windows() {
  static const Windows w;
  return w;
}

inline Bitboard Board::checkCells(int player) const {
  const Windows& w = windows();
  const Bitboard own = stones_[player], free = empty();
  Bitboard result = 0;
  for (int i = 0; i < w.count; ++i) {
    const Bitboard m = w.mask[i];
    if ((m & free) == (m & ~own) && popcount(m & own) == 2) result |= m & free;
  }
  return result & ~losingCells(player) & ~winningCells(player);
}

}  // namespace yav
