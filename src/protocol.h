// The CodinGame Yavalath protocol, both directions: reading one turn's input into a position and
// writing the answer line (the bot's side); writing one turn's input (the referee's side: the arena
// and the tests). See docs/codingame-rules.md.
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
  int myId = 0;             // 1: moves first (player 0), 2: moves second (player 1)
  Board board;              // the position, with this bot to move
  Cell lastMove = kNoCell;  // kNoCell on the first move of the game
  bool firstTurn = false;   // this bot's own first turn (1000 ms)
  bool stealAvailable = false;
  bool opponentStole = false;       // the opponent just took this bot's first stone
  std::vector<std::string> errors;  // malformed input, described; the turn is still usable
};

class ProtocolReader {
 public:
  explicit ProtocolReader(std::istream& in) : in_(in) {}

  // Reads one turn. Returns false at end of input (or when no grid could be read at all);
  // problems that still leave a usable position are listed in `turn.errors`.
  bool read(TurnInput& turn) {
    turn = TurnInput();
    const bool first = turnsRead_ == 0;
    if (!readHeader(turn, first)) return false;

    Bitboard mine = 0, theirs = 0;
    std::string line;
    for (int y = 0; y < kRows; ++y) {
      if (!nextLine(line)) {
        addError(turn, "input ended inside the grid at row " + std::to_string(y));
        return false;
      }
      std::string row;  // the row's characters without any whitespace
      for (char ch : line)
        if (!std::isspace(static_cast<unsigned char>(ch))) row += ch;
      if (row.size() != trim(line).size())
        addError(turn, "row " + std::to_string(y) + ": expected digits without separators, got '" + line + "'");
      if (int(row.size()) != rowLength(y))
        addError(turn, "row " + std::to_string(y) + ": expected " + std::to_string(rowLength(y)) +
                           " digits 0/1/2, got '" + row + "'");
      for (int x = 0; x < rowLength(y) && x < int(row.size()); ++x) {
        if (row[x] == '1')
          mine |= bit(cellAt(x, y));
        else if (row[x] == '2')
          theirs |= bit(cellAt(x, y));
        else if (row[x] != '0')
          addError(turn, "row " + std::to_string(y) + ": expected a digit 0/1/2, got '" + row.substr(x, 1) +
                             "' (read as empty)");
      }
    }

    bool saidNoMove = false;  // the line really was '-1 -1' (not unreadable, not off the board)
    if (!nextLine(line)) {
      addError(turn, "input ended before the last-move line 'x y'");
    } else {
      int ox = 0, oy = 0;
      if (!parseTwoInts(line, ox, oy) || !(onBoardXY(ox, oy) || (ox == -1 && oy == -1)))
        addError(turn, "expected the last move 'x y' on the board or '-1 -1', got '" + line + "'");
      else if (ox >= 0)
        turn.lastMove = cellAt(ox, oy);
      else
        saidNoMove = true;
    }

    if (myId_ == 0) {  // no id line on the first turn: equal stone counts mean we move first
      myId_ = popcount(mine) == popcount(theirs) ? 1 : 2;
      addError(turn, "no id line before the first grid; assuming id " + std::to_string(myId_) +
                         " from the stones on the board");
    }
    const int me = myId_ - 1;
    turn.myId = myId_;
    turn.firstTurn = first;
    turn.board = me == 0 ? Board::fromStones(mine, theirs, 0) : Board::fromStones(theirs, mine, 1);
    turn.stealAvailable = turn.board.canSteal();
    turn.opponentStole = me == 0 && !first && mine == 0 && popcount(theirs) == 1;
    checkConsistency(turn, mine, theirs, saidNoMove);
    ++turnsRead_;
    return true;
  }

 private:
  // The optional id line and the row count `9`. Lines that are neither are reported and skipped;
  // a grid row where the count was expected is reported and read as the first row.
  bool readHeader(TurnInput& turn, bool first) {
    const std::string expected = first ? "the id 1/2 or the row count 9" : "the row count 9";
    std::string line;
    bool sawId = false;
    for (;;) {
      if (!nextLine(line)) {
        if (sawId || !turn.errors.empty()) addError(turn, "input ended before the grid");
        return false;
      }
      int value = 0;
      if (looksLikeRow(line)) {
        addError(turn, "expected " + std::string(sawId ? "the row count 9" : expected) +
                           " before the grid, got the row '" + line + "' (reading it as row 0)");
        pushBack(line);
        return true;
      }
      if (parseInt(line, value)) {
        if (value == 9) return true;
        if ((value == 1 || value == 2) && !sawId) {
          if (!first) addError(turn, "id line '" + line + "' after the first turn (using it)");
          myId_ = value;
          sawId = true;
          continue;
        }
      }
      addError(turn,
               "expected " + std::string(sawId ? "the row count 9" : expected) + ", got '" + line + "' (skipped)");
    }
  }

