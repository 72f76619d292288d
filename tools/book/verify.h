// Verification of the book: every position the packer would ship is re-searched by the deep
// engine (engine.h deepEvaluate, or any evaluator), and a book move is replaced by the deep
// search's best move when the deep search proves it lost or rates it more than `margin` below its
// best (dropped when the best is lost too). Verdicts are cached in the database per engine key.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <functional>
#include <ostream>
#include <string>
#include <unordered_set>
#include <vector>

#include "tools/book/engine.h"
#include "tools/book/pack.h"

namespace yav::book {

// Evaluates a position (the canonical board of a key); moves in that board's orientation.
using DeepEvaluator = std::function<DeepVerdict(const Board&)>;

struct VerifyOptions {
  std::string engineKey;        // cache key: engine version + budget (DeepLimits::key())
  double margin = 0.1;          // replace a move rated this much below the deep search's best
  DeepEvaluator evaluate;       // null: cached verdicts only (nothing is searched)
};

struct VerifyReport {
  size_t searched = 0;      // positions evaluated now (the rest came from the cache)
  size_t unverified = 0;    // shipped positions without a verdict (no evaluator)
  size_t replacedLost = 0;  // book move proven lost: replaced by the deep search's best
  size_t replacedWorse = 0; // rated more than the margin below the best: replaced
  size_t dropped = 0;       // no acceptable move: the position leaves the book
  size_t conflicts = 0;     // the database proves the move won, the deep search proves it lost: kept
  std::vector<std::string> changes;  // one line per change, for the log
};

// Verifies the book moves of `positions` (canonical keys). Returns true when a choice changed.
inline bool verifyChoices(Database& db, Choices& choices, const std::vector<PositionKey>& positions,
                          const VerifyOptions& opt, VerifyReport& report, std::ostream* log = nullptr) {
  bool changed = false;
  // Progress: the positions still to search (done/total, rate, ETA), one line every 10.
  size_t toSearch = 0, done = 0;
  if (opt.evaluate)
    for (const PositionKey& key : positions) toSearch += choices.count(key) && !db.verdict(opt.engineKey, key);
  const auto start = std::chrono::steady_clock::now();
  auto progress = [&] {
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double perHour = double(done) * 3600.0 / std::max(seconds, 1e-3);
    const double eta = double(toSearch - done) * 3600.0 / std::max(perHour, 1e-9);
    char line[160];
    std::snprintf(line, sizeof line, "verified %zu/%zu positions, %.0f positions/h, elapsed %s, ETA %s (at %s)\n",
                  done, toSearch, perHour, hoursMinutes(seconds).c_str(), hoursMinutes(eta).c_str(),
                  clockTime(std::time(nullptr) + std::time_t(eta)).c_str());
    *log << line << std::flush;
  };
  for (const PositionKey& key : positions) {
    auto it = choices.find(key);
    if (it == choices.end()) continue;
    const DeepVerdict* v = db.verdict(opt.engineKey, key);
    if (!v && opt.evaluate) {
      db.setVerdict(opt.engineKey, key, canonicalVerdict(opt.evaluate(boardOf(key)), boardOf(key)));
      v = db.verdict(opt.engineKey, key);
      ++report.searched;
      if (log && (++done % 10 == 0 || done == toSearch)) progress();
    }
    const DeepMove* mine = v ? v->find(it->second.move) : nullptr;
    if (!mine) {
      ++report.unverified;
      continue;
    }
    const DeepMove* best = v->find(v->best);
    const bool root = key == PositionKey{};  // the first move is the swap table's: only a proof overrides it
    const bool lost = mine->proof == Proof::Loss;
    if (it->second.proven) {
      report.conflicts += lost;
      continue;
    }
    const bool worse = !root && best && best->move != mine->move && mine->value < best->value - opt.margin &&
                       best->proof != Proof::Loss;
    if (!lost && !worse) continue;
    const Board b = boardOf(key);
    const Canonical c = canonicalize(b);
    std::string line = "  " + std::to_string(b.stoneCount()) + " stones, player " + std::to_string(b.toMove() + 1) +
                       ": book move " + cellName(c.fromCanonical(mine->move)) + " (deep " +
                       (lost ? std::string("proven lost") : std::to_string(mine->value).substr(0, 5)) + ")";
    if (best && best->proof != Proof::Loss && best->move != mine->move) {
      line += " -> " + cellName(c.fromCanonical(best->move)) + " (deep " + std::to_string(best->value).substr(0, 5) + ")";
      it->second.move = best->move;
      it->second.proven = best->proof == Proof::Win;
      it->second.bound = best->value;
      ++(lost ? report.replacedLost : report.replacedWorse);
    } else {
      line += " -> dropped (no move the deep search rates better)";
      choices.erase(it);
      ++report.dropped;
    }
    report.changes.push_back(line);
    changed = true;
  }
  return changed;
}

}  // namespace yav::book
