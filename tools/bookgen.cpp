// bookgen: grows the opening-book database by meta-MCTS self-play with the project's search,
// merges databases and prints their statistics. See docs/book.md.
#include <unistd.h>

#include <csignal>
#include <ctime>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>

#include "tools/book/database.h"
#include "tools/book/db_file.h"
#include "tools/book/engine.h"
#include "tools/book/files.h"
#include "tools/book/plan.h"
#include "tools/book/print.h"
#include "tools/book/selfplay.h"
#include "tools/cli.h"

namespace {

using namespace yav;
using namespace yav::book;

const char* const kCommands =
    "usage: bookgen run   [options]        self-play games into the database (resumed when it exists)\n"
    "       bookgen merge OUT IN [IN...]  adds to OUT the games of each IN that OUT lacks\n"
    "       bookgen stats FILE [--top N]  runs, positions per depth, first moves, answers to each first move\n"
    "       bookgen show  [options]       the moves of a position with their statistics and the shipped move\n";
const char* const kFooter =
    "Only one process writes a database at a time (lock FILE.lock); each run gets a random id, and\n"
    "its seed, settings, engine version and date are recorded in the database (bookgen stats).\n";

struct RunSettings {
  SelfPlayOptions play;
  GeneratorOptions run;
  SearchLimits limits;
  uint64_t nodes = uint64_t(1) << 22;  // 30,000 iterations add up to about 300,000 nodes
  bool seedGiven = false;
  RunSettings() {
    run.dbPath = "book/book.db";
    // At least what the bot reaches in its 75 ms turns (about 21,000 iterations mid-game and
    // 33,000 on the empty board, plain g++ build, this project's 2-core VM): the book is grown at
    // the bot's real strength.
    limits.iterations = 30000;
  }
};

cli::Flags runFlags(RunSettings& s) {
  cli::Flags flags("bookgen");
  flags.text("--db", "FILE", s.run.dbPath, "the database; a damaged file is refused, never overwritten", s.run.dbPath)
      .integer("--games", "N", s.run.targetGames, 0, cli::kNoLimit, "stop when the database holds N games", "no limit")
      .number("--hours", "H", s.run.hours, 0, cli::kNoMax, "stop after H hours of this run", "no limit")
      .integer("--threads", "T", s.run.threads, 1, 1024, "games in parallel, one search each")
      .value("--iterations", "N", "engine iterations per move", std::to_string(s.limits.iterations),
             [&s](const std::string& v) {
               s.limits.timeMs = 0;
               return cli::toInteger(v, 1, cli::kNoLimit, s.limits.iterations)
                          ? std::string()
                          : cli::Flags::rangeError("--iterations", 1, cli::kNoMax, v);
             })
      .value("--time-ms", "MS", "engine time per move instead of iterations", "off", [&s](const std::string& v) {
        s.limits.iterations = 0;
        return cli::toNumber(v, 1e-9, cli::kNoMax, s.limits.timeMs)
                   ? std::string()
                   : cli::Flags::rangeError("--time-ms", 1e-9, cli::kNoMax, v);
      })
      .integer("--random-plies", "K", s.play.randomPlies, 0, kCells,
               "a random opening plays 1..K random plies, one per symmetry class")
      .number("--random-fraction", "F", s.play.randomFraction, 0, 1, "share of games with a random opening")
      .number("--follow-threshold", "P", s.play.followThreshold, 0, 1,
              "follow a stored move when its sampled win rate is above P")
      .number("--engine-share", "P", s.play.engineShare, 0, 1, "chance to ask the engine even then, so new moves appear")
      .integer("--store-plies", "N", s.play.storePlies, 0, kCells + 1, "positions deeper than N plies are not stored")
      .integer("--checkpoint", "N", s.run.checkpointEvery, 1, cli::kNoLimit,
               "save every N games (and at the end, and on Ctrl-C / SIGTERM)")
      .number("--progress", "SEC", s.run.progressSeconds, 0, cli::kNoMax, "seconds between progress lines")
      .value("--seed", "S", "the run's base seed", "fresh from time, pid and random_device; recorded",
             [&s](const std::string& v) {
               s.seedGiven = true;
               return cli::toInteger(v, 0, cli::kNoLimit, s.run.seed)
                          ? std::string()
                          : cli::Flags::rangeError("--seed", 0, cli::kNoMax, v);
             })
      .integer("--nodes", "N", s.nodes, 0, cli::kNoLimit, "node pool of each search");
  return flags;
}

struct ShowSettings {
  std::string dbPath = "book/book.db", moves;
  int depth = 1;
  PackOptions pack;
  VerifySettings verify;
};

cli::Flags showFlags(ShowSettings& s) {
  cli::Flags flags("bookgen");
  flags.text("--db", "FILE", s.dbPath, "the database", s.dbPath)
      .text("--moves", "'X Y; X Y'",  s.moves,
            "the position after these moves, real board coordinates; a steal is the cell of the stone taken",
            "the empty board")
      .integer("--depth", "N", s.depth, 1, 100, "also show the positions after each move, N levels in all");
  // The packer's options, so that the shipped move is the one bookpack would pick, and the
  // verification settings, whose cached verdicts are shown and applied.
  addPackFlags(flags, s.pack);
  addVerifyFlags(flags, s.verify);
  return flags;
}

std::string usage() {
  RunSettings run;
  ShowSettings show;
  return std::string(kCommands) + "run options:\n" + runFlags(run).help() +
         "show options (with the packer's options, so that the shipped move is the one bookpack would pick, and\n"
         "the verification settings, whose cached verdicts are shown and applied):\n" +
         showFlags(show).help() + kFooter;
}

std::atomic<bool> gStop{false};
extern "C" void onSignal(int) { gStop.store(true); }

int fail(const std::string& message) { cli::Flags("bookgen").fail(message); }

// Loads a database and says so when it was a version-1 file (its games become one legacy run).
bool loadReported(const std::string& path, Database& db, std::string& error) {
  uint32_t version = 0;
  if (!loadDatabase(path, db, error, &version)) return false;
  if (version < kDatabaseVersion)
    std::cerr << path << ": version " << version << " file, read as one legacy run of " << db.games()
              << " games; it is written in version " << kDatabaseVersion << " when saved\n";
  return true;
}

int runCommand(int argc, char** argv) {
  RunSettings settings;
  runFlags(settings).parseOrExit(argc, argv, 0, std::string(kCommands) + "run options:\n");
  SelfPlayOptions& play = settings.play;
  GeneratorOptions& run = settings.run;
  const SearchLimits& limits = settings.limits;
  const uint64_t nodes = settings.nodes;
  const bool seedGiven = settings.seedGiven;
  FileLock lock;
  std::string error;
  if (!lock.acquire(run.dbPath, error)) {
    std::cerr << "bookgen: " << error << "\n";
    return 1;
  }
  Database db;
  if (std::ifstream(run.dbPath).good()) {
    if (!loadReported(run.dbPath, db, error)) {
      std::cerr << "bookgen: " << error << "\n(refusing to overwrite it; move it away or repair it)\n";
      return 1;
    }
    std::cerr << "resuming " << run.dbPath << ": " << db.games() << " games in " << db.runs().size() << " runs, "
              << db.positions() << " positions\n";
  } else {
    std::cerr << "starting a new database " << run.dbPath << "\n";
  }
  if (run.targetGames && db.games() >= run.targetGames) {
    std::cerr << "the database already holds " << db.games() << " games (target " << run.targetGames << ")\n";
    return 0;
  }
  RunInfo info;
  info.seed = seedGiven ? run.seed : freshRandom64() ^ (uint64_t(::getpid()) << 40);
  info.startedUnix = int64_t(std::time(nullptr));
  info.engine = kBookEngineVersion;
  std::ostringstream parameters;  // default stream formatting: 0.5, not 0.500000
  parameters << "iterations=" << limits.iterations << " time-ms=" << limits.timeMs << " threads=" << run.threads
             << " random-plies=" << play.randomPlies << " random-fraction=" << play.randomFraction
             << " follow-threshold=" << play.followThreshold << " engine-share=" << play.engineShare
             << " store-plies=" << play.storePlies << " nodes=" << uint64_t(nodes);
  info.parameters = parameters.str();
  db.beginRun(info);
  std::cerr << "run " << cli::hexText(db.currentRun().id) << ", seed " << db.currentRun().seed << ", " << info.parameters << "\n";
  std::signal(SIGINT, onSignal);
  std::signal(SIGTERM, onSignal);
  Generator gen(db, play, run, [&] { return std::make_unique<SearchEngine>(size_t(nodes), limits); });
  if (!gen.run(gStop, std::cerr, error)) {
    std::cerr << "bookgen: " << error << "\n";
    return 1;
  }
  if (gStop.load()) std::cerr << "stopped by signal; resume with the same command\n";
  return 0;
}

// OUT is read too when it exists, so `merge book.db other.db` adds to book.db what it lacks.
int mergeCommand(int argc, char** argv) {
  if (argc < 2) return fail("merge expects OUT and at least one IN");
  FileLock lock;
  std::string error;
  if (!lock.acquire(argv[0], error)) {
    std::cerr << "bookgen: " << error << "\n";
    return 1;
  }
  Database total;
  if (std::ifstream(argv[0]).good() && !loadReported(argv[0], total, error)) {
    std::cerr << "bookgen: " << error << "\n";
    return 1;
  }
  for (int i = 1; i < argc; ++i) {
    Database part;
    if (!loadReported(argv[i], part, error)) {
      std::cerr << "bookgen: " << error << "\n";
      return 1;
    }
    const uint64_t before = total.games();
    total.merge(part);
    std::cerr << "merged " << argv[i] << ": " << part.games() << " games in " << part.runs().size() << " runs, "
              << total.games() - before << " of them new\n";
  }
  if (!saveDatabase(argv[0], total, error)) {
    std::cerr << "bookgen: " << error << "\n";
    return 1;
  }
  std::cerr << "wrote " << argv[0] << ": " << total.games() << " games, " << total.positions() << " positions, "
            << total.proofConflicts() << " proof conflicts\n";
  return 0;
}

int statsCommand(int argc, char** argv) {
  if (argc < 1) return fail("stats expects a FILE");
  uint64_t top = 10;
  if (argc >= 3 && std::string(argv[1]) == "--top" && !cli::toInteger(argv[2], 0, cli::kNoLimit, top))
    return fail(cli::Flags::rangeError("--top", 0, cli::kNoMax, argv[2]));
  Database db;
  std::string error;
  if (!loadReported(argv[0], db, error)) {
    std::cerr << "bookgen: " << error << "\n";
    return 1;
  }
  std::map<int, size_t> byStones, provenByStones;
  size_t moves = 0;
  for (const auto& [key, stats] : db.map()) {
    moves += stats.moves.size();
    const int stones = popcount(key.mine | key.theirs);
    ++byStones[stones];
    provenByStones[stones] += stats.proof != Proof::Unknown;
  }
  std::cout << argv[0] << ": " << db.games() << " games, " << db.positions() << " positions, " << moves << " moves\n";
  for (const RunInfo& r : db.runs()) {
    char date[32] = "-";
    const std::time_t t = std::time_t(r.startedUnix);
    std::tm utc{};
    if (r.startedUnix > 0 && gmtime_r(&t, &utc)) std::strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", &utc);
    std::cout << "  run " << cli::hexText(r.id) << ": " << r.games << " games, started " << date << ", seed " << r.seed
              << ", engine " << r.engine << (r.parameters.empty() ? "" : ", " + r.parameters) << "\n";
  }
  for (const auto& [stones, n] : byStones)
    std::cout << "  " << stones << " stones: " << n << " positions, " << provenByStones[stones] << " proven\n";
  auto show = [&](const char* title, const PositionKey& key) {
    const PositionStats* s = db.find(key);
    if (!s) return;
    std::vector<MoveStats> moves = s->moves;
    std::sort(moves.begin(), moves.end(), [](const MoveStats& a, const MoveStats& b) { return a.games > b.games; });
    std::cout << title << " (" << s->games() << " games):\n";
    for (size_t i = 0; i < moves.size() && i < top; ++i)
      std::cout << "  " << cellName(moves[i].move) << ": " << moves[i].games << " games, win rate "
                << moves[i].winRate() << (moves[i].proof == Proof::Win ? " (proven win)" : "")
                << (moves[i].proof == Proof::Loss ? " (proven loss)" : "") << "\n";
  };
  show("first move", PositionKey{});
  for (Cell c : moveClasses(Board())) {
    Board b;
    b.play(c);
    show(("answer to " + cellName(c) + " (moves in canonical orientation)").c_str(), canonicalize(b).key);
  }
  return 0;
}

// "2 2; 4 4" -> the board after those moves; false with `error` on a bad or illegal move.
bool playMoves(const std::string& text, Board& b, std::string& error) {
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ';')) {
    std::stringstream words(item);
    std::string x, y, extra;
    if (!(words >> x)) continue;  // empty item (trailing ';')
    const Cell c = words >> y && !(words >> extra) ? parseCell(x + " " + y) : kNoCell;
    if (c == kNoCell) return error = "'" + item + "' is not a cell 'X Y'", false;
    if (!b.isLegal(c)) return error = "'" + item + "' is not a legal move here", false;
    if (b.play(c) != Outcome::None) return error = "the game is over after '" + item + "'", false;
  }
  return true;
}

