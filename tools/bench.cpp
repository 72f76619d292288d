// Single-threaded speed of the core, from the empty board: random playouts/s, smart playouts/s and
// nanoseconds per canonicalisation of realistic (6-12 stone) positions.
// Also the two solvers (nodes/s; the endgame solver's share of real late positions solved in its
// root budget) and MCTS iterations/s of the bot's search (or another configuration: --config) on
// the bench positions (tests/data/bench_*.txt).
// Ends with one machine-readable line: RESULT random_pps=<n> smart_pps=<n> canon_ns=<n> ... mcts_ips_1=<n> ...
// --signature prints the search signature (tools/common/search_signature.h) alone, and nothing else.
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "board.h"
#include "endgame.h"
#include "forcing.h"
#include "playout.h"
#include "protocol.h"
#include "rng.h"
#include "search.h"
#include "symmetry.h"
#include "tools/common/cli.h"
#include "tools/common/progress.h"
#include "tools/common/search_config.h"
#include "tools/common/search_signature.h"
#include "tools/common/tactics_suite.h"

using namespace yav;

namespace {

using Clock = std::chrono::steady_clock;
volatile uint64_t benchSink;  // keeps the timed canonicalisations from being optimised away

double secondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

struct PlayoutStats {
  uint64_t games = 0, wins[2] = {0, 0}, draws = 0;
  double seconds = 0;
};

// Runs `playout` from the empty board in batches until `seconds` have passed.
template <class Playout>
PlayoutStats timePlayouts(Playout playout, double seconds, uint64_t seed) {
  Rng rng(seed);
  const Board empty;
  PlayoutStats s;
  const Clock::time_point start = Clock::now();
  do {
    for (int i = 0; i < 4096; ++i) {
      const int winner = playout(empty, rng);
      if (winner == kDrawResult)
        ++s.draws;
      else
        ++s.wins[winner];
    }
    s.games += 4096;
    s.seconds = secondsSince(start);
  } while (s.seconds < seconds);
  return s;
}

void printPlayouts(const char* name, const PlayoutStats& s) {
  std::printf("%-7s %10.0f playouts/s  (%llu games in %.2f s; first player %.1f%%, second %.1f%%, draws %.2f%%)\n",
              name, s.games / s.seconds, (unsigned long long)s.games, s.seconds, 100.0 * s.wins[0] / s.games,
              100.0 * s.wins[1] / s.games, 100.0 * s.draws / s.games);
}

// Positions of quiet random play (never the mover's own 3, blocks always), each with a stone
// count drawn from [minStones, maxStones], none decided.
std::vector<Board> quietPositions(size_t count, int minStones, int maxStones, uint64_t seed) {
  Rng rng(seed);
  std::vector<Board> boards;
  while (boards.size() < count) {
    Board b;
    const int stones = minStones + int(rng.below(uint32_t(maxStones - minStones + 1)));
    bool over = false;
    while (!over && b.stoneCount() < stones) {
      const int me = b.toMove();
      Bitboard options = b.empty() & ~b.losingCells(me) & ~b.winningCells(me);
      if (Bitboard threats = b.winningCells(me ^ 1)) options &= threats;
      if (!options) break;
      over = b.play(randomCell(options, rng)) != Outcome::None;
    }
    if (!over && b.stoneCount() == stones) boards.push_back(b);
  }
  return boards;
}

// Positions of 6..12 stones reached by smart play that did not end the game.
std::vector<PositionKey> realisticPositions(size_t count, uint64_t seed) {
  std::vector<PositionKey> out;
  for (const Board& b : quietPositions(count, 6, 12, seed)) out.push_back(PositionKey::of(b));
  return out;
}

// A checksum of the canonical forms (identical for every build that canonicalises the same way).
uint64_t canonicalChecksum(const std::vector<PositionKey>& positions) {
  uint64_t sum = 0;
  for (const PositionKey& p : positions) {
    const Canonical c = canonicalize(p);
    sum = sum * 31 + (c.key.mine ^ (c.key.theirs * kGoldenGamma) ^ uint64_t(c.transform) << 60);
  }
  return sum;
}

double timeCanonicalisation(const std::vector<PositionKey>& positions, double seconds, uint64_t& sink) {
  uint64_t calls = 0;
  double elapsed = 0;
  const Clock::time_point start = Clock::now();
  do {
    for (const PositionKey& p : positions) {
      const Canonical c = canonicalize(p);
      sink += c.key.mine ^ (c.key.theirs << 1) ^ uint64_t(c.transform);
    }
    calls += positions.size();
    elapsed = secondsSince(start);
  } while (elapsed < seconds);
  return elapsed * 1e9 / double(calls);
}

// Nanoseconds per checkCells call (both players) on the same positions, for the record.
double timeCheckCells(const std::vector<PositionKey>& positions, double seconds, uint64_t& sink) {
  std::vector<Board> boards;
  for (const PositionKey& p : positions) boards.push_back(Board::fromStones(p.mine, p.theirs, 0));
  uint64_t calls = 0;
  double elapsed = 0;
  const Clock::time_point start = Clock::now();
  do {
    for (const Board& b : boards) sink += b.checkCells(0) ^ b.checkCells(1);
    calls += 2 * boards.size();
    elapsed = secondsSince(start);
  } while (elapsed < seconds);
  return elapsed * 1e9 / double(calls);
}

struct SolverStats {
  double nodesPerSecond = 0, solved = 0, positions = 0, seconds = 0;
};

// Nodes per second of one solver over `boards`, each solved once in turn; `solve` returns the
// nodes it visited and whether it settled the position. Solvers keep their table from one
// position to the next, as in the search.
template <class Solve>
SolverStats timeSolver(const std::vector<Board>& boards, Solve solve) {
  SolverStats s;
  uint64_t nodes = 0;
  const Clock::time_point start = Clock::now();
  for (const Board& b : boards) {
    const std::pair<uint64_t, bool> r = solve(b);
    nodes += r.first, s.solved += r.second, ++s.positions;
  }
  s.seconds = secondsSince(start);
  s.nodesPerSecond = double(nodes) / s.seconds;
  return s;
}

// Forcing solver: 4096 distinct positions of 16-36 stones, depth 30, at most 20,000 nodes each;
// `solved` counts forced wins.
SolverStats timeForcing(uint64_t seed) {
  ForcingSolver solver;
  return timeSolver(quietPositions(4096, 16, 36, seed), [&](const Board& b) {
    const ForcingResult r = solver.solve(b, 30, 20000);
    return std::make_pair(r.nodes, r.win);
  });
}

// Endgame solver: the positions of a tactical suite (tools/common/tactics_suite.h) with 21-28 empty
// cells, each before and after the suite's move, at most 100,000 nodes each (its root budget in
// the search); `solved` counts exact values found. Positions of real games: random quiet ones of
// this size are nearly all dead cells, solved by any move order.
SolverStats timeEndgame(const std::vector<Board>& boards) {
  EndgameSolver solver;
  return timeSolver(boards, [&](const Board& b) {
    const EndgameResult r = solver.solve(b, 100000);
    return std::make_pair(r.nodes, r.solved);
  });
}

std::vector<Board> endgamePositions(const std::string& path) {
  std::vector<Board> boards;
  auto take = [&boards](const Board& b) {
    const int empties = popcount(b.empty());
    if (empties >= 21 && empties <= 28) boards.push_back(b);
  };
  for (const SuiteEntry& e : readSuite(path, "bench")) {
    take(e.board);
    Board after = e.board;
    if (after.play(e.move) == Outcome::None) take(after);  // a move that ends the game leaves nothing to solve
  }
  if (boards.empty()) {
    std::fprintf(stderr, "bench: '%s' has no position of 21-28 empty cells for the endgame solver\n", path.c_str());
    std::exit(2);
  }
  return boards;
}

}  // namespace

