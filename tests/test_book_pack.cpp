// The packer's rules on hand-made choices: reachability by the book's own moves and random
// openings' starts, one entry per symmetry class.
#include <gtest/gtest.h>

#include "opening_book.h"
#include "tools/book/database.h"
#include "tools/book/pack.h"

using namespace yav;
using namespace yav::book;

namespace {

Board after(std::initializer_list<Cell> moves) {
  Board b;
  for (Cell c : moves) b.play(c);
  return b;
}

const Cell kCentre = cellAt(4, 4), kCorner = cellAt(0, 0), kEdge = cellAt(2, 0);

// Adds `games` games, `wins` of them won, to `move` (in b's own orientation) of position b.
void addStats(Database& db, const Board& b, Cell move, uint32_t games, uint32_t wins) {
  const Canonical frame = canonicalize(b);
  db.at(frame.key).get(frame.toCanonical(move)).add(0, games, 2 * wins);
}

// The book's choice `move` (b's own orientation) at position b, with a priority.
void choose(Choices& choices, const Board& b, Cell move, uint64_t priority) {
  const Canonical frame = canonicalize(b);
  choices[frame.key] = BookChoice{frame.toCanonical(move), 0.5, false, priority};
}

}  // namespace

// Reached: by the book's own moves from the empty board or a first stone, and the starts of random
// openings (the bot first after one random stone and a reply, second after two random stones),
// which hang under pass nodes. Not reached: a line through a move the book does not play.
TEST(BookPack, OnlyPositionsReachedByTheBooksOwnMovesOrARandomOpening) {
  Choices choices;
  const Board root;
  choose(choices, root, kCentre, 100);
  // After centre + any reply the book has a move: reachable.
  const Board a = after({kCentre, kCorner});
  choose(choices, a, cellAt(3, 3), 50);
  // A first-player position after another first stone: a random opening's start.
  const Board b = after({kCorner, kCentre});
  choose(choices, b, cellAt(3, 3), 50);
  // A second-player position (answer to the corner opening) is reachable: any first move.
  const Board c = after({kCorner});
  choose(choices, c, kCentre, 50);
  // Deeper: after the book's answer and a reply.
  const Board d = after({kCorner, kCentre, cellAt(1, 1)});
  choose(choices, d, cellAt(2, 4), 30);
  // After two random stones and the opponent's reply: a random opening's start, the bot second.
  const Board e = after({kCorner, kEdge, cellAt(1, 1)});
  choose(choices, e, cellAt(2, 4), 30);
  // After a move the book does not play (it plays (3,3) at `a`): never reached.
  const Board g = after({kCentre, kCorner, kEdge, cellAt(1, 1)});
  choose(choices, g, cellAt(2, 4), 30);
  ASSERT_EQ(choices.size(), 7u);
  const PackedBook packed = packBook(choices, 100000);
  EXPECT_EQ(packed.positions, 6u);
  OpeningBook book;
  std::string error;
  ASSERT_TRUE(book.load(packed.text, error)) << error;
  for (const Board& reached : {root, a, b, c, d, e}) EXPECT_TRUE(book.lookup(reached).has_value());
  EXPECT_FALSE(book.lookup(g).has_value());
  // A pass node costs bits only where a position hangs under it: the root alone is one node.
  const PackedBook alone = packBook(Choices{{canonicalize(root).key, choices.at(canonicalize(root).key)}}, 100000);
  EXPECT_EQ(alone.tree.nodes.size(), 1u);
}

TEST(BookPack, OneEntryPerSymmetryClass) {
  Database db;
  // The same position reached in two orientations (mirror images) shares one database entry,
  // and the move played in each orientation is the same canonical move.
  const Board x = after({cellAt(1, 0), kCentre}), y = after({cellAt(3, 0), kCentre});
  int mirror = -1;
  for (int t = 0; t < kSymmetries; ++t)
    if (transformBits(t, x.stones(0)) == y.stones(0) && transformBits(t, x.stones(1)) == y.stones(1)) mirror = t;
  ASSERT_GE(mirror, 0);
  addStats(db, x, cellAt(2, 3), 20, 15);
  addStats(db, y, transformCell(mirror, cellAt(2, 3)), 10, 8);
  ASSERT_EQ(db.positions(), 1u);
  const PositionStats* s = db.find(canonicalize(x).key);
  ASSERT_NE(s, nullptr);
  ASSERT_EQ(s->moves.size(), 1u);
  EXPECT_EQ(s->moves[0].games, 30u);

  Choices choices;
  choose(choices, x, cellAt(2, 3), 20);
  choose(choices, y, transformCell(mirror, cellAt(2, 3)), 10);  // the same entry
  choose(choices, Board(), cellAt(1, 0), 100);
  ASSERT_EQ(choices.size(), 2u);
  const PackedBook packed = packBook(choices, 100000);
  EXPECT_EQ(packed.positions, 2u);
  OpeningBook book;
  std::string error;
  ASSERT_TRUE(book.load(packed.text, error)) << error;
  EXPECT_EQ(book.size(), 2u);
  EXPECT_EQ(book.lookup(x), std::optional<Cell>(cellAt(2, 3)));
  EXPECT_EQ(book.lookup(y), std::optional<Cell>(transformCell(mirror, cellAt(2, 3))));
}
