// The opening-book database: the deep searches' verdicts per engine key (what the search-valued
// book is made of, graph.h), proofs per (canonical position, move), and game statistics per
// (canonical position, move), kept per run so that databases merge without counting a game twice.
// The games are those of the self-play generator the book had before (`bookgen games`, since
// removed): the committed database holds some, and the book's leaves still pool them with
// the search values. The file that holds it is in db_file.h (format in docs/book.md).
#pragma once

#include <algorithm>
#include <chrono>
#include <map>
#include <cstdint>
#include <random>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "rng.h"
#include "symmetry.h"

namespace yav::book {

// Proofs (result.h) are stored for the player to move (PositionStats) or for the player making
// the move (MoveStats, DeepMove), and only as Unknown, Win or Loss (two bits in the file).

// One run's share of a move's statistics; `run` indexes Database::runs().
struct RunCount {
  uint32_t run = 0;
  uint32_t games = 0;
  uint32_t halfPoints = 0;
};

struct MoveStats {
  Cell move = kNoCell;  // canonical move (Canonical::toCanonical)
  Proof proof = Proof::Unknown;
  uint32_t games = 0;       // the sums over `runs`
  uint32_t halfPoints = 0;  // 2 per win, 1 per draw, for the player making the move
  std::vector<RunCount> runs;
  double winRate() const { return games ? halfPoints / (2.0 * games) : 0.5; }

  RunCount& of(uint32_t run) {
    for (auto& r : runs)
      if (r.run == run) return r;
    runs.push_back({run, 0, 0});
    return runs.back();
  }
  void add(uint32_t run, uint32_t g, uint32_t half) {
    RunCount& r = of(run);
    r.games += g, r.halfPoints += half;
    games += g, halfPoints += half;
  }
};

// One invocation of a writer (bookgen run, prove, audit; the games' generator before). A run has
// a single writer (the database lock) and only grows, so of two copies of the same run the one
// with more games contains the other: that is what makes merging exact.
struct RunInfo {
  uint64_t id = 0;          // random, distinct per run
  uint64_t games = 0;       // games this run added
  uint64_t seed = 0;        // the run's base seed (each game mixes it with its number)
  int64_t startedUnix = 0;  // wall-clock start, seconds since 1970
  std::string engine;       // engine version string
  std::string parameters;   // the writer's settings, "grow iterations=200000 threads=2 ..."
};

// A 64-bit value that differs between runs: clock, pid-like address entropy and random_device.
inline uint64_t freshRandom64() {
  static uint64_t counter = 0;
  std::random_device device;
  uint64_t z = uint64_t(std::chrono::high_resolution_clock::now().time_since_epoch().count()) ^
               (uint64_t(device()) << 32 | device()) ^ (++counter * kGoldenGamma) ^ uint64_t(uintptr_t(&counter));
  return mix64(z);
}

struct PositionStats {
  Proof proof = Proof::Unknown;
  std::vector<MoveStats> moves;

