// A Yavalath position with the exact CodinGame rules.
//
// Players are 0 (moves first, CodinGame id 1) and 1. Besides the stones, the board keeps for each
// player the occupancy pattern of every line and two derived bitboards: the cells where a stone of
// that player would make a line of 4+, and those where it would make exactly 3 on some axis. Only
// the three lines through a new stone change, so playing a move costs three table lookups, and
// "cells that win / lose now" for a whole side are one or two ANDs. Both bitboards only grow: a
// player's own stone lengthens the runs through an empty cell and the opponent's changes none, so
// each line's new rule masks are ORed in (a 3-cell that becomes a 4-cell keeps its 3 bit, and
// losing is 3 and not 4); a bit on an occupied cell is stale and means nothing.
// Every table (line rules, line masks, Zobrist keys, check rules) is constexpr: built by the
// compiler, so the hot paths read it without an initialisation check, and an out-of-range index
// while building it is a compile error.
#pragma once

#include <cassert>
#include <cstdint>
#include <cstring>

#include "bitboard.h"
#include "result.h"
#include "rng.h"

namespace yav {

constexpr int kLinePatterns = 1 << kMaxLine;  // occupancy patterns of one line, bit i = position i

// Run lengths along one line: which empty positions of a 9-bit pattern would make 4+ or exactly 3.
struct LineRules {
  uint16_t four[kLinePatterns], three[kLinePatterns];
  constexpr LineRules() : four(), three() {
    for (int p = 0; p < kLinePatterns; ++p)
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
inline constexpr LineRules kLineRules{};

// The rule masks of every line slot and occupancy pattern as bitboards: one lookup per line
// when a stone is placed. Patterns are stored only up to each line's length (70 KB in all).
struct LineMasks {
  struct Entry {
    Bitboard four, three;
  };
  // Per cell and axis, what placing a stone there reads: the line slot, the cell's bit in the
  // line's pattern and the line's first entry (one load instead of three on the hot path).
  struct Step {
    uint16_t firstEntry, posBit;
    uint8_t slot;
  };
  Step step[kCells][kAxes];
  static constexpr int kPatterns = 2 * (32 + 64 + 128 + 256) + 512;  // 2^length summed over one axis
  Entry entry[kAxes * kPatterns];
  // Patterns used in all: 2^length over every line slot (checked below).
  static constexpr int patternsOfAllLines() {
    int n = 0;
    for (int s = 0; s < kAxes * kMaxLine; ++s) n += 1 << kGeometry.lineLength[s / kMaxLine][s % kMaxLine];
    return n;
  }
  constexpr LineMasks() : step(), entry() {
    const Geometry& g = kGeometry;
    const LineRules& r = kLineRules;
    int base[kAxes * kMaxLine] = {};  // each line slot's first entry
    int next = 0;
    for (int s = 0; s < kAxes * kMaxLine; ++s) {
      base[s] = next;
      const int length = g.lineLength[s / kMaxLine][s % kMaxLine];
      for (int p = 0; p < (1 << length); ++p)
        entry[next + p] = {g.spreadSlot(s, r.four[p]), g.spreadSlot(s, r.three[p])};
      next += 1 << length;
    }
    for (Cell c = 0; c < kCells; ++c)
      for (int k = 0; k < kAxes; ++k) step[c][k] = {uint16_t(base[g.slot[c][k]]), g.posBit[c][k], g.slot[c][k]};
  }
};
static_assert(LineMasks::patternsOfAllLines() == kAxes * LineMasks::kPatterns, "the table holds every line's patterns");
inline constexpr LineMasks kLineMasks{};
inline const LineMasks& lineMasks() { return kLineMasks; }

struct Zobrist {
  uint64_t stone[2][kCells], sideToMove;
  constexpr Zobrist() : stone(), sideToMove() {
    uint64_t state = kGoldenGamma;  // a fixed splitmix64 sequence: the same keys in every build
    for (auto& side : stone)
      for (auto& key : side) key = splitmix64(state);
    sideToMove = splitmix64(state);
  }
};
inline constexpr Zobrist kZobrist{};
inline const Zobrist& zobrist() { return kZobrist; }

// One player's check positions per axis, before the win/lose exclusion of checkCells: the lines
// of one axis are disjoint, so an axis's set is the union of its lines' positions, and a stone
// changes one line per axis. The forcing solver carries them down its lines.
struct CheckSets {
  Bitboard axis[kAxes];
};

class Board {
 public:
  Board() { clear(); }

  // A position from its stones and the player to move. Steal availability follows from it.
  static Board fromStones(Bitboard p0, Bitboard p1, int toMove) {
    assert(!(p0 & p1) && !((p0 | p1) & ~kFullBoard) && (toMove == 0 || toMove == 1));
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
  bool canSteal() const { return toMove_ == 1 && stones_[1] == 0 && stones_[0] != 0 && !severalCells(stones_[0]); }
  Cell stealCell() const { return canSteal() ? lowestCell(stones_[0]) : kNoCell; }

  // Every legal move: the empty cells, plus the opponent's stone when a steal is allowed.
  Bitboard legalMoves() const { return canSteal() ? empty() | stones_[0] : empty(); }
  bool isLegal(Cell c) const { return c >= 0 && c < kCells && (legalMoves() >> c & 1); }

  // Cells where `player` would make a line of 4+ (wins now), exactly 3 and no 4 (loses now).
  Bitboard winningCells(int player) const { return four_[player] & empty(); }
  Bitboard losingCells(int player) const { return three_[player] & ~four_[player] & empty(); }
  // Raw rule masks, exact on the empty cells only (see the top of this file): where a stone of
  // `player` would make 4+ / 3 on some axis (losing = threeLineCells & ~fourLineCells).
  Bitboard fourLineCells(int player) const { return four_[player]; }
  Bitboard threeLineCells(int player) const { return three_[player]; }
  // Cells where `player` would threaten to win at once: after the stone there, the other empty
  // cell of a 4-window (4 consecutive cells of a line) holding two of its stones and no opponent
  // stone would complete 4 in a row. Cells that win or lose at once are excluded.
  Bitboard checkCells(int player) const { return checkCells(player, checkSets(player)); }
  // The same from sets kept per axis (CheckSets, above), which a caller that plays on can update
  // from the lines a stone changed instead of rescanning all 27 lines.
  Bitboard checkCells(int player, const CheckSets& sets) const {
    return (sets.axis[0] | sets.axis[1] | sets.axis[2]) & ~three_[player] & ~four_[player];
  }
  CheckSets checkSets(int player) const;
  // Brings `sets` (player's, before a stone of either side on c) up to date: only c's three lines changed.
  void updateCheckSets(int player, Cell c, CheckSets& sets) const;

  // Plays a legal move for the side to move (a steal when it names the opponent's stone) and
  // returns what it decided for that player.
  Outcome play(Cell c) {
    assert(isLegal(c));
    const int p = toMove_;
    const Bitboard b = bit(c);
    const Outcome result = (stones_[p ^ 1] & b)             ? Outcome::None  // a steal decides nothing
                           : (four_[p] & b)                 ? Outcome::Win
                           : (three_[p] & b)                ? Outcome::Loss
                           : (occupied() | b) == kFullBoard ? Outcome::Draw
                                                            : Outcome::None;
    advance(c);
    return result;
  }

  // play(c) for a move known to neither win nor lose (ruleMoves' sensible moves), as the playouts
  // and the forcing solver play thousands of them: returns whether it filled the board (a draw).
  // Always inlined: left to itself, GCC stops inlining it once it has two callers, and the call
  // costs more than the outcome it saves.
  [[gnu::always_inline]] bool playSensible(Cell c) {
    assert(isLegal(c) && outcomeOf(c) != Outcome::Win && outcomeOf(c) != Outcome::Loss);
    advance(c);
    return occupied() == kFullBoard;
  }

  // Cells where the side to move would win at once after placing a stone on empty cell c (c itself
  // excluded), without playing it: own stones only add 4-cells, and only on the lines through c.
  Bitboard winningCellsAfter(Cell c) const {
    assert(c >= 0 && c < kCells && (empty() >> c & 1));
    const LineMasks& m = lineMasks();
    const int p = toMove_;
    Bitboard four = four_[p];
    for (const LineMasks::Step& k : m.step[c]) four |= m.entry[k.firstEntry + (line_[p][k.slot] | k.posBit)].four;
    return four & empty() & ~bit(c);
  }

  // The same stones with the other side to move: a pass, never a game move. Threat analysis
  // asks with it what the opponent could force if we did nothing.
  Board passed() const {
    Board b = *this;
    b.toMove_ = uint8_t(toMove_ ^ 1);
    b.hash_ ^= zobrist().sideToMove;
    return b;
  }

  // What playing c would decide for the side to move, without playing it.
  Outcome outcomeOf(Cell c) const {
    assert(isLegal(c));
    if (canSteal() && (stones_[0] >> c & 1)) return Outcome::None;
    const Bitboard b = bit(c);
    const int p = toMove_;
    if (four_[p] & b) return Outcome::Win;
    if (three_[p] & b) return Outcome::Loss;
    return (occupied() | b) == kFullBoard ? Outcome::Draw : Outcome::None;
  }

  bool operator==(const Board& o) const {
    return stones_[0] == o.stones_[0] && stones_[1] == o.stones_[1] && toMove_ == o.toMove_;
  }
  bool operator!=(const Board& o) const { return !(*this == o); }

  // The stones are disjoint cells of the board and everything kept incrementally (line patterns,
  // rule masks, hash) equals a rebuild from them (Stockfish's pos_is_ok, for this board). Asserted
  // after every move in debug builds; the random-game tests check it in every build.
  bool isConsistent() const {
    if ((stones_[0] & stones_[1]) || (occupied() & ~kFullBoard) || toMove_ > 1) return false;
    Board rebuilt;
    rebuilt.setStones(stones_[0], stones_[1], toMove_);
    auto same = [](const auto& a, const auto& b) { return std::memcmp(&a, &b, sizeof a) == 0; };
    const Bitboard open = empty();
    for (int p = 0; p < 2; ++p)  // the rule masks only where they mean something
      if (((four_[p] ^ rebuilt.four_[p]) & open) ||
          (((three_[p] & ~four_[p]) ^ (rebuilt.three_[p] & ~rebuilt.four_[p])) & open))
        return false;
    return same(stones_, rebuilt.stones_) && hash_ == rebuilt.hash_ && same(line_, rebuilt.line_);
  }

 private:
  void setStones(Bitboard p0, Bitboard p1, int toMove) {
    stones_[0] = stones_[1] = 0;
    for (auto& side : line_)
      for (auto& l : side) l = 0;
    for (int p = 0; p < 2; ++p) four_[p] = three_[p] = 0;
    hash_ = 0;
    for (Bitboard b = p0; b;) place(0, popLowest(b));
    for (Bitboard b = p1; b;) place(1, popLowest(b));
    toMove_ = uint8_t(toMove);
    if (toMove) hash_ ^= zobrist().sideToMove;
  }

  // Adds a stone of p: only the three lines through c change, and their rule masks for p are
  // ORed in (one table lookup per line for its 4+ and exactly-3 positions; see the top of the file).
  void place(int p, Cell c) {
    const LineMasks& m = lineMasks();
    stones_[p] |= bit(c);
    hash_ ^= zobrist().stone[p][c];
    for (const LineMasks::Step& k : m.step[c]) {
      const unsigned pattern = line_[p][k.slot] |= k.posBit;
      const LineMasks::Entry& e = m.entry[k.firstEntry + pattern];
      four_[p] |= e.four;
      three_[p] |= e.three;
    }
  }

  // The move c on the board, its outcome aside: a stone of the side to move, which then passes the
  // turn; or the steal, after which the stone is the second player's and the first moves again.
  void advance(Cell c) {
    const int p = toMove_;
    if (stones_[p ^ 1] >> c & 1) {
      setStones(0, stones_[0], 0);
      return;
    }
    place(p, c);
    toMove_ = uint8_t(p ^ 1);
    hash_ ^= zobrist().sideToMove;
    assert(isConsistent());
  }

  // The check positions of player on one line slot (CheckRules below), as cells.
  Bitboard lineChecks(int player, int slot) const;

  Bitboard stones_[2];
  Bitboard four_[2];   // where a stone of that player would make 4+ on some axis (exact on empty cells)
  Bitboard three_[2];  // where it would make exactly 3 on some axis (exact, minus four_, on empty cells)
  uint64_t hash_;
  uint16_t line_[2][kAxes * kMaxLine];  // per line slot, bit i: the line's i-th cell holds a stone
  uint8_t toMove_;
};

// Check positions of one line from its contents, by table: a line's state is its ternary code
// (digit i: 0 empty, 1 own stone, 2 opponent stone or beyond the line's end), and the table gives
// the empty positions of every 4-window holding two own stones and no opponent stone.
constexpr int kLineStates = 19683;  // 3^kMaxLine
static_assert(kMaxLine == 9, "kLineStates is 3^9");

struct CheckRules {
  uint16_t ternary[kLinePatterns];    // sum of 3^i over the bits of a 9-bit pattern
  uint16_t beyond[kAxes * kMaxLine];  // per line slot: the positions past the line's end
  uint16_t check[kLineStates];
  constexpr CheckRules() : ternary(), beyond(), check() {
    for (int m = 0; m < kLinePatterns; ++m)
      for (int i = 0, power = 1; i < kMaxLine; ++i, power *= 3)
        if (m >> i & 1) ternary[m] = uint16_t(ternary[m] + power);
    const Geometry& g = kGeometry;
    for (int s = 0; s < kAxes * kMaxLine; ++s)
      beyond[s] = uint16_t((kLinePatterns - 1) & ~((1u << g.lineLength[s / kMaxLine][s % kMaxLine]) - 1));
    for (int code = 0; code < kLineStates; ++code) {
      int digit[kMaxLine] = {};
      for (int i = 0, c = code; i < kMaxLine; ++i, c /= 3) digit[i] = c % 3;
      for (int start = 0; start + 4 <= kMaxLine; ++start) {
        int own = 0, blocked = 0;
        for (int i = start; i < start + 4; ++i) own += digit[i] == 1, blocked += digit[i] == 2;
        if (own != 2 || blocked) continue;
        for (int i = start; i < start + 4; ++i)
          if (digit[i] == 0) check[code] = uint16_t(check[code] | 1u << i);
      }
    }
  }
};
inline constexpr CheckRules kCheckRules{};

inline Bitboard Board::lineChecks(int player, int slot) const {
  const CheckRules& r = kCheckRules;
  const unsigned own = line_[player][slot];
  if (!severalCells(own)) return 0;  // a check needs two own stones on the line
  const unsigned positions = r.check[r.ternary[own] + 2 * r.ternary[line_[player ^ 1][slot] | r.beyond[slot]]];
  return positions ? geometry().spreadSlot(slot, positions) : 0;
}

inline CheckSets Board::checkSets(int player) const {
  CheckSets sets{};
  for (int k = 0; k < kAxes; ++k)
    for (int line = 0; line < kMaxLine; ++line) sets.axis[k] |= lineChecks(player, k * kMaxLine + line);
  return sets;
}

inline void Board::updateCheckSets(int player, Cell c, CheckSets& sets) const {
  const Geometry& g = geometry();
  for (int k = 0; k < kAxes; ++k) {
    const int slot = g.slot[c][k];
    sets.axis[k] = (sets.axis[k] & ~g.spreadSlot(slot, kLinePatterns - 1)) | lineChecks(player, slot);
  }
}

}  // namespace yav
