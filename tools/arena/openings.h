// Openings: the forced first plies both games of a pair start from. Either lines of a file
// (`--openings FILE`, pair k uses line k mod count) or random plies (`--random-openings K` or
// `K1-K2`, reproducible from `--seed S`). The referee plays them before asking the bots
// (refereeGame in referee.h), so the bots see the position exactly as CodinGame would show it.
//
// A random ply is uniform among the moves that neither make a 3 nor a 4 (the game stays open).
// Ply 2 of a random opening is never the steal: with K = 1 the second bot decides the steal itself,
// with K >= 2 nobody steals.
#pragma once

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <istream>
#include <string>
#include <vector>

#include "rng.h"
#include "tools/arena/json.h"
#include "tools/arena/referee.h"
#include "tools/common/cli.h"

namespace yav::arena {

using Opening = std::vector<Cell>;

constexpr int kMaxRandomPlies = 40;  // leaves at least 21 empty cells: the bots still have a game to play

// Reads openings: one move list per line (see parseMoveList), '#' starts a comment, blank lines are
// skipped. False with `error` naming `name` and the line; no opening at all is an error too.
inline bool parseOpenings(std::istream& in, const std::string& name, std::vector<Opening>& openings,
                          std::string& error) {
  openings.clear();
  bool ok = true;
  const int lines = cli::forEachLine(in, [&](std::string line, int number) {
    line = line.substr(0, line.find('#'));
    if (line.find_first_not_of(" \t\r,;") == std::string::npos) return true;
    Opening moves;
    std::string why;
    if (!parseMoveList(line, moves, why)) {
      error = name + ":" + std::to_string(number) + ": " + why + " (expected moves 'x y', e.g. '4 4' or '4 4; 3 2')";
      return ok = false;
    }
    openings.push_back(moves);
    return true;
  });
  if (!ok) return false;
  if (openings.empty())
    return error = name + ": no opening in its " + std::to_string(lines) + " lines (one 'x y' move list per line)",
           false;
  return true;
}

inline bool loadOpeningsFile(const std::string& path, std::vector<Opening>& openings, std::string& error) {
  std::ifstream in(path);
  if (!in) return error = "cannot read openings file '" + path + "': " + std::strerror(errno), false;
  return parseOpenings(in, path, openings, error);
}

// A 64-bit hash of text (FNV-1a): records name the openings file's content, not only its path.
inline uint64_t textHash(const std::string& text) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : text) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

// splitmix64: turns (seed, pair) into independent-looking streams, so that pair k's opening does
// not depend on which games ran before it (jobs, --resume).
inline uint64_t mixSeed(uint64_t x) { return splitmix64(x); }

// `plies` random moves from the empty board, none of which makes a 3 or a 4, and no steal.
inline Opening randomOpening(Rng& rng, int plies) {
  Board board;
  Opening moves;
  while (int(moves.size()) < plies) {
    const int p = board.toMove();
    const Bitboard open = board.empty() & ~board.fourLineCells(p) & ~board.threeLineCells(p);
    if (!open) {  // boxed in (only conceivable for long openings): start over
      board.clear(), moves.clear();
      continue;
    }
    const Cell c = nthCell(open, int(rng.below(uint32_t(popcount(open)))));
    board.play(c);
    moves.push_back(c);
  }
  return moves;
}

// Where the openings of a match come from, as given on the command line.
struct OpeningSettings {
  enum class Kind { None, File, Random } kind = Kind::None;
  std::string file;                // Kind::File
  uint64_t fileHash = 0;           // of the file's content
  int minPlies = 0, maxPlies = 0;  // Kind::Random: each pair draws its length from [min, max]
  uint64_t seed = 0;

  std::string pliesText() const {
    return minPlies == maxPlies ? std::to_string(minPlies) : std::to_string(minPlies) + "-" + std::to_string(maxPlies);
  }
  std::string describe() const {
    if (kind == Kind::File) return "file " + file;
    if (kind == Kind::Random) return "random, " + pliesText() + " plies, seed " + std::to_string(seed);
    return "none (empty board)";
  }
};

// {"kind": "random", "plies": "1-2", "seed": S} / {"kind": "file", "file": ..., "hash": ...} /
// {"kind": "none"}. The seed and hash are strings: JSON readers lose 64-bit integers.
inline std::string openingsJson(const OpeningSettings& s) {
  if (s.kind == OpeningSettings::Kind::File)
    return "{\"kind\": \"file\", \"file\": " + json::quote(s.file) + ", \"hash\": \"" + std::to_string(s.fileHash) +
           "\"}";
  if (s.kind == OpeningSettings::Kind::Random)
    return "{\"kind\": \"random\", \"plies\": \"" + s.pliesText() + "\", \"seed\": \"" + std::to_string(s.seed) + "\"}";
  return "{\"kind\": \"none\"}";
}

// Parses "K" or "K1-K2" for --random-openings; false with `error`.
inline bool parsePlyRange(const std::string& text, int& minPlies, int& maxPlies, std::string& error) {
  const size_t dash = text.find('-');
  long long lo = 0, hi = 0;
  const bool ok = dash == std::string::npos
                      ? parseJavaInt(text, lo) && (hi = lo, true)
                      : parseJavaInt(text.substr(0, dash), lo) && parseJavaInt(text.substr(dash + 1), hi);
  if (!ok || lo < 0 || hi > kMaxRandomPlies || lo > hi) {
    error = "--random-openings expects K or K1-K2 with 0 <= K1 <= K2 <= " + std::to_string(kMaxRandomPlies) +
            ", got '" + text + "'";
    return false;
  }
  minPlies = int(lo), maxPlies = int(hi);
  return true;
}

// The openings of one match: pair k -> its forced plies.
class Openings {
 public:
  Openings() = default;
  // Reads the file for Kind::File; false with `error`.
  bool init(const OpeningSettings& settings, std::string& error) {
    settings_ = settings;
    if (settings.kind != OpeningSettings::Kind::File) return true;
    if (!loadOpeningsFile(settings.file, list_, error)) return false;
    std::ifstream in(settings.file);
    settings_.fileHash = textHash(std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()));
    return true;
  }
  const OpeningSettings& settings() const { return settings_; }
  size_t fileCount() const { return list_.size(); }

  Opening forPair(int pair) const {
    switch (settings_.kind) {
      case OpeningSettings::Kind::None:
        return {};
      case OpeningSettings::Kind::File:
        return list_[size_t(pair) % list_.size()];
      case OpeningSettings::Kind::Random: {
        Rng rng(mixSeed(settings_.seed ^ mixSeed(uint64_t(pair))));
        const int span = settings_.maxPlies - settings_.minPlies + 1;
        return randomOpening(rng, settings_.minPlies + int(rng.below(uint32_t(span))));
      }
    }
    return {};
  }

 private:
  OpeningSettings settings_;
  std::vector<Opening> list_;
};

}  // namespace yav::arena
