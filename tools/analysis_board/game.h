// The game on the analysis board: its moves, who sits in each seat (a person or a bot command), and the bot
// processes. A bot is run as the arena runs it (tools/arena/referee.h: ProcessPlayer, formatTurn,
// judgeReply): a fresh process speaking the CodinGame protocol, its id line and 1000 ms on its own
// first turn, the steal as CodinGame handles it. Unlike the arena, a bot that crashes, times out
// or answers badly does not lose: the problem is reported and the game is kept (undo, or ask the
// bot again, which starts it afresh). After an undo or a set-up the bots start afresh too, from
// the position on the board, as the arena starts them after an opening.
#pragma once

#include <unistd.h>

#include <array>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "board.h"
#include "protocol.h"
#include "tools/arena/json.h"
#include "tools/arena/process.h"
#include "tools/arena/referee.h"
#include "tools/arena/replay.h"
#include "tools/analysis_board/bot_line.h"

namespace yav::board {

// "3 2; 3 3": the list the page shows, copies and sets up from (tools' --moves form).
inline std::string moveListText(const std::vector<Cell>& moves) {
  std::string s;
  for (size_t i = 0; i < moves.size(); ++i) s += (i ? "; " : "") + cellName(moves[i]);
  return s;
}

// [[x,y],...] of a set of cells.
inline std::string cellsJson(Bitboard cells) {
  std::string s = "[";
  for (Cell c = 0; c < kCells; ++c)
    if (cells >> c & 1)
      s += std::string(s.size() > 1 ? "," : "") + "[" + std::to_string(geometry().x[c]) + "," +
           std::to_string(geometry().y[c]) + "]";
  return s + "]";
}

struct Seat {
  bool bot = false;
  std::string command;  // the bot's command line (bot seats)
  std::string name;     // shown on the page
};

// One move of the game, with what its bot said about it.
struct Ply {
  Cell cell = kNoCell;
  int seat = 0;
  bool steal = false;
  bool byBot = false;
  double ms = -1;       // the bot's answer time as the referee measured it
  std::string message;  // the bot's viewer message
  BotTurnLine line;     // the bot's stderr line for the turn
};

// A bot process of one seat: started when first asked, its stderr kept in an unnamed temporary
// file read after each answer.
class BotSeat {
 public:
  BotSeat() = default;
  BotSeat(const BotSeat&) = delete;
  BotSeat& operator=(const BotSeat&) = delete;
  ~BotSeat() { stop(); }

  void stop() {
    if (player_) player_->stop();
    player_.reset();
    if (stderrFd_ >= 0) close(stderrFd_);
    stderrFd_ = -1, stderrRead_ = 0, hadFirstTurn_ = false, printsTurnLines_ = true;
  }

  // Asks for a move in `board` (this seat to move); `ply` gets the legal move and what the bot
  // said, or `problem` says what went wrong (the process is then stopped).
  bool ask(const std::string& command, const Board& board, Cell lastMove, const arena::Limits& limits, Ply& ply,
           std::string& problem) {
    if (!player_) {
      stderrFd_ = arena::unnamedTemporaryFile();
      player_ = std::make_unique<arena::ProcessPlayer>(command, stderrFd_);
      std::string error;
      if (!player_->start(error)) {
        stop();
        return problem = "could not start: " + error, false;
      }
    }
    const int seat = board.toMove();
    const bool first = !hadFirstTurn_;
    hadFirstTurn_ = true;
    const double limit = first ? limits.firstTurnMs : limits.turnMs;
    const arena::Reply reply = player_->ask(formatTurn(board, seat, lastMove, first), limit * limits.grace);
    std::string message;
    const arena::JudgedReply judged = arena::judgeReply(reply, board, limit, limits.grace, message);
    if (judged.cell == kNoCell) {
      problem = judged.problem + stderrTail();
      stop();
      return false;
    }
    ply.cell = judged.cell, ply.seat = seat, ply.byBot = true, ply.ms = reply.ms, ply.message = message;
    ply.steal = board.canSteal() && judged.cell == board.stealCell();
    ply.line = parseBotTurnLine(newStderr(printsTurnLines_));
    printsTurnLines_ = ply.line.found;  // a bot that printed none on its first turn is not waited for again
    return true;
  }

