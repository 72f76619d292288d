// The analysis board's HTTP API: the page (GET /) and the JSON routes it calls. Every answer is JSON; a
// refusal is a 4xx status with {"error": why, "state": ...} and leaves the game as it was. The
// bots' commands come from the server's command line only, never from a request.
#pragma once

#include <array>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tools/arena/record_file.h"
#include "tools/analysis_board/analysis.h"
#include "tools/common/cli.h"
#include "tools/analysis_board/game.h"
#include "tools/analysis_board/http.h"
#include "tools/analysis_board/page.h"
#include "tools/analysis_board/server.h"

namespace yav::board {

// The shortest "think for N ms" a request may ask (the page's field has the same minimum).
constexpr double kMinThinkMs = 10;

struct BoardOptions {
  std::string bot = "build/bin/bot";  // plays against the person, and bot A when watching
  std::string watchBot;               // bot B when watching ("" = the same command as --bot)
  double maxThinkMs = 10000;
  size_t thinkNodes = size_t(4) << 20;  // the search tree of "think" (24 bytes a node)
};

// A program's name for the page: the file name of the command's first word.
inline std::string commandName(const std::string& command) {
  std::string first = command.substr(0, command.find(' '));
  const size_t slash = first.rfind('/');
  return slash == std::string::npos ? first : first.substr(slash + 1);
}

// A JSON text nested deeper than `maxDepth` (the record reader recurses once per level).
inline bool nestedTooDeep(const std::string& text, int maxDepth = 64) {
  int depth = 0;
  bool inString = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
    } else if (c == '"')
      inString = true;
    else if (c == '[' || c == '{') {
      if (++depth > maxDepth) return true;
    } else if (c == ']' || c == '}')
      --depth;
    else if (c == '\n')
      depth = 0;  // one record a line
  }
  return false;
}

// One thread, as long-lived as the app, that runs the game's changes in turn. Every bot process is
// started (forked) on it: the arena gives a bot PR_SET_PDEATHSIG (tools/arena/process.h), which
// Linux fires when the *thread* that forked it ends, so a bot started on a connection's thread
// would be killed when that connection ends. Here a bot dies with the app's thread, that is with
// the server.
class GameThread {
 public:
  GameThread() : thread_([this] { loop(); }) {}
  GameThread(const GameThread&) = delete;
  GameThread& operator=(const GameThread&) = delete;
  ~GameThread() {  // after the changes asked before (nobody asks once the app is being destroyed)
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ending_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }

  // Runs `task` on the thread, after the tasks asked before it, and waits for its answer (an
  // exception it throws is thrown here).
  HttpResponse run(const std::function<HttpResponse()>& task) {
    Job job{&task, {}, nullptr, false};
    std::unique_lock<std::mutex> lock(mutex_);
    jobs_.push_back(&job);
    wake_.notify_all();
    done_.wait(lock, [&] { return job.done; });
    if (job.error) std::rethrow_exception(job.error);
    return job.response;
  }

 private:
  struct Job {
    const std::function<HttpResponse()>* task;
    HttpResponse response;
    std::exception_ptr error;
    bool done;
  };
  void loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      wake_.wait(lock, [&] { return ending_ || !jobs_.empty(); });
      if (jobs_.empty()) return;
      Job* job = jobs_.front();
      jobs_.pop_front();
      lock.unlock();
      try {
        job->response = (*job->task)();
      } catch (...) {
        job->error = std::current_exception();
      }
      lock.lock();
      job->done = true;
      done_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::deque<Job*> jobs_;  // each on the stack of the run() that waits for it
  bool ending_ = false;
  std::thread thread_;
};

// Called from the server's threads at once. The game changes on gameThread_ (so its bots are
// started there), one request at a time (a bot's move holds the next change for its answer);
// /api/state answers from the last state published, so that neither a bot's move nor a think holds
// it up. /api/analyse and /api/record read no game; thinks take turns on the one search tree
// (Thinker) and /api/stop ends them.
class BoardApp {
 public:
  BoardApp(BoardOptions options, arena::Limits limits = arena::Limits())
      : options_(std::move(options)), thinker_(options_.thinkNodes), game_(limits) {
    std::string error;
    std::lock_guard<std::mutex> lock(gameMutex_);
    game_.start(seatsFor("1"), {}, error);
    publish();
  }
  ~BoardApp() { stopBots(); }

