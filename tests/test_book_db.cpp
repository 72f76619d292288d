// The book database: game statistics, proofs, the file (round trip, damage), merge, dropping a run,
// the folder of segments, the writers' lock and the bookgen commands on databases.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "playout.h"
#include "rng.h"
#include "tools/book/database.h"
#include "tools/book/db_folder.h"
#include "tools/book/db_store.h"
#include "tools/book/range_encoder.h"
#include "tests/hash_evaluator.h"
#include "tools/book/grow.h"
#include "tools/book/engine.h"
#include "tools/book/files.h"
#include "tests/test_util.h"
#include "tools/common/cli.h"

using namespace yav;
using namespace yav::book;

namespace {

// A game for the database's game statistics, each move a stand-in for the search: a win when
// there is one, else the block of a single threat, else a random cell that does not make its own 3.
SelfPlayGame playTacticalGame(uint64_t seed) {
  SelfPlayGame g;
  Board b;
  for (int ply = 0;; ++ply) {
    Rng rng(seed * 1000 + uint64_t(ply));
    const int me = b.toMove();
    const Bitboard wins = b.winningCells(me), threats = b.winningCells(me ^ 1);
    Bitboard pool = wins ? wins : threats ? threats : b.legalMoves() & ~b.losingCells(me);
    if (!pool) pool = b.legalMoves();
    const Cell move = randomCell(pool, rng);
    g.plies.push_back({b, move, {}});
    if (b.play(move) != Outcome::None) return g;
  }
}

Database sampleDatabase(int games) {
  Database db;
  for (int i = 0; i < games; ++i) db.addGame(playTacticalGame(uint64_t(i) + 1), 12);
  return db;
}

// (position, move) -> (games, half points): what merging must get right.
std::map<std::pair<PositionKey, Cell>, std::pair<uint64_t, uint64_t>> moveCounts(const Database& db) {
  std::map<std::pair<PositionKey, Cell>, std::pair<uint64_t, uint64_t>> out;
  for (const auto& [key, stats] : db.map())
    for (const auto& m : stats.moves)
      if (m.games) out[{key, m.move}] = {m.games, m.halfPoints};
  return out;
}

Database copyOf(const Database& db) {
  Database copy;
  std::string error;
  EXPECT_TRUE(deserializeDatabase(serializeDatabase(db), "copy", copy, error)) << error;
  return copy;
}

}  // namespace

TEST(BookDatabase, GameResultsAndTerminalProofs) {
  // First player: (0,0) (1,0) (2,0) (3,0) wins on the fourth stone; second player fills row 8.
  SelfPlayGame g;
  Board b;
  const Cell p0[] = {cellAt(0, 0), cellAt(1, 0), cellAt(3, 0), cellAt(2, 0)};
  const Cell p1[] = {cellAt(0, 8), cellAt(2, 8), cellAt(4, 8)};
  for (int i = 0; i < 4; ++i) {
    g.plies.push_back({b, p0[i], {}});
    if (b.play(p0[i]) == Outcome::Win) break;
    g.plies.push_back({b, p1[i], {}});
    b.play(p1[i]);
  }
  Database db;
  SelfPlayGame unfinished = g;  // the result comes from the last move: a game must end with it
  unfinished.plies.pop_back();
  EXPECT_FALSE(db.addGame(unfinished, 100));
  EXPECT_EQ(db.games(), 0u);
  ASSERT_TRUE(db.addGame(g, 100));
  ASSERT_TRUE(db.addGame(g, 100));
  EXPECT_EQ(db.games(), 2u);
  EXPECT_EQ(db.positions(), 7u);
  const Canonical root = canonicalize(Board());
  const MoveStats* first = db.find(root.key)->find(root.toCanonical(cellAt(0, 0)));
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->games, 2u);
  EXPECT_EQ(first->halfPoints, 4u);
  // The last position: the winning move is proven, the position is won for its mover, and the
  // second player's move into it is proven lost.
  const Canonical last = canonicalize(g.plies.back().before);
  EXPECT_EQ(db.find(last.key)->proof, Proof::Win);
  EXPECT_EQ(db.find(last.key)->find(last.toCanonical(cellAt(2, 0)))->proof, Proof::Win);
  const Canonical before = canonicalize(g.plies[g.plies.size() - 2].before);
  EXPECT_EQ(db.find(before.key)->find(before.toCanonical(cellAt(4, 8)))->proof, Proof::Loss);
  EXPECT_EQ(db.find(before.key)->find(before.toCanonical(cellAt(4, 8)))->halfPoints, 0u);

  // After a random first move the result counts only from the second ply on.
  g.countFrom = 1;
  db.addGame(g, 100);
  EXPECT_EQ(db.games(), 3u);
  EXPECT_EQ(db.find(root.key)->find(root.toCanonical(cellAt(0, 0)))->games, 2u);
  const Canonical second = canonicalize(g.plies[1].before);
  EXPECT_EQ(db.find(second.key)->find(second.toCanonical(cellAt(0, 8)))->games, 3u);
}

TEST(BookDatabase, LostWhenEveryMoveIsProvenLost) {
  // Opponent threatens two wins at once: every legal move of ours is lost (the engine proves them).
  Database db;
  Board b = Board::fromStones(
      bit(cellAt(0, 4)) | bit(cellAt(1, 4)) | bit(cellAt(3, 4)) | bit(cellAt(4, 4)) | bit(cellAt(6, 4)),
      bit(cellAt(0, 0)) | bit(cellAt(0, 8)) | bit(cellAt(4, 0)) | bit(cellAt(4, 8)) | bit(cellAt(2, 2)), 1);
  ASSERT_GE(popcount(b.winningCells(0)), 2);
  SelfPlayGame g;
  PlyRecord ply{b, lowestCell(b.winningCells(0)), {}};
  for (Bitboard m = b.legalMoves(); m;) ply.proofs.push_back({popLowest(m), Proof::Loss});
  g.plies.push_back(ply);
  Board next = b;
  next.play(ply.move);
  g.plies.push_back({next, lowestCell(next.winningCells(0)), {}});
  ASSERT_TRUE(db.addGame(g, 10));
  EXPECT_EQ(db.find(canonicalize(b).key)->proof, Proof::Loss);
}

TEST(BookDatabase, FileRoundTrip) {
  const Database db = sampleDatabase(40);
  const std::string path = scratchPath("roundtrip.db");
  std::string error;
  ASSERT_TRUE(saveDatabase(path, db, error)) << error;
  Database back;
  ASSERT_TRUE(loadDatabase(path, back, error)) << error;
  EXPECT_EQ(back.games(), 40u);
  EXPECT_EQ(back.positions(), db.positions());
  EXPECT_EQ(serializeDatabase(back), serializeDatabase(db));
  for (const auto& [key, stats] : db.map()) {
    const PositionStats* s = back.find(key);
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(s->proof, stats.proof);
    ASSERT_EQ(s->moves.size(), stats.moves.size());
  }
  EXPECT_FALSE(std::ifstream(path + ".tmp").good());  // the temporary file was renamed
  std::remove(path.c_str());
  std::remove(FileLock::lockPath(path).c_str());
}