 private:
  // What the bot wrote on stderr since the last read. The bot writes its line after its answer,
  // piece by piece: when `waitForTurnLine`, wait up to half a second for a whole "turn" line.
  std::string newStderr(bool waitForTurnLine) {
    std::string text;
    if (stderrFd_ < 0) return text;
    for (int tries = 0; tries < 100; ++tries) {
      char chunk[4096];
      ssize_t n;
      while ((n = pread(stderrFd_, chunk, sizeof chunk, off_t(stderrRead_))) > 0)
        text.append(chunk, size_t(n)), stderrRead_ += size_t(n);
      const size_t turn = text.rfind("turn ");
      if (!waitForTurnLine || (turn != std::string::npos && text.find('\n', turn) != std::string::npos)) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return text;
  }
  // The end of the bot's stderr, to show with a failure (a crash's message).
  std::string stderrTail() {
    std::string text = newStderr(false);
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    if (text.empty()) return "";
    return "; its stderr ends: " + (text.size() > 300 ? "..." + text.substr(text.size() - 300) : text);
  }

  std::unique_ptr<arena::ProcessPlayer> player_;
  int stderrFd_ = -1;
  size_t stderrRead_ = 0;
  bool hadFirstTurn_ = false;
  bool printsTurnLines_ = true;  // until a first answer came without one
};

class Game {
 public:
  explicit Game(arena::Limits limits = arena::Limits()) : limits_(limits) {}

  // A new game from `moves` (checked: legal; the last may end the game) with these seats.
  bool start(const std::array<Seat, 2>& seats, const std::vector<Cell>& moves, std::string& error) {
    Board b;
    Outcome end = Outcome::None;
    for (size_t i = 0; i < moves.size(); ++i) {
      if (end != Outcome::None)
        return error = "move " + std::to_string(i + 1) + " comes after the end of the game", false;
      if (!b.isLegal(moves[i]))
        return error = "move " + std::to_string(i + 1) + " (" + cellName(moves[i]) + ") is not legal", false;
      end = b.play(moves[i]);
    }
    seats_ = seats;
    stopBots();
    plies_.clear();
    for (Cell c : moves) {
      Ply p;
      p.cell = c;
      plies_.push_back(p);
    }
    replay();
    problem_.clear();
    return true;
  }

  const Board& board() const { return board_; }
  bool isOver() const { return outcome_ != Outcome::None; }
  bool botToMove() const { return !isOver() && seats_[board_.toMove()].bot; }
  const std::array<Seat, 2>& seats() const { return seats_; }
  std::vector<Cell> moves() const {
    std::vector<Cell> m;
    for (const Ply& p : plies_) m.push_back(p.cell);
    return m;
  }

  // A person's move; false with the reason when it is refused (the game is unchanged).
  bool humanMove(Cell c, std::string& error) {
    if (isOver()) return error = "the game is over: " + result_, false;
    if (seats_[board_.toMove()].bot)
      return error = "it is " + seats_[board_.toMove()].name + "'s turn, not yours", false;
    if (c < 0 || c >= kCells) return error = "not a cell of the board", false;
    if (!board_.isLegal(c))
      return error = "(" + cellName(c) + ") is taken" +
                     (board_.stoneCount() == 1 ? "" : " (a steal is only legal on the second move)"),
             false;
    Ply p;
    p.cell = c, p.seat = board_.toMove(), p.steal = board_.canSteal() && c == board_.stealCell();
    plies_.push_back(p);
    replay();
    problem_.clear();
    return true;
  }

  // The bot to move answers; false with what went wrong (kept in problem(): the game goes on).
  bool botMove(std::string& error) {
    if (isOver()) return error = "the game is over: " + result_, false;
    const int seat = board_.toMove();
    if (!seats_[seat].bot) return error = "it is your turn, not the bot's", false;
    Ply p;
    std::string problem;
    if (!bots_[seat].ask(seats_[seat].command, board_, plies_.empty() ? kNoCell : plies_.back().cell, limits_, p,
                         problem)) {
      problem_ = seats_[seat].name + " (player " + std::to_string(seat + 1) + ") " + problem +
                 ". The game is kept: ask the bot again (it restarts) or undo.";
      return error = problem_, false;
    }
    plies_.push_back(p);
    replay();
    problem_.clear();
    return true;
  }

  // Takes back moves until a person is to move (one move when both seats are people or bots).
  bool undo(std::string& error) {
    if (plies_.empty()) return error = "no move to take back", false;
    plies_.pop_back();
    const bool anyHuman = !seats_[0].bot || !seats_[1].bot;
    while (anyHuman && !plies_.empty() && seats_[toMoveAfter(plies_.size())].bot) plies_.pop_back();
    stopBots();  // their trees and turn count belong to the position taken back
    replay();
    problem_.clear();
    return true;
  }

