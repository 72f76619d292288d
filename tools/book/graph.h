// The search-valued book: a graph of positions (canonical keys, so that transpositions and the 12
// symmetries are one node), each expanded position holding one deep search's verdict (grow.h).
// Values, bounds and proofs are minimaxed through the graph.
//
// Invariants:
// - A node's estimate is for the player to move there; a move's estimate is for the player making it.
// - A move's estimate is, in this order: exact when proven ([1,1] won, [0,0] lost, a move that ends
//   the game by the rules included); the complement of the child's estimate when the child is
//   expanded; otherwise a leaf: the deep search's value, worth its visits clamped to
//   [searchWeightMin, searchWeight] games, pooled with the move's games in the database, +- z
//   standard errors. A move the search never visited is valued as its worst visited sibling; a
//   value above the search's most visited move keeps only visits / (visits + trustVisits) of its
//   excess (see GraphOptions).
// - A node's estimate is that of the move its player's book would choose (BookGraph::choice: of the
//   moves the evidence trusts, the best lower bound), so a value is that of a line, with its bounds.
//   It is proven won iff one move is proven won, proven lost iff every legal move is proven lost.
// - The graph has no cycles: every move adds a stone, except the steal, which clears the steal flag.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <queue>
#include <unordered_set>
#include <utility>
#include <vector>

#include "symmetry.h"
#include "tools/book/database.h"
#include "tools/book/position_index.h"

namespace yav::book {

struct Estimate {
  double mean = 0.5, lower = 0, upper = 1;
  Proof proof = Proof::Unknown;

  Estimate flipped() const { return {1 - mean, 1 - upper, 1 - lower, flipProof(proof)}; }
  bool operator==(const Estimate& o) const {
    return mean == o.mean && lower == o.lower && upper == o.upper && proof == o.proof;
  }
  static Estimate proven(Proof p) {
    return p == Proof::Win ? Estimate{1, 1, 1, p} : p == Proof::Loss ? Estimate{0, 0, 0, p} : Estimate{};
  }
};

struct GraphOptions {
  double z = 2;  // bounds are mean +- z standard errors
  // A search value counts as this many games at most: with many visits its error is bias, not
  // sampling noise, so more visits do not narrow its bounds further.
  double searchWeight = 100;
  // ... and at least this many: the search gave the move few visits because it looked worse than
  // the others, which is evidence too (otherwise every barely tried move would have an upper bound
  // near 1, and so would every position through the minimax of upper bounds).
  double searchWeightMin = 25;
  // A few-visit move valued above the search's most visited move is mostly noise: MCTS gave it
  // few visits because its selection doubted it, and the maximum over 30 noisy values is biased
  // upwards (the winner's curse). Such a leaf keeps visits / (visits + trustVisits) of its excess
  // over the most visited move's value.
  double trustVisits = 100;
};

// What a leaf's value is measured against: its visited siblings in the same search.
struct SiblingValues {
  double worstVisited = 1;  // the value given to a move the search never visited
  double mostVisited = 1;   // the value of the search's most visited move (its choice)
  template <class Moves, class DeepOf>
  static SiblingValues of(const Moves& moves, DeepOf deepOf) {
    SiblingValues s;
    uint32_t most = 0;
    for (const auto& m : moves) {
      const DeepMove& d = deepOf(m);
      if (!d.visits || d.proof != Proof::Unknown) continue;
      s.worstVisited = std::min(s.worstVisited, double(d.value));
      if (d.visits > most) most = d.visits, s.mostVisited = d.value;
    }
    return s;
  }
};

class BookGraph {
 public:
  static constexpr int kNone = -1;

