// board: a local web page to play the bot, watch two bots, replay arena records, and see the
// book's values and proofs on the board (docs/analysis_board.md).
//   build/bin/board [--port 8080] [--host 127.0.0.1] [--bot CMD] [--db book/book.db]
#include <atomic>
#include <cstdlib>
#include <cstdio>
#include <iostream>
#include <string>
#include <thread>

#include "tools/analysis_board/api.h"
#include "tools/analysis_board/server.h"
#include "tools/common/cli.h"
#include "tools/common/stop_signal.h"

int main(int argc, char** argv) {
  using namespace yav;
  board::BoardOptions options;
  std::string host = "127.0.0.1", db = "book/book.db", header = "book/embedded_book.h";
  uint64_t port = 8080, maxBody = uint64_t(4) << 20;
  arena::Limits limits;
  bool noBook = false;
  cli::Flags flags("board");
  flags
      .text("--host", "ADDR", host,
            "the IPv4 address to listen on (another than 127.0.0.1 opens the page to the network)", host)
      .integer("--port", "N", port, 0, 65535, "the port (0: any free one, printed)")
      .text("--bot", "CMD", options.bot, "the bot played against, run as the arena runs it (/bin/sh -c CMD)",
            options.bot)
      .text("--watch-bot", "CMD", options.watchBot, "the second bot when watching two bots play", "the --bot command")
      .text("--db", "PATH", db, "the book database whose values, bounds and proofs the page shows", db)
      .text("--header", "FILE", header, "the shipped book (its move is marked)", header)
      .option("--no-book", noBook, "do not load the database (no heat map; starts at once)")
      .number("--first-time-ms", "MS", limits.firstTurnMs, 1, 600000, "a bot's limit on its own first turn")
      .number("--time-ms", "MS", limits.turnMs, 1, 600000, "a bot's limit on its later turns")
      .number("--grace", "F", limits.grace, 1, 100,
              "an answer later than limit x F is a timeout (reported, the game kept)")
      .number("--max-think-ms", "MS", options.maxThinkMs, board::kMinThinkMs, 600000,
              "the longest 'think for N ms' a request may ask")
      .integer("--max-body", "BYTES", maxBody, 1024, uint64_t(1) << 30,
               "the largest request body (an arena record is posted whole)");
  flags.parseOrExit(argc, argv, 1, "usage: board [options]\n");

  board::HttpServer server;
  std::string error;
  if (!server.listen(host, int(port), error)) {
    std::cerr << "board: " << error << "\n";
    return 1;
  }
  board::BoardApp app(options, limits);
  // The database loads beside the server (about 30 s for the committed book): the page plays at
  // once and shows the book's values when they are there.
  static board::BookAnalyst analyst;
  if (!noBook) {
    app.setBookLoading(true);
    std::thread([&app, db, header] {
      std::string error;
      const auto start = arena::Clock::now();
      std::cerr << "board: loading " << db << " in the background" << std::endl;
      if (!analyst.load(db, header, error))
        std::cerr << "board: no book values on the page: " << error << std::endl;
      else {
        std::cerr << "board: " << analyst.positions() << " searched positions loaded in " << int(arena::msSince(start))
                  << " ms"
                  << (analyst.shippedError().empty() ? "" : "; no shipped move marked: " + analyst.shippedError())
                  << std::endl;
        app.setAnalyst(&analyst);
      }
      app.setBookLoading(false);
    }).detach();
  }
  static std::atomic<bool> stop{false};
  stopOnSignals(stop);
  std::cerr << "board: open http://" << host << ":" << server.port() << "/  (Ctrl-C stops)" << std::endl;
  board::HttpLimits httpLimits;
  httpLimits.maxBodyBytes = size_t(maxBody);
  // Ctrl-C ends the thinks at once; a bot's move ends within its time limit.
  server.serve([&app](const board::HttpRequest& r) { return app.handle(r); }, stop, httpLimits, 5000,
               [&app] { app.stopThinks(); });
  app.stopBots();
  std::cerr << "board: stopped after " << server.served() << " requests" << std::endl;
  // The bots are stopped and the socket closed; freeing the book's half a million positions one by
  // one would only delay the exit by seconds.
  std::_Exit(0);
}
