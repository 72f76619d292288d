// The 12 symmetries of the hexagon: group laws, geometry and rules preserved, canonical forms.
#include <gtest/gtest.h>

#include <set>
#include <utility>
#include <vector>

#include "board.h"
#include "playout.h"
#include "rng.h"
#include "symmetry.h"
#include "tools/proof/position_images.h"

namespace yav {
namespace {

std::vector<Cell> cellMap(int t) {
  std::vector<Cell> map(kCells);
  for (Cell c = 0; c < kCells; ++c) map[c] = transformCell(t, c);
  return map;
}

bool adjacent(Cell p, Cell q) {
  const Geometry& g = geometry();
  const int da = g.a[q] - g.a[p], dy = g.y[q] - g.y[p];
  for (int k = 0; k < kAxes; ++k)
    if ((da == kAxisDa[k] && dy == kAxisDy[k]) || (da == -kAxisDa[k] && dy == -kAxisDy[k])) return true;
  return false;
}

// Every run of 4 consecutive cells on a line (a "4-window"), as bitboards.
std::set<Bitboard> fourWindows() {
  const Geometry& g = geometry();
  std::set<Bitboard> windows;
  for (int k = 0; k < kAxes; ++k)
    for (int l = 0; l < kMaxLine; ++l)
      for (int s = 0; s + 4 <= g.lineLength[k][l]; ++s) windows.insert(g.spread(k, l, 15u << s));
  return windows;
}

// Positions reached by random play that did not end the game (any number of stones up to 30).
std::vector<Board> randomQuietPositions(int count, uint64_t seed) {
  Rng rng(seed);
  std::vector<Board> out;
  while (int(out.size()) < count) {
    Board b;
    const int stones = int(rng.below(30));
    while (b.stoneCount() < stones) {
      const Bitboard quiet = b.empty() & ~b.losingCells(b.toMove()) & ~b.winningCells(b.toMove());
      if (!quiet) break;
      b.play(randomCell(quiet, rng));
    }
    out.push_back(b);
  }
  return out;
}

TEST(Symmetry, TwelveDistinctPermutationsWithIdentityFirst) {
  std::set<std::vector<Cell>> distinct;
  for (int t = 0; t < kSymmetries; ++t) {
    const std::vector<Cell> map = cellMap(t);
    std::set<Cell> image(map.begin(), map.end());
    EXPECT_EQ(image.size(), size_t(kCells)) << "transform " << t;
    EXPECT_EQ(*image.begin(), 0);
    EXPECT_EQ(*image.rbegin(), kCells - 1);
    EXPECT_EQ(transformCell(t, cellAt(4, 4)), cellAt(4, 4)) << "the centre is fixed";
    distinct.insert(map);
  }
  EXPECT_EQ(distinct.size(), size_t(kSymmetries));
  for (Cell c = 0; c < kCells; ++c) EXPECT_EQ(transformCell(0, c), c);
  EXPECT_EQ(transformCell(5, kNoCell), kNoCell);
}

TEST(Symmetry, CompositionAndInverse) {
  for (int s = 0; s < kSymmetries; ++s) {
    for (int t = 0; t < kSymmetries; ++t) {
      const int u = composeTransforms(s, t);
      ASSERT_GE(u, 0);
      ASSERT_LT(u, kSymmetries);
      for (Cell c = 0; c < kCells; ++c) ASSERT_EQ(transformCell(u, c), transformCell(s, transformCell(t, c)));
    }
    const int inv = inverseTransform(s);
    EXPECT_EQ(composeTransforms(inv, s), 0);
    EXPECT_EQ(composeTransforms(s, inv), 0);
    for (Cell c = 0; c < kCells; ++c) EXPECT_EQ(transformCell(inv, transformCell(s, c)), c);
  }
  // Rotation 1 generates the 6 rotations; every reflection has order 2.
  int power = 0;
  for (int k = 1; k <= 6; ++k) {
    power = composeTransforms(1, power);
    EXPECT_EQ(power == 0, k == 6) << "rotation to the power " << k;
  }
  for (int t = 6; t < kSymmetries; ++t) EXPECT_EQ(composeTransforms(t, t), 0) << "reflection " << t;
}

TEST(Symmetry, LinesAndNeighboursMapToLinesAndNeighbours) {
  const Geometry& g = geometry();
  std::set<Bitboard> lines;
  for (int s = 0; s < kAxes * kMaxLine; ++s) lines.insert(g.spreadSlot(s, 511));  // every cell of line slot s
  ASSERT_EQ(lines.size(), size_t(kAxes * kMaxLine));
  for (int t = 0; t < kSymmetries; ++t) {
    for (Bitboard line : lines) EXPECT_TRUE(lines.count(transformBits(t, line))) << "transform " << t;
    for (Cell p = 0; p < kCells; ++p)
      for (Cell q = 0; q < kCells; ++q) ASSERT_EQ(adjacent(p, q), adjacent(transformCell(t, p), transformCell(t, q)));
    // Every 4-window maps onto a 4-window.
    const std::set<Bitboard> windowSet = fourWindows();
    for (Bitboard w : windowSet) EXPECT_TRUE(windowSet.count(transformBits(t, w)));
  }
}

TEST(Symmetry, RulesCommuteWithTransforms) {
  for (const Board& b : randomQuietPositions(300, 5)) {
    for (int t = 0; t < kSymmetries; ++t) {
      const Board image = Board::fromStones(transformBits(t, b.stones(0)), transformBits(t, b.stones(1)), b.toMove());
      for (int p = 0; p < 2; ++p) {
        ASSERT_EQ(image.winningCells(p), transformBits(t, b.winningCells(p)));
        ASSERT_EQ(image.losingCells(p), transformBits(t, b.losingCells(p)));
        ASSERT_EQ(image.checkCells(p), transformBits(t, b.checkCells(p)));
      }
      ASSERT_EQ(image.canSteal(), b.canSteal());
      ASSERT_EQ(image.legalMoves(), transformBits(t, b.legalMoves()));
    }
  }
}

// The canonical key by brute force: the smallest of the 12 images.
PositionKey smallestImage(const PositionKey& p) {
  PositionKey best = p;
  for (int t = 1; t < kSymmetries; ++t)
    if (p.transformed(t) < best) best = p.transformed(t);
  return best;
}

TEST(Symmetry, CanonicalFormIsInvariantAndReachedByItsTransform) {
  for (const Board& b : randomQuietPositions(2000, 9)) {
    const PositionKey key = PositionKey::of(b);
    EXPECT_EQ(key.mine, b.stones(b.toMove()));
    EXPECT_EQ(key.theirs, b.stones(b.toMove() ^ 1));
    EXPECT_EQ(key.stealAvailable, b.canSteal());
    const Canonical c = canonicalize(key);
    ASSERT_EQ(c.key, smallestImage(key));
    ASSERT_EQ(key.transformed(c.transform), c.key);
    for (int t = 0; t < kSymmetries; ++t) {
      const Canonical other = canonicalize(key.transformed(t));
      ASSERT_EQ(other.key, c.key) << "transform " << t;
    }
    // Every legal move maps to a legal move of the canonical position, with the same outcome,
    // and back.
    const int me = b.toMove();
    const Board canonical =
        me == 0 ? Board::fromStones(c.key.mine, c.key.theirs, 0) : Board::fromStones(c.key.theirs, c.key.mine, 1);
    for (Bitboard m = b.legalMoves(); m;) {
      const Cell move = popLowest(m);
      const Cell there = transformCell(c.transform, move);
      ASSERT_TRUE(canonical.isLegal(there));
      ASSERT_EQ(canonical.outcomeOf(there), b.outcomeOf(move));
      ASSERT_EQ(transformCell(inverseTransform(c.transform), there), move);
    }
  }
}

// A child's canonical form from its parent's 12 images is the one canonicalize gives.
TEST(Symmetry, ThePositionAfterAPlacementIsCanonicalizedFromItsParentsImages) {
  for (const Board& b : randomQuietPositions(300, 9)) {
    const PositionKey key{b.stones(b.toMove()), b.stones(b.toMove() ^ 1), false};
    const PositionImages images(key);
    for (Bitboard e = b.empty(); e;) {
      const Cell m = popLowest(e);
      const Canonical direct = canonicalize(PositionKey{key.theirs, key.mine | bit(m), false});
      const Canonical fast = images.afterPlacement(m);
      ASSERT_EQ(fast.key, direct.key) << cellName(m);
      ASSERT_EQ(fast.toKey, direct.toKey) << cellName(m);
    }
  }
}

TEST(Symmetry, NineDistinctFirstMovesAnd328TwoStonePositions) {
  std::set<std::pair<Bitboard, Bitboard>> firstMoves, twoStones;
  for (Cell c = 0; c < kCells; ++c) {
    Board b;
    b.play(c);
    const Canonical k = canonicalize(PositionKey::of(b));
    EXPECT_TRUE(k.key.stealAvailable);
    firstMoves.insert({k.key.mine, k.key.theirs});
    for (Cell d = 0; d < kCells; ++d) {
      if (d == c) continue;
      Board two = b;
      two.play(d);
      const Canonical k2 = canonicalize(PositionKey::of(two));
      EXPECT_FALSE(k2.key.stealAvailable);
      twoStones.insert({k2.key.mine, k2.key.theirs});
    }
  }
  EXPECT_EQ(firstMoves.size(), 9u);
  EXPECT_EQ(twoStones.size(), 328u);
  // The position after a steal (the second player owns the only stone) has 9 classes as well,
  // distinct from the first-move positions because the steal is no longer available.
  std::set<PositionKey> afterSteal;
  for (Cell c = 0; c < kCells; ++c) {
    Board b;
    b.play(c);
    b.play(c);
    afterSteal.insert(canonicalize(PositionKey::of(b)).key);
  }
  EXPECT_EQ(afterSteal.size(), 9u);
}

TEST(Symmetry, MoveClassesNameEveryLegalMoveOnce) {
  // The empty board has 9 classes of first moves; the position after a first move has one class
  // per orbit of its own symmetries, the steal included.
  EXPECT_EQ(moveClasses(Board()).size(), 9u);
  Rng rng(5);
  for (int game = 0; game < 50; ++game) {
    Board b;
    for (int ply = 0; ply < int(rng.below(8)); ++ply)
      if (b.play(randomCell(b.legalMoves() & ~b.losingCells(b.toMove()), rng)) != Outcome::None) break;
    if (b.legalMoves() == 0) continue;
    const Canonical c = canonicalize(b);
    const std::vector<Cell> classes = moveClasses(b);
    Bitboard names = 0;
    for (Cell m : classes) {
      ASSERT_TRUE(b.isLegal(m));
      EXPECT_FALSE(names >> c.toCanonical(m) & 1) << "two classes with one name";
      names |= bit(c.toCanonical(m));
      EXPECT_EQ(c.toCanonical(c.fromCanonical(c.toCanonical(m))), c.toCanonical(m));
    }
    for (Bitboard legal = b.legalMoves(); legal;) EXPECT_TRUE(names >> c.toCanonical(popLowest(legal)) & 1);
  }
}

}  // namespace
}  // namespace yav
