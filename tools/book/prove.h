// Proof-driven growth (bookgen prove): proof-number searches of the replies of one target
// position, on every thread, with the book's proofs as settled leaves; each reply settled is a
// verdict of the database, so that later runs, the book graph and the packer build on it.
//
// Invariants:
// - The claim is "the attacker wins from the target", the attacker being the player to move or
//   the other one. The target's moves (rule-pruned, one per symmetry class) are the work items;
//   the target is settled as an OR node (attacker to move) or an AND node over them.
// - A verdict is written only for a position this run settled: a proven win carries the winning
//   move alone; a proven loss carries every move class, each proven lost (so the graph's node is
//   complete). Disproofs write nothing: a disproof is "no win", which may be a draw.
// - Each item is searched by one thread at a time with a budget that doubles at each turn, so
//   easy items are settled first; each thread keeps its own table between its items.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <iomanip>
#include <mutex>
#include <ostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tools/book/database.h"
#include "tools/book/proof_search.h"

namespace yav::book {

struct ProveOptions {
  int threads = 2;
  double hours = 0;            // 0: until settled or stopped
  uint64_t firstBudget = 20000;  // expansions of an item's first turn
  double progressSeconds = 30;
  double checkpointSeconds = 600;  // between calls of the checkpoint callback (and at the end)
  ProofSearchOptions search;
  ProveOptions() { search.maxEntries = 30000000; }  // a thread's table: about 2.2 GB at most
};

struct ProveItem {
  Cell move = kNoCell;
  Board board;
  ProofNumbers numbers;
  uint64_t budget = 0;
  bool busy = false;
};

class Prover {
 public:
  // `record(board, proof)`: a position this run settled (proof for its player to move), called
  // under the prover's lock.
  using Record = std::function<void(const Board&, Proof, Cell winningMove)>;

  Prover(const Board& target, int attacker, ProveOptions options, KnownProof known, Record record,
         std::function<void()> checkpoint)
      : target_(target), attacker_(attacker), options_(options), known_(std::move(known)), record_(std::move(record)),
        checkpoint_(std::move(checkpoint)) {}

  // Searches until the target is settled, the hours pass or *stop is set. Progress lines go to log.
  ProofNumbers run(const std::atomic<bool>& stop, std::ostream& log) {
    const auto start = std::chrono::steady_clock::now();
    auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
    ProofSearch probe(options_.search, known_);
    for (const ProofSearch::Child& c : probe.children(target_, attacker_)) {
      ProveItem item;
      item.move = c.move, item.board = c.board, item.budget = options_.firstBudget;
      if (c.terminal == ProofSearch::Terminal::AttackerWins) item.numbers = kProven;
      else if (c.terminal == ProofSearch::Terminal::AttackerFails) item.numbers = kDisproven;
      items_.push_back(item);
    }
    std::atomic<bool> done{false};
    std::vector<std::thread> workers;
    std::vector<std::unique_ptr<ProofSearch>> searches;
    for (int t = 0; t < options_.threads; ++t) searches.push_back(std::make_unique<ProofSearch>(options_.search, known_));
    for (int t = 0; t < options_.threads; ++t)
      workers.emplace_back([&, t] { work(*searches[size_t(t)], stop, done); });
    double lastReport = 0, lastCheckpoint = 0;
    uint64_t lastSettled = 0;
    while (!done.load()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      const bool timeUp = options_.hours > 0 && elapsed() >= options_.hours * 3600;
      if (timeUp || stop.load() || rootNumbers().settled()) done = true;
      if (elapsed() - lastReport >= options_.progressSeconds || done.load()) {
        uint64_t expansions = 0, settled = 0;
        for (const auto& s : searches) expansions += s->expansions(), settled += s->settledPositions();
        report(log, elapsed(), expansions, settled, double(settled - lastSettled) / std::max(1e-9, elapsed() - lastReport));
        lastReport = elapsed(), lastSettled = settled;
      }
      if (elapsed() - lastCheckpoint >= options_.checkpointSeconds) {
        std::lock_guard<std::mutex> g(lock_);
        checkpoint_();
        lastCheckpoint = elapsed();
      }
    }
    for (std::thread& w : workers) w.join();
    uint64_t settled = 0;
    for (const auto& s : searches) settled += s->settledPositions();
    settledPositions_ = settled;
    return rootNumbers();
  }

