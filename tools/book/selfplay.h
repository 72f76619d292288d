// Meta-MCTS self-play for the opening book: each move of a game either follows a stored move
// (chosen by Thompson sampling of its win rate, so that good moves are exploited and weak-looking
// ones still get retried) or asks the engine; finished games are added to the database.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <ctime>
#include <functional>
#include <memory>
#include <mutex>
#include <ostream>
#include <random>
#include <thread>

#include "tools/book/database.h"
#include "tools/book/db_store.h"

namespace yav::book {

// The engine that plays the moves the database does not decide. One instance per thread. Its
// answer is a verdict like the deep engine's (engine.h): the move played (`best`) and every root
// move it looked at, with visits and proofs for the player to move.
class BookEngine {
 public:
  virtual ~BookEngine() = default;
  virtual void newGame() {}
  virtual DeepVerdict choose(const Board& position, uint64_t seed) = 0;
};
using EngineFactory = std::function<std::unique_ptr<BookEngine>()>;

struct SelfPlayOptions {
  int randomPlies = 2;          // a random opening plays 1..randomPlies plies uniformly at random (over symmetry classes, steal included)
  double randomFraction = 0.5;  // share of games with a random opening
  double followThreshold = 0.5; // follow a stored move when its sampled win rate exceeds this
  double engineShare = 0.1;     // chance to ask the engine anyway, so new moves keep appearing
  int storePlies = 10;          // positions deeper than this are not stored (keeps the file small)
};

inline uint64_t mixSeed(uint64_t a, uint64_t b) {
  return mix64(a * kGoldenGamma + b + 0x632BE59BD9B4E019ull);
}

struct SelfPlayResult {
  SelfPlayGame record;
  bool finished = false;
  int bookPlies = 0;  // leading plies that followed the database or the random opening
};

// Plays one game. The database is only read, under `lock`.
inline SelfPlayResult playSelfPlayGame(const Database& db, std::mutex& lock, BookEngine& engine, const SelfPlayOptions& opt,
                           uint64_t seed, const std::atomic<bool>& stop) {
  SelfPlayResult result;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  auto betaSample = [&](double a, double b) {
    const double x = std::gamma_distribution<double>(a, 1.0)(rng), y = std::gamma_distribution<double>(b, 1.0)(rng);
    return x / (x + y);
  };
  // A random opening randomises the first 1..randomPlies plies; the last random move is the one
  // it teaches about (the next moves are played normally), so the result counts from there.
  const int randomPlies = uniform(rng) < opt.randomFraction && opt.randomPlies > 0 ? 1 + int(rng() % opt.randomPlies) : 0;
  result.record.countFrom = size_t(std::max(0, randomPlies - 1));
  bool inBook = true;
  engine.newGame();
  Board b;
  for (int ply = 0;; ++ply) {
    if (stop.load()) return result;
    const Canonical frame = canonicalize(b);
    PlyRecord rec{b, kNoCell, {}};
    bool followed = false;  // the move came from the database (or the random opening schedule)
    if (ply < randomPlies) {
      followed = true;
      const std::vector<Cell> classes = moveClasses(b);
      rec.move = classes[rng() % classes.size()];
    } else {
      std::vector<MoveStats> stored;
      {
        std::lock_guard<std::mutex> g(lock);
        if (const PositionStats* s = db.find(frame.key)) stored = s->moves;
      }
      const MoveStats* pick = nullptr;
      double best = -1;
      for (const auto& s : stored)
        if (s.proof == Proof::Win && (!pick || pick->proof != Proof::Win || s.games > pick->games)) pick = &s;
      if (!pick)
        for (const auto& s : stored) {
          if (s.proof == Proof::Loss || s.games == 0) continue;
          const double won = s.halfPoints / 2.0, sample = betaSample(1 + won, 1 + s.games - won);
          if (sample > best) best = sample, pick = &s;
        }
      if (pick && (pick->proof == Proof::Win || (best > opt.followThreshold && uniform(rng) >= opt.engineShare))) {
        rec.move = frame.fromCanonical(pick->move);
        followed = true;
      } else {
        const DeepVerdict answer = engine.choose(b, mixSeed(seed, uint64_t(ply)));
        auto lost = [&](Cell m) {
          for (const auto& s : stored)
            if (s.move == frame.toCanonical(m)) return s.proof == Proof::Loss;
          for (const auto& c : answer.moves)
            if (c.move == m) return c.proof == Proof::Loss;
          return false;
        };
        rec.move = answer.best;
        if (!b.isLegal(rec.move) || lost(rec.move)) {  // avoid a proven loss while another move is open
          const DeepMove* alt = nullptr;
          for (const auto& c : answer.moves)
            if (b.isLegal(c.move) && !lost(c.move) && (!alt || c.visits > alt->visits)) alt = &c;
          if (alt) rec.move = alt->move;
          else if (!b.isLegal(rec.move)) rec.move = lowestCell(b.legalMoves());
        }
        for (const auto& c : answer.moves)
          if (c.proof != Proof::Unknown && b.isLegal(c.move)) rec.proofs.emplace_back(c.move, c.proof);
      }
    }
    inBook = inBook && followed;
    result.bookPlies += inBook;
    const Outcome o = b.play(rec.move);
    result.record.plies.push_back(std::move(rec));
    if (o != Outcome::None) {
      result.finished = true;
      return result;
    }
  }
}

// "2h 05m" (minutes rounded down): progress lines' elapsed time and ETA.
inline std::string hoursMinutes(double seconds) {
  const long minutes = long(std::max(0.0, seconds) / 60);
  char text[32];
  std::snprintf(text, sizeof text, "%ldh %02ldm", minutes / 60, minutes % 60);
  return text;
}
// Local clock time "14:05:09".
inline std::string clockTime(std::time_t t) {
  std::tm local{};
  localtime_r(&t, &local);
  char text[16];
  std::strftime(text, sizeof text, "%H:%M:%S", &local);
  return text;
}

struct GeneratorOptions {
  int threads = 1;
  uint64_t targetGames = 0;   // stop when the database holds this many games (0: no target)
  double hours = 0;           // stop after this long (0: no limit)
  uint64_t checkpointEvery = 100;
  double progressSeconds = 30;
  uint64_t seed = 1;           // the run's base seed, used when the database has no current run yet
  std::shared_ptr<const DatabaseStore> store;  // checkpoints go here (temporary file + rename); none: never saved
};

// Runs self-play games on several threads until the target, the time limit or `stop`.
// Saves a checkpoint every `checkpointEvery` games and once more at the end.
class Generator {
 public:
  Generator(Database& db, SelfPlayOptions play, GeneratorOptions run, EngineFactory factory)
      : db_(db), play_(play), run_(run), factory_(std::move(factory)) {}

