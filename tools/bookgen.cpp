// bookgen: grows the opening-book database by meta-MCTS self-play with the project's search,
// merges databases and prints their statistics. See docs/book.md.
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <string>

#include "search.h"
#include "tools/book/database.h"
#include "tools/book/selfplay.h"

namespace {

using namespace yav;
using namespace yav::book;

const char* const kUsage =
    "usage: bookgen run [--db FILE] [--games N] [--hours H] [--threads T] [--iterations N | --time-ms MS]\n"
    "                   [--random-plies K] [--random-fraction F] [--follow-threshold P] [--engine-share P]\n"
    "                   [--store-plies N] [--checkpoint N] [--progress SEC] [--seed S] [--nodes N]\n"
    "       bookgen merge OUT IN [IN...]\n"
    "       bookgen stats FILE [--top N]\n"
    "run: plays self-play games into FILE (default book/book.db), resuming it when it exists.\n"
    "     --games N stops when the database holds N games; --hours H after H hours of this run;\n"
    "     Ctrl-C / SIGTERM stop cleanly (the database is saved).\n";

std::atomic<bool> gStop{false};
extern "C" void onSignal(int) { gStop.store(true); }

// The project's search as the book's engine.
class SearchEngine : public BookEngine {
 public:
  SearchEngine(size_t nodes, SearchLimits limits) : search_(nodes), limits_(limits) {}
  void newGame() override { search_.reset(); }
  EngineAnswer choose(const Board& position, uint64_t seed) override {
    SearchLimits l = limits_;
    l.seed = seed;
    const SearchResult r = search_.run(position, l);
    EngineAnswer a;
    a.move = r.move;
    for (const RootMove& m : r.children)
      a.children.push_back({m.move, m.visits,
                            m.proof == Proof::Win ? MoveProof::Win : m.proof == Proof::Loss ? MoveProof::Loss : MoveProof::Unknown});
    return a;
  }

 private:
  Search search_;
  SearchLimits limits_;
};

bool number(const char* text, double& out) {
  char* end = nullptr;
  out = std::strtod(text, &end);
  return end != text && *end == '\0' && out >= 0;
}

int fail(const std::string& message) {
  std::cerr << "bookgen: " << message << "\n" << kUsage;
  return 2;
}

int runCommand(int argc, char** argv) {
  SelfPlayOptions play;
  GeneratorOptions run;
  run.dbPath = "book/book.db";
  SearchLimits limits;
  limits.iterations = 3000;
  double nodes = double(size_t(1) << 20);
  for (int i = 0; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--db") {
      if (i + 1 >= argc) return fail("--db expects a file name");
      run.dbPath = argv[++i];
      continue;
    }
    double v = 0;
    if (i + 1 >= argc || !number(argv[i + 1], v)) return fail("unknown option or missing number: '" + arg + "'");
    ++i;
    if (arg == "--games") run.targetGames = uint64_t(v);
    else if (arg == "--hours") run.hours = v;
    else if (arg == "--threads") run.threads = std::max(1, int(v));
    else if (arg == "--iterations") limits.iterations = uint64_t(v), limits.timeMs = 0;
    else if (arg == "--time-ms") limits.timeMs = v, limits.iterations = 0;
    else if (arg == "--random-plies") play.randomPlies = int(v);
    else if (arg == "--random-fraction") play.randomFraction = v;
    else if (arg == "--follow-threshold") play.followThreshold = v;
    else if (arg == "--engine-share") play.engineShare = v;
    else if (arg == "--store-plies") play.storePlies = int(v);
    else if (arg == "--checkpoint") run.checkpointEvery = uint64_t(v);
    else if (arg == "--progress") run.progressSeconds = v;
    else if (arg == "--seed") run.seed = uint64_t(v);
    else if (arg == "--nodes") nodes = v;
    else return fail("unknown option '" + arg + "'");
  }
  if (limits.iterations == 0 && limits.timeMs <= 0) return fail("the engine needs --iterations N or --time-ms MS above 0");
  if (play.randomFraction > 1 || play.engineShare > 1 || play.followThreshold > 1)
    return fail("--random-fraction, --engine-share and --follow-threshold are probabilities in [0,1]");