  HttpResponse handle(const HttpRequest& r) {
    std::map<std::string, std::string> form;
    std::string error;
    if (!parseForm(r.query, form, error) ||
        !parseForm(r.method == "POST" && r.path != "/api/record" ? r.body : "", form, error))
      return errorResponse(400, error);
    if (r.path == "/" || r.path == "/index.html") {
      if (r.method != "GET" && r.method != "HEAD") return errorResponse(405, "use GET");
      return {200, "text/html; charset=utf-8", kBoardPage};
    }
    if (r.path == "/api/state" || r.path == "/api/analyse") {
      if (r.method != "GET") return errorResponse(405, "use GET for " + r.path);
      return r.path == "/api/state" ? HttpResponse{200, "application/json", stateJson()} : analyse(form);
    }
    if (r.method != "POST")
      return r.path.rfind("/api/", 0) == 0 ? errorResponse(405, "use POST for " + r.path)
                                           : errorResponse(404, "no page " + r.path);
    if (r.path == "/api/record") return record(r.body);
    if (r.path == "/api/stop") return {200, "application/json", "{\"stopped\":" + std::to_string(stopThinks()) + "}"};
    if (r.path != "/api/new" && r.path != "/api/move" && r.path != "/api/bot" && r.path != "/api/undo" &&
        r.path != "/api/setup")
      return errorResponse(404, "no route " + r.path);
    return gameThread_.run([&]() -> HttpResponse {
      std::lock_guard<std::mutex> lock(gameMutex_);
      if (r.path == "/api/new") return newGame(form);
      if (r.path == "/api/move") return move(form);
      if (r.path == "/api/bot") return botMove();
      if (r.path == "/api/undo") return refusalOr(game_.undo(error), error);
      return setup(form);
    });
  }

  void stopBots() {
    gameThread_.run([this] {
      std::lock_guard<std::mutex> lock(gameMutex_);
      game_.stopBots();
      return HttpResponse();
    });
  }
  // Ends every think asked so far (/api/stop; the server's stop, so that it need not wait).
  int stopThinks() { return thinker_.stopAll(); }

  // The book, once loaded (it may take half a minute: the page works without it meanwhile).
  // `analyst` must outlive the app; `loading` says whether one is still to come.
  void setAnalyst(const BookAnalyst* analyst) { analyst_.store(analyst); }
  void setBookLoading(bool loading) { bookLoading_.store(loading); }

 private:
  std::array<Seat, 2> seatsFor(const std::string& mode) const {
    const std::string botB = options_.watchBot.empty() ? options_.bot : options_.watchBot;
    Seat human{false, "", "you"};
    Seat bot{true, options_.bot, commandName(options_.bot)};
    if (mode == "watch") {
      Seat b{true, botB, commandName(botB)};
      if (b.name == bot.name) bot.name += " A", b.name += " B";
      return {bot, b};
    }
    return mode == "2" ? std::array<Seat, 2>{bot, human} : std::array<Seat, 2>{human, bot};
  }
  // The game as /api/state gives it: the state last published, and the thinks running now.
  std::string stateJson() const {
    std::string s;
    {
      std::lock_guard<std::mutex> lock(publishedMutex_);
      s = published_;
    }
    return s.substr(0, s.size() - 1) + ",\"thinking\":" + std::to_string(thinker_.thinking()) + "}";
  }
  // Makes the game as it is now the state /api/state gives (under gameMutex_).
  void publish() {
    const std::string s = game_.stateJson();
    std::lock_guard<std::mutex> lock(publishedMutex_);
    published_ = s.substr(0, s.size() - 1) + ",\"mode\":" + arena::json::quote(mode_) + "}";
  }
  // Answers of the game's routes (under gameMutex_): the game as it is now.
  HttpResponse ok() {
    publish();
    return {200, "application/json", stateJson()};
  }
  HttpResponse gameRefusal(int status, const std::string& why) {
    publish();
    return refusal(status, why);
  }
  HttpResponse refusal(int status, const std::string& why) const {
    return {status, "application/json", "{\"error\":" + arena::json::quote(why) + ",\"state\":" + stateJson() + "}"};
  }
  HttpResponse refusalOr(bool done, const std::string& why) { return done ? ok() : gameRefusal(409, why); }
  // The bot answers when it is to move (playing, not watching: the page steps a watched game).
  // The position it answers is published first: /api/state shows it while the bot thinks.
  HttpResponse answerIfBot() {
    std::string error;
    publish();
    if (mode_ != "watch" && game_.botToMove() && !game_.botMove(error)) return gameRefusal(502, error);
    return ok();
  }

  HttpResponse newGame(const std::map<std::string, std::string>& form) {
    auto it = form.find("seat");
    const std::string mode = it == form.end() ? "1" : it->second;
    if (mode != "1" && mode != "2" && mode != "watch")
      return gameRefusal(400, "seat must be 1, 2 or watch, got '" + mode.substr(0, 40) + "'");
    std::string error;
    mode_ = mode == "watch" ? "watch" : "play";
    game_.start(seatsFor(mode), {}, error);
    return answerIfBot();
  }

  HttpResponse move(const std::map<std::string, std::string>& form) {
    auto it = form.find("move");
    if (it == form.end()) return gameRefusal(400, "no move: send move=X+Y");
    std::istringstream words(it->second);
    std::string xs, ys, extra;
    long long x = 0, y = 0;
    words >> xs >> ys >> extra;
    if (!extra.empty() || !arena::parseJavaInt(xs, x) || !arena::parseJavaInt(ys, y))
      return gameRefusal(400, "'" + arena::shortened(it->second, 40) + "' is not a move 'x y'");
    if (!onBoardXY(int(x), int(y)) || x != int(x) || y != int(y))
      return gameRefusal(400, "(" + std::to_string(x) + "," + std::to_string(y) + ") is off the board");
    std::string error;
    if (!game_.humanMove(cellAt(int(x), int(y)), error)) return gameRefusal(409, error);
    return answerIfBot();
  }