TEST(BookDatabase, DamagedFilesAreRejectedWithNameAndPosition) {
  const std::string bytes = serializeDatabase(sampleDatabase(10));
  Database db;
  std::string error;
  for (size_t cut : {size_t(3), size_t(20), bytes.size() / 2, bytes.size() - 9, bytes.size() - 1}) {
    EXPECT_FALSE(deserializeDatabase(bytes.substr(0, cut), "cut.db", db, error)) << cut;
    EXPECT_EQ(error.rfind("cut.db: ", 0), 0u) << error;
    EXPECT_NE(error.find(" at byte "), std::string::npos) << error;
    EXPECT_EQ(db.positions(), 0u);
    EXPECT_EQ(db.games(), 0u);
  }
  EXPECT_FALSE(deserializeDatabase(bytes.substr(0, bytes.size() / 2), "cut.db", db, error));
  EXPECT_NE(error.find("truncated"), std::string::npos) << error;

  std::string flipped = bytes;
  flipped[bytes.size() - 20] ^= 0x01;  // inside the last move record: a game count changes
  EXPECT_FALSE(deserializeDatabase(flipped, "flip.db", db, error));
  EXPECT_NE(error.find("flip.db: "), std::string::npos) << error;

  std::string magic = bytes;
  magic[0] = 'X';
  EXPECT_FALSE(deserializeDatabase(magic, "magic.db", db, error));
  EXPECT_EQ(error, "magic.db: not a book database (bad magic) at byte 0");

  EXPECT_FALSE(deserializeDatabase(bytes + "x", "long.db", db, error));
  EXPECT_NE(error.find("after the checksum"), std::string::npos) << error;

  EXPECT_FALSE(loadDatabase(scratchPath("missing.db"), db, error));
  EXPECT_NE(error.find("cannot open"), std::string::npos);

  ASSERT_TRUE(deserializeDatabase(bytes, "good.db", db, error)) << error;
  EXPECT_EQ(db.games(), 10u);
}

TEST(BookDatabase, MergeOfDisjointRunsAddsUp) {
  const Database a = sampleDatabase(15), b = sampleDatabase(25);
  Database total;
  total.merge(a);
  total.merge(b);
  EXPECT_EQ(total.games(), 40u);
  uint64_t sumA = 0, sumB = 0, sumTotal = 0;
  for (const auto& e : a.map()) sumA += e.second.games();
  for (const auto& e : b.map()) sumB += e.second.games();
  for (const auto& e : total.map()) sumTotal += e.second.games();
  EXPECT_EQ(sumTotal, sumA + sumB);
  // Per move: the counts are the sums.
  for (const auto& [key, stats] : a.map())
    for (const auto& m : stats.moves) {
      const MoveStats* inB = b.find(key) ? b.find(key)->find(m.move) : nullptr;
      const MoveStats* inTotal = total.find(key)->find(m.move);
      ASSERT_NE(inTotal, nullptr);
      EXPECT_EQ(inTotal->games, m.games + (inB ? inB->games : 0));
      EXPECT_EQ(inTotal->halfPoints, m.halfPoints + (inB ? inB->halfPoints : 0));
      if (m.proof != Proof::Unknown) {
        EXPECT_EQ(inTotal->proof, m.proof);
      }
    }
}

TEST(BookDatabase, MergingWithItselfChangesNothing) {
  const Database a = sampleDatabase(15);
  Database merged = copyOf(a);
  merged.merge(a);
  merged.merge(copyOf(a));
  EXPECT_EQ(merged.games(), 15u);
  EXPECT_EQ(serializeDatabase(merged), serializeDatabase(a));
}

// Two machines start from the same file and each adds a run: the common games count once.
TEST(BookDatabase, MergeCountsACommonAncestorOnce) {
  const Database base = sampleDatabase(10);
  Database left = copyOf(base), right = copyOf(base);
  left.beginRun(RunInfo());
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(left.addGame(playTacticalGame(100 + i), 12));
  right.beginRun(RunInfo());
  for (int i = 0; i < 7; ++i) ASSERT_TRUE(right.addGame(playTacticalGame(200 + i), 12));
  Database rightThenLeft = copyOf(right);
  Database merged = copyOf(left);
  merged.merge(right);
  rightThenLeft.merge(left);
  EXPECT_EQ(merged.games(), 22u);
  EXPECT_EQ(merged.runs().size(), 3u);
  const auto b = moveCounts(base), l = moveCounts(left), r = moveCounts(right), m = moveCounts(merged);
  auto get = [](const auto& counts, const auto& key) {
    auto it = counts.find(key);
    return it == counts.end() ? std::pair<uint64_t, uint64_t>{0, 0} : it->second;
  };
  for (const auto& [key, total] : m) {
    EXPECT_EQ(total.first, get(l, key).first + get(r, key).first - get(b, key).first);
    EXPECT_EQ(total.second, get(l, key).second + get(r, key).second - get(b, key).second);
  }
  EXPECT_EQ(moveCounts(rightThenLeft), m);
  // A later copy of a run contains the earlier one: merging the older file back changes nothing.
  merged.merge(base);
  EXPECT_EQ(moveCounts(merged), m);
  EXPECT_EQ(merged.games(), 22u);
}

// A database folder made for the tests the way the committed one was made (tests/data/book_fixture.db:
// `bookgen games --db F --iterations 200 --nodes 100000 --games 8 --seed 51`, `bookgen migrate F`,
// then `bookgen run --db F --iterations 300 --nodes 100000 --fresh` to 60 and 90 positions, seeds 52
// and 53): current format, every run recorded with its engine and settings, the run counts adding
// up to the games, and a search-valued book from the empty board. `bookgen games`, the self-play
// generator, has since been removed; its games stay in the fixture as they stay in the committed
// database, whose leaves still pool them. The committed book/book.db is a folder of segments in
// the current version (their headers only: the test does not grow with it).
namespace {
const std::string kFixture = std::string(YAVALATH_SOURCE_DIR) + "/tests/data/book_fixture.db";
GrowOptions fixtureGrowth() {
  GrowOptions o;
  o.deep.iterations = 300;
  o.deep.nodes = 100000;
  return o;
}
}  // namespace

TEST(BookDatabase, TheCommittedDatabaseLoads) {
  Database db;
  std::string error;
  std::vector<SegmentRead> segments;
  ASSERT_TRUE(loadDatabase(kFixture, db, error, &segments)) << error;
  EXPECT_EQ(segments.size(), 3u);
  ASSERT_GE(db.runs().size(), 1u);
  uint64_t games = 0;
  for (const RunInfo& run : db.runs()) {
    games += run.games;
    EXPECT_FALSE(run.engine.empty());
    EXPECT_NE(run.parameters.find("iterations="), std::string::npos) << run.parameters;
  }
  EXPECT_EQ(db.games(), games);
  EXPECT_GT(db.positions(), 0u);
  const BookGraph book = BookGraph::fromDatabase(db, fixtureGrowth().deep.key());
  EXPECT_EQ(book.size(), 90u);
  ASSERT_NE(book.find(PositionKey{}), nullptr);
  EXPECT_EQ(book.find(PositionKey{})->estimate.proof, Proof::Unknown);

  std::vector<std::string> committed;
  ASSERT_TRUE(listSegments(std::string(YAVALATH_SOURCE_DIR) + "/book/book.db", committed, error)) << error;
  ASSERT_GE(committed.size(), 1u);
  for (const std::string& path : committed) {
    std::ifstream in(path, std::ios::binary);
    char head[12] = {};
    in.read(head, sizeof head);
    EXPECT_EQ(std::string(head, 8), kDatabaseMagic) << path;
    EXPECT_EQ(uint32_t(uint8_t(head[8])), kDatabaseVersion) << path;
  }
}

