// The project's search (src/search.h) as the book's deep engine, and its version string. The
// version is recorded with every run and is part of the verdicts' key (DeepLimits::key), so that
// a stronger engine starts a new book: change it whenever src/search.h changes how it plays.
#pragma once

#include <algorithm>
#include <string>

#include "rule_moves.h"
#include "search.h"
#include "tools/book/database.h"

namespace yav::book {

constexpr const char* kBookEngineVersion = "yav-search-rave-forcing-1";

// The database keeps no draws (a proven draw is stored as unknown).
inline Proof storedProof(Proof p) { return p == Proof::Draw ? Proof::Unknown : p; }

// A search's result as the database keeps it: the move chosen and every root move's value,
// visits and proof (board orientation, for the player to move).
inline DeepVerdict verdictOf(const SearchResult& r) {
  DeepVerdict v;
  v.best = r.move;
  for (const RootMove& m : r.children) v.moves.push_back({m.move, float(m.value), storedProof(m.proof), m.visits});
  return v;
}

// The deep engine: one long search of a position (the bot's search with the forcing solver,
// plus the exact endgame solver of the offline analyses). It values the book's positions for
// growing the book (grow.h). This is the one place to strengthen; bump kBookEngineVersion when it
// changes, so that the verdicts are searched again.
// Moves in the board's orientation; values and proofs for the player to move.
struct DeepLimits {
  double timeMs = 1000;     // per position
  uint64_t iterations = 0;  // fixed iterations instead (deterministic for a given seed)
  uint64_t seed = 1;
  size_t nodes = size_t(4) << 20;
  // The verdicts' key in the database: a verdict counts only for the same engine and budget.
  std::string key() const {
    return std::string(kBookEngineVersion) + "/" +
           (iterations ? std::to_string(iterations) + "it" : std::to_string(uint64_t(timeMs)) + "ms");
  }
};

// Keeps one search (and its node pool) across positions: allocating the pool per position would
// cost more than a short search. Each position starts from an empty tree, so a verdict does not
// depend on what was searched before.
class DeepSearcher {
 public:
  explicit DeepSearcher(const DeepLimits& limits)
      : limits_(limits), search_(limits.nodes, SearchOptions::deepAnalysis()) {}

  DeepVerdict evaluate(const Board& b, uint64_t seed) {
    search_.reset();
    SearchLimits l;
    l.timeMs = limits_.iterations ? 0 : limits_.timeMs;
    l.iterations = limits_.iterations;
    l.seed = seed;
    const SearchResult r = search_.run(b, l);
    DeepVerdict v = verdictOf(r);
    // A root solved before any iteration has no children: its move carries the proof.
    if (r.solvedMove != kNoCell && !v.find(r.solvedMove))
      v.moves.push_back({r.solvedMove, provenValue(r.proof), storedProof(r.proof), 0});
    // Moves the search never expands are decided by the rules (rule_moves.h): a win now, or a
    // loss now or next (our own 3, or leaving the opponent's win open).
    const RuleMoves rules = ruleMoves(b);
    for (Bitboard legal = b.legalMoves(); legal;) {
      const Cell c = popLowest(legal);
      if (v.find(c)) continue;
      if (rules.wins >> c & 1)
        v.moves.push_back({c, 1.0f, Proof::Win, 0});
      else if (!(rules.sensible >> c & 1))
        v.moves.push_back({c, 0.0f, Proof::Loss, 0});
    }
    if (!v.find(v.best) && !v.moves.empty()) v.best = v.moves.front().move;
    return v;
  }

 private:
  DeepLimits limits_;
  Search search_;
};

// A verdict in canonical moves for the canonical board of `key`.
inline DeepVerdict canonicalVerdict(const DeepVerdict& v, const Board& canonicalBoard) {
  const Canonical c = canonicalize(canonicalBoard);
  DeepVerdict out;
  out.best = c.toCanonical(v.best);
  for (const DeepMove& m : v.moves) {
    const Cell name = c.toCanonical(m.move);
    auto seen = std::find_if(out.moves.begin(), out.moves.end(), [&](const DeepMove& d) { return d.move == name; });
    if (seen == out.moves.end())
      out.moves.push_back({name, m.value, m.proof, m.visits});
    else if (m.value > seen->value)
      *seen = {name, m.value, m.proof, m.visits};  // equivalent moves: keep the better estimate
  }
  return out;
}

}  // namespace yav::book
