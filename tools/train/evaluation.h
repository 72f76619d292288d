// A learned static evaluation: an n-tuple (pattern) network over every window of 5 consecutive
// cells along the three axes, fitted by logistic regression to the book database's deep-search
// values (tools/train/train.cpp; docs/evaluation.md). The bot does not use it: the ways of using it in
// the search that were measured lost or tied (docs/experiments/2026-12-evaluation.md).
//
// A window's pattern is its 5 cells as empty / the side to move's / the opponent's (3^5 = 243), so
// one weight serves both colours. Weights are shared across the 12 symmetries: windows that a
// symmetry maps onto each other form one class, and each window is read in the order of its
// class's representative (reversed where the symmetry reverses it); a class that a symmetry maps
// onto itself reversed reads a pattern and its mirror image as one. The value for the side to move
// is sigmoid(bias[stones / 8] + the sum of the windows' weights).
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "board.h"
#include "book_format.h"
#include "symmetry.h"

namespace yav {

constexpr int kWindowLength = 5;
constexpr int kWindowPatterns = 243;  // 3^kWindowLength
constexpr int kPhaseBuckets = 8;      // the bias's stone-count buckets (8 stones each)
constexpr int kMaxWindows = 90;

// Every window of the board, its symmetry class, and the table that turns a window's two 5-bit
// occupancy masks (side to move, opponent) into its weight's index.
struct WindowTable {
  int windows = 0, classes = 0;
  uint8_t cls[kMaxWindows] = {};
  bool reversed[kMaxWindows] = {};  // read from its last cell to its first
  bool mirrored[kMaxWindows] = {};  // its class maps onto itself reversed
  int8_t cell[kMaxWindows][kWindowLength] = {};
  uint16_t ternary[32] = {};  // 5-bit mask -> sum of 3^i
  uint8_t reverse5[32] = {};

  constexpr WindowTable() {
    const Geometry& g = kGeometry;
    for (int m = 0; m < 32; ++m)
      for (int i = 0, p = 1; i < kWindowLength; ++i, p *= 3)
        if (m >> i & 1) ternary[m] = uint16_t(ternary[m] + p), reverse5[m] = uint8_t(reverse5[m] | 1 << (4 - i));
    for (int k = 0; k < kAxes; ++k)
      for (int l = 0; l < kMaxLine; ++l)
        for (int s = 0; s + kWindowLength <= g.lineLength[k][l]; ++s, ++windows)
          for (int i = 0; i < kWindowLength; ++i) cell[windows][i] = g.lineCell[k][l][s + i];
    int representative[kMaxWindows] = {};
    for (int w = 0; w < windows; ++w) {
      int best = w;
      bool bestReversed = false;
      for (int t = 0; t < kSymmetries; ++t) {
        bool rev = false;
        const int image = imageOf(w, t, rev);
        if (image < best) best = image, bestReversed = rev;
      }
      if (best == w)
        representative[classes] = w, cls[w] = uint8_t(classes++);
      else
        cls[w] = cls[best], reversed[w] = bestReversed != reversed[best];
    }
    for (int w = 0; w < windows; ++w)
      for (int t = 0; t < kSymmetries; ++t) {
        bool rev = false;
        if (imageOf(representative[cls[w]], t, rev) == representative[cls[w]] && rev) mirrored[w] = true;
      }
  }

  // The window that transform t maps window w onto, and whether it reverses w's order.
  constexpr int imageOf(int w, int t, bool& rev) const {
    const Cell first = kSymmetryTables.cell[t][cell[w][0]], last = kSymmetryTables.cell[t][cell[w][kWindowLength - 1]];
    for (int v = 0; v < windows; ++v) {
      if (cell[v][0] == first && cell[v][kWindowLength - 1] == last) return rev = false, v;
      if (cell[v][0] == last && cell[v][kWindowLength - 1] == first) return rev = true, v;
    }
    return kMaxWindows;  // unreachable: a symmetry maps windows onto windows
  }

