// In-process matches between two search configurations (no protocol, no processes): the quick
// way to compare search options. Each opening (a random first stone) is played twice with the
// seats swapped. Progress on stderr; the score of A at the end.
//
//   build/bin/search_match --games 200 --time-ms 50 --a 'c=0.5' --b 'plain' [--jobs 2]
// Config keys (comma separated): plain, c=X (exploration), expand=N, secure / visits (final
// move rule), secureA=X,
// nosolver, notactics, random (uniform playouts), nodes=N, rave=K (RAVE weight), raveC=X.
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
#include "tools/cli.h"

using namespace yav;

namespace {

struct Config {
  SearchOptions options;
  size_t nodes = size_t(1) << 22;
};

bool parseConfig(const std::string& text, Config& cfg, std::string& error) {
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (item.empty()) continue;
    const size_t eq = item.find('=');
    const std::string key = item.substr(0, eq);
    double v = 0;
    if (eq != std::string::npos) {
      const std::string number = item.substr(eq + 1);
      if (!cli::toNumber(number, -cli::kNoMax, cli::kNoMax, v)) {
        error = "config key '" + key + "' expects a number, got '" + number + "'";
        return false;
      }
    }
    if (key == "plain") cfg.options = SearchOptions::plainUct();
    else if (key == "c") cfg.options.exploration = v;
    else if (key == "expand") cfg.options.expandVisits = uint32_t(v);
    else if (key == "secure") cfg.options.secureChild = true;
    else if (key == "visits") cfg.options.secureChild = false;
    else if (key == "secureA") cfg.options.secureA = v;
    else if (key == "nosolver") cfg.options.solver = false;
    else if (key == "notactics") cfg.options.tactics = false;
    else if (key == "random") cfg.options.smartPlayouts = false;
    else if (key == "nodes") cfg.nodes = size_t(v);
    else if (key == "rave") cfg.options.raveK = v;
    else if (key == "raveC") cfg.options.raveExploration = v;
    else if (key == "noforcing") cfg.options.forcing = false;
    else if (key == "fnodes") cfg.options.forcingLeafNodes = uint32_t(v);
    else if (key == "fdepth") cfg.options.forcingLeafDepth = int(v);
    else if (key == "fvisits") cfg.options.forcingVisits = uint32_t(v);
    else if (key == "frootnodes") cfg.options.forcingRootNodes = uint32_t(v);
    else {
      error = "unknown config key '" + key + "'";
      return false;
    }
  }
  return true;
}

// Plays one game; returns the winning config (0 = A, 1 = B) or -1 for a draw.
int playSearchGame(const Config& a, const Config& b, bool aFirst, Cell opening, double timeMs, uint64_t iterations,
             uint64_t seed, double& slowestMs) {
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

// The usage text after the flags: the configuration keys, with the defaults read from the code.
std::string configHelp() {
  const SearchOptions d;
  const Config defaults;
  std::ostringstream o;
  o << "CONFIG: comma-separated keys applied in order to the bot's search options:\n"
       "  plain        the weak reference: plain UCT, no solver, no tactics, random playouts\n"
    << "  c=X          UCT exploration constant (default " << d.exploration << ")\n"
    << "  expand=N     visits before a leaf is expanded (default " << d.expandVisits << ")\n"
    << "  secure       final move by secure child (lower bound); visits: by most visits (default "
    << (d.secureChild ? "secure" : "visits") << ")\n"
    << "  secureA=X    the secure child's A in value - A / sqrt(n) (default " << d.secureA << ")\n"
    << "  nosolver     no proofs backed up the tree (default: solver on)\n"
    << "  notactics    no win / block / no-own-3 tactics at the leaves (default: on)\n"
    << "  random       uniformly random playouts (default: the smart policy)\n"
    << "  nodes=N      tree size in nodes (default " << defaults.nodes << ")\n"
    << "  rave=K       RAVE weight k, 0 = off (default " << d.raveK << ")\n"
    << "  raveC=X      exploration constant used with RAVE (default " << d.raveExploration << ")\n";
  return o.str();
}

}  // namespace

int main(int argc, char** argv) {
  int games = 20, jobs = 1;
  double timeMs = 0;
  uint64_t iterations = 0, seed = 1;
  Config a, b;
  cli::Flags flags("search_match");
  auto config = [](Config& c) {
    return [&c](const std::string& v) {
      std::string error;
      parseConfig(v, c, error);
      return error;
    };
  };
  flags.number("--time-ms", "MS", timeMs, 0, cli::kNoMax, "time per move", "0: unset; one of --time-ms / --iterations is needed")
      .integer("--iterations", "N", iterations, 0, cli::kNoLimit, "MCTS iterations per move instead of time", "0: unset")
      .integer("--games", "N", games, 1, INT32_MAX, "games to play")
      .integer("--jobs", "J", jobs, 1, 1024, "games at the same time")
      .integer("--seed", "S", seed, 0, cli::kNoLimit, "seed of the openings and searches")
      .value("--a", "CONFIG", "configuration of A", "the bot's search options", config(a))
      .value("--b", "CONFIG", "configuration of B", "the bot's search options", config(b));
  std::vector<std::string> positional;
  bool help = false;
  std::string error = flags.parse(argc, argv, 1, positional, help);
  if (help) {
    std::cout << "usage: search_match (--time-ms MS | --iterations N) [--games N] [--jobs J] [--seed S]\n"
                 "                    [--a CONFIG] [--b CONFIG]\n"
                 "Plays two search configurations against each other in process (no protocol, no processes).\n"
                 "Each opening (a random first stone) is played twice with the seats swapped; prints A's score.\n"
              << flags.help() << configHelp();
    return 0;
  }
  if (error.empty() && !positional.empty()) error = "unexpected argument '" + positional[0] + "'";
  if (error.empty() && timeMs <= 0 && iterations == 0) error = "set --time-ms or --iterations";
  if (!error.empty()) {
    std::cerr << "search_match: " << error << "\n(run 'search_match --help' for the options)\n";
    return 2;
  }

  std::atomic<int> next{0};
  std::mutex mutex;
  int winsA = 0, winsB = 0, draws = 0, done = 0;
  double slowest = 0;
  const Stopwatch clock;
  auto worker = [&] {
    for (int g; (g = next++) < games;) {
      Rng rng(seed * 7919 + uint64_t(g / 2));
      const Cell opening = Cell(rng.below(kCells));
      double slow = 0;
      const int w = playSearchGame(a, b, g % 2 == 0, opening, timeMs, iterations, seed + uint64_t(g), slow);
      std::lock_guard<std::mutex> lock(mutex);
      (w == 0 ? winsA : w == 1 ? winsB : draws)++;
      slowest = std::max(slowest, slow);
      ++done;
      const double rate = done / (clock.elapsedMs() / 1000);
      std::fprintf(stderr, "\r%d/%d games  A %d  B %d  draws %d  %.2f games/s  ETA %.0f s   ", done, games, winsA,
                   winsB, draws, rate, (games - done) / rate);
    }
  };
  std::vector<std::thread> threads;
  for (int j = 0; j < jobs; ++j) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
  const double score = (winsA + 0.5 * draws) / games;
  std::fprintf(stderr, "\n");
  std::printf("A %d  B %d  draws %d  of %d: A scores %.1f%% (+-%.1f%%), slowest move %.1f ms\n", winsA, winsB, draws,
              games, 100 * score, 100 * 1.96 * std::sqrt(score * (1 - score) / games), slowest);
}
