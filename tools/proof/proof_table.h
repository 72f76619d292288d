// The table of a proof-number search: open addressing with linear probing over 24-byte slots.
// A node-based map spent about 72 bytes a position and minutes to forget 100 million of them;
// this holds a position in 32 bytes (at its load limit) and forgets in one sweep.
//
// Invariants:
// - A slot holds a position's canonical stones (the player to move's, the other's), whose claim
//   it carries (the attacker to move or not), its proof numbers and whether it was expanded. Bits
//   61-63 of the stone masks are never cells: they hold the flags, and an all-zero slot is empty.
// - Slots never move while the table is neither grown nor swept: a search holds references to
//   them through its recursion, and calls grow(), keepOnly() and clear() only between runs.
// - size() <= loadLimit() = 3/4 of the slots, less a margin of one expansion's insertions, which
//   the search checks (hasRoom) before each expansion.
// - Each table hashes its keys with a salt of its own, drawn at random: keys that come in the
//   order of another table's slots (a saved state, read by another thread or run) then come in a
//   random order for this one. Linear probing needs that: keys that arrive in the order of their
//   home slots, more of them than the table has slots for, pile up in one run that every
//   insertion walks.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "bitboard.h"
#include "result.h"
#include "rng.h"

namespace yav::proof {

constexpr uint32_t kProofInfinity = 1u << 30;

// A claim's numbers: "the attacker wins". A disproof is "no win", which may be a draw; one that
// rests on no draw (the defender wins) carries a proof number above infinity, so that the tables
// keep it in the same 8 bytes.
struct ProofNumbers {
  uint32_t pn = 1, dn = 1;
  bool proven() const { return pn == 0; }
  bool disproven() const { return dn == 0; }
  bool defenderWins() const { return dn == 0 && pn > kProofInfinity; }
  bool settled() const { return pn == 0 || dn == 0; }
};
constexpr ProofNumbers kProven{0, kProofInfinity}, kDisproven{kProofInfinity, 0}, kDefenderWins{kProofInfinity + 1, 0};

// A proof or disproof number as progress lines show it: "inf" from infinity up.
inline std::string proofNumberText(uint32_t n) { return n >= kProofInfinity ? "inf" : std::to_string(n); }

// What settled numbers say of the player to move: a win, a loss, or Unknown (open, or a
// disproof that may rest on a draw).
inline Proof moverProof(const ProofNumbers& n, bool attackerToMove) {
  if (n.proven()) return attackerToMove ? Proof::Win : Proof::Loss;
  if (n.defenderWins()) return attackerToMove ? Proof::Loss : Proof::Win;
  return Proof::Unknown;
}

struct ProofKey {
  Bitboard mine, theirs;
  bool attackerToMove;
};

class ProofTable {
  static constexpr Bitboard kClaimBit = Bitboard(1) << 63, kExpandedBit = Bitboard(1) << 62;  // in mine
  static constexpr Bitboard kUsedBit = Bitboard(1) << 63;                                     // in theirs

 public:
  static constexpr size_t kMargin = 64;  // one expansion inserts at most 61 positions, and the root

  struct Slot {
    Bitboard mineAndFlags = 0, theirsAndUsed = 0;
    ProofNumbers numbers;
    bool used() const { return theirsAndUsed & kUsedBit; }
    bool expanded() const { return mineAndFlags & kExpandedBit; }
    void setExpanded() { mineAndFlags |= kExpandedBit; }
    ProofKey key() const {
      return {mineAndFlags & ~(kClaimBit | kExpandedBit), theirsAndUsed & ~kUsedBit, bool(mineAndFlags & kClaimBit)};
    }
  };
  static_assert(sizeof(Slot) == 24, "a slot is two masks and two numbers");

  // A table that grows up to `maxEntries` positions (0: without limit).
  explicit ProofTable(size_t maxEntries = 0) : maxEntries_(maxEntries), salt_(drawSalt()) {}

  size_t size() const { return size_; }
  size_t loadLimit() const { return slots_.size() / 4 * 3; }
  // Whether an expansion may insert its positions without passing the load limit.
  bool hasRoom() const { return size_ + kMargin <= loadLimit(); }
  // Whether grow() can make more room.
  bool canGrow() const { return !maxEntries_ || slots_.size() < finalSlots(); }
  // Grows (within the limit) until `positions` fit at once, so that reading a saved state does not
  // rebuild the table several times.
  void reserve(size_t positions) {
    while (positions + kMargin > loadLimit() && canGrow()) grow();
  }
  // Twice the slots (at most the final number), every position kept.
  void grow() {
    rebuild(std::min(std::max<size_t>(slots_.size() * 2, 1 << 16), maxEntries_ ? finalSlots() : SIZE_MAX));
  }

