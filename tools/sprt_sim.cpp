// sprt_sim: measures the arena's SPRT by simulation (no bots): for a few (elo0, elo1) settings and
// two shapes of pair outcomes, the share of runs accepting H1 when the true Elo is elo0 (false
// positives, promised <= alpha) and when it is elo1 (power, promised >= 1 - beta), and the mean
// number of game pairs a run takes. See docs/arena.md.
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "tools/arena/sprt_simulation.h"
#include "tools/cli.h"

using namespace yav::arena;

namespace {

const char* const kUsage = R"(usage: sprt_sim [--runs N] [--seed S] [--alpha A] [--beta B]
Simulates the arena's pentanomial SPRT with pair outcomes drawn at random and prints, per
(elo0, elo1) and outcome shape: false-positive rate (H1 accepted at true Elo elo0), power (H1
accepted at true Elo elo1) and the mean number of game pairs per run.
)";

}  // namespace

int main(int argc, char** argv) {
  int runs = 4000;
  uint64_t seed = 1;
  SprtConfig cfg;
  cfg.enabled = true;
  yav::cli::Flags flags("sprt_sim");
  flags.integer("--runs", "N", runs, 1, INT32_MAX, "simulated runs per cell")
      .integer("--seed", "S", seed, 0, yav::cli::kNoLimit, "random seed")
      .number("--alpha", "A", cfg.alpha, 1e-9, 0.5, "SPRT alpha")
      .number("--beta", "B", cfg.beta, 1e-9, 0.5, "SPRT beta");
  flags.parseOrExit(argc, argv, 1, kUsage);
  struct Shape {
    const char* name;
    PairDistribution atEven;  // pair outcomes at equal strength
  };
  // Yavalath pairs split often (the first player's edge) and draws are rare; a chess-like shape
  // for comparison.
  const Shape shapes[] = {{"split-heavy .10/.02/.76/.02/.10", {0.10, 0.02, 0.76, 0.02, 0.10}},
                          {"balanced    .06/.22/.44/.22/.06", {0.06, 0.22, 0.44, 0.22, 0.06}}};
  const double settings[][2] = {{0, 10}, {0, 20}, {0, 40}, {-10, 10}};
  std::printf("%s, alpha %.3f, beta %.3f, %d runs per cell, seed %llu\n", kSprtModel, cfg.alpha, cfg.beta, runs,
              (unsigned long long)seed);
  std::printf("%-6s %-6s %-32s %10s %10s %12s %12s\n", "elo0", "elo1", "pair outcomes at Elo 0", "false-pos", "power",
              "pairs@elo0", "pairs@elo1");
  for (const auto& s : settings)
    for (const Shape& shape : shapes) {
      cfg.elo0 = s[0], cfg.elo1 = s[1];
      const SprtSimulation h0 =
          simulateSprt(cfg, tiltedToScore(shape.atEven, scoreFromElo(cfg.elo0)), runs, 1000000, seed);
      const SprtSimulation h1 =
          simulateSprt(cfg, tiltedToScore(shape.atEven, scoreFromElo(cfg.elo1)), runs, 1000000, seed + 1);
      std::printf("%-6.0f %-6.0f %-32s %10.4f %10.4f %12.0f %12.0f\n", cfg.elo0, cfg.elo1, shape.name, h0.shareH1(),
                  h1.shareH1(), h0.meanPairs, h1.meanPairs);
    }
  return 0;
}