  // The pattern index (0..242) of a window from its occupancy masks, in its class's order.
  constexpr int pattern(int w, unsigned own, unsigned opp) const {
    if (reversed[w]) own = reverse5[own], opp = reverse5[opp];
    const int p = ternary[own] + 2 * ternary[opp];
    if (!mirrored[w]) return p;
    const int q = ternary[reverse5[own]] + 2 * ternary[reverse5[opp]];
    return p < q ? p : q;
  }
};
inline constexpr WindowTable kWindowTable{};

// The weights: one per (window class, pattern), and a bias per stone-count bucket.
struct EvaluationWeights {
  std::vector<float> window;  // kWindowTable.classes * kWindowPatterns
  float bias[kPhaseBuckets] = {};
  bool empty() const { return window.empty(); }
  static int count() { return kWindowTable.classes * kWindowPatterns + kPhaseBuckets; }
};

// The feature indices of a position, for the side to move (the trainer's view of evaluate).
template <class OnFeature>
void forEachWindowFeature(const Board& b, OnFeature onFeature) {
  const WindowTable& t = kWindowTable;
  const int me = b.toMove();
  const Bitboard mine = b.stones(me), theirs = b.stones(me ^ 1);
  for (int w = 0; w < t.windows; ++w) {
    unsigned own = 0, opp = 0;
    for (int i = 0; i < kWindowLength; ++i)
      own |= unsigned(mine >> t.cell[w][i] & 1) << i, opp |= unsigned(theirs >> t.cell[w][i] & 1) << i;
    onFeature(t.cls[w] * kWindowPatterns + t.pattern(w, own, opp));
  }
}
inline int phaseBucket(const Board& b) { return std::min(b.stoneCount() / 8, kPhaseBuckets - 1); }

// The logit of the side to move's winning chance.
inline float evaluationLogit(const EvaluationWeights& e, const Board& b) {
  float sum = e.bias[phaseBucket(b)];
  forEachWindowFeature(b, [&](int f) { sum += e.window[size_t(f)]; });
  return sum;
}
inline float evaluationValue(const EvaluationWeights& e, const Board& b) {
  return 1.0f / (1.0f + std::exp(-evaluationLogit(e, b)));
}

// ---- the weights as text ----
// Each weight is quantised to a signed byte in steps of kWeightStep, and the bytes are written in
// the book's character code (book_format.h: 15 bits a character, checksummed), so a damaged
// character is named where it is. The stream: one byte kWeightsVersion, one byte the window
// classes, then the biases and the window weights in index order.
constexpr unsigned kWeightsVersion = 1;
constexpr float kWeightStep = 1.0f / 32;

inline bool decodeWeights(const std::string& text, EvaluationWeights& e, std::string& error) {
  std::string bytes;
  if (!bookBytesOf(text, bytes, error)) return false;
  const size_t n = size_t(EvaluationWeights::count()) + 2;
  // The last character may carry up to one byte of padding: 15 bits hold one byte and 7 bits.
  if (bytes.size() < n || bytes.size() > n + 1 || uint8_t(bytes[0]) != kWeightsVersion ||
      uint8_t(bytes[1]) != kWindowTable.classes) {
    error = "weights text of " + std::to_string(bytes.size()) + " bytes does not match this evaluation (version " +
            std::to_string(kWeightsVersion) + ", " + std::to_string(kWindowTable.classes) + " window classes, " +
            std::to_string(n) + " bytes)";
    return false;
  }
  e.window.assign(size_t(kWindowTable.classes * kWindowPatterns), 0.0f);
  for (int i = 0; i < kPhaseBuckets; ++i) e.bias[i] = float(int8_t(bytes[size_t(2 + i)])) * kWeightStep;
  for (size_t i = 0; i < e.window.size(); ++i) e.window[i] = float(int8_t(bytes[2 + kPhaseBuckets + i])) * kWeightStep;
  return true;
}

}  // namespace yav
