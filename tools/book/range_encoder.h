// The range coder's encoder (the models, the decoder and the symbol code: src/range_coder.h), and
// the unbounded numbers of the book database's verdicts (version 7, tools/book/db_file.h).
#pragma once

#include <cstdint>
#include <string>

#include "range_coder.h"

namespace yav::book {

class RangeEncoder {
 public:
  static constexpr bool kEncoding = true;
  explicit RangeEncoder(std::string& out) : out_(out) {}

  void bit(BitModel& m, uint32_t& b) {
    const uint32_t bound = (range_ >> kBitModelBits) * m.zero;
    if (b == 0) {
      range_ = bound;
    } else {
      low_ += bound;
      range_ -= bound;
    }
    adapt(m, b);
    for (; range_ < (1u << 24); range_ <<= 8) shiftLow();
  }
  // Writes what is still pending; the stream is complete after it.
  void finish() {
    for (int i = 0; i < 5; ++i) shiftLow();
  }

 private:
  // Emits the top byte of `low_` once no carry can change it. Bytes 0xFF wait (`pending_`) until
  // it is known whether a carry turns them, and the byte before them, over.
  void shiftLow() {
    if (uint32_t(low_) < 0xFF000000u || (low_ >> 32) != 0) {
      const uint8_t carry = uint8_t(low_ >> 32);
      for (uint8_t byte = cache_; pending_ > 0; --pending_, byte = 0xFF) out_.push_back(char(uint8_t(byte + carry)));
      cache_ = uint8_t(low_ >> 24);
    }
    ++pending_;
    low_ = (low_ & 0x00FFFFFFu) << 8;
  }

  std::string& out_;
  uint64_t low_ = 0;
  uint32_t range_ = 0xFFFFFFFFu;
  uint8_t cache_ = 0;
  uint64_t pending_ = 1;
};

// An unbounded number: its bit length (0 for zero) as a symbol, then the bits below its leading 1,
// each with a model per position.
struct NumberModel {
  SymbolModel<7> length;
  BitModel bits[64];
};
template <class Coder>
void codeNumber(Coder& c, NumberModel& m, uint64_t& v) {
  uint32_t length = 0;
  if constexpr (Coder::kEncoding)
    for (uint64_t x = v; x; x >>= 1) ++length;
  codeSymbol(c, m.length, length);
  if (length > 64) length = 64;  // a damaged stream; the caller rejects the value
  uint64_t out = length ? 1 : 0;
  for (int i = int(length) - 2; i >= 0; --i) {
    uint32_t b = uint32_t(v >> i & 1);
    c.bit(m.bits[i], b);
    out = out << 1 | b;
  }
  v = out;
}

}  // namespace yav::book
