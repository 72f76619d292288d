// Depth-first proof-number search (df-pn) of one claim: "the attacker wins from this position".
//
// Invariants:
// - An attacker-to-move node is an OR node (proven when one child is), a defender-to-move node an
//   AND node (proven when every child is). Proof and disproof numbers are those of the claim:
//   pn = 0 proven (the attacker wins), dn = 0 disproven (the defender wins or draws), and
//   kDefenderWins when the disproof rests on no draw: a draw leaf, an attacker-to-move node with
//   one child that may draw, or a defender-to-move node whose disproven children all may, is a
//   plain kDisproven. So a defender's win is as sure as a proof (it is recorded as one).
// - There is no steal: positions are searched as placements only (a class root "not stolen").
// - Moves are cut only by the rules, so a proof is a proof: a winning cell ends a node; with one
//   opponent winning cell the block is the only move; a cell that makes the mover's own 3 is never
//   a choice (for the defender it loses at once, so leaving it out cannot hide a defence).
//   MoveOrder (options.moveOrder) only orders them.
// - A node is settled when it is created by the rules, by the book's proofs (KnownProof, when
//   given), or by the threat-sequence solver (src/forcing.h) for the side to move; and when it is
//   first expanded with few empty cells, by the exact endgame solver (src/endgame.h).
// - The defence zone (options.defenceZone): when the mover's opponent wins by a threat sequence
//   after a pass, a new child outside that line's zone, or one the line still beats, is settled
//   for the opponent without a solve of its own (the rule the bot's search uses, search_proofs.h).
// - The quiet pass (options.quietPass; it reads the defence zone's pass test): when the mover's
//   opponent has no threat sequence after a pass (the solve ended uncut), a new child whose stone
//   makes no run of 3 cells with one of the mover's stones gets no threat solve of its own. The
//   stone only takes cells from the opponent's windows and adds to the mover's blocks, so a line
//   there is nearly always one at the pass too; the exception (the line's forced blocks make the
//   mover's 3 with that stone) is found by the child's children's solves. The skip settles
//   nothing, so no verdict changes, only which nodes are solved how.
// - The quiet start (options.quietProofNumber): a defender-to-move node where the attacker, given
//   a second move, has no threat sequence gets that proof number when df-pn first enters it, and
//   is expanded only when df-pn comes back to it. It changes the order of the search, never a
//   verdict.
// - Positions are merged by their canonical key (12 symmetries) and whose claim they carry, in a
//   ProofTable (proof_table.h). Nothing is replaced during a run, so a proven node stays proven
//   for winningMove(); between runs the table grows, or forgets (forget()) when it may not.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "endgame.h"
#include "forcing.h"
#include "search.h"
#include "symmetry.h"
#include "tools/proof/move_order.h"
#include "tools/proof/position_images.h"
#include "tools/proof/proof_table.h"

