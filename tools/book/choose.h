// From the book graph (graph.h) to what ships: the book's move in each expanded position, and how
// likely a game reaches the position, which orders the positions when the text budget is short.
//
// The bot plays its book moves; the opponent is modelled as a mix (GameModel): a share of its
// replies spread evenly over the move classes that do not lose at once (random openings, other
// bots' habits), the rest by a softmax of the replies' minimaxed values (a strong player). The
// growth (grow.h) samples its lines from the same model, so what it expands is what ships.
#pragma once

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

#include "tools/book/graph.h"
#include "tools/book/pack.h"

namespace yav::book {

// The games the book is built for: how they start, and how the opponent replies.
struct GameModel {
  // Starts: the empty board with the bot first (the rest); a random first stone, uniform over the
  // 61 cells, with the bot second (CodinGame, where opponents open anywhere); a random first stone
  // with the bot first, its second stone after the opponent's reply (random openings, as local
  // matches play them).
  double secondPlayerShare = 0.4;
  double firstAfterStoneShare = 0.2;
  double uniform = 0.3;       // share of replies spread evenly over the sensible move classes
  double temperature = 0.05;  // the rest: softmax of the replies' values with this temperature
};

// The book move of an expanded position (see BookGraph::choice).
inline const BookGraph::Move* bookMove(const BookGraph::Node& node) { return BookGraph::choice(node); }

// The opponent's replies in `position` (a canonical key's board) with their probabilities, in the
// key's orientation. A move that wins at once is played; moves that lose (proven, or by the rules)
// are never played unless nothing else is left.
inline std::vector<std::pair<Cell, double>> replyDistribution(const BookGraph& graph, const PositionKey& key,
                                                              const GameModel& model) {
  std::vector<std::pair<Cell, double>> out;
  const Board b = boardOf(key);
  std::vector<std::pair<Cell, double>> sensible;  // move, value for the mover (or -1 without an estimate)
  if (const BookGraph::Node* node = graph.find(key)) {
    for (const BookGraph::Move& m : node->moves) {
      if (m.estimate.proof == Proof::Win) return {{m.move, 1.0}};
      if (m.estimate.proof != Proof::Loss) sensible.push_back({m.move, m.estimate.mean});
    }
  } else {
    const Canonical frame = canonicalize(b);
    for (Cell c : moveClasses(b)) {
      const Outcome o = b.outcomeOf(c);
      if (o == Outcome::Win) return {{frame.toCanonical(c), 1.0}};
      if (o != Outcome::Loss) sensible.push_back({frame.toCanonical(c), -1});
    }
  }
  if (sensible.empty()) return out;  // every move loses: the game is decided
  double best = -1, softSum = 0;
  for (const auto& s : sensible) best = std::max(best, s.second);
  const bool valued = best >= 0;
  for (const auto& s : sensible) softSum += valued ? std::exp((s.second - best) / model.temperature) : 1.0;
  const double even = (valued ? model.uniform : 1.0) / double(sensible.size());
  for (const auto& s : sensible) {
    const double soft = valued ? (1 - model.uniform) * std::exp((s.second - best) / model.temperature) / softSum : 0;
    out.push_back({s.first, even + soft});
  }
  return out;
}

// The book move of every expanded position the book reaches, with its reach probability as the
// packer's priority, games starting as GameModel says.
inline Choices chooseFromGraph(const BookGraph& graph, const GameModel& model) {
  Choices out;
  // Positions with the bot to move, in an order where every position comes after those leading to
  // it: by stones, and among equal stones the steal-available position first.
  using Order = std::tuple<int, int, PositionKey>;
  std::map<Order, double> frontier;
  auto reach = [&](const PositionKey& key, double p) {
    frontier[Order{popcount(key.mine | key.theirs), key.stealAvailable ? 0 : 1, key}] += p;
  };
  const double emptyShare = std::max(0.0, 1 - model.secondPlayerShare - model.firstAfterStoneShare);
  reach(PositionKey{}, emptyShare);
  for (Cell c = 0; c < kCells; ++c) {
    Board b;
    b.play(c);
    const PositionKey stone = canonicalize(b).key;
    reach(stone, model.secondPlayerShare / kCells);
    for (const auto& [reply, q] : replyDistribution(graph, stone, model)) {
      Board next = boardOf(stone);
      if (next.play(reply) == Outcome::None) reach(canonicalize(next).key, model.firstAfterStoneShare / kCells * q);
    }
  }
  while (!frontier.empty()) {
    const auto [order, p] = *frontier.begin();
    frontier.erase(frontier.begin());
    const PositionKey& key = std::get<2>(order);
    const BookGraph::Node* node = graph.find(key);
    const BookGraph::Move* move = node ? bookMove(*node) : nullptr;
    if (!move) continue;
    BookChoice& choice = out[key];
    choice.move = move->move;
    choice.bound = move->estimate.lower;
    choice.proven = move->estimate.proof == Proof::Win;
    choice.priority = uint64_t(p * double(uint64_t(1) << 52)) + 1;
    if (move->ends != Outcome::None) continue;
    for (const auto& [reply, q] : replyDistribution(graph, move->childKey, model)) {
      Board next = boardOf(move->childKey);
      if (next.play(reply) == Outcome::None) reach(canonicalize(next).key, p * q);
    }
  }
  return out;
}

}  // namespace yav::book
