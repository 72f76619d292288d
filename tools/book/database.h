// The opening-book database: statistics per (canonical position, move) gathered by self-play,
// proven results, and the versioned binary file that holds them (format in docs/book.md).
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "symmetry.h"

namespace yav::book {

// A proven result for the player to move (of a position) or for the player making a move.
enum class MoveProof : uint8_t { Unknown = 0, Win = 1, Loss = 2 };

struct MoveStats {
  Cell move = kNoCell;  // in the canonical orientation, smallest of its images under the position's own symmetries
  MoveProof proof = MoveProof::Unknown;
  uint32_t games = 0;
  uint32_t halfPoints = 0;  // 2 per win, 1 per draw, for the player making the move
  double winRate() const { return games ? halfPoints / (2.0 * games) : 0.5; }
};

struct PositionStats {
  MoveProof proof = MoveProof::Unknown;
  std::vector<MoveStats> moves;

  const MoveStats* find(Cell m) const {
    for (const auto& s : moves)
      if (s.move == m) return &s;
    return nullptr;
  }
  MoveStats& get(Cell m) {
    for (auto& s : moves)
      if (s.move == m) return s;
    moves.push_back(MoveStats{m, MoveProof::Unknown, 0, 0});
    return moves.back();
  }
  uint64_t games() const {
    uint64_t n = 0;
    for (const auto& s : moves) n += s.games;
    return n;
  }
};

// A board as the database sees it (from the mover's view); the player numbers are irrelevant to
// the rules apart from the steal, so this board is equivalent to any board with that key.
inline Board boardOf(const PositionKey& k) {
  return k.stealAvailable ? Board::fromStones(k.theirs, k.mine, 1) : Board::fromStones(k.mine, k.theirs, 0);
}

// One played move: the position before it, the move, and the engine's proofs for moves of that
// position (actual orientation, from the mover's view).
struct PlyRecord {
  Board before;
  Cell move = kNoCell;
  std::vector<std::pair<Cell, MoveProof>> proofs;
};
// A finished game: its last move ends it, which gives the result.
struct GameRecord {
  std::vector<PlyRecord> plies;
  // The result counts for the moves from this ply on. Earlier moves were followed by a random
  // move, so the result says little about them (their proofs are still kept).
  size_t countFrom = 0;
};

class Database {
 public:
  using Map = std::unordered_map<PositionKey, PositionStats, PositionKeyHash>;

  uint64_t games() const { return games_; }
  size_t positions() const { return map_.size(); }
  uint64_t proofConflicts() const { return conflicts_; }
  const Map& map() const { return map_; }
  const PositionStats* find(const PositionKey& canonicalKey) const {
    auto it = map_.find(canonicalKey);
    return it == map_.end() ? nullptr : &it->second;
  }
  // For hand-made databases (tests) and merging: the entry of a canonical position.
  PositionStats& at(const PositionKey& canonicalKey) { return map_[canonicalKey]; }
  void setGames(uint64_t n) { games_ = n; }

  // Adds a finished game: every position of its first `storePlies` plies (from `countFrom` on) gets
  // the game's result for the move played there, then proofs are propagated from the end of the
  // game to its start.
  // False (and nothing added) when the game's last move does not end it.
  bool addGame(const GameRecord& game, int storePlies) {
    const size_t n = game.plies.size();
    if (n == 0) return false;
    const Outcome last = game.plies.back().before.outcomeOf(game.plies.back().move);
    if (last == Outcome::None) return false;
    // Half points of the player who made the last move: 2 for a win, 1 for a draw, 0 for a loss.
    const uint32_t lastMoverHalf = last == Outcome::Win ? 2 : last == Outcome::Draw ? 1 : 0;
    const int lastMover = game.plies.back().before.toMove();
    std::vector<PositionStats> transient(n);
    std::vector<PositionStats*> rec(n);
    std::vector<Canonical> frames;
    frames.reserve(n);
    for (size_t i = 0; i < n; ++i) {
      const PlyRecord& ply = game.plies[i];
      frames.push_back(canonicalize(ply.before));
      rec[i] = int(i) < storePlies ? &map_[frames[i].key] : &transient[i];
      MoveStats& played = rec[i]->get(frames[i].toCanonical(ply.move));
      if (i >= game.countFrom) {
        played.games += 1;
        played.halfPoints += ply.before.toMove() == lastMover ? lastMoverHalf : 2 - lastMoverHalf;
      }
      const Outcome o = ply.before.outcomeOf(ply.move);
      if (o == Outcome::Win) setProof(played, MoveProof::Win);
      if (o == Outcome::Loss) setProof(played, MoveProof::Loss);
      for (const auto& [cell, proof] : ply.proofs)  // a move making our own 3 needs no record: the rules prove it
        if (ply.before.outcomeOf(cell) != Outcome::Loss) setProof(rec[i]->get(frames[i].toCanonical(cell)), proof);
    }
    for (size_t i = n; i-- > 0;) {
      if (i + 1 < n) childProved(rec[i]->get(frames[i].toCanonical(game.plies[i].move)), rec[i + 1]->proof);
      rec[i]->proof = derivedProof(*rec[i], game.plies[i].before, frames[i]);
    }
    ++games_;
    return true;
  }