// MCTS iterations per second of the search (the bot's options unless --config changes them, no
// book) on a position given as the bot's input (tests/data/bench_*.txt), for `seconds`; the tree
// starts empty.
double timeMcts(const std::string& path, double seconds, uint64_t seed, const SearchConfig& config) {
  std::ifstream in(path);
  ProtocolReader reader(in);
  TurnInput turn;
  if (!in || !reader.read(turn)) {
    std::fprintf(stderr, "bench: cannot read a position from '%s'%s%s\n", path.c_str(), in ? "" : ": ",
                 in ? "" : std::strerror(errno));
    std::exit(2);
  }
  static Search search(config.nodes, config.options);
  search.reset();
  SearchLimits limits;
  limits.timeMs = seconds * 1000;
  limits.seed = seed;
  const SearchResult r = search.run(turn.board, limits);
  return r.elapsedMs > 0 ? double(r.iterations) / (r.elapsedMs / 1000) : 0;
}

int main(int argc, char** argv) {
  double seconds = 2;
  std::string mctsFiles = "tests/data/bench_empty_id1.txt,tests/data/bench_midgame_id2.txt";
  std::string endgameSuite = "tests/data/tactics_suite_600.txt";
  uint64_t seed = 1;
  int rounds = 1;
  bool signature = false;
  SearchConfig config;
  config.nodes = kDefaultNodes;  // the bot's tree unless --config sets nodes=N
  std::string configName = "the bot's search";
  cli::Flags flags("bench");
  flags
      .number("--seconds", "S", seconds, 1e-6, cli::kNoMax,
              "time spent on each main measurement (playouts, canonicalisation, each MCTS position)")
      .integer("--rounds", "R", rounds, 1, 1000, "repeat everything R times and keep the best of each")
      .integer("--seed", "N", seed, 0, cli::kNoLimit, "random seed")
      .option("--signature", signature, "print the search signature alone (fixed positions, iterations and seed)")
      .text("--mcts", "FILES", mctsFiles, "positions (bot input files, comma-separated) for MCTS iterations/s",
            mctsFiles)
      .text("--endgame", "FILE", endgameSuite,
            "tactical suite whose positions of 21-28 empty cells time the endgame solver", endgameSuite)
      .value("--config", "CONFIG", "the search's configuration for MCTS iterations/s (search_match --help)",
             "the bot's", [&config, &configName](const std::string& v) {
               std::string error;
               configName = "config '" + v + "'";
               return parseSearchConfig(v, config, error) ? std::string() : "--config: " + error;
             });
  flags.parseOrExit(argc, argv, 1, "usage: bench [--seconds S] [--rounds R] [--seed N] | bench --signature\n");
  if (signature) {
    const uint32_t value = searchSignature("tests/data");  // run from the repository, as the defaults are
    if (!value) {
      std::fprintf(stderr,
                   "bench: cannot read the signature's positions in tests/data/ (run it from the repository)\n");
      return 2;
    }
    std::printf("%u\n", value);
    return 0;
  }
  symmetries();  // built on first use: not inside a timed loop
  const std::vector<PositionKey> positions = realisticPositions(4096, seed + 2);
  const std::vector<Board> endgameBoards = endgamePositions(endgameSuite);

  // Each round measures everything once; the best round of each measurement is kept, which on a
  // shared machine is the closest to the speed of an idle core.
  PlayoutStats random, smart;
  double randomPps = 0, smartPps = 0, canonNs = 0, checkNs = 0;
  SolverStats forcing, endgame;
  uint64_t sink = 0;
  std::vector<std::string> mctsPaths;
  for (size_t start = 0; start <= mctsFiles.size();) {
    const size_t comma = std::min(mctsFiles.find(',', start), mctsFiles.size());
    if (comma > start) mctsPaths.push_back(mctsFiles.substr(start, comma - start));
    start = comma + 1;
  }
  std::vector<double> mctsIps(mctsPaths.size(), 0);
  Progress progress("measurements", long(rounds) * (6 + long(mctsPaths.size())));
  // Progress per measurement: a default run takes about 20 s.
  long step = 0;
  auto measured = [&](const char* what) { progress.update(++step, what); };
  for (int round = 0; round < rounds; ++round) {
    const PlayoutStats r = timePlayouts(randomPlayout, seconds, seed + 3 * uint64_t(round));
    measured("random playouts");
    const PlayoutStats s = timePlayouts(smartPlayout, seconds, seed + 3 * uint64_t(round) + 1);
    measured("smart playouts");
    const double c = timeCanonicalisation(positions, seconds, sink);
    measured("canonicalisation");
    const double k = timeCheckCells(positions, seconds / 4, sink);
    measured("checkCells");
    const SolverStats f = timeForcing(seed + 5 + uint64_t(round));
    if (f.nodesPerSecond > forcing.nodesPerSecond) forcing = f;
    measured("forcing solver");
    const SolverStats e = timeEndgame(endgameBoards);
    if (e.nodesPerSecond > endgame.nodesPerSecond) endgame = e;
    measured("endgame solver");
    if (r.games / r.seconds > randomPps) random = r, randomPps = r.games / r.seconds;
    if (s.games / s.seconds > smartPps) smart = s, smartPps = s.games / s.seconds;
    if (round == 0 || c < canonNs) canonNs = c;
    if (round == 0 || k < checkNs) checkNs = k;
    for (size_t i = 0; i < mctsPaths.size(); ++i) {
      mctsIps[i] = std::max(mctsIps[i], timeMcts(mctsPaths[i], seconds, seed + uint64_t(round), config));
      measured("MCTS");
    }
  }

  benchSink = sink;
  if (rounds > 1) std::printf("best of %d rounds of %.2f s per measurement:\n", rounds, seconds);
  printPlayouts("random", random);
  printPlayouts("smart", smart);
  std::printf("canon   %10.1f ns per canonicalisation (4096 positions of 6-12 stones; checksum %016llx)\n", canonNs,
              (unsigned long long)canonicalChecksum(positions));
  std::printf("check   %10.1f ns per checkCells call (same positions)\n", checkNs);
  std::printf(
      "forcing %10.0f solver nodes/s (4096 mid-game positions, depth 30, <= 20000 nodes; %.1f%% have a forced win)\n",
      forcing.nodesPerSecond, 100.0 * forcing.solved / forcing.positions);
  std::printf(
      "endgame %10.0f solver nodes/s (%.0f positions of %s with 21-28 empty cells, <= 100000 nodes; %.1f%% solved in "
      "%.2f s)\n",
      endgame.nodesPerSecond, endgame.positions, endgameSuite.c_str(), 100.0 * endgame.solved / endgame.positions,
      endgame.seconds);
  for (size_t i = 0; i < mctsPaths.size(); ++i)
    std::printf("mcts    %10.0f iterations/s (%s, %s, %.2f s from an empty tree)\n", mctsIps[i], configName.c_str(),
                mctsPaths[i].c_str(), seconds);
  std::printf("smart/random playout speed ratio %.3f\n", smartPps / randomPps);
  std::printf(
      "RESULT random_pps=%.0f smart_pps=%.0f canon_ns=%.1f forcing_nps=%.0f endgame_nps=%.0f endgame_solved=%.0f",
      randomPps, smartPps, canonNs, forcing.nodesPerSecond, endgame.nodesPerSecond, endgame.solved);
  for (size_t i = 0; i < mctsPaths.size(); ++i) std::printf(" mcts_ips_%zu=%.0f", i + 1, mctsIps[i]);
  std::printf("\n");
  return 0;
}
