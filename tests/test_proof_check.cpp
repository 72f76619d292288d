// The independent certificate checker (tools/proof_check.cpp) run as a program. Its certificates are
// made here: late positions solved by a brute force over the reference referee (reference_rules.h),
// the winner's moves written as the table, and T(P, d) of docs/proofs.md written again, literally
// and slowly, to decide which leaves the checker may settle by its threat search. A certificate is
// accepted; damaged ones are rejected naming the position and the reason, or the line.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "tests/reference_rules.h"
#include "tests/test_util.h"

namespace proof_check_test {

using yav::reference::ReferenceBoard;
using yav::reference::RefOutcome;
using Key = std::pair<std::uint64_t, std::uint64_t>;  // player-1 mask, player-2 mask

Key keyOf(const ReferenceBoard& b) {
  Key key{0, 0};
  for (int cell : b.stonesOf(0)) key.first |= std::uint64_t{1} << cell;
  for (int cell : b.stonesOf(1)) key.second |= std::uint64_t{1} << cell;
  return key;
}
std::vector<int> emptyCells(const ReferenceBoard& b) {
  std::vector<int> cells;
  for (int cell = 0; cell < 61; ++cell)
    if (b.at(cell) == ReferenceBoard::kEmpty) cells.push_back(cell);
  return cells;
}
// The position of the masks, its stones placed alternately (none makes a 3 on the way: it has none).
ReferenceBoard boardOf(const Key& key) {
  ReferenceBoard b;
  std::vector<int> cells[2];
  for (int cell = 0; cell < 61; ++cell)
    for (int p = 0; p < 2; ++p)
      if ((p ? key.second : key.first) >> cell & 1) cells[p].push_back(cell);
  for (std::size_t k = 0; k < cells[0].size() + cells[1].size(); ++k) b.play(cells[k % 2][k / 2]);
  return b;
}
ReferenceBoard after(ReferenceBoard b, int cell) {
  b.play(cell);
  return b;
}
std::string hex16(std::uint64_t m) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(m));
  return text;
}
std::string xyText(int cell) {
  int a, y;
  yav::reference::axialOf(cell, a, y);
  return std::to_string(a - (y > 4 ? y - 4 : 0)) + " " + std::to_string(y);
}

// The value for the side to move: 1 won, 0 drawn, -1 lost (every line played out, memoised).
int solve(const ReferenceBoard& b) {
  static std::map<Key, int> known;
  const Key key = keyOf(b);
  if (const auto it = known.find(key); it != known.end()) return it->second;
  int best = -1;
  for (int cell : emptyCells(b)) {
    const RefOutcome o = b.outcomeOfPlacing(b.toMove(), cell);
    const int v = o == RefOutcome::Win    ? 1
                  : o == RefOutcome::Loss ? -1
                  : o == RefOutcome::Draw ? 0
                                          : -solve(after(b, cell));
    if ((best = std::max(best, v)) == 1) break;
  }
  return known[key] = best;
}

// T(P, d) of docs/proofs.md, word for word, for the side to move at b.
bool threatSequenceWins(const ReferenceBoard& b, int d) {
  const int attacker = b.toMove(), defender = 1 - attacker;
  if (!b.winningCells(attacker).empty()) return true;
  if (d == 1) return false;
  for (int m : emptyCells(b)) {
    if (b.outcomeOfPlacing(attacker, m) != RefOutcome::None) continue;  // a 3, or the board filled
    const ReferenceBoard threat = after(b, m);
    if (threat.winningCells(attacker).empty()) continue;
    bool everyReplyLoses = true;
    for (int r : emptyCells(threat)) {
      const RefOutcome o = threat.outcomeOfPlacing(defender, r);
      if (o == RefOutcome::Loss) continue;
      if (o != RefOutcome::None || !threatSequenceWins(after(threat, r), d - 1)) {
        everyReplyLoses = false;
        break;
      }
    }
    if (everyReplyLoses) return true;
  }
  return false;
}

