// The book database file (format in docs/book.md, the folder of segments in docs/database.md):
// version 7, the runs, the positions with their games and proofs, and the verdicts with their
// visits and the run that made them, range-coded. Only version 7 is read: every segment of the
// committed book/book.db is in it (older versions were migrated, and their readers removed). A
// database is one such file or a folder of them (segments, each a database file of its own, read
// together: loadDatabase in db_folder.h). Loading checks everything and rejects a damaged or
// truncated file with its name and the byte offset, never reading it as a smaller one.
#pragma once

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tools/book/database.h"
#include "tools/book/files.h"
#include "tools/book/range_encoder.h"

namespace yav::book {

constexpr const char* kDatabaseMagic = "YAVBOOK\n";
// 7: the verdicts range-coded, values and visits rounded (dbfile::codeVerdictBody). Versions 1 to
// 6 are history (docs/book.md): no file of them is left to read.
constexpr uint32_t kDatabaseVersion = 7;
// Proofs are written as their enum values (0 unknown, 1 win, 2 loss).
static_assert(int(Proof::Unknown) == 0 && int(Proof::Win) == 1 && int(Proof::Loss) == 2, "file format");

namespace dbfile {

inline void put(std::string& out, uint64_t v, int size) {
  for (int i = 0; i < size; ++i) out.push_back(char(v >> (8 * i) & 0xFF));
}
inline void putVarint(std::string& out, uint64_t v) {  // 7 bits per byte, low first
  for (; v >= 128; v >>= 7) out.push_back(char((v & 127) | 128));
  out.push_back(char(v));
}
inline void putString(std::string& out, const std::string& s) {
  putVarint(out, s.size());
  out += s;
}
// A position record's fixed part (stones, flags, move count) and a move record's first byte.
inline void putPositionHead(std::string& out, const PositionKey& key, const PositionStats& s) {
  put(out, key.mine, 8);
  put(out, key.theirs, 8);
  put(out, unsigned(key.stealAvailable) | unsigned(s.proof) << 1, 1);
  put(out, s.moves.size(), 1);
}
inline void putMoveHead(std::string& out, const MoveStats& m) {
  put(out, uint64_t(m.move) | uint64_t(m.proof) << 6, 1);
}
inline uint64_t fnv1a(const std::string& bytes, size_t size) {
  uint64_t h = 0xCBF29CE484222325ull;
  for (size_t i = 0; i < size; ++i) h = (h ^ uint8_t(bytes[i])) * 0x100000001B3ull;
  return h;
}

struct Reader {
  const std::string& bytes;
  size_t pos = 0;
  bool get(uint64_t& v, int size) {
    if (pos + size_t(size) > bytes.size()) return false;
    v = 0;
    for (int i = 0; i < size; ++i) v |= uint64_t(uint8_t(bytes[pos + i])) << (8 * i);
    pos += size_t(size);
    return true;
  }
  bool varint(uint64_t& v, int maxBits = 35) {
    v = 0;
    for (int shift = 0; shift < maxBits; shift += 7) {
      if (pos >= bytes.size()) return false;
      const uint8_t b = uint8_t(bytes[pos++]);
      v |= uint64_t(b & 127) << shift;
      if (!(b & 128)) return true;
    }
    return false;
  }
  bool string(std::string& s) {
    uint64_t n = 0;
    if (!varint(n) || n > bytes.size() - pos) return false;
    s = bytes.substr(pos, size_t(n));
    pos += size_t(n);
    return true;
  }
};

// A value as the file holds it: 0..65535 for 0..1.
inline uint64_t storedValue(float value) { return uint64_t(std::clamp(value, 0.0f, 1.0f) * 65535.0f + 0.5f); }
inline Bitboard verdictCells(const DeepVerdict& v) {
  Bitboard cells = 0;
  for (const DeepMove& m : v.moves) cells |= bit(m.move);
  return cells;
}

enum class MovesRead { Ok, Invalid };

// Version 7: the verdicts of one engine key are one range-coded stream (tools/book/range_encoder.h),
// in key order, every field in a context of its own. Values and visits are rounded to what the
// book can tell apart: visits to within 1/32 of themselves (they weigh replies and leaves); the
// value of a move with fewer than kFineValueVisits visits to 1/255 (its standard error is at least
// 0.016), a better searched one to 1/65535 as before (1/255 made the best moves of many positions,
// all near 0.5, tie, and 3% of the shipped book changed with the tie-breaks); a proven move's value
// is the proof's. Rounding twice changes nothing, so a file read and written again is the same
// file. The 124,273-position database takes 18.2 MB in version 6 and 8.9 MB in version 7.
constexpr uint64_t kFineValueVisits = 1024;
constexpr uint32_t kVisitsEscape = 255;        // a visit count too large for a code: written exactly
inline uint32_t visitsCode(uint64_t visits) {  // exact below 32, then 16 steps per doubling
  if (visits < 32) return uint32_t(visits);
  int shift = 0;
  while ((visits >> shift) >= 32) ++shift;
  uint64_t mantissa = (visits + (uint64_t(1) << (shift - 1))) >> shift;  // nearest, 16..32
  if (mantissa == 32) ++shift, mantissa = 16;
  const uint64_t code = 32 + uint64_t(shift - 1) * 16 + (mantissa - 16);
  return code < kVisitsEscape ? uint32_t(code) : kVisitsEscape;
}
inline uint64_t visitsOfCode(uint32_t code) {
  if (code < 32) return code;
  return uint64_t(16 + (code - 32) % 16) << ((code - 32) / 16 + 1);
}
inline uint32_t valueByte(float value) { return uint32_t(std::lround(std::clamp(value, 0.0f, 1.0f) * 255.0f)); }

// A verdict move's kind: what decides which fields follow.
enum VerdictMoveKind : uint32_t { kUnvisited = 0, kVisited = 1, kProvenWin = 2, kProvenLoss = 3 };

struct VerdictModels {
  SymbolModel<8> keyByte[16][2];  // per byte of the key, and whether the bytes before equal the previous key's
  BitModel steal;
  SymbolModel<6> best, count;
  NumberModel run, exactVisits;
  BitModel cell[64];         // a verdict without every legal move: whether it has this cell
  SymbolModel<2> kind[4];    // in the context of the previous move's kind
  SymbolModel<8> visits[3];  // per kind with visits
  SymbolModel<8> value[16];  // a value, or its high byte, per sixteenth of the visits' code range
  SymbolModel<8> valueLow;   // the low byte of a fine value
};

// The key, 16 bytes from the most significant of `mine` down (the order keys are sorted in).
template <class Coder>
void codeVerdictKey(Coder& c, VerdictModels& m, PositionKey& key, const PositionKey& previous) {
  const uint64_t given[2] = {key.mine, key.theirs}, before[2] = {previous.mine, previous.theirs};
  uint64_t words[2] = {0, 0};
  bool same = true;
  for (int i = 0; i < 16; ++i) {
    const int word = i / 8, shift = 56 - 8 * (i % 8);
    uint32_t byte = uint32_t(given[word] >> shift & 0xFF);
    codeSymbol(c, m.keyByte[i][same], byte);
    words[word] |= uint64_t(byte) << shift;
    same = same && byte == (before[word] >> shift & 0xFF);
  }
  uint32_t steal = key.stealAvailable;
  c.bit(m.steal, steal);
  key = {words[0], words[1], steal == 1};
}

// The rest of a verdict, its moves in cell order. The encoder passes the verdict to write; the
// decoder an empty one, which it fills and checks against the key's legal moves.
template <class Coder>
MovesRead codeVerdictBody(Coder& c, VerdictModels& m, const PositionKey& key, DeepVerdict& v) {
  constexpr bool encoding = Coder::kEncoding;
  uint32_t best = v.best, count = uint32_t(v.moves.size());
  uint64_t run = v.run == kUnknownRun ? 0 : uint64_t(v.run) + 1;
  codeSymbol(c, m.best, best);
  codeSymbol(c, m.count, count);
  codeNumber(c, m.run, run);
  const Bitboard legal = boardOf(key).legalMoves();
  Bitboard cells = encoding ? verdictCells(v) : legal;
  if (count != uint32_t(popcount(legal))) {
    for (Bitboard left = legal; left;) {
      const Cell cell = popLowest(left);
      uint32_t has = uint32_t(cells >> cell & 1);
      c.bit(m.cell[cell], has);
      cells = has ? cells | bit(cell) : cells & ~bit(cell);
    }
  }
  if constexpr (!encoding) {
    if (uint32_t(popcount(cells)) != count || run > UINT32_MAX) return MovesRead::Invalid;
    v.best = Cell(best);
    v.run = run == 0 ? kUnknownRun : uint32_t(run - 1);
  }
  uint32_t previousKind = kUnvisited;
  size_t j = 0;
  for (Bitboard left = cells; left; ++j) {
    const Cell cell = popLowest(left);
    DeepMove d{cell};
    if constexpr (encoding) d = v.moves[j];
    uint32_t kind = d.proof == Proof::Win    ? kProvenWin
                    : d.proof == Proof::Loss ? kProvenLoss
                    : d.visits               ? kVisited
                                             : kUnvisited;
    codeSymbol(c, m.kind[previousKind], kind);
    previousKind = kind;
    uint64_t visits = 0;
    float value = kind == kProvenWin ? 1.0f : kind == kProvenLoss ? 0.0f : 0.5f;
    if (kind != kUnvisited) {
      uint32_t code = visitsCode(d.visits);
      codeSymbol(c, m.visits[kind - 1], code);
      visits = visitsOfCode(code);
      if (code == kVisitsEscape) {
        visits = d.visits;
        codeNumber(c, m.exactVisits, visits);
      }
      if (kind == kVisited && visits < kFineValueVisits) {
        uint32_t byte = valueByte(d.value);
        codeSymbol(c, m.value[code >> 4], byte);
        value = float(byte) / 255.0f;
      } else if (kind == kVisited) {
        const uint32_t fine = uint32_t(storedValue(d.value));
        uint32_t high = fine >> 8, low = fine & 0xFF;
        codeSymbol(c, m.value[code >> 4], high);
        codeSymbol(c, m.valueLow, low);
        value = float(high << 8 | low) / 65535.0f;
      }
    }
    if constexpr (!encoding) {
      if ((kind == kVisited && visits == 0) || visits > UINT32_MAX) return MovesRead::Invalid;
      const Proof proof = kind == kProvenWin ? Proof::Win : kind == kProvenLoss ? Proof::Loss : Proof::Unknown;
      v.moves.push_back({cell, value, proof, uint32_t(visits)});
    }
  }
  return MovesRead::Ok;
}

// One engine key's verdicts, sorted by key, as one range-coded stream.
inline std::string rangeCodedVerdicts(const std::vector<const VerdictMap::value_type*>& sorted) {
  std::string stream;
  RangeEncoder encoder(stream);
  auto models = std::make_unique<VerdictModels>();
  PositionKey previous;
  for (const auto* e : sorted) {
    PositionKey key = e->first;
    DeepVerdict v = e->second;
    assert(std::is_sorted(v.moves.begin(), v.moves.end(),
                          [](const DeepMove& a, const DeepMove& b) { return a.move < b.move; }));
    codeVerdictKey(encoder, *models, key, previous);
    codeVerdictBody(encoder, *models, key, v);
    previous = key;
  }
  encoder.finish();
  return stream;
}

}  // namespace dbfile

// The file image (version 7).
inline std::string serializeDatabase(const Database& db) {
  using namespace dbfile;
  std::vector<const Database::Map::value_type*> order;
  order.reserve(db.map().size());
  for (const auto& e : db.map()) order.push_back(&e);
  std::sort(order.begin(), order.end(), [](auto* a, auto* b) { return a->first < b->first; });
  std::string out(kDatabaseMagic, 8);
  put(out, kDatabaseVersion, 4);
  putVarint(out, db.runs().size());
  for (const RunInfo& r : db.runs()) {
    put(out, r.id, 8);
    putVarint(out, r.games);
    put(out, r.seed, 8);
    put(out, uint64_t(r.startedUnix), 8);
    putString(out, r.engine);
    putString(out, r.parameters);
  }
  put(out, order.size(), 8);
  for (const auto* e : order) {
    putPositionHead(out, e->first, e->second);
    for (const auto& m : e->second.moves) {
      putMoveHead(out, m);
      putVarint(out, m.runs.size());
      for (const RunCount& r : m.runs) {
        putVarint(out, r.run);
        putVarint(out, r.games);
        putVarint(out, r.halfPoints);
      }
    }
  }
  putVarint(out, db.verdicts().size());
  for (const auto& [engine, entries] : db.verdicts()) {
    putString(out, engine);
    std::vector<const VerdictMap::value_type*> sorted;
    for (const auto& e : entries) sorted.push_back(&e);
    std::sort(sorted.begin(), sorted.end(), [](auto* a, auto* b) { return a->first < b->first; });
    putVarint(out, sorted.size());
    putString(out, rangeCodedVerdicts(sorted));
  }
  put(out, fnv1a(out, out.size()), 8);
  return out;
}

namespace dbfile {

// One file being parsed. Each section has its own reader; `fail` names the file and the byte.
struct Parser {
  Reader in;
  const std::string& name;
  Database& db;
  std::string& error;
  uint64_t runCount = 0;