TEST(BookFiles, ASecondWriterIsRefusedUntilTheFirstIsGone) {
  const std::string db = scratchPath("locked.db");
  FileLock first, second;
  std::string error;
  ASSERT_TRUE(first.acquire(db, error)) << error;
  EXPECT_FALSE(second.acquire(db, error));
  EXPECT_NE(error.find("pid " + std::to_string(getpid())), std::string::npos) << error;
  EXPECT_NE(error.find(FileLock::lockPath(db)), std::string::npos) << error;
  first.release();
  EXPECT_TRUE(second.acquire(db, error)) << error;
  second.release();
  EXPECT_FALSE(std::ifstream(FileLock::lockPath(db)).good()) << "a released lock leaves no file behind";
  // A writer that died without releasing leaves a stale lock file, which is taken over.
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    FileLock dying;
    std::string e;
    _exit(dying.acquire(db, e) ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_TRUE(std::ifstream(FileLock::lockPath(db)).good()) << "the dead writer's lock file stays";
  EXPECT_TRUE(first.acquire(db, error)) << error;
  // A writer refuses to start on a database another process holds.
  const std::string cmd = std::string(YAVALATH_BIN_DIR) + "/bookgen run --db " + db + " --positions 1 2>&1";
  const CommandRun refused = runCommand(cmd);
  EXPECT_NE(refused.status, 0);
  EXPECT_NE(refused.out.find("is being written by another process"), std::string::npos) << refused.out;
  EXPECT_FALSE(std::ifstream(db).good());
  first.release();
  std::remove(FileLock::lockPath(db).c_str());
}

// Writers that come and go while others wait never hold the lock together, although each one
// removes the lock file when it leaves (a waiter may have opened the removed file: it retries).
TEST(BookFiles, WritersTakingTurnsNeverOverlap) {
  const std::string db = scratchPath("turns.db");
  const std::string counter = scratchPath("turns.inside");
  std::remove(counter.c_str());
  std::vector<pid_t> children;
  for (int c = 0; c < 4; ++c) {
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      int overlaps = 0;
      for (int got = 0; got < 600;) {
        FileLock lock;
        std::string e;
        if (!lock.acquire(db, e)) continue;
        ++got;
        // Inside: the marker file must not exist; create it, then remove it before leaving.
        const int fd = ::open(counter.c_str(), O_CREAT | O_EXCL | O_WRONLY, 0644);
        if (fd < 0)
          ++overlaps;
        else
          ::close(fd), ::unlink(counter.c_str());
      }
      _exit(overlaps == 0 ? 0 : 1);
    }
    children.push_back(child);
  }
  for (pid_t child : children) {
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "two writers held the lock at once";
  }
  EXPECT_FALSE(std::ifstream(FileLock::lockPath(db)).good());
}

TEST(BookFiles, NeverWritesThroughALinkOrOverANonRegularFile) {
  const std::string target = scratchPath("target.txt"), link = scratchPath("link.txt"), dir = scratchPath("dir");
  std::ofstream(target) << "keep";
  ASSERT_EQ(symlink(target.c_str(), link.c_str()), 0);
  std::string error;
  EXPECT_FALSE(writeFileAtomically(link, "new", error));
  EXPECT_NE(error.find("symbolic link"), std::string::npos) << error;
  EXPECT_EQ(readFile(target), "keep");
  ASSERT_EQ(mkdir(dir.c_str(), 0755), 0);
  EXPECT_FALSE(writeFileAtomically(dir, "new", error));
  EXPECT_NE(error.find("not a regular file"), std::string::npos) << error;
  EXPECT_FALSE(writeFileAtomically("/dev/null", "new", error));
  const std::string plain = scratchPath("plain.txt");
  ASSERT_TRUE(writeFileAtomically(plain, "new", error)) << error;
  EXPECT_EQ(readFile(plain), "new");
  for (const std::string& p : {target, link, plain}) std::remove(p.c_str());
  rmdir(dir.c_str());
}

// A writer refuses a damaged database and leaves it as it was: it never writes on top of it.
TEST(BookFiles, AWriterRefusesADamagedDatabase) {
  const std::string path = scratchPath("damaged-file.db");
  std::string error;
  ASSERT_TRUE(saveDatabase(path, sampleDatabase(3), error)) << error;
  const std::string half = readFile(path).substr(0, readFile(path).size() / 2);
  std::ofstream(path, std::ios::binary | std::ios::trunc) << half;
  const CommandRun run =
      runCommand(std::string(YAVALATH_BIN_DIR) + "/bookgen run --db " + path + " --positions 1 2>&1");
  EXPECT_EQ(run.status, 1) << run.out;
  EXPECT_NE(run.out.find("refusing to write on top of it"), std::string::npos) << run.out;
  EXPECT_EQ(readFile(path), half);
  std::remove(path.c_str());
  std::remove(FileLock::lockPath(path).c_str());
}

// bookpack --empty writes a valid empty book (what ships while no book has passed its match);
// without it the same database packs into a header whose literal is not empty.
TEST(BookPacker, EmptyFlagWritesAnEmptyBook) {
  const std::string pack =
      std::string(YAVALATH_BIN_DIR) + "/bookpack --db " + kFixture + " --book-iterations 300 --fresh";
  const std::string full = scratchPath("full.h"), empty = scratchPath("empty.h");
  ASSERT_EQ(std::system((pack + " --out " + full + " 2>/dev/null").c_str()), 0);
  ASSERT_EQ(std::system((pack + " --empty --out " + empty + " 2>/dev/null").c_str()), 0);
  EXPECT_EQ(readFile(full).find("kEmbeddedBook = \"\""), std::string::npos) << readFile(full);
  const std::string header = readFile(empty);
  EXPECT_NE(header.find("kEmbeddedBook = \"\";"), std::string::npos) << header;
  EXPECT_NE(header.find("no book shipped"), std::string::npos) << header;
  for (const std::string& path : {full, empty}) std::remove(path.c_str());
}

TEST(BookDatabase, DroppingARunLeavesOutItsGamesAndKeepsTheOthers) {
  Database db;
  RunInfo bad, good;
  bad.id = 0xBAD, bad.games = 5;
  good.id = 0x600D, good.games = 7;
  const uint32_t b = db.addRun(bad), g = db.addRun(good);
  MoveStats& m = db.at(PositionKey{}).get(cellAt(3, 2));
  m.add(b, 5, 10);
  m.add(g, 7, 3);
  m.proof = Proof::Unknown;
  EXPECT_FALSE(db.dropRun(0x1234));
  ASSERT_TRUE(db.dropRun(0xBAD));
  ASSERT_EQ(db.runs().size(), 1u);
  EXPECT_EQ(db.runs()[0].id, 0x600Du);
  const MoveStats* left = db.find(PositionKey{})->find(cellAt(3, 2));
  ASSERT_NE(left, nullptr);
  EXPECT_EQ(left->games, 7u);
  EXPECT_EQ(left->halfPoints, 3u);
  ASSERT_EQ(left->runs.size(), 1u);
  EXPECT_EQ(left->runs[0].run, 0u);  // re-indexed
  // The file written after the drop reads back the same.
  Database read;
  std::string error;
  ASSERT_TRUE(deserializeDatabase(serializeDatabase(db), "dropped.db", read, error)) << error;
  EXPECT_EQ(read.games(), 7u);
}

