// From the book graph (graph.h) to what ships: the book's move in each expanded position, and how
// likely a game reaches the position, which orders the positions when the text budget is short.
//
// The bot plays its book moves; the opponent is modelled as a mix (GameModel): a share of its
// replies spread evenly over the move classes that do not lose at once (random openings, other
// bots' habits), the rest in proportion to the deep search's visits (a strong MCTS player's
// choice: in match records the no-book bot's replies had a mean visit share of 0.31, while the
// replies' minimaxed values, mostly within 0.02 of each other, ranked them anywhere). The growth
// (grow.h) samples its lines from the same model, so what it expands is what ships.
#pragma once

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <random>
#include <tuple>
#include <utility>
#include <vector>

#include "opening_book.h"
#include "tools/book/graph.h"
#include "tools/book/pack.h"

namespace yav::book {

// The games the book is built for: how they start, and how the opponent replies.
struct GameModel {
  // Starts: k random plies, as the arena's random openings play them (ply 2 is never a steal), in
  // these shares for k = 1 and 2; k = 0 (the empty board, the bot first) takes the rest. After
  // k > 0 plies the bot is either side, evenly: the side to move (after one stone: CodinGame's
  // second player, as opponents open anywhere) or the other, after the opponent's reply.
  // One and two stones weigh the same: the book is judged from both equally, and the share of two
  // stones is spread over 60 times as many starts (61 x 60 against 61).
  double oneStoneShare = 0.4;
  double twoStoneShare = 0.4;
  double uniform = 0.15;  // share of replies spread evenly over the sensible move classes (the
                          // rest: in proportion to the deep search's visits)
  // A player finds the win of a position proven won for it when the position's deep search proved
  // it within this many iterations, about what the bot searches in one turn (searchFindsWin). The
  // bot's book carries a win it would miss; the opponent misses such a win and plays on.
  uint32_t findsWinVisits = 5000;

