// The referee: plays one game between two players with the exact CodinGame protocol and rules.
// The rules come from the core (`Board::play`, `Board::isLegal`, steal included); this file only
// adds what the CodinGame referee does around them: the per-player input, output parsing, limits.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "board.h"
#include "protocol.h"
#include "tools/arena/process.h"

namespace yav::arena {

// Why a game ended. The loser is the player to move for everything except Line4 (winner moved)
// and Draw.
enum class Reason { Line4, Line3, Draw, Timeout, Illegal, BadOutput, Crash, Aborted };
constexpr int kReasons = 8;
inline const char* reasonName(Reason r) {
  static const char* const names[kReasons] = {"line4",   "line3",      "draw",  "timeout",
                                              "illegal", "bad_output", "crash", "aborted"};
  return names[int(r)];
}
inline bool reasonFromName(const std::string& s, Reason& r) {
  for (int i = 0; i < kReasons; ++i)
    if (s == reasonName(Reason(i))) return r = Reason(i), true;
  return false;
}

struct Limits {
  double firstTurnMs = 1000;  // a bot's own first turn
  double turnMs = 100;        // every later turn
  double grace = 1.5;         // a reply later than limit x grace loses; later than limit is "slow"
};

// One turn's answer as the referee saw it.
struct Reply {
  enum class Status { Line, Timeout, Closed, Stopped } status = Status::Line;
  std::string line;      // the answer (Line) or the unterminated rest the bot printed (Closed)
  double ms = 0;         // from sending the input to receiving the line
  std::string exitInfo;  // how the process ended (Closed)
};

class Player {
 public:
  virtual ~Player() = default;
  virtual bool start(std::string& error) = 0;
  // Sends one turn's input and waits at most `hardLimitMs` for a line.
  virtual Reply ask(const std::string& input, double hardLimitMs) = 0;
  virtual void stop() = 0;
};

// A bot run as `/bin/sh -c command` (a fresh process per game).
class ProcessPlayer : public Player {
 public:
  ProcessPlayer(std::string command, int stderrFd) : command_(std::move(command)), stderrFd_(stderrFd) {}
  bool start(std::string& error) override {
    process_ = std::make_unique<BotProcess>();
    return process_->start(command_, stderrFd_, error);
  }
  Reply ask(const std::string& input, double hardLimitMs) override {
    Reply reply;
    const auto sent = Clock::now();
    const bool written = process_->send(input);
    const auto deadline = sent + std::chrono::microseconds(int64_t(hardLimitMs * 1000));
    // A bot that exited may still have printed its answer; read what is there either way.
    auto status = process_->readLine(reply.line, written ? deadline : sent + std::chrono::milliseconds(50));
    reply.ms = msSince(sent);
    switch (status) {
      case BotProcess::ReadStatus::Line:
        reply.status = Reply::Status::Line;
        break;
      case BotProcess::ReadStatus::Timeout:
        reply.status = written ? Reply::Status::Timeout : Reply::Status::Closed;
        break;
      case BotProcess::ReadStatus::Closed:
        reply.status = Reply::Status::Closed;
        break;
      case BotProcess::ReadStatus::Stopped:
        reply.status = Reply::Status::Stopped;
        break;
    }
    if (reply.status == Reply::Status::Closed) reply.exitInfo = process_->exitDescription();
    return reply;
  }
  void stop() override {
    if (process_) process_->kill();
  }

