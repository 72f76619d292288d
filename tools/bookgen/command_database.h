// The commands that read and rewrite database files as a whole: merge, compact, migrate, drop-run
// (docs/database.md).
#pragma once

#include "tools/bookgen/commands.h"

namespace {  // one translation unit: tools/bookgen/bookgen.cpp

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
    if (!loadDatabase(argv[i], part, error)) {
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
  if (!loadDatabase(argv[0], db, error, &files)) {
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
  if (!writeSegment(store.segmentPath(), bytes, error)) {
    std::cerr << "bookgen: " << error << "\n";
    return 1;
  }
  uint64_t before = 0;
  for (const SegmentRead& f : files) {
    before += f.bytes;
    if (f.path != store.segmentPath() && !removeSegment(argv[0], f.path))
      std::cerr << "bookgen: " << f.path << ": cannot remove (" << std::strerror(errno) << "); it duplicates "
                << store.segmentPath() << " and may be removed by hand\n";
  }
  std::cerr << "compacted " << files.size() << " segments (" << before << " bytes) into " << store.segmentPath() << " ("
            << bytes.size() << " bytes): " << db.searchedPositions() << " searched positions, " << db.games()
            << " games\n";
  return 0;
}

// Moves a folder's dated segments that lie at its top (written before subfolders existed, or by an
// older writer) into their subfolders, YYYY-MM/DD (segmentPathIn): renamed, not rewritten (in
// git: renames, which write only trees). The database reads the same before and after.
int fileSegments(std::string folder) {
  while (folder.size() > 1 && folder.back() == '/') folder.pop_back();
  FileLock lock;
  if (!lockFolder("migrate", folder, lock)) return 1;
  std::vector<std::string> files;
  std::string error;
  if (!listSegments(folder, files, error)) return std::cerr << "bookgen: " << error << "\n", 1;
  size_t moved = 0;
  for (const std::string& path : files) {
    const std::string to = segmentPathIn(folder, std::filesystem::path(path).filename().string());
    if (directoryOf(path) != folder || to == path) continue;  // in a subfolder already, or undated (0-base.seg)
    std::error_code ec;
    std::filesystem::create_directories(directoryOf(to), ec);
    if (ec || std::rename(path.c_str(), to.c_str()) != 0)
      return std::cerr << "bookgen: " << path << ": cannot move to " << to << " ("
                       << (ec ? ec.message() : std::string(std::strerror(errno))) << ")\n",
             1;
    ++moved;
  }
  std::cerr << folder << ": " << moved << " of " << files.size()
            << " segments moved into their YYYY-MM/DD subfolders\n";
  return 0;
}

// A one-file database becomes a folder holding that file as its first segment, renamed, not
// rewritten (in git: a rename). FILE is first renamed to FILE.migrating/, so that an interrupted
// migration is finished by running it again. A folder has its top-level dated segments moved into
// their subfolders (fileSegments).
int migrateCommand(int argc, char** argv) {
  if (argc != 1) return fail("migrate expects one database FILE or FOLDER");
  const std::string file = argv[0], moving = file + ".migrating";
  if (isDatabaseFolder(file) && !isDatabaseFolder(moving)) return fileSegments(file);
  FileLock lock;
  std::string error;
  if (!lock.acquire(file, error)) {
    std::cerr << "bookgen: " << error << "\n";
    return 1;
  }
  Database db;
  if (!isDatabaseFolder(moving)) {
    if (!loadDatabaseFile(file, db, error)) {
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
    return std::cerr << "bookgen: " << moving << ": cannot rename to " << file << " (" << std::strerror(errno) << ")\n",
           1;
  std::cerr << file << " is now a database folder: " << file << "/0-base" << kSegmentSuffix
            << " holds what the file held; each later writer adds a segment of its own\n";
  return 0;
}

// Leaves out one run's verdicts and games (found with `bookgen stats --runs`), e.g. one grown by a broken
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
    if (empty ? !removeSegment(argv[0], file) : !saveDatabase(file, part, error)) {
      std::cerr << "bookgen: " << (empty ? file + ": cannot remove (" + std::strerror(errno) + ")" : error) << "\n";
      return 1;
    }
    std::cerr << (empty ? "removed " : "rewrote ") << file << "\n";
  }
  std::cerr << "dropped run " << argv[1] << " (" << before - db.games() << " games, "
            << searchedBefore - db.searchedPositions() << " searched positions) from " << argv[0] << "\n";
  return 0;
}

}  // namespace
