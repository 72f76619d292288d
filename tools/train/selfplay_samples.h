// Mid- and late-game samples, which the book barely holds: self-play games of the bot's search at
// fixed iterations, every position labelled by that search's value of its move (or its proof).
// Game g is played from its own seed (the run's seed mixed with g), so a file's games do not
// depend on how many threads played them or where a run was stopped and resumed.
#pragma once

#include <atomic>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "search.h"
#include "tools/train/samples.h"

namespace yav::train {

struct SelfPlayOptions {
  uint64_t iterations = 5000;  // the search that plays and labels each position
  uint64_t seed = 1;
  int randomPlies = 1;        // uniformly random first stones (one: the steal keeps the game even)
  double randomShare = 0.03;  // later, this share of moves is a random sensible move (variety)
  int afterProof = 12;        // positions kept once the search has proven the game (exact labels)
  // Positions to start from (game g from starts[hash(g) % size], then no random stones): the
  // book's positions that its deep searches value near even, so that games reach the middle game
  // undecided. Empty: the empty board and randomPlies random stones.
  std::vector<PositionKey> starts;
};

// One game: the samples of its positions before each move, in order.
inline std::vector<Sample> selfPlayGame(const SelfPlayOptions& opt, uint64_t game) {
  Rng rng(mix64(opt.seed * 0x9E3779B97F4A7C15ull + game));
  SearchOptions so;  // the bot's search, without the turn prover (as the tools' searches)
  Search search(size_t(1) << 20, so);
  Board b;
  const bool fromStart = !opt.starts.empty();
  if (fromStart) {
    b = book::boardOf(opt.starts[size_t(mix64(game + 1) % opt.starts.size())]);
  }
  std::vector<Sample> out;
  int provenFor = 0;  // positions recorded since the game was first proven
  for (int ply = 0;; ++ply) {
    Cell move = kNoCell;
    if (!fromStart && ply < opt.randomPlies) {
      move = randomCell(b.empty(), rng);
    } else {
      SearchLimits limits;
      limits.iterations = opt.iterations;
      limits.seed = rng.next();
      search.reset();
      const SearchResult r = search.run(b, limits);
      const bool proven = r.proof == Proof::Win || r.proof == Proof::Loss;
      out.push_back({PositionKey::of(b), float(proven ? (r.proof == Proof::Win ? 1.0 : 0.0) : r.value), 1.0f,
                     proven ? Source::Proof : Source::SelfPlay});
      move = r.move;
      if (proven && ++provenFor > opt.afterProof) break;  // the rest of a decided game teaches little
      const RuleMoves rules = ruleMoves(b);
      if (!proven && rng.below(1000) < uint32_t(opt.randomShare * 1000) && rules.sensible && !rules.mustBlock())
        move = randomCell(rules.sensible, rng);
    }
    if (b.play(move) != Outcome::None || !b.empty()) break;
  }
  return out;
}

// Plays games [done, total) on `threads` threads, appending each finished game to `path` as a
// "# game N" line and its samples (games may land out of order). Returns the games finished.
// `stop` (Ctrl-C) lets the games under way finish; `onGame(finished)` reports progress.
template <class OnGame>
int playSelfPlayGames(const SelfPlayOptions& opt, const std::string& path, const std::vector<bool>& have, int total,
                      int threads, const std::atomic<bool>& stop, OnGame onGame) {
  std::ofstream file(path, std::ios::app);
  std::mutex mutex;
  std::atomic<int> next{0};
  int finished = 0;
  auto worker = [&] {
    for (int g; !stop.load() && (g = next++) < total;) {
      if (size_t(g) < have.size() && have[size_t(g)]) continue;
      const std::vector<Sample> samples = selfPlayGame(opt, uint64_t(g));
      std::string text = "# game " + std::to_string(g) + "\n";
      for (const Sample& s : samples) {
        Sample c = s;
        c.key = canonicalize(s.key).key;
        text += sampleLine(c);
      }
      std::lock_guard<std::mutex> lock(mutex);
      file << text << std::flush;
      onGame(++finished);
    }
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) pool.emplace_back(worker);
  for (auto& t : pool) t.join();
  return finished;
}

// The games a self-play file already holds (its "# game N" lines), to resume it.
inline std::vector<bool> selfPlayGamesIn(const std::string& path, int total) {
  std::vector<bool> have(size_t(std::max(total, 0)), false);
  std::ifstream in(path);
  std::string line;
  int g = 0;
  while (std::getline(in, line))
    if (std::sscanf(line.c_str(), "# game %d", &g) == 1 && g >= 0 && g < total) have[size_t(g)] = true;
  return have;
}

}  // namespace yav::train
