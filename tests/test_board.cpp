// The board against the specification (every example of docs/codingame-rules.md) and against the slow
// reference referee over many random games, plus the bit helpers and playout policies.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <initializer_list>
#include <utility>
#include <vector>

#include "board.h"
#include "playout.h"
#include "reference_rules.h"
#include "rule_moves.h"
#include "rng.h"
#include "tests/test_util.h"

namespace yav {
namespace {

using reference::ReferenceBoard;
using reference::RefOutcome;
using XY = std::pair<int, int>;

Bitboard toBits(const std::vector<int>& cells) {
  Bitboard b = 0;
  for (int c : cells) b |= bit(c);
  return b;
}
Outcome fromReference(RefOutcome o) {
  switch (o) {
    case RefOutcome::Win:
      return Outcome::Win;
    case RefOutcome::Loss:
      return Outcome::Loss;
    case RefOutcome::Draw:
      return Outcome::Draw;
    default:
      return Outcome::None;
  }
}
uint64_t hashFromScratch(Bitboard p0, Bitboard p1, int toMove) {
  uint64_t h = toMove ? zobrist().sideToMove : 0;
  for (Bitboard b = p0; b;) h ^= zobrist().stone[0][popLowest(b)];
  for (Bitboard b = p1; b;) h ^= zobrist().stone[1][popLowest(b)];
  return h;
}

TEST(Geometry, CellsAndCoordinatesRoundTrip) {
  const Geometry& g = geometry();
  const int lengths[kRows] = {5, 6, 7, 8, 9, 8, 7, 6, 5};
  Cell expected = 0;
  for (int y = 0; y < kRows; ++y) {
    EXPECT_EQ(rowLength(y), lengths[y]);
    for (int x = 0; x < lengths[y]; ++x, ++expected) {
      EXPECT_EQ(cellAt(x, y), expected);
      EXPECT_EQ(g.x[expected], x);
      EXPECT_EQ(g.y[expected], y);
      EXPECT_EQ(cellName(expected), std::to_string(x) + " " + std::to_string(y));
    }
    EXPECT_FALSE(onBoardXY(lengths[y], y));
  }
  EXPECT_EQ(expected, kCells);
  EXPECT_EQ(cellName(kNoCell), "none");
  for (Cell c = 0; c < kCells; ++c) EXPECT_EQ(parseCell(cellName(c)), c);
  for (const char* bad : {"", "4", "4 ", " 4 4", "4  4", "4 4 ", "5 0", "0 9", "-1 -1", "a b", "4,4", "004 4"})
    EXPECT_EQ(parseCell(bad), kNoCell) << "'" << bad << "'";
  EXPECT_EQ(popcount(kFullBoard), kCells);
}

TEST(Geometry, EveryCellLiesOnOneLinePerAxis) {
  const Geometry& g = geometry();
  for (int k = 0; k < kAxes; ++k) {
    Bitboard seen = 0;
    for (int l = 0; l < kMaxLine; ++l) {
      EXPECT_GE(g.lineLength[k][l], 5);
      EXPECT_LE(g.lineLength[k][l], 9);
      Bitboard line = 0;  // from the line's cells, independently of the spread tables checked below
      for (int p = 0; p < g.lineLength[k][l]; ++p) line |= bit(g.lineCell[k][l][p]);
      EXPECT_EQ(popcount(line), g.lineLength[k][l]);
      EXPECT_EQ(seen & line, 0u);
      seen |= line;
      EXPECT_EQ(g.spread(k, l, 511), line);
    }
    EXPECT_EQ(seen, kFullBoard);
  }
}

// The examples of the diagram at the head of bitboard.h: each axis's next cell after 0 and 30.
TEST(Geometry, AxesAreTheOnesTheDiagramShows) {
  const Geometry& g = geometry();
  const auto next = [&g](int axis, Cell c) { return g.lineCell[axis][g.lineOf[axis][c]][g.posOf[axis][c] + 1]; };
  const Cell after0[kAxes] = {1, 5, 6}, after30[kAxes] = {31, 38, 39};
  for (int k = 0; k < kAxes; ++k) {
    EXPECT_EQ(next(k, 0), after0[k]) << "axis " << k;
    EXPECT_EQ(next(k, 30), after30[k]) << "axis " << k;
  }
  EXPECT_EQ(cellAt(4, 4), 30);
  EXPECT_EQ(cellAt(4, 8), 60);
}

TEST(BitHelpers, PopcountAndNthCellMatchNaiveVersions) {
  Rng rng(7);
  for (int i = 0; i < 20000; ++i) {
    Bitboard b = rng.next() & kFullBoard;
    if (i % 3 == 1) b &= rng.next();  // sparser sets
    if (i % 3 == 2) b &= rng.next() & rng.next();
    std::vector<Cell> cells;
    for (Cell c = 0; c < kCells; ++c)
      if (b >> c & 1) cells.push_back(c);
    ASSERT_EQ(popcount(b), int(cells.size()));
    for (size_t n = 0; n < cells.size(); ++n) ASSERT_EQ(nthCell(b, int(n)), cells[n]) << std::hex << b << " n=" << n;
    if (b) {
      const Cell c = randomCell(b, rng);
      ASSERT_TRUE(b >> c & 1);
    }
    EXPECT_EQ(severalCells(b), cells.size() >= 2);
  }
}

TEST(BitHelpers, RandomCellIsUniform) {
  Rng rng(11);
  // A sparse set (exercises the exact fallback) and a dense one (the rejection path).
  for (Bitboard set : {cellsAt({{0, 0}, {4, 4}, {4, 8}}), kFullBoard & ~cellsAt({{1, 1}, {2, 2}})}) {
    std::array<int, kCells> hits{};
    const int draws = 200000, n = popcount(set);
    for (int i = 0; i < draws; ++i) ++hits[randomCell(set, rng)];
    for (Cell c = 0; c < kCells; ++c) {
      if (!(set >> c & 1)) {
        EXPECT_EQ(hits[c], 0);
        continue;
      }
      const double expected = double(draws) / n;
      EXPECT_NEAR(hits[c], expected, 6 * std::sqrt(expected)) << "cell " << cellName(c);
    }
  }
}

// The six lines of the statement: each move completes a line of 4 or 5 and wins.
TEST(Rules, StatementExamplesWin) {
  struct Example {
    XY move;
    std::vector<XY> line;  // the other stones of the line
  };
  const std::vector<Example> examples = {
      {{2, 2}, {{0, 0}, {1, 1}, {3, 3}}},
      {{4, 2}, {{4, 3}, {4, 1}, {4, 0}}},
      {{5, 3}, {{3, 3}, {4, 3}, {6, 3}, {7, 3}}},
      {{5, 4}, {{3, 2}, {4, 3}, {5, 5}}},
      {{4, 4}, {{4, 3}, {3, 5}, {2, 6}}},
      {{2, 3}, {{4, 3}, {3, 3}, {1, 3}, {2, 4}, {1, 5}}},  // 4-line and 3-line at once: a win
  };
  for (const Example& e : examples) {
    Bitboard own = 0;
    for (const XY& c : e.line) own |= cellsAt({c});
    // Opponent stones far away, so that both sides have played the same number of stones.
    Bitboard other = 0;
    const Bitboard far = kFullBoard & ~own & ~cellsAt({e.move});
    for (int i = 0; i < popcount(own); ++i) other |= bit(nthCell(far & ~other, 3 * i % popcount(far & ~other)));
    other &= ~(bit(cellAt(e.move.first, e.move.second)));
    Board b = Board::fromStones(own, other, 0);
    const Cell move = cellAt(e.move.first, e.move.second);
    EXPECT_TRUE(b.winningCells(0) >> move & 1) << cellName(move);
    EXPECT_FALSE(b.losingCells(0) >> move & 1) << cellName(move);
    EXPECT_EQ(b.outcomeOf(move), Outcome::Win) << cellName(move);
    EXPECT_EQ(b.play(move), Outcome::Win) << cellName(move);
  }
}

TEST(Rules, ExactlyThreeLosesAndFourPlusThreeWins) {
  // (0,0) (1,1) + (2,2): exactly 3 on a diagonal loses.
  Board b = Board::fromStones(cellsAt({{0, 0}, {1, 1}}), cellsAt({{8, 4}, {4, 8}}), 0);
  EXPECT_EQ(b.outcomeOf(cellAt(2, 2)), Outcome::Loss);
  EXPECT_TRUE(b.losingCells(0) >> cellAt(2, 2) & 1);
  EXPECT_EQ(Board(b).play(cellAt(2, 2)), Outcome::Loss);
  // Two 3s at once still lose: (2,2) between (0,0)(1,1) and (2,0)(2,1).
  b = Board::fromStones(cellsAt({{0, 0}, {1, 1}, {2, 0}, {2, 1}}), cellsAt({{8, 4}, {4, 8}, {0, 8}, {7, 5}}), 0);
  EXPECT_EQ(b.outcomeOf(cellAt(2, 2)), Outcome::Loss);
  // Gap filling: (0,4) (1,4) _ (3,4) makes 4 -> win; _ (1,4) (2,4) with (4,4) -> exactly 3 -> loss.
  b = Board::fromStones(cellsAt({{0, 4}, {1, 4}, {3, 4}}), cellsAt({{8, 4}, {4, 8}, {0, 8}}), 0);
  EXPECT_EQ(b.outcomeOf(cellAt(2, 4)), Outcome::Win);
  b = Board::fromStones(cellsAt({{1, 4}, {2, 4}, {4, 4}}), cellsAt({{8, 4}, {4, 8}, {0, 8}}), 0);
  EXPECT_EQ(b.outcomeOf(cellAt(0, 4)), Outcome::Loss);
  EXPECT_EQ(b.outcomeOf(cellAt(3, 4)), Outcome::Win);  // 1..4 = four in a row
  // A 4+3 cell is winning, not losing, in the bulk queries.
  b = Board::fromStones(cellsAt({{4, 3}, {3, 3}, {1, 3}, {2, 4}, {1, 5}}),
                        cellsAt({{8, 4}, {4, 8}, {0, 8}, {7, 5}, {6, 6}}), 0);
  EXPECT_TRUE(b.winningCells(0) >> cellAt(2, 3) & 1);
  EXPECT_FALSE(b.losingCells(0) >> cellAt(2, 3) & 1);
  // Opponent stones break lines: (0,4)(1,4) X (3,4)(4,4)(5,4).
  b = Board::fromStones(cellsAt({{0, 4}, {1, 4}, {3, 4}, {4, 4}}), cellsAt({{2, 4}, {4, 8}, {0, 8}, {7, 5}}), 0);
  EXPECT_EQ(b.outcomeOf(cellAt(5, 4)), Outcome::Loss);
}

// A full board without any same-colour line of 3: colour (a + y) mod 4 < 2 changes every two
// steps along each axis (runs of at most 2). The last placement then draws.
TEST(Rules, FullBoardDraws) {
  const Geometry& g = geometry();
  Bitboard p0 = 0;
  for (Cell c = 0; c < kCells; ++c)
    if ((g.a[c] + g.y[c]) % 4 < 2) p0 |= bit(c);
  const Bitboard p1 = kFullBoard & ~p0;
  ASSERT_EQ(popcount(p0), 31);  // the first player places the 61st stone
  ReferenceBoard check;
  for (Cell last = 0; last < kCells; ++last) {
    if (!(p0 >> last & 1)) continue;
    Board b = Board::fromStones(p0 & ~bit(last), p1, 0);
    EXPECT_EQ(b.empty(), bit(last));
    EXPECT_EQ(b.winningCells(0) | b.losingCells(0), 0u);
    EXPECT_EQ(b.outcomeOf(last), Outcome::Draw);
    EXPECT_EQ(b.play(last), Outcome::Draw);
    EXPECT_EQ(b.empty(), 0u);
  }
  // On a full board, a 3 made by the last stone is still a loss, not a draw.
  const Cell a = cellAt(0, 0), b2 = cellAt(1, 0), c = cellAt(2, 0);  // colours along row 0: 0 0 1 1 0
  ASSERT_TRUE((p0 >> a & 1) && (p0 >> b2 & 1) && !(p0 >> c & 1));
  const Cell swapWith = cellAt(1, 1);  // give p1's (2,0) to p0 and p0's stone elsewhere to p1
  Bitboard q0 = (p0 | bit(c)) & ~bit(swapWith), q1 = (p1 & ~bit(c)) | bit(swapWith);
  ASSERT_EQ(q0 & q1, 0u);
  Board full = Board::fromStones(q0 & ~bit(c), q1, 0);
  EXPECT_EQ(full.play(c), Outcome::Loss);
}

TEST(Rules, StealSwapsOwnerAndGivesTheMoveBack) {
  Board b;
  EXPECT_FALSE(b.canSteal());
  const Cell centre = cellAt(4, 4);
  EXPECT_EQ(b.play(centre), Outcome::None);
  EXPECT_TRUE(b.canSteal());
  EXPECT_EQ(b.stealCell(), centre);
  EXPECT_EQ(b.legalMoves(), kFullBoard);  // every empty cell plus the stone
  EXPECT_TRUE(b.isLegal(centre));
  EXPECT_EQ(b.outcomeOf(centre), Outcome::None);
  EXPECT_EQ(b.play(centre), Outcome::None);
  EXPECT_EQ(b.stones(0), 0u);
  EXPECT_EQ(b.stones(1), bit(centre));
  EXPECT_EQ(b.toMove(), 0);
  EXPECT_FALSE(b.canSteal());
  EXPECT_FALSE(b.isLegal(centre));
  EXPECT_EQ(b.hash(), hashFromScratch(0, bit(centre), 0));
  EXPECT_EQ(b, Board::fromStones(0, bit(centre), 0));
  // The stolen stone counts for its new owner's lines.
  b.play(cellAt(0, 0));
  b.play(cellAt(3, 4));
  b.play(cellAt(0, 1));
  EXPECT_EQ(b.outcomeOf(cellAt(5, 4)), Outcome::Loss);  // (3,4)(4,4)(5,4) for the second player
  EXPECT_FALSE(b.canSteal());
  // No steal once the second player has placed a stone instead.
  Board c;
  c.play(centre);
  c.play(cellAt(0, 0));
  EXPECT_FALSE(c.canSteal());
  EXPECT_FALSE(c.isLegal(centre));
}

TEST(Rules, HashTracksStonesAndSideToMove) {
  Board a;
  a.play(cellAt(1, 1));
  a.play(cellAt(2, 2));
  Board b;
  b.play(cellAt(1, 1));
  EXPECT_NE(a.hash(), b.hash());
  EXPECT_NE(Board::fromStones(bit(3), bit(9), 0).hash(), Board::fromStones(bit(3), bit(9), 1).hash());
  EXPECT_NE(Board::fromStones(bit(3), bit(9), 0).hash(), Board::fromStones(bit(9), bit(3), 0).hash());
  EXPECT_EQ(Board().hash(), 0u);
}

// Every ply of many random games: outcome of every legal move, the bulk queries for both
// players, legality, steal state and hash, compared with the reference referee; and the board's
// incremental state equals a rebuild from its stones.
void compareEverything(const Board& b, const ReferenceBoard& r, int game, int ply) {
  const auto where = [&] { return testing::Message() << "game " << game << " ply " << ply << ": "; };
  ASSERT_EQ(b.toMove(), r.toMove()) << where();
  ASSERT_EQ(b.stones(0), toBits(r.stonesOf(0))) << where();
  ASSERT_EQ(b.stones(1), toBits(r.stonesOf(1))) << where();
  ASSERT_EQ(b.stoneCount(), r.stoneCount()) << where();
  ASSERT_EQ(b.canSteal(), r.canSteal()) << where();
  ASSERT_EQ(b.legalMoves(), toBits(r.legalMoves())) << where();
  for (int p = 0; p < 2; ++p) {
    const ReferenceBoard::Analysis expected = r.analyse(p);
    ASSERT_EQ(b.winningCells(p), toBits(expected.winning)) << where() << "winning cells of player " << p;
    ASSERT_EQ(b.losingCells(p), toBits(expected.losing)) << where() << "losing cells of player " << p;
    ASSERT_EQ(b.checkCells(p), toBits(expected.check)) << where() << "check cells of player " << p;
    if (p != b.toMove()) continue;
    for (Bitboard m = b.legalMoves(); m;) {
      const Cell c = popLowest(m);
      const Outcome o = r.at(c) == ReferenceBoard::kEmpty ? fromReference(expected.outcome[c]) : Outcome::None;
      ASSERT_EQ(b.outcomeOf(c), o) << where() << "move " << cellName(c);  // a steal decides nothing
    }
  }
  ASSERT_EQ(b.hash(), hashFromScratch(b.stones(0), b.stones(1), b.toMove())) << where();
  ASSERT_EQ(b.hash(), Board::fromStones(b.stones(0), b.stones(1), b.toMove()).hash()) << where();
  ASSERT_TRUE(b.isConsistent()) << where();
}

// Every occupancy of every line of the board on each axis (each of its cells empty or either
// player's, the rest of the board empty: 117,369 positions): the winning, losing and check cells of
// both players on the line, and the outcome of each move, against the reference. The board's
// rules are per-line tables, so this covers them all; the random games below check the rest.
TEST(Differential, EveryLinePatternMatchesTheReference) {
  const ReferenceBoard geometryOf;
  int positions = 0;
  for (int axis = 0; axis < 3; ++axis) {
    const int da = reference::kAxisSteps[axis][0], dy = reference::kAxisSteps[axis][1];
    for (int start = 0; start < 61; ++start) {
      const int a0 = geometryOf.axialA(start), y0 = geometryOf.axialY(start);
      if (reference::onBoard(a0 - da, y0 - dy)) continue;  // not the first cell of its line
      std::vector<int> line;
      for (int a = a0, y = y0; reference::onBoard(a, y); a += da, y += dy) line.push_back(reference::indexOf(a, y));
      int states = 1;
      for (size_t i = 0; i < line.size(); ++i) states *= 3;
      for (int state = 0; state < states; ++state, ++positions) {
        ReferenceBoard r;
        Bitboard stones[2] = {0, 0};
        for (int i = 0, rest = state; i < int(line.size()); ++i, rest /= 3)
          if (rest % 3) r.place(line[i], rest % 3 - 1), stones[rest % 3 - 1] |= bit(Cell(line[i]));
        const Board b = Board::fromStones(stones[0], stones[1], 0);
        for (int p = 0; p < 2; ++p)
          for (const int c : line) {
            if (r.at(c) != ReferenceBoard::kEmpty) continue;
            const RefOutcome o = r.outcomeOfPlacing(p, c);
            const auto where = [&] {
              return testing::Message() << "axis " << axis << " line from " << cellName(line[0]) << " state " << state
                                        << ", player " << p << ", cell " << cellName(c);
            };
            ASSERT_EQ(b.winningCells(p) >> c & 1, o == RefOutcome::Win) << where();
            ASSERT_EQ(b.losingCells(p) >> c & 1, o == RefOutcome::Loss) << where();
            ASSERT_EQ(b.checkCells(p) >> c & 1, o == RefOutcome::None && r.makesCheck(p, c)) << where();
            if (p == 0) {
              ASSERT_EQ(b.outcomeOf(c), fromReference(o)) << where();
            }
          }
      }
    }
  }
  EXPECT_EQ(positions, 3 * (2 * (243 + 729 + 2187 + 6561) + 19683));
}

// About 1,000 random games: the incremental state (check sets, hash), the steal and the
// outcome of every move against the reference, ply by ply.
TEST(Differential, RandomGamesMatchTheReference) {
  const int games = 1000;
  int decided = 0, draws = 0, steals = 0;
  for (int game = 0; game < games; ++game) {
    Rng rng(1000 + game);
    Board b;
    ReferenceBoard r;
    // Most games stop at the first decision (positions of real games); every fifth game fills the
    // whole board whatever happens, so that crowded boards and the final placement are covered too.
    const bool fillBoard = game % 5 == 4;
    CheckSets kept[2] = {b.checkSets(0), b.checkSets(1)};  // updated move by move, as the forcing solver does
    for (int ply = 0;; ++ply) {
      compareEverything(b, r, game, ply);
      if (testing::Test::HasFatalFailure()) return;
      for (int p = 0; p < 2; ++p)
        ASSERT_EQ(b.checkCells(p, kept[p]), toBits(r.analyse(p).check))
            << "game " << game << " ply " << ply << ": check cells of player " << p << " from updated sets";
      const Bitboard legal = b.legalMoves();
      if (!legal) break;
      Cell move;
      if (b.canSteal() && rng.below(3) == 0) {
        move = b.stealCell();
        ++steals;
      } else {
        const Bitboard quiet = legal & b.empty() & ~b.losingCells(b.toMove());
        move = randomCell(quiet && rng.below(5) != 0 ? quiet : b.empty(), rng);
      }
      const bool steal = move == b.stealCell();
      const Outcome got = b.play(move);
      for (int p = 0; p < 2; ++p) {
        if (steal)
          kept[p] = b.checkSets(p);  // the steal rebuilds the board
        else
          b.updateCheckSets(p, move, kept[p]);
      }
      const Outcome expected = fromReference(r.play(move));
      ASSERT_EQ(got, expected) << "game " << game << " ply " << ply << " move " << cellName(move);
      if (got == Outcome::Draw) ++draws;
      if (got != Outcome::None && !fillBoard) {
        ++decided;
        break;
      }
    }
  }
  EXPECT_EQ(decided, games - games / 5);
  EXPECT_GT(steals, games / 5);
  RecordProperty("draws", draws);
}

// rule_moves.h against playing every legal move on the reference board: a win is a move that wins
// now; a sensible move is one that neither loses now nor leaves the opponent a cell that wins.
TEST(RuleMoves, AgreeWithPlayingEveryMoveOnTheReference) {
  int positions = 0, blocks = 0, lost = 0;
  for (int game = 0; game < 300; ++game) {
    Rng rng(7000 + game);
    Board b;
    ReferenceBoard r;
    for (int ply = 0;; ++ply) {
      const RuleMoves rules = ruleMoves(b);
      const int opponent = r.toMove() ^ 1;
      bool anySensible = false;
      for (int c : r.legalMoves()) {
        ReferenceBoard after = r;
        const RefOutcome o = after.play(c);
        ASSERT_EQ(bool(rules.wins >> c & 1), o == RefOutcome::Win) << "game " << game << " ply " << ply;
        if (o == RefOutcome::Win) continue;
        bool opponentWins = false;
        for (int d = 0; d < kCells && !opponentWins && o == RefOutcome::None; ++d)
          opponentWins =
              after.at(d) == ReferenceBoard::kEmpty && after.outcomeOfPlacing(opponent, d) == RefOutcome::Win;
        const bool sensible = o != RefOutcome::Loss && !opponentWins;
        ASSERT_EQ(bool(rules.sensible >> c & 1), sensible) << "game " << game << " ply " << ply << " cell " << c;
        anySensible |= sensible;
      }
      EXPECT_EQ(rules.lost(), !rules.wins && !anySensible);
      ++positions, blocks += rules.mustBlock(), lost += rules.lost();
      const Bitboard quiet = b.empty() & ~b.losingCells(b.toMove());
      const Cell move = randomCell(quiet && rng.below(5) != 0 ? quiet : b.legalMoves(), rng);
      r.play(move);
      if (b.play(move) != Outcome::None) break;
    }
  }
  EXPECT_GT(blocks, 300);  // the cases worth checking occur
  EXPECT_GT(lost, 50);
  RecordProperty("positions", positions);
}

// Playout policies on positions whose result is forced.
TEST(Playouts, SmartPolicyTakesWinsAndBlocks) {
  Rng rng(3);
  // The mover (player 0) has a winning cell: it wins.
  Board win = Board::fromStones(cellsAt({{0, 4}, {1, 4}, {2, 4}}), cellsAt({{0, 8}, {4, 8}, {8, 4}}), 0);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(smartPlayout(win, rng), 0);
  // The opponent has two winning cells and the mover none: the opponent wins.
  Board two = Board::fromStones(cellsAt({{0, 8}, {4, 8}, {8, 4}}), cellsAt({{1, 4}, {2, 4}, {3, 4}}), 0);
  ASSERT_EQ(popcount(two.winningCells(1)), 2);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(smartPlayout(two, rng), 1);
  // One threat whose only block makes the mover's 3: the opponent wins.
  Board blockLoses = Board::fromStones(cellsAt({{3, 0}, {3, 2}, {4, 8}}), cellsAt({{0, 1}, {1, 1}, {2, 1}}), 0);
  ASSERT_EQ(blockLoses.winningCells(1), cellsAt({{3, 1}}));
  ASSERT_TRUE(blockLoses.losingCells(0) >> cellAt(3, 1) & 1);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(smartPlayout(blockLoses, rng), 1);
  // Random playouts end with a valid result; both policies give each side some wins.
  int wins[2][3] = {};
  for (int i = 0; i < 2000; ++i) {
    ++wins[0][randomPlayout(Board(), rng) + 1];
    ++wins[1][smartPlayout(Board(), rng) + 1];
  }
  for (auto& w : wins) EXPECT_TRUE(w[1] > 500 && w[2] > 500);
}

// LGRF-1: the winner's replies are learned, the loser's played replies forgotten, a draw teaches
// nothing; the policy plays a learned reply whenever it is sensible.
TEST(Playouts, LastGoodRepliesAreLearnedFromWinsForgottenOnLossesAndPlayed) {
  const Cell a = cellAt(4, 4), b = cellAt(3, 3), c = cellAt(5, 5), d = cellAt(2, 2), e = cellAt(6, 6);
  const Cell played[] = {a, b, c, d, e};  // a led here; then player 1: b, player 0: c, player 1: d, player 0: e
  ReplyTable t;
  t.reply[0][b] = d;  // player 0's reply to b that this game did not play: kept after its loss
  t.reply[0][d] = e;  // the one it played: forgotten after its loss
  t.learn(played, 5, 1, 1);
  EXPECT_EQ(t.reply[1][a], b);
  EXPECT_EQ(t.reply[1][c], d);
  EXPECT_EQ(t.reply[0][b], d);
  EXPECT_EQ(t.reply[0][d], kNoCell);
  ReplyTable drawn;
  drawn.learn(played, 5, 1, kDrawResult);
  EXPECT_EQ(drawn.reply[1][a], kNoCell);

  // From the empty board, player 1's every reply is told to be 4 4: it owns 4 4 in every game
  // but those where player 0 took it first (random play: about half of the games).
  Rng rng(5);
  int games = 0, owned = 0;
  for (int i = 0; i < 200; ++i) {
    ReplyTable told;
    for (Cell m = 0; m < kCells; ++m) told.reply[1][m] = m == a ? kNoCell : a;
    Board board;
    smartPlayoutOn(board, rng, &told, kNoCell);
    if (board.stones(0) >> a & 1) continue;
    ++games;
    owned += int(board.stones(1) >> a & 1);
  }
  EXPECT_GT(games, 150);
  EXPECT_EQ(owned, games);
}

}  // namespace
}  // namespace yav