  const MoveStats* find(Cell m) const {
    for (const auto& s : moves)
      if (s.move == m) return &s;
    return nullptr;
  }
  MoveStats& get(Cell m) {
    for (auto& s : moves)
      if (s.move == m) return s;
    moves.push_back(MoveStats{m, Proof::Unknown, 0, 0, {}});
    return moves.back();
  }
  uint64_t games() const {
    uint64_t n = 0;
    for (const auto& s : moves) n += s.games;
    return n;
  }
};

// The value a proof gives its move: 1 for a proven win, 0 for a proven loss, 0.5 otherwise.
inline float provenValue(Proof p) { return p == Proof::Win ? 1.0f : p == Proof::Loss ? 0.0f : 0.5f; }

// A deep search's verdict on a position (canonical moves): every root move's value and proof for
// the player to move, and the move it would play. Cached per engine key (engine version + budget).
struct DeepMove {
  Cell move = kNoCell;
  float value = 0.5f;
  Proof proof = Proof::Unknown;
  uint32_t visits = 0;  // the search's visits of the move: how far its value can be trusted (0: unknown)
};
// A verdict that names no run: made before the file recorded runs in verdicts (the committed
// database holds such verdicts, migrated from its older files), or stored outside a run (tests).
constexpr uint32_t kUnknownRun = UINT32_MAX;
struct DeepVerdict {
  Cell best = kNoCell;
  uint32_t run = kUnknownRun;  // index of the run whose search made it (drop-run leaves it out)
  std::vector<DeepMove> moves;
  const DeepMove* find(Cell m) const {
    for (const auto& d : moves)
      if (d.move == m) return &d;
    return nullptr;
  }
};
using VerdictMap = std::unordered_map<PositionKey, DeepVerdict, PositionKeyHash>;

// The moves of a verdict that carry a proof. Proofs only accumulate: of two verdicts of one
// position (two segments, two merged databases), the one with more proven moves is kept, so that
// a proof found later (bookgen prove upgrading a searched position) is never lost to the search's
// verdict it completes.
inline size_t provenMoves(const DeepVerdict& v) {
  size_t n = 0;
  for (const DeepMove& m : v.moves) n += m.proof != Proof::Unknown;
  return n;
}

// A board as the database sees it (from the mover's view); the player numbers are irrelevant to
// the rules apart from the steal, so this board is equivalent to any board with that key.
inline Board boardOf(const PositionKey& k) {
  return k.stealAvailable ? Board::fromStones(k.theirs, k.mine, 1) : Board::fromStones(k.mine, k.theirs, 0);
}

// One played move: the position before it, the move, and the engine's proofs for moves of that
// position (actual orientation, from the mover's view). Games enter a database only through
// addGame, and since the generator was removed only the tests play them (to build databases with
// game statistics: merging, dropping a run, files).
struct PlyRecord {
  Board before;
  Cell move = kNoCell;
  std::vector<std::pair<Cell, Proof>> proofs;
};
// A finished game: its last move ends it, which gives the result.
struct SelfPlayGame {
  std::vector<PlyRecord> plies;
  // The result counts for the moves from this ply on. Earlier moves were followed by a random
  // move, so the result says little about them (their proofs are still kept).
  size_t countFrom = 0;
};

class Database {
 public:
  using Map = std::unordered_map<PositionKey, PositionStats, PositionKeyHash>;

  uint64_t games() const {
    uint64_t n = 0;
    for (const auto& r : runs_) n += r.games;
    return n;
  }
  size_t positions() const { return map_.size(); }
  const std::vector<RunInfo>& runs() const { return runs_; }
  // Appends a run (the file reader, merging) and returns its index; no current run changes.
  uint32_t addRun(const RunInfo& run) {
    runs_.push_back(run);
    return uint32_t(runs_.size() - 1);
  }
  // Starts the run that addGame and setVerdict count into (a fresh id when `run.id` is 0).
  uint32_t beginRun(RunInfo run) {
    if (run.id == 0) run.id = freshRandom64();
    run.games = 0;
    current_ = int(addRun(run));
    return uint32_t(current_);
  }
  bool hasCurrentRun() const { return current_ >= 0; }
  const RunInfo& currentRun() const { return runs_[size_t(current_)]; }
  uint64_t proofConflicts() const { return conflicts_; }
  const Map& map() const { return map_; }
  const PositionStats* find(const PositionKey& canonicalKey) const {
    auto it = map_.find(canonicalKey);
    return it == map_.end() ? nullptr : &it->second;
  }
  // For hand-made databases (tests) and merging: the entry of a canonical position.
  PositionStats& at(const PositionKey& canonicalKey) { return map_[canonicalKey]; }

  // Deep-search verdicts by engine key, then canonical position.
  const std::map<std::string, VerdictMap>& verdicts() const { return verdicts_; }
  const DeepVerdict* verdict(const std::string& engineKey, const PositionKey& key) const {
    auto e = verdicts_.find(engineKey);
    if (e == verdicts_.end()) return nullptr;
    auto it = e->second.find(key);
    return it == e->second.end() ? nullptr : &it->second;
  }
  // A verdict without a run is stamped with the current run, the one whose search made it. Its
  // moves are kept in cell order, the file's, so that a verdict read back is the one stored.
  void setVerdict(const std::string& engineKey, const PositionKey& key, DeepVerdict v) {
    if (v.run == kUnknownRun && current_ >= 0) v.run = uint32_t(current_);
    std::sort(v.moves.begin(), v.moves.end(), [](const DeepMove& a, const DeepMove& b) { return a.move < b.move; });
    verdicts_[engineKey][key] = std::move(v);
  }
  // Verdicts over every engine key: in all, and made by each run (by index; older verdicts have none).
  size_t searchedPositions() const {
    size_t n = 0;
    for (const auto& [engine, entries] : verdicts_) n += entries.size();
    return n;
  }
  std::vector<size_t> verdictsPerRun() const {
    std::vector<size_t> n(runs_.size());
    for (const auto& [engine, entries] : verdicts_)
      for (const auto& [key, v] : entries)
        if (v.run < n.size()) ++n[v.run];
    return n;
  }