  struct Move {
    Cell move = kNoCell;           // canonical name in the node's key orientation
    Outcome ends = Outcome::None;  // the rules' verdict when the move ends the game
    PositionKey childKey;
    int child = kNone;                   // index of the expanded child, kNone while it is a leaf
    DeepMove deep;                       // the node's search on this move
    uint32_t games = 0, halfPoints = 0;  // the database's games of the move, for the mover
    Estimate estimate;
  };
  struct Node {
    PositionKey key;
    std::vector<Move> moves;
    bool complete = false;  // every legal move class has an entry (needed to prove a loss)
    Estimate estimate;
    uint32_t evaluated = 0;    // generation stamp of `estimate`
    std::vector<int> parents;  // the expanded nodes with a move into this one
  };

  explicit BookGraph(GraphOptions options = GraphOptions()) : options_(options) {}

  // Every verdict of `engineKey` in `db`, with the games of `db`, then evaluates.
  static BookGraph fromDatabase(const Database& db, const std::string& engineKey,
                                GraphOptions options = GraphOptions()) {
    BookGraph g(options);
    auto it = db.verdicts().find(engineKey);
    if (it != db.verdicts().end()) {
      g.nodes_.reserve(it->second.size());
      g.index_.reserve(it->second.size());
      // Every node first, then each node's parents: with all the nodes there, the links found from
      // the child's side are all the links, in one look-up a stone instead of one a move.
      for (const auto& [key, verdict] : it->second) g.expand(key, verdict, db.find(key));
      for (size_t i = 0; i < g.nodes_.size(); ++i) g.linkParents(g.nodes_[i].key, int(i));
    }
    g.evaluate();
    return g;
  }

  const GraphOptions& options() const { return options_; }
  size_t size() const { return nodes_.size(); }
  const std::vector<Node>& nodes() const { return nodes_; }
  const Node* find(const PositionKey& key) const {
    const int n = index_.find(key);
    return n == PositionIndex::kAbsent ? nullptr : &nodes_[size_t(n)];
  }

  // Expands `key` (canonical) with a verdict in canonical moves and the position's games (may be
  // null), linked to the expanded nodes it moves to and to those that move to it. Estimates are
  // stale until evaluate().
  void add(const PositionKey& key, const DeepVerdict& verdict, const PositionStats* games) {
    const int self = expand(key, verdict, games);
    if (self == kNone) return;
    for (Move& m : nodes_[size_t(self)].moves)
      if (m.ends == Outcome::None)
        if (const int child = index_.find(m.childKey); child != PositionIndex::kAbsent)
          m.child = child, addParent(child, self);
    linkParents(key, self);
  }

  // The deep search's visits of the node's most visited move.
  static uint32_t mostVisits(const Node& node) {
    uint32_t most = 0;
    for (const Move& m : node.moves) most = std::max(most, m.deep.visits);
    return most;
  }
  // Whether the evidence trusts a move's value (see choice), `most` being mostVisits(node).
  static bool trusted(const Move& m, uint32_t most) { return m.child != kNone || uint64_t(m.deep.visits) * 10 >= most; }

  // The move the book plays in an evaluated node: a proven win; else, of the moves not proven lost,
  // the one with the best lower bound (ties: the better mean), among the moves the evidence
  // trusts when there is one: an expanded move, or one the search gave at least a tenth of its
  // most visited move's visits. (A move MCTS gave 122 of 200,000 visits is one it rejected; its
  // value is not comparable with a minimaxed sibling's, which the opponent's choice makes lower.)
  // Null when every move is lost.
  static const Move* choice(const Node& node) {
    const uint32_t most = mostVisits(node);
    const Move* best = nullptr;
    bool bestTrusted = false;
    for (const Move& m : node.moves) {
      const Estimate& e = m.estimate;
      if (e.proof == Proof::Win) return &m;
      if (e.proof == Proof::Loss) continue;
      const bool t = trusted(m, most);
      if (best && (t != bestTrusted ? !t
                                    : e.lower < best->estimate.lower ||
                                          (e.lower == best->estimate.lower && e.mean <= best->estimate.mean)))
        continue;
      best = &m, bestTrusted = t;
    }
    return best;
  }

