// A book database as a file or a folder of segments (docs/database.md): where a segment lies in
// its folder, the folder's segments, and loadDatabase, which reads one file or every segment of a
// folder as one database (each file's format: db_file.h).
#pragma once

#include <algorithm>
#include <filesystem>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "tools/book/db_file.h"

namespace yav::book {

// A database folder holds its segments as NAME.seg (docs/database.md), at its top or in subfolders:
// a dated segment (NAME starts YYYYMMDD-) is written to FOLDER/YYYY-MM/DD/NAME.seg, so that a git
// commit of one new segment rewrites a tree of that day's few segments, not one listing them all.
// Anything else (a writer's FILE.seg.tmp.PID, notes) is not read.
constexpr const char* kSegmentSuffix = ".seg";
inline bool isDatabaseFolder(const std::string& path) {
  std::error_code ec;
  return std::filesystem::is_directory(path, ec);
}
// The subfolder a segment named `name` belongs in: "YYYY-MM/DD" for a dated name, "" (the folder's
// top) for any other (0-base.seg).
inline std::string segmentSubfolder(const std::string& name) {
  if (name.size() < 9 || name[8] != '-') return "";
  for (int i = 0; i < 8; ++i)
    if (name[i] < '0' || name[i] > '9') return "";
  return name.substr(0, 4) + "-" + name.substr(4, 2) + "/" + name.substr(6, 2);
}
// Where the segment named `name` lies in `folder`: FOLDER/YYYY-MM/DD/NAME, or FOLDER/NAME.
inline std::string segmentPathIn(const std::string& folder, const std::string& name) {
  const std::string sub = segmentSubfolder(name);
  return folder + "/" + (sub.empty() ? "" : sub + "/") + name;
}
inline bool isSegmentName(const std::string& name) {
  const size_t n = std::char_traits<char>::length(kSegmentSuffix);
  return name.size() > n && name.compare(name.size() - n, n, kSegmentSuffix) == 0;
}
// The segments of a folder and its subfolders, sorted by file name (the order they are read in:
// names start with the date), wherever each one lies: a folder half migrated to subfolders, or
// one that got flat segments from an older writer, reads as before.
inline bool listSegments(const std::string& folder, std::vector<std::string>& paths, std::string& error) {
  paths.clear();
  std::error_code ec;
  std::vector<std::pair<std::string, std::string>> found;  // (name, path)
  for (std::filesystem::recursive_directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (isSegmentName(name) && it->is_regular_file()) found.emplace_back(name, it->path().string());
  }
  if (ec) return error = folder + ": cannot list the segments (" + ec.message() + ")", false;
  std::sort(found.begin(), found.end());
  for (auto& [name, path] : found) paths.push_back(std::move(path));
  return true;
}

// One segment as loadDatabase read it: its size and searched positions, or why it was refused.
struct SegmentRead {
  std::string path;
  uint64_t bytes = 0;
  size_t searched = 0;
  std::string error;  // empty when it was read
};

// Loads a database: one file, or every segment of a folder, merged in name order (a verdict in two
// segments: the one with more proven moves, else the first one's). A damaged segment is refused
// with its file and byte offset: the load fails, unless `skipDamaged`, which reads the other
// segments (`bookgen stats`) and lists the refused one in `segments` with its error.
inline bool loadDatabase(const std::string& path, Database& db, std::string& error,
                         std::vector<SegmentRead>* segments = nullptr, bool skipDamaged = false) {
  if (!isDatabaseFolder(path)) {
    if (!loadDatabaseFile(path, db, error)) return false;
    if (segments)
      *segments = {{path, uint64_t(std::filesystem::file_size(path)), db.searchedPositions(), std::string()}};
    return true;
  }
  db = Database();
  std::vector<std::string> paths;
  if (!listSegments(path, paths, error)) return false;
  if (segments) segments->clear();
  for (const std::string& file : paths) {
    SegmentRead read;
    read.path = file;
    std::string bytes;
    Database part;
    const bool ok = readWholeFile(file, bytes, read.error) && deserializeDatabase(bytes, file, part, read.error);
    read.bytes = bytes.size();
    read.searched = part.searchedPositions();
    if (segments) segments->push_back(read);
    if (!ok && !skipDamaged) {
      db = Database();
      error = read.error;
      return false;
    }
    if (!ok) continue;
    if (db.runs().empty() && db.searchedPositions() == 0 && db.positions() == 0)
      db = std::move(part);
    else
      db.merge(part, false);  // proofs propagated once, below
  }
  db.propagateProofs();
  return true;
}

}  // namespace yav::book