  Slot* find(const ProofKey& k) {
    if (slots_.empty()) return nullptr;
    const Slot want = packed(k);
    for (size_t i = home(want);; i = i + 1 == slots_.size() ? 0 : i + 1) {
      Slot& s = slots_[i];
      if (!s.used()) return nullptr;
      if (sameKey(s, want)) return &s;
    }
  }
  const Slot* find(const ProofKey& k) const { return const_cast<ProofTable*>(this)->find(k); }

  // Starts loading k's home slot into the cache: a search asks for all of a node's children at
  // once, and their slots are far apart in a table of gigabytes.
  void prefetch(const ProofKey& k) const {
    if (!slots_.empty()) __builtin_prefetch(&slots_[home(packed(k))]);
  }

  // The slot of k, added (numbers {1,1}, not expanded) when new; the table must have room.
  std::pair<Slot*, bool> insert(const ProofKey& k) {
    const Slot want = packed(k);
    for (size_t i = home(want);; i = i + 1 == slots_.size() ? 0 : i + 1) {
      Slot& s = slots_[i];
      if (sameKey(s, want)) return {&s, false};
      if (!s.used()) {
        s = want, ++size_;
        return {&s, true};
      }
    }
  }

  // Keeps the positions `keep` accepts, forgets the others; the slots stay.
  template <class Keep>
  void keepOnly(Keep keep) {
    std::vector<Slot> kept;
    for (const Slot& s : slots_)
      if (s.used() && keep(s)) kept.push_back(s);
    std::fill(slots_.begin(), slots_.end(), Slot());
    size_ = 0;
    for (const Slot& s : kept) place(s);
  }
  void clear() {
    keepOnly([](const Slot&) { return false; });
  }

  // The most slots an insertion walked past its key's home slot: a diagnostic of clustering.
  size_t longestProbe() const {
    size_t longest = 0;
    for (size_t i = 0; i < slots_.size(); ++i)
      if (slots_[i].used()) {
        const size_t h = home(slots_[i]);
        longest = std::max(longest, i >= h ? i - h : i + slots_.size() - h);
      }
    return longest;
  }

  template <class Visit>
  void forEach(Visit visit) const {
    for (const Slot& s : slots_)
      if (s.used()) visit(s);
  }

 private:
  // The slots at the limit: a load limit of maxEntries and a margin (a multiple of 4 slots).
  size_t finalSlots() const { return (maxEntries_ + kMargin + 2) / 3 * 4; }
  static Slot packed(const ProofKey& k) {
    Slot s;
    s.mineAndFlags = k.mine | (k.attackerToMove ? kClaimBit : 0);
    s.theirsAndUsed = k.theirs | kUsedBit;
    return s;
  }
  static bool sameKey(const Slot& s, const Slot& want) {
    return s.theirsAndUsed == want.theirsAndUsed && (s.mineAndFlags & ~kExpandedBit) == want.mineAndFlags;
  }
  size_t home(const Slot& s) const {
    const uint64_t h = mix64(((s.mineAndFlags & ~kExpandedBit) * kGoldenGamma ^ s.theirsAndUsed) +
                             salt_);                            // the key's bits (no flag) and the salt
    return size_t((unsigned __int128)h * slots_.size() >> 64);  // h scaled to [0, slots)
  }
  void place(const Slot& s) {
    for (size_t i = home(s);; i = i + 1 == slots_.size() ? 0 : i + 1)
      if (!slots_[i].used()) {
        slots_[i] = s, ++size_;
        return;
      }
  }
  void rebuild(size_t slots) {
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.assign(slots, Slot());
    size_ = 0;
    for (const Slot& s : old)
      if (s.used()) place(s);
  }

  static uint64_t drawSalt() {
    std::random_device device;
    return uint64_t(device()) << 32 ^ device();
  }

  size_t maxEntries_;
  uint64_t salt_;
  std::vector<Slot> slots_;
  size_t size_ = 0;
};

}  // namespace yav::proof
