// What every bookgen command shares: the usage text, errors, loading a database, and recording a
// run (its id, seed and settings) with Ctrl-C handling. Included only by tools/bookgen.cpp, whose
// commands live in tools/bookgen/, one file per group of commands.
#pragma once

#include <unistd.h>

#include <atomic>
#include <ctime>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "tools/book/database.h"
#include "tools/book/db_folder.h"
#include "tools/book/db_store.h"
#include "tools/book/engine.h"
#include "tools/book/files.h"
#include "tools/cli.h"
#include "tools/stop_signal.h"

namespace {  // one translation unit: tools/bookgen.cpp

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
    "       bookgen migrate FOLDER        moves the folder's top-level dated segments into YYYY-MM/DD/ subfolders\n"
    "       bookgen show  [options]       the moves of a position with values, bounds, proofs; shipped and re-pack moves\n"
    "       bookgen html  [options]       writes one HTML page to click through the book from the empty board\n"
    "       bookgen prove [options]       proof-number searches of a position's replies; settled ones become verdicts\n"
    "       bookgen audit [options]       every shipped book move held to a small proof search; what it proves is recorded\n"
    "       bookgen state FILE [--max-mb N] [--out FILE]  checks a prove --state file; with --max-mb, bounds it\n"
    "       bookgen certificate [options] writes a checkable proof of a position (docs/proofs.md)\n"
    "       bookgen proven [options]      positions the book proves won for the player to move, as arena openings\n"
    "       bookgen classes [--db FILE]   the 9 first-move classes: each one's replies proven lost, won and open\n"
    "       bookgen open --moves M        the moves of a position that the book proves for neither side, one a line\n";
const char* const kFooter =
    "A database is one file or a folder of segment files read as one (docs/database.md); in a folder each\n"
    "writer adds a segment of its own. Only one process writes a database at a time (lock FILE.lock); each\n"
    "run gets a random id, and its seed, settings, engine version and date are recorded (bookgen stats --runs).\n";

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

// Whether a run adds self-play games to the database (bookgen games) or only verdicts (run, prove, audit).
enum class RunKind { Games, Verdicts };

// Records this invocation as a run (id, seed, engine, settings, date) and installs the stop signals.
void beginRun(Database& db, DatabaseStore& store, RunKind kind, bool seedGiven, uint64_t seed, const std::string& parameters) {
  // Games of another engine or budget mix into the same statistics: say so (bookgen drop-run
  // leaves a run out). Runs that add no games say nothing: their verdicts are kept per budget anyway.
  auto budget = [](const std::string& p) {
    const size_t at = p.find("iterations=");
    return at == std::string::npos ? std::string() : p.substr(at, p.find(' ', at) - at);
  };
  for (const RunInfo& r : db.runs())
    if (r.games > 0 && kind == RunKind::Games && (r.engine != kBookEngineVersion || budget(r.parameters) != budget(parameters)))
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

}  // namespace
