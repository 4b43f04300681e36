// Whether a matrix holds only finite floats, checked at the speed of reading it.
//
// A NaN or an infinity has every exponent bit set, so with the sign bit cleared its bits
// are >= 0x7f800000 and a finite float's are below: one unsigned max per float, which the
// compilers vectorise (f32x4 in wasm, AVX natively). Eigen's allFinite() tests x - x == 0
// and is not vectorised in wasm: on a 256 x 256 weight matrix it took longer than
// the copy of the matrix into the module.
#pragma once

#include "core/base/types.h"

#include <cstdint>
#include <cstring>

namespace attn {

inline bool all_finite(const float* x, std::ptrdiff_t n) {
  std::uint32_t largest = 0;
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    std::uint32_t bits;
    std::memcpy(&bits, x + i, sizeof bits);
    bits &= 0x7fffffffu;
    largest = bits > largest ? bits : largest;
  }
  return largest < 0x7f800000u;
}

inline bool all_finite(const Eigen::Ref<const Mat>& m) {
  if (m.outerStride() == m.cols()) return all_finite(m.data(), m.size());
  for (Eigen::Index r = 0; r < m.rows(); ++r)
    if (!all_finite(m.row(r).data(), m.cols())) return false;
  return true;
}

}  // namespace attn
