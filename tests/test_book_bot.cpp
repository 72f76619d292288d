// The committed embedded book decodes, and the bot plays its moves (first move and the answer to
// every first move, the steal included) unless --no-book; a book turn is checked by a search that
// overrules a book move it proves lost, or a position it proves won (book_turn.h).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "book/embedded_book.h"
#include "book_turn.h"
#include "opening_book.h"
#include "protocol.h"
#include "tests/test_util.h"

using namespace yav;

namespace {

// The protocol input of the bot's first turn in `b` (the bot is the side to move).
std::string firstTurnInput(const Board& b) {
  const Bitboard theirs = b.stones(b.toMove() ^ 1);
  return formatTurn(b, b.toMove(), theirs ? lowestCell(theirs) : kNoCell, true);
}

// The bot's answer line for one turn.
std::string botAnswer(const Board& b, const std::string& flags) {
  const std::string input = scratchPath("book_bot_input.txt");
  std::ofstream(input) << firstTurnInput(b);
  const std::string cmd =
      std::string(YAVALATH_BIN_DIR) + "/bot --iterations 200 --quiet " + flags + " < " + input + " 2>/dev/null";
  const std::string out = runCommand(cmd).out;
  return out.substr(0, out.find_first_of("\r\n"));
}

}  // namespace

TEST(BookBot, EmbeddedBookDecodes) {
  OpeningBook book;
  std::string error;
  ASSERT_TRUE(book.load(kEmbeddedBook, error)) << error;
  if (std::string(kEmbeddedBook).empty()) {
    EXPECT_EQ(book.size(), 0u);
  } else {
    EXPECT_GT(book.size(), 0u);
  }
}

TEST(BookBot, BotPlaysTheBookMovesUnlessNoBook) {
  OpeningBook book;
  std::string error;
  ASSERT_TRUE(book.load(kEmbeddedBook, error)) << error;
  std::vector<Board> positions{Board()};
  for (Cell c : {cellAt(4, 4), cellAt(0, 0), cellAt(1, 0), cellAt(2, 0), cellAt(1, 1), cellAt(2, 1), cellAt(3, 2),
                 cellAt(2, 2), cellAt(3, 3), cellAt(5, 6), cellAt(7, 4)}) {
    Board b;
    b.play(c);
    positions.push_back(b);
  }
  int inBook = 0;
  for (size_t i = 0; i < positions.size(); ++i) {
    const Board& b = positions[i];
    const auto move = book.lookup(b);
    const std::string withBook = botAnswer(b, "");
    ASSERT_FALSE(withBook.empty());
    if (i < 3) {  // --no-book on the empty board and two first moves: each start costs 0.5 s under ASan
      const std::string without = botAnswer(b, "--no-book");
      ASSERT_FALSE(without.empty());
      EXPECT_EQ(without.find("book"), std::string::npos) << without;
    }
    if (move) {
      ++inBook;
      EXPECT_EQ(withBook, cellName(*move) + " book");
    } else {
      EXPECT_EQ(withBook.find("book"), std::string::npos) << withBook;
    }
  }
  std::printf("%d of %zu first-turn positions are in the embedded book (%zu positions)\n", inBook, positions.size(),
              book.size());
}

// A book move's turn searches the position the move leads to, so that the first turn out of the
// book (after the opponent's reply) continues that tree instead of starting cold; with
// --no-book-search the answer comes at once and the next turn starts a new tree.
TEST(BookBot, BookTurnSearchesAheadForTheNextTurn) {
  OpeningBook book;
  std::string error;
  ASSERT_TRUE(book.load(kEmbeddedBook, error)) << error;
  if (book.size() == 0) GTEST_SKIP() << "the embedded book is empty";
  // A book position, its book move, and a reply after which the book has no move.
  std::vector<Board> starts{Board()};
  for (Cell c = 0; c < kCells; ++c) {
    Board b;
    b.play(c);
    starts.push_back(b);
  }
  Board inBook, outOfBook;
  Cell reply = kNoCell;
  for (const Board& b : starts) {
    const auto move = book.lookup(b);
    if (!move) continue;
    Board next = b;
    if (next.play(*move) != Outcome::None) continue;
    for (Bitboard rest = next.legalMoves(); rest && reply == kNoCell; rest &= rest - 1) {
      Board after = next;
      if (after.play(lowestCell(rest)) == Outcome::None && !book.lookup(after))
        reply = lowestCell(rest), outOfBook = after;
    }
    if (reply != kNoCell) {
      inBook = b;
      break;
    }
  }
  ASSERT_NE(reply, kNoCell) << "no book position with a reply that leaves the book";
  const std::string input = scratchPath("book_bot_two_turns.txt");
  std::ofstream(input) << firstTurnInput(inBook) << formatTurn(outOfBook, outOfBook.toMove(), reply, false);
  auto stderrOf = [&](const std::string& flags) {
    return runCommand(std::string(YAVALATH_BIN_DIR) + "/bot --iterations 300 " + flags + " < " + input +
                      " 2>&1 >/dev/null")
        .out;
  };
  const std::string searching = stderrOf(""), answering = stderrOf("--no-book-search");
  EXPECT_NE(searching.find("| book, checked 100 it, searched 300 it ahead"), std::string::npos) << searching;
  EXPECT_NE(searching.find("(reused)"), std::string::npos) << searching;
  EXPECT_EQ(answering.find("searched"), std::string::npos) << answering;
  EXPECT_EQ(answering.find("checked"), std::string::npos) << answering;
  EXPECT_EQ(answering.find("(reused)"), std::string::npos) << answering;
}

// The check of a book turn: the search's move where it proved the position won, or proved the
// book's move lost while the position is not lost; the book's move otherwise.
TEST(BookBot, TheCheckOverrulesOnlyWhatTheSearchProved) {
  const Cell bookMove = cellAt(4, 4), other = cellAt(2, 3);
  SearchResult check;
  check.move = other;
  check.children = {{bookMove, 100, 0.6, Proof::Unknown}, {other, 50, 0.4, Proof::Unknown}};
  EXPECT_EQ(checkedBookMove(bookMove, check), bookMove);  // nothing proven: the book's move
  check.children[0].proof = Proof::Loss;
  EXPECT_EQ(checkedBookMove(bookMove, check), other);  // the book's move proven lost
  check.proof = Proof::Loss;
  EXPECT_EQ(checkedBookMove(bookMove, check), bookMove);  // every move lost: the book's is as good
  check.proof = Proof::Win;
  check.children[0].proof = Proof::Unknown;
  EXPECT_EQ(checkedBookMove(bookMove, check), other);  // a proven win is played
  check.move = bookMove;
  EXPECT_EQ(checkedBookMove(bookMove, check), bookMove);
}

// A position of the tactical suite (one stone each, the first player to move) where the search
// proves a win in about 15,000 iterations: the bot plays that win whatever the book says (the
// book of 2026-11-26 answered (6,6), which the suite's judge cannot prove winning).
TEST(BookBot, ABookTurnPlaysTheWinTheSearchProves) {
  const Board b = Board::fromStones(bit(cellAt(5, 3)), bit(cellAt(3, 2)), 0);
  const std::string answer = botAnswer(b, "--iterations 60000");  // overrides botAnswer's 200: a check of 20,000
  EXPECT_EQ(answer.substr(0, 3), "2 3") << answer;
  EXPECT_EQ(botAnswer(b, "--iterations 60000 --no-book").substr(0, 3), "2 3");
}
