#include "app/deflate.h"

#include <algorithm>
#include <array>

namespace attn {
namespace {

constexpr int kWindow = 32768;       // deflate's largest distance
constexpr int kMinMatch = 3, kMaxMatch = 258;
constexpr int kHashBits = 15;
constexpr int kMaxChain = 48;        // candidates tried per position
constexpr int kGoodEnough = 64;      // a match this long ends the search early

// Length codes 257..285 and distance codes 0..29: base value and extra bits (RFC 1951, 3.2.5).
constexpr std::array<int, 29> kLengthBase = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                             31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
constexpr std::array<int, 29> kLengthExtra = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                              2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
constexpr std::array<int, 30> kDistBase = {1,    2,    3,    4,    5,    7,     9,     13,    17,  25,
                                           33,   49,   65,   97,   129,  193,   257,   385,   513, 769,
                                           1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
constexpr std::array<int, 30> kDistExtra = {0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6,
                                            6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

// Bits go out least significant first; Huffman codes most significant bit first.
class BitWriter {
 public:
  explicit BitWriter(std::vector<std::uint8_t>& out) : out_(out) {}
  void bits(std::uint32_t value, int count) {
    acc_ |= static_cast<std::uint64_t>(value) << used_;
    used_ += count;
    while (used_ >= 8) {
      out_.push_back(static_cast<std::uint8_t>(acc_));
      acc_ >>= 8;
      used_ -= 8;
    }
  }
  void code(std::uint32_t code, int length) {
    std::uint32_t reversed = 0;
    for (int i = 0; i < length; ++i) reversed |= ((code >> i) & 1u) << (length - 1 - i);
    bits(reversed, length);
  }
  void flush() {
    if (used_ > 0) out_.push_back(static_cast<std::uint8_t>(acc_));
    acc_ = 0;
    used_ = 0;
  }

 private:
  std::vector<std::uint8_t>& out_;
  std::uint64_t acc_ = 0;
  int used_ = 0;
};

// Deflate's fixed literal/length code (RFC 1951, 3.2.6).
void fixed_symbol(BitWriter& w, int symbol) {
  if (symbol < 144) w.code(0x30 + symbol, 8);
  else if (symbol < 256) w.code(0x190 + symbol - 144, 9);
  else if (symbol < 280) w.code(symbol - 256, 7);
  else w.code(0xC0 + symbol - 280, 8);
}

void put_match(BitWriter& w, int length, int distance) {
  int l = static_cast<int>(kLengthBase.size()) - 1;
  while (kLengthBase[l] > length) --l;
  fixed_symbol(w, 257 + l);
  w.bits(length - kLengthBase[l], kLengthExtra[l]);
  int d = static_cast<int>(kDistBase.size()) - 1;
  while (kDistBase[d] > distance) --d;
  w.code(d, 5);
  w.bits(distance - kDistBase[d], kDistExtra[d]);
}

std::uint32_t hash3(const std::uint8_t* p) {
  const std::uint32_t v = (static_cast<std::uint32_t>(p[0]) << 16) | (p[1] << 8) | p[2];
  return (v * 2654435761u) >> (32 - kHashBits);
}

}  // namespace

std::uint32_t adler32(const std::uint8_t* data, std::size_t size) {
  std::uint32_t a = 1, b = 0;
  while (size > 0) {
    const std::size_t n = std::min<std::size_t>(size, 5552);  // no overflow before the modulo
    for (std::size_t i = 0; i < n; ++i) {
      a += data[i];
      b += a;
    }
    a %= 65521;
    b %= 65521;
    data += n;
    size -= n;
  }
  return (b << 16) | a;
}

std::vector<std::uint8_t> zlib_compress(const std::uint8_t* data, std::size_t size) {
  std::vector<std::uint8_t> out = {0x78, 0x01};  // deflate, 32 KiB window; header check bits
  out.reserve(size / 4 + 64);
  BitWriter w(out);
  w.bits(1, 1);  // the last block
  w.bits(1, 2);  // fixed Huffman codes
  std::vector<std::int64_t> head(std::size_t{1} << kHashBits, -1);
  std::vector<std::int64_t> prev(kWindow, -1);
  const auto insert = [&](std::size_t pos) {
    if (pos + kMinMatch > size) return;
    const std::uint32_t h = hash3(data + pos);
    prev[pos % kWindow] = head[h];
    head[h] = static_cast<std::int64_t>(pos);
  };
  std::size_t i = 0;
  while (i < size) {
    int best_len = 0, best_dist = 0;
    if (i + kMinMatch <= size) {
      const int max_len = static_cast<int>(std::min<std::size_t>(kMaxMatch, size - i));
      std::int64_t candidate = head[hash3(data + i)];
      for (int chain = 0; chain < kMaxChain && candidate >= 0; ++chain) {
        const std::size_t j = static_cast<std::size_t>(candidate);
        if (i - j > static_cast<std::size_t>(kWindow)) break;
        int len = 0;
        while (len < max_len && data[j + len] == data[i + len]) ++len;
        if (len > best_len) {
          best_len = len;
          best_dist = static_cast<int>(i - j);
          if (len >= kGoodEnough || len == max_len) break;
        }
        const std::int64_t next = prev[j % kWindow];
        if (next >= candidate) break;  // the slot was reused by a newer position
        candidate = next;
      }
    }
    if (best_len >= kMinMatch) {
      put_match(w, best_len, best_dist);
      for (int k = 0; k < best_len; ++k) insert(i + k);
      i += best_len;
    } else {
      fixed_symbol(w, data[i]);
      insert(i);
      ++i;
    }
  }
  fixed_symbol(w, 256);  // end of block
  w.flush();
  const std::uint32_t adler = adler32(data, size);
  for (int shift : {24, 16, 8, 0}) out.push_back(static_cast<std::uint8_t>(adler >> shift));
  return out;
}

}  // namespace attn
