// bookgen: grows the opening-book database by meta-MCTS self-play with the project's search,
// merges databases and prints their statistics. See docs/book.md.
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "tools/book/database.h"
#include "tools/book/db_file.h"
#include "tools/book/db_store.h"
#include "tools/book/engine.h"
#include "tools/book/certificate.h"
#include "tools/book/files.h"
#include "tools/book/graph_print.h"
#include "tools/book/grow.h"
#include "tools/book/html.h"
#include "tools/book/shipped.h"
#include "tools/book/plan.h"
#include "tools/book/proof_state.h"
#include "tools/book/prove.h"
#include "tools/book/print.h"
#include "tools/book/selfplay.h"
#include "tools/cli.h"
#include "tools/moves_text.h"
#include "tools/stop_signal.h"

namespace {

using namespace yav;
using namespace yav::book;

const char* const kCommands =
    "usage: bookgen run   [options]        grows the book: deep searches of the positions that matter most (resumed)\n"
    "       bookgen games [options]        self-play games into the database (resumed when it exists)\n"
    "       bookgen merge OUT IN [IN...]  adds to OUT what each IN holds that OUT lacks (a folder OUT: in one new segment)\n"
    "       bookgen stats [FILE] [--top N] [--runs]  totals, positions and proofs by depth, first moves, answers\n"
    "                                     to each first move (--runs: then the runs grouped by settings, and every run)\n"
    "       bookgen drop-run FILE ID      leaves out one run's games (ids as stats --runs prints them)\n"
    "       bookgen compact FOLDER        rewrites a database folder's segments as one segment\n"
    "       bookgen migrate FILE          turns a one-file database into a folder FILE/ of segments (not rewritten)\n"
    "       bookgen show  [options]       the moves of a position with values, bounds, proofs; shipped and re-pack moves\n"
    "       bookgen html  [options]       writes one HTML page to click through the book from the empty board\n"
    "       bookgen prove [options]       proof-number searches of a position's replies; settled ones become verdicts\n"
    "       bookgen certificate [options] writes a checkable proof of a position (docs/proofs.md)\n"
    "       bookgen proven [options]      positions the book proves won for the player to move, as arena openings\n"
    "       bookgen classes [--db FILE]   the 9 first-move classes: each one's replies proven lost, won and open\n";
const char* const kFooter =
    "A database is one file or a folder of segment files read as one (docs/database.md); in a folder each\n"
    "writer adds a segment of its own. Only one process writes a database at a time (lock FILE.lock); each\n"
    "run gets a random id, and its seed, settings, engine version and date are recorded (bookgen stats --runs).\n";

struct RunSettings {
  SelfPlayOptions play;
  GeneratorOptions run;
  SearchLimits limits;
  uint64_t nodes = uint64_t(1) << 22;  // 30,000 iterations add up to about 300,000 nodes
  bool seedGiven = false;
  std::string dbPath = "book/book.db";
  RunSettings() {
    // At least what the bot reaches in its 75 ms turns (about 21,000 iterations mid-game and
    // 33,000 on the empty board, plain g++ build, this project's 2-core VM): the book is grown at
    // the bot's real strength.
    limits.iterations = 30000;
  }
};

// The flags every resumable run shares: checkpoints, progress lines and its recorded seed.
cli::Flags& resumableRunFlags(cli::Flags& flags, const std::string& units, uint64_t& checkpointEvery, double& progressSeconds,
                     uint64_t& seed, bool& seedGiven) {
  return flags
      .integer("--checkpoint", "N", checkpointEvery, 1, cli::kNoLimit,
               "save every N " + units + " (and at the end, and on Ctrl-C / SIGTERM)")
      .number("--progress", "SEC", progressSeconds, 0, cli::kNoMax, "seconds between progress lines")
      .value("--seed", "S", "the run's base seed", "fresh from time, pid and random_device; recorded",
             [&seed, &seedGiven](const std::string& v) {
               seedGiven = true;
               return cli::toInteger(v, 0, cli::kNoLimit, seed) ? std::string()
                                                                 : cli::Flags::rangeError("--seed", 0, cli::kNoMax, v);
             });
}

cli::Flags runFlags(RunSettings& s) {
  cli::Flags flags("bookgen");
  flags.text("--db", "FILE", s.dbPath, "the database (a file or a folder of segments); a damaged file is refused, never overwritten", s.dbPath)
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
      .integer("--nodes", "N", s.nodes, 0, cli::kNoLimit, "node pool of each search");
  return resumableRunFlags(flags, "games", s.run.checkpointEvery, s.run.progressSeconds, s.run.seed, s.seedGiven);
}

// `bookgen run`: the search-valued book (grow.h).
struct GrowSettings {
  GrowOptions grow;
  std::string dbPath = "book/book.db";
  std::string moves;  // --moves: the position every line starts at (empty: the model's starts)
  ShippedBookFlags shipped;  // the shipped book whose moves the lines keep
  bool seedGiven = false;
};

cli::Flags growFlags(GrowSettings& s) {
  GrowOptions& g = s.grow;
  cli::Flags flags("bookgen");
  flags.text("--db", "FILE", s.dbPath, "the database (a file or a folder of segments); a damaged file is refused, never overwritten", s.dbPath)
      .integer("--positions", "N", g.targetPositions, 0, cli::kNoLimit, "stop when the book holds N searched positions",
               "no limit")
      .number("--hours", "H", g.hours, 0, cli::kNoMax, "stop after H hours of this run", "no limit")
      .integer("--threads", "T", g.threads, 1, 1024, "deep searches in parallel, one per thread")
      .integer("--iterations", "N", g.deep.iterations, 1, cli::kNoLimit,
               "iterations of each position's deep search (part of the verdicts' key: a new budget starts a new book)")
      .integer("--nodes", "N", g.deep.nodes, 1024, cli::kNoLimit, "node pool of each deep search")
      .integer("--max-plies", "N", g.maxPlies, 1, kCells, "lines are not followed deeper than N plies")
      .value("--shard", "I/N", "search only the positions whose key hashes to shard I of N (1 <= I <= N), so that N "
             "machines growing the same database search disjoint positions (scripts/grow_shards.sh)", "1/1",
             [&g](const std::string& v) {
               const size_t slash = v.find('/');
               uint64_t i = 0, n = 0;
               if (slash == std::string::npos || !cli::toInteger(v.substr(0, slash), 1, 1 << 20, i) ||
                   !cli::toInteger(v.substr(slash + 1), 1, 1 << 20, n) || i > n)
                 return "--shard expects I/N with 1 <= I <= N, got '" + v + "'";
               g.shard = i - 1, g.shards = n;
               return std::string();
             });
  s.shipped.addTo(flags,
                  "the shipped book: the bot's book moves in the lines are the ones bookpack would ship, which keeps a "
                  "shipped move until it is clearly beaten");
  flags.number("--one-stone-share", "P", g.model.oneStoneShare, 0, 1,
              "share of lines from one random stone, the bot either side")
      .number("--two-stone-share", "P", g.model.twoStoneShare, 0, 1,
              "share of lines from two random stones, the bot either side (the rest: the empty board, the bot first)")
      .number("--book-move-share", "P", g.bookMoveShare, 0, 1,
              "share of the bot's moves in a line that follow its current book move (the rest: Thompson sampling)")
      .number("--opponent-uniform", "P", g.model.uniform, 0, 1,
              "share of the opponent's moves spread evenly over its sensible moves (the rest: in proportion to the "
              "deep search's visits)")
      .number("--opponent-explore", "P", g.opponentExploreShare, 0, 1,
              "share of the opponent's moves drawn by Thompson sampling instead, to find refutations the deep "
              "search underrated")
      .text("--moves", "'X Y; X Y'", s.moves,
            "every line starts at the position after these moves, the bot either side (growth aimed at one "
            "opening; the shares of starts are not used)", "the shares' starts");
  return resumableRunFlags(flags, "positions", g.checkpointEvery, g.progressSeconds, g.seed, s.seedGiven);
}

struct ShowSettings {
  std::string dbPath = "book/book.db", moves, source = "search";
  ShippedBookFlags shipped;  // the header the bot embeds now, and the re-pack's rule
  int depth = 1;
  uint64_t width = 12;
  PackOptions pack;
  VerifySettings verify;
  GrowOptions grown;  // its budget names the search-valued book's verdicts
};

// Flags shared by show and html: which book, and the shipped header to compare with.
void addBookFlags(cli::Flags& flags, ShowSettings& s) {
  flags.text("--db", "FILE", s.dbPath, "the database", s.dbPath)
      .integer("--book-iterations", "N", s.grown.deep.iterations, 1, cli::kNoLimit,
               "the search-valued book's deep-search budget (bookgen run --iterations)");
  s.shipped.addTo(flags, "the shipped book, marked 'shipped' (a re-pack's move is marked 're-pack')");
}

cli::Flags showFlags(ShowSettings& s) {
  cli::Flags flags("bookgen");
  addBookFlags(flags, s);
  flags.value("--source", "search|games", "the search-valued book (bookgen run) or the self-play statistics (bookgen games)",
              s.source,
              [&s](const std::string& v) {
                s.source = v;
                return v == "search" || v == "games" ? "" : "--source expects search or games, got '" + v + "'";
              })
      .integer("--width", "N", s.width, 1, kCells + 1, "with --source search: moves listed per position, best first")
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

struct HtmlSettings {
  ShowSettings book;
  std::string out = "book.html";
  uint64_t maxNodes = 5000;
};

cli::Flags htmlFlags(HtmlSettings& s) {
  cli::Flags flags("bookgen");
  addBookFlags(flags, s.book);
  flags.text("--out", "FILE", s.out, "the page to write", s.out)
      .integer("--max-positions", "N", s.maxNodes, 1, cli::kNoLimit,
               "positions on the page (likeliest first; a transposition counts once per path)");
  return flags;
}

std::string usage() {
  RunSettings run;
  ShowSettings show;
  GrowSettings grow;
  HtmlSettings html;
  return std::string(kCommands) + "run options:\n" + growFlags(grow).help() + "games options:\n" + runFlags(run).help() +
         "show options (with the packer's options, so that the shipped move is the one bookpack would pick, and\n"
         "the verification settings, whose cached verdicts are shown and applied):\n" +
         showFlags(show).help() + "html options:\n" + htmlFlags(html).help() + kFooter;
}

std::atomic<bool> gStop{false};  // set by SIGINT and SIGTERM (stopOnSignals)

int fail(const std::string& message) { cli::Flags("bookgen").fail(message); }

// Says which files of a database were of an older version (a version-1 file's games become one
// legacy run).
void reportVersions(const std::vector<SegmentRead>& files) {
  for (const SegmentRead& f : files) {
    if (!f.error.empty() || f.version >= kDatabaseVersion) continue;
    if (f.version == 1)
      std::cerr << f.path << ": version 1 file, read as one legacy run";
    else if (f.version == 2)
      std::cerr << f.path << ": version 2 file (verdicts without visits or runs)";
    else if (f.version == 3)
      std::cerr << f.path << ": version 3 file (verdicts without the runs that made them: drop-run keeps them)";
    else
      std::cerr << f.path << ": version " << f.version << " file (verdicts in a longer layout; version 7 rounds their visits and some values)";
    std::cerr << "; what is saved is written in version " << kDatabaseVersion << "\n";
  }
}

// Loads a database (a file or a folder of segments), saying which files were of an older version.
bool loadReported(const std::string& path, Database& db, std::string& error) {
  std::vector<SegmentRead> files;
  if (!loadDatabase(path, db, error, nullptr, &files)) return false;
  reportVersions(files);
  return true;
}

// Takes the database's lock and loads it (or starts a new one-file database); false after
// reporting an error.
bool openForWriting(DatabaseStore& store, FileLock& lock, Database& db) {
  const std::string& path = store.path();
  std::string error;
  if (!lock.acquire(path, error)) {
    std::cerr << "bookgen: " << error << "\n";
    return false;
  }
  if (!store.segmented() && !std::ifstream(path).good()) {
    std::cerr << "starting a new database " << path << "\n";
    return true;
  }
  std::vector<SegmentRead> files;
  if (!store.load(db, error, nullptr, &files)) {
    std::cerr << "bookgen: " << error << "\n(refusing to write on top of it; move it away or repair it)\n";
    return false;
  }
  reportVersions(files);
  std::cerr << "resuming " << path << (store.segmented() ? " (" + std::to_string(files.size()) + " segments)" : "")
            << ": " << db.games() << " games in " << db.runs().size() << " runs, " << db.positions()
            << " positions with games\n";
  return true;
}

// Records this invocation as a run (id, seed, engine, settings, date) and installs the stop signals.
void beginRun(Database& db, DatabaseStore& store, bool seedGiven, uint64_t seed, const std::string& parameters) {
  // Games of another engine or budget mix into the same statistics: say so (bookgen drop-run
  // leaves a run out). Growth runs add no games, and their verdicts are kept per budget anyway.
  auto budget = [](const std::string& p) {
    const size_t at = p.find("iterations=");
    return at == std::string::npos ? std::string() : p.substr(at, p.find(' ', at) - at);
  };
  for (const RunInfo& r : db.runs())
    if (r.games > 0 && parameters.rfind("grow", 0) != 0 && parameters.rfind("prove", 0) != 0 && (r.engine != kBookEngineVersion || budget(r.parameters) != budget(parameters)))
      std::cerr << "warning: run " << cli::hexText(r.id) << " played its " << r.games << " games with " << r.engine << " "
                << budget(r.parameters) << "; this run uses " << kBookEngineVersion << " " << budget(parameters)
                << ": their statistics will be mixed (bookgen drop-run leaves a run out)\n";
  RunInfo info;
  info.seed = seedGiven ? seed : freshRandom64() ^ (uint64_t(::getpid()) << 40);
  info.startedUnix = int64_t(std::time(nullptr));
  info.engine = kBookEngineVersion;
  info.parameters = parameters;
  db.beginRun(info);
  store.name(db.currentRun().id);
  if (store.segmented()) std::cerr << "this run's segment: " << store.segmentPath() << "\n";
  std::cerr << "run " << cli::hexText(db.currentRun().id) << ", seed " << db.currentRun().seed << ", " << info.parameters << "\n";
  stopOnSignals(gStop);
}

// After a run: kInterruptedStatus when a signal stopped it, 1 on error, else 0.
int runExit(bool ok, const std::string& error) {
  if (!ok) {
    std::cerr << "bookgen: " << error << "\n";
    return 1;
  }
  if (!gStop.load()) return 0;
  std::cerr << "stopped by signal; every finished result is saved; resume with the same command\n";
  return kInterruptedStatus;
}

int growCommand(int argc, char** argv) {
  GrowSettings settings;
  growFlags(settings).parseOrExit(argc, argv, 0, std::string(kCommands) + "run options:\n");
  GrowOptions& grow = settings.grow;
  if (grow.model.oneStoneShare + grow.model.twoStoneShare > 1) {
    std::cerr << "bookgen: --one-stone-share and --two-stone-share add up to more than 1\n";
    return 2;
  }
  if (!settings.moves.empty()) {
    Board root;
    std::string error;
    if (!playMoves(settings.moves, root, error)) {
      std::cerr << "bookgen: --moves: " << error << "\n";
      return 2;
    }
    grow.root = root;
  }
  FileLock lock;
  Database db;
  auto store = std::make_shared<DatabaseStore>(settings.dbPath);
  if (!openForWriting(*store, lock, db)) return 1;
  const std::string key = grow.deep.key();
  const auto verdicts = db.verdicts().find(key);
  const size_t have = verdicts == db.verdicts().end() ? 0 : verdicts->second.size();
  std::cerr << "book of " << key << ": " << have << " searched positions\n";
  if (grow.targetPositions && have >= grow.targetPositions) {
    std::cerr << "the book already holds " << have << " positions (target " << grow.targetPositions << ")\n";
    return 0;
  }
  std::ostringstream parameters;  // default stream formatting: 0.5, not 0.500000
  parameters << "grow iterations=" << grow.deep.iterations << " threads=" << grow.threads << " max-plies=" << grow.maxPlies
             << " one-stone-share=" << grow.model.oneStoneShare << " two-stone-share=" << grow.model.twoStoneShare
             << " book-move-share=" << grow.bookMoveShare << " opponent-uniform=" << grow.model.uniform
             << " opponent-explore=" << grow.opponentExploreShare
             << " nodes=" << grow.deep.nodes;
  if (grow.shards > 1) parameters << " shard=" << grow.shard + 1 << "/" << grow.shards;
  if (grow.root) parameters << " moves='" << settings.moves << "'";
  if (!settings.shipped.fresh) {
    auto shipped = std::make_shared<ShippedBook>();
    loadShippedBook(settings.shipped, "bookgen", *shipped);
    if (shipped->kept()) grow.shipped = std::shared_ptr<const OpeningBook>(shipped, shipped->kept());
  }
  parameters << " shipped=" << (grow.shipped ? settings.shipped.header : std::string("none"));
  beginRun(db, *store, settings.seedGiven, grow.seed, parameters.str());
  grow.seed = db.currentRun().seed;
  grow.store = store;
  Grower grower(db, grow, deepEvaluatorFactory(grow.deep));
  std::string error;
  const bool ok = grower.run(gStop, std::cerr, error);
  return runExit(ok, error);
}

int gamesCommand(int argc, char** argv) {
  RunSettings settings;
  runFlags(settings).parseOrExit(argc, argv, 0, std::string(kCommands) + "games options:\n");
  SelfPlayOptions& play = settings.play;
  GeneratorOptions& run = settings.run;
  const SearchLimits& limits = settings.limits;
  const uint64_t nodes = settings.nodes;
  FileLock lock;
  Database db;
  auto store = std::make_shared<DatabaseStore>(settings.dbPath);
  if (!openForWriting(*store, lock, db)) return 1;
  if (run.targetGames && db.games() >= run.targetGames) {
    std::cerr << "the database already holds " << db.games() << " games (target " << run.targetGames << ")\n";
    return 0;
  }
  std::ostringstream parameters;  // default stream formatting: 0.5, not 0.500000
  parameters << "iterations=" << limits.iterations << " time-ms=" << limits.timeMs << " threads=" << run.threads
             << " random-plies=" << play.randomPlies << " random-fraction=" << play.randomFraction
             << " follow-threshold=" << play.followThreshold << " engine-share=" << play.engineShare
             << " store-plies=" << play.storePlies << " nodes=" << uint64_t(nodes);
  beginRun(db, *store, settings.seedGiven, run.seed, parameters.str());
  run.store = store;
  Generator gen(db, play, run, [&] { return std::make_unique<SearchEngine>(size_t(nodes), limits); });
  std::string error;
  const bool ok = gen.run(gStop, std::cerr, error);
  return runExit(ok, error);
}

// OUT is read too when it exists, so `merge book.db other.db` adds to book.db what it lacks. A
// folder OUT gets one new segment holding only that (none when nothing is new: merging the same
// files twice adds nothing); a one-file OUT is rewritten whole.
int mergeCommand(int argc, char** argv) {
  if (argc < 2) return fail("merge expects OUT and at least one IN");
  FileLock lock;
  Database total;
  DatabaseStore store(argv[0]);
  if (!openForWriting(store, lock, total)) return 1;
  std::string error;
  for (int i = 1; i < argc; ++i) {
    Database part;
    if (!loadReported(argv[i], part, error)) {
      std::cerr << "bookgen: " << error << "\n";
      return 1;
    }
    const uint64_t before = total.games();
    const size_t searchedBefore = total.searchedPositions();
    total.merge(part);
    std::cerr << "merged " << argv[i] << ": " << part.games() << " games in " << part.runs().size() << " runs, "
              << total.games() - before << " of them new; " << part.searchedPositions() << " searched positions, "
              << total.searchedPositions() - searchedBefore << " of them new\n";
  }
  bool wrote = false;
  if (!store.save(total, error, &wrote)) {
    std::cerr << "bookgen: " << error << "\n";
    return 1;
  }
  if (!wrote) {
    std::cerr << "nothing new: " << argv[0] << " already holds all of it (no segment written)\n";
    return 0;
  }
  std::cerr << "wrote " << store.target() << ": " << argv[0] << " now holds " << total.games() << " games, "
            << total.positions() << " positions, " << total.searchedPositions() << " searched positions, "
            << total.proofConflicts() << " proof conflicts\n";
  return 0;
}

// Takes the lock of a database folder for a command that rewrites its segments; false after
// reporting an error.
bool lockFolder(const std::string& command, const std::string& folder, FileLock& lock) {
  std::string error;
  if (!isDatabaseFolder(folder)) {
    std::cerr << "bookgen: " << command << ": " << folder << " is not a database folder\n";
    return false;
  }
  if (!lock.acquire(folder, error)) {
    std::cerr << "bookgen: " << error << "\n";
    return false;
  }
  return true;
}

// Rewrites a folder's segments as one (the only command that does; never automatic). The new
// segment is complete on disk before any old one is removed: a kill in between leaves both, which
// read as the same database (reading merges copies of a run and of a verdict into one).
int compactCommand(int argc, char** argv) {
  if (argc != 1) return fail("compact expects one database FOLDER");
  FileLock lock;
  if (!lockFolder("compact", argv[0], lock)) return 1;
  Database db;
  std::vector<SegmentRead> files;
  std::string error;
  if (!loadDatabase(argv[0], db, error, nullptr, &files)) {
    std::cerr << "bookgen: " << error << "\n(refusing to compact; move the damaged segment away or repair it)\n";
    return 1;
  }
  if (files.size() < 2) {
    std::cerr << argv[0] << " holds " << files.size() << " segment; nothing to compact\n";
    return 0;
  }
  DatabaseStore store(argv[0]);
  const std::string bytes = serializeDatabase(db);
  store.name(dbfile::fnv1a(bytes, bytes.size()));
  if (!writeFileAtomically(store.segmentPath(), bytes, error)) {
    std::cerr << "bookgen: " << error << "\n";
    return 1;
  }
  uint64_t before = 0;
  for (const SegmentRead& f : files) {
    before += f.bytes;
    if (f.path != store.segmentPath() && std::remove(f.path.c_str()) != 0)
      std::cerr << "bookgen: " << f.path << ": cannot remove (" << std::strerror(errno) << "); it duplicates "
                << store.segmentPath() << " and may be removed by hand\n";
  }
  std::cerr << "compacted " << files.size() << " segments (" << before << " bytes) into " << store.segmentPath() << " ("
            << bytes.size() << " bytes): " << db.searchedPositions() << " searched positions, " << db.games() << " games\n";
  return 0;
}

// A one-file database becomes a folder holding that file as its first segment, renamed, not
// rewritten (in git: a rename). FILE is first renamed to FILE.migrating/, so that an interrupted
// migration is finished by running it again.
int migrateCommand(int argc, char** argv) {
  if (argc != 1) return fail("migrate expects one database FILE");
  const std::string file = argv[0], moving = file + ".migrating";
  FileLock lock;
  std::string error;
  if (!lock.acquire(file, error)) {
    std::cerr << "bookgen: " << error << "\n";
    return 1;
  }
  Database db;
  uint32_t version = 0;
  if (!isDatabaseFolder(moving)) {
    if (isDatabaseFolder(file)) {
      std::cerr << file << " is a database folder already\n";
      return 0;
    }
    if (!loadDatabaseFile(file, db, error, &version)) {
      std::cerr << "bookgen: " << error << "\n(refusing to migrate it; move it away or repair it)\n";
      return 1;
    }
    std::error_code ec;
    std::filesystem::create_directory(moving, ec);
    if (ec) return std::cerr << "bookgen: " << moving << ": cannot create (" << ec.message() << ")\n", 1;
    if (std::rename(file.c_str(), (moving + "/0-base" + kSegmentSuffix).c_str()) != 0)
      return std::cerr << "bookgen: " << file << ": cannot move (" << std::strerror(errno) << ")\n", 1;
  }
  if (std::rename(moving.c_str(), file.c_str()) != 0)
    return std::cerr << "bookgen: " << moving << ": cannot rename to " << file << " (" << std::strerror(errno) << ")\n", 1;
  std::cerr << file << " is now a database folder: " << file << "/0-base" << kSegmentSuffix
            << " holds what the file held; each later writer adds a segment of its own\n";
  return 0;
}

// Leaves out one run's games (found with `bookgen stats --runs`), e.g. one played by a broken
// engine. In a folder every segment holding some of the run is rewritten without it (removing is
// the one change appending cannot make), one segment at a time, each atomically.
int dropRunCommand(int argc, char** argv) {
  if (argc != 2) return fail("drop-run expects FILE and a run id (as `bookgen stats --runs` prints it)");
  uint64_t id = 0;
  try {
    size_t used = 0;
    id = std::stoull(argv[1], &used, 16);
    if (used != std::string(argv[1]).size()) throw std::invalid_argument("");
  } catch (const std::exception&) {
    return fail(std::string("drop-run: '") + argv[1] + "' is not a run id (16 hex digits)");
  }
  FileLock lock;
  Database db;
  DatabaseStore store(argv[0]);
  if (!openForWriting(store, lock, db)) return 1;
  const uint64_t before = db.games();
  const size_t searchedBefore = db.searchedPositions();
  if (!db.dropRun(id)) {
    std::cerr << "bookgen: " << argv[0] << " has no run " << argv[1] << " (bookgen stats --runs lists the runs)\n";
    return 1;
  }
  std::string error;
  if (!store.segmented() && !saveDatabase(argv[0], db, error)) {
    std::cerr << "bookgen: " << error << "\n";
    return 1;
  }
  std::vector<std::string> files;
  if (store.segmented() && !listSegments(argv[0], files, error)) {
    std::cerr << "bookgen: " << error << "\n";
    return 1;
  }
  for (const std::string& file : files) {
    Database part;
    if (!loadDatabaseFile(file, part, error)) {
      std::cerr << "bookgen: " << error << "\n";
      return 1;
    }
    if (!part.dropRun(id)) continue;
    const bool empty = part.positions() == 0 && part.searchedPositions() == 0 && part.runs().empty();
    if (empty ? std::remove(file.c_str()) != 0 : !saveDatabase(file, part, error)) {
      std::cerr << "bookgen: " << (empty ? file + ": cannot remove (" + std::strerror(errno) + ")" : error) << "\n";
      return 1;
    }
    std::cerr << (empty ? "removed " : "rewrote ") << file << "\n";
  }
  std::cerr << "dropped run " << argv[1] << " (" << before - db.games() << " games, "
            << searchedBefore - db.searchedPositions() << " searched positions) from " << argv[0] << "\n";
  return 0;
}

// A run's settings without those that do not change what it finds (threads, shard): the key that
// `bookgen stats` groups runs by.
std::string runSettings(const RunInfo& r) {
  std::istringstream words(r.parameters);
  std::string word, kept = r.engine;
  while (words >> word)
    if (word.rfind("threads=", 0) != 0 && word.rfind("shard=", 0) != 0) kept += " " + word;
  return kept;
}

std::string utcDate(int64_t unix, const char* format) {
  char date[32] = "-";
  const std::time_t t = std::time_t(unix);
  std::tm utc{};
  if (unix > 0 && gmtime_r(&t, &utc)) std::strftime(date, sizeof date, format, &utc);
  return date;
}

int statsCommand(int argc, char** argv) {
  std::string path;
  uint64_t top = 10;
  bool listRuns = false;
  for (int i = 0; i < argc; ++i) {
    const std::string arg = argv[i];
    if ((arg == "--top" || arg == "--db") && i + 1 >= argc) return fail("stats: " + arg + " needs a value");
    if (arg == "--top") {
      if (!cli::toInteger(argv[++i], 0, cli::kNoLimit, top)) return fail(cli::Flags::rangeError("--top", 0, cli::kNoMax, argv[i]));
      continue;
    }
    if (arg == "--runs") {
      listRuns = true;
      continue;
    }
    if (arg != "--db" && arg.size() > 1 && arg[0] == '-')
      return fail("stats: unknown option '" + arg + "' (bookgen stats [FILE] [--top N] [--runs]; FILE defaults to book/book.db)");
    const std::string file = arg == "--db" ? argv[++i] : arg;  // FILE or --db FILE
    if (!path.empty()) return fail("stats: more than one FILE ('" + path + "', '" + file + "')");
    path = file;
  }
  if (path.empty()) path = "book/book.db";
  // A damaged segment is listed with its error; the others are read.
  Database db;
  std::string error;
  std::vector<SegmentRead> files;
  if (!loadDatabase(path, db, error, nullptr, &files, true)) {
    std::cerr << "bookgen: " << error << "\n";
    return 1;
  }
  reportVersions(files);
  std::map<int, size_t> byStones, provenByStones, searchedByStones, provenSearchedByStones;
  size_t moves = 0;
  for (const auto& [key, stats] : db.map()) {
    moves += stats.moves.size();
    const int stones = popcount(key.mine | key.theirs);
    ++byStones[stones];
    provenByStones[stones] += stats.proof != Proof::Unknown;
  }
  std::cout << path << ": " << db.games() << " games, " << db.positions() << " positions with games, " << moves
            << " moves, " << db.searchedPositions() << " searched positions, " << db.runs().size() << " runs\n";
  uint64_t bytes = 0, damaged = 0;
  for (const SegmentRead& f : files) bytes += f.bytes, damaged += !f.error.empty();
  char size[160];
  std::snprintf(size, sizeof size, "  %s: %.1f MB in %zu file%s, %.0f bytes a searched position\n",
                files.size() > 1 || isDatabaseFolder(path) ? "segments" : "file", double(bytes) / 1e6, files.size(),
                files.size() == 1 ? "" : "s", double(bytes) / double(std::max<size_t>(1, db.searchedPositions())));
  std::cout << size;
  for (const SegmentRead& f : files)
    if (!f.error.empty()) std::cout << "  REFUSED (left out of everything below): " << f.error << "\n";
  // Search-valued books, one per deep-search budget; by depth, the growth's default budget's (or
  // the largest book when there is none).
  std::string depthKey = GrowOptions().deep.key();
  if (!db.verdicts().count(depthKey))
    for (const auto& [engine, verdicts] : db.verdicts())
      if (!db.verdicts().count(depthKey) || verdicts.size() > db.verdicts().at(depthKey).size()) depthKey = engine;
  for (const auto& [engine, verdicts] : db.verdicts()) {
    const BookGraph graph = BookGraph::fromDatabase(db, engine);
    size_t proven = 0;
    for (const BookGraph::Node& n : graph.nodes()) {
      const bool isProven = n.estimate.proof != Proof::Unknown;
      proven += isProven;
      if (engine != depthKey) continue;
      const int stones = popcount(n.key.mine | n.key.theirs);
      ++searchedByStones[stones];
      provenSearchedByStones[stones] += isProven;
    }
    std::cout << "  searched positions of " << engine << ": " << graph.size() << " (" << proven << " proven)\n";
  }
  std::cout << "  by stones: positions with games (proven) | searched positions of " << depthKey << " (proven)\n";
  std::set<int> depths;
  for (const auto& e : byStones) depths.insert(e.first);
  for (const auto& e : searchedByStones) depths.insert(e.first);
  for (int stones : depths) {
    char line[128];
    std::snprintf(line, sizeof line, "    %2d stones: %8zu (%zu) | %8zu (%zu)\n", stones, byStones[stones],
                  provenByStones[stones], searchedByStones[stones], provenSearchedByStones[stones]);
    std::cout << line;
  }
  auto plural = [](uint64_t n, const char* word) { return std::to_string(n) + " " + word + (n == 1 ? "" : "s"); };
  auto show = [&](const std::string& title, const PositionKey& key) {
    const PositionStats* s = db.find(key);
    if (!s) return;
    const Board b = boardOf(key);
    std::vector<MoveStats> moves = s->moves;
    std::sort(moves.begin(), moves.end(), [](const MoveStats& a, const MoveStats& b) { return a.games > b.games; });
    std::cout << title << " (" << plural(s->games(), "game") << "; win rate of the player making the move):\n";
    for (size_t i = 0; i < moves.size() && i < top; ++i) {
      char rate[16];
      std::snprintf(rate, sizeof rate, "%.3f", moves[i].winRate());
      std::cout << "  " << moveName(b, moves[i].move) << ": " << plural(moves[i].games, "game") << ", win rate " << rate
                << (moves[i].proof == Proof::Win ? " (proven win)" : "")
                << (moves[i].proof == Proof::Loss ? " (proven loss)" : "") << "\n";
    }
  };
  show("first move", PositionKey{});
  for (Cell c : moveClasses(Board())) {
    Board b;
    b.play(c);
    show("answer to " + cellName(c) + " (moves in canonical orientation)", canonicalize(b).key);
  }
  // The runs come last and only on request: a database of many runs listed dozens of kinds before
  // anything above (issue 87).
  const std::vector<size_t> searched = db.verdictsPerRun();
  // Runs grouped by their settings, in the order each group first ran.
  struct Group {
    size_t runs = 0, searched = 0;
    uint64_t games = 0;
    int64_t first = 0, last = 0;
  };
  std::vector<std::string> order;
  std::map<std::string, Group> groups;
  for (size_t i = 0; i < db.runs().size(); ++i) {
    const RunInfo& r = db.runs()[i];
    const std::string key = runSettings(r);
    auto [it, fresh] = groups.try_emplace(key);
    if (fresh) order.push_back(key), it->second.first = it->second.last = r.startedUnix;
    Group& g = it->second;
    ++g.runs, g.games += r.games, g.searched += searched[i];
    g.first = std::min(g.first, r.startedUnix), g.last = std::max(g.last, r.startedUnix);
  }
  if (!listRuns) {
    std::cout << plural(db.runs().size(), "run") << " of " << plural(order.size(), "kind")
              << " (bookgen stats --runs: the kinds by their settings and every run)\n";
    return damaged ? 1 : 0;
  }
  std::cout << "runs by settings (" << plural(order.size(), "kind") << "):\n";
  for (const std::string& key : order) {
    const Group& g = groups[key];
    std::cout << "  " << plural(g.runs, "run") << " " << utcDate(g.first, "%Y-%m-%d")
              << (g.runs > 1 ? " to " + utcDate(g.last, "%Y-%m-%d") : "") << ": " << g.games << " games, " << g.searched
              << " searched positions; " << key << "\n";
  }
  std::cout << "every run:\n";
  for (size_t i = 0; i < db.runs().size(); ++i) {
    const RunInfo& r = db.runs()[i];
    std::cout << "  run " << cli::hexText(r.id) << ": " << r.games << " games, " << searched[i]
              << " searched positions, started " << utcDate(r.startedUnix, "%Y-%m-%d %H:%M UTC") << ", seed " << r.seed
              << ", engine " << r.engine << (r.parameters.empty() ? "" : ", " + r.parameters) << "\n";
  }
  return damaged ? 1 : 0;
}

// The search-valued book of a database, its re-pack choices and the shipped header (when readable).
struct LoadedBook {
  Database db;
  BookGraph graph;
  Choices repack;
  ShippedBook shipped;
};
bool loadBook(const ShowSettings& s, LoadedBook& book) {
  std::string error;
  if (!loadReported(s.dbPath, book.db, error)) {
    std::cerr << "bookgen: " << error << "\n";
    return false;
  }
  book.graph = BookGraph::fromDatabase(book.db, s.grown.deep.key());
  loadShippedBook(s.shipped, "bookgen", book.shipped);
  book.repack = chooseFromGraph(book.graph, s.grown.model, book.shipped.kept());
  return true;
}

int showCommand(int argc, char** argv) {
  ShowSettings settings;
  showFlags(settings).parseOrExit(argc, argv, 0, std::string(kCommands) + "show options:\n");
  Board b;
  std::string error;
  if (!playMoves(settings.moves, b, error)) return fail("--moves: " + error);
  const std::string where = settings.moves.empty() ? "the empty board" : "'" + settings.moves + "'";
  if (settings.source == "search") {
    LoadedBook book;
    if (!loadBook(settings, book)) return 1;
    const std::optional<Cell> shipped = book.shipped.loaded ? book.shipped.book.lookup(b) : std::nullopt;
    const auto repack = book.repack.find(canonicalize(b).key);
    std::cout << "position after " << where << " (book of " << settings.grown.deep.key() << ", " << book.graph.size()
              << " searched positions)\n"
              << "  shipped (" << settings.shipped.header << "): "
              << (shipped ? moveName(b, *shipped) : std::string("not in the shipped book")) << "\n"
              << "  re-pack (bookpack now): "
              << (repack != book.repack.end() ? moveName(b, canonicalize(b).fromCanonical(repack->second.move))
                                              : std::string("no book move"))
              << "\n";
    GraphPrinter(book.graph, book.repack, book.shipped.shown())
        .printPosition(std::cout, b, settings.depth, size_t(settings.width));
    return 0;
  }
  Database db;
  if (!loadReported(settings.dbPath, db, error)) {
    std::cerr << "bookgen: " << error << "\n";
    return 1;
  }
  const VerifyOptions cachedOnly = settings.verify.options();
  const BookPlan plan = planBook(db, settings.pack, &cachedOnly);
  const bool inRepack = std::find_if(plan.packed.boards.begin(), plan.packed.boards.end(), [&](const Board& p) {
                          return canonicalize(p).key == canonicalize(b).key;
                        }) != plan.packed.boards.end();
  std::cout << "position after " << where << " (" << (inRepack ? "in" : "not in")
            << " the book a re-pack of the games would ship; '<- book' marks the move it picks)\n";
  BookPrinter(db, plan.choices, settings.pack, verdictText(db, cachedOnly.engineKey)).printPosition(std::cout, b, settings.depth);
  return 0;
}

int htmlCommand(int argc, char** argv) {
  HtmlSettings settings;
  htmlFlags(settings).parseOrExit(argc, argv, 0, std::string(kCommands) + "html options:\n");
  LoadedBook book;
  if (!loadBook(settings.book, book)) return 1;
  const std::vector<PageNode> tree =
      bookPageTree(book.graph, book.repack, book.shipped.shown(), size_t(settings.maxNodes));
  const std::string title = "Yavalath opening book: " + std::to_string(book.graph.size()) + " searched positions (" +
                            settings.book.grown.deep.key() + ")";
  std::string error;
  if (!writeFileAtomically(settings.out, bookPageHtml(tree, title), error)) {
    std::cerr << "bookgen: " << error << "\n";
    return 1;
  }
  std::cerr << "wrote " << settings.out << ": " << tree.size() << " positions\n";
  return 0;
}

// --- proofs (docs/proofs.md) ---

struct ProofSettings {
  std::string dbPath = "book/book.db", moves, winner = "auto", out, statePath;
  GrowOptions grown;  // its budget names the book's verdicts
  ProveOptions prove;
  CertificateOptions certificate;
};

// The flags prove and certificate share: which book, which position, whose win.
cli::Flags& proofTargetFlags(cli::Flags& flags, ProofSettings& s) {
  return flags.text("--db", "FILE", s.dbPath, "the database", s.dbPath)
      .text("--moves", "'X Y; X Y'", s.moves, "the position after these moves (no steal is searched after them)", "the empty board")
      .value("--winner", "mover|opponent|auto", "whose win is to be proven: the player to move there or the other one",
             "auto: the book's proof, else the side its value favours",
             [&s](const std::string& v) {
               s.winner = v;
               return v == "mover" || v == "opponent" || v == "auto" ? "" : "--winner expects mover, opponent or auto, got '" + v + "'";
             });
}

// The target board, checked: a legal, unfinished position with a move left.
bool proofTarget(const ProofSettings& s, Board& b) {
  std::string error;
  if (!playMoves(s.moves, b, error)) return fail("--moves: " + error), false;
  if (!b.empty()) return fail("--moves: the board is full"), false;
  return true;
}

// The book graph's node of b as proofs see it: placements only (no steal), or nullptr.
const BookGraph::Node* placementNode(const BookGraph& graph, const Board& b) {
  return graph.find(canonicalize(placementKey(b)).key);
}

// The book's proof for the player to move at b, searched as placements only (no steal).
Proof graphProof(const BookGraph& graph, const Board& b) {
  const BookGraph::Node* n = placementNode(graph, b);
  return n ? n->estimate.proof : Proof::Unknown;
}

// The attacker (a player index of b) that --winner names.
int proofAttacker(const ProofSettings& s, const BookGraph& graph, const Board& b) {
  const int mover = b.toMove();
  if (s.winner == "mover") return mover;
  if (s.winner == "opponent") return mover ^ 1;
  const Proof p = graphProof(graph, b);
  if (p == Proof::Win) return mover;
  if (p == Proof::Loss) return mover ^ 1;
  const BookGraph::Node* n = placementNode(graph, b);
  return n && n->estimate.mean < 0.5 ? mover ^ 1 : mover;
}

// MemAvailable of /proc/meminfo in bytes (0 where it cannot be read: no limit is known).
uint64_t availableMemoryBytes() {
  std::ifstream in("/proc/meminfo");
  for (std::string name; in >> name;) {
    uint64_t kb = 0;
    if (name == "MemAvailable:" && in >> kb) return kb * 1024;
    in.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
  }
  return 0;
}

int proveCommand(int argc, char** argv) {
  ProofSettings s;
  bool tableGiven = false;
  cli::Flags flags("bookgen");
  proofTargetFlags(flags, s)
      .integer("--threads", "N", s.prove.threads, 1, 256, "searching threads")
      .number("--hours", "H", s.prove.hours, 0, cli::kNoMax, "stop after H hours", "until the position is settled")
      .integer("--budget", "N", s.prove.firstBudget, 1, cli::kNoLimit, "expansions of a reply's first turn (doubled at each turn)")
      .number("--item-epsilon", "E", s.prove.itemEpsilon, -1, cli::kNoMax,
              "a reply's turn also ends when its proof number (disproof number where the defender moves at the target, "
              "unless --item-order cheapest) "
              "passes its best free sibling's by this share, df-pn's 1+epsilon rule (-1: only the budget ends a turn)")
      .value("--item-order", "proving|cheapest",
             "where the defender moves at the target (and in split replies), the next reply: df-pn's most proving one "
             "(the least disproof number), or the cheapest (the least proof number), so a run that cannot settle the target "
             "banks the proofs nearest to done",
             "proving",
             [&](const std::string& v) {
               if (v != "proving" && v != "cheapest") return "--item-order expects proving or cheapest, got '" + v + "'";
               s.prove.cheapestFirst = v == "cheapest";
               return std::string();
             })
      .value("--table", "N", "positions a thread's table holds (32 bytes each) before it forgets the ones never expanded",
             std::to_string(s.prove.search.maxEntries) + ", or four times a --state file's positions, within 3/4 of the memory available",
             [&](const std::string& v) {
               uint64_t n = 0;
               if (!cli::toInteger(v, 1000, cli::kNoLimit, n)) return "--table expects a whole number of at least 1000, got '" + v + "'";
               s.prove.search.maxEntries = size_t(n), tableGiven = true;
               return std::string();
             })
      .integer("--mcts-iterations", "N", s.prove.search.mctsIterations, 0, cli::kNoLimit,
               "the bot's MCTS-solver of N iterations settles a node at its first expansion when it proves it (0: off; "
               "docs/proofs.md has its measurements)")
      .integer("--mcts-plies", "N", s.prove.search.mctsPlies, 0, 60, "... at the nodes up to N plies below each reply searched")
      .integer("--quiet-proof-number", "N", s.prove.search.quietProofNumber, 1, 1000000,
               "a new position where the defender moves starts at this proof number when the attacker, given a second move "
               "there, has no threat sequence: df-pn tries the attacker's threatening moves first (1: every new position at 1)")
      .integer("--record-plies", "N", s.prove.recordPlies, 0, 60,
               "the positions the searches prove up to N plies below the target are recorded too, so a later run starts from them")
      .number("--progress", "SEC", s.prove.progressSeconds, 0, cli::kNoMax, "seconds between progress lines")
      .number("--checkpoint", "SEC", s.prove.checkpointSeconds, 1, cli::kNoMax, "seconds between saves (and at the end, and on Ctrl-C)")
      .text("--state", "FILE", s.statePath,
            "the searches' tables: read at the start when the file exists, written when the run ends, so the next run goes on "
            "where this one stopped (GBs: keep it out of the repository)",
            "none")
      .number("--state-every", "SEC", s.prove.stateSeconds, 1, cli::kNoMax,
              "seconds between writes of the --state file while the run goes on (the threads wait meanwhile), so that a "
              "killed run loses at most that much");
  flags.parseOrExit(argc, argv, 0, std::string(kCommands) + "prove options:\n");
  Board target;
  if (!proofTarget(s, target)) return 2;
  if (!tableGiven && !s.statePath.empty()) {
    const uint64_t statePositions = proofStatePositions(s.statePath), memory = availableMemoryBytes();
    s.prove.search.maxEntries = tableForState(s.prove.search.maxEntries, statePositions,
                                              memory ? memory : std::numeric_limits<uint64_t>::max(), s.prove.threads);
    std::cerr << "a thread's table: " << s.prove.search.maxEntries << " positions (the state's " << statePositions
              << " times four, at least the default, within 3/4 of " << memory / (1 << 20) << " MiB available)\n";
  }
  FileLock lock;
  Database db;
  DatabaseStore store(s.dbPath);
  if (!openForWriting(store, lock, db)) return 1;
  const std::string key = s.grown.deep.key();
  std::cerr << "loading the book graph of " << key << "\n";
  const BookGraph graph = BookGraph::fromDatabase(db, key);
  const int attacker = proofAttacker(s, graph, target);
  if (const Proof p = graphProof(graph, target); p == Proof::Win || p == Proof::Loss)
    std::cerr << "the book already proves this position: a " << proofName(p) << " for the player to move\n";
  std::ostringstream parameters;
  parameters << "prove moves='" << s.moves << "' winner=" << (attacker == target.toMove() ? "mover" : "opponent")
             << " threads=" << s.prove.threads << " budget=" << s.prove.firstBudget;
  if (s.prove.search.quietProofNumber > 1) parameters << " quiet-pn=" << s.prove.search.quietProofNumber;
  if (s.prove.search.mctsIterations)
    parameters << " mcts=" << s.prove.search.mctsIterations << "x" << s.prove.search.mctsPlies << "plies";
  beginRun(db, store, false, 0, parameters.str());
  size_t recorded = 0;
  std::string error;
  bool saveFailed = false;
  auto save = [&] {
    if (!store.save(db, error)) saveFailed = true;
    else std::cerr << "saved " << store.target() << " (" << recorded << " positions settled by this run)\n";
  };
  // A settled reply becomes a verdict: the winning move, or every move class proven lost. A
  // position with a deep search's verdict keeps it, completed by the proof (its other moves keep
  // their values), and the segment saves it since it now proves more moves (db_store.h).
  auto record = [&](const Board& b, Proof p, Cell win) {
    if (p == Proof::Win && win == kNoCell) return;
    // Placements only, as searched: a one-stone target is its class, the position after a steal,
    // never the one where the steal is open (a loss there would call the steal lost).
    const Canonical c = canonicalize(placementKey(b));
    const DeepVerdict* searched = db.verdict(key, c.key);
    DeepVerdict v = searched ? *searched : DeepVerdict();
    auto markProven = [&v](Cell move, Proof proof) {
      const float value = proof == Proof::Win ? 1.0f : 0.0f;
      for (DeepMove& d : v.moves)
        if (d.move == move) return void(d = {move, value, proof, d.visits});
      v.moves.push_back({move, value, proof, 0});
    };
    if (p == Proof::Win) {
      v.best = c.toCanonical(win);
      markProven(v.best, Proof::Win);
    } else {
      for (Cell m : moveClasses(b))
        if (m != b.stealCell()) markProven(c.toCanonical(m), Proof::Loss);
      if (v.best == kNoCell && !v.moves.empty()) v.best = v.moves.front().move;
    }
    db.setVerdict(key, c.key, v);
    ++recorded;
  };
  KnownProof known = [&graph](const PositionKey& k) {
    const BookGraph::Node* n = graph.find(k);
    return n ? n->estimate.proof : Proof::Unknown;
  };
  std::cerr << "proving a win for the " << (attacker == target.toMove() ? "player to move" : "opponent of the player to move")
            << " after '" << s.moves << "' with " << s.prove.threads << " threads\n";
  Prover prover(target, attacker, s.prove, known, record, save);
  auto saveState = [&](std::string& why) {
    const auto start = std::chrono::steady_clock::now();
    uint64_t written = 0;
    const std::vector<ProofSearch*> all = prover.searches();
    if (!saveProofState(s.statePath, std::vector<const ProofSearch*>(all.begin(), all.end()), written, why)) return false;
    std::cerr << "wrote " << written << " searched positions to " << s.statePath << " in "
              << std::fixed << std::setprecision(1) << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()
              << std::defaultfloat << " s\n";
    return true;
  };
  if (!s.statePath.empty()) {
    // A quarter of each table, so that the search has room before it forgets (ProofSearch::forget).
    uint64_t read = 0;
    if (!loadProofState(s.statePath, prover.searches(), s.prove.search.maxEntries / 4, read, error))
      return std::cerr << "bookgen: " << error << " (nothing was searched; move the file away to start without it)\n", 1;
    std::cerr << "read " << read << " searched positions from " << s.statePath << " (a thread's table took "
              << prover.searches().front()->entries() << ", a quarter of --table at most, the settled ones, then the open ones with the fewest stones)\n";
    prover.saveStateWith([&] {
      std::string why;
      if (!saveState(why)) std::cerr << "bookgen: " << why << " (the run goes on)\n";
    });
  }
  const ProofNumbers n = prover.run(gStop, std::cerr);
  if (const Proof p = moverProof(n, attacker == target.toMove()); p != Proof::Unknown)
    record(target, p, p == Proof::Win ? prover.targetWinningMove() : kNoCell);
  save();
  if (!s.statePath.empty() && !saveState(error)) saveFailed = true;
  std::cerr << "target " << (n.proven()         ? "PROVEN: the attacker wins"
                             : n.defenderWins() ? "DISPROVEN: the defender wins (recorded as its proof)"
                             : n.disproven()    ? "DISPROVEN: the attacker does not win (a draw is not ruled out)"
                                                : "open")
            << " (pn " << proofNumberText(n.pn) << ", dn " << proofNumberText(n.dn) << "); " << prover.settledPositions() << " positions settled in the searches, "
            << prover.deeperRecorded() << " proofs below the target's moves recorded\n";
  return runExit(!saveFailed, error);
}

int certificateCommand(int argc, char** argv) {
  ProofSettings s;
  cli::Flags flags("bookgen");
  proofTargetFlags(flags, s)
      .text("--out", "FILE", s.out, "the certificate file (required)", "")
      .integer("--threat-depth", "D", s.certificate.threatDepth, 1, 8, "attacker moves of the threat sequences the checker settles leaves with")
      .integer("--budget", "N", s.certificate.searchBudget, 1, cli::kNoLimit,
               "proof-number expansions for one position the book does not prove");
  flags.parseOrExit(argc, argv, 0, std::string(kCommands) + "certificate options:\n");
  if (s.out.empty()) return fail("certificate: --out FILE is required");
  Board root;
  if (!proofTarget(s, root)) return 2;
  Database db;
  std::string error;
  if (!loadReported(s.dbPath, db, error)) {
    std::cerr << "bookgen: " << error << "\n";
    return 1;
  }
  const BookGraph graph = BookGraph::fromDatabase(db, s.grown.deep.key());
  const int attacker = proofAttacker(s, graph, root);
  stopOnSignals(gStop);
  const auto start = std::chrono::steady_clock::now();
  auto seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  CertificateWriter writer(&graph, s.certificate, &gStop);
  std::cerr << "certificate of a win for player " << attacker + 1 << " after '" << s.moves << "'\n";
  const bool ok = writer.build(root, attacker, error, [&](const CertificateWriter& w) {
    std::cerr << "certificate: " << std::fixed << std::setprecision(0) << seconds() << " s, " << w.table().size()
              << " table positions, " << w.leaves() << " threat leaves, " << w.searched() << " proof searches ("
              << w.expansions() << " expansions)\n";
  });
  if (!ok) {
    if (gStop.load()) return std::cerr << "bookgen: stopped by signal; no certificate written\n", kInterruptedStatus;
    return std::cerr << "bookgen: no certificate: " << error << "\n", 1;
  }
  const std::vector<std::string> comments = {
      "moves: '" + s.moves + "' (then placements only, no steal)",
      "claim: player " + std::to_string(attacker + 1) + " wins",
      "made by: bookgen certificate --db " + s.dbPath + " --moves '" + s.moves + "' --threat-depth " +
          std::to_string(s.certificate.threatDepth) + " --budget " + std::to_string(s.certificate.searchBudget)};
  if (!writeFileAtomically(s.out, certificateText(root, attacker == root.toMove(), s.certificate.threatDepth, writer.table(), comments), error))
    return std::cerr << "bookgen: " << error << "\n", 1;
  std::cerr << "wrote " << s.out << ": " << writer.table().size() << " table positions, " << writer.leaves() << " threat leaves, "
            << writer.searched() << " positions proven by proof-number search, " << std::fixed << std::setprecision(1)
            << seconds() << " s\n";
  return 0;
}

}  // namespace

// Moves from the empty board to the position with these stones (player 0's and player 1's,
// placed alternately, player 0 first) in which no move ends the game; false when there is no
// such order. Depth-first over the stones, at most a few thousand tries for 12 stones.
bool movesTo(Bitboard stones0, Bitboard stones1, const Board& b, std::vector<Cell>& moves, int& tries) {
  if (!(stones0 | stones1)) return true;
  if (++tries > 100000) return false;
  for (Bitboard left = b.toMove() == 0 ? stones0 : stones1; left;) {
    const Cell c = popLowest(left);
    Board next = b;
    if (next.play(c) != Outcome::None) continue;
    moves.push_back(c);
    const Bitboard rest0 = b.toMove() == 0 ? stones0 & ~bit(c) : stones0, rest1 = b.toMove() == 1 ? stones1 & ~bit(c) : stones1;
    if (movesTo(rest0, rest1, next, moves, tries)) return true;
    moves.pop_back();
  }
  return false;
}

// Positions the book proves won for the player to move, as an arena --openings file: the conversion
// test of docs/proofs.md plays each with both colours. An even share of each stone count (as far as
// the book has them), drawn with --seed.
int provenCommand(int argc, char** argv) {
  ProofSettings s;
  int fewest = 3, most = 12;
  uint64_t count = 200, seed = 1;
  cli::Flags flags("bookgen");
  flags.text("--db", "FILE", s.dbPath, "the database", s.dbPath)
      .integer("--fewest", "N", fewest, 1, 60, "fewest stones of a position")
      .integer("--most", "N", most, 1, 60, "most stones of a position")
      .integer("--count", "N", count, 1, cli::kNoLimit, "positions written")
      .integer("--seed", "S", seed, 0, cli::kNoLimit, "seed of the draw");
  flags.parseOrExit(argc, argv, 0, std::string(kCommands) + "proven options:\n");
  if (fewest > most) return fail("proven: --fewest is more than --most");
  Database db;
  std::string error;
  if (!loadReported(s.dbPath, db, error)) return fail(error);
  const BookGraph graph = BookGraph::fromDatabase(db, s.grown.deep.key());
  std::vector<std::vector<std::vector<Cell>>> byStones(size_t(most) + 1);  // move lists
  for (const BookGraph::Node& n : graph.nodes()) {
    const int stones = popcount(n.key.mine | n.key.theirs);
    if (n.estimate.proof != Proof::Win || n.key.stealAvailable || stones < fewest || stones > most) continue;
    const bool firstToMove = stones % 2 == 0;  // placements alternate from player 0; no steal after 3 stones
    Board b;
    std::vector<Cell> moves;
    int tries = 0;
    if (movesTo(firstToMove ? n.key.mine : n.key.theirs, firstToMove ? n.key.theirs : n.key.mine, b, moves, tries))
      byStones[size_t(stones)].push_back(moves);
  }
  Rng rng(seed);
  std::vector<std::vector<Cell>> chosen;
  for (int left = most - fewest + 1, stones = fewest; stones <= most; ++stones, --left) {
    auto& pool = byStones[size_t(stones)];
    const size_t share = std::min(pool.size(), size_t((count - chosen.size() + uint64_t(left) - 1) / uint64_t(left)));
    for (size_t i = 0; i < share; ++i) {  // a partial Fisher-Yates draw
      std::swap(pool[i], pool[i + size_t(rng.below(pool.size() - i))]);
      chosen.push_back(pool[i]);
    }
  }
  std::cout << "# " << chosen.size() << " positions the book (" << s.dbPath << ") proves won for the player to move, "
            << fewest << "-" << most << " stones, seed " << seed << ": bookgen proven\n";
  for (const std::vector<Cell>& moves : chosen) {
    std::string line;
    for (Cell c : moves) line += (line.empty() ? "" : "; ") + cellName(c);
    std::cout << line << "\n";
  }
  if (chosen.size() < count) std::cerr << "bookgen: proven: only " << chosen.size() << " positions found\n";
  return 0;
}

// The proof frontier: for each first-move class (one stone, not stolen, the other player to move),
// its replies (one per symmetry class) that the book proves lost or won for the player making
// them, and the class's value for that player: a win once one reply wins, a loss once all lose.
int classesCommand(int argc, char** argv) {
  ProofSettings s;
  cli::Flags flags("bookgen");
  flags.text("--db", "FILE", s.dbPath, "the database", s.dbPath);
  flags.parseOrExit(argc, argv, 0, std::string(kCommands) + "classes options:\n");
  Database db;
  std::string error;
  if (!loadReported(s.dbPath, db, error)) return fail(error);
  const BookGraph graph = BookGraph::fromDatabase(db, s.grown.deep.key());
  std::cout << "first-move classes in " << s.dbPath << " (" << s.grown.deep.key() << "): the value for player 2, "
            << "who moves after the stone (not stolen), from the book's proofs of its replies\n"
            << "class  value  replies lost  won  open replies\n";
  int proven = 0;
  for (Cell stone : moveClasses(Board())) {
    Board b;
    b.play(stone);
    int replies = 0, lost = 0, won = 0;
    std::string open;
    for (Cell reply : moveClasses(b)) {
      if (reply == stone) continue;  // the steal
      Board after = b;
      after.play(reply);
      const Proof p = graphProof(graph, after);  // for player 1, to move after the reply
      ++replies, lost += p == Proof::Win, won += p == Proof::Loss;
      if (p != Proof::Win && p != Proof::Loss) open += (open.empty() ? "" : ", ") + cellName(reply);
    }
    const char* value = won ? "win" : lost == replies ? "loss" : "open";
    proven += won || lost == replies;
    char line[96];
    std::snprintf(line, sizeof line, "%-6s %-6s %2d of %-2d      %-4d ", cellName(stone).c_str(), value, lost, replies, won);
    std::cout << line << (open.empty() ? "-" : open) << "\n";
  }
  std::cout << proven << " of 9 classes proven\n";
  return 0;
}

int main(int argc, char** argv) {
  const std::string command = argc > 1 ? argv[1] : "";
  if (command == "run") return growCommand(argc - 2, argv + 2);
  if (command == "games") return gamesCommand(argc - 2, argv + 2);
  // The commands that take files by position: --help is a request for help, and any other option
  // an error (before, `stats --help` tried to open a file named --help).
  if (command == "merge" || command == "stats" || command == "drop-run" || command == "compact" || command == "migrate") {
    for (int i = 2; i < argc; ++i) {
      const std::string arg = argv[i];
      if (arg == "--help" || arg == "-h") {
        std::cout << kCommands << kFooter;
        return 0;
      }
      if (command != "stats" && arg.size() > 1 && arg[0] == '-')
        return fail(command + ": unknown option '" + arg + "' (it takes files and ids only; see bookgen --help)");
    }
  }
  if (command == "merge") return mergeCommand(argc - 2, argv + 2);
  if (command == "stats") return statsCommand(argc - 2, argv + 2);
  if (command == "drop-run") return dropRunCommand(argc - 2, argv + 2);
  if (command == "compact") return compactCommand(argc - 2, argv + 2);
  if (command == "migrate") return migrateCommand(argc - 2, argv + 2);
  if (command == "show") return showCommand(argc - 2, argv + 2);
  if (command == "html") return htmlCommand(argc - 2, argv + 2);
  if (command == "prove") return proveCommand(argc - 2, argv + 2);
  if (command == "certificate") return certificateCommand(argc - 2, argv + 2);
  if (command == "proven") return provenCommand(argc - 2, argv + 2);
  if (command == "classes") return classesCommand(argc - 2, argv + 2);
  if (command == "--help" || command == "-h") {
    std::cout << usage();
    return 0;
  }
  return fail(command.empty() ? "missing command" : "unknown command '" + command + "'");
}
