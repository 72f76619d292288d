// What the analysis board shows about a position: the book's figures for every legal move (the values,
// bounds and proofs `bookgen show` prints, from the same graph of the database), the move that
// ships in book/embedded_book.h and the one a re-pack would ship, and "think for N ms": the bot's
// own search (the engine and settings of bot/main.cpp) run in this process, its root moves ranked.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "search.h"
#include "tools/arena/json.h"
#include "tools/book/choose.h"
#include "tools/book/db_folder.h"
#include "tools/book/graph.h"
#include "tools/book/grow.h"
#include "tools/book/shipped.h"

namespace yav::board {

inline const char* proofWord(Proof p) {
  return p == Proof::Win ? "win" : p == Proof::Loss ? "loss" : p == Proof::Draw ? "draw" : "";
}

class BookAnalyst {
 public:
  // The search-valued book of `db` (the growth's default budget, as `bookgen show`), with the
  // shipped header when it can be read (else only the re-pack move is marked).
  void use(book::Database db, const std::string& header) {
    db_ = std::move(db);
    book::GrowOptions grown;
    engineKey_ = grown.deep.key();
    graph_ = book::BookGraph::fromDatabase(db_, engineKey_);
    std::string error;
    shipped_.loaded = book::loadShippedBook(header, shipped_.book, error);
    shippedError_ = shipped_.loaded ? "" : error;
    repack_ = book::chooseFromGraph(graph_, grown.model, shipped_.kept());
    loaded_ = true;
  }
  bool load(const std::string& dbPath, const std::string& header, std::string& error) {
    book::Database db;
    if (!book::loadDatabase(dbPath, db, error)) return false;
    use(std::move(db), header);
    return true;
  }
  bool loaded() const { return loaded_; }
  size_t positions() const { return graph_.size(); }
  const std::string& shippedError() const { return shippedError_; }

  // {"in_book":..,"value":..,"lower":..,"upper":..,"proof":..,"shipped":[x,y]|null,"repack":..,"moves":[...]}
  // Every figure is for the player making the move; a move's entry covers every cell of its
  // symmetry class (the book stores one of them).
  std::string analyseJson(const Board& b) const {
    using arena::json::number;
    using arena::json::quote;
    const Canonical c = canonicalize(b);
    const book::BookGraph::Node* node = loaded_ ? graph_.find(c.key) : nullptr;
    std::string s = "{\"book\":" + std::string(loaded_ ? "true" : "false") +
                    ",\"positions\":" + std::to_string(graph_.size()) + ",\"engine\":" + quote(engineKey_) +
                    ",\"in_book\":" + (node ? "true" : "false");
    if (node) {
      const book::Estimate& e = node->estimate;
      s += ",\"value\":" + number(e.mean) + ",\"lower\":" + number(e.lower) + ",\"upper\":" + number(e.upper) +
           ",\"proof\":" + quote(proofWord(e.proof));
    }
    const std::optional<Cell> shipped = shipped_.loaded ? shipped_.book.lookup(b) : std::nullopt;
    const auto repack = repack_.find(c.key);
    const Cell repackMove = repack != repack_.end() ? c.fromCanonical(repack->second.move) : kNoCell;
    s += ",\"shipped\":" + cellJson(shipped ? *shipped : kNoCell) + ",\"repack\":" + cellJson(repackMove) +
         ",\"moves\":[";
    bool first = true;
    for (Cell m = 0; m < kCells && node; ++m) {
      if (!b.isLegal(m)) continue;
      const Cell name = c.toCanonical(m);
      const book::BookGraph::Move* mv = nullptr;
      for (const book::BookGraph::Move& x : node->moves)
        if (x.move == name) mv = &x;
      if (!mv) continue;
      const book::Estimate& e = mv->estimate;
      s += std::string(first ? "" : ",") + "{\"x\":" + std::to_string(geometry().x[m]) +
           ",\"y\":" + std::to_string(geometry().y[m]) + ",\"value\":" + number(e.mean) +
           ",\"lower\":" + number(e.lower) + ",\"upper\":" + number(e.upper) +
           ",\"proof\":" + quote(proofWord(e.proof)) + ",\"deep\":" + number(mv->deep.value) +
           ",\"deep_proof\":" + quote(proofWord(mv->deep.proof)) + ",\"visits\":" + std::to_string(mv->deep.visits) +
           ",\"games\":" + std::to_string(mv->games) +
           ",\"searched\":" + (mv->child != book::BookGraph::kNone ? "true" : "false") +
           ",\"steal\":" + (b.canSteal() && m == b.stealCell() ? "true" : "false") + "}";
      first = false;
    }
    return s + "]}";
  }

