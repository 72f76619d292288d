// The book that ships now: the string literal of book/embedded_book.h, read back and decoded, so
// that the tools can say what the bot plays today as well as what a re-pack would ship.
#pragma once

#include <iostream>
#include <string>

#include "opening_book.h"
#include "tools/book/files.h"
#include "tools/common/cli.h"

namespace yav::book {

// The literal's text: every "..." piece after `kEmbeddedBook =`, joined (the header's pieces hold
// no escapes: its characters are CJK ideographs). False with `error` naming the file and the byte.
inline bool embeddedBookText(const std::string& header, const std::string& name, std::string& text,
                             std::string& error) {
  const size_t start = header.find("kEmbeddedBook =");
  if (start == std::string::npos) return error = name + ": no kEmbeddedBook definition", false;
  text.clear();
  size_t at = start;
  for (;;) {
    const size_t open = header.find_first_of("\";", at);
    if (open == std::string::npos)
      return error = name + ": the literal is not closed by ';' at byte " + std::to_string(header.size()), false;
    if (header[open] == ';') return true;
    const size_t close = header.find('"', open + 1);
    if (close == std::string::npos)
      return error = name + ": unterminated string at byte " + std::to_string(open), false;
    const std::string piece = header.substr(open + 1, close - open - 1);
    if (piece.find('\\') != std::string::npos)
      return error = name + ": unexpected escape at byte " + std::to_string(open), false;
    text += piece;
    at = close + 1;
  }
}

// The book text of the header file at `path`; false with `error` naming the file.
inline bool readEmbeddedBookText(const std::string& path, std::string& text, std::string& error) {
  std::string header;
  return readWholeFile(path, header, error) && embeddedBookText(header, path, text, error);
}

// Reads and decodes the shipped header; false with `error` when it cannot be read or decoded.
inline bool loadShippedBook(const std::string& path, OpeningBook& book, std::string& error) {
  std::string text;
  if (!readEmbeddedBookText(path, text, error)) return false;
  if (!book.load(text, error)) return error = path + ": " + error, false;
  return true;
}

// The shipped book as bookpack and bookgen take it: `--header FILE` names it, and a re-pack (and the
// growth's lines) keep its moves until clearly beaten unless `--fresh` (packedMove in choose.h).
struct ShippedBookFlags {
  std::string header = "book/embedded_book.h";
  bool fresh = false;
  // `headerMeaning`: what the tool does with the header besides keeping its moves.
  void addTo(cli::Flags& flags, const std::string& headerMeaning) {
    flags.text("--header", "FILE", header, headerMeaning, header)
        .option("--fresh", fresh,
                "choose every book move by its lower bound alone (as bookpack --fresh), whatever ships now");
  }
};

// The shipped book once read. A header that cannot be read is reported on stderr (`tool` names
// the program) and leaves nothing to keep: the choice then follows the bounds alone.
struct ShippedBook {
  OpeningBook book;
  bool loaded = false;
  bool fresh = false;
  // The book whose moves are kept: none with --fresh or when the header could not be read.
  const OpeningBook* kept() const { return loaded && !fresh ? &book : nullptr; }
  // The book to compare with (marks, counts), --fresh or not.
  const OpeningBook* shown() const { return loaded ? &book : nullptr; }
};
inline void loadShippedBook(const ShippedBookFlags& flags, const std::string& tool, ShippedBook& shipped) {
  std::string error;
  shipped.fresh = flags.fresh;
  shipped.loaded = loadShippedBook(flags.header, shipped.book, error);
  if (!shipped.loaded)
    std::cerr << tool << ": no shipped book (every move by its lower bound alone): " << error << "\n";
}

}  // namespace yav::book
