// Proof-number search (tools/proof/proof_search.h) against full minimax on the reference rules,
// certificates (tools/proof/certificate.h) read back by the independent checker, and the
// command-line behaviour of bookgen prove and bookgen certificate.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "endgame.h"
#include "tests/random_positions.h"
#include "tests/reference_rules.h"
#include "tests/reference_solver.h"
#include "tests/test_util.h"
#include "tools/arena/openings.h"
#include "tools/book/db_folder.h"
#include "tools/proof/certificate.h"
#include "tools/proof/proof_state.h"
#include "tools/proof/prove.h"
#include "tools/proof/proof_search.h"
#include "tools/common/moves_text.h"

namespace yav::proof {
namespace {

using namespace yav::book;

using reference::ReferenceBoard;
using reference::ReferenceSolver;
using reference::RefOutcome;

// +1 / 0 / -1: the game value for the side to move, by full minimax of every legal move.
int minimaxValue(const ReferenceBoard& r) {
  ReferenceSolver solver;
  return solver.value(r);
}

// The searches' own solvers are kept out of the way (no exact solver, threat sequences of one
// move), so that the proof numbers themselves decide.
ProofSearchOptions bareOptions() {
  ProofSearchOptions o;
  o.endgameCells = 0;
  o.forcingDepth = 1;
  o.quietProofNumber = 1;  // with threat sequences of one move, nearly every node would be quiet
  return o;
}

// A disproof marked as the defender's win (kDefenderWins) is one: never a draw. Most of the
// defender's wins are marked, and its winning move is named as the attacker's is.
TEST(ProofSearch, VerdictsMatchFullMinimaxForBothClaims) {
  Rng rng(5150);
  int wins = 0, notWins = 0, draws = 0, defenderWins = 0, markedDefenderWins = 0, tested = 0;
  testing_positions::DrawnBoard drawn;
  while (tested < 120) {
    testing_positions::Pair p;
    if (tested % 3 == 0) {  // a third of the positions lie on the way to a drawn board, a new one every 10
      if (tested % 30 == 0) drawn = testing_positions::drawnBoard(rng);
      p = testing_positions::drawnGamePrefix(rng, drawn, 9 + int(rng.below(4)));
    } else if (!testing_positions::randomPosition(rng, 51 + int(rng.below(3)), p)) {
      continue;
    }
    if (p.fast.winningCells(p.fast.toMove())) continue;
    const int value = minimaxValue(p.slow);  // 8 to 12 empty cells
    for (int attacker = 0; attacker < 2; ++attacker) {
      ProofSearch search(bareOptions());
      const ProofNumbers n = search.run(p.fast, attacker, 1u << 22);
      ASSERT_TRUE(n.settled()) << "position " << tested;
      const int attackerValue = attacker == p.fast.toMove() ? value : -value;
      ASSERT_EQ(n.proven(), attackerValue == 1)
          << "position " << tested << ", attacker " << attacker << ", value " << value;
      if (n.defenderWins()) {
        ASSERT_EQ(attackerValue, -1) << "position " << tested << ", attacker " << attacker;
      }
      wins += attackerValue == 1, notWins += attackerValue != 1, draws += value == 0;
      defenderWins += attackerValue == -1, markedDefenderWins += n.defenderWins();
      if (moverProof(n, attacker == p.fast.toMove()) == Proof::Win) {  // the move it names keeps the win
        const Cell m = search.winningMove(p.fast, attacker);
        ASSERT_NE(m, kNoCell);
        ReferenceBoard next = p.slow;
        const RefOutcome o = next.play(m);
        ASSERT_TRUE(o == RefOutcome::Win || (o == RefOutcome::None && minimaxValue(next) == -1)) << cellName(m);
      }
    }
    ++tested;
  }
  EXPECT_GT(wins, 30);
  EXPECT_GT(notWins, 30);
  EXPECT_GT(draws, 10);
  EXPECT_GT(markedDefenderWins, defenderWins * 3 / 4) << "of " << defenderWins;
  std::printf("%d claims won, %d not (%d draws); %d of the %d defenders' wins marked\n", wins, notWins, draws,
              markedDefenderWins, defenderWins);
}

// Later positions, where the exact endgame solver (checked against minimax in test_endgame.cpp)
// is the reference: 13 to 16 empty cells.
TEST(ProofSearch, VerdictsMatchTheEndgameSolverWithMoreEmptyCells) {
  Rng rng(77);
  EndgameSolver exact(20);
  int tested = 0, proven = 0;
  while (tested < 24) {
    testing_positions::Pair p;
    if (!testing_positions::randomPosition(rng, 45 + int(rng.below(4)), p) || p.fast.winningCells(p.fast.toMove()))
      continue;
    const EndgameResult e = exact.solve(p.fast, uint64_t(1) << 26);
    if (!e.solved) continue;
    ProofSearchOptions o;
    o.endgameCells = 0;
    ProofSearch search(o);
    const ProofNumbers n = search.run(p.fast, p.fast.toMove(), 1u << 22);
    ASSERT_TRUE(n.settled());
    ASSERT_EQ(n.proven(), e.value == 1) << "position " << tested;
    proven += n.proven(), ++tested;
  }
  EXPECT_GT(proven, 3);
  EXPECT_LT(proven, 21);
}

// The defence zone (a child outside the opponent's pass line, or beaten by it, is settled for the
// opponent without its own solve) and the move order (which of the tied children is entered
// first) change which positions are solved how, never a verdict or a winning move: each of the
// four settings against the exact solver, 14 to 18 empty cells.
TEST(ProofSearch, TheDefenceZoneAndTheMoveOrderKeepEveryVerdictAndWinningMove) {
  Rng rng(4242);
  EndgameSolver exact(20);
  uint64_t zoneSettled = 0;
  int tested = 0, orderChangedTheWork = 0;
  while (tested < 40) {
    testing_positions::Pair p;
    if (!testing_positions::randomPosition(rng, 43 + int(rng.below(5)), p) || p.fast.winningCells(p.fast.toMove()))
      continue;
    const EndgameResult e = exact.solve(p.fast, uint64_t(1) << 26);
    if (!e.solved) continue;
    for (const bool zone : {false, true}) {
      uint64_t expansionsByOrder[2] = {};
      for (const bool order : {false, true}) {
        ProofSearchOptions o;
        o.endgameCells = 0, o.defenceZone = zone, o.moveOrder = order;
        for (int attacker = 0; attacker < 2; ++attacker) {
          ProofSearch search(o);
          const ProofNumbers n = search.run(p.fast, attacker, 1u << 22);
          ASSERT_TRUE(n.settled());
          const bool attackerWins = attacker == p.fast.toMove() ? e.value == 1 : e.value == -1;
          ASSERT_EQ(n.proven(), attackerWins) << "position " << tested << ", zone " << zone << ", order " << order;
          zoneSettled += search.zoneSettled();
          expansionsByOrder[order] += search.expansions();
          if (!attackerWins || attacker != p.fast.toMove()) continue;
          const Cell m = search.winningMove(p.fast, attacker);
          ASSERT_NE(m, kNoCell);
          Board next = p.fast;
          if (next.play(m) != Outcome::None) continue;  // a winning cell
          const EndgameResult after = exact.solve(next, uint64_t(1) << 26);
          ASSERT_TRUE(after.solved && after.value == -1) << "position " << tested << ": " << cellName(m);
        }
      }
      orderChangedTheWork += expansionsByOrder[0] != expansionsByOrder[1];
    }
    ++tested;
  }
  EXPECT_GT(zoneSettled, 100u);       // the zone was used, not only allowed
  EXPECT_GT(orderChangedTheWork, 3);  // and so was the order (in 6 of the 80 pairs of searches)
}

// The MCTS-solver leaves (options.mctsIterations): a node it proves at its first expansion is
// settled for the side its proof names, and the winning move of a node it settled, whose children
// the search never made, still comes out of winningMove. Endgames of 14-18 empty cells, where the
// MCTS-solver settles the root (its own exact solver at the root), checked with the exact solver
// (kept out of the proof search); then three 2-stone replies player 1 wins, where it settles
// nodes below the root, each claim against the verdict of the search without it.
TEST(ProofSearch, TheMctsSolversLeavesKeepEveryVerdictAndWinningMove) {
  Rng rng(777);
  EndgameSolver exact(20);
  int tested = 0, wonRootsSettledByMcts = 0;
  ProofSearchOptions o;
  o.endgameCells = 0, o.mctsIterations = 300, o.mctsPlies = 3;
  while (tested < 12 || wonRootsSettledByMcts < 3) {
    ASSERT_LT(tested, 400) << "too few won roots that the MCTS-solver settles";
    testing_positions::Pair p;
    if (!testing_positions::randomPosition(rng, 43 + int(rng.below(5)), p) || p.fast.winningCells(p.fast.toMove()))
      continue;
    const EndgameResult e = exact.solve(p.fast, uint64_t(1) << 26);
    if (!e.solved) continue;
    for (int attacker = 0; attacker < 2; ++attacker) {
      ProofSearch search(o);
      const ProofNumbers n = search.run(p.fast, attacker, 1u << 22);
      ASSERT_TRUE(n.settled());
      const bool attackerWins = attacker == p.fast.toMove() ? e.value == 1 : e.value == -1;
      ASSERT_EQ(n.proven(), attackerWins) << "position " << tested << ", attacker " << attacker;
      if (!attackerWins && e.value != 0) {
        EXPECT_TRUE(n.defenderWins()) << "position " << tested;
      }
      if (e.value != 1 || search.mctsSettled() == 0) continue;
      wonRootsSettledByMcts += search.expansions() == 1;
      const Cell m = search.winningMove(p.fast, attacker);  // the mover's win, for either claim
      ASSERT_NE(m, kNoCell) << "position " << tested;
      Board next = p.fast;
      if (next.play(m) != Outcome::None) continue;  // a winning cell
      const EndgameResult after = exact.solve(next, uint64_t(1) << 26);
      ASSERT_TRUE(after.solved && after.value == -1) << "position " << tested << ": " << cellName(m);
    }
    ++tested;
  }
  uint64_t settledBelowTheRoot = 0;
  o = ProofSearchOptions{};
  o.mctsIterations = 300, o.mctsPlies = 2;
  for (const char* moves : {"3 2; 0 6", "1 1; 4 6", "1 1; 5 3"}) {
    Board won;
    std::string error;
    ASSERT_TRUE(playMoves(moves, won, error)) << error;
    for (int attacker = 0; attacker < 2; ++attacker) {
      ProofSearch search(o);
      const ProofNumbers n = search.run(won, attacker, 200000);
      EXPECT_TRUE(attacker == won.toMove() ? n.proven() : n.defenderWins()) << moves << ", attacker " << attacker;
      settledBelowTheRoot += search.mctsSettled();
    }
  }
  EXPECT_GT(settledBelowTheRoot, 10u);  // the MCTS-solver settled nodes there, not only was allowed to
}

// A setting that only orders or defers the search's work, checked where it applies: three 2-stone
// replies that player 1 wins, and the position after its winning move, each claim searched with the
// setting off and on (set(options, on)). Every verdict must stay, the defender's wins marked as
// such; `counter` (how often a search used the setting) must be 0 with it off, and is summed over
// the searches with it on into `used`. Returns how many of the 12 pairs differ in their expansions.
template <class Set, class Counter>
int searchesChangedKeepingEveryVerdict(Set set, Counter counter, uint64_t& used) {
  int changed = 0;
  for (const char* moves : {"3 2; 0 6", "1 1; 4 6", "1 1; 5 3"}) {
    Board won;
    std::string error;
    EXPECT_TRUE(playMoves(moves, won, error)) << error;
    ProofSearch first;
    EXPECT_TRUE(first.run(won, won.toMove(), 200000).proven()) << moves;
    Board lost = won;  // after player 1's winning move: player 2 to move, lost
    EXPECT_EQ(lost.play(first.winningMove(won, won.toMove())), Outcome::None) << moves;
    for (const bool afterTheWin : {false, true})
      for (int attacker = 0; attacker < 2; ++attacker) {
        const Board& b = afterTheWin ? lost : won;
        const bool attackerWins = (attacker == b.toMove()) != afterTheWin;
        uint64_t expansions[2] = {};
        for (const bool on : {false, true}) {
          ProofSearchOptions o;
          set(o, on);
          ProofSearch search(o);
          const ProofNumbers n = search.run(b, attacker, 400000);
          EXPECT_TRUE(attackerWins ? n.proven() : n.defenderWins())
              << moves << (afterTheWin ? " and the winning move" : "") << ", setting " << on << ", attacker "
              << attacker;
          expansions[on] = search.expansions();
          if (on)
            used += counter(search);
          else
            EXPECT_EQ(counter(search), 0u);
        }
        changed += expansions[0] != expansions[1];
      }
  }
  return changed;
}

// The quiet pass (a new child left unsolved when the pass test found the opponent no threat
// sequence and the child's stone makes no run of 3 with its mover's) only defers solves: a child
// it leaves open that has a threat sequence after all (the line turns a forced block and the
// child's stone into the mover's 3) gets it from its own children's solves. Sparse positions,
// where it applies (in endgames nearly every cell is near a stone of each side).
TEST(ProofSearch, TheQuietPassDefersSolvesAndKeepsEveryVerdict) {
  uint64_t skipped = 0;
  const int searchesWhoseWorkChanged =
      searchesChangedKeepingEveryVerdict([](ProofSearchOptions& o, bool on) { o.quietPass = on; },
                                         [](const ProofSearch& s) { return s.quietSkipped(); }, skipped);
  EXPECT_GT(skipped, 10000u);              // the quiet pass was used, not only allowed
  EXPECT_GT(searchesWhoseWorkChanged, 2);  // and deferred solves that would have settled a child
}

// The quiet start (options.quietProofNumber): a defender-to-move child where the attacker, given a
// second move, has no threat sequence goes to that proof number when df-pn first enters it,
// unexpanded, and the parent turns to its other children. After one expansion of an
// attacker-to-move root and a budget of one more, every child left at the number is one whose
// attacker is quiet by a threat solver of its own (the number 1000, which no expanded child of a
// 2-stone position reaches); with the option off, none is. It only orders the search: the
// verdicts stay (searchesChangedKeepingEveryVerdict).
TEST(ProofSearch, TheQuietStartLeavesQuietRepliesForLaterAndKeepsEveryVerdict) {
  for (const uint32_t quietNumber : {1u, 1000u}) {
    Board b;
    std::string error;
    ASSERT_TRUE(playMoves("3 2; 0 6", b, error)) << error;  // player 1 to move
    ProofSearchOptions o;
    o.quietProofNumber = quietNumber;
    ProofSearch search(o);
    search.run(b, b.toMove(), 2);
    ForcingSolver threats(16);
    int quiet = 0, entered = 0;
    for (const ProofSearch::Child& c : search.children(b, b.toMove())) {
      if (c.terminal != ProofSearch::Terminal::None) continue;
      const ProofNumbers n = search.lookup(c.board, b.toMove());
      if (n.settled() || n.pn == 1) continue;
      ++entered;
      if (n.pn != 1000) continue;
      const ForcingResult f = threats.solve(c.board.passed(), o.forcingDepth, o.forcingNodes);
      EXPECT_FALSE(f.win || f.cutShort) << cellName(c.move);
      ++quiet;
    }
    EXPECT_EQ(quiet > 0, quietNumber == 1000) << quiet << " quiet children left for later of " << entered << " entered";
    // Each quiet start is a child still at the number, but for one the search may have come back
    // to and expanded, every child being quiet.
    EXPECT_GE(search.quietStarts(), uint64_t(quiet));
    EXPECT_LE(search.quietStarts(), uint64_t(quiet) + 1);
  }
  uint64_t quietStarts = 0;
  const int searchesWhoseWorkChanged =
      searchesChangedKeepingEveryVerdict([](ProofSearchOptions& o, bool on) { o.quietProofNumber = on ? 20 : 1; },
                                         [](const ProofSearch& s) { return s.quietStarts(); }, quietStarts);
  EXPECT_GT(quietStarts, 100u);            // the quiet start was used, not only allowed
  EXPECT_GT(searchesWhoseWorkChanged, 2);  // and it changed the search's path
}

// The killer of a depth and player comes first, then the mover's threats, then the moves by how
// often each settled a node for that player; everything else keeps its place.
TEST(MoveOrder, KillerThenThreatsThenHistoryAndOtherwiseTheGivenOrder) {
  struct Item {
    Cell move;
  };
  auto sorted = [](const MoveOrder& order, bool attacker, int stones, Bitboard threats) {
    std::vector<Item> items;
    for (Cell c = 0; c < 8; ++c) items.push_back({c});
    order.sort(items, attacker, stones, threats);
    std::vector<Cell> cells;
    for (const Item& i : items) cells.push_back(i.move);
    return cells;
  };
  MoveOrder order;
  EXPECT_EQ(sorted(order, true, 5, 0), (std::vector<Cell>{0, 1, 2, 3, 4, 5, 6, 7}));
  order.settled(true, 9, 6);
  order.settled(true, 9, 6);
  order.settled(true, 5, 2);  // the killer of 5 stones; 6 has the most history
  order.settled(false, 5, 7);
  EXPECT_EQ(sorted(order, true, 5, bit(4) | bit(1)), (std::vector<Cell>{2, 1, 4, 6, 0, 3, 5, 7}));
  EXPECT_EQ(sorted(order, true, 7, 0), (std::vector<Cell>{6, 2, 0, 1, 3, 4, 5, 7}));   // no killer at 7
  EXPECT_EQ(sorted(order, false, 5, 0), (std::vector<Cell>{7, 0, 1, 2, 3, 4, 5, 6}));  // the other player's
}

TEST(ProofSearch, ABudgetLeavesTheRootOpenAndALargerOneContinues) {
  Board b;  // the empty board: far from settled
  ProofSearch search(bareOptions());
  const ProofNumbers first = search.run(b, 0, 10);
  EXPECT_FALSE(first.settled());
  EXPECT_GE(search.expansions(), 10u);
  EXPECT_LE(search.expansions(), 12u);  // the budget is checked between children
  const uint64_t before = search.expansions();
  search.run(b, 0, 50);
  EXPECT_GT(search.expansions(), before);
}

// A late position where the player to move wins, and its moves from the empty board.
struct WonPosition {
  Board board;
  std::string moves;
};
WonPosition wonLatePosition(uint64_t seed, int stones) {
  Rng rng(seed);
  EndgameSolver exact(18);
  for (;;) {
    Board b;
    std::string moves;
    bool ok = true;
    for (int n = 0; n < stones && ok; ++n) {
      const int me = b.toMove();
      const Bitboard threats = b.winningCells(me ^ 1);
      Bitboard choice = (threats ? threats : b.empty()) & ~b.losingCells(me) & ~b.winningCells(me);
      if (!choice || b.winningCells(me))
        ok = false;
      else {
        const Cell c = randomCell(choice, rng);
        b.play(c);
        moves += (moves.empty() ? "" : "; ") + cellName(c);
      }
    }
    if (!ok || b.winningCells(b.toMove()) || b.winningCells(b.toMove() ^ 1)) continue;
    const EndgameResult e = exact.solve(b, uint64_t(1) << 24);
    if (e.solved && e.value == 1) return {b, moves};
  }
}

// A full table stops a run, so a long search's memory stays bounded (a prove run once grew to
// 18 GB and was killed); forgetting makes room, and the search goes on to the same verdict.
// The table finds every position it holds after it grows and after it forgets some, with their
// numbers and flags; inserting keeps the slots where they are.
TEST(ProofTable, PositionsAreFoundAfterGrowingAndForgetting) {
  ProofTable table(5000);
  Rng rng(3);
  std::vector<ProofKey> keys;
  std::vector<ProofTable::Slot*> slots;
  auto keyNumber = [](size_t i) { return ProofNumbers{uint32_t(i + 1), uint32_t(2 * i + 1)}; };
  while (table.canGrow() || table.hasRoom()) {
    if (!table.hasRoom()) {
      table.grow();
      for (size_t i = 0; i < keys.size(); ++i) slots[i] = table.find(keys[i]);
    }
    if (!table.hasRoom()) break;
    const ProofKey k{rng.next() & kFullBoard, rng.next() & kFullBoard, rng.below(2) == 1};
    const auto [slot, added] = table.insert(k);
    if (!added) continue;
    slot->numbers = keyNumber(keys.size());
    if (keys.size() % 3 == 0) slot->setExpanded();
    keys.push_back(k), slots.push_back(slot);
    for (size_t i = 0; i < keys.size(); i += 97) ASSERT_EQ(table.find(keys[i]), slots[i]) << "a slot moved";
  }
  EXPECT_GE(table.size(), 5000u);
  EXPECT_LE(table.size(), 5000u + ProofTable::kMargin);
  table.keepOnly([](const ProofTable::Slot& s) { return s.expanded(); });
  EXPECT_EQ(table.size(), (keys.size() + 2) / 3);
  for (size_t i = 0; i < keys.size(); ++i) {
    const ProofTable::Slot* s = table.find(keys[i]);
    ASSERT_EQ(s != nullptr, i % 3 == 0) << "key " << i;
    if (!s) continue;
    EXPECT_EQ(s->numbers.pn, keyNumber(i).pn);
    EXPECT_TRUE(s->expanded());
    EXPECT_EQ(s->key().mine, keys[i].mine);
    EXPECT_EQ(s->key().theirs, keys[i].theirs);
    EXPECT_EQ(s->key().attackerToMove, keys[i].attackerToMove);
  }
  table.clear();
  EXPECT_EQ(table.size(), 0u);
  EXPECT_EQ(table.find(keys[0]), nullptr);
}

// reserve() makes room for that many positions at once, within the limit: a saved state then goes
// in without the table rebuilding itself at each doubling.
TEST(ProofTable, ReserveMakesRoomAtOnceWithinTheLimit) {
  ProofTable table(100000);
  table.reserve(20000);
  const size_t room = table.loadLimit();
  EXPECT_GE(room, 20000u + ProofTable::kMargin);
  Rng rng(5);
  for (int i = 0; i < 20000; ++i) {
    ASSERT_TRUE(table.hasRoom());
    table.insert({rng.next() & kFullBoard, rng.next() & kFullBoard, false});
  }
  EXPECT_EQ(table.loadLimit(), room);
  table.reserve(1000000);
  EXPECT_FALSE(table.canGrow());
  EXPECT_GE(table.loadLimit(), 100000u);
}

// A table that takes part of another table's positions, in that table's slot order (a saved state
// read with less room than it holds), keeps them spread: the keys would otherwise arrive in the
// order of their home slots, more of them than the first slots hold, and pile up in one run that
// every insertion walks (a 3 GB state once loaded 20 million positions in 5 minutes, then
// 130,000 a minute).
TEST(ProofTable, KeysInAnotherTablesOrderDoNotPileUp) {
  ProofTable full, part;
  Rng rng(7);
  while (full.size() < 200000) {
    if (!full.hasRoom()) full.grow();
    full.insert({rng.next() & kFullBoard, rng.next() & kFullBoard, rng.below(2) == 1});
  }
  part.reserve(50000);
  full.forEach([&](const ProofTable::Slot& s) {
    if (part.size() < 50000) part.insert(s.key());
  });
  ASSERT_EQ(part.size(), 50000u);
  EXPECT_LT(part.longestProbe(), 200u) << "of " << part.loadLimit() * 4 / 3 << " slots";
  EXPECT_LT(full.longestProbe(), 200u);
}

// The first random 24-stone position that takes a search (bare options) a table of 1,000 positions
// or more: its board, the table it needs, the search's verdict and expansions.
struct BigSearch {
  Board board;
  size_t needed = 0;
  ProofNumbers verdict;
  uint64_t expansions = 0;
};
BigSearch bigSearch() {
  Rng rng(2024);
  BigSearch big;
  for (int tries = 0; tries < 200 && big.needed < 1000; ++tries) {
    testing_positions::Pair p;
    if (!testing_positions::randomPosition(rng, 24, p)) continue;
    ProofSearch unlimited(bareOptions());
    big.verdict = unlimited.run(p.fast, 0, uint64_t(1) << 40);
    big.board = p.fast, big.needed = unlimited.entries(), big.expansions = unlimited.expansions();
  }
  return big;
}

TEST(ProofSearch, AFullTableStopsTheRunAndForgettingLetsItGoOn) {
  const BigSearch big = bigSearch();
  const Board& board = big.board;
  const size_t needed = big.needed;
  const ProofNumbers verdict = big.verdict;
  ASSERT_GE(needed, 1000u);
  ASSERT_TRUE(verdict.settled());
  ProofSearchOptions capped = bareOptions();
  capped.maxEntries = needed / 2;
  ProofSearch search(capped);
  ProofNumbers n = search.run(board, 0, uint64_t(1) << 40);
  EXPECT_FALSE(n.settled()) << "a table of " << needed << " positions was needed";
  EXPECT_TRUE(search.full());
  EXPECT_LE(search.entries(), capped.maxEntries + kCells) << "the run stops within one expansion of the limit";
  for (int round = 0; round < 1000 && !n.settled(); ++round) {
    search.forget();
    EXPECT_LT(search.entries(), capped.maxEntries / 2 + 1);
    n = search.run(board, 0, uint64_t(1) << 40);
    EXPECT_LE(search.entries(), capped.maxEntries + kCells);
  }
  EXPECT_TRUE(n.settled()) << "pn " << n.pn << " dn " << n.dn;
  EXPECT_EQ(n.proven(), verdict.proven());
  std::printf("a table of %zu positions settles it; one of %zu, forgetting, too\n", needed, capped.maxEntries);
}

// Forgetting drops the positions never expanded first: the search's tree, with its numbers, stays,
// so a table of half the size settles the position with few more expansions.
TEST(ProofSearch, ForgettingKeepsTheExpandedPositions) {
  const BigSearch big = bigSearch();
  ASSERT_GE(big.needed, 1000u);
  ProofSearchOptions capped = bareOptions();
  capped.maxEntries = big.needed / 2;
  ProofSearch search(capped);
  ProofNumbers n = search.run(big.board, 0, uint64_t(1) << 40);
  ASSERT_FALSE(n.settled());
  search.forget();
  const ProofNumbers kept = search.lookup(big.board, 0);
  EXPECT_EQ(kept.pn, n.pn) << "the root's numbers were forgotten";
  EXPECT_EQ(kept.dn, n.dn);
  int rounds = 1;
  for (; rounds < 1000 && !n.settled(); ++rounds) {
    n = search.run(big.board, 0, uint64_t(1) << 40);
    if (!n.settled()) search.forget();
  }
  EXPECT_EQ(n.proven(), big.verdict.proven());
  EXPECT_LE(search.expansions(), 2 * big.expansions) << "in " << rounds << " rounds";
  std::printf("%llu expansions with a table of %zu in %d rounds, %llu with one of %zu\n",
              static_cast<unsigned long long>(search.expansions()), capped.maxEntries, rounds,
              static_cast<unsigned long long>(big.expansions), big.needed);
}

// When the expanded positions fill half the table (a state file's, or hours of search), forgetting
// drops the unsettled ones with the most stones first: the numbers near the root stay, and the
// search goes on to its verdict. Here 60% of the table is another search's deep work (30 stones).
TEST(ProofSearch, ForgettingKeepsTheNumbersNearTheRootWhenTheExpandedFillHalfTheTable) {
  const BigSearch big = bigSearch();
  ASSERT_GE(big.needed, 1000u);
  ProofSearchOptions capped = bareOptions();
  capped.maxEntries = big.needed;
  ProofSearch search(capped);
  Rng rng(77);
  for (size_t adopted = 0; adopted < capped.maxEntries * 6 / 10;) {
    Bitboard stones[2] = {};
    for (int placed = 0; placed < 30;) {
      const Cell c = Cell(rng.below(kCells));
      if ((stones[0] | stones[1]) >> c & 1) continue;
      stones[placed++ % 2] |= bit(c);
    }
    adopted += search.adopt(ProofKey{stones[0], stones[1], false}, ProofNumbers{3, 5});
  }
  ProofNumbers n = search.run(big.board, 0, uint64_t(1) << 40);
  ASSERT_FALSE(n.settled());
  ASSERT_TRUE(search.full());
  search.forget();
  EXPECT_LE(search.entries(), capped.maxEntries / 4);
  const ProofNumbers kept = search.lookup(big.board, 0);
  EXPECT_EQ(kept.pn, n.pn) << "the root's numbers were forgotten";
  EXPECT_EQ(kept.dn, n.dn);
  for (int rounds = 0; rounds < 1000 && !n.settled(); ++rounds) {
    n = search.run(big.board, 0, uint64_t(1) << 40);
    if (!n.settled()) search.forget();
  }
  EXPECT_EQ(n.proven(), big.verdict.proven());
}

// A search stopped halfway and saved (proof_state.h) goes on from the file: the resumed search
// settles the position with the verdict of an uninterrupted one, in fewer new expansions than a
// search from scratch needs.
TEST(ProofState, ASearchResumedFromItsFileGoesOnWhereItStopped) {
  const BigSearch big = bigSearch();
  ASSERT_GE(big.needed, 1000u);
  const std::string path = scratchPath("half.state");
  ProofSearch first(bareOptions());
  ASSERT_FALSE(first.run(big.board, 0, big.expansions / 2).settled());
  StateWritten saved;
  uint64_t read = 0;
  std::string error;
  ASSERT_TRUE(saveProofState(path, {&first}, 0, saved, error)) << error;
  const uint64_t written = saved.positions;
  size_t expanded = 0;
  first.forEachExpanded([&](const ProofKey&, ProofNumbers) { ++expanded; });
  EXPECT_EQ(written, expanded);
  EXPECT_EQ(saved.leftOut, 0u);
  StateWritten twice;  // two threads holding the same positions write each once
  ASSERT_TRUE(saveProofState(scratchPath("twice.state"), {&first, &first}, 0, twice, error)) << error;
  EXPECT_EQ(twice.positions, expanded);
  ProofSearch resumed(bareOptions()), capped(bareOptions());
  ASSERT_TRUE(loadProofState(path, {&resumed}, 0, read, error)) << error;
  EXPECT_EQ(read, written);
  EXPECT_EQ(resumed.lookup(big.board, 0).pn, first.lookup(big.board, 0).pn);
  EXPECT_EQ(resumed.lookup(big.board, 0).dn, first.lookup(big.board, 0).dn);
  const ProofNumbers n = resumed.run(big.board, 0, uint64_t(1) << 40);
  EXPECT_EQ(n.proven(), big.verdict.proven());
  EXPECT_EQ(n.settled(), big.verdict.settled());
  EXPECT_LT(resumed.expansions(), big.expansions * 3 / 4) << "of " << big.expansions << " from scratch";
  std::printf("%llu expansions from scratch; %llu, then %llu after reading %llu positions\n",
              static_cast<unsigned long long>(big.expansions), static_cast<unsigned long long>(first.expansions()),
              static_cast<unsigned long long>(resumed.expansions()), static_cast<unsigned long long>(read));
  // A reader with less room takes the settled positions first.
  ASSERT_TRUE(loadProofState(path, {&capped}, 10, read, error)) << error;
  EXPECT_EQ(capped.entries(), 10u);
  capped.forEachExpanded([](const ProofKey&, ProofNumbers m) { EXPECT_TRUE(m.settled()); });
  // With room for the settled ones and half the open ones, it takes the open ones with the fewest
  // stones: none it left out has fewer than one it took.
  size_t settledCount = 0, openCount = 0;
  first.forEachExpanded([&](const ProofKey&, ProofNumbers m) { ++(m.settled() ? settledCount : openCount); });
  ASSERT_GE(openCount, 20u);
  ProofSearch half(bareOptions());
  ASSERT_TRUE(loadProofState(path, {&half}, settledCount + openCount / 2, read, error)) << error;
  EXPECT_EQ(half.entries(), settledCount + openCount / 2);
  int mostTaken = -1, fewestLeft = kCells + 1;
  first.forEachExpanded([&](const ProofKey& k, ProofNumbers m) {
    if (m.settled()) {
      EXPECT_NE(half.expandedNumbers(k), nullptr);
      return;
    }
    const int stones = popcount(k.mine | k.theirs);
    if (half.expandedNumbers(k))
      mostTaken = std::max(mostTaken, stones);
    else
      fewestLeft = std::min(fewestLeft, stones);
  });
  EXPECT_LE(mostTaken, fewestLeft) << "an open position of " << mostTaken << " stones was read, one of " << fewestLeft
                                   << " left out";
  // No file: a first run, nothing read.
  ProofSearch fresh(bareOptions());
  EXPECT_TRUE(loadProofState(scratchPath("none.state"), {&fresh}, 0, read, error));
  EXPECT_EQ(read, 0u);
}

// Without --table, prove gives a thread four times a state's positions (it reads a quarter of its
// table), never less than the default, within the memory; the count comes from the file's header.
TEST(ProofState, ATableWithoutASizeHoldsTheStateFourTimesWithinTheMemory) {
  const uint64_t gib = uint64_t(1) << 30;
  EXPECT_EQ(tableForState(120000000, 0, 64 * gib, 2), 120000000u);           // no state: the default
  EXPECT_EQ(tableForState(120000000, 50000000, 64 * gib, 2), 200000000u);    // the state whole
  EXPECT_EQ(tableForState(120000000, 50000000, 12 * gib, 2), 9 * gib / 96);  // as much as fits in 3/4 of the memory
  EXPECT_EQ(tableForState(120000000, 0, 4 * gib, 4), 3 * gib / 192);         // the default too
  EXPECT_EQ(tableForState(120000000, 0, 0, 1), 1000u);
  // At their peak (48 bytes a position a thread) the tables leave a quarter of the memory.
  for (const int threads : {1, 2, 4})
    EXPECT_LE(uint64_t(tableForState(120000000, 107630836, 24 * gib, threads)) * 48 * threads, 18 * gib) << threads;
  const BigSearch big = bigSearch();
  ProofSearch search(bareOptions());
  search.run(big.board, 0, big.expansions / 2);
  const std::string path = scratchPath("count.state");
  StateWritten written;
  std::string error;
  ASSERT_TRUE(saveProofState(path, {&search}, 0, written, error)) << error;
  EXPECT_EQ(proofStatePositions(path), written.positions);
  EXPECT_EQ(proofStatePositions(scratchPath("none.state")), 0u);
}

// A damaged or truncated state is rejected with its name and the byte, and nothing of it is read.
TEST(ProofState, ADamagedFileIsRejectedWithItsByteAndNothingRead) {
  const BigSearch big = bigSearch();
  ProofSearch search(bareOptions());
  search.run(big.board, 0, big.expansions / 2);
  const std::string path = scratchPath("good.state");
  StateWritten written;
  uint64_t read = 0;
  std::string error;
  ASSERT_TRUE(saveProofState(path, {&search}, 0, written, error)) << error;
  ASSERT_GE(written.positions, 3u);
  const std::string good = readFile(path);
  auto rejects = [&](const std::string& bytes, const std::string& reason) {
    const std::string bad = scratchPath("bad.state");
    std::ofstream(bad, std::ios::binary) << bytes;
    ProofSearch reader(bareOptions());
    std::string why;
    EXPECT_FALSE(loadProofState(bad, {&reader}, 0, read, why)) << reason;
    EXPECT_NE(why.find(bad + ": "), std::string::npos) << why;
    EXPECT_NE(why.find(reason), std::string::npos) << why;
    EXPECT_EQ(reader.entries(), 0u) << why;
  };
  rejects(good.substr(0, good.size() - 30), "truncated at byte " + std::to_string(good.size() - 30));
  rejects("x" + good.substr(1), "byte 0: not a proof state file");
  rejects(good + "z", "bytes after the checksum");
  std::string overlap = good;  // the second position's other player holds its mover's cells
  std::copy(overlap.begin() + 48, overlap.begin() + 56, overlap.begin() + 56);
  overlap[63] = char(overlap[63] & 0x7F);
  rejects(overlap, "byte 48: position 2: a cell with two stones");
  std::string flipped = good;
  flipped.back() ^= 1;
  rejects(flipped, "byte " + std::to_string(good.size() - 8) + ": the checksum does not match");
}

// A bounded write (--state-max-mb) is never longer than its bound, whatever the tables hold, and
// the file it leaves is a whole state: read back, it gives exactly the positions written.
TEST(ProofState, ABoundedStateIsNeverLongerThanItsBound) {
  const BigSearch big = bigSearch();
  ProofSearch first(bareOptions()), second(bareOptions());
  ASSERT_FALSE(first.run(big.board, 0, big.expansions / 2).settled());
  second.run(big.board, 0, big.expansions / 3);
  const std::string path = scratchPath("bounded.state");
  StateWritten whole, bounded;
  std::string error;
  ASSERT_TRUE(saveProofState(path, {&first, &second}, 0, whole, error)) << error;
  ASSERT_GE(whole.positions, 100u);
  const uint64_t wholeBytes = readFile(path).size();
  for (const uint64_t bound :
       {wholeBytes - 1, wholeBytes / 2, wholeBytes / 7, uint64_t(24 + 8 + 24 * 5 + 23), uint64_t(40), wholeBytes}) {
    ASSERT_TRUE(saveProofState(path, {&first, &second}, bound, bounded, error)) << error;
    const uint64_t bytes = readFile(path).size();
    EXPECT_LE(bytes, bound) << "a bound of " << bound << " bytes";
    EXPECT_GT(bytes + 24, std::min(bound, wholeBytes)) << "the bound left room for one more position";
    EXPECT_EQ(bounded.positions + bounded.leftOut, whole.positions) << bound;
    ProofSearch reader(bareOptions());
    uint64_t read = 0;
    ASSERT_TRUE(loadProofState(path, {&reader}, 0, read, error)) << error;
    EXPECT_EQ(read, bounded.positions);
    EXPECT_EQ(reader.entries(), bounded.positions);
    // The same bound on the file itself (bookgen state --max-mb) gives the same positions.
    ASSERT_TRUE(saveProofState(path, {&first, &second}, 0, whole, error)) << error;
    StateWritten rewritten;
    ASSERT_TRUE(boundProofState(path, scratchPath("rebounded.state"), bound, rewritten, error)) << error;
    EXPECT_LE(readFile(scratchPath("rebounded.state")).size(), bound);
    EXPECT_EQ(rewritten.positions, bounded.positions) << bound;
  }
}

// Four positions whose searches take 2,000 to 10,000 expansions (bare options): the 22-stone
// positions of seed 2024 at draws 502, 608, 613 and 671, picked by searching every draw.
std::vector<Board> mediumSearchTargets() {
  Rng rng(2024);
  std::vector<Board> boards;
  for (int draw = 0; draw <= 671; ++draw) {
    testing_positions::Pair p;
    if (testing_positions::randomPosition(rng, 22, p) && (draw == 502 || draw == 608 || draw == 613 || draw == 671))
      boards.push_back(p.fast);
  }
  return boards;
}

// What a bound leaves out is worth the least: every settled position stays while they fit, and
// no open position left out has a larger thinner number min(pn, dn) (in powers of two) than one
// kept, nor, at the same, fewer stones; the target's own numbers stay.
TEST(ProofState, ABoundedStateKeepsTheSettledAndTheLargestNumbers) {
  const std::vector<Board> targets = mediumSearchTargets();
  ASSERT_EQ(targets.size(), 4u);
  ProofSearch search(bareOptions());
  const ProofNumbers atStop = search.run(targets[1], 0, 4000);
  ASSERT_FALSE(atStop.settled());
  size_t settled = 0, open = 0, openAtOne = 0;
  search.forEachExpanded([&](const ProofKey&, ProofNumbers n) {
    if (n.settled())
      ++settled;
    else
      ++open, openAtOne += std::min(n.pn, n.dn) == 1;
  });
  ASSERT_GE(open, 300u);
  ASSERT_GE(openAtOne, 100u) << "no frontier to leave out";
  const std::string path = scratchPath("valuable.state");
  const uint64_t keep = settled + open / 3;
  StateWritten written;
  std::string error;
  ASSERT_TRUE(saveProofState(path, {&search}, 24 + 8 + 24 * keep, written, error)) << error;
  ASSERT_EQ(written.positions, keep);
  ProofSearch reader(bareOptions());
  uint64_t read = 0;
  ASSERT_TRUE(loadProofState(path, {&reader}, 0, read, error)) << error;
  int worstKept = -1, bestLeft = INT_MAX;  // (kCells + 1) * (32 - width of min(pn, dn)) + stones, as a rank
  auto rank = [](const ProofKey& k, ProofNumbers n) {
    return (kCells + 1) * (32 - (32 - __builtin_clz(std::min(n.pn, n.dn)))) + popcount(k.mine | k.theirs);
  };
  search.forEachExpanded([&](const ProofKey& k, ProofNumbers n) {
    const ProofNumbers* kept = reader.expandedNumbers(k);
    if (n.settled()) {
      EXPECT_NE(kept, nullptr) << "a settled position was left out";
      return;
    }
    if (kept)
      worstKept = std::max(worstKept, rank(k, n));
    else
      bestLeft = std::min(bestLeft, rank(k, n));
  });
  EXPECT_LE(worstKept, bestLeft) << "an open position of rank " << bestLeft << " was left out, one of " << worstKept
                                 << " kept";
  EXPECT_EQ(reader.lookup(targets[1], 0).pn, atStop.pn);
  EXPECT_EQ(reader.lookup(targets[1], 0).dn, atStop.dn);
  // Room for fewer than the settled ones: those with the fewest stones.
  ASSERT_TRUE(saveProofState(path, {&search}, 24 + 8 + 24 * (settled / 2), written, error)) << error;
  ProofSearch few(bareOptions());
  ASSERT_TRUE(loadProofState(path, {&few}, 0, read, error)) << error;
  int mostKept = -1, fewestLeft = kCells + 1;
  search.forEachExpanded([&](const ProofKey& k, ProofNumbers n) {
    if (!n.settled()) {
      EXPECT_EQ(few.expandedNumbers(k), nullptr) << "an open position before a settled one";
      return;
    }
    const int stones = popcount(k.mine | k.theirs);
    if (few.expandedNumbers(k))
      mostKept = std::max(mostKept, stones);
    else
      fewestLeft = std::min(fewestLeft, stones);
  });
  EXPECT_LE(mostKept, fewestLeft);
}

// Searches stopped at three quarters and resumed from a bounded state (a third of the positions)
// settle with the same verdicts, and keep most of what a resume from the whole state saves: on
// the four targets, at least three quarters of its expansions saved against a search from
// scratch (about 85% on 2026-12-06; keeping the least valuable third saves 60-68%).
TEST(ProofState, ASearchResumedFromABoundedStateLosesLittle) {
  const std::vector<Board> targets = mediumSearchTargets();
  ASSERT_EQ(targets.size(), 4u);
  uint64_t fromScratch = 0, fromWhole = 0, fromBounded = 0;
  for (const Board& b : targets) {
    ProofSearch unlimited(bareOptions());
    const ProofNumbers verdict = unlimited.run(b, 0, uint64_t(1) << 40);
    ASSERT_TRUE(verdict.settled());
    ProofSearch first(bareOptions());
    ASSERT_FALSE(first.run(b, 0, unlimited.expansions() * 3 / 4).settled());
    const std::string wholePath = scratchPath("resume-whole.state"), boundedPath = scratchPath("resume-bounded.state");
    StateWritten whole, bounded;
    std::string error;
    ASSERT_TRUE(saveProofState(wholePath, {&first}, 0, whole, error)) << error;
    ASSERT_TRUE(saveProofState(boundedPath, {&first}, 24 + 8 + 24 * (whole.positions / 3), bounded, error)) << error;
    ASSERT_GT(bounded.leftOut, whole.positions / 2);
    auto resume = [&](const std::string& path) {
      ProofSearch search(bareOptions());
      uint64_t read = 0;
      EXPECT_TRUE(loadProofState(path, {&search}, 0, read, error)) << error;
      const ProofNumbers n = search.run(b, 0, uint64_t(1) << 40);
      EXPECT_EQ(n.proven(), verdict.proven()) << path;
      EXPECT_EQ(n.settled(), verdict.settled()) << path;
      return search.expansions();
    };
    fromScratch += unlimited.expansions(), fromWhole += resume(wholePath), fromBounded += resume(boundedPath);
  }
  std::printf("expansions to the verdicts: %llu from scratch, %llu from the whole states, %llu from a third of them\n",
              static_cast<unsigned long long>(fromScratch), static_cast<unsigned long long>(fromWhole),
              static_cast<unsigned long long>(fromBounded));
  ASSERT_LT(fromWhole, fromScratch);
  EXPECT_LE(fromBounded, fromWhole + (fromScratch - fromWhole) / 4) << "less than three quarters of the saving kept";
}

// A damaged or truncated state is not bounded: bookgen state --max-mb names the file and the
// byte, and writes nothing (the output keeps what it held).
TEST(ProofState, BoundingADamagedFileNamesItsByteAndWritesNothing) {
  const BigSearch big = bigSearch();
  ProofSearch search(bareOptions());
  search.run(big.board, 0, big.expansions / 2);
  const std::string path = scratchPath("tobound.state"), out = scratchPath("bound-out.state");
  StateWritten written;
  std::string error;
  ASSERT_TRUE(saveProofState(path, {&search}, 0, written, error)) << error;
  const std::string good = readFile(path);
  auto rejects = [&](const std::string& bytes, const std::string& reason) {
    const std::string bad = scratchPath("tobound-bad.state");
    std::ofstream(bad, std::ios::binary) << bytes;
    std::ofstream(out, std::ios::binary) << "before";
    StateWritten none;
    std::string why;
    EXPECT_FALSE(boundProofState(bad, out, 1000, none, why)) << reason;
    EXPECT_NE(why.find(bad + ": " + reason), std::string::npos) << why;
    EXPECT_EQ(readFile(out), "before") << why;
  };
  rejects(good.substr(0, good.size() - 5), "truncated at byte " + std::to_string(good.size() - 5));
  std::string flipped = good;
  flipped[24 + 24 * 2 + 20] ^= 0x40;  // the third position's dn
  rejects(flipped, "byte ");
  std::string checksum = good;
  checksum.back() ^= 1;
  rejects(checksum, "byte " + std::to_string(good.size() - 8) + ": the checksum does not match");
  StateWritten none;
  EXPECT_FALSE(boundProofState(scratchPath("no-such.state"), out, 1000, none, error));
  EXPECT_NE(error.find("no-such.state: no such file"), std::string::npos) << error;
}

// With more threads than open items, the idle threads split the busy items into their moves.
// The target's verdict, and every position the run records, agree with a search of their own.
TEST(Prover, IdleThreadsSplitItemsAndEveryRecordedProofIsRight) {
  Rng rng(91);
  int targets = 0, splitTargets = 0, splitSettled = 0, checked = 0;
  while (splitTargets < 2 && targets < 60) {  // how often items are split depends on the threads' timing
    testing_positions::Pair p;
    if (!testing_positions::randomPosition(rng, 32 + int(rng.below(5)), p) || p.fast.winningCells(p.fast.toMove()))
      continue;
    ProofSearch alone;
    const ProofNumbers expected = alone.run(p.fast, p.fast.toMove(), uint64_t(1) << 22);
    if (!expected.settled()) continue;
    ProveOptions options;
    options.threads = 4, options.firstBudget = 30, options.progressSeconds = 1e9, options.checkpointSeconds = 1e9;
    std::vector<std::pair<Board, Proof>> records;
    Prover prover(
        p.fast, p.fast.toMove(), options, nullptr,
        [&](const Board& b, Proof proof, Cell) {
          records.push_back({b, proof});
        },
        [] {});
    std::atomic<bool> stop{false};
    std::ostringstream log;
    const ProofNumbers n = prover.run(stop, log);
    ++targets;
    ASSERT_TRUE(n.settled()) << log.str();
    EXPECT_EQ(n.proven(), expected.proven()) << "target " << targets;
    bool split = false;
    for (const ProveItem& i : prover.items()) split |= !i.children.empty();
    if (!split) continue;
    ++splitTargets;
    // Every settled item below a split (its numbers from its own search or from its children's)
    // and every recorded position, against a search of its own.
    auto expectVerdict = [&](const Board& b, int attacker, bool proven, const std::string& what) {
      ProofSearch check;
      const ProofNumbers c = check.run(b, attacker, uint64_t(1) << 22);
      if (!c.settled()) return;
      EXPECT_EQ(c.proven(), proven) << what;
      ++checked;
    };
    for (const ProveItem& i : prover.items())
      if (i.numbers.settled() && (i.parent >= 0 || !i.children.empty()))
        expectVerdict(i.board, p.fast.toMove(), i.numbers.proven(), i.children.empty() ? "an item" : "a split item"),
            splitSettled += !i.children.empty();
    for (const auto& [b, proof] : records)
      expectVerdict(b, proof == Proof::Win ? b.toMove() : b.toMove() ^ 1, true,
                    "a recorded " + std::string(proofName(proof)));
  }
  EXPECT_GE(splitTargets, 1) << "no item was split in " << targets << " targets";
  EXPECT_GT(splitSettled, 0) << "no split item was settled";
  std::printf("%d targets, %d with split items (%d of them settled); %d verdicts checked\n", targets, splitTargets,
              splitSettled, checked);
}

// An item's numbers follow its search during a long turn (so progress shows the target's numbers
// as they are), not only when the turn ends.
TEST(Prover, AnItemShowsItsNumbersDuringItsTurn) {
  Rng rng(12);
  int targets = 0;
  bool seen = false;
  while (!seen && targets < 10) {  // a target its first item does not settle at once
    testing_positions::Pair p;
    if (!testing_positions::randomPosition(rng, 10, p) || p.fast.winningCells(p.fast.toMove())) continue;
    ++targets;
    ProveOptions options;
    options.threads = 1, options.firstBudget = uint64_t(1) << 40, options.sliceExpansions = 1000;
    options.progressSeconds = 1e9, options.checkpointSeconds = 0, options.search = bareOptions();
    std::atomic<bool> stop{false};
    const auto start = std::chrono::steady_clock::now();
    Prover* prover = nullptr;
    auto look = [&] {  // called under the prover's lock
      for (size_t k : prover->topItems()) {
        const ProofNumbers n = prover->items()[k].numbers;
        seen |= !n.settled() && (n.pn != 1 || n.dn != 1);
      }
      if (seen || std::chrono::steady_clock::now() - start > std::chrono::seconds(5)) stop = true;
    };
    Prover run(
        p.fast, p.fast.toMove(), options, nullptr, [](const Board&, Proof, Cell) {}, look);
    prover = &run;
    std::ostringstream log;
    run.run(stop, log);
  }
  EXPECT_TRUE(seen) << "no open item showed numbers during its turn, in " << targets << " targets";
  std::printf("seen in target %d\n", targets);
}

// A run hands its tables to the state callback every stateSeconds while every thread waits
// between two slices of its search (a table written while its thread searches would be torn),
// and the searches go on after each write.
TEST(Prover, EveryThreadWaitsWhileTheStateIsWritten) {
  Rng rng(12);
  testing_positions::Pair p;
  while (!testing_positions::randomPosition(rng, 4, p)) {
  }
  ProveOptions options;
  options.threads = 2, options.firstBudget = uint64_t(1) << 40, options.sliceExpansions = uint64_t(1) << 40;
  options.itemEpsilon =
      -1;  // turns that only a pause interrupts (df-pn's rule would end them, and settle the target at once)
  options.progressSeconds = 1e9, options.checkpointSeconds = 1e9, options.stateSeconds = 0.05;
  options.search = bareOptions();
  options.search.maxEntries = 1000000;  // 32 MB a thread, however long it runs (it forgets)
  Prover prover(
      p.fast, p.fast.toMove(), options, nullptr, [](const Board&, Proof, Cell) {}, [] {});
  auto expansions = [&] {
    uint64_t sum = 0;
    for (const ProofSearch* s : prover.searches()) sum += s->expansions();
    return sum;
  };
  std::atomic<bool> stop{false};
  std::vector<uint64_t> atSaves;
  bool searchedDuringASave = false;
  prover.saveStateWith([&] {
    const uint64_t before = expansions();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    searchedDuringASave |= expansions() != before;
    atSaves.push_back(before);
    if (atSaves.size() == 4) stop = true;
  });
  std::ostringstream log;
  const auto start = std::chrono::steady_clock::now();
  std::thread watchdog([&] {  // a thread that never pauses would hold the run at its first save
    while (!stop && std::chrono::steady_clock::now() - start < std::chrono::seconds(20))
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    stop = true;
  });
  const ProofNumbers n = prover.run(stop, log);
  watchdog.join();
  ASSERT_EQ(atSaves.size(), 4u) << "in "
                                << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()
                                << " s, the target " << (n.settled() ? "settled" : "open");
  EXPECT_FALSE(searchedDuringASave);
  EXPECT_GT(atSaves.back(), atSaves.front()) << "the searches did not go on after a save";
}

// A turn ends when its item is no longer the most proving one (df-pn's 1+epsilon rule), so one
// thread over the target's moves spends about what one df-pn search of the target spends. With
// turns ended by their budget alone, every move's first turn came first: 69,984 expansions on
// '3 2; 2 3' (2026-12-02), where the search alone takes 191. A turn the rule ends keeps its
// item's budget (a doubling at each of many short turns overflowed to a budget of 0, and the
// threads spun on turns that searched nothing).
TEST(Prover, OneThreadSpendsWhatOneSearchOfTheTargetSpends) {
  for (const char* moves : {"3 2; 2 3", "1 0; 3 1", "2 2; 4 3"}) {
    Board b;
    std::string error;
    ASSERT_TRUE(playMoves(moves, b, error)) << error;
    ProofSearch alone;
    ASSERT_TRUE(alone.run(b, b.toMove(), 1000000).proven()) << moves;
    ProveOptions options;
    options.threads = 1, options.progressSeconds = 1e9, options.checkpointSeconds = 1e9;
    options.firstBudget = uint64_t(1) << 40;  // only df-pn's rule ends a turn
    Prover prover(
        b, b.toMove(), options, nullptr, [](const Board&, Proof, Cell) {}, [] {});
    std::atomic<bool> stop{false};
    std::ostringstream log;
    EXPECT_TRUE(prover.run(stop, log).proven()) << moves;
    EXPECT_LE(prover.searches().front()->expansions(), 2 * alone.expansions() + 50)
        << moves << ": the search alone took " << alone.expansions();
    unsigned mostTurns = 0;
    for (const ProveItem& i : prover.items()) {
      mostTurns = std::max(mostTurns, i.turns);
      EXPECT_EQ(i.budget, options.firstBudget) << moves << ": no turn spent its budget";
    }
    EXPECT_GE(mostTurns, 2u) << moves;
  }
}

// Where the defender moves at the target, the next reply is df-pn's most proving one, the least
// disproof number; with --item-order cheapest, the least proof number (the proof nearest to
// done: a long run on a class left replies at pn 2 and 3 unsearched for 85 minutes, 2026-12-03).
// Each run stops at its third proven reply, with other replies searched and open.
TEST(Prover, CheapestFirstOrdersTheDefendersRepliesByProofNumber) {
  // Positions of 8-15 random quiet stones that the player not to move wins, whose proof takes a
  // search 300 to 5,000 expansions, each checked so here: the first six such among Rng(2026)'s
  // random positions, found by a scan of 274 (most of the test's time under the sanitizers).
  int targets = 0, ordersDiffer = 0;  // targets: the place in the list, for the messages
  for (const char* moves :
       {"2 8; 1 8; 0 4; 4 0; 4 5; 1 6; 2 6; 1 5; 1 7", "1 2; 0 2; 5 5; 4 5; 6 6; 1 4; 2 6; 2 3; 4 8; 6 3; 1 8",
        "1 0; 1 5; 2 5; 4 1; 1 4; 0 4; 2 2; 2 6; 0 3", "0 6; 3 0; 3 3; 0 1; 0 5; 2 0; 5 4; 7 5; 3 1; 5 5; 3 7",
        "4 0; 4 4; 4 7; 3 6; 3 1; 7 5; 6 6; 3 2; 3 3; 3 4", "4 2; 1 8; 1 6; 4 6; 1 4; 5 3; 3 2; 0 3; 2 1"}) {
    Board target;
    std::string error;
    ASSERT_TRUE(playMoves(moves, target, error)) << error;
    ASSERT_FALSE(target.winningCells(target.toMove()) || target.winningCells(target.toMove() ^ 1)) << moves;
    ProofSearch alone;
    ASSERT_TRUE(alone.run(target, target.toMove() ^ 1, 5000).proven()) << moves;
    ASSERT_GE(alone.expansions(), 300u) << moves;
    ++targets;
    for (const bool cheapest : {false, true}) {
      ProveOptions options;
      options.threads = 1, options.progressSeconds = 1e9, options.checkpointSeconds = 1e9;
      options.cheapestFirst = cheapest;
      std::atomic<bool> stop{false};
      int proven = 0;
      Prover prover(
          target, target.toMove() ^ 1, options, nullptr, [&](const Board&, Proof, Cell) { stop = ++proven >= 3; },
          [] {});
      std::ostringstream log;
      prover.run(stop, log);
      std::vector<std::pair<uint32_t, uint32_t>> numbers;  // (pn, dn) in the order of openTopItems
      for (size_t k : prover.openTopItems())
        numbers.push_back({prover.items()[k].numbers.pn, prover.items()[k].numbers.dn});
      for (size_t i = 1; i < numbers.size(); ++i) {
        if (cheapest)
          EXPECT_LE(numbers[i - 1].first, numbers[i].first) << "target " << targets << ", place " << i;
        else
          EXPECT_LE(numbers[i - 1].second, numbers[i].second) << "target " << targets << ", place " << i;
        // the other order would differ here: the test shows the choice
        ordersDiffer += cheapest ? numbers[i - 1].second > numbers[i].second : numbers[i - 1].first > numbers[i].first;
      }
    }
  }
  EXPECT_GT(ordersDiffer, 0) << "the two orders agreed on every target";
}

// The proofs a search finds below the target's moves are recorded, within recordPlies of the
// target, so that a later run starts from them; each is right, by a search of its own.
TEST(Prover, ProofsBelowTheTargetsMovesAreRecordedWithinTheirPlies) {
  Rng rng(707);
  int targets = 0, deeper = 0, checked = 0, defenderWins = 0;
  while (deeper < 20 && targets < 40) {
    testing_positions::Pair p;
    if (!testing_positions::randomPosition(rng, 36 + int(rng.below(5)), p) || p.fast.winningCells(p.fast.toMove()))
      continue;
    ++targets;
    for (const int plies : {1, 3}) {
      ProveOptions options;
      options.threads = 1, options.firstBudget = 200, options.progressSeconds = 1e9;
      options.checkpointSeconds = 0, options.sliceExpansions = 50;  // checkpoints ask often, searches look often
      options.recordPlies = plies;
      options.search = bareOptions();  // the proof numbers decide, so the searches expand many positions
      std::vector<std::pair<Board, Proof>> records;
      Prover prover(
          p.fast, p.fast.toMove(), options, nullptr,
          [&](const Board& b, Proof proof, Cell win) {
            EXPECT_TRUE(proof == Proof::Loss || win != kNoCell);
            records.push_back({b, proof});
          },
          [] {});
      std::atomic<bool> stop{false};
      std::ostringstream log;
      prover.run(stop, log);
      size_t below = 0;
      for (const auto& [b, proof] : records) {
        defenderWins += (proof == Proof::Win) != (b.toMove() == p.fast.toMove());
        const int depth = b.stoneCount() - p.fast.stoneCount();
        EXPECT_LE(depth, std::max(plies, 1)) << "recordPlies " << plies;
        if (depth < 2) continue;
        ++below;
        ProofSearch check;
        const ProofNumbers c = check.run(b, proof == Proof::Win ? b.toMove() : b.toMove() ^ 1, uint64_t(1) << 22);
        if (!c.settled()) continue;
        EXPECT_TRUE(c.proven()) << "a recorded " << proofName(proof) << " " << depth << " plies below";
        ++checked;
      }
      EXPECT_EQ(below, prover.deeperRecorded());
      if (plies == 3) deeper += int(below);
    }
  }
  EXPECT_GE(deeper, 20) << "in " << targets << " targets";
  EXPECT_GT(defenderWins, 0) << "no defender's win (a disproof without a draw) was recorded";
  std::printf("%d targets: %d proofs recorded 2-3 plies below (%d of them the defender's wins), %d checked\n", targets,
              deeper, defenderWins, checked);
}

TEST(Certificate, TextFollowsTheFormat) {
  const WonPosition won = wonLatePosition(8, 44);
  CertificateOptions options;
  options.threatDepth = 1;  // only immediate wins are leaves: the table must hold the rest
  CertificateWriter writer(nullptr, options);
  std::string error;
  ASSERT_TRUE(writer.build(won.board, won.board.toMove(), error)) << error;
  ASSERT_FALSE(writer.table().empty());
  const std::string text = certificateText(won.board, true, 1, writer.table(), {"a comment"});
  std::istringstream in(text);
  std::string line;
  std::vector<std::string> lines;
  while (std::getline(in, line)) lines.push_back(line);
  ASSERT_GE(lines.size(), 7u);
  EXPECT_EQ(lines[0], "yavalath-certificate 1");
  EXPECT_EQ(lines[1], "# a comment");
  char root[64];
  std::snprintf(root, sizeof root, "root %016llx %016llx %d", static_cast<unsigned long long>(won.board.stones(0)),
                static_cast<unsigned long long>(won.board.stones(1)), won.board.toMove() + 1);
  EXPECT_EQ(lines[2], root);
  EXPECT_EQ(lines[3], "value win");
  EXPECT_EQ(lines[4], "threat-depth 1");
  EXPECT_EQ(lines[5], "positions " + std::to_string(writer.table().size()));
  EXPECT_EQ(lines.back(), "end");
  EXPECT_EQ(lines.size(), 7 + writer.table().size());
  for (size_t i = 7; i + 1 < lines.size(); ++i) EXPECT_LT(lines[i - 1], lines[i]) << "line " << i;  // sorted, no repeat
  // Every table move is an empty cell of its position, and the root's move is in the table.
  for (const auto& [stones, move] : writer.table()) EXPECT_FALSE(((stones.first | stones.second) >> move) & 1);
  EXPECT_TRUE(writer.table().count({won.board.stones(0), won.board.stones(1)}));
}

TEST(Certificate, ALostPositionIsNotCertifiedAsWon) {
  const WonPosition won = wonLatePosition(9, 44);
  CertificateWriter writer(nullptr, CertificateOptions());
  std::string error;
  EXPECT_FALSE(writer.build(won.board, won.board.toMove() ^ 1, error));
  EXPECT_NE(error.find("disproved"), std::string::npos) << error;
}

class ProveCommand : public ::testing::Test {
 protected:
  const std::string bookgen = std::string(YAVALATH_BIN_DIR) + "/bookgen ";
  const std::string checker = std::string(YAVALATH_BIN_DIR) + "/proof_check ";
};

TEST_F(ProveCommand, RefusesIllegalAndFinishedPositions) {
  const std::string db = scratchPath("prove_refuse.db");
  const CommandRun taken = runCommand(bookgen + "prove --db " + db + " --moves '3 3; 4 4; 4 4' 2>&1");
  EXPECT_EQ(taken.status, 2);
  EXPECT_NE(taken.out.find("ply 3 '4 4': the cell is taken"), std::string::npos) << taken.out;
  const CommandRun over =
      runCommand(bookgen + "certificate --db " + db + " --out x --moves '0 0; 4 4; 1 0; 5 4; 2 0; 6 4; 3 0' 2>&1");
  EXPECT_EQ(over.status, 2);
  EXPECT_NE(over.out.find("the game is over after it"), std::string::npos) << over.out;
  const CommandRun noOut = runCommand(bookgen + "certificate --db " + db + " --moves '3 3' 2>&1");
  EXPECT_NE(noOut.status, 0);
  EXPECT_NE(noOut.out.find("--out FILE is required"), std::string::npos) << noOut.out;
}

// prove settles a late position into a new database; certificate writes its proof from that
// database, and the independent checker accepts it.
TEST_F(ProveCommand, ProvesRecordsAndCertifiesALatePosition) {
  const WonPosition won = wonLatePosition(12, 40);
  const std::string db = scratchPath("prove_late.db"), cert = scratchPath("late.cert");
  const CommandRun prove = runCommand(bookgen + "prove --db " + db + " --threads 2 --moves '" + won.moves + "' 2>&1");
  ASSERT_EQ(prove.status, 0) << prove.out;
  EXPECT_NE(prove.out.find("target PROVEN"), std::string::npos) << prove.out;
  const CommandRun again = runCommand(bookgen + "prove --db " + db + " --moves '" + won.moves + "' 2>&1");
  EXPECT_NE(again.out.find("the book already proves this position: a win for the player to move"), std::string::npos)
      << again.out;
  const CommandRun write = runCommand(bookgen + "certificate --db " + db + " --threat-depth 2 --out " + cert +
                                      " --moves '" + won.moves + "' 2>&1");
  ASSERT_EQ(write.status, 0) << write.out;
  const CommandRun check = runCommand(checker + cert + " 2>&1");
  EXPECT_EQ(check.status, 0) << check.out;
  EXPECT_EQ(check.out.rfind("accepted", 0), 0u) << check.out;

  // bookgen proven lists it (with the wins the run recorded below it), as an arena openings
  // file: each line's moves, replayed, give a position; one of them is the target.
  const CommandRun proven = runCommand(bookgen + "proven --db " + db + " --fewest 1 --most 60 --count 50 2>/dev/null");
  ASSERT_EQ(proven.status, 0) << proven.out;
  std::istringstream text(proven.out);
  std::vector<arena::Opening> openings;
  std::string error;
  ASSERT_TRUE(arena::parseOpenings(text, "proven", openings, error)) << error;
  bool listed = false;
  for (const arena::Opening& opening : openings) {
    Board replayed;
    for (Cell c : opening) {
      ASSERT_TRUE(replayed.isLegal(c));
      ASSERT_EQ(replayed.play(c), Outcome::None) << proven.out;
    }
    listed |= canonicalize(replayed).key == canonicalize(won.board).key;
  }
  EXPECT_TRUE(listed) << proven.out;
}

// After a steal the checker, which knows no steal, still gets a certificate: of the same position
// reached by placements, the stones' colours exchanged. The line below steals the first stone of
// the late won position's line and then plays the rest: the position is the won one with the
// colours exchanged, the same for its side to move.
TEST_F(ProveCommand, CertifiesAPositionReachedByASteal) {
  const WonPosition won = wonLatePosition(12, 40);
  const std::string first = won.moves.substr(0, won.moves.find(';'));
  const std::string stolen = first + "; " + won.moves;
  Board played;
  std::string error;
  ASSERT_TRUE(playMoves(stolen, played, error)) << error;
  ASSERT_EQ(played.stones(0), won.board.stones(1));
  ASSERT_EQ(played.stones(1), won.board.stones(0));
  const std::string db = scratchPath("prove_steal.db"), cert = scratchPath("steal.cert"),
                    plain = scratchPath("plain.cert");
  const CommandRun prove = runCommand(bookgen + "prove --db " + db + " --threads 2 --moves '" + stolen + "' 2>&1");
  ASSERT_EQ(prove.status, 0) << prove.out;
  const CommandRun write = runCommand(bookgen + "certificate --db " + db + " --threat-depth 2 --out " + cert +
                                      " --moves '" + stolen + "' 2>&1");
  ASSERT_EQ(write.status, 0) << write.out;
  EXPECT_NE(write.out.find("the stones' colours are exchanged"), std::string::npos) << write.out;
  const CommandRun check = runCommand(checker + cert + " 2>&1");
  EXPECT_EQ(check.status, 0) << check.out;
  EXPECT_EQ(check.out.rfind("accepted", 0), 0u) << check.out;
  EXPECT_NE(check.out.find("player 1 wins"), std::string::npos) << check.out;
  // Its root is the root of the won position's own certificate.
  ASSERT_EQ(runCommand(bookgen + "certificate --db " + db + " --threat-depth 2 --out " + plain + " --moves '" +
                       won.moves + "' 2>&1")
                .status,
            0);
  auto rootLine = [](const std::string& path) {
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);)
      if (line.rfind("root ", 0) == 0) return line;
    return std::string();
  };
  EXPECT_FALSE(rootLine(cert).empty());
  EXPECT_EQ(rootLine(cert), rootLine(plain));
}

