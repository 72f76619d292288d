// CodinGame entry point: protocol -> opening book -> search. With no flags it behaves exactly as
// on CodinGame; the flags serve the tools and tests (see docs/search.md).
#include "pragmas.h"  // first: the optimisation pragmas apply to everything after them

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>

#include "book/embedded_book.h"
#include "book_turn.h"
#include "clock.h"
#include "opening_book.h"
#include "ponder.h"
#include "protocol.h"
#include "search.h"
#include "turn_limits.h"

namespace {

struct BotConfig : yav::TurnBudget {  // time or iterations per turn, seed (turn_limits.h)
  bool book = true;
  bool bookSearch = true;  // a book move's turn checks it and searches the position it leads to (see main)
  bool plainUct = false;
  bool forcing = true;
  bool endgame = true;
  bool prover = true;
  bool quiet = false;
  bool ponder = true;  // search on while the opponent thinks (ponder.h); never with --iterations
};

// Terse: every character here is one the opening book cannot use.
const char* const kUsage =
    "usage: bot [options] (none: as on CodinGame)\n"
    "  --time-ms MS        later turns (default 75; limit 100)\n"
    "  --first-time-ms MS  first turn (default 900; limit 1000)\n"
    "  --iterations N      fixed iterations a turn (default: the clock)\n"
    "  --seed S            playout seed (default 1)\n"
    "  --no-book           no opening book (default: book)\n"
    "  --no-book-search    book moves unchecked (default: checked)\n"
    "  --plain-uct         no tactics or solvers (default: both)\n"
    "  --no-forcing        no forcing solver (default: on)\n"
    "  --no-endgame        no endgame solver (default: on)\n"
    "  --no-prover         no df-pn (default: on)\n"
    "  --quiet             no stderr line (default: a line a turn)\n"
    "  --no-ponder         no search on the opponent's time (default: on)\n"
    "  --deep-time-ms MS --deep-until-turn T  turns 2..T search MS (default: off)\n";

bool parseNumber(const char* text, double& out) {
  char* end = nullptr;
  out = std::strtod(text, &end);
  return end != text && *end == '\0' && out >= 0;
}

// Returns false (after printing what was expected) on a bad command line.
bool parseArgs(int argc, char** argv, BotConfig& cfg) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&](double& out) {
      if (i + 1 >= argc || !parseNumber(argv[i + 1], out)) {
        std::cerr << "bot: " << arg << " expects a non-negative number\n" << kUsage;
        return false;
      }
      ++i;
      return true;
    };
    double v = 0;
    if (arg == "--time-ms") {
      if (!value(cfg.timeMs)) return false;
    } else if (arg == "--first-time-ms") {
      if (!value(cfg.firstTimeMs)) return false;
    } else if (arg == "--deep-time-ms") {
      if (!value(cfg.deepTimeMs)) return false;
    } else if (arg == "--deep-until-turn") {
      if (!value(v)) return false;
      cfg.deepUntilTurn = int(v);
    } else if (arg == "--iterations") {
      if (!value(v)) return false;
      cfg.iterations = uint64_t(v);
    } else if (arg == "--seed") {
      if (!value(v)) return false;
      cfg.seed = uint64_t(v);
    } else if (arg == "--no-book") {
      cfg.book = false;
    } else if (arg == "--no-book-search") {
      cfg.bookSearch = false;
    } else if (arg == "--plain-uct") {
      cfg.plainUct = true;
    } else if (arg == "--no-forcing") {
      cfg.forcing = false;
    } else if (arg == "--no-endgame") {
      cfg.endgame = false;
    } else if (arg == "--no-prover") {
      cfg.prover = false;
    } else if (arg == "--quiet") {
      cfg.quiet = true;
    } else if (arg == "--no-ponder") {
      cfg.ponder = false;
    } else if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      std::exit(0);
    } else {
      std::cerr << "bot: unknown option '" << arg << "'\n" << kUsage;
      return false;
    }
  }
  if (cfg.iterations == 0 && (cfg.timeMs <= 0 || cfg.firstTimeMs <= 0)) {
    std::cerr << "bot: a time budget of 0 needs --iterations N\n" << kUsage;
    return false;
  }
  return true;
}

// A number as people read it on the stderr line: 0.59, 83.0.
std::string rounded(double v, int decimals) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*f", decimals, v);
  return text;
}

// A short note for the replay viewer: the proven result or the estimated winning chance.
std::string viewerMessage(const yav::SearchResult& r) {
  if (r.proof != yav::Proof::Unknown) return std::string("solved: ") + yav::proofName(r.proof);
  return std::to_string(int(r.value * 100 + 0.5)) + "%";
}

using yav::moveName;  // "x y" for the stderr line, "(steal)" marked

}  // namespace

