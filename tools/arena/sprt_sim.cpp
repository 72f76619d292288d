// sprt_sim: measures the arena's SPRT by simulation (no bots). Pair outcomes are drawn from a shape
// at Elo 0 exponentially tilted to the true Elo (sprt_simulation.h); the arena's own sprtState
// decides after every pair. Prints, per (elo0, elo1) and shape, the share of runs accepting H1 at
// the true Elo elo0 (false positives, promised <= alpha) and at elo1 (power, promised >= 1 - beta),
// and the mean number of pairs; with --true-elo, the shares of H1 and H0 at that Elo. See
// docs/arena.md.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "tools/arena/sprt_simulation.h"
#include "tools/common/cli.h"

using namespace yav::arena;

namespace {

const char* const kUsage = R"(usage: sprt_sim [--elo0 E --elo1 E] [--true-elo E|inf] [--shape NAME] [--runs N] ...
Simulates the arena's pentanomial SPRT with pair outcomes drawn at random. Without --elo0/--elo1:
a table of settings from (0, 5) to (0, 1000); --true-elo inf is a bot that wins every game.
)";

struct Shape {
  const char* name;
  PairDistribution atEven;  // pair outcomes at equal strength
};
// Yavalath pairs split often (the first player's edge) and draws are rare; a chess-like shape
// for comparison.
const Shape kShapes[] = {{"split-heavy .10/.02/.76/.02/.10", {0.10, 0.02, 0.76, 0.02, 0.10}},
                         {"balanced    .06/.22/.44/.22/.06", {0.06, 0.22, 0.44, 0.22, 0.06}}};

// The pair outcomes at `elo`; infinity: every pair won.
PairDistribution atElo(const Shape& shape, double elo) {
  if (std::isinf(elo)) return elo > 0 ? PairDistribution{0, 0, 0, 0, 1} : PairDistribution{1, 0, 0, 0, 0};
  return tiltedToScore(shape.atEven, scoreFromElo(elo));
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 4000, maxPairs = 1000000;
  uint64_t seed = 1;
  SprtConfig cfg;
  cfg.enabled = true;
  double elo0 = NAN, elo1 = NAN, trueElo = NAN;
  std::string shapeName = "both";
  auto eloFlag = [](const char* name, double& target, bool allowInfinite) {
    return [name, &target, allowInfinite](const std::string& v) {
      if (allowInfinite && (v == "inf" || v == "+inf" || v == "-inf"))
        return target = v[0] == '-' ? -INFINITY : INFINITY, std::string();
      return yav::cli::toNumber(v, -4000, 4000, target) ? std::string()
                                                        : yav::cli::Flags::rangeError(name, -4000, 4000, v);
    };
  };
  yav::cli::Flags flags("sprt_sim");
  flags
      .value("--elo0", "E", "H0 of the one setting to simulate (needs --elo1)", "the table's settings",
             eloFlag("--elo0", elo0, false))
      .value("--elo1", "E", "H1 of the one setting to simulate (needs --elo0)", "the table's settings",
             eloFlag("--elo1", elo1, false))
      .value("--true-elo", "E",
             "simulate at this true Elo only (inf: every game won) and print the shares of H1 and H0", "elo0 and elo1",
             eloFlag("--true-elo", trueElo, true))
      .value("--shape", "NAME", "pair outcomes at Elo 0: split-heavy, balanced or both", "both",
             [&shapeName](const std::string& v) {
               shapeName = v;
               return v == "split-heavy" || v == "balanced" || v == "both"
                          ? std::string()
                          : "--shape expects split-heavy, balanced or both, got '" + v + "'";
             })
      .integer("--runs", "N", runs, 1, INT32_MAX, "simulated runs per cell")
      .integer("--max-pairs", "N", maxPairs, 1, INT32_MAX, "a run still undecided after N pairs counts as undecided")
      .integer("--seed", "S", seed, 0, yav::cli::kNoLimit, "random seed")
      .number("--alpha", "A", cfg.alpha, 1e-9, 0.5, "SPRT alpha")
      .number("--beta", "B", cfg.beta, 1e-9, 0.5, "SPRT beta");
  flags.parseOrExit(argc, argv, 1, kUsage);
  if (std::isnan(elo0) != std::isnan(elo1)) flags.fail("--elo0 and --elo1 go together");
  if (!std::isnan(elo0) && elo1 <= elo0) flags.fail("--elo1 must be greater than --elo0");
  std::vector<std::pair<double, double>> settings = {{0, 5}, {0, 10}, {0, 20}, {0, 40}, {0, 200}, {0, 1000}, {-10, 10}};
  if (!std::isnan(elo0)) settings = {{elo0, elo1}};

  std::printf("%s, alpha %.3f, beta %.3f, %d runs per cell, seed %llu\n", kSprtModel, cfg.alpha, cfg.beta, runs,
              (unsigned long long)seed);
  if (std::isnan(trueElo))
    std::printf("%-6s %-6s %-32s %10s %10s %12s %12s\n", "elo0", "elo1", "pair outcomes at Elo 0", "false-pos", "power",
                "pairs@elo0", "pairs@elo1");
  else
    std::printf("%-6s %-6s %-32s %8s %10s %10s %10s %12s\n", "elo0", "elo1", "pair outcomes at Elo 0", "true", "H1",
                "H0", "undecided", "mean pairs");
  for (const auto& [e0, e1] : settings)
    for (const Shape& shape : kShapes) {
      if (shapeName != "both" && std::string(shape.name).rfind(shapeName, 0) != 0) continue;
      cfg.elo0 = e0, cfg.elo1 = e1;
      if (!std::isnan(trueElo)) {
        const SprtSimulation sim = simulateSprt(cfg, atElo(shape, trueElo), runs, maxPairs, seed);
        std::printf("%-6.0f %-6.0f %-32s %8.0f %10.4f %10.4f %10.4f %12.1f\n", e0, e1, shape.name, trueElo,
                    sim.shareH1(), sim.shareH0(), double(sim.undecided) / runs, sim.meanPairs);
        continue;
      }
      const SprtSimulation h0 = simulateSprt(cfg, atElo(shape, e0), runs, maxPairs, seed);
      const SprtSimulation h1 = simulateSprt(cfg, atElo(shape, e1), runs, maxPairs, seed + 1);
      std::printf("%-6.0f %-6.0f %-32s %10.4f %10.4f %12.1f %12.1f\n", e0, e1, shape.name, h0.shareH1(), h1.shareH1(),
                  h0.meanPairs, h1.meanPairs);
    }
  return 0;
}
