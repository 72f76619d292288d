// Proof-driven growth (bookgen prove): proof-number searches of the replies of one target
// position, on every thread, with the book's proofs as settled leaves; each reply settled is a
// verdict of the database, so that later runs, the book graph and the packer build on it.
//
// Invariants:
// - The claim is "the attacker wins from the target", the attacker being the player to move or
//   the other one. The target's moves (rule-pruned, one per symmetry class) are the work items;
//   the target is settled as an OR node (attacker to move) or an AND node over them.
// - A verdict is written only for a position this run settled with a win for one side (a proof,
//   or a disproof that rests on no draw: kDefenderWins): a win carries the winning move alone; a
//   loss carries every move class, each proven lost (so the graph's node is complete). Other
//   disproofs write nothing: "no win" may be a draw.
// - Each item is searched by one thread at a time, for a turn that ends when the budget, which
//   doubles at each turn, is spent, or sooner when the item is no longer the most proving free one
//   among its siblings by df-pn's 1+epsilon rule (turnLimits); the next item is the most proving
//   free one of the item tree (next()); each thread keeps its own table between its items.
// - Items form a tree. A thread that finds no free item splits the open item with the least
//   proof number that another thread works on: that item's moves become items of their own (its
//   thread goes on with it whole). A split item is settled by its own search or by its children
//   (combined as its node type says: ProofSearch::combined), whichever settles it first; only
//   unsplit items are searched.
// - Below the items, the positions a thread's search proves within `recordPlies` plies of the
//   target are recorded too (once each, at each checkpoint and when the thread ends), so that a
//   later run starts from them. Only positions the search expanded count: a cheap test settles
//   the others again at once. The whole of the tables' work is kept only in a state file
//   (proof_state.h), which the caller reads into searches() before run() and writes after, and
//   meanwhile every `stateSeconds` (saveStateWith) while every thread waits between two slices
//   of its search: a table is only read while its thread does not search.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <iomanip>
#include <mutex>
#include <ostream>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tools/book/database.h"
#include "tools/proof/proof_search.h"

namespace yav::proof {

using book::boardOf;  // the positions the searches settled, as boards to record

struct ProveOptions {
  int threads = 2;
  double hours = 0;              // 0: until settled or stopped
  uint64_t firstBudget = 20000;  // expansions of an item's first turn
  double itemEpsilon =
      0.0625;  // a turn also ends when the item's number passes its best free sibling's by this share (-1: never)
  // Where the defender moves in the item tree, the next item is the one with the least proof
  // number (the proof nearest to done, which is kept in the database however the run ends)
  // instead of df-pn's least disproof number (the reply most likely to refute the claim).
  bool cheapestFirst = false;
  double progressSeconds = 30;
  double checkpointSeconds = 600;      // between calls of the checkpoint callback (and at the end)
  int recordPlies = 4;                 // proofs this many plies below the target are recorded (0: the items' only)
  uint64_t sliceExpansions = 2000000;  // a search looks for a checkpoint's request this often (about 5 min)
  double stateSeconds = 3600;          // between calls of the state callback (saveStateWith), threads paused
  ProofSearchOptions search;
  ProveOptions() { search.maxEntries = 120000000; }  // a thread's table: 3.8 GB at most
};

struct ProveItem {
  Cell move = kNoCell;  // the move from its parent (from the target, for a top item)
  Board board;
  ProofNumbers numbers;  // its own search's, or its children's once they settle it
  uint64_t budget = 0;   // expansions its next turn may spend (doubled after a turn that spent it all)
  uint64_t spent = 0;    // expansions its turns have spent
  unsigned turns = 0;
  bool busy = false;
  int parent = -1;                // index of the parent item; -1: a move of the target
  std::vector<size_t> children;   // its moves' items, once split
  Cell proofMove = kNoCell;       // a won item's winning move (its mover wins: moverProof)
  int lastThread = -1;            // the thread of its last turn (whose table holds its tree)
  std::atomic<bool> stop{false};  // set once it or an ancestor is settled (or the run ends)
};

class Prover {
 public:
  // `record(board, proof)`: a position this run settled (proof for its player to move), called
  // under the prover's lock.
  using Record = std::function<void(const Board&, Proof, Cell winningMove)>;

