// The proof-number search (tools/proof/proof_search.h) on a file of targets, without a book: the
// expansions and seconds each target takes to settle under two settings side by side (--base and
// --test), one thread, one target after the other. Expansions are deterministic, so they compare
// settings on any machine; seconds only on a quiet one.
//
// A target line: "X Y; X Y; ... | mover" or "... | opponent" (whose win is claimed); '#' starts a
// comment. A setting: "name=value ..." of ProofSearchOptions (kSettingNames). Ends with
// one machine-readable line:
// RESULT targets=<n> base_expansions=<n> test_expansions=<n> base_s=<x> test_s=<x> base_settled=<n> test_settled=<n>
// Proof searches are chaotic: one setting may settle a target 10 times faster and the next 10
// times slower, so a change is judged on many targets, by the geometric mean of the ratios.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tools/proof/proof_search.h"
#include "tools/common/cli.h"
#include "tools/common/moves_text.h"

using namespace yav;
using namespace yav::proof;

namespace {

constexpr const char* kSettingNames =
    "forcing-depth, forcing-nodes, endgame-cells, endgame-nodes, epsilon, defence-zone, quiet-pass, move-order, table, "
    "mcts, mcts-plies, quiet-pn";

// "name=value ..." over the defaults; "" or an error naming the item.
std::string parseSetting(const std::string& text, ProofSearchOptions& o) {
  std::stringstream items(text);
  for (std::string item; items >> item;) {
    const size_t eq = item.find('=');
    const std::string name = item.substr(0, eq), value = eq == std::string::npos ? "" : item.substr(eq + 1);
    double v = 0;
    if (!cli::toNumber(value, 0, 1e12, v)) return "'" + item + "': expected name=value, value a number >= 0";
    if (name == "forcing-depth")
      o.forcingDepth = int(v);
    else if (name == "forcing-nodes")
      o.forcingNodes = uint64_t(v);
    else if (name == "endgame-cells")
      o.endgameCells = int(v);
    else if (name == "endgame-nodes")
      o.endgameNodes = uint64_t(v);
    else if (name == "epsilon")
      o.epsilon = v;
    else if (name == "defence-zone")
      o.defenceZone = v != 0;
    else if (name == "quiet-pass")
      o.quietPass = v != 0;
    else if (name == "move-order")
      o.moveOrder = v != 0;
    else if (name == "table")
      o.maxEntries = size_t(v);
    else if (name == "mcts")
      o.mctsIterations = uint64_t(v);
    else if (name == "mcts-plies")
      o.mctsPlies = int(v);
    else if (name == "quiet-pn")
      o.quietProofNumber = uint32_t(std::max(1.0, v));
    else
      return "'" + name + "' is no setting (" + std::string(kSettingNames) + ")";
  }
  return "";
}

struct Target {
  std::string moves;
  Board board;
  int attacker = 0;
};

struct Settling {
  ProofNumbers numbers;
  uint64_t expansions = 0;
  double seconds = 0;
};

// A target's search under one setting, until it is settled or `budget` expansions are spent or,
// when `seconds` > 0, that much time has passed (looked at every 5,000 expansions: for settings
// whose expansions differ in cost, such as the MCTS-solver's).
Settling settle(const Target& t, const ProofSearchOptions& o, uint64_t budget, double seconds,
                uint64_t& mctsIterations) {
  ProofSearch search(o);
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  const uint64_t slice = seconds > 0 ? 5000 : budget;
  Settling out;
  while (search.expansions() < budget && (seconds <= 0 || elapsed() < seconds)) {
    if (search.full()) search.forget();  // as prove does: forget, go on
    const uint64_t before = search.expansions();
    out.numbers = search.run(t.board, t.attacker, std::min(slice, budget - search.expansions()));
    if (out.numbers.settled() || (search.expansions() == before && !search.full())) break;
  }
  out.seconds = elapsed();
  out.expansions = search.expansions();
  mctsIterations += search.mctsIterationsDone();
  return out;
}

const char* verdict(const ProofNumbers& n) { return n.proven() ? "proven" : n.disproven() ? "disproven" : "open"; }

}  // namespace

