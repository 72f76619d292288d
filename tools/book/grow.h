// Growing the search-valued book (graph.h): each step samples a line from the book the way games
// would go, and gives the first position on it that has no verdict its own deep search.
//
// The line is sampled from the roots both sides meet: the empty board (the bot moves first) or a
// random first stone (the bot moves second). At each expanded position the mover's move is drawn
// by Thompson sampling over the minimaxed estimates (each move's value drawn within its bounds), so
// the best move is followed most, moves within reach of its upper bound now and then, and a line
// that looks bad is retried while its bounds allow it to be good. On the bot's own turns a share
// of the moves is its current book move instead (choose.h): only positions reached by the book's
// own moves ship, so most searches go where the book will play. On the opponent's turns the
// moves are drawn from choose.h's opponent model (mostly the deep search's visit shares, some
// evenly over the sensible moves, so that weaker or randomised opponents are covered too), and a
// share by Thompson sampling, to look for refutations the search underrated.
//
// Threads each run their own deep search; only picking a line and storing a verdict hold the lock,
// so nothing serialises the searches. Positions being searched are marked, so no two threads
// search the same one.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <ctime>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <random>
#include <string>
#include <thread>
#include <unordered_set>
#include <vector>

#include "tools/book/choose.h"
#include "tools/book/db_store.h"
#include "tools/book/engine.h"
#include "tools/book/files.h"
#include "tools/book/graph.h"

namespace yav::book {

// A seed of its own for each of a run's items (a thread's lines, a position's search).
inline uint64_t mixSeed(uint64_t a, uint64_t b) { return mix64(a * kGoldenGamma + b + 0x632BE59BD9B4E019ull); }

// "2h 05m" (minutes rounded down): the progress line's elapsed time and ETA.
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

// The shard of `shards` that searches a canonical position: a fixed hash of its key, the same on
// every machine and build.
inline uint64_t shardOf(const PositionKey& key, uint64_t shards) {
  return mix64(mix64(key.mine ^ uint64_t(key.stealAvailable)) ^ key.theirs) % std::max<uint64_t>(1, shards);
}

// One deep evaluation of a board (moves in its orientation); one per thread.
using Evaluator = std::function<DeepVerdict(const Board&, uint64_t seed)>;
using EvaluatorFactory = std::function<Evaluator()>;

struct GrowOptions {
  DeepLimits deep;  // the verdicts' budget, and their key in the database
  int threads = 1;
  uint64_t targetPositions = 0;       // stop when the book holds this many expanded positions (0: no target)
  double hours = 0;                   // stop after this long (0: no limit)
  int maxPlies = 30;                  // lines are not followed deeper than this
  double bookMoveShare = 0.9;         // the bot's moves that follow its book move (the rest: Thompson)
  double opponentExploreShare = 0.1;  // the opponent's moves drawn by Thompson (the rest: the model)
  GameModel model;                    // how lines start and how the opponent replies (shared with the packer)
  // The book that ships now, or none: the bot's book moves in the lines are the packer's, which
  // keeps a shipped move until it is clearly beaten (packedMove), so the growth expands what ships.
  std::shared_ptr<const OpeningBook> shipped;
  GraphOptions graph;
  uint64_t checkpointEvery = 100;  // positions between saves
  double progressSeconds = 30;
  std::shared_ptr<const DatabaseStore> store;  // checkpoints go here (temporary file + rename); none: never saved
  uint64_t seed = 1;
  // Shard `shard` of `shards` (0-based) searches only the positions whose key hashes to it
  // (shardOf), so that machines growing the same database search disjoint positions.
  uint64_t shard = 0, shards = 1;
  // Every line starts at this position, the bot either side (bookgen run --moves): growth aimed
  // at one opening. None: the model's starts (drawStart).
  std::optional<Board> root;
  GrowOptions() {
    deep.iterations = 200000;
    deep.timeMs = 0;
    deep.nodes = kDefaultNodes;
  }
};

inline EvaluatorFactory deepEvaluatorFactory(const DeepLimits& limits) {
  return [limits] {
    auto searcher = std::make_shared<DeepSearcher>(limits);
    return Evaluator([searcher](const Board& b, uint64_t seed) { return searcher->evaluate(b, seed); });
  };
}

class Grower {
 public:
  Grower(Database& db, GrowOptions options, EvaluatorFactory factory)
      : db_(db), opt_(std::move(options)), factory_(std::move(factory)),
        graph_(BookGraph::fromDatabase(db, opt_.deep.key(), opt_.graph)), startSize_(graph_.size()) {}

  const BookGraph& graph() const { return graph_; }
  uint64_t expandedThisRun() const { return expanded_; }

