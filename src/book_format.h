// The embedded opening book's format in one place: the character code, the grammar (written once,
// templated on the range coder, so that the packer's writer, tools/book/book_writer.h, and the
// bot's reader run the same code) and the reader. Described in docs/book.md.
//
// Stream (version 4): one byte, the version in its top 3 bits, then a range-coded stream
// (range_coder.h) of `node(b)`, a position where the book moves or a pass node where the opponent
// moves (starts of random openings: the bot first after a random stone, or second after two),
// each followed by the opponent's replies the book covers:
//   book    = hasFirstPlayerRoot:bit  [node(empty board)]  replies(empty board)
//   node(b) = move:6 (a cell, or 62 for a pass node)  replies(b + move)
//   replies = count:6  { gap:6  node(b + reply)  [twice:bit  [node(b + reply)]] }*count
// Replies come in increasing cell order; a reply's gap counts the legal cells between it and the
// previous reply (the first: from cell 0). After a pass (and at the empty board) a reply may lead
// to two nodes: the book's move there, and a pass node where the opponent moves again (`twice`). A move or reply is a
// cell in the board's actual orientation (a steal names the opponent's stone). Every field has its own adaptive model,
// per context (BookModels).
//
// Text: the stream's bytes, 15 bits per character (most significant first, the last character
// padded with zero bits), then two characters holding a 30-bit checksum of the stream's
// characters. A character is a letter of one of three blocks (kBookAlphabet): one UTF-16 unit
// each (CodinGame's count), three bytes in the UTF-8 source, never an escape, quote, control or
// combining character. The text is read from an ordinary narrow string literal as UTF-8.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "board.h"
#include "range_coder.h"

