// One printer for book positions and moves, shared by `bookgen show` (the database around a
// position) and `bookpack --print-tree` (the shipped book): real board coordinates, the steal
// labelled, games, win rate, lower bound, proof, the deep-search verdict and the shipped move.
#pragma once

#include <algorithm>
#include <cstdio>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "protocol.h"
#include "tools/book/pack.h"
#include "tools/book/swap.h"

namespace yav::book {

// The deep-search verdict on a move, as text ("" when there is none).
using VerdictText = std::function<std::string(const PositionKey& canonicalKey, Cell canonicalMove)>;

// The cached verdicts of one engine key as text: the deep value or proof, "best" on its best move.
inline VerdictText verdictText(const Database& db, const std::string& engineKey) {
  return [&db, engineKey](const PositionKey& key, Cell move) -> std::string {
    const DeepVerdict* v = db.verdict(engineKey, key);
    const DeepMove* m = v ? v->find(move) : nullptr;
    if (!m) return v ? "not searched" : "";
    char text[40];
    if (m->proof != Proof::Unknown) std::snprintf(text, sizeof text, "%s", m->proof == Proof::Win ? "proven win" : "proven loss");
    else std::snprintf(text, sizeof text, "%.3f", double(m->value));
    return std::string(text) + (v->best == move ? " (best)" : "");
  };
}

class BookPrinter {
 public:
  BookPrinter(const Database& db, const Choices& choices, const PackOptions& opt, VerdictText verdict = nullptr)
      : db_(db), choices_(choices), opt_(opt), verdict_(std::move(verdict)) {}

  std::string header(const std::string& indent) const {
    char text[160];
    std::snprintf(text, sizeof text, "%-14s %7s %6s %7s %-6s %-24s", "move", "games", "win", "bound", "proof", "deep search");
    return indent + text + "\n";
  }
  // One line for `move` (actual orientation) in position b; "<- book" marks the packer's move.
  std::string line(const Board& b, Cell move, const std::string& indent, const std::string& note = "") const {
    const Canonical c = canonicalize(b);
    const Cell name = c.toCanonical(move);
    const PositionStats* stats = db_.find(c.key);
    const MoveStats* m = stats ? stats->find(name) : nullptr;
    const MoveStats none;
    const MoveStats& s = m ? *m : none;
    auto it = choices_.find(c.key);
    const bool shipped = it != choices_.end() && it->second.move == name;
    char bound[16] = "-", win[16] = "-";
    if (s.games) std::snprintf(win, sizeof win, "%.3f", s.winRate());
    if (s.games) std::snprintf(bound, sizeof bound, "%.3f", lowerBound(s, opt_));
    const char* proof = s.proof == Proof::Win ? "win" : s.proof == Proof::Loss ? "loss" : "-";
    const std::string deep = verdict_ ? verdict_(c.key, name) : std::string();
    char text[200];
    std::snprintf(text, sizeof text, "%-14s %7u %6s %7s %-6s %-24s", moveName(b, move).c_str(), s.games, win, bound, proof,
                  deep.empty() ? "-" : deep.c_str());
    return indent + text + (shipped ? " <- book" : "") + (note.empty() ? "" : " " + note) + "\n";
  }

  // The stored moves of b (most played first) and the packer's move, then, `depth` - 1 levels
  // deeper, the same for the position after each of them.
  void printPosition(std::ostream& out, const Board& b, int depth, const std::string& indent = "") const {
    const Canonical c = canonicalize(b);
    const PositionStats* stats = db_.find(c.key);
    std::vector<Cell> moves;
    if (stats) {
      std::vector<MoveStats> sorted = stats->moves;
      std::sort(sorted.begin(), sorted.end(), [](const MoveStats& x, const MoveStats& y) { return x.games > y.games; });
      for (const MoveStats& m : sorted) moves.push_back(c.fromCanonical(m.move));
    }
    auto it = choices_.find(c.key);
    if (it != choices_.end() && std::find(moves.begin(), moves.end(), c.fromCanonical(it->second.move)) == moves.end())
      moves.push_back(c.fromCanonical(it->second.move));
    out << indent << "player " << b.toMove() + 1 << " to move, " << b.stoneCount() << " stones, "
        << (stats ? stats->games() : 0) << " games" << (it == choices_.end() ? ", no book move" : "") << "\n";
    if (moves.empty()) return;
    out << header(indent);
    for (Cell m : moves) {
      out << line(b, m, indent);
      Board next = b;
      if (depth > 1 && next.play(m) == Outcome::None) printPosition(out, next, depth - 1, indent + "    ");
    }
  }

  // The packed book: each book move, then the opponent's replies it covers, recursively.
  void printTree(std::ostream& out, const PackedBook& book) const {
    printPackedTree(
        out, book,
        [this](const Board& b, Cell m, const std::string& indent, const std::string& note) { return line(b, m, indent, note); },
        [this](const std::string& indent) { return header(indent); });
  }


  // The swap table: per class of first moves, the steal and the best reply (for the second
  // player), the answer taken as best, and the first player's value and bound after it.
  static void printSwapTable(std::ostream& out, const SwapTable& table) {
    out << "swap table (second player's view for steal/reply; value and bound for the first player after the best answer):\n";
    char text[220];
    std::snprintf(text, sizeof text, "  %-6s | %-19s | %-27s | %-14s %6s %6s %7s\n", "first", "steal games win bnd",
                  "best reply  games win bnd", "answer", "games", "value", "bound");
    out << text;
    for (size_t i = 0; i < table.rows.size(); ++i) {
      const SwapRow& r = table.rows[i];
      auto stats = [](const MoveStats& m, double bound) {
        char s[48];
        if (m.games == 0 && m.proof == Proof::Unknown) return std::string("-");
        std::snprintf(s, sizeof s, "%5u %.2f %s%s", m.games, m.winRate(), bound > -2 ? std::to_string(bound).substr(0, 5).c_str() : "-",
                      m.proof == Proof::Win ? " W" : m.proof == Proof::Loss ? " L" : "");
        return std::string(s);
      };
      Board after;
      after.play(r.first);
      const std::string answer = r.answer == kNoCell ? "-" : moveName(after, r.answer);
      const std::string value = r.provenWin ? "won" : r.provenLoss ? "lost" : r.value.games ? std::to_string(r.value.winRate()).substr(0, 5) : "-";
      const std::string bound = r.rated ? std::to_string(r.bound).substr(0, 6) : "unrated";
      std::snprintf(text, sizeof text, "  %-6s | %-19s | %-5s %-21s | %-14s %6u %6s %7s%s\n", cellName(r.first).c_str(),
                    stats(r.steal, r.stealBound).c_str(), r.reply.games ? cellName(canonicalize(after).fromCanonical(r.reply.move)).c_str() : "-",
                    stats(r.reply, r.replyBound).c_str(), answer.c_str(), r.value.games, value.c_str(), bound.c_str(),
                    int(i) == table.pick ? "  <- first move" : "");
      out << text;
    }
    if (table.pick < 0) out << "  no class is rated above the threshold: the book has no first move\n";
  }

 private:
  const Database& db_;
  const Choices& choices_;
  const PackOptions& opt_;
  VerdictText verdict_;
};

}  // namespace yav::book