namespace {

// A command line the tool refuses with exit code 2 and `message` among its output.
void expectRefused(const std::string& command, const std::string& message) {
  const CommandRun run = runCommand(command + " 2>&1");
  EXPECT_EQ(run.status, 2) << command << ": " << run.out;
  EXPECT_NE(run.out.find(message), std::string::npos) << command << ": " << run.out;
}

}  // namespace

// A bad --moves list names the ply and the reason, and nothing is shown.
TEST(BookGenerator, BadMovesNameTheirPlyAndReason) {
  const std::string show = std::string(YAVALATH_BIN_DIR) + "/bookgen show --db book/book.db --moves ";
  expectRefused(show + "'3 2; 9 9'", "ply 2 '9 9': not a cell");
  expectRefused(show + "'3 2; 4 4; 4 4'", "ply 3 '4 4': the cell is taken");
  expectRefused(show + "'3 2; 4'", "ply 2 '4': not a cell");
}

// The commands that take files by position treat --help as a request for help and any other
// option as an error, never as a file name; stats also takes --db and defaults to book/book.db.
TEST(BookGenerator, PositionalCommandsTellOptionsFromFiles) {
  const std::string bookgen = std::string(YAVALATH_BIN_DIR) + "/bookgen ";
  for (const char* command : {"stats --help", "merge out.db -h", "drop-run --help"}) {
    const CommandRun help = runCommand(bookgen + command + " 2>&1");
    EXPECT_EQ(help.status, 0) << command << ": " << help.out;
    EXPECT_NE(help.out.find("usage: bookgen run"), std::string::npos) << help.out;
  }
  expectRefused(bookgen + "stats --bogus", "stats: unknown option '--bogus'");
  expectRefused(bookgen + "merge out.db --db in.db", "merge: unknown option '--db'");
  expectRefused(bookgen + "stats a.db --db b.db", "more than one FILE ('a.db', 'b.db')");

  const std::string path = scratchPath("stats.db");
  std::string error;
  ASSERT_TRUE(saveDatabase(path, sampleDatabase(3), error)) << error;
  const CommandRun byFlag = runCommand(bookgen + "stats --db " + path + " --top 2 2>&1");
  EXPECT_EQ(byFlag.status, 0) << byFlag.out;
  EXPECT_NE(byFlag.out.find(path + ": 3 games"), std::string::npos) << byFlag.out;
  EXPECT_EQ(runCommand(bookgen + "stats " + path + " --top 2 2>&1").out, byFlag.out);
  std::remove(path.c_str());
}

// A growth run's deep-search verdicts belong to it: the file keeps the run, merging re-indexes it,
// and drop-run leaves them out with its games; verdicts that name no run stay.
// `bookgen stats` opens with the totals and ends with one line on the runs; the runs' kinds and
// every run come only with --runs, after the summary (issue 87: 54 lines of kinds came first).
TEST(BookGenerator, StatsPrintsItsSummaryFirstAndTheRunsOnRequest) {
  const std::string stats = std::string(YAVALATH_BIN_DIR) + "/bookgen stats " + kFixture;
  const CommandRun summary = runCommand(stats + " 2>&1");
  ASSERT_EQ(summary.status, 0) << summary.out;
  EXPECT_EQ(summary.out.rfind(kFixture + ": ", 0), 0u) << summary.out;
  EXPECT_EQ(summary.out.find("runs by settings"), std::string::npos) << summary.out;
  EXPECT_EQ(summary.out.find("  run "), std::string::npos) << summary.out;
  const size_t last = summary.out.rfind('\n', summary.out.size() - 2);
  const std::string lastLine = summary.out.substr(last == std::string::npos ? 0 : last + 1);
  EXPECT_NE(lastLine.find(" runs of "), std::string::npos) << summary.out;
  EXPECT_NE(lastLine.find("bookgen stats --runs"), std::string::npos) << summary.out;

  const CommandRun runs = runCommand(stats + " --runs 2>&1");
  ASSERT_EQ(runs.status, 0) << runs.out;
  const size_t totals = runs.out.find("by stones"), kinds = runs.out.find("runs by settings"),
               each = runs.out.find("  run ");
  ASSERT_NE(totals, std::string::npos) << runs.out;
  ASSERT_NE(kinds, std::string::npos) << runs.out;
  ASSERT_NE(each, std::string::npos) << runs.out;
  EXPECT_LT(totals, kinds) << runs.out;
  EXPECT_LT(kinds, each) << runs.out;
  EXPECT_EQ(runs.out.substr(0, runs.out.find("runs by settings")), summary.out.substr(0, last + 1)) << runs.out;
}

TEST(BookDatabase, DroppingARunLeavesOutItsVerdicts) {
  auto verdictAt = [](Cell best) {
    DeepVerdict v;
    v.best = best;
    v.moves.push_back({best, 0.6f, Proof::Unknown, 100});
    return v;
  };
  const PositionKey empty{};
  const PositionKey oneStone = [] {
    Board b;
    b.play(cellAt(4, 4));
    return canonicalize(b).key;
  }();
  Database grown;
  RunInfo bad, good;
  bad.id = 0xBAD, good.id = 0x600D;
  grown.beginRun(good);
  grown.setVerdict("engine/1it", empty, verdictAt(cellAt(3, 2)));
  grown.beginRun(bad);
  grown.setVerdict("engine/1it", oneStone, verdictAt(cellAt(3, 3)));
  grown.setVerdict("other/1it", empty, verdictAt(cellAt(2, 2)));
  // The current run stamps the verdicts stored during it.
  EXPECT_EQ(grown.verdictsPerRun(), (std::vector<size_t>{1, 2}));
  EXPECT_EQ(grown.searchedPositions(), 3u);

  // Merged behind a third run, the runs move and the verdicts follow them.
  Database merged;
  RunInfo first;
  first.id = 0xF1257;
  merged.addRun(first);
  std::string error;
  Database read;
  ASSERT_TRUE(deserializeDatabase(serializeDatabase(grown), "grown.db", read, error)) << error;
  merged.merge(read);
  ASSERT_EQ(merged.runs().size(), 3u);
  EXPECT_EQ(merged.verdict("engine/1it", empty)->run, 1u);
  EXPECT_EQ(merged.verdict("engine/1it", oneStone)->run, 2u);

  ASSERT_TRUE(merged.dropRun(0xBAD));
  EXPECT_NE(merged.verdict("engine/1it", empty), nullptr);
  EXPECT_EQ(merged.verdict("engine/1it", oneStone), nullptr);
  EXPECT_EQ(merged.verdict("other/1it", empty), nullptr);

  // A verdict that names no run (the committed database holds such, from before the file recorded
  // runs in verdicts) survives the file and stays whatever run is dropped.
  Database old;
  old.addRun(bad);
  old.setVerdict("engine/1it", oneStone, verdictAt(cellAt(3, 3)));
  ASSERT_TRUE(deserializeDatabase(serializeDatabase(old), "old.db", read, error)) << error;
  EXPECT_EQ(read.verdict("engine/1it", oneStone)->run, kUnknownRun);
  ASSERT_TRUE(read.dropRun(0xBAD));
  EXPECT_NE(read.verdict("engine/1it", oneStone), nullptr);

  // A verdict naming a run the file does not have is damage.
  Database noRuns;
  DeepVerdict orphan = verdictAt(cellAt(3, 2));
  orphan.run = 5;
  noRuns.setVerdict("engine/1it", empty, orphan);
  Database rejected;
  EXPECT_FALSE(deserializeDatabase(serializeDatabase(noRuns), "orphan.db", rejected, error));
  EXPECT_NE(error.find("invalid verdict record"), std::string::npos) << error;
}