namespace yav::proof {

struct ProofSearchOptions {
  int forcingDepth = 12;          // attacker moves of a threat sequence tried at every new node
  uint64_t forcingNodes = 3000;   // its node limit there
  int endgameCells = 14;          // the exact solver at an expansion with at most this many empty cells
  uint64_t endgameNodes = 30000;  // its node limit there
  double epsilon = 0.0625;        // the 1+epsilon trick: a child's threshold exceeds its sibling's by a sixteenth
  bool defenceZone = true;        // settle new children by the opponent's threat line after a pass
  bool quietPass = true;          // no threat solve for a new child far from its mover's stones after a quiet pass
  bool moveOrder = true;          // ties among children broken by MoveOrder (killer, threats, history), else cell order
  size_t maxEntries = 0;          // a run stops when the table holds this many positions, 32 bytes each (0: no limit)
  uint64_t mctsIterations =
      0;              // the bot's MCTS-solver (search.h) at a node's first expansion, this many iterations (0: off)
  int mctsPlies = 2;  // ... at the nodes at most this many plies below the run's root
  uint32_t quietProofNumber = 20;  // a defender-to-move node where the attacker has no threat sequence after a pass
                                   // goes to this pn unexpanded (1: off)
};

// The cells a stone at c can make a run of 3 with: within 2 steps of it along its three lines.
inline Bitboard runOfThreeCells(Cell c) {
  Bitboard cells = 0;
  for (int k = 0; k < kAxes; ++k)
    cells |= kGeometry.spreadSlot(kGeometry.slot[c][k], (0x1fu << kGeometry.posOf[k][c]) >> 2);
  return cells;
}

// b's key as proofs are searched and recorded: placements only, no steal (a one-stone position is
// its class, the position after a steal).
inline PositionKey placementKey(const Board& b) { return {b.stones(b.toMove()), b.stones(b.toMove() ^ 1), false}; }

// A proof the book already holds for the player to move at a canonical position (Unknown when none).
using KnownProof = std::function<Proof(const PositionKey&)>;

class ProofSearch {
 public:
  static uint32_t saturatedSum(uint64_t s) { return uint32_t(std::min<uint64_t>(s, kProofInfinity - 1)); }
  // The 1+epsilon trick: how far a child's number may grow while it stays the most proving, its
  // best sibling's number `second` passed by a share epsilon (plus one).
  static uint64_t passedBy(uint32_t second, double epsilon) { return uint64_t(double(second) * (1 + epsilon)) + 1; }
  // Which open positions a table with room for fewer than `below` keeps beside `settled` settled
  // ones: those of at most the returned number of stones (-1: none), the fewest stones first
  // (the numbers near the roots, which steer the search). openByStones[s]: the open ones of s stones.
  static int openStonesKept(size_t settled, const size_t (&openByStones)[kCells + 1], size_t below) {
    int most = -1;
    for (size_t kept = settled; most < kCells && kept + openByStones[most + 1] < below;) kept += openByStones[++most];
    return most;
  }

  explicit ProofSearch(ProofSearchOptions options = {}, KnownProof known = nullptr)
      : options_(options), known_(std::move(known)), forcing_(18), endgame_(18), table_(options.maxEntries) {}

  // df-pn from b for "attacker (a player index of b) wins", until the root is settled, `budget`
  // more expansions are spent, the table is full (options.maxEntries: then forget and run again),
  // *stop or *pause is set, or the root's numbers reach `limits` (df-pn's thresholds, for a root
  // that is one of several moves: prove.h). The table is kept between calls, so calls with growing
  // budgets continue one search.
  ProofNumbers run(const Board& b, int attacker, uint64_t budget, const std::atomic<bool>* stop = nullptr,
                   const std::atomic<bool>* pause = nullptr, ProofNumbers limits = {kProofInfinity, kProofInfinity}) {
    attacker_ = attacker;
    limit_ = expansions() + budget;
    stop_ = stop, pause_ = pause;
    for (;;) {
      while (!table_.hasRoom() && table_.canGrow()) table_.grow();
      if (!table_.hasRoom()) return lookup(b, attacker);
      Entry& root = entry(b);
      mid(b, root, limits.pn, limits.dn, 0);
      if (root.numbers.settled() || table_.hasRoom() || !table_.canGrow()) return root.numbers;
    }
  }

  // What the table holds for b with attacker `attacker` ({1,1} when b was never reached).
  ProofNumbers lookup(const Board& b, int attacker) const {
    const Entry* e = table_.find(keyOf(b, b.toMove() == attacker));
    return e ? e->numbers : ProofNumbers{};
  }

  // A winning move of the player to move at b, b settled for it by this search (proven with the
  // attacker to move, kDefenderWins with the defender), or kNoCell: a winning cell, a threat
  // sequence's first move, the exact solver's move, or a child settled for it in the table or by
  // the cheap tests (a forgotten child is evaluated again).
  Cell winningMove(const Board& b, int attacker) {
    attacker_ = attacker;
    const int me = b.toMove();
    const bool attackerMoves = me == attacker;
    if (const Bitboard wins = b.winningCells(me)) return lowestCell(wins);
    const ForcingResult f = forcing_.solve(b, options_.forcingDepth, options_.forcingNodes * 10);
    if (f.win) return f.move;
    for (const Child& c : children(b, attacker_)) {
      if (c.terminal == (attackerMoves ? Terminal::AttackerWins : Terminal::DefenderWins)) return c.move;
      if (c.terminal != Terminal::None) continue;
      const ProofKey key = keyOf(c.board, !attackerMoves);
      const Entry* e = table_.find(key);
      const ProofNumbers n =
          e ? e->numbers : evaluate(c.board, !attackerMoves, PositionKey{key.mine, key.theirs, false});
      if (attackerMoves ? n.proven() : n.defenderWins()) return c.move;
    }
    if (popcount(b.empty()) <= options_.endgameCells) {
      const EndgameResult e = endgame_.solve(b, options_.endgameNodes * 10);
      if (e.solved && e.value > 0) return e.move;
    }
    const SearchResult r = mctsSolve(b);  // the search that settled b may have been this one
    return r.proof == Proof::Win ? r.move : kNoCell;
  }

