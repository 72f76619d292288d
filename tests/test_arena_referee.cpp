// The arena referee: protocol input per seat (parsed back with the core's reader), output parsing
// like the CodinGame referee, rules parity with the core's Board, openings, and every kind of
// misbehaving bot (tests/programs/fake_bot.cpp) losing with the right reason.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "protocol.h"
#include "rng.h"
#include "tools/arena/openings.h"
#include "tools/arena/referee.h"
#include "tests/test_util.h"

using namespace yav;
using namespace yav::arena;

namespace {

// An in-memory bot: reads each turn with the core's ProtocolReader (checking that what the
// referee sends parses into the referee's own position) and answers from a script, then randomly.
class ScriptedPlayer : public Player {
 public:
  ScriptedPlayer(std::vector<std::string> script, uint64_t seed) : script_(std::move(script)), rng_(seed) {}
  bool start(std::string&) override { return true; }
  Reply ask(const std::string& input, double) override {
    inputs.push_back(input);
    stream_.clear();
    stream_ << input;
    TurnInput turn;
    EXPECT_TRUE(reader_.read(turn));
    EXPECT_TRUE(turn.errors.empty()) << (turn.errors.empty() ? "" : turn.errors[0]);
    turns.push_back(turn);
    Reply r;
    if (next_ < script_.size()) {
      r.line = script_[next_++];
    } else {
      // Random legal move, steals included; sometimes a losing move so that games vary.
      Bitboard moves = turn.board.legalMoves();
      r.line = formatMove(nthCell(moves, int(rng_.below(uint32_t(popcount(moves))))));
    }
    return r;
  }
  void stop() override {}

  std::vector<std::string> inputs;
  std::vector<TurnInput> turns;

 private:
  std::vector<std::string> script_;
  size_t next_ = 0;
  Rng rng_;
  std::stringstream stream_;
  ProtocolReader reader_{stream_};
};

// Limits no answer misses unless its bot hangs: a loaded machine may pause a bot for a while.
const Limits kNoHurry{10000, 5000, 1.0};

GameResult playScripted(std::vector<std::string> first, std::vector<std::string> second, ScriptedPlayer** out = nullptr,
                        const std::vector<Cell>& opening = {}, uint64_t seed = 1) {
  static std::unique_ptr<ScriptedPlayer> keep[2];
  keep[0] = std::make_unique<ScriptedPlayer>(std::move(first), seed);
  keep[1] = std::make_unique<ScriptedPlayer>(std::move(second), seed * 7 + 3);
  Player* seats[2] = {keep[0].get(), keep[1].get()};
  if (out) out[0] = keep[0].get(), out[1] = keep[1].get();
  return refereeGame(seats, opening, kNoHurry);
}

}  // namespace

TEST(ArenaReferee, FirstInputIsExact) {
  Board empty;
  EXPECT_EQ(formatTurn(empty, 0, kNoCell, true),
            "1\n9\n00000\n000000\n0000000\n00000000\n000000000\n00000000\n0000000\n000000\n00000\n-1 -1\n");
  Board b;
  b.play(cellAt(4, 4));
  EXPECT_EQ(formatTurn(b, 1, cellAt(4, 4), true),
            "2\n9\n00000\n000000\n0000000\n00000000\n000020000\n00000000\n0000000\n000000\n00000\n4 4\n");
  EXPECT_EQ(formatTurn(b, 1, cellAt(4, 4), false).substr(0, 2), "9\n");  // no id line after the first turn
}

TEST(ArenaReferee, AnswerParsingLikeCodinGame) {
  int x = 0, y = 0;
  std::string msg, err;
  EXPECT_TRUE(parseAnswer("3 4", x, y, msg, err));
  EXPECT_EQ(x, 3);
  EXPECT_EQ(y, 4);
  EXPECT_TRUE(parseAnswer("3 4 hello world", x, y, msg, err));
  EXPECT_EQ(msg, "hello world");
  EXPECT_TRUE(parseAnswer("3 4 ", x, y, msg, err));  // trailing empty tokens are dropped
  EXPECT_TRUE(parseAnswer("+3 4", x, y, msg, err));  // Integer.parseInt accepts a sign
  EXPECT_EQ(x, 3);
  EXPECT_TRUE(parseAnswer("-1 4", x, y, msg, err));
  EXPECT_EQ(x, -1);
  EXPECT_FALSE(parseAnswer(" 3 4", x, y, msg, err));  // leading space: empty first token
  EXPECT_FALSE(parseAnswer("3  4", x, y, msg, err));  // double space: empty second token
  EXPECT_FALSE(parseAnswer("3", x, y, msg, err));
  EXPECT_FALSE(parseAnswer("", x, y, msg, err));
  EXPECT_FALSE(parseAnswer("3,4", x, y, msg, err));
  EXPECT_FALSE(parseAnswer("3 4x", x, y, msg, err));
  EXPECT_FALSE(parseAnswer("99999999999 4", x, y, msg, err));
  EXPECT_NE(err.find("expected 'x y'"), std::string::npos);
}