  Prover(const Board& target, int attacker, ProveOptions options, KnownProof known, Record record,
         std::function<void()> checkpoint)
      : target_(target), attacker_(attacker), options_(options), known_(std::move(known)), record_(std::move(record)),
        checkpoint_(std::move(checkpoint)) {
    for (int t = 0; t < options_.threads; ++t)
      searches_.push_back(std::make_unique<ProofSearch>(options_.search, known_));
  }

  // The threads' searches, one a thread, each with its table: a saved state (proof_state.h) is
  // read into them before run() and written from them after.
  std::vector<ProofSearch*> searches() const {
    std::vector<ProofSearch*> out;
    for (const auto& s : searches_) out.push_back(s.get());
    return out;
  }

  // `save` is called every options.stateSeconds of a run, while every thread waits between two
  // slices of its search (a thread's turn goes on afterwards where it stopped).
  void saveStateWith(std::function<void()> save) { saveState_ = std::move(save); }

  // Searches until the target is settled, the hours pass or *stop is set. Progress lines go to log.
  ProofNumbers run(const std::atomic<bool>& stop, std::ostream& log) {
    const auto start = std::chrono::steady_clock::now();
    auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
    addItems(target_, -1);
    std::atomic<bool> done{false};
    std::vector<std::thread> workers;
    searching_ = options_.threads;
    for (int t = 0; t < options_.threads; ++t)
      workers.emplace_back([&, t] {
        work(*searches_[size_t(t)], t, stop, done);
        recordDeeperProofs(*searches_[size_t(t)]);
        std::lock_guard<std::mutex> g(pauseLock_);
        --searching_;
        pauseChanged_.notify_all();
      });
    double lastReport = 0, lastCheckpoint = 0, lastState = 0;
    uint64_t lastSettled = 0;
    while (!done.load()) {
      {
        std::unique_lock<std::mutex> g(lock_);
        changed_.wait_for(g, std::chrono::milliseconds(200));
      }
      const bool timeUp = options_.hours > 0 && elapsed() >= options_.hours * 3600;
      if (timeUp || stop.load() || rootNumbers().settled() || idle_ == options_.threads) {
        std::lock_guard<std::mutex> g(lock_);
        done = true;
        for (ProveItem& i : items_) i.stop = true;
      }
      if (elapsed() - lastReport >= options_.progressSeconds || done.load()) {
        uint64_t expansions = 0, settled = 0;
        for (const auto& s : searches_) expansions += s->expansions(), settled += s->settledPositions();
        report(log, elapsed(), expansions, settled,
               double(settled - lastSettled) / std::max(1e-9, elapsed() - lastReport));
        lastReport = elapsed(), lastSettled = settled;
      }
      if (elapsed() - lastCheckpoint >= options_.checkpointSeconds) {
        std::lock_guard<std::mutex> g(lock_);
        checkpoint_();
        ++checkpoints_;  // each thread records its deeper proofs for the next one
        lastCheckpoint = elapsed();
      }
      if (saveState_ && options_.stateSeconds > 0 && elapsed() - lastState >= options_.stateSeconds && !done.load()) {
        if (pauseThreads(stop) && !rootNumbers().settled()) saveState_();  // a settled target ends the run, which saves
        resumeThreads();
        lastState = elapsed();
      }
    }
    for (std::thread& w : workers) w.join();
    uint64_t settled = 0;
    for (const auto& s : searches_) settled += s->settledPositions();
    settledPositions_ = settled;
    return rootNumbers();
  }

  // The target's winning move once it is won for its mover (else kNoCell).
  Cell targetWinningMove() const {
    std::lock_guard<std::mutex> g(lock_);
    return winningMoveOver(topItems_);
  }

  // The target's numbers from its items: OR when the attacker moves there, else AND.
  ProofNumbers rootNumbers() const {
    std::lock_guard<std::mutex> g(lock_);
    return numbersOver(target_, topItems_);
  }
  // Every item: the target's moves (indices in topItems()) and the moves of split items.
  const std::deque<ProveItem>& items() const { return items_; }
  const std::vector<size_t>& topItems() const { return topItems_; }
  uint64_t settledPositions() const { return settledPositions_; }
  // The target's open moves (indices in items()) in the order a turn chooses among them, the most
  // proving first.
  std::vector<size_t> openTopItems() const {
    std::lock_guard<std::mutex> g(lock_);
    return openByProving(target_, topItems_);
  }
  // Positions below the target's moves recorded (recordPlies).
  size_t deeperRecorded() const {
    std::lock_guard<std::mutex> g(lock_);
    return deeperRecorded_;
  }

