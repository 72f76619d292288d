// The analysis board's HTTP API (tools/analysis_board/api.h), through a socket client: a new game, a move
// and the bot's answer (the real bot, its stderr line read back), refusals that keep the game,
// a crashing and a silent bot reported with the game kept, the steal, undo and set-up, the book's
// values on every cell (a small database made here) and "think", and malformed requests that
// never stop the server.
#include <arpa/inet.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <random>
#include <string>
#include <thread>

#include "tools/arena/json.h"
#include "tools/analysis_board/api.h"
#include "tools/analysis_board/server.h"
#include "tests/test_util.h"

namespace {

using yav::arena::json::Value;

struct BoardReply {
  int status = 0;
  std::string body;
  Value json;
};

// A connection to the server on `port`; -1 when refused. `receiveSeconds` > 0: a read waits at
// most that long (then fails).
int boardConnect(int port, int receiveSeconds = 0) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (receiveSeconds > 0) {
    timeval limit{receiveSeconds, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
  }
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(uint16_t(port));
  inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

// Sends `raw` as it is and reads the answer until the server closes the connection (or, with
// `receiveSeconds` > 0, until a read waits that long: status 0).
BoardReply boardSend(int port, const std::string& raw, int receiveSeconds = 0) {
  BoardReply r;
  const int fd = boardConnect(port, receiveSeconds);
  if (fd < 0) return r;
  size_t sent = 0;
  while (sent < raw.size()) {
    const ssize_t n = send(fd, raw.data() + sent, raw.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) break;  // the server may refuse (and close) before reading everything
    sent += size_t(n);
  }
  shutdown(fd, SHUT_WR);
  std::string text;
  char chunk[8192];
  ssize_t n;
  while ((n = recv(fd, chunk, sizeof chunk, 0)) > 0) text.append(chunk, size_t(n));
  close(fd);
  if (text.rfind("HTTP/1.1 ", 0) == 0) r.status = std::atoi(text.c_str() + 9);
  const size_t body = text.find("\r\n\r\n");
  if (body != std::string::npos) r.body = text.substr(body + 4);
  std::string error;
  if (r.body.rfind("{", 0) == 0) yav::arena::json::parse(r.body, r.json, error);
  return r;
}

BoardReply boardPost(int port, const std::string& path, const std::string& form, int receiveSeconds = 0) {
  return boardSend(port,
                   "POST " + path +
                       " HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                       "Content-Length: " +
                       std::to_string(form.size()) + "\r\n\r\n" + form,
                   receiveSeconds);
}
BoardReply boardGet(int port, const std::string& target, int receiveSeconds = 0) {
  return boardSend(port, "GET " + target + " HTTP/1.1\r\nHost: x\r\n\r\n", receiveSeconds);
}

// Limits no bot's answer misses unless it hangs: a loaded machine may pause a bot for a while.
const yav::arena::Limits kBoardNoHurry{10000, 5000, 1.0};

// The server with the app, on a free port, on a thread of its own.
class BoardServerRun {
 public:
  // `readTimeoutMs`: how long the server waits for a request to arrive whole.
  explicit BoardServerRun(yav::board::BoardOptions options, yav::arena::Limits limits = kBoardNoHurry,
                          const yav::board::BookAnalyst* analyst = nullptr, int readTimeoutMs = 5000)
      : app_(std::move(options), limits) {
    app_.setAnalyst(analyst);
    std::string error;
    EXPECT_TRUE(server_.listen("127.0.0.1", 0, error)) << error;
    thread_ = std::thread([this, readTimeoutMs] {
      server_.serve([this](const yav::board::HttpRequest& r) { return app_.handle(r); }, stop_, limits_, readTimeoutMs,
                    [this] { app_.stopThinks(); });
    });
  }
  ~BoardServerRun() {
    stop_ = true;
    thread_.join();
    app_.stopBots();
  }
  int port() const { return server_.port(); }
  void stopThinks() { app_.stopThinks(); }
  yav::board::HttpLimits limits_;

 private:
  yav::board::BoardApp app_;
  yav::board::HttpServer server_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

std::string boardBin(const std::string& args) { return std::string(YAVALATH_BIN_DIR) + "/" + args; }

yav::board::BoardOptions boardWithBot(const std::string& command) {
  yav::board::BoardOptions o;
  o.bot = command;
  o.thinkNodes = size_t(1) << 16;  // a tree of 4M nodes takes seconds to clear under the sanitizers
  return o;
}

const Value& boardField(const Value& v, const std::string& key) {
  static const Value none;
  const Value* f = v.get(key);
  return f ? *f : none;
}
std::string movesOf(const BoardReply& r) {
  const Value& state = r.json.get("state") ? boardField(r.json, "state") : r.json;
  return boardField(state, "moves").str;
}

TEST(BoardServer, NewGameMoveAndTheBotsAnswerWithItsLine) {
  BoardServerRun run(boardWithBot(boardBin("bot --no-book --iterations 300")));
  const BoardReply page = boardGet(run.port(), "/");
  EXPECT_EQ(page.status, 200);
  EXPECT_NE(page.body.find("<svg id=\"board\""), std::string::npos);
  std::string text = page.body;  // the SVG namespace is a name, not an address the page fetches
  for (size_t at; (at = text.find("http://www.w3.org/2000/svg")) != std::string::npos;) text.erase(at, 26);
  EXPECT_EQ(text.find("http://"), std::string::npos) << "the page fetches nothing from elsewhere";
  EXPECT_EQ(text.find("https://"), std::string::npos);
  EXPECT_EQ(text.find("//cdn"), std::string::npos);

  ASSERT_EQ(boardPost(run.port(), "/api/new", "seat=1").status, 200);
  const BoardReply moved = boardPost(run.port(), "/api/move", "move=2+2");
  ASSERT_EQ(moved.status, 200) << moved.body;
  const Value& plies = boardField(moved.json, "plies");
  ASSERT_EQ(plies.items.size(), 2u) << moved.body;
  EXPECT_FALSE(boardField(plies.items[0], "bot").boolean);
  const Value& answer = plies.items[1];
  EXPECT_TRUE(boardField(answer, "bot").boolean);
  EXPECT_EQ(boardField(answer, "line").str.rfind("turn 1: move ", 0), 0u) << moved.body;
  EXPECT_GT(boardField(answer, "iterations").num, 0) << moved.body;
  EXPECT_GE(boardField(answer, "value").num, 0);
  EXPECT_LE(boardField(answer, "value").num, 1);
  EXPECT_EQ(boardField(answer, "proof").str, "unknown");
  EXPECT_EQ(boardField(moved.json, "to_move").num, 1);
}

TEST(BoardServer, TheBotsLineIsReadWholeWhenWrittenInPieces) {
  // A bot that answers 0 0, then writes its stderr line in two pieces 0.2 s apart (the bot's
  // std::cerr writes its line piece by piece too).
  const std::string bot =
      "sh -c 'for i in 1 2 3 4 5 6 7 8 9 10 11 12; do read line; done; echo 0 0; printf \"turn 1: move 0\" >&2; "
      "sleep 0.2; printf \" 0 | 7 it, 9 nodes, value 0.25, proof unknown, 1.0 ms\\n\" >&2; sleep 30'";
  BoardServerRun run(boardWithBot(bot));
  ASSERT_EQ(boardPost(run.port(), "/api/new", "seat=1").status, 200);
  const BoardReply moved = boardPost(run.port(), "/api/move", "move=3+3");
  ASSERT_EQ(moved.status, 200) << moved.body;
  const Value& answer = boardField(moved.json, "plies").items.at(1);
  EXPECT_EQ(boardField(answer, "iterations").num, 7) << moved.body;
  EXPECT_EQ(boardField(answer, "value").num, 0.25) << moved.body;
}

TEST(BoardServer, BadMovesAreRefusedWithTheirReasonAndTheGameGoesOn) {
  BoardServerRun run(boardWithBot(boardBin("bot --no-book --iterations 100")));
  ASSERT_EQ(boardPost(run.port(), "/api/new", "seat=1").status, 200);
  const std::string before = movesOf(boardPost(run.port(), "/api/move", "move=4+4"));
  ASSERT_EQ(before.substr(0, 3), "4 4");
  struct Bad {
    std::string form;
    int status;
    std::string reason;
  };
  for (const Bad& bad : {Bad{"move=4+4", 409, "is taken"}, Bad{"move=9+9", 400, "off the board"},
                         Bad{"move=abc", 400, "is not a move"}, Bad{"move=1+1+1", 400, "is not a move"},
                         Bad{"nothing=1", 400, "no move"}, Bad{"move=%zz", 400, "bad %-escape"}}) {
    const BoardReply r = boardPost(run.port(), "/api/move", bad.form);
    EXPECT_EQ(r.status, bad.status) << bad.form << ": " << r.body;
    EXPECT_NE(boardField(r.json, "error").str.find(bad.reason), std::string::npos) << bad.form << ": " << r.body;
  }
  EXPECT_EQ(movesOf(boardGet(run.port(), "/api/state")), before);
  const BoardReply next = boardPost(run.port(), "/api/move", "move=0+0");
  EXPECT_EQ(next.status, 200) << next.body;
  EXPECT_EQ(movesOf(next).substr(0, before.size() + 5), before + "; 0 0");
}

TEST(BoardServer, ACrashingOrSilentBotIsReportedAndTheGameKept) {
  // A second for the silent bot, which only a hang of the others' answers would reach.
  yav::arena::Limits quick;
  quick.firstTurnMs = 1000, quick.turnMs = 1000, quick.grace = 1;
  for (const std::string mode : {"crash", "timeout", "garbage"}) {
    BoardServerRun run(boardWithBot(boardBin("fake_bot " + mode)), quick);
    ASSERT_EQ(boardPost(run.port(), "/api/new", "seat=1").status, 200);
    const BoardReply r = boardPost(run.port(), "/api/move", "move=3+3");
    EXPECT_EQ(r.status, 502) << mode << ": " << r.body;
    const std::string error = boardField(r.json, "error").str;
    const std::string expected = mode == "crash"     ? "closed its output"
                                 : mode == "timeout" ? "gave no answer"
                                                     : "expected 'x y'";
    EXPECT_NE(error.find(expected), std::string::npos) << mode << ": " << error;
    const BoardReply state = boardGet(run.port(), "/api/state");
    EXPECT_EQ(movesOf(state), "3 3") << mode;
    EXPECT_TRUE(boardField(state.json, "bot_to_move").boolean);
    EXPECT_NE(boardField(state.json, "problem").str.find(expected), std::string::npos);
  }
}

// A bot process gets PR_SET_PDEATHSIG (tools/arena/process.h), which Linux fires when the *thread*
// that forked it ends. Started from the thread of the connection that asked for its move, the bot
// died when that connection ended, and the next move found it gone. `exec` makes the bot itself the
// process with the signal (as a shell that execs its last command does), not only its shell.
TEST(BoardServer, TheBotAnswersAgainAfterTheConnectionThatStartedItEnded) {
  BoardServerRun run(boardWithBot("exec " + boardBin("fake_bot legal")));
  ASSERT_EQ(boardPost(run.port(), "/api/new", "seat=1").status, 200);
  const BoardReply first = boardPost(run.port(), "/api/move", "move=3+3");
  ASSERT_EQ(first.status, 200) << first.body;
  ASSERT_EQ(boardField(first.json, "plies").items.size(), 2u) << first.body;
  // The first connection's thread ends just after its answer: time enough for it, and for a
  // signal it set off to arrive.
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  const std::string cell = movesOf(first).find("0 0") == std::string::npos ? "0+0" : "1+0";
  const BoardReply second = boardPost(run.port(), "/api/move", "move=" + cell);
  ASSERT_EQ(second.status, 200) << "the bot started for the first move is gone: " << second.body;
  EXPECT_EQ(boardField(second.json, "plies").items.size(), 4u) << second.body;
  EXPECT_EQ(boardField(second.json, "problem").str, "") << second.body;
}

TEST(BoardServer, StealUndoAndSetUp) {
  BoardServerRun run(boardWithBot(boardBin("bot --no-book --iterations 100")));
  const BoardReply opened = boardPost(run.port(), "/api/new", "seat=2");
  ASSERT_EQ(opened.status, 200) << opened.body;
  const Value& first = boardField(opened.json, "plies").items.at(0);
  EXPECT_TRUE(boardField(opened.json, "steal_available").boolean);
  const std::string stone =
      std::to_string(int(boardField(first, "x").num)) + "+" + std::to_string(int(boardField(first, "y").num));
  const BoardReply stolen = boardPost(run.port(), "/api/move", "move=" + stone);
  ASSERT_EQ(stolen.status, 200) << stolen.body;
  const Value& plies = boardField(stolen.json, "plies");
  ASSERT_EQ(plies.items.size(), 3u) << stolen.body;
  EXPECT_TRUE(boardField(plies.items[1], "steal").boolean);
  for (const Value& s : boardField(stolen.json, "stones").items)  // the stolen stone is player 2's now
    if (s.numberOr("x", -1) == first.numberOr("x", -2) && s.numberOr("y", -1) == first.numberOr("y", -2)) {
      EXPECT_EQ(s.numberOr("player", 0), 2);
    }

  const BoardReply undone = boardPost(run.port(), "/api/undo", "");
  EXPECT_EQ(boardField(undone.json, "plies").items.size(), 1u) << undone.body;  // back to the person's turn

  const BoardReply set = boardPost(run.port(), "/api/setup", "moves=3+2%3B+3+3");
  ASSERT_EQ(set.status, 200) << set.body;
  EXPECT_EQ(movesOf(set).substr(0, 10), "3 2; 3 3; ") << "the bot (player 1) answers the set-up position";
  const BoardReply bad = boardPost(run.port(), "/api/setup", "moves=3+2%3B+3+2%3B+3+2");
  EXPECT_EQ(bad.status, 400);
  EXPECT_NE(boardField(bad.json, "error").str.find("not legal"), std::string::npos) << bad.body;
  EXPECT_EQ(movesOf(boardGet(run.port(), "/api/state")), movesOf(set));
}

TEST(BoardServer, AnalysisDrawsTheBooksValuesOnEveryCellAndThinks) {
  // A book of one position, the empty board: each of the 9 move classes its own value; one proven lost.
  yav::book::Database db;
  yav::book::DeepVerdict verdict;
  const std::vector<yav::Cell> classes = yav::moveClasses(yav::Board());
  ASSERT_EQ(classes.size(), 9u);
  for (size_t i = 0; i < classes.size(); ++i) {
    yav::book::DeepMove m;
    m.move = classes[i], m.value = float(0.1 + 0.08 * double(i)), m.visits = 5000;
    if (i == 0) m.proof = yav::Proof::Loss, m.value = 0;
    verdict.moves.push_back(m);
  }
  verdict.best = classes.back();
  db.setVerdict(yav::book::GrowOptions().deep.key(), yav::PositionKey{}, verdict);
  yav::board::BookAnalyst analyst;
  analyst.use(db, "book/embedded_book.h");
  BoardServerRun run(boardWithBot(boardBin("bot --no-book --iterations 100")), kBoardNoHurry, &analyst);

  const BoardReply r = boardGet(run.port(), "/api/analyse?moves=&think=50");
  ASSERT_EQ(r.status, 200) << r.body;
  const Value& book = boardField(r.json, "book");
  EXPECT_TRUE(boardField(book, "in_book").boolean) << r.body;
  const Value& moves = boardField(book, "moves");
  EXPECT_EQ(moves.items.size(), 61u) << "every cell of the empty board has its class's entry";
  std::map<yav::Cell, double> byClass;
  const yav::Canonical frame = yav::canonicalize(yav::Board());
  for (const Value& m : moves.items) {
    const yav::Cell cell = yav::cellAt(int(m.numberOr("x", -1)), int(m.numberOr("y", -1)));
    const yav::Cell cls = frame.toCanonical(cell);
    if (cls == classes[0]) {
      EXPECT_EQ(m.stringOr("proof", ""), "loss");
    }
    if (byClass.count(cls)) {
      EXPECT_EQ(byClass[cls], m.numberOr("value", -1)) << "symmetric cells, one value";
    }
    byClass[cls] = m.numberOr("value", -1);
    EXPECT_LE(m.numberOr("lower", 2), m.numberOr("value", -1));
    EXPECT_GE(m.numberOr("upper", -1), m.numberOr("value", 2));
  }
  EXPECT_EQ(byClass.size(), 9u);
  EXPECT_LT(byClass[classes[1]], byClass[classes[8]]) << "the values follow the verdict's";
  EXPECT_EQ(boardField(book, "repack").items.size(), 2u) << r.body;

  const Value& think = boardField(r.json, "think");
  EXPECT_GT(boardField(think, "iterations").num, 0) << r.body;
  EXPECT_FALSE(boardField(think, "top").items.empty());

  EXPECT_EQ(boardGet(run.port(), "/api/analyse?moves=3+2%3B+3+2%3B+3+2").status, 400);
  EXPECT_EQ(boardGet(run.port(), "/api/analyse?think=abc").status, 400);
  const BoardReply elsewhere = boardGet(run.port(), "/api/analyse?moves=3+2");
  EXPECT_FALSE(boardField(boardField(elsewhere.json, "book"), "in_book").boolean) << elsewhere.body;
}

TEST(BoardServer, AThinkTooShortIsRefusedNotAnsweredWithoutAResult) {
  BoardServerRun run(boardWithBot(boardBin("bot --no-book --iterations 100")));
  for (const std::string ms : {"0", "5", "9.5", "-1", "1e9", "abc"}) {
    const BoardReply r = boardGet(run.port(), "/api/analyse?moves=3+2&think=" + ms);
    EXPECT_EQ(r.status, 400) << "think=" << ms << ": " << r.body;
    EXPECT_NE(boardField(r.json, "error").str.find("think must be a number of ms from 10 to"), std::string::npos)
        << "think=" << ms << ": " << r.body;
  }
  const BoardReply shortest = boardGet(run.port(), "/api/analyse?moves=3+2&think=10");
  ASSERT_EQ(shortest.status, 200) << shortest.body;
  EXPECT_FALSE(boardField(boardField(shortest.json, "think"), "top").items.empty()) << shortest.body;
}

// The bounds below (a minute for an answer, 10 minutes for a think, 10 for a request to arrive) are
// ones only a server that serves one connection at a time reaches: it would answer nothing else
// until the think or the request ended.
TEST(BoardServer, RequestsAreAnsweredWhileAThinkRunsAndStopEndsIt) {
  yav::board::BoardOptions options = boardWithBot(boardBin("bot --no-book --iterations 100"));
  options.maxThinkMs = 600000;
  BoardServerRun run(options);
  std::atomic<bool> answered{false};
  BoardReply think;
  std::thread asker([&] {
    think = boardGet(run.port(), "/api/analyse?moves=3+2&think=600000");
    answered = true;
  });
  struct StopAndJoin {  // whatever fails below, the think ends and its client is joined
    BoardServerRun& run;
    std::thread& asker;
    ~StopAndJoin() {
      run.stopThinks();
      asker.join();
    }
  } stopAndJoin{run, asker};
  ASSERT_TRUE(yav::waitFor([&] { return boardGet(run.port(), "/api/state", 60).json.numberOr("thinking", 0) == 1; }))
      << "the think never showed in /api/state";
  const BoardReply state = boardGet(run.port(), "/api/state", 60);
  EXPECT_EQ(state.status, 200) << state.body;
  const BoardReply opened = boardPost(run.port(), "/api/new", "seat=1", 60);
  EXPECT_EQ(opened.status, 200) << opened.body;
  const BoardReply moved = boardPost(run.port(), "/api/move", "move=3+3", 60);
  EXPECT_EQ(moved.status, 200) << moved.body;
  EXPECT_EQ(boardField(moved.json, "plies").items.size(), 2u) << "the bot answered too: " << moved.body;
  const BoardReply book = boardGet(run.port(), "/api/analyse?moves=3+2", 60);
  EXPECT_EQ(book.status, 200) << book.body;
  EXPECT_FALSE(answered) << "the think ended before /api/stop";
  const BoardReply stop = boardPost(run.port(), "/api/stop", "", 60);
  EXPECT_EQ(stop.status, 200) << stop.body;
  EXPECT_EQ(stop.json.numberOr("stopped", 0), 1) << stop.body;
  ASSERT_TRUE(yav::waitFor([&] { return answered.load(); })) << "/api/stop did not end the think";
  EXPECT_EQ(think.status, 200) << think.body;
  EXPECT_TRUE(boardField(boardField(think.json, "think"), "stopped").boolean) << think.body;
  EXPECT_EQ(boardGet(run.port(), "/api/state", 60).json.numberOr("thinking", -1), 0);
  // The next think runs its time (the stop was for the thinks asked before it).
  const BoardReply next = boardGet(run.port(), "/api/analyse?moves=3+2&think=50", 60);
  EXPECT_FALSE(boardField(boardField(next.json, "think"), "stopped").boolean) << next.body;
  EXPECT_GT(boardField(boardField(next.json, "think"), "iterations").num, 0) << next.body;
}

TEST(BoardServer, AHalfSentRequestHoldsUpNoOtherClient) {
  BoardServerRun run(boardWithBot(boardBin("bot --no-book --iterations 100")), kBoardNoHurry, nullptr, 600000);
  const int held = boardConnect(run.port(), 60);
  ASSERT_GE(held, 0);
  const std::string head = "GET /api/state HTTP/1.1\r\nHost: x\r\n";  // the blank line that ends it is to come
  ASSERT_EQ(send(held, head.data(), head.size(), MSG_NOSIGNAL), ssize_t(head.size()));
  const BoardReply state = boardGet(run.port(), "/api/state", 60);
  EXPECT_EQ(state.status, 200) << "the state beside the half-sent request: " << state.body;
  const BoardReply opened = boardPost(run.port(), "/api/new", "seat=2", 60);
  EXPECT_EQ(opened.status, 200) << "the bot's opening beside the half-sent request: " << opened.body;
  char byte = 0;
  EXPECT_EQ(recv(held, &byte, 1, MSG_DONTWAIT), -1) << "the half-sent request was answered before it was whole";
  // Sent whole, it is answered.
  ASSERT_EQ(send(held, "\r\n", 2, MSG_NOSIGNAL), 2);
  std::string text;
  char chunk[8192];
  ssize_t n;
  while ((n = recv(held, chunk, sizeof chunk, 0)) > 0) text.append(chunk, size_t(n));
  close(held);
  EXPECT_EQ(text.rfind("HTTP/1.1 200 ", 0), 0u) << text.substr(0, 200);
}

TEST(BoardServer, MalformedRequestsNeverStopTheServer) {
  BoardServerRun run(boardWithBot(boardBin("bot --no-book --iterations 100")));
  EXPECT_EQ(boardGet(run.port(), "/nothing").status, 404);
  const BoardReply head = boardSend(run.port(), "HEAD / HTTP/1.1\r\n\r\n");
  EXPECT_EQ(head.status, 200);
  EXPECT_EQ(head.body, "") << "HEAD: the header alone";
  EXPECT_EQ(boardGet(run.port(), "/api/move").status, 405);
  EXPECT_EQ(boardSend(run.port(), "GET / HTTP/1.1\r\nX: " + std::string(10000, 'a') + "\r\n\r\n").status, 431);
  EXPECT_EQ(boardSend(run.port(), "POST /api/record HTTP/1.1\r\nContent-Length: 999999999\r\n\r\n").status, 413);
  EXPECT_EQ(boardSend(run.port(), "garbage\r\n\r\n").status, 400);
  const BoardReply deep = boardPost(run.port(), "/api/record", std::string(100000, '['));
  EXPECT_EQ(deep.status, 400) << "a record nested deeper than the reader can recurse is refused";
  // Mutated requests on every route (YAVALATH_FUZZ_SOCKET_REQUESTS=N for a longer run).
  const char* env = std::getenv("YAVALATH_FUZZ_SOCKET_REQUESTS");
  const long count = env ? std::atol(env) : 200;
  const std::vector<std::string> seeds = {
      "POST /api/move HTTP/1.1\r\nContent-Length: 8\r\n\r\nmove=1+1",
      "POST /api/setup HTTP/1.1\r\nContent-Length: 18\r\n\r\nmoves=3+2%3B+3+3%3B",
      "GET /api/analyse?moves=3+2%3B3+3 HTTP/1.1\r\n\r\n",
      "POST /api/record HTTP/1.1\r\nContent-Length: 30\r\n\r\n{\"record_header\":{\"a\":[1,2]}}\n",
      "POST /api/undo HTTP/1.1\r\n\r\n",
  };
  std::mt19937_64 rng(860);
  long answered = 0;
  for (long i = 0; i < count; ++i) {
    std::string junk = seeds[size_t(rng() % seeds.size())];
    for (int e = 0; e < 4; ++e) junk[rng() % junk.size()] = char(rng());
    answered += boardSend(run.port(), junk).status != 0;
  }
  EXPECT_EQ(boardGet(run.port(), "/api/state").status, 200);
  std::printf("socket fuzz: %ld requests, %ld answered, the server still answers\n", count, answered);
}

TEST(BoardServer, TheProgramServesAndStopsCleanlyOnCtrlC) {
  const std::string out = yav::scratchPath("board.out"), pidfile = yav::scratchPath("board-bot.pids");
  std::remove(pidfile.c_str());
  const std::string command = "exec " + boardBin("board") + " --port 0 --no-book --bot '" +
                              boardBin("fake_bot legal --pidfile " + pidfile) + "' > " + out + " 2>&1";
  const char* argv[] = {"sh", "-c", command.c_str(), nullptr};
  pid_t pid = 0;
  ASSERT_EQ(posix_spawn(&pid, "/bin/sh", nullptr, nullptr, const_cast<char**>(argv), environ), 0);
  const std::string marker = "open http://127.0.0.1:";
  ASSERT_TRUE(yav::waitForText(out, marker)) << yav::readFile(out);
  const int port = std::atoi(yav::readFile(out).substr(yav::readFile(out).find(marker) + marker.size()).c_str());
  const BoardReply opened = boardPost(port, "/api/new", "seat=2");  // the bot opens: its process runs
  EXPECT_EQ(opened.status, 200) << opened.body;
  const pid_t bot = std::atoi(yav::readFile(pidfile).c_str());
  EXPECT_GT(bot, 0);
  kill(pid, SIGINT);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_NE(yav::readFile(out).find("board: stopped after 1 requests"), std::string::npos) << yav::readFile(out);
  EXPECT_TRUE(yav::waitFor(
      [&] {
        std::ifstream stat("/proc/" + std::to_string(bot) + "/stat");
        std::string s;
        std::getline(stat, s);
        return s.empty() || s.find(") Z") != std::string::npos;
      },
      30))
      << "the bot survived the server";
}

}  // namespace
