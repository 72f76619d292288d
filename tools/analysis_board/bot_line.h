// The bot's line per turn on stderr (bot/main.cpp), read back for the analysis board:
//   turn 3: move 4 3 | 15648 it, 1967971 nodes (reused), value 0.59, proof unknown, 83.0 ms
//   turn 1: move 4 4 | book, checked 2100 it, searched 81234 it ahead, 901.2 ms
// Any program may be the bot: a line in another shape is kept as text, with nothing parsed.
#pragma once

#include <cctype>
#include <cstdlib>
#include <string>

namespace yav::board {

struct BotTurnLine {
  bool found = false;         // a "turn N: move ..." line was there
  std::string text;           // the line itself
  bool book = false;          // the move came from the opening book
  long long iterations = -1;  // -1: not given
  double value = -1;          // the chosen move's value for the bot, -1: not given
  std::string proof;          // win / loss / draw / unknown, "" when not given
  double ms = -1;             // the bot's own time for the turn
};

namespace bot_line_detail {
// The number just before `suffix` (" it", " ms"), searching from the back; false when absent.
inline bool numberBefore(const std::string& s, const std::string& suffix, double& out) {
  size_t at = s.rfind(suffix);
  while (at != std::string::npos) {
    size_t b = at;
    while (b > 0 && (std::isdigit(static_cast<unsigned char>(s[b - 1])) || s[b - 1] == '.')) --b;
    if (b < at && (b == 0 || s[b - 1] == ' ')) return out = std::atof(s.substr(b, at - b).c_str()), true;
    if (at == 0) break;
    at = s.rfind(suffix, at - 1);
  }
  return false;
}
// The word or number after `key` up to the next ',' or the end.
inline std::string after(const std::string& s, const std::string& key) {
  const size_t at = s.find(key);
  if (at == std::string::npos) return "";
  const size_t begin = at + key.size(), end = s.find(',', begin);
  return s.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}
}  // namespace bot_line_detail

// The last "turn N: move" line of `text` (what the bot wrote on stderr since its previous answer).
inline BotTurnLine parseBotTurnLine(const std::string& text) {
  using namespace bot_line_detail;
  BotTurnLine r;
  size_t at = text.rfind("turn ");
  while (at != std::string::npos && at > 0 && text[at - 1] != '\n') at = text.rfind("turn ", at - 1);
  if (at == std::string::npos || text.find(": move ", at) == std::string::npos) return r;
  const size_t end = text.find('\n', at);
  r.found = true;
  r.text = text.substr(at, end == std::string::npos ? std::string::npos : end - at);
  const size_t bar = r.text.find(" | ");
  const std::string tail = bar == std::string::npos ? "" : r.text.substr(bar + 3);
  r.book = tail.rfind("book", 0) == 0 && tail.find("overruled") == std::string::npos;
  double v = 0;
  // A book turn's "checked N it" and "searched N it ahead" are checks, not the move's search.
  if (!r.book && numberBefore(tail, " it,", v)) r.iterations = (long long)v;
  if (numberBefore(tail, " ms", v)) r.ms = v;
  const std::string value = after(tail, "value ");
  if (!value.empty()) r.value = std::atof(value.c_str());
  r.proof = after(tail, "proof ");
  return r;
}

}  // namespace yav::board