// A certificate for a position won by its side to move: the first winning move at each attacker
// position that a threat search of `depth` does not settle.
struct Strategy {
  std::map<Key, int> table;  // sorted as the format sorts it
  std::set<Key> leaves;      // settled by the threat search
  void attackerAt(const ReferenceBoard& b, int depth) {
    const Key key = keyOf(b);
    if (table.count(key) || leaves.count(key)) return;
    if (threatSequenceWins(b, depth)) {
      leaves.insert(key);
      return;
    }
    for (int m : emptyCells(b)) {
      if (b.outcomeOfPlacing(b.toMove(), m) != RefOutcome::None || solve(after(b, m)) != -1) continue;
      table[key] = m;
      const ReferenceBoard q = after(b, m);
      for (int r : emptyCells(q))
        if (q.outcomeOfPlacing(q.toMove(), r) != RefOutcome::Loss) attackerAt(after(q, r), depth);
      return;
    }
    ADD_FAILURE() << "no winning move at " << hex16(key.first) << " " << hex16(key.second);
  }
};

std::string tableLine(const Key& key, int move) {
  return hex16(key.first) + " " + hex16(key.second) + " " + xyText(move) + "\n";
}

std::string certificate(const ReferenceBoard& root, const std::string& value, int depth,
                        const std::map<Key, int>& table) {
  const Key key = keyOf(root);
  std::string text = "yavalath-certificate 1\n# made by tests/test_proof_check.cpp\nroot " + hex16(key.first) + " " +
                     hex16(key.second) + " " + std::to_string(root.toMove() + 1) + "\nvalue " + value +
                     "\nthreat-depth " + std::to_string(depth) + "\npositions " + std::to_string(table.size()) + "\n";
  for (const auto& [position, move] : table) text += tableLine(position, move);
  return text + "end\n";
}

// A position of `empty` empty cells reached by random moves that decide nothing.
ReferenceBoard randomPosition(std::mt19937& random, int empty) {
  for (;;) {
    ReferenceBoard b;
    while (int(emptyCells(b).size()) > empty) {
      std::vector<int> quiet;
      for (int cell : emptyCells(b))
        if (b.outcomeOfPlacing(b.toMove(), cell) == RefOutcome::None) quiet.push_back(cell);
      if (quiet.empty()) break;
      b.play(quiet[random() % quiet.size()]);
    }
    if (int(emptyCells(b).size()) == empty) return b;
  }
}

// The late position of the tests (12 empty cells, found by random moves that decide nothing): won by
// the side to move, not by a threat sequence of 3 attacker moves, with a table of several lines at
// threat depth 1 (and 2 leaves), and at threat depth 3 leaves that need all 3 attacker moves.
struct Example {
  ReferenceBoard root = boardOf({0x056036149526d0cd, 0x088d00ab6ad12a32});
  Strategy shallow, deep;  // threat depth 1 and 3
};
const Example& example() {
  static const Example e = [] {
    Example made;
    made.shallow.attackerAt(made.root, 1);
    made.deep.attackerAt(made.root, 3);
    return made;
  }();
  return e;
}

TEST(ProofCheck, TheExampleIsWhatTheTestsNeed) {
  const Example& e = example();
  EXPECT_EQ(emptyCells(e.root).size(), 12u);
  EXPECT_EQ(solve(e.root), 1);
  EXPECT_FALSE(threatSequenceWins(e.root, 3));
  EXPECT_GE(e.shallow.table.size(), 5u);
  EXPECT_GE(e.shallow.leaves.size(), 2u);
  int deepLeaves = 0;
  for (const Key& leaf : e.deep.leaves) deepLeaves += !threatSequenceWins(boardOf(leaf), 2);
  EXPECT_GE(deepLeaves, 1);
}

yav::CommandRun check(const std::string& text, const std::string& name = "certificate.txt") {
  const std::string path = yav::scratchPath(name);
  std::ofstream(path, std::ios::binary) << text;
  return yav::runCommand(std::string(YAVALATH_BIN_DIR) + "/proof_check " + path + " 2>&1");
}
std::string positionText(const Key& key, int toMove) {
  return "position " + hex16(key.first) + " " + hex16(key.second) + " player " + std::to_string(toMove);
}
std::uint64_t fnv1a64(const std::string& bytes) {
  std::uint64_t h = 14695981039346656037ULL;
  for (unsigned char c : bytes) h = (h ^ c) * 1099511628211ULL;
  return h;
}
// The text with line `line` (1-based) replaced; "" deletes it.
std::string withLine(const std::string& text, int line, const std::string& replacement) {
  std::istringstream in(text);
  std::string out, current;
  for (int k = 1; std::getline(in, current); ++k)
    if (k != line)
      out += current + "\n";
    else if (!replacement.empty())
      out += replacement + "\n";
  return out;
}
std::string lineOf(const std::string& text, int line) {
  std::istringstream in(text);
  std::string current;
  for (int k = 1; std::getline(in, current) && k < line; ++k) {
  }
  return current;
}
constexpr int kFirstTableLine = 7;  // after the header, a comment, root, value, threat-depth, positions

