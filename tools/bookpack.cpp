// bookpack: turns the book database into the embedded book header (book/embedded_book.h).
// See docs/book.md.
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>

#include "opening_book.h"
#include "tools/book/database.h"
#include "tools/book/db_file.h"
#include "tools/book/files.h"
#include "tools/book/pack.h"

namespace {

using namespace yav;
using namespace yav::book;

const char* const kUsage =
    "usage: bookpack [--db FILE] [--out FILE] [--min-games N] [--bound linear|wilson] [--margin K]\n"
    "                [--threshold T] [--budget CHARS]\n"
    "Packs the database (default book/book.db) into a C++ header (default book/embedded_book.h):\n"
    "one move per position with a lower confidence bound above T (default: win rate - 2/sqrt(n),\n"
    "n >= 10, T = 0.2), proven wins always, proven losses never, only positions the book reaches\n"
    "by its own moves, most-played first until the book text reaches CHARS characters.\n";

int fail(const std::string& message) {
  std::cerr << "bookpack: " << message << "\n" << kUsage;
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string dbPath = "book/book.db", outPath = "book/embedded_book.h";
  PackOptions opt;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      return 0;
    }
    if (i + 1 >= argc) return fail(arg + " expects a value");
    const std::string value = argv[++i];
    char* end = nullptr;
    const double v = std::strtod(value.c_str(), &end);
    const bool isNumber = end != value.c_str() && *end == '\0' && v >= 0;
    if (arg == "--db") dbPath = value;
    else if (arg == "--out") outPath = value;
    else if (arg == "--bound" && (value == "linear" || value == "wilson")) opt.wilson = value == "wilson";
    else if (!isNumber) return fail(arg + ": bad value '" + value + "'");
    else if (arg == "--min-games") opt.minGames = uint32_t(v);
    else if (arg == "--margin") opt.margin = v;
    else if (arg == "--threshold") opt.threshold = v;
    else if (arg == "--budget") opt.budgetChars = size_t(v);
    else return fail("unknown option '" + arg + "'");
  }

  Database db;
  std::string error;
  if (!loadDatabase(dbPath, db, error)) {
    std::cerr << "bookpack: " << error << "\n";
    return 1;
  }
  const Choices choices = chooseMoves(db, opt);
  size_t proven = 0;
  for (const auto& e : choices) proven += e.second.proven;
  const PackedBook book = packBook(choices, opt.budgetChars);

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
                              " characters, from " + std::to_string(db.games()) + " games";
  if (!writeFileAtomically(outPath, embeddedHeader(book, summary), error)) {
    std::cerr << "bookpack: " << error << "\n";
    return 1;
  }
  std::cerr << dbPath << ": " << db.games() << " games, " << db.positions() << " positions, " << choices.size()
            << " with a book move (" << proven << " proven wins)\n"
            << "reachable by the book's own moves: " << book.reachable << " positions (deepest packed: "
            << book.maxStones << " stones)\n"
            << "packed " << book.positions << " positions in " << book.chars() << " characters (budget "
            << opt.budgetChars << "), " << book.bits << " bits, " << bitsPerPosition << " bits/position; the budget holds about "
            << (bitsPerPosition > 0 ? size_t(opt.budgetChars * double(kBookBitsPerChar) / bitsPerPosition) : 0) << " positions\n"
            << "decode " << decodeMs << " ms; wrote " << outPath << "\n";
  return 0;
}
