// The shipped book's audit (tools/book/audit.h, bookgen audit): a book move the opponent refutes at
// once is found, told apart from a lost position, recorded, and played around by the next pack.
#include <gtest/gtest.h>

#include <filesystem>

#include "symmetry.h"
#include "test_util.h"
#include "tools/book/audit.h"
#include "tools/common/moves_text.h"

using namespace yav;
using namespace yav::book;

// A hole of the book shipped at e196d61: after the edge opening '2 0; 0 0; 3 1' the book answered
// 4 3, and 2 1 wins by a threat sequence (bookgen certificate of the position after 4 3, accepted
// by proof_check); 1 1 there is not refuted.
TEST(BookAudit, ARefutedBookMoveIsAHoleWhenAnotherMoveIsNot) {
  const Board p = boardAfterMoves("2 0; 0 0; 3 1");
  const AuditFinding f = auditBookMove(p, parseCell("4 3"), 300);
  EXPECT_EQ(f.kind, AuditFinding::Kind::Hole);
  EXPECT_EQ(cellName(f.refutation), "2 1");
  EXPECT_GT(f.othersNotRefuted, 0);
  EXPECT_EQ(f.others, popcount(ruleMoves(p).sensible) - 1);
  EXPECT_EQ(size_t(f.others - f.othersNotRefuted), f.refutedOthers.size());
  // Each refuted other move's refutation wins: the audit asks the same search again.
  for (const auto& [move, refutation] : f.refutedOthers) {
    Board b = p;
    ASSERT_EQ(b.play(move), Outcome::None);
    EXPECT_TRUE(b.isLegal(refutation));
  }
  EXPECT_EQ(auditBookMove(p, f.otherNotRefuted, 300).kind, AuditFinding::Kind::Sound);
}

// The opponent has two open wins: every move is refuted, and the position is lost, not a hole.
TEST(BookAudit, APositionWhereEveryMoveIsRefutedIsLost) {
  // Player 2 (to move second) holds 0 4, 1 4, 3 4 and 0 2, 1 2, 3 2: 2 4 and 2 2 each make its 4.
  const Board p = Board::fromStones(cellsAt({{0, 8}, {4, 8}, {6, 6}, {0, 6}, {4, 0}, {6, 3}}),
                                    cellsAt({{0, 4}, {1, 4}, {3, 4}, {0, 2}, {1, 2}, {3, 2}}), 0);
  ASSERT_EQ(popcount(p.winningCells(1)), 2);
  const AuditFinding f = auditBookMove(p, parseCell("2 4"), 300);
  EXPECT_EQ(f.kind, AuditFinding::Kind::Lost);
  EXPECT_EQ(cellName(f.refutation), "2 2");
  EXPECT_EQ(f.win, kNoCell);
  EXPECT_EQ(f.othersNotRefuted, 0);
}

// One fresh search per call: the finding depends on the position and the budget alone, not on what
// was audited before (a search kept between calls would find the refutation in its table).
TEST(BookAudit, TheFindingDependsOnThePositionAndTheBudgetAlone) {
  const Board p = boardAfterMoves("2 0; 0 0; 3 1");
  const Cell move = parseCell("4 3");
  const AuditFinding small = auditBookMove(p, move, 5);  // 2 1 needs 8 expansions
  EXPECT_EQ(small.kind, AuditFinding::Kind::Sound);
  const AuditFinding refuted = auditBookMove(p, move, 300);
  EXPECT_EQ(refuted.kind, AuditFinding::Kind::Hole);
  EXPECT_EQ(auditBookMove(p, move, 5).kind, AuditFinding::Kind::Sound);
  const AuditFinding again = auditBookMove(p, move, 300);
  EXPECT_EQ(again.refutation, refuted.refutation);
  EXPECT_EQ(again.othersNotRefuted, refuted.othersNotRefuted);
  EXPECT_EQ(again.refutedOthers, refuted.refutedOthers);
}

// The report names positions by placements only; after a steal the colours are exchanged, and the
// side to move sees the same position.
TEST(BookAudit, APlacementLineReachesThePositionForTheSideToMove) {
  for (const std::string moves : {"2 0; 0 0; 3 1", "2 0; 2 0; 3 3", "2 0; 2 0; 3 3; 4 4", "0 7; 0 7; 3 5; 3 4; 2 5"}) {
    const Board b = boardAfterMoves(moves);
    const std::string line = placementLine(b);
    SCOPED_TRACE(moves + " -> " + line);
    const Board c = boardAfterMoves(line);
    EXPECT_EQ(c.stones(c.toMove()), b.stones(b.toMove()));
    EXPECT_EQ(c.stones(c.toMove() ^ 1), b.stones(b.toMove() ^ 1));
    EXPECT_FALSE(c.canSteal());
  }
}

// End to end on the test database: the audit finds the packed book's holes and records their
// proofs; the next pack plays around every one; a second run of the same audit resumes (nothing
// new), and a report of another audit is refused.
TEST(BookAudit, TheAuditRecordsItsProofsAndTheNextPackHasNoHole) {
  const std::string bin = std::string(YAVALATH_BIN_DIR) + "/";
  const std::string db = scratchPath("audit.db"), header = scratchPath("audit_book.h"),
                    report = scratchPath("audit.txt");
  std::filesystem::copy(std::string(YAVALATH_SOURCE_DIR) + "/tests/data/book_fixture.db", db);
  // The first pack chooses by the database alone, the second keeps the moves of the book the
  // audit read, as bookpack does with the shipped book: neither depends on the shipped book.
  const std::string pack = bin + "bookpack --db " + db + " --book-iterations 300 --out " + header;
  ASSERT_EQ(runCommand(pack + " --fresh 2>&1").status, 0);
  const std::string auditWith = bin + "bookgen audit --db " + db + " --book-iterations 300 --header " + header;
  const std::string audit = auditWith + " --expansions 300 ";
  const CommandRun first = runCommand(audit + "--out " + report + " 2>&1");
  ASSERT_EQ(first.status, 0) << first.out;
  const std::string found = readFile(report);
  EXPECT_NE(found.find("\nhole | "), std::string::npos) << found;
  EXPECT_NE(found.find("\ndone block 0\n"), std::string::npos) << found;

  const CommandRun resumed = runCommand(audit + "--out " + report + " 2>&1");
  ASSERT_EQ(resumed.status, 0) << resumed.out;
  EXPECT_NE(resumed.out.find("(1 done before)"), std::string::npos) << resumed.out;
  EXPECT_EQ(readFile(report), found);

  ASSERT_EQ(runCommand(pack + " --header " + header + " 2>&1").status, 0);
  const std::string again = scratchPath("audit_again.txt");
  const CommandRun second = runCommand(audit + "--dry-run --out " + again + " 2>&1");
  ASSERT_EQ(second.status, 0) << second.out;
  EXPECT_NE(second.out.find("audit: 0 holes, 0 lost"), std::string::npos) << second.out;

  const CommandRun refused = runCommand(auditWith + " --dry-run --expansions 100 --out " + report + " 2>&1");
  EXPECT_EQ(refused.status, 2);
  EXPECT_NE(refused.out.find(report + " is the report of another audit"), std::string::npos) << refused.out;
}
