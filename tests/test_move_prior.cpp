// The move prior (src/move_prior.h): its features under the board's symmetries, its flags, its
// weights' text, its use in the search (SearchOptions::priorVisits), and the trainer's data files
// (tools/train/policy_data.h) and fit (tools/train/prior_fit.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "move_prior.h"
#include "playout.h"
#include "rng.h"
#include "search.h"
#include "symmetry.h"
#include "tools/book/book_writer.h"
#include "tools/train/policy_data.h"
#include "tools/train/prior_file.h"
#include "tools/train/prior_fit.h"

namespace yav {
namespace {

Board randomPosition(Rng& rng, int stones) {
  Bitboard p[2] = {0, 0};
  for (int i = 0; i < stones; ++i) p[i & 1] |= bit(randomCell(kFullBoard & ~(p[0] | p[1]), rng));
  return Board::fromStones(p[0], p[1], stones & 1);
}

std::vector<int> sortedFeatures(const Board& b, Cell c, Cell last) {
  int f[prior::kFeatures];
  const int n = prior::features(b, c, last, f);
  std::vector<int> v(f, f + n);
  std::sort(v.begin(), v.end());
  return v;
}

Cell cellXY(int x, int y) { return cellAt(x, y); }

TEST(MovePrior, FeaturesAreTheSameInEveryImageOfThePosition) {
  Rng rng(7);
  for (int round = 0; round < 60; ++round) {
    const Board b = randomPosition(rng, 2 + int(rng.below(30)));
    const Cell last = lowestCell(b.stones(b.toMove() ^ 1));
    for (int t = 0; t < kSymmetries; ++t) {
      const Board image = Board::fromStones(transformBits(t, b.stones(0)), transformBits(t, b.stones(1)), b.toMove());
      for (Bitboard empty = b.empty(); empty;) {
        const Cell c = popLowest(empty);
        ASSERT_EQ(sortedFeatures(b, c, last), sortedFeatures(image, transformCell(t, c), transformCell(t, last)))
            << "transform " << t << ", cell " << int(c);
      }
    }
  }
}

TEST(MovePrior, OwnAndOpponentStonesAreTold) {
  // The same line seen by either side: the mover's stones and the opponent's give other patterns.
  const Board mine = Board::fromStones(bit(cellXY(3, 4)) | bit(cellXY(4, 4)), bit(cellXY(0, 0)), 0);
  const Board theirs = Board::fromStones(bit(cellXY(3, 4)) | bit(cellXY(4, 4)), bit(cellXY(0, 0)), 1);
  EXPECT_EQ(mine.toMove(), 0);
  EXPECT_EQ(theirs.stones(theirs.toMove()), bit(cellXY(0, 0)));
  EXPECT_NE(sortedFeatures(mine, cellXY(5, 4), kNoCell), sortedFeatures(theirs, cellXY(5, 4), kNoCell));
}

TEST(MovePrior, FlagsADoubleThreatAndItsBlock) {
  // Ours: (2,4) (3,4) on row 4 and (4,2) (4,3) on the column through (4,4). A stone at (4,4)...
  // row 4: 2 3 _ [4]: own stones at -2, -1 with (5,4) empty: three of the window 2..5, one empty.
  const Bitboard own = bit(cellXY(2, 4)) | bit(cellXY(3, 4)) | bit(cellXY(4, 2)) | bit(cellXY(4, 3));
  const Board b =
      Board::fromStones(own, bit(cellXY(0, 0)) | bit(cellXY(8, 4)) | bit(cellXY(0, 8)) | bit(cellXY(1, 0)), 0);
  const std::vector<int> f = sortedFeatures(b, cellXY(4, 4), kNoCell);
  EXPECT_TRUE(std::count(f.begin(), f.end(), prior::doubleThreatIndex())) << "makes two threats of 4";
  EXPECT_FALSE(std::count(f.begin(), f.end(), prior::blocksDoubleThreatIndex()));
  // The opponent to move: the same cell takes our double threat.
  const Board theirs =
      Board::fromStones(own, bit(cellXY(0, 0)) | bit(cellXY(8, 4)) | bit(cellXY(0, 8)) | bit(cellXY(1, 0)), 1);
  const std::vector<int> g = sortedFeatures(theirs, cellXY(4, 4), kNoCell);
  EXPECT_TRUE(std::count(g.begin(), g.end(), prior::blocksDoubleThreatIndex()));
  EXPECT_FALSE(std::count(g.begin(), g.end(), prior::doubleThreatIndex()));
}

TEST(MovePrior, DistanceToTheLastStoneIsAFeature) {
  const Board b = Board::fromStones(bit(cellXY(0, 0)), bit(cellXY(4, 4)), 0);
  auto has = [&](Cell c, int index) {
    const std::vector<int> f = sortedFeatures(b, c, cellXY(4, 4));
    return std::count(f.begin(), f.end(), index) == 1;
  };
  EXPECT_TRUE(has(cellXY(5, 4), prior::distanceIndex(0)));
  EXPECT_TRUE(has(cellXY(6, 4), prior::distanceIndex(1)));
  EXPECT_TRUE(has(cellXY(8, 4), prior::distanceIndex(2)));
  EXPECT_EQ(sortedFeatures(b, cellXY(5, 4), kNoCell), sortedFeatures(b, cellXY(5, 4), kNoCell));
  EXPECT_EQ(prior::hexDistance(cellXY(0, 0), cellXY(8, 4)), 8);
  EXPECT_EQ(prior::hexDistance(cellXY(0, 0), cellXY(4, 8)), 8);
  EXPECT_EQ(prior::hexDistance(cellXY(0, 4), cellXY(8, 4)), 8);
}

TEST(MovePrior, WeightsTextRoundTripsAndDamageIsNamed) {
  std::vector<float> w(size_t(prior::weightCount()));
  Rng rng(3);
  for (float& x : w) x = float(int(rng.below(256)) - 128) * prior::kWeightStep;
  std::string text = book::bookTextOf(train::priorWeightBytes(w)), error;
  std::vector<float> back;
  ASSERT_TRUE(prior::decodeWeights(text, back, error)) << error;
  EXPECT_EQ(back, w);
  std::string damaged = text;
  damaged[3 * 100] = 'x';
  EXPECT_FALSE(prior::decodeWeights(damaged, back, error));
  EXPECT_NE(error.find("character 100"), std::string::npos) << error;
  std::string shorter = book::bookTextOf(train::priorWeightBytes(std::vector<float>(w.begin(), w.end() - 8)));
  EXPECT_FALSE(prior::decodeWeights(shorter, back, error));
  EXPECT_NE(error.find("weights"), std::string::npos) << error;
}

TEST(MovePrior, TheEmbeddedWeightsDecode) {
  std::vector<float> w;
  std::string error;
  ASSERT_TRUE(train::loadPriorWeights("", w, error)) << error;
  EXPECT_EQ(w.size(), size_t(prior::weightCount()));
  EXPECT_GT(std::count_if(w.begin(), w.end(), [](float x) { return x != 0; }), 100);
}

// The search with the prior: a young node's children carry the virtual RAVE visits, valued by the
// prior (the child it likes best most), and nothing of it without weights or with priorVisits 0.
TEST(MovePrior, TheSearchGivesYoungChildrenVirtualVisitsAtThePriorsOdds) {
  std::vector<float> w(size_t(prior::weightCount()), 0.0f);
  const Board b = Board::fromStones(bit(cellXY(4, 4)) | bit(cellXY(2, 2)), bit(cellXY(0, 0)) | bit(cellXY(5, 5)), 0);
  const Cell liked = cellXY(3, 4);
  int f[prior::kFeatures];
  const int n = prior::features(b, liked, cellXY(5, 5), f);
  w[size_t(f[0])] = 3;  // the pattern of the liked cell's first axis
  (void)n;
  SearchOptions o;
  o.priorVisits = 20;
  o.priorVisit = 1;
  o.forcing = o.endgame = false;
  Search search(size_t(1) << 16, o);
  search.usePrior(w);
  SearchLimits limits;
  limits.iterations = 2;
  search.run(b, limits);
  const SearchTree& tree = search.tree();
  const SearchNode& root = tree[tree.root()];
  ASSERT_GT(root.childCount, 10);
  uint32_t bestHalfPoints = 0;
  Cell best = kNoCell;
  for (uint32_t i = root.firstChild; i < root.firstChild + root.childCount; ++i) {
    EXPECT_GE(tree[i].amafVisits, 20u);
    const uint32_t virtualHalfPoints = tree[i].amafHalfPoints;
    if (virtualHalfPoints > bestHalfPoints) bestHalfPoints = virtualHalfPoints, best = tree[i].move;
  }
  int g[prior::kFeatures];
  const int m = prior::features(b, best, kNoCell, g);
  EXPECT_TRUE(std::count(g, g + m, f[0])) << "the child valued most has the liked pattern";

  SearchOptions off = o;
  off.priorVisits = 0;
  for (const SearchOptions& opt : {off, o}) {
    Search plain(size_t(1) << 16, opt);
    if (opt.priorVisits)
      plain.usePrior({});  // no weights: no prior
    else
      plain.usePrior(w);
    plain.run(b, limits);
    const SearchNode& r = plain.tree()[plain.tree().root()];
    uint32_t most = 0;
    for (uint32_t i = r.firstChild; i < r.firstChild + r.childCount; ++i)
      most = std::max(most, plain.tree()[i].amafVisits);
    EXPECT_LT(most, 3u);
  }
}

TEST(PolicyData, RowsRoundTripAndBadLinesAreNamed) {
  train::PolicyRow r{{bit(3) | bit(10), bit(20), false}, 20, {{0, 5}, {7, 100}, {60, 0}}};
  train::PolicyRow back;
  std::string error;
  const std::string line = train::policyLine(r);
  ASSERT_TRUE(train::parsePolicyRow(line.substr(0, line.size() - 1), back, error)) << error;
  EXPECT_EQ(back.key, r.key);
  EXPECT_EQ(back.last, 20);
  EXPECT_EQ(back.visits, r.visits);
  EXPECT_EQ(back.mostVisited(), 7);
  EXPECT_FALSE(train::parsePolicyRow("0000000000000008 0000000000100000 20 3:5 7:1", back, error));  // 3 taken
  EXPECT_NE(error.find("'3:5'"), std::string::npos) << error;
  EXPECT_FALSE(train::parsePolicyRow("0000000000000008 0000000000100000 3 5:5 7:1", back, error));  // last not theirs
  EXPECT_FALSE(train::parsePolicyRow("0000000000000008 0000000000100000 20 5:5", back, error));     // one move
  EXPECT_FALSE(train::parsePolicyRow("8 0000000000100000 20 5:5 6:1", back, error));
}

TEST(PolicyData, AFileIsReadInTheOrderOfItsGames) {
  const std::string path = ::testing::TempDir() + "policy_order.tsv";
  {
    std::ofstream out(path);
    out << "# game 1\n0000000000000008 0000000000000001 0 5:1 6:2\n"
        << "# game 0\n0000000000000004 0000000000000001 0 5:3 6:4\n";
  }
  std::vector<train::PolicyRow> rows;
  std::string error;
  ASSERT_TRUE(train::readPolicyRows(path, rows, error)) << error;
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].key.mine, Bitboard(4));
  EXPECT_EQ(rows[1].key.mine, Bitboard(8));
  std::remove(path.c_str());
}

