// A learned move prior: how promising an empty cell is for the side to move, read from the cells
// within three steps of it along each of its three lines. Yavalath is decided on 4-windows, and
// every 4-window through a cell lies within those six cells of each line, so they hold what one
// stone there makes or spoils: a threat, a block, a shape that loses later.
//
// A cell's logit is the sum over its three lines of one shared table entry, indexed by the six
// cells' states (empty, own, opponent's, off the board), 2 bits each. Mirroring a line (offset i
// becoming -i) does not change the entry. The weights are trained offline from the book
// database's deep searches (tools/prior_train.cpp) and shipped as a string (book/move_prior.h).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "board.h"

namespace yav {

constexpr int kPriorPatterns = 1 << 12;  // 6 cells x 2 bits

// Bit i of the 6-cell window: offsets -3, -2, -1, +1, +2, +3 for i = 0..5. The index puts the
// cell i's state in bits 2i (own or off the board) and 2i+1 (opponent's or off the board).
struct PriorTables {
  uint16_t spread[64];          // the 6 bits of a window moved to the even bits of 12
  uint16_t mirror[kPriorPatterns];  // the pattern of the same line read the other way
  uint16_t offLine[kAxes * kMaxLine];  // per line slot: positions 0..11 of the line shifted by 3
                                       // that lie off the board
  constexpr PriorTables() : spread(), mirror(), offLine() {
    for (int m = 0; m < 64; ++m)
      for (int i = 0; i < 6; ++i)
        if (m >> i & 1) spread[m] = uint16_t(spread[m] | 1u << (2 * i));
    for (int p = 0; p < kPriorPatterns; ++p) {
      int q = 0;
      for (int i = 0; i < 6; ++i) q |= (p >> (2 * i) & 3) << (2 * (5 - i));
      mirror[p] = uint16_t(q);
    }
    for (int s = 0; s < kAxes * kMaxLine; ++s) {
      const int length = kGeometry.lineLength[s / kMaxLine][s % kMaxLine];
      offLine[s] = uint16_t(((0xFFFu << length) & 0xFFFu) << 3 | 7u);
    }
  }
  // Whether p can occur: off-board cells reach the window's ends (offsets beyond an off-board
  // offset are off too) and no cell is both own and opponent's unless off the board.
  constexpr bool possible(int p) const {
    for (int side = 0; side < 2; ++side) {
      bool off = false;
      for (int j = 0; j < 3; ++j) {
        const int i = side ? 3 + j : 2 - j;  // from the centre outwards
        const bool cellOff = (p >> (2 * i) & 3) == 3;
        if (off && !cellOff) return false;
        off = off || cellOff;
      }
    }
    return true;
  }
};
inline constexpr PriorTables kPriorTables{};

// The window pattern of empty cell c on axis k, for `player`.
inline int priorPattern(const Board& b, int player, Cell c, int k) {
  const Geometry& g = geometry();
  const PriorTables& t = kPriorTables;
  const int s = g.slot[c][k], pos = g.posOf[k][c];
  const unsigned off = t.offLine[s];
  const unsigned own = (b.linePattern(player, s) << 3 | off) >> pos & 0x7F;
  const unsigned opp = (b.linePattern(player ^ 1, s) << 3 | off) >> pos & 0x7F;
  const unsigned own6 = (own & 7) | (own >> 4) << 3, opp6 = (opp & 7) | (opp >> 4) << 3;
  return t.spread[own6] | t.spread[opp6] << 1;
}

// The canonical patterns (possible, and not above their mirror), in increasing order: the
// weights the string holds, one each.
inline int priorCanonicalPatterns(uint16_t* out) {
  int n = 0;
  for (int p = 0; p < kPriorPatterns; ++p)
    if (kPriorTables.possible(p) && p <= kPriorTables.mirror[p]) out[n++] = uint16_t(p);
  return n;
}

// Weights of the prior: one per pattern, mirrored patterns equal.
struct MovePrior {
  float weight[kPriorPatterns] = {};

  float logit(const Board& b, Cell c) const {
    const int p = b.toMove();
    return weight[priorPattern(b, p, c, 0)] + weight[priorPattern(b, p, c, 1)] + weight[priorPattern(b, p, c, 2)];
  }

  // Text form: the step, then one base-64 digit per canonical pattern (weight = (digit - 32) * step).
  static constexpr const char* kDigits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  // Reads "step:digits"; false when the text is malformed (the weights are then all 0).
  bool decode(const char* text) {
    std::memset(weight, 0, sizeof weight);
    char* end = nullptr;
    const float step = std::strtof(text, &end);
    if (end == text || *end != ':') return false;
    const char* d = end + 1;
    uint16_t canon[kPriorPatterns];
    const int n = priorCanonicalPatterns(canon);
    if (int(std::strlen(d)) != n) return false;
    for (int i = 0; i < n; ++i) {
      const char* at = std::strchr(kDigits, d[i]);
      if (!at || !d[i]) return std::memset(weight, 0, sizeof weight), false;
      const float w = float(int(at - kDigits) - 32) * step;
      weight[canon[i]] = weight[kPriorTables.mirror[canon[i]]] = w;
    }
    return true;
  }
};

}  // namespace yav
