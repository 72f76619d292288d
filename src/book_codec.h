// The character code of the embedded opening book: a bit stream stored in a C++ string literal.
//
// The alphabet is printable ASCII without space, '"', '\\' and '?' (no escapes, no trigraphs), 91
// characters that each count as one in the CodinGame size limit. Every pair of characters carries
// 13 bits (91 * 91 = 8281 >= 8192), most significant bit first.
#pragma once

#include <cstdint>
#include <string>

namespace yav {

constexpr int kBookAlphabetSize = 91;
constexpr int kBookBitsPerPair = 13;

inline bool inBookAlphabet(char c) { return c > ' ' && c <= '~' && c != '"' && c != '\\' && c != '?'; }

// Rank of c in the alphabet (-1 when not in it), and the character of a rank.
inline int bookRank(char c) {
  if (!inBookAlphabet(c)) return -1;
  return c - '!' - (c > '"') - (c > '?') - (c > '\\');
}
inline char bookChar(int rank) {
  char c = char('!' + rank);
  c += c >= '"';
  c += c >= '?';
  c += c >= '\\';
  return c;
}

class BookBitReader {
 public:
  explicit BookBitReader(const std::string& text) : text_(text) {}

  // Reads `count` (<= 16) bits; false once the text is exhausted or holds a bad character pair.
  bool read(int count, unsigned& value) {
    while (bits_ < count) {
      if (pos_ + 1 >= text_.size()) return fail("book ended early at character " + std::to_string(pos_));
      const int hi = bookRank(text_[pos_]), lo = bookRank(text_[pos_ + 1]);
      const int pair = hi * kBookAlphabetSize + lo;
      if (hi < 0 || lo < 0 || pair >= (1 << kBookBitsPerPair))
        return fail("bad book character at " + std::to_string(pos_));
      buffer_ = buffer_ << kBookBitsPerPair | unsigned(pair);
      bits_ += kBookBitsPerPair;
      pos_ += 2;
    }
    bits_ -= count;
    value = unsigned(buffer_ >> bits_) & ((1u << count) - 1);
    return true;
  }
  bool atEnd() const { return pos_ >= text_.size(); }
  const std::string& error() const { return error_; }

 private:
  bool fail(const std::string& why) {
    if (error_.empty()) error_ = why;
    return false;
  }
  const std::string& text_;
  size_t pos_ = 0;
  uint64_t buffer_ = 0;
  int bits_ = 0;
  std::string error_;
};

}  // namespace yav
