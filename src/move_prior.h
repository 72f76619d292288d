// The move prior: how likely a long search is to choose each move of a position, from local
// patterns, learned from deep searches (tools/train, docs/move_prior.md).
//
// A move's logit is a sum of weights:
// - for each of the 3 axes, the line around the cell: the 3 cells on each side, each empty, ours,
//   the opponent's or off the board (4^6 patterns, a pattern and its mirror image one weight,
//   shared by the axes and by both colours: stones are seen from the side to move);
// - the hex distance to the opponent's last stone (1, 2, further or unknown);
// - whether the move makes a threat of 4 on two axes at once, and whether it takes the cell where
//   the opponent would.
// The search gives a young node's children virtual RAVE visits at the prior's odds (search.h).
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "board.h"
#include "book_format.h"

namespace yav {

namespace prior {

constexpr int kRadius = 3;                     // cells on each side of the move along an axis
constexpr int kPatterns = 1 << (4 * kRadius);  // 2 bits a cell: empty, own, opponent, off board
constexpr int kDistances = 3;                  // 1, 2, further (or no last stone)
enum State : int { kEmpty = 0, kOwn = 1, kOpponent = 2, kOff = 3 };

// Board geometry and pattern tables, built by the compiler.
struct Tables {
  // The cell `k + 1` steps along axis a in direction d (0: backwards, 1: forwards), or -1.
  int8_t neighbour[kCells][kAxes][2][kRadius];
  // A pattern's weight index: the pattern and its mirror image (sides exchanged) share one.
  uint16_t patternClass[kPatterns];
  int classes;
  // A stone of ours on the move's cell makes a threat of 4 (three of a 4-window ours, the fourth
  // empty) on this axis; likewise for the opponent's stone (ours and theirs exchanged).
  bool ownThreat[kPatterns], opponentThreat[kPatterns];

  // Pattern bits: cell k steps back is at bits 2k, k steps forward at 2 (kRadius + k).
  static constexpr int stateAt(int pattern, int offset) {  // offset -kRadius..kRadius, not 0
    return offset < 0 ? pattern >> (2 * (-offset - 1)) & 3 : pattern >> (2 * (kRadius + offset - 1)) & 3;
  }
  static constexpr int mirrored(int pattern) {
    return (pattern >> (2 * kRadius)) | (pattern & ((1 << (2 * kRadius)) - 1)) << (2 * kRadius);
  }
  static constexpr bool threatOf(int pattern, int own) {
    for (int start = -3; start <= 0; ++start) {
      int mine = 1, empty = 0;  // the move's own cell
      for (int o = start; o < start + 4; ++o) {
        if (o == 0) continue;
        const int s = stateAt(pattern, o);
        mine += s == own;
        empty += s == kEmpty;
      }
      if (mine == 3 && empty == 1) return true;
    }
    return false;
  }

  constexpr Tables() : neighbour(), patternClass(), classes(0), ownThreat(), opponentThreat() {
    const Geometry& g = kGeometry;
    for (Cell c = 0; c < kCells; ++c)
      for (int a = 0; a < kAxes; ++a)
        for (int d = 0; d < 2; ++d)
          for (int k = 0; k < kRadius; ++k) {
            const int step = (d ? 1 : -1) * (k + 1);
            neighbour[c][a][d][k] = int8_t(cellAtAxial(g.a[c] + step * kAxisDa[a], g.y[c] + step * kAxisDy[a]));
          }
    for (int p = 0; p < kPatterns; ++p) patternClass[p] = UINT16_MAX;
    for (int p = 0; p < kPatterns; ++p) {
      if (patternClass[p] != UINT16_MAX) continue;
      patternClass[p] = patternClass[mirrored(p)] = uint16_t(classes++);
    }
    for (int p = 0; p < kPatterns; ++p) ownThreat[p] = threatOf(p, kOwn), opponentThreat[p] = threatOf(p, kOpponent);
  }
};
inline constexpr Tables kTables{};

// Weight layout: the pattern classes, then the distances, then the two flags.
inline int distanceIndex(int d) { return kTables.classes + d; }
inline int doubleThreatIndex() { return kTables.classes + kDistances; }
inline int blocksDoubleThreatIndex() { return kTables.classes + kDistances + 1; }
inline int weightCount() { return kTables.classes + kDistances + 2; }

constexpr int kFeatures = kAxes + 1 + 2;  // per move: the 3 patterns, the distance, up to 2 flags

inline int hexDistance(Cell a, Cell b) {
  const Geometry& g = kGeometry;
  const int da = g.a[a] - g.a[b], dy = g.y[a] - g.y[b], dd = da - dy;
  const int m = da < 0 ? -da : da, n = dy < 0 ? -dy : dy, o = dd < 0 ? -dd : dd;
  return m > n ? (m > o ? m : o) : (n > o ? n : o);
}

// The weight indices of move c (an empty cell) in position b, whose opponent last played `last`
// (kNoCell: unknown). Returns how many were written to out (at most kFeatures).
inline int features(const Board& b, Cell c, Cell last, int* out) {
  const Bitboard own = b.stones(b.toMove()), opp = b.stones(b.toMove() ^ 1);
  int n = 0, ownThreats = 0, oppThreats = 0;
  for (int a = 0; a < kAxes; ++a) {
    int pattern = 0;
    for (int d = 0; d < 2; ++d)
      for (int k = 0; k < kRadius; ++k) {
        const int x = kTables.neighbour[c][a][d][k];
        const int s = x < 0 ? kOff : int(own >> x & 1) | int(opp >> x & 1) << 1;
        pattern |= s << (2 * (d * kRadius + k));
      }
    out[n++] = kTables.patternClass[pattern];
    ownThreats += kTables.ownThreat[pattern];
    oppThreats += kTables.opponentThreat[pattern];
  }
  const int d = last < 0 ? kDistances - 1 : hexDistance(c, last) - 1;
  out[n++] = distanceIndex(d < kDistances - 1 ? d : kDistances - 1);
  if (ownThreats >= 2) out[n++] = doubleThreatIndex();
  if (oppThreats >= 2) out[n++] = blocksDoubleThreatIndex();
  return n;
}

inline float logit(const std::vector<float>& weights, const Board& b, Cell c, Cell last) {
  int f[kFeatures];
  const int n = features(b, c, last, f);
  float z = 0;
  for (int i = 0; i < n; ++i) z += weights[size_t(f[i])];
  return z;
}

// The weights' text (book/embedded_prior.h, written by train prior): one signed byte a weight in
// steps of kWeightStep, in the book's character code (book_format.h: 15 bits a character, a
// checksum). False with `error` naming the damaged character, or the count that does not match.
constexpr float kWeightStep = 1.0f / 32;
constexpr float kWeightMin = -128 * kWeightStep, kWeightMax = 127 * kWeightStep;
inline bool decodeWeights(const std::string& text, std::vector<float>& weights, std::string& error) {
  std::string bytes;
  if (!bookBytesOf(text, bytes, error)) return false;
  if (bytes.size() != size_t(weightCount()))
    return error = std::to_string(bytes.size()) + " weights, the prior has " + std::to_string(weightCount()), false;
  weights.resize(bytes.size());
  for (size_t i = 0; i < bytes.size(); ++i) weights[i] = float(int8_t(bytes[i])) * kWeightStep;
  return true;
}

}  // namespace prior

}  // namespace yav
