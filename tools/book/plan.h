// What the packer ships, computed one way for every tool (bookpack, bookgen show): one move per
// position (pack.h), the first move from the swap table (swap.h), the deep-search verification
// (verify.h), then the packed book.
#pragma once

#include <cstdlib>
#include <string>

#include "tools/book/pack.h"
#include "tools/book/swap.h"
#include "tools/book/engine.h"
#include "tools/book/verify.h"

namespace yav::book {

struct BookPlan {
  Choices choices;
  SwapTable swap;
  PackedBook packed;
  VerifyReport verify;
};

// Verification (unless `verify` is null) applies cached verdicts to the shipped positions and, with
// an evaluator, searches those without one (stored in `db`). A replaced move can make new
// positions reachable, so packing and verifying repeat until nothing changes.
inline BookPlan planBook(Database& db, const PackOptions& opt, const VerifyOptions* verify = nullptr,
                         std::ostream* log = nullptr) {
  BookPlan plan;
  plan.choices = chooseMoves(db, opt);
  plan.swap = swapTable(db, opt);
  applySwapTable(plan.choices, plan.swap, db);
  plan.packed = packBook(plan.choices, opt.budgetChars);
  for (int round = 0; verify && round < 50; ++round) {
    std::vector<PositionKey> shipped;
    for (const Board& b : plan.packed.boards) shipped.push_back(canonicalize(b).key);
    VerifyReport report;
    const bool changed = verifyChoices(db, plan.choices, shipped, *verify, report, log);
    plan.verify.searched += report.searched;
    plan.verify.replacedLost += report.replacedLost;
    plan.verify.replacedWorse += report.replacedWorse;
    plan.verify.dropped += report.dropped;
    plan.verify.changes.insert(plan.verify.changes.end(), report.changes.begin(), report.changes.end());
    plan.verify.unverified = report.unverified;  // of the last round: what ships unverified
    plan.verify.conflicts = report.conflicts;
    if (!changed) break;
    plan.packed = packBook(plan.choices, opt.budgetChars);
  }
  return plan;
}

// The packer's options shared by bookpack and bookgen show; false when `arg` is not one of them
// (`bad` set when it is one but the value is wrong).
inline bool parsePackOption(const std::string& arg, const std::string& value, PackOptions& opt, bool& bad) {
  char* end = nullptr;
  const double v = std::strtod(value.c_str(), &end);
  const bool number = end != value.c_str() && *end == '\0' && v >= 0;
  bad = false;
  if (arg == "--bound") return bad = value != "linear" && value != "wilson", opt.wilson = value == "wilson", true;
  if (arg != "--min-games" && arg != "--margin" && arg != "--threshold" && arg != "--budget") return false;
  if (!number) return bad = true, true;
  if (arg == "--min-games") opt.minGames = uint32_t(v);
  if (arg == "--margin") opt.margin = v;
  if (arg == "--threshold") opt.threshold = v;
  if (arg == "--budget") opt.budgetChars = size_t(v);
  return true;
}

// The verification settings shared by bookpack and bookgen show (they make the cache key).
struct VerifySettings {
  DeepLimits limits;
  double margin = 0.1;
  VerifyOptions options(DeepEvaluator evaluate = nullptr) const {
    VerifyOptions o;
    o.engineKey = limits.key();
    o.margin = margin;
    o.evaluate = std::move(evaluate);
    return o;
  }
};
inline bool parseVerifyOption(const std::string& arg, const std::string& value, VerifySettings& s, bool& bad) {
  char* end = nullptr;
  const double v = std::strtod(value.c_str(), &end);
  bad = !(end != value.c_str() && *end == '\0' && v >= 0);
  if (arg == "--verify-ms") s.limits.timeMs = v, s.limits.iterations = 0, bad |= v <= 0;
  else if (arg == "--verify-iterations") s.limits.iterations = uint64_t(v), bad |= v < 1;
  else if (arg == "--verify-margin") s.margin = v;
  else return bad = false, false;
  return true;
}
inline const char* verifyOptionsHelp() {
  return "  --verify-ms MS        deep search time per position; part of the verdict cache key [1000]\n"
         "  --verify-iterations N fixed iterations instead of time (deterministic) [off]\n"
         "  --verify-margin M     replace a book move rated more than M below the deep search's best [0.1]\n";
}

inline const char* packOptionsHelp() {
  return "  --min-games N         games a move needs unless proven won [10]\n"
         "  --bound linear|wilson lower confidence bound: win rate - K/sqrt(n), or Wilson with z = K [linear]\n"
         "  --margin K            K of the bound [2]\n"
         "  --threshold T         a move is shipped only when its bound is above T [0.2]\n"
         "  --budget CHARS        book text limit in characters (UTF-16 units) [40000]\n";
}

}  // namespace yav::book
