// The MCTS-solver: tactics, proofs, legality, the steal, tree reuse, the node pool.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "ponder.h"
#include "search.h"
#include "tests/random_positions.h"
#include "tools/common/cli.h"
#include "tests/reference_solver.h"
#include "tests/test_util.h"

namespace yav {
namespace {

SearchLimits iterations(uint64_t n, uint64_t seed = 7) {
  SearchLimits l;
  l.iterations = n;
  l.seed = seed;
  return l;
}

constexpr size_t kTestNodes = size_t(1) << 20;

TEST(Search, TakesWinInOne) {
  // Player 0 has (0,4) (1,4) (3,4): (2,4) makes four.
  Board b = Board::fromStones(cellsAt({{0, 4}, {1, 4}, {3, 4}}), cellsAt({{0, 0}, {4, 0}, {4, 8}}), 0);
  Search s(kTestNodes);
  SearchResult r = s.run(b, iterations(200));
  EXPECT_EQ(r.move, cellAt(2, 4));
  EXPECT_EQ(r.proof, Proof::Win);
  EXPECT_DOUBLE_EQ(r.value, 1.0);
}

TEST(Search, BlocksSingleThreat) {
  // Player 1 threatens (2,4); player 0 has nothing and must block there.
  Board b = Board::fromStones(cellsAt({{0, 0}, {4, 0}, {4, 8}}), cellsAt({{0, 4}, {1, 4}, {3, 4}}), 0);
  Search s(kTestNodes);
  SearchResult r = s.run(b, iterations(2000));
  EXPECT_EQ(r.move, cellAt(2, 4));
  ASSERT_EQ(r.children.size(), 1u);  // tactics: the block is the only child
}

TEST(Search, FindsForcedWinByCheck) {
  // Player 0: (0,4) (2,4). Playing (3,4) threatens (1,4) (making 0..3), and the only block,
  // (1,4), gives player 1 the three (1,3) (1,4) (0,5) on the vertical axis: a forced win.
  Board b = Board::fromStones(cellsAt({{0, 4}, {2, 4}}), cellsAt({{1, 3}, {0, 5}}), 0);
  ASSERT_TRUE(b.losingCells(1) >> cellAt(1, 4) & 1);
  Search s(kTestNodes);
  SearchResult r = s.run(b, iterations(5000));
  EXPECT_EQ(r.proof, Proof::Win);
  EXPECT_DOUBLE_EQ(r.value, 1.0);
  // Whatever proven win was chosen, it must survive the opponent's best reply: check it.
  Board after = b;
  ASSERT_EQ(after.play(r.move), Outcome::None);
  Search reply(kTestNodes);
  SearchResult rr = reply.run(after, iterations(5000));
  EXPECT_EQ(rr.proof, Proof::Loss);
}

TEST(Search, EveryMoveLosesIsHandled) {
  // Player 1 has two winning cells, (2,4) and (2,0): player 0 cannot block both.
  Board b = Board::fromStones(cellsAt({{0, 8}, {4, 8}, {8, 4}}),
                              cellsAt({{0, 4}, {1, 4}, {3, 4}, {0, 0}, {1, 0}, {3, 0}}), 0);
  ASSERT_EQ(popcount(b.winningCells(1)), 2);
  Search s(kTestNodes);
  SearchResult r = s.run(b, iterations(500));
  EXPECT_EQ(r.proof, Proof::Loss);
  EXPECT_DOUBLE_EQ(r.value, 0.0);
  EXPECT_TRUE(b.isLegal(r.move));
  EXPECT_TRUE(b.winningCells(1) >> r.move & 1) << "should at least block one threat";
}

TEST(Search, OnlyBlockMakesOwnThreeIsLoss) {
  // Player 1 threatens (2,4); player 0 owns (2,2) (2,3), so the block at (2,4) completes player
  // 0's own three on the vertical axis: the position is lost.
  Board b = Board::fromStones(cellsAt({{2, 2}, {2, 3}, {4, 8}}), cellsAt({{0, 4}, {1, 4}, {3, 4}}), 0);
  ASSERT_TRUE(b.losingCells(0) >> cellAt(2, 4) & 1);
  ASSERT_EQ(b.winningCells(1), bit(cellAt(2, 4)));
  Search s(kTestNodes);
  SearchResult r = s.run(b, iterations(100));
  EXPECT_EQ(r.proof, Proof::Loss);
  EXPECT_TRUE(b.isLegal(r.move));
}

// Random positions reached by smart-ish play, for both seats.
std::vector<Board> randomPositions(int count, uint64_t seed) {
  std::vector<Board> out;
  Rng rng(seed);
  while (int(out.size()) < count) {
    Board b;
    const int plies = int(rng.below(40));
    bool over = false;
    for (int i = 0; i < plies && !over; ++i) {
      Bitboard safe = b.legalMoves() & ~b.losingCells(b.toMove());
      if (!safe) break;
      over = b.play(randomCell(safe, rng)) != Outcome::None;
    }
    if (!over && b.legalMoves()) out.push_back(b);
  }
  return out;
}

TEST(Search, NeverPlaysIllegalMoves) {
  int seats[2] = {0, 0};
  SearchOptions noRave;
  noRave.raveK = 0;
  Search s(kTestNodes), plain(kTestNodes, SearchOptions::plainUct()), withoutRave(kTestNodes, noRave);
  uint64_t seed = 1;
  for (const Board& b : randomPositions(300, 42)) {
    ++seats[b.toMove()];
    SearchResult r = s.run(b, iterations(150, ++seed));
    ASSERT_TRUE(b.isLegal(r.move)) << "move " << r.move << " at " << b.stoneCount() << " stones";
    ASSERT_TRUE(b.isLegal(plain.run(b, iterations(150, seed)).move));
    ASSERT_TRUE(b.isLegal(withoutRave.run(b, iterations(150, seed)).move));
  }
  EXPECT_GT(seats[0], 50);
  EXPECT_GT(seats[1], 50);
}

// The MCTS-Solver's own proofs (its backups: a node is won by one child lost for the opponent, lost
// or drawn when every child is won or at best drawn for it), with the endgame solver off, with and
// without the forcing solver: won and lost positions of 9 to 10 empty cells, drawn ones of 5 to 7
// (found by quiet random play; the reference minimax confirms each value). A move played from a
// won or drawn root keeps its value. The search alone proves few draws of more empty cells: once
// a child is proven drawn it keeps being chosen over the unproven ones, which are never proven
// lost (9 of 12 drawn positions of 4 to 7 empty cells proven in 100,000 iterations, none of
// 8 to 10); in the bot the endgame solver proves them.
TEST(Search, ProvesWinsLossesAndDrawsWithoutTheEndgameSolver) {
  struct Case {
    Bitboard stones0, stones1;
    int toMove, value;  // the value for the side to move
  };
  const Case cases[] = {
      {0x0ad09b66c8921b0a, 0x102f6499352904b1, 1, 1},  {0x1ab02b56a508ac4c, 0x054d14891aa75213, 1, 1},
      {0x1133184b1ac12976, 0x06cca334651a8689, 0, 1},  {0x133186648da8c626, 0x0cce1982624728d8, 1, -1},
      {0x0a21a615ac633193, 0x144c514a5318c66c, 1, -1}, {0x14a92a9d236db004, 0x0b06c462d892427b, 0, -1},
      {0x049a5b6c59124974, 0x0b21a4932669b48b, 0, 0},  {0x16ad64a14a535a15, 0x0952835ea5aca4a2, 1, 0},
      {0x1668453266d34955, 0x0995b2c5912cb6a2, 0, 0},  {0x156a412b52534976, 0x0295aed4a52c9689, 0, 0}};
  SearchOptions withForcing;
  withForcing.endgame = false;
  SearchOptions alone = withForcing;
  alone.forcing = false;
  int proven[3] = {0, 0, 0};
  for (const SearchOptions& options : {withForcing, alone}) {
    Search s(kTestNodes, options);
    for (const Case& c : cases) {
      testing_positions::Pair p;
      ASSERT_TRUE(testing_positions::positionOf(c.stones0, c.stones1, c.toMove, p));
      reference::ReferenceSolver truth;
      ASSERT_EQ(truth.value(p.slow), c.value) << cli::hexText(c.stones0);
      s.reset();
      const SearchResult r = s.run(p.fast, iterations(100000));
      const Proof expected = c.value > 0 ? Proof::Win : c.value < 0 ? Proof::Loss : Proof::Draw;
      EXPECT_EQ(r.proof, expected) << cli::hexText(c.stones0) << ", forcing " << options.forcing << ": "
                                   << proofName(r.proof) << " instead of " << proofName(expected);
      proven[c.value + 1] += r.proof == expected;
      if (c.value >= 0) {
        reference::ReferenceBoard next = p.slow;
        EXPECT_EQ(truth.valueOfMove(next, r.move), c.value) << cli::hexText(c.stones0) << ": " << cellName(r.move);
      }
    }
  }
  EXPECT_EQ(proven[0], 6);
  EXPECT_EQ(proven[1], 8);
  EXPECT_EQ(proven[2], 6);
}

// The forcing solver's proofs inside the tree (and at the root) against the plain MCTS-Solver's
// exhaustive proofs on crowded positions, where the latter proves nearly everything.
TEST(SearchForcing, ProofsAgreeWithTheMctsSolver) {
  SearchOptions withoutForcing;
  withoutForcing.forcing = false;
  Rng rng(314);
  int compared = 0, provenByForcing = 0, solvedExactly = 0;
  for (int tries = 0; tries < 4000 && compared < 40; ++tries) {
    Board b;
    bool over = false;
    const int stones = 36 + int(rng.below(12));
    while (!over && b.stoneCount() < stones) {
      Bitboard safe = b.empty() & ~b.losingCells(b.toMove());
      if (const Bitboard threats = b.winningCells(b.toMove() ^ 1); threats & safe) safe &= threats;
      if (!safe) break;
      over = b.play(randomCell(safe, rng)) != Outcome::None;
    }
    if (over || b.stoneCount() < stones || b.winningCells(b.toMove())) continue;
    Search exact(kTestNodes, withoutForcing), fast(kTestNodes);
    const SearchResult truth = exact.run(b, iterations(300000));
    if (truth.proof == Proof::Unknown) continue;
    const SearchResult r = fast.run(b, iterations(300));
    ++compared;
    // With the exact endgame solver (the offline analyses' search) the root is solved outright.
    Search analysis(kTestNodes, SearchOptions::deepAnalysis());
    const SearchResult solved = analysis.run(b, iterations(300));
    if (popcount(b.empty()) <= SearchOptions().endgameRootEmpties) {
      ++solvedExactly;
      ASSERT_EQ(solved.proof, truth.proof);
      if (truth.proof != Proof::Loss) {  // the move keeps the value
        Board after = b;
        const Outcome o = after.play(solved.move);
        if (o == Outcome::None) {
          Search check(kTestNodes, withoutForcing);
          EXPECT_EQ(check.run(after, iterations(300000)).proof, flipProof(truth.proof)) << cellName(solved.move);
        }
      }
    }
    if (r.proof == Proof::Unknown) continue;
    ++provenByForcing;
    ASSERT_EQ(r.proof, truth.proof) << "position with " << b.stoneCount() << " stones";
    if (r.proof == Proof::Win) {  // and the move played keeps the win
      Board after = b;
      const Outcome o = after.play(r.move);
      if (o == Outcome::Win) continue;
      ASSERT_EQ(o, Outcome::None);
      Search check(kTestNodes, withoutForcing);
      EXPECT_EQ(check.run(after, iterations(300000)).proof, Proof::Loss) << cellName(r.move);
    }
  }
  EXPECT_EQ(compared, 40);
  EXPECT_GT(provenByForcing, 10);
  EXPECT_GT(solvedExactly, 10);
}

TEST(SearchForcing, RootForcedWinIsPlayedAtOnce) {
  // A win by two threats: (3,4) threatens (1,4) and the block makes player 1's 3.
  Board b = Board::fromStones(cellsAt({{0, 4}, {2, 4}}), cellsAt({{1, 3}, {0, 5}}), 0);
  Search s(kTestNodes);
  const SearchResult r = s.run(b, iterations(1000));
  EXPECT_EQ(r.proof, Proof::Win);
  EXPECT_EQ(r.iterations, 0u);  // the solver answered before any MCTS iteration
  EXPECT_NE(r.move, kNoCell);
  Board after = b;
  ASSERT_EQ(after.play(r.move), Outcome::None);
  EXPECT_TRUE(after.winningCells(0));
}

TEST(Search, ReproducibleWithSeed) {
  Board b = Board::fromStones(cellsAt({{4, 4}, {2, 3}}), cellsAt({{5, 5}}), 1);
  Search a(kTestNodes), c(kTestNodes);
  SearchResult ra = a.run(b, iterations(3000, 99)), rc = c.run(b, iterations(3000, 99));
  EXPECT_EQ(ra.move, rc.move);
  ASSERT_EQ(ra.children.size(), rc.children.size());
  for (size_t i = 0; i < ra.children.size(); ++i) EXPECT_EQ(ra.children[i].visits, rc.children[i].visits);
}

TEST(Search, StealIsARootMoveForTheSecondPlayer) {
  Board b = Board::fromStones(cellsAt({{4, 4}}), 0, 1);
  ASSERT_TRUE(b.canSteal());
  Search s(kTestNodes);
  SearchResult r = s.run(b, iterations(4000));
  bool stealListed = false;
  for (const RootMove& m : r.children) stealListed |= m.move == cellAt(4, 4) && m.visits > 0;
  EXPECT_TRUE(stealListed);
  EXPECT_EQ(r.children.size(), 61u);  // 60 empty cells + the steal
  EXPECT_TRUE(b.isLegal(r.move));
}

TEST(Search, StealIsNotBuriedByRave) {
  // The steal shares no AMAF statistics with other moves; a single lost playout must not stop
  // the search from looking at it again (it once got 1 visit in 300,000 iterations).
  Board b = Board::fromStones(cellsAt({{3, 5}}), 0, 1);
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    Search s(kTestNodes);
    SearchResult r = s.run(b, iterations(20000, seed));
    uint32_t stealVisits = 0;
    for (const RootMove& m : r.children)
      if (m.move == cellAt(3, 5)) stealVisits = m.visits;
    EXPECT_GE(stealVisits, 200u) << "seed " << seed;
  }
}

TEST(Search, TreeReusedAcrossOwnStealAndReply) {
  // As the stealer: we steal, the opponent replies, the tree below is kept.
  Board b = Board::fromStones(cellsAt({{4, 4}}), 0, 1);
  Search s(kTestNodes);
  s.run(b, iterations(5000));
  Board after = b;
  after.play(cellAt(4, 4));  // the steal
  EXPECT_EQ(after.toMove(), 0);
  EXPECT_EQ(after.stones(1), bit(cellAt(4, 4)));
  SearchResult r1 = s.run(after, iterations(10));  // the steal's node is the new root
  EXPECT_TRUE(r1.reused);
  after.play(cellAt(3, 3));
  SearchResult r2 = s.run(after, iterations(100));  // our steal + the reply: two plies
  EXPECT_TRUE(r2.reused);
  EXPECT_TRUE(after.isLegal(r2.move));
}

TEST(Search, TreeReusedWhenOurStoneIsStolen) {
  // As the victim: we open, the opponent steals the stone, we move again on the kept subtree.
  Board empty;
  Search s(kTestNodes);
  SearchResult r = s.run(empty, iterations(3000));
  Board after = empty;
  after.play(r.move);
  uint64_t stealVisitsBefore = 0;
  {
    // The opponent's steal was searched below our move: run once more on that position.
    Board stolen = after;
    ASSERT_TRUE(stolen.canSteal());
    stolen.play(r.move);
    EXPECT_EQ(stolen.toMove(), 0);
    EXPECT_EQ(stolen.stones(0), 0u);
    SearchResult again = s.run(stolen, iterations(200));
    EXPECT_TRUE(again.reused);
    for (const RootMove& m : again.children) stealVisitsBefore += m.visits;
    EXPECT_GE(stealVisitsBefore, 200u);
    EXPECT_TRUE(stolen.isLegal(again.move));
    EXPECT_NE(again.move, r.move);  // that cell is the opponent's now
  }
}

TEST(Search, UnrelatedPositionStartsFresh) {
  Search s(kTestNodes);
  s.run(Board(), iterations(500));
  Board far = Board::fromStones(cellsAt({{0, 0}, {8 - 4, 8}}), cellsAt({{4, 4}, {1, 1}}), 0);
  SearchResult r = s.run(far, iterations(100));
  EXPECT_FALSE(r.reused);
  uint64_t total = 0;
  for (const RootMove& m : r.children) total += m.visits;
  EXPECT_EQ(total, 100u);
}

TEST(Search, FullPoolDegradesGracefully) {
  Search s(300);
  SearchResult r = s.run(Board(), iterations(20000));
  EXPECT_EQ(r.iterations, 20000u);
  EXPECT_LE(r.nodes, 300u);
  EXPECT_TRUE(Board().isLegal(r.move));
  Board next;
  next.play(r.move);
  SearchResult r2 = s.run(next, iterations(5000));
  EXPECT_TRUE(next.isLegal(r2.move));
}

// Two searches of one position that must have grown the same tree, wherever its nodes sit in the
// pool: the same move, and the same root children with the same visits.
void expectSameRootStatistics(const SearchResult& a, const SearchResult& b) {
  EXPECT_EQ(a.move, b.move);
  ASSERT_EQ(a.children.size(), b.children.size());
  for (size_t i = 0; i < a.children.size(); ++i) {
    EXPECT_EQ(a.children[i].move, b.children[i].move);
    EXPECT_EQ(a.children[i].visits, b.children[i].visits);
  }
}

TEST(Search, CompactionKeepsTheTreeIntact) {
  // The same searches with a roomy pool and with one small enough to be compacted on reuse must
  // give identical statistics.
  Search big(kTestNodes);
  SearchResult first = big.run(Board(), iterations(2000, 5));
  const size_t smallCapacity = first.nodes * 3 / 2;
  Search small(smallCapacity);
  SearchResult firstSmall = small.run(Board(), iterations(2000, 5));
  ASSERT_EQ(first.nodes, firstSmall.nodes);
  ASSERT_GT(first.nodes, smallCapacity / 2);  // so the reuse compacts even on the clock (SearchTree::Compaction)

  Board next;
  next.play(first.move);
  next.play(cellAt(1, 1));
  SearchResult a = big.run(next, iterations(300, 6)), b = small.run(next, iterations(300, 6));
  ASSERT_TRUE(a.reused);
  ASSERT_TRUE(b.reused);
  EXPECT_LT(b.nodes, a.nodes);  // the compacted pool holds only the kept subtree
  expectSameRootStatistics(a, b);
}

TEST(Search, ATurnLeavesCompactionToTheOpponentsTime) {
  // A pool a quarter full: a turn's run() keeps it as it is (compaction moves the whole kept
  // subtree, on the clock), keepTreeFor() after our answer compacts it; the statistics are the same.
  Search probe(kTestNodes);
  const SearchResult first = probe.run(Board(), iterations(2000, 5));
  const size_t capacity = first.nodes * 4;
  Search onTheClock(capacity), offTheClock(capacity);
  ASSERT_EQ(onTheClock.run(Board(), iterations(2000, 5)).nodes, first.nodes);
  ASSERT_EQ(offTheClock.run(Board(), iterations(2000, 5)).nodes, first.nodes);

  Board afterOurMove;
  afterOurMove.play(first.move);
  Board next = afterOurMove;
  next.play(cellAt(1, 1));
  offTheClock.keepTreeFor(afterOurMove);
  EXPECT_LT(offTheClock.tree().used(), first.nodes);  // compacted around the position our move left
  const SearchResult a = onTheClock.run(next, iterations(300, 6)), b = offTheClock.run(next, iterations(300, 6));
  ASSERT_TRUE(a.reused);
  ASSERT_TRUE(b.reused);
  EXPECT_GT(a.nodes, first.nodes);  // not compacted: the old tree is still in the pool
  EXPECT_LT(b.nodes, a.nodes);
  expectSameRootStatistics(a, b);
}

// The steady clock ends a timed search (its stops, pauses and hard stop are tested on a fake
// clock: test_time_control.cpp). The bound is one only a hang breaks: the budget is 30 ms.
TEST(Search, TimedSearchOnTheSteadyClockEnds) {
  Search s(kTestNodes);
  SearchLimits l;
  l.timeMs = 30;
  l.hardMs = 40;
  const SearchResult r = s.run(Board(), l);
  EXPECT_GT(r.iterations, 0u);
  EXPECT_LT(r.elapsedMs, 30000.0);
}

// Whether every expanded node of the root's subtree keeps the liveCount invariant (SearchNode):
// its first liveCount children are not proven won for the opponent, the others are.
bool liveChildrenConsistent(const SearchTree& tree) {
  if (tree.root() == SearchTree::kNone) return true;
  std::vector<SearchTree::Index> stack{tree.root()};
  while (!stack.empty()) {
    const SearchNode& n = tree[stack.back()];
    stack.pop_back();
    if (!n.firstChild) continue;
    if (n.liveCount > n.childCount) return false;
    for (SearchTree::Index i = n.firstChild; i < n.firstChild + n.childCount; ++i) {
      if ((tree[i].proof == Proof::Win) != (i >= n.firstChild + n.liveCount)) return false;
      stack.push_back(i);
    }
  }
  return true;
}

// A node's children proven won for the opponent move behind the others, which keep their order
// and their own children.
TEST(SearchTree, DropLostChildrenKeepsTheLiveOnesInOrder) {
  SearchTree tree(64);
  tree.setRoot(Board(), SearchTree::Compaction::Early);
  const SearchTree::Index root = tree.root(), first = tree.allocate(6);
  for (int i = 0; i < 6; ++i) SearchTree::initNode(tree[first + i], Cell(10 + i));
  tree[root].firstChild = first;
  tree[root].childCount = tree[root].liveCount = 6;
  const SearchTree::Index grandchild = tree.allocate(1);
  SearchTree::initNode(tree[grandchild], 30);
  tree[first + 2].firstChild = grandchild;  // the child of cell 12 has a child of its own
  tree[first + 2].childCount = tree[first + 2].liveCount = 1;
  tree[first + 1].proof = tree[first + 4].proof = Proof::Win;
  tree[first + 3].proof = Proof::Loss;
  EXPECT_FALSE(liveChildrenConsistent(tree));
  tree.dropLostChildren(root);
  EXPECT_TRUE(liveChildrenConsistent(tree));
  EXPECT_EQ(tree[root].liveCount, 4);
  const int order[6] = {10, 12, 13, 15, 11, 14};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(tree[first + i].move, order[i]) << "child " << i;
  EXPECT_EQ(tree[first + 1].firstChild, grandchild);
  EXPECT_EQ(tree[first + 2].proof, Proof::Loss);
  tree.dropLostChildren(root);  // nothing new: unchanged
  EXPECT_EQ(tree[root].liveCount, 4);
  EXPECT_EQ(tree[first + 3].move, 15);
}

// Searches (with the forcing checks that prove many children lost at once, and tree reuse) keep
// every node's live children first, and only those.
TEST(Search, LiveChildrenInvariantHolds) {
  Search s(kTestNodes);
  uint64_t seed = 100;
  for (const Board& b : randomPositions(60, 7)) {
    s.run(b, iterations(1500, ++seed));
    ASSERT_TRUE(liveChildrenConsistent(s.tree())) << "after a search at " << b.stoneCount() << " stones";
  }
  Board game;
  for (int ply = 0; ply < 20; ++ply) {
    const SearchResult r = s.run(game, iterations(1500, ++seed));
    ASSERT_TRUE(liveChildrenConsistent(s.tree())) << "ply " << ply;
    if (game.play(r.move) != Outcome::None) break;
  }
}

// A root with every sensible move of b as an unvisited child, in the order of their cells.
SearchTree::Index expandedRoot(SearchTree& tree, const Board& b) {
  tree.setRoot(b, SearchTree::Compaction::Early);
  const SearchTree::Index root = tree.root();
  const Bitboard moves = ruleMoves(b).sensible;
  const SearchTree::Index first = tree.allocate(size_t(popcount(moves)));
  SearchTree::Index i = first;
  for (Bitboard m = moves; m;) SearchTree::initNode(tree[i++], popLowest(m));
  tree[root].firstChild = first;
  tree[root].childCount = tree[root].liveCount = uint8_t(popcount(moves));
  return root;
}

// The defence check in the tree leaves the full solve of a child to the search's next walk into
// it (settlePendingChild). Done for every pending child in turn, in the order the eager check
// solves them, it proves exactly the same children lost, and the node's proof follows the same.
TEST(SearchForcing, LazyDefenceCheckProvesWhatTheEagerOneDoes) {
  const SearchOptions o;
  int checked = 0, pending = 0, provenLater = 0;
  for (const Board& b : randomPositions(400, 77)) {
    if (ruleMoves(b).won() || !ruleMoves(b).sensible) continue;
    SearchTree eager(256), lazy(256);
    ForcingSolver eagerSolver(o.forcingTableLog2), lazySolver(o.forcingTableLog2);
    const SearchTree::Index e = expandedRoot(eager, b), l = expandedRoot(lazy, b);
    defendByForcing(eager, eagerSolver, e, b, o.forcingLeafDepth, o.forcingLeafNodes, UINT64_MAX, false);
    defendByForcing(lazy, lazySolver, l, b, o.forcingLeafDepth, o.forcingLeafNodes, UINT64_MAX, true);
    for (bool settled = true; settled;) {
      settled = false;
      for (SearchTree::Index i = lazy[l].firstChild; i < lazy[l].firstChild + lazy[l].liveCount; ++i) {
        if (lazy[i].forcingMark != ForcingMark::kPending) continue;
        ASSERT_EQ(lazy[i].proof, Proof::Unknown);
        ++pending;
        if (settlePendingChild(lazy, lazySolver, l, i, b, o.forcingLeafDepth, o.forcingLeafNodes))
          ++provenLater;  // the child moved behind the live ones
        else
          ASSERT_EQ(lazy[i].forcingMark, ForcingMark::kNoForcedWin);
        settled = true;
        break;  // a proof reorders the children: look again from the first
      }
    }
    ++checked;
    ASSERT_EQ(eager[e].liveCount, lazy[l].liveCount) << b.stoneCount() << " stones";
    ASSERT_EQ(eager[e].proof, lazy[l].proof);
    ASSERT_TRUE(liveChildrenConsistent(lazy));
    Bitboard lostEager = 0, lostLazy = 0;  // behind the live children, in the order they were proven
    for (int k = 0; k < eager[e].childCount; ++k) {
      const SearchNode &x = eager[eager[e].firstChild + k], &y = lazy[lazy[l].firstChild + k];
      if (k >= eager[e].liveCount) {
        lostEager |= bit(x.move), lostLazy |= bit(y.move);
        continue;
      }
      ASSERT_EQ(x.move, y.move) << "the same live children, in the same order";
      ASSERT_EQ(x.proof, y.proof) << cellName(x.move);
    }
    ASSERT_EQ(lostEager, lostLazy) << "the same children proven lost";
  }
  EXPECT_GT(checked, 200);
  EXPECT_GT(pending, 100);
  EXPECT_GT(provenLater, 10);
}

// In searches, a child stays pending only until the search walks into it again: it was marked
// when its parent reached its check visit, when the child had at most that many visits, and it
// never gets more while pending (the root's own check, after tree reuse, may prove it lost). The
// checks of the root, its children and grandchildren leave nothing pending.
// Children answered "no forced win" skip that question later.
TEST(Search, PendingChildrenAreSolvedBeforeTheSearchWalksIntoThem) {
  Search s(kTestNodes);
  // A parent checks at its check visit and, when that check was cut short, again at the retry
  // visit: a child marked then has fewer visits than its parent had.
  const uint32_t checkVisit = std::max(s.options().forcingVisits, s.options().forcingRetryVisits);
  int pending = 0, answered = 0;
  uint64_t seed = 500;
  for (const Board& b : randomPositions(30, 9)) {
    const bool fresh = !s.run(b, iterations(20000, ++seed)).reused;
    std::vector<std::pair<SearchTree::Index, int>> stack{{s.tree().root(), 0}};  // node, plies below the root
    while (!stack.empty()) {
      const auto [index, plies] = stack.back();
      const SearchNode& n = s.tree()[index];
      stack.pop_back();
      if (n.forcingMark == ForcingMark::kPending) {  // proven lost by a root's own check at most
        ++pending;
        ASSERT_TRUE(n.proof == Proof::Unknown || n.proof == Proof::Win);
        ASSERT_LE(n.visits, checkVisit) << "a pending child was walked into unsolved";
        // The checks of the root and of its children and grandchildren solve every child at once.
        if (fresh) {
          ASSERT_GT(plies, 3);
        }
      }
      answered += n.forcingMark == ForcingMark::kNoForcedWin;
      for (SearchTree::Index i = n.firstChild; n.firstChild && i < n.firstChild + n.childCount; ++i)
        stack.push_back({i, plies + 1});
    }
  }
  EXPECT_GT(pending, 100);
  EXPECT_GT(answered, 100);
}

// The cheap first check (SearchOptions::forcingFirstNodes): a node whose check its small budget
// cut short is checked again, with the full budget, when it reaches the retry visit, and only then.
// With a first budget of one solver node nearly every check is cut short.
TEST(SearchForcing, ChecksCutShortAreMadeAgainAtTheRetryVisit) {
  SearchOptions o;
  o.forcingFirstNodes = 1;
  Search s(kTestNodes, o);
  int waiting = 0, checkedTwice = 0;
  uint64_t seed = 900;
  for (const Board& b : randomPositions(20, 13)) {
    s.reset();
    s.run(b, iterations(20000, ++seed));
    for (SearchTree::Index i = 0; i < s.tree().used(); ++i) {
      const SearchNode& n = s.tree()[i];
      // (A node proven since by its children's proofs keeps its mark: it is never checked again.)
      if (n.forcingMark == ForcingMark::kRetry && n.proof == Proof::Unknown) {
        ++waiting;
        ASSERT_GT(n.visits, o.forcingVisits) << "marked by its first check";
        ASSERT_LE(n.visits, o.forcingRetryVisits) << "a check cut short was not made again";
      }
      checkedTwice += n.visits > o.forcingRetryVisits && n.firstChild;
    }
  }
  EXPECT_GT(waiting, 100);
  EXPECT_GT(checkedTwice, 100);

  // Without the retry (or with a first budget as large as the full one) nothing is ever marked.
  for (const auto& [first, retry] : {std::pair<uint32_t, uint32_t>{1, 0}, {o.forcingLeafNodes, 32}}) {
    SearchOptions once;
    once.forcingFirstNodes = first, once.forcingRetryVisits = retry;
    Search t(kTestNodes, once);
    for (const Board& b : randomPositions(5, 13)) {
      t.reset();
      t.run(b, iterations(20000, ++seed));
      for (SearchTree::Index i = 0; i < t.tree().used(); ++i) ASSERT_NE(t.tree()[i].forcingMark, ForcingMark::kRetry);
    }
  }
}

// Pondering (ponder.h): the search goes on at the position our answer left until it is stopped,
// and the next turn, one ply below, reuses that tree.
TEST(Ponder, PonderedTreeIsReusedByTheNextTurn) {
  Search s(kTestNodes);
  Board b = Board::fromStones(cellsAt({{4, 4}, {2, 3}}), cellsAt({{3, 3}, {5, 5}}), 0);
  const SearchResult ours = s.run(b, iterations(2000));
  ASSERT_TRUE(b.isLegal(ours.move));
  ASSERT_EQ(b.play(ours.move), Outcome::None);
  uint64_t pondered = 0;
  {
    // Short pondering spells, as between turns, until one got CPU time (a loaded or sanitised test
    // run may give a 50 ms spell none; 2 minutes of them is a hang): each restarts on the same
    // root and keeps its tree.
    Ponderer ponderer(s);
    for (int spell = 0; spell < 2400 && pondered == 0; ++spell) {
      ponderer.start(b, 5 + uint64_t(spell));
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      pondered += ponderer.stop();
    }
    EXPECT_EQ(ponderer.stop(), 0u) << "a second stop has nothing to stop";
  }
  EXPECT_GT(pondered, 0u);
  EXPECT_TRUE(s.tree().rootBoard() == b) << "the pondered root is the position after our move";
  EXPECT_GE(s.tree()[s.tree().root()].visits, pondered);
  EXPECT_TRUE(liveChildrenConsistent(s.tree()));
  const Cell reply = lowestCell(b.legalMoves() & ~b.losingCells(b.toMove()));
  ASSERT_EQ(b.play(reply), Outcome::None);
  const SearchResult next = s.run(b, iterations(10));
  EXPECT_TRUE(next.reused);
  EXPECT_GT(next.nodes, 10u) << "the subtree grown while pondering is kept";
  EXPECT_TRUE(b.isLegal(next.move));
}

// A root the pondering proves (the side to move wins at once) ends the thread without a stop;
// stopping a ponderer that never started, or destroying a running one, is harmless.
TEST(Ponder, EndsByItselfOnAProvenRootAndStopsCleanly) {
  Search s(kTestNodes);
  const Board win = Board::fromStones(cellsAt({{0, 4}, {1, 4}, {3, 4}}), cellsAt({{4, 0}, {4, 8}, {8, 4}}), 0);
  std::atomic<bool> never{false};
  EXPECT_LE(s.ponder(win, never, 1), 2u);
  EXPECT_EQ(s.tree()[s.tree().root()].proof, Proof::Win);
  Ponderer idle(s);
  EXPECT_EQ(idle.stop(), 0u);
  Ponderer running(s);
  running.start(Board(), 2);
}  // `running` stops and joins in its destructor

// The RAVE update adds a visit and its half-points to both AMAF counters in one 64-bit addition;
// each counter must get exactly its own part, also when the other one is large.
TEST(SearchNode, AddAmafUpdatesBothCounters) {
  SearchNode n;
  SearchTree::initNode(n, 7);
  n.amafVisits = 0x7fffffffu;
  n.amafHalfPoints = 5;
  n.addAmaf(1 | uint64_t(2) << 32);
  EXPECT_EQ(n.amafVisits, 0x80000000u);
  EXPECT_EQ(n.amafHalfPoints, 7u);
  n.addAmaf(0);
  EXPECT_EQ(n.amafVisits, 0x80000000u);
  EXPECT_EQ(n.amafHalfPoints, 7u);
  n.addAmaf(1);
  EXPECT_EQ(n.amafVisits, 0x80000001u);
  EXPECT_EQ(n.amafHalfPoints, 7u);
  EXPECT_EQ(n.visits, 0u);
  EXPECT_EQ(n.move, 7);
}

}  // namespace
}  // namespace yav
