// Forcing-sequence (threat-space) solver: does the side to move win by a chain of threats of 4?
//
// The attacker A moves only where a stone creates a threat (checkCells: a cell that leaves a
// winning cell for A, and neither wins nor loses at once). The defender D's reply is then forced:
// - two threats: D cannot block both, A wins;
// - one threat t: D must take t (D has no winning cell, see below), and loses when t makes D's
//   exactly-3; when t fills the board the line is a draw, which is no win;
// - tempo: if D's block leaves D a winning cell, A must take it next, and that move must itself
//   be a threat; two D winning cells end the line (A cannot stop both).
// D never has a winning cell when it must reply: A's move is played only when D had none, or
// blocks D's only one, and a stone of A cannot give D a new one. So every D move in a proof is
// forced, and a reported win is a real proof. Lines that need a quiet move are not searched
// ("unknown"): the MCTS around it covers those.
//
// Iterative deepening on the number of attacker moves, with a transposition table of positions
// known to have no win within a depth (and of wins). The table is allocated once; the search
// itself allocates nothing. A search cut by its node limit stores nothing it did not finish.
// The attacker's check cells are carried down each line per axis (Board::CheckSets): a step adds
// two stones, which change six lines, so a node redoes those six instead of all 27.
#pragma once

#include <cstdint>

#include "board.h"
#include "transposition_table.h"

namespace yav {

struct ForcingResult {
  bool win = false;
  Cell move = kNoCell;    // the first attacker move of the win
  int depth = 0;          // attacker moves in the win: 1 = a winning cell now, 2 = a double threat or a
                          // block that makes the defender's 3, and so on
  uint64_t nodes = 0;     // attacker positions visited
  bool cutShort = false;  // the node limit stopped it before an answer (win = false then says nothing)
};

// For each cell, the cells within 3 steps of it along its three lines (itself included).
struct LineNeighbours {
  Bitboard cells[kCells];
  constexpr LineNeighbours() : cells() {
    const Geometry& g = kGeometry;
    for (Cell c = 0; c < kCells; ++c)
      for (int k = 0; k < kAxes; ++k) {
        const int line = g.lineOf[k][c], pos = g.posOf[k][c];
        for (int p = pos - 3; p <= pos + 3; ++p)
          if (p >= 0 && p < g.lineLength[k][line]) cells[c] |= bit(g.lineCell[k][line][p]);
      }
  }
};
inline constexpr LineNeighbours kLineNeighbours{};

class ForcingSolver {
 public:
  explicit ForcingSolver(int tableLog2 = 16) : table_(tableLog2) {}

  // A forced win for b.toMove() within maxDepth attacker moves, visiting at most maxNodes
  // attacker positions; otherwise win = false (no such win, or the node limit was reached).
  ForcingResult solve(const Board& b, int maxDepth, uint64_t maxNodes) {
    ForcingResult r;
    nodes_ = 0;
    nodeLimit_ = maxNodes;
    for (int depth = 1; depth <= maxDepth; ++depth) {
      Cell move = kNoCell;
      int found = 0;
      depthCut_ = false;
      const Status s = attack(b, depth, move, found, nullptr);
      if (s == Status::Win) {
        r.win = true, r.move = move, r.depth = found;
        break;
      }
      if (s == Status::Aborted) {
        r.cutShort = true;
        break;
      }
      if (!depthCut_) break;  // no line was cut by the depth: no win at all
    }
    r.nodes = nodes_;
    return r;
  }

