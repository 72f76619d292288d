// viewer: shows games recorded by the arena (`--record FILE`) move by move as an ASCII hex board,
// and renders a position or a whole game to SVG. See docs/arena.md.
//   viewer RECORDS [--game N] [--ply K] [--svg OUT] [--list]
//   viewer --moves '4 4; 3 2' [--ply K] [--svg OUT]
#include <cmath>
#include <cstdio>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

#include "tools/arena/record.h"
#include "tools/arena/replay.h"
#include "tools/arena/setup.h"
#include "tools/common/cli.h"

using namespace yav;
using namespace yav::arena;

namespace {

const char* const kUsage = R"(usage: viewer RECORDS [--game N] [--ply K] [--svg OUT] [--list]
       viewer --moves 'x y; x y; ...' [--ply K] [--svg OUT]
Prints a game recorded by the arena move by move as an ASCII hex board. RECORDS is a file of JSON
lines written by 'arena --record'. Board: X moved first, O second; [ ] the last move; Q the stone
O took by the steal (numbered by the ply that placed it); lowercase letters the line that decided
the game; rows y=0..8 on the left, x counted from each row's left end (labelled on the top and
bottom edges). A legend names the bot of each colour and who is to move.
)";

[[noreturn]] void usageError(const std::string& message) { cli::Flags("viewer").fail(message); }

// Who plays which colour: "A 'build/bin/bot'" (the command when the record header names it).
struct Legend {
  std::string bot[2];  // seat 0 (X, moves first), seat 1 (O)
  bool known = false;
};

Legend legendOf(const GameRecord& r, const SetUp* setUp) {
  Legend l;
  l.known = true;
  for (int seat = 0; seat < 2; ++seat) {
    const std::string name = seat == r.seatOfA ? r.nameA : r.nameB;
    std::string text = name;
    if (setUp)
      for (const BotSpec& b : setUp->bots)
        if (b.name == name) text += " '" + b.command + "'";
    l.bot[seat] = text;
  }
  return l;
}

std::string colourName(int seat) { return seat == 0 ? "X" : "O"; }

std::string seatName(const Legend& l, int seat) {
  return l.known ? colourName(seat) + " (" + l.bot[seat].substr(0, l.bot[seat].find(' ')) + ")" : colourName(seat);
}

// "X (A) to move", "O (B) to move, may steal", or "game over".
std::string toMoveLine(const ReplayPosition& p, const Legend& l) {
  if (p.lastOutcome != Outcome::None) return "game over";
  const int seat = p.board.toMove();
  return seatName(l, seat) + " to move" + (p.board.canSteal() ? ", may steal" : "");
}

std::string resultLine(const GameRecord& r, const Legend& l) {
  std::string s = "result: ";
  if (r.result.reason == Reason::Aborted)
    s += "aborted";
  else if (r.result.winnerSeat < 0)
    s += "draw";
  else
    s += seatName(l, r.result.winnerSeat) + " wins";
  s += " (" + std::string(reasonName(r.result.reason)) + ")";
  if (!r.result.detail.empty()) s += ": " + r.result.detail;
  if (!r.result.finalAnswer.empty()) s += " [answer: '" + r.result.finalAnswer + "']";
  return s;
}

// ---- ASCII ----------------------------------------------------------------------------------

char stoneChar(const ReplayPosition& p, Cell c) {
  char ch = (p.board.stones(0) & bit(c)) ? 'X' : (p.board.stones(1) & bit(c)) ? (c == p.stolen ? 'Q' : 'O') : '.';
  if (p.decidingLine & bit(c)) ch = char(ch - 'A' + 'a');
  return ch;
}

std::string xLabels(int y) {  // the x of each cell of an edge row, aligned with the row below/above
  std::string s = "x=  " + std::string(size_t(std::abs(y - 4)) + 1, ' ');
  for (int x = 0; x < rowLength(y); ++x) s += " " + std::to_string(x);
  return s + "\n";
}

