// bookgen prove: proof-number searches of a position's replies (tools/proof/prove.h), their
// flags, the target and the claim, the state file (docs/proofs.md); bookgen state, which checks
// and bounds a state file.
#pragma once

#include "tools/bookgen/commands.h"
#include "tools/book/graph.h"
#include "tools/book/grow.h"
#include "tools/proof/certificate.h"
#include "tools/proof/proof_state.h"
#include "tools/proof/prove.h"
#include "tools/common/moves_text.h"

namespace {  // one translation unit: tools/bookgen/bookgen.cpp

using namespace yav::proof;

struct ProofSettings {
  std::string dbPath = "book/book.db", moves, winner = "auto", out, statePath;
  double stateMaxMb = 200;  // a --state file's bound in MB (0: none)
  GrowOptions grown;        // its budget names the book's verdicts
  ProveOptions prove;
  CertificateOptions certificate;
};

// The flags prove and certificate share: which book, which position, whose win.
cli::Flags& proofTargetFlags(cli::Flags& flags, ProofSettings& s) {
  return flags.text("--db", "FILE", s.dbPath, "the database", s.dbPath)
      .text("--moves", "'X Y; X Y'", s.moves, "the position after these moves (no steal is searched after them)",
            "the empty board")
      .value("--winner", "mover|opponent|auto", "whose win is to be proven: the player to move there or the other one",
             "auto: the book's proof, else the side its value favours", [&s](const std::string& v) {
               s.winner = v;
               return v == "mover" || v == "opponent" || v == "auto"
                          ? ""
                          : "--winner expects mover, opponent or auto, got '" + v + "'";
             });
}

// The target board, checked: a legal, unfinished position with a move left.
bool proofTarget(const ProofSettings& s, Board& b) {
  std::string error;
  if (!playMoves(s.moves, b, error)) return fail("--moves: " + error), false;
  if (!b.empty()) return fail("--moves: the board is full"), false;
  return true;
}

// The book graph's node of b as proofs see it: placements only (no steal), or nullptr.
const BookGraph::Node* placementNode(const BookGraph& graph, const Board& b) {
  return graph.find(canonicalize(placementKey(b)).key);
}

// The book's proof for the player to move at b, searched as placements only (no steal).
Proof graphProof(const BookGraph& graph, const Board& b) {
  const BookGraph::Node* n = placementNode(graph, b);
  return n ? n->estimate.proof : Proof::Unknown;
}

// The attacker (a player index of b) that --winner names.
int proofAttacker(const ProofSettings& s, const BookGraph& graph, const Board& b) {
  const int mover = b.toMove();
  if (s.winner == "mover") return mover;
  if (s.winner == "opponent") return mover ^ 1;
  const Proof p = graphProof(graph, b);
  if (p == Proof::Win) return mover;
  if (p == Proof::Loss) return mover ^ 1;
  const BookGraph::Node* n = placementNode(graph, b);
  return n && n->estimate.mean < 0.5 ? mover ^ 1 : mover;
}

// MemAvailable of /proc/meminfo in bytes (0 where it cannot be read: no limit is known).
uint64_t availableMemoryBytes() {
  std::ifstream in("/proc/meminfo");
  for (std::string name; in >> name;) {
    uint64_t kb = 0;
    if (name == "MemAvailable:" && in >> kb) return kb * 1024;
    in.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
  }
  return 0;
}

// A settled position becomes a verdict under the book's `key`: the winning move, or every move
// class proven lost. A position with a deep search's verdict keeps it, completed by the proof (its
// other moves keep their values), and the segment saves it since it now proves more moves
// (db_store.h). False (nothing recorded) for a win without its move.
bool recordProof(Database& db, const std::string& key, const Board& b, Proof p, Cell win) {
  if (p == Proof::Win && win == kNoCell) return false;
  // Placements only, as searched: a one-stone target is its class, the position after a steal,
  // never the one where the steal is open (a loss there would call the steal lost).
  const Canonical c = canonicalize(placementKey(b));
  const DeepVerdict* searched = db.verdict(key, c.key);
  DeepVerdict v = searched ? *searched : DeepVerdict();
  auto markProven = [&v](Cell move, Proof proof) {
    const float value = proof == Proof::Win ? 1.0f : 0.0f;
    for (DeepMove& d : v.moves)
      if (d.move == move) return void(d = {move, value, proof, d.visits});
    v.moves.push_back({move, value, proof, 0});
  };
  if (p == Proof::Win) {
    v.best = c.toCanonical(win);
    markProven(v.best, Proof::Win);
  } else {
    for (Cell m : moveClasses(b))
      if (m != b.stealCell()) markProven(c.toCanonical(m), Proof::Loss);
    if (v.best == kNoCell && !v.moves.empty()) v.best = v.moves.front().move;
  }
  db.setVerdict(key, c.key, v);
  return true;
}

int proveCommand(int argc, char** argv) {
  ProofSettings s;
  bool tableGiven = false;
  cli::Flags flags("bookgen");
  proofTargetFlags(flags, s)
      .integer("--threads", "N", s.prove.threads, 1, 256, "searching threads")
      .number("--hours", "H", s.prove.hours, 0, cli::kNoMax, "stop after H hours", "until the position is settled")
      .integer("--budget", "N", s.prove.firstBudget, 1, cli::kNoLimit,
               "expansions of a reply's first turn (doubled at each turn)")
      .number("--item-epsilon", "E", s.prove.itemEpsilon, -1, cli::kNoMax,
              "a reply's turn also ends when its proof number (disproof number where the defender moves at the target, "
              "unless --item-order cheapest) "
              "passes its best free sibling's by this share, df-pn's 1+epsilon rule (-1: only the budget ends a turn)")
      .value("--item-order", "proving|cheapest",
             "where the defender moves at the target (and in split replies), the next reply: df-pn's most proving one "
             "(the least disproof number), or the cheapest (the least proof number), so a run that cannot settle the "
             "target "
             "banks the proofs nearest to done",
             "proving",
             [&](const std::string& v) {
               if (v != "proving" && v != "cheapest")
                 return "--item-order expects proving or cheapest, got '" + v + "'";
               s.prove.cheapestFirst = v == "cheapest";
               return std::string();
             })
      .value("--table", "N",
             "positions a thread's table holds (32 bytes each) before it forgets the ones never expanded",
             std::to_string(s.prove.search.maxEntries) +
                 ", or four times a --state file's positions, within 3/4 of the memory available",
             [&](const std::string& v) {
               uint64_t n = 0;
               if (!cli::toInteger(v, 1000, cli::kNoLimit, n))
                 return "--table expects a whole number of at least 1000, got '" + v + "'";
               s.prove.search.maxEntries = size_t(n), tableGiven = true;
               return std::string();
             })
      .integer("--mcts-iterations", "N", s.prove.search.mctsIterations, 0, cli::kNoLimit,
               "the bot's MCTS-solver of N iterations settles a node at its first expansion when it proves it (0: off; "
               "docs/proofs.md has its measurements)")
      .integer("--mcts-plies", "N", s.prove.search.mctsPlies, 0, 60,
               "... at the nodes up to N plies below each reply searched")
      .integer(
          "--quiet-proof-number", "N", s.prove.search.quietProofNumber, 1, 1000000,
          "a new position where the defender moves starts at this proof number when the attacker, given a second move "
          "there, has no threat sequence: df-pn tries the attacker's threatening moves first (1: every new position at "
          "1)")
      .integer("--record-plies", "N", s.prove.recordPlies, 0, 60,
               "the positions the searches prove up to N plies below the target are recorded too, so a later run "
               "starts from them")
      .number("--progress", "SEC", s.prove.progressSeconds, 0, cli::kNoMax, "seconds between progress lines")
      .number("--checkpoint", "SEC", s.prove.checkpointSeconds, 1, cli::kNoMax,
              "seconds between saves (and at the end, and on Ctrl-C)")
      .text("--state", "FILE", s.statePath,
            "the searches' tables: read at the start when the file exists, written when the run ends, so the next run "
            "goes on "
            "where this one stopped (GBs: keep it out of the repository)",
            "none")
      .number(
          "--state-every", "SEC", s.prove.stateSeconds, 1, cli::kNoMax,
          "seconds between writes of the --state file while the run goes on (the threads wait meanwhile), so that a "
          "killed run loses at most that much")
      .number(
          "--state-max-mb", "MB", s.stateMaxMb, 0, cli::kNoMax,
          "the --state file's bound in MB (10^6 bytes; 0: none): past it the write keeps the settled positions and the "
          "open ones with the largest numbers, the fewest stones among equal ones, and leaves out the rest (positions "
          "one expansion gives again)");
  flags.parseOrExit(argc, argv, 0, std::string(kCommands) + "prove options:\n");
  Board target;
  if (!proofTarget(s, target)) return 2;
  if (!tableGiven && !s.statePath.empty()) {
    const uint64_t statePositions = proofStatePositions(s.statePath), memory = availableMemoryBytes();
    s.prove.search.maxEntries = tableForState(s.prove.search.maxEntries, statePositions,
                                              memory ? memory : std::numeric_limits<uint64_t>::max(), s.prove.threads);
    std::cerr << "a thread's table: " << s.prove.search.maxEntries << " positions (the state's " << statePositions
              << " times four, at least the default, within 3/4 of " << memory / (1 << 20) << " MiB available)\n";
  }
  FileLock lock;
  Database db;
  DatabaseStore store(s.dbPath);
  if (!openForWriting(store, lock, db)) return 1;
  const std::string key = s.grown.deep.key();
  std::cerr << "loading the book graph of " << key << "\n";
  const BookGraph graph = BookGraph::fromDatabase(db, key);
  const int attacker = proofAttacker(s, graph, target);
  if (const Proof p = graphProof(graph, target); p == Proof::Win || p == Proof::Loss)
    std::cerr << "the book already proves this position: a " << proofName(p) << " for the player to move\n";
  std::ostringstream parameters;
  parameters << "prove moves='" << s.moves << "' winner=" << (attacker == target.toMove() ? "mover" : "opponent")
             << " threads=" << s.prove.threads << " budget=" << s.prove.firstBudget;
  if (s.prove.search.quietProofNumber > 1) parameters << " quiet-pn=" << s.prove.search.quietProofNumber;
  if (s.prove.search.mctsIterations)
    parameters << " mcts=" << s.prove.search.mctsIterations << "x" << s.prove.search.mctsPlies << "plies";
  beginRun(db, store, false, 0, parameters.str());
  size_t recorded = 0;
  std::string error;
  bool saveFailed = false;
  auto save = [&] {
    if (!store.save(db, error))
      saveFailed = true;
    else
      std::cerr << "saved " << store.target() << " (" << recorded << " positions settled by this run)\n";
  };
  auto record = [&](const Board& b, Proof p, Cell win) {
    if (recordProof(db, key, b, p, win)) ++recorded;
  };
  KnownProof known = [&graph](const PositionKey& k) {
    const BookGraph::Node* n = graph.find(k);
    return n ? n->estimate.proof : Proof::Unknown;
  };
  std::cerr << "proving a win for the "
            << (attacker == target.toMove() ? "player to move" : "opponent of the player to move") << " after '"
            << s.moves << "' with " << s.prove.threads << " threads\n";
  Prover prover(target, attacker, s.prove, known, record, save);
  auto saveState = [&](std::string& why) {
    const auto start = std::chrono::steady_clock::now();
    StateWritten written;
    const std::vector<ProofSearch*> all = prover.searches();
    if (!saveProofState(s.statePath, std::vector<const ProofSearch*>(all.begin(), all.end()),
                        uint64_t(s.stateMaxMb * 1e6), written, why))
      return false;
    std::cerr << "wrote " << written.positions << " searched positions to " << s.statePath << " in " << std::fixed
              << std::setprecision(1) << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()
              << std::defaultfloat << " s";
    if (written.leftOut) std::cerr << " (" << written.leftOut << " left out by --state-max-mb " << s.stateMaxMb << ")";
    std::cerr << "\n";
    return true;
  };
  if (!s.statePath.empty()) {
    // A quarter of each table, so that the search has room before it forgets (ProofSearch::forget).
    uint64_t read = 0;
    if (!loadProofState(s.statePath, prover.searches(), s.prove.search.maxEntries / 4, read, error))
      return std::cerr << "bookgen: " << error << " (nothing was searched; move the file away to start without it)\n",
             1;
    std::cerr << "read " << read << " searched positions from " << s.statePath << " (a thread's table took "
              << prover.searches().front()->entries()
              << ", a quarter of --table at most, the settled ones, then the open ones with the fewest stones)\n";
    prover.saveStateWith([&] {
      std::string why;
      if (!saveState(why)) std::cerr << "bookgen: " << why << " (the run goes on)\n";
    });
  }
  const ProofNumbers n = prover.run(gStop, std::cerr);
  if (const Proof p = moverProof(n, attacker == target.toMove()); p != Proof::Unknown)
    record(target, p, p == Proof::Win ? prover.targetWinningMove() : kNoCell);
  save();
  if (!s.statePath.empty() && !saveState(error)) saveFailed = true;
  std::cerr << "target "
            << (n.proven()         ? "PROVEN: the attacker wins"
                : n.defenderWins() ? "DISPROVEN: the defender wins (recorded as its proof)"
                : n.disproven()    ? "DISPROVEN: the attacker does not win (a draw is not ruled out)"
                                   : "open")
            << " (pn " << proofNumberText(n.pn) << ", dn " << proofNumberText(n.dn) << "); "
            << prover.settledPositions() << " positions settled in the searches, " << prover.deeperRecorded()
            << " proofs below the target's moves recorded\n";
  return runExit(!saveFailed, error);
}

// bookgen state FILE: checks a prove state (the version, every position, the checksum) and
// counts it; with --max-mb, rewrites it within that bound (to --out, else in place) as a run's
// --state-max-mb would, so a state of a long run can be carried to another machine small.
int stateCommand(int argc, char** argv) {
  double maxMb = 0;
  std::string out;
  cli::Flags flags("bookgen");
  flags
      .number("--max-mb", "MB", maxMb, 1e-6, cli::kNoMax,
              "rewrite it within this many MB (10^6 bytes), the most valuable positions kept")
      .text("--out", "FILE", out, "where the bounded state goes", "FILE itself");
  const std::vector<std::string> files =
      flags.parseOrExit(argc, argv, 0, std::string(kCommands) + "state options:\n", 1);
  if (files.empty()) return fail("state: which state file? (bookgen state FILE)");
  const std::string& path = files.front();
  if (out.empty()) out = path;
  StateWritten written;
  std::string error;
  if (!boundProofState(path, maxMb ? out : "", uint64_t(maxMb * 1e6), written, error))
    return std::cerr << "bookgen: " << error << "\n", 1;
  std::cerr << path << ": a proof state (version 1), " << written.positions + written.leftOut
            << " positions, checksum good\n";
  if (maxMb)
    std::cerr << "wrote " << out << ": " << written.positions << " positions (" << written.leftOut
              << " left out by --max-mb " << maxMb << ")\n";
  return 0;
}

}  // namespace