  // The cells a defender stone could use against the win `r` just found for b's side to move:
  // the line's attacker moves and forced blocks (and the final threats), plus every cell on a
  // line within 3 of a block or final threat, where a defender stone could turn that block into
  // a 4 or a threat of its own. Cells the defender could win or threaten with at once are not
  // included: callers add them (b.checkCells / winningCells of the defender). kFullBoard when the
  // line cannot be replayed from the table (then every cell counts). Replaying re-solves each
  // step, normally from table hits, with a small node limit of its own.
  // The attacker moves of the line are kept for lineStillWins (none when kFullBoard is returned).
  Bitboard defenceZone(const Board& b, const ForcingResult& r) {
    Bitboard zone = 0;
    Board pos = b;
    const int a = b.toMove(), d = a ^ 1;
    Cell move = r.move;
    lineLength_ = 0;
    for (int left = r.depth; left >= 1; --left) {
      line_[lineLength_++] = move;
      if (pos.winningCells(a) >> move & 1) return zone | bit(move);  // the winning stone
      zone |= bit(move);
      pos.play(move);
      const Bitboard threats = pos.winningCells(a);
      for (Bitboard t = threats; t;) zone |= kLineNeighbours.cells[popLowest(t)];
      if (severalCells(threats) || (pos.losingCells(d) & threats)) return zone;
      pos.play(lowestCell(threats));
      if (left <= 2) return lineLength_ = 0, kFullBoard;  // the line is longer than the win claimed: inconsistent
      int found = 0;
      nodes_ = 0, nodeLimit_ = 1000;
      if (attack(pos, left - 1, move, found, nullptr) != Status::Win) return lineLength_ = 0, kFullBoard;
    }
    return lineLength_ = 0, kFullBoard;
  }

  // The cells where the side to move at b might stop `threat`, the opponent's forced win found
  // at b.passed(): that line's defenceZone with the mover's own threats and wins, or every cell
  // near the end, where a stone anywhere can turn a forced block into the board-filling draw.
  // Keeps the line for lineStillWins, as defenceZone does.
  Bitboard passDefence(const Board& b, const ForcingResult& threat) {
    const Bitboard zone = defenceZone(b.passed(), threat);
    const int me = b.toMove();
    return popcount(b.empty()) < 2 * threat.depth + 4 ? kFullBoard : zone | b.checkCells(me) | b.winningCells(me);
  }

  // Whether the attacker moves of the last defenceZone line still win by force for b's side to
  // move (the same attacker, after one more defender stone): each move must still be a threat
  // (blocking the defender's winning cell when it has one, never making the attacker's 3), its
  // block is forced, and the line ends in a win as solve() would count it. A cheap proof that
  // spares most defender stones of the defence check their own solve; false proves nothing.
  bool lineStillWins(const Board& b) const {
    Board pos = b;
    const int a = b.toMove(), d = a ^ 1;
    for (int i = 0; i < lineLength_; ++i) {
      if (pos.winningCells(a)) return true;
      const Cell m = line_[i];
      const Bitboard defenderWins = pos.winningCells(d);
      if (!(pos.empty() >> m & 1) || (pos.losingCells(a) >> m & 1) || severalCells(defenderWins) ||
          (defenderWins && !(defenderWins >> m & 1)))
        return false;
      const Bitboard threats = pos.winningCellsAfter(m);
      if (severalCells(threats) || (pos.losingCells(d) & threats)) return true;
      if (!threats || (pos.occupied() | bit(m) | threats) == kFullBoard) return false;
      pos.play(m);
      pos.play(lowestCell(threats));
    }
    return pos.winningCells(a) != 0;
  }

 private:
  enum class Status : uint8_t { NoWin, Win, Aborted };

  static constexpr int8_t kNoWinAtAll = 127;  // searched to the end of every line: no forced win

  struct Known {
    int8_t noWinDepth = 0;  // no forced win within this many attacker moves (0: nothing known)
    int8_t winDepth = 0;    // a forced win in this many attacker moves (0: none known)
    int8_t winMove = -1;
  };

  // How a node's CheckSets of the attacker follow from its parent's: the attacker's move and the
  // block are the two stones that changed lines. No parent: the node computes them from scratch.
  struct Lineage {
    const CheckSets* parentSets;
    Cell move, block;
  };