// `botLine`: name the bot of each colour under the board (once per position printed alone).
std::string asciiBoard(const ReplayPosition& p, const Legend& l, bool botLine = true) {
  std::ostringstream o;
  o << xLabels(0);
  for (int y = 0; y < kRows; ++y) {
    o << "y=" << y << " " << std::string(size_t(std::abs(y - 4)) + 1, ' ');
    for (int x = 0; x < rowLength(y); ++x) {
      const Cell c = cellAt(x, y);
      o << (c == p.lastMove ? '[' : (x && cellAt(x - 1, y) == p.lastMove) ? ']' : ' ') << stoneChar(p, c);
    }
    o << (cellAt(rowLength(y) - 1, y) == p.lastMove ? "]" : "") << "\n";
  }
  o << xLabels(8);
  std::string legend;
  if (l.known && botLine) legend += "X = " + l.bot[0] + " (moves first), O = " + l.bot[1] + "\n";
  if (p.stolen != kNoCell) legend += "Q = the stone O stole (X placed it at ply 1)\n";
  if (p.decidingLine)
    legend += std::string("lowercase = the line of ") +
              (p.lastOutcome == Outcome::Win ? "4+ that won" : "3 that lost") + "\n";
  o << legend << "after " << p.plies << (p.plies == 1 ? " ply: " : " plies: ") << toMoveLine(p, l) << "\n";
  return o.str();
}

// ---- SVG ----------------------------------------------------------------------------------

constexpr double kRadius = 24, kMargin = 20, kLabelWidth = 34;
const double kHexWidth = std::sqrt(3.0) * kRadius;

void cellCenter(Cell c, double& cx, double& cy) {
  const int x = geometry().x[c], y = geometry().y[c];
  cx = kMargin + kLabelWidth + kHexWidth / 2 + (x + std::abs(y - 4) / 2.0) * kHexWidth;
  cy = kMargin + 16 + kRadius + y * 1.5 * kRadius;
}

std::string xmlEscaped(const std::string& text) {
  std::string out;
  for (char ch : text) out += ch == '<' ? "&lt;" : ch == '>' ? "&gt;" : ch == '&' ? "&amp;" : std::string(1, ch);
  return out;
}

std::string svgText(double x, double y, double size, const char* fill, const std::string& text,
                    const char* anchor = "start", const char* weight = "normal") {
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.0f\" fill=\"%s\" text-anchor=\"%s\" font-weight=\"%s\">", x,
                y, size, fill, anchor, weight);
  return buf + xmlEscaped(text) + "</text>\n";
}

std::string svgStone(double cx, double cy, int seat, const char* stroke, double strokeWidth, const char* dash = "") {
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\" stroke=\"%s\" stroke-width=\"%.1f\"%s/>\n", cx,
                cy, kRadius * 0.72, seat == 0 ? "#202020" : "#fafafa", stroke, strokeWidth, dash);
  return buf;
}