  // The line the search would work on next from b: at each node the most proving child (least
  // proof number at OR nodes, least disproof number at AND nodes), until an unsettled leaf.
  std::vector<Cell> principalLine(const Board& b, int attacker) {
    attacker_ = attacker;
    std::vector<Cell> line;
    Board pos = b;
    for (;;) {
      const Entry* e = table_.find(keyOf(pos, pos.toMove() == attacker));
      if (!e || e->numbers.settled() || !e->expanded()) return line;
      const bool orNode = pos.toMove() == attacker;
      const Child* best = nullptr;
      uint32_t bestNumber = kProofInfinity + 1;
      std::vector<Child> list = children(pos, attacker);
      for (const Child& c : list) {
        if (c.terminal != Terminal::None) continue;
        const ProofNumbers n = lookup(c.board, attacker);
        const uint32_t v = orNode ? n.pn : n.dn;
        if (!n.settled() && v < bestNumber) bestNumber = v, best = &c;
      }
      if (!best) return line;
      line.push_back(best->move);
      pos = best->board;
    }
  }

  enum class Terminal : uint8_t { None, AttackerWins, DefenderWins, Draw };
  struct Child {
    Cell move;
    Terminal terminal;  // a move the rules end the game with, for or against the attacker
    Board board;
  };
  // The moves of b (rule-pruned, one per symmetry class), each with its board or its end.
  std::vector<Child> children(const Board& b, int attacker) const {
    const int me = b.toMove(), opp = me ^ 1;
    const bool orNode = me == attacker;
    const Bitboard threats = b.winningCells(opp);
    const Bitboard moves = threats ? threats : b.empty() & ~b.losingCells(me);
    const Canonical c = canonicalize(placementKey(b));
    std::vector<Child> out;
    Bitboard named = 0;
    for (Bitboard left = moves; left;) {
      const Cell m = popLowest(left);
      if (c.toKey != 1) {  // a symmetric position: one move per class
        const Cell name = c.toCanonical(m);
        if (named >> name & 1) continue;
        named |= bit(name);
      }
      Child child{m, Terminal::None, b};
      const Outcome o = child.board.play(m);
      if (o == Outcome::Win)
        child.terminal = orNode ? Terminal::AttackerWins : Terminal::DefenderWins;
      else if (o == Outcome::Loss)
        child.terminal = orNode ? Terminal::DefenderWins : Terminal::AttackerWins;
      else if (o == Outcome::Draw)
        child.terminal = Terminal::Draw;
      out.push_back(child);
    }
    return out;
  }

  // A node's numbers from its children's: `least` the least of the numbers it minimises (pn at an
  // OR node, dn at an AND node), `sum` the sum of the others. No child, or every child settled
  // against the node's player, settles the node that way. `defenderWins`: whether a disproof
  // rests on no draw (at an OR node every child is kDefenderWins, at an AND node one is).
  static ProofNumbers combined(bool orNode, uint32_t least, uint64_t sum, bool defenderWins) {
    const ProofNumbers disproof = defenderWins ? kDefenderWins : kDisproven;
    if (least >= kProofInfinity) return orNode ? disproof : kProven;
    if (least == 0) return orNode ? kProven : disproof;
    const uint32_t total = saturatedSum(sum);
    return orNode ? ProofNumbers{least, total} : ProofNumbers{total, least};
  }

