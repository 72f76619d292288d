// The packer's rules on a hand-made database: lower confidence bounds, minimum games, proven
// wins and losses, reachability by the book's own moves, one entry per symmetry class.
#include <gtest/gtest.h>

#include <cmath>

#include "opening_book.h"
#include "tests/book_stats.h"
#include "tools/book/pack.h"
#include "tools/book/plan.h"
#include "tools/book/swap.h"

using namespace yav;
using namespace yav::book;

namespace {

Board after(std::initializer_list<Cell> moves) {
  Board b;
  for (Cell c : moves) b.play(c);
  return b;
}

const Cell kCentre = cellAt(4, 4), kCorner = cellAt(0, 0), kEdge = cellAt(2, 0);

}  // namespace

TEST(BookPack, LowerBounds) {
  PackOptions linear;
  MoveStats m{0, Proof::Unknown, 100, 140, {}};  // 70 % of 100 games
  EXPECT_NEAR(lowerBound(m, linear), 0.7 - 2.0 / 10, 1e-12);
  PackOptions wilson;
  wilson.wilson = true;
  wilson.margin = 1.96;
  EXPECT_NEAR(lowerBound(m, wilson), 0.6041, 1e-3);  // the textbook 95 % Wilson interval of 70/100
  MoveStats draws{0, Proof::Unknown, 10, 10, {}};    // ten draws: win rate one half
  EXPECT_DOUBLE_EQ(draws.winRate(), 0.5);
}

TEST(BookPack, ChoosesBestBoundAboveThresholdWithEnoughGames) {
  Database db;
  const Board root;
  addStats(db, root, kCentre, 100, 70);  // bound 0.5
  addStats(db, root, kCorner, 9, 9);     // perfect but too few games
  addStats(db, root, kEdge, 400, 250);   // 0.625 - 0.1 = 0.525: best bound
  PackOptions opt;
  Choices c = chooseMoves(db, opt);
  ASSERT_EQ(c.count(PositionKey{}), 1u);
  EXPECT_EQ(c[PositionKey{}].move, canonicalize(root).toCanonical(kEdge));

  opt.threshold = 0.6;  // nothing clears it
  EXPECT_EQ(chooseMoves(db, opt).count(PositionKey{}), 0u);
  opt.threshold = 0.2;
  opt.minGames = 5;  // now the perfect 9-game move counts: 1 - 2/3 = 0.33 < 0.525
  EXPECT_EQ(chooseMoves(db, opt)[PositionKey{}].move, canonicalize(root).toCanonical(kEdge));
  opt.margin = 0.1;  // barely any margin: the perfect record wins
  EXPECT_EQ(chooseMoves(db, opt)[PositionKey{}].move, canonicalize(root).toCanonical(kCorner));
}

TEST(BookPack, ProvenWinsAlwaysProvenLossesNever) {
  Database db;
  const Board p = after({kCentre});
  addStats(db, p, kCentre, 500, 450, Proof::Loss);  // the steal looks great but is proven lost
  addStats(db, p, kCorner, 100, 60);
  PackOptions opt;
  Choices c = chooseMoves(db, opt);
  const Canonical f = canonicalize(p);
  ASSERT_EQ(c.count(f.key), 1u);
  EXPECT_EQ(c[f.key].move, f.toCanonical(kCorner));

  addStats(db, p, kEdge, 1, 0, Proof::Win);  // one lost game, but proven won
  c = chooseMoves(db, opt);
  EXPECT_EQ(c[f.key].move, f.toCanonical(kEdge));
  EXPECT_TRUE(c[f.key].proven);
}

