// The bot binary end to end: recorded protocol transcripts (the exact stdin a bot received in an
// arena game, captured with `tee`) are replayed through build/bin/bot; every answer line must be
// well formed and legal on the grid of its turn. Plus the command line.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "protocol.h"
#include "tests/test_util.h"
#include "turn_limits.h"

namespace yav {
namespace {

const std::string kBot = std::string(YAVALATH_BIN_DIR) + "/bot";
const std::string kData = std::string(YAVALATH_SOURCE_DIR) + "/tests/data/";

struct BotRun {
  int exitCode = -1;
  std::vector<std::string> lines;  // stdout
};

BotRun runBot(const std::string& args, const std::string& inputFile) {
  BotRun run;
  const std::string command = kBot + " " + args + " < " + inputFile + " 2>/dev/null";
  const CommandRun output = runCommand(command);
  std::istringstream lines(output.out);
  for (std::string line; std::getline(lines, line);) run.lines.push_back(line);
  run.exitCode = output.status;
  return run;
}

std::vector<TurnInput> readTranscript(const std::string& path) {
  std::ifstream in(path);
  ProtocolReader reader(in);
  std::vector<TurnInput> turns;
  for (TurnInput t; reader.read(t);) {
    EXPECT_TRUE(t.errors.empty()) << path << ": " << t.errors.front();
    turns.push_back(t);
  }
  return turns;
}

// "x y" or "x y message": single spaces, nothing before the coordinates.
void expectLegalAnswers(const std::string& name, const BotRun& run) {
  const std::vector<TurnInput> turns = readTranscript(kData + name);
  ASSERT_FALSE(turns.empty()) << name;
  ASSERT_EQ(run.exitCode, 0) << name;
  ASSERT_EQ(run.lines.size(), turns.size()) << name;
  const std::regex answer(R"(^(\d) (\d)( [!-~]+( [!-~]+)*)?$)");
  for (size_t i = 0; i < turns.size(); ++i) {
    std::smatch m;
    ASSERT_TRUE(std::regex_match(run.lines[i], m, answer)) << name << " turn " << i + 1 << ": '" << run.lines[i] << "'";
    const int x = std::stoi(m[1]), y = std::stoi(m[2]);
    ASSERT_TRUE(onBoardXY(x, y)) << run.lines[i];
    EXPECT_TRUE(turns[i].board.isLegal(cellAt(x, y))) << name << " turn " << i + 1 << ": " << run.lines[i];
  }
}

const char* const kTranscripts[] = {"transcript_first_id1.txt", "transcript_second_id2.txt",
                                    "transcript_stealer_id2.txt", "transcript_victim_id1.txt"};

TEST(Bot, TranscriptsHaveTheExpectedSituations) {
  const auto stealer = readTranscript(kData + "transcript_stealer_id2.txt");
  ASSERT_GE(stealer.size(), 2u);
  EXPECT_TRUE(stealer[0].stealAvailable);
  EXPECT_EQ(popcount(stealer[1].board.stones(1)), 1) << "the stolen stone is ours";
  EXPECT_EQ(popcount(stealer[1].board.stones(0)), 1) << "the opponent's reply to the steal";
  const auto victim = readTranscript(kData + "transcript_victim_id1.txt");
  ASSERT_GE(victim.size(), 2u);
  EXPECT_EQ(victim[0].myId, 1);
  EXPECT_EQ(victim[0].board.occupied(), 0u);
  EXPECT_TRUE(victim[1].opponentStole);  // our first stone was taken
  EXPECT_EQ(victim[1].board.stones(0), 0u);
}

TEST(Bot, ReplaysTranscriptsWithFixedIterations) {
  for (const char* name : kTranscripts) {
    SCOPED_TRACE(name);
    expectLegalAnswers(name, runBot("--iterations 400 --seed 3 --quiet", kData + name));
  }
}

TEST(Bot, PlainUctReplaysTranscripts) {
  for (const char* name : kTranscripts)
    expectLegalAnswers(name, runBot("--plain-uct --iterations 300 --quiet", kData + name));
}

TEST(Bot, FixedIterationsAreReproducible) {
  const std::string input = kData + "transcript_second_id2.txt";
  const BotRun a = runBot("--iterations 600 --seed 11 --no-book", input);
  const BotRun b = runBot("--iterations 600 --seed 11 --no-book", input);
  ASSERT_FALSE(a.lines.empty());
  EXPECT_EQ(a.lines, b.lines);
}

TEST(Bot, DefaultClockAnswersEveryTurn) {
  // No flags: exactly the CodinGame behaviour (about 0.9 s for the first turn, 75 ms later).
  expectLegalAnswers("transcript_victim_id1.txt", runBot("", kData + "transcript_victim_id1.txt"));
}

TEST(Bot, ShortTimeBudgetsAnswerEveryTurn) {
  expectLegalAnswers("transcript_stealer_id2.txt",
                     runBot("--time-ms 5 --first-time-ms 20 --quiet", kData + "transcript_stealer_id2.txt"));
}

// --deep-time-ms / --deep-until-turn (the book's ceiling experiment): taken, and every turn still
// answers legally. That turn 2 searches its 60 ms is tested on a fake clock
// (TimeControl.ADeepTurnSearchesItsBudget); answer times on a real machine are scripts/soak.sh's.
TEST(Bot, DeepEarlyTurnFlagsAreTaken) {
  expectLegalAnswers("transcript_second_id2.txt",
                     runBot("--no-book --time-ms 5 --first-time-ms 20 --deep-time-ms 60 --deep-until-turn 2 --quiet",
                            kData + "transcript_second_id2.txt"));
  EXPECT_EQ(runBot("--deep-until-turn x", "/dev/null").exitCode, 2);
  EXPECT_EQ(runBot("--deep-time-ms", "/dev/null").exitCode, 2);
}

// Pondering: while the next turn's input is held back, the bot searches on (ponder.h) and says so
// on the next turn's stderr line; its answers stay legal. --no-ponder and --iterations turn it off.
// The rest of the input is sent a while after the first answer appeared (not after a fixed delay:
// a sanitised bot may take longer than that to start), as an opponent's thinking time would be;
// a while of 0.2 s, and 0.8 s, 3.2 s... up to 51.2 s when a loaded machine gave the bot's thread
// no time in it (only a hang gives it none in all of them).
TEST(Bot, PondersWhileTheOpponentThinks) {
  const std::string input = kData + "transcript_second_id2.txt";  // 12 lines for turn 1, 11 a turn later
  const std::string answers = scratchPath("ponder_answers.txt");
  auto run = [&](const std::string& args, double opponentSeconds) {
    std::remove(answers.c_str());
    return runCommand("{ head -n 12 " + input + "; " + shellWaitForLine(answers, ".", 30) + "sleep " +
                      std::to_string(opponentSeconds) + "; tail -n +13 " + input + "; } | " + kBot +
                      " --no-book --time-ms 5 --first-time-ms 20 " + args + " 2>&1 >" + answers);
  };
  auto expectLegal = [&]() {
    BotRun fromFile;
    std::istringstream lines(readFile(answers));
    for (std::string line; std::getline(lines, line);) fromFile.lines.push_back(line);
    fromFile.exitCode = 0;
    expectLegalAnswers("transcript_second_id2.txt", fromFile);
  };
  const std::regex pondered(R"(turn 2: .*pondered (\d+) it)");
  uint64_t ponderedIterations = 0;
  for (double opponentSeconds : {0.2, 0.8, 3.2, 12.8, 51.2}) {
    const CommandRun on = run("", opponentSeconds);
    ASSERT_EQ(on.status, 0) << on.out;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(on.out, m, pondered)) << on.out;
    expectLegal();
    if ((ponderedIterations = std::stoull(m[1])) > 0) break;
  }
  EXPECT_GT(ponderedIterations, 0u) << "nothing pondered in 51.2 s";
  for (const char* off : {"--no-ponder", "--iterations 50"}) {
    const CommandRun r = run(off, 0.2);
    ASSERT_EQ(r.status, 0) << off << ": " << r.out;
    EXPECT_EQ(r.out.find("pondered"), std::string::npos) << off << ": " << r.out;
    expectLegal();
  }
  std::remove(answers.c_str());
}

TEST(Bot, BadCommandLineIsRejected) {
  EXPECT_EQ(runBot("--bogus", "/dev/null").exitCode, 2);
  EXPECT_EQ(runBot("--time-ms", "/dev/null").exitCode, 2);
  EXPECT_EQ(runBot("--iterations many", "/dev/null").exitCode, 2);
  EXPECT_EQ(runBot("--time-ms 0", "/dev/null").exitCode, 2);
  const BotRun help = runBot("--help", "/dev/null");
  EXPECT_EQ(help.exitCode, 0);
  ASSERT_FALSE(help.lines.empty());
  EXPECT_NE(help.lines[0].find("usage"), std::string::npos);
}

// The bot's stderr for `input`, given through a per-process temporary file.
std::string botStderr(const std::string& input) {
  const std::string file = scratchPath("bot_stderr_input.txt");
  std::ofstream(file) << input;
  const std::string text = runCommand(kBot + " --iterations 10 --quiet < " + file + " 2>&1 >/dev/null").out;
  std::remove(file.c_str());
  return text;
}

TEST(Bot, ProtocolErrorsOfTheLastReadAreReported) {
  // The grid cut short after row 1: the read fails, and the bot still says why.
  std::string text = botStderr("1\n9\n00000\n000000\n");
  EXPECT_NE(text.find("protocol: input line 4: input ended inside the grid at row 2"), std::string::npos) << text;
  text = botStderr("hello\n");
  EXPECT_NE(text.find("protocol: input line 1: expected the id 1/2 or the row count 9, got 'hello'"), std::string::npos)
      << text;
  EXPECT_NE(text.find("protocol: input line 1: input ended before the grid"), std::string::npos) << text;
}

TEST(Bot, EmptyInputEndsCleanly) {
  const BotRun run = runBot("--iterations 10", "/dev/null");
  EXPECT_EQ(run.exitCode, 0);
  EXPECT_TRUE(run.lines.empty());
}

}  // namespace
}  // namespace yav
