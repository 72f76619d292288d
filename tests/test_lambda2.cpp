// The one-quiet-move solver (lambda2.h) against slow references:
// - refLambda2: the same definition searched plainly, every defender reply tried (no defence zone,
//   no "only the block" shortcut): the two must agree exactly when neither runs out of nodes;
// - the exact endgame solver: every win claimed on a position with few empty cells is a win.
// And the search's use of it: a root move the opponent refutes with one quiet move is proven lost.
#include <gtest/gtest.h>

#include "endgame.h"
#include "forcing.h"
#include "lambda2.h"
#include "rng.h"
#include "search.h"
#include "tests/random_positions.h"
#include "tests/test_util.h"

namespace yav {
namespace {

using testing_positions::Pair;
using testing_positions::randomPosition;

constexpr uint32_t kUnlimited = 1u << 30;

bool forcedWin(ForcingSolver& f, const Board& b) { return f.solve(b, 12, kUnlimited).win; }

// Every reply of the defender (to move at `b`) leaves the attacker a win by `attackerWins`, or
// loses at once; a reply that wins or draws at once stops it.
template <class AttackerWins>
bool everyReplyLoses(const Board& b, AttackerWins attackerWins) {
  for (Bitboard r = b.empty(); r;) {
    Board next = b;
    const Outcome o = next.play(popLowest(r));
    if (o == Outcome::Loss) continue;
    if (o != Outcome::None || !attackerWins(next)) return false;
  }
  return true;
}

// The definition, plainly: a forcing win; or a quiet move on the attacker's lines (within 3 of its
// stones) after which it would win by force if the defender passed, and wins by force after every
// defender reply; or (up to `checks` times) a check followed by such a win after every reply.
bool refLambda2(ForcingSolver& f, const Board& b, int checks) {
  if (forcedWin(f, b)) return true;
  const int a = b.toMove(), d = a ^ 1;
  const Bitboard defenderWins = b.winningCells(d);
  if (severalCells(defenderWins)) return false;
  Bitboard near = 0;
  for (Bitboard s = b.stones(a); s;) near |= kLineNeighbours.cells[popLowest(s)];
  Bitboard quiet = b.empty() & near & ~b.losingCells(a);
  if (defenderWins) quiet &= defenderWins;
  for (Bitboard q = quiet; q;) {
    Board after = b;
    if (after.play(popLowest(q)) != Outcome::None || after.winningCells(d)) continue;
    if (!forcedWin(f, after.passed())) continue;
    if (everyReplyLoses(after, [&](const Board& next) { return forcedWin(f, next); })) return true;
  }
  if (checks == 0) return false;
  Bitboard candidates = b.checkCells(a) & b.empty();
  if (defenderWins) candidates &= defenderWins;
  for (Bitboard c = candidates; c;) {
    Board after = b;
    if (after.play(popLowest(c)) != Outcome::None) continue;
    if (everyReplyLoses(after, [&](const Board& next) { return refLambda2(f, next, checks - 1); })) return true;
  }
  return false;
}

TEST(Lambda2, AgreesWithThePlainDefinitionOnRandomPositions) {
  ForcingSolver fast(16), slow(16);
  Lambda2Solver solver(fast, 12, kUnlimited);
  Rng rng(2611);
  int compared = 0, forcing = 0, quietWins = 0;
  while (compared < 1500) {
    Pair p;
    if (!randomPosition(rng, 6 + int(rng.below(24)), p)) continue;
    const int checks = int(rng.below(2));
    const Lambda2Result r = solver.solve(p.fast, checks, kUnlimited);
    ASSERT_EQ(r.win, refLambda2(slow, p.fast, checks)) << "position " << compared << ", checks " << checks;
    if (r.win) (forcedWin(slow, p.fast) ? forcing : quietWins)++;
    ++compared;
  }
  // The sample must exercise the quiet moves, not only the forcing lines.
  EXPECT_GT(quietWins, 20);
  EXPECT_GT(forcing, 10);
}

TEST(Lambda2, ClaimedWinsAreWinsOfTheExactSolver) {
  ForcingSolver forcing(16);
  Lambda2Solver solver(forcing, 12, 1000);
  EndgameSolver exact;
  Rng rng(2612);
  int confirmed = 0;
  for (int tries = 0; confirmed < 50 && tries < 300000; ++tries) {
    Pair p;
    if (!randomPosition(rng, 41 + int(rng.below(6)), p)) continue;  // 15 to 20 empty cells
    if (forcing.solve(p.fast, 12, 1000).win) continue;               // only the quiet-move wins
    const Lambda2Result r = solver.solve(p.fast, 2, 100000);
    if (!r.win) continue;
    const EndgameResult e = exact.solve(p.fast, 50000000);
    ASSERT_TRUE(e.solved);
    ASSERT_EQ(e.value, 1) << "claimed a win with " << cellName(r.move);
    ++confirmed;
  }
  EXPECT_EQ(confirmed, 50);
}

TEST(Lambda2, ANodeLimitClaimsNothingTheFullSearchDenies) {
  ForcingSolver a(16), b(16);
  Lambda2Solver limited(a, 12, 1000), full(b, 12, kUnlimited);
  Rng rng(2613);
  int cut = 0;
  for (int compared = 0; compared < 300;) {
    Pair p;
    if (!randomPosition(rng, 6 + int(rng.below(24)), p)) continue;
    const Lambda2Result l = limited.solve(p.fast, 2, 2000), f = full.solve(p.fast, 2, kUnlimited);
    if (l.win) {
      ASSERT_TRUE(f.win);
    }
    cut += !l.win && f.win;
    ++compared;
  }
  EXPECT_GT(cut, 0);  // the limit did cut some searches short
}

// Four stones in (tactics_suite.txt, defence position 71): after (3,4) the opponent wins by the
// check (7,4), the forced block (6,4) and the quiet (7,3). The search without the root check walks
// into it at these budgets; with it the move is proven lost and not played.
TEST(Search, ARootMoveLostToOneQuietMoveIsProvenLost) {
  const Board position = Board::fromStones(0x0000008000400000ull, 0x0000000480000000ull, 0);
  const Cell trap = cellAt(3, 4);
  Board after = position;
  after.play(trap);
  ForcingSolver forcing(16);
  EXPECT_FALSE(forcing.solve(after, 30, kUnlimited).win);  // not a forcing line: it needs the quiet move
  EXPECT_TRUE(Lambda2Solver(forcing, 12, 1000).solve(after, 1, 100000).win);

  for (const bool check : {false, true}) {
    SearchOptions options;
    options.lambda2 = check;
    int playedTheTrap = 0, provenLost = 0;
    for (uint64_t seed = 1; seed <= 4; ++seed) {
      Search search(size_t(1) << 21, options);
      SearchLimits limits;
      limits.iterations = 20000;
      limits.seed = seed;
      const SearchResult r = search.run(position, limits);
      playedTheTrap += r.move == trap;
      for (const RootMove& m : r.children) provenLost += m.move == trap && m.proof == Proof::Loss;
    }
    if (check) {
      EXPECT_EQ(playedTheTrap, 0);
      EXPECT_GT(provenLost, 0);  // when the search's choice came to it
    } else {
      EXPECT_GT(playedTheTrap, 0);
    }
  }
}

}  // namespace
}  // namespace yav
