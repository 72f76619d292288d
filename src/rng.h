// Small, fast, seedable random numbers for playouts and self-play (xoshiro-style quality is not
// needed; speed and reproducibility from a seed are).
#pragma once

#include <cstdint>

namespace yav {

class Rng {
 public:
  explicit Rng(uint64_t seed = 0x2545F4914F6CDD1Dull) { reseed(seed); }
  void reseed(uint64_t seed) { state_ = seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull; }
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