int showCommand(int argc, char** argv) {
  ShowSettings settings;
  showFlags(settings).parseOrExit(argc, argv, 0, std::string(kCommands) + "show options:\n");
  const std::string& dbPath = settings.dbPath;
  const std::string& moves = settings.moves;
  const int depth = settings.depth;
  const PackOptions& opt = settings.pack;
  const VerifySettings& verify = settings.verify;
  Board b;
  std::string error;
  if (!playMoves(moves, b, error)) return fail("--moves: " + error);
  Database db;
  if (!loadReported(dbPath, db, error)) {
    std::cerr << "bookgen: " << error << "\n";
    return 1;
  }
  const VerifyOptions cachedOnly = verify.options();
  const BookPlan plan = planBook(db, opt, &cachedOnly);
  const bool shipped = std::find_if(plan.packed.boards.begin(), plan.packed.boards.end(), [&](const Board& p) {
                         return canonicalize(p).key == canonicalize(b).key;
                       }) != plan.packed.boards.end();
  std::cout << "position after '" << moves << "' (" << (shipped ? "in the shipped book" : "not in the shipped book")
            << "; '<- book' marks the move the packer picks)\n";
  BookPrinter(db, plan.choices, opt, verdictText(db, cachedOnly.engineKey)).printPosition(std::cout, b, depth);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string command = argc > 1 ? argv[1] : "";
  if (command == "run") return runCommand(argc - 2, argv + 2);
  if (command == "merge") return mergeCommand(argc - 2, argv + 2);
  if (command == "stats") return statsCommand(argc - 2, argv + 2);
  if (command == "show") return showCommand(argc - 2, argv + 2);
  if (command == "--help" || command == "-h") {
    std::cout << usage();
    return 0;
  }
  return fail(command.empty() ? "missing command" : "unknown command '" + command + "'");
}