 private:
  // A node's numbers from those of the items of its moves (every move, rule-pruned, one a class).
  ProofNumbers numbersOver(const Board& b, const std::vector<size_t>& indices) const {
    const bool orNode = b.toMove() == attacker_;
    uint64_t sum = 0;
    uint32_t best = kProofInfinity;
    bool everyDefenderWins = true, someDefenderWins = false;
    for (size_t k : indices) {
      const ProofNumbers n = shown(items_[k]);
      const uint32_t phi = orNode ? n.pn : n.dn, delta = orNode ? n.dn : n.pn;
      best = std::min(best, phi), sum += delta;
      everyDefenderWins &= n.defenderWins(), someDefenderWins |= n.defenderWins();
    }
    return ProofSearch::combined(orNode, best, sum, orNode ? everyDefenderWins : someDefenderWins);
  }

  // The proof of `n` for the mover at b (Unknown when it settles no win).
  Proof moverProofAt(const Board& b, const ProofNumbers& n) const { return moverProof(n, b.toMove() == attacker_); }

  // A winning move of a position won for its mover, among the items of its moves: one lost for its
  // own mover (kNoCell when none is).
  Cell winningMoveOver(const std::vector<size_t>& indices) const {
    for (size_t k : indices)
      if (moverProofAt(items_[k].board, items_[k].numbers) == Proof::Loss) return items_[k].move;
    return kNoCell;
  }

  // An item's numbers as they stand: its own search's, or, once it is split and each of its open
  // moves has had a turn, its moves' combined.
  ProofNumbers shown(const ProveItem& i) const {
    if (i.numbers.settled() || i.children.empty()) return i.numbers;
    for (size_t k : i.children)
      if (!items_[k].numbers.settled() && items_[k].turns == 0) return i.numbers;
    return numbersOver(i.board, i.children);
  }

  // Items for the moves of `b` (parent: the item of b, or -1 for the target); the rules settle some.
  void addItems(const Board& b, int parent) {
    ProofSearch probe(options_.search, known_);
    for (const ProofSearch::Child& c : probe.children(b, attacker_)) {
      ProveItem& item = items_.emplace_back();  // a deque: the other items stay where they are
      item.move = c.move, item.board = c.board, item.budget = options_.firstBudget, item.parent = parent;
      if (c.terminal == ProofSearch::Terminal::AttackerWins)
        item.numbers = kProven;
      else if (c.terminal == ProofSearch::Terminal::DefenderWins)
        item.numbers = kDefenderWins;
      else if (c.terminal == ProofSearch::Terminal::Draw)
        item.numbers = kDisproven;
      (parent < 0 ? topItems_ : items_[size_t(parent)].children).push_back(items_.size() - 1);
    }
  }

  size_t indexOf(const ProveItem& item) const {
    for (size_t k = 0; k < items_.size(); ++k)
      if (&items_[k] == &item) return k;
    return items_.size();
  }
  ProveItem* parentOf(const ProveItem& item) { return item.parent < 0 ? nullptr : &items_[size_t(item.parent)]; }

  // Whether an item or one of its ancestors is settled (then nothing below it needs work).
  bool settledAbove(const ProveItem& i) const {
    for (const ProveItem* p = &i;; p = &items_[size_t(p->parent)]) {
      if (p->numbers.settled()) return true;
      if (p->parent < 0) return false;
    }
  }

  // A settled item: the searches below it stop.
  void stopBelow(ProveItem& item) {
    item.stop = true;
    for (size_t k : item.children) stopBelow(items_[k]);
  }

  // The item to search next: from the target down the item tree, the most proving open item that
  // is free (the least proof number where the attacker moves, the least disproof number where the
  // defender does; ties: the fewest expansions spent, so each item gets a first turn), a split item
  // leading to its moves. So the threads keep df-pn's focus across items. When every open item is
  // busy, the busy unsplit item with the least proof number is split and one of its moves taken.
  ProveItem* next() {
    for (int pass = 0; pass < 2; ++pass) {
      if (ProveItem* free = mostProving(target_, topItems_)) return free;
      ProveItem* toSplit = nullptr;
      for (ProveItem& i : items_)
        if (i.busy && i.children.empty() && !settledAbove(i) && (!toSplit || i.numbers.pn < toSplit->numbers.pn))
          toSplit = &i;
      if (!toSplit) return nullptr;
      addItems(toSplit->board, int(indexOf(*toSplit)));
      if (toSplit->children.empty()) return nullptr;
      settleFromChildren(*toSplit);
    }
    return nullptr;
  }