int main(int argc, char** argv) {
  std::string path = "tests/data/proof_bench.txt";  // from the repository root, as bench reads its files
  std::string baseText = "", testText = "epsilon=0.5";
  uint64_t budget = 1000000;
  double seconds = 0;
  cli::Flags flags("proof_bench");
  flags.text("--targets", "FILE", path, "the targets, a line each: 'X Y; X Y | mover' or '... | opponent'", path)
      .text("--base", "SETTING", baseText, "the first setting, 'name=value ...' over the defaults", "the defaults")
      .text("--test", "SETTING", testText, "the second setting", testText)
      .integer("--budget", "N", budget, 1, cli::kNoLimit, "expansions a target may take under each setting")
      .number("--seconds", "S", seconds, 0, 1e6, "also stop a target's search after S seconds (0: no limit)");
  flags.parseOrExit(argc, argv, 1, "usage: proof_bench [options]\n", 0,
                    "settings: " + std::string(kSettingNames) + "\n");
  ProofSearchOptions base, test;
  for (const auto& [text, options] :
       {std::pair<std::string, ProofSearchOptions*>{baseText, &base}, {testText, &test}}) {
    const std::string error = parseSetting(text, *options);
    if (!error.empty()) return std::fprintf(stderr, "proof_bench: %s\n", error.c_str()), 2;
  }
  std::ifstream in(path);
  if (!in) return std::fprintf(stderr, "proof_bench: cannot read %s\n", path.c_str()), 1;
  std::vector<Target> targets;
  std::string problem;
  cli::forEachLine(in, [&](std::string line, int number) {
    line = line.substr(0, line.find('#'));
    if (line.find_first_not_of(" \t\r") == std::string::npos) return true;
    const size_t bar = line.find('|');
    Target t;
    std::string error, side, extra;
    if (bar != std::string::npos) std::istringstream(line.substr(bar + 1)) >> side >> extra;
    t.moves = line.substr(0, bar);
    t.moves.erase(t.moves.find_last_not_of(" \t") + 1);  // the name printed
    if ((side != "mover" && side != "opponent") || !extra.empty())
      error = "expected '| mover' or '| opponent' after the moves";
    else if (playMoves(t.moves, t.board, error))
      t.attacker = side == "mover" ? t.board.toMove() : t.board.toMove() ^ 1;
    if (!error.empty()) return problem = path + ":" + std::to_string(number) + ": " + error, false;
    targets.push_back(t);
    return true;
  });
  if (!problem.empty()) return std::fprintf(stderr, "proof_bench: %s\n", problem.c_str()), 1;
  if (targets.empty()) return std::fprintf(stderr, "proof_bench: %s holds no target\n", path.c_str()), 1;

  std::printf("base: '%s'  test: '%s'  budget %llu expansions\n", baseText.c_str(), testText.c_str(),
              (unsigned long long)budget);
  std::printf("%-40s %10s %9s %8s | %10s %9s %8s | %6s\n", "target (claim)", "base exp", "verdict", "s", "test exp",
              "verdict", "s", "ratio");
  uint64_t baseTotal = 0, testTotal = 0, baseSettled = 0, testSettled = 0;
  double baseSeconds = 0, testSeconds = 0, logRatios = 0, logSecondRatios = 0;
  size_t bothSettled = 0;
  uint64_t baseMcts = 0, testMcts = 0;
  for (const Target& t : targets) {
    const Settling b = settle(t, base, budget, seconds, baseMcts), x = settle(t, test, budget, seconds, testMcts);
    baseTotal += b.expansions, testTotal += x.expansions, baseSeconds += b.seconds, testSeconds += x.seconds;
    baseSettled += b.numbers.settled(), testSettled += x.numbers.settled();
    if (b.numbers.settled() && x.numbers.settled()) {
      ++bothSettled, logRatios += std::log(double(x.expansions) / double(b.expansions));
      logSecondRatios += std::log(std::max(x.seconds, 1e-4) / std::max(b.seconds, 1e-4));
    }
    const std::string name = t.moves + (t.attacker == t.board.toMove() ? " (mover)" : " (opponent)");
    std::printf("%-40s %10llu %9s %8.2f | %10llu %9s %8.2f | %6.3f\n", name.c_str(), (unsigned long long)b.expansions,
                verdict(b.numbers), b.seconds, (unsigned long long)x.expansions, verdict(x.numbers), x.seconds,
                double(x.expansions) / double(b.expansions));
    std::fflush(stdout);
  }
  std::printf(
      "settled: base %llu, test %llu of %zu; expansions: base %llu, test %llu (ratio %.3f); seconds %.1f and %.1f "
      "(ratio %.3f)\n",
      (unsigned long long)baseSettled, (unsigned long long)testSettled, targets.size(), (unsigned long long)baseTotal,
      (unsigned long long)testTotal, double(testTotal) / double(baseTotal), baseSeconds, testSeconds,
      testSeconds / baseSeconds);
  if (baseMcts || testMcts)
    std::printf("MCTS-solver iterations: base %llu, test %llu\n", (unsigned long long)baseMcts,
                (unsigned long long)testMcts);
  // One hard target can hold most of the total: the geometric mean weighs every target alike.
  std::printf("test/base, geometric mean over the %zu targets both settled: expansions %.3f, seconds %.3f\n",
              bothSettled, bothSettled ? std::exp(logRatios / double(bothSettled)) : 0.0,
              bothSettled ? std::exp(logSecondRatios / double(bothSettled)) : 0.0);
  std::printf(
      "RESULT targets=%zu base_expansions=%llu test_expansions=%llu base_s=%.2f test_s=%.2f base_settled=%llu "
      "test_settled=%llu\n",
      targets.size(), (unsigned long long)baseTotal, (unsigned long long)testTotal, baseSeconds, testSeconds,
      (unsigned long long)baseSettled, (unsigned long long)testSettled);
  return 0;
}