std::string svgBoard(const ReplayPosition& p, bool numbered, const Legend& l, const std::vector<std::string>& caption) {
  std::vector<std::string> lines;  // the legend, then the caption
  if (l.known) {
    lines.push_back("X (black) = " + l.bot[0] + ", moves first");
    lines.push_back("O (white) = " + l.bot[1]);
  }
  if (p.stolen != kNoCell) lines.push_back("S: the stone O stole (placed by X at ply 1), now O's");
  if (p.decidingLine)
    lines.push_back(std::string(p.lastOutcome == Outcome::Win ? "green band and rings: the line of 4+ that won"
                                                              : "red band and rings: the line of 3 that lost"));
  lines.push_back("orange tag: last move; after " + std::to_string(p.plies) + (p.plies == 1 ? " ply: " : " plies: ") +
                  toMoveLine(p, l));
  lines.insert(lines.end(), caption.begin(), caption.end());
  for (std::string& line : lines)
    if (line.size() > 95) line = line.substr(0, 92) + "...";

  const double boardBottom = kMargin + 16 + kRadius * (2 + 8 * 1.5) + 18;
  const double width = 2 * kMargin + kLabelWidth + 9 * kHexWidth + 10,
               height = boardBottom + 16 * lines.size() + kMargin;
  std::ostringstream o;
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
                "font-family=\"sans-serif\">\n",
                width, height, width, height);
  o << buf << "<title>Yavalath</title>\n<rect width=\"100%\" height=\"100%\" fill=\"#f4ecd8\"/>\n";
  for (Cell c = 0; c < kCells; ++c) {
    double cx, cy;
    cellCenter(c, cx, cy);
    o << "<polygon points=\"";
    for (int k = 0; k < 6; ++k) {
      const double angle = M_PI / 180 * (60 * k - 30);
      std::snprintf(buf, sizeof buf, "%s%.1f,%.1f", k ? " " : "", cx + kRadius * std::cos(angle),
                    cy + kRadius * std::sin(angle));
      o << buf;
    }
    o << "\" fill=\"#e0c68f\" stroke=\"#6b5b3e\" stroke-width=\"1\"/>\n";
  }
  // Edge coordinates: y on the left of each row, x above the top row and below the bottom row.
  for (int y = 0; y < kRows; ++y) {
    double cx, cy;
    cellCenter(cellAt(0, y), cx, cy);
    o << svgText(cx - kHexWidth / 2 - 6, cy + 4, 12, "#5a4a2e", "y=" + std::to_string(y), "end");
  }
  for (int y : {0, 8})
    for (int x = 0; x < rowLength(y); ++x) {
      double cx, cy;
      cellCenter(cellAt(x, y), cx, cy);
      o << svgText(cx, y == 0 ? cy - kRadius - 4 : cy + kRadius + 13, 12, "#5a4a2e",
                   (x ? "" : "x=") + std::to_string(x), "middle");
    }
  // The deciding line under the stones: a broad band through their centres.
  if (p.decidingLine) {
    Bitboard line = p.decidingLine;
    double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    cellCenter(lowestCell(line), x0, y0);
    while (line) cellCenter(popLowest(line), x1, y1);  // the highest cell: the other end
    std::snprintf(buf, sizeof buf,
                  "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"14\" "
                  "stroke-linecap=\"round\" opacity=\"0.75\"/>\n",
                  x0, y0, x1, y1, p.lastOutcome == Outcome::Win ? "#1f9d3a" : "#d02020");
    o << buf;
  }
  for (Cell c = 0; c < kCells; ++c) {
    double cx, cy;
    cellCenter(c, cx, cy);
    const bool first = p.board.stones(0) & bit(c), second = p.board.stones(1) & bit(c);
    if (!first && !second) {
      o << svgText(cx, cy + 3, 8, "#8a7550", std::to_string(geometry().x[c]) + "," + std::to_string(geometry().y[c]),
                   "middle");
      continue;
    }
    const int seat = first ? 0 : 1;
    const bool last = c == p.lastMove;
    if (c == p.stolen) {
      o << svgStone(cx, cy, seat, "#1a5fb4", 3, " stroke-dasharray=\"4 2\"");
      // The steal mark: a small blue tag at the upper right.
      std::snprintf(buf, sizeof buf, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"7\" fill=\"#1a5fb4\"/>\n", cx + 13, cy - 13);
      o << buf << svgText(cx + 13, cy - 9.5, 10, "#ffffff", "S", "middle", "bold");
    } else {
      const bool inLine = p.decidingLine & bit(c);
      const char* lineColour = p.lastOutcome == Outcome::Win ? "#1f9d3a" : "#d02020";
      o << svgStone(cx, cy, seat, inLine ? lineColour : "#404040", inLine ? 3 : 1);
    }
    if (last) {  // the last move's own mark: an orange tag at the upper left (the steal's is at the right)
      std::snprintf(buf, sizeof buf,
                    "<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"#f08c00\" "
                    "stroke=\"#202020\" stroke-width=\"1\" class=\"last-move\"/>\n",
                    cx - 18, cy - 18);
      o << buf;
    }
    if (numbered && p.placedAt[c])
      o << svgText(cx, cy + 4.5, 13, seat == 0 ? "#fafafa" : "#202020", std::to_string(p.placedAt[c]), "middle");
  }
  double lineY = boardBottom + 12;
  for (const std::string& line : lines) o << svgText(kMargin, lineY, 12, "#202020", line), lineY += 16;
  o << "</svg>\n";
  return o.str();
}

struct RecordFile {
  std::vector<GameRecord> games;
  SetUp setUp;
  bool hasSetUp = false;
};

RecordFile readRecords(const std::string& path) {
  std::ifstream in(path);
  if (!in) usageError("cannot read '" + path + "': " + std::strerror(errno));
  RecordFile f;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.empty()) continue;
    if (isRecordHeader(line)) {
      std::string version, date;
      f.hasSetUp = headerFromJson(line, f.setUp, version, date);
      continue;
    }
    GameRecord r;
    std::string error;
    if (!recordFromJson(line, r, error)) usageError(path + ":" + std::to_string(number) + ": " + error);
    f.games.push_back(r);
  }
  if (f.games.empty()) usageError("'" + path + "' holds no game record");
  return f;
}

}  // namespace

