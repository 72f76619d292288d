// The proof searches' work on disk (bookgen prove --state FILE): a run that stops (its hours, a
// signal) leaves its tables' expanded positions in a file, and the next run starts from them, so
// a proof that needs more hours than one run goes on where it stopped instead of searching its
// tree again. The book database keeps only the settled positions near the target.
//
// Format, version 1, little-endian:
//   bytes 0-15   "yav-proof-state1"
//   bytes 16-23  N, the positions
//   then N records of 24 bytes: the stones of the player to move (bit 63 set when the claim's
//                attacker moves there), the other player's stones, pn and dn (32 bits each)
//   last 8 bytes a checksum of the records (each 64-bit word folded in with mix64)
// Invariants:
// - A record is a ProofTable slot of an expanded position: a canonical key (12 symmetries) and
//   the numbers of the claim "the attacker wins", the attacker named relative to the mover. So a
//   state holds facts (settled numbers) and estimates (open ones) of positions, not of a target:
//   it serves any target. Positions never expanded are not saved: the cheap tests give them again
//   when their parent is entered, as after ProofSearch::forget().
// - Settled records come first, so a reader with less room than the file takes those.
// - A file is read whole before anything is adopted: a damaged or truncated one is rejected with
//   its name and the byte, and the searches start empty.
// - The file is written to FILE.tmp and renamed: a failed write leaves the previous state.
// - A bounded write (maxBytes: --state-max-mb, bookgen state --max-mb) is at most that long: the
//   least valuable records (stateRank) are left out, so a run of any length leaves a state of
//   that size at most. It is a version-1 file like any other, readable on any machine (every
//   number is written byte by byte).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstddef>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "rng.h"
#include "tools/proof/proof_search.h"

namespace yav::proof {

namespace proof_state {

constexpr char kMagic[17] = "yav-proof-state1";
constexpr size_t kHeaderBytes = 24, kRecordBytes = 24, kTrailerBytes = 8;

inline void put64(char* out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out[i] = char(uint8_t(v >> (8 * i)));
}
inline uint64_t get64(const char* in) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= uint64_t(uint8_t(in[i])) << (8 * i);
  return v;
}
inline uint64_t folded(uint64_t sum, uint64_t word) { return mix64(sum ^ word); }

struct Record {
  ProofKey key;
  ProofNumbers numbers;
};

inline void encode(const Record& r, char* out) {
  put64(out, r.key.mine | (r.key.attackerToMove ? uint64_t(1) << 63 : 0));
  put64(out + 8, r.key.theirs);
  put64(out + 16, uint64_t(r.numbers.pn) | uint64_t(r.numbers.dn) << 32);
}

// The record at `in`, or the reason it is not one (empty when it is).
inline std::string decode(const char* in, Record& r) {
  const uint64_t mine = get64(in), theirs = get64(in + 8), numbers = get64(in + 16);
  r.key = {mine & kFullBoard, theirs, bool(mine >> 63)};
  r.numbers = {uint32_t(numbers), uint32_t(numbers >> 32)};
  const uint32_t pn = r.numbers.pn, dn = r.numbers.dn;
  if ((mine & ~kFullBoard & ~(uint64_t(1) << 63)) || (theirs & ~kFullBoard)) return "a stone outside the board";
  if (mine & theirs) return "a cell with two stones";
  const int lead = popcount(theirs) - popcount(r.key.mine);
  if (lead != 0 && lead != 1) return "stone counts no game reaches";
  const bool proven = pn == 0 && dn == kProofInfinity,
             disproven = dn == 0 && (pn == kProofInfinity || pn == kProofInfinity + 1);
  const bool open = pn >= 1 && dn >= 1 && pn < kProofInfinity && dn < kProofInfinity;
  if (!proven && !disproven && !open)
    return "proof numbers no search gives (pn " + std::to_string(pn) + ", dn " + std::to_string(dn) + ")";
  return "";
}

// Which expanded positions a bounded state keeps (--state-max-mb): a rank, 0 the most valuable.
// First the settled ones (facts; the cheap tests give none of them again), the fewest stones
// first. Then the open ones by their thinner number min(pn, dn), in powers of two, the largest
// first, and the fewest stones first among equals. An open position at 1 is mostly a frontier
// node (its children never expanded), or its most proving line ends at one a step below: one
// expansion gives its numbers back. Those are most of a table (82% of the open ones of class 2 1
// after 1.1 hours, 2026-12-06), while the numbers near the roots, which steer the search, are
// the largest.
constexpr int kStateRanks = (kCells + 1) * 32;
inline int stateRank(const ProofKey& k, ProofNumbers n) {
  const int stones = popcount(k.mine | k.theirs);
  if (n.settled()) return stones;
  const uint32_t thinner = std::min(n.pn, n.dn);
  const int width = 32 - __builtin_clz(thinner);  // 1 for 1, 2 for 2-3, ... 30 below infinity
  return (kCells + 1) * (32 - width) + stones;
}

// The records a bounded state keeps: count() every candidate, then limit(), then keep() says of
// each candidate, offered in the same order, whether it goes in. The ranks below the cut go in
// whole, the cut's own rank up to the room left, in the order offered.
class StateSelection {
 public:
  void count(const ProofKey& k, ProofNumbers n) { ++byRank_[stateRank(k, n)]; }
  // Room for `records` (no limit when they all fit).
  void limit(uint64_t records) {
    cut_ = kStateRanks, room_ = 0;
    uint64_t kept = 0;
    for (int r = 0; r < kStateRanks; ++r) {
      if (kept + byRank_[r] > records) return void((cut_ = r, room_ = records - kept));
      kept += byRank_[r];
    }
  }
  bool keep(const ProofKey& k, ProofNumbers n) {
    const int r = stateRank(k, n);
    return r < cut_ || (r == cut_ && room_ > 0 && room_--);
  }

