// Book moves are found in every orientation of a position and mapped back into it.
#include <gtest/gtest.h>

#include "opening_book.h"
#include "tools/book/pack.h"

using namespace yav;
using namespace yav::book;

static Board transformedBoard(const Board& b, int t) {
  return Board::fromStones(transformBits(t, b.stones(0)), transformBits(t, b.stones(1)), b.toMove());
}

// A book with one entry for each given position (actual orientation), reached from the root.
static OpeningBook bookOf(const std::vector<std::pair<Board, Cell>>& entries) {
  Choices choices;
  for (const auto& [b, move] : entries) {
    const Canonical f = canonicalize(b);
    choices[f.key] = BookChoice{f.toCanonical(move), 1.0, true, 1};
  }
  OpeningBook book;
  std::string error;
  EXPECT_TRUE(book.load(packBook(choices, 100000).text, error)) << error;
  return book;
}

TEST(BookSymmetry, FirstPlayerMoveInEveryOrientation) {
  // First move (1,0); after the reply (4,4) the book plays (2,3): a position without symmetry.
  Board afterReply;
  afterReply.play(cellAt(1, 0));
  afterReply.play(cellAt(4, 4));
  const OpeningBook book = bookOf({{Board(), cellAt(1, 0)}, {afterReply, cellAt(2, 3)}});
  ASSERT_EQ(book.size(), 2u);
  for (int t = 0; t < kSymmetries; ++t) {
    const Board b = transformedBoard(afterReply, t);
    const auto move = book.lookup(b);
    ASSERT_TRUE(move.has_value()) << "transform " << t;
    EXPECT_EQ(*move, transformCell(t, cellAt(2, 3))) << "transform " << t;
  }
  // The empty board is symmetric: any image of (1,0) is the same move.
  const auto first = book.lookup(Board());
  ASSERT_TRUE(first.has_value());
  bool isImage = false;
  for (int t = 0; t < kSymmetries; ++t) isImage |= *first == transformCell(t, cellAt(1, 0));
  EXPECT_TRUE(isImage);
}

TEST(BookSymmetry, StealDecisionInEveryOrientation) {
  // The second player's book: steal (2,1), answer (0,3) with (4,4).
  Board stealable, other;
  stealable.play(cellAt(2, 1));
  other.play(cellAt(0, 3));
  const OpeningBook book = bookOf({{stealable, cellAt(2, 1)}, {other, cellAt(4, 4)}});
  ASSERT_EQ(book.size(), 2u);
  for (int t = 0; t < kSymmetries; ++t) {
    const Board s = transformedBoard(stealable, t);
    ASSERT_TRUE(s.canSteal());
    ASSERT_EQ(book.lookup(s), std::optional<Cell>(s.stealCell())) << "transform " << t;
    const Board o = transformedBoard(other, t);
    EXPECT_EQ(book.lookup(o), std::optional<Cell>(cellAt(4, 4))) << "transform " << t;
  }
  // Positions outside the book have no move; the first player's root is not in this book.
  EXPECT_FALSE(book.lookup(Board()).has_value());
  Board elsewhere;
  elsewhere.play(cellAt(4, 4));
  EXPECT_FALSE(book.lookup(elsewhere).has_value());
}

TEST(BookSymmetry, BookPositionAfterASteal) {
  // First player opens (1,1); after the steal it is to move again with one opposing stone.
  Board afterSteal;
  afterSteal.play(cellAt(1, 1));
  afterSteal.play(cellAt(1, 1));
  ASSERT_EQ(afterSteal.toMove(), 0);
  const OpeningBook book = bookOf({{Board(), cellAt(1, 1)}, {afterSteal, cellAt(3, 5)}});
  ASSERT_EQ(book.size(), 2u);
  for (int t = 0; t < kSymmetries; ++t) {
    const Board b = transformedBoard(afterSteal, t);
    const auto move = book.lookup(b);
    ASSERT_TRUE(move.has_value());
    // (1,1) lies on a mirror axis; the answer is exact up to that mirror.
    const Canonical f = canonicalize(b);
    EXPECT_EQ(f.toCanonical(*move), f.toCanonical(transformCell(t, cellAt(3, 5))));
  }
}
