// The search signature (bench --signature): the bot's search, at fixed iterations and seed, on the
// three bench positions (tests/data/bench_*.txt), reduced to one number, as Stockfish's bench node
// count is. Any change to what the search computes (a move, a visit count, a proof, the size of
// the tree) changes it; speed and the machine do not, nor do build flags (no clock is read).
// tests/test_search_signature.cpp holds the committed value: a commit that changes the search
// updates it and says why.
#pragma once

#include <cstdint>
#include <fstream>
#include <string>

#include "protocol.h"
#include "search.h"

namespace yav {

constexpr const char* kSignaturePositions[] = {"bench_empty_id1.txt", "bench_midgame_id2.txt", "bench_late_id1.txt"};
constexpr uint64_t kSignatureIterations = 20000;

// FNV-1a over each position's move, proof, tree size and root children (move, visits, proof),
// folded to 32 bits; 0 when a position cannot be read from `dataDir` (tests/data/).
inline uint32_t searchSignature(const std::string& dataDir) {
  uint64_t h = 1469598103934665603ull;
  auto mix = [&h](uint64_t v) {
    for (int i = 0; i < 8; ++i, v >>= 8) h = (h ^ (v & 0xff)) * 1099511628211ull;
  };
  for (const char* name : kSignaturePositions) {
    std::ifstream in(dataDir + "/" + name);
    ProtocolReader reader(in);
    TurnInput turn;
    if (!in || !reader.read(turn)) return 0;
    Search search(kDefaultNodes);
    SearchLimits limits;
    limits.iterations = kSignatureIterations;
    limits.seed = 1;
    const SearchResult r = search.run(turn.board, limits);
    mix(uint64_t(r.move)), mix(uint64_t(r.proof)), mix(r.nodes), mix(r.iterations);
    for (const RootMove& m : r.children) mix(uint64_t(m.move)), mix(m.visits), mix(uint64_t(m.proof));
  }
  return uint32_t(h ^ (h >> 32));
}

}  // namespace yav
