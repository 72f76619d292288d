// The search tree: one pool of nodes allocated once, the root, and keeping the tree from one
// search to the next (tree reuse). Selection, expansion and backups are the search's (search.h).
//
// The children of a node are one contiguous block of the pool, created when the node is expanded;
// nodes hold no board: the search replays the moves from the root's position.
#pragma once

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "board.h"
#include "result.h"

namespace yav {

// One node of the tree, 24 bytes. Deliberately without initialisers so that the pool is not
// touched at allocation (SearchTree::initNode sets every field). Invariants, per field:
struct SearchNode {
  // 0 until the node is expanded, then the index of the first of its childCount children, a
  // contiguous block. Set once; only compaction rewrites it (to the block's new place). Index 0 is
  // never a child: it holds the root (the first one, and the one compaction moves there).
  uint32_t firstChild;
  // Iterations that went through this node; only grows.
  uint32_t visits;
  // Those iterations' half-points (result.h) for the player who moved into this node:
  // halfPoints <= 2 * visits.
  uint32_t halfPoints;
  // RAVE (all moves as first): iterations through the parent in which the parent's side to move
  // played this node's cell later (in the tree or the playout), and their half-points for it;
  // amafHalfPoints <= 2 * amafVisits.
  uint32_t amafVisits, amafHalfPoints;
  // The cell played into this node (a steal is the cell of the opponent's stone); kNoCell for a
  // root created from a position.
  int8_t move;
  // 0 until expanded, then 1..kCells (a node whose moves are all decided is proven instead).
  uint8_t childCount : 6;
  // What the forcing solver knows of a forced win for the side to move here (ForcingMark below).
  uint8_t forcingMark : 2;
  // For the side to move at this node. Unknown until proven; a proof never changes.
  Proof proof;
  // The children not proven won for the opponent ("live": the only ones selection may walk
  // into). They are the block's first liveCount nodes, in the order expansion gave them; the
  // children proven won for the opponent follow (SearchTree::dropLostChildren moves them there).
  // The search scans only the live ones: in a checked node most children are proven lost.
  uint8_t liveCount;

  // Adds (low half) to amafVisits and (high half) to amafHalfPoints in one 64-bit addition: the
  // RAVE update does this for every child of every node on the path, its hottest loop. The low
  // half never carries (amafVisits stays far below 2^32).
  void addAmaf(uint64_t visitsAndHalfPoints) {
    uint64_t both;
    std::memcpy(&both, &amafVisits, sizeof both);
    both += visitsAndHalfPoints;
    std::memcpy(&amafVisits, &both, sizeof both);
  }
};
static_assert(offsetof(SearchNode, amafHalfPoints) == offsetof(SearchNode, amafVisits) + 4,
              "addAmaf updates the two counters as one little-endian 64-bit word");
static_assert(sizeof(SearchNode) == 24, "the pool's size and cache use count on 24-byte nodes");
static_assert(kCells <= INT8_MAX && kCells < 64, "move and childCount (6 bits) hold a cell / a child count");

// SearchNode::forcingMark. The defence check of a parent (search_proofs.h) asks of each move in
// its threat's zone whether the opponent still wins by force; below the root's grandchildren it
// leaves the question to the search's next walk into the child (Pending), since most such children
// are never visited again, and a child whose question was answered no (NoForcedWin) skips the same
// question at its own check visit. A node whose own check ran out of its first, small budget is
// checked again at a later visit with the full one (Retry; SearchOptions::forcingRetryVisits).
namespace ForcingMark {
constexpr uint8_t kUnknown = 0;      // nothing asked yet
constexpr uint8_t kPending = 1;      // to be solved before the search next walks into it
constexpr uint8_t kNoForcedWin = 2;  // solved: the side to move has no forced win within the leaf limits
constexpr uint8_t kRetry = 3;        // its own check was cut short by the first budget: made again later
}  // namespace ForcingMark

constexpr size_t kDefaultNodes = size_t(12) << 20;  // 24 bytes each: 302 MB of address space

class SearchTree {
 public:
  using Index = uint32_t;
  using Node = SearchNode;
  static constexpr Index kNone = UINT32_MAX;

  explicit SearchTree(size_t maxNodes)
      : capacity_(std::max<size_t>(maxNodes, 128)), pool_(new Node[capacity_]) {
  }  // left uninitialised: pages are touched only when used

  Node& operator[](Index i) {
    assert(i < used_);
    return pool_[i];
  }
  const Node& operator[](Index i) const {
    assert(i < used_);
    return pool_[i];
  }
  Index root() const { return root_; }
  const Board& rootBoard() const { return rootBoard_; }  // the position at the root
  size_t used() const { return used_; }                  // nodes in use, from index 0

  // Forgets the tree (the next setRoot starts a new one).
  void clear() {
    used_ = 0;
    root_ = kNone;
  }

  // When moving the root also compacts the pool (compact() below). Compaction moves the whole kept
  // subtree, about 10 ms a million nodes on an idle core and several times that on a loaded one,
  // so a turn on the clock leaves it to the thinking on the opponent's time (ponder.h), which
  // compacts early; a turn compacts only a pool more than half full.
  enum class Compaction {
    Early,      // more than an eighth of the pool in use: off the clock
    WhenShort,  // more than half of it: on the clock, only when room is running short
  };