  // Stones that overlap or lie off the board: every reader of a key rejects them.
  static bool badStones(const PositionKey& key) {
    return (key.mine & key.theirs) || ((key.mine | key.theirs) & ~kFullBoard);
  }

  bool fail(const std::string& what, size_t at) {
    error = name + ": " + what + " at byte " + std::to_string(at);
    db = Database();
    return false;
  }

  bool runTable() {
    if (!in.varint(runCount, 28)) return fail("file truncated in the run table", in.pos);
    for (uint64_t i = 0; i < runCount; ++i) {
      const size_t start = in.pos;
      RunInfo r;
      uint64_t started = 0;
      if (!in.get(r.id, 8) || !in.varint(r.games, 63) || !in.get(r.seed, 8) || !in.get(started, 8) ||
          !in.string(r.engine) || !in.string(r.parameters))
        return fail("file truncated in the run table (run " + std::to_string(i) + ")", in.pos);
      r.startedUnix = int64_t(started);
      for (const RunInfo& other : db.runs())
        if (other.id == r.id) return fail("duplicate run id (run " + std::to_string(i) + ")", start);
      db.addRun(r);
    }
    return true;
  }

  // A move's statistics: one (run, games, halfPoints) entry per run that played it.
  bool moveEntries(MoveStats& m, const std::string& where, size_t moveStart) {
    uint64_t entries = 0;
    if (!in.varint(entries)) return fail("file truncated" + where, in.pos);
    for (uint64_t k = 0; k < entries; ++k) {
      uint64_t run = 0, g = 0, half = 0;
      if (!in.varint(run) || !in.varint(g) || !in.varint(half)) return fail("file truncated" + where, in.pos);
      if (run >= runCount || g > UINT32_MAX || half > 2 * g || uint64_t(m.games) + g > UINT32_MAX ||
          std::any_of(m.runs.begin(), m.runs.end(), [&](const RunCount& r) { return r.run == run; }))
        return fail("invalid move record" + where, moveStart);
      m.add(uint32_t(run), uint32_t(g), uint32_t(half));
    }
    return true;
  }