  // Work done: expansions, and positions settled (either way) since the search began. Both may
  // be read from another thread while the search runs.
  uint64_t expansions() const { return expansions_.load(std::memory_order_relaxed); }
  uint64_t settledPositions() const { return settled_.load(std::memory_order_relaxed); }
  // New positions settled by a parent's pass line (options.defenceZone) without a solve of their own.
  uint64_t zoneSettled() const { return zoneSettled_.load(std::memory_order_relaxed); }
  // New positions left without a threat solve by a parent's quiet pass (options.quietPass).
  uint64_t quietSkipped() const { return quietSkipped_.load(std::memory_order_relaxed); }
  // Defender-to-move positions sent to options.quietProofNumber unexpanded (the attacker quiet there).
  uint64_t quietStarts() const { return quietStarts_.load(std::memory_order_relaxed); }
  // The MCTS-solver's iterations so far (options.mctsIterations a call), and the nodes it settled.
  uint64_t mctsIterationsDone() const { return mctsIterationsDone_.load(std::memory_order_relaxed); }
  uint64_t mctsSettled() const { return mctsSettled_.load(std::memory_order_relaxed); }
  size_t entries() const { return table_.size(); }
  bool full() const { return !table_.hasRoom() && !table_.canGrow(); }
  // Makes room in the table, down to half its limit at most. First
  // go the positions never expanded: each expansion adds every move's position, so they are most
  // of the table, and the cheap tests give their numbers again when their parent is next entered.
  // The expanded ones carry the search's work; if they still fill half the table (a state file's
  // positions, hours of search), the unsettled among them go, those with the most stones first,
  // down to a quarter of the table: the numbers near the roots, which steer the search, stay, and
  // a deep subtree is soon searched again. If the settled ones alone fill half, every position goes.
  void forget() {
    const size_t room = options_.maxEntries / 2;
    table_.keepOnly([](const Entry& e) { return e.expanded(); });
    if (!options_.maxEntries || table_.size() < room) return;
    size_t settled = 0, unsettledByStones[kCells + 1] = {};
    table_.forEach([&](const Entry& e) {
      if (e.numbers.settled())
        ++settled;
      else
        ++unsettledByStones[stonesOf(e)];
    });
    const int most =
        openStonesKept(settled, unsettledByStones, room / 2);  // the unsettled ones of at most this many stones stay
    table_.keepOnly([most](const Entry& e) { return e.numbers.settled() || stonesOf(e) <= most; });
    if (table_.size() >= room) table_.clear();
  }
  // Every position this search expanded and settled with a win for one side (proven, or
  // kDefenderWins; the verdict is the search's work, not a cheap test at its creation): canonical
  // key (for the player to move), whether the attacker moves there, and the mover's proof.
  template <class Visit>
  void forEachExpandedWin(Visit visit) const {
    forEachExpanded([&](const ProofKey& k, ProofNumbers n) {
      const Proof p = moverProof(n, k.attackerToMove);
      if (p != Proof::Unknown) visit(PositionKey{k.mine, k.theirs, false}, k.attackerToMove, p);
    });
  }
  // Every position this search expanded, with its numbers: the search's work (the table's other
  // positions are children the cheap tests give again). visit(ProofKey, ProofNumbers).
  template <class Visit>
  void forEachExpanded(Visit visit) const {
    table_.forEach([&](const Entry& e) {
      if (e.expanded()) visit(e.key(), e.numbers);
    });
  }
  // The numbers of k if this search expanded it (nullptr when not).
  const ProofNumbers* expandedNumbers(const ProofKey& k) const {
    const Entry* e = table_.find(k);
    return e && e->expanded() ? &e->numbers : nullptr;
  }
  // Room for `positions` more adopted ones at once (as far as the table's limit allows).
  void reserveForAdopting(size_t positions) { table_.reserve(table_.size() + positions); }
  // Takes an expanded position of an earlier search (proof_state.h), as if this one had expanded
  // it: the table grows as needed, within its limit. A position this search expanded keeps its
  // numbers unless only the adopted ones are settled. False when the table has no room.
  bool adopt(const ProofKey& key, ProofNumbers n) {
    while (!table_.hasRoom() && table_.canGrow()) table_.grow();
    if (!table_.hasRoom()) return false;
    auto [e, added] = table_.insert(key);
    if (added || (!e->numbers.settled() && (n.settled() || !e->expanded()))) e->numbers = n;
    e->setExpanded();
    return true;
  }

 private:
  using Entry = ProofTable::Slot;
  static ProofKey keyOf(const Board& b, bool attackerToMove) {
    const Canonical c = canonicalize(placementKey(b));
    return {c.key.mine, c.key.theirs, attackerToMove};
  }

  static int stonesOf(const Entry& e) {
    const ProofKey k = e.key();
    return popcount(k.mine | k.theirs);
  }