 private:
  uint64_t byRank_[kStateRanks] = {};
  int cut_ = kStateRanks;
  uint64_t room_ = 0;
};

// The records a file of at most `maxBytes` holds (0: no limit).
inline uint64_t stateRecordsWithin(uint64_t maxBytes) {
  if (!maxBytes) return UINT64_MAX;
  return maxBytes < kHeaderBytes + kTrailerBytes ? 0 : (maxBytes - kHeaderBytes - kTrailerBytes) / kRecordBytes;
}

// Writes a state file: FILE.tmp, renamed to FILE by finish(); without finish() (a failed read
// of what it copies) the partial FILE.tmp is removed.
class StateWriter {
 public:
  ~StateWriter() {
    if (!finished_) out_.close(), std::remove(tmp_.c_str());
  }
  explicit StateWriter(std::string path)
      : path_(std::move(path)), tmp_(path_ + ".tmp"), out_(tmp_, std::ios::binary | std::ios::trunc) {
    char header[kHeaderBytes];
    std::copy(kMagic, kMagic + 16, header);
    put64(header + 16, 0);  // the count, once known
    out_.write(header, kHeaderBytes);
    buffer_.reserve(kRecordBytes * 65536);
  }
  bool opened() const { return bool(out_); }
  void add(const ProofKey& k, ProofNumbers n) {
    char record[kRecordBytes];
    encode({k, n}, record);
    for (int w = 0; w < 3; ++w) sum_ = folded(sum_, get64(record + 8 * w));
    buffer_.insert(buffer_.end(), record, record + kRecordBytes);
    ++records_;
    if (buffer_.size() == buffer_.capacity()) flush();
  }
  uint64_t records() const { return records_; }
  bool finish(std::string& error) {
    finished_ = true;
    if (!out_) return std::remove(tmp_.c_str()), error = tmp_ + ": cannot write", false;
    flush();
    char trailer[kTrailerBytes];
    put64(trailer, sum_);
    out_.write(trailer, kTrailerBytes);
    put64(trailer, records_);
    out_.seekp(16);
    out_.write(trailer, 8);
    out_.close();
    if (!out_) return std::remove(tmp_.c_str()), error = tmp_ + ": write failed (disk full?)", false;
    if (std::rename(tmp_.c_str(), path_.c_str()) != 0) return error = "cannot rename " + tmp_ + " to " + path_, false;
    return true;
  }

