// viewer: shows games recorded by the arena (`--record FILE`) move by move as an ASCII hex board,
// and renders a position or a whole game to SVG. See docs/arena.md.
//   viewer RECORDS [--game N] [--ply K] [--svg OUT]
//   viewer --moves '4 4; 3 2' [--svg OUT]
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "tools/arena/record.h"

using namespace yav;
using namespace yav::arena;

namespace {

const char* const kUsage = R"(usage: viewer RECORDS [--game N] [--ply K] [--svg OUT]
       viewer --moves 'x y; x y; ...' [--ply K] [--svg OUT]
Prints a game recorded by the arena move by move as an ASCII hex board (X moves first, O second,
the last move in brackets). RECORDS is a file of JSON lines written by 'arena --record'.
  --game N     the game with number N (default: the first in the file)
  --ply K      only the position after K plies (0 = empty board)
  --svg OUT    write an SVG instead: the position after --ply K, or without --ply the whole game
               (final position, every stone numbered by the ply that placed it)
  --list       one line per game in RECORDS: number, seats, result, reason, length
)";

[[noreturn]] void usageError(const std::string& message) {
  std::cerr << "viewer: " << message << "\n(run 'viewer --help' for the options)\n";
  std::exit(2);
}

// Stones and who placed them (ply number, 1-based) after the first `plies` moves.
struct Position {
  Board board;
  int placedAt[kCells] = {};
  Cell lastMove = kNoCell;
};
Position positionAfter(const std::vector<MoveRecord>& moves, size_t plies) {
  Position p;
  for (size_t i = 0; i < plies && i < moves.size(); ++i) {
    p.board.play(moves[i].cell);
    p.placedAt[moves[i].cell] = int(i + 1);
    p.lastMove = moves[i].cell;
  }
  return p;
}

std::string asciiBoard(const Position& p) {
  std::ostringstream o;
  for (int y = 0; y < kRows; ++y) {
    o << "y=" << y << " " << std::string(size_t(std::abs(y - 4)) + 1, ' ');
    for (int x = 0; x < rowLength(y); ++x) {
      const Cell c = cellAt(x, y);
      const char stone = (p.board.stones(0) & bit(c)) ? 'X' : (p.board.stones(1) & bit(c)) ? 'O' : '.';
      const bool last = c == p.lastMove;
      o << (last ? '[' : (x && cellAt(x - 1, y) == p.lastMove) ? ']' : ' ') << stone;
    }
    o << (cellAt(rowLength(y) - 1, y) == p.lastMove ? "]" : "") << "\n";
  }
  return o.str();
}

std::string seatName(const GameRecord& r, int seat) {
  const char bot = (seat == r.seatOfA) ? 'A' : 'B';
  return std::string(seat == 0 ? "X" : "O") + " (" + bot + ")";
}

std::string resultLine(const GameRecord& r) {
  std::string s = "result: ";
  if (r.result.reason == Reason::Aborted) s += "aborted";
  else if (r.result.winnerSeat < 0) s += "draw";
  else s += seatName(r, r.result.winnerSeat) + " wins";
  s += " (" + std::string(reasonName(r.result.reason)) + ")";
  if (!r.result.detail.empty()) s += ": " + r.result.detail;
  if (!r.result.finalAnswer.empty()) s += " [answer: '" + r.result.finalAnswer + "']";
  return s;
}

// ---- SVG ----------------------------------------------------------------------------------

constexpr double kRadius = 24, kMargin = 20;
const double kHexWidth = std::sqrt(3.0) * kRadius;

void cellCenter(Cell c, double& cx, double& cy) {
  const int x = geometry().x[c], y = geometry().y[c];
  cx = kMargin + kHexWidth / 2 + (x + std::abs(y - 4) / 2.0) * kHexWidth;
  cy = kMargin + kRadius + y * 1.5 * kRadius;
}