namespace {

// Verdicts of every shape a file must hold: every legal move or a subset, proofs with their own
// and with other values, unproven values that are fractions of their visits and values that are
// not, visits from none to 300,000.
Database randomVerdicts(uint64_t seed, int count) {
  Rng rng(seed);
  Database db;
  auto verdictFor = [&](const Board& b, bool everyMove) {
    DeepVerdict v;
    for (Bitboard legal = b.legalMoves(); legal;) {
      const Cell c = popLowest(legal);
      if (!everyMove && rng.below(3) == 0) continue;
      const int kind = int(rng.below(5));
      const Proof proof = kind == 0 ? Proof::Win : kind == 1 ? Proof::Loss : Proof::Unknown;
      const uint32_t visits = rng.below(4) == 0 ? 0 : rng.below(3) == 0 ? rng.below(200) : rng.below(300000);
      float value = kind == 0   ? 1.0f
                    : kind == 1 ? (rng.below(4) == 0 ? 0.5f : 0.0f)
                                : float(rng.below(65536)) / 65536.0f;
      if (kind == 2 && visits) value = float(rng.below(2 * visits + 1)) / float(2 * visits);  // as a search gives it
      if (kind == 3) value = 0.5f;
      v.moves.insert(v.moves.begin() + long(rng.below(uint32_t(v.moves.size() + 1))), {c, value, proof, visits});
    }
    v.best = v.moves.back().move;
    return v;
  };
  for (int i = 0; i < count; ++i) {
    Board b;
    const int stones = int(rng.below(12));
    for (int s = 0; s < stones; ++s) {
      const Bitboard safe = b.legalMoves() & ~b.winningCells(b.toMove()) & ~b.losingCells(b.toMove());
      if (!safe) break;
      b.play(randomCell(safe, rng));
    }
    const PositionKey key = canonicalize(b).key;
    db.setVerdict("engine/1it", key, verdictFor(boardOf(key), i % 2 == 0));
  }
  return db;
}

}  // namespace

// Version 7 range-codes the verdicts and rounds what the book cannot tell apart: visits to within
// 1/32 (exact below 32), the value of a move with fewer than kFineValueVisits visits to 1/255,
// a proven move's value to the proof's. Everything else is kept, and writing what was read gives
// the same file.
TEST(BookDatabase, RangeCodedVerdictsKeepWhatTheBookUses) {
  Database db = randomVerdicts(606, 80);
  RunInfo run;
  run.id = 7;
  db.addRun(run);
  std::vector<std::pair<PositionKey, DeepVerdict>> named;  // some verdicts name the run
  for (const auto& [key, verdict] : db.verdicts().at("engine/1it")) named.push_back({key, verdict});
  for (size_t i = 0; i < named.size(); i += 3) {
    named[i].second.run = 0;
    db.setVerdict("engine/1it", named[i].first, named[i].second);
  }
  const std::string v7 = serializeDatabase(db);
  std::string error;
  Database back;
  ASSERT_TRUE(deserializeDatabase(v7, "v7.db", back, error)) << error;
  ASSERT_EQ(back.searchedPositions(), db.searchedPositions());
  for (const auto& [key, stored] : db.verdicts().at("engine/1it")) {
    const DeepVerdict* read = back.verdict("engine/1it", key);
    ASSERT_NE(read, nullptr);
    EXPECT_EQ(read->best, stored.best);
    EXPECT_EQ(read->run, stored.run);
    ASSERT_EQ(read->moves.size(), stored.moves.size());
    for (const DeepMove& m : read->moves) {
      const DeepMove* original = stored.find(m.move);
      ASSERT_NE(original, nullptr);
      EXPECT_EQ(m.proof, original->proof);
      if (original->visits < 32) {
        EXPECT_EQ(m.visits, original->visits);
      }
      EXPECT_LE(std::abs(double(m.visits) - double(original->visits)), original->visits / 32.0);
      if (m.proof != Proof::Unknown) {
        EXPECT_EQ(m.value, m.proof == Proof::Win ? 1.0f : 0.0f);
      } else if (m.visits == 0) {
        EXPECT_EQ(m.value, 0.5f);
      } else {
        EXPECT_NEAR(m.value, original->value, m.visits < dbfile::kFineValueVisits ? 0.5 / 255 + 1e-6 : 1e-5);
      }
    }
  }
  EXPECT_EQ(serializeDatabase(back), v7);
}

// Every prefix of a version-7 file is rejected as truncated, and every flipped bit is rejected
// (by the decoded records' checks or by the checksum), naming the file and a byte, leaving nothing.
TEST(BookDatabase, DamagedRangeCodedVerdictsAreRejected) {
  const std::string bytes = serializeDatabase(randomVerdicts(707, 12));
  std::string error;
  Database db;
  ASSERT_TRUE(deserializeDatabase(bytes, "good.db", db, error)) << error;
  for (size_t cut = 0; cut < bytes.size(); ++cut) {
    ASSERT_FALSE(deserializeDatabase(bytes.substr(0, cut), "cut.db", db, error)) << cut;
    EXPECT_EQ(error.rfind("cut.db: ", 0), 0u) << error;
    EXPECT_NE(error.find(" at byte "), std::string::npos) << error;
    EXPECT_EQ(db.searchedPositions(), 0u);
  }
  Rng rng(708);
  for (size_t at = 8; at < bytes.size(); ++at) {
    std::string flipped = bytes;
    flipped[at] = char(flipped[at] ^ (1 << rng.below(8)));
    ASSERT_FALSE(deserializeDatabase(flipped, "flip.db", db, error)) << at;
    EXPECT_NE(error.find(" at byte "), std::string::npos) << error;
    EXPECT_EQ(db.searchedPositions(), 0u);
  }
}

// A visits code is exact below 32 and within 1/32 above; decoding and coding again gives the same
// code, and larger counts get larger codes, up to the escape that writes a count exactly.
TEST(BookDatabase, VisitsCodesRoundWithinOneThirtySecond) {
  for (uint32_t code = 0; code < dbfile::kVisitsEscape; ++code) {
    EXPECT_EQ(dbfile::visitsCode(dbfile::visitsOfCode(code)), code);
    if (code > 0) {
      EXPECT_LT(dbfile::visitsOfCode(code - 1), dbfile::visitsOfCode(code));
    }
  }
  Rng rng(909);
  for (int i = 0; i < 100000; ++i) {
    const uint64_t visits = rng.next() >> rng.below(64);
    const uint32_t code = dbfile::visitsCode(visits);
    if (code == dbfile::kVisitsEscape) {
      EXPECT_GT(visits, dbfile::visitsOfCode(code - 1));
      continue;
    }
    const double rounded = double(dbfile::visitsOfCode(code));
    EXPECT_LE(std::abs(rounded - double(visits)), double(visits) / 32.0) << visits;
    if (visits < 32) {
      EXPECT_EQ(rounded, double(visits));
    }
  }
}

