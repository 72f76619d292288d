// The embedded book's writer (the format, its grammar and the reader: src/book_format.h).
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "book_format.h"
#include "tools/book/range_encoder.h"

namespace yav::book {

// The character of a value below 2^kBookBitsPerChar (the alphabet: book_format.h), as UTF-8.
inline std::string bookChar(unsigned value) {
  unsigned cp = 0;
  for (const BookAlphabetBlock& block : kBookAlphabet) {
    if (value < block.size) {
      cp = block.firstCodePoint + value;
      break;
    }
    value -= block.size;
  }
  return {char(0xE0 | cp >> 12), char(0x80 | (cp >> 6 & 0x3F)), char(0x80 | (cp & 0x3F))};
}

// The text of stream bytes: kBookBitsPerChar bits per character, the last one padded with zero
// bits, then the checksum's two characters.
inline std::string bookTextOf(const std::string& bytes) {
  std::vector<uint16_t> values;
  uint32_t buffer = 0;
  int bits = 0;
  for (char byte : bytes) {
    buffer = buffer << 8 | uint8_t(byte), bits += 8;
    if (bits >= kBookBitsPerChar)
      bits -= kBookBitsPerChar, values.push_back(uint16_t(buffer >> bits & ((1u << kBookBitsPerChar) - 1)));
  }
  if (bits) values.push_back(uint16_t(buffer << (kBookBitsPerChar - bits) & ((1u << kBookBitsPerChar) - 1)));
  const uint32_t sum = bookChecksum(values);
  std::string out;
  for (uint16_t v : values) out += bookChar(v);
  return out + bookChar(sum >> kBookBitsPerChar) + bookChar(sum & ((1u << kBookBitsPerChar) - 1));
}

// The text of a tree (its reply lists in any order); an empty tree is the empty text. `bits`
// receives the stream's length.
inline std::string encodeBook(BookTree tree, size_t* bits = nullptr) {
  for (BookTree::Node& n : tree.nodes) std::sort(n.replies.begin(), n.replies.end());
  std::sort(tree.secondPlayerRoots.begin(), tree.secondPlayerRoots.end());
  std::string bytes(1, char(kBookVersion << kBookVersionShift)), unused;
  RangeEncoder out(bytes);
  BookGrammar<RangeEncoder>(out, tree, unused).book([](const Board&, Cell) {});
  out.finish();
  if (bits) *bits = bytes.size() * 8;
  return tree.nodes.empty() ? std::string() : bookTextOf(bytes);
}

}  // namespace yav::book
