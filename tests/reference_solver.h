// The game value by minimax on the reference rules (reference_rules.h): every legal move of both
// sides, no pruning but a winning move ends a node's loop (nothing beats it), each position's value
// remembered (exact values only, so memoising cannot change one). Quick enough for endgames of up
// to about 16 empty cells reached by quiet play; shares nothing with the core's solvers.
#pragma once

#include <algorithm>
#include <cstdint>
#include <unordered_map>

#include "tests/reference_rules.h"

namespace yav::reference {

class ReferenceSolver {
 public:
  // +1 / 0 / -1: the value for the side to move of an undecided position.
  int value(const ReferenceBoard& r) {
    Key key;
    for (int i = 0; i < 61; ++i)
      if (r.at(i) != ReferenceBoard::kEmpty) (r.at(i) == 0 ? key.first : key.second) |= uint64_t(1) << i;
    const auto known = memo_.find(key);
    if (known != memo_.end()) return known->second;
    int best = -1;
    for (int i = 0; i < 61 && best < 1; ++i) {
      if (r.at(i) != ReferenceBoard::kEmpty) continue;
      ReferenceBoard next = r;
      best = std::max(best, valueOfMove(next, i));
    }
    memo_.emplace(key, int8_t(best));
    return best;
  }

  // The value for the side to move of playing `cell` in `r` (which it changes).
  int valueOfMove(ReferenceBoard& r, int cell) {
    const RefOutcome o = r.play(cell);
    return o == RefOutcome::Win ? 1 : o == RefOutcome::Loss ? -1 : o == RefOutcome::Draw ? 0 : -value(r);
  }

 private:
  struct Key {
    uint64_t first = 0, second = 0;  // the cells of player 0 and of player 1
    bool operator==(const Key& o) const { return first == o.first && second == o.second; }
  };
  struct KeyHash {
    size_t operator()(const Key& k) const { return size_t(k.first * 0x9E3779B97F4A7C15ull ^ k.second); }
  };
  std::unordered_map<Key, int8_t, KeyHash> memo_;
};

}  // namespace yav::reference