 private:
  void flush() { out_.write(buffer_.data(), std::streamsize(buffer_.size())), buffer_.clear(); }
  std::string path_, tmp_;
  std::ofstream out_;
  std::vector<char> buffer_;
  uint64_t sum_ = 0, records_ = 0;
  bool finished_ = false;
};

// A state file opened for reading: its count checked against its size. `missing` when there is
// no file (no error); false with `error` (the name and the byte) when it is no whole state file.
inline bool openStateFile(const std::string& path, std::ifstream& in, uint64_t& count, bool& missing,
                          std::string& error) {
  in.open(path, std::ios::binary | std::ios::ate);
  missing = !in;
  if (missing) return false;
  const uint64_t size = uint64_t(in.tellg());
  in.seekg(0);
  char header[kHeaderBytes];
  if (size < kHeaderBytes || !in.read(header, kHeaderBytes) || std::string(header, 16) != std::string(kMagic, 16))
    return error = path + ": byte 0: not a proof state file (version 1)", false;
  count = get64(header + 16);
  const uint64_t body = size - kHeaderBytes;
  if (count > body / kRecordBytes || body < count * kRecordBytes + kTrailerBytes)
    return error = path + ": truncated at byte " + std::to_string(size) + ": " + std::to_string(count) +
                   " positions need " + std::to_string(kHeaderBytes + count * kRecordBytes + kTrailerBytes) + " bytes",
           false;
  if (body > count * kRecordBytes + kTrailerBytes)
    return error = path + ": byte " + std::to_string(kHeaderBytes + count * kRecordBytes + kTrailerBytes) +
                   ": bytes after the checksum",
           false;
  return true;
}

// Reads the `count` records of an opened state file from its first, visit(Record) each. With
// `check`, every record is decoded and checked, and then the checksum, before false names the
// first fault (the file and the byte); without, the records are taken as a checked read found them.
template <class Visit>
bool readStateRecords(const std::string& path, std::ifstream& in, uint64_t count, bool check, Visit visit,
                      std::string& error) {
  std::vector<char> buffer(kRecordBytes * 65536);
  in.clear();
  in.seekg(std::streamoff(kHeaderBytes));
  uint64_t sum = 0;
  for (uint64_t done = 0; done < count;) {
    const uint64_t n = std::min<uint64_t>(count - done, buffer.size() / kRecordBytes);
    if (!in.read(buffer.data(), std::streamsize(n * kRecordBytes))) return error = path + ": read failed", false;
    for (uint64_t i = 0; i < n; ++i, ++done) {
      const char* at = buffer.data() + i * kRecordBytes;
      Record r;
      const std::string why = decode(at, r);
      if (check) {
        for (int w = 0; w < 3; ++w) sum = folded(sum, get64(at + 8 * w));
        if (!why.empty())
          return error = path + ": byte " + std::to_string(kHeaderBytes + done * kRecordBytes) + ": position " +
                         std::to_string(done + 1) + ": " + why,
                 false;
      }
      visit(r);
    }
  }
  if (check) {
    char trailer[kTrailerBytes];
    if (!in.read(trailer, kTrailerBytes)) return error = path + ": read failed", false;
    if (get64(trailer) != sum)
      return error = path + ": byte " + std::to_string(kHeaderBytes + count * kRecordBytes) +
                     ": the checksum does not match the records",
             false;
  }
  return true;
}

}  // namespace proof_state

