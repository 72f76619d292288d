// The book's one text printer: the search-valued book (graph.h) as `bookgen show` prints a
// position, `bookpack --print-tree` the packed book and bookpack its swap table. Real board
// coordinates, the steal labelled, every figure for the player making the move, and two marks kept
// apart: "shipped" (in book/embedded_book.h now) and "re-pack" (what bookpack would ship from the
// database today). (The page of `bookgen html`, html.h, and the analysis board's JSON show the same
// figures in their own form.)
#pragma once

#include <algorithm>
#include <cstdio>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "opening_book.h"
#include "protocol.h"
#include "tools/book/choose.h"
#include "tools/book/graph.h"
#include "tools/book/pack.h"

namespace yav::book {

class GraphPrinter {
 public:
  GraphPrinter(const BookGraph& graph, const Choices& repack, const OpeningBook* shipped)
      : graph_(graph), repack_(repack), shipped_(shipped) {}

  static std::string header(const std::string& indent) {
    char text[200];
    std::snprintf(text, sizeof text, "%-12s %6s %13s %-5s %-18s %-13s", "move", "value", "bounds", "proof",
                  "deep search", "games");
    return indent + text + "   (all for the player making the move)\n";
  }
  // Estimate text of a move; "-" parts where the graph has nothing.
  std::string line(const Board& b, Cell move, const std::string& indent, const std::string& note = "") const {
    const Canonical c = canonicalize(b);
    const Cell name = c.toCanonical(move);
    const BookGraph::Node* node = graph_.find(c.key);
    const BookGraph::Move* m = nullptr;
    if (node)
      for (const BookGraph::Move& x : node->moves)
        if (x.move == name) m = &x;
    char value[16] = "-", bounds[32] = "-", deep[40] = "-", games[32] = "-";
    const char* proof = "-";
    if (m) {
      const Estimate& e = m->estimate;
      std::snprintf(value, sizeof value, "%.3f", e.mean);
      std::snprintf(bounds, sizeof bounds, "%.3f..%.3f", e.lower, e.upper);
      proof = e.proof == Proof::Win ? "win" : e.proof == Proof::Loss ? "loss" : e.proof == Proof::Draw ? "draw" : "-";
      if (m->deep.proof != Proof::Unknown)
        std::snprintf(deep, sizeof deep, "%s", m->deep.proof == Proof::Win ? "proven win" : "proven loss");
      else
        std::snprintf(deep, sizeof deep, "%.3f (%u visits)", double(m->deep.value), m->deep.visits);
      if (m->games) std::snprintf(games, sizeof games, "%u, %.0f%% won", m->games, 50.0 * m->halfPoints / m->games);
    }
    auto shippedMove = [&]() -> std::optional<Cell> { return shipped_ ? shipped_->lookup(b) : std::nullopt; };
    auto it = repack_.find(c.key);
    std::string marks;
    if (shippedMove() && c.toCanonical(*shippedMove()) == name) marks += " <- shipped";
    if (it != repack_.end() && it->second.move == name) marks += " <- re-pack";
    if (m && m->child != BookGraph::kNone) marks += " [searched]";
    char text[240];
    std::snprintf(text, sizeof text, "%-12s %6s %13s %-5s %-18s %-13s", moveName(b, move).c_str(), value, bounds, proof,
                  deep, games);
    return indent + text + marks + (note.empty() ? "" : " " + note) + "\n";
  }

