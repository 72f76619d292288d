// bookgen stats: a database's totals, positions and proofs by depth, first moves and answers; its
// runs (by settings, and each one) under --runs.
#pragma once

#include "tools/bookgen/commands.h"
#include "tools/book/graph.h"
#include "tools/book/grow.h"

namespace {  // one translation unit: tools/bookgen/bookgen.cpp

// A run's settings without those that do not change what it finds (threads, shard): the key that
// `bookgen stats` groups runs by.
std::string runSettings(const RunInfo& r) {
  std::istringstream words(r.parameters);
  std::string word, kept = r.engine;
  while (words >> word)
    if (word.rfind("threads=", 0) != 0 && word.rfind("shard=", 0) != 0) kept += " " + word;
  return kept;
}

std::string utcDate(int64_t unix, const char* format) {
  char date[32] = "-";
  const std::time_t t = std::time_t(unix);
  std::tm utc{};
  if (unix > 0 && gmtime_r(&t, &utc)) std::strftime(date, sizeof date, format, &utc);
  return date;
}

int statsCommand(int argc, char** argv) {
  std::string path;
  uint64_t top = 10;
  bool listRuns = false;
  for (int i = 0; i < argc; ++i) {
    const std::string arg = argv[i];
    if ((arg == "--top" || arg == "--db") && i + 1 >= argc) return fail("stats: " + arg + " needs a value");
    if (arg == "--top") {
      if (!cli::toInteger(argv[++i], 0, cli::kNoLimit, top))
        return fail(cli::Flags::rangeError("--top", 0, cli::kNoMax, argv[i]));
      continue;
    }
    if (arg == "--runs") {
      listRuns = true;
      continue;
    }
    if (arg != "--db" && arg.size() > 1 && arg[0] == '-')
      return fail("stats: unknown option '" + arg +
                  "' (bookgen stats [FILE] [--top N] [--runs]; FILE defaults to book/book.db)");
    const std::string file = arg == "--db" ? argv[++i] : arg;  // FILE or --db FILE
    if (!path.empty()) return fail("stats: more than one FILE ('" + path + "', '" + file + "')");
    path = file;
  }
  if (path.empty()) path = "book/book.db";
  // A damaged segment is listed with its error; the others are read.
  Database db;
  std::string error;
  std::vector<SegmentRead> files;
  if (!loadDatabase(path, db, error, &files, true)) {
    std::cerr << "bookgen: " << error << "\n";
    return 1;
  }
  std::map<int, size_t> byStones, provenByStones, searchedByStones, provenSearchedByStones;
  size_t moves = 0;
  for (const auto& [key, stats] : db.map()) {
    moves += stats.moves.size();
    const int stones = popcount(key.mine | key.theirs);
    ++byStones[stones];
    provenByStones[stones] += stats.proof != Proof::Unknown;
  }
  std::cout << path << ": " << db.games() << " games, " << db.positions() << " positions with games, " << moves
            << " moves, " << db.searchedPositions() << " searched positions, " << db.runs().size() << " runs\n";
  uint64_t bytes = 0, damaged = 0;
  for (const SegmentRead& f : files) bytes += f.bytes, damaged += !f.error.empty();
  char size[160];
  std::snprintf(size, sizeof size, "  %s: %.1f MB in %zu file%s, %.0f bytes a searched position\n",
                files.size() > 1 || isDatabaseFolder(path) ? "segments" : "file", double(bytes) / 1e6, files.size(),
                files.size() == 1 ? "" : "s", double(bytes) / double(std::max<size_t>(1, db.searchedPositions())));
  std::cout << size;
  for (const SegmentRead& f : files)
    if (!f.error.empty()) std::cout << "  REFUSED (left out of everything below): " << f.error << "\n";
  // Search-valued books, one per deep-search budget; by depth, the growth's default budget's (or
  // the largest book when there is none).
  std::string depthKey = GrowOptions().deep.key();
  if (!db.verdicts().count(depthKey))
    for (const auto& [engine, verdicts] : db.verdicts())
      if (!db.verdicts().count(depthKey) || verdicts.size() > db.verdicts().at(depthKey).size()) depthKey = engine;
  for (const auto& [engine, verdicts] : db.verdicts()) {
    const BookGraph graph = BookGraph::fromDatabase(db, engine);
    size_t proven = 0;
    for (const BookGraph::Node& n : graph.nodes()) {
      const bool isProven = n.estimate.proof != Proof::Unknown;
      proven += isProven;
      if (engine != depthKey) continue;
      const int stones = popcount(n.key.mine | n.key.theirs);
      ++searchedByStones[stones];
      provenSearchedByStones[stones] += isProven;
    }
    std::cout << "  searched positions of " << engine << ": " << graph.size() << " (" << proven << " proven)\n";
  }
  std::cout << "  by stones: positions with games (proven) | searched positions of " << depthKey << " (proven)\n";
  std::set<int> depths;
  for (const auto& e : byStones) depths.insert(e.first);
  for (const auto& e : searchedByStones) depths.insert(e.first);
  for (int stones : depths) {
    char line[128];
    std::snprintf(line, sizeof line, "    %2d stones: %8zu (%zu) | %8zu (%zu)\n", stones, byStones[stones],
                  provenByStones[stones], searchedByStones[stones], provenSearchedByStones[stones]);
    std::cout << line;
  }
  auto plural = [](uint64_t n, const char* word) { return std::to_string(n) + " " + word + (n == 1 ? "" : "s"); };
  auto show = [&](const std::string& title, const PositionKey& key) {
    const PositionStats* s = db.find(key);
    if (!s) return;
    const Board b = boardOf(key);
    std::vector<MoveStats> moves = s->moves;
    std::sort(moves.begin(), moves.end(), [](const MoveStats& a, const MoveStats& b) { return a.games > b.games; });
    std::cout << title << " (" << plural(s->games(), "game") << "; win rate of the player making the move):\n";
    for (size_t i = 0; i < moves.size() && i < top; ++i) {
      char rate[16];
      std::snprintf(rate, sizeof rate, "%.3f", moves[i].winRate());
      std::cout << "  " << moveName(b, moves[i].move) << ": " << plural(moves[i].games, "game") << ", win rate " << rate
                << (moves[i].proof == Proof::Win ? " (proven win)" : "")
                << (moves[i].proof == Proof::Loss ? " (proven loss)" : "") << "\n";
    }
  };
  show("first move", PositionKey{});
  for (Cell c : moveClasses(Board())) {
    Board b;
    b.play(c);
    show("answer to " + cellName(c) + " (moves in canonical orientation)", canonicalize(b).key);
  }
  // The runs come last and only on request: a database of many runs listed dozens of kinds before
  // anything above (issue 87).
  const std::vector<size_t> searched = db.verdictsPerRun();
  // Runs grouped by their settings, in the order each group first ran.
  struct Group {
    size_t runs = 0, searched = 0;
    uint64_t games = 0;
    int64_t first = 0, last = 0;
  };
  std::vector<std::string> order;
  std::map<std::string, Group> groups;
  for (size_t i = 0; i < db.runs().size(); ++i) {
    const RunInfo& r = db.runs()[i];
    const std::string key = runSettings(r);
    auto [it, fresh] = groups.try_emplace(key);
    if (fresh) order.push_back(key), it->second.first = it->second.last = r.startedUnix;
    Group& g = it->second;
    ++g.runs, g.games += r.games, g.searched += searched[i];
    g.first = std::min(g.first, r.startedUnix), g.last = std::max(g.last, r.startedUnix);
  }
  if (!listRuns) {
    std::cout << plural(db.runs().size(), "run") << " of " << plural(order.size(), "kind")
              << " (bookgen stats --runs: the kinds by their settings and every run)\n";
    return damaged ? 1 : 0;
  }
  std::cout << "runs by settings (" << plural(order.size(), "kind") << "):\n";
  for (const std::string& key : order) {
    const Group& g = groups[key];
    std::cout << "  " << plural(g.runs, "run") << " " << utcDate(g.first, "%Y-%m-%d")
              << (g.runs > 1 ? " to " + utcDate(g.last, "%Y-%m-%d") : "") << ": " << g.games << " games, " << g.searched
              << " searched positions; " << key << "\n";
  }
  std::cout << "every run:\n";
  for (size_t i = 0; i < db.runs().size(); ++i) {
    const RunInfo& r = db.runs()[i];
    std::cout << "  run " << cli::hexText(r.id) << ": " << r.games << " games, " << searched[i]
              << " searched positions, started " << utcDate(r.startedUnix, "%Y-%m-%d %H:%M UTC") << ", seed " << r.seed
              << ", engine " << r.engine << (r.parameters.empty() ? "" : ", " + r.parameters) << "\n";
  }
  return damaged ? 1 : 0;
}

}  // namespace
