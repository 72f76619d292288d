// The embedded book's text code and format: alphabet, bytes round trip, pack -> decode,
// damage detection, capacity and decode time.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <functional>
#include <set>

#include "book_format.h"
#include "opening_book.h"
#include "playout.h"
#include "rng.h"
#include "tools/book/book_writer.h"
#include "tools/book/database.h"
#include "tools/book/pack.h"
#include "tools/book/range_encoder.h"
#include "tests/book_choices.h"

using namespace yav;
using namespace yav::book;
using yav::testing_books::randomChoices;

// Every character value: a BMP code point among letters assigned by Unicode 3.0 (category Lo, no
// combining marks, no bidi controls): the CJK unified ideographs of Unicode 1.1 (U+4E00..U+9FA5),
// CJK extension A (U+3400..U+4DB5) and Hangul syllables (U+AC00..U+D7A3), so one UTF-16 unit; three
// UTF-8 bytes, all >= 0x80, so that no byte can be a quote, backslash, question mark, newline or
// any other control inside a literal. The values fill the blocks in order, without gaps.
TEST(BookCodec, EveryCharacterIsOneUtf16UnitAndSafeInALiteral) {
  auto codePoint = [](unsigned v) {  // of a three-byte UTF-8 sequence
    const std::string c = bookChar(v);
    return (uint8_t(c[0]) & 0x0Fu) << 12 | (uint8_t(c[1]) & 0x3Fu) << 6 | (uint8_t(c[2]) & 0x3Fu);
  };
  std::set<unsigned> seen;
  for (unsigned v = 0; v < (1u << kBookBitsPerChar); ++v) {
    const std::string c = bookChar(v);
    ASSERT_EQ(c.size(), size_t(kBookUtf8Bytes)) << v;
    for (char byte : c) ASSERT_GE(uint8_t(byte), 0x80u) << v;
    ASSERT_EQ(uint8_t(c[0]) & 0xF0u, 0xE0u) << v;  // a three-byte sequence
    const unsigned cp = codePoint(v);
    const bool cjk = cp >= 0x4E00 && cp <= 0x9FA5, extensionA = cp >= 0x3400 && cp <= 0x4DB5,
               hangul = cp >= 0xAC00 && cp <= 0xD7A3;
    ASSERT_TRUE(cjk || extensionA || hangul) << v << " -> U+" << std::hex << cp;
    ASSERT_FALSE(cp >= 0xD800 && cp <= 0xDFFF);                               // no surrogates: one UTF-16 unit
    ASSERT_FALSE(cp == 0xFEFF || cp == 0x2028 || cp == 0x2029);               // no BOM, no line separators
    ASSERT_FALSE((cp >= 0xFDD0 && cp <= 0xFDEF) || (cp & 0xFFFE) == 0xFFFE);  // no noncharacters
    ASSERT_EQ(bookValue(c, 0), int(v));
    seen.insert(cp);
  }
  EXPECT_EQ(seen.size(), size_t(1) << kBookBitsPerChar);
  // The blocks' ends, in value order.
  EXPECT_EQ(codePoint(0), 0x4E00u);
  EXPECT_EQ(codePoint(20901), 0x9FA5u);
  EXPECT_EQ(codePoint(20902), 0x3400u);
  EXPECT_EQ(codePoint(27483), 0x4DB5u);
  EXPECT_EQ(codePoint(27484), 0xAC00u);
  EXPECT_EQ(codePoint(32767), 0xC0A3u);
  EXPECT_EQ(bookValue("\"\"\"", 0), -1);
  EXPECT_EQ(bookValue("\xE4\xB8", 0), -1);                             // truncated
  EXPECT_EQ(bookValue("\xE4\xB7\xBF", 0), -1);                         // U+4DFF, between extension A and the URO
  EXPECT_EQ(bookValue("\xE4\xB6\xB6", 0), -1);                         // U+4DB6, just past extension A
  EXPECT_EQ(bookValue("\xE3\x8F\xBF", 0), -1);                         // U+33FF, just below extension A
  EXPECT_EQ(bookValue("\xE9\xBE\xA6", 0), -1);                         // U+9FA6, just past the URO of Unicode 1.1
  EXPECT_EQ(bookValue("\xEA\xB0\x80", 0), 27484);                      // U+AC00
  EXPECT_EQ(bookValue("\xEC\x82\xA4", 0), -1);                         // U+C0A4, just past the alphabet
  EXPECT_EQ(bookValue("\xEA\xAF\xBF", 0), -1);                         // U+ABFF, just below the Hangul syllables
  EXPECT_EQ(bookValue(bookChar(0).substr(0, 1) + "\x41\x80", 0), -1);  // not a continuation byte
}

