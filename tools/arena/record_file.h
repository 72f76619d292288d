// A record file read back (`arena --resume`): the set-up header of its first line and the games
// after it. A game line that cannot be read is skipped with a warning naming the file and line;
// a file whose first line is not a header is refused (written by an older arena, or not a record).
#pragma once

#include <istream>
#include <string>
#include <vector>

#include "tools/arena/record.h"
#include "tools/arena/setup.h"

namespace yav::arena {

struct RecordFile {
  bool hasHeader = false;  // false: an empty file (a new record)
  SetUp setUp;
  std::string version, date;  // of the arena that wrote it
  std::vector<GameRecord> games;
  std::vector<std::string> warnings;  // "FILE:LINE: why (line skipped)"
};

inline bool readRecordFile(std::istream& in, const std::string& name, RecordFile& out, std::string& error) {
  out = RecordFile();
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.empty()) continue;
    if (!out.hasHeader) {
      if (!headerFromJson(line, out.setUp, out.version, out.date))
        return error = name + ":" + std::to_string(number) +
                       ": the record has no set-up header (written by an older arena, or not a record?); start a new "
                       "record file",
               false;
      out.hasHeader = true;
      continue;
    }
    if (isRecordHeader(line)) continue;
    GameRecord r;
    std::string why;
    if (!recordFromJson(line, r, why)) {
      out.warnings.push_back(name + ":" + std::to_string(number) + ": " + why + " (line skipped)");
      continue;
    }
    out.games.push_back(r);
  }
  return true;
}

}  // namespace yav::arena