 private:
  std::string command_;
  int stderrFd_;
  std::unique_ptr<BotProcess> process_;
};

// A bot's line as quoted in messages and records: long garbage is cut.
inline std::string shortened(const std::string& line, size_t max = 200) {
  return line.size() <= max ? line : line.substr(0, max) + "...(" + std::to_string(line.size()) + " bytes)";
}

// Java's Integer.parseInt: optional sign, decimal digits, must fit in an int.
inline bool parseJavaInt(const std::string& s, long long& v) {
  size_t i = (!s.empty() && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
  if (i == s.size() || s.size() - i > 11) return false;
  for (size_t k = i; k < s.size(); ++k)
    if (s[k] < '0' || s[k] > '9') return false;
  v = std::stoll(s);
  return v >= -2147483648LL && v <= 2147483647LL;
}

// The answer line as the CodinGame referee reads it: split on every single whitespace character
// (so a leading space or a double space yields an empty token and fails), two integers, and
// anything after them is the viewer message. Returns false with `error` describing the problem.
inline bool parseAnswer(const std::string& line, int& x, int& y, std::string& message, std::string& error) {
  std::vector<std::string> tokens(1);
  for (char c : line) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v')
      tokens.emplace_back();
    else
      tokens.back() += c;
  }
  while (tokens.size() > 1 && tokens.back().empty()) tokens.pop_back();  // Java drops trailing empties
  long long vx = 0, vy = 0;
  if (tokens.size() < 2 || !parseJavaInt(tokens[0], vx) || !parseJavaInt(tokens[1], vy)) {
    error = "expected 'x y', got '" + shortened(line) + "'";
    return false;
  }
  x = int(vx), y = int(vy);
  message.clear();
  for (size_t i = 2; i < tokens.size(); ++i) message += (i > 2 ? " " : "") + tokens[i];
  return true;
}

// A bot's reply to one turn, judged as the referee does: the legal move it holds, or kNoCell with
// the reason the bot loses by it and what went wrong, said after the bot's name ("gave no answer
// within 150 ms", "(9,9) is off the board"); Reason::Aborted when the match was interrupted.
// `message` receives the answer's viewer message.
struct JudgedReply {
  Cell cell = kNoCell;
  Reason reason = Reason::Aborted;
  std::string problem;
};
inline JudgedReply judgeReply(const Reply& reply, const Board& board, double limitMs, double grace,
                              std::string& message) {
  JudgedReply j;
  auto fail = [&j](Reason reason, std::string problem) {
    j.reason = reason, j.problem = std::move(problem);
    return j;
  };
  switch (reply.status) {
    case Reply::Status::Stopped:
      return fail(Reason::Aborted, "match interrupted");
    case Reply::Status::Timeout:
      return fail(Reason::Timeout, "gave no answer within " + std::to_string(int(limitMs * grace)) + " ms");
    case Reply::Status::Closed:
      return fail(Reason::Crash, "closed its output before answering (" + reply.exitInfo + ")");
    case Reply::Status::Line:
      break;
  }
  if (reply.ms > limitMs * grace)  // the line arrived, but too late
    return fail(Reason::Timeout, "answered after " + std::to_string(int(reply.ms)) + " ms");
  int x = 0, y = 0;
  std::string error;
  if (!parseAnswer(reply.line, x, y, message, error)) return fail(Reason::BadOutput, error);
  if (!onBoardXY(x, y))
    return fail(Reason::Illegal, "(" + std::to_string(x) + "," + std::to_string(y) + ") is off the board");
  if (!board.isLegal(cellAt(x, y))) return fail(Reason::Illegal, "(" + cellName(cellAt(x, y)) + ") is occupied");
  j.cell = cellAt(x, y);
  return j;
}

struct MoveRecord {
  Cell cell = kNoCell;
  double ms = -1;       // response time; -1 for forced opening moves
  bool slow = false;    // later than the limit (but within limit x grace)
  std::string message;  // the bot's viewer message, if any
};

struct GameResult {
  int winnerSeat = -1;  // 0 or 1; -1 for a draw or an aborted game
  Reason reason = Reason::Aborted;
  std::string detail;  // human-readable cause (the bad line, exit status, ...)
  int openingPlies = 0;
  std::vector<MoveRecord> moves;  // opening moves first
  std::string finalAnswer;        // what the losing bot answered on its last turn, if it did
  double finalMs = -1;            // when that last, losing answer came (a late, bad or illegal one); -1: none
};

// Plays one game. `opening` holds forced moves (validated legal and not ending the game) played
// before the bots are asked. `players[seat]` plays seat 0 (first) or 1.
inline GameResult refereeGame(Player* players[2], const std::vector<Cell>& opening, const Limits& limits) {
  GameResult result;
  Board board;
  Cell lastMove = kNoCell;
  for (Cell c : opening) {
    MoveRecord m;
    m.cell = c;
    board.play(c);
    result.moves.push_back(m);
    lastMove = c;
  }
  result.openingPlies = int(opening.size());

  for (int seat = 0; seat < 2; ++seat) {
    std::string error;
    if (!players[seat]->start(error)) {
      players[0]->stop(), players[1]->stop();
      result.winnerSeat = seat ^ 1;
      result.reason = Reason::Crash;
      result.detail = "could not start: " + error;
      return result;
    }
  }
  bool hadFirstTurn[2] = {false, false};
  auto finish = [&](int winner, Reason reason, std::string detail) {
    players[0]->stop(), players[1]->stop();
    result.winnerSeat = winner;
    result.reason = reason;
    result.detail = std::move(detail);
    return result;
  };
  for (;;) {
    const int seat = board.toMove();
    const bool first = !hadFirstTurn[seat];
    hadFirstTurn[seat] = true;
    const double limit = first ? limits.firstTurnMs : limits.turnMs;
    Reply reply = players[seat]->ask(formatTurn(board, seat, lastMove, first), limit * limits.grace);
    const std::string who = "seat " + std::to_string(seat + 1);
    if (reply.status == Reply::Status::Line)
      result.finalMs = reply.ms;  // kept only if this answer ends the game without a move
    std::string message;
    const JudgedReply judged = judgeReply(reply, board, limit, limits.grace, message);
    if (judged.cell == kNoCell) {
      if (judged.reason == Reason::Aborted) return finish(-1, Reason::Aborted, judged.problem);
      if (judged.reason != Reason::Timeout) result.finalAnswer = shortened(reply.line);
      const bool aboutTheLine = judged.reason == Reason::BadOutput || judged.reason == Reason::Illegal;
      return finish(seat ^ 1, judged.reason, who + (aboutTheLine ? ": " : " ") + judged.problem);
    }
    const Cell cell = judged.cell;
    MoveRecord m;
    m.cell = cell;
    m.ms = reply.ms;
    m.slow = reply.ms > limit;
    m.message = message;
    result.moves.push_back(m);
    result.finalMs = -1;
    const Outcome outcome = board.play(cell);
    lastMove = cell;
    if (outcome == Outcome::Win) return finish(seat, Reason::Line4, who + " made a line of 4");
    if (outcome == Outcome::Loss) return finish(seat ^ 1, Reason::Line3, who + " made a line of 3");
    if (outcome == Outcome::Draw) return finish(-1, Reason::Draw, "board full");
  }
}

// Parses a list of moves "x y" (pairs of integers separated by spaces, commas or semicolons),
// checks them against the rules, and rejects lists that end the game (unless `mayEnd`, where the
// last move may decide it).
inline bool parseMoveList(const std::string& text, std::vector<Cell>& moves, std::string& error, bool mayEnd = false) {
  std::vector<long long> numbers;
  std::string token;
  auto flush = [&]() -> bool {
    if (token.empty()) return true;
    long long v = 0;
    if (!parseJavaInt(token, v)) {
      error = "'" + token + "' is not a number";
      return false;
    }
    numbers.push_back(v);
    token.clear();
    return true;
  };
  for (char c : text) {
    if (c == ' ' || c == '\t' || c == ',' || c == ';' || c == '\r') {
      if (!flush()) return false;
    } else {
      token += c;
    }
  }
  if (!flush()) return false;
  if (numbers.size() % 2 != 0) {
    error = "odd count of coordinates (expected pairs 'x y')";
    return false;
  }
  moves.clear();
  Board board;
  for (size_t i = 0; i < numbers.size(); i += 2) {
    const long long x = numbers[i], y = numbers[i + 1];
    if (!onBoardXY(int(x), int(y)) || x != int(x) || y != int(y)) {
      error = "(" + std::to_string(x) + "," + std::to_string(y) + ") is off the board";
      return false;
    }
    const Cell c = cellAt(int(x), int(y));
    if (!board.isLegal(c)) {
      error = "move " + std::to_string(i / 2 + 1) + " (" + cellName(c) + ") is not legal";
      return false;
    }
    if (board.play(c) != Outcome::None && !(mayEnd && i + 2 == numbers.size())) {
      error = "move " + std::to_string(i / 2 + 1) + " (" + cellName(c) + ") ends the game";
      return false;
    }
    moves.push_back(c);
  }
  return true;
}

}  // namespace yav::arena