  bool run(std::atomic<bool>& stop, std::ostream& log, std::string& error) {
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    if (!db_.hasCurrentRun()) {
      RunInfo info;
      info.seed = run_.seed;
      db_.beginRun(info);
    }
    const uint64_t runSeed = db_.currentRun().seed, gamesBefore = db_.games();
    std::atomic<bool> done{false};
    auto timeUp = [&] {
      return run_.hours > 0 && std::chrono::duration<double>(Clock::now() - start).count() >= run_.hours * 3600;
    };
    auto worker = [&] {
      std::unique_ptr<BookEngine> engine = factory_();
      while (!stop.load() && !done.load()) {
        uint64_t index;
        {
          std::lock_guard<std::mutex> g(lock_);
          if ((run_.targetGames && gamesBefore + nextGame_ >= run_.targetGames) || timeUp()) break;
          index = nextGame_++;
        }
        SelfPlayResult game = playSelfPlayGame(db_, lock_, *engine, play_, mixSeed(runSeed, index), stop);
        DatabaseStore::Snapshot checkpoint;
        {
          std::lock_guard<std::mutex> g(lock_);
          if (!game.finished) break;  // abandoned by a stop request: not counted
          db_.addGame(game.record, play_.storePlies);
          ++finished_;
          bookPliesSum_ += uint64_t(game.bookPlies);
          if (run_.checkpointEvery && finished_ % run_.checkpointEvery == 0 && run_.store)
            checkpoint = run_.store->snapshot(db_);
        }
        if (checkpoint.db) writeCheckpoint(checkpoint, log);
      }
      done.store(true);
      wake_.notify_all();
    };
    std::vector<std::thread> threads;
    for (int t = 0; t < std::max(1, run_.threads); ++t) threads.emplace_back(worker);
    auto lastReport = Clock::now();
    {
      std::unique_lock<std::mutex> g(waitLock_);
      while (!done.load() && !stop.load()) {
        wake_.wait_for(g, std::chrono::milliseconds(200));
        if (std::chrono::duration<double>(Clock::now() - lastReport).count() >= run_.progressSeconds) {
          report(log, start);
          lastReport = Clock::now();
        }
      }
    }
    for (auto& t : threads) t.join();
    report(log, start);
    if (run_.store) {
      std::lock_guard<std::mutex> g(lock_);
      if (!run_.store->save(db_, error)) return false;
      log << "saved " << run_.store->target() << " (" << db_.games() << " games, " << db_.positions() << " positions)\n";
    }
    return true;
  }

