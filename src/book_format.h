// The embedded opening book's format in one place: field widths, the character code, the writer
// (used by the packer) and the reader (used by the bot). Described in docs/book.md.
//
// Bit stream (version 3). `node(b)` is a position where the book moves, or a pass node where the
// opponent moves (starts of random openings: the bot first after a random stone, or second after
// two), followed by the replies the book covers:
//   book    = version:3  hasFirstPlayerRoot:1  [node(empty board)]  replies(empty board)
//   node(b) = move:6  hasReplies:1  [replies(b + move)]   |   62:6  1:1  replies(b)
//   replies = { reply:6  node(b + reply) }*  63:6
// A move or reply is a cell in the board's actual orientation (a steal names the opponent's stone).
//
// Text: the bit stream, 14 bits per character (most significant first, the last character padded
// with zero bits), then two characters holding a 28-bit checksum of the stream's characters. A
// character is the CJK unified ideograph U+4E00 + value: one UTF-16 unit each (CodinGame's count),
// three bytes in the UTF-8 source, never an escape, quote, control or combining character. The
// text is read from an ordinary narrow string literal as UTF-8.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "board.h"

namespace yav {

constexpr unsigned kBookVersion = 3;
constexpr int kBookVersionBits = 3;
constexpr int kBookFlagBits = 1;  // hasFirstPlayerRoot, hasReplies
constexpr int kBookCellBits = 6;
constexpr unsigned kBookEndOfReplies = 63;  // not a cell
constexpr unsigned kBookPass = 62;          // not a cell: no book move, the replies follow

// ---- character code ----
constexpr int kBookBitsPerChar = 14;
constexpr unsigned kBookFirstCodePoint = 0x4E00;  // U+4E00..U+8DFF, inside U+4E00..U+9FA5 (Unicode 1.1)
constexpr int kBookChecksumChars = 2;
constexpr int kBookUtf8Bytes = 3;  // every book character

inline std::string bookChar(unsigned value) {
  const unsigned cp = kBookFirstCodePoint + value;
  return {char(0xE0 | cp >> 12), char(0x80 | (cp >> 6 & 0x3F)), char(0x80 | (cp & 0x3F))};
}
// The value of the character at byte `at` of text, or -1 when it is not a book character.
inline int bookValue(const std::string& text, size_t at) {
  if (at + kBookUtf8Bytes > text.size()) return -1;
  const unsigned b0 = uint8_t(text[at]), b1 = uint8_t(text[at + 1]), b2 = uint8_t(text[at + 2]);
  if ((b0 & 0xF0) != 0xE0 || (b1 & 0xC0) != 0x80 || (b2 & 0xC0) != 0x80) return -1;
  const unsigned cp = (b0 & 0x0F) << 12 | (b1 & 0x3F) << 6 | (b2 & 0x3F);
  return cp >= kBookFirstCodePoint && cp < kBookFirstCodePoint + (1u << kBookBitsPerChar) ? int(cp - kBookFirstCodePoint) : -1;
}
// 28-bit FNV-1a over the stream's character values.
inline uint32_t bookChecksum(const std::vector<uint16_t>& values) {
  uint32_t h = 2166136261u;
  for (uint16_t v : values) h = ((h ^ (v & 0xFF)) * 16777619u ^ (v >> 8)) * 16777619u;
  return h & ((1u << (kBookChecksumChars * kBookBitsPerChar)) - 1);
}

// Characters (UTF-16 units) of the text of a bit stream of `bits` bits, checksum included.
inline size_t bookCharsForBits(size_t bits) { return (bits + kBookBitsPerChar - 1) / kBookBitsPerChar + kBookChecksumChars; }

class BookBitWriter {
 public:
  void write(unsigned value, int count) {
    for (int i = count; i-- > 0;) bits_.push_back(value >> i & 1);
  }
  size_t bits() const { return bits_.size(); }
  std::string text() const {
    std::vector<uint16_t> values;
    for (size_t i = 0; i < bits_.size(); i += kBookBitsPerChar) {
      unsigned v = 0;
      for (size_t j = i; j < i + kBookBitsPerChar; ++j) v = v << 1 | (j < bits_.size() ? bits_[j] : 0);
      values.push_back(uint16_t(v));
    }
    const uint32_t sum = bookChecksum(values);
    std::string out;
    for (uint16_t v : values) out += bookChar(v);
    return out + bookChar(sum >> kBookBitsPerChar) + bookChar(sum & ((1u << kBookBitsPerChar) - 1));
  }