  Database db;
  std::string error;
  if (std::ifstream(run.dbPath).good()) {
    if (!db.load(run.dbPath, error)) {
      std::cerr << "bookgen: " << error << "\n(refusing to overwrite it; move it away or repair it)\n";
      return 1;
    }
    std::cerr << "resuming " << run.dbPath << ": " << db.games() << " games, " << db.positions() << " positions\n";
  } else {
    std::cerr << "starting a new database " << run.dbPath << "\n";
  }
  if (run.targetGames && db.games() >= run.targetGames) {
    std::cerr << "the database already holds " << db.games() << " games (target " << run.targetGames << ")\n";
    return 0;
  }
  std::signal(SIGINT, onSignal);
  std::signal(SIGTERM, onSignal);
  Generator gen(db, play, run, [&] { return std::make_unique<SearchEngine>(size_t(nodes), limits); });
  if (!gen.run(gStop, std::cerr, error)) {
    std::cerr << "bookgen: " << error << "\n";
    return 1;
  }
  if (gStop.load()) std::cerr << "stopped by signal; resume with the same command\n";
  return 0;
}

int mergeCommand(int argc, char** argv) {
  if (argc < 2) return fail("merge expects OUT and at least one IN");
  Database total;
  std::string error;
  for (int i = 1; i < argc; ++i) {
    Database part;
    if (!part.load(argv[i], error)) {
      std::cerr << "bookgen: " << error << "\n";
      return 1;
    }
    total.merge(part);
    std::cerr << "merged " << argv[i] << ": " << part.games() << " games, " << part.positions() << " positions\n";
  }
  if (!total.save(argv[0], error)) {
    std::cerr << "bookgen: " << error << "\n";
    return 1;
  }
  std::cerr << "wrote " << argv[0] << ": " << total.games() << " games, " << total.positions() << " positions, "
            << total.proofConflicts() << " proof conflicts\n";
  return 0;
}

int statsCommand(int argc, char** argv) {
  if (argc < 1) return fail("stats expects a FILE");
  double top = 10;
  if (argc >= 3 && std::string(argv[1]) == "--top" && !number(argv[2], top)) return fail("--top expects a number");
  Database db;
  std::string error;
  if (!db.load(argv[0], error)) {
    std::cerr << "bookgen: " << error << "\n";
    return 1;
  }
  std::map<int, size_t> byStones, provenByStones;
  size_t moves = 0;
  for (const auto& [key, stats] : db.map()) {
    moves += stats.moves.size();
    const int stones = popcount(key.mine | key.theirs);
    ++byStones[stones];
    provenByStones[stones] += stats.proof != MoveProof::Unknown;
  }
  std::cout << argv[0] << ": " << db.games() << " games, " << db.positions() << " positions, " << moves << " moves\n";
  for (const auto& [stones, n] : byStones)
    std::cout << "  " << stones << " stones: " << n << " positions, " << provenByStones[stones] << " proven\n";
  auto show = [&](const char* title, const PositionKey& key) {
    const PositionStats* s = db.find(key);
    if (!s) return;
    std::vector<MoveStats> moves = s->moves;
    std::sort(moves.begin(), moves.end(), [](const MoveStats& a, const MoveStats& b) { return a.games > b.games; });
    std::cout << title << " (" << s->games() << " games):\n";
    for (size_t i = 0; i < moves.size() && i < size_t(top); ++i)
      std::cout << "  " << cellName(moves[i].move) << ": " << moves[i].games << " games, win rate "
                << moves[i].winRate() << (moves[i].proof == MoveProof::Win ? " (proven win)" : "")
                << (moves[i].proof == MoveProof::Loss ? " (proven loss)" : "") << "\n";
  };
  show("first move", PositionKey{});
  for (Cell c : moveClasses(Board())) {
    Board b;
    b.play(c);
    show(("answer to " + cellName(c) + " (moves in canonical orientation)").c_str(), canonicalize(b).key);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string command = argc > 1 ? argv[1] : "";
  if (command == "run") return runCommand(argc - 2, argv + 2);
  if (command == "merge") return mergeCommand(argc - 2, argv + 2);
  if (command == "stats") return statsCommand(argc - 2, argv + 2);
  if (command == "--help" || command == "-h") {
    std::cout << kUsage;
    return 0;
  }
  return fail(command.empty() ? "missing command" : "unknown command '" + command + "'");
}