  double emptyShare() const { return std::max(0.0, 1 - oneStoneShare - twoStoneShare); }
};

// A drawn start: the board after its random plies, and the bot's side (0: it moves first).
struct LineStart {
  Board board;
  int botSide = 0;
};
inline LineStart drawStart(const GameModel& model, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  const double draw = uniform(rng);
  const int plies = draw < model.oneStoneShare ? 1 : draw < model.oneStoneShare + model.twoStoneShare ? 2 : 0;
  LineStart start;
  for (int ply = 0; ply < plies; ++ply) {
    Bitboard cells = start.board.empty();  // never a steal; one or two stones make no 3 or 4
    for (int skip = int(rng() % uint64_t(popcount(cells))); skip > 0; --skip) cells &= cells - 1;
    start.board.play(lowestCell(cells));
  }
  start.botSide = plies == 0 ? 0 : (plies + int(rng() % 2)) % 2;
  return start;
}
// A start at a given position, the bot either side, evenly.
inline LineStart startAt(const Board& root, std::mt19937_64& rng) { return {root, int(rng() % 2)}; }

// The book move of an expanded position (see BookGraph::choice).
inline const BookGraph::Move* bookMove(const BookGraph::Node& node) { return BookGraph::choice(node); }

// The canonical position a move leads to (moves of one class lead to the same), or none when the
// move ends the game.
inline std::optional<PositionKey> childKeyOf(const Board& board, Cell move) {
  Board next = board;
  if (next.play(move) != Outcome::None) return std::nullopt;
  return canonicalize(next).key;
}

// The move a re-pack ships where the book that ships now (`shipped`, may be null) has one: the
// shipped move stays unless the graph's choice is clearly better, its lower bound above the shipped
// move's mean, or the shipped move is proven lost or no longer one the evidence trusts. Why: the
// choice is by lower bound, and bounds a few thousandths apart swap with every night's growth;
// each swap is a coin flip with a cost, since the line that ships was the one measured in matches
// (the re-pack of 2026-11-26, 227b3d1, changed its first move from 2 2 to 2 1 on values 0.495 and
// 0.498, and the empty-board games of the new first move were a different match altogether).
// keepAlways (bookpack --keep-moves): the shipped move stays whatever the bounds say, unless it is
// proven lost or the graph's choice is a proven win and it is not: a re-pack that makes room in the
// text and changes only what a proof refutes.
inline const BookGraph::Move* packedMove(const BookGraph::Node& node, const PositionKey& key,
                                         const OpeningBook* shipped, bool keepAlways = false) {
  const BookGraph::Move* chosen = bookMove(node);
  if (!shipped || !chosen || (chosen->estimate.proof == Proof::Win && !keepAlways)) return chosen;
  const Board board = boardOf(key);
  const std::optional<Cell> kept = shipped->lookup(board);
  if (!kept) return chosen;
  // The node's moves are one per class: find the shipped move's class by the position it leads to.
  const std::optional<PositionKey> keptKey = childKeyOf(board, *kept);
  const BookGraph::Move* incumbent = nullptr;
  for (const BookGraph::Move& m : node.moves)
    if (m.move == *kept || (keptKey && m.ends == Outcome::None && m.childKey == *keptKey)) incumbent = &m;
  if (!incumbent || incumbent == chosen) return chosen;
  if (keepAlways)
    return incumbent->estimate.proof == Proof::Loss ||
                   (chosen->estimate.proof == Proof::Win && incumbent->estimate.proof != Proof::Win)
               ? chosen
               : incumbent;
  if (!BookGraph::trusted(*incumbent, BookGraph::mostVisits(node)) || incumbent->estimate.proof != Proof::Unknown)
    return chosen;
  return chosen->estimate.lower > incumbent->estimate.mean ? chosen : incumbent;
}

// Whether a player's own search finds the win of a position proven won for its side to move: the
// position's deep search proved it within `visits` iterations (it stops as soon as the root is
// proven, so its visits count the iterations it needed; a root solved before any iteration has
// none), about what the bot searches in one turn. A win proven only through the book's deeper
// positions is not found in time. The bot's book carries such a win (the 4 4 opening, stolen, is
// proven lost in the book, and the bot still lost 9 of 22 such games when the book ended at its
// third move); an opponent misses it (in 44 of the 45 games from two random stones where the
// no-book bot, moving third, left the book at once, the book had proven its position won and
// assumed it would play the win; it played the search's favourite instead).
inline bool searchFindsWin(const BookGraph::Node& node, uint32_t visits) {
  uint64_t total = 0;
  bool proven = false;
  for (const BookGraph::Move& m : node.moves) {
    total += m.deep.visits;
    proven |= m.deep.proof == Proof::Win;
  }
  return proven && total <= visits;
}

// Whether the player making `m`, a move proven lost for it, sees the loss in a turn: the move loses
// by the rules, or the position after it is won where the winner's own search finds the win
// (searchFindsWin: the loser's search looks there too). A move whose position is not searched
// counts as seen when the deep search proved it lost. A loss proven only through the book's deeper
// positions is not seen: the no-book bot, given its 1,000 ms first turn, played such a move from
// two random stones, and the book, which had assumed it never would, had no answer there.
inline bool lossIsSeen(const BookGraph& graph, const BookGraph::Move& m, uint32_t visits) {
  if (m.ends == Outcome::Loss) return true;
  if (m.child != BookGraph::kNone) return searchFindsWin(graph.nodes()[size_t(m.child)], visits);
  return m.deep.proof == Proof::Loss;
}

// The opponent's replies in `position` (a canonical key's board) with their probabilities, in the
// key's orientation. A move that wins at once is played, and so is a proven win its own search
// would find (searchFindsWin); a win it would miss is one of its moves like the others. A move
// proven lost is never played while another is left, unless the loss is one it would not see
// (lossIsSeen): that move is one of its moves like the others. In a searched position proven
// lost, the opponent still plays on: any move that does not end the game at once (the book then
// carries the bot's win to where its own search finds it). In a position without a search (or
// whose sensible moves the search never visited) every sensible move class is equally likely.
inline std::vector<std::pair<Cell, double>> replyDistribution(const BookGraph& graph, const PositionKey& key,
                                                              const GameModel& model) {
  std::vector<std::pair<Cell, double>> sensible;  // move, visits of the deep search
  if (const BookGraph::Node* node = graph.find(key)) {
    const bool findsWin = searchFindsWin(*node, model.findsWinVisits);
    for (const BookGraph::Move& m : node->moves)
      if (m.ends == Outcome::Win || (m.estimate.proof == Proof::Win && findsWin)) return {{m.move, 1.0}};
    for (const BookGraph::Move& m : node->moves)
      if (m.estimate.proof != Proof::Loss || !lossIsSeen(graph, m, model.findsWinVisits))
        sensible.push_back({m.move, double(m.deep.visits)});
    if (sensible.empty())
      for (const BookGraph::Move& m : node->moves)
        if (m.ends == Outcome::None) sensible.push_back({m.move, double(m.deep.visits)});
  } else {
    const Board b = boardOf(key);
    const Canonical frame = canonicalize(b);
    for (Cell c : moveClasses(b)) {
      const Outcome o = b.outcomeOf(c);
      if (o == Outcome::Win) return {{frame.toCanonical(c), 1.0}};
      if (o != Outcome::Loss) sensible.push_back({frame.toCanonical(c), 0});
    }
  }
  if (sensible.empty()) return {};  // every move loses: the game is decided
  double visits = 0;
  for (const auto& s : sensible) visits += s.second;
  const double evenShare = visits > 0 ? model.uniform : 1.0;
  std::vector<std::pair<Cell, double>> out;
  for (const auto& [move, v] : sensible)
    out.push_back({move, evenShare / double(sensible.size()) + (visits > 0 ? (1 - evenShare) * v / visits : 0)});
  return out;
}

// The book move of every expanded position the book reaches, with its reach probability as the
// packer's priority, games starting as GameModel says.
// With `shipped`, a position the shipped book answers keeps its move unless the graph's is clearly
// better (packedMove).
inline Choices chooseFromGraph(const BookGraph& graph, const GameModel& model, const OpeningBook* shipped = nullptr,
                               bool keepAlways = false) {
  Choices out;
  // Positions with the bot to move, in an order where every position comes after those leading to
  // it: by stones, and among equal stones the steal-available position first.
  using Order = std::tuple<int, int, PositionKey>;
  std::map<Order, double> frontier;
  auto reach = [&](const PositionKey& key, double p) {
    frontier[Order{popcount(key.mine | key.theirs), key.stealAvailable ? 0 : 1, key}] += p;
  };
  // The starts as drawStart makes them: the bot to move, or the opponent's replies first.
  auto start = [&](const Board& b, double p) {
    const PositionKey key = canonicalize(b).key;
    const Board canonical = boardOf(key);
    reach(key, p / 2);
    for (const auto& [reply, q] : replyDistribution(graph, key, model)) {
      Board next = canonical;
      if (next.play(reply) == Outcome::None) reach(canonicalize(next).key, p / 2 * q);
    }
  };
  reach(PositionKey{}, model.emptyShare());
  for (Cell first = 0; first < kCells; ++first) {
    Board one;
    one.play(first);
    start(one, model.oneStoneShare / kCells);
    for (Cell second = 0; second < kCells; ++second) {
      if (second == first) continue;
      Board two = one;
      two.play(second);
      start(two, model.twoStoneShare / (kCells * (kCells - 1)));
    }
  }
  while (!frontier.empty()) {
    const auto [order, p] = *frontier.begin();
    frontier.erase(frontier.begin());
    const PositionKey& key = std::get<2>(order);
    const BookGraph::Node* node = graph.find(key);
    const BookGraph::Move* move = node ? packedMove(*node, key, shipped, keepAlways) : nullptr;
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

// How many positions answered by both the shipped book and `choices` keep the shipped move's class.
struct KeptMoves {
  size_t same = 0, changed = 0;
  size_t toProven = 0;  // of the changed: the new move is proven (a win)
};
inline KeptMoves keptMoves(const Choices& choices, const OpeningBook& shipped) {
  KeptMoves k;
  for (const auto& [key, choice] : choices) {
    const Board board = boardOf(key);
    const std::optional<Cell> move = shipped.lookup(board);
    if (!move) continue;
    const std::optional<PositionKey> shippedKey = childKeyOf(board, *move);
    const bool same = *move == choice.move || (shippedKey && shippedKey == childKeyOf(board, choice.move));
    ++(same ? k.same : k.changed);
    k.toProven += !same && choice.proven;
  }
  return k;
}

}  // namespace yav::book