  // Adds a finished game to the current run (begun here with a fresh id when there is none): every
  // position of its first `storePlies` plies (from `countFrom` on) gets the game's result for the
  // move played there, then proofs are propagated from the end of the game to its start.
  // False (and nothing added) when the game's last move does not end it.
  bool addGame(const SelfPlayGame& game, int storePlies) {
    const size_t n = game.plies.size();
    if (n == 0) return false;
    const Outcome last = game.plies.back().before.outcomeOf(game.plies.back().move);
    if (last == Outcome::None) return false;
    const int winner = winnerAfter(last, game.plies.back().before.toMove());
    if (current_ < 0) beginRun(RunInfo());
    const uint32_t run = uint32_t(current_);
    std::vector<PositionStats> transient(n);
    std::vector<PositionStats*> rec(n);
    std::vector<Canonical> frames;
    frames.reserve(n);
    for (size_t i = 0; i < n; ++i) {
      const PlyRecord& ply = game.plies[i];
      frames.push_back(canonicalize(ply.before));
      rec[i] = int(i) < storePlies ? &map_[frames[i].key] : &transient[i];
      MoveStats& played = rec[i]->get(frames[i].toCanonical(ply.move));
      if (i >= game.countFrom) played.add(run, 1, halfPoints(winner, ply.before.toMove()));
      const Outcome o = ply.before.outcomeOf(ply.move);
      if (o == Outcome::Win) setProof(played, Proof::Win);
      if (o == Outcome::Loss) setProof(played, Proof::Loss);
      for (const auto& [cell, proof] : ply.proofs)  // a move making our own 3 needs no record: the rules prove it
        if (ply.before.outcomeOf(cell) != Outcome::Loss) setProof(rec[i]->get(frames[i].toCanonical(cell)), proof);
    }
    for (size_t i = n; i-- > 0;) {
      if (i + 1 < n) childProved(rec[i]->get(frames[i].toCanonical(game.plies[i].move)), rec[i + 1]->proof);
      rec[i]->proof = derivedProof(*rec[i], game.plies[i].before, frames[i]);
    }
    ++runs_[run].games;
    return true;
  }

  // Adds the games of `other` that this database lacks. Runs are matched by id; of a run present
  // in both, the copy with more games contains the other (one writer, only growing), so per run
  // and per move the larger count is kept. Merging a database with itself or with an ancestor
  // changes no count; disjoint runs add up. Proofs are united, then propagated (unless
  // `propagate` is false: a caller merging several databases propagates once at the end).
  void merge(const Database& other, bool propagate = true) {
    std::vector<uint32_t> index(other.runs_.size());
    for (size_t i = 0; i < other.runs_.size(); ++i) {
      const RunInfo& theirs = other.runs_[i];
      auto it = std::find_if(runs_.begin(), runs_.end(), [&](const RunInfo& r) { return r.id == theirs.id; });
      if (it == runs_.end()) {
        index[i] = addRun(theirs);
      } else {
        index[i] = uint32_t(it - runs_.begin());
        if (theirs.games > it->games) *it = theirs;
      }
    }
    for (const auto& [key, stats] : other.map_) {
      PositionStats& mine = map_[key];
      if (stats.proof != Proof::Unknown && mine.proof == Proof::Unknown) mine.proof = stats.proof;
      for (const auto& s : stats.moves) {
        MoveStats& m = mine.get(s.move);
        for (const RunCount& r : s.runs) {
          RunCount& ours = m.of(index[r.run]);
          if (r.games <= ours.games) continue;
          m.games += r.games - ours.games;
          m.halfPoints = m.halfPoints - ours.halfPoints + r.halfPoints;
          ours.games = r.games, ours.halfPoints = r.halfPoints;
        }
        setProof(m, s.proof);
      }
    }
    for (const auto& [engine, entries] : other.verdicts_)
      for (const auto& [key, v] : entries) {
        DeepVerdict theirs = v;
        if (v.run != kUnknownRun) theirs.run = index[v.run];
        const auto [it, added] = verdicts_[engine].emplace(key, theirs);
        if (!added && provenMoves(theirs) > provenMoves(it->second)) it->second = std::move(theirs);
      }
    if (propagate) propagateProofs();
  }