  // The moves of b, best first (by mean), then `depth` - 1 levels deeper for each searched child
  // (at most `width` moves a level).
  void printPosition(std::ostream& out, const Board& b, int depth, size_t width = 12,
                     const std::string& indent = "") const {
    const Canonical c = canonicalize(b);
    const BookGraph::Node* node = graph_.find(c.key);
    out << indent << "player " << b.toMove() + 1 << " to move, " << b.stoneCount() << " stones";
    if (!node) {
      out << ": not searched (not in the book)\n";
      return;
    }
    const Estimate& e = node->estimate;
    char text[120];
    std::snprintf(text, sizeof text, ": value %.3f (%.3f..%.3f)%s for player %d", e.mean, e.lower, e.upper,
                  e.proof == Proof::Win    ? ", proven win"
                  : e.proof == Proof::Loss ? ", proven loss"
                                           : "",
                  b.toMove() + 1);
    out << text << "\n" << header(indent);
    std::vector<const BookGraph::Move*> moves;
    for (const BookGraph::Move& m : node->moves) moves.push_back(&m);
    std::stable_sort(moves.begin(), moves.end(), [](auto* x, auto* y) { return x->estimate.mean > y->estimate.mean; });
    for (size_t i = 0; i < moves.size() && i < width; ++i) {
      const Cell real = c.fromCanonical(moves[i]->move);
      out << line(b, real, indent);
      Board next = b;
      if (depth > 1 && moves[i]->child != BookGraph::kNone && next.play(real) == Outcome::None)
        printPosition(out, next, depth - 1, width, indent + "    ");
    }
    if (moves.size() > width) out << indent << "(" << moves.size() - width << " more moves)\n";
  }

  // The swap table: per class of first moves, its value for the first player after the second
  // player's answer (the steal or a reply, the book's move there), and the book's first move.
  void printSwapTable(std::ostream& out) const {
    out << "swap table (value and bounds for the first player; answer: the second player's book move):\n";
    const BookGraph::Node* root = graph_.find(PositionKey{});
    auto first = repack_.find(PositionKey{});
    for (Cell c : moveClasses(Board())) {
      Board after;
      after.play(c);
      const BookGraph::Move* m = nullptr;
      if (root)
        for (const BookGraph::Move& x : root->moves)
          if (x.move == c) m = &x;
      const Canonical frame = canonicalize(after);
      const BookGraph::Node* answerNode = graph_.find(frame.key);
      const BookGraph::Move* answer = answerNode ? bookMove(*answerNode) : nullptr;
      const auto packed = repack_.find(frame.key);  // the packer's answer, where it differs from the bound's
      const Cell answerMove = packed != repack_.end() ? packed->second.move : answer ? answer->move : kNoCell;
      char text[200];
      std::snprintf(text, sizeof text, "  %-5s %s  answer %-10s%s\n", cellName(c).c_str(),
                    m ? estimateText(m->estimate).c_str() : "not searched                ",
                    answerMove != kNoCell ? moveName(after, frame.fromCanonical(answerMove)).c_str() : "-",
                    first != repack_.end() && first->second.move == c ? "  <- first move (re-pack)" : "");
      out << text;
    }
  }

  // The packed book (bookpack --print-tree): each book move, then the opponent's replies it
  // covers, recursively, one line() a move.
  void printTree(std::ostream& out, const PackedBook& book) const {
    const BookTree& t = book.tree;
    auto node = [&](auto& self, int i, const std::string& indent) -> void {
      const Board& b = book.boards[size_t(i)];
      const Cell move = t.nodes[size_t(i)].move;
      Board after = b;
      if (move == kNoCell)
        out << indent << "(no book move: the opponent moves, as after a random opening)\n";
      else
        out << line(b, move, indent), after.play(move);
      for (const auto& [reply, child] : t.nodes[size_t(i)].replies) {
        out << line(after, reply, indent + "  ", "(reply)");
        self(self, child, indent + "    ");
      }
    };
    out << "first player:\n" << header("  ");
    if (t.firstPlayerRoot >= 0) node(node, t.firstPlayerRoot, "  ");
    out << "second player:\n" << header("  ");
    for (const auto& [firstMove, child] : t.secondPlayerRoots) {
      out << line(Board(), firstMove, "  ", "(first stone)");
      node(node, child, "    ");
    }
  }

  static std::string estimateText(const Estimate& e) {
    char text[64];
    if (e.proof == Proof::Win || e.proof == Proof::Loss)
      std::snprintf(text, sizeof text, "%-28s", e.proof == Proof::Win ? "proven win" : "proven loss");
    else
      std::snprintf(text, sizeof text, "%.3f (bounds %.3f..%.3f)", e.mean, e.lower, e.upper);
    return text;
  }

 private:
  const BookGraph& graph_;
  const Choices& repack_;
  const OpeningBook* shipped_;
};

}  // namespace yav::book
