// Verification of the book by a deep search: a move the search proves lost is replaced, a move
// rated far below the best is replaced, verdicts are cached in the database (and its file).
#include <sstream>
#include <gtest/gtest.h>

#include "tests/book_stats.h"
#include "tools/book/db_folder.h"
#include "tools/book/engine.h"
#include "tools/book/plan.h"
#include "tools/book/verify.h"

using namespace yav;
using namespace yav::book;

namespace {

// Player 1 to move; player 2 has (0,4) (1,4) _ (3,4): anything but (2,4) loses at once. Player 1's
// stones around the threat keep the block itself safe: with fewer of them, the forcing solver
// proves the position lost whatever player 1 does, and nothing would be replaced.
Board threatened() {
  const Bitboard mine = bit(cellAt(0, 0)) | bit(cellAt(2, 8)) | bit(cellAt(6, 2)) | bit(cellAt(0, 3)) |
                        bit(cellAt(1, 5)) | bit(cellAt(0, 5));
  const Bitboard theirs = bit(cellAt(0, 4)) | bit(cellAt(1, 4)) | bit(cellAt(3, 4)) | bit(cellAt(8, 4)) |
                          bit(cellAt(7, 4)) | bit(cellAt(4, 8));
  return Board::fromStones(mine, theirs, 0);
}

}  // namespace

TEST(BookVerify, AMoveTheDeepSearchProvesLostIsReplacedAndTheVerdictCached) {
  const Board b = threatened();
  ASSERT_EQ(b.winningCells(1), bit(cellAt(2, 4)));
  Database db;
  db.beginRun(RunInfo());
  addStats(db, b, cellAt(4, 0), 100, 90);  // the statistics love a move that ignores the threat
  Choices choices = chooseMoves(db, PackOptions());
  const Canonical c = canonicalize(b);
  ASSERT_EQ(choices.at(c.key).move, c.toCanonical(cellAt(4, 0)));

  DeepLimits limits;
  limits.iterations = 2000;  // fixed iterations: deterministic
  limits.nodes = size_t(1) << 18;
  VerifyOptions opt;
  opt.engineKey = limits.key();
  opt.evaluate = [&](const Board& p) { return deepEvaluate(p, limits); };
  VerifyReport report;
  std::ostringstream log;
  EXPECT_TRUE(verifyChoices(db, choices, {c.key}, opt, report, &log));
  EXPECT_EQ(report.searched, 1u);
  EXPECT_NE(log.str().find("verified 1/1 positions, "), std::string::npos) << log.str();  // done/total, rate, ETA
  EXPECT_NE(log.str().find("ETA 0h 00m"), std::string::npos) << log.str();
  EXPECT_EQ(report.replacedLost, 1u);
  ASSERT_EQ(report.changes.size(), 1u);
  EXPECT_EQ(choices.at(c.key).move, c.toCanonical(cellAt(2, 4)));
  const DeepVerdict* v = db.verdict(limits.key(), c.key);
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->find(c.toCanonical(cellAt(4, 0)))->proof, Proof::Loss);

  // Cached: a second verification searches nothing and changes nothing, also after a file round trip.
  Database reloaded;
  std::string error;
  ASSERT_TRUE(deserializeDatabase(serializeDatabase(db), "verdicts.db", reloaded, error)) << error;
  EXPECT_EQ(serializeDatabase(reloaded), serializeDatabase(db));
  int calls = 0;
  opt.evaluate = [&](const Board& p) { return ++calls, deepEvaluate(p, limits); };
  VerifyReport again;
  EXPECT_FALSE(verifyChoices(reloaded, choices, {c.key}, opt, again));
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(again.searched, 0u);
  // Another engine key (a stronger engine, another budget) verifies again.
  opt.engineKey = "stronger/1000ms";
  EXPECT_FALSE(verifyChoices(reloaded, choices, {c.key}, opt, again));
  EXPECT_EQ(calls, 1);
}

TEST(BookVerify, AMoveFarBelowTheBestIsReplacedUnlessItIsTheFirstMove) {
  Database db;
  Board p;
  p.play(cellAt(0, 0));
  addStats(db, p, cellAt(4, 4), 100, 70);
  addStats(db, Board(), cellAt(2, 2), 100, 70);
  Choices choices = chooseMoves(db, PackOptions());
  const Canonical c = canonicalize(p);
  VerifyOptions opt;  // a stand-in engine: the steal is best (0.7), every other move 0.45
  opt.engineKey = "fake";
  opt.margin = 0.3;
  opt.evaluate = [](const Board& b) {
    DeepVerdict v;
    for (Bitboard legal = b.legalMoves(); legal;) {
      const Cell m = popLowest(legal);
      const bool steal = b.canSteal() && m == b.stealCell();
      v.moves.push_back({m, steal ? 0.7f : 0.45f, Proof::Unknown});
      if (steal || (!b.canSteal() && v.best == kNoCell)) v.best = m;
    }
    return v;
  };
  VerifyReport report;
  EXPECT_FALSE(verifyChoices(db, choices, {c.key}, opt, report));  // 0.45 is within 0.3 of 0.7
  opt.margin = 0.1;
  opt.engineKey = "fake2";
  EXPECT_TRUE(verifyChoices(db, choices, {c.key, PositionKey{}}, opt, report));
  EXPECT_EQ(report.replacedWorse, 1u);
  EXPECT_EQ(choices.at(c.key).move, c.toCanonical(cellAt(0, 0)));  // now the steal
  EXPECT_EQ(choices.at(PositionKey{}).move, canonicalize(Board()).toCanonical(cellAt(2, 2)));  // the swap table's
}
