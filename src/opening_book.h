// The opening book the bot carries: decoded once from the embedded text (format in
// book_format.h), then one canonical lookup per turn (the 12 symmetries of the position are tried
// through its canonical form). Each position is stored once even when several move orders reach it.
#pragma once

#include <optional>
#include <string>
#include <unordered_map>

#include "book_format.h"
#include "symmetry.h"

namespace yav {

class OpeningBook {
 public:
  // Replaces the book by the decoded text; on failure the book is empty and `error` says why.
  bool load(const std::string& encoded, std::string& error) {
    moves_.clear();
    const bool ok = decodeBook(
        encoded,
        [&](const Board& b, Cell move) {
          const Canonical c = canonicalize(b);
          moves_.emplace(c.key, c.toCanonical(move));
        },
        error);
    if (!ok) moves_.clear();
    return ok;
  }

  // The book move for the side to move, mapped into this position's orientation.
  std::optional<Cell> lookup(const Board& b) const {
    const Canonical c = canonicalize(b);
    auto it = moves_.find(c.key);
    if (it == moves_.end()) return std::nullopt;
    const Cell move = c.fromCanonical(it->second);
    if (!b.isLegal(move)) return std::nullopt;
    return move;
  }

  size_t size() const { return moves_.size(); }
  // Canonical position -> canonical move.
  const std::unordered_map<PositionKey, Cell, PositionKeyHash>& entries() const { return moves_; }

 private:
  std::unordered_map<PositionKey, Cell, PositionKeyHash> moves_;
};

}  // namespace yav
