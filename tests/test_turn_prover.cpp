// The turn's df-pn (src/turn_prover.h): its proofs against full minimax and the offline prover,
// and the search that plays them.
#include <gtest/gtest.h>

#include <string>

#include "search.h"
#include "test_util.h"
#include "tests/random_positions.h"
#include "tests/reference_solver.h"
#include "tools/proof/proof_search.h"
#include "tools/common/moves_text.h"
#include "turn_prover.h"

namespace yav {
namespace {

// Positions the book database proves won for the player to move that the submission of 3ee1ef1
// lost at CodinGame's time control (docs/proofs.md, Conversion).
const char* const kMissedWins[] = {
    "3 0; 3 2; 4 2; 3 5; 3 3; 4 6",
    "0 0; 3 0; 3 1; 1 1; 4 3; 3 2; 3 4; 3 3; 0 7",
    "3 2; 6 2; 4 3; 3 3; 1 4; 0 4; 2 5; 3 4; 2 6; 3 5; 4 8",
    "3 0; 1 1; 1 2; 3 3; 1 3; 5 3; 4 3; 1 4; 0 5; 1 5; 2 6",
};

// A win is proven exactly where full minimax finds one (8 to 12 empty cells), and the move named
// keeps it; with no win the search ends disproven, naming nothing.
TEST(TurnProver, ProvesExactlyTheWinsOfFullMinimax) {
  Rng rng(2718);
  int wins = 0, tested = 0;
  while (tested < 80) {
    testing_positions::Pair p;
    if (!testing_positions::randomPosition(rng, 49 + int(rng.below(4)), p)) continue;
    reference::ReferenceSolver solver;
    const int value = solver.value(p.slow);
    TurnProver prover(12);
    const Cell m = prover.winningMove(p.fast, nullptr, 0, uint64_t(1) << 22);
    ASSERT_EQ(m != kNoCell, value == 1) << "position " << tested << ", value " << value;
    if (m != kNoCell) {
      reference::ReferenceBoard next = p.slow;
      const reference::RefOutcome o = next.play(m);
      ASSERT_TRUE(o == reference::RefOutcome::Win || (o == reference::RefOutcome::None && solver.value(next) == -1))
          << "position " << tested << ", move " << cellName(m);
    }
    wins += value == 1, ++tested;
  }
  EXPECT_GT(wins, 15);
  EXPECT_LT(wins, 70);
}

// The wins the bot missed are proven in a few hundred expansions, each move checked by the
// offline prover: after it the opponent is proven lost.
TEST(TurnProver, ProvesTheWinsTheBotMissed) {
  for (const char* moves : kMissedWins) {
    const Board b = boardAfterMoves(moves);
    TurnProver prover;
    const Cell m = prover.winningMove(b, nullptr, 0, 5000);
    ASSERT_NE(m, kNoCell) << moves;
    EXPECT_LT(prover.expansions(), 5000u) << moves;
    Board next = b;
    ASSERT_EQ(next.play(m), Outcome::None) << moves;
    proof::ProofSearch check;
    EXPECT_TRUE(check.run(next, b.toMove(), 2000000).proven()) << moves << ", move " << cellName(m);
  }
}

// The search that plays them: at a fixed 3,000 iterations the tree alone proves one of these wins;
// with the turn's prover (after four fifths of the iterations, 2,000 expansions) it plays a proven
// winning move in each.
TEST(TurnProver, TheSearchPlaysTheWinsItsTreeDoesNotProve) {
  int treeAlone = 0, withProver = 0;
  for (const char* moves : kMissedWins) {
    const Board b = boardAfterMoves(moves);
    SearchLimits limits;
    limits.iterations = 3000;
    SearchOptions plain;
    Search alone(1 << 18, plain);
    treeAlone += alone.run(b, limits).proof == Proof::Win;
    SearchOptions proving;
    proving.proverShare = 0.2;
    proving.proverExpansions = 2000;
    Search search(1 << 18, proving);
    const SearchResult r = search.run(b, limits);
    if (r.proof != Proof::Win) continue;
    Board next = b;
    ASSERT_EQ(next.play(r.move), Outcome::None) << moves;
    proof::ProofSearch check;
    ASSERT_TRUE(check.run(next, b.toMove(), 2000000).proven()) << moves << ", move " << cellName(r.move);
    ++withProver;
  }
  EXPECT_LE(treeAlone, 1);
  EXPECT_EQ(withProver, 4);
}

}  // namespace
}  // namespace yav