  // Recomputes every estimate (each node once, children first).
  void evaluate() {
    ++generation_;
    for (size_t i = 0; i < nodes_.size(); ++i) evaluateNode(int(i));
  }

  // Brings the estimates up to date after add(key), when they were up to date before it: the new
  // node, then every ancestor whose estimate may have changed, deepest first, each from its
  // children's current estimates. It gives exactly what evaluate() gives, which visits every node:
  // 220 ms at 127,000 positions, and the growth held its lock for that after every search.
  void update(const PositionKey& key) {
    const int added = index_.find(key);
    if (added == PositionIndex::kAbsent) return;
    // A child is deeper than each of its parents: a stone more, or after a steal the same stone with
    // the steal flag cleared. Deepest first, a node is recomputed once, after all its children.
    auto depth = [&](int n) {
      const PositionKey& k = nodes_[size_t(n)].key;
      return 2 * popcount(k.mine | k.theirs) + (k.stealAvailable ? 0 : 1);
    };
    std::priority_queue<std::pair<int, int>> queue;  // (depth, node)
    std::unordered_set<int> queued;
    queue.push({depth(added), added});
    queued.insert(added);
    while (!queue.empty()) {
      const int n = queue.top().second;
      queue.pop();
      const Estimate before = nodes_[size_t(n)].estimate;
      const Estimate& after =
          estimateNode(n, [&](int child) -> const Estimate& { return nodes_[size_t(child)].estimate; });
      if (n != added && after == before) continue;  // the parents saw this estimate already
      for (int p : nodes_[size_t(n)].parents)
        if (queued.insert(p).second) queue.push({depth(p), p});
    }
  }

  // A leaf move's estimate from its search value and games (see the invariants above).
  Estimate leafEstimate(const DeepMove& deep, uint32_t games, uint32_t halfPoints,
                        SiblingValues siblings = {0.5, 1}) const {
    if (deep.proof != Proof::Unknown) return Estimate::proven(deep.proof);
    const double searchWeight = std::clamp(double(deep.visits), options_.searchWeightMin, options_.searchWeight);
    double value = deep.visits ? deep.value : siblings.worstVisited;
    if (value > siblings.mostVisited)
      value =
          siblings.mostVisited + (value - siblings.mostVisited) * deep.visits / (deep.visits + options_.trustVisits);
    const double n = searchWeight + games;
    const double mean = (searchWeight * value + halfPoints / 2.0) / n;
    const double halfWidth = options_.z * 0.5 / std::sqrt(n);
    return {mean, std::max(0.0, mean - halfWidth), std::min(1.0, mean + halfWidth), Proof::Unknown};
  }

 private:
  // Appends the node of `key` with its moves, not yet linked to any other node; kNone when the
  // node exists already.
  int expand(const PositionKey& key, const DeepVerdict& verdict, const PositionStats* games) {
    const int self = int(nodes_.size());
    if (!index_.insert(key, self)) return kNone;
    Node node;
    node.key = key;
    const Board b = boardOf(key);
    const size_t classes = moveClasses(b).size();
    for (const DeepMove& d : verdict.moves) {
      Move m;
      m.move = d.move;
      m.deep = d;
      Board next = b;
      m.ends = next.play(d.move);
      if (m.ends == Outcome::None) m.childKey = canonicalize(next).key;
      if (games)
        if (const MoveStats* s = games->find(d.move))
          m.games = s->games, m.halfPoints = s->halfPoints, m.deep.proof = mergedProof(m.deep.proof, s->proof);
      node.moves.push_back(m);
    }
    node.complete = node.moves.size() >= classes;
    nodes_.push_back(std::move(node));
    return self;
  }

  static Proof mergedProof(Proof search, Proof games) { return search != Proof::Unknown ? search : games; }