int main(int argc, char** argv) {
  BotConfig cfg;
  if (!parseArgs(argc, argv, cfg)) return 2;
  yav::SearchOptions options = cfg.plainUct ? yav::SearchOptions::plainUct() : yav::SearchOptions();
  if (!cfg.forcing) options.forcing = false;
  if (!cfg.endgame) options.endgame = false;
  if (cfg.prover && !cfg.plainUct) options.proverShare = 0.2;
  yav::Search search(yav::kDefaultNodes, options);
  yav::ProtocolReader reader(std::cin);
  yav::TurnInput turn;
  yav::OpeningBook book;
  yav::Ponderer ponderer(search);
  const bool pondering = cfg.ponder && cfg.iterations == 0;  // fixed iterations stay reproducible
  // After an answer: think on the opponent's time about the position the answer left, or at least
  // move the tree there (and compact it) before the next turn's clock runs.
  auto ponderAfter = [&](const yav::Board& board, yav::Cell move, int turnNumber) {
    yav::Board next = board;
    if (next.play(move) != yav::Outcome::None) return;
    if (pondering)
      ponderer.start(next, cfg.seed + uint64_t(turnNumber) + 1000);
    else
      search.keepTreeFor(next);
  };
  for (int turnNumber = 1; reader.read(turn); ++turnNumber) {
    const yav::Stopwatch clock;  // the turn's time runs from the moment its input was read
    const uint64_t pondered = ponderer.stop();
    const std::string ponderNote = pondered ? ", pondered " + std::to_string(pondered) + " it" : "";
    for (const auto& e : turn.errors) std::cerr << "protocol: " << e << "\n";

    // ---- Opening book: consulted here, before the search (unless cfg.book is false). ----
    if (cfg.book && turn.firstTurn) {  // decoded once, inside the long first turn
      std::string error;
      if (!book.load(kEmbeddedBook, error)) std::cerr << "book: " << error << "; playing without it\n";
      if (!cfg.quiet)
        std::cerr << "book: " << book.size() << " positions decoded in " << rounded(clock.elapsedMs(), 1) << " ms\n";
    }
    // A searched answer: its move (never illegal), the viewer's note and the stderr line.
    auto answerSearched = [&](const yav::SearchResult& result, const std::string& note) {
      yav::Cell move = result.move;
      if (!turn.board.isLegal(move)) {  // cannot happen; never hand the referee an illegal move
        std::cerr << "bot: search returned an illegal move; playing the first legal cell\n";
        move = yav::lowestCell(turn.board.legalMoves());
      }
      // Timed before the answer goes out: once it has, the process may wait for the CPU (the
      // opponent now runs), which would inflate a time taken afterwards.
      const double answerMs = clock.elapsedMs();
      std::cout << yav::formatMove(move, viewerMessage(result)) << std::endl;
      if (!cfg.quiet)
        std::cerr << "turn " << turnNumber << ": move " << moveName(turn.board, move) << " | " << note
                  << result.iterations << " it, " << result.nodes << " nodes" << (result.reused ? " (reused)" : "")
                  << ", value " << rounded(result.value, 2) << ", proof " << yav::proofName(result.proof) << ponderNote
                  << ", " << rounded(answerMs, 1) << " ms\n";
      ponderAfter(turn.board, move, turnNumber);
    };

    if (const auto bookMove = cfg.book ? book.lookup(turn.board) : std::nullopt) {
      std::string searched;
      if (cfg.bookSearch) {
        // A share of the budget checks the book's move (book_turn.h): a position the search proves
        // won is played by the search's proven move, and a book move it proves lost is not played.
        const yav::SearchResult check = search.run(
            turn.board, turnLimits(cfg, turn.firstTurn, turnNumber, clock.elapsedMs(), yav::kBookCheckShare));
        if (yav::checkedBookMove(*bookMove, check) != *bookMove) {
          answerSearched(check, "book move " + yav::moveName(turn.board, *bookMove) + " overruled by the search, ");
          continue;
        }
        searched = ", checked " + std::to_string(check.iterations) + " it";
      }
      // The rest of the turn's budget goes to the position the book move leads to, the opponent to
      // move: when the book ends, the next turn finds its position in that tree (a reply below its
      // root) instead of starting cold. Without this a book move on the first turn threw away the
      // 1,000 ms turn the book-less bot spends building the tree it plays its next moves from.
      yav::Board next = turn.board;
      if (cfg.bookSearch && next.play(*bookMove) == yav::Outcome::None) {
        const yav::SearchResult ahead =
            search.run(next, turnLimits(cfg, turn.firstTurn, turnNumber, clock.elapsedMs()));
        searched += ", searched " + std::to_string(ahead.iterations) + " it ahead";
      }
      std::cout << yav::formatMove(*bookMove, "book") << std::endl;
      if (!cfg.quiet)
        std::cerr << "turn " << turnNumber << ": move " << moveName(turn.board, *bookMove) << " | book" << searched
                  << ponderNote << ", " << rounded(clock.elapsedMs(), 1) << " ms\n";
      ponderAfter(turn.board, *bookMove, turnNumber);
      continue;
    }

    answerSearched(search.run(turn.board, turnLimits(cfg, turn.firstTurn, turnNumber, clock.elapsedMs())), "");
  }
  ponderer.stop();
  // The read that ended the loop may have found malformed input (a grid cut short, garbage).
  for (const auto& e : turn.errors) std::cerr << "protocol: " << e << "\n";
}
