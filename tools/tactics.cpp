// Tactical suites: positions from self-play games where a long search proves the result, and how
// often a search at CodinGame time gets them right.
//
//   tactics build --games N --out FILE [--iterations N] [--prove-iterations N] [--seed S] [--jobs J] [--resume]
//   tactics build --records FILE [--loser NAME [--lost-pairs]] --out FILE [--prove-iterations N] [--jobs J] [--resume]
//       Plays N self-play games (search without the forcing solver, the kind of play that walks
//       into traps) from random 2-ply openings, or takes the games of an arena record (with
//       --loser, only those NAME lost: a suite of the traps one bot walked into against another;
//       with --lost-pairs, only from the pairs of games NAME scored at most 0.5 of 2 in, where
//       the random opening did not decide the result),
//       then walks each game back from its end with a long "prover" search (MCTS-Solver with the
//       forcing solver), never into the random opening nor the first two plies:
//       - attack: the earliest position where the winner, to move, is proven to win;
//       - defence: the earliest move of the loser after which the position is proven lost, taken
//         only when the position before it is not proven lost (provenLostBeforeTheMove: a safe
//         move may exist).
//       Ctrl-C (SIGINT or SIGTERM) lets the games begun finish and writes what they found, with
//       the count of games done in the file's first line; --resume plays the rest. (A run stopped
//       so reports the positions judged so far.)
//   tactics run --suite FILE [--time-ms MS] [--config CONFIG] [--prove-iterations N] [--book] [--list]
//   tactics run --suite FILE --bot COMMAND [--prove-iterations N] [--list]
//       For each position a fresh search with MS per move (75 = the bot's later turns), or with
//       --book the embedded book's move where it has one, or with --bot the answer of a program
//       that speaks the CodinGame protocol (a fresh process per position, sent the position as a
//       later turn an opponent's turn after a warm-up first turn, under CodinGame's limits; its
//       own flags set its time and book), so that any build, the shipped file as CodinGame
//       compiles it included, can be judged (a program that cannot play a first turn stops the
//       run at once, as in the arena):
//       - attack: solved when the move keeps the win (the prover proves the reply position lost
//         for the opponent); reports the share and the median time until the search's root was
//         proven (positions solved without a proof count at the full time);
//       - defence: avoided when the move differs from the losing move and is not proven lost;
//         positions the prover proves lost (no defence exists) are left out and counted, whatever
//         the search under test played; with --db, so are those a book database proves lost.
//       With --db a move into a position the book database proves is judged by that proof (a
//       win the database proves keeps the win; a loss it proves walks in), as the prover's
//       search may not see as deep.
// The prover is the offline analysis search (MCTS-Solver, forcing and exact endgame solvers) with
// the endgame solver's reach raised so that it settles nearly every root of up to 30 empty cells.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include "clock.h"
#include "book/embedded_book.h"
#include "book_turn.h"
#include "opening_book.h"
#include "search.h"
#include "tools/common/cli.h"
#include "tools/arena/record_file.h"
#include "tools/arena/referee.h"
#include "tools/arena/stats.h"
#include "tools/book/db_folder.h"
#include "tools/book/graph.h"
#include "tools/book/grow.h"
#include "tools/common/progress.h"
#include "tools/common/search_config.h"
#include "tools/common/stop_signal.h"
#include "tools/common/tactics_suite.h"

using namespace yav;

