// Small books for the codec and fuzz tests: the positions of random self-play lines, each with a
// random legal book move.
#pragma once

#include "board.h"
#include "playout.h"
#include "rng.h"
#include "symmetry.h"
#include "tools/book/pack.h"

namespace yav::testing_books {

inline book::Choices randomChoices(uint64_t seed, int games) {
  Rng rng(seed);
  book::Choices choices;
  for (int g = 0; g < games; ++g) {
    Board b;
    if (g % 2) b.play(randomCell(b.legalMoves(), rng));  // the book moves second
    for (int ply = 0; ply < 8; ++ply) {
      const Canonical f = canonicalize(b);
      auto it = choices.find(f.key);
      if (it == choices.end()) {
        const Cell m = randomCell(b.legalMoves() & ~b.losingCells(b.toMove()), rng);
        it = choices.emplace(f.key, book::BookChoice{f.toCanonical(m), 0.5, false, uint64_t(rng.below(100))}).first;
      }
      if (b.play(f.fromCanonical(it->second.move)) != Outcome::None) break;
      const Cell reply = randomCell(b.legalMoves() & ~b.losingCells(b.toMove()), rng);
      if (b.play(reply) != Outcome::None) break;
    }
  }
  return choices;
}

}  // namespace yav::testing_books
