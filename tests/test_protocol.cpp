// The CodinGame protocol: reading turns from both seats (with and without the id line, across a
// steal), the answer line's format, and malformed input.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "board.h"
#include "playout.h"
#include "protocol.h"
#include "rng.h"
#include "tests/test_util.h"

namespace yav {
namespace {

// One turn's input for the player to move in `b`.
std::string turnText(const Board& b, Cell lastMove, bool withId) { return formatTurn(b, b.toMove(), lastMove, withId); }

std::vector<TurnInput> readAll(const std::string& text) {
  std::istringstream in(text);
  ProtocolReader reader(in);
  std::vector<TurnInput> turns;
  for (TurnInput t; reader.read(t);) turns.push_back(t);
  return turns;
}

bool mentions(const TurnInput& t, const std::string& part) {
  for (const std::string& e : t.errors)
    if (e.find(part) != std::string::npos) return true;
  return false;
}
std::string allErrors(const TurnInput& t) {
  std::string s;
  for (const std::string& e : t.errors) s += "[" + e + "] ";
  return s;
}

const Cell kCentre = cellAt(4, 4);
using XY = std::pair<int, int>;

TEST(Protocol, FirstSeatFirstTurnWithId) {
  const auto turns = readAll(turnText(Board(), kNoCell, true));
  ASSERT_EQ(turns.size(), 1u);
  const TurnInput& t = turns[0];
  EXPECT_TRUE(t.errors.empty()) << allErrors(t);
  EXPECT_EQ(t.myId, 1);
  EXPECT_TRUE(t.firstTurn);
  EXPECT_EQ(t.board, Board());
  EXPECT_EQ(t.lastMove, kNoCell);
  EXPECT_FALSE(t.stealAvailable);
  EXPECT_FALSE(t.opponentStole);
}

TEST(Protocol, SecondSeatFirstTurnWithIdOffersTheSteal) {
  Board b;
  b.play(kCentre);
  const auto turns = readAll(turnText(b, kCentre, true));
  ASSERT_EQ(turns.size(), 1u);
  const TurnInput& t = turns[0];
  EXPECT_TRUE(t.errors.empty()) << allErrors(t);
  EXPECT_EQ(t.myId, 2);
  EXPECT_TRUE(t.firstTurn);
  EXPECT_EQ(t.board, b);
  EXPECT_EQ(t.board.toMove(), 1);
  EXPECT_EQ(t.lastMove, kCentre);
  EXPECT_TRUE(t.stealAvailable);
  EXPECT_TRUE(t.board.isLegal(kCentre));
  EXPECT_FALSE(t.opponentStole);
}

TEST(Protocol, MissingIdLineIsInferredFromTheGrid) {
  // Seat 1: empty grid.
  auto turns = readAll(turnText(Board(), kNoCell, false));
  ASSERT_EQ(turns.size(), 1u);
  EXPECT_EQ(turns[0].myId, 1);
  EXPECT_TRUE(mentions(turns[0], "no id line")) << allErrors(turns[0]);
  EXPECT_EQ(turns[0].board, Board());
  EXPECT_TRUE(turns[0].firstTurn);
  // Seat 2: one opponent stone.
  Board b;
  b.play(cellAt(0, 0));
  turns = readAll(turnText(b, cellAt(0, 0), false));
  ASSERT_EQ(turns.size(), 1u);
  EXPECT_EQ(turns[0].myId, 2);
  EXPECT_TRUE(mentions(turns[0], "no id line")) << allErrors(turns[0]);
  EXPECT_EQ(turns[0].board, b);
  EXPECT_TRUE(turns[0].stealAvailable);
  EXPECT_EQ(turns[0].lastMove, cellAt(0, 0));
  // A game started from an opening: equal counts mean the first player is to move.
  b.play(cellAt(4, 4));
  turns = readAll(turnText(b, cellAt(4, 4), false));
  ASSERT_EQ(turns.size(), 1u);
  EXPECT_EQ(turns[0].myId, 1);
  EXPECT_EQ(turns[0].board, b);
  b.play(cellAt(8, 4));
  turns = readAll(turnText(b, cellAt(8, 4), false));
  ASSERT_EQ(turns.size(), 1u);
  EXPECT_EQ(turns[0].myId, 2);
  EXPECT_EQ(turns[0].board, b);
}

// Whole games from both seats: every turn's position is the game's position.
TEST(Protocol, WholeGamesFromBothSeats) {
  for (int game = 0; game < 200; ++game) {
    Rng rng(50 + game);
    Board b;
    std::string text[2];
    std::vector<Board> expected[2];
    std::vector<Cell> lastMoves[2];
    std::vector<bool> stolen[2];
    bool seen[2] = {false, false}, stealNow = false;
    Cell last = kNoCell;
    for (;;) {
      const int me = b.toMove();
      text[me] += turnText(b, last, !seen[me]);
      expected[me].push_back(b);
      lastMoves[me].push_back(last);
      stolen[me].push_back(stealNow);
      seen[me] = true;
      const Bitboard quiet = b.empty() & ~b.losingCells(me);
      const Cell move = b.canSteal() && game % 2 == 0 ? b.stealCell() : randomCell(quiet ? quiet : b.empty(), rng);
      stealNow = b.canSteal() && move == b.stealCell();
      if (b.play(move) != Outcome::None) break;
      last = move;
    }
    for (int seat = 0; seat < 2; ++seat) {
      const auto turns = readAll(text[seat]);
      ASSERT_EQ(turns.size(), expected[seat].size());
      for (size_t i = 0; i < turns.size(); ++i) {
        const TurnInput& t = turns[i];
        SCOPED_TRACE(testing::Message() << "game " << game << " seat " << seat + 1 << " turn " << i);
        EXPECT_TRUE(t.errors.empty()) << allErrors(t);
        EXPECT_EQ(t.myId, seat + 1);
        EXPECT_EQ(t.firstTurn, i == 0);
        EXPECT_EQ(t.board, expected[seat][i]);
        EXPECT_EQ(t.board.hash(), expected[seat][i].hash());
        EXPECT_EQ(t.lastMove, lastMoves[seat][i]);
        EXPECT_EQ(t.stealAvailable, expected[seat][i].canSteal());
        EXPECT_EQ(t.opponentStole, bool(stolen[seat][i]));
      }
    }
  }
}

TEST(Protocol, StealSeenFromBothSeats) {
  Board b;
  const std::string firstTurn = turnText(b, kNoCell, true);
  b.play(kCentre);
  const std::string stealerFirst = turnText(b, kCentre, true);
  b.play(kCentre);  // the steal
  const std::string afterSteal = turnText(b, kCentre, false);
  // Seat 1: its only stone is now the opponent's, and the last move is its own first move.
  auto turns = readAll(firstTurn + afterSteal);
  ASSERT_EQ(turns.size(), 2u);
  EXPECT_TRUE(turns[1].errors.empty()) << allErrors(turns[1]);
  EXPECT_TRUE(turns[1].opponentStole);
  EXPECT_FALSE(turns[1].firstTurn);
  EXPECT_EQ(turns[1].board.stones(0), 0u);
  EXPECT_EQ(turns[1].board.stones(1), bit(kCentre));
  EXPECT_EQ(turns[1].board.toMove(), 0);
  EXPECT_FALSE(turns[1].stealAvailable);
  EXPECT_EQ(turns[1].lastMove, kCentre);
  // Seat 2 after stealing: the stone shows as its own, plus the first player's new stone.
  b.play(cellAt(0, 0));
  turns = readAll(stealerFirst + turnText(b, cellAt(0, 0), false));
  ASSERT_EQ(turns.size(), 2u);
  EXPECT_TRUE(turns[0].stealAvailable);
  EXPECT_TRUE(turns[1].errors.empty()) << allErrors(turns[1]);
  EXPECT_EQ(turns[1].board, b);
  EXPECT_EQ(turns[1].board.stones(1), bit(kCentre));
  EXPECT_FALSE(turns[1].stealAvailable);
  EXPECT_FALSE(turns[1].opponentStole);
}

TEST(Protocol, AnswerLineFormat) {
  EXPECT_EQ(formatMove(cellAt(3, 4)), "3 4");
  EXPECT_EQ(formatMove(cellAt(0, 0), ""), "0 0");
  EXPECT_EQ(formatMove(cellAt(4, 8), "win/soon"), "4 8 win/soon");
  EXPECT_EQ(formatMove(cellAt(2, 1), "  two   spaces\there\n "), "2 1 two spaces here");
  EXPECT_EQ(formatMove(cellAt(2, 1), "\x01\x7f caf\xc3\xa9"), "2 1 caf");
  EXPECT_EQ(formatMove(cellAt(2, 1), "   "), "2 1");
  EXPECT_EQ(formatMove(kNoCell), "-1 -1");
  EXPECT_LE(formatMove(cellAt(8, 4), std::string(500, 'x')).size(), std::string("8 4 ").size() + 96);
  // Every answer splits on single spaces into x, y and the message words: no leading, trailing or
  // double space, and x y name the cell.
  Rng rng(5);
  for (Cell c = 0; c < kCells; ++c) {
    std::string message;
    for (int i = 0; i < int(rng.below(40)); ++i) message += char(rng.below(128));
    const std::string line = formatMove(c, message);
    ASSERT_FALSE(line.empty());
    EXPECT_NE(line.front(), ' ');
    EXPECT_NE(line.back(), ' ');
    EXPECT_EQ(line.find("  "), std::string::npos) << line;
    EXPECT_EQ(line.find('\n'), std::string::npos);
    std::istringstream fields(line);
    int x = -1, y = -1;
    fields >> x >> y;
    EXPECT_EQ(cellAt(x, y), c);
    EXPECT_EQ(line.compare(0, cellName(c).size(), cellName(c)), 0);
  }
}

// The referee's turn text, literally, for a position that no reflection or rotation maps onto
// itself: rows written in reverse, or each row mirrored, or the seats' digits swapped, differ.
TEST(Protocol, TurnTextOfAnAsymmetricPosition) {
  const Board b = Board::fromStones(cellsAt({{0, 0}, {1, 0}, {6, 3}}), cellsAt({{7, 4}, {2, 8}}), 1);
  EXPECT_EQ(formatTurn(b, 1, cellAt(6, 3), false),
            "9\n22000\n000000\n0000000\n00000020\n000000010\n00000000\n0000000\n000000\n00100\n6 3\n");
  EXPECT_EQ(formatTurn(b, 0, cellAt(2, 8), true),
            "1\n9\n11000\n000000\n0000000\n00000010\n000000020\n00000000\n0000000\n000000\n00200\n2 8\n");
  const auto turns = readAll(formatTurn(b, 1, cellAt(6, 3), false));
  ASSERT_EQ(turns.size(), 1u);
  EXPECT_EQ(turns[0].board, b);  // and the reader reads it back
}

// The position used by the malformed-input tests: seat 2's first turn, the opponent's stone at (5,6).
struct Sample {
  Board board;
  std::string rows[kRows];
  Sample() {
    board.play(cellAt(5, 6));
    std::istringstream in(formatTurn(board, 1, cellAt(5, 6), false));
    std::string count;
    std::getline(in, count);
    for (auto& r : rows) std::getline(in, r);
  }
  std::string text(const std::string& header, int brokenRow = -1, const std::string& replacement = "",
                   const std::string& last = "5 6\n") const {
    std::string s = header;
    for (int y = 0; y < kRows; ++y) s += (y == brokenRow ? replacement : rows[y]) + "\n";
    return s + last;
  }
};

TEST(ProtocolErrors, GarbageBeforeTheCountIsReportedAndSkipped) {
  const Sample s;
  const auto turns = readAll(s.text("hello\n2\n9\n"));
  ASSERT_EQ(turns.size(), 1u);
  EXPECT_TRUE(mentions(turns[0], "expected the id 1/2 or the row count 9, got 'hello'")) << allErrors(turns[0]);
  EXPECT_EQ(turns[0].board, s.board);
  EXPECT_EQ(turns[0].myId, 2);
}

TEST(ProtocolErrors, MissingCountLineReadsTheGrid) {
  const Sample s;
  const auto turns = readAll(s.text("2\n"));
  ASSERT_EQ(turns.size(), 1u);
  EXPECT_TRUE(mentions(turns[0], "reading it as row 0")) << allErrors(turns[0]);
  EXPECT_EQ(turns[0].board, s.board);
  EXPECT_EQ(turns[0].lastMove, cellAt(5, 6));
}

TEST(ProtocolErrors, BadRowsAreNamedAndTheRestIsUsed) {
  const Sample s;
  auto turns = readAll(s.text("2\n9\n", 3, "0000000"));  // row 3 needs 8 digits
  ASSERT_EQ(turns.size(), 1u);
  EXPECT_TRUE(mentions(turns[0], "row 3: expected 8 digits 0/1/2, got '0000000'")) << allErrors(turns[0]);
  EXPECT_EQ(turns[0].board, s.board);

  turns = readAll(s.text("2\n9\n", 0, "00x00"));
  ASSERT_EQ(turns.size(), 1u);
  EXPECT_TRUE(mentions(turns[0], "row 0: expected a digit 0/1/2, got 'x'")) << allErrors(turns[0]);
  EXPECT_EQ(turns[0].board, s.board);

  turns = readAll(s.text("2\n9\n", 2, "0 0 0 0 0 0 0"));  // separators
  ASSERT_EQ(turns.size(), 1u);
  EXPECT_TRUE(mentions(turns[0], "row 2: expected digits without separators")) << allErrors(turns[0]);
  EXPECT_EQ(turns[0].board, s.board);
}

TEST(ProtocolErrors, BadOrMissingLastMove) {
  const Sample s;
  for (const std::string last : {"a b\n", "9 9\n", "5\n", "5 6 7\n"}) {
    const auto turns = readAll(s.text("2\n9\n", -1, "", last));
    ASSERT_EQ(turns.size(), 1u) << last;
    EXPECT_TRUE(mentions(turns[0], "expected the last move 'x y' on the board or '-1 -1'")) << allErrors(turns[0]);
    EXPECT_EQ(turns[0].errors.size(), 1u) << allErrors(turns[0]);  // no second, misleading "'-1 -1'" message
    EXPECT_EQ(turns[0].lastMove, kNoCell);
    EXPECT_EQ(turns[0].board, s.board);
  }
  const auto turns = readAll(s.text("2\n9\n", -1, "", ""));
  ASSERT_EQ(turns.size(), 1u);
  EXPECT_TRUE(mentions(turns[0], "input ended before the last-move line")) << allErrors(turns[0]);
  EXPECT_EQ(turns[0].board, s.board);
}

TEST(ProtocolErrors, InconsistentTurnsAreReported) {
  const Sample s;
  // The last move names an empty cell.
  auto turns = readAll(s.text("2\n9\n", -1, "", "0 0\n"));
  ASSERT_EQ(turns.size(), 1u);
  EXPECT_TRUE(mentions(turns[0], "the last move 0 0 is not an opponent stone")) << allErrors(turns[0]);
  // Two more opponent stones than ours.
  turns = readAll(s.text("2\n9\n", 0, "22000"));
  ASSERT_EQ(turns.size(), 1u);
  EXPECT_TRUE(mentions(turns[0], "stone counts do not fit a game")) << allErrors(turns[0]);
  // '-1 -1' with stones on the grid.
  turns = readAll(s.text("2\n9\n", -1, "", "-1 -1\n"));
  ASSERT_EQ(turns.size(), 1u);
  EXPECT_TRUE(mentions(turns[0], "last move '-1 -1' although the grid is not empty")) << allErrors(turns[0]);
  // A first turn may start from an opening (stones already on the grid): no complaint.
  Board opening;
  for (XY c : {XY{0, 0}, XY{4, 4}, XY{8, 4}}) opening.play(cellAt(c.first, c.second));
  turns = readAll(turnText(opening, cellAt(8, 4), true));
  ASSERT_EQ(turns.size(), 1u);
  EXPECT_TRUE(turns[0].errors.empty()) << allErrors(turns[0]);
  EXPECT_EQ(turns[0].myId, 2);
  EXPECT_EQ(turns[0].board, opening);
  // An id line after the first turn.
  turns = readAll(s.text("2\n9\n") + s.text("2\n9\n"));
  ASSERT_EQ(turns.size(), 2u);
  EXPECT_TRUE(turns[0].errors.empty()) << allErrors(turns[0]);
  EXPECT_TRUE(mentions(turns[1], "id line '2' after the first turn")) << allErrors(turns[1]);
  EXPECT_EQ(turns[1].board, s.board);
}

TEST(ProtocolErrors, TruncatedAndEmptyInput) {
  EXPECT_TRUE(readAll("").empty());
  EXPECT_TRUE(readAll("\n\n").empty());
  const Sample s;
  std::string text = "2\n9\n";
  for (int y = 0; y < 5; ++y) text += s.rows[y] + "\n";  // ends after row 4
  std::istringstream in(text);
  ProtocolReader reader(in);
  TurnInput t;
  EXPECT_FALSE(reader.read(t));
  EXPECT_TRUE(mentions(t, "input ended inside the grid at row 5")) << allErrors(t);
  // Garbage only: reported, then the end of input.
  std::istringstream garbage("hello\n");
  ProtocolReader garbageReader(garbage);
  EXPECT_FALSE(garbageReader.read(t));
  EXPECT_TRUE(mentions(t, "got 'hello'")) << allErrors(t);
  EXPECT_TRUE(mentions(t, "input ended before the grid")) << allErrors(t);
}

TEST(ProtocolErrors, WindowsLineEndsAndBlankLinesAreAccepted) {
  const Sample s;
  std::string text;
  for (char ch : s.text("2\n\n9\n")) text += ch == '\n' ? std::string("\r\n") : std::string(1, ch);
  const auto turns = readAll(text + "\r\n");
  ASSERT_EQ(turns.size(), 1u);
  EXPECT_TRUE(turns[0].errors.empty()) << allErrors(turns[0]);
  EXPECT_EQ(turns[0].board, s.board);
}

}  // namespace
}  // namespace yav
