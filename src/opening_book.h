// The opening book the bot carries: decoded once from the embedded text, then one canonical
// lookup per turn (the 12 symmetries of the position are tried through its canonical form).
//
// Bit format (version 1), see docs/book.md. `node(b)` is a position where the book moves:
//   book    = version:3  hasFirstPlayerRoot:1  [node(empty board)]  replies(empty board)
//   node(b) = move:6  hasReplies:1  [replies(b + move)]
//   replies = { reply:6  node(b + reply) }*  63:6
// A move or reply is a cell (a steal names the opponent's stone). Each position is written once
// even when several move orders reach it; the decoder keeps a canonical position -> move map.
#pragma once

#include <optional>
#include <string>
#include <unordered_map>

#include "book_codec.h"
#include "symmetry.h"

namespace yav {

constexpr unsigned kBookFormatVersion = 1;
constexpr unsigned kBookEndOfReplies = 63;

struct PositionKeyHash {
  size_t operator()(const PositionKey& k) const {
    uint64_t h = k.mine * 0x9E3779B97F4A7C15ull ^ (k.theirs + k.stealAvailable) * 0xC2B2AE3D27D4EB4Full;
    return size_t(h ^ h >> 29);
  }
};

class OpeningBook {
 public:
  // Replaces the book by the decoded text; on failure the book is empty and `error` says why.
  bool load(const std::string& encoded, std::string& error) {
    moves_.clear();
    error_.clear();
    if (encoded.empty()) return true;
    BookBitReader in(encoded);
    unsigned version = 0, hasRoot = 0;
    bool ok = in.read(3, version) && in.read(1, hasRoot);
    if (ok && version != kBookFormatVersion) {
      error = "book format version " + std::to_string(version) + ", expected " + std::to_string(kBookFormatVersion);
      moves_.clear();
      return false;
    }
    ok = ok && (!hasRoot || node(in, Board())) && replies(in, Board());
    if (ok && !in.atEnd()) ok = fail("characters left after the book");
    if (!ok) {
      error = in.error().empty() ? "invalid book: " + error_ : "invalid book: " + in.error();
      moves_.clear();
      return false;
    }
    return true;
  }

  // The book move for the side to move, mapped into this position's orientation.
  std::optional<Cell> lookup(const Board& b) const {
    const Canonical c = canonicalize(PositionKey::of(b));
    auto it = moves_.find(c.key);
    if (it == moves_.end()) return std::nullopt;
    const Cell move = transformCell(inverseTransform(c.transform), it->second);
    if (!b.isLegal(move)) return std::nullopt;
    return move;
  }

  size_t size() const { return moves_.size(); }
  // Canonical position -> move in the canonical orientation.
  const std::unordered_map<PositionKey, Cell, PositionKeyHash>& entries() const { return moves_; }

 private:
  bool node(BookBitReader& in, Board b) {
    unsigned move = 0, more = 0;
    if (!in.read(6, move) || !in.read(1, more)) return false;
    if (!b.isLegal(Cell(move))) return fail("illegal book move " + std::to_string(move));
    const Canonical c = canonicalize(PositionKey::of(b));
    moves_.emplace(c.key, transformCell(c.transform, Cell(move)));
    if (b.play(Cell(move)) != Outcome::None && more) return fail("replies after a final move");
    return !more || replies(in, b);
  }
  bool replies(BookBitReader& in, const Board& b) {
    for (unsigned reply = 0;;) {
      if (!in.read(6, reply)) return false;
      if (reply == kBookEndOfReplies) return true;
      Board next = b;
      if (!b.isLegal(Cell(reply)) || next.play(Cell(reply)) != Outcome::None)
        return fail("bad book reply " + std::to_string(reply));
      if (!node(in, next)) return false;
    }
  }
  bool fail(const std::string& why) {
    error_ = why;
    return false;
  }

  std::unordered_map<PositionKey, Cell, PositionKeyHash> moves_;
  std::string error_;
};

}  // namespace yav