namespace {

constexpr size_t kNodes = size_t(4) << 20;

// The prover: the offline analysis search, whose exact endgame solver settles a root of up to 30
// empty cells with 75 nodes for each prover iteration (30,000,000 at the default 400,000: about
// 3 s at most; a quick prover for tests gets a quick solve). With the analysis default (24 cells,
// 100,000 nodes) it left a lost endgame of the suite (18 empty cells, about 270,000 nodes)
// unproven; with 24 cells and 30,000,000 nodes, 33 defence positions of tactics_suite_600.txt
// of 26-31 empty cells, lost before the move. Each such position counted as avoidable when no
// defence existed.
SearchOptions proverOptions(uint64_t proveIterations) {
  SearchOptions o = SearchOptions::deepAnalysis();
  o.endgameRootEmpties = 30;
  o.endgameRootNodes = proveIterations > UINT32_MAX / 75 ? UINT32_MAX : uint32_t(75 * proveIterations);
  return o;
}

// The long search that decides what is proven.
SearchResult proverSearch(Search& prover, const Board& b, uint64_t iterations) {
  prover.reset();
  SearchLimits l;
  l.iterations = iterations;
  l.seed = 12345;
  return prover.run(b, l);
}
Proof prove(Search& prover, const Board& b, uint64_t iterations) { return proverSearch(prover, b, iterations).proof; }

// Whether every move of b loses: the prover proves b lost, or proves lost on its own the position
// after each root move its search of b left unproven. A root search can leave a lost position
// unproven when one move's refutation lies deeper than its share of the iterations; the position
// after that move, searched alone, is then proven. Tried most-visited first: an early position
// usually has a move that is not proven lost, and the check ends there after one more search.
bool provenLostBeforeTheMove(Search& prover, const Board& b, uint64_t iterations) {
  SearchResult root = proverSearch(prover, b, iterations);
  if (root.proof == Proof::Loss) return true;
  if (root.proof == Proof::Win || root.children.empty()) return false;
  std::sort(root.children.begin(), root.children.end(),
            [](const RootMove& x, const RootMove& y) { return x.visits > y.visits; });
  for (const RootMove& m : root.children) {
    if (m.proof == Proof::Loss) continue;
    Board after = b;
    if (after.play(m.move) != Outcome::None || prove(prover, after, iterations) != Proof::Win) return false;
  }
  return true;
}

// The positions a book database (bookgen) proves won or lost for the side to move: its deep
// searches, minimaxed over the book's graph, prove results deeper than one prover search finds.
// Seven of the suite's defence positions, three stones each, are such: every move loses in the
// book, while the prover leaves a move open. Without a database (--db) the graph is empty and
// proves nothing.
class BookProofs {
 public:
  bool load(const std::string& path, std::string& error) {
    book::Database db;
    if (!book::loadDatabase(path, db, error)) return false;
    graph_ = book::BookGraph::fromDatabase(db, book::GrowOptions().deep.key());
    return true;
  }
  bool provesLost(const Board& b) const { return proof(b) == Proof::Loss; }
  bool provesWon(const Board& b) const { return proof(b) == Proof::Win; }
  size_t positions() const { return graph_.nodes().size(); }

