// Geometry of the 61-cell Yavalath hexagon and bitboard helpers.
//
// A cell is an index 0..60 in row-major order of the CodinGame coordinates (x, y): row y holds
// 9 - |y - 4| cells, x counts from the row's left end. A bitboard is one 64-bit word with bit i
// set for cell i.
//
//             0   1   2   3   4              y = 0
//           5   6   7   8   9  10            y = 1
//        11  12  13  14  15  16  17          y = 2
//      18  19  20  21  22  23  24  25        y = 3
//    26  27  28  29  30  31  32  33  34      y = 4
//      35  36  37  38  39  40  41  42        y = 5
//        43  44  45  46  47  48  49          y = 6
//          50  51  52  53  54  55            y = 7
//            56  57  58  59  60              y = 8
//
// The three axes, as steps of the axial coordinates (a, y) with a = x + max(0, y - 4):
//   axis 0, (1,0): along a row               0 -> 1,  30 -> 31
//   axis 1, (0,1): down and to the left      0 -> 5,  30 -> 38
//   axis 2, (1,1): down and to the right     0 -> 6,  30 -> 39
//
// Lines are handled per axis: every cell lies on exactly one line of each of the three axes, and
// each line (at most 9 cells) is described by its cells in order: 9 lines per axis, of 5..9 cells.
#pragma once

#include <cassert>
#include <cstdint>
#include <string>

namespace yav {

using Bitboard = uint64_t;
using Cell = int;

constexpr int kCells = 61;
constexpr int kRows = 9;
constexpr int kAxes = 3;
constexpr int kMaxLine = 9;
constexpr Cell kNoCell = -1;
static_assert(kCells <= 64, "a bitboard is one 64-bit word");
static_assert(kMaxLine <= 9, "line patterns are 9-bit (uint16_t) masks");
constexpr Bitboard kFullBoard = (Bitboard(1) << kCells) - 1;

constexpr Bitboard bit(Cell c) { return Bitboard(1) << c; }

// Per-byte bit counts of b (each byte of the result holds 0..8). Used instead of the popcount
// builtin when the compiler may not emit the POPCNT instruction: without a target flag the builtin
// becomes a slow library call (the CodinGame build and the plain CMake Release build have no flags).
inline uint64_t byteCounts(Bitboard b) {
  b = b - ((b >> 1) & 0x5555555555555555ull);
  b = (b & 0x3333333333333333ull) + ((b >> 2) & 0x3333333333333333ull);
  return (b + (b >> 4)) & 0x0F0F0F0F0F0F0F0Full;
}
inline int popcount(Bitboard b) {
#ifdef __POPCNT__
  return __builtin_popcountll(b);
#else
  return int((byteCounts(b) * 0x0101010101010101ull) >> 56);
#endif
}
// b must not be empty (the builtin is undefined for 0). BSF exists on every x86-64.
inline Cell lowestCell(Bitboard b) {
  assert(b != 0);
  return __builtin_ctzll(b);
}
inline Cell popLowest(Bitboard& b) {
  assert(b != 0);
  Cell c = __builtin_ctzll(b);
  b &= b - 1;
  return c;
}
// True when b has at least two cells (cheaper than popcount(b) >= 2).
inline bool severalCells(Bitboard b) { return (b & (b - 1)) != 0; }

// The n-th (0-based) set cell of b; 0 <= n < popcount(b). Branch-free rank search: prefix sums of
// the byte counts locate the byte, then at most 7 lowest-bit removals inside it.
inline Cell nthCell(Bitboard b, int n) {
  assert(n >= 0 && n < popcount(b));
  const uint64_t prefix = byteCounts(b) * 0x0101010101010101ull;  // byte i: cells in bytes 0..i
  // Bytes whose prefix count exceeds n get their high bit set (every byte stays positive: <= 64).
  const uint64_t above =
      ((prefix | 0x8080808080808080ull) - uint64_t(n + 1) * 0x0101010101010101ull) & 0x8080808080808080ull;
  const int byte = __builtin_ctzll(above) >> 3;
  const int before = byte == 0 ? 0 : int((prefix >> (8 * byte - 8)) & 0xFF);
  unsigned bits = unsigned(b >> (8 * byte)) & 0xFFu;
  for (int k = n - before; k > 0; --k) bits &= bits - 1;
  return 8 * byte + __builtin_ctz(bits);
}

constexpr int rowLength(int y) { return 9 - (y > 4 ? y - 4 : 4 - y); }
constexpr int rowStart(int y) { return y == 0 ? 0 : rowStart(y - 1) + rowLength(y - 1); }
// Axial column a = x + max(0, y - 4): the three line axes are (da, dy) = (1,0), (0,1), (1,1).
constexpr int axialOffset(int y) { return y > 4 ? y - 4 : 0; }
constexpr bool onBoardAxial(int a, int y) {
  return a >= 0 && a <= 8 && y >= 0 && y <= 8 && (a - y <= 4) && (y - a <= 4);
}
constexpr bool onBoardXY(int x, int y) { return y >= 0 && y < kRows && x >= 0 && x < rowLength(y); }
constexpr Cell cellAt(int x, int y) { return rowStart(y) + x; }
constexpr Cell cellAtAxial(int a, int y) { return onBoardAxial(a, y) ? cellAt(a - axialOffset(y), y) : kNoCell; }

constexpr int kAxisDa[kAxes] = {1, 0, 1};
constexpr int kAxisDy[kAxes] = {0, 1, 1};

struct Geometry {
  int8_t x[kCells], y[kCells], a[kCells];
  // For each axis: the line a cell lies on, its position along that line, and the lines' cells.
  int8_t lineOf[kAxes][kCells], posOf[kAxes][kCells];
  int8_t lineLength[kAxes][kMaxLine];
  int8_t lineCell[kAxes][kMaxLine][kMaxLine];
  // Bitboard of the cells of line positions given by a 9-bit mask, split in two table halves
  // (positions 0..4 and 5..8) so that the tables stay small enough for the L1 cache. Indexed by
  // line slot = axis * kMaxLine + line.
  Bitboard spreadLow[kAxes * kMaxLine][32], spreadHigh[kAxes * kMaxLine][16];
  // The same facts packed for the board's tables (board.h): line slot (axis * kMaxLine + line) and
  // the cell's bit in that line's 9-bit pattern, per axis.
  uint8_t slot[kCells][kAxes];
  uint16_t posBit[kCells][kAxes];