// A claim disproven without a draw is the other side's proof: prove records it so, and the book
// then knows the position won for its mover.
TEST_F(ProveCommand, ADisproofThatRestsOnNoDrawIsRecordedAsTheDefendersWin) {
  const WonPosition won = wonLatePosition(12, 40);
  const std::string db = scratchPath("prove_defender.db");
  const CommandRun prove =
      runCommand(bookgen + "prove --db " + db + " --winner opponent --moves '" + won.moves + "' 2>&1");
  ASSERT_EQ(prove.status, 0) << prove.out;
  EXPECT_NE(prove.out.find("target DISPROVEN: the defender wins (recorded as its proof)"), std::string::npos)
      << prove.out;
  const CommandRun again = runCommand(bookgen + "prove --db " + db + " --moves '" + won.moves + "' 2>&1");
  EXPECT_NE(again.out.find("the book already proves this position: a win for the player to move"), std::string::npos)
      << again.out;
}

// tests/data/classes_fixture.db (57 KB, 4,158 searched positions): the verdicts of book/book.db at 6378eef for the
// positions of at most 2 stones (382: 5 of class 3 3's 34 replies and 3 of 4 4's 8 proven there), then `bookgen prove
// --db F --moves 'C; R' --winner mover --threads 1` for each other reply R of the classes C = 3 3 and 4 4 (31 runs, 42
// s in all, 2026-12-06): every reply of both proven lost for player 2, the other classes as the book had them. The
// committed book grows with every prove run; the tests read this instead.
const std::string kClassesFixture = std::string(YAVALATH_SOURCE_DIR) + "/tests/data/classes_fixture.db";

