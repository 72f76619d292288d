// The order in which the proof-number search tries the moves of a node. df-pn enters the first
// child with the least number, and every new child starts at {1,1}, so among the children it has
// not expanded yet the order decides. MoveOrder puts first the move that last settled a node of
// the same depth for the same player (the killer), then the mover's threats (cells that leave it
// a winning cell), then the moves that settled most nodes for that player so far (the history).
//
// Invariant: the order only breaks ties. No move is dropped or added, so a verdict never depends
// on it; only the work to reach it does.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "bitboard.h"

namespace yav::proof {

class MoveOrder {
 public:
  MoveOrder() {
    for (auto& k : killers_) std::fill(std::begin(k), std::end(k), kNoCell);
  }

  // `move` settled a node with `stones` stones for its mover (`attacker`: the claim's attacker):
  // proved it at an OR node, disproved it at an AND node.
  void settled(bool attacker, int stones, Cell move) {
    killers_[attacker][stones] = move;
    if (++history_[attacker][move] >= kHistoryCap)  // halving keeps the proportions and the counts within 32 bits
      for (uint32_t& h : history_[attacker]) h /= 2;
  }

  // Sorts the moves (anything with a `move` cell) of a node with `stones` stones, its mover the
  // claim's attacker or not (`attacker`), its mover's threats at `threats`: killer, threats,
  // history; ties keep their order.
  template <class Item>
  void sort(std::vector<Item>& items, bool attacker, int stones, Bitboard threats) const {
    const Cell killer = killers_[attacker][stones];
    const uint32_t* history = history_[attacker];
    auto score = [&](Cell m) {
      return (m == killer ? uint64_t(2) << 32 : 0) + ((threats >> m & 1) ? uint64_t(1) << 32 : 0) + history[m];
    };
    std::stable_sort(items.begin(), items.end(),
                     [&](const Item& x, const Item& y) { return score(x.move) > score(y.move); });
  }

 private:
  static constexpr uint32_t kHistoryCap = uint32_t(1) << 30;
  Cell killers_[2][kCells + 1];
  uint32_t history_[2][kCells] = {};
};

}  // namespace yav::proof
