// The tactics tool end to end: a suite file is read (a malformed line is an error naming the file
// and line), an attack position the bot must win is solved, the counts are printed, and a defence
// position lost before the move is left out; --book plays the embedded book's moves first.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "board.h"
#include "tests/test_util.h"
#include "tools/cli.h"

namespace {

yav::CommandRun run(const std::string& args) {
  return yav::runCommand(std::string(YAVALATH_BIN_DIR) + "/tactics " + args + " 2>&1");
}

TEST(Tactics, RunsASuiteAndRejectsAMalformedLine) {
  using namespace yav;
  // Player 0 to move: (3,4) threatens (1,4) and the only block makes player 1's vertical 3.
  const Bitboard p0 = cellsAt({{0, 4}, {2, 4}}), p1 = cellsAt({{1, 3}, {0, 5}});
  const std::string suite = yav::scratchPath("suite.txt");
  std::ofstream(suite) << "# kind stones0 stones1 toMove move pliesToEnd\n"
                       << "attack " << cli::hexText(p0) << " " << cli::hexText(p1) << " 0 " << cellAt(3, 4) << " 3\n";
  CommandRun tool = run("run --suite " + suite + " --time-ms 20 --prove-iterations 20000");
  EXPECT_EQ(tool.status, 0) << tool.out;
  EXPECT_NE(tool.out.find("attack     1/  1 = 100.0%"), std::string::npos) << tool.out;

  std::ofstream(suite, std::ios::app) << "defence 12 34 0\n";
  tool = run("run --suite " + suite + " --time-ms 20");
  EXPECT_NE(tool.status, 0);
  EXPECT_NE(tool.out.find(suite + ":3: malformed suite line"), std::string::npos) << tool.out;
  std::remove(suite.c_str());
}

// An endgame of 18 empty cells that is lost before the suite's move: every move loses (the exact
// endgame solver needs about 270,000 nodes to show it, more than the analysis search's default).
// It is left out whatever the search under test plays, and --list says so.
TEST(Tactics, ALostDefencePositionIsLeftOutWhateverIsPlayed) {
  const std::string suite = yav::scratchPath("lost.txt");
  std::ofstream(suite) << "defence 18349241a269210b 024841a44912d6c4 1 45 17\n";
  for (const char* config : {"", "noforcing", "plain"}) {
    const yav::CommandRun tool =
        run("run --suite " + suite + " --time-ms 10 --prove-iterations 20000 --list --config '" + config + "'");
    EXPECT_EQ(tool.status, 0) << tool.out;
    EXPECT_NE(tool.out.find("(suite move 2 6, played "), std::string::npos) << tool.out;
    EXPECT_NE(tool.out.find("left out (lost before the move)"), std::string::npos) << config << "\n" << tool.out;
    EXPECT_EQ(tool.out.find("defence    0/"), std::string::npos) << tool.out;
  }
}

// --book answers from the embedded book where it has a move, as the bot does: the empty board is in
// every book, so its move comes from there (and without --book from the search).
TEST(Tactics, TheBookAnswersFirstWithBook) {
  const std::string suite = yav::scratchPath("empty.txt");
  std::ofstream(suite) << "defence 0000000000000000 0000000000000000 0 0 30\n";
  const std::string args = "run --suite " + suite + " --time-ms 10 --prove-iterations 2000 --list";
  const yav::CommandRun withBook = run(args + " --book"), without = run(args);
  EXPECT_EQ(withBook.status, 0) << withBook.out;
  EXPECT_NE(withBook.out.find(" from the book): "), std::string::npos) << withBook.out;
  EXPECT_NE(withBook.out.find("book moves first"), std::string::npos) << withBook.out;
  EXPECT_EQ(without.status, 0) << without.out;
  EXPECT_EQ(without.out.find("from the book"), std::string::npos) << without.out;
}

}  // namespace