// bookgen classes reads the proof frontier: 3 3 and 4 4 are proven (a certificate each,
// docs/proofs.md), and each class's replies add up.
TEST_F(ProveCommand, ClassesListsTheFrontierOfTheBook) {
  const CommandRun r = runCommand(bookgen + "classes --db " + kClassesFixture + " 2>&1");
  ASSERT_EQ(r.status, 0) << r.out;
  std::istringstream text(r.out);
  std::string line;
  int rows = 0;
  while (std::getline(text, line)) {
    char name[8], value[8];
    int x = 0, lost = 0, replies = 0, won = 0, open = 0;
    if (std::sscanf(line.c_str(), "%d %7s %7s %d of %d %d", &x, name, value, &lost, &replies, &won) != 6) continue;
    ++rows;
    const size_t dash = line.rfind(" -");
    if (dash == std::string::npos || dash + 2 != line.size()) open = 1 + int(std::count(line.begin(), line.end(), ','));
    EXPECT_EQ(lost + won + open, replies) << line;
    const std::string cls = std::to_string(x) + " " + name;
    if (cls == "3 3" || cls == "4 4") {
      EXPECT_EQ(std::string(value) + " " + std::to_string(lost), "loss " + std::to_string(replies)) << line;
    }
  }
  EXPECT_EQ(rows, 9) << r.out;
  EXPECT_NE(r.out.find("\n2 of 9 classes proven"), std::string::npos) << r.out;
}