// The coder gives back every decision, symbol and number it was given, whatever their
// distribution; the decoder reads exactly the bytes the encoder wrote; and decisions that are
// nearly always the same cost a small fraction of a bit.
TEST(RangeCoder, GivesBackWhatItWasGiven) {
  for (int round = 0; round < 20; ++round) {
    Rng rng(1000 + uint64_t(round));
    const int zeroShare = int(rng.below(101));  // percent
    std::vector<uint32_t> bits, symbols;
    std::vector<uint64_t> numbers;
    for (int i = 0; i < 3000; ++i) {
      bits.push_back(int(rng.below(100)) < zeroShare ? 0 : 1);
      symbols.push_back(rng.below(3) ? rng.below(4) : rng.below(256));
      numbers.push_back(i % 97 == 0 ? ~uint64_t(0) : i % 89 == 0 ? 0 : rng.next() >> rng.below(64));
    }
    auto code = [&](auto& coder, std::vector<uint32_t>& b, std::vector<uint32_t>& s, std::vector<uint64_t>& n) {
      BitModel bit[2];
      SymbolModel<8> symbol;
      NumberModel number;
      for (size_t i = 0; i < b.size(); ++i) {
        coder.bit(bit[i % 2], b[i]);
        codeSymbol(coder, symbol, s[i]);
        codeNumber(coder, number, n[i]);
      }
    };
    std::string stream = "xy";  // the stream need not start the string
    RangeEncoder encoder(stream);
    std::vector<uint32_t> b = bits, s = symbols;
    std::vector<uint64_t> n = numbers;
    code(encoder, b, s, n);
    encoder.finish();
    RangeDecoder decoder(stream, 2, stream.size());
    std::vector<uint32_t> b2(bits.size()), s2(bits.size());
    std::vector<uint64_t> n2(bits.size());
    code(decoder, b2, s2, n2);
    EXPECT_FALSE(decoder.overrun());
    EXPECT_EQ(decoder.position(), stream.size());
    EXPECT_EQ(b2, bits);
    EXPECT_EQ(s2, symbols);
    EXPECT_EQ(n2, numbers);
  }
  std::string stream;
  RangeEncoder encoder(stream);
  BitModel model;
  Rng rng(77);
  for (int i = 0; i < 100000; ++i) {
    uint32_t b = rng.below(100) == 0;
    encoder.bit(model, b);
  }
  encoder.finish();
  EXPECT_LT(stream.size(), 100000u * 0.12 / 8);  // the entropy of 1% is 0.081 bits
}

// Database folders (docs/database.md): segments read together as one database, a writer's segment
// holding only what it adds, damage confined to its segment, shards searching disjoint positions.
namespace {

// A copy of a folder (or file) at a fresh scratch path.
std::string scratchCopy(const std::string& from, const std::string& name) {
  const std::string to = scratchPath(name);
  std::filesystem::remove_all(to);
  std::filesystem::copy(from, to, std::filesystem::copy_options::recursive);
  return to;
}

std::vector<std::string> segmentsOf(const std::string& folder) {
  std::vector<std::string> paths;
  std::string error;
  EXPECT_TRUE(listSegments(folder, paths, error)) << error;
  return paths;
}

// A database grown from `base` by a run of more games and a few verdicts of its own.
Database grownFrom(const Database& base) {
  Database grown = copyOf(base);
  grown.beginRun(RunInfo());
  for (int i = 0; i < 6; ++i) EXPECT_TRUE(grown.addGame(playTacticalGame(300 + i), 12));
  const Database verdicts = randomVerdicts(51, 20);
  for (const auto& [key, v] : verdicts.verdicts().at("engine/1it")) grown.setVerdict("engine/1it", key, v);
  return grown;
}

}  // namespace

// A writer's segment holds what it added to the segments it loaded, and the folder reads back as
// the whole database: the same file image as the database the writer held.
TEST(BookDatabaseFolder, SegmentsReadAsOneDatabase) {
  const Database base = sampleDatabase(20);
  const std::string folder = scratchPath("segments.db");
  std::filesystem::create_directories(folder);
  std::string error;
  ASSERT_TRUE(saveDatabase(folder + "/0-base.seg", base, error)) << error;
  DatabaseStore store(folder);
  ASSERT_TRUE(store.segmented());
  Database loaded;
  ASSERT_TRUE(store.load(loaded, error)) << error;
  const Database grown = grownFrom(loaded);
  bool wrote = false;
  ASSERT_TRUE(store.save(grown, error, &wrote)) << error;
  ASSERT_TRUE(wrote);
  ASSERT_EQ(segmentsOf(folder).size(), 2u);

  Database added;
  ASSERT_TRUE(loadDatabaseFile(store.segmentPath(), added, error)) << error;
  ASSERT_EQ(added.runs().size(), 1u);  // only the new run, its games and its verdicts
  EXPECT_EQ(added.runs()[0].id, grown.currentRun().id);
  EXPECT_EQ(added.games(), 6u);
  EXPECT_EQ(added.searchedPositions(), 20u);
  EXPECT_LT(added.positions(), grown.positions());

  Database whole;
  ASSERT_TRUE(loadDatabase(folder, whole, error)) << error;
  EXPECT_EQ(serializeDatabase(whole), serializeDatabase(grown));
  // Nothing new since the last save: a second store writes no segment.
  DatabaseStore again(folder);
  Database reloaded;
  ASSERT_TRUE(again.load(reloaded, error)) << error;
  ASSERT_TRUE(again.save(reloaded, error, &wrote)) << error;
  EXPECT_FALSE(wrote);
  EXPECT_EQ(segmentsOf(folder).size(), 2u);
}

// A writer's segment goes into the subfolder of its date (FOLDER/YYYY-MM/DD/), so that a git commit
// of it rewrites that day's small tree only; segments are read wherever they lie, in the order of
// their names (not of their paths: "2026-12/..." sorts before a flat "20261128-..."), and
// `bookgen migrate FOLDER` moves the flat ones into their subfolders without changing what the
// folder reads as; compaction leaves no empty subfolder.
TEST(BookDatabaseFolder, SegmentsLieInTheirDaysSubfolderAndAreReadWhereverTheyLie) {
  const std::string folder = scratchPath("subfolders.db");
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  std::string error;
  ASSERT_TRUE(saveDatabase(folder + "/0-base.seg", sampleDatabase(20), error)) << error;
  const std::string flat = folder + "/20261128-000000.000-00000000000000aa.seg";
  ASSERT_TRUE(saveDatabase(flat, randomVerdicts(52, 5), error)) << error;
  DatabaseStore store(folder);
  Database loaded;
  ASSERT_TRUE(store.load(loaded, error)) << error;
  EXPECT_EQ(loaded.searchedPositions(), 5u);
  bool wrote = false;
  ASSERT_TRUE(store.save(grownFrom(loaded), error, &wrote)) << error;
  ASSERT_TRUE(wrote);
  const std::string name = std::filesystem::path(store.segmentPath()).filename().string();
  EXPECT_EQ(store.segmentPath(),
            folder + "/" + name.substr(0, 4) + "-" + name.substr(4, 2) + "/" + name.substr(6, 2) + "/" + name);
  EXPECT_EQ(segmentsOf(folder), (std::vector<std::string>{folder + "/0-base.seg", flat, store.segmentPath()}));
  auto image = [&] {
    Database db;
    EXPECT_TRUE(loadDatabase(folder, db, error)) << error;
    return serializeDatabase(db);
  };
  const std::string whole = image();

  const std::string bookgen = std::string(YAVALATH_BIN_DIR) + "/bookgen ";
  const CommandRun migrate = runCommand(bookgen + "migrate " + folder + " 2>&1");
  EXPECT_EQ(migrate.status, 0) << migrate.out;
  EXPECT_NE(migrate.out.find("1 of 3 segments moved"), std::string::npos) << migrate.out;
  const std::string moved = folder + "/2026-11/28/" + std::filesystem::path(flat).filename().string();
  EXPECT_EQ(segmentsOf(folder), (std::vector<std::string>{folder + "/0-base.seg", moved, store.segmentPath()}));
  EXPECT_TRUE(image() == whole) << "moving a segment changed the database";
  EXPECT_NE(runCommand(bookgen + "migrate " + folder + " 2>&1").out.find("0 of 3 segments moved"), std::string::npos);

  ASSERT_EQ(runCommand(bookgen + "compact " + folder + " 2>&1").status, 0);
  EXPECT_FALSE(std::filesystem::exists(folder + "/2026-11")) << "compaction left an empty subfolder";
  EXPECT_TRUE(image() == whole) << "compaction changed the database";
}

