// The shipped book's moves held to a proof: for a book position and its move, does the opponent
// win by force after it, within a small budget of the bot's own proof search (turn_prover.h)?
// A book move that the opponent refutes at once is a hole the deep searches left: the database
// valued the move by a search, and the position after it was never searched (a hole found that
// way cost games: docs/experiments/2026-12-where-games-are-lost.md). `bookgen audit` runs this
// over every shipped position and records what it proves, so that a re-pack plays around it.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "board.h"
#include "rule_moves.h"
#include "turn_prover.h"

namespace yav::book {

struct AuditFinding {
  enum class Kind {
    Sound,  // the book move is not refuted within the budget
    Hole,   // it is refuted, and another move is not (or wins: `win`)
    Lost,   // it is refuted, and so is every other move: the position is lost
  };
  Kind kind = Kind::Sound;
  Cell refutation = kNoCell;                         // the opponent's winning reply to the book move
  Cell win = kNoCell;                                // a move proven to win at the book position (Hole only)
  int others = 0;                                    // the position's other sensible moves (Hole, Lost)
  int othersNotRefuted = 0;                          // of those, the ones the budget did not refute
  Cell otherNotRefuted = kNoCell;                    // the first of them
  std::vector<std::pair<Cell, Cell>> refutedOthers;  // the other moves refuted: (move, its refutation)
};

// Audits `move` at `position` (a legal move that does not end the game), with at most
// `expansions` expansions of the proof search per question asked. One fresh search per call
// (its table starts empty), so the answer depends on the position and the budget alone, whatever
// else is audited.
inline AuditFinding auditBookMove(const Board& position, Cell move, uint64_t expansions) {
  TurnProver prover(16);
  AuditFinding f;
  Board after = position;
  const Outcome o = after.play(move);
  if (o == Outcome::Win || o == Outcome::Draw) return f;
  if (o == Outcome::None) {  // (a loss: the book move makes its own 3, refuted without a reply)
    f.refutation = prover.winningMove(after, nullptr, 0, expansions);
    if (f.refutation == kNoCell) return f;
  }
  f.win = prover.winningMove(position, nullptr, 0, expansions);
  for (Bitboard s = ruleMoves(position).sensible; s;) {
    const Cell c = popLowest(s);
    if (c == move) continue;
    ++f.others;
    Board b = position;
    const Outcome oc = b.play(c);  // never a loss: a sensible move
    const Cell refutation = oc == Outcome::None ? prover.winningMove(b, nullptr, 0, expansions) : kNoCell;
    if (refutation != kNoCell)
      f.refutedOthers.emplace_back(c, refutation);
    else if (f.othersNotRefuted++ == 0)
      f.otherNotRefuted = c;
  }
  f.kind = f.win != kNoCell || f.othersNotRefuted ? AuditFinding::Kind::Hole : AuditFinding::Kind::Lost;
  return f;
}

}  // namespace yav::book