 private:
  // The graph's proof for the side to move in b; Unknown when b is not in it.
  Proof proof(const Board& b) const {
    const book::BookGraph::Node* node = graph_.find(canonicalize(b).key);
    return node ? node->estimate.proof : Proof::Unknown;
  }
  book::BookGraph graph_;
};

// A random opening of two plies (no steal, no 3), then self-play to the end. Returns the moves.
std::vector<Cell> selfPlay(Search& s, uint64_t iterations, uint64_t seed) {
  Rng rng(seed);
  Board b;
  std::vector<Cell> moves;
  for (int i = 0; i < 2; ++i) {
    const Cell c = randomCell(b.empty() & ~b.losingCells(b.toMove()), rng);
    b.play(c);
    moves.push_back(c);
  }
  s.reset();
  for (int ply = 2;; ++ply) {
    SearchLimits l;
    l.iterations = iterations;
    l.seed = seed * 977 + uint64_t(ply);
    const Cell c = s.run(b, l).move;
    moves.push_back(c);
    if (b.play(c) != Outcome::None) return moves;
  }
}

// Positions of one game for the suites (see the file comment); moves before `firstPly` (the
// random opening) are not harvested. A game not decided by a line on the board (a draw, or one
// lost by a bad or late answer) gives nothing.
void harvest(const std::vector<Cell>& moves, int firstPly, Search& prover, uint64_t proveIterations,
             const BookProofs& bookProofs, std::vector<SuiteEntry>& out) {
  std::vector<Board> before;  // before[k]: the position before move k
  Board b;
  Outcome last = Outcome::None;
  for (Cell c : moves) before.push_back(b), last = b.play(c);
  const int n = int(moves.size());
  if (last == Outcome::Draw || last == Outcome::None) return;
  firstPly = std::max(firstPly, 2);  // a suite move is a placement, never the steal
  const int lastMover = before[n - 1].toMove();
  const int winner = last == Outcome::Win ? lastMover : lastMover ^ 1;
  // Attack: walk back over the winner's turns while its position stays proven won.
  int earliestWin = -1;
  for (int k = n - 1; k >= firstPly; --k) {
    if (before[k].toMove() != winner) continue;
    if (prove(prover, before[k], proveIterations) != Proof::Win) break;
    earliestWin = k;
  }
  if (earliestWin >= 0 && n - earliestWin > 1)  // skip wins in one: every search finds them
    out.push_back({SuiteEntry::Attack, before[earliestWin], moves[earliestWin], n - earliestWin});
  // Defence: the loser's earliest move after which its position is proven lost.
  int earliestLoss = -1;
  for (int k = n - 1; k >= firstPly; --k) {
    if (before[k].toMove() == winner) continue;
    Board after = before[k];
    if (after.play(moves[k]) != Outcome::None) continue;
    if (prove(prover, after, proveIterations) != Proof::Win) break;
    earliestLoss = k;
  }
  if (earliestLoss >= 0 && n - earliestLoss > 2 && !bookProofs.provesLost(before[earliestLoss]) &&
      !provenLostBeforeTheMove(prover, before[earliestLoss], proveIterations))
    out.push_back({SuiteEntry::Defence, before[earliestLoss], moves[earliestLoss], n - earliestLoss});
}

const char* const kUsage =
    "usage: tactics build --games N --out FILE [--iterations N] [--prove-iterations N] [--seed S] [--jobs J] "
    "[--resume]\n"
    "       tactics build --records FILE [--loser NAME [--lost-pairs]] --out FILE [--prove-iterations N] [--jobs J]\n"
    "                     [--resume]\n"
    "       tactics run --suite FILE [--time-ms MS] [--config CONFIG] [--prove-iterations N]\n"
    "                   [--jobs J] [--book] [--db FILE] [--list]\n"
    "       tactics run --suite FILE --bot COMMAND [--prove-iterations N] [--jobs J] [--db FILE] [--list]\n";

struct Options {
  std::string command;  // build or run
  uint64_t games = 50, iterations = 20000, proveIterations = 400000, seed = 1, jobs = 1;
  double timeMs = 75;
  std::string out, suite, config, records, loser, db, bot;
  SearchConfig tested;
  bool list = false;
  bool book = false;
  bool lostPairs = false;
  bool resume = false;
};

Options parseOptions(int argc, char** argv) {
  Options o;
  cli::Flags flags("tactics");
  flags.integer("--games", "N", o.games, 1, cli::kNoLimit, "self-play games to harvest (build without --records)")
      .text("--records", "FILE", o.records,
            "build from the games of an arena record (arena --record) instead of self-play", "none: self-play")
      .text("--loser", "NAME", o.loser, "with --records: only the games the bot of that name lost",
            "every decided game")
      .option("--lost-pairs", o.lostPairs,
              "with --loser: only from the pairs of games (the same opening, colours swapped) the bot scored at "
              "most 0.5 of 2 in; a pair split 1-1 was decided by its random opening")
      .text("--out", "FILE", o.out, "suite file written (build)", "none, needed by build")
      .option("--resume", o.resume,
              "continue the build that a signal (Ctrl-C) stopped, in --out, with the same options: its "
              "finished games are kept and the rest are played")
      .integer("--iterations", "N", o.iterations, 1, cli::kNoLimit, "iterations per self-play move (build)")
      .integer("--prove-iterations", "N", o.proveIterations, 1, cli::kNoLimit,
               "iterations of the prover search (its exact solve of a root of up to 30 empty cells gets 75 nodes an "
               "iteration)")
      .integer("--seed", "S", o.seed, 0, cli::kNoLimit, "first game's seed (build)")
      .text("--suite", "FILE", o.suite, "suite to run (run)", "none, needed by run")
      .number("--time-ms", "MS", o.timeMs, 1, cli::kNoMax, "time per position (run)", "75, the bot's later turns")
      .value("--config", "CONFIG", "search under test (run), as search_match's keys (e.g. noforcing), listed below",
             "the bot's",
             [&o](const std::string& v) {
               o.config = v;
               std::string error;
               parseSearchConfig(v, o.tested, error);
               return error;
             })
      .integer("--jobs", "J", o.jobs, 1, 1024, "threads (timings need a quiet machine: use 1 per core)")
      .option("--book", o.book,
              "play the embedded book's move where it has one, as the bot does (run): the suite then "
              "measures the bot as shipped, not its search alone")
      .text("--db", "FILE", o.db,
            "a book database (bookgen): a defence position its book proves lost is left out (run) or "
            "not harvested (build), as the prover's are; a move into a position it proves is judged by "
            "that proof (run)",
            "none")
      .text("--bot", "COMMAND", o.bot,
            "judge the answers of a program speaking the CodinGame protocol instead of this build's search (run): "
            "a fresh process per position plays a warm-up first turn, then, an opponent's turn (100 ms) later, "
            "gets the position as a later turn (100 ms; an answer after 150 ms is none, as in the arena); its "
            "own flags set its time and book (the bot as shipped: no flags; its search alone: --no-book). A "
            "program that cannot play a first turn of the empty board stops the run, with its stderr shown",
            "none: this build's search")
      .option("--list", o.list, "one line per position with the move played and the verdict (run)");
  const std::vector<std::string> positional =
      flags.parseOrExit(argc, argv, 1, kUsage, 1, "CONFIG keys:\n" + searchConfigKeys());
  if (positional.size() != 1 || (positional[0] != "build" && positional[0] != "run"))
    flags.fail("expected one command, build or run");
  o.command = positional[0];
  if (o.command == "build" && o.out.empty()) flags.fail("build needs --out FILE");
  if (!o.loser.empty() && o.records.empty()) flags.fail("--loser needs --records FILE");
  if (o.resume && o.command != "build") flags.fail("--resume goes with build only");
  if (o.lostPairs && o.loser.empty()) flags.fail("--lost-pairs needs --loser NAME");
  if (o.command == "run" && o.suite.empty()) flags.fail("run needs --suite FILE");
  if (!o.bot.empty() && (o.command != "run" || o.book || !o.config.empty()))
    flags.fail(
        "--bot goes with run only, without --book and --config: the program's own flags choose its book and search");
  return o;
}

// Set by SIGINT and SIGTERM (stopOnSignals). Not arena::stopRequested, which would cut short the
// answers of a --bot program still being asked.
std::atomic<bool> stopRequested{false};

// `work(i)` for i in [first, count) on `jobs` threads, with the progress on stderr. After SIGINT or
// SIGTERM no new item starts and the ones begun finish. Returns the end of the items done: they
// are always the prefix [first, end).
template <class Work>
uint64_t forEachInParallel(uint64_t first, uint64_t count, uint64_t jobs, const char* unit, Work&& work) {
  std::atomic<uint64_t> next{first}, done{first};
  Progress progress(unit, long(count));
  auto worker = [&] {
    for (uint64_t i; !stopRequested && (i = next++) < count;) {
      work(i);
      progress.update(long(++done));
    }
  };
  std::vector<std::thread> threads;
  for (uint64_t j = 0; j < jobs; ++j) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
  return std::min(next.load(), count);
}

// A recorded game to harvest: its moves and the plies of its random opening.
struct RecordedGame {
  std::vector<Cell> moves;
  int openingPlies = 0;
};

// The decided games of an arena record (with `loser`, those that bot lost; with `lostPairs` too,
// only in pairs where it scored at most 0.5 points of 2); exits (status 2) with the file's name
// when it cannot be read or is not a record.
std::vector<RecordedGame> readRecordedGames(const std::string& path, const std::string& loser, bool lostPairs) {
  std::ifstream in(path);
  arena::RecordFile file;
  std::string error;
  if (!in)
    error = "cannot read " + path + ": " + std::strerror(errno);
  else if (arena::readRecordFile(in, path, file, error) && !file.hasHeader)
    error = path + ": empty record";
  if (!error.empty()) {
    std::fprintf(stderr, "tactics: %s\n", error.c_str());
    std::exit(2);
  }
  for (const std::string& w : file.warnings) std::fprintf(stderr, "tactics: %s\n", w.c_str());
  std::vector<RecordedGame> games;
  bool loserSeen = false;
  std::map<std::pair<int, int>, uint32_t> pairHalfPoints;  // (pairing, pair): the loser bot's half-points
  std::map<std::pair<int, int>, int> pairGames;
  for (const arena::GameRecord& r : file.games) {
    loserSeen |= r.nameA == loser || r.nameB == loser;
    if (r.result.reason == arena::Reason::Aborted || (r.nameA != loser && r.nameB != loser)) continue;
    const std::pair<int, int> key{r.pairing, r.pair};
    const int seat = r.nameA == loser ? r.seatOfA : r.seatOfA ^ 1;
    pairHalfPoints[key] += halfPoints(r.result.winnerSeat < 0 ? kDrawResult : r.result.winnerSeat, seat);
    ++pairGames[key];
  }
  for (const arena::GameRecord& r : file.games) {
    if (r.result.winnerSeat < 0) continue;  // a draw or an aborted game
    const std::pair<int, int> key{r.pairing, r.pair};
    if (lostPairs && (pairGames[key] != 2 || pairHalfPoints[key] > 1)) continue;
    const int loserSeat = r.result.winnerSeat ^ 1;
    if (!loser.empty() && (loserSeat == r.seatOfA ? r.nameA : r.nameB) != loser) continue;
    RecordedGame g;
    for (const arena::MoveRecord& m : r.result.moves) g.moves.push_back(m.cell);
    g.openingPlies = r.result.openingPlies;
    games.push_back(g);
  }
  if (!loser.empty() && !loserSeen) {
    std::fprintf(stderr, "tactics: no bot named '%s' in %s\n", loser.c_str(), path.c_str());
    std::exit(2);
  }
  return games;
}

// The proofs of --db, when given; false after reporting a database that cannot be read.
bool loadBookProofs(const Options& o, BookProofs& proofs) {
  if (o.db.empty()) return true;
  std::string error;
  if (!proofs.load(o.db, error)) {
    std::fprintf(stderr, "tactics: %s\n", error.c_str());
    return false;
  }
  std::fprintf(stderr, "tactics: %zu searched positions of %s\n", proofs.positions(), o.db.c_str());
  return true;
}

// The header line of a suite built with these options; an interrupted build adds how many games
// are done ("interrupted: D of N games done"), which --resume reads back.
std::string buildHeader(const Options& o, uint64_t games) {
  std::string h = "# kind stones0(hex) stones1(hex) toMove move(cell) pliesToEnd — tools/tactics.cpp build, ";
  if (o.records.empty())
    h += std::to_string(o.games) + " games at " + std::to_string(o.iterations) + " iterations";
  else
    h += std::to_string(games) + (games == 1 ? " game of " : " games of ") + o.records +
         (o.loser.empty() ? "" : " lost by " + o.loser) +
         (o.lostPairs ? " in pairs it scored at most 0.5 of 2 in" : "");
  return h + ", prover " + std::to_string(o.proveIterations) + " iterations" +
         (o.records.empty() ? ", seed " + std::to_string(o.seed) : "");
}
constexpr const char* kInterrupted = "; interrupted: ";

// --resume: the games done and the positions found by the interrupted build in o.out, made with
// the same options; exits (status 2) saying why when the file is not such a build.
uint64_t readInterruptedBuild(const Options& o, uint64_t games, std::vector<SuiteEntry>& entries) {
  std::ifstream in(o.out);
  std::string header, error;
  uint64_t done = 0;
  if (!in || !std::getline(in, header)) {
    error = "cannot read " + o.out + (in ? ": empty file" : std::string(": ") + std::strerror(errno));
  } else {
    const std::string complete = buildHeader(o, games), expected = complete + kInterrupted;
    unsigned long long d = 0, n = 0;
    int matched = -1;  // characters read through "done", -1 when the text stops short of it
    if (header == complete)
      error = o.out + ": its build is complete, nothing to resume";
    else if (header.compare(0, expected.size(), expected) != 0)
      error = o.out + ": not an interrupted build with these options (its first line: '" + header + "', expected '" +
              expected + "D of N games done')";
    else if (std::sscanf(header.c_str() + expected.size(), "%llu of %llu games done%n", &d, &n, &matched) != 2 ||
             matched < 0 || n != games || d > games)
      error = o.out + ": unreadable count of games done in its first line '" + header + "'";
    else
      done = d;
  }
  if (error.empty()) {
    in.clear();
    in.seekg(0);
    if (!parseSuite(in, o.out, entries, error) && error.find("no position") != std::string::npos)
      error.clear(), entries.clear();  // its finished games found no position yet
  }
  if (!error.empty()) {
    std::fprintf(stderr, "tactics: %s\n", error.c_str());
    std::exit(2);
  }
  return done;
}

// tactics build: self-play games, or the games of an arena record, harvested into a suite file.
int buildSuite(const Options& o) {
  BookProofs bookProofs;
  if (!loadBookProofs(o, bookProofs)) return 1;
  std::mutex mutex;
  std::vector<SuiteEntry> entries;
  SearchOptions playing;
  playing.forcing = false;
  const std::vector<RecordedGame> recorded =
      o.records.empty() ? std::vector<RecordedGame>() : readRecordedGames(o.records, o.loser, o.lostPairs);
  const uint64_t games = o.records.empty() ? o.games : recorded.size();
  const uint64_t resumedAt = o.resume ? readInterruptedBuild(o, games, entries) : 0;
  if (o.resume)
    std::fprintf(stderr, "tactics: resuming %s: %llu of %llu games done, %zu positions\n", o.out.c_str(),
                 (unsigned long long)resumedAt, (unsigned long long)games, entries.size());
  stopOnSignals(stopRequested);
  const uint64_t done = forEachInParallel(resumedAt, games, o.jobs, "games", [&](uint64_t g) {
    thread_local Search player(kNodes, playing), prover(kNodes, proverOptions(o.proveIterations));  // one per thread
    std::vector<SuiteEntry> found;
    if (o.records.empty())
      harvest(selfPlay(player, o.iterations, o.seed + g), 2, prover, o.proveIterations, bookProofs, found);
    else
      harvest(recorded[g].moves, recorded[g].openingPlies, prover, o.proveIterations, bookProofs, found);
    std::lock_guard<std::mutex> lock(mutex);
    entries.insert(entries.end(), found.begin(), found.end());
  });
  sortSuite(entries);
  // Written whole to a temporary file, then renamed: an interrupted write never loses what --out held.
  const bool interrupted = done < games;
  const std::string temporary = o.out + ".tmp";
  std::ofstream file(temporary);
  file << buildHeader(o, games);
  if (interrupted) file << kInterrupted << done << " of " << games << " games done";
  file << "\n";
  for (const SuiteEntry& e : entries) file << formatSuiteEntry(e) << "\n";
  file.close();
  if (!file || std::rename(temporary.c_str(), o.out.c_str()) != 0) {
    std::fprintf(stderr, "tactics: cannot write %s: %s\n", o.out.c_str(), std::strerror(errno));
    return 1;
  }
  std::printf("wrote %zu positions to %s\n", entries.size(), o.out.c_str());
  if (!interrupted) return 0;
  std::fprintf(stderr,
               "tactics: stopped by a signal after %llu of %llu games; every finished game is saved; resume "
               "with the same command and --resume\n",
               (unsigned long long)done, (unsigned long long)games);
  return kInterruptedStatus;
}

struct EntryResult {
  bool ok = false;
  double ms = 0;
  bool unavoidable = false;
  bool lostInBook = false;    // unavoidable by the book database's proof (--db)
  bool judgedByBook = false;  // the verdict is the book database's proof of the position after the move (--db)
  Cell played = kNoCell;
  bool fromBook = false;
  std::string noAnswer;  // --bot: why the program gave no legal move (then the position counts as failed)
  double answerMs = 0;   // --bot: from sending the position to its answer
};

// --bot: CodinGame's limits (docs/codingame-rules.md) with the arena's default grace: an answer
// later than limit x grace is none; one later than the limit counts as slow.
constexpr arena::Limits kBotLimits{};

// --bot: starts the program and plays its warm-up first turn as `seat` (the empty board, or one
// opponent stone for the second player); false with `why` when it did not start or gave no legal
// first move (its process then stopped). The program's stderr goes where `bot` was told.
bool startWarmedUp(arena::ProcessPlayer& bot, int seat, double& ms, std::string& why) {
  std::string error;
  if (!bot.start(error)) {
    why = "could not start: " + error;
    return false;
  }
  Board warmUp;
  if (seat == 1) warmUp.play(0);
  const arena::Reply first =
      bot.ask(formatTurn(warmUp, seat, seat == 1 ? Cell(0) : kNoCell, true), kBotLimits.firstTurnMs * kBotLimits.grace);
  std::string message;
  const arena::JudgedReply warmUpMove =
      arena::judgeReply(first, warmUp, kBotLimits.firstTurnMs, kBotLimits.grace, message);
  if (warmUpMove.cell != kNoCell) return true;
  bot.stop();
  ms = first.ms;
  why = "warm-up first turn: " + warmUpMove.problem;
  return false;
}

// --bot: the program's move in b, kNoCell with `why` when it gave none (it did not start, crashed,
// timed out, or answered badly or illegally). A fresh process first plays a warm-up first turn,
// so that b comes as a later turn, as a position of a game does: the program's start, its book's
// decoding and its long first turn are behind it, an opponent's turn has passed since its answer,
// and it has its later-turn time.
Cell askBot(const std::string& command, const Board& b, double& ms, std::string& why) {
  arena::ProcessPlayer bot(command, -1);
  const int seat = b.toMove();
  if (!startWarmedUp(bot, seat, ms, why)) return kNoCell;
  // The opponent's turn. In a game the program's work after an answer (a pondering bot tidies its
  // tree then) overlaps the opponent's thinking; asked at once, the judged turn would pay for it.
  std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(kBotLimits.turnMs));
  // The opponent's last move must be one of its stones on the grid; any one will do.
  const Bitboard theirs = b.stones(seat ^ 1);
  const arena::Reply reply =
      bot.ask(formatTurn(b, seat, theirs ? lowestCell(theirs) : kNoCell, false), kBotLimits.turnMs * kBotLimits.grace);
  bot.stop();
  ms = reply.ms;
  std::string message;
  const arena::JudgedReply judged = arena::judgeReply(reply, b, kBotLimits.turnMs, kBotLimits.grace, message);
  if (judged.cell == kNoCell)
    why = judged.reason == arena::Reason::Illegal ? "illegal move '" + arena::shortened(reply.line) + "'"
                                                  : judged.problem;
  return judged.cell;
}