  static Entry settledChild(ProofNumbers n) {
    Entry e;
    e.numbers = n;
    e.setExpanded();
    return e;
  }

  // What a pass at a parent position shows: whether the opponent of its mover then wins by a
  // threat sequence, and the cells where the mover's stone might stop it (forcing.h's defence
  // zone with the mover's own threats and wins). Worked out at the first new child only.
  struct DefenceCheck {
    const Board* parent;
    bool done = false, opponentWins = false;
    bool opponentQuiet = false;  // the solve after the pass ended uncut, without a line
    Bitboard zone = 0;
    Bitboard runCells = 0;  // where a stone of the mover makes a run of 3 cells with one of its stones
  };

  // Whether the child c of check.parent (a placement of its mover, deciding nothing) is won for
  // its own mover, the parent's opponent, by the line found after the pass.
  bool lostToPassLine(DefenceCheck& check, Cell move, const Board& c) {
    const Board& b = *check.parent;
    if (!check.done) {
      check.done = true;
      const ForcingResult threat = forcing_.solve(b.passed(), options_.forcingDepth, options_.forcingNodes);
      if (!threat.win) {
        check.opponentQuiet = options_.quietPass && !threat.cutShort;
        for (Bitboard s = b.stones(b.toMove()); check.opponentQuiet && s;)
          check.runCells |= runOfThreeCells(popLowest(s));
        return false;
      }
      check.opponentWins = true;
      check.zone = forcing_.passDefence(b, threat);  // keeps the line for lineStillWins
    }
    if (!check.opponentWins) return false;
    return !(check.zone >> move & 1) || forcing_.lineStillWins(c);
  }

  // The entry of b, created and settled by the cheap tests when new.
  Entry& entry(const Board& b) {
    const ProofKey key = keyOf(b, b.toMove() == attacker_);
    auto [e, added] = table_.insert(key);
    if (added) settleNew(*e, b, key, nullptr, kNoCell);
    return *e;
  }

  // Gives the new entry e of b (key) its numbers; `check`, when given, is the parent's pass test,
  // and b its child by `move`.
  void settleNew(Entry& e, const Board& b, const ProofKey& key, DefenceCheck* check, Cell move) {
    const bool orNode = key.attackerToMove;
    if (check && lostToPassLine(*check, move, b)) {
      e.numbers = orNode ? kProven : kDefenderWins;  // the mover here, the parent's opponent, wins
      zoneSettled_.fetch_add(1, std::memory_order_relaxed);
    } else {
      const bool quiet = check && check->opponentQuiet && !(check->runCells >> move & 1);
      if (quiet) quietSkipped_.fetch_add(1, std::memory_order_relaxed);
      e.numbers = evaluate(b, orNode, PositionKey{key.mine, key.theirs, false}, !quiet);
    }
    if (e.numbers.settled()) settled_.fetch_add(1, std::memory_order_relaxed);
  }

  // Whether the attacker, given a second move in a row at the defender-to-move node b, has no
  // threat sequence: the solve of b's pass test (lostToPassLine) ran to its end without one.
  bool attackerQuiet(const Board& b) {
    const ForcingResult f = forcing_.solve(b.passed(), options_.forcingDepth, options_.forcingNodes);
    return !f.win && !f.cutShort;
  }

  // Numbers of a new node from the rules, the book's proofs and the threat solver (unless
  // `threatSolve` is false: the caller knows it finds nothing).
  ProofNumbers evaluate(const Board& b, bool orNode, const PositionKey& canonical, bool threatSolve = true) {
    const int me = b.toMove(), opp = me ^ 1;
    auto moverWins = [&] { return orNode ? kProven : kDefenderWins; };
    auto moverLoses = [&] { return orNode ? kDefenderWins : kProven; };
    if (b.winningCells(me)) return moverWins();
    const Bitboard threats = b.winningCells(opp);
    if (severalCells(threats) || (threats & b.losingCells(me))) return moverLoses();
    if (threats && (b.occupied() | threats) == kFullBoard) return kDisproven;  // the block draws
    if (!b.empty()) return kDisproven;  // a full board: a draw fails the attacker either way
    if (!threats && !(b.empty() & ~b.losingCells(me))) return moverLoses();
    if (known_) {
      const Proof p = known_(canonical);
      if (p == Proof::Win) return moverWins();
      if (p == Proof::Loss) return moverLoses();
    }
    if (threatSolve && forcing_.solve(b, options_.forcingDepth, options_.forcingNodes).win) return moverWins();
    return ProofNumbers{};
  }

