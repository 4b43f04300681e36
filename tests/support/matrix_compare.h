// Test helper: compare two matrices and, on failure, say where they differ.
#pragma once

#include "core/base/types.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <sstream>
#include <string>

namespace attn::test {

// Empty when every |a - b| <= tol (and shapes match); otherwise the shapes or the max
// difference and the first few differing entries.
inline std::string describe_difference(const Mat& a, const Mat& b, float tol) {
  std::ostringstream out;
  if (a.rows() != b.rows() || a.cols() != b.cols()) {
    out << "shape (" << a.rows() << ", " << a.cols() << ") vs (" << b.rows() << ", " << b.cols() << ")";
    return out.str();
  }
  float max_diff = 0.0f;
  int shown = 0;
  for (int i = 0; i < a.rows(); ++i)
    for (int j = 0; j < a.cols(); ++j) {
      const bool both_neg_inf = std::isinf(a(i, j)) && std::isinf(b(i, j)) && a(i, j) == b(i, j);
      const float d = both_neg_inf ? 0.0f : std::fabs(a(i, j) - b(i, j));
      if (!(d <= tol)) {
        if (shown++ < 5) out << "  [" << i << "," << j << "] " << a(i, j) << " vs " << b(i, j) << "\n";
        if (!(d <= max_diff)) max_diff = d;
      }
    }
  if (shown == 0) return "";
  std::ostringstream head;
  head << shown << " entries differ by more than " << tol << ", max difference " << max_diff << ":\n";
  return head.str() + out.str();
}

#define REQUIRE_MATRIX_NEAR(a, b, tol)                                     \
  do {                                                                     \
    const std::string attn_diff_ = ::attn::test::describe_difference((a), (b), (tol)); \
    INFO(attn_diff_);                                                      \
    REQUIRE(attn_diff_.empty());                                           \
  } while (0)

inline Mat mat(int rows, int cols, std::initializer_list<float> values) {
  Mat m(rows, cols);
  int idx = 0;
  for (float v : values) m(idx / cols, idx % cols) = v, ++idx;
  return m;
}

}  // namespace attn::test