std::string svgBoard(const Position& p, bool numbered, const std::string& title, const std::string& caption) {
  const double width = 2 * kMargin + 9 * kHexWidth, height = 2 * kMargin + kRadius * (2 + 8 * 1.5) + 40;
  std::ostringstream o;
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
                "font-family=\"sans-serif\">\n",
                width, height, width, height);
  o << buf << "<title>" << title << "</title>\n<rect width=\"100%\" height=\"100%\" fill=\"#f4ecd8\"/>\n";
  for (Cell c = 0; c < kCells; ++c) {
    double cx, cy;
    cellCenter(c, cx, cy);
    o << "<polygon points=\"";
    for (int k = 0; k < 6; ++k) {
      const double angle = M_PI / 180 * (60 * k - 30);
      std::snprintf(buf, sizeof buf, "%s%.1f,%.1f", k ? " " : "", cx + kRadius * std::cos(angle), cy + kRadius * std::sin(angle));
      o << buf;
    }
    o << "\" fill=\"#e0c68f\" stroke=\"#6b5b3e\" stroke-width=\"1\"/>\n";
    const bool first = p.board.stones(0) & bit(c), second = p.board.stones(1) & bit(c);
    if (first || second) {
      std::snprintf(buf, sizeof buf, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\" stroke=\"%s\" stroke-width=\"%s\"/>\n",
                    cx, cy, kRadius * 0.72, first ? "#202020" : "#fafafa", c == p.lastMove ? "#d02020" : "#404040",
                    c == p.lastMove ? "3" : "1");
      o << buf;
      if (numbered && p.placedAt[c]) {
        std::snprintf(buf, sizeof buf,
                      "<text x=\"%.1f\" y=\"%.1f\" font-size=\"13\" text-anchor=\"middle\" fill=\"%s\">%d</text>\n", cx,
                      cy + 4.5, first ? "#fafafa" : "#202020", p.placedAt[c]);
        o << buf;
      }
    } else {
      std::snprintf(buf, sizeof buf, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"8\" text-anchor=\"middle\" fill=\"#8a7550\">%d,%d</text>\n",
                    cx, cy + 3, geometry().x[c], geometry().y[c]);
      o << buf;
    }
  }
  // The caption: one <text> per line ('\n' separated), XML-escaped.
  double lineY = height - 30;
  std::string line;
  auto flushLine = [&] {
    std::snprintf(buf, sizeof buf, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"12\" fill=\"#202020\">", kMargin, lineY);
    o << buf << line << "</text>\n";
    line.clear(), lineY += 16;
  };
  for (char ch : caption) {
    if (ch == '\n') flushLine();
    else line += ch == '<' ? std::string("&lt;") : ch == '>' ? std::string("&gt;") : ch == '&' ? std::string("&amp;") : std::string(1, ch);
  }
  flushLine();
  o << "</svg>\n";
  return o.str();
}

std::vector<GameRecord> readRecords(const std::string& path) {
  std::ifstream in(path);
  if (!in) usageError("cannot read '" + path + "'");
  std::vector<GameRecord> records;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.empty() || isRecordHeader(line)) continue;
    GameRecord r;
    std::string error;
    if (!recordFromJson(line, r, error)) usageError(path + ":" + std::to_string(number) + ": " + error);
    records.push_back(r);
  }
  if (records.empty()) usageError("'" + path + "' holds no game record");
  return records;
}

}  // namespace