// A class proven by prove (its replies all lost, here from the fixture's proofs) is
// recorded as searched: placements only, on the position after a steal. Recorded on the position
// with the steal open, its loss called the steal lost too.
TEST_F(ProveCommand, AProvenClassLeavesTheStealAlone) {
  const std::string db = scratchPath("prove_class.db");
  ASSERT_EQ(runCommand("rm -rf " + db + " && cp " + kClassesFixture + " " + db).status, 0);
  const CommandRun prove =
      runCommand(bookgen + "prove --db " + db + " --moves '4 4' --winner opponent --threads 1 2>&1");
  ASSERT_EQ(prove.status, 0) << prove.out;
  EXPECT_NE(prove.out.find("target PROVEN"), std::string::npos) << prove.out;
  const CommandRun show = runCommand(bookgen + "show --db " + db + " --moves '4 4' 2>&1");
  const size_t steal = show.out.find("\n4 4 (steal)");
  ASSERT_NE(steal, std::string::npos) << show.out;
  const std::string row = show.out.substr(steal + 1, show.out.find('\n', steal + 1) - steal - 1);
  EXPECT_NE(row.find(" win "), std::string::npos) << row;
  EXPECT_EQ(row.find("proven loss"), std::string::npos) << row;
  runCommand("rm -rf " + db);
}

