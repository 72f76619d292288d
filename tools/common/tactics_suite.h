// Tactical suite files (tools/tactics.cpp, tests/data/tactics_suite.txt): one position per line,
//   attack|defence STONES0 STONES1 TO_MOVE MOVE PLIES_TO_END
// STONES as 16 hexadecimal digits (bitboards of player 0 and 1), TO_MOVE 0 or 1, MOVE a cell index,
// PLIES_TO_END >= 1; '#' starts a comment line. attack: the winning move of the game; defence:
// the losing move that was played.
#pragma once

#include <algorithm>
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
#include "tools/common/cli.h"

namespace yav {

struct SuiteEntry {
  enum Kind { Attack, Defence } kind;
  Board board;
  Cell move;
  int pliesToEnd;
};

inline std::string formatSuiteEntry(const SuiteEntry& e) {
  return std::string(e.kind == SuiteEntry::Attack ? "attack" : "defence") + " " + cli::hexText(e.board.stones(0)) +
         " " + cli::hexText(e.board.stones(1)) + " " + std::to_string(e.board.toMove()) + " " + std::to_string(e.move) +
         " " + std::to_string(e.pliesToEnd);
}

// A suite's order: by kind, then plies to the end, then the line's text; each line once (games that
// repeat a line, as the same opening between deterministic bots does, give the same position).
inline void sortSuite(std::vector<SuiteEntry>& entries) {
  std::sort(entries.begin(), entries.end(), [](const SuiteEntry& a, const SuiteEntry& b) {
    if (a.kind != b.kind) return a.kind < b.kind;
    if (a.pliesToEnd != b.pliesToEnd) return a.pliesToEnd < b.pliesToEnd;
    return formatSuiteEntry(a) < formatSuiteEntry(b);
  });
  const auto same = [](const SuiteEntry& a, const SuiteEntry& b) { return formatSuiteEntry(a) == formatSuiteEntry(b); };
  entries.erase(std::unique(entries.begin(), entries.end(), same), entries.end());
}

// A bitboard written as 16 hexadecimal digits (as formatSuiteEntry writes it), nothing else.
inline bool parseHexStones(const std::string& text, uint64_t& out) {
  if (text.size() != 16 || text.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos) return false;
  out = std::stoull(text, nullptr, 16);
  return true;
}

// Whether a game can reach these stones with `toMove` to move, unfinished: the players' counts fit
// the side to move (player 2 has one stone more after a steal), no line of 3 or more is on the
// board, and a cell is empty. A changed digit of a suite line nearly always breaks one of them.
inline bool reachableUnfinished(Bitboard p0, Bitboard p1, int toMove) {
  const int n0 = popcount(p0), n1 = popcount(p1);
  const int lead = toMove == 0 ? n1 - n0 : n0 - n1;  // 0, or 1 after a steal (never before any stone)
  if (lead < 0 || lead > 1 || (toMove == 1 && n0 + n1 == 0) || ((p0 | p1) == kFullBoard)) return false;
  for (int p = 0; p < 2; ++p)  // a stone of a line of 3 or more: taken off, putting it back decides the game
    for (Bitboard left = p == 0 ? p0 : p1; left;) {
      const Cell c = popLowest(left);
      const Board without = Board::fromStones(p == 0 ? p0 & ~bit(c) : p0, p == 1 ? p1 & ~bit(c) : p1, p);
      const Outcome o = without.outcomeOf(c);
      if (o == Outcome::Win || o == Outcome::Loss) return false;
    }
  return true;
}

// Reads a suite; false with `error` naming `name` and the line. An empty suite is an error too, and
// so is a last line without its newline (the file was cut: its last number may have lost digits).
inline bool parseSuite(std::istream& in, const std::string& name, std::vector<SuiteEntry>& out, std::string& error) {
  out.clear();
  std::ostringstream whole;
  whole << in.rdbuf();
  const std::string text = whole.str();
  std::istringstream lines(text);
  bool ok = true;
  const int count = cli::forEachLine(lines, [&](const std::string& line, int number) {
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
              "' (expected attack|defence STONES0 STONES1 TO_MOVE MOVE PLIES, stones as 16 hexadecimal digits)";
      return ok = false;
    }
    if (!reachableUnfinished(p0, p1, int(side))) {
      error =
          name + ":" + std::to_string(number) + ": suite line '" + line +
          "' is no position of a game going on (stone counts against the side to move, a line of 3 or a full board)";
      return ok = false;
    }
    out.push_back({kind == "attack" ? SuiteEntry::Attack : SuiteEntry::Defence, Board::fromStones(p0, p1, int(side)),
                   Cell(cell), int(toEnd)});
    return true;
  });
  if (!ok) return false;
  if (!text.empty() && text.back() != '\n')
    return error = name + ":" + std::to_string(count) + ": the file ends inside this line (no newline): cut short?",
           false;
  if (out.empty()) return error = name + ": no position in its " + std::to_string(count) + " lines", false;
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
