// The book graph's index: canonical position -> node number. Growth looks up every move of each
// new node (about 50), and loading book/book.db looks up each of its 260,000 nodes' parents (one a
// stone). Open addressing keeps a look-up to one slot array at most half full, where
// std::unordered_map follows separately allocated nodes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "symmetry.h"

namespace yav::book {

class PositionIndex {
 public:
  static constexpr int kAbsent = -1;

  size_t size() const { return size_; }

  // The number stored for `key`, or kAbsent.
  int find(const PositionKey& key) const { return slots_.empty() ? kAbsent : slots_[slotOf(key)].value; }

  // Stores `value` (>= 0) for `key` unless the key is present; whether it was stored.
  bool insert(const PositionKey& key, int value) {
    if (2 * (size_ + 1) > slots_.size()) rehash(2 * (size_ + 1));
    Slot& s = slots_[slotOf(key)];
    if (s.value != kAbsent) return false;
    s = Slot{key.mine, key.theirs, value, key.stealAvailable};
    ++size_;
    return true;
  }

  // Room for `count` keys without rehashing.
  void reserve(size_t count) {
    if (2 * count > slots_.size()) rehash(2 * count);
  }

 private:
  // 24 bytes: the key's flag and the value share the padding a PositionKey would have.
  struct Slot {
    Bitboard mine = 0, theirs = 0;
    int32_t value = kAbsent;
    bool stealAvailable = false;
    bool holds(const PositionKey& k) const {
      return mine == k.mine && theirs == k.theirs && stealAvailable == k.stealAvailable;
    }
  };

  // The slot holding `key`, or the empty one where it would go (the table is never full).
  size_t slotOf(const PositionKey& key) const {
    size_t i = home(key);
    while (slots_[i].value != kAbsent && !slots_[i].holds(key)) i = (i + 1) & mask();
    return i;
  }
  size_t mask() const { return slots_.size() - 1; }
  // The high bits of a multiplicative hash: every bit of the key moves them (the low bits of
  // PositionKeyHash ignore the board's top rows, which a power-of-two mask would expose).
  size_t home(const PositionKey& key) const {
    return size_t((PositionKeyHash()(key) * 0x9E3779B97F4A7C15ull) >> shift_);
  }

  // At least `minSlots` slots, a power of two; every key placed again.
  void rehash(size_t minSlots) {
    size_t slots = 16;
    int bits = 4;
    while (slots < minSlots) slots *= 2, ++bits;
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.assign(slots, Slot{});
    shift_ = 64 - bits;
    size_ = 0;
    for (const Slot& s : old)
      if (s.value != kAbsent) insert(PositionKey{s.mine, s.theirs, s.stealAvailable}, s.value);
  }

  std::vector<Slot> slots_;
  size_t size_ = 0;
  int shift_ = 64;
};

}  // namespace yav::book
