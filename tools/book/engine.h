// The project's search (src/search.h) as the book's engine, and its version string. The version
// is recorded with every generator run and keys the verification cache, so that a stronger engine
// re-verifies the book: change it whenever src/search.h changes how it plays.
#pragma once

#include <memory>

#include "search.h"
#include "tools/book/selfplay.h"

namespace yav::book {

constexpr const char* kBookEngineVersion = "yav-search-rave-1";

inline MoveProof moveProofOf(Proof p) {
  return p == Proof::Win ? MoveProof::Win : p == Proof::Loss ? MoveProof::Loss : MoveProof::Unknown;
}

// One search per thread; its tree is reset at each new game.
class SearchEngine : public BookEngine {
 public:
  SearchEngine(size_t nodes, SearchLimits limits) : search_(nodes), limits_(limits) {}
  void newGame() override { search_.reset(); }
  EngineAnswer choose(const Board& position, uint64_t seed) override {
    SearchLimits l = limits_;
    l.seed = seed;
    const SearchResult r = search_.run(position, l);
    EngineAnswer a;
    a.move = r.move;
    for (const RootMove& m : r.children) a.children.push_back({m.move, m.visits, moveProofOf(m.proof)});
    return a;
  }

 private:
  Search search_;
  SearchLimits limits_;
};

}  // namespace yav::book
