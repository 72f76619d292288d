// An adaptive binary range coder's models, its decoder and the symbol code both directions share.
// Each binary decision is coded with a probability that adapts to the decisions seen in its
// context, so a field that is usually the same costs a fraction of a bit. The encoder
// (tools/book/range_encoder.h) and the decoder share one interface (`bit` takes the decision by
// reference: the encoder reads it, the decoder sets it), so a format is written once, as a
// function templated on the coder, and both directions run the same code. Used by the embedded
// book (book_format.h) and the book database's verdicts (tools/book/db_file.h).
#pragma once

#include <cstdint>
#include <string>

namespace yav {

// The probability, in 1/2048ths, that the next decision in this context is 0. Moving 1/32 of the
// way towards each decision seen keeps it within [31, 2017]: never certain, so any input decodes.
struct BitModel {
  uint16_t zero = 1024;
};
constexpr int kBitModelBits = 11;
constexpr int kBitModelShift = 5;
// The model's step towards the decision just coded; the encoder and the decoder must take the same.
inline void adapt(BitModel& m, uint32_t b) {
  m.zero =
      uint16_t(b ? m.zero - (m.zero >> kBitModelShift) : m.zero + (((1u << kBitModelBits) - m.zero) >> kBitModelShift));
}

// Reads a stream the encoder wrote in bytes [begin, end) of `in`. Reading past `end` (a truncated
// or damaged stream) sets `overrun()` and continues with zeros, so the caller can check once per
// record instead of at every bit.
class RangeDecoder {
 public:
  static constexpr bool kEncoding = false;
  RangeDecoder(const std::string& in, size_t begin, size_t end) : in_(in), pos_(begin), end_(end) {
    for (int i = 0; i < 5; ++i) code_ = code_ << 8 | next();
  }

  void bit(BitModel& m, uint32_t& b) {
    const uint32_t bound = (range_ >> kBitModelBits) * m.zero;
    if (code_ < bound) {
      range_ = bound;
      b = 0;
    } else {
      code_ -= bound;
      range_ -= bound;
      b = 1;
    }
    adapt(m, b);
    for (; range_ < (1u << 24); range_ <<= 8) code_ = code_ << 8 | next();
  }
  bool overrun() const { return overrun_; }
  size_t position() const { return pos_; }

 private:
  uint32_t next() {
    if (pos_ < end_) return uint8_t(in_[pos_++]);
    overrun_ = true;
    return 0;
  }

  const std::string& in_;
  size_t pos_, end_;
  uint32_t range_ = 0xFFFFFFFFu;
  uint32_t code_ = 0;
  bool overrun_ = false;
};

// A symbol of `Bits` bits, most significant first, each bit in the context of the bits before it:
// the tree learns the whole distribution of the symbol.
template <int Bits>
struct SymbolModel {
  BitModel node[1 << Bits];
};
template <class Coder, int Bits>
void codeSymbol(Coder& c, SymbolModel<Bits>& m, uint32_t& symbol) {
  uint32_t index = 1, out = 0;
  for (int i = Bits - 1; i >= 0; --i) {
    uint32_t b = symbol >> i & 1;
    c.bit(m.node[index], b);
    index = index << 1 | b;
    out = out << 1 | b;
  }
  symbol = out;
}

}  // namespace yav