// The fit learns what the rows teach: rows whose long search always chose the cell beside the
// last stone rank that cell first on held-out positions of the same kind; and it is deterministic.
TEST(PriorFit, LearnsAPreferenceAndIsDeterministic) {
  Rng rng(5);
  std::vector<train::EncodedRow> rows;
  for (int i = 0; i < 300; ++i) {
    const Board b = randomPosition(rng, 6);
    const Cell last = lowestCell(b.stones(b.toMove() ^ 1));
    train::PolicyRow r{PositionKey::of(b), last, {}};
    Cell target = kNoCell;
    for (Bitboard e = b.empty(); e;) {
      const Cell c = popLowest(e);
      if (target == kNoCell && prior::hexDistance(c, last) == 1) target = c;
    }
    if (target == kNoCell) continue;
    for (Bitboard e = b.empty(); e;) {
      const Cell c = popLowest(e);
      r.visits.push_back({c, c == target ? 1000u : 1u});
    }
    rows.push_back(train::encodeRow(r));
  }
  std::atomic<bool> stop{false};
  train::PriorFitOptions opt;
  opt.epochs = 3;
  std::vector<float> w1, s1, w2, s2;
  train::fitPrior(w1, s1, rows, opt, 0, stop, [](int, double) {});
  train::fitPrior(w2, s2, rows, opt, 0, stop, [](int, double) {});
  EXPECT_EQ(w1, w2);
  EXPECT_GT(w1[size_t(prior::distanceIndex(0))], w1[size_t(prior::distanceIndex(2))] + 1);
}

}  // namespace
}  // namespace yav