TEST(ProofCheck, AcceptsAHandMadeCertificate) {
  const Example& e = example();
  const std::string text = certificate(e.root, "win", 1, e.shallow.table);
  const yav::CommandRun run = check(text);
  const Key root = keyOf(e.root);
  const int mover = e.root.toMove() + 1;
  EXPECT_EQ(run.status, 0) << run.out;
  EXPECT_EQ(
      run.out.rfind("accepted: value win, root " + hex16(root.first) + " " + hex16(root.second) + " " +
                        std::to_string(mover) + " (player " + std::to_string(mover) + " wins), table positions used " +
                        std::to_string(e.shallow.table.size()) + " of " + std::to_string(e.shallow.table.size()) +
                        ", settled by the threat search " + std::to_string(e.shallow.leaves.size()) + " (depth 1), ",
                    0),
      0u)
      << run.out;
  EXPECT_NE(run.out.find(", fnv1a64 " + hex16(fnv1a64(text)) + "\n"), std::string::npos) << run.out;
}

// Every table line deleted in turn leaves a reply unanswered: a checker that skips any one defender
// reply, or takes a position missing from the table for settled, accepts one of these.
TEST(ProofCheck, RejectsEachDeletedTableLine) {
  const Example& e = example();
  const int attacker = e.root.toMove() + 1;
  for (const auto& [position, move] : e.shallow.table) {
    std::map<Key, int> table = e.shallow.table;
    table.erase(position);
    const yav::CommandRun run = check(certificate(e.root, "win", 1, table));
    EXPECT_EQ(run.status, 1) << run.out;
    EXPECT_EQ(run.out.rfind(
                  "rejected: " + positionText(position, attacker) + " to move (attacker), moves from the root: ", 0),
              0u)
        << run.out;
    EXPECT_NE(run.out.find(": not in the table, and no threat sequence of at most 1 attacker moves wins\n"),
              std::string::npos)
        << run.out;
  }
}

// Every table move swapped for another empty cell that does not win is rejected; one that makes
// the attacker's 3 says so.
TEST(ProofCheck, RejectsASwappedWinningMove) {
  const Example& e = example();
  int swaps = 0, threes = 0, fours = 0;
  for (const auto& [position, move] : e.shallow.table) {
    if (swaps >= 20) break;
    const ReferenceBoard b = boardOf(position);
    for (int other : emptyCells(b)) {
      const RefOutcome o = b.outcomeOfPlacing(b.toMove(), other);
      if (o == RefOutcome::Win || (o == RefOutcome::None && solve(after(b, other)) == -1)) continue;
      std::map<Key, int> table = e.shallow.table;
      table[position] = other;
      const yav::CommandRun run = check(certificate(e.root, "win", 1, table));
      ++swaps;
      EXPECT_EQ(run.status, 1) << xyText(move) << " -> " << xyText(other) << "\n" << run.out;
      EXPECT_EQ(run.out.rfind("rejected: position ", 0), 0u) << run.out;
      const ReferenceBoard q = after(b, other);
      if (o == RefOutcome::None && !q.winningCells(q.toMove()).empty()) {  // the defender's 4 left open
        ++fours;
        EXPECT_NE(run.out.find(positionText(keyOf(q), q.toMove() + 1) + " to move (defender)"), std::string::npos)
            << run.out;
        EXPECT_NE(run.out.find(": the defender's reply " + xyText(q.winningCells(q.toMove())[0]) +
                               " makes a line of 4 or more\n"),
                  std::string::npos)
            << run.out;
      }
      if (o == RefOutcome::Loss) {
        ++threes;
        EXPECT_NE(run.out.find(positionText(position, b.toMove() + 1) + " to move (attacker)"), std::string::npos)
            << run.out;
        EXPECT_NE(run.out.find(": the table's move " + xyText(other) + " makes a line of exactly 3 for the attacker\n"),
                  std::string::npos)
            << run.out;
      }
    }
  }
  EXPECT_GE(swaps, 10);
  EXPECT_GE(threes, 1);
  EXPECT_GE(fours, 1);
}

