// The solvers' transposition table: a power-of-two array of slots indexed by the low bits of the
// position's Zobrist hash, one position per slot, the newest replacing whatever was there. Each
// solver chooses what it keeps per position (Data, a few bytes: a slot is 16 bytes, four per cache
// line). Allocated once; probing and storing allocate nothing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>

namespace yav {

template <class Data>
class TranspositionTable {
 public:
  // calloc: fresh pages are zero already, so only the slots a search reaches are touched (a
  // proof search with two 4 MB tables is made and dropped at each of many positions). No null
  // check: the tables are at most a few MB, and the submission's characters are counted.
  explicit TranspositionTable(int log2Slots)
      : mask_((size_t(1) << log2Slots) - 1), slots_((Slot*)std::calloc(mask_ + 1, sizeof(Slot)), std::free) {}

  // What is stored for the position with hash `key`, or nullptr.
  const Data* find(uint64_t key) const {
    const Slot& s = slots_[key & mask_];
    return s.key == key ? &s.data : nullptr;
  }
  // Starts loading the slot of `key` into the cache: a solver that knows the next positions'
  // keys before it visits them hides the table's memory latency (the probe was a cache miss).
  void prefetch(uint64_t key) const { __builtin_prefetch(&slots_[key & mask_]); }
  // The data of `key` to update: what is stored for it, or fresh Data replacing another position's.
  Data& store(uint64_t key) {
    Slot& s = slots_[key & mask_];
    if (s.key != key) s = Slot{key, Data()};
    return s.data;
  }

 private:
  struct Slot {
    uint64_t key = 0;  // 0: empty (a real hash of 0 reads zero bytes: as rare as any collision)
    Data data;
  };
  static_assert(sizeof(Slot) == 16, "four slots per cache line");

  size_t mask_;
  std::unique_ptr<Slot[], void (*)(void*)> slots_;
};

}  // namespace yav
