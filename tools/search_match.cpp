// In-process matches between two search configurations (no protocol, no processes): the quick
// way to compare search options. Each opening (a random first stone) is played twice with the
// seats swapped. Progress on stderr; the score of A at the end (Ctrl-C: of the games finished).
//
//   build/bin/search_match --games 200 --time-ms 50 --a 'c=0.5' --b 'plain' [--jobs 2]
// Config keys: tools/common/search_config.h (and search_match --help).
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "clock.h"
#include "search.h"
#include "tools/arena/stats.h"
#include "tools/common/cli.h"
#include "tools/common/progress.h"
#include "tools/common/search_config.h"
#include "tools/common/stop_signal.h"

using namespace yav;

namespace {

// Plays one game; returns the winning config (0 = A, 1 = B) or -1 for a draw.
int playSearchGame(const SearchConfig& a, const SearchConfig& b, bool aFirst, Cell opening, double timeMs,
                   uint64_t iterations, uint64_t seed, double& slowestMs) {
  Search sa(a.nodes, a.options), sb(b.nodes, b.options);
  Search* player[2] = {aFirst ? &sa : &sb, aFirst ? &sb : &sa};
  const int configOf[2] = {aFirst ? 0 : 1, aFirst ? 1 : 0};
  Board board;
  board.play(opening);  // the first player's first stone is the opening
  int mover = 1;        // seat to move: the swap exchanges who owns what, not who moves next
  for (int ply = 1;; ++ply) {
    SearchLimits limits;
    limits.timeMs = timeMs;
    limits.iterations = iterations;
    limits.seed = seed * 131 + uint64_t(ply);
    const SearchResult r = player[mover]->run(board, limits);
    slowestMs = std::max(slowestMs, r.elapsedMs);
    if (!board.isLegal(r.move)) return configOf[mover ^ 1];
    const Outcome o = board.play(r.move);
    if (o != Outcome::None) {
      const int winnerSeat = winnerAfter(o, mover);
      return winnerSeat == kDrawResult ? -1 : configOf[winnerSeat];
    }
    mover ^= 1;
  }
}

std::atomic<bool> stopRequested{false};  // SIGINT or SIGTERM (stopOnSignals): no new game starts

}  // namespace

int main(int argc, char** argv) {
  int games = 20, jobs = 1;
  double timeMs = 0;
  uint64_t iterations = 0, seed = 1;
  SearchConfig a, b;
  cli::Flags flags("search_match");
  auto config = [](SearchConfig& c) {
    return [&c](const std::string& v) {
      std::string error;
      parseSearchConfig(v, c, error);
      return error;
    };
  };
  flags
      .number("--time-ms", "MS", timeMs, 0, cli::kNoMax, "time per move",
              "0: unset; one of --time-ms / --iterations is needed")
      .integer("--iterations", "N", iterations, 0, cli::kNoLimit, "MCTS iterations per move instead of time",
               "0: unset")
      .integer("--games", "N", games, 1, INT32_MAX, "games to play")
      .integer("--jobs", "J", jobs, 1, 1024, "games at the same time")
      .integer("--seed", "S", seed, 0, cli::kNoLimit, "seed of the openings and searches")
      .value("--a", "CONFIG", "configuration of A", "the bot's search options", config(a))
      .value("--b", "CONFIG", "configuration of B", "the bot's search options", config(b));
  flags.parseOrExit(
      argc, argv, 1,
      "usage: search_match (--time-ms MS | --iterations N) [--games N] [--jobs J] [--seed S]\n"
      "                    [--a CONFIG] [--b CONFIG]\n"
      "Plays two search configurations against each other in process (no protocol, no processes).\n"
      "Each opening (a random first stone) is played twice with the seats swapped; prints A's score.\n"
      "Ctrl-C: the games begun finish, and the score is of the games finished (status 130).\n",
      0, "CONFIG: comma-separated keys applied in order to the bot's search options:\n" + searchConfigKeys());
  if (timeMs <= 0 && iterations == 0) flags.fail("set --time-ms or --iterations");

  stopOnSignals(stopRequested);
  std::atomic<int> next{0};
  std::mutex mutex;
  int winsA = 0, winsB = 0, draws = 0, done = 0;
  double slowest = 0;
  Progress progress("games", games);
  auto worker = [&] {
    for (int g; !stopRequested && (g = next++) < games;) {
      Rng rng(seed * 7919 + uint64_t(g / 2));
      const Cell opening = Cell(rng.below(kCells));
      double slow = 0;
      const int w = playSearchGame(a, b, g % 2 == 0, opening, timeMs, iterations, seed + uint64_t(g), slow);
      std::lock_guard<std::mutex> lock(mutex);
      (w == 0 ? winsA : w == 1 ? winsB : draws)++;
      slowest = std::max(slowest, slow);
      ++done;
      progress.update(
          done, "A " + std::to_string(winsA) + "  B " + std::to_string(winsB) + "  draws " + std::to_string(draws));
    }
  };
  std::vector<std::thread> threads;
  for (int j = 0; j < jobs; ++j) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
  if (done == 0) {
    std::fprintf(stderr, "search_match: stopped by a signal before any game finished\n");
    return kInterruptedStatus;
  }
  const double score = (winsA + 0.5 * draws) / done;
  const arena::ScoreInterval interval = arena::wilsonInterval(score, done);  // never of zero width
  std::printf("A %d  B %d  draws %d  of %d: A scores %.1f%% [%.1f%%, %.1f%%] (95%%, Wilson), slowest move %.1f ms\n",
              winsA, winsB, draws, done, 100 * score, 100 * interval.low, 100 * interval.high, slowest);
  if (done == games) return 0;
  std::printf("stopped by a signal after %d of %d games: the score is of those\n", done, games);
  return kInterruptedStatus;
}