  bool positions() {
    uint64_t count = 0;
    if (!in.get(count, 8)) return fail("file truncated in the header", in.pos);
    for (uint64_t i = 0; i < count; ++i) {
      const size_t start = in.pos;
      const std::string where = " (position " + std::to_string(i) + " of " + std::to_string(count) + ")";
      uint64_t mine = 0, theirs = 0, flags = 0, moves = 0;
      if (!in.get(mine, 8) || !in.get(theirs, 8) || !in.get(flags, 1) || !in.get(moves, 1))
        return fail("file truncated" + where, in.pos);
      PositionKey key{mine, theirs, bool(flags & 1)};
      if (badStones(key) || flags > 5 || moves == 0 || moves > kCells)
        return fail("invalid position record" + where, start);
      if (canonicalize(key).key != key) return fail("position not in canonical form" + where, start);
      if (db.find(key)) return fail("duplicate position" + where, start);
      PositionStats& stats = db.at(key);
      stats.proof = Proof(flags >> 1);
      const Board b = boardOf(key);
      for (uint64_t j = 0; j < moves; ++j) {
        const size_t moveStart = in.pos;
        uint64_t cellAndProof = 0;
        if (!in.get(cellAndProof, 1)) return fail("file truncated" + where, in.pos);
        const uint64_t cell = cellAndProof & 63, proof = cellAndProof >> 6;
        if (!b.isLegal(Cell(cell)) || proof > 2 || stats.find(Cell(cell)))
          return fail("invalid move record" + where, moveStart);
        MoveStats m{Cell(cell), Proof(proof), 0, 0, {}};
        if (!moveEntries(m, where, moveStart)) return false;
        stats.moves.push_back(std::move(m));
      }
    }
    return true;
  }