// Threads copy the database under its lock and write outside it, so an older copy can reach the
// disk after a newer one: it must not replace it (a run's file once went from 25 verdicts back to 20).
TEST(BookDatabaseStore, AnOlderSnapshotWrittenLastDoesNotReplaceANewerOne) {
  for (const bool folder : {false, true}) {
    const std::string path = scratchPath(folder ? "order.db.d" : "order.db");
    std::filesystem::remove_all(path);
    if (folder) std::filesystem::create_directories(path);
    DatabaseStore store(path);
    ASSERT_EQ(store.segmented(), folder);
    Database db;
    std::string error;
    ASSERT_TRUE(store.load(db, error) || !folder) << error;
    db.addGame(playTacticalGame(1), 12);
    const auto older = store.snapshot(db);
    db.addGame(playTacticalGame(2), 12);
    const auto newer = store.snapshot(db);
    bool wrote = false;
    ASSERT_TRUE(store.write(newer, error, &wrote)) << error;
    EXPECT_TRUE(wrote);
    ASSERT_TRUE(store.write(older, error, &wrote)) << error;
    EXPECT_FALSE(wrote) << "the older copy is dropped";
    Database read;
    ASSERT_TRUE(loadDatabase(path, read, error)) << error;
    EXPECT_EQ(read.games(), 2u) << (folder ? "folder" : "single file");
    std::filesystem::remove_all(path);
  }
}

// Proofs only accumulate. A writer that completes a searched position's verdict with a proof
// (bookgen prove) saves it in its segment, and the folder reads the proof back; merged in either
// order, the verdict with more proven moves is kept.
TEST(BookDatabaseFolder, AProofCompletingASearchedVerdictIsSavedAndKept) {
  const std::string folder = scratchPath("upgraded.db"), engine = "engine/1it";
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  std::string error;
  const Database base = randomVerdicts(77, 10);
  ASSERT_TRUE(saveDatabase(folder + "/0-base.seg", base, error)) << error;
  DatabaseStore store(folder);
  Database db;
  ASSERT_TRUE(store.load(db, error)) << error;
  PositionKey key{};
  DeepVerdict upgraded;
  for (const auto& [k, v] : db.verdicts().at(engine))
    for (size_t i = 0; i < v.moves.size() && upgraded.moves.empty(); ++i)
      if (v.moves[i].proof == Proof::Unknown) {
        key = k, upgraded = v;
        upgraded.moves[i].proof = Proof::Win, upgraded.moves[i].value = 1.0f, upgraded.best = v.moves[i].move;
      }
  ASSERT_FALSE(upgraded.moves.empty());
  const size_t searchedProofs = provenMoves(*db.verdict(engine, key));
  db.setVerdict(engine, key, upgraded);
  bool wrote = false;
  ASSERT_TRUE(store.save(db, error, &wrote)) << error;
  ASSERT_TRUE(wrote) << "the proof is new: the segment holds it";
  Database whole;
  ASSERT_TRUE(loadDatabase(folder, whole, error)) << error;
  EXPECT_EQ(provenMoves(*whole.verdict(engine, key)), searchedProofs + 1);
  Database segmentFirst;
  ASSERT_TRUE(loadDatabaseFile(store.segmentPath(), segmentFirst, error)) << error;
  segmentFirst.merge(base);
  EXPECT_EQ(provenMoves(*segmentFirst.verdict(engine, key)), searchedProofs + 1);
}

// A truncated, damaged or future-version segment is refused naming its file and a byte; the load
// fails (no writer works on top of it), and a reader that skips it reads the other segments whole.
TEST(BookDatabaseFolder, ADamagedSegmentIsRefusedAndTheOthersStayReadable) {
  const std::string folder = scratchPath("damaged.db");
  std::filesystem::create_directories(folder);
  const Database first = sampleDatabase(12), second = grownFrom(Database());
  const std::string a = folder + "/1-first.seg", b = folder + "/2-second.seg";
  std::string error;
  ASSERT_TRUE(saveDatabase(a, first, error)) << error;
  const std::string good = serializeDatabase(second);
  std::string future = good;
  future[8] = char(kDatabaseVersion + 1);
  for (const std::string& bad : {good.substr(0, good.size() / 2), future}) {
    std::ofstream(b, std::ios::binary | std::ios::trunc) << bad;
    Database db;
    EXPECT_FALSE(loadDatabase(folder, db, error));
    EXPECT_EQ(error.rfind(b + ": ", 0), 0u) << error;
    EXPECT_NE(error.find(" at byte "), std::string::npos) << error;
    EXPECT_EQ(db.games(), 0u);
    std::vector<SegmentRead> read;
    ASSERT_TRUE(loadDatabase(folder, db, error, &read, true)) << error;
    EXPECT_EQ(serializeDatabase(db), serializeDatabase(first));
    ASSERT_EQ(read.size(), 2u);
    EXPECT_TRUE(read[0].error.empty());
    EXPECT_EQ(read[1].error.rfind(b + ": ", 0), 0u) << read[1].error;
  }
  // bookgen stats reads the rest, names the refused segment, and exits 1.
  const CommandRun stats = runCommand(std::string(YAVALATH_BIN_DIR) + "/bookgen stats " + folder + " 2>&1");
  EXPECT_EQ(stats.status, 1) << stats.out;
  EXPECT_NE(stats.out.find(folder + ": 12 games"), std::string::npos) << stats.out;
  EXPECT_NE(stats.out.find("REFUSED (left out of everything below): " + b + ": unsupported version"), std::string::npos)
      << stats.out;
  // A writer refuses to start on top of it.
  const CommandRun run =
      runCommand(std::string(YAVALATH_BIN_DIR) + "/bookgen run --db " + folder + " --positions 1 2>&1");
  EXPECT_EQ(run.status, 1) << run.out;
  EXPECT_NE(run.out.find("refusing to write on top of it"), std::string::npos) << run.out;
  EXPECT_EQ(segmentsOf(folder).size(), 2u);
}

