// The move prior's training data (docs/move_prior.md): positions of self-play games
// with the visits that a long search of each gave the root's moves.
//
// File format (text, '#' lines are comments, each game opens with "# game N"):
//   MINE THEIRS LAST CELL:VISITS CELL:VISITS ...
// MINE and THEIRS: the stones of the side to move and of the opponent as 16 hex digits (bit i:
// cell i), in the canonical frame (symmetry.h); LAST: the opponent's last stone in that frame (-1
// when unknown); then every move the search considered with its visits. Positions where the rules
// decide the move (a win, a single block, one sensible move) and proven ones are not written: the
// search needs no prior there.
#pragma once

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <unordered_set>
#include <vector>

#include "playout.h"
#include "rule_moves.h"
#include "search.h"
#include "symmetry.h"
#include "tools/book/database.h"
#include "tools/common/moves_text.h"

namespace yav::train {

struct PolicyRow {
  PositionKey key;  // canonical, no steal
  Cell last = kNoCell;
  std::vector<std::pair<Cell, uint32_t>> visits;  // (cell, visits), every searched move
  int stones() const { return popcount(key.mine | key.theirs); }
  uint32_t totalVisits() const {
    uint32_t n = 0;
    for (const auto& v : visits) n += v.second;
    return n;
  }
  Cell mostVisited() const {
    Cell best = kNoCell;
    uint32_t most = 0;
    for (const auto& v : visits)
      if (v.second > most || best == kNoCell) most = v.second, best = v.first;
    return best;
  }
};

inline std::string policyLine(const PolicyRow& r) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%016" PRIx64 " %016" PRIx64 " %d", r.key.mine, r.key.theirs, int(r.last));
  std::string line = buf;
  for (const auto& v : r.visits) line += " " + std::to_string(int(v.first)) + ":" + std::to_string(v.second);
  return line + "\n";
}

// Parses one line; false with `error` on anything but a row of disjoint stones and moves on empty cells.
inline bool parsePolicyRow(const std::string& line, PolicyRow& r, std::string& error) {
  std::istringstream in(line);
  std::string mine, theirs, item;
  int last = 0;
  if (!(in >> mine >> theirs >> last) || mine.size() != 16 || theirs.size() != 16)
    return error = "expected 'MINE THEIRS LAST CELL:VISITS...'", false;
  char* end = nullptr;
  r.key = {};
  r.key.mine = std::strtoull(mine.c_str(), &end, 16);
  if (*end) return error = "MINE is not 16 hex digits", false;
  r.key.theirs = std::strtoull(theirs.c_str(), &end, 16);
  if (*end) return error = "THEIRS is not 16 hex digits", false;
  const Bitboard stones = r.key.mine | r.key.theirs;
  if ((r.key.mine & r.key.theirs) || (stones & ~kFullBoard))
    return error = "stones off the board or on both sides", false;
  if (last < -1 || last >= kCells || (last >= 0 && !(r.key.theirs >> last & 1)))
    return error = "LAST is not one of the opponent's stones", false;
  r.last = Cell(last);
  r.visits.clear();
  while (in >> item) {
    int cell = 0;
    unsigned visits = 0, used = 0;
    if (std::sscanf(item.c_str(), "%d:%u%n", &cell, &visits, &used) != 2 || used != item.size() || cell < 0 ||
        cell >= kCells || (stones >> cell & 1))
      return error = "'" + item + "' is not CELL:VISITS of an empty cell", false;
    r.visits.push_back({Cell(cell), visits});
  }
  if (r.visits.size() < 2) return error = "fewer than two moves", false;
  return true;
}

// Every row of `path`, in the order of the games' numbers (the file holds them in the order they
// finished); false with `error` naming the line on the first bad one.
inline bool readPolicyRows(const std::string& path, std::vector<PolicyRow>& out, std::string& error) {
  std::ifstream in(path);
  if (!in) return error = path + ": cannot open", false;
  std::string line;
  std::vector<std::pair<long, PolicyRow>> rows;
  long game = -1;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.empty() || line[0] == '#') {
      std::sscanf(line.c_str(), "# game %ld", &game);
      continue;
    }
    PolicyRow r;
    if (!parsePolicyRow(line, r, error)) return error = path + ":" + std::to_string(n) + ": " + error, false;
    rows.push_back({game, std::move(r)});
  }
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& r : rows) out.push_back(std::move(r.second));
  return true;
}