// A full board without a decision is a draw, not a win: for a table move, and for the defender's reply.
TEST(ProofCheck, RejectsAMoveThatFillsTheBoard) {
  // Two empty cells, (5, 7) and (4, 8); a stone on either decides nothing for the player that
  // cannot make a 3 there (found by random moves that decide nothing).
  const ReferenceBoard root = boardOf({0x02673593664d31b3, 0x0d18ca6c99b2ce4c});
  const int last = 60, other = 55;
  ASSERT_EQ(emptyCells(root), (std::vector<int>{other, last}));
  ASSERT_EQ(root.outcomeOfPlacing(root.toMove(), other), RefOutcome::None);
  const ReferenceBoard full = after(root, other);
  ASSERT_EQ(full.outcomeOfPlacing(full.toMove(), last), RefOutcome::Draw);
  yav::CommandRun run = check(certificate(root, "win", 1, {{keyOf(root), other}}));
  EXPECT_EQ(run.status, 1) << run.out;
  EXPECT_NE(run.out.find(positionText(keyOf(full), full.toMove() + 1) +
                         " to move (defender), moves from the root: " + xyText(other) + ": the defender's reply " +
                         xyText(last) + " fills the board without a line of 3 (a draw)\n"),
            std::string::npos)
      << run.out;
  run = check(certificate(full, "win", 1, {{keyOf(full), last}}));
  EXPECT_EQ(run.status, 1) << run.out;
  EXPECT_NE(run.out.find(positionText(keyOf(full), full.toMove() + 1) +
                         " to move (attacker), moves from the root: none: the table's move " + xyText(last) +
                         " fills the board without a line of 4 (a draw)\n"),
            std::string::npos)
      << run.out;
}

TEST(ProofCheck, RejectsAWrongClaimedValue) {
  const Example& e = example();
  const Key root = keyOf(e.root);
  const int mover = e.root.toMove() + 1;
  // The same table: its positions have the wrong side to move for the claimed attacker.
  yav::CommandRun run = check(certificate(e.root, "loss", 1, e.shallow.table));
  EXPECT_EQ(run.status, 1) << run.out;
  EXPECT_EQ(run.out.rfind("rejected: " + positionText(root, mover) +
                              " to move (defender), moves from the root: none: the table's line " +
                              std::to_string(kFirstTableLine) + " holds a position where player " +
                              std::to_string(3 - mover) + ", the attacker by 'value loss', is not to move\n",
                          0),
            0u)
      << run.out;
  // No table, the deepest threat search: the winner's move, as the defender's reply, is not answered.
  run = check(certificate(e.root, "loss", 8, {}));
  EXPECT_EQ(run.status, 1) << run.out;
  EXPECT_NE(run.out.find(" to move (attacker), moves from the root: "), std::string::npos) << run.out;
  EXPECT_NE(run.out.find(": not in the table, and no threat sequence of at most 8 attacker moves wins\n"),
            std::string::npos)
      << run.out;
}

// At threat depth 3 the checker's own search settles leaves that need more than one attacker move;
// at depth 1 the same table leaves them unsettled.
TEST(ProofCheck, SettlesLeavesByADeeperThreatSearch) {
  const Example& e = example();
  const std::string text = certificate(e.root, "win", 3, e.deep.table);
  yav::CommandRun run = check(text);
  EXPECT_EQ(run.status, 0) << run.out;
  EXPECT_NE(run.out.find(", table positions used " + std::to_string(e.deep.table.size()) + " of " +
                         std::to_string(e.deep.table.size()) + ", settled by the threat search " +
                         std::to_string(e.deep.leaves.size()) + " (depth 3), "),
            std::string::npos)
      << run.out;
  run = check(withLine(text, 5, "threat-depth 2"));
  EXPECT_EQ(run.status, 1) << run.out;  // the leaves are threat sequences of exactly 3 attacker moves (example())
  EXPECT_NE(run.out.find(": not in the table, and no threat sequence of at most 2 attacker moves wins\n"),
            std::string::npos)
      << run.out;
}