  // Makes node `self` (canonical `key`) the child of every expanded node's move that leads to it.
  // Its parents are found from the key rather than remembered by every unexpanded move (millions
  // of them): the position before any stone of the player who moved last, or, for the position
  // right after a steal (the stone keeps its cell and changes owner), the same stone with the steal
  // still open. A one-stone parent may also be the position after a steal; both flags are tried,
  // and only moves whose child key matches are linked, so a wrong guess links nothing.
  void linkParents(const PositionKey& key, int self) {
    auto linkFrom = [&](const PositionKey& parent) {
      const int p = index_.find(canonicalize(parent).key);
      if (p == PositionIndex::kAbsent) return;
      for (Move& m : nodes_[size_t(p)].moves)
        if (m.ends == Outcome::None && m.childKey == key) m.child = self, addParent(self, p);
    };
    const Bitboard last = key.theirs;  // the stones of the player who moved into `key`
    if (popcount(key.mine | key.theirs) == 1 && !key.mine && !key.stealAvailable)
      return linkFrom(PositionKey{0, last, true});  // before the steal
    for (Bitboard stones = last; stones;) {
      const Bitboard before = last & ~bit(popLowest(stones));
      const bool oneStone = popcount(before | key.mine) == 1;
      linkFrom(PositionKey{before, key.mine, false});  // the last mover to move, the stone not yet placed
      if (oneStone) linkFrom(PositionKey{before, key.mine, true});
    }
  }

  void addParent(int child, int parent) {
    std::vector<int>& parents = nodes_[size_t(child)].parents;
    if (std::find(parents.begin(), parents.end(), parent) == parents.end()) parents.push_back(parent);
  }

  // Evaluates a node and, first, every descendant not yet evaluated in this generation.
  const Estimate& evaluateNode(int index) {
    Node& node = nodes_[size_t(index)];  // nodes_ does not grow while evaluating: the reference stays valid
    if (node.evaluated == generation_) return node.estimate;
    estimateNode(index, [&](int child) -> const Estimate& { return evaluateNode(child); });
    node.evaluated = generation_;
    return node.estimate;
  }

  // A node's estimate from its moves, `childEstimate(i)` giving an expanded child's.
  template <class ChildEstimate>
  const Estimate& estimateNode(int index, ChildEstimate childEstimate) {
    Node& node = nodes_[size_t(index)];
    Estimate best{0, 0, 0, Proof::Unknown};
    bool anyWin = false, allLost = node.complete && !node.moves.empty();
    const SiblingValues siblings =
        SiblingValues::of(node.moves, [](const Move& m) -> const DeepMove& { return m.deep; });
    for (Move& m : node.moves) {
      m.estimate = moveEstimate(m, siblings, m.child != kNone ? &childEstimate(m.child) : nullptr);
      anyWin |= m.estimate.proof == Proof::Win;
      allLost &= m.estimate.proof == Proof::Loss;
    }
    if (const Move* chosen = choice(node))
      best = {chosen->estimate.mean, chosen->estimate.lower, chosen->estimate.upper, Proof::Unknown};
    node.estimate = anyWin ? Estimate::proven(Proof::Win) : allLost ? Estimate::proven(Proof::Loss) : best;
    return node.estimate;
  }

  Estimate moveEstimate(const Move& m, SiblingValues siblings, const Estimate* child) const {
    if (m.ends == Outcome::Win) return Estimate::proven(Proof::Win);
    if (m.ends == Outcome::Loss) return Estimate::proven(Proof::Loss);
    if (m.ends == Outcome::Draw) return {0.5, 0.5, 0.5, Proof::Draw};
    // A child proven through the graph proves the move, whatever the move's own search said.
    if (child && (child->proof == Proof::Win || child->proof == Proof::Loss))
      return Estimate::proven(flipProof(child->proof));
    if (m.deep.proof == Proof::Win || m.deep.proof == Proof::Loss) return Estimate::proven(m.deep.proof);
    if (child) return child->flipped();
    return leafEstimate(m.deep, m.games, m.halfPoints, siblings);
  }

  GraphOptions options_;
  std::vector<Node> nodes_;
  PositionIndex index_;
  uint32_t generation_ = 0;
};

}  // namespace yav::book
