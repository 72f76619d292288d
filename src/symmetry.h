// The 12 symmetries of the hexagon (6 rotations, each with or without a reflection), acting on
// cells, bitboards and whole positions; the canonical form of a position and of its moves.
//
// Transform t = 6 * reflect + rotation: reflect first (when t >= 6), then rotate by 60 degrees
// `rotation` times. Transform 0 is the identity.
#pragma once

#include <cstdint>
#include <vector>

#include "board.h"

namespace yav {

constexpr int kSymmetries = 12;

struct SymmetryTables {
  int8_t cell[kSymmetries][kCells];  // image of each cell under each transform
  int8_t inverse[kSymmetries];
  int8_t compose[kSymmetries][kSymmetries];  // compose[s][t]: apply t, then s

  constexpr SymmetryTables() : cell(), inverse(), compose() {
    const Geometry& g = kGeometry;
    for (int t = 0; t < kSymmetries; ++t)
      for (Cell c = 0; c < kCells; ++c) {
        // Cube coordinates centred on the middle cell, where a 60-degree turn is a signed rotation.
        int X = g.a[c] - 4, Z = 4 - g.y[c], Y = -X - Z;
        if (t >= 6) {
          int swap = Y;
          Y = Z, Z = swap;
        }
        for (int r = 0; r < t % 6; ++r) {
          int nx = -Z, ny = -X, nz = -Y;
          X = nx, Y = ny, Z = nz;
        }
        cell[t][c] = int8_t(cellAtAxial(X + 4, 4 - Z));
      }
    for (int s = 0; s < kSymmetries; ++s)
      for (int t = 0; t < kSymmetries; ++t)
        for (int u = 0; u < kSymmetries; ++u) {
          bool same = true;
          for (Cell c = 0; c < kCells && same; ++c) same = cell[u][c] == cell[s][cell[t][c]];
          if (same) compose[s][t] = int8_t(u);
        }
    for (int t = 0; t < kSymmetries; ++t)
      for (int u = 0; u < kSymmetries; ++u)
        if (compose[u][t] == 0) inverse[t] = int8_t(u);
  }
};

// Built by the compiler (constexpr) like the board's tables: no initialisation check when used.
inline constexpr SymmetryTables kSymmetryTables{};
inline const SymmetryTables& symmetries() { return kSymmetryTables; }

inline Cell transformCell(int t, Cell c) { return c < 0 ? c : symmetries().cell[t][c]; }
inline int inverseTransform(int t) { return symmetries().inverse[t]; }
inline int composeTransforms(int after, int first) { return symmetries().compose[after][first]; }

inline Bitboard transformBits(int t, Bitboard b) {
  const int8_t* map = symmetries().cell[t];
  Bitboard out = 0;
  while (b) out |= bit(map[popLowest(b)]);
  return out;
}

// A position as the player to move sees it: its own stones, the opponent's, and whether it may
// steal (the only rule state not visible in the stones). Ordered so that a minimum exists.
struct PositionKey {
  Bitboard mine = 0, theirs = 0;
  bool stealAvailable = false;

  static PositionKey of(const Board& b) { return {b.stones(b.toMove()), b.stones(b.toMove() ^ 1), b.canSteal()}; }
  PositionKey transformed(int t) const { return {transformBits(t, mine), transformBits(t, theirs), stealAvailable}; }
  bool operator==(const PositionKey& o) const {
    return mine == o.mine && theirs == o.theirs && stealAvailable == o.stealAvailable;
  }
  bool operator!=(const PositionKey& o) const { return !(*this == o); }
  bool operator<(const PositionKey& o) const {
    if (mine != o.mine) return mine < o.mine;
    if (theirs != o.theirs) return theirs < o.theirs;
    return stealAvailable < o.stealAvailable;
  }
};

struct PositionKeyHash {
  size_t operator()(const PositionKey& k) const {
    uint64_t h = k.mine * kGoldenGamma ^ (k.theirs + k.stealAvailable) * 0xC2B2AE3D27D4EB4Full;
    return size_t(h ^ h >> 29);
  }
};

// The one definition of canonical position and canonical move, shared by the bot's book, the
// book database and the packer. The canonical position is the smallest of the 12 images;
// `transform` maps the given position onto it, and `toKey` has bit t set for every transform t
// that does (several when the position is symmetric).
struct Canonical {
  PositionKey key;
  int transform = 0;
  uint16_t toKey = 1;

  // The canonical move of m: its smallest image under the transforms onto the key, so that moves
  // equivalent by a symmetry of the position itself get one name.
  Cell toCanonical(Cell m) const {
    Cell best = kCells;
    for (int t = 0; t < kSymmetries; ++t)
      if ((toKey >> t & 1) && symmetries().cell[t][m] < best) best = symmetries().cell[t][m];
    return best;
  }
  // A move of the given position that has canonical name m.
  Cell fromCanonical(Cell m) const { return transformCell(inverseTransform(transform), m); }
};

// The canonical form from the 12 images of `mine` and theirsImage(t), the image of `theirs`
// under t: asked only where `mine`'s image is no larger than the smallest key so far.
template <class TheirsImage>
Canonical canonicalOfImages(const Bitboard (&mineImage)[kSymmetries], TheirsImage theirsImage, bool stealAvailable) {
  Canonical best;
  best.key.mine = ~Bitboard(0);  // above every image
  for (int t = 0; t < kSymmetries; ++t) {
    if (mineImage[t] > best.key.mine) continue;
    const PositionKey k{mineImage[t], theirsImage(t), stealAvailable};
    if (k < best.key) best.key = k, best.transform = t, best.toKey = 0;
    if (k == best.key) best.toKey |= uint16_t(1u << t);
  }
  return best;
}

inline Canonical canonicalize(const PositionKey& p) {
  // Keys order by `mine` first: map it under all 12 transforms (one table lookup per stone each),
  // and map `theirs` only for the transforms that may tie on the smallest `mine`.
  Bitboard mineImage[kSymmetries];
  for (int t = 0; t < kSymmetries; ++t) mineImage[t] = transformBits(t, p.mine);
  return canonicalOfImages(
      mineImage, [&](int t) { return transformBits(t, p.theirs); }, p.stealAvailable);
}

inline Canonical canonicalize(const Board& b) { return canonicalize(PositionKey::of(b)); }

// The legal moves of b, one per symmetry class (the lowest cell of each class), the steal included.
inline std::vector<Cell> moveClasses(const Board& b) {
  const Canonical c = canonicalize(b);
  std::vector<Cell> out;
  Bitboard named = 0;  // canonical names already listed
  for (Bitboard legal = b.legalMoves(); legal;) {
    const Cell m = popLowest(legal), name = c.toCanonical(m);
    if (named >> name & 1) continue;
    named |= bit(name);
    out.push_back(m);
  }
  return out;
}

}  // namespace yav