  // The target's numbers from its items: OR when the attacker moves there, else AND.
  ProofNumbers rootNumbers() const {
    std::lock_guard<std::mutex> g(lock_);
    return rootNumbersLocked();
  }
  const std::vector<ProveItem>& items() const { return items_; }
  uint64_t settledPositions() const { return settledPositions_; }

 private:
  ProofNumbers rootNumbersLocked() const {
    const bool orNode = target_.toMove() == attacker_;
    uint64_t sum = 0;
    uint32_t best = kProofInfinity;
    for (const ProveItem& i : items_) {
      const uint32_t phi = orNode ? i.numbers.pn : i.numbers.dn, delta = orNode ? i.numbers.dn : i.numbers.pn;
      best = std::min(best, phi), sum += delta;
    }
    return ProofSearch::combined(orNode, best, sum);
  }

  // The unsettled item nobody works on with the least proof number (ties: the least budget spent).
  ProveItem* next() {
    ProveItem* best = nullptr;
    for (ProveItem& i : items_)
      if (!i.busy && !i.numbers.settled() &&
          (!best || i.budget < best->budget || (i.budget == best->budget && i.numbers.pn < best->numbers.pn)))
        best = &i;
    return best;
  }

  void work(ProofSearch& search, const std::atomic<bool>& stop, const std::atomic<bool>& done) {
    for (;;) {
      ProveItem* item;
      uint64_t budget;
      Board board;
      {
        std::lock_guard<std::mutex> g(lock_);
        if (done.load() || rootNumbersLocked().settled()) return;
        item = next();
        if (!item) return;
        item->busy = true, budget = item->budget, board = item->board;
      }
      if (search.full()) search.forget();
      const ProofNumbers n = search.run(board, attacker_, budget, &done);
      const std::vector<Cell> line = search.principalLine(board, attacker_);
      const Cell win = n.settled() && board.toMove() == attacker_ && n.proven() ? search.winningMove(board, attacker_) : kNoCell;
      std::lock_guard<std::mutex> g(lock_);
      item->busy = false, item->numbers = n, item->budget = budget * 2;
      if (!n.settled() && line.size() + 1 >= deepest_.size()) {
        deepest_ = {item->move};
        deepest_.insert(deepest_.end(), line.begin(), line.end());
      }
      if (n.proven()) record_(board, board.toMove() == attacker_ ? Proof::Win : Proof::Loss, win);
      if (stop.load()) return;
    }
  }

  void report(std::ostream& log, double seconds, uint64_t expansions, uint64_t settled, double settledRate) const {
    std::lock_guard<std::mutex> g(lock_);
    const ProofNumbers root = rootNumbersLocked();
    size_t proven = 0, disproven = 0;
    for (const ProveItem& i : items_) proven += i.numbers.proven(), disproven += i.numbers.disproven();
    std::ostringstream line;
    line << std::fixed << std::setprecision(0) << "prove: " << seconds << " s | target pn " << root.pn << " dn " << root.dn
         << " | replies " << proven << " proven, " << disproven << " disproven of " << items_.size() << " | " << expansions
         << " expansions (" << expansions / std::max(1.0, seconds) << "/s) | settled positions " << settled << " ("
         << settledRate * 3600 << "/h)";
    if (items_.size() - proven - disproven <= 8) {
      line << " | open:";
      for (const ProveItem& i : items_)
        if (!i.numbers.settled()) line << " " << cellName(i.move) << " (pn " << i.numbers.pn << ", dn " << i.numbers.dn << ");";
    }
    line << " | deepest open line:";
    for (Cell c : deepest_) line << " " << cellName(c) << ";";
    log << line.str() << "\n" << std::flush;
  }

  Board target_;
  int attacker_;
  ProveOptions options_;
  KnownProof known_;
  Record record_;
  std::function<void()> checkpoint_;
  mutable std::mutex lock_;
  std::vector<ProveItem> items_;
  std::vector<Cell> deepest_;
  uint64_t settledPositions_ = 0;
};

}  // namespace yav::book
