// Statistics written straight into a book database, for the tests of what is built from them
// (the packer, the verifier).
#pragma once

#include <cstdint>

#include "board.h"
#include "symmetry.h"
#include "tools/book/database.h"

namespace yav::book {

// Adds `games` games, `wins` of them won, to `move` (in b's own orientation) of position b, and
// gives the move `proof`.
inline void addStats(Database& db, const Board& b, Cell move, uint32_t games, uint32_t wins,
                     Proof proof = Proof::Unknown) {
  const Canonical frame = canonicalize(b);
  MoveStats& m = db.at(frame.key).get(frame.toCanonical(move));
  m.add(0, games, 2 * wins);
  m.proof = proof;
}

}  // namespace yav::book
