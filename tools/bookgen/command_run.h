// bookgen run: grows the search-valued book (tools/book/grow.h); its flags and command.
#pragma once

#include "tools/bookgen/commands.h"
#include "tools/book/grow.h"
#include "tools/book/shipped.h"
#include "tools/common/moves_text.h"

namespace {  // one translation unit: tools/bookgen/bookgen.cpp

// The flags of a resumable run: checkpoints, progress lines and its recorded seed.
cli::Flags& resumableRunFlags(cli::Flags& flags, const std::string& units, uint64_t& checkpointEvery,
                              double& progressSeconds, uint64_t& seed, bool& seedGiven) {
  return flags
      .integer("--checkpoint", "N", checkpointEvery, 1, cli::kNoLimit,
               "save every N " + units + " (and at the end, and on Ctrl-C / SIGTERM)")
      .number("--progress", "SEC", progressSeconds, 0, cli::kNoMax, "seconds between progress lines")
      .value("--seed", "S", "the run's base seed", "fresh from time, pid and random_device; recorded",
             [&seed, &seedGiven](const std::string& v) {
               seedGiven = true;
               return cli::toInteger(v, 0, cli::kNoLimit, seed) ? std::string()
                                                                : cli::Flags::rangeError("--seed", 0, cli::kNoMax, v);
             });
}

// `bookgen run`: the search-valued book (grow.h).
struct GrowSettings {
  GrowOptions grow;
  std::string dbPath = "book/book.db";
  std::string moves;         // --moves: the position every line starts at (empty: the model's starts)
  ShippedBookFlags shipped;  // the shipped book whose moves the lines keep
  bool seedGiven = false;
};

cli::Flags growFlags(GrowSettings& s) {
  GrowOptions& g = s.grow;
  cli::Flags flags("bookgen");
  flags
      .text("--db", "FILE", s.dbPath,
            "the database (a file or a folder of segments); a damaged file is refused, never overwritten", s.dbPath)
      .integer("--positions", "N", g.targetPositions, 0, cli::kNoLimit, "stop when the book holds N searched positions",
               "no limit")
      .number("--hours", "H", g.hours, 0, cli::kNoMax, "stop after H hours of this run", "no limit")
      .integer("--threads", "T", g.threads, 1, 1024, "deep searches in parallel, one per thread")
      .integer("--iterations", "N", g.deep.iterations, 1, cli::kNoLimit,
               "iterations of each position's deep search (part of the verdicts' key: a new budget starts a new book)")
      .integer("--nodes", "N", g.deep.nodes, 1024, cli::kNoLimit, "node pool of each deep search")
      .integer("--max-plies", "N", g.maxPlies, 1, kCells, "lines are not followed deeper than N plies")
      .value("--shard", "I/N",
             "search only the positions whose key hashes to shard I of N (1 <= I <= N), so that N "
             "machines growing the same database search disjoint positions (scripts/grow_shards.sh)",
             "1/1", [&g](const std::string& v) {
               const size_t slash = v.find('/');
               uint64_t i = 0, n = 0;
               if (slash == std::string::npos || !cli::toInteger(v.substr(0, slash), 1, 1 << 20, i) ||
                   !cli::toInteger(v.substr(slash + 1), 1, 1 << 20, n) || i > n)
                 return "--shard expects I/N with 1 <= I <= N, got '" + v + "'";
               g.shard = i - 1, g.shards = n;
               return std::string();
             });
  s.shipped.addTo(flags,
                  "the shipped book: the bot's book moves in the lines are the ones bookpack would ship, which keeps a "
                  "shipped move until it is clearly beaten");
  flags
      .number("--one-stone-share", "P", g.model.oneStoneShare, 0, 1,
              "share of lines from one random stone, the bot either side")
      .number("--two-stone-share", "P", g.model.twoStoneShare, 0, 1,
              "share of lines from two random stones, the bot either side (the rest: the empty board, the bot first)")
      .number("--book-move-share", "P", g.bookMoveShare, 0, 1,
              "share of the bot's moves in a line that follow its current book move (the rest: Thompson sampling)")
      .number("--opponent-uniform", "P", g.model.uniform, 0, 1,
              "share of the opponent's moves spread evenly over its sensible moves (the rest: in proportion to the "
              "deep search's visits)")
      .number("--opponent-explore", "P", g.opponentExploreShare, 0, 1,
              "share of the opponent's moves drawn by Thompson sampling instead, to find refutations the deep "
              "search underrated")
      .text("--moves", "'X Y; X Y'", s.moves,
            "every line starts at the position after these moves, the bot either side (growth aimed at one "
            "opening; the shares of starts are not used)",
            "the shares' starts");
  return resumableRunFlags(flags, "positions", g.checkpointEvery, g.progressSeconds, g.seed, s.seedGiven);
}

int growCommand(int argc, char** argv) {
  GrowSettings settings;
  growFlags(settings).parseOrExit(argc, argv, 0, std::string(kCommands) + "run options:\n");
  GrowOptions& grow = settings.grow;
  if (grow.model.oneStoneShare + grow.model.twoStoneShare > 1) {
    std::cerr << "bookgen: --one-stone-share and --two-stone-share add up to more than 1\n";
    return 2;
  }
  if (!settings.moves.empty()) {
    Board root;
    std::string error;
    if (!playMoves(settings.moves, root, error)) {
      std::cerr << "bookgen: --moves: " << error << "\n";
      return 2;
    }
    grow.root = root;
  }
  FileLock lock;
  Database db;
  auto store = std::make_shared<DatabaseStore>(settings.dbPath);
  if (!openForWriting(*store, lock, db)) return 1;
  const std::string key = grow.deep.key();
  const auto verdicts = db.verdicts().find(key);
  const size_t have = verdicts == db.verdicts().end() ? 0 : verdicts->second.size();
  std::cerr << "book of " << key << ": " << have << " searched positions\n";
  if (grow.targetPositions && have >= grow.targetPositions) {
    std::cerr << "the book already holds " << have << " positions (target " << grow.targetPositions << ")\n";
    return 0;
  }
  std::ostringstream parameters;  // default stream formatting: 0.5, not 0.500000
  parameters << "grow iterations=" << grow.deep.iterations << " threads=" << grow.threads
             << " max-plies=" << grow.maxPlies << " one-stone-share=" << grow.model.oneStoneShare
             << " two-stone-share=" << grow.model.twoStoneShare << " book-move-share=" << grow.bookMoveShare
             << " opponent-uniform=" << grow.model.uniform << " opponent-explore=" << grow.opponentExploreShare
             << " nodes=" << grow.deep.nodes;
  if (grow.shards > 1) parameters << " shard=" << grow.shard + 1 << "/" << grow.shards;
  if (grow.root) parameters << " moves='" << settings.moves << "'";
  if (!settings.shipped.fresh) {
    auto shipped = std::make_shared<ShippedBook>();
    loadShippedBook(settings.shipped, "bookgen", *shipped);
    if (shipped->kept()) grow.shipped = std::shared_ptr<const OpeningBook>(shipped, shipped->kept());
  }
  parameters << " shipped=" << (grow.shipped ? settings.shipped.header : std::string("none"));
  beginRun(db, *store, settings.seedGiven, grow.seed, parameters.str());
  grow.seed = db.currentRun().seed;
  grow.store = store;
  Grower grower(db, grow, deepEvaluatorFactory(grow.deep));
  std::string error;
  const bool ok = grower.run(gStop, std::cerr, error);
  return runExit(ok, error);
}

}  // namespace
