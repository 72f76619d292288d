// What a search is asked to do: its budget (SearchLimits) and its algorithm's switches and
// constants (SearchOptions, with the bot's defaults and the named variants).
#pragma once

#include <cstdint>

namespace yav {

struct SearchLimits {
  double timeMs = 0;        // wall-clock budget for this call; 0 = none
  double hardMs = 0;        // with timeMs: stop before this too, allowing for the scheduling gaps seen; 0 = none
  uint64_t iterations = 0;  // fixed iteration count; 0 = none (one of the two must be set)
  uint64_t seed = 1;        // playouts are reproducible for a given seed at fixed iterations
};

struct SearchOptions {
  bool solver = true;         // proofs backed up the tree
  bool tactics = true;        // win / block / no-own-3 at the leaves
  bool smartPlayouts = true;  // playout.h smart policy; otherwise uniformly random
  bool lastGoodReply = true;  // the smart policy tries the last good reply first (playout.h)
  double exploration = 0.5;   // UCT constant C in q + C * sqrt(ln N / n)
  uint32_t expandVisits = 1;  // a leaf gets children once it has been visited this many times (>= 1)
  // Final move: the lower bound value - A / sqrt(n) ("secure child") instead of most visits.
  // Without RAVE it scored 53% over 900 games; with RAVE most visits scores 58.7% against it.
  bool secureChild = false;
  double secureA = 1.0;
  // RAVE (all-moves-as-first statistics mixed into the selection value with weight
  // sqrt(k / (3 n + k))): raveK = 0 turns it off. Tuned by search_match
  // (docs/experiments/2026-11-search-screens.md).
  double raveK = 10000;
  double raveExploration = 0.01;  // the UCT constant used together with RAVE
  // Forcing-sequence solver: attacker-move depth and node budget per call, at the root and at
  // each expanded node. forcing = false is the search without it.
  bool forcing = true;
  int forcingRootDepth = 30;
  uint32_t forcingRootNodes = 20000;         // per call (about 5 ms at most)
  uint32_t forcingRootDefenceNodes = 40000;  // all calls of the root's defence check together
  int forcingLeafDepth = 12;
  uint32_t forcingLeafNodes = 200;
  // A node is checked when its visit count reaches this (and it is expanded). 12 rather than 8:
  // as strong per iteration, and fewer of the nodes the search soon leaves are checked
  // (docs/experiments/2026-11-search-engine.md, "Checks at the twelfth visit").
  uint32_t forcingVisits = 12;
  // The check at forcingVisits first spends at most forcingFirstNodes a solve; a check that a node
  // limit cut short is made again with forcingLeafNodes when the node reaches forcingRetryVisits.
  // Half the solver's work went into solves that ended at their limit with no answer
  // (docs/experiments/2026-11-search-engine.md, "Cheap first checks"). forcingRetryVisits = 0:
  // one check, with forcingLeafNodes.
  uint32_t forcingFirstNodes = 50;
  uint32_t forcingRetryVisits = 32;
  // The solver's transposition table: 2^N slots of 16 bytes (1 MB). 2^13 searched about 4% more
  // iterations a second but scored 0.488 against it at fixed iterations: kept
  // (docs/experiments/2026-11-search-engine.md).
  int forcingTableLog2 = 16;
  // Exact endgame solver (endgame.h): at the root when at most endgameRootEmpties cells are
  // empty, and at a node's forcing check when at most endgameTreeEmpties are. In the tree with
  // 16 empty cells and 2,000 nodes it measured neutral in the bot; with 20 cells and 5,000 nodes
  // it avoids traps of the late middle game that the search alone walks into
  // (docs/experiments/2026-11-search-engine.md, "Endgames solved in the tree").
  bool endgame = true;
  int endgameRootEmpties = 24;
  uint32_t endgameRootNodes = 100000;
  int endgameTreeEmpties = 20;
  uint32_t endgameTreeNodes = 5000;
  // Proof search in the turn (turn_prover.h): once the search has spent all but proverShare of a
  // timed turn, a root valued at least proverMinValue for its side to move and not proven gets df-pn
  // for the rest of the turn, and a win it proves is played; at fixed iterations, after all but
  // that share of them, proverExpansions expansions. 0 turns it off: the tools' searches (book
  // verdicts, suites) keep it off, the bot turns it on (bot/main.cpp).
  double proverShare = 0;
  double proverMinValue = 0.3;  // the tree values some proven wins below a half
  uint64_t proverExpansions = 300;

  // The offline analysis variant (tactical suites, book verification): the bot's search with the
  // endgame solver in the tree as the provers have always had it (their proofs and the book's
  // stay comparable across versions).
  static SearchOptions deepAnalysis() {
    SearchOptions o;
    o.endgame = true;
    o.endgameTreeEmpties = 16;
    o.endgameTreeNodes = 2000;
    return o;
  }

  // The weak reference variant: plain UCT, no solver, no tactics, uniformly random playouts.
  static SearchOptions plainUct() {
    SearchOptions o;
    o.solver = o.tactics = o.smartPlayouts = o.lastGoodReply = o.secureChild = o.forcing = o.endgame = false;
    o.raveK = 0;
    o.exploration = 0.7;
    return o;
  }
};

}  // namespace yav
