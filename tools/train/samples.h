// Training samples of the evaluation: a position (canonical, from the side to move's view), the
// side to move's winning chance as a label, and a weight (how far the label can be trusted).
//
// File format (text, one sample a line, '#' lines are comments):
//   MINE THEIRS STEAL LABEL WEIGHT SOURCE
// MINE and THEIRS are the stones of the side to move and of the opponent as 16 hex digits (bit i:
// cell i), STEAL is 0 or 1, LABEL and WEIGHT are decimals in [0, 1], SOURCE a word (book, child,
// proof, selfplay). Positions are canonical (symmetry.h), one line per symmetry class: the held-out
// split hashes the canonical key, so a position and its images never fall on both sides.
#pragma once

#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "symmetry.h"
#include "tools/book/database.h"

namespace yav::train {

enum class Source : uint8_t { Book, Child, Proof, SelfPlay };
inline const char* sourceName(Source s) {
  return s == Source::Book ? "book" : s == Source::Child ? "child" : s == Source::Proof ? "proof" : "selfplay";
}

struct Sample {
  PositionKey key;  // canonical
  float label = 0.5f;
  float weight = 1.0f;
  Source source = Source::Book;
  int stones() const { return popcount(key.mine | key.theirs); }
  Board board() const { return book::boardOf(key); }
};

// Held out when the canonical key hashes below `share` (deterministic: the same split every run).
inline bool heldOut(const PositionKey& k, double share) {
  return double(mix64(k.mine * 0x9E3779B97F4A7C15ull ^ k.theirs ^ uint64_t(k.stealAvailable)) >> 11) * 0x1.0p-53 <
         share;
}

inline std::string sampleLine(const Sample& s) {
  char buf[128];
  std::snprintf(buf, sizeof buf, "%016" PRIx64 " %016" PRIx64 " %d %.4f %.4f %s\n", s.key.mine, s.key.theirs,
                int(s.key.stealAvailable), double(s.label), double(s.weight), sourceName(s.source));
  return buf;
}

// Parses one line; false with `error` on anything but a well-formed sample of a legal-looking board.
inline bool parseSample(const std::string& line, Sample& s, std::string& error) {
  char source[16] = {0};
  unsigned long long mine = 0, theirs = 0;
  int steal = 0, used = 0;
  double label = 0, weight = 0;
  if (std::sscanf(line.c_str(), "%16llx %16llx %d %lf %lf %15s%n", &mine, &theirs, &steal, &label, &weight, source,
                  &used) != 6 ||
      size_t(used) != line.size())
    return error = "expected 'MINE THEIRS STEAL LABEL WEIGHT SOURCE'", false;
  if ((mine | theirs) & ~kFullBoard || (mine & theirs))
    return error = "stones off the board or on one cell twice", false;
  if (steal != 0 && steal != 1) return error = "STEAL must be 0 or 1", false;
  if (!(label >= 0 && label <= 1) || !(weight >= 0 && weight <= 1))
    return error = "LABEL and WEIGHT must lie in [0, 1]", false;
  const std::string name = source;
  s.source = name == "book"    ? Source::Book
             : name == "child" ? Source::Child
             : name == "proof" ? Source::Proof
                               : Source::SelfPlay;
  if (s.source == Source::SelfPlay && name != "selfplay") return error = "unknown SOURCE '" + name + "'", false;
  s.key = {mine, theirs, steal == 1};
  s.label = float(label), s.weight = float(weight);
  return true;
}

// Reads a sample file; an unreadable file or a bad line is an error naming the file and line.
inline bool readSamples(const std::string& path, std::vector<Sample>& out, std::string& error) {
  std::ifstream in(path);
  if (!in) return error = path + ": cannot open", false;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.empty() || line[0] == '#') continue;
    Sample s;
    std::string why;
    if (!parseSample(line, s, why)) return error = path + ":" + std::to_string(number) + ": " + why, false;
    out.push_back(s);
  }
  return true;
}

// Samples by canonical position: a better-founded label replaces a weaker one (a proof over a
// search value, a position's own search over its value seen from its parent, more weight first).
class SampleSet {
 public:
  void add(Sample s) {
    s.key = canonicalize(s.key).key;
    auto [it, inserted] = map_.emplace(s.key, s);
    if (!inserted && rank(s) > rank(it->second)) it->second = s;
  }
  std::vector<Sample> sorted() const {
    std::vector<Sample> out;
    out.reserve(map_.size());
    for (const auto& kv : map_) out.push_back(kv.second);
    std::sort(out.begin(), out.end(), [](const Sample& a, const Sample& b) { return a.key < b.key; });
    return out;
  }
  size_t size() const { return map_.size(); }

 private:
  static double rank(const Sample& s) {
    const int tier = s.source == Source::Proof ? 3 : s.source == Source::Book || s.source == Source::SelfPlay ? 2 : 1;
    return tier * 10.0 + s.weight;
  }
  std::unordered_map<PositionKey, Sample, PositionKeyHash> map_;
};

}  // namespace yav::train
