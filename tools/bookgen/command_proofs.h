// The commands that read the book's proofs: bookgen certificate (a checkable proof of a position,
// tools/proof/certificate.h), bookgen proven (positions proven won, as arena openings), bookgen
// classes (the proof frontier of the 9 first-move classes) and bookgen open (a position's moves
// proven for neither side). The command that makes proofs, bookgen prove, is command_prove.h.
#pragma once

#include "tools/bookgen/command_prove.h"
#include "tools/proof/certificate.h"

namespace {  // one translation unit: tools/bookgen/bookgen.cpp

int certificateCommand(int argc, char** argv) {
  ProofSettings s;
  cli::Flags flags("bookgen");
  proofTargetFlags(flags, s)
      .text("--out", "FILE", s.out, "the certificate file (required)", "")
      .integer("--threat-depth", "D", s.certificate.threatDepth, 1, 8,
               "attacker moves of the threat sequences the checker settles leaves with")
      .integer("--budget", "N", s.certificate.searchBudget, 1, cli::kNoLimit,
               "proof-number expansions for one position the book does not prove");
  flags.parseOrExit(argc, argv, 0, std::string(kCommands) + "certificate options:\n");
  if (s.out.empty()) return fail("certificate: --out FILE is required");
  Board played;
  if (!proofTarget(s, played)) return 2;
  // The checker knows no steal: after one, the certificate is of the same position with the
  // stones' colours exchanged, which placements reach (the same position for the side to move).
  // By placements player 0 leads by one stone exactly when player 1 is to move.
  const bool exchanged = popcount(played.stones(0)) - popcount(played.stones(1)) != played.toMove();
  const Board root = exchanged ? Board::fromStones(played.stones(1), played.stones(0), played.toMove() ^ 1) : played;
  const std::string moves = exchanged ? placementLine(root) : s.moves;
  if (exchanged)
    std::cerr << "after the steal the stones' colours are exchanged: the certificate is of '" << moves << "'\n";
  Database db;
  std::string error;
  if (!loadDatabase(s.dbPath, db, error)) {
    std::cerr << "bookgen: " << error << "\n";
    return 1;
  }
  const BookGraph graph = BookGraph::fromDatabase(db, s.grown.deep.key());
  const int attacker = proofAttacker(s, graph, root);
  stopOnSignals(gStop);
  const auto start = std::chrono::steady_clock::now();
  auto seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  CertificateWriter writer(&graph, s.certificate, &gStop);
  std::cerr << "certificate of a win for player " << attacker + 1 << " after '" << moves << "'\n";
  const bool ok = writer.build(root, attacker, error, [&](const CertificateWriter& w) {
    std::cerr << "certificate: " << std::fixed << std::setprecision(0) << seconds() << " s, " << w.table().size()
              << " table positions, " << w.leaves() << " threat leaves, " << w.searched() << " proof searches ("
              << w.expansions() << " expansions)\n";
  });
  if (!ok) {
    if (gStop.load()) return std::cerr << "bookgen: stopped by signal; no certificate written\n", kInterruptedStatus;
    return std::cerr << "bookgen: no certificate: " << error << "\n", 1;
  }
  const std::vector<std::string> comments = {
      "moves: '" + moves + "' (then placements only, no steal)" +
          (exchanged ? "; the position after '" + s.moves + "', its colours exchanged" : ""),
      "claim: player " + std::to_string(attacker + 1) + " wins",
      "made by: bookgen certificate --db " + s.dbPath + " --moves '" + s.moves + "' --threat-depth " +
          std::to_string(s.certificate.threatDepth) + " --budget " + std::to_string(s.certificate.searchBudget)};
  if (!writeFileAtomically(
          s.out, certificateText(root, attacker == root.toMove(), s.certificate.threatDepth, writer.table(), comments),
          error))
    return std::cerr << "bookgen: " << error << "\n", 1;
  std::cerr << "wrote " << s.out << ": " << writer.table().size() << " table positions, " << writer.leaves()
            << " threat leaves, " << writer.searched() << " positions proven by proof-number search, " << std::fixed
            << std::setprecision(1) << seconds() << " s\n";
  return 0;
}

// Moves from the empty board to the position with these stones (player 0's and player 1's,
// placed alternately, player 0 first) in which no move ends the game; false when there is no
// such order. Depth-first over the stones, at most a few thousand tries for 12 stones.
bool movesTo(Bitboard stones0, Bitboard stones1, const Board& b, std::vector<Cell>& moves, int& tries) {
  if (!(stones0 | stones1)) return true;
  if (++tries > 100000) return false;
  for (Bitboard left = b.toMove() == 0 ? stones0 : stones1; left;) {
    const Cell c = popLowest(left);
    Board next = b;
    if (next.play(c) != Outcome::None) continue;
    moves.push_back(c);
    const Bitboard rest0 = b.toMove() == 0 ? stones0 & ~bit(c) : stones0,
                   rest1 = b.toMove() == 1 ? stones1 & ~bit(c) : stones1;
    if (movesTo(rest0, rest1, next, moves, tries)) return true;
    moves.pop_back();
  }
  return false;
}

// Positions the book proves won for the player to move, as an arena --openings file: the conversion
// test of docs/proofs.md plays each with both colours. An even share of each stone count (as far as
// the book has them), drawn with --seed.
int provenCommand(int argc, char** argv) {
  ProofSettings s;
  int fewest = 3, most = 12;
  uint64_t count = 200, seed = 1;
  cli::Flags flags("bookgen");
  flags.text("--db", "FILE", s.dbPath, "the database", s.dbPath)
      .integer("--fewest", "N", fewest, 1, 60, "fewest stones of a position")
      .integer("--most", "N", most, 1, 60, "most stones of a position")
      .integer("--count", "N", count, 1, cli::kNoLimit, "positions written")
      .integer("--seed", "S", seed, 0, cli::kNoLimit, "seed of the draw");
  flags.parseOrExit(argc, argv, 0, std::string(kCommands) + "proven options:\n");
  if (fewest > most) return fail("proven: --fewest is more than --most");
  Database db;
  std::string error;
  if (!loadDatabase(s.dbPath, db, error)) return fail(error);
  const BookGraph graph = BookGraph::fromDatabase(db, s.grown.deep.key());
  std::vector<std::vector<std::vector<Cell>>> byStones(size_t(most) + 1);  // move lists
  for (const BookGraph::Node& n : graph.nodes()) {
    const int stones = popcount(n.key.mine | n.key.theirs);
    if (n.estimate.proof != Proof::Win || n.key.stealAvailable || stones < fewest || stones > most) continue;
    const bool firstToMove = stones % 2 == 0;  // placements alternate from player 0; no steal after 3 stones
    Board b;
    std::vector<Cell> moves;
    int tries = 0;
    if (movesTo(firstToMove ? n.key.mine : n.key.theirs, firstToMove ? n.key.theirs : n.key.mine, b, moves, tries))
      byStones[size_t(stones)].push_back(moves);
  }
  Rng rng(seed);
  std::vector<std::vector<Cell>> chosen;
  for (int left = most - fewest + 1, stones = fewest; stones <= most; ++stones, --left) {
    auto& pool = byStones[size_t(stones)];
    const size_t share = std::min(pool.size(), size_t((count - chosen.size() + uint64_t(left) - 1) / uint64_t(left)));
    for (size_t i = 0; i < share; ++i) {  // a partial Fisher-Yates draw
      std::swap(pool[i], pool[i + size_t(rng.below(pool.size() - i))]);
      chosen.push_back(pool[i]);
    }
  }
  std::cout << "# " << chosen.size() << " positions the book (" << s.dbPath << ") proves won for the player to move, "
            << fewest << "-" << most << " stones, seed " << seed << ": bookgen proven\n";
  for (const std::vector<Cell>& moves : chosen) {
    std::string line;
    for (Cell c : moves) line += (line.empty() ? "" : "; ") + cellName(c);
    std::cout << line << "\n";
  }
  if (chosen.size() < count) std::cerr << "bookgen: proven: only " << chosen.size() << " positions found\n";
  return 0;
}

// The proof frontier: for each first-move class (one stone, not stolen, the other player to move),
// its replies (one per symmetry class) that the book proves lost or won for the player making
// them, and the class's value for that player: a win once one reply wins, a loss once all lose.
int classesCommand(int argc, char** argv) {
  ProofSettings s;
  cli::Flags flags("bookgen");
  flags.text("--db", "FILE", s.dbPath, "the database", s.dbPath);
  flags.parseOrExit(argc, argv, 0, std::string(kCommands) + "classes options:\n");
  Database db;
  std::string error;
  if (!loadDatabase(s.dbPath, db, error)) return fail(error);
  const BookGraph graph = BookGraph::fromDatabase(db, s.grown.deep.key());
  std::cout << "first-move classes in " << s.dbPath << " (" << s.grown.deep.key() << "): the value for player 2, "
            << "who moves after the stone (not stolen), from the book's proofs of its replies\n"
            << "class  value  replies lost  won  open replies\n";
  int proven = 0;
  for (Cell stone : moveClasses(Board())) {
    Board b;
    b.play(stone);
    int replies = 0, lost = 0, won = 0;
    std::string open;
    for (Cell reply : moveClasses(b)) {
      if (reply == stone) continue;  // the steal
      Board after = b;
      after.play(reply);
      const Proof p = graphProof(graph, after);  // for player 1, to move after the reply
      ++replies, lost += p == Proof::Win, won += p == Proof::Loss;
      if (p != Proof::Win && p != Proof::Loss) open += (open.empty() ? "" : ", ") + cellName(reply);
    }
    const char* value = won ? "win" : lost == replies ? "loss" : "open";
    proven += won || lost == replies;
    char line[96];
    std::snprintf(line, sizeof line, "%-6s %-6s %2d of %-2d      %-4d ", cellName(stone).c_str(), value, lost, replies,
                  won);
    std::cout << line << (open.empty() ? "-" : open) << "\n";
  }
  std::cout << proven << " of 9 classes proven\n";
  return 0;
}

// The open moves of a position, one per line: the move classes (placements only, never the steal)
// that end nothing and whose position the book does not prove for either side. scripts/
// prove_shards.sh splits a target into jobs with it.
int openCommand(int argc, char** argv) {
  ProofSettings s;
  cli::Flags flags("bookgen");
  flags.text("--db", "FILE", s.dbPath, "the database", s.dbPath)
      .text("--moves", "'X Y; X Y'", s.moves, "the position after these moves", "the empty board");
  flags.parseOrExit(argc, argv, 0, std::string(kCommands) + "open options:\n");
  Board b;
  if (!proofTarget(s, b)) return 2;
  Database db;
  std::string error;
  if (!loadDatabase(s.dbPath, db, error)) return fail(error);
  const BookGraph graph = BookGraph::fromDatabase(db, s.grown.deep.key());
  size_t settled = 0, open = 0;
  for (Cell m : moveClasses(b)) {
    if (b.canSteal() && (b.stones(0) >> m & 1)) continue;  // the steal: proofs search placements only
    Board after = b;
    if (after.play(m) != Outcome::None || graphProof(graph, after) != Proof::Unknown) {
      ++settled;
      continue;
    }
    ++open;
    std::cout << cellName(m) << "\n";
  }
  std::cerr << "'" << s.moves << "': " << open << " open moves, " << settled << " settled by the rules or the book\n";
  return 0;
}

}  // namespace