  // The open items among `indices` (the moves of b), the most proving first: the least proof
  // number where the attacker moves at b, the least disproof number where the defender does
  // (proof number there too with cheapestFirst);
  // ties: the fewest expansions spent, so each item gets a first turn.
  std::vector<size_t> openByProving(const Board& b, const std::vector<size_t>& indices) const {
    const bool byPn = byProofNumber(b);
    std::vector<std::pair<std::pair<uint32_t, uint64_t>, size_t>> open;  // ((number, expansions spent), index)
    for (size_t k : indices) {
      const ProofNumbers n = shown(items_[k]);
      if (!n.settled()) open.push_back({{byPn ? n.pn : n.dn, items_[k].spent}, k});
    }
    std::sort(open.begin(), open.end());
    std::vector<size_t> order;
    for (const auto& entry : open) order.push_back(entry.second);
    return order;
  }

  // Whether the moves of b are chosen by their proof numbers (where the attacker moves, and
  // everywhere with cheapestFirst) or by their disproof numbers.
  bool byProofNumber(const Board& b) const { return b.toMove() == attacker_ || options_.cheapestFirst; }

  // The most proving free item among `indices` (the moves of b) and below them, or nullptr.
  ProveItem* mostProving(const Board& b, const std::vector<size_t>& indices) {
    for (size_t k : openByProving(b, indices)) {
      ProveItem& i = items_[k];
      if (!i.children.empty()) {
        if (ProveItem* below = mostProving(i.board, i.children)) return below;
      } else if (!i.busy) {
        return &i;
      }
    }
    return nullptr;
  }

  // After an item's numbers changed: each split ancestor that its children now settle takes their
  // combined numbers, and is recorded when it is won for one side.
  void settleFromChildren(ProveItem& item) {
    for (ProveItem* p = &item; p; p = parentOf(*p)) {
      if (p->numbers.settled() || p->children.empty()) continue;
      const ProofNumbers n = numbersOver(p->board, p->children);
      if (!n.settled()) continue;
      p->numbers = n;
      stopBelow(*p);
      const Proof proof = moverProofAt(p->board, n);
      if (proof == Proof::Win) p->proofMove = winningMoveOver(p->children);
      if (proof != Proof::Unknown) record_(p->board, proof, p->proofMove);
    }
  }

  // df-pn's threshold for an item's turn (itemEpsilon >= 0): the turn ends once the number its
  // parent chooses by (byProofNumber: pn where the attacker moves at the parent, dn where the
  // defender does unless cheapestFirst) passes the least of its free open siblings' by
  // itemEpsilon, since the sibling is then the most proving free item; never below the item's
  // number plus one. No free sibling: no limit.
  ProofNumbers turnLimits(const ProveItem& item) const {
    ProofNumbers limits{kProofInfinity, kProofInfinity};
    if (options_.itemEpsilon < 0) return limits;
    const Board& parentBoard = item.parent < 0 ? target_ : items_[size_t(item.parent)].board;
    const std::vector<size_t>& siblings = item.parent < 0 ? topItems_ : items_[size_t(item.parent)].children;
    const bool byPn = byProofNumber(parentBoard);
    uint32_t second = kProofInfinity;
    for (size_t k : siblings) {
      const ProveItem& s = items_[k];
      const ProofNumbers n = shown(s);
      if (&s == &item || n.settled() || (s.busy && s.children.empty())) continue;
      second = std::min(second, byPn ? n.pn : n.dn);
    }
    if (second >= kProofInfinity) return limits;
    const uint32_t own = byPn ? item.numbers.pn : item.numbers.dn;
    const uint64_t grown = ProofSearch::passedBy(second, options_.itemEpsilon);
    const uint32_t limit = uint32_t(std::min<uint64_t>(std::max<uint64_t>(grown, uint64_t(own) + 1), kProofInfinity));
    (byPn ? limits.pn : limits.dn) = limit;
    return limits;
  }