// Ctrl-C during a long prove: exit 130, and the run is saved (its record is in the database).
// The target is one that hours of search have left open ('3 2; 3 3' for player 1): a target the
// search settles in a fraction of a second (as the move order settles '3 3; 0 0') ends the run
// before the signal comes.
TEST_F(ProveCommand, CtrlCSavesAndExitsWith130) {
  const std::string db = scratchPath("prove_stop.db"), log = scratchPath("prove_stop.log");
  // The first progress line shows the search under way; then SIGINT. Polled, with a deadline.
  const std::string script =
      bookgen + "prove --db " + db + " --moves '3 2; 3 3' --winner mover --table 2000000 --progress 0.2 2>" + log +
      " & pid=$!; " + shellWaitForLine(log, "^prove:") + "kill -INT $pid; wait $pid; echo status $?";
  const CommandRun r = runCommand(script);
  const std::string err = readFile(log);
  EXPECT_NE(r.out.find("status 130"), std::string::npos) << r.out << err;
  EXPECT_NE(err.find("saved " + db), std::string::npos) << err;
  const CommandRun stats = runCommand(bookgen + "stats --runs " + db + " 2>&1");
  EXPECT_NE(stats.out.find("prove moves='3 2; 3 3'"), std::string::npos) << stats.out;
  // The progress line names the 8 most proving open moves (player 1's: least pn first).
  const size_t open = err.find(" | open (the 8 most proving of ");
  ASSERT_NE(open, std::string::npos) << err;
  std::istringstream items(err.substr(err.find(':', open) + 1, err.find(" | deepest", open) - err.find(':', open) - 1));
  std::vector<unsigned> pns;
  for (std::string item; std::getline(items, item, ';') && item.find("pn") != std::string::npos;) {
    unsigned x = 0, y = 0, pn = 0, dn = 0;
    ASSERT_EQ(std::sscanf(item.c_str(), " %u %u (pn %u, dn %u)", &x, &y, &pn, &dn), 4) << item;
    pns.push_back(pn);
  }
  EXPECT_EQ(pns.size(), 8u) << err;
  EXPECT_TRUE(std::is_sorted(pns.begin(), pns.end())) << err;
}

