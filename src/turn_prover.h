// Depth-first proof-number search (df-pn) inside the bot's turn: does the side to move win by force?
// The MCTS-solver proves the wins its tree reaches; a win that needs a few quiet moves before the
// threats often takes df-pn only a few hundred expansions, which 100 ms of MCTS does not find
// (docs/search.md, "Proof search in the turn"). The offline prover (tools/proof/proof_search.h) is
// the same algorithm with a growing table, symmetries, the book's proofs and its move order; this
// one is small enough for the submission and allocates nothing after its construction.
//
// Invariants:
// - The claim is "the attacker, the side to move at the call, wins". An attacker-to-move node is an
//   OR node, the others AND nodes; pn = 0 proven, dn = 0 disproven (the defender wins or draws).
// - Moves are cut by the rules only (rule_moves.h), so a proof is a proof; a new node is settled by
//   the rules or by the threat solver (forcing.h) for its side to move.
// - The numbers live in a lossy table keyed by the position's hash and the attacker, kept between
//   calls, so a later turn goes on from an earlier one's work. A node holds its children's numbers
//   on the stack while it works on them: an evicted slot costs time, never a wrong proof.
#pragma once

#include <algorithm>
#include <cstdint>

#include "board.h"
#include "clock.h"
#include "forcing.h"
#include "rule_moves.h"
#include "transposition_table.h"

namespace yav {

class TurnProver {
 public:
  explicit TurnProver(int tableLog2 = 18) : table_(tableLog2), forcing_(14) {}

  // A move that wins by force for b.toMove(), proven before `untilMs` on `clock` (0: no clock) and
  // within `maxExpansions` more expansions; kNoCell when none was proven.
  Cell winningMove(const Board& b, const Stopwatch* clock, double untilMs, uint64_t maxExpansions) {
    if (const Bitboard wins = b.winningCells(b.toMove())) return lowestCell(wins);
    attacker_ = b.toMove();
    clock_ = clock, untilMs_ = untilMs;
    limit_ = expansions_ + maxExpansions;
    stopped_ = false;
    Cell move = kNoCell;
    return mid(b, kInfinity, kInfinity, &move).pn == 0 ? move : kNoCell;
  }

  uint64_t expansions() const { return expansions_; }

 private:
  static constexpr uint32_t kInfinity = 1u << 30;
  struct Numbers {
    uint32_t pn = 1, dn = 1;
  };

  uint64_t keyOf(const Board& b) const { return b.hash() ^ (attacker_ ? 0x9E3779B97F4A7C15ull : 0); }

  // A new node's numbers: the rules, then the threat solver for its side to move.
  Numbers evaluate(const Board& b) {
    const int me = b.toMove();
    const Numbers attackerWins{0, kInfinity}, noWin{kInfinity, 0};
    const Numbers moverWins = me == attacker_ ? attackerWins : noWin,
                  moverLoses = me == attacker_ ? noWin : attackerWins;
    const RuleMoves r = ruleMoves(b);
    if (r.won()) return moverWins;
    if (severalCells(r.threats) || (r.threats & b.losingCells(me))) return moverLoses;
    if ((b.occupied() | r.threats) == kFullBoard) return noWin;  // the board fills: a draw
    if (r.lost()) return moverLoses;                             // every move makes its own 3
    if (forcing_.solve(b, kForcingDepth, kForcingNodes).win) return moverWins;
    return {};
  }

  bool outOfTime() {
    if (expansions_ >= limit_) stopped_ = true;
    if (clock_ && (expansions_ & 7) == 0 && clock_->elapsedMs() >= untilMs_) stopped_ = true;
    return stopped_;
  }

  // df-pn at b (not settled) below the thresholds; `win` gets the winning move of an OR node proven.
  Numbers mid(const Board& b, uint32_t thpn, uint32_t thdn, Cell* win) {
    ++expansions_;
    const bool orNode = b.toMove() == attacker_;
    Cell moves[kCells];
    Numbers child[kCells];
    int count = 0;
    // The pass test of the bot's tree (search_proofs.h) and of the offline prover: when the mover's
    // opponent wins by a threat sequence after a pass, a new child outside that line's defence zone,
    // or one the line still beats, is won for the opponent without a solve of its own.
    bool passTested = false, opponentWins = false;
    Bitboard zone = 0;
    const Numbers opponentWon = orNode ? Numbers{kInfinity, 0} : Numbers{0, kInfinity};
    for (Bitboard s = ruleMoves(b).sensible; s; ++count) {
      Board c = b;
      const Cell m = moves[count] = popLowest(s);
      if (c.play(m) == Outcome::Draw) {
        child[count] = {kInfinity, 0};
        continue;
      }
      const uint64_t key = keyOf(c);
      if (const Numbers* n = table_.find(key)) {
        child[count] = *n;
        continue;
      }
      if (!passTested) {
        passTested = true;
        const ForcingResult line = forcing_.solve(b.passed(), kForcingDepth, kForcingNodes);
        if ((opponentWins = line.win)) zone = forcing_.passDefence(b, line);
      }
      const bool lost = opponentWins && (!(zone >> m & 1) || forcing_.lineStillWins(c));
      child[count] = table_.store(key) = lost ? opponentWon : evaluate(c);
    }
    Numbers now;
    int best = 0;
    for (;;) {
      uint64_t sum = 0;
      uint32_t least = kInfinity, second = kInfinity;
      for (int i = 0; i < count; ++i) {
        const uint32_t phi = orNode ? child[i].pn : child[i].dn;
        sum += orNode ? child[i].dn : child[i].pn;
        if (phi < least)
          second = least, least = phi, best = i;
        else if (phi < second)
          second = phi;
      }
      const uint32_t total = uint32_t(std::min<uint64_t>(sum, least ? kInfinity - 1 : kInfinity));
      now = orNode ? Numbers{least, least == kInfinity ? 0 : total} : Numbers{least == kInfinity ? 0 : total, least};
      if (!now.pn || !now.dn || now.pn >= thpn || now.dn >= thdn || outOfTime()) break;
      // The 1+epsilon trick: the child works until its number passes its best sibling's by a
      // sixteenth, or until this node's other number would pass its threshold.
      const uint32_t phiLimit = orNode ? thpn : thdn, deltaLimit = orNode ? thdn : thpn;
      const uint32_t childDelta = orNode ? child[best].dn : child[best].pn;
      const uint32_t phi = uint32_t(std::min<uint64_t>(phiLimit, uint64_t(second) + second / 16 + 1));
      const uint32_t delta = uint32_t(std::min<uint64_t>(kInfinity, uint64_t(deltaLimit) + childDelta - total));
      Board c = b;
      c.play(moves[best]);
      child[best] = mid(c, orNode ? phi : delta, orNode ? delta : phi, nullptr);
    }
    if (orNode && !now.pn && win) *win = moves[best];
    table_.store(keyOf(b)) = now;
    return now;
  }

  static constexpr int kForcingDepth = 12;
  static constexpr uint64_t kForcingNodes = 1000;

  TranspositionTable<Numbers> table_;
  ForcingSolver forcing_;
  int attacker_ = 0;
  const Stopwatch* clock_ = nullptr;
  double untilMs_ = 0;
  uint64_t expansions_ = 0, limit_ = 0;
  bool stopped_ = false;
};

}  // namespace yav