  const std::string& problem() const { return problem_; }

  // Everything the page draws, as JSON.
  std::string stateJson() const {
    using arena::json::number;
    using arena::json::quote;
    std::string s = "{\"moves\":" + quote(moveListText(moves())) +
                    ",\"to_move\":" + std::to_string(board_.toMove() + 1) +
                    ",\"over\":" + (isOver() ? "true" : "false") + ",\"result\":" + quote(result_) +
                    ",\"winner\":" + std::to_string(winner_ + 1) +
                    ",\"bot_to_move\":" + (botToMove() ? "true" : "false") + ",\"problem\":" + quote(problem_) +
                    ",\"steal_available\":" + (board_.canSteal() ? "true" : "false") + ",\"seats\":[";
    for (int i = 0; i < 2; ++i)
      s += std::string(i ? "," : "") + "{\"bot\":" + (seats_[i].bot ? "true" : "false") +
           ",\"name\":" + quote(seats_[i].name) + "}";
    s += "],\"stones\":[";
    bool first = true;
    for (int player = 0; player < 2; ++player)
      for (Cell c = 0; c < kCells; ++c)
        if (board_.stones(player) >> c & 1) {
          s += std::string(first ? "" : ",") + "{\"x\":" + std::to_string(geometry().x[c]) +
               ",\"y\":" + std::to_string(geometry().y[c]) + ",\"player\":" + std::to_string(player + 1) +
               ",\"ply\":" + std::to_string(position_.placedAt[c]) + "}";
          first = false;
        }
    s += "],\"deciding_line\":" + cellsJson(position_.decidingLine) + ",\"plies\":[";
    for (size_t i = 0; i < plies_.size(); ++i) {
      const Ply& p = plies_[i];
      s += std::string(i ? "," : "") + "{\"x\":" + std::to_string(geometry().x[p.cell]) +
           ",\"y\":" + std::to_string(geometry().y[p.cell]) + ",\"player\":" + std::to_string(p.seat + 1) +
           ",\"steal\":" + (p.steal ? "true" : "false") + ",\"bot\":" + (p.byBot ? "true" : "false");
      if (p.byBot) {
        s += ",\"ms\":" + number(p.ms, 1) + ",\"message\":" + quote(p.message) + ",\"line\":" + quote(p.line.text) +
             ",\"book\":" + (p.line.book ? "true" : "false") + ",\"iterations\":" + std::to_string(p.line.iterations) +
             ",\"value\":" + number(p.line.value, 2) + ",\"proof\":" + quote(p.line.proof) +
             ",\"bot_ms\":" + number(p.line.ms, 1);
      }
      s += "}";
    }
    return s + "]}";
  }

  void stopBots() {
    bots_[0].stop();
    bots_[1].stop();
  }

 private:
  int toMoveAfter(size_t plies) const {
    Board b;
    for (size_t i = 0; i < plies; ++i) b.play(plies_[i].cell);
    return b.toMove();
  }
  // The board, outcome, deciding line and result text from the moves, as the viewer replays a
  // record (the stolen stone keeps the number of the ply that placed it).
  void replay() {
    std::vector<arena::MoveRecord> records(plies_.size());
    for (size_t i = 0; i < plies_.size(); ++i) records[i].cell = plies_[i].cell;
    position_ = arena::replayTo(records, records.size());
    board_ = position_.board;
    Board before;
    for (Ply& p : plies_) {  // who moved, and which move took the first stone
      p.seat = before.toMove();
      p.steal = before.canSteal() && p.cell == before.stealCell();
      before.play(p.cell);
    }
    outcome_ = position_.lastOutcome, winner_ = -1, result_.clear();
    if (outcome_ == Outcome::None) return;
    const int mover = plies_.back().seat;
    const std::string who = "player " + std::to_string(mover + 1) + " (" + seats_[mover].name + ")";
    if (outcome_ == Outcome::Win)
      winner_ = mover, result_ = who + " made a line of 4 and wins";
    else if (outcome_ == Outcome::Loss)
      winner_ = mover ^ 1, result_ = who + " made a line of 3 and loses";
    else
      result_ = "the board is full: a draw";
  }

  arena::Limits limits_;
  std::array<Seat, 2> seats_;
  std::array<BotSeat, 2> bots_;
  std::vector<Ply> plies_;
  Board board_;
  arena::ReplayPosition position_;
  Outcome outcome_ = Outcome::None;
  int winner_ = -1;
  std::string result_, problem_;
};

}  // namespace yav::board