int main(int argc, char** argv) {
  std::string recordsPath, svgPath, moveList;
  int gameNumber = -1;
  long ply = -1;
  bool list = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usageError(a + " needs a value");
      return argv[++i];
    };
    auto integer = [&](const std::string& text) {
      char* end = nullptr;
      long v = std::strtol(text.c_str(), &end, 10);
      if (text.empty() || *end || v < 0) usageError(a + " expects a non-negative integer, got '" + text + "'");
      return v;
    };
    if (a == "--help" || a == "-h") {
      std::cout << kUsage;
      return 0;
    } else if (a == "--game") gameNumber = int(integer(value()));
    else if (a == "--ply") ply = integer(value());
    else if (a == "--svg") svgPath = value();
    else if (a == "--moves") moveList = value();
    else if (a == "--list") list = true;
    else if (!a.empty() && a[0] == '-') usageError("unknown option '" + a + "'");
    else if (recordsPath.empty()) recordsPath = a;
    else usageError("more than one records file given");
  }
  if (recordsPath.empty() == moveList.empty()) usageError("give either a records file or --moves");

  GameRecord game;
  if (!moveList.empty()) {
    std::vector<Cell> cells;
    std::string error;
    if (!parseMoveList(moveList, cells, error, true)) usageError("--moves: " + error);
    game.result.reason = Reason::Aborted;
    for (Cell c : cells) game.result.moves.push_back(MoveRecord{c, -1, false, ""});
  } else {
    std::vector<GameRecord> records = readRecords(recordsPath);
    if (list) {
      for (const auto& r : records)
        std::cout << "game " << r.game << ": X=" << (r.seatOfA == 0 ? "A" : "B") << " O=" << (r.seatOfA == 0 ? "B" : "A")
                  << ", " << r.result.moves.size() << " plies, " << resultLine(r) << "\n";
      return 0;
    }
    bool found = false;
    for (const auto& r : records)
      if (gameNumber < 0 || r.game == gameNumber) {
        game = r, found = true;
        break;
      }
    if (!found) usageError("no game " + std::to_string(gameNumber) + " in '" + recordsPath + "' (see --list)");
  }

  const auto& moves = game.result.moves;
  if (ply > long(moves.size())) usageError("--ply " + std::to_string(ply) + ": the game has " + std::to_string(moves.size()) + " plies");
  const bool fromRecord = moveList.empty();
  const std::string caption = fromRecord ? "game " + std::to_string(game.game) + " (X = " + (game.seatOfA == 0 ? "A" : "B") +
                                               ")\n" + resultLine(game)
                                         : "";

  if (!svgPath.empty()) {
    const size_t upto = ply >= 0 ? size_t(ply) : moves.size();
    Position p = positionAfter(moves, upto);
    std::string text = ply >= 0 ? "after " + std::to_string(upto) + " plies" + (caption.empty() ? "" : ", " + caption)
                                : (caption.empty() ? std::to_string(upto) + " plies" : caption);
    std::ofstream out(svgPath);
    out << svgBoard(p, ply < 0, "Yavalath", text);
    if (!out) usageError("cannot write '" + svgPath + "'");
    std::cout << "wrote " << svgPath << "\n";
    return 0;
  }

  if (ply >= 0) {
    std::cout << asciiBoard(positionAfter(moves, size_t(ply)));
    return 0;
  }
  if (fromRecord)
    std::cout << "game " << game.game << " (pair " << game.pair << "): X = " << (game.seatOfA == 0 ? "A" : "B")
              << " (moves first), O = " << (game.seatOfA == 0 ? "B" : "A") << "\n";
  for (size_t i = 0; i < moves.size(); ++i) {
    const MoveRecord& m = moves[i];
    std::cout << "\nply " << (i + 1) << ": " << (fromRecord ? seatName(game, int(i % 2)) : std::string(i % 2 ? "O" : "X"))
              << " plays " << cellName(m.cell);
    if (i == 1 && moves[0].cell == m.cell) std::cout << " (steal)";
    if (int(i) < game.result.openingPlies) std::cout << " (opening)";
    else if (m.ms >= 0) std::cout << " (" << json::number(m.ms, 1) << " ms" << (m.slow ? ", slow)" : ")");
    if (!m.message.empty()) std::cout << " \"" << m.message << "\"";
    std::cout << "\n" << asciiBoard(positionAfter(moves, i + 1));
  }
  if (fromRecord) std::cout << "\n" << resultLine(game) << "\n";
  return 0;
}
