// Openings: the shipped two-ply file (every class under the 12 symmetries exactly once, as the
// generator prints it) and random openings (reproducible, undecided, no steal, lengths in range).
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>

#include "symmetry.h"
#include "tools/arena/openings.h"
#include "tests/test_util.h"

using namespace yav;
using namespace yav::arena;

namespace {

const std::string kTwoStoneFile = std::string(YAVALATH_SOURCE_DIR) + "/tools/openings/two_stone.txt";

PositionKey classOf(const Opening& moves) {
  Board b;
  for (Cell c : moves) b.play(c);
  return canonicalize(PositionKey::of(b)).key;
}

}  // namespace

TEST(ArenaOpenings, TwoStoneFileHoldsEveryTwoPlyClassOnce) {
  std::vector<Opening> openings;
  std::string error;
  ASSERT_TRUE(loadOpeningsFile(kTwoStoneFile, openings, error)) << error;
  std::set<PositionKey> twoStone, steals;
  for (const Opening& o : openings) {
    ASSERT_EQ(o.size(), 2u);
    const bool steal = o[0] == o[1];
    EXPECT_TRUE((steal ? steals : twoStone).insert(classOf(o)).second)
        << "class repeated: " << cellName(o[0]) << "; " << cellName(o[1]);
  }
  EXPECT_EQ(twoStone.size(), 328u);  // the statement's count: one stone of each colour
  EXPECT_EQ(steals.size(), 9u);      // one per first-move class
  EXPECT_EQ(openings.size(), 337u);
  // Every two-ply game start falls into a listed class.
  for (Cell first = 0; first < kCells; ++first)
    for (Cell reply = 0; reply < kCells; ++reply) {
      const PositionKey k = classOf({first, reply});
      EXPECT_TRUE(twoStone.count(k) || steals.count(k)) << cellName(first) << "; " << cellName(reply);
    }
}

// The book-exit positions (scripts/book_exits.py): every line loads as an opening (legal moves that
// do not end the game), at least 6 plies deep, and no move list is listed twice.
TEST(ArenaOpenings, BookExitFileHoldsDistinctUndecidedMidGamePositions) {
  std::vector<Opening> openings;
  std::string error;
  ASSERT_TRUE(loadOpeningsFile(std::string(YAVALATH_SOURCE_DIR) + "/tools/openings/book_exits.txt", openings, error))
      << error;
  std::set<Opening> distinct;
  for (const Opening& o : openings) {
    EXPECT_GE(o.size(), 6u);
    EXPECT_TRUE(distinct.insert(o).second);
  }
  EXPECT_GE(openings.size(), 60u);
}

// scripts/book_coverage.py over two hand-made records: bots[0] plays as A, seats[0] names who made
// ply 0, so each bot's own plies, its side after the opening and its score follow from both.
TEST(ArenaOpenings, BookCoverageCountsEachBotsBookTurnsBySide) {
  const std::string records = scratchPath("coverage.jsonl");
  {
    std::ofstream out(records);
    out << R"({"record_header":{"arena_version":"3"}})"
           "\n"
        << R"({"game":0,"bots":["new","old"],"seats":["A","B"],"opening_plies":1,)"
        << R"("moves":["4 4","3 3","2 2","1 1","0 0","5 5"],"messages":["","book","book","50%","book","40%"],"result":"A"})"
           "\n"
        << R"({"game":1,"bots":["new","old"],"seats":["B","A"],"opening_plies":1,)"
        << R"("moves":["4 4","3 3","2 2","1 1"],"messages":["","book","45%","book"],"result":"draw"})"
           "\n";
  }
  const std::string script = std::string(YAVALATH_SOURCE_DIR) + "/scripts/book_coverage.py";
  const CommandRun run = runCommand("python3 " + script + " --turns 3 " + records + " 2>&1");
  ASSERT_EQ(run.status, 0) << run.out;
  // Rows with their spaces collapsed: bot, opening plies, side, games, score, turn1..3.
  std::string collapsed;
  for (size_t i = 0; i < run.out.size(); ++i)
    if (run.out[i] != ' ' || (!collapsed.empty() && collapsed.back() != ' ' && collapsed.back() != '\n'))
      collapsed += run.out[i];
  for (const char* row : {"new 1 first 1 0.500 1.00 1.00 -\n", "new 1 second 1 1.000 1.00 1.00 -\n",
                          "old 1 first 1 0.000 1.00 0.00 0.00\n", "old 1 second 1 0.500 0.00 - -\n"})
    EXPECT_NE(collapsed.find(row), std::string::npos) << row << "in:\n" << run.out;

  {
    std::ofstream out(records);
    out << R"({"game":0,"bots":["new","old"]})"
           "\n";
  }
  const CommandRun broken = runCommand("python3 " + script + " " + records + " 2>&1");
  EXPECT_NE(broken.status, 0);
  EXPECT_NE(broken.out.find("coverage.jsonl:1: not an arena game record"), std::string::npos) << broken.out;
}