// One suite position searched at the time under test, judged by the prover (see the file comment).
// With a book (--book), a position the book holds is answered as the bot does: a search of a share
// of the time checks the book's move (book_turn.h), which is played unless the search proved the
// position won or the move lost. A book move has no proof, so an attack solved that way counts at
// the full time.
EntryResult judge(const SuiteEntry& e, uint64_t index, const Options& o, const OpeningBook* book,
                  const BookProofs& bookProofs, Search& player, Search& prover) {
  SearchResult r;
  std::string noAnswer;
  double answerMs = 0;
  std::optional<Cell> bookMove = book ? book->lookup(e.board) : std::nullopt;
  auto search = [&](double ms) {
    player.reset();
    SearchLimits l;
    l.timeMs = ms;
    l.seed = 99 + index;
    return player.run(e.board, l);
  };
  if (!o.bot.empty()) {
    r.move = askBot(o.bot, e.board, answerMs, noAnswer);
  } else if (bookMove) {
    const SearchResult check = search(o.timeMs * kBookCheckShare);
    if (checkedBookMove(*bookMove, check) == *bookMove)
      r.move = *bookMove;
    else
      r = check, bookMove.reset();  // overruled: the search's answer
  } else {
    r = search(o.timeMs);
  }
  Board after = e.board;
  const yav::Outcome outcome = r.move == kNoCell ? yav::Outcome::None : after.play(r.move);
  // A defence position the book database or the prover proves lost has no defence: it is left
  // out, whatever move the search under test chose (the same positions for every configuration).
  // The database is asked first: a position it proves lost needs no prover search at all.
  const bool lostInBook = e.kind == SuiteEntry::Defence && bookProofs.provesLost(e.board);
  const bool unavoidable =
      lostInBook || (e.kind == SuiteEntry::Defence && provenLostBeforeTheMove(prover, e.board, o.proveIterations));
  // A position after the move that the book database proves (--db) needs no prover: its proofs
  // reach deeper than one prover search, as for the positions left out above.
  const bool judgedByBook = !unavoidable && outcome == yav::Outcome::None && r.move != kNoCell &&
                            (e.kind == SuiteEntry::Attack ? bookProofs.provesLost(after) : bookProofs.provesWon(after));
  bool ok;
  if (r.move == kNoCell || unavoidable)
    ok = false;  // a position left out is not counted, so its move needs no verdict
  else if (judgedByBook)
    ok = e.kind == SuiteEntry::Attack;
  else if (e.kind == SuiteEntry::Attack)
    ok = outcome == yav::Outcome::Win ||
         (outcome == yav::Outcome::None && prove(prover, after, o.proveIterations) == Proof::Loss);
  else
    ok = r.move != e.move && outcome == yav::Outcome::None && prove(prover, after, o.proveIterations) != Proof::Win;
  return {ok,
          r.proof == Proof::Win ? r.elapsedMs : o.timeMs,
          unavoidable,
          lostInBook,
          judgedByBook,
          r.move,
          bookMove.has_value(),
          noAnswer,
          answerMs};
}

