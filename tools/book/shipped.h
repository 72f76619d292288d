// The book that ships now: the string literal of book/embedded_book.h, read back and decoded, so
// that the tools can say what the bot plays today as well as what a re-pack would ship.
#pragma once

#include <string>

#include "opening_book.h"
#include "tools/book/files.h"

namespace yav::book {

// The literal's text: every "..." piece after `kEmbeddedBook =`, joined (the header's pieces hold
// no escapes: its characters are CJK ideographs). False with `error` naming the file and the byte.
inline bool embeddedBookText(const std::string& header, const std::string& name, std::string& text, std::string& error) {
  const size_t start = header.find("kEmbeddedBook =");
  if (start == std::string::npos) return error = name + ": no kEmbeddedBook definition", false;
  text.clear();
  size_t at = start;
  for (;;) {
    const size_t open = header.find_first_of("\";", at);
    if (open == std::string::npos) return error = name + ": the literal is not closed by ';' at byte " + std::to_string(header.size()), false;
    if (header[open] == ';') return true;
    const size_t close = header.find('"', open + 1);
    if (close == std::string::npos) return error = name + ": unterminated string at byte " + std::to_string(open), false;
    const std::string piece = header.substr(open + 1, close - open - 1);
    if (piece.find('\\') != std::string::npos) return error = name + ": unexpected escape at byte " + std::to_string(open), false;
    text += piece;
    at = close + 1;
  }
}

// Reads and decodes the shipped header; false with `error` when it cannot be read or decoded.
inline bool loadShippedBook(const std::string& path, OpeningBook& book, std::string& error) {
  std::string header, text;
  if (!readWholeFile(path, header, error) || !embeddedBookText(header, path, text, error)) return false;
  if (!book.load(text, error)) return error = path + ": " + error, false;
  return true;
}

}  // namespace yav::book