// scripts/turn_rates.py over a hand-made pair of games and the bots' lines: the first mover's first
// turn is paired across the two games, later turns are compared by number, and book turns, proven
// turns and turns under --min-ms are left out.
TEST(ArenaOpenings, TurnRatesCompareTheSearchedTurnsOfTwoBots) {
  const std::string records = scratchPath("rates.jsonl"), lines = scratchPath("rates_stderr");
  std::filesystem::create_directories(lines);
  {
    std::ofstream out(records);
    out << R"({"record_header":{"arena_version":"3"}})"
           "\n"
        << R"({"game":0,"pair":0,"bots":["fast","slow"],"seats":["A","B"],"opening_plies":1,"moves":[]})"
           "\n"
        << R"({"game":1,"pair":0,"bots":["fast","slow"],"seats":["B","A"],"opening_plies":1,"moves":[]})"
           "\n";
  }
  auto write = [&](const std::string& name, const std::string& text) { std::ofstream(lines + "/" + name) << text; };
  // Game 0: slow (seat B) makes ply 1, the first move after the opening; game 1: fast does. Each of
  // fast's turns 3 and 4 is one that must not count (proven, a book turn, under --min-ms), and
  // slow's turns 3 and 4 count: a row for turn 3 or 4 shows that one of fast's did.
  write("game-0-slow.log",
        "book: 10 positions decoded in 1.0 ms\n"
        "turn 1: move 4 4 | 9000 it, 100 nodes, value 0.50, proof unknown, 900.0 ms\n"
        "turn 2: move 1 1 | 1500 it, 10 nodes (reused), value 0.50, proof unknown, pondered 5 it, 75.0 ms\n"
        "turn 3: move 2 2 | 600 it, 10 nodes (reused), value 0.50, proof unknown, 60.0 ms\n");
  write("game-0-fast.log",
        "turn 1: move 3 3 | 27000 it, 100 nodes, value 0.50, proof unknown, 900.0 ms\n"
        "turn 2: move 5 5 | 3000 it, 10 nodes (reused), value 0.50, proof unknown, 75.0 ms\n"
        "turn 3: move 6 6 | 6000 it, 10 nodes (reused), value 1.00, proof win, 60.0 ms\n"
        "turn 4: move 6 5 | 999 it, 10 nodes (reused), value 0.50, proof unknown, 30.0 ms\n");
  write("game-1-fast.log",
        "turn 1: move 4 4 | 18000 it, 100 nodes, value 0.50, proof unknown, 900.0 ms\n"
        "turn 2: move 1 1 | 3000 it, 10 nodes (reused), value 0.50, proof unknown, 75.0 ms\n"
        "turn 3: move 0 0 | book, checked 500 it, searched 9000 it ahead, 75.0 ms\n");
  write("game-1-slow.log",
        "turn 1: move 3 3 | 1000 it, 100 nodes, value 0.50, proof unknown, 900.0 ms\n"
        "turn 2: move 5 5 | 1500 it, 10 nodes (reused), value 0.50, proof unknown, 75.0 ms\n"
        "turn 4: move 5 6 | 600 it, 10 nodes (reused), value 0.50, proof unknown, 60.0 ms\n");
  const std::string script = std::string(YAVALATH_SOURCE_DIR) + "/scripts/turn_rates.py";
  const CommandRun run = runCommand("python3 " + script + " --mid 2-4 " + records + " " + lines + " 2>&1");
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_NE(run.out.find("first turn, same position (1 pairs): median of the pairs' ratios 2.000"), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("     2         40.0     2         20.0     2   2.000"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("\n     3 "), std::string::npos) << "a proven or book turn was counted:\n" << run.out;
  EXPECT_EQ(run.out.find("\n     4 "), std::string::npos) << "a turn under --min-ms was counted:\n" << run.out;
  EXPECT_NE(run.out.find("turns 2-4 pooled: fast 40.0 (2 turns), slow 15.0 (4): ratio 2.667"), std::string::npos)
      << run.out;

  {
    std::ofstream out(records);
    out << R"({"game":0,"bots":["fast","slow"]})"
           "\n";
  }
  const CommandRun broken = runCommand("python3 " + script + " " + records + " " + lines + " 2>&1");
  EXPECT_NE(broken.status, 0);
  EXPECT_NE(broken.out.find("rates.jsonl:1: not an arena game record"), std::string::npos) << broken.out;
}

TEST(ArenaOpenings, GeneratorPrintsTheShippedFile) {
  const CommandRun generator = runCommand(std::string(YAVALATH_BIN_DIR) + "/two_ply_openings");
  EXPECT_EQ(generator.status, 0);
  EXPECT_EQ(generator.out, readFile(kTwoStoneFile))
      << "regenerate: build/bin/two_ply_openings > tools/openings/two_stone.txt";
}

TEST(ArenaOpenings, RandomOpeningsAreReproducibleUndecidedAndStealFree) {
  OpeningSettings s;
  s.kind = OpeningSettings::Kind::Random, s.minPlies = 1, s.maxPlies = 4, s.seed = 42;
  Openings a, b;
  std::string error;
  ASSERT_TRUE(a.init(s, error));
  ASSERT_TRUE(b.init(s, error));
  int lengths[5] = {};
  std::set<Opening> distinct;
  for (int pair = 0; pair < 400; ++pair) {
    const Opening o = a.forPair(pair);
    EXPECT_EQ(o, b.forPair(pair));  // the same seed gives the same openings
    ASSERT_GE(o.size(), 1u);
    ASSERT_LE(o.size(), 4u);
    ++lengths[o.size()];
    distinct.insert(o);
    Board board;
    for (size_t i = 0; i < o.size(); ++i) {
      ASSERT_TRUE(board.isLegal(o[i]));
      EXPECT_FALSE(board.canSteal() && o[i] == board.stealCell()) << "ply 2 stole";
      EXPECT_EQ(board.play(o[i]), Outcome::None) << "a random ply decided the game";
    }
  }
  for (int k = 1; k <= 4; ++k) EXPECT_GT(lengths[k], 60) << "length " << k << " drawn too rarely";
  EXPECT_GT(distinct.size(), 300u);  // about 50 of the 100 one-ply openings repeat a cell
  s.seed = 43;
  ASSERT_TRUE(b.init(s, error));
  int same = 0;
  for (int pair = 0; pair < 50; ++pair) same += a.forPair(pair) == b.forPair(pair);
  EXPECT_LT(same, 10);
}

TEST(ArenaOpenings, LongRandomOpeningsStayUndecided) {
  Rng rng(7);
  for (int i = 0; i < 200; ++i) {
    const Opening o = randomOpening(rng, kMaxRandomPlies);
    ASSERT_EQ(o.size(), size_t(kMaxRandomPlies));
    Board board;
    for (Cell c : o) ASSERT_EQ(board.play(c), Outcome::None);
  }
}

TEST(ArenaOpenings, PlyRangeParsing) {
  int lo = 0, hi = 0;
  std::string error;
  EXPECT_TRUE(parsePlyRange("1", lo, hi, error));
  EXPECT_EQ(lo, 1);
  EXPECT_EQ(hi, 1);
  EXPECT_TRUE(parsePlyRange("1-2", lo, hi, error));
  EXPECT_EQ(hi, 2);
  EXPECT_TRUE(parsePlyRange("0-40", lo, hi, error));  // 0: the empty board; 40 the longest
  EXPECT_EQ(lo, 0);
  EXPECT_EQ(hi, 40);
  EXPECT_FALSE(parsePlyRange("-1", lo, hi, error));
  EXPECT_FALSE(parsePlyRange("3-1", lo, hi, error));
  EXPECT_FALSE(parsePlyRange("x", lo, hi, error));
  EXPECT_FALSE(parsePlyRange("1-", lo, hi, error));
  EXPECT_FALSE(parsePlyRange("41", lo, hi, error));
  EXPECT_NE(error.find("K1-K2"), std::string::npos);
}
