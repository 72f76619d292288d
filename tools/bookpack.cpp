// bookpack: turns the book database into the embedded book header (book/embedded_book.h).
// See docs/book.md.
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "opening_book.h"
#include "tools/book/database.h"
#include "tools/book/db_folder.h"
#include "tools/book/db_store.h"
#include "tools/book/files.h"
#include "tools/book/graph_print.h"
#include "tools/book/grow.h"
#include "tools/book/shipped.h"
#include "tools/book/pack.h"
#include "tools/book/plan.h"
#include "tools/book/print.h"
#include "tools/cli.h"

namespace {

using namespace yav;
using namespace yav::book;

const char* const kUsage =
    "usage: bookpack [options]\n"
    "Packs the database into the C++ header the bot embeds. By default (--source search) the book is the\n"
    "search-valued book grown by `bookgen run`: in every searched position the move with the best lower\n"
    "bound after minimax through the book (proven wins first, proven losses never; a move of the book that\n"
    "ships now stays unless that bound beats its mean: --header, --fresh), the first move from\n"
    "the swap table (printed), positions the book reaches by its own moves, the likeliest first, until\n"
    "the text fills the budget. --source games packs the self-play statistics of `bookgen games` (lower\n"
    "confidence bound on the win rate, optionally checked by --verify).\n";

}  // namespace

