// bookgen audit: every position of the shipped book, its move held to a proof (tools/book/audit.h).
// What it proves is recorded in the database (the opponent's win after a refuted book move and after
// each other move it refutes there; the book position's own win, or its loss when every move is
// refuted), so that the next bookpack plays
// around the holes; the report lists them as lines of moves for bookgen show and prove.
#pragma once

#include <algorithm>
#include <map>
#include <thread>

#include "tools/book/audit.h"
#include "tools/book/shipped.h"
#include "tools/bookgen/command_prove.h"
#include "tools/common/moves_text.h"
#include "tools/common/progress.h"

namespace {  // one translation unit: tools/bookgen/bookgen.cpp

struct AuditSettings {
  std::string dbPath = "book/book.db", header = "book/embedded_book.h", out = "book-audit.txt";
  uint64_t expansions = 500;
  int threads = 2;
  bool dryRun = false;  // record nothing in the database
  double checkpointSeconds = 300;
  GrowOptions grown;  // its budget names the book's verdicts
};

// One shipped position and its move, in the orientation the book's tree gave it.
struct AuditItem {
  Board position;
  Cell move;
};

// The shipped positions, each once (a transposition or a symmetric image is the same position),
// fewest stones first, then by canonical key: the order the report's blocks count in. The book's
// answers to the first stone are left out: the steal is open there, which placements and
// proofs do not see, and the nine first-move classes have proofs of their own (bookgen classes).
// `text`: the book text of the header file named `header`.
bool auditItems(const std::string& header, const std::string& text, std::vector<AuditItem>& items, std::string& error) {
  std::map<std::pair<int, PositionKey>, AuditItem> ordered;
  if (!decodeBook(
          text,
          [&](const Board& b, Cell move) {
            if (!b.canSteal()) ordered.emplace(std::make_pair(b.stoneCount(), canonicalize(b).key), AuditItem{b, move});
          },
          error))
    return error = header + ": " + error, false;
  items.clear();
  for (auto& [key, item] : ordered) items.push_back(item);
  return true;
}

std::string auditLine(const AuditItem& item, const AuditFinding& f) {
  std::ostringstream line;
  line << (f.kind == AuditFinding::Kind::Hole ? "hole" : "lost") << " | " << placementLine(item.position) << " | book "
       << cellName(item.move) << " | refuted by " << (f.refutation == kNoCell ? "its own 3" : cellName(f.refutation))
       << " | win " << (f.win == kNoCell ? "none found" : cellName(f.win)) << " | " << f.othersNotRefuted << " of "
       << f.others << " other moves not refuted";
  if (f.otherNotRefuted != kNoCell) line << " (" << cellName(f.otherNotRefuted) << ")";
  return line.str();
}

// The report's first line: what it audits with; a resumed run must match it.
std::string auditHeading(const AuditSettings& s, const std::string& bookText) {
  // The text's last two characters are its checksum (book_format.h): they name the book.
  const int check = bookText.size() >= 6
                        ? (bookValue(bookText, bookText.size() - 6) << 15 | bookValue(bookText, bookText.size() - 3))
                        : 0;
  return "# bookgen audit of " + s.header + " (" + std::to_string(bookText.size() / kBookUtf8Bytes) +
         " characters, checksum " + cli::hexText(uint64_t(check)) + "), " + std::to_string(s.expansions) +
         " expansions";
}

constexpr size_t kAuditBlock = 256;  // positions per block: the unit a resumed audit skips

int auditCommand(int argc, char** argv) {
  AuditSettings s;
  cli::Flags flags("bookgen");
  flags.text("--db", "FILE", s.dbPath, "the database the proofs are recorded in", s.dbPath)
      .integer("--book-iterations", "N", s.grown.deep.iterations, 1, cli::kNoLimit,
               "the search-valued book's deep-search budget (bookgen run --iterations): the proofs go to its verdicts")
      .text("--header", "FILE", s.header, "the shipped book to audit", s.header)
      .integer(
          "--expansions", "N", s.expansions, 1, cli::kNoLimit,
          "the proof search's budget for each question (the opponent's win after the book move; then, for a refuted "
          "move, the position's own win and each other move's refutation)")
      .integer("--threads", "N", s.threads, 1, 256, "positions audited in parallel")
      .text("--out", "FILE", s.out,
            "the report: the holes and lost positions found, and the blocks done (a rerun with the same header and "
            "budget skips those)",
            s.out)
      .number("--checkpoint", "SEC", s.checkpointSeconds, 1, cli::kNoMax, "seconds between saves of the database")
      .option("--dry-run", s.dryRun, "record nothing in the database (no lock taken)");
  flags.parseOrExit(argc, argv, 0, std::string(kCommands) + "audit options:\n");

  std::vector<AuditItem> items;
  std::string error, bookText;
  if (!readEmbeddedBookText(s.header, bookText, error) || !auditItems(s.header, bookText, items, error))
    return std::cerr << "bookgen: " << error << "\n", 1;
  const std::string heading = auditHeading(s, bookText);

  // Resume: the blocks a report with the same heading says are done.
  std::vector<bool> done((items.size() + kAuditBlock - 1) / kAuditBlock, false);
  size_t holes = 0, lost = 0;
  if (std::ifstream in(s.out); in) {
    std::string line;
    if (std::getline(in, line) && line != heading)
      return fail("audit: " + s.out + " is the report of another audit ('" + line +
                  "'); move it away or name another --out");
    for (size_t block = 0; std::getline(in, line);) {
      if (std::sscanf(line.c_str(), "done block %zu", &block) == 1 && block < done.size()) done[block] = true;
      holes += line.rfind("hole", 0) == 0, lost += line.rfind("lost", 0) == 0;
    }
  } else {
    std::ofstream(s.out) << heading << "\n";
  }
  const size_t blocksDone = size_t(std::count(done.begin(), done.end(), true));
  std::cerr << s.header << ": " << items.size() << " positions in " << done.size() << " blocks of " << kAuditBlock
            << " (" << blocksDone << " done before), " << s.expansions << " expansions a question\n";

  FileLock lock;
  Database db;
  DatabaseStore store(s.dbPath);
  const std::string key = s.grown.deep.key();
  size_t recorded = 0;
  if (!s.dryRun) {
    if (!openForWriting(store, lock, db)) return 1;
    beginRun(db, store, false, 0, "audit header=" + s.header + " expansions=" + std::to_string(s.expansions));
  } else {
    stopOnSignals(gStop);
  }
  // Report lines wait for the save that holds their proofs: a block is "done" only once saved.
  std::vector<std::string> pending;
  auto flush = [&] {
    if (!s.dryRun && !store.save(db, error)) return std::cerr << "bookgen: " << error << "\n", false;
    std::ofstream out(s.out, std::ios::app);
    for (const std::string& line : pending) out << line << "\n";
    pending.clear();
    if (!out) std::cerr << "bookgen: cannot write " << s.out << "\n";
    return bool(out);
  };

  Progress progress("positions", long(items.size() - std::min(items.size(), blocksDone * kAuditBlock)));
  long audited = 0;
  Stopwatch sinceSave;
  for (size_t block = 0; block < done.size() && !gStop.load(); ++block) {
    if (done[block]) continue;
    const size_t first = block * kAuditBlock, end = std::min(items.size(), first + kAuditBlock);
    std::vector<AuditFinding> found(end - first);
    std::atomic<size_t> next{first};
    std::atomic<long> finished{0};
    auto work = [&] {
      for (size_t i; !gStop.load() && (i = next++) < end;) {
        found[i - first] = auditBookMove(items[i].position, items[i].move, s.expansions);
        const long n = audited + ++finished;
        progress.update(n, std::to_string(holes) + " holes, " + std::to_string(lost) + " lost");
      }
    };
    std::vector<std::thread> threads;
    for (int t = 0; t < s.threads; ++t) threads.emplace_back(work);
    for (std::thread& t : threads) t.join();
    if (gStop.load()) break;  // the block is left to the next run
    audited += long(end - first);
    for (size_t i = first; i < end; ++i) {
      const AuditFinding& f = found[i - first];
      if (f.kind == AuditFinding::Kind::Sound) continue;
      const AuditItem& item = items[i];
      (f.kind == AuditFinding::Kind::Hole ? holes : lost)++;
      pending.push_back(auditLine(item, f));
      if (s.dryRun) continue;
      Board after = item.position;
      if (after.play(item.move) == Outcome::None) recorded += recordProof(db, key, after, Proof::Win, f.refutation);
      for (const auto& [move, refutation] : f.refutedOthers) {
        Board other = item.position;
        other.play(move);
        recorded += recordProof(db, key, other, Proof::Win, refutation);
      }
      if (f.win != kNoCell) recorded += recordProof(db, key, item.position, Proof::Win, f.win);
      if (f.kind == AuditFinding::Kind::Lost) recorded += recordProof(db, key, item.position, Proof::Loss, kNoCell);
    }
    pending.push_back("done block " + std::to_string(block));
    if (sinceSave.elapsedMs() >= s.checkpointSeconds * 1000 || block + 1 == done.size()) {
      if (!flush()) return 1;
      sinceSave = Stopwatch();
    }
  }
  if (!pending.empty() && !flush()) return 1;
  std::cerr << "audit: " << holes << " holes, " << lost << " lost positions in " << s.out << "; " << recorded
            << " proofs recorded in " << (s.dryRun ? "nothing (--dry-run)" : store.target()) << "\n";
  return runExit(true, error);
}

}  // namespace