// --state: a run stopped by Ctrl-C writes its searches' tables, the next run reads them; a
// truncated file stops the run before it searches, naming the byte, and stays as it was.
TEST_F(ProveCommand, AStateFileCarriesTheSearchesToTheNextRun) {
  const std::string db = scratchPath("prove_state.db"), log = scratchPath("prove_state.log"),
                    state = scratchPath("prove.state");
  std::remove(state.c_str());
  const std::string prove =
      bookgen + "prove --db " + db + " --moves '3 2; 3 3' --winner mover --table 2000000 --state " + state;
  // The run writes its state every second, then again when Ctrl-C ends it.
  const CommandRun first = runCommand(prove + " --progress 0.2 --state-every 1 2>" + log + " & pid=$!; " +
                                      shellWaitForLine(log, "^wrote ") + "kill -INT $pid; wait $pid; echo status $?");
  const std::string err = readFile(log);
  EXPECT_NE(first.out.find("status 130"), std::string::npos) << first.out << err;
  EXPECT_LT(err.find("wrote "), err.find("saved ")) << "no state written before the run ended\n" << err;
  unsigned long long written = 0, read = 0;
  const size_t at = err.rfind("wrote ");
  ASSERT_NE(at, std::string::npos) << err;
  ASSERT_EQ(std::sscanf(err.c_str() + at, "wrote %llu searched positions to", &written), 1) << err;
  EXPECT_GT(written, 0u);
  const CommandRun second = runCommand(prove + " --hours 0.0003 2>&1");
  EXPECT_EQ(second.status, 0) << second.out;
  const size_t readAt = second.out.find("read ");
  ASSERT_NE(readAt, std::string::npos) << second.out;
  ASSERT_EQ(std::sscanf(second.out.c_str() + readAt, "read %llu searched positions from", &read), 1) << second.out;
  EXPECT_EQ(read, written);
  // Without --table a thread's table holds four times the state, at least the default (the state
  // the second run wrote when it ended).
  unsigned long long rewritten = 0;
  ASSERT_EQ(
      std::sscanf(second.out.c_str() + second.out.rfind("wrote "), "wrote %llu searched positions to", &rewritten), 1)
      << second.out;
  const CommandRun sized = runCommand(bookgen + "prove --db " + db + " --moves '3 2; 3 3' --winner mover --state " +
                                      state + " --hours 0.0003 2>&1");
  EXPECT_EQ(sized.status, 0) << sized.out;
  const size_t sizedAt = sized.out.find("a thread's table: ");
  ASSERT_NE(sizedAt, std::string::npos) << sized.out;
  unsigned long long table = 0, stated = 0, mib = 0;
  ASSERT_EQ(
      std::sscanf(
          sized.out.c_str() + sizedAt,
          "a thread's table: %llu positions (the state's %llu times four, at least the default, within 3/4 of %llu MiB",
          &table, &stated, &mib),
      3)
      << sized.out;
  EXPECT_EQ(stated, rewritten);
  const uint64_t wanted = std::max<uint64_t>(120000000, 4 * rewritten);  // 2 threads, 48 bytes a position at most
  EXPECT_GE(table, std::min<uint64_t>(wanted, (mib << 20) / 4 * 3 / 96)) << sized.out;
  EXPECT_LE(table, std::min<uint64_t>(wanted, ((mib + 1) << 20) / 4 * 3 / 96)) << sized.out;

  // --state-max-mb bounds the run's write; bookgen state checks a file and bounds a copy.
  const uint64_t whole = readFile(state).size(), bound = whole / 2;
  const std::string mb = std::to_string(double(bound) / 1e6), small = scratchPath("prove-small.state");
  const CommandRun bounded = runCommand(prove + " --hours 0.0003 --state-max-mb " + mb + " 2>&1");
  EXPECT_EQ(bounded.status, 0) << bounded.out;
  EXPECT_NE(bounded.out.find("left out by --state-max-mb"), std::string::npos) << bounded.out;
  EXPECT_LE(readFile(state).size(), bound) << bounded.out;
  const CommandRun copied = runCommand(bookgen + "state " + state + " --max-mb " +
                                       std::to_string(double(bound / 2) / 1e6) + " --out " + small + " 2>&1");
  EXPECT_EQ(copied.status, 0) << copied.out;
  EXPECT_NE(copied.out.find(state + ": a proof state (version 1), "), std::string::npos) << copied.out;
  EXPECT_NE(copied.out.find("wrote " + small + ": "), std::string::npos) << copied.out;
  EXPECT_LE(readFile(small).size(), bound / 2) << copied.out;
  const CommandRun checked = runCommand(bookgen + "state " + small + " 2>&1");
  EXPECT_EQ(checked.status, 0) << checked.out;
  EXPECT_NE(checked.out.find("positions, checksum good"), std::string::npos) << checked.out;

  std::string bytes = readFile(state);
  bytes.resize(bytes.size() - 5);
  std::ofstream(state, std::ios::binary | std::ios::trunc) << bytes;
  const CommandRun damaged = runCommand(prove + " --hours 0.0003 2>&1");
  EXPECT_EQ(damaged.status, 1) << damaged.out;
  EXPECT_NE(damaged.out.find(state + ": truncated at byte " + std::to_string(bytes.size())), std::string::npos)
      << damaged.out;
  EXPECT_EQ(damaged.out.find("prove:"), std::string::npos) << damaged.out;
  EXPECT_EQ(readFile(state), bytes);
  const CommandRun damagedCheck = runCommand(bookgen + "state " + state + " --max-mb 1 --out " + small + " 2>&1");
  EXPECT_EQ(damagedCheck.status, 1) << damagedCheck.out;
  EXPECT_NE(damagedCheck.out.find(state + ": truncated at byte " + std::to_string(bytes.size())), std::string::npos)
      << damagedCheck.out;
}