TEST(ArenaReferee, StatementLineOfFourWins) {
  // Seat 0 plays (0,0) (1,1) (3,3) then (2,2): the 4-line of the statement.
  GameResult r = playScripted({"0 0", "1 1", "3 3", "2 2"}, {"0 8", "4 8", "8 4"});
  EXPECT_EQ(r.reason, Reason::Line4);
  EXPECT_EQ(r.winnerSeat, 0);
  EXPECT_EQ(r.moves.size(), 7u);
}

TEST(ArenaReferee, LineOfThreeLoses) {
  GameResult r = playScripted({"0 0", "1 1", "2 2"}, {"0 8", "4 8"});
  EXPECT_EQ(r.reason, Reason::Line3);
  EXPECT_EQ(r.winnerSeat, 1);
}

TEST(ArenaReferee, FourAndThreeAtOnceWins) {
  // (2,3) completes (4,3)(3,3)(2,3)(1,3) and the 3-line (2,3)(2,4)(1,5): a win (statement).
  GameResult r = playScripted({"4 3", "3 3", "1 3", "2 4", "1 5", "2 3"}, {"0 0", "4 0", "0 8", "4 8", "8 4"});
  EXPECT_EQ(r.reason, Reason::Line4);
  EXPECT_EQ(r.winnerSeat, 0);
}

TEST(ArenaReferee, IllegalAndBadAnswers) {
  EXPECT_EQ(playScripted({"4 4"}, {"9 9"}).reason, Reason::Illegal);
  EXPECT_EQ(playScripted({"4 4", "4 4"}, {"3 3"}).reason, Reason::Illegal);  // occupied
  GameResult r = playScripted({"4 4", "4 4"}, {"3 3"});
  EXPECT_EQ(r.winnerSeat, 1);
  EXPECT_EQ(playScripted({" 4 4"}, {}).reason, Reason::BadOutput);
  // A steal is only allowed on the second player's first turn.
  r = playScripted({"4 4", "3 3"}, {"0 0", "4 4"});
  EXPECT_EQ(r.reason, Reason::Illegal);
  EXPECT_EQ(r.winnerSeat, 0);
}

TEST(ArenaReferee, StealAsTheCodinGameRefereeShowsIt) {
  ScriptedPlayer* p[2];
  GameResult r = playScripted({"4 4", "0 0", "1 1", "2 2"}, {"4 4", "0 8", "4 8"}, p);
  // After the steal the first player sees its own first move as the last move, the stone as the
  // opponent's, and gets no id line.
  ASSERT_GE(p[0]->inputs.size(), 2u);
  EXPECT_EQ(p[0]->inputs[1], "9\n00000\n000000\n0000000\n00000000\n000020000\n00000000\n0000000\n000000\n00000\n4 4\n");
  EXPECT_TRUE(p[0]->turns[1].opponentStole);
  EXPECT_EQ(p[0]->turns[1].board.stones(1), bit(cellAt(4, 4)));
  EXPECT_EQ(p[0]->turns[1].board.toMove(), 0);
  EXPECT_TRUE(p[1]->turns[0].stealAvailable);
  EXPECT_EQ(r.moves[1].cell, cellAt(4, 4));
  EXPECT_EQ(r.reason, Reason::Line3);  // (0,0) (1,1) (2,2) by seat 0 afterwards
  EXPECT_EQ(r.winnerSeat, 1);
}

