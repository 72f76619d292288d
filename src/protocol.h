// The CodinGame Yavalath protocol: reading one turn's input into a position and formatting the
// answer line. See ../shared/docs/codingame-yavalath.md.
//
// Input per turn: [myId on the bot's first turn] `9`, nine rows of digits (0 empty, 1 mine,
// 2 opponent's), then `ox oy` (`-1 -1` on the very first move of the game). The grid is
// authoritative; the reader rebuilds the position from it every turn.
#pragma once

#include <cctype>
#include <istream>
#include <string>
#include <vector>

#include "board.h"

namespace yav {

struct TurnInput {
  int myId = 0;              // 1: moves first (player 0), 2: moves second (player 1)
  Board board;               // the position, with this bot to move
  Cell lastMove = kNoCell;   // kNoCell on the first move of the game
  bool firstTurn = false;    // this bot's own first turn (1000 ms)
  bool stealAvailable = false;
  bool opponentStole = false;  // the opponent just took this bot's first stone
  std::vector<std::string> errors;  // malformed input, described; the turn is still usable
};

class ProtocolReader {
 public:
  explicit ProtocolReader(std::istream& in) : in_(in) {}

  // Reads one turn. Returns false at end of input (or when no grid could be read at all);
  // problems that still leave a usable position are listed in `turn.errors`.
  bool read(TurnInput& turn) {
    turn = TurnInput();
    std::string line;
    if (!nextLine(line)) return false;
    const bool first = turnsRead_ == 0;
    int value = 0;
    if (!parseInt(line, value)) {
      turn.errors.push_back("expected the row count 9" + std::string(first ? " or an id 1/2" : "") +
                            ", got '" + line + "'");
    } else if (value != 9) {
      if (value == 1 || value == 2) {
        if (!first) turn.errors.push_back("id line '" + line + "' after the first turn");
        myId_ = value;
      } else {
        turn.errors.push_back("expected the row count 9 or an id 1/2, got '" + line + "'");
      }
      if (!nextLine(line)) return false;
      if (!parseInt(line, value) || value != 9)
        turn.errors.push_back("expected the row count 9, got '" + line + "'");
    }

    Bitboard mine = 0, theirs = 0;
    for (int y = 0; y < kRows; ++y) {
      if (!nextLine(line)) {
        turn.errors.push_back("input ended inside the grid at row " + std::to_string(y));
        return false;
      }
      std::string row = trim(line);
      if (int(row.size()) != rowLength(y))
        turn.errors.push_back("row " + std::to_string(y) + ": expected " + std::to_string(rowLength(y)) +
                              " digits, got '" + row + "'");
      for (int x = 0; x < rowLength(y) && x < int(row.size()); ++x) {
        if (row[x] == '1') mine |= bit(cellAt(x, y));
        else if (row[x] == '2') theirs |= bit(cellAt(x, y));
        else if (row[x] != '0')
          turn.errors.push_back("row " + std::to_string(y) + ": unexpected character '" + row.substr(x, 1) + "'");
      }
    }

    if (!nextLine(line)) {
      turn.errors.push_back("input ended before the last-move line");
    } else {
      int ox = 0, oy = 0;
      if (!parseTwoInts(line, ox, oy) || !(onBoardXY(ox, oy) || (ox == -1 && oy == -1)))
        turn.errors.push_back("expected the last move 'x y' or '-1 -1', got '" + line + "'");
      else if (ox >= 0)
        turn.lastMove = cellAt(ox, oy);
    }

    if (myId_ == 0) {  // no id line was ever sent: an empty grid means we move first
      myId_ = (mine | theirs) == 0 ? 1 : first ? 2 : 1;
      turn.errors.push_back("no id line; assuming id " + std::to_string(myId_));
    }
    const int me = myId_ - 1;
    turn.myId = myId_;
    turn.firstTurn = first;
    turn.board = me == 0 ? Board::fromStones(mine, theirs, 0) : Board::fromStones(theirs, mine, 1);
    turn.stealAvailable = turn.board.canSteal();
    turn.opponentStole = me == 0 && !first && mine == 0 && popcount(theirs) == 1;
    ++turnsRead_;
    return true;
  }

 private:
  bool nextLine(std::string& line) {
    while (std::getline(in_, line)) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (!trim(line).empty()) return true;
    }
    return false;
  }
  static std::string trim(const std::string& s) {
    size_t b = 0, e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
    return s.substr(b, e - b);
  }
  static bool parseInts(const std::string& s, int* out, int count) {
    size_t i = 0;
    for (int k = 0; k < count; ++k) {
      while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
      size_t start = i;
      if (i < s.size() && s[i] == '-') ++i;
      size_t digits = i;
      while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])) && i - digits < 6) ++i;
      if (i == digits) return false;
      out[k] = std::stoi(s.substr(start, i - start));
    }
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    return i == s.size();
  }
  static bool parseInt(const std::string& s, int& v) { return parseInts(s, &v, 1); }
  static bool parseTwoInts(const std::string& s, int& x, int& y) {
    int v[2];
    if (!parseInts(s, v, 2)) return false;
    x = v[0], y = v[1];
    return true;
  }

  std::istream& in_;
  int myId_ = 0;
  int turnsRead_ = 0;
};

// The answer line: "x y", or "x y message" for the replay viewer. The message is cleaned so that
// it cannot break the line (printable ASCII, at most 6 lines of 16 characters).
inline std::string formatMove(Cell c, const std::string& message = "") {
  std::string out = std::to_string(geometry().x[c]) + " " + std::to_string(geometry().y[c]);
  std::string clean;
  for (char ch : message)
    if (ch >= 33 && ch <= 126 && clean.size() < 6 * 16) clean += ch;
    else if (ch == ' ' && !clean.empty() && clean.back() != ' ' && clean.size() < 6 * 16) clean += ch;
  while (!clean.empty() && clean.back() == ' ') clean.pop_back();
  if (!clean.empty()) out += " " + clean;
  return out;
}

}  // namespace yav