  HttpResponse botMove() {
    std::string error;
    if (!game_.botToMove()) return gameRefusal(409, game_.isOver() ? "the game is over" : "it is not a bot's turn");
    if (!game_.botMove(error)) return gameRefusal(502, error);
    return ok();
  }

  HttpResponse setup(const std::map<std::string, std::string>& form) {
    auto it = form.find("moves");
    std::vector<Cell> moves;
    std::string error;
    if (it == form.end()) return gameRefusal(400, "no moves: send moves=X+Y;X+Y");
    if (!arena::parseMoveList(it->second, moves, error, true)) return gameRefusal(400, "moves: " + error);
    if (!game_.start(game_.seats(), moves, error)) return gameRefusal(400, "moves: " + error);
    return answerIfBot();
  }

  HttpResponse analyse(const std::map<std::string, std::string>& form) {
    auto it = form.find("moves");
    std::vector<Cell> moves;
    std::string error;
    if (it != form.end() && !arena::parseMoveList(it->second, moves, error, true))
      return refusal(400, "moves: " + error);
    std::vector<arena::MoveRecord> records(moves.size());
    for (size_t i = 0; i < moves.size(); ++i) records[i].cell = moves[i];
    const arena::ReplayPosition position = arena::replayTo(records, records.size());
    const Board& b = position.board;
    const bool over = position.lastOutcome != Outcome::None;
    double thinkMs = 0;
    auto think = form.find("think");
    // A think shorter than kMinThinkMs would give no result worth showing: refused, never answered
    // without one.
    if (think != form.end() && !cli::toNumber(think->second, kMinThinkMs, options_.maxThinkMs, thinkMs))
      return refusal(400, "think must be a number of ms from " + std::to_string(int(kMinThinkMs)) + " to " +
                              std::to_string(int(options_.maxThinkMs)) + ", got '" +
                              arena::shortened(think->second, 40) + "'");
    const auto start = arena::Clock::now();
    std::string s = "{\"moves\":" + arena::json::quote(moveListText(moves)) + ",\"over\":" + (over ? "true" : "false") +
                    ",\"deciding_line\":" + cellsJson(position.decidingLine) +
                    ",\"to_move\":" + std::to_string(b.toMove() + 1) +
                    ",\"book\":" + (over ? std::string("null") : bookJson(b));
    s += ",\"book_ms\":" + arena::json::number(arena::msSince(start), 1);
    if (thinkMs > 0 && !over) s += ",\"think\":" + thinker_.thinkJson(b, thinkMs);
    return {200, "application/json", s + "}"};
  }

  std::string bookJson(const Board& b) const {
    if (const BookAnalyst* a = analyst_.load()) return a->analyseJson(b);
    return std::string("{\"book\":false,\"loading\":") + (bookLoading_ ? "true" : "false") + ",\"moves\":[]}";
  }

  HttpResponse record(const std::string& body) {
    if (nestedTooDeep(body)) return refusal(400, "record: JSON nested deeper than 64 levels");
    std::istringstream in(body);
    arena::RecordFile file;
    std::string error;
    if (!arena::readRecordFile(in, "record", file, error)) return refusal(400, error);
    std::string s = "{\"games\":[";
    for (size_t i = 0; i < file.games.size(); ++i) {
      const arena::GameRecord& g = file.games[i];
      std::vector<Cell> moves;
      for (const arena::MoveRecord& m : g.result.moves) moves.push_back(m.cell);
      const std::string first = g.seatOfA == 0 ? g.nameA : g.nameB, second = g.seatOfA == 0 ? g.nameB : g.nameA;
      s += std::string(i ? "," : "") + "{\"game\":" + std::to_string(g.game) + ",\"players\":[" +
           arena::json::quote(first) + "," + arena::json::quote(second) +
           "],\"winner\":" + std::to_string(g.result.winnerSeat + 1) +
           ",\"reason\":" + arena::json::quote(arena::reasonName(g.result.reason)) +
           ",\"detail\":" + arena::json::quote(g.result.detail) +
           ",\"opening_plies\":" + std::to_string(g.result.openingPlies) +
           ",\"moves\":" + arena::json::quote(moveListText(moves)) + "}";
    }
    s += "],\"warnings\":[";
    for (size_t i = 0; i < file.warnings.size() && i < 20; ++i)
      s += std::string(i ? "," : "") + arena::json::quote(file.warnings[i]);
    return {200, "application/json", s + "]}"};
  }

  BoardOptions options_;
  std::atomic<const BookAnalyst*> analyst_{nullptr};
  std::atomic<bool> bookLoading_{false};
  Thinker thinker_;
  std::mutex gameMutex_;  // game_ and mode_: one change at a time
  Game game_;
  std::string mode_ = "play";
  mutable std::mutex publishedMutex_;
  std::string published_;  // the game's state as /api/state gives it
  GameThread gameThread_;  // last: ends before the game it changes
};

}  // namespace yav::board