  static std::string cellJson(Cell c) {
    if (c == kNoCell) return "null";
    return "[" + std::to_string(geometry().x[c]) + "," + std::to_string(geometry().y[c]) + "]";
  }

 private:
  book::Database db_;
  book::BookGraph graph_;
  book::Choices repack_;
  book::ShippedBook shipped_;
  std::string engineKey_, shippedError_;
  bool loaded_ = false;
};

// The bot's search, as bot/main.cpp configures it, for "think for N ms". One tree, reset before
// each question so that the answer depends on the position and the time alone; one think at a
// time (the others wait for the tree). stopAll() ends every think asked before it, running or
// waiting: the search reads a clock that jumps a day ahead at each reading after the stop, which
// its time control obeys at once (SearchLimits has no stop flag; src/ stays as the bot has it).
class Thinker {
 public:
  explicit Thinker(size_t nodes = size_t(4) << 20) : nodes_(nodes) {}

  // Stops every think asked so far; returns how many there were (running or waiting).
  int stopAll() {
    ++stops_;
    return thinking_.load();
  }
  // The thinks asked and not yet answered.
  int thinking() const { return thinking_.load(); }

  // {"ms":..,"iterations":..,"move":[x,y],"value":..,"proof":..,"stopped":..,"top":[{x,y,visits,value,proof},...]}
  std::string thinkJson(const Board& b, double ms, size_t top = 8) {
    using arena::json::number;
    using arena::json::quote;
    const uint64_t asked = stops_.load();
    ++thinking_;
    struct Answered {
      std::atomic<int>& count;
      ~Answered() { --count; }
    } answered{thinking_};
    std::lock_guard<std::mutex> lock(mutex_);
    const auto start = std::chrono::steady_clock::now();
    SearchResult r;
    const bool run = stops_.load() == asked;  // else stopped while it waited
    jumpMs_ = 0;
    if (run) {
      if (!search_) {
        SearchOptions options;
        options.proverShare = 0.2;  // as the bot: df-pn in the turn's last fifth
        search_ = std::make_unique<Search>(nodes_, options);
      }
      search_->reset();
      search_->useClock([this, asked] {
        if (stops_.load(std::memory_order_relaxed) != asked) jumpMs_ += 864e5;
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count() +
               jumpMs_;
      });
      SearchLimits limits;
      limits.timeMs = ms;
      r = search_->run(b, limits);  // no hard stop: the jump, taken for a pause, shortens no later think
    }
    const bool stopped = !run || jumpMs_ > 0;
    const double elapsed = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    std::vector<RootMove> moves = r.children;
    std::stable_sort(moves.begin(), moves.end(),
                     [](const RootMove& x, const RootMove& y) { return x.visits > y.visits; });
    std::string s = "{\"ms\":" + number(elapsed, 1) + ",\"iterations\":" + std::to_string(r.iterations) +
                    ",\"move\":" + BookAnalyst::cellJson(r.move) + ",\"value\":" + number(r.value) +
                    ",\"proof\":" + quote(proofWord(r.proof)) + ",\"stopped\":" + (stopped ? "true" : "false") +
                    ",\"top\":[";
    for (size_t i = 0; i < moves.size() && i < top; ++i)
      s += std::string(i ? "," : "") + "{\"x\":" + std::to_string(geometry().x[moves[i].move]) +
           ",\"y\":" + std::to_string(geometry().y[moves[i].move]) + ",\"visits\":" + std::to_string(moves[i].visits) +
           ",\"value\":" + number(moves[i].value) + ",\"proof\":" + quote(proofWord(moves[i].proof)) + "}";
    return s + "]}";
  }

 private:
  size_t nodes_;
  std::mutex mutex_;  // the search below: one think at a time
  std::unique_ptr<Search> search_;
  double jumpMs_ = 0;  // what the search's clock has jumped since the stop (read under mutex_)
  std::atomic<uint64_t> stops_{0};
  std::atomic<int> thinking_{0};
};

}  // namespace yav::board