  // Leaves out a run's games and deep-search verdicts (e.g. a broken engine's): its counts leave
  // every move, its verdicts the database, and the run the table. Proofs in the game statistics
  // stay: they are facts, whoever found them. Verdicts that name no run (kUnknownRun) stay. False
  // when no run has that id.
  bool dropRun(uint64_t id) {
    auto it = std::find_if(runs_.begin(), runs_.end(), [&](const RunInfo& r) { return r.id == id; });
    if (it == runs_.end()) return false;
    const uint32_t index = uint32_t(it - runs_.begin());
    for (auto& [key, stats] : map_)
      for (MoveStats& m : stats.moves) {
        std::vector<RunCount> kept;
        for (const RunCount& r : m.runs) {
          if (r.run == index) {
            m.games -= r.games, m.halfPoints -= r.halfPoints;
            continue;
          }
          kept.push_back({r.run > index ? r.run - 1 : r.run, r.games, r.halfPoints});
        }
        m.runs = std::move(kept);
      }
    for (auto& [engine, entries] : verdicts_)
      for (auto v = entries.begin(); v != entries.end();) {
        if (v->second.run == index) {
          v = entries.erase(v);
          continue;
        }
        if (v->second.run != kUnknownRun && v->second.run > index) --v->second.run;
        ++v;
      }
    runs_.erase(it);
    if (current_ == int(index))
      current_ = -1;
    else if (current_ > int(index))
      --current_;
    return true;
  }

  // Repeats child -> move -> position proof propagation over the whole database until stable.
  void propagateProofs() {
    for (bool changed = true; changed;) {
      changed = false;
      for (auto& [key, stats] : map_) {
        const Board b = boardOf(key);
        const Canonical frame = canonicalize(b);  // key is canonical: transform 0 is one of the maps onto it
        for (auto& m : stats.moves) {
          Board next = b;
          if (m.proof != Proof::Unknown || next.play(m.move) != Outcome::None) continue;
          if (const PositionStats* child = find(canonicalize(next).key)) {
            childProved(m, child->proof);
            changed |= m.proof != Proof::Unknown;
          }
        }
        const Proof p = derivedProof(stats, b, frame);
        changed |= p != stats.proof;
        stats.proof = p;
      }
    }
  }

 private:
  // The first proof wins; a contradicting one is only counted (it would mean a wrong proof).
  void setProof(MoveStats& m, Proof p) {
    if (p == Proof::Unknown || m.proof == p) return;
    if (m.proof == Proof::Unknown)
      m.proof = p;
    else
      ++conflicts_;
  }
  // A move into a position that is lost for the opponent wins, and vice versa.
  void childProved(MoveStats& m, Proof child) {
    if (child == Proof::Win) setProof(m, Proof::Loss);
    if (child == Proof::Loss) setProof(m, Proof::Win);
  }
  // Won when one move is a proven win; lost when every legal move (up to symmetry) is a proven loss
  // or makes our own 3.
  static Proof derivedProof(const PositionStats& s, const Board& b, const Canonical& frame) {
    size_t lost = 0;
    for (const auto& m : s.moves) {
      if (m.proof == Proof::Win) return Proof::Win;
      lost += m.proof == Proof::Loss;
    }
    if (lost == 0) return Proof::Unknown;
    for (Bitboard legal = b.legalMoves(); legal;) {
      const Cell c = popLowest(legal);
      const MoveStats* m = s.find(frame.toCanonical(c));
      if ((!m || m->proof != Proof::Loss) && b.outcomeOf(c) != Outcome::Loss) return Proof::Unknown;
    }
    return Proof::Loss;
  }

  Map map_;
  std::map<std::string, VerdictMap> verdicts_;
  std::vector<RunInfo> runs_;
  int current_ = -1;  // the run addGame counts into
  uint64_t conflicts_ = 0;
};

}  // namespace yav::book
