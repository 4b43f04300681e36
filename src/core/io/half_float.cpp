// Decoding half and bfloat16 values, and one head's block of an imported array (see
// half_float.h).
#include "core/io/half_float.h"

#include "core/base/bytes.h"

#include <cstddef>
#include <vector>

namespace attn {

float half_to_float(std::uint16_t bits) {
  // half: 1 sign bit, 5 exponent bits (bias 15), 10 mantissa bits.
  const std::uint32_t sign = static_cast<std::uint32_t>(bits & 0x8000u) << 16;
  const std::uint32_t exponent = (bits >> 10) & 0x1Fu;
  const std::uint32_t mantissa = bits & 0x3FFu;
  if (exponent == 0) {
    // Zero or subnormal: mantissa * 2^-24, exact in float (a normal float down to 2^-24).
    const float magnitude = static_cast<float>(mantissa) * 5.9604644775390625e-8f;  // 2^-24
    return sign ? -magnitude : magnitude;
  }
  if (exponent == 0x1F)  // inf (mantissa 0) or NaN; the NaN payload moves to the top bits
    return float_from_bits(sign | 0x7F800000u | (mantissa << 13));
  // Normal: rebias the exponent from 15 to 127 and widen the mantissa.
  return float_from_bits(sign | ((exponent + 127 - 15) << 23) | (mantissa << 13));
}

float bfloat16_to_float(std::uint16_t bits) {
  return float_from_bits(static_cast<std::uint32_t>(bits) << 16);
}

namespace {

// Every half's float value, computed once: a layer of a large float16 file is decoded with
// one lookup per element instead of half_to_float's branches.
const float* half_table() {
  static const std::vector<float> table = [] {
    std::vector<float> t(65536);
    for (std::uint32_t h = 0; h < 65536; ++h) t[h] = half_to_float(static_cast<std::uint16_t>(h));
    return t;
  }();
  return table.data();
}

}  // namespace

Mat decode_head_block(const NpyArray& a, bool bfloat16, int layer, int head) {
  if (a.shape.size() != 4 || layer < 0 || head < 0 || layer >= a.shape[0] || head >= a.shape[1]) return Mat();
  const int rows = static_cast<int>(a.shape[2]), cols = static_cast<int>(a.shape[3]);
  const std::size_t itemsize = npy_itemsize(a.dtype);
  const std::size_t count = static_cast<std::size_t>(rows) * cols;
  const std::size_t first = (static_cast<std::size_t>(layer) * a.shape[1] + head) * count;
  if ((first + count) * itemsize > a.data.size()) return Mat();
  Mat m(rows, cols);
  const std::uint8_t* p = a.data.data() + first * itemsize;
  float* dst = m.data();
  if (a.dtype == NpyDtype::Float16) {
    const float* table = half_table();
    for (std::size_t i = 0; i < count; ++i) dst[i] = table[load_le16(p + 2 * i)];
    return m;
  }
  for (std::size_t i = 0; i < count; ++i) {
    switch (a.dtype) {
      case NpyDtype::Float32: dst[i] = float_from_bits(load_le32(p + 4 * i)); break;
      case NpyDtype::Float16: dst[i] = half_to_float(load_le16(p + 2 * i)); break;
      case NpyDtype::Float64: dst[i] = static_cast<float>(double_from_bits(load_le64(p + 8 * i))); break;
      case NpyDtype::UInt16: dst[i] = bfloat16 ? bfloat16_to_float(load_le16(p + 2 * i)) : load_le16(p + 2 * i); break;
      default: dst[i] = 0.0f;
    }
  }
  return m;
}

}  // namespace attn
