// The embedded book's text code and bit format: alphabet, bit round trip, pack -> decode.
#include <gtest/gtest.h>

#include <set>

#include "book_format.h"
#include "opening_book.h"
#include "playout.h"
#include "rng.h"
#include "tools/book/pack.h"

using namespace yav;
using namespace yav::book;

TEST(BookCodec, AlphabetIsSafeInsideAStringLiteral) {
  std::set<char> chars;
  for (int r = 0; r < kBookAlphabetSize; ++r) {
    const char c = bookChar(r);
    EXPECT_TRUE(c > ' ' && c <= '~') << r;
    EXPECT_NE(c, '"');
    EXPECT_NE(c, '\\');
    EXPECT_NE(c, '?');  // no trigraphs
    EXPECT_EQ(bookRank(c), r);
    chars.insert(c);
  }
  EXPECT_EQ(chars.size(), size_t(kBookAlphabetSize));
  EXPECT_EQ(bookRank('"'), -1);
  EXPECT_EQ(bookRank('\\'), -1);
  EXPECT_EQ(bookRank(' '), -1);
  EXPECT_GE(kBookAlphabetSize * kBookAlphabetSize, 1 << kBookBitsPerPair);
}

TEST(BookCodec, BitsRoundTrip) {
  Rng rng(7);
  std::vector<std::pair<unsigned, int>> fields;
  BookBitWriter w;
  for (int i = 0; i < 1000; ++i) {
    const int width = 1 + int(rng.below(16));
    const unsigned v = unsigned(rng.next()) & ((1u << width) - 1);
    fields.push_back({v, width});
    w.write(v, width);
  }
  const std::string text = w.text();
  EXPECT_EQ(text.size(), bookCharsForBits(w.bits()));
  for (char c : text) EXPECT_TRUE(inBookAlphabet(c));
  BookBitReader r(text);
  for (const auto& [v, width] : fields) {
    unsigned got = 0;
    ASSERT_TRUE(r.read(width, got));
    EXPECT_EQ(got, v);
  }
  EXPECT_TRUE(r.atEnd());
}

// Random self-play lines give positions; every one gets a random legal book move.
static Choices randomChoices(uint64_t seed, int games) {
  Rng rng(seed);
  Choices choices;
  for (int g = 0; g < games; ++g) {
    Board b;
    for (int ply = 0; ply < 8; ++ply) {
      const Canonical f = canonicalize(b);
      auto it = choices.find(f.key);
      if (it == choices.end()) {
        const Cell m = randomCell(b.legalMoves() & ~b.losingCells(b.toMove()), rng);
        it = choices.emplace(f.key, BookChoice{f.toCanonical(m), 0.5, false, uint64_t(rng.below(100))}).first;
      }
      if (b.play(f.fromCanonical(it->second.move)) != Outcome::None) break;
      const Cell reply = randomCell(b.legalMoves() & ~b.losingCells(b.toMove()), rng);
      if (b.play(reply) != Outcome::None) break;
    }
  }
  return choices;
}

TEST(BookCodec, PackedBookDecodesToTheChosenMoves) {
  const Choices choices = randomChoices(11, 300);
  const PackedBook packed = packBook(choices, 1000000);
  ASSERT_GT(packed.positions, 300u);
  EXPECT_EQ(packed.positions, packed.reachable);
  EXPECT_EQ(packed.text.size(), bookCharsForBits(packed.bits));
  OpeningBook book;
  std::string error;
  ASSERT_TRUE(book.load(packed.text, error)) << error;
  EXPECT_EQ(book.size(), packed.positions);
  for (const auto& [key, move] : book.entries()) {
    auto it = choices.find(key);
    ASSERT_NE(it, choices.end());
    EXPECT_EQ(canonicalize(boardOf(key)).toCanonical(move), it->second.move);
  }
}

TEST(BookCodec, BudgetKeepsTheMostPlayedPositions) {
  const Choices choices = randomChoices(12, 300);
  const PackedBook full = packBook(choices, 1000000);
  const PackedBook small = packBook(choices, 300);
  EXPECT_LE(small.text.size(), 300u);
  EXPECT_LT(small.positions, full.positions);
  EXPECT_EQ(small.reachable, full.reachable);
  OpeningBook book;
  std::string error;
  ASSERT_TRUE(book.load(small.text, error)) << error;
  EXPECT_EQ(book.size(), small.positions);
}

TEST(BookCodec, EmptyBookLoads) {
  OpeningBook book;
  std::string error;
  EXPECT_TRUE(book.load("", error));
  EXPECT_EQ(book.size(), 0u);
  EXPECT_FALSE(book.lookup(Board()).has_value());
}

TEST(BookCodec, DamagedTextIsRejected) {
  const PackedBook packed = packBook(randomChoices(13, 50), 1000000);
  OpeningBook book;
  std::string error;
  ASSERT_TRUE(book.load(packed.text, error));

  std::string badChar = packed.text;
  badChar[badChar.size() / 2] = '"';
  EXPECT_FALSE(book.load(badChar, error));
  EXPECT_NE(error.find("bad book character"), std::string::npos) << error;
  EXPECT_EQ(book.size(), 0u);

  EXPECT_FALSE(book.load(packed.text.substr(0, packed.text.size() / 2), error));
  EXPECT_NE(error.find("ended early"), std::string::npos) << error;

  EXPECT_FALSE(book.load(packed.text + "!!", error));
  EXPECT_NE(error.find("left after"), std::string::npos) << error;

  BookBitWriter w;  // a book whose first move is off the board
  w.write(kBookVersion, 3);
  w.write(1, 1);
  w.write(62, 6);
  w.write(0, 1);
  w.write(kBookEndOfReplies, 6);
  EXPECT_FALSE(book.load(w.text(), error));
  EXPECT_NE(error.find("illegal book move"), std::string::npos) << error;
}
