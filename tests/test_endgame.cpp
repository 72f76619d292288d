// The exact endgame solver against a naive minimax on the reference rules (every legal move of
// both sides, no pruning, no table), on positions with few empty cells.
#include <gtest/gtest.h>

#include <vector>

#include "endgame.h"
#include "tests/random_positions.h"
#include "tests/reference_rules.h"
#include "tests/reference_solver.h"

namespace yav {
namespace {

using reference::ReferenceBoard;
using reference::RefOutcome;
using testing_positions::Pair;
using testing_positions::randomPosition;

// +1 / 0 / -1: the game value for the side to move, by full minimax.
int naiveValue(const ReferenceBoard& r) {
  int best = -1;
  for (int i = 0; i < 61 && best < 1; ++i) {
    if (r.at(i) != ReferenceBoard::kEmpty) continue;
    ReferenceBoard next = r;
    const RefOutcome o = next.play(i);
    const int v = o == RefOutcome::Win ? 1 : o == RefOutcome::Loss ? -1 : o == RefOutcome::Draw ? 0 : -naiveValue(next);
    best = std::max(best, v);
  }
  return best;
}

// The position after `stones` quiet random stones, or nothing when the game ended first.
bool crowdedPosition(Rng& rng, int stones, Pair& p) {
  return randomPosition(rng, stones, p) && !p.fast.winningCells(p.fast.toMove());
}

TEST(Endgame, ValuesAndMovesMatchFullMinimax) {
  EndgameSolver solver(14);
  Rng rng(4242);
  int counts[3] = {0, 0, 0};
  int tested = 0;
  while (tested < 400) {
    Pair p;
    if (!crowdedPosition(rng, 52 + int(rng.below(7)), p)) continue;  // 3 to 9 empty cells
    const EndgameResult r = solver.solve(p.fast, 1u << 30);
    ASSERT_TRUE(r.solved);
    const int expected = naiveValue(p.slow);
    ASSERT_EQ(r.value, expected) << "position " << tested;
    // The move achieves the value.
    ReferenceBoard next = p.slow;
    const RefOutcome o = next.play(r.move);
    const int achieved = o == RefOutcome::Win    ? 1
                         : o == RefOutcome::Loss ? -1
                         : o == RefOutcome::Draw ? 0
                                                 : -naiveValue(next);
    ASSERT_EQ(achieved, expected) << "move " << cellName(r.move);
    ++counts[expected + 1], ++tested;
  }
  // Wins and losses are common; draws are rare here (see the next test).
  EXPECT_GT(counts[0], 20);
  EXPECT_GT(counts[2], 20);
}

TEST(Endgame, DrawsOfNearlyFullBoardsAreFound) {
  EndgameSolver solver(12);
  Rng rng(99);
  int draws = 0, tested = 0;
  for (int tries = 0; tries < 200000; ++tries) {
    Pair p;
    if (!crowdedPosition(rng, 57 + int(rng.below(3)), p)) continue;  // 2 to 4 empty cells
    const int expected = naiveValue(p.slow);
    const EndgameResult r = solver.solve(p.fast, 1u << 20);
    ASSERT_TRUE(r.solved);
    ASSERT_EQ(r.value, expected);
    draws += expected == 0, ++tested;
  }
  EXPECT_GT(tested, 50);
  EXPECT_GE(draws, 2);  // quiet random play seldom fills the board: two draws with this seed
}

// The bot solves roots of up to 24 empty cells: its values and moves at 12 to 16 empty cells
// against the memoised reference minimax (reference_solver.h), one solver (and table) for all.
// Most such positions of quiet random play are settled in a few hundred nodes; the test goes on
// until 20 positions that took the solver 300 nodes or more (where the table's bounds and the
// move order matter) were compared too.
TEST(Endgame, ValuesAndMovesMatchTheReferenceWithTwelveToSixteenEmptyCells) {
  EndgameSolver solver;
  Rng rng(5151);
  int counts[3] = {0, 0, 0};
  int hard = 0, tested = 0;
  for (; hard < 20 && tested < 5000; ++tested) {
    Pair p;
    while (!crowdedPosition(rng, 45 + int(rng.below(5)), p)) {  // 12 to 16 empty cells
    }
    const EndgameResult r = solver.solve(p.fast, 1u << 30);
    ASSERT_TRUE(r.solved);
    reference::ReferenceSolver truth;
    const int expected = truth.value(p.slow);
    ASSERT_EQ(r.value, expected) << "position " << tested << ", " << popcount(p.fast.empty()) << " empty cells";
    ReferenceBoard next = p.slow;
    ASSERT_TRUE(p.fast.isLegal(r.move)) << "position " << tested;
    ASSERT_EQ(truth.valueOfMove(next, r.move), expected) << "move " << cellName(r.move) << ", position " << tested;
    if (r.nodes >= 300) ++counts[expected + 1], ++hard;
  }
  EXPECT_EQ(hard, 20) << "of " << tested;
  EXPECT_GE(counts[0], 3);
  EXPECT_GE(counts[1], 1) << "draws";
  EXPECT_GE(counts[2], 3);
}

TEST(Endgame, NodeLimitAbortsAndTheTableKeepsOnlyExactFacts) {
  EndgameSolver limited(12), fresh(12);
  Rng rng(17);
  int aborted = 0, compared = 0;
  while (compared < 200) {
    Pair p;
    if (!crowdedPosition(rng, 38 + int(rng.below(8)), p)) continue;  // 16 to 23 empty cells
    const EndgameResult a = limited.solve(p.fast, 20);               // often aborted: must leave no wrong entry
    aborted += !a.solved;
    const EndgameResult b = limited.solve(p.fast, 1u << 26), c = fresh.solve(p.fast, 1u << 26);
    if (!b.solved || !c.solved) continue;
    ASSERT_EQ(b.value, c.value);
    if (a.solved) {
      ASSERT_EQ(a.value, c.value);
    }
    ++compared;
  }
  EXPECT_GT(aborted, 20);
}

// Every table entry left by a solve holds the position's true value: exact is exact, a lower bound
// is at most, an upper bound at least the value (the reference minimax's). Positions near the end
// of drawn games (a full drawn board less 7 to 13 stones), where draws are in play: their windows
// narrow to (-1, 0) and (0, 1) and a bound is not the value (with wins and losses alone every
// bound is tight). The positions within 6 quiet plies of each root are looked up. The root values
// alone caught no mutation of the bounds (before 2026-12-06, none of: lower and upper swapped,
// fail-low stored as exact, fail-high stored as exact, the lower bound tested against alpha).
// The solver with a look into its table (protected: the submission carries no accessor for it).
struct EndgameTableProbe : EndgameSolver {
  using EndgameSolver::EndgameSolver;
  using EndgameSolver::Known;
  static constexpr int kExactBound = kExact, kLowerBound = kLower;
  const Known* known(const Board& b) const { return table_.find(b.hash()); }
};

void expectBoundsHold(const EndgameTableProbe& solver, reference::ReferenceSolver& truth, const Pair& p, int plies,
                      int& checked, int& loose) {
  if (::testing::Test::HasFailure()) return;
  if (const EndgameTableProbe::Known* k = solver.known(p.fast)) {
    const int value = truth.value(p.slow);
    ++checked, loose += value != k->value;
    if (k->bound == EndgameTableProbe::kExactBound) {
      ASSERT_EQ(value, int(k->value)) << "an exact entry";
    } else if (k->bound == EndgameTableProbe::kLowerBound) {
      ASSERT_GE(value, int(k->value)) << "a lower bound";
    } else {
      ASSERT_LE(value, int(k->value)) << "an upper bound";
    }
  }
  if (plies == 0 || p.fast.winningCells(p.fast.toMove())) return;
  for (Bitboard quiet = p.fast.empty() & ~p.fast.losingCells(p.fast.toMove()); quiet;) {
    Pair next = p;
    if (next.play(popLowest(quiet)) == RefOutcome::None)
      expectBoundsHold(solver, truth, next, plies - 1, checked, loose);
  }
}

TEST(Endgame, EveryTableBoundHoldsTheTrueValue) {
  EndgameTableProbe solver(16);
  Rng rng(8585);
  int checked = 0, loose = 0, counts[3] = {0, 0, 0};
  testing_positions::DrawnBoard full;
  for (int root = 0; root < 200; ++root) {
    if (root % 10 == 0) full = testing_positions::drawnBoard(rng);  // a tenth of a second each
    const int removed = 3 + int(rng.below(4));                      // player 2's stones taken off; player 1's: one more
    Bitboard stones[2] = {full.stones[0], full.stones[1]};
    for (int p = 0; p < 2; ++p)
      for (int n = 0; n < removed + (p == 0); ++n) stones[p] &= ~bit(randomCell(stones[p], rng));
    Pair pair;
    while (stones[0] | stones[1]) {  // in any order: the full board has no line of 3, so no part of it
      const int me = pair.fast.toMove();
      const Cell c = randomCell(stones[me], rng);
      stones[me] &= ~bit(c);
      ASSERT_EQ(pair.play(c), RefOutcome::None);
    }
    reference::ReferenceSolver truth;
    const EndgameResult r = solver.solve(pair.fast, 1u << 30);
    ASSERT_TRUE(r.solved);
    ASSERT_EQ(r.value, truth.value(pair.slow)) << "root " << root;
    ++counts[r.value + 1];
    expectBoundsHold(solver, truth, pair, 6, checked, loose);
    ASSERT_FALSE(::testing::Test::HasFailure()) << "root " << root;
  }
  // 7,385 entries checked, 365 of them a bound that is not the value (2026-12-06).
  EXPECT_GT(loose, 100) << checked << " checked";
  EXPECT_GE(counts[1], 3) << "draws";
}

}  // namespace
}  // namespace yav
