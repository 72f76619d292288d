// Small, fast, seedable random numbers for playouts and self-play (xoshiro-style quality is not
// needed; speed and reproducibility from a seed are), and the one 64-bit mixer (splitmix64) that
// turns seeds, counters and keys into independent-looking values.
#pragma once

#include <cstdint>

namespace yav {

// 2^64 divided by the golden ratio: splitmix64's increment, and a good odd multiplier for hashing.
constexpr uint64_t kGoldenGamma = 0x9E3779B97F4A7C15ull;

// splitmix64's finaliser: a bijection of 64-bit values where every input bit affects every output bit.
constexpr uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
// One splitmix64 step: advances `state` and returns the next value of its sequence.
constexpr uint64_t splitmix64(uint64_t& state) { return mix64(state += kGoldenGamma); }

class Rng {
 public:
  explicit Rng(uint64_t seed = 0x2545F4914F6CDD1Dull) { reseed(seed); }
  void reseed(uint64_t seed) { state_ = seed * kGoldenGamma + 0x632BE59BD9B4E019ull; }
  uint64_t next() {  // wyrand
    state_ += 0xA0761D6478BD642Full;
    __uint128_t m = (__uint128_t)state_ * (state_ ^ 0xE7037ED1A0B428DBull);
    return uint64_t(m >> 64) ^ uint64_t(m);
  }
  // Uniform in [0, n) for n < 2^32 (multiply-shift, no division).
  uint32_t below(uint32_t n) { return uint32_t((uint64_t(uint32_t(next())) * n) >> 32); }

 private:
  uint64_t state_;
};

}  // namespace yav
