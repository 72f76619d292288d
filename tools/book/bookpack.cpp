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
#include "tools/book/files.h"
#include "tools/book/graph_print.h"
#include "tools/book/grow.h"
#include "tools/book/shipped.h"
#include "tools/book/pack.h"
#include "tools/common/cli.h"

namespace {

using namespace yav;
using namespace yav::book;

const char* const kUsage =
    "usage: bookpack [options]\n"
    "Packs the database into the C++ header the bot embeds: the search-valued book grown by `bookgen run`,\n"
    "in every searched position the move with the best lower bound after minimax through the book (proven\n"
    "wins first, proven losses never; a move of the book that ships now stays unless that bound beats its\n"
    "mean: --header, --fresh), the first move from the swap table (printed), positions the book reaches by\n"
    "its own moves, the likeliest first, until the text fills the budget.\n";

}  // namespace

int main(int argc, char** argv) {
  std::string dbPath = "book/book.db", outPath = "book/embedded_book.h";
  ShippedBookFlags shippedFlags;
  size_t budgetChars = kDefaultBudgetChars;
  bool printTree = false, empty = false, keepMoves = false;
  GrowOptions grown;  // the growth's budget names the verdicts that make the book
  GameModel& model = grown.model;
  cli::Flags flags("bookpack");
  flags.text("--db", "FILE", dbPath, "the database", dbPath)
      .text("--out", "FILE", outPath, "the header to write", outPath);
  shippedFlags.addTo(flags,
                     "the book that ships now; a move of it stays unless the database's choice is clearly better (its "
                     "lower bound above the shipped move's mean)");
  flags
      .option("--keep-moves", keepMoves,
              "every move of the shipped book stays unless it is proven lost, or a proven win replaces a move "
              "not proven: a re-pack that changes only what a proof settles")
      .option("--print-tree", printTree, "print the book that would be shipped (stdout) instead of writing it")
      .option("--empty", empty,
              "write an empty book (the bot then plays without one), e.g. while no book has passed its "
              "acceptance match; the swap table is still printed")
      .integer("--book-iterations", "N", grown.deep.iterations, 1, cli::kNoLimit,
               "the deep searches' budget whose verdicts make the book (bookgen run --iterations)")
      .number("--one-stone-share", "P", model.oneStoneShare, 0, 1,
              "(priority order) share of lines from one random stone, the bot either side")
      .number("--two-stone-share", "P", model.twoStoneShare, 0, 1,
              "(priority order) share of lines from two random stones, the bot either side (the rest: the empty board, "
              "the bot first)")
      .number("--opponent-uniform", "P", model.uniform, 0, 1,
              "share of the opponent's replies spread evenly (the rest: in proportion to the deep search's visits), "
              "for the order positions are kept in")
      .integer("--budget", "CHARS", budgetChars, 0, cli::kNoLimit, "book text limit in characters (UTF-16 units)");
  flags.parseOrExit(argc, argv, 1, kUsage);
  if (keepMoves && shippedFlags.fresh)
    flags.fail("--keep-moves keeps the shipped moves, --fresh ignores them: not both");

  std::string error;
  Database db;
  if (!loadDatabase(dbPath, db, error)) {
    std::cerr << "bookpack: " << error << "\n";
    return 1;
  }
  const BookGraph graph = BookGraph::fromDatabase(db, grown.deep.key());
  ShippedBook shipped;
  loadShippedBook(shippedFlags, "bookpack", shipped);
  const Choices choices = chooseFromGraph(graph, model, shipped.kept(), keepMoves);
  const PackedBook book = packBook(choices, budgetChars);
  const GraphPrinter printer(graph, choices, shipped.shown());
  std::cerr << "book of " << grown.deep.key() << ": " << graph.size() << " searched positions, " << choices.size()
            << " with a book move\n";
  if (shipped.loaded) {
    const KeptMoves kept = keptMoves(choices, shipped.book);
    std::cerr << "moves of the shipped book (" << shippedFlags.header
              << ") in positions the re-pack answers: " << kept.same << " kept, " << kept.changed << " changed ("
              << kept.toProven << " to a proven win)"
              << (shipped.fresh ? " (--fresh)"
                  : keepMoves   ? " (--keep-moves: proven ones only)"
                                : " (each clearly better by its lower bound)")
              << "\n";
  }
  printer.printSwapTable(std::cerr);
  if (printTree) printer.printTree(std::cout, book);

  size_t proven = 0;
  for (const auto& e : choices) proven += e.second.proven;
  if (empty) {
    const std::string summary =
        "0 positions: no book shipped (bookpack --empty; the database holds " + std::to_string(db.games()) + " games)";
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
    std::cerr << "bookpack: internal error, " << decoded.size() << " decoded positions, " << book.positions
              << " packed\n";
    return 1;
  }

  const double bitsPerPosition = book.positions ? double(book.bits) / book.positions : 0;
  const std::string summary = std::to_string(book.positions) + " positions, " + std::to_string(book.chars()) +
                              " characters, " + "search-valued (" + grown.deep.key() + ")";
  if (!printTree && !writeFileAtomically(outPath, embeddedHeader(book, summary), error)) {
    std::cerr << "bookpack: " << error << "\n";
    return 1;
  }
  std::cerr << dbPath << ": " << db.games() << " games, " << db.positions() << " positions, " << choices.size()
            << " with a book move (" << proven << " proven wins)\n"
            << "reachable by the book's own moves from the empty board or a random opening's start: " << book.reachable
            << " positions (deepest packed: " << book.maxStones << " stones)\n"
            << "packed " << book.positions << " positions in " << book.chars() << " characters (budget " << budgetChars
            << "), " << book.bits << " bits, " << bitsPerPosition << " bits/position; the budget holds about "
            << (bitsPerPosition > 0 ? size_t(double(budgetChars) * double(kBookBitsPerChar) / bitsPerPosition) : 0)
            << " positions\n"
            << "decode " << decodeMs << " ms; " << (printTree ? "nothing written (--print-tree)" : "wrote " + outPath)
            << "\n";
  return 0;
}
