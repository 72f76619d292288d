// Book database files of older versions, as the previous generators wrote them: the migration
// tests (test_book_db.cpp) and the fuzzer (test_fuzz.cpp) start from them. Version 2 is the
// current writer's (serializeDatabase(db, 2)); version 1 had no runs and no verdicts.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "tools/book/db_folder.h"

namespace yav::book {

// The version-1 layout (no runs), as the previous generator wrote it.
inline std::string versionOneBytes(const Database& db) {
  using namespace dbfile;
  std::vector<const Database::Map::value_type*> order;
  for (const auto& e : db.map()) order.push_back(&e);
  std::sort(order.begin(), order.end(), [](auto* a, auto* b) { return a->first < b->first; });
  std::string out(kDatabaseMagic, 8);
  put(out, 1, 4);
  put(out, db.games(), 8);
  put(out, order.size(), 8);
  for (const auto* e : order) {
    putPositionHead(out, e->first, e->second);
    for (const auto& m : e->second.moves) {
      putMoveHead(out, m);
      putVarint(out, m.games);
      putVarint(out, m.halfPoints);
    }
  }
  put(out, fnv1a(out, out.size()), 8);
  return out;
}


}  // namespace yav::book
