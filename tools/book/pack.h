// From the book's choices (one move per position, choose.h) to the embedded book: keep the
// positions reachable by following the book's own moves against any reply, the likeliest first
// while the text fits its budget, and encode them (src/book_format.h).
#pragma once

#include <algorithm>
#include <queue>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "book_format.h"
#include "tools/book/book_writer.h"
#include "symmetry.h"

namespace yav::book {

// The submission's code takes about 46,200 of its 99,000-character budget (scripts/
// check_submission.py prints the split; scripts/amalgamate.py strips comments, asserts and the
// spaces the compiler does not need, and shortens the project's identifiers), which leaves this:
// about 77,000 positions at 15 bits a character and the 10-11 bits a position of a deep book. A
// submission over the budget fails its check with the bookpack --budget to re-pack with.
constexpr size_t kDefaultBudgetChars = 48620;

struct BookChoice {
  Cell move = kNoCell;  // canonical orientation
  double bound = 0;
  bool proven = false;
  uint64_t priority = 0;  // the packer admits positions in this order, highest first (reach probability)
};
using Choices = std::unordered_map<PositionKey, BookChoice, PositionKeyHash>;

struct PackedBook {
  std::string text;                                              // UTF-8
  size_t chars() const { return text.size() / kBookUtf8Bytes; }  // UTF-16 units
  size_t positions = 0;                                          // positions written
  size_t reachable = 0;                                          // positions the book reaches without a size limit
  size_t bits = 0;
  size_t maxStones = 0;
  BookTree tree;              // what was written (actual orientation)
  std::vector<Board> boards;  // the position of each tree node
};

// Positions are admitted best-first (highest priority first) as long as the text fits the budget; each
// admitted position hangs under the position (and reply) it was first reached from. The starts of
// random openings hang under pass nodes (book_format.h): after each first stone (the bot first,
// after the opponent's reply) and after each two stones (the bot second); a pass node is written
// only when a position under it is admitted. The stream is range-coded, so a position's cost depends
// on the others: the admitted count is the largest whose text fits, found by bisection (a position
// comes after the one it hangs under, so every prefix of the order is a tree).
inline PackedBook packBook(const Choices& choices, size_t budgetChars) {
  struct Node {
    Board board;  // the position where the book moves (a pass node: where the opponent moves)
    Cell move;    // the book move in this orientation; kNoCell for a pass node
    int parent;   // node whose reply leads here; -1 below a root
    Cell reply;
  };
  struct Candidate {
    uint64_t priority;
    Board board;
    int parent;
    Cell reply;
    bool operator<(const Candidate& o) const { return priority < o.priority; }
  };
  std::vector<Node> nodes;  // the pass nodes, then every reachable position in admission order
  std::priority_queue<Candidate> queue;
  std::unordered_set<PositionKey, PositionKeyHash> seen;
  auto offer = [&](const Board& b, int parent, Cell reply) {
    auto it = choices.find(canonicalize(b).key);
    if (it != choices.end()) queue.push({it->second.priority, b, parent, reply});
  };
  // Replies of the opponent after `b` (one per symmetry class) that lead to a book position.
  auto offerReplies = [&](const Board& b, int parent) {
    for (Cell r : moveClasses(b)) {
      Board next = b;
      if (next.play(r) == Outcome::None) offer(next, parent, r);
    }
  };
  offer(Board(), -1, kNoCell);  // the first player's book
  offerReplies(Board(), -1);    // the second player's book
  for (Cell first : moveClasses(Board())) {
    Board one;
    one.play(first);
    const int afterOne = int(nodes.size());
    nodes.push_back({one, kNoCell, -1, first});
    offerReplies(one, afterOne);
    for (Cell second : moveClasses(one)) {
      if (one.occupied() >> second & 1) continue;  // random openings never steal
      Board two = one;
      two.play(second);
      const int afterTwo = int(nodes.size());
      nodes.push_back({two, kNoCell, afterOne, second});
      offerReplies(two, afterTwo);
    }
  }
  const size_t passNodes = nodes.size();
  while (!queue.empty()) {
    Candidate c = queue.top();
    queue.pop();
    const Canonical frame = canonicalize(c.board);
    if (!seen.insert(frame.key).second) continue;
    const Cell move = frame.fromCanonical(choices.at(frame.key).move);
    nodes.push_back({c.board, move, c.parent, c.reply});
    Board next = c.board;
    if (next.play(move) == Outcome::None) offerReplies(next, int(nodes.size()) - 1);
  }
  const size_t reachable = nodes.size() - passNodes;

  // The book of the first `admitted` positions, encoded.
  auto bookOf = [&](size_t admitted) {
    PackedBook out;
    std::vector<bool> kept(passNodes + admitted, false);
    for (size_t i = passNodes; i < kept.size(); ++i)
      for (int p = int(i); p >= 0 && !kept[size_t(p)]; p = nodes[size_t(p)].parent) kept[size_t(p)] = true;
    BookTree& tree = out.tree;
    std::vector<int> index(kept.size(), -1);
    for (size_t i = 0; i < kept.size(); ++i) {  // a parent always comes before its children
      if (!kept[i]) continue;
      const Node& n = nodes[i];
      const int self = index[i] = int(tree.nodes.size());
      out.boards.push_back(n.board);
      tree.nodes.push_back({n.move, {}});
      if (n.parent >= 0)
        tree.nodes[size_t(index[size_t(n.parent)])].replies.push_back({n.reply, self});
      else if (n.board.stoneCount() == 0)
        tree.firstPlayerRoot = self;
      else
        tree.secondPlayerRoots.push_back({n.reply, self});
      if (n.move != kNoCell) out.maxStones = std::max(out.maxStones, size_t(n.board.stoneCount()));
    }
    out.positions = admitted;
    out.reachable = reachable;
    out.text = encodeBook(tree, &out.bits);
    return out;
  };
  PackedBook best = bookOf(reachable);
  if (best.chars() <= budgetChars) return best;
  size_t fits = 0, tooMany = reachable;  // bookOf(fits) is within the budget (the empty book is)
  best = bookOf(0);
  while (tooMany - fits > 1) {
    const size_t mid = fits + (tooMany - fits) / 2;
    PackedBook b = bookOf(mid);
    if (b.chars() <= budgetChars)
      fits = mid, best = std::move(b);
    else
      tooMany = mid;
  }
  return best;
}

// The generated header the bot includes: one string literal (UTF-8) split over lines.
inline std::string embeddedHeader(const PackedBook& book, const std::string& comment) {
  std::string out = "// Generated by build/bin/bookpack; do not edit (see docs/book.md).\n// " + comment +
                    "\n#pragma once\n\ninline const char* const kEmbeddedBook =";
  if (book.text.empty()) out += " \"\"";
  const size_t lineBytes = 80 * kBookUtf8Bytes;  // 80 characters, never splitting one
  for (size_t i = 0; i < book.text.size(); i += lineBytes) out += "\n    \"" + book.text.substr(i, lineBytes) + "\"";
  return out + ";\n";
}

}  // namespace yav::book