std::string oneDecimal(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", v);
  return text;
}

void printSuiteResults(const std::vector<SuiteEntry>& entries, const std::vector<EntryResult>& results,
                       const Options& o) {
  for (size_t i = 0; o.list && i < entries.size(); ++i) {
    const SuiteEntry& e = entries[i];
    const EntryResult& r = results[i];
    const std::string verdict = r.lostInBook    ? "left out (lost before the move, by the book database)"
                                : r.unavoidable ? "left out (lost before the move)"
                                : !r.noAnswer.empty()
                                    ? (e.kind == SuiteEntry::Attack ? "missed: " : "walked in: ") + r.noAnswer
                                : e.kind == SuiteEntry::Attack ? (r.ok ? "solved" : "missed")
                                                               : (r.ok ? "avoided" : "walked in");
    const std::string why = r.judgedByBook ? " (by the book database)" : "";
    std::printf(
        "%3zu  %s  (suite move %s, played %s%s%s): %s\n", i + 1, formatSuiteEntry(e).c_str(), cellName(e.move).c_str(),
        r.played == kNoCell ? "nothing" : cellName(r.played).c_str(), r.fromBook ? " from the book" : "",
        o.bot.empty() ? "" : (", answered in " + oneDecimal(r.answerMs) + " ms").c_str(), (verdict + why).c_str());
  }
  for (int kind = 0; kind < 2; ++kind) {
    int total = 0, ok = 0, unavoidable = 0, lostInBook = 0, slow = 0;
    std::vector<double> times;
    for (size_t i = 0; i < entries.size(); ++i) {
      if (entries[i].kind != kind) continue;
      if (results[i].unavoidable) {
        ++unavoidable, lostInBook += results[i].lostInBook;
        continue;
      }
      ++total, ok += results[i].ok;
      if (!o.bot.empty()) {  // a program's proofs are not known: its answer times instead
        times.push_back(results[i].answerMs);
        slow += results[i].answerMs > kBotLimits.turnMs;
      } else if (kind == SuiteEntry::Attack)
        times.push_back(results[i].ms);
    }
    if (!total && !unavoidable) continue;
    std::printf("%-8s %3d/%3d", kind == SuiteEntry::Attack ? "attack" : "defence", ok, total);
    if (total) {  // with every position left out there is no share to give
      const arena::ScoreInterval interval = arena::wilsonInterval(double(ok) / total, total);
      std::printf(" = %5.1f%% [%.1f%%, %.1f%%]", 100.0 * ok / total, 100 * interval.low, 100 * interval.high);
    }
    if (!times.empty()) {
      std::sort(times.begin(), times.end());
      if (o.bot.empty())
        std::printf("  median time to proof %.1f ms", times[times.size() / 2]);
      else
        std::printf("  median answer %.1f ms, slowest %.1f ms, %d over %.0f ms", times[times.size() / 2], times.back(),
                    slow, kBotLimits.turnMs);
    }
    if (unavoidable && lostInBook)
      std::printf("  (%d left out: proven lost, %d of them by the book database)", unavoidable, lostInBook);
    else if (unavoidable)
      std::printf("  (%d left out: the prover proves them lost)", unavoidable);
    if (!o.bot.empty())
      std::printf("   (bot '%s')\n", o.bot.c_str());
    else
      std::printf("   (config '%s', %.0f ms per move%s)\n", o.config.c_str(), o.timeMs,
                  o.book ? ", book moves first" : "");
  }
}