  void work(ProofSearch& search, int thread, const std::atomic<bool>& stop, const std::atomic<bool>& done) {
    unsigned recordedAt = 0;  // the checkpoints this thread has recorded its deeper proofs for
    for (;;) {
      pausePoint();
      ProveItem* item;
      uint64_t budget;
      Board board;
      ProofNumbers limits;
      {
        std::lock_guard<std::mutex> g(lock_);
        if (done.load() || numbersOver(target_, topItems_).settled()) return;
        item = next();
        if (!item) {  // nothing left to share: this thread is done
          ++idle_;
          changed_.notify_all();
          return;
        }
        item->busy = true, budget = item->budget, board = item->board;
        limits = turnLimits(*item);
        ++turns_, movedTurns_ += item->lastThread >= 0 && item->lastThread != thread;  // its tree is in another table
        item->lastThread = thread;
      }
      if (search.full()) search.forget();
      const uint64_t before = search.expansions();
      const ProofNumbers n = runSliced(search, *item, budget, limits, recordedAt);
      const uint64_t used = search.expansions() - before;
      const std::vector<Cell> line = search.principalLine(board, attacker_);
      const Proof proof = moverProofAt(board, n);
      const Cell win = proof == Proof::Win ? search.winningMove(board, attacker_) : kNoCell;
      std::lock_guard<std::mutex> g(lock_);
      // A turn that df-pn's rule ended keeps its budget: with many short turns a doubling at each
      // would overflow.
      item->busy = false, item->spent += used, ++item->turns;
      if (used >= budget) item->budget = std::min<uint64_t>(budget * 2, uint64_t(1) << 50);
      if (!item->numbers.settled()) {  // not settled meanwhile by its children
        item->numbers = n, item->proofMove = win;
        if (proof != Proof::Unknown) record_(board, proof, win);
        if (n.settled()) stopBelow(*item);
      }
      std::vector<Cell> path(line);
      for (const ProveItem* p = item; p; p = parentOf(*p)) path.insert(path.begin(), p->move);
      if (!n.settled() && path.size() >= deepest_.size()) deepest_ = path;
      if (ProveItem* parent = parentOf(*item)) settleFromChildren(*parent);
      changed_.notify_all();
      if (stop.load()) return;
    }
  }

  // One item's turn of `budget` expansions, in slices: between them, the item shows its numbers
  // so far (progress), and the search's deeper proofs are recorded when a checkpoint came since
  // the thread last recorded them (recordedAt).
  ProofNumbers runSliced(ProofSearch& search, ProveItem& item, uint64_t budget, ProofNumbers limits,
                         unsigned& recordedAt) {
    uint64_t spent = 0;
    for (;;) {
      pausePoint();
      if (checkpoints_.load() != recordedAt) recordedAt = checkpoints_.load(), recordDeeperProofs(search);
      const uint64_t before = search.expansions();
      const ProofNumbers n = search.run(item.board, attacker_, std::min(budget - spent, options_.sliceExpansions),
                                        &item.stop, &pausing_, limits);
      spent += search.expansions() - before;
      if (n.settled() || spent >= budget || item.stop.load() || search.full() || n.pn >= limits.pn || n.dn >= limits.dn)
        return n;
      if (search.expansions() == before && !pausing_.load()) return n;
      std::lock_guard<std::mutex> g(lock_);
      if (!item.numbers.settled()) item.numbers = n;
    }
  }

  // The positions the search settled with a win for one side 2..recordPlies plies below the
  // target, each recorded once. (One ply below are the target's moves: items, recorded as they
  // settle.)
  void recordDeeperProofs(ProofSearch& search) {
    struct Found {
      PositionKey key;
      bool attackerToMove;
      Proof proof;
    };
    const int targetStones = target_.stoneCount();
    std::vector<Found> found;
    search.forEachExpandedWin([&](const PositionKey& k, bool attackerToMove, Proof p) {
      const int plies = popcount(k.mine | k.theirs) - targetStones;
      if (plies >= 2 && plies <= options_.recordPlies) found.push_back({k, attackerToMove, p});
    });
    std::vector<Found> fresh;
    {
      std::lock_guard<std::mutex> g(lock_);
      for (const Found& f : found)
        if (recordedBelow_.insert({f.key.mine, f.key.theirs}).second) fresh.push_back(f);
    }
    std::vector<std::pair<Board, Cell>> proofs;  // the winning moves, found outside the lock
    for (const Found& f : fresh) {
      const Board b = boardOf(f.key);
      const int attacker = f.attackerToMove ? b.toMove() : b.toMove() ^ 1;
      proofs.push_back({b, f.proof == Proof::Win ? search.winningMove(b, attacker) : kNoCell});
    }
    std::lock_guard<std::mutex> g(lock_);
    for (size_t i = 0; i < fresh.size(); ++i) {
      if (fresh[i].proof == Proof::Win && proofs[i].second == kNoCell) continue;
      record_(proofs[i].first, fresh[i].proof, proofs[i].second);
      ++deeperRecorded_;
    }
  }