int main(int argc, char** argv) {
  std::string dbPath = "book/book.db", outPath = "book/embedded_book.h";
  ShippedBookFlags shippedFlags;
  PackOptions opt;
  bool printTree = false, verify = false, empty = false;
  VerifySettings verifySettings;
  std::string source = "search";
  GrowOptions grown;  // the growth's budget names the verdicts that make the book
  GameModel& model = grown.model;
  cli::Flags flags("bookpack");
  flags.text("--db", "FILE", dbPath, "the database", dbPath).text("--out", "FILE", outPath, "the header to write", outPath);
  shippedFlags.addTo(flags,
                     "with --source search: the book that ships now; a move of it stays unless the database's choice is "
                     "clearly better (its lower bound above the shipped move's mean)");
  flags
      .option("--print-tree", printTree, "print the book that would be shipped (stdout) instead of writing it")
      .option("--empty", empty,
              "write an empty book (the bot then plays without one), e.g. while no book has passed its "
              "acceptance match; the database's plan is still printed")
      .value("--source", "search|games", "the search-valued book (bookgen run) or the self-play statistics (bookgen games)",
             source,
             [&source](const std::string& v) {
               source = v;
               return v == "search" || v == "games" ? "" : "--source expects search or games, got '" + v + "'";
             })
      .integer("--book-iterations", "N", grown.deep.iterations, 1, cli::kNoLimit,
               "with --source search: the deep searches' budget whose verdicts make the book (bookgen run --iterations)")
      .number("--one-stone-share", "P", model.oneStoneShare, 0, 1,
              "with --source search (priority order): share of lines from one random stone, the bot either side")
      .number("--two-stone-share", "P", model.twoStoneShare, 0, 1,
              "with --source search (priority order): share of lines from two random stones, the bot either side (the rest: the empty board, the bot first)")
      .number("--opponent-uniform", "P", model.uniform, 0, 1,
              "with --source search: share of the opponent's replies spread evenly (the rest: in proportion to the deep "
              "search's visits), for the order positions are kept in")
      .option("--verify", verify,
              "re-search every shipped position without a cached verdict (the database is locked and its verdict "
              "cache saved); without it, cached verdicts of the same engine and budget are applied and missing ones "
              "reported");
  addPackFlags(flags, opt);
  addVerifyFlags(flags, verifySettings);
  flags.parseOrExit(argc, argv, 1, kUsage);

  FileLock lock;  // verification writes the verdict cache into the database
  std::string error;
  if (verify && !lock.acquire(dbPath, error)) {
    std::cerr << "bookpack: " << error << "\n";
    return 1;
  }
  Database db;
  uint32_t version = 0;
  DatabaseStore store(dbPath);  // a folder gets the new verdicts in a segment of their own
  if (verify ? !store.load(db, error, &version) : !loadDatabase(dbPath, db, error, &version)) {
    std::cerr << "bookpack: " << error << "\n";
    return 1;
  }
  Choices choices;
  PackedBook book;
  if (source == "search") {
    if (verify) std::cerr << "bookpack: --verify applies to --source games (every searched position has its own verdict)\n";
    const BookGraph graph = BookGraph::fromDatabase(db, grown.deep.key());
    ShippedBook shipped;
    loadShippedBook(shippedFlags, "bookpack", shipped);
    choices = chooseFromGraph(graph, model, shipped.kept());
    book = packBook(choices, opt.budgetChars);
    const GraphPrinter printer(graph, choices, shipped.shown());
    std::cerr << "book of " << grown.deep.key() << ": " << graph.size() << " searched positions, " << choices.size()
              << " with a book move\n";
    if (shipped.loaded) {
      const KeptMoves kept = keptMoves(choices, shipped.book);
      std::cerr << "moves of the shipped book (" << shippedFlags.header << ") in positions the re-pack answers: "
                << kept.same << " kept, " << kept.changed << " changed"
                << (shipped.fresh ? " (--fresh)" : " (each clearly better by its lower bound)")
                << "\n";
    }
    printer.printSwapTable(std::cerr);
    if (printTree) printer.printTree(std::cout, book);
  } else {
    const DeepLimits limits = verifySettings.limits;
    const VerifyOptions verifyOptions =
        verifySettings.options(verify ? DeepEvaluator([&](const Board& b) { return deepEvaluate(b, limits); }) : nullptr);
    const BookPlan plan = planBook(db, opt, &verifyOptions, &std::cerr);
    if (verify && plan.verify.searched > 0) {
      if (!store.save(db, error)) {
        std::cerr << "bookpack: " << error << "\n";
        return 1;
      }
      std::cerr << "saved " << plan.verify.searched << " new verdicts in " << store.target()
                << (!store.segmented() && version < kDatabaseVersion ? " (now a version-" + std::to_string(kDatabaseVersion) + " file)" : std::string()) << "\n";
    }
    choices = plan.choices;
    book = plan.packed;
    BookPrinter::printSwapTable(std::cerr, plan.swap);
    const VerifyReport& v = plan.verify;
    std::cerr << "verification (" << verifyOptions.engineKey << ", margin " << verifySettings.margin << "): "
              << v.searched << " searched now, " << v.replacedLost << " moves replaced as proven lost, " << v.replacedWorse
              << " replaced as more than the margin below the deep search's best, " << v.dropped << " dropped, "
              << v.conflicts << " conflicts with database proofs (kept), " << v.unverified << " shipped positions unverified"
              << (v.unverified && !verify ? " (run bookpack --verify)" : "") << "\n";
    for (const std::string& change : v.changes) std::cerr << change << "\n";
    if (printTree) BookPrinter(db, choices, opt, verdictText(db, verifyOptions.engineKey)).printTree(std::cout, book);
  }

  size_t proven = 0;
  for (const auto& e : choices) proven += e.second.proven;
  if (empty) {
    const std::string summary = "0 positions: no book shipped (bookpack --empty; the database holds " +
                                std::to_string(db.games()) + " games)";
    if (!printTree && !writeFileAtomically(outPath, embeddedHeader(PackedBook(), summary), error)) {
      std::cerr << "bookpack: " << error << "\n";
      return 1;
    }
    std::cerr << (printTree ? "nothing written (--print-tree)" : "wrote an empty book to " + outPath) << "\n";
    return 0;
  }

  // Check the result the way the bot will read it.
  OpeningBook decoded;
  const auto t0 = std::chrono::steady_clock::now();
  if (!decoded.load(book.text, error)) {
    std::cerr << "bookpack: internal error, the packed book does not decode: " << error << "\n";
    return 1;
  }
  const double decodeMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  for (const auto& [key, move] : decoded.entries()) {
    auto it = choices.find(key);
    if (it == choices.end() || canonicalize(boardOf(key)).toCanonical(move) != it->second.move) {
      std::cerr << "bookpack: internal error, a decoded entry differs from the chosen move\n";
      return 1;
    }
  }
  if (decoded.size() != book.positions) {
    std::cerr << "bookpack: internal error, " << decoded.size() << " decoded positions, " << book.positions << " packed\n";
    return 1;
  }

  const double bitsPerPosition = book.positions ? double(book.bits) / book.positions : 0;
  const std::string summary = std::to_string(book.positions) + " positions, " + std::to_string(book.chars()) +
                              " characters, " +
                              (source == "search" ? "search-valued (" + grown.deep.key() + ")"
                                                  : "from " + std::to_string(db.games()) + " games");
  if (!printTree && !writeFileAtomically(outPath, embeddedHeader(book, summary), error)) {
    std::cerr << "bookpack: " << error << "\n";
    return 1;
  }
  std::cerr << dbPath << ": " << db.games() << " games, " << db.positions() << " positions, " << choices.size()
            << " with a book move (" << proven << " proven wins)\n"
            << "reachable by the book's own moves from the empty board or a random opening's start: " << book.reachable << " positions (deepest packed: "
            << book.maxStones << " stones)\n"
            << "packed " << book.positions << " positions in " << book.chars() << " characters (budget "
            << opt.budgetChars << "), " << book.bits << " bits, " << bitsPerPosition << " bits/position; the budget holds about "
            << (bitsPerPosition > 0 ? size_t(opt.budgetChars * double(kBookBitsPerChar) / bitsPerPosition) : 0) << " positions\n"
            << "decode " << decodeMs << " ms; " << (printTree ? "nothing written (--print-tree)" : "wrote " + outPath) << "\n";
  return 0;
}