  // Adds up another database (statistics summed, proofs united), then propagates proofs.
  void merge(const Database& other) {
    for (const auto& [key, stats] : other.map_) {
      PositionStats& mine = map_[key];
      if (stats.proof != MoveProof::Unknown) mine.proof = stats.proof;
      for (const auto& s : stats.moves) {
        MoveStats& m = mine.get(s.move);
        m.games += s.games;
        m.halfPoints += s.halfPoints;
        setProof(m, s.proof);
      }
    }
    games_ += other.games_;
    propagateProofs();
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
          if (m.proof != MoveProof::Unknown || next.play(m.move) != Outcome::None) continue;
          if (const PositionStats* child = find(canonicalize(next).key)) {
            childProved(m, child->proof);
            changed |= m.proof != MoveProof::Unknown;
          }
        }
        const MoveProof p = derivedProof(stats, b, frame);
        changed |= p != stats.proof;
        stats.proof = p;
      }
    }
  }

  // ---- the file ----
  std::string serialize() const {
    std::vector<const Map::value_type*> order;
    order.reserve(map_.size());
    for (const auto& e : map_) order.push_back(&e);
    std::sort(order.begin(), order.end(), [](auto* a, auto* b) { return a->first < b->first; });
    std::string out(kMagic, 8);
    put(out, kVersion, 4);
    put(out, games_, 8);
    put(out, order.size(), 8);
    for (const auto* e : order) {
      put(out, e->first.mine, 8);
      put(out, e->first.theirs, 8);
      put(out, unsigned(e->first.stealAvailable) | unsigned(e->second.proof) << 1, 1);
      put(out, e->second.moves.size(), 1);
      for (const auto& m : e->second.moves) {
        put(out, uint64_t(m.move) | uint64_t(m.proof) << 6, 1);
        putVarint(out, m.games);
        putVarint(out, m.halfPoints);
      }
    }
    put(out, checksum(out), 8);
    return out;
  }

  // Parses a whole file image; `name` is used in error messages. On error the database is empty.
  bool deserialize(const std::string& bytes, const std::string& name, std::string& error) {
    map_.clear();
    games_ = 0;
    Reader in{bytes, 0};
    auto fail = [&](const std::string& what, size_t at) {
      error = name + ": " + what + " at byte " + std::to_string(at);
      map_.clear();
      games_ = 0;
      return false;
    };
    if (bytes.size() < 8 || bytes.compare(0, 8, kMagic, 8) != 0) return fail("not a book database (bad magic)", 0);
    in.pos = 8;
    uint64_t version = 0, games = 0, count = 0;
    if (!in.get(version, 4) || !in.get(games, 8) || !in.get(count, 8)) return fail("file truncated in the header", in.pos);
    if (version != kVersion) return fail("unsupported version " + std::to_string(version), 8);
    for (uint64_t i = 0; i < count; ++i) {
      const size_t start = in.pos;
      const std::string where = " (position " + std::to_string(i) + " of " + std::to_string(count) + ")";
      uint64_t mine = 0, theirs = 0, flags = 0, moves = 0;
      if (!in.get(mine, 8) || !in.get(theirs, 8) || !in.get(flags, 1) || !in.get(moves, 1))
        return fail("file truncated" + where, in.pos);
      PositionKey key{mine, theirs, bool(flags & 1)};
      if ((mine & theirs) || ((mine | theirs) & ~kFullBoard) || flags > 5 || moves == 0 || moves > kCells)
        return fail("invalid position record" + where, start);
      if (canonicalize(key).key != key) return fail("position not in canonical form" + where, start);
      PositionStats& stats = map_[key];
      if (!stats.moves.empty()) return fail("duplicate position" + where, start);
      stats.proof = MoveProof(flags >> 1);
      const Board b = boardOf(key);
      for (uint64_t j = 0; j < moves; ++j) {
        const size_t moveStart = in.pos;
        uint64_t cellAndProof = 0, g = 0, half = 0;
        if (!in.get(cellAndProof, 1) || !in.varint(g) || !in.varint(half)) return fail("file truncated" + where, in.pos);
        const uint64_t cell = cellAndProof & 63, proof = cellAndProof >> 6;
        if (!b.isLegal(Cell(cell)) || proof > 2 || g > UINT32_MAX || half > 2 * g || stats.find(Cell(cell)))
          return fail("invalid move record" + where, moveStart);
        stats.moves.push_back(MoveStats{Cell(cell), MoveProof(proof), uint32_t(g), uint32_t(half)});
      }
    }
    const size_t end = in.pos;
    uint64_t sum = 0;
    if (!in.get(sum, 8)) return fail("file truncated before the checksum", in.pos);
    if (in.pos != bytes.size()) return fail("unexpected data after the checksum", in.pos);
    if (sum != checksum(bytes.substr(0, end))) return fail("checksum mismatch (file corrupt)", end);
    games_ = games;
    return true;
  }

  bool load(const std::string& path, std::string& error) {
    std::ifstream f(path, std::ios::binary);
    if (!f) {
      error = path + ": cannot open";
      return false;
    }
    std::stringstream ss;
    ss << f.rdbuf();
    return deserialize(ss.str(), path, error);
  }

  // Writes a temporary file next to `path`, syncs it and renames it over `path`, so that an
  // interrupted write never leaves a partial database behind.
  bool save(const std::string& path, std::string& error) const { return writeAtomically(path, serialize(), error); }
  static bool writeAtomically(const std::string& path, const std::string& bytes, std::string& error) {
    const std::string tmp = path + ".tmp";
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
      error = tmp + ": cannot create";
      return false;
    }
    size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t w = ::write(fd, bytes.data() + done, bytes.size() - done);
      if (w <= 0) break;
      done += size_t(w);
    }
    const bool ok = done == bytes.size() && ::fsync(fd) == 0;
    ::close(fd);
    if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
      error = path + ": write failed";
      std::remove(tmp.c_str());
      return false;
    }
    return true;
  }

 private:
  static constexpr const char* kMagic = "YAVBOOK\n";
  static constexpr uint64_t kVersion = 1;

  struct Reader {
    const std::string& bytes;
    size_t pos;
    bool get(uint64_t& v, int size) {
      if (pos + size_t(size) > bytes.size()) return false;
      v = 0;
      for (int i = 0; i < size; ++i) v |= uint64_t(uint8_t(bytes[pos + i])) << (8 * i);
      pos += size_t(size);
      return true;
    }
    bool varint(uint64_t& v) {  // 7 bits per byte, low first; at most 5 bytes (32-bit values)
      v = 0;
      for (int shift = 0; shift < 35; shift += 7) {
        if (pos >= bytes.size()) return false;
        const uint8_t b = uint8_t(bytes[pos++]);
        v |= uint64_t(b & 127) << shift;
        if (!(b & 128)) return true;
      }
      return false;
    }
  };
  static void putVarint(std::string& out, uint64_t v) {
    for (; v >= 128; v >>= 7) out.push_back(char((v & 127) | 128));
    out.push_back(char(v));
  }
  static void put(std::string& out, uint64_t v, int size) {
    for (int i = 0; i < size; ++i) out.push_back(char(v >> (8 * i) & 0xFF));
  }
  static uint64_t checksum(const std::string& bytes) {  // FNV-1a
    uint64_t h = 0xCBF29CE484222325ull;
    for (unsigned char c : bytes) h = (h ^ c) * 0x100000001B3ull;
    return h;
  }

  // The first proof wins; a contradicting one is only counted (it would mean a wrong proof).
  void setProof(MoveStats& m, MoveProof p) {
    if (p == MoveProof::Unknown || m.proof == p) return;
    if (m.proof == MoveProof::Unknown) m.proof = p;
    else ++conflicts_;
  }
  // A move into a position that is lost for the opponent wins, and vice versa.
  void childProved(MoveStats& m, MoveProof child) {
    if (child == MoveProof::Win) setProof(m, MoveProof::Loss);
    if (child == MoveProof::Loss) setProof(m, MoveProof::Win);
  }
  // Won when one move is a proven win; lost when every legal move (up to symmetry) is a proven loss
  // or makes our own 3.
  static MoveProof derivedProof(const PositionStats& s, const Board& b, const Canonical& frame) {
    size_t lost = 0;
    for (const auto& m : s.moves) {
      if (m.proof == MoveProof::Win) return MoveProof::Win;
      lost += m.proof == MoveProof::Loss;
    }
    if (lost == 0) return MoveProof::Unknown;
    for (Bitboard legal = b.legalMoves(); legal;) {
      const Cell c = popLowest(legal);
      const MoveStats* m = s.find(frame.toCanonical(c));
      if ((!m || m->proof != MoveProof::Loss) && b.outcomeOf(c) != Outcome::Loss) return MoveProof::Unknown;
    }
    return MoveProof::Loss;
  }

  Map map_;
  uint64_t games_ = 0;
  uint64_t conflicts_ = 0;
};

}  // namespace yav::book
