// bookgen show and bookgen html: a position's moves with values, bounds and proofs, and one page to
// click through the book.
#pragma once

#include "tools/bookgen/commands.h"
#include "tools/book/graph_print.h"
#include "tools/book/grow.h"
#include "tools/book/html.h"
#include "tools/book/shipped.h"
#include "tools/common/moves_text.h"

namespace {  // one translation unit: tools/bookgen/bookgen.cpp

struct ShowSettings {
  std::string dbPath = "book/book.db", moves;
  ShippedBookFlags shipped;  // the header the bot embeds now, and the re-pack's rule
  int depth = 1;
  uint64_t width = 12;
  GrowOptions grown;  // its budget names the search-valued book's verdicts
};

// Flags shared by show and html: which book, and the shipped header to compare with.
void addBookFlags(cli::Flags& flags, ShowSettings& s) {
  flags.text("--db", "FILE", s.dbPath, "the database", s.dbPath)
      .integer("--book-iterations", "N", s.grown.deep.iterations, 1, cli::kNoLimit,
               "the search-valued book's deep-search budget (bookgen run --iterations)");
  s.shipped.addTo(flags, "the shipped book, marked 'shipped' (a re-pack's move is marked 're-pack')");
}

cli::Flags showFlags(ShowSettings& s) {
  cli::Flags flags("bookgen");
  addBookFlags(flags, s);
  flags.integer("--width", "N", s.width, 1, kCells + 1, "moves listed per position, best first")
      .text("--moves", "'X Y; X Y'", s.moves,
            "the position after these moves, real board coordinates; a steal is the cell of the stone taken",
            "the empty board")
      .integer("--depth", "N", s.depth, 1, 100, "also show the positions after each move, N levels in all");
  return flags;
}

struct HtmlSettings {
  ShowSettings book;
  std::string out = "book.html";
  uint64_t maxNodes = 5000;
};

cli::Flags htmlFlags(HtmlSettings& s) {
  cli::Flags flags("bookgen");
  addBookFlags(flags, s.book);
  flags.text("--out", "FILE", s.out, "the page to write", s.out)
      .integer("--max-positions", "N", s.maxNodes, 1, cli::kNoLimit,
               "positions on the page (likeliest first; a transposition counts once per path)");
  return flags;
}

// The search-valued book of a database, its re-pack choices and the shipped header (when readable).
struct LoadedBook {
  Database db;
  BookGraph graph;
  Choices repack;
  ShippedBook shipped;
};
bool loadBook(const ShowSettings& s, LoadedBook& book) {
  std::string error;
  if (!loadDatabase(s.dbPath, book.db, error)) {
    std::cerr << "bookgen: " << error << "\n";
    return false;
  }
  book.graph = BookGraph::fromDatabase(book.db, s.grown.deep.key());
  loadShippedBook(s.shipped, "bookgen", book.shipped);
  book.repack = chooseFromGraph(book.graph, s.grown.model, book.shipped.kept());
  return true;
}

int showCommand(int argc, char** argv) {
  ShowSettings settings;
  showFlags(settings).parseOrExit(argc, argv, 0, std::string(kCommands) + "show options:\n");
  Board b;
  std::string error;
  if (!playMoves(settings.moves, b, error)) return fail("--moves: " + error);
  const std::string where = settings.moves.empty() ? "the empty board" : "'" + settings.moves + "'";
  LoadedBook book;
  if (!loadBook(settings, book)) return 1;
  const std::optional<Cell> shipped = book.shipped.loaded ? book.shipped.book.lookup(b) : std::nullopt;
  const auto repack = book.repack.find(canonicalize(b).key);
  std::cout << "position after " << where << " (book of " << settings.grown.deep.key() << ", " << book.graph.size()
            << " searched positions)\n"
            << "  shipped (" << settings.shipped.header
            << "): " << (shipped ? moveName(b, *shipped) : std::string("not in the shipped book")) << "\n"
            << "  re-pack (bookpack now): "
            << (repack != book.repack.end() ? moveName(b, canonicalize(b).fromCanonical(repack->second.move))
                                            : std::string("no book move"))
            << "\n";
  GraphPrinter(book.graph, book.repack, book.shipped.shown())
      .printPosition(std::cout, b, settings.depth, size_t(settings.width));
  return 0;
}

int htmlCommand(int argc, char** argv) {
  HtmlSettings settings;
  htmlFlags(settings).parseOrExit(argc, argv, 0, std::string(kCommands) + "html options:\n");
  LoadedBook book;
  if (!loadBook(settings.book, book)) return 1;
  const std::vector<PageNode> tree =
      bookPageTree(book.graph, book.repack, book.shipped.shown(), size_t(settings.maxNodes));
  const std::string title = "Yavalath opening book: " + std::to_string(book.graph.size()) + " searched positions (" +
                            settings.book.grown.deep.key() + ")";
  std::string error;
  if (!writeFileAtomically(settings.out, bookPageHtml(tree, title), error)) {
    std::cerr << "bookgen: " << error << "\n";
    return 1;
  }
  std::cerr << "wrote " << settings.out << ": " << tree.size() << " positions\n";
  return 0;
}

}  // namespace