  // The bot's MCTS-solver on b for options_.mctsIterations iterations from an empty tree (the same
  // verdict and move each time); Unknown when it is off or b is too small or too full for it.
  SearchResult mctsSolve(const Board& b) {
    SearchResult none;
    if (!options_.mctsIterations || b.stoneCount() < 2 || popcount(b.empty()) <= options_.endgameCells) return none;
    if (!mcts_)
      mcts_ = std::make_unique<Search>(std::max<size_t>(size_t(1) << 16, options_.mctsIterations * 64),
                                       SearchOptions::deepAnalysis());
    mcts_->reset();
    SearchLimits limits;
    limits.iterations = options_.mctsIterations;
    mctsIterationsDone_.fetch_add(options_.mctsIterations, std::memory_order_relaxed);
    return mcts_->run(b, limits);
  }

  // The numbers of a node a solver settled: moverValue +1, 0 or -1 for its player to move (a draw
  // fails the attacker).
  static ProofNumbers solvedNumbers(bool orNode, int moverValue) {
    const int attackerValue = orNode ? moverValue : -moverValue;
    return attackerValue > 0 ? kProven : attackerValue < 0 ? kDefenderWins : kDisproven;
  }

  void mid(const Board& b, Entry& e, uint32_t thpn, uint32_t thdn, int ply) {
    if (e.numbers.settled() || e.numbers.pn >= thpn || e.numbers.dn >= thdn) return;
    const bool orNode = b.toMove() == attacker_;
    if (!e.expanded()) {
      // The quiet start: the pass test this expansion would begin with, alone first (the threat
      // solver's table keeps its answer for the expansion). After a quiet attacker move every
      // defender reply needs a proof of its own: about 40 open children, where a pass line's zone
      // leaves about 5. So such a node goes to quietProofNumber unexpanded, and the parent tries
      // its other children (the attacker's threatening moves) before it comes back.
      if (!orNode && e.numbers.pn < options_.quietProofNumber && popcount(b.empty()) > options_.endgameCells &&
          attackerQuiet(b)) {
        e.numbers.pn = options_.quietProofNumber;
        quietStarts_.fetch_add(1, std::memory_order_relaxed);
        if (e.numbers.pn >= thpn) return;
      }
      e.setExpanded();
      expansions_.fetch_add(1, std::memory_order_relaxed);
      if (popcount(b.empty()) <= options_.endgameCells) {
        const EndgameResult r = endgame_.solve(b, options_.endgameNodes);
        if (r.solved) {
          e.numbers = solvedNumbers(orNode, r.value);
          settled_.fetch_add(1, std::memory_order_relaxed);
          return;
        }
      }
      if (ply <= options_.mctsPlies) {
        const SearchResult r = mctsSolve(b);
        if (r.proof != Proof::Unknown) {
          const bool moverWins = r.proof == Proof::Win;
          e.numbers = solvedNumbers(orNode, moverWins ? 1 : r.proof == Proof::Loss ? -1 : 0);
          settled_.fetch_add(1, std::memory_order_relaxed);
          mctsSettled_.fetch_add(1, std::memory_order_relaxed);
          // The move order learns the winning move as if the children had settled the node: its
          // killer and history serve the siblings the MCTS-solver does not settle.
          if (moverWins && r.move != kNoCell) order_.settled(orNode, b.stoneCount(), r.move);
          return;
        }
      }
    }
    std::vector<Child> list = children(b, attacker_);
    const int stones = b.stoneCount();
    if (options_.moveOrder) order_.sort(list, orNode, stones, b.checkCells(b.toMove()));
    std::vector<Entry*> entries(list.size(), nullptr);
    DefenceCheck check{&b};
    DefenceCheck* pass = options_.defenceZone ? &check : nullptr;
    const PositionImages images(placementKey(b));
    std::vector<ProofKey> keys(list.size());
    for (size_t i = 0; i < list.size(); ++i) {
      if (list[i].terminal != Terminal::None) continue;
      const Canonical c = images.afterPlacement(list[i].move);
      keys[i] = ProofKey{c.key.mine, c.key.theirs, !orNode};
      table_.prefetch(keys[i]);
    }
    // Every child's slot is found before any new one is evaluated: the prefetched misses overlap
    // instead of each waiting behind the last child's threat solve.
    std::vector<uint8_t> isNew(list.size(), 0);
    for (size_t i = 0; i < list.size(); ++i) {
      if (list[i].terminal == Terminal::None) {
        auto [slot, added] = table_.insert(keys[i]);
        entries[i] = slot, isNew[i] = added;
      } else {
        entries[i] = list[i].terminal == Terminal::AttackerWins   ? &attackerWins_
                     : list[i].terminal == Terminal::DefenderWins ? &defenderWins_
                                                                  : &drawn_;
      }
    }
    for (size_t i = 0; i < list.size(); ++i)
      if (isNew[i]) settleNew(*entries[i], list[i].board, keys[i], pass, list[i].move);
    for (;;) {
      // OR: pn = min, dn = sum; AND: pn = sum, dn = min. "phi" is the number the node minimises.
      uint64_t sum = 0;
      uint32_t best = kProofInfinity, second = kProofInfinity;
      size_t bestIndex = 0;
      bool everyDefenderWins = true, someDefenderWins = false;
      for (size_t i = 0; i < list.size(); ++i) {
        const ProofNumbers n = entries[i]->numbers;
        const uint32_t phi = orNode ? n.pn : n.dn, delta = orNode ? n.dn : n.pn;
        sum += delta;
        everyDefenderWins &= n.defenderWins(), someDefenderWins |= n.defenderWins();
        if (phi < best)
          second = best, best = phi, bestIndex = i;
        else if (phi < second)
          second = phi;
      }
      const uint32_t total = saturatedSum(sum);
      const ProofNumbers now = combined(orNode, best, sum, orNode ? everyDefenderWins : someDefenderWins);
      e.numbers = now;
      if (orNode ? now.proven() : now.disproven()) order_.settled(orNode, stones, list[bestIndex].move);
      if (now.settled()) settled_.fetch_add(1, std::memory_order_relaxed);
      if (now.settled() || now.pn >= thpn || now.dn >= thdn) return;
      if (expansions() >= limit_ || !table_.hasRoom() || (stop_ && stop_->load(std::memory_order_relaxed)) ||
          (pause_ && pause_->load(std::memory_order_relaxed)))
        return;
      // The child's thresholds: it may work until its phi passes the second best (times 1+eps),
      // or until the parent's other number would pass its own threshold.
      const ProofNumbers c = entries[bestIndex]->numbers;
      const uint32_t phiLimit = orNode ? thpn : thdn, deltaLimit = orNode ? thdn : thpn;
      const uint64_t grown = passedBy(second, options_.epsilon);
      const uint32_t childPhi =
          uint32_t(std::min<uint64_t>({phiLimit, std::max<uint64_t>(grown, uint64_t(second) + 1), kProofInfinity}));
      const uint32_t childDeltaNow = orNode ? c.dn : c.pn;
      const uint64_t room = uint64_t(deltaLimit) - std::min<uint64_t>(total, deltaLimit) + childDeltaNow;
      const uint32_t childDelta = uint32_t(std::min<uint64_t>(room, kProofInfinity));
      mid(list[bestIndex].board, *entries[bestIndex], orNode ? childPhi : childDelta, orNode ? childDelta : childPhi,
          ply + 1);
    }
  }

  ProofSearchOptions options_;
  KnownProof known_;
  ForcingSolver forcing_;
  EndgameSolver endgame_;
  ProofTable table_;
  MoveOrder order_;
  std::unique_ptr<Search> mcts_;  // made at its first use (options_.mctsIterations)
  Entry attackerWins_ = settledChild(kProven), defenderWins_ = settledChild(kDefenderWins),
        drawn_ = settledChild(kDisproven);  // the children the rules end
  int attacker_ = 0;
  std::atomic<uint64_t> expansions_{0}, settled_{0}, zoneSettled_{0}, quietSkipped_{0}, quietStarts_{0},
      mctsIterationsDone_{0}, mctsSettled_{0};
  uint64_t limit_ = 0;
  const std::atomic<bool>* stop_ = nullptr;
  const std::atomic<bool>* pause_ = nullptr;
};

}  // namespace yav::proof