  // The next position to expand (canonical key), or nothing when the sampled lines all end in
  // finished, too deep or busy positions, or proven ones (lost for the bot where the opponent's
  // search finds the win, or won where the bot's own search finds it: searchFindsWin). The caller
  // holds the lock (or is alone).
  std::optional<PositionKey> pickLeaf(std::mt19937_64& rng, int* plies = nullptr) const {
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    for (int attempt = 0; attempt < 64; ++attempt) {
      const LineStart start = opt_.root ? startAt(*opt_.root, rng) : drawStart(opt_.model, rng);
      Board b = start.board;
      const int botSide = start.botSide;
      int ply = b.stoneCount();  // no steal among the random plies
      for (;; ++ply) {
        const Canonical frame = canonicalize(b);
        const BookGraph::Node* node = graph_.find(frame.key);
        if (!node) {
          if (busy_.count(frame.key) || shardOf(frame.key, opt_.shards) != opt_.shard) break;
          if (plies) *plies = ply;
          return frame.key;
        }
        if (ply >= opt_.maxPlies) break;
        const bool opponent = ply % 2 != botSide;
        const BookGraph::Move* m = nullptr;
        if (node->estimate.proof != Proof::Unknown) {
          // A proven position is followed only where its winner's own search would not find the
          // win in time: the bot then plays the winning move, the opponent plays on as it would
          // (modelReply). The bot's lost positions end the line: the book has no move there.
          const bool botWins = node->estimate.proof == (opponent ? Proof::Loss : Proof::Win);
          const bool winnerFindsIt = searchFindsWin(*node, opt_.model.findsWinVisits);
          if (opponent ? !botWins && winnerFindsIt : !botWins || winnerFindsIt) break;
          m = opponent ? modelReply(*node, rng) : packedMove(*node, frame.key, opt_.shipped.get());
        } else {
          const double draw = uniform(rng);
          m = opponent && draw >= opt_.opponentExploreShare ? modelReply(*node, rng)
              : !opponent && draw < opt_.bookMoveShare      ? packedMove(*node, frame.key, opt_.shipped.get())
                                                            : thompson(*node, rng);
        }
        if (!m || m->ends != Outcome::None) break;
        b.play(frame.fromCanonical(m->move));
      }
    }
    return std::nullopt;
  }

  // Stores a verdict (canonical moves of `key`) and updates the estimates it changes. Caller holds
  // the lock.
  void store(const PositionKey& key, const DeepVerdict& verdict) {
    db_.setVerdict(opt_.deep.key(), key, verdict);
    graph_.add(key, verdict, db_.find(key));
    graph_.update(key);
  }

  bool run(std::atomic<bool>& stop, std::ostream& log, std::string& error) {
    using Clock = std::chrono::steady_clock;
    start_ = Clock::now();
    const uint64_t runSeed = db_.hasCurrentRun() ? db_.currentRun().seed : opt_.seed;
    std::atomic<int> running{std::max(1, opt_.threads)};
    auto timeUp = [&] {
      return opt_.hours > 0 && std::chrono::duration<double>(Clock::now() - start_).count() >= opt_.hours * 3600;
    };
    auto targetReached = [&] { return opt_.targetPositions && graph_.size() >= opt_.targetPositions; };
    auto worker = [&](int thread) {
      Evaluator evaluate = factory_();
      std::mt19937_64 rng(mixSeed(runSeed, uint64_t(thread) + 0x5EED));
      int idle = 0;
      while (!stop.load()) {
        PositionKey key;
        uint64_t index = 0;
        int plies = 0;
        bool found = false;
        {
          std::lock_guard<std::mutex> g(lock_);
          if (targetReached() || timeUp() || exhausted_) break;
          if (const std::optional<PositionKey> leaf = pickLeaf(rng, &plies)) {
            found = true;
            idle = 0;
            key = *leaf;
            busy_.insert(key);
            index = next_++;
          } else if (busy_.empty() && ++idle > 20) {
            // Nothing to expand, and no search running that could open a new line.
            exhausted_ = true;
            break;
          }
        }
        if (!found) {
          std::this_thread::sleep_for(std::chrono::milliseconds(50));
          continue;
        }
        const Board board = boardOf(key);
        const DeepVerdict verdict = canonicalVerdict(evaluate(board, mixSeed(runSeed, index)), board);
        DatabaseStore::Snapshot snapshot;
        {
          std::lock_guard<std::mutex> g(lock_);
          busy_.erase(key);
          store(key, verdict);  // a finished search is kept even after a stop request
          ++expanded_;
          deepestPly_ = std::max(deepestPly_, plies);
          // A copy, encoded outside the lock, where the other threads do not wait for it: at
          // 124,000 positions copying takes 0.05 s and encoding 0.85 s.
          if (opt_.checkpointEvery && expanded_ % opt_.checkpointEvery == 0 && opt_.store)
            snapshot = opt_.store->snapshot(db_);
        }
        if (snapshot.db) writeCheckpoint(snapshot, log);
      }
      --running;
      wake_.notify_all();
    };
    std::vector<std::thread> threads;
    for (int t = 0; t < std::max(1, opt_.threads); ++t) threads.emplace_back(worker, t);
    auto lastReport = Clock::now();
    {
      std::unique_lock<std::mutex> g(waitLock_);
      while (running.load() > 0) {
        wake_.wait_for(g, std::chrono::milliseconds(200));
        if (std::chrono::duration<double>(Clock::now() - lastReport).count() >= opt_.progressSeconds) {
          report(log);
          lastReport = Clock::now();
        }
      }
    }
    for (auto& t : threads) t.join();
    report(log);
    if (exhausted_)
      log << "no position left to expand within " << opt_.maxPlies << " plies (every line is proven or busy)\n";
    if (opt_.store) {
      std::lock_guard<std::mutex> g(lock_);
      if (!opt_.store->save(db_, error)) return false;
      log << "saved " << opt_.store->target() << " (" << graph_.size() << " book positions, " << db_.games()
          << " games)\n";
    }
    return true;
  }

