// The forcing-sequence solver against slow, obviously-correct searches on the reference rules:
// - refForcingWin: the attacker may play only moves that win at once or leave it a winning cell,
//   the defender may play EVERY legal move. This is the solver's definition, searched naively, so
//   the two must agree exactly (every claimed win confirmed, every such win found);
// - refWins: full width for both sides, on positions with few empty cells: a forcing win is a win.
// Plus hand-made tempo positions.
#include <gtest/gtest.h>

#include <vector>

#include "forcing.h"
#include "playout.h"
#include "rng.h"
#include "tests/random_positions.h"
#include "tests/reference_rules.h"
#include "tests/test_util.h"

namespace yav {
namespace {

using reference::ReferenceBoard;
using reference::RefOutcome;
using testing_positions::Pair;
using testing_positions::randomPosition;

std::vector<int> emptyCells(const ReferenceBoard& r) {
  std::vector<int> out;
  for (int i = 0; i < 61; ++i)
    if (r.at(i) == ReferenceBoard::kEmpty) out.push_back(i);
  return out;
}

bool hasWinningCell(const ReferenceBoard& r, int player) {
  for (int i : emptyCells(r))
    if (r.outcomeOfPlacing(player, i) == RefOutcome::Win) return true;
  return false;
}

// Does the side to move win within `moves` attacker moves, every attacker move winning at once
// or leaving it a winning cell, against every defender reply?
bool refForcingWin(const ReferenceBoard& r, int moves) {
  const int a = r.toMove();
  const std::vector<int> empty = emptyCells(r);
  for (int c : empty)
    if (r.outcomeOfPlacing(a, c) == RefOutcome::Win) return true;
  if (moves < 2) return false;
  for (int c : empty) {
    ReferenceBoard next = r;
    if (next.play(c) != RefOutcome::None) continue;  // a loss or a draw for the attacker
    if (!hasWinningCell(next, a)) continue;          // not a threat: outside the definition
    bool allRepliesLose = true;
    for (int reply : emptyCells(next)) {
      ReferenceBoard after = next;
      const RefOutcome o = after.play(reply);
      if (o == RefOutcome::Loss) continue;                              // the defender made its 3
      if (o != RefOutcome::None || !refForcingWin(after, moves - 1)) {  // defender won or drew
        allRepliesLose = false;
        break;
      }
    }
    if (allRepliesLose) return true;
  }
  return false;
}

// Full width for both sides: the side to move wins within `plies` plies.
bool refWins(const ReferenceBoard& r, int plies) {
  const std::vector<int> empty = emptyCells(r);
  for (int c : empty)
    if (r.outcomeOfPlacing(r.toMove(), c) == RefOutcome::Win) return true;
  if (plies < 3) return false;
  for (int c : empty) {
    ReferenceBoard next = r;
    if (next.play(c) != RefOutcome::None) continue;
    bool allRepliesLose = true;
    for (int reply : emptyCells(next)) {
      ReferenceBoard after = next;
      const RefOutcome o = after.play(reply);
      if (o == RefOutcome::Loss) continue;
      if (o != RefOutcome::None || !refWins(after, plies - 2)) {
        allRepliesLose = false;
        break;
      }
    }
    if (allRepliesLose) return true;
  }
  return false;
}

TEST(Forcing, AgreesWithNaiveForcingSearchOnRandomPositions) {
  ForcingSolver solver(14);
  Rng rng(2024);
  int tested = 0, wins = 0, deepWins = 0;
  while (tested < 3000) {
    Pair p;
    if (!randomPosition(rng, 14 + int(rng.below(24)), p)) continue;
    const int depth = 1 + int(rng.below(4));  // up to 4 attacker moves: 7 plies
    const ForcingResult r = solver.solve(p.fast, depth, 1u << 30);
    const bool expected = refForcingWin(p.slow, depth);
    ASSERT_EQ(r.win, expected) << "position " << tested << " depth " << depth;
    if (r.win) {
      ++wins, deepWins += r.depth >= 3;
      ASSERT_LE(r.depth, depth);
      // The first move is a win of the claimed length: after it, every reply still loses.
      ReferenceBoard next = p.slow;
      const RefOutcome o = next.play(r.move);
      if (o != RefOutcome::Win) {
        ASSERT_EQ(o, RefOutcome::None);
        ASSERT_TRUE(hasWinningCell(next, p.slow.toMove()));
        for (int reply : emptyCells(next)) {
          ReferenceBoard after = next;
          const RefOutcome ro = after.play(reply);
          if (ro == RefOutcome::Loss) continue;
          ASSERT_EQ(ro, RefOutcome::None);
          ASSERT_TRUE(refForcingWin(after, r.depth - 1)) << "reply " << cellName(reply);
        }
      }
    }
    ++tested;
  }
  // The sample must exercise the solver: a fair share of wins, some of them 3 moves deep.
  EXPECT_GT(wins, 100);
  EXPECT_GT(deepWins, 20);
}

TEST(Forcing, ClaimedWinsAreWinsUnderFullWidthSearch) {
  ForcingSolver solver(14);
  Rng rng(77);
  int confirmed = 0;
  for (int tries = 0; confirmed < 60 && tries < 200000; ++tries) {
    Pair p;
    if (!randomPosition(rng, 50 + int(rng.below(3)), p)) continue;  // 9 to 11 empty cells
    const ForcingResult r = solver.solve(p.fast, 3, 1u << 30);
    if (!r.win) continue;
    ASSERT_TRUE(refWins(p.slow, 2 * r.depth - 1)) << "claimed depth " << r.depth;
    ++confirmed;
  }
  EXPECT_EQ(confirmed, 60);
}

TEST(Forcing, DeeperSearchesFindEverythingShallowOnesFind) {
  ForcingSolver shallow(14), deep(14);
  Rng rng(5);
  int compared = 0;
  while (compared < 400) {
    Pair p;
    if (!randomPosition(rng, 16 + int(rng.below(20)), p)) continue;
    const ForcingResult a = shallow.solve(p.fast, 3, 1u << 30);
    const ForcingResult b = deep.solve(p.fast, 8, 1u << 30);
    if (a.win) {
      ASSERT_TRUE(b.win);
      ASSERT_EQ(b.depth, a.depth);  // iterative deepening finds the shortest win first
    }
    ++compared;
  }
}

TEST(Forcing, NodeLimitGivesUnknownNeverAWrongAnswer) {
  ForcingSolver limited(10), full(14);
  Rng rng(9);
  int cut = 0;
  for (int compared = 0; compared < 300;) {
    Pair p;
    if (!randomPosition(rng, 20 + int(rng.below(16)), p)) continue;
    const ForcingResult a = limited.solve(p.fast, 10, 20);
    const ForcingResult b = full.solve(p.fast, 10, 1u << 30);
    if (a.win) {
      ASSERT_TRUE(b.win);
    }
    cut += !a.win && b.win;
    ++compared;
  }
  EXPECT_GT(cut, 0);  // the limit did cut some searches short
}

// cutShort says exactly when the answer is not the search's own: a solve the node limit did not
// stop answers as an unlimited one does (a "no" is then a real no within the depth), and one it
// stopped claims nothing. The search's cheap first checks (SearchOptions::forcingFirstNodes) are
// made again only when they were cut short, so a "no" must not hide a win the limit cut off.
TEST(Forcing, ASolveNotCutShortAnswersAsAnUnlimitedOne) {
  Rng rng(21);
  int cut = 0, complete = 0, completeWins = 0;
  for (int compared = 0; compared < 300;) {
    Pair p;
    if (!randomPosition(rng, 16 + int(rng.below(20)), p)) continue;
    ForcingSolver unlimitedSolver(12);
    const ForcingResult full = unlimitedSolver.solve(p.fast, 12, 1u << 30);
    ASSERT_FALSE(full.cutShort);
    for (uint32_t limit : {1u, 5u, 20u, 50u, 200u}) {
      ForcingSolver limited(12);  // an empty table: the limit alone decides what is finished
      const ForcingResult r = limited.solve(p.fast, 12, limit);
      if (r.cutShort) {
        ASSERT_FALSE(r.win);
        ASSERT_GT(r.nodes, limit);
        ++cut;
      } else {
        ASSERT_EQ(r.win, full.win) << "a finished solve within " << limit << " nodes";
        ASSERT_LE(r.nodes, limit);
        ++complete, completeWins += r.win;
      }
    }
    ++compared;
  }
  EXPECT_GT(cut, 100);
  EXPECT_GT(complete - completeWins, 100);  // finished noes, the case the search relies on
  EXPECT_GT(completeWins, 100);
}

// The defence zone: a defender stone outside it (and not a winning or threatening cell of the
// defender's) leaves the attacker's forced win intact, as the naive search confirms.
TEST(Forcing, DefenderStonesOutsideTheZoneDoNotStopTheWin) {
  ForcingSolver solver(14), check(14);
  Rng rng(606);
  int zones = 0, outside = 0;
  while (zones < 150) {
    Pair p;
    if (!randomPosition(rng, 14 + int(rng.below(20)), p)) continue;
    const Board& b = p.fast;
    const int a = b.toMove(), d = a ^ 1;
    if (b.winningCells(a) || popcount(b.empty()) < 12) continue;
    const ForcingResult r = solver.solve(b, 3, 1u << 30);
    if (!r.win) continue;
    const Bitboard zone = solver.defenceZone(b, r);
    ASSERT_NE(zone, kFullBoard);
    // The defender's own resources, as the search adds them (with the defender to move).
    const Board defenderToMove = b.passed();
    const Bitboard resources = defenderToMove.checkCells(d) | defenderToMove.winningCells(d);
    for (Bitboard x = b.empty() & ~zone & ~resources & ~defenderToMove.losingCells(d); x;) {
      const Cell c = popLowest(x);
      Board after = defenderToMove;
      ASSERT_EQ(after.play(c), Outcome::None);
      // The solver itself is checked against the naive search above; here it judges the zone.
      ASSERT_TRUE(check.solve(after, r.depth, 1u << 30).win) << "defender stone " << cellName(c);
      ++outside;
    }
    ++zones;
  }
  EXPECT_GT(outside, 1000);
}

// lineStillWins: after a defender stone, the last zone's line replayed. Every win it claims is a
// forced win within the line's length for the full solver (itself checked against the naive
// search above), and it claims most of the wins the solver finds, so the defence check is spared
// their solves.
TEST(Forcing, ALineThatStillWinsAfterADefenderStoneIsAForcedWin) {
  ForcingSolver solver(14), check(14);
  Rng rng(808);
  int claimed = 0, missed = 0, zones = 0;
  while (zones < 150) {
    Pair p;
    if (!randomPosition(rng, 14 + int(rng.below(20)), p)) continue;
    const Board& b = p.fast;
    if (b.winningCells(b.toMove()) || popcount(b.empty()) < 12) continue;
    const ForcingResult r = solver.solve(b, 4, 1u << 30);
    if (!r.win) continue;
    solver.defenceZone(b, r);
    ++zones;
    const Board defenderToMove = b.passed();
    for (Bitboard x = defenderToMove.legalMoves(); x;) {
      const Cell c = popLowest(x);
      Board after = defenderToMove;
      if (after.play(c) != Outcome::None) continue;
      const bool lineWins = solver.lineStillWins(after);
      const bool solverWins = check.solve(after, r.depth, 1u << 30).win;
      ASSERT_TRUE(solverWins || !lineWins) << "defender stone " << cellName(c);
      claimed += lineWins, missed += solverWins && !lineWins;
    }
  }
  EXPECT_GT(claimed, 3 * missed);
  RecordProperty("claimed", claimed);
  RecordProperty("missed", missed);
}

// ---- Hand-made tempo positions (player 0 to move unless said otherwise) ----

TEST(ForcingTempo, BlockThatMakesTheDefendersThreeLoses) {
  // (3,4) threatens (1,4) [(0,4)..(3,4)]; the only block, (1,4), makes player 1's vertical 3
  // (1,3)(1,4)(0,5). The same position as test_search's FindsForcedWinByCheck.
  const Board b = Board::fromStones(cellsAt({{0, 4}, {2, 4}}), cellsAt({{1, 3}, {0, 5}}), 0);
  ForcingSolver s;
  const ForcingResult r = s.solve(b, 4, 100000);
  ASSERT_TRUE(r.win);
  EXPECT_EQ(r.depth, 2);
  Board after = b;
  ASSERT_EQ(after.play(r.move), Outcome::None);
  ASSERT_EQ(popcount(after.winningCells(0)), 1);
  EXPECT_EQ(after.outcomeOf(lowestCell(after.winningCells(0))), Outcome::Loss);
}

TEST(ForcingTempo, DoubleThreatWins) {
  // (3,4) threatens (2,4) on the row [(0,4)(1,4)_(3,4)] and (3,3) on the vertical a = 3
  // [(3,2)_(3,4)(2,5)], and makes no 3: the defender can block only one.
  const Board b =
      Board::fromStones(cellsAt({{0, 4}, {1, 4}, {3, 2}, {2, 5}}), cellsAt({{8, 4}, {0, 0}, {4, 8}, {0, 8}}), 0);
  Board n = b;
  ASSERT_EQ(n.play(cellAt(3, 4)), Outcome::None);
  ASSERT_EQ(n.winningCells(0), cellsAt({{2, 4}, {3, 3}}));
  ForcingSolver s;
  const ForcingResult r = s.solve(b, 2, 100000);
  ASSERT_TRUE(r.win);
  EXPECT_EQ(r.depth, 2);
  Board after = b;
  after.play(r.move);
  EXPECT_TRUE(severalCells(after.winningCells(0)) || (after.losingCells(1) & after.winningCells(0)));
  EXPECT_FALSE(s.solve(b, 1, 100000).win);  // no winning cell now
}

TEST(ForcingTempo, FourTogetherWithThreeWins) {
  // (2,3) completes the 4-line (1,3)..(4,3) and also the 3-line (2,3)(2,4)(1,5): it wins.
  const Board b = Board::fromStones(cellsAt({{1, 3}, {3, 3}, {4, 3}, {2, 4}, {1, 5}}),
                                    cellsAt({{0, 0}, {8, 4}, {0, 8}, {4, 8}, {6, 4}}), 0);
  ASSERT_EQ(b.outcomeOf(cellAt(2, 3)), Outcome::Win);
  ForcingSolver s;
  const ForcingResult r = s.solve(b, 1, 100);
  ASSERT_TRUE(r.win);
  EXPECT_EQ(r.move, cellAt(2, 3));
  EXPECT_EQ(r.depth, 1);
}

TEST(ForcingTempo, DefenderCounterThreatMustBeAnswered) {
  // Positions (found in random games) where an attacker threat's forced block leaves the
  // defender a winning cell: the attacker must answer it, so tempo decides. The solver's verdict
  // after the block must match the naive search, which plays every defender move by the rules.
  Rng rng(31);
  ForcingSolver solver(14);
  int found = 0;
  for (int tries = 0; tries < 100000 && found < 20; ++tries) {
    Pair p;
    if (!randomPosition(rng, 20 + int(rng.below(16)), p)) continue;
    const Board& b = p.fast;
    const int a = b.toMove();
    if (b.winningCells(a) || b.winningCells(a ^ 1)) continue;
    for (Bitboard m = b.checkCells(a) & b.empty(); m;) {
      const Cell c = popLowest(m);
      Board n = b;
      n.play(c);
      const Bitboard t = n.winningCells(a);
      if (severalCells(t) || (n.losingCells(a ^ 1) & t)) continue;
      Board after = n;
      if (after.play(lowestCell(t)) != Outcome::None || !after.winningCells(a ^ 1)) continue;
      // Here the defender's block threatens. The solver's verdict on `after` (attacker to move,
      // forced to block) must match the naive search's, which sees the tempo exactly.
      ReferenceBoard r = p.slow;
      r.play(c);
      r.play(lowestCell(t));
      for (int depth = 1; depth <= 3; ++depth)
        ASSERT_EQ(solver.solve(after, depth, 1u << 30).win, refForcingWin(r, depth));
      ++found;
      break;
    }
  }
  EXPECT_EQ(found, 20);
}

TEST(ForcingTempo, TwoDefenderThreatsMeanNoForcedWin) {
  // Player 1 (defender) has two winning cells; player 0 has threats of its own but cannot win by
  // force (it can block one only), unless it wins at once.
  const Board b = Board::fromStones(cellsAt({{0, 0}, {1, 0}, {0, 8}, {1, 8}}),
                                    cellsAt({{0, 4}, {1, 4}, {3, 4}, {8, 4}, {7, 4}, {5, 4}}), 0);
  ASSERT_EQ(popcount(b.winningCells(1)), 2);
  ASSERT_FALSE(b.winningCells(0));
  ForcingSolver s;
  EXPECT_FALSE(s.solve(b, 6, 100000).win);
}

}  // namespace
}  // namespace yav