// Shards that start from the same database search disjoint positions: each only those whose key
// hashes to it, while walking the whole shared book to choose its lines.
TEST(BookDatabaseFolder, ShardsSearchDisjointPositions) {
  const Database base;
  const EvaluatorFactory factory = hashValuedEvaluators();
  std::set<PositionKey> seen;
  size_t searched = 0;
  for (uint64_t shard = 0; shard < 2; ++shard) {
    Database db = copyOf(base);
    GrowOptions o;
    o.targetPositions = 40;
    o.progressSeconds = 1000;
    o.shard = shard, o.shards = 2;
    Grower grower(db, o, factory);
    std::string log;
    ASSERT_TRUE(growToTheEnd(grower, log)) << log;
    const auto& verdicts = db.verdicts().at(o.deep.key());
    EXPECT_EQ(verdicts.size(), 40u);
    for (const auto& [key, v] : verdicts) {
      EXPECT_EQ(shardOf(key, 2), shard);
      seen.insert(key);
      ++searched;
    }
  }
  EXPECT_EQ(seen.size(), searched);  // no position searched by both
}

// The commands on a folder, end to end with the real binary: migrate renames a file into a folder
// unchanged; a growth run appends one segment and touches no other; a killed run keeps its last
// checkpoint (a multiple of --checkpoint) and a resumed one adds a segment; merging the same
// segment twice adds nothing; compact makes one segment of the same database; drop-run rewrites
// the segment of the run; stats summarises, --runs lists every run.
TEST(BookGenerator, FolderCommandsEndToEnd) {
  const std::string bookgen = std::string(YAVALATH_BIN_DIR) + "/bookgen";
  const std::string growth = " --iterations 300 --nodes 100000 --fresh --progress 1000";
  std::string error;
  auto load = [&](const std::string& path) {
    Database db;
    EXPECT_TRUE(loadDatabase(path, db, error)) << error;
    return db;
  };
  auto added = [&](const std::vector<std::string>& before, const std::vector<std::string>& after) {
    std::vector<std::string> fresh;
    for (const std::string& p : after)
      if (std::find(before.begin(), before.end(), p) == before.end()) fresh.push_back(p);
    return fresh;
  };

  const std::string file = scratchPath("migrate.db");
  ASSERT_TRUE(saveDatabase(file, sampleDatabase(5), error)) << error;
  const std::string original = readFile(file);
  ASSERT_EQ(runCommand(bookgen + " migrate " + file + " 2>&1").status, 0);
  EXPECT_EQ(segmentsOf(file), std::vector<std::string>{file + "/0-base.seg"});
  EXPECT_EQ(readFile(file + "/0-base.seg"), original);

  const std::string folder = scratchCopy(kFixture, "grow.db");
  const std::vector<std::string> fixture = segmentsOf(folder);
  std::map<std::string, std::string> bytes;
  for (const std::string& p : fixture) bytes[p] = readFile(p);
  const CommandRun run = runCommand(bookgen + " run --db " + folder + growth + " --positions 100 2>&1");
  ASSERT_EQ(run.status, 0) << run.out;
  const std::vector<std::string> afterRun = added(fixture, segmentsOf(folder));
  ASSERT_EQ(afterRun.size(), 1u);
  for (const std::string& p : fixture) EXPECT_EQ(readFile(p), bytes[p]) << p;
  Database segment;
  ASSERT_TRUE(loadDatabaseFile(afterRun[0], segment, error)) << error;
  EXPECT_EQ(segment.runs().size(), 1u);
  EXPECT_EQ(segment.searchedPositions(), 10u);
  EXPECT_EQ(load(folder).searchedPositions(), 100u);

  // Killed (SIGKILL: no save at exit) after its first checkpoint.
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    if (!freopen("/dev/null", "w", stderr)) _exit(126);
    execl(bookgen.c_str(), bookgen.c_str(), "run", "--db", folder.c_str(), "--iterations", "300", "--nodes", "100000",
          "--fresh", "--checkpoint", "3", (char*)nullptr);
    _exit(127);
  }
  std::vector<std::string> killed;
  waitFor([&] {
    killed = added(fixture, segmentsOf(folder));
    killed.erase(std::remove(killed.begin(), killed.end(), afterRun[0]), killed.end());
    return !killed.empty();
  });
  kill(child, SIGKILL);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_EQ(killed.size(), 1u) << "no checkpoint within two minutes";
  Database checkpoint;
  ASSERT_TRUE(loadDatabaseFile(killed[0], checkpoint, error)) << error;
  EXPECT_GT(checkpoint.searchedPositions(), 0u);
  EXPECT_EQ(checkpoint.searchedPositions() % 3, 0u);
  const size_t held = load(folder).searchedPositions();
  EXPECT_EQ(held, 100u + checkpoint.searchedPositions());
  ASSERT_EQ(runCommand(bookgen + " run --db " + folder + growth + " --positions " + std::to_string(held + 2) + " 2>&1")
                .status,
            0);
  EXPECT_EQ(segmentsOf(folder).size(), fixture.size() + 3);
  EXPECT_EQ(load(folder).searchedPositions(), held + 2);

  const std::string other = scratchCopy(kFixture, "merge.db");
  const CommandRun first = runCommand(bookgen + " merge " + other + " " + afterRun[0] + " 2>&1");
  EXPECT_EQ(first.status, 0) << first.out;
  EXPECT_EQ(segmentsOf(other).size(), fixture.size() + 1);
  const CommandRun twice = runCommand(bookgen + " merge " + other + " " + afterRun[0] + " " + folder + " 2>&1");
  EXPECT_EQ(twice.status, 0) << twice.out;
  EXPECT_EQ(segmentsOf(other).size(), fixture.size() + 2);  // the folder's other runs are new to it
  const CommandRun again = runCommand(bookgen + " merge " + other + " " + afterRun[0] + " " + folder + " 2>&1");
  EXPECT_NE(again.out.find("nothing new"), std::string::npos) << again.out;
  EXPECT_EQ(segmentsOf(other).size(), fixture.size() + 2);
  EXPECT_TRUE(serializeDatabase(load(other)) == serializeDatabase(load(folder))) << "merged copies differ";

  const std::string whole = serializeDatabase(load(folder));
  const CommandRun compact = runCommand(bookgen + " compact " + folder + " 2>&1");
  EXPECT_EQ(compact.status, 0) << compact.out;
  EXPECT_EQ(segmentsOf(folder).size(), 1u);
  EXPECT_TRUE(serializeDatabase(load(folder)) == whole) << "compaction changed the database";

  const CommandRun runs = runCommand(bookgen + " stats --runs " + other + " 2>&1");
  const std::string id = cli::hexText(segment.runs()[0].id);
  EXPECT_NE(runs.out.find("  run " + id + ": 0 games, 10 searched positions"), std::string::npos) << runs.out;
  const CommandRun drop = runCommand(bookgen + " drop-run " + other + " " + id + " 2>&1");
  EXPECT_EQ(drop.status, 0) << drop.out;
  EXPECT_EQ(load(other).searchedPositions(), held + 2 - 10);

  expectRefused(bookgen + " run --db " + folder + " --shard 3/2", "--shard expects I/N with 1 <= I <= N, got '3/2'");
}