// Reached: by the book's own moves from the empty board or a first stone, and the starts of random
// openings (the bot first after one random stone and a reply, second after two random stones),
// which hang under pass nodes. Not reached: a line through a move the book does not play.
TEST(BookPack, OnlyPositionsReachedByTheBooksOwnMovesOrARandomOpening) {
  Database db;
  const Board root;
  addStats(db, root, kCentre, 100, 80);
  // After centre + any reply the book has a move: reachable.
  const Board a = after({kCentre, kCorner});
  addStats(db, a, cellAt(3, 3), 50, 40);
  // A first-player position after another first stone: a random opening's start.
  const Board b = after({kCorner, kCentre});
  addStats(db, b, cellAt(3, 3), 50, 40);
  // A second-player position (answer to the corner opening) is reachable: any first move.
  const Board c = after({kCorner});
  addStats(db, c, kCentre, 50, 40);
  // Deeper: after the book's answer and a reply.
  const Board d = after({kCorner, kCentre, cellAt(1, 1)});
  addStats(db, d, cellAt(2, 4), 30, 25);
  // After two random stones and the opponent's reply: a random opening's start, the bot second.
  const Board e = after({kCorner, kEdge, cellAt(1, 1)});
  addStats(db, e, cellAt(2, 4), 30, 25);
  // After a move the book does not play (it plays (3,3) at `a`): never reached.
  const Board g = after({kCentre, kCorner, kEdge, cellAt(1, 1)});
  addStats(db, g, cellAt(2, 4), 30, 25);

  const PackOptions opt;
  const Choices choices = chooseMoves(db, opt);
  EXPECT_EQ(choices.size(), 7u);
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

  addStats(db, Board(), cellAt(1, 0), 100, 70);
  const PackedBook packed = packBook(chooseMoves(db, PackOptions()), 100000);
  EXPECT_EQ(packed.positions, 2u);
  OpeningBook book;
  std::string error;
  ASSERT_TRUE(book.load(packed.text, error)) << error;
  EXPECT_EQ(book.size(), 2u);
  EXPECT_EQ(book.lookup(x), std::optional<Cell>(cellAt(2, 3)));
  EXPECT_EQ(book.lookup(y), std::optional<Cell>(transformCell(mirror, cellAt(2, 3))));
}

// The first move by minimax over evidence: the centre looks best by its own record but is stolen
// with success; the corner holds up after the opponent's best answer; the edge has no evidence
// about its steal and is not rated, however good its replies look.
TEST(BookPack, SwapTablePicksTheFirstMoveThatSurvivesTheBestAnswer) {
  Database db;
  addStats(db, Board(), kCentre, 1000, 700);
  addStats(db, Board(), kCorner, 200, 110);
  const Board centre = after({kCentre}), corner = after({kCorner}), edge = after({kEdge});
  addStats(db, centre, kCentre, 200, 160);      // the steal: 80 % for the second player
  addStats(db, centre, cellAt(3, 3), 300, 90);  // a weak reply
  addStats(db, corner, kCorner, 100, 30);       // the steal: bound 0.3 - 0.2 = 0.1
  addStats(db, corner, kCentre, 100, 40);       // the best answer: bound 0.4 - 0.2 = 0.2
  addStats(db, edge, kCentre, 400, 100);        // 25 % for the second player, but the steal is unknown

  const PackOptions opt;
  EXPECT_EQ(chooseMoves(db, opt)[PositionKey{}].move, kCentre);  // the root record alone says centre
  const SwapTable table = swapTable(db, opt);
  ASSERT_EQ(table.rows.size(), 9u);
  ASSERT_GE(table.pick, 0);
  const SwapRow& pick = table.rows[size_t(table.pick)];
  EXPECT_EQ(pick.first, kCorner);
  EXPECT_EQ(pick.answer, kCentre);
  EXPECT_EQ(pick.value.games, 100u);
  EXPECT_NEAR(pick.bound, 0.6 - 0.2, 1e-9);
  for (const SwapRow& r : table.rows) {
    if (r.first == kCentre) {
      EXPECT_TRUE(r.rated);
      EXPECT_EQ(r.answer, kCentre);  // the steal
      EXPECT_NEAR(r.bound, 0.2 - 2 / std::sqrt(200.0), 1e-9);
    } else if (r.first == kEdge) {
      EXPECT_FALSE(r.rated);
    }
  }
  const BookPlan plan = planBook(db, opt);
  EXPECT_EQ(plan.choices.at(PositionKey{}).move, kCorner);

  // A proven winning answer makes the class lost, whatever the statistics.
  addStats(db, corner, cellAt(1, 1), 1, 0, Proof::Win);
  const SwapTable proven = swapTable(db, opt);
  EXPECT_NE(proven.pick >= 0 ? proven.rows[size_t(proven.pick)].first : kNoCell, kCorner);
}
