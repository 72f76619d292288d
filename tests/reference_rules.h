// A slow, obviously-correct Yavalath referee for differential tests: a 9x9 grid in axial
// coordinates, and every question answered by walking the three axes from a cell. It shares no
// table or bit trick with the core (only the cell numbering convention, rebuilt here by hand).
#pragma once

#include <cstdint>
#include <vector>

namespace yav::reference {

enum class RefOutcome { None, Win, Loss, Draw };

constexpr int kSize = 9;
constexpr int kAxisSteps[3][2] = {{1, 0}, {0, 1}, {1, 1}};  // (da, dy)

inline bool onBoard(int a, int y) { return a >= 0 && a < kSize && y >= 0 && y < kSize && a - y <= 4 && y - a <= 4; }
inline int rowLengthOf(int y) { return 9 - (y > 4 ? y - 4 : 4 - y); }
// Cell index (row-major over CodinGame (x, y)) <-> axial (a, y).
inline int indexOf(int a, int y) {
  int index = 0;
  for (int row = 0; row < y; ++row) index += rowLengthOf(row);
  return index + a - (y > 4 ? y - 4 : 0);
}
inline void axialOf(int index, int& a, int& y) {
  y = 0;
  while (index >= rowLengthOf(y)) index -= rowLengthOf(y++);
  a = index + (y > 4 ? y - 4 : 0);
}

class ReferenceBoard {
 public:
  static constexpr int kEmpty = -1;

  ReferenceBoard() {
    for (auto& row : owner_)
      for (int& cell : row) cell = kEmpty;
    for (int index = 0; index < 61; ++index) axialOf(index, a_[index], y_[index]);
  }

  int toMove() const { return toMove_; }
  int at(int index) const { return owner_[y_[index]][a_[index]]; }
  int stoneCount() const { return stones_; }
  // The second player's first turn with exactly one stone (the first player's) on the board.
  bool canSteal() const { return toMove_ == 1 && stones_ == 1 && stonesOf(0).size() == 1; }
  std::vector<int> stonesOf(int player) const {
    std::vector<int> out;
    for (int i = 0; i < 61; ++i)
      if (at(i) == player) out.push_back(i);
    return out;
  }
  std::vector<int> legalMoves() const {
    std::vector<int> out;
    for (int i = 0; i < 61; ++i)
      if (at(i) == kEmpty || (canSteal() && at(i) == 0)) out.push_back(i);
    return out;
  }

  // Longest run of `player`'s stones through (a, y) along one axis, counting (a, y) as theirs.
  int runThrough(int player, int a, int y, int axis) const {
    const int da = kAxisSteps[axis][0], dy = kAxisSteps[axis][1];
    int run = 1;
    for (int aa = a + da, yy = y + dy; onBoard(aa, yy) && owner_[yy][aa] == player; aa += da, yy += dy) ++run;
    for (int aa = a - da, yy = y - dy; onBoard(aa, yy) && owner_[yy][aa] == player; aa -= da, yy -= dy) ++run;
    return run;
  }

  // What a stone of `player` on empty cell `index` would decide for that player (the referee's
  // rule: 4+ on any axis wins, else exactly 3 on any axis loses, else a full board draws).
  RefOutcome outcomeOfPlacing(int player, int index) const {
    bool four = false, three = false;
    for (int axis = 0; axis < 3; ++axis) {
      const int run = runThrough(player, a_[index], y_[index], axis);
      four = four || run >= 4;
      three = three || run == 3;
    }
    if (four) return RefOutcome::Win;
    if (three) return RefOutcome::Loss;
    return stones_ + 1 == 61 ? RefOutcome::Draw : RefOutcome::None;
  }

  // Puts a stone of `player` (or kEmpty) on a cell without playing a move: a position that no game
  // need reach (the line-pattern test); the side to move and the stone count stay as they were.
  void place(int index, int player) { owner_[y_[index]][a_[index]] = player; }
  int axialA(int index) const { return a_[index]; }
  int axialY(int index) const { return y_[index]; }

  // Plays a legal move for the side to move; a steal when it names the first player's stone.
  RefOutcome play(int index) {
    int& cell = owner_[y_[index]][a_[index]];
    if (cell != kEmpty) {  // steal
      cell = 1;
      toMove_ = 0;
      return RefOutcome::None;
    }
    const RefOutcome result = outcomeOfPlacing(toMove_, index);
    cell = toMove_;
    ++stones_;
    toMove_ ^= 1;
    return result;
  }

  // Everything about the empty cells for one player: what a stone there would decide, and the
  // cells that win, lose, or check (see checkCells).
  struct Analysis {
    RefOutcome outcome[61];  // RefOutcome::None for occupied cells
    std::vector<int> winning, losing, check;
  };
  Analysis analyse(int player) const {
    Analysis result;
    for (int i = 0; i < 61; ++i) {
      const RefOutcome o = at(i) == kEmpty ? outcomeOfPlacing(player, i) : RefOutcome::None;
      result.outcome[i] = o;
      if (o == RefOutcome::Win) result.winning.push_back(i);
      if (o == RefOutcome::Loss) result.losing.push_back(i);
      if (at(i) == kEmpty && o != RefOutcome::Win && o != RefOutcome::Loss && makesCheck(player, i))
        result.check.push_back(i);
    }
    return result;
  }
  std::vector<int> winningCells(int player) const { return analyse(player).winning; }
  std::vector<int> losingCells(int player) const { return analyse(player).losing; }
  // Empty cells c that neither win nor lose for `player`, such that after a stone there some 4
  // consecutive cells of a line through c hold three of `player`'s stones and one empty cell.
  std::vector<int> checkCells(int player) const { return analyse(player).check; }

  // After a stone of `player` on empty cell i: does some 4-window through i hold three of its
  // stones and one empty cell?
  bool makesCheck(int player, int i) const {
    enum { kOff, kOwn, kFree, kOther };
    for (int axis = 0; axis < 3; ++axis) {
      int state[7];  // the cells at distance -3..3 from i along the axis, i itself holding the stone
      for (int k = -3; k <= 3; ++k) {
        const int aa = a_[i] + k * kAxisSteps[axis][0], yy = y_[i] + k * kAxisSteps[axis][1];
        state[k + 3] = k == 0                     ? kOwn
                       : !onBoard(aa, yy)         ? kOff
                       : owner_[yy][aa] == player ? kOwn
                       : owner_[yy][aa] == kEmpty ? kFree
                                                  : kOther;
      }
      for (int start = 0; start <= 3; ++start) {  // the windows holding i
        int own = 0, free = 0;
        for (int k = start; k < start + 4; ++k) own += state[k] == kOwn, free += state[k] == kFree;
        if (own == 3 && free == 1) return true;
      }
    }
    return false;
  }

 private:
  int owner_[kSize][kSize];  // [y][a]: kEmpty, 0 or 1
  int a_[61], y_[61];        // axial coordinates of each cell index
  int stones_ = 0;
  int toMove_ = 0;
};

}  // namespace yav::reference