TEST(ArenaReferee, RandomGamesMatchTheCoreRules) {
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    ScriptedPlayer* p[2];
    GameResult r = playScripted({}, {}, p, {}, seed);
    // Replay on a fresh Board: every move legal, only the last one decides, and the same way.
    Board b;
    Outcome last = Outcome::None;
    for (size_t i = 0; i < r.moves.size(); ++i) {
      ASSERT_TRUE(b.isLegal(r.moves[i].cell));
      ASSERT_EQ(last, Outcome::None) << "game went on after a decisive move";
      last = b.play(r.moves[i].cell);
    }
    const int lastMover = int((r.moves.size() - 1) % 2);
    switch (last) {
      case Outcome::Win:
        EXPECT_EQ(r.reason, Reason::Line4);
        EXPECT_EQ(r.winnerSeat, lastMover);
        break;
      case Outcome::Loss:
        EXPECT_EQ(r.reason, Reason::Line3);
        EXPECT_EQ(r.winnerSeat, lastMover ^ 1);
        break;
      case Outcome::Draw:
        EXPECT_EQ(r.reason, Reason::Draw);
        EXPECT_EQ(r.winnerSeat, -1);
        break;
      case Outcome::None:
        ADD_FAILURE() << "game ended without a decision";
        break;
    }
    // Every input the bots saw parsed into the referee's position.
    Board replay;
    size_t turn[2] = {0, 0};
    for (size_t i = 0; i < r.moves.size(); ++i) {
      const int seat = int(i % 2);
      ASSERT_LT(turn[seat], p[seat]->turns.size());
      const TurnInput& t = p[seat]->turns[turn[seat]++];
      EXPECT_EQ(t.board, replay);
      EXPECT_EQ(t.myId, seat + 1);
      EXPECT_EQ(t.lastMove, i == 0 ? kNoCell : r.moves[i - 1].cell);
      replay.play(r.moves[i].cell);
    }
  }
}

TEST(ArenaReferee, OpeningIsPlayedBeforeTheBots) {
  std::vector<Cell> opening;
  std::string error;
  ASSERT_TRUE(parseMoveList("4 4; 3 2", opening, error)) << error;
  ScriptedPlayer* p[2];
  GameResult r = playScripted({}, {}, p, opening, 5);
  EXPECT_EQ(r.openingPlies, 2);
  EXPECT_EQ(r.moves[0].cell, cellAt(4, 4));
  EXPECT_EQ(r.moves[1].cell, cellAt(3, 2));
  EXPECT_LT(r.moves[0].ms, 0);
  // Seat 0 is asked first, on its own first turn (id line), with both stones on the board.
  EXPECT_EQ(p[0]->inputs[0].substr(0, 4), "1\n9\n");
  EXPECT_EQ(p[0]->turns[0].lastMove, cellAt(3, 2));
  EXPECT_EQ(popcount(p[0]->turns[0].board.occupied()), 2);
}

TEST(ArenaReferee, RandomOpeningsReachTheBotsAsCodinGameShowsThem) {
  Rng rng(11);
  for (int plies = 1; plies <= 6; ++plies)
    for (uint64_t seed = 1; seed <= 5; ++seed) {
      const Opening opening = randomOpening(rng, plies);
      ScriptedPlayer* p[2];
      GameResult r = playScripted({}, {}, p, opening, seed);
      ASSERT_EQ(r.openingPlies, plies);
      Board expected;
      for (Cell c : opening) expected.play(c);
      // The seat to move after the opening is asked first; each seat gets its id line on its own
      // first turn only, and every input parsed without a protocol error (ScriptedPlayer checks).
      const int mover = expected.toMove();
      ASSERT_FALSE(p[mover]->turns.empty());
      EXPECT_EQ(p[mover]->inputs[0].substr(0, 4), std::to_string(mover + 1) + "\n9\n");
      EXPECT_EQ(p[mover]->turns[0].board, expected);
      EXPECT_EQ(p[mover]->turns[0].lastMove, opening.back());
      EXPECT_EQ(p[mover]->turns[0].stealAvailable, plies == 1);  // K = 1: the second bot may steal
      if (p[mover ^ 1]->inputs.empty()) continue;                // the game ended on the first answer
      EXPECT_EQ(p[mover ^ 1]->inputs[0].substr(0, 4), std::to_string((mover ^ 1) + 1) + "\n9\n");
      expected.play(r.moves[size_t(plies)].cell);
      EXPECT_EQ(p[mover ^ 1]->turns[0].board, expected);
      EXPECT_EQ(p[mover ^ 1]->turns[0].lastMove, r.moves[size_t(plies)].cell);
      for (size_t i = 1; i < p[0]->inputs.size(); ++i) EXPECT_EQ(p[0]->inputs[i].substr(0, 2), "9\n");
      for (size_t i = 1; i < p[1]->inputs.size(); ++i) EXPECT_EQ(p[1]->inputs[i].substr(0, 2), "9\n");
    }
}

