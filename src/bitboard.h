// Geometry of the 61-cell Yavalath hexagon and bitboard helpers.
//
// A cell is an index 0..60 in row-major order of the CodinGame coordinates (x, y): row y holds
// 9 - |y - 4| cells. A bitboard is one 64-bit word with bit i set for cell i.
// Lines are handled per axis: every cell lies on exactly one line of each of the three axes, and
// each line (at most 9 cells) is described by its cells in order.
#pragma once

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
constexpr Bitboard kFullBoard = (Bitboard(1) << kCells) - 1;

inline Bitboard bit(Cell c) { return Bitboard(1) << c; }
inline int popcount(Bitboard b) { return __builtin_popcountll(b); }
inline Cell lowestCell(Bitboard b) { return __builtin_ctzll(b); }
inline Cell popLowest(Bitboard& b) {
  Cell c = __builtin_ctzll(b);
  b &= b - 1;
  return c;
}
// The n-th (0-based) set cell of b; n < popcount(b).
inline Cell nthCell(Bitboard b, int n) {
  for (; n > 0; --n) b &= b - 1;
  return __builtin_ctzll(b);
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
  // (positions 0..4 and 5..8) so that the tables stay small enough for the L1 cache.
  Bitboard spreadLow[kAxes][kMaxLine][32], spreadHigh[kAxes][kMaxLine][16];

  Geometry() : x(), y(), a(), lineOf(), posOf(), lineLength(), lineCell(), spreadLow(), spreadHigh() {
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
            if ((m >> p & 1) && p < lineLength[k][l]) spreadLow[k][l][m] |= bit(lineCell[k][l][p]);
            if ((m >> p & 1) && p < 4 && p + 5 < lineLength[k][l] && m < 16) spreadHigh[k][l][m] |= bit(lineCell[k][l][p + 5]);
          }
    }
  }
  Bitboard spread(int axis, int line, unsigned mask) const {
    return spreadLow[axis][line][mask & 31] | spreadHigh[axis][line][mask >> 5 & 15];
  }
};

inline const Geometry& geometry() {
  static const Geometry g;
  return g;
}

inline std::string cellName(Cell c) {
  if (c < 0 || c >= kCells) return "none";
  return std::to_string(geometry().x[c]) + " " + std::to_string(geometry().y[c]);
}

}  // namespace yav