 private:
  std::vector<bool> bits_;
};

// Reads the bit stream of a book text after checking every character and the checksum. Errors
// name the character (and its byte offset in the UTF-8 text).
class BookBitReader {
 public:
  explicit BookBitReader(const std::string& text) {
    for (size_t at = 0; at < text.size(); at += kBookUtf8Bytes) {
      const int v = bookValue(text, at);
      if (v < 0) {
        fail((at + kBookUtf8Bytes > text.size() ? "truncated character " : "bad character ") + where(values_.size()));
        return;
      }
      values_.push_back(uint16_t(v));
    }
    if (values_.size() <= size_t(kBookChecksumChars)) {
      fail("too short for a book (" + std::to_string(values_.size()) + " characters)");
      return;
    }
    const size_t n = values_.size() - kBookChecksumChars;
    const uint32_t stored = uint32_t(values_[n]) << kBookBitsPerChar | values_[n + 1];
    values_.resize(n);
    if (stored != bookChecksum(values_)) fail("checksum mismatch (damaged or truncated text) at " + where(n));
  }

  bool ok() const { return error_.empty(); }
  // Reads `count` (<= 16) bits; false once the stream is exhausted.
  bool read(int count, unsigned& value) {
    if (!ok()) return false;
    while (bits_ < count) {
      if (pos_ >= values_.size()) return fail("book ended early at " + where(pos_));
      buffer_ = buffer_ << kBookBitsPerChar | values_[pos_++];
      bits_ += kBookBitsPerChar;
    }
    bits_ -= count;
    value = unsigned(buffer_ >> bits_) & ((1u << count) - 1);
    return true;
  }
  // The whole stream was read: no character left, and the padding of the last one is zero.
  bool finish() {
    if (pos_ < values_.size()) return fail("characters left after the book at " + where(pos_));
    if (buffer_ & ((uint64_t(1) << bits_) - 1)) return fail("nonzero padding in " + where(pos_ - 1));
    return true;
  }
  const std::string& error() const { return error_; }
  // Where reading stands: the character holding the last bit read.
  std::string position() const { return where(pos_ ? pos_ - 1 : 0); }
  bool fail(const std::string& why) {
    if (error_.empty()) error_ = why;
    return false;
  }