  // A thread between two slices of its search waits here while a pause is wanted.
  void pausePoint() {
    std::unique_lock<std::mutex> g(pauseLock_);
    if (!pausing_) return;
    ++paused_;
    pauseChanged_.notify_all();
    pauseChanged_.wait(g, [this] { return !pausing_; });
    --paused_;
  }
  // Waits until every thread still searching waits at its pause point; false (no pause) when
  // *stop is set meanwhile, which ends the run at once.
  bool pauseThreads(const std::atomic<bool>& stop) {
    std::unique_lock<std::mutex> g(pauseLock_);
    pausing_ = true;  // a search stops at its next expansion
    while (paused_ < searching_)
      if (stop.load())
        return false;
      else
        pauseChanged_.wait_for(g, std::chrono::milliseconds(200));
    return true;
  }
  void resumeThreads() {
    std::lock_guard<std::mutex> g(pauseLock_);
    pausing_ = false;
    pauseChanged_.notify_all();
  }

  static constexpr size_t kShownItems = 8;

  void report(std::ostream& log, double seconds, uint64_t expansions, uint64_t settled, double settledRate) const {
    std::lock_guard<std::mutex> g(lock_);
    const ProofNumbers root = numbersOver(target_, topItems_);
    size_t proven = 0, disproven = 0, defenderWins = 0, split = 0;
    for (size_t k : topItems_) {
      const ProofNumbers n = items_[k].numbers;
      proven += n.proven(), disproven += n.disproven(), defenderWins += n.defenderWins();
    }
    for (const ProveItem& i : items_) split += !i.children.empty();
    std::ostringstream line;
    line << std::fixed << std::setprecision(0) << "prove: " << seconds << " s | target pn " << proofNumberText(root.pn)
         << " dn " << proofNumberText(root.dn) << " | replies " << proven << " proven, " << disproven << " disproven ("
         << defenderWins << " won by the defender) of " << topItems_.size();
    if (split) line << " (" << split << " split for idle threads, " << items_.size() << " items)";
    if (options_.threads > 1) line << " | turns " << turns_ << ", " << movedTurns_ << " moved to another thread";
    line << " | " << expansions << " expansions (" << expansions / std::max(1.0, seconds) << "/s) | settled positions "
         << settled << " (" << settledRate * 3600 << "/h)";
    if (options_.recordPlies >= 2) line << " | deeper proofs recorded " << deeperRecorded_;
    const std::vector<size_t> open = openByProving(target_, topItems_);  // at most kShownItems shown
    if (!open.empty()) {
      line << " | open";
      if (open.size() > kShownItems) line << " (the " << kShownItems << " most proving of " << open.size() << ")";
      line << ":";
      for (size_t i = 0; i < std::min(open.size(), kShownItems); ++i) {
        const ProveItem& item = items_[open[i]];
        line << " " << cellName(item.move) << " (pn " << proofNumberText(shown(item).pn) << ", dn "
             << proofNumberText(shown(item).dn) << ");";
      }
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
  std::function<void()> saveState_;
  std::mutex pauseLock_;  // guards the counts below, and pausing_'s changes
  std::condition_variable pauseChanged_;
  std::atomic<bool> pausing_{false};  // a pause is wanted: the searches read it without the lock
  int paused_ = 0, searching_ = 0;    // threads waiting at their pause point; threads not yet ended
  std::vector<std::unique_ptr<ProofSearch>> searches_;
  mutable std::mutex lock_;
  std::condition_variable changed_;  // an item settled or a thread ended: the run loop looks again
  std::deque<ProveItem> items_;
  std::vector<size_t> topItems_;
  std::vector<Cell> deepest_;
  uint64_t settledPositions_ = 0;
  std::atomic<int> idle_{0};              // threads that found nothing left to do
  uint64_t turns_ = 0, movedTurns_ = 0;   // items' turns, and those taken by another thread than the item's last
  std::atomic<unsigned> checkpoints_{0};  // checkpoints so far: a thread records its deeper proofs after each
  std::set<std::pair<Bitboard, Bitboard>> recordedBelow_;  // canonical keys recorded below the items
  size_t deeperRecorded_ = 0;
};

}  // namespace yav::proof
