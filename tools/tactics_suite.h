// Tactical suite files (tools/tactics.cpp, tests/data/tactics_suite.txt): one position per line,
//   attack|defence STONES0 STONES1 TO_MOVE MOVE PLIES_TO_END
// STONES as 16 hexadecimal digits (bitboards of player 0 and 1), TO_MOVE 0 or 1, MOVE a cell index,
// PLIES_TO_END >= 1; '#' starts a comment line. attack: the winning move of the game; defence:
// the losing move that was played.
#pragma once

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <istream>
#include <sstream>
#include <string>
#include <vector>

#include "board.h"
#include "tools/cli.h"

namespace yav {

struct SuiteEntry {
  enum Kind { Attack, Defence } kind;
  Board board;
  Cell move;
  int pliesToEnd;
};

inline std::string formatSuiteEntry(const SuiteEntry& e) {
  return std::string(e.kind == SuiteEntry::Attack ? "attack" : "defence") + " " + cli::hexText(e.board.stones(0)) + " " +
         cli::hexText(e.board.stones(1)) + " " + std::to_string(e.board.toMove()) + " " + std::to_string(e.move) + " " +
         std::to_string(e.pliesToEnd);
}

// A bitboard written as 1 to 16 hexadecimal digits, nothing else.
inline bool parseHexStones(const std::string& text, uint64_t& out) {
  if (text.empty() || text.size() > 16 || text.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
    return false;
  out = std::stoull(text, nullptr, 16);
  return true;
}

// Reads a suite; false with `error` naming `name` and the line. An empty suite is an error too.
inline bool parseSuite(std::istream& in, const std::string& name, std::vector<SuiteEntry>& out, std::string& error) {
  out.clear();
  bool ok = true;
  const int lines = cli::forEachLine(in, [&](const std::string& line, int number) {
    if (line.empty() || line[0] == '#') return true;
    std::istringstream ss(line);
    std::string kind, s0, s1, toMove, move, plies, extra;
    ss >> kind >> s0 >> s1 >> toMove >> move >> plies >> extra;
    uint64_t p0 = 0, p1 = 0, side = 0, cell = 0, toEnd = 0;
    const bool valid = (kind == "attack" || kind == "defence") && parseHexStones(s0, p0) && parseHexStones(s1, p1) &&
                       cli::toInteger(toMove, 0, 1, side) && cli::toInteger(move, 0, kCells - 1, cell) &&
                       cli::toInteger(plies, 1, 1000, toEnd) && extra.empty() && !(p0 & p1) &&
                       !((p0 | p1) & ~kFullBoard) && !((p0 | p1) >> cell & 1);
    if (!valid) {
      error = name + ":" + std::to_string(number) + ": malformed suite line '" + line +
              "' (expected attack|defence STONES0 STONES1 TO_MOVE MOVE PLIES)";
      return ok = false;
    }
    out.push_back({kind == "attack" ? SuiteEntry::Attack : SuiteEntry::Defence,
                   Board::fromStones(p0, p1, int(side)), Cell(cell), int(toEnd)});
    return true;
  });
  if (!ok) return false;
  if (out.empty()) return error = name + ": no position in its " + std::to_string(lines) + " lines", false;
  return true;
}

// Reads the suite at `path` for the tool named `tool`; exits (status 2) with the file name, and the
// line number of a malformed line, when it cannot.
inline std::vector<SuiteEntry> readSuite(const std::string& path, const char* tool) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "%s: cannot read %s: %s\n", tool, path.c_str(), std::strerror(errno));
    std::exit(2);
  }
  std::vector<SuiteEntry> out;
  std::string error;
  if (!parseSuite(in, path, out, error)) {
    std::fprintf(stderr, "%s: %s\n", tool, error.c_str());
    std::exit(2);
  }
  return out;
}

}  // namespace yav