// With no table, the checker accepts a position exactly when T(root, d) holds, written word for word.
TEST(ProofCheck, ThreatSearchFollowsTheFormatsDefinition) {
  std::mt19937 random(61);
  int accepted = 0, rejected = 0;
  int won = 0, notWon = 0;  // positions that T(P, 4) wins, and others: 10 of each
  while (won < 10 || notWon < 10) {
    const ReferenceBoard b = randomPosition(random, 14 + (won + notWon) % 8);
    if (threatSequenceWins(b, 1)) continue;  // a 4 at once: common, and no test of the search
    const bool wins = threatSequenceWins(b, 4);
    if ((wins ? won : notWon)++ >= 10) continue;
    for (int depth = wins ? 2 : 4; depth <= 4; ++depth) {
      const bool expected = depth == 4 ? wins : threatSequenceWins(b, depth);
      const yav::CommandRun run = check(certificate(b, "win", depth, {}));
      EXPECT_EQ(run.status, expected ? 0 : 1) << "depth " << depth << "\n"
                                              << certificate(b, "win", depth, {}) << run.out;
      (expected ? accepted : rejected) += 1;
    }
  }
  EXPECT_GE(accepted, 10);
  EXPECT_GE(rejected, 10);
}

TEST(ProofCheck, ALayoutErrorNamesTheLine) {
  const Example& e = example();
  const std::string good = certificate(e.root, "win", 1, e.shallow.table);
  const int n = int(e.shallow.table.size()), endLine = kFirstTableLine + n;
  const int third = kFirstTableLine + 2;
  const std::string thirdLine = lineOf(good, third);
  const auto withCharacter = [&](int column, char c) {
    std::string line = thirdLine;
    line[column - 1] = c;
    return withLine(good, third, line);
  };
  const auto moveTo = [&](const std::string& line, int cell) { return line.substr(0, 34) + xyText(cell); };
  int occupied = 0;
  while (!((std::stoull(thirdLine.substr(0, 16), nullptr, 16) | std::stoull(thirdLine.substr(17, 16), nullptr, 16)) >>
               occupied &
           1))
    ++occupied;
  const std::string path = yav::scratchPath("layout.txt");
  const std::string cut = good.substr(0, good.find(thirdLine) + 20);
  const struct {
    std::string text, expected;
  } cases[] = {
      {cut, ":" + std::to_string(third) + ": the file ends early, inside this line (no end of line)"},
      {good.substr(0, good.find(thirdLine)),
       ":" + std::to_string(third) + ": the file ends early: expected table line 3 of " + std::to_string(n)},
      {good.substr(0, good.size() - 1), ":" + std::to_string(endLine) + ": the file ends early, inside this line"},
      {withCharacter(5, 'g'),
       ":" + std::to_string(third) +
           ": column 5: expected a lower-case hexadecimal digit (digit 5 of 16 of the player-1 mask), found 'g'"},
      {withCharacter(20, 'A'),
       ":" + std::to_string(third) +
           ": column 20: expected a lower-case hexadecimal digit (digit 3 of 16 of the player-2 mask), found 'A'"},
      {withCharacter(1, '8'), ":" + std::to_string(third) + ": column 1: the player-1 mask sets a bit above cell 60"},
      {withCharacter(34, '\t'),
       ":" + std::to_string(third) + ": column 34: expected printable ASCII text, found byte 0x09"},
      {withLine(withLine(good, third, lineOf(good, third + 1)), third + 1, thirdLine),
       ":" + std::to_string(third + 1) +
           ": column 1: not sorted: this position comes before that of the table line above it"},
      {withLine(withLine(good, 6, "positions " + std::to_string(n + 1)), third, thirdLine + "\n" + thirdLine),
       ":" + std::to_string(third + 1) + ": column 1: the position of line " + std::to_string(third) +
           " again (duplicate)"},
      {withLine(good, third, moveTo(thirdLine, occupied)),
       ":" + std::to_string(third) + ": column 35: the move " + xyText(occupied) + " is on an occupied cell"},
      {withLine(good, third, thirdLine.substr(0, 34) + "5 8"),
       ":" + std::to_string(third) + ": column 35: (5, 8) is not a cell (row 8 has 5 cells)"},
      {withLine(good, 6, "positions " + std::to_string(n - 1)),
       ":" + std::to_string(endLine - 1) + ": column 1: expected 'end'"},
      {withLine(good, 6, "positions 0" + std::to_string(n)),
       ":6: column 11: the number of positions has a leading zero"},
      {good + "# after the end\n",
       ":" + std::to_string(endLine + 1) + ": column 1: expected the end of the file after 'end'"},
      {withLine(good, 4, "value draw"), ":4: column 7: expected 'win' or 'loss', found 'd'"},
      {withLine(good, 5, "threat-depth 9"), ":5: column 14: expected the threat depth (1..8), found '9'"},
      {withLine(good, 1, "yavalath-certificate 2"), ":1: column 22: expected 'yavalath-certificate 1', found '2'"},
      {withLine(good, 3, lineOf(good, 3).substr(0, 39) + (e.root.toMove() ? "1" : "2")), ":3: column 40: player "},
      {"", ":1: the file ends early: expected 'yavalath-certificate 1'"},
  };
  for (const auto& c : cases) {
    std::ofstream(path, std::ios::binary) << c.text;
    const yav::CommandRun run = yav::runCommand(std::string(YAVALATH_BIN_DIR) + "/proof_check " + path + " 2>&1");
    EXPECT_EQ(run.status, 2) << c.expected << "\n" << run.out;
    EXPECT_EQ(run.out.rfind(path + c.expected, 0), 0u) << run.out;
  }
}

