// What the packer ships, computed one way for every tool (bookpack, bookgen show): one move per
// position (pack.h), the first move from the swap table (swap.h), the deep-search verification
// (verify.h), then the packed book.
#pragma once

#include <cstdint>
#include <string>

#include "tools/book/pack.h"
#include "tools/book/swap.h"
#include "tools/book/engine.h"
#include "tools/book/verify.h"
#include "tools/cli.h"

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

// The packer's options, shared by bookpack and bookgen show.
inline void addPackFlags(cli::Flags& flags, PackOptions& opt) {
  flags.integer("--min-games", "N", opt.minGames, 0, UINT32_MAX, "games a move needs unless proven won")
      .value("--bound", "linear|wilson", "lower confidence bound: win rate - K/sqrt(n), or Wilson with z = K", "linear",
             [&opt](const std::string& v) {
               opt.wilson = v == "wilson";
               return v == "linear" || v == "wilson" ? "" : "--bound expects linear or wilson, got '" + v + "'";
             })
      .number("--margin", "K", opt.margin, 0, cli::kNoMax, "K of the bound")
      .number("--threshold", "T", opt.threshold, 0, cli::kNoMax, "a move is shipped only when its bound is above T")
      .integer("--budget", "CHARS", opt.budgetChars, 0, cli::kNoLimit, "book text limit in characters (UTF-16 units)");
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
inline void addVerifyFlags(cli::Flags& flags, VerifySettings& s) {
  flags
      .value("--verify-ms", "MS", "deep search time per position; part of the verdict cache key",
             cli::numberText(s.limits.timeMs),
             [&s](const std::string& v) {
               if (!cli::toNumber(v, 1e-9, cli::kNoMax, s.limits.timeMs))
                 return cli::Flags::rangeError("--verify-ms", 1e-9, cli::kNoMax, v);
               s.limits.iterations = 0;
               return std::string();
             })
      .integer("--verify-iterations", "N", s.limits.iterations, 1, cli::kNoLimit,
               "fixed iterations instead of time (deterministic)", "off")
      .number("--verify-margin", "M", s.margin, 0, cli::kNoMax,
              "replace a book move rated more than M below the deep search's best");
}

}  // namespace yav::book