namespace yav {

constexpr unsigned kBookVersion = 4;
constexpr int kBookVersionShift = 5;  // the version is the first byte's top 3 bits
constexpr unsigned kBookPass = 62;    // not a cell: no book move, the replies follow

// ---- character code ----
constexpr int kBookBitsPerChar = 15;
constexpr int kBookChecksumChars = 2;
constexpr int kBookUtf8Bytes = 3;  // every book character

// The 2^15 characters, in value order: the CJK unified ideographs of Unicode 1.1, then those of
// CJK extension A (Unicode 3.0), then the first Hangul syllables (Unicode 2.0). Letters all
// (category Lo), unchanged by NFC and NFKC; a Hangul syllable splits into jamo only under NFD or
// NFKD, which no editor or browser applies to pasted text, and a split text fails the checksum.
struct BookAlphabetBlock {
  unsigned firstCodePoint, size;
};
constexpr BookAlphabetBlock kBookAlphabet[] = {{0x4E00, 20902}, {0x3400, 6582}, {0xAC00, 5284}};
static_assert(20902 + 6582 + 5284 == 1 << kBookBitsPerChar);  // one character per value
// (The character of a value, bookChar, is the writer's: tools/book/book_writer.h.)

// The value of the character at byte `at` of text, or -1 when it is not a book character.
inline int bookValue(const std::string& text, size_t at) {
  if (at + kBookUtf8Bytes > text.size()) return -1;
  const unsigned b0 = uint8_t(text[at]), b1 = uint8_t(text[at + 1]), b2 = uint8_t(text[at + 2]);
  if ((b0 & 0xF0) != 0xE0 || (b1 & 0xC0) != 0x80 || (b2 & 0xC0) != 0x80) return -1;
  const unsigned cp = (b0 & 0x0F) << 12 | (b1 & 0x3F) << 6 | (b2 & 0x3F);
  unsigned before = 0;  // values of the earlier blocks
  for (const BookAlphabetBlock& block : kBookAlphabet) {
    if (cp - block.firstCodePoint < block.size) return int(before + cp - block.firstCodePoint);
    before += block.size;
  }
  return -1;
}
// 30-bit FNV-1a over the stream's character values.
inline uint32_t bookChecksum(const std::vector<uint16_t>& values) {
  uint32_t h = 2166136261u;
  for (uint16_t v : values) h = ((h ^ (v & 0xFF)) * 16777619u ^ (v >> 8)) * 16777619u;
  return h & ((1u << (kBookChecksumChars * kBookBitsPerChar)) - 1);
}

// The stream bytes of a book text, after checking every character, the checksum and that the
// padding is zero. Errors name the character (and its byte offset in the UTF-8 text).
inline std::string bookCharacterWhere(size_t character) {
  return "character " + std::to_string(character) + " (byte " + std::to_string(character * kBookUtf8Bytes) + ")";
}
inline bool bookBytesOf(const std::string& text, std::string& bytes, std::string& error) {
  std::vector<uint16_t> values;
  for (size_t at = 0; at < text.size(); at += kBookUtf8Bytes) {
    const int v = bookValue(text, at);
    if (v < 0) {
      error = (at + kBookUtf8Bytes > text.size() ? "truncated character " : "bad character ") +
              bookCharacterWhere(values.size());
      return false;
    }
    values.push_back(uint16_t(v));
  }
  if (values.size() <= size_t(kBookChecksumChars)) {
    error = "too short for a book (" + std::to_string(values.size()) + " characters)";
    return false;
  }
  const size_t n = values.size() - kBookChecksumChars;
  const uint32_t stored = uint32_t(values[n]) << kBookBitsPerChar | values[n + 1];
  values.resize(n);
  if (stored != bookChecksum(values)) {
    error = "checksum mismatch (damaged or truncated text) at " + bookCharacterWhere(n);
    return false;
  }
  uint32_t buffer = 0;
  int bits = 0;
  for (uint16_t v : values) {
    buffer = buffer << kBookBitsPerChar | v, bits += kBookBitsPerChar;
    for (; bits >= 8; bits -= 8) bytes.push_back(char(buffer >> (bits - 8)));
  }
  if (buffer & ((1u << bits) - 1)) {
    error = "nonzero padding in " + bookCharacterWhere(n - 1);
    return false;
  }
  return true;
}

// ---- the book as a tree ----
// At each node the book plays `move` (kNoCell: a pass node, the opponent moves here); `replies` are
// the opponent's answers the book covers, in increasing cell order, each leading to another node.
// Cells are in the actual orientation of the boards the tree is built on.
struct BookTree {
  struct Node {
    Cell move = kNoCell;
    std::vector<std::pair<Cell, int>> replies;  // reply -> node index
  };
  std::vector<Node> nodes;
  int firstPlayerRoot = -1;                             // node at the empty board, -1 when none
  std::vector<std::pair<Cell, int>> secondPlayerRoots;  // opponent's first move -> node
};

// The adaptive models of the stream's fields, each in its context.
struct BookModels {
  BitModel hasRoot;
  SymbolModel<6> move[2];   // per side to move
  SymbolModel<6> count[2];  // after a book move, after a pass
  SymbolModel<6> gap[2];    // the first reply of a list, a later one
  BitModel twice;           // a reply after a pass leads to a second node
};

// The grammar, both directions: the encoder writes `tree`; the decoder keeps no tree, it checks
// every move and reply on the replayed boards and calls onMove(board, move) for each book
// position. False, with `error` set, only when decoding finds the stream invalid.
template <class Coder>
class BookGrammar {
 public:
  BookGrammar(Coder& coder, BookTree& tree, std::string& error) : c_(coder), t_(tree), error_(error) {}

  template <class OnMove>
  bool book(OnMove&& onMove) {
    uint32_t hasRoot = t_.firstPlayerRoot >= 0;
    c_.bit(m_.hasRoot, hasRoot);
    if (hasRoot && !node(Board(), t_.firstPlayerRoot, onMove)) return false;
    return replies(Board(), t_.secondPlayerRoots, true, false, onMove);
  }

 private:
  template <class OnMove>
  bool node(Board b, int index, OnMove& onMove) {
    auto& n = Coder::kEncoding ? t_.nodes[size_t(index)] : noNode_;
    uint32_t move = n.move == kNoCell ? kBookPass : uint32_t(n.move);
    codeSymbol(c_, m_.move[b.toMove()], move);
    const bool pass = move == kBookPass;
    bool final = false;
    if (!pass) {
      if (move >= kCells || !b.isLegal(Cell(move))) return fail("illegal book move " + std::to_string(move));
      onMove(b, Cell(move));
      final = b.play(Cell(move)) != Outcome::None;
    }
    return replies(b, n.replies, pass, final, onMove);
  }