// What a state write did: the positions written, and those a bound (maxBytes) left out.
struct StateWritten {
  uint64_t positions = 0, leftOut = 0;
};

// Writes the expanded positions of `searches` to `path`, each once (settled ones first, a settled
// copy before an open one), in at most `maxBytes` (0: no limit; else the most valuable positions,
// proof_state::stateRank, are kept and the rest left out). False with `error` on failure.
inline bool saveProofState(const std::string& path, const std::vector<const ProofSearch*>& searches, uint64_t maxBytes,
                           StateWritten& written, std::string& error) {
  using namespace proof_state;
  // Whether another search's copy of k is written instead: in the settled pass an earlier settled
  // one; in the open pass an earlier one, or any settled one.
  auto writtenElsewhere = [&](size_t i, const ProofKey& k, bool settled) {
    for (size_t j = 0; j < searches.size(); ++j)
      if (const ProofNumbers* other = j == i ? nullptr : searches[j]->expandedNumbers(k))
        if (other->settled() || (!settled && j < i)) return settled ? j < i : true;
    return false;
  };
  auto eachOnce = [&](auto visit) {
    for (const bool settled : {true, false})
      for (size_t i = 0; i < searches.size(); ++i)
        searches[i]->forEachExpanded([&](const ProofKey& k, ProofNumbers n) {
          if (n.settled() == settled && (searches.size() == 1 || !writtenElsewhere(i, k, settled))) visit(k, n);
        });
  };
  const uint64_t room = stateRecordsWithin(maxBytes);
  uint64_t copies =
      0;  // at least the positions written: when they fit, the bound holds without the count (a sweep, no lookups)
  for (const ProofSearch* s : searches) s->forEachExpanded([&](const ProofKey&, ProofNumbers) { ++copies; });
  auto selection = std::make_unique<StateSelection>();
  if (copies > room) {
    eachOnce([&](const ProofKey& k, ProofNumbers n) { selection->count(k, n); });
    selection->limit(room);
  }
  StateWriter out(path);
  if (!out.opened()) return error = path + ".tmp: cannot write", false;
  uint64_t offered = 0;
  eachOnce([&](const ProofKey& k, ProofNumbers n) {
    ++offered;
    if (selection->keep(k, n)) out.add(k, n);
  });
  written = {out.records(), offered - out.records()};
  return out.finish(error);
}

// Rewrites the state at `inPath` as `outPath` (the same path is fine) within `maxBytes` (0: no
// limit), keeping the most valuable positions as saveProofState does; an empty `outPath` only
// checks and counts. The input is read whole and checked first: a damaged one is rejected (its
// name and byte in `error`) and nothing is written.
inline bool boundProofState(const std::string& inPath, const std::string& outPath, uint64_t maxBytes,
                            StateWritten& written, std::string& error) {
  using namespace proof_state;
  std::ifstream in;
  uint64_t count = 0;
  bool missing = false;
  if (!openStateFile(inPath, in, count, missing, error))
    return missing ? (error = inPath + ": no such file", false) : false;
  auto selection = std::make_unique<StateSelection>();
  if (!readStateRecords(
          inPath, in, count, true, [&](const Record& r) { selection->count(r.key, r.numbers); }, error))
    return false;
  if (outPath.empty()) return written = {count, 0}, true;
  selection->limit(stateRecordsWithin(maxBytes));
  StateWriter out(outPath);
  if (!out.opened()) return error = outPath + ".tmp: cannot write", false;
  if (!readStateRecords(
          inPath, in, count, false,
          [&](const Record& r) {
            if (selection->keep(r.key, r.numbers)) out.add(r.key, r.numbers);
          },
          error))
    return false;
  written = {out.records(), count - out.records()};
  return out.finish(error);
}

