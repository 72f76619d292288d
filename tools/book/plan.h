// What the packer ships, computed one way for every tool (bookpack, bookgen show): one move per
// position (pack.h), the first move from the swap table (swap.h), then the packed book.
#pragma once

#include <string>

#include "tools/book/pack.h"
#include "tools/book/swap.h"

namespace yav::book {

struct BookPlan {
  Choices choices;
  SwapTable swap;
  PackedBook packed;
};

inline BookPlan planBook(const Database& db, const PackOptions& opt) {
  BookPlan plan;
  plan.choices = chooseMoves(db, opt);
  plan.swap = swapTable(db, opt);
  applySwapTable(plan.choices, plan.swap, db);
  plan.packed = packBook(plan.choices, opt.budgetChars);
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

inline const char* packOptionsHelp() {
  return "  --min-games N         games a move needs unless proven won [10]\n"
         "  --bound linear|wilson lower confidence bound: win rate - K/sqrt(n), or Wilson with z = K [linear]\n"
         "  --margin K            K of the bound [2]\n"
         "  --threshold T         a move is shipped only when its bound is above T [0.2]\n"
         "  --budget CHARS        book text limit in characters (UTF-16 units) [40000]\n";
}

}  // namespace yav::book