TEST(ProofCheck, Usage) {
  const std::string bin = std::string(YAVALATH_BIN_DIR) + "/proof_check";
  yav::CommandRun run = yav::runCommand(bin + " --help 2>&1");
  EXPECT_EQ(run.status, 0);
  EXPECT_EQ(run.out.rfind("usage: proof_check FILE\n", 0), 0u) << run.out;
  run = yav::runCommand(bin + " 2>&1");
  EXPECT_EQ(run.status, 2) << run.out;
  run = yav::runCommand(bin + " " + yav::scratchPath("no_such_file") + " 2>&1");
  EXPECT_EQ(run.status, 2) << run.out;
  EXPECT_NE(run.out.find("cannot open"), std::string::npos) << run.out;
}

// The checker's independence, kept: it includes standard headers only (no project header, no
// relative path), so it cannot reuse the engine's code by accident.
TEST(ProofCheck, IncludesOnlyTheStandardLibrary) {
  const std::set<std::string> standard = {"algorithm",
                                          "any",
                                          "array",
                                          "atomic",
                                          "bitset",
                                          "cassert",
                                          "cctype",
                                          "cerrno",
                                          "cfloat",
                                          "charconv",
                                          "chrono",
                                          "cinttypes",
                                          "climits",
                                          "clocale",
                                          "cmath",
                                          "complex",
                                          "condition_variable",
                                          "csetjmp",
                                          "csignal",
                                          "cstdarg",
                                          "cstddef",
                                          "cstdint",
                                          "cstdio",
                                          "cstdlib",
                                          "cstring",
                                          "ctime",
                                          "cwchar",
                                          "cwctype",
                                          "deque",
                                          "exception",
                                          "execution",
                                          "filesystem",
                                          "forward_list",
                                          "fstream",
                                          "functional",
                                          "future",
                                          "initializer_list",
                                          "iomanip",
                                          "ios",
                                          "iosfwd",
                                          "iostream",
                                          "istream",
                                          "iterator",
                                          "limits",
                                          "list",
                                          "locale",
                                          "map",
                                          "memory",
                                          "memory_resource",
                                          "mutex",
                                          "new",
                                          "numeric",
                                          "optional",
                                          "ostream",
                                          "queue",
                                          "random",
                                          "ratio",
                                          "regex",
                                          "scoped_allocator",
                                          "set",
                                          "shared_mutex",
                                          "sstream",
                                          "stack",
                                          "stdexcept",
                                          "streambuf",
                                          "string",
                                          "string_view",
                                          "system_error",
                                          "thread",
                                          "tuple",
                                          "type_traits",
                                          "typeindex",
                                          "typeinfo",
                                          "unordered_map",
                                          "unordered_set",
                                          "utility",
                                          "valarray",
                                          "variant",
                                          "vector"};
  std::istringstream source(yav::readFile(std::string(YAVALATH_SOURCE_DIR) + "/tools/proof_check.cpp"));
  const std::regex include(R"(^\s*#\s*include\s*<([a-z_]+)>\s*$)");
  int includes = 0;
  std::smatch match;
  for (std::string line; std::getline(source, line);) {
    if (line.find("include") == std::string::npos || line.find('#') == std::string::npos || line.rfind("//", 0) == 0)
      continue;
    ++includes;
    EXPECT_TRUE(std::regex_match(line, match, include) && standard.count(match[1]))
        << "not a standard header: " << line;
  }
  EXPECT_GE(includes, 5);
}

}  // namespace proof_check_test
