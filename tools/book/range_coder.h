// An adaptive binary range coder: the book database's verdicts (version 7) are written through it.
// Each binary decision is coded with a probability that adapts to the decisions seen in its
// context, so a field that is usually the same (a move's visits near zero, a key byte equal to the
// previous key's) costs a fraction of a bit. The encoder and the decoder share one interface
// (`bit` takes the decision by reference: the encoder reads it, the decoder sets it), so a format
// is written once, as a function templated on the coder, and both directions run the same code.
#pragma once

#include <cstdint>
#include <string>

namespace yav::book {

// The probability, in 1/2048ths, that the next decision in this context is 0. Moving 1/32 of the
// way towards each decision seen keeps it within [31, 2017]: never certain, so any input decodes.
struct BitModel {
  uint16_t zero = 1024;
};
constexpr int kBitModelBits = 11;
constexpr int kBitModelShift = 5;

class RangeEncoder {
 public:
  static constexpr bool kEncoding = true;
  explicit RangeEncoder(std::string& out) : out_(out) {}

  void bit(BitModel& m, uint32_t& b) {
    const uint32_t bound = (range_ >> kBitModelBits) * m.zero;
    if (b == 0) {
      range_ = bound;
      m.zero = uint16_t(m.zero + (((1u << kBitModelBits) - m.zero) >> kBitModelShift));
    } else {
      low_ += bound;
      range_ -= bound;
      m.zero = uint16_t(m.zero - (m.zero >> kBitModelShift));
    }
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
      m.zero = uint16_t(m.zero + (((1u << kBitModelBits) - m.zero) >> kBitModelShift));
      b = 0;
    } else {
      code_ -= bound;
      range_ -= bound;
      m.zero = uint16_t(m.zero - (m.zero >> kBitModelShift));
      b = 1;
    }
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