  // Facts every real game satisfies; a mismatch means the input or the id is wrong. Before our
  // move the opponent has as many stones as we have, or one more (we move second, or our first
  // stone was stolen); the last move is an opponent stone; '-1 -1' only comes with an empty grid.
  // (A first turn may show stones: arenas start games from openings.)
  void checkConsistency(TurnInput& turn, Bitboard mine, Bitboard theirs, bool saidNoMove) {
    const int ours = popcount(mine), others = popcount(theirs);
    if (others != ours && others != ours + 1)
      addError(turn, "stone counts do not fit a game: " + std::to_string(ours) + " of ours (1), " +
                         std::to_string(others) + " of the opponent's (2); expected equal or one more of 2");
    if (turn.lastMove != kNoCell && !(theirs >> turn.lastMove & 1))
      addError(turn, "the last move " + cellName(turn.lastMove) + " is not an opponent stone (2) on the grid");
    if (saidNoMove && (mine | theirs) != 0) addError(turn, "last move '-1 -1' although the grid is not empty");
  }

  static bool looksLikeRow(const std::string& line) {
    const std::string t = trim(line);
    if (t.size() < 5) return false;
    for (char ch : t)
      if (ch != '0' && ch != '1' && ch != '2' && !std::isspace(static_cast<unsigned char>(ch))) return false;
    return true;
  }
  void pushBack(const std::string& line) {
    pending_ = line;
    hasPending_ = true;
  }
  // Errors name the input line they were found on (stdin's line number).
  void addError(TurnInput& turn, const std::string& text) const {
    turn.errors.push_back("input line " + std::to_string(lineNumber_) + ": " + text);
  }
  bool nextLine(std::string& line) {
    if (hasPending_) {
      hasPending_ = false;
      line = pending_;
      return true;
    }
    while (std::getline(in_, line)) {
      ++lineNumber_;
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
  std::string pending_;
  bool hasPending_ = false;
  int lineNumber_ = 0;  // of the last line read
  int myId_ = 0;
  int turnsRead_ = 0;
};

// The answer line: "x y", or "x y message" for the replay viewer. The message is cleaned so that
// it cannot break the line (printable ASCII, at most 6 lines of 16 characters).
inline std::string formatMove(Cell c, const std::string& message = "") {
  if (c < 0 || c >= kCells) return "-1 -1";  // no move: well-formed, and the referee rejects it
  std::string out = std::to_string(geometry().x[c]) + " " + std::to_string(geometry().y[c]);
  std::string clean;
  for (char ch : message)
    if (ch >= 33 && ch <= 126 && clean.size() < 6 * 16)
      clean += ch;
    else if (std::isspace(static_cast<unsigned char>(ch)) && !clean.empty() && clean.back() != ' ' &&
             clean.size() < 6 * 16)
      clean += ' ';  // any run of whitespace becomes one space
  while (!clean.empty() && clean.back() == ' ') clean.pop_back();
  if (!clean.empty()) out += " " + clean;
  return out;
}

// One turn's input for `seat` (0 moves first = CodinGame id 1), as the referee writes it: the id
// line on the seat's first turn, `9`, the nine rows from its point of view, and the last move.
inline std::string formatTurn(const Board& board, int seat, Cell lastMove, bool withId) {
  std::string s;
  if (withId) s += std::to_string(seat + 1) + "\n";
  s += std::to_string(kRows) + "\n";
  const Bitboard mine = board.stones(seat), theirs = board.stones(seat ^ 1);
  for (int y = 0; y < kRows; ++y) {
    for (int x = 0; x < rowLength(y); ++x) {
      const Bitboard b = bit(cellAt(x, y));
      s += (mine & b) ? '1' : (theirs & b) ? '2' : '0';
    }
    s += '\n';
  }
  s += lastMove == kNoCell ? std::string("-1 -1") : cellName(lastMove);
  s += '\n';
  return s;
}

// A move for logs and tables: "x y", marked when it takes the opponent's first stone.
inline std::string moveName(const Board& b, Cell move) {
  return cellName(move) + (b.canSteal() && move == b.stealCell() ? " (steal)" : "");
}

}  // namespace yav