  uint64_t gamesThisRun() const { return finished_; }

 private:
  void writeCheckpoint(const DatabaseStore::Snapshot& snapshot, std::ostream& log) {
    std::string error;
    if (!run_.store->write(snapshot, error)) log << "checkpoint failed: " << error << "\n";
  }

  void report(std::ostream& log, std::chrono::steady_clock::time_point start) {
    std::lock_guard<std::mutex> g(lock_);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double perHour = seconds > 0 ? finished_ * 3600.0 / seconds : 0;
    int depth = 0;  // deepest position with at least 10 games
    for (const auto& [key, stats] : db_.map())
      if (stats.games() >= 10) depth = std::max(depth, popcount(key.mine | key.theirs));
    double eta = -1;
    if (run_.targetGames && perHour > 0)
      eta = (run_.targetGames > db_.games() ? run_.targetGames - db_.games() : 0) * 3600.0 / perHour;
    if (run_.hours > 0) eta = eta < 0 ? run_.hours * 3600 - seconds : std::min(eta, run_.hours * 3600 - seconds);
    const std::time_t now = std::time(nullptr);
    const std::string etaText =
        eta < 0 ? "-" : hoursMinutes(eta) + " (at " + clockTime(now + std::time_t(eta)) + ")";
    char line[400];
    std::snprintf(line, sizeof line,
                  "%s games %llu (+%llu this run%s%s), %.0f games/h, positions %zu, depth(>=10 games) %d stones, "
                  "in-book %.1f plies/game, proof conflicts %llu, elapsed %s, ETA %s\n",
                  clockTime(now).c_str(), (unsigned long long)db_.games(), (unsigned long long)finished_,
                  run_.targetGames ? ", target " : "", run_.targetGames ? std::to_string(run_.targetGames).c_str() : "",
                  perHour, db_.positions(), depth, finished_ ? double(bookPliesSum_) / finished_ : 0.0,
                  (unsigned long long)db_.proofConflicts(), hoursMinutes(seconds).c_str(), etaText.c_str());
    log << line << std::flush;
  }

  Database& db_;
  SelfPlayOptions play_;
  GeneratorOptions run_;
  EngineFactory factory_;
  std::mutex lock_, waitLock_;
  std::condition_variable wake_;
  uint64_t nextGame_ = 0, finished_ = 0, bookPliesSum_ = 0;
};

}  // namespace yav::book