TEST(ArenaReferee, MoveListParsing) {
  std::vector<Cell> moves;
  std::string error;
  EXPECT_TRUE(parseMoveList("4 4", moves, error));
  EXPECT_EQ(moves.size(), 1u);
  EXPECT_TRUE(parseMoveList("4 4, 4 4", moves, error));  // a steal
  EXPECT_EQ(moves.size(), 2u);
  EXPECT_FALSE(parseMoveList("4 4 4 4 4 4", moves, error));
  EXPECT_FALSE(parseMoveList("9 9", moves, error));
  EXPECT_NE(error.find("off the board"), std::string::npos);
  EXPECT_FALSE(parseMoveList("4 4 3", moves, error));
  EXPECT_FALSE(parseMoveList("a b", moves, error));
  EXPECT_FALSE(parseMoveList("0 0; 0 8; 1 1; 4 8; 2 2", moves, error));  // ends the game (a 3)
  EXPECT_NE(error.find("ends the game"), std::string::npos);
}

// ---- real processes: the fake bots --------------------------------------------------------

namespace {

std::string fake(const std::string& args) { return std::string(YAVALATH_BIN_DIR) + "/fake_bot " + args; }

GameResult playProcesses(const std::string& first, const std::string& second, Limits limits = kNoHurry,
                         const std::vector<Cell>& opening = {}) {
  ProcessPlayer a(first, -1), b(second, -1);
  Player* seats[2] = {&a, &b};
  return refereeGame(seats, opening, limits);
}

bool processGone(pid_t pid) {
  return yav::waitFor(
      [&] {
        if (kill(pid, 0) != 0) return true;
        std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
        std::string text;
        std::getline(stat, text);
        size_t close = text.rfind(')');
        return close != std::string::npos && close + 2 < text.size() &&
               text[close + 2] == 'Z';  // dead, reaping pending
      },
      30);
}

}  // namespace

TEST(ArenaFakeBots, LegalBotsFinishAGame) {
  GameResult r = playProcesses(fake("legal --seed 3"), fake("legal --seed 4"));
  EXPECT_TRUE(r.reason == Reason::Line4 || r.reason == Reason::Line3 || r.reason == Reason::Draw)
      << reasonName(r.reason) << ": " << r.detail;
  EXPECT_GE(r.moves.size(), 7u);
  for (const auto& m : r.moves) EXPECT_GE(m.ms, 0);
}

TEST(ArenaFakeBots, EachMisbehaviourLosesWithItsReason) {
  struct Case {
    const char* mode;
    Reason reason;
    const char* detail;
  };
  const Case cases[] = {
      {"timeout", Reason::Timeout, "no answer within 1000 ms"},
      {"crash", Reason::Crash, "signal 6"},
      {"exit", Reason::Crash, "exit code 3"},
      {"garbage", Reason::BadOutput, "'hello'"},
      {"space", Reason::BadOutput, "expected 'x y'"},
      {"double_space", Reason::BadOutput, "expected 'x y'"},
      {"offboard", Reason::Illegal, "off the board"},
      {"occupied", Reason::Illegal, "occupied"},
  };
  for (const Case& c : cases) {
    // Misbehave on the bot's second turn, playing second: the first turn was fine. Only the
    // timeout case has a short limit, a second, which only a hang breaks for the legal bot; the
    // others get seconds, so that a bot descheduled on a loaded machine still misbehaves before
    // its time is up (an exit was once seen as a timeout).
    const Limits limits = c.reason == Reason::Timeout ? Limits{10000, 1000, 1.0} : kNoHurry;
    GameResult r = playProcesses(fake("legal --seed 9"), fake(std::string(c.mode) + " --turn 2"), limits);
    EXPECT_EQ(r.reason, c.reason) << c.mode << ": " << r.detail;
    EXPECT_EQ(r.winnerSeat, 0) << c.mode;
    EXPECT_NE(r.detail.find(c.detail), std::string::npos) << c.mode << ": " << r.detail;
    EXPECT_NE(r.detail.find("seat 2"), std::string::npos) << c.mode << ": " << r.detail;
    EXPECT_EQ(r.moves.size(), 3u) << c.mode;
  }
}

TEST(ArenaFakeBots, MessageAfterTheMoveIsAllowed) {
  GameResult r = playProcesses(fake("message"), fake("legal"));
  EXPECT_NE(r.reason, Reason::BadOutput) << r.detail;
  ASSERT_FALSE(r.moves.empty());
  EXPECT_EQ(r.moves[0].message, "some message/here");
}

