// Where a writer's results go (docs/database.md). A database folder grows by appending: each writer
// (bookgen run, prove, audit, merge) writes one new segment holding only what it adds to the
// segments it loaded, rewritten whole at each checkpoint (temporary file + rename), and never
// touches another segment. A single-file database is rewritten whole, as before folders existed.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "tools/book/database.h"
#include "tools/book/db_folder.h"
#include "tools/book/files.h"
#include "tools/common/cli.h"

namespace yav::book {

// What a database held when it was loaded: enough to tell what a writer added since.
struct DatabaseBaseline {
  std::unordered_map<uint64_t, uint64_t> runGames;  // run id -> its games
  Database::Map games;                              // the game statistics and their proofs
  std::map<std::string, std::unordered_map<PositionKey, size_t, PositionKeyHash>> verdicts;  // -> its proven moves

  explicit DatabaseBaseline(const Database& db = Database()) : games(db.map()) {
    for (const RunInfo& r : db.runs()) runGames[r.id] = r.games;
    for (const auto& [engine, entries] : db.verdicts()) {
      auto& keys = verdicts[engine];
      keys.reserve(entries.size());
      for (const auto& [key, v] : entries) keys.emplace(key, provenMoves(v));
    }
  }
};

// What `now` adds to `before`, as a database of its own: the runs that are new or grew (with all
// their counts: loading merges a run's copies by keeping the larger count, so a later copy
// replaces an earlier one), the verdicts `before` lacks or that now prove more moves (loading
// keeps the verdict with more proven moves) with the runs they name, and the move proofs found since. Read together
// with the segments `before` came from, it gives `now`.
inline Database databaseAdditions(const Database& now, const DatabaseBaseline& before) {
  Database out;
  std::vector<int64_t> index(now.runs().size(), -1);
  for (size_t i = 0; i < now.runs().size(); ++i) {
    const RunInfo& r = now.runs()[i];
    const auto it = before.runGames.find(r.id);
    if (it == before.runGames.end() || r.games > it->second) index[i] = out.addRun(r);
  }
  auto runOf = [&](uint32_t run) {
    if (index[run] < 0) index[run] = out.addRun(now.runs()[run]);
    return uint32_t(index[run]);
  };
  for (const auto& [key, stats] : now.map()) {
    const auto old = before.games.find(key);
    PositionStats added;
    for (const MoveStats& m : stats.moves) {
      const MoveStats* was = old == before.games.end() ? nullptr : old->second.find(m.move);
      MoveStats kept{m.move, was && was->proof == m.proof ? Proof::Unknown : m.proof, 0, 0, {}};
      for (const RunCount& r : m.runs)
        if (index[r.run] >= 0) kept.add(uint32_t(index[r.run]), r.games, r.halfPoints);
      if (!kept.runs.empty() || kept.proof != Proof::Unknown) added.moves.push_back(std::move(kept));
    }
    if (added.moves.empty()) continue;  // a position's own proof follows from its moves' (propagateProofs)
    added.proof = stats.proof;
    out.at(key) = std::move(added);
  }
  for (const auto& [engine, entries] : now.verdicts()) {
    const auto known = before.verdicts.find(engine);
    for (const auto& [key, v] : entries) {
      if (known != before.verdicts.end()) {
        const auto was = known->second.find(key);
        if (was != known->second.end() && was->second >= provenMoves(v)) continue;
      }
      DeepVerdict copy = v;
      if (v.run != kUnknownRun) copy.run = runOf(v.run);
      out.setVerdict(engine, key, std::move(copy));
    }
  }
  return out;
}

// Writes a segment at `path` (FOLDER[/YYYY-MM/DD]/NAME.seg), making its subfolders first; each one
// made is synced into its parent, so that a crash cannot lose the folder of a segment written.
inline bool writeSegment(const std::string& path, const std::string& bytes, std::string& error) {
  std::vector<std::string> made;
  for (std::string dir = directoryOf(path); !isDatabaseFolder(dir); dir = directoryOf(dir)) made.push_back(dir);
  std::error_code ec;
  if (!made.empty() && !std::filesystem::create_directories(made.front(), ec) && ec)
    return error = made.front() + ": cannot create (" + ec.message() + ")", false;
  for (const std::string& dir : made) {
    const int fd = ::open(directoryOf(dir).c_str(), O_RDONLY | O_DIRECTORY);
    if (fd >= 0) ::fsync(fd), ::close(fd);
  }
  return writeFileAtomically(path, bytes, error);
}

// Removes a segment of `folder`, then its subfolders that this leaves empty.
inline bool removeSegment(const std::string& folder, const std::string& path) {
  if (std::remove(path.c_str()) != 0) return false;
  for (std::string dir = directoryOf(path); dir.size() > folder.size() && ::rmdir(dir.c_str()) == 0;)
    dir = directoryOf(dir);
  return true;
}

// A database opened for writing: `load` reads it and remembers what it held; `snapshot` (under the
// caller's lock on the database) takes what a save writes, `write` writes it atomically unless a
// newer snapshot is already written: the whole
// database to a single file, or the additions to this writer's segment of a folder.
class DatabaseStore {
 public:
  explicit DatabaseStore(std::string path) : path_(std::move(path)), segmented_(isDatabaseFolder(path_)) {
    // Milliseconds too: segments are read in name order, so a writer's comes after every earlier one's.
    const auto now = std::chrono::system_clock::now();
    const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
    const long long ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
    char stamp[40];
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &utc);
    stamp_ = stamp;
    stamp_ += "." + std::to_string(1000 + ms).substr(1);
    name(freshRandom64());
  }

