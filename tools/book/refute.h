// Book moves the opponent refutes with one quiet move (src/lambda2.h), proven lost in the graph
// before the book is chosen from it. The book's 200,000-iteration searches missed such refutations
// of about one shipped move in 80 (918 of 72,105 on 2026-11-26), most of them 3-9 stones in.
#pragma once

#include <cstddef>
#include <ostream>
#include <unordered_set>

#include "lambda2.h"
#include "search_options.h"
#include "tools/book/graph.h"

namespace yav::book {

struct RefutationReport {
  size_t checked = 0;  // book moves checked
  size_t refuted = 0;  // of them, proven lost
};

// Checks the move the book would play in every position of `graph` (`bookMoveOf(node)`, e.g.
// choose.h's packedMove; null for none) and proves lost those after which the opponent wins with
// one quiet move; the graph is then re-evaluated and the new moves checked in turn until every one
// has passed (a refuted move can change the choices of its ancestors too). Deterministic: node
// limits, no clock.
template <class BookMoveOf>
RefutationReport refuteBookMovesByLambda2(BookGraph& graph, BookMoveOf bookMoveOf, std::ostream* progress = nullptr) {
  ForcingSolver forcing;
  const SearchOptions o;
  Lambda2Solver lambda2(forcing, o.forcingLeafDepth, o.lambda2ForcingNodes);
  RefutationReport report;
  std::unordered_set<uint64_t> checked;  // (node index, move) pairs already checked
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 0; i < graph.nodes().size(); ++i) {
      const BookGraph::Node& node = graph.nodes()[i];
      const BookGraph::Move* m = bookMoveOf(node);
      if (!m || m->ends != Outcome::None || !checked.insert(uint64_t(i) << 8 | uint64_t(m->move)).second) continue;
      ++report.checked;
      Board after = boardOf(node.key);
      after.play(m->move);
      if (!lambda2.solve(after, o.lambda2Checks, o.lambda2Nodes).win) continue;
      graph.proveLost(node.key, m->move);
      ++report.refuted;
      changed = true;
    }
    graph.evaluate();
    if (progress) *progress << "quiet-move check of the book's moves: " << report.checked << " checked, " << report.refuted << " refuted\n";
  }
  return report;
}

}  // namespace yav::book