// One row per symmetry class: the first of each canonical key.
inline std::vector<PolicyRow> distinctRows(const std::vector<PolicyRow>& rows) {
  std::unordered_set<PositionKey, PositionKeyHash> seen;
  std::vector<PolicyRow> out;
  for (const PolicyRow& r : rows)
    if (seen.insert(r.key).second) out.push_back(r);
  return out;
}

// The database's deep searches as rows (the opening, where self-play games hold few positions):
// each verdict with a choice to make (not proven, no win or forced block) and at least `minVisits`
// visits in all, its moves' visits as the search left them, no last stone. Sorted by key.
inline std::vector<PolicyRow> databaseRows(const book::Database& db, uint32_t minVisits) {
  std::vector<PolicyRow> out;
  for (const auto& [engine, entries] : db.verdicts())
    for (const auto& [key, verdict] : entries) {
      if (key.stealAvailable) continue;
      const Board b = book::boardOf(key);
      const RuleMoves rules = ruleMoves(b);
      if (rules.won() || rules.mustBlock() || !severalCells(rules.sensible)) continue;
      PolicyRow row{canonicalize(key).key, kNoCell, {}};
      if (row.key != key) continue;  // the database's keys are canonical
      bool proven = false;
      for (const book::DeepMove& m : verdict.moves) {
        proven |= m.proof == Proof::Win;
        if (m.move >= 0 && m.move < kCells && (rules.sensible >> m.move & 1)) row.visits.push_back({m.move, m.visits});
      }
      if (proven || row.visits.size() < 2 || row.totalVisits() < minVisits) continue;
      out.push_back(std::move(row));
    }
  std::sort(out.begin(), out.end(), [](const PolicyRow& a, const PolicyRow& b) { return a.key < b.key; });
  return out;
}

struct PolicyDataOptions {
  uint64_t iterations = 300000;  // the long search of each position (a later turn: about 30,000)
  uint64_t seed = 1;
  double randomShare = 0.05;  // this share of moves is a random sensible move (variety)
  // Even games start from one uniformly random stone (the steal keeps them undecided), odd games
  // from these lines of moves (the positions where arena games left the book), in turn.
  std::vector<std::string> starts;
};

// One game: a row for each position where the search had a choice to make.
inline std::string policyGameRows(const PolicyDataOptions& opt, uint64_t game) {
  Rng rng(mix64(opt.seed * 0x9E3779B97F4A7C15ull + game));
  Search search(kDefaultNodes, SearchOptions());  // the bot's search, without the turn prover
  Board b;
  Cell last = kNoCell;
  std::string error;
  if (game % 2 == 1 && !opt.starts.empty())
    playMoves(opt.starts[size_t(game / 2 % opt.starts.size())], b, error);
  else
    b.play(last = randomCell(b.empty(), rng));
  std::string rows;
  while (b.empty()) {
    const RuleMoves rules = ruleMoves(b);
    SearchLimits limits;
    limits.iterations = opt.iterations;
    limits.seed = rng.next();
    search.reset();
    const SearchResult r = search.run(b, limits);
    if (r.proof != Proof::Unknown) break;  // the rest of a decided game needs no prior
    const SearchTree& tree = search.tree();
    const SearchNode& root = tree[tree.root()];
    if (!b.canSteal() && !rules.mustBlock() && severalCells(rules.sensible) && root.firstChild) {
      const Canonical c = canonicalize(b);
      PolicyRow row{c.key, transformCell(c.transform, last), {}};
      for (uint32_t i = root.firstChild; i < root.firstChild + root.childCount; ++i)
        row.visits.push_back({transformCell(c.transform, tree[i].move), tree[i].visits});
      rows += policyLine(row);
    }
    Cell move = r.move;
    if (rng.below(1000) < uint32_t(opt.randomShare * 1000) && rules.sensible && !rules.mustBlock())
      move = randomCell(rules.sensible, rng);
    if (b.play(move) != Outcome::None) break;
    last = move;
  }
  return rows;
}

}  // namespace yav::train