// tactics run: every position of the suite, with the progress and the shares found.
int runSuite(const Options& o) {
  std::vector<SuiteEntry> entries = readSuite(o.suite, "tactics");
  OpeningBook book;
  std::string error;
  if (o.book && !book.load(kEmbeddedBook, error)) {
    std::fprintf(stderr, "tactics: the embedded book does not decode: %s\n", error.c_str());
    return 1;
  }
  BookProofs bookProofs;
  if (!loadBookProofs(o, bookProofs)) return 1;
  // Fail fast, as the arena does: a program that cannot play a first turn (a wrong command, a
  // missing library, a bad flag) would fail every position, a meaningless score. Its stderr shows.
  if (!o.bot.empty()) {
    const int errFd = arena::unnamedTemporaryFile();
    arena::ProcessPlayer bot(o.bot, errFd);
    double ms = 0;
    std::string why;
    const bool played = startWarmedUp(bot, 0, ms, why);
    bot.stop();
    if (!played)
      std::fprintf(stderr,
                   "tactics: the bot '%s' failed on a first turn of the empty board: %s\n--- its stderr ---\n%s--- end "
                   "of stderr ---\n",
                   o.bot.c_str(), why.c_str(), errFd >= 0 ? arena::fileStart(errFd).c_str() : "");
    if (errFd >= 0) close(errFd);
    if (!played) return 1;
  }
  std::vector<EntryResult> results(entries.size());
  stopOnSignals(stopRequested);
  const size_t done = forEachInParallel(0, entries.size(), o.jobs, "positions", [&](uint64_t i) {
    thread_local Search player(kNodes, o.tested.options), prover(kNodes, proverOptions(o.proveIterations));
    results[i] = judge(entries[i], i, o, o.book ? &book : nullptr, bookProofs, player, prover);
  });
  if (done == entries.size()) {
    printSuiteResults(entries, results, o);
    return 0;
  }
  // Stopped by a signal: the positions judged so far, a prefix of the suite.
  const size_t total = entries.size();
  entries.resize(done);
  results.resize(done);
  if (done) printSuiteResults(entries, results, o);
  std::printf("stopped by a signal after %zu of %zu positions: the shares are of those\n", done, total);
  return kInterruptedStatus;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parseOptions(argc, argv);
  return o.command == "build" ? buildSuite(o) : runSuite(o);
}