  const std::string& path() const { return path_; }
  bool segmented() const { return segmented_; }
  // This writer's segment (a folder only): FOLDER/YYYY-MM/DD/DATE-TIME.MS-ID.seg, named after the
  // run it holds, in the subfolder of its date (segmentPathIn).
  const std::string& segmentPath() const { return segment_; }
  void name(uint64_t id) { segment_ = segmentPathIn(path_, stamp_ + "-" + cli::hexText(id) + kSegmentSuffix); }

  // Reads the database (every segment of a folder) and remembers it as the baseline.
  bool load(Database& db, std::string& error, std::vector<SegmentRead>* segments = nullptr) {
    if (!loadDatabase(path_, db, error, segments)) return false;
    if (segmented_) baseline_ = std::make_shared<const DatabaseBaseline>(db);
    return true;
  }

  // What a save writes now: a copy of the database, or what it adds to the loaded segments,
  // numbered in the order the copies were taken (under the caller's lock on the database).
  struct Snapshot {
    std::unique_ptr<Database> db;
    uint64_t order = 0;
  };
  Snapshot snapshot(const Database& db) const {
    Snapshot s{segmented_
                   ? std::make_unique<Database>(databaseAdditions(db, baseline_ ? *baseline_ : DatabaseBaseline()))
                   : std::make_unique<Database>(db),
               ++taken_};
    return s;
  }
  // Writes a snapshot, one write at a time. Threads copy under the database's lock but encode and
  // write outside it, so an older copy may arrive after a newer one: it is dropped, never written
  // over the newer file. A folder's snapshot without positions or verdicts writes nothing (a run
  // that found nothing leaves no segment); `wrote` says whether a file was written.
  bool write(const Snapshot& snapshot, std::string& error, bool* wrote = nullptr) const {
    std::lock_guard<std::mutex> g(writing_);
    const bool empty = segmented_ && snapshot.db->positions() == 0 && snapshot.db->searchedPositions() == 0;
    const bool stale = snapshot.order <= written_;
    if (wrote) *wrote = !empty && !stale;
    if (empty || stale) return true;
    const std::string bytes = serializeDatabase(*snapshot.db);
    if (!(segmented_ ? writeSegment(segment_, bytes, error) : writeFileAtomically(path_, bytes, error))) return false;
    written_ = snapshot.order;
    return true;
  }
  bool save(const Database& db, std::string& error, bool* wrote = nullptr) const {
    return write(snapshot(db), error, wrote);
  }
  // Where saves go, for messages.
  const std::string& target() const { return segmented_ ? segment_ : path_; }

 private:
  std::string path_, stamp_, segment_;
  bool segmented_ = false;
  std::shared_ptr<const DatabaseBaseline> baseline_;
  mutable std::atomic<uint64_t> taken_{0};
  mutable std::mutex writing_;
  mutable uint64_t written_ = 0;  // the order of the snapshot on disk (under writing_)
};

}  // namespace yav::book