  constexpr Geometry()
      : x(), y(), a(), lineOf(), posOf(), lineLength(), lineCell(), spreadLow(), spreadHigh(), slot(), posBit() {
    for (int yy = 0; yy < kRows; ++yy)
      for (int xx = 0; xx < rowLength(yy); ++xx) {
        Cell c = cellAt(xx, yy);
        x[c] = xx, y[c] = yy, a[c] = xx + axialOffset(yy);
      }
    for (int k = 0; k < kAxes; ++k) {
      int line = 0;
      for (Cell c = 0; c < kCells; ++c) {
        if (cellAtAxial(a[c] - kAxisDa[k], y[c] - kAxisDy[k]) != kNoCell) continue;  // not a line start
        int pos = 0;
        for (int aa = a[c], yy = y[c]; onBoardAxial(aa, yy); aa += kAxisDa[k], yy += kAxisDy[k], ++pos) {
          Cell d = cellAtAxial(aa, yy);
          lineOf[k][d] = int8_t(line), posOf[k][d] = int8_t(pos), lineCell[k][line][pos] = int8_t(d);
        }
        lineLength[k][line++] = int8_t(pos);
      }
      for (int l = 0; l < kMaxLine; ++l)
        for (int m = 0; m < 32; ++m)
          for (int p = 0; p < 5; ++p) {
            if ((m >> p & 1) && p < lineLength[k][l]) spreadLow[k * kMaxLine + l][m] |= bit(lineCell[k][l][p]);
            if ((m >> p & 1) && p < 4 && p + 5 < lineLength[k][l] && m < 16)
              spreadHigh[k * kMaxLine + l][m] |= bit(lineCell[k][l][p + 5]);
          }
    }
    for (Cell c = 0; c < kCells; ++c)
      for (int k = 0; k < kAxes; ++k) {
        slot[c][k] = uint8_t(k * kMaxLine + lineOf[k][c]);
        posBit[c][k] = uint16_t(1u << posOf[k][c]);
      }
  }
  constexpr Bitboard spread(int axis, int line, unsigned mask) const {
    return spreadSlot(axis * kMaxLine + line, mask);
  }
  constexpr Bitboard spreadSlot(int lineSlot, unsigned mask) const {
    return spreadLow[lineSlot][mask & 31] | spreadHigh[lineSlot][mask >> 5 & 15];
  }
};

// Built by the compiler (constexpr), so the hot paths read it without an initialisation check.
inline constexpr Geometry kGeometry{};
inline const Geometry& geometry() { return kGeometry; }

inline std::string cellName(Cell c) {
  if (c < 0 || c >= kCells) return "none";
  return std::to_string(geometry().x[c]) + " " + std::to_string(geometry().y[c]);
}

// The cell named "x y" (as cellName writes it: two decimal numbers separated by one space), or
// kNoCell when the text is anything else or names no cell of the board.
inline Cell parseCell(const std::string& text) {
  int value[2] = {0, 0};
  size_t i = 0;
  for (int k = 0; k < 2; ++k) {
    if (k == 1 && (i >= text.size() || text[i++] != ' ')) return kNoCell;
    const size_t start = i;
    while (i < text.size() && i - start < 2 && text[i] >= '0' && text[i] <= '9')
      value[k] = value[k] * 10 + (text[i++] - '0');
    if (i == start) return kNoCell;
  }
  return i == text.size() && onBoardXY(value[0], value[1]) ? cellAt(value[0], value[1]) : kNoCell;
}

}  // namespace yav
