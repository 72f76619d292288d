// A position's stones under all 12 symmetries, kept so that the canonical forms of the positions
// one placement away follow in 12 steps each, instead of mapping every stone again: a proof
// search asks for all of a node's children whenever it enters the node. Tools only: the bot
// does not need it, and src/symmetry.h counts against the submission's size.
#pragma once

#include "symmetry.h"

namespace yav {

struct PositionImages {
  Bitboard mine[kSymmetries], theirs[kSymmetries];
  explicit PositionImages(const PositionKey& p) {
    for (int t = 0; t < kSymmetries; ++t) mine[t] = transformBits(t, p.mine), theirs[t] = transformBits(t, p.theirs);
  }
  // The canonical form of the position after the player to move places a stone on m, for the
  // opponent, who moves there (no steal left).
  Canonical afterPlacement(Cell m) const {
    return canonicalOfImages(
        theirs, [&](int t) { return mine[t] | bit(symmetries().cell[t][m]); }, false);
  }
};

}  // namespace yav