TEST(ArenaFakeBots, StealIsPlayed) {
  GameResult r = playProcesses(fake("legal --seed 2"), fake("steal --seed 5"));
  ASSERT_GE(r.moves.size(), 2u);
  EXPECT_EQ(r.moves[0].cell, r.moves[1].cell);
  EXPECT_TRUE(r.reason == Reason::Line4 || r.reason == Reason::Line3 || r.reason == Reason::Draw) << r.detail;
}

TEST(ArenaFakeBots, SlowAnswersAreCountedWithinGrace) {
  // Limit 40 ms, grace 100 (4 s): a 60 ms answer is slow but legal.
  GameResult r = playProcesses(fake("slow --ms 60 --turn 2"), fake("legal"), Limits{10000, 40, 100.0});
  EXPECT_NE(r.reason, Reason::Timeout) << r.detail;
  int slow = 0;
  for (size_t i = 0; i < r.moves.size(); i += 2) slow += r.moves[i].slow;
  EXPECT_GE(slow, 1);
  EXPECT_FALSE(r.moves[0].slow);
  // Beyond limit x grace it loses.
  r = playProcesses(fake("slow --ms 300 --turn 2"), fake("legal"), Limits{10000, 40, 2.0});
  EXPECT_EQ(r.reason, Reason::Timeout);
  EXPECT_EQ(r.winnerSeat, 1);
}

TEST(ArenaFakeBots, BotReceivesTheExactProtocol) {
  const std::string log = scratchPath("arena_protocol.log");
  std::remove(log.c_str());
  std::vector<Cell> opening;
  std::string error;
  ASSERT_TRUE(parseMoveList("4 4", opening, error));
  // Opening (4,4) for seat 0; the logging bot plays seat 1 and steals.
  GameResult r = playProcesses(fake("legal --seed 1"), fake("steal --log " + log), kNoHurry, opening);
  std::ifstream in(log);
  std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string firstInput =
      "2\n9\n00000\n000000\n0000000\n00000000\n000020000\n00000000\n0000000\n000000\n00000\n4 4\n";
  EXPECT_EQ(all.substr(0, firstInput.size()), firstInput);
  EXPECT_EQ(all.find("\n2\n", 1), std::string::npos);  // the id line is sent once
  EXPECT_EQ(r.moves[1].cell, cellAt(4, 4));            // stole the opening stone
}

TEST(ArenaFakeBots, NoOrphanAfterAHangingBotWithAChild) {
  const std::string pidfile = scratchPath("arena_orphan.pids");
  std::remove(pidfile.c_str());
  GameResult r = playProcesses(fake("legal"), fake("orphan --turn 1 --pidfile " + pidfile), Limits{2000, 50, 1.0});
  EXPECT_EQ(r.reason, Reason::Timeout);
  std::ifstream in(pidfile);
  std::vector<pid_t> pids;
  for (pid_t p; in >> p;) pids.push_back(p);
  ASSERT_EQ(pids.size(), 2u);  // the bot and its 'sleep' child
  for (pid_t p : pids) EXPECT_TRUE(processGone(p)) << "pid " << p << " survived the game";
}

TEST(ArenaFakeBots, CommandThatCannotRunLoses) {
  GameResult r = playProcesses("/nonexistent/bot", fake("legal"));
  EXPECT_EQ(r.reason, Reason::Crash);
  EXPECT_EQ(r.winnerSeat, 1);
  EXPECT_NE(r.detail.find("exit code 127"), std::string::npos) << r.detail;
}

TEST(ArenaFakeBots, EndlessOutputWithoutNewlineIsBadOutput) {
  GameResult r = playProcesses("yes | tr -d '\\n'", fake("legal"));
  EXPECT_EQ(r.reason, Reason::BadOutput);
  EXPECT_EQ(r.winnerSeat, 1);
  EXPECT_LT(r.detail.size(), 400u);
}

TEST(ArenaFakeBots, ClosedOutputWhileRunningIsACrash) {
  GameResult r = playProcesses(fake("legal"), "exec >&-; sleep 5");
  EXPECT_EQ(r.reason, Reason::Crash);
  EXPECT_EQ(r.winnerSeat, 0);
  EXPECT_NE(r.detail.find("closed its output"), std::string::npos) << r.detail;
}
