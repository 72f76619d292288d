// A file of generated games that grows by whole games and resumes: each game is a "# game N" line
// and its rows. Game N depends only on N (and the run's options), so a file does not depend on how
// many threads played it or where a run was stopped and resumed (train selfplay, train policy).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace yav::train {

// Plays the games of [0, total) not in `have` on `threads` threads, appending each finished game
// to `path` as "# game N" and gameRows(N) (games may land out of order). Returns the games
// finished. `stop` (Ctrl-C) lets the games under way finish; onGame(finished) reports progress.
inline int playGamesToFile(const std::string& path, const std::vector<bool>& have, int total, int threads,
                           const std::atomic<bool>& stop, const std::function<std::string(uint64_t)>& gameRows,
                           const std::function<void(int)>& onGame) {
  std::ofstream file(path, std::ios::app);
  std::mutex mutex;
  std::atomic<int> next{0};
  int finished = 0;
  auto worker = [&] {
    for (int g; !stop.load() && (g = next++) < total;) {
      if (size_t(g) < have.size() && have[size_t(g)]) continue;
      const std::string text = "# game " + std::to_string(g) + "\n" + gameRows(uint64_t(g));
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

// The games a file already holds (its "# game N" lines), to resume it.
inline std::vector<bool> gamesIn(const std::string& path, int total) {
  std::vector<bool> have(size_t(std::max(total, 0)), false);
  std::ifstream in(path);
  std::string line;
  int g = 0;
  while (std::getline(in, line))
    if (std::sscanf(line.c_str(), "# game %d", &g) == 1 && g >= 0 && g < total) have[size_t(g)] = true;
  return have;
}

}  // namespace yav::train