// The positions a state file holds, from its header (0 when it is missing or not a state file: the
// read that follows names the fault).
inline uint64_t proofStatePositions(const std::string& path) {
  using namespace proof_state;
  std::ifstream in(path, std::ios::binary);
  char header[kHeaderBytes];
  if (!in.read(header, kHeaderBytes) || std::string(header, 16) != std::string(kMagic, 16)) return 0;
  return get64(header + 16);
}

// A thread's table (positions) when none is asked for: the default, or four times a state's
// positions, so that every thread reads the state whole and still has room before it forgets
// (loadProofState gets a quarter of the table, ProofSearch::forget); at most what three quarters
// of `memoryBytes` hold for `threads` tables at 48 bytes a position (32 in a table at most 3/4
// full, and the last growth, which holds the old slots and the new ones at once). The last
// quarter is for the book graph, the state file read whole, and the machine: tables sized to all
// of MemAvailable grew to 24.4 GB on a 24 GB machine and the run was killed (2026-12-04).
inline size_t tableForState(size_t defaultPositions, uint64_t statePositions, uint64_t memoryBytes, int threads) {
  const uint64_t wanted = std::max<uint64_t>(defaultPositions, statePositions * 4);
  const uint64_t fits = memoryBytes / 4 * 3 / (uint64_t(std::max(threads, 1)) * 48);
  return size_t(std::max<uint64_t>(std::min(wanted, fits), 1000));
}

// Reads the state at `path` into every search, each taking up to `perSearch` positions (0: as
// many as its table holds); `positions` gets the file's count. A reader with less room than the
// file takes what ProofSearch::forget keeps: the settled positions, then the open ones with the
// fewest stones (the numbers near the roots, which steer the search), not the file's first ones
// (a table's order, so a random share of every depth). A missing file is no error (a first run:
// positions 0). A damaged or truncated file adopts nothing: false, `error` naming the file and the
// byte.
inline bool loadProofState(const std::string& path, const std::vector<ProofSearch*>& searches, size_t perSearch,
                           uint64_t& positions, std::string& error) {
  using namespace proof_state;
  positions = 0;
  std::ifstream in;
  uint64_t count = 0;
  bool missing = false;
  if (!openStateFile(path, in, count, missing, error)) return missing;
  // Every record is checked (and the checksum) and counted before any is adopted (pass 0). Then
  // the settled ones and the open ones of at most `most` stones go in (pass 1), and, when those
  // leave room, the open ones of `most + 1` fill it (pass 2: the bands lie mixed in the file).
  size_t settled = 0, openByStones[kCells + 1] = {};
  auto band = [](const Record& r) { return r.numbers.settled() ? -1 : popcount(r.key.mine | r.key.theirs); };
  if (!readStateRecords(
          path, in, count, true,
          [&](const Record& r) {
            const int stones = band(r);
            ++(stones < 0 ? settled : openByStones[stones]);
          },
          error))
    return false;
  for (ProofSearch* s : searches)
    s->reserveForAdopting(size_t(perSearch ? std::min<uint64_t>(count, perSearch) : count));  // room at once
  std::vector<size_t>
      limit;  // a search's entries once it has taken perSearch new positions (a repeated one is no new one)
  for (ProofSearch* s : searches) limit.push_back(perSearch ? s->entries() + perSearch : SIZE_MAX);
  const int most = perSearch ? ProofSearch::openStonesKept(settled, openByStones, perSearch + 1) : kCells;
  for (int pass = 1; pass < 3; ++pass) {
    if (pass == 2 && most >= kCells) break;
    if (!readStateRecords(
            path, in, count, false,
            [&](const Record& r) {
              if (perSearch && (pass == 1 ? band(r) > most : band(r) != most + 1)) return;
              for (size_t s = 0; s < searches.size(); ++s)
                if (searches[s]->entries() < limit[s]) searches[s]->adopt(r.key, r.numbers);
            },
            error))
      return false;
  }
  positions = count;
  return true;
}

}  // namespace yav::proof
