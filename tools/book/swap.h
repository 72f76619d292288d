// The swap table: the first move chosen by minimax over evidence. For each of the 9 classes of
// first moves, the second player's best answer (the steal or a reply) by its lower confidence
// bound, and the first player's value after that answer; the first move is the class whose value
// after the opponent's best answer has the best lower bound. A class is rated only when its steal
// has evidence (enough games or a proof), so a move that is good only if nobody steals it is never
// picked.
#pragma once

#include <vector>

#include "tools/book/pack.h"

namespace yav::book {

// The same games seen from the other player.
inline MoveStats flipped(const MoveStats& m) {
  MoveStats f = m;
  f.halfPoints = 2 * m.games - m.halfPoints;
  f.proof = flipProof(m.proof);
  return f;
}

struct SwapRow {
  Cell first = kNoCell;         // the class's lowest cell on the empty board
  MoveStats steal;              // the steal, for the second player (games 0 when never played)
  MoveStats reply;              // the second player's best non-steal answer by lower bound
  double stealBound = 0, replyBound = 0;  // for the second player (-2: too few games)
  Cell answer = kNoCell;        // the best answer (actual orientation; the steal is `first`)
  bool rated = false;
  bool provenWin = false, provenLoss = false;  // for the first player
  MoveStats value;              // the first player's record after `answer`
  double bound = 0;             // its lower bound (1 for a proven win, 0 for a proven loss)
};

struct SwapTable {
  std::vector<SwapRow> rows;
  int pick = -1;  // index into rows, -1 when no class is rated above the threshold
};

inline SwapTable swapTable(const Database& db, const PackOptions& opt) {
  SwapTable table;
  for (Cell first : moveClasses(Board())) {
    SwapRow row;
    row.first = first;
    Board after;
    after.play(first);
    const Canonical c = canonicalize(after);
    const PositionStats* stats = db.find(c.key);
    const Cell stealName = c.toCanonical(first);
    bool anyWin = false, allLost = stats != nullptr;
    const double kNone = -2;  // below every bound
    double bestBound = kNone;
    row.replyBound = kNone;
    const MoveStats* best = nullptr;
    if (stats) {
      for (const MoveStats& m : stats->moves) {
        anyWin |= m.proof == Proof::Win;
        allLost &= m.proof == Proof::Loss;
        const bool usable = m.games >= opt.minGames && m.proof != Proof::Loss;
        const double bound = usable ? lowerBound(m, opt) : kNone;
        if (m.move == stealName) row.steal = m, row.stealBound = bound;
        else if (usable && bound > row.replyBound) row.reply = m, row.replyBound = bound;
        if (usable && bound > bestBound) best = &m, bestBound = bound;
      }
      for (const MoveStats& m : stats->moves)
        if (m.proof == Proof::Win) best = &m;
      allLost &= stats->moves.size() == moveClasses(after).size();
    }
    if (anyWin) {
      row.rated = row.provenLoss = true;
    } else if (allLost) {
      row.rated = row.provenWin = true, row.bound = 1;
    } else if (best && (row.steal.games >= opt.minGames || row.steal.proof != Proof::Unknown)) {
      row.rated = true;
    }
    if (best) {
      row.answer = c.fromCanonical(best->move);
      row.value = flipped(*best);
      if (!row.provenWin && !row.provenLoss) row.bound = lowerBound(row.value, opt);
    }
    table.rows.push_back(row);
  }
  for (size_t i = 0; i < table.rows.size(); ++i) {
    const SwapRow& r = table.rows[i];
    if (r.rated && !r.provenLoss && (r.provenWin || r.bound > opt.threshold) &&
        (table.pick < 0 || r.bound > table.rows[size_t(table.pick)].bound))
      table.pick = int(i);
  }
  return table;
}

// The book's first move becomes the swap table's pick (none when nothing is rated).
inline void applySwapTable(Choices& choices, const SwapTable& table, const Database& db) {
  choices.erase(PositionKey{});
  if (table.pick < 0) return;
  const SwapRow& r = table.rows[size_t(table.pick)];
  const PositionStats* root = db.find(PositionKey{});
  choices[PositionKey{}] = BookChoice{canonicalize(Board()).toCanonical(r.first), r.bound, r.provenWin,
                                      root ? root->games() : 0};
}

}  // namespace yav::book