// Stream bytes survive the text: every length, so that every padding occurs.
TEST(BookCodec, BytesRoundTripThroughTheText) {
  Rng rng(7);
  for (size_t length = 1; length < 64; ++length) {
    std::string bytes;
    for (size_t i = 0; i < length; ++i) bytes.push_back(char(rng.below(256)));
    const std::string text = bookTextOf(bytes);
    EXPECT_EQ(text.size() / kBookUtf8Bytes,
              (length * 8 + kBookBitsPerChar - 1) / kBookBitsPerChar + kBookChecksumChars);
    std::string back, error;
    ASSERT_TRUE(bookBytesOf(text, back, error)) << error;
    // A last character with 8 or more bits of padding reads as one more (zero) byte.
    ASSERT_GE(back.size(), length);
    EXPECT_LE(back.size(), length + 1);
    EXPECT_EQ(back.substr(0, length), bytes);
    if (back.size() > length) {
      EXPECT_EQ(back.back(), '\0');
    }
  }
}

TEST(BookCodec, PackedBookDecodesToTheChosenMoves) {
  const Choices choices = randomChoices(11, 300);
  const PackedBook packed = packBook(choices, 1000000);
  ASSERT_GT(packed.positions, 300u);
  EXPECT_EQ(packed.positions, packed.reachable);
  EXPECT_EQ(packed.chars(), (packed.bits + kBookBitsPerChar - 1) / kBookBitsPerChar + kBookChecksumChars);
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
  EXPECT_LE(small.chars(), 300u);
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

// A damaged text is an error that names the character, and the book stays empty.
TEST(BookCodec, DamagedTextIsRejectedWithItsPosition) {
  const PackedBook packed = packBook(randomChoices(13, 50), 1000000);
  OpeningBook book;
  std::string error;
  ASSERT_TRUE(book.load(packed.text, error)) << error;
  const size_t n = packed.chars();
  auto rejected = [&](const std::string& text, const std::string& why) {
    EXPECT_FALSE(book.load(text, error)) << why;
    EXPECT_EQ(book.size(), 0u);
    EXPECT_NE(error.find(why), std::string::npos) << error << " (expected: " << why << ")";
    return error;
  };
  const size_t mid = n / 2 * kBookUtf8Bytes;
  std::string badChar = packed.text;
  badChar[mid] = '"';
  rejected(badChar, "bad character character " + std::to_string(n / 2) + " (byte " + std::to_string(mid) + ")");

  std::string otherChar = packed.text;  // a valid character with another value
  otherChar.replace(mid, kBookUtf8Bytes, bookChar(unsigned(bookValue(otherChar, mid)) ^ 1));
  rejected(otherChar, "checksum mismatch");

  rejected(packed.text.substr(0, packed.text.size() - 1), "truncated character character " + std::to_string(n - 1));
  rejected(packed.text.substr(0, packed.text.size() - kBookUtf8Bytes), "checksum mismatch");
  rejected(packed.text.substr(0, mid), "checksum mismatch");
  rejected(packed.text + bookChar(0), "checksum mismatch");
  rejected(packed.text + "!", "truncated character");
  rejected(bookChar(1), "too short");

  // Hand-made streams, coded field by field with the grammar's models.
  using Fields = std::function<void(RangeEncoder&, BookModels&)>;
  auto streamBytes = [](const Fields& fields, unsigned version = kBookVersion) {
    std::string bytes(1, char(version << kBookVersionShift));
    RangeEncoder out(bytes);
    BookModels m;
    fields(out, m);
    out.finish();
    return bytes;
  };
  auto stream = [&](const Fields& fields, unsigned version = kBookVersion) {
    return bookTextOf(streamBytes(fields, version));
  };
  auto symbol = [](RangeEncoder& out, SymbolModel<6>& model, uint32_t value) { codeSymbol(out, model, value); };
  auto flag = [](RangeEncoder& out, BitModel& model, uint32_t value) { out.bit(model, value); };

  // A stream that stops inside the first node (a book with the first player's root and nothing
  // else) reads past its end.
  rejected(stream([&](RangeEncoder& out, BookModels& m) { flag(out, m.hasRoot, 1); }), "book ended early");
  rejected(stream([&](RangeEncoder& out, BookModels& m) {
             flag(out, m.hasRoot, 1);
             symbol(out, m.move[0], 61);  // off the board
           }),
           "illegal book move 61");
  const auto emptyBook = [&](RangeEncoder& out, BookModels& m) {
    flag(out, m.hasRoot, 0);
    symbol(out, m.count[1], 0);
  };
  EXPECT_TRUE(decodeBook(
      stream(emptyBook), [](const Board&, Cell) {}, error))
      << error;
  // The message names the character holding the first byte after the book.
  const std::string leftOver =
      "characters left after the book at " + bookCharacterWhere(streamBytes(emptyBook).size() * 8 / kBookBitsPerChar);
  EXPECT_EQ(rejected(bookTextOf(streamBytes(emptyBook) + "\x55\x66"), leftOver), "invalid book: " + leftOver);
  EXPECT_EQ(rejected(bookTextOf(streamBytes(emptyBook) + std::string(30, '\x77')), leftOver),
            "invalid book: " + leftOver);
  const std::vector<uint16_t> padded = {uint16_t((kBookVersion << kBookVersionShift) << 6 | 1)};  // 6 bits of padding
  const uint32_t sum = bookChecksum(padded);
  rejected(bookChar(padded[0]) + bookChar(sum >> kBookBitsPerChar) + bookChar(sum & ((1u << kBookBitsPerChar) - 1)),
           "nonzero padding in character 0");
  rejected(stream(emptyBook, 1), "format version 1 at character 0, expected " + std::to_string(kBookVersion));
  rejected(stream(emptyBook, 3), "format version 3 at character 0");
  rejected(stream([&](RangeEncoder& out, BookModels& m) {  // a pass node must list replies
             flag(out, m.hasRoot, 0);
             symbol(out, m.count[1], 1);
             symbol(out, m.gap[0], 0);
             symbol(out, m.move[1], kBookPass);
             symbol(out, m.count[1], 0);
           }),
           "pass node without replies");
  rejected(stream([&](RangeEncoder& out, BookModels& m) {  // a reply beyond the last legal cell
             flag(out, m.hasRoot, 1);
             symbol(out, m.move[0], 30);
             symbol(out, m.count[0], 1);
             symbol(out, m.gap[0], 61);  // 61 legal cells, the steal included
           }),
           "bad book reply");
}

// Room for the target: 20,000 positions within 45,000 characters; prints the density and the
// decode time (the bot decodes on its first turn, which has 1000 ms).
TEST(BookCodec, TwentyThousandPositionsFitAndDecodeQuickly) {
  const PackedBook packed = packBook(randomChoices(14, 4000), 45000);
  ASSERT_GE(packed.positions, 20000u);
  EXPECT_LE(packed.chars(), 45000u);
  OpeningBook book;
  std::string error;
  const auto start = std::chrono::steady_clock::now();
  ASSERT_TRUE(book.load(packed.text, error)) << error;
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(book.size(), packed.positions);
  std::printf("book codec: %zu positions in %zu characters, %.2f bits/position, decoded in %.1f ms\n", packed.positions,
              packed.chars(), double(packed.bits) / double(packed.positions), ms);
}