  // The replies after a book move (or at a pass node, or the empty board: `afterPass`); none after a
  // move that ended the game (`final`). A reply after a pass may lead to two nodes of the same
  // board: the book's move (the bot to move) and a pass (the opponent to move, the bot second).
  template <class OnMove>
  bool replies(const Board& b, std::vector<std::pair<Cell, int>>& list, bool afterPass, bool final, OnMove& onMove) {
    uint32_t count = 0;  // distinct reply cells
    for (size_t i = 0; i < list.size(); ++i) count += i == 0 || list[i].first != list[i - 1].first;
    codeSymbol(c_, m_.count[afterPass], count);
    if (final && count) return fail("replies after a final move");
    if (afterPass && !count && b.stoneCount()) return fail("pass node without replies");
    const Bitboard legal = final ? 0 : b.legalMoves();
    Bitboard after = legal;  // the legal cells above the previous reply
    size_t i = 0;            // the encoder's place in `list`
    for (uint32_t k = 0; k < count; ++k) {
      const Cell given = Coder::kEncoding ? list[i].first : kNoCell;
      uint32_t gap = Coder::kEncoding ? uint32_t(popcount(after & (bit(given) - 1))) : 0;
      codeSymbol(c_, m_.gap[after != legal], gap);
      if (int(gap) >= popcount(after)) return fail("bad book reply");
      const Cell reply = nthCell(after, int(gap));
      after &= ~((bit(reply) << 1) - 1);
      Board next = b;
      if (next.play(reply) != Outcome::None) return fail("bad book reply " + std::to_string(reply));
      for (uint32_t again = 1; again;) {
        if (!node(next, Coder::kEncoding ? list[i].second : -1, onMove)) return false;
        ++i;
        again = Coder::kEncoding && i < list.size() && list[i].first == reply;
        if (afterPass) c_.bit(m_.twice, again);
      }
    }
    return true;
  }

  bool fail(const std::string& why) {
    if constexpr (!Coder::kEncoding) error_ = why + " at " + bookCharacterWhere(c_.position() * 8 / kBookBitsPerChar);
    return false;
  }

  Coder& c_;
  BookTree& t_;
  std::string& error_;
  BookModels m_;
  BookTree::Node noNode_;  // the decoder's node: it keeps no tree, so its fields stay empty
};

// Walks the text, calling onMove(board, move) for every book position (actual orientation of the
// replayed boards). False with `error` set when the text is damaged; the empty text is a valid
// empty book.
template <class OnMove>
bool decodeBook(const std::string& text, OnMove&& onMove, std::string& error) {
  error.clear();
  if (text.empty()) return true;
  std::string bytes;
  bool ok = bookBytesOf(text, bytes, error);
  if (ok && uint8_t(bytes[0]) != kBookVersion << kBookVersionShift) {
    error = "format version " + std::to_string(uint8_t(bytes[0]) >> kBookVersionShift) + " at character 0, expected " +
            std::to_string(kBookVersion);
    ok = false;
  }
  if (ok) {
    RangeDecoder in(bytes, 1, bytes.size());
    BookTree tree;
    ok = BookGrammar<RangeDecoder>(in, tree, error).book(onMove);
    // The stream ends within the text's last character: at most one zero byte of padding follows.
    if (ok && in.overrun())
      ok = false, error = "book ended early at " + bookCharacterWhere(bytes.size() * 8 / kBookBitsPerChar);
    // The first byte the stream did not use, in the character that holds its first bit.
    if (ok && in.position() + (bytes.back() ? 0 : 1) < bytes.size())
      ok = false,
      error = "characters left after the book at " + bookCharacterWhere(in.position() * 8 / kBookBitsPerChar);
  }
  if (!ok) error = "invalid book: " + error;
  return ok;
}

}  // namespace yav