// proof_bench settles each target under both settings and names a bad line of its file.
TEST(ProofBench, SettlesEachTargetUnderBothSettingsAndNamesABadLine) {
  const std::string bench = std::string(YAVALATH_BIN_DIR) + "/proof_bench";
  const std::string targets = scratchPath("bench_targets.txt");
  {
    std::ofstream out(targets);
    out << "# a comment\n3 3; 0 0; 1 0; 2 3; 1 1 | opponent\n\n3 3; 0 0; 1 0; 2 3; 1 1 | mover  # the same claim's "
           "negation\n";
  }
  const CommandRun run = runCommand(bench + " --targets " + targets + " --test 'epsilon=0.5 forcing-depth=8' 2>&1");
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_NE(run.out.find("3 3; 0 0; 1 0; 2 3; 1 1 (opponent)"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("RESULT targets=2 "), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("base_settled=2 test_settled=2"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("disproven"), std::string::npos) << run.out;  // player 1, the mover, does not win

  {
    std::ofstream out(targets);
    out << "3 3; 0 0 | opponent\n3 3; 9 9 | mover\n";
  }
  const CommandRun bad = runCommand(bench + " --targets " + targets + " 2>&1");
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.out.find(targets + ":2: ply 2 '9 9': not a cell"), std::string::npos) << bad.out;
  const CommandRun badSetting = runCommand(bench + " --targets " + targets + " --test 'epsilom=1' 2>&1");
  EXPECT_EQ(badSetting.status, 2);
  EXPECT_NE(badSetting.out.find("'epsilom' is no setting"), std::string::npos) << badSetting.out;
}

// scripts/prove_shards.sh end to end on this machine (GNU parallel's local slots, ":"): class 1 1 of
// the fixture has two open replies, so two jobs of about 2 s each; their segments come back and are
// merged into the folder as one new segment, in its date's subfolder, and the summary combines the
// jobs' numbers into the target's (player 2 moves there, the defender: the sum of the proof numbers,
// the least disproof number). A checkout of its own (the scripts, this build's bookgen, the fixture
// as a database folder), since the script runs from its checkout's root.
TEST_F(ProveCommand, ShardScriptRunsEachOpenReplyAndMergesTheSegments) {
  if (runCommand("command -v parallel && command -v rsync").status != 0)
    GTEST_SKIP() << "GNU parallel or rsync is missing (scripts/deps.sh: ensure_shard_deps)";
  namespace fs = std::filesystem;
  const std::string checkout = scratchPath("prove_shards"), db = checkout + "/book/book.db";
  fs::remove_all(checkout);
  fs::create_directories(checkout + "/build/bin");
  fs::create_directories(db);
  fs::copy(std::string(YAVALATH_SOURCE_DIR) + "/scripts", checkout + "/scripts", fs::copy_options::recursive);
  fs::create_symlink(std::string(YAVALATH_BIN_DIR) + "/bookgen", checkout + "/build/bin/bookgen");
  fs::copy_file(kClassesFixture, db + "/0-base.seg");
  Database before;
  std::string error;
  ASSERT_TRUE(loadDatabase(db, before, error)) << error;

  const CommandRun r = runCommand("cd " + checkout + " && scripts/prove_shards.sh --moves '1 1' --winner opponent " +
                                  "--sshlogin 2/: --nice 0 -- --hours 0.0005 --threads 1 --table 1000000 2>&1");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("== '1 1' for the opponent: 2 jobs (1 ply below it, 2 slots), --winner mover each"),
            std::string::npos)
      << r.out;
  // Each job ran its line (parallel tags its lines) and printed its result; the summary combines them.
  auto number = [](const std::string& text) { return text == "inf" ? ~0ull : std::stoull(text); };
  unsigned long long pnSum = 0, dnMin = ~0ull;
  for (const std::string reply : {"3 3", "4 3"}) {
    const std::string line = "1 1; " + reply;
    EXPECT_NE(r.out.find("job " + std::string(reply == "3 3" ? "1" : "2") + ": " + line +
                         "\tproving a win for the player to move"),
              std::string::npos)
        << r.out;
    std::smatch m;
    const std::regex result("\n  " + line + ": \\S+ \\(pn (\\S+), dn (\\S+)\\)");
    ASSERT_TRUE(std::regex_search(r.out, m, result)) << line << "\n" << r.out;
    pnSum = (pnSum == ~0ull || number(m[1]) == ~0ull) ? ~0ull : pnSum + number(m[1]);
    dnMin = std::min(dnMin, number(m[2]));
  }
  std::smatch m;
  ASSERT_TRUE(std::regex_search(
      r.out, m, std::regex("\n== the target from its 2 jobs \\(0 without a result\\): pn (\\S+), dn (\\S+);")))
      << r.out;
  EXPECT_EQ(number(m[1]), pnSum) << r.out;
  EXPECT_EQ(number(m[2]), dnMin) << r.out;
  // Both jobs' segments were merged, into one new segment of the folder, under YYYY-MM/DD/.
  EXPECT_NE(r.out.find("== merged 2 job segments into book/book.db (parallel's status 0"), std::string::npos) << r.out;
  std::vector<std::string> segments;
  ASSERT_TRUE(listSegments(db, segments, error)) << error;
  ASSERT_EQ(segments.size(), 2u) << r.out;
  const std::string added = segments[1].substr(db.size() + 1);
  EXPECT_TRUE(std::regex_match(added, std::regex(R"(\d{4}-\d\d/\d\d/\d{8}-[^/]*\.seg)"))) << added;
  // Each job saved its segment, and it was merged: a line of `bookgen merge` for each job.
  size_t fresh = 0;
  for (const std::string job : {"1", "2"}) {
    std::string saved;  // its last save's
    const std::regex save("\njob " + job + ": [^\t]*\tsaved \\S+ \\((\\d+) positions settled by this run\\)");
    for (std::sregex_iterator it(r.out.begin(), r.out.end(), save), end; it != end; ++it) saved = (*it)[1];
    std::smatch merged;
    ASSERT_TRUE(std::regex_search(r.out, merged,
                                  std::regex("\nmerged proofs-\\S+/job-" + job +
                                             "/\\S+\\.seg: .*; (\\d+) searched positions, (\\d+) of them new")))
        << "job " << job << "'s segment was not merged\n"
        << r.out;
    EXPECT_FALSE(saved.empty()) << "job " << job << " saved nothing\n" << r.out;
    fresh += std::stoull(merged[2]);
  }
  EXPECT_GT(fresh, 0u) << r.out;
  Database after;
  ASSERT_TRUE(loadDatabase(db, after, error)) << error;
  EXPECT_EQ(after.searchedPositions(), before.searchedPositions() + fresh) << r.out;
  EXPECT_NE(r.out.find("first-move classes in book/book.db"), std::string::npos) << r.out;
  EXPECT_TRUE(runCommand("ls -d " + checkout + "/proofs-* 2>/dev/null").out.empty()) << "the jobs' folder was left";
}

}  // namespace
}  // namespace yav::proof
