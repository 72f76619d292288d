// Writes a proof as a certificate (docs/proofs.md, "Certificate format"): the attacker's move at
// every position reachable when the defender plays any legal move, down to positions that a
// threat sequence of at most `threatDepth` attacker moves wins (the checker finds those itself).
//
// The attacker's move at a position comes, in this order, from: a threat sequence (then the
// position is a leaf and needs no line), the book graph's proven move (its proof may rest on a
// deep search's verdict, so the line below it is proven again here), and a proof-number search
// of the position (proof_search.h). The walk fails, naming the position, when none proves it.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdio>
#include <functional>
#include <map>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "forcing.h"
#include "tools/book/graph.h"
#include "tools/proof/proof_search.h"

namespace yav::proof {

using book::BookGraph;  // the proofs the book already holds

struct CertificateOptions {
  int threatDepth = 4;              // the leaves' threat sequences (the file's threat-depth, 1..8)
  uint64_t searchBudget = 2000000;  // proof-number expansions for one position the graph does not prove
};

// The certificate's text for a strategy table; `comments` are written as '#' lines after the header.
inline std::string certificateText(const Board& root, bool rootWins, int threatDepth,
                                   const std::map<std::pair<Bitboard, Bitboard>, Cell>& table,
                                   const std::vector<std::string>& comments) {
  auto hex = [](Bitboard b) {
    char s[17];
    std::snprintf(s, sizeof s, "%016llx", static_cast<unsigned long long>(b));
    return std::string(s);
  };
  std::string out = "yavalath-certificate 1\n";
  for (const std::string& c : comments) out += "# " + c + "\n";
  out += "root " + hex(root.stones(0)) + " " + hex(root.stones(1)) + " " + std::to_string(root.toMove() + 1) + "\n";
  out += std::string("value ") + (rootWins ? "win" : "loss") + "\n";
  out += "threat-depth " + std::to_string(threatDepth) + "\n";
  out += "positions " + std::to_string(table.size()) + "\n";
  for (const auto& [stones, move] : table) {  // std::map orders by player-1 mask, then player-2 mask
    out += hex(stones.first) + " " + hex(stones.second) + " " + cellName(move) + "\n";
  }
  return out + "end\n";
}

class CertificateWriter {
 public:
  using Progress = std::function<void(const CertificateWriter&)>;

  CertificateWriter(const BookGraph* graph, CertificateOptions options, const std::atomic<bool>* stop = nullptr)
      : graph_(graph), options_(options), stop_(stop), forcing_(18) {}

  // The strategy of `attacker` from `root` (the player to move there, or the other one). False
  // with `error` naming the first position no source could prove, or the interruption.
  bool build(const Board& root, int attacker, std::string& error, Progress progress = nullptr) {
    attacker_ = attacker;
    progress_ = std::move(progress);
    lastProgress_ = std::chrono::steady_clock::now();
    line_.clear();
    const bool ok = root.toMove() == attacker ? attackerAt(root) : defenderAt(root);
    if (!ok) error = error_;
    return ok;
  }

  const std::map<std::pair<Bitboard, Bitboard>, Cell>& table() const { return table_; }
  size_t leaves() const { return leaves_; }
  size_t searched() const { return searched_; }  // positions the proof-number search had to prove
  uint64_t expansions() const { return search_.expansions(); }

 private:
  static std::pair<Bitboard, Bitboard> stonesOf(const Board& b) { return {b.stones(0), b.stones(1)}; }

  std::string where(const Board& b) const {
    std::string moves;
    for (Cell c : line_) moves += (moves.empty() ? "" : "; ") + cellName(c);
    char s[80];
    std::snprintf(s, sizeof s, "position %016llx %016llx (player %d to move)",
                  static_cast<unsigned long long>(b.stones(0)), static_cast<unsigned long long>(b.stones(1)),
                  b.toMove() + 1);
    return std::string(s) + " after '" + moves + "'";
  }
  bool fail(const Board& b, const std::string& why) { return error_ = where(b) + ": " + why, false; }

  // The graph's proven winning move at b (board orientation), or kNoCell.
  Cell graphMove(const Board& b) const {
    if (!graph_) return kNoCell;
    const Canonical c = canonicalize(b);
    const BookGraph::Node* node = graph_->find(c.key);
    if (!node || node->estimate.proof != Proof::Win) return kNoCell;
    for (const BookGraph::Move& m : node->moves)
      if (m.estimate.proof == Proof::Win) return c.fromCanonical(m.move);
    return kNoCell;
  }

  bool attackerAt(const Board& p) {
    if (p.winningCells(attacker_)) return true;  // the checker's threat search of depth 1
    if (!visited_.insert(stonesOf(p)).second) return true;
    if (stop_ && stop_->load(std::memory_order_relaxed)) return error_ = "interrupted", false;
    if (progress_ && std::chrono::steady_clock::now() - lastProgress_ > std::chrono::seconds(10)) {
      progress_(*this);
      lastProgress_ = std::chrono::steady_clock::now();
    }
    if (forcing_.solve(p, options_.threatDepth, 100000).win) return ++leaves_, true;
    Cell move = graphMove(p);
    if (move == kNoCell) {
      const ForcingResult f = forcing_.solve(p, 30, 200000);
      if (f.win) move = f.move;
    }
    if (move == kNoCell) {
      ++searched_;
      const ProofNumbers n = search_.run(p, attacker_, options_.searchBudget, stop_);
      if (n.proven()) move = search_.winningMove(p, attacker_);
      if (move == kNoCell)
        return fail(p, n.disproven()
                           ? "the attacker does not win here (disproved)"
                           : "not proven within " + std::to_string(options_.searchBudget) + " proof-number expansions");
    }
    Board q = p;
    const Outcome o = q.play(move);
    table_[stonesOf(p)] = move;
    if (o == Outcome::Win) return true;
    if (o != Outcome::None) return fail(p, "the proof's move " + cellName(move) + " loses or draws at once");
    line_.push_back(move);
    const bool ok = defenderAt(q);
    line_.pop_back();
    return ok;
  }

  bool defenderAt(const Board& q) {
    for (Bitboard replies = q.empty(); replies;) {
      const Cell r = popLowest(replies);
      const Outcome o = q.outcomeOf(r);
      if (o == Outcome::Loss) continue;  // the defender's own 3
      if (o != Outcome::None)
        return fail(q, "the defender's reply " + cellName(r) + (o == Outcome::Win ? " wins" : " draws"));
      Board p = q;
      p.play(r);
      line_.push_back(r);
      const bool ok = attackerAt(p);
      line_.pop_back();
      if (!ok) return false;
    }
    return true;
  }

  const BookGraph* graph_;
  CertificateOptions options_;
  const std::atomic<bool>* stop_;
  ForcingSolver forcing_;
  ProofSearch search_;
  int attacker_ = 0;
  std::map<std::pair<Bitboard, Bitboard>, Cell> table_;
  struct StonesHash {
    size_t operator()(const std::pair<Bitboard, Bitboard>& s) const {
      return size_t(mix64(s.first * kGoldenGamma ^ s.second));
    }
  };
  std::unordered_set<std::pair<Bitboard, Bitboard>, StonesHash> visited_;
  size_t leaves_ = 0, searched_ = 0;
  std::vector<Cell> line_;
  std::string error_;
  Progress progress_;
  std::chrono::steady_clock::time_point lastProgress_;
};

}  // namespace yav::proof