  // Makes `position` the root: the previous tree is kept when `position` is its root or within
  // two plies of it (our move + the reply), otherwise a new tree of one node starts. Returns
  // whether the tree was kept.
  bool setRoot(const Board& position, Compaction compaction) {
    const bool kept = adoptRoot(position, compaction);
    if (!kept) {
      used_ = 1;  // the pool holds at least 128 nodes
      root_ = 0;
      initNode(pool_[root_], kNoCell);
    }
    rootBoard_ = position;
    return kept;
  }

  // `count` consecutive new nodes (not initialised), or kNone when the pool is full.
  Index allocate(size_t count) {
    if (used_ + count > capacity_) return kNone;
    Index i = Index(used_);
    used_ += count;
    return i;
  }

  static void initNode(Node& n, Cell move) {
    n.firstChild = 0;
    n.visits = n.halfPoints = n.amafVisits = n.amafHalfPoints = 0;
    n.move = int8_t(move);
    n.childCount = 0;
    n.forcingMark = ForcingMark::kUnknown;
    n.proof = Proof::Unknown;
    n.liveCount = 0;
  }

  // Restores node idx's liveCount invariant after some of its live children were proven won for
  // the opponent: moves those behind the others, keeping the order of the rest (so selection
  // still meets the live children in the order it did). Indices of the moved children change.
  // By hand rather than std::stable_partition, which may allocate a buffer: this runs in the
  // search's proof backups.
  void dropLostChildren(Index idx) {
    Node& n = (*this)[idx];
    Node lost[kCells];
    int lostCount = 0;
    Index kept = n.firstChild;
    for (Index i = n.firstChild, end = n.firstChild + n.liveCount; i < end; ++i) {
      if (pool_[i].proof == Proof::Win)
        lost[lostCount++] = pool_[i];
      else if (kept++ != i)
        pool_[kept - 1] = pool_[i];
    }
    if (!lostCount) return;
    std::memcpy(static_cast<void*>(&pool_[kept]), lost, size_t(lostCount) * sizeof(Node));
    n.liveCount = uint8_t(n.liveCount - lostCount);
  }

 private:
  // Moves the root to `position` when it is the previous root or within two plies of it, and
  // compacts the pool as `compaction` says. Returns false when nothing is kept.
  bool adoptRoot(const Board& position, Compaction compaction) {
    if (root_ == kNone) return false;
    Index found = kNone;
    if (rootBoard_ == position) {
      found = root_;
    } else {
      const Node& r = pool_[root_];
      for (Index i = r.firstChild, e = r.firstChild + r.childCount; r.firstChild && i < e && found == kNone; ++i) {
        Board b1 = rootBoard_;
        if (b1.play(pool_[i].move) != Outcome::None) continue;
        if (b1 == position) {
          found = i;
          break;
        }
        const Node& c = pool_[i];
        for (Index j = c.firstChild, f = c.firstChild + c.childCount; c.firstChild && j < f; ++j) {
          Board b2 = b1;
          if (b2.play(pool_[j].move) != Outcome::None) continue;
          if (b2 == position) {
            found = j;
            break;
          }
        }
      }
    }
    if (found == kNone) return false;
    root_ = found;
    // Early: the pages the first turn's big tree touched are then reused by the later turns'
    // growth instead of fresh ones (a page fault costs about 6 us on our VM, 7% of a later turn's
    // time when every turn touched new pages), and the kept subtree is smaller to move.
    if (used_ > capacity_ / (compaction == Compaction::Early ? 8 : 2)) compact();
    return true;
  }

  // Moves the subtree of the root to the front of the pool, keeping every child block
  // contiguous. Blocks are moved in the order of their old positions, so that a block's new place
  // never overlaps a block not yet moved. Each block remembers the node that owns it, whose
  // firstChild is rewritten in place before anything moves. Only nodes with children are walked
  // (the leaves, most of the tree, are moved with their block), and the buffers are kept from one
  // compaction to the next: this runs inside a turn's clock.
  void compact() {
    blocks_.clear();
    stack_.clear();
    if (pool_[root_].firstChild) stack_.push_back(root_);
    while (!stack_.empty()) {
      const Index owner = stack_.back();
      stack_.pop_back();
      const Node& n = pool_[owner];
      blocks_.push_back({n.firstChild, n.childCount, owner, 0});
      for (Index i = n.firstChild; i < n.firstChild + n.childCount; ++i)
        if (pool_[i].firstChild) stack_.push_back(i);
    }
    std::sort(blocks_.begin(), blocks_.end(), [](const Block& a, const Block& b) { return a.oldStart < b.oldStart; });
    Index next = 1;
    for (Block& b : blocks_) b.newStart = pool_[b.owner].firstChild = next, next += b.count;
    const Node rootCopy = pool_[root_];
    for (const Block& b : blocks_)
      std::memmove(static_cast<void*>(&pool_[b.newStart]), &pool_[b.oldStart], b.count * sizeof(Node));
    pool_[0] = rootCopy;
    root_ = 0;
    used_ = next;
  }

  struct Block {
    Index oldStart, count, owner, newStart;  // owner: the node whose children the block holds
  };
  std::vector<Block> blocks_;  // compact()'s buffers, kept for the next compaction
  std::vector<Index> stack_;
  size_t capacity_;
  std::unique_ptr<Node[]> pool_;
  size_t used_ = 0;
  Index root_ = kNone;
  Board rootBoard_;
};

}  // namespace yav