  // The deep-search verdicts, per engine key.
  bool verdicts() {
    uint64_t engines = 0;
    if (!in.varint(engines, 28)) return fail("file truncated in the verdicts", in.pos);
    for (uint64_t e = 0; e < engines; ++e) {
      std::string engine;
      uint64_t n = 0;
      if (!in.string(engine) || !in.varint(n, 35)) return fail("file truncated in the verdicts", in.pos);
      if (!rangeCodedVerdicts(engine, n)) return false;
    }
    return true;
  }

  // One engine key's verdicts: the stream's length, then the stream (rangeCodedVerdicts). A byte
  // named in an error is where the decoder was, within the record's few bytes.
  bool rangeCodedVerdicts(const std::string& engine, uint64_t n) {
    uint64_t length = 0;
    if (!in.varint(length, 42)) return fail("file truncated in the verdicts", in.pos);
    if (length > in.bytes.size() - in.pos)
      return fail("file truncated in the verdicts of " + engine + " (their " + std::to_string(length) +
                      " bytes from byte " + std::to_string(in.pos) + " pass the end of the file)",
                  in.bytes.size());
    const size_t end = in.pos + size_t(length);
    RangeDecoder decoder(in.bytes, in.pos, end);
    auto models = std::make_unique<VerdictModels>();
    PositionKey previous;
    for (uint64_t i = 0; i < n; ++i) {
      const std::string where = " (verdict " + std::to_string(i) + " of " + std::to_string(n) + ", " + engine + ")";
      const size_t start = decoder.position();
      PositionKey key;
      codeVerdictKey(decoder, *models, key, previous);
      if (decoder.overrun()) return fail("file truncated" + where, end);
      if (badStones(key) || (i > 0 && !(previous < key)) || canonicalize(key).key != key || db.verdict(engine, key))
        return fail("invalid verdict record" + where, start);
      DeepVerdict v;
      const MovesRead read = codeVerdictBody(decoder, *models, key, v);
      if (decoder.overrun()) return fail("file truncated" + where, end);
      if (read != MovesRead::Ok || !v.find(v.best) || (v.run != kUnknownRun && v.run >= db.runs().size()))
        return fail("invalid verdict record" + where, start);
      db.setVerdict(engine, key, std::move(v));
      previous = key;
    }
    if (decoder.position() != end) return fail("unexpected data after the verdicts of " + engine, decoder.position());
    in.pos = end;
    return true;
  }
  bool checksum() {
    const size_t end = in.pos;
    uint64_t sum = 0;
    if (!in.get(sum, 8)) return fail("file truncated before the checksum", in.pos);
    if (in.pos != in.bytes.size()) return fail("unexpected data after the checksum", in.pos);
    if (sum != fnv1a(in.bytes, end)) return fail("checksum mismatch (file corrupt)", end);
    return true;
  }
};

}  // namespace dbfile

// Parses a whole file image; `name` is used in error messages. On error the database is left
// empty.
inline bool deserializeDatabase(const std::string& bytes, const std::string& name, Database& db, std::string& error) {
  db = Database();
  dbfile::Parser p{{bytes, 0}, name, db, error};
  if (bytes.size() < 8 || bytes.compare(0, 8, kDatabaseMagic, 8) != 0)
    return p.fail("not a book database (bad magic)", 0);
  p.in.pos = 8;
  uint64_t version = 0;
  if (!p.in.get(version, 4)) return p.fail("file truncated in the header", p.in.pos);
  if (version != kDatabaseVersion)
    return p.fail("unsupported version " + std::to_string(version) + " (this program reads version " +
                      std::to_string(kDatabaseVersion) + ")",
                  8);
  return p.runTable() && p.positions() && p.verdicts() && p.checksum();
}

inline bool loadDatabaseFile(const std::string& path, Database& db, std::string& error) {
  std::string bytes;
  if (!readWholeFile(path, bytes, error)) return false;
  return deserializeDatabase(bytes, path, db, error);
}

// Written to a temporary file next to `path`, synced and renamed over it (never through a link).
inline bool saveDatabase(const std::string& path, const Database& db, std::string& error) {
  return writeFileAtomically(path, serializeDatabase(db), error);
}

}  // namespace yav::book