 private:
  static std::string where(size_t character) {
    return "character " + std::to_string(character) + " (byte " + std::to_string(character * kBookUtf8Bytes) + ")";
  }
  std::vector<uint16_t> values_;
  size_t pos_ = 0;
  uint64_t buffer_ = 0;
  int bits_ = 0;
  std::string error_;
};

// ---- the book as a tree ----
// At each node the book plays `move` (kNoCell: a pass node, the opponent moves here); `replies` are
// the opponent's answers the book covers, each leading to another node. Cells are in the actual
// orientation of the boards the tree is built on.
struct BookTree {
  struct Node {
    Cell move = kNoCell;
    std::vector<std::pair<Cell, int>> replies;  // reply -> node index
  };
  std::vector<Node> nodes;
  int firstPlayerRoot = -1;                          // node at the empty board, -1 when none
  std::vector<std::pair<Cell, int>> secondPlayerRoots;  // opponent's first move -> node
};

// Bits a node adds to the stream: its move and flag, the reply leading to it (none for the first
// player's root), and the end marker of its parent's reply list when it is the parent's first child.
inline size_t bookNodeBits(bool hasReply, bool firstReplyOfParent) {
  return kBookCellBits + kBookFlagBits + (hasReply ? kBookCellBits : 0) + (firstReplyOfParent ? kBookCellBits : 0);
}
// Bits of a book without nodes: the header and the end of the second player's root list.
inline size_t bookHeaderBits() { return kBookVersionBits + kBookFlagBits + kBookCellBits; }

// The text of a tree; an empty tree is the empty text. `bits` receives the stream's length.
inline std::string encodeBook(const BookTree& tree, size_t* bits = nullptr) {
  BookBitWriter w;
  auto writeNode = [&](auto& self, int i) -> void {
    const BookTree::Node& n = tree.nodes[size_t(i)];
    w.write(n.move == kNoCell ? kBookPass : unsigned(n.move), kBookCellBits);
    w.write(!n.replies.empty(), kBookFlagBits);
    if (n.replies.empty()) return;
    for (const auto& [reply, child] : n.replies) {
      w.write(unsigned(reply), kBookCellBits);
      self(self, child);
    }
    w.write(kBookEndOfReplies, kBookCellBits);
  };
  w.write(kBookVersion, kBookVersionBits);
  w.write(tree.firstPlayerRoot >= 0, kBookFlagBits);
  if (tree.firstPlayerRoot >= 0) writeNode(writeNode, tree.firstPlayerRoot);
  for (const auto& [reply, child] : tree.secondPlayerRoots) {
    w.write(unsigned(reply), kBookCellBits);
    writeNode(writeNode, child);
  }
  w.write(kBookEndOfReplies, kBookCellBits);
  if (bits) *bits = w.bits();
  return tree.nodes.empty() ? std::string() : w.text();
}

// Walks the text, calling onMove(board, move) for every book position (actual orientation of the
// replayed boards). False with `error` set when the text is damaged; the empty text is a valid
// empty book.
template <class OnMove>
bool decodeBook(const std::string& text, OnMove&& onMove, std::string& error) {
  error.clear();
  if (text.empty()) return true;
  BookBitReader in(text);
  if (!in.ok()) {
    error = "invalid book: " + in.error();
    return false;
  }
  auto readCell = [&](unsigned& c) { return in.read(kBookCellBits, c); };
  auto replies = [&](auto& node, const Board& b) -> bool {
    for (unsigned reply = 0;;) {
      if (!readCell(reply)) return false;
      if (reply == kBookEndOfReplies) return true;
      Board next = b;
      if (!b.isLegal(Cell(reply)) || next.play(Cell(reply)) != Outcome::None)
        return in.fail("bad book reply " + std::to_string(reply) + " at " + in.position());
      if (!node(node, next)) return false;
    }
  };
  auto node = [&](auto& self, Board b) -> bool {
    unsigned move = 0, more = 0;
    if (!readCell(move) || !in.read(kBookFlagBits, more)) return false;
    if (move == kBookPass) return more ? replies(self, b) : in.fail("pass node without replies at " + in.position());
    if (!b.isLegal(Cell(move))) return in.fail("illegal book move " + std::to_string(move) + " at " + in.position());
    onMove(b, Cell(move));
    if (b.play(Cell(move)) != Outcome::None && more) return in.fail("replies after a final move at " + in.position());
    return !more || replies(self, b);
  };
  unsigned version = 0, hasRoot = 0;
  bool ok = in.read(kBookVersionBits, version) && in.read(kBookFlagBits, hasRoot);
  if (ok && version != kBookVersion) {
    error = "invalid book: format version " + std::to_string(version) + " at character 0, expected " +
            std::to_string(kBookVersion);
    return false;
  }
  ok = ok && (!hasRoot || node(node, Board())) && replies(node, Board());
  ok = ok && in.finish();
  if (!ok) error = "invalid book: " + in.error();
  return ok;
}

}  // namespace yav