  // The attacker (side to move) at b; `depth` attacker moves left, at least 1.
  Status attack(const Board& b, int depth, Cell& move, int& found, const Lineage* lineage) {
    if (++nodes_ > nodeLimit_) return Status::Aborted;
    const int a = b.toMove(), d = a ^ 1;
    if (const Bitboard wins = b.winningCells(a)) {
      move = lowestCell(wins), found = 1;
      return Status::Win;
    }
    if (const Known* e = table_.find(b.hash())) {
      if (e->winDepth && e->winDepth <= depth) {
        move = e->winMove, found = e->winDepth;
        return Status::Win;
      }
      if (e->noWinDepth >= depth) {
        depthCut_ |= e->noWinDepth != kNoWinAtAll;
        return Status::NoWin;
      }
    }
    if (depth < 2) {
      depthCut_ = true;
      return Status::NoWin;
    }
    // depthCut_ tells whether some line below was cut by the depth limit (the verdict then holds
    // for this depth only); it is kept for the caller as the OR over the whole search.
    const bool cutAbove = depthCut_;
    depthCut_ = false;
    const Status s = search(b, a, d, depth, move, found, lineage);
    const bool cutHere = depthCut_;
    depthCut_ = cutAbove || cutHere;
    if (s == Status::Aborted) return s;
    Known& e = table_.store(b.hash());
    if (s == Status::Win) {
      e.winDepth = int8_t(found), e.winMove = int8_t(move);
    } else if (!cutHere) {
      e.noWinDepth = kNoWinAtAll;
    } else if (e.noWinDepth < depth) {
      e.noWinDepth = int8_t(depth);
    }
    return s;
  }

  Status search(const Board& b, int a, int d, int depth, Cell& move, int& found, const Lineage* lineage) {
    const Bitboard defenderWins = b.winningCells(d);
    if (severalCells(defenderWins)) return Status::NoWin;
    CheckSets sets;
    if (lineage) {
      sets = *lineage->parentSets;
      b.updateCheckSets(a, lineage->move, sets);
      b.updateCheckSets(a, lineage->block, sets);
    } else {
      sets = b.checkSets(a);
    }
    Bitboard candidates = b.checkCells(a, sets) & b.empty();
    if (defenderWins) candidates &= defenderWins;  // the block is forced; it must threaten too
    if (!candidates) return Status::NoWin;

    // First the moves that win after one reply (double threat, or the block makes D's 3); the
    // other moves' forced block cell is kept for the deeper pass.
    Cell replies[kCells];
    int count = 0;
    Cell moves[kCells];
    const Bitboard defenderLoses = b.losingCells(d);  // A's stone at m changes none of D's cells but m
    for (Bitboard c = candidates; c;) {
      const Cell m = popLowest(c);
      const Bitboard threats = b.winningCellsAfter(m);
      if (severalCells(threats) || (defenderLoses & threats)) {
        move = m, found = 2;  // one more attacker move wins
        return Status::Win;
      }
      const Cell t = lowestCell(threats);  // candidates are check cells: exactly one threat here
      if ((b.occupied() | bit(m) | bit(t)) == kFullBoard) continue;  // the block fills the board: a draw
      moves[count] = m, replies[count++] = t;
      if (depth > 2) table_.prefetch(b.hash() ^ zobrist().stone[a][m] ^ zobrist().stone[d][t]);  // next's key
    }
    if (depth <= 2) {  // a win needs at least 3 attacker moves from here
      depthCut_ |= count > 0;
      return Status::NoWin;
    }
    bool aborted = false;
    for (int i = 0; i < count; ++i) {
      Board next = b;  // neither stone wins or loses: A's is a check cell, D's block was tested above
      next.playSensible(moves[i]);
      next.playSensible(replies[i]);
      Cell unused = kNoCell;
      int deeper = 0;
      const Lineage child{&sets, moves[i], replies[i]};
      const Status s = attack(next, depth - 1, unused, deeper, &child);
      if (s == Status::Win) {
        move = moves[i], found = deeper + 1;
        return Status::Win;
      }
      aborted |= s == Status::Aborted;
      if (aborted) break;
    }
    return aborted ? Status::Aborted : Status::NoWin;
  }

  TranspositionTable<Known> table_;
  uint64_t nodes_ = 0, nodeLimit_ = 0;
  bool depthCut_ = false;
  Cell line_[kCells];  // the attacker moves of the last defenceZone line
  int lineLength_ = 0;
};

}  // namespace yav
