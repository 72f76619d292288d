// What every bookgen command shares: the usage text (the list of commands), errors, opening a
// database for writing, and recording a run (its id, seed and settings) with Ctrl-C handling.
// Included only by tools/bookgen/bookgen.cpp, whose commands live beside this file, one
// command_GROUP.h per group of commands.
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
#include "tools/common/cli.h"
#include "tools/common/stop_signal.h"

namespace {  // one translation unit: tools/bookgen/bookgen.cpp

using namespace yav;
using namespace yav::book;

const char* const kCommands =
    "usage: bookgen run   [options]        grows the book: deep searches of the positions that matter most (resumed)\n"
    "       bookgen merge OUT IN [IN...]  adds to OUT what each IN holds that OUT lacks (a folder OUT: in one new "
    "segment)\n"
    "       bookgen stats [FILE] [--top N] [--runs]  totals, positions and proofs by depth, first moves, answers\n"
    "                                     to each first move (--runs: then the runs grouped by settings, and every "
    "run)\n"
    "       bookgen drop-run FILE ID      leaves out one run's verdicts and games (ids as stats --runs prints them)\n"
    "       bookgen compact FOLDER        rewrites a database folder's segments as one segment\n"
    "       bookgen migrate FILE          turns a one-file database into a folder FILE/ of segments (not rewritten)\n"
    "       bookgen migrate FOLDER        moves the folder's top-level dated segments into YYYY-MM/DD/ subfolders\n"
    "       bookgen show  [options]       the moves of a position with values, bounds, proofs; shipped and re-pack "
    "moves\n"
    "       bookgen html  [options]       writes one HTML page to click through the book from the empty board\n"
    "       bookgen prove [options]       proof-number searches of a position's replies; settled ones become verdicts\n"
    "       bookgen audit [options]       every shipped book move held to a small proof search; what it proves is "
    "recorded\n"
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
  if (!store.load(db, error, &files)) {
    std::cerr << "bookgen: " << error << "\n(refusing to write on top of it; move it away or repair it)\n";
    return false;
  }
  std::cerr << "resuming " << path << (store.segmented() ? " (" + std::to_string(files.size()) + " segments)" : "")
            << ": " << db.games() << " games in " << db.runs().size() << " runs, " << db.positions()
            << " positions with games\n";
  return true;
}

// Records this invocation as a run (id, seed, engine, settings, date) and installs the stop signals.
void beginRun(Database& db, DatabaseStore& store, bool seedGiven, uint64_t seed, const std::string& parameters) {
  RunInfo info;
  info.seed = seedGiven ? seed : freshRandom64() ^ (uint64_t(::getpid()) << 40);
  info.startedUnix = int64_t(std::time(nullptr));
  info.engine = kBookEngineVersion;
  info.parameters = parameters;
  db.beginRun(info);
  store.name(db.currentRun().id);
  if (store.segmented()) std::cerr << "this run's segment: " << store.segmentPath() << "\n";
  std::cerr << "run " << cli::hexText(db.currentRun().id) << ", seed " << db.currentRun().seed << ", "
            << info.parameters << "\n";
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