int main(int argc, char** argv) {
  std::string recordsPath, svgPath, moveList;
  int gameNumber = -1;
  long ply = -1;
  bool list = false;
  cli::Flags flags("viewer");
  flags.integer("--game", "N", gameNumber, 0, INT32_MAX, "the game numbered N in RECORDS", "the first game in the file")
      .integer("--ply", "K", ply, 0, INT32_MAX, "only the position after K plies (0 = empty board)",
               "every ply in turn")
      .text("--svg", "OUT", svgPath,
            "write an SVG instead of text: the position after --ply K, or without --ply the "
            "whole game (final position, every stone numbered by the ply that placed it)",
            "none, text on stdout")
      .text("--moves", "LIST", moveList,
            "a position from a move list instead of RECORDS ('x y' pairs separated by spaces, "
            "commas or semicolons)",
            "none")
      .option("--list", list, "one line per game in RECORDS: number, bots, seats, length, result");
  const std::vector<std::string> positional = flags.parseOrExit(argc, argv, 1, kUsage, 1);
  if (!positional.empty()) recordsPath = positional[0];
  if (recordsPath.empty() == moveList.empty()) usageError("give either a records file or --moves");

  GameRecord game;
  Legend legend;
  if (!moveList.empty()) {
    std::vector<Cell> cells;
    std::string error;
    if (!parseMoveList(moveList, cells, error, true)) usageError("--moves: " + error);
    game.result.reason = Reason::Aborted;
    for (Cell c : cells) game.result.moves.push_back(MoveRecord{c, -1, false, ""});
  } else {
    const RecordFile file = readRecords(recordsPath);
    if (list) {
      for (const auto& r : file.games)
        std::cout << "game " << r.game << ": " << r.nameA << " vs " << r.nameB
                  << ", X=" << (r.seatOfA == 0 ? r.nameA : r.nameB) << " O=" << (r.seatOfA == 0 ? r.nameB : r.nameA)
                  << ", " << r.result.moves.size() << " plies, " << resultLine(r, legendOf(r, nullptr)) << "\n";
      return 0;
    }
    bool found = false;
    for (const auto& r : file.games)
      if (gameNumber < 0 || r.game == gameNumber) {
        game = r, found = true;
        break;
      }
    if (!found) usageError("no game " + std::to_string(gameNumber) + " in '" + recordsPath + "' (see --list)");
    legend = legendOf(game, file.hasSetUp ? &file.setUp : nullptr);
  }

  const auto& moves = game.result.moves;
  if (ply > long(moves.size()))
    usageError("--ply " + std::to_string(ply) + ": the game has " + std::to_string(moves.size()) + " plies");
  const bool fromRecord = moveList.empty();

  if (!svgPath.empty()) {
    const size_t upto = ply >= 0 ? size_t(ply) : moves.size();
    std::vector<std::string> caption;
    if (fromRecord) {
      caption.push_back("game " + std::to_string(game.game) + " (pair " + std::to_string(game.pair) + ")" +
                        (game.result.openingPlies ? ", opening of " + std::to_string(game.result.openingPlies) +
                                                        (game.result.openingPlies == 1 ? " ply" : " plies")
                                                  : ""));
      if (upto == moves.size()) caption.push_back(resultLine(game, legend));
    }
    std::ofstream out(svgPath);
    out << svgBoard(replayTo(moves, upto), ply < 0, legend, caption);
    if (!out) usageError("cannot write '" + svgPath + "'");
    std::cout << "wrote " << svgPath << "\n";
    return 0;
  }

  if (ply >= 0) {
    std::cout << asciiBoard(replayTo(moves, size_t(ply)), legend);
    return 0;
  }
  if (fromRecord)
    std::cout << "game " << game.game << " (pair " << game.pair << "): X = " << legend.bot[0]
              << " (moves first), O = " << legend.bot[1] << "\n";
  for (size_t i = 0; i < moves.size(); ++i) {
    const MoveRecord& m = moves[i];
    std::cout << "\nply " << (i + 1) << ": " << seatName(legend, int(i % 2)) << " plays " << cellName(m.cell);
    if (i == 1 && moves[0].cell == m.cell) std::cout << " (steal)";
    if (int(i) < game.result.openingPlies)
      std::cout << " (opening)";
    else if (m.ms >= 0)
      std::cout << " (" << json::number(m.ms, 1) << " ms" << (m.slow ? ", slow)" : ")");
    if (!m.message.empty()) std::cout << " \"" << m.message << "\"";
    std::cout << "\n" << asciiBoard(replayTo(moves, i + 1), legend, false);
  }
  if (fromRecord) std::cout << "\n" << resultLine(game, legend) << "\n";
  return 0;
}
