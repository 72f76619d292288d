// The embedded opening book's format in one place: field widths, the character code, the writer
// (used by the packer) and the reader (used by the bot). Described in docs/book.md.
//
// Bit stream (version 1). `node(b)` is a position where the book moves:
//   book    = version:3  hasFirstPlayerRoot:1  [node(empty board)]  replies(empty board)
//   node(b) = move:6  hasReplies:1  [replies(b + move)]
//   replies = { reply:6  node(b + reply) }*  63:6
// A move or reply is a cell in the board's actual orientation (a steal names the opponent's stone).
//
// Character code: printable ASCII without space, '"', '\\' and '?' (no escapes, no trigraphs), 91
// characters that each count as one in the CodinGame size limit. Every pair of characters carries
// 13 bits (91 * 91 = 8281 >= 8192), most significant bit first.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "board.h"

namespace yav {

constexpr unsigned kBookVersion = 1;
constexpr int kBookVersionBits = 3;
constexpr int kBookFlagBits = 1;  // hasFirstPlayerRoot, hasReplies
constexpr int kBookCellBits = 6;
constexpr unsigned kBookEndOfReplies = 63;  // not a cell

// ---- character code ----
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

// Characters needed for a bit stream of `bits` bits.
inline size_t bookCharsForBits(size_t bits) { return (bits + kBookBitsPerPair - 1) / kBookBitsPerPair * 2; }

class BookBitWriter {
 public:
  void write(unsigned value, int count) {
    for (int i = count; i-- > 0;) bits_.push_back(value >> i & 1);
  }
  size_t bits() const { return bits_.size(); }
  std::string text() const {
    std::string out;
    for (size_t i = 0; i < bits_.size(); i += kBookBitsPerPair) {
      unsigned v = 0;
      for (size_t j = i; j < i + kBookBitsPerPair; ++j) v = v << 1 | (j < bits_.size() ? bits_[j] : 0);
      out += bookChar(int(v / kBookAlphabetSize));
      out += bookChar(int(v % kBookAlphabetSize));
    }
    return out;
  }

 private:
  std::vector<bool> bits_;
};

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
  bool fail(const std::string& why) {
    if (error_.empty()) error_ = why;
    return false;
  }

 private:
  const std::string& text_;
  size_t pos_ = 0;
  uint64_t buffer_ = 0;
  int bits_ = 0;
  std::string error_;
};

// ---- the book as a tree ----
// At each node the book plays `move`; `replies` are the opponent's answers the book covers, each
// leading to another node. Cells are in the actual orientation of the boards the tree is built on.
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
    w.write(unsigned(n.move), kBookCellBits);
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
  auto readCell = [&](unsigned& c) { return in.read(kBookCellBits, c); };
  auto replies = [&](auto& node, const Board& b) -> bool {
    for (unsigned reply = 0;;) {
      if (!readCell(reply)) return false;
      if (reply == kBookEndOfReplies) return true;
      Board next = b;
      if (!b.isLegal(Cell(reply)) || next.play(Cell(reply)) != Outcome::None)
        return in.fail("bad book reply " + std::to_string(reply));
      if (!node(node, next)) return false;
    }
  };
  auto node = [&](auto& self, Board b) -> bool {
    unsigned move = 0, more = 0;
    if (!readCell(move) || !in.read(kBookFlagBits, more)) return false;
    if (!b.isLegal(Cell(move))) return in.fail("illegal book move " + std::to_string(move));
    onMove(b, Cell(move));
    if (b.play(Cell(move)) != Outcome::None && more) return in.fail("replies after a final move");
    return !more || replies(self, b);
  };
  unsigned version = 0, hasRoot = 0;
  bool ok = in.read(kBookVersionBits, version) && in.read(kBookFlagBits, hasRoot);
  if (ok && version != kBookVersion) {
    error = "book format version " + std::to_string(version) + ", expected " + std::to_string(kBookVersion);
    return false;
  }
  ok = ok && (!hasRoot || node(node, Board())) && replies(node, Board());
  if (ok && !in.atEnd()) ok = in.fail("characters left after the book");
  if (!ok) error = "invalid book: " + in.error();
  return ok;
}

}  // namespace yav