 private:
  static double normal(std::mt19937_64& rng) { return std::normal_distribution<double>(0.0, 1.0)(rng); }

  // Thompson sampling: each open move's value drawn from its estimate (standard error from its bounds).
  const BookGraph::Move* thompson(const BookGraph::Node& node, std::mt19937_64& rng) const {
    const BookGraph::Move* best = nullptr;
    double bestSample = -1e9;
    for (const BookGraph::Move& m : node.moves) {
      const Estimate& e = m.estimate;
      if (e.proof != Proof::Unknown) continue;
      const double sd = (e.upper - e.lower) / (2 * opt_.graph.z);
      const double sample = e.mean + sd * normal(rng);
      if (sample > bestSample) bestSample = sample, best = &m;
    }
    return best;
  }
  // The opponent's reply drawn from the game model (choose.h), as the packer weighs it.
  const BookGraph::Move* modelReply(const BookGraph::Node& node, std::mt19937_64& rng) const {
    double draw = std::uniform_real_distribution<double>(0.0, 1.0)(rng);
    const std::vector<std::pair<Cell, double>> replies = replyDistribution(graph_, node.key, opt_.model);
    for (const auto& [move, p] : replies) {
      if ((draw -= p) > 0 && &move != &replies.back().first) continue;
      for (const BookGraph::Move& m : node.moves)
        if (m.move == move) return &m;
    }
    return nullptr;
  }

  void writeCheckpoint(const DatabaseStore::Snapshot& snapshot, std::ostream& log) {
    std::string error;
    if (!opt_.store->write(snapshot, error)) log << "checkpoint failed: " << error << "\n";
  }

  void report(std::ostream& log) {
    std::lock_guard<std::mutex> g(lock_);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const double perHour = seconds > 0 ? expanded_ * 3600.0 / seconds : 0;
    double eta = -1;
    if (opt_.targetPositions && perHour > 0)
      eta = double(opt_.targetPositions > graph_.size() ? opt_.targetPositions - graph_.size() : 0) * 3600.0 / perHour;
    if (opt_.hours > 0) eta = eta < 0 ? opt_.hours * 3600 - seconds : std::min(eta, opt_.hours * 3600 - seconds);
    size_t proven = 0;
    for (const BookGraph::Node& n : graph_.nodes()) proven += n.estimate.proof != Proof::Unknown;
    std::string first = "-";
    if (const BookGraph::Node* root = graph_.find(PositionKey{}))
      if (const BookGraph::Move* m = packedMove(*root, PositionKey{}, opt_.shipped.get())) {
        char text[96];
        std::snprintf(text, sizeof text, "%s (%.3f, bounds %.3f..%.3f)", cellName(m->move).c_str(), m->estimate.mean,
                      m->estimate.lower, m->estimate.upper);
        first = text;
      }
    const std::time_t now = std::time(nullptr);
    char line[512];
    std::snprintf(
        line, sizeof line,
        "%s positions %zu (+%llu this run%s%s), %.0f positions/h, %zu searching, %zu proven, deepest %d plies, "
        "first move %s, elapsed %s, ETA %s\n",
        clockTime(now).c_str(), graph_.size(), (unsigned long long)expanded_, opt_.targetPositions ? ", target " : "",
        opt_.targetPositions ? std::to_string(opt_.targetPositions).c_str() : "", perHour, busy_.size(), proven,
        deepestPly_, first.c_str(), hoursMinutes(seconds).c_str(),
        eta < 0 ? "-" : (hoursMinutes(eta) + " (at " + clockTime(now + std::time_t(eta)) + ")").c_str());
    log << line << std::flush;
  }

  Database& db_;
  GrowOptions opt_;
  EvaluatorFactory factory_;
  BookGraph graph_;
  size_t startSize_ = 0;
  std::unordered_set<PositionKey, PositionKeyHash> busy_;  // being searched
  uint64_t expanded_ = 0, next_ = 0;
  int deepestPly_ = 0;
  bool exhausted_ = false;
  std::chrono::steady_clock::time_point start_;
  std::mutex lock_, waitLock_;
  std::condition_variable wake_;
};

}  // namespace yav::book
